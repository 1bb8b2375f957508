// requires: images
// expect-error: 7
// rule: 6.11.b the sampler type cannot be the return type of a function

// A function that returns a sampler.

sampler_t choose(int linear)
{
    return CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
}

__kernel void k(__global float4 *out)
{
    out[0] = (float4)(0.0f);
}
