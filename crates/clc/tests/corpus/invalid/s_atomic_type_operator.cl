// options: -cl-std=CL3.0
// expect-error: 10
// expect-error: 11
// rule: 6.15.12.10 OpenCL C does not support operators with atomic types

// Incrementing and assigning an atomic_int with ordinary operators.

__kernel void k(volatile __global atomic_int *counter, __global int *out)
{
    (*counter)++;
    *counter = 5;
    out[0] = 0;
}
