// Loads from __local and __private memory under a divergent condition whose masked-off
// work-items would index outside the array: a prefix sum step (`lid >= s ? a[lid] +
// a[lid - s] : a[lid]`, where lane 0 of a chunk may be masked off with an address before the
// array) and a wavefront whose inactive work-items index rows outside the tile. The results
// are the work-items' own; groups of 12 and 13 (chunks and a partial rest when vectorized).
// local-sizes: fixed: prefix sums within each group, and a wavefront over the local ids
// run: --kernel prefix --global 24 --local 12 --arg 'int[24]=1' --arg 'int[24]'
// expect out: 1 2 3 4 5 6 7 8 9 10 11 12 1 2 3 4 5 6 7 8 9 10 11 12
// run: --kernel prefix --global 26 --local 13 --arg 'int[26]=2' --arg 'int[26]'
// expect out: 2 4 6 8 10 12 14 16 18 20 22 24 26 2 4 6 8 10 12 14 16 18 20 22 24 26
// run: --kernel diagonal --global 13 --local 13 --arg 'int[13]'
// expect out: 1 3 6 10 15 21 28 36 45 55 66 78 91
kernel void prefix(global const int *in, global int *out) {
    local int buf[2][16];
    int lid = get_local_id(0), n = get_local_size(0);
    int cur = 0;
    buf[0][lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = 1; s < n; s <<= 1) {
        buf[1 - cur][lid] = lid >= s ? buf[cur][lid] + buf[cur][lid - s] : buf[cur][lid];
        barrier(CLK_LOCAL_MEM_FENCE);
        cur = 1 - cur;
    }
    out[get_global_id(0)] = buf[cur][lid];
}

// Row d of the tile holds 1 + 2 + ... + (d + 1) in column 0 once work-item 0 reaches it;
// work-item x reads row d - x, which only the work-items with 0 <= d - x < 13 may.
kernel void diagonal(global int *out) {
    local int tile[13][13];
    int x = get_local_id(0);
    for (int r = 0; r < 13; ++r)
        tile[r][x] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int d = 0; d < 2 * 13 - 1; ++d) {
        int y = d - x;
        if (y >= 0 && y < 13) {
            int above = y > 0 ? tile[y - 1][x] : 0;
            tile[y][x] = x == 0 ? above + y + 1 : tile[y][x - 1];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[x] = tile[x][0];
}
