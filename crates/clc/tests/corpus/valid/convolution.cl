// General 2-D convolution with a mask passed in __constant memory, a 1-D
// convolution with the input window staged in __local memory, and a
// multi-channel (float4) variant.

__kernel void convolve2d(__global const float *input,
                         __constant float *mask,
                         __global float *output,
                         const int width, const int height,
                         const int mask_radius)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    const int mask_width = 2 * mask_radius + 1;
    float sum = 0.0f;
    for (int my = -mask_radius; my <= mask_radius; my++) {
        int iy = y + my;
        if (iy < 0 || iy >= height)
            continue;
        for (int mx = -mask_radius; mx <= mask_radius; mx++) {
            int ix = x + mx;
            if (ix < 0 || ix >= width)
                continue;
            sum += input[iy * width + ix] *
                   mask[(my + mask_radius) * mask_width + (mx + mask_radius)];
        }
    }
    output[y * width + x] = sum;
}

__kernel void convolve1d_local(__global const float *input,
                               __constant float *filter,
                               __global float *output,
                               __local float *window,
                               const int n,
                               const int radius)
{
    int gid = get_global_id(0);
    int lid = get_local_id(0);
    int lsize = get_local_size(0);
    int start = get_group_id(0) * lsize - radius;

    for (int i = lid; i < lsize + 2 * radius; i += lsize) {
        int src = start + i;
        window[i] = (src >= 0 && src < n) ? input[src] : 0.0f;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (gid >= n)
        return;
    float acc = 0.0f;
    for (int k = 0; k <= 2 * radius; k++)
        acc = fma(window[lid + k], filter[k], acc);
    output[gid] = acc;
}

__kernel void convolve_rgba(__global const float4 *in, __global float4 *out,
                            __constant float *mask3x3, const int width, const int height)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1)
        return;
    float4 acc = 0.0f;
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++)
            acc += mask3x3[j * 3 + i] * in[(y + j - 1) * width + (x + i - 1)];
    out[y * width + x] = acc;
}
