//! Full unrolling stays within its budget per function (`unroll::FUNCTION_BUDGET`): a function
//! of many small counted loops gets as many unrolled as the budget holds and keeps the rest as
//! loops; where the budget is short, the loops that add the fewest instructions go first, and
//! an inner loop before the loop around it; a loop that indexes a private array draws on a
//! budget of its own (`unroll::PRIVATE_BUDGET`). Each function computes in the interpreter what
//! it computed before.

use std::fmt::Write;

use ferrocl_ir::analysis::{Cfg, DomTree, LoopInfo};
use ferrocl_ir::interp::{Interpreter, Val};
use ferrocl_ir::passes::unroll::{self, FUNCTION_BUDGET};
use ferrocl_ir::timing::function_size;
use ferrocl_ir::{parse_module, verify_module, Function, Module};

/// One loop of a generated function: its trip count and the extra instructions of its body.
#[derive(Clone, Copy)]
struct Spec {
    trips: u32,
    extra: usize,
}

/// The instructions of a loop of `extra` extra instructions: the header's `icmp` and `brif`,
/// the body's `imul`, `bxor`, the extra `iadd`s, the sum, the step and the `jump`.
fn loop_size(extra: usize) -> usize {
    2 + 2 + extra + 3
}

/// `func @f(i32 x, i32 acc) -> i32` running `loops` one after another, each
/// `for (i = 0; i < trips; i++) { t = i ^ x; t += x (extra times); acc = acc * 31 + t; }`,
/// then returning `acc`.
fn sequence(loops: &[Spec]) -> String {
    let mut s = String::from("func @f(i32, i32) -> i32 {\nblock0(v0: i32, v1: i32):\n");
    s.push_str("    v2: i32 = iconst 0\n    v3: i32 = iconst 1\n    v4: i32 = iconst 31\n");
    let mut v = 5usize;
    let limits: Vec<usize> = loops
        .iter()
        .map(|l| {
            let _ = writeln!(s, "    v{v}: i32 = iconst {}", l.trips);
            v += 1;
            v - 1
        })
        .collect();
    let _ = writeln!(s, "    jump block1(v2, v1)");
    for (j, l) in loops.iter().enumerate() {
        let (h, b) = (1 + 2 * j, 2 + 2 * j);
        let next = 3 + 2 * j;
        let (i, a, c) = (v, v + 1, v + 2);
        v += 3;
        let _ = write!(
            s,
            "block{h}(v{i}: i32, v{a}: i32):\n    v{c}: i1 = icmp slt v{i}, v{}\n    \
             brif v{c}, block{b}, block{next}(v2, v{a})\nblock{b}:\n    \
             v{v}: i32 = imul v{a}, v4\n    v{}: i32 = bxor v{i}, v0\n",
            limits[j],
            v + 1,
        );
        let mut t = v + 1;
        v += 2;
        for _ in 0..l.extra {
            let _ = writeln!(s, "    v{v}: i32 = iadd v{t}, v0");
            t = v;
            v += 1;
        }
        let _ = write!(
            s,
            "    v{v}: i32 = iadd v{}, v{t}\n    v{}: i32 = iadd v{i}, v3\n    \
             jump block{h}(v{}, v{v})\n",
            v - l.extra - 2,
            v + 1,
            v + 1,
        );
        v += 2;
    }
    let last = 1 + 2 * loops.len();
    let _ = write!(
        s,
        "block{last}(v{v}: i32, v{}: i32):\n    return v{}\n}}\n",
        v + 1,
        v + 1
    );
    s
}

