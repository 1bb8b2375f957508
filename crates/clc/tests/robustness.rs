//! The front end never panics, loops or overflows its stack: deep nesting gives an error,
//! and bounded random inputs (token soups, mutated corpus files) always come back with a
//! result in bounded time.

use crate::common;
#[path = "common/deep.rs"]
mod deep;

use common::Rng;
use ferrocl_clc::{compile, BuildOptions, Target};
use std::sync::mpsc;
use std::time::Duration;

fn build(src: &str) -> ferrocl_clc::Compilation {
    compile(
        src,
        &BuildOptions::default(),
        &Target::full_profile_cpu(),
        &[],
    )
}

/// Compiles on a fresh thread with the default 2 MiB stack and a time limit.
fn build_bounded(src: String, limit: Duration) -> Result<bool, String> {
    let (tx, rx) = mpsc::channel();
    let probe = src.clone();
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let c = build(&src);
            let _ = tx.send(c.program.is_some());
        })
        .expect("spawn");
    rx.recv_timeout(limit).map_err(|_| {
        let head: String = probe.chars().take(300).collect();
        format!("compile did not finish (panicked or exceeded {limit:?}) on:\n{head}")
    })
}

fn nested(open: &str, mid: &str, close: &str, n: usize) -> String {
    format!(
        "__kernel void k(__global int *o) {{ o[0] = {}{}{}; }}",
        open.repeat(n),
        mid,
        close.repeat(n)
    )
}

#[test]
fn ten_thousand_parentheses_are_an_error_not_a_crash() {
    let src = nested("(", "1", ")", 10_000);
    let ok = build_bounded(src, Duration::from_secs(20)).expect("finishes");
    assert!(!ok);
    let c = build(&nested("(", "1", ")", 10_000));
    assert!(c.log.contains("nesting level exceeded"), "{}", c.log);
}

#[test]
fn deep_unary_operators_blocks_and_casts_are_bounded() {
    for (open, mid, close) in [
        ("-", "1", ""),
        ("!", "1", ""),
        ("(int)", "1", ""),
        ("a[", "0", "]"),
        ("f(", "1", ")"),
    ] {
        let ok = build_bounded(nested(open, mid, close, 5000), Duration::from_secs(20))
            .expect("finishes");
        assert!(!ok, "{open}");
    }
    let blocks = format!(
        "__kernel void k() {{ {} {} }}",
        "{".repeat(5000),
        "}".repeat(5000)
    );
    assert!(!build_bounded(blocks, Duration::from_secs(20)).expect("finishes"));
    let ifs = format!(
        "__kernel void k(int x) {{ {} x = 1; }}",
        "if (x) ".repeat(5000)
    );
    assert!(!build_bounded(ifs, Duration::from_secs(20)).expect("finishes"));
    let ptrs = format!("__kernel void k() {{ int {}p; }}", "*".repeat(5000));
    assert!(build_bounded(ptrs, Duration::from_secs(20)).is_ok());
    let inits = format!(
        "__kernel void k() {{ int a = {}1{}; }}",
        "{".repeat(5000),
        "}".repeat(5000)
    );
    assert!(build_bounded(inits, Duration::from_secs(20)).is_ok());
}

#[test]
fn moderate_nesting_still_compiles() {
    let c = build(&nested("(", "1", ")", 100));
    assert!(c.program.is_some(), "{}", c.log);
}

#[test]
fn recursive_macros_terminate() {
    let src = "#define a b\n#define b a\n#define f(x) f(x) g(x)\n__kernel void k(__global int *o) { int a = 1; o[0] = a; f(1); }";
    assert!(build_bounded(src.to_string(), Duration::from_secs(10)).is_ok());
    let self_include = "#include \"self.h\"\n";
    let c = compile(
        self_include,
        &BuildOptions::default(),
        &Target::full_profile_cpu(),
        &[("self.h".to_string(), "#include \"self.h\"\n".to_string())],
    );
    assert!(c.log.contains("nested too deeply"), "{}", c.log);
}

