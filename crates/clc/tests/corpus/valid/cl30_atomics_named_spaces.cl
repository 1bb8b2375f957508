// options: -cl-std=CL3.0
// OpenCL C 3.0 atomics without the generic address space: the overloads
// that take pointers to __global and __local atomic objects (6.15.12),
// explicit memory orders and scopes guarded by the optional-feature macros
// (6.2.1), and the legacy atomic_* functions side by side.

__kernel void atomics30(volatile __global atomic_int *counter,
                        volatile __global atomic_uint *mask,
                        __global int *out)
{
    __local atomic_int local_sum;
    if (get_local_id(0) == 0)
        atomic_init(&local_sum, 0);
    barrier(CLK_LOCAL_MEM_FENCE);

    atomic_fetch_add_explicit(&local_sum, 2, memory_order_relaxed, memory_scope_work_group);
#if defined(__opencl_c_atomic_order_seq_cst) && defined(__opencl_c_atomic_scope_device)
    int before = atomic_fetch_add(counter, 1);
    atomic_fetch_or(mask, 1u << (get_local_id(0) & 31));
#else
    int before = atomic_fetch_add_explicit(counter, 1, memory_order_relaxed, memory_scope_work_group);
#endif
#ifdef __opencl_c_atomic_order_acq_rel
    int seen = atomic_load_explicit(counter, memory_order_acquire, memory_scope_work_group);
#else
    int seen = atomic_load_explicit(counter, memory_order_relaxed, memory_scope_work_group);
#endif
    int expected = seen;
    atomic_compare_exchange_strong_explicit(counter, &expected, seen + 1, memory_order_relaxed,
                                            memory_order_relaxed, memory_scope_work_group);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = before + atomic_load_explicit(&local_sum, memory_order_relaxed,
                                                          memory_scope_work_group);
}

__kernel void legacy(volatile __global int *p, volatile __local int *l)
{
    if (get_local_id(0) == 0)
        *l = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(l, 1);
    atomic_sub(p, 1);
    atomic_xchg(p + 1, 5);
    atomic_cmpxchg(p + 2, 0, 1);
    atomic_min(p + 3, -1);
    atomic_and(p + 4, 0xF0);
    atomic_or(p + 5, 0x0F);
    atomic_xor(p + 6, 0xFF);
    atomic_dec(p + 7);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        atomic_add(p, *l);
}
