// Predefined macros (6.12): __OPENCL_VERSION__, __OPENCL_C_VERSION__, the
// CL_VERSION_* constants, __ENDIAN_LITTLE__, __IMAGE_SUPPORT__,
// __LINE__ and the FLT/INT/M_ constant macros, selecting code
// paths the way portable kernels do.

#ifndef __OPENCL_VERSION__
#error __OPENCL_VERSION__ must be defined
#endif

#if !defined(CL_VERSION_1_0) || CL_VERSION_1_0 != 100 || CL_VERSION_1_1 != 110 || CL_VERSION_1_2 != 120
#error CL_VERSION_1_x values are wrong
#endif

#if defined(__OPENCL_C_VERSION__) && __OPENCL_C_VERSION__ >= CL_VERSION_2_0
#define HAVE_CL2 1
#else
#define HAVE_CL2 0
#endif

#if __OPENCL_VERSION__ >= 120
#define STATIC_FN static
#else
#define STATIC_FN
#endif

#ifdef __ENDIAN_LITTLE__
#define LOW_BYTE(x) ((x) & 0xFF)
#else
#define LOW_BYTE(x) (((x) >> 24) & 0xFF)
#endif

#ifdef __IMAGE_SUPPORT__
#define IMAGES 1
#else
#define IMAGES 0
#endif

#ifndef __OPENCL_C_VERSION__
#error __OPENCL_C_VERSION__ is required since OpenCL C 1.2
#endif

#if __OPENCL_C_VERSION__ < 120
#error default language version is at least 1.2 on this device
#endif

STATIC_FN int version_info(void)
{
    return __OPENCL_VERSION__ + __OPENCL_C_VERSION__ + HAVE_CL2 + IMAGES;
}

__kernel void versions(__global int *out)
{
    out[0] = version_info();
    out[1] = LOW_BYTE(0x11223344);
    out[2] = __LINE__;
    out[3] = CHAR_BIT + INT_MAX / 1000000000 + (int)FLT_EPSILON + FLT_DIG + SCHAR_MAX;
    out[4] = (int)(MAXFLOAT > 1.0f) + (int)isinf(HUGE_VALF) + (int)isnan(NAN) + (int)isinf(INFINITY);
    out[5] = (int)(M_PI_F * 100.0f) + (int)(M_E_F * 10) + (int)M_SQRT2_F + (int)M_LN2_F;
    out[6] = LONG_MAX > 0 ? 1 : 0;
}
