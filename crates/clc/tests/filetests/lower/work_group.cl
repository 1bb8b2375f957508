// passes: standard
// options: -cl-std=CL3.0
// The work-group collectives (6.15.16) as group_* instructions: the combining operation
// follows the type (signed, unsigned, float), all/any combine truth values, and the 2-D and
// 3-D broadcasts name a linear local id (x + y * size0 + z * size0 * size1).
__kernel void k(__global int *i, __global uint *u, __global float *f, __global long *l) {
    size_t g = get_global_id(0);
    i[g] = work_group_reduce_min(i[g]) + work_group_scan_exclusive_max(i[g]);
    u[g] = work_group_scan_inclusive_min(u[g]) + work_group_broadcast(u[g], 1, 2);
    f[g] = work_group_reduce_add(f[g]) + work_group_broadcast(f[g], 1, 2, 3);
    l[g] = work_group_scan_inclusive_add(l[g]) + work_group_broadcast(l[g], g);
    i[g + 1] = work_group_all(i[g]) + work_group_any(u[g] > 3);
}
