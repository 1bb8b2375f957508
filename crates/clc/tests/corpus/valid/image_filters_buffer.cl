// Gaussian blur (separable, 5 taps) and Sobel edge magnitude on grey-scale
// images stored in plain buffers, borders clamped to the edge.

__constant float gauss5[5] = { 0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f };

inline int clamp_index(int v, int hi) { return min(max(v, 0), hi - 1); }

__kernel void gaussian_rows(__global const float *src, __global float *dst,
                            const int width, const int height)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    float sum = 0.0f;
    for (int k = -2; k <= 2; ++k)
        sum += gauss5[k + 2] * src[y * width + clamp_index(x + k, width)];
    dst[y * width + x] = sum;
}

__kernel void gaussian_cols(__global const float *src, __global float *dst,
                            const int width, const int height)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    float sum = 0.0f;
    for (int k = -2; k <= 2; ++k)
        sum += gauss5[k + 2] * src[clamp_index(y + k, height) * width + x];
    dst[y * width + x] = sum;
}

__kernel void sobel(__global const uchar *src, __global uchar *dst,
                    const int width, const int height)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    float p[3][3];
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
            p[dy + 1][dx + 1] = (float)src[clamp_index(y + dy, height) * width +
                                           clamp_index(x + dx, width)];
    float gx = (p[0][2] + 2.0f * p[1][2] + p[2][2]) - (p[0][0] + 2.0f * p[1][0] + p[2][0]);
    float gy = (p[2][0] + 2.0f * p[2][1] + p[2][2]) - (p[0][0] + 2.0f * p[0][1] + p[0][2]);
    float g = hypot(gx, gy);
    dst[y * width + x] = convert_uchar_sat(g);
}
