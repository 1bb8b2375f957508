// expect-error: 8
// rule: C99 6.6 an integer constant expression used as array size shall be valid (division by zero)

// An array size that divides by zero.

__kernel void k(__global int *out)
{
    int a[4 / 0];
    out[0] = 0;
}
