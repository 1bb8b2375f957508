/* cl_khr_fp16 (OpenCL C 6.2.2.8, the `__opencl_c_fp16` feature): the device queries that come
 * with it, and every half math function of OpenCL C 6.15.2 against a double reference within
 * Table 69's bound (OpenCL C 7.4, "ULP Values for Half-Precision Floating-Point Arithmetic
 * Operations"), over every half for the one-argument functions and over pairs of halves (every
 * special value against a spread of others, then random bits) for the others: denormals,
 * infinities, NaNs and both zeros included. The ulp of a reference value is the distance
 * between the two halves around it (2^-24 below the smallest normal); a NaN reference needs a
 * NaN, an infinite one the same infinity, an exact zero a zero of the same sign; an infinity
 * meets a reference at or past HALF_MAX + 16 (where the correctly rounded result overflows), and
 * below it counts as 2^16 (7.4: "Math functions are allowed to return infinity for a finite
 * reference value when the next floating-point number that would be representable after the
 * finite maximum, if there was sufficient range, meets ULP error tolerance"). A device without
 * the extension must report none of it. */
#include "check.h"

#include <limits.h>
#include <math.h>
#include <string.h>

static int has_word(const char *list, const char *word) {
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

/* The value of a half's bits. */
static double half_value(cl_half h) {
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 0x400, e - 25);
    return (h & 0x8000) ? -v : v;
}

/* A half's distance to the next one above |x| (OpenCL C 7.4's ulp), 2^5 past the range. */
static double half_ulp(double x) {
    double a = fabs(x);
    if (a < ldexp(1.0, -14))
        return ldexp(1.0, -24);
    int e;
    frexp(a, &e);
    return ldexp(1.0, (e - 1 > 15 ? 15 : e - 1) - 10);
}

/* Whether `got` meets `ref` within `ulps` (the comment at the top). */
static int within(double got, double ref, double ulps) {
    if (isnan(ref))
        return isnan(got);
    if (isnan(got))
        return 0;
    if (isinf(ref))
        return got == ref;
    if (ref == 0.0 && got == 0.0)
        return signbit(ref) == signbit(got);
    if (isinf(got)) {
        if (signbit(got) != signbit(ref))
            return 0;
        /* At or past HALF_MAX + half an ulp the correctly rounded result is infinite. */
        if (fabs(ref) >= 65520.0)
            return 1;
        got = copysign(65536.0, got);
    }
    return fabs(got - ref) <= ulps * half_ulp(ref);
}

static const double PI = 3.14159265358979323846;

