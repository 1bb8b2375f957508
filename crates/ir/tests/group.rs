//! Work-group collective operations (`group_*`): what the verifier accepts, their identities,
//! and what the reference interpreter computes over a whole NDRange.

use ferrocl_ir::interp::{run_ndrange, KernelArgValue, Memory, NdRange, Val};
use ferrocl_ir::uniformity::Uniformity;
use ferrocl_ir::{parse_module, verify_module, BinaryOp, Value};

#[test]
fn identities_are_those_the_spec_names() {
    // 6.15.16: INT_MAX, UINT_MAX, LONG_MAX, ULONG_MAX and +INF for min; INT_MIN, 0,
    // LONG_MIN, 0 and -INF for max; 0 for add. 6.15.17: 1 for mul, ~0 for and.
    assert_eq!(BinaryOp::Smin.identity(32), Some(i32::MAX as u64));
    assert_eq!(BinaryOp::Umin.identity(32), Some(u64::from(u32::MAX)));
    assert_eq!(BinaryOp::Smin.identity(64), Some(i64::MAX as u64));
    assert_eq!(BinaryOp::Umin.identity(64), Some(u64::MAX));
    assert_eq!(
        BinaryOp::Smax.identity(32),
        Some(u64::from(i32::MIN as u32))
    );
    assert_eq!(BinaryOp::Smax.identity(64), Some(i64::MIN as u64));
    assert_eq!(BinaryOp::Umax.identity(64), Some(0));
    assert_eq!(BinaryOp::Iadd.identity(32), Some(0));
    assert_eq!(BinaryOp::Imul.identity(64), Some(1));
    assert_eq!(BinaryOp::Band.identity(32), Some(u64::from(u32::MAX)));
    assert_eq!(
        BinaryOp::Fmin.identity(32),
        Some(u64::from(f32::INFINITY.to_bits()))
    );
    assert_eq!(
        BinaryOp::Fmax.identity(64),
        Some(f64::NEG_INFINITY.to_bits())
    );
    assert_eq!(BinaryOp::Fadd.identity(32), Some(0));
    assert_eq!(BinaryOp::Fsub.identity(32), None);
    assert!(!BinaryOp::Isub.is_group_combinable());
}

fn verify(body: &str, params: &str) -> Result<(), String> {
    let text = format!("func @k({params}) {{\nblock0{body}\n    return\n}}\n");
    let m = parse_module(&text).unwrap_or_else(|e| panic!("{e}"));
    verify_module(&m).map_err(|e| format!("{e:?}"))
}

#[test]
fn the_verifier_checks_operand_types() {
    verify(
        "(v0: i32, v1: i64):\n    v2: i32 = group_broadcast v0, v1",
        "i32, i64",
    )
    .unwrap();
    verify("(v0: f32):\n    v1: f32 = group_reduce.fmax v0", "f32").unwrap();
    verify(
        "(v0: i64):\n    v1: i64 = group_scan_exclusive.umin v0",
        "i64",
    )
    .unwrap();
    // Float operation on integers, integer operation on floats.
    assert!(verify("(v0: i32):\n    v1: i32 = group_reduce.fadd v0", "i32").is_err());
    assert!(verify("(v0: f32):\n    v1: f32 = group_reduce.iadd v0", "f32").is_err());
    // Not a combining operation.
    assert!(verify("(v0: i32):\n    v1: i32 = group_reduce.isub v0", "i32").is_err());
    // Vectors, booleans, a result of another type, a 32-bit id.
    assert!(verify(
        "(v0: i32x4):\n    v1: i32x4 = group_reduce.iadd v0",
        "i32x4"
    )
    .is_err());
    assert!(verify("(v0: i1):\n    v1: i1 = group_reduce.bor v0", "i1").is_err());
    assert!(verify("(v0: i32):\n    v1: i64 = group_reduce.iadd v0", "i32").is_err());
    assert!(verify(
        "(v0: i32, v1: i32):\n    v2: i32 = group_broadcast v0, v1",
        "i32, i32"
    )
    .is_err());
    // A modifier the operation does not take, or a missing one.
    let text = "func @k(i32) {\nblock0(v0: i32):\n    v1: i32 = group_reduce v0\n    return\n}\n";
    assert!(parse_module(text).is_err());
}

/// Each work-item loads `in[global id]` and writes reduce add, inclusive scan smin,
/// exclusive scan smax and the broadcast of item 3's value.
const KERNEL: &str = "kernel @k(ptr.global, ptr.global) {
    arg \"in\": \"int*\" global none []
    arg \"out\": \"int*\" global none []
block0(v0: ptr.global, v1: ptr.global):
    v2: i64 = global_id 0
    v3: i64 = iconst 4
    v4: i64 = imul v2, v3
    v5: ptr.global = ptradd v0, v4
    v6: i32 = load.global v5, align 4
    v7: i32 = group_reduce.iadd v6
    v8: i32 = group_scan_inclusive.smin v6
    v9: i32 = group_scan_exclusive.smax v6
    v10: i64 = iconst 3
    v11: i32 = group_broadcast v6, v10
    v12: i64 = iconst 16
    v13: i64 = imul v2, v12
    v14: ptr.global = ptradd v1, v13
    store.global v7, v14, align 4
    v15: ptr.global = ptradd v14, v3
    store.global v8, v15, align 4
    v16: i64 = iconst 8
    v17: ptr.global = ptradd v14, v16
    store.global v9, v17, align 4
    v18: i64 = iconst 12
    v19: ptr.global = ptradd v14, v18
    store.global v11, v19, align 4
    return
}
";

