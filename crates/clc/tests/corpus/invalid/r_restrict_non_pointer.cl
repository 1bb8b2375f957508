// expect-error: 8
// rule: 6.11.q types other than pointer types shall not use the restrict qualifier

// restrict applied to an int.

__kernel void k(__global int *out)
{
    restrict int x = 3;
    out[0] = x;
}