/* Reference functions the C library lacks, in double (exact arguments reduced exactly). */
static double pi_reduced(double x) {
    return fmod(x, 2.0); /* exact; sin(pi x) and cos(pi x) have period 2 */
}
static double r_sinpi(double x) {
    if (isinf(x))
        return NAN;
    double r = pi_reduced(x);
    if (r == 0.0 || fabs(r) == 1.0)
        return copysign(0.0, x);
    return sin(PI * r);
}
static double r_cospi(double x) {
    if (isinf(x))
        return NAN;
    double r = fabs(pi_reduced(x));
    if (r == 0.5 || r == 1.5)
        return 0.0;
    return cos(PI * r);
}
static double r_tanpi(double x) {
    if (isinf(x))
        return NAN;
    double r = pi_reduced(x);
    if (r == 0.0 || fabs(r) == 1.0) /* 7.5.1: tanpi(±0) is ±0, and the integers follow */
        return copysign(0.0, x) * (fabs(r) == 1.0 ? -1.0 : 1.0);
    if (fabs(r) == 0.5 || fabs(r) == 1.5)
        return (fabs(r) == 0.5) == (r > 0) ? INFINITY : -INFINITY;
    return tan(PI * r);
}
static double r_acospi(double x) { return acos(x) / PI; }
static double r_asinpi(double x) { return asin(x) / PI; }
static double r_atanpi(double x) { return atan(x) / PI; }
static double r_atan2pi(double y, double x) { return atan2(y, x) / PI; }
static double r_exp10(double x) { return pow(10.0, x); }
static double r_rsqrt(double x) { return 1.0 / sqrt(x); }
static double r_maxmag(double x, double y) {
    return fabs(x) > fabs(y) ? x : fabs(y) > fabs(x) ? y : fmax(x, y);
}
static double r_minmag(double x, double y) {
    return fabs(x) < fabs(y) ? x : fabs(y) < fabs(x) ? y : fmin(x, y);
}
/* 7.5.1: powr(x, y) is exp2(y log2 x) for x >= 0, NaN below and at 0^0, inf^0 and 1^inf. */
static double r_powr(double x, double y) {
    if (x < 0 || isnan(x) || isnan(y) || (x == 0 && y == 0) || (isinf(x) && y == 0) ||
        (x == 1 && isinf(y)))
        return NAN;
    /* "powr(±0, y) is +0 for y > 0", "+∞ for finite y < 0", "powr(±0, -∞) is +∞". */
    if (x == 0)
        return y > 0 ? 0.0 : INFINITY;
    return pow(x, y);
}
/* 6.15.2: the next half after a in the direction of b. */
static double half_next(double a, double b) {
    if (isnan(a) || isnan(b))
        return NAN;
    if (a == b)
        return b;
    if (a == 0)
        return copysign(ldexp(1.0, -24), b);
    if (isinf(a))
        return copysign(65504.0, a);
    int away = (b > a) == (a > 0);
    double u = half_ulp(a);
    int e;
    /* Toward zero from a power of two above the smallest normal, the step is the lower
     * binade's. */
    if (!away && fabs(a) > ldexp(1.0, -14) && frexp(fabs(a), &e) == 0.5)
        u /= 2;
    double r = a + (b > a ? u : -u);
    if (r == 0) /* from the smallest subnormal toward zero: the zero of a's sign, as C99's */
        return copysign(0.0, a);
    return fabs(r) > 65504.0 ? copysign(INFINITY, r) : r;
}
static double r_add(double x, double y) { return x + y; }
static double r_sub(double x, double y) { return x - y; }
static double r_mul(double x, double y) { return x * y; }
static double r_div(double x, double y) { return x / y; }
static double r_recip(double x) { return 1.0 / x; }
static double r_fract(double x) {
    /* 7.5.1: "fract(-0, iptr) returns -0 and -0 in iptr." */
    if (isnan(x) || x == 0)
        return x;
    if (isinf(x))
        return copysign(0.0, x);
    return fmin(x - floor(x), 0x1.ffcp-1);
}
static double r_modf(double x) {
    double i;
    return modf(x, &i);
}
static double r_frexp(double x) {
    int e;
    return frexp(x, &e);
}
static double r_fdim(double x, double y) { return fdim(x, y); }

enum { ALL = 65536, PAIRS = 1 << 16 };

typedef double (*Unary)(double);
typedef double (*Binary)(double, double);

struct UnaryCase {
    const char *name;
    Unary ref;
    double ulps;
};
struct BinaryCase {
    const char *name;
    Binary ref;
    double ulps;
    /* Of two zeros either may come out (C99 F.9.9.2 leaves fmax(+0, -0) to the implementation). */
    int either_zero;
};

/* Table 69; "correctly rounded" is within half an ulp, "0 ulp" exact. */
static const struct UnaryCase unary[] = {
    {"acos", acos, 2},      {"acosh", acosh, 2},   {"acospi", r_acospi, 2}, {"asin", asin, 2},
    {"asinh", asinh, 2},    {"asinpi", r_asinpi, 2}, {"atan", atan, 2},      {"atanh", atanh, 2},
    {"atanpi", r_atanpi, 2}, {"cbrt", cbrt, 2},     {"ceil", ceil, 0},       {"cos", cos, 2},
    {"cosh", cosh, 2},      {"cospi", r_cospi, 2}, {"erfc", erfc, 4},       {"erf", erf, 4},
    {"exp", exp, 2},        {"exp2", exp2, 2},     {"exp10", r_exp10, 2},   {"expm1", expm1, 2},
    {"fabs", fabs, 0},      {"floor", floor, 0},   {"log", log, 2},         {"log2", log2, 2},
    {"log10", log10, 2},    {"log1p", log1p, 2},   {"logb", logb, 0},       {"rint", rint, 0},
    {"round", round, 0},    {"rsqrt", r_rsqrt, 1}, {"sin", sin, 2},         {"sinh", sinh, 2},
    {"sinpi", r_sinpi, 2},  {"sqrt", sqrt, 1.5},   {"tan", tan, 2.5},       {"tanh", tanh, 2},
    {"tanpi", r_tanpi, 2},  {"tgamma", tgamma, 4}, {"trunc", trunc, 0},     {"recip", r_recip, 1},
    {"fract", r_fract, 0.5}, {"modf", r_modf, 0},  {"frexp", r_frexp, 0},
};
static const struct BinaryCase binary[] = {
    {"atan2", atan2, 2, 0}, {"atan2pi", r_atan2pi, 2, 0}, {"copysign", copysign, 0, 0}, {"fdim", r_fdim, 0.5, 0},
    {"fmax", fmax, 0, 1}, {"fmin", fmin, 0, 1},         {"fmod", fmod, 0, 0},         {"hypot", hypot, 2, 0},
    {"maxmag", r_maxmag, 0, 1}, {"minmag", r_minmag, 0, 1}, {"pow", pow, 4, 0},         {"powr", r_powr, 4, 0},
    {"remainder", remainder, 0, 0}, {"add", r_add, 0.5, 0}, {"sub", r_sub, 0.5, 0},     {"mul", r_mul, 0.5, 0},
    {"div", r_div, 1, 0},
};

