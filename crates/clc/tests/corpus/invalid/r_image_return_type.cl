// requires: images
// expect-error: 7
// rule: 6.11.b an image type cannot be the return type of a function

// A helper function that returns an image.

image2d_t pick(read_only image2d_t a, read_only image2d_t b, int first)
{
    return a;
}

__kernel void k(__global int *out)
{
    out[0] = 1;
}
