// expect-error: 10
// rule: 6.15.13 vec_step takes a built-in scalar or vector type or expression

// vec_step of a struct type.

typedef struct { float a, b; } Pair;

__kernel void k(__global int *out)
{
    out[0] = vec_step(Pair);
}
