//! Geometric functions (6.15.5) expanded in place; `dot` of 4x8-bit integer vectors is a call
//! of the builtin library.

use super::*;
use catalogue::Geometric;

/// A geometric function. `half` arguments are widened to `float` and the result rounded back
/// once: Table 69 bounds `length` by 0.25 + 0.5n ulp and `normalize` by 1 + n ulp, which
/// rounding after each `half` operation would not meet (and its last paragraph allows "converting
/// the half values to single precision floating-point values and performing the operation in
/// single precision").
pub(super) fn geometric(fl: &mut FnLower, f: Geometric, c: &Call) -> Res<Option<Value>> {
    use Geometric as G;
    if !c.float(fl) {
        return library_call(fl, c);
    }
    let mut args = Vec::with_capacity(c.args.len());
    for a in c.args {
        args.push(fl.val(a)?);
    }
    let half = fl.b.value_type(args[0]).lane_type() == Type::F16;
    if half {
        for a in &mut args {
            let t =
                fl.b.value_type(*a)
                    .with_lane_type(Type::F32)
                    .expect("a float vector");
            *a = fl.b.convert(ConvOp::Fconv(Round::Rte), *a, t);
        }
    }
    let r = match f {
        G::Cross => cross(fl, args[0], args[1]),
        G::FastLength | G::FastDistance | G::FastNormalize => fast(fl, f, &args),
        G::Dot => dot(fl, args[0], args[1]),
        G::Length => scaled_length(fl, args[0]),
        G::Distance => {
            let d = fl.b.binary(BinaryOp::Fsub, args[0], args[1]);
            scaled_length(fl, d)
        }
        G::Normalize => normalize(fl, args[0]),
    };
    if half {
        let t =
            fl.b.value_type(r)
                .with_lane_type(Type::F16)
                .expect("a float vector");
        return Ok(Some(fl.b.convert(ConvOp::Fconv(Round::Rte), r, t)));
    }
    Ok(Some(r))
}

/// 6.15.5: cross(a, b) = (a.y*b.z - a.z*b.y, a.z*b.x - a.x*b.z, a.x*b.y - a.y*b.x), and w = 0
/// for 4 lanes.
fn cross(fl: &mut FnLower, a: Value, b: Value) -> Value {
    let t = fl.b.value_type(a);
    let (m1, m2): (&[u8], &[u8]) = if t.lanes() == 4 {
        (&[1, 2, 0, 3], &[2, 0, 1, 3])
    } else {
        (&[1, 2, 0], &[2, 0, 1])
    };
    let a1 = fl.b.shuffle(a, a, m1);
    let b2 = fl.b.shuffle(b, b, m2);
    let a2 = fl.b.shuffle(a, a, m2);
    let b1 = fl.b.shuffle(b, b, m1);
    let x = fl.b.binary(BinaryOp::Fmul, a1, b2);
    let y = fl.b.binary(BinaryOp::Fmul, a2, b1);
    let mut r = fl.b.binary(BinaryOp::Fsub, x, y);
    if t.lanes() == 4 {
        let z = fl.zero(t.lane_type());
        r = fl.b.insertlane(r, z, 3);
    }
    r
}

/// 6.15.5: fast_length(p) = half_sqrt(dot(p, p)), fast_distance(a, b) = fast_length(a - b),
/// fast_normalize(p) = p * half_rsqrt(dot(p, p)) (p when every element is zero).
fn fast(fl: &mut FnLower, f: Geometric, args: &[Value]) -> Value {
    let mut p = args[0];
    if f == Geometric::FastDistance {
        p = fl.b.binary(BinaryOp::Fsub, p, args[1]);
    }
    let d = dot(fl, p, p);
    let len = fl.b.unary(IrUnary::Sqrt, d);
    if f != Geometric::FastNormalize {
        return len;
    }
    let t = fl.b.value_type(p);
    let one = fl.fconst(t.lane_type(), 1.0);
    let inv = fl.b.binary(BinaryOp::Fdiv, one, len);
    let inv = if t.is_vector() {
        fl.b.splat(inv, t.lanes())
    } else {
        inv
    };
    let r = fl.b.binary(BinaryOp::Fmul, p, inv);
    let z = fl.fconst(t.lane_type(), 0.0);
    let zero = fl.b.fcmp(FloatCC::Oeq, d, z);
    fl.b.select(zero, p, r)
}

/// The largest magnitude among the lanes of `a` (whose lanes are magnitudes).
fn max_lane(fl: &mut FnLower, a: Value) -> Value {
    let t = fl.b.value_type(a);
    let mut m = if t.is_vector() {
        fl.b.extractlane(a, 0)
    } else {
        a
    };
    for i in 1..t.lanes() {
        let l = fl.b.extractlane(a, i as u8);
        m = fl.b.binary(BinaryOp::Fmax, m, l);
    }
    m
}

