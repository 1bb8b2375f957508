//! Redundant load elimination and store-to-load forwarding within a block.
//!
//! Walking each block in order, the pass remembers the value last loaded from or stored to
//! each address (an SSA pointer value) together with its type. A later non-volatile load of
//! the same type from the same pointer value reads that value instead. Anything that may
//! write memory, or order it (a store to another address, atomics, fences, barriers, calls),
//! forgets what was remembered, except that a store forgets nothing it provably does not
//! overlap; the proof is simple: two accesses through the same pointer value plus different
//! constant offsets (`ptradd p, c`) whose byte ranges are disjoint.

use std::collections::HashMap;

use crate::dfg::ValueDef;
use crate::entity::{Inst, Value};
use crate::function::Function;
use crate::inst::Op;
use crate::module::Module;
use crate::types::Type;

/// Eliminates redundant loads in every function.
pub fn run(m: &mut Module) {
    for (_, f) in m.funcs.iter_mut() {
        if !f.is_declaration() {
            load_elim(f);
        }
    }
}

/// The base pointer and constant byte offset of `p`.
fn base_offset(f: &Function, p: Value) -> (Value, Option<i64>) {
    if let ValueDef::Result(i) = f.dfg.value_def(p) {
        let d = &f.dfg.insts[i];
        if d.op == Op::PtrAdd {
            if let Some(c) = f.dfg.iconst_value(d.args[1]) {
                let w = f.dfg.value_type(d.args[1]).lane_bits();
                let off = ((c << (64 - w)) as i64) >> (64 - w);
                return (d.args[0], Some(off));
            }
        }
    }
    (p, Some(0))
}

/// Whether accesses of `ta` at `a` and `tb` at `b` certainly touch disjoint bytes.
fn disjoint(f: &Function, a: Value, ta: Type, b: Value, tb: Type) -> bool {
    let ((ba, oa), (bb, ob)) = (base_offset(f, a), base_offset(f, b));
    match (oa, ob) {
        (Some(oa), Some(ob)) if ba == bb => {
            oa + i64::from(ta.bytes()) <= ob || ob + i64::from(tb.bytes()) <= oa
        }
        _ => false,
    }
}

/// Eliminates redundant loads in `f`; returns whether any were.
pub fn load_elim(f: &mut Function) -> bool {
    let mut changed = false;
    for b in f.layout.blocks().to_vec() {
        // Address -> (type, value known to be there).
        let mut known: HashMap<Value, (Type, Value)> = HashMap::new();
        let insts: Vec<Inst> = f.layout.block_insts(b).to_vec();
        for i in insts {
            let args: Vec<Value> = f.dfg.insts[i]
                .args
                .iter()
                .map(|&a| f.dfg.resolve(a))
                .collect();
            f.dfg.insts[i].args = args.clone();
            match f.dfg.insts[i].op.clone() {
                Op::Load(fl) if !fl.volatile => {
                    let Some(r) = f.dfg.inst_result(i) else {
                        continue;
                    };
                    let ty = f.dfg.value_type(r);
                    match known.get(&args[0]) {
                        Some(&(t, v)) if t == ty => {
                            f.layout.remove_inst(i);
                            f.dfg.change_to_alias(r, v);
                            changed = true;
                        }
                        _ => {
                            known.insert(args[0], (ty, r));
                        }
                    }
                }
                Op::Store(fl) if !fl.volatile => {
                    let (x, p) = (args[0], args[1]);
                    let ty = f.dfg.value_type(x);
                    known.retain(|&q, &mut (tq, _)| disjoint(f, p, ty, q, tq));
                    known.insert(p, (ty, x));
                }
                op if op.has_side_effects() || matches!(op, Op::Load(_)) => known.clear(),
                _ => {}
            }
        }
    }
    f.resolve_aliases();
    changed
}
