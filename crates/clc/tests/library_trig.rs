//! The builtin library's trigonometric functions for `double` (OpenCL C 6.15.2), run in the
//! IR interpreter: the special values of 7.5.1 and C99 F.9.1 exactly, and a seeded sample of
//! arguments (every binade, denormals, huge arguments, values near multiples of pi/2, near 1
//! and near the reduction's switch points for the inverse functions) against the host's C
//! library. Table 68 bounds the error; the host reference is itself within about an ulp of
//! the exact result (the *pi references, built here from the host's functions in
//! double-double, too), so each function must stay within its bound less one ulp. The
//! largest difference from the reference is printed.

use crate::common;

use common::{call1, call2, exact, ulp, Lib, Rng};

const PI: f64 = std::f64::consts::PI;
/// pi - PI.
const PI_LO: f64 = 1.2246467991473532e-16;
/// The double nearest 1/pi, and 1/pi less it.
const INV_PI: f64 = std::f64::consts::FRAC_1_PI;
const INV_PI_LO: f64 = -1.9678676675182486e-17;

/// sincos(x): (the value, what it stores through its pointer).
fn call_sincos(x: f64) -> (f64, f64) {
    let (s, c) = Lib::bounded().call_ptr("__cl_sincos_double_ptr_double", &[x.to_bits()], 8);
    (f64::from_bits(s), f64::from_bits(c))
}

