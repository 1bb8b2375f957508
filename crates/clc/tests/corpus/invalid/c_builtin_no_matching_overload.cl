// expect-error: 10
// expect-error: 11
// rule: 6.15 a builtin call must match one of its declared signatures (argument types)

// cross of float2 vectors (declared for float3 and float4 only) and
// length of an int vector.

__kernel void k(__global float2 *v, __global float *out)
{
    float2 n = cross(v[0], v[1]);
    out[0] = length((int4)(1));
}
