// Doubles passed by value (cl_khr_fp64): a double, a double4, a double3 (6.1.5: sized and
// aligned as a double4) and a double2 reach the kernel bit for bit, denormals, infinities and
// a negative zero included.
// requires: cl_khr_fp64
// run: --kernel k --global 1 --arg double:-0.1 --arg double4:1.5,1.7976931348623157e308,-2.2250738585072014e-308,5e-324 --arg double3:0.3333333333333333,-2,1e300 --arg double2:inf,-0 --arg 'double[10]'
// expect o: -0.1 1.5 1.7976931348623157e308 -2.2250738585072014e-308 5e-324 0.3333333333333333 -2 1e300 inf -0
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void k(double a, double4 b, double3 c, double2 d, global double *o) {
    o[0] = a;
    vstore4(b, 0, o + 1);
    vstore3(c, 0, o + 5);
    vstore2(d, 0, o + 8);
}
