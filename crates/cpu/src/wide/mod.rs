//! The wide-vector tier: a code generator of the CPU device's own that compiles a whole
//! work-group function (the IR function `workgroup::clean_up` leaves) to x86-64 machine code
//! with AVX-512 (F, VL, DQ, BW, CD), where Cranelift stops at 128-bit vectors and 16 `xmm`
//! registers. A 16-lane vector of 32-bit values is one `zmm` register, a 16-lane boolean one
//! mask register.
//!
//! It covers part of the IR and refuses the rest with a reason: [`compile`] checks every
//! instruction and type first ([`Plan::new`]), allocates registers without spilling
//! (`alloc.rs`: a function that needs more registers at once is refused), selects instructions
//! (`emit.rs`) and encodes them with `iced-x86`. A refused function goes to Cranelift as
//! before, so the tier is always safe to narrow. The code takes the work-group function's
//! calling convention (`abi.rs`): `extern "C" fn(args, group, frames)`, the kernel's
//! arguments loaded from the argument block; its only relocations are the absolute addresses
//! of program-scope data (no calls), so the program cache keeps it like Cranelift's code.
//!
//! It is on by default; `FERROCL_WIDE=0` turns it off (`=all`: on for scalar functions too,
//! [`takes_scalar`]); it runs only where the CPU has AVX-512F, VL, DQ,
//! BW, CD and BMI2 ([`enabled`]), and its state is part of the device's code key.

mod alloc;
mod emit;
mod regs;
mod vex;

use ferrocl_device::ArgSlot;
use ferrocl_ir::entity::SecondaryMap;
use ferrocl_ir::{
    AddrSpace, BinaryOp, ConvOp, Function, Global, Inst, MemFlags, Op, Round, Type, UnaryOp, Value,
    ValueDef, WorkItemOp,
};

/// Machine code the tier made for one work-group function.
pub(crate) struct WideCode {
    /// The bytes: position-independent but for [`WideCode::relocs`].
    pub bytes: Vec<u8>,
    /// The code as text (GNU syntax, one instruction a line with its offset).
    pub asm: String,
    /// Where the code holds a program-scope global's address: the offset of 8 bytes to
    /// write it to (an absolute relocation), and the global.
    pub relocs: Vec<(u32, Global)>,
    /// Bytes each work-item writes at least through the stores that bypass the caches in a
    /// launch that streams (`emit.rs`'s `streaming_stores`): a store of a chunk's lanes
    /// counts its bytes over the tier's lanes. 0 where there are none.
    pub stream_bytes: u32,
}

/// Whether the tier is on: `FERROCL_WIDE` is not `0` (unset: the default, [`DEFAULT_ON`]) and the
/// host has the instruction sets it emits. Read once per process.
pub fn enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| {
        let wanted = match std::env::var("FERROCL_WIDE") {
            Ok(v) => v != "0",
            Err(_) => DEFAULT_ON,
        };
        wanted && host_supports()
    })
}

/// Whether `FERROCL_WIDE` (a comma-separated list) names `word`.
fn wide_option(word: &str) -> bool {
    std::env::var("FERROCL_WIDE").is_ok_and(|v| v.split(',').any(|w| w.trim() == word))
}

/// Whether the tier also takes work-group functions that run one work-item at a time
/// (`FERROCL_WIDE=all`): a test mode, so that the differential tester's kernels, which the
/// vectorizer mostly refuses, reach the tier's code for scalar code, loops and branches.
/// Cranelift optimizes such code better, so the tier leaves it by default.
pub fn takes_scalar() -> bool {
    static ALL: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ALL.get_or_init(|| enabled() && wide_option("all"))
}

/// Whether the tier runs when `FERROCL_WIDE` is not set.
const DEFAULT_ON: bool = true;

/// The instruction sets the tier's code is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// AVX-512 (F, VL, DQ, BW, CD): 16 lanes of 32 bits in one `zmm`, 32 vector registers,
    /// masks in `k` registers.
    Avx512,
    /// AVX2 with FMA: 8 lanes in one `ymm`, 16 vector registers, no mask registers. The
    /// selection is the same; its EVEX instructions are encoded again with VEX
    /// (`emit::to_vex`), and a function with one that has no VEX form is refused.
    Avx2,
}

impl Isa {
    /// The lanes of 32 bits the tier runs a kernel's W-wide version at: one vector register.
    pub fn width(self) -> u32 {
        match self {
            Isa::Avx512 => 16,
            Isa::Avx2 => 8,
        }
    }

    /// The vector registers values may take (`alloc::VECS` on AVX-512; on AVX2, 0 to 11,
    /// the four scratch registers being 12 to 15).
    pub(super) fn vecs(self) -> usize {
        match self {
            Isa::Avx512 => alloc::VECS,
            Isa::Avx2 => 12,
        }
    }
}

/// The instruction sets of this host the tier emits for: AVX-512 where the CPU has it
/// (unless `FERROCL_WIDE` names `avx2`), else AVX2 with FMA; none on other hosts. Read once
/// per process.
pub fn host_isa() -> Option<Isa> {
    static ISA: std::sync::OnceLock<Option<Isa>> = std::sync::OnceLock::new();
    *ISA.get_or_init(|| {
        if has_avx512() && !wide_option("avx2") {
            Some(Isa::Avx512)
        } else if has_avx2() {
            Some(Isa::Avx2)
        } else {
            None
        }
    })
}

/// The lanes the tier runs kernels at on this host ([`Isa::width`]).
pub fn width() -> u32 {
    host_isa().map_or(Isa::Avx512.width(), Isa::width)
}

/// The vector registers the tier's values may take in a function of `width` lanes, where
/// the tier is on and runs that width ([`Isa::width`], or 8 on AVX-512: `compile.rs`'s
/// `build_one`), and the bits each holds.
pub fn value_registers(width: u32) -> Option<(usize, u32)> {
    host_isa()
        .filter(|isa| enabled() && (isa.width() == width || (*isa == Isa::Avx512 && width == 8)))
        .map(|isa| (isa.vecs(), 32 * isa.width()))
}

/// Whether this CPU has the instruction sets of one of the tier's [`Isa`]s.
pub fn host_supports() -> bool {
    host_isa().is_some()
}

static TAKE_ALL: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Makes the tier take the functions it declines for speed alone: those bound by memory
/// (`Measure::bound_by_memory`), and those bound by their vector arithmetic on a CPU that
/// halves 256-bit operations (`Measure::halved`, as `FERROCL_WIDE=all` does there): for
/// tests of the tier's code.
pub fn take_all(on: bool) {
    TAKE_ALL.store(on, std::sync::atomic::Ordering::Relaxed);
}

fn taking_all() -> bool {
    TAKE_ALL.load(std::sync::atomic::Ordering::Relaxed)
}

/// Whether this host's widest vector instructions are AVX2's and run as two 128-bit halves
/// ([`splits_256`]): where the tier leaves arithmetic-bound functions to Cranelift
/// (`Measure::halved`).
pub fn halved_host() -> bool {
    host_isa() == Some(Isa::Avx2) && splits_256()
}

/// Whether this CPU executes a 256-bit vector operation as two 128-bit ones: AMD's before
/// Zen 2 (family 17h models below 30h, and the families before it; AMD's Software
/// Optimization Guide for family 17h: the floating-point unit's datapaths are 128 bits
/// wide). Read once per process.
pub fn splits_256() -> bool {
    fma_units().datapath_bits < 256
}

/// What a loop of dependent fused multiply-adds waits on: the host's vector FMA units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FmaUnits {
    /// Cycles from an `fma`'s operands to its result.
    pub latency: u32,
    /// How many `fma`s a cycle the units start, each at most `datapath_bits` wide.
    pub pipes: u32,
    /// The widest operation a unit takes in one pass: a wider one takes several.
    pub datapath_bits: u32,
    /// Whether the units' ports also take the scalar integer and branch operations (Intel's
    /// ports 0 and 5; AMD's floating-point units have pipes of their own): a loop's own
    /// counting then takes some of the cycles the `fma`s would start in.
    pub shared_ports: bool,
}

impl FmaUnits {
    /// How many `fma`s of `bits`-wide registers in flight keep the units busy: latency times
    /// those started a cycle (a register wider than the datapath takes several passes), half
    /// as many again where the ports are shared (float4-poly on 2 cores of an AVX-512 Xeon
    /// ran 1.06 ms with eight 512-bit chains, 0.97 with twelve).
    pub fn in_flight(self, bits: u32) -> u32 {
        let passes = bits.div_ceil(self.datapath_bits).max(1);
        let busy = self.latency * self.pipes;
        let wanted = if self.shared_ports {
            busy * 3 / 2
        } else {
            busy
        };
        wanted.div_ceil(passes).max(1)
    }
}

/// The host's vector FMA units, from the vendor and family `cpuid` gives (read once per
/// process). Two units everywhere; AMD's optimization guides give their widths and
/// latencies: 128 bits and 5 cycles before Zen 2 (family 17h models below 30h), 256 bits
/// and 5 cycles on Zen 2, 256 bits and 4 cycles on Zen 3 and 4 (family 19h: a 512-bit
/// operation takes two passes), 512 bits from Zen 5 (family 1Ah). Intel's cores since
/// Skylake: 4 cycles, and 512 bits where they have AVX-512 (the server parts' two units;
/// Intel's optimization manual, table of the Skylake server microarchitecture's ports).
pub fn fma_units() -> FmaUnits {
    static UNITS: std::sync::OnceLock<FmaUnits> = std::sync::OnceLock::new();
    *UNITS.get_or_init(|| {
        let wide = if has_avx512() { 512 } else { 256 };
        let amd = amd_family_model();
        let (latency, datapath_bits) = match amd {
            Some((family, model)) if family < 0x17 || (family == 0x17 && model < 0x30) => (5, 128),
            Some((0x17, _)) => (5, 256),
            Some((0x19, _)) => (4, 256),
            _ => (4, wide),
        };
        FmaUnits {
            latency,
            pipes: 2,
            datapath_bits,
            shared_ports: amd.is_none(),
        }
    })
}

/// Whether the tier divides by a reciprocal and a Newton step where OpenCL C allows 2.5 ulp
/// (`emit.rs`, `relaxed_div`), rather than with the divider: where the divider is slow
/// against the reciprocal's steps, which Intel's is for 16 lanes. AMD's from Zen 4 (family
/// 19h and later) divide: black-scholes (four such divisions a chunk, whose chains bound it)
/// ran 603-627 us dividing against 680-710 with the reciprocal on 2 cores of a Zen 4 EPYC,
/// in turns, where a 2-core Xeon had measured the two alike (672 against 670-674 us).
/// [`divide_relaxed`] overrides it for tests. Read once per process.
pub fn reciprocal_divisions() -> bool {
    static HOST: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    match RELAXED_DIVISION.load(std::sync::atomic::Ordering::Relaxed) {
        1 => true,
        2 => false,
        _ => *HOST.get_or_init(|| amd_family_model().is_none_or(|(family, _)| family < 0x19)),
    }
}

static RELAXED_DIVISION: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Makes the tier's relaxed float divisions take the reciprocal (`Some(true)`) or the divider
/// (`Some(false)`) whatever the host, or the host's choice (`None`): for tests of both forms.
pub fn divide_relaxed(reciprocal: Option<bool>) {
    let v = match reciprocal {
        None => 0,
        Some(true) => 1,
        Some(false) => 2,
    };
    RELAXED_DIVISION.store(v, std::sync::atomic::Ordering::Relaxed);
}

/// An AMD CPU's family and model, from `cpuid` leaves 0 and 1 (with the extended fields);
/// `None` on other vendors.
fn amd_family_model() -> Option<(u32, u32)> {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::__cpuid;
        let (vendor, info) = (__cpuid(0), __cpuid(1));
        let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163);
        let base = (info.eax >> 8) & 0xf;
        let family = base
            + if base == 0xf {
                (info.eax >> 20) & 0xff
            } else {
                0
            };
        let model = ((info.eax >> 4) & 0xf) | (((info.eax >> 16) & 0xf) << 4);
        amd.then_some((family, model))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        None
    }
}