/// The error of `got` in ulps of `want`; a NaN, zero or infinite reference must be met
/// exactly (sign included).
fn ulp_error(got: f64, want: f64) -> f64 {
    if want.is_nan() {
        return if got.is_nan() { 0.0 } else { f64::INFINITY };
    }
    if want == 0.0 || want.is_infinite() {
        return if got.to_bits() == want.to_bits() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if !got.is_finite() {
        return f64::INFINITY;
    }
    // Among the smallest doubles, scale up to keep the difference exact.
    let scale = if want.abs() < 2f64.powi(-900) {
        2f64.powi(200)
    } else {
        1.0
    };
    ((got * scale - want * scale) / (ulp(want) * scale)).abs()
}

/// Checks `f` against `reference` on every argument and prints the largest error.
fn sweep(
    label: &str,
    args: &[f64],
    bound: f64,
    f: impl Fn(f64) -> f64,
    reference: impl Fn(f64) -> f64,
) {
    let mut worst = (0.0f64, 0.0f64);
    for &x in args {
        let (got, want) = (f(x), reference(x));
        let e = ulp_error(got, want);
        assert!(
            e <= bound - 1.0,
            "{label}({x:e} = {:#018x}) = {got:e}, want {want:e}: {e} ulp (bound {bound}, less one for the reference)",
            x.to_bits()
        );
        if e > worst.0 {
            worst = (e, x);
        }
    }
    println!(
        "{label}: max error {:.3} ulp at {:e} over {} arguments",
        worst.0,
        worst.1,
        args.len()
    );
}

/// Arguments for sin, cos, tan: every binade (denormals to the largest), moderate values,
/// neighbours of multiples of pi/2, and the double closest to a multiple of pi/2.
fn trig_args(seed: u64, n: usize) -> Vec<f64> {
    let mut rng = Rng(seed);
    let mut v = Vec::new();
    for _ in 0..n {
        v.push(rng.double_in(0, 2046));
        v.push(rng.uniform(-8.0, 8.0));
        v.push(rng.double_in(1000, 1100));
        let k = (rng.next() % 100_000) as f64 - 50_000.0;
        let near = k * (PI / 2.0);
        let d = (rng.next() % 7) as i64 - 3;
        v.push(f64::from_bits((near.to_bits() as i64 + d) as u64));
    }
    v.extend([f64::MAX, -f64::MAX, f64::MIN_POSITIVE]);
    v.extend([
        1e22,
        2f64.powi(30),
        2f64.powi(30) - 1.0,
        1.0,
        PI / 4.0,
        -PI / 2.0,
    ]);
    v
}

const SEED: u64 = 0x7419_2bd3_57ac_0f11;

#[test]
fn sin_cos_tan_special_values() {
    for name in ["__cl_sin_double", "__cl_tan_double"] {
        // F.9.1.6, F.9.1.7: sin(±0), tan(±0) are ±0; infinities give a NaN.
        exact(name, call1(name, 0.0), 0.0);
        exact(name, call1(name, -0.0), -0.0);
        exact(name, call1(name, f64::INFINITY), f64::NAN);
        exact(name, call1(name, f64::NEG_INFINITY), f64::NAN);
        exact(name, call1(name, f64::NAN), f64::NAN);
        // A denormal's sine and tangent round to itself.
        let d = f64::from_bits(3);
        exact(name, call1(name, d), d);
        exact(name, call1(name, -d), -d);
    }
    let name = "__cl_cos_double";
    // F.9.1.5: cos(±0) is 1, cos(±inf) a NaN.
    exact(name, call1(name, 0.0), 1.0);
    exact(name, call1(name, -0.0), 1.0);
    exact(name, call1(name, f64::INFINITY), f64::NAN);
    exact(name, call1(name, f64::NAN), f64::NAN);
    let (s, c) = call_sincos(-0.0);
    exact("sincos", s, -0.0);
    exact("sincos", c, 1.0);
    let (s, c) = call_sincos(f64::NEG_INFINITY);
    exact("sincos", s, f64::NAN);
    exact("sincos", c, f64::NAN);
}

/// The double nearest a multiple of pi/2, 6381956970095103 2^797 (its distance is about
/// 2^-61), needs the reduction's every bit. The host's cos is 8 ulp off there, so the
/// references are sin, cos and tan computed to 3000 bits (mpmath) and rounded to double.
#[test]
fn hardest_reduction() {
    let hard = f64::from_bits(0x7506_ac5b_262c_a1ff);
    assert_eq!(hard, 6381956970095103.0 * 2f64.powi(797));
    let cases = [
        ("__cl_sin_double", 4.0, 1.0),
        (
            "__cl_cos_double",
            4.0,
            f64::from_bits(0xbc21_4ae7_2e6b_a22f),
        ),
        (
            "__cl_tan_double",
            5.0,
            f64::from_bits(0xc3bd_9ba9_a797_5636),
        ),
    ];
    for (name, bound, want) in cases {
        let e = ulp_error(call1(name, hard), want);
        assert!(e <= bound - 1.0, "{name}: {e} ulp");
        // sin and tan are odd, cos even.
        let neg = if name == "__cl_cos_double" {
            want
        } else {
            -want
        };
        let e = ulp_error(call1(name, -hard), neg);
        assert!(e <= bound - 1.0, "{name} of -x: {e} ulp");
    }
}

#[test]
fn sin_cos_tan_accuracy() {
    let args = trig_args(SEED, 800);
    // Table 68: sin, cos and sincos 4 ulp, tan 5 ulp.
    sweep("sin", &args, 4.0, |x| call1("__cl_sin_double", x), f64::sin);
    sweep("cos", &args, 4.0, |x| call1("__cl_cos_double", x), f64::cos);
    sweep("tan", &args, 5.0, |x| call1("__cl_tan_double", x), f64::tan);
    let small: Vec<f64> = args.iter().step_by(4).copied().collect();
    sweep("sincos (sine)", &small, 4.0, |x| call_sincos(x).0, f64::sin);
    sweep(
        "sincos (cosine)",
        &small,
        4.0,
        |x| call_sincos(x).1,
        f64::cos,
    );
}

// References of the *pi functions, from their definitions: the reduction of x by 2 is exact,
// pi r is formed as a double-double and the host's sin, cos, tan take it.

/// sin(pi r) and cos(pi r) for |r| <= 1/4, and the quadrant k mod 4 of x = k/2 + r (x >= 0).
fn pi_parts(ax: f64) -> (f64, f64, i64, bool) {
    let y = if ax < 2f64.powi(53) { ax } else { 0.0 };
    let k = (2.0 * y).round_ties_even();
    let r = y - k / 2.0;
    let h = PI * r;
    let l = PI.mul_add(r, -h) + PI_LO * r;
    let (s, c) = (h.sin() + l * h.cos(), h.cos() - l * h.sin());
    (s, c, (k as i64) & 3, r == 0.0)
}

fn sinpi_ref(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let (s, c, q, _) = pi_parts(x.abs());
    let v = [s, c, -s, -c][q as usize] + 0.0;
    // 7.5.1: sinpi(+n) = +0, sinpi(-n) = -0.
    if x.is_sign_negative() {
        -v
    } else {
        v
    }
}

fn cospi_ref(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let (s, c, q, _) = pi_parts(x.abs());
    // 7.5.1: cospi(n + 0.5) = +0.
    [c, -s, -c, s][q as usize] + 0.0
}

fn tanpi_ref(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let ax = x.abs();
    let (_, _, q, r0) = pi_parts(ax);
    let v = if r0 {
        // 7.5.1: tanpi(n) is ±0, tanpi(n + 0.5) ±inf, by the parity of n = floor(x).
        [0.0, f64::INFINITY, -0.0, f64::NEG_INFINITY][q as usize]
    } else {
        // tan(pi r) = th + tl from the double-double pi r; odd k: -1/tan(pi r).
        let y = if ax < 2f64.powi(53) { ax } else { 0.0 };
        let r = y - (2.0 * y).round_ties_even() / 2.0;
        let h = PI * r;
        let l = PI.mul_add(r, -h) + PI_LO * r;
        let th = h.tan();
        let tl = l * th.mul_add(th, 1.0);
        if q & 1 == 0 {
            th + tl
        } else {
            let inv = 1.0 / th;
            let e = (-inv).mul_add(th, 1.0);
            -(inv + (e - inv * tl) / th)
        }
    };
    if x.is_sign_negative() {
        -v
    } else {
        v
    }
}

/// a / pi, a the host's result (within an ulp), divided in double-double.
fn div_pi(a: f64) -> f64 {
    let h = a * INV_PI;
    let v = h + (a.mul_add(INV_PI, -h) + a * INV_PI_LO);
    // A result that underflows to zero keeps the angle's sign.
    if v == 0.0 {
        0.0f64.copysign(a)
    } else {
        v
    }
}

#[test]
fn pi_forms_special_values() {
    for n in [
        1.0,
        2.0,
        3.0,
        4.0,
        7.0,
        1e15,
        2f64.powi(52) + 1.0,
        2f64.powi(60),
        f64::MAX,
    ] {
        // 7.5.1: sinpi(+n) = +0, sinpi(-n) = -0.
        exact("sinpi(n)", call1("__cl_sinpi_double", n), 0.0);
        exact("sinpi(-n)", call1("__cl_sinpi_double", -n), -0.0);
        let odd = n < 2f64.powi(53) && n % 2.0 == 1.0;
        // 7.5.1: tanpi(n) is copysign(0, n) for even n, copysign(0, -n) for odd n.
        let t = if odd { -0.0 } else { 0.0 };
        exact("tanpi(n)", call1("__cl_tanpi_double", n), t);
        exact("tanpi(-n)", call1("__cl_tanpi_double", -n), -t);
        exact(
            "cospi(n)",
            call1("__cl_cospi_double", n),
            if odd { -1.0 } else { 1.0 },
        );
    }
    for n in [0.0, 1.0, 2.0, 3.0, 10.0, 1e15 + 1.0, -1.0, -2.0, -5.0] {
        let x: f64 = n + 0.5;
        // 7.5.1: cospi(n + 0.5) = +0; tanpi(n + 0.5) is +inf for even n, -inf for odd n.
        exact("cospi(n + 0.5)", call1("__cl_cospi_double", x), 0.0);
        let even = n % 2.0 == 0.0;
        let inf = if even {
            f64::INFINITY
        } else {
            f64::NEG_INFINITY
        };
        exact("tanpi(n + 0.5)", call1("__cl_tanpi_double", x), inf);
    }
    for z in [0.0, -0.0] {
        exact("sinpi(±0)", call1("__cl_sinpi_double", z), z);
        exact("tanpi(±0)", call1("__cl_tanpi_double", z), z);
        exact("cospi(±0)", call1("__cl_cospi_double", z), 1.0);
        let d = f64::from_bits(1);
        exact(
            "sinpi(min denormal)",
            call1("__cl_sinpi_double", d),
            d * 3.0,
        );
    }
    for name in [
        "__cl_sinpi_double",
        "__cl_cospi_double",
        "__cl_tanpi_double",
    ] {
        for x in [f64::INFINITY, f64::NEG_INFINITY, f64::NAN] {
            exact(name, call1(name, x), f64::NAN);
        }
    }
}

#[test]
fn pi_forms_accuracy() {
    let mut rng = Rng(SEED ^ 0x5a5a);
    let mut args = Vec::new();
    for _ in 0..1000 {
        args.push(rng.double_in(0, 1077));
        args.push(rng.uniform(-4.0, 4.0));
        // Near the zeros and poles: k/4 and its neighbours.
        let k = ((rng.next() % 4000) as f64 - 2000.0) / 4.0;
        let d = (rng.next() % 9) as i64 - 4;
        args.push(f64::from_bits((k.to_bits() as i64 + d) as u64));
    }
    // Table 68: sinpi and cospi 4 ulp, tanpi 6 ulp.
    sweep(
        "sinpi",
        &args,
        4.0,
        |x| call1("__cl_sinpi_double", x),
        sinpi_ref,
    );
    sweep(
        "cospi",
        &args,
        4.0,
        |x| call1("__cl_cospi_double", x),
        cospi_ref,
    );
    sweep(
        "tanpi",
        &args,
        6.0,
        |x| call1("__cl_tanpi_double", x),
        tanpi_ref,
    );
}

#[test]
fn inverse_special_values() {
    let half_pi = PI / 2.0;
    for (name, pi_form) in [("__cl_asin_double", false), ("__cl_asinpi_double", true)] {
        // F.9.1.2, 7.5.1: asin(±0) = ±0, asinpi(±0) = ±0; a NaN for |x| > 1.
        exact(name, call1(name, 0.0), 0.0);
        exact(name, call1(name, -0.0), -0.0);
        for x in [
            1.0 + f64::EPSILON,
            -2.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ] {
            exact(name, call1(name, x), f64::NAN);
        }
        let one = if pi_form { 0.5 } else { half_pi };
        exact(name, call1(name, 1.0), one);
        exact(name, call1(name, -1.0), -one);
    }
    for (name, pi_form) in [("__cl_acos_double", false), ("__cl_acospi_double", true)] {
        // F.9.1.1, 7.5.1: acos(1) = +0, acospi(1) = +0; a NaN for |x| > 1.
        exact(name, call1(name, 1.0), 0.0);
        for x in [1.0 + f64::EPSILON, -2.0, f64::INFINITY, f64::NAN] {
            exact(name, call1(name, x), f64::NAN);
        }
        exact(name, call1(name, -1.0), if pi_form { 1.0 } else { PI });
        exact(name, call1(name, 0.0), if pi_form { 0.5 } else { half_pi });
    }
    for (name, inf) in [("__cl_atan_double", half_pi), ("__cl_atanpi_double", 0.5)] {
        // F.9.1.3, 7.5.1: atan(±0) = ±0, atan(±inf) = ±pi/2; atanpi(±inf) = ±0.5.
        exact(name, call1(name, 0.0), 0.0);
        exact(name, call1(name, -0.0), -0.0);
        exact(name, call1(name, f64::INFINITY), inf);
        exact(name, call1(name, f64::NEG_INFINITY), -inf);
        exact(name, call1(name, f64::NAN), f64::NAN);
        let d = f64::from_bits(5);
        if inf == half_pi {
            exact(name, call1(name, -d), -d);
        }
    }
    // F.9.1.4 (atan2) and 7.5.1 (atan2pi): the angle of each prescribed case, in units of
    // pi (0 stands for a zero whose sign is y's).
    let inf = f64::INFINITY;
    let cases: [(f64, f64, f64); 12] = [
        (0.0, -0.0, 1.0),
        (0.0, 0.0, 0.0),
        (0.0, -3.0, 1.0),
        (0.0, 3.0, 0.0),
        (-3.0, 0.0, -0.5),
        (3.0, -0.0, 0.5),
        (2.5, -inf, 1.0),
        (2.5, inf, 0.0),
        (inf, 7.0, 0.5),
        (inf, -7.0, 0.5),
        (inf, -inf, 0.75),
        (inf, inf, 0.25),
    ];
    for (y, x, turns) in cases {
        for sign in [1.0, -1.0] {
            let (y, want) = (sign * y, sign * turns);
            let angle = if turns == 0.0 { sign * 0.0 } else { want * PI };
            let pi_want = if turns == 0.0 { sign * 0.0 } else { want };
            let got = call2("__cl_atan2_double_double", y, x);
            assert!(
                ulp_error(got, angle) == 0.0 || (turns == 0.75 && ulp_error(got, angle) <= 1.0),
                "atan2({y:e}, {x:e}) = {got:e}, want {angle:e}"
            );
            exact(
                &format!("atan2pi({y:e}, {x:e})"),
                call2("__cl_atan2pi_double_double", y, x),
                pi_want,
            );
        }
    }
    for name in ["__cl_atan2_double_double", "__cl_atan2pi_double_double"] {
        exact(name, call2(name, f64::NAN, 1.0), f64::NAN);
        exact(name, call2(name, 1.0, f64::NAN), f64::NAN);
        exact(name, call2(name, f64::INFINITY, f64::NAN), f64::NAN);
    }
}

#[test]
fn inverse_accuracy() {
    let mut rng = Rng(SEED ^ 0xa5a5);
    let mut unit = Vec::new();
    let mut any = Vec::new();
    for _ in 0..1000 {
        // Every binade below 1, uniform in [-1, 1], and near ±1.
        unit.push(rng.double_in(0, 1022));
        unit.push(rng.uniform(-1.0, 1.0));
        let near = 1.0 - rng.unit() * 2f64.powi(-((rng.next() % 50) as i32));
        unit.push(if rng.next() & 1 == 0 { near } else { -near });
        any.push(rng.double_in(0, 2046));
        any.push(rng.uniform(-20.0, 20.0));
        // Near the points where the reduction switches: (2k + 1)/16 and their
        // reciprocals.
        let k = (rng.next() % 9) as f64;
        let p = (2.0 * k + 1.0) / 16.0;
        let p = if rng.next() & 1 == 0 { p } else { 1.0 / p };
        let d = (rng.next() % 9) as i64 - 4;
        any.push(f64::from_bits((p.to_bits() as i64 + d) as u64));
    }
    // Table 68: asin, acos 4 ulp; atan, asinpi, acospi, atanpi 5 ulp.
    sweep(
        "asin",
        &unit,
        4.0,
        |x| call1("__cl_asin_double", x),
        f64::asin,
    );
    sweep(
        "acos",
        &unit,
        4.0,
        |x| call1("__cl_acos_double", x),
        f64::acos,
    );
    sweep(
        "atan",
        &any,
        5.0,
        |x| call1("__cl_atan_double", x),
        f64::atan,
    );
    sweep(
        "asinpi",
        &unit,
        5.0,
        |x| call1("__cl_asinpi_double", x),
        |x| div_pi(x.asin()),
    );
    sweep(
        "acospi",
        &unit,
        5.0,
        |x| call1("__cl_acospi_double", x),
        |x| div_pi(x.acos()),
    );
    sweep(
        "atanpi",
        &any,
        5.0,
        |x| call1("__cl_atanpi_double", x),
        |x| div_pi(x.atan()),
    );
    // atan2, atan2pi: 6 ulp. Pairs of any binades, of nearby binades, and of moderate values
    // (the argument is an index into the pairs).
    let mut pairs = Vec::new();
    for _ in 0..1000 {
        pairs.push((rng.double_in(0, 2046), rng.double_in(0, 2046)));
        let e = 1 + rng.next() % 2000;
        pairs.push((rng.double_in(e, e + 40), rng.double_in(e, e + 40)));
        pairs.push((rng.uniform(-3.0, 3.0), rng.uniform(-3.0, 3.0)));
    }
    let idx: Vec<f64> = (0..pairs.len()).map(|i| i as f64).collect();
    let at = |i: f64| pairs[i as usize];
    sweep(
        "atan2 (by pair)",
        &idx,
        6.0,
        |i| {
            let (y, x) = at(i);
            call2("__cl_atan2_double_double", y, x)
        },
        |i| {
            let (y, x) = at(i);
            y.atan2(x)
        },
    );
    sweep(
        "atan2pi (by pair)",
        &idx,
        6.0,
        |i| {
            let (y, x) = at(i);
            call2("__cl_atan2pi_double_double", y, x)
        },
        |i| {
            let (y, x) = at(i);
            div_pi(y.atan2(x))
        },
    );
}
