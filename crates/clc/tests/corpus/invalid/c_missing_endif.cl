// expect-error: 6
// rule: C99 6.10.1 each #if group must be closed by #endif

// An #ifdef without its #endif.

#ifdef USE_FAST_PATH
#define SCALE 2
#else
#define SCALE 1

__kernel void k(__global int *out)
{
    out[0] = SCALE;
}
