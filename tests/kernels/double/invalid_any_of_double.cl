// OpenCL C 6.15.6: any and all take signed integer vectors, not double ones: the program does
// not build.
// requires: cl_khr_fp64
// run: --kernel k --global 1 --arg 'double[2]' --arg 'int[1]'
// expect build error: no matching function for call to 'any'
kernel void k(global double2 *x, global int *o) { o[0] = any(x[0]); }
