//! The CPU device: kernels compiled from IR to machine code with Cranelift, run in batches of
//! work-groups on a pool of one worker per core.
//!
//! [`CpuProgram::compile`] takes a verified, inlined module; each kernel becomes one function
//! that runs a whole work-group ([`codegen`]), and each function the inliner kept as a call
//! one function of its own; [`CompiledKernel::launch`] runs an NDRange.

pub mod abi;
mod address;
mod code_dump;
mod codegen;
pub mod compile;
mod guard;
mod half;
mod liveness;
mod pool;
mod printf;
mod serial;
pub mod transposed;
pub mod vectorize;
pub mod wide;
pub mod workgroup;

use std::fmt;
use std::sync::Arc;

use cranelift_codegen::settings;
use cranelift_jit::JITModule;
use ferrocl_device::{
    CompileOptions, DeviceBackend, DeviceError, DeviceKernel, DeviceLimits, DeviceProgram, Listing,
    Storage,
};
use ferrocl_ir::{KernelInfo, Module};

pub use abi::GroupCtx;
pub use ferrocl_device::{ArgSlot, NdRange, ALLOCATION_ALIGN};

/// The number of work-items in a sub-group ("an implementation-defined grouping of work-items
/// in a work-group", OpenCL C 6.15.1): the vector width the work-group compiler packs
/// work-items into. Sub-group k of a work-group is the work-items whose linear local id is in
/// [8k, 8k + 8); the last one of a work-group whose size is not a multiple of 8 is smaller.
/// Every sub-group query of the device and of its kernels derives from this.
pub const SUB_GROUP_SIZE: u32 = 8;

/// The most work-items in a work-group (CL_DEVICE_MAX_WORK_GROUP_SIZE, and the largest local
/// size of each dimension): the runtime refuses larger groups, so the work-group compiler may
/// rely on every local id and size being below it.
pub const MAX_WORK_GROUP_SIZE: usize = 4096;

/// Work-items per chunk of a vectorized kernel: one 128-bit register of 32-bit lanes.
pub const VECTOR_WIDTH: u32 = 4;

/// Work-items per chunk of most kernels: two 128-bit registers per 32-bit value (see
/// [`vector_width`]).
pub const WIDE_WIDTH: u32 = 8;

/// Kernels of at most this many instructions (after inlining) may run [`WIDE_WIDTH`] lanes:
/// above it, twice the registers per value spill.
const WIDE_MAX_INSTS: usize = 2_000;

/// The chunk width of small kernels whose loops run alike in every work-item (see
/// [`vector_width`]).
pub const LATENCY_WIDTH: u32 = 16;

/// Kernels of at most this many instructions (after inlining) may run [`LATENCY_WIDTH`] lanes.
const LATENCY_MAX_INSTS: usize = 200;

/// A loop with a barrier and more instructions than this runs 4 lanes (see [`vector_width`]).
const SYNC_LOOP_MAX_INSTS: usize = 100;

/// The chunk width the vectorizer is asked for, per kernel. Eight lanes halve the per-chunk
/// costs (loop control, mask tests, uniform work, the row's tests) and give each operation
/// two independent halves, so most kernels gain; two kinds lose, and get 4:
/// - kernels of OpenCL vector types: each lane of a `float4` is four values, so 8 lanes of
///   a few of them fill the 16 SIMD registers (float4-poly 4.3 -> 8.5 and 9.3 ms), where at
///   least a tenth of the instructions compute vectors ([`vector_arithmetic`]);
/// - kernels with a barrier inside a loop whose stores are not all made on every trip (tree
///   reductions, wavefronts: `if (lid < s) ...` between barriers), or that holds another loop
///   or is long (tiled matrix products, whose inner loop is unrolled): the guarded regions
///   are short, and run narrowed to the work-items they admit, fewer of which fill a chunk of
///   8 (reduce 7.9 -> 8.6 and 7.5 -> 9.7 ms, nw 11.8 -> 12.4 and 11.7 -> 12.4); the long
///   loop's values take twice the registers (sgemm 6.9 -> 10.2 ms, three runs). A scan (each trip stores for every
///   work-item) gains from 8 like the rest: 14.4 -> 10.3 ms (three runs; 16-core Xeon 2.3 ->
///   1.4 and 1.9 -> 1.5).
///
/// Measured with `ferrocl bench`, every kernel at 4 and at 8 lanes, two runs each, 2-core
/// AMD EPYC: mandelbrot 3.3 -> 2.6 and 3.5 -> 2.3 ms, hash 2.7 -> 1.9 (both runs), transpose
/// 7.2 -> 5.0 and 7.1 -> 4.5, histogram 7.6 -> 6.5 and 7.9 -> 6.2, black-scholes 7.2 -> 6.6
/// and 7.3 -> 6.7; the rest within the runs' spread. Small kernels whose loops are chains of
/// arithmetic get 16 (below). Every kernel at 16 lanes, two runs: hash 1.86-1.90 -> 1.22-1.24
/// ms, float4-poly (4 lanes by policy) 8.5 -> 6.4 at 16 against 4.3-4.5 at 4, the rest the
/// same or slower. A scan (a barrier loop storing for every work-item on every trip) is
/// faster at 16 in groups of 256 (16-core Xeon, four runs: 0.56-0.63 -> 0.48-0.51 ms), but
/// groups of fewer than 16 work-items then fill no chunk and run one work-item at a time (a
/// scan in groups of 8: 3.9-5.2 -> 6.8-8.9 ms), and the local size is the application's,
/// unknown here: scans keep 8.
///
/// `FERROCL_VECTOR_WIDTH=4`, `=8` or `=16` in the environment gives every kernel that width
/// instead (read once per process), to measure the choice on another machine.
pub fn vector_width(f: &ferrocl_ir::Function) -> u32 {
    use ferrocl_ir::analysis::{Cfg, DomTree, LoopInfo};
    if let Some(w) = forced_width() {
        return w;
    }
    let insts = f
        .layout
        .blocks()
        .iter()
        .map(|&b| f.layout.block_insts(b).len())
        .sum::<usize>();
    let vectors = vectorize::scalarize::has_vectors(f);
    if insts > WIDE_MAX_INSTS {
        return VECTOR_WIDTH;
    }
    if let Some(w) = narrow_width(f, vectors, insts) {
        return w;
    }
    if vectors && vector_arithmetic(f, insts) {
        return VECTOR_WIDTH;
    }
    let sync = |b: &ferrocl_ir::Block| {
        f.layout.block_insts(*b).iter().any(|&i| {
            matches!(
                f.dfg.insts[i].op,
                ferrocl_ir::Op::Barrier(..) | ferrocl_ir::Op::Group(..)
            )
        })
    };
    let cfg = Cfg::new(f);
    let dom = DomTree::new(f, &cfg);
    let loops = LoopInfo::new(&cfg, &dom);
    let stores = |b: &ferrocl_ir::Block| {
        f.layout.block_insts(*b).iter().any(|&i| {
            matches!(
                f.dfg.insts[i].op,
                ferrocl_ir::Op::Store(_)
                    | ferrocl_ir::Op::AtomicRmw(..)
                    | ferrocl_ir::Op::Cmpxchg(..)
                    | ferrocl_ir::Op::AtomicStore(_)
            )
        })
    };
    let narrow = |l: &ferrocl_ir::analysis::Loop| {
        // The blocks that jump back to the header: a block dominating them all runs on
        // every trip that goes around.
        let latches: Vec<_> = cfg
            .preds(l.header)
            .iter()
            .map(|&(p, _)| p)
            .filter(|p| l.blocks.contains(p))
            .collect();
        let inner = loops
            .loops
            .iter()
            .any(|m| m.header != l.header && l.blocks.contains(&m.header));
        let size: usize = l
            .blocks
            .iter()
            .map(|b| f.layout.block_insts(*b).len())
            .sum();
        inner
            || size > SYNC_LOOP_MAX_INSTS
            || l.blocks
                .iter()
                .any(|b| stores(b) && !latches.iter().all(|&t| dom.dominates(*b, t)))
    };
    if loops
        .loops
        .iter()
        .any(|l| l.blocks.iter().any(sync) && narrow(l))
    {
        return VECTOR_WIDTH;
    }
    // A small kernel whose loops every work-item runs the same number of times and that
    // make no memory accesses: each trip is a chain of dependent operations, and 16 lanes
    // give four independent chains to hide their latency (hash: 1.86-1.90 -> 1.22-1.24 ms;
    // mandelbrot, whose loop is divergent, and the kernels without loops gain nothing; a
    // loop over matrix rows, one row per work-item, took 2.7-3.3 -> 7.7-8.9 ms: 16 rows
    // streamed at once). Only where the kernel cannot tell its groups apart, so that a launch
    // runs it in groups long enough for chunks of 16 (`CompiledKernel::merged`).
    if insts <= LATENCY_MAX_INSTS
        && !loops.loops.is_empty()
        && !f.layout.blocks().iter().any(sync)
        && !workgroup::sees_groups_with(f, &|_| None)
        && arithmetic_loops(f, &loops)
    {
        return LATENCY_WIDTH;
    }
    if loops.loops.is_empty()
        && wide::halved_host()
        && float_arithmetic(f) >= CHAIN_FLOAT_OPS
        && !f.layout.blocks().iter().any(sync)
        && !workgroup::sees_groups_with(f, &|_| None)
    {
        return LATENCY_WIDTH;
    }
    WIDE_WIDTH
}

