//! Device-independent optimization passes and the pass manager that runs them.
//!
//! Each pass takes a verified module and leaves a verified module that computes the same
//! results (bit for bit, NaN payloads and signed zeros included, except where the OpenCL C
//! specification leaves a result unspecified). The manager runs the verifier after every
//! pass when asked (always in debug builds and tests) and times each pass by name.

pub mod cse;
pub mod dce;
pub mod divrem;
pub mod fold;
pub mod half;
pub mod if_convert;
pub mod inline;
pub mod known;
pub mod licm;
pub mod load_elim;
pub mod mem2reg;
pub mod offsets;
pub mod spaces;
pub mod split;
pub mod strip;
pub mod unroll;
pub mod widen;

use std::time::{Duration, Instant};

use crate::module::Module;
use crate::verify::{verify_module, VerifyError};

/// A transformation of a module.
pub type PassFn = fn(&mut Module);

/// The passes after which [`crate::Function::no_signed_wrap`] still holds (none of them
/// rewrites an integer operation), and `widen`, which reads it; any other pass clears it.
const KEEP_NO_SIGNED_WRAP: [&str; 4] = ["strip", "half", "mem2reg", "widen"];

/// The passes by name (`PassManager::standard` says in which order they run).
pub const PASSES: [(&str, PassFn); 20] = [
    ("half", half::run),
    ("inline", inline::run),
    ("inline_and_clean", inline::run_and_clean),
    ("mem2reg", mem2reg::run),
    ("fold", fold::run),
    ("dce", dce::run),
    ("divrem", divrem::run),
    ("simplify_cfg", dce::simplify_cfg),
    ("cse", cse::run),
    ("licm", licm::run),
    ("unroll", unroll::run),
    ("unroll_partial", unroll::partial),
    ("if_convert", if_convert::run),
    ("strip", strip::run),
    ("load_elim", load_elim::run),
    ("offsets", offsets::run),
    ("known", known::run),
    ("split", split::run),
    ("spaces", spaces::run),
    ("widen", widen::run),
];

/// The pass named `name`.
pub fn pass_by_name(name: &str) -> Option<PassFn> {
    PASSES.iter().find(|(n, _)| *n == name).map(|&(_, f)| f)
}

/// A pass that broke the IR contract, with the verifier's findings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PassError {
    /// The pass.
    pub pass: String,
    /// What the verifier found after it.
    pub errors: Vec<VerifyError>,
}

