// Tree reduction of a float array to one partial sum per work-group, with
// the barrier inside the halving loop, plus min/max and integer variants.

__kernel void reduce_sum(__global const float *input,
                         __global float *partial,
                         __local float *scratch,
                         const unsigned int n)
{
    unsigned int lid = get_local_id(0);
    unsigned int gid = get_global_id(0);
    unsigned int lsize = get_local_size(0);

    /* each work-item first accumulates a strided slice */
    float acc = 0.0f;
    for (unsigned int i = gid; i < n; i += get_global_size(0))
        acc += input[i];
    scratch[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (unsigned int offset = lsize / 2; offset > 0; offset >>= 1) {
        if (lid < offset)
            scratch[lid] += scratch[lid + offset];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}

__kernel void reduce_minmax(__global const float *input,
                            __global float2 *partial,
                            __local float2 *scratch,
                            const unsigned int n)
{
    unsigned int lid = get_local_id(0);
    unsigned int gid = get_global_id(0);
    float2 mm = (float2)(INFINITY, -INFINITY);
    if (gid < n)
        mm = (float2)(input[gid], input[gid]);
    scratch[lid] = mm;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (unsigned int s = get_local_size(0) >> 1; s > 0; s >>= 1) {
        if (lid < s) {
            float2 other = scratch[lid + s];
            scratch[lid].x = fmin(scratch[lid].x, other.x);
            scratch[lid].y = fmax(scratch[lid].y, other.y);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}

__kernel void reduce_int_unrolled(__global const int *input,
                                  __global long *partial,
                                  const unsigned int n)
{
    __local long buf[256];
    unsigned int lid = get_local_id(0);
    unsigned int i = get_group_id(0) * get_local_size(0) * 2 + lid;
    long v = 0;
    if (i < n) v += input[i];
    if (i + get_local_size(0) < n) v += input[i + get_local_size(0)];
    buf[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    unsigned int s = get_local_size(0) / 2;
    while (s > 0) {
        if (lid < s)
            buf[lid] += buf[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
        s /= 2;
    }
    if (lid == 0)
        partial[get_group_id(0)] = buf[0];
}
