//! Accuracy of the OpenCL C math builtins (6.15.2) for `double`, scalar and `double4`, on the
//! CPU device: each function is swept over special values (zeros, infinities, NaN, denormals,
//! the extremes, values near integers, halves and multiples of pi, huge trig arguments) and a
//! seeded random sample of bit patterns and moderate values, every lane checked on its own,
//! and the largest error is printed (run with `--nocapture`). Bounds are those of table 68
//! (7.4, double precision); a NaN must give a NaN, and a zero or infinite reference must be met
//! with the same sign.
//!
//! References. There is no wider type on the host, so a reference is a double with an error of
//! its own, and a result is held to `bound - ref_ulps`, where `ref_ulps` bounds the reference's
//! error against the exact value (the two errors add at worst):
//! - exact functions (fabs, floor, fmod, frexp, ldexp, remainder, ...) are computed exactly
//!   here or by the host's exact operations: `ref_ulps` 0, and a correctly rounded function
//!   must then return the reference itself;
//! - glibc's functions, with the maximum errors glibc documents for round-to-nearest double on
//!   x86-64 (sysdeps/x86_64/fpu/libm-test-ulps): where it lists 1 (errors below one ulp: sin,
//!   cos, exp, log, pow, ...) a result is held to `bound - 1`; where it lists more (cosh 2,
//!   erfc 5, tgamma 9, ...) to `bound` minus that;
//! - functions glibc lacks or computes too loosely are built here from pieces with known
//!   error: exp10 is pow(10, x) (10 and x exact, pow below one ulp); sinpi, cospi and tanpi
//!   reduce x exactly to |r| <= 1/4 and correct sin(pi r) for pi's rounding; the *pi inverses
//!   divide by pi with a residual correction; cbrt, rsqrt and rootn take one Newton step whose
//!   residual is computed with fused multiply-adds. Each case states its `ref_ulps`.
//!
//! lgamma has no bound in 7.4 (only its prescribed values are checked), and mad allows any
//! value (checked to be the fused or the unfused result anyway, as both forms are what an
//! implementation computes). Apart from the sweep, the functions that write through a pointer
//! are run through global, local and private pointers.
//!
//! This stays in Rust: it sweeps random bit patterns against references computed here. The
//! values 7.5.1 and C99 F.9 prescribe, and the signs of zero results, are the kernel files
//! `tests/kernels/math/prescribed.cl`, `prescribed_double.cl` and `zero_signs.cl`, run on
//! every platform present.

use crate::builtins_harness;

use builtins_harness::math::{
    self, case, fract_case, lgamma_r, lgamma_r_case, maxmag, minmag, modf_case, nextafter, powr,
    remquo, remquo_case, sincos_case, sweep_ints, want, with_second, zeros_either, Args, Case,
    Sweep, Want,
};
use builtins_harness::{
    next_down_f64 as next_down, next_up_f64 as next_up, pow2, ulp_f64 as ulp, Rng,
};

mod c {
    extern "C" {
        pub fn erf(x: f64) -> f64;
        pub fn erfc(x: f64) -> f64;
        pub fn tgamma(x: f64) -> f64;
        pub fn remainder(x: f64, y: f64) -> f64;
        pub fn logb(x: f64) -> f64;
        // Rust's f64::acosh, asinh and atanh are formulas of their own (ln of a sum, ln_1p of
        // a quotient) that lose many bits near 1 and -1; these are the C library's.
        pub fn acosh(x: f64) -> f64;
        pub fn asinh(x: f64) -> f64;
        pub fn atanh(x: f64) -> f64;
    }
}

const PI: f64 = std::f64::consts::PI;
/// pi - PI, the part of pi that PI misses (pi = 0x1.921fb54442d18469898cc51701b8p+1).
const PI_LO: f64 = 1.2246467991473532e-16;

/// Functions that fail their bound and are not fixed yet: (label, why). The test fails if one
/// of them starts to pass, so the list stays true.
const KNOWN_GAPS: &[(&str, &str)] = &[];

/// Correctly rounded, against an exact or correctly rounded reference: the reference itself.
const CR: f64 = 0.0;

