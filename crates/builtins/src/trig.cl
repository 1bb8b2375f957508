// 6.15.2 trigonometric functions and their inverses (including the *pi forms).
//
// The double functions are computed in double (within about one double ulp), the float ones
// in float (their sections below say how).
//
// sin, cos, tan: x = k pi/2 + r with |r| <= pi/4 (a little more where rounding picks the
// other k), r carried as a double-double. Arguments below 2^30 are reduced Cody-Waite style,
// pi/2 split into three doubles; larger ones Payne-Hanek style, multiplying the significand
// by a 192-bit window of the bits of 2/pi in 32-bit integer pieces. sin and cos of r are
// Taylor polynomials (the neglected terms are below 2^-58 relative on |r| <= pi/4).
//
// The inverse functions share one core, the angle of the point (d, n) in the first quadrant,
// n and d double-doubles: t = min/max, t = k/8 + (t - k/8), atan(t) = atan(k/8) +
// atan(u) with u = (t - k/8) / (1 + t k/8), |u| <= 1/16, atan(u) by its Taylor series.
//
// Constants: the pi/2, pi and 1/pi splits, atan(k/8) and the bits of 2/pi were computed to
// 1400 bits and rounded to doubles; the polynomial coefficients are 1/n! and 1/n rounded.

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// The bits of 2/pi after the binary point, 32 to a word, most significant first, after one
// word of zeros (the integer part and the bits before it when the exponent is small).
__constant uint __cl_trig_two_over_pi_bits[40] = {
    0x00000000u, 0xa2f9836eu, 0x4e441529u, 0xfc2757d1u, 0xf534ddc0u, 0xdb629599u,
    0x3c439041u, 0xfe5163abu, 0xdebbc561u, 0xb7246e3au, 0x424dd2e0u, 0x06492eeau,
    0x09d1921cu, 0xfe1deb1cu, 0xb129a73eu, 0xe88235f5u, 0x2ebb4484u, 0xe99c7026u,
    0xb45f7e41u, 0x3991d639u, 0x835339f4u, 0x9c845f8bu, 0xbdf9283bu, 0x1ff897ffu,
    0xde05980fu, 0xef2f118bu, 0x5a0a6d1fu, 0x6d367ecfu, 0x27cb09b7u, 0x4f463f66u,
    0x9e5fea2du, 0x7527bac7u, 0xebe5f17bu, 0x3d0739f7u, 0x8a5292eau, 0x6bfb5fb1u,
    0x1f8d5d08u, 0x56033046u, 0xfc7b6babu, 0xf0cfbc20u,
};

// atan(k/8), k = 0..8, as high and low doubles.
__constant double __cl_trig_atan_k8_hi[9] = {
    0.0,
    0x1.fd5ba9aac2f6ep-4,
    0x1.f5b75f92c80ddp-3,
    0x1.6f61941e4def1p-2,
    0x1.dac670561bb4fp-2,
    0x1.1e00babdefeb4p-1,
    0x1.4978fa3269ee1p-1,
    0x1.700a7c5784634p-1,
    0x1.921fb54442d18p-1,
};
__constant double __cl_trig_atan_k8_lo[9] = {
    0.0,
    -0x1.cd37686760c17p-59,
    0x1.8ab6e3cf7afbdp-57,
    -0x1.c63aae6f6e918p-56,
    0x1.a2b7f222f65e2p-56,
    -0x1.928df287a668fp-58,
    0x1.2419a87f2a458p-56,
    -0x1.8c34d25aadef6p-56,
    0x1.1a62633145c07p-55,
};

// pi/2 = PIO2_1 + PIO2_2 + PIO2_3 to about 2^-164.
#define __CL_TRIG_PIO2_1 0x1.921fb54442d18p+0
#define __CL_TRIG_PIO2_2 0x1.1a62633145c07p-54
#define __CL_TRIG_PIO2_3 -0x1.f1976b7ed8fbcp-110
#define __CL_TRIG_PI_H 0x1.921fb54442d18p+1
#define __CL_TRIG_PI_L 0x1.1a62633145c07p-53
#define __CL_TRIG_INVPI_H 0x1.45f306dc9c883p-2
#define __CL_TRIG_INVPI_L -0x1.6b01ec5417056p-56
#define __CL_TRIG_TWO_OVER_PI 0x1.45f306dc9c883p-1
#define __CL_TRIG_DBL_MAX 0x1.fffffffffffffp+1023
#define __CL_TRIG_SIGN 0x8000000000000000UL

// ---------------------------------------------------------------------------------------
// Reduction of sin, cos, tan arguments.

// The 32 bits of 2/pi from bit s (0..31, most significant first) of table word j on.
ulong __cl_trig_bits_at(int j, int s)
{
    ulong two = ((ulong)__cl_trig_two_over_pi_bits[j] << 32) | __cl_trig_two_over_pi_bits[j + 1];
    return (two << s) >> 32;
}

// ax = k pi/2 + r for ax >= 0 (finite: an infinity or NaN gives some value the caller
// replaces): returns the high part of r, its low part in *lo and k mod 4 in *quad.
double __cl_trig_reduce(double ax, double *lo, int *quad)
{
    if (ax < 0x1p30) {
        double n = rint(ax * __CL_TRIG_TWO_OVER_PI);
        // Exact: n PIO2_1 is a multiple of 2^-52, ax one of 2^-53 (or n is 0), and the
        // difference is below 1.
        double r1 = fma(-n, __CL_TRIG_PIO2_1, ax);
        double p2 = n * __CL_TRIG_PIO2_2;
        double p2e = fma(n, __CL_TRIG_PIO2_2, -p2);
        double h = r1 - p2;
        double bb = h - r1;
        double e = (r1 - (h - bb)) + (-p2 - bb);
        double l = (e - p2e) - n * __CL_TRIG_PIO2_3;
        double rh = h + l;
        *lo = l - (rh - h);
        *quad = (int)n & 3;
        return rh;
    }
    // ax = m 2^e with a 53-bit integer m. The bits of 2/pi weighing 2^(e-2) and more give
    // multiples of 4 in m 2^e 2/pi; the window starts at the bit weighing 2^-(e-1).
    ulong bits = as_ulong(ax);
    // (An infinity or NaN is read as the largest finite exponent.)
    int e = min((int)(bits >> 52), 2046) - 1075;
    ulong m = (bits & 0xfffffffffffffUL) | 0x10000000000000UL;
    int g = e + 30; // position of that bit in the table (after its zero word)
    int j = g >> 5;
    int s = g & 31;
    ulong w5 = __cl_trig_bits_at(j, s);
    ulong w4 = __cl_trig_bits_at(j + 1, s);
    ulong w3 = __cl_trig_bits_at(j + 2, s);
    ulong w2 = __cl_trig_bits_at(j + 3, s);
    ulong w1 = __cl_trig_bits_at(j + 4, s);
    ulong w0 = __cl_trig_bits_at(j + 5, s);
    // The product m W in 32-bit limbs (r1 to r5 are kept: r0 only feeds a carry, and r6
    // and above weigh multiples of 4); its bit 191 weighs 2^1.
    ulong m0 = m & 0xffffffffUL;
    ulong m1 = m >> 32;
    ulong t = m0 * w0;
    ulong r1 = t >> 32;
    t = m0 * w1 + r1;
    r1 = t & 0xffffffffUL;
    ulong r2 = t >> 32;
    t = m0 * w2 + r2;
    r2 = t & 0xffffffffUL;
    ulong r3 = t >> 32;
    t = m0 * w3 + r3;
    r3 = t & 0xffffffffUL;
    ulong r4 = t >> 32;
    t = m0 * w4 + r4;
    r4 = t & 0xffffffffUL;
    ulong r5 = t >> 32;
    t = m0 * w5 + r5;
    r5 = t & 0xffffffffUL;
    t = m1 * w0 + r1;
    ulong c = t >> 32;
    t = m1 * w1 + r2 + c;
    r2 = t & 0xffffffffUL;
    c = t >> 32;
    t = m1 * w2 + r3 + c;
    r3 = t & 0xffffffffUL;
    c = t >> 32;
    t = m1 * w3 + r4 + c;
    r4 = t & 0xffffffffUL;
    c = t >> 32;
    t = m1 * w4 + r5 + c;
    r5 = t & 0xffffffffUL;
    ulong hi = (r5 << 32) | r4;
    ulong lo128 = (r3 << 32) | r2;
    // hi: 2 integer bits, 62 fraction bits. k = the nearest integer, mod 4.
    int q = (int)((hi + (1UL << 61)) >> 62);
    long f = (long)(hi - ((ulong)q << 62));
    // |f 2^-62 + lo128 2^-126| <= 1/2 as sign and magnitude (H, L).
    int neg = f < 0L;
    ulong L = neg ? (ulong)0 - lo128 : lo128;
    ulong H = neg ? ~(ulong)f + (lo128 == 0UL ? 1UL : 0UL) : (ulong)f;
    int shift64 = H == 0UL;
    H = shift64 ? L : H;
    L = shift64 ? 0UL : L;
    int z = (int)clz(H);
    z = min(z, 63);
    ulong Hn = (H << z) | ((L >> 1) >> (63 - z));
    ulong Ln = L << z;
    double a = (double)(long)(Hn >> 11);
    double b = (double)(long)(((Hn & 0x7ffUL) << 42) | (Ln >> 22)) * 0x1p-53;
    // The value is (a + b) 2^(-51 - z - 64 shift64); the scale stays a normal double.
    double scale = as_double((ulong)(1023 - 51 - z - 64 * shift64) << 52);
    double fh = a * scale;
    double fl = b * scale;
    double rh = fh * __CL_TRIG_PIO2_1;
    double rl = fma(fh, __CL_TRIG_PIO2_1, -rh) + fma(fh, __CL_TRIG_PIO2_2, fl * __CL_TRIG_PIO2_1);
    double r = rh + rl;
    double rlo = rl - (r - rh);
    *lo = neg ? -rlo : rlo;
    *quad = q & 3;
    return neg ? -r : r;
}

