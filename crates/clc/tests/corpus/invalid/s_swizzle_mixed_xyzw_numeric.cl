// expect-error: 10
// expect-error: 11
// rule: 6.3.7 numeric indices cannot be intermixed with .xyzw notation

// Mixing .xyzw letters with numeric indices in one selector.

__kernel void k(__global float4 *out)
{
    float4 f = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    float4 a = f.x12w;
    float2 b = f.s0y;
    out[0] = a + (float4)(b, b);
}
