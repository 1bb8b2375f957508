// expect-error: 10
// rule: C99 6.5.3.4 sizeof shall not be applied to an incomplete type

// sizeof a struct that is only declared.

struct Opaque;

__kernel void k(__global int *out)
{
    out[0] = sizeof(struct Opaque);
}