// sin(x + y) for |x| <= pi/4 (a little more), |y| <= ulp(x): high part, low part in *lo.
double __cl_trig_sin_kern(double x, double y, double *lo)
{
    double z = x * x;
    double p = fma(z, fma(z, fma(z, fma(z, fma(z, fma(z, fma(z,
        0x1.952c77030ad4ap-49, -0x1.ae7f3e733b81fp-41), 0x1.6124613a86d09p-33),
        -0x1.ae64567f544e4p-26), 0x1.71de3a556c734p-19), -0x1.a01a01a01a01ap-13),
        0x1.1111111111111p-7), -0x1.5555555555555p-3);
    // sin(x + y) = sin x + y cos x, cos x = 1 - x^2/2 to the precision y needs.
    double t = fma(x * z, p, fma(-0.5 * z, y, y));
    double h = x + t;
    *lo = t - (h - x);
    return h;
}

// cos(x + y) for |x| <= pi/4 (a little more), |y| <= ulp(x): high part, low part in *lo.
double __cl_trig_cos_kern(double x, double y, double *lo)
{
    double z = x * x;
    double ze = fma(x, x, -z);
    double hz = 0.5 * z;
    double w = 1.0 - hz;
    double we = (1.0 - w) - hz;
    double q = fma(z, fma(z, fma(z, fma(z, fma(z, fma(z,
        0x1.ae7f3e733b81fp-45, -0x1.93974a8c07c9dp-37), 0x1.1eed8eff8d898p-29),
        -0x1.27e4fb7789f5cp-22), 0x1.a01a01a01a01ap-16), -0x1.6c16c16c16c17p-10),
        0x1.5555555555555p-5) * (z * z);
    // 1 - (z + ze)/2 + q, and cos(x + y) = cos x - y sin x.
    double t = we + (q - fma(0.5, ze, x * y));
    double h = w + t;
    *lo = (w - h) + t;
    return h;
}

// sin(k pi/2 + r), r = rh + rl reduced, q = k mod 4.
double __cl_trig_sin_quadrant(double rh, double rl, int q)
{
    double lo;
    double v;
    if (q & 1) {
        v = __cl_trig_cos_kern(rh, rl, &lo);
    } else {
        v = __cl_trig_sin_kern(rh, rl, &lo);
    }
    v = v + lo;
    return (q & 2) ? -v : v;
}

// tan(k pi/2 + r): sin/cos of r, or -cos/sin for odd k, divided as double-doubles.
double __cl_trig_tan_quadrant(double rh, double rl, int q)
{
    double sl;
    double cl;
    double s = __cl_trig_sin_kern(rh, rl, &sl);
    double c = __cl_trig_cos_kern(rh, rl, &cl);
    int odd = q & 1;
    double n = odd ? c : s;
    double nl = odd ? cl : sl;
    double d = odd ? s : c;
    double dl = odd ? sl : cl;
    double t = n / d;
    double e = (fma(-t, d, n) + (nl - t * dl)) / d;
    double v = t + e;
    return odd ? -v : v;
}

double __cl_sin_double(double x)
{
    double ax = fabs(x);
    double lo;
    int q;
    double r = __cl_trig_reduce(ax, &lo, &q);
    double v = __cl_trig_sin_quadrant(r, lo, q);
    // sin is odd; the magnitude's result takes x's sign. 7.5, C99 F.9.1.6: sin(±0) is ±0,
    // sin(±inf) a NaN.
    v = as_double(as_ulong(v) ^ (as_ulong(x) & __CL_TRIG_SIGN));
    return ax <= __CL_TRIG_DBL_MAX ? v : x - x;
}

double __cl_cos_double(double x)
{
    double ax = fabs(x);
    double lo;
    int q;
    double r = __cl_trig_reduce(ax, &lo, &q);
    double v = __cl_trig_sin_quadrant(r, lo, q + 1);
    // C99 F.9.1.5: cos(±0) is 1, cos(±inf) a NaN.
    return ax <= __CL_TRIG_DBL_MAX ? v : x - x;
}

double __cl_tan_double(double x)
{
    double ax = fabs(x);
    double lo;
    int q;
    double r = __cl_trig_reduce(ax, &lo, &q);
    double v = __cl_trig_tan_quadrant(r, lo, q);
    // C99 F.9.1.7: tan(±0) is ±0, tan(±inf) a NaN.
    v = as_double(as_ulong(v) ^ (as_ulong(x) & __CL_TRIG_SIGN));
    return ax <= __CL_TRIG_DBL_MAX ? v : x - x;
}

double __cl_sincos_double_ptr_double(double x, double *cosval)
{
    double ax = fabs(x);
    double lo;
    int q;
    double r = __cl_trig_reduce(ax, &lo, &q);
    double sl;
    double cl;
    double s = __cl_trig_sin_kern(r, lo, &sl);
    double c = __cl_trig_cos_kern(r, lo, &cl);
    s = s + sl;
    c = c + cl;
    double sv = (q & 1) ? c : s;
    double cv = (q & 1) ? -s : c;
    sv = (q & 2) ? -sv : sv;
    cv = (q & 2) ? -cv : cv;
    sv = as_double(as_ulong(sv) ^ (as_ulong(x) & __CL_TRIG_SIGN));
    int finite = ax <= __CL_TRIG_DBL_MAX;
    *cosval = finite ? cv : x - x;
    return finite ? sv : x - x;
}