fn module(text: &str) -> Module {
    let m = parse_module(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    verify_module(&m).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    m
}

fn func(m: &Module) -> &Function {
    &m.funcs[m.func_by_name("f").expect("@f")]
}

fn loops_left(f: &Function) -> usize {
    let cfg = Cfg::new(f);
    let dom = DomTree::new(f, &cfg);
    LoopInfo::new(&cfg, &dom).loops.len()
}

fn run(m: &Module, x: u64, acc: u64) -> u64 {
    let f = m.func_by_name("f").expect("@f");
    Interpreter::new(m)
        .call(f, &[Val::scalar(x), Val::scalar(acc)])
        .expect("runs")
        .expect("returns")
        .bits()
}

/// Unrolls `@f` of `text` within `budget`; the module before and after, checked to compute
/// the same results.
fn unrolled(text: &str, budget: usize) -> (Module, Module) {
    let before = module(text);
    let mut after = module(text);
    let id = after.func_by_name("f").expect("@f");
    unroll::unroll_within(&mut after.funcs[id], budget);
    verify_module(&after).unwrap_or_else(|e| panic!("{e:?}\n{after}"));
    for (x, acc) in [
        (0, 0),
        (7, 1),
        (0xdead_beef, 12345),
        (0xffff_ffff, 0x8000_0000),
    ] {
        assert_eq!(
            run(&after, x, acc),
            run(&before, x, acc),
            "x = {x:#x}, acc = {acc:#x}\n{after}"
        );
    }
    (before, after)
}

#[test]
fn unrolling_stops_at_the_function_budget() {
    // Loops of 12 instructions and 8 trips (96 added each), twice as many as the budget holds.
    let spec = Spec { trips: 8, extra: 5 };
    let growth = loop_size(spec.extra) * spec.trips as usize;
    let n = 2 * FUNCTION_BUDGET / growth + 2;
    let loops = vec![spec; n];
    let text = sequence(&loops);
    let before = module(&text);
    let mut after = module(&text);
    unroll::run(&mut after);
    verify_module(&after).unwrap_or_else(|e| panic!("{e:?}"));
    for (x, acc) in [(0, 0), (3, 9), (0x1234_5678, 0xffff_fff0)] {
        assert_eq!(run(&after, x, acc), run(&before, x, acc));
    }
    let added = function_size(func(&after)) - function_size(func(&before));
    // As many loops as the budget holds, each adding its copies, and no more.
    assert_eq!(added, growth * (FUNCTION_BUDGET / growth), "{after}");
    assert_eq!(loops_left(func(&before)), n);
    assert_eq!(
        loops_left(func(&after)),
        n - FUNCTION_BUDGET / growth,
        "{after}"
    );
}

#[test]
fn a_function_within_the_budget_is_unrolled_whole() {
    let text = sequence(&[Spec { trips: 4, extra: 1 }; 3]);
    let (_, after) = unrolled(&text, FUNCTION_BUDGET);
    assert_eq!(loops_left(func(&after)), 0, "{after}");
}

#[test]
fn the_loops_that_add_least_go_first() {
    // A loop of 16 trips and 35 instructions (560 added) between small ones (47 added
    // together) and one that runs no trip (none added): a budget of 100 takes every small
    // one and leaves the large one.
    let large = Spec {
        trips: 16,
        extra: 28,
    };
    let small = [
        Spec { trips: 2, extra: 0 },
        Spec { trips: 1, extra: 2 },
        Spec { trips: 3, extra: 1 },
    ];
    let mut loops = small.to_vec();
    loops.insert(1, large);
    loops.push(Spec { trips: 0, extra: 4 });
    let text = sequence(&loops);
    let (before, after) = unrolled(&text, 100);
    let added = function_size(func(&after)) - function_size(func(&before));
    let small_growth: usize = small
        .iter()
        .map(|s| loop_size(s.extra) * s.trips as usize)
        .sum();
    assert_eq!(added, small_growth, "{after}");
    assert_eq!(loops_left(func(&after)), 1, "{after}");
    // A budget that holds the large loop too takes it as well.
    let (_, after) = unrolled(&text, 1000);
    assert_eq!(loops_left(func(&after)), 0, "{after}");
}

/// `for (o = 0; o < 4; o++) for (i = 0; i < 4; i++) acc = acc * 31 + (i ^ o ^ x);`.
const NEST: &str = "func @f(i32, i32) -> i32 {
block0(v0: i32, v1: i32):
    v2: i32 = iconst 0
    v3: i32 = iconst 1
    v4: i32 = iconst 4
    v5: i32 = iconst 31
    jump block1(v2, v1)
block1(v6: i32, v7: i32):
    v8: i1 = icmp slt v6, v4
    brif v8, block2(v2, v7), block5
block2(v9: i32, v10: i32):
    v11: i1 = icmp slt v9, v4
    brif v11, block3, block4
block3:
    v12: i32 = imul v10, v5
    v13: i32 = bxor v9, v6
    v14: i32 = bxor v13, v0
    v15: i32 = iadd v12, v14
    v16: i32 = iadd v9, v3
    jump block2(v16, v15)
block4:
    v17: i32 = iadd v6, v3
    jump block1(v17, v10)
block5:
    return v7
}
";