/// Float sums, differences, products, quotients and fused multiply-adds from which a kernel
/// without loops runs [`LATENCY_WIDTH`] lanes on a host that halves 256-bit operations
/// (`wide::halved_host`), where such a kernel is Cranelift's (`wide`'s `Measure::halved`):
/// each value is then four `xmm` registers, four independent chains through the kernel's
/// long dependent computations (a logarithm, a quotient, an exponential, a polynomial), where
/// 8 lanes give two. On 2 cores of a Zen 1 EPYC (`ferrocl bench`, the widths forced, two
/// runs each): black-scholes (139 such operations, the longest chain 17 of them) 2.96-2.99
/// to 2.56-2.58 ms, pow-f32 (113, 32) 53.6 to 43.2-43.6; atan2-f32 alike; the kernels of
/// one function each, exp (24), log (32) and sincos (31), 2-8% slower, as the earlier
/// measurements found for kernels without loops.
const CHAIN_FLOAT_OPS: usize = 64;

/// How many float arithmetic operations `f` has (see [`CHAIN_FLOAT_OPS`]).
fn float_arithmetic(f: &ferrocl_ir::Function) -> usize {
    f.layout
        .blocks()
        .iter()
        .flat_map(|&b| f.layout.block_insts(b))
        .filter(|&&i| workgroup::float_arithmetic(f, i))
        .count()
}

/// Whether at least a tenth of `f`'s `insts` instructions compute OpenCL vectors (building
/// them from lanes, reading lanes back and constants aside): only then do a kernel's vector
/// values, each taking a register per component at every width, fill the registers that
/// 8 lanes need. Measured with `ferrocl bench`, every kernel at 4 and at 8 lanes, 2-core AMD
/// EPYC: float4-poly (25% vector arithmetic) 7.67 / 7.68 ms, fft-256 (19%) 8.2 / 10.9, nbody
/// (16%) 15.1 / 15.2; resize-image, whose only vectors are the texels `read_imagef` gathers
/// and the `float2` of its coordinates (7%), 49 / 38 ms.
fn vector_arithmetic(f: &ferrocl_ir::Function, insts: usize) -> bool {
    let vector_ops = computed_vectors(f).count();
    vector_ops * 10 >= insts
}

/// Kernels that compute OpenCL vectors of this many bits or more (`float16`, `double8`,
/// `int16`) run one work-item at a time: such a value is four 128-bit registers already, so
/// that 4 lanes of two of them fill all 16 and the code spills on every operation. clpeak's
/// `float16` chains of `mad` (2-core AMD EPYC): 17.2 GFLOPS at 4 lanes, 29.6 one work-item at
/// a time (PoCL 3.1: 26.6); its `float8`, 8 registers a value at 4 lanes, gains: 42.5 against
/// 15.5.
const WIDEST_VECTOR_BITS: u32 = 512;

/// Whether the AVX-512 tier holds `f`'s widest vectors whole: every vector it computes has
/// lanes of 32 bits or fewer (integers or `float`), so an `int16` or a `float16` is one `zmm`
/// rather than four `xmm`. The tier is then offered such a kernel vectorized at its width
/// ([`WIDEST_VECTOR_BITS`] keeps it from Cranelift's widths, and a kernel the tier refuses
/// runs one work-item at a time). clpeak's chains of multiply-adds (2 cores of a Xeon with
/// AVX-512): `int16` 24.3 GIOPS one work-item at a time, 135 in the tier (PoCL 3.1: 33.5);
/// `float16` 17.3 ms one work-item at a time, 2.8 in the tier (PoCL 3.1: 10.1), once the tier
/// converts the chunk's local ids to floats (`Plan::counted`). `double8` and `double16` stay
/// one work-item at a time: vectorized they lost (30.7 to 14.1, 44.2 to 12.2 GFLOPS: the tier
/// leaves `f64` to Cranelift).
fn tier_holds_wide_vectors(f: &ferrocl_ir::Function) -> bool {
    use ferrocl_ir::Type;
    avx512_tier()
        && computed_vectors(f).all(|t| {
            let lane = t.lane_type();
            (lane.is_int() || lane == Type::F32) && lane.bits() <= 32
        })
}

