//! Kernels written as IR text, compiled for the CPU device and run over NDRanges; every
//! result is checked against a host computation.

use ferrocl_cpu::NdRange;
use ferrocl_ir::ArgKind;

use crate::common;

use common::{block, compile, nd1, VADD};

#[test]
fn vector_add() {
    let p = compile(VADD);
    let n = 10_000usize;
    let a: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let b: Vec<f32> = (0..n).map(|i| 1.0 - i as f32).collect();
    let mut c = vec![0f32; n];
    let args = block(
        &p,
        "vadd",
        &[a.as_ptr() as u64, b.as_ptr() as u64, c.as_mut_ptr() as u64],
    );
    // 10000 is not a multiple of 64: the last work-group is smaller.
    unsafe {
        p.kernel("vadd")
            .unwrap()
            .launch(&args, 0, &nd1(n as u64, 64))
            .unwrap()
    };
    for i in 0..n {
        assert_eq!(c[i], a[i] + b[i], "element {i}");
    }
}

/// A tree reduction in local memory: a barrier inside a loop, and values (the sum, the
/// stride) live across it.
const REDUCE: &str = r#"
kernel @reduce(ptr.global, ptr.global, ptr.local) {
    arg "in": "int*" global none []
    arg "out": "int*" global none []
    arg "scratch": "int*" local none []
block0(v0: ptr.global, v1: ptr.global, v2: ptr.local):
    v3: i64 = global_id 0
    v4: i64 = local_id 0
    v5: i64 = local_size 0
    v6: i64 = iconst 4
    v7: i64 = imul v3, v6
    v8: ptr.global = ptradd v0, v7
    v9: i32 = load.global v8, align 4
    v10: i64 = imul v4, v6
    v11: ptr.local = ptradd v2, v10
    store.local v9, v11, align 4
    barrier.local.work_group
    v12: i64 = iconst 1
    v13: i64 = lshr v5, v12
    jump block1(v13)
block1(v14: i64):
    v15: i64 = iconst 0
    v16: i1 = icmp ugt v14, v15
    brif v16, block2, block5
block2:
    v17: i1 = icmp ult v4, v14
    brif v17, block3, block4
block3:
    v18: i64 = iadd v4, v14
    v19: i64 = imul v18, v6
    v20: ptr.local = ptradd v2, v19
    v21: i32 = load.local v20, align 4
    v22: i32 = load.local v11, align 4
    v23: i32 = iadd v21, v22
    store.local v23, v11, align 4
    jump block4
block4:
    barrier.local.work_group
    v24: i64 = lshr v14, v12
    jump block1(v24)
block5:
    v25: i1 = icmp eq v4, v15
    brif v25, block6, block7
block6:
    v26: i32 = load.local v2, align 4
    v27: i64 = group_id 0
    v28: i64 = imul v27, v6
    v29: ptr.global = ptradd v1, v28
    store.global v26, v29, align 4
    jump block7
block7:
    return
}
"#;

#[test]
fn tree_reduction_with_barriers_in_a_loop() {
    let p = compile(REDUCE);
    let k = p.kernel("reduce").unwrap();
    assert!(k.frame_size > 0, "values live across barriers need frames");
    assert_eq!(k.args[2].kind, ArgKind::Local);
    let (groups, local) = (37usize, 128usize);
    let input: Vec<i32> = (0..groups * local)
        .map(|i| (i as i32 * 7919) % 1000 - 500)
        .collect();
    let mut out = vec![0i32; groups];
    // The local argument's region starts at offset 0 of local memory.
    let args = block(
        &p,
        "reduce",
        &[input.as_ptr() as u64, out.as_mut_ptr() as u64, 0],
    );
    unsafe {
        k.launch(
            &args,
            local * 4,
            &nd1((groups * local) as u64, local as u64),
        )
        .unwrap()
    };
    for g in 0..groups {
        let want: i32 = input[g * local..(g + 1) * local].iter().sum();
        assert_eq!(out[g], want, "group {g}");
    }
}

