// options: -cl-fp32-correctly-rounded-divide-sqrt
// With the option, float `/` and `sqrt` are the correctly rounded instructions; `rsqrt`
// keeps its own bound (2 ulp), which the option does not change.
__kernel void r(__global float *f) {
    float x = f[0], y = f[1];
    f[2] = x / y + sqrt(x) + rsqrt(y);
}
