//! Loop-invariant code motion: pure instructions of a natural loop whose operands are all
//! defined outside it (or by instructions already hoisted) move to the loop's preheader,
//! created where the header has no single outside predecessor that jumps to it alone.
//!
//! Integer division and remainder stay where they are: hoisted out of a guarded path they
//! would run for divisors the program never divides by, and while OpenCL C gives them an
//! unspecified value rather than a trap (6.5.1), a backend is free to lower them to
//! trapping machine instructions guarded by the original control flow.
//! Loops are processed innermost first, so invariants move out of a whole nest.
//!
//! A plain (non-volatile) load in the loop's header from an invariant address moves too when
//! nothing in the loop writes memory or synchronizes (no store, atomic, fence, barrier,
//! collective or call): the header runs each time the loop is entered, before anything else
//! in it, so the load runs where it first ran, and no later trip could read anything else
//! (another work-item's write to it without synchronization would be a data race). The bound
//! of `for (k = rowptr[r]; k < rowptr[r + 1]; k++)` is then read once.

use std::collections::HashSet;

use crate::analysis::{Cfg, DomTree, LoopInfo};
use crate::entity::{Block, Inst, Value};
use crate::function::Function;
use crate::inst::{BinaryOp, Dest, InstData, Op};
use crate::module::Module;

/// Runs LICM on every function.
pub fn run(m: &mut Module) {
    for (_, f) in m.funcs.iter_mut() {
        if !f.is_declaration() {
            licm(f);
        }
    }
}

fn hoistable(op: &Op) -> bool {
    op.is_pure()
        && !matches!(
            op,
            Op::Binary(BinaryOp::Sdiv | BinaryOp::Udiv | BinaryOp::Srem | BinaryOp::Urem)
        )
}

/// The preheader of the loop headed by `h`; if it has none, one is created and `Err`
/// returned, as the CFG changed and the analyses must be recomputed.
fn preheader(f: &mut Function, cfg: &Cfg, h: Block, blocks: &[Block]) -> Result<Block, ()> {
    let outside: Vec<(Block, Inst)> = cfg
        .preds(h)
        .iter()
        .copied()
        .filter(|(p, _)| !blocks.contains(p))
        .collect();
    if let [(p, t)] = outside[..] {
        if matches!(f.dfg.insts[t].op, Op::Jump(_)) {
            return Ok(p);
        }
    }
    let ph = f.dfg.make_block();
    let mut params = Vec::new();
    for &p in f.dfg.block_params(h).to_vec().iter() {
        let ty = f.dfg.value_type(p);
        params.push(f.dfg.append_block_param(ph, ty));
    }
    let pos = f
        .layout
        .blocks()
        .iter()
        .position(|&b| b == h)
        .expect("header placed");
    let before = f.layout.blocks()[pos - 1];
    f.layout.insert_block_after(ph, before);
    f.append_inst(
        ph,
        InstData::new(Op::Jump(Dest::new(h, &params)), &[]),
        None,
    );
    for (_, t) in outside {
        for d in f.dfg.insts[t].op.dests_mut() {
            if d.block == h {
                d.block = ph;
            }
        }
    }
    Err(())
}

/// Hoists loop invariants in `f`; returns whether anything moved or a preheader was made.
pub fn licm(f: &mut Function) -> bool {
    let mut changed = false;
    // Make preheaders first; each creation changes the CFG.
    'again: for _ in 0..10_000 {
        let cfg = Cfg::new(f);
        let dom = DomTree::new(f, &cfg);
        let loops = LoopInfo::new(&cfg, &dom);
        for l in &loops.loops {
            if preheader(f, &cfg, l.header, &l.blocks).is_err() {
                changed = true;
                continue 'again;
            }
        }
        break;
    }
    let cfg = Cfg::new(f);
    let dom = DomTree::new(f, &cfg);
    let loops = LoopInfo::new(&cfg, &dom);
    for l in loops.loops.iter().rev() {
        let Ok(ph) = preheader(f, &cfg, l.header, &l.blocks) else {
            unreachable!("preheaders were made above")
        };
        let in_loop: HashSet<Block> = l.blocks.iter().copied().collect();
        let mut defined: HashSet<Value> = HashSet::new();
        for &b in &l.blocks {
            defined.extend(f.dfg.block_params(b).iter().copied());
            for &i in f.layout.block_insts(b) {
                defined.extend(f.dfg.inst_result(i));
            }
        }
        // Whether any instruction of the loop writes memory or synchronizes.
        let writes = l.blocks.iter().any(|&b| {
            f.layout.block_insts(b).iter().any(|&i| {
                let op = &f.dfg.insts[i].op;
                op.has_side_effects() && !op.is_terminator()
            })
        });
        let order: Vec<Block> = dom
            .rpo()
            .iter()
            .copied()
            .filter(|b| in_loop.contains(b))
            .collect();
        for b in order {
            for i in f.layout.block_insts(b).to_vec() {
                let data = &f.dfg.insts[i];
                let invariant_load = b == l.header
                    && !writes
                    && matches!(data.op, Op::Load(flags) if !flags.volatile);
                if !(hoistable(&data.op) || invariant_load)
                    || data.args.iter().any(|a| defined.contains(a))
                {
                    continue;
                }
                let Some(r) = f.dfg.inst_result(i) else {
                    continue;
                };
                let term = f.terminator(ph).expect("preheader ends in a jump");
                f.layout.remove_inst(i);
                f.layout.insert_inst_before(i, term);
                defined.remove(&r);
                changed = true;
            }
        }
    }
    changed
}
