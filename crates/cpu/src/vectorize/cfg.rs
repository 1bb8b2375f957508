//! The control-flow forms the vectorizer works on, made before any analysis: one return
//! block, loops with exit blocks of their own, and loops in closed form (every value a loop
//! passes out goes through its exit block's parameters).

use ferrocl_ir::analysis::{Cfg, DomTree, Loop, LoopInfo};
use ferrocl_ir::entity::SecondaryMap;
use ferrocl_ir::{Block, Dest, Function, Inst, InstData, Op, Value};

/// Makes every `return` jump to one new return block, so that an early return joins the
/// other paths at a post-dominator.
pub(super) fn unify_returns(func: &mut Function) {
    let returns: Vec<Inst> = func
        .layout
        .blocks()
        .iter()
        .filter_map(|&b| func.terminator(b))
        .filter(|&t| matches!(func.dfg.insts[t].op, Op::Return))
        .collect();
    if returns.len() < 2 {
        return;
    }
    let exit = func.dfg.make_block();
    func.layout.append_block(exit);
    func.append_inst(exit, InstData::new(Op::Return, &[]), None);
    for t in returns {
        func.dfg.insts[t] = InstData::new(Op::Jump(Dest::new(exit, &[])), &[]);
    }
}

/// The blocks outside a loop that its blocks branch to.
pub(super) fn exits(cfg: &Cfg, l: &Loop) -> Vec<Block> {
    let mut v: Vec<Block> = l
        .blocks
        .iter()
        .flat_map(|&b| cfg.succs(b).iter().copied())
        .filter(|s| !l.blocks.contains(s))
        .collect();
    v.sort();
    v.dedup();
    v
}

/// Puts loops with one exit block, entered only from the loop, in closed form: every value
/// of the loop used after it reaches those uses through a new parameter of the exit block,
/// so that what each lane passes out of a loop that lanes leave at different iterations is
/// one value to blend.
pub(super) fn close_loops(func: &mut Function) {
    let cfg = Cfg::new(func);
    let dom = DomTree::new(func, &cfg);
    let loops = LoopInfo::new(&cfg, &dom);
    if loops.loops.is_empty() {
        return;
    }
    // The instructions that read each value (once per instruction).
    let mut uses: SecondaryMap<Value, Vec<Inst>> = SecondaryMap::new();
    for &b in func.layout.blocks() {
        for &i in func.layout.block_insts(b) {
            let mut args = func.dfg.insts[i].all_args();
            args.sort();
            args.dedup();
            for a in args {
                uses[a].push(i);
            }
        }
    }
    // Inner loops first, so that what an inner loop passes out an outer one passes on.
    for l in loops.loops.iter().rev() {
        let [exit] = exits(&cfg, l)[..] else {
            continue;
        };
        if cfg.preds(exit).iter().any(|(p, _)| !l.blocks.contains(p)) {
            continue;
        }
        let mut inside: SecondaryMap<Block, bool> = SecondaryMap::new();
        for &b in &l.blocks {
            inside[b] = true;
        }
        let mut defined: Vec<Value> = Vec::new();
        for &b in &l.blocks {
            defined.extend_from_slice(func.dfg.block_params(b));
            defined.extend(
                func.layout
                    .block_insts(b)
                    .iter()
                    .filter_map(|&i| func.dfg.inst_result(i)),
            );
        }
        let exiting: Vec<Inst> = l
            .blocks
            .iter()
            .filter_map(|&b| func.terminator(b))
            .filter(|&t| func.dfg.insts[t].op.dests().iter().any(|d| d.block == exit))
            .collect();
        for v in defined {
            let outside: Vec<Inst> = uses[v]
                .iter()
                .copied()
                .filter(|&i| func.layout.inst_block(i).is_some_and(|b| !inside[b]))
                .collect();
            if outside.is_empty() {
                continue;
            }
            let ty = func.dfg.value_type(v);
            let p = func.dfg.append_block_param(exit, ty);
            for &i in &outside {
                func.dfg.insts[i].map_args(|a| if a == v { p } else { a });
            }
            let u = &mut uses[v];
            if !u.is_empty() {
                u.retain(|i| !outside.contains(i));
                u.extend(exiting.iter().copied());
            }
            uses[p] = outside;
            for &t in &exiting {
                for d in func.dfg.insts[t].op.dests_mut() {
                    if d.block == exit {
                        d.args.push(v);
                    }
                }
            }
        }
    }
}

/// Gives each loop with one exit target that is entered from elsewhere too a block of its
/// own to exit to, which passes the arguments on.
pub(super) fn dedicate_exits(func: &mut Function) {
    let cfg = Cfg::new(func);
    let dom = DomTree::new(func, &cfg);
    let loops = LoopInfo::new(&cfg, &dom);
    for l in &loops.loops {
        let [exit] = exits(&cfg, l)[..] else {
            continue;
        };
        if cfg.preds(exit).iter().all(|(p, _)| l.blocks.contains(p)) {
            continue;
        }
        let own = func.dfg.make_block();
        func.layout.append_block(own);
        let params = func.dfg.append_params_like(own, exit);
        func.append_inst(
            own,
            InstData::new(Op::Jump(Dest::new(exit, &params)), &[]),
            None,
        );
        for &b in &l.blocks {
            if let Some(t) = func.terminator(b) {
                for d in func.dfg.insts[t].op.dests_mut() {
                    if d.block == exit {
                        d.block = own;
                    }
                }
            }
        }
    }
}
