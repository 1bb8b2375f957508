// expect-error: 8
// rule: C99 6.7.5.2 an array size shall be greater than zero

// An array with a negative size.

__kernel void k(__global int *out)
{
    int a[-1];
    out[0] = 0;
}