/// Doubles every sweep includes.
fn special_f64() -> Vec<f64> {
    let mut v = vec![
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        f64::MAX,
        -f64::MAX,
        f64::MIN_POSITIVE,
        -f64::MIN_POSITIVE,
        f64::from_bits(1),
        f64::from_bits(0x8000_0000_0000_0001),
        f64::from_bits(0x000f_ffff_ffff_ffff),
        f64::from_bits(0x0008_0000_0000_0000),
        f64::EPSILON,
        1e-300,
        1e300,
        -1e300,
        709.78,
        710.0,
        -745.1,
        -746.0,
        1024.0,
        -1075.0,
        308.3,
        -323.5,
        1e22,
        1e100,
        1e308,
        9_007_199_254_740_992.0,
        4_503_599_627_370_496.5,
        0.1,
        171.6,
        -170.5,
    ];
    for k in -6..=6 {
        let x = f64::from(k) * 0.5;
        v.extend([x, next_up(x), next_down(x)]);
    }
    for k in [1.0f64, 2.0, 3.0, 10.0, 100.0, 1e4, 1e6, 1e10, 1e20, 1e300] {
        for m in [0.5, 1.0, 1.5] {
            let x = k * m * PI;
            v.extend([x, -x, next_up(x), next_down(x)]);
        }
    }
    v
}

/// A random double: any bit pattern for even `i`, else one of moderate exponent.
fn random_f64(rng: &mut Rng, i: usize) -> f64 {
    if i % 2 == 0 {
        f64::from_bits(rng.next())
    } else {
        let e = rng.below(61) as i32 - 30;
        let m = 1.0 + (rng.next() >> 12) as f64 / (1u64 << 52) as f64;
        let v = m * pow2(e);
        if rng.next() & 1 == 0 {
            v
        } else {
            -v
        }
    }
}

// --- References the host library lacks ---------------------------------------------------------

/// pi r for |r| <= 1/2 as a double-double: PI r rounded, and what the rounding and PI's own
/// error leave out.
fn pi_times(r: f64) -> (f64, f64) {
    let p = PI * r;
    (p, PI.mul_add(r, -p) + PI_LO * r)
}

/// sin(pi r) for |r| <= 1/4: sin of the double-double, to first order in the low part.
fn sin_pi_small(r: f64) -> f64 {
    let (p, e) = pi_times(r);
    p.sin() + e * p.cos()
}

/// cos(pi r) for |r| <= 1/4.
fn cos_pi_small(r: f64) -> f64 {
    let (p, e) = pi_times(r);
    p.cos() - e * p.sin()
}

fn sinpi(x: f64) -> f64 {
    math::sinpi(x, |r| {
        // sin(pi r) = sin(pi (sign(r) - r)); then |r| <= 1/2 and
        // sin(pi r) = cos(pi (1/2 - r)) above 1/4 (all exact subtractions).
        let r = if r.abs() > 0.5 { r.signum() - r } else { r };
        if r.abs() <= 0.25 {
            sin_pi_small(r)
        } else {
            cos_pi_small(r.signum() * 0.5 - r) * r.signum()
        }
    })
}

fn cospi(x: f64) -> f64 {
    math::cospi(x, |r| {
        // cos(pi r) = -cos(pi (1 - r)); cos(pi r) = sin(pi (1/2 - r)).
        let (r, s) = if r > 0.5 { (1.0 - r, -1.0) } else { (r, 1.0) };
        s * if r <= 0.25 {
            cos_pi_small(r)
        } else {
            sin_pi_small(0.5 - r)
        }
    })
}

fn tanpi(x: f64) -> f64 {
    // tan has period 1 in x; r in (-1/2, 1/2). The quotient of the two corrected values adds
    // half an ulp to their errors.
    math::tanpi(x, |r| {
        if r.abs() <= 0.25 {
            sin_pi_small(r) / cos_pi_small(r)
        } else {
            let q = r.signum() * 0.5 - r;
            cos_pi_small(q) / sin_pi_small(q)
        }
    })
}

/// a / pi with the quotient's rounding and PI's error corrected by the residual.
fn over_pi(a: f64) -> f64 {
    if !a.is_finite() || a == 0.0 {
        return a / PI;
    }
    let q = a / PI;
    let residual = (-q).mul_add(PI, a) - q * PI_LO;
    q + residual / PI
}

/// cbrt: glibc's value with one Newton step, the residual r^3 - x computed in double-double.
fn cbrt(x: f64) -> f64 {
    let r = x.cbrt();
    if !r.is_finite() || r == 0.0 || !x.is_normal() || x.abs() > 1e300 {
        return r;
    }
    let r2 = r * r;
    let r2e = r.mul_add(r, -r2);
    let r3 = r2 * r;
    let r3e = r2.mul_add(r, -r3) + r2e * r;
    let residual = (r3 - x) + r3e;
    r - residual / (3.0 * r2)
}

