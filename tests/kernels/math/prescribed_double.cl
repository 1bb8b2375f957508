// Special values for double builtins beside those of prescribed.cl: 6.15.2: nan(nancode)
// "returns a quiet NaN"; and values C99 F.9 prescribes for exp, log, sqrt, rsqrt, sin, tan,
// cbrt, expm1, log1p, tgamma, hypot, pow, atan2, fmod, remainder, ldexp, logb and nextafter
// (7.5.1: "Those values shall produce exactly the prescribed answers, and no other"; a NaN:
// any NaN). Case i reads a[i], b[i], n[i] and writes o[2i]; the arguments come from buffers,
// so nothing is folded at compile time.
// requires: cl_khr_fp64
// run: --kernel k --global 1 --arg 'double[46]' --arg 'double[23]=0.0,0.0,-inf,-0.0,-0.0,0.0,-0.0,-0.0,-0.0,-0.0,-1.0,-0.0,-2.0,inf,-1.0,NaN,-0.0,-0.0,5.0,1.0,1.0,0.0,1.7976931348623157e308' --arg 'double[23]=0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,NaN,inf,0.0,-0.0,3.0,2.0,0.0,0.0,0.0,inf' --arg 'int[23]=0,12345,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-1074,1024,0,0'
// expect o: NaN 0.0 NaN 0.0 0.0 0.0 -inf 0.0 -0.0 0.0 inf 0.0 -0.0 0.0 -0.0 0.0 -0.0 0.0 -0.0 0.0 -inf 0.0 -inf 0.0 NaN 0.0 inf 0.0 1.0 0.0 1.0 0.0 -3.141592653589793 0.0 -0.0 0.0 1.0 0.0 5e-324 0.0 inf 0.0 -inf 0.0 inf 0.0
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void k(global double *o, global const double *a, global const double *b, global const int *n) {
    // 0: a = 0.0, n = 0: NaN
    { o[0] = nan((ulong)n[0]); }
    // 1: a = 0.0, n = 12345: NaN
    { o[2] = nan((ulong)n[1]); }
    // 2: a = -inf: 0.0
    { o[4] = exp(a[2]); }
    // 3: a = -0.0: -inf
    { o[6] = log(a[3]); }
    // 4: a = -0.0: -0.0
    { o[8] = sqrt(a[4]); }
    // 5: a = 0.0: inf
    { o[10] = rsqrt(a[5]); }
    // 6: a = -0.0: -0.0
    { o[12] = sin(a[6]); }
    // 7: a = -0.0: -0.0
    { o[14] = tan(a[7]); }
    // 8: a = -0.0: -0.0
    { o[16] = cbrt(a[8]); }
    // 9: a = -0.0: -0.0
    { o[18] = expm1(a[9]); }
    // 10: a = -1.0: -inf
    { o[20] = log1p(a[10]); }
    // 11: a = -0.0: -inf
    { o[22] = tgamma(a[11]); }
    // 12: a = -2.0: NaN
    { o[24] = tgamma(a[12]); }
    // 13: a = inf, b = NaN: inf
    { o[26] = hypot(a[13], b[13]); }
    // 14: a = -1.0, b = inf: 1.0
    { o[28] = pow(a[14], b[14]); }
    // 15: a = NaN, b = 0.0: 1.0
    { o[30] = pow(a[15], b[15]); }
    // 16: a = -0.0, b = -0.0: -3.141592653589793
    { o[32] = atan2(a[16], b[16]); }
    // 17: a = -0.0, b = 3.0: -0.0
    { o[34] = fmod(a[17], b[17]); }
    // 18: a = 5.0, b = 2.0: 1.0
    { o[36] = remainder(a[18], b[18]); }
    // 19: a = 1.0, n = -1074: 5e-324
    { o[38] = ldexp(a[19], n[19]); }
    // 20: a = 1.0, n = 1024: inf
    { o[40] = ldexp(a[20], n[20]); }
    // 21: a = 0.0: -inf
    { o[42] = logb(a[21]); }
    // 22: a = 1.7976931348623157e308, b = inf: inf
    { o[44] = nextafter(a[22], b[22]); }
}
