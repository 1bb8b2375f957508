// expect-error: 8
// rule: 6.5.4 relational operands must be of the same vector type; other implicit conversions are illegal

// Comparing an int4 with a uint4.

__kernel void k(__global int4 *a, __global uint4 *b, __global int4 *out)
{
    out[0] = a[0] < b[0];
}
