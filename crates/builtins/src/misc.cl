// 6.15.2 and 6.15.4 functions built from IEEE operations: rounding, remainders, exponent
// access, min/max forms, common functions.
//
// Every result here is exact (or correctly rounded: ldexp, divide, recip, sqrt, mad's
// operations), so a float function may compute in double and round once where that is simpler:
// the double result is the float result's exact value.

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// ---------------------------------------------------------------------------------------------
// Functions that are IR operations. Lowering turns calls of these into instructions; they are
// here so that every function of the family has its library definition.

float __cl_fabs_float(float x) { return fabs(x); }
double __cl_fabs_double(double x) { return fabs(x); }
float __cl_floor_float(float x) { return floor(x); }
double __cl_floor_double(double x) { return floor(x); }
float __cl_ceil_float(float x) { return ceil(x); }
double __cl_ceil_double(double x) { return ceil(x); }
float __cl_trunc_float(float x) { return trunc(x); }
double __cl_trunc_double(double x) { return trunc(x); }
float __cl_rint_float(float x) { return rint(x); }
double __cl_rint_double(double x) { return rint(x); }
float __cl_sqrt_float(float x) { return sqrt(x); }
double __cl_sqrt_double(double x) { return sqrt(x); }
float __cl_fmax_float_float(float x, float y) { return fmax(x, y); }
double __cl_fmax_double_double(double x, double y) { return fmax(x, y); }
float __cl_fmin_float_float(float x, float y) { return fmin(x, y); }
double __cl_fmin_double_double(double x, double y) { return fmin(x, y); }
float __cl_copysign_float_float(float x, float y) { return copysign(x, y); }
double __cl_copysign_double_double(double x, double y) { return copysign(x, y); }
float __cl_mad_float_float_float(float a, float b, float c) { return mad(a, b, c); }
double __cl_mad_double_double_double(double a, double b, double c) { return mad(a, b, c); }
float __cl_sign_float(float x) { return sign(x); }
double __cl_sign_double(double x) { return sign(x); }
float __cl_step_float_float(float edge, float x) { return step(edge, x); }
double __cl_step_double_double(double edge, double x) { return step(edge, x); }
float __cl_mix_float_float_float(float x, float y, float a) { return mix(x, y, a); }
double __cl_mix_double_double_double(double x, double y, double a) { return mix(x, y, a); }
float __cl_degrees_float(float x) { return degrees(x); }
double __cl_degrees_double(double x) { return degrees(x); }
float __cl_radians_float(float x) { return radians(x); }
double __cl_radians_double(double x) { return radians(x); }

// ---------------------------------------------------------------------------------------------
// Division, reciprocal, common functions.

float __cl_divide_float_float(float x, float y) { return x / y; }
double __cl_divide_double_double(double x, double y) { return x / y; }
float __cl_recip_float(float x) { return 1.0f / x; }
double __cl_recip_double(double x) { return 1.0 / x; }

// 6.15.4: "t = clamp((x - edge0) / (edge1 - edge0), 0, 1); return t * t * (3 - 2 * t);".
float __cl_smoothstep_float_float_float(float e0, float e1, float x) {
    float t = clamp((x - e0) / (e1 - e0), 0.0f, 1.0f);
    return t * t * (3.0f - 2.0f * t);
}
double __cl_smoothstep_double_double_double(double e0, double e1, double x) {
    double t = clamp((x - e0) / (e1 - e0), 0.0, 1.0);
    return t * t * (3.0 - 2.0 * t);
}

// ---------------------------------------------------------------------------------------------
// Rounding.

// 6.15.2: round "to integral value, rounding halfway cases away from zero, regardless of the
// current rounding direction". x - trunc(x) is exact; at and above 2^52 (2^23) x is integral
// and the difference is 0; for ±inf it is a NaN, which adds nothing.
double __cl_round_double(double x) {
    double t = trunc(x);
    double up = fabs(x - t) >= 0.5 ? 1.0 : 0.0;
    return t + copysign(up, x);
}
float __cl_round_float(float x) {
    float t = trunc(x);
    float up = fabs(x - t) >= 0.5f ? 1.0f : 0.0f;
    return t + copysign(up, x);
}

// 6.15.2: fract "returns fmin(x - floor(x), 0x1.fffffep-1f). floor(x) is returned in iptr".
// 7.5.1: "fract(-0, iptr) returns -0 and -0 in iptr", fract(±inf) returns ±0 and ±inf in iptr,
// "fract(NaN, iptr) returns the NaN and NaN in iptr" (fmin alone would drop the NaN).
double __cl_fract_double_ptr_double(double x, double *iptr) {
    double fl = floor(x);
    *iptr = fl;
    double r = fmin(x - fl, 0x1.fffffffffffffp-1);
    r = isinf(x) ? copysign(0.0, x) : r;
    r = x == 0.0 ? x : r;
    return isnan(x) ? x : r;
}
float __cl_fract_float_ptr_float(float x, float *iptr) {
    float fl = floor(x);
    *iptr = fl;
    float r = fmin(x - fl, 0x1.fffffep-1f);
    r = isinf(x) ? copysign(0.0f, x) : r;
    r = x == 0.0f ? x : r;
    return isnan(x) ? x : r;
}