/// Whether this CPU has every instruction set the tier's AVX-512 code uses.
fn has_avx512() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        has_avx2()
            && std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512vl")
            && std::is_x86_feature_detected!("avx512dq")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512cd")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether this CPU has every instruction set the tier's AVX2 code uses (and the scalar
/// instructions both use: BMI1/2, LZCNT, POPCNT).
fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("fma")
            && std::is_x86_feature_detected!("lzcnt")
            && std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether binary operation `op` gives the same result with its operands swapped: to the bit,
/// but for which payload a float sum or product of two NaNs carries, which IEEE 754-2008
/// 6.2.3 leaves open ("this standard does not specify which of the input NaNs will provide
/// the payload"; OpenCL C adds nothing to it).
fn commutes(op: &Op) -> bool {
    matches!(op, Op::Binary(b) if b.is_commutative() || matches!(b, BinaryOp::Fadd | BinaryOp::Fmul))
}

/// Whether the tier's code for `op` on vectors takes its second operand from memory,
/// broadcast from one 32-bit lane (an EVEX `m32bcst` operand).
fn reads_memory_operand(op: &Op) -> bool {
    matches!(
        op,
        Op::Binary(
            BinaryOp::Fadd
                | BinaryOp::Fsub
                | BinaryOp::Fmul
                | BinaryOp::Fdiv
                | BinaryOp::FdivRelaxed
                | BinaryOp::Iadd
                | BinaryOp::Isub
                | BinaryOp::Imul
                | BinaryOp::Smin
                | BinaryOp::Smax
                | BinaryOp::Umin
                | BinaryOp::Umax
                | BinaryOp::Band
                | BinaryOp::Bor
                | BinaryOp::Bxor
        )
    )
}

/// Compiles work-group function `f` (whose kernel's argument block is laid out as `layout`
/// says; whose work-item code, `kernel`, may have loops), or says why the tier does not take
/// it.
pub(crate) fn compile(
    f: &Function,
    kernel: &Function,
    layout: &[ArgSlot],
    locals: &LocalOffsets,
) -> Result<WideCode, String> {
    let isa = host_isa().ok_or("no AVX2 or AVX-512 on this host")?;
    let got = worth_it(f, streams(kernel)).and_then(|()| generate(f, layout, locals, isa));
    let counter = if got.is_ok() { &TAKEN } else { &REFUSED };
    counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    got
}

/// The tier's code for `f`, whether or not it is worth running: its plan, registers and
/// instructions.
fn generate(
    f: &Function,
    layout: &[ArgSlot],
    locals: &LocalOffsets,
    isa: Isa,
) -> Result<WideCode, String> {
    if !cfg!(target_arch = "x86_64") {
        return Err("not an x86-64 host".into());
    }
    // Loop-invariant code out of the loops first: the work-group function keeps a splat of a
    // uniform value, or a constant vector, where the vectorizer put it, in the loop that reads
    // it (Cranelift's code hoists such values in `codegen/motion.rs`), and the tier emits
    // the IR's order. With its 32 registers on AVX-512, mandelbrot's loop then broadcasts no
    // value in each trip: 1.29-1.31 to 1.22 ms on 2 cores of a Xeon; conv-5x5 1.79-1.82 to
    // 1.62-1.72, fft-256 3.25-3.28 to 3.08-3.17; no row slower beyond the runs' spread.
    let mut hoisted = f.clone();
    ferrocl_ir::passes::licm::licm(&mut hoisted);
    let f = &hoisted;
    let plan = Plan::new(f, locals, isa)?;
    let alloc = alloc::allocate(f, &plan)?;
    emit::emit(f, &plan, &alloc, layout)
}

static TAKEN: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
static REFUSED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How many work-group functions the tier compiled and refused in this process: a test that
/// runs kernels with the tier on shows how many it actually took.
pub fn counts() -> (u64, u64) {
    use std::sync::atomic::Ordering::Relaxed;
    (TAKEN.load(Relaxed), REFUSED.load(Relaxed))
}

/// The tier's code for work-group function `f` as text (what `--emit asm` shows), or why it
/// cannot make it: for the tier's filetests, which show code whether or not a build would
/// choose it ([`worth_it`]). The argument block is laid out from `f`'s
/// parameters but the last (its context memory) as [`crate::abi::arg_layout`] lays out a
/// kernel's, each a buffer, a `__local` pointer (an offset in the region) or a value.
pub fn assemble(f: &Function, isa: Isa) -> Result<String, String> {
    let mut offset = 0usize;
    let params = &f.sig.params[..f.sig.params.len().saturating_sub(1)];
    let layout: Vec<ArgSlot> = params
        .iter()
        .map(|ty| {
            let size = ty.bytes() as usize;
            let align = size.next_power_of_two().clamp(1, 128);
            offset = offset.div_ceil(align) * align;
            let slot = ArgSlot {
                offset,
                size,
                kind: match ty.addr_space() {
                    Some(AddrSpace::Local) => ferrocl_ir::ArgKind::Local,
                    Some(_) => ferrocl_ir::ArgKind::Buffer,
                    None => ferrocl_ir::ArgKind::Value,
                },
            };
            offset += size;
            slot
        })
        .collect();
    generate(f, &layout, &LocalOffsets::new(), isa).map(|c| c.asm)
}

/// Refuses a function whose loops inside the work-item loops (or around them) mostly gather
/// lane by lane (a load put into a vector's lane): 16 lanes make such loops wider but no
/// faster (16 scalar loads a trip and 16 lane insertions) and spread their memory over more
/// streams, so Cranelift's narrower code runs them faster; one that streams memory with
/// less arithmetic than accesses; and on a CPU that halves 256-bit operations, one bound by
/// its vector arithmetic (`Measure::halved`).
fn worth_it(f: &Function, streams: bool) -> Result<(), String> {
    let m = measure(f, 0);
    m.verdict(streams)?;
    m.halved()
}

/// Whether kernel `f`'s work-item code is straight-line: no loop (a stream, when it is bound
/// by memory: `Measure::bound_by_memory`).
fn streams(f: &Function) -> bool {
    use ferrocl_ir::analysis::{Cfg, DomTree, LoopInfo};
    let cfg = Cfg::new(f);
    LoopInfo::new(&cfg, &DomTree::new(f, &cfg)).loops.is_empty()
}

/// How many cores a host may have for its streams to be bound by each core's own loads
/// rather than by the memory they share (`Measure::bound_by_memory`).
const FEW_CORES: usize = 4;

/// Whether this host has [`FEW_CORES`] or fewer. Read once per process; part of the device's
/// code key, as the tier's other conditions are.
pub fn few_cores() -> bool {
    static FEW: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FEW.get_or_init(|| std::thread::available_parallelism().map_or(true, |n| n.get() <= FEW_CORES))
}

/// What refuses the W-wide kernel `f` (before the work-group transform: its own loops are
/// one inside the work-item loop's) whatever its work-group function: [`worth_it`]'s
/// measures (where `measures`), or a type the tier has no registers for (`f64` on AVX2, or
/// in vectors of more than 8 lanes) in it or in the kernel `scalar` it was made from (which the work-group function
/// also runs, for the work-items after the last full chunk). Checked first, so that such a
/// kernel is not transformed at the tier's width for nothing (a blocked LU's, unrolled: a
/// third of its build's time).
pub(crate) fn refused_early(f: &Function, scalar: &Function, measures: bool) -> Result<(), String> {
    if measures {
        measure(f, 1).verdict(streams(scalar))?;
    }
    for g in [f, scalar] {
        for &b in g.layout.blocks() {
            for &i in g.layout.block_insts(b) {
                let Some(r) = g.dfg.inst_result(i) else {
                    continue;
                };
                let ty = g.dfg.value_type(r);
                // (The W-wide kernel's gathers of `float2`s carry `f64` lanes.)
                let carried =
                    std::ptr::eq(g, f) && carries_f64(g, &g.dfg.insts[i], Some(ty), Isa::Avx512);
                // (`f64` arithmetic only in one `zmm` register: `f64_op`.)
                let computed = host_isa() == Some(Isa::Avx512) && ty.lanes() <= 8;
                if ty.lane_type() == Type::F64 && !carried && !computed {
                    return Err(format!("{r}: type {ty}"));
                }
            }
        }
    }
    Ok(())
}

/// Whether `f` has a vector of more than 8 `f64` lanes, which the tier has no register for
/// (a kernel vectorized at 16 lanes that computes in `double`: the tier takes it at 8).
pub(crate) fn wider_doubles(f: &Function) -> bool {
    f.layout.blocks().iter().any(|&b| {
        f.layout.block_insts(b).iter().any(|&i| {
            f.dfg.inst_result(i).is_some_and(|r| {
                let t = f.dfg.value_type(r);
                t.lane_type() == Type::F64 && t.lanes() > 8
            })
        })
    })
}

/// Weighted vector operations above which a function is taken by the tier even where
/// 256-bit operations are halved (see `Measure::halved`).
const LARGE_ARITHMETIC: u32 = 24_576;

/// What [`worth_it`] weighs, counted over `f` with `outer` loops around it.
struct Measure {
    gathered: u32,
    work: u32,
    arithmetic: u32,
    accesses: u32,
    shuffles: u32,
}

fn measure(f: &Function, outer: u32) -> Measure {
    let depth = crate::codegen::loops::depths(f);
    let depth = |b: ferrocl_ir::Block| depth[b] + outer;
    // In loops inside (or around) the work-item loops: lanes gathered one by one, and
    // vector operations and loads.
    let (mut gathered, mut work) = (0u32, 0u32);
    // In every loop: vector arithmetic and vector accesses of `__global` memory, each
    // counted 8 times for each loop it is in beyond the first (the work-item loop).
    let (mut arithmetic, mut accesses) = (0u32, 0u32);
    let mut shuffles = 0u32;
    for &b in f.layout.blocks() {
        if depth(b) == 0 {
            continue;
        }
        let weight = 8u32.saturating_pow(depth(b) - 1);
        let inner = depth(b) >= 2;
        for &inst in f.layout.block_insts(b) {
            let d = &f.dfg.insts[inst];
            let vector = f
                .dfg
                .inst_result(inst)
                .is_some_and(|r| f.dfg.value_type(r).is_vector());
            let global = |m: &ferrocl_ir::MemFlags| m.space == AddrSpace::Global;
            match &d.op {
                Op::InsertLane(_) if inner => {
                    let x = f.dfg.resolve(d.args[1]);
                    if def_inst(f, x).is_some_and(|i| matches!(f.dfg.insts[i].op, Op::Load(_))) {
                        gathered += 1;
                    }
                }
                Op::Load(m) if vector => {
                    work += u32::from(inner);
                    if global(m) {
                        accesses = accesses.saturating_add(weight);
                    } else if m.space == AddrSpace::Local {
                        arithmetic = arithmetic.saturating_add(weight);
                    }
                }
                Op::Store(m) if f.dfg.value_type(f.dfg.resolve(d.args[0])).is_vector() => {
                    if global(m) {
                        accesses = accesses.saturating_add(weight);
                    } else if m.space == AddrSpace::Local {
                        arithmetic = arithmetic.saturating_add(weight);
                    }
                }
                Op::Binary(_) | Op::Unary(_) | Op::Fma if vector => {
                    work += u32::from(inner);
                    arithmetic = arithmetic.saturating_add(weight);
                }
                Op::Select | Op::Convert(_) if vector => {
                    arithmetic = arithmetic.saturating_add(weight)
                }
                Op::Shuffle(_) if vector => shuffles = shuffles.saturating_add(weight),
                _ => {}
            }
        }
    }
    Measure {
        gathered,
        work,
        arithmetic,
        accesses,
        shuffles,
    }
}

impl Measure {
    fn verdict(&self, streams: bool) -> Result<(), String> {
        self.gathers()?;
        self.bound_by_memory(streams)
    }

