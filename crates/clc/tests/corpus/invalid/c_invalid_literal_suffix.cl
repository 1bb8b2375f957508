// expect-error: 9
// expect-error: 10
// rule: C99 6.4.4 a numeric constant must have a valid suffix

// Integer and floating constants with invalid suffixes.

__kernel void k(__global float *out)
{
    int a = 123abc;
    float b = 2.5u;
    out[0] = a + b;
}
