// expect-error: 9
// rule: C99 6.8.6.1 a goto shall name a label in the enclosing function

// goto to a label that does not exist.

__kernel void k(__global int *out)
{
    if (out[0] < 0)
        goto fail;
    out[1] = 1;
failed:
    out[2] = 0;
}
