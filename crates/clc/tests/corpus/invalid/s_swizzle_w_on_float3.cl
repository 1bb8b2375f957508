// expect-error: 9
// rule: 6.3.7 accessing components beyond those declared for the vector type is an error

// .w on a float3.

__kernel void k(__global float *out)
{
    float3 pos = (float3)(1.0f, 2.0f, 3.0f);
    pos.w = 1.0f;
    out[0] = pos.x;
}
