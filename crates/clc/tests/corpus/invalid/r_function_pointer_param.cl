// expect-error: 6
// rule: 6.11.a pointers to functions are not allowed

// A function-pointer parameter of a helper function.

int apply(int (*f)(int), int x)
{
    return x;
}

__kernel void k(__global int *data)
{
    data[0] = apply(0, data[0]);
}
