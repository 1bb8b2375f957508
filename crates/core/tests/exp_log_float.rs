//! The float exponentials and logarithms (exp, exp2, exp10, log, log2, log10: computed in float
//! by the builtin library, exp_log.cl) on the CPU device, vectorized, against references in
//! double (the host's exp, exp2, ln, log2, log10 and pow: within an ulp of double, so the error
//! is measured to about 2^-29 of a float ulp), in float ulps of the exact result (7.4).
//!
//! `sampled` runs in every test run: every exponent of both signs with random significands,
//! the subnormals, and the inputs at and around the edges (overflow and underflow thresholds,
//! the rounding boundaries of exp's and exp2's reduction, the neighbours of 1 and of powers
//! of two and ten), each function within table 65's bound (3 ulp) and the special values of
//! 7.5.1 and C99 F.9 exactly. `exhaustive` (ignored: minutes in a release build) runs every
//! one of the 2^32 inputs of each function and prints its largest error and where:
//! `cargo test --release -p ferrocl-core --test exp_log_float -- --ignored --nocapture`.

mod builtins_harness;

use builtins_harness::{bytes, next_down, next_up, ulp_error, values, Rng, Runner};

/// Table 65 (7.4, full profile): exp, exp2, exp10, log, log2 and log10 are within 3 ulp.
const BOUND: f64 = 3.0;

type Reference = fn(f64) -> f64;

const FUNCTIONS: &[(&str, Reference)] = &[
    ("exp", f64::exp),
    ("exp2", f64::exp2),
    ("exp10", exp10),
    ("log", f64::ln),
    ("log2", f64::log2),
    ("log10", f64::log10),
];

fn exp10(x: f64) -> f64 {
    10f64.powf(x)
}

fn source() -> String {
    FUNCTIONS
        .iter()
        .map(|(f, _)| {
            format!(
                "kernel void k_{f}(global float* out, global const float* x) {{\n\
                 size_t i = get_global_id(0);\n\
                 out[i] = {f}(x[i]);\n\
                 }}\n"
            )
        })
        .collect()
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
    for p in [-149, -130, -126, -60, -1, 1, 20, 60, 127] {
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
    for &(name, reference) in FUNCTIONS {
        let got = run(&runner, &program, name, &x);
        let mut worst = Worst::new();
        worst.add(&x, &got, reference);
        let line = worst.report(name, reference);
        println!("{line}");
        results.push((line, worst.max));
    }
    assert_within_bound(&results);
}

/// Fails with the report lines of the functions whose largest error exceeds the bound.
fn assert_within_bound(results: &[(String, f64)]) {
    let failures: Vec<&str> = results
        .iter()
        .filter(|(_, max)| *max > BOUND)
        .map(|(line, _)| line.as_str())
        .collect();
    assert!(
        failures.is_empty(),
        "beyond table 65's {BOUND} ulp:\n{}",
        failures.join("\n")
    );
}

/// Every float input of each function, 2^24 at a time (the references on every core).
#[test]
#[ignore]
fn exhaustive() {
    const CHUNK: u64 = 1 << 24;
    let runner = Runner::new();
    let program = runner.build(&source(), "");
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut results = Vec::new();
    for &(name, reference) in FUNCTIONS {
        let start = std::time::Instant::now();
        let mut worst = Worst::new();
        for chunk in 0..(1u64 << 32) / CHUNK {
            let x: Vec<f32> = (chunk * CHUNK..(chunk + 1) * CHUNK)
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
        results.push((line, worst.max));
    }
    assert_within_bound(&results);
}