    // Measured on the bench's rows: a 5x5 convolution (400 lanes gathered, 150 operations)
    // and a tiled SGEMM (64, 54) run 1.6-1.9x faster in the tier; matrix-vector rows
    // (16, 2), Needleman-Wunsch (256, 75) and a tiled transpose (32, 1) 1.2-4x slower.
    // With whole gathers made 16 bytes at a time (`Plan::gathered`) those three ran as fast
    // in the tier as in Cranelift's code (2 cores, in turns), so the rule stands.
    fn gathers(&self) -> Result<(), String> {
        let Measure { gathered, work, .. } = *self;
        if gathered > 3 * work {
            return Err(format!(
                "gathers lane by lane in a loop ({gathered} lanes, {work} vector operations)"
            ));
        }
        Ok(())
    }

    // On a CPU that executes each 256-bit operation as two 128-bit ones (`splits_256`),
    // Cranelift's 8 lanes in two `xmm` registers are as fast per operation as the tier's one
    // `ymm`, and their two independent halves hide each other's latency: 2 cores of such an
    // AMD EPYC (`ferrocl bench`, tier against `FERROCL_WIDE=0`) ran hash (74 vector
    // operations a global access), mandelbrot (102), black-scholes (71), sincos (83) and a
    // tiled stencil (442) 1.2-1.7x slower in the tier, exp (31) and log (61) alike; where
    // accesses and their addressing weigh more, its fewer instructions still win: conv-5x5
    // (1.9) 2.6x and sgemm (2.4) 1.2x faster, atan2 (17) 1.2x, float4-poly (4), a scan (5.5)
    // and a layer (4.2) alike. Later, OpenCV's `exp` over `float4` pixels (20: its
    // components regrouped by lane-crossing shuffles, two or three operations each there)
    // took 1.2x as long in the tier (the whole `cv2.exp` call 2.21-2.27 against 1.83 ms),
    // and pyvkfft's smaller FFT kernels (14-20) ran alike or slower (c2c 4096 0.062-0.075
    // against 0.057-0.062 ms), while atan2 (11) and fft-256 (12) measured alike: the line
    // is drawn at 16.
    //
    // Very large functions are the exception (over `LARGE_ARITHMETIC`): Cranelift places
    // each pure instruction just before its first use, so the independent chains of long
    // straight-line code come out one after another, with spills, while the tier keeps the
    // IR's order. VkFFT's FFT kernels (42,024 vector operations, 384 accesses) ran 1.7-2x
    // faster in the tier on that EPYC (pyvkfft: c2c 4096 0.19 to 0.11 ms, 64x1024 batched
    // 3.0 to 1.5, 256x256 4.6 to 2.6); the largest bench row (resize-image) has 6,824.
    // Functions about half that size whose bulk is code that seldom runs measured alike or
    // slower in the tier: OpenCV's `log` over `float4` (20,680, the complete form for four
    // components besides the common one) 2.29-2.63 against 1.96-2.14 ms for the call, and
    // pyvkfft's r2c 512x512 (19,104) 2.50-2.54 against 2.48-2.68 ms.
    //
    // Shuffles there cross the two halves at two or three times the cost of an operation
    // within them (`vpermps` three operations, `vperm2f128` eight, against one for
    // `vpermilps`), where Cranelift's code shuffles within `xmm` registers: a function with
    // more vector shuffles than arithmetic (the regrouping of OpenCL vectors into components)
    // stays Cranelift's too. clpeak's `float8` bandwidth kernel (6,144 shuffles against 2,288
    // operations at 8 lanes) read 64 MB in 6.3-6.8 ms in the tier, 3.5-3.6 one work-item at
    // a time (the cost model's choice for Cranelift's 4 lanes); its `float2` kernel (512
    // against 656) runs as fast in the tier as PoCL's.
    fn halved(&self) -> Result<(), String> {
        let Measure {
            arithmetic,
            accesses,
            shuffles,
            ..
        } = *self;
        let policy = !takes_scalar() && !taking_all();
        let halved = halved_host();
        let bound = arithmetic > 16 * accesses.max(1) && arithmetic <= LARGE_ARITHMETIC;
        if policy && halved && bound {
            return Err(format!(
                "256-bit operations in two halves on this CPU, and bound by them \
                 ({arithmetic} vector operations, {accesses} vector accesses)"
            ));
        }
        if policy && halved && shuffles > arithmetic {
            return Err(format!(
                "256-bit operations in two halves on this CPU, and more shuffles across \
                 them ({shuffles}) than other vector operations ({arithmetic})"
            ));
        }
        Ok(())
    }

    // A stream with fewer vector operations than accesses of global memory is bound by
    // memory, which wider registers do not make faster where the cores share it: 16 cores ran
    // saxpy (one fma for two loads and a store, weighed 8 against 24) 11% slower in the tier
    // (`ferrocl bench`, 528 against 474 us), and a 5-point stencil (1120 against 1280) 24%
    // slower (729 against 587 us); again alike or slower in a later run (copy 538-675 against
    // 545-561 us, matvec 749-977 against 670-809). Vector accesses of local memory,
    // cache-resident, count as operations: a scan's rounds through local memory (72
    // operations and 112 local accesses against 80) run 1.6x faster in the tier on 16 cores,
    // and a tiled SGEMM's loop of local loads and fmas 1.3-1.6x.
    //
    // On a host of few cores ([`few_cores`]) a straight-line stream (`streams`: no loop in
    // the work-item's code) is bound by each core's own loads, not by the memory it shares,
    // and the tier's code, a quarter of the instructions for each line moved, keeps more
    // lines in flight: 2 cores of a Xeon ran saxpy 3.0-3.4 ms in the tier against 3.9-4.6 in
    // Cranelift's code, copy 3.4-4.0 against 3.9-4.5, the 5-point stencil 4.7-5.5 against
    // 5.3-7.0, triad and the byte rows alike (`ferrocl bench`, the two in turns, six rounds;
    // an earlier build's stencil had measured slower there); a C loop of 16-lane fmas ran
    // saxpy 2.7-3.0 ms there, one of 4 lanes 4.1. A stream with a loop stays Cranelift's
    // (matvec, where it is refused as bound by memory: alike on 2 cores, slower on 16).
    fn bound_by_memory(&self, streams: bool) -> Result<(), String> {
        let Measure {
            arithmetic,
            accesses,
            ..
        } = *self;
        let own_loads = streams && few_cores();
        if arithmetic < accesses && !taking_all() && !own_loads {
            return Err(format!(
                "bound by memory ({arithmetic} vector operations, {accesses} vector accesses)"
            ));
        }
        Ok(())
    }
}

/// Where each of the module's `__local` variables lies in the work-group's local memory (as
/// `compile.rs` places them); `None` for a global elsewhere.
pub(crate) type LocalOffsets = SecondaryMap<Global, Option<u32>>;

/// The register file a value lives in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Class {
    /// General registers: `i1` (0 or 1), `i8` and `i16` (zero-extended to 32 bits), `i32`,
    /// `i64` and pointers.
    Gpr,
    /// Vector registers: `f32` (the low lane) and vectors of 2, 4, 8 or 16 `f32` or `i32`
    /// lanes (2 lanes: the low half of an `xmm`, read and written 8 bytes at a time).
    Vec,
    /// Mask registers: `i1x16`.
    Mask,
}

impl Class {
    fn name(self) -> &'static str {
        match self {
            Class::Gpr => "general",
            Class::Vec => "vector",
            Class::Mask => "mask",
        }
    }
}

/// The class of type `ty` in code for `isa`, if the tier has one for it.
fn class_of(ty: Type, isa: Isa) -> Option<Class> {
    let lane = ty.lane_type();
    if !ty.is_vector() {
        if ty.is_ptr() || ty.is_int() {
            return Some(Class::Gpr);
        }
        // An `f64` only as the carrier of a gather's lanes (`check_op`).
        return matches!(ty, Type::F32 | Type::F64).then_some(Class::Vec);
    }
    let n = ty.lanes();
    if lane == Type::I1 {
        // AVX2's masks are vectors of 32-bit lanes, each 0 or -1 (`is_mask`). AVX-512's are
        // mask registers, of 16 lanes or of 8 (a function the tier runs at 8 lanes, a group
        // 8 wide: the mask instructions' byte forms keep the bits past them clear).
        return match isa {
            Isa::Avx512 => matches!(n, 8 | 16).then_some(Class::Mask),
            Isa::Avx2 => (n == isa.width()).then_some(Class::Vec),
        };
    }
    if narrow_vector(ty) {
        // (Two lanes are a vector's swizzle, `x.s01`: loaded and stored only from 4 bytes,
        // `check_op`.)
        return matches!(n, 2 | 4 | 8 | 16).then_some(Class::Vec);
    }
    // (Three lanes, a `float3`'s: an `xmm` register whose fourth lane is never read, loaded
    // and stored 12 bytes at a time, `Emitter::store`.)
    let lanes32 = (lane == Type::F32 || lane == Type::I32) && matches!(n, 2 | 3 | 4 | 8 | 16);
    (lanes32 || (lane == Type::F64 && matches!(n, 2 | 4 | 8))).then_some(Class::Vec)
}

/// Whether instruction `data` (result type `ty`) of `f` only carries `f64` lanes as the
/// vectorizer's gathers of 8-byte OpenCL vectors make them (`vector_gather`: each lane's
/// `float2` loaded as one `f64`, inserted into a vector of `f64`, bitcast to the `float`
/// vectors it regroups): the tier does no `f64` arithmetic.
fn carries_f64(f: &Function, data: &ferrocl_ir::InstData, ty: Option<Type>, isa: Isa) -> bool {
    let of = |i: usize| f.dfg.value_type(f.dfg.resolve(data.args[i]));
    let f64_vector = |t: Type| t.is_vector() && t.lane_type() == Type::F64;
    isa == Isa::Avx512
        && match data.op {
            Op::Load(m) => ty == Some(Type::F64) && !m.volatile,
            Op::InsertLane(_) => ty.is_some_and(f64_vector) && of(1) == Type::F64,
            Op::Undef => ty.is_some_and(f64_vector),
            Op::Bitcast => ty.is_some_and(|t| {
                t.is_vector()
                    && t.lane_type() != Type::F64
                    && f64_vector(of(0))
                    && t.bytes() == of(0).bytes()
            }),
            _ => false,
        }
}

/// Whether instruction `data` (result type `ty`) of `f` is an operation on `f64` lanes the
/// tier computes: on AVX-512, in vectors of at most 8 lanes (one `zmm` register) and as
/// scalars, with the `pd` and `sd` forms of its `f32` selection (`emit::double`). Moves,
/// lanes, sums, products, quotients, fmas, minima and maxima, negations, absolute values,
/// square roots, roundings to integral values, choices, comparisons into a mask and
/// conversions: what GEMMs in `double` are made of (CLBlast's DGEMM), and more. Anything
/// else of `f64` (conversions to integers, `rsqrt`) is refused.
fn f64_op(f: &Function, data: &ferrocl_ir::InstData, ty: Option<Type>, isa: Isa) -> bool {
    let of = |i: usize| f.dfg.value_type(f.dfg.resolve(data.args[i]));
    let fits = |t: Type| t.lane_type() != Type::F64 || t.lanes() <= 8;
    let double = |t: Type| t.lane_type() == Type::F64;
    if isa != Isa::Avx512 || !ty.is_none_or(fits) || !(0..data.args.len()).all(|i| fits(of(i))) {
        return false;
    }
    match data.op {
        Op::Load(m) => !m.volatile,
        Op::Store(m) => !m.volatile,
        Op::Undef | Op::Fconst(_) | Op::InsertLane(_) | Op::Fma => true,
        Op::Binary(b) => b.is_float() && b != BinaryOp::Copysign,
        Op::Unary(u) => exact_float_unary(u),
        Op::ExtractLane(_) | Op::Shuffle(_) => double(of(0)) && ty.is_some_and(double),
        Op::Splat => of(0) == Type::F64,
        Op::Select => ty.is_some_and(double),
        Op::Fcmp(_) => true,
        // Exact: from 32-bit integers and from `float`; to `float` rounded to nearest even
        // (MXCSR's rounding, which the CPU device's code keeps).
        Op::Convert(c) => match c {
            ConvOp::SintToFloat(_) | ConvOp::UintToFloat(_) => {
                (of(0).lane_type() == Type::I32 || of(0) == Type::I64) && ty.is_some_and(double)
            }
            ConvOp::Fconv(round) => {
                (of(0).lane_type() == Type::F32 && ty.is_some_and(double))
                    || (double(of(0))
                        && ty.is_some_and(|t| t.lane_type() == Type::F32)
                        && round == Round::Rte)
            }
            _ => false,
        },
        _ => false,
    }
}

