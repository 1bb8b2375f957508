// requires: images
// expect-error: 7
// rule: 6.8 an image argument takes at most one access qualifier

// An image argument declared both read_only and write_only.

__kernel void k(read_only write_only image2d_t img, __global float *out)
{
    out[0] = 1.0f;
}
