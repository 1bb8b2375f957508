// requires: images
// expect-error: 9
// rule: 6.15.15.1 a sampler_t variable must be initialized with a 32-bit unsigned integer constant

// A kernel-scope sampler initialised from an argument.

__kernel void k(read_only image2d_t img, const int flags, __global float4 *out)
{
    sampler_t s = flags;
    out[0] = read_imagef(img, s, (int2)(0));
}
