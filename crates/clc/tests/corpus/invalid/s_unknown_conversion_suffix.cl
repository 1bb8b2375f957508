// expect-error: 8
// rule: 6.4.3 conversion functions have only the _sat and _rte/_rtz/_rtp/_rtn suffixes

// convert_int_sat_rtx is not a conversion function.

__kernel void k(__global float *in, __global int *out)
{
    out[0] = convert_int_sat_rtx(in[0]);
}
