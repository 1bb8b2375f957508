// expect-error: 11
// rule: 6.7.9 a pointer to one named address space cannot be converted to another

// Passing a __global pointer to a helper that takes a private pointer
// under OpenCL C 1.2 (no generic address space).

void clear(float *p) { *p = 0.0f; }

__kernel void k(__global float *out)
{
    clear(out);
}