// The float forms of sin, cos, tan and sincos, computed in float: vectorized across
// work-items a register holds twice as many floats as doubles, and the path every ordinary
// argument takes has no branch (the selections are integer masks and bitselect).
//
// - Below 2^19: |x| = k pi/2 + r, k = rint(|x| 2/pi) from the bits of |x| 2/pi + 1.5 * 2^23
//   (as in exp), r after Cody and Waite with pi/2 split into three floats P1 + P2 + P3 (pi/2
//   within 2^-75), one fma each: |x| - k P1 is exact (both on the 2^-23 grid at worst, the
//   difference below 1), then k P2 and k P3 come off with one rounding each, together about
//   an ulp of r, and the neglected rest of pi/2, below k 2^-75 <= 2^-56, far less. A run
//   over every float (FERROCL_TEST_SCALE=exhaustive, against double, as
//   crates/core/tests/float_math.rs does) measured largest errors of 1.56 ulp for sin (at
//   0x48e21f5d), 1.55 for cos (0x559e5901) and 3.70 for tan (0x48ffd628) (table 65: 4, 4
//   and 5). Keeping r as a pair (r + rl, r1 - k P2 summed by Knuth's two_sum) held them
//   under 0.9, 0.9 and 2.4 ulp, for 16 more operations a lane: sincos ran 28% faster
//   without (2 cores: 38.5 ms to 27.8).
// - From 2^19 on (and for infinities and NaN, whose result is replaced): Payne and Hanek's
//   reduction (M. Payne and R. Hanek, "Radian reduction for trigonometric functions",
//   SIGNUM Newsletter 18(1), 1983) on integers: |x| = m 2^(e-23) with a 24-bit m, times a
//   96-bit window of the bits of 2/pi starting at the bit that gives m 2^(e-23) b 2^1 (the
//   bits before give multiples of 4), mod 2^96: 2 bits of k mod 4, then 94 of the fraction;
//   the bits after the window add below 2^-70. One block without branches, in 32-bit
//   integers only (so that it vectorizes at any width), behind a branch that the vectorizer
//   runs only for a chunk with such a lane (a side of one block: see emit_region in
//   cpu/src/vectorize/emit/control.rs). The quarter turn (a + b, relative error below
//   2^-47) times pi/2 is rounded once, to r.
// - sin(r) = r + r^3 S(r^2) and cos(r) = 1 - r^2/2 + r^4 C(r^2) on |r| <= pi/4 with S and C of
//   degree 2, the minimax coefficients of Cephes' sinf and cosf (S. L. Moshier, "Methods and
//   Programs for Mathematical Functions", 1989; relative error about 2^-24 on the interval);
//   sin, cos and sincos sum cos by Horner's rule, tan with the rounding error of 1 - r^2/2
//   kept. tan is sin/cos, or -cos/sin for odd k.
//   (sinpi, cospi and tanpi reduce to a pair rh + rl, which enters to first order:
//   sin(rh + rl) = sin rh + rl cos rh, cos(rh + rl) = cos rh - rl sin rh.)
#define __CL_TRIGF_LIMIT 0x49000000u
// Whether |x| >= 2^19 (or x is infinite or NaN), from the bits of x shifted past its sign: x
// is live until its sign is applied anyway, and |x| would be one more value live there.
#define __CL_TRIGF_HUGE(x) ((as_uint(x) << 1) >= (__CL_TRIGF_LIMIT << 1))
#define __CL_TRIGF_SHIFT 12582912.0f
#define __CL_TRIGF_2_PI 0x1.45f306p-1f
#define __CL_TRIGF_P1 0x1.921fb6p0f
#define __CL_TRIGF_P2 -0x1.777a5cp-25f
#define __CL_TRIGF_P3 -0x1.ee59dap-50f

// |x| = k pi/2 + *r for |x| below 2^19 (*q = k mod 4).
void __cl_trigf_reduce(float ax, float *r, int *q)
{
    float t = fma(ax, __CL_TRIGF_2_PI, __CL_TRIGF_SHIFT);
    float k = t - __CL_TRIGF_SHIFT;
    *q = as_int(t) & 3;
    float r1 = fma(-k, __CL_TRIGF_P1, ax);
    float r2 = fma(-k, __CL_TRIGF_P2, r1);
    *r = fma(-k, __CL_TRIGF_P3, r2);
}

// The words of the bits of 2/pi after the binary point (as in __cl_trig_two_over_pi_bits),
// after one word of zeros (the window of a float below 2^25 starts before the binary point).
#define __CL_TRIGF_BITS0 0x00000000u
#define __CL_TRIGF_BITS1 0xa2f9836eu
#define __CL_TRIGF_BITS2 0x4e441529u
#define __CL_TRIGF_BITS3 0xfc2757d1u
#define __CL_TRIGF_BITS4 0xf534ddc0u
#define __CL_TRIGF_BITS5 0xdb629599u
#define __CL_TRIGF_BITS6 0x3c439041u
#define __CL_TRIGF_BITS7 0xfe5163abu

// Of five consecutive words w0..w4 of those, word j (0..4: a float's window starts in one
// of the first five), by selections rather than from a table, so that the path of huge
// arguments is vector arithmetic alone: a load from a table, at an index out of bounds in the
// lanes that do not take the path, was a branch and a scalar load per lane there.
uint __cl_trigf_word(uint w0, uint w1, uint w2, uint w3, uint w4, int j)
{
    uint w = select(w0, w1, (uint)(j == 1));
    w = select(w, w2, (uint)(j == 2));
    w = select(w, w3, (uint)(j == 3));
    return select(w, w4, (uint)(j == 4));
}

// The 32 bits from bit s (0..31) of word a on, b the next word (shifted in by two steps, so
// that s = 0 shifts it out whole: a shift by 32 is taken modulo 32 in OpenCL C).
uint __cl_trigf_bits_at(uint a, uint b, int s) { return (a << s) | ((b >> 1) >> (31 - s)); }

