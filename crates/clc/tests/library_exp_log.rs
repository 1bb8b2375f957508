//! The builtin library's exponentials, logarithms, powers, roots and hyperbolic functions
//! for double (exp_log.cl), run in the IR interpreter: the special values of 7.5.1 and C99
//! F.9 exactly (signed zeros and infinities included), and seeded random inputs (denormals,
//! huge arguments, the overflow and underflow edges, values near 1 and near the hard spots)
//! against the bounds of table 68 (7.4); the float forms against the double forms on the
//! prescribed values.
//!
//! The references are computed here in double-double arithmetic (about 2^-100 relative),
//! not taken from the host's C library, whose exp10, log10, sinh, tanh and atanh are off by
//! up to 1.5 ulp: so each error is measured to a small fraction of an ulp and the bound
//! itself is asserted. rsqrt, cbrt and rootn are checked without a reference: the result y
//! is raised to its power in double-double arithmetic and compared with x. The largest error
//! of each function is printed; FERROCL_TEST_SCALE=n runs n times the inputs.

use crate::common;

use common::{call, call1, call2, exact, pow2, ulp, Rng};
use ferrocl_ir::interp::Val;

const INF: f64 = f64::INFINITY;
const NAN: f64 = f64::NAN;

fn d(x: f64) -> Val {
    Val::scalar(x.to_bits())
}

fn calln(name: &str, x: f64, n: i32) -> f64 {
    f64::from_bits(call(name, &[d(x), Val::i32(n)]))
}

/// Records the largest error of one function and its input.
struct Worst {
    name: &'static str,
    bound: f64,
    max: f64,
    at: String,
}

impl Worst {
    fn new(name: &'static str, bound: f64) -> Worst {
        Worst {
            name,
            bound,
            max: 0.0,
            at: String::new(),
        }
    }
    fn add(&mut self, err: f64, at: impl FnOnce() -> String) {
        if err > self.max || err.is_nan() {
            self.max = if err.is_nan() { INF } else { err };
            self.at = at();
        }
    }
    /// Prints the largest error and asserts it within the bound.
    fn check(&self) {
        println!(
            "{:8} max error {:.3} ulp (bound {}) at {}",
            self.name, self.max, self.bound, self.at
        );
        assert!(
            self.max <= self.bound,
            "{}: {} ulp at {} (table 68 allows {})",
            self.name,
            self.max,
            self.at,
            self.bound
        );
    }
}

/// Double-double arithmetic (about 104 good bits) for the references the host library
/// lacks or gives with more than half an ulp of error (exp10, log10, expm1, log1p and the
/// hyperbolic functions). A value is `Dd` times 2^k where a function may overflow or
/// underflow double.
mod dd {
    #[derive(Clone, Copy, Debug)]
    pub struct Dd(pub f64, pub f64);

    pub const LN2: Dd = Dd(std::f64::consts::LN_2, 2.3190468138462996e-17);
    pub const LN10: Dd = Dd(std::f64::consts::LN_10, -2.1707562233822494e-16);

    fn two_sum(a: f64, b: f64) -> Dd {
        let s = a + b;
        let bb = s - a;
        Dd(s, (a - (s - bb)) + (b - bb))
    }

    fn fast(a: f64, b: f64) -> Dd {
        let s = a + b;
        Dd(s, b - (s - a))
    }

    impl Dd {
        pub fn of(x: f64) -> Dd {
            Dd(x, 0.0)
        }
        pub fn add(self, o: Dd) -> Dd {
            let s = two_sum(self.0, o.0);
            let t = two_sum(self.1, o.1);
            let r = fast(s.0, s.1 + t.0);
            fast(r.0, r.1 + t.1)
        }
        pub fn neg(self) -> Dd {
            Dd(-self.0, -self.1)
        }
        pub fn sub(self, o: Dd) -> Dd {
            self.add(o.neg())
        }
        pub fn mul(self, o: Dd) -> Dd {
            let p = self.0 * o.0;
            let e = self.0.mul_add(o.0, -p) + (self.0 * o.1 + self.1 * o.0);
            fast(p, e)
        }
        pub fn div(self, o: Dd) -> Dd {
            let q1 = self.0 / o.0;
            let r = self.sub(o.mul(Dd::of(q1)));
            let q2 = r.0 / o.0;
            let r = r.sub(o.mul(Dd::of(q2)));
            let q3 = r.0 / o.0;
            fast(q1, q2).add(Dd::of(q3))
        }
        pub fn scale(self, e: i32) -> Dd {
            Dd(super::scale(self.0, e), super::scale(self.1, e))
        }
        pub fn sqrt(self) -> Dd {
            // One Newton step from the double root doubles its 53 bits.
            let y = self.0.sqrt();
            let r = self.sub(Dd::of(y).mul(Dd::of(y)));
            Dd::of(y).add(r.div(Dd::of(2.0 * y)))
        }
    }

    /// exp(a) as (m, k), the value m 2^k, for |a| below about 1500.
    pub fn exp(a: Dd) -> (Dd, i32) {
        // Far beyond double's range: 2^+-2000 stands for the overflow or the underflow.
        if a.0.abs() > 1400.0 {
            return (Dd::of(1.0), if a.0 > 0.0 { 2000 } else { -2000 });
        }
        let k = (a.0 / LN2.0).round();
        let r = a.sub(LN2.mul(Dd::of(k)));
        // exp(r) = exp(r / 2^10)^(2^10), the series to r^20 (far below 2^-110).
        let sq = if r.0.abs() < 1e-3 { 0 } else { 10 };
        let s = r.scale(-sq);
        let mut term = Dd::of(1.0);
        let mut sum = Dd::of(1.0);
        for i in 1..=20 {
            term = term.mul(s).div(Dd::of(f64::from(i)));
            sum = sum.add(term);
        }
        for _ in 0..sq {
            sum = sum.mul(sum);
        }
        (sum, k as i32)
    }

