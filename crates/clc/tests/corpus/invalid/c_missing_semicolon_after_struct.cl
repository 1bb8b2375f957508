// expect-error: 8
// rule: C99 6.7 a struct declaration must end with ';'

// A struct definition without the semicolon after the closing brace.

struct Pair {
    int a, b;
}

__kernel void k(__global int *out)
{
    out[0] = 1;
}
