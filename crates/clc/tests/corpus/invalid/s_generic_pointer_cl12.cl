// options: -cl-std=CL1.2
// expect-error: 10
// rule: 6.15.10 to_global and the generic address space need OpenCL C 2.0

// to_global under OpenCL C 1.2, where it is not declared.

__kernel void k(__global int *out)
{
    int x = 1;
    __global int *g = to_global(out);
    g[0] = x;
}
