// expect-error: 6
// rule: C99 6.10.2 #include must name an existing file

// Including a header that does not exist.

#include "no_such_header.h"

__kernel void k(__global int *out)
{
    out[0] = 1;
}
