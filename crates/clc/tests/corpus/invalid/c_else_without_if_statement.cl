// expect-error: 9
// rule: C99 6.8.4 else must follow an if statement

// An else with no if before it.

__kernel void k(__global int *out)
{
    out[0] = 1;
    else
        out[0] = 2;
}
