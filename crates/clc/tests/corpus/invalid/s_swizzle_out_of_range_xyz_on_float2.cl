// expect-error: 10
// expect-error: 11
// rule: 6.3.7 accessing components beyond those declared for the vector type is an error

// .xyz and .z on a float2.

__kernel void k(__global float2 *in, __global float4 *out)
{
    float2 v = in[0];
    float3 w = v.xyz;
    v.z = 1.0f;
    out[0] = (float4)(w, 0.0f);
}
