// expect-error: 8
// rule: 6.11.i the register storage-class specifier is not supported

// A local variable declared register.

__kernel void k(__global int *out)
{
    register int acc = 0;
    for (int i = 0; i < 4; i++)
        acc += i;
    out[0] = acc;
}
