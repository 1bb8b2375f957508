// expect-error: 9
// rule: 6.15.7 vloadn reads from a pointer to the vector's scalar element type

// vload4 from a pointer to float4 (vloadn takes a pointer to the scalar
// element type).

__kernel void k(__global const float4 *in, __global float4 *out)
{
    float4 v = vload4(0, in);
    out[0] = v;
}
