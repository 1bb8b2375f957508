// expect-error: 9
// rule: C99 6.8.6.4 a return without an expression shall only appear in a void function

// return; in a function returning int.

int clamp_index(int i, int n)
{
    if (i < 0)
        return;
    return i < n ? i : n - 1;
}

__kernel void k(__global int *out)
{
    out[0] = clamp_index(5, 3);
}
