// 6.15.2 special functions: erf, erfc, tgamma, lgamma, lgamma_r.
//
// Each is written for double to meet table 68's double bounds (erf, erfc, tgamma: 16 ulp;
// lgamma: undefined, kept accurate away from its zeros); the float forms of tgamma and lgamma
// round the double result once (table 65's bounds are the same ulp counts of float), those of
// erf and erfc are computed in float (after erfc's double form).
//
// The file is self-contained: what it needs of exp, log and sin(pi x) it computes with more
// than double precision (double-double arithmetic, Dekker 1971, with fma for exact products),
// since tgamma's exp((x - 1/2) log x - x) and erfc's exp(-x^2) must be exact to far below an
// ulp of double in their arguments.
//
// Coefficients: the Taylor series of exp, sin(pi r), cos(pi r), the atanh series of log and
// Stirling's series (Bernoulli numbers) are exact rationals rounded to double; the tables for
// erf, erfc and lgamma near 1 and 2 are Chebyshev fits (near-minimax polynomials) computed
// for this file at 60 significant digits with mpmath's chebyfit over the stated intervals and
// rounded to double. Their relative error before evaluation is below 2^-54 on each interval.

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// ln 2 = LN2_HI + LN2_LO; LN2_HI has 33 significant bits, so k LN2_HI is exact for |k| < 2^20.
#define __CL_SP_LN2_HI 0x1.62e42feep-1
#define __CL_SP_LN2_LO 0x1.a39ef35793c76p-33
#define __CL_SP_INV_LN2 0x1.71547652b82fep+0
// log(sqrt(2 pi)), log(pi) and pi as double-double values.
#define __CL_SP_LNSQRT2PI_HI 0x1.d67f1c864beb5p-1
#define __CL_SP_LNSQRT2PI_LO -0x1.65b5a1b7ff5dfp-55
#define __CL_SP_LNPI_HI 0x1.250d048e7a1bdp+0
#define __CL_SP_LNPI_LO 0x1.7abf2ad8d5088p-57
#define __CL_SP_PI_HI 0x1.921fb54442d18p+1
#define __CL_SP_PI_LO 0x1.1a62633145c07p-53
// Euler's constant gamma.
#define __CL_SP_EULER 0x1.2788cfc6fb619p-1

