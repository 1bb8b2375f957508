// Double constants (cl_khr_fp64): the extension and feature macros, unsuffixed literals,
// the DBL_ macros and M_PI, for OpenCL C 3.0 and 1.2 and with -cl-single-precision-constant.
// OpenCL C 6.1.1: an unsuffixed floating constant is a double. API 5.8.6.2:
// -cl-single-precision-constant "forces implicit conversions of double-precision
// floating-point literals to single precision": then 0.1 is the float 0.1, 1e-310 underflows
// to 0, DBL_MAX (an unsuffixed constant too) becomes a float infinity, DBL_MIN 0, and
// sizeof(0.1) is 4.
// n: sizeof(0.1), sizeof(0.1f), sizeof(double3) (6.1.5), DBL_MANT_DIG, DBL_MAX_EXP,
// DBL_MIN_10_EXP.
// requires: cl_khr_fp64
// run: --kernel k --global 1 --arg 'double[8]' --arg 'long[6]'
// expect o: 0.1 1e-310 1.7976931348623157e308 2.2250738585072014e-308 2.220446049250313e-16 3.141592653589793 0.3333333333333333 1.0000000000000002
// expect n: 8 4 32 53 1024 -307
// run: --kernel k --global 1 --arg 'double[8]' --arg 'long[6]' --options -cl-std=CL3.0
// expect o: 0.1 1e-310 1.7976931348623157e308 2.2250738585072014e-308 2.220446049250313e-16 3.141592653589793 0.3333333333333333 1.0000000000000002
// expect n: 8 4 32 53 1024 -307
// run: --kernel k --global 1 --arg 'double[8]' --arg 'long[6]' --options -cl-std=CL1.2
// expect o: 0.1 1e-310 1.7976931348623157e308 2.2250738585072014e-308 2.220446049250313e-16 3.141592653589793 0.3333333333333333 1.0000000000000002
// expect n: 8 4 32 53 1024 -307
// run: --kernel k --global 1 --arg 'double[8]' --arg 'long[6]' --options -cl-single-precision-constant
// expect o: 0.10000000149011612 0 inf 0 2.220446049250313e-16 3.1415927410125732 0.3333333432674408 1
// expect n: 4 4 32 53 1024 -307
// deviates: pocl: 5.8.6.2 "This option forces implicit conversions of double-precision floating-point literals to single precision"; PoCL 3.1 gives 0.1, 1e-310 and DBL_MAX their double values
// deviates: intel: 5.8.6.2 "This option forces implicit conversions of double-precision floating-point literals to single precision"; Intel's CPU runtime keeps 0.1, 1e-310, DBL_MAX, M_PI and 0x1.0000000000001p0 double
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#ifndef cl_khr_fp64
#error cl_khr_fp64 is not defined
#endif
#if __OPENCL_C_VERSION__ >= 300 && !defined(__opencl_c_fp64)
#error __opencl_c_fp64 is not defined
#endif
kernel void k(global double *o, global long *n) {
    o[0] = 0.1;
    o[1] = 1e-310;
    o[2] = DBL_MAX;
    o[3] = DBL_MIN;
    o[4] = DBL_EPSILON;
    o[5] = M_PI;
    o[6] = 1.0 / 3;
    o[7] = 0x1.0000000000001p0;
    n[0] = sizeof(0.1);
    n[1] = sizeof(0.1f);
    n[2] = sizeof(double3);
    n[3] = DBL_MANT_DIG;
    n[4] = DBL_MAX_EXP;
    n[5] = DBL_MIN_10_EXP;
}
