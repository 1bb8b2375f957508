// expect-error: 9
// expect-error: 10
// rule: 6.7 the __generic and generic names are reserved and shall not be used otherwise

// A variable named generic.

__kernel void k(__global int *out)
{
    int generic = 1;
    out[0] = generic;
}
