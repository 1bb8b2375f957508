// Float `/` and `sqrt` are the relaxed instructions (within 2.5 and 3 ulp, OpenCL C 7.4);
// `rsqrt`, `native_rsqrt` and `half_rsqrt` the `rsqrt` instruction (2 ulp); double division
// stays a relaxed division too, which the IR defines as correctly rounded for double.
__kernel void r(__global float *f, __global double *d) {
    float x = f[0], y = f[1];
    f[2] = x / y + sqrt(x) + rsqrt(y) + native_rsqrt(x) + half_rsqrt(y);
    f[3] = native_divide(x, y) + native_recip(y) + native_sqrt(x);
    d[0] = d[1] / d[2];
}
