//! Throughput of the main float math builtins on the CPU device, scalar and float4: each
//! kernel applies one builtin to every element of a buffer; the best of a few launches is
//! reported in elements per second.
//!
//! `cargo run --release -p ferrocl-core --example builtins_bench [elements] [function ...]`

use std::sync::Arc;
use std::time::{Duration, Instant};

use ferrocl_core::device::NdRange;
use ferrocl_core::kernel::ArgValue;
use ferrocl_core::memory::flags;
use ferrocl_core::program::Program;
use ferrocl_core::{CommandQueue, Context, HostPtr, Kernel, MemObject};

/// (builtin, arguments): the expression is `f(a)`, `f(a, b)` or `f(a, b, c)`.
const FUNCTIONS: &[(&str, usize)] = &[
    ("sin", 1),
    ("cos", 1),
    ("tan", 1),
    ("sinpi", 1),
    ("exp", 1),
    ("exp2", 1),
    ("log", 1),
    ("log2", 1),
    ("sqrt", 1),
    ("rsqrt", 1),
    ("cbrt", 1),
    ("tanh", 1),
    ("erf", 1),
    ("native_sin", 1),
    ("native_exp", 1),
    ("half_exp", 1),
    ("pow", 2),
    ("atan2", 2),
    ("hypot", 2),
    ("fmax", 2),
    ("fma", 3),
];

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(1usize << 20)
        .div_ceil(256)
        * 256;
    let only: Vec<String> = args.collect();
    let context = Context::new(
        ferrocl_core::Platform::init(|m| {
            vec![ferrocl_core::Device::cpu(
                m,
                Box::new(ferrocl_cpu::CpuDevice),
            )]
        })
        .devices()
        .to_vec(),
        Vec::new(),
        false,
        None,
    );
    let device = context.devices[0].clone();
    let queue = CommandQueue::new(context.clone(), device, 0, Vec::new());

    let mut source = String::new();
    for &(f, arity) in FUNCTIONS {
        let call = |l: &str| {
            let ops = ["a", "b", "c"][..arity]
                .iter()
                .map(|x| l.replace('X', x))
                .collect::<Vec<_>>()
                .join(", ");
            format!("{f}({ops})")
        };
        source += &format!(
            "kernel void {f}_1(global float* o, global const float* a, global const float* b, \
             global const float* c) {{ size_t i = get_global_id(0); o[i] = {}; }}\n\
             kernel void {f}_4(global float4* o, global const float4* a, global const float4* b, \
             global const float4* c) {{ size_t i = get_global_id(0); o[i] = {}; }}\n",
            call("X[i]"),
            call("X[i]")
        );
    }
    let program = Program::from_source(context.clone(), source);
    program.build(&[], "").expect("the bench kernels build");

    // Inputs in (0.5, 4): inside every function's domain.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut input = |_| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        0.5 + (state >> 40) as f32 / (1u64 << 24) as f32 * 3.5
    };
    let mut host: Vec<Vec<f32>> = (0..4).map(|_| (0..n).map(&mut input).collect()).collect();
    let buffers: Vec<Arc<MemObject>> = host
        .iter_mut()
        .map(|h| {
            // SAFETY: the vectors outlive every command, which all finish before main ends.
            let ptr = unsafe { HostPtr::new(h.as_mut_ptr().cast()) };
            MemObject::new_buffer(
                context.clone(),
                flags::READ_WRITE | flags::USE_HOST_PTR,
                n * 4,
                Some(ptr),
                Vec::new(),
            )
            .expect("buffer")
        })
        .collect();

    println!("{n} elements per launch, best of 5");
    println!(
        "{:<12} {:>16} {:>16}",
        "function", "scalar elem/s", "float4 elem/s"
    );
    for &(f, _) in FUNCTIONS {
        if !only.is_empty() && !only.iter().any(|o| o == f) {
            continue;
        }
        let mut rates = Vec::new();
        for width in [1usize, 4] {
            let kernel = Kernel::new(&program, &format!("{f}_{width}")).expect("kernel");
            for (i, b) in buffers.iter().enumerate() {
                kernel.set_arg(i, ArgValue::Mem(Some(b))).unwrap();
            }
            let nd = NdRange {
                work_dim: 1,
                global_offset: [0; 3],
                global_size: [(n / width) as u64, 1, 1],
                local_size: [64, 1, 1],
            };
            let mut best = Duration::MAX;
            for _ in 0..5 {
                let start = Instant::now();
                kernel.enqueue(&queue, nd, &[], 0).expect("enqueue");
                queue.finish().expect("finish");
                best = best.min(start.elapsed());
            }
            rates.push(n as f64 / best.as_secs_f64());
        }
        println!("{f:<12} {:>16.3e} {:>16.3e}", rates[0], rates[1]);
    }
    drop(buffers);
    drop(host);
}
