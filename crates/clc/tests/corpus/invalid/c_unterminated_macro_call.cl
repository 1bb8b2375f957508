// expect-error: 10
// rule: C99 6.10.3 a function-like macro invocation must be closed by ')'

// A macro invocation whose closing parenthesis is missing before EOF.

#define TWICE(x) (2 * (x))

__kernel void k(__global int *out)
{
    out[0] = TWICE(out[1];
}