#[test]
fn the_interpreter_combines_in_local_id_order() {
    let m = parse_module(KERNEL).unwrap_or_else(|e| panic!("{e}"));
    verify_module(&m).unwrap_or_else(|e| panic!("{e:?}"));
    let input: Vec<i32> = vec![5, -3, 9, 7, 2, 11, 0, -8, 4, 6];
    let mut mem = Memory::default();
    let inp = mem.alloc_from(&input);
    let out = mem.alloc_from(&[0i32; 40]);
    let range = NdRange {
        work_dim: 1,
        global_size: [10, 1, 1],
        local_size: [5, 1, 1],
        global_offset: [0; 3],
        sub_group_size: 8,
    };
    let args = [
        KernelArgValue::Val(Val::scalar(inp)),
        KernelArgValue::Val(Val::scalar(out)),
    ];
    let (mem, r) = run_ndrange(&m, m.func_by_name("k").expect("@k"), &args, mem, &range);
    r.expect("runs");
    let got: Vec<i32> = mem.read_as(out);
    for (g, group) in input.chunks(5).enumerate() {
        let sum: i32 = group.iter().sum();
        for l in 0..5 {
            let row = &got[(g * 5 + l) * 4..(g * 5 + l) * 4 + 4];
            let incl_min = *group[..=l].iter().min().expect("non-empty");
            let excl_max = group[..l].iter().copied().max().unwrap_or(i32::MIN);
            assert_eq!(
                row,
                &[sum, incl_min, excl_max, group[3]],
                "group {g}, item {l}"
            );
        }
    }
}

/// Sub-groups of `sub_group_size` work-items in linear local id order, the last of a
/// work-group smaller: the queries and a sub-group reduction.
#[test]
fn the_interpreter_groups_sub_groups_by_linear_local_id() {
    let m = parse_module(
        "kernel @k(ptr.global) {
    arg \"out\": \"long*\" global none []
block0(v0: ptr.global):
    v1: i64 = global_linear_id
    v2: i64 = sub_group_id
    v3: i64 = sub_group_local_id
    v4: i64 = sub_group_size
    v5: i64 = num_sub_groups
    v6: i64 = max_sub_group_size
    v7: i64 = sub_group_reduce.iadd v1
    v8: i64 = iconst 48
    v9: i64 = imul v1, v8
    v10: ptr.global = ptradd v0, v9
    store.global v2, v10, align 8
    v11: i64 = iconst 8
    v12: ptr.global = ptradd v10, v11
    store.global v3, v12, align 8
    v13: ptr.global = ptradd v12, v11
    store.global v4, v13, align 8
    v14: ptr.global = ptradd v13, v11
    store.global v5, v14, align 8
    v15: ptr.global = ptradd v14, v11
    store.global v6, v15, align 8
    v16: ptr.global = ptradd v15, v11
    store.global v7, v16, align 8
    return
}
",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    verify_module(&m).unwrap_or_else(|e| panic!("{e:?}"));
    let mut mem = Memory::default();
    let out = mem.alloc_from(&[0i64; 40 * 6]);
    let range = NdRange {
        work_dim: 1,
        global_size: [40, 1, 1],
        local_size: [20, 1, 1],
        global_offset: [0; 3],
        sub_group_size: 8,
    };
    let args = [KernelArgValue::Val(Val::scalar(out))];
    let (mem, r) = run_ndrange(&m, m.func_by_name("k").expect("@k"), &args, mem, &range);
    r.expect("runs");
    let got: Vec<i64> = mem.read_as(out);
    for i in 0..40i64 {
        let (l, group_start) = (i % 20, i / 20 * 20);
        let (k, size) = (l / 8, if l >= 16 { 4 } else { 8 });
        let first = group_start + k * 8;
        let sum: i64 = (first..first + size).sum();
        assert_eq!(
            &got[i as usize * 6..i as usize * 6 + 6],
            &[k, l % 8, size, 3, 8, sum],
            "work-item {i}"
        );
    }
}

#[test]
fn reduce_and_broadcast_results_are_uniform_and_scans_are_not() {
    let text = "kernel @k() {
block0:
    v0: i64 = local_id 0
    v1: i64 = group_reduce.iadd v0
    v2: i64 = iconst 1
    v3: i64 = group_scan_inclusive.iadd v2
    v4: i64 = group_broadcast v0, v2
    v5: i64 = iadd v1, v4
    v6: i64 = iadd v1, v0
    return
}
";
    let m = parse_module(text).unwrap_or_else(|e| panic!("{e}"));
    verify_module(&m).unwrap_or_else(|e| panic!("{e:?}"));
    let u = Uniformity::new(&m.funcs[m.func_by_name("k").expect("@k")]);
    let v = Value::from_u32;
    assert!(!u.is_uniform(v(0)));
    assert!(
        u.is_uniform(v(1)),
        "a reduce of divergent values is uniform"
    );
    assert!(
        !u.is_uniform(v(3)),
        "a scan of a uniform value is divergent"
    );
    assert!(u.is_uniform(v(4)));
    assert!(u.is_uniform(v(5)));
    assert!(!u.is_uniform(v(6)));
}
