// expect-error: 9
// rule: C99 6.5.2.2 the called expression shall have function type

// Calling an int variable.

__kernel void k(__global int *out)
{
    int scale = 2;
    out[0] = scale(3);
}
