//! Constant folding and algebraic simplification with exact C and IEEE-754 semantics: the
//! lane semantics are the interpreter's own ([`crate::eval`]), so folding and execution agree.
//!
//! Only what has one defined result on every device is folded:
//! - integer arithmetic wraps at the lane width; shift amounts are taken modulo the width
//!   (6.5.10); division and remainder by zero, and signed `MIN / -1`, are left alone (6.5.1:
//!   the result is unspecified, so the device decides);
//! - float arithmetic is folded in `f32`/`f64` with round-to-nearest-even, as the device
//!   computes it, except when an operand or the result is a NaN (payloads differ between
//!   devices) or an `f32` subnormal (devices without CL_FP_DENORM flush them); `f16` is not
//!   folded;
//! - conversions are folded in every rounding mode, exactly (`crate::float`), to and from
//!   `f32`/`f64`;
//! - identities hold for every input: `x + 0`, `x * 1`, `x & x`, `x - x`... on integers only
//!   (float identities like `x + 0.0` fail for `-0.0`).
//!
//! Branches on constants become jumps; the pass leaves unreachable blocks to `simplify_cfg`.
//!
//! A load from a program-scope `__constant` variable at a constant offset (a coefficient
//! table indexed by constants, `kx[2]`) reads its initializer: the constant address space is
//! read-only (OpenCL C 6.7.3: "Variables ... in the __constant address space ... are
//! read-only"), so the value is known when the program is built.

use crate::analysis::{Cfg, DomTree};
use crate::dfg::ValueDef;
use crate::entity::{Global, PrimaryMap};
use crate::entity::{Inst, Value};
use crate::eval::{self, mask};
use crate::function::Function;
use crate::inst::*;
use crate::module::{GlobalData, Module};
use crate::types::Type;
use crate::AddrSpace;

/// Folds every function.
pub fn run(m: &mut Module) {
    for (_, f) in m.funcs.iter_mut() {
        if !f.is_declaration() {
            fold_constant_loads(f, &m.globals);
            fold_function(f);
        }
    }
}

/// Replaces each non-volatile integer or float load from a defined `__constant` variable, at
/// a constant offset within it and clear of its relocations, by the constant its initializer
/// holds there; returns whether any was.
pub fn fold_constant_loads(f: &mut Function, globals: &PrimaryMap<Global, GlobalData>) -> bool {
    let mut changed = false;
    for b in f.layout.blocks().to_vec() {
        for i in f.layout.block_insts(b).to_vec() {
            let data = &f.dfg.insts[i];
            let Op::Load(fl) = data.op else { continue };
            if fl.volatile || fl.space != AddrSpace::Constant {
                continue;
            }
            let Some(r) = f.dfg.inst_result(i) else {
                continue;
            };
            let ty = f.dfg.value_type(r);
            if !(ty.lane_type().is_int() || ty.lane_type().is_float()) {
                continue;
            }
            let Some((g, offset)) = constant_address(f, data.args[0]) else {
                continue;
            };
            let gd = &globals[g];
            let (lanes, bytes) = (ty.lanes() as usize, ty.lane_bits().div_ceil(8) as usize);
            let end = offset.checked_add((lanes * bytes) as i64);
            let in_bounds = offset >= 0 && end.is_some_and(|e| e <= i64::from(gd.size));
            if gd.space != AddrSpace::Constant || gd.external || !in_bounds {
                continue;
            }
            let (start, end) = (offset as u32, end.unwrap_or(0) as u32);
            if gd
                .relocs
                .iter()
                .any(|rl| rl.offset + 8 > start && rl.offset < end)
            {
                continue;
            }
            let zeros = vec![0u8; gd.size as usize];
            let init = gd.init.as_deref().unwrap_or(&zeros);
            let values: Vec<u64> = (0..lanes)
                .map(|l| {
                    let at = start as usize + l * bytes;
                    let mut v = [0u8; 8];
                    v[..bytes].copy_from_slice(&init[at..at + bytes]);
                    u64::from_le_bytes(v) & mask(ty.lane_bits())
                })
                .collect();
            f.dfg.insts[i] = InstData {
                op: vector_const(values, ty),
                args: Vec::new(),
            };
            changed = true;
        }
    }
    changed
}

