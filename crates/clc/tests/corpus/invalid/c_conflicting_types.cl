// expect-error: 7
// rule: C99 6.7 all declarations of a function shall have compatible types

// A prototype and a definition that disagree on the return type.

int scale(float x);
float scale(float x) { return 2.0f * x; }

__kernel void k(__global float *out)
{
    out[0] = scale(1.0f);
}
