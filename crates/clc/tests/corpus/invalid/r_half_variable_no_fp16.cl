// requires: !fp16
// expect-error: 9
// rule: 6.11.n half cannot be used for arithmetic without cl_khr_fp16

// A half variable and half arithmetic on a device without cl_khr_fp16.

__kernel void k(__global half *data)
{
    half h = 1.0f;
    vstore_half(vload_half(0, data) * 2.0f, 0, data);
}
