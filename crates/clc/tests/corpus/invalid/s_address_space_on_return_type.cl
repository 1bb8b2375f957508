// expect-error: 6
// rule: 6.7 a function return type cannot be qualified with an address space

// A helper function whose return type carries __global.

__global int read_first(__global int *p)
{
    return p[0];
}

__kernel void k(__global int *out)
{
    out[1] = read_first(out);
}
