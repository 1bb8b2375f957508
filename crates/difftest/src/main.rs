//! `ferrocl-difftest`: runs a campaign of generated kernels and prints what it found.
//!
//! ```text
//! ferrocl-difftest [--seeds A..B] [--reduce SECONDS] [--out DIR] [--lean] [--show SEED]
//!                  [--check FILE] [--test SEED LOCAL]
//! ```
//! `--lean` generates lean programs (`gen::set_lean`), and must come before `--show` and
//! `--test`.
//! `--seeds` (default `0..1000`) is the range of seeds; a failing seed is reduced for at most
//! `--reduce` seconds (default 120; 0 keeps it whole) and its reproducer written to `--out`
//! (default `crates/difftest/reproducers`) as `seed-N.cl`, with `seed-N.test.cl` beside it
//! (the kernel test file) for a mismatch. `--show SEED` prints the seed's program and exits;
//! `--check FILE` checks a reproducer (its `// in = ` line gives the input) and exits;
//! `--test SEED LOCAL` prints the seed's program as a kernel test file at local size `LOCAL`
//! along x, expecting the interpreter's outputs (to run it on another implementation).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use ferrocl_difftest::campaign::{run_seed, Tally};
use ferrocl_difftest::gen::generate;
use ferrocl_difftest::repro::{check_reproducer, kernel_test, save};
use ferrocl_difftest::run::{build, input, run_interpreter};

struct Options {
    seeds: std::ops::Range<u64>,
    reduce: Duration,
    out: PathBuf,
}

fn parse() -> Result<Options, String> {
    let mut o = Options {
        seeds: 0..1000,
        reduce: Duration::from_secs(120),
        out: PathBuf::from("crates/difftest/reproducers"),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--seeds" => {
                let v = value()?;
                let (lo, hi) = v.split_once("..").ok_or("--seeds takes A..B")?;
                let n = |s: &str| s.parse::<u64>().map_err(|e| format!("--seeds {v}: {e}"));
                o.seeds = n(lo)?..n(hi)?;
            }
            "--reduce" => {
                let v = value()?;
                let secs = v.parse::<u64>().map_err(|e| format!("--reduce {v}: {e}"))?;
                o.reduce = Duration::from_secs(secs);
            }
            "--out" => o.out = PathBuf::from(value()?),
            "--lean" => ferrocl_difftest::gen::set_lean(true),
            "--check" => {
                let path = value()?;
                let source = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
                std::process::exit(check_file(&source));
            }
            "--show" => {
                let v = value()?;
                let seed = v.parse::<u64>().map_err(|e| format!("--show {v}: {e}"))?;
                print!("{}", generate(seed).source());
                std::process::exit(0);
            }
            "--test" => {
                let v = value()?;
                let seed = v.parse::<u64>().map_err(|e| format!("--test {v}: {e}"))?;
                let v = args.next().ok_or("--test needs a seed and a local size")?;
                let local = v.parse::<u64>().map_err(|e| format!("--test {v}: {e}"))?;
                std::process::exit(print_test(seed, local));
            }
            _ => return Err(format!("unknown argument {a}")),
        }
    }
    Ok(o)
}

/// Checks the OpenCL C of a reproducer at every local size; the exit status is 1 where it
/// fails.
fn check_file(source: &str) -> i32 {
    let verdict = check_reproducer(source);
    match verdict.failure {
        None => {
            println!("{} launches, no difference", verdict.runs);
            0
        }
        Some(f) => {
            println!("{}\n{}", f.class, f.detail);
            1
        }
    }
}

/// Prints seed `seed` as a kernel test file at local size `local`; the exit status is 1 where
/// the interpreter could not run it.
fn print_test(seed: u64, local: u64) -> i32 {
    let program = generate(seed);
    let input = input(seed);
    let run = build(&program.source())
        .and_then(|m| run_interpreter(&m, &program.shape.launch(local), &input));
    match run {
        Ok(want) => {
            let source = program.source();
            print!(
                "{}",
                kernel_test(seed, &source, &program.shape, &input, local, &want)
            );
            0
        }
        Err(e) => {
            eprintln!("ferrocl-difftest: seed {seed}: {e}");
            1
        }
    }
}

fn main() -> ExitCode {
    let o = match parse() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("ferrocl-difftest: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let mut tally = Tally::default();
    let mut last_report = Instant::now();
    for seed in o.seeds.clone() {
        let found = tally.found.len();
        run_seed(seed, o.reduce, &mut tally);
        for f in &tally.found[found..] {
            println!(
                "seed {seed}: {} (statements {} -> {})",
                f.failure.class, f.statements.0, f.statements.1
            );
            let written = save(&o.out, &format!("seed-{seed}.cl"), &f.reproducer).and_then(|p| {
                match &f.kernel_test {
                    Some(t) => save(&o.out, &format!("seed-{seed}.test.cl"), t),
                    None => Ok(p),
                }
            });
            if let Err(e) = written {
                eprintln!("ferrocl-difftest: writing to {}: {e}", o.out.display());
            }
        }
        if last_report.elapsed() > Duration::from_secs(60) {
            last_report = Instant::now();
            println!(
                "[{:.0} s] seed {seed}: {} kernels, {} failures",
                start.elapsed().as_secs_f64(),
                tally.kernels,
                tally.failed()
            );
        }
    }
    print!("{}", tally.summary());
    if ferrocl_cpu::wide::enabled() {
        let (taken, refused) = ferrocl_cpu::wide::counts();
        println!("wide tier: {taken} work-group functions compiled, {refused} refused");
    }
    println!(
        "several chunks at a time: {} work-group functions",
        ferrocl_cpu::workgroup::jammed_count()
    );
    println!(
        "loops unrolled to load runs several elements at a time: {}",
        ferrocl_cpu::vectorize::runs_count()
    );
    println!(
        "masked blocks skipped where no lane is active: {}",
        ferrocl_cpu::vectorize::skippable_count()
    );
    println!(
        "kernels whose vectors' regrouping cancelled: {}",
        ferrocl_cpu::vectorize::regrouped_count()
    );
    println!("time: {:.1} s", start.elapsed().as_secs_f64());
    if tally.failed() == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
