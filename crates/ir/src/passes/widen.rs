//! Offsets computed in `int`, widened before they are extended: `p[y * w + x]` with `int`
//! operands converts the `int` sum to the 64-bit offset (a sign extension of the sum), and
//! this pass computes the sum in 64 bits from the extended operands instead,
//! `sext(y * w) + sext(x)` (a product is widened only by a constant: see [`by_constant`]).
//!
//! The two are equal wherever the program is defined: the front end marks the arithmetic of
//! signed types ([`Function::no_signed_wrap`]), whose overflow C99 6.5p5 leaves undefined, so
//! a marked sum is the mathematical sum of its operands, and so is the wide one. Compilers
//! that follow C (clang's `nsw`) rely on the same rule.
//!
//! What it gains: in the wide form the offset is affine in the work-item id wherever `x` is,
//! with no narrow sum whose lanes might wrap. The CPU device's vectorizer otherwise tests at
//! run time that the lanes' `int` sums do not wrap and keeps a lane-by-lane copy of each such
//! access for when they do (a branch per chunk, and code whose registers the hot loop pays
//! for).
//!
//! Only extensions whose every use is an address offset (a `ptradd`'s offset, directly or
//! scaled by a constant) change: `(long)(a * b)` elsewhere keeps the narrow product, so a
//! program that overflows there gets what it got before.

use std::collections::HashMap;

use crate::dfg::ValueDef;
use crate::entity::{Inst, Value};
use crate::eval::sext;
use crate::function::Function;
use crate::inst::{BinaryOp, ConvOp, InstData, Op};
use crate::module::Module;
use crate::types::Type;

/// The most wide operations one extension is replaced with; past them the operands are
/// extended as they are.
const MAX_OPS: usize = 32;

/// Widens in every function and clears the marks.
pub fn run(m: &mut Module) {
    for (_, f) in m.funcs.iter_mut() {
        if !f.no_signed_wrap.is_empty() && !f.is_declaration() {
            widen(f);
        }
        f.no_signed_wrap.clear();
    }
}

/// Widens the offsets of `f`; returns whether any changed.
pub fn widen(f: &mut Function) -> bool {
    let uses = uses(f);
    let mut changed = false;
    for b in f.layout.blocks().to_vec() {
        for i in f.layout.block_insts(b).to_vec() {
            let data = &f.dfg.insts[i];
            if data.op != Op::Convert(ConvOp::Sext) {
                continue;
            }
            let x = f.dfg.resolve(data.args[0]);
            let Some(r) = f.dfg.inst_result(i) else {
                continue;
            };
            if f.dfg.value_type(x) != Type::I32
                || f.dfg.value_type(r) != Type::I64
                || marked(f, x).is_none()
                || !offset_only(f, &uses, r)
            {
                continue;
            }
            let mut memo = HashMap::new();
            let mut budget = MAX_OPS;
            let split = wide(f, i, x, &mut memo, &mut budget);
            let w = join(f, i, split);
            f.layout.remove_inst(i);
            f.dfg.change_to_alias(r, w);
            changed = true;
        }
    }
    if changed {
        f.resolve_aliases();
    }
    changed
}

/// The uses of each value: (instruction, operand index), over the placed instructions.
fn uses(f: &Function) -> HashMap<Value, Vec<(Inst, usize)>> {
    let mut uses: HashMap<Value, Vec<(Inst, usize)>> = HashMap::new();
    for &b in f.layout.blocks() {
        for &i in f.layout.block_insts(b) {
            for (k, &a) in f.dfg.insts[i].args.iter().enumerate() {
                uses.entry(f.dfg.resolve(a)).or_default().push((i, k));
            }
        }
    }
    uses
}

/// Whether every use of `v` is a `ptradd`'s offset, or a multiplication or left shift by a
/// constant whose every use is one (an element index scaled to bytes).
fn offset_only(f: &Function, uses: &HashMap<Value, Vec<(Inst, usize)>>, v: Value) -> bool {
    let direct = |v: Value| {
        uses.get(&v).is_some_and(|u| {
            u.iter()
                .all(|&(i, k)| f.dfg.insts[i].op == Op::PtrAdd && k == 1)
        })
    };
    uses.get(&v).is_some_and(|u| {
        u.iter().all(|&(i, k)| {
            let data = &f.dfg.insts[i];
            match data.op {
                Op::PtrAdd => k == 1,
                Op::Binary(BinaryOp::Imul) => {
                    f.dfg.iconst_value(data.args[1 - k]).is_some()
                        && f.dfg.inst_result(i).is_some_and(direct)
                }
                Op::Binary(BinaryOp::Shl) => {
                    k == 0
                        && f.dfg.iconst_value(data.args[1]).is_some()
                        && f.dfg.inst_result(i).is_some_and(direct)
                }
                _ => false,
            }
        })
    })
}

