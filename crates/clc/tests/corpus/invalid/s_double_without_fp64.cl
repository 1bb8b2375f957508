// requires: !fp64
// expect-error: 9
// rule: 6.3.1.1 double requires the cl_khr_fp64 extension or the __opencl_c_fp64 feature

// A double variable on a device without double precision.

__kernel void k(__global float *out)
{
    double d = 1.0;
    out[0] = (float)d;
}
