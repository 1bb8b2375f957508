// expect-error: 9
// rule: C99 6.5.16 an array is not a modifiable lvalue

// Assigning one array to another.

__kernel void k(__global int *out)
{
    int a[2], b[2] = { 1, 2 };
    a = b;
    out[0] = a[0];
}