/// The float operations of one operand the tier computes in `float` and in `double` lanes
/// alike (exact, or correctly rounded roots; `rsqrt` only in `float`).
fn exact_float_unary(u: UnaryOp) -> bool {
    matches!(
        u,
        UnaryOp::Fneg
            | UnaryOp::Fabs
            | UnaryOp::Sqrt
            | UnaryOp::SqrtRelaxed
            | UnaryOp::Floor
            | UnaryOp::Ceil
            | UnaryOp::Ftrunc
            | UnaryOp::Nearest
    )
}

/// How many times each value of `f` is read (as an operand or a branch argument).
fn reads_of(f: &Function) -> SecondaryMap<Value, u32> {
    let mut raw: SecondaryMap<Value, u32> = SecondaryMap::new();
    for &b in f.layout.blocks() {
        for &inst in f.layout.block_insts(b) {
            for a in f.dfg.insts[inst].all_args() {
                raw[f.dfg.resolve(a)] += 1;
            }
        }
    }
    raw
}

/// Whether `ty` is a vector of booleans (`i1`): on AVX2, a vector register of 32-bit lanes,
/// each 0 or -1 (the sign bit is what `vblendvps` and `vmovmskps` read).
pub(super) fn is_mask(ty: Type) -> bool {
    ty.is_vector() && ty.lane_type() == Type::I1
}

/// A vector of 8- or 16-bit integer lanes (gathered bytes, `uchar4` components): packed in
/// the low bytes of a vector register, and only moved, inserted into, splatted, combined
/// bitwise, added, subtracted and multiplied (bytes only on AVX-512), and widened or
/// narrowed to 32-bit lanes ([`narrow_vector_op`]).
pub(super) fn narrow_vector(ty: Type) -> bool {
    ty.is_vector() && matches!(ty.lane_type(), Type::I8 | Type::I16)
}

/// Whether the tier covers `op` where its result or first operand is a vector of narrow
/// lanes (of `ty` and `from`) in code for `isa`: conversions only from and to the same lanes
/// of 32 bits; products of bytes only on AVX-512, which narrows words back to bytes
/// (VPMOVWB; AVX2 has no such instruction).
fn narrow_vector_op(op: &Op, ty: Option<Type>, from: Option<Type>, isa: Isa) -> bool {
    let lanes32 = |a: Option<Type>, b: Option<Type>, lane: Type| match (a, b) {
        (Some(a), Some(b)) => b.lane_type() == lane && a.lanes() == b.lanes(),
        _ => false,
    };
    match op {
        Op::Undef | Op::InsertLane(_) | Op::Load(_) | Op::Store(_) => true,
        Op::Splat | Op::Iconst(_) | Op::Vconst(_) | Op::ExtractLane(_) | Op::Shuffle(_) => true,
        Op::Binary(BinaryOp::Band | BinaryOp::Bor | BinaryOp::Bxor) => true,
        Op::Binary(BinaryOp::Iadd | BinaryOp::Isub) => true,
        // VPBLENDMB / VPBLENDMW under a mask register; VPCMP[U]B / VPCMP[U]W into one.
        Op::Select | Op::Icmp(_) => isa == Isa::Avx512,
        // The same bytes (a gather's lanes loaded as floats, regrouped as bytes): a move.
        Op::Bitcast => match (ty, from) {
            (Some(t), Some(f)) => t.is_vector() && f.is_vector() && t.bytes() == f.bytes(),
            _ => false,
        },
        Op::Binary(BinaryOp::Imul) => {
            isa == Isa::Avx512 || ty.is_some_and(|t| t.lane_type() == Type::I16)
        }
        Op::Convert(ConvOp::Trunc) => lanes32(ty, from, Type::I32),
        Op::Convert(ConvOp::FloatToSint { .. } | ConvOp::FloatToUint { .. }) => {
            lanes32(ty, from, Type::F32)
        }
        Op::Convert(ConvOp::Zext | ConvOp::Sext) => lanes32(from, ty, Type::I32),
        Op::Convert(ConvOp::SintToFloat(Round::Rte) | ConvOp::UintToFloat(Round::Rte)) => {
            lanes32(from, ty, Type::F32)
        }
        _ => false,
    }
}

/// What the tier decided for each value before allocation: its class, whether it is
/// materialized at each use instead of living in a register, how often it is read.
pub(super) struct Plan<'a> {
    class: SecondaryMap<Value, Option<Class>>,
    /// Integer constants, null pointers, undefined values and the group context's fields:
    /// materialized where they are read (an immediate, a load from the context).
    remat: SecondaryMap<Value, bool>,
    uses: SecondaryMap<Value, u32>,
    /// Per instruction, the values it reads (operands, then branch arguments), resolved.
    reads: SecondaryMap<Inst, Vec<Value>>,
    /// The roots of `bor` trees of every lane of one mask (the vectorizer's test whether
    /// any lane is active) and of `band` trees (whether every lane is): the mask, and
    /// whether the tree is a `band` one, tested with `kortestw` where the root is read.
    any: SecondaryMap<Value, Option<(Value, bool)>>,
    /// The trees' other instructions, which emit nothing.
    folded: SecondaryMap<Inst, bool>,
    /// `ptradd`s read only as the address of loads and stores, with a 64-bit offset: each
    /// access adds the offset in its addressing mode, so the sum needs no register.
    addresses: SecondaryMap<Value, Option<Inst>>,
    /// Vectors of 64-bit lanes extended from 32-bit ones (then perhaps shifted left by a
    /// constant) and read only lane by lane (the offsets of a gather's addresses): the 32-bit
    /// vector, whether the extension is signed, and the shift; each lane is extended and
    /// shifted where it is taken out, and the wide vector is never made.
    widened: SecondaryMap<Value, Option<Widened>>,
    /// 32-bit quotients by a constant made in 64-bit lanes ([`division`]): the dividend, the
    /// multiplier and the shift after the product's high half.
    divided: SecondaryMap<Value, Option<(Value, u32, u8)>>,
    /// Vectors of 64-bit lanes that are a 64-bit scalar plus a constant per lane (the local
    /// ids of a chunk, `splat(x) + [0, 1, ..., 15]`) read only by conversions to `float`
    /// (`(float)get_local_id(0)`): the scalar and the constant vector; the conversion makes
    /// the 64-bit lanes itself ([`Plan::counted`]), on AVX-512 only (VCVTQQ2PS).
    counted: SecondaryMap<Value, Option<(Value, Value)>>,
    /// Offsets of folded addresses that are an index times 2, 4 or 8 (`imul` or `shl` by a
    /// constant) read by nothing else: the index and the scale of the addressing mode.
    scaled: SecondaryMap<Value, Option<(Value, u8)>>,
    /// 32-bit loads read only by a `splat` after them in their block, with nothing between
    /// that writes memory or synchronizes: the splat broadcasts from memory itself.
    broadcast: SecondaryMap<Value, Option<Inst>>,
    /// Integer comparisons read only where branches decide, as their conditions or as leaves
    /// of the conjunctions they branch on (`all_of`), or as the scalar condition of a choice
    /// between masks: compared where each branch or choice is (`cmp`, then `jcc` or
    /// `cmov`), their operands read there.
    fused: SecondaryMap<Value, Option<Inst>>,
    /// `band` trees of integer comparisons (the inner nodes read only by the tree), read only
    /// as a branch's condition: the branch makes each comparison and leaves for its false
    /// target at the first that fails (the vectorizer's guards). The leaves.
    all_of: SecondaryMap<Value, Option<Vec<Inst>>>,
    /// Splats of such loads read only as the second operand of one vector operation after
    /// them in the block, with nothing between that writes memory: the operation reads the
    /// lane from memory itself, broadcast (`{1to16}`).
    in_memory: SecondaryMap<Value, Option<Inst>>,
    /// Vectors whose every lane is inserted, one by one, from a load read by nothing else
    /// (the vectorizer's gathers), the insertions and loads in one block with nothing
    /// between that writes memory or synchronizes: the loads in lane order. The vector is
    /// made where its last insertion is, 16 bytes at a time (`Emitter::gather_lanes`); the
    /// other insertions and the loads emit nothing.
    gathered: SecondaryMap<Value, Option<Vec<Inst>>>,
    /// Float negations read only as operands of `fma`s: each fma negates its product or its
    /// addend itself (VFNMADD, VFMSUB, VFNMSUB), reading the negated value.
    negated: SecondaryMap<Value, Option<Value>>,
    /// The offsets of the module's `__local` variables.
    locals: &'a LocalOffsets,
    /// The instruction sets the code is for.
    pub(super) isa: Isa,
    /// `__local` and `__private` addresses clamped into their region's window where they are
    /// defined, so that the accesses through them are not confined one by one
    /// ([`Plan::find_clamped`]): the space.
    clamped: SecondaryMap<Value, Option<AddrSpace>>,
    /// Whether the function reaches `__local` memory through addresses it confines by a mask:
    /// the region's base and mask then stay in two registers for all of it
    /// (`alloc::LOCAL_BASE`).
    local_regs: bool,
}

