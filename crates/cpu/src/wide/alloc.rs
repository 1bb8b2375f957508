//! Register allocation for the wide-vector tier: liveness of every value over the function's
//! blocks in layout order, one conservative interval per value (from the first position
//! where it is live to the last), then linear scan (Poletto and Sarkar, "Linear scan register
//! allocation", TOPLAS 1999) over three register files: general registers, the 32 vector
//! registers and the mask registers. Where more general or vector values are live at once
//! than there are registers, the one of that class read least often for its interval's
//! length is spilled for the whole of it, to a stack slot: written where it is defined, read
//! into a scratch register where it is read (a block parameter: written by each edge into
//! it). Mask values spill alike (`kmovw` to and from the slot; k7 and k0 are the scratch
//! registers).
//!
//! Positions: instruction `i` (counted through the blocks in layout order) reads its
//! operands at `2i` and writes its result at `2i + 1`, so a result may take the register of
//! an operand read for the last time by the same instruction. A block's parameters are
//! written at `2t + 1` of each predecessor's terminator `t` (the edge's parallel move), so
//! they never share a register with a value still live after that terminator.

use ferrocl_ir::entity::{EntityRef, SecondaryMap};
use ferrocl_ir::{Block, Function, Value, ValueDef};
use iced_x86::Register;

use super::{Class, Isa, Plan};

/// The general registers values may take: every one but `rsp`, `r10`/`r11` (scratch for
/// constants, moves and spilled operands) and `r15` (scratch for spilled results).
pub(super) const GPRS: [Register; 12] = [
    Register::RAX,
    Register::RCX,
    Register::RDX,
    Register::RSI,
    Register::RDI,
    Register::R8,
    Register::R9,
    Register::RBX,
    Register::RBP,
    Register::R12,
    Register::R13,
    Register::R14,
];

/// The registers that hold the `__local` region's base and mask in a function that confines
/// `__local` addresses (`Plan::local_regs`): taken from the values' registers, loaded from the
/// group context in the prologue.
pub(super) const LOCAL_BASE: Register = Register::R13;
pub(super) const LOCAL_MASK: Register = Register::R14;

/// The scratch register a spilled value's result is computed in, and a stored spilled
/// value read into.
pub(super) const SPILL_SCRATCH: Register = Register::R15;

/// Vector registers 0..28 hold values; 28 is the scratch a spilled vector result is computed
/// in, and 29, 30 and 31 are scratch for operands.
pub(super) const VECS: usize = 28;

/// The vector register a spilled vector value's result is computed in ([`VECS`]).
pub(super) const VEC_SPILL_SCRATCH: usize = 28;

/// The 8-byte stack slots a spilled value takes: one for a general value, eight (one `zmm`)
/// for a vector.
fn slot_words(class: Class) -> u32 {
    if class == Class::Vec {
        8
    } else {
        1
    }
}

/// Mask registers k1..k6 hold values; k7 is scratch (k0 cannot mask an instruction).
pub(super) const MASKS: [Register; 6] = [
    Register::K1,
    Register::K2,
    Register::K3,
    Register::K4,
    Register::K5,
    Register::K6,
];

/// The callee-saved general registers of the System V ABI that values may take.
pub(super) const CALLEE_SAVED: [Register; 6] = [
    Register::RBX,
    Register::RBP,
    Register::R12,
    Register::R13,
    Register::R14,
    Register::R15,
];

/// Where each value lives: a register of its class (a general register by its 64-bit name,
/// a vector register by its `zmm` name), or none (a value rematerialized at each use, or one
/// never used).
pub(super) struct Allocation {
    pub reg: SecondaryMap<Value, Option<Register>>,
    /// The first stack slot (numbered from 0, 8 bytes each) of each spilled value.
    pub slot: SecondaryMap<Value, Option<u32>>,
    /// How many slots there are.
    pub slots: u32,
}

