// expect-error: 7
// rule: C99 6.7.2.3 a struct tag shall be defined once in a scope

// struct Point defined twice.

struct Point { float x, y; };
struct Point { float x, y; };

__kernel void k(__global float *out)
{
    struct Point p = { 1.0f, 2.0f };
    out[0] = p.x;
}
