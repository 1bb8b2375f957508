// expect-error: 6
// rule: 6.11.a kernel pointer arguments must be __global, __constant or __local

// A kernel with an explicitly __private pointer argument.

__kernel void fill(__global int *out, __private int *seed)
{
    out[get_global_id(0)] = *seed;
}
