// expect-error: 8
// rule: 6.3.4 bool vector types are reserved

// Declaring a bool4 variable.

__kernel void k(__global int *out)
{
    bool4 mask;
    out[0] = 0;
}
