//! Full unrolling of small counted loops.
//!
//! A loop qualifies when it has one back edge, leaves only from its header, and the header
//! decides with `icmp <cc> i, C` (or `C, i`) on a header parameter `i` that starts at a
//! constant and steps by an integer operation with a constant (`iadd i, S`, `imul i, S`,
//! `shl i, S`, `lshr i, S`... passed on the back edge: `for (s = 1; s < 256; s *= 4)`,
//! `for (s = 32; s > 0; s >>= 1)`). The trip count is
//! found by running the induction variable with the comparison's exact semantics (wrapping
//! at its width); loops of at most `MAX_TRIPS` iterations and `MAX_INSTS` copied
//! instructions are replaced by that many copies of their body, each copy's back edge
//! jumping to the next copy's header and the last header copy leaving the loop. Values of
//! the header used after the loop are renamed to the last copy's. Clean-up (folding the
//! induction variable, merging the straight-line blocks) is left to `fold` and
//! `simplify_cfg`.

use std::collections::{HashMap, HashSet};

use crate::analysis::{Cfg, DomTree, LoopInfo};
use crate::dfg::ValueDef;
use crate::entity::{Block, Inst, Value};
use crate::eval::sext;
use crate::function::Function;
use crate::inst::{BinaryOp, Dest, InstData, IntCC, Op};
use crate::module::Module;

/// The most iterations a loop may run to be unrolled.
pub const MAX_TRIPS: u64 = 16;
/// The most instructions the unrolled copies may hold together.
pub const MAX_INSTS: usize = 2000;

/// Unrolls the qualifying loops of every function.
pub fn run(m: &mut Module) {
    for (_, f) in m.funcs.iter_mut() {
        if !f.is_declaration() {
            unroll(f);
        }
    }
}

/// Unrolls qualifying loops of `f`, innermost first; returns whether any was.
pub fn unroll(f: &mut Function) -> bool {
    let mut changed = false;
    // Each unrolling changes the CFG; start over until nothing qualifies.
    for _ in 0..256 {
        let cfg = Cfg::new(f);
        let dom = DomTree::new(f, &cfg);
        let loops = LoopInfo::new(&cfg, &dom);
        let done = loops
            .loops
            .iter()
            .rev()
            .any(|l| try_unroll(f, &cfg, l.header, &l.blocks));
        if !done {
            break;
        }
        changed = true;
    }
    changed
}

struct Counted {
    latch_inst: Inst,
    inside: Dest,
    outside: Dest,
    trips: u64,
}

fn int_const(f: &Function, v: Value) -> Option<u64> {
    f.dfg.iconst_value(v)
}

/// The constant `v` always holds on entering a loop: a constant, or a parameter of a block
/// before the loop that every edge into it gives the same such constant (an earlier loop
/// unrolled in this pass leaves its exit's arguments so, folding having not run since).
fn entry_const(f: &Function, cfg: &Cfg, v: Value, depth: u32) -> Option<u64> {
    if let Some(c) = int_const(f, v) {
        return Some(c);
    }
    let ValueDef::Param(b, k) = f.dfg.value_def(v) else {
        return None;
    };
    if depth == 0 || cfg.preds(b).is_empty() {
        return None;
    }
    let mut found = None;
    for &(_, t) in cfg.preds(b) {
        for d in f.dfg.insts[t].op.dests() {
            if d.block == b {
                let a = d.args[k as usize];
                // A parameter passed back to itself (around a loop) adds no value.
                if a == v {
                    continue;
                }
                let c = entry_const(f, cfg, a, depth - 1)?;
                if found.is_some_and(|x| x != c) {
                    return None;
                }
                found = Some(c);
            }
        }
    }
    found
}

