//! The float math functions the builtin library computes in float (exp_log.cl, trig.cl) on
//! the CPU device, vectorized, against references in double (the host's functions: within an
//! ulp of double, so the error is measured to about 2^-29 of a float ulp), in float ulps of the
//! exact result (7.4).
//!
//! `sampled` runs in every test run: every exponent of both signs with random significands,
//! the subnormals, and the inputs at and around the edges (overflow and underflow thresholds,
//! the rounding boundaries of the reductions, the neighbours of 1, of powers of two and ten
//! and of the floats nearest multiples of pi/2), each function within its bound of table 65
//! and the special values of 7.5.1 and C99 F.9 exactly. `across_every_exponent` runs every
//! 65,521st of the 2^32 inputs of each function, and with `FERROCL_TEST_SCALE=exhaustive`
//! every one of them (of the functions named in `FERROCL_FUNCTIONS`, comma-separated, if
//! set), printing each largest error and where:
//! `FERROCL_TEST_SCALE=exhaustive cargo test --release -p ferrocl-core --test integration --
//! float_math::across_every_exponent --nocapture`.

use crate::builtins_harness;

use builtins_harness::math::{self, rootn_prescribed};
use builtins_harness::{bytes, next_down, next_up, special_f32, ulp_error, values, Rng, Runner};

type Reference = fn(f64) -> f64;

/// Each function, its reference and its bound in table 65 (7.4, full profile).
const FUNCTIONS: &[(&str, Reference, f64)] = &[
    ("exp", f64::exp, 3.0),
    ("exp2", f64::exp2, 3.0),
    ("exp10", exp10, 3.0),
    ("log", f64::ln, 3.0),
    ("log2", f64::log2, 3.0),
    ("log10", f64::log10, 3.0),
    ("sin", f64::sin, 4.0),
    ("cos", f64::cos, 4.0),
    ("tan", f64::tan, 5.0),
    // sincos's two results (`call` writes the kernels).
    ("sincos_sin", f64::sin, 4.0),
    ("sincos_cos", f64::cos, 4.0),
    ("cbrt", f64::cbrt, 2.0),
    ("expm1", f64::exp_m1, 3.0),
    ("log1p", f64::ln_1p, 2.0),
    ("sinh", f64::sinh, 4.0),
    ("cosh", f64::cosh, 4.0),
    ("tanh", f64::tanh, 5.0),
    ("asin", f64::asin, 4.0),
    ("acos", f64::acos, 4.0),
    ("atan", f64::atan, 5.0),
    ("asinpi", asinpi, 5.0),
    ("acospi", acospi, 5.0),
    ("atanpi", atanpi, 5.0),
    ("asinh", f64::asinh, 4.0),
    ("acosh", f64::acosh, 4.0),
    ("atanh", f64::atanh, 5.0),
    ("rsqrt", rsqrt, 2.0),
    ("sinpi", sinpi, 4.0),
    ("cospi", cospi, 4.0),
    ("tanpi", tanpi, 6.0),
    ("erf", erf, 16.0),
    ("erfc", erfc, 16.0),
];

/// The second operand of a two-operand function: a float (pow, powr, atan2, atan2pi, hypot)
/// or an int (pown, rootn).
#[derive(Clone, Copy)]
enum Power {
    Float(fn(f64, f64) -> f64),
    Int(fn(f64, i32) -> f64),
}

/// The functions of two operands computed in float (powers, roots, arc tangents, hypot),
/// their references and table 65's bounds.
const POWERS: &[(&str, Power, f64)] = &[
    ("pow", Power::Float(f64::powf), 16.0),
    ("powr", Power::Float(builtins_harness::math::powr), 16.0),
    ("pown", Power::Int(pown), 16.0),
    ("rootn", Power::Int(rootn), 16.0),
    ("atan2", Power::Float(f64::atan2), 6.0),
    ("atan2pi", Power::Float(atan2pi), 6.0),
    ("hypot", Power::Float(f64::hypot), 4.0),
];

fn pown(x: f64, n: i32) -> f64 {
    x.powf(f64::from(n))
}

/// 7.5.1's values, else |x|^(1/n) with x's sign.
fn rootn(x: f64, n: i32) -> f64 {
    rootn_prescribed(x, n).unwrap_or_else(|| x.abs().powf(1.0 / f64::from(n)).copysign(x))
}

