// Math builtins (6.15.2) on scalars and vectors of float: the gentype and
// gentypef overloads, functions with pointer outputs into each address
// space, half_ and native_ variants, and the mixed vector/scalar forms
// (fmax(floatn, float), ldexp(floatn, int), pown/rootn with intn).

__kernel void math_builtins(__global float4 *out, __global float *sout, __global int4 *iout,
                            __local float4 *scratch)
{
    size_t i = get_global_id(0);
    float4 x = (float4)(0.1f, 0.5f, 1.5f, 2.5f) + (float)i;
    float s = x.x;

    float4 r = acos(x / 4.0f) + acosh(x + 1.0f) + acospi(x / 4.0f) + asin(x / 4.0f) +
               asinh(x) + asinpi(x / 4.0f) + atan(x) + atan2(x, x + 1.0f) + atanh(x / 4.0f) +
               atanpi(x) + atan2pi(x, 2.0f * x) + cbrt(x) + ceil(x) + copysign(x, -x) +
               cos(x) + cosh(x) + cospi(x) + erfc(x) + erf(x) + exp(x) + exp2(x) + exp10(x) +
               expm1(x) + fabs(x) + fdim(x, 1.0f) + floor(x) + fma(x, x, x) + fmax(x, 1.0f) +
               fmin(x, x * 2) + fmod(x, 0.7f) + hypot(x, x) + lgamma(x) + log(x) + log2(x) +
               log10(x) + log1p(x) + logb(x) + mad(x, x, x) + maxmag(x, -x) + minmag(x, -x) +
               nextafter(x, 0.0f) + pow(x, 1.5f) + powr(x, x) + remainder(x, 0.3f) + rint(x) +
               round(x) + rsqrt(x) + sin(x) + sinh(x) + sinpi(x) + sqrt(x) + tan(x) + tanh(x) +
               tanpi(x / 8.0f) + tgamma(x) + trunc(x);

    int4 e;
    float4 m = frexp(x, &e);
    float4 ip;
    float4 fr = modf(x, &ip);
    float4 fl;
    float4 fa = fract(x, &fl);
    int4 q;
    float4 rq = remquo(x, 0.3f, &q);
    float4 c;
    float4 sn = sincos(x, &c);
    float4 lg;
    int4 sign;
    lg = lgamma_r(x, &sign);
    scratch[get_local_id(0)] = (float4)(0.0f);
    float4 sn2 = sincos(x, &scratch[get_local_id(0)]);        /* __local output */
    float4 fr2 = modf(x, &out[i]);                              /* __global output */
    int4 ilog = ilogb(x);
    float4 ld = ldexp(x, 3) + ldexp(x, (int4)(1, 2, 3, 4)) + pown(x, (int4)(2)) +
                rootn(x, (int4)(3)) + nan((uint4)(1));

    float h = half_cos(s) + half_divide(s, 3.0f) + half_exp(s) + half_exp2(s) + half_exp10(s) +
              half_log(s) + half_log2(s) + half_log10(s) + half_powr(s, 2.0f) +
              half_recip(s) + half_rsqrt(s) + half_sin(s) + half_sqrt(s) + half_tan(s);
    float n = native_cos(s) + native_divide(s, 3.0f) + native_exp(s) + native_exp2(s) +
              native_exp10(s) + native_log(s) + native_log2(s) + native_log10(s) +
              native_powr(s, 2.0f) + native_recip(s) + native_rsqrt(s) + native_sin(s) +
              native_sqrt(s) + native_tan(s);
    float16 wide = sqrt((float16)(s)) + fmax((float16)(1.0f), 2.0f);
    float2 f2 = fmin((float2)(s, 1.0f), 0.5f);
    float3 f3 = hypot((float3)(s), (float3)(1.0f));
    float8 f8 = mix((float8)(0.0f), (float8)(1.0f), 0.25f);

    out[i] = r + m + fr + ip + fl + fa + rq + sn + c + lg + sn2 + fr2 + ld + convert_float4(e);
    sout[i] = h + n + wide.sf + f2.y + f3.z + f8.s7;
    iout[i] = e + q + sign + ilog;
}
