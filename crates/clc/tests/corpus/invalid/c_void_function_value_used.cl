// expect-error: 10
// rule: C99 6.3.2.2 the value of a void expression shall not be used

// Using the result of a void function.

void touch(__global int *p) { p[0] = 1; }

__kernel void k(__global int *out)
{
    int r = touch(out);
    out[1] = r;
}