fn analyze(f: &Function, cfg: &Cfg, h: Block, blocks: &[Block]) -> Option<Counted> {
    let in_loop: HashSet<Block> = blocks.iter().copied().collect();
    let latch_inst = cfg.single_back_edge(h, &in_loop)?;
    let Op::Jump(back_dest) = &f.dfg.insts[latch_inst].op else {
        return None;
    };
    // Only the header leaves the loop.
    for &b in blocks {
        let t = f.terminator(b)?;
        let leaves = f.dfg.insts[t]
            .op
            .dests()
            .iter()
            .any(|d| !in_loop.contains(&d.block));
        if leaves && b != h {
            return None;
        }
    }
    let t = f.terminator(h)?;
    let Op::Brif(d) = &f.dfg.insts[t].op else {
        return None;
    };
    let (then_in, else_in) = (in_loop.contains(&d.0.block), in_loop.contains(&d.1.block));
    if then_in == else_in {
        return None;
    }
    let (inside, outside) = if then_in {
        (d.0.clone(), d.1.clone())
    } else {
        (d.1.clone(), d.0.clone())
    };
    let cond = f.dfg.insts[t].args[0];
    let ValueDef::Result(ci) = f.dfg.value_def(cond) else {
        return None;
    };
    let Op::Icmp(cc) = f.dfg.insts[ci].op else {
        return None;
    };
    let (x, y) = (f.dfg.insts[ci].args[0], f.dfg.insts[ci].args[1]);
    // The induction variable: a header parameter compared with a constant.
    let (iv, limit, cc) = match (
        f.dfg.value_def(x),
        int_const(f, y),
        f.dfg.value_def(y),
        int_const(f, x),
    ) {
        (ValueDef::Param(b, _), Some(l), _, _) if b == h => (x, l, cc),
        (_, _, ValueDef::Param(b, _), Some(l)) if b == h => (y, l, cc.swapped()),
        _ => return None,
    };
    let ValueDef::Param(_, k) = f.dfg.value_def(iv) else {
        return None;
    };
    let k = k as usize;
    // Its start: the same constant on every edge from outside the loop.
    let mut start = None;
    for &(p, pi) in cfg.preds(h) {
        if in_loop.contains(&p) {
            continue;
        }
        for dd in f.dfg.insts[pi].op.dests() {
            if dd.block == h {
                let c = entry_const(f, cfg, dd.args[k], 4)?;
                if start.is_some_and(|s| s != c) {
                    return None;
                }
                start = Some(c);
            }
        }
    }
    let start = start?;
    // Its step: an integer operation of `iv` and a constant on the back edge (`i + S`,
    // `i * S`, `i << S`, `i >> S`...), `S op iv` where `op` commutes.
    let next = back_dest.args[k];
    let ValueDef::Result(ni) = f.dfg.value_def(next) else {
        return None;
    };
    let (op, step) = match (&f.dfg.insts[ni].op, &f.dfg.insts[ni].args[..]) {
        (&Op::Binary(op), [a, b]) if *a == iv && !op.is_float() => (op, int_const(f, *b)?),
        (&Op::Binary(op @ (BinaryOp::Iadd | BinaryOp::Imul)), [a, b]) if *b == iv => {
            (op, int_const(f, *a)?)
        }
        _ => return None,
    };
    let ty = f.dfg.value_type(iv);
    if ty.is_vector() || !ty.is_int() {
        return None;
    }
    let w = ty.lane_bits();
    let mask = crate::eval::mask(w);
    let holds = |i: u64| {
        let (si, sl) = (sext(i, w), sext(limit, w));
        match cc {
            IntCC::Eq => i == limit,
            IntCC::Ne => i != limit,
            IntCC::Slt => si < sl,
            IntCC::Sle => si <= sl,
            IntCC::Sgt => si > sl,
            IntCC::Sge => si >= sl,
            IntCC::Ult => i < limit,
            IntCC::Ule => i <= limit,
            IntCC::Ugt => i > limit,
            IntCC::Uge => i >= limit,
        }
    };
    let mut i = start & mask;
    let mut trips = 0;
    while holds(i) == then_in {
        trips += 1;
        if trips > MAX_TRIPS {
            return None;
        }
        // A step whose result the specification leaves undefined (a division by zero)
        // is left to the device.
        i = crate::eval::binary(op, i, step, ty).defined()?;
    }
    Some(Counted {
        latch_inst,
        inside,
        outside,
        trips,
    })
}