    /// log(1 + u) for u > -1.
    pub fn log1p(u: Dd) -> Dd {
        if u.0.abs() < 0.1 {
            // 2 atanh(s) with s = u / (2 + u): relative accuracy for small u.
            let s = u.div(Dd::of(2.0).add(u));
            let s2 = s.mul(s);
            let mut pow = s;
            let mut sum = s;
            for i in 1..40 {
                pow = pow.mul(s2);
                sum = sum.add(pow.div(Dd::of(f64::from(2 * i + 1))));
            }
            sum.scale(1)
        } else {
            log(Dd::of(1.0).add(u))
        }
    }

    /// log(a) for a > 0 in the normal range.
    pub fn log(a: Dd) -> Dd {
        let d = a.sub(Dd::of(1.0));
        if d.0.abs() < 0.1 {
            return log1p(d);
        }
        // One Newton step for exp(y) = a from the double logarithm.
        let y = Dd::of(a.0.ln());
        let (m, k) = exp(y.neg());
        y.add(a.mul(m.scale(k)).sub(Dd::of(1.0)))
    }
}

use dd::Dd;

/// The error of `got` in ulps of the exact value m 2^k (m a double-double), measured at the
/// scale 2^-k so that denormal and overflowing results are measured exactly too.
fn ulp_error_scaled(got: f64, m: Dd, k: i32) -> f64 {
    let w = scale(m.0 + m.1, k);
    if w.is_infinite() || got.is_infinite() || got.is_nan() {
        return if got == w { 0.0 } else { INF };
    }
    let diff = Dd::of(scale(got, -k)).sub(m);
    (diff.0 + diff.1).abs() / scale(ulp(w), -k)
}

/// Checks `__cl_{name}_double` against a double-double reference on `inputs`.
fn unary_dd(name: &'static str, bound: f64, reference: fn(f64) -> (Dd, i32), inputs: &[f64]) {
    let lib_name = format!("__cl_{name}_double");
    let mut w = Worst::new(name, bound);
    for &x in inputs {
        let got = call1(&lib_name, x);
        let (m, k) = reference(x);
        w.add(ulp_error_scaled(got, m, k), || {
            format!(
                "x = {x:e} ({:#x}): got {got:e}, want {:e}",
                x.to_bits(),
                scale(m.0 + m.1, k)
            )
        });
    }
    w.check();
}

fn r_exp10(x: f64) -> (Dd, i32) {
    dd::exp(dd::LN10.mul(Dd::of(x)))
}

/// The binary exponent e of x > 0 and finite, denormals included (x = 2^e f, f in [1, 2)).
fn exponent(x: f64) -> i32 {
    if x < f64::MIN_POSITIVE {
        ((scale(x, 64).to_bits() >> 52) & 0x7ff) as i32 - 1023 - 64
    } else {
        ((x.to_bits() >> 52) & 0x7ff) as i32 - 1023
    }
}

/// log(x) for finite x > 0, denormals included.
fn ln_dd(x: f64) -> Dd {
    if (x - 1.0).abs() < 0.25 {
        return dd::log(Dd::of(x));
    }
    // x = 2^e f: log(x) = e ln 2 + log f.
    let e = exponent(x);
    let f = scale(x, -e);
    dd::LN2.mul(Dd::of(f64::from(e))).add(dd::log(Dd::of(f)))
}

fn r_exp(x: f64) -> (Dd, i32) {
    dd::exp(Dd::of(x))
}

fn r_exp2(x: f64) -> (Dd, i32) {
    dd::exp(dd::LN2.mul(Dd::of(x)))
}

fn r_log(x: f64) -> (Dd, i32) {
    (ln_dd(x), 0)
}

fn r_log2(x: f64) -> (Dd, i32) {
    (ln_dd(x).div(dd::LN2), 0)
}

fn r_log10(x: f64) -> (Dd, i32) {
    (ln_dd(x).div(dd::LN10), 0)
}

/// pow(x, y) for finite nonzero x and finite y (x < 0 only with an integral y): exp(y log|x|)
/// with the product kept as a double-double, negated for x < 0 and odd y.
fn r_pow(x: f64, y: f64) -> (Dd, i32) {
    let (m, k) = dd::exp(ln_dd(x.abs()).mul(Dd::of(y)));
    let odd = y.fract() == 0.0 && (y / 2.0).fract() != 0.0;
    if x < 0.0 && odd {
        (m.neg(), k)
    } else {
        (m, k)
    }
}

/// hypot(x, y) for finite x, y not both zero: sqrt(x^2 + y^2) at the larger one's scale.
fn r_hypot(x: f64, y: f64) -> (Dd, i32) {
    let e = exponent(x.abs().max(y.abs()));
    let (a, b) = (Dd::of(scale(x, -e)), Dd::of(scale(y, -e)));
    (a.mul(a).add(b.mul(b)).sqrt(), e)
}

