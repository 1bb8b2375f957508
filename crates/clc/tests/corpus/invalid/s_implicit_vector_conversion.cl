// expect-error: 9
// expect-error: 10
// rule: 6.4.1 implicit conversions between built-in vector data types are disallowed

// Initialising an int4 from a float4 and a float4 from a uint4.

__kernel void k(__global float4 *f, __global uint4 *u, __global int4 *out)
{
    int4 i = f[0];
    float4 g = u[0];
    out[0] = i;
}