/* The kernels: one per function, each applying it to one element (or pair) per work-item;
 * `recip`, `add`... are the operators, and the functions with a second result store it. */
static const char *source =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "#define U(f) kernel void u_##f(global const half *x, global half *y) {\\\n"
    "    size_t i = get_global_id(0); y[i] = f(x[i]); }\n"
    "#define B(f) kernel void b_##f(global const half *x, global const half *y, global half *z) {\\\n"
    "    size_t i = get_global_id(0); z[i] = f(x[i], y[i]); }\n"
    "#define recip(x) ((half)1 / (x))\n"
    "#define add(x, y) ((x) + (y))\n"
    "#define sub(x, y) ((x) - (y))\n"
    "#define mul(x, y) ((x) * (y))\n"
    "#define div(x, y) ((x) / (y))\n"
    "U(acos) U(acosh) U(acospi) U(asin) U(asinh) U(asinpi) U(atan) U(atanh) U(atanpi) U(cbrt)\n"
    "U(ceil) U(cos) U(cosh) U(cospi) U(erfc) U(erf) U(exp) U(exp2) U(exp10) U(expm1) U(fabs)\n"
    "U(floor) U(log) U(log2) U(log10) U(log1p) U(logb) U(rint) U(round) U(rsqrt) U(sin) U(sinh)\n"
    "U(sinpi) U(sqrt) U(tan) U(tanh) U(tanpi) U(tgamma) U(trunc) U(recip)\n"
    "B(atan2) B(atan2pi) B(copysign) B(fdim) B(fmax) B(fmin) B(fmod) B(hypot) B(maxmag) B(minmag)\n"
    "B(pow) B(powr) B(remainder) B(add) B(sub) B(mul) B(div)\n"
    "kernel void u_fract(global const half *x, global half *y, global half *w) {\n"
    "    size_t i = get_global_id(0); half ip; y[i] = fract(x[i], &ip); w[i] = ip; }\n"
    "kernel void u_modf(global const half *x, global half *y, global half *w) {\n"
    "    size_t i = get_global_id(0); half ip; y[i] = modf(x[i], &ip); w[i] = ip; }\n"
    "kernel void u_frexp(global const half *x, global half *y, global int *n) {\n"
    "    size_t i = get_global_id(0); int e; y[i] = frexp(x[i], &e); n[i] = e; }\n"
    "kernel void sincos_ilogb(global const half *x, global half *s, global half *c, global int *n) {\n"
    "    size_t i = get_global_id(0); half cv; s[i] = sincos(x[i], &cv); c[i] = cv;\n"
    "    int e = ilogb(x[i]);\n"
    "    n[i] = x[i] == 0 ? e == FP_ILOGB0 : x[i] != x[i] ? e == FP_ILOGBNAN : e; }\n"
    "kernel void with_int(global const half *x, global const int *n, global half *l,\n"
    "                     global half *p, global half *r) {\n"
    "    size_t i = get_global_id(0);\n"
    "    l[i] = ldexp(x[i], n[i]); p[i] = pown(x[i], n[i] % 40); r[i] = rootn(x[i], n[i] % 9); }\n"
    "kernel void remquo_next(global const half *x, global const half *y, global half *r,\n"
    "                        global int *q, global half *a) {\n"
    "    size_t i = get_global_id(0); int k; r[i] = remquo(x[i], y[i], &k); q[i] = k;\n"
    "    a[i] = nextafter(x[i], y[i]); }\n"
    "kernel void fma_mad(global const half *x, global const half *y, global const half *z,\n"
    "                    global half *f) {\n"
    "    size_t i = get_global_id(0); f[i] = fma(x[i], y[i], z[i]); }\n"
    "kernel void vectors(global const half *x, global const half *y, global half *s,\n"
    "                    global half *e, global half *p) {\n"
    "    size_t i = get_global_id(0);\n"
    "    half4 a = vload4(i, x), b = vload4(i, y);\n"
    "    vstore4(sin(a), i, s); vstore4(exp(a), i, e); vstore4(pow(a, b), i, p); }\n"
    "#ifdef __IMAGE_SUPPORT__\n"
    "kernel void images(read_only image2d_t in, write_only image2d_t out, global half *o) {\n"
    "    int x = get_global_id(0);\n"
    "    half4 t = read_imageh(in, (int2)(x, 0));\n"
    "    vstore4(t, x, o);\n"
    "    write_imageh(out, (int2)(x, 0), t * (half)2); }\n"
    "#endif\n";