fn r_expm1(x: f64) -> (Dd, i32) {
    if x.abs() < 0.5 {
        let mut term = Dd::of(x);
        let mut sum = term;
        for i in 2..40 {
            term = term.mul(Dd::of(x)).div(Dd::of(f64::from(i)));
            sum = sum.add(term);
        }
        return (sum, 0);
    }
    let (m, k) = dd::exp(Dd::of(x));
    (m.sub(Dd::of(pow2(-k))), k)
}

/// Below 1e-150 in magnitude asinh, atanh, log1p and tanh are x to far better than an
/// ulp (their next terms are x^2 or x^3 relative), where the double-double forms would
/// lose the denormals' precision.
const TINY: f64 = 1e-150;

fn r_log1p(x: f64) -> (Dd, i32) {
    if x.abs() < TINY {
        return (Dd::of(x), 0);
    }
    (dd::log1p(Dd::of(x)), 0)
}

/// sinh and cosh of |x| >= 1/2: (e^|x| -+ e^-|x|) / 2 as m 2^k.
fn r_sinh_cosh(ax: f64, sign: f64) -> (Dd, i32) {
    let (m, k) = dd::exp(Dd::of(ax));
    let other = if k < 500 {
        Dd::of(1.0).div(m).scale(-2 * k)
    } else {
        Dd::of(0.0)
    };
    (m.add(other.mul(Dd::of(sign))).scale(-1), k)
}

/// sinh and cosh of |x| < 1/2 from their series.
fn r_sinh_cosh_series(x: f64) -> (Dd, Dd) {
    let x2 = Dd::of(x).mul(Dd::of(x));
    let (mut s, mut c) = (Dd::of(x), Dd::of(1.0));
    let (mut ts, mut tc) = (Dd::of(x), Dd::of(1.0));
    for i in 1..20 {
        let i = f64::from(i);
        ts = ts.mul(x2).div(Dd::of((2.0 * i) * (2.0 * i + 1.0)));
        tc = tc.mul(x2).div(Dd::of((2.0 * i - 1.0) * (2.0 * i)));
        s = s.add(ts);
        c = c.add(tc);
    }
    (s, c)
}

fn r_sinh(x: f64) -> (Dd, i32) {
    if x.abs() < 0.5 {
        return (r_sinh_cosh_series(x).0, 0);
    }
    let (m, k) = r_sinh_cosh(x.abs(), -1.0);
    (m.mul(Dd::of(1f64.copysign(x))), k)
}

fn r_cosh(x: f64) -> (Dd, i32) {
    if x.abs() < 0.5 {
        return (r_sinh_cosh_series(x).1, 0);
    }
    r_sinh_cosh(x.abs(), 1.0)
}

fn r_tanh(x: f64) -> (Dd, i32) {
    if x.abs() < TINY {
        return (Dd::of(x), 0);
    }
    if x.abs() < 0.5 {
        let (s, c) = r_sinh_cosh_series(x);
        return (s.div(c), 0);
    }
    // (1 - e^-2|x|) / (1 + e^-2|x|).
    let (m, k) = dd::exp(Dd::of(-2.0 * x.abs()));
    let q = if k > -1000 { m.scale(k) } else { Dd::of(0.0) };
    let t = Dd::of(1.0).sub(q).div(Dd::of(1.0).add(q));
    (t.mul(Dd::of(1f64.copysign(x))), 0)
}

fn r_asinh(x: f64) -> (Dd, i32) {
    if x.abs() < TINY {
        return (Dd::of(x), 0);
    }
    let a = Dd::of(x.abs());
    // Above 1e150, asinh|x| = log(2|x|) + 1/(4x^2) + ... is log(2|x|) to far below an ulp.
    let r = if x.abs() > 1e150 {
        dd::log(a).add(dd::LN2)
    } else {
        // log1p(|x| + x^2 / (1 + sqrt(1 + x^2))).
        let x2 = a.mul(a);
        let root = Dd::of(1.0).add(x2).sqrt();
        dd::log1p(a.add(x2.div(Dd::of(1.0).add(root))))
    };
    (r.mul(Dd::of(1f64.copysign(x))), 0)
}

fn r_acosh(x: f64) -> (Dd, i32) {
    let a = Dd::of(x);
    let r = if x > 1e150 {
        dd::log(a).add(dd::LN2)
    } else {
        // log1p((x - 1) + sqrt(x^2 - 1)).
        let root = a.mul(a).sub(Dd::of(1.0)).sqrt();
        dd::log1p(a.sub(Dd::of(1.0)).add(root))
    };
    (r, 0)
}

fn r_atanh(x: f64) -> (Dd, i32) {
    if x.abs() < TINY {
        return (Dd::of(x), 0);
    }
    // log1p(2|x| / (1 - |x|)) / 2.
    let a = Dd::of(x.abs());
    let r = dd::log1p(a.scale(1).div(Dd::of(1.0).sub(a))).scale(-1);
    (r.mul(Dd::of(1f64.copysign(x))), 0)
}

fn u(name: &str, x: f64, want: f64) {
    exact(
        &format!("{name}({x:e})"),
        call1(&format!("__cl_{name}_double"), x),
        want,
    );
}

fn b(name: &str, x: f64, y: f64, want: f64) {
    exact(
        &format!("{name}({x:e}, {y:e})"),
        call2(&format!("__cl_{name}_double_double"), x, y),
        want,
    );
}

