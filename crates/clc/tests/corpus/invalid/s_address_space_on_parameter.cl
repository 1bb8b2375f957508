// expect-error: 6
// rule: 6.7 address spaces can not be used with a (non-pointer) function parameter

// A scalar parameter qualified with __global.

int twice(__global int x)
{
    return 2 * x;
}

__kernel void k(__global int *out)
{
    out[0] = twice(out[1]);
}
