// expect-error: 6
// rule: 6.11.m kernel arguments cannot be declared with the type bool

// A bool kernel argument.

__kernel void k(__global float *out, bool negate)
{
    out[0] = negate ? -1.0f : 1.0f;
}