/// Every work-item query of a 3-D NDRange with a global offset and non-uniform groups.
const IDS: &str = r#"
kernel @ids(ptr.global) {
    arg "out": "ulong*" global none []
block0(v0: ptr.global):
    v1: i64 = global_linear_id
    v2: i64 = iconst 64
    v3: i64 = imul v1, v2
    v4: ptr.global = ptradd v0, v3
    v5: i64 = global_id 0
    store.global v5, v4, align 8
    v6: i64 = global_id 1
    v7: i64 = iconst 8
    v8: ptr.global = ptradd v4, v7
    store.global v6, v8, align 8
    v9: i64 = global_id 2
    v10: i64 = iconst 16
    v11: ptr.global = ptradd v4, v10
    store.global v9, v11, align 8
    v12: i64 = local_linear_id
    v13: i64 = iconst 24
    v14: ptr.global = ptradd v4, v13
    store.global v12, v14, align 8
    v15: i64 = local_size 0
    v16: i64 = iconst 32
    v17: ptr.global = ptradd v4, v16
    store.global v15, v17, align 8
    v18: i64 = group_id 2
    v19: i64 = iconst 40
    v20: ptr.global = ptradd v4, v19
    store.global v18, v20, align 8
    v21: i32 = work_dim
    v22: i64 = zext v21
    v23: i64 = iconst 48
    v24: ptr.global = ptradd v4, v23
    store.global v22, v24, align 8
    v25: i64 = num_groups 1
    v26: i64 = iconst 56
    v27: ptr.global = ptradd v4, v26
    store.global v25, v27, align 8
    return
}
"#;

#[test]
fn three_dimensional_ids_with_offsets_and_partial_groups() {
    let p = compile(IDS);
    let gs = [10u64, 7, 3];
    let ls = [4u64, 3, 2];
    let off = [5u64, 100, 1000];
    let n = (gs[0] * gs[1] * gs[2]) as usize;
    let mut out = vec![0u64; n * 8];
    let args = block(&p, "ids", &[out.as_mut_ptr() as u64]);
    let nd = NdRange {
        work_dim: 3,
        global_offset: off,
        global_size: gs,
        local_size: ls,
    };
    unsafe { p.kernel("ids").unwrap().launch(&args, 0, &nd).unwrap() };
    for z in 0..gs[2] {
        for y in 0..gs[1] {
            for x in 0..gs[0] {
                let lin = ((z * gs[1] + y) * gs[0] + x) as usize;
                let rec = &out[lin * 8..lin * 8 + 8];
                let (lx, ly, lz) = (x % ls[0], y % ls[1], z % ls[2]);
                let this_ls0 = ls[0].min(gs[0] - (x / ls[0]) * ls[0]);
                let this_ls1 = ls[1].min(gs[1] - (y / ls[1]) * ls[1]);
                assert_eq!(
                    rec[0..3],
                    [x + off[0], y + off[1], z + off[2]],
                    "global id of {x},{y},{z}"
                );
                assert_eq!(
                    rec[3],
                    (lz * this_ls1 + ly) * this_ls0 + lx,
                    "local linear id of {x},{y},{z}"
                );
                assert_eq!(rec[4], this_ls0);
                assert_eq!(rec[5], z / ls[2]);
                assert_eq!(rec[6], 3);
                assert_eq!(rec[7], gs[1].div_ceil(ls[1]));
            }
        }
    }
}

/// Integer and float edge cases: division that must not trap, saturation, rounding modes.
const ARITH: &str = r#"
kernel @arith(ptr.global, ptr.global) {
    arg "in": "int*" global none []
    arg "out": "int*" global none []
block0(v0: ptr.global, v1: ptr.global):
    v2: i64 = global_id 0
    v3: i64 = iconst 8
    v4: i64 = imul v2, v3
    v5: ptr.global = ptradd v0, v4
    v6: i32 = load.global v5, align 4
    v7: i64 = iconst 4
    v8: ptr.global = ptradd v5, v7
    v9: i32 = load.global v8, align 4
    v10: i32 = sdiv v6, v9
    v11: i32 = urem v6, v9
    v12: i8 = satconv.s.s v6
    v13: i32 = sext v12
    v14: f32 = sitofp.rtz v6
    v15: f32 = sitofp.rtp v6
    v16: i32 = bitcast v14
    v17: i32 = bitcast v15
    v18: i64 = iconst 32
    v19: i64 = imul v2, v18
    v20: ptr.global = ptradd v1, v19
    store.global v10, v20, align 4
    v21: ptr.global = ptradd v20, v7
    store.global v11, v21, align 4
    v22: ptr.global = ptradd v21, v7
    store.global v13, v22, align 4
    v23: ptr.global = ptradd v22, v7
    store.global v16, v23, align 4
    v24: ptr.global = ptradd v23, v7
    store.global v17, v24, align 4
    v25: i32 = clz v6
    v26: ptr.global = ptradd v24, v7
    store.global v25, v26, align 4
    v27: i32 = ashr v6, v9
    v28: ptr.global = ptradd v26, v7
    store.global v27, v28, align 4
    v29: i32 = rotl v6, v9
    v30: ptr.global = ptradd v28, v7
    store.global v29, v30, align 4
    return
}
"#;

