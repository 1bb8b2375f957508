// expect-error: 8
// rule: C99 6.5.1 a parenthesized expression must be closed

// A missing ')' in a condition; the error is at the token after it.

__kernel void k(__global int *out)
{
    if ((out[0] > 0) out[1] = 1;
}
