//! Relational functions (6.15.6) expanded in place: comparisons and classifications as
//! `fcmp` (1 or 0 for scalars, -1 or 0 per lane for vectors), `any`, `all`, `bitselect` and
//! `select`.

use super::*;
use catalogue::Relational;

/// A relational function.
pub(super) fn relational(fl: &mut FnLower, f: Relational, c: &Call) -> Res<Option<Value>> {
    use Relational as R;
    match f {
        R::Select => {
            let a = fl.val(&c.args[0])?;
            let b = fl.val(&c.args[1])?;
            let s = fl.val(&c.args[2])?;
            let st = fl.b.value_type(s);
            let z = fl.zero(st);
            // 6.15.6: scalar select tests c != 0; vector select the most significant bit.
            let m = if st.is_vector() {
                fl.b.icmp(IntCC::Slt, s, z)
            } else {
                fl.b.icmp(IntCC::Ne, s, z)
            };
            Ok(Some(fl.b.select(m, b, a)))
        }
        R::Bitselect => bitselect(fl, c).map(Some),
        R::Any | R::All => {
            let x = fl.val(&c.args[0])?;
            let t = fl.b.value_type(x);
            let z = fl.zero(t);
            let m = fl.b.icmp(IntCC::Slt, x, z);
            let op = if f == R::Any {
                BinaryOp::Bor
            } else {
                BinaryOp::Band
            };
            let mut acc = None;
            for i in 0..t.lanes() {
                let l = if t.is_vector() {
                    fl.b.extractlane(m, i as u8)
                } else {
                    m
                };
                let l = fl.b.convert(ConvOp::Zext, l, Type::I32);
                acc = Some(match acc {
                    None => l,
                    Some(a) => fl.b.binary(op, a, l),
                });
            }
            Ok(acc)
        }
        _ => test(fl, f, c).map(Some),
    }
}

/// 6.15.6: each result bit is b's where c's is set, a's elsewhere (floats as their bits).
fn bitselect(fl: &mut FnLower, c: &Call) -> Res<Value> {
    let a = fl.val(&c.args[0])?;
    let b = fl.val(&c.args[1])?;
    let s = fl.val(&c.args[2])?;
    let t = fl.b.value_type(a);
    let it = if t.is_float() { same_size_int(t) } else { t };
    let cast = |fl: &mut FnLower, v: Value| {
        if t.is_float() {
            fl.b.bitcast(v, it)
        } else {
            v
        }
    };
    let (ia, ib, is) = (cast(fl, a), cast(fl, b), cast(fl, s));
    let ns = fl.b.unary(IrUnary::Bnot, is);
    let x = fl.b.binary(BinaryOp::Band, ia, ns);
    let y = fl.b.binary(BinaryOp::Band, ib, is);
    let r = fl.b.binary(BinaryOp::Bor, x, y);
    Ok(if t.is_float() { fl.b.bitcast(r, t) } else { r })
}

/// A comparison (two arguments) or classification (one).
fn test(fl: &mut FnLower, f: Relational, c: &Call) -> Res<Value> {
    use Relational as R;
    let x = fl.val(&c.args[0])?;
    let t = fl.b.value_type(x);
    let cc = match f {
        R::Isequal => Some(FloatCC::Oeq),
        R::Isnotequal => Some(FloatCC::Une),
        R::Isgreater => Some(FloatCC::Ogt),
        R::Isgreaterequal => Some(FloatCC::Oge),
        R::Isless => Some(FloatCC::Olt),
        R::Islessequal => Some(FloatCC::Ole),
        R::Islessgreater => Some(FloatCC::One),
        R::Isordered => Some(FloatCC::Ord),
        R::Isunordered => Some(FloatCC::Uno),
        _ => None,
    };
    let truth = if let Some(cc) = cc {
        let y = fl.val(&c.args[1])?;
        fl.b.fcmp(cc, x, y)
    } else {
        let ax = fl.b.unary(IrUnary::Fabs, x);
        let inf = fl.fconst(t, f64::INFINITY);
        match f {
            R::Isnan => fl.b.fcmp(FloatCC::Uno, x, x),
            R::Isinf => fl.b.fcmp(FloatCC::Oeq, ax, inf),
            R::Isfinite => fl.b.fcmp(FloatCC::Olt, ax, inf),
            R::Isnormal => {
                let min = match t.lane_type() {
                    Type::F32 => f64::from(f32::MIN_POSITIVE),
                    Type::F64 => f64::MIN_POSITIVE,
                    _ => 6.103_515_625e-5,
                };
                let min = fl.fconst(t, min);
                let a = fl.b.fcmp(FloatCC::Olt, ax, inf);
                let b = fl.b.fcmp(FloatCC::Oge, ax, min);
                let bytes = t.with_lane_type(Type::I8).expect("i8");
                let a = fl.b.convert(ConvOp::Zext, a, bytes);
                let b = fl.b.convert(ConvOp::Zext, b, bytes);
                let both = fl.b.binary(BinaryOp::Band, a, b);
                let z = fl.zero(fl.b.value_type(both));
                fl.b.icmp(IntCC::Ne, both, z)
            }
            // signbit
            _ => {
                let it = same_size_int(t);
                let bits = fl.b.bitcast(x, it);
                let z = fl.zero(it);
                fl.b.icmp(IntCC::Slt, bits, z)
            }
        }
    };
    let r = fl.reg(c.rt)?;
    // 6.15.6: scalar forms return int 1/0, vector forms -1/0 per lane.
    let op = if r.is_vector() {
        ConvOp::Sext
    } else {
        ConvOp::Zext
    };
    Ok(fl.b.convert(op, truth, r))
}
