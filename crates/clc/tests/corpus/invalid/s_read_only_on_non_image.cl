// expect-error: 6
// rule: 6.8 access qualifiers apply to image (and pipe) types only

// read_only applied to a buffer pointer argument.

__kernel void k(read_only __global float *in, __global float *out)
{
    out[0] = in[0];
}
