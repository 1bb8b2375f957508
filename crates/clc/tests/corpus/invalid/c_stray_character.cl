// expect-error: 8
// rule: C99 6.4 every token must be a valid preprocessing token of the language

// A stray @ in an expression.

__kernel void k(__global int *out)
{
    out[0] = 1 @ 2;
}