/// 1/sqrt(x) with one Newton step on the residual 1 - x r^2.
fn rsqrt(x: f64) -> f64 {
    let r = 1.0 / x.sqrt();
    if !r.is_finite() || r == 0.0 || !x.is_normal() || !(r * r).is_normal() {
        return r;
    }
    let r2 = r * r;
    let r2e = r.mul_add(r, -r2);
    let e = (-x).mul_add(r2, 1.0) - x * r2e;
    r.mul_add(e / 2.0, r)
}

/// The n-th root: pow(|x|, 1/n) (whose 1/n is rounded: an error of |ln x| / n * 2^-53
/// relative), corrected once by the ratio x / r^n - 1 (r^n by pow, below an ulp, n exact): the
/// corrected root is off by at most pow's ulp over n plus the final rounding.
fn rootn(x: f64, n: i32) -> f64 {
    if let Some(r) = math::rootn_prescribed(x, n) {
        return r;
    }
    let a = x.abs();
    let r = a.powf(1.0 / f64::from(n));
    if !r.is_normal() {
        return r.copysign(x);
    }
    // One Newton step on y^n = a, with r scaled to [1, 2) by 2^s and a by 2^(s n) so that
    // r^n neither overflows nor underflows (near DBL_MAX it would).
    let s = r.log2().floor() as i32;
    let q = scale2(r, -s);
    let t = q.powf(f64::from(n));
    let a_scaled = scale2(a, -s * n);
    let corrected = if t.is_normal() && a_scaled.is_normal() {
        let c = (t / a_scaled - 1.0) / f64::from(n);
        (-r).mul_add(c, r)
    } else {
        r
    };
    corrected.copysign(x)
}

/// x * 2^e, in steps that stay in range (exact while the result is normal).
fn scale2(mut x: f64, mut e: i32) -> f64 {
    while e != 0 {
        let step = e.clamp(-1000, 1000);
        x *= 2f64.powi(step);
        e -= step;
    }
    x
}

fn fmax(a: f64, b: f64) -> f64 {
    a.max(b)
}

fn fmin(a: f64, b: f64) -> f64 {
    a.min(b)
}

/// frexp from the bits: a mantissa in [1/2, 1) and the exponent.
fn frexp(x: f64) -> (f64, i32) {
    if x == 0.0 || !x.is_finite() {
        // 7.5.1: frexp(±inf) and frexp(NaN) store 0; C99 F.9.3.4: frexp(±0) = ±0, 0.
        return (x, 0);
    }
    let (scaled, bias) = if x.is_normal() {
        (x, 0)
    } else {
        (x * pow2(64), 64)
    };
    let e = ((scaled.to_bits() >> 52) & 0x7ff) as i32 - 1022;
    let m = f64::from_bits((scaled.to_bits() & !(0x7ff << 52)) | (1022 << 52));
    (m, e - bias)
}

/// ldexp, correctly rounded: the exponent of frexp's mantissa moved by n, built from the bits
/// where the result is normal; below, scaled to 2^-60 of its value exactly and rounded once by
/// a final multiplication.
fn ldexp(x: f64, n: i32) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let (m, e) = frexp(x);
    let exp = i64::from(e) + i64::from(n);
    if exp > 1024 {
        return f64::INFINITY.copysign(x);
    }
    if exp >= -1021 {
        // m is in [1/2, 1): biased exponent 1022; the result's is 1022 + exp, in [1, 2046].
        let bits = (m.to_bits() & !(0x7ff << 52)) | (((1022 + exp) as u64) << 52);
        return f64::from_bits(bits);
    }
    if exp < -1081 {
        // Below a quarter of the smallest denormal: rounds to a zero of x's sign.
        return 0.0f64.copysign(x);
    }
    m * pow2(exp as i32 + 60) * pow2(-60)
}

macro_rules! unary {
    ($label:literal, $bound:expr, $ref_ulps:expr, $r:expr) => {
        case(
            $label,
            concat!($label, "($a)"),
            Args::X,
            $bound,
            $ref_ulps,
            |a, _, _, _| {
                let r: fn(f64) -> f64 = $r;
                want(r(a))
            },
        )
    };
}

