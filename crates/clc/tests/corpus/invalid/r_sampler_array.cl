// requires: images
// expect-error: 9
// rule: 6.11.b the sampler type cannot be used to declare an array of samplers

// An array of samplers in a kernel.

__kernel void k(read_only image2d_t img, __global float4 *out)
{
    sampler_t modes[2] = { CLK_FILTER_NEAREST, CLK_FILTER_LINEAR };
    out[0] = read_imagef(img, modes[0], (int2)(0));
}
