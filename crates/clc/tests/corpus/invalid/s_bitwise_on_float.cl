// expect-error: 11
// expect-error: 12
// expect-error: 13
// rule: 6.5.6 bitwise operators are not allowed on floating-point types

// &, ~ and << applied to floats.

__kernel void k(__global float4 *out)
{
    float4 v = out[0];
    out[1] = v & 1.0f;
    out[2] = ~v;
    out[3] = v << 1;
}
