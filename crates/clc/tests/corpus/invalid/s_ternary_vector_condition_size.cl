// expect-error: 10
// rule: 6.5.9 a vector condition must have the same number of components as the operands

// An int2 condition selecting between float4 operands.

__kernel void k(__global float4 *out)
{
    int2 c = (int2)(-1, 0);
    float4 a = (float4)(1.0f), b = (float4)(2.0f);
    out[0] = c ? a : b;
}
