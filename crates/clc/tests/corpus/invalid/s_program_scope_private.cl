// expect-error: 6
// rule: 6.7.6 program scope variables must be __constant (or __global where supported)

// A __private variable at program scope.

__private int scratch = 0;

__kernel void k(__global int *out)
{
    out[0] = 1;
}