fn n(name: &str, x: f64, k: i32, want: f64) {
    exact(
        &format!("{name}({x:e}, {k})"),
        calln(&format!("__cl_{name}_double_int"), x, k),
        want,
    );
}

const DENORM_MIN: f64 = f64::from_bits(1);

#[test]
fn exponentials_special_values() {
    for name in ["exp", "exp2", "exp10"] {
        // C99 F.9.3.1, F.9.3.2, 7.5.1: exp(+-0) = 1, exp(-inf) = +0, exp(+inf) = +inf.
        u(name, 0.0, 1.0);
        u(name, -0.0, 1.0);
        u(name, -INF, 0.0);
        u(name, INF, INF);
        u(name, NAN, NAN);
        // Overflow and total underflow.
        u(name, 2000.0, INF);
        u(name, -2000.0, 0.0);
        u(name, DENORM_MIN, 1.0);
    }
    // C99 F.9.3.3: expm1(+-0) = +-0, expm1(-inf) = -1, expm1(+inf) = +inf.
    u("expm1", 0.0, 0.0);
    u("expm1", -0.0, -0.0);
    u("expm1", -INF, -1.0);
    u("expm1", INF, INF);
    u("expm1", NAN, NAN);
    u("expm1", 1000.0, INF);
    u("expm1", -DENORM_MIN, -DENORM_MIN);
    // Exact powers.
    u("exp2", 10.0, 1024.0);
    u("exp2", -1074.0, DENORM_MIN);
    u("exp2", 1023.0, pow2(1023));
    u("exp2", 1024.0, INF);
    u("exp2", -1075.5, 0.0);
    u("exp10", 2.0, 100.0);
}

#[test]
fn logarithms_special_values() {
    for name in ["log", "log2", "log10"] {
        // C99 F.9.3.7, F.9.3.8, F.9.3.10: log(+-0) = -inf, log(1) = +0, log(x < 0) is a NaN,
        // log(+inf) = +inf.
        u(name, 0.0, -INF);
        u(name, -0.0, -INF);
        u(name, 1.0, 0.0);
        u(name, -1.0, NAN);
        u(name, -INF, NAN);
        u(name, INF, INF);
        u(name, NAN, NAN);
    }
    // C99 F.9.3.9: log1p(+-0) = +-0, log1p(-1) = -inf, log1p(x < -1) is a NaN,
    // log1p(+inf) = +inf.
    u("log1p", 0.0, 0.0);
    u("log1p", -0.0, -0.0);
    u("log1p", -1.0, -INF);
    u("log1p", -1.5, NAN);
    u("log1p", -INF, NAN);
    u("log1p", INF, INF);
    u("log1p", NAN, NAN);
    u("log1p", DENORM_MIN, DENORM_MIN);
    // Exact binary logarithms of powers of two, denormals included.
    for e in [-1074, -1060, -1023, -1022, -1, 1, 2, 52, 1023] {
        u("log2", pow2(e), f64::from(e));
    }
    u("log10", 1000.0, 3.0);
}

