// requires: images
// expect-error: 7
// rule: 6.11.b the sampler type cannot be used to declare a pointer to a sampler

// A pointer to a sampler as a helper parameter.

float4 fetch(read_only image2d_t img, sampler_t *s)
{
    return (float4)(0.0f);
}

__kernel void k(__global float4 *out)
{
    out[0] = (float4)(1.0f);
}
