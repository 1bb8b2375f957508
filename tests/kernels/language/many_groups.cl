// A range of more work-groups along y than one CUDA grid holds (65,535): every work-item runs
// once, with its own group id (6.15.1: get_group_id "returns the work-group ID", from 0 to
// get_num_groups - 1). The GPU device runs such a range as several grids, each told its
// first group id.
// run: --kernel groups --global 2,70000 --local 1,1 --arg 'int[2]=0'
// expect counts: 140000 0
// local-sizes: fixed: the group ids checked are those of groups of one work-item
kernel void groups(global int *counts) {
    atomic_inc(&counts[0]);
    if (get_group_id(1) != get_global_id(1) || get_group_id(0) != get_global_id(0) ||
        get_num_groups(1) != 70000)
        atomic_inc(&counts[1]);
}
