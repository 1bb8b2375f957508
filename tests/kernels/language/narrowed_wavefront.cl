// A wavefront over a tile, as Needleman-Wunsch computes it: work-item tx fills column tx + 1
// of an (n + 1) x (n + 1) tile in __local memory, one anti-diagonal d at a time with a
// barrier after each (6.15.8), the cells of diagonal d being those with
// d - n + 1 <= tx <= d, a guard `y >= 1 && y <= n` on y = d - tx + 1.
// local-sizes: fixed: a wavefront over the local ids in __local memory
// run: --kernel wave --global 10 --local 5 --arg 'int[50]' --arg local:144
// expect out: -2 -1 0 -1 -2 0 -1 -1 2 1 -1 1 0 1 4 -1 0 2 1 3 -2 1 1 3 2 -1 0 1 0 -1 1 0 0 3 2 0 2 1 2 5 0 1 3 2 4 -1 2 2 4 3
// run: --kernel wave --global 6 --local 6 --arg 'int[36]' --arg local:196
// expect out: -2 -1 0 -1 -2 -3 0 -1 -1 2 1 0 -1 1 0 1 4 3 -1 0 2 1 3 6 -2 1 1 3 2 5 -3 0 3 2 4 4
// run: --kernel wave --global 16 --local 16 --arg 'int[256]' --arg local:1156
// expect out: -2 -1 0 -1 -2 -3 -4 -5 -6 -7 -8 -9 -10 -11 -12 -13 0 -1 -1 2 1 0 -1 -2 -3 -4 -5 -6 -7 -8 -9 -10 -1 1 0 1 4 3 2 1 0 -1 -2 -3 -4 -5 -6 -7 -1 0 2 1 3 6 5 4 3 2 1 0 -1 -2 -3 -4 -2 1 1 3 2 5 8 7 6 5 4 3 2 1 0 -1 -3 0 3 2 4 4 7 10 9 8 7 6 5 4 3 2 -4 -1 2 5 4 5 6 9 12 11 10 9 8 7 6 5 -5 -2 1 4 7 6 6 8 11 14 13 12 11 10 9 8 -6 -3 0 3 6 9 8 7 10 13 16 15 14 13 12 11 -7 -4 -1 2 5 8 11 10 9 12 15 18 17 16 15 14 -8 -5 -2 1 4 7 10 13 12 11 14 17 20 19 18 17 -9 -6 -3 0 3 6 9 12 15 14 13 16 19 22 21 20 -10 -7 -4 -1 2 5 8 11 14 17 16 15 18 21 24 23 -11 -8 -5 -2 1 4 7 10 13 16 19 18 17 20 23 26 -12 -9 -6 -3 0 3 6 9 12 15 18 21 20 19 22 25 -13 -10 -7 -4 -1 2 5 8 11 14 17 20 23 22 21 24
kernel void wave(global int *out, local int *s) {
    int tx = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
    int w = n + 1, x = tx + 1;
    if (tx == 0)
        s[0] = g;
    s[x] = g - x;
    s[x * w] = g - x;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int d = 0; d < 2 * n - 1; ++d) {
        int y = d - tx + 1;
        if (y >= 1 && y <= n) {
            int diag = s[(y - 1) * w + x - 1] + (x * 7 + y * 3) % 5 - 2;
            s[y * w + x] = max(diag, max(s[(y - 1) * w + x], s[y * w + x - 1]) - 1);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int y = 1; y <= n; ++y)
        out[(g * n + y - 1) * n + tx] = s[y * w + x];
}
