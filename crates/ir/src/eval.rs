//! The meaning of one lane of an operation, written once: the interpreter ([`crate::interp`])
//! executes with it and constant folding ([`crate::passes::fold`]) evaluates with it, so that
//! folding and execution cannot disagree.
//!
//! A lane is its bits in a `u64` (the low `lane_bits` bits; the rest zero). Where the
//! specification leaves a result unspecified (6.5.1: integer division by zero and signed
//! overflow of a division; 6.4.3.3: an unsaturated conversion of NaN or of an out-of-range
//! float), the result is [`Lane::Unspecified`]: the interpreter runs on with the value it
//! carries, folding leaves the instruction for the device to decide.

use crate::float;
use crate::inst::{BinaryOp, ConvOp, IntCC, Round, UnaryOp};
use crate::types::Type;

/// One lane's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    /// The one result the specification defines.
    Defined(u64),
    /// The specification leaves the result unspecified; this is the value the reference
    /// interpreter uses.
    Unspecified(u64),
}

impl Lane {
    /// The bits, defined or not.
    pub fn bits(self) -> u64 {
        match self {
            Lane::Defined(b) | Lane::Unspecified(b) => b,
        }
    }

    /// The bits, if the specification defines them.
    pub fn defined(self) -> Option<u64> {
        match self {
            Lane::Defined(b) => Some(b),
            Lane::Unspecified(_) => None,
        }
    }
}

/// The mask of the low `w` bits.
pub fn mask(w: u32) -> u64 {
    if w >= 64 {
        u64::MAX
    } else {
        (1u64 << w) - 1
    }
}

/// `x`'s low `w` bits read as a signed integer.
pub fn sext(x: u64, w: u32) -> i64 {
    if w >= 64 {
        x as i64
    } else {
        ((x << (64 - w)) as i64) >> (64 - w)
    }
}

/// A unary operation on one lane of type `ty` (every result is defined).
pub fn unary(op: UnaryOp, x: u64, ty: Type) -> u64 {
    let w = ty.lane_bits();
    let m = mask(w);
    match op {
        UnaryOp::Ineg => x.wrapping_neg() & m,
        UnaryOp::Bnot => !x & m,
        UnaryOp::Clz => {
            if x == 0 {
                u64::from(w)
            } else {
                u64::from(x.leading_zeros() - (64 - w))
            }
        }
        UnaryOp::Ctz => {
            if x == 0 {
                u64::from(w)
            } else {
                u64::from(x.trailing_zeros())
            }
        }
        UnaryOp::Popcnt => u64::from(x.count_ones()),
        UnaryOp::Fneg => x ^ (1u64 << (w - 1)),
        UnaryOp::Fabs => x & !(1u64 << (w - 1)),
        _ => {
            let v = float::to_f64(x, ty);
            // The relaxed forms are evaluated as the CPU device computes them: correctly
            // rounded, and `rsqrt` as a square root, then a division (two roundings).
            let r = match op {
                UnaryOp::Sqrt | UnaryOp::SqrtRelaxed if w == 32 => f64::from((v as f32).sqrt()),
                UnaryOp::Sqrt | UnaryOp::SqrtRelaxed => v.sqrt(),
                UnaryOp::Rsqrt if w == 32 => f64::from(1.0 / (v as f32).sqrt()),
                UnaryOp::Rsqrt => 1.0 / v.sqrt(),
                UnaryOp::Floor => v.floor(),
                UnaryOp::Ceil => v.ceil(),
                UnaryOp::Ftrunc => v.trunc(),
                UnaryOp::Nearest => v.round_ties_even(),
                UnaryOp::Ineg
                | UnaryOp::Bnot
                | UnaryOp::Clz
                | UnaryOp::Ctz
                | UnaryOp::Popcnt
                | UnaryOp::Fneg
                | UnaryOp::Fabs => unreachable!("{op:?} is handled above"),
            };
            float::from_f64(r, ty, Round::Rte)
        }
    }
}

/// A binary operation on one lane of type `ty`. Float operations round to nearest even in
/// the lane's format (`f16` through `f64`, rounded once: exact for `+ - * /`); `fmin`/`fmax`
/// of two zeros may return either (6.15.2), and this returns the first.
pub fn binary(op: BinaryOp, a: u64, b: u64, ty: Type) -> Lane {
    let w = ty.lane_bits();
    let m = mask(w);
    if op.is_float() {
        return Lane::Defined(float_binary(op, a, b, ty));
    }
    let (sa, sb) = (sext(a, w), sext(b, w));
    let smin = sext(1u64 << (w - 1), w);
    let amt = b & u64::from(w - 1);
    let r = match op {
        BinaryOp::Iadd => a.wrapping_add(b),
        BinaryOp::Isub => a.wrapping_sub(b),
        BinaryOp::Imul => a.wrapping_mul(b),
        BinaryOp::Smulhi => ((i128::from(sa) * i128::from(sb)) >> w) as u64,
        BinaryOp::Umulhi => ((u128::from(a) * u128::from(b)) >> w) as u64,
        // 6.5.1: division by zero and the overflow of MIN / -1 give unspecified values.
        BinaryOp::Sdiv | BinaryOp::Srem | BinaryOp::Udiv | BinaryOp::Urem if b == 0 => {
            return Lane::Unspecified(0)
        }
        BinaryOp::Sdiv if sa == smin && sb == -1 => return Lane::Unspecified(a),
        BinaryOp::Srem if sa == smin && sb == -1 => return Lane::Unspecified(0),
        BinaryOp::Sdiv => (sa / sb) as u64,
        BinaryOp::Srem => (sa % sb) as u64,
        BinaryOp::Udiv => a / b,
        BinaryOp::Urem => a % b,
        BinaryOp::Smin => sa.min(sb) as u64,
        BinaryOp::Smax => sa.max(sb) as u64,
        BinaryOp::Umin => a.min(b),
        BinaryOp::Umax => a.max(b),
        BinaryOp::Band => a & b,
        BinaryOp::Bor => a | b,
        BinaryOp::Bxor => a ^ b,
        BinaryOp::Shl => a << amt,
        BinaryOp::Lshr => a >> amt,
        BinaryOp::Ashr => (sa >> amt) as u64,
        BinaryOp::Rotl if amt == 0 => a,
        BinaryOp::Rotl => (a << amt) | (a >> (u64::from(w) - amt)),
        _ => unreachable!("{op:?} is a float operation"),
    };
    Lane::Defined(r & m)
}

