// A scan whose steps swap two __local buffers (pointers that change from trip to trip of
// the barrier loop, kept for the group across each barrier). Two work-groups of 36, not a
// multiple of the chunk width: whole chunks and work-items one at a time in each region.
// local-sizes: fixed: a scan within each work-group
// run: --kernel scan --global 72 --local 36 --arg 'int[72]=iota' --arg 'int[72]' --arg local:288
// expect out: 0 1 3 6 10 15 21 28 36 45 55 66 78 91 105 120 136 153 171 190 210 231 253 276 300 325 351 378 406 435 465 496 528 561 595 630 36 73 111 150 190 231 273 316 360 405 451 498 546 595 645 696 748 801 855 910 966 1023 1081 1140 1200 1261 1323 1386 1450 1515 1581 1648 1716 1785 1855 1926
kernel void scan(global const int *in, global int *out, local int *scratch) {
    int l = get_local_id(0), n = get_local_size(0);
    local int *a = scratch, *b = scratch + n;
    a[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int off = 1; off < n; off <<= 1) {
        b[l] = l >= off ? a[l] + a[l - off] : a[l];
        barrier(CLK_LOCAL_MEM_FENCE);
        local int *t = a;
        a = b;
        b = t;
    }
    out[get_global_id(0)] = a[l];
}
