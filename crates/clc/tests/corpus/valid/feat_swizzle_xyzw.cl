// Component selection with .xyzw (6.3.7): single components, repeated
// components as rvalues, shuffled and partial lvalues, and swizzles of
// swizzles, on 2-, 3- and 4-component vectors.

__kernel void swizzle_xyzw(__global float4 *out, __global int2 *iout)
{
    float4 pos = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    float4 swiz = pos.wzyx;         /* (4, 3, 2, 1) */
    float4 dup = pos.xxyy;          /* repetition is fine as an rvalue */
    float2 two = pos.zw;
    float3 three = pos.xyz;
    float one = pos.y;

    float4 lhs = (float4)(0.0f);
    lhs.xw = (float2)(5.0f, 6.0f);  /* partial lvalue */
    lhs.zy = pos.xy;                /* shuffled lvalue */
    lhs.x = one;
    lhs.xyz = three.zyx;

    float2 p2 = (float2)(1.0f, 2.0f);
    float4 widened = p2.xyxy;       /* a 2-vector swizzled to 4 components */
    float3 v3 = (float3)(1.0f, 2.0f, 3.0f);
    v3.zx = v3.xz;
    float s = v3.zyx.y;             /* swizzle of a swizzle */

    int2 iv = (int2)(7, 8);
    iv.yx = iv;
    iv.x += 1;
    iv.y++;

    out[0] = swiz + dup + (float4)(two, two) + lhs + widened + (float4)(v3, s);
    iout[0] = iv;
}
