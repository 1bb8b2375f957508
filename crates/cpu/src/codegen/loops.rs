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

use ferrocl_ir::analysis::{Cfg, DomTree, LoopInfo};
use ferrocl_ir::entity::{EntitySet, SecondaryMap};
use ferrocl_ir::{Block, Function, Inst, Op};

/// The conditional branches of `func` whose `then` target stays in the branch's innermost
/// loop and whose `else` target leaves it: the ones to emit with their targets swapped.
pub(super) fn exits_first(func: &Function) -> EntitySet<Inst> {
    let cfg = Cfg::new(func);
    let dom = DomTree::new(func, &cfg);
    let loops = LoopInfo::new(&cfg, &dom);
    let mut swap = EntitySet::new();
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
                swap.remove(t);
            }
        }
    }
    swap
}

/// How many loops each block of `func` is in, for the blocks in one or more.
pub(crate) fn depths(func: &Function) -> SecondaryMap<Block, u32> {
    let cfg = Cfg::new(func);
    let dom = DomTree::new(func, &cfg);
    let mut depth = SecondaryMap::new();
    for l in &LoopInfo::new(&cfg, &dom).loops {
        for &b in &l.blocks {
            depth[b] += 1;
        }
    }
    depth
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The blocks whose branch `exits_first` swaps, by name.
    fn swapped(text: &str) -> Vec<String> {
        let m = ferrocl_ir::parse_module(text).unwrap();
        let f = m.funcs.values().next().unwrap();
        let set = exits_first(f);
        let mut names: Vec<String> = f
            .layout
            .blocks()
            .iter()
            .filter(|&&b| f.terminator(b).is_some_and(|t| set.contains(t)))
            .map(|b| b.to_string())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_loop_header_entering_its_body_first_is_swapped() {
        // for (j = 0; j < n; j++) { if (j == 3) ... }: block1 tests the trip count (body
        // first, exit second): swapped; block2's branch stays inside the loop; block5's is
        // already exit first.
        let names = swapped(
            "func @k(i32) {
block0(v0: i32):
    v1: i32 = iconst 0
    jump block1(v1)
block1(v2: i32):
    v3: i1 = icmp slt v2, v0
    brif v3, block2, block6
block2:
    v4: i32 = iconst 3
    v5: i1 = icmp eq v2, v4
    brif v5, block3, block4
block3:
    jump block4
block4:
    v6: i32 = iconst 1
    v7: i32 = iadd v2, v6
    jump block5
block5:
    v8: i1 = icmp eq v7, v0
    brif v8, block6, block1(v7)
block6:
    return
}",
        );
        assert_eq!(names, vec!["block1"]);
    }
}
