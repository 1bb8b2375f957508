// expect-error: 7
// rule: C99 6.7.2 at least one type specifier shall be given (no implicit int)
// note: PoCL accepts this file (with a warning); C99 6.7.2p2: "At least one type specifier shall be given in the declaration specifiers in each declaration".

// A function without a return type.

helper(void)
{
    return 1;
}

__kernel void k(__global int *out)
{
    out[0] = helper();
}
