// 6.15.2 exponentials, logarithms, powers, roots and hyperbolic functions.

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
