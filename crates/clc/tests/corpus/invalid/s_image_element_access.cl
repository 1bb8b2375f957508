// requires: images
// expect-error: 9
// rule: 6.11.b elements of an image can only be accessed using the built-in image functions

// Subscripting an image argument as if it were an array.

__kernel void k(read_only image2d_t img, __global float4 *out)
{
    out[0] = img[0];
}
