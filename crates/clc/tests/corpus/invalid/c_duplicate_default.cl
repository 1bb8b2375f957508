// expect-error: 10
// rule: C99 6.8.4.2 a switch shall have at most one default label

// Two default labels in one switch.

__kernel void k(__global int *out)
{
    switch (out[0]) {
    case 1: out[1] = 1; break;
    default: out[1] = 0; break; default: out[1] = 2; break;
    }
}
