// expect-error: 8
// rule: C99 6.9.1 a function definition cannot appear inside another function

// A helper defined inside a kernel body.

__kernel void k(__global int *out)
{
    int twice(int x) { return 2 * x; }
    out[0] = 2;
}
