//! `-cl-opt-disable` (5.8.6: "disables all optimizations"): kernels built without the
//! optimization passes give the same results as optimized ones.
//!
//! This stays in Rust: it reads the runtime's private memory size of a kernel to see that the
//! option took effect, which `ferrocl run` does not show.

use crate::builtins_harness;

use std::sync::Arc;

use ferrocl_core::device::NdRange;
use ferrocl_core::kernel::ArgValue;
use ferrocl_core::memory::flags;
use ferrocl_core::program::Program;
use ferrocl_core::{CommandQueue, Context, HostPtr, Kernel, MemObject};

/// Builds `SOURCE` with `options` and runs `work` over `input` in groups of 64.
fn run(options: &str, input: &[i32]) -> (Vec<i32>, usize) {
    let devices = builtins_harness::platform().devices().to_vec();
    let context = Context::new(devices.clone(), Vec::new(), false, None);
    let queue = CommandQueue::new(context.clone(), devices[0].clone(), 0, Vec::new());
    let program = Program::from_source(context.clone(), SOURCE.to_string());
    program.build(&[], options).expect("build");
    let kernel = Kernel::new(&program, "work").expect("kernel");
    let mut inp = input.to_vec();
    let mut out = vec![0i32; input.len()];
    let bytes = 4 * input.len();
    // SAFETY: both vectors outlive the command, which is finished below.
    let (hi, ho) = unsafe {
        (
            HostPtr::new(inp.as_mut_ptr().cast()),
            HostPtr::new(out.as_mut_ptr().cast()),
        )
    };
    let mi = MemObject::new_buffer(
        context.clone(),
        flags::READ_WRITE | flags::USE_HOST_PTR,
        bytes,
        Some(hi),
        Vec::new(),
    )
    .unwrap();
    let mo = MemObject::new_buffer(
        context,
        flags::READ_WRITE | flags::USE_HOST_PTR,
        bytes,
        Some(ho),
        Vec::new(),
    )
    .unwrap();
    kernel.set_arg(0, ArgValue::Mem(Some(&mi))).unwrap();
    kernel.set_arg(1, ArgValue::Mem(Some(&mo))).unwrap();
    kernel.set_arg(2, ArgValue::Local(64 * 4)).unwrap();
    let nd = NdRange {
        work_dim: 1,
        global_offset: [0; 3],
        global_size: [input.len() as u64, 1, 1],
        local_size: [64, 1, 1],
    };
    kernel.enqueue(&queue, nd, &[], 0).expect("enqueue");
    queue.finish().unwrap();
    // Scalar locals: promoted to registers when optimized, in private memory when not.
    let private = Kernel::new(&program, "scalars")
        .expect("kernel")
        .private_mem_size(&devices[0]);
    drop((kernel, Arc::clone(&program)));
    (out, private)
}

const SOURCE: &str = r#"
kernel void scalars(global int *out) {
    int i = get_global_id(0);
    int twice = i * 2;
    out[i] = twice + 1;
}
typedef struct { int a; float b[3]; } item;
kernel void work(global const int *in, global int *out, local int *scratch) {
    int lid = get_local_id(0), i = get_global_id(0);
    item it = { in[i], { 1.0f, 2.0f, 3.0f } };
    int acc = 0;
    for (int k = 0; k < 3; k++)
        acc += (int)it.b[k] * it.a;
    scratch[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[i] = scratch[get_local_size(0) - 1 - lid] + (i % 3 == 0 ? 1 : -1);
}
"#;

#[test]
fn unoptimized_kernels_compute_the_same() {
    let n = 256;
    let input: Vec<i32> = (0..n as i32).map(|i| i * 7 - 100).collect();
    let (optimized, private_optimized) = run("", &input);
    let (plain, private_plain) = run("-cl-opt-disable", &input);
    // Without mem2reg the locals stay in private memory: the option really took effect.
    assert!(
        private_plain > private_optimized,
        "{private_plain} vs {private_optimized}"
    );
    let results = [optimized, plain];
    let want: Vec<i32> = (0..n)
        .map(|i| {
            let g = i / 64 * 64;
            let mirror = g + 63 - i % 64;
            input[mirror] * 6 + if i % 3 == 0 { 1 } else { -1 }
        })
        .collect();
    assert_eq!(results[0], want);
    assert_eq!(results[1], want);
}
