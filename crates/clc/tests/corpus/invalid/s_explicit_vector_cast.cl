// expect-error: 8
// rule: 6.4.2 explicit casts between vector types are not legal

// Casting a float4 to an int4 with a cast expression.

__kernel void k(__global float4 *f, __global int4 *out)
{
    out[0] = (int4)f[0];
}
