// expect-error: 13
// rule: C99 6.8.1 label names shall be unique within a function

// The label done defined twice.

__kernel void k(__global int *out)
{
    if (out[0])
        goto done;
    out[1] = 1;
done:
    out[2] = 2;
done:
    out[3] = 3;
}
