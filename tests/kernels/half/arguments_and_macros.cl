// half by value and in structs (cl_khr_fp16): a half, a half4 and a struct with half members
// (6.1.5: a half is 2 bytes aligned to 2, so the struct is 12 bytes with the int at 4) reach
// the kernel bit for bit, a negative zero and HALF_MAX included; the HALF_ macros of 6.15.2.1
// have the spec's values, are usable in #if, and the M_*_H constants are the float ones
// rounded to half.
// requires: cl_khr_fp16
// run: --kernel k --global 1 --arg half:-0 --arg half4:1,-2.5,0.0999755859375,65504 --arg '{half:1.5,int:7,half:-2}' --arg 'half[8]' --arg 'int[10]'
// expect o: -0.0 1.0 -2.5 0.0999755859375 65504.0 1.5 -2.0 -3.0
// expect c: 7 12 3 11 4 16 -4 -13 2 1
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#if !defined(HALF_RADIX) || HALF_RADIX != 2 || HALF_MANT_DIG != 11 || HALF_DIG != 3
#error HALF_ macros
#endif
struct S {
    half a;
    int n;
    half b;
};
kernel void k(half x, half4 v, struct S s, global half *o, global int *c) {
    o[0] = x;
    vstore4(v, 0, o + 1);
    o[5] = s.a;
    o[6] = s.b;
    o[7] = s.a * s.b + x;
    c[0] = s.n;
    c[1] = sizeof(struct S);
    c[2] = HALF_DIG;
    c[3] = HALF_MANT_DIG;
    c[4] = HALF_MAX_10_EXP;
    c[5] = HALF_MAX_EXP;
    c[6] = HALF_MIN_10_EXP;
    c[7] = HALF_MIN_EXP;
    c[8] = HALF_RADIX;
    c[9] = HALF_MAX == 0x1.ffcp15h && HALF_MIN == 0x1.0p-14h && HALF_EPSILON == 0x1.0p-10h &&
           M_PI_H == (half)M_PI_F && M_E_H == (half)M_E_F && M_LN10_H == (half)M_LN10_F &&
           M_SQRT1_2_H == (half)M_SQRT1_2_F && M_2_SQRTPI_H == (half)M_2_SQRTPI_F &&
           M_1_PI_H == (half)M_1_PI_F && M_LOG2E_H == (half)M_LOG2E_F;
}