static cl_context context;
static cl_command_queue queue;
static cl_program program;

/* Runs kernel `name` over `n` work-items with the buffers `args` (each `sizes[k]` bytes; the
 * first `inputs` are copied from `host[k]`, the others read back into it). */
static void run(const char *name, size_t n, int count, int inputs, void **host, const size_t *sizes) {
    cl_int err = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program, name, &err);
    CHECK_RET(err);
    if (err != CL_SUCCESS)
        return;
    cl_mem mems[8];
    for (int k = 0; k < count; k++) {
        mems[k] = k < inputs ? make_buffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizes[k], host[k])
                             : make_buffer(context, CL_MEM_WRITE_ONLY, sizes[k], NULL);
        CHECK(clSetKernelArg(kernel, (cl_uint)k, sizeof(cl_mem), &mems[k]));
    }
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &n, NULL, 0, NULL, NULL));
    for (int k = inputs; k < count; k++)
        CHECK(clEnqueueReadBuffer(queue, mems[k], CL_TRUE, 0, sizes[k], host[k], 0, NULL, NULL));
    for (int k = 0; k < count; k++)
        clReleaseMemObject(mems[k]);
    clReleaseKernel(kernel);
}

static int reported;

/* Counts a failure of `what` at the inputs, printing the first few. */
static void fail(const char *what, cl_half x, cl_half y, double got, double ref) {
    check_failures++;
    if (reported++ < 40)
        fprintf(stderr, "%s(%#06x, %#06x): got %a, reference %a\n", what, x, y, got, ref);
}

static void expect_within(const char *what, cl_half x, cl_half y, cl_half got, double ref, double ulps) {
    if (!within(half_value(got), ref, ulps))
        fail(what, x, y, half_value(got), ref);
}

/* Every special value, then random bits. */
static cl_half pair_input(size_t i, int second, uint32_t *state) {
    static const cl_half special[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00,
                                      0x3800, 0x4000, 0xc000, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00,
                                      0x3555, 0x4248, 0xc248, 0x5640, 0x1400, 0x6bff};
    const size_t ns = sizeof special / sizeof special[0];
    if (i < ns * ns)
        return special[second ? i % ns : i / ns];
    *state = *state * 1664525u + 1013904223u;
    return (cl_half)(*state >> 16);
}

static void check_queries(cl_device_id device) {
    char *extensions = device_string(device, CL_DEVICE_EXTENSIONS);
    int fp16 = has_word(extensions, "cl_khr_fp16");
    cl_ulong config = device_ulong(device, CL_DEVICE_HALF_FP_CONFIG);
    size_t size = 0;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &size));
    cl_name_version *features = malloc(size ? size : 1);
    REQUIRE(features != NULL);
    CHECK(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, size, features, NULL));
    int feature = 0;
    for (size_t k = 0; k < size / sizeof *features; k++)
        feature |= strcmp(features[k].name, "__opencl_c_fp16") == 0;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, NULL, &size));
    cl_name_version *with_version = malloc(size ? size : 1);
    REQUIRE(with_version != NULL);
    CHECK(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, size, with_version, NULL));
    int listed = 0;
    for (size_t k = 0; k < size / sizeof *with_version; k++)
        listed |= strcmp(with_version[k].name, "cl_khr_fp16") == 0;
    EXPECT(listed == fp16);
    /* OpenCL C 6.2.2.8 / Appendix: __opencl_c_fp16 is defined exactly when cl_khr_fp16 is. */
    EXPECT(feature == fp16);
    if (fp16) {
        /* 4.2, Table 5: "the minimum half-precision floating-point capability is either:
         * CL_FP_ROUND_TO_ZERO or CL_FP_ROUND_TO_NEAREST CL_FP_INF_NAN." */
        EXPECT((config & CL_FP_ROUND_TO_ZERO) ||
               (config & (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN)) == (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN));
        EXPECT(device_uint(device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF) > 0);
        EXPECT(device_uint(device, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF) > 0);
    } else {
        EXPECT(config == 0);
        EXPECT(device_uint(device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF) == 0);
    }
    free(features);
    free(with_version);
    free(extensions);
}