/// Whether the AVX-512 tier is offered `f`'s work-group function where `f` runs one work-item
/// at a time for its 512-bit vectors ([`WIDEST_VECTOR_BITS`]): a `float16` is then one `zmm`
/// where Cranelift's code takes four `xmm`. OpenCV's `divide` and `addWeighted` over
/// `uchar16`, computing in `float16` (2 cores of a Xeon with AVX-512, through OpenCV's T-API):
/// 0.82-0.87 to 0.58-0.60 ms and 0.78-0.83 to 0.51-0.57 (PoCL 3.1: 0.73 and 0.66-0.75).
/// Only a kernel of at most [`WIDE_SCALAR_MAX_OPS`] such operations (each counted
/// [`WIDE_SCALAR_TRIPS`] times for each loop around it): the processor then overlaps
/// consecutive work-items. A long chain of them is one chain of `zmm` operations, each waiting
/// on the last, where Cranelift's four `xmm` chains run side by side: clpeak's `float16`
/// multiply-adds (256 a work-item), 2 cores, 18.1 ms in Cranelift's code, 23.5 in the tier's.
pub(crate) fn tier_takes_wide_scalar(f: &ferrocl_ir::Function) -> bool {
    if !avx512_tier() || widest_vector_bits(f) < WIDEST_VECTOR_BITS {
        return false;
    }
    let depth = codegen::loops::depths(f);
    let mut ops = 0u64;
    for &b in f.layout.blocks() {
        let wide = f
            .layout
            .block_insts(b)
            .iter()
            .filter_map(|&i| f.dfg.inst_result(i))
            .filter(|&v| f.dfg.value_type(v).bits() >= WIDEST_VECTOR_BITS)
            .count() as u64;
        ops = ops.saturating_add(wide.saturating_mul(WIDE_SCALAR_TRIPS.saturating_pow(depth[b])));
    }
    ops <= WIDE_SCALAR_MAX_OPS
}

/// Whether the wide tier is on and emits AVX-512, where a 512-bit vector is one register.
fn avx512_tier() -> bool {
    wide::enabled() && wide::host_isa() == Some(wide::Isa::Avx512)
}

/// See [`tier_takes_wide_scalar`].
const WIDE_SCALAR_MAX_OPS: u64 = 64;
const WIDE_SCALAR_TRIPS: u64 = 8;

/// The bits of the widest OpenCL vector that `f` computes (see [`vector_arithmetic`] for
/// what counts), 0 where it computes none.
fn widest_vector_bits(f: &ferrocl_ir::Function) -> u32 {
    computed_vectors(f).map(|t| t.bits()).max().unwrap_or(0)
}

/// The types of the OpenCL vectors that `f`'s instructions compute: building them from lanes,
/// reading lanes back and constants aside.
fn computed_vectors(f: &ferrocl_ir::Function) -> impl Iterator<Item = ferrocl_ir::Type> + '_ {
    use ferrocl_ir::Op;
    f.layout
        .blocks()
        .iter()
        .flat_map(|&b| f.layout.block_insts(b))
        .filter(|&&i| {
            !matches!(
                f.dfg.insts[i].op,
                Op::InsertLane(_)
                    | Op::ExtractLane(_)
                    | Op::Splat
                    | Op::Shuffle(_)
                    | Op::Iconst(_)
                    | Op::Fconst(_)
                    | Op::Vconst(_)
            )
        })
        .filter_map(|&i| f.dfg.inst_result(i).map(|v| f.dfg.value_type(v)))
        .filter(|t| t.is_vector())
}

/// Whether `f` has loops and every one runs the same number of trips in every work-item and
/// makes no memory access: each trip is then a chain of dependent operations, whose latency
/// independent chains (more lanes) hide.
fn arithmetic_loops(f: &ferrocl_ir::Function, loops: &ferrocl_ir::analysis::LoopInfo) -> bool {
    let uni = ferrocl_ir::uniformity::Uniformity::new(f);
    let memory = |b: &ferrocl_ir::Block| {
        f.layout.block_insts(*b).iter().any(|&i| {
            matches!(
                f.dfg.insts[i].op,
                ferrocl_ir::Op::Load(_)
                    | ferrocl_ir::Op::AtomicLoad(_)
                    | ferrocl_ir::Op::Store(_)
                    | ferrocl_ir::Op::AtomicRmw(..)
                    | ferrocl_ir::Op::Cmpxchg(..)
                    | ferrocl_ir::Op::AtomicStore(_)
            )
        })
    };
    !loops.loops.is_empty()
        && loops.loops.iter().all(|l| {
            l.blocks
                .iter()
                .all(|&b| uni.is_uniform_branch(b) && !memory(&b))
        })
}

/// The width for a kernel whose data are narrower than 32 bits (`uchar`, `short`, `uchar4`):
/// as many lanes as keep the registers per value of the 32-bit widths (two 128-bit registers
/// per scalar value at [`WIDE_WIDTH`], one per component of a vector at [`VECTOR_WIDTH`]), at
/// most 16. `None` where the data are 32 bits or wider, or where the kernel can tell its groups
/// apart: only a kernel that cannot runs in groups merged to full chunks whatever local size
/// the application chose (`CompiledKernel::merged`), so that 16 lanes never leave a group of
/// 8 work-items to run one at a time.
///
/// Measured with `ferrocl bench` (2-core AMD EPYC, beside PoCL in one run): a byte-wise
/// absolute difference at 8 lanes (8-byte loads) 2.08 ms, at 16 lanes (one `i8x16` register a
/// value) 1.29 ms; a threshold over `uchar4`, vectorized at 4 lanes (four `i8x4`, each in a
/// register of its own) 7.14 ms, scalar 1.19, at 16 lanes 1.44 before the mask fold of
/// `select` (`ir/src/passes/fold.rs`).
///
/// A kernel that reads and writes only bytes but computes in 32-bit lanes (a filter over a
/// byte image summing in `int`, at most [`BYTE_MEMORY_MAX_INSTS`] instructions) gets 16 lanes
/// too: each of its loads and stores is then one whole register of bytes (a pyramid step
/// reading every other byte, two 16-byte loads and a shuffle for 16 lanes where 8 lanes take
/// two 8-byte loads and a shuffle), and the chunk's tests are paid once for 16 work-items.
/// Pyramid step, `ferrocl bench --scalar` beside PoCL in one run, 2 cores: at 8 lanes 1.31-1.40
/// of its scalar speed, at 16 lanes 1.42-1.55.
fn narrow_width(f: &ferrocl_ir::Function, vectors: bool, insts: usize) -> Option<u32> {
    if workgroup::sees_groups_with(f, &|_| None) {
        return None;
    }
    let bits = data_bits(f);
    if bits >= 32 {
        let bytes = !vectors && bits == 32 && insts <= BYTE_MEMORY_MAX_INSTS;
        return (bytes && memory_bits(f) == 8).then_some(LATENCY_WIDTH);
    }
    let registers = if vectors { 1 } else { 2 };
    Some((registers * 128 / bits.max(8)).min(LATENCY_WIDTH))
}

/// Kernels of at most this many instructions that read and write only bytes may run
/// [`LATENCY_WIDTH`] lanes whatever the width of their arithmetic (see [`narrow_width`]).
const BYTE_MEMORY_MAX_INSTS: usize = 400;

/// The widest element, in bits, that the kernel loads or stores (0 where it accesses no
/// memory); a pointer counts as 64 bits.
fn memory_bits(f: &ferrocl_ir::Function) -> u32 {
    use ferrocl_ir::Op;
    let mut bits = 0;
    for &b in f.layout.blocks() {
        for &i in f.layout.block_insts(b) {
            let data = &f.dfg.insts[i];
            let v = match data.op {
                Op::Load(_) | Op::AtomicLoad(_) | Op::AtomicRmw(..) | Op::Cmpxchg(..) => {
                    f.dfg.inst_result(i)
                }
                Op::Store(_) | Op::AtomicStore(_) => data.args.first().copied(),
                _ => None,
            };
            if let Some(v) = v {
                let t = f.dfg.value_type(v);
                bits = bits.max(if t.is_ptr() { 64 } else { t.lane_type().bits() });
            }
        }
    }
    bits
}

