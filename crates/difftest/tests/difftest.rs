//! The differential tester as a test: a fixed set of seeds, each generated kernel run in the
//! interpreter and on the CPU device scalar and vectorized at every local size, must give the
//! same outputs everywhere; a failure is reduced and its reproducer printed. Beside it, the
//! checks that the comparison can fail at all, that the reducer keeps a failure while it
//! shrinks the program, and that the generator makes the shapes it is meant to.

use std::time::{Duration, Instant};

use ferrocl_difftest::campaign::{run_seed, Tally};
use ferrocl_difftest::check::{check_source, compare, Class};
use ferrocl_difftest::gen::generate;
use ferrocl_difftest::program::{Guard, Shape, Stmt};
use ferrocl_difftest::reduce::reduce;
use ferrocl_difftest::run::{
    build, compile_cpu, input, run_cpu, run_interpreter, Engine, LOCAL_SIZES,
};

/// Seeds the test runs: about a minute in a debug build on two cores.
const SEEDS: std::ops::Range<u64> = 0..100;

#[test]
fn generated_kernels_agree_on_every_engine() {
    let mut tally = Tally::default();
    for seed in SEEDS {
        run_seed(seed, Duration::from_secs(60), &mut tally);
    }
    let mut report = String::new();
    for f in &tally.found {
        report.push_str(&format!(
            "\n=== seed {}: {} (reduced from {} to {} statements)\n{}",
            f.seed, f.failure.class, f.statements.0, f.statements.1, f.reproducer
        ));
    }
    assert!(
        tally.found.is_empty(),
        "{}{report}\nrerun one with `cargo run -p ferrocl-difftest -- --seeds N..N+1`",
        tally.summary()
    );
    assert_eq!(tally.kernels, SEEDS.count());
    assert_eq!(tally.runs, SEEDS.count() * LOCAL_SIZES.len() * 3);
    // The epilogue's `uchar4` round trip through `out` reaches the rewrite that cancels the
    // vectorized code's regrouping, in the kernels that are vectorized.
    assert!(ferrocl_cpu::vectorize::regrouped_count() > 0);
}

/// A small kernel of the generated kernels' signature.
const SMALL: &str = "
kernel void k(global uint *out, global const uint *in, global uint *acc, uint n) {
    local uint lm[128];
    lm[get_local_id(0)] = in[get_global_id(0) & 63u] * n;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint x = get_local_id(0) > 0 ? lm[get_local_id(0) - 1] : 7u;
    atomic_add(&acc[0], x);
    out[get_global_id(0)] = x;
}
";

#[test]
fn a_changed_word_is_a_mismatch() {
    let module = build(SMALL).expect("builds");
    let input = input(1);
    let launch = Shape::PLAIN.launch(8);
    let want = run_interpreter(&module, &launch, &input).expect("runs in the interpreter");
    let cpu = compile_cpu(&module, true).expect("compiles");
    let got = run_cpu(&cpu, &launch, &input).expect("runs on the CPU");
    assert_eq!(compare(&want, &[(Engine::Vector, got.clone())]), None);

    let mut wrong = got.clone();
    wrong.out[5] ^= 1 << 7;
    let (class, detail) = compare(
        &want,
        &[(Engine::Scalar, got.clone()), (Engine::Vector, wrong)],
    )
    .expect("a flipped bit is a difference");
    assert_eq!(class, Class::Mismatch(vec![Engine::Vector], "out"));
    assert!(detail.contains("out[5]"), "{detail}");

    let mut wrong = got;
    wrong.acc[0] += 1;
    let (class, _) = compare(&want, &[(Engine::Scalar, wrong)]).expect("acc is compared");
    assert_eq!(class, Class::Mismatch(vec![Engine::Scalar], "acc"));
}

#[test]
fn a_kernel_that_does_not_build_is_a_failure() {
    let plain = &Shape::PLAIN;
    let verdict = check_source(
        "kernel void k(global uint *out) { out[0] = y; }",
        plain,
        &[],
        &[8],
    );
    assert_eq!(verdict.failure.map(|f| f.class), Some(Class::Build));
    let verdict = check_source(SMALL, plain, &input(1), &LOCAL_SIZES);
    assert!(verdict.failure.is_none(), "{:?}", verdict.failure);
}

#[test]
fn the_reducer_keeps_the_failure_and_shrinks() {
    // A stand-in failure: the kernel still calls a global atomic operation.
    let seed = (0..100)
        .find(|&s| generate(s).source().contains("(&acc["))
        .expect("some program has a global atomic");
    let program = generate(seed);
    let fails = |p: &ferrocl_difftest::program::Program| p.source().contains("(&acc[");
    let deadline = Instant::now() + Duration::from_secs(30);
    let (small, _) = reduce(&program, deadline, &mut |p| fails(p));
    assert!(fails(&small));
    assert!(small.statements() < program.statements());
    assert!(small.statements() <= 3, "{}", small.source());
    // The reduced program still builds: the reducer keeps programs valid.
    build(&small.source()).unwrap_or_else(|log| panic!("{log}\n{}", small.source()));
}

