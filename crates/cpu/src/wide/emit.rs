//! Instruction selection for the wide-vector tier: each IR instruction of the work-group
//! function becomes x86-64 instructions (`iced_x86::Instruction`s) on the registers
//! `alloc.rs` chose; branches carry their arguments to the target's parameters as parallel
//! moves on the edge; `iced_x86::BlockEncoder` lays out the branches and encodes.
//!
//! Vector operations are the EVEX forms of AVX-512 (with VL for 4 and 8 lanes); comparisons
//! write mask registers, selects blend under them. The function's frame: the callee-saved
//! registers it uses, pushed, then the group context's address at `[rsp]`; `r10` and `r11`,
//! `zmm30`, `zmm31` and `k7` are scratch.

use ferrocl_device::ArgSlot;
use ferrocl_ir::analysis::{Cfg, DomTree, LoopInfo};
use ferrocl_ir::entity::{EntitySet, SecondaryMap};
use ferrocl_ir::{
    AddrSpace, ArgKind, BinaryOp, Block, ConvOp, Dest, FloatCC, Function, Inst, IntCC, MemFlags,
    Op, SwitchTable, Type, UnaryOp, Value,
};
use iced_x86::{
    BlockEncoder, BlockEncoderOptions, Code, Formatter, GasFormatter, Instruction,
    InstructionBlock, MemoryOperand, Register,
};

use super::alloc::{
    Allocation, CALLEE_SAVED, LOCAL_BASE, LOCAL_MASK, SPILL_SCRATCH, VEC_SPILL_SCRATCH,
};
use super::regs::{r16, r32, r8, XMM, YMM, ZMM};
use super::{ctx_field, def_inst, is_mask, narrow, narrow_vector, vex, Class, Isa, Plan, WideCode};
use crate::abi::offsets;

/// `Instruction::withN` of the operands, pushed (iced's operand traits are its own).
macro_rules! op1 {
    ($e:expr, $c:expr, $a:expr) => {
        $e.ins(Instruction::with1($c, $a))
    };
}
macro_rules! op2 {
    ($e:expr, $c:expr, $a:expr, $b:expr) => {
        $e.ins(Instruction::with2($c, $a, $b))
    };
}
macro_rules! op3 {
    ($e:expr, $c:expr, $a:expr, $b:expr, $d:expr) => {
        $e.ins(Instruction::with3($c, $a, $b, $d))
    };
}
macro_rules! op4 {
    ($e:expr, $c:expr, $a:expr, $b:expr, $d:expr, $x:expr) => {
        $e.ins(Instruction::with4($c, $a, $b, $d, $x))
    };
}

const S0: Register = Register::R10;
const S1: Register = Register::R11;
const VS0: usize = 30;
const VS1: usize = 31;
const VS2: usize = 29;
const KS: Register = Register::K7;

type Res<T> = Result<T, String>;

/// Selects, encodes and formats the code of `f`.
pub(super) fn emit(
    f: &Function,
    plan: &Plan<'_>,
    alloc: &Allocation,
    layout: &[ArgSlot],
) -> Res<WideCode> {
    let mut e = Emitter {
        f,
        plan,
        alloc,
        code: Vec::new(),
        label_at: Vec::new(),
        pending: Vec::new(),
        fixups: Vec::new(),
        block_label: SecondaryMap::new(),
        block_start: Vec::new(),
        pinned: pin_constants(f, plan, alloc),
        data_relocs: Vec::new(),
        pool: Vec::new(),
        pool_refs: Vec::new(),
        streaming: streaming_stores(f, plan),
    };
    for &b in f.layout.blocks() {
        e.block_label[b] = e.new_label();
    }
    let saved: Vec<Register> = CALLEE_SAVED
        .iter()
        .copied()
        .filter(|r| {
            alloc.reg.iter().any(|(_, a)| *a == Some(*r))
                || (*r == SPILL_SCRATCH && alloc.slots > 0)
                || (plan.local_regs() && [LOCAL_BASE, LOCAL_MASK].contains(r))
        })
        .collect();
    e.prologue(&saved, layout)?;
    let blocks = f.layout.blocks();
    for (i, &b) in blocks.iter().enumerate() {
        let next = blocks.get(i + 1).copied();
        let l = e.block_label[b];
        e.bind(l);
        e.block_start.push((l, b));
        for &inst in f.layout.block_insts(b) {
            e.inst(inst, next, &saved)?;
        }
    }
    e.finish()
}

/// The mask instructions whose forms depend on a mask's lanes ([`Emitter::mask_codes`]).
struct MaskCodes {
    kortest: Code,
    knot: Code,
    kxnor: Code,
}

struct Emitter<'a> {
    f: &'a Function,
    plan: &'a Plan<'a>,
    alloc: &'a Allocation,
    code: Vec<Instruction>,
    /// The instruction each label is bound to.
    label_at: Vec<Option<usize>>,
    /// Labels bound to the next instruction pushed.
    pending: Vec<usize>,
    /// Branches and the label each targets.
    fixups: Vec<(usize, usize)>,
    block_label: SecondaryMap<Block, usize>,
    /// Each block's label, for the listing.
    block_start: Vec<(usize, Block)>,
    /// 32-bit constants broadcast once, in the prologue, to a vector register no value
    /// takes: by their bits, the register's number.
    pinned: Vec<(u32, usize)>,
    /// The `mov r64, imm64` instructions whose immediate is a global's address, by index.
    data_relocs: Vec<(usize, ferrocl_ir::Global)>,
    /// 64-byte constants placed after the code (shuffles' lane indices, vector constants).
    pool: Vec<[u32; 16]>,
    /// The instructions that read a pool entry (RIP-relative), by index, and the entry.
    pool_refs: Vec<(usize, usize)>,
    /// The stores that bypass the caches in a launch that streams ([`streaming_stores`]).
    streaming: EntitySet<Inst>,
}

/// The stores of `f` that a launch writing more than the caches hold streams to memory
/// (`vmovntps`, `Emitter::streaming_store`): whole vector registers of at least 32 bytes
/// (a chunk's lanes, half a cache line or a whole one) to `__global` memory, each at an
/// address that moves on in every trip of the innermost loop around it (the chunk loop's
/// next chunk, or a loop of the kernel's own writing along), into a buffer the function
/// does not read, in a function bound by memory (fewer vector operations than vector
/// accesses of `__global` memory, as `Measure::bound_by_memory` weighs them) without
/// atomics, fences or calls.
///
/// A plain store first reads the line it writes into the cache, so a copy's bytes cross the
/// memory bus three times for the two it moves, and the line then waits in the cache for
/// its eviction; a streaming store writes the line without reading it. On 2 cores of an
/// EPYC (Zen 1), two threads copying 64 MiB of floats in C: 8.5-9.1 ms with `vmovups`,
/// 6.6-6.9 with `vmovntps`. Where the launch writes less than the caches hold, what it
/// writes is better left there for the next launch to read: the launch decides
/// (`GroupCtx::streaming`). A store to one address in every trip of its loop (an
/// accumulation in memory, read back in the next trip) would wait for memory each time; atomics,
/// fences and calls order memory in ways a streaming store (weakly ordered) would not keep.
/// A buffer the function reads has the lines it writes in the cache already, and a streaming
/// store only evicts them: saxpy (`y = a * x + y`) ran 8.9-9.5 ms streamed against 8.4-8.8
/// on those 2 cores, in turns. A function bound by its arithmetic gains nothing from the
/// line not read, and its stores' lines in flight cost it: float4-poly (a degree-32
/// polynomial of each `float4`) ran 5.07-5.21 ms streamed against 4.40-4.62 plain (four
/// rounds in turns; triad and stencil-2d, streamed in both builds, alike).
fn streaming_stores(f: &Function, plan: &Plan<'_>) -> EntitySet<Inst> {
    let mut out = EntitySet::new();
    let m = super::measure(f, 0);
    if m.arithmetic >= m.accesses {
        return out;
    }
    let ordered = f.layout.blocks().iter().any(|&b| {
        f.layout.block_insts(b).iter().any(|&i| {
            matches!(
                f.dfg.insts[i].op,
                Op::AtomicRmw(..)
                    | Op::Cmpxchg(..)
                    | Op::AtomicLoad(_)
                    | Op::AtomicStore(_)
                    | Op::Fence(..)
                    | Op::Call(_)
            )
        })
    });
    if ordered {
        return out;
    }
    let mut read: EntitySet<Value> = EntitySet::new();
    for &b in f.layout.blocks() {
        for &i in f.layout.block_insts(b) {
            if let Op::Load(_) = f.dfg.insts[i].op {
                read.insert(base_of(f, f.dfg.insts[i].args[0]));
            }
        }
    }
    let cfg = Cfg::new(f);
    let dom = DomTree::new(f, &cfg);
    let loops = LoopInfo::new(&cfg, &dom);
    // Each block's innermost loop: inner loops come after the loops that contain them.
    let mut innermost: SecondaryMap<Block, Option<usize>> = SecondaryMap::new();
    for (n, lp) in loops.loops.iter().enumerate() {
        for &b in &lp.blocks {
            innermost[b] = Some(n);
        }
    }
    for &b in f.layout.blocks() {
        let Some(lp) = innermost[b].map(|n| &loops.loops[n]) else {
            continue;
        };
        for &i in f.layout.block_insts(b) {
            let data = &f.dfg.insts[i];
            let Op::Store(m) = &data.op else {
                continue;
            };
            let x = f.dfg.resolve(data.args[0]);
            let bytes = f.dfg.value_type(x).bytes();
            if m.space == AddrSpace::Global
                && !read.contains(base_of(f, data.args[1]))
                && plan.class(x) == Class::Vec
                && (bytes == 32 || bytes == 64)
                && moves_with(f, f.dfg.resolve(data.args[1]), &lp.blocks, lp.header)
            {
                out.insert(i);
            }
        }
    }
    out
}

/// The pointer address `p` is an offset from (through `ptradd`s).
fn base_of(f: &Function, p: Value) -> Value {
    let mut p = f.dfg.resolve(p);
    while let ferrocl_ir::ValueDef::Result(d) = f.dfg.value_def(p) {
        match f.dfg.insts[d].op {
            Op::PtrAdd => p = f.dfg.resolve(f.dfg.insts[d].args[0]),
            _ => break,
        }
    }
    p
}

/// Whether value `v` depends on a parameter of `header`, the header of the loop of `blocks`,
/// through values the loop computes: a value the loop does not compute is the same in every
/// trip.
fn moves_with(f: &Function, v: Value, blocks: &[Block], header: Block) -> bool {
    let blocks: EntitySet<Block> = blocks.iter().copied().collect();
    let inside = |b: Block| blocks.contains(b);
    let mut seen: EntitySet<Value> = EntitySet::new();
    let mut work = vec![v];
    while let Some(v) = work.pop() {
        if !seen.insert(v) {
            continue;
        }
        match f.dfg.value_def(v) {
            ferrocl_ir::ValueDef::Param(b, _) if b == header => return true,
            ferrocl_ir::ValueDef::Result(d) if f.layout.inst_block(d).is_some_and(inside) => {
                work.extend(f.dfg.insts[d].args.iter().map(|&a| f.dfg.resolve(a)));
            }
            _ => {}
        }
    }
    false
}

/// The 32-bit constants the function's vector code reads, most read first, each given one
/// of the vector registers `alloc` left free (a constant read from a register costs nothing
/// where it is read; one rebuilt there costs two instructions). Scalar `f32` constants are
/// among them: their other lanes are never read.
fn pin_constants(f: &Function, plan: &Plan<'_>, alloc: &Allocation) -> Vec<(u32, usize)> {
    let taken: std::collections::HashSet<usize> = alloc
        .reg
        .iter()
        .filter_map(|(_, r)| r.filter(|r| r.is_zmm()).map(super::regs::number))
        .collect();
    let free: Vec<usize> = (0..plan.isa.vecs())
        .filter(|n| !taken.contains(n))
        .collect();
    let mut reads: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
    for &b in f.layout.blocks() {
        for &inst in f.layout.block_insts(b) {
            let data = &f.dfg.insts[inst];
            for bits in hidden_constants(f, inst) {
                *reads.entry(bits).or_default() += 1;
            }
            let Some(r) = f.dfg.inst_result(inst) else {
                continue;
            };
            let (Op::Fconst(c) | Op::Iconst(c)) = data.op else {
                continue;
            };
            let bits = replicated(f.dfg.value_type(r), c as u32);
            if plan.is_remat(r) && plan.class[r] == Some(Class::Vec) && bits != 0 {
                *reads.entry(bits).or_default() += plan.uses(r);
            }
        }
    }
    let mut by_reads: Vec<(u32, u32)> = reads.into_iter().collect();
    by_reads.sort_by_key(|&(bits, n)| (std::cmp::Reverse(n), bits));
    by_reads
        .into_iter()
        .zip(free)
        .map(|((bits, _), r)| (bits, r))
        .collect()
}

/// The constants instruction `inst`'s selection reads that are not operands of it.
fn hidden_constants(f: &Function, inst: Inst) -> Vec<u32> {
    let data = &f.dfg.insts[inst];
    let Some(r) = f.dfg.inst_result(inst) else {
        return Vec::new();
    };
    let ty = f.dfg.value_type(r);
    // (`f64` operations read their constants from the pool: `Emitter::f64_inst`.)
    if !ty.is_vector() || ty.lane_type() == Type::F64 {
        return Vec::new();
    }
    match data.op {
        Op::Unary(UnaryOp::Fneg) => vec![0x8000_0000],
        Op::Unary(UnaryOp::Fabs) => vec![0x7fff_ffff],
        Op::Unary(UnaryOp::Rsqrt) => vec![1.0f32.to_bits()],
        Op::Convert(ConvOp::FloatToSint { .. }) => vec![0x4f00_0000, 0x7fff_ffff],
        Op::Binary(BinaryOp::Shl | BinaryOp::Lshr | BinaryOp::Ashr) => vec![31],
        _ => Vec::new(),
    }
}

/// A vector operation's codes for 128, 256 and 512 bits.
type Sized3 = [Code; 3];

const ADDPS: Sized3 = [
    Code::EVEX_Vaddps_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vaddps_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vaddps_zmm_k1z_zmm_zmmm512b32_er,
];
const SUBPS: Sized3 = [
    Code::EVEX_Vsubps_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vsubps_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vsubps_zmm_k1z_zmm_zmmm512b32_er,
];
const MULPS: Sized3 = [
    Code::EVEX_Vmulps_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vmulps_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vmulps_zmm_k1z_zmm_zmmm512b32_er,
];
const DIVPS: Sized3 = [
    Code::EVEX_Vdivps_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vdivps_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vdivps_zmm_k1z_zmm_zmmm512b32_er,
];
const RCP14PS: Sized3 = [
    Code::EVEX_Vrcp14ps_xmm_k1z_xmmm128b32,
    Code::EVEX_Vrcp14ps_ymm_k1z_ymmm256b32,
    Code::EVEX_Vrcp14ps_zmm_k1z_zmmm512b32,
];
const RSQRT14PS: Sized3 = [
    Code::EVEX_Vrsqrt14ps_xmm_k1z_xmmm128b32,
    Code::EVEX_Vrsqrt14ps_ymm_k1z_ymmm256b32,
    Code::EVEX_Vrsqrt14ps_zmm_k1z_zmmm512b32,
];
const FPCLASSPS: Sized3 = [
    Code::EVEX_Vfpclassps_kr_k1_xmmm128b32_imm8,
    Code::EVEX_Vfpclassps_kr_k1_ymmm256b32_imm8,
    Code::EVEX_Vfpclassps_kr_k1_zmmm512b32_imm8,
];
const MINPS: Sized3 = [
    Code::EVEX_Vminps_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vminps_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vminps_zmm_k1z_zmm_zmmm512b32_sae,
];
const MAXPS: Sized3 = [
    Code::EVEX_Vmaxps_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vmaxps_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vmaxps_zmm_k1z_zmm_zmmm512b32_sae,
];
const PMOVM2D: Sized3 = [
    Code::EVEX_Vpmovm2d_xmm_kr,
    Code::EVEX_Vpmovm2d_ymm_kr,
    Code::EVEX_Vpmovm2d_zmm_kr,
];
const SQRTPS: Sized3 = [
    Code::EVEX_Vsqrtps_xmm_k1z_xmmm128b32,
    Code::EVEX_Vsqrtps_ymm_k1z_ymmm256b32,
    Code::EVEX_Vsqrtps_zmm_k1z_zmmm512b32_er,
];
const FMADD231PS: Sized3 = [
    Code::EVEX_Vfmadd231ps_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vfmadd231ps_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vfmadd231ps_zmm_k1z_zmm_zmmm512b32_er,
];
const FNMADD231PS: Sized3 = [
    Code::EVEX_Vfnmadd231ps_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vfnmadd231ps_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vfnmadd231ps_zmm_k1z_zmm_zmmm512b32_er,
];
const FMSUB231PS: Sized3 = [
    Code::EVEX_Vfmsub231ps_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vfmsub231ps_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vfmsub231ps_zmm_k1z_zmm_zmmm512b32_er,
];
const FNMSUB231PS: Sized3 = [
    Code::EVEX_Vfnmsub231ps_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vfnmsub231ps_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vfnmsub231ps_zmm_k1z_zmm_zmmm512b32_er,
];
const FNMADD213PS: Sized3 = [
    Code::EVEX_Vfnmadd213ps_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vfnmadd213ps_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vfnmadd213ps_zmm_k1z_zmm_zmmm512b32_er,
];
const FMSUB213PS: Sized3 = [
    Code::EVEX_Vfmsub213ps_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vfmsub213ps_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vfmsub213ps_zmm_k1z_zmm_zmmm512b32_er,
];
const FNMSUB213PS: Sized3 = [
    Code::EVEX_Vfnmsub213ps_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vfnmsub213ps_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vfnmsub213ps_zmm_k1z_zmm_zmmm512b32_er,
];
const FNMADD132PS: Sized3 = [
    Code::EVEX_Vfnmadd132ps_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vfnmadd132ps_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vfnmadd132ps_zmm_k1z_zmm_zmmm512b32_er,
];
const FMSUB132PS: Sized3 = [
    Code::EVEX_Vfmsub132ps_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vfmsub132ps_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vfmsub132ps_zmm_k1z_zmm_zmmm512b32_er,
];
const FNMSUB132PS: Sized3 = [
    Code::EVEX_Vfnmsub132ps_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vfnmsub132ps_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vfnmsub132ps_zmm_k1z_zmm_zmmm512b32_er,
];
/// The scalar `f32` fmas' 231, 213 and 132 forms: `a * b + c`, `-(a * b) + c`, `a * b - c`,
/// `-(a * b) - c`.
const FMADD_SS: [Code; 3] = [
    Code::EVEX_Vfmadd231ss_xmm_k1z_xmm_xmmm32_er,
    Code::EVEX_Vfmadd213ss_xmm_k1z_xmm_xmmm32_er,
    Code::EVEX_Vfmadd132ss_xmm_k1z_xmm_xmmm32_er,
];
const FNMADD_SS: [Code; 3] = [
    Code::EVEX_Vfnmadd231ss_xmm_k1z_xmm_xmmm32_er,
    Code::EVEX_Vfnmadd213ss_xmm_k1z_xmm_xmmm32_er,
    Code::EVEX_Vfnmadd132ss_xmm_k1z_xmm_xmmm32_er,
];
const FMSUB_SS: [Code; 3] = [
    Code::EVEX_Vfmsub231ss_xmm_k1z_xmm_xmmm32_er,
    Code::EVEX_Vfmsub213ss_xmm_k1z_xmm_xmmm32_er,
    Code::EVEX_Vfmsub132ss_xmm_k1z_xmm_xmmm32_er,
];
const FNMSUB_SS: [Code; 3] = [
    Code::EVEX_Vfnmsub231ss_xmm_k1z_xmm_xmmm32_er,
    Code::EVEX_Vfnmsub213ss_xmm_k1z_xmm_xmmm32_er,
    Code::EVEX_Vfnmsub132ss_xmm_k1z_xmm_xmmm32_er,
];
const FMADD132PS: Sized3 = [
    Code::EVEX_Vfmadd132ps_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vfmadd132ps_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vfmadd132ps_zmm_k1z_zmm_zmmm512b32_er,
];
const FMADD213PS: Sized3 = [
    Code::EVEX_Vfmadd213ps_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vfmadd213ps_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vfmadd213ps_zmm_k1z_zmm_zmmm512b32_er,
];
const MOVUPS_LOAD: Sized3 = [
    Code::EVEX_Vmovups_xmm_k1z_xmmm128,
    Code::EVEX_Vmovups_ymm_k1z_ymmm256,
    Code::EVEX_Vmovups_zmm_k1z_zmmm512,
];
const MOVUPS_STORE: Sized3 = [
    Code::EVEX_Vmovups_xmmm128_k1z_xmm,
    Code::EVEX_Vmovups_ymmm256_k1z_ymm,
    Code::EVEX_Vmovups_zmmm512_k1z_zmm,
];
const ANDPS: Sized3 = [
    Code::EVEX_Vandps_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vandps_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vandps_zmm_k1z_zmm_zmmm512b32,
];
const XORPS: Sized3 = [
    Code::EVEX_Vxorps_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vxorps_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vxorps_zmm_k1z_zmm_zmmm512b32,
];
const PADDD: Sized3 = [
    Code::EVEX_Vpaddd_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vpaddd_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vpaddd_zmm_k1z_zmm_zmmm512b32,
];
const PSUBD: Sized3 = [
    Code::EVEX_Vpsubd_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vpsubd_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vpsubd_zmm_k1z_zmm_zmmm512b32,
];
const PBROADCASTQ_X: Sized3 = [
    Code::EVEX_Vpbroadcastq_xmm_k1z_xmmm64,
    Code::EVEX_Vpbroadcastq_ymm_k1z_xmmm64,
    Code::EVEX_Vpbroadcastq_zmm_k1z_xmmm64,
];
const PBLENDMB: Sized3 = [
    Code::EVEX_Vpblendmb_xmm_k1z_xmm_xmmm128,
    Code::EVEX_Vpblendmb_ymm_k1z_ymm_ymmm256,
    Code::EVEX_Vpblendmb_zmm_k1z_zmm_zmmm512,
];
const PBLENDMW: Sized3 = [
    Code::EVEX_Vpblendmw_xmm_k1z_xmm_xmmm128,
    Code::EVEX_Vpblendmw_ymm_k1z_ymm_ymmm256,
    Code::EVEX_Vpblendmw_zmm_k1z_zmm_zmmm512,
];
const PADDB: Sized3 = [
    Code::EVEX_Vpaddb_xmm_k1z_xmm_xmmm128,
    Code::EVEX_Vpaddb_ymm_k1z_ymm_ymmm256,
    Code::EVEX_Vpaddb_zmm_k1z_zmm_zmmm512,
];
const PADDW: Sized3 = [
    Code::EVEX_Vpaddw_xmm_k1z_xmm_xmmm128,
    Code::EVEX_Vpaddw_ymm_k1z_ymm_ymmm256,
    Code::EVEX_Vpaddw_zmm_k1z_zmm_zmmm512,
];
const PSUBB: Sized3 = [
    Code::EVEX_Vpsubb_xmm_k1z_xmm_xmmm128,
    Code::EVEX_Vpsubb_ymm_k1z_ymm_ymmm256,
    Code::EVEX_Vpsubb_zmm_k1z_zmm_zmmm512,
];
const PSUBW: Sized3 = [
    Code::EVEX_Vpsubw_xmm_k1z_xmm_xmmm128,
    Code::EVEX_Vpsubw_ymm_k1z_ymm_ymmm256,
    Code::EVEX_Vpsubw_zmm_k1z_zmm_zmmm512,
];
const PMULLW: Sized3 = [
    Code::EVEX_Vpmullw_xmm_k1z_xmm_xmmm128,
    Code::EVEX_Vpmullw_ymm_k1z_ymm_ymmm256,
    Code::EVEX_Vpmullw_zmm_k1z_zmm_zmmm512,
];
const PBROADCASTB: Sized3 = [
    Code::EVEX_Vpbroadcastb_xmm_k1z_xmmm8,
    Code::EVEX_Vpbroadcastb_ymm_k1z_xmmm8,
    Code::EVEX_Vpbroadcastb_zmm_k1z_xmmm8,
];
const PBROADCASTW: Sized3 = [
    Code::EVEX_Vpbroadcastw_xmm_k1z_xmmm16,
    Code::EVEX_Vpbroadcastw_ymm_k1z_xmmm16,
    Code::EVEX_Vpbroadcastw_zmm_k1z_xmmm16,
];
const PMULLD: Sized3 = [
    Code::EVEX_Vpmulld_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vpmulld_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vpmulld_zmm_k1z_zmm_zmmm512b32,
];
const PANDD: Sized3 = [
    Code::EVEX_Vpandd_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vpandd_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vpandd_zmm_k1z_zmm_zmmm512b32,
];
const PORD: Sized3 = [
    Code::EVEX_Vpord_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vpord_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vpord_zmm_k1z_zmm_zmmm512b32,
];
const PXORQ: Sized3 = [
    Code::EVEX_Vpxorq_xmm_k1z_xmm_xmmm128b64,
    Code::EVEX_Vpxorq_ymm_k1z_ymm_ymmm256b64,
    Code::EVEX_Vpxorq_zmm_k1z_zmm_zmmm512b64,
];
const PANDQ: Sized3 = [
    Code::EVEX_Vpandq_xmm_k1z_xmm_xmmm128b64,
    Code::EVEX_Vpandq_ymm_k1z_ymm_ymmm256b64,
    Code::EVEX_Vpandq_zmm_k1z_zmm_zmmm512b64,
];
const PBROADCASTQ_R: Sized3 = [
    Code::EVEX_Vpbroadcastq_xmm_k1z_r64,
    Code::EVEX_Vpbroadcastq_ymm_k1z_r64,
    Code::EVEX_Vpbroadcastq_zmm_k1z_r64,
];
const PXORD: Sized3 = [
    Code::EVEX_Vpxord_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vpxord_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vpxord_zmm_k1z_zmm_zmmm512b32,
];
const CMPPS: Sized3 = [
    Code::EVEX_Vcmpps_kr_k1_xmm_xmmm128b32_imm8,
    Code::EVEX_Vcmpps_kr_k1_ymm_ymmm256b32_imm8,
    Code::EVEX_Vcmpps_kr_k1_zmm_zmmm512b32_imm8_sae,
];
const PCMPD: Sized3 = [
    Code::EVEX_Vpcmpd_kr_k1_xmm_xmmm128b32_imm8,
    Code::EVEX_Vpcmpd_kr_k1_ymm_ymmm256b32_imm8,
    Code::EVEX_Vpcmpd_kr_k1_zmm_zmmm512b32_imm8,
];
const PCMPUD: Sized3 = [
    Code::EVEX_Vpcmpud_kr_k1_xmm_xmmm128b32_imm8,
    Code::EVEX_Vpcmpud_kr_k1_ymm_ymmm256b32_imm8,
    Code::EVEX_Vpcmpud_kr_k1_zmm_zmmm512b32_imm8,
];
const PCMPB: Sized3 = [
    Code::EVEX_Vpcmpb_kr_k1_xmm_xmmm128_imm8,
    Code::EVEX_Vpcmpb_kr_k1_ymm_ymmm256_imm8,
    Code::EVEX_Vpcmpb_kr_k1_zmm_zmmm512_imm8,
];
const PCMPUB: Sized3 = [
    Code::EVEX_Vpcmpub_kr_k1_xmm_xmmm128_imm8,
    Code::EVEX_Vpcmpub_kr_k1_ymm_ymmm256_imm8,
    Code::EVEX_Vpcmpub_kr_k1_zmm_zmmm512_imm8,
];
const PCMPW: Sized3 = [
    Code::EVEX_Vpcmpw_kr_k1_xmm_xmmm128_imm8,
    Code::EVEX_Vpcmpw_kr_k1_ymm_ymmm256_imm8,
    Code::EVEX_Vpcmpw_kr_k1_zmm_zmmm512_imm8,
];
const PCMPUW: Sized3 = [
    Code::EVEX_Vpcmpuw_kr_k1_xmm_xmmm128_imm8,
    Code::EVEX_Vpcmpuw_kr_k1_ymm_ymmm256_imm8,
    Code::EVEX_Vpcmpuw_kr_k1_zmm_zmmm512_imm8,
];
const BLENDMPS: Sized3 = [
    Code::EVEX_Vblendmps_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vblendmps_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vblendmps_zmm_k1z_zmm_zmmm512b32,
];
const PMINSD: Sized3 = [
    Code::EVEX_Vpminsd_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vpminsd_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vpminsd_zmm_k1z_zmm_zmmm512b32,
];
const PMAXSD: Sized3 = [
    Code::EVEX_Vpmaxsd_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vpmaxsd_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vpmaxsd_zmm_k1z_zmm_zmmm512b32,
];
const PMINUD: Sized3 = [
    Code::EVEX_Vpminud_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vpminud_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vpminud_zmm_k1z_zmm_zmmm512b32,
];
const PMAXUD: Sized3 = [
    Code::EVEX_Vpmaxud_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vpmaxud_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vpmaxud_zmm_k1z_zmm_zmmm512b32,
];
const RNDSCALEPS: Sized3 = [
    Code::EVEX_Vrndscaleps_xmm_k1z_xmmm128b32_imm8,
    Code::EVEX_Vrndscaleps_ymm_k1z_ymmm256b32_imm8,
    Code::EVEX_Vrndscaleps_zmm_k1z_zmmm512b32_imm8_sae,
];
const PSLLVD: Sized3 = [
    Code::EVEX_Vpsllvd_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vpsllvd_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vpsllvd_zmm_k1z_zmm_zmmm512b32,
];
const PSRLVD: Sized3 = [
    Code::EVEX_Vpsrlvd_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vpsrlvd_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vpsrlvd_zmm_k1z_zmm_zmmm512b32,
];
const PSRAVD: Sized3 = [
    Code::EVEX_Vpsravd_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vpsravd_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vpsravd_zmm_k1z_zmm_zmmm512b32,
];
const PSLLD_IMM: Sized3 = [
    Code::EVEX_Vpslld_xmm_k1z_xmmm128b32_imm8,
    Code::EVEX_Vpslld_ymm_k1z_ymmm256b32_imm8,
    Code::EVEX_Vpslld_zmm_k1z_zmmm512b32_imm8,
];
const PSRLD_IMM: Sized3 = [
    Code::EVEX_Vpsrld_xmm_k1z_xmmm128b32_imm8,
    Code::EVEX_Vpsrld_ymm_k1z_ymmm256b32_imm8,
    Code::EVEX_Vpsrld_zmm_k1z_zmmm512b32_imm8,
];
const PSRAD_IMM: Sized3 = [
    Code::EVEX_Vpsrad_xmm_k1z_xmmm128b32_imm8,
    Code::EVEX_Vpsrad_ymm_k1z_ymmm256b32_imm8,
    Code::EVEX_Vpsrad_zmm_k1z_zmmm512b32_imm8,
];
const MOVAPS: Sized3 = [
    Code::EVEX_Vmovaps_xmm_k1z_xmmm128,
    Code::EVEX_Vmovaps_ymm_k1z_ymmm256,
    Code::EVEX_Vmovaps_zmm_k1z_zmmm512,
];
const CVTTPS2DQ: Sized3 = [
    Code::EVEX_Vcvttps2dq_xmm_k1z_xmmm128b32,
    Code::EVEX_Vcvttps2dq_ymm_k1z_ymmm256b32,
    Code::EVEX_Vcvttps2dq_zmm_k1z_zmmm512b32_sae,
];
const CVTTPS2UDQ: Sized3 = [
    Code::EVEX_Vcvttps2udq_xmm_k1z_xmmm128b32,
    Code::EVEX_Vcvttps2udq_ymm_k1z_ymmm256b32,
    Code::EVEX_Vcvttps2udq_zmm_k1z_zmmm512b32_sae,
];
const CVTUDQ2PS: Sized3 = [
    Code::EVEX_Vcvtudq2ps_xmm_k1z_xmmm128b32,
    Code::EVEX_Vcvtudq2ps_ymm_k1z_ymmm256b32,
    Code::EVEX_Vcvtudq2ps_zmm_k1z_zmmm512b32_er,
];
const CVTDQ2PS: Sized3 = [
    Code::EVEX_Vcvtdq2ps_xmm_k1z_xmmm128b32,
    Code::EVEX_Vcvtdq2ps_ymm_k1z_ymmm256b32,
    Code::EVEX_Vcvtdq2ps_zmm_k1z_zmmm512b32_er,
];
const BROADCASTSS: Sized3 = [
    Code::EVEX_Vbroadcastss_xmm_k1z_xmmm32,
    Code::EVEX_Vbroadcastss_ymm_k1z_xmmm32,
    Code::EVEX_Vbroadcastss_zmm_k1z_xmmm32,
];
const PLZCNTD: Sized3 = [
    Code::EVEX_Vplzcntd_xmm_k1z_xmmm128b32,
    Code::EVEX_Vplzcntd_ymm_k1z_ymmm256b32,
    Code::EVEX_Vplzcntd_zmm_k1z_zmmm512b32,
];
const PMULUDQ: Sized3 = [
    Code::EVEX_Vpmuludq_xmm_k1z_xmm_xmmm128b64,
    Code::EVEX_Vpmuludq_ymm_k1z_ymm_ymmm256b64,
    Code::EVEX_Vpmuludq_zmm_k1z_zmm_zmmm512b64,
];
const PMULDQ: Sized3 = [
    Code::EVEX_Vpmuldq_xmm_k1z_xmm_xmmm128b64,
    Code::EVEX_Vpmuldq_ymm_k1z_ymm_ymmm256b64,
    Code::EVEX_Vpmuldq_zmm_k1z_zmm_zmmm512b64,
];
const PSRLQ_IMM: Sized3 = [
    Code::EVEX_Vpsrlq_xmm_k1z_xmmm128b64_imm8,
    Code::EVEX_Vpsrlq_ymm_k1z_ymmm256b64_imm8,
    Code::EVEX_Vpsrlq_zmm_k1z_zmmm512b64_imm8,
];
const PBLENDMD: Sized3 = [
    Code::EVEX_Vpblendmd_xmm_k1z_xmm_xmmm128b32,
    Code::EVEX_Vpblendmd_ymm_k1z_ymm_ymmm256b32,
    Code::EVEX_Vpblendmd_zmm_k1z_zmm_zmmm512b32,
];
const PBROADCASTD: Sized3 = [
    Code::EVEX_Vpbroadcastd_xmm_k1z_r32,
    Code::EVEX_Vpbroadcastd_ymm_k1z_r32,
    Code::EVEX_Vpbroadcastd_zmm_k1z_r32,
];