fn exp10(x: f64) -> f64 {
    10f64.powf(x)
}

mod c {
    extern "C" {
        pub fn erf(x: f64) -> f64;
        pub fn erfc(x: f64) -> f64;
    }
}

/// The host C library's erf and erfc (Rust's f64 has none).
fn erf(x: f64) -> f64 {
    // SAFETY: erf reads its argument only.
    unsafe { c::erf(x) }
}

fn erfc(x: f64) -> f64 {
    // SAFETY: erfc reads its argument only.
    unsafe { c::erfc(x) }
}

fn rsqrt(x: f64) -> f64 {
    1.0 / x.sqrt()
}

/// sin(pi x), cos(pi x), tan(pi x): x is a float, so its reduction is exact in double.
fn sinpi(x: f64) -> f64 {
    math::sinpi(x, |r| (std::f64::consts::PI * r).sin())
}

fn cospi(x: f64) -> f64 {
    math::cospi(x, |r| (std::f64::consts::PI * r).cos())
}

fn tanpi(x: f64) -> f64 {
    math::tanpi(x, |r| (std::f64::consts::PI * r).tan())
}

// The *pi forms: the angle divided by pi (one more rounding of double, far below a float ulp).
fn asinpi(x: f64) -> f64 {
    x.asin() / std::f64::consts::PI
}

fn acospi(x: f64) -> f64 {
    x.acos() / std::f64::consts::PI
}

fn atanpi(x: f64) -> f64 {
    x.atan() / std::f64::consts::PI
}

fn atan2pi(y: f64, x: f64) -> f64 {
    y.atan2(x) / std::f64::consts::PI
}

fn source() -> String {
    let powers: String = POWERS
        .iter()
        .map(|(f, power, _)| {
            let ty = match power {
                Power::Float(_) => "float",
                Power::Int(_) => "int",
            };
            format!(
                "kernel void k_{f}(global float* out, global const float* x, \
                 global const {ty}* y) {{\n\
                 size_t i = get_global_id(0);\n\
                 out[i] = {f}(x[i], y[i]);\n\
                 }}\n"
            )
        })
        .collect();
    powers
        + &FUNCTIONS
            .iter()
            .map(|(f, _, _)| {
                format!(
                    "kernel void k_{f}(global float* out, global const float* x) {{\n\
                 size_t i = get_global_id(0);\n\
                 {}\n\
                 }}\n",
                    call(f)
                )
            })
            .collect::<String>()
}

/// The statements that store function `f`'s result of `x[i]` in `out[i]`.
fn call(f: &str) -> String {
    match f {
        "sincos_sin" => "float c; out[i] = sincos(x[i], &c);".to_string(),
        "sincos_cos" => "float c; sincos(x[i], &c); out[i] = c;".to_string(),
        _ => format!("out[i] = {f}(x[i]);"),
    }
}

/// The largest error of one function over some inputs, where it is, and how many results
/// are not the correctly rounded one (more than half an ulp off).
struct Worst {
    max: f64,
    at: f32,
    got: f32,
    not_rounded: u64,
    count: u64,
}

impl Worst {
    fn new() -> Worst {
        Worst {
            max: 0.0,
            at: 0.0,
            got: 0.0,
            not_rounded: 0,
            count: 0,
        }
    }

    fn add(&mut self, x: &[f32], got: &[f32], reference: Reference) {
        for (&x, &g) in x.iter().zip(got) {
            let err = ulp_error(g, reference(f64::from(x)));
            self.count += 1;
            if err > 0.5 + 1e-6 {
                self.not_rounded += 1;
            }
            if err > self.max {
                self.max = err;
                self.at = x;
                self.got = g;
            }
        }
    }

    fn merge(&mut self, other: Worst) {
        if other.max > self.max {
            self.max = other.max;
            self.at = other.at;
            self.got = other.got;
        }
        self.not_rounded += other.not_rounded;
        self.count += other.count;
    }

    fn report(&self, name: &str, reference: Reference) -> String {
        format!(
            "{name:6} max {:.4} ulp at {:e} ({:#010x}): got {:e}, want {:e}; {} of {} not \
             correctly rounded",
            self.max,
            self.at,
            self.at.to_bits(),
            self.got,
            reference(f64::from(self.at)),
            self.not_rounded,
            self.count
        )
    }
}