/// The host's idea of converting an integer to f32 with a directed rounding: round to
/// nearest, then step toward the direction when that overshot.
fn to_f32_directed(x: i32, up: bool, toward_zero: bool) -> f32 {
    let d = x as f32;
    let exact = f64::from(x);
    let dd = f64::from(d);
    let step = |d: f32, up: bool| {
        let b = d.to_bits() as i32;
        f32::from_bits(if (b < 0) == up {
            (b - 1) as u32
        } else {
            (b + 1) as u32
        })
    };
    if toward_zero {
        if d > 0.0 && dd > exact {
            step(d, false)
        } else if d < 0.0 && dd < exact {
            step(d, true)
        } else {
            d
        }
    } else if up && dd < exact {
        step(d, true)
    } else {
        d
    }
}

#[test]
fn arithmetic_edge_cases() {
    let p = compile(ARITH);
    let pairs: Vec<(i32, i32)> = vec![
        (7, 2),
        (-7, 2),
        (i32::MIN, -1),
        (5, 0),
        (300, 3),
        (-300, 33),
        (16_777_217, 1),
        (-16_777_219, 5),
        (i32::MAX, 31),
        (1, 0),
        (0, 1),
        (123_456_789, -3),
    ];
    let input: Vec<i32> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
    let mut out = vec![0i32; pairs.len() * 8];
    let args = block(
        &p,
        "arith",
        &[input.as_ptr() as u64, out.as_mut_ptr() as u64],
    );
    unsafe {
        p.kernel("arith")
            .unwrap()
            .launch(&args, 0, &nd1(pairs.len() as u64, 4))
            .unwrap()
    };
    for (i, &(a, b)) in pairs.iter().enumerate() {
        let r = &out[i * 8..i * 8 + 8];
        // Division by zero and overflow give unspecified values, but must not trap.
        if b != 0 && !(a == i32::MIN && b == -1) {
            assert_eq!(r[0], a / b, "{a} / {b}");
            assert_eq!(r[1] as u32, (a as u32) % (b as u32), "{a} urem {b}");
        }
        assert_eq!(r[2], a.clamp(-128, 127), "sat {a}");
        assert_eq!(
            f32::from_bits(r[3] as u32),
            to_f32_directed(a, false, true),
            "rtz {a}"
        );
        assert_eq!(
            f32::from_bits(r[4] as u32),
            to_f32_directed(a, true, false),
            "rtp {a}"
        );
        assert_eq!(r[5], a.leading_zeros() as i32, "clz {a}");
        assert_eq!(r[6], a >> (b & 31), "{a} >> {b}");
        assert_eq!(r[7], a.rotate_left((b & 31) as u32), "rotl {a} {b}");
    }
}

/// Calls of library builtins left unlinked: a vector call, a two-argument call, and a call
/// that writes each lane through a pointer to a vector.
const LIBCALLS: &str = r#"
declare @sin.float4(f32x4) -> f32x4
declare @pow.float.float(f32, f32) -> f32
declare @frexp.float2.private_ptr_int2(f32x2, ptr.private) -> f32x2

kernel @lib(ptr.global, ptr.global) {
    arg "in": "float4*" global none []
    arg "out": "float*" global none []
    ss0 = slot 8, align 8
block0(v0: ptr.global, v1: ptr.global):
    v2: i64 = global_id 0
    v3: i64 = iconst 16
    v4: i64 = imul v2, v3
    v5: ptr.global = ptradd v0, v4
    v6: f32x4 = load.global v5, align 16
    v7: f32x4 = call @sin.float4(v6)
    v8: i64 = iconst 48
    v9: i64 = imul v2, v8
    v10: ptr.global = ptradd v1, v9
    store.global v7, v10, align 4
    v11: f32 = extractlane v6, 0
    v12: f32 = extractlane v6, 1
    v13: f32 = call @pow.float.float(v11, v12)
    v14: ptr.global = ptradd v10, v3
    store.global v13, v14, align 4
    v15: f32x2 = shuffle v6, v6, [2, 3]
    v16: ptr.private = slotaddr ss0
    v17: f32x2 = call @frexp.float2.private_ptr_int2(v15, v16)
    v18: i64 = iconst 20
    v19: ptr.global = ptradd v10, v18
    store.global v17, v19, align 4
    v20: i32x2 = load.private v16, align 8
    v21: i64 = iconst 28
    v22: ptr.global = ptradd v10, v21
    store.global v20, v22, align 4
    return
}
"#;

/// The CPU device computes no builtin itself (the shared library is linked and inlined before
/// code generation): a module that still calls one is refused with a message naming it.
#[test]
fn unlinked_builtins_are_refused() {
    let module = ferrocl_ir::parse_module(LIBCALLS).unwrap_or_else(|e| panic!("{e:?}"));
    ferrocl_ir::verify_module(&module).unwrap_or_else(|e| panic!("{e:?}"));
    let err = match ferrocl_cpu::CpuProgram::compile(&module) {
        Ok(_) => panic!("a module calling @sin.float4 compiled"),
        Err(e) => e.to_string(),
    };
    assert!(err.contains("@sin.float4"), "{err}");
}

