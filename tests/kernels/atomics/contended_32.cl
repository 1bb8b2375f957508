// Atomics under contention (OpenCL C 6.15.12): the 6208 work-items of 97 work-groups of 64 hit
// a few addresses in global and local memory, three runs over the same buffers; the final
// values are exact. The 1.x functions, a compare-and-swap loop, and a C11-style function of
// OpenCL C 3.0. With n = 6208 and S = 0 + 1 + ... + (n - 1), g holds: atomic_inc 3n,
// atomic_add 3S, atomic_sub -9n, atomic_max n - 1 (from INT_MIN), atomic_min -(n - 1) (from
// INT_MAX), the cmpxchg loop 6S, atomic_fetch_add_explicit 15n, the per-group local
// atomic_add summed 3n, the local atomic_max 63; bits: atomic_or of every bit, atomic_xor
// 0 ^ 1 ^ ... ^ (n - 1) = 0 three times.
// local-sizes: fixed: the local atomic_max keeps the group's largest local id
// run: --kernel contend --global 6208 --local 64 --options -cl-std=CL3.0 --repeat 3 --arg 'int[9]=0,0,0,-2147483648,2147483647,0,0,0,0' --arg 'uint[2]' --arg local:8
// expect g: 18624 57799584 -55872 6207 -6207 115599168 93120 18624 63
// expect bits: 4294967295 0
kernel void contend(global int *g, global uint *bits, local int *l) {
    int i = get_global_id(0), lid = get_local_id(0);
    if (lid == 0) { l[0] = 0; l[1] = 0; }
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&g[0]);
    atomic_add(&g[1], i);
    atomic_sub(&g[2], 3);
    atomic_max(&g[3], i);
    atomic_min(&g[4], -i);
    atomic_or(&bits[0], 1u << (i % 32));
    atomic_xor(&bits[1], (uint)i);
    atomic_add(&l[0], 1);
    atomic_max(&l[1], lid);
    // A compare-and-swap loop: add i * 2 to g[5].
    int old = g[5];
    for (;;) {
        int seen = atomic_cmpxchg(&g[5], old, old + 2 * i);
        if (seen == old) break;
        old = seen;
    }
    // C11-style atomics with explicit order and scope.
    atomic_fetch_add_explicit((volatile global atomic_int *)&g[6], 5, memory_order_relaxed, memory_scope_device);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        atomic_add(&g[7], l[0]);
        atomic_max(&g[8], l[1]);
    }
}