/// AVX2 forms by size: the `xmm` one, the `ymm` one.
type Sized2 = [Code; 2];

const VPBROADCASTD_X: Sized2 = [
    Code::VEX_Vpbroadcastd_xmm_xmmm32,
    Code::VEX_Vpbroadcastd_ymm_xmmm32,
];
const BROADCASTSS_X: Sized2 = [
    Code::VEX_Vbroadcastss_xmm_xmm,
    Code::VEX_Vbroadcastss_ymm_xmm,
];
const BLENDVPS: Sized2 = [
    Code::VEX_Vblendvps_xmm_xmm_xmmm128_xmm,
    Code::VEX_Vblendvps_ymm_ymm_ymmm256_ymm,
];
const BLENDPS_VEX: Sized2 = [
    Code::VEX_Vblendps_xmm_xmm_xmmm128_imm8,
    Code::VEX_Vblendps_ymm_ymm_ymmm256_imm8,
];
const PBLENDD_VEX: Sized2 = [
    Code::VEX_Vpblendd_xmm_xmm_xmmm128_imm8,
    Code::VEX_Vpblendd_ymm_ymm_ymmm256_imm8,
];
const PCMPEQD_VEX: Sized2 = [
    Code::VEX_Vpcmpeqd_xmm_xmm_xmmm128,
    Code::VEX_Vpcmpeqd_ymm_ymm_ymmm256,
];
const PCMPGTD_VEX: Sized2 = [
    Code::VEX_Vpcmpgtd_xmm_xmm_xmmm128,
    Code::VEX_Vpcmpgtd_ymm_ymm_ymmm256,
];
const PAND_VEX: Sized2 = [
    Code::VEX_Vpand_xmm_xmm_xmmm128,
    Code::VEX_Vpand_ymm_ymm_ymmm256,
];
const POR_VEX: Sized2 = [
    Code::VEX_Vpor_xmm_xmm_xmmm128,
    Code::VEX_Vpor_ymm_ymm_ymmm256,
];
const PXOR_VEX: Sized2 = [
    Code::VEX_Vpxor_xmm_xmm_xmmm128,
    Code::VEX_Vpxor_ymm_ymm_ymmm256,
];
const MOVMSKPS_VEX: Sized2 = [Code::VEX_Vmovmskps_r32_xmm, Code::VEX_Vmovmskps_r32_ymm];
const MOVUPS_VEX: Sized2 = [Code::VEX_Vmovups_xmm_xmmm128, Code::VEX_Vmovups_ymm_ymmm256];
const PSUBD_VEX: Sized2 = [
    Code::VEX_Vpsubd_xmm_xmm_xmmm128,
    Code::VEX_Vpsubd_ymm_ymm_ymmm256,
];
const PMINUD_VEX: Sized2 = [
    Code::VEX_Vpminud_xmm_xmm_xmmm128,
    Code::VEX_Vpminud_ymm_ymm_ymmm256,
];
const MULPS_VEX: Sized2 = [
    Code::VEX_Vmulps_xmm_xmm_xmmm128,
    Code::VEX_Vmulps_ymm_ymm_ymmm256,
];
const SUBPS_VEX: Sized2 = [
    Code::VEX_Vsubps_xmm_xmm_xmmm128,
    Code::VEX_Vsubps_ymm_ymm_ymmm256,
];
const ADDPS_VEX: Sized2 = [
    Code::VEX_Vaddps_xmm_xmm_xmmm128,
    Code::VEX_Vaddps_ymm_ymm_ymmm256,
];
const CMPPS_VEX: Sized2 = [
    Code::VEX_Vcmpps_xmm_xmm_xmmm128_imm8,
    Code::VEX_Vcmpps_ymm_ymm_ymmm256_imm8,
];
const PANDN_VEX: Sized2 = [
    Code::VEX_Vpandn_xmm_xmm_xmmm128,
    Code::VEX_Vpandn_ymm_ymm_ymmm256,
];

/// The `f32` instruction of float sum, difference, product or quotient `b` (a relaxed
/// quotient exact) on values of `bytes` bytes, or on a `scalar`'s low lane.
fn float_arithmetic(b: BinaryOp, scalar: bool, bytes: u32) -> Option<Code> {
    Some(match (b, scalar) {
        (BinaryOp::Fadd, false) => pick(ADDPS, bytes),
        (BinaryOp::Fsub, false) => pick(SUBPS, bytes),
        (BinaryOp::Fmul, false) => pick(MULPS, bytes),
        (BinaryOp::Fdiv | BinaryOp::FdivRelaxed, false) => pick(DIVPS, bytes),
        (BinaryOp::Fadd, true) => Code::EVEX_Vaddss_xmm_k1z_xmm_xmmm32_er,
        (BinaryOp::Fsub, true) => Code::EVEX_Vsubss_xmm_k1z_xmm_xmmm32_er,
        (BinaryOp::Fmul, true) => Code::EVEX_Vmulss_xmm_k1z_xmm_xmmm32_er,
        (BinaryOp::Fdiv | BinaryOp::FdivRelaxed, true) => Code::EVEX_Vdivss_xmm_k1z_xmm_xmmm32_er,
        _ => return None,
    })
}

/// The AVX2 form of `op` for registers of `bytes` (at most 16: the `xmm` one).
fn vex_pick(bytes: u32, op: Sized2) -> Code {
    op[usize::from(bytes > 16)]
}

/// The vector instruction of `op` for values of `bytes` bytes (scalar `f32` values use the
/// 128-bit form: their other lanes are never read).
fn pick(op: Sized3, bytes: u32) -> Code {
    match bytes {
        64 => op[2],
        32 => op[1],
        _ => op[0],
    }
}

/// The form of `f32` instruction `code` for `f64` lanes (`super::f64_op`): `vaddps` as
/// `vaddpd`, `vaddss` as `vaddsd`, `vbroadcastss` as `vbroadcastsd`, with broadcast and
/// scalar memory operands of 64 bits. Every such form iced-x86 knows is found by its name.
fn double(code: Code) -> Res<Code> {
    static CODES: std::sync::OnceLock<std::collections::HashMap<String, Code>> =
        std::sync::OnceLock::new();
    let codes = CODES.get_or_init(|| {
        Code::values()
            .map(|c| (format!("{c:?}"), c))
            .filter(|(name, _)| name.starts_with("EVEX_"))
            .collect()
    });
    let name = format!("{code:?}");
    let renamed: Vec<String> = name
        .split('_')
        .enumerate()
        .map(|(k, part)| match k {
            1 => match part.strip_suffix("ps").or(part.strip_suffix("ss")) {
                Some(stem) => format!("{stem}{}", if part.ends_with("ps") { "pd" } else { "sd" }),
                None => part.to_string(),
            },
            _ => part.replace("b32", "b64").replace("m32", "m64"),
        })
        .collect();
    codes
        .get(&renamed.join("_"))
        .copied()
        .ok_or_else(|| format!("{name} has no form for f64 lanes"))
}

/// The `vcmpps` predicate of a float condition (Intel SDM, Vol. 2A, CMPPS, table 3-1).
fn cmpps_predicate(cc: FloatCC) -> i32 {
    match cc {
        FloatCC::Oeq => 0x00,
        FloatCC::Olt => 0x01,
        FloatCC::Ole => 0x02,
        FloatCC::Uno => 0x03,
        FloatCC::Une => 0x04,
        FloatCC::Uge => 0x05,
        FloatCC::Ugt => 0x06,
        FloatCC::Ord => 0x07,
        FloatCC::Ueq => 0x08,
        FloatCC::Ult => 0x09,
        FloatCC::Ule => 0x0a,
        FloatCC::One => 0x0c,
        FloatCC::Oge => 0x0d,
        FloatCC::Ogt => 0x0e,
    }
}

/// The `vpcmpd`/`vpcmpud` predicate of an integer condition, and whether it is unsigned.
fn pcmp_predicate(cc: IntCC) -> (i32, bool) {
    match cc {
        IntCC::Eq => (0, false),
        IntCC::Ne => (4, false),
        IntCC::Slt => (1, false),
        IntCC::Sle => (2, false),
        IntCC::Sgt => (6, false),
        IntCC::Sge => (5, false),
        IntCC::Ult => (1, true),
        IntCC::Ule => (2, true),
        IntCC::Ugt => (6, true),
        IntCC::Uge => (5, true),
    }
}

/// The `setcc`/`jcc`/`cmovcc` condition of an integer comparison, as the index into
/// [`SETCC`], [`JCC`] and [`CMOVCC`].
fn cond_index(cc: IntCC) -> usize {
    match cc {
        IntCC::Eq => 0,
        IntCC::Ne => 1,
        IntCC::Slt => 2,
        IntCC::Sle => 3,
        IntCC::Sgt => 4,
        IntCC::Sge => 5,
        IntCC::Ult => 6,
        IntCC::Ule => 7,
        IntCC::Ugt => 8,
        IntCC::Uge => 9,
    }
}

const SETCC: [Code; 10] = [
    Code::Sete_rm8,
    Code::Setne_rm8,
    Code::Setl_rm8,
    Code::Setle_rm8,
    Code::Setg_rm8,
    Code::Setge_rm8,
    Code::Setb_rm8,
    Code::Setbe_rm8,
    Code::Seta_rm8,
    Code::Setae_rm8,
];

const JCC: [Code; 10] = [
    Code::Je_rel32_64,
    Code::Jne_rel32_64,
    Code::Jl_rel32_64,
    Code::Jle_rel32_64,
    Code::Jg_rel32_64,
    Code::Jge_rel32_64,
    Code::Jb_rel32_64,
    Code::Jbe_rel32_64,
    Code::Ja_rel32_64,
    Code::Jae_rel32_64,
];

const CMOVCC: [Code; 10] = [
    Code::Cmove_r64_rm64,
    Code::Cmovne_r64_rm64,
    Code::Cmovl_r64_rm64,
    Code::Cmovle_r64_rm64,
    Code::Cmovg_r64_rm64,
    Code::Cmovge_r64_rm64,
    Code::Cmovb_r64_rm64,
    Code::Cmovbe_r64_rm64,
    Code::Cmova_r64_rm64,
    Code::Cmovae_r64_rm64,
];

fn mem(base: Register, displ: i64) -> MemoryOperand {
    MemoryOperand::with_base_displ(base, displ)
}

/// Memory operand `m`, `by` bytes on (its displacement's size left to the encoder).
fn displaced(mut m: MemoryOperand, by: i64) -> MemoryOperand {
    m.displacement += by;
    m.displ_size = m.displ_size.max(1);
    m
}

fn bad(e: iced_x86::IcedError) -> String {
    format!("encoding: {e}")
}

/// One move of an edge's parallel copy: into `dst` from a value.
struct Move {
    dst: Register,
    src: Value,
    /// The spilled parameter whose stack slot the move writes instead of `dst`.
    slot: Option<Value>,
}

