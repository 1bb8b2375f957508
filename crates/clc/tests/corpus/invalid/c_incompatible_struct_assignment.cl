// expect-error: 12
// expect-error: 13
// rule: C99 6.5.16.1 the operands of = must have compatible types

// Assigning a float to a struct and a struct to an int.

typedef struct { float x, y; } Point;

__kernel void k(__global float *out)
{
    Point p;
    p = 1.0f;
    int i = p;
    out[0] = p.x + i;
}
