// expect-error: 6
// rule: 6.7.7 variables in the __constant address space are required to be initialized

// A program-scope __constant array with no initializer.

__constant float lut[16];

__kernel void k(__global float *out)
{
    out[0] = lut[0];
}
