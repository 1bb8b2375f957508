//! Kernels whose work-items keep state across barriers, run through the work-group transform
//! on the CPU device and checked against a host model: values and private arrays live across
//! barriers in a loop, a uniform loop counter, and the smaller last group of a non-uniform
//! NDRange.

use crate::common;

use common::{block, compile, nd1};

/// Each work-item writes its global id into its private array, then `n` times passes its
/// running value to its left neighbour through `__local` memory (two barriers a turn) and adds
/// the turn's number; at the end it multiplies by what it left in its private array.
const ROTATE: &str = r#"
kernel @rotate(ptr.global, ptr.local, i32) {
    arg "out": "int*" global none []
    arg "tile": "int*" local none []
    arg "n": "int" private none []
    ss0 = slot 16, align 4
block0(v0: ptr.global, v1: ptr.local, v2: i32):
    v3: i64 = local_id 0
    v4: i64 = global_id 0
    v5: i32 = trunc v4
    v6: ptr.private = slotaddr ss0
    v7: i64 = iconst 4
    v8: i64 = iconst 3
    v9: i64 = band v3, v8
    v10: i64 = imul v9, v7
    v11: ptr.private = ptradd v6, v10
    store.private v5, v11, align 4
    v12: i64 = imul v3, v7
    v13: ptr.local = ptradd v1, v12
    v14: i32 = iconst 0
    jump block1(v14, v5)
block1(v15: i32, v16: i32):
    v17: i1 = icmp slt v15, v2
    brif v17, block2, block3
block2:
    store.local v16, v13, align 4
    barrier.local.work_group
    v18: i64 = local_size 0
    v19: i64 = iconst 1
    v20: i64 = iadd v3, v19
    v21: i64 = urem v20, v18
    v22: i64 = imul v21, v7
    v23: ptr.local = ptradd v1, v22
    v24: i32 = load.local v23, align 4
    barrier.local.work_group
    v25: i32 = iadd v24, v15
    v26: i32 = iconst 1
    v27: i32 = iadd v15, v26
    jump block1(v27, v25)
block3:
    v28: i32 = load.private v11, align 4
    v29: i32 = imul v16, v28
    v30: i64 = imul v4, v7
    v31: ptr.global = ptradd v0, v30
    store.global v29, v31, align 4
    return
}
"#;

fn rotate_model(global: usize, local: usize, n: i32) -> Vec<i32> {
    let mut out = Vec::new();
    for start in (0..global).step_by(local) {
        let size = local.min(global - start);
        let mut acc: Vec<i32> = (start..start + size).map(|g| g as i32).collect();
        for t in 0..n {
            acc = (0..size)
                .map(|i| acc[(i + 1) % size].wrapping_add(t))
                .collect();
        }
        out.extend(
            acc.iter()
                .enumerate()
                .map(|(i, a)| a.wrapping_mul((start + i) as i32)),
        );
    }
    out
}

#[test]
fn state_kept_across_barriers_in_a_loop() {
    let p = compile(ROTATE);
    let k = p.kernel("rotate").unwrap();
    assert!(
        k.frame_size > 0,
        "values live across barriers need context memory"
    );
    for (global, local, n) in [(64, 16, 5i32), (37, 8, 3), (7, 7, 0), (30, 4, 9)] {
        let mut out = vec![0i32; global];
        let mut args = block(&p, "rotate", &[out.as_mut_ptr() as u64, 0, 0]);
        let at = k.args[2].offset;
        args[at..at + 4].copy_from_slice(&n.to_ne_bytes());
        // SAFETY: the argument block holds `out`'s address, which outlives the launch, and
        // the local region is one int per work-item.
        unsafe { k.launch(&args, local * 4, &nd1(global as u64, local as u64)) }.unwrap();
        assert_eq!(
            out,
            rotate_model(global, local, n),
            "{global} / {local}, {n} turns"
        );
    }
}

/// `@reverse` reverses each work-group's part of the buffer through a `__local` tile;
/// `@reverse_w4` is its 4-wide version, as the vectorizer would make it.
const REVERSE: &str = include_str!("filetests/workgroup/wide.ir");

