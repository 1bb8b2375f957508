//! A campaign: seeds generated, checked and, where they fail, reduced; the counts a run
//! reports (kernels, launches, failures by class) and the reproducers it found.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::check::{check, Class, Failure};
use crate::gen::generate;
use crate::program::Program;
use crate::reduce::reduce;
use crate::repro::{kernel_test, reproducer};
use crate::run::{input, LOCAL_SIZES};

/// A failing seed, reduced.
#[derive(Clone, Debug)]
pub struct Found {
    pub seed: u64,
    pub failure: Failure,
    /// Statements before and after reduction.
    pub statements: (usize, usize),
    /// The reduced program's reproducer (OpenCL C with the failure in comments).
    pub reproducer: String,
    /// The reduced program as a kernel test file, where the interpreter ran it.
    pub kernel_test: Option<String>,
}

/// What a campaign found.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    pub kernels: usize,
    pub runs: usize,
    pub failures: BTreeMap<String, Vec<u64>>,
    pub found: Vec<Found>,
}

impl Tally {
    pub fn failed(&self) -> usize {
        self.failures.values().map(Vec::len).sum()
    }

    /// The counts, one line each.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "kernels generated: {}\nlaunches: {}\nfailures: {}\n",
            self.kernels,
            self.runs,
            self.failed()
        );
        for (class, seeds) in &self.failures {
            let shown: Vec<String> = seeds.iter().take(20).map(|s| s.to_string()).collect();
            let more = if seeds.len() > 20 { " ..." } else { "" };
            s.push_str(&format!(
                "  {class}: {} (seeds {}{more})\n",
                seeds.len(),
                shown.join(" ")
            ));
        }
        s
    }
}

/// Whether `candidate` fails as `failure` did: the same class at the same local size.
pub fn fails_alike(candidate: &Program, input: &[u32], failure: &Failure) -> bool {
    let locals: Vec<u64> = failure.local.into_iter().collect();
    let locals = if locals.is_empty() { vec![1] } else { locals };
    let v = check(candidate, input, &locals);
    v.failure.is_some_and(|f| f.class == failure.class)
}

/// Checks `seed`; a failure is reduced for at most `reduce_for` (zero: not reduced) and
/// recorded in `tally`.
pub fn run_seed(seed: u64, reduce_for: Duration, tally: &mut Tally) {
    let program = generate(seed);
    let input = input(seed);
    tally.kernels += 1;
    let verdict = check(&program, &input, &LOCAL_SIZES);
    tally.runs += verdict.runs;
    let Some(failure) = verdict.failure else {
        return;
    };
    tally
        .failures
        .entry(failure.class.to_string())
        .or_default()
        .push(seed);
    let before = program.statements();
    let reduced = if reduce_for.is_zero() {
        program
    } else {
        let deadline = Instant::now() + reduce_for;
        reduce(&program, deadline, &mut |p| {
            fails_alike(p, &input, &failure)
        })
        .0
    };
    // The reduced program's own failure, for its outputs.
    let locals: Vec<u64> = failure.local.map_or(vec![1], |l| vec![l]);
    let failure = check(&reduced, &input, &locals).failure.unwrap_or(failure);
    let source = reduced.source();
    let kernel_test = match (&failure.class, failure.local, &failure.expected) {
        (Class::Mismatch(..), Some(local), Some(want)) => Some(kernel_test(
            seed,
            &source,
            &reduced.shape,
            &input,
            local,
            want,
        )),
        _ => None,
    };
    tally.found.push(Found {
        seed,
        statements: (before, reduced.statements()),
        reproducer: reproducer(seed, &source, &reduced.shape, &input, &failure),
        kernel_test,
        failure,
    });
}
