//! The differential tester against the CPU device's wide-vector tier: lean programs (no
//! private arrays, structures, small vectors, narrow integers, atomics or sub-group
//! functions: `gen::set_lean`) run by the tester's binary with the tier offered every
//! work-group function (`FERROCL_WIDE=all`) and the vectorized engine at the tier's width
//! (`FERROCL_VECTOR_WIDTH`: 16 lanes with AVX-512, 8 with AVX2), so that the tier's code for
//! scalar and for vector functions is compared with the interpreter's results. The binary
//! runs in its own process, since the device reads those variables once per process. Where
//! the host has neither the tier is off and the run checks Cranelift's code only. Some of
//! the programs have a region the work-group transform runs several chunks at a time (the
//! generator's recurrences): the run must have made such code, so that it compares it.

use std::process::Command;

/// Seeds the test runs: under a minute in a debug build on two cores.
const SEEDS: &str = "0..80";

#[test]
fn lean_programs_agree_with_the_wide_tier() {
    let out = std::env::temp_dir().join(format!("ferrocl-difftest-wide-{}", std::process::id()));
    let run = Command::new(env!("CARGO_BIN_EXE_ferrocl-difftest"))
        .args(["--lean", "--seeds", SEEDS, "--reduce", "30", "--out"])
        .arg(&out)
        .env("FERROCL_WIDE", "all")
        .env(
            "FERROCL_VECTOR_WIDTH",
            ferrocl_cpu::wide::width().to_string(),
        )
        .output()
        .expect("the tester runs");
    let text = String::from_utf8_lossy(&run.stdout);
    let _ = std::fs::remove_dir_all(&out);
    assert!(
        run.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(text.contains("failures: 0"), "{text}");
    assert!(
        count(&text, "several chunks at a time: ") > 0,
        "no region ran several chunks at a time:\n{text}"
    );
    if ferrocl_cpu::wide::host_supports() {
        // The tier must have compiled some of the programs' functions, or the run proved
        // nothing of it.
        assert!(
            count(&text, "wide tier: ") > 0,
            "the tier compiled no function:\n{text}"
        );
    }
}

/// The number the tester's summary line starting with `label` begins with (0 without one).
fn count(text: &str, label: &str) -> u64 {
    text.lines()
        .find_map(|l| l.strip_prefix(label))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}