/// The widest lane, in bits, of the kernel's data: every value but the index computations
/// (constants, the kernel's arguments, work-item queries, 64-bit counters, pointers, and
/// integer operations on those), which stay scalars or affine in the W-wide code, and masks.
/// Loads, calls and other block parameters are data.
fn data_bits(f: &ferrocl_ir::Function) -> u32 {
    use ferrocl_ir::{Op, Type};
    let entry = f.layout.entry_block();
    let mut bits = 0;
    // Records the width of `v` unless it is an index computation; returns whether it is.
    let mut note = |v: ferrocl_ir::Value, index_like: bool| {
        let t = f.dfg.value_type(v);
        if !index_like && !t.is_ptr() && t.lane_type() != Type::I1 {
            bits = bits.max(t.lane_type().bits());
        }
        index_like
    };
    let mut seen = ferrocl_ir::entity::EntitySet::new();
    for &b in f.layout.blocks() {
        for &p in f.dfg.block_params(b) {
            let t = f.dfg.value_type(p);
            if note(p, Some(b) == entry || t == Type::I64 || t.is_ptr()) {
                seen.insert(p);
            }
        }
        for &i in f.layout.block_insts(b) {
            let data = &f.dfg.insts[i];
            if matches!(
                data.op,
                Op::Store(_) | Op::AtomicStore(_) | Op::AtomicRmw(..) | Op::Cmpxchg(..)
            ) {
                // What is stored is data, even where it is computed from the ids.
                for &a in &data.args {
                    note(a, false);
                }
            }
            let Some(v) = f.dfg.inst_result(i) else {
                continue;
            };
            let index_like = match data.op {
                Op::WorkItem(..) | Op::Iconst(_) => true,
                Op::Binary(_)
                | Op::Unary(_)
                | Op::Convert(_)
                | Op::Icmp(_)
                | Op::Select
                | Op::PtrAdd => {
                    !f.dfg.value_type(v).lane_type().is_float()
                        && data.args.iter().all(|&a| seen.contains(f.dfg.resolve(a)))
                }
                _ => false,
            };
            if note(v, index_like) {
                seen.insert(v);
            }
        }
    }
    bits
}

/// The chunk width `FERROCL_VECTOR_WIDTH` gives every kernel, if it gives one (read once per
/// process).
fn forced_width() -> Option<u32> {
    static FORCED: std::sync::OnceLock<Option<u32>> = std::sync::OnceLock::new();
    *FORCED.get_or_init(|| {
        let w = std::env::var("FERROCL_VECTOR_WIDTH").ok()?.parse().ok()?;
        vectorize::WIDTHS.contains(&w).then_some(w)
    })
}

/// `FERROCL_VECTORIZE=always`: every kernel the vectorizer handles runs vectorized, the cost
/// model's refusals included, to measure its choices (read once per process).
fn vectorize_always() -> bool {
    static ALWAYS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ALWAYS.get_or_init(|| std::env::var_os("FERROCL_VECTORIZE").is_some_and(|v| v == "always"))
}

/// Why a module could not be compiled for the CPU device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileError(pub String);

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CompileError {}

type GroupFn = unsafe extern "C" fn(args: *const u8, group: *const GroupCtx, frames: *mut u8);

/// A launch that ended early because the kernel faulted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelFault {
    /// The signal generated code raised (`SIGSEGV`, `SIGBUS`, ...).
    pub signal: i32,
    /// The faulting address the signal reported, when it reports one.
    pub address: u64,
}

impl fmt::Display for KernelFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the kernel faulted (signal {}, address {:#x})",
            self.signal, self.address
        )
    }
}

impl std::error::Error for KernelFault {}

/// A kernel ready to run. It keeps its program's code alive.
pub struct CompiledKernel {
    pub name: String,
    pub info: Option<KernelInfo>,
    /// Where each argument goes in the argument block.
    pub args: Vec<ArgSlot>,
    /// Size of the argument block in bytes.
    pub args_size: usize,
    /// Bytes of the kernel's own `__local` variables, at the start of local memory.
    pub static_local_size: usize,
    /// Bytes of per-work-item frame memory: private variables kept in memory and values live
    /// across barriers.
    pub frame_size: usize,
    /// Bytes of the frames of the functions the kernel calls out of line, one copy per
    /// work-group, just before the work-items' frames (`codegen/calls.rs`).
    pub call_area: usize,
    /// See [`DeviceKernel::preferred_group_size`] and [`preferred_group_size`].
    pub preferred_group_size: usize,
    /// The kernel cannot tell its work-groups apart (`workgroup::sees_groups`): a launch may
    /// run several consecutive groups along x as one ([`CompiledKernel::merged`]).
    pub group_blind: bool,
    /// The kernel writes a matrix transposed and the host has few cores
    /// (`transposed::tiles_for`): its groups run in tiles ([`tiled_group`]) in any range of
    /// several rows of them.
    pub tiled_groups: bool,
    /// Bytes each work-item writes at least through stores the wide tier's code streams
    /// past the caches where a launch writes more than they hold (`wide::WideCode::
    /// stream_bytes`); 0 for code without them.
    pub stream_bytes: u32,
    entry: GroupFn,
    /// The program calls `printf`: launches collect its output and write it when they end.
    uses_printf: bool,
    /// The code `entry` points into.
    _code: Arc<Code>,
}

/// Bytes on each side of a masked region that generated code may reach: an address confined
/// by clamping (`codegen::CLAMP_WINDOW` past either end) plus a constant offset of at most as
/// much, plus the widest single access generated code makes from there (vectors are split
/// into lanes of at most 8 bytes; the library functions write at most 8 bytes through a
/// pointer), with room to spare.
const REGION_PADDING: usize = 2 * codegen::CLAMP_WINDOW as usize + 128;

/// Memory for a masked region: a power-of-two size, aligned to that size, so that generated
/// code confines an address with an `and` and an `or` (`base | (p & mask)`), with padding
/// before and after. Zeroed when allocated.
struct Region {
    ptr: std::ptr::NonNull<u8>,
    layout: std::alloc::Layout,
    /// Where the region starts in the allocation (after the padding before it).
    lead: usize,
}

impl Region {
    /// A region of at least `size` bytes (a power of two), kept if it is large enough.
    fn reserve(region: &mut Option<Region>, size: usize) -> *mut u8 {
        debug_assert!(size.is_power_of_two());
        if region.as_ref().is_none_or(|r| r.layout.align() < size) {
            *region = None;
            let align = size.max(128);
            let lead = REGION_PADDING.next_multiple_of(align);
            let layout = std::alloc::Layout::from_size_align(lead + align + REGION_PADDING, align)
                .expect("a region's size fits the address space");
            // SAFETY: the layout has a non-zero size.
            let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
            let ptr = std::ptr::NonNull::new(ptr)
                .unwrap_or_else(|| std::alloc::handle_alloc_error(layout));
            *region = Some(Region { ptr, layout, lead });
        }
        region.as_ref().map_or(std::ptr::null_mut(), |r| {
            // SAFETY: `lead` bytes into the allocation, which is longer.
            unsafe { r.ptr.as_ptr().add(r.lead) }
        })
    }
}

