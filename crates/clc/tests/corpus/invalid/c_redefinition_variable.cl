// expect-error: 9
// rule: C99 6.7 an identifier in one scope shall have at most one definition

// The same local variable declared twice in one block.

__kernel void k(__global int *out)
{
    int total = 0;
    int total = 1;
    out[0] = total;
}