#[test]
fn pow_special_values() {
    let odd_neg = [-1.0, -3.0, -1001.0];
    let even_neg = [-2.0, -0.5, -1e300, -INF];
    let odd_pos = [1.0, 3.0, 9007199254740991.0];
    let even_pos = [2.0, 0.5, 1e300, INF];
    // C99 F.9.4.4.
    for y in odd_neg {
        b("pow", 0.0, y, INF);
        b("pow", -0.0, y, -INF);
        b("pow", -INF, y, -0.0);
        b("pow", INF, y, 0.0);
    }
    for y in even_neg {
        b("pow", 0.0, y, INF);
        b("pow", -0.0, y, INF);
        b("pow", -INF, y, 0.0);
        b("pow", INF, y, 0.0);
    }
    for y in odd_pos {
        b("pow", 0.0, y, 0.0);
        b("pow", -0.0, y, -0.0);
        b("pow", -INF, y, -INF);
        b("pow", INF, y, INF);
    }
    for y in even_pos {
        b("pow", 0.0, y, 0.0);
        b("pow", -0.0, y, 0.0);
        b("pow", -INF, y, INF);
        b("pow", INF, y, INF);
    }
    b("pow", -1.0, INF, 1.0);
    b("pow", -1.0, -INF, 1.0);
    for y in [NAN, INF, -INF, 0.0, -3.5, 1e308] {
        b("pow", 1.0, y, 1.0);
    }
    for x in [NAN, INF, -INF, 0.0, -0.0, -3.5, 1e308] {
        b("pow", x, 0.0, 1.0);
        b("pow", x, -0.0, 1.0);
    }
    b("pow", -2.0, 0.5, NAN);
    b("pow", -INF, 0.5, INF);
    b("pow", -1e-300, -2.5, NAN);
    for x in [0.5, -0.5, DENORM_MIN] {
        b("pow", x, -INF, INF);
        b("pow", x, INF, 0.0);
    }
    for x in [2.0, -2.0, 1e308, -INF] {
        b("pow", x, -INF, 0.0);
        b("pow", x, INF, INF);
    }
    b("pow", NAN, 1.0, NAN);
    b("pow", 2.0, NAN, NAN);
    // Exact results.
    b("pow", -2.0, 3.0, -8.0);
    b("pow", 2.0, -1074.0, DENORM_MIN);
    b("pow", 10.0, 400.0, INF);
    b("pow", -10.0, 309.0, -INF);
    b("pow", 10.0, -400.0, 0.0);
    b("pow", -10.0, -401.0, -0.0);

    // 7.5.1 pown.
    for x in [NAN, INF, -INF, 0.0, -0.0, 2.5] {
        n("pown", x, 0, 1.0);
    }
    n("pown", 0.0, -3, INF);
    n("pown", -0.0, -3, -INF);
    n("pown", 0.0, -2, INF);
    n("pown", -0.0, -2, INF);
    n("pown", 0.0, 2, 0.0);
    // +0 for even n > 0 (7.5.1; opencl-1.2.txt and the published 3.0 text agree).
    n("pown", -0.0, 2, 0.0);
    n("pown", 0.0, 3, 0.0);
    n("pown", -0.0, 3, -0.0);
    n("pown", -3.0, 3, -27.0);
    n("pown", -INF, 3, -INF);
    n("pown", -INF, -3, -0.0);
    n("pown", NAN, 2, NAN);

    // 7.5.1 powr.
    for x in [DENORM_MIN, 0.5, 2.0, 1e308] {
        b("powr", x, 0.0, 1.0);
        b("powr", x, -0.0, 1.0);
        b("powr", -x, 2.0, NAN);
        b("powr", x, NAN, NAN);
    }
    for z in [0.0, -0.0] {
        b("powr", z, -1.0, INF);
        b("powr", z, -3.0, INF);
        b("powr", z, -INF, INF);
        // 7.5.1: powr(+-0, y) is +0 for y > 0.
        b("powr", z, 2.0, 0.0);
        b("powr", z, 3.0, 0.0);
        b("powr", z, INF, 0.0);
        b("powr", z, 0.0, NAN);
        b("powr", z, -0.0, NAN);
    }
    for y in [0.5, -3.0, 1e300, 0.0] {
        b("powr", 1.0, y, 1.0);
    }
    b("powr", INF, 0.0, NAN);
    b("powr", INF, -0.0, NAN);
    b("powr", 1.0, INF, NAN);
    b("powr", 1.0, -INF, NAN);
    b("powr", -INF, 2.0, NAN);
    b("powr", NAN, 0.0, NAN);
    b("powr", NAN, 1.0, NAN);
    b("powr", 1.0, NAN, NAN);
    b("powr", INF, 2.0, INF);
    b("powr", INF, -2.0, 0.0);
    b("powr", 4.0, 0.5, 2.0);

    // 7.5.1 rootn.
    n("rootn", 0.0, -3, INF);
    n("rootn", -0.0, -3, -INF);
    n("rootn", 0.0, -2, INF);
    n("rootn", -0.0, -2, INF);
    n("rootn", 0.0, 2, 0.0);
    // +0 for even n > 0 (7.5.1).
    n("rootn", -0.0, 2, 0.0);
    n("rootn", 0.0, 3, 0.0);
    n("rootn", -0.0, 3, -0.0);
    n("rootn", -8.0, 2, NAN);
    n("rootn", -INF, 4, NAN);
    for x in [1.0, 0.0, -8.0, INF] {
        n("rootn", x, 0, NAN);
    }
    n("rootn", NAN, 3, NAN);
    n("rootn", -8.0, 3, -2.0);
    n("rootn", 1024.0, 10, 2.0);
    n("rootn", 0.25, -2, 2.0);
    n("rootn", INF, 2, INF);
    n("rootn", INF, -2, 0.0);
    n("rootn", -INF, 3, -INF);
    n("rootn", -INF, -3, -0.0);
}

#[test]
fn roots_and_hyperbolic_special_values() {
    // C99 F.9.4.1: cbrt(+-0) = +-0, cbrt(+-inf) = +-inf.
    for v in [0.0, -0.0, INF, -INF, NAN] {
        u("cbrt", v, v);
    }
    u("cbrt", 27.0, 3.0);
    u("cbrt", -0.125, -0.5);
    // C99 F.9.4.3: hypot(+-inf, y) = +inf even for a NaN y; hypot(x, +-0) = |x|.
    for y in [NAN, 0.0, -3.0, INF] {
        b("hypot", INF, y, INF);
        b("hypot", -INF, y, INF);
        b("hypot", y, -INF, INF);
    }
    b("hypot", NAN, 1.0, NAN);
    b("hypot", -3.0, 0.0, 3.0);
    b("hypot", -0.0, -0.0, 0.0);
    b("hypot", 3.0, -4.0, 5.0);
    b("hypot", 3e300, 4e300, 5e300);
    b(
        "hypot",
        3.0 * DENORM_MIN,
        4.0 * DENORM_MIN,
        5.0 * DENORM_MIN,
    );
    b("hypot", 1e308, 1e308, 1.4142135623730951e308);
    b("hypot", 1.7e308, 1.7e308, INF);
    // rsqrt is 1/sqrt: +-0 give +-inf, +inf gives +0, negatives a NaN.
    u("rsqrt", 0.0, INF);
    u("rsqrt", -0.0, -INF);
    u("rsqrt", INF, 0.0);
    u("rsqrt", -1.0, NAN);
    u("rsqrt", NAN, NAN);
    u("rsqrt", 0.25, 2.0);
    u("rsqrt", pow2(-1074), pow2(537));
    // C99 F.9.2: sinh, tanh, asinh, atanh keep +-0; sinh, asinh keep +-inf;
    // cosh(+-0) = 1, cosh(+-inf) = +inf; tanh(+-inf) = +-1; acosh(1) = +0,
    // acosh(+inf) = +inf, acosh(x < 1) a NaN; atanh(+-1) = +-inf, atanh(|x| > 1) a NaN.
    for name in ["sinh", "tanh", "asinh", "atanh"] {
        u(name, 0.0, 0.0);
        u(name, -0.0, -0.0);
        u(name, NAN, NAN);
        u(name, DENORM_MIN, DENORM_MIN);
        u(name, -DENORM_MIN, -DENORM_MIN);
    }
    for name in ["sinh", "asinh"] {
        u(name, INF, INF);
        u(name, -INF, -INF);
    }
    u("sinh", 711.0, INF);
    u("sinh", -711.0, -INF);
    u("cosh", 0.0, 1.0);
    u("cosh", -0.0, 1.0);
    u("cosh", INF, INF);
    u("cosh", -INF, INF);
    u("cosh", NAN, NAN);
    u("cosh", -711.0, INF);
    u("tanh", INF, 1.0);
    u("tanh", -INF, -1.0);
    u("tanh", 30.0, 1.0);
    u("acosh", 1.0, 0.0);
    u("acosh", INF, INF);
    u("acosh", 0.5, NAN);
    u("acosh", -INF, NAN);
    u("acosh", NAN, NAN);
    u("atanh", 1.0, INF);
    u("atanh", -1.0, -INF);
    u("atanh", 1.5, NAN);
    u("atanh", -INF, NAN);
}

