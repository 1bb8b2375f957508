//! What an address is known to be from the IR alone: a base plus a constant. Both the
//! work-group transform (which marks the accesses of its stack slots that stay inside them)
//! and code generation (which confines the rest, and clamps shared bases) read addresses so.

use ferrocl_ir::{Function, Inst, Op, Value, ValueDef};

/// `ptr` as `q + k` for a `ptradd` of a constant k (the signed integer of the offset's type).
pub(crate) fn ptradd_constant(f: &Function, ptr: Value) -> Option<(Value, i64)> {
    let dfg = &f.dfg;
    let ValueDef::Result(i) = dfg.value_def(dfg.resolve(ptr)) else {
        return None;
    };
    let data = &dfg.insts[i];
    if data.op != Op::PtrAdd {
        return None;
    }
    let o = dfg.resolve(data.args[1]);
    let k = ferrocl_ir::eval::sext(dfg.iconst_value(o)?, dfg.value_type(o).bits());
    Some((dfg.resolve(data.args[0]), k))
}

/// The `slotaddr` or `globaladdr` instruction whose address `ptr` is, at a constant offset,
/// with that offset: through at most seven `ptradd`s of constants (deeper chains are not
/// worth following), and `None` where the offset overflows.
pub(crate) fn constant_base(f: &Function, ptr: Value) -> Option<(Inst, i64)> {
    let dfg = &f.dfg;
    let mut v = ptr;
    let mut offset = 0i64;
    for _ in 0..8 {
        let ValueDef::Result(inst) = dfg.value_def(dfg.resolve(v)) else {
            return None;
        };
        match dfg.insts[inst].op {
            Op::SlotAddr(_) | Op::GlobalAddr(_) => return Some((inst, offset)),
            Op::PtrAdd => {
                let (base, k) = ptradd_constant(f, v)?;
                offset = offset.checked_add(k)?;
                v = base;
            }
            _ => return None,
        }
    }
    None
}
