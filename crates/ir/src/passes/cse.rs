//! Common subexpression elimination over the dominator tree (dominator-based value
//! numbering, as in Briggs, Cooper and Simpson, "Value Numbering", 1997): walking the tree
//! in preorder with a scoped table, a pure instruction equal to one available in a
//! dominating position (same operation, immediates, operands and type) is replaced by it.
//! Commutative operations are keyed with sorted operands. Loads are merged only from the
//! `constant` address space (elsewhere stores may come between); `undef`s are not merged.

use std::collections::HashMap;

use crate::analysis::{Cfg, DomTree};
use crate::entity::{Block, Inst, Value};
use crate::function::Function;
use crate::inst::Op;
use crate::module::Module;
use crate::types::{AddrSpace, Type};

/// Runs CSE on every function.
pub fn run(m: &mut Module) {
    for (_, f) in m.funcs.iter_mut() {
        if !f.is_declaration() {
            cse(f);
        }
    }
}

type Key = (Op, Vec<Value>, Type);

/// Eliminates common subexpressions in `f`; returns whether any were.
pub fn cse(f: &mut Function) -> bool {
    let cfg = Cfg::new(f);
    let dom = DomTree::new(f, &cfg);
    let Some(&entry) = dom.rpo().first() else {
        return false;
    };
    let children = dom.children();
    let mut avail: HashMap<Key, Value> = HashMap::new();
    let mut undo: Vec<(Key, Option<Value>)> = Vec::new();
    let mut stack: Vec<(Block, Option<usize>)> = vec![(entry, None)];
    let mut changed = false;
    while let Some((b, mark)) = stack.pop() {
        if let Some(len) = mark {
            while undo.len() > len {
                let (k, old) = undo.pop().expect("undo entry");
                match old {
                    Some(v) => avail.insert(k, v),
                    None => avail.remove(&k),
                };
            }
            continue;
        }
        stack.push((b, Some(undo.len())));
        let insts: Vec<Inst> = f.layout.block_insts(b).to_vec();
        for i in insts {
            let resolved: Vec<Value> = f.dfg.insts[i]
                .args
                .iter()
                .map(|&a| f.dfg.resolve(a))
                .collect();
            f.dfg.insts[i].args = resolved;
            let data = &f.dfg.insts[i];
            let Some(r) = f.dfg.inst_result(i) else {
                continue;
            };
            // Loads from the constant address space give equal values: constant memory is "a
            // region of global memory that remains constant during the execution of a
            // kernel-instance" (API 3.3.1).
            let constant_load =
                matches!(data.op, Op::Load(fl) if fl.space == AddrSpace::Constant && !fl.volatile);
            if !(data.op.is_pure() || constant_load) || data.op == Op::Undef {
                continue;
            }
            let mut args = data.args.clone();
            if matches!(data.op, Op::Binary(b) if b.is_commutative()) {
                args.sort();
            }
            let key = (data.op.clone(), args, f.dfg.value_type(r));
            match avail.get(&key) {
                Some(&v) => {
                    f.layout.remove_inst(i);
                    f.dfg.change_to_alias(r, v);
                    changed = true;
                }
                None => {
                    avail.insert(key.clone(), r);
                    undo.push((key, None));
                }
            }
        }
        if let Some(cs) = children.get(&b) {
            for &c in cs.iter().rev() {
                stack.push((c, None));
            }
        }
    }
    f.resolve_aliases();
    changed
}
