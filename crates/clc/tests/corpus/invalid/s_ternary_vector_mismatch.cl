// expect-error: 10
// rule: 6.5.9 the second and third operands of ?: must have compatible types

// ?: whose operands are a float2 and a float4.

__kernel void k(__global float4 *out, const int pick)
{
    float2 a = (float2)(1.0f);
    float4 b = (float4)(2.0f);
    out[0] = pick ? a : b;
}
