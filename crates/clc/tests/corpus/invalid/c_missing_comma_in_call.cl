// expect-error: 8
// rule: C99 6.5.2 arguments in a call are separated by commas

// Two arguments without a comma between them.

__kernel void k(__global float *out)
{
    out[0] = fmax(out[1] out[2]);
}