// erf(x) / x as a polynomial in t = x^2 on [0, 1], constant term first.
__constant double __cl_sp_erf_poly[13] = {
    0x1.20dd750429b6dp+0, -0x1.812746b0379e6p-2,
    0x1.ce2f21a042b30p-4, -0x1.b82ce31284e00p-6,
    0x1.565bcd0dbaa38p-8, -0x1.c02db3dac435fp-11,
    0x1.f9a321d5b8e1ep-14, -0x1.f4d1e3183f7aep-17,
    0x1.b9df224ca4b97p-20, -0x1.5f1ecb6f0764cp-23,
    0x1.f7b4bf3b13964p-27, -0x1.389d4f2641625p-30,
    0x1.05ffd737fb32ep-34,
};
// erfc(x) exp(x^2) as polynomials in x - mid on [1/2, 3/4), [3/4, 1), [1, 3/2), [3/2, 2), [2, 3),
// [3, 4): sixteen coefficients each, constant term first.
__constant double __cl_sp_erfc_mid[96] = {
    0x1.1d16b5809eaf6p-1, -0x1.babd0e4f1a24dp-2,
    0x1.2577420fcd07dp-2, -0x1.59c35c06f7ffep-3,
    0x1.72d46a9b3f0fap-4, -0x1.6fce5df0ba11ap-5,
    0x1.552fe7000696ap-6, -0x1.2a7f4fb7adc29p-7,
    0x1.efd03c2cf8f54p-9, -0x1.88ef9972b05ebp-10,
    0x1.2a6ab0c6813d5p-11, -0x1.b3e632bff8b54p-13,
    0x1.331237f116d8bp-14, -0x1.a260d3b2ef5fcp-16,
    0x1.15f6f33604c9dp-17, -0x1.644d9511eccd3p-19,
    0x1.db747ee409ac5p-2, -0x1.4369f60195edcp-2,
    0x1.80ef8f454cf88p-3, -0x1.9d5868de0b581p-4,
    0x1.9831c2c85003fp-5, -0x1.779dd2a3da23dp-6,
    0x1.452648d62b758p-7, -0x1.0ab3832b9a73bp-8,
    0x1.a0ef7ee607537p-10, -0x1.37fe70bb04e83p-11,
    0x1.c0b37ccceaeeep-13, -0x1.370a713ba4986p-14,
    0x1.a0d24c64c8632p-16, -0x1.0e97ccc0bacd3p-17,
    0x1.570847a5556d0p-19, -0x1.a461bd749e772p-21,
    0x1.78a692138767ap-2, -0x1.abaacdbfa8b07p-3,
    0x1.b56f45eef7e58p-4, -0x1.9b635ac624ad5p-5,
    0x1.68a25a6641eeep-6, -0x1.299636d6c5877p-7,
    0x1.d1b695aac9c27p-9, -0x1.5b8bc94c695cbp-10,
    0x1.f0fe6f9ae86abp-12, -0x1.55c07d13e294bp-13,
    0x1.c57052765239ap-15, -0x1.22fc5054bd4fep-16,
    0x1.6a07b615332acp-18, -0x1.b5a9c12d213fap-20,
    0x1.06b5cf20ecb1dp-21, -0x1.2cf6c190c7ee6p-23,
    0x1.23cfc2f1dc7e0p-2, -0x1.0c3d538446447p-3,
    0x1.c8d0cef0f810dp-5, -0x1.6cb52fe48945fp-6,
    0x1.13648a11ffe68p-7, -0x1.8bf716a8eabe1p-9,
    0x1.106bd5c04629bp-10, -0x1.6838884ab9b2dp-12,
    0x1.cb4c6872b02bep-14, -0x1.1b2912c769908p-15,
    0x1.5273ffa4c4911p-17, -0x1.88fb3c1677823p-19,
    0x1.bc018b6df04afp-21, -0x1.e90f21a9c1e12p-23,
    0x1.0b6c422547b9dp-24, -0x1.18d2818030868p-26,
    0x1.afbb3f3b7343bp-3, -0x1.3086d7f01ac85p-4,
    0x1.98958a7a8e4b2p-6, -0x1.0632076809e02p-7,
    0x1.435c04e205695p-9, -0x1.809ce8ab511d7p-11,
    0x1.ba8a67d47f1bep-13, -0x1.edd4239d4f7cdp-15,
    0x1.0bcba0cbc77a2p-16, -0x1.1ad10b982cca0p-18,
    0x1.23512be3a8587p-20, -0x1.2515bf72e2aefp-22,
    0x1.20001e7e74de6p-24, -0x1.1577396695e75p-26,
    0x1.147e262e8c3b4p-28, -0x1.ff38c1d4f39eep-31,
    0x1.3e0a99a0ee914p-3, -0x1.5285d2eb1ef74p-5,
    0x1.5d581133378eep-7, -0x1.5e5d7e9899182p-9,
    0x1.5632136d8c871p-11, -0x1.460abd6b257aap-13,
    0x1.2f839e54cd10cp-15, -0x1.146bc406f87d7p-17,
    0x1.ed2a955d8df2ep-20, -0x1.af5d64282a7e5p-22,
    0x1.725027c5bf1e9p-24, -0x1.384594a15adbap-26,
    0x1.02b1e305bf75dp-28, -0x1.a5f476d20075dp-31,
    0x1.604abf62ed135p-33, -0x1.16441025d9425p-35,
};
// erfc(x) exp(x^2) x as a polynomial in u = 1/x^2 on [0, 1/16] (x >= 4).
__constant double __cl_sp_erfc_tail[16] = {
    0x1.20dd750429b6dp-1, -0x1.20dd750429b54p-2,
    0x1.b14c2f86360bdp-2, -0x1.0ecf9daf5d178p+0,
    0x1.d9eb516c68a6fp+1, -0x1.0a94270f7922dp+4,
    0x1.6e859d847245cp+6, -0x1.29907d25ac21fp+9,
    0x1.155083f96552cp+12, -0x1.1e2db3cbd1648p+15,
    0x1.33f6600f66e90p+18, -0x1.3c32fd41d1422p+21,
    0x1.16858e480fa67p+24, -0x1.763e63825e792p+26,
    0x1.490a16223ea52p+28, -0x1.16028ed3905d5p+29,
};
// erfc(x) exp(x^2) as polynomials in x - mid on [1/2, 3/4), [3/4, 1), [1, 3/2), [3/2, 2), [2, 3),
// [3, 4) (sixteen coefficients each, constant term first), then as a polynomial in 1/x^2 on
// [0, 1/16] times 1/x: the coefficients of the double tables above rounded to float.
__constant float __cl_sp_erfcf_poly[112] = {
    0x1.1d16b6p-1f, -0x1.babd0ep-2f, 0x1.257742p-2f, -0x1.59c35cp-3f,
    0x1.72d46ap-4f, -0x1.6fce5ep-5f, 0x1.552fe8p-6f, -0x1.2a7f5p-7f,
    0x1.efd03cp-9f, -0x1.88ef9ap-10f, 0x1.2a6abp-11f, -0x1.b3e632p-13f,
    0x1.331238p-14f, -0x1.a260d4p-16f, 0x1.15f6f4p-17f, -0x1.644d96p-19f,
    0x1.db747ep-2f, -0x1.4369f6p-2f, 0x1.80ef9p-3f, -0x1.9d5868p-4f,
    0x1.9831c2p-5f, -0x1.779dd2p-6f, 0x1.452648p-7f, -0x1.0ab384p-8f,
    0x1.a0ef7ep-10f, -0x1.37fe7p-11f, 0x1.c0b37cp-13f, -0x1.370a72p-14f,
    0x1.a0d24cp-16f, -0x1.0e97ccp-17f, 0x1.570848p-19f, -0x1.a461bep-21f,
    0x1.78a692p-2f, -0x1.abaacep-3f, 0x1.b56f46p-4f, -0x1.9b635ap-5f,
    0x1.68a25ap-6f, -0x1.299636p-7f, 0x1.d1b696p-9f, -0x1.5b8bcap-10f,
    0x1.f0fe7p-12f, -0x1.55c07ep-13f, 0x1.c57052p-15f, -0x1.22fc5p-16f,
    0x1.6a07b6p-18f, -0x1.b5a9c2p-20f, 0x1.06b5dp-21f, -0x1.2cf6c2p-23f,
    0x1.23cfc2p-2f, -0x1.0c3d54p-3f, 0x1.c8d0cep-5f, -0x1.6cb53p-6f,
    0x1.13648ap-7f, -0x1.8bf716p-9f, 0x1.106bd6p-10f, -0x1.683888p-12f,
    0x1.cb4c68p-14f, -0x1.1b2912p-15f, 0x1.5274p-17f, -0x1.88fb3cp-19f,
    0x1.bc018cp-21f, -0x1.e90f22p-23f, 0x1.0b6c42p-24f, -0x1.18d282p-26f,
    0x1.afbb4p-3f, -0x1.3086d8p-4f, 0x1.98958ap-6f, -0x1.063208p-7f,
    0x1.435c04p-9f, -0x1.809ce8p-11f, 0x1.ba8a68p-13f, -0x1.edd424p-15f,
    0x1.0bcbap-16f, -0x1.1ad10cp-18f, 0x1.23512cp-20f, -0x1.2515cp-22f,
    0x1.20001ep-24f, -0x1.15773ap-26f, 0x1.147e26p-28f, -0x1.ff38c2p-31f,
    0x1.3e0a9ap-3f, -0x1.5285d2p-5f, 0x1.5d5812p-7f, -0x1.5e5d7ep-9f,
    0x1.563214p-11f, -0x1.460abep-13f, 0x1.2f839ep-15f, -0x1.146bc4p-17f,
    0x1.ed2a96p-20f, -0x1.af5d64p-22f, 0x1.725028p-24f, -0x1.384594p-26f,
    0x1.02b1e4p-28f, -0x1.a5f476p-31f, 0x1.604acp-33f, -0x1.16441p-35f,
    0x1.20dd76p-1f, -0x1.20dd76p-2f, 0x1.b14c3p-2f, -0x1.0ecf9ep+0f,
    0x1.d9eb52p+1f, -0x1.0a9428p+4f, 0x1.6e859ep+6f, -0x1.29907ep+9f,
    0x1.155084p+12f, -0x1.1e2db4p+15f, 0x1.33f66p+18f, -0x1.3c32fep+21f,
    0x1.16858ep+24f, -0x1.763e64p+26f, 0x1.490a16p+28f, -0x1.16028ep+29f,
};
// The midpoints of those intervals.
__constant float __cl_sp_erfcf_mid[6] = {0.625f, 0.875f, 1.25f, 1.75f, 2.5f, 3.5f};
// lgamma(1 + t) / t on [-0.2, 0.2] (18 coefficients), then lgamma(2 + t) / t (16, padded with
// zeros).
__constant double __cl_sp_lgamma_near[36] = {
    -0x1.2788cfc6fb619p-1, 0x1.a51a6625307d3p-1,
    -0x1.9a4d55beab2cep-2, 0x1.151322ac7d840p-2,
    -0x1.a8b9c17aa9069p-3, 0x1.5b40cb100efd3p-3,
    -0x1.2703a1d9f7f0bp-3, 0x1.010b36acb9187p-3,
    -0x1.c806736057706p-4, 0x1.9a01e653a0598p-4,
    -0x1.748b5f3c16448p-4, 0x1.556a0ccee525ap-4,
    -0x1.3b40636989ea2p-4, 0x1.24b7f4382a9b9p-4,
    -0x1.0dc3cdae1f6a5p-4, 0x1.f9b6f1d14991fp-5,
    -0x1.1bb8d580d0115p-4, 0x1.0c3734c9d817bp-4,
    0x1.b0ee6072093cep-2, 0x1.4a34cc4a60fa6p-2,
    -0x1.13e001a557607p-4, 0x1.51322ac7d8483p-6,
    -0x1.e404fc218f53dp-8, 0x1.7add6eadb6b86p-9,
    -0x1.38ac5c2c1c11fp-10, 0x1.0b36af865aaa6p-11,
    -0x1.d3fd4c0aef324p-13, 0x1.a127b08b9ba24p-14,
    -0x1.78deb5943aed4p-15, 0x1.580e23a364cd8p-16,
    -0x1.3c934cc6e5088p-17, 0x1.2570a70c149d0p-18,
    -0x1.1b8e052960cd9p-19, 0x1.09b33a53e6893p-20,
    0.0, 0.0,
};
// 1/n!, n = 2 ... 14.
__constant double __cl_sp_exp_taylor[13] = {
    0x1p-1, 0x1.5555555555555p-3,
    0x1.5555555555555p-5, 0x1.1111111111111p-7,
    0x1.6c16c16c16c17p-10, 0x1.a01a01a01a01ap-13,
    0x1.a01a01a01a01ap-16, 0x1.71de3a556c734p-19,
    0x1.27e4fb7789f5cp-22, 0x1.ae64567f544e4p-26,
    0x1.1eed8eff8d898p-29, 0x1.6124613a86d09p-33,
    0x1.93974a8c07c9dp-37,
};
// 2/(2n + 1), n = 1 ... 11: log m = 2s + s^3 (2/3 + 2s^2/5 + ...).
__constant double __cl_sp_log_series[11] = {
    0x1.5555555555555p-1, 0x1.999999999999ap-2,
    0x1.2492492492492p-2, 0x1.c71c71c71c71cp-3,
    0x1.745d1745d1746p-3, 0x1.3b13b13b13b14p-3,
    0x1.1111111111111p-3, 0x1.e1e1e1e1e1e1ep-4,
    0x1.af286bca1af28p-4, 0x1.8618618618618p-4,
    0x1.642c8590b2164p-4,
};
// sin(pi a) / a and cos(pi a) as polynomials in a^2 (Taylor): (-1)^n pi^(2n+1)/(2n+1)! and
// (-1)^n pi^(2n)/(2n)!, n = 0 ... 9.
__constant double __cl_sp_sincos_taylor[20] = {
    0x1.921fb54442d18p+1, -0x1.4abbce625be53p+2,
    0x1.466bc6775aae2p+1, -0x1.32d2cce62bd86p-1,
    0x1.50783487ee782p-4, -0x1.e3074fde8871fp-8,
    0x1.e8f434d018d63p-12, -0x1.6fadb9f155744p-16,
    0x1.aaec32af93359p-21, -0x1.8a404211f9547p-26,
    0x1p+0,
    -0x1.3bd3cc9be45dep+2, 0x1.03c1f081b5ac4p+2,
    -0x1.55d3c7e3cbffap+0, 0x1.e1f506891babbp-3,
    -0x1.a6d1f2a204a8cp-6, 0x1.f9d38a3763cc3p-10,
    -0x1.b6e24f44b128fp-14, 0x1.20c62c2f2d7f5p-18,
    -0x1.2a0c591af8314p-23,
};
// Stirling's series: B_2k / (2k (2k - 1)), k = 1 ... 9, the coefficients of z^-(2k-1).
__constant double __cl_sp_stirling[9] = {
    0x1.5555555555555p-4, -0x1.6c16c16c16c17p-9,
    0x1.a01a01a01a01ap-11, -0x1.3813813813814p-11,
    0x1.b951e2b18ff23p-11, -0x1.f6ab0d9993c7dp-10,
    0x1.a41a41a41a41ap-8, -0x1.e4286cb0f5398p-6,
    0x1.6fe96381e0680p-3,
};
// ---------------------------------------------------------------------------------------------
// Double-double helpers.

