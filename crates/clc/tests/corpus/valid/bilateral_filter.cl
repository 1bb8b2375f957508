// Bilateral filter on an RGBA float image stored in a buffer: spatial
// Gaussian weights precomputed in __constant memory, range weights from
// colour distance, borders clamped.

#define RADIUS 3
#define DIAM (2 * RADIUS + 1)

__kernel void bilateral(__global const float4 *src, __global float4 *dst,
                        __constant float *spatial /* DIAM * DIAM */,
                        const int width, const int height, const float inv_two_sigma_r2)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    float4 centre = src[y * width + x];
    float4 acc = (float4)(0.0f);
    float norm = 0.0f;
    for (int dy = -RADIUS; dy <= RADIUS; dy++) {
        int yy = clamp(y + dy, 0, height - 1);
        for (int dx = -RADIUS; dx <= RADIUS; dx++) {
            int xx = clamp(x + dx, 0, width - 1);
            float4 p = src[yy * width + xx];
            float3 d = p.xyz - centre.xyz;
            float wgt = spatial[(dy + RADIUS) * DIAM + dx + RADIUS] *
                        native_exp(-dot(d, d) * inv_two_sigma_r2);
            acc += wgt * p;
            norm += wgt;
        }
    }
    dst[y * width + x] = acc / norm;
}
