// options: -cl-std=CL3.0
// OpenCL C 3.0 optional features (6.2.1): code selected by the
// __opencl_c_* feature macros, with a fallback for each, the way portable
// 3.0 kernels are written; __OPENCL_C_VERSION__ is 300 with -cl-std=CL3.0.

#if __OPENCL_C_VERSION__ != CL_VERSION_3_0
#error -cl-std=CL3.0 must set __OPENCL_C_VERSION__ to 300
#endif

#ifdef __opencl_c_fp64
#define REAL double
#else
#define REAL float
#endif

#ifdef __opencl_c_int64
typedef long wide_t;
#else
typedef int wide_t;
#endif

#if defined(__opencl_c_subgroups)
#define SG_SIZE() get_sub_group_size()
#else
#define SG_SIZE() 1u
#endif

#ifdef __opencl_c_images
__kernel void copy_image(read_only image2d_t src, write_only image2d_t dst)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(dst, p, read_imagef(src, p));   /* sampler-less read */
}
#endif

#ifdef __opencl_c_read_write_images
__kernel void brighten(read_write image2d_t img)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float4 v = read_imagef(img, p);
    write_imagef(img, p, v * 1.1f);
}
#endif

__kernel void features(__global float *out, __global int *counts)
{
    REAL x = (REAL)get_global_id(0);
    wide_t w = (wide_t)get_global_id(0) << 20;
    out[get_global_id(0)] = (float)(x * x);
    counts[get_global_id(0)] = (int)(w >> 20) + (int)SG_SIZE();
#ifdef __opencl_c_work_group_collective_functions
    counts[0] = work_group_reduce_add(1);
#endif
}