/// The `__constant`-or-other global and constant byte offset that `p` addresses, through
/// `ptradd`s by constants.
fn constant_address(f: &Function, p: Value) -> Option<(Global, i64)> {
    let mut offset = 0i64;
    let mut p = f.dfg.resolve(p);
    for _ in 0..64 {
        let ValueDef::Result(i) = f.dfg.value_def(p) else {
            return None;
        };
        let d = &f.dfg.insts[i];
        match d.op {
            Op::GlobalAddr(g) => return Some((g, offset)),
            Op::PtrAdd => {
                let c = f.dfg.iconst_value(f.dfg.resolve(d.args[1]))?;
                let w = f.dfg.value_type(d.args[1]).lane_bits();
                offset = offset.checked_add(((c << (64 - w)) as i64) >> (64 - w))?;
                p = f.dfg.resolve(d.args[0]);
            }
            _ => return None,
        }
    }
    None
}

#[derive(Copy, Clone, PartialEq, Debug)]
enum K {
    Int(u64),
    Float(u64),
}

/// What an instruction folds to.
enum Fold {
    Const(Op),
    Value(Value),
    Jump(Dest),
    /// Another operation on existing values, with the same result type.
    Rewrite(Op, Vec<Value>),
}

/// Folds `f` until nothing changes; returns whether anything did.
pub fn fold_function(f: &mut Function) -> bool {
    let mut changed_any = false;
    for _ in 0..8 {
        let cfg = Cfg::new(f);
        let dom = DomTree::new(f, &cfg);
        let mut changed = false;
        for &b in dom.rpo() {
            let insts: Vec<Inst> = f.layout.block_insts(b).to_vec();
            for i in insts {
                let resolved: Vec<Value> = f.dfg.insts[i]
                    .args
                    .iter()
                    .map(|&a| f.dfg.resolve(a))
                    .collect();
                f.dfg.insts[i].args = resolved;
                let fr: &Function = f;
                let action = fold_inst(&Cx { f: fr, lane: None }, i).or_else(|| fold_lanes(fr, i));
                let Some(action) = action else {
                    continue;
                };
                changed = true;
                match action {
                    Fold::Const(op) => {
                        f.dfg.insts[i] = InstData {
                            op,
                            args: Vec::new(),
                        }
                    }
                    Fold::Value(v) => {
                        let r = f
                            .dfg
                            .inst_result(i)
                            .expect("folded instruction has a result");
                        f.layout.remove_inst(i);
                        f.dfg.change_to_alias(r, v);
                    }
                    Fold::Jump(d) => {
                        f.dfg.insts[i] = InstData {
                            op: Op::Jump(d),
                            args: Vec::new(),
                        }
                    }
                    Fold::Rewrite(op, args) => f.dfg.insts[i] = InstData { op, args },
                }
            }
        }
        f.resolve_aliases();
        changed_any |= changed;
        if !changed {
            break;
        }
    }
    changed_any
}

/// The function being folded, and the lane being evaluated when a vector constant with
/// unequal lanes is folded lane by lane (`None`: whole values only).
struct Cx<'a> {
    f: &'a Function,
    lane: Option<usize>,
}

impl std::ops::Deref for Cx<'_> {
    type Target = Function;
    fn deref(&self) -> &Function {
        self.f
    }
}

fn konst(f: &Cx, v: Value) -> Option<K> {
    match f.dfg.values.get(v)?.def {
        ValueDef::Result(i) => match &f.dfg.insts[i].op {
            Op::Iconst(c) => Some(K::Int(*c)),
            Op::Fconst(c) => Some(K::Float(*c)),
            Op::Vconst(lanes) => {
                let c = *lanes.get(f.lane?)?;
                Some(if f.dfg.value_type(v).is_float() {
                    K::Float(c)
                } else {
                    K::Int(c)
                })
            }
            _ => None,
        },
        _ => None,
    }
}

/// The lanes of a constant vector (or splatted scalar constant) `v`.
fn const_lanes(f: &Function, v: Value) -> Option<Vec<u64>> {
    let n = f.dfg.value_type(v).lanes() as usize;
    match f.dfg.values.get(v)?.def {
        ValueDef::Result(i) => match &f.dfg.insts[i].op {
            Op::Iconst(c) | Op::Fconst(c) => Some(vec![*c; n]),
            Op::Vconst(lanes) => Some(lanes.to_vec()),
            _ => None,
        },
        _ => None,
    }
}