/// `count`, times the FERROCL_TEST_SCALE environment variable when set (for a longer
/// search than the default run's).
fn scaled(count: usize) -> usize {
    let k = std::env::var("FERROCL_TEST_SCALE")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(1);
    count * k.max(1)
}

/// Random inputs: `count` (scaled) from each generator.
fn sample(seed: u64, count: usize, gens: &[&dyn Fn(&mut Rng) -> f64]) -> Vec<f64> {
    let mut rng = Rng(seed);
    let mut v = Vec::new();
    for g in gens {
        for _ in 0..scaled(count) {
            v.push(g(&mut rng));
        }
    }
    v
}

#[test]
fn exponentials_meet_their_bounds() {
    let exp_in = sample(
        1,
        400,
        &[
            &|r| r.uniform(-745.2, 709.8),
            &|r| r.uniform(-745.2, -708.0),
            &|r| r.uniform(700.0, 709.79),
            &|r| r.log_uniform(-1074, 0),
        ],
    );
    unary_dd("exp", 3.0, r_exp, &exp_in);
    let exp2_in = sample(
        2,
        400,
        &[
            &|r| r.uniform(-1075.0, 1024.0),
            &|r| r.uniform(-1075.0, -1020.0),
            &|r| r.log_uniform(-1074, 0),
        ],
    );
    unary_dd("exp2", 3.0, r_exp2, &exp2_in);
    let exp10_in = sample(
        3,
        400,
        &[
            &|r| r.uniform(-323.6, 308.25),
            &|r| r.uniform(-323.6, -307.0),
            &|r| r.log_uniform(-1074, 0),
        ],
    );
    unary_dd("exp10", 3.0, r_exp10, &exp10_in);
    let expm1_in = sample(
        4,
        400,
        &[
            &|r| r.uniform(-40.0, 709.7),
            &|r| r.uniform(-1.0, 1.0),
            &|r| r.uniform(-0.05, 0.05),
            &|r| r.log_uniform(-1074, -3),
            &|r| r.uniform(-50.0, -30.0),
        ],
    );
    unary_dd("expm1", 3.0, r_expm1, &expm1_in);
}

#[test]
fn logarithms_meet_their_bounds() {
    let log_in = sample(
        5,
        500,
        &[
            &|r| r.bits_positive(),
            &|r| 1.0 + r.log_uniform(-60, -1),
            &|r| r.uniform(0.9, 1.1),
        ],
    );
    unary_dd("log", 3.0, r_log, &log_in);
    unary_dd("log2", 3.0, r_log2, &log_in);
    unary_dd("log10", 3.0, r_log10, &log_in);
    let log1p_in = sample(
        6,
        400,
        &[
            &|r| r.bits_positive(),
            &|r| r.log_uniform(-1074, 0),
            &|r| r.uniform(-1.0, -0.5),
            &|r| r.uniform(-0.5, 2.0),
            &|r| -1.0 + r.log_uniform(-52, -1).abs(),
        ],
    );
    unary_dd("log1p", 2.0, r_log1p, &log1p_in);
}

