// expect-error: 8
// rule: C99 6.4.4.2 a hexadecimal floating constant requires a binary exponent

// 0x1.8 without the p exponent.

__kernel void k(__global float *out)
{
    out[0] = 0x1.8;
}