impl Drop for Region {
    fn drop(&mut self) {
        // SAFETY: allocated in `reserve` with this layout.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr(), self.layout) };
    }
}

thread_local! {
    /// Each thread's local and private regions, reused across work-groups and launches.
    static SCRATCH: std::cell::RefCell<(Option<Region>, Option<Region>)> =
        const { std::cell::RefCell::new((None, None)) };
}

impl CompiledKernel {
    /// Runs the kernel over `nd`. `args` is the filled argument block; `local_mem_size` the
    /// bytes of local memory each work-group needs (static variables plus `__local`
    /// arguments, whose offsets the caller wrote into `args`). The kernel takes no by-value
    /// struct arguments ([`CompiledKernel::launch_with_private`] passes those).
    ///
    /// # Safety
    /// As for [`CompiledKernel::launch_with_private`].
    pub unsafe fn launch(
        &self,
        args: &[u8],
        local_mem_size: usize,
        nd: &NdRange,
    ) -> Result<(), KernelFault> {
        // SAFETY: this function's contract.
        unsafe { self.launch_with_private(args, local_mem_size, &[], nd) }
    }

    /// The launch to run for `nd`: for a kernel that cannot tell its work-groups apart and
    /// has no by-value struct arguments (`plain`; each group has its own copy of those), `k`
    /// consecutive groups along x run as one, `k` at most what keeps the group within the
    /// kernel's preferred size while every thread still gets 8 groups. The kernel sees the
    /// same global ids and sizes; only the group call and its setup, 20-40 ns, are saved
    /// `k - 1` times (a copy kernel in groups of 64 work-items spends a third of its time
    /// there).
    ///
    /// `k` ([`ferrocl_device::part_size`]) is the largest divisor of the groups along x where
    /// one is at least half that bound, so that every merged group is whole; otherwise the
    /// groups are shared out evenly and the last merged group along x is partial, which the
    /// kernel cannot tell either (a global size of 2 x 8191 leaves the application's groups,
    /// or the device's default ones, 2 work-items each: 16 times slower than groups of 4,096
    /// on one core).
    fn merged(&self, nd: &NdRange, plain: bool) -> NdRange {
        let items: u64 = nd.local_size.iter().product();
        if !self.group_blind || !plain || items == 0 {
            return *nd;
        }
        let groups: [u64; 3] =
            std::array::from_fn(|d| nd.global_size[d].div_ceil(nd.local_size[d]));
        let spare = (groups[0] * groups[1] * groups[2]) / (8 * pool::threads() as u64);
        let cap = (self.preferred_group_size as u64 / items).min(spare).max(1);
        let k = ferrocl_device::part_size(groups[0], cap, true);
        let mut merged = *nd;
        merged.local_size[0] *= k;
        merged
    }

    /// Runs the kernel over `nd`, as [`CompiledKernel::launch`]; `private_args` holds the
    /// bytes of the by-value struct arguments, at the offsets the caller wrote into their
    /// slots of `args` ([`ferrocl_ir::ArgKind::Aggregate`]). Each work-group gets its own copy of them.
    ///
    /// Returns an error when the kernel faulted (a wild `__global` pointer, say): the
    /// work-groups not yet started are skipped, the memory the kernel wrote holds what it
    /// wrote, and the process and later launches are unharmed.
    ///
    /// # Safety
    /// Every pointer in `args` must be valid for what the kernel does with it, for the whole
    /// launch; `nd` must have non-zero sizes.
    pub unsafe fn launch_with_private(
        &self,
        args: &[u8],
        local_mem_size: usize,
        private_args: &[u8],
        nd: &NdRange,
    ) -> Result<(), KernelFault> {
        let nd = &self.merged(nd, private_args.is_empty());
        let num_groups: [u64; 3] =
            std::array::from_fn(|d| nd.global_size[d].div_ceil(nd.local_size[d]));
        let total = (num_groups[0] * num_groups[1] * num_groups[2]) as usize;
        let wg_items = (nd.local_size[0] * nd.local_size[1] * nd.local_size[2]) as usize;
        let items = nd.global_size.iter().product::<u64>();
        let streaming = u64::from(streams(items.saturating_mul(u64::from(self.stream_bytes))));
        // Powers of two, so that generated code can mask `__local` and `__private` addresses
        // into them. The private region holds the by-value arguments, the call area, then
        // the frames.
        let local_region = local_mem_size.max(1).next_power_of_two();
        // The frames follow the by-value arguments on the alignment they need (`limits`).
        let align = ferrocl_device::ALLOCATION_ALIGN;
        let frames_at = private_args.len().div_ceil(align) * align + self.call_area;
        let private_region = (frames_at + self.frame_size * wg_items)
            .max(1)
            .next_power_of_two();
        // The first fault of the launch; once one is seen, no work-group starts.
        let fault: std::sync::Mutex<Option<KernelFault>> = std::sync::Mutex::new(None);
        let failed = std::sync::atomic::AtomicBool::new(false);
        // printf output is collected for the whole launch and written when it completes.
        let sink: Option<printf::Sink> = self.uses_printf.then(Default::default);
        // A batch of consecutive work-groups on one thread: the thread's regions and the
        // printf sink are set up once for the batch, not once per work-group.
        let window = codegen::CLAMP_WINDOW as u64;
        let run_batch = |batch: std::ops::Range<usize>| {
            if let Some(sink) = &sink {
                printf::set_sink(Some(sink.clone()));
            }
            SCRATCH.with(|cell| {
                let mut scratch = cell.borrow_mut();
                let (local, private) = &mut *scratch;
                let local_mem = Region::reserve(local, local_region);
                let private_mem = Region::reserve(private, private_region);
                let guard = guard::enter();
                // Group indices run along dimension 0 first; the first group's id is divided
                // out, the next ones counted on. A range of 2 to 16 rows of groups runs them
                // in tiles (`tiled_group`), and so does any of several rows of a kernel that
                // writes a matrix transposed, on a host of few cores (`tiled_groups`).
                let first = batch.start as u64;
                let mut gid = [
                    first % num_groups[0],
                    (first / num_groups[0]) % num_groups[1],
                    first / (num_groups[0] * num_groups[1]),
                ];
                let tiled = (2..=TILE).contains(&num_groups[1])
                    || (self.tiled_groups && num_groups[1] >= 2);
                if tiled {
                    gid = tiled_group(first, num_groups);
                }
                for _ in batch {
                    if failed.load(std::sync::atomic::Ordering::Relaxed) {
                        break;
                    }
                    let mut local_size = nd.local_size;
                    for d in 0..3 {
                        // 3.0: the last work-group of a dimension holds the remainder.
                        local_size[d] =
                            nd.local_size[d].min(nd.global_size[d] - gid[d] * nd.local_size[d]);
                    }
                    if cfg!(debug_assertions) {
                        // Debug builds fill the group's context memory with a byte no
                        // transform writes on purpose, so that a read of an element nobody
                        // wrote gives garbage in the tests, not the stale value (often the
                        // right one, or zero) an earlier group or launch left there.
                        // SAFETY: the region holds private_region bytes.
                        unsafe {
                            std::ptr::write_bytes(private_mem, CONTEXT_POISON, private_region)
                        };
                    }
                    if !private_args.is_empty() {
                        // SAFETY: the region holds frames_at bytes and more, private_args
                        // fewer.
                        unsafe {
                            std::ptr::copy_nonoverlapping(
                                private_args.as_ptr(),
                                private_mem,
                                private_args.len(),
                            )
                        };
                    }
                    let group = GroupCtx {
                        work_dim: u64::from(nd.work_dim),
                        global_offset: nd.global_offset,
                        global_size: nd.global_size,
                        local_size,
                        enqueued_local_size: nd.local_size,
                        num_groups,
                        group_id: gid,
                        local_mem: local_mem as u64,
                        local_mask: local_region as u64 - 1,
                        private_mem: private_mem as u64,
                        private_mask: private_region as u64 - 1,
                        local_window: (local_mem as u64).wrapping_sub(window),
                        local_window_span: local_region as u64 - 1 + 2 * window,
                        private_window: (private_mem as u64).wrapping_sub(window),
                        private_window_span: private_region as u64 - 1 + 2 * window,
                        streaming,
                    };
                    // SAFETY: generated code for this kernel's ABI; the argument block was
                    // filled by the caller (this function's contract), and the local and
                    // private regions are this thread's, sized for the group.
                    let result = unsafe {
                        guard.call(
                            self.entry,
                            args.as_ptr(),
                            &group,
                            private_mem.add(frames_at),
                        )
                    };
                    if let Err(f) = result {
                        failed.store(true, std::sync::atomic::Ordering::Relaxed);
                        fault
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .get_or_insert(f);
                    }
                    if tiled {
                        gid = next_tiled(gid, num_groups);
                        continue;
                    }
                    gid[0] += 1;
                    if gid[0] == num_groups[0] {
                        gid[0] = 0;
                        gid[1] += 1;
                        if gid[1] == num_groups[1] {
                            gid[1] = 0;
                            gid[2] += 1;
                        }
                    }
                }
            });
            if sink.is_some() {
                printf::set_sink(None);
            }
        };
        pool::run(total, &run_batch);
        if let Some(sink) = sink {
            // 6.15.14: the output of printf calls is flushed when the command completes.
            use std::io::Write;
            let text = std::mem::take(&mut *sink.lock().unwrap_or_else(|e| e.into_inner()));
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(&text);
            let _ = out.flush();
        }
        match fault.into_inner().unwrap_or_else(|e| e.into_inner()) {
            Some(f) => Err(f),
            None => Ok(()),
        }
    }
}