macro_rules! binary {
    ($label:literal, $bound:expr, $ref_ulps:expr, $r:expr) => {
        case(
            $label,
            concat!($label, "($a, $b)"),
            Args::Xy,
            $bound,
            $ref_ulps,
            |a, b, _, _| {
                let r: fn(f64, f64) -> f64 = $r;
                want(r(a, b))
            },
        )
    };
}

/// libm-test-ulps lists 1 ulp: glibc's error is below one ulp.
const GLIBC1: f64 = 1.0;

fn cases() -> Vec<Case<f64>> {
    vec![
        unary!("acos", 4.0, GLIBC1, |x| x.acos()),
        unary!("acosh", 4.0, 2.0, |x| unsafe { c::acosh(x) }),
        // The *pi inverses: glibc's result (below an ulp, so a relative error below 2^-52,
        // up to 2 ulps once divided by pi), the division corrected.
        unary!("acospi", 5.0, 2.0, |x| over_pi(x.acos())),
        unary!("asin", 4.0, GLIBC1, |x| x.asin()),
        unary!("asinh", 4.0, 2.0, |x| unsafe { c::asinh(x) }),
        unary!("asinpi", 5.0, 2.0, |x| over_pi(x.asin())),
        unary!("atan", 5.0, GLIBC1, |x| x.atan()),
        unary!("atanh", 5.0, 2.0, |x| unsafe { c::atanh(x) }),
        unary!("atanpi", 5.0, 2.0, |x| over_pi(x.atan())),
        // One Newton step from glibc's (4 ulps) value: half an ulp and the step's rounding.
        unary!("cbrt", 2.0, 1.0, cbrt),
        unary!("ceil", CR, 0.0, |x| x.ceil()),
        unary!("cos", 4.0, GLIBC1, |x| x.cos()),
        unary!("cosh", 4.0, 2.0, |x| x.cosh()),
        // sin or cos of an exactly reduced argument (below an ulp), corrected for pi.
        unary!("cospi", 4.0, GLIBC1, cospi),
        // SAFETY (these three): pure C library functions.
        unary!("erf", 16.0, GLIBC1, |x| unsafe { c::erf(x) }),
        unary!("erfc", 16.0, 5.0, |x| unsafe { c::erfc(x) }),
        unary!("exp", 3.0, GLIBC1, |x| x.exp()),
        unary!("exp2", 3.0, GLIBC1, |x| x.exp2()),
        // pow(10, x): both exact operands, pow below an ulp.
        unary!("exp10", 3.0, GLIBC1, |x| 10f64.powf(x)),
        unary!("expm1", 3.0, GLIBC1, |x| x.exp_m1()),
        unary!("fabs", 0.0, 0.0, |x| x.abs()),
        unary!("floor", CR, 0.0, |x| x.floor()),
        unary!("lgamma", f64::INFINITY, 4.0, |x| lgamma_r(x).0),
        unary!("log", 3.0, GLIBC1, |x| x.ln()),
        unary!("log2", 3.0, 2.0, |x| x.log2()),
        unary!("log10", 3.0, 2.0, |x| x.log10()),
        unary!("log1p", 2.0, GLIBC1, |x| x.ln_1p()),
        // SAFETY: a pure C library function (exact).
        unary!("logb", 0.0, 0.0, |x| unsafe { c::logb(x) }),
        unary!("rint", CR, 0.0, |x| x.round_ties_even()),
        unary!("round", CR, 0.0, |x| x.round()),
        // One Newton step from 1/sqrt(x): about half an ulp.
        unary!("rsqrt", 2.0, 0.6, rsqrt),
        unary!("sin", 4.0, GLIBC1, |x| x.sin()),
        unary!("sinh", 4.0, 2.0, |x| x.sinh()),
        unary!("sinpi", 4.0, GLIBC1, sinpi),
        unary!("sqrt", CR, 0.0, |x| x.sqrt()),
        // glibc's tan is not listed (correctly rounded in its tests); held to an ulp anyway.
        unary!("tan", 5.0, GLIBC1, |x| x.tan()),
        unary!("tanh", 5.0, 2.0, |x| x.tanh()),
        // A quotient of two values below an ulp each, rounded: 2.5 ulps.
        unary!("tanpi", 6.0, 2.5, tanpi),
        // SAFETY: a pure C library function.
        unary!("tgamma", 16.0, 9.0, |x| unsafe { c::tgamma(x) }),
        unary!("trunc", CR, 0.0, |x| x.trunc()),
        case(
            "ilogb",
            "convert_double$w(ilogb($a))",
            Args::X,
            0.0,
            0.0,
            |a, _, _, _| {
                // FP_ILOGB0 and FP_ILOGBNAN are INT_MIN in this compiler's predefined macros
                // (C99 F.9.3.5's choice of values); ilogb(±inf) is INT_MAX.
                want(if a == 0.0 || a.is_nan() {
                    f64::from(i32::MIN)
                } else if a.is_infinite() {
                    f64::from(i32::MAX)
                } else {
                    // SAFETY: a pure C library function.
                    unsafe { c::logb(a) }
                })
            },
        ),
        case(
            "nan",
            "nan(as_ulong$w($a))",
            Args::X,
            0.0,
            0.0,
            // 6.15.2: nan(nancode) "returns a quiet NaN".
            |_, _, _, _| want(f64::NAN),
        ),
        // atan2 is not listed by glibc (correctly rounded in its tests): one ulp anyway.
        binary!("atan2", 6.0, GLIBC1, |y, x| y.atan2(x)),
        binary!("atan2pi", 6.0, 2.0, |y, x| over_pi(y.atan2(x))),
        binary!("copysign", 0.0, 0.0, |x, y| x.copysign(y)),
        binary!("fdim", CR, 0.0, |x, y| if x.is_nan() || y.is_nan() {
            f64::NAN
        } else if x > y {
            x - y
        } else {
            0.0
        }),
        zeros_either(binary!("fmax", 0.0, 0.0, fmax)),
        zeros_either(binary!("fmin", 0.0, 0.0, fmin)),
        binary!("fmod", 0.0, 0.0, |x, y| x % y),
        binary!("hypot", 4.0, GLIBC1, |x, y| x.hypot(y)),
        zeros_either(binary!("maxmag", 0.0, 0.0, maxmag)),
        zeros_either(binary!("minmag", 0.0, 0.0, minmag)),
        binary!("nextafter", 0.0, 0.0, nextafter),
        binary!("pow", 16.0, GLIBC1, |x, y| x.powf(y)),
        binary!("powr", 16.0, GLIBC1, powr),
        // SAFETY: a pure C library function (exact).
        binary!("remainder", 0.0, 0.0, |x, y| unsafe { c::remainder(x, y) }),
        // 7.4, table 68: x / y is correctly rounded for double.
        case("divide", "$a / $b", Args::Xy, CR, 0.0, |a, b, _, _| {
            want(a / b)
        }),
        case("ldexp", "ldexp($a, $n)", Args::Xn, CR, 0.0, |a, _, _, n| {
            want(ldexp(a, n))
        }),
        // pow with an exact integer exponent: below an ulp.
        case(
            "pown",
            "pown($a, $n)",
            Args::Xn,
            16.0,
            GLIBC1,
            // 7.5.1: pown(±0, n) is +0 for even n > 0 and ±0 for odd n > 0, as C99's pow.
            |a, _, _, n| want(a.powf(f64::from(n))),
        ),
        case(
            "rootn",
            "rootn($a, $n)",
            Args::Xn,
            16.0,
            2.0,
            |a, _, _, n| want(rootn(a, n)),
        ),
        case(
            "fma",
            "fma($a, $b, $c)",
            Args::Xyz,
            CR,
            0.0,
            |a, b, c, _| want(a.mul_add(b, c)),
        ),
        case(
            "mad",
            "mad($a, $b, $c)",
            Args::Xyz,
            CR,
            0.0,
            |a, b, c, _| Want {
                value: a.mul_add(b, c),
                second: None,
                alt: Some(a * b + c),
            },
        ),
        fract_case(CR),
        modf_case(),
        with_second(
            case("frexp", "frexp($a, &t)", Args::X, 0.0, 0.0, |x, _, _, _| {
                let (m, e) = frexp(x);
                Want {
                    value: m,
                    second: Some(f64::from(e)),
                    alt: None,
                }
            }),
            "int",
            0.0,
        ),
        sincos_case(GLIBC1),
        remquo_case(),
        lgamma_r_case(4.0),
    ]
}

