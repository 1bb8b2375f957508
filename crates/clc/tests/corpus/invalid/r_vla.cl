// expect-error: 8
// rule: 6.11.d variable length arrays are not supported

// A private array whose size is a kernel argument.

__kernel void window_sum(__global const float *in, __global float *out, const int radius)
{
    float window[2 * radius + 1];
    for (int i = 0; i <= 2 * radius; i++)
        window[i] = in[get_global_id(0) + i];
    out[get_global_id(0)] = window[radius];
}
