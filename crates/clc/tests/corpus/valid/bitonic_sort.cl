// Bitonic sort (Batcher, 1968) of unsigned keys with payloads: a global
// compare-and-swap step for large strides and a __local kernel that runs all
// steps whose stride fits inside one work-group.

inline void compare_swap(__local uint2 *a, __local uint2 *b, bool ascending)
{
    uint2 x = *a, y = *b;
    if ((x.x > y.x) == ascending) {
        *a = y;
        *b = x;
    }
}

/* One (stage, pass) step over the whole array; one work-item per pair. */
__kernel void bitonic_step(__global uint *keys,
                           __global uint *values,
                           const uint stage,
                           const uint pass)
{
    uint i = get_global_id(0);
    uint pair_distance = 1u << (stage - pass);
    uint block_width = 2u * pair_distance;
    uint left = (i % pair_distance) + (i / pair_distance) * block_width;
    uint right = left + pair_distance;
    bool ascending = ((i >> stage) & 1u) == 0u;

    uint kl = keys[left], kr = keys[right];
    if ((kl > kr) == ascending) {
        keys[left] = kr;
        keys[right] = kl;
        uint t = values[left];
        values[left] = values[right];
        values[right] = t;
    }
}

/* Sorts blocks of 2*local_size elements entirely in local memory. */
__kernel void bitonic_local(__global uint2 *data, __local uint2 *tile)
{
    const uint lid = get_local_id(0);
    const uint lsize = get_local_size(0);
    const uint n = 2 * lsize;
    __global uint2 *block = data + get_group_id(0) * n;

    tile[lid] = block[lid];
    tile[lid + lsize] = block[lid + lsize];
    barrier(CLK_LOCAL_MEM_FENCE);

    for (uint size = 2; size <= n; size <<= 1) {
        bool ascending = ((lid & (size / 2)) == 0);
        for (uint stride = size / 2; stride > 0; stride >>= 1) {
            uint pos = 2 * lid - (lid & (stride - 1));
            compare_swap(&tile[pos], &tile[pos + stride], ascending);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }

    block[lid] = tile[lid];
    block[lid + lsize] = tile[lid + lsize];
}
