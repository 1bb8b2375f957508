// 6.15.2 and 6.15.4 functions built from IEEE operations: rounding, remainders, exponent
// access, min/max forms, common functions.

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