static void check_unary(cl_half *x, cl_half *y, cl_half *w, cl_int *n) {
    size_t half_bytes = ALL * sizeof(cl_half);
    for (size_t f = 0; f < sizeof unary / sizeof unary[0]; f++) {
        char name[32];
        snprintf(name, sizeof name, "u_%s", unary[f].name);
        int two = !strcmp(unary[f].name, "fract") || !strcmp(unary[f].name, "modf") ||
                  !strcmp(unary[f].name, "frexp");
        void *host[] = {x, y, !strcmp(unary[f].name, "frexp") ? (void *)n : (void *)w};
        size_t sizes[] = {half_bytes, half_bytes, !strcmp(unary[f].name, "frexp") ? ALL * sizeof(cl_int) : half_bytes};
        run(name, ALL, two ? 3 : 2, 1, host, sizes);
        for (size_t i = 0; i < ALL; i++) {
            double v = half_value(x[i]);
            expect_within(unary[f].name, x[i], 0, y[i], unary[f].ref(v), unary[f].ulps);
            if (!strcmp(unary[f].name, "fract") && !isnan(v) && half_value(w[i]) != floor(v))
                fail("fract's floor", x[i], 0, half_value(w[i]), floor(v));
            if (!strcmp(unary[f].name, "modf") && !isnan(v) && half_value(w[i]) != trunc(v))
                fail("modf's integral part", x[i], 0, half_value(w[i]), trunc(v));
            if (!strcmp(unary[f].name, "frexp") && isfinite(v)) {
                int e;
                frexp(v, &e);
                if (n[i] != e)
                    fail("frexp's exponent", x[i], 0, n[i], e);
            }
        }
    }
    void *host[] = {x, y, w, n};
    size_t sizes[] = {half_bytes, half_bytes, half_bytes, ALL * sizeof(cl_int)};
    run("sincos_ilogb", ALL, 4, 1, host, sizes);
    for (size_t i = 0; i < ALL; i++) {
        double v = half_value(x[i]);
        expect_within("sincos (sine)", x[i], 0, y[i], sin(v), 2);
        expect_within("sincos (cosine)", x[i], 0, w[i], cos(v), 2);
        /* 6.15.2: ilogb(0) is FP_ILOGB0 and ilogb(NaN) FP_ILOGBNAN (the kernel stores 1 when
         * they are), ilogb(±inf) INT_MAX as in C99 F.9.3.5. */
        int want = v == 0 || isnan(v) ? 1 : isinf(v) ? INT_MAX : ilogb(v);
        if (n[i] != want)
            fail("ilogb", x[i], 0, n[i], want);
    }
}

