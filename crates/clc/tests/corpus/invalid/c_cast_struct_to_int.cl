// expect-error: 11
// rule: C99 6.5.4 a cast needs a scalar operand (or void result)

// Casting a struct to int.

typedef struct { int x; } Box;

__kernel void k(__global int *out)
{
    Box b = { 1 };
    out[0] = (int)b;
}
