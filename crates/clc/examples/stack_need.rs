//! Measures the stack the compiler needs for the deepest programs its caps accept (the cases of
//! `tests/common/deep.rs`): for each, the deepest nesting that still builds, then the smallest
//! thread stack (in 64 KiB steps) on which the whole build (front end, lowering, builtin
//! library, passes) finishes, each try in a child process (a stack overflow aborts the
//! process). `ferrocl_clc::stack::COMPILER_STACK` is set from what this prints.
//!
//! `[FRONT=1] cargo run -p ferrocl-clc --example stack_need [--release] [-- NAME...]` (NAME:
//! only the cases whose name contains it; FRONT=1: the front end and lowering only, what
//! `COMPILER_STACK` covers, instead of the whole build).

#[path = "../tests/common/deep.rs"]
mod deep;

use ferrocl_clc::build::{build, parse_options};
use ferrocl_clc::stack::on_this_thread;
use ferrocl_clc::Target;
use std::process::Command;

const STEP: usize = 64 << 10;

/// Builds `src` on this thread; whether it built.
fn builds(src: &str) -> bool {
    let options = parse_options("").expect("no options");
    let target = Target::full_profile_cpu();
    on_this_thread(|| {
        if std::env::var_os("FRONT").is_some() {
            return ferrocl_clc::build::compile_object(src, &options, &target, &[]).is_ok();
        }
        build(src, &options, &target, &[], &ferrocl_builtins::library).is_ok()
    })
}

/// Builds `src` on a thread of `stack` bytes (in a child process).
fn fits(case: usize, n: usize, stack: usize) -> bool {
    let exe = std::env::current_exe().expect("own path");
    let status = Command::new(exe)
        .args([
            "--child",
            &case.to_string(),
            &n.to_string(),
            &stack.to_string(),
        ])
        .stderr(std::process::Stdio::null())
        .status()
        .expect("child runs");
    status.success()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() == 5 && args[1] == "--child" {
        let (case, n, stack): (usize, usize, usize) = (
            args[2].parse().expect("case"),
            args[3].parse().expect("n"),
            args[4].parse().expect("stack"),
        );
        let src = (deep::CASES[case].1)(n);
        let h = std::thread::Builder::new()
            .stack_size(stack)
            .spawn(move || builds(&src))
            .expect("thread");
        h.join().expect("no panic");
        return;
    }
    let filters = &args[1..];
    let mut worst = 0;
    for (case, (name, make)) in deep::CASES.iter().enumerate() {
        if !filters.is_empty() && !filters.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        // The deepest n that builds (on a stack large enough for anything).
        let big = std::thread::Builder::new().stack_size(1 << 30);
        let deepest = big
            .spawn(move || {
                let (mut lo, mut hi) = (0usize, 8192usize);
                while lo < hi {
                    let mid = (lo + hi).div_ceil(2);
                    if builds(&make(mid)) {
                        lo = mid;
                    } else {
                        hi = mid - 1;
                    }
                }
                lo
            })
            .expect("thread")
            .join()
            .expect("no panic");
        let (mut lo, mut hi) = (1usize, (1usize << 30) / STEP);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if fits(case, deepest, mid * STEP) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        let need = lo * STEP;
        worst = worst.max(need);
        println!("{name:20} n = {deepest:5}  stack {:6} KiB", need >> 10);
    }
    println!("largest need: {} KiB", worst >> 10);
}
