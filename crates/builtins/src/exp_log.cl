// 6.15.2 exponentials, logarithms, powers, roots and hyperbolic functions.
//
// Every function is written for double to the bounds of table 68 (7.4) and the special
// values of 7.5.1 and C99 F.9; the float forms are computed in float, to table 65's bounds
// (at the end of this file). Two cores do the work of the double functions, both after Tang's
// table-driven methods (P. T. P. Tang, "Table-driven implementation of the exponential
// function in IEEE floating-point arithmetic", ACM TOMS 15(2), 1989, and "... of the
// logarithm function", ACM TOMS 16(4), 1990), with Cody and Waite's split constants for
// the argument reduction:
// - __cl_exp_hilo(hi, lo) is exp(hi + lo): k = round((hi + lo) * 32 / ln 2) splits off
//   2^(k/32) (2^(k>>5) as an exponent, 2^((k&31)/32) from a table), the rest r lies within
//   ln 2 / 64 and exp(r) - 1 is its Taylor series to r^7 (truncation below 2^-68).
// - __cl_log_parts(x) is log(x) as e ln 2 + (hi + lo): x = 2^e m with m within 1/32 of
//   c = 1 + j/16, log(m) = log(c) + 2 atanh(s) with s = (m - c) / (m + c), |s| < 2^-6, kept
//   as a double-double so that pow's y log(x) is exact enough for its exp.
// Double-double steps use the error-free transformations two_sum (Knuth, TAOCP vol. 2,
// 4.2.2), fast_two_sum (Dekker, 1971) and the exact product error fma(a, b, -a*b). The
// tables' entries are the exact values rounded to double, high part then the rest.

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
// No contraction of a * b + c here: the error-free steps below rely on each rounding. (The
// whole library is compiled with contraction off: see ferrocl_clc::library::compile.)
#pragma OPENCL FP_CONTRACT OFF

// ln 2 in two parts: the high part has 42 significant bits, so e * high is exact for
// |e| < 2^11 (every binary exponent of a double).
#define __CL_LN2_HI 0.6931471805598903
#define __CL_LN2_LO 5.497923018708371e-14
// ln 2 rounded to double.
#define __CL_LN2 0.6931471805599453
// ln 2 / 32 in two parts: the high part has 37 significant bits, so k * high is exact for
// |k| < 2^16.
#define __CL_LN2_32_HI 0.021660849392446835
#define __CL_LN2_32_LO 5.145609244655338e-14
#define __CL_INV_LN2_32 46.16624130844683
// 1 / ln 2, 1 / ln 10 and ln 10 as double-doubles.
#define __CL_INV_LN2_HI 1.4426950408889634
#define __CL_INV_LN2_LO 2.0355273740931033e-17
#define __CL_INV_LN10_HI 0.4342944819032518
#define __CL_INV_LN10_LO 1.098319650216765e-17
#define __CL_LN10_HI 2.302585092994046
#define __CL_LN10_LO -2.1707562233822494e-16
// log10(2) in two parts, the high part with 42 significant bits (e * high exact).
#define __CL_LOG10_2_HI 0.30102999566395283
#define __CL_LOG10_2_LO 2.8363394551044964e-14
// 32 log2(10).
#define __CL_LOG2_10_32 106.30169903639559
#define __CL_DBL_MIN 2.2250738585072014e-308
#define __CL_TWO54 18014398509481984.0
#define __CL_INF_D as_double(0x7ff0000000000000L)
#define __CL_NAN_D as_double(0x7ff8000000000000L)

// 2^(j/32) for j = 0..31 as pairs (high, low): the high part is 2^(j/32) rounded to
// double, the low part the rest rounded to double.
__constant double __cl_exp2_32_table[64] = {
    1.0, 0.0,
    1.0218971486541166, 5.109225028973444e-17,
    1.0442737824274138, 8.551889705537965e-17,
    1.0671404006768237, -7.899853966841582e-17,
    1.0905077326652577, -3.046782079812471e-17,
    1.1143867425958924, 1.0410278456845571e-16,
    1.1387886347566916, 8.912812676025408e-17,
    1.1637248587775775, 3.8292048369240935e-17,
    1.189207115002721, 3.982015231465646e-17,
    1.215247359980469, -7.712630692681488e-17,
    1.241857812073484, 4.658027591836937e-17,
    1.2690509571917332, 2.667932131342186e-18,
    1.2968395546510096, 2.5382502794888315e-17,
    1.3252366431597413, -2.8587312100388614e-17,
    1.3542555469368927, 7.70094837980299e-17,
    1.383909881963832, -6.770511658794786e-17,
    1.4142135623730951, -9.667293313452913e-17,
    1.4451808069770467, -3.0237581349939873e-17,
    1.4768261459394993, -3.483994556892796e-17,
    1.5091644275934228, -1.016455327754295e-16,
    1.5422108254079407, 7.949834809697621e-17,
    1.5759808451078865, -1.0136916471278304e-17,
    1.6104903319492543, 2.4707192569797888e-17,
    1.645755478153965, -1.0125679913674773e-16,
    1.681792830507429, 8.199010020581497e-17,
    1.718619298122478, -1.851380418263111e-17,
    1.7562521603732995, 2.960140695448873e-17,
    1.7947090750031072, 1.8227458427912087e-17,
    1.8340080864093424, 3.283107224245627e-17,
    1.8741676341103, -6.122763413004143e-17,
    1.9152065613971474, -1.0619946056195963e-16,
    1.9571441241754002, 8.960767791036668e-17,
};

// log(1 + j/16) for j = 0..15 as pairs (high, low), likewise.
__constant double __cl_log_1_16_table[32] = {
    0.0, 0.0,
    0.06062462181643484, 2.6424025938726934e-18,
    0.11778303565638346, -1.1971685747593677e-18,
    0.17185025692665923, -6.0224538210113705e-18,
    0.22314355131420976, -9.091270597324799e-18,
    0.27193371548364176, 7.83319637697442e-19,
    0.3184537311185346, 2.7114779367326236e-17,
    0.3629054936893685, -2.1492361455310972e-17,
    0.4054651081081644, -2.8811380259626426e-18,
    0.44628710262841953, -1.8182541194649598e-17,
    0.4855078157817008, -1.6618350693852048e-17,
    0.5232481437645479, -3.1833882216350925e-17,
    0.5596157879354227, 2.685492580212308e-17,
    0.5947071077466928, 1.3751689964323675e-17,
    0.6286086594223741, 4.3538742607970387e-17,
    0.661398482245365, -7.603333785634003e-18,
};

// a + b = s + err exactly (s = a + b rounded).
double2 __cl_two_sum(double a, double b) {
    double s = a + b;
    double bb = s - a;
    double err = (a - (s - bb)) + (b - bb);
    return (double2)(s, err);
}

// a + b = s + err exactly when |a| >= |b| (or a is 0).
double2 __cl_fast_two_sum(double a, double b) {
    double s = a + b;
    return (double2)(s, b - (s - a));
}

// 2^(kd/32) * exp(r) for an integral kd with |kd| < 2^16 and |r| <= about ln 2 / 64.
double __cl_exp_reduced(double kd, double r) {
    // exp(r) - 1 = r + r^2 (1/2 + r/6 + ... + r^5/7!).
    double q = fma(r, 1.984126984126984e-4, 1.388888888888889e-3);
    q = fma(r, q, 8.333333333333333e-3);
    q = fma(r, q, 4.1666666666666664e-2);
    q = fma(r, q, 0.16666666666666666);
    q = fma(r, q, 0.5);
    double p = fma(r * r, q, r);
    int k = (int)kd;
    int j = k & 31;
    int n = k >> 5;
    double th = __cl_exp2_32_table[2 * j];
    double tl = __cl_exp2_32_table[2 * j + 1];
    // 2^(j/32) (1 + p) = th + (th p + tl), the low part's own product tl p below 2^-60.
    double m = th + fma(th, p, tl);
    // 2^n in two factors, each a normal double, so that a result in the denormals is
    // rounded once (by the last product).
    int n1 = n >> 1;
    int n2 = n - n1;
    double s1 = as_double((long)(n1 + 1023) << 52);
    double s2 = as_double((long)(n2 + 1023) << 52);
    return m * s1 * s2;
}

// exp(hi + lo), with |lo| small beside hi (a double-double or lo = 0). A NaN hi gives a NaN.
double __cl_exp_hilo(double hi, double lo) {
    // Beyond +-1100 the result is +inf or +0 whatever the rest.
    int over = hi > 1100.0;
    int under = hi < -1100.0;
    hi = over ? 1100.0 : hi;
    hi = under ? -1100.0 : hi;
    lo = (over || under) ? 0.0 : lo;
    double kd = rint(hi * __CL_INV_LN2_32);
    // hi - kd * high is exact (both lie on a grid the difference, below 2^-6, fits).
    double r = fma(-kd, __CL_LN2_32_HI, hi) + fma(-kd, __CL_LN2_32_LO, lo);
    return __cl_exp_reduced(kd, r);
}

