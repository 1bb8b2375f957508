//! Uniformity (divergence) analysis: which values are equal for all work-items of a
//! work-group, and which branches all of them take the same way.
//!
//! The CPU device uses it to keep uniform values out of per-work-item storage and to check
//! that barriers sit under uniform control flow (6.15.8: a barrier "must be encountered by
//! all work-items in the work-group"); a GPU backend can use it to avoid divergence.
//!
//! The analysis is conservative: "uniform" is a guarantee, "divergent" only a possibility.
//! Sources of divergence are the per-work-item queries (`global_id`, `local_id`, the linear
//! and sub-group ids), loads from anything but constant memory, atomics, calls, and stack
//! slot addresses (private memory differs per work-item), and work-group scans. A value is
//! divergent when an operand is, except the result of a work-group reduce or broadcast. Control flow adds two rules, after the divergence analyses
//! of GPU compilers (Karrenberg and Hack, "Whole-Function Vectorization", CGO 2011): the
//! parameters of every block between a divergent branch and its immediate post-dominator
//! (that one included) are divergent, since work-items may arrive there along different
//! paths; and the values defined in a loop that work-items leave at different iterations
//! are divergent, since after the loop each holds its own last iteration's.
//!
//! Parameters of kernels are uniform; the analysis is meant for kernels after inlining, and
//! treats the parameters of other functions as divergent.

use crate::analysis::{Cfg, DomTree, LoopInfo};
use crate::entity::{Block, SecondaryMap, Value};
use crate::function::Function;
use crate::inst::{GroupOp, Op, Scope, WorkItemOp};
use crate::types::AddrSpace;

/// The uniformity of a function's values and branches.
pub struct Uniformity {
    divergent: SecondaryMap<Value, bool>,
    divergent_branch: SecondaryMap<Block, bool>,
}

impl Uniformity {
    /// Whether `v` is equal for all work-items of a work-group at each of its definitions.
    pub fn is_uniform(&self, v: Value) -> bool {
        !self.divergent[v]
    }

    /// Whether all work-items of a work-group that reach the end of `block` branch the same
    /// way (blocks ending in `jump`, `return` or `unreachable` always do).
    pub fn is_uniform_branch(&self, block: Block) -> bool {
        !self.divergent_branch[block]
    }

    /// Marks `v` divergent; whether it was not yet.
    fn mark(&mut self, v: Value) -> bool {
        !std::mem::replace(&mut self.divergent[v], true)
    }

