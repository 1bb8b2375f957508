// expect-error: 9
// rule: C99 6.8.6.3 break shall appear only in or as a switch body or loop body

// break in an if statement that is not inside a loop or switch.

__kernel void k(__global int *out)
{
    if (out[0] > 0)
        break;
    out[0] = 1;
}
