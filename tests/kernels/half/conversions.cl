// Conversions to and from half (cl_khr_fp16, OpenCL C 6.4.3): float, int, long and double to
// half in each rounding mode (a tie of halves, an overflow to infinity or to HALF_MAX as the
// mode says, a value below the least subnormal, integers past 2048 where halves are 2 apart,
// 64-bit integers past the range); half to int in each mode and with saturation (6.4.3.3: NaN
// gives 0, infinities and out-of-range values clamp); half to float and double exactly;
// as_half2, as_ushort and as_half reinterpret the bits (6.4.4.2, little-endian lane order).
// f = (1 + 2^-11, -(1 + 2^-11), 70000, 1e-8); n = (65519, -65520, 2049, -2049).
// requires: cl_khr_fp16
// run: --kernel k --global 1 --arg 'float[4]=1.00048828125,-1.00048828125,70000,1e-8' --arg 'int[4]=65519,-65520,2049,-2049' --arg 'half[46]' --arg 'int[20]' --arg 'ushort[4]' --arg 'float[2]' --arg 'double[2]'
// expect o: 1.0 -1.0 inf 0.0 1.0 -1.0 65504.0 0.0 1.0009765625 -1.0 inf 5.960464477539063e-08 1.0 -1.0009765625 65504.0 0.0 65504.0 -inf 2048.0 -2048.0 65504.0 -65504.0 2048.0 -2048.0 inf -65504.0 2050.0 -2048.0 65504.0 -inf 2048.0 -2050.0 0.0999755859375 0.10003662109375 -5.960464477539063e-08 0.0 inf 65504.0 -inf -65504.0 -2.0 1.0 inf -127.5 3.0 -3.0
// expect r: 2 -2 65504 -65504 2 -2 65504 -65504 3 -2 65504 -65504 2 -3 65504 -65504 32767 0 0 2147483647
// expect u: 15360 32768 0 65535
// expect fo: 5.9604645e-8 -65504.0
// expect d: 6.103515625e-05 0.0999755859375
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void k(global const float *f, global const int *n, global half *o, global int *r,
              global ushort *u, global float *fo, global double *d) {
    float4 x = vload4(0, f);
    vstore4(convert_half4(x), 0, o);
    vstore4(convert_half4_rtz(x), 1, o);
    vstore4(convert_half4_rtp(x), 2, o);
    vstore4(convert_half4_rtn(x), 3, o);
    int4 i = vload4(0, n);
    vstore4(convert_half4(i), 4, o);
    vstore4(convert_half4_rtz(i), 5, o);
    vstore4(convert_half4_rtp(i), 6, o);
    vstore4(convert_half4_rtn(i), 7, o);
    double tenth = 0.1;
    o[32] = (half)tenth;
    o[33] = convert_half_rtp(tenth);
    o[34] = convert_half_rtn(-1e-300);
    o[35] = convert_half_rtz(1e-300);
    ulong umax = (ulong)n[0] * 0 + ULONG_MAX;
    long lmin = (long)n[0] * 0 + LONG_MIN;
    o[36] = convert_half(umax);
    o[37] = convert_half_rtz(umax);
    o[38] = convert_half(lmin);
    o[39] = convert_half_rtp(lmin);
    half2 p = as_half2((uint)n[0] * 0u + 0x3c00c000u);
    o[40] = p.x;
    o[41] = p.y;
    o[42] = as_half((ushort)(0x7c00 + n[0] * 0));
    o[43] = convert_half_rte((float)-127.5f);
    o[44] = (half)3 + (half)(char)0;
    o[45] = (half)(short)-3;
    half4 hv = (half4)(2.5h, -2.5h, 65504.0h, -HALF_MAX);
    vstore4(convert_int4(hv), 0, r);
    vstore4(convert_int4_rte(hv), 1, r);
    vstore4(convert_int4_rtp(hv), 2, r);
    vstore4(convert_int4_rtn(hv), 3, r);
    half inf = o[2];
    half nan = inf - inf;
    r[16] = convert_short_sat(hv.z);
    r[17] = convert_uchar_sat(-inf);
    r[18] = convert_int_sat(nan);
    r[19] = convert_int_sat(inf);
    u[0] = as_ushort(1.0h);
    u[1] = as_ushort(-0.0h);
    u[2] = convert_ushort_sat(-hv.x);
    u[3] = convert_ushort_sat_rtp(inf);
    fo[0] = convert_float(as_half((ushort)1));
    fo[1] = (float)-HALF_MAX;
    d[0] = convert_double(HALF_MIN);
    d[1] = (double)o[32];
}