// The same for |x| from 2^19 on (finite), by Payne and Hanek: no branch, and only 32-bit
// integers (64-bit products as mul_hi and the low product, sums with their carry), which
// vectorize in every lane width.
void __cl_trigf_reduce_huge(float x, float *r, int *q)
{
    uint bits = as_uint(x) & 0x7fffffffu;
    // |x| = m 2^(e - 23); the window starts at the bit of 2/pi weighing 2^-(e - 24), which is
    // bit e + 7 of the table (after its word of zeros).
    int e = (int)(bits >> 23) - 127;
    uint m = (bits & 0x007fffffu) | 0x00800000u;
    int g = e + 7;
    int j = g >> 5;
    int sh = g & 31;
    uint t0 = __cl_trigf_word(__CL_TRIGF_BITS0, __CL_TRIGF_BITS1, __CL_TRIGF_BITS2,
                              __CL_TRIGF_BITS3, __CL_TRIGF_BITS4, j);
    uint t1 = __cl_trigf_word(__CL_TRIGF_BITS1, __CL_TRIGF_BITS2, __CL_TRIGF_BITS3,
                              __CL_TRIGF_BITS4, __CL_TRIGF_BITS5, j);
    uint t2 = __cl_trigf_word(__CL_TRIGF_BITS2, __CL_TRIGF_BITS3, __CL_TRIGF_BITS4,
                              __CL_TRIGF_BITS5, __CL_TRIGF_BITS6, j);
    uint t3 = __cl_trigf_word(__CL_TRIGF_BITS3, __CL_TRIGF_BITS4, __CL_TRIGF_BITS5,
                              __CL_TRIGF_BITS6, __CL_TRIGF_BITS7, j);
    uint w0 = __cl_trigf_bits_at(t0, t1, sh);
    uint w1 = __cl_trigf_bits_at(t1, t2, sh);
    uint w2 = __cl_trigf_bits_at(t2, t3, sh);
    // m (w0 w1 w2) mod 2^96 = (hi, lo, _): its value times 2^-94 is |x| 2/pi mod 4.
    uint carried = mul_hi(m, w2);
    uint lo = m * w1 + carried;
    uint hi = m * w0 + mul_hi(m, w1) + (uint)(lo < carried);
    // The fraction as 64 bits (fh, fl; its top bit weighs 1/2); read as signed, the nearest
    // k's.
    uint fh = (hi << 2) | (lo >> 30);
    uint fl = lo << 2;
    *q = (int)((hi >> 30) + (fh >> 31)) & 3;
    // Its magnitude (below 2^63), normalized: shifted left by its n leading zeros.
    bool negative = (int)fh < 0;
    uint uh = negative ? ~fh + (uint)(fl == 0u) : fh;
    uint ul = negative ? -fl : fl;
    uint n = uh != 0u ? clz(uh) : 32u + clz(ul);
    uint nh = n < 32u ? (uh << n) | ((ul >> 1) >> (31u - n)) : ul << (n - 32u);
    uint nl = n < 32u ? ul << n : 0u;
    // Its leading 24 bits and the next 32 (rounded to 24) as a pair of floats, the value
    // (a + b) of a quarter turn: relative error below 2^-47 (zero stays zero, n = 64).
    float a = (float)(nh >> 8) * as_float((127u - 24u - n) << 23);
    float b = (float)(((nh & 0xffu) << 24) | (nl >> 8)) * as_float((127u - 56u - n) << 23);
    a = negative ? -a : a;
    b = negative ? -b : b;
    // Times pi/2 = P1 + P2 (the pair is pi/2 within 2^-50, ample beside the pair's 2^-47).
    float h = a * __CL_TRIGF_P1;
    float l = fma(a, __CL_TRIGF_P1, -h) + fma(a, __CL_TRIGF_P2, b * __CL_TRIGF_P1);
    *r = h + l;
}

// The polynomials of sin and cos in z = r^2: S(z) is the result, C(z) goes to *pc.
float __cl_trigf_polys(float z, float *pc)
{
    *pc = fma(z, fma(z, 2.443315711809948e-5f, -1.388731625493765e-3f), 4.166664568298827e-2f);
    return fma(z, fma(z, -1.9515295891e-4f, 8.3321608736e-3f), -1.6666654611e-1f);
}

// sin(r) and, through *c, cos(r) = 1 + z (-1/2 + z C(z)) by Horner's rule, for |r| <= pi/4 (a
// little more): cos r >= 0.7, the outer fma rounds once, and the inner sum's rounding (a half
// ulp of 1/2 at most) times z <= 0.62 adds below 0.16 ulp to that. sin, cos and sincos take
// this one.
float __cl_trigf_sincos_fast(float r, float *c)
{
    float z = r * r;
    float pc;
    float ps = __cl_trigf_polys(z, &pc);
    *c = fma(z, fma(z, pc, -0.5f), 1.0f);
    return fma(r * z, ps, r);
}

// The same with 1 - r^2/2 summed with its rounding error kept, for tan, whose quotient
// compounds the errors of both.
float __cl_trigf_sincos_r(float r, float *c)
{
    float z = r * r;
    float pc;
    float ps = __cl_trigf_polys(z, &pc);
    float hz = 0.5f * z;
    float w = 1.0f - hz;
    *c = w + (((1.0f - w) - hz) + z * z * pc);
    return fma(r * z, ps, r);
}

// sin(rh + rl) and, through *c, cos(rh + rl), for |rh| <= pi/4 (a little more).
float __cl_trigf_sincos(float rh, float rl, float *c)
{
    float z = rh * rh;
    float pc;
    float ps = __cl_trigf_polys(z, &pc);
    float s = rh + fma(rh * z, ps, fma(-0.5f * z, rl, rl));
    float hz = 0.5f * z;
    float w = 1.0f - hz;
    float corr = ((1.0f - w) - hz) + fma(z * z, pc, -rh * rl);
    *c = w + corr;
    return s;
}

// v with its sign flipped where the mask bit (bit 1 of q, as 0 or 2) is set, and x's sign.
float __cl_trigf_sign(float v, int q, float x)
{
    uint flip = ((uint)q & 2u) << 30;
    return as_float(as_uint(v) ^ flip ^ (as_uint(x) & 0x80000000u));
}

// A NaN for an infinite or NaN x (C99 F.9.1.5-7: sin, cos, tan of +-inf are NaNs), else v.
float __cl_trigf_finite(float x, float v)
{
    return select(v, as_float(0x7fc00000), !(fabs(x) <= 0x1.fffffep127f));
}

// sin(x) or cos(x) of the reduced argument: the odd quadrants swap them.
float __cl_trigf_pick(int q, float s, float c) { return select(s, c, q & 1); }

// sin(|x|) from |x| = k pi/2 + r, q = k mod 4 (x's sign comes after: sin is odd).
float __cl_trigf_sin_of(float r, int q)
{
    float c;
    float s = __cl_trigf_sincos_fast(r, &c);
    return __cl_trigf_sign(__cl_trigf_pick(q, s, c), q, 0.0f);
}

// cos(x) from the same: cos(k pi/2 + r) is cos r, -sin r, -cos r, sin r.
float __cl_trigf_cos_of(float r, int q)
{
    float c;
    float s = __cl_trigf_sincos_fast(r, &c);
    return __cl_trigf_sign(__cl_trigf_pick(q, c, s), q + 1, 0.0f);
}

// tan(|x|) from the same: tan r for even k and -1/tan r for odd k (x's sign comes after).
float __cl_trigf_tan_of(float r, int q)
{
    float c;
    float s = __cl_trigf_sincos_r(r, &c);
    float n = __cl_trigf_pick(q, s, c);
    float d = __cl_trigf_pick(q, c, s);
    return __cl_trigf_sign(n / d, (q & 1) << 1, 0.0f);
}

// v, or a NaN for an infinite or NaN x (C99 F.9.1.5-7: sin, cos, tan of +-inf are NaNs), for
// the side of arguments from 2^19 on: tested on x's exponent bits, one operation fewer than
// the comparison of fabs(x) that __cl_trigf_finite makes.
float __cl_trigf_nan_beyond(float x, float v)
{
    return select(v, as_float(0x7fc00000), (as_uint(x) & 0x7f800000u) == 0x7f800000u);
}

// x's sign on v (an odd function of x computed for |x|; -0 for -0, C99 F.9.1.6-7).
float __cl_trigf_odd(float x, float v)
{
    return as_float(as_uint(v) ^ (as_uint(x) & 0x80000000u));
}

