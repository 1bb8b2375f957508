// expect-error: 9
// rule: C99 6.8.6.4 a return statement with an expression shall not appear in a void function

// A kernel (returns void) that returns a value.

__kernel void k(__global int *out)
{
    out[0] = 1;
    return 0;
}