impl Emitter<'_> {
    fn new_label(&mut self) -> usize {
        self.label_at.push(None);
        self.label_at.len() - 1
    }

    fn bind(&mut self, l: usize) {
        self.pending.push(l);
    }

    fn push(&mut self, i: Instruction) {
        let at = self.code.len();
        for l in self.pending.drain(..) {
            self.label_at[l] = Some(at);
        }
        self.code.push(i);
    }

    fn ins(&mut self, i: Result<Instruction, iced_x86::IcedError>) -> Res<()> {
        self.push(i.map_err(bad)?);
        Ok(())
    }

    fn op0(&mut self, code: Code) {
        self.push(Instruction::with(code));
    }

    fn jump(&mut self, code: Code, label: usize) -> Res<()> {
        let i = Instruction::with_branch(code, 0).map_err(bad)?;
        self.fixups.push((self.code.len(), label));
        self.push(i);
        Ok(())
    }

    fn ty(&self, v: Value) -> Type {
        self.f.dfg.value_type(v)
    }

    /// Whether the code is for an AVX2 host: no mask registers, 16 vector registers, VEX.
    fn avx2(&self) -> bool {
        self.plan.isa == Isa::Avx2
    }

    /// The bytes of the vector register `v` takes: an AVX2 mask's are 4 a lane.
    fn vbytes(&self, v: Value) -> u32 {
        let t = self.ty(v);
        if is_mask(t) {
            4 * t.lanes()
        } else {
            t.bytes()
        }
    }

    /// AVX2: a mask instruction into vector register `d` (lanes of 0 or -1), for `r`.
    fn mask_vec_inst(&mut self, op: &Op, r: Value, d: Register, args: &[Value]) -> Res<()> {
        let n = self.vbytes(r);
        let d = sized(d, n);
        match op {
            Op::Iconst(c) if c & 1 == 1 => op3!(self, vex_pick(n, PCMPEQD_VEX), d, d, d),
            Op::Iconst(_) => op3!(self, vex_pick(n, PXOR_VEX), d, d, d),
            Op::Undef => Ok(()),
            Op::Fcmp(cc) => {
                let (a, b) = (self.vec(args[0], VS0)?, self.vec(args[1], VS1)?);
                op4!(self, vex_pick(n, CMPPS_VEX), d, a, b, cmpps_predicate(*cc))
            }
            Op::Icmp(cc) => {
                let (mut a, mut b) = (self.vec(args[0], VS0)?, self.vec(args[1], VS1)?);
                if matches!(cc, IntCC::Ult | IntCC::Ule | IntCC::Ugt | IntCC::Uge) {
                    // Unsigned order is the signed order of the values with their sign bits
                    // flipped.
                    let (s0, s1) = (sized(ZMM[VS0], n), sized(ZMM[VS1], n));
                    let sign = self.pool_ref([0x8000_0000; 16]);
                    op3!(self, vex_pick(n, PXOR_VEX), s0, a, sign)?;
                    let sign = self.pool_ref([0x8000_0000; 16]);
                    op3!(self, vex_pick(n, PXOR_VEX), s1, b, sign)?;
                    (a, b) = (s0, s1);
                }
                let (x, y, negate) = match cc {
                    IntCC::Eq => (a, b, false),
                    IntCC::Ne => (a, b, true),
                    IntCC::Sgt | IntCC::Ugt => (a, b, false),
                    IntCC::Slt | IntCC::Ult => (b, a, false),
                    IntCC::Sle | IntCC::Ule => (a, b, true),
                    IntCC::Sge | IntCC::Uge => (b, a, true),
                };
                let code = if matches!(cc, IntCC::Eq | IntCC::Ne) {
                    PCMPEQD_VEX
                } else {
                    PCMPGTD_VEX
                };
                op3!(self, vex_pick(n, code), d, x, y)?;
                if negate {
                    let ones = self.pool_ref([u32::MAX; 16]);
                    op3!(self, vex_pick(n, PXOR_VEX), d, d, ones)?;
                }
                Ok(())
            }
            Op::Binary(b) => {
                let code = match b {
                    BinaryOp::Band => PAND_VEX,
                    BinaryOp::Bor => POR_VEX,
                    BinaryOp::Bxor => PXOR_VEX,
                    other => return Err(format!("{other:?} on masks")),
                };
                let (a, c) = (self.vec(args[0], VS0)?, self.vec(args[1], VS1)?);
                op3!(self, vex_pick(n, code), d, a, c)
            }
            Op::Unary(UnaryOp::Bnot) => {
                let a = self.vec(args[0], VS0)?;
                let ones = self.pool_ref([u32::MAX; 16]);
                op3!(self, vex_pick(n, PXOR_VEX), d, a, ones)
            }
            Op::Select => {
                let (c, a, b) = (args[0], args[1], args[2]);
                let (ra, rb) = (self.vec(a, VS0)?, self.vec(b, VS1)?);
                let m = if is_mask(self.ty(c)) {
                    self.vec(c, VS2)?
                } else {
                    self.all_ones_if(c)?;
                    let m = sized(ZMM[VS2], n);
                    self.splat_gpr(m, S1, n)?;
                    m
                };
                self.blend_by(d, rb, ra, m)
            }
            Op::Splat => {
                self.all_ones_if(args[0])?;
                self.splat_gpr(d, S1, n)
            }
            other => Err(format!("{other:?} of masks")),
        }
    }

    /// AVX2: the sign bits of mask `m`'s lanes in general register `g` (VMOVMSKPS), then
    /// the flags of whether any is set (`all`: whether every one is).
    fn test_mask(&mut self, g: Register, m: Value, all: bool) -> Res<()> {
        let lanes = self.ty(m).lanes();
        let v = self.vec(m, VS0)?;
        let code = vex_pick(self.vbytes(m), MOVMSKPS_VEX);
        op2!(self, code, r32(g), v)?;
        if all {
            op2!(self, Code::Cmp_rm32_imm32, r32(g), (1u32 << lanes) - 1)
        } else {
            op2!(self, Code::Test_rm32_r32, r32(g), r32(g))
        }
    }

    /// `r11` = all ones where `i1` value `c` is 1, else 0 (0 - c).
    fn all_ones_if(&mut self, c: Value) -> Res<()> {
        let rc = self.gpr(c, S0)?;
        op2!(self, Code::Xor_r32_rm32, r32(S1), r32(S1))?;
        op2!(self, Code::Sub_r32_rm32, r32(S1), r32(rc))
    }

    /// AVX2: the scratch vector register a conversion into `d` keeps its lanes' masks in:
    /// 29, or 28 where `d` is 29 (a conversion to a general register goes through 29).
    fn conversion_mask(&self, d: Register) -> Register {
        if zmm_of(d) == ZMM[VS2] {
            ZMM[VEC_SPILL_SCRATCH]
        } else {
            ZMM[VS2]
        }
    }

    /// AVX2: `m` (named for `bytes`) = the 32-bit general register `g` in every lane.
    fn splat_gpr(&mut self, m: Register, g: Register, bytes: u32) -> Res<()> {
        op2!(self, Code::VEX_Vmovd_xmm_rm32, xmm_of(m), r32(g))?;
        op2!(self, vex_pick(bytes, VPBROADCASTD_X), m, xmm_of(m))
    }

    /// AVX2: `d` = `b` in the lanes whose sign bit `m` sets, else `a` (VBLENDVPS).
    fn blend_by(&mut self, d: Register, a: Register, b: Register, m: Register) -> Res<()> {
        let bytes = bytes_of(d);
        op4!(self, vex_pick(bytes, BLENDVPS), d, a, b, sized(m, bytes))
    }

    fn wide(&self, v: Value) -> bool {
        let t = self.ty(v);
        t == Type::I64 || t.is_ptr()
    }

    /// The register `v` was given.
    fn reg(&self, v: Value) -> Res<Register> {
        self.alloc.reg[v].ok_or_else(|| format!("{v} has no register"))
    }

    /// The vector register of `v` by the name of its size.
    fn vreg(&self, v: Value) -> Res<Register> {
        Ok(sized(self.reg(v)?, self.vbytes(v)))
    }

    /// `v`'s constant, if an `iconst` (or `null`) defines it.
    fn constant(&self, v: Value) -> Option<u64> {
        let i = def_inst(self.f, v)?;
        match self.f.dfg.insts[i].op {
            Op::Iconst(c) => Some(c),
            Op::Null => Some(0),
            _ => None,
        }
    }

    /// `v` as a sign-extended 32-bit immediate of an operation of `v`'s width.
    fn imm(&self, v: Value) -> Option<i32> {
        let c = self.constant(v)?;
        if self.wide(v) {
            i32::try_from(c as i64).ok()
        } else {
            Some(c as u32 as i32)
        }
    }

    /// A general register holding `v`: its own, or `scratch` with the value put there.
    fn gpr(&mut self, v: Value, scratch: Register) -> Res<Register> {
        if !self.plan.is_remat(v) && self.alloc.slot[v].is_none() {
            return self.reg(v);
        }
        self.materialize(v, scratch)?;
        Ok(scratch)
    }

    /// A mask register holding mask value `v`: its own, or `scratch` with a spilled mask
    /// loaded or the constant that defines a rematerialized mask put there (an undefined
    /// mask leaves `scratch` as it is).
    fn kreg(&mut self, v: Value, scratch: Register) -> Res<Register> {
        if let Some(at) = self.slot(v, 0) {
            op2!(self, Code::VEX_Kmovw_kr_km16, scratch, at)?;
            return Ok(scratch);
        }
        if !self.plan.is_remat(v) {
            return self.reg(v);
        }
        self.mask_constant(v, scratch)?;
        Ok(scratch)
    }

    /// The mask instructions for mask `v`'s lanes: the byte forms for 8, which clear the bits
    /// past them (KXNORB, KNOTB) and test only theirs (KORTESTB sets CF where all 8 are
    /// set), the word forms for 16. Every mask of 8 lanes keeps its upper bits clear: the
    /// comparisons of 256-bit vectors clear them, and AND, OR, XOR and AND-NOT keep them so.
    fn mask_codes(&self, v: Value) -> MaskCodes {
        if self.ty(v).lanes() == 8 {
            MaskCodes {
                kortest: Code::VEX_Kortestb_kr_kr,
                knot: Code::VEX_Knotb_kr_kr,
                kxnor: Code::VEX_Kxnorb_kr_kr_kr,
            }
        } else {
            MaskCodes {
                kortest: Code::VEX_Kortestw_kr_kr,
                knot: Code::VEX_Knotw_kr_kr,
                kxnor: Code::VEX_Kxnorw_kr_kr_kr,
            }
        }
    }

    /// Mask register `k` = rematerialized mask `v`: every lane where its constant is 1,
    /// none where 0; nothing for an undefined mask.
    fn mask_constant(&mut self, v: Value, k: Register) -> Res<()> {
        let i = def_inst(self.f, v).ok_or("a rematerialized mask parameter")?;
        let code = match self.f.dfg.insts[i].op {
            Op::Undef => return Ok(()),
            Op::Iconst(c) if c & 1 == 1 => self.mask_codes(v).kxnor,
            Op::Iconst(_) => Code::VEX_Kxorw_kr_kr_kr,
            ref other => return Err(format!("{other:?} rematerialized as a mask")),
        };
        op3!(self, code, k, k, k)
    }

    /// `d` = the high halves of the products of `a`'s and `c`'s 32-bit lanes (`op`: `umulhi`
    /// or `smulhi`; `a` and `c` in registers, VS2 scratch, VS0 and VS1 overwritten).
    /// VPMULUDQ (VPMULDQ) multiplies the even lanes into 64-bit products; the odd lanes,
    /// shifted down, likewise. The high halves: the even products' shifted down into the even
    /// lanes, the odd products' already in the odd ones.
    fn mul_hi(
        &mut self,
        d: Register,
        a: Register,
        c: Register,
        op: BinaryOp,
        bytes: u32,
    ) -> Res<()> {
        let t = sized(ZMM[VS2], bytes);
        let (s0, s1) = (sized(ZMM[VS0], bytes), sized(ZMM[VS1], bytes));
        let mul = if op == BinaryOp::Umulhi {
            PMULUDQ
        } else {
            PMULDQ
        };
        op3!(self, pick(mul, bytes), t, a, c)?;
        op3!(self, pick(PSRLQ_IMM, bytes), s0, a, 32u32)?;
        op3!(self, pick(PSRLQ_IMM, bytes), s1, c, 32u32)?;
        op3!(self, pick(mul, bytes), s0, s0, s1)?;
        op3!(self, pick(PSRLQ_IMM, bytes), t, t, 32u32)?;
        if self.avx2() {
            // The odd lanes from `s0`.
            return op4!(self, vex_pick(bytes, PBLENDD_VEX), d, t, s0, 0xaau32);
        }
        op2!(self, Code::Mov_r32_imm32, r32(S1), 0xaaaau32)?;
        op2!(self, Code::VEX_Kmovw_kr_r32, KS, r32(S1))?;
        let mut i = Instruction::with3(pick(PBLENDMD, bytes), d, t, s0).map_err(bad)?;
        i.set_op_mask(KS);
        self.push(i);
        Ok(())
    }

    /// Where spilled value `v` is kept, `pushed` bytes below the body's stack pointer.
    fn slot(&self, v: Value, pushed: i64) -> Option<MemoryOperand> {
        let n = self.alloc.slot[v]?;
        // The group context's address at [rsp], the slots above it.
        Some(mem(Register::RSP, pushed + 8 + 8 * i64::from(n)))
    }

    /// Whether vector value `v` lives in its spill slot (not a register, a pinned or
    /// rematerialized constant, or a mask, whose slot holds a mask register's bits): an
    /// operation that takes a memory operand reads it there rather than through a scratch
    /// register.
    fn spilled(&self, v: Value) -> bool {
        let ty = self.ty(v);
        self.alloc.slot[v].is_some() && !self.plan.is_remat(v) && ty.is_vector() && !is_mask(ty)
    }

    /// The register result `r` is written to: its own, or the spill scratch register (stored
    /// to `r`'s slot after the instruction, [`Self::inst`]).
    fn def_reg(&self, r: Value) -> Res<Register> {
        if self.alloc.slot[r].is_some() {
            return Ok(SPILL_SCRATCH);
        }
        self.reg(r)
    }

    /// The mask register mask result `r` is written to: its own, or k0 for a spilled one
    /// (stored to its slot after the instruction, [`Self::inst`]; every mask operation reads
    /// its operands before it writes k0).
    fn def_kreg(&self, r: Value) -> Res<Register> {
        match self.alloc.slot[r] {
            Some(_) => Ok(Register::K0),
            None => self.reg(r),
        }
    }

    /// Puts rematerialized (or spilled) value `v` into general register `r`.
    fn materialize(&mut self, v: Value, r: Register) -> Res<()> {
        if r.is_k() {
            return match self.slot(v, 0) {
                Some(at) => op2!(self, Code::VEX_Kmovw_kr_km16, r, at),
                None => self.mask_constant(v, r),
            };
        }
        if let Some(at) = self.slot(v, 0) {
            return op2!(self, Code::Mov_r64_rm64, r, at);
        }
        let i = def_inst(self.f, v).ok_or("a rematerialized parameter")?;
        match self.f.dfg.insts[i].op {
            Op::Iconst(_) | Op::Null | Op::Undef => {
                let c = self.constant(v).unwrap_or(0);
                let c = if self.ty(v) == Type::I1 { c & 1 } else { c };
                if c == 0 {
                    op2!(self, Code::Xor_r32_rm32, r32(r), r32(r))
                } else if c <= u64::from(u32::MAX) && (!self.wide(v) || c >> 31 == 0) {
                    op2!(self, Code::Mov_r32_imm32, r32(r), c as u32)
                } else if self.wide(v) && i32::try_from(c as i64).is_ok() {
                    op2!(self, Code::Mov_rm64_imm32, r, c as i64 as i32)
                } else {
                    op2!(self, Code::Mov_r64_imm64, r, c)
                }
            }
            _ if self.plan.any_of(v).is_some() => {
                let (m, all) = self.plan.any_of(v).expect("an any");
                let set = if self.avx2() {
                    self.test_mask(r, m, all)?;
                    if all {
                        Code::Sete_rm8
                    } else {
                        Code::Setne_rm8
                    }
                } else {
                    let k = self.kreg(m, KS)?;
                    // KORTESTW sets ZF where no bit is set and CF where every bit is.
                    op2!(self, self.mask_codes(m).kortest, k, k)?;
                    if all {
                        Code::Setb_rm8
                    } else {
                        Code::Setne_rm8
                    }
                };
                op1!(self, set, r8(r))?;
                op2!(self, Code::Movzx_r32_rm8, r32(r), r8(r))
            }
            Op::GlobalAddr(g) if self.plan.local_offset(g).is_none() => {
                // Program-scope data: its address, written where the program is placed
                // (an absolute relocation of the immediate).
                self.data_relocs.push((self.code.len(), g));
                op2!(self, Code::Mov_r64_imm64, r, 0u64)
            }
            Op::GlobalAddr(g) => {
                // A `__local` variable: at its offset in the group's local memory.
                let off = self
                    .plan
                    .local_offset(g)
                    .ok_or("a global outside local memory")?;
                if self.plan.local_regs() {
                    return op2!(self, Code::Lea_r64_m, r, mem(LOCAL_BASE, off as i64));
                }
                op2!(self, Code::Mov_r64_rm64, r, mem(Register::RSP, 0))?;
                let base = mem(r, i64::from(offsets::LOCAL_MEM));
                op2!(self, Code::Mov_r64_rm64, r, base)?;
                if off != 0 {
                    op2!(self, Code::Lea_r64_m, r, mem(r, off as i64))?;
                }
                Ok(())
            }
            _ => Err(format!("{v} cannot be rematerialized")),
        }
    }

    /// Copies general register `src` to `dst` (64 bits), unless they are one.
    fn mov(&mut self, dst: Register, src: Register) -> Res<()> {
        if dst != src {
            op2!(self, Code::Mov_r64_rm64, dst, src)?;
        }
        Ok(())
    }

    fn vmov(&mut self, dst: Register, src: Register) -> Res<()> {
        if dst != src {
            op2!(
                self,
                Code::EVEX_Vmovaps_zmm_k1z_zmmm512,
                zmm_of(dst),
                zmm_of(src)
            )?;
        }
        Ok(())
    }

    /// A vector register holding `v` as `bytes` wide: its own, or scratch `n` (an
    /// undefined value: whatever the scratch holds).
    fn vec(&mut self, v: Value, n: usize) -> Res<Register> {
        if let Some(p) = self.pinned_value(v) {
            return Ok(sized(p, self.vbytes(v)));
        }
        if self.plan.is_remat(v) {
            let r = sized(ZMM[n], self.vbytes(v));
            self.vec_constant(v, r)?;
            return Ok(r);
        }
        if let Some(at) = self.slot(v, 0) {
            op2!(self, MOVUPS_LOAD[2], ZMM[n], at)?;
            return Ok(sized(ZMM[n], self.vbytes(v)));
        }
        self.vreg(v)
    }

    /// Puts rematerialized vector value `v` into `r` (a constant; an undefined value leaves
    /// `r` as it is).
    fn vec_constant(&mut self, v: Value, r: Register) -> Res<()> {
        let i = def_inst(self.f, v).ok_or("a rematerialized parameter")?;
        let bits = match self.f.dfg.insts[i].op {
            Op::Undef => return Ok(()),
            Op::Iconst(c) | Op::Fconst(c) => c as u32,
            _ => return Err(format!("{v} cannot be rematerialized")),
        };
        if self.ty(v).is_vector() {
            let bits = replicated(self.ty(v), bits);
            return self.broadcast(sized(r, self.ty(v).bytes()), bits);
        }
        if let Some(p) = self.pinned(bits) {
            return self.vmov(r, p);
        }
        if bits == 0 {
            let x = xmm_of(r);
            return op3!(self, Code::EVEX_Vpxord_xmm_k1z_xmm_xmmm128b32, x, x, x);
        }
        op2!(self, Code::Mov_r32_imm32, r32(S1), bits)?;
        op2!(self, Code::EVEX_Vmovd_xmm_rm32, xmm_of(r), r32(S1))
    }

    /// An `xmm` register whose low lane is lane `n` of vector register `v`: `v` itself for
    /// lane 0, else scratch `zmm31` rotated by `valignd` (Intel SDM, VALIGND: the two sources'
    /// concatenation shifted right by `n` lanes).
    fn lane(&mut self, v: Register, n: u8) -> Res<Register> {
        if n == 0 {
            return Ok(xmm_of(v));
        }
        if self.avx2() {
            // The 128-bit half that holds the lane, then the lane moved to the bottom.
            let s = XMM[VS1];
            let mut from = xmm_of(v);
            if n >= 4 {
                op3!(
                    self,
                    Code::VEX_Vextractf128_xmmm128_ymm_imm8,
                    s,
                    ymm_of(v),
                    1u32
                )?;
                from = s;
            }
            op3!(
                self,
                Code::VEX_Vpermilps_xmm_xmmm128_imm8,
                s,
                from,
                u32::from(n % 4)
            )?;
            return Ok(s);
        }
        let code = match bytes_of(v) {
            64 => Code::EVEX_Valignd_zmm_k1z_zmm_zmmm512b32_imm8,
            32 => Code::EVEX_Valignd_ymm_k1z_ymm_ymmm256b32_imm8,
            _ => Code::EVEX_Valignd_xmm_k1z_xmm_xmmm128b32_imm8,
        };
        let s = sized(ZMM[VS1], bytes_of(v));
        op4!(self, code, s, v, v, u32::from(n))?;
        Ok(xmm_of(s))
    }

    /// `d` (a vector register named for `bytes`, not scratch 30 or 31) = the `i32` lanes of
    /// the `f32` lanes of `a` rounded as `round` says, saturated as Cranelift's
    /// `fcvt_to_sint_sat` is (NaN gives 0, too large the largest `int`), which the CPU device
    /// uses for every conversion to `int` (out-of-range results are unspecified otherwise,
    /// OpenCL C 6.4.3.3).
    fn float_to_int(
        &mut self,
        d: Register,
        a: Register,
        round: ferrocl_ir::Round,
        bytes: u32,
    ) -> Res<()> {
        let x = self.rounded(a, round, bytes)?;
        op2!(self, pick(CVTTPS2DQ, bytes), d, x)?;
        if self.avx2() {
            // The same lanes chosen by masks (`conversion_mask`; `x` is in 30 or `a`'s).
            let m = sized(self.conversion_mask(d), bytes.max(16));
            let (d, x) = (sized(d, bytes.max(16)), sized(x, bytes.max(16)));
            let s = self.constant_reg(0x4f00_0000, VS1, bytes.max(16))?;
            let ge = cmpps_predicate(FloatCC::Oge);
            op4!(self, vex_pick(bytes, CMPPS_VEX), m, x, s, ge)?;
            let s = self.constant_reg(0x7fff_ffff, VS1, bytes.max(16))?;
            self.blend_by(d, d, s, m)?;
            let uno = cmpps_predicate(FloatCC::Uno);
            op4!(self, vex_pick(bytes, CMPPS_VEX), m, x, x, uno)?;
            return op3!(self, vex_pick(bytes, PANDN_VEX), d, m, d);
        }
        // Lanes of 2^31 and above: the largest int (VCVTTPS2DQ gives 0x80000000).
        let s = self.constant_reg(0x4f00_0000, VS1, bytes)?;
        op4!(
            self,
            pick(CMPPS, bytes),
            KS,
            x,
            s,
            cmpps_predicate(FloatCC::Oge)
        )?;
        let s = self.constant_reg(0x7fff_ffff, VS1, bytes)?;
        let mut i = Instruction::with2(pick(MOVAPS, bytes), d, s).map_err(bad)?;
        i.set_op_mask(KS);
        self.push(i);
        // NaN lanes: 0.
        op4!(
            self,
            pick(CMPPS, bytes),
            KS,
            x,
            x,
            cmpps_predicate(FloatCC::Uno)
        )?;
        self.zero_under_ks(d, bytes)?;
        Ok(())
    }

    /// Zeros the lanes of `d` (named for `bytes`) that scratch mask `k7` selects.
    fn zero_under_ks(&mut self, d: Register, bytes: u32) -> Res<()> {
        let mut i = Instruction::with3(pick(PXORD, bytes), d, d, d).map_err(bad)?;
        i.set_op_mask(KS);
        self.push(i);
        Ok(())
    }

    /// The register constant `bits` is pinned to, if it is.
    fn pinned(&self, bits: u32) -> Option<Register> {
        self.pinned
            .iter()
            .find(|&&(b, _)| b == bits)
            .map(|&(_, n)| ZMM[n])
    }

    /// The register rematerialized constant `v` is pinned to, if it is.
    fn pinned_value(&self, v: Value) -> Option<Register> {
        if !self.plan.is_remat(v) {
            return None;
        }
        let i = def_inst(self.f, v)?;
        match self.f.dfg.insts[i].op {
            Op::Iconst(c) | Op::Fconst(c) => self.pinned(replicated(self.ty(v), c as u32)),
            _ => None,
        }
    }

    /// A vector register named for `bytes` bytes whose lanes hold constant `bits`: the one
    /// it is pinned to, or scratch `n` with it broadcast there.
    fn constant_reg(&mut self, bits: u32, n: usize, bytes: u32) -> Res<Register> {
        if let Some(p) = self.pinned(bits) {
            return Ok(sized(p, bytes));
        }
        let s = sized(ZMM[n], bytes);
        self.broadcast(s, bits)?;
        Ok(s)
    }

    /// Scratch `zmm30` (named for `bytes`) = the `f32` lanes of `a` rounded to integers as
    /// `round` says (VRNDSCALEPS imm8: bits 1:0 the rounding, bit 3 suppresses the precision
    /// exception).
    fn rounded(&mut self, a: Register, round: ferrocl_ir::Round, bytes: u32) -> Res<Register> {
        let x = sized(ZMM[VS0], bytes);
        let imm = match round {
            ferrocl_ir::Round::Rte => 0x08u32,
            ferrocl_ir::Round::Rtn => 0x09,
            ferrocl_ir::Round::Rtp => 0x0a,
            ferrocl_ir::Round::Rtz => 0x0b,
        };
        op3!(self, pick(RNDSCALEPS, bytes), x, sized(a, bytes), imm)?;
        Ok(x)
    }

    /// `d` (a vector register named for `bytes`, not scratch 30 or 31) = the `u32` lanes of
    /// the `f32` lanes of `a` rounded as `round` says, saturated (OpenCL C 6.4.3.3: NaN gives
    /// 0, values below 0 give 0, above the range `UINT_MAX`). VCVTTPS2UDQ gives `UINT_MAX`
    /// for every value out of range and for NaN (Intel SDM), so the lanes below zero or
    /// unordered are cleared after it.
    fn float_to_uint(
        &mut self,
        d: Register,
        a: Register,
        round: ferrocl_ir::Round,
        bytes: u32,
    ) -> Res<()> {
        let x = self.rounded(a, round, bytes)?;
        if self.avx2() {
            // AVX2 converts only to signed lanes: those of 2^31 and above less 2^31, their
            // sign bit set again; all ones from 2^32 on; 0 below zero and for NaN.
            let n = bytes.max(16);
            let m = self.conversion_mask(d);
            let (d, x, m, s) = (sized(d, n), sized(x, n), sized(m, n), sized(ZMM[VS1], n));
            op2!(self, pick(CVTTPS2DQ, n), d, x)?;
            let two31 = self.pool_ref([0x4f00_0000; 16]);
            op3!(self, vex_pick(n, SUBPS_VEX), s, x, two31)?;
            op2!(self, pick(CVTTPS2DQ, n), s, s)?;
            let sign = self.pool_ref([0x8000_0000; 16]);
            op3!(self, vex_pick(n, PXOR_VEX), s, s, sign)?;
            let two31 = self.pool_ref([0x4f00_0000; 16]);
            op4!(
                self,
                vex_pick(n, CMPPS_VEX),
                m,
                x,
                two31,
                cmpps_predicate(FloatCC::Oge)
            )?;
            self.blend_by(d, d, s, m)?;
            let two32 = self.pool_ref([0x4f80_0000; 16]);
            op4!(
                self,
                vex_pick(n, CMPPS_VEX),
                m,
                x,
                two32,
                cmpps_predicate(FloatCC::Oge)
            )?;
            op3!(self, vex_pick(n, POR_VEX), d, d, m)?;
            let zero = self.pool_ref([0; 16]);
            // NGE_UQ: not greater or equal, or unordered.
            op4!(self, vex_pick(n, CMPPS_VEX), m, x, zero, 0x19u32)?;
            return op3!(self, vex_pick(n, PANDN_VEX), d, m, d);
        }
        op2!(self, pick(CVTTPS2UDQ, bytes), d, x)?;
        let zero = sized(ZMM[VS1], bytes);
        let z = xmm_of(zero);
        op3!(self, Code::EVEX_Vpxord_xmm_k1z_xmm_xmmm128b32, z, z, z)?;
        // NGE_UQ: not greater or equal, or unordered.
        op4!(self, pick(CMPPS, bytes), KS, x, zero, 0x19u32)?;
        self.zero_under_ks(d, bytes)?;
        Ok(())
    }

    /// `dst = [pool entry of words]` with load instruction `code` (RIP-relative: the operand
    /// is fixed where the pool is placed, [`Self::finish`]).
    fn load_pool(&mut self, dst: Register, code: Code, words: [u32; 16]) -> Res<()> {
        let at = self.pool_ref(words);
        op2!(self, code, dst, at)
    }

    /// The pool's entry of `words` as the memory operand of the next instruction emitted
    /// (RIP-relative: fixed where the pool is placed, [`Self::finish`]).
    fn pool_ref(&mut self, words: [u32; 16]) -> MemoryOperand {
        let entry = match self.pool.iter().position(|p| *p == words) {
            Some(e) => e,
            None => {
                self.pool.push(words);
                self.pool.len() - 1
            }
        };
        self.pool_refs.push((self.code.len(), entry));
        mem(Register::RIP, 0)
    }

    /// Broadcasts 32-bit constant `bits` into vector register `dst` (named by its size).
    fn broadcast(&mut self, dst: Register, bits: u32) -> Res<()> {
        if let Some(p) = self.pinned(bits) {
            return self.vmov(dst, p);
        }
        self.broadcast_here(dst, bits)
    }

    /// Broadcasts `bits` into `dst` with instructions of its own.
    fn broadcast_here(&mut self, dst: Register, bits: u32) -> Res<()> {
        if bits == 0 {
            let x = xmm_of(dst);
            return op3!(self, Code::EVEX_Vpxord_xmm_k1z_xmm_xmmm128b32, x, x, x);
        }
        // One broadcast from the constant pool (two instructions through a general register
        // before: `mov`, `vpbroadcastd`).
        self.load_pool(dst, pick(BROADCASTSS, bytes_of(dst)), [bits; 16])
    }

    fn prologue(&mut self, saved: &[Register], layout: &[ArgSlot]) -> Res<()> {
        for &r in saved {
            op1!(self, Code::Push_r64, r)?;
        }
        if self.alloc.slots > 0 {
            let bytes = 8 * self.alloc.slots as i32;
            op2!(self, Code::Sub_rm64_imm32, Register::RSP, bytes)?;
        }
        // The group context stays at [rsp] for the body; frames wait on the stack above it.
        op1!(self, Code::Push_r64, Register::RSI)?;
        op1!(self, Code::Push_r64, Register::RDX)?;
        self.mov(S0, Register::RDI)?;
        self.mov(S1, Register::RSI)?;
        if self.plan.local_regs() {
            op2!(
                self,
                Code::Mov_r64_rm64,
                LOCAL_BASE,
                mem(S1, i64::from(offsets::LOCAL_MEM))
            )?;
            op2!(
                self,
                Code::Mov_r64_rm64,
                LOCAL_MASK,
                mem(S1, i64::from(offsets::LOCAL_MASK))
            )?;
        }
        let f = self.f;
        let entry = f.layout.entry_block().ok_or("no entry block")?;
        let params = f.dfg.block_params(entry);
        let Some((&ctx, kernel)) = params.split_last() else {
            return Err("no context parameter".into());
        };
        for (&p, slot) in kernel.iter().zip(layout) {
            if self.plan.uses(p) == 0 {
                continue;
            }
            let at = mem(S0, slot.offset as i64);
            let ty = self.ty(p);
            if ty.is_vector() {
                return Err(format!("vector argument {p}"));
            }
            if ty == Type::F32 || ty == Type::F64 {
                // In its vector register, or through the vector spill scratch to its slot.
                let spilled = self.slot(p, 8);
                let r = match spilled {
                    Some(_) => ZMM[VEC_SPILL_SCRATCH],
                    None => self.reg(p)?,
                };
                let code = if ty == Type::F64 {
                    Code::EVEX_Vmovsd_xmm_k1z_m64
                } else {
                    Code::EVEX_Vmovss_xmm_k1z_m32
                };
                op2!(self, code, xmm_of(r), at)?;
                if let Some(to) = spilled {
                    op2!(self, MOVUPS_STORE[2], to, zmm_of(r))?;
                }
                continue;
            }
            let r = self.def_reg(p)?;
            if self.wide(p) {
                op2!(self, Code::Mov_r64_rm64, r, at)?;
            } else if ty == Type::I32 {
                op2!(self, Code::Mov_r32_rm32, r32(r), at)?;
            } else if ty == Type::I16 {
                // Zero-extended, as the tier loads narrow scalars.
                op2!(self, Code::Movzx_r32_rm16, r32(r), at)?;
            } else if ty == Type::I8 {
                op2!(self, Code::Movzx_r32_rm8, r32(r), at)?;
            } else {
                return Err(format!("argument {p} of type {ty}"));
            }
            // A `__local` pointer or a structure by value is an offset in the group's region
            // (the argument block serves every thread's): made an address here, as
            // `codegen.rs` makes it, from the layout (a work-group function has no kernel
            // metadata of its own), so that a clamp (`Emitter::clamp`) sees an address.
            let region = match slot.kind {
                ArgKind::Local => Some(offsets::LOCAL_MEM),
                ArgKind::Aggregate => Some(offsets::PRIVATE_MEM),
                _ => None,
            };
            if let Some(field) = region {
                op2!(self, Code::Add_r64_rm64, r, mem(S1, i64::from(field)))?;
            }
            // Both context addresses are still pushed.
            if let Some(to) = self.slot(p, 8) {
                op2!(self, Code::Mov_rm64_r64, to, r)?;
            }
        }
        for (bits, n) in self.pinned.clone() {
            self.broadcast_here(ZMM[n], bits)?;
        }
        if let Some(to) = self.slot(ctx, 8) {
            op2!(
                self,
                Code::Mov_r64_rm64,
                SPILL_SCRATCH,
                mem(Register::RSP, 0)
            )?;
            op2!(self, Code::Mov_rm64_r64, to, SPILL_SCRATCH)?;
            op2!(self, Code::Add_rm64_imm8, Register::RSP, 8)
        } else if self.plan.uses(ctx) > 0 {
            let r = self.reg(ctx)?;
            op1!(self, Code::Pop_r64, r)
        } else {
            op2!(self, Code::Add_rm64_imm8, Register::RSP, 8)
        }
    }

    fn epilogue(&mut self, saved: &[Register]) -> Res<()> {
        if !self.streaming.is_empty() {
            // The streamed stores are weakly ordered: they reach memory before the group's
            // end is reported, as every other store of the group does.
            self.op0(Code::Sfence);
        }
        self.op0(Code::VEX_Vzeroupper);
        let bytes = 8 + 8 * self.alloc.slots as i32;
        op2!(self, Code::Add_rm64_imm32, Register::RSP, bytes)?;
        for &r in saved.iter().rev() {
            op1!(self, Code::Pop_r64, r)?;
        }
        self.op0(Code::Retnq);
        Ok(())
    }

    fn inst(&mut self, inst: Inst, next: Option<Block>, saved: &[Register]) -> Res<()> {
        let f = self.f;
        let data = &f.dfg.insts[inst];
        let args: Vec<Value> = data.args.iter().map(|&a| f.dfg.resolve(a)).collect();
        let result = f.dfg.inst_result(inst);
        if let Some(r) = result {
            // A pure instruction whose result nobody reads, or one read where it is used.
            if (self.plan.uses(r) == 0 && data.op.is_pure() && !matches!(data.op, Op::Load(_)))
                || self.plan.is_remat(r)
            {
                return Ok(());
            }
            if self.plan.uses(r) == 0 && matches!(data.op, Op::Load(_)) {
                return Ok(());
            }
        }
        match &data.op {
            Op::Jump(d) => self.edge(d, next),
            Op::Brif(dests) => self.brif(args[0], &dests.0, &dests.1, next),
            Op::Switch(table) => self.switch(args[0], table, next),
            Op::Return => self.epilogue(saved),
            Op::Store(m) => self.store(&args, m, self.streaming.contains(inst)),
            op => {
                let r = result.ok_or("an instruction without a result")?;
                match self.plan.class(r) {
                    Class::Gpr => self.gpr_inst(op, r, &args).and_then(|()| {
                        if narrow(self.ty(r)) {
                            // An `i8` or `i16` result, zero-extended again.
                            let d = self.def_reg(r)?;
                            self.zero_extend(d, d, self.ty(r))?;
                        }
                        if let Some(space) = self.plan.clamped(r) {
                            let d = self.def_reg(r)?;
                            self.clamp(d, space)?;
                        }
                        match self.slot(r, 0) {
                            Some(to) => op2!(self, Code::Mov_rm64_r64, to, SPILL_SCRATCH),
                            None => Ok(()),
                        }
                    }),
                    Class::Vec => {
                        self.vec_inst(op, r, &args)
                            .and_then(|()| match self.slot(r, 0) {
                                Some(to) => op2!(self, MOVUPS_STORE[2], to, ZMM[VEC_SPILL_SCRATCH]),
                                None => Ok(()),
                            })
                    }
                    Class::Mask => {
                        self.mask_inst(op, r, &args)
                            .and_then(|()| match self.slot(r, 0) {
                                Some(to) => op2!(self, Code::VEX_Kmovw_m16_kr, to, Register::K0),
                                None => Ok(()),
                            })
                    }
                }
            }
        }
        .map_err(|e| format!("{}: {e}", inst_text(f, inst)))
    }

    /// Stores have no result: handled here.
    /// The value is read first (a constant may need `r11`), then the address.
    /// Stores `args[0]` through `args[1]`; one of [`streaming_stores`] (`stream`) bypasses
    /// the caches where the launch streams ([`Emitter::streaming_store`]).
    fn store(&mut self, args: &[Value], m: &MemFlags, stream: bool) -> Res<()> {
        let (x, p) = (args[0], args[1]);
        match self.plan.class(x) {
            Class::Gpr if self.plan.is_remat(x) => {
                let k = self
                    .imm(x)
                    .ok_or("a stored value that is not an immediate")?;
                let at = self.address(p, m)?;
                match self.ty(x) {
                    _ if self.wide(x) => op2!(self, Code::Mov_rm64_imm32, at, k),
                    Type::I8 => op2!(self, Code::Mov_rm8_imm8, at, k as u8 as u32),
                    Type::I16 => op2!(self, Code::Mov_rm16_imm16, at, k as u16 as u32),
                    _ => op2!(self, Code::Mov_rm32_imm32, at, k as u32),
                }
            }
            Class::Gpr => {
                let r = self.gpr(x, SPILL_SCRATCH)?;
                let at = self.address(p, m)?;
                if self.wide(x) {
                    op2!(self, Code::Mov_rm64_r64, at, r)
                } else if self.ty(x) == Type::I8 {
                    op2!(self, Code::Mov_rm8_r8, at, r8(r))
                } else if self.ty(x) == Type::I16 {
                    op2!(self, Code::Mov_rm16_r16, at, r16(r))
                } else {
                    op2!(self, Code::Mov_rm32_r32, at, r32(r))
                }
            }
            Class::Vec if self.ty(x) == Type::F32 => {
                let r = self.vec(x, VS0)?;
                let at = self.address(p, m)?;
                op2!(self, Code::EVEX_Vmovss_m32_k1_xmm, at, r)
            }
            Class::Vec if self.ty(x).bytes() == 4 => {
                let r = self.vec(x, VS0)?;
                let at = self.address(p, m)?;
                op2!(self, Code::EVEX_Vmovss_m32_k1_xmm, at, xmm_of(r))
            }
            Class::Vec if self.ty(x).is_vector() && self.ty(x).lanes() == 3 => {
                // Three lanes: two, then the third; the fourth word is not written (6.1.5:
                // a 3-component vector's size is 4 components', and `vstore3` writes 3).
                let r = self.vec(x, VS0)?;
                let at = self.address(p, m)?;
                let third = displaced(at, 8);
                op2!(self, Code::EVEX_Vmovsd_m64_k1_xmm, at, xmm_of(r))?;
                op3!(
                    self,
                    Code::EVEX_Vextractps_rm32_xmm_imm8,
                    third,
                    xmm_of(r),
                    2u32
                )
            }
            Class::Vec if self.ty(x).bytes() == 8 => {
                let r = self.vec(x, VS0)?;
                let at = self.address(p, m)?;
                op2!(self, Code::EVEX_Vmovsd_m64_k1_xmm, at, xmm_of(r))
            }
            Class::Vec => {
                let r = self.vec(x, VS0)?;
                let at = self.address(p, m)?;
                if stream {
                    return self.streaming_store(at, r, self.ty(x).bytes());
                }
                op2!(self, pick(MOVUPS_STORE, self.ty(x).bytes()), at, r)
            }
            Class::Mask => Err("a mask stored".into()),
        }
    }

    /// A store of the `bytes` (32 or 64) of vector register `r` at `at` that bypasses the
    /// caches (`vmovntps`) where the launch streams (`GroupCtx::streaming`) and the address
    /// is aligned to the vector, as the instruction requires; else a plain store. The
    /// epilogue orders the streamed stores before the function returns (`sfence`).
    fn streaming_store(&mut self, at: MemoryOperand, r: Register, bytes: u32) -> Res<()> {
        let (plain, done) = (self.new_label(), self.new_label());
        // The address first: `at` may be based on either scratch register.
        op2!(self, Code::Lea_r64_m, S1, at)?;
        op2!(self, Code::Mov_r64_rm64, S0, mem(Register::RSP, 0))?;
        op2!(
            self,
            Code::Cmp_rm64_imm8,
            mem(S0, i64::from(offsets::STREAMING)),
            0
        )?;
        self.jump(Code::Je_rel32_64, plain)?;
        op2!(self, Code::Test_rm32_imm32, r32(S1), bytes - 1)?;
        self.jump(Code::Jne_rel32_64, plain)?;
        let streamed = if bytes == 64 {
            Code::EVEX_Vmovntps_m512_zmm
        } else {
            Code::EVEX_Vmovntps_m256_ymm
        };
        op2!(self, streamed, mem(S1, 0), sized(r, bytes))?;
        self.jump(Code::Jmp_rel32_64, done)?;
        self.bind(plain);
        op2!(self, pick(MOVUPS_STORE, bytes), mem(S1, 0), sized(r, bytes))?;
        self.bind(done);
        Ok(())
    }

    /// The memory operand of an access (with flags `m`) through pointer `p`: `[p]`, or
    /// `[base + offset]` for a `ptradd` folded into its accesses (`Plan::folded_address`);
    /// confined as Cranelift's code confines it where it is a `__local` or `__private` one.
    /// Uses `r10` and `r11`.
    fn address(&mut self, p: Value, m: &MemFlags) -> Res<MemoryOperand> {
        let at = self.raw_address(p)?;
        let (base, mask) = match m.space {
            _ if self.plan.unconfined(self.f, m, p) => return Ok(at),
            AddrSpace::Local => (offsets::LOCAL_MEM, offsets::LOCAL_MASK),
            AddrSpace::Private => (offsets::PRIVATE_MEM, offsets::PRIVATE_MASK),
            _ => return Ok(at),
        };
        // The region is aligned to its size, a power of two: the address's offset in it is
        // its bits under the region's mask, so an address out of range wraps inside the
        // region (and the padding after it takes the access's other bytes), as `codegen.rs`
        // confines one.
        op2!(self, Code::Lea_r64_m, S0, at)?;
        if m.space == AddrSpace::Local && self.plan.local_regs() {
            op2!(self, Code::And_r64_rm64, S0, LOCAL_MASK)?;
            return Ok(MemoryOperand::with_base_index(LOCAL_BASE, S0));
        }
        op2!(self, Code::Mov_r64_rm64, S1, mem(Register::RSP, 0))?;
        op2!(self, Code::And_r64_rm64, S0, mem(S1, i64::from(mask)))?;
        op2!(self, Code::Add_r64_rm64, S0, mem(S1, i64::from(base)))?;
        Ok(mem(S0, 0))
    }

    /// Clamps address `d` into the window around its space's region where it is defined
    /// ([`Plan::clamped`]): `start + min(d - start, span)`, unsigned, so that an address below
    /// the window wraps to a large offset and goes to the window's end, as one above it does
    /// (`codegen::Translator::clamped`). Uses `r10` and `r11`.
    fn clamp(&mut self, d: Register, space: AddrSpace) -> Res<()> {
        let (start, span) = match space {
            AddrSpace::Local => (offsets::LOCAL_WINDOW, offsets::LOCAL_WINDOW_SPAN),
            _ => (offsets::PRIVATE_WINDOW, offsets::PRIVATE_WINDOW_SPAN),
        };
        let window = crate::codegen::CLAMP_WINDOW;
        if space == AddrSpace::Local && self.plan.local_regs() {
            // The window from the region's base and mask in their registers (`abi::GroupCtx`:
            // it starts `CLAMP_WINDOW` below the base and spans the mask plus twice that), with
            // no load from the context: sgemm's tile loop is bound by its loads.
            op2!(self, Code::Sub_r64_rm64, d, LOCAL_BASE)?;
            op2!(self, Code::Add_rm64_imm32, d, window as i32)?;
            op2!(self, Code::Lea_r64_m, S0, mem(LOCAL_MASK, 2 * window))?;
            op2!(self, Code::Cmp_r64_rm64, d, S0)?;
            op2!(self, Code::Cmova_r64_rm64, d, S0)?;
            let at = MemoryOperand::with_base_index_scale_displ_size(LOCAL_BASE, d, 1, -window, 1);
            return op2!(self, Code::Lea_r64_m, d, at);
        }
        let (start, span) = (i64::from(start), i64::from(span));
        op2!(self, Code::Mov_r64_rm64, S1, mem(Register::RSP, 0))?;
        op2!(self, Code::Sub_r64_rm64, d, mem(S1, start))?;
        op2!(self, Code::Mov_r64_rm64, S0, mem(S1, span))?;
        op2!(self, Code::Cmp_r64_rm64, d, S0)?;
        op2!(self, Code::Cmova_r64_rm64, d, S0)?;
        op2!(self, Code::Add_r64_rm64, d, mem(S1, start))
    }

    /// The memory operand of an access through `p`, unconfined.
    fn raw_address(&mut self, p: Value) -> Res<MemoryOperand> {
        let Some(i) = self.plan.folded_address(p) else {
            let rp = self.gpr(p, S0)?;
            return Ok(mem(rp, 0));
        };
        let args = &self.f.dfg.insts[i].args;
        let (base, off) = (self.f.dfg.resolve(args[0]), self.f.dfg.resolve(args[1]));
        let rb = self.gpr(base, S0)?;
        if let Some(k) = self.imm(off) {
            return Ok(mem(rb, i64::from(k)));
        }
        if let Some((x, scale)) = self.plan.scaled(off) {
            let rx = self.gpr(x, S1)?;
            return Ok(MemoryOperand::with_base_index_scale(
                rb,
                rx,
                u32::from(scale),
            ));
        }
        let ro = self.gpr(off, S1)?;
        Ok(MemoryOperand::with_base_index(rb, ro))
    }

    fn gpr_inst(&mut self, op: &Op, r: Value, args: &[Value]) -> Res<()> {
        let d = self.def_reg(r)?;
        let wide = self.wide(r);
        let dn = if wide { d } else { r32(d) };
        match op {
            Op::Binary(b) => self.int_binary(*b, d, wide, args[0], args[1]),
            Op::WorkItem(w, dim) => {
                // A field of the group context (`check_op` takes no other query).
                let off = ctx_field(*w).ok_or("a work-item query")? + 8 * i32::from(*dim);
                op2!(self, Code::Mov_r64_rm64, d, mem(Register::RSP, 0))?;
                op2!(self, Code::Mov_r64_rm64, d, mem(d, i64::from(off)))
            }
            Op::Unary(u @ (UnaryOp::Clz | UnaryOp::Ctz)) if narrow(self.ty(r)) => {
                // Counted in 32 bits: the zero-extended value's clz less the high zeros
                // added; ctz with a bit set just above the value, so that ctz(0) is the width.
                let w = self.ty(r).bits();
                let a = self.gpr(args[0], S0)?;
                self.mov(S0, a)?;
                if *u == UnaryOp::Clz {
                    op2!(self, Code::Lzcnt_r32_rm32, r32(d), r32(S0))?;
                    op2!(self, Code::Sub_rm32_imm8, r32(d), 32 - w as i32)
                } else {
                    op2!(self, Code::Bts_rm32_imm8, r32(S0), w)?;
                    op2!(self, Code::Tzcnt_r32_rm32, r32(d), r32(S0))
                }
            }
            Op::Unary(u @ (UnaryOp::Popcnt | UnaryOp::Clz | UnaryOp::Ctz)) => {
                // LZCNT and TZCNT give the operand's width for 0, as the IR does.
                let a = self.gpr(args[0], S0)?;
                let code = match (u, wide) {
                    (UnaryOp::Popcnt, true) => Code::Popcnt_r64_rm64,
                    (UnaryOp::Popcnt, false) => Code::Popcnt_r32_rm32,
                    (UnaryOp::Clz, true) => Code::Lzcnt_r64_rm64,
                    (UnaryOp::Clz, false) => Code::Lzcnt_r32_rm32,
                    (_, true) => Code::Tzcnt_r64_rm64,
                    (_, false) => Code::Tzcnt_r32_rm32,
                };
                let a = if wide { a } else { r32(a) };
                op2!(self, code, dn, a)
            }
            Op::Unary(UnaryOp::Ineg) => {
                let a = self.gpr(args[0], S0)?;
                self.mov(d, a)?;
                op1!(self, if wide { Code::Neg_rm64 } else { Code::Neg_rm32 }, dn)
            }
            Op::Unary(UnaryOp::Bnot) => {
                let a = self.gpr(args[0], S0)?;
                self.mov(d, a)?;
                if self.ty(r) == Type::I1 {
                    op2!(self, Code::Xor_rm32_imm32, r32(d), 1)
                } else {
                    op1!(self, if wide { Code::Not_rm64 } else { Code::Not_rm32 }, dn)
                }
            }
            Op::Icmp(cc) => {
                self.compare(*cc, args[0], args[1])?;
                op1!(self, SETCC[cond_index(*cc)], r8(d))?;
                op2!(self, Code::Movzx_r32_rm8, r32(d), r8(d))
            }
            Op::Fcmp(cc) => {
                let (a, b) = (self.vec(args[0], VS0)?, self.vec(args[1], VS1)?);
                if self.avx2() {
                    // The lane of all ones or zeros, its low bit.
                    let (s, p) = (XMM[VS2], cmpps_predicate(*cc));
                    let code = Code::VEX_Vcmpss_xmm_xmm_xmmm32_imm8;
                    op4!(self, code, s, xmm_of(a), xmm_of(b), p)?;
                    op2!(self, Code::VEX_Vmovd_rm32_xmm, r32(d), s)?;
                    return op2!(self, Code::And_rm32_imm8, r32(d), 1);
                }
                let mut code = Code::EVEX_Vcmpss_kr_k1_xmm_xmmm32_imm8_sae;
                if self.ty(args[0]) == Type::F64 {
                    code = double(code)?;
                }
                op4!(self, code, KS, xmm_of(a), xmm_of(b), cmpps_predicate(*cc))?;
                op2!(self, Code::VEX_Kmovw_r32_kr, r32(d), KS)
            }
            Op::Select => {
                let (c, a, b) = (args[0], args[1], args[2]);
                if let Some(k) = self.constant(c) {
                    let src = if k & 1 == 1 { a } else { b };
                    let s = self.gpr(src, S0)?;
                    return self.mov(d, s);
                }
                // The result's register is written last: it may be the spill scratch.
                let rc = self.gpr(c, SPILL_SCRATCH)?;
                let rb = self.gpr(b, S1)?;
                self.mov(S1, rb)?;
                let ra = self.gpr(a, S0)?;
                op2!(self, Code::Test_rm32_r32, r32(rc), r32(rc))?;
                op2!(self, Code::Cmovne_r64_rm64, S1, ra)?;
                self.mov(d, S1)
            }
            Op::Convert(c) => {
                let a = self.gpr(args[0], S0)?;
                match c {
                    ConvOp::Sext if self.ty(args[0]) == Type::I1 => {
                        self.mov(d, a)?;
                        op1!(self, if wide { Code::Neg_rm64 } else { Code::Neg_rm32 }, dn)
                    }
                    ConvOp::Sext if wide && self.ty(args[0]) == Type::I32 => {
                        op2!(self, Code::Movsxd_r64_rm32, d, r32(a))
                    }
                    ConvOp::Sext if narrow(self.ty(args[0])) => {
                        self.sign_extend(d, a, self.ty(args[0]), wide)
                    }
                    ConvOp::SatInt {
                        src_signed,
                        dst_signed,
                    } => {
                        self.saturate(d, a, self.ty(args[0]), *src_signed, self.ty(r), *dst_signed)
                    }
                    ConvOp::FloatToSint { round, .. } | ConvOp::FloatToUint { round, .. }
                        if narrow(self.ty(r)) =>
                    {
                        // As the vector form (`narrow_vec_inst`): to 32 bits, then clamped.
                        let x = self.vec(args[0], VS0)?;
                        let t = XMM[VS2];
                        self.float_to_int(t, x, *round, 16)?;
                        let signed = matches!(c, ConvOp::FloatToSint { .. });
                        self.clamp_to_narrow(t, 16, self.ty(r) == Type::I8, signed)?;
                        op2!(self, Code::EVEX_Vmovd_rm32_xmm, r32(d), t)
                    }
                    ConvOp::FloatToSint { round, .. } => {
                        let x = self.vec(args[0], VS0)?;
                        let t = XMM[VS2];
                        self.float_to_int(t, x, *round, 16)?;
                        op2!(self, Code::EVEX_Vmovd_rm32_xmm, r32(d), t)
                    }
                    ConvOp::FloatToUint { round, .. } => {
                        let x = self.vec(args[0], VS0)?;
                        let t = XMM[VS2];
                        self.float_to_uint(t, x, *round, 16)?;
                        op2!(self, Code::EVEX_Vmovd_rm32_xmm, r32(d), t)
                    }
                    ConvOp::Sext | ConvOp::Zext | ConvOp::Trunc => {
                        if wide && self.wide(args[0]) {
                            self.mov(d, a)
                        } else {
                            op2!(self, Code::Mov_r32_rm32, r32(d), r32(a))
                        }
                    }
                    _ => Err(format!("conversion {c:?}")),
                }
            }
            Op::Bitcast => {
                let a = self.vec(args[0], VS0)?;
                op2!(self, Code::EVEX_Vmovd_rm32_xmm, r32(d), xmm_of(a))
            }
            Op::PtrToInt | Op::IntToPtr | Op::AddrCast => {
                let a = self.gpr(args[0], S0)?;
                if wide {
                    self.mov(d, a)
                } else {
                    op2!(self, Code::Mov_r32_rm32, r32(d), r32(a))
                }
            }
            Op::PtrAdd => {
                let p = self.gpr(args[0], S0)?;
                let off = args[1];
                if let Some(k) = self.imm(off).filter(|_| self.wide(off)) {
                    return op2!(self, Code::Lea_r64_m, d, mem(p, i64::from(k)));
                }
                let o = self.gpr(off, S1)?;
                let o = if self.wide(off) {
                    o
                } else {
                    op2!(self, Code::Movsxd_r64_rm32, S1, r32(o))?;
                    S1
                };
                let m = MemoryOperand::with_base_index(p, o);
                op2!(self, Code::Lea_r64_m, d, m)
            }
            Op::ExtractLane(n) if self.plan.widened(args[0]).is_some() => {
                let w = self.plan.widened(args[0]).expect("widened");
                // The lane first (making a vector may take the general scratch registers),
                // then the scalars added, read before `d` is written: `d` may be the
                // register of one (the lane is its last reader), which then waits in a
                // scratch register.
                let v = self.vec(w.from, VS0)?;
                let x = self.lane(v, *n)?;
                let mut addends = Vec::new();
                for (b, scratch) in w.addends.into_iter().zip([S0, S1]) {
                    let Some(b) = b else { continue };
                    let rb = self.gpr(b, scratch)?;
                    if rb == d {
                        self.mov(scratch, rb)?;
                    }
                    addends.push(if rb == d { scratch } else { rb });
                }
                op2!(self, Code::EVEX_Vmovd_rm32_xmm, r32(d), x)?;
                if w.signed {
                    op2!(self, Code::Movsxd_r64_rm32, d, r32(d))?;
                }
                for rb in addends {
                    op2!(self, Code::Add_r64_rm64, d, rb)?;
                }
                if w.shift > 0 {
                    op2!(self, Code::Shl_rm64_imm8, d, u32::from(w.shift))?;
                }
                Ok(())
            }
            Op::ExtractLane(n) if narrow_vector(self.ty(args[0])) => {
                // VPEXTRB / VPEXTRW (zero-extended, as the tier loads narrow scalars), from
                // the upper 128 bits for a word past the eighth.
                let v = self.vec(args[0], VS0)?;
                if self.ty(args[0]).lane_type() == Type::I8 {
                    let code = Code::EVEX_Vpextrb_r32m8_xmm_imm8;
                    return op3!(self, code, r32(d), xmm_of(v), u32::from(*n));
                }
                let (x, n) = if *n >= 8 {
                    let s = XMM[VS1];
                    let code = Code::EVEX_Vextracti32x4_xmmm128_k1z_ymm_imm8;
                    op3!(self, code, s, ymm_of(v), 1u32)?;
                    (s, n - 8)
                } else {
                    (xmm_of(v), *n)
                };
                op3!(
                    self,
                    Code::EVEX_Vpextrw_r32_xmm_imm8,
                    r32(d),
                    x,
                    u32::from(n)
                )
            }
            Op::ExtractLane(n) if self.plan.class(args[0]) == Class::Vec => {
                let v = self.vec(args[0], VS0)?;
                let x = self.lane(v, *n)?;
                op2!(self, Code::EVEX_Vmovd_rm32_xmm, r32(d), x)
            }
            Op::ExtractLane(n) => {
                if self.avx2() {
                    let m = self.vec(args[0], VS0)?;
                    let code = vex_pick(self.vbytes(args[0]), MOVMSKPS_VEX);
                    op2!(self, code, r32(d), m)?;
                } else {
                    let k = self.kreg(args[0], KS)?;
                    op2!(self, Code::VEX_Kmovw_r32_kr, r32(d), k)?;
                }
                if *n > 0 {
                    op2!(self, Code::Shr_rm32_imm8, r32(d), u32::from(*n))?;
                }
                op2!(self, Code::And_rm32_imm8, r32(d), 1)
            }
            Op::Load(m) => {
                let at = self.address(args[0], m)?;
                if wide {
                    op2!(self, Code::Mov_r64_rm64, d, at)
                } else if self.ty(r) == Type::I8 {
                    op2!(self, Code::Movzx_r32_rm8, r32(d), at)
                } else if self.ty(r) == Type::I16 {
                    op2!(self, Code::Movzx_r32_rm16, r32(d), at)
                } else {
                    op2!(self, Code::Mov_r32_rm32, r32(d), at)
                }
            }
            Op::Store(m) => self.store(args, m, false),
            other => Err(format!("{other:?} in a general register")),
        }
    }

    /// `d = a OP b` on general registers, 64-bit when `wide`.
    fn int_binary(&mut self, b: BinaryOp, d: Register, wide: bool, x: Value, y: Value) -> Res<()> {
        let n = |r: Register| if wide { r } else { r32(r) };
        let pick2 = |c64: Code, c32: Code| if wide { c64 } else { c32 };
        let ra = self.gpr(x, S0)?;
        match b {
            BinaryOp::Iadd | BinaryOp::Isub if self.imm(y).is_some() => {
                let k = i64::from(self.imm(y).unwrap_or(0));
                let k = if b == BinaryOp::Isub { -k } else { k };
                let lea = pick2(Code::Lea_r64_m, Code::Lea_r32_m);
                op2!(self, lea, n(d), mem(ra, k))
            }
            BinaryOp::Iadd => {
                let rb = self.gpr(y, S1)?;
                let lea = pick2(Code::Lea_r64_m, Code::Lea_r32_m);
                op2!(self, lea, n(d), MemoryOperand::with_base_index(ra, rb))
            }
            BinaryOp::Isub => {
                let rb = self.gpr(y, S1)?;
                if d == rb {
                    op1!(self, pick2(Code::Neg_rm64, Code::Neg_rm32), n(d))?;
                    op2!(
                        self,
                        pick2(Code::Add_r64_rm64, Code::Add_r32_rm32),
                        n(d),
                        n(ra)
                    )
                } else {
                    self.mov(d, ra)?;
                    op2!(
                        self,
                        pick2(Code::Sub_r64_rm64, Code::Sub_r32_rm32),
                        n(d),
                        n(rb)
                    )
                }
            }
            BinaryOp::Imul if self.imm(y).is_some_and(|k| k > 1 && k.count_ones() == 1) => {
                // A power of two: a shift (one cycle, where IMUL takes three).
                let k = self.imm(y).unwrap_or(2).trailing_zeros();
                self.mov(d, ra)?;
                op2!(
                    self,
                    pick2(Code::Shl_rm64_imm8, Code::Shl_rm32_imm8),
                    n(d),
                    k
                )
            }
            BinaryOp::Imul if self.imm(y).is_some() => {
                let k = self.imm(y).unwrap_or(0);
                let code = pick2(Code::Imul_r64_rm64_imm32, Code::Imul_r32_rm32_imm32);
                op3!(self, code, n(d), n(ra), k)
            }
            BinaryOp::Imul | BinaryOp::Band | BinaryOp::Bor | BinaryOp::Bxor => {
                let code = match b {
                    BinaryOp::Imul => pick2(Code::Imul_r64_rm64, Code::Imul_r32_rm32),
                    BinaryOp::Band => pick2(Code::And_r64_rm64, Code::And_r32_rm32),
                    BinaryOp::Bor => pick2(Code::Or_r64_rm64, Code::Or_r32_rm32),
                    _ => pick2(Code::Xor_r64_rm64, Code::Xor_r32_rm32),
                };
                let rb = self.gpr(y, S1)?;
                if d == rb {
                    op2!(self, code, n(d), n(ra))
                } else {
                    self.mov(d, ra)?;
                    op2!(self, code, n(d), n(rb))
                }
            }
            BinaryOp::Shl | BinaryOp::Lshr | BinaryOp::Ashr if narrow(self.ty(x)) => {
                // The amount modulo the lane's bits (the IR's rule); an arithmetic shift of
                // the value sign-extended. The result is zero-extended again after.
                let ty = self.ty(x);
                let rb = self.gpr(y, S1)?;
                self.mov(S1, rb)?;
                op2!(self, Code::And_rm32_imm8, r32(S1), ty.bits() as i32 - 1)?;
                let code = match b {
                    BinaryOp::Shl => Code::VEX_Shlx_r32_rm32_r32,
                    BinaryOp::Lshr => Code::VEX_Shrx_r32_rm32_r32,
                    _ => {
                        self.sign_extend(S0, ra, ty, false)?;
                        let sar = Code::VEX_Sarx_r32_rm32_r32;
                        return op3!(self, sar, r32(d), r32(S0), r32(S1));
                    }
                };
                op3!(self, code, r32(d), r32(ra), r32(S1))
            }
            BinaryOp::Shl | BinaryOp::Lshr | BinaryOp::Ashr => {
                let rb = self.gpr(y, S1)?;
                let code = match b {
                    BinaryOp::Shl => {
                        pick2(Code::VEX_Shlx_r64_rm64_r64, Code::VEX_Shlx_r32_rm32_r32)
                    }
                    BinaryOp::Lshr => {
                        pick2(Code::VEX_Shrx_r64_rm64_r64, Code::VEX_Shrx_r32_rm32_r32)
                    }
                    _ => pick2(Code::VEX_Sarx_r64_rm64_r64, Code::VEX_Sarx_r32_rm32_r32),
                };
                op3!(self, code, n(d), n(ra), n(rb))
            }
            BinaryOp::Udiv | BinaryOp::Urem | BinaryOp::Sdiv | BinaryOp::Srem => {
                self.divide(b, d, wide, x, y)
            }
            BinaryOp::Rotl => {
                // (a << k) | (a >> (w - k)), k the amount modulo the width w: for k = 0 the
                // second shift is by w, which gives 0 on a zero-extended narrow value and is
                // taken as 0 (so a | a) for 32 and 64 bits.
                let w = self.ty(x).bits();
                self.mov(S0, ra)?;
                let rb = self.gpr(y, S1)?;
                self.mov(S1, rb)?;
                op2!(self, Code::And_rm32_imm8, r32(S1), w as i32 - 1)?;
                let (shl, shr, or) = if wide {
                    (
                        Code::VEX_Shlx_r64_rm64_r64,
                        Code::VEX_Shrx_r64_rm64_r64,
                        Code::Or_r64_rm64,
                    )
                } else {
                    (
                        Code::VEX_Shlx_r32_rm32_r32,
                        Code::VEX_Shrx_r32_rm32_r32,
                        Code::Or_r32_rm32,
                    )
                };
                op3!(self, shl, n(d), n(S0), n(S1))?;
                op1!(self, Code::Neg_rm32, r32(S1))?;
                op2!(self, Code::Add_rm32_imm32, r32(S1), w as i32)?;
                op3!(self, shr, n(S0), n(S0), n(S1))?;
                op2!(self, or, n(d), n(S0))
            }
            BinaryOp::Umulhi | BinaryOp::Smulhi => {
                // The full product of the operands extended to twice their width (at most 64
                // bits: 64-bit operands are refused), shifted down by the width.
                let ty = self.ty(x);
                let signed = b == BinaryOp::Smulhi;
                let rb = self.gpr(y, S1)?;
                self.mov(S1, rb)?;
                self.mov(S0, ra)?;
                for r in [S0, S1] {
                    match (signed, narrow(ty)) {
                        (true, true) => self.sign_extend(r, r, ty, true)?,
                        (true, false) => op2!(self, Code::Movsxd_r64_rm32, r, r32(r))?,
                        (false, _) => op2!(self, Code::Mov_r32_rm32, r32(r), r32(r))?,
                    }
                }
                op2!(self, Code::Imul_r64_rm64, S0, S1)?;
                op2!(self, Code::Shr_rm64_imm8, S0, ty.bits())?;
                op2!(self, Code::Mov_r32_rm32, r32(d), r32(S0))
            }
            BinaryOp::Umin | BinaryOp::Umax | BinaryOp::Smin | BinaryOp::Smax => {
                // S1 = a; if b is the one to keep, S1 = b; d = S1.
                let keep_b = match b {
                    BinaryOp::Umin => IntCC::Ugt,
                    BinaryOp::Umax => IntCC::Ult,
                    BinaryOp::Smin => IntCC::Sgt,
                    _ => IntCC::Slt,
                };
                let rb = self.gpr(y, S1)?;
                if rb == S1 {
                    self.mov(Register::R10, ra)?;
                    // a in S0, b in S1: keep b where it wins, else copy a.
                    let inv = cond_index(keep_b.inverse());
                    op2!(
                        self,
                        pick2(Code::Cmp_r64_rm64, Code::Cmp_r32_rm32),
                        n(S0),
                        n(S1)
                    )?;
                    op2!(self, CMOVCC[inv], S1, S0)?;
                    return self.mov(d, S1);
                }
                self.mov(S1, ra)?;
                op2!(
                    self,
                    pick2(Code::Cmp_r64_rm64, Code::Cmp_r32_rm32),
                    n(S1),
                    n(rb)
                )?;
                op2!(self, CMOVCC[cond_index(keep_b)], S1, rb)?;
                self.mov(d, S1)
            }
            other => Err(format!("{other:?} on general registers")),
        }
    }

    /// `d = x / y` or `x % y` (`b`), 64-bit when `wide`, as `codegen/scalar.rs` divides:
    /// division by zero divides by 1, and a signed one by -1 gives `-x` and 0 (what dividing
    /// `INT_MIN` by 1 instead gives too), so nothing traps (OpenCL C 6.5.1: unspecified values,
    /// no trap). DIV and IDIV take `rdx:rax`, which values may hold: both are saved around
    /// the division, its operands in `r10` and `r11`.
    fn divide(&mut self, b: BinaryOp, d: Register, wide: bool, x: Value, y: Value) -> Res<()> {
        let ty = self.ty(x);
        let signed = matches!(b, BinaryOp::Sdiv | BinaryOp::Srem);
        let rem = matches!(b, BinaryOp::Urem | BinaryOp::Srem);
        let n = |r: Register| if wide { r } else { r32(r) };
        let ra = self.gpr(x, S0)?;
        self.mov(S0, ra)?;
        let rb = self.gpr(y, S1)?;
        self.mov(S1, rb)?;
        if signed && narrow(ty) {
            self.sign_extend(S0, S0, ty, false)?;
            self.sign_extend(S1, S1, ty, false)?;
        }
        let test = if wide {
            Code::Test_rm64_r64
        } else {
            Code::Test_rm32_r32
        };
        let divided = self.new_label();
        let nonzero = self.new_label();
        op2!(self, test, n(S1), n(S1))?;
        self.jump(Code::Jne_rel32_64, nonzero)?;
        op2!(self, Code::Mov_r32_imm32, r32(S1), 1u32)?;
        self.bind(nonzero);
        if signed {
            let by_minus_one = self.new_label();
            let cmp = if wide {
                Code::Cmp_rm64_imm8
            } else {
                Code::Cmp_rm32_imm8
            };
            op2!(self, cmp, n(S1), -1i32)?;
            self.jump(Code::Je_rel32_64, by_minus_one)?;
            self.divide_rdx_rax(wide, true, rem)?;
            self.jump(Code::Jmp_rel32_64, divided)?;
            self.bind(by_minus_one);
            if rem {
                op2!(self, Code::Xor_r32_rm32, r32(S0), r32(S0))?;
            } else {
                op1!(
                    self,
                    if wide { Code::Neg_rm64 } else { Code::Neg_rm32 },
                    n(S0)
                )?;
            }
        } else {
            self.divide_rdx_rax(wide, false, rem)?;
        }
        self.bind(divided);
        if wide {
            self.mov(d, S0)
        } else {
            op2!(self, Code::Mov_r32_rm32, r32(d), r32(S0))
        }
    }

    /// `r10 = r10 / r11` (or the remainder), with `rax` and `rdx` saved around it.
    fn divide_rdx_rax(&mut self, wide: bool, signed: bool, rem: bool) -> Res<()> {
        op1!(self, Code::Push_r64, Register::RAX)?;
        op1!(self, Code::Push_r64, Register::RDX)?;
        let n = |r: Register| if wide { r } else { r32(r) };
        op2!(
            self,
            if wide {
                Code::Mov_r64_rm64
            } else {
                Code::Mov_r32_rm32
            },
            n(Register::RAX),
            n(S0)
        )?;
        match (signed, wide) {
            (true, true) => self.op0(Code::Cqo),
            (true, false) => self.op0(Code::Cdq),
            _ => op2!(self, Code::Xor_r32_rm32, Register::EDX, Register::EDX)?,
        }
        let code = match (signed, wide) {
            (true, true) => Code::Idiv_rm64,
            (true, false) => Code::Idiv_rm32,
            (false, true) => Code::Div_rm64,
            (false, false) => Code::Div_rm32,
        };
        op1!(self, code, n(S1))?;
        let out = if rem { Register::RDX } else { Register::RAX };
        op2!(self, Code::Mov_r64_rm64, S0, out)?;
        op1!(self, Code::Pop_r64, Register::RDX)?;
        op1!(self, Code::Pop_r64, Register::RAX)
    }

    /// `d` = integer `a` of type `from` (signed or not), clamped to the range of type `to`
    /// (signed or not), the IR's saturating conversion: the value is taken to 64 bits (as its
    /// signedness says) and clamped there with signed or unsigned comparisons.
    fn saturate(
        &mut self,
        d: Register,
        a: Register,
        from: Type,
        src_signed: bool,
        to: Type,
        dst_signed: bool,
    ) -> Res<()> {
        self.mov(S0, a)?;
        match (from.bits(), src_signed) {
            (64, _) => {}
            (32, true) => op2!(self, Code::Movsxd_r64_rm32, S0, r32(S0))?,
            (32, false) => op2!(self, Code::Mov_r32_rm32, r32(S0), r32(S0))?,
            (_, true) => self.sign_extend(S0, S0, from, true)?,
            // Narrow values are zero-extended already.
            (_, false) => {}
        }
        let w = to.bits();
        let (lo, hi): (i128, i128) = if dst_signed {
            (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
        } else {
            (0, (1i128 << w) - 1)
        };
        if src_signed {
            // Signed 64-bit value: below the low bound, and above the high one where that
            // is a signed 64-bit number (u64's is not: no signed value exceeds it).
            op2!(self, Code::Mov_r64_imm64, S1, lo as i64 as u64)?;
            op2!(self, Code::Cmp_r64_rm64, S0, S1)?;
            op2!(self, Code::Cmovl_r64_rm64, S0, S1)?;
            if hi <= i128::from(i64::MAX) {
                op2!(self, Code::Mov_r64_imm64, S1, hi as u64)?;
                op2!(self, Code::Cmp_r64_rm64, S0, S1)?;
                op2!(self, Code::Cmovg_r64_rm64, S0, S1)?;
            }
        } else {
            // Unsigned: never below the low bound (0 or below).
            op2!(self, Code::Mov_r64_imm64, S1, hi as u64)?;
            op2!(self, Code::Cmp_r64_rm64, S0, S1)?;
            op2!(self, Code::Cmova_r64_rm64, S0, S1)?;
        }
        if w == 64 {
            self.mov(d, S0)
        } else {
            op2!(self, Code::Mov_r32_rm32, r32(d), r32(S0))
        }
    }

    /// `d` (32 bits) = the low `ty` bits of `a` (`i8` or `i16`), zero-extended.
    fn zero_extend(&mut self, d: Register, a: Register, ty: Type) -> Res<()> {
        if ty == Type::I8 {
            op2!(self, Code::Movzx_r32_rm8, r32(d), r8(a))
        } else {
            op2!(self, Code::Movzx_r32_rm16, r32(d), r16(a))
        }
    }

    /// `d` = the low `ty` bits of `a` (`i8` or `i16`), sign-extended to 32 bits (or 64 when
    /// `wide`).
    fn sign_extend(&mut self, d: Register, a: Register, ty: Type, wide: bool) -> Res<()> {
        match (ty == Type::I8, wide) {
            (true, false) => op2!(self, Code::Movsx_r32_rm8, r32(d), r8(a)),
            (true, true) => op2!(self, Code::Movsx_r64_rm8, d, r8(a)),
            (false, false) => op2!(self, Code::Movsx_r32_rm16, r32(d), r16(a)),
            (false, true) => op2!(self, Code::Movsx_r64_rm16, d, r16(a)),
        }
    }

    /// Sets the flags for integer comparison `a cc b`. `i8` and `i16` operands are compared
    /// sign-extended to 32 bits: that keeps both their signed and their unsigned order.
    fn compare(&mut self, _cc: IntCC, a: Value, b: Value) -> Res<()> {
        let ty = self.ty(a);
        if narrow(ty) {
            let ra = self.gpr(a, S0)?;
            self.sign_extend(S0, ra, ty, false)?;
            if let Some(k) = self.constant(b) {
                let k = if ty == Type::I8 {
                    i32::from(k as u8 as i8)
                } else {
                    i32::from(k as u16 as i16)
                };
                return op2!(self, Code::Cmp_rm32_imm32, r32(S0), k);
            }
            let rb = self.gpr(b, S1)?;
            self.sign_extend(S1, rb, ty, false)?;
            return op2!(self, Code::Cmp_r32_rm32, r32(S0), r32(S1));
        }
        let wide = self.wide(a);
        let ra = self.gpr(a, S0)?;
        if let Some(k) = self.imm(b) {
            let code = if wide {
                Code::Cmp_rm64_imm32
            } else {
                Code::Cmp_rm32_imm32
            };
            let ra = if wide { ra } else { r32(ra) };
            return op2!(self, code, ra, k);
        }
        let rb = self.gpr(b, S1)?;
        if wide {
            op2!(self, Code::Cmp_r64_rm64, ra, rb)
        } else {
            op2!(self, Code::Cmp_r32_rm32, r32(ra), r32(rb))
        }
    }

    fn vec_inst(&mut self, op: &Op, r: Value, args: &[Value]) -> Res<()> {
        let bytes = self.vbytes(r);
        let scalar = !self.ty(r).is_vector();
        let d = match self.alloc.slot[r] {
            // Computed in the scratch register, stored to the slot after ([`Self::inst`]).
            Some(_) => sized(ZMM[VEC_SPILL_SCRATCH], bytes),
            None => self.vreg(r)?,
        };
        if self.avx2() && is_mask(self.ty(r)) {
            return self.mask_vec_inst(op, r, d, args);
        }
        if let Some(loads) = self.plan.gathered(r) {
            return self.gather_lanes(d, loads);
        }
        if let (Op::Convert(c), Some((x, lanes))) =
            (op, args.first().and_then(|&a| self.plan.counted(a)))
        {
            return self.counted_to_float(d, x, lanes, matches!(c, ConvOp::SintToFloat(_)));
        }
        let f64_result = self.ty(r).lane_type() == Type::F64;
        let from_f64 = args
            .first()
            .is_some_and(|&a| self.ty(a).lane_type() == Type::F64);
        // (Lanes, shuffles and choices: `vec_inst`'s own, of 64-bit lanes.)
        let moved = matches!(
            op,
            Op::Load(_)
                | Op::InsertLane(_)
                | Op::Undef
                | Op::Bitcast
                | Op::ExtractLane(_)
                | Op::Shuffle(_)
                | Op::Select
        );
        if (f64_result && !moved) || (from_f64 && matches!(op, Op::Convert(_))) {
            return self.f64_inst(op, r, d, args);
        }
        if let Some((x, m, s)) = self.plan.divided(r) {
            let a = self.vec(x, VS0)?;
            let c = self.constant_reg(m, VS1, bytes)?;
            self.mul_hi(d, a, c, BinaryOp::Umulhi, bytes)?;
            return match s {
                0 => Ok(()),
                s => op3!(self, pick(PSRLD_IMM, bytes), d, d, u32::from(s)),
            };
        }
        let narrow_in = args.first().is_some_and(|&a| narrow_vector(self.ty(a)));
        let narrow_op = match op {
            Op::InsertLane(_) | Op::Convert(_) => true,
            Op::Splat | Op::Vconst(_) | Op::Shuffle(_) | Op::Select => narrow_vector(self.ty(r)),
            Op::Binary(b) => {
                narrow_vector(self.ty(r))
                    && matches!(b, BinaryOp::Iadd | BinaryOp::Isub | BinaryOp::Imul)
            }
            _ => false,
        };
        if (narrow_vector(self.ty(r)) || narrow_in) && narrow_op {
            return self.narrow_vec_inst(op, r, d, args);
        }
        match op {
            Op::Fconst(bits) | Op::Iconst(bits) => {
                if scalar {
                    if *bits == 0 {
                        let x = xmm_of(d);
                        return op3!(self, Code::EVEX_Vpxord_xmm_k1z_xmm_xmmm128b32, x, x, x);
                    }
                    op2!(self, Code::Mov_r32_imm32, r32(S1), *bits as u32)?;
                    return op2!(self, Code::EVEX_Vmovd_xmm_rm32, xmm_of(d), r32(S1));
                }
                self.broadcast(d, *bits as u32)
            }
            Op::Vconst(lanes) => {
                // Loaded from the constant pool after the code.
                let mut words = [0u32; 16];
                for (w, &l) in words.iter_mut().zip(lanes.iter()) {
                    *w = l as u32;
                }
                self.load_pool(d, pick(MOVUPS_LOAD, bytes), words)
            }
            Op::Shuffle(mask) => {
                // VPERMI2PS: the lanes of the index register replaced by the lanes they
                // name of the two tables (0-15 the first's, 16-31 the second's). The
                // operands' lanes past their own count are never named. Of `f64` lanes,
                // VPERMI2PD: tables of 8, an index in the low word of each 64 bits.
                let m = self.ty(args[0]).lanes();
                if self.avx2() {
                    return self.shuffle_avx2(d, args, mask, m);
                }
                let double_lanes = self.ty(r).lane_type() == Type::F64;
                let (step, table) = if double_lanes { (2, 8) } else { (1, 16) };
                let mut idx = [0u32; 16];
                for (w, &j) in idx.iter_mut().step_by(step).zip(mask.iter()) {
                    let j = u32::from(j);
                    *w = if j < m { j } else { table + j - m };
                }
                let [permi2, permt2] = if double_lanes {
                    [
                        Code::EVEX_Vpermi2pd_zmm_k1z_zmm_zmmm512b64,
                        Code::EVEX_Vpermt2pd_zmm_k1z_zmm_zmmm512b64,
                    ]
                } else {
                    [
                        Code::EVEX_Vpermi2ps_zmm_k1z_zmm_zmmm512b32,
                        Code::EVEX_Vpermt2ps_zmm_k1z_zmm_zmmm512b32,
                    ]
                };
                let (a, b) = (self.vec(args[0], VS0)?, self.vec(args[1], VS1)?);
                let (za, zb, zd) = (zmm_of(a), zmm_of(b), zmm_of(d));
                if za != zd && zb != zd {
                    // VPERMI2PS: the indices in the result's register, overwritten.
                    self.load_pool(zd, MOVUPS_LOAD[2], idx)?;
                    return op3!(self, permi2, zd, za, zb);
                }
                // VPERMT2PS: the first table in the result's register, overwritten, the
                // indices in a scratch register; where the result's register holds the second
                // table, the tables trade places (index j names lane j of the other). No
                // move, where the permutation to a scratch register took one.
                let (first, second) = if za == zd { (za, zb) } else { (zb, za) };
                if za != zd {
                    for w in idx.iter_mut().step_by(step) {
                        *w ^= table;
                    }
                }
                self.load_pool(ZMM[VS2], MOVUPS_LOAD[2], idx)?;
                op3!(self, permt2, first, ZMM[VS2], second)
            }
            Op::Binary(b @ (BinaryOp::Umulhi | BinaryOp::Smulhi)) => {
                let (a, c) = (self.vec(args[0], VS0)?, self.vec(args[1], VS1)?);
                self.mul_hi(d, a, c, *b, bytes)
            }
            Op::Binary(b @ (BinaryOp::Shl | BinaryOp::Lshr | BinaryOp::Ashr)) => {
                let a = self.vec(args[0], VS0)?;
                if let Some(k) = self.constant(args[1]) {
                    let code = match b {
                        BinaryOp::Shl => PSLLD_IMM,
                        BinaryOp::Lshr => PSRLD_IMM,
                        _ => PSRAD_IMM,
                    };
                    return op3!(self, pick(code, bytes), d, a, (k & 31) as u32);
                }
                // The amount is taken modulo the lane's bits, as the IR says; the variable
                // shifts of AVX-512 give 0 (or the sign) for amounts of 32 and more.
                let c = self.vec(args[1], VS1)?;
                let m = self.constant_reg(31, VS2, bytes)?;
                let s = sized(ZMM[VS2], bytes);
                op3!(self, pick(PANDD, bytes), s, c, m)?;
                let code = match b {
                    BinaryOp::Shl => PSLLVD,
                    BinaryOp::Lshr => PSRLVD,
                    _ => PSRAVD,
                };
                op3!(self, pick(code, bytes), d, a, s)
            }
            Op::Binary(b @ (BinaryOp::Fmin | BinaryOp::Fmax)) => {
                let (a, c) = (self.vec(args[0], VS0)?, self.vec(args[1], VS1)?);
                let n = bytes.max(16);
                let (d, a, c) = (sized(d, n), sized(a, n), sized(c, n));
                self.min_max(*b == BinaryOp::Fmin, d, a, c, n)
            }
            Op::Binary(BinaryOp::FdivRelaxed)
                if !scalar && !self.avx2() && self.ty(r).lane_type() == Type::F32 =>
            {
                self.relaxed_div(d, args, bytes)
            }
            Op::Binary(b) => {
                let float = self.ty(r).lane_type() == Type::F32;
                let code = match float_arithmetic(*b, scalar, bytes) {
                    Some(code) => code,
                    None => match (b, scalar) {
                        (BinaryOp::Iadd, false) if !float => pick(PADDD, bytes),
                        (BinaryOp::Isub, false) if !float => pick(PSUBD, bytes),
                        (BinaryOp::Imul, false) if !float => pick(PMULLD, bytes),
                        (BinaryOp::Smin, false) if !float => pick(PMINSD, bytes),
                        (BinaryOp::Smax, false) if !float => pick(PMAXSD, bytes),
                        (BinaryOp::Umin, false) if !float => pick(PMINUD, bytes),
                        (BinaryOp::Umax, false) if !float => pick(PMAXUD, bytes),
                        (BinaryOp::Band, _) => pick(PANDD, bytes.max(16)),
                        (BinaryOp::Bor, _) => pick(PORD, bytes.max(16)),
                        (BinaryOp::Bxor, _) => pick(PXORD, bytes.max(16)),
                        (other, _) => return Err(format!("{other:?} on vector registers")),
                    },
                };
                // A constant operand read from the pool by the operation itself; a first one
                // taken second where the operation commutes (a float sum or product does, to
                // the bit, unless both operands are NaNs: the constant is not one).
                let not_nan = |e: &Self, v: Value| {
                    def_inst(e.f, v).is_some_and(|i| {
                        matches!(e.f.dfg.insts[i].op, Op::Fconst(c) if !f32::from_bits(c as u32).is_nan())
                    })
                };
                let commutes = b.is_commutative()
                    || (matches!(b, BinaryOp::Fadd | BinaryOp::Fmul) && not_nan(self, args[0]));
                // So is a spilled operand, from its slot.
                let in_memory = self.plan.in_memory(args[1]).is_some() || self.spilled(args[1]);
                let (x, k) = match (
                    self.is_pool_constant(args[0]),
                    self.is_pool_constant(args[1]) || in_memory,
                ) {
                    (_, true) => (args[0], args[1]),
                    // A splat's load read first by an operation that commutes (`Plan::new`).
                    _ if self.plan.in_memory(args[0]).is_some() => (args[1], args[0]),
                    (true, false) if commutes => (args[1], args[0]),
                    _ if commutes && self.spilled(args[0]) => (args[1], args[0]),
                    _ => (args[0], args[0]),
                };
                if !scalar && bytes >= 16 && x != k {
                    let a = self.vec(x, VS0)?;
                    let m = self.memory_operand(k)?;
                    return op3!(self, code, d, a, m);
                }
                let (a, c) = (self.vec(args[0], VS0)?, self.vec(args[1], VS1)?);
                let (d, a, c) = if bytes == 4 {
                    (xmm_of(d), xmm_of(a), xmm_of(c))
                } else {
                    (d, a, c)
                };
                op3!(self, code, d, a, c)
            }
            Op::Fma => {
                let (args, forms) = self.fma_forms(args, scalar, bytes);
                if !scalar && self.fma_from_pool(d, &args, forms)? {
                    return Ok(());
                }
                self.fma_in_registers(d, &args, forms, scalar)
            }
            Op::Unary(u) => {
                let a = self.vec(args[0], VS0)?;
                let (d, a) = if scalar {
                    (xmm_of(d), xmm_of(a))
                } else {
                    (d, a)
                };
                self.vec_unary(*u, d, a, scalar, bytes)
            }
            Op::Select => {
                let (c, a, b) = (args[0], args[1], args[2]);
                let (ra, rb) = (self.vec(a, VS0)?, self.vec(b, VS1)?);
                if self.avx2() && is_mask(self.ty(c)) {
                    let n = bytes.max(16);
                    let m = sized(self.vec(c, VS2)?, n);
                    let (d, ra, rb) = (sized(d, n), sized(ra, n), sized(rb, n));
                    return self.blend_by(d, rb, ra, m);
                }
                let k = if self.plan.class(c) == Class::Mask {
                    self.kreg(c, KS)?
                } else {
                    // A scalar condition: all lanes or none.
                    self.all_ones_if(c)?;
                    if self.avx2() {
                        let n = bytes.max(16);
                        let m = sized(ZMM[VS2], n);
                        self.splat_gpr(m, S1, n)?;
                        let (d, ra, rb) = (sized(d, n), sized(ra, n), sized(rb, n));
                        return self.blend_by(d, rb, ra, m);
                    }
                    op2!(self, Code::VEX_Kmovw_kr_r32, KS, r32(S1))?;
                    KS
                };
                let mut code = pick(BLENDMPS, bytes.max(16));
                if self.ty(r).lane_type() == Type::F64 {
                    // (Masks of 64-bit lanes.)
                    code = double(code)?;
                }
                let (d, ra, rb) = if scalar {
                    (xmm_of(d), xmm_of(ra), xmm_of(rb))
                } else {
                    (d, ra, rb)
                };
                let mut i = Instruction::with3(code, d, rb, ra).map_err(bad)?;
                i.set_op_mask(k);
                self.push(i);
                Ok(())
            }
            Op::Convert(c @ (ConvOp::SintToFloat(round) | ConvOp::UintToFloat(round))) => {
                let signed = matches!(c, ConvOp::SintToFloat(_));
                // A rounding other than the default one, embedded in the instruction (EVEX
                // static rounding: register forms of scalar and 512-bit operations).
                let rc = match round {
                    ferrocl_ir::Round::Rte => None,
                    ferrocl_ir::Round::Rtn => Some(iced_x86::RoundingControl::RoundDown),
                    ferrocl_ir::Round::Rtp => Some(iced_x86::RoundingControl::RoundUp),
                    ferrocl_ir::Round::Rtz => Some(iced_x86::RoundingControl::RoundTowardZero),
                };
                if rc.is_some() && !scalar && bytes != 64 {
                    return Err("a rounding conversion of fewer than 16 lanes".into());
                }
                if scalar {
                    let mut a = self.gpr(args[0], S0)?;
                    let from = self.ty(args[0]);
                    if signed && narrow(from) {
                        // Kept zero-extended: its sign extended to 32 bits first (exact).
                        let code = if from == Type::I8 {
                            Code::Movsx_r32_rm8
                        } else {
                            Code::Movsx_r32_rm16
                        };
                        let n = if from == Type::I8 { r8(a) } else { r16(a) };
                        op2!(self, code, r32(S0), n)?;
                        a = S0;
                    }
                    let x = xmm_of(d);
                    if self.avx2() && !signed && !self.wide(args[0]) && rc.is_none() {
                        // AVX2 converts only signed integers: the 32 bits zero-extended to
                        // 64 (`mov` does), converted as a signed 64-bit integer (exact
                        // until its one rounding).
                        op2!(self, Code::Mov_r32_rm32, r32(S0), r32(a))?;
                        return op3!(self, Code::VEX_Vcvtsi2ss_xmm_xmm_rm64, x, x, S0);
                    }
                    let (code, a) = match (signed, self.wide(args[0])) {
                        (true, false) => (Code::EVEX_Vcvtsi2ss_xmm_xmm_rm32_er, r32(a)),
                        (true, true) => (Code::EVEX_Vcvtsi2ss_xmm_xmm_rm64_er, a),
                        (false, false) => (Code::EVEX_Vcvtusi2ss_xmm_xmm_rm32_er, r32(a)),
                        (false, true) => (Code::EVEX_Vcvtusi2ss_xmm_xmm_rm64_er, a),
                    };
                    let mut i = Instruction::with3(code, x, x, a).map_err(bad)?;
                    if let Some(rc) = rc {
                        i.set_rounding_control(rc);
                    }
                    self.push(i);
                    Ok(())
                } else {
                    let a = self.vec(args[0], VS0)?;
                    if self.avx2() && !signed && rc.is_none() {
                        // The high and the low 16 bits converted exactly, the high scaled
                        // by 2^16 exactly, then one rounding of their sum.
                        let n = bytes.max(16);
                        let (d, a) = (sized(d, n), sized(a, n));
                        let (s, t) = (sized(ZMM[VS1], n), sized(ZMM[VS2], n));
                        op3!(self, pick(PSRLD_IMM, n), s, a, 16u32)?;
                        op2!(self, pick(CVTDQ2PS, n), s, s)?;
                        let scale = self.pool_ref([0x4780_0000; 16]);
                        op3!(self, vex_pick(n, MULPS_VEX), s, s, scale)?;
                        let low = self.pool_ref([0xffff; 16]);
                        op3!(self, vex_pick(n, PAND_VEX), t, a, low)?;
                        op2!(self, pick(CVTDQ2PS, n), t, t)?;
                        return op3!(self, vex_pick(n, ADDPS_VEX), d, s, t);
                    }
                    let codes = if signed { CVTDQ2PS } else { CVTUDQ2PS };
                    let mut i = Instruction::with2(pick(codes, bytes), d, a).map_err(bad)?;
                    if let Some(rc) = rc {
                        i.set_rounding_control(rc);
                    }
                    self.push(i);
                    Ok(())
                }
            }
            Op::Bitcast => {
                if scalar {
                    let a = self.gpr(args[0], S0)?;
                    op2!(self, Code::EVEX_Vmovd_xmm_rm32, xmm_of(d), r32(a))
                } else {
                    let a = self.vec(args[0], VS0)?;
                    self.vmov(d, a)
                }
            }
            Op::Splat => {
                let x = args[0];
                if let Some(load) = self.plan.broadcast_load(x) {
                    let Op::Load(m) = &self.f.dfg.insts[load].op else {
                        return Err("a broadcast of something other than a load".into());
                    };
                    let p = self.f.dfg.resolve(self.f.dfg.insts[load].args[0]);
                    let at = self.address(p, m)?;
                    return op2!(self, pick(BROADCASTSS, bytes), d, at);
                }
                if self.plan.class(x) == Class::Gpr {
                    let a = self.gpr(x, S0)?;
                    op2!(self, pick(PBROADCASTD, bytes), d, r32(a))
                } else {
                    let a = self.vec(x, VS0)?;
                    op2!(self, pick(BROADCASTSS, bytes), d, xmm_of(a))
                }
            }
            Op::Load(m) => {
                let at = self.address(args[0], m)?;
                if self.ty(r).is_vector() && self.ty(r).lanes() == 3 {
                    // Three lanes (a type of 16 bytes, as OpenCL C's `float3`): two, then the
                    // third inserted; the fourth word is not read.
                    let third = displaced(at, 8);
                    op2!(self, Code::EVEX_Vmovsd_xmm_k1z_m64, xmm_of(d), at)?;
                    let code = Code::EVEX_Vinsertps_xmm_xmm_xmmm32_imm8;
                    op4!(self, code, xmm_of(d), xmm_of(d), third, 0x20u32)
                } else if bytes == 8 {
                    op2!(self, Code::EVEX_Vmovsd_xmm_k1z_m64, xmm_of(d), at)
                } else if scalar || bytes == 4 {
                    op2!(self, Code::EVEX_Vmovss_xmm_k1z_m32, xmm_of(d), at)
                } else {
                    op2!(self, pick(MOVUPS_LOAD, bytes), d, at)
                }
            }
            Op::ExtractLane(n) => {
                // (Lane n of 64 bits is lanes 2n and 2n + 1 of 32.)
                let v = self.vec(args[0], VS0)?;
                let n = if self.ty(args[0]).lane_type() == Type::F64 {
                    2 * n
                } else {
                    *n
                };
                let x = self.lane(v, n)?;
                self.vmov(d, x)
            }
            Op::InsertLane(n) => {
                let (v, x) = (args[0], args[1]);
                let rv = self.vec(v, VS0)?;
                if self.avx2() {
                    // The lane's value in every lane of scratch 31, blended into lane n.
                    let n16 = bytes.max(16);
                    let s = sized(ZMM[VS1], n16);
                    let blend = if self.plan.class(x) == Class::Gpr {
                        let rx = self.gpr(x, S0)?;
                        self.splat_gpr(s, rx, n16)?;
                        PBLENDD_VEX
                    } else {
                        let rx = self.vec(x, VS1)?;
                        op2!(self, vex_pick(n16, BROADCASTSS_X), s, xmm_of(rx))?;
                        BLENDPS_VEX
                    };
                    self.vmov(d, rv)?;
                    let d = sized(d, n16);
                    return op4!(self, vex_pick(n16, blend), d, d, s, 1u32 << n);
                }
                op2!(self, Code::Mov_r32_imm32, r32(S1), 1u32 << n)?;
                op2!(self, Code::VEX_Kmovw_kr_r32, KS, r32(S1))?;
                if self.ty(x) == Type::F64 {
                    // A gathered lane's 8 bytes (`carries_f64`): VPBROADCASTQ under the mask.
                    let mut rx = self.vec(x, VS1)?;
                    if zmm_of(rx) == zmm_of(d) && zmm_of(rv) != zmm_of(d) {
                        self.vmov(ZMM[VS1], rx)?;
                        rx = ZMM[VS1];
                    }
                    self.vmov(d, rv)?;
                    let code = pick(PBROADCASTQ_X, bytes);
                    let mut i = Instruction::with2(code, d, xmm_of(rx)).map_err(bad)?;
                    i.set_op_mask(KS);
                    self.push(i);
                } else if self.plan.class(x) == Class::Gpr {
                    let rx = self.gpr(x, S0)?;
                    self.vmov(d, rv)?;
                    let mut i =
                        Instruction::with2(pick(PBROADCASTD, bytes), d, r32(rx)).map_err(bad)?;
                    i.set_op_mask(KS);
                    self.push(i);
                } else {
                    let mut rx = self.vec(x, VS1)?;
                    if zmm_of(rx) == zmm_of(d) && zmm_of(rv) != zmm_of(d) {
                        self.vmov(ZMM[VS1], rx)?;
                        rx = ZMM[VS1];
                    }
                    self.vmov(d, rv)?;
                    let mut i =
                        Instruction::with2(pick(BROADCASTSS, bytes), d, xmm_of(rx)).map_err(bad)?;
                    i.set_op_mask(KS);
                    self.push(i);
                }
                Ok(())
            }
            Op::Convert(c @ (ConvOp::Zext | ConvOp::Sext)) => {
                // A mask's lanes as 0 and -1 (VPMOVM2D), or 0 and 1.
                if self.avx2() {
                    let m = self.vec(args[0], VS0)?;
                    return if *c == ConvOp::Zext {
                        op3!(self, pick(PSRLD_IMM, bytes), d, m, 31u32)
                    } else {
                        self.vmov(d, m)
                    };
                }
                let k = self.kreg(args[0], KS)?;
                op2!(self, pick(PMOVM2D, bytes), d, k)?;
                if *c == ConvOp::Zext {
                    op3!(self, pick(PSRLD_IMM, bytes), d, d, 31u32)?;
                }
                Ok(())
            }
            Op::Convert(ConvOp::FloatToSint { round, .. }) => {
                let a = self.vec(args[0], VS0)?;
                self.float_to_int(d, a, *round, bytes)
            }
            Op::Convert(ConvOp::FloatToUint { round, .. }) => {
                let a = self.vec(args[0], VS0)?;
                self.float_to_uint(d, a, *round, bytes)
            }
            Op::Undef => Ok(()),
            other => Err(format!("{other:?} in a vector register")),
        }
    }

    /// `d` (named for the vector's size) = the lanes `loads` read, in order
    /// ([`Plan::gathered`]): each 16 bytes made in an `xmm` register, its first lane loaded
    /// (VMOVSS, VMOVSD), the others inserted from memory (VINSERTPS, VMOVHPD), and put into
    /// its place in `d` (VINSERTF32X4). The first 16 bytes are made in `d` itself, whose
    /// upper bytes the load clears.
    fn gather_lanes(&mut self, d: Register, loads: &[Inst]) -> Res<()> {
        let f = self.f;
        let lane = f
            .dfg
            .inst_result(loads[0])
            .map_or(4, |x| self.ty(x).bytes());
        let per = (16 / lane) as usize;
        for (piece, group) in loads.chunks(per).enumerate() {
            let t = if piece == 0 { xmm_of(d) } else { XMM[VS1] };
            for (j, &load) in group.iter().enumerate() {
                let Op::Load(m) = &f.dfg.insts[load].op else {
                    return Err("a gathered lane that is not a load".into());
                };
                let p = f.dfg.resolve(f.dfg.insts[load].args[0]);
                let at = self.address(p, m)?;
                match (lane, j) {
                    (8, 0) => op2!(self, Code::EVEX_Vmovsd_xmm_k1z_m64, t, at)?,
                    (8, _) => op3!(self, Code::EVEX_Vmovhpd_xmm_xmm_m64, t, t, at)?,
                    (_, 0) => op2!(self, Code::EVEX_Vmovss_xmm_k1z_m32, t, at)?,
                    (_, j) => {
                        let code = Code::EVEX_Vinsertps_xmm_xmm_xmmm32_imm8;
                        op4!(self, code, t, t, at, (j as u32) << 4)?
                    }
                }
            }
            if piece > 0 {
                let code = if d.is_zmm() {
                    Code::EVEX_Vinsertf32x4_zmm_k1z_zmm_xmmm128_imm8
                } else {
                    Code::EVEX_Vinsertf32x4_ymm_k1z_ymm_xmmm128_imm8
                };
                op4!(self, code, d, d, t, piece as u32)?;
            }
        }
        Ok(())
    }

    /// An operation whose result has `f64` lanes, or a conversion from them
    /// (`super::f64_op`), into `d`: the selection of its `f32` form with the `pd` and `sd`
    /// codes ([`double`]).
    fn f64_inst(&mut self, op: &Op, r: Value, d: Register, args: &[Value]) -> Res<()> {
        let bytes = self.vbytes(r);
        let scalar = !self.ty(r).is_vector();
        let f64_result = self.ty(r).lane_type() == Type::F64;
        // A scalar's operations are those of its `xmm` register's low lane.
        let x = |reg: Register| if scalar { xmm_of(reg) } else { reg };
        match op {
            Op::Fconst(bits) => {
                if *bits == 0 {
                    let z = xmm_of(d);
                    return op3!(self, Code::EVEX_Vpxorq_xmm_k1z_xmm_xmmm128b64, z, z, z);
                }
                op2!(self, Code::Mov_r64_imm64, S1, *bits)?;
                if scalar {
                    op2!(self, Code::EVEX_Vmovq_xmm_rm64, xmm_of(d), S1)
                } else {
                    op2!(self, pick(PBROADCASTQ_R, bytes), d, S1)
                }
            }
            Op::Splat => {
                let a = self.vec(args[0], VS0)?;
                op2!(self, pick(PBROADCASTQ_X, bytes), d, xmm_of(a))
            }
            Op::Binary(b @ (BinaryOp::Fmin | BinaryOp::Fmax)) => {
                let (a, c) = (self.vec(args[0], VS0)?, self.vec(args[1], VS1)?);
                let n = bytes.max(16);
                let (d, a, c) = (sized(d, n), sized(a, n), sized(c, n));
                self.min_max_of(*b == BinaryOp::Fmin, d, a, c, n, true)
            }
            Op::Binary(b) => {
                let code =
                    float_arithmetic(*b, scalar, bytes).ok_or_else(|| format!("{b:?} of f64"))?;
                let (a, c) = (self.vec(args[0], VS0)?, self.vec(args[1], VS1)?);
                op3!(self, double(code)?, x(d), x(a), x(c))
            }
            Op::Fma => {
                let (args, forms) = self.fma_forms(args, scalar, bytes);
                let [c231, c213, c132] = forms;
                self.fma_in_registers(d, &args, [double(c231)?, double(c213)?, c132], scalar)
            }
            Op::Unary(u @ (UnaryOp::Fneg | UnaryOp::Fabs)) => {
                // The sign bits flipped, or cleared, by a pool entry.
                let a = self.vec(args[0], VS0)?;
                let n = bytes.max(16);
                let (words, code) = if *u == UnaryOp::Fneg {
                    ([0, 0x8000_0000], PXORQ)
                } else {
                    ([u32::MAX, 0x7fff_ffff], PANDQ)
                };
                let m = self.pool_ref(words.repeat(8).try_into().expect("16 words"));
                op3!(self, pick(code, n), sized(d, n), sized(a, n), m)
            }
            // Correctly rounded roots (`double`'s are, OpenCL C 7.4, Table 66).
            Op::Unary(UnaryOp::Sqrt | UnaryOp::SqrtRelaxed) => {
                let a = self.vec(args[0], VS0)?;
                if scalar {
                    let code = double(Code::EVEX_Vsqrtss_xmm_k1z_xmm_xmmm32_er)?;
                    return op3!(self, code, x(d), x(a), x(a));
                }
                op2!(self, double(pick(SQRTPS, bytes))?, d, a)
            }
            Op::Unary(
                u @ (UnaryOp::Floor | UnaryOp::Ceil | UnaryOp::Ftrunc | UnaryOp::Nearest),
            ) => {
                // VRNDSCALEPD as `vec_unary`'s VRNDSCALEPS.
                let imm = match u {
                    UnaryOp::Nearest => 0x08u32,
                    UnaryOp::Floor => 0x09,
                    UnaryOp::Ceil => 0x0a,
                    _ => 0x0b,
                };
                let a = self.vec(args[0], VS0)?;
                if scalar {
                    let code = double(Code::EVEX_Vrndscaless_xmm_k1z_xmm_xmmm32_imm8_sae)?;
                    return op4!(self, code, x(d), x(a), x(a), imm);
                }
                op3!(self, double(pick(RNDSCALEPS, bytes))?, d, a, imm)
            }
            Op::Convert(c @ (ConvOp::SintToFloat(round) | ConvOp::UintToFloat(round)))
                if scalar =>
            {
                // From 32 bits exact, whatever the rounding asked for; from 64 rounded as
                // asked (EVEX static rounding; the default mode is to nearest even).
                let a = self.gpr(args[0], S0)?;
                let signed = matches!(c, ConvOp::SintToFloat(_));
                let (code, a) = match (signed, self.wide(args[0])) {
                    (true, false) => (Code::EVEX_Vcvtsi2sd_xmm_xmm_rm32_er, r32(a)),
                    (false, false) => (Code::EVEX_Vcvtusi2sd_xmm_xmm_rm32_er, r32(a)),
                    (true, true) => (Code::EVEX_Vcvtsi2sd_xmm_xmm_rm64_er, a),
                    (false, true) => (Code::EVEX_Vcvtusi2sd_xmm_xmm_rm64_er, a),
                };
                let mut i = Instruction::with3(code, xmm_of(d), xmm_of(d), a).map_err(bad)?;
                let rc = match round {
                    ferrocl_ir::Round::Rte => None,
                    ferrocl_ir::Round::Rtn => Some(iced_x86::RoundingControl::RoundDown),
                    ferrocl_ir::Round::Rtp => Some(iced_x86::RoundingControl::RoundUp),
                    ferrocl_ir::Round::Rtz => Some(iced_x86::RoundingControl::RoundTowardZero),
                };
                if let (Some(rc), true) = (rc, self.wide(args[0])) {
                    i.set_rounding_control(rc);
                }
                self.push(i);
                Ok(())
            }
            Op::Convert(c @ (ConvOp::SintToFloat(_) | ConvOp::UintToFloat(_))) => {
                let a = self.vec(args[0], VS0)?;
                let codes = match c {
                    ConvOp::SintToFloat(_) => [
                        Code::EVEX_Vcvtdq2pd_xmm_k1z_xmmm64b32,
                        Code::EVEX_Vcvtdq2pd_ymm_k1z_xmmm128b32,
                        Code::EVEX_Vcvtdq2pd_zmm_k1z_ymmm256b32_er,
                    ],
                    _ => [
                        Code::EVEX_Vcvtudq2pd_xmm_k1z_xmmm64b32,
                        Code::EVEX_Vcvtudq2pd_ymm_k1z_xmmm128b32,
                        Code::EVEX_Vcvtudq2pd_zmm_k1z_ymmm256b32_er,
                    ],
                };
                op2!(self, pick(codes, bytes), d, sized(a, bytes / 2))
            }
            Op::Convert(ConvOp::Fconv(_)) if scalar && f64_result => {
                let a = self.vec(args[0], VS0)?;
                let code = Code::EVEX_Vcvtss2sd_xmm_k1z_xmm_xmmm32_sae;
                op3!(self, code, xmm_of(d), xmm_of(d), xmm_of(a))
            }
            Op::Convert(ConvOp::Fconv(_)) if scalar => {
                let a = self.vec(args[0], VS0)?;
                let code = Code::EVEX_Vcvtsd2ss_xmm_k1z_xmm_xmmm64_er;
                op3!(self, code, xmm_of(d), xmm_of(d), xmm_of(a))
            }
            Op::Convert(ConvOp::Fconv(_)) if f64_result => {
                let a = self.vec(args[0], VS0)?;
                let codes = [
                    Code::EVEX_Vcvtps2pd_xmm_k1z_xmmm64b32,
                    Code::EVEX_Vcvtps2pd_ymm_k1z_xmmm128b32,
                    Code::EVEX_Vcvtps2pd_zmm_k1z_ymmm256b32_sae,
                ];
                op2!(self, pick(codes, bytes), d, sized(a, bytes / 2))
            }
            Op::Convert(ConvOp::Fconv(_)) => {
                // To `float`: half the bytes of the `f64` operand.
                let a = self.vec(args[0], VS0)?;
                let from = self.vbytes(args[0]);
                let codes = [
                    Code::EVEX_Vcvtpd2ps_xmm_k1z_xmmm128b64,
                    Code::EVEX_Vcvtpd2ps_xmm_k1z_ymmm256b64,
                    Code::EVEX_Vcvtpd2ps_ymm_k1z_zmmm512b64_er,
                ];
                op2!(self, pick(codes, from), sized(d, from / 2), a)
            }
            other => Err(format!("{other:?} of f64")),
        }
    }

    /// An instruction on vectors of 8- or 16-bit lanes (`super::narrow_vector_op`): an
    /// insertion, a splat, a constant, a sum, difference or product, or a conversion from or
    /// to the same lanes of 32 bits, into `d`.
    fn narrow_vec_inst(&mut self, op: &Op, r: Value, d: Register, args: &[Value]) -> Res<()> {
        let byte_lanes = |t: Type| t.lane_type() == Type::I8;
        let bytes = byte_lanes(self.ty(r));
        // The narrow vectors of a 16-lane chunk fill an `xmm` (bytes) or a `ymm` (words) at
        // most; fewer lanes are the low part of an `xmm`.
        let n = bytes_of(d);
        match op {
            Op::Splat => {
                // The scalar's low lane broadcast: VMOVD, then VPBROADCASTB / VPBROADCASTW
                // from a vector register (the form AVX2 has too).
                let x = self.gpr(args[0], S0)?;
                op2!(self, Code::EVEX_Vmovd_xmm_rm32, xmm_of(d), r32(x))?;
                let code = pick(if bytes { PBROADCASTB } else { PBROADCASTW }, n);
                op2!(self, code, d, xmm_of(d))
            }
            Op::Vconst(lanes) => {
                // The lanes' low bytes packed into the pool's words, loaded whole.
                let size = if bytes { 1 } else { 2 };
                let mut packed = [0u8; 64];
                for (k, &l) in lanes.iter().enumerate() {
                    packed[k * size..(k + 1) * size].copy_from_slice(&l.to_le_bytes()[..size]);
                }
                self.load_pool(d, pick(MOVUPS_LOAD, n), words_of(&packed))
            }
            Op::Shuffle(mask) => self.narrow_shuffle(d, args, mask, bytes),
            Op::Select if !self.avx2() => {
                // Blended under a mask: the condition's lanes, or all lanes or none for a
                // scalar condition (as many lanes as `kmovd` sets).
                let (c, a, b) = (args[0], args[1], args[2]);
                let k = if self.plan.class(c) == Class::Mask {
                    self.kreg(c, KS)?
                } else {
                    if self.ty(r).lanes() > 32 {
                        return Err("a select of more than 32 narrow lanes".into());
                    }
                    self.all_ones_if(c)?;
                    op2!(self, Code::VEX_Kmovd_kr_r32, KS, r32(S1))?;
                    KS
                };
                let (ra, rb) = (self.vec(a, VS0)?, self.vec(b, VS1)?);
                let code = pick(if bytes { PBLENDMB } else { PBLENDMW }, n);
                let mut i = Instruction::with3(code, d, sized(rb, n), sized(ra, n)).map_err(bad)?;
                i.set_op_mask(k);
                self.push(i);
                Ok(())
            }
            Op::Binary(b @ (BinaryOp::Iadd | BinaryOp::Isub | BinaryOp::Imul))
                if !bytes || *b != BinaryOp::Imul =>
            {
                let (a, c) = (self.vec(args[0], VS0)?, self.vec(args[1], VS1)?);
                let code = match (b, bytes) {
                    (BinaryOp::Iadd, true) => PADDB,
                    (BinaryOp::Iadd, false) => PADDW,
                    (BinaryOp::Isub, true) => PSUBB,
                    (BinaryOp::Isub, false) => PSUBW,
                    _ => PMULLW,
                };
                op3!(self, pick(code, n), d, sized(a, n), sized(c, n))
            }
            Op::Binary(BinaryOp::Imul) => {
                // x86 multiplies no bytes: both operands widened to words (at most 16 bytes
                // to a `ymm`), multiplied, and the products' low bytes taken back (VPMOVWB;
                // a product's low byte is that of the bytes' product).
                let (a, c) = (self.vec(args[0], VS0)?, self.vec(args[1], VS1)?);
                let (wa, wc) = (YMM[VS2], YMM[VS0]);
                op2!(self, Code::EVEX_Vpmovzxbw_ymm_k1z_xmmm128, wa, xmm_of(a))?;
                op2!(self, Code::EVEX_Vpmovzxbw_ymm_k1z_xmmm128, wc, xmm_of(c))?;
                op3!(self, Code::EVEX_Vpmullw_ymm_k1z_ymm_ymmm256, wa, wa, wc)?;
                op2!(self, Code::EVEX_Vpmovwb_xmmm128_k1z_ymm, xmm_of(d), wa)
            }
            Op::InsertLane(n) => {
                // The lane's bits broadcast under a mask of lane n alone.
                let (v, x) = (args[0], args[1]);
                let rv = self.vec(v, VS0)?;
                let rx = self.gpr(x, S0)?;
                if self.avx2() {
                    // VPINSRB / VPINSRW, of the low 128 bits (which zero the rest).
                    if bytes_of(d) > 16 {
                        return Err("an insertion into 32 bytes of narrow lanes".into());
                    }
                    self.vmov(d, rv)?;
                    let code = if byte_lanes(self.ty(v)) {
                        Code::VEX_Vpinsrb_xmm_xmm_r32m8_imm8
                    } else {
                        Code::VEX_Vpinsrw_xmm_xmm_r32m16_imm8
                    };
                    let d = xmm_of(d);
                    return op4!(self, code, d, d, r32(rx), u32::from(*n));
                }
                op2!(self, Code::Mov_r32_imm32, r32(S1), 1u32 << n)?;
                op2!(self, Code::VEX_Kmovw_kr_r32, KS, r32(S1))?;
                self.vmov(d, rv)?;
                let code = match (byte_lanes(self.ty(v)), d.is_ymm()) {
                    (true, _) => Code::EVEX_Vpbroadcastb_xmm_k1z_r32,
                    (false, false) => Code::EVEX_Vpbroadcastw_xmm_k1z_r32,
                    (false, true) => Code::EVEX_Vpbroadcastw_ymm_k1z_r32,
                };
                let mut i = Instruction::with2(code, d, r32(rx)).map_err(bad)?;
                i.set_op_mask(KS);
                self.push(i);
                Ok(())
            }
            Op::Convert(ConvOp::Trunc) => {
                let a = self.vec(args[0], VS0)?;
                self.truncate_lanes(d, a, bytes)
            }
            Op::Convert(
                c @ (ConvOp::FloatToSint { round, .. } | ConvOp::FloatToUint { round, .. }),
            ) => {
                // Each lane converted to a 32-bit integer (saturated, NaN to 0:
                // `float_to_int`), clamped to the narrow lane's range and its low bits taken:
                // `convert_uchar16_sat_rte`. Unsaturated, a value out of range has no result
                // the spec prescribes (6.4.3.3), and this one is as good as any.
                let a = self.vec(args[0], VS0)?;
                let n = bytes_of(a);
                let t = sized(ZMM[VS2], n);
                self.float_to_int(t, a, *round, n)?;
                let signed = matches!(c, ConvOp::FloatToSint { .. });
                self.clamp_to_narrow(t, n, bytes, signed)?;
                self.truncate_lanes(d, t, bytes)
            }
            Op::Convert(c) => {
                let from = self.ty(args[0]);
                let a = self.vec(args[0], VS0)?;
                let signed = matches!(c, ConvOp::Sext | ConvOp::SintToFloat(_));
                let float = matches!(c, ConvOp::SintToFloat(_) | ConvOp::UintToFloat(_));
                let k = usize::from(d.is_ymm()) + 2 * usize::from(d.is_zmm());
                let code = match (byte_lanes(from), signed) {
                    (true, false) => [
                        Code::EVEX_Vpmovzxbd_xmm_k1z_xmmm32,
                        Code::EVEX_Vpmovzxbd_ymm_k1z_xmmm64,
                        Code::EVEX_Vpmovzxbd_zmm_k1z_xmmm128,
                    ],
                    (true, true) => [
                        Code::EVEX_Vpmovsxbd_xmm_k1z_xmmm32,
                        Code::EVEX_Vpmovsxbd_ymm_k1z_xmmm64,
                        Code::EVEX_Vpmovsxbd_zmm_k1z_xmmm128,
                    ],
                    (false, false) => [
                        Code::EVEX_Vpmovzxwd_xmm_k1z_xmmm64,
                        Code::EVEX_Vpmovzxwd_ymm_k1z_xmmm128,
                        Code::EVEX_Vpmovzxwd_zmm_k1z_ymmm256,
                    ],
                    (false, true) => [
                        Code::EVEX_Vpmovsxwd_xmm_k1z_xmmm64,
                        Code::EVEX_Vpmovsxwd_ymm_k1z_xmmm128,
                        Code::EVEX_Vpmovsxwd_zmm_k1z_ymmm256,
                    ],
                }[k];
                op2!(self, code, d, a)?;
                if float {
                    // Exact: the lanes are below 2^16 in magnitude.
                    op2!(self, CVTDQ2PS[k], d, d)?;
                }
                Ok(())
            }
            other => Err(format!("{other:?} of vectors of narrow lanes")),
        }
    }

    /// `d` (16 lanes of `f32`) = scalar `x` (64 bits) plus each lane of the constant vector
    /// `lanes`, converted (`signed` or not; rounded to nearest even, the default mode): the
    /// sums made in two `zmm` of 8 lanes of 64 bits (VPBROADCASTQ, VPADDQ), each converted to
    /// 8 floats (VCVTQQ2PS / VCVTUQQ2PS: AVX-512 DQ) and the halves joined (VINSERTF32X8).
    /// Of 8 lanes (a function the tier runs at 8), one `zmm` of sums, converted to 8 `f64`
    /// (VCVTQQ2PD / VCVTUQQ2PD) or 8 `f32`.
    fn counted_to_float(&mut self, d: Register, x: Value, lanes: Value, signed: bool) -> Res<()> {
        let i = def_inst(self.f, lanes).ok_or("a counted vector without constant lanes")?;
        let Op::Vconst(c) = &self.f.dfg.insts[i].op else {
            return Err("a counted vector without constant lanes".into());
        };
        let mut halves = [[0u32; 16]; 2];
        for (k, &l) in c.iter().enumerate().take(16) {
            halves[k / 8][2 * (k % 8)] = l as u32;
            halves[k / 8][2 * (k % 8) + 1] = (l >> 32) as u32;
        }
        let g = self.gpr(x, S0)?;
        let (lo, hi) = (ZMM[VS1], ZMM[VS0]);
        op2!(self, Code::EVEX_Vpbroadcastq_zmm_k1z_r64, hi, g)?;
        if c.len() == 8 {
            // One register of 8 lanes, converted to `double` or to `float`.
            let at = self.pool_ref(halves[0]);
            op3!(self, Code::EVEX_Vpaddq_zmm_k1z_zmm_zmmm512b64, hi, hi, at)?;
            let code = match (d.is_zmm(), signed) {
                (true, true) => Code::EVEX_Vcvtqq2pd_zmm_k1z_zmmm512b64_er,
                (true, false) => Code::EVEX_Vcvtuqq2pd_zmm_k1z_zmmm512b64_er,
                (false, true) => Code::EVEX_Vcvtqq2ps_ymm_k1z_zmmm512b64_er,
                (false, false) => Code::EVEX_Vcvtuqq2ps_ymm_k1z_zmmm512b64_er,
            };
            return op2!(self, code, d, hi);
        }
        let at = self.pool_ref(halves[0]);
        op3!(self, Code::EVEX_Vpaddq_zmm_k1z_zmm_zmmm512b64, lo, hi, at)?;
        let at = self.pool_ref(halves[1]);
        op3!(self, Code::EVEX_Vpaddq_zmm_k1z_zmm_zmmm512b64, hi, hi, at)?;
        let convert = if signed {
            Code::EVEX_Vcvtqq2ps_ymm_k1z_zmmm512b64_er
        } else {
            Code::EVEX_Vcvtuqq2ps_ymm_k1z_zmmm512b64_er
        };
        op2!(self, convert, ymm_of(lo), lo)?;
        op2!(self, convert, ymm_of(hi), hi)?;
        let code = Code::EVEX_Vinsertf32x8_zmm_k1z_zmm_ymmm256_imm8;
        op4!(self, code, zmm_of(d), lo, ymm_of(hi), 1u32)
    }

    /// Clamps the 32-bit lanes of `t` (`n` bytes) to the range of a byte (`bytes`) or a
    /// halfword, `signed` or not.
    fn clamp_to_narrow(&mut self, t: Register, n: u32, bytes: bool, signed: bool) -> Res<()> {
        let (lo, hi): (i32, i32) = match (bytes, signed) {
            (true, false) => (0, 255),
            (true, true) => (-128, 127),
            (false, false) => (0, 65535),
            (false, true) => (-32768, 32767),
        };
        let at = self.pool_broadcast(lo as u32);
        op3!(self, pick(PMAXSD, n), t, t, at)?;
        let at = self.pool_broadcast(hi as u32);
        op3!(self, pick(PMINSD, n), t, t, at)
    }

    /// `d` = the low byte (`bytes`), or the low halfword, of each 32-bit lane of `a`:
    /// VPMOVDB / VPMOVDW, or on AVX2 [`Self::narrow_avx2`].
    fn truncate_lanes(&mut self, d: Register, a: Register, bytes: bool) -> Res<()> {
        if self.avx2() {
            return self.narrow_avx2(d, a, bytes);
        }
        let k = usize::from(a.is_ymm()) + 2 * usize::from(a.is_zmm());
        let code = if bytes {
            [
                Code::EVEX_Vpmovdb_xmmm32_k1z_xmm,
                Code::EVEX_Vpmovdb_xmmm64_k1z_ymm,
                Code::EVEX_Vpmovdb_xmmm128_k1z_zmm,
            ]
        } else {
            [
                Code::EVEX_Vpmovdw_xmmm64_k1z_xmm,
                Code::EVEX_Vpmovdw_xmmm128_k1z_ymm,
                Code::EVEX_Vpmovdw_ymmm256_k1z_zmm,
            ]
        }[k];
        op2!(self, code, d, a)
    }

    /// A shuffle of two vectors of narrow lanes (bytes where `bytes`, else words) into `d`.
    /// Operands of at most 16 bytes: VPSHUFB of each, picking its bytes (a pattern byte of
    /// 0x80 gives zero), the two combined by VPOR. Words of 32 bytes: VPERMI2W over the two
    /// (AVX-512 BW; AVX2 has no form of it and refuses the function).
    fn narrow_shuffle(&mut self, d: Register, args: &[Value], mask: &[u8], bytes: bool) -> Res<()> {
        let m = self.ty(args[0]).lanes() as usize;
        let size = if bytes { 1 } else { 2 };
        let (a, b) = (self.vec(args[0], VS0)?, self.vec(args[1], VS1)?);
        if bytes_of(a) <= 16 && bytes_of(d) <= 16 {
            let (mut from_a, mut from_b) = ([0x80u8; 64], [0x80u8; 64]);
            for (k, &j) in mask.iter().enumerate() {
                let j = usize::from(j);
                for t in 0..size {
                    if j < m {
                        from_a[k * size + t] = (j * size + t) as u8;
                    } else {
                        from_b[k * size + t] = ((j - m) * size + t) as u8;
                    }
                }
            }
            let shuffle = Code::EVEX_Vpshufb_xmm_k1z_xmm_xmmm128;
            let uses_b = mask.iter().any(|&j| usize::from(j) >= m);
            let t = if uses_b { XMM[VS2] } else { xmm_of(d) };
            let at = self.pool_ref(words_of(&from_a));
            op3!(self, shuffle, t, xmm_of(a), at)?;
            if !uses_b {
                return Ok(());
            }
            // `a` is read: its scratch register is free.
            let at = self.pool_ref(words_of(&from_b));
            op3!(self, shuffle, XMM[VS0], xmm_of(b), at)?;
            return op3!(self, PORD[0], xmm_of(d), t, XMM[VS0]);
        }
        if bytes {
            return Err("a shuffle of more than 16 bytes".into());
        }
        // VPERMI2W: indices 0-31 name the first table's words, 32-63 the second's.
        let mut idx = [0u8; 64];
        for (k, &j) in mask.iter().enumerate() {
            let j = usize::from(j);
            let w = if j < m { j } else { 32 + j - m } as u16;
            idx[2 * k..2 * k + 2].copy_from_slice(&w.to_le_bytes());
        }
        let t = if [a, b].iter().all(|&x| zmm_of(x) != zmm_of(d)) {
            zmm_of(d)
        } else {
            ZMM[VS2]
        };
        self.load_pool(t, MOVUPS_LOAD[2], words_of(&idx))?;
        let code = Code::EVEX_Vpermi2w_zmm_k1z_zmm_zmmm512;
        op3!(self, code, t, zmm_of(a), zmm_of(b))?;
        self.vmov(d, sized(t, bytes_of(d)))
    }

    /// AVX2: `d` = the low byte (`bytes`), or the low halfword, of each 32-bit lane of `a`
    /// (an `xmm` or a `ymm`), packed from the bottom and the rest zero: VPSHUFB gathers each
    /// 128-bit half's to the bottom of that half (a pattern byte of 0x80 gives zero), then the
    /// upper half's are unpacked after the lower half's.
    fn narrow_avx2(&mut self, d: Register, a: Register, bytes: bool) -> Res<()> {
        let mut pattern = [0x8080_8080u32; 16];
        let per_half: &[u32] = if bytes {
            &[0x0c08_0400]
        } else {
            &[0x0504_0100, 0x0d0c_0908]
        };
        for half in [0, 4] {
            pattern[half..half + per_half.len()].copy_from_slice(per_half);
        }
        let (x, t) = (xmm_of(d), ZMM[VS1]);
        if !a.is_ymm() {
            let table = self.pool_ref(pattern);
            return op3!(self, Code::VEX_Vpshufb_xmm_xmm_xmmm128, x, a, table);
        }
        let (t, u) = (ymm_of(t), XMM[VS2]);
        let table = self.pool_ref(pattern);
        op3!(self, Code::VEX_Vpshufb_ymm_ymm_ymmm256, t, a, table)?;
        op3!(self, Code::VEX_Vextracti128_xmmm128_ymm_imm8, u, t, 1u32)?;
        let unpack = if bytes {
            Code::VEX_Vpunpckldq_xmm_xmm_xmmm128
        } else {
            Code::VEX_Vpunpcklqdq_xmm_xmm_xmmm128
        };
        op3!(self, unpack, x, xmm_of(t), u)
    }

    /// AVX2: `d` = the lanes `mask` names of `args[0]` (lanes 0 to m-1) and `args[1]` (m
    /// on): each table permuted by VPERMPS (indices in the destination register), then the
    /// second's lanes blended in by VBLENDPS.
    fn shuffle_avx2(&mut self, d: Register, args: &[Value], mask: &[u8], m: u32) -> Res<()> {
        if m == 8 && mask.len() == 8 {
            if let Some(pattern) = Interleave::of(mask) {
                return self.interleave_avx2(d, args, pattern);
            }
        }
        let mut idx = [[0u32; 16]; 2];
        let mut second = 0u32;
        for (k, &j) in mask.iter().enumerate() {
            let j = u32::from(j);
            if j < m {
                idx[0][k] = j;
            } else {
                idx[1][k] = j - m;
                second |= 1 << k;
            }
        }
        let all = (1u32 << mask.len()) - 1;
        let (a, b) = (self.vec(args[0], VS0)?, self.vec(args[1], VS1)?);
        let (d, a, b) = (ymm_of(d), ymm_of(a), ymm_of(b));
        // The first table's lanes go to `d` unless a table is there (then to scratch 29);
        // the second's to scratch 30, the first table's (read by then).
        let t = if d != a && d != b {
            d
        } else {
            ymm_of(ZMM[VS2])
        };
        if second != all {
            self.load_pool(t, Code::VEX_Vmovups_ymm_ymmm256, idx[0])?;
            op3!(self, Code::VEX_Vpermps_ymm_ymm_ymmm256, t, t, a)?;
        }
        if second == 0 {
            return self.vmov(d, t);
        }
        let u = ymm_of(ZMM[VS0]);
        self.load_pool(u, Code::VEX_Vmovups_ymm_ymmm256, idx[1])?;
        op3!(self, Code::VEX_Vpermps_ymm_ymm_ymmm256, u, u, b)?;
        if second == all {
            return self.vmov(d, u);
        }
        op4!(
            self,
            Code::VEX_Vblendps_ymm_ymm_ymmm256_imm8,
            d,
            t,
            u,
            second
        )
    }

    /// AVX2: the shuffles of two 8-lane operands that transposing `float4`s or `float2`s
    /// across work-items is made of, in in-lane shuffles and 128-bit moves: VPERMPS takes four
    /// cycles on hosts whose 256-bit operations run in two halves (AMD Zen 1), where these
    /// take one or two, and the general form needs two of it, a blend and two index loads.
    /// On a 2-core AMD EPYC (Zen 1), float4-poly (eight of these to load a chunk and eight to
    /// store it) went from 7.8 to 5.6 ms.
    fn interleave_avx2(&mut self, d: Register, args: &[Value], pattern: Interleave) -> Res<()> {
        let (a, b) = (self.vec(args[0], VS0)?, self.vec(args[1], VS1)?);
        let (d, a, b) = (ymm_of(d), ymm_of(a), ymm_of(b));
        match pattern {
            Interleave::Halves(odd) => {
                // [a0 a2 b0 b2 | a4 a6 b4 b6] (or the odd lanes), then its 64-bit lanes in the
                // order 0 2 1 3.
                let pick = if odd { 0xdd } else { 0x88 };
                op4!(
                    self,
                    Code::VEX_Vshufps_ymm_ymm_ymmm256_imm8,
                    d,
                    a,
                    b,
                    pick as u32
                )?;
                op3!(self, Code::VEX_Vpermpd_ymm_ymmm256_imm8, d, d, 0xd8u32)
            }
            Interleave::Zip(high) => {
                // t = [a2 b2 a3 b3 | a6 b6 a7 b7], d = [a0 b0 a1 b1 | a4 b4 a5 b5]: the low
                // halves of both, or their high halves.
                let t = ymm_of(ZMM[VS2]);
                op3!(self, Code::VEX_Vunpckhps_ymm_ymm_ymmm256, t, a, b)?;
                op3!(self, Code::VEX_Vunpcklps_ymm_ymm_ymmm256, d, a, b)?;
                if high {
                    op4!(
                        self,
                        Code::VEX_Vperm2f128_ymm_ymm_ymmm256_imm8,
                        d,
                        d,
                        t,
                        0x31u32
                    )
                } else {
                    op4!(
                        self,
                        Code::VEX_Vinsertf128_ymm_ymm_xmmm128_imm8,
                        d,
                        d,
                        xmm_of(t),
                        1u32
                    )
                }
            }
        }
    }

    /// Whether `v` is a vector constant without a pinned register: read from the constant
    /// pool by the instruction that uses it ([`Self::pool_operand`]).
    fn is_pool_constant(&self, v: Value) -> bool {
        self.plan.is_remat(v)
            && self.ty(v).is_vector()
            && self.pinned_value(v).is_none()
            && def_inst(self.f, v)
                .is_some_and(|i| matches!(self.f.dfg.insts[i].op, Op::Iconst(_) | Op::Fconst(_)))
    }

    /// The constant pool's entry of vector constant `v` (one that [`Self::is_pool_constant`]),
    /// as the memory operand of the next instruction emitted (its address is fixed up there).
    fn pool_operand(&mut self, v: Value) -> Res<MemoryOperand> {
        let i = def_inst(self.f, v).ok_or("a constant without an instruction")?;
        let bits = match self.f.dfg.insts[i].op {
            Op::Iconst(c) | Op::Fconst(c) => replicated(self.ty(v), c as u32),
            _ => return Err(format!("{v} is not a constant")),
        };
        Ok(self.pool_broadcast(bits))
    }

    /// The pool's entry of 32-bit constant `bits` as the broadcast memory operand
    /// (`{1to16}`: a 4-byte read) of the next instruction emitted.
    fn pool_broadcast(&mut self, bits: u32) -> MemoryOperand {
        let mut m = self.pool_ref([bits; 16]);
        // VEX has no broadcasts: AVX2 reads the whole entry (32 of its 64 bytes).
        m.is_broadcast = self.plan.isa == Isa::Avx512;
        m
    }

    /// The broadcast memory operand an operation reads `v` through: a constant's pool entry,
    /// or the lane of the load a splat reads ([`Plan::in_memory`]).
    fn memory_operand(&mut self, v: Value) -> Res<MemoryOperand> {
        if self.spilled(v) {
            return self.slot(v, 0).ok_or_else(|| format!("{v} has no slot"));
        }
        let Some(load) = self.plan.in_memory(v) else {
            return self.pool_operand(v);
        };
        let data = &self.f.dfg.insts[load];
        let Op::Load(m) = &data.op else {
            return Err("a broadcast of something other than a load".into());
        };
        let p = self.f.dfg.resolve(data.args[0]);
        let mut at = self.address(p, m)?;
        at.is_broadcast = true;
        Ok(at)
    }

    /// `d = a / c` in `f32` lanes where OpenCL C asks for 2.5 ulp, not correct rounding
    /// (Table 65: "x / y <= 2.5 ulp"; `BinaryOp::FdivRelaxed`). A divide of 16 lanes keeps
    /// the divider busy for about ten cycles; a reciprocal and three operations that pipeline
    /// take two or three, but their chain is the longer, and where the host's divider is
    /// fast against it (`super::reciprocal_divisions`) the chunk divides.
    ///
    /// - By a constant `c` whose reciprocal is a normal float: `a * fl(1/c)`. The two
    ///   roundings are each within half an ulp of their result, so the product is within
    ///   1.5 ulp of `a / c`.
    /// - Otherwise `r0 = rcp14(c)` (relative error under 2^-14, denormal operands and results
    ///   as they are without DAZ and FTZ), one Newton step `r1 = r0 + r0 * (1 - c * r0)`
    ///   (relative error under 2^-24 + 2^-28: the step squares r0's, and its fma rounds
    ///   once), and `a * r1`: within 1.07 + 0.5 ulp of `a / c`. An infinite, NaN, zero or
    ///   subnormal `a` goes through the product as through a divide (inf * r1 is inf, 0 * r1
    ///   is 0), and so does a quotient that overflows or underflows. Where any lane's `r0` is
    ///   not a normal float (`c` zero, infinite, NaN, larger than 2^126 or smaller than
    ///   2^-128), the chunk divides instead: the step would make a NaN of those.
    fn relaxed_div(&mut self, d: Register, args: &[Value], bytes: u32) -> Res<()> {
        let fconst = |e: &Self, v: Value| {
            def_inst(e.f, v).and_then(|i| match e.f.dfg.insts[i].op {
                Op::Fconst(c) => Some(f32::from_bits(c as u32)),
                _ => None,
            })
        };
        if let Some(r) = fconst(self, args[1])
            .map(f32::recip)
            .filter(|r| r.is_normal())
        {
            let a = self.vec(args[0], VS0)?;
            let m = self.pool_broadcast(r.to_bits());
            return op3!(self, pick(MULPS, bytes), d, a, m);
        }
        if !super::reciprocal_divisions() {
            let a = self.vec(args[0], VS0)?;
            let c = self.vec(args[1], VS1)?;
            return op3!(self, pick(DIVPS, bytes), d, a, c);
        }
        // `1 / c` is the step's result itself, within 1.07 ulp.
        let reciprocal = fconst(self, args[0]) == Some(1.0);
        let a = if reciprocal {
            None
        } else {
            Some(self.vec(args[0], VS0)?)
        };
        let c = self.vec(args[1], VS1)?;
        let r = sized(ZMM[VS2], bytes);
        op2!(self, pick(RCP14PS, bytes), r, c)?;
        // VFPCLASSPS: QNaN, +0, -0, +inf, -inf, subnormal, SNaN (every class but finite
        // negative, which the other bits do not name, and normal).
        op3!(self, pick(FPCLASSPS, bytes), KS, r, 0xbfu32)?;
        op2!(self, Code::VEX_Kortestw_kr_kr, KS, KS)?;
        let (divide, done) = (self.new_label(), self.new_label());
        self.jump(Code::Jne_rel32_64, divide)?;
        // The step's register: a scratch register neither operand is in, else `d` (then
        // both operands are in scratch registers, so `d` is neither).
        let e = [VS0, VS1]
            .map(|n| sized(ZMM[n], bytes))
            .into_iter()
            .find(|&x| Some(x) != a && x != c)
            .unwrap_or(d);
        self.vmov(e, r)?;
        let one = self.pool_broadcast(1.0f32.to_bits());
        op3!(self, pick(FNMADD213PS, bytes), e, c, one)?;
        match a {
            Some(a) => {
                op3!(self, pick(FMADD213PS, bytes), r, e, r)?;
                op3!(self, pick(MULPS, bytes), d, a, r)?;
            }
            None => {
                op3!(self, pick(FMADD213PS, bytes), e, r, r)?;
                self.vmov(d, e)?;
            }
        }
        self.jump(Code::Jmp_rel32_64, done)?;
        self.bind(divide);
        match a {
            Some(a) => op3!(self, pick(DIVPS, bytes), d, a, c)?,
            None => {
                // The numerator in VS0, which no operand is in.
                let one = sized(ZMM[VS0], bytes);
                self.broadcast(one, 1.0f32.to_bits())?;
                op3!(self, pick(DIVPS, bytes), d, one, c)?;
            }
        }
        self.bind(done);
        Ok(())
    }

    /// `rsqrt(a)` (`reciprocal`) or `sqrt(a)` where OpenCL C asks for 2 and 3 ulp (Table 65:
    /// "rsqrt <= 2 ulp", "sqrt <= 3 ulp"; `UnaryOp::Rsqrt`, `UnaryOp::SqrtRelaxed`), from
    /// `y0 = rsqrt14(a)` (relative error under 2^-14, a subnormal `a` as it is without DAZ)
    /// and one Newton step, in place of a square root (and a divide) that hold the divider
    /// for about twelve cycles each.
    ///
    /// With `g = fl(a * y0)` and `e = fl(1 - g * y0) / 2` (the product exact in the fma),
    /// `g + g * e` is `sqrt(a)` and `y0 + y0 * e` is `1 / sqrt(a)`, each within 2^-25
    /// (`g`'s rounding, halved by the step) and 1.5 * 2^-28 (the step's quadratic term) of
    /// relative error before the fma rounds: within 1.1 ulp. `g` is formed before any
    /// square of `y0`, which overflows for a subnormal `a`. For +-0 and +inf, where the step
    /// makes a NaN (0 * inf), `y0` is exact (+-inf, +0) and `a` is the square root: the
    /// result is blended from those. A negative `a` or a NaN gives a NaN throughout.
    fn refined_rsqrt(&mut self, reciprocal: bool, d: Register, a: Register, bytes: u32) -> Res<()> {
        let (g, y) = (sized(ZMM[VS1], bytes), sized(ZMM[VS2], bytes));
        // VFPCLASSPS: +0, -0, +inf.
        op3!(self, pick(FPCLASSPS, bytes), KS, a, 0x0eu32)?;
        op2!(self, pick(RSQRT14PS, bytes), y, a)?;
        op3!(self, pick(MULPS, bytes), g, a, y)?;
        // The step in `t`, from the other of the two, `o`: t = (1 - t * o) / 2, then
        // t * o + o (g's for the reciprocal, y0's for the root).
        let (t, o) = if reciprocal { (g, y) } else { (y, g) };
        let one = self.pool_broadcast(1.0f32.to_bits());
        op3!(self, pick(FNMADD213PS, bytes), t, o, one)?;
        let half = self.pool_broadcast(0.5f32.to_bits());
        op3!(self, pick(MULPS, bytes), t, t, half)?;
        op3!(self, pick(FMADD213PS, bytes), t, o, o)?;
        // Where `a` is +-0 or +inf: y0 for the reciprocal, `a` for the root.
        let exact = if reciprocal { y } else { a };
        let mut i = Instruction::with3(pick(BLENDMPS, bytes), d, t, exact).map_err(bad)?;
        i.set_op_mask(KS);
        self.push(i);
        Ok(())
    }

    /// `code d, x, m`: `x` in a register (`scratch` where it has none), `m` a constant read
    /// from the pool.
    fn with_pool(
        &mut self,
        code: Code,
        d: Register,
        x: Value,
        scratch: usize,
        m: Value,
    ) -> Res<bool> {
        let rx = self.vec(x, scratch)?;
        let mo = self.pool_operand(m)?;
        op3!(self, code, d, rx, mo)?;
        Ok(true)
    }

    /// The operands of fma `args` with the negations the fma makes itself taken off
    /// ([`Plan::negated`]), and its 231, 213 and 132 forms, which negate the product (one
    /// multiplicand negated), the addend, both or neither.
    fn fma_forms(&self, args: &[Value], scalar: bool, bytes: u32) -> ([Value; 3], [Code; 3]) {
        let mut signs = [false; 3];
        let mut plain = [args[0], args[1], args[2]];
        for (v, s) in plain.iter_mut().zip(signs.iter_mut()) {
            if let Some(x) = self.plan.negated(*v) {
                (*v, *s) = (x, true);
            }
        }
        let forms = match (signs[0] != signs[1], signs[2], scalar) {
            (false, false, false) => [FMADD231PS, FMADD213PS, FMADD132PS],
            (true, false, false) => [FNMADD231PS, FNMADD213PS, FNMADD132PS],
            (false, true, false) => [FMSUB231PS, FMSUB213PS, FMSUB132PS],
            (true, true, false) => [FNMSUB231PS, FNMSUB213PS, FNMSUB132PS],
            (false, false, true) => return (plain, FMADD_SS),
            (true, false, true) => return (plain, FNMADD_SS),
            (false, true, true) => return (plain, FMSUB_SS),
            (true, true, true) => return (plain, FNMSUB_SS),
        };
        (plain, forms.map(|f| pick(f, bytes)))
    }

    /// `d = a * b + c` of operands `args` in registers, in the form (`forms`: 231, 213) whose
    /// destination is an operand's register, or with the addend moved to `d` first (`xmm`
    /// registers for a `scalar`).
    fn fma_in_registers(
        &mut self,
        d: Register,
        args: &[Value; 3],
        forms: [Code; 3],
        scalar: bool,
    ) -> Res<()> {
        let (a, b, c) = (
            self.vec(args[0], VS0)?,
            self.vec(args[1], VS1)?,
            self.vec(args[2], VS2)?,
        );
        let [c231, c213, _] = forms;
        let x = |r: Register| if scalar { xmm_of(r) } else { r };
        let (d, a, b, c) = (x(d), x(a), x(b), x(c));
        if d == c {
            op3!(self, c231, d, a, b)
        } else if d == a {
            op3!(self, c213, d, b, c)
        } else if d == b {
            op3!(self, c213, d, a, c)
        } else {
            self.vmov(d, c)?;
            op3!(self, c231, d, a, b)
        }
    }

    /// `d = a * b + c` (vectors) with a constant operand read from the pool by the fma
    /// itself, in the form whose memory operand it is (231: `d = a * m + d`; 213: `d = b * d +
    /// m`; 132: `d = d * m + c`); `false` where no operand is such a constant or no form fits.
    fn fma_from_pool(&mut self, d: Register, args: &[Value], forms: [Code; 3]) -> Res<bool> {
        let bytes = bytes_of(d);
        let k = |e: &Self, v: Value| e.is_pool_constant(v);
        let reg = |e: &Self, v: Value| -> Option<Register> {
            (!e.plan.is_remat(v) && e.alloc.slot[v].is_none())
                .then(|| e.alloc.reg[v].map(|r| sized(r, bytes)))
                .flatten()
        };
        let (a, b, c) = (args[0], args[1], args[2]);
        let [c231, c213, c132] = forms;
        // The addend a constant: into d from the pool, or read by a 213 form from d's
        // multiplicand.
        if k(self, c) && !k(self, a) && !k(self, b) {
            if reg(self, a) == Some(d) {
                return self.with_pool(c213, d, b, VS1, c);
            }
            if reg(self, b) == Some(d) {
                return self.with_pool(c213, d, a, VS0, c);
            }
            let (ra, rb) = (self.vec(a, VS0)?, self.vec(b, VS1)?);
            self.vec_constant(c, d)?;
            op3!(self, c231, d, ra, rb)?;
            return Ok(true);
        }
        // A multiplicand a constant (the other, x, a register): 231 where d holds the
        // addend, 132 where d holds x.
        let (x, m) = match (k(self, a), k(self, b)) {
            (false, true) => (a, b),
            (true, false) => (b, a),
            _ => return Ok(false),
        };
        if k(self, c) {
            // Both constants: the multiplicand into scratch for a 213 form on x in d, or the
            // addend into d for a 231 form.
            if reg(self, x) == Some(d) {
                return self.with_pool(c213, d, m, VS1, c);
            }
            let rx = self.vec(x, VS0)?;
            self.vec_constant(c, d)?;
            let mo = self.pool_operand(m)?;
            op3!(self, c231, d, rx, mo)?;
            return Ok(true);
        }
        if reg(self, c) == Some(d) {
            return self.with_pool(c231, d, x, VS0, m);
        }
        if reg(self, x) == Some(d) {
            return self.with_pool(c132, d, c, VS2, m);
        }
        let (rx, rc) = (self.vec(x, VS0)?, self.vec(c, VS2)?);
        self.vmov(d, rc)?;
        let mo = self.pool_operand(m)?;
        op3!(self, c231, d, rx, mo)?;
        Ok(true)
    }

    /// `d = fmin(a, b)` (or `fmax`) lane by lane, registers named for `bytes`: where one
    /// operand is a NaN, the other (the IR's rule, OpenCL C's `fmin`); of two zeros, `-0`
    /// for the minimum and `+0` for the maximum, as Cranelift's. VMINPS gives its second
    /// operand where either is a NaN or both are zeros (Intel SDM, MINPS), so
    /// `t = min(a, b)` with `a` in the lanes where `b` is a NaN, `u = min(b, a)`, and the
    /// result `t | u` (`t & u` for the maximum: the zeros' sign bits), `t` where `a` is a
    /// NaN.
    fn min_max(&mut self, min: bool, d: Register, a: Register, b: Register, bytes: u32) -> Res<()> {
        self.min_max_of(min, d, a, b, bytes, false)
    }

    /// [`Self::min_max`] of `f64` lanes where `double` (AVX-512: the `pd` forms, masks of
    /// 64-bit lanes).
    fn min_max_of(
        &mut self,
        min: bool,
        d: Register,
        a: Register,
        b: Register,
        bytes: u32,
        double: bool,
    ) -> Res<()> {
        let (op, join) = if min { (MINPS, PORD) } else { (MAXPS, PANDD) };
        let lanes = |code: Code| if double { self::double(code) } else { Ok(code) };
        let t = sized(ZMM[VS2], bytes);
        let (op, cmp, mov) = (
            lanes(pick(op, bytes))?,
            lanes(pick(CMPPS, bytes))?,
            lanes(pick(MOVAPS, bytes))?,
        );
        op3!(self, op, t, a, b)?;
        let uno = cmpps_predicate(FloatCC::Uno);
        if self.avx2() {
            // The same with the masks in scratch 28 (free: `d` is written last) and the
            // second minimum in scratch 30 (`a`'s, read for the last time by it).
            let (m, u) = (sized(ZMM[VEC_SPILL_SCRATCH], bytes), sized(ZMM[VS0], bytes));
            op4!(self, vex_pick(bytes, CMPPS_VEX), m, b, b, uno)?;
            self.blend_by(t, t, a, m)?;
            op4!(self, vex_pick(bytes, CMPPS_VEX), m, a, a, uno)?;
            op3!(self, op, u, b, a)?;
            op3!(self, pick(join, bytes), u, u, t)?;
            return self.blend_by(d, u, t, m);
        }
        op4!(self, cmp, KS, b, b, uno)?;
        let mut i = Instruction::with2(mov, t, a).map_err(bad)?;
        i.set_op_mask(KS);
        self.push(i);
        op4!(self, cmp, KS, a, a, uno)?;
        op3!(self, op, d, b, a)?;
        op3!(self, pick(join, bytes), d, d, t)?;
        let mut i = Instruction::with2(mov, d, t).map_err(bad)?;
        i.set_op_mask(KS);
        self.push(i);
        Ok(())
    }

    /// Unary operation `u` of vector (or scalar `f32`) `a` into `d`, both named for their size.
    fn vec_unary(
        &mut self,
        u: UnaryOp,
        d: Register,
        a: Register,
        scalar: bool,
        bytes: u32,
    ) -> Res<()> {
        match u {
            UnaryOp::Fneg | UnaryOp::Fabs | UnaryOp::Bnot => {
                let (bits, code) = match u {
                    UnaryOp::Fneg => (0x8000_0000, XORPS),
                    UnaryOp::Fabs => (0x7fff_ffff, ANDPS),
                    _ => (u32::MAX, PXORD),
                };
                if bytes >= 16 && self.pinned(bits).is_none() {
                    let m = self.pool_broadcast(bits);
                    return op3!(self, pick(code, bytes), d, a, m);
                }
                let s = self.constant_reg(bits, VS1, bytes.max(16))?;
                op3!(self, pick(code, bytes), d, a, s)
            }
            UnaryOp::Ineg => {
                // 0 - a (a may be d: the zero goes to scratch).
                let z = sized(ZMM[VS2], bytes);
                op3!(self, pick(PXORD, bytes), z, z, z)?;
                op3!(self, pick(PSUBD, bytes), d, z, a)
            }
            UnaryOp::Clz if self.avx2() => {
                // The exponent of the lane as a float (its highest bit's position), with
                // the bit below each set bit cleared first so that rounding cannot carry into
                // the next power of two: clz = 158 - the biased exponent, 32 for a zero lane
                // (158 - 0, at most 32), 0 where the sign bit is set (the conversion is
                // signed: those lanes are chosen by the sign bit at the end).
                let n = bytes.max(16);
                let (d, a) = (sized(d, n), sized(a, n));
                let (s, t) = (sized(ZMM[VS1], n), sized(ZMM[VS2], n));
                op3!(self, pick(PSRLD_IMM, n), s, a, 1u32)?;
                op3!(self, vex_pick(n, PANDN_VEX), s, s, a)?;
                op2!(self, pick(CVTDQ2PS, n), s, s)?;
                op3!(self, pick(PSRLD_IMM, n), s, s, 23u32)?;
                self.load_pool(t, vex_pick(n, MOVUPS_VEX), [158; 16])?;
                op3!(self, vex_pick(n, PSUBD_VEX), s, t, s)?;
                let most = self.pool_ref([32; 16]);
                op3!(self, vex_pick(n, PMINUD_VEX), s, s, most)?;
                op3!(self, vex_pick(n, PXOR_VEX), t, t, t)?;
                self.blend_by(d, s, t, a)
            }
            // VPLZCNTD (AVX-512 CD): 32 for a zero lane, as the IR's clz.
            UnaryOp::Clz => op2!(self, pick(PLZCNTD, bytes), d, a),
            UnaryOp::Sqrt | UnaryOp::SqrtRelaxed if scalar => {
                op3!(self, Code::EVEX_Vsqrtss_xmm_k1z_xmm_xmmm32_er, d, a, a)
            }
            UnaryOp::SqrtRelaxed | UnaryOp::Rsqrt if !scalar && !self.avx2() => {
                self.refined_rsqrt(u == UnaryOp::Rsqrt, d, a, bytes)
            }
            UnaryOp::Sqrt | UnaryOp::SqrtRelaxed => op2!(self, pick(SQRTPS, bytes), d, a),
            UnaryOp::Rsqrt => {
                // 1 / sqrt(x), each rounded: as exact as the IR's reference.
                let one = 1.0f32.to_bits();
                if scalar {
                    op3!(self, Code::EVEX_Vsqrtss_xmm_k1z_xmm_xmmm32_er, d, a, a)?;
                    let s = self.constant_reg(one, VS1, 16)?;
                    op3!(self, Code::EVEX_Vdivss_xmm_k1z_xmm_xmmm32_er, d, s, d)
                } else {
                    op2!(self, pick(SQRTPS, bytes), d, a)?;
                    let s = self.constant_reg(one, VS1, bytes)?;
                    op3!(self, pick(DIVPS, bytes), d, s, d)
                }
            }
            UnaryOp::Floor | UnaryOp::Ceil | UnaryOp::Ftrunc | UnaryOp::Nearest => {
                // VRNDSCALEPS imm8: bits 1:0 the rounding (nearest even, down, up,
                // toward zero), bit 3 suppresses the precision exception.
                let imm = match u {
                    UnaryOp::Nearest => 0x08u32,
                    UnaryOp::Floor => 0x09,
                    UnaryOp::Ceil => 0x0a,
                    _ => 0x0b,
                };
                if scalar {
                    let code = Code::EVEX_Vrndscaless_xmm_k1z_xmm_xmmm32_imm8_sae;
                    op4!(self, code, d, a, a, imm)
                } else {
                    op3!(self, pick(RNDSCALEPS, bytes), d, a, imm)
                }
            }
            other => Err(format!("{other:?} on vector registers")),
        }
    }

    fn mask_inst(&mut self, op: &Op, r: Value, args: &[Value]) -> Res<()> {
        let d = self.def_kreg(r)?;
        match op {
            Op::Iconst(c) => {
                let code = if c & 1 == 1 {
                    self.mask_codes(r).kxnor
                } else {
                    Code::VEX_Kxorw_kr_kr_kr
                };
                op3!(self, code, d, d, d)
            }
            Op::Undef => Ok(()),
            Op::Fcmp(_) | Op::Icmp(_) => {
                let bytes = self.ty(args[0]).bytes();
                let (code, p) = match op {
                    Op::Fcmp(cc) if self.ty(args[0]).lane_type() == Type::F64 => {
                        (double(pick(CMPPS, bytes))?, cmpps_predicate(*cc))
                    }
                    Op::Fcmp(cc) => (pick(CMPPS, bytes), cmpps_predicate(*cc)),
                    Op::Icmp(cc) => {
                        let (p, unsigned) = pcmp_predicate(*cc);
                        // Byte and word lanes (a boolean kept per work-item in the
                        // context, read back as bytes): VPCMP[U]B, VPCMP[U]W.
                        let codes = match (self.ty(args[0]).lane_bits(), unsigned) {
                            (8, false) => PCMPB,
                            (8, true) => PCMPUB,
                            (16, false) => PCMPW,
                            (16, true) => PCMPUW,
                            (_, false) => PCMPD,
                            (_, true) => PCMPUD,
                        };
                        (pick(codes, bytes), p)
                    }
                    _ => unreachable!("a comparison"),
                };
                let a = self.vec(args[0], VS0)?;
                let lanes32 = self.ty(args[0]).lane_bits() == 32;
                if bytes >= 16 && lanes32 && self.is_pool_constant(args[1]) {
                    // Compared with the constant's pool entry, broadcast.
                    let m = self.pool_operand(args[1])?;
                    return op4!(self, code, d, a, m, p);
                }
                let b = self.vec(args[1], VS1)?;
                op4!(self, code, d, a, b, p)
            }
            Op::Binary(b) => {
                // k0 takes part as an operand (only a write mask cannot be k0).
                let (a, c) = (self.kreg(args[0], KS)?, self.kreg(args[1], Register::K0)?);
                let code = match b {
                    BinaryOp::Band => Code::VEX_Kandw_kr_kr_kr,
                    BinaryOp::Bor => Code::VEX_Korw_kr_kr_kr,
                    BinaryOp::Bxor => Code::VEX_Kxorw_kr_kr_kr,
                    other => return Err(format!("{other:?} on masks")),
                };
                op3!(self, code, d, a, c)
            }
            Op::Unary(UnaryOp::Bnot) => {
                let a = self.kreg(args[0], KS)?;
                op2!(self, self.mask_codes(r).knot, d, a)
            }
            Op::Select => {
                let (c, a, b) = (args[0], args[1], args[2]);
                if self.plan.class(c) == Class::Mask && !self.plan.is_remat(c) {
                    // d = (c & a) | (!c & b); a constant (or undefined) side is all lanes
                    // or none. A spilled `c` is read into k0, a spilled `a` into k7 and a
                    // spilled `b` into `d`, which must then not hold `c`.
                    let ones = |s: &Self, x: Value| s.constant(x).is_some_and(|x| x & 1 == 1);
                    let k = self.kreg(c, Register::K0)?;
                    if !self.plan.is_remat(a) {
                        let ra = self.kreg(a, KS)?;
                        op3!(self, Code::VEX_Kandw_kr_kr_kr, KS, k, ra)?;
                    } else if ones(self, a) {
                        op2!(self, Code::VEX_Kmovw_kr_km16, KS, k)?;
                    } else {
                        op3!(self, Code::VEX_Kxorw_kr_kr_kr, KS, KS, KS)?;
                    }
                    if !self.plan.is_remat(b) {
                        if self.alloc.slot[b].is_some() && d == k {
                            return Err("a select of masks with too many spilled operands".into());
                        }
                        let rb = self.kreg(b, d)?;
                        op3!(self, Code::VEX_Kandnw_kr_kr_kr, d, k, rb)?;
                    } else if ones(self, b) {
                        op2!(self, self.mask_codes(r).knot, d, k)?;
                    } else {
                        op3!(self, Code::VEX_Kxorw_kr_kr_kr, d, d, d)?;
                    }
                    return op3!(self, Code::VEX_Korw_kr_kr_kr, d, d, KS);
                }
                // A constant condition (an undefined mask's taken as none).
                let known = self
                    .constant(c)
                    .or((self.plan.class(c) == Class::Mask).then_some(0));
                if let Some(k) = known {
                    let s = if k & 1 == 1 { a } else { b };
                    let s = self.kreg(s, d)?;
                    if s != d {
                        op2!(self, Code::VEX_Kmovw_kr_km16, d, s)?;
                    }
                    return Ok(());
                }
                // The chosen masks in registers before the condition's flags are made.
                let (a, b) = (self.kreg(a, KS)?, self.kreg(b, Register::K0)?);
                // The condition's flags (a fused comparison made here: `kmovw` leaves them),
                // then the chosen mask's bits moved by `cmov`.
                let cmov = if let Some(i) = self.plan.fused(c) {
                    CMOVCC[cond_index(self.compare_of(i)?)]
                } else {
                    let rc = self.gpr(c, SPILL_SCRATCH)?;
                    op2!(self, Code::Test_rm32_r32, r32(rc), r32(rc))?;
                    Code::Cmovne_r64_rm64
                };
                // `kmovw` into a 32-bit register zeroes the rest: the 64-bit `cmov` moves it.
                op2!(self, Code::VEX_Kmovw_r32_kr, r32(S1), b)?;
                op2!(self, Code::VEX_Kmovw_r32_kr, r32(S0), a)?;
                op2!(self, cmov, S1, S0)?;
                op2!(self, Code::VEX_Kmovw_kr_r32, d, r32(S1))
            }
            Op::Splat => {
                self.all_ones_if(args[0])?;
                op2!(self, Code::VEX_Kmovw_kr_r32, d, r32(S1))
            }
            other => Err(format!("{other:?} in a mask register")),
        }
    }

    /// The moves of an edge to `d`: each parameter that is read, from its argument.
    fn moves(&self, d: &Dest) -> Vec<Move> {
        let params = self.f.dfg.block_params(d.block);
        params
            .iter()
            .zip(&d.args)
            .filter(|(&p, _)| self.plan.needs_register(p))
            .filter_map(|(&p, &a)| {
                let a = self.f.dfg.resolve(a);
                let undefined = self.plan.is_remat(a)
                    && def_inst(self.f, a).is_some_and(|i| self.f.dfg.insts[i].op == Op::Undef)
                    && self.plan.class(a) != Class::Gpr;
                if self.alloc.slot[p].is_some() {
                    // A spilled parameter: its slot written (none where it is passed itself).
                    let dst = match self.plan.class(p) {
                        Class::Gpr => SPILL_SCRATCH,
                        Class::Vec => ZMM[VEC_SPILL_SCRATCH],
                        Class::Mask => KS,
                    };
                    let slot = Some(p);
                    return (!undefined && a != p).then_some(Move { dst, src: a, slot });
                }
                let dst = self.alloc.reg[p]?;
                let same = self.alloc.reg[a] == Some(dst);
                (!undefined && !same).then_some(Move {
                    dst,
                    src: a,
                    slot: None,
                })
            })
            .collect()
    }

    /// The parallel copy of `moves`: register to register first (cycles broken through the
    /// scratch registers), then the rematerialized values.
    fn parallel(&mut self, mut moves: Vec<Move>) -> Res<()> {
        // Spilled parameters first, while every source is still where it was: each through
        // its scratch register (`dst`) unless the source is in a register of its own. (A
        // parameter's slot read for another's, which it also writes, is refused: the slots
        // have no cycle breaking.)
        let written: Vec<Value> = moves.iter().filter_map(|m| m.slot).collect();
        if moves
            .iter()
            .any(|m| m.slot.is_some() && written.contains(&m.src))
        {
            return Err("spilled block parameters passed to one another".into());
        }
        for m in moves.iter().filter(|m| m.slot.is_some()) {
            let to = self
                .slot(m.slot.expect("a slot"), 0)
                .expect("a spilled parameter");
            let own = !self.plan.is_remat(m.src) && self.alloc.slot[m.src].is_none();
            let r = match self.alloc.reg[m.src] {
                Some(r) if own => r,
                _ if m.dst.is_zmm() => self.vec(m.src, VEC_SPILL_SCRATCH)?,
                _ => {
                    self.materialize(m.src, m.dst)?;
                    m.dst
                }
            };
            if m.dst.is_zmm() {
                op2!(self, MOVUPS_STORE[2], to, zmm_of(r))?;
            } else if m.dst.is_k() {
                op2!(self, Code::VEX_Kmovw_m16_kr, to, r)?;
            } else {
                op2!(self, Code::Mov_rm64_r64, to, r)?;
            }
        }
        moves.retain(|m| m.slot.is_none());
        let (mut late, mut regs): (Vec<Move>, Vec<Move>) = moves
            .drain(..)
            .partition(|m| self.plan.is_remat(m.src) || self.alloc.slot[m.src].is_some());
        // A source may be replaced by a scratch register while a cycle is broken.
        let mut srcs: Vec<Register> = regs
            .iter()
            .map(|m| self.alloc.reg[m.src].expect("a register"))
            .collect();
        while !regs.is_empty() {
            let free = (0..regs.len()).find(|&i| {
                let dst = regs[i].dst;
                !srcs.iter().enumerate().any(|(j, &s)| j != i && s == dst)
            });
            match free {
                Some(i) => {
                    let m = regs.remove(i);
                    let s = srcs.remove(i);
                    self.copy(m.dst, s)?;
                }
                None => {
                    // Every destination is still to be read: park the first one's value.
                    let dst = regs[0].dst;
                    let scratch = if dst.is_zmm() {
                        ZMM[VS1]
                    } else if dst.is_k() {
                        KS
                    } else {
                        S1
                    };
                    self.copy(scratch, dst)?;
                    for s in srcs.iter_mut() {
                        if *s == dst {
                            *s = scratch;
                        }
                    }
                }
            }
        }
        for m in late.drain(..) {
            if let (true, Some(at)) = (m.dst.is_zmm(), self.slot(m.src, 0)) {
                op2!(self, MOVUPS_LOAD[2], m.dst, at)?;
            } else if m.dst.is_zmm() {
                self.vec_constant(m.src, m.dst)?;
            } else {
                self.materialize(m.src, m.dst)?;
            }
        }
        Ok(())
    }

    fn copy(&mut self, dst: Register, src: Register) -> Res<()> {
        if dst == src {
            Ok(())
        } else if dst.is_zmm() {
            self.vmov(dst, src)
        } else if dst.is_k() {
            op2!(self, Code::VEX_Kmovw_kr_km16, dst, src)
        } else {
            self.mov(dst, src)
        }
    }

    /// An unconditional edge: its moves, then a jump unless the target comes next.
    fn edge(&mut self, d: &Dest, next: Option<Block>) -> Res<()> {
        let moves = self.moves(d);
        self.parallel(moves)?;
        if Some(d.block) != next {
            self.jump(Code::Jmp_rel32_64, self.block_label[d.block])?;
        }
        Ok(())
    }

    fn brif(&mut self, c: Value, t: &Dest, e: &Dest, next: Option<Block>) -> Res<()> {
        if let Some(k) = self.constant(c) {
            return self.edge(if k & 1 == 1 { t } else { e }, next);
        }
        if let Some(leaves) = self.plan.all_of(c) {
            return self.all_hold(leaves.to_vec(), t, e, next);
        }
        // The jumps taken where the condition holds, and where it does not.
        let (yes, no) = if let Some(i) = self.plan.fused(c) {
            let cc = self.compare_of(i)?;
            (JCC[cond_index(cc)], JCC[cond_index(cc.inverse())])
        } else if let Some((m, all)) = self.plan.any_of(c) {
            if self.avx2() {
                self.test_mask(S0, m, all)?;
                if all {
                    (Code::Je_rel32_64, Code::Jne_rel32_64)
                } else {
                    (Code::Jne_rel32_64, Code::Je_rel32_64)
                }
            } else {
                let k = self.kreg(m, KS)?;
                op2!(self, self.mask_codes(m).kortest, k, k)?;
                if all {
                    (Code::Jb_rel32_64, Code::Jae_rel32_64)
                } else {
                    (Code::Jne_rel32_64, Code::Je_rel32_64)
                }
            }
        } else {
            let rc = self.gpr(c, S0)?;
            op2!(self, Code::Test_rm32_r32, r32(rc), r32(rc))?;
            (Code::Jne_rel32_64, Code::Je_rel32_64)
        };
        let (tm, em) = (self.moves(t), self.moves(e));
        if tm.is_empty() && em.is_empty() && Some(t.block) == next {
            return self.jump(no, self.block_label[e.block]);
        }
        if em.is_empty() && !tm.is_empty() {
            // A loop's back edge: out where the condition fails, else the moves and back.
            self.jump(no, self.block_label[e.block])?;
            self.parallel(tm)?;
            if Some(t.block) != next {
                self.jump(Code::Jmp_rel32_64, self.block_label[t.block])?;
            }
            return Ok(());
        }
        let t_label = if tm.is_empty() {
            self.block_label[t.block]
        } else {
            self.new_label()
        };
        self.jump(yes, t_label)?;
        self.two_paths((em, e.block), (t_label, tm, t.block), next)
    }

    /// The rest of a two-way branch whose conditional jumps went to `label`: here the
    /// falling-through edge's moves and the jump to its block (`on`), then, where `label` is
    /// not `off`'s block itself, the jumped-to edge's moves and the jump to `off`.
    fn two_paths(
        &mut self,
        (on_moves, on): (Vec<Move>, Block),
        (label, off_moves, off): (usize, Vec<Move>, Block),
        next: Option<Block>,
    ) -> Res<()> {
        self.parallel(on_moves)?;
        if off_moves.is_empty() {
            if Some(on) != next {
                self.jump(Code::Jmp_rel32_64, self.block_label[on])?;
            }
            return Ok(());
        }
        self.jump(Code::Jmp_rel32_64, self.block_label[on])?;
        self.bind(label);
        self.parallel(off_moves)?;
        if Some(off) != next {
            self.jump(Code::Jmp_rel32_64, self.block_label[off])?;
        }
        Ok(())
    }

    /// Makes integer comparison `i` (a fused one, [`Plan::fused`], or a leaf of a
    /// conjunction) into the flags; its condition code.
    fn compare_of(&mut self, i: Inst) -> Res<IntCC> {
        let Op::Icmp(cc) = self.f.dfg.insts[i].op else {
            return Err("a fused comparison that is not one".into());
        };
        let args = &self.f.dfg.insts[i].args;
        let (a, b) = (self.f.dfg.resolve(args[0]), self.f.dfg.resolve(args[1]));
        self.compare(cc, a, b)?;
        Ok(cc)
    }

    /// A branch on the conjunction of comparisons `leaves` ([`Plan::all_of`]): each made in
    /// turn, the first that fails leaving for `e`; past them all, `t`.
    fn all_hold(&mut self, leaves: Vec<Inst>, t: &Dest, e: &Dest, next: Option<Block>) -> Res<()> {
        let (tm, em) = (self.moves(t), self.moves(e));
        let fail = if em.is_empty() {
            self.block_label[e.block]
        } else {
            self.new_label()
        };
        for i in leaves {
            let cc = self.compare_of(i)?;
            self.jump(JCC[cond_index(cc.inverse())], fail)?;
        }
        self.two_paths((tm, t.block), (fail, em, e.block), next)
    }

    /// A `switch` on `sel`: a comparison per case, each taken case's moves on its own path,
    /// then the default edge.
    fn switch(&mut self, sel: Value, table: &SwitchTable, next: Option<Block>) -> Res<()> {
        let wide = self.wide(sel);
        let r = self.gpr(sel, S0)?;
        for (k, d) in &table.cases {
            let skip = self.new_label();
            let imm = if wide {
                i32::try_from(*k as i64).ok()
            } else {
                Some(*k as u32 as i32)
            };
            match imm {
                Some(i) if wide => op2!(self, Code::Cmp_rm64_imm32, r, i)?,
                Some(i) => op2!(self, Code::Cmp_rm32_imm32, r32(r), i)?,
                None => {
                    op2!(self, Code::Mov_r64_imm64, S1, *k)?;
                    op2!(self, Code::Cmp_r64_rm64, r, S1)?;
                }
            }
            self.jump(Code::Jne_rel32_64, skip)?;
            self.edge(d, None)?;
            self.bind(skip);
        }
        self.edge(&table.default, next)
    }

    /// On an AVX2 host, each instruction in its VEX form ([`vex::to_vex`]), the branches,
    /// labels, pool reads and relocations moved with it.
    fn encode_vex(&mut self) -> Res<()> {
        let mut code = Vec::with_capacity(self.code.len());
        // Where each instruction's first replacement is (labels go there), and its last (the
        // instruction proper: a broadcast from a general register is a move, then it).
        let mut first = Vec::with_capacity(self.code.len() + 1);
        let mut main = Vec::with_capacity(self.code.len());
        for i in &self.code {
            first.push(code.len());
            code.extend(vex::to_vex(i)?);
            main.push(code.len() - 1);
        }
        first.push(code.len());
        for at in self.label_at.iter_mut().flatten() {
            *at = first[*at];
        }
        // Branches, pool reads and relocations are operands of the instruction itself.
        for (at, _) in self.fixups.iter_mut().chain(&mut self.pool_refs) {
            *at = main[*at];
        }
        for (at, _) in &mut self.data_relocs {
            *at = main[*at];
        }
        self.code = code;
        Ok(())
    }

    /// Resolves the branches, encodes, and formats the listing.
    fn finish(mut self) -> Res<WideCode> {
        const BASE: u64 = 0x1000_0000;
        if self.plan.isa == Isa::Avx2 {
            self.encode_vex()?;
        }
        // The constant pool after the code, four words a declaration.
        let mut entry_at = Vec::with_capacity(self.pool.len());
        for words in std::mem::take(&mut self.pool) {
            entry_at.push(self.code.len());
            for quad in words.chunks(4) {
                let quad: [u32; 4] = quad.try_into().map_err(|_| "a pool entry")?;
                self.push(Instruction::with_declare_dword(&quad).map_err(bad)?);
            }
        }
        for (k, i) in self.code.iter_mut().enumerate() {
            i.set_ip(BASE + k as u64);
        }
        for &(at, label) in &self.fixups {
            let target = self.label_at[label].ok_or("a label never bound")?;
            self.code[at].set_near_branch64(BASE + target as u64);
        }
        for &(at, entry) in &self.pool_refs {
            self.code[at].set_memory_displacement64(BASE + entry_at[entry] as u64);
        }
        let block = InstructionBlock::new(&self.code, 0);
        let out = BlockEncoder::encode(
            64,
            block,
            BlockEncoderOptions::RETURN_NEW_INSTRUCTION_OFFSETS,
        )
        .map_err(bad)?;
        let offsets = &out.new_instruction_offsets;
        let mut asm = String::new();
        let mut formatter = GasFormatter::new();
        let starts: std::collections::HashMap<usize, Block> = self
            .block_start
            .iter()
            .filter_map(|&(l, b)| Some((self.label_at[l]?, b)))
            .collect();
        let branch_to: std::collections::HashMap<usize, usize> =
            self.fixups.iter().copied().collect();
        let reads_pool: std::collections::HashMap<usize, usize> =
            self.pool_refs.iter().copied().collect();
        for (k, i) in self.code.iter().enumerate() {
            if let Some(b) = starts.get(&k) {
                asm.push_str(&format!("{b}:\n"));
            }
            let mut i = *i;
            let off = u64::from(offsets[k]);
            i.set_ip(off);
            if let Some(&label) = branch_to.get(&k) {
                let target = self.label_at[label].ok_or("a label never bound")?;
                i.set_near_branch64(u64::from(offsets[target]));
            }
            if let Some(&entry) = reads_pool.get(&k) {
                i.set_memory_displacement64(u64::from(offsets[entry_at[entry]]));
            }
            let mut text = String::new();
            formatter.format(&i, &mut text);
            asm.push_str(&format!("  {off:5x}  {text}\n"));
        }
        // `mov r64, imm64` is REX.W, the opcode, then the 8 bytes of the immediate.
        let relocs = self
            .data_relocs
            .iter()
            .map(|&(k, g)| (offsets[k] + 2, g))
            .collect();
        let stream_bytes = self
            .streaming
            .iter()
            .map(|i| {
                let x = self.f.dfg.resolve(self.f.dfg.insts[i].args[0]);
                self.ty(x).bytes() / self.plan.isa.width()
            })
            .sum();
        Ok(WideCode {
            bytes: out.code_buffer,
            asm,
            relocs,
            stream_bytes,
        })
    }
}

