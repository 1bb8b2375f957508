//! Dead code elimination and CFG cleanup.
//!
//! `run` removes instructions and block parameters whose values nothing live needs: live
//! roots are instructions with effects (stores, atomics, barriers, calls, volatile loads,
//! terminators); a block parameter is live only if used, and then so are the branch
//! arguments feeding it (an "aggressive" DCE in the style of Cytron et al. 1991).
//!
//! `simplify_cfg` removes unreachable blocks, turns a `brif` whose targets are equal or whose
//! condition is a constant into a `jump`, threads jumps through blocks that only jump, merges a block into its only
//! predecessor when that predecessor jumps to it unconditionally, and removes block
//! parameters that receive one value on every edge.

use std::collections::{HashMap, HashSet};

use crate::analysis::{Cfg, DomTree};
use crate::dfg::ValueDef;
use crate::entity::{Block, Inst, Value};
use crate::function::Function;
use crate::inst::{Dest, InstData, Op};
use crate::module::Module;

/// Removes dead instructions and parameters in every function.
pub fn run(m: &mut Module) {
    for (_, f) in m.funcs.iter_mut() {
        if !f.is_declaration() {
            dce(f);
        }
    }
}

/// Cleans up the CFG of every function.
pub fn simplify_cfg(m: &mut Module) {
    for (_, f) in m.funcs.iter_mut() {
        if !f.is_declaration() {
            simplify_function(f);
        }
    }
}

fn removable(op: &Op) -> bool {
    op.is_pure() || matches!(op, Op::Load(fl) if !fl.volatile)
}

