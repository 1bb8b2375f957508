// A tile walked with one counter, `t[k / W][k % W]`, and a signed quotient and remainder added
// back (`(m / 4) * 4 + m % 4` with m from -6 to 6): the addresses are the counter's own, as
// the compiler recombines them. Groups of 13 (a full and a partial chunk), counters that run
// one to three trips.
// local-sizes: fixed: a __local tile per group of 13, and results indexed by group
// run: --kernel tiles --global 26 --local 13 --arg 'int[26]=iota' --arg 'int[78]'
// expect out: 0 101 202 303 404 505 606 707 808 909 1010 1111 1212 13 114 215 316 417 518 619 720 821 922 1023 1124 1225 -18 -15 -12 -9 -6 -3 0 3 6 9 12 15 18 1300 1401 1502 1603 1704 1805 1906 2007 2108 2209 2310 2411 2512 1313 1414 1515 1616 1717 1818 1919 2020 2121 2222 2323 2424 2525 -18 -15 -12 -9 -6 -3 0 3 6 9 12 15 18
#define W 5
kernel void tiles(global const int *in, global int *out) {
    local int t[6][W];
    local int u[13];
    int l = get_local_id(0), g = get_group_id(0);
    for (int k = l; k < 6 * W; k += 13)
        t[k / W][k % W] = in[g * 13 + k % 13] * 100 + k;
    int m = l - 6;
    u[(m / 4) * 4 + m % 4 + 6] = m * 3;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g * 39 + l] = t[l / W][l % W];
    out[g * 39 + 13 + l] = t[(l + 13) / W][(l + 13) % W];
    out[g * 39 + 26 + l] = u[l];
}
