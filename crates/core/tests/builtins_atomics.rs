//! Atomics under contention (OpenCL C 6.15.12): every work-item of many work-groups hits a few
//! addresses in global and local memory; the final values are checked exactly. Covers the 1.x
//! functions, a compare-and-swap loop, and the C11-style functions of OpenCL C 3.0.

mod builtins_harness;

use builtins_harness::{bytes, values, Runner};
use ferrocl_core::device::NdRange;
use ferrocl_core::Platform;

/// Builds `source` for OpenCL C 3.0 and runs its kernel `name` `runs` times over `groups`
/// work-groups of `local` work-items, with the buffers and 8 bytes of local memory as its
/// arguments; the buffers hold the results after the last run.
fn contend(
    source: &str,
    name: &str,
    buffers: &mut [Vec<u8>],
    groups: u64,
    local: u64,
    runs: usize,
) {
    let runner = Runner::new();
    let program = runner.build(source, "-cl-std=CL3.0");
    let nd = NdRange {
        work_dim: 1,
        global_offset: [0; 3],
        global_size: [groups * local, 1, 1],
        local_size: [local, 1, 1],
    };
    runner.run_repeated(&program, name, buffers, &[8], nd, runs);
}

const SOURCE: &str = r#"
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
"#;

#[test]
fn contended_atomics_end_exact() {
    let (groups, local) = (97u64, 64u64);
    let n = (groups * local) as i64;
    let mut g = vec![0i32; 9];
    g[4] = i32::MAX;
    g[3] = i32::MIN;
    let (g, bits): (Vec<i32>, Vec<u32>) = {
        let mut buffers = [bytes(&g), bytes(&[0u32; 2])];
        contend(SOURCE, "contend", &mut buffers, groups, local, 3);
        (values(&buffers[0]), values(&buffers[1]))
    };
    let runs = 3i64;
    let sum: i64 = (0..n).sum();
    assert_eq!(i64::from(g[0]), runs * n, "atomic_inc");
    assert_eq!(i64::from(g[1]), (runs * sum) as i32 as i64, "atomic_add");
    assert_eq!(i64::from(g[2]), -3 * runs * n, "atomic_sub");
    assert_eq!(i64::from(g[3]), n - 1, "atomic_max");
    assert_eq!(i64::from(g[4]), -(n - 1), "atomic_min");
    assert_eq!(bits[0], u32::MAX, "atomic_or");
    let xor = (0..n as u32).fold(0, |a, i| a ^ i);
    // Three runs: xor applied an odd number of times.
    assert_eq!(bits[1], xor, "atomic_xor");
    assert_eq!(
        i64::from(g[5]),
        (runs * 2 * sum) as i32 as i64,
        "atomic_cmpxchg loop"
    );
    assert_eq!(i64::from(g[6]), 5 * runs * n, "atomic_fetch_add_explicit");
    assert_eq!(
        i64::from(g[7]),
        runs * n,
        "local atomic_add, summed per group"
    );
    assert_eq!(i64::from(g[8]), local as i64 - 1, "local atomic_max");
}

