// requires: !fp16
// expect-error: 7
// rule: 6.11.n half is a storage format only without cl_khr_fp16

// A half scalar kernel argument on a device without cl_khr_fp16.

__kernel void k(__global float *out, half scale)
{
    out[0] = 1.0f;
}
