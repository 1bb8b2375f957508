// Every memory order and scope of OpenCL C 6.15.12 (memory_order_relaxed to seq_cst,
// memory_scope_work_group to all_devices; every one reported in the CPU device's
// CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES and CL_DEVICE_ATOMIC_FENCE_CAPABILITIES) in the C11-style
// functions: combination k adds k + 1 from each of 256 work-items, so c[k] = 256 (k + 1) shows
// that every call ran once per work-item; then atomic_store and atomic_load_explicit (seen:
// 7 everywhere), atomic_fetch_sub (-2 each), one successful compare-exchange of w[0] (f[0]
// counts the winners; every loser finds the winner's id + 1 in `expected`: ok), and
// atomic_fetch_or_explicit of bits 0 to 30 (f[1]).
// requires: __opencl_c_atomic_order_acq_rel
// requires: __opencl_c_atomic_order_seq_cst
// requires: __opencl_c_atomic_scope_device
// requires: __opencl_c_atomic_scope_all_devices
// run: --kernel orders --global 256 --local 64 --options -cl-std=CL3.0 --arg 'int[17]' --arg 'int[1]' --arg 'int[2]' --arg 'int[256]' --arg 'int[256]'
// expect c: 256 512 768 1024 1280 1536 1792 2048 2304 2560 2816 3072 3328 3584 3840 7 -512
// expect f: 1 2147483647
// expect seen: 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7 7
// expect ok: 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1
kernel void orders(volatile global atomic_int *c, volatile global atomic_int *w,
                   volatile global atomic_int *f, global int *seen, global int *ok) {
    atomic_fetch_add_explicit(&c[0], 1, memory_order_relaxed, memory_scope_work_group);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_order_relaxed, memory_scope_work_group);
    atomic_fetch_add_explicit(&c[1], 2, memory_order_relaxed, memory_scope_device);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_order_relaxed, memory_scope_device);
    atomic_fetch_add_explicit(&c[2], 3, memory_order_relaxed, memory_scope_all_devices);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_order_relaxed, memory_scope_all_devices);
    atomic_fetch_add_explicit(&c[3], 4, memory_order_acquire, memory_scope_work_group);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_order_acquire, memory_scope_work_group);
    atomic_fetch_add_explicit(&c[4], 5, memory_order_acquire, memory_scope_device);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_order_acquire, memory_scope_device);
    atomic_fetch_add_explicit(&c[5], 6, memory_order_acquire, memory_scope_all_devices);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_order_acquire, memory_scope_all_devices);
    atomic_fetch_add_explicit(&c[6], 7, memory_order_release, memory_scope_work_group);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_order_release, memory_scope_work_group);
    atomic_fetch_add_explicit(&c[7], 8, memory_order_release, memory_scope_device);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_order_release, memory_scope_device);
    atomic_fetch_add_explicit(&c[8], 9, memory_order_release, memory_scope_all_devices);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_order_release, memory_scope_all_devices);
    atomic_fetch_add_explicit(&c[9], 10, memory_order_acq_rel, memory_scope_work_group);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_order_acq_rel, memory_scope_work_group);
    atomic_fetch_add_explicit(&c[10], 11, memory_order_acq_rel, memory_scope_device);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_order_acq_rel, memory_scope_device);
    atomic_fetch_add_explicit(&c[11], 12, memory_order_acq_rel, memory_scope_all_devices);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_order_acq_rel, memory_scope_all_devices);
    atomic_fetch_add_explicit(&c[12], 13, memory_order_seq_cst, memory_scope_work_group);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_order_seq_cst, memory_scope_work_group);
    atomic_fetch_add_explicit(&c[13], 14, memory_order_seq_cst, memory_scope_device);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);
    atomic_fetch_add_explicit(&c[14], 15, memory_order_seq_cst, memory_scope_all_devices);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_order_seq_cst, memory_scope_all_devices);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_work_item);
    atomic_store(&c[15], 7);
    seen[get_global_id(0)] = atomic_load_explicit(&c[15], memory_order_acquire, memory_scope_device);
    atomic_fetch_sub(&c[16], 2);
    int expected = 0;
    int won = atomic_compare_exchange_strong_explicit(&w[0], &expected, (int)get_global_id(0) + 1,
            memory_order_acq_rel, memory_order_acquire, memory_scope_device);
    if (won)
        atomic_fetch_add(&f[0], 1);
    // A failed compare-exchange loads the value it found into `expected`: the winner's.
    ok[get_global_id(0)] = won || (expected >= 1 && expected <= (int)get_global_size(0));
    atomic_fetch_or_explicit(&f[1], 1 << (get_global_id(0) % 31), memory_order_release, memory_scope_all_devices);
}
