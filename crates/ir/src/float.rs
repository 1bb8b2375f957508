//! Exact float helpers shared by the folder and the interpreter: rounding an `f64` to the
//! `f16`/`f32`/`f64` formats in each IEEE rounding mode, `f16` encoding and decoding, and
//! integer-to-float conversion with a rounding mode.

use crate::inst::Round;
use crate::types::Type;

/// A binary float format: explicit mantissa bits, minimum normal exponent, maximum exponent.
#[derive(Copy, Clone)]
struct Format {
    mant: i32,
    emin: i32,
    emax: i32,
}

const F16: Format = Format {
    mant: 10,
    emin: -14,
    emax: 15,
};
const F32: Format = Format {
    mant: 23,
    emin: -126,
    emax: 127,
};
const F64: Format = Format {
    mant: 52,
    emin: -1022,
    emax: 1023,
};

fn format_of(ty: Type) -> Format {
    match ty.lane_bits() {
        16 => F16,
        32 => F32,
        _ => F64,
    }
}

fn pow2(e: i32) -> f64 {
    // Exact for the exponents used here (-1100 < e < 1100), via two steps when subnormal.
    if e < -1022 {
        f64::powi(2.0, e + 100) * f64::powi(2.0, -100)
    } else {
        f64::powi(2.0, e)
    }
}

/// Rounds `x` to format `fmt` in mode `r`; the result is exactly representable in `f64`.
/// Overflow gives an infinity or the largest finite value, as the mode says (IEEE 754 7.4).
fn round_to(x: f64, fmt: Format, r: Round) -> f64 {
    if x.is_nan() || x.is_infinite() || x == 0.0 {
        return x;
    }
    let neg = x < 0.0;
    let a = x.abs();
    // The exponent of a (floor(log2 a)), from the bits (exact, subnormal f64 included).
    let bits = a.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let e = if biased == 0 {
        -1074 + (63 - bits.leading_zeros() as i32)
    } else {
        biased - 1023
    };
    let step_exp = e.max(fmt.emin) - fmt.mant;
    let q = a / pow2(step_exp);
    // Rounding of the magnitude: toward zero, away from zero, or to nearest even.
    let n = match (r, neg) {
        (Round::Rte, _) => q.round_ties_even(),
        (Round::Rtz, _) | (Round::Rtp, true) | (Round::Rtn, false) => q.floor(),
        (Round::Rtp, false) | (Round::Rtn, true) => q.ceil(),
    };
    let v = n * pow2(step_exp);
    let max = (2.0 - pow2(-fmt.mant)) * pow2(fmt.emax);
    let v = if v > max {
        let to_inf = match (r, neg) {
            (Round::Rte, _) => true,
            (Round::Rtz, _) | (Round::Rtp, true) | (Round::Rtn, false) => false,
            (Round::Rtp, false) | (Round::Rtn, true) => true,
        };
        if to_inf {
            f64::INFINITY
        } else {
            max
        }
    } else {
        v
    };
    if neg {
        -v
    } else {
        v
    }
}

/// Decodes `f16` bits exactly.
pub fn f16_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = i32::from((h >> 10) & 0x1f);
    let m = f64::from(h & 0x3ff);
    let v = match e {
        0 => m * pow2(-24),
        31 if m == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1024.0 + m) * pow2(e - 25),
    };
    sign * v
}

/// Encodes a value exactly representable as `f16` (or an infinity or NaN).
fn encode_f16(v: f64) -> u16 {
    let sign: u16 = if v.is_sign_negative() { 0x8000 } else { 0 };
    let a = v.abs();
    if a.is_nan() {
        return 0x7e00 | sign;
    }
    if a.is_infinite() {
        return 0x7c00 | sign;
    }
    if a < pow2(-14) {
        return sign | (a / pow2(-24)) as u16;
    }
    let e = a.log2().floor() as i32;
    // log2 may be off by one near powers of two; fix it up exactly.
    let e = if pow2(e) > a {
        e - 1
    } else if pow2(e + 1) <= a {
        e + 1
    } else {
        e
    };
    let m = ((a / pow2(e) - 1.0) * 1024.0) as u16;
    sign | (((e + 15) as u16) << 10) | m
}

/// The bits, in `ty`'s lane format, of `x` rounded in mode `r`.
pub fn from_f64(x: f64, ty: Type, r: Round) -> u64 {
    match ty.lane_bits() {
        16 => u64::from(encode_f16(round_to(x, F16, r))),
        32 => {
            if x.is_nan() {
                return u64::from((x as f32).to_bits());
            }
            u64::from((round_to(x, F32, r) as f32).to_bits())
        }
        _ => x.to_bits(),
    }
}