/// The marked instruction defining `v` and its operation, if one does.
fn marked(f: &Function, v: Value) -> Option<(Inst, BinaryOp)> {
    let ValueDef::Result(i) = f.dfg.value_def(f.dfg.resolve(v)) else {
        return None;
    };
    if !f.no_signed_wrap.contains(&i) {
        return None;
    }
    match f.dfg.insts[i].op {
        Op::Binary(op @ (BinaryOp::Iadd | BinaryOp::Isub | BinaryOp::Imul)) => Some((i, op)),
        _ => None,
    }
}

/// A wide value as `base + offset`: the constants of a sum gathered into one offset, so that
/// `(y + 1) - 1` adds nothing and `p[x + 1]` keeps its constant as a displacement. No base:
/// the offset alone. The parts wrap in 64 bits: the value they make is the sum's, which fits
/// in 32 (the arithmetic is exact modulo 2^64, and the program's value is in range).
type Split = (Option<Value>, i64);

/// `x` (an `i32`) as an `i64` equal to its sign extension, computed before `at`: a marked
/// operation on its operands made wide, a constant extended, anything else extended by an
/// instruction. Each value is made wide once (`memo`); `budget` bounds the operations added.
fn wide(
    f: &mut Function,
    at: Inst,
    x: Value,
    memo: &mut HashMap<Value, Split>,
    budget: &mut usize,
) -> Split {
    let x = f.dfg.resolve(x);
    if let Some(&w) = memo.get(&x) {
        return w;
    }
    let emit = |f: &mut Function, op: Op, args: &[Value]| {
        let i = f.insert_inst_before(at, InstData::new(op, args), Some(Type::I64));
        f.dfg.inst_result(i).expect("has a result")
    };
    let split = match (marked(f, x), f.dfg.iconst_value(x)) {
        (_, Some(c)) => (None, sext(c, 32)),
        (Some((i, op)), _) if *budget > 0 && (op != BinaryOp::Imul || by_constant(f, i)) => {
            *budget -= 1;
            let args = f.dfg.insts[i].args.clone();
            let (a, b) = (
                wide(f, at, args[0], memo, budget),
                wide(f, at, args[1], memo, budget),
            );
            let int = |op| Op::Binary(op);
            match op {
                BinaryOp::Iadd => {
                    let base = match (a.0, b.0) {
                        (Some(p), Some(q)) => Some(emit(f, int(BinaryOp::Iadd), &[p, q])),
                        (p, q) => p.or(q),
                    };
                    (base, a.1.wrapping_add(b.1))
                }
                BinaryOp::Isub => {
                    let base = match (a.0, b.0) {
                        (p, None) => p,
                        (p, Some(q)) => {
                            let p = p.unwrap_or_else(|| emit(f, Op::Iconst(0), &[]));
                            Some(emit(f, int(BinaryOp::Isub), &[p, q]))
                        }
                    };
                    (base, a.1.wrapping_sub(b.1))
                }
                _ => match (a, b) {
                    // A constant factor scales the offset too: `(x + 1) * 4` is `x * 4 + 4`.
                    ((Some(p), k), (None, c)) | ((None, c), (Some(p), k)) => {
                        let c64 = emit(f, Op::Iconst(c as u64), &[]);
                        (
                            Some(emit(f, int(BinaryOp::Imul), &[p, c64])),
                            k.wrapping_mul(c),
                        )
                    }
                    _ => {
                        let (p, q) = (join(f, at, a), join(f, at, b));
                        (Some(emit(f, int(BinaryOp::Imul), &[p, q])), 0)
                    }
                },
            }
        }
        _ => (Some(emit(f, Op::Convert(ConvOp::Sext), &[x])), 0),
    };
    memo.insert(x, split);
    split
}

/// Whether multiplication `i` has a constant operand. A product of two variables stays
/// narrow and is extended whole: where its operands differ between work-items (a gather's
/// `gy * width`), the CPU device computes it in vectors, and x86-64 multiplies 64-bit lanes
/// only with AVX-512 (elsewhere three multiplications and shifts per half); the extension of
/// a product that is the same in every lane (`y * width`) costs nothing either way.
fn by_constant(f: &Function, i: Inst) -> bool {
    f.dfg.insts[i]
        .args
        .iter()
        .any(|&a| f.dfg.iconst_value(a).is_some())
}

