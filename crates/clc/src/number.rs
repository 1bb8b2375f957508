//! Numeric constants (C99 6.4.4.1 and 6.4.4.2, with OpenCL's `h` suffix for half): the value
//! and type suffixes of a pp-number's text, beside the lexer that produced the token. Integer
//! digits are read by the preprocessor's own reader, which `#if` expressions share.

/// The value of a numeric constant and what its suffixes say about its type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    /// `unsigned` and `long` from the suffix; `decimal` for constants written in base 10
    /// (which select their type from a different list, 6.4.4.1).
    Int {
        value: u64,
        unsigned: bool,
        long: bool,
        decimal: bool,
    },
    /// `suffix` is `b'f'`, `b'h'` or 0 (none, or `l`).
    Float { value: f64, suffix: u8 },
}

/// A malformed constant: the message for the build log, and the expression that stands in for
/// it so that checking goes on.
pub struct NumberError {
    pub message: String,
    pub placeholder: Number,
}

/// Reads a pp-number's text as an integer or floating constant.
pub fn parse_number(text: &str) -> Result<Number, NumberError> {
    let lower = text.to_ascii_lowercase();
    let is_hex = lower.starts_with("0x");
    let is_float = if is_hex {
        lower.contains('.') || lower.contains('p')
    } else {
        lower.contains('.') || lower.contains('e')
    };
    if !is_float {
        match crate::pp::expr::parse_int(&lower) {
            Some((v, _)) => {
                let body = lower.trim_end_matches(['u', 'l']);
                let suffix = &lower[body.len()..];
                let decimal = !(body.starts_with('0') && body.len() > 1);
                return Ok(Number::Int {
                    value: v,
                    unsigned: suffix.contains('u'),
                    long: suffix.contains('l'),
                    decimal,
                });
            }
            None => {
                let body = lower.trim_end_matches(|c: char| {
                    c.is_ascii_alphabetic() && !(is_hex && c.is_ascii_hexdigit())
                });
                let msg = if crate::pp::expr::parse_int(body).is_some() || body.is_empty() {
                    format!(
                        "invalid suffix '{}' on integer constant",
                        &text[body.len().min(text.len())..]
                    )
                } else if body.len() < 24
                    && body.bytes().all(|b| b.is_ascii_hexdigit() || b == b'x')
                {
                    "integer literal is too large to be represented in any integer type".to_string()
                } else {
                    format!("invalid digit in integer constant '{text}'")
                };
                return Err(NumberError {
                    message: msg,
                    placeholder: Number::Int {
                        value: 0,
                        unsigned: false,
                        long: false,
                        decimal: true,
                    },
                });
            }
        }
    }
    let suffixed = lower.ends_with('f') || lower.ends_with('h');
    let (body, suffix) = if suffixed && (!is_hex || lower.contains('p')) {
        (&lower[..lower.len() - 1], lower.as_bytes()[lower.len() - 1])
    } else if lower.ends_with('l') {
        (&lower[..lower.len() - 1], 0)
    } else {
        (lower.as_str(), 0)
    };
    let v = if is_hex {
        parse_hex_float(&body[2..])
    } else {
        body.parse::<f64>().ok()
    };
    match v {
        Some(value) => Ok(Number::Float { value, suffix }),
        None => Err(NumberError {
            message: format!("invalid floating constant '{text}'"),
            placeholder: Number::Float {
                value: 0.0,
                suffix: 0,
            },
        }),
    }
}

/// Hexadecimal floating constants (C99 6.4.4.2): `1.8p3` (after `0x`).
fn parse_hex_float(s: &str) -> Option<f64> {
    let (mant, exp) = s.split_once('p')?;
    // Exponents beyond any double's reach saturate (to zero or infinity below).
    let exp: i64 = exp.parse::<i64>().ok().or_else(|| {
        let digits = exp.trim_start_matches(['+', '-']);
        (!digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit())).then(|| {
            if exp.starts_with('-') {
                -100_000
            } else {
                100_000
            }
        })
    })?;
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    // The significand's first 60 bits exactly, the rest only as a sticky bit: the value is
    // (m + something below one unit when sticky) * 2^e.
    let (mut m, mut e, mut sticky) = (0u64, exp.clamp(-100_000, 100_000), false);
    for (i, c) in int.chars().chain(frac.chars()).enumerate() {
        let d = u64::from(c.to_digit(16)?);
        let fractional = i >= int.len();
        if m >> 56 == 0 {
            m = m * 16 + d;
            if fractional {
                e -= 4;
            }
        } else {
            sticky |= d != 0;
            if !fractional {
                e += 4;
            }
        }
    }
    Some(round_to_double(m, e, sticky))
}