/// Liveness and linear-scan allocation of `f`'s values that `plan` says need a register.
pub(super) fn allocate(f: &Function, plan: &Plan<'_>) -> Result<Allocation, String> {
    let blocks = f.layout.blocks();
    let nvalues = f.dfg.values.len();
    let words = nvalues.div_ceil(64);
    // Positions of each block's first and last instruction.
    let mut first = SecondaryMap::new();
    let mut last = SecondaryMap::new();
    let mut pos = 0u32;
    for &b in blocks {
        first[b] = pos;
        pos += f.layout.block_insts(b).len() as u32;
        last[b] = pos.saturating_sub(1);
    }
    let needs = |v: Value| plan.needs_register(v);
    // Upward-exposed uses and definitions of each block, as bit sets.
    let index: SecondaryMap<Block, usize> = {
        let mut m = SecondaryMap::new();
        for (i, &b) in blocks.iter().enumerate() {
            m[b] = i;
        }
        m
    };
    let mut uses = vec![vec![0u64; words]; blocks.len()];
    let mut defs = vec![vec![0u64; words]; blocks.len()];
    let set = |s: &mut [u64], v: Value| s[v.index() / 64] |= 1 << (v.index() % 64);
    let has = |s: &[u64], v: Value| s[v.index() / 64] >> (v.index() % 64) & 1 == 1;
    for (bi, &b) in blocks.iter().enumerate() {
        for &p in f.dfg.block_params(b) {
            set(&mut defs[bi], p);
        }
        for &inst in f.layout.block_insts(b) {
            for &a in plan.reads(inst) {
                if needs(a) && !has(&defs[bi], a) {
                    set(&mut uses[bi], a);
                }
            }
            if let Some(r) = f.dfg.inst_result(inst) {
                set(&mut defs[bi], r);
            }
        }
    }
    // live_in(B) = uses(B) | (live_out(B) - defs(B)); live_out(B) = union of live_in(S).
    let succs: Vec<Vec<usize>> = blocks
        .iter()
        .map(|&b| {
            let t = f.layout.last_inst(b).expect("a terminator");
            f.dfg.insts[t]
                .op
                .dests()
                .iter()
                .map(|d| index[d.block])
                .collect()
        })
        .collect();
    let mut live_in = uses.clone();
    let mut live_out = vec![vec![0u64; words]; blocks.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for bi in (0..blocks.len()).rev() {
            let mut out = vec![0u64; words];
            for &s in &succs[bi] {
                for (o, i) in out.iter_mut().zip(&live_in[s]) {
                    *o |= i;
                }
            }
            let mut inn = uses[bi].clone();
            for w in 0..words {
                inn[w] |= out[w] & !defs[bi][w];
            }
            if inn != live_in[bi] {
                live_in[bi] = inn;
                changed = true;
            }
            live_out[bi] = out;
        }
    }
    // One interval per value.
    let mut start: SecondaryMap<Value, u32> = SecondaryMap::with_default(u32::MAX);
    let mut end: SecondaryMap<Value, u32> = SecondaryMap::new();
    let mut touch = |v: Value, p: u32| {
        if p < start[v] {
            start[v] = p;
        }
        if p > end[v] {
            end[v] = p;
        }
    };
    // For each value passed to a block parameter, the first such parameter and the position
    // of the edge's moves; the edges into each block; each parameter's first write.
    let mut hint: SecondaryMap<Value, Option<(Value, u32)>> = SecondaryMap::new();
    let mut edges_into: SecondaryMap<Block, u32> = SecondaryMap::new();
    let mut first_write: SecondaryMap<Value, u32> = SecondaryMap::with_default(u32::MAX);
    let mut at = 0u32;
    for (bi, &b) in blocks.iter().enumerate() {
        let (lo, hi) = (2 * first[b], 2 * last[b] + 1);
        // Only the set bits, lowest first.
        for (set, at) in [(&live_in[bi], lo), (&live_out[bi], hi)] {
            for (w, &word) in set.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    touch(Value::new(w * 64 + bits.trailing_zeros() as usize), at);
                    bits &= bits - 1;
                }
            }
        }
        for &inst in f.layout.block_insts(b) {
            for &a in plan.reads(inst) {
                if needs(a) {
                    touch(a, 2 * at);
                }
            }
            for d in f.dfg.insts[inst].op.dests() {
                edges_into[d.block] += 1;
                for (&p, &a) in f.dfg.block_params(d.block).iter().zip(&d.args) {
                    let a = f.dfg.resolve(a);
                    first_write[p] = first_write[p].min(2 * at + 1);
                    if hint[a].is_none() {
                        hint[a] = Some((p, 2 * at + 1));
                    }
                }
            }
            if let Some(r) = f.dfg.inst_result(inst) {
                if needs(r) {
                    touch(r, 2 * at + 1);
                }
            }
            for d in f.dfg.insts[inst].op.dests() {
                for &p in f.dfg.block_params(d.block) {
                    if needs(p) {
                        touch(p, 2 * at + 1);
                    }
                }
            }
            at += 1;
        }
        if bi == 0 {
            for &p in f.dfg.block_params(b) {
                if needs(p) {
                    touch(p, 0);
                }
            }
        }
    }
    let mut order: Vec<Value> = (0..nvalues)
        .map(Value::new)
        .filter(|&v| needs(v) && start[v] != u32::MAX)
        .collect();
    order.sort_by_key(|&v| (start[v], v.index()));
    let mut reg: SecondaryMap<Value, Option<Register>> = SecondaryMap::new();
    let mut slot: SecondaryMap<Value, Option<u32>> = SecondaryMap::new();
    let mut slots = 0u32;
    let mut active: Vec<Value> = Vec::new();
    // Values in a register another active value reserves (a loop parameter's).
    let mut sharing: SecondaryMap<Value, bool> = SecondaryMap::new();
    let pinned = |r: &Register| plan.local_regs() && [LOCAL_BASE, LOCAL_MASK].contains(r);
    let mut free_gpr: Vec<Register> = GPRS.iter().rev().copied().filter(|r| !pinned(r)).collect();
    let mut free_vec: Vec<usize> = (0..plan.isa.vecs()).rev().collect();
    // AVX2 has no mask registers: a function with a mask value is refused.
    let masks: &[Register] = match plan.isa {
        Isa::Avx512 => &MASKS,
        Isa::Avx2 => &[],
    };
    let mut free_mask: Vec<Register> = masks.iter().rev().copied().collect();
    for v in order {
        let s = start[v];
        active.retain(|&a| {
            if end[a] >= s {
                return true;
            }
            if sharing[a] {
                return false;
            }
            match reg[a] {
                Some(r) if r.is_zmm() => free_vec.push(super::regs::number(r)),
                Some(r) if r.is_k() => free_mask.push(r),
                Some(r) => free_gpr.push(r),
                None => {}
            }
            false
        });
        let class = plan.class(v);
        // A value passed on a loop's back edge to a parameter dead where the value is
        // defined (read for the last time before it along every path to the edge) shares the
        // parameter's register, which the edge then moves nothing into. The parameter keeps
        // the register reserved (its reads after the loop, its interval's end), the value
        // frees nothing when it ends, which must be within the parameter's interval; the
        // parameter's other edge, from before the loop, must come before the value.
        if let Some((p, edge)) = hint[v] {
            let header = match f.dfg.value_def(p) {
                ValueDef::Param(h, _) => Some(h),
                _ => None,
            };
            let dead = || match f.dfg.value_def(v) {
                ValueDef::Result(i) => {
                    let b = f.layout.inst_block(i).expect("placed");
                    let insts = f.layout.block_insts(b);
                    let from = insts.iter().position(|&x| x == i).expect("in its block");
                    !has(&live_out[index[b]], p)
                        && insts[from + 1..]
                            .iter()
                            .all(|&x| !plan.reads(x).contains(&p))
                }
                _ => false,
            };
            let shares = header.is_some_and(|h| edges_into[h] == 2)
                && plan.class[p] == Some(class)
                && slot[p].is_none()
                && active.contains(&p)
                && first_write[p] < s
                && end[v] <= end[p]
                && end[v] <= edge
                && dead();
            if let (true, Some(r)) = (shares, reg[p]) {
                reg[v] = Some(r);
                sharing[v] = true;
                active.push(v);
                continue;
            }
        }
        let r = match class {
            Class::Gpr => free_gpr.pop(),
            Class::Vec => free_vec.pop().map(zmm),
            Class::Mask => free_mask.pop(),
        };
        if r.is_none() {
            // Spill the value of this class read least often for the length of its interval
            // (this one or an active one), of those the one whose interval ends last: a
            // value read once after a long wait, not a base pointer read on every trip.
            let victim = active
                .iter()
                .copied()
                .chain(std::iter::once(v))
                .filter(|&a| plan.class(a) == class)
                // (Not a register two values share.)
                .filter(|&a| !sharing[a] && !active.iter().any(|&o| sharing[o] && reg[o] == reg[a]))
                .min_by(|&a, &b| {
                    let weight =
                        |x: Value| f64::from(plan.uses(x)) / f64::from(end[x] - start[x] + 1);
                    weight(a)
                        .total_cmp(&weight(b))
                        .then(end[b].cmp(&end[a]))
                        .then(b.index().cmp(&a.index()))
                });
            if let Some(victim) = victim {
                slot[victim] = Some(slots);
                slots += slot_words(class);
                if victim != v {
                    reg[v] = reg[victim].take();
                    active.retain(|&a| a != victim);
                    active.push(v);
                }
                continue;
            }
        }
        let Some(r) = r else {
            return Err(format!(
                "more {} values live at once than registers ({})",
                class.name(),
                describe(f, v)
            ));
        };
        reg[v] = Some(r);
        active.push(v);
    }
    Ok(Allocation { reg, slot, slots })
}

/// `zmm` register number `n`.
pub(super) fn zmm(n: usize) -> Register {
    super::regs::ZMM[n]
}

fn describe(f: &Function, v: Value) -> String {
    match f.dfg.value_def(v) {
        ValueDef::Param(b, _) => format!("at {v}, parameter of {b}"),
        _ => format!("at {v}"),
    }
}
