//! Work-group and sub-group collectives (`group_*`, `sub_group_*`) on the CPU device against
//! the reference interpreter, bit for bit: every combining operation on every value type the
//! IR allows (double included, which the OpenCL C front end reaches once fp64 is on), in 1-D,
//! 2-D and 3-D groups whose sizes are and are not multiples of the sub-group size.
//! Both combine in linear local id order from the first operand, so even float sums agree
//! exactly.

use crate::common;

use common::{nd1, on_cpu_and_interpreter};
use ferrocl_cpu::NdRange;

/// A kernel that loads its work-item's value (by global linear id) and stores the result of
/// each collective of `ops` (`"group_reduce.iadd"`, ...) after it, then a broadcast of the
/// work-item with linear local id 3.
fn kernel(ty: &str, bytes: u32, ops: &[String]) -> String {
    let mut s = format!(
        "kernel @k(ptr.global, ptr.global) {{
    arg \"in\": \"T*\" global none []
    arg \"out\": \"T*\" global none []
block0(v0: ptr.global, v1: ptr.global):
    v2: i64 = global_linear_id
    v3: i64 = iconst {bytes}
    v4: i64 = imul v2, v3
    v5: ptr.global = ptradd v0, v4
    v6: {ty} = load.global v5, align {bytes}
    v7: i64 = iconst {}
    v8: i64 = imul v2, v7
    v9: ptr.global = ptradd v1, v8
    v10: i64 = iconst 3
",
        bytes as usize * (ops.len() + 2)
    );
    let mut v = 11;
    let mut store = |s: &mut String, def: String, k: usize| {
        s.push_str(&format!("    v{v}: {ty} = {def}\n"));
        s.push_str(&format!(
            "    v{}: i64 = iconst {}\n",
            v + 1,
            k * bytes as usize
        ));
        s.push_str(&format!(
            "    v{}: ptr.global = ptradd v9, v{}\n",
            v + 2,
            v + 1
        ));
        s.push_str(&format!(
            "    store.global v{v}, v{}, align {bytes}\n",
            v + 2
        ));
        v += 3;
    };
    for (k, op) in ops.iter().enumerate() {
        store(&mut s, format!("{op} v6"), k);
    }
    store(&mut s, "group_broadcast v6, v10".to_string(), ops.len());
    store(
        &mut s,
        "sub_group_broadcast v6, v10".to_string(),
        ops.len() + 1,
    );
    s.push_str("    return\n}\n");
    s
}

fn all_kinds(combine: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for kind in [
        "group_reduce",
        "group_scan_inclusive",
        "group_scan_exclusive",
        "sub_group_reduce",
        "sub_group_scan_inclusive",
        "sub_group_scan_exclusive",
    ] {
        for op in combine {
            out.push(format!("{kind}.{op}"));
        }
    }
    out
}

/// Runs `text` on the CPU and in the interpreter over `nd` (uniform groups, no offset) with
/// `input` (the raw bytes of values of `bytes` each) and compares the outputs.
fn compare(text: &str, bytes: usize, outs: usize, input: &[u8], nd: NdRange) {
    let count = input.len() / bytes;
    let (cpu_out, want) = on_cpu_and_interpreter(text, input, count * outs * bytes, nd);
    // The broadcast of the first work-item's value 3 alone makes the output non-zero.
    assert!(cpu_out.iter().any(|&b| b != 0), "the kernel wrote nothing");
    for item in 0..count {
        for o in 0..outs {
            let at = (item * outs + o) * bytes;
            assert_eq!(
                &cpu_out[at..at + bytes],
                &want[at..at + bytes],
                "work-item {item}, result {o} of\n{text}"
            );
        }
    }
}

fn random_bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

fn shapes() -> Vec<NdRange> {
    let nd = |work_dim, global_size, local_size| NdRange {
        work_dim,
        global_offset: [0; 3],
        global_size,
        local_size,
    };
    // Sub-groups of at least 4 work-items (each kernel broadcasts sub-group local id 3).
    vec![
        nd1(12, 4),
        nd(2, [6, 4, 1], [3, 2, 1]),
        nd(3, [4, 2, 4], [2, 2, 2]),
        nd1(48, 16),
        nd1(40, 20),
        nd(2, [10, 8, 1], [5, 4, 1]),
        nd(3, [4, 6, 4], [2, 6, 2]),
    ]
}

#[test]
fn integer_collectives_match_the_interpreter() {
    let ops = all_kinds(&[
        "iadd", "imul", "smin", "smax", "umin", "umax", "band", "bor", "bxor",
    ]);
    for (ty, bytes) in [("i8", 1), ("i16", 2), ("i32", 4), ("i64", 8)] {
        let text = kernel(ty, bytes, &ops);
        for (i, nd) in shapes().into_iter().enumerate() {
            let n = nd.global_size.iter().product::<u64>() as usize;
            let input = random_bytes(n * bytes as usize, 7 + i as u64 + u64::from(bytes));
            compare(&text, bytes as usize, ops.len() + 2, &input, nd);
        }
    }
}

#[test]
fn float_and_double_collectives_match_the_interpreter() {
    let ops = all_kinds(&["fadd", "fmul", "fmin", "fmax"]);
    for (ty, bytes) in [("f32", 4usize), ("f64", 8)] {
        let text = kernel(ty, bytes as u32, &ops);
        for (i, nd) in shapes().into_iter().enumerate() {
            let n = nd.global_size.iter().product::<u64>() as usize;
            // Values in [-4, 4), a NaN that min/max skip and sums keep, and a -0.0 that the first
            // scans and the broadcast must pass through unchanged.
            let mut input = Vec::new();
            for k in 0..n {
                let x = ((k * 7919 + i * 31) % 800) as f64 / 100.0 - 4.0 + 1.0 / 3.0;
                let x = match k {
                    0 => -0.0,
                    5 => f64::NAN,
                    _ => x,
                };
                if bytes == 4 {
                    input.extend_from_slice(&(x as f32).to_ne_bytes());
                } else {
                    input.extend_from_slice(&x.to_ne_bytes());
                }
            }
            compare(&text, bytes, ops.len() + 2, &input, nd);
        }
    }
}

#[test]
fn results_used_after_later_collectives_match_the_interpreter() {
    // The reduce's and the broadcast's results are used only after the scan, two splits
    // later: they must be kept for each work-item in between.
    let text = "kernel @k(ptr.global, ptr.global) {
    arg \"in\": \"int*\" global none []
    arg \"out\": \"int*\" global none []
block0(v0: ptr.global, v1: ptr.global):
    v2: i64 = global_linear_id
    v3: i64 = iconst 4
    v4: i64 = imul v2, v3
    v5: ptr.global = ptradd v0, v4
    v6: i32 = load.global v5, align 4
    v7: i32 = group_reduce.iadd v6
    v8: i64 = iconst 1
    v9: i32 = group_broadcast v6, v8
    v10: i32 = group_scan_exclusive.iadd v6
    v11: i32 = isub v7, v10
    v12: i32 = iadd v11, v9
    v13: i64 = iconst 8
    v14: i64 = imul v2, v13
    v15: ptr.global = ptradd v1, v14
    store.global v12, v15, align 4
    v16: ptr.global = ptradd v15, v3
    store.global v7, v16, align 4
    return
}
";
    for (i, nd) in shapes().into_iter().enumerate() {
        let n = nd.global_size.iter().product::<u64>() as usize;
        compare(text, 4, 2, &random_bytes(n * 4, 3 + i as u64), nd);
    }
}
