//! The builtin library's trigonometric functions for `double` (OpenCL C 6.15.2), run in the
//! IR interpreter: the special values of 7.5.1 and C99 F.9.1 / F.9.4 exactly, and a seeded
//! sample of arguments (denormals, huge arguments, values near multiples of pi/2, near 1 for
//! the inverse functions) against the host's C library. Table 68 bounds the error; the host
//! reference is itself within about an ulp of the exact result (the *pi references, built
//! here from the host's functions in double-double, within about an ulp too), so each
//! function must stay within its bound less one ulp. The largest error is printed.

use ferrocl_ir::entity::Func;
use ferrocl_ir::interp::{Interpreter, Val};
use ferrocl_ir::Module;

const PI: f64 = std::f64::consts::PI;

fn library() -> &'static Module {
    ferrocl_clc::library::module().unwrap_or_else(|e| panic!("{e}"))
}

fn func(name: &str) -> Func {
    library()
        .func_by_name(name)
        .unwrap_or_else(|| panic!("the library has no {name}"))
}

fn call1(name: &str, x: f64) -> f64 {
    let f = func(name);
    let mut it = Interpreter::new(library());
    let r = it
        .call(f, &[Val::scalar(x.to_bits())])
        .unwrap_or_else(|t| panic!("{name}({x:e}) traps: {t}"))
        .expect("a result");
    f64::from_bits(r.bits())
}

/// sincos(x): (the value, what it stores through its pointer).
fn call_sincos(x: f64) -> (f64, f64) {
    let f = func("__cl_sincos_double_ptr_double");
    let mut it = Interpreter::new(library());
    let p = it.memory().alloc(vec![0; 8]);
    let r = it
        .call(f, &[Val::scalar(x.to_bits()), Val::scalar(p)])
        .unwrap_or_else(|t| panic!("sincos({x:e}) traps: {t}"))
        .expect("a result");
    let c = it.memory().read_as::<f64>(p)[0];
    (f64::from_bits(r.bits()), c)
}

/// The spacing of doubles at `x` (2^-1074 among denormals).
fn ulp(x: f64) -> f64 {
    let e = (x.abs().to_bits() >> 52).max(1);
    if e > 52 {
        f64::from_bits((e - 52) << 52)
    } else {
        f64::from_bits(1 << (e - 1))
    }
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

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// A finite double with a random sign, significand and exponent in [lo, hi] (biased
    /// exponents, 0 for denormals).
    fn double_in(&mut self, lo: u64, hi: u64) -> f64 {
        let bits = self.next();
        let e = lo + (bits >> 11) % (hi - lo + 1);
        f64::from_bits((bits & 0x800f_ffff_ffff_ffff) | (e << 52))
    }
    fn uniform(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.unit()
    }
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

/// Asserts an exact result (bits, or any NaN).
fn exact(label: &str, got: f64, want: f64) {
    let ok = if want.is_nan() {
        got.is_nan()
    } else {
        got.to_bits() == want.to_bits()
    };
    assert!(
        ok,
        "{label}: got {got:e} ({:#018x}), want {want:e}",
        got.to_bits()
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
    for (name, odd) in [("__cl_sin_double", true), ("__cl_tan_double", true)] {
        // F.9.1.6, F.9.1.7: sin(±0), tan(±0) are ±0; infinities give a NaN.
        exact(name, call1(name, 0.0), 0.0);
        exact(name, call1(name, -0.0), -0.0);
        assert!(odd);
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
    let args = trig_args(SEED, 300);
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