// log(x) for finite x > 0 (denormals included) as (e, hi, lo): log(x) = e ln 2 + hi + lo,
// e integral, hi + lo = log(m) for x = 2^e m, m within 1/32 of 1 + j/16 (or of 1 from
// below), to about 2^-70 relative.
double4 __cl_log_parts(double x) {
    int sub = x < __CL_DBL_MIN;
    x = sub ? x * __CL_TWO54 : x;
    long bits = as_long(x);
    int e = (int)((bits >> 52) & 0x7ffL) - (sub ? 1077 : 1023);
    long mbits = (bits & 0x000fffffffffffffL) | 0x3ff0000000000000L;
    double m = as_double(mbits);
    // j = round((m - 1) * 16) from the top five bits of the fraction.
    int j = ((int)((mbits >> 47) & 31L) + 1) >> 1;
    // m close to 2: use m / 2, close to 1 from below.
    int top = j == 16;
    m = top ? m * 0.5 : m;
    e = top ? e + 1 : e;
    j = top ? 0 : j;
    double c = 1.0 + (double)j * 0.0625;
    // m - c is exact (both on the 2^-52 grid, the difference below 2^-5).
    double num = m - c;
    double2 den = __cl_two_sum(m, c);
    double s = num / den.x;
    double s_lo = (fma(-s, den.x, num) - s * den.y) / den.x;
    // 2 atanh(s) = 2s + 2s^3/3 + ... + 2s^11/11; the next term is below 2^-72 relative.
    double s2 = s * s;
    double t = fma(s2, 0.18181818181818182, 0.2222222222222222);
    t = fma(s2, t, 0.2857142857142857);
    t = fma(s2, t, 0.4);
    t = fma(s2, t, 0.6666666666666666);
    double tail = s * s2 * t;
    double th = __cl_log_1_16_table[2 * j];
    double tl = __cl_log_1_16_table[2 * j + 1];
    double2 h = __cl_two_sum(th, 2.0 * s);
    double lo = h.y + (tl + (2.0 * s_lo + tail));
    double2 r = __cl_fast_two_sum(h.x, lo);
    return (double4)((double)e, r.x, r.y, 0.0);
}

// log(x) + k ln 2 + extra as a double-double, for finite x > 0 and small extra.
double2 __cl_log_dd(double x, double k, double extra) {
    double4 p = __cl_log_parts(x);
    double e = p.x + k;
    double2 h = __cl_two_sum(e * __CL_LN2_HI, p.y);
    double lo = h.y + (p.z + fma(e, __CL_LN2_LO, extra));
    return __cl_fast_two_sum(h.x, lo);
}

// The result of a logarithm for the arguments outside (0, +inf): C99 F.9.3.7 log(+-0) is
// -inf, log(x < 0) a NaN, log(+inf) = +inf; a NaN stays.
double __cl_log_special(double x, double r) {
    r = x == 0.0 ? -__CL_INF_D : r;
    r = x < 0.0 ? __CL_NAN_D : r;
    r = x == __CL_INF_D ? x : r;
    return x != x ? x : r;
}

double __cl_log_double(double x) {
    double2 l = __cl_log_dd(x, 0.0, 0.0);
    return __cl_log_special(x, l.x + l.y);
}

double __cl_log2_double(double x) {
    double4 p = __cl_log_parts(x);
    // e + (hi + lo) / ln 2; e + the product is a fast two_sum (|e| >= 1 > |product| or e = 0).
    double ph = p.y * __CL_INV_LN2_HI;
    double pl = fma(p.y, __CL_INV_LN2_HI, -ph) + fma(p.y, __CL_INV_LN2_LO, p.z * __CL_INV_LN2_HI);
    double2 h = __cl_fast_two_sum(p.x, ph);
    return __cl_log_special(x, h.x + (h.y + pl));
}

double __cl_log10_double(double x) {
    double4 p = __cl_log_parts(x);
    double ph = p.y * __CL_INV_LN10_HI;
    double pl = fma(p.y, __CL_INV_LN10_HI, -ph) + fma(p.y, __CL_INV_LN10_LO, p.z * __CL_INV_LN10_HI);
    double2 h = __cl_two_sum(p.x * __CL_LOG10_2_HI, ph);
    return __cl_log_special(x, h.x + (h.y + fma(p.x, __CL_LOG10_2_LO, pl)));
}

double __cl_log1p_double(double x) {
    // 1 + x = u + ul exactly; log(u + ul) = log(u) + ul/u (the next term is below 2^-106).
    double2 u = __cl_two_sum(1.0, x);
    double2 l = __cl_log_dd(u.x, 0.0, u.y / u.x);
    double r = __cl_log_special(u.x, l.x + l.y);
    // x = +-0 and x below 2^-54 in magnitude: log1p(x) rounds to x (C99 F.9.3.9: +-0).
    r = fabs(x) < 5.551115123125783e-17 ? x : r;
    return x != x ? x : r;
}

double __cl_exp_double(double x) { return __cl_exp_hilo(x, 0.0); }

double __cl_exp2_double(double x) {
    x = x > 1200.0 ? 1200.0 : x;
    x = x < -1200.0 ? -1200.0 : x;
    double kd = rint(x * 32.0);
    // x - kd/32 is exact; |t| <= 1/64.
    double t = fma(kd, -0.03125, x);
    return __cl_exp_reduced(kd, t * __CL_LN2);
}

double __cl_exp10_double(double x) {
    x = x > 400.0 ? 400.0 : x;
    x = x < -400.0 ? -400.0 : x;
    double kd = rint(x * __CL_LOG2_10_32);
    // x ln 10 as a double-double, less kd ln 2 / 32 (the high difference is exact).
    double ah = x * __CL_LN10_HI;
    double al = fma(x, __CL_LN10_HI, -ah) + x * __CL_LN10_LO;
    double r = fma(-kd, __CL_LN2_32_HI, ah) + fma(-kd, __CL_LN2_32_LO, al);
    return __cl_exp_reduced(kd, r);
}

double __cl_expm1_double(double x) {
    // Between -40 and 40: 2^n 2^(j/32) (1 + p) - 1 summed as a double-double.
    double xc = x > 40.0 ? 40.0 : x;
    xc = xc < -40.0 ? -40.0 : xc;
    double kd = rint(xc * __CL_INV_LN2_32);
    // The result may be as small as r (k = +-1), so r and p are kept to twice double's
    // precision: r = rh + rl exactly (rh exact), p + p_lo = r + r^2 q.
    double rh = fma(-kd, __CL_LN2_32_HI, xc);
    double rl = -kd * __CL_LN2_32_LO;
    double r = rh + rl;
    double r_err = (rh - r) + rl;
    double q = fma(r, 1.984126984126984e-4, 1.388888888888889e-3);
    q = fma(r, q, 8.333333333333333e-3);
    q = fma(r, q, 4.1666666666666664e-2);
    q = fma(r, q, 0.16666666666666666);
    q = fma(r, q, 0.5);
    double r2 = r * r;
    double p = fma(r2, q, r);
    // r - p is exact (p is within a factor 2 of r).
    double p_lo = fma(r2, q, r - p) + r_err;
    int k = (int)kd;
    int j = k & 31;
    int n = k >> 5;
    double sc = as_double((long)(n + 1023) << 52);
    double th = __cl_exp2_32_table[2 * j] * sc;
    double tl = __cl_exp2_32_table[2 * j + 1] * sc;
    // (th + tl)(1 + p + p_lo) - 1 = (th - 1) + th p + (th p_lo + tl (1 + p)).
    double ph = th * p;
    double pl = fma(th, p, -ph) + fma(th, p_lo, fma(tl, p, tl));
    double2 a = __cl_two_sum(th, -1.0);
    double2 b = __cl_two_sum(a.x, ph);
    double r1 = b.x + (b.y + (a.y + pl));
    // Above 40, exp(x) - 1 rounds as exp(x) does; below -40 it is -1 rounded.
    r1 = x > 40.0 ? __cl_exp_hilo(x, 0.0) : r1;
    r1 = x < -40.0 ? -1.0 : r1;
    // |x| below 2^-54 (+-0 included, C99 F.9.3.3): expm1(x) rounds to x.
    r1 = fabs(x) < 5.551115123125783e-17 ? x : r1;
    return x != x ? x : r1;
}

// x is an odd integer (false for infinities and NaN).
int __cl_odd_integer(double y) {
    double h = y * 0.5;
    return y == trunc(y) && h != trunc(h);
}

// pow(x, y) given r = |x|^y for finite nonzero x and finite y: the sign and the special
// values of C99 F.9.4.4.
double __cl_pow_edges(double x, double y, double r) {
    double ax = fabs(x);
    int yint = y == trunc(y);
    int yodd = __cl_odd_integer(y);
    // C99 F.9.4.4, in increasing precedence.
    // pow(x, y) for x < 0: negated for odd y, a NaN for finite non-integral y.
    r = (x < 0.0 && yodd) ? -r : r;
    r = (x < 0.0 && !yint) ? __CL_NAN_D : r;
    // pow(+-0, y) is +inf for y < 0 (+-inf for odd y), +0 for y > 0 (+-0 for odd y);
    // pow(-inf, y) and pow(+inf, y) mirror that.
    int zero = ax == 0.0;
    double edge = ((y < 0.0) == zero) ? __CL_INF_D : 0.0;
    edge = (yodd && as_long(x) < 0L) ? -edge : edge;
    r = (zero || ax == __CL_INF_D) ? edge : r;
    // pow(x, +-inf): 1 for |x| = 1, +inf for |x| < 1 and y = -inf or |x| > 1 and y = +inf,
    // +0 otherwise.
    double inf_y = ((ax < 1.0) == (y < 0.0)) ? __CL_INF_D : 0.0;
    inf_y = ax == 1.0 ? 1.0 : inf_y;
    r = fabs(y) == __CL_INF_D ? inf_y : r;
    r = (x != x || y != y) ? x + y : r;
    // pow(x, +-0) is 1 even for a NaN x; pow(+1, y) is 1 even for a NaN y.
    return (y == 0.0 || x == 1.0) ? 1.0 : r;
}

