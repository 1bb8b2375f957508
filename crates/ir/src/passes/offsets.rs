//! Constant offsets moved outward: `ptradd(ptradd(p, c), x)`, `c` a constant (or a chain of
//! them) and `x` not, becomes `ptradd(ptradd(p, x), c)`.
//!
//! After unrolling, `b[k][i]` for k = 0, 1, 2... is `ptradd(b + 64k, 4i)`: each access has a
//! base of its own, and on the CPU each base is a register (or a spill) and each `__local`
//! access its own confinement. Moved outward, the accesses share the address `b + 4i` and
//! differ by constants, which the code generator makes the displacement of an addressing mode
//! (and confines the shared address once). Exact: `ptradd` is a wrapping addition. Only
//! scalar pointers and offsets are rewritten.

use crate::dfg::ValueDef;
use crate::entity::{Inst, Value};
use crate::function::Function;
use crate::inst::{InstData, Op};
use crate::module::Module;

/// Moves constant offsets outward in every function.
pub fn run(m: &mut Module) {
    for (_, f) in m.funcs.iter_mut() {
        if !f.is_declaration() {
            constants_outward(f);
        }
    }
}

/// `v` as `ptradd(q, k)` with `k` the sum of a chain of constant offsets, and the constant
/// nearest `v` (the one to reuse when the chain is a single `ptradd`).
fn constant_chain(f: &Function, v: Value) -> Option<(Value, u64, Value)> {
    let mut q = f.dfg.resolve(v);
    let mut sum = 0u64;
    let mut first = None;
    while let ValueDef::Result(i) = f.dfg.value_def(q) {
        let data = &f.dfg.insts[i];
        if data.op != Op::PtrAdd {
            break;
        }
        let o = f.dfg.resolve(data.args[1]);
        let Some(c) = f.dfg.iconst_value(o) else {
            break;
        };
        if f.dfg.value_type(o).bits() != 64 {
            break;
        }
        sum = sum.wrapping_add(c);
        first.get_or_insert(o);
        q = f.dfg.resolve(data.args[0]);
    }
    first.map(|o| (q, sum, o))
}

/// Rewrites every `ptradd` of `f` as the module documentation says; returns whether any
/// changed.
pub fn constants_outward(f: &mut Function) -> bool {
    let insts: Vec<Inst> = f
        .layout
        .blocks()
        .iter()
        .flat_map(|&b| f.layout.block_insts(b).iter().copied())
        .collect();
    let mut changed = false;
    for i in insts {
        if f.dfg.insts[i].op != Op::PtrAdd {
            continue;
        }
        let (p, x) = (
            f.dfg.resolve(f.dfg.insts[i].args[0]),
            f.dfg.resolve(f.dfg.insts[i].args[1]),
        );
        let pty = f.dfg.value_type(p);
        if pty.is_vector() || f.dfg.value_type(x).is_vector() || f.dfg.iconst_value(x).is_some() {
            continue;
        }
        let Some((q, sum, nearest)) = constant_chain(f, p) else {
            continue;
        };
        let shared = f.insert_inst_before(i, InstData::new(Op::PtrAdd, &[q, x]), Some(pty));
        let shared = f.dfg.inst_result(shared).expect("ptradd has a result");
        let offset = if f.dfg.iconst_value(nearest) == Some(sum) {
            nearest
        } else {
            let ty = f.dfg.value_type(nearest);
            let c = f.insert_inst_before(i, InstData::new(Op::Iconst(sum), &[]), Some(ty));
            f.dfg.inst_result(c).expect("iconst has a result")
        };
        f.dfg.insts[i].args = vec![shared, offset];
        changed = true;
    }
    changed
}
