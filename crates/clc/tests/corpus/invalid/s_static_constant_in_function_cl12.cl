// options: -cl-std=CL1.2
// expect-error: 10
// rule: 1.2 spec 6.8 static can only be used for non-kernel functions and program-scope variables

// A static __constant variable inside a kernel under OpenCL C 1.2 (allowed
// from OpenCL C 2.0 on).

__kernel void k(__global float *out)
{
    static __constant float gamma = 2.2f;
    out[0] = gamma;
}