// Each function branches on the bits of x (__CL_TRIGF_HUGE): arguments below 2^19 take the
// reduction of Cody and Waite, the others (and infinities and NaNs) Payne and Hanek's, and
// each side applies x's sign itself, so that only x lives into the branch and only the
// results out of it. The vectorizer runs the side every lane of a chunk takes unmasked, and
// both only for a chunk whose lanes differ. Written as a common path followed by a block for
// huge arguments that replaced its result, x and the common path's results lived across that
// block, whose register pressure (about 900 instructions, five words of 2/pi in vectors) made
// the register allocator keep them, and the loop's counters and pointers, on the stack on
// every trip of the common path (2 cores, sincos over 4M floats: 6.4-8.1 ms, 5.8-6.4 as
// sides of one branch; Intel's runtime 4.6-5.2 in the same runs).
float __cl_sin_float(float x)
{
    float r;
    int q;
    if (__CL_TRIGF_HUGE(x)) {
        __cl_trigf_reduce_huge(x, &r, &q);
        return __cl_trigf_odd(x, __cl_trigf_nan_beyond(x, __cl_trigf_sin_of(r, q)));
    }
    __cl_trigf_reduce(fabs(x), &r, &q);
    return __cl_trigf_odd(x, __cl_trigf_sin_of(r, q));
}

float __cl_cos_float(float x)
{
    float r;
    int q;
    if (__CL_TRIGF_HUGE(x)) {
        __cl_trigf_reduce_huge(x, &r, &q);
        return __cl_trigf_nan_beyond(x, __cl_trigf_cos_of(r, q));
    }
    __cl_trigf_reduce(fabs(x), &r, &q);
    return __cl_trigf_cos_of(r, q);
}

float __cl_tan_float(float x)
{
    float r;
    int q;
    if (__CL_TRIGF_HUGE(x)) {
        __cl_trigf_reduce_huge(x, &r, &q);
        return __cl_trigf_odd(x, __cl_trigf_nan_beyond(x, __cl_trigf_tan_of(r, q)));
    }
    __cl_trigf_reduce(fabs(x), &r, &q);
    return __cl_trigf_odd(x, __cl_trigf_tan_of(r, q));
}

float __cl_sincos_float_ptr_float(float x, float *cosval)
{
    float r;
    int q;
    float s, c;
    if (__CL_TRIGF_HUGE(x)) {
        __cl_trigf_reduce_huge(x, &r, &q);
        s = __cl_trigf_odd(x, __cl_trigf_nan_beyond(x, __cl_trigf_sin_of(r, q)));
        c = __cl_trigf_nan_beyond(x, __cl_trigf_cos_of(r, q));
    } else {
        __cl_trigf_reduce(fabs(x), &r, &q);
        s = __cl_trigf_odd(x, __cl_trigf_sin_of(r, q));
        c = __cl_trigf_cos_of(r, q);
    }
    *cosval = c;
    return s;
}

// native_sin and native_cos (6.15.2.3: over an implementation-defined range, with an
// implementation-defined error), also half_sin and half_cos: sin and cos without their
// reduction of arguments from 2^19 on, which is most of their code and, in vectorized code, a
// test of every lane. Below 2^19 they are sin and cos, bit for bit (so within half_'s 8192
// ulp over its range of 2^16); from 2^19 on, and for infinities and NaNs, they return a NaN:
// outside the range, said so rather than a wrong number.
float __cl_native_trigf_range(float x, float v)
{
    return select(v, as_float(0x7fc00000), !(fabs(x) < 0x1p19f));
}

// sin and, through *c, cos of |x| reduced by Cody and Waite alone, with k mod 4 in *q.
float __cl_native_trigf_sincos(float x, float *c, int *q)
{
    float r;
    __cl_trigf_reduce(fabs(x), &r, q);
    return __cl_trigf_sincos_fast(r, c);
}

float __cl_native_sin_float(float x)
{
    int q;
    float c;
    float s = __cl_native_trigf_sincos(x, &c, &q);
    return __cl_native_trigf_range(x, __cl_trigf_sign(__cl_trigf_pick(q, s, c), q, x));
}

float __cl_native_cos_float(float x)
{
    int q;
    float c;
    float s = __cl_native_trigf_sincos(x, &c, &q);
    return __cl_native_trigf_range(x, __cl_trigf_sign(__cl_trigf_pick(q, c, s), q + 1, 0.0f));
}

#undef __CL_TRIGF_LIMIT
#undef __CL_TRIGF_SHIFT
#undef __CL_TRIGF_2_PI
#undef __CL_TRIGF_P1
#undef __CL_TRIGF_P2
#undef __CL_TRIGF_P3

// ---------------------------------------------------------------------------------------
// sinpi, cospi, tanpi: x = k/2 + r with |r| <= 1/4 exactly, then the kernels on pi r.

// For |x| = ax: reduced pi r (high part, low part in *lo) and k mod 4 in *quad; *r0 is set
// when r is zero. Infinities and NaN give some value the caller replaces.
double __cl_trig_pi_reduce(double ax, double *lo, int *quad, int *r0)
{
    // From 2^53 on every double is an even integer: reduce as 0.
    double y = ax < 0x1p53 ? ax : 0.0;
    double k = rint(2.0 * y);
    double r = fma(k, -0.5, y); // exact: |r| <= 1/4, a multiple of ulp(y)
    *quad = (int)((long)k & 3L);
    *r0 = r == 0.0;
    double h = r * __CL_TRIG_PI_H;
    *lo = fma(r, __CL_TRIG_PI_H, -h) + r * __CL_TRIG_PI_L;
    return h;
}

double __cl_sinpi_double(double x)
{
    double ax = fabs(x);
    double lo;
    int q;
    int r0;
    double r = __cl_trig_pi_reduce(ax, &lo, &q, &r0);
    // + 0.0: a zero result is +0 before x's sign is applied (7.5.1: sinpi(+n) is +0,
    // sinpi(-n) is -0).
    double v = __cl_trig_sin_quadrant(r, lo, q) + 0.0;
    v = as_double(as_ulong(v) ^ (as_ulong(x) & __CL_TRIG_SIGN));
    return ax <= __CL_TRIG_DBL_MAX ? v : x - x;
}

double __cl_cospi_double(double x)
{
    double ax = fabs(x);
    double lo;
    int q;
    int r0;
    double r = __cl_trig_pi_reduce(ax, &lo, &q, &r0);
    // 7.5.1: cospi(n + 0.5) is +0.
    double v = __cl_trig_sin_quadrant(r, lo, q + 1) + 0.0;
    return ax <= __CL_TRIG_DBL_MAX ? v : x - x;
}

double __cl_tanpi_double(double x)
{
    double ax = fabs(x);
    double lo;
    int q;
    int r0;
    double r = __cl_trig_pi_reduce(ax, &lo, &q, &r0);
    double v = __cl_trig_tan_quadrant(r, lo, q);
    // 7.5.1: tanpi(n) is copysign(0, n) for even n and copysign(0, -n) for odd n;
    // tanpi(n + 0.5) is +inf for even n, -inf for odd n. On |x|, k = 2n or 2n + 1: the
    // result is 0 or inf, negative when k mod 4 is 2 or 3 (and x's sign applies after).
    double special = (q & 1) ? INFINITY : 0.0;
    special = (q & 2) ? -special : special;
    v = r0 ? special : v;
    v = as_double(as_ulong(v) ^ (as_ulong(x) & __CL_TRIG_SIGN));
    return ax <= __CL_TRIG_DBL_MAX ? v : x - x;
}


// The float forms of sinpi, cospi and tanpi, computed in float: |x| = k/2 + r exactly
// (k = rint(2|x|), r = |x| - k/2 by one fma, |r| <= 1/4; from 2^24 on every float is an even
// integer and is reduced as 0), pi r as a pair (pi in two floats, the product's residual by
// fma), then the float sin and cos kernels and their quadrants as in sin and cos.
// Largest errors of the sampled sweep (crates/core/tests/float_math.rs): sinpi 0.80 ulp,
// cospi 0.73 ulp, tanpi 1.62 ulp (table 65: 4, 4, 6).

