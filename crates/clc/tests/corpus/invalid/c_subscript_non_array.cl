// expect-error: 9
// rule: C99 6.5.2.1 the subscripted expression must be a pointer or array

// Subscripting an int.

__kernel void k(__global int *out)
{
    int n = 4;
    out[0] = n[1];
}
