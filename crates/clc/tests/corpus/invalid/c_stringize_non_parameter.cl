// expect-error: 6
// rule: C99 6.10.3.2 # in a function-like macro shall be followed by a parameter

// # followed by a name that is not a parameter.

#define NAME(x) #y

__kernel void k(__global int *out)
{
    out[0] = 1;
}