/// Runs `name` over `x` on the device.
fn run(
    runner: &Runner,
    program: &std::sync::Arc<ferrocl_core::program::Program>,
    name: &str,
    x: &[f32],
) -> Vec<f32> {
    let mut buffers = [vec![0u8; x.len() * 4], bytes(x)];
    runner.run(program, &format!("k_{name}"), &mut buffers, x.len());
    values(&buffers[0])
}

/// Every exponent field of both signs with random significands, every subnormal binade, and
/// the edges, each with its neighbours.
fn sample() -> Vec<f32> {
    let mut rng = Rng::new(0xe4b1);
    let mut x = Vec::new();
    for exponent in 0..=255u32 {
        for _ in 0..48 {
            let sign = (rng.next() as u32) & 0x8000_0000;
            let significand = (rng.next() as u32) & 0x007f_ffff;
            x.push(f32::from_bits(sign | exponent << 23 | significand));
        }
    }
    // Subnormals of every size (the top set bit at each position), random below it.
    for bit in 0..23 {
        for _ in 0..16 {
            let low = (rng.next() as u32) & ((1 << bit) - 1);
            x.push(f32::from_bits(1 << bit | low));
        }
    }
    let mut edges: Vec<f32> = vec![
        0.0,
        f32::MIN_POSITIVE,
        f32::from_bits(1),
        f32::MAX,
        1.0,
        2.0,
        10.0,
        0.5,
        // exp2's thresholds and the halves where its reduction switches n.
        128.0,
        -149.0,
        -150.0,
        -126.0,
        0.5,
        1.5,
        -0.5,
        100.5,
        -140.5,
        // Where log's reduction switches e: sqrt(2) and sqrt(1/2) times powers of two.
        std::f32::consts::SQRT_2,
        std::f32::consts::FRAC_1_SQRT_2,
        std::f32::consts::SQRT_2 * 1024.0,
        std::f32::consts::FRAC_1_SQRT_2 / 1024.0,
    ];
    // Where expm1, log1p, sinh and tanh switch forms or overflow, atan's reduction, and erfc's
    // intervals and underflow.
    edges.extend([
        9.1, 89.415985, -17.32868, 0.41421357, 2.4142137, 0.75, 1.5, 3.0, 4.0, 10.05,
    ]);
    for p in [-149, -130, -126, -60, -25, -13, -12, -1, 1, 19, 20, 60, 127] {
        edges.push(2f32.powi(p));
    }
    // exp's and exp10's overflow and underflow thresholds, ln(2^k) and log10(2^k), and where
    // their reductions switch n, the odd multiples of ln(2) / 2 and log10(2) / 2.
    for k in [128.0, -126.0, -149.0, -150.0, 0.5, 1.5, -0.5, 89.5, -149.5] {
        edges.push((k * std::f64::consts::LN_2) as f32);
        edges.push((k * std::f64::consts::LOG10_2) as f32);
    }
    for p in 1..=10 {
        edges.push(10f32.powi(p));
        edges.push(10f32.powi(-p));
        edges.push(p as f32);
        edges.push(-(p as f32));
    }
    // The floats nearest multiples of pi/2, where sin, cos and tan lose most in the reduction:
    // the first ones, random ones below the fast reduction's limit (2^19) and beyond.
    for k in 1..=64 {
        edges.push((f64::from(k) * std::f64::consts::FRAC_PI_2) as f32);
    }
    for _ in 0..256 {
        let k = rng.below(1 << 19) as f64;
        edges.push((k * std::f64::consts::FRAC_PI_2) as f32);
        let k = rng.below(1 << 40) as f64;
        edges.push((k * std::f64::consts::FRAC_PI_2) as f32);
    }
    for e in edges {
        let mut v = e;
        let mut w = e;
        for _ in 0..32 {
            for y in [v, w] {
                x.push(y);
                x.push(-y);
            }
            v = next_up(v);
            w = next_down(w);
        }
    }
    // Near 1 (log1p-like arguments of log), and tiny exponents (results near 1).
    for _ in 0..2048 {
        x.push(1.0 + rng.f32_exp(-24, -1));
        x.push(rng.f32_exp(-30, -1));
    }
    x.extend([f32::INFINITY, f32::NEG_INFINITY, f32::NAN, -f32::NAN]);
    // Columns a multiple of 64 long.
    while x.len() % 64 != 0 {
        x.push(rng.any_f32());
    }
    x
}

