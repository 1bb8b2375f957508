// The region after a work-group reduction (OpenCL C 6.15.16) does nothing but reach a
// barrier; the reduction's result, the same for the whole group, is read after it: every
// work-item of the group still gets it.
// local-sizes: fixed: a work-group reduction
// requires: __opencl_c_work_group_collective_functions
// run: --kernel k --global 12 --local 6 --options -cl-std=CL3.0 --arg 'int[12]=iota' --arg 'int[12]'
// expect out: 15 16 17 18 19 20 51 52 53 54 55 56
kernel void k(global const int *in, global int *out) {
    int l = get_local_id(0);
    int s = work_group_reduce_add(in[get_global_id(0)]);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = s + l;
}