/// A module compiled for the CPU device: its kernels, which share its code.
pub struct CpuProgram {
    kernels: Vec<Arc<CompiledKernel>>,
    listing: Option<Listing>,
    /// How long each stage of its compile took.
    times: compile::StageTimes,
    /// Its code as bytes can keep it ([`CpuProgram::serialize`]), where it can be kept.
    compiled: Option<serial::Compiled>,
}

/// The machine code and program-scope data of a program (the JIT module's functions and
/// data objects), freed when its last kernel goes.
struct Code {
    jit: Option<JITModule>,
}

// SAFETY: after `finalize_definitions` the JIT module's code and data are immutable; the
// module is only touched again to free it, in `Drop`, which has exclusive access.
unsafe impl Send for Code {}
// SAFETY: as above; shared access only calls the finalized code.
unsafe impl Sync for Code {}

/// What debug builds fill a work-group's private memory with before it runs.
const CONTEXT_POISON: u8 = 0x3f;

/// Gives the W-wide version of a kernel, if there is one to run.
pub type WideFn<'a> = dyn Fn(&ferrocl_ir::Function) -> Option<workgroup::WideKernel> + 'a;

/// The W-wide version [`CpuProgram::compile`] runs: the vectorizer's, at [`VECTOR_WIDTH`],
/// unless `FERROCL_VECTORIZE=0` turns it off. A kernel written with OpenCL vector types (or
/// using a library function that is) is split into lanes and vectorized like the others.
pub fn default_wide(f: &ferrocl_ir::Function) -> Option<workgroup::WideKernel> {
    if !vectorize::enabled() {
        return None;
    }
    vectorized_wide(f)
}

/// The vectorizer's W-wide version of `f` at [`vector_width`], whatever `FERROCL_VECTORIZE`
/// says: for callers that choose per compile (the differential tester runs each kernel both
/// ways in one process). Pass `&|_| None` to [`CpuProgram::compile_with`] for scalar code.
///
/// The cost model's verdict is not asked: the W-wide code of every kernel the vectorizer
/// handles is made and run, slower or not, so that the tester checks it.
pub fn vectorized_wide(f: &ferrocl_ir::Function) -> Option<workgroup::WideKernel> {
    vectorized_wide_or_refusal(f, false, None).ok()
}

/// The vectorizer's W-wide version of `f` at [`vector_width`], or why it has none; with
/// `costed`, none where the cost model expects it to be slower than the kernel
/// ([`vectorize::Vectorized::slower`]).
fn vectorized_wide_or_refusal(
    f: &ferrocl_ir::Function,
    costed: bool,
    width: Option<u32>,
) -> Result<workgroup::WideKernel, vectorize::Refusal> {
    // A width is given for the wide-vector tier alone (`compile.rs`).
    let for_tier = width.is_some();
    let width = width.unwrap_or_else(|| vector_width(f));
    if costed && !vectorize_always() {
        let bits = widest_vector_bits(f);
        if bits >= WIDEST_VECTOR_BITS && !(for_tier && tier_holds_wide_vectors(f)) {
            return Err(vectorize::Refusal::new(format!(
                "{bits}-bit vectors, each {} registers a work-item",
                bits / 128
            )));
        }
    }
    let v = vectorize::vectorize(f, width)?;
    if let (true, false, Some(slower)) = (costed, vectorize_always(), v.slower) {
        return Err(slower);
    }
    Ok(workgroup::WideKernel {
        estimate: v.estimate,
        runs: v.runs,
        func: v.func,
        width,
        barriers: v.barriers,
        assumes_id_limit: v.assumes_id_limit,
        uniform: v.uniform,
        for_cranelift: false,
    })
}

impl CpuProgram {
    /// Compiles every kernel of `module` (with the functions it calls), with vectorization
    /// across work-items ([`vectorize`]) unless `FERROCL_VECTORIZE=0` turns it off: each
    /// kernel the vectorizer takes runs full chunks of [`VECTOR_WIDTH`] work-items at once.
    pub fn compile(module: &Module) -> Result<CpuProgram, CompileError> {
        compile::compile(module, None, &CompileOptions::default(), wide::enabled())
    }

