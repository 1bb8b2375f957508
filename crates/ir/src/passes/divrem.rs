//! A quotient and a remainder by the same constant, added back together: the common way to
//! walk a 2-D tile with one counter (`tile[k / W][k % W]`, `in[(k / W) * pitch + k % W]`
//! with `pitch == W`) computes `(k / c) * c * s + (k % c) * s`, which is `k * s`.
//!
//! The identity is exact. C's division truncates and its remainder keeps the sign of the
//! dividend (6.5.5 of C99, which OpenCL C follows), so for c ≠ 0 (and c ≠ -1 for signed
//! division, whose `MIN / -1` is unspecified) `(k / c) * c + k % c == k` holds in the
//! integers, with both sides representable in k's type; it holds modulo 2^n too, so for the
//! terms scaled by any s in wrapping arithmetic. After a sign extension of the signed pair (or
//! a zero extension of the unsigned pair) it holds for the extended values, again exactly.
//!
//! Written as `k * s` the address is affine in the work-item id wherever `k` is, so the CPU
//! device's vectorizer turns the access into one vector access instead of a lane-by-lane
//! gather or scatter; every device saves the division's multiplications.
//!
//! The pass looks at each integer `iadd` and pointer `ptradd` and at the sums below it (up to
//! [`MAX_TERMS`] terms), finds a term `q * (c * s)` and a term `r * s` (a multiplication or
//! left shift by a constant, or `s = 1`) with `q` and `r` the quotient and remainder of one
//! dividend by one constant, each through the same extension or none, and rebuilds the sum
//! with `k * s` in their place. The old terms are left to dead-code elimination.

use crate::entity::{Inst, Value};
use crate::eval::{mask, sext};
use crate::function::Function;
use crate::inst::{BinaryOp, ConvOp, InstData, Op};
use crate::module::Module;

/// The most terms of a sum that are searched for a pair.
const MAX_TERMS: usize = 6;

/// Recombines in every function.
pub fn run(m: &mut Module) {
    for (_, f) in m.funcs.iter_mut() {
        if !f.is_declaration() {
            recombine(f);
        }
    }
}

/// A term of a sum: `leaf * coef` (the coefficient in the sum's width), and how to scale
/// another value the same way (the instruction that scales `leaf`, if any).
#[derive(Copy, Clone)]
struct Term {
    value: Value,
    leaf: Value,
    coef: u64,
    scale: Option<Inst>,
}

/// The parts of `k / c` or `k % c`, seen through an extension: (extension, operation, k, c).
type DivRem = (Option<ConvOp>, BinaryOp, Value, u64);

/// Recombines the sums of `f`; returns whether any changed.
pub fn recombine(f: &mut Function) -> bool {
    let mut changed = false;
    let blocks = f.layout.blocks().to_vec();
    for b in blocks {
        let insts = f.layout.block_insts(b).to_vec();
        for i in insts {
            if !matches!(f.dfg.insts[i].op, Op::PtrAdd | Op::Binary(BinaryOp::Iadd)) {
                continue;
            }
            let Some(result) = f.dfg.inst_result(i) else {
                continue;
            };
            if f.dfg.value_type(result).is_vector() {
                continue;
            }
            let (base, terms) = sum(f, i);
            let Some((x, y, k)) = pair(f, &terms) else {
                continue;
            };
            let new = rebuild(f, i, base, &terms, x, y, k);
            f.layout.remove_inst(i);
            f.dfg.change_to_alias(result, new);
            changed = true;
        }
    }
    if changed {
        f.resolve_aliases();
    }
    changed
}

/// The sum that `top` (an `iadd` or `ptradd`) computes: its pointer base for a `ptradd`
/// chain, and its terms in order.
fn sum(f: &Function, top: Inst) -> (Option<Value>, Vec<Term>) {
    let mut terms = Vec::new();
    let mut base = None;
    // The operands still to split, last first.
    let mut work: Vec<Value> = f.dfg.insts[top].args.iter().rev().copied().collect();
    let is_ptr = matches!(f.dfg.insts[top].op, Op::PtrAdd);
    while let Some(v) = work.pop() {
        let splits = match defining(f, v) {
            Some(d) => {
                let data = &f.dfg.insts[d];
                let fits = terms.len() + work.len() + 2 <= MAX_TERMS;
                match data.op {
                    Op::PtrAdd if is_ptr && base.is_none() && terms.is_empty() && fits => {
                        Some(data.args.clone())
                    }
                    Op::Binary(BinaryOp::Iadd)
                        if !is_ptr && fits && !f.dfg.value_type(v).is_vector() =>
                    {
                        Some(data.args.clone())
                    }
                    _ => None,
                }
            }
            None => None,
        };
        match splits {
            Some(args) => work.extend(args.iter().rev().copied()),
            None if is_ptr && base.is_none() && terms.is_empty() => base = Some(v),
            None => terms.push(term(f, v)),
        }
    }
    (base, terms)
}

/// The instruction defining `v`, if an instruction does.
fn defining(f: &Function, v: Value) -> Option<Inst> {
    match f.dfg.value_def(f.dfg.resolve(v)) {
        crate::dfg::ValueDef::Result(i) => Some(i),
        _ => None,
    }
}

