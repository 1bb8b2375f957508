// Macro-generated kernels in the style of code-generating BLAS and FFT
// libraries: one template instantiated for several element types and
// vector widths, statement macros wrapped in do { } while (0), helper
// macros with nested parentheses and commas, and a double instantiation
// guarded by the cl_khr_fp64 extension macro.

#define WG 64
#define CAT3_(a, b, c) a##b##c
#define CAT3(a, b, c) CAT3_(a, b, c)
#define VTYPE(t, n) CAT3(t, n, )
#define VLOAD(n) CAT3(vload, n, )
#define VSTORE(n) CAT3(vstore, n, )

#define SWAP(t, a, b) \
    do {              \
        t tmp_ = (a); \
        (a) = (b);    \
        (b) = tmp_;   \
    } while (0)

#define MIN3(a, b, c) (min(min((a), (b)), (c)))

#define DEFINE_AXPY(t, n)                                                            \
    __kernel __attribute__((reqd_work_group_size(WG, 1, 1)))                         \
    void CAT3(axpy_, t, n)(const t alpha, __global const t *x, __global t *y)        \
    {                                                                                \
        size_t i = get_global_id(0);                                                 \
        VTYPE(t, n) xv = VLOAD(n)(i, x);                                             \
        VTYPE(t, n) yv = VLOAD(n)(i, y);                                             \
        VSTORE(n)(alpha * xv + yv, i, y);                                            \
    }

#define DEFINE_REVERSE(t)                                                            \
    __kernel void CAT3(reverse_, t, )(__global t *data, const int n)                 \
    {                                                                                \
        int i = get_global_id(0);                                                    \
        int j = n - 1 - i;                                                           \
        if (i < j)                                                                   \
            SWAP(t, data[i], data[j]);                                               \
    }

DEFINE_AXPY(float, 2)
DEFINE_AXPY(float, 4)
DEFINE_AXPY(float, 8)
DEFINE_AXPY(int, 4)
DEFINE_AXPY(uint, 16)
DEFINE_REVERSE(float)
DEFINE_REVERSE(short)
DEFINE_REVERSE(uchar)

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
DEFINE_AXPY(double, 2)
DEFINE_REVERSE(double)
#endif

__kernel void min_of_three(__global const int *a, __global const int *b, __global const int *c,
                           __global int *out)
{
    size_t i = get_global_id(0);
    out[i] = MIN3(a[i], b[i], c[i]);
    if (out[i] < 0)
        SWAP(int, out[i], out[0]);
    else
        out[i] += 1;
}
