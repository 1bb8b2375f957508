// expect-error: 8
// rule: 6.4.3 the explicit conversion functions convert between vectors with the same number of elements

// convert_int4 applied to a float2.

__kernel void k(__global float2 *in, __global int4 *out)
{
    out[0] = convert_int4(in[0]);
}