/// `v` as `leaf * coef`.
fn term(f: &Function, v: Value) -> Term {
    let v = f.dfg.resolve(v);
    let plain = Term {
        value: v,
        leaf: v,
        coef: 1,
        scale: None,
    };
    let Some(d) = defining(f, v) else {
        return plain;
    };
    let data = &f.dfg.insts[d];
    let constant = |k: usize| f.dfg.iconst_value(data.args[k]);
    let bits = f.dfg.value_type(v).lane_bits();
    let (leaf, coef) = match data.op {
        Op::Binary(BinaryOp::Imul) => match (constant(0), constant(1)) {
            (_, Some(c)) => (data.args[0], c),
            (Some(c), None) => (data.args[1], c),
            (None, None) => return plain,
        },
        Op::Binary(BinaryOp::Shl) => match constant(1) {
            // 6.3.j: the shift amount is taken modulo the width.
            Some(c) => (
                data.args[0],
                1u64.wrapping_shl((c % u64::from(bits)) as u32),
            ),
            None => return plain,
        },
        _ => return plain,
    };
    Term {
        value: v,
        leaf: f.dfg.resolve(leaf),
        coef: coef & mask(bits),
        scale: Some(d),
    }
}

/// `v` as a quotient or remainder by a constant for which the identity holds, seen through
/// one sign or zero extension that matches its signedness.
fn divrem(f: &Function, v: Value) -> Option<DivRem> {
    let mut inner = f.dfg.resolve(v);
    let mut ext = None;
    let d = defining(f, inner)?;
    if let Op::Convert(op @ (ConvOp::Sext | ConvOp::Zext)) = f.dfg.insts[d].op {
        ext = Some(op);
        inner = f.dfg.resolve(f.dfg.insts[d].args[0]);
    }
    let d = defining(f, inner)?;
    let data = &f.dfg.insts[d];
    let Op::Binary(op @ (BinaryOp::Sdiv | BinaryOp::Srem | BinaryOp::Udiv | BinaryOp::Urem)) =
        data.op
    else {
        return None;
    };
    let ty = f.dfg.value_type(inner);
    if ty.is_vector() {
        return None;
    }
    let bits = ty.lane_bits();
    let c = f.dfg.iconst_value(data.args[1])? & mask(bits);
    let signed = matches!(op, BinaryOp::Sdiv | BinaryOp::Srem);
    let ones = mask(bits);
    // 6.5.5 of C99: the quotient by 0 is undefined, and so is MIN / -1 (not representable).
    let defined = c != 0 && !(signed && c == ones);
    let extension_fits = match ext {
        None => true,
        Some(ConvOp::Sext) => signed,
        Some(_) => !signed,
    };
    if !defined || !extension_fits {
        return None;
    }
    // The divisor as the extended value it is multiplied by.
    let c = if signed && ext.is_some() {
        sext(c, bits) as u64
    } else {
        c
    };
    Some((ext, op, f.dfg.resolve(data.args[0]), c))
}

/// Two terms `x` (quotient) and `y` (remainder), with the dividend, that add up to
/// `dividend * y.coef`.
fn pair(f: &Function, terms: &[Term]) -> Option<(usize, usize, Value)> {
    let parts: Vec<Option<DivRem>> = terms.iter().map(|t| divrem(f, t.leaf)).collect();
    for (x, px) in parts.iter().enumerate() {
        let Some((ext, qop, k, c)) = *px else {
            continue;
        };
        let rop = match qop {
            BinaryOp::Sdiv => BinaryOp::Srem,
            BinaryOp::Udiv => BinaryOp::Urem,
            _ => continue,
        };
        for (y, py) in parts.iter().enumerate() {
            if *py != Some((ext, rop, k, c)) {
                continue;
            }
            let ty = f.dfg.value_type(terms[x].value);
            if ty != f.dfg.value_type(terms[y].value) {
                continue;
            }
            let bits = ty.lane_bits();
            if terms[x].coef == terms[y].coef.wrapping_mul(c) & mask(bits) {
                return Some((x, y, k));
            }
        }
    }
    None
}

/// Emits, before `at`, the sum of `base` and the terms but `x` and `y`, plus `k` scaled as
/// `y` is; returns its value.
fn rebuild(
    f: &mut Function,
    at: Inst,
    base: Option<Value>,
    terms: &[Term],
    x: usize,
    y: usize,
    k: Value,
) -> Value {
    let emit = |f: &mut Function, data: InstData, ty| {
        let i = f.insert_inst_before(at, data, Some(ty));
        f.dfg.inst_result(i).expect("has a result")
    };
    let yterm = terms[y];
    let wide = f.dfg.value_type(yterm.leaf);
    let mut scaled = k;
    if let Some(ext) = defining(f, yterm.leaf).and_then(|d| match f.dfg.insts[d].op {
        Op::Convert(op @ (ConvOp::Sext | ConvOp::Zext)) => Some(op),
        _ => None,
    }) {
        scaled = emit(f, InstData::new(Op::Convert(ext), &[scaled]), wide);
    }
    if let Some(s) = yterm.scale {
        let mut data = f.dfg.insts[s].clone();
        for a in &mut data.args {
            if f.dfg.resolve(*a) == yterm.leaf {
                *a = scaled;
            }
        }
        scaled = emit(f, data, f.dfg.value_type(yterm.value));
    }
    let rest = terms
        .iter()
        .enumerate()
        .filter(|&(j, _)| j != x && j != y)
        .map(|(_, t)| t.value)
        .chain([scaled]);
    let (op, mut acc) = match base {
        Some(p) => (Op::PtrAdd, Some(p)),
        None => (Op::Binary(BinaryOp::Iadd), None),
    };
    for t in rest {
        acc = Some(match acc {
            None => t,
            Some(a) => {
                let ty = f.dfg.value_type(a);
                emit(f, InstData::new(op.clone(), &[a, t]), ty)
            }
        });
    }
    acc.expect("the recombined term")
}
