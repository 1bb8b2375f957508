// expect-error: 7
// rule: 6.11.a kernel pointer arguments must be __global, __constant or __local

// A kernel whose pointer argument has no address-space qualifier: in
// OpenCL C 1.2 an unqualified pointer is a __private pointer.

__kernel void scale(float *data, const float k)
{
    data[get_global_id(0)] *= k;
}
