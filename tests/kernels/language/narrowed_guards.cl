// Regions whose every effect is under a guard on the local id (6.15.8: the barriers are
// reached by every work-item of the group): ranges starting at an id that is not a multiple
// of 4, empty and whole ranges, `==`, `k - lid`, a guard reading values each work-item kept
// across a barrier, a comparison whose operand wraps around (6.3: unsigned arithmetic is
// modulo 2^32), and guards whose bound changes between the regions of a loop.
// local-sizes: fixed: guards on the local id
// run: --kernel from_k --global 32 --local 16 --arg 'int[32]=iota' --arg 'int[32]' --arg local:64 --arg int:5
// expect out: 0 1 2 3 4 15 17 19 21 23 25 27 29 31 33 35 16 17 18 19 20 47 49 51 53 55 57 59 61 63 65 67
// run: --kernel from_k --global 14 --local 7 --arg 'int[14]=iota' --arg 'int[14]' --arg local:28 --arg int:3
// expect out: 0 1 2 9 11 13 15 7 8 9 23 25 27 29
// run: --kernel from_k --global 14 --local 7 --arg 'int[14]=iota' --arg 'int[14]' --arg local:28 --arg int:20
// expect out: 0 1 2 3 4 5 6 7 8 9 10 11 12 13
// run: --kernel from_k --global 14 --local 7 --arg 'int[14]=iota' --arg 'int[14]' --arg local:28 --arg int:-2
// expect out: -2 0 2 4 6 8 10 12 14 16 18 20 22 24
// run: --kernel keep --global 32 --local 16 --arg 'int[32]=iota' --arg 'int[32]' --arg local:64 --arg int:5
// expect out: 0 3 6 9 12 35 42 49 56 63 70 77 84 91 98 105 48 51 54 57 60 131 138 145 152 159 166 173 180 187 194 201
// run: --kernel keep --global 26 --local 13 --arg 'int[26]=iota' --arg 'int[26]' --arg local:52 --arg int:6
// expect out: 0 3 6 9 12 15 42 49 56 63 70 77 84 39 42 45 48 51 54 120 127 134 141 148 155 162
// run: --kernel eq_minus --global 24 --local 12 --arg 'int[24]=iota' --arg 'int[24]' --arg local:48 --arg int:5
// expect out: 100 101 102 3 4 -1 6 7 8 9 10 11 112 113 114 15 16 -1 18 19 20 21 22 23
// run: --kernel eq_minus --global 24 --local 12 --arg 'int[24]=iota' --arg 'int[24]' --arg local:48 --arg int:0
// expect out: -1 1 2 3 4 5 6 7 8 9 10 11 -1 13 14 15 16 17 18 19 20 21 22 23
// run: --kernel wrap --global 16 --local 8 --arg 'int[16]' --arg local:32 --arg uint:4294967294
// expect out: 0 0 9 10 11 12 0 0 0 0 9 10 11 12 0 0
// run: --kernel wrap --global 16 --local 8 --arg 'int[16]' --arg local:32 --arg uint:1
// expect out: 7 8 9 0 0 0 0 0 7 8 9 0 0 0 0 0
// run: --kernel scan --global 20 --local 10 --arg 'int[20]=iota' --arg 'int[20]' --arg local:40 --arg local:40
// expect out: 0 1 3 6 10 15 21 28 36 45 10 21 33 46 60 75 91 108 126 145
// run: --kernel scan --global 23 --local 23 --arg 'int[23]=iota' --arg 'int[23]' --arg local:92 --arg local:92
// expect out: 0 1 3 6 10 15 21 28 36 45 55 66 78 91 105 120 136 153 171 190 210 231 253

// Work-items k and on double their element (none where k is past the group, all where it
// is negative).
kernel void from_k(global const int *in, global int *out, local int *t, int k) {
    int l = get_local_id(0);
    t[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l >= k)
        t[l] = t[l] * 2 + k;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = t[l];
}

// The guarded region reads v, which each work-item keeps across the barrier.
kernel void keep(global const int *in, global int *out, local int *t, int k) {
    int l = get_local_id(0);
    int v = in[get_global_id(0)] * 3;
    t[l] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l >= k)
        t[l] = v + l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = t[l] + v;
}

// One work-item, then those below k - 2.
kernel void eq_minus(global const int *in, global int *out, local int *t, int k) {
    int l = get_local_id(0);
    t[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == k)
        t[l] = -1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (k - l > 2)
        t[l] += 100;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = t[l];
}

// (uint)lid + k wraps past 2^32 - 1 for some work-items.
kernel void wrap(global int *out, local int *t, uint k) {
    int l = get_local_id(0);
    t[l] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if ((uint)get_local_id(0) + k < 4u)
        t[l] = 7 + l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = t[l];
}

// An inclusive scan (Hillis and Steele) whose two steps a level are both guarded by
// lid >= off, off doubling from level to level.
kernel void scan(global const int *in, global int *out, local int *t, local int *u) {
    int l = get_local_id(0), n = get_local_size(0);
    t[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int off = 1; off < n; off *= 2) {
        if (l >= off)
            u[l] = t[l - off];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l >= off)
            t[l] += u[l];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = t[l];
}
