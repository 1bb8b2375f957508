// options: -cl-std=CL1.2
// expect-error: 7
// rule: 6.11.w / 6.7 program scope variables must be __constant in OpenCL C 1.2

// A program-scope variable without __constant under OpenCL C 1.2.

int counter = 0;

__kernel void k(__global int *out)
{
    out[0] = counter;
}