// 7.5.2: "modf behaves as though implemented by: *iptr = trunc(value); return
// copysign(isinf(value) ? 0.0 : value - *iptr, value);". x - trunc(x) is exact.
double __cl_modf_double_ptr_double(double x, double *iptr) {
    double t = trunc(x);
    *iptr = t;
    return copysign(isinf(x) ? 0.0 : x - t, x);
}
float __cl_modf_float_ptr_float(float x, float *iptr) {
    float t = trunc(x);
    *iptr = t;
    return copysign(isinf(x) ? 0.0f : x - t, x);
}

// ---------------------------------------------------------------------------------------------
// Magnitudes and differences.

// 6.15.2: fdim is "x - y if x > y, +0 if x is less than or equal to y"; a NaN argument gives
// a NaN (C99 F.9.9.1).
double __cl_fdim_double_double(double x, double y) {
    double r = x > y ? x - y : 0.0;
    return isnan(x) || isnan(y) ? x + y : r;
}
float __cl_fdim_float_float(float x, float y) {
    float r = x > y ? x - y : 0.0f;
    return isnan(x) || isnan(y) ? x + y : r;
}

// 6.15.2: maxmag "returns x if |x| > |y|, y if |y| > |x|, otherwise fmax(x, y)"; minmag
// likewise with < and fmin. A NaN compares false both ways and goes to fmax/fmin.
double __cl_maxmag_double_double(double x, double y) {
    double ax = fabs(x), ay = fabs(y);
    return ax > ay ? x : ay > ax ? y : fmax(x, y);
}
float __cl_maxmag_float_float(float x, float y) {
    float ax = fabs(x), ay = fabs(y);
    return ax > ay ? x : ay > ax ? y : fmax(x, y);
}
double __cl_minmag_double_double(double x, double y) {
    double ax = fabs(x), ay = fabs(y);
    return ax < ay ? x : ay < ax ? y : fmin(x, y);
}
float __cl_minmag_float_float(float x, float y) {
    float ax = fabs(x), ay = fabs(y);
    return ax < ay ? x : ay < ax ? y : fmin(x, y);
}

// ---------------------------------------------------------------------------------------------
// Exponent access.

// 2^k for -1074 <= k <= 1023, exactly (a subnormal below -1022).
double __cl_misc_pow2(int k) {
    return k >= -1022 ? as_double((ulong)(k + 1023) << 52) : as_double(1UL << (k + 1074));
}

// 6.15.2: ldexp "multiply x by 2 to the power k", rounded once. n is clamped to where every
// finite x overflows or underflows; up to two exact scalings by 2^±969 or 2^1023 bring it into
// the range of one normal power of two, and the last product is the only rounding: the
// 2^-969 steps keep x normal unless the result is below half the least subnormal anyway.
double __cl_ldexp_double_int(double x, int n) {
    n = clamp(n, -2200, 2200);
    if (n > 1023) {
        x *= 0x1p1023;
        n -= 1023;
        if (n > 1023) {
            x *= 0x1p1023;
            n = min(n - 1023, 1023);
        }
    } else if (n < -1022) {
        // 2^-969 is 2^-1022 * 2^53: x stays normal while its exponent is at least -53.
        x *= 0x1p-969;
        n += 969;
        if (n < -1022) {
            x *= 0x1p-969;
            n = max(n + 969, -1022);
        }
    }
    return x * as_double((ulong)(n + 1023) << 52);
}
// A float times a power of two is exact in double until it leaves double's range, far
// outside float's; the one rounding is to float.
float __cl_ldexp_float_int(float x, int n) {
    return (float)__cl_ldexp_double_int((double)x, n);
}