double __cl_pow_core(double x, double y) {
    // |x|^y = exp(y log|x|), the product kept as a double-double.
    double2 l = __cl_log_dd(fabs(x), 0.0, 0.0);
    double ph = y * l.x;
    double pl = fma(y, l.x, -ph) + y * l.y;
    return __cl_pow_edges(x, y, __cl_exp_hilo(ph, pl));
}

double __cl_pow_double_double(double x, double y) { return __cl_pow_core(x, y); }

// 7.5.1: pown(+-0, n) is +0 for even n > 0 and +-0 for odd n > 0, +inf for even n < 0 and
// +-inf for odd n < 0, and pown(x, 0) is 1: pow's own rules for an integral y (C99 F.9.4.4).
double __cl_pown_double_int(double x, int n) { return __cl_pow_core(x, (double)n); }

// powr(x, y) given r = pow(x, y).
double __cl_powr_edges(double x, double y, double r) {
    // 7.5.1: powr(+-0, y) is +inf for y < 0, +0 for y > 0, a NaN for y = +-0.
    double z = y < 0.0 ? __CL_INF_D : 0.0;
    z = y == 0.0 ? __CL_NAN_D : z;
    r = x == 0.0 ? z : r;
    // powr(+inf, +-0) and powr(+1, +-inf) are NaNs; so is powr(x < 0, y).
    r = (x == __CL_INF_D && y == 0.0) ? __CL_NAN_D : r;
    r = (x == 1.0 && fabs(y) == __CL_INF_D) ? __CL_NAN_D : r;
    r = x < 0.0 ? __CL_NAN_D : r;
    // powr(x, NaN) and powr(NaN, y) return the NaN.
    return (x != x || y != y) ? x + y : r;
}

double __cl_powr_double_double(double x, double y) {
    return __cl_powr_edges(x, y, __cl_pow_core(x, y));
}

// rootn(x, n) given r = |x|^(1/n) for finite nonzero x.
double __cl_rootn_edges(double x, int n, double r) {
    double ax = fabs(x);
    int odd = (n & 1) != 0;
    // 7.5.1: rootn(+-0, n) is +inf for even n < 0, +-inf for odd n < 0, +0 for even n > 0
    // and +-0 for odd n > 0; the infinities mirror that (rootn(+-inf, n) is +-inf for odd
    // n > 0, ...).
    double edge = ((n < 0) == (ax == 0.0)) ? __CL_INF_D : 0.0;
    r = (ax == 0.0 || ax == __CL_INF_D) ? edge : r;
    r = odd ? copysign(r, x) : r;
    // A NaN for x < 0 and even n, and for n = 0.
    r = ((x < 0.0 && !odd) || n == 0) ? __CL_NAN_D : r;
    return x != x ? x : r;
}

double __cl_rootn_double_int(double x, int n) {
    double dn = (double)n;
    double2 l = __cl_log_dd(fabs(x), 0.0, 0.0);
    // log|x| / n as a double-double.
    double qh = l.x / dn;
    double ql = (fma(-qh, dn, l.x) + l.y) / dn;
    return __cl_rootn_edges(x, n, __cl_exp_hilo(qh, ql));
}

double __cl_cbrt_double(double x) {
    double ax = fabs(x);
    double2 l = __cl_log_dd(ax, 0.0, 0.0);
    double qh = l.x / 3.0;
    double ql = (fma(-qh, 3.0, l.x) + l.y) / 3.0;
    double r = copysign(__cl_exp_hilo(qh, ql), x);
    // C99 F.9.4.1: cbrt(+-0) = +-0, cbrt(+-inf) = +-inf.
    return (ax == 0.0 || ax == __CL_INF_D || x != x) ? x : r;
}

double __cl_hypot_double_double(double x, double y) {
    double ax = fabs(x);
    double ay = fabs(y);
    double big = fmax(ax, ay);
    double small = fmin(ax, ay);
    // Scale so that big^2 and the sum neither overflow nor lose the small one's square
    // to the denormals needlessly: big within [2^-500, 2^500] stays.
    double up = big < 3.054936363499605e-151 ? 4.149515568880993e+180 : 1.0;
    double down = big > 3.273390607896142e+150 ? 2.409919865102884e-181 : 1.0;
    double f = up * down;
    double b = big * f;
    double s = small * f;
    double r = sqrt(fma(b, b, s * s)) / f;
    // C99 F.9.4.3: hypot(+-inf, y) is +inf even for a NaN y.
    r = (x != x || y != y) ? x + y : r;
    return (ax == __CL_INF_D || ay == __CL_INF_D) ? __CL_INF_D : r;
}


double __cl_rsqrt_double(double x) {
    // Below 2^-900 x is scaled by 2^108 (the result by 2^54) so that the residual t below
    // keeps its precision (it is about x 2^-53).
    int sub = x < 1.1830521861667747e-271;
    double xs = sub ? x * 3.2451855365842673e+32 : x;
    double s = sqrt(xs);
    double q = 1.0 / s;
    // 1/sqrt(xs) = q (1 + e) (1 - t / (2 xs)) to second order, e and t exact residuals.
    double e = fma(-s, q, 1.0);
    double t = fma(-s, s, xs);
    double r = fma(q, e - 0.5 * t * q * q, q);
    r = sub ? r * __CL_TWO54 : r;
    // rsqrt(+-0) = +-inf, rsqrt(+inf) = +0, rsqrt(x < 0) a NaN (as 1/sqrt).
    return (x == 0.0 || x == __CL_INF_D || x < 0.0 || x != x) ? 1.0 / sqrt(x) : r;
}

// exp(|x|) / 2 for |x| >= 0.
double __cl_half_exp(double ax) {
    double2 h = __cl_two_sum(ax, -__CL_LN2_HI);
    return __cl_exp_hilo(h.x, h.y - __CL_LN2_LO);
}

double __cl_sinh_double(double x) {
    double ax = fabs(x);
    // |x| <= 1: x + x^3/3! + ... + x^21/21! (the next term is below 2^-74 relative).
    double x2 = x * x;
    double t = fma(x2, 1.9572941063391263e-20, 8.22063524662433e-18);
    t = fma(x2, t, 2.8114572543455206e-15);
    t = fma(x2, t, 7.647163731819816e-13);
    t = fma(x2, t, 1.6059043836821613e-10);
    t = fma(x2, t, 2.505210838544172e-08);
    t = fma(x2, t, 2.7557319223985893e-06);
    t = fma(x2, t, 1.984126984126984e-4);
    t = fma(x2, t, 8.333333333333333e-3);
    t = fma(x2, t, 0.16666666666666666);
    double near0 = fma(x * x2, t, x);
    // Beyond: exp(|x|)/2 - exp(-|x|)/2, the second term at most a sixth of the result.
    double h = __cl_half_exp(ax);
    double far = copysign(h - 0.25 / h, x);
    double r = ax <= 1.0 ? near0 : far;
    return (x != x || ax == __CL_INF_D) ? x : r;
}

double __cl_cosh_double(double x) {
    double ax = fabs(x);
    double h = __cl_half_exp(ax);
    double r = h + 0.25 / h;
    return x != x ? x : r;
}

double __cl_tanh_double(double x) {
    double ax = fabs(x);
    // tanh|x| = expm1(2|x|) / (expm1(2|x|) + 2); 1 above 22 (1 - tanh below 2^-62).
    double em = __cl_expm1_double(2.0 * fmin(ax, 22.0));
    // em / (em + 2) with the denominator's rounding error and the quotient's corrected.
    double2 den = __cl_two_sum(em, 2.0);
    double q = em / den.x;
    q = q + (fma(-q, den.x, em) - q * den.y) / den.x;
    double r = copysign(q, x);
    r = ax >= 22.0 ? copysign(1.0, x) : r;
    // tanh(+-0) = +-0; below 2^-28 tanh(x) rounds to x.
    return (ax < 3.725290298461914e-09 || x != x) ? x : r;
}

double __cl_asinh_double(double x) {
    double ax = fabs(x);
    // Above 2^28: log(2|x|); from 2: log(2|x| + 1/(|x| + sqrt(x^2 + 1)));
    // below 2: log1p(|x| + x^2 / (1 + sqrt(1 + x^2))).
    int huge = ax > 268435456.0;
    double a = huge ? 1.0 : ax;
    double sq = sqrt(fma(a, a, 1.0));
    double mid = 2.0 * a + 1.0 / (a + sq);
    double lo_arg = a + a * a / (1.0 + sq);
    double2 u = __cl_two_sum(1.0, lo_arg);
    int small = ax < 2.0;
    double arg = huge ? ax : (small ? u.x : mid);
    double extra = small ? u.y / u.x : 0.0;
    double2 l = __cl_log_dd(arg, huge ? 1.0 : 0.0, extra);
    double r = copysign(l.x + l.y, x);
    // asinh(+-0) = +-0, asinh(+-inf) = +-inf; below 2^-28 asinh(x) rounds to x.
    return (ax < 3.725290298461914e-09 || ax == __CL_INF_D || x != x) ? x : r;
}