/// 6.15.5: p / length(p), scaled by the largest magnitude first so that the sum of squares
/// neither overflows nor underflows; p itself when every element is zero; infinite elements
/// count as copysign(1, p[i]) and the others as 0.
fn normalize(fl: &mut FnLower, p: Value) -> Value {
    let t = fl.b.value_type(p);
    let lane = t.lane_type();
    let a = fl.b.unary(IrUnary::Fabs, p);
    let m = max_lane(fl, a);
    let splat = |fl: &mut FnLower, v: Value| {
        if t.is_vector() {
            fl.b.splat(v, t.lanes())
        } else {
            v
        }
    };
    let ms = splat(fl, m);
    let scaled = fl.b.binary(BinaryOp::Fdiv, p, ms);
    let inf = fl.fconst(t, f64::INFINITY);
    let is_inf = fl.b.fcmp(FloatCC::Oeq, a, inf);
    let one = fl.fconst(t, 1.0);
    let signed_one = fl.b.binary(BinaryOp::Copysign, one, p);
    let zero = fl.fconst(t, 0.0);
    let zp = fl.b.binary(BinaryOp::Fmul, zero, p);
    let infs = fl.b.select(is_inf, signed_one, zp);
    let linf = fl.fconst(lane, f64::INFINITY);
    let m_inf = fl.b.fcmp(FloatCC::Oeq, m, linf);
    let q = fl.b.select(m_inf, infs, scaled);
    let d = dot(fl, q, q);
    let len = fl.b.unary(IrUnary::Sqrt, d);
    let lens = splat(fl, len);
    let r = fl.b.binary(BinaryOp::Fdiv, q, lens);
    let lz = fl.fconst(lane, 0.0);
    let m_zero = fl.b.fcmp(FloatCC::Oeq, m, lz);
    fl.b.select(m_zero, p, r)
}

/// The length of `p` for `length` and `distance`. 7.5.1: "length calculates the length of a
/// vector without overflow or extraordinary precision loss due to underflow": the elements
/// are scaled by the power of two of the largest magnitude (exactly), squared and summed, and
/// the root scaled back. An infinite element gives +inf (as hypot does), all zeros 0.
fn scaled_length(fl: &mut FnLower, p: Value) -> Value {
    let t = fl.b.value_type(p);
    let lane = t.lane_type();
    let a = fl.b.unary(IrUnary::Fabs, p);
    let m = max_lane(fl, a);
    // The power of two of m (at least the smallest normal): its exponent bits alone.
    let (int, exp_mask, min_normal) = match lane {
        Type::F64 => (
            Type::I64,
            0x7ff0_0000_0000_0000u64 as i64,
            f64::MIN_POSITIVE,
        ),
        Type::F32 => (Type::I32, 0x7f80_0000, f64::from(f32::MIN_POSITIVE)),
        _ => (Type::I16, 0x7c00, 6.103_515_625e-5),
    };
    let min = fl.fconst(lane, min_normal);
    let floor = fl.b.binary(BinaryOp::Fmax, m, min);
    let bits = fl.b.bitcast(floor, int);
    let mask = fl.iconst(int, exp_mask);
    let e = fl.b.binary(BinaryOp::Band, bits, mask);
    let pow2 = fl.b.bitcast(e, lane);
    let one = fl.fconst(lane, 1.0);
    let inv = fl.b.binary(BinaryOp::Fdiv, one, pow2);
    let inv = if t.is_vector() {
        fl.b.splat(inv, t.lanes())
    } else {
        inv
    };
    let q = fl.b.binary(BinaryOp::Fmul, p, inv);
    let d = dot(fl, q, q);
    let r = fl.b.unary(IrUnary::Sqrt, d);
    let len = fl.b.binary(BinaryOp::Fmul, r, pow2);
    let inf = fl.fconst(lane, f64::INFINITY);
    let m_inf = fl.b.fcmp(FloatCC::Oeq, m, inf);
    fl.b.select(m_inf, inf, len)
}

/// The sum of the lane products, added in lane order.
fn dot(fl: &mut FnLower, a: Value, b: Value) -> Value {
    let t = fl.b.value_type(a);
    if fl.cx.p.fma_chains && t.is_vector() {
        // A device that contracts accumulations (a GPU, whose fma costs an add) sums the
        // products as a chain of fmas, each rounding once where a product and a sum rounded
        // twice: within dot's bound (7.4, "absolute error tolerance of 'max * max * (2n - 1) *
        // FLT_EPSILON'").
        let mut acc = {
            let (x, y) = (fl.b.extractlane(a, 0), fl.b.extractlane(b, 0));
            fl.b.binary(BinaryOp::Fmul, x, y)
        };
        for i in 1..t.lanes() {
            let (x, y) = (fl.b.extractlane(a, i as u8), fl.b.extractlane(b, i as u8));
            acc = fl.b.fma(x, y, acc);
        }
        return acc;
    }
    let p = fl.b.binary(BinaryOp::Fmul, a, b);
    let t = fl.b.value_type(p);
    if !t.is_vector() {
        return p;
    }
    let mut acc = fl.b.extractlane(p, 0);
    for i in 1..t.lanes() {
        let l = fl.b.extractlane(p, i as u8);
        acc = fl.b.fadd(acc, l);
    }
    acc
}
