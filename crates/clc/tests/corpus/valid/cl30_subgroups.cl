// options: -cl-std=CL3.0
// requires: __opencl_c_subgroups
// note: checked with PoCL 5.0, which supports the feature.
// Sub-group functions (6.15.20): sizes and ids, sub_group_barrier,
// reductions, scans and broadcast, used for a two-level reduction.

__kernel void subgroup_sum(__global const float *in, __global float *out, __local float *partials)
{
    float x = in[get_global_id(0)];
    uint sg = get_sub_group_id();
    uint lane = get_sub_group_local_id();
    float s = sub_group_reduce_add(x);
    if (lane == 0)
        partials[sg] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (sg == 0) {
        float p = lane < get_num_sub_groups() ? partials[lane] : 0.0f;
        float total = sub_group_reduce_add(p);
        if (lane == 0)
            out[get_group_id(0)] = total;
    }
}

__kernel void subgroup_misc(__global int *out)
{
    int v = (int)get_sub_group_local_id();
    int incl = sub_group_scan_inclusive_add(v);
    int excl = sub_group_scan_exclusive_max(v);
    int first = sub_group_broadcast(v, 0);
    int anyv = sub_group_any(v > 3);
    int allv = sub_group_all(v >= 0);
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = incl + excl + first + anyv + allv + (int)get_max_sub_group_size() +
                            (int)get_sub_group_size() + (int)get_enqueued_num_sub_groups();
}
