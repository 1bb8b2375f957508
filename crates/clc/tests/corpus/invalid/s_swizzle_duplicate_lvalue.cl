// expect-error: 9
// rule: 6.3.7 an lvalue swizzle must contain no duplicate components

// Assigning to a swizzle that names x twice.

__kernel void k(__global float4 *out)
{
    float4 pos = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    pos.xx = (float2)(3.0f, 4.0f);
    out[0] = pos;
}
