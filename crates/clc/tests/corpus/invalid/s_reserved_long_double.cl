// expect-error: 9
// rule: 6.3.4 long double is a reserved data type
// note: PoCL accepts this file; 6.3.4: "The data type names described in the following table are reserved and cannot be used by applications as type names." (long double, long doublen)

// An accumulator declared long double.

__kernel void k(__global float *out)
{
    long double acc = 0;
    out[0] = (float)acc;
}
