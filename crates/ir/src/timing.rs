//! Build-time reports. With `FERROCL_BUILD_TIMES` set to anything but `0`, each stage of a
//! program's build writes a line to stderr when it ends: the front end's stages, lowering, the
//! builtin library's linking, each IR pass (with the module's instructions after it), what
//! full unrolling did to each function, and each device's stages per kernel. Unset, each
//! report point costs one test of a flag read once; the clocks the stages read for their own
//! timings (`PassManager::timings`, the CPU device's stage times) run either way.
//!
//! A line is `ferrocl-time: STAGE  MILLISECONDS ms  DETAIL`, or `ferrocl-time: STAGE  DETAIL`
//! for a line that reports sizes only.

use std::sync::OnceLock;
use std::time::Duration;

use crate::function::Function;
use crate::module::Module;

/// Whether `FERROCL_BUILD_TIMES` asks for the reports (read once per process).
pub fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| {
        std::env::var_os("FERROCL_BUILD_TIMES").is_some_and(|v| !v.is_empty() && v != "0")
    })
}

/// Writes a stage's time and `detail` to stderr, when [`enabled`].
pub fn report(stage: &str, time: Duration, detail: &str) {
    if enabled() {
        eprintln!(
            "ferrocl-time: {stage:<32} {:10.3} ms  {detail}",
            time.as_secs_f64() * 1e3
        );
    }
}

/// Writes `detail` about `stage` to stderr, when [`enabled`].
pub fn note(stage: &str, detail: &str) {
    if enabled() {
        eprintln!("ferrocl-time: {stage:<32} {detail}");
    }
}

/// The instructions placed in `f`.
pub fn function_size(f: &Function) -> usize {
    f.layout
        .blocks()
        .iter()
        .map(|&b| f.layout.block_insts(b).len())
        .sum()
}

/// The instructions placed in the functions of `m`.
pub fn module_size(m: &Module) -> usize {
    m.funcs.values().map(function_size).sum()
}
