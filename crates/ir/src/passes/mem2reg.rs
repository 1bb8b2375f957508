//! Promotion of private stack slots to SSA values (mem2reg), with scalar replacement: a slot
//! whose address is only used by loads and stores, directly or at constant byte offsets,
//! becomes one SSA variable per accessed offset.
//!
//! Volatile accesses are promoted too. A stack slot is private memory, "a memory segment that
//! can only be accessed by one work item" (OpenCL C 3.0, 6.7.4), and one whose address never
//! escapes is reached by nothing but these loads and stores, so no agent exists that could
//! see them happen. Real code declares such variables volatile to steer a GPU compiler's
//! register allocation (CLBlast's GEMM: `volatile int tid = get_local_id(0) + ...`, "volatile
//! to disable caching"); kept in memory, that variable made its work-group function run one
//! work-item at a time.
//!
//! A slot qualifies when its address never escapes (passed to a call, stored, compared,
//! converted to an integer or offset by a non-constant; offsets by constants and casts to
//! the generic space are followed), every access at one offset has one type, and the accessed
//! ranges of different offsets do not overlap. The SSA form is built with the same
//! construction as the builder (Braun et al., CC 2013), over the existing CFG: blocks are
//! visited in reverse postorder and sealed once all their predecessors are visited.

use std::collections::{HashMap, HashSet};

use crate::analysis::{Cfg, DomTree};
use crate::builder::FunctionBuilder;
use crate::entity::{Block, Inst, PrimaryMap, StackSlot, Value, Variable};
use crate::function::Function;
use crate::inst::Op;
use crate::module::Module;
use crate::types::Type;

/// Promotes the stack slots of every function.
pub fn run(m: &mut Module) {
    for (_, f) in m.funcs.iter_mut() {
        if !f.is_declaration() {
            promote(f);
        }
    }
}

#[derive(Clone, Copy)]
struct Access {
    inst: Inst,
    offset: i64,
    ty: Type,
    store: bool,
}

/// Promotes the qualifying slots of `f`; returns whether any was.
pub fn promote(f: &mut Function) -> bool {
    // Every use of every value, as (user, is a plain operand at this index).
    let mut uses: HashMap<Value, Vec<(Inst, Option<usize>)>> = HashMap::new();
    let mut slot_addrs: HashMap<StackSlot, Vec<Inst>> = HashMap::new();
    for &b in f.layout.blocks() {
        for &i in f.layout.block_insts(b) {
            let data = &f.dfg.insts[i];
            for (k, &a) in data.args.iter().enumerate() {
                uses.entry(a).or_default().push((i, Some(k)));
            }
            for d in data.op.dests() {
                for &a in &d.args {
                    uses.entry(a).or_default().push((i, None));
                }
            }
            if let Op::SlotAddr(ss) = data.op {
                slot_addrs.entry(ss).or_default().push(i);
            }
        }
    }
    let mut promoted: Vec<(StackSlot, Vec<Access>, Vec<Inst>)> = Vec::new();
    let mut slots: Vec<StackSlot> = slot_addrs.keys().copied().collect();
    slots.sort();
    for ss in slots {
        let mut accesses = Vec::new();
        let mut addr_insts = Vec::new();
        // Addresses derived from the slot, with their byte offsets: the slot's own address,
        // `ptradd` by constants, and casts to the generic space.
        let mut work: Vec<(Inst, i64)> = slot_addrs[&ss].iter().map(|&ai| (ai, 0)).collect();
        let mut ok = true;
        while let Some((ai, off)) = work.pop() {
            addr_insts.push(ai);
            let Some(a) = f.dfg.inst_result(ai) else {
                ok = false;
                break;
            };
            for &(user, pos) in uses.get(&a).map_or(&[][..], Vec::as_slice) {
                if let Some(acc) = access(f, user, pos, a, off) {
                    accesses.push(acc);
                    continue;
                }
                let data = &f.dfg.insts[user];
                match data.op {
                    Op::PtrAdd if pos == Some(0) => match f.dfg.iconst_value(data.args[1]) {
                        Some(c) => {
                            let bits = f.dfg.value_type(data.args[1]).lane_bits();
                            let c = ((c << (64 - bits)) as i64) >> (64 - bits);
                            work.push((user, off.wrapping_add(c)));
                        }
                        None => ok = false,
                    },
                    Op::AddrCast => work.push((user, off)),
                    _ => ok = false,
                }
            }
            if !ok {
                break;
            }
        }
        if ok && layout_is_promotable(&accesses, f.slots[ss].size) {
            promoted.push((ss, accesses, addr_insts));
        }
    }
    // Slots whose address is never taken (a variable declared and never used) go too.
    let unused: Vec<StackSlot> = f
        .slots
        .keys()
        .filter(|ss| !slot_addrs.contains_key(ss))
        .collect();
    if promoted.is_empty() {
        if unused.is_empty() {
            return false;
        }
        compact_slots(f, &unused.into_iter().collect());
        return true;
    }
    let cfg = Cfg::new(f);
    let dom = DomTree::new(f, &cfg);
    let mut order: Vec<Block> = dom.rpo().to_vec();
    for &b in f.layout.blocks() {
        if !dom.is_reachable(b) {
            order.push(b);
        }
    }
    let mut b = FunctionBuilder::edit(f);
    let mut var_of: HashMap<Inst, (Variable, bool)> = HashMap::new();
    let mut dead: Vec<Inst> = Vec::new();
    for (_, accesses, addr_insts) in &promoted {
        let mut vars: HashMap<i64, Variable> = HashMap::new();
        for acc in accesses {
            let var = *vars
                .entry(acc.offset)
                .or_insert_with(|| b.declare_var(acc.ty));
            var_of.insert(acc.inst, (var, acc.store));
        }
        dead.extend(addr_insts);
    }
    let mut filled: HashSet<Block> = HashSet::new();
    for &blk in &order {
        if cfg.preds(blk).iter().all(|(p, _)| filled.contains(p)) {
            b.seal_block(blk);
        }
        b.switch_to_block(blk);
        let insts: Vec<Inst> = b.func.layout.block_insts(blk).to_vec();
        let mut replaced = false;
        for i in insts {
            let Some(&(var, store)) = var_of.get(&i) else {
                continue;
            };
            replaced = true;
            if store {
                let x = b.func.dfg.insts[i].args[0];
                b.def_var(var, x);
            } else {
                let v = b.use_var(var);
                let r = b.func.dfg.inst_result(i).expect("load has a result");
                b.func.dfg.change_to_alias(r, v);
            }
        }
        if replaced {
            // The accesses leave the layout in one sweep (nothing below looks at them).
            b.func
                .layout
                .retain_insts(blk, |i| !var_of.contains_key(&i));
        }
        filled.insert(blk);
        for &s in cfg.succs(blk) {
            if cfg.preds(s).iter().all(|(p, _)| filled.contains(p)) {
                b.seal_block(s);
            }
        }
    }
    b.seal_all_blocks();
    b.finish();
    f.remove_insts(&dead);
    let gone: HashSet<StackSlot> = promoted
        .iter()
        .map(|(ss, _, _)| *ss)
        .chain(unused)
        .collect();
    compact_slots(f, &gone);
    true
}

