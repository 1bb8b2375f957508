// options: -cl-std=CL3.0
// requires: __opencl_c_pipes
// expect-error: 10
// rule: 6.15.18.1 the pipe specifier cannot be used with variables declared inside a kernel

// A pipe variable declared inside a kernel.

__kernel void k(__global int *out)
{
    pipe int p;
    out[0] = 0;
}
