//! Accuracy of the OpenCL C math builtins (6.15.2) for `float`, scalar and `float3`, `float4`,
//! `float8`, `float16`, on the CPU device, against references computed in `double`: each function is
//! swept over special values (zeros, infinities, NaN, denormals, the extremes, values near
//! integers and multiples of pi, huge trig arguments) and a seeded random sample of bit
//! patterns and moderate values, every lane checked on its own, and the largest error is
//! printed. Bounds are those of table 65 (7.4, full profile); results C99 F.9 or 7.5.1
//! prescribe (a reference of zero or infinity, a NaN) must be met exactly.
//!
//! The double references are the host's C library (correctly rounded or within an ulp of
//! double, so far below a float ulp) except where a function has none: the *pi functions,
//! powr, pown, rootn, maxmag, minmag and nextafter are written here from their definitions.
//! lgamma near its zeros is where a double reference loses most (cancellation in the last
//! bits of double); its bound is undefined in 7.4, so only its prescribed values are checked.

mod builtins_harness;

use builtins_harness::{special_f32, ulp_error, values, Rng, Runner};

mod c {
    use std::ffi::c_int;
    extern "C" {
        pub fn erf(x: f64) -> f64;
        pub fn erfc(x: f64) -> f64;
        pub fn tgamma(x: f64) -> f64;
        pub fn lgamma_r(x: f64, sign: *mut c_int) -> f64;
        pub fn remainder(x: f64, y: f64) -> f64;
        pub fn logb(x: f64) -> f64;
    }
}

const PI: f64 = std::f64::consts::PI;

/// Functions that fail their bound and are not fixed yet: (label, why). The test fails if
/// one of them starts to pass, so the list stays true.
const KNOWN_GAPS: &[(&str, &str)] = &[];

/// What a builtin's inputs are.
#[derive(Clone, Copy, PartialEq)]
enum Args {
    /// `f(x)`.
    X,
    /// `f(x, y)`.
    Xy,
    /// `f(x, n)` with an int `n`.
    Xn,
    /// `f(x, y, z)`.
    Xyz,
}

/// What the reference says: the value, and the second result a pointer argument receives.
struct Want {
    value: f64,
    second: Option<f64>,
    /// Another acceptable value (mad: a fused or an unfused result).
    alt: Option<f64>,
}

fn want(value: f64) -> Want {
    Want {
        value,
        second: None,
        alt: None,
    }
}

struct Case {
    label: &'static str,
    /// The expression, in terms of $a, $b, $c (float gentype operands), $n (int gentype), t
    /// (the private variable a pointer argument points at) and $f (the float gentype's name).
    expr: &'static str,
    args: Args,
    /// The type T is made of: "float" or "int".
    second: &'static str,
    /// Bound for the value, in ulps (f64::INFINITY: none, only prescribed values checked).
    bound: f64,
    /// Bound for the second result (ulps; 0 for an exact one).
    second_bound: f64,
    /// half_ and native_ forms: denormal inputs and results are not checked (6.15.2.1:
    /// "Support for denormal values is optional for half_ functions"), and inputs are
    /// limited to `range` where the function declares one.
    relaxed: bool,
    range: f32,
    zeros_either: bool,
    /// Build options for the case's kernels.
    options: &'static str,
    reference: fn(f32, f32, f32, i32) -> Want,
}

/// Correctly rounded: half an ulp, plus the reference's own double rounding error.
const CR: f64 = 0.5 + 1e-6;

fn case(
    label: &'static str,
    expr: &'static str,
    args: Args,
    bound: f64,
    reference: fn(f32, f32, f32, i32) -> Want,
) -> Case {
    Case {
        label,
        expr,
        args,
        second: "float",
        bound,
        second_bound: 0.0,
        relaxed: false,
        range: f32::INFINITY,
        zeros_either: false,
        options: "",
        reference,
    }
}

fn relaxed(mut c: Case, range: f32) -> Case {
    c.relaxed = true;
    c.range = range;
    c
}

/// fmax, fmin, maxmag, minmag of two zeros: either zero (C99 F.9.9.2 only recommends that
/// fmax(-0, +0) be +0).
fn zeros_either(mut c: Case) -> Case {
    c.zeros_either = true;
    c
}

fn with_options(mut c: Case, options: &'static str) -> Case {
    c.options = options;
    c
}

fn with_second(mut c: Case, ty: &'static str, bound: f64) -> Case {
    c.second = ty;
    c.second_bound = bound;
    c
}

// References that the host library lacks, from their definitions.

/// sin(pi x): reduced exactly (x is a float, so x - 2 round(x / 2) is exact in double).
fn sinpi(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let r = x - 2.0 * (x / 2.0).round();
    if r == 0.0 || r.abs() == 1.0 {
        // 7.5.1: sinpi(+n) = +0, sinpi(-n) = -0, sinpi(±0) = ±0.
        return 0.0f64.copysign(x);
    }
    (PI * r).sin()
}

fn cospi(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let r = (x - 2.0 * (x / 2.0).round()).abs();
    if r == 0.5 {
        // 7.5.1: cospi(n + 0.5) is +0.
        return 0.0;
    }
    (PI * r).cos()
}

