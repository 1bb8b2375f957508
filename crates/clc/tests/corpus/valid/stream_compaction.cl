// Stream compaction (keep the elements that satisfy a predicate, in
// order): flag, per-group exclusive scan with the Hillis-Steele
// double-buffered algorithm, and scatter using the scanned offsets plus
// per-group bases computed on the host or by a second scan.

inline int keep(float v, float threshold) { return v > threshold; }

__kernel void flag_and_scan(__global const float *in, __global int *offsets,
                            __global int *group_counts, const int n, const float threshold,
                            __local int *buf_a, __local int *buf_b)
{
    int gid = get_global_id(0);
    int lid = get_local_id(0);
    int lsize = get_local_size(0);
    int f = gid < n ? keep(in[gid], threshold) : 0;
    buf_a[lid] = f;
    barrier(CLK_LOCAL_MEM_FENCE);

    __local int *src = buf_a;
    __local int *dst = buf_b;
    for (int offset = 1; offset < lsize; offset <<= 1) {
        dst[lid] = lid >= offset ? src[lid] + src[lid - offset] : src[lid];
        barrier(CLK_LOCAL_MEM_FENCE);
        __local int *t = src;
        src = dst;
        dst = t;
    }
    /* src holds the inclusive scan; make it exclusive */
    if (gid < n)
        offsets[gid] = src[lid] - f;
    if (lid == lsize - 1)
        group_counts[get_group_id(0)] = src[lid];
}

__kernel void scatter(__global const float *in, __global const int *offsets,
                      __global const int *group_bases, __global float *out, const int n,
                      const float threshold)
{
    int gid = get_global_id(0);
    if (gid < n && keep(in[gid], threshold))
        out[group_bases[get_group_id(0)] + offsets[gid]] = in[gid];
}
