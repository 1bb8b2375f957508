// Dense matrix-vector product (row-major, one work-group per row with a
// local reduction; and column-major, one work-item per row) and a
// two-stage dot product with float4 loads and a final single-group pass.

__kernel void gemv_row_major(const int rows, const int cols,
                             __global const float *A, __global const float *x,
                             __global float *y, __local float *partial)
{
    int r = get_group_id(0);
    int lid = get_local_id(0);
    float sum = 0.0f;
    for (int c = lid; c < cols; c += get_local_size(0))
        sum += A[r * cols + c] * x[c];
    partial[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = get_local_size(0) / 2; s > 0; s /= 2) {
        if (lid < s)
            partial[lid] += partial[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0 && r < rows)
        y[r] = partial[0];
}

__kernel void gemv_col_major(const int rows, const int cols, const float alpha, const float beta,
                             __global const float *A, __global const float *x, __global float *y)
{
    int r = get_global_id(0);
    if (r >= rows)
        return;
    float sum = 0.0f;
    for (int c = 0; c < cols; ++c)
        sum = fma(A[c * rows + r], x[c], sum);
    y[r] = alpha * sum + beta * y[r];
}

__kernel void dot_stage1(__global const float4 *a, __global const float4 *b, const int n4,
                         __global float *partial, __local float *scratch)
{
    int gid = get_global_id(0);
    int lid = get_local_id(0);
    float4 acc = 0.0f;
    for (int i = gid; i < n4; i += get_global_size(0))
        acc = mad(a[i], b[i], acc);
    scratch[lid] = dot(acc, (float4)(1.0f));
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = get_local_size(0) >> 1; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}

__kernel void dot_stage2(__global const float *partial, const int groups, __global float *result)
{
    if (get_global_id(0) == 0) {
        float s = 0.0f;
        for (int g = 0; g < groups; g++)
            s += partial[g];
        *result = s;
    }
}
