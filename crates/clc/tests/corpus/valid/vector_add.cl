// Element-wise addition of two float arrays, with a scalar tail and a
// float4-wide variant that handles the remainder of a non-multiple length.

__kernel void vector_add(__global const float *a,
                         __global const float *b,
                         __global float *c,
                         const unsigned int n)
{
    size_t i = get_global_id(0);
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}

__kernel void vector_add4(__global const float4 *a,
                          __global const float4 *b,
                          __global float4 *c,
                          __global const float *a_tail,
                          __global const float *b_tail,
                          __global float *c_tail,
                          const unsigned int n4,
                          const unsigned int tail)
{
    size_t i = get_global_id(0);
    if (i < n4) {
        c[i] = a[i] + b[i];
    }
    /* the first few work-items also take care of the scalar tail */
    if (i < tail) {
        c_tail[i] = a_tail[i] + b_tail[i];
    }
}

__kernel void vector_add_strided(__global const int *a,
                                 __global const int *b,
                                 __global int *c,
                                 int n)
{
    for (int i = (int)get_global_id(0); i < n; i += (int)get_global_size(0)) {
        c[i] = a[i] + b[i];
    }
}