// a + b = result + *err exactly (Knuth's TwoSum, TAOCP 4.2.2).
double __cl_sp_two_sum(double a, double b, double *err) {
    double s = a + b;
    double bb = s - a;
    *err = (a - (s - bb)) + (b - bb);
    return s;
}

// exp(hi + lo) = (result + *rlo) 2^*k, for |hi| < 1500 and |lo| small beside 1. Cody and
// Waite's reduction by k ln 2 (hi - k LN2_HI is exact: both are multiples of ulp(hi)
// and the difference is below |hi|), then exp(r) = 1 + r + r^2 (1/2! + r/3! + ... + r^12/14!)
// for |r| <= ln 2 / 2, whose truncation is below 2^-58; the low part of r enters to first
// order. Relative error about 2^-56.
double __cl_sp_exp(double hi, double lo, double *rlo, int *k) {
    double kd = rint(hi * __CL_SP_INV_LN2);
    double a = fma(-kd, __CL_SP_LN2_HI, hi);
    double rl;
    double r = __cl_sp_two_sum(a, lo - kd * __CL_SP_LN2_LO, &rl);
    double q = __cl_sp_exp_taylor[12];
    for (int i = 11; i >= 0; i--) {
        q = fma(q, r, __cl_sp_exp_taylor[i]);
    }
    double tail = r * r * q;
    double s = 1.0 + r;
    double se = (1.0 - s) + r;
    double low = se + (tail + rl * (1.0 + r));
    double h = s + low;
    *rlo = (s - h) + low;
    *k = (int)kd;
    return h;
}

