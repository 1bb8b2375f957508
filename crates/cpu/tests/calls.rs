//! Functions compiled out of line: the kernels here call functions of the module instead of
//! holding them inlined (the inliner keeps large functions with several call sites as calls).
//! Each runs on the CPU device and in the reference interpreter, which must agree; private
//! accesses out of bounds inside a called function stay inside the launch's memory, as they
//! do in a kernel.

use ferrocl_ir::Op;

use crate::common;

use common::{compile, nd1, on_cpu_and_interpreter, sweep_far_private_writes};

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks(4)
        .map(|c| u32::from_ne_bytes(c.try_into().expect("4 bytes")))
        .collect()
}

/// Runs `text`'s kernel `@k(in, out)` on both and compares the outputs word by word.
fn same_on_cpu_and_interpreter(text: &str, input: &[u32], out_words: usize, items: u64) {
    let bytes: Vec<u8> = input.iter().flat_map(|w| w.to_ne_bytes()).collect();
    let (cpu, want) = on_cpu_and_interpreter(text, &bytes, out_words * 4, nd1(items, 4));
    assert_eq!(words(&cpu), words(&want));
}

/// The calls of the kernel of `text` that its compiled form keeps: each must be a call
/// instruction of the module (the CPU device compiles the module as it is).
fn calls_in_kernel(text: &str) -> usize {
    let m = ferrocl_ir::parse_module(text).expect("parses");
    let k = m.func_by_name("k").expect("@k");
    let f = &m.funcs[k];
    f.layout
        .blocks()
        .iter()
        .flat_map(|&b| f.layout.block_insts(b))
        .filter(|&&i| matches!(f.dfg.insts[i].op, Op::Call(_)))
        .count()
}

/// Vector and scalar arguments and results of every representation: an `i32x8` (two SIMD
/// parts: the result comes back through a return area), an `f32x4` (one part, in a
/// register), an `i16` and an `i1`, and an `i1x4` mask made by a comparison in the callee.
const VECTORS: &str = r#"
func @twist(i32x8, i16, i1) -> i32x8 {
block0(v0: i32x8, v1: i16, v2: i1):
    v3: i32 = sext v1
    v4: i32x8 = splat v3
    v5: i32x8 = imul v0, v4
    v6: i32x8 = iadd v5, v0
    v7: i32x8 = select v2, v6, v0
    return v7
}
func @scale(f32x4, f32) -> f32x4 {
block0(v0: f32x4, v1: f32):
    v2: f32x4 = splat v1
    v3: f32x4 = fmul v0, v2
    return v3
}
func @less(i32x4, i32x4) -> i1x4 {
block0(v0: i32x4, v1: i32x4):
    v2: i1x4 = icmp slt v0, v1
    return v2
}
kernel @k(ptr.global, ptr.global) {
    arg "in": "int*" global none []
    arg "out": "int*" global none []
block0(v0: ptr.global, v1: ptr.global):
    v2: i64 = global_id 0
    v3: i64 = iconst 32
    v4: i64 = imul v2, v3
    v5: ptr.global = ptradd v0, v4
    v6: i32x8 = load.global v5, align 4
    v7: i16 = trunc v2
    v8: i64 = iconst 1
    v9: i64 = band v2, v8
    v10: i1 = icmp eq v9, v8
    v11: i32x8 = call @twist(v6, v7, v10)
    v12: i32x8 = call @twist(v11, v7, v10)
    v13: ptr.global = ptradd v1, v4
    store.global v12, v13, align 4
    v14: i32x4 = shuffle v6, v6, [0, 1, 2, 3]
    v15: i32x4 = shuffle v6, v6, [4, 5, 6, 7]
    v16: f32x4 = sitofp.rte v14
    v17: i32 = extractlane v15, 0
    v18: f32 = sitofp.rte v17
    v19: f32x4 = call @scale(v16, v18)
    v20: i1x4 = call @less(v14, v15)
    v21: i32x4 = bitcast v19
    v22: i32x4 = select v20, v21, v14
    v23: i64 = iconst 16
    v24: i64 = imul v2, v23
    v25: i64 = iconst 1024
    v26: i64 = iadd v24, v25
    v27: ptr.global = ptradd v1, v26
    store.global v22, v27, align 4
    return
}
"#;

#[test]
fn vectors_and_scalars_cross_calls() {
    assert_eq!(calls_in_kernel(VECTORS), 4);
    let input: Vec<u32> = (0..8 * 32u32)
        .map(|i| i.wrapping_mul(2_654_435_761) >> 7)
        .collect();
    same_on_cpu_and_interpreter(VECTORS, &input, 256 + 128, 32);
}

