// options: -cl-std=CL3.0
// requires: __opencl_c_work_group_collective_functions
// Work-group collective functions (6.15.16): reduce, inclusive and
// exclusive scans, broadcast, any/all, on int, uint, long, float; and the
// 2.0 work-item queries get_enqueued_local_size and get_global_linear_id.

__kernel void collectives(__global const float *in, __global float *sums,
                          __global int *iscan, __global float *fscan, __global int *flags)
{
    size_t gid = get_global_id(0);
    float x = in[gid];
    int xi = (int)x;

    float total = work_group_reduce_add(x);
    float lo = work_group_reduce_min(x);
    float hi = work_group_reduce_max(x);
    long ltotal = work_group_reduce_add((long)xi);
    uint umax = work_group_reduce_max((uint)xi);

    iscan[gid] = work_group_scan_inclusive_add(xi) + work_group_scan_exclusive_max(xi);
    fscan[gid] = work_group_scan_exclusive_add(x) + work_group_scan_inclusive_min(x);

    float first = work_group_broadcast(x, 0);
    int any_neg = work_group_any(x < 0.0f);
    int all_pos = work_group_all(x > 0.0f);

    if (get_local_id(0) == 0)
        sums[get_group_id(0)] = total + lo + hi + first + (float)ltotal + (float)umax;
    flags[get_global_linear_id()] = any_neg + 2 * all_pos + (int)get_enqueued_local_size(0);
}

__kernel void broadcast2d(__global int *out)
{
    int v = (int)(get_local_id(0) + 10 * get_local_id(1));
    out[get_global_linear_id()] = work_group_broadcast(v, 1, 1);
}