// log(x) = result + *lo for finite x > 0 (subnormals included), to about 2^-62 relative.
// x = 2^e m with m in [sqrt(1/2), sqrt(2)); log m = 2 atanh(s) = 2s + 2s^3/3 + ... with
// s = (m - 1) / (m + 1), |s| <= 0.172, s carried as s + sl; the series after 2s is at most
// 0.0034 and is summed in double through s^23, the truncation below 2^-62.
double __cl_sp_log(double x, double *lo) {
    int sub = x < 0x1p-1022;
    double y = sub ? x * 0x1p54 : x;
    ulong b = as_ulong(y);
    int e = (int)(b >> 52) - 1023 - (sub ? 54 : 0);
    double m = as_double((b & 0x000fffffffffffffUL) | 0x3ff0000000000000UL);
    int big = m > 0x1.6a09e667f3bcdp+0;
    m = big ? 0.5 * m : m;
    e += big ? 1 : 0;
    // m - 1 is exact (Sterbenz); 2 + f is u + ul exactly.
    double f = m - 1.0;
    double u = 2.0 + f;
    double ul = f - (u - 2.0);
    double s = f / u;
    double sl = (fma(-s, u, f) - s * ul) / u;
    double w = s * s;
    double p = __cl_sp_log_series[10];
    for (int i = 9; i >= 0; i--) {
        p = fma(p, w, __cl_sp_log_series[i]);
    }
    double tail = s * w * p;
    double ed = (double)e;
    double err;
    double h = __cl_sp_two_sum(ed * __CL_SP_LN2_HI, 2.0 * s, &err);
    double l = err + (ed * __CL_SP_LN2_LO + (2.0 * sl + tail));
    double r = h + l;
    *lo = (h - r) + l;
    return r;
}

