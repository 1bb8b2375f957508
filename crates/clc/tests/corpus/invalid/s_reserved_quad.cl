// expect-error: 8
// rule: 6.3.4 quad is a reserved data type

// A quad (128-bit float) variable.

__kernel void k(__global float *out)
{
    quad q;
    out[0] = 0.0f;
}
