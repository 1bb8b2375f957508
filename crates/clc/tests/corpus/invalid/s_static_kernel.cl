// expect-error: 6
// rule: 6.10 the static storage-class specifier can only be used for non-kernel functions

// A kernel function declared static.

static __kernel void k(__global int *out)
{
    out[0] = 1;
}
