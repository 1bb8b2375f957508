// expect-error: 8
// rule: 6.11.r event_t cannot be used with the __local, __constant and __global qualifiers

// An event_t in __local memory.

__kernel void k(__global float *out, __local float *tile)
{
    __local event_t ev;
    out[0] = 0.0f;
}
