// options: -cl-std=CL3.0
// The .rgba selectors (6.3.7: "In OpenCL C 3.0, the components ... can also be
// addressed as .rgba"): rvalue, lvalue, repetition, and .rgba on 2- and
// 3-component vectors.

__kernel void rgba(__global float4 *out)
{
    float4 c = (float4)(0.1f, 0.2f, 0.3f, 1.0f);
    float4 bgra = c.bgra;
    float3 rgb = c.rgb;
    float gray = dot(rgb, (float3)(0.299f, 0.587f, 0.114f));
    float4 g = c.rrra;
    c.rgb = (float3)(gray);
    c.a *= 0.5f;
    float2 rg = (float2)(1, 2);
    rg.gr = rg.rg;
    float3 v3 = (float3)(1, 2, 3);
    v3.b = v3.r;
    out[0] = bgra + g + c + (float4)(rg, v3.bg);
}
