// OpenCL C 6.2.1: no implicit conversions between vector types (double2 to float2): the
// program does not build.
// requires: cl_khr_fp64
// run: --kernel k --global 1 --arg 'double[2]' --arg 'float[2]'
// expect build error: incompatible type 'double2'
kernel void k(global double2 *x, global float2 *o) { o[0] = x[0]; }
