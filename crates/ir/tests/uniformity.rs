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

/// Random loop-free kernels mixing uniform and per-work-item values under uniform and
/// divergent branches: every value the analysis calls uniform must come out equal in every
/// work-item of a group that computes it, as the interpreter runs the work-group.
#[test]
fn uniform_claims_hold_when_the_kernel_runs() {
    use ferrocl_ir::interp::{run_ndrange_traced, KernelArgValue, Memory, NdRange, Val};
    use std::collections::HashMap;

    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }
    let (mut uniform_checked, mut divergent_seen) = (0, 0);
    for seed in 1..=60u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut m = Module::new();
        let (g, c) = (Type::ptr(AddrSpace::Global), Type::ptr(AddrSpace::Constant));
        let arg = |name: &str, space| {
            let (kind, size) = if space == AddrSpace::Private {
                (ArgKind::Value, 4)
            } else {
                (ArgKind::Buffer, 8)
            };
            KernelArg {
                name: name.into(),
                type_name: "int*".into(),
                space,
                access: AccessQualifier::None,
                quals: TypeQualifiers::default(),
                kind,
                size,
                align: size,
            }
        };
        let info = KernelInfo {
            args: vec![
                arg("buf", AddrSpace::Global),
                arg("n", AddrSpace::Private),
                arg("table", AddrSpace::Constant),
            ],
            ..KernelInfo::default()
        };
        let k = m.add_kernel("k", Signature::new(&[g, Type::I32, c], None), info);
        let mut b = FunctionBuilder::new(&mut m.funcs[k]);
        let e = b.create_entry_block();
        let ps = b.block_params(e).to_vec();
        let lid = b.work_item(WorkItemOp::LocalId, 0, Type::I64);
        let grp = b.work_item(WorkItemOp::GroupId, 0, Type::I64);
        let lid32 = b.convert(ConvOp::Trunc, lid, Type::I32);
        let grp32 = b.convert(ConvOp::Trunc, grp, Type::I32);
        let four = b.iconst(Type::I64, 4);
        let off = b.imul(lid, four);
        let p = b.ptradd(ps[0], off);
        let mine = b.load(Type::I32, p, 4, false);
        let q = b.ptradd(ps[2], four);
        let shared = b.load(Type::I32, q, 4, false);
        let uniform_srcs = vec![ps[1], grp32, shared];
        let mut ints = vec![ps[1], lid32, grp32, mine, shared];
        let mut bools: Vec<Value> = Vec::new();
        for _ in 0..25 {
            match rng.below(5) {
                0 if !bools.is_empty() => {
                    let cnd = bools[rng.below(bools.len())];
                    let (t, f, j) = (b.create_block(), b.create_block(), b.create_block());
                    let param = b.append_block_param(j, Type::I32);
                    b.brif(cnd, t, &[], f, &[]);
                    // Half the time both sides compute from uniform values only, so that
                    // only the branch makes the join differ.
                    let from_uniform = rng.below(2) == 0;
                    for blk in [t, f] {
                        b.switch_to_block(blk);
                        b.seal_block(blk);
                        let pool = if from_uniform { &uniform_srcs } else { &ints };
                        let x = pool[rng.below(pool.len())];
                        let y = pool[rng.below(pool.len())];
                        let r = if blk == t { b.iadd(x, y) } else { b.imul(x, y) };
                        b.jump(j, &[r]);
                    }
                    b.switch_to_block(j);
                    b.seal_block(j);
                    ints.push(param);
                }
                1 => {
                    let (x, y) = (ints[rng.below(ints.len())], ints[rng.below(ints.len())]);
                    bools.push(b.icmp(IntCC::Slt, x, y));
                }
                2 if !bools.is_empty() => {
                    let cnd = bools[rng.below(bools.len())];
                    let (x, y) = (ints[rng.below(ints.len())], ints[rng.below(ints.len())]);
                    ints.push(b.select(cnd, x, y));
                }
                _ => {
                    let (x, y) = (ints[rng.below(ints.len())], ints[rng.below(ints.len())]);
                    let op = [BinaryOp::Iadd, BinaryOp::Imul, BinaryOp::Bxor][rng.below(3)];
                    ints.push(b.binary(op, x, y));
                }
            }
        }
        b.ret(None);
        b.finish();
        verify_module(&m).expect("valid");
        let u = Uniformity::new(&m.funcs[k]);
        let mut mem = Memory::default();
        let buf = mem.alloc((0..16u32).flat_map(|i| (i * 7 + 3).to_le_bytes()).collect());
        let table = mem.alloc((0..4u32).flat_map(|i| (i + 40).to_le_bytes()).collect());
        let args = [
            KernelArgValue::Val(Val::scalar(buf)),
            KernelArgValue::Val(Val::i32(5)),
            KernelArgValue::Val(Val::scalar(table)),
        ];
        let range = NdRange {
            work_dim: 1,
            global_size: [8, 1, 1],
            local_size: [4, 1, 1],
            global_offset: [0; 3],
            sub_group_size: 8,
        };
        let (_, r, traces) = run_ndrange_traced(&m, k, &args, mem, &range);
        r.expect("runs");
        // Per group and value: the values the group's work-items computed.
        let mut seen: HashMap<(u64, Value), Vec<Val>> = HashMap::new();
        for t in &traces {
            for (v, x) in &t.values {
                seen.entry((t.group_id[0], *v)).or_default().push(x.clone());
            }
        }
        for ((group, v), xs) in seen {
            if u.is_uniform(v) {
                assert!(
                    xs.windows(2).all(|w| w[0] == w[1]),
                    "seed {seed}: {v} is called uniform but differs in group {group}: {xs:?}\n{m}"
                );
                uniform_checked += 1;
            } else if xs.windows(2).any(|w| w[0] != w[1]) {
                divergent_seen += 1;
            }
        }
    }
    assert!(
        uniform_checked > 500 && divergent_seen > 200,
        "{uniform_checked} {divergent_seen}"
    );
}
