//! Index-set splitting never changes a result: loops whose body branches on runs of their
//! induction variable (every condition form the pass takes, at 8, 32 and 64 bits, runs that
//! begin before, at, inside and after the start, wrapping or not) return the same value
//! before and after `split` for many starts, ends and offsets, as the reference interpreter
//! runs them; and each of them is split.

use ferrocl_ir::interp::{Interpreter, Val};
use ferrocl_ir::passes::split::split;
use ferrocl_ir::{parse_module, verify_module, Module};

/// A loop from `start` by `step` while its own test (`latch`) holds that, in each trip, mixes
/// into `acc` which of three conditions hold: `cond` (on `t`, the trunc of `iv + k` to `ty`,
/// and `a`), `t - b < 8` and `a == b`.
fn source(ty: &str, cond: &str, step: u32, latch: &str) -> String {
    let t = if ty == "i64" {
        "    v7: i64 = iadd v6, v0\n".to_string()
    } else {
        format!("    v20: i64 = iadd v6, v0\n    v7: {ty} = trunc v20\n")
    };
    format!(
        "func @f(i64, i64, i64, {ty}, {ty}) -> i64 {{
block0(v0: i64, v1: i64, v2: i64, v3: {ty}, v4: {ty}):
    v5: i64 = iconst 0
    jump block1(v1, v5)
block1(v6: i64, v8: i64):
{t}{cond}
    brif v9, block2, block3
block2:
    v10: i64 = iconst 1000
    v11: i64 = iadd v8, v10
    jump block4(v11)
block3:
    v43: {ty} = isub v7, v4
    v44: {ty} = iconst 8
    v12: i1 = icmp ult v43, v44
    brif v12, block5, block6
block5:
    v13: i64 = iconst 7
    v14: i64 = iadd v8, v13
    jump block4(v14)
block6:
    v40: i1 = icmp eq v4, v3
    brif v40, block8, block4(v8)
block8:
    v41: i64 = iconst 5
    v42: i64 = iadd v8, v41
    jump block4(v42)
block4(v15: i64):
    v16: i64 = iconst 3
    v17: i64 = imul v15, v16
    v18: i64 = iadd v17, v6
    v19: i64 = iconst {step}
    v21: i64 = iadd v6, v19
    v22: i64 = iadd v21, v19
{latch}
block7:
    return v18
}}
"
    )
}

/// The loop's own tests: `iv + 2 * step <= end`, `iv + step < end`, `iv + 2 * step > end` to
/// leave, and one the pass does not read (a `bnot` of `end >= iv + 2 * step` to leave).
const LATCHES: [&str; 4] = [
    "    v23: i1 = icmp ule v22, v2\n    brif v23, block1(v21, v18), block7",
    "    v23: i1 = icmp ult v21, v2\n    brif v23, block1(v21, v18), block7",
    "    v23: i1 = icmp ugt v22, v2\n    brif v23, block7, block1(v21, v18)",
    "    v23: i1 = icmp uge v2, v22\n    v24: i1 = bnot v23\n    brif v24, block7, block1(v21, v18)",
];

/// The condition forms, `v9` of `v7` (T) and `v3` (A).
fn conditions(ty: &str) -> Vec<String> {
    let c = |op: &str, k: u32| format!("    v30: {ty} = iconst {k}\n    v9: i1 = {op}");
    vec![
        format!("    v31: {ty} = isub v3, v7\n{}", c("icmp ult v31, v30", 4)),
        format!("    v31: {ty} = isub v7, v3\n{}", c("icmp ult v31, v30", 5)),
        format!("    v31: {ty} = isub v3, v7\n{}", c("icmp ule v31, v30", 2)),
        format!("    v31: {ty} = isub v3, v7\n{}", c("icmp uge v31, v30", 4)),
        format!("    v31: {ty} = isub v7, v3\n{}", c("icmp ugt v30, v31", 3)),
        c("icmp ult v7, v30", 6),
        "    v9: i1 = icmp eq v3, v7".to_string(),
        "    v9: i1 = icmp ne v7, v3".to_string(),
    ]
}

fn run(m: &Module, args: [u64; 5]) -> u64 {
    let f = m.func_by_name("f").expect("f");
    let mut it = Interpreter::new(m);
    let vals: Vec<Val> = args.iter().map(|&a| Val::scalar(a)).collect();
    it.call(f, &vals).expect("runs").expect("a result").bits()
}

#[test]
fn splitting_keeps_every_result_8_bits() {
    keeps_every_result("i8", 0xff);
}

#[test]
fn splitting_keeps_every_result_32_bits() {
    keeps_every_result("i32", 0xffff_ffff);
}

#[test]
fn splitting_keeps_every_result_64_bits() {
    keeps_every_result("i64", u64::MAX);
}

fn keeps_every_result(ty: &str, mask: u64) {
    let mut checked = 0;
    for cond in conditions(ty) {
        for (step, latch) in [1, 1, 1, 1, 4, 3, 2].into_iter().zip([0, 1, 2, 3, 0, 2, 1]) {
            let latch = LATCHES[latch];
            let text = source(ty, &cond, step, latch);
            let before = parse_module(&text).expect("parses");
            let mut after = before.clone();
            let f = after.func_by_name("f").expect("f");
            assert!(split(&mut after.funcs[f]), "not split:\n{text}");
            verify_module(&after).expect("verifies after split");
            let starts = [0u64, 3, 250, (1 << 61) + 8, u64::MAX - 300];
            let lens = [0u64, 5, 40, 300];
            let offsets = [0u64, 2, 253, 0xffff_fff0, u64::MAX - 5];
            let values = [0u64, 1, 20, 255, 0x7fff_ffff, u64::MAX - 2];
            for &s in &starts {
                for &len in &lens {
                    if s.checked_add(len + 8).is_none() {
                        // The loop's own test would wrap and never end.
                        continue;
                    }
                    for &k in &offsets {
                        for &a in &values {
                            // Most often a != b; a == b in one case in three.
                            let b = if (s ^ len ^ k) % 3 == 0 {
                                a
                            } else {
                                a.wrapping_add(13)
                            };
                            let args = [k, s, s.wrapping_add(len), a & mask, b & mask];
                            assert_eq!(
                                run(&before, args),
                                run(&after, args),
                                "{ty}, step {step}, args {args:?}:\n{text}"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 5_000);
}
