// Work-efficient exclusive prefix sum of one work-group's block (Blelloch,
// "Prefix Sums and Their Applications", 1990): up-sweep, clear, down-sweep.
// Each work-item handles two elements; block sums go to a second array so a
// later pass can add them back.

__kernel void scan_block(__global const int *input,
                         __global int *output,
                         __global int *block_sums,
                         __local int *temp,
                         const int n)
{
    const int lid = get_local_id(0);
    const int block = get_group_id(0);
    const int m = 2 * get_local_size(0); /* elements per block */
    const int base = block * m;

    temp[2 * lid]     = (base + 2 * lid < n)     ? input[base + 2 * lid]     : 0;
    temp[2 * lid + 1] = (base + 2 * lid + 1 < n) ? input[base + 2 * lid + 1] : 0;

    int offset = 1;
    /* up-sweep (reduce) */
    for (int d = m >> 1; d > 0; d >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < d) {
            int ai = offset * (2 * lid + 1) - 1;
            int bi = offset * (2 * lid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset <<= 1;
    }

    if (lid == 0) {
        block_sums[block] = temp[m - 1];
        temp[m - 1] = 0;
    }

    /* down-sweep */
    for (int d = 1; d < m; d <<= 1) {
        offset >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < d) {
            int ai = offset * (2 * lid + 1) - 1;
            int bi = offset * (2 * lid + 2) - 1;
            int t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    if (base + 2 * lid < n)
        output[base + 2 * lid] = temp[2 * lid];
    if (base + 2 * lid + 1 < n)
        output[base + 2 * lid + 1] = temp[2 * lid + 1];
}

__kernel void add_block_sums(__global int *output,
                             __global const int *scanned_block_sums,
                             const int n)
{
    const int m = 2 * get_local_size(0);
    const int block = get_group_id(0);
    const int add = scanned_block_sums[block];
    int i = block * m + 2 * get_local_id(0);
    if (i < n) output[i] += add;
    if (i + 1 < n) output[i + 1] += add;
}
