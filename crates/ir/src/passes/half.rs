//! Half-precision legalization: `f16` arithmetic rewritten as arithmetic on wider floats, so
//! that a device sees `f16` values only in loads, stores, selects, lane operations, calls,
//! bit casts and conversions between `f16` and `f32`/`f64`.
//!
//! Each rule gives the result the `f16` operation itself gives, bit for bit (but for which NaN
//! comes out when a NaN goes in):
//!
//! - `fadd`, `fsub`, `fmul`, `fdiv`, `sqrt`: the operands widened to `f32` (exactly), the
//!   operation in `f32`, the result rounded to `f16` (to nearest even). Rounding twice is
//!   harmless here: for these operations a format of p bits rounds a result of operands of q
//!   bits correctly again to q bits when p ≥ 2q + 2 (Figueroa, "When is double rounding
//!   innocuous?", SIGNUM 1995), and 24 ≥ 2·11 + 2.
//! - `fmin`, `fmax`, `floor`, `ceil`, `ftrunc`, `nearest` and comparisons: exact in `f32`.
//! - `fneg`, `fabs`, `copysign`: on the bits (the sign bit), as the operations are defined.
//! - `fma`: not innocuous through `f32` or `f64` (the exact `a * b + c` can need 79 bits), so
//!   the product is formed exactly in `f32` (22 bits), the sum rounded to odd there (the
//!   round-to-nearest sum, moved one unit toward the exact sum when that is inexact and the
//!   result's last bit is even, the error found by Knuth's TwoSum, exact in `f32` here: the
//!   product's and the addend's bits are multiples of 2^-48 below 2^33), then rounded to
//!   `f16`: rounding to odd in 24 bits and then to nearest in 11 is the correctly rounded
//!   result, 24 ≥ 11 + 2 (Boldo and Melquiond, "Emulation of FMA and correctly rounded sums:
//!   proved algorithms using rounding to odd", IEEE TC 2008). In `f32` rather than `f64`, the
//!   code generator narrows inline, in vectors of twice as many lanes.
//! - integer to `f16`: through `f64` in the same rounding mode. Every integer of up to 53
//!   bits is exact in `f64`; a larger one is past `f16`'s range, which the second rounding
//!   keeps it past (rounding is monotonic), and the directed modes compose.
//! - `f16` to integer: widened to `f32` first (exactly).
//! - work-group and sub-group collectives: computed on `f32` operands and rounded once to
//!   `f16` (broadcasts, minima and maxima exactly; sums and products with no rounding to `f16`
//!   between the terms, which OpenCL C 6.15.16 leaves in an unspecified order anyway).

use crate::entity::{Inst, Value};
use crate::function::Function;
use crate::inst::{BinaryOp, ConvOp, FloatCC, InstData, IntCC, Op, Round, UnaryOp};
use crate::module::Module;
use crate::types::Type;

/// Legalizes every function.
pub fn run(m: &mut Module) {
    for (_, f) in m.funcs.iter_mut() {
        if !f.is_declaration() {
            legalize(f);
        }
    }
}

/// Whether `t` is `f16` or a vector of it.
fn is_half(t: Type) -> bool {
    t.lane_type() == Type::F16
}

/// `t` with its lanes of type `lane`.
fn with_lane(t: Type, lane: Type) -> Type {
    t.with_lane_type(lane)
        .expect("a float vector has an equal integer vector")
}

/// Rewrites the `f16` arithmetic of `f`; returns whether anything changed.
pub fn legalize(f: &mut Function) -> bool {
    let mut changed = false;
    let blocks = f.layout.blocks().to_vec();
    for b in blocks {
        let insts = f.layout.block_insts(b).to_vec();
        for i in insts {
            changed |= legalize_inst(f, i);
        }
    }
    changed
}

