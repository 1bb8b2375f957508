// Vector literals, swizzles as rvalues and lvalues, vector comparison (-1/0), splat.
__kernel void v(__global float4 *p, __global int4 *m) {
    float4 a = (float4)(1.0f, 2.0f, p[0].xy);
    a.zw = a.xy * 2.0f;
    p[1] = a.wzyx + 1.0f;
    m[0] = a > p[0];
}
