// requires: images
// expect-error: 7
// rule: 6.11.b an image type cannot be used to declare an array of images

// An array of images as a kernel argument.

__kernel void sum(__read_only image2d_t layers[4], __global float4 *out)
{
    out[0] = (float4)(0.0f);
}
