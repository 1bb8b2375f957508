//! One program checked: built once, compiled for the CPU device scalar and vectorized, run on
//! the three engines at each local size, and the outputs compared bit for bit with the
//! interpreter's. The first difference (or failure to build, compile or run) is the verdict,
//! classified so that a campaign can count failures by kind and the reducer can keep one kind.

use std::fmt;

use crate::program::{Program, Shape};
use crate::run::{build, compile_cpu, run_cpu, run_interpreter, Engine, Outputs};

/// The kind of a failure.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// The front end or the IR passes rejected a valid program.
    Build,
    /// The CPU device's compiler failed.
    Compile(Engine),
    /// The engine trapped or faulted running the kernel.
    Run(Engine),
    /// The engines named disagree with the interpreter on buffer `out` or `acc`.
    Mismatch(Vec<Engine>, &'static str),
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Class::Build => f.write_str("build failed"),
            Class::Compile(e) => write!(f, "{} compile failed", e.name()),
            Class::Run(e) => write!(f, "{} run failed", e.name()),
            Class::Mismatch(es, buffer) => {
                let names: Vec<&str> = es.iter().map(|e| e.name()).collect();
                write!(f, "mismatch {} {buffer}", names.join("+"))
            }
        }
    }
}

/// A failure: its class, the local size it showed at (none for build and compile failures),
/// and what differed or the error.
#[derive(Clone, Debug)]
pub struct Failure {
    pub class: Class,
    pub local: Option<u64>,
    pub detail: String,
    /// The interpreter's outputs, where it ran.
    pub expected: Option<Outputs>,
}

/// The result of checking one program.
#[derive(Clone, Debug)]
pub struct Verdict {
    /// Launches made (three engines per local size).
    pub runs: usize,
    pub failure: Option<Failure>,
}

/// The words where `got` differs from `want`, at most `limit` of them, as text.
pub fn differences(name: &str, want: &[u32], got: &[u32], limit: usize) -> String {
    let mut s = String::new();
    let mut shown = 0;
    for (i, (w, g)) in want.iter().zip(got).enumerate() {
        if w != g {
            if shown < limit {
                s.push_str(&format!("{name}[{i}]: expected {w:#010x}, got {g:#010x}\n"));
            }
            shown += 1;
        }
    }
    if shown > limit {
        s.push_str(&format!(
            "... {} more differences in {name}\n",
            shown - limit
        ));
    }
    s
}

/// Compares each engine's outputs with the interpreter's; the class of the first buffer that
/// differs, with the differences.
pub fn compare(want: &Outputs, got: &[(Engine, Outputs)]) -> Option<(Class, String)> {
    for (buffer, pick) in [
        ("out", (|o: &Outputs| &o.out) as fn(&Outputs) -> &Vec<u32>),
        ("acc", |o: &Outputs| &o.acc),
    ] {
        let bad: Vec<Engine> = got
            .iter()
            .filter(|(_, o)| pick(o) != pick(want))
            .map(|(e, _)| *e)
            .collect();
        if bad.is_empty() {
            continue;
        }
        let mut detail = String::new();
        for (e, o) in got.iter().filter(|(e, _)| bad.contains(e)) {
            detail.push_str(&format!("{}:\n", e.name()));
            detail.push_str(&differences(buffer, pick(want), pick(o), 8));
        }
        return Some((Class::Mismatch(bad, buffer), detail));
    }
    None
}

/// Checks `program` with input `input` at each local size of `locals`.
pub fn check(program: &Program, input: &[u32], locals: &[u64]) -> Verdict {
    check_source(&program.source(), &program.shape, input, locals)
}

/// [`check`] for OpenCL C text (a kernel `k` with the generated kernels' signature) run over
/// NDRanges of `shape`.
pub fn check_source(source: &str, shape: &Shape, input: &[u32], locals: &[u64]) -> Verdict {
    let mut verdict = Verdict {
        runs: 0,
        failure: None,
    };
    let fail = |class, local, detail: String, expected| Failure {
        class,
        local,
        detail,
        expected,
    };
    let module = match build(source) {
        Ok(m) => m,
        Err(log) => {
            verdict.failure = Some(fail(Class::Build, None, log, None));
            return verdict;
        }
    };
    let mut programs = Vec::new();
    for (engine, vectorized) in [(Engine::Scalar, false), (Engine::Vector, true)] {
        match compile_cpu(&module, vectorized) {
            Ok(p) => programs.push((engine, p)),
            Err(e) => {
                verdict.failure = Some(fail(Class::Compile(engine), None, e, None));
                return verdict;
            }
        }
    }
    for &local in locals {
        let launch = shape.launch(local);
        verdict.runs += 1;
        let want = match run_interpreter(&module, &launch, input) {
            Ok(o) => o,
            Err(e) => {
                let class = Class::Run(Engine::Interpreter);
                verdict.failure = Some(fail(class, Some(local), e, None));
                return verdict;
            }
        };
        let mut got = Vec::new();
        for (engine, p) in &programs {
            verdict.runs += 1;
            match run_cpu(p, &launch, input) {
                Ok(o) => got.push((*engine, o)),
                Err(e) => {
                    let class = Class::Run(*engine);
                    verdict.failure = Some(fail(class, Some(local), e, Some(want)));
                    return verdict;
                }
            }
        }
        if let Some((class, detail)) = compare(&want, &got) {
            let detail = format!(
                "local size {}, global size {}, offset {}\n{detail}",
                launch.list(launch.local),
                launch.list(launch.global),
                launch.list(launch.offset)
            );
            verdict.failure = Some(fail(class, Some(local), detail, Some(want)));
            return verdict;
        }
    }
    verdict
}
