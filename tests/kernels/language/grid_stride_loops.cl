// Loops whose lanes leave at different trips, entered with every lane active: a grid-stride
// loop (`i < n`, i from the global id by the global size), a loop exiting on its branch's
// first target (`if (j >= n + 5) break`), and an unsigned counter whose lanes wrap around
// inside a chunk (start 2^32 - 4), where the scalar test that every lane stays does not hold
// and the masked loop runs from the first trip. Each chunk runs unmasked while every lane
// stays and masked for its last trips.
// run: --kernel grid --global 24 --local 24 --arg 'int[100]=iota' --arg 'int[24]' --arg int:50 --arg uint:4294967292
// expect out: 120003072 120003075 120002028 120002030 123202032 124002034 124802036 95602038 95202040 95902042 96602044 97302046 93202048 93902050 94602052 95302054 94802056 95402058 96002060 96602062 92402064 93002066 93602068 64202070
// The same loop inside a branch on the id (`x < n`): the chunks whose lanes all enter it run
// its unmasked version too; the chunk where n falls runs it masked.
// run: --kernel guarded --global 24 --local 24 --arg 'int[64]=iota' --arg 'int[24]' --arg int:19 --arg int:45
// expect out: 120 126 132 138 144 105 110 115 120 125 130 135 140 100 104 108 112 116 120 -1 -1 -1 -1 -1
kernel void grid(global const int *in, global int *out, int n, uint start) {
    int x = get_global_id(0);
    int gs = get_global_size(0);
    int s = 0, trips = 0;
    for (int i = x; i < n; i += gs) {
        s += in[i];
        trips++;
    }
    uint k = 0;
    for (uint u = start + x; u < start + 64u; u += 8u)
        k += u & 15u;
    int m = 0;
    long j = x;
    while (1) {
        if (j >= n + 5)
            break;
        m += 3;
        j += 16;
    }
    out[x] = s + trips * 1000 + (int)k * 100000 + m * 10000000;
}

kernel void guarded(global const int *in, global int *out, int n, int m) {
    int x = get_global_id(0);
    if (x < n) {
        int s = 0;
        for (int i = x; i < m; i += 8)
            s += in[i];
        out[x] = s;
    } else {
        out[x] = -1;
    }
}