/// The constant instruction for `lanes` of type `ty`: a splat when the lanes are equal.
fn vector_const(lanes: Vec<u64>, ty: Type) -> Op {
    match lanes.first() {
        Some(&c) if lanes.iter().all(|&x| x == c) => {
            if ty.is_float() {
                Op::Fconst(c)
            } else {
                Op::Iconst(c)
            }
        }
        _ => Op::Vconst(lanes.into()),
    }
}

/// Folds a lane-wise operation on constant vectors with unequal lanes, one lane at a time.
fn fold_lanes(f: &Function, i: Inst) -> Option<Fold> {
    let data = &f.dfg.insts[i];
    let rty = f.dfg.value_type(f.dfg.inst_result(i)?);
    let lanewise = match data.op {
        Op::Unary(_)
        | Op::Binary(_)
        | Op::Fma
        | Op::Icmp(_)
        | Op::Fcmp(_)
        | Op::Convert(_)
        | Op::Select => true,
        Op::Bitcast => {
            let t = f.dfg.value_type(data.args[0]);
            t.lanes() == rty.lanes() && t.lane_bits() == rty.lane_bits()
        }
        _ => false,
    };
    if !rty.is_vector() || !lanewise {
        return None;
    }
    let any_vconst = data.args.iter().any(|&a| {
        matches!(f.dfg.value_def(a), ValueDef::Result(d) if matches!(f.dfg.insts[d].op, Op::Vconst(_)))
    });
    if !any_vconst {
        return None;
    }
    let mut lanes = Vec::with_capacity(rty.lanes() as usize);
    for k in 0..rty.lanes() as usize {
        let cx = Cx { f, lane: Some(k) };
        if data.args.iter().any(|&a| konst(&cx, a).is_none()) {
            return None;
        }
        let c = match fold_inst(&cx, i)? {
            Fold::Const(Op::Iconst(c) | Op::Fconst(c)) => c,
            Fold::Value(v) => match konst(&cx, v)? {
                K::Int(c) | K::Float(c) => c,
            },
            _ => return None,
        };
        lanes.push(c);
    }
    Some(Fold::Const(vector_const(lanes, rty)))
}

fn int(f: &Cx, v: Value) -> Option<u64> {
    match konst(f, v)? {
        K::Int(c) => Some(c),
        K::Float(_) => None,
    }
}

fn def_op(f: &Function, v: Value) -> Option<(&Op, &[Value])> {
    match f.dfg.values.get(v)?.def {
        ValueDef::Result(i) => Some((&f.dfg.insts[i].op, &f.dfg.insts[i].args)),
        _ => None,
    }
}

/// A float lane value that may be folded: not NaN, and not an `f32` subnormal.
fn foldable_float(bits: u64, ty: Type) -> Option<f64> {
    match ty.lane_bits() {
        32 => {
            let x = f32::from_bits(bits as u32);
            (!x.is_nan() && !x.is_subnormal()).then_some(f64::from(x))
        }
        64 => {
            let x = f64::from_bits(bits);
            (!x.is_nan()).then_some(x)
        }
        _ => None,
    }
}

/// The bits of `x` in `ty`'s lane format, if `x` is exactly representable there and may be
/// folded.
fn float_bits(x: f64, ty: Type) -> Option<u64> {
    match ty.lane_bits() {
        32 => {
            let y = x as f32;
            (f64::from(y) == x || x.is_infinite())
                .then_some(u64::from(y.to_bits()))
                .filter(|&b| foldable_float(b, ty).is_some())
        }
        64 => (!x.is_nan()).then_some(x.to_bits()),
        _ => None,
    }
}

