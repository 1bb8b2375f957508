// expect-error: 9
// rule: 6.4.4.2 as_type requires operand and result of the same size

// as_float4 of an int2 (8 bytes to 16 bytes).

__kernel void k(__global float4 *out)
{
    int2 bits = (int2)(1, 2);
    out[0] = as_float4(bits);
}
