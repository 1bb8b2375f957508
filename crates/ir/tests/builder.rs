//! The builder and its SSA construction produce verified IR with block parameters exactly
//! where a variable has different values on different incoming edges.

use ferrocl_ir::*;

/// Builds `int f(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }`.
fn sum_loop() -> Module {
    let mut m = Module::new();
    let f = m.add_function("sum", Signature::new(&[Type::I32], Some(Type::I32)));
    let mut b = FunctionBuilder::new(&mut m.funcs[f]);
    let entry = b.create_entry_block();
    let n = b.block_params(entry)[0];
    let s = b.declare_var(Type::I32);
    let i = b.declare_var(Type::I32);
    let zero = b.iconst(Type::I32, 0);
    b.def_var(s, zero);
    b.def_var(i, zero);
    let header = b.create_block();
    let body = b.create_block();
    let exit = b.create_block();
    b.jump(header, &[]);
    b.switch_to_block(header);
    let iv = b.use_var(i);
    let c = b.icmp(IntCC::Slt, iv, n);
    b.brif(c, body, &[], exit, &[]);
    b.switch_to_block(body);
    b.seal_block(body);
    let sv = b.use_var(s);
    let iv = b.use_var(i);
    let s2 = b.iadd(sv, iv);
    b.def_var(s, s2);
    let one = b.iconst(Type::I32, 1);
    let i2 = b.iadd(iv, one);
    b.def_var(i, i2);
    b.jump(header, &[]);
    b.seal_block(header);
    b.switch_to_block(exit);
    b.seal_block(exit);
    let sv = b.use_var(s);
    b.ret(Some(sv));
    b.finish();
    m
}

#[test]
fn loop_variables_become_header_parameters() {
    let m = sum_loop();
    verify_module(&m).expect("valid");
    let want = "func @sum(i32) -> i32 {
block0(v0: i32):
    v1: i32 = iconst 0
    jump block1(v1, v1)
block1(v2: i32, v4: i32):
    v3: i1 = icmp slt v2, v0
    brif v3, block2, block3
block2:
    v5: i32 = iadd v4, v2
    v6: i32 = iconst 1
    v7: i32 = iadd v2, v6
    jump block1(v7, v5)
block3:
    return v4
}
";
    assert_eq!(print_module(&m), want);
}

#[test]
fn a_variable_equal_on_all_edges_gets_no_parameter() {
    // if (c) { x = a; } else { } return x; with x = a before: the join needs no parameter.
    let mut m = Module::new();
    let f = m.add_function("f", Signature::new(&[Type::I1, Type::I32], Some(Type::I32)));
    let mut b = FunctionBuilder::new(&mut m.funcs[f]);
    let entry = b.create_entry_block();
    let (c, a) = (b.block_params(entry)[0], b.block_params(entry)[1]);
    let x = b.declare_var(Type::I32);
    b.def_var(x, a);
    let then = b.create_block();
    let join = b.create_block();
    b.brif(c, then, &[], join, &[]);
    b.switch_to_block(then);
    b.seal_block(then);
    b.def_var(x, a);
    b.jump(join, &[]);
    b.switch_to_block(join);
    b.seal_block(join);
    let v = b.use_var(x);
    b.ret(Some(v));
    b.finish();
    verify_module(&m).expect("valid");
    assert!(m.funcs[f].dfg.block_params(join).is_empty());
    assert!(print_module(&m).contains("return v1"));
}

#[test]
fn a_variable_read_before_assignment_is_undef() {
    let mut m = Module::new();
    let f = m.add_function("f", Signature::new(&[], Some(Type::F32)));
    let mut b = FunctionBuilder::new(&mut m.funcs[f]);
    b.create_entry_block();
    let x = b.declare_var(Type::F32);
    let v = b.use_var(x);
    b.ret(Some(v));
    b.finish();
    verify_module(&m).expect("valid");
    assert_eq!(
        print_module(&m),
        "func @f() -> f32 {\nblock0:\n    v0: f32 = undef\n    return v0\n}\n"
    );
}

