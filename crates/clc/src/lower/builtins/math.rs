//! Math functions (6.15.2): those that are one IR operation (`sqrt`, `fabs`, rounding to an
//! integral value, `fmin`, `fmax`, `copysign`, `fma`, `mad`) expanded in place, the others
//! calls of the builtin library; and the `half_` and `native_` forms.

use super::*;
use catalogue::{Math, Native};

/// A full-precision math function.
pub(super) fn math(fl: &mut FnLower, f: Math, c: &Call) -> Res<Option<Value>> {
    let unary = match f {
        // Table 65: "sqrt ≤ 3 ulp" unless correct rounding is asked for.
        Math::Sqrt if c.float(fl) && fl.cx.p.correctly_rounded_divide_sqrt => Some(IrUnary::Sqrt),
        Math::Sqrt if c.float(fl) => Some(IrUnary::SqrtRelaxed),
        // Table 65: "rsqrt ≤ 2 ulp". (The library's double `rsqrt` is more accurate than
        // that; it stays.)
        Math::Rsqrt if fl.cx.arith(c.rt).is_some_and(|(s, _)| s == Scalar::Float) => {
            Some(IrUnary::Rsqrt)
        }
        Math::Fabs => Some(IrUnary::Fabs),
        Math::Floor => Some(IrUnary::Floor),
        Math::Ceil => Some(IrUnary::Ceil),
        Math::Trunc => Some(IrUnary::Ftrunc),
        Math::Rint => Some(IrUnary::Nearest),
        _ => None,
    };
    if let Some(op) = unary {
        let v = fl.val(&c.args[0])?;
        return Ok(Some(fl.b.unary(op, v)));
    }
    let binary = match f {
        Math::Fmin => Some(BinaryOp::Fmin),
        Math::Fmax => Some(BinaryOp::Fmax),
        Math::Copysign => Some(BinaryOp::Copysign),
        _ => None,
    };
    if let Some(op) = binary {
        let a = fl.val(&c.args[0])?;
        let b = widened(fl, &c.args[1], a)?;
        return Ok(Some(fl.b.binary(op, a, b)));
    }
    if matches!(f, Math::Fma | Math::Mad) && c.float(fl) {
        let a = fl.val(&c.args[0])?;
        let b = fl.val(&c.args[1])?;
        let d = fl.val(&c.args[2])?;
        let t = fl.b.value_type(a);
        // Table 69: half `mad` is "Implementation-defined": in float, rounded once to half.
        // The product of two halves (11 bits each) is exact in float, so the multiply and
        // the add are float's fma. (A half `fma`, correctly rounded, is an fma in double
        // rounded to odd: `ir::passes::half`, many times the operations.)
        if f == Math::Mad && t.lane_type() == Type::F16 {
            let wide = t.with_lane_type(Type::F32).expect("a float vector");
            let [a, b, d] = [a, b, d].map(|v| fl.b.convert(ConvOp::Fconv(Round::Rte), v, wide));
            let p = fl.b.binary(BinaryOp::Fmul, a, b);
            let r = fl.b.binary(BinaryOp::Fadd, p, d);
            return Ok(Some(fl.b.convert(ConvOp::Fconv(Round::Rte), r, t)));
        }
        // 6.15.2: mad "computes a * b + c"; 7.4 (full profile) lets it be "implemented
        // either as a correctly rounded fma or as a multiply followed by an add both of
        // which are correctly rounded": the fma where that is one fast instruction.
        if f == Math::Mad && !fl.cx.p.fast_fma {
            let p = fl.b.binary(BinaryOp::Fmul, a, b);
            return Ok(Some(fl.b.binary(BinaryOp::Fadd, p, d)));
        }
        return Ok(Some(fl.b.fma(a, b, d)));
    }
    library_call(fl, c)
}

/// A `half_` or `native_` function: the division, reciprocal and square roots as the IR's
/// relaxed instructions (within the full-precision bounds, so within the half (8192 ulp) and
/// native (implementation-defined) ones), the others as the full-precision function, which
/// meets either precision.
pub(super) fn native(fl: &mut FnLower, f: Native, c: &Call) -> Res<Option<Value>> {
    match f {
        Native::Sqrt | Native::Rsqrt => {
            let v = fl.val(&c.args[0])?;
            let op = match f {
                Native::Sqrt => IrUnary::SqrtRelaxed,
                _ => IrUnary::Rsqrt,
            };
            Ok(Some(fl.b.unary(op, v)))
        }
        Native::Divide => {
            let a = fl.val(&c.args[0])?;
            let b = fl.val(&c.args[1])?;
            Ok(Some(fl.b.binary(BinaryOp::FdivRelaxed, a, b)))
        }
        Native::Recip => {
            let v = fl.val(&c.args[0])?;
            let t = fl.b.value_type(v);
            let one = fl.fconst(t, 1.0);
            Ok(Some(fl.b.binary(BinaryOp::FdivRelaxed, one, v)))
        }
        // The library's own native_sin and native_cos for float, also half_sin and half_cos:
        // the full functions without their reduction of arguments from 2^19 on (`trig.cl`),
        // within the full functions' bounds below 2^19, so within half_'s (8192 ulp for |x|
        // up to 2^16, 7.4).
        Native::Cos | Native::Sin if fl.cx.mangle_type(c.params[0]).starts_with("float") => {
            super::library_call_named(fl, c, format!("native_{}", f.name()))
        }
        Native::Cos
        | Native::Exp
        | Native::Exp2
        | Native::Exp10
        | Native::Log
        | Native::Log2
        | Native::Log10
        | Native::Powr
        | Native::Sin
        | Native::Tan => library_call(fl, c),
    }
}