#[test]
fn sampled() {
    let runner = Runner::new();
    let program = runner.build(&source(), "");
    let x = sample();
    let mut results = Vec::new();
    for &(name, reference, bound) in FUNCTIONS {
        let got = run(&runner, &program, name, &x);
        let mut worst = Worst::new();
        worst.add(&x, &got, reference);
        let line = worst.report(name, reference);
        println!("{line}");
        results.push((line, worst.max, bound));
    }
    assert_within_bound(&results);
}

/// Operand pairs: every exponent of x of both signs with exponents y of every size, any bit
/// pattern, small integral ones, and those that bring a power near the overflow and underflow
/// thresholds and into the subnormals; then the special values against one another.
fn power_sample(int_y: bool) -> (Vec<f32>, Vec<f32>) {
    let mut rng = Rng::new(0x90e7 + u64::from(int_y));
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    for exponent in 0..=255u32 {
        for k in 0..64 {
            let x = f32::from_bits(((rng.next() as u32) & 0x807f_ffff) | exponent << 23);
            let l = f64::from(x.abs()).log2();
            let y = match k % 5 {
                0 => rng.below(41) as f32 - 20.0,
                1 => rng.f32_exp(-12, 8),
                2 => rng.any_f32(),
                // Results near 2^-150, 2^-126, 2^127 and 2^128.
                _ => {
                    let target = [-150.0, -126.0, 127.0, 128.0][rng.below(4) as usize]
                        + (rng.next() % 2001) as f64 / 1000.0
                        - 1.0;
                    (target / l) as f32
                }
            };
            let y = if int_y { y.round().clamp(-1e9, 1e9) } else { y };
            xs.push(x);
            ys.push(y);
        }
    }
    // Large integral exponents of an int, odd and even, around 2^24 and beyond.
    for n in [
        16777217.0f32,
        -16777217.0,
        16777216.0,
        2147483520.0,
        -2147483648.0,
    ] {
        for x in [1.0000001f32, 0.99999994, -1.0000001, -0.99999994, 2.0, -0.5] {
            xs.push(x);
            ys.push(n);
        }
    }
    let special = special_f32();
    for &x in &special {
        for &y in &special {
            xs.push(x);
            ys.push(if int_y { y.round().clamp(-1e9, 1e9) } else { y });
        }
    }
    (xs, ys)
}

#[test]
fn powers() {
    let runner = Runner::new();
    let program = runner.build(&source(), "");
    let mut results = Vec::new();
    for &(name, power, bound) in POWERS {
        let int_y = matches!(power, Power::Int(_));
        let (x, y) = power_sample(int_y);
        let mut buffers = [vec![0u8; x.len() * 4], bytes(&x), Vec::new()];
        buffers[2] = if int_y {
            bytes(&y.iter().map(|&v| v as i32).collect::<Vec<_>>())
        } else {
            bytes(&y)
        };
        runner.run(&program, &format!("k_{name}"), &mut buffers, x.len());
        let got: Vec<f32> = values(&buffers[0]);
        let mut max = 0.0f64;
        let mut at = (0.0, 0.0, 0.0, 0.0);
        for ((&x, &y), &g) in x.iter().zip(&y).zip(&got) {
            let want = match power {
                Power::Float(r) => r(f64::from(x), f64::from(y)),
                Power::Int(r) => r(f64::from(x), y as i32),
            };
            let err = ulp_error(g, want);
            if err > max {
                max = err;
                at = (x, y, g, want);
            }
        }
        let line = format!(
            "{name:6} max {max:.4} ulp at ({:e}, {:e}): got {:e}, want {:e}",
            at.0, at.1, at.2, at.3
        );
        println!("{line}");
        results.push((line, max, bound));
    }
    assert_within_bound(&results);
}

/// Fails with the report lines of the functions whose largest error exceeds the bound.
fn assert_within_bound(results: &[(String, f64, f64)]) {
    let failures: Vec<String> = results
        .iter()
        .filter(|(_, max, bound)| *max > *bound)
        .map(|(line, _, bound)| format!("{line} (bound {bound})"))
        .collect();
    assert!(
        failures.is_empty(),
        "beyond table 65's bounds:\n{}",
        failures.join("\n")
    );
}

