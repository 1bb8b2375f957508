//! Conditions known from the branch that leads to a block: past `brif c, T, F`, where the
//! branch is T's only way in, `c` is true in every block T dominates (and so is each operand of
//! a `band` that `c` is); where it is F's only way in, `c` is false in every block F dominates
//! (and so is each operand of a `bor`). Uses of such a condition there become the constant;
//! `fold` then removes the tests that repeat it.
//!
//! The W-wide code tests some facts twice: a loop that runs unmasked while its lanes' ids are
//! consecutive tests once per trip that they do not wrap, and each consecutive load in its
//! body tests it again to choose between a vector load and a gather.

use std::collections::HashMap;

use crate::analysis::{Cfg, DomTree};
use crate::dfg::ValueDef;
use crate::entity::{Block, Value};
use crate::function::Function;
use crate::inst::{BinaryOp, InstData, Op};
use crate::module::Module;
use crate::types::Type;

/// Propagates known conditions in every function.
pub fn run(m: &mut Module) {
    for (_, f) in m.funcs.iter_mut() {
        if !f.is_declaration() {
            known_conditions(f);
        }
    }
}

/// The `i1` values that `c` being `holds` makes known, with their values: `c` itself, and
/// the operands of a `band` that holds or a `bor` that fails, recursively.
fn implied(f: &Function, c: Value, holds: bool, out: &mut Vec<(Value, bool)>) {
    let c = f.dfg.resolve(c);
    if out.iter().any(|&(v, _)| v == c) || out.len() >= 16 {
        return;
    }
    out.push((c, holds));
    if let ValueDef::Result(i) = f.dfg.value_def(c) {
        let data = &f.dfg.insts[i];
        let split = matches!(
            (&data.op, holds),
            (Op::Binary(BinaryOp::Band), true) | (Op::Binary(BinaryOp::Bor), false)
        );
        if split {
            for &a in &data.args {
                implied(f, a, holds, out);
            }
        }
    }
}

/// Replaces, in `f`, each use of a condition in the blocks where a branch makes it known;
/// returns whether any use changed.
///
/// One walk of the dominator tree: entering a block adds the facts its only way in makes known
/// to a scoped table, leaving it removes them, so each instruction is visited once whatever
/// the number of branches (the straight-line code of a large kernel has thousands).
pub fn known_conditions(f: &mut Function) -> bool {
    let cfg = Cfg::new(f);
    let dom = DomTree::new(f, &cfg);
    // The facts each block's entry makes known.
    let mut facts: HashMap<Block, Vec<(Value, bool)>> = HashMap::new();
    for &b in dom.rpo() {
        let Some(t) = f.terminator(b) else { continue };
        let data = &f.dfg.insts[t];
        let Op::Brif(dests) = &data.op else { continue };
        let (yes, no) = (dests.0.block, dests.1.block);
        if yes == no || f.dfg.value_type(data.args[0]) != Type::I1 {
            continue;
        }
        for (target, holds) in [(yes, true), (no, false)] {
            if cfg.preds(target).len() == 1 {
                let mut known = Vec::new();
                implied(f, data.args[0], holds, &mut known);
                facts.insert(target, known);
            }
        }
    }
    if facts.is_empty() {
        return false;
    }
    let children = dom.children();
    // Each known value's facts in force, outermost first (the outermost one is used, as
    // its constant dominates every inner one's uses too), as (holds, head).
    let mut active: HashMap<Value, Vec<(bool, Block)>> = HashMap::new();
    let mut constants: HashMap<(Block, bool), Value> = HashMap::new();
    let mut changed = false;
    let mut in_force = 0usize;
    let Some(&entry) = dom.rpo().first() else {
        return false;
    };
    // (block, whether its subtree is done)
    let mut stack = vec![(entry, false)];
    while let Some((b, done)) = stack.pop() {
        if done {
            for &(v, _) in facts.get(&b).into_iter().flatten() {
                if let Some(list) = active.get_mut(&v) {
                    list.pop();
                    in_force -= 1;
                }
            }
            continue;
        }
        for &(v, holds) in facts.get(&b).into_iter().flatten() {
            active.entry(v).or_default().push((holds, b));
            in_force += 1;
        }
        stack.push((b, true));
        for &c in children.get(&b).into_iter().flatten().rev() {
            stack.push((c, false));
        }
        if in_force == 0 {
            continue;
        }
        let insts: Vec<_> = f.layout.block_insts(b).to_vec();
        for i in insts {
            for a in 0..f.dfg.insts[i].args.len() {
                let v = f.dfg.resolve(f.dfg.insts[i].args[a]);
                let Some(&(holds, head)) = active.get(&v).and_then(|l| l.first()) else {
                    continue;
                };
                let k = *constants.entry((head, holds)).or_insert_with(|| {
                    let data = InstData::new(Op::Iconst(u64::from(holds)), &[]);
                    let first = f.layout.block_insts(head).first().copied();
                    let c = match first {
                        Some(first) => f.insert_inst_before(first, data, Some(Type::I1)),
                        None => f.append_inst(head, data, Some(Type::I1)),
                    };
                    f.dfg.inst_result(c).expect("iconst has a result")
                });
                if k != v {
                    f.dfg.insts[i].args[a] = k;
                    changed = true;
                }
            }
        }
    }
    changed
}
