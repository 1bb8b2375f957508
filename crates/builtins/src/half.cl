// The math functions of 6.15.2 for `half` (cl_khr_fp16). OpenCL C 7.4, after Table 69:
// "Implementations may perform floating-point operations on half scalar or vector data types by
// converting the half values to single precision floating-point values and performing the
// operation in single precision floating-point." Each function here widens its arguments to
// float (exactly), calls the float function and rounds its result to half once (to nearest
// even). The float functions are within Table 65's bounds (at most 16 float ulp, 2^-19 of a
// half ulp), so the half result is within 0.5 half ulp plus that of the exact value: inside
// every bound of Table 69, and correctly rounded where the float function is exact (ceil,
// fmod, remainder, ldexp, ...) or correctly rounded (the double rounding of an operation on
// half operands through float is innocuous, as for + - * /). The exceptions are written out:
// fract (its bound below 1 is a half's), nextafter (a half's neighbour).
//
// This file comes last: it calls the float functions the others define.

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define __CL_HALF_1(f) \
    half __cl_##f##_half(half x) { return (half)__cl_##f##_float((float)x); }
#define __CL_HALF_2(f) \
    half __cl_##f##_half_half(half x, half y) { return (half)__cl_##f##_float_float((float)x, (float)y); }
#define __CL_HALF_N(f) \
    half __cl_##f##_half_int(half x, int n) { return (half)__cl_##f##_float_int((float)x, n); }

__CL_HALF_1(acos)
__CL_HALF_1(acosh)
__CL_HALF_1(acospi)
__CL_HALF_1(asin)
__CL_HALF_1(asinh)
__CL_HALF_1(asinpi)
__CL_HALF_1(atan)
__CL_HALF_1(atanh)
__CL_HALF_1(atanpi)
__CL_HALF_1(cbrt)
__CL_HALF_1(cos)
__CL_HALF_1(cosh)
__CL_HALF_1(cospi)
__CL_HALF_1(erf)
__CL_HALF_1(erfc)
__CL_HALF_1(exp)
__CL_HALF_1(exp2)
__CL_HALF_1(exp10)
__CL_HALF_1(expm1)
__CL_HALF_1(lgamma)
__CL_HALF_1(log)
__CL_HALF_1(log2)
__CL_HALF_1(log10)
__CL_HALF_1(log1p)
__CL_HALF_1(logb)
__CL_HALF_1(round)
__CL_HALF_1(rsqrt)
__CL_HALF_1(sin)
__CL_HALF_1(sinh)
__CL_HALF_1(sinpi)
__CL_HALF_1(tan)
__CL_HALF_1(tanh)
__CL_HALF_1(tanpi)
__CL_HALF_1(tgamma)

__CL_HALF_2(atan2)
__CL_HALF_2(atan2pi)
__CL_HALF_2(fdim)
__CL_HALF_2(fmod)
__CL_HALF_2(hypot)
__CL_HALF_2(maxmag)
__CL_HALF_2(minmag)
__CL_HALF_2(pow)
__CL_HALF_2(powr)
__CL_HALF_2(remainder)

__CL_HALF_N(ldexp)
__CL_HALF_N(pown)
__CL_HALF_N(rootn)

int __cl_ilogb_half(half x) { return __cl_ilogb_float((float)x); }

half __cl_frexp_half_ptr_int(half x, int *e) {
    return (half)__cl_frexp_float_ptr_int((float)x, e);
}

half __cl_lgamma_r_half_ptr_int(half x, int *s) {
    return (half)__cl_lgamma_r_float_ptr_int((float)x, s);
}

half __cl_remquo_half_half_ptr_int(half x, half y, int *q) {
    return (half)__cl_remquo_float_float_ptr_int((float)x, (float)y, q);
}

half __cl_modf_half_ptr_half(half x, half *ip) {
    float i;
    half r = (half)__cl_modf_float_ptr_float((float)x, &i);
    *ip = (half)i;
    return r;
}

half __cl_sincos_half_ptr_half(half x, half *c) {
    float fc;
    half s = (half)__cl_sincos_float_ptr_float((float)x, &fc);
    *c = (half)fc;
    return s;
}

// 6.15.2: fract(x) = fmin(x - floor(x), 0x1.ffcp-1f) for half. The float difference is exact,
// but for a small negative x it can round up to 1.0 as a half; the half bound brings it back
// (a NaN passes through the comparison).
half __cl_fract_half_ptr_half(half x, half *ip) {
    float i;
    half r = (half)__cl_fract_float_ptr_float((float)x, &i);
    *ip = (half)i;
    return r > 0x1.ffcp-1h ? 0x1.ffcp-1h : r;
}

// 6.15.2: nextafter "computes the next representable half-precision floating-point value
// following x in the direction of y": one step of the half's bits (ordered like sign and
// magnitude), from zero to the smallest subnormal of y's sign.
half __cl_nextafter_half_half(half x, half y) {
    if (x != x || y != y)
        return x + y;
    if (x == y)
        return y;
    short bits = as_short(x);
    if ((bits & 0x7fff) == 0)
        return as_half((short)((as_short(y) & (short)0x8000) | 1));
    // Away from zero when moving in x's direction, toward zero otherwise.
    short step = (x < y) == (bits > 0) ? 1 : -1;
    return as_half((short)(bits + step));
}

// 6.15.2: nan "returns a quiet NaN. The nancode may be placed in the significand of the
// resulting NaN": the code's low bits below the quiet bit, as for float and double.
half __cl_nan_ushort(ushort code) { return as_half((ushort)(0x7e00u | (code & 0x01ffu))); }

// 6.15.15: read_imageh and write_imageh, as read_imagef and write_imagef with the values
// converted: a half widens to float exactly, and the float read (a CL_HALF_FLOAT texel widened
// exactly, a normalized integer divided as 8.3.1.1 says) rounds once more, to the nearest half.
// The image helpers and macros are image.cl's.
#define __CL_HALF_IMAGE(D, F, I)                                                             \
    half4 __cl_read_imageh_##D##_sampler_t_##F(IMG im, uint smp, F c) {                      \
        return convert_half4(__cl_read_imagef_##D##_sampler_t_##F(im, smp, c));              \
    }                                                                                        \
    half4 __cl_read_imageh_##D##_sampler_t_##I(IMG im, uint smp, I c) {                      \
        return convert_half4(__cl_read_imagef_##D##_sampler_t_##I(im, smp, c));              \
    }                                                                                        \
    half4 __cl_read_imageh_##D##_##I(IMG im, I c) {                                          \
        return convert_half4(__cl_read_imagef_##D##_##I(im, c));                             \
    }                                                                                        \
    void __cl_write_imageh_##D##_##I##_half4(IMG im, I c, half4 v) {                         \
        __cl_write_imagef_##D##_##I##_float4(im, c, convert_float4(v));                      \
    }
__CL_HALF_IMAGE(image1d_t, float, int)
__CL_HALF_IMAGE(image1d_array_t, float2, int2)
__CL_HALF_IMAGE(image2d_t, float2, int2)
__CL_HALF_IMAGE(image2d_array_t, float4, int4)
__CL_HALF_IMAGE(image3d_t, float4, int4)
half4 __cl_read_imageh_image1d_buffer_t_int(IMG im, int c) {
    return convert_half4(__cl_read_imagef_image1d_buffer_t_int(im, c));
}
void __cl_write_imageh_image1d_buffer_t_int_half4(IMG im, int c, half4 v) {
    __cl_write_imagef_image1d_buffer_t_int_float4(im, c, convert_float4(v));
}
