// expect-error: 8
// rule: 6.15.12.8 legacy atomic functions take 32-bit integer pointers

// atomic_add on a float pointer.

__kernel void k(volatile __global float *sum, __global const float *in)
{
    atomic_add(sum, in[get_global_id(0)]);
}
