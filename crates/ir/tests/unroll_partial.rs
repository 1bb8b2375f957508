//! Partial unrolling (`unroll_partial`) keeps every loop's results: loops of each shape the
//! pass takes run in the interpreter before and after it, from starts and limits near the
//! ends of their types' ranges (where `limit - i` wraps) and at small trip counts (fewer
//! iterations than one pass of the main loop, a multiple of it, and in between).

use ferrocl_ir::interp::{Interpreter, Val};
use ferrocl_ir::passes::PassManager;
use ferrocl_ir::{parse_module, verify_module, Module};

/// `for (i = s; i CC n; i += STEP) acc = acc * 31 + i; return acc;` in `i32` or `i64`, with
/// the header's test written as `brif` on `cmp` (`then_in`) or on its negation.
fn source(ty: &str, cc: &str, step: u64, then_in: bool) -> String {
    let inside = match then_in {
        true => "block2, block3",
        false => "block3, block2",
    };
    format!(
        "func @f({ty}, {ty}) -> {ty} {{
block0(v0: {ty}, v1: {ty}):
    v2: {ty} = iconst 0
    jump block1(v0, v2)
block1(v3: {ty}, v4: {ty}):
    v5: i1 = icmp {cc} v3, v1
    brif v5, {inside}
block2:
    v6: {ty} = iconst 31
    v7: {ty} = imul v4, v6
    v8: {ty} = iadd v7, v3
    v9: {ty} = iconst {step}
    v10: {ty} = iadd v3, v9
    jump block1(v10, v8)
block3:
    return v4
}}
"
    )
}

/// How many iterations the loop that stays in while `i stay n` runs, if at most 200.
fn trips(stay: &str, s: u64, n: u64, step: u64, bits: u32) -> Option<u64> {
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let sext = |x: u64| ((x << (64 - bits)) as i64) >> (64 - bits);
    let (mut i, n) = (s & mask, n & mask);
    for count in 0..=200 {
        let holds = match stay {
            "slt" => sext(i) < sext(n),
            "sle" => sext(i) <= sext(n),
            "ult" => i < n,
            _ => i <= n,
        };
        if !holds {
            return Some(count);
        }
        i = i.wrapping_add(step) & mask;
    }
    None
}

