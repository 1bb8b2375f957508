//! The generated code's bytes, for profiling: with `FERROCL_CODE_DIR=DIR` in the environment,
//! each compiled kernel's work-group function is written to `DIR/NAME.bin`, and its start and
//! length are printed to standard error. Under `perf record` (which sets `PERF_BUILDID_DIR`),
//! Cranelift's JIT names the functions in `/tmp/perf-PID.map`, so `perf report` attributes
//! samples to kernels; `scripts/annotate-jit.py` matches the sampled addresses with the
//! disassembled bytes, instruction by instruction.

use std::path::PathBuf;

/// The directory `FERROCL_CODE_DIR` names, if it is set.
pub fn wanted() -> Option<PathBuf> {
    std::env::var_os("FERROCL_CODE_DIR").map(PathBuf::from)
}

/// Writes each kernel's bytes (`code`: start, length in bytes, kernel name) to `dir`.
/// Failures to write are ignored: profiling output never changes what a build does.
///
/// # Safety
/// Each start must point to that many bytes of finalized code.
pub unsafe fn record(dir: &std::path::Path, code: &[(*const u8, usize, &str)]) {
    let _ = std::fs::create_dir_all(dir);
    for &(start, len, name) in code {
        eprintln!(
            "ferrocl: kernel {name} at {:x}, {len} bytes",
            start as usize
        );
        // SAFETY: the caller's guarantee.
        let bytes = unsafe { std::slice::from_raw_parts(start, len) };
        let _ = std::fs::write(dir.join(format!("{name}.bin")), bytes);
    }
}
