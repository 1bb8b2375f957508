// Sub-group collectives reached by different sub-groups at different times (OpenCL C
// 6.15.20: the sub-group functions "must be encountered by all work-items in the sub-group",
// not by the whole work-group). In a group of 11 work-items the CPU device's sub-groups are 8
// and 3 work-items (6.15.1): only the odd-sized one takes the branch to the exclusive scan,
// so in the loop's second trip the first sub-group reaches the inclusive scan while the
// second is still at the exclusive one. Each sub-group's scan must combine its own operands
// of that trip: v2 is the inclusive scan of 1 (the sub-group local id + 1), v4 stays 1 in
// the even sub-group and is the exclusive scan (the local id) in the odd one, and the
// broadcast gives 1. The work-group broadcast between them (a work-group collective, which
// every work-item reaches) and the private array are what made the CPU device combine a
// sub-group that had gone past a scan again (its results were scanned a second time).
// local-sizes: fixed: the sub-groups depend on the local size
// requires: __opencl_c_subgroups
// requires: __opencl_c_work_group_collective_functions
// requires: sub-group-size=8
// run: --kernel k --global 11 --local 11 --options -cl-std=CL3.0 --arg 'uint[11]'
// expect out: 1360101 1360201 1360301 1360401 1360501 1360601 1360701 1360801 1360100 1360201 1360302
// run: --kernel k --global 27 --local 16 --options -cl-std=CL3.0 --arg 'uint[27]'
// expect out: 1360101 1360201 1360301 1360401 1360501 1360601 1360701 1360801 1360101 1360201 1360301 1360401 1360501 1360601 1360701 1360801 1360101 1360201 1360301 1360401 1360501 1360601 1360701 1360801 1360100 1360201 1360302
kernel void k(global uint *out) {
    uint v2 = 1u, v4 = 1u, u0 = 1u;
    uint pa[8];
    for (uint j = 0; j < 8u; j++)
        pa[j] = 1u + j;
    for (uint i0 = 0; i0 < 2u; i0++) {
        v2 = sub_group_scan_inclusive_add(1u);
        u0 = work_group_broadcast(1u, (size_t)(1u % (uint)get_local_size(0)));
        if ((get_sub_group_size() & 1u)) {
            v4 = sub_group_scan_exclusive_add(1u);
        }
    }
    uint h = v2 * 100 + v4 + u0 * 1000000;
    for (uint j = 0; j < 8u; j++)
        h += pa[j] * 10000;
    out[get_global_id(0)] = h;
}
