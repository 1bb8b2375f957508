// Floating-point contraction (OpenCL C 6.15.2.1): "#pragma OPENCL FP_CONTRACT on-off-switch
// ... The DEFAULT value is ON", and C99 6.5p8: "A floating expression may be contracted,
// that is, evaluated as though it were an atomic operation, thereby omitting rounding errors
// implied by the source code", within one expression only. The inputs make the difference
// show: a = b = 1 + 2^-12 (float; 1 + 2^-27 for double), so a * b = 1 + 2^-11 + 2^-24 rounds
// to 1 + 2^-11 = -c = d; unfused, a * b + c is 0, fused it is 2^-24 (2^-54).
// Each work-item writes ten values: a * b + c, c + a * b, a * b - d, d - a * b, t = c; t +=
// a * b, t = d; t -= a * b (fused: e, e, e, -e, e, -e with e = 2^-24), a product stored in a
// variable first and then added (never contracted: 0), the lanes of (T4)(a) * (T4)(b) +
// (T4)(c) added up (fused: 4e), and, in `scoped`, a * b + c and c + a * b again.
// - `off`: contraction off in the kernel's block: every result is the unfused one, exactly
//   (contraction is off, so each operation is rounded as written).
// - `contracted`: the default state. ferrocl promises the fused results where it defines
//   FP_FAST_FMAF (FP_FAST_FMA for double), "fma ... executes about as fast as, or faster than,
//   a multiply and an add": it contracts every product that is an operand of + or - in the
//   same expression (but an accumulation `acc += x * y` into a variable from outside the
//   enclosing loop, none here). Elsewhere contraction is permitted, not promised, and the
//   kernel computes the fused values with fma instead.
// - `scoped`: OFF outside functions, ON in an inner block: fused there (as in `contracted`),
//   and unfused again after the block (C99 7.12.2: "at the end of a compound statement the
//   state for the pragma is restored to its condition just before the compound statement").
// run: --kernel off --global 5 -D T=float --arg 'float[50]=7' --arg 'float[4]=1.000244140625,1.000244140625,-1.00048828125,1.00048828125'
// expect o: 0 0 0 0 0 0 0 0 7 7 0 0 0 0 0 0 0 0 7 7 0 0 0 0 0 0 0 0 7 7 0 0 0 0 0 0 0 0 7 7 0 0 0 0 0 0 0 0 7 7
// run: --kernel contracted --global 5 -D T=float --arg 'float[50]=7' --arg 'float[4]=1.000244140625,1.000244140625,-1.00048828125,1.00048828125'
// expect o: 5.9604645e-08 5.9604645e-08 5.9604645e-08 -5.9604645e-08 5.9604645e-08 -5.9604645e-08 0 2.3841858e-07 7 7 5.9604645e-08 5.9604645e-08 5.9604645e-08 -5.9604645e-08 5.9604645e-08 -5.9604645e-08 0 2.3841858e-07 7 7 5.9604645e-08 5.9604645e-08 5.9604645e-08 -5.9604645e-08 5.9604645e-08 -5.9604645e-08 0 2.3841858e-07 7 7 5.9604645e-08 5.9604645e-08 5.9604645e-08 -5.9604645e-08 5.9604645e-08 -5.9604645e-08 0 2.3841858e-07 7 7 5.9604645e-08 5.9604645e-08 5.9604645e-08 -5.9604645e-08 5.9604645e-08 -5.9604645e-08 0 2.3841858e-07 7 7
// run: --kernel scoped --global 5 -D T=float --arg 'float[50]=7' --arg 'float[4]=1.000244140625,1.000244140625,-1.00048828125,1.00048828125'
// expect o: 5.9604645e-08 5.9604645e-08 5.9604645e-08 -5.9604645e-08 5.9604645e-08 -5.9604645e-08 0 2.3841858e-07 0 0 5.9604645e-08 5.9604645e-08 5.9604645e-08 -5.9604645e-08 5.9604645e-08 -5.9604645e-08 0 2.3841858e-07 0 0 5.9604645e-08 5.9604645e-08 5.9604645e-08 -5.9604645e-08 5.9604645e-08 -5.9604645e-08 0 2.3841858e-07 0 0 5.9604645e-08 5.9604645e-08 5.9604645e-08 -5.9604645e-08 5.9604645e-08 -5.9604645e-08 0 2.3841858e-07 0 0 5.9604645e-08 5.9604645e-08 5.9604645e-08 -5.9604645e-08 5.9604645e-08 -5.9604645e-08 0 2.3841858e-07 0 0
// run: --kernel off --global 5 -D T=double -D DOUBLE --arg 'double[50]=7' --arg 'double[4]=1.000000007450580596923828125,1.000000007450580596923828125,-1.00000001490116119384765625,1.00000001490116119384765625'
// requires: cl_khr_fp64
// expect o: 0 0 0 0 0 0 0 0 7 7 0 0 0 0 0 0 0 0 7 7 0 0 0 0 0 0 0 0 7 7 0 0 0 0 0 0 0 0 7 7 0 0 0 0 0 0 0 0 7 7
// run: --kernel contracted --global 5 -D T=double -D DOUBLE --arg 'double[50]=7' --arg 'double[4]=1.000000007450580596923828125,1.000000007450580596923828125,-1.00000001490116119384765625,1.00000001490116119384765625'
// requires: cl_khr_fp64
// expect o: 5.551115123125783e-17 5.551115123125783e-17 5.551115123125783e-17 -5.551115123125783e-17 5.551115123125783e-17 -5.551115123125783e-17 0 2.220446049250313e-16 7 7 5.551115123125783e-17 5.551115123125783e-17 5.551115123125783e-17 -5.551115123125783e-17 5.551115123125783e-17 -5.551115123125783e-17 0 2.220446049250313e-16 7 7 5.551115123125783e-17 5.551115123125783e-17 5.551115123125783e-17 -5.551115123125783e-17 5.551115123125783e-17 -5.551115123125783e-17 0 2.220446049250313e-16 7 7 5.551115123125783e-17 5.551115123125783e-17 5.551115123125783e-17 -5.551115123125783e-17 5.551115123125783e-17 -5.551115123125783e-17 0 2.220446049250313e-16 7 7 5.551115123125783e-17 5.551115123125783e-17 5.551115123125783e-17 -5.551115123125783e-17 5.551115123125783e-17 -5.551115123125783e-17 0 2.220446049250313e-16 7 7
// run: --kernel scoped --global 5 -D T=double -D DOUBLE --arg 'double[50]=7' --arg 'double[4]=1.000000007450580596923828125,1.000000007450580596923828125,-1.00000001490116119384765625,1.00000001490116119384765625'
// requires: cl_khr_fp64
// expect o: 5.551115123125783e-17 5.551115123125783e-17 5.551115123125783e-17 -5.551115123125783e-17 5.551115123125783e-17 -5.551115123125783e-17 0 2.220446049250313e-16 0 0 5.551115123125783e-17 5.551115123125783e-17 5.551115123125783e-17 -5.551115123125783e-17 5.551115123125783e-17 -5.551115123125783e-17 0 2.220446049250313e-16 0 0 5.551115123125783e-17 5.551115123125783e-17 5.551115123125783e-17 -5.551115123125783e-17 5.551115123125783e-17 -5.551115123125783e-17 0 2.220446049250313e-16 0 0 5.551115123125783e-17 5.551115123125783e-17 5.551115123125783e-17 -5.551115123125783e-17 5.551115123125783e-17 -5.551115123125783e-17 0 2.220446049250313e-16 0 0 5.551115123125783e-17 5.551115123125783e-17 5.551115123125783e-17 -5.551115123125783e-17 5.551115123125783e-17 -5.551115123125783e-17 0 2.220446049250313e-16 0 0

