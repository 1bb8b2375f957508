//! Common functions (6.15.4) expanded in place, with `min`, `max` and `clamp` of integers
//! (6.15.3), which share their names.

use super::*;
use catalogue::Common;

/// A common function, or `min`, `max`, `clamp` of any type.
pub(super) fn common(fl: &mut FnLower, f: Common, c: &Call) -> Res<Option<Value>> {
    let float = c.float(fl);
    let signed = c.signed(fl);
    let (max, min) = match (float, signed) {
        (true, _) => (BinaryOp::Fmax, BinaryOp::Fmin),
        (false, true) => (BinaryOp::Smax, BinaryOp::Smin),
        (false, false) => (BinaryOp::Umax, BinaryOp::Umin),
    };
    match f {
        Common::Min | Common::Max => {
            let a = fl.val(&c.args[0])?;
            let b = widened(fl, &c.args[1], a)?;
            let op = if f == Common::Min { min } else { max };
            Ok(Some(fl.b.binary(op, a, b)))
        }
        Common::Clamp => {
            let x = fl.val(&c.args[0])?;
            let lo = widened(fl, &c.args[1], x)?;
            let hi = widened(fl, &c.args[2], x)?;
            let m = fl.b.binary(max, x, lo);
            Ok(Some(fl.b.binary(min, m, hi)))
        }
        _ if !float => library_call(fl, c),
        Common::Degrees | Common::Radians => {
            let v = fl.val(&c.args[0])?;
            let t = fl.b.value_type(v);
            let k = if f == Common::Degrees {
                180.0 / std::f64::consts::PI
            } else {
                std::f64::consts::PI / 180.0
            };
            // `half`: the constant and the product in float, rounded once to half (the
            // constant rounded to half would cost up to a further half ulp).
            if t.lane_type() == Type::F16 {
                let wide = t.with_lane_type(Type::F32).expect("a float vector");
                let w = fl.b.convert(ConvOp::Fconv(Round::Rte), v, wide);
                let k = fl.fconst(wide, k);
                let r = fl.b.binary(BinaryOp::Fmul, w, k);
                return Ok(Some(fl.b.convert(ConvOp::Fconv(Round::Rte), r, t)));
            }
            let k = fl.fconst(t, k);
            Ok(Some(fl.b.binary(BinaryOp::Fmul, v, k)))
        }
        Common::Mix => {
            // 6.15.4: x + (y - x) * a.
            let x = fl.val(&c.args[0])?;
            let y = fl.val(&c.args[1])?;
            let a = widened(fl, &c.args[2], x)?;
            let d = fl.b.binary(BinaryOp::Fsub, y, x);
            let m = fl.b.binary(BinaryOp::Fmul, d, a);
            Ok(Some(fl.b.fadd(x, m)))
        }
        Common::Step => {
            // 6.15.4: 0.0 if x < edge, else 1.0.
            let x = fl.val(&c.args[1])?;
            let edge = widened(fl, &c.args[0], x)?;
            let t = fl.b.value_type(x);
            let lt = fl.b.fcmp(FloatCC::Olt, x, edge);
            let (z, one) = (fl.fconst(t, 0.0), fl.fconst(t, 1.0));
            Ok(Some(fl.b.select(lt, z, one)))
        }
        Common::Sign => {
            // 6.15.4: 1.0 if x > 0, -0.0 / +0.0 for zeros, -1.0 if x < 0, 0.0 for a NaN.
            let x = fl.val(&c.args[0])?;
            let t = fl.b.value_type(x);
            let (z, one, m1) = (fl.fconst(t, 0.0), fl.fconst(t, 1.0), fl.fconst(t, -1.0));
            let gt = fl.b.fcmp(FloatCC::Ogt, x, z);
            let lt = fl.b.fcmp(FloatCC::Olt, x, z);
            let nan = fl.b.fcmp(FloatCC::Uno, x, x);
            let r = fl.b.select(lt, m1, x);
            let r = fl.b.select(gt, one, r);
            Ok(Some(fl.b.select(nan, z, r)))
        }
        Common::Smoothstep => smoothstep(fl, c).map(Some),
    }
}

/// 6.15.4: t = clamp((x - edge0) / (edge1 - edge0), 0, 1); t * t * (3 - 2 * t).
fn smoothstep(fl: &mut FnLower, c: &Call) -> Res<Value> {
    let x = fl.val(&c.args[2])?;
    let e0 = widened(fl, &c.args[0], x)?;
    let e1 = widened(fl, &c.args[1], x)?;
    let t = fl.b.value_type(x);
    let num = fl.b.binary(BinaryOp::Fsub, x, e0);
    let den = fl.b.binary(BinaryOp::Fsub, e1, e0);
    let q = fl.b.binary(BinaryOp::Fdiv, num, den);
    let (z, one) = (fl.fconst(t, 0.0), fl.fconst(t, 1.0));
    let q = fl.b.binary(BinaryOp::Fmax, q, z);
    let q = fl.b.binary(BinaryOp::Fmin, q, one);
    let (two, three) = (fl.fconst(t, 2.0), fl.fconst(t, 3.0));
    let tq = fl.b.binary(BinaryOp::Fmul, two, q);
    let k = fl.b.binary(BinaryOp::Fsub, three, tq);
    let qq = fl.b.binary(BinaryOp::Fmul, q, q);
    Ok(fl.b.binary(BinaryOp::Fmul, qq, k))
}
