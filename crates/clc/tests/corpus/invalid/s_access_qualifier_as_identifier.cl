// expect-error: 8
// rule: 6.8 the access qualifier names are reserved and shall not be used otherwise

// A variable named read_only.

__kernel void k(__global int *out)
{
    int read_only = 1;
    out[0] = 2;
}
