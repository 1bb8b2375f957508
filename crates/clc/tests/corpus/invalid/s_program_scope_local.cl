// expect-error: 6
// rule: 6.7.6 __local variables can only be declared in the outermost scope of a kernel function

// A __local array at program scope.

__local float shared_tile[64];

__kernel void k(__global float *out)
{
    out[0] = 0.0f;
}
