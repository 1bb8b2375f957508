// expect-error: 10
// rule: C99 6.10.3 a function-like macro must be invoked with as many arguments as parameters

// A three-parameter macro invoked with two arguments.

#define MAD(a, b, c) ((a) * (b) + (c))

__kernel void k(__global float *out)
{
    out[0] = MAD(1.0f, 2.0f);
}
