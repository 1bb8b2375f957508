// OpenCL C 6.4.3: "the _sat modifier may not be used for conversions to floating-point
// formats": the program does not build.
// requires: cl_khr_fp64
// run: --kernel k --global 1 --arg 'double[2]'
// expect build error: 'convert_double_sat'
kernel void k(global double *x) { x[0] = convert_double_sat(x[1]); }
