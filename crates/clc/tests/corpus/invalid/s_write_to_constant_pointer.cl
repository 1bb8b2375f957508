// expect-error: 8
// rule: 6.7.3 it is illegal to write to a variable in the constant address space

// Writing through a __constant pointer argument.

__kernel void k(__constant float *coeffs, __global float *out)
{
    coeffs[0] = 1.0f;
    out[0] = coeffs[1];
}
