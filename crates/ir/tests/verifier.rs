//! The verifier rejects each kind of malformed IR with a message that names the problem.

use ferrocl_ir::{parse_module, verify_module};

/// Parses `text` (which must be syntactically valid) and returns the verifier's messages.
fn errors(text: &str) -> Vec<String> {
    let m = parse_module(text).unwrap_or_else(|e| panic!("parse error {e} in\n{text}"));
    match verify_module(&m) {
        Ok(()) => Vec::new(),
        Err(es) => es.iter().map(|e| e.to_string()).collect(),
    }
}

fn rejects(text: &str, want: &str) {
    let es = errors(text);
    assert!(
        es.iter().any(|e| e.contains(want)),
        "expected an error containing {want:?}, got {es:#?}\nin\n{text}"
    );
}

fn func(body: &str) -> String {
    format!("func @f(i32, f32, ptr.global) -> i32 {{\nblock0(v0: i32, v1: f32, v2: ptr.global):\n{body}}}\n")
}

#[test]
fn accepts_a_valid_function() {
    assert_eq!(
        errors(&func("    v3: i32 = iadd v0, v0\n    return v3\n")),
        Vec::<String>::new()
    );
}

#[test]
fn operand_types_must_match() {
    rejects(
        &func("    v3: i32 = iadd v0, v1\n    return v3\n"),
        "operand types differ: i32 and f32",
    );
    rejects(
        &func("    v3: f32 = iadd v1, v1\n    return v0\n"),
        "operands of type f32",
    );
    rejects(
        &func("    v3: i32 = fadd v0, v0\n    return v0\n"),
        "operands of type i32",
    );
    rejects(
        &func("    v3: i64 = iadd v0, v0\n    return v0\n"),
        "result type i64 differs",
    );
    rejects(
        &func("    v3: i32 = icmp eq v0, v0\n    return v0\n"),
        "result type i32, must be i1",
    );
    rejects(
        &func("    v3: i32 = select v0, v0, v0\n    return v0\n"),
        "condition of type i32",
    );
}

#[test]
fn constants_fit_their_type() {
    rejects(
        &func("    v3: i32 = iconst 0\n    v4: i8 = iconst 0\n    return v3\n")
            .replace("v4: i8 = iconst 0", "v4: f32 = iconst 0"),
        "iconst of type f32",
    );
}

#[test]
fn conversions_are_checked() {
    rejects(
        &func("    v3: i64 = trunc v0\n    return v0\n"),
        "cannot convert i32 to i64 with trunc",
    );
    rejects(
        &func("    v3: i32 = fconv.rte v1\n    return v0\n"),
        "cannot convert f32 to i32 with fconv",
    );
    rejects(
        &func("    v3: i64 = bitcast v1\n    return v0\n"),
        "cannot bitcast f32 to i64",
    );
    rejects(
        &func("    v3: f32x4 = splat v1\n    v4: i32x4 = sext v3\n    return v0\n"),
        "cannot convert f32x4",
    );
}

#[test]
fn uses_must_be_dominated_by_definitions() {
    let text = "func @f(i1) -> i32 {
block0(v0: i1):
    brif v0, block1, block2
block1:
    v1: i32 = iconst 1
    jump block2
block2:
    return v1
}
";
    rejects(
        text,
        "uses v1, whose definition in block1 does not dominate the use",
    );
    rejects(
        &func("    v3: i32 = iadd v4, v0\n    v4: i32 = iconst 1\n    return v3\n"),
        "uses v4, whose definition in block0 does not dominate",
    );
}

#[test]
fn branch_arguments_match_block_parameters() {
    let text = "func @f(i32) {
block0(v0: i32):
    jump block1
block1(v1: i32):
    return
}
";
    rejects(text, "passes 0 arguments to block1, which has 1 parameters");
    let text = "func @f(i32, f32) {
block0(v0: i32, v3: f32):
    jump block1(v3)
block1(v1: i32):
    return
}
";
    rejects(
        text,
        "argument 0 to block1 is v3: f32, the parameter v1 is i32",
    );
}

#[test]
fn blocks_end_in_exactly_one_terminator() {
    rejects(
        &func("    v3: i32 = iadd v0, v0\n"),
        "block does not end in a terminator",
    );
    rejects(
        &func("    return v0\n    return v0\n"),
        "terminator in the middle of a block",
    );
    let text = "func @f() {
block0:
    jump block0
}
";
    rejects(text, "branches to the entry block block0");
}

