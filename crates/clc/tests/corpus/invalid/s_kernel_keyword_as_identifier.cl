// expect-error: 9
// expect-error: 10
// rule: 6.9.1 the __kernel and kernel names are reserved and shall not be used otherwise

// Using kernel as a variable name.

__kernel void k(__global int *out)
{
    int kernel = 3;
    out[0] = kernel;
}
