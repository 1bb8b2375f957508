// expect-error: 8
// rule: 6.4.1 a vector cannot be implicitly converted to a scalar

// Assigning a float4 to a float.

__kernel void k(__global float4 *in, __global float *out)
{
    float f = in[0];
    out[0] = f;
}
