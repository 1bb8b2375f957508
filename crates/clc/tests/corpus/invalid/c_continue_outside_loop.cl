// expect-error: 10
// rule: C99 6.8.6.2 continue shall appear only in or as a loop body

// continue inside a switch that is not inside a loop.

__kernel void k(__global int *out)
{
    switch (out[0]) {
    case 0:
        continue;
    default:
        out[0] = 1;
    }
}
