// expect-error: 10
// rule: 6.11.a a __constant pointer can only be assigned to a __constant pointer

// A pointer to __constant data assigned to a pointer to __global data.

__constant float table[4] = { 1.0f, 2.0f, 3.0f, 4.0f };

__kernel void lookup(__global float *out)
{
    __global float *p = table;
    out[get_global_id(0)] = p[get_global_id(0) & 3];
}
