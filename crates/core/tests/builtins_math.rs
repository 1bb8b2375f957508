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
//!
//! This stays in Rust: it sweeps random bit patterns against references computed here. The
//! special values 7.5.1 and C99 F.9 prescribe, and the signs of zero results, are the kernel
//! files `tests/kernels/math/prescribed.cl`, `prescribed_float.cl` and `zero_signs.cl`, run on
//! every platform present.

use crate::builtins_harness;

use builtins_harness::math::{
    self, fract_case, lgamma_r, lgamma_r_case, maxmag, minmag, modf_case, nextafter, powr, relaxed,
    remquo_case, sincos_case, sweep_ints, want, with_options, with_second, zeros_either, Args,
    Case, Sweep, Want,
};
use builtins_harness::{special_f32, Rng};

mod c {
    extern "C" {
        pub fn erf(x: f64) -> f64;
        pub fn erfc(x: f64) -> f64;
        pub fn tgamma(x: f64) -> f64;
        pub fn remainder(x: f64, y: f64) -> f64;
        pub fn logb(x: f64) -> f64;
    }
}

const PI: f64 = std::f64::consts::PI;

/// Functions that fail their bound and are not fixed yet: (label, why). The test fails if
/// one of them starts to pass, so the list stays true.
const KNOWN_GAPS: &[(&str, &str)] = &[];

/// Correctly rounded: half an ulp, plus the reference's own double rounding error.
const CR: f64 = 0.5 + 1e-6;

/// A case whose reference is exact or correctly rounded in double (far below a float ulp).
fn case(
    label: &'static str,
    expr: &'static str,
    args: Args,
    bound: f64,
    reference: fn(f32, f32, f32, i32) -> Want,
) -> Case<f32> {
    math::case(label, expr, args, bound, 0.0, reference)
}

// References that the host library lacks, from their definitions.

/// sin(pi x), cos(pi x), tan(pi x): x is a float, so its reduction is exact in double.
fn sinpi(x: f64) -> f64 {
    math::sinpi(x, |r| (PI * r).sin())
}

fn cospi(x: f64) -> f64 {
    math::cospi(x, |r| (PI * r).cos())
}

fn tanpi(x: f64) -> f64 {
    math::tanpi(x, |r| (PI * r).tan())
}

/// The n-th root: 7.5.1's list, else pow(|x|, 1/n) with x's sign.
fn rootn(x: f64, n: i32) -> f64 {
    math::rootn_prescribed(x, n).unwrap_or_else(|| x.abs().powf(1.0 / f64::from(n)).copysign(x))
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

fn cases() -> Vec<Case<f32>> {
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
        zeros_either(binary!("maxmag", 0.0, |x, y| maxmag(f(x), f(y)))),
        zeros_either(binary!("minmag", 0.0, |x, y| minmag(f(x), f(y)))),
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
            // 7.5.1: pown(±0, n) is +0 for even n > 0 and ±0 for odd n > 0, as C99's pow.
            want(f(a).powf(f64::from(n)))
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
        fract_case(CR),
        modf_case(),
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
        sincos_case(0.0),
        remquo_case(),
        lgamma_r_case(0.0),
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

/// The float sweep: the special values, each with every one (two and three operands) and
/// with small and extreme ints; 12288 random values per function, half bit patterns over the
/// whole range, half moderate values; columns a multiple of 48 long (every width divides it).
fn sweep() -> Sweep<f32> {
    Sweep {
        special: special_f32(),
        ints: sweep_ints(&[24, -31, 127, -128, 149, 300]),
        pairs: |_, _| true,
        random: 12_288,
        draw: |rng, i| {
            if i % 2 == 0 {
                rng.any_f32()
            } else {
                rng.f32_exp(-24, 24)
            }
        },
        z_offset: 0,
        pad: 48,
        unused: (0.0, 0),
        widths: &[1, 3, 4, 8, 16],
    }
}

/// Run with `--nocapture` to see each function's largest error; `BUILTINS_ONLY=<label>` checks
/// one function.
#[test]
fn math_builtins_meet_their_ulp_bounds() {
    math::sweep_cases(&cases(), &sweep(), 0x5eed, KNOWN_GAPS, |c, o| {
        let bound = if c.bound.is_infinite() {
            "none".to_string()
        } else {
            format!("{}", c.bound)
        };
        format!(
            "{:<14} max {:>10.4} ulp (bound {bound}) at {}",
            c.label, o.max_err, o.max_at
        )
    });
}

#[test]
fn pointer_results_go_to_every_address_space() {
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
    math::check_pointer_results(&x, &y);
}
