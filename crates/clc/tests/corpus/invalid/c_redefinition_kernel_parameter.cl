// expect-error: 6
// rule: C99 6.7 a parameter name shall be declared once

// Two kernel parameters with the same name.

__kernel void k(__global int *out, __global int *out)
{
    out[0] = 1;
}
