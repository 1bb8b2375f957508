// OpenCL C 6.4.3: "the _sat modifier may not be used for conversions to floating-point
// formats", half included: the program does not build.
// requires: cl_khr_fp16
// run: --kernel k --global 1 --arg 'half[2]'
// expect build error: 'convert_half_sat'
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void k(global half *x) { x[0] = convert_half_sat(x[1]); }