/// The value of float bits in `ty`'s lane format, widened exactly.
pub fn to_f64(bits: u64, ty: Type) -> f64 {
    match ty.lane_bits() {
        16 => f16_to_f64(bits as u16),
        32 => f64::from(f32::from_bits(bits as u32)),
        _ => f64::from_bits(bits),
    }
}

/// The bits, in `ty`'s lane format, of the integer `x` rounded in mode `r`.
pub fn from_int(x: i128, ty: Type, r: Round) -> u64 {
    let fmt = format_of(ty);
    let limit = 1i128 << 53;
    if x.abs() <= limit {
        return from_f64(x as f64, ty, r);
    }
    // Keep the format's mant + 1 significant bits, rounding the rest away in the mode asked
    // for; the value is then exact in f64 and `from_f64` only checks overflow.
    let neg = x < 0;
    let a = x.unsigned_abs();
    let len = 128 - a.leading_zeros() as i32;
    let keep = fmt.mant + 1;
    let shift = (len - keep) as u32;
    let q = a >> shift;
    let rem = a & ((1u128 << shift) - 1);
    let half = 1u128 << (shift - 1);
    let up = match (r, neg) {
        (Round::Rte, _) => rem > half || (rem == half && q & 1 == 1),
        (Round::Rtz, _) | (Round::Rtp, true) | (Round::Rtn, false) => false,
        (Round::Rtp, false) | (Round::Rtn, true) => rem != 0,
    };
    let n = q + u128::from(up);
    let v = (n as f64) * pow2(shift as i32);
    from_f64(if neg { -v } else { v }, ty, r)
}

/// Rounds `x` to an integral value in mode `r`.
pub fn round_integral(x: f64, r: Round) -> f64 {
    match r {
        Round::Rte => x.round_ties_even(),
        Round::Rtz => x.trunc(),
        Round::Rtp => x.ceil(),
        Round::Rtn => x.floor(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f16_round_trip_every_value() {
        for h in 0..=u16::MAX {
            let v = f16_to_f64(h);
            if v.is_nan() {
                continue;
            }
            for r in Round::ALL {
                assert_eq!(from_f64(v, Type::F16, r), u64::from(h), "{h:#x} {r:?}");
            }
        }
    }

    #[test]
    fn f32_modes_match_the_neighbours() {
        let x = 0.1f64;
        let near = 0.1f32;
        let down = f32::from_bits(near.to_bits() - 1);
        // 0.1f rounds up to nearest, so rtz and rtn give the value below.
        assert!(f64::from(near) > x);
        assert_eq!(
            from_f64(x, Type::F32, Round::Rte),
            u64::from(near.to_bits())
        );
        assert_eq!(
            from_f64(x, Type::F32, Round::Rtp),
            u64::from(near.to_bits())
        );
        assert_eq!(
            from_f64(x, Type::F32, Round::Rtz),
            u64::from(down.to_bits())
        );
        assert_eq!(
            from_f64(-x, Type::F32, Round::Rtp),
            u64::from((-down).to_bits())
        );
        assert_eq!(
            from_f64(1e300, Type::F32, Round::Rtz),
            u64::from(f32::MAX.to_bits())
        );
        assert_eq!(
            from_f64(1e300, Type::F32, Round::Rte),
            u64::from(f32::INFINITY.to_bits())
        );
        assert_eq!(from_f64(1e-50, Type::F32, Round::Rtp), 1);
        assert_eq!(from_f64(65520.0, Type::F16, Round::Rte), 0x7c00);
        assert_eq!(from_f64(65519.0, Type::F16, Round::Rte), 0x7bff);
    }

    #[test]
    fn integers_round_in_each_mode() {
        let x = (1i128 << 60) + 1;
        let two60 = (1u64 << 60) as f64;
        assert_eq!(from_int(x, Type::F64, Round::Rte), two60.to_bits());
        assert_eq!(
            from_int(x, Type::F64, Round::Rtp),
            (two60 + 256.0).to_bits()
        );
        assert_eq!(
            from_int(-x, Type::F64, Round::Rtn),
            (-(two60 + 256.0)).to_bits()
        );
        assert_eq!(
            from_int(16_777_217, Type::F32, Round::Rtp),
            u64::from(16_777_218f32.to_bits())
        );
        assert_eq!(
            from_int(i128::from(u64::MAX), Type::F32, Round::Rtz),
            u64::from(((1u64 << 63) as f32 * 1.9999999).to_bits())
        );
    }
}
