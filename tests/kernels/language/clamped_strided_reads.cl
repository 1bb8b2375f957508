// Rows read at every other element through clamped indices (a pyramid step's taps,
// `row[clamp(2 * x - 1, 0, w - 1)]`): the vectorized kernel loads whole vectors where no lane
// is clamped and picks every other byte, and gathers in the chunks at a row's ends, where
// some lanes are; 35 work-items leave chunks that reach each end. The second kernel reads
// backwards (stride -2) from the row's end, clamped at its start.
// run: --kernel taps --global 35 --arg 'uchar[70]=165,77,202,24,37,48,187,29,109,19,44,222,214,35,123,46,217,30,63,114,31,203,25,113,23,68,148,214,73,60,157,92,52,96,190,49,32,30,105,254,218,160,238,232,185,153,127,92,124,41,153,253,175,229,147,37,60,214,84,175,77,250,215,20,39,160,174,179,254,233' --arg 'uchar[35]' --arg int:70
// expect 1: 145 114 56 99 67 97 155 93 112 75 96 92 65 132 115 105 88 113 50 126 207 212 188 128 97 150 205 136 100 137 154 155 84 168 224
// run: --kernel back --global 35 --arg 'uchar[70]=165,77,202,24,37,48,187,29,109,19,44,222,214,35,123,46,217,30,63,114,31,203,25,113,23,68,148,214,73,60,157,92,52,96,190,49,32,30,105,254,218,160,238,232,185,153,127,92,124,41,153,253,175,229,147,37,60,214,84,175,77,250,215,20,39,160,174,179,254,233' --arg 'int[35]' --arg int:70
// expect 1: 54 19 140 -230 75 -39 177 -192 -24 212 -51 -61 -79 72 -94 224 -19 -47 4 32 -154 146 -45 -90 89 84 -16 11 -187 203 -10 -19 24 -53 -88
kernel void taps(global const uchar *row, global uchar *dst, int w)
{
    int x = get_global_id(0);
    int x0 = clamp(2 * x - 2, 0, w - 1), x1 = clamp(2 * x - 1, 0, w - 1), x2 = 2 * x;
    int x3 = min(2 * x + 1, w - 1), x4 = min(2 * x + 2, w - 1);
    int r = row[x0] + 4 * row[x1] + 6 * row[x2] + 4 * row[x3] + row[x4];
    dst[x] = convert_uchar_sat((r + 8) >> 4);
}

kernel void back(global const uchar *row, global int *dst, int w)
{
    int x = get_global_id(0);
    int i = clamp(w - 1 - 2 * x, 0, w - 1), j = max(w - 3 - 2 * x, 0);
    dst[x] = row[i] - row[j];
}