/// Float inputs of each function across all 2^32 bit patterns, 2^24 at a time (the
/// references on every core): every 65,521st pattern (a prime stride, which meets every
/// exponent and sign with varied significands) in every test run, and every pattern with
/// `FERROCL_TEST_SCALE=exhaustive` (minutes in a release build).
#[test]
fn across_every_exponent() {
    const CHUNK: u64 = 1 << 24;
    let stride: u64 = match std::env::var("FERROCL_TEST_SCALE").as_deref() {
        Ok("exhaustive") => 1,
        _ => 65_521,
    };
    let runner = Runner::new();
    let program = runner.build(&source(), "");
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let wanted = std::env::var("FERROCL_FUNCTIONS").ok();
    let mut results = Vec::new();
    for &(name, reference, bound) in FUNCTIONS {
        if wanted
            .as_deref()
            .is_some_and(|w| !w.split(',').any(|f| f == name))
        {
            continue;
        }
        let start = std::time::Instant::now();
        let mut worst = Worst::new();
        for chunk in 0..(1u64 << 32).div_ceil(CHUNK * stride) {
            let x: Vec<f32> = (chunk * CHUNK..(chunk + 1) * CHUNK)
                .map(|k| k * stride)
                .take_while(|&b| b < 1 << 32)
                .map(|b| f32::from_bits(b as u32))
                .collect();
            let got = run(&runner, &program, name, &x);
            let part = x.len().div_ceil(threads);
            let parts: Vec<Worst> = std::thread::scope(|s| {
                let handles: Vec<_> = x
                    .chunks(part)
                    .zip(got.chunks(part))
                    .map(|(x, g)| {
                        s.spawn(move || {
                            let mut w = Worst::new();
                            w.add(x, g, reference);
                            w
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap()).collect()
            });
            for p in parts {
                worst.merge(p);
            }
        }
        let line = worst.report(name, reference);
        println!("{line} [{:.0} s]", start.elapsed().as_secs_f64());
        results.push((line, worst.max, bound));
    }
    assert_within_bound(&results);
}

/// native_sin and native_cos (and half_sin, half_cos) are sin and cos bit for bit below 2^19,
/// and a NaN from 2^19 on and for infinities and NaNs: the range this
/// device gives them (6.15.2.3: "over an implementation-defined range").
#[test]
fn native_sin_and_cos_are_sin_and_cos_within_their_range() {
    let source = "
        __kernel void k(__global const float *x, __global float *out) {
            size_t i = get_global_id(0);
            float v = x[i];
            out[6 * i] = sin(v);
            out[6 * i + 1] = native_sin(v);
            out[6 * i + 2] = half_sin(v);
            out[6 * i + 3] = cos(v);
            out[6 * i + 4] = native_cos(v);
            out[6 * i + 5] = half_cos(v);
        }";
    let mut rng = Rng::new(19);
    let mut inside: Vec<f32> = (0..4096)
        .map(|_| {
            let x = rng.f32_exp(-30, 18);
            if rng.below(2) == 0 {
                x
            } else {
                -x
            }
        })
        .collect();
    inside.extend([
        0.0,
        -0.0,
        next_down(524288.0),
        -next_down(524288.0),
        std::f32::consts::FRAC_PI_2,
        std::f32::consts::PI,
    ]);
    let outside = [
        524288.0,
        -524288.0,
        1e30,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
    ];
    let x: Vec<f32> = inside.iter().chain(&outside).copied().collect();
    let runner = Runner::new();
    let program = runner.build(source, "");
    let mut buffers = vec![bytes(&x), vec![0u8; x.len() * 6 * 4]];
    runner.run(&program, "k", &mut buffers, x.len());
    let out: Vec<f32> = values(&buffers[1]);
    for (i, &v) in x.iter().enumerate() {
        let r = &out[6 * i..6 * i + 6];
        if i < inside.len() {
            for (full, native) in [(r[0], r[1]), (r[0], r[2]), (r[3], r[4]), (r[3], r[5])] {
                assert_eq!(full.to_bits(), native.to_bits(), "x = {v:e}: {r:?}");
            }
        } else {
            assert!(
                [r[1], r[2], r[4], r[5]].iter().all(|n| n.is_nan()),
                "x = {v:e}: {r:?}"
            );
        }
    }
}
