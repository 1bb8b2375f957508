// options: -cl-std=CL3.0
// requires: __opencl_c_pipes
// expect-error: 8
// rule: 6.15.18 using the read_write qualifier with a pipe is a compilation error

// A read_write pipe argument.

__kernel void k(read_write pipe int p, __global int *out)
{
    out[0] = 0;
}
