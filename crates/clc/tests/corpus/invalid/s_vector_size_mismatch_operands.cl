// expect-error: 10
// rule: 6.5 operands of a binary operator must be vectors of the same size

// Adding a float4 and a float2.

__kernel void k(__global float4 *out)
{
    float4 a = out[0];
    float2 b = (float2)(1.0f, 2.0f);
    out[1] = a + b;
}
