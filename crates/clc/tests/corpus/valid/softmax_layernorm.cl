// Neural-network row kernels: numerically stable softmax and layer
// normalisation, one work-group per row, with local-memory max/sum
// reductions and float4 loads where the row length allows.

inline float group_reduce_max(__local float *buf, float v)
{
    int lid = get_local_id(0);
    buf[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            buf[lid] = fmax(buf[lid], buf[lid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    float r = buf[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

inline float group_reduce_sum(__local float *buf, float v)
{
    int lid = get_local_id(0);
    buf[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            buf[lid] += buf[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    float r = buf[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

__kernel void softmax_rows(__global const float *x, __global float *y, const int cols,
                           __local float *scratch)
{
    int row = get_group_id(0);
    int lid = get_local_id(0);
    int lsize = get_local_size(0);
    __global const float *xr = x + row * cols;
    __global float *yr = y + row * cols;

    float m = -INFINITY;
    for (int c = lid; c < cols; c += lsize)
        m = fmax(m, xr[c]);
    m = group_reduce_max(scratch, m);

    float s = 0.0f;
    for (int c = lid; c < cols; c += lsize)
        s += exp(xr[c] - m);
    s = group_reduce_sum(scratch, s);

    float inv = 1.0f / s;
    for (int c = lid; c < cols; c += lsize)
        yr[c] = exp(xr[c] - m) * inv;
}

__kernel void layernorm_rows(__global const float4 *x, __global float4 *y,
                             __global const float4 *gamma, __global const float4 *beta,
                             const int cols4, const float eps, __local float *scratch)
{
    int row = get_group_id(0);
    int lid = get_local_id(0);
    int lsize = get_local_size(0);
    __global const float4 *xr = x + row * cols4;

    float4 acc = 0.0f;
    for (int c = lid; c < cols4; c += lsize)
        acc += xr[c];
    float mean = group_reduce_sum(scratch, acc.x + acc.y + acc.z + acc.w) / (4 * cols4);

    float4 var4 = 0.0f;
    for (int c = lid; c < cols4; c += lsize) {
        float4 d = xr[c] - mean;
        var4 = mad(d, d, var4);
    }
    float var = group_reduce_sum(scratch, var4.x + var4.y + var4.z + var4.w) / (4 * cols4);
    float rstd = rsqrt(var + eps);

    for (int c = lid; c < cols4; c += lsize)
        y[row * cols4 + c] = (xr[c] - mean) * rstd * gamma[c] + beta[c];
}