    /// Compiles every kernel of `module`, running full chunks of work-items along x through
    /// the W-wide version `wide` gives of a kernel, if it gives one.
    pub fn compile_with(module: &Module, wide: &WideFn<'_>) -> Result<CpuProgram, CompileError> {
        compile::compile(
            module,
            Some(wide),
            &CompileOptions::default(),
            wide::enabled(),
        )
    }

    /// Compiles every kernel of `module` as the build options ask: with `opt_disable`, no
    /// vectorization and no optimization by the code generator; with `record`, each stage's
    /// text kept in the program's listing ([`CpuProgram::listing`]).
    pub fn compile_with_options(
        module: &Module,
        options: &CompileOptions,
    ) -> Result<CpuProgram, CompileError> {
        compile::compile(module, None, options, wide::enabled())
    }

    /// Compiles every kernel of `module` as [`CpuProgram::compile_with`] does (or, without
    /// `wide`, as [`CpuProgram::compile_with_options`]), with the wide-vector tier ([`wide`]) on or off
    /// whatever `FERROCL_WIDE` says: for tests that compare the tier's code with Cranelift's.
    /// The tier runs only where the host has its instruction sets ([`wide::host_supports`]).
    pub fn compile_with_tier(
        module: &Module,
        wide: Option<&WideFn<'_>>,
        options: &CompileOptions,
        tier: bool,
    ) -> Result<CpuProgram, CompileError> {
        let tier = tier && wide::host_supports();
        compile::compile(module, wide, options, tier)
    }

    /// The program compiled before whose [`CpuProgram::serialize`] gave `bytes`, for
    /// `module` and `options`: its code linked into this process without compiling again.
    /// An error where the bytes are not such a program.
    pub fn load(
        module: &Module,
        options: &CompileOptions,
        bytes: &[u8],
    ) -> Result<CpuProgram, CompileError> {
        compile::load(module, options, bytes)
    }

    /// The program's code as bytes that [`CpuProgram::load`] links again, in this process or
    /// another on the same machine, with the same build of ferrocl and the same
    /// [`code_key`]; `None` where a function holds a relocation that is not kept.
    pub fn serialize(&self) -> Option<Vec<u8>> {
        self.compiled.as_ref().map(serial::Compiled::encode)
    }

    /// What each stage of the compile produced, if the options asked for it to be recorded
    /// (stages [`compile::STAGES`]).
    pub fn listing(&self) -> Option<&Listing> {
        self.listing.as_ref()
    }

    /// How long each stage of the compile took ([`compile::StageTimes`]).
    pub fn stage_times(&self) -> &compile::StageTimes {
        &self.times
    }

    pub fn kernels(&self) -> &[Arc<CompiledKernel>] {
        &self.kernels
    }

    pub fn kernel(&self, name: &str) -> Option<&CompiledKernel> {
        self.kernels.iter().find(|k| k.name == name).map(|k| &**k)
    }
}

/// Whether a launch that writes `bytes` through stores that may bypass the caches has them
/// do so: where the bytes are more than the host's last-level cache holds, which they would
/// only pass through. `FERROCL_STREAMING=0` keeps every store in the caches, `=always`
/// streams wherever the code can (both for tests and measurements; read once per process),
/// and so does [`stream_all`].
fn streams(bytes: u64) -> bool {
    static FORCED: std::sync::OnceLock<Option<bool>> = std::sync::OnceLock::new();
    let forced = *FORCED.get_or_init(|| match std::env::var("FERROCL_STREAMING").as_deref() {
        Ok("0") => Some(false),
        Ok("always") => Some(true),
        _ => None,
    });
    let all = STREAM_ALL.load(std::sync::atomic::Ordering::Relaxed);
    bytes > 0 && forced.unwrap_or_else(|| all || bytes > ferrocl_device::largest_data_cache().0)
}