fn tanpi(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let n = x.round();
    let r = x - n;
    let odd = (n / 2.0).fract() != 0.0;
    if r == 0.0 {
        // 7.5.1: copysign(0, n) for even n, copysign(0, -n) for odd n.
        return 0.0f64.copysign(if odd { -x } else { x });
    }
    if r.abs() == 0.5 {
        // 7.5.1: tanpi(n + 0.5) is +inf for even n, -inf for odd n (n = floor(x)).
        let fl = x.floor();
        let fodd = (fl / 2.0).fract() != 0.0;
        return if fodd {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
    }
    (PI * r).tan()
}

/// powr from 7.5.1's list; otherwise exp(y log x).
fn powr(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() || x < 0.0 {
        return f64::NAN;
    }
    if ((x == 0.0 || x.is_infinite()) && y == 0.0) || (x == 1.0 && y.is_infinite()) {
        return f64::NAN;
    }
    if x == 0.0 && y < 0.0 {
        // 7.5.1: powr(±0, y) is +inf for finite y < 0; powr(±0, -inf) is +inf.
        return f64::INFINITY;
    }
    if x == 0.0 {
        // 7.5.1: powr(±0, y) is ±0 for y > 0 ("the sign shall be preserved").
        return x;
    }
    x.powf(y)
}

/// The n-th root, from 7.5.1's list.
fn rootn(x: f64, n: i32) -> f64 {
    if n == 0 || (x < 0.0 && n % 2 == 0) || x.is_nan() {
        return f64::NAN;
    }
    if x == 0.0 {
        return if n < 0 {
            if n % 2 != 0 {
                f64::INFINITY.copysign(x)
            } else {
                f64::INFINITY
            }
        } else {
            // 7.5.1: rootn(±0, n) is ±0 for even and odd n > 0.
            x
        };
    }
    let r = x.abs().powf(1.0 / f64::from(n));
    r.copysign(x)
}

fn maxmag(x: f32, y: f32) -> f64 {
    let (a, b) = (f64::from(x), f64::from(y));
    if a.abs() > b.abs() {
        a
    } else if b.abs() > a.abs() {
        b
    } else {
        a.max(b)
    }
}

fn minmag(x: f32, y: f32) -> f64 {
    let (a, b) = (f64::from(x), f64::from(y));
    if a.abs() < b.abs() {
        a
    } else if b.abs() < a.abs() {
        b
    } else {
        a.min(b)
    }
}

fn nextafter(x: f32, y: f32) -> f64 {
    if x.is_nan() || y.is_nan() {
        return f64::NAN;
    }
    if x == y {
        return f64::from(y);
    }
    let r = if y > x {
        builtins_harness::next_up(x)
    } else {
        builtins_harness::next_down(x)
    };
    f64::from(r)
}

fn lgamma_r(x: f64) -> (f64, i32) {
    let mut s = 0;
    // SAFETY: a C library function writing one int.
    let r = unsafe { c::lgamma_r(x, &mut s) };
    // 7.5.1: lgamma_r "returns 0 in signp if x is zero or a negative integer".
    if x == 0.0 || (x < 0.0 && x.fract() == 0.0) {
        s = 0;
    }
    (r, s)
}

fn remquo(x: f64, y: f64) -> (f64, i32) {
    // 7.5.1: a NaN and 0 in quo for x infinite, y zero, or a NaN argument.
    if x.is_infinite() || y == 0.0 || x.is_nan() || y.is_nan() {
        return (f64::NAN, 0);
    }
    // SAFETY: a pure C library function.
    let r = unsafe { c::remainder(x, y) };
    // 6.15.2: quo holds "the lower seven bits of the integral quotient x/y" with the sign
    // of x/y. The quotient k (nearest x/y, ties to even) is found from |x| reduced modulo
    // 128 |y| (exact for float operands in double), which keeps k's low seven bits.
    let (ax, ay) = (x.abs(), y.abs());
    let xm = ax % (128.0 * ay);
    // SAFETY: a pure C library function.
    let rm = unsafe { c::remainder(xm, ay) };
    let k = ((xm - rm) / ay).round() as i32 % 128;
    (r, if (x < 0.0) != (y < 0.0) { -k } else { k })
}

fn f(x: f32) -> f64 {
    f64::from(x)
}

macro_rules! unary {
    ($label:literal, $bound:expr, $r:expr) => {
        case(
            $label,
            concat!($label, "($a)"),
            Args::X,
            $bound,
            |a, _, _, _| {
                let r: fn(f64) -> f64 = $r;
                want(r(f64::from(a)))
            },
        )
    };
}

macro_rules! binary {
    ($label:literal, $bound:expr, $r:expr) => {
        case(
            $label,
            concat!($label, "($a, $b)"),
            Args::Xy,
            $bound,
            |a, b, _, _| {
                let r: fn(f32, f32) -> f64 = $r;
                want(r(a, b))
            },
        )
    };
}

fn cases() -> Vec<Case> {
    let h16 = 65536.0;
    vec![
        unary!("acos", 4.0, |x| x.acos()),
        unary!("acosh", 4.0, |x| x.acosh()),
        unary!("acospi", 5.0, |x| x.acos() / PI),
        unary!("asin", 4.0, |x| x.asin()),
        unary!("asinh", 4.0, |x| x.asinh()),
        unary!("asinpi", 5.0, |x| x.asin() / PI),
        unary!("atan", 5.0, |x| x.atan()),
        unary!("atanh", 5.0, |x| x.atanh()),
        unary!("atanpi", 5.0, |x| x.atan() / PI),
        unary!("cbrt", 2.0, |x| x.cbrt()),
        unary!("ceil", CR, |x| x.ceil()),
        unary!("cos", 4.0, |x| x.cos()),
        unary!("cosh", 4.0, |x| x.cosh()),
        unary!("cospi", 4.0, cospi),
        // SAFETY (these three): pure C library functions.
        unary!("erf", 16.0, |x| unsafe { c::erf(x) }),
        unary!("erfc", 16.0, |x| unsafe { c::erfc(x) }),
        unary!("exp", 3.0, |x| x.exp()),
        unary!("exp2", 3.0, |x| x.exp2()),
        unary!("exp10", 3.0, |x| 10f64.powf(x)),
        unary!("expm1", 3.0, |x| x.exp_m1()),
        unary!("fabs", 0.0, |x| x.abs()),
        unary!("floor", CR, |x| x.floor()),
        unary!("lgamma", f64::INFINITY, |x| lgamma_r(x).0),
        unary!("log", 3.0, |x| x.ln()),
        unary!("log2", 3.0, |x| x.log2()),
        unary!("log10", 3.0, |x| x.log10()),
        unary!("log1p", 2.0, |x| x.ln_1p()),
        // SAFETY: a pure C library function.
        unary!("logb", 0.0, |x| unsafe { c::logb(x) }),
        unary!("rint", CR, |x| x.round_ties_even()),
        unary!("round", CR, |x| x.round()),
        unary!("rsqrt", 2.0, |x| 1.0 / x.sqrt()),
        unary!("sin", 4.0, |x| x.sin()),
        unary!("sinh", 4.0, |x| x.sinh()),
        unary!("sinpi", 4.0, sinpi),
        unary!("sqrt", 3.0, |x| x.sqrt()),
        unary!("tan", 5.0, |x| x.tan()),
        unary!("tanh", 5.0, |x| x.tanh()),
        unary!("tanpi", 6.0, tanpi),
        // SAFETY: a pure C library function.
        unary!("tgamma", 16.0, |x| unsafe { c::tgamma(x) }),
        unary!("trunc", CR, |x| x.trunc()),
        case(
            "ilogb",
            "convert_$f(ilogb($a))",
            Args::X,
            0.0,
            |a, _, _, _| {
                // FP_ILOGB0 and FP_ILOGBNAN are both INT_MIN in this compiler's predefined
                // macros (as in C99 F.9.3.5's choice of values); ilogb(±inf) is INT_MAX.
                let x = f64::from(a);
                want(if x == 0.0 || x.is_nan() {
                    f64::from(i32::MIN)
                } else if x.is_infinite() {
                    f64::from(i32::MAX)
                } else {
                    // SAFETY: a pure C library function.
                    unsafe { c::logb(x) }
                } as f32 as f64)
            },
        ),
        binary!("atan2", 6.0, |y, x| f(y).atan2(f(x))),
        binary!("atan2pi", 6.0, |y, x| f(y).atan2(f(x)) / PI),
        binary!("copysign", 0.0, |x, y| f(x).copysign(f(y))),
        binary!("fdim", CR, |x, y| if x.is_nan() || y.is_nan() {
            f64::NAN
        } else if x > y {
            f(x) - f(y)
        } else {
            0.0
        }),
        zeros_either(binary!("fmax", 0.0, |x, y| f(x).max(f(y)))),
        zeros_either(binary!("fmin", 0.0, |x, y| f(x).min(f(y)))),
        binary!("fmod", 0.0, |x, y| f(x) % f(y)),
        binary!("hypot", 4.0, |x, y| f(x).hypot(f(y))),
        zeros_either(binary!("maxmag", 0.0, maxmag)),
        zeros_either(binary!("minmag", 0.0, minmag)),
        binary!("nextafter", 0.0, nextafter),
        binary!("pow", 16.0, |x, y| f(x).powf(f(y))),
        binary!("powr", 16.0, |x, y| powr(f(x), f(y))),
        // SAFETY: a pure C library function.
        binary!("remainder", 0.0, |x, y| unsafe { c::remainder(f(x), f(y)) }),
        case("divide", "$a / $b", Args::Xy, 2.5, |a, b, _, _| {
            want(f(a) / f(b))
        }),
        // API 5.8.4.3: -cl-fp32-correctly-rounded-divide-sqrt (valid: the device reports
        // CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) makes / and sqrt correctly rounded.
        with_options(
            case("divide_cr", "$a / $b", Args::Xy, CR, |a, b, _, _| {
                want(f(a) / f(b))
            }),
            "-cl-fp32-correctly-rounded-divide-sqrt",
        ),
        with_options(
            case("sqrt_cr", "sqrt($a)", Args::X, CR, |a, _, _, _| {
                want(f(a).sqrt())
            }),
            "-cl-fp32-correctly-rounded-divide-sqrt",
        ),
        case("ldexp", "ldexp($a, $n)", Args::Xn, CR, |a, _, _, n| {
            want(f(a) * 2f64.powi(n.clamp(-400, 400)))
        }),
        case("pown", "pown($a, $n)", Args::Xn, 16.0, |a, _, _, n| {
            // 7.5.1: pown(±0, n) is ±0 for n > 0.
            want(if a == 0.0 && n > 0 {
                f(a)
            } else {
                f(a).powf(f64::from(n))
            })
        }),
        case("rootn", "rootn($a, $n)", Args::Xn, 16.0, |a, _, _, n| {
            want(rootn(f(a), n))
        }),
        case("fma", "fma($a, $b, $c)", Args::Xyz, CR, |a, b, c, _| {
            want(f(a).mul_add(f(b), f(c)))
        }),
        case("mad", "mad($a, $b, $c)", Args::Xyz, CR, |a, b, c, _| Want {
            // 7.4: "either as a correctly rounded fma or as a multiply followed by an add
            // both of which are correctly rounded".
            value: f(a).mul_add(f(b), f(c)),
            second: None,
            alt: Some(f(((a * b) + c) as f64 as f32)),
        }),
        with_second(
            case("fract", "fract($a, &t)", Args::X, CR, |a, _, _, _| {
                let x = f(a);
                let fl = x.floor();
                Want {
                    value: if x.is_nan() {
                        x
                    } else if x.is_infinite() || x == 0.0 {
                        // 7.5.1: fract(±0) is ±0, fract(±inf) is ±0.
                        0.0f64.copysign(x)
                    } else {
                        // 6.15.2: fmin(x - floor(x), 0x1.fffffep-1f).
                        (x - fl).min(f64::from(f32::from_bits(0x3f7f_ffff)))
                    },
                    second: Some(fl),
                    alt: None,
                }
            }),
            "float",
            0.0,
        ),
        with_second(
            case("modf", "modf($a, &t)", Args::X, 0.0, |a, _, _, _| {
                // 7.5.2: *iptr = trunc(x); copysign(isinf(x) ? 0 : x - *iptr, x).
                let x = f(a);
                let t = x.trunc();
                Want {
                    value: (if x.is_infinite() { 0.0 } else { x - t }).copysign(x),
                    second: Some(t),
                    alt: None,
                }
            }),
            "float",
            0.0,
        ),
        with_second(
            case("frexp", "frexp($a, &t)", Args::X, 0.0, |a, _, _, _| {
                let x = f(a);
                if x == 0.0 || !x.is_finite() {
                    // 7.5.1: frexp(±inf) and frexp(NaN) store 0; C99 F.9.3.4: frexp(±0) = ±0, 0.
                    return Want {
                        value: x,
                        second: Some(0.0),
                        alt: None,
                    };
                }
                let mut e = 0;
                let mut m = x;
                while m.abs() >= 1.0 {
                    m /= 2.0;
                    e += 1;
                }
                while m.abs() < 0.5 {
                    m *= 2.0;
                    e -= 1;
                }
                Want {
                    value: m,
                    second: Some(f64::from(e)),
                    alt: None,
                }
            }),
            "int",
            0.0,
        ),
        with_second(
            case("sincos", "sincos($a, &t)", Args::X, 4.0, |a, _, _, _| {
                Want {
                    value: f(a).sin(),
                    second: Some(f(a).cos()),
                    alt: None,
                }
            }),
            "float",
            4.0,
        ),
        with_second(
            case(
                "remquo",
                "remquo($a, $b, &t)",
                Args::Xy,
                0.0,
                |a, b, _, _| {
                    let (r, q) = remquo(f(a), f(b));
                    Want {
                        value: r,
                        second: Some(f64::from(q)),
                        alt: None,
                    }
                },
            ),
            "int",
            0.0,
        ),
        with_second(
            case(
                "lgamma_r",
                "lgamma_r($a, &t)",
                Args::X,
                f64::INFINITY,
                |a, _, _, _| {
                    let (r, s) = lgamma_r(f(a));
                    Want {
                        value: r,
                        second: Some(f64::from(s)),
                        alt: None,
                    }
                },
            ),
            "int",
            0.0,
        ),
        // The half_ forms: 8192 ulps (7.4, table 65); sin, cos and tan on [-2^16, 2^16].
        relaxed(unary!("half_cos", 8192.0, |x| x.cos()), h16),
        relaxed(unary!("half_sin", 8192.0, |x| x.sin()), h16),
        relaxed(unary!("half_tan", 8192.0, |x| x.tan()), h16),
        relaxed(unary!("half_exp", 8192.0, |x| x.exp()), f32::INFINITY),
        relaxed(unary!("half_exp2", 8192.0, |x| x.exp2()), f32::INFINITY),
        relaxed(
            unary!("half_exp10", 8192.0, |x| 10f64.powf(x)),
            f32::INFINITY,
        ),
        relaxed(unary!("half_log", 8192.0, |x| x.ln()), f32::INFINITY),
        relaxed(unary!("half_log2", 8192.0, |x| x.log2()), f32::INFINITY),
        relaxed(unary!("half_log10", 8192.0, |x| x.log10()), f32::INFINITY),
        relaxed(unary!("half_recip", 8192.0, |x| 1.0 / x), f32::INFINITY),
        relaxed(
            unary!("half_rsqrt", 8192.0, |x| 1.0 / x.sqrt()),
            f32::INFINITY,
        ),
        relaxed(unary!("half_sqrt", 8192.0, |x| x.sqrt()), f32::INFINITY),
        relaxed(
            binary!("half_divide", 8192.0, |x, y| f(x) / f(y)),
            f32::INFINITY,
        ),
        relaxed(
            binary!("half_powr", 8192.0, |x, y| powr(f(x), f(y))),
            f32::INFINITY,
        ),
        // The native_ forms' accuracy and range are implementation-defined (6.15.2.1); this
        // device gives them the half_ forms' bound and checks them on the half_ forms' ranges.
        relaxed(unary!("native_cos", 8192.0, |x| x.cos()), h16),
        relaxed(unary!("native_sin", 8192.0, |x| x.sin()), h16),
        relaxed(unary!("native_tan", 8192.0, |x| x.tan()), h16),
        relaxed(unary!("native_exp", 8192.0, |x| x.exp()), f32::INFINITY),
        relaxed(unary!("native_exp2", 8192.0, |x| x.exp2()), f32::INFINITY),
        relaxed(
            unary!("native_exp10", 8192.0, |x| 10f64.powf(x)),
            f32::INFINITY,
        ),
        relaxed(unary!("native_log", 8192.0, |x| x.ln()), f32::INFINITY),
        relaxed(unary!("native_log2", 8192.0, |x| x.log2()), f32::INFINITY),
        relaxed(unary!("native_log10", 8192.0, |x| x.log10()), f32::INFINITY),
        relaxed(unary!("native_recip", 8192.0, |x| 1.0 / x), f32::INFINITY),
        relaxed(
            unary!("native_rsqrt", 8192.0, |x| 1.0 / x.sqrt()),
            f32::INFINITY,
        ),
        relaxed(unary!("native_sqrt", 8192.0, |x| x.sqrt()), f32::INFINITY),
        relaxed(
            binary!("native_divide", 8192.0, |x, y| f(x) / f(y)),
            f32::INFINITY,
        ),
        relaxed(
            binary!("native_powr", 8192.0, |x, y| powr(f(x), f(y))),
            f32::INFINITY,
        ),
    ]
}

/// Random values per function: half bit patterns over the whole range, half moderate values.
const RANDOM: usize = 12_288;

/// The inputs of one case: x, y, z and n columns, a multiple of 48 long (every width divides it).
fn inputs(c: &Case, seed: u64) -> (Vec<f32>, Vec<f32>, Vec<f32>, Vec<i32>) {
    let mut rng = Rng::new(seed);
    let sp = special_f32();
    let (mut x, mut y, mut z, mut n) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let ints = [
        0,
        1,
        -1,
        2,
        -2,
        3,
        -3,
        4,
        5,
        -7,
        10,
        24,
        -31,
        127,
        -128,
        149,
        300,
        i32::MAX,
        i32::MIN,
    ];
    match c.args {
        Args::X => x.extend(&sp),
        Args::Xy | Args::Xyz => {
            for &a in &sp {
                for &b in &sp {
                    x.push(a);
                    y.push(b);
                }
            }
        }
        Args::Xn => {
            for &a in &sp {
                for &k in &ints {
                    x.push(a);
                    n.push(k);
                }
            }
        }
    }
    for i in 0..RANDOM {
        let pick = |rng: &mut Rng| {
            if i % 2 == 0 {
                rng.any_f32()
            } else {
                rng.f32_exp(-24, 24)
            }
        };
        x.push(pick(&mut rng));
        match c.args {
            Args::X => {}
            Args::Xy => y.push(pick(&mut rng)),
            Args::Xyz => {
                y.push(pick(&mut rng));
                z.push(pick(&mut rng));
            }
            Args::Xn => n.push(if i % 3 == 0 {
                rng.next() as i32
            } else {
                rng.below(81) as i32 - 40
            }),
        }
    }
    let len = x.len().div_ceil(48) * 48;
    x.resize(len, 1.0);
    for v in [&mut y, &mut z] {
        if v.is_empty() {
            v.resize(len, 0.0);
        }
        // Pair up the sampled special values with more special values once the cross
        // product is done, and fill the rest.
        v.resize(len, 1.0);
    }
    if n.is_empty() {
        n.resize(len, 0);
    }
    n.resize(len, 1);
    (x, y, z, n)
}

/// The kernel for one case and vector width: scalars through pointers, vectors through
/// vloadn/vstoren (so 3-wide vectors are packed like the others).
fn source(c: &Case, width: u32) -> String {
    let v = |t: &str| {
        if width == 1 {
            t.to_string()
        } else {
            format!("{t}{width}")
        }
    };
    let (ft, tt) = (v("float"), v(c.second));
    let load = |x: &str| {
        if width == 1 {
            format!("{x}[i]")
        } else {
            format!("vload{width}(i, {x})")
        }
    };
    let store = |x: &str, e: &str| {
        if width == 1 {
            format!("{x}[i] = {e};")
        } else {
            format!("vstore{width}({e}, i, {x});")
        }
    };
    let expr = c
        .expr
        .replace("$a", &load("a"))
        .replace("$b", &load("b"))
        .replace("$c", &load("c"))
        .replace("$n", &load("n"))
        .replace("$f", &ft);
    format!(
        "kernel void k(global float* o, global {s}* p, global const float* a, \
         global const float* b, global const float* c, global const int* n) {{\n\
         size_t i = get_global_id(0);\n {tt} t = 0;\n {}\n {}\n}}\n",
        store("o", &expr),
        store("p", "t"),
        s = c.second
    )
}

struct Outcome {
    max_err: f64,
    max_at: String,
    failures: Vec<String>,
}

fn check(c: &Case, runner: &Runner, seed: u64) -> Outcome {
    let (x, y, z, n) = inputs(c, seed);
    let len = x.len();
    let mut out = Outcome {
        max_err: 0.0,
        max_at: String::new(),
        failures: Vec::new(),
    };
    for width in [1u32, 3, 4, 8, 16] {
        let program = runner.build(&source(c, width), c.options);
        let mut bufs = vec![
            vec![0u8; len * 4],
            vec![0u8; len * 4],
            builtins_harness::bytes(&x),
            builtins_harness::bytes(&y),
            builtins_harness::bytes(&z),
            builtins_harness::bytes(&n),
        ];
        runner.run(&program, "k", &mut bufs, len / width as usize);
        let got: Vec<f32> = values(&bufs[0]);
        let second_f: Vec<f32> = values(&bufs[1]);
        let second_i: Vec<i32> = values(&bufs[1]);
        for i in 0..len {
            let (a, b, cc, k) = (x[i], y[i], z[i], n[i]);
            if c.relaxed {
                let denormal = |v: f32| v != 0.0 && v.abs() < f32::MIN_POSITIVE;
                let used_y = matches!(c.args, Args::Xy | Args::Xyz);
                if denormal(a) || (used_y && denormal(b)) || a.abs() > c.range {
                    continue;
                }
            }
            let w = (c.reference)(a, b, cc, k);
            if c.relaxed && w.value != 0.0 && w.value.abs() < f64::from(f32::MIN_POSITIVE) {
                continue;
            }
            let mut err = ulp_error(got[i], w.value);
            if c.zeros_either && a == 0.0 && b == 0.0 && got[i] == 0.0 {
                err = 0.0;
            }
            if let Some(alt) = w.alt {
                err = err.min(ulp_error(got[i], alt));
            }
            let second_err = match w.second {
                None => 0.0,
                Some(s) if c.second == "int" => {
                    if f64::from(second_i[i]) == s {
                        0.0
                    } else {
                        f64::INFINITY
                    }
                }
                Some(s) => ulp_error(second_f[i], s),
            };
            let at = || {
                let args = match c.args {
                    Args::X => format!("{a:e} ({:#x})", a.to_bits()),
                    Args::Xy => format!("{a:e}, {b:e}"),
                    Args::Xyz => format!("{a:e}, {b:e}, {cc:e}"),
                    Args::Xn => format!("{a:e}, {k}"),
                };
                let second = match w.second {
                    None => String::new(),
                    Some(s) if c.second == "int" => format!("; second {} want {s}", second_i[i]),
                    Some(s) => format!("; second {:e} want {s:e}", second_f[i]),
                };
                format!(
                    "{}({args}) width {width}: got {:e} ({:#x}), want {:e}{second}",
                    c.label,
                    got[i],
                    got[i].to_bits(),
                    w.value
                )
            };
            if err.is_finite() && err > out.max_err {
                out.max_err = err;
                out.max_at = at();
            }
            let fails = err > c.bound || (c.bound.is_infinite() && err.is_infinite());
            if fails || second_err > c.second_bound {
                if out.failures.len() < 8 {
                    out.failures.push(at());
                } else if out.failures.len() == 8 {
                    out.failures.push("...".into());
                }
            }
        }
    }
    out
}

/// Run with `--nocapture` to see each function's largest error; `BUILTINS_ONLY=<label>` checks
/// one function.
#[test]
fn math_builtins_meet_their_ulp_bounds() {
    let runner = Runner::new();
    let mut problems = Vec::new();
    let only = std::env::var("BUILTINS_ONLY").ok();
    for (k, c) in cases().iter().enumerate() {
        if only.as_deref().is_some_and(|o| o != c.label) {
            continue;
        }
        let o = check(c, &runner, 0x5eed + k as u64);
        let bound = if c.bound.is_infinite() {
            "none".to_string()
        } else {
            format!("{}", c.bound)
        };
        println!(
            "{:<14} max {:>10.4} ulp (bound {bound}) at {}",
            c.label, o.max_err, o.max_at
        );
        let gap = KNOWN_GAPS.iter().find(|g| g.0 == c.label);
        match (o.failures.is_empty(), gap) {
            (true, None) | (false, Some(_)) => {}
            (true, Some((_, why))) => problems.push(format!(
                "{} meets its bound now; remove it from KNOWN_GAPS ({why})",
                c.label
            )),
            (false, None) => problems.push(o.failures.join("\n")),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// The values 7.5.1 (and C99 F.9, which it extends) prescribe, checked exactly: a case is the
/// body of a kernel reading `a[0]`, `b[0]`, `n[0]` and writing `o[0]` (and `o[1]` for a
/// second result), the inputs, and the expected results (NaN: any NaN).
#[test]
fn prescribed_special_values_are_exact() {
    const INF: f32 = f32::INFINITY;
    const NAN: f32 = f32::NAN;
    let v = |e: &'static str| format!("o[0] = {e};");
    let two = |e: &'static str, t: &'static str| format!("{t} t = 7; o[0] = {e}; o[1] = (float)t;");
    // (body, a, b, n, o[0], o[1])
    let mut cases: Vec<(String, f32, f32, i32, f32, f32)> = Vec::new();
    let mut one = |e: &'static str, a: f32, b: f32, n: i32, want: f32| {
        cases.push((v(e), a, b, n, want, 0.0));
    };
    for s in [1.0f32, -1.0] {
        let z = 0.0f32.copysign(s);
        one("asinpi(a[0])", z, 0.0, 0, z);
        one("atanpi(a[0])", z, 0.0, 0, z);
        one("atanpi(a[0])", INF * s, 0.0, 0, 0.5 * s);
        one("atan2pi(a[0], b[0])", z, -0.0, 0, s);
        one("atan2pi(a[0], b[0])", z, 0.0, 0, z);
        one("atan2pi(a[0], b[0])", z, -2.0, 0, s);
        one("atan2pi(a[0], b[0])", z, 2.0, 0, z);
        one("atan2pi(a[0], b[0])", -3.0, z, 0, -0.5);
        one("atan2pi(a[0], b[0])", 3.0, z, 0, 0.5);
        one("atan2pi(a[0], b[0])", 5.0 * s, -INF, 0, s);
        one("atan2pi(a[0], b[0])", 5.0 * s, INF, 0, z);
        one("atan2pi(a[0], b[0])", INF * s, 7.0, 0, 0.5 * s);
        one("atan2pi(a[0], b[0])", INF * s, -INF, 0, 0.75 * s);
        one("atan2pi(a[0], b[0])", INF * s, INF, 0, 0.25 * s);
        one("cospi(a[0])", z, 0.0, 0, 1.0);
        one("pow(a[0], b[0])", z, -INF, 0, INF);
        one("pown(a[0], n[0])", z, 0.0, -3, INF * s);
        one("pown(a[0], n[0])", z, 0.0, -2, INF);
        one("pown(a[0], n[0])", z, 0.0, 2, z);
        one("pown(a[0], n[0])", z, 0.0, 3, z);
        one("powr(a[0], b[0])", 2.0, z, 0, 1.0);
        one("powr(a[0], b[0])", z, -1.0, 0, INF);
        one("powr(a[0], b[0])", z, -INF, 0, INF);
        one("powr(a[0], b[0])", z, 2.0, 0, z);
        one("powr(a[0], b[0])", z, z, 0, NAN);
        one("powr(a[0], b[0])", INF, z, 0, NAN);
        one("powr(a[0], b[0])", 1.0, INF * s, 0, NAN);
        one("rootn(a[0], n[0])", z, 0.0, -3, INF * s);
        one("rootn(a[0], n[0])", z, 0.0, -2, INF);
        one("rootn(a[0], n[0])", z, 0.0, 2, z);
        one("rootn(a[0], n[0])", z, 0.0, 3, z);
        one("sinpi(a[0])", z, 0.0, 0, z);
        one("sinpi(a[0])", 3.0 * s, 0.0, 0, z);
        one("sinpi(a[0])", INF * s, 0.0, 0, NAN);
        one("tanpi(a[0])", z, 0.0, 0, z);
        one("tanpi(a[0])", INF * s, 0.0, 0, NAN);
        one("tanpi(a[0])", 2.0 * s, 0.0, 0, z);
        one("tanpi(a[0])", 3.0 * s, 0.0, 0, -z);
        one("cospi(a[0])", INF * s, 0.0, 0, NAN);
        one("fmod(a[0], b[0])", z, NAN, 0, NAN);
        one("nextafter(a[0], b[0])", -z, s, 0, f32::from_bits(1) * s);
        one(
            "pown(a[0], n[0])",
            [0.0, NAN, INF][(s > 0.0) as usize + 1],
            0.0,
            0,
            1.0,
        );
    }
    one("pown(a[0], n[0])", 0.0, 0.0, 0, 1.0);
    one("acospi(a[0])", 1.0, 0.0, 0, 0.0);
    one("acospi(a[0])", 1.5, 0.0, 0, NAN);
    one("asinpi(a[0])", -1.5, 0.0, 0, NAN);
    one("ceil(a[0])", -0.5, 0.0, 0, -0.0);
    one("cospi(a[0])", 2.5, 0.0, 0, 0.0);
    one("cospi(a[0])", -3.5, 0.0, 0, 0.0);
    one("exp10(a[0])", -INF, 0.0, 0, 0.0);
    one("exp10(a[0])", INF, 0.0, 0, INF);
    one("fdim(a[0], b[0])", 1.0, NAN, 0, NAN);
    one("fdim(a[0], b[0])", NAN, 1.0, 0, NAN);
    one("powr(a[0], b[0])", 1.0, 5.0, 0, 1.0);
    one("powr(a[0], b[0])", -1.0, 2.0, 0, NAN);
    one("powr(a[0], b[0])", 2.0, NAN, 0, NAN);
    one("powr(a[0], b[0])", NAN, 1.0, 0, NAN);
    one("rint(a[0])", -0.5, 0.0, 0, -0.0);
    one("rint(a[0])", -0.25, 0.0, 0, -0.0);
    one("rootn(a[0], n[0])", -8.0, 0.0, 2, NAN);
    one("rootn(a[0], n[0])", 8.0, 0.0, 0, NAN);
    one("round(a[0])", -0.4, 0.0, 0, -0.0);
    one("tanpi(a[0])", 2.5, 0.0, 0, INF);
    one("tanpi(a[0])", 3.5, 0.0, 0, -INF);
    one("tanpi(a[0])", -0.5, 0.0, 0, -INF);
    one("trunc(a[0])", -0.5, 0.0, 0, -0.0);
    // The half_ forms keep the edge cases (7.5.1).
    one("half_exp(a[0])", -INF, 0.0, 0, 0.0);
    one("half_log(a[0])", 0.0, 0.0, 0, -INF);
    one("half_sqrt(a[0])", -0.0, 0.0, 0, -0.0);
    one("half_recip(a[0])", -0.0, 0.0, 0, -INF);
    one("half_rsqrt(a[0])", 0.0, 0.0, 0, INF);
    one("half_sin(a[0])", -0.0, 0.0, 0, -0.0);
    one("half_powr(a[0], b[0])", -1.0, 2.0, 0, NAN);
    // 6.15.2: nan(nancode) "returns a quiet NaN".
    one("nan((uint)n[0])", 0.0, 0.0, 0, NAN);
    one("nan((uint)n[0])", 0.0, 0.0, 12345, NAN);
    let mut pair = |e: &'static str, t: &'static str, a: f32, b: f32, w0: f32, w1: f32| {
        cases.push((two(e, t), a, b, 0, w0, w1));
    };
    pair("frexp(a[0], &t)", "int", INF, 0.0, INF, 0.0);
    pair("frexp(a[0], &t)", "int", -INF, 0.0, -INF, 0.0);
    pair("frexp(a[0], &t)", "int", NAN, 0.0, NAN, 0.0);
    pair("fract(a[0], &t)", "float", 0.0, 0.0, 0.0, 0.0);
    pair("fract(a[0], &t)", "float", -0.0, 0.0, -0.0, -0.0);
    pair("fract(a[0], &t)", "float", INF, 0.0, 0.0, INF);
    pair("fract(a[0], &t)", "float", -INF, 0.0, -0.0, -INF);
    pair("fract(a[0], &t)", "float", NAN, 0.0, NAN, NAN);
    pair("modf(a[0], &t)", "float", INF, 0.0, 0.0, INF);
    pair("modf(a[0], &t)", "float", -INF, 0.0, -0.0, -INF);
    pair("modf(a[0], &t)", "float", -2.5, 0.0, -0.5, -2.0);
    pair("lgamma_r(a[0], &t)", "int", 0.0, 0.0, INF, 0.0);
    pair("lgamma_r(a[0], &t)", "int", -3.0, 0.0, INF, 0.0);
    pair("remquo(a[0], b[0], &t)", "int", INF, 1.0, NAN, 0.0);
    pair("remquo(a[0], b[0], &t)", "int", 1.0, 0.0, NAN, 0.0);
    pair("remquo(a[0], b[0], &t)", "int", NAN, 1.0, NAN, 0.0);
    pair("remquo(a[0], b[0], &t)", "int", 1.0, NAN, NAN, 0.0);

    let source: String = cases
        .iter()
        .enumerate()
        .map(|(i, c)| {
            format!(
                "kernel void s{i}(global float* o, global const float* a, \
                 global const float* b, global const int* n) {{ {} }}\n",
                c.0
            )
        })
        .collect();
    let runner = Runner::new();
    let program = runner.build(&source, "");
    let same = |got: f32, want: f32| {
        if want.is_nan() {
            got.is_nan()
        } else {
            got.to_bits() == want.to_bits()
        }
    };
    let mut wrong = Vec::new();
    for (i, (body, a, b, n, w0, w1)) in cases.iter().enumerate() {
        let mut bufs = vec![
            builtins_harness::bytes(&[0.0f32; 2]),
            builtins_harness::bytes(&[*a]),
            builtins_harness::bytes(&[*b]),
            builtins_harness::bytes(&[*n]),
        ];
        runner.run(&program, &format!("s{i}"), &mut bufs, 1);
        let o: Vec<f32> = values(&bufs[0]);
        let second = body.contains("t = 7");
        if !same(o[0], *w0) || (second && !same(o[1], *w1)) {
            wrong.push(format!(
                "{body} with a = {a:e}, b = {b:e}, n = {n}: got {:e}, {:e}; want {w0:e}, {w1:e}",
                o[0], o[1]
            ));
        }
    }
    println!("{} prescribed values checked", cases.len());
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The functions that write through a pointer (fract, modf, sincos, frexp, lgamma_r, remquo)
/// accept `global`, `local` and `private` pointers (6.15.2); through each, every vector width
/// stores the same results, lane by lane, as through a private variable (checked against the
/// references above).
#[test]
fn pointer_results_go_to_every_address_space() {
    let fns: [(&str, &str, &str); 6] = [
        ("fract", "float", "fract(X, P)"),
        ("modf", "float", "modf(X, P)"),
        ("sincos", "float", "sincos(X, P)"),
        ("frexp", "int", "frexp(X, P)"),
        ("lgamma_r", "int", "lgamma_r(X, P)"),
        ("remquo", "int", "remquo(X, Y, P)"),
    ];
    let runner = Runner::new();
    let mut rng = Rng::new(0xadd);
    let mut x = special_f32();
    while x.len() < 4800 {
        x.push(if x.len() % 2 == 0 {
            rng.any_f32()
        } else {
            rng.f32_exp(-10, 10)
        });
    }
    let y: Vec<f32> = x.iter().map(|_| rng.f32_exp(-4, 4)).collect();
    let n = x.len();
    let mut source = String::new();
    for (name, second, expr) in fns {
        for w in [1usize, 3, 4, 16] {
            let (ft, st) = if w == 1 {
                ("float".to_string(), second.to_string())
            } else {
                (format!("float{w}"), format!("{second}{w}"))
            };
            let (ld, sto) = if w == 1 {
                ("X[i]".to_string(), "X[i] = V;".to_string())
            } else {
                (format!("vload{w}(i, X)"), format!("vstore{w}(V, i, X);"))
            };
            let call = |p: &str| {
                expr.replace('X', &ld.replace('X', "a"))
                    .replace('Y', &ld.replace('X', "b"))
                    .replace('P', p)
            };
            let store = |buf: &str, v: &str| sto.replace('X', buf).replace('V', v);
            // Through a global pointer (g is a buffer of the vector type), through local
            // memory, and through a private variable.
            source += &format!(
                "kernel void {name}_{w}(global float* o, global {st}* g, global {second}* gs, \
                 global float* ol, global {second}* ls, global float* op, global {second}* ps, \
                 global const float* a, global const float* b) {{\n\
                 size_t i = get_global_id(0);\n\
                 {ft} r = {};\n {}\n {}\n\
                 local {st} tmp[64];\n size_t l = get_local_id(0);\n\
                 r = {};\n {}\n {}\n\
                 {st} t;\n r = {};\n {}\n {}\n}}\n",
                call("&g[i]"),
                store("o", "r"),
                store("gs", "g[i]"),
                call("&tmp[l]"),
                store("ol", "r"),
                store("ls", "tmp[l]"),
                call("&t"),
                store("op", "r"),
                store("ps", "t"),
            );
        }
    }
    let program = runner.build(&source, "");
    let mut wrong = Vec::new();
    for (name, _, _) in fns {
        for w in [1usize, 3, 4, 16] {
            // The global vector buffer: 3-wide vectors take 4 elements of room.
            let stride = if w == 3 { 4 } else { w };
            let mut bufs = vec![
                vec![0u8; n * 4],
                vec![0u8; n / w * stride * 4],
                vec![0u8; n * 4],
                vec![0u8; n * 4],
                vec![0u8; n * 4],
                vec![0u8; n * 4],
                vec![0u8; n * 4],
                builtins_harness::bytes(&x),
                builtins_harness::bytes(&y),
            ];
            runner.run(&program, &format!("{name}_{w}"), &mut bufs, n / w);
            let same = |p: &[u8], q: &[u8]| {
                let (p, q): (Vec<u32>, Vec<u32>) = (values(p), values(q));
                p.iter().zip(&q).all(|(&u, &v)| {
                    u == v || (f32::from_bits(u).is_nan() && f32::from_bits(v).is_nan())
                })
            };
            if !same(&bufs[0], &bufs[5]) || !same(&bufs[2], &bufs[6]) {
                wrong.push(format!(
                    "{name} width {w}: through global differs from private"
                ));
            }
            if !same(&bufs[3], &bufs[5]) || !same(&bufs[4], &bufs[6]) {
                wrong.push(format!(
                    "{name} width {w}: through local differs from private"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