/// Emits `op args` of type `ty` before `at`; its result.
fn emit(f: &mut Function, at: Inst, op: Op, args: &[Value], ty: Type) -> Value {
    let i = f.insert_inst_before(at, InstData::new(op, args), Some(ty));
    f.dfg.inst_result(i).expect("has a result")
}

/// `x` (an `f16` value) widened exactly to lanes of `lane`, before `at`.
fn widen(f: &mut Function, at: Inst, x: Value, lane: Type) -> Value {
    let ty = with_lane(f.dfg.value_type(x), lane);
    emit(f, at, Op::Convert(ConvOp::Fconv(Round::Rte)), &[x], ty)
}

/// Turns `at` into `op args` (keeping its result and type).
fn rewrite(f: &mut Function, at: Inst, op: Op, args: &[Value]) {
    f.dfg.insts[at] = InstData::new(op, args);
}

/// Legalizes one instruction; returns whether it changed.
fn legalize_inst(f: &mut Function, i: Inst) -> bool {
    let data = f.dfg.insts[i].clone();
    let result_ty = f.dfg.inst_result(i).map(|r| f.dfg.value_type(r));
    let arg_ty = data.args.first().map(|&a| f.dfg.value_type(a));
    let half_result = result_ty.is_some_and(is_half);
    let half_arg = arg_ty.is_some_and(is_half);
    let Some(ty) = result_ty else {
        return false;
    };
    match data.op {
        Op::Unary(UnaryOp::Fneg | UnaryOp::Fabs) if half_result => {
            let neg = data.op == Op::Unary(UnaryOp::Fneg);
            let ity = with_lane(ty, Type::I16);
            let bits = emit(f, i, Op::Bitcast, &data.args, ity);
            let (op, k) = if neg {
                (BinaryOp::Bxor, 0x8000)
            } else {
                (BinaryOp::Band, 0x7fff)
            };
            let k = emit(f, i, Op::Iconst(k), &[], ity);
            let v = emit(f, i, Op::Binary(op), &[bits, k], ity);
            rewrite(f, i, Op::Bitcast, &[v]);
        }
        Op::Binary(BinaryOp::Copysign) if half_result => {
            let ity = with_lane(ty, Type::I16);
            let a = emit(f, i, Op::Bitcast, &[data.args[0]], ity);
            let b = emit(f, i, Op::Bitcast, &[data.args[1]], ity);
            let mag = emit(f, i, Op::Iconst(0x7fff), &[], ity);
            let sign = emit(f, i, Op::Iconst(0x8000), &[], ity);
            let a = emit(f, i, Op::Binary(BinaryOp::Band), &[a, mag], ity);
            let b = emit(f, i, Op::Binary(BinaryOp::Band), &[b, sign], ity);
            let v = emit(f, i, Op::Binary(BinaryOp::Bor), &[a, b], ity);
            rewrite(f, i, Op::Bitcast, &[v]);
        }
        Op::Unary(_) | Op::Binary(_) | Op::Group(..) if half_result => {
            let wide = with_lane(ty, Type::F32);
            let mut args = data.args.clone();
            // A broadcast's second operand is the work-item's id, not a value to widen.
            args[0] = widen(f, i, args[0], Type::F32);
            if matches!(data.op, Op::Binary(_)) {
                args[1] = widen(f, i, args[1], Type::F32);
            }
            let v = emit(f, i, data.op.clone(), &args, wide);
            rewrite(f, i, Op::Convert(ConvOp::Fconv(Round::Rte)), &[v]);
        }
        Op::Fcmp(_) if half_arg => {
            let a = widen(f, i, data.args[0], Type::F32);
            let b = widen(f, i, data.args[1], Type::F32);
            rewrite(f, i, data.op.clone(), &[a, b]);
        }
        Op::Fma if half_result => fma(f, i, &data.args, ty),
        Op::Convert(conv @ (ConvOp::SintToFloat(round) | ConvOp::UintToFloat(round)))
            if half_result =>
        {
            let v = emit(
                f,
                i,
                Op::Convert(conv),
                &data.args,
                with_lane(ty, Type::F64),
            );
            rewrite(f, i, Op::Convert(ConvOp::Fconv(round)), &[v]);
        }
        Op::Convert(ConvOp::FloatToSint { .. } | ConvOp::FloatToUint { .. }) if half_arg => {
            let v = widen(f, i, data.args[0], Type::F32);
            rewrite(f, i, data.op.clone(), &[v]);
        }
        _ => return false,
    }
    true
}

