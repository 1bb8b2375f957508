// The signs of zero results that C99 Annex F (F.9) and OpenCL C 7.5.1 prescribe, for float
// and double (T, one run each): every rule of those texts whose result is a zero (or whose
// argument is a zero kept by the function), checked bit for bit. 7.5.1: "Those values shall produce exactly the prescribed
// answers, and no other. Where the ± symbol is used, the sign shall be preserved", and half_
// functions "must conform to the same edge case requirements". Each statement names its
// case: the expression of x (and y, n), the arguments, and the prescribed result; the
// arguments come from buffers, so nothing is folded at compile time. The rules:
//   f(±0) = ±0: C99 F.9.1.2 asin, F.9.1.3 atan, F.9.1.6 sin, F.9.1.7 tan, F.9.2.2 asinh,
//   F.9.2.3 atanh, F.9.2.5 sinh, F.9.2.6 tanh, F.9.3.5 expm1, F.9.3.6 frexp, F.9.3.7
//   ldexp, F.9.3.9 log1p, F.9.3.12 modf, F.9.3.13 scalbn, F.9.4.1 cbrt, F.9.4.5 sqrt,
//   F.9.5.1 erf, F.9.6 ceil, floor, rint, round, trunc; F.9.7.1 fmod(±0, y), F.9.7.2
//   remainder, F.9.7.3 remquo; 7.5.1 asinpi, atanpi, sinpi, tanpi, fract.
//   F.9.1.4: atan2(±0, +0) = ±0, atan2(±0, x > 0) = ±0, atan2(±y, +inf) = ±0; 7.5.1 the
//   same for atan2pi.
//   F.9.4.4: pow(±0, y) is +0 for y > 0 and not an odd integer, ±0 for odd y > 0; 7.5.1:
//   pown(±0, n) is +0 for even n > 0, powr(±0, y) is +0 for y > 0, rootn(±0, n) is +0
//   for even n > 0.
//   F.9.4.2 fabs(±0) = +0, F.9.4.3 hypot(±0, ±0) = +0, F.9.9.1 fdim is +0 when x <= y.
//   F.9.4.4: pow(-inf, y) is -0 for odd y < 0; pow(x, -inf) is +0 for |x| > 1.
//   7.5.1: fract(±inf) is ±0.
//   f(1) = +0: F.9.1.1 acos, F.9.2.1 acosh, F.9.3.7 log, log10, log2, F.9.3.11 logb,
//   F.9.5.3 lgamma(1) and lgamma(2); 7.5.1 acospi(1).
//   f(-inf) = +0: F.9.3.1 exp, F.9.3.2 exp2, 7.5.1 exp10; F.9.5.2 erfc(+inf) = +0.
//   7.5.1: ceil(-1 < x < 0), trunc(-1 < x < 0), round(-0.5 < x < 0) and rint(-0.5 <= x <= 0)
//   are -0; cospi(n + 0.5) is +0; sinpi(+n) is +0 and sinpi(-n) is -0; tanpi(n) is
//   copysign(0, n) for even n and copysign(0, -n) for odd n.
// run: --kernel k --global 1 -D T=float --arg 'float[161]' --arg 'float[161]=0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,1.0,1.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,-inf,2.0,inf,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-1.0,-1.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-inf,-2.0,-inf,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,2.0,-inf,-inf,-inf,-inf,-inf,-inf,inf,inf,inf,-0.5,-0.75,-0.25,-0.5,0.5,-2.5,3.0,2.0,-3.0,-2.0,2.0,-2.0,3.0,-3.0' --arg 'float[161]=3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,0.0,0.0,0.0,0.0,3.0,0.0,0.0,2.0,0.0,2.0,inf,inf,2.0,0.5,inf,0.0,0.0,2.0,3.0,inf,0.0,0.0,0.0,-0.0,0.0,-0.0,-3.0,-inf,0.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,0.0,0.0,0.0,0.0,3.0,0.0,0.0,2.0,0.0,2.0,inf,inf,2.0,0.5,inf,0.0,0.0,2.0,3.0,inf,0.0,0.0,0.0,-0.0,0.0,-0.0,-3.0,-inf,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0' --arg 'int[161]=5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2,4,0,0,0,2,4,0,0,0,0,0,0,0,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2,4,0,0,0,2,4,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0'
// expect o: 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 -0.0 0.0 0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 -0.0 0.0 -0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 -0.0 -0.0 -0.0 -0.0 0.0 0.0 0.0 0.0 -0.0 -0.0 0.0 -0.0 -0.0 0.0
// deviates: pocl o[100,125,151,152,153,155,159,160]: PoCL 3.1 gives these zeros the other sign, against 7.5.1 "sinpi(+n) returns +0 for positive integers n", "sinpi(-n) returns -0 for negative integers n", "tanpi(n) is copysign(0.0, n) for even integers n", "tanpi(n) is copysign(0.0, -n) for odd integers n", "cospi(n + 0.5) is +0 for any integer n", "fract(-0, iptr) returns -0", "fract(-inf, iptr) returns -0"
// run: --kernel k --global 1 -D T=double --arg 'double[161]' --arg 'double[161]=0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,1.0,1.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,-inf,2.0,inf,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-1.0,-1.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,-inf,-2.0,-inf,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,2.0,-inf,-inf,-inf,-inf,-inf,-inf,inf,inf,inf,-0.5,-0.75,-0.25,-0.5,0.5,-2.5,3.0,2.0,-3.0,-2.0,2.0,-2.0,3.0,-3.0' --arg 'double[161]=3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,0.0,0.0,0.0,0.0,3.0,0.0,0.0,2.0,0.0,2.0,inf,inf,2.0,0.5,inf,0.0,0.0,2.0,3.0,inf,0.0,0.0,0.0,-0.0,0.0,-0.0,-3.0,-inf,0.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,3.0,0.0,0.0,0.0,0.0,3.0,0.0,0.0,2.0,0.0,2.0,inf,inf,2.0,0.5,inf,0.0,0.0,2.0,3.0,inf,0.0,0.0,0.0,-0.0,0.0,-0.0,-3.0,-inf,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0' --arg 'int[161]=5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2,4,0,0,0,2,4,0,0,0,0,0,0,0,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,5,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2,4,0,0,0,2,4,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0'
// requires: cl_khr_fp64
// expect o: 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 -0.0 0.0 0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 -0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 -0.0 0.0 -0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 -0.0 -0.0 -0.0 -0.0 0.0 0.0 0.0 0.0 -0.0 -0.0 0.0 -0.0 -0.0 0.0
// deviates: pocl o[85,100,125,151,152,153,155,159,160]: PoCL 3.1 gives these zeros the other sign, against 7.5.1 "sinpi(+n) returns +0 for positive integers n", "sinpi(-n) returns -0 for negative integers n", "tanpi(n) is copysign(0.0, n) for even integers n", "tanpi(n) is copysign(0.0, -n) for odd integers n", "cospi(n + 0.5) is +0 for any integer n", "fract(-0, iptr) returns -0", "fract(-inf, iptr) returns -0", "atanpi(±0) = ±0"
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
kernel void k(global T *o, global const T *a, global const T *b, global const int *k) {
    // 0: asin(x) with x = 0.0: 0.0
    { T x = a[0], y = b[0]; int n = k[0]; (void)y; (void)n; o[0] = asin(x); }
    // 1: atan(x) with x = 0.0: 0.0
    { T x = a[1], y = b[1]; int n = k[1]; (void)y; (void)n; o[1] = atan(x); }
    // 2: sin(x) with x = 0.0: 0.0
    { T x = a[2], y = b[2]; int n = k[2]; (void)y; (void)n; o[2] = sin(x); }
    // 3: tan(x) with x = 0.0: 0.0
    { T x = a[3], y = b[3]; int n = k[3]; (void)y; (void)n; o[3] = tan(x); }
    // 4: asinh(x) with x = 0.0: 0.0
    { T x = a[4], y = b[4]; int n = k[4]; (void)y; (void)n; o[4] = asinh(x); }
    // 5: atanh(x) with x = 0.0: 0.0
    { T x = a[5], y = b[5]; int n = k[5]; (void)y; (void)n; o[5] = atanh(x); }
    // 6: sinh(x) with x = 0.0: 0.0
    { T x = a[6], y = b[6]; int n = k[6]; (void)y; (void)n; o[6] = sinh(x); }
    // 7: tanh(x) with x = 0.0: 0.0
    { T x = a[7], y = b[7]; int n = k[7]; (void)y; (void)n; o[7] = tanh(x); }
    // 8: expm1(x) with x = 0.0: 0.0
    { T x = a[8], y = b[8]; int n = k[8]; (void)y; (void)n; o[8] = expm1(x); }
    // 9: ldexp(x, n) with x = 0.0, n = 5: 0.0
    { T x = a[9], y = b[9]; int n = k[9]; (void)y; (void)n; o[9] = ldexp(x, n); }
    // 10: log1p(x) with x = 0.0: 0.0
    { T x = a[10], y = b[10]; int n = k[10]; (void)y; (void)n; o[10] = log1p(x); }
    // 11: cbrt(x) with x = 0.0: 0.0
    { T x = a[11], y = b[11]; int n = k[11]; (void)y; (void)n; o[11] = cbrt(x); }
    // 12: sqrt(x) with x = 0.0: 0.0
    { T x = a[12], y = b[12]; int n = k[12]; (void)y; (void)n; o[12] = sqrt(x); }
    // 13: erf(x) with x = 0.0: 0.0
    { T x = a[13], y = b[13]; int n = k[13]; (void)y; (void)n; o[13] = erf(x); }
    // 14: ceil(x) with x = 0.0: 0.0
    { T x = a[14], y = b[14]; int n = k[14]; (void)y; (void)n; o[14] = ceil(x); }
    // 15: floor(x) with x = 0.0: 0.0
    { T x = a[15], y = b[15]; int n = k[15]; (void)y; (void)n; o[15] = floor(x); }
    // 16: rint(x) with x = 0.0: 0.0
    { T x = a[16], y = b[16]; int n = k[16]; (void)y; (void)n; o[16] = rint(x); }
    // 17: round(x) with x = 0.0: 0.0
    { T x = a[17], y = b[17]; int n = k[17]; (void)y; (void)n; o[17] = round(x); }
    // 18: trunc(x) with x = 0.0: 0.0
    { T x = a[18], y = b[18]; int n = k[18]; (void)y; (void)n; o[18] = trunc(x); }
    // 19: fmod(x, y) with x = 0.0, y = 3.0: 0.0
    { T x = a[19], y = b[19]; int n = k[19]; (void)y; (void)n; o[19] = fmod(x, y); }
    // 20: remainder(x, y) with x = 0.0, y = 3.0: 0.0
    { T x = a[20], y = b[20]; int n = k[20]; (void)y; (void)n; o[20] = remainder(x, y); }
    // 21: asinpi(x) with x = 0.0: 0.0
    { T x = a[21], y = b[21]; int n = k[21]; (void)y; (void)n; o[21] = asinpi(x); }
    // 22: atanpi(x) with x = 0.0: 0.0
    { T x = a[22], y = b[22]; int n = k[22]; (void)y; (void)n; o[22] = atanpi(x); }
    // 23: sinpi(x) with x = 0.0: 0.0
    { T x = a[23], y = b[23]; int n = k[23]; (void)y; (void)n; o[23] = sinpi(x); }
    // 24: tanpi(x) with x = 0.0: 0.0
    { T x = a[24], y = b[24]; int n = k[24]; (void)y; (void)n; o[24] = tanpi(x); }
    // 25: half_sin(x) with x = 0.0: 0.0
    { T x = a[25], y = b[25]; int n = k[25]; (void)y; (void)n; o[25] = (T)(half_sin((float)x)); }
    // 26: half_tan(x) with x = 0.0: 0.0
    { T x = a[26], y = b[26]; int n = k[26]; (void)y; (void)n; o[26] = (T)(half_tan((float)x)); }
    // 27: half_sqrt(x) with x = 0.0: 0.0
    { T x = a[27], y = b[27]; int n = k[27]; (void)y; (void)n; o[27] = (T)(half_sqrt((float)x)); }
    // 28: degrees(x) with x = 0.0: 0.0
    { T x = a[28], y = b[28]; int n = k[28]; (void)y; (void)n; o[28] = degrees(x); }
    // 29: radians(x) with x = 0.0: 0.0
    { T x = a[29], y = b[29]; int n = k[29]; (void)y; (void)n; o[29] = radians(x); }
    // 30: sign(x) with x = 0.0: 0.0
    { T x = a[30], y = b[30]; int n = k[30]; (void)y; (void)n; o[30] = sign(x); }
    // 31: rootn(x, 3) with x = 0.0: 0.0
    { T x = a[31], y = b[31]; int n = k[31]; (void)y; (void)n; o[31] = rootn(x, 3); }
    // 32: pown(x, 3) with x = 0.0: 0.0
    { T x = a[32], y = b[32]; int n = k[32]; (void)y; (void)n; o[32] = pown(x, 3); }
    // 33: pow(x, 3) with x = 0.0: 0.0
    { T x = a[33], y = b[33]; int n = k[33]; (void)y; (void)n; o[33] = pow(x, 3); }
    // 34: frexp_value with x = 0.0: 0.0
    { T x = a[34], y = b[34]; int n = k[34]; (void)y; (void)n; int e; o[34] = frexp(x, &e); }
    // 35: modf_value with x = 0.0: 0.0
    { T x = a[35], y = b[35]; int n = k[35]; (void)y; (void)n; T ip; o[35] = modf(x, &ip); }
    // 36: modf_int with x = 0.0: 0.0
    { T x = a[36], y = b[36]; int n = k[36]; (void)y; (void)n; T ip; modf(x, &ip); o[36] = ip; }
    // 37: fract_value with x = 0.0: 0.0
    { T x = a[37], y = b[37]; int n = k[37]; (void)y; (void)n; T ip; o[37] = fract(x, &ip); }
    // 38: remquo_value with x = 0.0: 0.0
    { T x = a[38], y = b[38]; int n = k[38]; (void)y; (void)n; int q; o[38] = remquo(x, y, &q); }
    // 39: sincos_sin with x = 0.0: 0.0
    { T x = a[39], y = b[39]; int n = k[39]; (void)y; (void)n; T c; o[39] = sincos(x, &c); }
    // 40: atan2(x, y) with x = 0.0, y = 0.0: 0.0
    { T x = a[40], y = b[40]; int n = k[40]; (void)y; (void)n; o[40] = atan2(x, y); }
    // 41: atan2(x, y) with x = 0.0, y = 2.0: 0.0
    { T x = a[41], y = b[41]; int n = k[41]; (void)y; (void)n; o[41] = atan2(x, y); }
    // 42: atan2pi(x, y) with x = 0.0, y = 0.0: 0.0
    { T x = a[42], y = b[42]; int n = k[42]; (void)y; (void)n; o[42] = atan2pi(x, y); }
    // 43: atan2pi(x, y) with x = 0.0, y = 2.0: 0.0
    { T x = a[43], y = b[43]; int n = k[43]; (void)y; (void)n; o[43] = atan2pi(x, y); }
    // 44: atan2(x, y) with x = 1.0, y = inf: 0.0
    { T x = a[44], y = b[44]; int n = k[44]; (void)y; (void)n; o[44] = atan2(x, y); }
    // 45: atan2pi(x, y) with x = 1.0, y = inf: 0.0
    { T x = a[45], y = b[45]; int n = k[45]; (void)y; (void)n; o[45] = atan2pi(x, y); }
    // 46: pow(x, y) with x = 0.0, y = 2.0: 0.0
    { T x = a[46], y = b[46]; int n = k[46]; (void)y; (void)n; o[46] = pow(x, y); }
    // 47: pow(x, y) with x = 0.0, y = 0.5: 0.0
    { T x = a[47], y = b[47]; int n = k[47]; (void)y; (void)n; o[47] = pow(x, y); }
    // 48: pow(x, y) with x = 0.0, y = inf: 0.0
    { T x = a[48], y = b[48]; int n = k[48]; (void)y; (void)n; o[48] = pow(x, y); }
    // 49: pown(x, n) with x = 0.0, n = 2: 0.0
    { T x = a[49], y = b[49]; int n = k[49]; (void)y; (void)n; o[49] = pown(x, n); }
    // 50: pown(x, n) with x = 0.0, n = 4: 0.0
    { T x = a[50], y = b[50]; int n = k[50]; (void)y; (void)n; o[50] = pown(x, n); }
    // 51: powr(x, y) with x = 0.0, y = 2.0: 0.0
    { T x = a[51], y = b[51]; int n = k[51]; (void)y; (void)n; o[51] = powr(x, y); }
    // 52: powr(x, y) with x = 0.0, y = 3.0: 0.0
    { T x = a[52], y = b[52]; int n = k[52]; (void)y; (void)n; o[52] = powr(x, y); }
    // 53: powr(x, y) with x = 0.0, y = inf: 0.0
    { T x = a[53], y = b[53]; int n = k[53]; (void)y; (void)n; o[53] = powr(x, y); }
    // 54: rootn(x, n) with x = 0.0, n = 2: 0.0
    { T x = a[54], y = b[54]; int n = k[54]; (void)y; (void)n; o[54] = rootn(x, n); }
    // 55: rootn(x, n) with x = 0.0, n = 4: 0.0
    { T x = a[55], y = b[55]; int n = k[55]; (void)y; (void)n; o[55] = rootn(x, n); }
    // 56: fabs(x) with x = 0.0: 0.0
    { T x = a[56], y = b[56]; int n = k[56]; (void)y; (void)n; o[56] = fabs(x); }
    // 57: hypot(x, y) with x = 0.0, y = -0.0: 0.0
    { T x = a[57], y = b[57]; int n = k[57]; (void)y; (void)n; o[57] = hypot(x, y); }
    // 58: fdim(x, y) with x = 0.0, y = 0.0: 0.0
    { T x = a[58], y = b[58]; int n = k[58]; (void)y; (void)n; o[58] = fdim(x, y); }
    // 59: fdim(x, y) with x = 0.0, y = -0.0: 0.0
    { T x = a[59], y = b[59]; int n = k[59]; (void)y; (void)n; o[59] = fdim(x, y); }
    // 60: pow(x, y) with x = -inf, y = -3.0: -0.0
    { T x = a[60], y = b[60]; int n = k[60]; (void)y; (void)n; o[60] = pow(x, y); }
    // 61: pow(x, y) with x = 2.0, y = -inf: 0.0
    { T x = a[61], y = b[61]; int n = k[61]; (void)y; (void)n; o[61] = pow(x, y); }
    // 62: fract_value with x = inf: 0.0
    { T x = a[62], y = b[62]; int n = k[62]; (void)y; (void)n; T ip; o[62] = fract(x, &ip); }
    // 63: asin(x) with x = -0.0: -0.0
    { T x = a[63], y = b[63]; int n = k[63]; (void)y; (void)n; o[63] = asin(x); }
    // 64: atan(x) with x = -0.0: -0.0
    { T x = a[64], y = b[64]; int n = k[64]; (void)y; (void)n; o[64] = atan(x); }
    // 65: sin(x) with x = -0.0: -0.0
    { T x = a[65], y = b[65]; int n = k[65]; (void)y; (void)n; o[65] = sin(x); }
    // 66: tan(x) with x = -0.0: -0.0
    { T x = a[66], y = b[66]; int n = k[66]; (void)y; (void)n; o[66] = tan(x); }
    // 67: asinh(x) with x = -0.0: -0.0
    { T x = a[67], y = b[67]; int n = k[67]; (void)y; (void)n; o[67] = asinh(x); }
    // 68: atanh(x) with x = -0.0: -0.0
    { T x = a[68], y = b[68]; int n = k[68]; (void)y; (void)n; o[68] = atanh(x); }
    // 69: sinh(x) with x = -0.0: -0.0
    { T x = a[69], y = b[69]; int n = k[69]; (void)y; (void)n; o[69] = sinh(x); }
    // 70: tanh(x) with x = -0.0: -0.0
    { T x = a[70], y = b[70]; int n = k[70]; (void)y; (void)n; o[70] = tanh(x); }
    // 71: expm1(x) with x = -0.0: -0.0
    { T x = a[71], y = b[71]; int n = k[71]; (void)y; (void)n; o[71] = expm1(x); }
    // 72: ldexp(x, n) with x = -0.0, n = 5: -0.0
    { T x = a[72], y = b[72]; int n = k[72]; (void)y; (void)n; o[72] = ldexp(x, n); }
    // 73: log1p(x) with x = -0.0: -0.0
    { T x = a[73], y = b[73]; int n = k[73]; (void)y; (void)n; o[73] = log1p(x); }
    // 74: cbrt(x) with x = -0.0: -0.0
    { T x = a[74], y = b[74]; int n = k[74]; (void)y; (void)n; o[74] = cbrt(x); }
    // 75: sqrt(x) with x = -0.0: -0.0
    { T x = a[75], y = b[75]; int n = k[75]; (void)y; (void)n; o[75] = sqrt(x); }
    // 76: erf(x) with x = -0.0: -0.0
    { T x = a[76], y = b[76]; int n = k[76]; (void)y; (void)n; o[76] = erf(x); }
    // 77: ceil(x) with x = -0.0: -0.0
    { T x = a[77], y = b[77]; int n = k[77]; (void)y; (void)n; o[77] = ceil(x); }
    // 78: floor(x) with x = -0.0: -0.0
    { T x = a[78], y = b[78]; int n = k[78]; (void)y; (void)n; o[78] = floor(x); }
    // 79: rint(x) with x = -0.0: -0.0
    { T x = a[79], y = b[79]; int n = k[79]; (void)y; (void)n; o[79] = rint(x); }
    // 80: round(x) with x = -0.0: -0.0
    { T x = a[80], y = b[80]; int n = k[80]; (void)y; (void)n; o[80] = round(x); }
    // 81: trunc(x) with x = -0.0: -0.0
    { T x = a[81], y = b[81]; int n = k[81]; (void)y; (void)n; o[81] = trunc(x); }
    // 82: fmod(x, y) with x = -0.0, y = 3.0: -0.0
    { T x = a[82], y = b[82]; int n = k[82]; (void)y; (void)n; o[82] = fmod(x, y); }
    // 83: remainder(x, y) with x = -0.0, y = 3.0: -0.0
    { T x = a[83], y = b[83]; int n = k[83]; (void)y; (void)n; o[83] = remainder(x, y); }
    // 84: asinpi(x) with x = -0.0: -0.0
    { T x = a[84], y = b[84]; int n = k[84]; (void)y; (void)n; o[84] = asinpi(x); }
    // 85: atanpi(x) with x = -0.0: -0.0
    { T x = a[85], y = b[85]; int n = k[85]; (void)y; (void)n; o[85] = atanpi(x); }
    // 86: sinpi(x) with x = -0.0: -0.0
    { T x = a[86], y = b[86]; int n = k[86]; (void)y; (void)n; o[86] = sinpi(x); }
    // 87: tanpi(x) with x = -0.0: -0.0
    { T x = a[87], y = b[87]; int n = k[87]; (void)y; (void)n; o[87] = tanpi(x); }
    // 88: half_sin(x) with x = -0.0: -0.0
    { T x = a[88], y = b[88]; int n = k[88]; (void)y; (void)n; o[88] = (T)(half_sin((float)x)); }
    // 89: half_tan(x) with x = -0.0: -0.0
    { T x = a[89], y = b[89]; int n = k[89]; (void)y; (void)n; o[89] = (T)(half_tan((float)x)); }
    // 90: half_sqrt(x) with x = -0.0: -0.0
    { T x = a[90], y = b[90]; int n = k[90]; (void)y; (void)n; o[90] = (T)(half_sqrt((float)x)); }
    // 91: degrees(x) with x = -0.0: -0.0
    { T x = a[91], y = b[91]; int n = k[91]; (void)y; (void)n; o[91] = degrees(x); }
    // 92: radians(x) with x = -0.0: -0.0
    { T x = a[92], y = b[92]; int n = k[92]; (void)y; (void)n; o[92] = radians(x); }
    // 93: sign(x) with x = -0.0: -0.0
    { T x = a[93], y = b[93]; int n = k[93]; (void)y; (void)n; o[93] = sign(x); }
    // 94: rootn(x, 3) with x = -0.0: -0.0
    { T x = a[94], y = b[94]; int n = k[94]; (void)y; (void)n; o[94] = rootn(x, 3); }
    // 95: pown(x, 3) with x = -0.0: -0.0
    { T x = a[95], y = b[95]; int n = k[95]; (void)y; (void)n; o[95] = pown(x, 3); }
    // 96: pow(x, 3) with x = -0.0: -0.0
    { T x = a[96], y = b[96]; int n = k[96]; (void)y; (void)n; o[96] = pow(x, 3); }
    // 97: frexp_value with x = -0.0: -0.0
    { T x = a[97], y = b[97]; int n = k[97]; (void)y; (void)n; int e; o[97] = frexp(x, &e); }
    // 98: modf_value with x = -0.0: -0.0
    { T x = a[98], y = b[98]; int n = k[98]; (void)y; (void)n; T ip; o[98] = modf(x, &ip); }
    // 99: modf_int with x = -0.0: -0.0
    { T x = a[99], y = b[99]; int n = k[99]; (void)y; (void)n; T ip; modf(x, &ip); o[99] = ip; }
    // 100: fract_value with x = -0.0: -0.0
    { T x = a[100], y = b[100]; int n = k[100]; (void)y; (void)n; T ip; o[100] = fract(x, &ip); }
    // 101: remquo_value with x = -0.0: -0.0
    { T x = a[101], y = b[101]; int n = k[101]; (void)y; (void)n; int q; o[101] = remquo(x, y, &q); }
    // 102: sincos_sin with x = -0.0: -0.0
    { T x = a[102], y = b[102]; int n = k[102]; (void)y; (void)n; T c; o[102] = sincos(x, &c); }
    // 103: atan2(x, y) with x = -0.0, y = 0.0: -0.0
    { T x = a[103], y = b[103]; int n = k[103]; (void)y; (void)n; o[103] = atan2(x, y); }
    // 104: atan2(x, y) with x = -0.0, y = 2.0: -0.0
    { T x = a[104], y = b[104]; int n = k[104]; (void)y; (void)n; o[104] = atan2(x, y); }
    // 105: atan2pi(x, y) with x = -0.0, y = 0.0: -0.0
    { T x = a[105], y = b[105]; int n = k[105]; (void)y; (void)n; o[105] = atan2pi(x, y); }
    // 106: atan2pi(x, y) with x = -0.0, y = 2.0: -0.0
    { T x = a[106], y = b[106]; int n = k[106]; (void)y; (void)n; o[106] = atan2pi(x, y); }
    // 107: atan2(x, y) with x = -1.0, y = inf: -0.0
    { T x = a[107], y = b[107]; int n = k[107]; (void)y; (void)n; o[107] = atan2(x, y); }
    // 108: atan2pi(x, y) with x = -1.0, y = inf: -0.0
    { T x = a[108], y = b[108]; int n = k[108]; (void)y; (void)n; o[108] = atan2pi(x, y); }
    // 109: pow(x, y) with x = -0.0, y = 2.0: 0.0
    { T x = a[109], y = b[109]; int n = k[109]; (void)y; (void)n; o[109] = pow(x, y); }
    // 110: pow(x, y) with x = -0.0, y = 0.5: 0.0
    { T x = a[110], y = b[110]; int n = k[110]; (void)y; (void)n; o[110] = pow(x, y); }
    // 111: pow(x, y) with x = -0.0, y = inf: 0.0
    { T x = a[111], y = b[111]; int n = k[111]; (void)y; (void)n; o[111] = pow(x, y); }
    // 112: pown(x, n) with x = -0.0, n = 2: 0.0
    { T x = a[112], y = b[112]; int n = k[112]; (void)y; (void)n; o[112] = pown(x, n); }
    // 113: pown(x, n) with x = -0.0, n = 4: 0.0
    { T x = a[113], y = b[113]; int n = k[113]; (void)y; (void)n; o[113] = pown(x, n); }
    // 114: powr(x, y) with x = -0.0, y = 2.0: 0.0
    { T x = a[114], y = b[114]; int n = k[114]; (void)y; (void)n; o[114] = powr(x, y); }
    // 115: powr(x, y) with x = -0.0, y = 3.0: 0.0
    { T x = a[115], y = b[115]; int n = k[115]; (void)y; (void)n; o[115] = powr(x, y); }
    // 116: powr(x, y) with x = -0.0, y = inf: 0.0
    { T x = a[116], y = b[116]; int n = k[116]; (void)y; (void)n; o[116] = powr(x, y); }
    // 117: rootn(x, n) with x = -0.0, n = 2: 0.0
    { T x = a[117], y = b[117]; int n = k[117]; (void)y; (void)n; o[117] = rootn(x, n); }
    // 118: rootn(x, n) with x = -0.0, n = 4: 0.0
    { T x = a[118], y = b[118]; int n = k[118]; (void)y; (void)n; o[118] = rootn(x, n); }
    // 119: fabs(x) with x = -0.0: 0.0
    { T x = a[119], y = b[119]; int n = k[119]; (void)y; (void)n; o[119] = fabs(x); }
    // 120: hypot(x, y) with x = -0.0, y = -0.0: 0.0
    { T x = a[120], y = b[120]; int n = k[120]; (void)y; (void)n; o[120] = hypot(x, y); }
    // 121: fdim(x, y) with x = -0.0, y = 0.0: 0.0
    { T x = a[121], y = b[121]; int n = k[121]; (void)y; (void)n; o[121] = fdim(x, y); }
    // 122: fdim(x, y) with x = -0.0, y = -0.0: 0.0
    { T x = a[122], y = b[122]; int n = k[122]; (void)y; (void)n; o[122] = fdim(x, y); }
    // 123: pow(x, y) with x = -inf, y = -3.0: -0.0
    { T x = a[123], y = b[123]; int n = k[123]; (void)y; (void)n; o[123] = pow(x, y); }
    // 124: pow(x, y) with x = -2.0, y = -inf: 0.0
    { T x = a[124], y = b[124]; int n = k[124]; (void)y; (void)n; o[124] = pow(x, y); }
    // 125: fract_value with x = -inf: -0.0
    { T x = a[125], y = b[125]; int n = k[125]; (void)y; (void)n; T ip; o[125] = fract(x, &ip); }
    // 126: acos(x) with x = 1.0: 0.0
    { T x = a[126], y = b[126]; int n = k[126]; (void)y; (void)n; o[126] = acos(x); }
    // 127: acosh(x) with x = 1.0: 0.0
    { T x = a[127], y = b[127]; int n = k[127]; (void)y; (void)n; o[127] = acosh(x); }
    // 128: log(x) with x = 1.0: 0.0
    { T x = a[128], y = b[128]; int n = k[128]; (void)y; (void)n; o[128] = log(x); }
    // 129: log2(x) with x = 1.0: 0.0
    { T x = a[129], y = b[129]; int n = k[129]; (void)y; (void)n; o[129] = log2(x); }
    // 130: log10(x) with x = 1.0: 0.0
    { T x = a[130], y = b[130]; int n = k[130]; (void)y; (void)n; o[130] = log10(x); }
    // 131: logb(x) with x = 1.0: 0.0
    { T x = a[131], y = b[131]; int n = k[131]; (void)y; (void)n; o[131] = logb(x); }
    // 132: lgamma(x) with x = 1.0: 0.0
    { T x = a[132], y = b[132]; int n = k[132]; (void)y; (void)n; o[132] = lgamma(x); }
    // 133: acospi(x) with x = 1.0: 0.0
    { T x = a[133], y = b[133]; int n = k[133]; (void)y; (void)n; o[133] = acospi(x); }
    // 134: half_log(x) with x = 1.0: 0.0
    { T x = a[134], y = b[134]; int n = k[134]; (void)y; (void)n; o[134] = (T)(half_log((float)x)); }
    // 135: half_log2(x) with x = 1.0: 0.0
    { T x = a[135], y = b[135]; int n = k[135]; (void)y; (void)n; o[135] = (T)(half_log2((float)x)); }
    // 136: half_log10(x) with x = 1.0: 0.0
    { T x = a[136], y = b[136]; int n = k[136]; (void)y; (void)n; o[136] = (T)(half_log10((float)x)); }
    // 137: lgamma(x) with x = 2.0: 0.0
    { T x = a[137], y = b[137]; int n = k[137]; (void)y; (void)n; o[137] = lgamma(x); }
    // 138: exp(x) with x = -inf: 0.0
    { T x = a[138], y = b[138]; int n = k[138]; (void)y; (void)n; o[138] = exp(x); }
    // 139: exp2(x) with x = -inf: 0.0
    { T x = a[139], y = b[139]; int n = k[139]; (void)y; (void)n; o[139] = exp2(x); }
    // 140: exp10(x) with x = -inf: 0.0
    { T x = a[140], y = b[140]; int n = k[140]; (void)y; (void)n; o[140] = exp10(x); }
    // 141: half_exp(x) with x = -inf: 0.0
    { T x = a[141], y = b[141]; int n = k[141]; (void)y; (void)n; o[141] = (T)(half_exp((float)x)); }
    // 142: half_exp2(x) with x = -inf: 0.0
    { T x = a[142], y = b[142]; int n = k[142]; (void)y; (void)n; o[142] = (T)(half_exp2((float)x)); }
    // 143: half_exp10(x) with x = -inf: 0.0
    { T x = a[143], y = b[143]; int n = k[143]; (void)y; (void)n; o[143] = (T)(half_exp10((float)x)); }
    // 144: erfc(x) with x = inf: 0.0
    { T x = a[144], y = b[144]; int n = k[144]; (void)y; (void)n; o[144] = erfc(x); }
    // 145: rsqrt(x) with x = inf: 0.0
    { T x = a[145], y = b[145]; int n = k[145]; (void)y; (void)n; o[145] = rsqrt(x); }
    // 146: half_rsqrt(x) with x = inf: 0.0
    { T x = a[146], y = b[146]; int n = k[146]; (void)y; (void)n; o[146] = (T)(half_rsqrt((float)x)); }
    // 147: ceil(x) with x = -0.5: -0.0
    { T x = a[147], y = b[147]; int n = k[147]; (void)y; (void)n; o[147] = ceil(x); }
    // 148: trunc(x) with x = -0.75: -0.0
    { T x = a[148], y = b[148]; int n = k[148]; (void)y; (void)n; o[148] = trunc(x); }
    // 149: round(x) with x = -0.25: -0.0
    { T x = a[149], y = b[149]; int n = k[149]; (void)y; (void)n; o[149] = round(x); }
    // 150: rint(x) with x = -0.5: -0.0
    { T x = a[150], y = b[150]; int n = k[150]; (void)y; (void)n; o[150] = rint(x); }
    // 151: cospi(x) with x = 0.5: 0.0
    { T x = a[151], y = b[151]; int n = k[151]; (void)y; (void)n; o[151] = cospi(x); }
    // 152: cospi(x) with x = -2.5: 0.0
    { T x = a[152], y = b[152]; int n = k[152]; (void)y; (void)n; o[152] = cospi(x); }
    // 153: sinpi(x) with x = 3.0: 0.0
    { T x = a[153], y = b[153]; int n = k[153]; (void)y; (void)n; o[153] = sinpi(x); }
    // 154: sinpi(x) with x = 2.0: 0.0
    { T x = a[154], y = b[154]; int n = k[154]; (void)y; (void)n; o[154] = sinpi(x); }
    // 155: sinpi(x) with x = -3.0: -0.0
    { T x = a[155], y = b[155]; int n = k[155]; (void)y; (void)n; o[155] = sinpi(x); }
    // 156: sinpi(x) with x = -2.0: -0.0
    { T x = a[156], y = b[156]; int n = k[156]; (void)y; (void)n; o[156] = sinpi(x); }
    // 157: tanpi(x) with x = 2.0: 0.0
    { T x = a[157], y = b[157]; int n = k[157]; (void)y; (void)n; o[157] = tanpi(x); }
    // 158: tanpi(x) with x = -2.0: -0.0
    { T x = a[158], y = b[158]; int n = k[158]; (void)y; (void)n; o[158] = tanpi(x); }
    // 159: tanpi(x) with x = 3.0: -0.0
    { T x = a[159], y = b[159]; int n = k[159]; (void)y; (void)n; o[159] = tanpi(x); }
    // 160: tanpi(x) with x = -3.0: 0.0
    { T x = a[160], y = b[160]; int n = k[160]; (void)y; (void)n; o[160] = tanpi(x); }
}
