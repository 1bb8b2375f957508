// expect-error: 11
// rule: C99 6.8.2 a compound statement must end with '}'

// A kernel whose closing brace is missing; the error is at the end of the
// file, just after the last token.

__kernel void k(__global int *out)
{
    for (int i = 0; i < 4; i++) {
        out[i] = i;
    }