/// The access `user` makes through address `a` (at byte offset `offset` from the slot), if
/// it is a load from or store to `a` itself (volatile or not: see the module's comment).
fn access(f: &Function, user: Inst, pos: Option<usize>, a: Value, offset: i64) -> Option<Access> {
    let data = &f.dfg.insts[user];
    match data.op {
        Op::Load(_) if pos == Some(0) => {
            let ty = f.dfg.value_type(f.dfg.inst_result(user)?);
            Some(Access {
                inst: user,
                offset,
                ty,
                store: false,
            })
        }
        Op::Store(_) if pos == Some(1) && data.args[0] != a => {
            let ty = f.dfg.value_type(data.args[0]);
            Some(Access {
                inst: user,
                offset,
                ty,
                store: true,
            })
        }
        _ => None,
    }
}

/// Whether the accesses can become independent variables: one type per offset, in bounds,
/// no overlap between offsets.
fn layout_is_promotable(accesses: &[Access], size: u32) -> bool {
    let mut by_offset: Vec<(i64, Type)> = Vec::new();
    for acc in accesses {
        match by_offset.iter().find(|(o, _)| *o == acc.offset) {
            Some((_, t)) if *t != acc.ty => return false,
            Some(_) => {}
            None => by_offset.push((acc.offset, acc.ty)),
        }
    }
    by_offset.sort_by_key(|&(o, _)| o);
    let mut end = 0i64;
    for &(o, t) in &by_offset {
        if o < end || o + i64::from(t.bytes()) > i64::from(size) {
            return false;
        }
        end = o + i64::from(t.bytes());
    }
    true
}

/// Drops the slots in `gone` and renumbers the rest in order.
pub(crate) fn compact_slots(f: &mut Function, gone: &HashSet<StackSlot>) {
    let mut map = HashMap::new();
    let mut slots = PrimaryMap::new();
    for (ss, d) in f.slots.iter() {
        if !gone.contains(&ss) {
            map.insert(ss, slots.push(*d));
        }
    }
    f.slots = slots;
    for (_, data) in f.dfg.insts.iter_mut() {
        if let Op::SlotAddr(ss) = &mut data.op {
            if let Some(&n) = map.get(ss) {
                *ss = n;
            }
        }
    }
}