#[test]
fn entry_parameters_and_returns_follow_the_signature() {
    rejects(
        "func @f(i32) {\nblock0(v0: f32):\n    return\n}\n",
        "entry block parameters (f32) do not match the signature (i32)",
    );
    rejects(
        &func("    return v1\n"),
        "returns (f32), the function returns (i32)",
    );
    rejects(
        &func("    return\n"),
        "returns (), the function returns (i32)",
    );
}

#[test]
fn address_spaces_are_consistent() {
    rejects(
        &func("    v3: i32 = load.local v2, align 4\n    return v3\n"),
        "accesses the local address space through v2, a ptr.global",
    );
    rejects(
        &func("    v3: i32 = load.global v0, align 4\n    return v3\n"),
        "address v0 has type i32, not a pointer",
    );
    rejects(
        &func("    v3: i32 = load.global v2, align 3\n    return v3\n"),
        "alignment 3 is not a power of two",
    );
    rejects(
        "func @f(ptr.constant, i32) {\nblock0(v0: ptr.constant, v1: i32):\n    store.constant v1, v0, align 4\n    return\n}\n",
        "stores to the constant address space",
    );
    rejects(
        &func("    v3: i32 = load.global.trusted v2, align 4\n    return v3\n"),
        "a trusted access of global memory",
    );
    assert_eq!(
        errors("func @f(ptr.local, i32) {\nblock0(v0: ptr.local, v1: i32):\n    store.local.trusted v1, v0, align 4\n    return\n}\n"),
        Vec::<String>::new()
    );
    rejects(
        "func @f(ptr.global) {\nblock0(v0: ptr.global):\n    v1: ptr.local = addrcast v0\n    return\n}\n",
        "one side must be generic",
    );
    rejects(
        "func @f(ptr.private, i32) {\nblock0(v0: ptr.private, v1: i32):\n    v2: i32 = atomic_rmw.add.relaxed.device.private v0, v1\n    return\n}\n",
        "atomic access to the private address space",
    );
    rejects(
        "global @g: local, size 4, align 4\nfunc @f() {\nblock0:\n    v0: ptr.global = globaladdr @g\n    return\n}\n",
        "the address of @g is a ptr.local",
    );
    rejects(
        "global @g: local, size 2, align 4, init \"0000\"\n",
        "a local variable cannot have an initializer",
    );
    rejects(
        "global @g: private, size 2, align 4\n",
        "cannot live in the private address space",
    );
    rejects(
        "global @g: global, size 4, align 4, init \"00\"\n",
        "initializer has 1 bytes, the size is 4",
    );
}

#[test]
fn atomics_have_legal_orderings() {
    rejects(
        &func("    v3: i32 = atomic_load.release.device.global v2\n    return v3\n"),
        "atomic load with ordering release",
    );
    rejects(
        &func("    atomic_store.acquire.device.global v0, v2\n    return v0\n"),
        "atomic store with ordering acquire",
    );
    rejects(
        &func("    v3: i32 = cmpxchg.seq_cst.acq_rel.device.global v2, v0, v0\n    return v3\n"),
        "failure ordering acq_rel",
    );
    rejects(
        &func("    v3: f32 = atomic_rmw.and.relaxed.device.global v2, v1\n    return v0\n"),
        "atomic operand of type f32",
    );
}

#[test]
fn calls_follow_the_callee_signature() {
    let text = "declare @g(f32) -> f32
func @f(i32) {
block0(v0: i32):
    v1: f32 = call @g(v0)
    return
}
";
    rejects(text, "calls @g(f32) with (i32)");
    let text = "declare @g(f32) -> f32
func @f(f32) {
block0(v0: f32):
    call @g(v0)
    return
}
";
    rejects(text, "@g returns f32");
}

#[test]
fn variadic_calls_check_the_fixed_part() {
    let decl = "declare @printf(ptr.constant, ...) -> i32\n";
    let call = |args: &str, sig: &str| {
        format!("{decl}func @f(ptr.constant, i32, i1) {{\nblock0(v0: ptr.constant, v1: i32, v2: i1):\n    v3: i32 = call @printf({args})\n    return\n}}\n")
            .replace("(ptr.constant, ...)", sig)
    };
    assert_eq!(
        errors(&call("v0, v1, v1", "(ptr.constant, ...)")),
        Vec::<String>::new()
    );
    rejects(
        &call("v1, v1", "(ptr.constant, ...)"),
        "calls @printf(ptr.constant) with (i32, i32)",
    );
    rejects(
        &call("v0, v2", "(ptr.constant, ...)"),
        "calls @printf(ptr.constant) with (ptr.constant, i1)",
    );
    rejects(
        "func @f(...) {\nblock0:\n    return\n}\n",
        "only a declaration may be variadic",
    );
}

