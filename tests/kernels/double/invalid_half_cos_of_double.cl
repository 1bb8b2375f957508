// OpenCL C 6.15.2: the half_ functions take float and floatn only: the program does not
// build.
// requires: cl_khr_fp64
// run: --kernel k --global 1 --arg 'double[4]' --arg 'float[4]'
// expect build error: no matching function for call to 'half_cos'
kernel void k(global double4 *x, global float4 *o) { o[0] = half_cos(x[0]); }