// pi r = *rh + *rl and k mod 4 for |x| = ax; *r0 is 1 where r is 0.
void __cl_trigf_pi_reduce(float ax, float *rh, float *rl, int *q, int *r0)
{
    float y = as_float(bitselect(0, as_int(ax), -(ax < 0x1p24f)));
    float k = rint(2.0f * y);
    float r = fma(k, -0.5f, y);
    *q = (int)k & 3;
    *r0 = r == 0.0f;
    float h = r * 0x1.921fb6p1f;
    *rl = fma(r, 0x1.921fb6p1f, -h) + r * -0x1.777a5cp-24f;
    *rh = h;
}

float __cl_sinpi_float(float x)
{
    float rh;
    float rl;
    int q;
    int r0;
    __cl_trigf_pi_reduce(fabs(x), &rh, &rl, &q, &r0);
    float c;
    float s = __cl_trigf_sincos(rh, rl, &c);
    // + 0: a zero result is +0 before x's sign applies (7.5.1: sinpi(+n) is +0, sinpi(-n) -0).
    float v = __cl_trigf_sign(__cl_trigf_pick(q, s, c), q, 0.0f) + 0.0f;
    return __cl_trigf_finite(x, __cl_trigf_sign(v, 0, x));
}

float __cl_cospi_float(float x)
{
    float rh;
    float rl;
    int q;
    int r0;
    __cl_trigf_pi_reduce(fabs(x), &rh, &rl, &q, &r0);
    float c;
    float s = __cl_trigf_sincos(rh, rl, &c);
    // 7.5.1: cospi(n + 0.5) is +0.
    float v = __cl_trigf_sign(__cl_trigf_pick(q, c, s), q + 1, 0.0f) + 0.0f;
    return __cl_trigf_finite(x, v);
}

float __cl_tanpi_float(float x)
{
    float rh;
    float rl;
    int q;
    int r0;
    __cl_trigf_pi_reduce(fabs(x), &rh, &rl, &q, &r0);
    float c;
    float s = __cl_trigf_sincos(rh, rl, &c);
    int odd = -(q & 1);
    float n = as_float(bitselect(as_int(s), as_int(c), odd));
    float d = as_float(bitselect(as_int(c), as_int(s), odd));
    // 7.5.1: tanpi(n) is copysign(0, n) for even n and copysign(0, -n) for odd n; tanpi(n +
    // 0.5) is +inf for even n, -inf for odd n. On |x|, k = 2n or 2n + 1, r = 0: s/c or c/s is
    // +0 or +inf, negative when k mod 4 is 2 or 3 (and x's sign applies after); elsewhere the
    // odd quadrants negate.
    int flip = bitselect((q & 1) << 1, q & 2, -r0);
    float v = __cl_trigf_sign(n / d, flip, x);
    return __cl_trigf_finite(x, v);
}

// ---------------------------------------------------------------------------------------
// Inverse functions.

// The angle in [0, pi/2] of the point (d, n), d = dh + dl >= 0, n = nh + nl >= 0, finite
// and not both zero: atan(n/d) as a high part and a low part in *lo.
double __cl_trig_atan_core(double nh, double nl, double dh, double dl, double *lo)
{
    int swap = nh > dh;
    double a = swap ? dh : nh;
    double al = swap ? dl : nl;
    double b = swap ? nh : dh;
    double bl = swap ? nl : dl;
    // Both tiny: scale them up (exactly) so the division's residual stays representable.
    double sc = b < 0x1p-900 ? 0x1p600 : 1.0;
    a = a * sc;
    al = al * sc;
    b = b * sc;
    bl = bl * sc;
    // t = a/b in [0, 1] as a double-double.
    double t = a / b;
    double tl = (fma(-t, b, a) + (al - t * bl)) / b;
    // t = c + (t - c), c = k/8: atan(t) = atan(c) + atan(u), u = (t - c)/(1 + t c).
    // (The clamp keeps the table index in range whatever t is, a NaN included: the
    // callers replace that result.)
    int ki = min(max((int)rint(8.0 * t), 0), 8);
    double c = 0.125 * (double)ki;
    double num = t - c; // exact: t and c are within 1/16 and c <= 2t
    double den = fma(t, c, 1.0);
    double denl = fma(t, c, 1.0 - den) + tl * c;
    double u = num / den;
    double ul = (fma(-u, den, num) + (tl - u * denl)) / den;
    double z = u * u;
    // atan(u) = u + u z P(z), |u| <= 1/16: the terms left out are below 2^-60 relative.
    double p = z * fma(z, fma(z, fma(z, fma(z, fma(z,
        0x1.3b13b13b13b14p-4, -0x1.745d1745d1746p-4), 0x1.c71c71c71c71cp-4),
        -0x1.2492492492492p-3), 0x1.999999999999ap-3), -0x1.5555555555555p-2);
    double ch = __cl_trig_atan_k8_hi[ki];
    double tail = fma(u, p, ul) + __cl_trig_atan_k8_lo[ki];
    double h = ch + u;
    double hl = ((ch - h) + u) + tail;
    // n > d: the angle is pi/2 - atan(d/n).
    double sh = __CL_TRIG_PIO2_1 - h;
    double sl = ((__CL_TRIG_PIO2_1 - sh) - h) + (__CL_TRIG_PIO2_2 - hl);
    h = swap ? sh : h;
    hl = swap ? sl : hl;
    double res = h + hl;
    *lo = hl - (res - h);
    return res;
}

// (h + l) / pi, rounded; a zero keeps its sign.
double __cl_trig_div_pi(double h, double l)
{
    double r = h * __CL_TRIG_INVPI_H;
    double e = fma(h, __CL_TRIG_INVPI_H, -r);
    double v = r + (e + fma(h, __CL_TRIG_INVPI_L, l * __CL_TRIG_INVPI_H));
    // The quotient has h's sign, also where it underflows to zero (and h = +-0 stays itself).
    return copysign(v, h);
}

// asin(|x|) for |x| <= 1 as the angle of (sqrt(1 - x^2), |x|).
double __cl_trig_asin_abs(double ax, double *lo)
{
    double p = ax * ax;
    double pe = fma(ax, ax, -p);
    double d = 1.0 - p;
    double dl = ((1.0 - d) - p) - pe;
    double s = sqrt(d);
    double sl = d > 0.0 ? (fma(-s, s, d) + dl) / (2.0 * s) : 0.0;
    return __cl_trig_atan_core(ax, 0.0, s, sl, lo);
}

// acos(x) for |x| <= 1: the angle of (x, sqrt(1 - x^2)), pi less it for x < 0.
double __cl_trig_acos_dd(double x, double *lo)
{
    double ax = fabs(x);
    double p = ax * ax;
    double pe = fma(ax, ax, -p);
    double d = 1.0 - p;
    double dl = ((1.0 - d) - p) - pe;
    double s = sqrt(d);
    double sl = d > 0.0 ? (fma(-s, s, d) + dl) / (2.0 * s) : 0.0;
    double l;
    double h = __cl_trig_atan_core(s, sl, ax, 0.0, &l);
    double mh = __CL_TRIG_PI_H - h;
    double ml = ((__CL_TRIG_PI_H - mh) - h) + (__CL_TRIG_PI_L - l);
    int neg = x < 0.0;
    h = neg ? mh : h;
    l = neg ? ml : l;
    double r = h + l;
    *lo = l - (r - h);
    return r;
}