/// The instruction's text, for a refusal.
fn inst_text(f: &Function, inst: Inst) -> String {
    let name = match &f.dfg.insts[inst].op {
        Op::Binary(b) => b.name().to_string(),
        Op::Unary(u) => u.name().to_string(),
        other => format!("{other:?}")
            .split(['(', ' '])
            .next()
            .unwrap_or("")
            .to_lowercase(),
    };
    match f.dfg.inst_result(inst) {
        Some(r) => format!("{r} = {name}"),
        None => name,
    }
}

/// The vector register `r` (any size) named for `bytes` bytes.
fn sized(r: Register, bytes: u32) -> Register {
    let n = super::regs::number(r);
    match bytes {
        64 => ZMM[n],
        32 => YMM[n],
        _ => XMM[n],
    }
}

/// A constant pool entry of 64 bytes, as its 16 little-endian words.
fn words_of(bytes: &[u8; 64]) -> [u32; 16] {
    let mut words = [0u32; 16];
    for (w, c) in words.iter_mut().zip(bytes.chunks_exact(4)) {
        *w = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
    }
    words
}

/// The 32 bits that broadcast constant `bits` to every lane of vector type `ty`: a narrow
/// lane's bits repeated across the word (`0x7f` in bytes is `0x7f7f7f7f`).
fn replicated(ty: Type, bits: u32) -> u32 {
    match ty.lane_type() {
        Type::I8 => (bits & 0xff) * 0x0101_0101,
        Type::I16 => (bits & 0xffff) * 0x0001_0001,
        _ => bits,
    }
}