static void check_binary(cl_half *x, cl_half *y, cl_half *z, cl_half *w, cl_int *n, uint32_t *state) {
    size_t bytes = PAIRS * sizeof(cl_half);
    for (size_t i = 0; i < PAIRS; i++) {
        x[i] = pair_input(i, 0, state);
        y[i] = pair_input(i, 1, state);
    }
    for (size_t f = 0; f < sizeof binary / sizeof binary[0]; f++) {
        char name[32];
        snprintf(name, sizeof name, "b_%s", binary[f].name);
        void *host[] = {x, y, z};
        size_t sizes[] = {bytes, bytes, bytes};
        run(name, PAIRS, 3, 2, host, sizes);
        for (size_t i = 0; i < PAIRS; i++) {
            double a = half_value(x[i]), b = half_value(y[i]);
            if (binary[f].either_zero && a == 0 && b == 0 && half_value(z[i]) == 0)
                continue;
            expect_within(binary[f].name, x[i], y[i], z[i], binary[f].ref(a, b), binary[f].ulps);
        }
    }
    /* remquo: the remainder exactly, the quotient's sign and at least its lower 7 bits (Table
     * 69); nextafter exactly (the next half toward y). */
    void *host[] = {x, y, z, n, w};
    size_t sizes[] = {bytes, bytes, bytes, PAIRS * sizeof(cl_int), bytes};
    run("remquo_next", PAIRS, 5, 2, host, sizes);
    for (size_t i = 0; i < PAIRS; i++) {
        double a = half_value(x[i]), b = half_value(y[i]);
        double r = remainder(a, b);
        expect_within("remquo", x[i], y[i], z[i], r, 0);
        if (isfinite(a) && isfinite(b) && b != 0) {
            double k = (a - r) / b; /* exact: a - r is k * b, an integer multiple */
            long q = (long)fabs(k) & 0x7f;
            long got = labs((long)n[i]) & 0x7f;
            if (got != q || (q != 0 && (n[i] < 0) != (k < 0)))
                fail("remquo's quotient", x[i], y[i], n[i], k);
        }
        double next = half_next(a, b);
        expect_within("nextafter", x[i], y[i], w[i], next, 0);
    }
}

/* 6.15.15 read_imageh and write_imageh (8.3.2: a CL_HALF_FLOAT texel read as half is the
 * half; written, the half): texels of a CL_RGBA CL_HALF_FLOAT image read back bit for bit, and
 * written doubled (exact for these values) into a second image. */
static void check_images(cl_half *buf) {
    enum { W = 8 };
    cl_half texels[4 * W];
    for (int k = 0; k < 4 * W; k++)
        texels[k] = (cl_half)(0x3c00 + 0x155 * k - (k % 3 == 0 ? 0x8000 : 0)); /* mixed signs */
    texels[5] = 0x0001; /* a subnormal */
    texels[6] = 0x7c00; /* infinity */
    cl_image_format format = {CL_RGBA, CL_HALF_FLOAT};
    cl_image_desc desc = {0};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = W;
    desc.image_height = 1;
    cl_int err = CL_SUCCESS;
    cl_mem in = clCreateImage(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &format, &desc, texels, &err);
    CHECK_RET(err);
    cl_mem out = clCreateImage(context, CL_MEM_WRITE_ONLY, &format, &desc, NULL, &err);
    CHECK_RET(err);
    cl_mem o = make_buffer(context, CL_MEM_WRITE_ONLY, 4 * W * sizeof(cl_half), NULL);
    cl_kernel kernel = clCreateKernel(program, "images", &err);
    CHECK_RET(err);
    CHECK(clSetKernelArg(kernel, 0, sizeof in, &in));
    CHECK(clSetKernelArg(kernel, 1, sizeof out, &out));
    CHECK(clSetKernelArg(kernel, 2, sizeof o, &o));
    size_t n = W;
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &n, NULL, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, o, CL_TRUE, 0, 4 * W * sizeof(cl_half), buf, 0, NULL, NULL));
    cl_half written[4 * W];
    size_t origin[3] = {0, 0, 0}, region[3] = {W, 1, 1};
    CHECK(clEnqueueReadImage(queue, out, CL_TRUE, origin, region, 0, 0, written, 0, NULL, NULL));
    for (int k = 0; k < 4 * W; k++) {
        if (buf[k] != texels[k])
            fail("read_imageh", texels[k], 0, half_value(buf[k]), half_value(texels[k]));
        if (half_value(written[k]) != 2 * half_value(texels[k]))
            fail("write_imageh", texels[k], 0, half_value(written[k]), 2 * half_value(texels[k]));
    }
    clReleaseKernel(kernel);
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseMemObject(o);
}

