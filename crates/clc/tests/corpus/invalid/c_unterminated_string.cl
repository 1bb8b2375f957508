// expect-error: 8
// rule: C99 6.4.5 a string literal must end on the line where it starts

// A string literal with no closing quote.

__kernel void k(__global int *out)
{
    printf("value: %d\n, out[0]);
}
