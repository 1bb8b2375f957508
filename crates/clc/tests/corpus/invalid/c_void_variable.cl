// expect-error: 8
// rule: C99 6.7 an object shall not have void type

// A variable of type void.

__kernel void k(__global int *out)
{
    void nothing;
    out[0] = 0;
}
