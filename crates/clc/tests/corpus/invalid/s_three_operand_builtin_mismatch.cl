// expect-error: 12
// expect-error: 13
// expect-error: 14
// rule: 6.15.4 / 6.15.6 the operands of select, mix and fma must have matching types

// Three-operand builtins with operands of mismatched types: select with a
// float mask, mix of a float4 and a float2, fma of float4 and int4.

__kernel void k(__global float4 *out)
{
    float4 a = out[0], b = out[1];
    out[2] = select(a, b, a);
    out[3] = mix(a, (float2)(1.0f), 0.5f);
    out[4] = fma(a, b, (int4)(1));
}