/// `(m + sticky part) * 2^e` rounded once to the nearest double, ties to even (6.1.1.1:
/// floating-point literals are rounded as IEEE 754 conversions; denormals included).
fn round_to_double(m: u64, e: i64, sticky: bool) -> f64 {
    if m == 0 {
        return 0.0;
    }
    let bits = i64::from(64 - m.leading_zeros());
    let top = e + bits - 1; // the exponent of the leading bit
    if top > 1023 {
        return f64::INFINITY;
    }
    if top < -1075 {
        return 0.0;
    }
    // Bits the result keeps: 53, fewer among the denormals (2^-1074 is the last one).
    let keep = if top >= -1022 { 53 } else { top + 1075 };
    let drop = bits - keep;
    let (q, scale) = if drop <= 0 {
        (m << -drop, e + drop)
    } else {
        let q = if drop >= 64 { 0 } else { m >> drop };
        let rest = if drop >= 64 {
            m
        } else {
            m & ((1u64 << drop) - 1)
        };
        let half = 1u64 << (drop - 1);
        let up = rest > half || (rest == half && (sticky || q & 1 == 1));
        (q + u64::from(up), e + drop)
    };
    // q has at most 54 bits, so it converts exactly; the scaling by 2^scale is exact (the
    // rounding is done), in steps that stay in range.
    let mut v = q as f64;
    let mut k = scale;
    while k != 0 {
        let step = k.clamp(-1000, 1000);
        v *= 2f64.powi(step as i32);
        k -= step;
    }
    v
}

#[cfg(test)]
mod hex_float_tests {
    use super::parse_hex_float;

    #[test]
    fn hex_floats_round_once() {
        let p = |s: &str| parse_hex_float(s).unwrap();
        assert_eq!(p("1p0"), 1.0);
        assert_eq!(p("1.8p1"), 3.0);
        assert_eq!(p(".8p0"), 0.5);
        assert_eq!(p("10.p-4"), 1.0);
        // The denormals: the smallest, a tie to even below it, just above the tie.
        assert_eq!(p("1p-1074").to_bits(), 1);
        assert_eq!(p("1p-1075").to_bits(), 0);
        assert_eq!(p("1.8p-1075").to_bits(), 1);
        assert_eq!(p("1.8p-1074").to_bits(), 2);
        assert_eq!(p("1p-1022"), f64::MIN_POSITIVE);
        assert_eq!(p("0.fffffffffffffp-1022").to_bits(), 0x000f_ffff_ffff_ffff);
        // Past 53 bits: ties to even, and a sticky digit far down decides.
        assert_eq!(p("1.00000000000008p0"), 1.0);
        assert_eq!(p("1.00000000000018p0"), 1.0 + 2.0 * f64::EPSILON);
        assert_eq!(p("1.000000000000080000000001p0"), 1.0 + f64::EPSILON);
        assert_eq!(p("1.fffffffffffff8p0"), 2.0);
        assert_eq!(p("1.fffffffffffffp1023"), f64::MAX);
        assert_eq!(p("1p1024"), f64::INFINITY);
        assert_eq!(p("1p-99999999999"), 0.0);
        assert_eq!(p("1p99999999999"), f64::INFINITY);
        assert_eq!(p("0p5"), 0.0);
        assert_eq!(
            p("123456789abcdef0123p0"),
            0x0123_4567_89ab_cdef_0123_u128 as f64
        );
        assert_eq!(parse_hex_float("p3"), None);
    }
}
