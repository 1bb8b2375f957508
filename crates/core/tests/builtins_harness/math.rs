//! The machinery of the math accuracy tests (`builtins_math` for float, `builtins_math_double`
//! for double): the case table, the sweep's inputs, the kernel per case and vector width, the
//! lane-by-lane check against the reference with the largest error printed, and the results
//! written through pointers to every address space. (The special values 7.5.1 prescribes are
//! kernel files: `tests/kernels/math/prescribed*.cl`.)

use std::fmt::LowerExp;

use super::{bytes, values, Rng, Runner};

/// The floating-point type under test: `float` or `double`.
pub trait Scalar: Copy + Default + LowerExp + PartialEq + 'static {
    /// Its OpenCL C name.
    const NAME: &'static str;
    /// Its size in bytes.
    const SIZE: usize;
    /// The smallest normal value.
    const MIN_POSITIVE: f64;
    /// The smallest denormal.
    const TINY: Self;
    /// A value of the type (exact for every value the tests give).
    fn of(v: f64) -> Self;
    /// The bits, widened.
    fn bits(self) -> u64;
    /// The value as a double (exact).
    fn wide(self) -> f64;
    /// The error of `self` against the reference `want`, in ulps of the type.
    fn ulp_error(self, want: f64) -> f64;
    /// The next value of the type toward +inf, and toward -inf.
    fn next_up(self) -> Self;
    fn next_down(self) -> Self;
}

impl Scalar for f32 {
    const NAME: &'static str = "float";
    const SIZE: usize = 4;
    const MIN_POSITIVE: f64 = f32::MIN_POSITIVE as f64;
    const TINY: f32 = f32::from_bits(1);
    fn of(v: f64) -> f32 {
        v as f32
    }
    fn bits(self) -> u64 {
        u64::from(self.to_bits())
    }
    fn wide(self) -> f64 {
        f64::from(self)
    }
    fn ulp_error(self, want: f64) -> f64 {
        super::ulp_error(self, want)
    }
    fn next_up(self) -> f32 {
        super::next_up(self)
    }
    fn next_down(self) -> f32 {
        super::next_down(self)
    }
}

impl Scalar for f64 {
    const NAME: &'static str = "double";
    const SIZE: usize = 8;
    const MIN_POSITIVE: f64 = f64::MIN_POSITIVE;
    const TINY: f64 = f64::from_bits(1);
    fn of(v: f64) -> f64 {
        v
    }
    fn bits(self) -> u64 {
        self.to_bits()
    }
    fn wide(self) -> f64 {
        self
    }
    fn ulp_error(self, want: f64) -> f64 {
        super::ulp_error_f64(self, want)
    }
    fn next_up(self) -> f64 {
        super::next_up_f64(self)
    }
    fn next_down(self) -> f64 {
        super::next_down_f64(self)
    }
}