// sin(pi x) for finite x: x = n + r exactly with n = rint(x), sin(pi x) = (-1)^n sin(pi r),
// and sin(pi r) for |r| <= 1/4, cos(pi (1/2 - |r|)) above, by their Taylor series (the first
// omitted terms are below 2^-60 relative). About one ulp.
double __cl_sp_sinpi(double x) {
    double n = rint(x);
    double r = x - n;
    double hn = 0.5 * n;
    int odd = hn != rint(hn);
    double ar = fabs(r);
    int use_cos = ar > 0.25;
    double a = use_cos ? 0.5 - ar : ar;
    double w = a * a;
    // sin(pi a) = a S(a^2), cos(pi a) = C(a^2): ten coefficients each, S's then C's.
    int base = use_cos ? 10 : 0;
    double p = __cl_sp_sincos_taylor[base + 9];
    for (int i = 8; i >= 0; i--) {
        p = fma(p, w, __cl_sp_sincos_taylor[base + i]);
    }
    double v = use_cos ? p : a * p;
    v = copysign(v, r);
    return odd ? -v : v;
}

// lgamma(z) = result + *lo for z = zh + zl >= 10 (|zl| at most an ulp of zh), by Stirling's
// series: (z - 1/2) log z - z + log sqrt(2 pi) + sum_k B_2k / (2k (2k - 1) z^(2k - 1)), nine
// terms (the next is below 2^-60 for z >= 10); zl enters through the derivative,
// digamma(z) ~ log z - 1 / (2z). About 2^-60 relative.
double __cl_sp_lgamma_big(double zh, double zl, double *lo) {
    double ll;
    double lh = __cl_sp_log(zh, &ll);
    double ph = zh * lh;
    double pl = fma(zh, lh, -ph) + zh * ll;
    double e1, e2, e3;
    double h1 = __cl_sp_two_sum(ph, -zh, &e1);
    double c = __cl_sp_two_sum(__CL_SP_LNSQRT2PI_HI, -0.5 * lh, &e2);
    double h2 = __cl_sp_two_sum(h1, c, &e3);
    double y = 1.0 / zh;
    double y2 = y * y;
    double sp = __cl_sp_stirling[8];
    for (int i = 7; i >= 0; i--) {
        sp = fma(sp, y2, __cl_sp_stirling[i]);
    }
    double low = (e1 + e2 + e3) + (pl - 0.5 * ll + __CL_SP_LNSQRT2PI_LO)
        + (y * sp + zl * (lh - 0.5 * y));
    double r = h2 + low;
    *lo = (h2 - r) + low;
    return r;
}

// The product x (x + 1) ... (x + n - 1) as a double-double, each factor exact (TwoSum) and
// each product exact to about 2^-100 (fma).
double __cl_sp_rising(double x, int n, double *lo) {
    double ph = 1.0, pl = 0.0;
    for (int j = 0; j < n; j++) {
        double fl;
        double fh = __cl_sp_two_sum(x, (double)j, &fl);
        double h = ph * fh;
        double l = fma(ph, fh, -h) + (ph * fl + pl * fh);
        ph = h + l;
        pl = (h - ph) + l;
    }
    *lo = pl;
    return ph;
}

// x 2^k rounded once, for |k| <= 2000 and 2^-300 <= |x| <= 2^300 (as the callers have): x 2^(k/2)
// is normal, so exact, and the second product is the only rounding, into the subnormals too.
double __cl_sp_scale(double x, int k) {
    int k1 = k / 2;
    double p1 = as_double((ulong)(k1 + 1023) << 52);
    double p2 = as_double((ulong)(k - k1 + 1023) << 52);
    return x * p1 * p2;
}

// ---------------------------------------------------------------------------------------------
// erf and erfc.

// erf(x) for |x| < 1: x P(x^2).
double __cl_sp_erf_small(double x) {
    double t = x * x;
    double p = __cl_sp_erf_poly[12];
    for (int i = 11; i >= 0; i--) {
        p = fma(p, t, __cl_sp_erf_poly[i]);
    }
    return x * p;
}

