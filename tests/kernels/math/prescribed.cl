// The special values OpenCL C 7.5.1 (and C99 F.9, which it extends) prescribe for the math
// builtins (6.15.2), for float and double (T, one run each), checked exactly (a NaN: any
// NaN). 7.5.1: "Those values shall produce exactly the prescribed answers, and no other."
// Case i reads a[i], b[i], n[i] and writes o[2i] (and o[2i + 1], the value a function stores
// through its pointer argument, else 0); each names its arguments and prescribed results (as
// floats; nextafter's is the type's smallest denormal). The arguments come from buffers, so
// nothing is folded at compile time. The values only one type has are in prescribed_float.cl
// and prescribed_double.cl.
// run: --kernel k --global 1 -D T=float --arg 'float[254]' --arg 'float[127]=0.0,0.0,inf,0.0,0.0,0.0,0.0,-3.0,3.0,5.0,5.0,inf,inf,inf,0.0,0.0,0.0,0.0,0.0,0.0,2.0,0.0,0.0,0.0,0.0,0.0,inf,1.0,0.0,0.0,0.0,0.0,0.0,3.0,inf,0.0,inf,2.0,3.0,inf,0.0,-0.0,inf,-0.0,-0.0,-inf,-0.0,-0.0,-0.0,-0.0,-3.0,3.0,-5.0,-5.0,-inf,-inf,-inf,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,2.0,-0.0,-0.0,-0.0,-0.0,-0.0,inf,1.0,-0.0,-0.0,-0.0,-0.0,-0.0,-3.0,-inf,-0.0,-inf,-2.0,-3.0,-inf,-0.0,0.0,NaN,0.0,1.0,1.5,-1.5,-0.5,2.5,-3.5,-inf,inf,1.0,NaN,1.0,-1.0,2.0,NaN,-0.5,-0.25,-8.0,8.0,-0.4,2.5,3.5,-0.5,-0.5,inf,-inf,NaN,0.0,-0.0,inf,-inf,NaN,inf,-inf,-2.5,0.0,-3.0,inf,1.0,NaN,1.0' --arg 'float[127]=0.0,0.0,0.0,-0.0,0.0,-2.0,2.0,0.0,0.0,-inf,inf,7.0,-inf,inf,0.0,-inf,0.0,0.0,0.0,0.0,0.0,-1.0,-inf,2.0,3.0,0.0,0.0,inf,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,NaN,1.0,0.0,0.0,0.0,0.0,-0.0,0.0,-2.0,2.0,-0.0,-0.0,-inf,inf,7.0,-inf,inf,0.0,-inf,0.0,0.0,0.0,0.0,-0.0,-1.0,-inf,2.0,3.0,-0.0,-0.0,-inf,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,NaN,-1.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,NaN,1.0,5.0,2.0,NaN,1.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,1.0,0.0,1.0,NaN' --arg 'int[127]=0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-3,-2,2,3,0,0,0,0,0,0,0,0,-3,-2,2,3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-3,-2,2,3,0,0,0,0,0,0,0,0,-3,-2,2,3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0'
// expect o: 0.0 0.0 0.0 0.0 0.5 0.0 1.0 0.0 0.0 0.0 1.0 0.0 0.0 0.0 -0.5 0.0 0.5 0.0 1.0 0.0 0.0 0.0 0.5 0.0 0.75 0.0 0.25 0.0 1.0 0.0 inf 0.0 inf 0.0 inf 0.0 0.0 0.0 0.0 0.0 1.0 0.0 inf 0.0 inf 0.0 0.0 0.0 0.0 0.0 NaN 0.0 NaN 0.0 NaN 0.0 inf 0.0 inf 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 NaN 0.0 0.0 0.0 NaN 0.0 0.0 0.0 -0.0 0.0 NaN 0.0 NaN 0.0 1e-45 0.0 1.0 0.0 -0.0 0.0 -0.0 0.0 -0.5 0.0 -1.0 0.0 -0.0 0.0 -1.0 0.0 -0.0 0.0 -0.5 0.0 0.5 0.0 -1.0 0.0 -0.0 0.0 -0.5 0.0 -0.75 0.0 -0.25 0.0 1.0 0.0 inf 0.0 -inf 0.0 inf 0.0 0.0 0.0 -0.0 0.0 1.0 0.0 inf 0.0 inf 0.0 0.0 0.0 0.0 0.0 NaN 0.0 NaN 0.0 NaN 0.0 -inf 0.0 inf 0.0 0.0 0.0 -0.0 0.0 -0.0 0.0 -0.0 0.0 NaN 0.0 -0.0 0.0 NaN 0.0 -0.0 0.0 0.0 0.0 NaN 0.0 NaN 0.0 -1e-45 0.0 1.0 0.0 1.0 0.0 0.0 0.0 NaN 0.0 NaN 0.0 -0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 inf 0.0 NaN 0.0 NaN 0.0 1.0 0.0 NaN 0.0 NaN 0.0 NaN 0.0 -0.0 0.0 -0.0 0.0 NaN 0.0 NaN 0.0 -0.0 0.0 inf 0.0 -inf 0.0 -inf 0.0 -0.0 0.0 inf 0.0 -inf 0.0 NaN 0.0 0.0 0.0 -0.0 -0.0 0.0 inf -0.0 -inf NaN NaN 0.0 inf -0.0 -inf -0.5 -2.0 inf 0.0 inf 0.0 NaN 0.0 NaN 0.0 NaN 0.0 NaN 0.0
// deviates: pocl o[66,76,152,162,182,228,232,243,245]: PoCL 3.1 gives these zeros the other sign, and lgamma_r a sign of 1 or -1, against 7.5.1 "sinpi(+n) returns +0 for positive integers n", "sinpi(-n) returns -0 for negative integers n", "tanpi(n) is copysign(0.0, n) for even integers n", "tanpi(n) is copysign(0.0, -n) for odd integers n", "cospi(n + 0.5) is +0 for any integer n", "fract(-0, iptr) returns -0", "fract(-inf, iptr) returns -0", "lgamma_r(x, signp) returns 0 in signp if x is zero or a negative integer"
// deviates: intel o[243,245]: Intel's CPU runtime stores 1 in signp, against 7.5.1 "lgamma_r(x, signp) returns 0 in signp if x is zero or a negative integer"
// run: --kernel k --global 1 -D T=double --arg 'double[254]' --arg 'double[127]=0.0,0.0,inf,0.0,0.0,0.0,0.0,-3.0,3.0,5.0,5.0,inf,inf,inf,0.0,0.0,0.0,0.0,0.0,0.0,2.0,0.0,0.0,0.0,0.0,0.0,inf,1.0,0.0,0.0,0.0,0.0,0.0,3.0,inf,0.0,inf,2.0,3.0,inf,0.0,-0.0,inf,-0.0,-0.0,-inf,-0.0,-0.0,-0.0,-0.0,-3.0,3.0,-5.0,-5.0,-inf,-inf,-inf,-0.0,-0.0,-0.0,-0.0,-0.0,-0.0,2.0,-0.0,-0.0,-0.0,-0.0,-0.0,inf,1.0,-0.0,-0.0,-0.0,-0.0,-0.0,-3.0,-inf,-0.0,-inf,-2.0,-3.0,-inf,-0.0,0.0,NaN,0.0,1.0,1.5,-1.5,-0.5,2.5,-3.5,-inf,inf,1.0,NaN,1.0,-1.0,2.0,NaN,-0.5,-0.25,-8.0,8.0,-0.4,2.5,3.5,-0.5,-0.5,inf,-inf,NaN,0.0,-0.0,inf,-inf,NaN,inf,-inf,-2.5,0.0,-3.0,inf,1.0,NaN,1.0' --arg 'double[127]=0.0,0.0,0.0,-0.0,0.0,-2.0,2.0,0.0,0.0,-inf,inf,7.0,-inf,inf,0.0,-inf,0.0,0.0,0.0,0.0,0.0,-1.0,-inf,2.0,3.0,0.0,0.0,inf,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,NaN,1.0,0.0,0.0,0.0,0.0,-0.0,0.0,-2.0,2.0,-0.0,-0.0,-inf,inf,7.0,-inf,inf,0.0,-inf,0.0,0.0,0.0,0.0,-0.0,-1.0,-inf,2.0,3.0,-0.0,-0.0,-inf,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,NaN,-1.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,NaN,1.0,5.0,2.0,NaN,1.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,1.0,0.0,1.0,NaN' --arg 'int[127]=0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-3,-2,2,3,0,0,0,0,0,0,0,0,-3,-2,2,3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-3,-2,2,3,0,0,0,0,0,0,0,0,-3,-2,2,3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0'
// requires: cl_khr_fp64
// expect o: 0.0 0.0 0.0 0.0 0.5 0.0 1.0 0.0 0.0 0.0 1.0 0.0 0.0 0.0 -0.5 0.0 0.5 0.0 1.0 0.0 0.0 0.0 0.5 0.0 0.75 0.0 0.25 0.0 1.0 0.0 inf 0.0 inf 0.0 inf 0.0 0.0 0.0 0.0 0.0 1.0 0.0 inf 0.0 inf 0.0 0.0 0.0 0.0 0.0 NaN 0.0 NaN 0.0 NaN 0.0 inf 0.0 inf 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 NaN 0.0 0.0 0.0 NaN 0.0 0.0 0.0 -0.0 0.0 NaN 0.0 NaN 0.0 5e-324 0.0 1.0 0.0 -0.0 0.0 -0.0 0.0 -0.5 0.0 -1.0 0.0 -0.0 0.0 -1.0 0.0 -0.0 0.0 -0.5 0.0 0.5 0.0 -1.0 0.0 -0.0 0.0 -0.5 0.0 -0.75 0.0 -0.25 0.0 1.0 0.0 inf 0.0 -inf 0.0 inf 0.0 0.0 0.0 -0.0 0.0 1.0 0.0 inf 0.0 inf 0.0 0.0 0.0 0.0 0.0 NaN 0.0 NaN 0.0 NaN 0.0 -inf 0.0 inf 0.0 0.0 0.0 -0.0 0.0 -0.0 0.0 -0.0 0.0 NaN 0.0 -0.0 0.0 NaN 0.0 -0.0 0.0 0.0 0.0 NaN 0.0 NaN 0.0 -5e-324 0.0 1.0 0.0 1.0 0.0 0.0 0.0 NaN 0.0 NaN 0.0 -0.0 0.0 0.0 0.0 0.0 0.0 0.0 0.0 inf 0.0 NaN 0.0 NaN 0.0 1.0 0.0 NaN 0.0 NaN 0.0 NaN 0.0 -0.0 0.0 -0.0 0.0 NaN 0.0 NaN 0.0 -0.0 0.0 inf 0.0 -inf 0.0 -inf 0.0 -0.0 0.0 inf 0.0 -inf 0.0 NaN 0.0 0.0 0.0 -0.0 -0.0 0.0 inf -0.0 -inf NaN NaN 0.0 inf -0.0 -inf -0.5 -2.0 inf 0.0 inf 0.0 NaN 0.0 NaN 0.0 NaN 0.0 NaN 0.0
// deviates: pocl o[66,76,88,152,162,182,228,232,243,245]: PoCL 3.1 gives these zeros the other sign, and lgamma_r a sign of 1 or -1, against 7.5.1 "sinpi(+n) returns +0 for positive integers n", "sinpi(-n) returns -0 for negative integers n", "tanpi(n) is copysign(0.0, n) for even integers n", "tanpi(n) is copysign(0.0, -n) for odd integers n", "cospi(n + 0.5) is +0 for any integer n", "fract(-0, iptr) returns -0", "fract(-inf, iptr) returns -0", "lgamma_r(x, signp) returns 0 in signp if x is zero or a negative integer", "atanpi(±0) = ±0"
// deviates: intel o[243,245]: Intel's CPU runtime stores 1 in signp, against 7.5.1 "lgamma_r(x, signp) returns 0 in signp if x is zero or a negative integer"
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
kernel void k(global T *o, global const T *a, global const T *b, global const int *n) {
    // 0: a = 0.0: 0.0
    { o[0] = asinpi(a[0]); }
    // 1: a = 0.0: 0.0
    { o[2] = atanpi(a[1]); }
    // 2: a = inf: 0.5
    { o[4] = atanpi(a[2]); }
    // 3: a = 0.0, b = -0.0: 1.0
    { o[6] = atan2pi(a[3], b[3]); }
    // 4: a = 0.0, b = 0.0: 0.0
    { o[8] = atan2pi(a[4], b[4]); }
    // 5: a = 0.0, b = -2.0: 1.0
    { o[10] = atan2pi(a[5], b[5]); }
    // 6: a = 0.0, b = 2.0: 0.0
    { o[12] = atan2pi(a[6], b[6]); }
    // 7: a = -3.0, b = 0.0: -0.5
    { o[14] = atan2pi(a[7], b[7]); }
    // 8: a = 3.0, b = 0.0: 0.5
    { o[16] = atan2pi(a[8], b[8]); }
    // 9: a = 5.0, b = -inf: 1.0
    { o[18] = atan2pi(a[9], b[9]); }
    // 10: a = 5.0, b = inf: 0.0
    { o[20] = atan2pi(a[10], b[10]); }
    // 11: a = inf, b = 7.0: 0.5
    { o[22] = atan2pi(a[11], b[11]); }
    // 12: a = inf, b = -inf: 0.75
    { o[24] = atan2pi(a[12], b[12]); }
    // 13: a = inf, b = inf: 0.25
    { o[26] = atan2pi(a[13], b[13]); }
    // 14: a = 0.0: 1.0
    { o[28] = cospi(a[14]); }
    // 15: a = 0.0, b = -inf: inf
    { o[30] = pow(a[15], b[15]); }
    // 16: a = 0.0, n = -3: inf
    { o[32] = pown(a[16], n[16]); }
    // 17: a = 0.0, n = -2: inf
    { o[34] = pown(a[17], n[17]); }
    // 18: a = 0.0, n = 2: 0.0
    { o[36] = pown(a[18], n[18]); }
    // 19: a = 0.0, n = 3: 0.0
    { o[38] = pown(a[19], n[19]); }
    // 20: a = 2.0, b = 0.0: 1.0
    { o[40] = powr(a[20], b[20]); }
    // 21: a = 0.0, b = -1.0: inf
    { o[42] = powr(a[21], b[21]); }
    // 22: a = 0.0, b = -inf: inf
    { o[44] = powr(a[22], b[22]); }
    // 23: a = 0.0, b = 2.0: 0.0
    { o[46] = powr(a[23], b[23]); }
    // 24: a = 0.0, b = 3.0: 0.0
    { o[48] = powr(a[24], b[24]); }
    // 25: a = 0.0, b = 0.0: NaN
    { o[50] = powr(a[25], b[25]); }
    // 26: a = inf, b = 0.0: NaN
    { o[52] = powr(a[26], b[26]); }
    // 27: a = 1.0, b = inf: NaN
    { o[54] = powr(a[27], b[27]); }
    // 28: a = 0.0, n = -3: inf
    { o[56] = rootn(a[28], n[28]); }
    // 29: a = 0.0, n = -2: inf
    { o[58] = rootn(a[29], n[29]); }
    // 30: a = 0.0, n = 2: 0.0
    { o[60] = rootn(a[30], n[30]); }
    // 31: a = 0.0, n = 3: 0.0
    { o[62] = rootn(a[31], n[31]); }
    // 32: a = 0.0: 0.0
    { o[64] = sinpi(a[32]); }
    // 33: a = 3.0: 0.0
    { o[66] = sinpi(a[33]); }
    // 34: a = inf: NaN
    { o[68] = sinpi(a[34]); }
    // 35: a = 0.0: 0.0
    { o[70] = tanpi(a[35]); }
    // 36: a = inf: NaN
    { o[72] = tanpi(a[36]); }
    // 37: a = 2.0: 0.0
    { o[74] = tanpi(a[37]); }
    // 38: a = 3.0: -0.0
    { o[76] = tanpi(a[38]); }
    // 39: a = inf: NaN
    { o[78] = cospi(a[39]); }
    // 40: a = 0.0, b = NaN: NaN
    { o[80] = fmod(a[40], b[40]); }
    // 41: a = -0.0, b = 1.0: 1e-45
    { o[82] = nextafter(a[41], b[41]); }
    // 42: a = inf, n = 0: 1.0
    { o[84] = pown(a[42], n[42]); }
    // 43: a = -0.0: -0.0
    { o[86] = asinpi(a[43]); }
    // 44: a = -0.0: -0.0
    { o[88] = atanpi(a[44]); }
    // 45: a = -inf: -0.5
    { o[90] = atanpi(a[45]); }
    // 46: a = -0.0, b = -0.0: -1.0
    { o[92] = atan2pi(a[46], b[46]); }
    // 47: a = -0.0, b = 0.0: -0.0
    { o[94] = atan2pi(a[47], b[47]); }
    // 48: a = -0.0, b = -2.0: -1.0
    { o[96] = atan2pi(a[48], b[48]); }
    // 49: a = -0.0, b = 2.0: -0.0
    { o[98] = atan2pi(a[49], b[49]); }
    // 50: a = -3.0, b = -0.0: -0.5
    { o[100] = atan2pi(a[50], b[50]); }
    // 51: a = 3.0, b = -0.0: 0.5
    { o[102] = atan2pi(a[51], b[51]); }
    // 52: a = -5.0, b = -inf: -1.0
    { o[104] = atan2pi(a[52], b[52]); }
    // 53: a = -5.0, b = inf: -0.0
    { o[106] = atan2pi(a[53], b[53]); }
    // 54: a = -inf, b = 7.0: -0.5
    { o[108] = atan2pi(a[54], b[54]); }
    // 55: a = -inf, b = -inf: -0.75
    { o[110] = atan2pi(a[55], b[55]); }
    // 56: a = -inf, b = inf: -0.25
    { o[112] = atan2pi(a[56], b[56]); }
    // 57: a = -0.0: 1.0
    { o[114] = cospi(a[57]); }
    // 58: a = -0.0, b = -inf: inf
    { o[116] = pow(a[58], b[58]); }
    // 59: a = -0.0, n = -3: -inf
    { o[118] = pown(a[59], n[59]); }
    // 60: a = -0.0, n = -2: inf
    { o[120] = pown(a[60], n[60]); }
    // 61: a = -0.0, n = 2: 0.0
    { o[122] = pown(a[61], n[61]); }
    // 62: a = -0.0, n = 3: -0.0
    { o[124] = pown(a[62], n[62]); }
    // 63: a = 2.0, b = -0.0: 1.0
    { o[126] = powr(a[63], b[63]); }
    // 64: a = -0.0, b = -1.0: inf
    { o[128] = powr(a[64], b[64]); }
    // 65: a = -0.0, b = -inf: inf
    { o[130] = powr(a[65], b[65]); }
    // 66: a = -0.0, b = 2.0: 0.0
    { o[132] = powr(a[66], b[66]); }
    // 67: a = -0.0, b = 3.0: 0.0
    { o[134] = powr(a[67], b[67]); }
    // 68: a = -0.0, b = -0.0: NaN
    { o[136] = powr(a[68], b[68]); }
    // 69: a = inf, b = -0.0: NaN
    { o[138] = powr(a[69], b[69]); }
    // 70: a = 1.0, b = -inf: NaN
    { o[140] = powr(a[70], b[70]); }
    // 71: a = -0.0, n = -3: -inf
    { o[142] = rootn(a[71], n[71]); }
    // 72: a = -0.0, n = -2: inf
    { o[144] = rootn(a[72], n[72]); }
    // 73: a = -0.0, n = 2: 0.0
    { o[146] = rootn(a[73], n[73]); }
    // 74: a = -0.0, n = 3: -0.0
    { o[148] = rootn(a[74], n[74]); }
    // 75: a = -0.0: -0.0
    { o[150] = sinpi(a[75]); }
    // 76: a = -3.0: -0.0
    { o[152] = sinpi(a[76]); }
    // 77: a = -inf: NaN
    { o[154] = sinpi(a[77]); }
    // 78: a = -0.0: -0.0
    { o[156] = tanpi(a[78]); }
    // 79: a = -inf: NaN
    { o[158] = tanpi(a[79]); }
    // 80: a = -2.0: -0.0
    { o[160] = tanpi(a[80]); }
    // 81: a = -3.0: 0.0
    { o[162] = tanpi(a[81]); }
    // 82: a = -inf: NaN
    { o[164] = cospi(a[82]); }
    // 83: a = -0.0, b = NaN: NaN
    { o[166] = fmod(a[83], b[83]); }
    // 84: a = 0.0, b = -1.0: -1e-45
    { o[168] = nextafter(a[84], b[84]); }
    // 85: a = NaN, n = 0: 1.0
    { o[170] = pown(a[85], n[85]); }
    // 86: a = 0.0, n = 0: 1.0
    { o[172] = pown(a[86], n[86]); }
    // 87: a = 1.0: 0.0
    { o[174] = acospi(a[87]); }
    // 88: a = 1.5: NaN
    { o[176] = acospi(a[88]); }
    // 89: a = -1.5: NaN
    { o[178] = asinpi(a[89]); }
    // 90: a = -0.5: -0.0
    { o[180] = ceil(a[90]); }
    // 91: a = 2.5: 0.0
    { o[182] = cospi(a[91]); }
    // 92: a = -3.5: 0.0
    { o[184] = cospi(a[92]); }
    // 93: a = -inf: 0.0
    { o[186] = exp10(a[93]); }
    // 94: a = inf: inf
    { o[188] = exp10(a[94]); }
    // 95: a = 1.0, b = NaN: NaN
    { o[190] = fdim(a[95], b[95]); }
    // 96: a = NaN, b = 1.0: NaN
    { o[192] = fdim(a[96], b[96]); }
    // 97: a = 1.0, b = 5.0: 1.0
    { o[194] = powr(a[97], b[97]); }
    // 98: a = -1.0, b = 2.0: NaN
    { o[196] = powr(a[98], b[98]); }
    // 99: a = 2.0, b = NaN: NaN
    { o[198] = powr(a[99], b[99]); }
    // 100: a = NaN, b = 1.0: NaN
    { o[200] = powr(a[100], b[100]); }
    // 101: a = -0.5: -0.0
    { o[202] = rint(a[101]); }
    // 102: a = -0.25: -0.0
    { o[204] = rint(a[102]); }
    // 103: a = -8.0, n = 2: NaN
    { o[206] = rootn(a[103], n[103]); }
    // 104: a = 8.0, n = 0: NaN
    { o[208] = rootn(a[104], n[104]); }
    // 105: a = -0.4: -0.0
    { o[210] = round(a[105]); }
    // 106: a = 2.5: inf
    { o[212] = tanpi(a[106]); }
    // 107: a = 3.5: -inf
    { o[214] = tanpi(a[107]); }
    // 108: a = -0.5: -inf
    { o[216] = tanpi(a[108]); }
    // 109: a = -0.5: -0.0
    { o[218] = trunc(a[109]); }
    // 110: a = inf: inf, 0.0
    { int t = 7; o[220] = frexp(a[110], &t); o[221] = (T)t; }
    // 111: a = -inf: -inf, 0.0
    { int t = 7; o[222] = frexp(a[111], &t); o[223] = (T)t; }
    // 112: a = NaN: NaN, 0.0
    { int t = 7; o[224] = frexp(a[112], &t); o[225] = (T)t; }
    // 113: a = 0.0: 0.0, 0.0
    { T t = 7; o[226] = fract(a[113], &t); o[227] = (T)t; }
    // 114: a = -0.0: -0.0, -0.0
    { T t = 7; o[228] = fract(a[114], &t); o[229] = (T)t; }
    // 115: a = inf: 0.0, inf
    { T t = 7; o[230] = fract(a[115], &t); o[231] = (T)t; }
    // 116: a = -inf: -0.0, -inf
    { T t = 7; o[232] = fract(a[116], &t); o[233] = (T)t; }
    // 117: a = NaN: NaN, NaN
    { T t = 7; o[234] = fract(a[117], &t); o[235] = (T)t; }
    // 118: a = inf: 0.0, inf
    { T t = 7; o[236] = modf(a[118], &t); o[237] = (T)t; }
    // 119: a = -inf: -0.0, -inf
    { T t = 7; o[238] = modf(a[119], &t); o[239] = (T)t; }
    // 120: a = -2.5: -0.5, -2.0
    { T t = 7; o[240] = modf(a[120], &t); o[241] = (T)t; }
    // 121: a = 0.0: inf, 0.0
    { int t = 7; o[242] = lgamma_r(a[121], &t); o[243] = (T)t; }
    // 122: a = -3.0: inf, 0.0
    { int t = 7; o[244] = lgamma_r(a[122], &t); o[245] = (T)t; }
    // 123: a = inf, b = 1.0: NaN, 0.0
    { int t = 7; o[246] = remquo(a[123], b[123], &t); o[247] = (T)t; }
    // 124: a = 1.0, b = 0.0: NaN, 0.0
    { int t = 7; o[248] = remquo(a[124], b[124], &t); o[249] = (T)t; }
    // 125: a = NaN, b = 1.0: NaN, 0.0
    { int t = 7; o[250] = remquo(a[125], b[125], &t); o[251] = (T)t; }
    // 126: a = 1.0, b = NaN: NaN, 0.0
    { int t = 7; o[252] = remquo(a[126], b[126], &t); o[253] = (T)t; }
}
