// #pragma OPENCL EXTENSION (6.12, 9.1): enable/disable of named extensions
// and "all", and the extension macros that tell a kernel which are present.

#pragma OPENCL EXTENSION all : disable
#pragma OPENCL EXTENSION cl_khr_global_int32_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_local_int32_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_byte_addressable_store : enable

#ifdef cl_khr_int64_base_atomics
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#define HAVE_ATOM64 1
#else
#define HAVE_ATOM64 0
#endif

__kernel void counters(__global int *counter, __global uchar *bytes)
{
    __local int local_count;
    if (get_local_id(0) == 0)
        local_count = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atom_inc(&local_count);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        atom_add(counter, local_count);
    bytes[get_global_id(0)] = (uchar)HAVE_ATOM64;
}

#if HAVE_ATOM64
__kernel void counters64(__global long *counter)
{
    atom_add(counter, 1L);
    atom_max(counter + 1, (long)get_global_id(0));
}
#endif

#pragma OPENCL EXTENSION cl_khr_global_int32_base_atomics : disable
