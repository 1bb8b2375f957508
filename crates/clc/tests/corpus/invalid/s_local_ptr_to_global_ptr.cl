// expect-error: 8
// rule: 6.7.9 a pointer to one named address space cannot be converted to another

// Assigning a __local pointer to a __global pointer.

__kernel void k(__global float *out, __local float *tile)
{
    __global float *p = tile;
    p[0] = 1.0f;
    out[0] = tile[0];
}