fn zmm_of(r: Register) -> Register {
    sized(r, 64)
}

fn ymm_of(r: Register) -> Register {
    YMM[super::regs::number(r)]
}

fn xmm_of(r: Register) -> Register {
    sized(r, 16)
}

fn bytes_of(r: Register) -> u32 {
    if r.is_zmm() {
        64
    } else if r.is_ymm() {
        32
    } else {
        16
    }
}

/// A shuffle of two 8-lane operands `a` and `b` that [`Emitter::interleave_avx2`] emits
/// without a permutation by table.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Interleave {
    /// The even lanes of `a` then of `b` (`false`), or the odd lanes (`true`):
    /// `[0, 2, 4, 6, 8, 10, 12, 14]`, `[1, 3, ..., 15]`.
    Halves(bool),
    /// The lanes of the low halves of `a` and `b` alternately (`false`), or of the high
    /// halves (`true`): `[0, 8, 1, 9, 2, 10, 3, 11]`, `[4, 12, 5, 13, 6, 14, 7, 15]`.
    Zip(bool),
}

impl Interleave {
    fn of(mask: &[u8]) -> Option<Interleave> {
        let halves = |odd: u8| (0..8u8).all(|k| mask[usize::from(k)] == 2 * k + odd);
        let zip = |from: u8| {
            (0..8u8).all(|k| mask[usize::from(k)] == from + k / 2 + if k % 2 == 1 { 8 } else { 0 })
        };
        [
            (halves(0), Interleave::Halves(false)),
            (halves(1), Interleave::Halves(true)),
            (zip(0), Interleave::Zip(false)),
            (zip(4), Interleave::Zip(true)),
        ]
        .into_iter()
        .find_map(|(hit, p)| hit.then_some(p))
    }
}
