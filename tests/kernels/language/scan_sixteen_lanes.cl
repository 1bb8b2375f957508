// A scan's barrier loop, each trip storing for every work-item, in a small kernel: the CPU
// device runs it 16 lanes wide. Two work-groups of 40: two chunks of 16 and 8 work-items
// that run one at a time, in each region.
// run: --kernel scan --global 80 --local 40 --arg 'int[80]=iota' --arg 'int[80]' --arg local:320
// expect out: 0 1 3 6 10 15 21 28 36 45 55 66 78 91 105 120 136 153 171 190 210 231 253 276 300 325 351 378 406 435 465 496 528 561 595 630 666 703 741 780 40 81 123 166 210 255 301 348 396 445 495 546 598 651 705 760 816 873 931 990 1050 1111 1173 1236 1300 1365 1431 1498 1566 1635 1705 1776 1848 1921 1995 2070 2146 2223 2301 2380
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