    /// Analyzes `func`.
    pub fn new(func: &Function) -> Uniformity {
        let cfg = Cfg::new(func);
        let dom = DomTree::new(func, &cfg);
        let loops = LoopInfo::new(&cfg, &dom);
        let ipdom = post_dominators(func, &cfg);
        let mut u = Uniformity {
            divergent: SecondaryMap::new(),
            divergent_branch: SecondaryMap::new(),
        };
        let blocks: Vec<Block> = func.layout.blocks().to_vec();
        if let Some(entry) = func.layout.entry_block() {
            if !func.is_kernel() {
                for &p in func.dfg.block_params(entry) {
                    u.divergent[p] = true;
                }
            }
        }
        let mut sync: SecondaryMap<Block, bool> = SecondaryMap::new();
        // The divergent set only grows, so this reaches a fixed point.
        loop {
            let mut changed = false;
            // Block parameters: divergent arguments, or a join of divergent paths.
            for &b in &blocks {
                for (k, &p) in func.dfg.block_params(b).iter().enumerate() {
                    if sync[b] {
                        changed |= u.mark(p);
                        continue;
                    }
                    let incoming_divergent = cfg.preds(b).iter().any(|&(_, t)| {
                        func.dfg.insts[t]
                            .op
                            .dests()
                            .iter()
                            .any(|d| d.block == b && u.divergent[d.args[k]])
                    });
                    if incoming_divergent {
                        changed |= u.mark(p);
                    }
                }
                for &i in func.layout.block_insts(b) {
                    let data = &func.dfg.insts[i];
                    let Some(r) = func.dfg.inst_result(i) else {
                        continue;
                    };
                    let source = match &data.op {
                        Op::WorkItem(w, _) => matches!(
                            w,
                            WorkItemOp::GlobalId
                                | WorkItemOp::LocalId
                                | WorkItemOp::GlobalLinearId
                                | WorkItemOp::LocalLinearId
                                | WorkItemOp::SubGroupId
                                | WorkItemOp::SubGroupLocalId
                                // The last sub-group of a work-group may be smaller.
                                | WorkItemOp::SubGroupSize
                        ),
                        Op::Load(fl) => fl.space != AddrSpace::Constant || fl.volatile,
                        Op::AtomicRmw(..)
                        | Op::Cmpxchg(..)
                        | Op::AtomicLoad(_)
                        | Op::Call(_)
                        | Op::SlotAddr(_) => true,
                        // A scan's result differs per work-item whatever its operand, and
                        // a sub-group's by sub-group.
                        Op::Group(g, sc) => {
                            *sc != Scope::WorkGroup
                                || !matches!(g, GroupOp::Broadcast | GroupOp::Reduce(_))
                        }
                        _ => false,
                    };
                    // A reduce or broadcast gives every work-item the same value whatever
                    // the operands (6.15.16: a broadcast's id "is not equivalent for all
                    // work-items" only in undefined behaviour).
                    let whole_group = matches!(
                        data.op,
                        Op::Group(GroupOp::Broadcast | GroupOp::Reduce(_), Scope::WorkGroup)
                    );
                    if source || !whole_group && data.args.iter().any(|&a| u.divergent[a]) {
                        changed |= u.mark(r);
                    }
                }
            }
            // Branches, and what divergent ones make divergent.
            for &b in &blocks {
                let Some(t) = func.terminator(b) else {
                    continue;
                };
                let data = &func.dfg.insts[t];
                let divergent = match data.op {
                    Op::Brif(_) | Op::Switch(_) => u.divergent[data.args[0]],
                    _ => false,
                };
                if !divergent || u.divergent_branch[b] {
                    continue;
                }
                u.divergent_branch[b] = true;
                changed = true;
                // Every block reachable from the branch before its post-dominator joins paths
                // that work-items may take differently.
                let stop = ipdom[b];
                let mut work: Vec<Block> = cfg.succs(b).to_vec();
                let mut seen: SecondaryMap<Block, bool> = SecondaryMap::new();
                while let Some(x) = work.pop() {
                    if seen[x] {
                        continue;
                    }
                    seen[x] = true;
                    sync[x] = true;
                    if Some(x) != stop {
                        work.extend(cfg.succs(x).iter().copied());
                    }
                }
                // Work-items leave the loops this branch exits at different iterations.
                for l in &loops.loops {
                    let exits =
                        l.blocks.contains(&b) && cfg.succs(b).iter().any(|s| !l.blocks.contains(s));
                    if exits {
                        for &lb in &l.blocks {
                            for &p in func.dfg.block_params(lb) {
                                changed |= u.mark(p);
                            }
                            for &i in func.layout.block_insts(lb) {
                                if let Some(r) = func.dfg.inst_result(i) {
                                    changed |= u.mark(r);
                                }
                            }
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        u
    }
}

/// The immediate post-dominator of each block (`None` for blocks that reach no exit or whose
/// post-dominator is the virtual exit), by the dominator algorithm on the reversed CFG.
pub fn post_dominators(func: &Function, cfg: &Cfg) -> SecondaryMap<Block, Option<Block>> {
    let blocks: Vec<Block> = func.layout.blocks().to_vec();
    let n = blocks.len();
    let exit = n; // The virtual exit node.
    let mut index: SecondaryMap<Block, usize> = SecondaryMap::with_default(usize::MAX);
    for (i, &b) in blocks.iter().enumerate() {
        index[b] = i;
    }
    // Reverse-graph successors: CFG predecessors; the virtual exit leads to every block
    // that leaves the function.
    let mut rsucc: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    let mut rpred: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    for (i, &b) in blocks.iter().enumerate() {
        for &(p, _) in cfg.preds(b) {
            rsucc[i].push(index[p]);
            rpred[index[p]].push(i);
        }
        if cfg.succs(b).is_empty() {
            rsucc[exit].push(i);
            rpred[i].push(exit);
        }
    }
    // Postorder of the reverse graph from the virtual exit.
    let mut order = Vec::new();
    let mut seen = vec![false; n + 1];
    let mut stack = vec![(exit, 0usize)];
    seen[exit] = true;
    while let Some(&mut (x, ref mut k)) = stack.last_mut() {
        if let Some(&y) = rsucc[x].get(*k) {
            *k += 1;
            if !seen[y] {
                seen[y] = true;
                stack.push((y, 0));
            }
        } else {
            order.push(x);
            stack.pop();
        }
    }
    order.reverse();
    let mut number = vec![usize::MAX; n + 1];
    for (i, &x) in order.iter().enumerate() {
        number[x] = i;
    }
    const NONE: usize = usize::MAX;
    let mut idom = vec![NONE; order.len()];
    idom[0] = 0;
    let mut changed = true;
    while changed {
        changed = false;
        for i in 1..order.len() {
            let mut new = NONE;
            for &p in &rpred[order[i]] {
                let pi = number[p];
                if pi == NONE || idom[pi] == NONE {
                    continue;
                }
                new = if new == NONE {
                    pi
                } else {
                    let (mut a, mut c) = (pi, new);
                    while a != c {
                        while a > c {
                            a = idom[a];
                        }
                        while c > a {
                            c = idom[c];
                        }
                    }
                    a
                };
            }
            if new != idom[i] {
                idom[i] = new;
                changed = true;
            }
        }
    }
    let mut out = SecondaryMap::with_default(None);
    for (i, &x) in order.iter().enumerate().skip(1) {
        let d = order[idom[i]];
        if x < n && d < n {
            out[blocks[x]] = Some(blocks[d]);
        }
    }
    out
}
