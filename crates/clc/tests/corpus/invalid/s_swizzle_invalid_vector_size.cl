// expect-error: 10
// rule: 6.3.7 a swizzle must produce a supported vector type (8 components of a 4-vector is not a valid type)
// note: PoCL accepts this file; 6.3.7: "illegal - component a.xxxxxxxx is not a valid vector type"

// a.xxxxxxxx is not a valid vector type.

__kernel void k(__global float16 *out)
{
    float4 a = (float4)(1.0f), b = a, c = a, d = a;
    out[0] = (float16)(a.xxxxxxxx, b.xyz, c.xyz, d.xy);
}
