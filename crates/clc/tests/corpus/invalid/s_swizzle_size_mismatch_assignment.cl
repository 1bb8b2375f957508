// expect-error: 9
// rule: 6.3.7 the assigned vector must match the swizzle's component count

// Assigning a float4 to a two-component swizzle.

__kernel void k(__global float4 *out)
{
    float4 pos = (float4)(0.0f);
    pos.xy = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    out[0] = pos;
}
