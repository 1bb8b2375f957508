// expect-error: 9
// rule: C99 6.5.16 the left operand of an assignment shall be a modifiable lvalue

// Writing through a pointer to const global data.

__kernel void k(__global const float *in, __global float *out)
{
    out[0] = in[0];
    in[0] = 0.0f;
}