#[test]
fn chunks_of_a_wide_version_and_a_scalar_rest_share_the_group() {
    let module = ferrocl_ir::parse_module(REVERSE).unwrap();
    let wide_fn = module.func_by_name("reverse_w4").unwrap();
    let barrier = |f: &ferrocl_ir::Function| {
        f.layout
            .blocks()
            .iter()
            .flat_map(|&b| f.layout.block_insts(b).iter().copied())
            .find(|&i| matches!(f.dfg.insts[i].op, ferrocl_ir::Op::Barrier(..)))
            .unwrap()
    };
    let wide = |f: &ferrocl_ir::Function| {
        let w = &module.funcs[wide_fn];
        Some(ferrocl_cpu::workgroup::WideKernel {
            func: w.clone(),
            width: 4,
            barriers: vec![(barrier(f), barrier(w))],
            assumes_id_limit: false,
            uniform: Vec::new(),
            estimate: 0.5,
            runs: 0,
            for_cranelift: false,
        })
    };
    let p = ferrocl_cpu::CpuProgram::compile_with(&module, &wide).unwrap();
    let k = p.kernel("reverse").unwrap();
    // Groups of 1 to 13 work-items: no chunk, chunks only, and chunks with a rest; the last
    // group of a non-uniform NDRange smaller still.
    for local in 1..=13usize {
        let global = local * 3 + local / 2;
        let mut data: Vec<i32> = (0..global as i32).map(|i| i * 10 + 1).collect();
        let want: Vec<i32> = data
            .chunks(local)
            .flat_map(|c| c.iter().rev().copied().collect::<Vec<_>>())
            .collect();
        let args = block(&p, "reverse", &[data.as_mut_ptr() as u64, 0]);
        // SAFETY: the argument block holds `data`'s address, which outlives the launch, and
        // the local region holds one int per work-item.
        unsafe { k.launch(&args, local * 4, &nd1(global as u64, local as u64)) }.unwrap();
        assert_eq!(data, want, "groups of {local}");
    }
}

/// A kernel whose whole body runs under a test of `global_id 0` against its argument `n`
/// (of IR type `ty`), without a barrier: the work-group loop over x runs only where the test
/// can hold (`narrow.rs`, its `base`). `test` computes `v3` (an `i1`) from the global id `v2`
/// and `n` `v1`; the kernel writes `gid + 1` where `v3` is `then` and leaves 0 elsewhere.
fn global_guard(name: &str, ty: &str, test: &str, then: bool) -> String {
    let cl = if ty == "i32" { "int" } else { "long" };
    let (taken, other) = if then {
        ("block1", "block2")
    } else {
        ("block2", "block1")
    };
    format!(
        r#"
kernel @{name}(ptr.global, {ty}) {{
    arg "out": "long*" global none []
    arg "n": "{cl}" private none []
block0(v0: ptr.global, v1: {ty}):
    v2: i64 = global_id 0
{test}
    brif v3, {taken}, {other}
block1:
    v4: i64 = iconst 8
    v5: i64 = imul v2, v4
    v6: ptr.global = ptradd v0, v5
    v7: i64 = iconst 1
    v8: i64 = iadd v2, v7
    store.global v8, v6, align 8
    jump block2
block2:
    return
}}
"#
    )
}

#[test]
fn bodies_under_a_global_id_test_run_where_it_holds() {
    /// Whether the test holds for a global id and a bound.
    type Holds = fn(u64, u64) -> bool;
    let tests: [(&str, Holds); 4] = [
        ("ult", |g, n| g < n),
        ("slt32", |g, n| (g as i32) < n as i32),
        ("uge_returns", |g, n| g < n),
        ("sgt", |g, n| (g as i64) > n as i64),
    ];
    let text = [
        global_guard("ult", "i64", "    v3: i1 = icmp ult v2, v1", true),
        global_guard(
            "slt32",
            "i32",
            "    v9: i32 = trunc v2\n    v3: i1 = icmp slt v9, v1",
            true,
        ),
        // `if (gid >= n) return;`
        global_guard("uge_returns", "i64", "    v3: i1 = icmp uge v2, v1", false),
        global_guard("sgt", "i64", "    v3: i1 = icmp sgt v2, v1", true),
    ]
    .concat();
    let p = compile(&text);
    let bounds = [
        0u64,
        1,
        37,
        99,
        104,
        1000,
        u64::MAX,
        (-5i64) as u64,
        i64::MAX as u64,
        i32::MAX as u64,
        (i32::MIN as i64) as u64,
    ];
    for (name, holds) in tests {
        let k = p.kernel(name).unwrap();
        for (global, local, offset) in [(100u64, 16u64, 0u64), (100, 16, 5), (64, 64, 3), (7, 4, 0)]
        {
            for n in bounds {
                let mut out = vec![0u64; (offset + global) as usize];
                let args = block(&p, name, &[out.as_mut_ptr() as u64, n]);
                let mut nd = nd1(global, local);
                nd.global_offset[0] = offset;
                // SAFETY: the argument block holds `out`'s address, whose `offset + global`
                // longs every global id indexes, and which outlives the launch.
                unsafe { k.launch(&args, 0, &nd) }.unwrap();
                let want: Vec<u64> = (0..offset + global)
                    .map(|g| if g >= offset && holds(g, n) { g + 1 } else { 0 })
                    .collect();
                assert_eq!(
                    out, want,
                    "{name}: {global} / {local} from {offset}, n = {n}"
                );
            }
        }
    }
}

