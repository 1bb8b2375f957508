// expect-error: 8
// rule: 6.15.12.8 legacy atomic functions take __global or __local pointers

// atomic_inc on a __constant pointer.

__kernel void k(__constant int *counter, __global int *out)
{
    out[0] = atomic_inc(counter);
}