int main(void) {
    cl_device_id device = first_device();
    check_queries(device);
    char *extensions = device_string(device, CL_DEVICE_EXTENSIONS);
    int fp16 = has_word(extensions, "cl_khr_fp16");
    free(extensions);
    if (!fp16 || !device_uint(device, CL_DEVICE_COMPILER_AVAILABLE)) {
        printf("half_math.c: the device has no cl_khr_fp16 or no compiler\n");
        return finish();
    }
    context = make_context(device);
    queue = make_queue(context, device);
    program = build_program(context, device, source, "");
    cl_half *x = malloc(ALL * sizeof(cl_half)), *y = malloc(ALL * sizeof(cl_half));
    cl_half *z = malloc(ALL * sizeof(cl_half)), *w = malloc(ALL * sizeof(cl_half));
    cl_half *v = malloc(ALL * sizeof(cl_half));
    cl_int *n = malloc(ALL * sizeof(cl_int));
    REQUIRE(x && y && z && w && v && n);
    for (size_t i = 0; i < ALL; i++)
        x[i] = (cl_half)i;
    check_unary(x, y, w, n);
    uint32_t state = 12345;
    check_binary(x, y, z, w, n, &state);

    /* fma correctly rounded; ldexp correctly rounded, pown and rootn within 4 ulp. */
    for (size_t i = 0; i < ALL; i++) {
        x[i] = pair_input(i, 0, &state);
        y[i] = pair_input(i, 1, &state);
        state = state * 1664525u + 1013904223u;
        z[i] = (cl_half)(state >> 16);
    }
    {
        void *host[] = {x, y, z, w};
        size_t b = ALL * sizeof(cl_half);
        size_t sizes[] = {b, b, b, b};
        run("fma_mad", ALL, 4, 3, host, sizes);
        for (size_t i = 0; i < ALL; i++) {
            double a = half_value(x[i]), c = half_value(y[i]), d = half_value(z[i]);
            /* Exact in double but where the sum needs more than 53 bits; then the addend is far
             * below the product's half ulp or the reverse, and fma() is exact anyway. */
            expect_within("fma", x[i], y[i], w[i], fma(a, c, d), 0.5);
        }
    }
    for (size_t i = 0; i < ALL; i++) {
        state = state * 1664525u + 1013904223u;
        n[i] = (cl_int)(state >> 24) - 128; /* -128 .. 127 */
    }
    {
        void *host[] = {x, n, y, z, w};
        size_t b = ALL * sizeof(cl_half);
        size_t sizes[] = {b, ALL * sizeof(cl_int), b, b, b};
        run("with_int", ALL, 5, 2, host, sizes);
        for (size_t i = 0; i < ALL; i++) {
            double a = half_value(x[i]);
            int k = n[i];
            expect_within("ldexp", x[i], (cl_half)k, y[i], ldexp(a, k), 0.5);
            expect_within("pown", x[i], (cl_half)(k % 40), z[i], pow(a, k % 40), 4);
            int r = k % 9;
            /* 7.5.1: rootn(x, 0) is NaN, rootn of a negative x NaN for even n. */
            double root = r == 0 || (a < 0 && r % 2 == 0) ? NAN
                          : a < 0                          ? -pow(-a, 1.0 / r)
                                                           : pow(a, 1.0 / r);
            if (a == 0 && r != 0)
                root = r > 0 ? copysign(0.0, r % 2 ? a : 0.0) : (r % 2 ? copysign(INFINITY, a) : INFINITY);
            if (isinf(a) && r != 0)
                root = r > 0 ? (r % 2 || a > 0 ? a : NAN) : (r % 2 ? copysign(0.0, a) : (a > 0 ? 0.0 : NAN));
            expect_within("rootn", x[i], (cl_half)r, w[i], root, 4);
        }
    }
    /* The vector forms compute lane by lane what the scalar ones do. */
    {
        for (size_t i = 0; i < ALL; i++)
            x[i] = (cl_half)i;
        void *host[] = {x, y, z, w, v};
        size_t b = ALL * sizeof(cl_half);
        size_t sizes[] = {b, b, b, b, b};
        for (size_t i = 0; i < ALL; i++) {
            state = state * 1664525u + 1013904223u;
            y[i] = (cl_half)(state >> 16);
        }
        run("vectors", ALL / 4, 5, 2, host, sizes);
        for (size_t i = 0; i < ALL; i++) {
            double a = half_value(x[i]), c = half_value(y[i]);
            expect_within("sin (half4)", x[i], 0, z[i], sin(a), 2);
            expect_within("exp (half4)", x[i], 0, w[i], exp(a), 2);
            expect_within("pow (half4)", x[i], y[i], v[i], pow(a, c), 4);
        }
    }
    if (device_uint(device, CL_DEVICE_IMAGE_SUPPORT))
        check_images(x);
    free(x);
    free(y);
    free(z);
    free(w);
    free(v);
    free(n);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return finish();
}
