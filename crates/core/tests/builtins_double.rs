//! `double` (cl_khr_fp64, the `__opencl_c_fp64` feature) on the CPU device, end to end: the
//! device's queries, arithmetic that 7.4 requires correctly
//! rounded (exact against the host's IEEE binary64), comparisons and the relational builtins
//! (vector results are `long` -1/0, 6.3.6 and 6.15.6), `select`/`bitselect` with long masks,
//! conversions from and to every scalar type in every rounding mode with and without `_sat`
//! (6.4.3, against conversions written here), `as_` reinterpretation, `vload`/`vstore` of
//! double, `vstore_half` of double rounded once (6.15.7), the common and geometric functions,
//! the sizes of kernel arguments by value, `printf` of doubles byte for byte (6.15.14), and
//! constant folding against run-time evaluation. Every vector width (2, 3, 4, 8, 16) is
//! exercised where the builtin takes vectors.
//!
//! These stay in Rust because each checks a seeded random sample or a sweep of special values
//! against a reference computed here (host IEEE arithmetic, conversions written here), or
//! compares two evaluations (folded and run time), or reads the process's standard output
//! (printf). The tests of fixed values are kernel files in `tests/kernels/double/`, run on
//! every platform present: the literals and macros with each build option, programs the spec
//! forbids, arguments by value, doubles in structs and every address space, and vector
//! expressions.

use crate::builtins_harness;

use std::sync::Arc;

use builtins_harness::types::{
    as_type_changes, gentype, half_value, load, store, variants, Mode, Ty, DOUBLE, SCALARS,
};
use builtins_harness::{
    bytes, next_down_f64 as next_down, next_up_f64 as next_up, pow2, ulp_f64 as ulp, values, Rng,
    Runner,
};
use ferrocl_core::program::Program;
use ferrocl_core::{CommandQueue, Context, Kernel};
use ferrocl_ir::ArgKind;

const WIDTHS: [usize; 6] = [1, 2, 3, 4, 8, 16];

/// Doubles every sweep includes: zeros, infinities, NaNs (quiet, signalling, negative),
/// denormals, the extremes, values at and near small integers and halves, and values near the
/// limits of float and of every integer type.
fn special_f64() -> Vec<f64> {
    let mut v = vec![
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        -f64::NAN,
        f64::from_bits(0x7ff0_0000_0000_0001),
        f64::MAX,
        -f64::MAX,
        f64::MIN_POSITIVE,
        -f64::MIN_POSITIVE,
        f64::from_bits(1),
        f64::from_bits(0x8000_0000_0000_0001),
        f64::from_bits(0x000f_ffff_ffff_ffff),
        f64::EPSILON,
        1e-300,
        1e300,
        -1e300,
        0.1,
        1.0 / 3.0,
        f64::from(f32::MAX),
        f64::from(f32::MIN_POSITIVE),
        f64::from(f32::from_bits(1)),
        // Halfway between float's largest value and the next power of two, and around it.
        f64::from(f32::MAX) + 2f64.powi(103),
        // Halfway between float's smallest denormal and zero.
        2f64.powi(-150),
        // Just above 1 + half a float ulp: rounds up to nearest, not toward zero.
        1.0 + 2f64.powi(-24) + 2f64.powi(-50),
        1.0 + 2f64.powi(-24),
        1.0 + 3.0 * 2f64.powi(-24),
    ];
    for k in -8..=8 {
        let x = f64::from(k) * 0.5;
        v.extend([x, next_up(x), next_down(x)]);
    }
    for bits in [8, 16, 32, 64] {
        for e in [2f64.powi(bits - 1), 2f64.powi(bits)] {
            for x in [e, -e] {
                v.extend([x, next_up(x), next_down(x), x - 0.5, x + 0.5, x - 1.0]);
            }
        }
    }
    v
}

/// A random double: any bit pattern half of the time, else one of moderate exponent.
fn random_f64(rng: &mut Rng, lo: i32, hi: i32) -> f64 {
    if rng.next() & 1 == 0 {
        f64::from_bits(rng.next())
    } else {
        let e = lo + rng.below((hi - lo + 1) as u64) as i32;
        let m = 1.0 + (rng.next() >> 12) as f64 / (1u64 << 52) as f64;
        let v = m * pow2(e);
        if rng.next() & 1 == 0 {
            v
        } else {
            -v
        }
    }
}

/// The same double, NaN matching any NaN.
fn same(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
}

/// A context and queue for tests that set arguments by value.
fn queue() -> (Arc<Context>, Arc<CommandQueue>) {
    let runner = Runner::new();
    (runner.context().clone(), runner.queue().clone())
}

// --- The device and the front end -------------------------------------------------------------

#[test]
fn the_device_reports_double_support() {
    let info = &builtins_harness::platform().devices()[0].info;
    // API 3.0, Table 5: the minimum for a 2.0-or-newer device supporting doubles.
    let minimum = 1 << 5 | 1 << 2 | 1 << 1 | 1; // FMA | ROUND_TO_NEAREST | INF_NAN | DENORM
    assert_eq!(info.double_fp_config & minimum, minimum);
    // Table 5: the double vector widths are 0 only without double support.
    assert_ne!(info.preferred_vector_width[5], 0);
    assert_ne!(info.native_vector_width[5], 0);
    // Table 5: cl_khr_fp64 "when and only when the optional feature is supported"; 6.2.1: the
    // feature macro __opencl_c_fp64.
    assert!(info.extensions.iter().any(|e| e.name == "cl_khr_fp64"));
    assert!(info
        .opencl_c_features
        .iter()
        .any(|f| f.name == "__opencl_c_fp64"));
}

// --- Arithmetic and the exact builtins ----------------------------------------------------------

/// How a result is compared with the host's.
#[derive(Clone, Copy, PartialEq)]
enum Check {
    /// Bit for bit (any NaN for a NaN).
    Exact,
    /// Either zero for a zero result (fmin/fmax of zeros of both signs: C99 F.9.9.2 only
    /// recommends an order).
    ZerosEither,
    /// mad: the fused or the unfused result (6.15.2: "any value allowed" in 7.4, but both
    /// host forms are what an implementation computes).
    FusedOrNot,
    /// `fabs(a) * -b + c`: unfused (the reference) or contracted into one fused multiply-add
    /// (6.15.2.1: "#pragma OPENCL FP_CONTRACT ... The DEFAULT value is ON").
    Contracted,
    /// Unchecked when any input is a NaN (max/min: 6.15.4 undefined for NaN).
    NoNan,
}

struct Op {
    expr: &'static str,
    check: Check,
    reference: fn(f64, f64, f64) -> f64,
}

fn c_round(x: f64) -> f64 {
    // C99 round: halfway cases away from zero (Rust's f64::round).
    x.round()
}

fn fmin(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a < b {
        a
    } else {
        b
    }
}

fn fmax(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a > b {
        a
    } else {
        b
    }
}

