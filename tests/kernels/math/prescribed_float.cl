// The special values OpenCL C 7.5.1 prescribes for float builtins only: the half_ forms keep
// the edge cases (7.5.1: they "must conform to the same edge case requirements"), and
// 6.15.2: nan(nancode) "returns a quiet NaN" (a NaN: any NaN). Case i reads a[i], b[i], n[i]
// and writes o[2i]; the arguments come from buffers, so nothing is folded at compile time.
// run: --kernel k --global 1 --arg 'float[18]' --arg 'float[9]=-inf,0.0,-0.0,-0.0,0.0,-0.0,-1.0,0.0,0.0' --arg 'float[9]=0.0,0.0,0.0,0.0,0.0,0.0,2.0,0.0,0.0' --arg 'int[9]=0,0,0,0,0,0,0,0,12345'
// expect o: 0.0 0.0 -inf 0.0 -0.0 0.0 -inf 0.0 inf 0.0 -0.0 0.0 NaN 0.0 NaN 0.0 NaN 0.0
kernel void k(global float *o, global const float *a, global const float *b, global const int *n) {
    // 0: a = -inf: 0.0
    { o[0] = half_exp(a[0]); }
    // 1: a = 0.0: -inf
    { o[2] = half_log(a[1]); }
    // 2: a = -0.0: -0.0
    { o[4] = half_sqrt(a[2]); }
    // 3: a = -0.0: -inf
    { o[6] = half_recip(a[3]); }
    // 4: a = 0.0: inf
    { o[8] = half_rsqrt(a[4]); }
    // 5: a = -0.0: -0.0
    { o[10] = half_sin(a[5]); }
    // 6: a = -1.0, b = 2.0: NaN
    { o[12] = half_powr(a[6], b[6]); }
    // 7: a = 0.0, n = 0: NaN
    { o[14] = nan((uint)n[7]); }
    // 8: a = 0.0, n = 12345: NaN
    { o[16] = nan((uint)n[8]); }
}
