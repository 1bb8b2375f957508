// 256-bin histogram of 8-bit data: per-work-group sub-histograms in __local
// memory with atomic_inc, merged into the global histogram with atomic_add.

#define BINS 256

__kernel void histogram256(__global const uchar *data,
                           const unsigned int n,
                           __global unsigned int *hist)
{
    __local unsigned int local_hist[BINS];
    const unsigned int lid = get_local_id(0);
    const unsigned int lsize = get_local_size(0);

    for (unsigned int b = lid; b < BINS; b += lsize)
        local_hist[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (unsigned int i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&local_hist[data[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);

    for (unsigned int b = lid; b < BINS; b += lsize) {
        unsigned int count = local_hist[b];
        if (count != 0)
            atomic_add(&hist[b], count);
    }
}

/* Luminance histogram of RGBA8 pixels; bins are clamped to [0, 255]. */
__kernel void histogram_luma(__global const uchar4 *pixels,
                             const int count,
                             volatile __global int *hist)
{
    int i = get_global_id(0);
    if (i >= count)
        return;
    float4 p = convert_float4(pixels[i]);
    float y = 0.299f * p.x + 0.587f * p.y + 0.114f * p.z;
    int bin = clamp((int)(y + 0.5f), 0, BINS - 1);
    atomic_add(&hist[bin], 1);
}

/* Largest value seen, with atomic_max on a global counter. */
__kernel void max_value(__global const int *values, const int count,
                        __global int *result)
{
    int i = get_global_id(0);
    if (i < count)
        atomic_max(result, values[i]);
}
