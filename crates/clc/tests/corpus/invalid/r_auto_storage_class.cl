// expect-error: 8
// rule: 6.11.i the auto storage-class specifier is not supported

// A local variable declared auto.

__kernel void k(__global int *out)
{
    auto int x = 3;
    out[0] = x;
}