#ifdef DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#ifdef FP_FAST_FMA
#define FAST
#endif
#elif defined(FP_FAST_FMAF)
#define FAST
#endif

#define CAT(x, y) x##y
#define XCAT(x, y) CAT(x, y)
#define VT XCAT(T, 4)

// The eight expressions as written, contracted or not by the state where they stand.
#define WRITTEN(r, a, b, c, d)                                                                \
    do {                                                                                      \
        T t;                                                                                  \
        r[0] = a * b + c;                                                                     \
        r[1] = c + a * b;                                                                     \
        r[2] = a * b - d;                                                                     \
        r[3] = d - a * b;                                                                     \
        t = c;                                                                                \
        t += a * b;                                                                           \
        r[4] = t;                                                                             \
        t = d;                                                                                \
        t -= a * b;                                                                           \
        r[5] = t;                                                                             \
        T p = a * b;                                                                          \
        r[6] = p + c;                                                                         \
        VT v = (VT)(a) * (VT)(b) + (VT)(c);                                                   \
        r[7] = v.x + v.y + v.z + v.w;                                                         \
    } while (0)

// Their fused values, through fma.
#define FUSED(r, a, b, c, d)                                                                  \
    do {                                                                                      \
        r[0] = fma(a, b, c);                                                                  \
        r[1] = fma(a, b, c);                                                                  \
        r[2] = fma(a, b, -d);                                                                 \
        r[3] = fma(-a, b, d);                                                                 \
        r[4] = fma(a, b, c);                                                                  \
        r[5] = fma(-a, b, d);                                                                 \
        T p = a * b;                                                                          \
        r[6] = p + c;                                                                         \
        VT v = fma((VT)(a), (VT)(b), (VT)(c));                                                \
        r[7] = v.x + v.y + v.z + v.w;                                                         \
    } while (0)

kernel void off(global T *o, global const T *in) {
#pragma OPENCL FP_CONTRACT OFF
    T a = in[0], b = in[1], c = in[2], d = in[3];
    global T *r = o + 10 * get_global_id(0);
    WRITTEN(r, a, b, c, d);
}

kernel void contracted(global T *o, global const T *in) {
    T a = in[0], b = in[1], c = in[2], d = in[3];
    global T *r = o + 10 * get_global_id(0);
#ifdef FAST
    WRITTEN(r, a, b, c, d);
#else
    FUSED(r, a, b, c, d);
#endif
}

#pragma OPENCL FP_CONTRACT OFF

kernel void scoped(global T *o, global const T *in) {
    T a = in[0], b = in[1], c = in[2], d = in[3];
    global T *r = o + 10 * get_global_id(0);
    {
#pragma OPENCL FP_CONTRACT ON
#ifdef FAST
        WRITTEN(r, a, b, c, d);
#else
        FUSED(r, a, b, c, d);
#endif
    }
    r[8] = a * b + c;
    r[9] = c + a * b;
}