const TOKENS: &[&str] = &[
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    ".",
    "->",
    "+",
    "-",
    "*",
    "/",
    "%",
    "=",
    "==",
    "<",
    ">>=",
    "&&",
    "||",
    "?",
    ":",
    "!",
    "~",
    "++",
    "--",
    "&",
    "|",
    "^",
    "#",
    "##",
    "\n#define X ",
    "\n#if 1\n",
    "\n#endif\n",
    "\n#else\n",
    "\n#include \"a.h\"\n",
    "int",
    "float4",
    "char",
    "void",
    "__kernel",
    "__global",
    "__local",
    "__constant",
    "const",
    "struct",
    "union",
    "enum",
    "typedef",
    "if",
    "else",
    "for",
    "while",
    "do",
    "switch",
    "case",
    "default",
    "return",
    "break",
    "continue",
    "goto",
    "sizeof",
    "vec_step",
    "x",
    "y",
    "k",
    "get_global_id",
    "sin",
    "convert_int4",
    "as_float",
    "0",
    "1",
    "0x1p3f",
    "1.5h",
    "'a'",
    "\"s\"",
    ".xyzw",
    ".s0123",
    ".lo",
    "__attribute__((aligned(16)))",
    "(float4)(1,2,3,4)",
    "image2d_t",
    "sampler_t",
    "read_only",
    "...",
    "\\\n",
    "/*",
    "*/",
    "//",
    "@",
    "$",
    "\"",
    "é",
    "∑x",
    "\u{feff}",
    "<:",
    "%:",
    "pipe",
    "generic",
    "__generic",
    "_Pragma(\"unroll\")",
    "#pragma unroll\n",
];

