// requires: !fp16
// expect-error: 10
// expect-error: 11
// rule: 6.3.1.2 without cl_khr_fp16 a half pointer cannot be dereferenced; use vload_half

// Reading and writing half values through a pointer without cl_khr_fp16.

__kernel void k(__global half *p, __global float *out)
{
    float a = *p;
    p[1] = p[0];
    out[0] = a;
}
