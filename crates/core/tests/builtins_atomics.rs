//! Atomics under contention (OpenCL C 6.15.12): every work-item of many work-groups hits a few
//! addresses in global and local memory; the final values are checked exactly. Covers the 1.x
//! functions, a compare-and-swap loop, and the C11-style functions of OpenCL C 3.0.

use ferrocl_core::device::NdRange;
use ferrocl_core::kernel::ArgValue;
use ferrocl_core::memory::flags;
use ferrocl_core::program::Program;
use ferrocl_core::{CommandQueue, Context, HostPtr, Kernel, MemObject, Platform};

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
    let devices = Platform::get().devices().to_vec();
    let context = Context::new(devices.clone(), Vec::new(), false, None);
    let queue = CommandQueue::new(context.clone(), devices[0].clone(), 0, Vec::new());
    let program = Program::from_source(context.clone(), SOURCE.to_string());
    if let Err(e) = program.build(&[], "-cl-std=CL3.0") {
        panic!(
            "{e}: {}",
            program
                .build_info(&devices[0])
                .map(|b| b.log)
                .unwrap_or_default()
        );
    }
    let kernel = Kernel::new(&program, "contend").expect("kernel");
    let (groups, local) = (97u64, 64u64);
    let n = (groups * local) as i64;
    let mut g = vec![0i32; 9];
    g[4] = i32::MAX;
    g[3] = i32::MIN;
    let mut bits = vec![0u32; 2];
    // SAFETY: both vectors outlive the command, which is finished below.
    let (hg, hb) = unsafe {
        (
            HostPtr::new(g.as_mut_ptr().cast()),
            HostPtr::new(bits.as_mut_ptr().cast()),
        )
    };
    let mg = MemObject::new_buffer(
        context.clone(),
        flags::READ_WRITE | flags::USE_HOST_PTR,
        36,
        Some(hg),
        Vec::new(),
    )
    .unwrap();
    let mb = MemObject::new_buffer(
        context,
        flags::READ_WRITE | flags::USE_HOST_PTR,
        8,
        Some(hb),
        Vec::new(),
    )
    .unwrap();
    kernel.set_arg(0, ArgValue::Mem(Some(mg))).unwrap();
    kernel.set_arg(1, ArgValue::Mem(Some(mb))).unwrap();
    kernel.set_arg(2, ArgValue::Local(8)).unwrap();
    let nd = NdRange {
        work_dim: 1,
        global_offset: [0; 3],
        global_size: [groups * local, 1, 1],
        local_size: [local, 1, 1],
    };
    for _ in 0..3 {
        kernel.enqueue(&queue, nd, &[], 0).expect("enqueue");
    }
    queue.finish().unwrap();
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
