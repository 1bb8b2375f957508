// options: -cl-std=CL1.2
// expect-error: 7
// rule: 6.11.w / 6.7 program scope __global variables need OpenCL C 2.0 or the 3.0 feature

// A program-scope __global variable under OpenCL C 1.2.

__global float weights[4] = { 1.0f, 2.0f, 3.0f, 4.0f };

__kernel void k(__global float *out)
{
    out[0] = weights[0];
}
