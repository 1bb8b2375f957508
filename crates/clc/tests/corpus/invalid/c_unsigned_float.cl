// expect-error: 8
// rule: C99 6.7.2 unsigned can only combine with integer type specifiers

// An unsigned float.

__kernel void k(__global float *out)
{
    unsigned float u = 1.0f;
    out[0] = u;
}
