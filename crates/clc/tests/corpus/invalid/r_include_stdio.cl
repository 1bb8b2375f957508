// expect-error: 6
// rule: 6.11.h C99 standard headers are not available and cannot be included

// Including a C standard library header.

#include <stdio.h>

__kernel void k(__global int *out)
{
    out[0] = 1;
}
