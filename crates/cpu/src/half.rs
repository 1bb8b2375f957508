//! Conversions between IEEE-754 binary16 (`half`, held as its 16 bits) and float/double, for
//! `vload_half`/`vstore_half` (OpenCL C 6.15.7): widening is exact; narrowing rounds once,
//! from the exact value, in the mode the builtin names (`_rte`, `_rtz`, `_rtp`, `_rtn`).

/// Rounding modes, as the code generator passes them.
pub const RTE: u32 = 0;
pub const RTZ: u32 = 1;
pub const RTP: u32 = 2;
pub const RTN: u32 = 3;

/// The value of a half's bits, exactly: the exponent rebiased, a subnormal scaled (exact in
/// float); a NaN keeps its payload and is quiet, as `half_to_double` makes it. Code
/// generation widens inline (`codegen/convert.rs`); these two are the tests' references.
#[cfg(test)]
fn half_to_float(bits: u16) -> f32 {
    let h = u32::from(bits);
    let sign = (h & 0x8000) << 16;
    let mant = h & 0x3ff;
    let magnitude = match (h >> 10) & 0x1f {
        // 2^-24 exactly.
        0 => return f32::from_bits(sign | (mant as f32 / 16_777_216.0).to_bits()),
        31 if mant == 0 => 0x7f80_0000,
        31 => 0x7fc0_0000 | (mant << 13),
        e => ((e + 112) << 23) | (mant << 13),
    };
    f32::from_bits(sign | magnitude)
}

#[cfg(test)]
fn half_to_double(bits: u16) -> f64 {
    ferrocl_device::printf::half_to_f64(bits)
}

pub extern "C" fn float_to_half(x: f32, mode: u32) -> u16 {
    if mode == RTE {
        float_to_half_rte(x)
    } else {
        double_to_half(f64::from(x), mode)
    }
}

/// `float_to_half` to nearest even, on the bits (the rounding every `half` operation ends
/// with): the exponent rebiased and the 13 low significand bits rounded off, or for a
/// subnormal result the significand shifted to units of 2^-24 and rounded.
fn float_to_half_rte(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let a = b & 0x7fff_ffff;
    if a > 0x7f80_0000 {
        // A NaN: quiet, with the payload's top bits (as `double_to_half`).
        return sign | 0x7e00 | ((a >> 13) & 0x1ff) as u16;
    }
    if a >= 0x477f_f000 {
        // 65520 (halfway between HALF_MAX and 2^16) and above, infinity included.
        return sign | 0x7c00;
    }
    if a >= 0x3880_0000 {
        // At least 2^-14: a normal half. Rebias (127 - 15 = 112) and round at bit 13; a carry
        // into the exponent is the next binade, correctly.
        let r = a - (112 << 23);
        let r = r + 0xfff + ((r >> 13) & 1);
        return sign | (r >> 13) as u16;
    }
    if a < 0x3300_0000 {
        // Below 2^-25 (half the smallest subnormal), or 2^-25 itself: a tie to even zero.
        return sign;
    }
    // A subnormal half: the float's significand (with its implicit bit) in units of 2^-24.
    let e = a >> 23;
    let m = (a & 0x7f_ffff) | 0x80_0000;
    let shift = 126 - e;
    let (q, rem, halfway) = (m >> shift, m & ((1 << shift) - 1), 1 << (shift - 1));
    let up = rem > halfway || (rem == halfway && q & 1 == 1);
    sign | (q + u32::from(up)) as u16
}

