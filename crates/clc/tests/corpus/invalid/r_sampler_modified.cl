// requires: images
// expect-error: 9
// rule: 6.11.b a sampler argument or variable cannot be modified

// Assigning to a sampler argument.

__kernel void k(read_only image2d_t img, sampler_t s, sampler_t t, __global float4 *out)
{
    s = t;
    out[0] = read_imagef(img, s, (int2)(0));
}
