// #line (C99 6.10.4), __LINE__ and __FILE__, _Pragma (C99 6.10.9) including
// from a macro, #pragma OPENCL FP_CONTRACT, unknown pragmas (ignored),
// the null directive, and line splicing with backslash-newline.

#define UNROLL _Pragma("unroll")
#define FP_OFF _Pragma("OPENCL FP_CONTRACT OFF")

#pragma OPENCL FP_CONTRACT ON
#pragma some_vendor_pragma with arguments
#

__constant int here = __LINE__;
#line 1000
__constant int moved = __LINE__;       /* 1000 */
#line 2000 "renamed.cl"
__constant char file_name[] = __FILE__;

__kernel void pragmas(__global float *out, __global const float *a, __global const float *b)
{
    FP_OFF
    float acc = 0.0f;
    UNROLL
    for (int i = 0; i < 8; i++)
        acc += a[i] * b[i];
    int spliced;
    {
        _Pragma("OPENCL FP_CONTRACT DEFAULT")
        spliced = 1 + \
                  2;
    }
    out[get_global_id(0)] = acc + here + moved + spliced + file_name[0];
}
