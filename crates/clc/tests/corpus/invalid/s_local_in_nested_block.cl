// expect-error: 9
// rule: 6.7.6 __local variables may only be declared in the outermost scope of a kernel function

// A __local variable declared inside an if block of a kernel.

__kernel void k(__global float *out, const int use_tile)
{
    if (use_tile) {
        __local float tile[64];
        tile[get_local_id(0)] = out[get_global_id(0)];
        barrier(CLK_LOCAL_MEM_FENCE);
        out[get_global_id(0)] = tile[0];
    }
}
