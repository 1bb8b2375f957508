// expect-error: 8
// rule: C99 6.4.9 a comment that starts with /* must end with */

// A block comment that is never closed.

__kernel void k(__global int *out)
{
    out[0] = 1; /* store the answer
    out[1] = 2;
}
