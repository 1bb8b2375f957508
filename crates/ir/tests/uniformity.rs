//! The uniformity analysis finds the values and branches that are equal for all work-items
//! of a work-group, and never calls a divergent one uniform.

use ferrocl_ir::uniformity::Uniformity;
use ferrocl_ir::*;

fn analyze(text: &str) -> (Module, Uniformity) {
    let m = parse_module(text).unwrap_or_else(|e| panic!("{e}"));
    verify_module(&m).unwrap_or_else(|e| panic!("{e:?}"));
    let f = m.funcs.keys().next().expect("a function");
    let u = Uniformity::new(&m.funcs[f]);
    (m, u)
}

fn v(n: u32) -> Value {
    Value::from_u32(n)
}

fn b(n: u32) -> Block {
    Block::from_u32(n)
}

#[test]
fn sources_and_propagation() {
    let (_, u) = analyze(
        "kernel @k(ptr.global, ptr.constant, i64) {
    arg \"a\": \"int*\" global none []
    arg \"c\": \"int*\" constant none []
    arg \"n\": \"long\" private none []
block0(v0: ptr.global, v1: ptr.constant, v2: i64):
    v3: i64 = global_id 0
    v4: i64 = group_id 0
    v5: i64 = iadd v2, v4
    v6: i64 = iadd v3, v2
    v7: i32 = load.global v0, align 4
    v8: i32 = load.constant v1, align 4
    v9: ptr.constant = ptradd v1, v6
    v10: i32 = load.constant v9, align 4
    v11: i64 = local_size 0
    v12: i32 = sub_group_local_id
    return
}
",
    );
    for (n, uniform) in [
        (0, true),
        (1, true),
        (2, true),
        (3, false),
        (4, true),
        (5, true),
        (6, false),
        (7, false),
        (8, true),
        (9, false),
        (10, false),
        (11, true),
        (12, false),
    ] {
        assert_eq!(u.is_uniform(v(n)), uniform, "v{n}");
    }
}

#[test]
fn joins_of_divergent_branches_are_divergent() {
    let (_, u) = analyze(
        "kernel @k(i32) {
    arg \"n\": \"int\" private none []
block0(v0: i32):
    v1: i32 = local_id 0
    v2: i32 = iconst 1
    v3: i32 = iconst 2
    v4: i1 = icmp slt v1, v0
    brif v4, block1(v2), block1(v3)
block1(v5: i32):
    v6: i1 = icmp slt v0, v2
    brif v6, block2, block3
block2:
    jump block4(v2)
block3:
    jump block4(v3)
block4(v7: i32):
    jump block5(v5)
block5(v8: i32):
    v9: i32 = iadd v7, v0
    return
}
",
    );
    // block1 joins a branch on the local id: its parameter differs even though both
    // arguments are constants.
    assert!(!u.is_uniform(v(5)));
    assert!(!u.is_uniform_branch(b(0)));
    // block4 joins a branch on a kernel argument: uniform.
    assert!(u.is_uniform_branch(b(1)));
    assert!(u.is_uniform(v(7)));
    assert!(u.is_uniform(v(9)));
    // block5 passes on the divergent v5.
    assert!(!u.is_uniform(v(8)));
}

#[test]
fn loops_left_at_different_iterations_make_their_values_divergent() {
    let (_, u) = analyze(
        "kernel @k(i32) {
    arg \"n\": \"int\" private none []
block0(v0: i32):
    v1: i32 = iconst 0
    v2: i32 = local_id 0
    jump block1(v1)
block1(v3: i32):
    v4: i32 = iconst 1
    v5: i32 = iadd v3, v4
    v6: i1 = icmp slt v5, v0
    brif v6, block1(v5), block2
block2:
    jump block3(v1)
block3(v7: i32):
    v8: i32 = iadd v7, v4
    v9: i1 = icmp slt v8, v2
    brif v9, block3(v8), block4
block4:
    v10: i32 = imul v8, v8
    return
}
",
    );
    // The first loop runs n times for everyone.
    assert!(u.is_uniform(v(3)) && u.is_uniform(v(5)));
    assert!(u.is_uniform_branch(b(1)));
    // The second runs local_id times: its counter, and what is computed from it after the
    // loop, differ.
    assert!(!u.is_uniform_branch(b(3)));
    assert!(!u.is_uniform(v(8)));
    assert!(!u.is_uniform(v(10)));
}

#[test]
fn private_memory_and_calls_are_divergent_and_helper_parameters_unknown() {
    let (_, u) = analyze(
        "func @h(i32) -> i32 {
    ss0 = slot 4, align 4
block0(v0: i32):
    v1: ptr.private = slotaddr ss0
    v2: i32 = iconst 3
    store.private v2, v1, align 4
    v3: i32 = load.private v1, align 4
    v4: i32 = call @g(v2)
    return v3
}

declare @g(i32) -> i32
",
    );
    assert!(
        !u.is_uniform(v(0)),
        "parameters of a non-kernel function are not known"
    );
    assert!(!u.is_uniform(v(1)));
    assert!(u.is_uniform(v(2)));
    assert!(!u.is_uniform(v(3)));
    assert!(!u.is_uniform(v(4)));
}