fn float_binary(op: BinaryOp, a: u64, b: u64, ty: Type) -> u64 {
    let w = ty.lane_bits();
    if op == BinaryOp::Copysign {
        let s = 1u64 << (w - 1);
        return (a & !s) | (b & s);
    }
    let (x, y) = (float::to_f64(a, ty), float::to_f64(b, ty));
    if w == 32 {
        let r = arith(op, x as f32, y as f32, f32::min, f32::max);
        return u64::from(r.to_bits());
    }
    float::from_f64(arith(op, x, y, f64::min, f64::max), ty, Round::Rte)
}

/// `+ - * / min max` in one float format (`f32` for `f32` lanes, `f64` for the others).
fn arith<T>(op: BinaryOp, x: T, y: T, min: fn(T, T) -> T, max: fn(T, T) -> T) -> T
where
    T: std::ops::Add<Output = T>
        + std::ops::Sub<Output = T>
        + std::ops::Mul<Output = T>
        + std::ops::Div<Output = T>,
{
    match op {
        BinaryOp::Fadd => x + y,
        BinaryOp::Fsub => x - y,
        BinaryOp::Fmul => x * y,
        BinaryOp::Fdiv | BinaryOp::FdivRelaxed => x / y,
        BinaryOp::Fmin => min(x, y),
        BinaryOp::Fmax => max(x, y),
        _ => unreachable!("{op:?} is not arithmetic on floats"),
    }
}

/// An integer comparison of two lanes of `w` bits.
pub fn icmp(cc: IntCC, x: u64, y: u64, w: u32) -> bool {
    let (sx, sy) = (sext(x, w), sext(y, w));
    match cc {
        IntCC::Eq => x == y,
        IntCC::Ne => x != y,
        IntCC::Slt => sx < sy,
        IntCC::Sle => sx <= sy,
        IntCC::Sgt => sx > sy,
        IntCC::Sge => sx >= sy,
        IntCC::Ult => x < y,
        IntCC::Ule => x <= y,
        IntCC::Ugt => x > y,
        IntCC::Uge => x >= y,
    }
}

/// A conversion of one lane from type `t` to type `r` (6.4.3).
pub fn convert(c: ConvOp, x: u64, t: Type, r: Type) -> Lane {
    let (ws, wd) = (t.lane_bits(), r.lane_bits());
    let range = |signed: bool| -> (i128, i128) {
        if signed {
            (-(1i128 << (wd - 1)), (1i128 << (wd - 1)) - 1)
        } else {
            (0, (1i128 << wd) - 1)
        }
    };
    Lane::Defined(match c {
        ConvOp::Trunc | ConvOp::Zext => x & mask(wd),
        ConvOp::Sext => sext(x, ws) as u64 & mask(wd),
        ConvOp::SatInt {
            src_signed,
            dst_signed,
        } => {
            let v = if src_signed {
                i128::from(sext(x, ws))
            } else {
                i128::from(x)
            };
            let (lo, hi) = range(dst_signed);
            v.clamp(lo, hi) as u64 & mask(wd)
        }
        ConvOp::SintToFloat(rm) => float::from_int(i128::from(sext(x, ws)), r, rm),
        ConvOp::UintToFloat(rm) => float::from_int(i128::from(x), r, rm),
        ConvOp::Fconv(rm) => float::from_f64(float::to_f64(x, t), r, rm),
        ConvOp::FloatToSint { round, sat } | ConvOp::FloatToUint { round, sat } => {
            let signed = matches!(c, ConvOp::FloatToSint { .. });
            let v = float::to_f64(x, t);
            // 6.4.3.3: saturated, NaN converts to 0 and out-of-range values clamp; unsaturated
            // both are unspecified, and the same values serve as well as any.
            if v.is_nan() {
                return if sat {
                    Lane::Defined(0)
                } else {
                    Lane::Unspecified(0)
                };
            }
            // Compared as integers: the bounds (2^64 - 1, say) are not exact in f64. The cast
            // is exact for integral values in i128's range and saturates beyond it, which is
            // out of every destination's range anyway.
            let n = float::round_integral(v, round) as i128;
            let (l, h) = range(signed);
            let clamped = n.clamp(l, h) as u64 & mask(wd);
            if (n < l || n > h) && !sat {
                return Lane::Unspecified(clamped);
            }
            clamped
        }
    })
}
