// expect-error: 6
// rule: C99 6.10.3.3 ## shall not occur at the beginning or end of a replacement list

// ## at the start of a replacement list.

#define GLUE(a) ## a

__kernel void k(__global int *out)
{
    out[0] = 1;
}