const SOURCE64: &str = r#"
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
kernel void contend64(global long *g, global ulong *u, local long *l) {
    long i = get_global_id(0), lid = get_local_id(0);
    if (lid == 0) { l[0] = 0; }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Addends above 2^32 check that every bit takes part.
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
"#;

#[test]
fn contended_64_bit_atomics_end_exact() {
    let devices = Platform::get().devices().to_vec();
    let ext = &devices[0].info.extensions;
    for name in ["cl_khr_int64_base_atomics", "cl_khr_int64_extended_atomics"] {
        assert!(ext.iter().any(|e| e.name == name), "{name} advertised");
    }
    let (groups, local) = (61u64, 64u64);
    let n = (groups * local) as i64;
    let mut g = vec![0i64; 8];
    g[3] = i64::MIN;
    g[4] = i64::MAX;
    let u = vec![0u64, 0, u64::MAX, 0, 0];
    let (g, u): (Vec<i64>, Vec<u64>) = {
        let mut buffers = [bytes(&g), bytes(&u)];
        contend(SOURCE64, "contend64", &mut buffers, groups, local, 1);
        (values(&buffers[0]), values(&buffers[1]))
    };
    let sum: i64 = (0..n).sum();
    assert_eq!(g[0], (sum << 33) + n, "atom_add");
    assert_eq!(g[1], n, "atom_inc");
    assert_eq!(g[2], -0x1_0000_0001 * n, "atom_sub");
    assert_eq!(g[3], (n - 1) << 31, "atom_max");
    assert_eq!(g[4], -((n - 1) << 31), "atom_min");
    assert_eq!(u[0], u64::MAX, "atom_or");
    let xor = (0..n as u64).fold(0, |a, i| a ^ (i << 20));
    assert_eq!(u[1], xor, "atom_xor");
    assert_eq!(u[2], 0, "atom_and");
    assert_eq!(g[5], sum << 32, "atom_cmpxchg loop");
    assert_eq!(
        g[6],
        (3 << 40) * n,
        "atomic_fetch_add_explicit on atomic_long"
    );
    assert_eq!(
        u[3],
        ((n - 1) as u64) << 40,
        "atomic_fetch_max on atomic_ulong"
    );
    assert_eq!(u[4], (n as u64) << 36, "atomic_compare_exchange_weak loop");
    assert_eq!(g[7], 0x2_0000_0000 * n, "local atom_add, summed per group");
}

/// Every memory order and scope the device reports in CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES
/// and CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, in the C11-style functions (OpenCL C 6.15.12):
/// each combination adds its own amount, so the totals show that every call ran once per
/// work-item.
#[test]
fn every_reported_order_and_scope_works() {
    let mut body = String::new();
    let orders = [
        "memory_order_relaxed",
        "memory_order_acquire",
        "memory_order_release",
        "memory_order_acq_rel",
        "memory_order_seq_cst",
    ];
    let scopes = [
        "memory_scope_work_group",
        "memory_scope_device",
        "memory_scope_all_devices",
    ];
    let mut slot = 0;
    for o in orders {
        for s in scopes {
            body.push_str(&format!(
                "    atomic_fetch_add_explicit(&c[{slot}], {}, {o}, {s});\n",
                slot + 1
            ));
            body.push_str(&format!(
                "    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, {o}, {s});\n"
            ));
            slot += 1;
        }
    }
    let source = format!(
        r#"
kernel void orders(volatile global atomic_int *c, volatile global atomic_int *f, global int *seen) {{
{body}    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_work_item);
    atomic_store(&c[{slot}], 7);
    seen[get_global_id(0)] = atomic_load_explicit(&c[{slot}], memory_order_acquire, memory_scope_device);
    atomic_fetch_sub(&c[{}], 2);
    int expected = 0;
    if (atomic_compare_exchange_strong_explicit(&f[0], &expected, (int)get_global_id(0) + 1,
            memory_order_acq_rel, memory_order_acquire, memory_scope_device))
        atomic_fetch_add(&f[1], 1);
    atomic_fetch_or_explicit(&f[2], 1 << (get_global_id(0) % 31), memory_order_release, memory_scope_all_devices);
}}
"#,
        slot + 1
    );
    let runner = Runner::new();
    let program = runner.build(&source, "-cl-std=CL3.0");
    let n = 256usize;
    let mut buffers = vec![vec![0u8; 4 * (slot + 2)], vec![0u8; 12], vec![0u8; 4 * n]];
    runner.run(&program, "orders", &mut buffers, n);
    let words = |b: &[u8]| -> Vec<i32> {
        b.chunks(4)
            .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    let c = words(&buffers[0]);
    for (i, &v) in c[..slot].iter().enumerate() {
        assert_eq!(v as usize, (i + 1) * n, "combination {i}");
    }
    assert_eq!(c[slot], 7, "atomic_store");
    assert_eq!(c[slot + 1], -2 * n as i32, "atomic_fetch_sub");
    assert!(
        words(&buffers[2]).iter().all(|&v| v == 7),
        "atomic_load_explicit"
    );
    let f = words(&buffers[1]);
    assert!((1..=n as i32).contains(&f[0]), "one compare-exchange won");
    assert_eq!(f[1], 1, "exactly one compare-exchange succeeded");
    assert_eq!(f[2], 0x7fff_ffff, "atomic_fetch_or_explicit");
}