fn ops() -> Vec<Op> {
    let op = |expr, check, reference| Op {
        expr,
        check,
        reference,
    };
    vec![
        op("a + b", Check::Exact, |a, b, _| a + b),
        op("a - b", Check::Exact, |a, b, _| a - b),
        op("a * b", Check::Exact, |a, b, _| a * b),
        // 7.4, Table 68: x / y and 1.0 / x are correctly rounded for double.
        op("a / b", Check::Exact, |a, b, _| a / b),
        op("1.0 / a", Check::Exact, |a, _, _| 1.0 / a),
        op("-a", Check::Exact, |a, _, _| -a),
        op("fma(a, b, c)", Check::Exact, |a, b, c| a.mul_add(b, c)),
        op("mad(a, b, c)", Check::FusedOrNot, |a, b, c| a.mul_add(b, c)),
        op("sqrt(a)", Check::Exact, |a, _, _| a.sqrt()),
        op("fabs(a)", Check::Exact, |a, _, _| a.abs()),
        op("copysign(a, b)", Check::Exact, |a, b, _| a.copysign(b)),
        op("fmin(a, b)", Check::ZerosEither, |a, b, _| fmin(a, b)),
        op("fmax(a, b)", Check::ZerosEither, |a, b, _| fmax(a, b)),
        op("fmin(a, 0.5)", Check::ZerosEither, |a, _, _| fmin(a, 0.5)),
        op("floor(a)", Check::Exact, |a, _, _| a.floor()),
        op("ceil(a)", Check::Exact, |a, _, _| a.ceil()),
        op("trunc(a)", Check::Exact, |a, _, _| a.trunc()),
        op("rint(a)", Check::Exact, |a, _, _| a.round_ties_even()),
        op("round(a)", Check::Exact, |a, _, _| c_round(a)),
        // 6.15.4: max returns y if x < y, otherwise x; min returns y if y < x, otherwise x.
        op(
            "max(a, b)",
            Check::NoNan,
            |a, b, _| if a < b { b } else { a },
        ),
        op(
            "min(a, b)",
            Check::NoNan,
            |a, b, _| if b < a { b } else { a },
        ),
        // 6.15.4: step returns 0.0 if x < edge, otherwise 1.0.
        op(
            "step(b, a)",
            Check::NoNan,
            |a, b, _| if a < b { 0.0 } else { 1.0 },
        ),
        // 6.15.4: sign: 1.0 if x > 0, -0.0 if x = -0.0, +0.0 if x = +0.0, -1.0 if x < 0,
        // 0.0 if x is a NaN.
        op("sign(a)", Check::Exact, |a, _, _| {
            if a.is_nan() {
                0.0
            } else if a > 0.0 {
                1.0
            } else if a < 0.0 {
                -1.0
            } else {
                a
            }
        }),
        // 6.15.4: clamp returns fmin(fmax(x, minval), maxval); the bounds here are ordered.
        op("clamp(a, -2.0, 3.5)", Check::ZerosEither, |a, _, _| {
            fmin(fmax(a, -2.0), 3.5)
        }),
        op("fabs(a) * -b + c", Check::Contracted, |a, b, c| {
            a.abs() * -b + c
        }),
        op(
            "a == b ? a : c",
            Check::Exact,
            |a, b, c| if a == b { a } else { c },
        ),
    ]
}

fn check(op: &Op, got: f64, a: f64, b: f64, c: f64) -> bool {
    let want = (op.reference)(a, b, c);
    match op.check {
        Check::Exact => same(got, want),
        Check::ZerosEither => same(got, want) || (got == 0.0 && want == 0.0),
        Check::FusedOrNot => same(got, want) || same(got, a * b + c),
        Check::Contracted => same(got, want) || same(got, a.abs().mul_add(-b, c)),
        Check::NoNan => a.is_nan() || b.is_nan() || c.is_nan() || same(got, want),
    }
}

/// The inputs of a sweep: special values against each other, then random triples.
fn triples(rng: &mut Rng, random: usize) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let special = special_f64();
    let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
    for (i, &x) in special.iter().enumerate() {
        for (j, &y) in special.iter().enumerate() {
            if (i + j) % 3 == 0 {
                a.push(x);
                b.push(y);
                c.push(special[(i * 7 + j) % special.len()]);
            }
        }
    }
    for _ in 0..random {
        a.push(random_f64(rng, -60, 60));
        b.push(random_f64(rng, -60, 60));
        c.push(random_f64(rng, -120, 120));
    }
    // Products near the denormal range and halfway cases of fma.
    for _ in 0..random / 4 {
        a.push(random_f64(rng, -540, -500));
        b.push(random_f64(rng, -540, -500));
        c.push(random_f64(rng, -1074, -1000));
    }
    // A multiple of 48 (every width's lanes, 3 included, divide it).
    while a.len() % 48 != 0 {
        a.push(1.5);
        b.push(-0.25);
        c.push(2.0);
    }
    (a, b, c)
}