/// Removes dead instructions and block parameters of `f`; returns whether any were.
pub fn dce(f: &mut Function) -> bool {
    let cfg = Cfg::new(f);
    let entry = match f.layout.entry_block() {
        Some(e) => e,
        None => return false,
    };
    let mut live: HashSet<Value> = HashSet::new();
    let mut work: Vec<Value> = Vec::new();
    let mut live_insts: HashSet<Inst> = HashSet::new();
    for &b in f.layout.blocks() {
        for &i in f.layout.block_insts(b) {
            if !removable(&f.dfg.insts[i].op) {
                live_insts.insert(i);
                work.extend(f.dfg.insts[i].args.iter().copied());
            }
        }
    }
    while let Some(v) = work.pop() {
        if !live.insert(v) {
            continue;
        }
        match f.dfg.value_def(v) {
            ValueDef::Result(i) if live_insts.insert(i) => {
                work.extend(f.dfg.insts[i].args.iter().copied());
            }
            ValueDef::Param(b, k) => {
                for &(_, t) in cfg.preds(b) {
                    for d in f.dfg.insts[t].op.dests() {
                        if d.block == b {
                            work.push(d.args[k as usize]);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    let mut changed = false;
    let blocks: Vec<Block> = f.layout.blocks().to_vec();
    let mut dead: Vec<Inst> = Vec::new();
    for &b in &blocks {
        dead.extend(
            f.layout
                .block_insts(b)
                .iter()
                .copied()
                .filter(|i| !live_insts.contains(i)),
        );
    }
    if !dead.is_empty() {
        f.remove_insts(&dead);
        changed = true;
    }
    for &b in &blocks {
        if b == entry {
            continue;
        }
        let params: Vec<Value> = f.dfg.block_params(b).to_vec();
        for p in params.into_iter().rev() {
            if !live.contains(&p) {
                let ValueDef::Param(_, k) = f.dfg.value_def(p) else {
                    continue;
                };
                remove_param(f, &cfg, b, k as usize);
                changed = true;
            }
        }
    }
    changed
}

/// Removes parameter `k` of `b` and the matching argument of every branch to `b`.
fn remove_param(f: &mut Function, cfg: &Cfg, b: Block, k: usize) {
    for &(_, t) in cfg.preds(b) {
        for d in f.dfg.insts[t].op.dests_mut() {
            if d.block == b {
                d.args.remove(k);
            }
        }
    }
    f.dfg.remove_block_param(b, k);
}

/// Simplifies the CFG of `f` until nothing changes; returns whether anything did.
pub fn simplify_function(f: &mut Function) -> bool {
    let mut any = false;
    // Each round makes progress or stops; the bound only guards against a bug looping.
    for _ in 0..1000 {
        let changed = remove_unreachable(f)
            | same_target_brif(f)
            | thread_jumps(f)
            | merge_blocks(f)
            | trivial_params(f);
        f.resolve_aliases();
        any |= changed;
        if !changed {
            break;
        }
    }
    any
}

fn remove_unreachable(f: &mut Function) -> bool {
    let cfg = Cfg::new(f);
    let dom = DomTree::new(f, &cfg);
    let dead: Vec<Block> = f
        .layout
        .blocks()
        .iter()
        .copied()
        .filter(|&b| !dom.is_reachable(b))
        .collect();
    for &b in &dead {
        for &i in f.layout.block_insts(b).to_vec().iter() {
            f.dfg.detach_result(i);
        }
    }
    f.layout.remove_blocks(&dead);
    !dead.is_empty()
}

/// Turns a `brif` whose targets are equal, or whose condition is a constant (left by a pass
/// that ran after `fold`, such as `if_convert`), into a `jump`.
fn same_target_brif(f: &mut Function) -> bool {
    let mut changed = false;
    for &b in f.layout.blocks() {
        let Some(t) = f.terminator(b) else { continue };
        if let Op::Brif(d) = &f.dfg.insts[t].op {
            let taken = match f.dfg.iconst_value(f.dfg.insts[t].args[0]) {
                Some(c) if c != 0 => Some(&d.0),
                Some(_) => Some(&d.1),
                None => (d.0 == d.1).then_some(&d.0),
            };
            if let Some(dest) = taken {
                let dest = dest.clone();
                f.dfg.insts[t] = InstData {
                    op: Op::Jump(dest),
                    args: Vec::new(),
                };
                changed = true;
            }
        }
    }
    changed
}

/// The target of `b` if `b` holds nothing but `jump`.
fn only_jump(f: &Function, b: Block) -> Option<Dest> {
    match f.layout.block_insts(b) {
        [i] => match &f.dfg.insts[*i].op {
            Op::Jump(d) if d.block != b => Some(d.clone()),
            _ => None,
        },
        _ => None,
    }
}

fn thread_jumps(f: &mut Function) -> bool {
    let entry = f.layout.entry_block();
    let cfg = Cfg::new(f);
    let mut uses: HashMap<Value, usize> = HashMap::new();
    for &b in f.layout.blocks() {
        for &i in f.layout.block_insts(b) {
            for a in f.dfg.insts[i].all_args() {
                *uses.entry(a).or_default() += 1;
            }
        }
    }
    let mut changed = false;
    for b in f.layout.blocks().to_vec() {
        if Some(b) == entry {
            continue;
        }
        let Some(target) = only_jump(f, b) else {
            continue;
        };
        let params: Vec<Value> = f.dfg.block_params(b).to_vec();
        // A parameter used beyond the jump (in blocks `b` dominates) must stay defined.
        let own = |p: &Value| target.args.iter().filter(|a| *a == p).count();
        if params
            .iter()
            .any(|p| uses.get(p).copied().unwrap_or(0) != own(p))
        {
            continue;
        }
        for &(p, t) in cfg.preds(b) {
            if p == b {
                continue;
            }
            for d in f.dfg.insts[t].op.dests_mut() {
                if d.block != b {
                    continue;
                }
                let map: HashMap<Value, Value> =
                    params.iter().copied().zip(d.args.iter().copied()).collect();
                let args: Vec<Value> = target
                    .args
                    .iter()
                    .map(|a| map.get(a).copied().unwrap_or(*a))
                    .collect();
                // Keep the use counts exact for the blocks threaded later in this pass.
                for a in &d.args {
                    if let Some(n) = uses.get_mut(a) {
                        *n -= 1;
                    }
                }
                for &a in &args {
                    *uses.entry(a).or_default() += 1;
                }
                *d = Dest {
                    block: target.block,
                    args,
                };
                changed = true;
            }
        }
    }
    changed
}

fn merge_blocks(f: &mut Function) -> bool {
    let entry = f.layout.entry_block();
    let cfg = Cfg::new(f);
    let mut merged = Vec::new();
    for b in f.layout.blocks().to_vec() {
        if Some(b) == entry {
            continue;
        }
        // Branch instructions keep their identity when merged blocks move them, so the
        // predecessor instruction is still right; its block is looked up now.
        let [(_, t)] = cfg.preds(b) else { continue };
        let t = *t;
        let Some(p) = f.layout.inst_block(t) else {
            continue;
        };
        if p == b {
            continue;
        }
        let Op::Jump(d) = &f.dfg.insts[t].op else {
            continue;
        };
        let args = d.args.clone();
        let params: Vec<Value> = f.dfg.block_params(b).to_vec();
        for (k, (&param, &arg)) in params.iter().zip(&args).enumerate().rev() {
            f.dfg.remove_block_param(b, k);
            f.dfg.change_to_alias(param, arg);
        }
        f.layout.remove_inst(t);
        f.layout.move_insts(b, p);
        merged.push(b);
    }
    f.layout.remove_blocks(&merged);
    !merged.is_empty()
}

fn trivial_params(f: &mut Function) -> bool {
    let entry = f.layout.entry_block();
    let cfg = Cfg::new(f);
    let mut changed = false;
    for b in f.layout.blocks().to_vec() {
        if Some(b) == entry || cfg.preds(b).is_empty() {
            continue;
        }
        let params: Vec<Value> = f.dfg.block_params(b).to_vec();
        for (k, &p) in params.iter().enumerate().rev() {
            let mut only: Option<Value> = None;
            let mut trivial = true;
            for &(_, t) in cfg.preds(b) {
                for d in f.dfg.insts[t].op.dests() {
                    if d.block != b {
                        continue;
                    }
                    let a = f.dfg.resolve(d.args[k]);
                    if a == p || Some(a) == only {
                        continue;
                    }
                    if only.is_some() {
                        trivial = false;
                    }
                    only = Some(a);
                }
            }
            let Some(v) = only.filter(|_| trivial) else {
                continue;
            };
            remove_param(f, &cfg, b, k);
            f.dfg.change_to_alias(p, v);
            changed = true;
        }
    }
    changed
}