double __cl_acosh_double(double x) {
    // Above 2^28: log(2x); from 2: log(2x - 1/(x + sqrt(x^2 - 1)));
    // below 2: log1p(t + sqrt(2t + t^2)) with t = x - 1 (exact), the sum kept as a
    // double-double since the root carries the result's leading bits.
    int huge = x > 268435456.0;
    double a = huge ? 2.0 : x;
    double mid = 2.0 * a - 1.0 / (a + sqrt(fma(a, a, -1.0)));
    double t = a - 1.0;
    // w + ew = 2t + t^2 (2t - w is exact, w within a factor 1.5 of 2t).
    double w = fma(t, t, 2.0 * t);
    double ew = fma(t, t, 2.0 * t - w);
    double sq = sqrt(w);
    double sq_lo = (fma(-sq, sq, w) + ew) / (2.0 * sq);
    double2 u = __cl_two_sum(t, sq);
    double2 v = __cl_two_sum(1.0, u.x);
    int small = x < 2.0;
    double arg = huge ? x : (small ? v.x : mid);
    double extra = small ? (v.y + (u.y + sq_lo)) / v.x : 0.0;
    double2 l = __cl_log_dd(arg, huge ? 1.0 : 0.0, extra);
    double r = l.x + l.y;
    // acosh(1) = +0, acosh(+inf) = +inf, a NaN below 1.
    r = x == 1.0 ? 0.0 : r;
    r = x == __CL_INF_D ? x : r;
    r = x < 1.0 ? __CL_NAN_D : r;
    return x != x ? x : r;
}

double __cl_atanh_double(double x) {
    double ax = fabs(x);
    // atanh|x| = log1p(2|x| / (1 - |x|)) / 2, the argument written as 2|x| + 2x^2/(1 - |x|)
    // below 1/2.
    double d = 1.0 - ax;
    double arg = ax < 0.5 ? fma(2.0 * ax, ax / d, 2.0 * ax) : 2.0 * ax / d;
    double r = copysign(0.5 * __cl_log1p_double(arg), x);
    // atanh(+-1) = +-inf, a NaN for |x| > 1; below 2^-28 atanh(x) rounds to x (+-0 too).
    r = ax == 1.0 ? copysign(__CL_INF_D, x) : r;
    r = ax > 1.0 ? __CL_NAN_D : r;
    return (ax < 3.725290298461914e-09 || x != x) ? x : r;
}

// The float exponentials and logarithms, computed in float: vectorized across work-items, a
// 128-bit register holds four floats but two doubles, and float needs polynomials of half the
// degree. Each is within table 65's 3 ulp (7.4) with room to spare: runs over every float
// input (exp; crates/core/tests/float_math.rs with FERROCL_TEST_SCALE=exhaustive) or every 7th
// (the others, against numpy's double functions) measured the largest errors noted at each.
//
// Each function has two forms. The common form covers the arguments real code passes (a
// positive normal float for the logarithms, every x below the overflow bound for the
// exponentials, raised to the underflow bound on its bits) in a few instructions, without a
// special value to test; the complete form, free of branches (the clamps and the special
// values are integer operations on the bits, or a select() of a comparison), covers every
// float. The function is the common
// form's result where its argument is in range, else the complete form's, chosen with ?:,
// which is lowered as a branch: the W-wide code tests each chunk, and a chunk whose lanes are
// all in range (one compare of the bits and one ptest) does not run the complete form. SIMD
// libraries do the same (a fast path for all lanes, the special lanes again apart).
//
// - exp(r) for |r| <= 0.35 is 1 + r + r^2 q(r), q of degree 4 fitted to (e^r - 1 - r) / r^2 by
//   Chebyshev interpolation on [-0.35, 0.35] (mpmath.chebyfit(q, [-0.35, 0.35], 5) at 50
//   digits, rounded to float; the fit's relative error is 6.8e-8, about 0.07 ulp of the
//   result once multiplied by r^2 <= 0.1225).
// - log(1 + f) for 1 + f within [sqrt(1/2), sqrt(2)) is 2 atanh(s) = 2s + s R with
//   s = f / (2 + f), R = z g(z), z = s^2 <= 0.0295, g of degree 2 fitted to
//   (2 atanh(s) / s - 2) / z by Chebyshev interpolation on [0, 0.0295]
//   (mpmath.chebyfit(g, [0, 0.0295], 3); relative error 1.9e-7, below 2^-28 of log(1 + f) once
//   multiplied by z s). As 2s = f - s f, log(1 + f) = f + s (R - f): f is exact, so the only
//   large term carries no rounding error (the complete form: f - f^2/2 + s (f^2/2 + R)).
// - 2^n is built in the exponent bits, in two factors, each a normal float: (1 + u) times
//   the first is one fma, the product by the second rounds the result once, also in the
//   subnormals (the CPU device reports CL_FP_DENORM: no flush). pow's common form, n within
//   -126..126, takes one factor. n = rint(t) comes from the bits of t + 1.5 * 2^23 (exact
//   for |t| < 2^22), without a conversion to int.
#define __CL_EXPF_SHIFT 12582912.0f
// The bits of t + 1.5 * 2^23 less this are n + 254: twice the exponent bias, which
// __cl_expf_core splits between its two factors.
#define __CL_EXPF_BIASED (0x4b400000 - 254)
// 1.5 * 2^23 + 127: the bits of t plus this are 0x4b400000 + n + 127, and shifted left by 23
// (the bits of 0x4b400000 leave the word) they are those of 2^n for -126 <= n <= 127.
#define __CL_EXPF_SHIFT_127 12583039.0f
// ln 2 rounded to float (its last set bit is worth 2^-21) and the rest.
#define __CL_LN2_HI_F 0.693147182f
#define __CL_LN2_LO_F -1.90465421e-09f
// 1 / ln 2 rounded to float (also the high part of 1 / ln 2 for log2).
#define __CL_LOG2E_F 1.44269502f
#define __CL_LN10_HI_F 2.30258512f
#define __CL_LN10_LO_F -3.19754356e-08f
#define __CL_INV_LN2_LO_F 1.92596303e-08f
#define __CL_INV_LN10_HI_F 0.434294492f
#define __CL_INV_LN10_LO_F -1.01030500e-08f
// ln 2 and log10(2) with 16 significant bits (e * high is exact for |e| < 2^8) and the rest.
#define __CL_LN2_16_HI_F 0.693145752f
#define __CL_LN2_16_LO_F 1.42860677e-06f
#define __CL_LOG10_2_16_HI_F 0.30103302f
#define __CL_LOG10_2_16_LO_F -3.02435546e-06f

// exp(r) 2^n for |r| <= 0.35 and -153 <= n <= 130, given nb = n + 254.
float __cl_expf_core(float r, int nb) {
    float q = fma(r, 1.39269186e-3f, 8.3637666e-3f);
    q = fma(r, q, 4.16665487e-2f);
    q = fma(r, q, 0.166665733f);
    q = fma(r, q, 0.5f);
    // exp(r) = 1 + u.
    float u = fma(r * r, q, r);
    // 2^n = 2^n1 2^n2 with n1 = floor(n / 2), n2 = n - n1, each biased by 127:
    // nb >> 1 = n1 + 127 and nb - (n1 + 127) = n2 + 127.
    int b1 = nb >> 1;
    float s1 = as_float(b1 << 23);
    float s2 = as_float((nb - b1) << 23);
    // (1 + u) s1 is rounded as a normal float, the product by s2 rounds the result once.
    return fma(u, s1, s1) * s2;
}

// x clamped to [lo, hi] (lo < 0 < hi) on its bits: as signed ints the positive floats are in
// order and below the negative ones, as unsigned ints the negative floats are in order of
// magnitude and above the positive ones. A NaN becomes lo or hi; __cl_expf_nan restores it.
float __cl_expf_clamp(float x, float lo, float hi) {
    return as_float(min((uint)min(as_int(x), as_int(hi)), as_uint(lo)));
}

// r, or x where x is a NaN: a select of a comparison, which the W-wide code makes a compare
// and a blend (two instructions, against five for the same on the bits).
float __cl_expf_nan(float x, float r) { return select(r, x, isnan(x)); }

// x raised to lo (a negative float) where it is below: on the bits as unsigned ints, the
// negative floats are in order of magnitude above the positive ones. A NaN with the sign bit
// set becomes lo.
float __cl_expf_floor(float x, float lo) { return as_float(min(as_uint(x), as_uint(lo))); }

// e^x for -104 <= x <= 89: below -104 the result rounds to +0 (e^-104 < 2^-150), above 89
// to +inf, so that the complete form clamps there; n stays within -150..128.
float __cl_expf_clamped(float x) {
    float t = fma(x, __CL_LOG2E_F, __CL_EXPF_SHIFT);
    float nf = t - __CL_EXPF_SHIFT;
    int nb = as_int(t) - __CL_EXPF_BIASED;
    // Cody and Waite: x - nf * high is exact (nf * high lies on the 2^-21 grid, x on a grid
    // at least as fine where n != 0, and the difference is below 0.35), the low part rounds.
    float r = fma(-nf, __CL_LN2_HI_F, x);
    r = fma(-nf, __CL_LN2_LO_F, r);
    return __cl_expf_core(r, nb);
}

// 2^x for -151 <= x <= 129 (2^-151 rounds to +0, 2^129 overflows).
float __cl_exp2f_clamped(float x) {
    float t = x + __CL_EXPF_SHIFT;
    float nf = t - __CL_EXPF_SHIFT;
    int nb = as_int(t) - __CL_EXPF_BIASED;
    // x - nf is exact, within 1/2; its product by ln 2 within 0.35.
    return __cl_expf_core((x - nf) * __CL_LN2_HI_F, nb);
}

// 10^x for -46 <= x <= 39 (10^-46 rounds to +0, below 2^-152; 10^39 overflows).
float __cl_exp10f_clamped(float x) {
    // x ln 10 = hi + lo: the product's rounding error is exact by fma, ln 10's own in the rest.
    float hi = x * __CL_LN10_HI_F;
    float lo = fma(x, __CL_LN10_HI_F, -hi) + x * __CL_LN10_LO_F;
    float t = fma(hi, __CL_LOG2E_F, __CL_EXPF_SHIFT);
    float nf = t - __CL_EXPF_SHIFT;
    int nb = as_int(t) - __CL_EXPF_BIASED;
    // hi - nf * high is exact as in exp; the low parts are added after.
    float r = fma(-nf, __CL_LN2_HI_F, hi) + fma(-nf, __CL_LN2_LO_F, lo);
    return __cl_expf_core(r, nb);
}