/// `base + offset` as one value, computed before `at`.
fn join(f: &mut Function, at: Inst, (base, offset): Split) -> Value {
    let mut emit = |op: Op, args: &[Value]| {
        let i = f.insert_inst_before(at, InstData::new(op, args), Some(Type::I64));
        f.dfg.inst_result(i).expect("has a result")
    };
    match base {
        None => emit(Op::Iconst(offset as u64), &[]),
        Some(b) if offset == 0 => b,
        Some(b) => {
            let k = emit(Op::Iconst(offset as u64), &[]);
            emit(Op::Binary(BinaryOp::Iadd), &[b, k])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::FunctionBuilder;
    use crate::function::Signature;
    use crate::types::AddrSpace;

    /// `p[y * w + x]` with `int` operands, the sum marked or not; the offset's extension
    /// scaled by 4 and added to `p`.
    fn indexed(mark: bool, other_use: bool) -> Function {
        let p = Type::ptr(AddrSpace::Global);
        let mut f = Function::new(
            "k",
            Signature {
                params: vec![p, Type::I32, Type::I32, Type::I32],
                ret: None,
                variadic: false,
            },
        );
        let mut b = FunctionBuilder::new(&mut f);
        let entry = b.create_entry_block();
        let a = b.block_params(entry).to_vec();
        let m = b.binary(BinaryOp::Imul, a[2], a[3]);
        let s = b.binary(BinaryOp::Iadd, m, a[1]);
        let e = b.convert(ConvOp::Sext, s, Type::I64);
        let four = b.iconst(Type::I64, 4);
        let o = b.imul(e, four);
        let q = b.ptradd(a[0], o);
        let v = b.load(Type::I64, q, 8, false);
        if other_use {
            let sum = b.binary(BinaryOp::Iadd, v, e);
            b.store(sum, q, 8, false);
        } else {
            b.store(v, q, 8, false);
        }
        b.ret(None);
        if mark {
            for v in [m, s] {
                let ValueDef::Result(i) = f.dfg.value_def(v) else {
                    unreachable!()
                };
                f.no_signed_wrap.insert(i);
            }
        }
        f
    }

    /// The operations left defining the `ptradd`'s offset, outermost first.
    fn offset_ops(f: &Function) -> Vec<Op> {
        let mut ops = Vec::new();
        let mut work = Vec::new();
        for &b in f.layout.blocks() {
            for &i in f.layout.block_insts(b) {
                if f.dfg.insts[i].op == Op::PtrAdd {
                    work.push(f.dfg.insts[i].args[1]);
                }
            }
        }
        while let Some(v) = work.pop() {
            if let ValueDef::Result(i) = f.dfg.value_def(f.dfg.resolve(v)) {
                let d = &f.dfg.insts[i];
                ops.push(d.op.clone());
                if !matches!(d.op, Op::Convert(_) | Op::Iconst(_)) {
                    work.extend(d.args.iter().copied());
                }
            }
        }
        ops
    }

    #[test]
    fn a_marked_sum_used_as_an_offset_is_computed_wide() {
        let mut f = indexed(true, false);
        assert!(widen(&mut f));
        let ops = offset_ops(&f);
        // imul (by 4), then the iadd in 64 bits of the extended product and the extended x;
        // the product of two variables is extended whole.
        assert_eq!(ops[0], Op::Binary(BinaryOp::Imul));
        assert!(ops.contains(&Op::Binary(BinaryOp::Iadd)));
        assert_eq!(
            ops.iter()
                .filter(|o| **o == Op::Convert(ConvOp::Sext))
                .count(),
            2
        );
        assert_eq!(
            ops.iter()
                .filter(|o| **o == Op::Binary(BinaryOp::Imul))
                .count(),
            1,
            "the scaling by 4 alone: the product is under its extension: {ops:?}"
        );
        let mut m = Module::default();
        m.funcs.push(f);
        crate::verify::verify_module(&m).expect("valid after widening");
    }

    #[test]
    fn an_unmarked_sum_or_one_used_elsewhere_keeps_its_extension() {
        for (mark, other) in [(false, false), (true, true)] {
            let mut f = indexed(mark, other);
            assert!(!widen(&mut f), "mark {mark}, other use {other}");
        }
    }

    #[test]
    fn the_pass_clears_the_marks() {
        let mut m = Module::default();
        m.funcs.push(indexed(true, false));
        run(&mut m);
        assert!(m.funcs.values().all(|f| f.no_signed_wrap.is_empty()));
    }
}