#[test]
fn vectors_are_checked() {
    rejects(
        &func("    v3: f32x4 = splat v1\n    v4: f32 = extractlane v3, 4\n    return v0\n"),
        "no lane 4 in f32x4",
    );
    rejects(
        &func("    v3: f32x4 = splat v1\n    v4: f32x2 = shuffle v3, v3, [0, 8]\n    return v0\n"),
        "mask index 8 out of range",
    );
    rejects(
        &func("    v3: f32x4 = splat v1\n    v4: i32x4 = insertlane v3, v0, 1\n    return v0\n"),
        "inserts a i32 into f32x4",
    );
}

#[test]
fn kernels_are_checked() {
    rejects(
        "kernel @k() -> i32 {\nblock0:\n    v0: i32 = iconst 0\n    return v0\n}\n",
        "a kernel returns no value",
    );
    rejects(
        "kernel @k(i32) {\nblock0(v0: i32):\n    return\n}\n",
        "kernel has 0 argument descriptions for 1 parameters",
    );
}

#[test]
fn work_item_dimensions_are_checked() {
    rejects(
        &func("    v3: i64 = global_id 3\n    return v0\n"),
        "dimension 3",
    );
    rejects(
        &func("    v3: f32 = local_id 0\n    return v0\n"),
        "result of type f32",
    );
}

#[test]
fn switch_cases_are_distinct() {
    let text = "func @f(i8) {
block0(v0: i8):
    switch v0, block1, [1: block1, 1: block1]
block1:
    return
}
";
    rejects(text, "case 0x1 appears twice");
}

#[test]
fn errors_name_their_location() {
    let es = errors(&func("    v3: i32 = iadd v0, v1\n    return v3\n"));
    assert_eq!(
        es,
        vec!["@f: block0: v3 = iadd: operand types differ: i32 and f32".to_string()]
    );
}

#[test]
fn recursion_is_rejected() {
    let text = "func @a(i32) {
block0(v0: i32):
    call @b(v0)
    return
}

func @b(i32) {
block0(v0: i32):
    call @a(v0)
    return
}

func @c() {
block0:
    call @c()
    return
}
";
    let es = errors(text);
    assert!(
        es.contains(&"@a: recursion is not supported: @a -> @b -> @a".to_string()),
        "{es:?}"
    );
    assert!(
        es.contains(&"@c: recursion is not supported: @c -> @c".to_string()),
        "{es:?}"
    );
    assert_eq!(es.len(), 2);
}

/// Malformed IR that the text parser cannot express, built through the API.
mod api_built {
    use ferrocl_ir::*;

    fn errors_of(m: &Module) -> Vec<String> {
        match verify_module(m) {
            Ok(()) => Vec::new(),
            Err(es) => es.iter().map(|e| e.to_string()).collect(),
        }
    }

    fn rejects(m: &Module, want: &str) {
        let es = errors_of(m);
        assert!(
            es.iter().any(|e| e.contains(want)),
            "expected {want:?}, got {es:#?}\n{m}"
        );
    }

    /// `@f(i32)` with an entry block, ready for one more instruction before `return`.
    fn start() -> (Module, Func, Block) {
        let mut m = Module::new();
        let f = m.add_function("f", Signature::new(&[Type::I32], None));
        let b = m.funcs[f].dfg.make_block();
        m.funcs[f].dfg.append_block_param(b, Type::I32);
        m.funcs[f].layout.append_block(b);
        (m, f, b)
    }

    fn ret(m: &mut Module, f: Func, b: Block) {
        m.funcs[f].append_inst(b, InstData::new(Op::Return, &[]), None);
    }

    #[test]
    fn undefined_and_unplaced_values() {
        let (mut m, f, b) = start();
        let ghost = m.funcs[f].dfg.make_value(Type::I32);
        m.funcs[f].append_inst(
            b,
            InstData::new(Op::Binary(BinaryOp::Iadd), &[ghost, ghost]),
            Some(Type::I32),
        );
        ret(&mut m, f, b);
        rejects(&m, &format!("uses {ghost}, which is never defined"));

        let (mut m, f, b) = start();
        let floating = m.funcs[f]
            .dfg
            .make_inst(InstData::new(Op::Iconst(1), &[]), Some(Type::I32));
        let v = m.funcs[f].dfg.inst_result(floating).expect("result");
        m.funcs[f].append_inst(
            b,
            InstData::new(Op::Unary(UnaryOp::Ineg), &[v]),
            Some(Type::I32),
        );
        ret(&mut m, f, b);
        rejects(&m, &format!("uses {v}, whose instruction is not placed"));
    }