// The complete forms: every float, clamped at both ends, a NaN restored after.
float __cl_expf_full(float x) {
    return __cl_expf_nan(x, __cl_expf_clamped(__cl_expf_clamp(x, -104.0f, 89.0f)));
}

float __cl_exp2f_full(float x) {
    return __cl_expf_nan(x, __cl_exp2f_clamped(__cl_expf_clamp(x, -151.0f, 129.0f)));
}

float __cl_exp10f_full(float x) {
    return __cl_expf_nan(x, __cl_exp10f_clamped(__cl_expf_clamp(x, -46.0f, 39.0f)));
}

// (1 + u) 2^n = exp(r) 2^n for |r| <= 0.35, given t = n + __CL_EXPF_SHIFT_127 with n within
// -126..127: 2^n from t's bits, the sum and the product one fma.
float __cl_expf_common(float r, float t) {
    float q = fma(r, 1.39269186e-3f, 8.3637666e-3f);
    q = fma(r, q, 4.16665487e-2f);
    q = fma(r, q, 0.166665733f);
    q = fma(r, q, 0.5f);
    float u = fma(r * r, q, r);
    float s = as_float(as_int(t) << 23);
    return fma(u, s, s);
}

// Whether |x| < b for the bits b of a positive float: false for a NaN (an integer compare of
// the bits, which the W-wide code tests as one for the chunk).
int __cl_expf_within(float x, int b) { return (as_int(x) & 0x7fffffff) < b; }

// The common forms take every x below the complete form's upper clamp (a float compare,
// false for a NaN): raised to its lower clamp, on the bits, which leaves the other x as they
// are. A result in the subnormals or zero, e^x for a very negative x as in a Gaussian's
// exp(-x^2 / 2), then costs no second pass over the chunk.

// Largest error over every input: 1.061 ulp, at 26.732475 (0x41d5dc1c).
float __cl_exp_float(float x) {
    float y = __cl_expf_clamped(__cl_expf_floor(x, -104.0f));
    return x < 89.0f ? y : __cl_expf_full(x);
}

// Largest error over every 7th input: 1.075 ulp, at 2.5795274 (0x402516fa).
float __cl_exp2_float(float x) {
    float y = __cl_exp2f_clamped(__cl_expf_floor(x, -151.0f));
    return x < 129.0f ? y : __cl_exp2f_full(x);
}

// Largest error over every 7th input: 1.068 ulp, at -2.2576003 (0xc0107c86).
float __cl_exp10_float(float x) {
    float y = __cl_exp10f_clamped(__cl_expf_floor(x, -46.0f));
    return x < 39.0f ? y : __cl_exp10f_full(x);
}

// e^(hi + lo) for |lo| below 2^-10 (for erfc's exp(-x^2), x^2 as a pair); hi is clamped as
// in exp, a NaN gives some value.
float __cl_expf_pair(float hi, float lo) {
    float hc = __cl_expf_clamp(hi, -104.0f, 89.0f);
    float t = fma(hc, __CL_LOG2E_F, __CL_EXPF_SHIFT);
    float nf = t - __CL_EXPF_SHIFT;
    int nb = as_int(t) - __CL_EXPF_BIASED;
    float r = fma(-nf, __CL_LN2_HI_F, hc) + fma(-nf, __CL_LN2_LO_F, lo);
    return __cl_expf_core(r, nb);
}

// The result of a float logarithm: r for x in (0, +inf), else C99 F.9.3.7's log(+-0) = -inf,
// a NaN for x < 0, log(+inf) = +inf, and a NaN stays. On the bits, with masks of -1 or 0.
float __cl_logf_special(float x, float r) {
    uint ux = as_uint(x);
    // x outside (0, +inf): ux - 1 is not within [0, bits of the largest float).
    uint d = ux - 1u;
    int outside = as_int(d | (0x7f7ffffeu - d)) >> 31;
    int negative = as_int(ux) >> 31;
    int zero = as_int((ux & 0x7fffffffu) - 1u) >> 31;
    // +inf and a NaN stay, a negative x (-0 too) becomes a NaN, then +-0 becomes -inf.
    int special = as_int(ux) | (negative & 0x7fc00000);
    special = bitselect(special, (int)0xff800000, zero);
    return as_float(bitselect(as_int(r), special, outside));
}

// log_b(x) = e c + (f + t) d for x = 2^e (1 + f), 1 + f within [sqrt(1/2), sqrt(2)) and f
// exact, log(1 + f) = f + t with |t| <= f^2 / 2; c = log_b(2) as (c_hi, c_lo) with e c_hi
// exact, d = 1 / ln(b) as (d_hi, d_lo). The leading terms e c_hi + f d_hi are summed exactly
// (the product by fma, the sum by Dekker's fast two-sum: |e c_hi| >= |f d_hi| or e = 0), so
// that only the small terms round before the last addition.
float __cl_logf_base(float x, float c_hi, float c_lo, float d_hi, float d_lo) {
    // A subnormal x is scaled by 2^23 to a normal float, its exponent field lowered by 23
    // after: the bits then still read as 2^e m, with a biased exponent field of 0 or below.
    // sub is -1 for x in [0, 2^-126) and 0 for x >= 2^-126; for a negative x or a NaN it is
    // either (their results are replaced at the end). The bit arithmetic is unsigned, which
    // wraps for those lanes.
    int sub = as_int(as_uint(x) - 0x00800000u) >> 31;
    uint lower = (uint)sub & (23u << 23);
    uint ix = as_uint(x * as_float(0x3f800000u + lower)) - lower;
    // The exponent of x / sqrt(1/2), and the significand brought within [sqrt(1/2), sqrt(2)).
    int e = as_int(ix - 0x3f3504f3u) >> 23;
    float f = as_float(ix - ((uint)e << 23)) - 1.0f;
    float s = f / (2.0f + f);
    float z = s * s;
    float g = fma(z, 0.295821577f, 0.399887323f);
    g = fma(z, g, 0.666666865f);
    float hfsq = 0.5f * f * f;
    float t = fma(s, fma(z, g, hfsq), -hfsq);
    float ef = (float)e;
    float ph = f * d_hi;
    float pl = fma(f, d_hi, -ph);
    float eh = ef * c_hi;
    float hi = eh + ph;
    float err = (eh - hi) + ph;
    float lo = fma(ef, c_lo, fma(t, d_hi, fma(f, d_lo, pl)));
    // Outside (0, +inf) the above is some finite value, replaced here.
    return __cl_logf_special(x, hi + (err + lo));
}

// For a positive normal float x (the common form): x = 2^e (1 + f), 1 + f within
// [sqrt(1/2), sqrt(2)), f exact (the bits' exponent field replaced); *t = log(1 + f) - f; the
// exponent e as a float is the result.
float __cl_logf_common(float x, float *f, float *t) {
    uint ix = as_uint(x);
    uint d = ix - 0x3f3504f3u;
    // The exponent of x / sqrt(1/2) (an arithmetic shift: d is negative for x < sqrt(1/2)),
    // and x with that exponent taken out of its bits.
    int e = as_int(d) >> 23;
    float m = as_float(ix - (d & 0xff800000u));
    float fv = m - 1.0f;
    // 2 + f = m + 1, both exact sums of the same value rounded once.
    float s = fv / (m + 1.0f);
    float z = s * s;
    float g = fma(z, 0.295821577f, 0.399887323f);
    g = fma(z, g, 0.666666865f);
    *f = fv;
    *t = s * fma(z, g, -fv);
    return (float)e;
}

// Whether x is a positive normal float: its bits plus 2^23 (as a signed int) are at least
// 2^24 exactly for bits 0x00800000..0x7f7fffff (zero and the subnormals stay below 2^24, +inf,
// the NaNs and the negative floats wrap below 0 or stay below 2^24).
int __cl_logf_within(float x) { return (int)(as_uint(x) + 0x00800000u) > 0x00ffffff; }

// Largest error over every 7th input: 0.930 ulp, at 0.7064946 (0x3f34dcd5).
float __cl_log_float(float x) {
    if (!__cl_logf_within(x))
        return __cl_logf_base(x, __CL_LN2_16_HI_F, __CL_LN2_16_LO_F, 1.0f, 0.0f);
    float f;
    float t;
    float ef = __cl_logf_common(x, &f, &t);
    // e ln 2 + (f + t), one fma: ln 2 rounded to float differs from it by 1.9e-9, which e
    // multiplies into at most 0.07 ulp of the result (|e ln 2 + f + t| >= 0.34 |e|, as
    // |log(1 + f)| <= ln(2) / 2).
    return fma(ef, __CL_LN2_HI_F, f + t);
}

// Largest error over every 7th input: 1.052 ulp, at 1.4075714 (0x3fb42b4d). Exact for powers
// of two (f = t = 0).
float __cl_log2_float(float x) {
    if (!__cl_logf_within(x))
        return __cl_logf_base(x, 1.0f, 0.0f, __CL_LOG2E_F, __CL_INV_LN2_LO_F);
    float f;
    float t;
    float ef = __cl_logf_common(x, &f, &t);
    // e + (f + t) / ln 2: f's product by 1 / ln 2 as a pair (the fma's exact product), the
    // sum with e rounded once (|e| >= 1 > |f / ln 2|, or e = 0).
    return ef + fma(f, __CL_LOG2E_F, fma(f, __CL_INV_LN2_LO_F, t * __CL_LOG2E_F));
}

