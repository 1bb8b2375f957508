//! The order of a conditional branch's targets in the Cranelift IR, chosen for Cranelift's
//! loop-invariant code motion.
//!
//! Cranelift (0.135) hoists a pure instruction out of a loop while it walks the dominator
//! tree, keeping a stack of the loops it is in; it pushes a loop when it reaches the loop's
//! header and pops it when it reaches a block outside. The children of a block are walked in
//! reverse post-order of a depth-first search that follows a branch's `then` target first, so
//! for `brif c, body, exit` in a loop header the exit comes first: the walk leaves the loop,
//! pops it, and reaches the body with the loop no longer on the stack, where nothing is
//! hoisted (loop-invariant arithmetic and vector shuffles then run on every trip). Branching
//! to the exit on `then` and to the body on `else` makes the body come first.

use std::collections::HashSet;

use ferrocl_ir::analysis::{Cfg, DomTree, LoopInfo};
use ferrocl_ir::{Function, Inst, Op};

/// The conditional branches of `func` whose `then` target stays in the branch's innermost
/// loop and whose `else` target leaves it: the ones to emit with their targets swapped.
pub(super) fn exits_first(func: &Function) -> HashSet<Inst> {
    let cfg = Cfg::new(func);
    let dom = DomTree::new(func, &cfg);
    let loops = LoopInfo::new(&cfg, &dom);
    let mut swap = HashSet::new();
    // Inner loops last, so that the innermost loop of a block decides.
    for l in &loops.loops {
        for &b in &l.blocks {
            let Some(t) = func.terminator(b) else {
                continue;
            };
            let Op::Brif(d) = &func.dfg.insts[t].op else {
                continue;
            };
            let inside = |x| l.blocks.contains(&x);
            if inside(d.0.block) && !inside(d.1.block) {
                swap.insert(t);
            } else {
                swap.remove(&t);
            }
        }
    }
    swap
}