/// Values a loop without a barrier defines on every trip and a later region reads are kept
/// once, where their region ends (`Source::in_loops`): accumulators of loops with per-item
/// and constant trip counts, one read two barriers later, a region that ends at either of two
/// barriers (a uniform branch), and a loop that runs again after a barrier inside an outer
/// loop. The device's results agree with the interpreter's on ranges with chunks and a scalar
/// rest; they do not when the store at the region's end is left out. A second kernel's loop
/// runs several chunks at once (`jam`) with its values read after a barrier. (The W-wide
/// function hands a loop's values to its exit block's parameters, outside the loop, which are
/// kept where they are defined.)
#[test]
fn loop_values_kept_at_the_end_of_their_region_agree() {
    let source = "
__kernel void k(__global const int *in, __global int *out)
{
    __local int t[64];
    int l = get_local_id(0), g = get_global_id(0), n = get_local_size(0);
    int a = 0, b = 1, c = in[g];
    for (int i = 0; i < 5 + (l & 3); i++) {
        a += in[(g + i) & 63] * (i + 1);
        b = b * 3 + a;
    }
    t[l] = a;
    barrier(CLK_LOCAL_MEM_FENCE);
    int s = t[(l + 1) % n];
    for (int i = 0; i < 4; i++)
        c = c * 5 + s;
    if (in[0] & 1) {
        for (int i = 0; i < 3; i++)
            s = s * 7 + i;
        barrier(CLK_LOCAL_MEM_FENCE);
        t[l] = s;
    } else {
        barrier(CLK_LOCAL_MEM_FENCE);
        t[n - 1 - l] = c;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int d = 0;
    for (int r = 0; r < 2; r++) {
        for (int i = 0; i <= r + (l & 1); i++)
            d = d * 3 + t[(l + i) % n];
        barrier(CLK_LOCAL_MEM_FENCE);
        t[l] = d;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[g] = a + b * 7 + c * 11 + s * 13 + d;
}
";
    agree_with_interpreter(source);
    // A loop bound by the latency of what it carries runs several chunks at once (`jam`),
    // its values read after a barrier.
    let jammed = "
__kernel void k(__global const int *in, __global int *out)
{
    __local float t[64];
    int l = get_local_id(0), g = get_global_id(0), n = get_local_size(0);
    float a = (float)in[g] * 0.01f, b = (float)in[(g + 5) & 63] * 0.02f;
    float v = 0.5f + (float)l * 0.001f;
    for (int i = 0; i < 24; i++) {
        a = a * v + 0.25f;
        b = b * v - a;
    }
    t[l] = b;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = as_int(a) ^ as_int(t[(l + 1) % n]);
}
";
    let before = ferrocl_cpu::workgroup::jammed_count();
    agree_with_interpreter(jammed);
    assert!(
        ferrocl_cpu::workgroup::jammed_count() > before,
        "the loop's chunks did not run several at once"
    );
}

/// Kernel `k(in, out)` of OpenCL C `source` on the device and in the interpreter, over 64
/// ints of input (the first 2, then 3) and ranges with chunks and a scalar rest.
fn agree_with_interpreter(source: &str) {
    let text = ferrocl_ir::print_module(&common::compile_cl(source));
    for first in [2u32, 3] {
        let input: Vec<u8> = (0..64u32)
            .flat_map(|i| (if i == 0 { first } else { i * 37 % 101 }).to_ne_bytes())
            .collect();
        for (global, local) in [(64, 16), (48, 24), (40, 20), (64, 64)] {
            let (got, want) = common::on_cpu_and_interpreter(
                &text,
                &input,
                global * 4,
                nd1(global as u64, local as u64),
            );
            assert_eq!(got, want, "in[0] = {first}, {global} / {local}");
        }
    }
}