#[test]
fn random_token_soups_never_crash() {
    let mut rng = Rng(std::env::var("FERROCL_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x9E37_79B9_7F4A_7C15));
    for _ in 0..iterations(1000) {
        let n = 1 + rng.next() % 120;
        let mut s = String::new();
        for _ in 0..n {
            s.push_str(rng.pick(TOKENS));
            s.push(' ');
        }
        build_bounded(s, Duration::from_secs(10)).expect("bounded");
    }
}

#[test]
fn mutated_corpus_files_never_crash() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut files: Vec<String> = Vec::new();
    for dir in [
        "corpus/valid",
        "corpus/invalid",
        "fixtures",
        "filetests/sema",
    ] {
        if let Ok(rd) = std::fs::read_dir(root.join(dir)) {
            files.extend(
                rd.filter_map(|e| e.ok())
                    .filter(|e| e.path().extension().is_some_and(|x| x == "cl"))
                    .filter_map(|e| std::fs::read_to_string(e.path()).ok()),
            );
        }
    }
    files.sort();
    if files.is_empty() {
        files
            .push("__kernel void k(__global float *o) { o[get_global_id(0)] = sin(1.0f); }".into());
    }
    let mut rng = Rng(std::env::var("FERROCL_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0xD1B5_4A32_D192_ED03));
    for i in 0..iterations(600) {
        let base = files[i % files.len()].as_bytes().to_vec();
        let mut bytes = base;
        for _ in 0..1 + rng.next() % 8 {
            if bytes.is_empty() {
                break;
            }
            let at = (rng.next() % bytes.len() as u64) as usize;
            match rng.next() % 4 {
                0 => {
                    bytes.remove(at);
                }
                1 => bytes.insert(at, b"(){};,*#\"'\\/"[(rng.next() % 12) as usize]),
                2 => {
                    let len = (rng.next() % 40) as usize;
                    let end = (at + len).min(bytes.len());
                    bytes.drain(at..end);
                }
                _ => {
                    let tok = rng.pick(TOKENS).as_bytes().to_vec();
                    for (k, b) in tok.into_iter().enumerate() {
                        bytes.insert(at + k, b);
                    }
                }
            }
        }
        let s = String::from_utf8_lossy(&bytes).into_owned();
        build_bounded(s, Duration::from_secs(10)).expect("bounded");
    }
}

#[test]
fn macro_and_include_bombs_are_errors() {
    let mut src = String::from("#define A0 x\n");
    for i in 1..40 {
        src.push_str(&format!("#define A{i} A{} A{}\n", i - 1, i - 1));
    }
    src.push_str("A39\n");
    let c = compile(
        &src,
        &BuildOptions::default(),
        &Target::full_profile_cpu(),
        &[],
    );
    assert!(
        c.log.contains("macro expansion produces too many tokens"),
        "{}",
        c.log
    );
    let header = (
        "b.h".to_string(),
        "#include \"b.h\"\n#include \"b.h\"\n".to_string(),
    );
    let c = compile(
        "#include \"b.h\"\n",
        &BuildOptions::default(),
        &Target::full_profile_cpu(),
        &[header],
    );
    assert!(c.program.is_none());
}

#[test]
fn extreme_sizes_and_numbers_do_not_overflow() {
    for src in [
        "__kernel void k() { int a[0x7fffffffffffffff][0x7fffffffffffffff]; ulong s = sizeof(a); }",
        "struct S { char c[0x4000000000000000]; char d[0x4000000000000000]; char e[0x4000000000000000]; }; __kernel void k() { ulong s = sizeof(struct S); }",
        "#line 4294967295\n__kernel void k() { x; }",
        "__kernel void k() { long x = -9223372036854775807 - 1; long y = x / -1; int z = 0x7fffffff + 1; }",
        "#if -9223372036854775807 - 1 / -1\n#endif\n__kernel void k() {}",
        "__kernel void k() { int a[] = { [1000000] = 1 }; }",
    ] {
        build_bounded(src.to_string(), Duration::from_secs(20)).expect("bounded");
    }
}

/// Fuzz iterations: the default, or `FERROCL_FUZZ_ITERS` for longer runs by hand.
fn iterations(default: usize) -> usize {
    std::env::var("FERROCL_FUZZ_ITERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

#[test]
fn many_functions_and_calls_check_quickly() {
    // The recursion check is linear in the call graph.
    let mut src = String::from("int f0(int x) { return x; }\n");
    for i in 1..3000 {
        src.push_str(&format!(
            "int f{i}(int x) {{ return f{}(x) + f{}(x); }}\n",
            i - 1,
            i / 2
        ));
    }
    src.push_str("__kernel void k(__global int *o) { o[0] = f2999(1); }\n");
    let start = std::time::Instant::now();
    let c = compile(
        &src,
        &BuildOptions::default(),
        &Target::full_profile_cpu(),
        &[],
    );
    assert!(c.program.is_some(), "{}", c.log);
    assert!(start.elapsed() < Duration::from_secs(20));
}

#[test]
fn sparse_initializers_of_huge_arrays_stay_small() {
    // A far designator is an error of this implementation, not a huge allocation.
    let src = "__constant int big[100000000] = { [99999999] = 1 }; __kernel void k(__global int *o) { o[0] = big[99999999]; }";
    assert!(!build_bounded(src.to_string(), Duration::from_secs(20)).expect("bounded"));
    let src = "__constant int big[100000000] = { [1000] = 1 }; __kernel void k(__global int *o) { o[0] = big[1000]; }";
    assert!(build_bounded(src.to_string(), Duration::from_secs(20)).expect("bounded"));
}

/// The deepest program of each kind the caps accept (found by bisection) builds through the
/// whole driver on a thread with Rust's default 2 MiB stack, which `ferrocl_clc::stack`
/// counts on: the compiler runs there itself when its measured need fits. A stack overflow
/// aborts this test binary.
#[test]
fn the_deepest_programs_the_caps_accept_build_on_a_2_mib_stack() {
    let options = ferrocl_clc::build::parse_options("").expect("no options");
    let target = Target::full_profile_cpu();
    let builds = |src: String| {
        let (options, target) = (options.clone(), target.clone());
        std::thread::Builder::new()
            .stack_size(ferrocl_clc::stack::CALLER_STACK)
            .spawn(move || {
                ferrocl_clc::build(&src, &options, &target, &[], &ferrocl_builtins::library).is_ok()
            })
            .expect("spawn")
            .join()
            .expect("no panic")
    };
    for (name, make) in deep::CASES {
        let (mut lo, mut hi) = (0usize, 8192usize);
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if builds(make(mid)) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        // The caps, not something else, end each kind: a real depth built.
        assert!(lo >= 120, "{name}: only {lo} levels build");
    }
}