#[test]
fn powers_meet_their_bounds() {
    let mut rng = Rng(7);
    let mut w = Worst::new("pow", 16.0);
    let mut wr = Worst::new("powr", 16.0);
    for i in 0..scaled(2400) {
        let (x, y) = match i % 6 {
            // Moderate operands.
            0 => (rng.uniform(0.0, 10.0), rng.uniform(-40.0, 40.0)),
            // Any positive x; y chosen so that the result spans the whole range.
            1 => {
                let x = rng.bits_positive();
                let t = rng.uniform(-745.0, 709.7);
                (x, t / x.ln())
            }
            // x near 1, large y.
            2 => {
                let x = 1.0 + rng.log_uniform(-50, -2);
                (x, rng.log_uniform(0, 55))
            }
            // Negative x, integral y.
            3 => (-rng.uniform(0.0, 100.0), rng.uniform(-150.0, 150.0).round()),
            // Results near the overflow and underflow thresholds.
            4 => {
                let x = rng.uniform(1.5, 1e6);
                let t = if rng.next() & 1 == 0 {
                    rng.uniform(700.0, 709.78)
                } else {
                    rng.uniform(-745.1, -700.0)
                };
                (x, t / x.ln())
            }
            _ => (rng.log_uniform(-1074, 1024).abs(), rng.uniform(-2.0, 2.0)),
        };
        if x == 0.0 {
            continue;
        }
        let got = call2("__cl_pow_double_double", x, y);
        let (m, k) = r_pow(x, y);
        let want = scale(m.0 + m.1, k);
        w.add(ulp_error_scaled(got, m, k), || {
            format!("pow({x:e}, {y:e}): got {got:e}, want {want:e}")
        });
        if x > 0.0 && i % 2 == 0 {
            let got = call2("__cl_powr_double_double", x, y);
            wr.add(ulp_error_scaled(got, m, k), || {
                format!("powr({x:e}, {y:e}): got {got:e}, want {want:e}")
            });
        }
    }
    w.check();
    wr.check();
    let mut wn = Worst::new("pown", 16.0);
    for i in 0..scaled(600) {
        let (x, k) = if i % 2 == 0 {
            (
                rng.uniform(-30.0, 30.0),
                (rng.uniform(-200.0, 200.0)) as i32,
            )
        } else {
            (
                rng.log_uniform(-1074, 1024),
                (rng.uniform(-4.0, 4.0)) as i32,
            )
        };
        if x == 0.0 {
            continue;
        }
        let got = calln("__cl_pown_double_int", x, k);
        let (m, e) = r_pow(x, f64::from(k));
        let want = scale(m.0 + m.1, e);
        wn.add(ulp_error_scaled(got, m, e), || {
            format!("pown({x:e}, {k}): got {got:e}, want {want:e}")
        });
    }
    wn.check();
}

/// x * 2^e for e of either sign, exactly while the result stays normal.
fn scale(x: f64, e: i32) -> f64 {
    let half = e / 2;
    x * pow2(half) * pow2(e - half)
}

/// a * b as a double-double.
fn mul_dd(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    let p = a.0 * b.0;
    let e = a.0.mul_add(b.0, -p) + (a.0 * b.1 + a.1 * b.0);
    let s = p + e;
    (s, e - (s - p))
}