fn module(text: &str) -> Module {
    let m = parse_module(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    verify_module(&m).unwrap_or_else(|e| panic!("{e:?}"));
    m
}

fn run(m: &Module, s: u64, n: u64, wide: bool) -> u64 {
    let f = m.func_by_name("f").expect("@f");
    let arg = |x: u64| match wide {
        true => Val::scalar(x),
        false => Val::scalar(x & 0xffff_ffff),
    };
    Interpreter::new(m)
        .call(f, &[arg(s), arg(n)])
        .expect("runs")
        .expect("returns")
        .bits()
}

/// `text` after partial unrolling and clean-up, verified, with at least `tests` comparisons
/// (the main loop's added to the loop's own).
fn unrolled(text: &str, tests: usize) -> (Module, String) {
    let mut after = module(text);
    let mut pm = PassManager::new();
    for p in ["unroll_partial", "simplify_cfg", "fold", "dce"] {
        pm.add(p).expect("pass exists");
    }
    pm.run(&mut after).expect("passes run");
    verify_module(&after).unwrap_or_else(|e| panic!("{e:?}"));
    let printed = after.to_string();
    assert!(
        printed.matches("icmp").count() >= tests,
        "not unrolled:\n{printed}"
    );
    (after, printed)
}

#[test]
fn partially_unrolled_loops_compute_what_they_did() {
    // (cc with the loop staying in while true, the same loop written with the negated test)
    let shapes = [
        ("slt", "sge"),
        ("sle", "sgt"),
        ("ult", "uge"),
        ("ule", "ugt"),
    ];
    let mut compared = 0;
    for (wide, ty, bits) in [(false, "i32", 32u32), (true, "i64", 64)] {
        let max_s = (1u64 << (bits - 1)) - 1;
        let min_s = 1u64 << (bits - 1);
        let max_u = if bits == 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        for (stay, leave) in shapes {
            for step in [1u64, 3] {
                for (cc, then_in) in [(stay, true), (leave, false)] {
                    let text = source(ty, cc, step, then_in);
                    let before = module(&text);
                    let (after, printed) = unrolled(&text, 2);
                    // Limits near the top of the range: `<=` loops would not end there.
                    let unsigned = cc.starts_with('u');
                    let top = if unsigned { max_u } else { max_s };
                    let lo = if unsigned { 0 } else { min_s };
                    let mut cases = vec![
                        (lo, lo.wrapping_add(2)),
                        (top.wrapping_sub(40), top.wrapping_sub(5)),
                    ];
                    for s in [0u64, 5, 1u64.wrapping_neg()] {
                        for len in 0..14u64 {
                            cases.push((s, s.wrapping_add(len)));
                        }
                    }
                    // `limit - i` wraps (the loop runs no iteration, or all of a short range).
                    cases.push((top.wrapping_sub(5), lo));
                    cases.push((lo, top));
                    if !cc.contains("le") && !cc.contains("gt") {
                        cases.push((top.wrapping_sub(9), top));
                    }
                    for (s, n) in cases {
                        // Skip the loops too long to interpret.
                        if trips(stay, s, n, step, bits).is_none() {
                            continue;
                        }
                        compared += 1;
                        assert_eq!(
                            run(&after, s, n, wide),
                            run(&before, s, n, wide),
                            "{ty} {cc} step {step} from {s:#x} to {n:#x}:\n{printed}"
                        );
                    }
                }
            }
        }
    }
    // Most cases run: the trip counts above are short.
    assert!(compared > 700, "{compared} cases compared");
}

/// The loop of [`source`] with its step a third argument (`i += s`, a value the loop does not
/// change, as `get_global_size(0)` in a grid-stride loop).
fn source_value_step(ty: &str, cc: &str, then_in: bool) -> String {
    source(ty, cc, 0, then_in)
        .replace(
            &format!("func @f({ty}, {ty})"),
            &format!("func @f({ty}, {ty}, {ty})"),
        )
        .replace(
            &format!("block0(v0: {ty}, v1: {ty}):"),
            &format!("block0(v0: {ty}, v1: {ty}, v20: {ty}):"),
        )
        .replace("v10: i32 = iadd v3, v9", "v10: i32 = iadd v3, v20")
        .replace("v10: i64 = iadd v3, v9", "v10: i64 = iadd v3, v20")
}

#[test]
fn loops_stepping_by_a_value_compute_what_they_did() {
    let mut compared = 0;
    for (wide, ty, bits) in [(false, "i32", 32u32), (true, "i64", 64)] {
        let mask = if bits == 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        let top_s = (1u64 << (bits - 1)) - 1;
        for (stay, leave) in [
            ("slt", "sge"),
            ("ult", "uge"),
            ("sle", "sgt"),
            ("ule", "ugt"),
        ] {
            for (cc, then_in) in [(stay, true), (leave, false)] {
                let text = source_value_step(ty, cc, then_in);
                assert!(text.contains("iadd v3, v20"), "{text}");
                let before = module(&text);
                let (after, printed) = unrolled(&text, 3);
                // Steps inside the main loop's bound, at it, past it, and ones that wrap.
                let steps = [1u64, 2, 5, 1 << 20, 1 << 28, (1 << 28) + 1, top_s, mask];
                for step in steps {
                    for s in [0u64, 7, top_s.wrapping_sub(30), mask.wrapping_sub(30)] {
                        for len in [0u64, 1, 3, 4, 5, 9, 40, 1 << 29] {
                            let n = s.wrapping_add(len.wrapping_mul(step.max(1))) & mask;
                            if trips(stay, s, n, step, bits).is_none() {
                                continue;
                            }
                            let call = |m: &Module| {
                                let f = m.func_by_name("f").expect("@f");
                                let arg = |x: u64| Val::scalar(if wide { x } else { x & mask });
                                Interpreter::new(m)
                                    .call(f, &[arg(s), arg(n), arg(step)])
                                    .expect("runs")
                                    .expect("returns")
                                    .bits()
                            };
                            compared += 1;
                            assert_eq!(
                                call(&after),
                                call(&before),
                                "{ty} {cc} step {step:#x} from {s:#x} to {n:#x}:\n{printed}"
                            );
                        }
                    }
                }
            }
        }
    }
    assert!(compared > 300, "{compared} cases compared");
}
