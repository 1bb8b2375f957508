// expect-error: 8
// rule: C99 6.7 / 6.8 a declaration or expression statement must end with ';'

// A statement missing its terminating semicolon.

__kernel void k(__global int *out)
{
    int a = get_global_id(0)
    out[a] = a;
}
