// 6.15.2 trigonometric functions and their inverses (including the *pi forms).

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