fn fold_inst(f: &Cx, i: Inst) -> Option<Fold> {
    let data = &f.dfg.insts[i];
    let a = &data.args[..];
    let rty = f.dfg.inst_result(i).map(|r| f.dfg.value_type(r));
    match &data.op {
        Op::Brif(d) => {
            let c = int(f, a[0])?;
            Some(Fold::Jump(if c != 0 { d.0.clone() } else { d.1.clone() }))
        }
        Op::Switch(t) => {
            let c = int(f, a[0])?;
            let d = t
                .cases
                .iter()
                .find(|(k, _)| *k == c)
                .map_or(&t.default, |(_, d)| d);
            Some(Fold::Jump(d.clone()))
        }
        Op::Unary(op) => fold_unary(f, *op, a[0], rty?),
        Op::Binary(op) => fold_binary(f, *op, a[0], a[1], rty?),
        Op::Fma => {
            let ty = rty?;
            if ty.lane_bits() != 32 && ty.lane_bits() != 64 {
                return None;
            }
            let mut xs = [0f64; 3];
            for (k, &v) in a.iter().enumerate() {
                let K::Float(b) = konst(f, v)? else {
                    return None;
                };
                xs[k] = foldable_float(b, ty)?;
            }
            let r = if ty.lane_bits() == 32 {
                f64::from((xs[0] as f32).mul_add(xs[1] as f32, xs[2] as f32))
            } else {
                xs[0].mul_add(xs[1], xs[2])
            };
            Some(Fold::Const(Op::Fconst(float_bits(r, ty)?)))
        }
        Op::Icmp(cc) => {
            let t = f.dfg.value_type(a[0]);
            if t.lane_type() == Type::I1 {
                if let Some(r) = boolean_test(f, *cc, a[0], a[1]) {
                    return Some(r);
                }
            }
            // `b != 0` of a boolean widened to an integer (a relational result, the condition
            // of `select`) is the boolean.
            if *cc == IntCC::Ne {
                for (x, z) in [(a[0], a[1]), (a[1], a[0])] {
                    if int(f, z) != Some(0) {
                        continue;
                    }
                    if let Some((Op::Convert(ConvOp::Zext | ConvOp::Sext), [b])) = def_op(f, x) {
                        if Some(f.dfg.value_type(*b)) == rty {
                            return Some(Fold::Value(*b));
                        }
                    }
                    // And of `&`, `|` or `^` of two such (`(x != x) | (y != y)` as the
                    // condition of `select`): the same operation on the booleans, which the
                    // W-wide code does on the masks, without widening each to 0 or 1.
                    if let Some(r) = boolean_logic(f, x, rty) {
                        return Some(r);
                    }
                }
            }
            // `m < 0` of a boolean sign-extended to an integer (true is all ones, so negative)
            // is the boolean: the vector `select` of 6.15.6 tests the condition's most
            // significant bit, and a comparison's vector result widened by sext feeds it.
            let negative = match cc {
                IntCC::Slt => Some((a[0], a[1])),
                IntCC::Sgt => Some((a[1], a[0])),
                _ => None,
            };
            if let Some((x, z)) = negative {
                if let (Some(0), Some((Op::Convert(ConvOp::Sext), [b]))) = (int(f, z), def_op(f, x))
                {
                    if Some(f.dfg.value_type(*b)) == rty {
                        return Some(Fold::Value(*b));
                    }
                }
            }
            if a[0] == a[1] && t.is_int() {
                let r = matches!(
                    cc,
                    IntCC::Eq | IntCC::Sle | IntCC::Sge | IntCC::Ule | IntCC::Uge
                );
                return Some(Fold::Const(Op::Iconst(u64::from(r))));
            }
            let (x, y) = (int(f, a[0])?, int(f, a[1])?);
            let r = eval::icmp(*cc, x, y, t.lane_bits());
            Some(Fold::Const(Op::Iconst(u64::from(r))))
        }
        Op::Fcmp(cc) => {
            let t = f.dfg.value_type(a[0]);
            let (K::Float(x), K::Float(y)) = (konst(f, a[0])?, konst(f, a[1])?) else {
                return None;
            };
            let (x, y) = match t.lane_bits() {
                32 => (
                    f64::from(f32::from_bits(x as u32)),
                    f64::from(f32::from_bits(y as u32)),
                ),
                64 => (f64::from_bits(x), f64::from_bits(y)),
                _ => return None,
            };
            // Subnormal f32 operands may be flushed to zero by the device.
            if t.lane_bits() == 32 && [x, y].iter().any(|v| (*v as f32).is_subnormal()) {
                return None;
            }
            Some(Fold::Const(Op::Iconst(u64::from(cc.eval(x, y)))))
        }
        Op::Select => {
            if a[1] == a[2] {
                return Some(Fold::Value(a[1]));
            }
            let c = int(f, a[0])?;
            Some(Fold::Value(if c != 0 { a[1] } else { a[2] }))
        }
        Op::Convert(c) => fold_convert(f, *c, a[0], rty?),
        Op::Bitcast => {
            let t = f.dfg.value_type(a[0]);
            let r = rty?;
            if t.lanes() != r.lanes() || t.lane_bits() != r.lane_bits() {
                return None;
            }
            let bits = match konst(f, a[0])? {
                K::Int(c) | K::Float(c) => c,
            };
            Some(Fold::Const(if r.is_float() {
                Op::Fconst(bits)
            } else {
                Op::Iconst(bits)
            }))
        }
        Op::Splat => match konst(f, a[0])? {
            K::Int(c) => Some(Fold::Const(Op::Iconst(c))),
            K::Float(c) => Some(Fold::Const(Op::Fconst(c))),
        },
        Op::ExtractLane(first) => {
            // Through the insertions that built the vector (code that writes a vector's
            // components one by one, `t.x = ...; t.y = ...;`, as VkFFT generates it): the
            // value last inserted at this lane, or the lane of the vector before them; and
            // through shuffles, to the lane of the source each picks (OpenCV's pyramids build
            // `uchar4`s of `line.s345` and a byte: a 3-lane vector only read lane by lane).
            let (mut v, mut n) = (a[0], *first);
            loop {
                match def_op(f, v) {
                    Some((Op::InsertLane(m), ia)) => {
                        if *m == n {
                            return Some(Fold::Value(ia[1]));
                        }
                        v = ia[0];
                    }
                    Some((Op::Shuffle(mask), sa)) => {
                        let pick = *mask.get(usize::from(n))?;
                        let lanes = f.dfg.value_type(sa[0]).lanes();
                        (v, n) = match u32::from(pick).checked_sub(lanes) {
                            None => (sa[0], pick),
                            Some(p) if p < lanes => (sa[1], p as u8),
                            Some(_) => break,
                        };
                    }
                    _ => break,
                }
            }
            if let Some((Op::Splat, sa)) = def_op(f, v) {
                return Some(Fold::Value(sa[0]));
            }
            let Some(c) = const_lanes(f, v).and_then(|l| l.get(usize::from(n)).copied()) else {
                let moved = v != a[0] || n != *first;
                return moved.then(|| Fold::Rewrite(Op::ExtractLane(n), vec![v]));
            };
            let lane = f.dfg.value_type(a[0]).lane_type();
            Some(Fold::Const(if lane.is_float() {
                Op::Fconst(c)
            } else {
                Op::Iconst(c)
            }))
        }
        Op::InsertLane(n) => {
            // A lane written twice: the first write is never read through this vector.
            if let Some((Op::InsertLane(m), ia)) = def_op(f, a[0]) {
                if m == n {
                    return Some(Fold::Rewrite(Op::InsertLane(*n), vec![ia[0], a[1]]));
                }
            }
            let mut lanes = const_lanes(f, a[0])?;
            let x = match konst(&Cx { f: f.f, lane: None }, a[1])? {
                K::Int(c) | K::Float(c) => c,
            };
            *lanes.get_mut(usize::from(*n))? = x;
            Some(Fold::Const(vector_const(lanes, rty?)))
        }
        Op::Shuffle(mask) => {
            let all: Vec<u64> = const_lanes(f, a[0])?
                .into_iter()
                .chain(const_lanes(f, a[1])?)
                .collect();
            let lanes = mask
                .iter()
                .map(|&m| all.get(usize::from(m)).copied())
                .collect::<Option<Vec<u64>>>()?;
            Some(Fold::Const(vector_const(lanes, rty?)))
        }
        _ => None,
    }
}

