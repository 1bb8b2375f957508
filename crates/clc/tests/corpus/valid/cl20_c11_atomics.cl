// options: -cl-std=CL2.0
// requires: generic
// note: checked with PoCL 5.0 (generic address space supported) under -cl-std=CL3.0.
// C11-style atomics (6.15.12): atomic_int/uint/long/float/flag types,
// ATOMIC_VAR_INIT and atomic_init, load/store/exchange/compare-exchange/
// fetch-ops with and without explicit memory order and scope, atomic_flag,
// and atomic_work_item_fence.

__kernel void atomics(volatile __global atomic_int *counter,
                      volatile __global atomic_uint *bits,
                      volatile __global atomic_float *fmax_val,
                      volatile __global atomic_flag *lock,
                      __global int *out)
{
    __local atomic_int local_counter;
    if (get_local_id(0) == 0)
        atomic_init(&local_counter, 0);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);

    int old = atomic_fetch_add(counter, 1);
    atomic_fetch_add_explicit(&local_counter, 1, memory_order_relaxed, memory_scope_work_group);
    atomic_fetch_or(bits, 1u << (get_global_id(0) & 31));
    atomic_fetch_and_explicit(bits, ~0u, memory_order_seq_cst);
    atomic_fetch_sub(counter, 0);
    atomic_fetch_min(counter, 1000000);
    atomic_fetch_max_explicit(counter, -1, memory_order_acq_rel, memory_scope_device);

    float seen = atomic_load_explicit(fmax_val, memory_order_acquire);
    float mine = (float)get_global_id(0);
    while (mine > seen &&
           !atomic_compare_exchange_weak(fmax_val, &seen, mine))
        ;

    int expected = 0;
    atomic_compare_exchange_strong_explicit(counter, &expected, 1, memory_order_acq_rel,
                                            memory_order_acquire, memory_scope_device);
    int swapped = atomic_exchange(counter, old + 1);
    atomic_store_explicit(counter, swapped, memory_order_release);

    if (!atomic_flag_test_and_set_explicit(lock, memory_order_acquire, memory_scope_device))
        atomic_flag_clear_explicit(lock, memory_order_release, memory_scope_device);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);

    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = atomic_load(&local_counter) + atomic_load(counter);
}

__kernel void atomics64(volatile __global atomic_long *total, volatile __global atomic_ulong *mask)
{
    atomic_fetch_add(total, (long)get_global_id(0));
    atomic_fetch_xor(mask, 1ul << (get_global_id(0) & 63));
}

__global atomic_int program_counter = ATOMIC_VAR_INIT(5);

__kernel void program_scope_atomic(__global int *out)
{
    out[0] = atomic_fetch_add(&program_counter, 1);
}
