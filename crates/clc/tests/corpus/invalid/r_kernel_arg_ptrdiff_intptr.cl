// expect-error: 9
// expect-error: 10
// expect-error: 11
// rule: 6.11.m kernel arguments cannot be ptrdiff_t, intptr_t or uintptr_t

// ptrdiff_t, intptr_t and uintptr_t kernel arguments.

__kernel void k(__global float *out,
                ptrdiff_t offset,
                intptr_t base,
                uintptr_t tag)
{
    out[0] = (float)(offset + base + tag);
}
