// half arithmetic (cl_khr_fp16): + - * / correctly rounded to half (OpenCL C 7.4, Table 69), a
// subnormal tie rounding to even (2^-25 to 0), overflow to infinity past 65504, literals with
// the h and H suffixes, compound assignments (an int operand converts to half, 6.3.1), ++ and
// --, the conditional operator, fma correctly rounded, sqrt, and the usual arithmetic
// conversions (half + float is float, 6.3.1.8 as OpenCL C 6.3.1 applies it). in = (0.1, -3.25,
// 65504, 6e-8, -0, 1000, 0.333, 2), each rounded to half. c: comparisons, !, && and || on
// halves (1 or 0), sizeof(half).
// requires: cl_khr_fp16
// run: --kernel k --global 1 --arg half:1.5 --arg 'half[8]=0.1,-3.25,65504,6e-8,-0,1000,0.333,2' --arg 'half[24]' --arg 'int[8]'
// expect o: -3.150390625 3.349609375 -0.324951171875 -0.03076171875 inf 0.0 -0.0999755859375 4.0 1.599609375 -5.19921875 -6.19921875 -3.099609375 2.0 0.0 -3.25 2.333984375 335.0 1.4140625 333.0 -0.0999755859375 0.199951171875 -65504.0 0.0 -inf
// expect c: 0 1 1 1 0 1 1 2
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL FP_CONTRACT OFF
kernel void k(half a, global const half *in, global half *o, global int *c) {
    half x = in[0], y = in[1], big = in[2], tiny = in[3];
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = x / y;
    o[4] = big + big;
    o[5] = tiny * 0.5h;
    o[6] = -x;
    o[7] = a * 2.0h + 1.0H;
    half z = a;
    z += x;
    o[8] = z;
    z *= y;
    o[9] = z;
    z -= 1;
    o[10] = z;
    z /= 2.0h;
    o[11] = z;
    half w = 1.0h;
    w++;
    o[12] = w;
    w--;
    --w;
    o[13] = w;
    o[14] = x < y ? x : y;
    o[15] = (half)7 / (half)3;
    o[16] = fma(in[5], in[6], in[7]);
    o[17] = sqrt(in[7]);
    o[18] = in[5] * in[6];
    o[19] = -in[0];
    o[20] = x + 0.1f;
    o[21] = x - big;
    o[22] = tiny / big;
    o[23] = -big * (half)2;
    c[0] = x < y;
    c[1] = x > y;
    c[2] = x == x;
    c[3] = big * 2 == big * 2;
    c[4] = !x;
    c[5] = x && y;
    c[6] = (half)0 || y;
    c[7] = sizeof(half);
}
