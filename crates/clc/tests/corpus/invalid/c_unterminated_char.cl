// expect-error: 8
// rule: C99 6.4.4.4 a character constant must be closed

// A character constant with no closing quote.

__kernel void k(__global char *out)
{
    out[0] = 'a;
}
