//! The conversion builtins (6.4.3 of OpenCL C 3.0): `convert_<type>[_sat][_<rounding>]` between
//! scalar and vector types, with saturation and the four rounding modes; and the
//! reinterpretations `as_<type>` (6.4.4).

use super::*;
use catalogue::{Convert, Rounding};

/// The IR's rounding mode for a suffix.
pub(super) fn round(r: Rounding) -> Round {
    match r {
        Rounding::Rte => Round::Rte,
        Rounding::Rtz => Round::Rtz,
        Rounding::Rtp => Round::Rtp,
        Rounding::Rtn => Round::Rtn,
    }
}

/// as_<type> (6.4.4): the argument's bits as the result type.
pub(super) fn reinterpret(fl: &mut FnLower, c: &Call) -> Res<Value> {
    let v = fl.val(&c.args[0])?;
    let t = fl.reg(c.rt)?;
    let from = fl.b.value_type(v);
    if from == t {
        return Ok(v);
    }
    if from.lanes() == 3 || t.lanes() == 3 {
        // 6.4.4.1: a 3-lane vector reinterprets as the 4-lane one (lane 3 undefined).
        let via_from = if from.lanes() == 3 {
            fl.b.shuffle(v, v, &[0, 1, 2, 0])
        } else {
            v
        };
        let wide_t = if t.lanes() == 3 {
            t.lane_type().vector(4).expect("4 lanes")
        } else {
            t
        };
        let r = if fl.b.value_type(via_from) == wide_t {
            via_from
        } else {
            fl.b.bitcast(via_from, wide_t)
        };
        return Ok(if t.lanes() == 3 {
            fl.b.shuffle(r, r, &[0, 1, 2])
        } else {
            r
        });
    }
    Ok(fl.b.bitcast(v, t))
}

/// convert_<type>[_sat][_rtX] (6.4.3).
pub(super) fn convert(fl: &mut FnLower, conv: Convert, c: &Call) -> Res<Option<Value>> {
    let (ts, sat, round) = (conv.to, conv.sat, conv.round.map(round));
    let Some((fs, _)) = fl.cx.arith(c.params[0]) else {
        return library_call(fl, c);
    };
    let v = fl.val(&c.args[0])?;
    let t = fl.reg(c.rt)?;
    let fsigned = fs.is_signed();
    let r = match (fs.is_float(), ts.is_float()) {
        (false, false) => {
            if sat {
                if fs == ts {
                    v
                } else {
                    fl.b.convert(
                        ConvOp::SatInt {
                            src_signed: fsigned,
                            dst_signed: ts.is_signed(),
                        },
                        v,
                        t,
                    )
                }
            } else {
                fl.int_resize(v, fsigned, t)
            }
        }
        (false, true) => {
            // 6.4.3.2: the default rounding to floating point is to nearest even.
            let r = round.unwrap_or(Round::Rte);
            let op = if fsigned {
                ConvOp::SintToFloat(r)
            } else {
                ConvOp::UintToFloat(r)
            };
            fl.b.convert(op, v, t)
        }
        (true, false) => {
            // 6.4.3.1: the default rounding to integer is toward zero.
            let round = round.unwrap_or(Round::Rtz);
            let op = if ts.is_signed() {
                ConvOp::FloatToSint { round, sat }
            } else {
                ConvOp::FloatToUint { round, sat }
            };
            fl.b.convert(op, v, t)
        }
        (true, true) => {
            if fs.size() == ts.size() {
                v
            } else {
                fl.b.convert(ConvOp::Fconv(round.unwrap_or(Round::Rte)), v, t)
            }
        }
    };
    Ok(Some(r))
}