/// Frames: the kernel's private array passed to `@outer`, which fills an array of its own in a
/// loop and passes it, then the kernel's, to `@inner`, which keeps two words of its own. Each
/// function's slots must be apart from its caller's and from the kernel's, and the writes
/// through the pointers must land in the caller's arrays. A barrier after the calls keeps
/// their result live across it.
const FRAMES: &str = r#"
func @inner(ptr.private, i32) -> i32 {
    ss0 = slot 16, align 4
block0(v0: ptr.private, v1: i32):
    v2: ptr.private = slotaddr ss0
    store.private v1, v2, align 4
    v3: i64 = iconst 12
    v4: ptr.private = ptradd v2, v3
    v5: i32 = iadd v1, v1
    store.private v5, v4, align 4
    v6: i64 = iconst 4
    v7: ptr.private = ptradd v0, v6
    v8: i32 = iconst 7
    v9: i32 = imul v1, v8
    store.private v9, v7, align 4
    v10: i32 = load.private v2, align 4
    v11: i32 = load.private v4, align 4
    v12: i32 = iadd v10, v11
    return v12
}
func @outer(ptr.private, i32) -> i32 {
    ss0 = slot 32, align 8
block0(v0: ptr.private, v1: i32):
    v2: ptr.private = slotaddr ss0
    v3: i64 = iconst 0
    v4: i64 = iconst 1
    v5: i64 = iconst 8
    v6: i64 = iconst 4
    jump block1(v3)
block1(v7: i64):
    v8: i1 = icmp slt v7, v5
    brif v8, block2, block3
block2:
    v9: i64 = imul v7, v6
    v10: ptr.private = ptradd v2, v9
    v11: i32 = trunc v7
    v12: i32 = iadd v1, v11
    store.private v12, v10, align 4
    v13: i64 = iadd v7, v4
    jump block1(v13)
block3:
    v14: i32 = call @inner(v2, v1)
    v15: i32 = call @inner(v0, v14)
    v16: i32 = iconst 0
    jump block4(v3, v16)
block4(v17: i64, v18: i32):
    v19: i1 = icmp slt v17, v5
    brif v19, block5, block6
block5:
    v20: i64 = imul v17, v6
    v21: ptr.private = ptradd v2, v20
    v22: i32 = load.private v21, align 4
    v28: i32 = iconst 31
    v23: i32 = imul v18, v28
    v24: i32 = iadd v23, v22
    v25: i64 = iadd v17, v4
    jump block4(v25, v24)
block6:
    v26: i32 = iadd v18, v14
    v27: i32 = iadd v26, v15
    return v27
}
kernel @k(ptr.global, ptr.global) {
    arg "in": "int*" global none []
    arg "out": "int*" global none []
    ss0 = slot 16, align 4
block0(v0: ptr.global, v1: ptr.global):
    v2: i64 = global_id 0
    v3: i64 = iconst 4
    v4: i64 = imul v2, v3
    v5: ptr.global = ptradd v0, v4
    v6: i32 = load.global v5, align 4
    v7: ptr.private = slotaddr ss0
    store.private v6, v7, align 4
    v8: ptr.private = ptradd v7, v3
    store.private v6, v8, align 4
    v9: i32 = call @outer(v7, v6)
    barrier.local.work_group
    v10: i64 = iconst 8
    v11: i64 = imul v2, v10
    v12: ptr.global = ptradd v1, v11
    store.global v9, v12, align 4
    v13: i32 = load.private v8, align 4
    v14: ptr.global = ptradd v12, v3
    store.global v13, v14, align 4
    return
}
"#;

#[test]
fn each_function_has_a_frame_of_its_own() {
    let text = FRAMES;
    assert_eq!(calls_in_kernel(text), 1);
    let input: Vec<u32> = (0..24u32).map(|i| i * 1000 + 17).collect();
    same_on_cpu_and_interpreter(text, &input, 48, 24);
    // The kernel reserves a call area for the two frames: outer's 32 bytes of slots, then
    // inner's 16, each rounded up to the frame alignment.
    let p = compile(text);
    assert_eq!(p.kernel("k").expect("k").call_area, 2 * 128);
}

/// `@wreck(a, start, n)` writes `i` to `a[start + i]` and to `own[start + i]` (an array of
/// its own) for `i < n`; the kernel passes its private array, then stores `gid`, reads it
/// back and writes `out[gid] = 3 * gid`.
const WRECK: &str = r#"
func @wreck(ptr.private, i64, i64) {
    ss0 = slot 16, align 4
block0(v0: ptr.private, v1: i64, v2: i64):
    v3: ptr.private = slotaddr ss0
    v4: i64 = iconst 4
    v5: i64 = iconst 0
    v6: i64 = iconst 1
    jump block1(v5)
block1(v7: i64):
    v8: i1 = icmp slt v7, v2
    brif v8, block2, block3
block2:
    v9: i64 = iadd v1, v7
    v10: i64 = imul v9, v4
    v11: ptr.private = ptradd v0, v10
    v12: i32 = trunc v7
    store.private v12, v11, align 4
    v13: ptr.private = ptradd v3, v10
    store.private v12, v13, align 4
    v14: i64 = iadd v7, v6
    jump block1(v14)
block3:
    return
}
kernel @smash(ptr.global, i64, i64) {
    arg "out": "int*" global none []
    arg "start": "long" private none []
    arg "n": "long" private none []
    ss0 = slot 16, align 4
block0(v0: ptr.global, v1: i64, v2: i64):
    v3: ptr.private = slotaddr ss0
    call @wreck(v3, v1, v2)
    v4: i64 = global_id 0
    v5: i32 = trunc v4
    store.private v5, v3, align 4
    v6: i32 = load.private v3, align 4
    v7: i32 = iconst 3
    v8: i32 = imul v6, v7
    v9: i64 = iconst 4
    v10: i64 = imul v4, v9
    v11: ptr.global = ptradd v0, v10
    store.global v8, v11, align 4
    return
}
"#;

/// Out-of-bounds private writes inside a called function are confined to the launch's
/// private region as they are in a kernel: far below and above the arrays, and a long sweep
/// past their ends, the launch ends normally, the kernel's own round trip reads back what it
/// stored, and the process's memory is intact (a later kernel computes right).
#[test]
fn private_writes_out_of_bounds_in_a_called_function_stay_inside_the_launch() {
    sweep_far_private_writes(&compile(WRECK));
}
