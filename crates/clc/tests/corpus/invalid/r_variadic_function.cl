// expect-error: 6
// rule: 6.11.e variadic functions are not supported, except printf and enqueue_kernel

// A user-defined variadic function.

int sum_all(int count, ...)
{
    return count;
}

__kernel void k(__global int *out)
{
    out[0] = sum_all(3, 1, 2, 3);
}