static STREAM_ALL: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Has every later launch of this process stream where its code can, whatever it writes (as
/// `FERROCL_STREAMING=always`): for tests of the streamed stores.
pub fn stream_all(on: bool) {
    STREAM_ALL.store(on, std::sync::atomic::Ordering::Relaxed);
}

/// The CPU device: its memory is the host's, its code comes from Cranelift.
pub struct CpuDevice;

/// Whether the host's fused multiply-add is one instruction in the generated code
/// (Cranelift's `fma` is `vfmadd` on x86-64 with AVX and FMA; a library call without).
pub fn host_has_fast_fma() -> bool {
    static FAST: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FAST.get_or_init(|| {
        cranelift_native::builder()
            .ok()
            .and_then(|b| b.finish(settings::Flags::new(settings::builder())).ok())
            .is_some_and(|isa| isa.has_native_fma())
    })
}

/// What the CPU device's code depends on besides the module, the compile options and the
/// build: the host's architecture and the instruction set features Cranelift detected and
/// chose instructions by (`cranelift_native`: SSE4.1, AVX, FMA, BMI...), the settings read
/// from the environment that change the code (`FERROCL_VECTORIZE`, `FERROCL_VECTOR_WIDTH`),
/// and the host's conditions for the wide tier (`wide::few_cores` among them).
pub fn code_key() -> Option<Vec<u8>> {
    let isa = cranelift_native::builder()
        .ok()?
        .finish(settings::Flags::new(settings::builder()))
        .ok()?;
    let mut key = format!("{}\n", isa.triple());
    for flag in isa.isa_flags() {
        key.push_str(&format!("{flag}\n"));
    }
    key.push_str(&format!(
        "vectorize {} always {} width {:?} wide tier {:?}\n",
        vectorize::enabled(),
        vectorize_always(),
        forced_width(),
        (
            wide::enabled(),
            wide::takes_scalar(),
            wide::host_isa(),
            wide::fma_units(),
            wide::reciprocal_divisions(),
            wide::few_cores()
        )
    ));
    Some(key.into_bytes())
}

impl DeviceBackend for CpuDevice {
    fn fast_fma(&self) -> bool {
        host_has_fast_fma()
    }

    fn limits(&self) -> DeviceLimits {
        DeviceLimits {
            max_work_group_size: MAX_WORK_GROUP_SIZE,
            sub_group_size: SUB_GROUP_SIZE,
            arg_align: ferrocl_device::ALLOCATION_ALIGN,
        }
    }

    fn allocate(&self, size: usize) -> Result<Storage, DeviceError> {
        Storage::allocate(size)
    }

    fn allocate_undefined(&self, size: usize) -> Result<Storage, DeviceError> {
        Storage::allocate_undefined(size)
    }

    fn compile(
        &self,
        module: &Module,
        options: &CompileOptions,
    ) -> Result<Arc<dyn DeviceProgram>, DeviceError> {
        let program = CpuProgram::compile_with_options(module, options)
            .map_err(|e| DeviceError::Compile(e.0))?;
        Ok(Arc::new(program))
    }

    fn code_key(&self) -> Option<Vec<u8>> {
        static KEY: std::sync::OnceLock<Option<Vec<u8>>> = std::sync::OnceLock::new();
        KEY.get_or_init(code_key).clone()
    }

    fn load(
        &self,
        module: &Module,
        options: &CompileOptions,
        bytes: &[u8],
    ) -> Result<Arc<dyn DeviceProgram>, DeviceError> {
        let program =
            CpuProgram::load(module, options, bytes).map_err(|e| DeviceError::Compile(e.0))?;
        Ok(Arc::new(program))
    }
}

/// The largest work-group the device picks for a kernel of `regions` regions between barriers
/// whose work-items each use `frame_size` bytes of frame memory, where the application leaves
/// the local size to it.
///
/// Each work-group costs a call, its context and the work-group function's own setup, 20 to
/// 40 ns: a 3-point column stencil over 4096 x 4096 floats on one core took 11.2 ms in groups
/// of 64 work-items, 9.4 ms in groups of 256 and 8.4 ms in groups of 4096. A kernel without
/// barriers takes the largest group whose frames stay within 64 KiB (a quarter of a small L2
/// cache). A kernel with barriers stays at 256 work-items: each region runs over the whole
/// group, so its values live across barriers and its `__local` traffic stay in the L1 cache.
fn preferred_group_size(regions: usize, frame_size: usize) -> usize {
    const SMALL: usize = 256;
    if regions > 1 {
        return SMALL;
    }
    let mut n = MAX_WORK_GROUP_SIZE;
    while n > SMALL && n * frame_size > 64 << 10 {
        n /= 2;
    }
    n
}

impl DeviceProgram for CpuProgram {
    fn kernel(&self, name: &str) -> Option<Arc<dyn DeviceKernel>> {
        let k = self.kernels.iter().find(|k| k.name == name)?;
        Some(k.clone())
    }

    fn listing(&self) -> Option<&Listing> {
        self.listing.as_ref()
    }

    fn serialize(&self) -> Option<Vec<u8>> {
        CpuProgram::serialize(self)
    }
}

impl DeviceKernel for CompiledKernel {
    fn arg_slots(&self) -> &[ArgSlot] {
        &self.args
    }

    fn args_size(&self) -> usize {
        self.args_size
    }

    fn static_local_size(&self) -> usize {
        self.static_local_size
    }

    fn private_size(&self) -> usize {
        self.frame_size
    }

    fn preferred_group_size(&self) -> usize {
        self.preferred_group_size
    }

    fn group_blind(&self) -> bool {
        self.group_blind
    }

    unsafe fn launch(
        &self,
        args: &[u8],
        local_mem_size: usize,
        private_args: &[u8],
        nd: &NdRange,
        _profile: bool,
    ) -> Result<Option<u64>, DeviceError> {
        // SAFETY: the trait's contract is this function's.
        unsafe { self.launch_with_private(args, local_mem_size, private_args, nd) }
            .map_err(|f| DeviceError::KernelFault(f.to_string()))?;
        // The host's clock around the call is the CPU device's own.
        Ok(None)
    }
}

impl Drop for Code {
    fn drop(&mut self) {
        if let Some(jit) = self.jit.take() {
            // SAFETY: the last kernel holding the code is gone, so none of it can run any
            // more (launches borrow their kernel).
            unsafe { jit.free_memory() };
        }
    }
}

/// The side of the tiles of groups that ranges of a few rows of groups run in.
const TILE: u64 = 16;

/// The id of the `k`-th group of a range of `n` groups run in tiles of `TILE` x `TILE`
/// groups: the tiles along x, a row of them, then the next row; in a tile, along x, then the
/// next y (the last tile of a row or column holds the rest); each z after the other.
///
/// In a range of few rows of groups and many columns, a kernel's y often picks a sample and
/// its x a row of a matrix all samples read: the bench's nn-layer (x a neuron's 4 KB of
/// weights, 1024 neurons, y one of 16 samples) read all 4 MB of weights for each sample from
/// the last-level cache in row order; in tiles, 16 neurons' weights serve the 16 samples from
/// the core's own caches. On 2 cores of a Xeon: nn-layer 1.75-1.80 to 1.17-1.20 ms (Intel's
/// runtime 1.52, which runs every range in 16 x 16 tiles); sgemm, transpose, stencil-2d,
/// resize-image, conv-5x5 and mandelbrot within their noise. Ranges of more rows stay in row
/// order: tiled, the 16-core Xeon ran the streaming 2-D rows, whose rows share nothing, up to
/// 50% slower (u8-threshold 101-127 to 154 us, pyr-down-u8 1.86-1.97 to 1.98-2.25 ms), its
/// prefetchers following 16 short runs a tile where row order gives one long one.
fn tiled_group(k: u64, n: [u64; 3]) -> [u64; 3] {
    const T: u64 = TILE;
    let slice = n[0] * n[1];
    let (z, k) = (k / slice, k % slice);
    let ty = k / (T * n[0]);
    let r = k - ty * T * n[0];
    let h = T.min(n[1] - ty * T);
    let tx = r / (T * h);
    let r = r - tx * T * h;
    let w = T.min(n[0] - tx * T);
    [tx * T + r % w, ty * T + r / w, z]
}

/// The group after `g` in `tiled_group`'s order, counted on without dividing.
fn next_tiled(g: [u64; 3], n: [u64; 3]) -> [u64; 3] {
    let (x0, y0) = (g[0] - g[0] % TILE, g[1] - g[1] % TILE);
    let (x1, y1) = ((x0 + TILE).min(n[0]), (y0 + TILE).min(n[1]));
    if g[0] + 1 < x1 {
        [g[0] + 1, g[1], g[2]]
    } else if g[1] + 1 < y1 {
        [x0, g[1] + 1, g[2]]
    } else if x1 < n[0] {
        [x1, y0, g[2]]
    } else if y1 < n[1] {
        [0, y1, g[2]]
    } else {
        [0, 0, g[2] + 1]
    }
}

#[cfg(test)]
mod tests {
    use super::{next_tiled, tiled_group};

    /// Every group of a range, once, in tiles, and each the one `next_tiled` counts on to:
    /// sizes that are and are not multiples of the tile, one row of tiles and several,
    /// several planes.
    #[test]
    fn tiles_cover_every_group_once() {
        for n in [
            [1024, 16, 1],
            [37, 19, 2],
            [5, 40, 1],
            [16, 16, 1],
            [17, 33, 3],
            [2, 2, 2],
        ] {
            let total = n[0] * n[1] * n[2];
            let mut seen = std::collections::HashSet::new();
            for k in 0..total {
                let g = tiled_group(k, n);
                assert!((0..3).all(|d| g[d] < n[d]), "{n:?}: group {k} is {g:?}");
                assert!(seen.insert(g), "{n:?}: {g:?} twice");
                if k + 1 < total {
                    assert_eq!(
                        next_tiled(g, n),
                        tiled_group(k + 1, n),
                        "{n:?}: after {g:?}"
                    );
                }
            }
            assert_eq!(seen.len() as u64, total);
        }
        // The first tile of a 32 x 32 range: x fastest within 16, then the next y.
        assert_eq!(tiled_group(15, [32, 32, 1]), [15, 0, 0]);
        assert_eq!(tiled_group(16, [32, 32, 1]), [0, 1, 0]);
        assert_eq!(tiled_group(256, [32, 32, 1]), [16, 0, 0]);
        assert_eq!(tiled_group(512, [32, 32, 1]), [0, 16, 0]);
    }
}
