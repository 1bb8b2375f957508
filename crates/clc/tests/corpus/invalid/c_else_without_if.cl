// expect-error: 7
// rule: C99 6.10.1 #else must be inside an #if group

// A stray #else.

#define X 1
#else
#define X 2

__kernel void k(__global int *out)
{
    out[0] = X;
}
