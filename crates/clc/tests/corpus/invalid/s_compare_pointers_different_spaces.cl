// expect-error: 8
// rule: 6.7.9 pointers to different named address spaces cannot be compared

// Comparing a __local pointer with a __global pointer.

__kernel void k(__global int *gptr, __local int *lptr)
{
    if (lptr == gptr)
        gptr[0] = 1;
}
