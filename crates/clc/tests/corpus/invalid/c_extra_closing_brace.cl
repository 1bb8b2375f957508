// expect-error: 10
// rule: C99 6.9 a stray '}' at file scope is a syntax error

// One closing brace too many.

__kernel void k(__global int *out)
{
    out[0] = 1;
}
}
