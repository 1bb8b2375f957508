// expect-error: 8
// rule: 6.3.4 floatnxm matrix type names are reserved

// A float4x4 matrix variable.

__kernel void k(__global float *out)
{
    float4x4 m;
    out[0] = 0.0f;
}
