// requires: fp64
// Double-precision kernels: DAXPY, a Kahan-compensated dot product,
// double vectors, math builtins and conversions between float and double.

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void daxpy(const double a, __global const double *x, __global double *y, const int n)
{
    int i = get_global_id(0);
    if (i < n)
        y[i] = fma(a, x[i], y[i]);
}

__kernel void kahan_dot(__global const double *x, __global const double *y,
                        __global double *partial, const int chunk)
{
    int g = get_global_id(0);
    double sum = 0.0, c = 0.0;
    for (int i = g * chunk; i < (g + 1) * chunk; i++) {
        double term = x[i] * y[i] - c;
        double t = sum + term;
        c = (t - sum) - term;
        sum = t;
    }
    partial[g] = sum;
}

__kernel void dvec(__global double4 *v, __global const float4 *f)
{
    size_t i = get_global_id(0);
    double4 d = convert_double4(f[i]);
    double2 lo = d.lo, hi = d.hi;
    double4 r = (double4)(sqrt(lo), exp(hi)) + 1.0e-3;
    v[i] = r * M_PI + (double4)(cbrt(d.x), log1p(d.y), hypot(d.z, d.w), pow(d.x, 2.5));
}

__kernel void narrow(__global const double *in, __global float *out)
{
    size_t i = get_global_id(0);
    out[i] = convert_float_rtz(in[i]) + (float)in[i];
    double x = 0x1.8p+1;
    out[i] += (float)(x * DBL_EPSILON);
}
