// expect-error: 9
// rule: 6.3.7 it is illegal to take the address of a vector element

// Taking the address of a component of a float4.

__kernel void k(__global float *out)
{
    float4 v = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    float *p = &v.x;
    out[0] = *p;
}
