// OpenCL C 6.15.2.1 with fp64: the DBL_ macros, DBL_RADIX beside them (as clang-based
// compilers define it), usable in #if.
// requires: cl_khr_fp64
// run: --kernel k --global 1 --arg 'int[6]'
// expect o: 2 1024 -1021 308 -307 1
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#if !defined(DBL_RADIX) || DBL_RADIX != 2 || DBL_MANT_DIG != 53 || DBL_DIG != 15
#error DBL_ macros
#endif
kernel void k(global int *o) {
    o[0] = DBL_RADIX;
    o[1] = DBL_MAX_EXP;
    o[2] = DBL_MIN_EXP;
    o[3] = DBL_MAX_10_EXP;
    o[4] = DBL_MIN_10_EXP;
    o[5] = DBL_EPSILON == 0x1.0p-52 && DBL_MIN == 0x1.0p-1022 &&
           DBL_MAX == 0x1.fffffffffffffp1023;
}
