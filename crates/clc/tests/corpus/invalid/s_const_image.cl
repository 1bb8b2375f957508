// requires: images
// expect-error: 8
// rule: 6.11.q const, restrict and volatile cannot be used with image types
// note: PoCL accepts this file; 6.11.q: "These qualifiers cannot be used with image2d_t, image3d_t, ... types."

// A const-qualified image argument.

__kernel void k(const read_only image2d_t img, __global float4 *out)
{
    out[0] = read_imagef(img, (int2)(0));
}