/// The generator makes the shape that once gave wrong results vectorized: a uniform value
/// computed in a loop, then, after a barrier, a region guarded on the local id.
#[test]
fn the_generator_makes_guarded_regions_after_uniform_loops() {
    let shaped = |body: &[Stmt]| {
        body.windows(2).any(|w| {
            matches!(w[0], Stmt::For { .. })
                && matches!(
                    &w[1],
                    Stmt::Exchange { guard, .. } | Stmt::Narrow { guard, .. }
                        if matches!(guard, Guard::Gt(_) | Guard::Ge(_) | Guard::Lt(_))
                )
        })
    };
    let count = SEEDS
        .filter(|&s| {
            generate(s)
                .body
                .iter()
                .any(|st| matches!(st, Stmt::If { then, .. } if shaped(then)))
        })
        .count();
    assert!(count >= 10, "{count} programs of the shape");
}

/// Every reproducer the tester saved (`crates/difftest/reproducers`) stays fixed: the bugs
/// they found do not come back.
#[test]
fn saved_reproducers_agree_on_every_engine() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("reproducers");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("the reproducers folder") {
        let path = entry.expect("an entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !name.ends_with(".cl") || name.ends_with(".test.cl") {
            continue;
        }
        let source = std::fs::read_to_string(&path).expect("readable");
        let verdict = ferrocl_difftest::repro::check_reproducer(&source);
        if let Some(f) = verdict.failure {
            panic!("{}: {}\n{}", path.display(), f.class, f.detail);
        }
        checked += 1;
    }
    assert!(checked > 0, "no reproducer in {}", dir.display());
}

/// The generator launches over two and three dimensions, with global offsets and with
/// non-uniform work-groups, and a reproducer keeps the shape it ran in.
#[test]
fn the_generator_makes_every_shape_of_ndrange() {
    let shapes: Vec<Shape> = SEEDS.map(|s| generate(s).shape).collect();
    let count = |f: &dyn Fn(&Shape) -> bool| shapes.iter().filter(|s| f(s)).count();
    assert!(count(&|s| s.dims == 2) >= 10);
    assert!(count(&|s| s.dims == 3) >= 10);
    assert!(count(&|s| s.offset != [0; 3]) >= 10);
    let ragged = |s: &Shape| {
        let l = s.launch(8);
        (0..3).any(|d| l.global[d] % l.local[d] != 0)
    };
    assert!(count(&ragged) >= 10);
    for s in &shapes {
        assert_eq!(Shape::parse(&s.text()).as_ref(), Some(s));
        for local in LOCAL_SIZES {
            let l = s.launch(local);
            let group: u64 = l.local.iter().product();
            assert!(group as usize <= ferrocl_difftest::program::LOCAL_WORDS);
        }
    }
}

/// Sub-group functions need be reached only by the work-items of the sub-group (OpenCL C
/// 6.15.19): the interpreter, the reference, runs one the second sub-group alone reaches.
#[test]
fn a_sub_group_function_one_sub_group_reaches_runs_in_the_interpreter() {
    let source = "
kernel void k(global uint *out, global const uint *in, global uint *acc, uint n) {
    uint x = 0u;
    if (get_sub_group_id() == 1u)
        x = sub_group_reduce_add((uint)get_local_id(0));
    out[get_global_id(0)] = x;
}
";
    let module = build(source).expect("builds");
    let launch = Shape::PLAIN.launch(12);
    let got = run_interpreter(&module, &launch, &input(0)).expect("runs in the interpreter");
    // Sub-groups of 8: the second holds local ids 8 to 11.
    let group: Vec<u32> = (0..12).map(|l| if l < 8 { 0 } else { 38 }).collect();
    assert_eq!(got.out, [group.clone(), group].concat());
    let cpu = compile_cpu(&module, true).expect("compiles");
    assert_eq!(
        run_cpu(&cpu, &launch, &input(0)).expect("runs").out,
        got.out
    );
}

/// The generator calls sub-group functions under conditions on the sub-group id,
/// synchronizes inside a helper function, and reads the exchange array (a `__local` pointer
/// argument) shifted back under a guard, as a prefix sum's step does.
#[test]
fn the_generator_makes_sub_group_functions_and_helper_barriers() {
    let sources: Vec<String> = SEEDS.map(|s| generate(s).source()).collect();
    let count = |needle: &str| sources.iter().filter(|s| s.contains(needle)).count();
    let sub_ifs = sources
        .iter()
        .filter(|s| {
            s.lines().any(|l| {
                let l = l.trim_start();
                l.starts_with("if (") && l.contains("sub_group_") && !l.contains("return")
            })
        })
        .count();
    assert!(sub_ifs >= 5, "{sub_ifs}");
    assert!(count("sub_group_barrier") >= 5);
    assert!(count("= xchg(lm") >= 10);
    assert!(count("? lm[(uint)") >= 5);
    assert!(count("local uint *lm)") == sources.len());
    assert!(count("return;") >= 5);
    assert!(count("vload4(") >= 10);
}

/// The reproducers of bugs not yet fixed (`crates/difftest/open`, beside their kernel test
/// files `*.test.cl`) still fail; one that passes belongs in `reproducers` now.
#[test]
fn open_reproducers_still_fail() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("open");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    for entry in entries {
        let path = entry.expect("an entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !name.ends_with(".cl") || name.ends_with(".test.cl") {
            continue;
        }
        let source = std::fs::read_to_string(&path).expect("readable");
        let verdict = ferrocl_difftest::repro::check_reproducer(&source);
        assert!(
            verdict.failure.is_some(),
            "{} passes now: move it to reproducers",
            path.display()
        );
    }
}