#[test]
fn different_values_on_two_edges_meet_in_a_parameter() {
    let mut m = Module::new();
    let f = m.add_function("f", Signature::new(&[Type::I1], Some(Type::I32)));
    let mut b = FunctionBuilder::new(&mut m.funcs[f]);
    let entry = b.create_entry_block();
    let c = b.block_params(entry)[0];
    let x = b.declare_var(Type::I32);
    let then = b.create_block();
    let els = b.create_block();
    let join = b.create_block();
    b.brif(c, then, &[], els, &[]);
    for (blk, k) in [(then, 1), (els, 2)] {
        b.switch_to_block(blk);
        b.seal_block(blk);
        let v = b.iconst(Type::I32, k);
        b.def_var(x, v);
        b.jump(join, &[]);
    }
    b.switch_to_block(join);
    b.seal_block(join);
    let v = b.use_var(x);
    b.ret(Some(v));
    b.finish();
    verify_module(&m).expect("valid");
    assert_eq!(m.funcs[f].dfg.block_params(join).len(), 1);
    let text = print_module(&m);
    assert_eq!(print_module(&parse_module(&text).expect("parses")), text);
}

#[test]
fn switch_edges_to_one_block_all_get_arguments() {
    let mut m = Module::new();
    let f = m.add_function("f", Signature::new(&[Type::I32], Some(Type::I32)));
    let mut b = FunctionBuilder::new(&mut m.funcs[f]);
    let entry = b.create_entry_block();
    let sel = b.block_params(entry)[0];
    let x = b.declare_var(Type::I32);
    let other = b.create_block();
    let join = b.create_block();
    b.def_var(x, sel);
    b.switch(
        sel,
        Dest::new(join, &[]),
        vec![(1, Dest::new(join, &[])), (2, Dest::new(other, &[]))],
    );
    b.switch_to_block(other);
    b.seal_block(other);
    let k = b.iconst(Type::I32, 5);
    b.def_var(x, k);
    b.jump(join, &[]);
    b.switch_to_block(join);
    b.seal_block(join);
    let v = b.use_var(x);
    b.ret(Some(v));
    b.finish();
    verify_module(&m).expect("valid");
    let text = print_module(&m);
    assert!(
        text.contains("switch v0, block2(v0), [1: block2(v0), 2: block1]"),
        "{text}"
    );
}

#[test]
fn copy_memory_copies_every_byte_with_aligned_accesses() {
    use ferrocl_ir::interp::{Interpreter, Val};
    for (size, align) in [(13u32, 4u32), (16, 8), (3, 1), (24, 16), (6, 2)] {
        let mut m = Module::new();
        let g = Type::ptr(AddrSpace::Global);
        let f = m.add_function("f", Signature::new(&[g, g], None));
        let mut b = FunctionBuilder::new(&mut m.funcs[f]);
        let e = b.create_entry_block();
        let (dst, src) = (b.block_params(e)[0], b.block_params(e)[1]);
        b.copy_memory(dst, src, size, align);
        b.ret(None);
        b.finish();
        verify_module(&m).expect("valid");
        // No access is wider than the alignment allows.
        let text = print_module(&m);
        assert!(text.lines().filter(|l| l.contains("align")).all(|l| {
            let a: u32 = l
                .rsplit(' ')
                .next()
                .and_then(|x| x.parse().ok())
                .expect("alignment");
            a <= align
        }));
        let mut it = Interpreter::new(&m);
        let s = it.memory().alloc((1..=size as u8).collect());
        let d = it.memory().alloc(vec![0; size as usize + 4]);
        it.call(f, &[Val::scalar(d), Val::scalar(s)]).expect("runs");
        let mem = it.memory();
        let out = mem.region(d).expect("dst");
        assert_eq!(
            &out[..size as usize],
            &(1..=size as u8).collect::<Vec<u8>>()[..],
            "{size} {align}"
        );
        assert_eq!(&out[size as usize..], &[0, 0, 0, 0], "wrote past the end");
    }
}

#[test]
fn zero_memory_clears_exactly_the_range() {
    use ferrocl_ir::interp::{Interpreter, Val};
    for (size, align) in [(13u32, 4u32), (3, 1), (24, 8)] {
        let mut m = Module::new();
        let f = m.add_function("f", Signature::new(&[Type::ptr(AddrSpace::Global)], None));
        let mut b = FunctionBuilder::new(&mut m.funcs[f]);
        let e = b.create_entry_block();
        let dst = b.block_params(e)[0];
        b.zero_memory(dst, size, align);
        b.ret(None);
        b.finish();
        verify_module(&m).expect("valid");
        let mut it = Interpreter::new(&m);
        let d = it.memory().alloc(vec![0xaa; size as usize + 4]);
        it.call(f, &[Val::scalar(d)]).expect("runs");
        let mem = it.memory();
        let out = mem.region(d).expect("dst");
        assert!(
            out[..size as usize].iter().all(|&x| x == 0),
            "{size} {align}"
        );
        assert_eq!(&out[size as usize..], &[0xaa; 4]);
    }
}