impl<'a> Plan<'a> {
    /// Checks every instruction and value of `f` and records what allocation needs.
    fn new(f: &Function, locals: &'a LocalOffsets, isa: Isa) -> Result<Plan<'a>, String> {
        let mut plan = Plan {
            locals,
            isa,
            local_regs: false,
            class: SecondaryMap::new(),
            remat: SecondaryMap::new(),
            uses: SecondaryMap::new(),
            reads: SecondaryMap::new(),
            any: SecondaryMap::new(),
            folded: SecondaryMap::new(),
            fused: SecondaryMap::new(),
            negated: SecondaryMap::new(),
            in_memory: SecondaryMap::new(),
            all_of: SecondaryMap::new(),
            addresses: SecondaryMap::new(),
            clamped: SecondaryMap::new(),
            widened: SecondaryMap::new(),
            divided: SecondaryMap::new(),
            counted: SecondaryMap::new(),
            scaled: SecondaryMap::new(),
            broadcast: SecondaryMap::new(),
            gathered: SecondaryMap::new(),
        };
        let blocks = f.layout.blocks();
        let Some(&entry) = blocks.first() else {
            return Err("no body".into());
        };
        let raw = reads_of(f);
        plan.find_deferred(f, &raw);
        plan.find_gathered(f, &raw);
        for (bi, &b) in blocks.iter().enumerate() {
            for &p in f.dfg.block_params(b) {
                plan.classify(f, p)?;
            }
            for &inst in f.layout.block_insts(b) {
                let data = &f.dfg.insts[inst];
                if plan.folded[inst] {
                    continue;
                }
                let reads_counted = matches!(data.op, Op::Convert(_))
                    && plan.counted[f.dfg.resolve(data.args[0])].is_some();
                let divided = f.dfg.inst_result(inst).and_then(|r| plan.divided[r]);
                if !reads_counted && divided.is_none() {
                    check_op(f, inst, isa)?;
                }
                let gathered = f
                    .dfg
                    .inst_result(inst)
                    .and_then(|r| plan.gathered[r].clone());
                let own = match (divided, gathered) {
                    (Some((x, _, _)), _) => Some(vec![x]),
                    // The addresses of the loads it is made from.
                    (None, Some(loads)) => Some(
                        loads
                            .iter()
                            .map(|&l| f.dfg.resolve(f.dfg.insts[l].args[0]))
                            .flat_map(|a| plan.deferred(f, a).unwrap_or_else(|| vec![a]))
                            .collect(),
                    ),
                    (None, None) => f.dfg.inst_result(inst).and_then(|r| plan.deferred(f, r)),
                };
                let reads: Vec<Value> = match own {
                    Some(reads) => reads,
                    None => data
                        .all_args()
                        .into_iter()
                        .map(|a| f.dfg.resolve(a))
                        .flat_map(|a| plan.deferred(f, a).unwrap_or_else(|| vec![a]))
                        .collect(),
                };
                for &a in &reads {
                    plan.uses[a] += 1;
                    plan.classify(f, a)?;
                }
                for d in data.op.dests() {
                    if d.block == entry {
                        return Err("a branch to the entry block".into());
                    }
                }
                if let Some(r) = f.dfg.inst_result(inst) {
                    let constant = matches!(data.op, Op::Iconst(_) | Op::Fconst(_) | Op::Vconst(_));
                    if constant && class_of(f.dfg.value_type(r), isa).is_none() {
                        // A constant of no class (the shift of a widened vector's lanes):
                        // refused where something reads it.
                        plan.reads[inst] = reads;
                        continue;
                    }
                    plan.classify(f, r)?;
                    plan.remat[r] = match data.op {
                        // A mask constant too: `kxorw`/`kxnorw` where it is read, rather than
                        // a mask register held from its definition on (OpenCV's `exp` over
                        // `float4` kept a zero mask and three undefined ones live through its
                        // loop, four of the six registers).
                        Op::Iconst(_) | Op::Null | Op::Undef => {
                            matches!(plan.class[r], Some(Class::Gpr | Class::Mask))
                        }
                        Op::GlobalAddr(_) => true,
                        // A query of the group's context (the local size a chunk loop's test
                        // reads each trip) is not: in a register, or in a spill slot read by
                        // one load, where rebuilding it took two. 2 cores, in turns: scan
                        // 1.68-1.70 ms against 1.97-2.03, copy 3.70-3.79 against 4.17-4.34
                        // in one series, the rest alike.
                        _ => plan.deferred(f, r).is_some(),
                    } || (matches!(data.op, Op::Fconst(_) | Op::Iconst(_))
                        && plan.class[r] == Some(Class::Vec)
                        && !is_mask(f.dfg.value_type(r))
                        // (Rebuilt from 32 bits where read: an `f64` is made once.)
                        && f.dfg.value_type(r).lane_type() != Type::F64)
                        || (data.op == Op::Undef && plan.class[r] == Some(Class::Vec));
                }
                plan.reads[inst] = reads;
            }
            let _ = bi;
        }
        plan.find_clamped(f);
        plan.local_regs = f.layout.blocks().iter().any(|&b| {
            f.layout.block_insts(b).iter().any(|&i| {
                let d = &f.dfg.insts[i];
                match d.op {
                    Op::Load(m) => {
                        m.space == AddrSpace::Local && !plan.unconfined(f, &m, d.args[0])
                    }
                    Op::Store(m) => {
                        m.space == AddrSpace::Local && !plan.unconfined(f, &m, d.args[1])
                    }
                    _ => false,
                }
            })
        });
        Ok(plan)
    }

    /// Finds the `__local` and `__private` addresses that are clamped once where they are
    /// defined (`Emitter::clamp`, as `codegen.rs` confines its shared bases): each is an
    /// instruction's result in a general register, read by nothing but three or more
    /// unconfined accesses of one of those spaces, made through it or through folded
    /// `ptradd`s of it by constants within `CLAMP_WINDOW`. The clamp is exact for an address
    /// within the window around the region, and the region's padding takes what lies beyond
    /// (`REGION_PADDING` in `lib.rs`), so the accesses need no mask of their own: two
    /// instructions fewer each (sgemm's tile loop makes 32 such accesses a chunk).
    fn find_clamped(&mut self, f: &Function) {
        let confinable = |m: &MemFlags| {
            (matches!(m.space, AddrSpace::Local | AddrSpace::Private) && !m.trusted)
                .then_some(m.space)
        };
        // Per value: how many times it is read at all, how many of those reads are clamped
        // accesses (directly, or through a folded `ptradd`), the accesses, and their space
        // (`None` inside once two spaces, or an access that must stay confined, are seen).
        let mut raw: SecondaryMap<Value, u32> = SecondaryMap::new();
        let mut through: SecondaryMap<Value, u32> = SecondaryMap::new();
        let mut accesses: SecondaryMap<Value, u32> = SecondaryMap::new();
        let mut space: SecondaryMap<Value, Option<Option<AddrSpace>>> = SecondaryMap::new();
        let note = |space: &mut SecondaryMap<Value, Option<Option<AddrSpace>>>, v, s| {
            space[v] = match space[v] {
                None => Some(s),
                Some(t) => Some(t.filter(|&t| Some(t) == s)),
            }
        };
        for &b in f.layout.blocks() {
            for &inst in f.layout.block_insts(b) {
                let d = &f.dfg.insts[inst];
                for a in d.all_args() {
                    raw[f.dfg.resolve(a)] += 1;
                }
                let (p, m) = match &d.op {
                    Op::Load(m) => (d.args[0], m),
                    Op::Store(m) => (d.args[1], m),
                    _ => continue,
                };
                let p = f.dfg.resolve(p);
                through[p] += 1;
                accesses[p] += 1;
                note(&mut space, p, confinable(m));
            }
        }
        for &b in f.layout.blocks() {
            for &inst in f.layout.block_insts(b) {
                let Some(r) = f.dfg.inst_result(inst) else {
                    continue;
                };
                if self.addresses[r].is_none() {
                    continue;
                }
                // A folded `ptradd`: its base read once by it, for all its accesses.
                let base = f.dfg.resolve(f.dfg.insts[inst].args[0]);
                let near = crate::codegen::constant_offset(f, r).is_some();
                let all = through[r] == raw[r];
                let s = space[r].flatten().filter(|_| near && all);
                note(&mut space, base, s);
                through[base] += 1;
                accesses[base] += accesses[r];
            }
        }
        for &b in f.layout.blocks() {
            for &inst in f.layout.block_insts(b) {
                let Some(q) = f.dfg.inst_result(inst) else {
                    continue;
                };
                let own_register = self.class[q] == Some(Class::Gpr)
                    && !self.remat[q]
                    && self.addresses[q].is_none();
                if own_register && through[q] == raw[q] && accesses[q] >= 3 {
                    self.clamped[q] = space[q].flatten();
                }
            }
        }
    }

    /// The space whose window `v` is clamped into where it is defined, if it is
    /// ([`Plan::find_clamped`]).
    pub(super) fn clamped(&self, v: Value) -> Option<AddrSpace> {
        self.clamped[v]
    }

    /// Whether an access with flags `m` through `p` needs no confining: trusted, or through a
    /// clamped address (or a folded `ptradd` of one).
    pub(super) fn unconfined(&self, f: &Function, m: &MemFlags, p: Value) -> bool {
        let p = f.dfg.resolve(p);
        let base = match self.addresses[p] {
            Some(i) => f.dfg.resolve(f.dfg.insts[i].args[0]),
            None => p,
        };
        m.trusted || self.clamped[base].is_some()
    }

    /// Finds the comparisons a branch makes itself, and the `bor` trees whose leaves are
    /// `extractlane` of every lane of one `i1x16` mask, each inner node read only by the
    /// tree: the last instruction of each becomes an `any` of the mask, the others fold away.
    fn find_deferred(&mut self, f: &Function, raw: &SecondaryMap<Value, u32>) {
        let mut as_fma: SecondaryMap<Value, u32> = SecondaryMap::new();
        let mut as_address: SecondaryMap<Value, u32> = SecondaryMap::new();
        let mut as_lane: SecondaryMap<Value, u32> = SecondaryMap::new();
        let mut as_offset: SecondaryMap<Value, u32> = SecondaryMap::new();
        let mut as_float: SecondaryMap<Value, u32> = SecondaryMap::new();
        for &b in f.layout.blocks() {
            for &inst in f.layout.block_insts(b) {
                let d = &f.dfg.insts[inst];
                let p = match d.op {
                    Op::Convert(
                        ConvOp::SintToFloat(Round::Rte) | ConvOp::UintToFloat(Round::Rte),
                    ) => {
                        as_float[f.dfg.resolve(d.args[0])] += 1;
                        continue;
                    }
                    Op::Fma => {
                        for &a in &d.args {
                            as_fma[f.dfg.resolve(a)] += 1;
                        }
                        continue;
                    }
                    Op::Load(_) => d.args[0],
                    Op::Store(_) => d.args[1],
                    Op::ExtractLane(_) => {
                        as_lane[f.dfg.resolve(d.args[0])] += 1;
                        continue;
                    }
                    _ => continue,
                };
                as_address[f.dfg.resolve(p)] += 1;
            }
        }
        // How many of each extension's reads are divisions' products (`division`).
        let mut extended: SecondaryMap<Value, u32> = SecondaryMap::new();
        // The vectors widened lane by lane (`widening`), and how many of each intermediate
        // value's reads their chains account for.
        let mut widenings = Vec::new();
        let mut chained: SecondaryMap<Value, u32> = SecondaryMap::new();
        for &b in f.layout.blocks() {
            for &inst in f.layout.block_insts(b) {
                let d = &f.dfg.insts[inst];
                let Some(r) = f.dfg.inst_result(inst) else {
                    continue;
                };
                let float = f.dfg.value_type(r).lane_type() == Type::F32;
                if d.op == Op::Unary(UnaryOp::Fneg) && float && raw[r] > 0 && as_fma[r] == raw[r] {
                    self.negated[r] = Some(f.dfg.resolve(d.args[0]));
                }
                let wide_offset =
                    d.op == Op::PtrAdd && f.dfg.value_type(f.dfg.resolve(d.args[1])) == Type::I64;
                if wide_offset && raw[r] > 0 && as_address[r] == raw[r] {
                    self.addresses[r] = Some(inst);
                    as_offset[f.dfg.resolve(d.args[1])] += 1;
                }
                if let Some((x, lanes)) = counting(f, inst, self.isa) {
                    let splat = f.dfg.resolve(d.args[0]);
                    let splat = if splat == lanes {
                        f.dfg.resolve(d.args[1])
                    } else {
                        splat
                    };
                    if raw[r] > 0 && as_float[r] == raw[r] && raw[splat] == 1 {
                        self.counted[r] = Some((x, lanes));
                        self.folded[inst] = true;
                        if let Some(i) = def_inst(f, splat) {
                            self.folded[i] = true;
                        }
                    }
                }
                if let Some((x, m, s, own, z)) = division(f, inst, self.isa) {
                    if own.iter().all(|&v| raw[v] == 1) {
                        self.divided[r] = Some((x, m, s));
                        for v in own {
                            if let Some(i) = def_inst(f, v) {
                                self.folded[i] = true;
                            }
                        }
                        extended[z] += 1;
                    }
                }
                if let Some((w, folds)) = widening(f, inst) {
                    if as_lane[r] == raw[r] {
                        for &(v, n) in &folds {
                            chained[v] += n;
                        }
                        widenings.push((inst, r, w, folds));
                    }
                }
            }
        }
        // A widened vector whose intermediate values are read only by such chains (a base
        // index's splat shared by the offsets of several gathers). A chain that fails takes
        // its reads out of the counts, which may fail another sharing a value with it: until
        // none fails.
        loop {
            let before = widenings.len();
            widenings.retain(|(_, _, _, folds)| {
                let keep = folds.iter().all(|&(v, _)| raw[v] == chained[v]);
                if !keep {
                    for &(v, n) in folds {
                        chained[v] -= n;
                    }
                }
                keep
            });
            if widenings.len() == before {
                break;
            }
        }
        for (inst, r, w, folds) in widenings {
            self.widened[r] = Some(w);
            self.folded[inst] = true;
            for (v, _) in folds {
                if let Some(i) = def_inst(f, v) {
                    self.folded[i] = true;
                }
            }
        }
        for (z, &n) in extended.iter() {
            if n > 0 && n == raw[z] {
                if let Some(i) = def_inst(f, z) {
                    self.folded[i] = true;
                }
            }
        }
        for &b in f.layout.blocks() {
            for &inst in f.layout.block_insts(b) {
                let d = &f.dfg.insts[inst];
                let Some(r) = f.dfg.inst_result(inst) else {
                    continue;
                };
                if f.dfg.value_type(r) != Type::I64 || raw[r] == 0 || as_offset[r] != raw[r] {
                    continue;
                }
                let k = d
                    .args
                    .get(1)
                    .and_then(|&a| f.dfg.iconst_value(f.dfg.resolve(a)));
                let shift = match (&d.op, k) {
                    (Op::Binary(BinaryOp::Shl), Some(k @ 1..=3)) => k,
                    (Op::Binary(BinaryOp::Imul), Some(c @ (2 | 4 | 8))) => {
                        u64::from(c.trailing_zeros())
                    }
                    _ => continue,
                };
                self.scaled[r] = Some((f.dfg.resolve(d.args[0]), 1 << shift));
                self.folded[inst] = true;
            }
        }
        for &b in f.layout.blocks() {
            let insts = f.layout.block_insts(b);
            for (at, &inst) in insts.iter().enumerate() {
                let d = &f.dfg.insts[inst];
                let Some(x) = (d.op == Op::Splat).then(|| f.dfg.resolve(d.args[0])) else {
                    continue;
                };
                let Some(load) = def_inst(f, x) else {
                    continue;
                };
                let Op::Load(m) = f.dfg.insts[load].op else {
                    continue;
                };
                let bits32 = matches!(f.dfg.value_type(x), Type::F32 | Type::I32);
                let Some(from) = insts[..at].iter().position(|&i| i == load) else {
                    continue;
                };
                let quiet = insts[from + 1..at].iter().all(|&i| {
                    f.dfg.insts[i].op.is_pure() || matches!(f.dfg.insts[i].op, Op::Load(_))
                });
                if bits32 && !m.volatile && raw[x] == 1 && quiet {
                    self.broadcast[x] = Some(load);
                    self.folded[load] = true;
                    let Some(s) = f.dfg.inst_result(inst) else {
                        continue;
                    };
                    // The splat's one reader, later in the block, reading it second.
                    let reader = insts[at + 1..]
                        .iter()
                        .position(|&i| f.dfg.insts[i].args.iter().any(|&a| f.dfg.resolve(a) == s))
                        .map(|k| at + 1 + k);
                    let Some(u) = reader else {
                        continue;
                    };
                    let user = &f.dfg.insts[insts[u]];
                    let two = user.args.len() == 2;
                    let second =
                        two && f.dfg.resolve(user.args[1]) == s && f.dfg.resolve(user.args[0]) != s;
                    // Or first, of an operation that takes it second as well.
                    let first = two
                        && commutes(&user.op)
                        && f.dfg.resolve(user.args[0]) == s
                        && f.dfg.resolve(user.args[1]) != s;
                    let quiet = insts[at + 1..u].iter().all(|&i| {
                        f.dfg.insts[i].op.is_pure() || matches!(f.dfg.insts[i].op, Op::Load(_))
                    });
                    let wide = f.dfg.value_type(s).bytes() >= 16;
                    // VEX has no broadcast memory operands.
                    let evex = self.isa == Isa::Avx512;
                    if evex
                        && raw[s] == 1
                        && (second || first)
                        && quiet
                        && wide
                        && reads_memory_operand(&user.op)
                    {
                        self.in_memory[s] = Some(load);
                    }
                }
            }
        }
        // Comparisons read only where branches decide, as their conditions or as the leaves
        // of the conjunctions they branch on: made again at each (`cmp`, `jcc`), never
        // materialized.
        let mut at_branch: SecondaryMap<Value, u32> = SecondaryMap::new();
        for &b in f.layout.blocks() {
            let t = f.layout.last_inst(b).expect("a terminator");
            let Op::Brif(_) = f.dfg.insts[t].op else {
                continue;
            };
            let c = f.dfg.resolve(f.dfg.insts[t].args[0]);
            at_branch[c] += 1;
            let Some(i) = def_inst(f, c) else {
                continue;
            };
            if raw[c] == 1 && f.dfg.insts[i].op == Op::Binary(BinaryOp::Band) {
                if let Some((leaves, inner)) = comparison_tree(f, raw, i) {
                    for j in inner {
                        self.folded[j] = true;
                    }
                    for &j in &leaves {
                        if let Some(r) = f.dfg.inst_result(j) {
                            at_branch[r] += 1;
                        }
                    }
                    self.all_of[c] = Some(leaves);
                }
            }
        }
        // And comparisons read as the scalar condition of a choice between masks (a loop's
        // uniform `i < n` and its lanes' own test): compared where the choice is made.
        for &b in f.layout.blocks() {
            for &i in f.layout.block_insts(b) {
                let d = &f.dfg.insts[i];
                let mask = f
                    .dfg
                    .inst_result(i)
                    .is_some_and(|r| class_of(f.dfg.value_type(r), self.isa) == Some(Class::Mask));
                if d.op == Op::Select && mask {
                    at_branch[f.dfg.resolve(d.args[0])] += 1;
                }
            }
        }
        for &b in f.layout.blocks() {
            for &i in f.layout.block_insts(b) {
                let d = &f.dfg.insts[i];
                let Some(c) = f.dfg.inst_result(i) else {
                    continue;
                };
                let Some(&a) = d.args.first() else {
                    continue;
                };
                let operand = f.dfg.value_type(f.dfg.resolve(a));
                let scalar = !operand.is_vector() && (operand.is_int() || operand.is_ptr());
                if matches!(d.op, Op::Icmp(_)) && scalar && raw[c] > 0 && at_branch[c] == raw[c] {
                    self.fused[c] = Some(i);
                }
            }
        }
        for &b in f.layout.blocks().iter().rev() {
            for &inst in f.layout.block_insts(b).iter().rev() {
                let data = &f.dfg.insts[inst];
                let Some(root) = f.dfg.inst_result(inst) else {
                    continue;
                };
                let all = match data.op {
                    Op::Binary(BinaryOp::Bor) => false,
                    Op::Binary(BinaryOp::Band) => true,
                    _ => continue,
                };
                if self.folded[inst] || f.dfg.value_type(root) != Type::I1 {
                    continue;
                }
                if let Some((mask, inner)) = lane_tree(f, raw, inst) {
                    self.any[root] = Some((mask, all));
                    for i in inner {
                        self.folded[i] = true;
                    }
                }
            }
        }
    }

    /// The mask whose any-lane test `v` is, if it is one, and whether the test is whether
    /// every lane is set instead.
    pub(super) fn any_of(&self, v: Value) -> Option<(Value, bool)> {
        self.any[v]
    }

    /// The index and scale of folded-address offset `v`, where it is an index scaled.
    pub(super) fn scaled(&self, v: Value) -> Option<(Value, u8)> {
        self.scaled[v]
    }

    /// The `ptradd` that accesses through `v` fold into their addressing, if `v` is one.
    pub(super) fn folded_address(&self, v: Value) -> Option<Inst> {
        self.addresses[v]
    }

    /// The 32-bit vector whose lanes `v`'s are, extended (signed or not), where `v` is one of
    /// the vectors only read lane by lane.
    pub(super) fn widened(&self, v: Value) -> Option<Widened> {
        self.widened[v]
    }

    /// [`division`]'s dividend, multiplier and shift, where `v` is such a quotient.
    pub(super) fn divided(&self, v: Value) -> Option<(Value, u32, u8)> {
        self.divided[v]
    }

    /// Where `v` is a vector of 64-bit lanes made where a conversion to `float` reads it: the
    /// 64-bit scalar and the constant vector added to it.
    pub(super) fn counted(&self, v: Value) -> Option<(Value, Value)> {
        self.counted[v]
    }

    /// The load a splat of `v` broadcasts from memory, where `v` is one.
    pub(super) fn broadcast_load(&self, v: Value) -> Option<Inst> {
        self.broadcast[v]
    }

    /// The comparison made where `v` is read (by branches and choices between masks), if `v`
    /// is one.
    pub(super) fn fused(&self, v: Value) -> Option<Inst> {
        self.fused[v]
    }

    /// The comparisons that branch condition `v` is the conjunction of, where it is one.
    pub(super) fn all_of(&self, v: Value) -> Option<&[Inst]> {
        self.all_of[v].as_deref()
    }

    /// The load whose lane splat `v` broadcasts where its reader reads it from memory.
    pub(super) fn in_memory(&self, v: Value) -> Option<Inst> {
        self.in_memory[v]
    }

    /// The value `v` is the negation of, where every fma reading `v` negates it itself.
    pub(super) fn negated(&self, v: Value) -> Option<Value> {
        self.negated[v]
    }

    /// What reading `v` reads where `v` is computed where it is read (an any-lane test, a
    /// fused comparison): the mask, the comparison's operands.
    fn deferred(&self, f: &Function, v: Value) -> Option<Vec<Value>> {
        if let Some(w) = self.widened[v] {
            return Some(
                std::iter::once(w.from)
                    .chain(w.addends.into_iter().flatten())
                    .collect(),
            );
        }
        if let Some((x, _)) = self.counted[v] {
            return Some(vec![x]);
        }
        if let Some(load) = self.broadcast[v] {
            let p = f.dfg.resolve(f.dfg.insts[load].args[0]);
            return Some(self.deferred(f, p).unwrap_or_else(|| vec![p]));
        }
        if let Some(leaves) = &self.all_of[v] {
            let args = leaves.iter().flat_map(|&i| f.dfg.insts[i].args.iter());
            return Some(args.map(|&a| f.dfg.resolve(a)).collect());
        }
        if let Some(load) = self.in_memory[v] {
            let x = f.dfg.resolve(f.dfg.insts[load].args[0]);
            return Some(self.deferred(f, x).unwrap_or_else(|| vec![x]));
        }
        if let Some(x) = self.negated[v] {
            return Some(self.deferred(f, x).unwrap_or_else(|| vec![x]));
        }
        if let Some(i) = self.fused[v].or(self.addresses[v]) {
            return Some(
                f.dfg.insts[i]
                    .args
                    .iter()
                    .map(|&a| f.dfg.resolve(a))
                    .map(|a| self.scaled[a].map_or(a, |(x, _)| x))
                    .collect(),
            );
        }
        self.any[v].map(|(m, _)| vec![m])
    }

    fn classify(&mut self, f: &Function, v: Value) -> Result<(), String> {
        if self.class[v].is_none() {
            let ty = f.dfg.value_type(v);
            let Some(c) = class_of(ty, self.isa) else {
                return Err(format!("{v}: type {ty}"));
            };
            if self.isa == Isa::Avx2 && ty.bits() > 256 {
                return Err(format!("{v}: type {ty} is wider than a ymm register"));
            }
            self.class[v] = Some(c);
        }
        Ok(())
    }

    pub(super) fn class(&self, v: Value) -> Class {
        self.class[v].expect("classified")
    }

    /// Whether `v` lives in a register: it is read somewhere and not rematerialized.
    pub(super) fn needs_register(&self, v: Value) -> bool {
        self.uses[v] > 0 && !self.remat[v]
    }

    pub(super) fn is_remat(&self, v: Value) -> bool {
        self.remat[v]
    }

    /// Whether `alloc::LOCAL_BASE` and `alloc::LOCAL_MASK` hold the `__local` region's base
    /// and mask throughout.
    pub(super) fn local_regs(&self) -> bool {
        self.local_regs
    }

    pub(super) fn uses(&self, v: Value) -> u32 {
        self.uses[v]
    }

    /// The offset of `__local` variable `g` in the group's local memory.
    pub(super) fn local_offset(&self, g: Global) -> Option<u32> {
        self.locals[g]
    }

    /// The values `inst` reads, resolved.
    pub(super) fn reads(&self, inst: Inst) -> &[Value] {
        &self.reads[inst]
    }

    /// The loads, in lane order, that vector `v` is made from where it is one of
    /// [`Plan::gathered`]'s.
    pub(super) fn gathered(&self, v: Value) -> Option<&[Inst]> {
        self.gathered[v].as_deref()
    }

    /// Finds the vectors [`Plan::gathered`] describes: chains of `insertlane`s, each read only
    /// by the next as the vector it inserts into, that set every lane of a vector of 4 or 8
    /// lanes of 4 bytes, or of 2, 4 or 8 lanes of 8 bytes, once, each from a load of the
    /// chain's block read by nothing else. Lane by lane, each insertion took a load, a mask
    /// made in a general register and moved to `k7`, a copy and a masked broadcast
    /// (CLBlast's `XgemmDirect` reads its `__local` tiles so: 72 lanes a trip of its loop in
    /// `double`); made 16 bytes at a time, a lane takes one load.
    fn find_gathered(&mut self, f: &Function, raw: &SecondaryMap<Value, u32>) {
        for &b in f.layout.blocks() {
            let insts = f.layout.block_insts(b);
            let at: std::collections::HashMap<Inst, usize> =
                insts.iter().enumerate().map(|(k, &i)| (i, k)).collect();
            // An insertion whose result goes on to another insertion is not a chain's root.
            let mut inner: std::collections::HashSet<Value> = std::collections::HashSet::new();
            for &i in insts {
                if matches!(f.dfg.insts[i].op, Op::InsertLane(_)) {
                    inner.insert(f.dfg.resolve(f.dfg.insts[i].args[0]));
                }
            }
            for (k, &root) in insts.iter().enumerate() {
                let Some(r) = f.dfg.inst_result(root) else {
                    continue;
                };
                let ty = f.dfg.value_type(r);
                let fits = match ty.lane_type() {
                    Type::F32 | Type::I32 => matches!(ty.lanes(), 4 | 8 | 16),
                    Type::F64 | Type::I64 => matches!(ty.lanes(), 2 | 4 | 8),
                    _ => false,
                };
                if !matches!(f.dfg.insts[root].op, Op::InsertLane(_)) || !fits || inner.contains(&r)
                {
                    continue;
                }
                let lanes = ty.lanes() as usize;
                let mut loads: Vec<Option<Inst>> = vec![None; lanes];
                let mut chain = Vec::new();
                let mut first = k;
                let mut cur = root;
                let complete = loop {
                    let d = &f.dfg.insts[cur];
                    let Op::InsertLane(n) = d.op else {
                        break false;
                    };
                    let x = f.dfg.resolve(d.args[1]);
                    let load = def_inst(f, x).filter(|&l| {
                        matches!(f.dfg.insts[l].op, Op::Load(m)
                            if !m.volatile && accessible(m.space, m.trusted))
                            && raw[x] == 1
                            && at.contains_key(&l)
                    });
                    let (Some(load), Some(slot)) = (load, loads.get_mut(usize::from(n))) else {
                        break false;
                    };
                    if slot.is_some() || f.dfg.value_type(x) != ty.lane_type() {
                        break false;
                    }
                    *slot = Some(load);
                    chain.push(cur);
                    first = first.min(at[&load]);
                    if loads.iter().all(Option::is_some) {
                        break true;
                    }
                    let v = f.dfg.resolve(d.args[0]);
                    match def_inst(f, v) {
                        Some(prev) if raw[v] == 1 && at.contains_key(&prev) => cur = prev,
                        _ => break false,
                    }
                };
                // Nothing between the first load and the root writes memory or synchronizes:
                // the loads move down to the root.
                let quiet = insts[first..k].iter().all(|&i| {
                    f.dfg.insts[i].op.is_pure() || matches!(f.dfg.insts[i].op, Op::Load(_))
                });
                if !complete || !quiet {
                    continue;
                }
                let loads: Vec<Inst> = loads.into_iter().flatten().collect();
                for &i in chain.iter().skip(1).chain(&loads) {
                    self.folded[i] = true;
                }
                self.gathered[r] = Some(loads);
            }
        }
    }
}

/// The leaves and the inner nodes of the `band` tree at `root` (its inner nodes read only by
/// it) whose leaves are comparisons of scalar integers or pointers: at most eight.
fn comparison_tree(
    f: &Function,
    raw: &SecondaryMap<Value, u32>,
    root: Inst,
) -> Option<(Vec<Inst>, Vec<Inst>)> {
    let (mut leaves, mut inner) = (Vec::new(), Vec::new());
    let mut stack: Vec<Value> = f.dfg.insts[root]
        .args
        .iter()
        .map(|&a| f.dfg.resolve(a))
        .collect();
    while let Some(v) = stack.pop() {
        let i = def_inst(f, v)?;
        let d = &f.dfg.insts[i];
        if leaves.len() + stack.len() >= 8 {
            return None;
        }
        match d.op {
            Op::Binary(BinaryOp::Band) if raw[v] == 1 => {
                inner.push(i);
                stack.extend(d.args.iter().map(|&a| f.dfg.resolve(a)));
            }
            Op::Icmp(_) => {
                let t = f.dfg.value_type(f.dfg.resolve(d.args[0]));
                if t.is_vector() || !(t.is_int() || t.is_ptr()) {
                    return None;
                }
                leaves.push(i);
            }
            _ => return None,
        }
    }
    Some((leaves, inner))
}

/// The mask a tree of `bor`s (or of `band`s, as `root` is) tests every lane of, and the
/// tree's instructions below the root that nothing else reads; `raw` counts each value's
/// readers.
fn lane_tree(
    f: &Function,
    raw: &SecondaryMap<Value, u32>,
    root: Inst,
) -> Option<(Value, Vec<Inst>)> {
    let mut lanes = 0u32;
    let mut mask = None;
    let mut inner = Vec::new();
    let resolve = |a: &Value| f.dfg.resolve(*a);
    let op = f.dfg.insts[root].op.clone();
    let mut stack: Vec<Value> = f.dfg.insts[root].args.iter().map(resolve).collect();
    while let Some(v) = stack.pop() {
        let i = def_inst(f, v)?;
        let d = &f.dfg.insts[i];
        match d.op {
            ref o if *o == op && raw[v] == 1 => {
                inner.push(i);
                stack.extend(d.args.iter().map(resolve));
            }
            Op::ExtractLane(n) => {
                let m = f.dfg.resolve(d.args[0]);
                let t = f.dfg.value_type(m);
                if t.lane_type() != Type::I1 || mask.is_some_and(|x| x != m) {
                    return None;
                }
                mask = Some(m);
                lanes |= 1 << n;
                if raw[v] == 1 {
                    inner.push(i);
                }
            }
            _ => return None,
        }
    }
    let width = f.dfg.value_type(mask?).lanes();
    (width <= 16 && lanes == (1 << width) - 1).then_some((mask?, inner))
}

/// The offset of the group context field work-item query `op` reads, for the queries that
/// are one field.
pub(super) fn ctx_field(op: WorkItemOp) -> Option<i32> {
    use crate::abi::offsets;
    Some(match op {
        WorkItemOp::WorkDim => offsets::WORK_DIM,
        WorkItemOp::GlobalSize => offsets::GLOBAL_SIZE,
        WorkItemOp::LocalSize => offsets::LOCAL_SIZE,
        WorkItemOp::EnqueuedLocalSize => offsets::ENQUEUED_LOCAL_SIZE,
        WorkItemOp::NumGroups => offsets::NUM_GROUPS,
        WorkItemOp::GroupId => offsets::GROUP_ID,
        WorkItemOp::GlobalOffset => offsets::GLOBAL_OFFSET,
        _ => return None,
    })
}

/// Whether the tier can make a load or store of `space`: `__global` and `__constant`
/// accesses are not confined on the CPU device (as in `codegen.rs`), `__local` and
/// `__private` ones the tier confines as it does (`emit.rs`), and the work-group transform's
/// trusted accesses of its context stay in it by construction. Generic ones are refused.
fn accessible(space: AddrSpace, trusted: bool) -> bool {
    matches!(
        space,
        AddrSpace::Global | AddrSpace::Constant | AddrSpace::Local | AddrSpace::Private
    ) || trusted
}

/// A vector of 64-bit lanes made from one of 32-bit lanes and read only lane by lane
/// (`Plan::widened`): each lane of `from` extended (signed or not), plus the `addends` (64-bit
/// scalars, splatted) there are, shifted left by `shift`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Widened {
    pub from: Value,
    pub signed: bool,
    pub addends: [Option<Value>; 2],
    pub shift: u8,
}