/// `x` = `zext a OP zext b` (OP `&`, `|` or `^`, both widened by zext from booleans of type
/// `rty`): `a OP b`, which is `x != 0`.
fn boolean_logic(f: &Cx, x: Value, rty: Option<Type>) -> Option<Fold> {
    let Some((Op::Binary(op @ (BinaryOp::Band | BinaryOp::Bor | BinaryOp::Bxor)), [p, q])) =
        def_op(f, x)
    else {
        return None;
    };
    let widened = |v: Value| match def_op(f, v) {
        Some((Op::Convert(ConvOp::Zext), [b])) if Some(f.dfg.value_type(*b)) == rty => Some(*b),
        _ => None,
    };
    let (a, b) = (widened(*p)?, widened(*q)?);
    Some(Fold::Rewrite(Op::Binary(*op), vec![a, b]))
}

/// `b == c` or `b != c` of a boolean (lanes of) `b` and a constant `c`: `b` itself, or its
/// negation (`!(x < y)` in C is `(x < y) == 0`); a negated comparison is the inverse
/// comparison, which a SIMD target makes in one instruction where a negation of the mask
/// would take a compare and an exclusive or (and the CPU device's code generation had no
/// SIMD form of an `icmp` of masks at all).
fn boolean_test(f: &Cx, cc: IntCC, x: Value, y: Value) -> Option<Fold> {
    let (b, c) = match (int(f, x), int(f, y)) {
        (None, Some(c)) => (x, c),
        (Some(c), None) => (y, c),
        _ => return None,
    };
    let keep = match cc {
        IntCC::Eq => c & 1 == 1,
        IntCC::Ne => c & 1 == 0,
        _ => return None,
    };
    if keep {
        return Some(Fold::Value(b));
    }
    Some(match def_op(f, b) {
        Some((Op::Fcmp(cc), args)) => Fold::Rewrite(Op::Fcmp(cc.inverse()), args.to_vec()),
        Some((Op::Icmp(cc), args)) => Fold::Rewrite(Op::Icmp(cc.inverse()), args.to_vec()),
        _ => Fold::Rewrite(Op::Unary(UnaryOp::Bnot), vec![b]),
    })
}

