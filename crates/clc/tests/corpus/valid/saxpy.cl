// SAXPY (y = a*x + y) in single precision, with a grid-stride loop and an
// fma-based variant, plus the matching strided BLAS-style interface.

__kernel void saxpy(const float alpha,
                    __global const float *restrict x,
                    __global float *restrict y,
                    const int n)
{
    const int gid = get_global_id(0);
    const int stride = get_global_size(0);
    for (int i = gid; i < n; i += stride) {
        y[i] = alpha * x[i] + y[i];
    }
}

__kernel void saxpy_fma(const float alpha,
                        __global const float *restrict x,
                        __global float *restrict y,
                        const int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    y[i] = fma(alpha, x[i], y[i]);
}

/* BLAS interface: increments may be negative */
__kernel void saxpy_inc(const int n,
                        const float alpha,
                        __global const float *x, const int incx,
                        __global float *y, const int incy)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    int ix = incx >= 0 ? i * incx : (n - 1 - i) * -incx;
    int iy = incy >= 0 ? i * incy : (n - 1 - i) * -incy;
    y[iy] += alpha * x[ix];
}

__kernel void saxpy4(const float alpha,
                     __global const float4 *x,
                     __global float4 *y)
{
    size_t i = get_global_id(0);
    float4 xv = x[i];
    float4 yv = y[i];
    y[i] = mad((float4)(alpha), xv, yv);
}
