// half arithmetic per work-item (cl_khr_fp16), the kernel the CPU device vectorizes across
// work-items: a divergent conditional, fma (correctly rounded, Table 69) and products rounded
// to half, a saturating conversion to short with rounding to nearest even, a loop-free branch
// on the magnitude. x holds ordinary values, a negative zero, a subnormal, HALF_MAX and
// -HALF_MAX (whose fma overflows to infinity), each rounded to half.
// requires: cl_khr_fp16
// run: --kernel k --global 16 --arg 'half[16]=0.1,-2.5,3.75,1000,-0,6e-5,-65504,0.333,7,-7,0.5,100.25,2e-7,-1,12,65504' --arg half:0.5 --arg 'half[16]' --arg 'short[16]' --arg 'half[16]'
// expect y: 0.509765625 6.75 -0.125 497.0 0.5 0.5 inf 0.61083984375 -4.5 49.5 0.75 39.125 0.5 1.5 -8.0 32736.0
// expect c: 10 -250 375 32767 0 0 -32768 33 700 -700 50 10024 0 -100 1200 32767
// expect z: 0.0099945068359375 6.25 14.0625 333.25 0.0 0.0 -21840.0 0.11090087890625 49.0 49.0 0.25 10048.0 0.0 1.0 144.0 21840.0
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL FP_CONTRACT OFF
kernel void k(global const half *x, half a, global half *y, global short *c, global half *z) {
    size_t i = get_global_id(0);
    half v = x[i];
    y[i] = v > a ? v * a - (half)i : fma(v, v, a);
    c[i] = convert_short_sat_rte(v * (half)100);
    half m = fabs(v);
    z[i] = m < (half)256 ? v * v : v / (half)3;
}
