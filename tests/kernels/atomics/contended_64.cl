// 64-bit atomics under contention (OpenCL C 6.15.12.9 atom_ functions of
// cl_khr_int64_base_atomics and cl_khr_int64_extended_atomics, and the C11-style functions on
// atomic_long and atomic_ulong, 6.15.12): the 3904 work-items of 61 work-groups of 64;
// addends above 2^32 check that every bit takes part. With n = 3904 and
// S = 0 + 1 + ... + (n - 1), g holds: atom_add (S << 33) + n, atom_inc n, atom_sub
// -0x100000001 n, atom_max (n - 1) << 31 (from LONG_MIN), atom_min -((n - 1) << 31) (from
// LONG_MAX), the atom_cmpxchg loop S << 32, atomic_fetch_add_explicit (3 << 40) n, the local
// atom_add summed per group 0x200000000 n; u holds: atom_or of every bit, atom_xor of
// i << 20 over every i (0), atom_and clearing every bit (from ULONG_MAX), atomic_fetch_max
// (n - 1) << 40, the atomic_compare_exchange_weak loop n << 36.
// requires: cl_khr_int64_base_atomics
// requires: cl_khr_int64_extended_atomics
// run: --kernel contend64 --global 3904 --local 64 --options -cl-std=CL3.0 --arg 'long[8]=0,0,0,-9223372036854775808,9223372036854775807,0,0,0' --arg 'ulong[5]=0,0,18446744073709551615,0,0' --arg local:8
// expect g: 65443756718952256 3904 -16767552327488 8381628678144 -8381628678144 32721878359474176 12877480184512512 33535104647168
// expect u: 18446744073709551615 0 0 4291393883209728 268280837177344
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
kernel void contend64(global long *g, global ulong *u, local long *l) {
    long i = get_global_id(0), lid = get_local_id(0);
    if (lid == 0) { l[0] = 0; }
    barrier(CLK_LOCAL_MEM_FENCE);
    atom_add(&g[0], (i << 33) + 1);
    atom_inc(&g[1]);
    atom_sub(&g[2], 0x100000001L);
    atom_max(&g[3], i << 31);
    atom_min(&g[4], -(i << 31));
    atom_or(&u[0], 1UL << (i % 64));
    atom_xor(&u[1], (ulong)i << 20);
    atom_and(&u[2], ~(1UL << (i % 64)));
    long old = g[5];
    for (;;) {
        long seen = atom_cmpxchg(&g[5], old, old + (i << 32));
        if (seen == old) break;
        old = seen;
    }
    atom_add(&l[0], 0x200000000L);
    atomic_fetch_add_explicit((volatile global atomic_long *)&g[6], 3L << 40, memory_order_relaxed, memory_scope_device);
    atomic_fetch_max((volatile global atomic_ulong *)&u[3], (ulong)i << 40);
    ulong expected = atomic_load((volatile global atomic_ulong *)&u[4]);
    while (!atomic_compare_exchange_weak((volatile global atomic_ulong *)&u[4], &expected, expected + (1UL << 36))) {
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        atom_add(&g[7], l[0]);
    }
}
