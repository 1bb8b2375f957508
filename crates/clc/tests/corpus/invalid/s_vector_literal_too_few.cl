// expect-error: 8
// rule: 6.3.6 a vector literal must supply exactly the vector's component count

// A float4 literal with only two components.

__kernel void k(__global float4 *out)
{
    out[0] = (float4)(1.0f, 2.0f);
}
