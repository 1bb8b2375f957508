// expect-error: 6
// rule: C99 6.10.1 #endif must close an #if group

// A stray #endif and a stray #else.

#endif

__kernel void k(__global int *out)
{
    out[0] = 1;
}