#[test]
fn arithmetic_is_correctly_rounded_at_every_width() {
    let r = Runner::new();
    let mut rng = Rng::new(0xd0_0b1e);
    let (a, b, c) = triples(&mut rng, 3000);
    let ops = ops();
    let n = a.len();
    let mut wrong = Vec::new();
    let mut checked = 0usize;
    let mut source = String::new();
    for w in WIDTHS {
        let t = gentype("double", w);
        let body: String = ops
            .iter()
            .enumerate()
            .map(|(k, op)| {
                store(
                    w,
                    &format!("({t})({})", op.expr),
                    &format!("{k} * (n / {w}) + i"),
                    "o",
                ) + "\n"
            })
            .collect();
        source += &format!(
            "kernel void k{w}(global double *o, global const double *pa, global const double *pb, \
             global const double *pc) {{\n\
             size_t i = get_global_id(0), n = get_global_size(0) * {w};\n\
             {t} a = {}, b = {}, c = {};\n{body}}}\n",
            load(w, "i", "pa"),
            load(w, "i", "pb"),
            load(w, "i", "pc"),
        );
    }
    let p = r.build(&source, "");
    for w in WIDTHS {
        let mut bufs = vec![
            vec![0u8; 8 * n * ops.len()],
            bytes(&a),
            bytes(&b),
            bytes(&c),
        ];
        r.run(&p, &format!("k{w}"), &mut bufs, n / w);
        let got: Vec<f64> = values(&bufs[0]);
        for (k, op) in ops.iter().enumerate() {
            for i in 0..n {
                checked += 1;
                let g = got[k * n + i];
                if !check(op, g, a[i], b[i], c[i]) && wrong.len() < 30 {
                    wrong.push(format!(
                        "width {w}: {} with a={:e} b={:e} c={:e}: got {g:e} ({:#x}), want {:e}",
                        op.expr,
                        a[i],
                        b[i],
                        c[i],
                        g.to_bits(),
                        (op.reference)(a[i], b[i], c[i])
                    ));
                }
            }
        }
    }
    println!("{checked} results checked");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

// --- Comparisons, relational builtins, select -------------------------------------------------

/// A comparison's expression and its reference.
type Predicate = (&'static str, fn(f64, f64) -> bool);

/// The expressions whose results are truth values.
fn predicates() -> Vec<Predicate> {
    vec![
        ("a == b", |a, b| a == b),
        ("a != b", |a, b| a != b),
        ("a < b", |a, b| a < b),
        ("a <= b", |a, b| a <= b),
        ("a > b", |a, b| a > b),
        ("a >= b", |a, b| a >= b),
        ("!a", |a, _| a == 0.0),
        ("a && b", |a, b| a != 0.0 && b != 0.0),
        ("a || b", |a, b| a != 0.0 || b != 0.0),
        ("isequal(a, b)", |a, b| a == b),
        ("isnotequal(a, b)", |a, b| a != b),
        ("isgreater(a, b)", |a, b| a > b),
        ("isgreaterequal(a, b)", |a, b| a >= b),
        ("isless(a, b)", |a, b| a < b),
        ("islessequal(a, b)", |a, b| a <= b),
        // Ordered and unequal: false for NaNs, unlike a != b.
        ("islessgreater(a, b)", |a, b| {
            a.partial_cmp(&b).is_some_and(|o| o.is_ne())
        }),
        ("isordered(a, b)", |a, b| !a.is_nan() && !b.is_nan()),
        ("isunordered(a, b)", |a, b| a.is_nan() || b.is_nan()),
        ("isfinite(a)", |a, _| a.is_finite()),
        ("isinf(a)", |a, _| a.is_infinite()),
        ("isnan(a)", |a, _| a.is_nan()),
        ("isnormal(a)", |a, _| a.is_normal()),
        ("signbit(a)", |a, _| a.is_sign_negative()),
    ]
}

#[test]
fn comparisons_and_relational_builtins() {
    let r = Runner::new();
    let mut rng = Rng::new(0x4e1);
    let (a, b, _) = triples(&mut rng, 500);
    let n = a.len();
    let preds = predicates();
    let mut source = String::new();
    for w in WIDTHS {
        let t = gentype("double", w);
        // 6.3.6, 6.15.6: scalar results are int 1/0, vector results long -1/0.
        let rt = gentype(if w == 1 { "int" } else { "long" }, w);
        let body: String = preds
            .iter()
            .enumerate()
            .map(|(k, (e, _))| {
                store(
                    w,
                    &format!(
                        "convert_long{}(({rt})({e}))",
                        if w == 1 { String::new() } else { w.to_string() }
                    ),
                    &format!("{k} * (n / {w}) + i"),
                    "o",
                ) + "\n"
            })
            .collect();
        source += &format!(
            "kernel void k{w}(global long *o, global const double *pa, global const double *pb) {{\n\
             size_t i = get_global_id(0), n = get_global_size(0) * {w};\n\
             {t} a = {}, b = {};\n{body}}}\n",
            load(w, "i", "pa"),
            load(w, "i", "pb"),
        );
    }
    let p = r.build(&source, "");
    let mut wrong = Vec::new();
    for w in WIDTHS {
        let mut bufs = vec![vec![0u8; 8 * n * preds.len()], bytes(&a), bytes(&b)];
        r.run(&p, &format!("k{w}"), &mut bufs, n / w);
        let got: Vec<i64> = values(&bufs[0]);
        let truth = if w == 1 { 1 } else { -1 };
        for (k, (e, f)) in preds.iter().enumerate() {
            for i in 0..n {
                let want = if f(a[i], b[i]) { truth } else { 0 };
                let g = got[k * n + i];
                if g != want && wrong.len() < 30 {
                    wrong.push(format!(
                        "width {w}: {e} with a={:e} b={:e}: got {g}, want {want}",
                        a[i], b[i]
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn select_and_bitselect_with_long_masks() {
    let r = Runner::new();
    let mut rng = Rng::new(0x5e1);
    let n = 480;
    let a: Vec<f64> = (0..n).map(|_| random_f64(&mut rng, -10, 10)).collect();
    let b: Vec<f64> = (0..n).map(|_| random_f64(&mut rng, -10, 10)).collect();
    let m: Vec<i64> = (0..n)
        .map(|i| match i % 4 {
            0 => rng.next() as i64,
            1 => -1,
            2 => 0,
            _ => i64::MIN,
        })
        .collect();
    let mut source = String::new();
    for w in WIDTHS {
        let t = gentype("double", w);
        let lt = gentype("long", w);
        let ut = gentype("ulong", w);
        source +=
            &format!(
            "kernel void k{w}(global double *o, global const double *pa, global const double *pb, \
             global const long *pm) {{\n\
             size_t i = get_global_id(0), n = get_global_size(0) * {w};\n\
             {t} a = {}, b = {}; {lt} m = {};\n\
             {}\n{}\n{}\n}}\n",
            load(w, "i", "pa"),
            load(w, "i", "pb"),
            load(w, "i", "pm"),
            store(w, "select(a, b, m)", "i", "o"),
            store(w, &format!("select(a, b, as_{ut}(m))"), &format!("n / {w} + i"), "o"),
            store(w, &format!("bitselect(a, b, as_{t}(m))"), &format!("2 * (n / {w}) + i"), "o"),
        );
    }
    let p = r.build(&source, "");
    for w in WIDTHS {
        let mut bufs = vec![vec![0u8; 8 * n * 3], bytes(&a), bytes(&b), bytes(&m)];
        r.run(&p, &format!("k{w}"), &mut bufs, n / w);
        let got: Vec<u64> = values(&bufs[0]);
        for i in 0..n {
            // 6.15.6: select on vectors takes b where the most significant bit of c is set;
            // on scalars, where c is not zero. bitselect takes each bit from b where the bit
            // of c is set.
            let pick_b = if w == 1 { m[i] != 0 } else { m[i] < 0 };
            let sel = if pick_b { b[i] } else { a[i] };
            let mask = m[i] as u64;
            let bits = (a[i].to_bits() & !mask) | (b[i].to_bits() & mask);
            assert_eq!(got[i], sel.to_bits(), "width {w}: select, lane {i}");
            assert_eq!(
                got[n + i],
                sel.to_bits(),
                "width {w}: select (ulong), lane {i}"
            );
            assert_eq!(got[2 * n + i], bits, "width {w}: bitselect, lane {i}");
        }
    }
}

// --- Conversions ------------------------------------------------------------------------------

const TYPES: [Ty; 10] = SCALARS;

/// A value of some type: an integer, or a float or double (held as a double).
#[derive(Clone, Copy, Debug)]
enum Val {
    I(i128),
    F(f64),
}

fn encode(t: Ty, vals: &[Val]) -> Vec<u8> {
    let mut out = Vec::with_capacity(vals.len() * t.bytes());
    for v in vals {
        match *v {
            Val::I(i) => out.extend_from_slice(&i.to_le_bytes()[..t.bytes()]),
            Val::F(f) if t.bits == 32 => out.extend_from_slice(&(f as f32).to_le_bytes()),
            Val::F(f) => out.extend_from_slice(&f.to_le_bytes()),
        }
    }
    out
}

fn decode(t: Ty, b: &[u8]) -> Vec<Val> {
    b.chunks_exact(t.bytes())
        .map(|c| match (t.float, t.bits) {
            (true, 32) => Val::F(f64::from(f32::from_le_bytes(c.try_into().unwrap()))),
            (true, _) => Val::F(f64::from_le_bytes(c.try_into().unwrap())),
            _ => {
                let mut w = [0u8; 16];
                w[..c.len()].copy_from_slice(c);
                Val::I(t.wrap(i128::from_le_bytes(w)))
            }
        })
        .collect()
}

/// Whether a value that rounded to nearest must move down (`Some(true)`), up, or stay, for
/// `mode`, given whether the nearest is above the exact value (and the exact value's sign).
fn direction(mode: Mode, above: bool, below: bool, negative: bool) -> Option<bool> {
    match mode {
        Mode::Default | Mode::Rte => None,
        Mode::Rtn => above.then_some(true),
        Mode::Rtp => below.then_some(false),
        Mode::Rtz if !negative => above.then_some(true),
        Mode::Rtz => below.then_some(false),
    }
}

/// A double rounded to float in `mode` (6.4.3.2): the host's round-to-nearest, moved one
/// float toward the mode's direction when it went the wrong way.
fn double_to_float(x: f64, mode: Mode) -> f64 {
    let f = x as f32;
    if x.is_nan() {
        return f64::NAN;
    }
    let back = f64::from(f);
    let step = |f: f32, down: bool| {
        let bits = f.to_bits();
        // One float toward -inf (down) or +inf, from any float but NaN.
        let g = if f == 0.0 {
            if down {
                -f32::from_bits(1)
            } else {
                f32::from_bits(1)
            }
        } else if (f > 0.0) == down {
            f32::from_bits(bits - 1)
        } else {
            f32::from_bits(bits + 1)
        };
        f64::from(g)
    };
    match direction(mode, back > x, back < x, x < 0.0) {
        None => back,
        Some(down) => step(f, down),
    }
}

/// An integer rounded to float or double in `mode`.
fn int_to_float(v: i128, mode: Mode, to: Ty) -> f64 {
    let f = if to.bits == 32 {
        f64::from(v as f32)
    } else {
        v as f64
    };
    let exact = |f: f64| f as i128;
    let above = f.is_finite() && exact(f) > v;
    let below = f.is_finite() && exact(f) < v;
    match direction(mode, above, below, v < 0) {
        None => f,
        Some(down) if to.bits == 32 => {
            let g = f as f32;
            f64::from(if down {
                f32::from_bits(if g > 0.0 {
                    g.to_bits() - 1
                } else {
                    g.to_bits() + 1
                })
            } else if g >= 0.0 {
                f32::from_bits(g.to_bits() + 1)
            } else {
                f32::from_bits(g.to_bits() - 1)
            })
        }
        Some(true) => next_down(f),
        Some(false) => next_up(f),
    }
}

/// The conversion of `v` to `dst`, or None where the spec leaves it undefined.
fn convert(v: Val, dst: Ty, sat: bool, mode: Mode) -> Option<Val> {
    match (v, dst.float) {
        (Val::I(i), false) => Some(Val::I(dst.convert_int(i, sat))),
        (Val::I(i), true) => Some(Val::F(int_to_float(i, mode, dst))),
        (Val::F(f), true) if dst.bits == 32 => Some(Val::F(double_to_float(f, mode))),
        (Val::F(f), true) => Some(Val::F(f)),
        (Val::F(x), false) => dst.convert_float(x, sat, mode).map(Val::I),
    }
}

fn same_val(a: Val, b: Val) -> bool {
    match (a, b) {
        (Val::I(x), Val::I(y)) => x == y,
        (Val::F(x), Val::F(y)) => same(x, y),
        _ => false,
    }
}

/// The source values of one type (a multiple of 16 long).
fn sources(t: Ty, rng: &mut Rng) -> Vec<Val> {
    let mut v: Vec<Val> = Vec::new();
    if t.float {
        let mut f = special_f64();
        for k in -10..=10 {
            let h = f64::from(k) + 0.5;
            f.extend([h, next_up(h), next_down(h)]);
        }
        for i in 0..4000 {
            f.push(match i % 4 {
                0 => f64::from_bits(rng.next()),
                1 => random_f64(rng, -3, 66),
                2 => random_f64(rng, -160, 130),
                // Doubles that are exactly halfway between two floats, and next to it.
                _ => {
                    let g = f64::from(f32::from_bits(rng.next() as u32 & 0x7f7f_ffff));
                    let mid = g + (next_up_f32(g) - g) / 2.0;
                    [mid, next_up(mid), next_down(mid)][rng.below(3) as usize]
                }
            });
        }
        if t.bits == 32 {
            f.retain(|x| x.is_nan() || f64::from(*x as f32) == *x);
        }
        v.extend(f.into_iter().map(Val::F));
    } else if t.bits <= 16 {
        v.extend((t.min()..=t.max()).map(Val::I));
    } else {
        for k in 0..=t.bits as i32 {
            let p = 1i128 << k;
            for d in [-1, 0, 1] {
                v.extend([Val::I(t.wrap(p + d)), Val::I(t.wrap(-p + d))]);
            }
        }
        // Integers just past 2^53, where double rounds: halfway cases and their neighbours.
        for k in 53..t.bits.min(64) {
            let base = 1i128 << k;
            let half = 1i128 << (k - 53);
            for d in [half - 1, half, half + 1, 3 * half, base >> 1] {
                v.extend([Val::I(t.wrap(base + d)), Val::I(t.wrap(-(base + d)))]);
            }
        }
        for _ in 0..4000 {
            let r = rng.next() as i128;
            let shift = rng.below(u64::from(t.bits)) as u32;
            v.push(Val::I(t.wrap(r >> shift)));
        }
    }
    while v.len() % 16 != 0 {
        v.push(v[0]);
    }
    v
}

fn next_up_f32(x: f64) -> f64 {
    let f = x as f32;
    f64::from(if f >= 0.0 {
        f32::from_bits(f.to_bits() + 1)
    } else {
        f32::from_bits(f.to_bits() - 1)
    })
}

/// Every conversion of double to every scalar type and of every scalar type to double, each
/// rounding mode and `_sat`, scalar and at widths 2, 3, 4, 8 and 16.
#[test]
fn conversions_from_and_to_double_in_every_mode() {
    let runner = Runner::new();
    let mut rng = Rng::new(0xc0_4e64);
    let mut wrong = Vec::new();
    let mut checked = 0usize;
    let pairs: Vec<(Ty, Ty)> = TYPES
        .iter()
        .map(|&t| (DOUBLE, t))
        .chain(TYPES.iter().filter(|t| **t != DOUBLE).map(|&t| (t, DOUBLE)))
        .collect();
    for (src, dst) in pairs {
        let vals = sources(src, &mut rng);
        let n = vals.len();
        let vs = variants(dst);
        let mut source = String::new();
        for w in WIDTHS {
            let body: String = vs
                .iter()
                .enumerate()
                .map(|(k, (_, _, s))| {
                    let v = format!("convert_{}{s}(x)", gentype(dst.name, w));
                    store(w, &v, &format!("{k} * (n / {w}) + i"), "o") + "\n"
                })
                .collect();
            source += &format!(
                "kernel void k{w}(global {d} *o, global const {s} *a) {{\n\
                 size_t i = get_global_id(0), n = get_global_size(0) * {w};\n\
                 {st} x = {};\n{body}}}\n",
                load(w, "i", "a"),
                d = dst.name,
                s = src.name,
                st = gentype(src.name, w),
            );
        }
        let program = runner.build(&source, "");
        for w in WIDTHS {
            // Width 3 needs a multiple of 3 lanes: the leftover lanes stay unchecked.
            let groups = n / w;
            let used = groups * w;
            let mut bufs = vec![vec![0u8; n * vs.len() * dst.bytes()], encode(src, &vals)];
            runner.run(&program, &format!("k{w}"), &mut bufs, groups);
            let got = decode(dst, &bufs[0]);
            for (k, (sat, mode, suffix)) in vs.iter().enumerate() {
                for (i, &v) in vals.iter().enumerate().take(used) {
                    let Some(want) = convert(v, dst, *sat, *mode) else {
                        continue;
                    };
                    checked += 1;
                    let g = got[k * used + i];
                    if !same_val(g, want) && wrong.len() < 40 {
                        wrong.push(format!(
                            "convert_{}{suffix}(({}) {v:?}) = {g:?}, want {want:?}",
                            gentype(dst.name, w),
                            gentype(src.name, w),
                        ));
                    }
                }
            }
        }
    }
    println!("{checked} conversions checked");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// 6.4.4: as_<type> reinterprets the bytes unchanged, NaN payloads included.
#[test]
fn as_type_keeps_the_bits_of_doubles() {
    let groups: [&[&str]; 3] = [
        &[
            "double", "long", "ulong", "int2", "float2", "short4", "uchar8",
        ],
        &["double2", "long2", "float4", "int4", "char16"],
        &["double4", "long4", "ulong4", "float8", "int8", "short16"],
    ];
    let runner = Runner::new();
    let mut rng = Rng::new(0xa5a5);
    let mut wrong = Vec::new();
    for (g, group) in groups.iter().enumerate() {
        let size = 8usize << g;
        let n = 128;
        // Every 8-byte word a NaN with a payload half of the time.
        let words: Vec<u64> = (0..n * size / 8)
            .map(|i| {
                let r = rng.next();
                if i % 2 == 0 {
                    r | 0x7ff0_0000_0000_0001
                } else {
                    r
                }
            })
            .collect();
        let input = bytes(&words);
        let doubles = |from: &str, to: &str| from.starts_with("double") || to.starts_with("double");
        wrong.extend(as_type_changes(&runner, group, doubles, &input, n));
    }
    assert!(wrong.is_empty(), "as_<type> changed bits: {wrong:?}");
}

// --- Loads and stores -------------------------------------------------------------------------

#[test]
fn vload_and_vstore_of_double() {
    let r = Runner::new();
    let mut rng = Rng::new(0x10ad);
    let total = 16 * 48 + 16;
    let input: Vec<f64> = (0..total).map(|_| random_f64(&mut rng, -30, 30)).collect();
    let mut source = String::new();
    for w in [2usize, 3, 4, 8, 16] {
        // vloadN(i, p) reads p + i * N, from an unaligned base (p + 1) too; the same for stores.
        source += &format!(
            "kernel void k{w}(global double *o, global const double *a) {{\n\
             size_t i = get_global_id(0);\n\
             double{w} v = vload{w}(i, a + 1);\n\
             vstore{w}(v * 2.0, i, o + 1);\n}}\n"
        );
    }
    let p = r.build(&source, "");
    for w in [2usize, 3, 4, 8, 16] {
        let groups = 48;
        let mut bufs = vec![vec![0u8; 8 * total], bytes(&input)];
        r.run(&p, &format!("k{w}"), &mut bufs, groups);
        let got: Vec<f64> = values(&bufs[0]);
        for i in 0..total {
            let want = if i >= 1 && i <= groups * w {
                input[i] * 2.0
            } else {
                0.0
            };
            assert_eq!(got[i].to_bits(), want.to_bits(), "width {w}, element {i}");
        }
    }
}

/// The bits of a finite half value (exactly representable).
fn half_bits(v: f64) -> u16 {
    let sign = if v.is_sign_negative() { 0x8000 } else { 0 };
    let a = v.abs();
    if a < 2f64.powi(-14) {
        return sign | (a * 2f64.powi(24)) as u16;
    }
    let e = (a.to_bits() >> 52) as i32 - 1023;
    let m = (a / 2f64.powi(e - 10)) as u16 - 1024;
    sign | (((e + 15) as u16) << 10) | m
}

/// A double rounded once to half in `mode` (6.15.7: "Conversions from double to half are
/// correctly rounded"), written from the definition: the magnitude's quantum at its binade
/// (2^-24 in the denormal range), the truncated multiple, then the mode's adjustment.
fn double_to_half(x: f64, mode: Mode) -> u16 {
    if x.is_nan() {
        return 0x7e00;
    }
    let negative = x.is_sign_negative();
    let sign = if negative { 0x8000 } else { 0 };
    let a = x.abs();
    // Toward larger magnitude: rtp for positives, rtn for negatives.
    let away = matches!((mode, negative), (Mode::Rtp, false) | (Mode::Rtn, true));
    let toward_zero = matches!(
        (mode, negative),
        (Mode::Rtz, _) | (Mode::Rtp, true) | (Mode::Rtn, false)
    );
    if a.is_infinite() {
        return sign | 0x7c00;
    }
    let e = if a == 0.0 {
        -14
    } else {
        ((a.to_bits() >> 52) as i32 - 1023).max(-14)
    };
    let q = 2f64.powi(e - 10);
    let m = a / q;
    let mut k = m.floor();
    let frac = m - k;
    if frac > 0.0 {
        let up = if away {
            true
        } else if toward_zero {
            false
        } else {
            frac > 0.5 || (frac == 0.5 && k % 2.0 == 1.0)
        };
        if up {
            k += 1.0;
        }
    }
    let v = k * q;
    if v > 65504.0 {
        return if toward_zero {
            sign | 0x7bff
        } else {
            sign | 0x7c00
        };
    }
    sign | half_bits(v)
}

#[test]
fn vstore_half_of_double_rounds_once_and_vload_half_widens() {
    let r = Runner::new();
    let source = r#"
kernel void narrow(global const double *in, global half *rte, global half *rtz,
                   global half *rtp, global half *rtn, global half *dflt) {
    size_t i = get_global_id(0);
    double x = in[i];
    vstore_half_rte(x, i, rte);
    vstore_half_rtz(x, i, rtz);
    vstore_half_rtp(x, i, rtp);
    vstore_half_rtn(x, i, rtn);
    vstore_half(x, i, dflt);
}
kernel void narrow4(global const double *in, global half *rtz, global half *rtn,
                    global half *a_rtp) {
    size_t i = get_global_id(0);
    double4 x = vload4(i, in);
    vstore_half4_rtz(x, i, rtz);
    vstore_half4_rtn(x, i, rtn);
    vstorea_half4_rtp(x, i, a_rtp);
}
kernel void widen(global const half *in, global double *out, global double *out4) {
    size_t i = get_global_id(0);
    double d = vload_half(i, in);
    out[i] = d;
    if (i % 4 == 0) {
        double4 v = convert_double4(vload_half4(i / 4, in));
        vstore4(v, i / 4, out4);
    }
}
"#;
    let p = r.build(source, "");
    let mut rng = Rng::new(0x4a1f);
    let mut xs: Vec<f64> = special_f64();
    // Halfway cases between halves, and doubles a float rounding would push onto them (double
    // rounding through float is wrong: 1 + 2^-11 + 2^-40 rounds up, via float to a tie).
    for _ in 0..3000 {
        let h = half_value(rng.next() as u16 & 0x7bff);
        let next = half_value(half_bits(h) + 1);
        let mid = (h + next) / 2.0;
        let tiny = (next - h) * 2f64.powi(-30);
        let pick = [mid, mid + tiny, mid - tiny, next_up(mid), next_down(mid)];
        let x = pick[rng.below(5) as usize];
        xs.push(if rng.next() & 1 == 0 { x } else { -x });
        xs.push(random_f64(&mut rng, -26, 17));
    }
    xs.extend([
        1.0 + 2f64.powi(-11) + 2f64.powi(-40),
        65504.0,
        65519.0,
        65520.0,
        1e6,
        -1e6,
    ]);
    while xs.len() % 4 != 0 {
        xs.push(0.0);
    }
    let n = xs.len();
    let mut bufs = vec![
        bytes(&xs),
        vec![0u8; 2 * n],
        vec![0u8; 2 * n],
        vec![0u8; 2 * n],
        vec![0u8; 2 * n],
        vec![0u8; 2 * n],
    ];
    r.run(&p, "narrow", &mut bufs, n);
    let names = ["rte", "rtz", "rtp", "rtn", "default (rte)"];
    let modes = [Mode::Rte, Mode::Rtz, Mode::Rtp, Mode::Rtn, Mode::Rte];
    let mut wrong = Vec::new();
    for (j, mode) in modes.iter().enumerate() {
        let got: Vec<u16> = values(&bufs[j + 1]);
        for (i, &x) in xs.iter().enumerate() {
            let want = double_to_half(x, *mode);
            let g = got[i];
            let ok = if x.is_nan() {
                g & 0x7c00 == 0x7c00 && g & 0x3ff != 0
            } else {
                g == want
            };
            if !ok && wrong.len() < 30 {
                wrong.push(format!(
                    "vstore_half {}({x:e}) = {g:#06x}, want {want:#06x}",
                    names[j]
                ));
            }
        }
    }
    let mut bufs4 = vec![
        bytes(&xs),
        vec![0u8; 2 * n],
        vec![0u8; 2 * n],
        vec![0u8; 2 * n],
    ];
    r.run(&p, "narrow4", &mut bufs4, n / 4);
    for (j, mode) in [Mode::Rtz, Mode::Rtn, Mode::Rtp].iter().enumerate() {
        let got: Vec<u16> = values(&bufs4[j + 1]);
        for (i, &x) in xs.iter().enumerate() {
            // vstorea_halfn of 4 lanes is vstore_halfn at an aligned 4-lane offset.
            let want = double_to_half(x, *mode);
            if !x.is_nan() && got[i] != want && wrong.len() < 30 {
                wrong.push(format!(
                    "vstore_half4 {mode:?}({x:e}) = {:#06x}, want {want:#06x}",
                    got[i]
                ));
            }
        }
    }
    // The other widths, each in another mode; vstorea_half3 writes 4 halves per vector.
    let widths = [
        (2usize, Mode::Rtn, "_rtn"),
        (3, Mode::Rtp, "_rtp"),
        (8, Mode::Rte, ""),
        (16, Mode::Rtz, "_rtz"),
    ];
    let mut source = String::new();
    for (w, _, suffix) in widths {
        source += &format!(
            "kernel void n{w}(global const double *in, global half *out, global half *aligned) {{\n\
             size_t i = get_global_id(0);\n\
             double{w} x = vload{w}(i, in);\n\
             vstore_half{w}{suffix}(x, i, out);\n\
             vstorea_half{w}{suffix}(x, i, aligned);\n}}\n"
        );
    }
    let pw = r.build(&source, "");
    for (w, mode, suffix) in widths {
        let groups = n / 48 * 48 / w;
        let stride = if w == 3 { 4 } else { w };
        let mut bufs = vec![bytes(&xs), vec![0u8; 2 * n], vec![0u8; 2 * groups * stride]];
        r.run(&pw, &format!("n{w}"), &mut bufs, groups);
        let (packed, aligned): (Vec<u16>, Vec<u16>) = (values(&bufs[1]), values(&bufs[2]));
        for g in 0..groups {
            for l in 0..w {
                let x = xs[g * w + l];
                let want = double_to_half(x, mode);
                let (a, b) = (packed[g * w + l], aligned[g * stride + l]);
                if !x.is_nan() && (a != want || b != want) && wrong.len() < 30 {
                    wrong.push(format!(
                        "vstore(a)_half{w}{suffix}({x:e}) = {a:#06x} / {b:#06x}, want {want:#06x}"
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));

    // Every half widens exactly to double.
    let all: Vec<u16> = (0..=u16::MAX).collect();
    let mut bufs = vec![
        bytes(&all),
        vec![0u8; 8 * all.len()],
        vec![0u8; 8 * all.len()],
    ];
    r.run(&p, "widen", &mut bufs, all.len());
    for buf in &bufs[1..] {
        let got: Vec<f64> = values(buf);
        for (&bits, &d) in all.iter().zip(&got) {
            let want = half_value(bits);
            assert!(
                same(d, want) && (want.is_nan() || d.to_bits() == want.to_bits()),
                "vload_half {bits:#06x}: {d:e}"
            );
        }
    }
}

// --- Common and geometric functions -------------------------------------------------------------

/// Sum of products of pairs, in double-double (Dekker's two-product by fma, Knuth's two-sum):
/// far more precise than the bounds below need.
fn dd_dot(a: &[f64], b: &[f64]) -> (f64, f64) {
    let (mut hi, mut lo) = (0.0f64, 0.0f64);
    for (&x, &y) in a.iter().zip(b) {
        let p = x * y;
        let pe = x.mul_add(y, -p);
        let s = hi + p;
        let bb = s - hi;
        let se = (hi - (s - bb)) + (p - bb);
        hi = s;
        lo += se + pe;
    }
    let s = hi + lo;
    (s, lo - (s - hi))
}

/// The Euclidean norm of `v`, to well under an ulp: scaled by a power of two so that its
/// largest component is near 1 (exact), summed in double-double, and scaled back.
fn norm(v: &[f64]) -> f64 {
    let max = v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    if max == 0.0 {
        return 0.0;
    }
    let e = (max.to_bits() >> 52) as i32 - 1023;
    let e = if e == -1023 {
        -1022 - (max.to_bits().leading_zeros() as i32 - 12)
    } else {
        e
    };
    // In two steps: 2^-e alone overflows for denormal e.
    let (s1, s2) = (-e / 2, -e - (-e / 2));
    let scaled: Vec<f64> = v.iter().map(|x| x * pow2(s1) * pow2(s2)).collect();
    dd_sqrt(dd_dot(&scaled, &scaled)) * pow2(-s1) * pow2(-s2)
}

/// sqrt of a double-double, to well under an ulp.
fn dd_sqrt((hi, lo): (f64, f64)) -> f64 {
    let r = hi.sqrt();
    if r == 0.0 || !r.is_finite() {
        return r;
    }
    let e = (-r).mul_add(r, hi) + lo;
    r + e / (2.0 * r)
}

#[test]
fn common_and_geometric_functions() {
    let r = Runner::new();
    let mut rng = Rng::new(0x9e0);
    let n = 96 * 16;
    let a: Vec<f64> = (0..n)
        .map(|_| random_f64(&mut rng, -20, 20).clamp(-1e9, 1e9))
        .collect();
    let a: Vec<f64> = a
        .into_iter()
        .map(|x| if x.is_finite() { x } else { 0.75 })
        .collect();
    let b: Vec<f64> = (0..n).map(|i| a[(i * 7 + 3) % n] * 0.5 + 1.0).collect();
    let t: Vec<f64> = (0..n).map(|i| (i % 17) as f64 / 16.0).collect();
    let mut source = String::new();
    for w in [1usize, 2, 3, 4] {
        let ty = gentype("double", w);
        let mut body = format!(
            "{ty} x = {}, y = {}, s = {};\n\
             {}\n{}\n{}\n{}\n{}\n\
             len[i] = length(x); dist[i] = distance(x, y); dp[i] = dot(x, y);\n\
             {}\n",
            load(w, "i", "pa"),
            load(w, "i", "pb"),
            load(w, "i", "pt"),
            store(w, "degrees(x)", "i", "deg"),
            store(w, "radians(x)", "i", "rad"),
            store(w, "mix(x, y, s)", "i", "mx"),
            store(
                w,
                &format!("smoothstep(({ty})(-1.0), ({ty})(1.0), s / 4.0)"),
                "i",
                "sm"
            ),
            store(w, "mix(x, y, 0.25)", "i", "mxs"),
            store(w, "normalize(x)", "i", "nrm"),
        );
        if w >= 3 {
            body += &store(w, "cross(x, y)", "i", "cr");
        }
        source += &format!(
            "kernel void k{w}(global const double *pa, global const double *pb, global const double *pt, \
             global double *deg, global double *rad, global double *mx, global double *sm, \
             global double *mxs, global double *nrm, global double *len, global double *dist, \
             global double *dp, global double *cr) {{\n\
             size_t i = get_global_id(0);\n{body}}}\n"
        );
    }
    let p = r.build(&source, "");
    let mut wrong = Vec::new();
    for w in [1usize, 2, 3, 4] {
        let groups = n / 4 / w * 4;
        let mut bufs = vec![bytes(&a), bytes(&b), bytes(&t)];
        bufs.extend((0..10).map(|_| vec![0u8; 8 * n]));
        r.run(&p, &format!("k{w}"), &mut bufs, groups);
        let out: Vec<Vec<f64>> = bufs[3..].iter().map(|b| values(b)).collect();
        let mut bad = |what: &str, i: usize, got: f64, want: f64, err: f64, bound: f64| {
            // A NaN error fails too.
            let within = err <= bound;
            if !within && wrong.len() < 30 {
                wrong.push(format!(
                    "width {w}, {what} at {i}: got {got:e}, want {want:e} ({err} > {bound})"
                ));
            }
        };
        for i in 0..groups * w {
            let deg = a[i] * (180.0 / std::f64::consts::PI);
            let rad = a[i] * (std::f64::consts::PI / 180.0);
            // 7.4, Table 68: degrees and radians within 2 ulp (the references' own rounding
            // adds at most one more).
            bad(
                "degrees",
                i,
                out[0][i],
                deg,
                (out[0][i] - deg).abs() / ulp(deg),
                3.0,
            );
            bad(
                "radians",
                i,
                out[1][i],
                rad,
                (out[1][i] - rad).abs() / ulp(rad),
                3.0,
            );
            // mix and smoothstep are implementation-defined in 7.4; they must still be the
            // functions 6.15.4 defines: x + (y - x) * a, and the Hermite interpolation.
            let mx = a[i] + (b[i] - a[i]) * t[i];
            let tol = 4.0 * (a[i].abs() + b[i].abs()) * f64::EPSILON;
            bad("mix", i, out[2][i], mx, (out[2][i] - mx).abs(), tol);
            let u = ((t[i] / 4.0 + 1.0) / 2.0).clamp(0.0, 1.0);
            let sm = u * u * (3.0 - 2.0 * u);
            bad(
                "smoothstep",
                i,
                out[3][i],
                sm,
                (out[3][i] - sm).abs(),
                8.0 * f64::EPSILON,
            );
            let mxs = a[i] + (b[i] - a[i]) * 0.25;
            bad(
                "mix (scalar a)",
                i,
                out[4][i],
                mxs,
                (out[4][i] - mxs).abs(),
                tol,
            );
        }
        for g in 0..groups {
            let x = &a[g * w..(g + 1) * w];
            let y = &b[g * w..(g + 1) * w];
            let nw = w as f64;
            let len = norm(x);
            // 7.4, Table 68: length <= 5.5 + n ulp, distance <= 5.5 + 2n ulp, normalize <=
            // 4.5 + n ulp, dot within max * max * (2n - 1) * FLT_EPSILON.
            bad(
                "length",
                g,
                out[6][g],
                len,
                (out[6][g] - len).abs() / ulp(len),
                5.5 + nw,
            );
            let d: Vec<f64> = x.iter().zip(y).map(|(p, q)| p - q).collect();
            let dist = norm(&d);
            bad(
                "distance",
                g,
                out[7][g],
                dist,
                (out[7][g] - dist).abs() / ulp(dist),
                5.5 + 2.0 * nw,
            );
            let dot = dd_dot(x, y).0;
            let max = x.iter().chain(y).fold(0.0f64, |m, v| m.max(v.abs()));
            let tol = max * max * (2.0 * nw - 1.0) * f64::from(f32::EPSILON);
            bad("dot", g, out[8][g], dot, (out[8][g] - dot).abs(), tol);
            for k in 0..w {
                let want = x[k] / len;
                let got = out[5][g * w + k];
                bad(
                    "normalize",
                    g,
                    got,
                    want,
                    (got - want).abs() / ulp(want),
                    4.5 + nw,
                );
            }
            if w >= 3 {
                let c = [
                    x[1] * y[2] - x[2] * y[1],
                    x[2] * y[0] - x[0] * y[2],
                    x[0] * y[1] - x[1] * y[0],
                ];
                let max = x[..3]
                    .iter()
                    .chain(&y[..3])
                    .fold(0.0f64, |m, v| m.max(v.abs()));
                for k in 0..w {
                    let want = if k < 3 { c[k] } else { 0.0 };
                    let got = out[9][g * w + k];
                    let tol = max * max * 3.0 * f64::from(f32::EPSILON);
                    bad("cross", g, got, want, (got - want).abs(), tol);
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

// --- Kernel arguments by value -------------------------------------------------------------------

/// 6.1.5 (a 3-component vector is sized and aligned as a 4-component one): the sizes the host
/// passes for double arguments by value. Their values reaching the kernel bit for bit is the
/// kernel file `tests/kernels/double/arguments_by_value.cl`.
#[test]
fn double_argument_sizes() {
    let (context, _) = queue();
    let source = "kernel void k(double a, double4 b, double3 c, double2 d, global double *o) {\n\
                  o[0] = a; vstore4(b, 0, o + 1); vstore3(c, 0, o + 5); vstore2(d, 0, o + 8);\n}\n";
    let program = Program::from_source(context.clone(), source.to_string());
    program.build(&[], "").expect("build");
    let kernel = Kernel::new(&program, "k").expect("kernel");
    let sizes: Vec<(ArgKind, u32)> = kernel
        .info
        .args
        .iter()
        .take(4)
        .map(|a| (a.kind, a.size))
        .collect();
    assert_eq!(sizes, [8, 32, 32, 16].map(|n| (ArgKind::Value, n)));
}

// --- printf -----------------------------------------------------------------------------------

const PRINTF_SOURCE: &str = r#"
kernel void p(global const double *x) {
    double third = x[0], big = x[1], negz = x[2], tenth = x[3];
    double2 v = (double2)(1.5, -2.25);
    double3 v3 = (double3)(0.5, x[4], -x[4]);
    float f = 1.5f;
    printf("<%f|%e|%g|%a|%.17g>\n", third, third, third, third, third);
    printf("<%e|%E|%g|%G|%f>\n", big, big, big, big, negz);
    printf("<%.20f|%lf|%10.3f|%-10.2e|%+g>\n", tenth, tenth, tenth, tenth, tenth);
    printf("<%v2lf|%v2le|%v3lg|%v2la>\n", v, v, v3, v);
    printf("<%f|%f|%f|%.1f>\n", x[5], -x[5], x[6], f);
    printf("<%a|%08.3f|%#.0e|%-+12.4G|%.0f>\n", x[7], x[8], x[9], x[10], x[11]);
}
"#;

/// What PRINTF_SOURCE prints for its inputs, written out by hand (C99 7.19.6.1 formats).
const PRINTF_WANT: &str =
    "<0.333333|3.333333e-01|0.333333|0x1.5555555555555p-2|0.33333333333333331>\n\
<1.000000e+300|1.000000E+300|1e+300|1E+300|-0.000000>\n\
<0.10000000000000000555|0.100000|     0.100|1.00e-01  |+0.1>\n\
<1.500000,-2.250000|1.500000e+00,-2.250000e+00|0.5,1e-310,-1e-310|0x1.8p+0,-0x1.2p+1>\n\
<inf|-inf|nan|1.5>\n\
<0x0.0000000000001p-1022|-002.500|3.e+00|+1E-05      |2>\n";

#[test]
fn printf_prints_doubles_byte_for_byte() {
    // printf writes to the process's standard output when the command completes; the test
    // runs itself as a child to read it.
    if std::env::var_os("FERROCL_PRINTF_CHILD").is_some() {
        let r = Runner::new();
        let p = r.build(PRINTF_SOURCE, "");
        let x = [
            1.0 / 3.0,
            1e300,
            -0.0,
            0.1,
            1e-310,
            f64::INFINITY,
            f64::NAN,
            f64::from_bits(1),
            -2.5,
            3.0,
            1e-5,
            2.5,
        ];
        let mut bufs = vec![bytes(&x)];
        r.run(&p, "p", &mut bufs, 1);
        return;
    }
    let out = std::process::Command::new(std::env::current_exe().expect("the test binary"))
        .args([
            own_test("printf_prints_doubles_byte_for_byte").as_str(),
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("FERROCL_PRINTF_CHILD", "1")
        .output()
        .expect("the child runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(PRINTF_WANT),
        "stdout:\n{stdout}\nwant:\n{PRINTF_WANT}"
    );
}

// --- Constant folding -------------------------------------------------------------------------

/// A double as OpenCL C source: a hex literal, or the macros for infinities and NaN.
fn literal(x: f64) -> String {
    if x.is_nan() {
        "(double)NAN".to_string()
    } else if x.is_infinite() {
        format!("{}(double)INFINITY", if x < 0.0 { "-" } else { "" })
    } else if x == 0.0 {
        if x.is_sign_negative() { "-0.0" } else { "0.0" }.to_string()
    } else {
        // Rust's {:e} is exact for doubles (shortest round trip).
        format!("{x:e}")
    }
}

/// The same expressions on constants (which the IR's folder evaluates at build time) and on
/// values loaded at run time (which the generated code evaluates) give the same bits.
#[test]
fn constant_folding_matches_run_time_evaluation() {
    // (expression, integer result)
    let exprs: [(&str, bool); 30] = [
        ("a + b", false),
        ("a - b", false),
        ("a * b", false),
        ("a / b", false),
        ("fma(a, b, c)", false),
        ("sqrt(a)", false),
        ("fmin(a, b)", false),
        ("fmax(a, b)", false),
        ("copysign(a, b)", false),
        ("floor(a)", false),
        ("ceil(a)", false),
        ("trunc(a)", false),
        ("rint(a)", false),
        ("round(a)", false),
        ("fabs(-a)", false),
        ("(double)convert_float_rtz(a)", false),
        ("(double)convert_float_rtp(a)", false),
        ("(double)convert_float_rtn(a)", false),
        ("(double)convert_float(a)", false),
        ("convert_double_rtp((long)c)", false),
        ("convert_double_rtn(as_ulong(a))", false),
        ("convert_double_rtz(as_long(b))", false),
        ("convert_long_sat_rte(a)", true),
        ("convert_int_sat_rtp(b)", true),
        ("convert_ulong_sat_rtn(a)", true),
        ("convert_short_sat(b)", true),
        ("as_long(a * c)", true),
        ("isless(a, b) + isnan(a) * 2 + signbit(b) * 4", true),
        ("(long)(a == b) + (long)(a != c) * 2", true),
        ("isunordered(a, b) + isgreaterequal(a, c) * 2", true),
    ];
    let mut rng = Rng::new(0xf01d);
    let mut triples: Vec<[f64; 3]> = vec![
        [1.0 / 3.0, -0.1, 7.0],
        [1e300, 1e-300, -3.5],
        [f64::from_bits(1), 0.5, 1e20],
        [-0.0, 0.0, -1.0],
        [f64::INFINITY, f64::NEG_INFINITY, 2.0],
        [f64::NAN, 1.0, 3.0],
        [1.0 + 2f64.powi(-24), -(1.0 + 3.0 * 2f64.powi(-24)), 9.5],
        [f64::from(f32::MAX) * 1.5, -1e-46, 2.5],
        [9.3e18, -9.3e18, -2.5],
        [1.8e19, 4503599627370497.5, 0.5],
    ];
    for _ in 0..10 {
        triples.push([
            random_f64(&mut rng, -70, 70),
            random_f64(&mut rng, -70, 70),
            random_f64(&mut rng, -40, 40),
        ]);
    }
    let r = Runner::new();
    let mut folded = String::new();
    for (t, v) in triples.iter().enumerate() {
        folded += &format!(
            "{{ double a = {}, b = {}, c = {};\n",
            literal(v[0]),
            literal(v[1]),
            literal(v[2])
        );
        for (k, (e, int)) in exprs.iter().enumerate() {
            let at = t * exprs.len() + k;
            if *int {
                folded += &format!("n[{at}] = (long)({e});\n");
            } else {
                folded += &format!("o[{at}] = {e};\n");
            }
        }
        folded += "}\n";
    }
    let mut run_time = String::new();
    for (k, (e, int)) in exprs.iter().enumerate() {
        if *int {
            run_time += &format!("n[t * {} + {k}] = (long)({e});\n", exprs.len());
        } else {
            run_time += &format!("o[t * {} + {k}] = {e};\n", exprs.len());
        }
    }
    let source = format!(
        "kernel void folded(global double *o, global long *n, global const double *in) {{\n{folded}}}\n\
         kernel void run_time(global double *o, global long *n, global const double *in) {{\n\
         size_t t = get_global_id(0);\n\
         double a = in[3 * t], b = in[3 * t + 1], c = in[3 * t + 2];\n{run_time}}}\n"
    );
    let p = r.build(&source, "");
    let inputs: Vec<f64> = triples.iter().flatten().copied().collect();
    let size = triples.len() * exprs.len();
    let mut f = vec![vec![0u8; 8 * size], vec![0u8; 8 * size], bytes(&inputs)];
    r.run(&p, "folded", &mut f, 1);
    let mut g = vec![vec![0u8; 8 * size], vec![0u8; 8 * size], bytes(&inputs)];
    r.run(&p, "run_time", &mut g, triples.len());
    // 5.8.6: -cl-opt-disable "disables all optimizations": the constants are then computed by
    // the generated code, and must give the folder's bits too.
    let unopt = r.build(&source, "-cl-opt-disable");
    let mut h = vec![vec![0u8; 8 * size], vec![0u8; 8 * size], bytes(&inputs)];
    r.run(&unopt, "folded", &mut h, 1);
    assert!(
        f[0] == h[0] && f[1] == h[1],
        "folded constants differ from the same kernel built with -cl-opt-disable"
    );
    let (fo, go): (Vec<f64>, Vec<f64>) = (values(&f[0]), values(&g[0]));
    let (fn_, gn): (Vec<i64>, Vec<i64>) = (values(&f[1]), values(&g[1]));
    let mut wrong = Vec::new();
    for (t, v) in triples.iter().enumerate() {
        for (k, (e, int)) in exprs.iter().enumerate() {
            let at = t * exprs.len() + k;
            // Unsaturated conversions of out-of-range values are undefined (6.4.3.3).
            // A NaN's sign and payload are not specified (the literal's NaN is the build's,
            // the input's the host's), so its bits are compared only through arithmetic.
            let in_range = v[2].abs() < 9.2e18;
            let undefined = (e.starts_with("convert_double_rtp((long)") && !in_range)
                || (e.contains("as_") && v.iter().any(|x| x.is_nan()));
            let ok = if *int {
                fn_[at] == gn[at]
            } else {
                same(fo[at], go[at])
            };
            if !ok && !undefined {
                wrong.push(format!(
                    "{e} with a={:e} b={:e} c={:e}: folded {}, run time {}",
                    v[0],
                    v[1],
                    v[2],
                    if *int {
                        fn_[at].to_string()
                    } else {
                        format!("{:e}", fo[at])
                    },
                    if *int {
                        gn[at].to_string()
                    } else {
                        format!("{:e}", go[at])
                    },
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The name the test harness gives test function `f` of this file: its module path in the
/// test binary (whose first segment is the binary's crate), then `f`.
fn own_test(f: &str) -> String {
    match module_path!().split_once("::") {
        Some((_, module)) => format!("{module}::{f}"),
        None => f.to_string(),
    }
}
