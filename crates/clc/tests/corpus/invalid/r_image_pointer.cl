// requires: images
// expect-error: 8
// expect-error: 15
// rule: 6.11.b an image type cannot be used to declare a pointer to an image

// A pointer to an image passed to a helper function.

float4 fetch(read_only image2d_t *img, int2 p)
{
    return (float4)(0.0f);
}

__kernel void k(read_only image2d_t img, __global float4 *out)
{
    out[0] = fetch(&img, (int2)(0));
}
