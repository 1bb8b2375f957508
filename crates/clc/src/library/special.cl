// 6.15.2 special functions: erf, erfc, tgamma, lgamma, lgamma_r.

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