// atan(|x|), an infinity's included.
double __cl_trig_atan_abs(double ax, double *lo)
{
    // Beyond 2^1000 the angle rounds to pi/2 at any precision the callers need.
    return __cl_trig_atan_core(fmin(ax, 0x1p1000), 0.0, 1.0, 0.0, lo);
}

// atan2(y, x) as a double-double; NaN arguments give some value the caller replaces.
double __cl_trig_atan2_dd(double y, double x, double *lo)
{
    double ay = fabs(y);
    double ax = fabs(x);
    // C99 F.9.1.4: infinities act as the directions they point in; (0, 0) as angle 0.
    int yi = ay == INFINITY;
    int xi = ax == INFINITY;
    double n = yi ? 1.0 : (xi ? 0.0 : ay);
    double d = xi ? 1.0 : (yi ? 0.0 : ax);
    d = (n == 0.0 && d == 0.0) ? 1.0 : d;
    double l;
    double h = __cl_trig_atan_core(n, 0.0, d, 0.0, &l);
    // x < 0 or x = -0: the angle is pi less that.
    double mh = __CL_TRIG_PI_H - h;
    double ml = ((__CL_TRIG_PI_H - mh) - h) + (__CL_TRIG_PI_L - l);
    int left = as_long(x) < 0L;
    h = left ? mh : h;
    l = left ? ml : l;
    double r = h + l;
    l = l - (r - h);
    // The angle takes y's sign.
    int below = as_long(y) < 0L;
    *lo = below ? -l : l;
    return below ? -r : r;
}

double __cl_asin_double(double x)
{
    double ax = fabs(x);
    double lo;
    double v = __cl_trig_asin_abs(fmin(ax, 1.0), &lo);
    // C99 F.9.1.2: asin(±0) is ±0 (the magnitude's result takes x's sign), a NaN for
    // |x| > 1.
    v = as_double(as_ulong(v) ^ (as_ulong(x) & __CL_TRIG_SIGN));
    return ax <= 1.0 ? v : (x - x) / (x - x);
}

double __cl_acos_double(double x)
{
    double ax = fabs(x);
    double lo;
    double v = __cl_trig_acos_dd(fmin(fmax(x, -1.0), 1.0), &lo);
    // C99 F.9.1.1: acos(1) is +0, a NaN for |x| > 1.
    return ax <= 1.0 ? v : (x - x) / (x - x);
}

double __cl_atan_double(double x)
{
    double lo;
    double v = __cl_trig_atan_abs(fabs(x), &lo);
    // C99 F.9.1.3: atan(±0) is ±0, atan(±inf) ±pi/2.
    v = as_double(as_ulong(v) ^ (as_ulong(x) & __CL_TRIG_SIGN));
    return x == x ? v : x;
}

double __cl_atan2_double_double(double y, double x)
{
    double lo;
    double v = __cl_trig_atan2_dd(y, x, &lo);
    return (x == x && y == y) ? v : x + y;
}

double __cl_asinpi_double(double x)
{
    double ax = fabs(x);
    double lo;
    double h = __cl_trig_asin_abs(fmin(ax, 1.0), &lo);
    // 7.5.1: asinpi(±0) = ±0; a NaN for |x| > 1.
    double v = __cl_trig_div_pi(h, lo);
    v = as_double(as_ulong(v) ^ (as_ulong(x) & __CL_TRIG_SIGN));
    return ax <= 1.0 ? v : (x - x) / (x - x);
}

double __cl_acospi_double(double x)
{
    double ax = fabs(x);
    double lo;
    double h = __cl_trig_acos_dd(fmin(fmax(x, -1.0), 1.0), &lo);
    // 7.5.1: acospi(1) = +0; a NaN for |x| > 1.
    double v = __cl_trig_div_pi(h, lo);
    return ax <= 1.0 ? v : (x - x) / (x - x);
}

double __cl_atanpi_double(double x)
{
    double lo;
    double h = __cl_trig_atan_abs(fabs(x), &lo);
    // 7.5.1: atanpi(±0) = ±0, atanpi(±inf) = ±0.5.
    double v = __cl_trig_div_pi(h, lo);
    v = as_double(as_ulong(v) ^ (as_ulong(x) & __CL_TRIG_SIGN));
    return x == x ? v : x;
}

double __cl_atan2pi_double_double(double y, double x)
{
    double lo;
    double h = __cl_trig_atan2_dd(y, x, &lo);
    // 7.5.1's atan2pi values are atan2's (C99 F.9.1.4) divided by pi: 0, ±1, ±0.5,
    // ±0.25 and ±0.75 come out exact.
    double v = __cl_trig_div_pi(h, lo);
    return (x == x && y == y) ? v : x + y;
}

// The inverse functions for float, computed in float, without branches: the angle of (d, n)
// for n, d >= 0 is atan(t) with t = min(n, d) / max(n, d) <= 1 (one rounding), reflected from
// pi/2 where n > d; above tan(pi/8), atan(t) = pi/4 + atan((t - 1) / (t + 1)), so that the
// argument u of the polynomial is within tan(pi/8): atan(u) = u + u^3 P(u^2), P of degree 3
// with the minimax coefficients of Cephes' atanf (S. L. Moshier, "Methods and Programs for
// Mathematical Functions", 1989). The angle is kept as a pair of floats through the
// reflections (pi/4, pi/2 and pi as pairs), then rounded once, or multiplied by 1/pi as a
// pair for the *pi forms; but for atan, atanpi, atan2 and atan2pi, whose bounds (5 and 6
// ulp) leave room, which take the high part alone. Largest errors of the sampled sweep
// (crates/core/tests/float_math.rs) at each function.
#define __CL_TRIGF_PI_H 0x1.921fb6p1f
#define __CL_TRIGF_PI_L -0x1.777a5cp-24f
#define __CL_TRIGF_PIO2_H 0x1.921fb6p0f
#define __CL_TRIGF_PIO2_L -0x1.777a5cp-25f
#define __CL_TRIGF_PIO4_H 0x1.921fb6p-1f
#define __CL_TRIGF_PIO4_L -0x1.777a5cp-26f
#define __CL_TRIGF_INVPI_H 0x1.45f306p-2f
#define __CL_TRIGF_INVPI_L 0x1.b93910p-27f

// v where c (0 or 1), else w (a compare and a blend in the W-wide code, as __cl_f_if).
float __cl_trigf_if(int c, float v, float w) { return select(w, v, c); }

// The angle in [0, pi/2] of the point (d, n), n, d >= 0 not both 0, as the pair
// (return, *lo); a NaN gives a NaN.
float __cl_trigf_angle(float n, float d, float *lo)
{
    int swap = n > d;
    // t = a/b <= 1 (a the smaller side, b the larger); above tan(pi/8) the argument
    // (t - 1) / (t + 1) is (a - b) / (a + b): one division either way, with fewer roundings
    // than through t (a - b is exact from t = 1/2 on). Beyond 2^125 both are scaled by 1/4
    // (exactly, but for an a whose quotient underflows anyway) so that a + b stays finite.
    float hi_side = __cl_trigf_if(swap, n, d);
    float sc = __cl_trigf_if(hi_side > 0x1p125f, 0.25f, 1.0f);
    float lo_side = __cl_trigf_if(swap, d, n) * sc;
    hi_side = hi_side * sc;
    int mid = lo_side > 0.41421356f * hi_side;
    float u = __cl_trigf_if(mid, lo_side - hi_side, lo_side) /
              __cl_trigf_if(mid, lo_side + hi_side, hi_side);
    float z = u * u;
    float p = fma(z, 8.05374449538e-2f, -1.38776856032e-1f);
    p = fma(z, p, 1.99777106478e-1f);
    p = fma(z, p, -3.33329491539e-1f);
    float a = fma(u * z, p, u);
    // Plus pi/4 (|a| below it: a fast two_sum).
    float bh = __cl_trigf_if(mid, __CL_TRIGF_PIO4_H, 0.0f);
    float bl = __cl_trigf_if(mid, __CL_TRIGF_PIO4_L, 0.0f);
    float h = bh + a;
    float l = ((bh - h) + a) + bl;
    // pi/2 less that where n > d.
    float sh = __CL_TRIGF_PIO2_H - h;
    float sl = ((__CL_TRIGF_PIO2_H - sh) - h) + (__CL_TRIGF_PIO2_L - l);
    *lo = __cl_trigf_if(swap, sl, l);
    return __cl_trigf_if(swap, sh, h);
}

