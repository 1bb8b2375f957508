// options: -cl-std=CL2.0
// Builtins added in OpenCL C 2.0 that need no optional device feature:
// ctz (6.15.3), get_global_linear_id / get_local_linear_id /
// get_enqueued_local_size (6.15.1), work_group_barrier with and without a
// memory scope (6.15.8), and a ternary-heavy compaction written with them.

__kernel void linear_ids(__global uint *out)
{
    size_t g = get_global_linear_id();
    size_t l = get_local_linear_id();
    size_t enq = get_enqueued_local_size(0) * get_enqueued_local_size(1);
    out[g] = (uint)(l + enq);
}

__kernel void trailing_zeros(__global const uint4 *in, __global int4 *out)
{
    size_t i = get_global_id(0);
    uint4 v = in[i];
    out[i] = as_int4(ctz(v)) + as_int4(clz(v)) + ctz((int4)(8));
}

__kernel void compact(__global const int *in, __global int *out, __global int *count,
                      __local int *flags)
{
    size_t lid = get_local_id(0);
    int v = in[get_global_id(0)];
    flags[lid] = v != 0;
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        int n = 0;
        for (size_t j = 0; j < get_local_size(0); j++)
            n += flags[j];
        flags[0] = n;
    }
    work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group);
    if (lid == 0)
        atomic_add(count, flags[0]);
    work_group_barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = v != 0 ? v : -1;
}