// Largest error over every 7th input: 0.986 ulp, at 0.65253896 (0x3f270ccb).
float __cl_log10_float(float x) {
    if (!__cl_logf_within(x))
        return __cl_logf_base(x, __CL_LOG10_2_16_HI_F, __CL_LOG10_2_16_LO_F, __CL_INV_LN10_HI_F,
                              __CL_INV_LN10_LO_F);
    float f;
    float t;
    float ef = __cl_logf_common(x, &f, &t);
    // e log10(2) + (f + t) / ln 10, the leading products exact inside the fmas (e times the
    // high part of log10(2) exact on its own), the small terms summed first.
    float lo = fma(f, __CL_INV_LN10_LO_F, ef * __CL_LOG10_2_16_LO_F);
    return fma(ef, __CL_LOG10_2_16_HI_F, fma(f, __CL_INV_LN10_HI_F, fma(t, __CL_INV_LN10_HI_F, lo)));
}

// The float powers and roots (pow, pown, powr, rootn, cbrt), computed in float as
// 2^(y log2|x|): the exponent must be right to about 2^-22 where it is near 150 (beyond,
// the result is 0 or infinite), so log2|x| is carried as a pair of floats (hi, lo) to about
// 2^-29 of itself, the product by y kept as a pair (the fma residual), and 2^(hi + lo) takes
// the pair. Each is within its table 65 bound (16 ulp; cbrt 2 ulp) with room to spare: the
// largest errors of a sampled sweep (crates/core/tests/float_math.rs) are noted at each.
//
// - log2|x| = e + log(1 + f) / ln 2 for |x| = 2^e (1 + f), 1 + f within [sqrt(1/2), sqrt(2)),
//   f exact; log(1 + f) = 2 atanh(s) = 2s + s z (2/3 + 2z/5 + ... + 2z^5/13), s = f / (2 + f)
//   as a pair (the divisor 2 + f and the quotient's residual exact), z = s^2 <= 0.0295 (the
//   next term is below 2^-34 of the result). 2s / ln 2 is summed exactly with e; the rest is
//   within about 2^-30 of log2|x|.
// - 2^(hi + lo) as exp2: n = rint(hi), 2^(hi - n + lo) by __cl_expf_core.

// v where c (0 or 1) is set, else w: select() of a comparison is a compare and a blend in the
// W-wide code (a bitselect on -c took the comparison to 0 or 1 and back to a mask first).
float __cl_f_if(int c, float v, float w) { return select(w, v, c); }

// log2 of m 2^-k = *hi + *lo for a positive normal float m (k is 0, or 23 where the caller
// scaled a subnormal up); other m give some value.
void __cl_log2f_pair_core(float m, int k, float *hi, float *lo) {
    uint ix = as_uint(m);
    int e = as_int(ix - 0x3f3504f3u) >> 23;
    float f = as_float(ix - ((uint)e << 23)) - 1.0f;
    // 2 + f = d + dl exactly (|f| < 2), s + sl = f / (d + dl) to about 2^-46: one division
    // for rd = 1/d, s = f rd within two ulps, and the residual f - s d (one fma, rounded
    // only far below s's ulp) times rd gives the rest.
    float d = 2.0f + f;
    float dl = (2.0f - d) + f;
    float rd = 1.0f / d;
    float s = f * rd;
    float sl = (fma(-s, d, f) - s * dl) * rd;
    float z = s * s;
    float p = fma(z, 0.15384615f, 0.18181818f);
    p = fma(z, p, 0.22222222f);
    p = fma(z, p, 0.28571429f);
    p = fma(z, p, 0.4f);
    p = fma(z, p, 0.66666667f);
    // s z p with the products' rounding errors kept.
    float ze = fma(s, s, -z);
    float sz = s * z;
    float sze = fma(s, z, -sz) + s * ze;
    float tail = fma(sz, p, sze * p);
    // sl enters through the derivative of 2 atanh(s), 2 / (1 - z) ~ 2 + 2z: the tail's own
    // share of it (3 s^2 (2/3) sl) is as large as the tail's roundings together.
    float low = fma(fma(2.0f, z, 2.0f), sl, tail);
    // e + (2s + 2sl + tail) / ln 2: the leading product exact as a pair, its sum with e a
    // fast two_sum (|e| >= 1 > |2s / ln 2|, or e = 0).
    float s2 = 2.0f * s;
    float ph = s2 * __CL_LOG2E_F;
    float pl = fma(s2, __CL_LOG2E_F, -ph) + fma(s2, __CL_INV_LN2_LO_F, low * __CL_LOG2E_F);
    float ef = (float)(e - k);
    float h = ef + ph;
    float l = ((ef - h) + ph) + pl;
    float r = h + l;
    *hi = r;
    *lo = l - (r - h);
}

// log2|x| = *hi + *lo for finite x != 0 (subnormals included); other x give some value.
void __cl_log2f_pair(float x, float *hi, float *lo) {
    // A subnormal |x| is scaled by 2^23 to a normal float (sub is -1 for |x| below 2^-126).
    float ax = fabs(x);
    int sub = as_int(as_uint(ax) - 0x00800000u) >> 31;
    __cl_log2f_pair_core(ax * as_float(0x3f800000u + ((uint)sub & (23u << 23))), sub & 23, hi,
                         lo);
}

// 2^(hi + lo) for |lo| <= ulp(hi) (where hi is beyond the range the result is 0 or infinite,
// lo is clamped to +-1); a NaN gives some value.
float __cl_exp2f_pair(float hi, float lo) {
    float hc = __cl_expf_clamp(hi, -160.0f, 140.0f);
    float lc = fmin(fmax(lo, -1.0f), 1.0f);
    float t = hc + __CL_EXPF_SHIFT;
    float nf = t - __CL_EXPF_SHIFT;
    int nb = as_int(t) - __CL_EXPF_BIASED;
    // hc - nf is exact, within 1/2; with lc, times ln 2, within 0.35.
    return __cl_expf_core(((hc - nf) + lc) * __CL_LN2_HI_F, nb);
}

// 2^(hi + lo) for |hi| < 126 and |lo| <= ulp(hi), by exp2's common form: n = rint(hi) within
// -126..126, hi - n exact and within 1/2, 2^n one normal factor.
float __cl_exp2f_common_pair(float hi, float lo) {
    float t = hi + __CL_EXPF_SHIFT_127;
    float nf = t - __CL_EXPF_SHIFT_127;
    return __cl_expf_common(((hi - nf) + lo) * __CL_LN2_HI_F, t);
}

// y log2 x = *lo + the result for a positive normal x: log2 x as a pair without the
// subnormal scaling, its product by y as a pair (the fma residual).
float __cl_powf_exponent(float x, float y, float *lo) {
    float lh;
    float ll;
    __cl_log2f_pair_core(x, 0, &lh, &ll);
    float th = y * lh;
    *lo = fma(y, lh, -th) + y * ll;
    return th;
}

// |x|^(yh + yl) for finite x != 0, yh + yl exact as floats (|yl| small beside yh).
float __cl_powf_abs(float x, float yh, float yl) {
    float lh;
    float ll;
    __cl_log2f_pair(x, &lh, &ll);
    float th = yh * lh;
    float tl = fma(yh, lh, -th) + fma(yh, ll, yl * lh);
    return __cl_exp2f_pair(th, tl);
}

// pow(x, y) given r = |x|^y for finite nonzero x and finite y: the sign and the special
// values of C99 F.9.4.4, as __cl_pow_edges, on masks.
float __cl_powf_edges(float x, float y, float r) {
    float ax = fabs(x);
    float h = y * 0.5f;
    int yint = trunc(y) == y;
    int yodd = yint & (trunc(h) != h);
    int xneg = x < 0.0f;
    float inf = as_float(0x7f800000);
    float nan = as_float(0x7fc00000);
    r = __cl_f_if(xneg & yodd, -r, r);
    r = __cl_f_if(xneg & !yint, nan, r);
    int zero = ax == 0.0f;
    float edge = __cl_f_if((y < 0.0f) == zero, inf, 0.0f);
    edge = __cl_f_if(yodd & (as_int(x) < 0), -edge, edge);
    r = __cl_f_if(zero | (ax == inf), edge, r);
    float inf_y = __cl_f_if((ax < 1.0f) == (y < 0.0f), inf, 0.0f);
    inf_y = __cl_f_if(ax == 1.0f, 1.0f, inf_y);
    r = __cl_f_if(fabs(y) == inf, inf_y, r);
    r = __cl_f_if((x != x) | (y != y), x + y, r);
    return __cl_f_if((y == 0.0f) | (x == 1.0f), 1.0f, r);
}

// pow's common form, for a positive normal x and y log2 x within +-126 (the result a normal
// float, and no special value of C99 F.9.4.4 but x = 1 and y = 0, which the form gives
// exactly): log2 x as a pair without the subnormal scaling, 2^(y log2 x) by exp2's common
// form on the pair (y log2 x - n exact, within 1/2). The complete form (the clamps, the signs
// and the special values on masks) only where a lane is outside; a NaN y fails the test.
// Largest error of the sampled sweep: 0.99 ulp.
float __cl_pow_float_float(float x, float y) {
    float tl;
    float th = __cl_powf_exponent(x, y, &tl);
    if (__cl_logf_within(x) & __cl_expf_within(th, 0x42fc0000))
        return __cl_exp2f_common_pair(th, tl);
    return __cl_powf_edges(x, y, __cl_powf_abs(x, y, 0.0f));
}

