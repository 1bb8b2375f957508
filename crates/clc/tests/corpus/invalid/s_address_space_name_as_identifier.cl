// expect-error: 8
// rule: 6.7 the address space qualifier names are reserved and shall not be used otherwise

// A variable named global.

__kernel void k(__global int *out)
{
    int global = 3;
    out[0] = 1;
}