fn try_unroll(f: &mut Function, cfg: &Cfg, h: Block, blocks: &[Block]) -> bool {
    let Some(c) = analyze(f, cfg, h, blocks) else {
        return false;
    };
    let size: usize = blocks.iter().map(|&b| f.layout.block_insts(b).len()).sum();
    if size * (c.trips as usize + 1) > MAX_INSTS {
        return false;
    }
    // Layout order of the loop's blocks, so copies read like the original.
    let order = layout_order(f, |b| blocks.contains(&b));
    let header_term = f.terminator(h).expect("header ends in brif");
    // copies[0] is the original loop; copies[j] maps original blocks and values to copy j.
    let mut copies: Vec<(HashMap<Block, Block>, HashMap<Value, Value>)> =
        vec![(order.iter().map(|&b| (b, b)).collect(), HashMap::new())];
    let mut anchor = *order.last().expect("loop has blocks");
    for _ in 1..=c.trips {
        let (bmap, vmap) = copy_blocks(f, &order, anchor);
        anchor = bmap[order.last().expect("loop has blocks")];
        copies.push((bmap, vmap));
    }
    let map_val = |vmap: &HashMap<Value, Value>, v: Value| vmap.get(&v).copied().unwrap_or(v);
    for j in 0..=c.trips as usize {
        let (bmap, vmap) = &copies[j];
        let term = if j == 0 {
            header_term
        } else {
            f.terminator(bmap[&h]).expect("copied header")
        };
        let dest = if j == c.trips as usize {
            &c.outside
        } else {
            &c.inside
        };
        let d = Dest {
            block: if j == c.trips as usize {
                dest.block
            } else {
                bmap[&dest.block]
            },
            args: dest.args.iter().map(|&a| map_val(vmap, a)).collect(),
        };
        f.dfg.insts[term] = InstData::new(Op::Jump(d), &[]);
        if j < c.trips as usize {
            let latch = if j == 0 {
                c.latch_inst
            } else {
                let lb = f.layout.inst_block(c.latch_inst).expect("latch placed");
                f.terminator(bmap[&lb]).expect("copied latch")
            };
            let next_header = copies[j + 1].0[&h];
            if let Op::Jump(jd) = &mut f.dfg.insts[latch].op {
                jd.block = next_header;
            }
        }
    }
    // Uses after the loop of values from the header now read the last copy's.
    let (_, last) = &copies[c.trips as usize];
    if !last.is_empty() {
        let all_copies: HashSet<Block> = copies
            .iter()
            .flat_map(|(bm, _)| bm.values().copied())
            .collect();
        for b in f.layout.blocks().to_vec() {
            if all_copies.contains(&b) {
                continue;
            }
            for i in f.layout.block_insts(b).to_vec() {
                f.dfg.insts[i].map_args(|v| last.get(&v).copied().unwrap_or(v));
            }
        }
    }
    true
}

/// The blocks of `f` that `keep` holds for, in layout order.
pub(crate) fn layout_order(f: &Function, keep: impl Fn(Block) -> bool) -> Vec<Block> {
    f.layout
        .blocks()
        .iter()
        .copied()
        .filter(|&b| keep(b))
        .collect()
}

/// Copies `order` (the loop's blocks) after `anchor`; returns the block and value maps.
pub(crate) fn copy_blocks(
    f: &mut Function,
    order: &[Block],
    anchor: Block,
) -> (HashMap<Block, Block>, HashMap<Value, Value>) {
    let mut bmap = HashMap::new();
    let mut vmap = HashMap::new();
    let mut after = anchor;
    for &b in order {
        let nb = f.dfg.make_block();
        f.layout.insert_block_after(nb, after);
        after = nb;
        bmap.insert(b, nb);
        for p in f.dfg.block_params(b).to_vec() {
            let ty = f.dfg.value_type(p);
            let np = f.dfg.append_block_param(nb, ty);
            vmap.insert(p, np);
        }
    }
    let mut new_insts = Vec::new();
    for &b in order {
        for i in f.layout.block_insts(b).to_vec() {
            let data = f.dfg.insts[i].clone();
            let ty = f.dfg.inst_result(i).map(|r| f.dfg.value_type(r));
            let ni = f.dfg.make_inst(data, ty);
            f.layout.append_inst(ni, bmap[&b]);
            if let (Some(r), Some(nr)) = (f.dfg.inst_result(i), f.dfg.inst_result(ni)) {
                vmap.insert(r, nr);
            }
            new_insts.push(ni);
        }
    }
    for ni in new_insts {
        let data = &mut f.dfg.insts[ni];
        data.map_args(|v| vmap.get(&v).copied().unwrap_or(v));
        for d in data.op.dests_mut() {
            if let Some(&nb) = bmap.get(&d.block) {
                d.block = nb;
            }
        }
    }
    (bmap, vmap)
}
