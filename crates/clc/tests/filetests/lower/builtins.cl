// Builtins that are instructions, conversions with rounding and saturation, a library call,
// and get_global_id with a run-time dimension.
__kernel void b(__global float *f, __global int *i, uint d) {
    float x = f[0];
    f[1] = sqrt(x) + fma(x, x, 1.0f) + sin(x);
    i[0] = convert_int_sat_rtn(x) + min(i[1], 4) + as_int(x);
    i[2] = (int)get_global_id(d);
    f[2] = native_exp(x);
    atomic_add(&i[3], 1);
}
