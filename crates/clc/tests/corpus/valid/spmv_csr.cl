// Sparse matrix-vector product y = A*x with A in CSR format: scalar kernel
// (one row per work-item) and vector kernel (one row per work-group, local
// reduction), both with unsigned row pointers.

__kernel void spmv_csr_scalar(const int num_rows,
                              __global const int *row_ptr,
                              __global const int *col_idx,
                              __global const float *values,
                              __global const float *x,
                              __global float *y)
{
    int row = get_global_id(0);
    if (row < num_rows) {
        float dot = 0.0f;
        int start = row_ptr[row];
        int end = row_ptr[row + 1];
        for (int jj = start; jj < end; jj++)
            dot += values[jj] * x[col_idx[jj]];
        y[row] = dot;
    }
}

__kernel void spmv_csr_vector(const uint num_rows,
                              __global const uint *row_ptr,
                              __global const uint *col_idx,
                              __global const float *values,
                              __global const float *x,
                              __global float *y,
                              __local float *partial)
{
    uint row = get_group_id(0);
    uint lid = get_local_id(0);
    uint lsize = get_local_size(0);
    float sum = 0.0f;
    if (row < num_rows) {
        for (uint jj = row_ptr[row] + lid; jj < row_ptr[row + 1]; jj += lsize)
            sum += values[jj] * x[col_idx[jj]];
    }
    partial[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = lsize / 2; s > 0; s /= 2) {
        if (lid < s)
            partial[lid] += partial[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0 && row < num_rows)
        y[row] = partial[0];
}

/* ELLPACK variant: fixed number of entries per row, column-major storage. */
__kernel void spmv_ell(const int num_rows, const int max_nnz,
                       __global const int *cols, __global const float *vals,
                       __global const float *x, __global float *y)
{
    int row = get_global_id(0);
    if (row >= num_rows)
        return;
    float acc = 0.0f;
    for (int n = 0; n < max_nnz; ++n) {
        int c = cols[n * num_rows + row];
        if (c >= 0)
            acc += vals[n * num_rows + row] * x[c];
    }
    y[row] = acc;
}
