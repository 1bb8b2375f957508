// The work-group collective functions (OpenCL C 6.15.16) on int, for four work-groups of 8
// over chosen values: reduce add, min and max; inclusive scan add; exclusive scan add and max
// (the exclusive scan "returns [I, a0, (a0 op a1), ...]" with I the identity: 0 for add,
// INT_MIN for max); broadcast of local id 3; any and all (true is a non-zero value, so
// compared with 0). Work-item g writes nine values at o[9g].
// local-sizes: fixed: work-group collectives
// requires: __opencl_c_work_group_collective_functions
// run: --kernel k --global 32 --local 8 --options -cl-std=CL3.0 --arg 'int[32]=-11,3,-6,8,-1,-10,4,-5,9,0,-9,5,-4,10,1,-8,6,-3,11,2,-7,7,-2,-11,3,-6,8,-1,-10,4,-5,9' --arg 'int[288]'
// expect o: -18 -11 8 -11 0 -2147483648 8 0 1 -18 -11 8 -8 -11 -11 8 0 1 -18 -11 8 -14 -8 3 8 0 1 -18 -11 8 -6 -14 3 8 0 1 -18 -11 8 -7 -6 8 8 0 1 -18 -11 8 -17 -7 8 8 0 1 -18 -11 8 -13 -17 8 8 0 1 -18 -11 8 -18 -13 8 8 0 1 4 -9 10 9 0 -2147483648 5 1 1 4 -9 10 9 9 9 5 1 1 4 -9 10 0 9 9 5 1 1 4 -9 10 5 0 9 5 1 1 4 -9 10 1 5 9 5 1 1 4 -9 10 11 1 9 5 1 1 4 -9 10 12 11 10 5 1 1 4 -9 10 4 12 10 5 1 1 3 -11 11 6 0 -2147483648 2 1 1 3 -11 11 3 6 6 2 1 1 3 -11 11 14 3 6 2 1 1 3 -11 11 16 14 11 2 1 1 3 -11 11 9 16 11 2 1 1 3 -11 11 16 9 11 2 1 1 3 -11 11 14 16 11 2 1 1 3 -11 11 3 14 11 2 1 1 2 -10 9 3 0 -2147483648 -1 1 1 2 -10 9 -3 3 3 -1 1 1 2 -10 9 5 -3 3 -1 1 1 2 -10 9 4 5 8 -1 1 1 2 -10 9 -6 4 8 -1 1 1 2 -10 9 -2 -6 8 -1 1 1 2 -10 9 -7 -2 8 -1 1 1 2 -10 9 2 -7 8 -1 1 1
kernel void k(global const int *in, global int *o) {
    size_t g = get_global_id(0);
    int x = in[g];
    global int *r = o + 9 * g;
    r[0] = work_group_reduce_add(x);
    r[1] = work_group_reduce_min(x);
    r[2] = work_group_reduce_max(x);
    r[3] = work_group_scan_inclusive_add(x);
    r[4] = work_group_scan_exclusive_add(x);
    r[5] = work_group_scan_exclusive_max(x);
    r[6] = work_group_broadcast(x, 3);
    r[7] = work_group_any(x > 8) != 0;
    r[8] = work_group_all(x > -12) != 0;
}