fn fold_unary(f: &Cx, op: UnaryOp, x: Value, ty: Type) -> Option<Fold> {
    // Involutions: exact for every input.
    if let Some((Op::Unary(inner), ia)) = def_op(f, x) {
        if *inner == op && matches!(op, UnaryOp::Ineg | UnaryOp::Bnot | UnaryOp::Fneg) {
            return Some(Fold::Value(ia[0]));
        }
    }
    match konst(f, x)? {
        K::Int(c) => match op {
            // The interpreter's semantics, so that folding and execution agree.
            UnaryOp::Ineg | UnaryOp::Bnot | UnaryOp::Clz | UnaryOp::Ctz | UnaryOp::Popcnt => {
                Some(Fold::Const(Op::Iconst(eval::unary(op, c, ty))))
            }
            _ => None,
        },
        K::Float(c) => {
            // Sign operations are exact on every input; the others only on foldable ones.
            if !matches!(op, UnaryOp::Fneg | UnaryOp::Fabs) {
                foldable_float(c, ty)?;
            }
            let r = eval::unary(op, c, ty);
            if !matches!(op, UnaryOp::Fneg | UnaryOp::Fabs) {
                foldable_float(r, ty)?;
            }
            Some(Fold::Const(Op::Fconst(r)))
        }
    }
}

fn fold_binary(f: &Cx, op: BinaryOp, x: Value, y: Value, ty: Type) -> Option<Fold> {
    if op.is_float() {
        return fold_float_binary(f, op, x, y, ty);
    }
    let w = ty.lane_bits();
    let m = mask(w);
    let (cx, cy) = (int(f, x), int(f, y));
    // Identities that hold for every value of the other operand.
    let same = x == y;
    let zero = Fold::Const(Op::Iconst(0));
    let simplified = match op {
        BinaryOp::Iadd | BinaryOp::Bor | BinaryOp::Bxor if cy == Some(0) => Some(Fold::Value(x)),
        BinaryOp::Iadd | BinaryOp::Bor | BinaryOp::Bxor if cx == Some(0) => Some(Fold::Value(y)),
        BinaryOp::Isub if cy == Some(0) => Some(Fold::Value(x)),
        BinaryOp::Isub | BinaryOp::Bxor if same => Some(zero),
        BinaryOp::Imul if cy == Some(1) => Some(Fold::Value(x)),
        BinaryOp::Imul if cx == Some(1) => Some(Fold::Value(y)),
        BinaryOp::Imul | BinaryOp::Band if cy == Some(0) || cx == Some(0) => Some(zero),
        BinaryOp::Band if cy == Some(m) => Some(Fold::Value(x)),
        BinaryOp::Band if cx == Some(m) => Some(Fold::Value(y)),
        BinaryOp::Bor if cy == Some(m) || cx == Some(m) => Some(Fold::Const(Op::Iconst(m))),
        BinaryOp::Band
        | BinaryOp::Bor
        | BinaryOp::Smin
        | BinaryOp::Smax
        | BinaryOp::Umin
        | BinaryOp::Umax
            if same =>
        {
            Some(Fold::Value(x))
        }
        BinaryOp::Shl | BinaryOp::Lshr | BinaryOp::Ashr | BinaryOp::Rotl
            if cy.is_some_and(|c| c & u64::from(w - 1) == 0) =>
        {
            Some(Fold::Value(x))
        }
        BinaryOp::Sdiv | BinaryOp::Udiv if cy == Some(1) => Some(Fold::Value(x)),
        BinaryOp::Srem | BinaryOp::Urem if cy == Some(1) => Some(zero),
        _ => None,
    };
    if simplified.is_some() {
        return simplified;
    }
    // 6.5.1: division by zero and overflow give unspecified values; leave them.
    let r = eval::binary(op, cx?, cy?, ty).defined()?;
    Some(Fold::Const(Op::Iconst(r)))
}