// powr(x, y) given r = pow(x, y), as __cl_powr_edges.
float __cl_powrf_edges(float x, float y, float r) {
    float inf = as_float(0x7f800000);
    float nan = as_float(0x7fc00000);
    // 7.5.1: powr(+-0, y) is +inf for y < 0, +0 for y > 0, a NaN for y = +-0.
    float z = __cl_f_if(y < 0.0f, inf, 0.0f);
    z = __cl_f_if(y == 0.0f, nan, z);
    r = __cl_f_if(x == 0.0f, z, r);
    // powr(+inf, +-0) and powr(+1, +-inf) are NaNs; so is powr(x < 0, y).
    r = __cl_f_if((x == inf) & (y == 0.0f), nan, r);
    r = __cl_f_if((x == 1.0f) & (fabs(y) == inf), nan, r);
    r = __cl_f_if(x < 0.0f, nan, r);
    // powr(x, NaN) and powr(NaN, y) return the NaN.
    return __cl_f_if((x != x) | (y != y), x + y, r);
}

float __cl_powr_float_float(float x, float y) {
    return __cl_powrf_edges(x, y, __cl_pow_float_float(x, y));
}

// 7.5.1: pown(+-0, n) is +0 for even n > 0 and +-0 for odd n > 0, +inf for even n < 0 and
// +-inf for odd n < 0, and pown(x, 0) is 1: pow's rules for an integral y (C99 F.9.4.4), with
// n's own parity (a float n beyond 2^24 would lose it).
float __cl_pownf_edges(float x, int n, float r) {
    float ax = fabs(x);
    int odd = n & 1;
    float inf = as_float(0x7f800000);
    r = __cl_f_if((x < 0.0f) & odd, -r, r);
    int zero = ax == 0.0f;
    float edge = __cl_f_if((n < 0) == zero, inf, 0.0f);
    edge = __cl_f_if(odd & (as_int(x) < 0), -edge, edge);
    r = __cl_f_if(zero | (ax == inf), edge, r);
    r = __cl_f_if(x != x, x, r);
    return __cl_f_if(n == 0, 1.0f, r);
}

// pown of every float: n = nh + nl, both exact as floats (n itself within 2^24, else its bits
// above the lowest eight and those eight).
float __cl_pown_full(float x, int n, int big) {
    int low_bits = n & (-big & 0xff);
    float nh = (float)(n - low_bits);
    float nl = (float)low_bits;
    return __cl_pownf_edges(x, n, __cl_powf_abs(x, nh, nl));
}

// pown's common form, as pow's, for a normal x of either sign, |n| <= 2^24 (exact as a float)
// and n log2|x| within +-126; an odd n gives x's sign (pown(-1, n) and pown(x, 0) come out
// exact). The complete form only where a lane is outside.
// Largest error of the sampled sweep: 1.22 ulp.
float __cl_pown_float_int(float x, int n) {
    int big = (uint)(n + 0x01000000) > 0x02000000u;
    float tl;
    float th = __cl_powf_exponent(fabs(x), (float)n, &tl);
    float v = __cl_exp2f_common_pair(th, tl);
    v = __cl_f_if((x < 0.0f) & (n & 1), -v, v);
    return (__cl_logf_within(fabs(x)) & __cl_expf_within(th, 0x42fc0000) & !big)
               ? v
               : __cl_pown_full(x, n, big);
}

// rootn(x, n) given r = |x|^(1/n) for finite nonzero x, as __cl_rootn_edges.
float __cl_rootnf_edges(float x, int n, float r) {
    float ax = fabs(x);
    int odd = n & 1;
    float inf = as_float(0x7f800000);
    // 7.5.1: rootn(+-0, n) is +inf for even n < 0, +-inf for odd n < 0, +0 for even n > 0
    // and +-0 for odd n > 0; the infinities mirror that.
    float edge = __cl_f_if((n < 0) == (ax == 0.0f), inf, 0.0f);
    r = __cl_f_if((ax == 0.0f) | (ax == inf), edge, r);
    r = __cl_f_if(odd, copysign(r, x), r);
    // A NaN for x < 0 and even n, and for n = 0.
    r = __cl_f_if(((x < 0.0f) & !odd) | (n == 0), as_float(0x7fc00000), r);
    return __cl_f_if(x != x, x, r);
}

// log2|x| / d as a pair, given rd = 1/d rounded (d = n rounded to float: beyond 2^24 the
// exponent is below 2^-16, where d's rounding is far inside the bound): qh = log2|x| rd within
// two ulps, the residual (one fma) times rd the rest.
float __cl_rootf_log2(float x, float d, float rd, float *ql) {
    float lh;
    float ll;
    __cl_log2f_pair(x, &lh, &ll);
    float qh = lh * rd;
    *ql = (fma(-qh, d, lh) + ll) * rd;
    return qh;
}

// Largest error of the sampled sweep: 1.01 ulp.
float __cl_rootn_float_int(float x, int n) {
    float d = (float)n;
    float ql;
    float qh = __cl_rootf_log2(x, d, 1.0f / d, &ql);
    return __cl_rootnf_edges(x, n, __cl_exp2f_pair(qh, ql));
}

// |x|^(1/3) by exp2's common form without a test: |log2|x|| / 3 is below 50 for every finite
// x != 0, so n stays within -50..50 (an infinity, a NaN or a zero give some value, replaced).
// Largest error of the sampled sweep: 1.07 ulp; over every float input 1.19 ulp (at
// 0x0150bf17).
float __cl_cbrt_float(float x) {
    float ql;
    float qh = __cl_rootf_log2(x, 3.0f, 1.0f / 3.0f, &ql);
    float r = copysign(__cl_exp2f_common_pair(qh, ql), x);
    // C99 F.9.4.1: cbrt(+-0) = +-0, cbrt(+-inf) = +-inf (and a NaN stays): x itself where
    // its magnitude's bits are 0 or those of +inf and above.
    int keep = (as_uint(x) & 0x7fffffffu) - 1u >= 0x7f7fffffu;
    return __cl_f_if(keep, x, r);
}

// expm1, log1p, sinh, cosh and tanh for float, computed in float on the pieces above; each
// within its table 65 bound (expm1 3 ulp, log1p 2, sinh and cosh 4, tanh 5), the largest
// errors of the sampled sweep noted at each.

// e^x 2^k (k = -1 or 0) for x clamped to [-104, 90]: exp's reduction and core; a NaN gives
// some value.
float __cl_expf_scaled(float x, int k) {
    float xc = __cl_expf_clamp(x, -104.0f, 90.0f);
    float t = fma(xc, __CL_LOG2E_F, __CL_EXPF_SHIFT);
    float nf = t - __CL_EXPF_SHIFT;
    int nb = as_int(t) - __CL_EXPF_BIASED + k;
    float r = fma(-nf, __CL_LN2_HI_F, xc);
    r = fma(-nf, __CL_LN2_LO_F, r);
    return __cl_expf_core(r, nb);
}

// expm1(x) = 2^n (1 + u) - 1 = (2^n - 1) + 2^n u for x = n ln 2 + r, u = e^r - 1 (exp's
// polynomial): 2^n - 1 is exact for -24 <= n <= 24 and the fma rounds once; from n = 25 on
// the -1 is below a quarter ulp and the result is exp's, below -17.4 it rounds to -1.
// Largest error of the sampled sweep: 1.34 ulp; over every float input 1.64 ulp (at
// 0x3ece238b).
float __cl_expm1_float(float x) {
    float xc = __cl_expf_clamp(x, -18.0f, 89.0f);
    float t = fma(xc, __CL_LOG2E_F, __CL_EXPF_SHIFT);
    float nf = t - __CL_EXPF_SHIFT;
    int n = as_int(t) - 0x4b400000;
    float r = fma(-nf, __CL_LN2_HI_F, xc);
    r = fma(-nf, __CL_LN2_LO_F, r);
    float q = fma(r, 1.39269186e-3f, 8.3637666e-3f);
    q = fma(r, q, 4.16665487e-2f);
    q = fma(r, q, 0.166665733f);
    q = fma(r, q, 0.5f);
    float u = fma(r * r, q, r);
    // 2^n for n <= 24 (a larger n's lanes take the other form).
    float s = as_float((min(n, 24) + 127) << 23);
    float small = fma(s, u, s - 1.0f);
    float large = __cl_expf_core(r, n + 254);
    float v = __cl_f_if(n > 24, large, small);
    // Below 2^-25 in magnitude (+-0 included, C99 F.9.3.3) expm1(x) rounds to x.
    v = __cl_f_if((as_uint(x) & 0x7fffffffu) < 0x33000000u, x, v);
    return __cl_expf_nan(x, v);
}

// log1p(x) = log(u + err) = log u + err / u for 1 + x = u + err exactly (Knuth's two_sum),
// log u from the pair of log2 u, times ln 2 as a pair.
// Largest error of the sampled sweep: 0.66 ulp; over every float input 0.66 ulp (at
// 0xb3d00000).
float __cl_log1p_float(float x) {
    float u = 1.0f + x;
    float bb = u - 1.0f;
    float err = (1.0f - (u - bb)) + (x - bb);
    float lh;
    float ll;
    __cl_log2f_pair(u, &lh, &ll);
    float h = lh * __CL_LN2_HI_F;
    float l = fma(lh, __CL_LN2_HI_F, -h) + fma(lh, __CL_LN2_LO_F, fma(ll, __CL_LN2_HI_F, err / u));
    float v = __cl_logf_special(u, h + l);
    // log1p(+-0) = +-0 (C99 F.9.3.9); below 2^-25 in magnitude log1p(x) rounds to x.
    return __cl_f_if((as_uint(x) & 0x7fffffffu) < 0x33000000u, x, v);
}

