// Integer builtins (6.15.3) of OpenCL C 1.2: abs, abs_diff, add_sat, hadd,
// rhadd, clamp, clz, mad_hi, mad_sat, max, min, mul_hi, rotate, sub_sat, upsample,
// popcount, mad24, mul24, on signed and unsigned scalars and vectors of
// several widths, and the integer limit macros (6.15.3.2).

__kernel void integer_builtins(__global int4 *o4, __global uint *ou, __global long *ol,
                               __global short8 *o8, __global uchar16 *o16)
{
    int gid = get_global_id(0);
    int4 a = (int4)(-7, 3, INT_MAX, INT_MIN) + gid;
    int4 b = (int4)(2, -5, 1, -1);
    uint4 ua = as_uint4(a);

    uint4 ab = abs(a);
    uint4 ad = abs_diff(a, b);
    int4 sat = add_sat(a, b) + sub_sat(a, b);
    int4 avg = hadd(a, b) + rhadd(a, b);
    int4 cl = clamp(a, -10, 10) + clamp(a, b, (int4)(100));
    int4 bits = clz(a) + popcount(a);
    int4 hi = mul_hi(a, b) + mad_hi(a, b, a) + mad_sat(a, b, a);
    int4 mm = max(a, b) + min(a, 0) + max(a, 5);
    int4 rot = rotate(a, (int4)(1, 8, 16, 31));
    int4 i24 = mad24(a & 0xFFFF, b, a) + mul24(a & 0xFFF, b & 0xFFF);

    uint u = (uint)gid;
    uint us = add_sat(u, 0xFFFFFFF0u) + sub_sat(u, 10u) + clz(u) + popcount(u) + rotate(u, 3u) +
              mul_hi(u, 0x9E3779B9u) + max(u, 4u) + abs(gid) + abs_diff(u, 100u);

    short hs = (short)gid;
    uint up = upsample((ushort)gid, (ushort)7);
    long ul = upsample(gid, u) + (long)upsample((char)hs, (uchar)1);
    long lsat = add_sat((long)gid, LONG_MAX) + mul_hi((long)gid, LONG_MIN) + clz((long)gid);
    ulong ulm = max((ulong)gid, ULONG_MAX - 1) + popcount((ulong)gid);

    short8 s8 = (short8)(hs);
    s8 = add_sat(s8, (short8)(SHRT_MAX)) + (short)abs_diff(s8, (short8)(-3)).s0 + rotate(s8, (short8)(4));
    uchar16 c16 = (uchar16)(gid);
    c16 = hadd(c16, (uchar16)(UCHAR_MAX)) + clz(c16) + sub_sat(c16, (uchar16)(200));

    o4[gid] = as_int4(ab) + as_int4(ad) + sat + avg + cl + bits + hi + mm + rot + i24 +
              as_int4(ua >> 1);
    ou[gid] = us + up;
    ol[gid] = ul + lsat + (long)ulm + SCHAR_MIN + CHAR_MAX + USHRT_MAX;
    o8[gid] = s8;
    o16[gid] = c16;
}
