// expect-error: 8
// rule: 6.5 operands of a binary operator must have the same vector type

// Multiplying an int4 by a uint4.

__kernel void k(__global int4 *a, __global uint4 *b, __global int4 *out)
{
    out[0] = a[0] * b[0];
}
