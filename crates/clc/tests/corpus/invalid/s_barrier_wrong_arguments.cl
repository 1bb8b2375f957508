// expect-error: 10
// expect-error: 11
// rule: 6.15.8 barrier takes one cl_mem_fence_flags argument

// barrier without arguments and with two.

__kernel void k(__global int *out, __local int *tile)
{
    tile[get_local_id(0)] = out[get_global_id(0)];
    barrier();
    barrier(CLK_LOCAL_MEM_FENCE, CLK_GLOBAL_MEM_FENCE);
    out[get_global_id(0)] = tile[0];
}