// g(a) = erfc(a) exp(a^2) for 1/2 <= a <= 28: a polynomial in a - mid on six intervals below
// 4, and h(1/a^2) / a above, h a polynomial on [0, 1/16].
double __cl_sp_erfc_g(double a) {
    if (a < 4.0) {
        int i = a < 1.0 ? (a < 0.75 ? 0 : 1) : a < 2.0 ? (a < 1.5 ? 2 : 3) : (a < 3.0 ? 4 : 5);
        double lo = i < 2 ? 0.5 + 0.25 * (double)i : i < 4 ? 0.5 * (double)i : (double)(i - 2);
        double hi = i < 2 ? lo + 0.25 : i < 4 ? lo + 0.5 : lo + 1.0;
        double s = a - 0.5 * (lo + hi);
        int base = 16 * i;
        double g = __cl_sp_erfc_mid[base + 15];
        for (int j = 14; j >= 0; j--) {
            g = fma(g, s, __cl_sp_erfc_mid[base + j]);
        }
        return g;
    }
    double u = 1.0 / (a * a);
    double h = __cl_sp_erfc_tail[15];
    for (int j = 14; j >= 0; j--) {
        h = fma(h, u, __cl_sp_erfc_tail[j]);
    }
    return h / a;
}

// erfc(a) for a >= 1/2 (a NaN excluded): exp(-a^2) g(a). a^2 = xx + xl exactly (fma), so
// exp(-a^2) is exact to 2^-56. Past a = 28 the result is below the least subnormal.
double __cl_sp_erfc_pos(double a) {
    a = fmin(a, 28.0);
    double xx = a * a;
    double xl = fma(a, a, -xx);
    double el;
    int k;
    double eh = __cl_sp_exp(-xx, -xl, &el, &k);
    double g = __cl_sp_erfc_g(a);
    return __cl_sp_scale(fma(eh, g, el * g), k);
}

// 6.15.2 erf, the error function. 7.5.1 / C99 F.9.5.1: erf(±0) = ±0, erf(±inf) = ±1.
double __cl_erf_double(double x) {
    double ax = fabs(x);
    if (ax < 1.0) {
        return __cl_sp_erf_small(x);
    }
    double r = 1.0 - __cl_sp_erfc_pos(ax);
    return isnan(x) ? x : copysign(r, x);
}

// 6.15.2 erfc, the complementary error function 1 - erf(x). C99 F.9.5.2: erfc(-inf) = 2,
// erfc(+inf) = +0. Below 1/2, 1 - erf(x) loses nothing (erf(x) < 0.53); above, erfc(|x|)
// and 2 - erfc(|x|) for negative x.
double __cl_erfc_double(double x) {
    double ax = fabs(x);
    if (ax < 0.5) {
        return 1.0 - __cl_sp_erf_small(x);
    }
    double e = __cl_sp_erfc_pos(ax);
    double r = x < 0.0 ? 2.0 - e : e;
    return isnan(x) ? x : r;
}

// The float forms, computed in float: erf below 1 in magnitude is x P(x^2), P its Taylor
// series to x^23 (the next term is below 2^-29 of the result); erfc(a) for a >= 1/2 is
// exp(-a^2) g(a), g from the float tables above on the interval a falls in (both forms
// computed, the one that applies selected: no branch), exp(-a^2) with a^2 as a pair (fma);
// erf from 1 on is 1 - erfc, erfc below 1/2 is 1 - erf, below -1/2 it is 2 - erfc(|x|).

// erf(x) for |x| <= 1.
float __cl_sp_erff_small(float x) {
    float z = x * x;
    float p = fma(z, -1.2290555e-9f, 1.4807193e-8f);
    p = fma(z, p, -1.6365845e-7f);
    p = fma(z, p, 1.6462114e-6f);
    p = fma(z, p, -1.4925650e-5f);
    p = fma(z, p, 1.2055333e-4f);
    p = fma(z, p, -8.5483270e-4f);
    p = fma(z, p, 5.2239776e-3f);
    p = fma(z, p, -2.6866171e-2f);
    p = fma(z, p, 0.11283792f);
    p = fma(z, p, -0.37612639f);
    p = fma(z, p, 1.1283792f);
    return x * p;
}

// erfc(a) for a >= 1/2 (a NaN gives some value); from a = 10.1 on it rounds to +0.
float __cl_sp_erfcf_pos(float a) {
    a = fmin(a, 11.0f);
    // The interval below 4 (0 to 5) and its midpoint.
    int i = (a >= 0.75f) + (a >= 1.0f) + (a >= 1.5f) + (a >= 2.0f) + (a >= 3.0f);
    float s = a - __cl_sp_erfcf_mid[i];
    int base = 16 * i;
    float g = __cl_sp_erfcf_poly[base + 15];
    for (int j = 14; j >= 0; j--) {
        g = fma(g, s, __cl_sp_erfcf_poly[base + j]);
    }
    // From 4 on: h(1/a^2) / a.
    float u = 1.0f / (a * a);
    float h = __cl_sp_erfcf_poly[111];
    for (int j = 14; j >= 0; j--) {
        h = fma(h, u, __cl_sp_erfcf_poly[96 + j]);
    }
    g = as_float(bitselect(as_int(g), as_int(h / a), -(a >= 4.0f)));
    float hh = a * a;
    float hl = fma(a, a, -hh);
    return __cl_expf_pair(-hh, -hl) * g;
}

