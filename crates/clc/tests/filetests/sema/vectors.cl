// Vector literals, swizzles, scalar widening and comparisons (6.3.6, 6.3.7, 6.4.6, 6.5).
kernel void vec(global float4 *out, global int4 *mask)
{
    float2 h = (float2)(1.0f, 2.0f);
    float4 v = (float4)(h, 3, 4.0f);
    v.xy = v.wz * 2;
    mask[0] = v < 1.5f;
    out[0] = v.s3210 + (float4)(0.5f);
    float s = v.hi.x;
}
