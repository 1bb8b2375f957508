// expect-error: 9
// rule: 6.5.1 the remainder operator % operates only on integer types

// % applied to floats.

__kernel void k(__global float *out)
{
    float a = out[0], b = out[1];
    out[2] = a % b;
}
