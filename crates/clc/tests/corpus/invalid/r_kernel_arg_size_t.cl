// expect-error: 6
// rule: 6.11.m kernel arguments cannot be declared with the type size_t

// A size_t kernel argument.

__kernel void k(__global float *out, size_t n)
{
    if (get_global_id(0) < n)
        out[get_global_id(0)] = 0.0f;
}
