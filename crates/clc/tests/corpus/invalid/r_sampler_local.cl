// requires: images
// expect-error: 9
// rule: 6.11.b the sampler type cannot be used with the __local and __global qualifiers

// A sampler declared in __local memory.

__kernel void k(read_only image2d_t img, __global float4 *out)
{
    __local sampler_t s;
    out[0] = (float4)(0.0f);
}