/// `v` as `ext(x)` plus up to two splatted scalars (`ext(x) + splat(b)`, a gather's offsets
/// from a base index; `splat(a) + ext(x) + splat(b)`, from two), unshifted, and the values
/// folded with the reads of each the sum accounts for (`ext(x)` and each inner sum read once
/// by the next sum, each splat once).
fn widened_sum(f: &Function, v: Value) -> Option<(Widened, Vec<(Value, u32)>)> {
    let i = def_inst(f, v)?;
    let d = &f.dfg.insts[i];
    if let Op::Convert(c @ (ConvOp::Zext | ConvOp::Sext)) = d.op {
        let from = f.dfg.resolve(d.args[0]);
        let w = Widened {
            from,
            signed: c == ConvOp::Sext,
            addends: [None, None],
            shift: 0,
        };
        return (f.dfg.value_type(from).lane_type() == Type::I32).then_some((w, Vec::new()));
    }
    if d.op != Op::Binary(BinaryOp::Iadd) {
        return None;
    }
    let splatted = |x: Value| {
        let j = def_inst(f, x)?;
        (f.dfg.insts[j].op == Op::Splat).then(|| f.dfg.resolve(f.dfg.insts[j].args[0]))
    };
    let (a, b) = (f.dfg.resolve(d.args[0]), f.dfg.resolve(d.args[1]));
    let (inner, splat, scalar) = match (splatted(b), splatted(a)) {
        (Some(k), _) => (a, b, k),
        (None, Some(k)) => (b, a, k),
        (None, None) => return None,
    };
    let (mut w, mut folds) = widened_sum(f, inner)?;
    let slot = w.addends.iter_mut().find(|x| x.is_none())?;
    *slot = Some(scalar);
    folds.push((inner, 1));
    folds.push((splat, 1));
    Some((w, folds))
}

