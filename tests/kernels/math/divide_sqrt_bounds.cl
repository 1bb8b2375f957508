// Float division, square root and reciprocal square root within the bounds of OpenCL C 7.4,
// Table 65 ("x / y ≤ 2.5 ulp", "sqrt ≤ 3 ulp", "rsqrt ≤ 2 ulp"), which a device may meet
// with approximations (the GPU device does), against double references. Work-item g checks
// 16384 float bit patterns spread over every exponent for `sqrt` and `rsqrt` (the pattern
// times an odd stride), and as many pairs for `/`, and writes o[3g + k] = 1 when operation k
// exceeds its bound (or gives a NaN for a number) on any of them.
// run: --kernel bounds --global 64 --local 64 --arg 'int[192]=7'
// requires: cl_khr_fp64
// expect o: 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
// The edge cases of 7.5.1 (F.9.4.5 of C99 for sqrt): sqrt(-0) = -0, sqrt(+inf) = +inf,
// sqrt(-1) is a NaN; rsqrt(+0) = +inf, rsqrt(+inf) = +0; 1/0 = +inf, 1/inf = 0, 0/0 a NaN; and
// a subnormal: sqrt(2^-148) = 2^-74 (scaled by 2^74, exactly, to 1).
// run: --kernel edges --global 1 --arg 'float[9]' --arg 'float[4]=-0.0,inf,-1.0,0.0'
// expect o: -0.0 inf NaN inf 0.0 inf 0.0 NaN 1.0
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

double float_ulp(double r) {
    r = fabs(r);
    return r < 0x1p-126 ? 0x1p-149 : ldexp(1.0, ilogb(r) - 23);
}

int exceeds(float got, double want, double bound) {
    if (isnan(want) || fabs(want) > 0x1.fffffep127)
        return 0;
    if (isnan(got))
        return 1;
    return fabs((double)got - want) > bound * float_ulp(want);
}

uint mix(uint x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    return x ^ (x >> 16);
}

kernel void bounds(global int *o) {
    uint g = get_global_id(0);
    int bad[3] = {0, 0, 0};
    for (uint k = 0; k < 16384u; k++) {
        uint i = g * 16384u + k;
        float x = as_float((i * 4099u) & 0x7fffffffu);
        if (isfinite(x) && x > 0.0f) {
            double r = sqrt((double)x);
            bad[0] |= exceeds(sqrt(x), r, 3.0);
            bad[1] |= exceeds(rsqrt(x), 1.0 / r, 2.0);
        }
        float a = as_float(mix(i)), b = as_float(mix(i ^ 0x9e3779b9u));
        if (isfinite(a) && isfinite(b) && b != 0.0f)
            bad[2] |= exceeds(a / b, (double)a / (double)b, 2.5);
    }
    for (int k = 0; k < 3; k++)
        o[3 * g + k] = bad[k];
}

kernel void edges(global float *o, global const float *a) {
    o[0] = sqrt(a[0]);
    o[1] = sqrt(a[1]);
    o[2] = sqrt(a[2]);
    o[3] = rsqrt(a[3]);
    o[4] = rsqrt(a[1]);
    o[5] = 1.0f / a[3];
    o[6] = 1.0f / a[1];
    o[7] = a[3] / a[3];
    o[8] = sqrt(a[3] + 0x1p-148f) * 0x1p74f;
}