impl std::fmt::Display for PassError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "IR invalid after pass {}:", self.pass)?;
        for e in &self.errors {
            writeln!(f, "  {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for PassError {}

/// Runs passes in order, verifying after each when `verify` is set.
pub struct PassManager {
    passes: Vec<(String, PassFn)>,
    /// Whether to run the verifier after each pass (default: in debug builds).
    pub verify: bool,
    /// Time spent in each pass run, in order.
    pub timings: Vec<(String, Duration)>,
    /// The name under which each pass's time and the module's size after it are reported,
    /// when `FERROCL_BUILD_TIMES` asks for it ([`crate::timing`]); `None`: not reported.
    pub report: Option<String>,
}

impl Default for PassManager {
    fn default() -> Self {
        PassManager::new()
    }
}

impl PassManager {
    /// An empty pipeline.
    pub fn new() -> PassManager {
        PassManager {
            passes: Vec::new(),
            verify: cfg!(debug_assertions),
            timings: Vec::new(),
            report: None,
        }
    }

    /// The standard pipeline: drop the functions no kernel reaches (in a module with
    /// kernels), so that no pass works on them; rewrite `half` arithmetic as float arithmetic
    /// (`half`, the legalization every device relies on); promote stack slots, compute the
    /// `int` offsets of addresses in 64 bits (`widen`, which reads the front end's marks of
    /// signed arithmetic before any pass rewrites what they mark) and clean up each
    /// function on its own, so that what inlining copies is small (folding waits for the
    /// inlined kernels: folded callees gave kernels on which the CPU code generator's
    /// register allocator took several times longer); inline into kernels,
    /// drop the functions left without callers, promote stack slots again, resolve generic
    /// accesses to the named spaces their pointers come from, then fold, promote the slots
    /// whose offsets folding made constant (a private array indexed by constant expressions),
    /// recombine quotients and remainders, clean up, remove redundant loads and expressions,
    /// hoist loop invariants, unroll small counted loops, fold and promote again (the
    /// unrolled copies index arrays by constants), turn small branches into selects and
    /// clean up again.
    pub fn standard() -> PassManager {
        let mut pm = PassManager::new();
        for name in [
            "strip",
            "half",
            "mem2reg",
            "widen",
            "simplify_cfg",
            "dce",
            "cse",
            "inline_and_clean",
            "strip",
            "mem2reg",
            "spaces",
            "fold",
            "mem2reg",
            "divrem",
            "simplify_cfg",
            "dce",
            "cse",
            "load_elim",
            "licm",
            "unroll",
            "simplify_cfg",
            "fold",
            "mem2reg",
            "if_convert",
            "simplify_cfg",
            "dce",
            "cse",
        ] {
            pm.add(name).expect("standard pass exists");
        }
        pm
    }

    /// Appends the pass named `name`; `false` if there is none.
    pub fn add(&mut self, name: &str) -> Option<()> {
        let f = pass_by_name(name)?;
        self.passes.push((name.to_string(), f));
        Some(())
    }

    /// Appends a pass that is not in the registry (a device's own pass, say).
    pub fn add_fn(&mut self, name: &str, f: PassFn) {
        self.passes.push((name.to_string(), f));
    }

    /// The passes in the order they run.
    pub fn passes(&self) -> Vec<(String, PassFn)> {
        self.passes.clone()
    }

    /// Runs the pipeline.
    pub fn run(&mut self, module: &mut Module) -> Result<(), PassError> {
        let report = self.report.as_ref().filter(|_| crate::timing::enabled());
        for (name, f) in &self.passes {
            let start = Instant::now();
            f(module);
            if !KEEP_NO_SIGNED_WRAP.contains(&name.as_str()) {
                // A pass that may rewrite arithmetic in place could leave a mark on an
                // instruction it no longer describes: marks last only across these passes.
                for (_, func) in module.funcs.iter_mut() {
                    func.no_signed_wrap.clear();
                }
            }
            let spent = start.elapsed();
            self.timings.push((name.clone(), spent));
            if let Some(label) = report {
                let size = crate::timing::module_size(module);
                crate::timing::report(
                    &format!("{label} {name}"),
                    spent,
                    &format!("{size} instructions after"),
                );
            }
            if self.verify {
                verify_module(module).map_err(|errors| PassError {
                    pass: name.clone(),
                    errors,
                })?;
            }
        }
        Ok(())
    }

    /// Total time per pass name, in first-run order.
    pub fn total_by_name(&self) -> Vec<(String, Duration)> {
        let mut out: Vec<(String, Duration)> = Vec::new();
        for (n, d) in &self.timings {
            match out.iter_mut().find(|(m, _)| m == n) {
                Some((_, t)) => *t += *d,
                None => out.push((n.clone(), *d)),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::PassManager;
    use crate::parse_module;

    /// The standard pipeline's first pass removes the functions no kernel reaches, so that no
    /// later pass spends time on them.
    #[test]
    fn unreached_functions_go_before_any_other_pass() {
        let mut m = parse_module(
            "func @unused(i32) -> i32 {\n    ss0 = slot 4, align 4\nblock0(v0: i32):\n\
             \x20   v1: ptr.private = slotaddr ss0\n    store.private v0, v1, align 4\n\
             \x20   v2: i32 = load.private v1, align 4\n    return v2\n}\n\
             kernel @k(ptr.global) {\n    arg \"p\": \"int*\" global none []\n\
             block0(v0: ptr.global):\n    return\n}\n",
        )
        .expect("parses");
        let passes = PassManager::standard().passes();
        let (name, first) = &passes[0];
        first(&mut m);
        assert!(
            m.funcs.values().all(|f| f.name != "unused"),
            "{name} left @unused in place"
        );
    }

    /// A private array indexed by constant expressions (`arr[(y + 1) * 5 + x]` once unrolled
    /// or macro-expanded) is promoted: its offsets are constants only after folding, so the
    /// pipeline promotes again after it; before, such arrays stayed in memory, and kernels
    /// with private arrays run a work-item at a time (OpenCV's `pyrUp_cols2`).
    #[test]
    fn arrays_indexed_by_folded_constants_are_promoted() {
        let mut m = parse_module(
            "kernel @k(ptr.global, i32) {\n    arg \"p\": \"int*\" global none []\n\
             \x20   arg \"x\": \"int\" private none []\n    ss0 = slot 8, align 4\n\
             block0(v0: ptr.global, v1: i32):\n    v2: ptr.private = slotaddr ss0\n\
             \x20   v3: i64 = iconst 1\n    v4: i64 = iconst 4\n    v5: i64 = imul v3, v4\n\
             \x20   v6: ptr.private = ptradd v2, v5\n    store.private v1, v6, align 4\n\
             \x20   v7: i32 = load.private v6, align 4\n    store.global v7, v0, align 4\n\
             \x20   return\n}\n",
        )
        .expect("parses");
        PassManager::standard()
            .run(&mut m)
            .expect("the pipeline runs");
        let k = m
            .funcs
            .values()
            .find(|f| f.name == "k")
            .expect("the kernel");
        assert_eq!(k.slots.len(), 0, "the array stayed in memory");
    }
}
