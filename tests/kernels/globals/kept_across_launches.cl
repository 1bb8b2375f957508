// OpenCL C 3.0 6.7.8, table 8: the global address space holds "Program scope variables, for
// OpenCL C 2.0 or OpenCL C 3.0 with the __opencl_c_program_scope_global_variables feature,
// static or extern local variables", with "Optional constant initializers, 0-initialized by
// default". Such a variable lives as long as the program: one launch sees what the launch
// before it wrote. Each run launches the kernel three times over the same buffer; every
// launch adds its work-item count to the variables, so the third reads two launches' sums.
// requires: __opencl_c_program_scope_global_variables
// local-sizes: fixed: one work-group, whose barrier orders the reads before the additions
// run: --kernel count --global 16 --local 16 --options -cl-std=CL3.0 --arg 'int[4]' --repeat 3
// expect out: 132 32 2 7
// run: --kernel count --global 16 --local 16 --options -cl-std=CL2.0 --arg 'int[4]' --repeat 3
// expect out: 132 32 2 7
global int total = 100;
global int launches;
global struct { int seven; int pad[3]; } record = { 7 };

kernel void count(global int *out) {
    static global int items;
    if (get_global_id(0) == 0) {
        out[0] = total;
        out[1] = items;
        out[2] = launches;
        out[3] = record.seven;
    }
    work_group_barrier(CLK_GLOBAL_MEM_FENCE);
    atomic_add(&total, 1);
    atomic_inc(&items);
    if (get_local_id(0) == 0)
        atomic_inc(&launches);
}
