// expect-error: 9
// rule: 6.5.10 the operands of a vector shift must have the same number of components

// Shifting an int4 by an int2.

__kernel void k(__global int4 *out)
{
    int4 v = out[0];
    out[1] = v << (int2)(1, 2);
}