/// The double sweep: every pair among the first 16 special values (zeros, infinities, NaN,
/// extremes, denormals) and a third of the rest; every special value with small and extreme
/// ints; 2048 random values per function (and per width), half bit patterns, half moderate
/// values; columns a multiple of 4 long.
fn sweep() -> Sweep<f64> {
    Sweep {
        special: special_f64(),
        ints: sweep_ints(&[53, -64, 1023, -1074, 1100, -2100]),
        pairs: |i, j| i < 16 || j < 16 || (i + j) % 3 == 0,
        random: 2_048,
        draw: random_f64,
        z_offset: 1,
        pad: 4,
        unused: (1.0, 1),
        widths: &[1, 4],
    }
}

/// Run with `--nocapture` to see each function's largest error; `BUILTINS_ONLY=<label>` checks
/// one function.
#[test]
fn double_math_builtins_meet_their_ulp_bounds() {
    math::sweep_cases(&cases(), &sweep(), 0xd0b1e, KNOWN_GAPS, |c, o| {
        let bound = if c.bound.is_infinite() {
            "none".to_string()
        } else {
            format!("{} - reference {}", c.bound, c.ref_ulps)
        };
        format!(
            "{:<10} max {:>9.4} ulp vs reference (bound {bound}) at {}",
            c.label, o.max_err, o.max_at
        )
    });
}