    #[test]
    fn branches_to_unplaced_blocks_and_bad_conditions() {
        let (mut m, f, b) = start();
        let nowhere = m.funcs[f].dfg.make_block();
        m.funcs[f].append_inst(
            b,
            InstData::new(Op::Jump(Dest::new(nowhere, &[])), &[]),
            None,
        );
        rejects(&m, &format!("branches to {nowhere}, which is not placed"));

        let (mut m, f, b) = start();
        let x = m.funcs[f].dfg.block_params(b)[0];
        let next = m.funcs[f].dfg.make_block();
        m.funcs[f].layout.append_block(next);
        let op = Op::Brif(Box::new((Dest::new(next, &[]), Dest::new(next, &[]))));
        m.funcs[f].append_inst(b, InstData::new(op, &[x]), None);
        ret(&mut m, f, next);
        rejects(&m, "condition of type i32, must be i1");
    }

    #[test]
    fn results_where_none_belong_and_missing_ones() {
        let (mut m, f, b) = start();
        m.funcs[f].append_inst(
            b,
            InstData::new(Op::Barrier(FenceFlags::LOCAL, Scope::WorkGroup), &[]),
            Some(Type::I32),
        );
        ret(&mut m, f, b);
        rejects(&m, "has no result");

        let (mut m, f, b) = start();
        m.funcs[f].append_inst(b, InstData::new(Op::Iconst(0), &[]), None);
        ret(&mut m, f, b);
        rejects(&m, "must have a result");

        let (mut m, f, b) = start();
        m.funcs[f].append_inst(b, InstData::new(Op::Null, &[]), Some(Type::I64));
        ret(&mut m, f, b);
        rejects(&m, "null of type i64");
    }

    #[test]
    fn references_to_missing_entities() {
        let (mut m, f, b) = start();
        m.funcs[f].append_inst(
            b,
            InstData::new(Op::SlotAddr(StackSlot::from_u32(3)), &[]),
            Some(Type::ptr(AddrSpace::Private)),
        );
        m.funcs[f].append_inst(
            b,
            InstData::new(Op::GlobalAddr(Global::from_u32(0)), &[]),
            Some(Type::ptr(AddrSpace::Global)),
        );
        m.funcs[f].append_inst(b, InstData::new(Op::Call(Func::from_u32(9)), &[]), None);
        ret(&mut m, f, b);
        let es = errors_of(&m);
        for want in [
            "ss3 does not exist",
            "g0 does not exist",
            "calls fn9, which does not exist",
        ] {
            assert!(es.iter().any(|e| e.contains(want)), "{want}: {es:?}");
        }
    }

    #[test]
    fn kernels_need_bodies_and_slots_need_power_of_two_alignment() {
        let mut m = Module::new();
        m.add_kernel("k", Signature::new(&[], None), KernelInfo::default());
        rejects(&m, "a kernel must have a body");
        let (mut m, f, b) = start();
        m.funcs[f].create_slot(8, 3);
        ret(&mut m, f, b);
        rejects(&m, "ss0: alignment 3 is not a power of two");
    }

    #[test]
    fn unresolved_aliases_are_reported() {
        let (mut m, f, b) = start();
        let x = m.funcs[f].dfg.block_params(b)[0];
        let i = m.funcs[f].append_inst(
            b,
            InstData::new(Op::Binary(BinaryOp::Iadd), &[x, x]),
            Some(Type::I32),
        );
        let r = m.funcs[f].dfg.inst_result(i).expect("result");
        m.funcs[f].append_inst(
            b,
            InstData::new(Op::Binary(BinaryOp::Imul), &[r, r]),
            Some(Type::I32),
        );
        m.funcs[f].dfg.change_to_alias(r, x);
        ret(&mut m, f, b);
        rejects(&m, &format!("uses {r}, an unresolved alias of {x}"));
        m.funcs[f].resolve_aliases();
        m.funcs[f].remove_inst(i);
        assert_eq!(errors_of(&m), Vec::<String>::new());
    }
}