/// Where `inst` makes a vector of 64-bit lanes from one of 32-bit lanes: an extension plus
/// up to two splatted scalars (`widened_sum`), then perhaps shifted left by a constant (a
/// shift or a product by `2^k`): the [`Widened`] form, and the intermediate values with the
/// reads of each this chain accounts for.
fn widening(f: &Function, inst: Inst) -> Option<(Widened, Vec<(Value, u32)>)> {
    let d = &f.dfg.insts[inst];
    let r = f.dfg.inst_result(inst)?;
    let ty = f.dfg.value_type(r);
    if !(ty.is_vector() && ty.lane_type() == Type::I64) {
        return None;
    }
    if matches!(
        d.op,
        Op::Convert(ConvOp::Zext | ConvOp::Sext) | Op::Binary(BinaryOp::Iadd)
    ) {
        return widened_sum(f, r);
    }
    let (x, amount) = (f.dfg.resolve(d.args.first()?.to_owned()), d.args.get(1)?);
    let k = f.dfg.iconst_value(f.dfg.resolve(*amount))?;
    let shift = match d.op {
        Op::Binary(BinaryOp::Shl) if k < 32 => k as u8,
        Op::Binary(BinaryOp::Imul) if k.is_power_of_two() && k < 1 << 32 => {
            k.trailing_zeros() as u8
        }
        _ => return None,
    };
    let (w, mut folds) = widened_sum(f, x)?;
    folds.push((x, 1));
    Some((Widened { shift, ..w }, folds))
}

/// Where `inst` truncates to 32-bit lanes the quotient the work-group transform makes of an
/// unsigned division by a constant (`by_constant::divide`: `(zext(x) * m) >> p` in 64-bit
/// lanes, `m` below 2^32, `p` from 32 to 63), in code for AVX-512: `x`, `m`, `p - 32`, the
/// shift and the product (each read once there), and the extension `zext(x)` (which other
/// divisions of `x` may share). The quotient is `mul_hi(x, m) >> (p - 32)` in 32-bit lanes,
/// exactly: the product is below 2^64, and shifting by 32 and then by the rest drops the
/// same bits.
fn division(f: &Function, inst: Inst, isa: Isa) -> Option<(Value, u32, u8, [Value; 2], Value)> {
    let d = &f.dfg.insts[inst];
    let r = f.dfg.inst_result(inst)?;
    let ty = f.dfg.value_type(r);
    let to32 = d.op == Op::Convert(ConvOp::Trunc) && ty.is_vector() && ty.lane_type() == Type::I32;
    if isa != Isa::Avx512 || !to32 {
        return None;
    }
    let def = |v: Value| def_inst(f, v).map(|i| &f.dfg.insts[i]);
    let konst = |v: Value| f.dfg.iconst_value(f.dfg.resolve(v));
    let shifted = f.dfg.resolve(d.args[0]);
    let s = def(shifted)?;
    if s.op != Op::Binary(BinaryOp::Lshr) || !(32..64).contains(&konst(s.args[1])?) {
        return None;
    }
    let p = konst(s.args[1])?;
    let product = f.dfg.resolve(s.args[0]);
    let m = def(product)?;
    if m.op != Op::Binary(BinaryOp::Imul) {
        return None;
    }
    let (z, k) = match (konst(m.args[0]), konst(m.args[1])) {
        (None, Some(k)) => (f.dfg.resolve(m.args[0]), k),
        (Some(k), None) => (f.dfg.resolve(m.args[1]), k),
        _ => return None,
    };
    let e = def(z)?;
    let x = f.dfg.resolve(*e.args.first()?);
    if e.op != Op::Convert(ConvOp::Zext) || f.dfg.value_type(x) != ty || k >= 1 << 32 {
        return None;
    }
    Some((x, k as u32, (p - 32) as u8, [shifted, product], z))
}