#[test]
fn references_are_what_they_claim() {
    for x in special_f64() {
        let (m, e) = frexp(x);
        if x.is_finite() && x != 0.0 {
            assert!((0.5..1.0).contains(&m.abs()), "frexp({x:e}) = {m:e}");
            assert_eq!(ldexp(m, e), x, "frexp/ldexp of {x:e}");
        }
    }
    assert_eq!(ldexp(1.0, -1074), f64::from_bits(1));
    assert_eq!(ldexp(1.5, -1074), f64::from_bits(2));
    // (2 - 2^-52) 2^-1075 rounds up to 2^-1074; half of that rounds to even, zero.
    assert_eq!(ldexp(f64::MAX, -2098), f64::from_bits(1));
    assert_eq!(ldexp(f64::MAX, -2099), 0.0);
    assert_eq!(ldexp(f64::from_bits(1), 2097), pow2(1023));
    assert_eq!(cbrt(27.0), 3.0);
    assert_eq!(cbrt(-0.125), -0.5);
    assert_eq!(rsqrt(4.0), 0.5);
    assert_eq!(rootn(1024.0, 10), 2.0);
    assert_eq!(rootn(-243.0, 5), -3.0);
    assert_eq!(sinpi(0.5), 1.0);
    assert_eq!(sinpi(-1.5), 1.0);
    assert_eq!(cospi(1.0), -1.0);
    // Values known to more digits than a double holds (1/6 and 1/3 are not doubles: the
    // exact results for the doubles nearest them are within an ulp of 1/2).
    let close = |got: f64, want: f64, ulps: f64| (got - want).abs() <= ulps * ulp(want);
    assert!(close(sinpi(1.0 / 6.0), 0.5, 1.0));
    assert!(close(cospi(1.0 / 3.0), 0.5, 1.0));
    assert!(close(sinpi(0.25), std::f64::consts::FRAC_1_SQRT_2, 1.0));
    assert!(close(
        cospi(1e6 + 0.25),
        std::f64::consts::FRAC_1_SQRT_2,
        1.0
    ));
    assert!(close(over_pi(std::f64::consts::FRAC_PI_3), 1.0 / 3.0, 1.0));
    assert!(close(tanpi(0.25), 1.0, 2.5) && close(tanpi(-0.75), 1.0, 2.5));
    assert!(close(tanpi(1.0 / 3.0), 3f64.sqrt(), 2.5));
    assert_eq!(over_pi(PI), 1.0);
    assert_eq!(remquo(7.0, 2.0), (-1.0, 4));
    assert!(remquo(-1e300, 3.0).1.abs() < 128);
}

#[test]
fn double_pointer_results_go_to_every_address_space() {
    let mut rng = Rng::new(0xadd);
    let mut x = special_f64();
    while x.len() < 2400 {
        x.push(random_f64(&mut rng, x.len()));
    }
    let y: Vec<f64> = x
        .iter()
        .map(|_| {
            (1.0 + (rng.next() >> 12) as f64 / (1u64 << 52) as f64) * pow2(rng.below(9) as i32 - 4)
        })
        .collect();
    math::check_pointer_results(&x, &y);
}