/// Rounds `x` to a half in `mode`: the result is the half nearest to x in the direction the
/// mode gives, x being exact (a float widens to double exactly).
pub extern "C" fn double_to_half(x: f64, mode: u32) -> u16 {
    let sign: u16 = if x.is_sign_negative() { 0x8000 } else { 0 };
    if x.is_nan() {
        return sign | 0x7e00 | ((x.to_bits() >> 42) as u16 & 0x1ff);
    }
    let a = x.abs();
    // Rounding away from zero, for this sign and mode, given a nonzero remainder.
    let away = |tie: bool, odd: bool, above_half: bool| match mode {
        RTZ => false,
        RTP => sign == 0,
        RTN => sign != 0,
        _ => above_half || (tie && odd),
    };
    if a.is_infinite() {
        return sign | 0x7c00;
    }
    // The quantum (distance between halves) around a: subnormals step by 2^-24, a normal with
    // exponent e by 2^(e-10); past the largest exponent the value overflows.
    let e = if a == 0.0 {
        -25
    } else {
        ((a.to_bits() >> 52) as i32) - 1023
    };
    let q_exp = if e < -14 { -24 } else { e - 10 };
    let q = 2f64.powi(q_exp);
    let t = a / q;
    let n = t.floor();
    let frac = t - n;
    let mut n = n as u64;
    if frac != 0.0 && away(frac == 0.5, n & 1 == 1, frac > 0.5) {
        n += 1;
    }
    let value = n as f64 * q;
    if value >= 65536.0 {
        // Overflow: infinity when rounding goes up in magnitude, else the largest half.
        let to_inf = match mode {
            RTZ => false,
            RTP => sign == 0,
            RTN => sign != 0,
            _ => true,
        };
        return sign | if to_inf { 0x7c00 } else { 0x7bff };
    }
    if value < 2f64.powi(-14) {
        // A subnormal (or, when rounding reached it, the smallest normal: 1024 << 0 encodes it).
        return sign | (value / 2f64.powi(-24)) as u16;
    }
    let ve = ((value.to_bits() >> 52) as i32) - 1023;
    let mant = (value / 2f64.powi(ve - 10)) as u16 - 1024;
    sign | (((ve + 15) as u16) << 10) | mant
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_half_round_trips_through_float() {
        for bits in 0..=u16::MAX {
            let f = half_to_float(bits);
            if f.is_nan() {
                assert!(
                    float_to_half(f, RTE) & 0x7c00 == 0x7c00 && float_to_half(f, RTE) & 0x3ff != 0
                );
                continue;
            }
            for mode in [RTE, RTZ, RTP, RTN] {
                assert_eq!(
                    float_to_half(f, mode),
                    bits,
                    "half {bits:#06x} ({f}) in mode {mode}"
                );
            }
        }
    }

    /// The bit-level conversions give what the exact ones give: every half widened, and
    /// floats spread over every exponent (and the boundaries of the subnormal and overflow
    /// ranges) rounded to nearest even.
    #[test]
    fn bit_level_conversions_match_the_exact_ones() {
        for bits in 0..=u16::MAX {
            assert_eq!(
                half_to_float(bits).to_bits(),
                (half_to_double(bits) as f32).to_bits(),
                "{bits:#06x}"
            );
        }
        let edges = [
            0x3300_0000u32,
            0x3300_0001,
            0x32ff_ffff,
            0x3880_0000,
            0x387f_ffff,
        ];
        let more = [
            0x477f_efff,
            0x477f_f000,
            0x7f80_0000,
            0x7f80_0001,
            0x7fc0_1234,
        ];
        let spread = (0..=u32::MAX / 997).map(|k| k * 997);
        for b in edges.into_iter().chain(more).chain(spread) {
            for x in [f32::from_bits(b), -f32::from_bits(b)] {
                assert_eq!(
                    float_to_half(x, RTE),
                    double_to_half(f64::from(x), RTE),
                    "{:#010x}",
                    x.to_bits()
                );
            }
        }
    }

    #[test]
    fn rounding_between_halves() {
        // 1 + 2^-11 lies halfway between 1 (0x3c00) and 1 + 2^-10 (0x3c01).
        let mid = 1.0 + 2f32.powi(-11);
        assert_eq!(float_to_half(mid, RTE), 0x3c00);
        assert_eq!(float_to_half(mid, RTZ), 0x3c00);
        assert_eq!(float_to_half(mid, RTP), 0x3c01);
        assert_eq!(float_to_half(mid, RTN), 0x3c00);
        assert_eq!(float_to_half(-mid, RTP), 0xbc00);
        assert_eq!(float_to_half(-mid, RTN), 0xbc01);
        // Ties to even: 1 + 3 * 2^-11 goes up to 0x3c02.
        assert_eq!(float_to_half(1.0 + 3.0 * 2f32.powi(-11), RTE), 0x3c02);
        // Overflow: 65520 is halfway between 65504 and 65536.
        assert_eq!(float_to_half(65520.0, RTE), 0x7c00);
        assert_eq!(float_to_half(65519.0, RTE), 0x7bff);
        assert_eq!(float_to_half(1e6, RTZ), 0x7bff);
        assert_eq!(float_to_half(-1e6, RTP), 0xfbff);
        assert_eq!(float_to_half(-1e6, RTN), 0xfc00);
        // Subnormals and underflow.
        assert_eq!(float_to_half(2f32.powi(-24), RTE), 0x0001);
        assert_eq!(float_to_half(2f32.powi(-26), RTE), 0x0000);
        assert_eq!(float_to_half(2f32.powi(-26), RTP), 0x0001);
        assert_eq!(float_to_half(-0.0, RTE), 0x8000);
        assert_eq!(
            double_to_half(1.0 + 2f64.powi(-11) + 2f64.powi(-40), RTE),
            0x3c01
        );
    }

    #[test]
    fn narrowing_picks_a_neighbour_in_the_rounding_direction() {
        // For floats between consecutive halves, RTZ/RTN/RTP give the right neighbour.
        let mut s = 0x1234_5678u32;
        for _ in 0..100_000 {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            let f = f32::from_bits(s);
            if !f.is_finite() || f.abs() >= 65504.0 {
                continue;
            }
            let down = half_to_double(float_to_half(f, RTN));
            let up = half_to_double(float_to_half(f, RTP));
            let x = f64::from(f);
            assert!(down <= x && x <= up, "{f}: {down} .. {up}");
            assert!(
                up - down <= 2f64.powi(-24).max(x.abs() * 2f64.powi(-10)),
                "{f}: {down} .. {up}"
            );
            let near = half_to_double(float_to_half(f, RTE));
            assert!(
                (near - x).abs() <= (x - down).min(up - x) + 0.0,
                "{f}: nearest {near}"
            );
        }
    }
}