// 6.15.2: frexp "extract mantissa and exponent from x ... the mantissa is in the interval
// [1/2, 1) or 0". 7.5.1: frexp(±inf) and frexp(NaN) return x and store 0; C99 F.9.3.4:
// frexp(±0) is ±0 with 0 stored. A subnormal is scaled by 2^54 first.
double __cl_frexp_double_ptr_int(double x, int *exp) {
    int sub = fabs(x) < 0x1p-1022;
    double y = sub ? x * 0x1p54 : x;
    ulong b = as_ulong(y);
    int e = (int)((b >> 52) & 0x7ffUL);
    int special = x == 0.0 || !isfinite(x);
    *exp = special ? 0 : e - 1022 - (sub ? 54 : 0);
    double m = as_double((b & 0x800fffffffffffffUL) | 0x3fe0000000000000UL);
    return special ? x : m;
}
// The same on float's bits (a subnormal scaled by 2^24), without branches.
float __cl_frexp_float_ptr_int(float x, int *exp) {
    uint ax = as_uint(x) & 0x7fffffffu;
    int sub = -(ax < 0x00800000u);
    uint b = as_uint(x * as_float(bitselect(0x3f800000, 0x4b800000, sub)));
    int e = (int)((b >> 23) & 0xffu) - 126 - (sub & 24);
    // +-0, +-inf and NaN: x itself, 0 stored.
    int special = -(ax - 1u >= 0x7f7fffffu);
    *exp = e & ~special;
    return as_float(bitselect((int)((b & 0x807fffffu) | 0x3f000000u), as_int(x), special));
}

// 6.15.2: ilogb "return the exponent as an integer value". C99 7.12.6.5: FP_ILOGB0 for 0,
// FP_ILOGBNAN for a NaN, INT_MAX for ±inf.
int __cl_ilogb_double(double x) {
    ulong b = as_ulong(x) & 0x7fffffffffffffffUL;
    int e = (int)(b >> 52);
    // A subnormal's exponent comes from its leading one: m 2^-1074 with m < 2^52.
    int sub = -1011 - (int)clz(b);
    int r = e == 0 ? sub : e - 1023;
    r = e == 0x7ff ? INT_MAX : r;
    r = b == 0UL ? FP_ILOGB0 : r;
    return isnan(x) ? FP_ILOGBNAN : r;
}
int __cl_ilogb_float(float x) {
    uint b = as_uint(x) & 0x7fffffffu;
    int e = (int)(b >> 23);
    // A subnormal's exponent comes from its leading one: m 2^-149 with m < 2^23.
    int r = bitselect(e - 127, -118 - (int)clz(b), -(e == 0));
    r = bitselect(r, INT_MAX, -(e == 0xff));
    r = bitselect(r, FP_ILOGB0, -(b == 0u));
    return bitselect(r, FP_ILOGBNAN, -(b > 0x7f800000u));
}

// 6.15.2: logb "compute the exponent of x, which is the integral part of log_r |x|". C99
// F.9.3.11: logb(±0) is -inf, logb(±inf) is +inf; a NaN gives a NaN.
double __cl_logb_double(double x) {
    double r = (double)__cl_ilogb_double(x);
    r = x == 0.0 ? -INFINITY : r;
    r = isinf(x) ? INFINITY : r;
    return isnan(x) ? x : r;
}
float __cl_logb_float(float x) {
    uint b = as_uint(x) & 0x7fffffffu;
    float r = (float)__cl_ilogb_float(x);
    r = as_float(bitselect(as_int(r), (int)0xff800000, -(b == 0u)));
    // +-inf gives +inf, a NaN stays.
    return as_float(bitselect(as_int(r), (int)b, -(b >= 0x7f800000u)));
}

// 6.15.2: nextafter "computes the next representable floating-point value following x in the
// direction of y". C99 7.12.11.3: y if x equals y; a NaN if either is. 7.5.1: "nextafter(-0,
// y > 0) returns smallest positive denormal value".
double __cl_nextafter_double_double(double x, double y) {
    long b = as_long(x);
    // Away from zero when x and the direction agree in sign; from a zero, the least
    // subnormal with the sign of the direction.
    long step = (x < y) == (x > 0.0) ? 1L : -1L;
    double r = x == 0.0 ? copysign(as_double(1UL), y) : as_double(b + step);
    r = x == y ? y : r;
    return isnan(x) || isnan(y) ? x + y : r;
}
float __cl_nextafter_float_float(float x, float y) {
    int b = as_int(x);
    int step = (x < y) == (x > 0.0f) ? 1 : -1;
    float r = x == 0.0f ? copysign(as_float(1u), y) : as_float(b + step);
    r = x == y ? y : r;
    return isnan(x) || isnan(y) ? x + y : r;
}

// 6.15.2: nan "returns a quiet NaN. The nancode may be placed in the significand of the
// resulting NaN": the code's low bits below the quiet bit.
float __cl_nan_uint(uint code) { return as_float(0x7fc00000u | (code & 0x003fffffu)); }
double __cl_nan_ulong(ulong code) {
    return as_double(0x7ff8000000000000UL | (code & 0x0007ffffffffffffUL));
}

// ---------------------------------------------------------------------------------------------
// Remainders.

