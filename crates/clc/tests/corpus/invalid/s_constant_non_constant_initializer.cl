// expect-error: 8
// rule: 6.7.7 __constant initializers must be compile time constants

// A __constant variable in kernel scope initialised from an argument.

__kernel void k(__global float *out, const float scale)
{
    __constant float factor = scale * 2.0f;
    out[0] = factor;
}
