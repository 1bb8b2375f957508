// expect-error: 7
// rule: C99 6.10.5 #error makes the translation fail

// #error reached when a required macro is missing.

#ifndef TILE_SIZE
#error TILE_SIZE must be defined with -DTILE_SIZE=N
#endif

__kernel void k(__global int *out)
{
    out[0] = 1;
}
