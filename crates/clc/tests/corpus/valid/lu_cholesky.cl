// Steps of dense factorisations, one kernel launch per pivot k:
// right-looking LU without pivoting (column scale + trailing update) and
// Cholesky (diagonal, column, trailing update of the lower triangle).

__kernel void lu_scale_column(__global float *a, const int n, const int k)
{
    int i = k + 1 + get_global_id(0);
    if (i < n)
        a[i * n + k] /= a[k * n + k];
}

__kernel void lu_update_trailing(__global float *a, const int n, const int k)
{
    int i = k + 1 + get_global_id(1);
    int j = k + 1 + get_global_id(0);
    if (i < n && j < n)
        a[i * n + j] -= a[i * n + k] * a[k * n + j];
}

__kernel void cholesky_diag(__global float *a, const int n, const int k)
{
    if (get_global_id(0) == 0) {
        float d = a[k * n + k];
        a[k * n + k] = sqrt(d);
    }
}

__kernel void cholesky_column(__global float *a, const int n, const int k)
{
    int i = k + 1 + get_global_id(0);
    if (i < n)
        a[i * n + k] = a[i * n + k] / a[k * n + k];
}

__kernel void cholesky_trailing(__global float *a, const int n, const int k)
{
    int i = k + 1 + get_global_id(1);
    int j = k + 1 + get_global_id(0);
    if (i < n && j <= i) /* lower triangle only */
        a[i * n + j] = mad(-a[i * n + k], a[j * n + k], a[i * n + j]);
}

/* Forward substitution L y = b for one right-hand side per work-item. */
__kernel void forward_substitution(__global const float *l, __global float *b,
                                   const int n, const int nrhs)
{
    int r = get_global_id(0);
    if (r >= nrhs)
        return;
    for (int i = 0; i < n; i++) {
        float s = b[i * nrhs + r];
        for (int j = 0; j < i; j++)
            s -= l[i * n + j] * b[j * nrhs + r];
        b[i * nrhs + r] = s / l[i * n + i];
    }
}
