// expect-error: 8
// rule: 6.7.6 a function-scope __global variable must be static or extern

// A non-static __global variable inside a kernel.

__kernel void k(__global int *out)
{
    __global int total;
    out[0] = 1;
}
