//! If-conversion: a small branch whose sides only compute values becomes straight-line code
//! with `select`s, so that SIMD code across work-items and GPU warps do not diverge there.
//!
//! A block ending in `brif c, T, F` qualifies when each side (`T` and `F`, or one of them
//! with the other going straight to the join) is reached only from that branch, has no
//! parameters, ends in `jump J(...)` to the same join `J`, and otherwise holds at most
//! `MAX_SPECULATED` pure instructions that are safe to run when their side is not taken
//! (no loads, no integer division). Their instructions move into the branching block and the
//! join's arguments are chosen by `select c, ...`. This is the two-entry-phi folding of
//! compilers' CFG simplifiers, on block parameters.

use crate::analysis::Cfg;
use crate::entity::{Block, Inst, Value};
use crate::function::Function;
use crate::inst::{BinaryOp, Dest, InstData, Op};
use crate::module::Module;

/// The most instructions each side may hold (terminator excluded).
pub const MAX_SPECULATED: usize = 8;

/// If-converts every function.
pub fn run(m: &mut Module) {
    for (_, f) in m.funcs.iter_mut() {
        if !f.is_declaration() {
            if_convert(f);
        }
    }
}

fn speculatable(op: &Op) -> bool {
    op.is_pure()
        && !matches!(
            op,
            Op::Binary(BinaryOp::Sdiv | BinaryOp::Udiv | BinaryOp::Srem | BinaryOp::Urem)
        )
}

/// A side of the branch: the block (or `None` when the edge goes straight to the join),
/// and the arguments it passes to the join.
struct Side {
    block: Option<Block>,
    join: Block,
    args: Vec<Value>,
}

fn side(f: &Function, cfg: &Cfg, from: Block, d: &Dest) -> Side {
    let b = d.block;
    let only_from_here = matches!(cfg.preds(b), [(p, _)] if *p == from);
    let insts = f.layout.block_insts(b);
    if only_from_here && d.args.is_empty() && f.dfg.block_params(b).is_empty() {
        if let Some((last, body)) = insts.split_last() {
            if let Op::Jump(j) = &f.dfg.insts[*last].op {
                if body.len() <= MAX_SPECULATED
                    && body.iter().all(|&i| speculatable(&f.dfg.insts[i].op))
                    && j.block != b
                    && j.block != from
                {
                    return Side {
                        block: Some(b),
                        join: j.block,
                        args: j.args.clone(),
                    };
                }
            }
        }
    }
    Side {
        block: None,
        join: b,
        args: d.args.clone(),
    }
}

/// If-converts the qualifying branches of `f`; returns whether any was.
pub fn if_convert(f: &mut Function) -> bool {
    let mut changed = false;
    // One pass converts every branch it can; a conversion only redirects edges into its
    // join, so the predecessor counts of blocks not yet visited can only be stale upward,
    // which makes the pass skip a branch, never convert a wrong one. Passes repeat for
    // branches that became convertible (nested diamonds).
    for _ in 0..10_000 {
        let cfg = Cfg::new(f);
        let mut done = false;
        let mut gone = Vec::new();
        for a in f.layout.blocks().to_vec() {
            let Some(t) = f.terminator(a) else { continue };
            let Op::Brif(d) = &f.dfg.insts[t].op else {
                continue;
            };
            let (d0, d1) = (d.0.clone(), d.1.clone());
            if d0.block == d1.block
                || !f.layout.is_block_placed(d0.block)
                || !f.layout.is_block_placed(d1.block)
            {
                continue;
            }
            let (s0, s1) = (side(f, &cfg, a, &d0), side(f, &cfg, a, &d1));
            if s0.join != s1.join || (s0.block.is_none() && s1.block.is_none()) {
                continue;
            }
            gone.extend([s0.block, s1.block].into_iter().flatten());
            convert(f, t, s0, s1);
            done = true;
        }
        // The sides are empty now; take them out of the layout in one sweep.
        f.layout.remove_blocks(&gone);
        if !done {
            break;
        }
        changed = true;
    }
    changed
}

fn convert(f: &mut Function, t: Inst, s0: Side, s1: Side) {
    let c = f.dfg.insts[t].args[0];
    // Move both sides' computations before the branch.
    for side in [&s0, &s1] {
        if let Some(b) = side.block {
            let insts = f.layout.block_insts(b).to_vec();
            let (last, body) = insts.split_last().expect("side ends in a jump");
            for &i in body {
                f.layout.remove_inst(i);
                f.layout.insert_inst_before(i, t);
            }
            f.layout.remove_inst(*last);
        }
    }
    let mut args = Vec::with_capacity(s0.args.len());
    for (&x, &y) in s0.args.iter().zip(&s1.args) {
        if x == y {
            args.push(x);
        } else {
            let ty = f.dfg.value_type(x);
            let sel = f.insert_inst_before(t, InstData::new(Op::Select, &[c, x, y]), Some(ty));
            args.push(f.dfg.inst_result(sel).expect("select has a result"));
        }
    }
    f.dfg.insts[t] = InstData::new(
        Op::Jump(Dest {
            block: s0.join,
            args,
        }),
        &[],
    );
}