// erf(x) for float, without the tables: below 1 in magnitude x P(x^2), P of degree 5 fitted
// to erf(x)/x on [0, 1] (mpmath.chebyfit(lambda z: erf(sqrt(z))/sqrt(z), [0, 1], 6): relative
// error below 1.1 2^-24 with the coefficients rounded to float); from 1 to 4,
// 1 - exp(h(|x|) - x^2) with h(a) = log(erfc(a)) + a^2, a smooth function fitted by a
// polynomial of degree 8 in a - 2.5 (mpmath.chebyfit on [-1.5, 1.5], 9 terms: absolute error
// 1.7e-8, which exp turns into that relative error of erfc <= 0.16, well inside an ulp of erf);
// from 3.92 on erf rounds to 1 (erfc is below 2^-25), which the clamp of a to 4 gives. Both
// forms are computed and the one that applies selected; both polynomials are evaluated in
// their even and odd halves, which halves their chains of dependent fmas. Table 65: 16 ulp;
// the largest error of every 1021st float input is 3.03 ulp, of the sampled sweep
// (crates/core/tests/float_math.rs) 2.68 ulp. (erfc keeps the tables below: its relative
// error would take x^2 as a pair up to 10.)
float __cl_erf_float(float x) {
    float ax = fabs(x);
    int small = ax < 1.0f;
    float a = select(1.0f, ax, small);
    float z = a * a;
    float z2 = z * z;
    float ev = fma(z2, fma(z2, 4.921761807e-03f, 1.128031686e-01f), 1.128379107e+00f);
    float od = fma(z2, fma(z2, -5.648059887e-04f, -2.671505511e-02f), -3.761234283e-01f);
    float near0 = a * fma(z, od, ev);
    // b = |x| clamped to [1, 4] (a NaN becomes 1; its result is replaced below).
    float b = select(ax, 1.0f, small);
    b = select(b, 4.0f, (int)(b > 4.0f));
    float s = b - 2.5f;
    float s2 = s * s;
    float he = fma(s2, 1.637151399e-06f, 7.729137724e-05f);
    he = fma(s2, he, 2.165303566e-03f);
    he = fma(s2, he, 5.610629544e-02f);
    he = fma(s2, he, -1.556815267e+00f);
    float ho = fma(s2, -1.331501426e-05f, -4.201225238e-04f);
    ho = fma(s2, ho, -1.085854135e-02f);
    ho = fma(s2, ho, -3.526806831e-01f);
    float far = 1.0f - __cl_exp_float(fma(-b, b, fma(s, ho, he)));
    // erf(+-0) = +-0, erf(+-inf) = +-1 (C99 F.9.5.1); a NaN stays.
    float v = copysign(select(far, near0, small), x);
    return select(v, x, isnan(x));
}

float __cl_erfc_float(float x) {
    float ax = fabs(x);
    float near0 = 1.0f - copysign(__cl_sp_erff_small(fmin(ax, 0.5f)), x);
    float e = __cl_sp_erfcf_pos(fmax(ax, 0.5f));
    float far = as_float(bitselect(as_int(e), as_int(2.0f - e), -(x < 0.0f)));
    float v = as_float(bitselect(as_int(far), as_int(near0), -(ax < 0.5f)));
    // erfc(-inf) = 2, erfc(+inf) = +0 (C99 F.9.5.2); a NaN stays.
    return as_float(bitselect(as_int(v), as_int(x), -(x != x)));
}

// ---------------------------------------------------------------------------------------------
// tgamma, lgamma, lgamma_r.

// 6.15.2 tgamma, the gamma function. C99 F.9.5.4: tgamma(±0) = ±inf, a NaN for negative
// integers and -inf, +inf for +inf. 7.5.1: "tgamma(x) returns a NaN if x is a negative integer
// or -inf".
//
// Below 2^-54 in magnitude, 1/x - gamma (the next term is below 2^-108 relative). Otherwise
// x is shifted to z = x + n >= 10 and Gamma(x) = Gamma(z) / (x (x + 1) ... (x + n - 1)), with
// Gamma(z) = exp(lgamma(z)) from Stirling's series in double-double; below -10 the reflection
// Gamma(x) = pi / (sin(pi x) Gamma(1 - x)). The power of two of exp is applied last, so
// results near the overflow threshold and subnormal results are rounded once.
double __cl_tgamma_double(double x) {
    if (fabs(x) < 0x1p-54) {
        return 1.0 / x - __CL_SP_EULER;
    }
    if (!(x <= 171.7)) {
        // Gamma(171.7) overflows already; a NaN stays one.
        return x > 0.0 ? INFINITY : x;
    }
    if (x < 0.0 && x == floor(x)) {
        return NAN;
    }
    double fl = floor(x);
    int negative = x < 0.0 && 0.5 * fl != floor(0.5 * fl);
    if (x < -190.0) {
        // |Gamma(x)| < 2^45 / 190! is below the least subnormal.
        return negative ? -0.0 : 0.0;
    }
    int reflect = x < -10.0;
    int n = reflect ? 0 : (int)fmax(ceil(10.0 - x), 0.0);
    double zl, pl;
    double zh = reflect ? __cl_sp_two_sum(1.0, -x, &zl) : __cl_sp_two_sum(x, (double)n, &zl);
    double ph = __cl_sp_rising(x, n, &pl);
    double gl, el;
    int k;
    double gh = __cl_sp_lgamma_big(zh, zl, &gl);
    double eh = __cl_sp_exp(gh, gl, &el, &k);
    double nh = eh, nl = el, dh = ph, dl = pl;
    if (reflect) {
        double s = __cl_sp_sinpi(x);
        nh = __CL_SP_PI_HI;
        nl = __CL_SP_PI_LO;
        dh = s * eh;
        dl = fma(s, eh, -dh) + s * el;
        k = -k;
    }
    // (nh + nl) / (dh + dl), corrected once.
    double q = nh / dh;
    double r = fma(-q, dh, nh) + nl - q * dl;
    q += r / dh;
    return __cl_sp_scale(q, k);
}
float __cl_tgamma_float(float x) { return (float)__cl_tgamma_double((double)x); }

