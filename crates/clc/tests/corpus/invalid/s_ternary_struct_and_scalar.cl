// expect-error: 11
// rule: 6.5.9 / C99 6.5.15 the second and third operands of ?: must have compatible types

// ?: choosing between a struct and a float.

typedef struct { float x, y; } Point;

__kernel void k(__global float *out, const int pick)
{
    Point p = { 1.0f, 2.0f };
    float f = pick ? p : 3.0f;
    out[0] = f;
}
