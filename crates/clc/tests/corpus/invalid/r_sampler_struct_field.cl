// requires: images
// expect-error: 8
// rule: 6.11.b the sampler type cannot be used to declare a structure or union field

// A struct with a sampler member.

struct Lookup {
    sampler_t smp;
    float scale;
};

__kernel void k(__global float *out)
{
    out[0] = 0.0f;
}