/// What a builtin's inputs are.
#[derive(Clone, Copy, PartialEq)]
pub enum Args {
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
pub struct Want {
    pub value: f64,
    pub second: Option<f64>,
    /// Another acceptable value (mad: a fused or an unfused result).
    pub alt: Option<f64>,
}

pub fn want(value: f64) -> Want {
    Want {
        value,
        second: None,
        alt: None,
    }
}

pub struct Case<T> {
    pub label: &'static str,
    /// The expression, in terms of $a, $b, $c (gentype operands), $n (int gentype), t (the
    /// private variable a pointer argument points at), $f (the gentype's name) and $w (the
    /// vector width, empty for scalars).
    pub expr: &'static str,
    pub args: Args,
    /// The type t is made of: the type under test or "int".
    pub second: &'static str,
    /// Bound for the value, in ulps (f64::INFINITY: none, only prescribed values checked).
    pub bound: f64,
    /// The reference's own error bound, in ulps: a result is held to `bound - ref_ulps`.
    pub ref_ulps: f64,
    /// Bound for the second result (ulps; 0 for an exact one).
    pub second_bound: f64,
    /// half_ and native_ forms: denormal inputs and results are not checked (6.15.2.1:
    /// "Support for denormal values is optional for half_ functions"), and inputs are
    /// limited to `range` where the function declares one.
    pub relaxed: bool,
    pub range: f64,
    pub zeros_either: bool,
    /// Build options for the case's kernels.
    pub options: &'static str,
    pub reference: fn(T, T, T, i32) -> Want,
}

pub fn case<T: Scalar>(
    label: &'static str,
    expr: &'static str,
    args: Args,
    bound: f64,
    ref_ulps: f64,
    reference: fn(T, T, T, i32) -> Want,
) -> Case<T> {
    Case {
        label,
        expr,
        args,
        second: T::NAME,
        bound,
        ref_ulps,
        second_bound: 0.0,
        relaxed: false,
        range: f64::INFINITY,
        zeros_either: false,
        options: "",
        reference,
    }
}

pub fn relaxed<T>(mut c: Case<T>, range: impl Into<f64>) -> Case<T> {
    c.relaxed = true;
    c.range = range.into();
    c
}

/// fmax, fmin, maxmag, minmag of two zeros: either zero (C99 F.9.9.2 only recommends that
/// fmax(-0, +0) be +0).
pub fn zeros_either<T>(mut c: Case<T>) -> Case<T> {
    c.zeros_either = true;
    c
}

pub fn with_options<T>(mut c: Case<T>, options: &'static str) -> Case<T> {
    c.options = options;
    c
}

pub fn with_second<T>(mut c: Case<T>, ty: &'static str, bound: f64) -> Case<T> {
    c.second = ty;
    c.second_bound = bound;
    c
}

/// How a sweep picks its inputs and runs.
pub struct Sweep<T> {
    /// The values every sweep includes (pairs of them for two and three operands).
    pub special: Vec<T>,
    /// The int operands every special value is paired with.
    pub ints: Vec<i32>,
    /// Which pairs (i, j) of special values two- and three-operand functions take.
    pub pairs: fn(usize, usize) -> bool,
    /// How many random values follow.
    pub random: usize,
    /// The i-th random value.
    pub draw: fn(&mut Rng, usize) -> T,
    /// The third operand's random values are drawn as number `i + z_offset`.
    pub z_offset: usize,
    /// The columns are padded to a multiple of this.
    pub pad: usize,
    /// What fills an operand column the function does not take (float and int).
    pub unused: (T, i32),
    /// The vector widths run.
    pub widths: &'static [u32],
}

/// The inputs of one case: x, y, z and n columns, a multiple of `pad` long.
fn inputs<T: Scalar>(
    c: &Case<T>,
    sweep: &Sweep<T>,
    seed: u64,
) -> (Vec<T>, Vec<T>, Vec<T>, Vec<i32>) {
    let mut rng = Rng::new(seed);
    let sp = &sweep.special;
    let (mut x, mut y, mut z, mut n) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    match c.args {
        Args::X => x.extend(sp),
        Args::Xy | Args::Xyz => {
            for (i, &a) in sp.iter().enumerate() {
                for (j, &b) in sp.iter().enumerate() {
                    if (sweep.pairs)(i, j) {
                        x.push(a);
                        y.push(b);
                    }
                }
            }
        }
        Args::Xn => {
            for &a in sp {
                for &k in &sweep.ints {
                    x.push(a);
                    n.push(k);
                }
            }
        }
    }
    for i in 0..sweep.random {
        x.push((sweep.draw)(&mut rng, i));
        match c.args {
            Args::X => {}
            Args::Xy => y.push((sweep.draw)(&mut rng, i)),
            Args::Xyz => {
                y.push((sweep.draw)(&mut rng, i));
                z.push((sweep.draw)(&mut rng, i + sweep.z_offset));
            }
            Args::Xn => n.push(if i % 3 == 0 {
                rng.next() as i32
            } else {
                rng.below(81) as i32 - 40
            }),
        }
    }
    let len = x.len().div_ceil(sweep.pad) * sweep.pad;
    x.resize(len, T::of(1.0));
    for v in [&mut y, &mut z] {
        if v.is_empty() {
            v.resize(len, sweep.unused.0);
        }
        // Pair up the sampled special values with more special values once the cross
        // product is done, and fill the rest.
        v.resize(len, T::of(1.0));
    }
    if n.is_empty() {
        n.resize(len, sweep.unused.1);
    }
    n.resize(len, 1);
    (x, y, z, n)
}

/// `t`, or `tN` for a vector width N.
fn gentype(t: &str, width: u32) -> String {
    if width == 1 {
        t.to_string()
    } else {
        format!("{t}{width}")
    }
}

/// The kernel for one case and vector width: scalars through pointers, vectors through
/// vloadn/vstoren (so 3-wide vectors are packed like the others).
fn source<T: Scalar>(c: &Case<T>, width: u32) -> String {
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
    let w = if width == 1 {
        String::new()
    } else {
        width.to_string()
    };
    let expr = c
        .expr
        .replace("$a", &load("a"))
        .replace("$b", &load("b"))
        .replace("$c", &load("c"))
        .replace("$n", &load("n"))
        .replace("$f", &gentype(T::NAME, width))
        .replace("$w", &w);
    format!(
        "kernel void k(global {f}* o, global {s}* p, global const {f}* a, \
         global const {f}* b, global const {f}* c, global const int* n) {{\n\
         size_t i = get_global_id(0);\n {tt} t = 0;\n {}\n {}\n}}\n",
        store("o", &expr),
        store("p", "t"),
        f = T::NAME,
        s = c.second,
        tt = gentype(c.second, width),
    )
}

pub struct Outcome {
    pub max_err: f64,
    pub max_at: String,
    pub failures: Vec<String>,
}

fn check<T: Scalar>(c: &Case<T>, sweep: &Sweep<T>, runner: &Runner, seed: u64) -> Outcome {
    let (x, y, z, n) = inputs(c, sweep, seed);
    let len = x.len();
    let mut out = Outcome {
        max_err: 0.0,
        max_at: String::new(),
        failures: Vec::new(),
    };
    // What the result may be off by, once the reference's own error is allowed for.
    let allowed = c.bound - c.ref_ulps;
    for &width in sweep.widths {
        let program = runner.build(&source(c, width), c.options);
        let mut bufs = vec![
            vec![0u8; len * T::SIZE],
            vec![0u8; len * T::SIZE],
            bytes(&x),
            bytes(&y),
            bytes(&z),
            bytes(&n),
        ];
        runner.run(&program, "k", &mut bufs, len / width as usize);
        let got: Vec<T> = values(&bufs[0]);
        let second_f: Vec<T> = values(&bufs[1]);
        let second_i: Vec<i32> = values(&bufs[1]);
        for i in 0..len {
            let (a, b, cc, k) = (x[i], y[i], z[i], n[i]);
            if c.relaxed {
                let denormal = |v: T| v.wide() != 0.0 && v.wide().abs() < T::MIN_POSITIVE;
                let used_y = matches!(c.args, Args::Xy | Args::Xyz);
                if denormal(a) || (used_y && denormal(b)) || a.wide().abs() > c.range {
                    continue;
                }
            }
            let w = (c.reference)(a, b, cc, k);
            if c.relaxed && w.value != 0.0 && w.value.abs() < T::MIN_POSITIVE {
                continue;
            }
            let mut err = got[i].ulp_error(w.value);
            if c.zeros_either && a.wide() == 0.0 && b.wide() == 0.0 && got[i].wide() == 0.0 {
                err = 0.0;
            }
            if let Some(alt) = w.alt {
                err = err.min(got[i].ulp_error(alt));
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
                Some(s) => second_f[i].ulp_error(s),
            };
            let at = || {
                let args = match c.args {
                    Args::X => format!("{a:e} ({:#x})", a.bits()),
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
                    got[i].bits(),
                    w.value
                )
            };
            if err.is_finite() && err > out.max_err {
                out.max_err = err;
                out.max_at = at();
            }
            // Without a bound, only prescribed values (NaN, zeros, infinities) are checked.
            let fails = if c.bound.is_infinite() {
                err.is_infinite()
            } else {
                err > allowed
            };
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

/// Checks every case (case k with seed `seed + k`) and prints `line` of each outcome;
/// `BUILTINS_ONLY=<label>` checks one function. A function in `known_gaps` (label, why) must
/// fail its bound, the others must meet it.
pub fn sweep_cases<T: Scalar>(
    cases: &[Case<T>],
    sweep: &Sweep<T>,
    seed: u64,
    known_gaps: &[(&str, &str)],
    line: impl Fn(&Case<T>, &Outcome) -> String,
) {
    let runner = Runner::new();
    let mut problems = Vec::new();
    let only = std::env::var("BUILTINS_ONLY").ok();
    for (k, c) in cases.iter().enumerate() {
        if only.as_deref().is_some_and(|o| o != c.label) {
            continue;
        }
        let o = check(c, sweep, &runner, seed + k as u64);
        println!("{}", line(c, &o));
        let gap = known_gaps.iter().find(|g| g.0 == c.label);
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

/// The functions that write through a pointer (fract, modf, sincos, frexp, lgamma_r, remquo)
/// accept `global`, `local` and `private` pointers (6.15.2); through each, every vector width
/// stores the same results, lane by lane, as through a private variable, for operands `x`
/// (and `y` for remquo), a multiple of 48 long.
pub fn check_pointer_results<T: Scalar>(x: &[T], y: &[T]) {
    let fns: [(&str, &str, &str); 6] = [
        ("fract", T::NAME, "fract(X, P)"),
        ("modf", T::NAME, "modf(X, P)"),
        ("sincos", T::NAME, "sincos(X, P)"),
        ("frexp", "int", "frexp(X, P)"),
        ("lgamma_r", "int", "lgamma_r(X, P)"),
        ("remquo", "int", "remquo(X, Y, P)"),
    ];
    let runner = Runner::new();
    let n = x.len();
    let f = T::NAME;
    let mut source = String::new();
    for (name, second, expr) in fns {
        for w in [1u32, 3, 4, 16] {
            let (ft, st) = (gentype(f, w), gentype(second, w));
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
                "kernel void {name}_{w}(global {f}* o, global {st}* g, global {second}* gs, \
                 global {f}* ol, global {second}* ls, global {f}* op, global {second}* ps, \
                 global const {f}* a, global const {f}* b) {{\n\
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
    let size = T::SIZE;
    let mut wrong = Vec::new();
    for (name, second, _) in fns {
        for w in [1usize, 3, 4, 16] {
            // The global vector buffer: 3-wide vectors take 4 elements of room.
            let stride = if w == 3 { 4 } else { w };
            let mut bufs = vec![
                vec![0u8; n * size],
                vec![0u8; n / w * stride * size],
                vec![0u8; n * size],
                vec![0u8; n * size],
                vec![0u8; n * size],
                vec![0u8; n * size],
                vec![0u8; n * size],
                bytes(x),
                bytes(y),
            ];
            runner.run(&program, &format!("{name}_{w}"), &mut bufs, n / w);
            let same = |p: &[u8], q: &[u8]| {
                let (p, q): (Vec<T>, Vec<T>) = (values(p), values(q));
                p.iter().zip(&q).all(|(&u, &v)| {
                    u.bits() == v.bits() || (u.wide().is_nan() && v.wide().is_nan())
                })
            };
            // Second results of int type compare as bytes.
            let same2 = |p: &[u8], q: &[u8]| if second == "int" { p == q } else { same(p, q) };
            if !same(&bufs[0], &bufs[5]) || !same2(&bufs[2], &bufs[6]) {
                wrong.push(format!(
                    "{name} width {w}: through global differs from private"
                ));
            }
            if !same(&bufs[3], &bufs[5]) || !same2(&bufs[4], &bufs[6]) {
                wrong.push(format!(
                    "{name} width {w}: through local differs from private"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

// --- References both precisions use, in double ------------------------------------------------

mod libm {
    use std::ffi::c_int;
    extern "C" {
        pub fn lgamma_r(x: f64, sign: *mut c_int) -> f64;
        pub fn remainder(x: f64, y: f64) -> f64;
    }
}

/// x - 2 round(x / 2), exact: the argument of a period-2 function reduced to [-1, 1].
pub fn reduce2(x: f64) -> f64 {
    x - 2.0 * (x / 2.0).round()
}

/// sin(pi x): 7.5.1's prescribed values, else `sin_pi(r)` of x reduced exactly to r in
/// (-1, 1) (r neither 0 nor ±1).
pub fn sinpi(x: f64, sin_pi: fn(f64) -> f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let r = reduce2(x);
    if r == 0.0 || r.abs() == 1.0 {
        // 7.5.1: sinpi(+n) = +0, sinpi(-n) = -0, sinpi(±0) = ±0.
        return 0.0f64.copysign(x);
    }
    sin_pi(r)
}

/// cos(pi x): 7.5.1's prescribed values, else `cos_pi(r)` of |x| reduced exactly to r in
/// [0, 1] (r not 1/2).
pub fn cospi(x: f64, cos_pi: fn(f64) -> f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let r = reduce2(x).abs();
    if r == 0.5 {
        // 7.5.1: cospi(n + 0.5) is +0.
        return 0.0;
    }
    cos_pi(r)
}

/// tan(pi x): 7.5.1's prescribed values, else `tan_pi(r)` of x less the nearest integer, r in
/// (-1/2, 1/2) (r not 0).
pub fn tanpi(x: f64, tan_pi: fn(f64) -> f64) -> f64 {
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
        let fodd = (x.floor() / 2.0).fract() != 0.0;
        return if fodd {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
    }
    tan_pi(r)
}

/// powr from 7.5.1's list; otherwise pow.
pub fn powr(x: f64, y: f64) -> f64 {
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
        // 7.5.1: powr(±0, y) is +0 for y > 0.
        return 0.0;
    }
    x.powf(y)
}

/// The n-th root where 7.5.1 prescribes it (n = 0, even roots of negatives, NaN, zeros) or it
/// is exact (infinities); None elsewhere.
pub fn rootn_prescribed(x: f64, n: i32) -> Option<f64> {
    if n == 0 || (x < 0.0 && n % 2 == 0) || x.is_nan() {
        return Some(f64::NAN);
    }
    if x == 0.0 {
        return Some(if n < 0 {
            if n % 2 != 0 {
                f64::INFINITY.copysign(x)
            } else {
                f64::INFINITY
            }
        } else {
            // 7.5.1: rootn(±0, n) is +0 for even n > 0, ±0 for odd n > 0.
            if n % 2 != 0 {
                x
            } else {
                0.0
            }
        });
    }
    if x.is_infinite() {
        return Some(if n < 0 { 0.0f64.copysign(x) } else { x });
    }
    None
}

/// The operand of larger magnitude; fmax of equal magnitudes.
pub fn maxmag(a: f64, b: f64) -> f64 {
    if a.abs() > b.abs() {
        a
    } else if b.abs() > a.abs() {
        b
    } else {
        a.max(b)
    }
}

/// The operand of smaller magnitude; fmin of equal magnitudes.
pub fn minmag(a: f64, b: f64) -> f64 {
    if a.abs() < b.abs() {
        a
    } else if b.abs() < a.abs() {
        b
    } else {
        a.min(b)
    }
}

/// The next value of the type after x toward y.
pub fn nextafter<T: Scalar>(x: T, y: T) -> f64 {
    let (a, b) = (x.wide(), y.wide());
    if a.is_nan() || b.is_nan() {
        return f64::NAN;
    }
    if a == b {
        return b;
    }
    if b > a {
        x.next_up().wide()
    } else {
        x.next_down().wide()
    }
}

/// lgamma and its sign, from the host's C library.
pub fn lgamma_r(x: f64) -> (f64, i32) {
    let mut s = 0;
    // SAFETY: a C library function writing one int.
    let r = unsafe { libm::lgamma_r(x, &mut s) };
    // 7.5.1: lgamma_r "returns 0 in signp if x is zero or a negative integer".
    if x == 0.0 || (x < 0.0 && x.fract() == 0.0) {
        s = 0;
    }
    (r, s)
}

/// remquo: the remainder (exact, the host's) and the quotient's low seven bits with its sign.
pub fn remquo(x: f64, y: f64) -> (f64, i32) {
    // 7.5.1: a NaN and 0 in quo for x infinite, y zero, or a NaN argument.
    if x.is_infinite() || y == 0.0 || x.is_nan() || y.is_nan() {
        return (f64::NAN, 0);
    }
    // SAFETY: a pure C library function (exact).
    let r = unsafe { libm::remainder(x, y) };
    // 6.15.2: quo holds the lower seven bits of the integral quotient, with the sign of x/y.
    // |x| reduced modulo 128 |y| (exact: fmod is) keeps the quotient's low seven bits; the
    // quotient of the reduced value then fits easily in a double.
    let (ax, ay) = (x.abs(), y.abs());
    let m = 128.0 * ay;
    let xm = if m.is_finite() { ax % m } else { ax };
    // SAFETY: as above.
    let rm = unsafe { libm::remainder(xm, ay) };
    // (xm - rm) / ay is the integral quotient; halved first where xm - rm would overflow
    // (remquo(DBL_MAX, 1e308): the quotient 2 rounds up past DBL_MAX).
    let q = if (xm - rm).is_finite() {
        (xm - rm) / ay
    } else {
        (xm * 0.5 - rm * 0.5) / ay * 2.0
    };
    let k = q.round() as i64 % 128;
    let k = k as i32;
    (r, if (x < 0.0) != (y < 0.0) { -k } else { k })
}

// --- Cases both precisions check the same way ---------------------------------------------

/// modf($a, &t): exact (7.5.2: *iptr = trunc(x); copysign(isinf(x) ? 0 : x - *iptr, x)).
pub fn modf_case<T: Scalar>() -> Case<T> {
    let c = case(
        "modf",
        "modf($a, &t)",
        Args::X,
        0.0,
        0.0,
        |a: T, _, _, _| {
            let x = a.wide();
            let t = x.trunc();
            Want {
                value: (if x.is_infinite() { 0.0 } else { x - t }).copysign(x),
                second: Some(t),
                alt: None,
            }
        },
    );
    with_second(c, T::NAME, 0.0)
}

/// sincos($a, &t): sin and cos within 4 ulps (table 65, table 68), the host's references
/// within `ref_ulps`.
pub fn sincos_case<T: Scalar>(ref_ulps: f64) -> Case<T> {
    let c = case(
        "sincos",
        "sincos($a, &t)",
        Args::X,
        4.0,
        ref_ulps,
        |a: T, _, _, _| Want {
            value: a.wide().sin(),
            second: Some(a.wide().cos()),
            alt: None,
        },
    );
    with_second(c, T::NAME, 4.0 - ref_ulps)
}

/// remquo($a, $b, &t): exact, and the quotient's low seven bits exact.
pub fn remquo_case<T: Scalar>() -> Case<T> {
    let c = case(
        "remquo",
        "remquo($a, $b, &t)",
        Args::Xy,
        0.0,
        0.0,
        |a: T, b: T, _, _| {
            let (r, q) = remquo(a.wide(), b.wide());
            Want {
                value: r,
                second: Some(f64::from(q)),
                alt: None,
            }
        },
    );
    with_second(c, "int", 0.0)
}

/// lgamma_r($a, &t): no bound on the value (7.4), only its prescribed values; the sign exact.
pub fn lgamma_r_case<T: Scalar>(ref_ulps: f64) -> Case<T> {
    let c = case(
        "lgamma_r",
        "lgamma_r($a, &t)",
        Args::X,
        f64::INFINITY,
        ref_ulps,
        |a: T, _, _, _| {
            let (r, s) = lgamma_r(a.wide());
            Want {
                value: r,
                second: Some(f64::from(s)),
                alt: None,
            }
        },
    );
    with_second(c, "int", 0.0)
}

/// fract($a, &t): correctly rounded to the type (`bound` ulps, with the reference's own
/// rounding), floor exact.
pub fn fract_case<T: Scalar>(bound: f64) -> Case<T> {
    let c = case(
        "fract",
        "fract($a, &t)",
        Args::X,
        bound,
        0.0,
        |a: T, _, _, _| {
            let x = a.wide();
            let fl = x.floor();
            Want {
                value: if x.is_nan() {
                    x
                } else if x.is_infinite() || x == 0.0 {
                    // 7.5.1: fract(±0) is ±0, fract(±inf) is ±0.
                    0.0f64.copysign(x)
                } else {
                    // 6.15.2: fmin(x - floor(x), the largest value below 1: 0x1.fffffep-1f for
                    // float, 0x1.fffffffffffffp-1 for double).
                    (x - fl).min(T::of(1.0).next_down().wide())
                },
                second: Some(fl),
                alt: None,
            }
        },
    );
    with_second(c, T::NAME, 0.0)
}

/// The int operands every special value is paired with: small ones, `own`, and the extremes.
pub fn sweep_ints(own: &[i32]) -> Vec<i32> {
    let mut v = vec![0, 1, -1, 2, -2, 3, -3, 4, 5, -7, 10];
    v.extend_from_slice(own);
    v.extend([i32::MAX, i32::MIN]);
    v
}
