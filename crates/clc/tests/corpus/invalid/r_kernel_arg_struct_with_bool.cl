// expect-error: 11
// rule: 6.11.m a struct kernel argument cannot contain fields of type bool

// A struct kernel argument with a bool member.

typedef struct {
    float scale;
    bool clamp_output;
} Params;

__kernel void k(__global float *out, Params p)
{
    out[0] = p.scale;
}