// sinh: below 1 in magnitude its Taylor series to x^13 (the next term is below 2^-32 of the
// result); above, e^|x|/2 - e^-|x|/2 with h = e^|x|/2 (exp with the halving in its exponent,
// so that h stays finite up to sinh's own overflow) and e^-|x|/2 = 1/(4h).
// Largest error of the sampled sweep: 1.39 ulp.
float __cl_sinh_float(float x) {
    float ax = fabs(x);
    float z = x * x;
    float p = fma(z, 1.6059044e-10f, 2.5052108e-8f);
    p = fma(z, p, 2.7557319e-6f);
    p = fma(z, p, 1.9841270e-4f);
    p = fma(z, p, 8.3333333e-3f);
    p = fma(z, p, 0.16666667f);
    float near0 = fma(x * z, p, x);
    float h = __cl_expf_scaled(ax, -1);
    float far = copysign(h - 0.25f / h, x);
    float v = __cl_f_if(ax < 1.0f, near0, far);
    // sinh(+-0) = +-0, sinh(+-inf) = +-inf, and a NaN stays (C99 F.9.2.5): x itself.
    int keep = (as_uint(x) & 0x7fffffffu) >= 0x7f800000u;
    return __cl_f_if(keep, x, v);
}

// cosh = e^|x|/2 + e^-|x|/2 as in sinh (no cancellation).
// Largest error of the sampled sweep: 1.27 ulp.
float __cl_cosh_float(float x) {
    float h = __cl_expf_scaled(fabs(x), -1);
    return __cl_expf_nan(x, h + 0.25f / h);
}

// tanh below 0.625 in magnitude is x + x^3 P(x^2), P of degree 5 fitted to
// (tanh(x)/x - 1)/x^2 on [0, 0.390625] (mpmath.chebyfit, 6 terms: relative error below
// 0.08 2^-24 with the coefficients rounded to float); above, 1 - 2/(e^2|x| + 1) with the
// common form of exp, |x| clamped to 9.1 (1 - tanh is below 2^-26 from there on), the result
// at least 0.55 so the subtraction loses nothing. Both forms are computed and one selected.
// Largest error over every 7th input: 1.32 ulp, of the sampled sweep 1.10 ulp (table 65: 5).
float __cl_tanh_float(float x) {
    float ax = fabs(x);
    int small = ax < 0.625f;
    float a = select(0.625f, ax, small);
    float z = a * a;
    float p = fma(z, 2.292744815e-03f, -8.343945257e-03f);
    p = fma(z, p, 2.176891826e-02f);
    p = fma(z, p, -5.395925790e-02f);
    p = fma(z, p, 1.333330423e-01f);
    p = fma(z, p, -3.333333433e-01f);
    float near0 = fma(a * z, p, a);
    // |x| clamped to [0.625, 9.1] (a NaN becomes 0.625; its result is replaced below).
    float b = select(ax, 0.625f, small);
    b = select(b, 9.1f, (int)(b > 9.1f));
    float far = 1.0f - 2.0f / (__cl_exp_float(2.0f * b) + 1.0f);
    // tanh(+-0) = +-0, tanh(+-inf) = +-1 (C99 F.9.2.6); a NaN stays.
    float v = copysign(select(far, near0, small), x);
    return select(v, x, isnan(x));
}

// asinh, acosh, atanh, rsqrt and hypot for float, computed in float on the pieces above.
// Largest errors of the sampled sweep (crates/core/tests/float_math.rs) at each.

// log(2 a) = (log2 a + 1) ln 2 for a > 0, from the log2 pair (where a^2 would overflow).
float __cl_logf_twice(float a) {
    float lh;
    float ll;
    __cl_log2f_pair(a, &lh, &ll);
    float h = lh + 1.0f;
    float l = ((1.0f - h) + lh) + ll;
    float p = h * __CL_LN2_HI_F;
    return p + (fma(h, __CL_LN2_HI_F, -p) + fma(h, __CL_LN2_LO_F, l * __CL_LN2_HI_F));
}

// asinh|x| = log1p(|x| + x^2 / (1 + sqrt(1 + x^2))) up to 2^12, log(2|x|) above (the rest is
// below 2^-26 of it); below 2^-12 asinh(x) rounds to x (+-0 and NaN too), +-inf stays.
// Largest error of the sampled sweep: 1.34 ulp.
float __cl_asinh_float(float x) {
    float ax = fabs(x);
    float a = fmin(ax, 0x1p12f);
    float a2 = a * a;
    float w = a + a2 / (1.0f + sqrt(1.0f + a2));
    float v = __cl_f_if(ax > 0x1p12f, __cl_logf_twice(ax), __cl_log1p_float(w));
    v = copysign(v, x);
    int keep = ((as_uint(x) & 0x7fffffffu) < 0x39800000u) | ((as_uint(x) & 0x7fffffffu) >= 0x7f800000u);
    return __cl_f_if(keep, x, v);
}

// acosh(x) = log1p(t + sqrt(2t + t^2)) with t = x - 1 (exact) up to 2^12, log(2x) above;
// acosh(1) = +0, acosh(+inf) = +inf, a NaN below 1.
// Largest error of the sampled sweep: 1.63 ulp.
float __cl_acosh_float(float x) {
    float a = fmin(x, 0x1p12f);
    float t = a - 1.0f;
    float w = t + sqrt(fma(t, t, 2.0f * t));
    float v = __cl_f_if(x > 0x1p12f, __cl_logf_twice(x), __cl_log1p_float(w));
    v = __cl_f_if(x == as_float(0x7f800000), x, v);
    // x < 1 (-inf too) and NaN: a NaN (w is one below 1, its log1p too; x + x keeps a NaN).
    return __cl_f_if(!(x >= 1.0f), x + as_float(0x7fc00000), v);
}

// atanh|x| = log1p(2|x| / (1 - |x|)) / 2, the argument as 2|x| + 2x^2 / (1 - |x|) below 1/2;
// atanh(+-1) = +-inf, a NaN beyond 1, and below 2^-12 atanh(x) rounds to x (+-0 and NaN too).
// Largest error of the sampled sweep: 1.26 ulp.
float __cl_atanh_float(float x) {
    float ax = fabs(x);
    float d = 1.0f - ax;
    float arg = __cl_f_if(ax < 0.5f, fma(2.0f * ax, ax / d, 2.0f * ax), 2.0f * ax / d);
    float v = copysign(0.5f * __cl_log1p_float(arg), x);
    v = __cl_f_if(ax > 1.0f, as_float(0x7fc00000), v);
    int keep = ((as_uint(x) & 0x7fffffffu) < 0x39800000u) | (x != x);
    return __cl_f_if(keep, x, v);
}

// 1 / sqrt(x): two correctly rounded operations, within 1.5 ulp together (table 65: 2; the
// sampled sweep's largest error: 1.43 ulp). rsqrt(+-0) = +-inf, rsqrt(+inf) = +0, a NaN
// below 0.
float __cl_rsqrt_float(float x) { return 1.0f / sqrt(x); }

// sqrt(b^2 + s^2) for b = max(|x|, |y|), s = min, both scaled by a power of two so that the
// squares neither overflow nor leave the normal floats (beyond 2^50 by 2^-70, below 2^-50 by
// 2^90); the sum is one fma. C99 F.9.4.3: hypot(+-inf, y) is +inf even for a NaN y.
// Largest error of the sampled sweep: 0.87 ulp.
float __cl_hypot_float_float(float x, float y) {
    float ax = fabs(x);
    float ay = fabs(y);
    // The larger and the smaller as integers (in order as such, both being >= +0; a NaN's
    // result is replaced below): two instructions, where fmax and fmin order NaNs and zeros.
    float b = as_float(max(as_int(ax), as_int(ay)));
    float s = as_float(min(as_int(ax), as_int(ay)));
    float f = __cl_f_if(b > 0x1p50f, 0x1p-70f, __cl_f_if(b < 0x1p-50f, 0x1p90f, 1.0f));
    float bs = b * f;
    float ss = s * f;
    float r = sqrt(fma(bs, bs, ss * ss)) / f;
    float inf = as_float(0x7f800000);
    r = __cl_f_if((x != x) | (y != y), x + y, r);
    return __cl_f_if((ax == inf) | (ay == inf), inf, r);
}

#undef __CL_EXPF_SHIFT
#undef __CL_EXPF_BIASED
#undef __CL_EXPF_SHIFT_127
#undef __CL_LN2_HI_F
#undef __CL_LN2_LO_F
#undef __CL_LOG2E_F
#undef __CL_LN10_HI_F
#undef __CL_LN10_LO_F
#undef __CL_INV_LN2_LO_F
#undef __CL_INV_LN10_HI_F
#undef __CL_INV_LN10_LO_F
#undef __CL_LN2_16_HI_F
#undef __CL_LN2_16_LO_F
#undef __CL_LOG10_2_16_HI_F
#undef __CL_LOG10_2_16_LO_F

#undef __CL_LN2_HI
#undef __CL_LN2_LO
#undef __CL_LN2
#undef __CL_LN2_32_HI
#undef __CL_LN2_32_LO
#undef __CL_INV_LN2_32
#undef __CL_INV_LN2_HI
#undef __CL_INV_LN2_LO
#undef __CL_INV_LN10_HI
#undef __CL_INV_LN10_LO
#undef __CL_LN10_HI
#undef __CL_LN10_LO
#undef __CL_LOG10_2_HI
#undef __CL_LOG10_2_LO
#undef __CL_LOG2_10_32
#undef __CL_DBL_MIN
#undef __CL_TWO54
#undef __CL_INF_D
#undef __CL_NAN_D

