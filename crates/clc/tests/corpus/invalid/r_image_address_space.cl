// requires: images
// expect-error: 7
// rule: 6.11.b an image type cannot be used with the __global, __private, __local and __constant qualifiers

// An image argument with the __global qualifier.

__kernel void k(__global image2d_t img, __global float4 *out)
{
    out[0] = (float4)(0.0f);
}