/// `fma` of three `f16` operands, correctly rounded: the sum rounded to odd in `f64` (the
/// module's comment), then to nearest `f16`.
fn fma(f: &mut Function, i: Inst, args: &[Value], ty: Type) {
    let dty = with_lane(ty, Type::F32);
    let ity = with_lane(ty, Type::I32);
    let bty = with_lane(ty, Type::I1);
    let [a, b, c] = [args[0], args[1], args[2]].map(|x| widen(f, i, x, Type::F32));
    let bin = |f: &mut Function, op, x, y, t| emit(f, i, Op::Binary(op), &[x, y], t);
    // Exact: 11-bit significands give a 22-bit product, inside f32's range.
    let p = bin(f, BinaryOp::Fmul, a, b, dty);
    let s = bin(f, BinaryOp::Fadd, p, c, dty);
    // TwoSum (Knuth, TAOCP vol. 2, 4.2.2): s + e == p + c exactly.
    let bb = bin(f, BinaryOp::Fsub, s, p, dty);
    let ab = bin(f, BinaryOp::Fsub, s, bb, dty);
    let da = bin(f, BinaryOp::Fsub, p, ab, dty);
    let db = bin(f, BinaryOp::Fsub, c, bb, dty);
    let e = bin(f, BinaryOp::Fadd, da, db, dty);
    // Inexact (e is a nonzero number: NaN when an operand is infinite or NaN, then s is
    // already the result) and the last bit even: one unit toward e.
    let zero = emit(f, i, Op::Fconst(0), &[], dty);
    let inexact = emit(f, i, Op::Fcmp(FloatCC::One), &[e, zero], bty);
    let sbits = emit(f, i, Op::Bitcast, &[s], ity);
    let ebits = emit(f, i, Op::Bitcast, &[e], ity);
    let one = emit(f, i, Op::Iconst(1), &[], ity);
    let izero = emit(f, i, Op::Iconst(0), &[], ity);
    let last = bin(f, BinaryOp::Band, sbits, one, ity);
    let even = emit(f, i, Op::Icmp(IntCC::Eq), &[last, izero], bty);
    let adjust = bin(f, BinaryOp::Band, inexact, even, bty);
    // Toward e: away from zero when e has s's sign (s is nonzero when e is).
    let signs = bin(f, BinaryOp::Bxor, sbits, ebits, ity);
    let differ = emit(f, i, Op::Icmp(IntCC::Slt), &[signs, izero], bty);
    let up = bin(f, BinaryOp::Iadd, sbits, one, ity);
    let down = bin(f, BinaryOp::Isub, sbits, one, ity);
    let moved = emit(f, i, Op::Select, &[differ, down, up], ity);
    let odd = emit(f, i, Op::Select, &[adjust, moved, sbits], ity);
    let r = emit(f, i, Op::Bitcast, &[odd], dty);
    rewrite(f, i, Op::Convert(ConvOp::Fconv(Round::Rte)), &[r]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::float::{f16_to_f64, from_f64};
    use crate::interp::{Interpreter, Val};

    /// Whether `x` is a number a test may give.
    fn finite(h: u16) -> bool {
        h & 0x7c00 != 0x7c00
    }

    /// The correctly rounded `fma` of three halves, from the exact value (as a rational made
    /// of integer multiples of 2^-48, which every product of two halves and every half is).
    fn exact_fma(a: u16, b: u16, c: u16) -> u64 {
        let scaled = |h: u16| (f16_to_f64(h) * 2f64.powi(24)) as i128;
        let sum = scaled(a) * scaled(b) + scaled(c) * (1i128 << 24);
        // sum / 2^48, rounded to half: through f64 would round twice; instead round the
        // integer to the half's quantum directly.
        let v = sum as f64 / 2f64.powi(48);
        let e = if v == 0.0 {
            -24
        } else {
            (v.abs().log2().floor() as i32).max(-14)
        };
        let q_exp = e - 10;
        let q = 1i128 << (q_exp + 48);
        let (n, rem) = (sum.div_euclid(q), sum.rem_euclid(q));
        let n = if 2 * rem > q || (2 * rem == q && n & 1 == 1) {
            n + 1
        } else {
            n
        };
        let value = n as f64 * 2f64.powi(q_exp);
        // Zero keeps the sign the IEEE sum gives (exact zero sums are +0 but for -0 + -0).
        if value == 0.0 {
            let neg = f16_to_f64(c).is_sign_negative()
                && (f16_to_f64(a) * f16_to_f64(b)).is_sign_negative()
                && sum == 0;
            return if neg { 0x8000 } else { 0 };
        }
        from_f64(value, Type::F16, Round::Rte)
    }

    /// The rewritten `fma` gives the correctly rounded result on hard cases (ties of the
    /// product with a tiny addend) and a spread of ordinary ones, through the interpreter.
    #[test]
    fn fma_is_correctly_rounded() {
        use crate::text::parse_module;
        let src = "func @k(f16, f16, f16) -> f16 {\nblock0(v0: f16, v1: f16, v2: f16):\n    v3: f16 = fma v0, v1, v2\n    return v3\n}\n";
        let mut m = parse_module(src).expect("parses");
        run(&mut m);
        crate::verify_module(&m).expect("verifies");
        let text = crate::text::print_module(&m);
        assert!(!text.contains("f16 = fma"), "{text}");
        let func = m.func_by_name("k").expect("k");
        let mut cases = vec![
            // 1.5 * 1.0009765625 is a tie of halves; the addend decides.
            (0x3e00, 0x3c01, 0x0001),
            (0x3e00, 0x3c01, 0x8001),
            (0x3c01, 0x3c01, 0x0001),
            // 49152 * 1.0009765625 = 49200, a tie of halves 32 apart, with the least addend:
            // its sum needs 40 bits, past f32's 24 (the rounding to odd keeps it).
            (0x7a00, 0x3c01, 0x0001),
            (0x7a00, 0x3c01, 0x8001),
            (0xfa00, 0x3c01, 0x0001),
            (0x7bff, 0x3c00, 0x3c00),
            (0x7bff, 0x4000, 0xfbff),
            (0x0001, 0x0001, 0x0000),
            (0x8000, 0x3c00, 0x8000),
        ];
        let mut x: u32 = 12345;
        for _ in 0..30000 {
            x = x.wrapping_mul(1664525).wrapping_add(1013904223);
            let a = (x >> 16) as u16;
            x = x.wrapping_mul(1664525).wrapping_add(1013904223);
            let b = (x >> 16) as u16;
            x = x.wrapping_mul(1664525).wrapping_add(1013904223);
            let c = (x >> 16) as u16;
            cases.push((a, b, c));
        }
        for (a, b, c) in cases {
            if !finite(a) || !finite(b) || !finite(c) {
                continue;
            }
            let prod = f16_to_f64(a) * f16_to_f64(b);
            if prod.abs() > 65504.0 * 4.0 {
                continue;
            }
            let want = exact_fma(a, b, c);
            let args = [a, b, c].map(|h| Val::scalar(u64::from(h)));
            let got = Interpreter::new(&m).call(func, &args).expect("runs");
            assert_eq!(got, Some(Val::scalar(want)), "fma({a:#x}, {b:#x}, {c:#x})");
        }
    }

    /// Runs `@k` of `src` before and after the pass on the same arguments, in the
    /// interpreter (which computes on `f16` itself, rounded once per operation).
    fn same_before_and_after(src: &str, args: &[[u64; 2]]) {
        use crate::text::parse_module;
        let before = parse_module(src).expect("parses");
        let mut after = before.clone();
        run(&mut after);
        crate::verify_module(&after).expect("verifies");
        let (fb, fa) = (before.func_by_name("k"), after.func_by_name("k"));
        let (fb, fa) = (fb.expect("k"), fa.expect("k"));
        for a in args {
            let vals = a.map(Val::scalar);
            let want = Interpreter::new(&before).call(fb, &vals).expect("runs");
            let got = Interpreter::new(&after).call(fa, &vals).expect("runs");
            let nan = |v: &Option<Val>| {
                v.as_ref()
                    .is_some_and(|v| v.bits() & 0x7c00 == 0x7c00 && v.bits() & 0x3ff != 0)
            };
            // A NaN result may come out with another payload.
            if src.contains("-> f16") && nan(&want) && nan(&got) {
                continue;
            }
            assert_eq!(got, want, "{src} on {a:x?}");
        }
    }

    /// Every rewritten operation gives what the `f16` operation gives, over random halves
    /// and the special ones.
    #[test]
    fn rewritten_operations_match_the_interpreter() {
        let mut args = Vec::new();
        let special = [
            0u64, 0x8000, 1, 0x8001, 0x3c00, 0xbc00, 0x7bff, 0x7c00, 0xfc00, 0x7e00,
        ];
        for &a in &special {
            for &b in &special {
                args.push([a, b]);
            }
        }
        let mut x: u32 = 99;
        for _ in 0..2000 {
            x = x.wrapping_mul(1664525).wrapping_add(1013904223);
            let a = u64::from(x >> 16);
            x = x.wrapping_mul(1664525).wrapping_add(1013904223);
            args.push([a, u64::from(x >> 16)]);
        }
        let binary = ["fadd", "fsub", "fmul", "fdiv", "fmin", "fmax", "copysign"];
        for op in binary {
            let src = format!("func @k(f16, f16) -> f16 {{\nblock0(v0: f16, v1: f16):\n    v2: f16 = {op} v0, v1\n    return v2\n}}\n");
            same_before_and_after(&src, &args);
        }
        for op in ["fneg", "fabs", "sqrt", "floor", "ceil", "ftrunc", "nearest"] {
            let src = format!("func @k(f16, f16) -> f16 {{\nblock0(v0: f16, v1: f16):\n    v2: f16 = {op} v0\n    return v2\n}}\n");
            same_before_and_after(&src, &args);
        }
        for cc in FloatCC::ALL {
            let cc = cc.name();
            let src = format!("func @k(f16, f16) -> i1 {{\nblock0(v0: f16, v1: f16):\n    v2: i1 = fcmp {cc} v0, v1\n    return v2\n}}\n");
            same_before_and_after(&src, &args);
        }
        for r in Round::ALL {
            let r = r.name();
            for (conv, int) in [
                ("sitofp", "i32"),
                ("uitofp", "i32"),
                ("sitofp", "i64"),
                ("uitofp", "i16"),
            ] {
                let src = format!("func @k({int}, {int}) -> f16 {{\nblock0(v0: {int}, v1: {int}):\n    v2: f16 = {conv}.{r} v0\n    return v2\n}}\n");
                let wide: Vec<[u64; 2]> =
                    args.iter().map(|[a, b]| [(a << 8) | b, b << 3]).collect();
                same_before_and_after(&src, &wide);
            }
            for conv in ["fptosi", "fptoui"] {
                let src = format!("func @k(f16, f16) -> i32 {{\nblock0(v0: f16, v1: f16):\n    v2: i32 = {conv}.{r}.sat v0\n    return v2\n}}\n");
                same_before_and_after(&src, &args);
            }
        }
    }
}
