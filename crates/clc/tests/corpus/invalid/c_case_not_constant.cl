// expect-error: 9
// rule: C99 6.8.4.2 a case label expression shall be an integer constant expression

// A case label that uses a variable.

__kernel void k(__global int *out, const int n)
{
    switch (out[0]) {
    case n: out[1] = 1; break;
    default: out[1] = 0;
    }
}
