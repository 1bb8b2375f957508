// OpenCL C 2.0 atomics (6.15.12) through generic pointers: one function with an unqualified
// `atomic_int *` parameter adds to a __local and a __global counter (6.7.9: both spaces are
// in the generic one), with memory_scope_all_svm_devices; a program-scope atomic_flag
// initialized with ATOMIC_FLAG_INIT ("to the clear state", 6.15.12.7) lets exactly one
// work-item of all launches through atomic_flag_test_and_set. Per work-item 2 is added to the
// total, and each group's first work-item adds 1000 times the group's count: 64 work-items
// give 64 * 1002 a launch whatever the local size; the run launches twice.
// requires: __opencl_c_generic_address_space
// requires: __opencl_c_program_scope_global_variables
// run: --kernel count --global 64 --local 16 --options -cl-std=CL2.0 --arg 'int[1]=0' --arg 'int[1]=0' --repeat 2
// expect total: 128256
// expect winners: 1
global atomic_flag flag = ATOMIC_FLAG_INIT;

void add_to(atomic_int *counter, int x) {
    atomic_fetch_add_explicit(counter, x, memory_order_relaxed, memory_scope_all_svm_devices);
}

kernel void count(global atomic_int *total, global atomic_int *winners) {
    local atomic_int group_count;
    if (get_local_id(0) == 0)
        atomic_init(&group_count, 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    add_to(&group_count, 1);
    add_to(total, 2);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        add_to(total, 1000 * atomic_load(&group_count));
    if (!atomic_flag_test_and_set(&flag))
        atomic_fetch_add(winners, 1);
}
