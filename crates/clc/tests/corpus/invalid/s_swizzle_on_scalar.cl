// expect-error: 9
// rule: 6.3.7 component selection applies to vector types only

// .x applied to a float scalar.

__kernel void k(__global float *out)
{
    float f = out[0];
    out[1] = f.x;
}