// 6.15.2 lgamma_r: log |Gamma(x)|, and Gamma's sign in *signp. 7.5.1: "lgamma_r(x, signp)
// returns 0 in signp if x is zero or a negative integer"; C99 F.9.5.3: lgamma(1) = lgamma(2)
// = +0, +inf for zero, negative integers and ±inf.
//
// Near the zeros at 1 and 2, t P(t) with t = x - 1 or x - 2 exact (so the result keeps its
// relative accuracy as it goes to zero); below 2^-54, -log |x|; otherwise as tgamma:
// lgamma(z) - log |x (x + 1) ... (x + n - 1)| with z = x + n >= 10, and below -10
// log pi - log |sin(pi x)| - lgamma(1 - x). Near the zeros of lgamma other than 1 and 2 (all
// negative) the difference cancels and the error grows like 1 / |lgamma(x)| (table 68 leaves
// lgamma's bound undefined).
double __cl_lgamma_r_double_ptr_int(double x, int *signp) {
    double ax = fabs(x);
    if (isnan(x) || isinf(x)) {
        *signp = 1;
        return x * x;
    }
    if (x <= 0.0 && x == floor(x)) {
        *signp = 0;
        return INFINITY;
    }
    int near1 = x >= 0.8 && x <= 1.2;
    if (near1 || (x >= 1.8 && x <= 2.2)) {
        *signp = 1;
        double t = near1 ? x - 1.0 : x - 2.0;
        int base = near1 ? 0 : 18;
        double p = __cl_sp_lgamma_near[base + 17];
        for (int i = 16; i >= 0; i--) {
            p = fma(p, t, __cl_sp_lgamma_near[base + i]);
        }
        // + 0 makes lgamma(1) and lgamma(2) +0 (C99 F.9.5.3), t p being -0 at t = 0.
        return t * p + 0.0;
    }
    // Below 2^-54, -log |x|; above 2^1000, x (log x - 1) is the whole result in double (or
    // overflows); otherwise lgamma(z) less a logarithm, whose argument is found first so that
    // one logarithm serves every case.
    int tiny = ax < 0x1p-54;
    int huge = x > 0x1p1000;
    int reflect = x < -10.0;
    double gh = 0.0, gl = 0.0, arg = ax, extra = 0.0;
    *signp = x < 0.0 ? -1 : 1;
    if (!tiny && !huge) {
        int n = reflect ? 0 : (int)fmax(ceil(10.0 - x), 0.0);
        double zl;
        double zh = reflect ? __cl_sp_two_sum(1.0, -x, &zl) : __cl_sp_two_sum(x, (double)n, &zl);
        gh = __cl_sp_lgamma_big(zh, zl, &gl);
        if (reflect) {
            // lgamma(x) = -lgamma(1 - x) - (log |sin(pi x)| - log pi).
            double s = __cl_sp_sinpi(x);
            *signp = s < 0.0 ? -1 : 1;
            arg = fabs(s);
            gh = -gh;
            gl = -gl - __CL_SP_LNPI_LO;
            extra = -__CL_SP_LNPI_HI;
        } else {
            // lgamma(x) = lgamma(x + n) - log |x (x + 1) ... (x + n - 1)|.
            double pl;
            double ph = __cl_sp_rising(x, n, &pl);
            *signp = ph < 0.0 ? -1 : 1;
            arg = fabs(ph);
            gl -= pl / ph;
        }
    }
    double ll;
    double lh = __cl_sp_log(arg, &ll);
    if (huge) {
        return x * (lh - 1.0);
    }
    // gh + gl - (lh + ll + extra), the large terms added exactly.
    double e1, e2;
    double sub = __cl_sp_two_sum(lh, extra, &e1);
    double h = __cl_sp_two_sum(gh, -sub, &e2);
    return h + (e2 + (gl - (ll + e1)));
}
float __cl_lgamma_r_float_ptr_int(float x, int *signp) {
    return (float)__cl_lgamma_r_double_ptr_int((double)x, signp);
}

// 6.15.2 lgamma: lgamma_r without the sign.
double __cl_lgamma_double(double x) {
    int s;
    return __cl_lgamma_r_double_ptr_int(x, &s);
}
float __cl_lgamma_float(float x) { return (float)__cl_lgamma_double((double)x); }