/// Branches that pass arguments to their targets, from `brif` and `switch`: each becomes an
/// edge block, filled after the branch ends its block.
const EDGES: &str = r#"
kernel @edges(ptr.global) {
    arg "out": "int*" global none []
block0(v0: ptr.global):
    v1: i64 = global_id 0
    v2: i32 = trunc v1
    v3: i32 = iconst 3
    v4: i32 = urem v2, v3
    v5: i32 = iconst 0
    v6: i1 = icmp eq v4, v5
    v7: i32 = iconst 100
    brif v6, block1(v7), block2(v2)
block1(v8: i32):
    jump block3(v8)
block2(v9: i32):
    switch v4, block3(v9), [1: block3(v3), 7: block4]
block3(v10: i32):
    v11: i64 = iconst 4
    v12: i64 = imul v1, v11
    v13: ptr.global = ptradd v0, v12
    store.global v10, v13, align 4
    return
block4:
    return
}
"#;

#[test]
fn branches_with_arguments() {
    let p = compile(EDGES);
    let mut out = vec![0i32; 9];
    let args = block(&p, "edges", &[out.as_mut_ptr() as u64]);
    unsafe {
        p.kernel("edges")
            .unwrap()
            .launch(&args, 0, &nd1(9, 3))
            .unwrap()
    };
    // i % 3 == 0: 100; == 1: 3 (the switch case); == 2: i (the default).
    let want: Vec<i32> = (0..9)
        .map(|i| match i % 3 {
            0 => 100,
            1 => 3,
            _ => i,
        })
        .collect();
    assert_eq!(out, want);
}

/// A kernel that sees only its global id and size, and one that sees its group and local ids.
const GROUPS: &str = r#"
kernel @global_only(ptr.global) {
    arg "out": "long*" global none []
block0(v0: ptr.global):
    v1: i64 = global_id 0
    v2: i64 = global_size 0
    v3: i64 = imul v1, v2
    v4: i64 = iconst 8
    v5: i64 = imul v1, v4
    v6: ptr.global = ptradd v0, v5
    store.global v3, v6, align 8
    return
}

kernel @group_ids(ptr.global) {
    arg "out": "long*" global none []
block0(v0: ptr.global):
    v1: i64 = global_id 0
    v2: i64 = group_id 0
    v3: i64 = local_id 0
    v4: i64 = iconst 1000
    v5: i64 = imul v2, v4
    v6: i64 = iadd v5, v3
    v7: i64 = iconst 8
    v8: i64 = imul v1, v7
    v9: ptr.global = ptradd v0, v8
    store.global v6, v9, align 8
    return
}
"#;

/// A kernel that cannot tell its work-groups apart may run several as one (`merged`); its
/// results are those of the groups it was given, also with a partial last group, and a
/// kernel that reads its group and local ids gets the groups it asked for.
#[test]
fn small_groups_of_a_kernel_blind_to_them() {
    let p = compile(GROUPS);
    assert!(p.kernel("global_only").unwrap().group_blind);
    assert!(!p.kernel("group_ids").unwrap().group_blind);
    // 126 groups of 8, the last of 3 work-items; 512 groups of 8; 7 groups of 3; a prime
    // number of groups (8191 of 2, 10007 of 1), merged with a partial last group.
    for (n, local) in [
        (1003usize, 8u64),
        (4096, 8),
        (21, 3),
        (16382, 2),
        (10007, 1),
    ] {
        // One element past the range stays untouched.
        let mut out = vec![-1i64; n + 1];
        let args = block(&p, "global_only", &[out.as_mut_ptr() as u64]);
        unsafe {
            p.kernel("global_only")
                .unwrap()
                .launch(&args, 0, &nd1(n as u64, local))
                .unwrap()
        };
        for (i, &v) in out[..n].iter().enumerate() {
            assert_eq!(v, (i * n) as i64, "global_only, n {n}, element {i}");
        }
        assert_eq!(out[n], -1, "global_only, n {n}: written past the range");

        let mut out = vec![-1i64; n];
        let args = block(&p, "group_ids", &[out.as_mut_ptr() as u64]);
        unsafe {
            p.kernel("group_ids")
                .unwrap()
                .launch(&args, 0, &nd1(n as u64, local))
                .unwrap()
        };
        for (i, &v) in out.iter().enumerate() {
            let want = (i as u64 / local) * 1000 + i as u64 % local;
            assert_eq!(v, want as i64, "group_ids, n {n}, element {i}");
        }
    }
}