// |x| mod |y| exactly, for ax >= 0 and ay > 0 (ax itself when ax < ay or ax is not finite),
// with the low bits of the truncated quotient trunc(ax / ay) in *quo (the bits above the
// seventh may be lost). Long division on the significands (Knuth, TAOCP 4.3.1, one 64-bit
// word): ax = mx 2^ex, ay = my 2^ey with my < 2^53, so the partial remainder shifted left by
// 11 bits fits 64 bits, and the exponent difference (at most 2097) is consumed 11 bits per
// step.
double __cl_misc_fmod_core(double ax, double ay, uint *quo) {
    ulong bx = as_ulong(ax), by = as_ulong(ay);
    int ex = (int)(bx >> 52), ey = (int)(by >> 52);
    ulong mx = bx & 0x000fffffffffffffUL, my = by & 0x000fffffffffffffUL;
    // A normal number's implicit bit; a subnormal's exponent reads as 1.
    mx = ex != 0 ? mx | 0x0010000000000000UL : mx;
    my = ey != 0 ? my | 0x0010000000000000UL : my;
    ex = max(ex, 1);
    ey = max(ey, 1);
    // |x| < |y| (y infinite included), and the arguments the callers give a NaN for.
    if (!(ax >= ay) || !(ax <= 0x1.fffffffffffffp1023) || !(ay > 0.0)) {
        *quo = 0u;
        return ax;
    }
    int d = ex - ey;
    uint q = (uint)(mx / my);
    ulong r = mx % my;
    while (d > 0) {
        int s = min(d, 11);
        r <<= s;
        q = (q << s) + (uint)(r / my);
        r = r % my;
        d -= s;
    }
    *quo = q;
    // r units of 2^(ey - 1075): exact, since the remainder is a multiple of that unit and
    // below ay.
    return (double)r * __cl_misc_pow2(ey - 1075);
}

// 6.15.2: fmod "modulus. Returns x - y * trunc(x/y)", exact, with the sign of x. C99 F.9.7.1:
// a NaN for x infinite or y zero; x for y infinite and x finite.
double __cl_fmod_double_double(double x, double y) {
    uint q;
    double r = copysign(__cl_misc_fmod_core(fabs(x), fabs(y), &q), x);
    r = isinf(y) ? x : r;
    return isnan(x) || isnan(y) || isinf(x) || y == 0.0 ? NAN : r;
}
float __cl_fmod_float_float(float x, float y) {
    return (float)__cl_fmod_double_double((double)x, (double)y);
}

// The remainder r = x - n y with n the integer nearest x / y (even on a tie), and n's low
// bits (C99 7.12.10.2). From the truncated quotient q and remainder m of |x| / |y|: n is q + 1
// when m > |y| - m, or m equals it and q is odd; then r = m - |y|, exact (Sterbenz, m at
// least |y| / 2). |y| - m is exact where it decides (m at least |y| / 2, or subnormal scale)
// and otherwise rounds above m.
double __cl_misc_remquo_core(double x, double y, int *quo) {
    double ax = fabs(x), ay = fabs(y);
    uint q;
    double m = __cl_misc_fmod_core(ax, ay, &q);
    double rest = ay - m;
    int up = m > rest || (m == rest && (q & 1u) != 0u);
    double r = up ? m - ay : m;
    q = up ? q + 1u : q;
    int bits = (int)(q & 127u);
    *quo = (x < 0.0) != (y < 0.0) ? -bits : bits;
    r = copysign(1.0, x) * r;
    int bad = isnan(x) || isnan(y) || isinf(x) || y == 0.0;
    *quo = bad ? 0 : *quo;
    return bad ? NAN : r;
}

// 6.15.2: remainder "compute the value r such that r = x - n*y, where n is the integer
// nearest the exact value of x/y. If there are two integers closest to x/y, n shall be the
// even one. If r is zero, it is given the same sign as x." C99 F.9.7.2: a NaN for x infinite
// or y zero.
double __cl_remainder_double_double(double x, double y) {
    int q;
    return __cl_misc_remquo_core(x, y, &q);
}
float __cl_remainder_float_float(float x, float y) {
    int q;
    return (float)__cl_misc_remquo_core((double)x, (double)y, &q);
}

// 6.15.2: remquo "computes the value r such that r = x - k*y, where k is the integer nearest
// the exact value of x/y ... This is the same value that is returned by the remainder
// function. remquo also calculates the lower seven bits of the integral quotient x/y, and
// gives that value the same sign as x/y". 7.5.1: "remquo(x, y, &quo) returns a NaN and 0 in
// quo if x is ±inf, or if y is 0 and the other argument is non-NaN or if either argument is a
// NaN".
double __cl_remquo_double_double_ptr_int(double x, double y, int *quo) {
    return __cl_misc_remquo_core(x, y, quo);
}
float __cl_remquo_float_float_ptr_int(float x, float y, int *quo) {
    return (float)__cl_misc_remquo_core((double)x, (double)y, quo);
}