// pi less the pair (h, l) where c (0 or 1), as a pair.
float __cl_trigf_reflect(int c, float h, float *l)
{
    float mh = __CL_TRIGF_PI_H - h;
    float ml = ((__CL_TRIGF_PI_H - mh) - h) + (__CL_TRIGF_PI_L - *l);
    *l = __cl_trigf_if(c, ml, *l);
    return __cl_trigf_if(c, mh, h);
}

// The pair (h, l) rounded, or divided by pi (by_pi 1), with s's sign bit flipping it.
float __cl_trigf_round(float h, float l, int by_pi, float s)
{
    float q = fma(h, __CL_TRIGF_INVPI_H, fma(h, __CL_TRIGF_INVPI_L, l * __CL_TRIGF_INVPI_H));
    float v = __cl_trigf_if(by_pi, q, h + l);
    return as_float(as_uint(v) ^ (as_uint(s) & 0x80000000u));
}

// atan2(y, x), or atan2pi: C99 F.9.1.4's cases included (infinities act as the directions
// they point in, (0, 0) as angle 0, x's sign bit reflects to pi less the angle, y's sign bit
// applies last).
float __cl_trigf_atan2(float y, float x, int by_pi)
{
    float ay = fabs(y);
    float ax = fabs(x);
    float inf = as_float(0x7f800000);
    // Two infinities point at pi/4 (1, 1); one alone needs nothing: the angle's quotient is
    // 0 over infinity, 0 (x infinite) or, swapped, pi/2 less 0 (y infinite).
    int both = (ay == inf) & (ax == inf);
    float n = __cl_trigf_if(both, 1.0f, ay);
    float d = __cl_trigf_if(both, 1.0f, ax);
    // A zero y gives angle 0 whatever x, (0, 0) included.
    d = __cl_trigf_if(n == 0.0f, 1.0f, d);
    float l;
    float h = __cl_trigf_angle(n, d, &l);
    // x's sign bit: pi less the angle. One float each, without the pairs' low parts: the
    // bound is 6 ulp (table 65).
    h = __cl_trigf_if(as_int(x) < 0, __CL_TRIGF_PI_H - h, h);
    float v = __cl_trigf_if(by_pi, h * __CL_TRIGF_INVPI_H, h);
    v = as_float(as_uint(v) ^ (as_uint(y) & 0x80000000u));
    return __cl_trigf_if((x != x) | (y != y), x + y, v);
}

// Largest error of the sampled sweep: atan2 2.09 ulp, atan2pi 2.28 ulp (with the pairs' low
// parts, 1.58 and 1.89 ulp, 29% slower on 2 cores: 38.5 ms against 27.4).
float __cl_atan2_float_float(float y, float x) { return __cl_trigf_atan2(y, x, 0); }
float __cl_atan2pi_float_float(float y, float x) { return __cl_trigf_atan2(y, x, 1); }

// atan(x) = atan2(x, 1) (C99 F.9.1.3: atan(+-0) = +-0, atan(+-inf) = +-pi/2).
float __cl_trigf_atan(float x, int by_pi)
{
    float l;
    float h = __cl_trigf_angle(fabs(x), 1.0f, &l);
    float v = __cl_trigf_if(by_pi, h * __CL_TRIGF_INVPI_H, h);
    return as_float(as_uint(v) ^ (as_uint(x) & 0x80000000u));
}

// Largest error over every float input: atan 2.82 ulp (at 0x3ee11953), atanpi 2.19 ulp (at
// 0x3ec9295b) (with the pairs' low parts, atan 2.28 ulp, 1.6x slower on 2 cores: 24.5 ms
// against 15.5 for 16M floats).
float __cl_atan_float(float x) { return __cl_trigf_atan(x, 0); }
float __cl_atanpi_float(float x) { return __cl_trigf_atan(x, 1); }

// asin(x) is the angle of (sqrt(1 - x^2), |x|) with x's sign, acos(x) that of (|x|,
// sqrt(1 - x^2)), pi less it for x < 0; 1 - x^2 is one rounding of the exact value (fma), a
// NaN beyond 1 (C99 F.9.1.1-2: asin(+-0) = +-0, acos(1) = +0, NaNs for |x| > 1).
float __cl_trigf_asin(float x, int by_pi)
{
    float ax = fabs(x);
    float l;
    float h = __cl_trigf_angle(ax, sqrt(fma(-ax, ax, 1.0f)), &l);
    return __cl_trigf_round(h, l, by_pi, x);
}

float __cl_trigf_acos(float x, int by_pi)
{
    float ax = fabs(x);
    float l;
    float h = __cl_trigf_angle(sqrt(fma(-ax, ax, 1.0f)), ax, &l);
    h = __cl_trigf_reflect(x < 0.0f, h, &l);
    return __cl_trigf_round(h, l, by_pi, 0.0f);
}

// Largest error of the sampled sweep: asin 2.25 ulp, asinpi 2.09 ulp, acos 1.59 ulp,
// acospi 2.06 ulp; over every float input, asin 2.78 ulp (at 0x3ec3f1b5) and acos 2.83 ulp
// (at 0x3f6c66a0), where t lies above tan(pi/8) and pi/4 + atan((a - b) / (a + b)) cancels
// by up to a factor 1.7: the narrowest margin of these forms (table 65: 4; through
// (t - 1) / (t + 1), one rounding more, 3.11 and 3.13 ulp).
float __cl_asin_float(float x) { return __cl_trigf_asin(x, 0); }
float __cl_asinpi_float(float x) { return __cl_trigf_asin(x, 1); }
float __cl_acos_float(float x) { return __cl_trigf_acos(x, 0); }
float __cl_acospi_float(float x) { return __cl_trigf_acos(x, 1); }

#undef __CL_TRIGF_PI_H
#undef __CL_TRIGF_PI_L
#undef __CL_TRIGF_PIO2_H
#undef __CL_TRIGF_PIO2_L
#undef __CL_TRIGF_PIO4_H
#undef __CL_TRIGF_PIO4_L
#undef __CL_TRIGF_INVPI_H
#undef __CL_TRIGF_INVPI_L

#undef __CL_TRIG_PIO2_1
#undef __CL_TRIG_PIO2_2
#undef __CL_TRIG_PIO2_3
#undef __CL_TRIG_PI_H
#undef __CL_TRIG_PI_L
#undef __CL_TRIG_INVPI_H
#undef __CL_TRIG_INVPI_L
#undef __CL_TRIG_TWO_OVER_PI
#undef __CL_TRIG_DBL_MAX
#undef __CL_TRIG_SIGN
