// expect-error: 8
// rule: C99 6.5.16.1 an integer (other than 0) cannot be assigned to a pointer without a cast

// Initialising a pointer from an integer constant.

__kernel void k(__global int *out)
{
    __global int *p = 5;
    out[0] = *p;
}