/// The error in ulps of `y` as the k-th root of x > 0 (k may be negative): y^k is formed in
/// double-double from y and x scaled into a safe range, and |y^k/x - 1| / |k| is y's
/// relative error to first order.
fn root_error(x: f64, k: i32, y: f64) -> f64 {
    if !(y > 0.0 && y.is_finite()) {
        return INF;
    }
    // y = 2^ey m, x scaled by 2^(-k ey) to match m^k.
    let ey = ((y.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let ey = if y < f64::MIN_POSITIVE { -1022 } else { ey };
    let m = scale(y, -ey);
    let xs = scale(scale(x, -k * ey / 2), -k * ey + k * ey / 2);
    let mut p = (1.0, 0.0);
    for _ in 0..k.unsigned_abs() {
        p = mul_dd(p, (m, 0.0));
    }
    // y^k / x - 1 = (m^k - xs) / xs for k > 0 and (1 - m^|k| xs) / (m^|k| xs) for k < 0;
    // the leading differences are exact (their operands are within a factor 2).
    let d = if k > 0 {
        ((p.0 - xs) + p.1) / xs
    } else {
        let t = mul_dd(p, (xs, 0.0));
        ((1.0 - t.0) - t.1) / t.0
    };
    let rel = (d / f64::from(k)).abs();
    rel * y / ulp(y)
}

#[test]
fn roots_meet_their_bounds() {
    let mut rng = Rng(8);
    let mut wc = Worst::new("cbrt", 2.0);
    for i in 0..scaled(1500) {
        let x = match i % 3 {
            0 => rng.bits_positive(),
            1 => rng.uniform(0.0, 100.0),
            _ => rng.log_uniform(-1074, -1000).abs(),
        };
        let x = if i % 2 == 0 { x } else { -x };
        let got = call1("__cl_cbrt_double", x);
        let err = if got.is_sign_negative() == x.is_sign_negative() {
            root_error(x.abs(), 3, got.abs())
        } else {
            INF
        };
        wc.add(err, || format!("cbrt({x:e}): got {got:e}"));
    }
    wc.check();
    let mut wr = Worst::new("rootn", 16.0);
    for i in 0..scaled(1200) {
        let mut k = rng.uniform(-20.0, 21.0).floor() as i32;
        if k == 0 {
            k = 5;
        }
        let x = rng.log_uniform(-1000, 1000).abs();
        let x = if k % 2 != 0 && i % 2 == 0 { -x } else { x };
        let got = calln("__cl_rootn_double_int", x, k);
        let err = if got.is_sign_negative() == x.is_sign_negative() {
            root_error(x.abs(), k, got.abs())
        } else {
            INF
        };
        wr.add(err, || format!("rootn({x:e}, {k}): got {got:e}"));
    }
    wr.check();
    let mut ws = Worst::new("rsqrt", 2.0);
    for i in 0..scaled(1500) {
        let x = match i % 3 {
            0 => rng.bits_positive(),
            1 => rng.uniform(0.0, 4.0),
            _ => rng.log_uniform(-1074, -1000).abs(),
        };
        let got = call1("__cl_rsqrt_double", x);
        ws.add(root_error(x, -2, got), || {
            format!("rsqrt({x:e}): got {got:e}")
        });
    }
    ws.check();
    let mut wh = Worst::new("hypot", 4.0);
    for i in 0..scaled(1500) {
        let (x, y) = match i % 3 {
            0 => (rng.bits_positive(), rng.bits_positive()),
            1 => (rng.uniform(-10.0, 10.0), rng.uniform(-10.0, 10.0)),
            _ => {
                let x = rng.log_uniform(-1074, 960);
                let y = scale(x, rng.uniform(-60.0, 60.0) as i32);
                (x, y)
            }
        };
        let got = call2("__cl_hypot_double_double", x, y);
        let (m, k) = r_hypot(x, y);
        let want = scale(m.0 + m.1, k);
        wh.add(ulp_error_scaled(got, m, k), || {
            format!("hypot({x:e}, {y:e}): got {got:e}, want {want:e}")
        });
    }
    wh.check();
}

#[test]
fn hyperbolic_functions_meet_their_bounds() {
    let sinh_in = sample(
        9,
        400,
        &[
            &|r| r.uniform(-710.4, 710.4),
            &|r| r.uniform(-2.0, 2.0),
            &|r| r.log_uniform(-1074, 0),
            &|r| r.uniform(700.0, 710.47),
        ],
    );
    unary_dd("sinh", 4.0, r_sinh, &sinh_in);
    unary_dd("cosh", 4.0, r_cosh, &sinh_in);
    let tanh_in = sample(
        10,
        400,
        &[
            &|r| r.uniform(-25.0, 25.0),
            &|r| r.uniform(-1.0, 1.0),
            &|r| r.log_uniform(-1074, 0),
        ],
    );
    unary_dd("tanh", 5.0, r_tanh, &tanh_in);
    let asinh_in = sample(
        11,
        400,
        &[
            &|r| r.log_uniform(-1074, 1024),
            &|r| r.uniform(-3.0, 3.0),
            &|r| r.log_uniform(-30, 30),
        ],
    );
    unary_dd("asinh", 4.0, r_asinh, &asinh_in);
    let acosh_in = sample(
        12,
        400,
        &[
            &|r| r.log_uniform(0, 1024).abs(),
            &|r| 1.0 + r.log_uniform(-52, 1).abs(),
            &|r| r.uniform(1.0, 3.0),
        ],
    );
    unary_dd("acosh", 4.0, r_acosh, &acosh_in);
    let atanh_in = sample(
        13,
        400,
        &[
            &|r| r.uniform(-1.0, 1.0),
            &|r| r.log_uniform(-1074, 0),
            &|r| {
                let s = r.log_uniform(-53, -1);
                (1.0 - s.abs()).copysign(s)
            },
        ],
    );
    unary_dd("atanh", 5.0, r_atanh, &atanh_in);
}

/// The float forms on special and exact operands: wherever the double form's result is a
/// NaN, a zero, an infinity or exactly a float (all the values 7.5.1 and C99 F.9 prescribe
/// among them), the float form returns that value, sign included.
#[test]
fn float_forms_agree_on_prescribed_values() {
    let specials: Vec<f32> = [
        0.0,
        f32::INFINITY,
        f32::NAN,
        1.0,
        0.5,
        2.0,
        3.0,
        8.0,
        27.0,
        f32::from_bits(1),
        f32::MAX,
    ]
    .iter()
    .flat_map(|&v| [v, -v])
    .collect();
    let ints = [-3, -2, -1, 0, 1, 2, 3];
    let f = |x: f32| Val::f32(x);
    let mut checked = 0;
    let mut check = |label: String, got: u64, want: f64| {
        let prescribed = want.is_nan() || want == 0.0 || want.is_infinite();
        if prescribed || f64::from(want as f32) == want {
            let got = f32::from_bits(got as u32);
            let want = want as f32;
            let same = got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan());
            assert!(same, "{label}: got {got:e}, want {want:e}");
            checked += 1;
        }
    };
    let unary_names = [
        "exp", "exp2", "exp10", "expm1", "log", "log2", "log10", "log1p", "cbrt", "rsqrt", "sinh",
        "cosh", "tanh", "asinh", "acosh", "atanh",
    ];
    for &x in &specials {
        for name in unary_names {
            let got = call(&format!("__cl_{name}_float"), &[f(x)]);
            let want = call1(&format!("__cl_{name}_double"), f64::from(x));
            check(format!("{name}({x:e})"), got, want);
        }
        for &y in &specials {
            for name in ["pow", "powr", "hypot"] {
                let got = call(&format!("__cl_{name}_float_float"), &[f(x), f(y)]);
                let want = call2(
                    &format!("__cl_{name}_double_double"),
                    f64::from(x),
                    f64::from(y),
                );
                check(format!("{name}({x:e}, {y:e})"), got, want);
            }
        }
        for k in ints {
            for name in ["pown", "rootn"] {
                let got = call(&format!("__cl_{name}_float_int"), &[f(x), Val::i32(k)]);
                let want = calln(&format!("__cl_{name}_double_int"), f64::from(x), k);
                check(format!("{name}({x:e}, {k})"), got, want);
            }
        }
    }
    println!("{checked} prescribed or exact float results checked");
    assert!(checked > 1000);
}
