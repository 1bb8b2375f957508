// expect-error: 8
// rule: 6.7.9 casting between pointers to non-overlapping address spaces is illegal

// Casting a __local pointer to a __global pointer.

__kernel void k(__global int *out, __local int *tile)
{
    __global int *g = (__global int *)tile;
    g[0] = out[0];
}
