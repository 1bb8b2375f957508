//! Building a generated kernel and running it on the three engines compared: the IR
//! interpreter (`ferrocl_ir::interp`, the reference), the CPU device with scalar code only,
//! and the CPU device with its vectorized work-group code. Each run gets the same input and
//! zeroed output buffers; its result is the `out` and `acc` buffers as words.

use ferrocl_cpu::{CpuProgram, NdRange};
use ferrocl_ir::interp::{run_ndrange, KernelArgValue, Memory, NdRange as InterpRange, Val};
use ferrocl_ir::Module;

use crate::gen::Rng;
use crate::program::{Launch, ACC_WORDS, INPUT_WORDS, LOCAL_WORDS};

/// The kernel argument `n` (a uniform trip count).
pub const N: u32 = 5;

/// The local sizes every kernel runs with: 1, sizes that leave a remainder against the
/// vector widths (4, 8, 16), multiples of them, and one larger group.
pub const LOCAL_SIZES: [u64; 7] = [1, 3, 7, 8, 12, 16, 100];

/// What the three engines are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Engine {
    Interpreter,
    Scalar,
    Vector,
}

impl Engine {
    pub fn name(self) -> &'static str {
        match self {
            Engine::Interpreter => "interpreter",
            Engine::Scalar => "cpu-scalar",
            Engine::Vector => "cpu-vector",
        }
    }
}

/// The buffers a run leaves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outputs {
    pub out: Vec<u32>,
    pub acc: Vec<u32>,
}

/// The `in` buffer for `seed`: mostly small values (which make comparisons, divisions and
/// shifts interesting), some large ones.
pub fn input(seed: u64) -> Vec<u32> {
    let mut rng = Rng::new(seed ^ 0x1f2e_3d4c);
    (0..INPUT_WORDS)
        .map(|_| match rng.below(4) {
            0 => rng.next_u64() as u32,
            1 => 0xffff_ffff - rng.below(8) as u32,
            _ => rng.below(64) as u32,
        })
        .collect()
}

/// Builds OpenCL C as `clBuildProgram` does for the CPU device (OpenCL C 3.0): the
/// executable module, or the build log. Float division and `sqrt` are asked to be correctly
/// rounded (`-cl-fp32-correctly-rounded-divide-sqrt`): without it the wide tier computes them
/// within their ulp bounds rather than as the interpreter does (the tier's own tests check
/// those forms against the bounds: `cpu/tests/wide.rs`).
pub fn build(source: &str) -> Result<Module, String> {
    caught(|| {
        let options = ferrocl_clc::build::parse_options(
            "-cl-std=CL3.0 -cl-fp32-correctly-rounded-divide-sqrt",
        )
        .map_err(|e| e.log)?;
        let target = ferrocl_clc::Target::full_profile_cpu();
        let built =
            ferrocl_clc::build::build(source, &options, &target, &[], &ferrocl_builtins::library)
                .map_err(|e| e.log)?;
        Ok(built.executable)
    })
}

/// `f`'s result, with a panic (an internal error of the compiler) as an error: the runtime
/// answers one with an error code, and a campaign goes on to the next program.
fn caught<T>(f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|e| {
        let what = e
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| e.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Err(format!("internal error (panic): {what}"))
    })
}

/// Compiles for the CPU device, vectorized across work-items or not.
pub fn compile_cpu(module: &Module, vectorized: bool) -> Result<CpuProgram, String> {
    caught(|| {
        let result = if vectorized {
            CpuProgram::compile_with(module, &ferrocl_cpu::vectorized_wide)
        } else {
            CpuProgram::compile_with(module, &|_| None)
        };
        result.map_err(|e| e.0)
    })
}

/// Runs kernel `k` on the CPU device over `launch`.
pub fn run_cpu(program: &CpuProgram, launch: &Launch, input: &[u32]) -> Result<Outputs, String> {
    let k = program.kernel("k").ok_or("no kernel k")?;
    let items = launch.items();
    let input = input.to_vec();
    let mut out = vec![0u32; items];
    let mut acc = vec![0u32; ACC_WORDS];
    let mut args = vec![0u8; k.args_size];
    // The `__local` argument after the kernel's own `__local` variables, as a launch through
    // the API places it (`core/src/kernel.rs`): its offset in the group's region.
    let lm = k
        .static_local_size
        .next_multiple_of(ferrocl_cpu::ALLOCATION_ALIGN);
    let values = [
        out.as_mut_ptr() as u64,
        input.as_ptr() as u64,
        acc.as_mut_ptr() as u64,
        u64::from(N),
        lm as u64,
    ];
    for (slot, v) in k.args.iter().zip(values) {
        args[slot.offset..slot.offset + slot.size].copy_from_slice(&v.to_le_bytes()[..slot.size]);
    }
    let nd = NdRange {
        work_dim: launch.work_dim,
        global_offset: launch.offset,
        global_size: launch.global,
        local_size: launch.local,
    };
    // SAFETY: the argument block holds the addresses of `out` (one word per work-item),
    // `input` (the words the kernel masks its indices to) and `acc` (the words its atomics
    // mask their slots to), which outlive the launch, and the `__local` argument's offset,
    // inside the local memory the launch is given.
    unsafe { k.launch(&args, lm + 4 * LOCAL_WORDS, &nd) }.map_err(|e| e.to_string())?;
    Ok(Outputs { out, acc })
}

/// Runs kernel `k` in the IR interpreter over `launch`.
pub fn run_interpreter(module: &Module, launch: &Launch, input: &[u32]) -> Result<Outputs, String> {
    let items = launch.items();
    let mut memory = Memory::default();
    let out = memory.alloc(vec![0u8; items * 4]);
    let inp = memory.alloc_from(input);
    let acc = memory.alloc(vec![0u8; ACC_WORDS * 4]);
    let range = InterpRange {
        work_dim: launch.work_dim,
        global_size: launch.global,
        local_size: launch.local,
        global_offset: launch.offset,
        sub_group_size: u64::from(ferrocl_cpu::SUB_GROUP_SIZE),
    };
    let args = [
        KernelArgValue::Val(Val::scalar(out)),
        KernelArgValue::Val(Val::scalar(inp)),
        KernelArgValue::Val(Val::scalar(acc)),
        KernelArgValue::Val(Val::scalar(u64::from(N))),
        KernelArgValue::Local(4 * LOCAL_WORDS as u32),
    ];
    let f = module.func_by_name("k").ok_or("no kernel k")?;
    // A saved reproducer may be older than the `__local` argument: the arguments it declares.
    let args = &args[..module.funcs[f].sig.params.len().min(args.len())];
    let (memory, r) = run_ndrange(module, f, args, memory, &range);
    r.map_err(|t| format!("trap: {t}"))?;
    Ok(Outputs {
        out: memory.read_as::<u32>(out),
        acc: memory.read_as::<u32>(acc),
    })
}
