// expect-error: 8
// rule: C99 6.6 4 / 0 is not an integer constant expression, so it cannot size an array (6.11.d: no VLAs)

// An array size that divides by zero.

__kernel void k(__global int *out)
{
    int a[4 / 0];
    out[0] = 0;
}