/// Where `inst` is `iadd(splat(x), c)` (either way round) of 16 or 8 lanes of 64 bits, `x` a
/// scalar and `c` a constant vector, in code for AVX-512: `x` and `c`.
fn counting(f: &Function, inst: Inst, isa: Isa) -> Option<(Value, Value)> {
    let d = &f.dfg.insts[inst];
    let r = f.dfg.inst_result(inst)?;
    let ty = f.dfg.value_type(r);
    let lanes = |n: u32| Type::I64.vector(n);
    if isa != Isa::Avx512
        || d.op != Op::Binary(BinaryOp::Iadd)
        || (Some(ty) != lanes(16) && Some(ty) != lanes(8))
    {
        return None;
    }
    let (a, b) = (f.dfg.resolve(d.args[0]), f.dfg.resolve(d.args[1]));
    let vconst =
        |v: Value| def_inst(f, v).is_some_and(|i| matches!(f.dfg.insts[i].op, Op::Vconst(_)));
    let splat_of = |v: Value| {
        let i = def_inst(f, v)?;
        (f.dfg.insts[i].op == Op::Splat).then(|| f.dfg.resolve(f.dfg.insts[i].args[0]))
    };
    match (splat_of(a), splat_of(b)) {
        (Some(x), _) if vconst(b) => Some((x, b)),
        (_, Some(x)) if vconst(a) => Some((x, a)),
        _ => None,
    }
}

/// Refuses an instruction the tier does not cover, with the reason.
fn check_op(f: &Function, inst: Inst, isa: Isa) -> Result<(), String> {
    let class_of = |t: Type| class_of(t, isa);
    // The lanes of a mask the tier holds (`class_of`).
    let masked = |lanes: u32| Type::I1.vector(lanes).and_then(class_of).is_some();
    let data = &f.dfg.insts[inst];
    let ty = f.dfg.inst_result(inst).map(|r| f.dfg.value_type(r));
    let arg_ty = |i: usize| f.dfg.value_type(f.dfg.resolve(data.args[i]));
    let scalar_int = |t: Type| !t.is_vector() && (t.is_int() || t.is_ptr());
    let first = (!data.args.is_empty()).then(|| arg_ty(0));
    let f64_lanes = |t: Type| t.lane_type() == Type::F64;
    let reads_f64 = (0..data.args.len()).any(|i| f64_lanes(arg_ty(i)));
    if (ty.is_some_and(f64_lanes) || reads_f64)
        && !carries_f64(f, data, ty, isa)
        && !f64_op(f, data, ty, isa)
    {
        return Err(format!("{:?} of f64", data.op));
    }
    if ty.is_some_and(narrow_vector) || first.is_some_and(narrow_vector) {
        if !narrow_vector_op(&data.op, ty, first, isa) {
            if data.op == Op::Binary(BinaryOp::Imul) {
                return Err("a product of bytes: VPMOVWB has no AVX2 form".into());
            }
            return Err(format!("{:?} of vectors of narrow lanes", data.op));
        }
        // The tier's vector accesses move 4 bytes or more (`emit.rs`).
        let accessed = match data.op {
            Op::Load(_) => ty,
            Op::Store(_) => first,
            _ => None,
        };
        if accessed.is_some_and(|t| t.bytes() < 4) {
            return Err("an access of fewer than 4 bytes of narrow lanes".into());
        }
        if !matches!(data.op, Op::Load(_) | Op::Store(_)) {
            return Ok(());
        }
    }
    let ok = match &data.op {
        Op::Iconst(_) | Op::Fconst(_) | Op::Null | Op::Undef | Op::Vconst(_) => true,
        Op::WorkItem(op, _) => ctx_field(*op).is_some(),
        Op::Unary(u) => match u {
            // (`f64` lanes: `f64_op`.)
            u if exact_float_unary(*u) => {
                ty.is_some_and(|t| matches!(t.lane_type(), Type::F32 | Type::F64))
            }
            UnaryOp::Rsqrt => ty.is_some_and(|t| t.lane_type() == Type::F32),
            UnaryOp::Bnot => ty.is_some_and(|t| t.lane_type() == Type::I1 || t.is_int()),
            UnaryOp::Ineg | UnaryOp::Clz => {
                ty.is_some_and(|t| (scalar_int(t) && t != Type::I1) || t.lane_type() == Type::I32)
            }
            UnaryOp::Popcnt | UnaryOp::Ctz => ty.is_some_and(|t| scalar_int(t) && t != Type::I1),
            _ => false,
        },
        Op::Binary(b) => {
            let t = ty.unwrap_or(Type::I1);
            match b {
                BinaryOp::Fadd
                | BinaryOp::Fsub
                | BinaryOp::Fmul
                | BinaryOp::Fdiv
                | BinaryOp::FdivRelaxed => true,
                BinaryOp::Fmin | BinaryOp::Fmax => matches!(t.lane_type(), Type::F32 | Type::F64),
                BinaryOp::Iadd | BinaryOp::Isub | BinaryOp::Imul => t.lane_type() != Type::I1,
                BinaryOp::Band | BinaryOp::Bor | BinaryOp::Bxor => true,
                BinaryOp::Shl | BinaryOp::Lshr | BinaryOp::Ashr => {
                    scalar_int(t) || t.lane_type() == Type::I32
                }
                BinaryOp::Umin | BinaryOp::Umax => scalar_int(t) || t.lane_type() == Type::I32,
                BinaryOp::Udiv
                | BinaryOp::Urem
                | BinaryOp::Sdiv
                | BinaryOp::Srem
                | BinaryOp::Rotl => scalar_int(t) && t != Type::I1,
                BinaryOp::Umulhi | BinaryOp::Smulhi => {
                    (scalar_int(t) && t != Type::I1 && t.bits() <= 32) || t.lane_type() == Type::I32
                }
                BinaryOp::Smin | BinaryOp::Smax => {
                    (scalar_int(t) && !narrow(t)) || t.lane_type() == Type::I32
                }
                _ => false,
            }
        }
        Op::Fma => true,
        Op::Icmp(_) => {
            let t = arg_ty(0);
            scalar_int(t) || (t.is_vector() && t.lane_type() == Type::I32 && masked(t.lanes()))
        }
        Op::Fcmp(_) => {
            let t = arg_ty(0);
            matches!(t, Type::F32 | Type::F64) || (t.is_vector() && masked(t.lanes()))
        }
        Op::Select => true,
        Op::Convert(c) => {
            let (from, to) = (arg_ty(0), ty.unwrap_or(Type::I1));
            match c {
                ConvOp::SatInt { .. } => {
                    scalar_int(from) && scalar_int(to) && from != Type::I1 && to != Type::I1
                }
                ConvOp::Trunc | ConvOp::Zext | ConvOp::Sext => {
                    (scalar_int(from) && scalar_int(to) && to != Type::I1)
                        || (*c != ConvOp::Trunc
                            && is_mask(from)
                            && masked(from.lanes())
                            && to.lane_type() == Type::I32)
                }
                // (Between `float` and `double`: `f64_op`.)
                ConvOp::Fconv(_) => true,
                ConvOp::SintToFloat(Round::Rte) | ConvOp::UintToFloat(Round::Rte) => {
                    from.lane_type() == Type::I32
                        || (from == Type::I64 && !to.is_vector())
                        || (narrow(from) && to == Type::F32)
                }
                // Other roundings are embedded in the instruction: scalar and 512-bit forms.
                ConvOp::SintToFloat(_) | ConvOp::UintToFloat(_) => {
                    (from == Type::I32 || (from == Type::I64 && !to.is_vector()))
                        || (from.lane_type() == Type::I32 && to.lane_type() == Type::F64)
                        || (from.lane_type() == Type::I32 && from.lanes() == 16)
                }
                // (And scalars of 8 and 16 bits: converted to 32 and clamped, `emit.rs`.)
                ConvOp::FloatToUint { sat: true, .. } => {
                    from.lane_type() == Type::F32
                        && (to.lane_type() == Type::I32 || (from == Type::F32 && narrow(to)))
                }
                ConvOp::FloatToSint { .. } => {
                    from.lane_type() == Type::F32
                        && (to.lane_type() == Type::I32 || (from == Type::F32 && narrow(to)))
                }
                _ => false,
            }
        }
        Op::Bitcast => {
            let (from, to) = (arg_ty(0), ty.unwrap_or(Type::I1));
            (from == Type::F32 && to == Type::I32)
                || (from == Type::I32 && to == Type::F32)
                || (from.is_vector() && to.is_vector() && from.lane_type() != Type::I1)
        }
        Op::PtrToInt | Op::IntToPtr | Op::AddrCast => true,
        Op::InsertLane(_) => ty.is_some_and(|t| class_of(t) == Some(Class::Vec)),
        Op::PtrAdd => true,
        Op::Splat => true,
        Op::Shuffle(_) => {
            ty.is_some_and(|t| class_of(t) == Some(Class::Vec) && t.is_vector())
                && class_of(arg_ty(0)) == Some(Class::Vec)
                && arg_ty(0).is_vector()
        }
        Op::ExtractLane(_) => {
            // (A lane of 64 bits: of a vector extended from 32-bit lanes, `Plan::widened`;
            // any other such vector has no register class and is refused.)
            let t = arg_ty(0);
            t.lane_type() == Type::I1
                || t.lane_type() == Type::I64
                || (class_of(t) == Some(Class::Vec) && t.is_vector())
        }
        Op::Load(m) => {
            accessible(m.space, m.trusted) && ty.is_some_and(|t| t.lane_type() != Type::I1)
        }
        Op::Store(m) => accessible(m.space, m.trusted) && arg_ty(0).lane_type() != Type::I1,
        // A `__local` variable, or program-scope data (reached through a relocation).
        Op::GlobalAddr(_) => true,
        Op::Jump(_) | Op::Brif(_) | Op::Switch(_) | Op::Return => true,
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        let name = match f.dfg.inst_result(inst) {
            Some(r) => format!("{r} = {}", op_name(&data.op)),
            None => op_name(&data.op),
        };
        Err(format!(
            "{name} ({})",
            ty.map_or("no result".into(), |t| t.to_string())
        ))
    }
}

/// The operation's name for a refusal.
fn op_name(op: &Op) -> String {
    match op {
        Op::Unary(u) => u.name().into(),
        Op::Binary(b) => b.name().into(),
        Op::Convert(c) => format!("{c:?}"),
        Op::Load(m) => format!("load.{}", m.space.name()),
        Op::Store(m) => format!("store.{}", m.space.name()),
        other => {
            let s = format!("{other:?}");
            s.split(['(', ' ']).next().unwrap_or("").to_lowercase()
        }
    }
}

/// Whether `ty` is `i8` or `i16`: kept zero-extended to 32 bits in a general register.
pub(super) fn narrow(ty: Type) -> bool {
    ty == Type::I8 || ty == Type::I16
}

/// The instruction that defines `v`, if an instruction does.
pub(super) fn def_inst(f: &Function, v: Value) -> Option<Inst> {
    match f.dfg.value_def(v) {
        ValueDef::Result(i) => Some(i),
        _ => None,
    }
}