fn fold_float_binary(f: &Cx, op: BinaryOp, x: Value, y: Value, ty: Type) -> Option<Fold> {
    let w = ty.lane_bits();
    let (K::Float(bx), K::Float(by)) = (konst(f, x)?, konst(f, y)?) else {
        return None;
    };
    if op == BinaryOp::Copysign && (w == 32 || w == 64 || w == 16) {
        let sign = 1u64 << (w - 1);
        return Some(Fold::Const(Op::Fconst((bx & !sign) | (by & sign))));
    }
    let (a, b) = (foldable_float(bx, ty)?, foldable_float(by, ty)?);
    // fmin(-0, +0) may return either zero: leave it to the device.
    if matches!(op, BinaryOp::Fmin | BinaryOp::Fmax) && a == 0.0 && b == 0.0 {
        return None;
    }
    let r = eval::binary(op, bx, by, ty).bits();
    foldable_float(r, ty)?;
    Some(Fold::Const(Op::Fconst(r)))
}

fn fold_convert(f: &Cx, c: ConvOp, x: Value, rty: Type) -> Option<Fold> {
    let t = f.dfg.value_type(x);
    // A 32-bit integer extended, then converted to float: the same value converted from the
    // 32 bits (a sign extension keeps the signed value, a zero extension the unsigned one),
    // rounded alike. `(double)(long)i` needs no vector of 64-bit lanes.
    if let Some((Op::Convert(ext @ (ConvOp::Zext | ConvOp::Sext)), [b])) = def_op(f, x) {
        let narrow = f.dfg.value_type(*b).lane_type() == Type::I32;
        let to_float = match (c, ext) {
            (ConvOp::SintToFloat(r), ConvOp::Sext) => Some(ConvOp::SintToFloat(r)),
            (ConvOp::SintToFloat(r) | ConvOp::UintToFloat(r), ConvOp::Zext) => {
                Some(ConvOp::UintToFloat(r))
            }
            _ => None,
        };
        if let (true, Some(conv)) = (narrow, to_float) {
            return Some(Fold::Rewrite(Op::Convert(conv), vec![*b]));
        }
    }
    let (ws, wd) = (t.lane_bits(), rty.lane_bits());
    let exact = |bits: u64| eval::convert(c, bits, t, rty).defined();
    match (c, konst(f, x)?) {
        (ConvOp::Trunc | ConvOp::Zext | ConvOp::Sext | ConvOp::SatInt { .. }, K::Int(v)) => {
            Some(Fold::Const(Op::Iconst(exact(v)?)))
        }
        (ConvOp::SintToFloat(_) | ConvOp::UintToFloat(_), K::Int(v)) => {
            if wd != 32 && wd != 64 {
                return None;
            }
            let bits = exact(v)?;
            foldable_float(bits, rty)?;
            Some(Fold::Const(Op::Fconst(bits)))
        }
        (ConvOp::FloatToSint { .. } | ConvOp::FloatToUint { .. }, K::Float(b)) => {
            // Only foldable sources: no f16, no f32 subnormal; NaN only saturated (then 0).
            if !matches!(ws, 32 | 64) || (ws == 32 && f32::from_bits(b as u32).is_subnormal()) {
                return None;
            }
            Some(Fold::Const(Op::Iconst(exact(b)?)))
        }
        (ConvOp::Fconv(_), K::Float(b)) => {
            if !matches!(ws, 32 | 64) || !matches!(wd, 32 | 64) {
                return None;
            }
            foldable_float(b, t)?;
            let bits = exact(b)?;
            foldable_float(bits, rty)?;
            Some(Fold::Const(Op::Fconst(bits)))
        }
        _ => None,
    }
}
