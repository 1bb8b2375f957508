// requires: fp16
// half as an arithmetic type with cl_khr_fp16: scalar and vector half math,
// half literals with the h suffix, conversions and half builtins.

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void hscale(__global half *x, const half a)
{
    size_t i = get_global_id(0);
    x[i] = x[i] * a + 1.0h;
}

__kernel void hvec(__global half4 *v, __global const float4 *f)
{
    size_t i = get_global_id(0);
    half4 h = convert_half4(f[i]);
    half4 r = fma(h, h, (half4)(0.5h));
    v[i] = max(r, sqrt(h)) + (half)HALF_EPSILON;
}

__kernel void hdot(__global const half *a, __global const half *b, __global float *out, int n)
{
    half acc = 0.0h;
    for (int i = 0; i < n; i++)
        acc += a[i] * b[i];
    out[get_global_id(0)] = (float)acc;
}
