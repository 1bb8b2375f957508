//! The conversion builtins (6.4.3 of OpenCL C 3.0): `convert_<type>[_sat][_<rounding>]` between
//! scalar and vector types, with saturation and the four rounding modes.

use super::*;

pub(super) fn parse_round(name: &str) -> (Option<Round>, &str) {
    for (suffix, r) in [
        ("_rte", Round::Rte),
        ("_rtz", Round::Rtz),
        ("_rtp", Round::Rtp),
        ("_rtn", Round::Rtn),
    ] {
        if let Some(rest) = name.strip_suffix(suffix) {
            return (Some(r), rest);
        }
    }
    (None, name)
}

/// convert_<type>[_sat][_rtX] (6.4.3) and as_<type> (6.4.4).
pub(super) fn conversion(
    fl: &mut FnLower,
    name: &str,
    params: &[TypeId],
    args: &[Expr],
    rt: TypeId,
) -> Res<Option<Value>> {
    if let Some(rest) = name.strip_prefix("as_") {
        if crate::builtins::catalogue::parse_type_name(rest).is_none() || args.len() != 1 {
            return Ok(None);
        }
        let v = fl.val(&args[0])?;
        let t = fl.reg(rt)?;
        let from = fl.b.value_type(v);
        if from == t {
            return Ok(Some(v));
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
            return Ok(Some(if t.lanes() == 3 {
                fl.b.shuffle(r, r, &[0, 1, 2])
            } else {
                r
            }));
        }
        return Ok(Some(fl.b.bitcast(v, t)));
    }
    let Some(rest) = name.strip_prefix("convert_") else {
        return Ok(None);
    };
    let (round, rest) = parse_round(rest);
    let (sat, rest) = match rest.strip_suffix("_sat") {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let Some((ts, _)) = crate::builtins::catalogue::parse_type_name(rest) else {
        return Ok(None);
    };
    let Some((fs, _)) = fl.cx.arith(params[0]) else {
        return Ok(None);
    };
    let v = fl.val(&args[0])?;
    let t = fl.reg(rt)?;
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