#[test]
fn an_inner_loop_goes_before_the_loop_around_it() {
    // The inner loop (8 instructions) adds 32, the outer one (12) 48 before the inner one is
    // unrolled: a budget of 50 takes the inner loop only, although the outer one alone would
    // fit too.
    let (before, after) = unrolled(NEST, 50);
    assert_eq!(loops_left(func(&before)), 2);
    assert_eq!(loops_left(func(&after)), 1, "{after}");
    let added = function_size(func(&after)) - function_size(func(&before));
    assert_eq!(added, 32, "{after}");
    // Enough for both: the outer loop, now of 38 instructions (its own 4, the inner loop's
    // five headers and four bodies; the fifth body, which no edge reaches, is not in the
    // loop), adds 152 more.
    let (_, after) = unrolled(NEST, 32 + 152);
    assert_eq!(loops_left(func(&after)), 0, "{after}");
    let (_, after) = unrolled(NEST, 32 + 151);
    assert_eq!(loops_left(func(&after)), 1, "{after}");
}

/// `func @f(i32 x) -> i32`: `for (i = 0; i < 8; i++) a[i] = i + x; return a[3];` with `a` a
/// private array when `private`, or the same stores to a global buffer `p` otherwise.
fn indexed_store(private: bool) -> String {
    let (param, base, space) = if private {
        ("", "    v1: ptr.private = slotaddr ss0\n", "private")
    } else {
        (", ptr.global", "", "global")
    };
    let ptr = if private { "ptr.private" } else { "ptr.global" };
    let args = if private {
        "v0: i32"
    } else {
        "v0: i32, v1: ptr.global"
    };
    format!(
        "func @f(i32{param}) -> i32 {{\n    ss0 = slot 32, align 4\nblock0({args}):\n{base}\
         \x20   v2: i32 = iconst 0\n    v3: i32 = iconst 8\n    v4: i32 = iconst 1\n    \
         v5: i64 = iconst 4\n    jump block1(v2)\nblock1(v6: i32):\n    \
         v7: i1 = icmp slt v6, v3\n    brif v7, block2, block3\nblock2:\n    \
         v8: i64 = sext v6\n    v9: i64 = imul v8, v5\n    v10: {ptr} = ptradd v1, v9\n    \
         v11: i32 = iadd v6, v0\n    store.{space} v11, v10, align 4\n    \
         v12: i32 = iadd v6, v4\n    jump block1(v12)\nblock3:\n    v13: i64 = iconst 12\n    \
         v14: {ptr} = ptradd v1, v13\n    v15: i32 = load.{space} v14, align 4\n    \
         return v15\n}}\n"
    )
}

#[test]
fn loops_indexing_a_private_array_have_a_budget_of_their_own() {
    // With nothing left of the function's budget, the loop that indexes a private array by
    // its counter is still unrolled (its array can then live in registers); the same loop
    // storing to global memory is not.
    let text = indexed_store(true);
    let before = module(&text);
    let mut after = module(&text);
    let id = after.func_by_name("f").expect("@f");
    assert!(unroll::unroll_within(&mut after.funcs[id], 0), "{after}");
    verify_module(&after).unwrap_or_else(|e| panic!("{e:?}\n{after}"));
    assert_eq!(loops_left(func(&after)), 0, "{after}");
    let f = after.func_by_name("f").expect("@f");
    for x in [0u64, 5, 0xffff_fff0] {
        let got = Interpreter::new(&after)
            .call(f, &[Val::scalar(x)])
            .expect("runs")
            .expect("returns")
            .bits();
        let want = Interpreter::new(&before)
            .call(f, &[Val::scalar(x)])
            .expect("runs")
            .expect("returns")
            .bits();
        assert_eq!(got, want);
        assert_eq!(got, (3 + x) & 0xffff_ffff);
    }

    let text = indexed_store(false);
    let mut global = module(&text);
    let id = global.func_by_name("f").expect("@f");
    assert!(!unroll::unroll_within(&mut global.funcs[id], 0), "{global}");
    assert_eq!(loops_left(func(&global)), 1);
}
