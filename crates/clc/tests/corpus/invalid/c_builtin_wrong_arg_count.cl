// expect-error: 10
// expect-error: 11
// rule: 6.15 a builtin call must match one of its declared signatures (argument count)

// dot with one argument and clamp with two.

__kernel void k(__global float4 *v, __global float *out)
{
    float4 a = v[0];
    out[0] = dot(a);
    out[1] = clamp(a.x, 0.0f);
}
