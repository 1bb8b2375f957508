// expect-error: 8
// rule: 6.7.6 __local variables may only be declared in the outermost scope of a kernel function

// A __local variable declared in a non-kernel helper function.

float stage(float x)
{
    __local float tile[64];
    tile[get_local_id(0)] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    return tile[0];
}

__kernel void k(__global float *out)
{
    out[get_global_id(0)] = stage(1.0f);
}
