// expect-error: 10
// rule: C99 6.5.2.3 a member access must name a member of the struct

// Accessing a member that the struct does not have.

typedef struct { float x, y; } Point;

__kernel void k(__global Point *pts, __global float *out)
{
    out[0] = pts[0].z;
}
