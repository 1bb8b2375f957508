//! The reference interpreter computes what the OpenCL C specification says.

use ferrocl_ir::interp::{Interpreter, Trap, Val};
use ferrocl_ir::{parse_module, verify_module, Module};

fn module(text: &str) -> Module {
    let m = parse_module(text).unwrap_or_else(|e| panic!("{e}"));
    verify_module(&m).unwrap_or_else(|e| panic!("{e:?}"));
    m
}

fn call(text: &str, args: &[Val]) -> Result<Option<Val>, Trap> {
    let m = module(text);
    let f = m.func_by_name("f").expect("@f");
    Interpreter::new(&m).call(f, args)
}

fn ret(text: &str, args: &[Val]) -> u64 {
    call(text, args).expect("runs").expect("returns").bits()
}

#[test]
fn loops_run_to_completion() {
    let text = "func @f(i32) -> i32 {
block0(v0: i32):
    v1: i32 = iconst 0
    jump block1(v1, v1)
block1(v2: i32, v3: i32):
    v4: i1 = icmp slt v2, v0
    brif v4, block2, block3
block2:
    v5: i32 = iadd v3, v2
    v6: i32 = iconst 1
    v7: i32 = iadd v2, v6
    jump block1(v7, v5)
block3:
    return v3
}
";
    assert_eq!(ret(text, &[Val::i32(10)]), 45);
}

fn unary_conv(op: &str, from: &str, to: &str, x: u64) -> u64 {
    let text = format!("func @f({from}) -> {to} {{\nblock0(v0: {from}):\n    v1: {to} = {op} v0\n    return v1\n}}\n");
    ret(&text, &[Val::scalar(x)])
}

#[test]
fn conversions_follow_6_4_3() {
    // convert_uchar_sat(300) == 255, convert_uchar_sat(-5) == 0.
    assert_eq!(unary_conv("satconv.s.u", "i32", "i8", 300), 255);
    assert_eq!(
        unary_conv("satconv.s.u", "i32", "i8", (-5i32) as u32 as u64),
        0
    );
    // convert_int_rtn(-1.5f) == -2, convert_int_rtp(-1.5f) == -1, convert_int(-1.5f) == -1.
    let m15 = u64::from((-1.5f32).to_bits());
    assert_eq!(
        unary_conv("fptosi.rtn", "f32", "i32", m15),
        (-2i32) as u32 as u64
    );
    assert_eq!(
        unary_conv("fptosi.rtp", "f32", "i32", m15),
        (-1i32) as u32 as u64
    );
    assert_eq!(
        unary_conv("fptosi.rtz", "f32", "i32", m15),
        (-1i32) as u32 as u64
    );
    // 6.4.3.3: with saturation, NaN converts to 0 and out-of-range values clamp.
    assert_eq!(
        unary_conv(
            "fptosi.rtz.sat",
            "f32",
            "i32",
            u64::from(f32::NAN.to_bits())
        ),
        0
    );
    assert_eq!(
        unary_conv("fptoui.rtz.sat", "f32", "i8", u64::from(1e9f32.to_bits())),
        255
    );
    // 16777217 is halfway between two floats: rte and rtz give the even one, rtp the other.
    assert_eq!(
        unary_conv("sitofp.rte", "i32", "f32", 16_777_217),
        u64::from(16_777_216f32.to_bits())
    );
    assert_eq!(
        unary_conv("sitofp.rtp", "i32", "f32", 16_777_217),
        u64::from(16_777_218f32.to_bits())
    );
    assert_eq!(
        unary_conv("uitofp.rte", "i32", "f32", 0xffff_ffff),
        u64::from(4_294_967_296f32.to_bits())
    );
    // 65530 to half: rtz gives the largest half, 65504; rte overflows to infinity (>= 65520).
    assert_eq!(
        unary_conv("fconv.rtz", "f32", "f16", u64::from(65530f32.to_bits())),
        0x7bff
    );
    assert_eq!(
        unary_conv("fconv.rte", "f32", "f16", u64::from(65530f32.to_bits())),
        0x7c00
    );
    assert_eq!(
        unary_conv("fconv.rte", "f16", "f32", 0x3c00),
        u64::from(1f32.to_bits())
    );
    assert_eq!(unary_conv("sext", "i8", "i32", 0x80), 0xffff_ff80);
    assert_eq!(unary_conv("zext", "i8", "i32", 0x80), 0x80);
}

#[test]
fn shifts_mask_their_amount() {
    // 6.5.10: 1 << 33 on int shifts by 33 & 31 == 1.
    let text = "func @f(i32, i32) -> i32 {\nblock0(v0: i32, v1: i32):\n    v2: i32 = shl v0, v1\n    return v2\n}\n";
    assert_eq!(ret(text, &[Val::i32(1), Val::i32(33)]), 2);
    let text = "func @f(i8, i8) -> i8 {\nblock0(v0: i8, v1: i8):\n    v2: i8 = ashr v0, v1\n    return v2\n}\n";
    assert_eq!(ret(text, &[Val::scalar(0x80), Val::scalar(9)]), 0xc0);
}

#[test]
fn vectors_work_lane_by_lane() {
    // (int4)(a < b) gives -1 for true lanes (6.5.4), shuffle picks lanes of both vectors.
    let text = "func @f(i32, i32) -> i32 {
block0(v0: i32, v1: i32):
    v2: i32x4 = splat v0
    v3: i32 = iconst 2
    v4: i32x4 = insertlane v2, v3, 1
    v5: i32x4 = splat v1
    v6: i1x4 = icmp slt v4, v5
    v7: i32x4 = sext v6
    v8: i32x2 = shuffle v7, v4, [1, 5]
    v9: i32 = extractlane v8, 0
    v10: i32 = extractlane v8, 1
    v11: i32 = imul v9, v10
    return v11
}
";
    // Lane 1 of v4 is 2 < 3: -1; lane 5 of the concatenation is v4's lane 1: 2.
    assert_eq!(
        ret(text, &[Val::i32(7), Val::i32(3)]),
        (-2i32) as u32 as u64
    );
}

#[test]
fn kernels_read_and_write_buffers_by_global_id() {
    let text = "kernel @f(ptr.global) {
    arg \"a\": \"int*\" global none []
block0(v0: ptr.global):
    v1: i64 = global_id 0
    v2: i64 = iconst 4
    v3: i64 = imul v1, v2
    v4: ptr.global = ptradd v0, v3
    v5: i32 = load.global v4, align 4
    v6: i32 = iconst 10
    v7: i32 = imul v5, v6
    store.global v7, v4, align 4
    return
}
";
    let m = module(text);
    let f = m.func_by_name("f").expect("@f");
    let mut it = Interpreter::new(&m);
    let buf = it.memory().alloc(
        [1u32, 2, 3, 4]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect(),
    );
    for gid in 0..4 {
        it.work_item.global_id[0] = gid;
        it.call(f, &[Val::scalar(buf)]).expect("runs");
    }
    let out: Vec<u32> = it
        .memory()
        .region(buf)
        .expect("buffer")
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    assert_eq!(out, vec![10, 20, 30, 40]);
}

#[test]
fn bad_accesses_and_missing_functions_trap() {
    let text = "func @f(ptr.global) -> i32 {\nblock0(v0: ptr.global):\n    v1: i64 = iconst 1000\n    v2: ptr.global = ptradd v0, v1\n    v3: i32 = load.global v2, align 4\n    return v3\n}\n";
    let m = module(text);
    let mut it = Interpreter::new(&m);
    let buf = it.memory().alloc(vec![0; 16]);
    assert!(matches!(
        it.call(m.func_by_name("f").expect("@f"), &[Val::scalar(buf)]),
        Err(Trap::OutOfBounds(_))
    ));
    let text = "declare @g() -> i32\nfunc @f() -> i32 {\nblock0:\n    v0: i32 = call @g()\n    return v0\n}\n";
    assert_eq!(call(text, &[]), Err(Trap::Undefined("g".into())));
    let m = module("func @f() {\nblock0:\n    jump block1\nblock1:\n    jump block1\n}\n");
    let mut it = Interpreter::new(&m);
    it.fuel = 1000;
    assert_eq!(
        it.call(m.func_by_name("f").expect("@f"), &[]),
        Err(Trap::OutOfFuel)
    );
}

#[test]
fn work_groups_meet_at_barriers_and_share_local_memory() {
    use ferrocl_ir::interp::{run_ndrange, KernelArgValue, Memory, NdRange};
    // Each group of 8 sums its inputs with a tree reduction in local memory:
    //   scratch[lid] = in[gid]; barrier; for (s = 4; s > 0; s >>= 1) { if (lid < s)
    //   scratch[lid] += scratch[lid + s]; barrier; } if (lid == 0) out[group] = scratch[0];
    let text = "kernel @f(ptr.global, ptr.global, ptr.local) {
    arg \"in\": \"int*\" global none [const]
    arg \"out\": \"int*\" global none []
    arg \"scratch\": \"int*\" local none []
block0(v0: ptr.global, v1: ptr.global, v2: ptr.local):
    v3: i64 = global_id 0
    v4: i64 = local_id 0
    v5: i64 = iconst 4
    v6: i64 = imul v3, v5
    v7: ptr.global = ptradd v0, v6
    v8: i32 = load.global v7, align 4
    v9: i64 = imul v4, v5
    v10: ptr.local = ptradd v2, v9
    store.local v8, v10, align 4
    barrier.local.work_group
    jump block1(v5)
block1(v11: i64):
    v12: i64 = iconst 0
    v13: i1 = icmp ugt v11, v12
    brif v13, block2, block5
block2:
    v14: i1 = icmp ult v4, v11
    brif v14, block3, block4
block3:
    v15: i64 = iadd v4, v11
    v16: i64 = imul v15, v5
    v17: ptr.local = ptradd v2, v16
    v18: i32 = load.local v17, align 4
    v19: i32 = load.local v10, align 4
    v20: i32 = iadd v18, v19
    store.local v20, v10, align 4
    jump block4
block4:
    barrier.local.work_group
    v21: i64 = iconst 1
    v22: i64 = lshr v11, v21
    jump block1(v22)
block5:
    v23: i1 = icmp eq v4, v12
    brif v23, block6, block7
block6:
    v24: i64 = group_id 0
    v25: i64 = imul v24, v5
    v26: ptr.global = ptradd v1, v25
    v27: i32 = load.local v2, align 4
    store.global v27, v26, align 4
    jump block7
block7:
    return
}
";
    let m = module(text);
    let k = m.func_by_name("f").expect("@f");
    let mut mem = Memory::default();
    let inp = mem.alloc_from(&(1..=16u32).collect::<Vec<u32>>());
    let out = mem.alloc_from(&[0u32; 2]);
    let range = NdRange {
        work_dim: 1,
        global_size: [16, 1, 1],
        local_size: [8, 1, 1],
        global_offset: [0; 3],
        sub_group_size: 8,
    };
    let args = [
        KernelArgValue::Val(Val::scalar(inp)),
        KernelArgValue::Val(Val::scalar(out)),
        KernelArgValue::Local(32),
    ];
    let (mem, r) = run_ndrange(&m, k, &args, mem, &range);
    r.expect("runs");
    let sums: Vec<u32> = mem.read_as(out);
    assert_eq!(sums, vec![(1..=8).sum::<u32>(), (9..=16).sum::<u32>()]);
}

#[test]
fn a_barrier_some_work_items_skip_is_reported() {
    use ferrocl_ir::interp::{run_ndrange, KernelArgValue, Memory, NdRange};
    let text = "kernel @f() {
block0:
    v0: i64 = local_id 0
    v1: i64 = iconst 0
    v2: i1 = icmp eq v0, v1
    brif v2, block1, block2
block1:
    barrier.local.work_group
    jump block2
block2:
    return
}
";
    let m = module(text);
    let range = NdRange {
        work_dim: 1,
        global_size: [4, 1, 1],
        local_size: [4, 1, 1],
        global_offset: [0; 3],
        sub_group_size: 8,
    };
    let no_args: [KernelArgValue; 0] = [];
    let (_, r) = run_ndrange(
        &m,
        m.func_by_name("f").expect("@f"),
        &no_args,
        Memory::default(),
        &range,
    );
    assert_eq!(r, Err(Trap::BarrierDivergence));
}

#[test]
fn atomics_are_atomic_across_work_items() {
    use ferrocl_ir::interp::{run_ndrange, KernelArgValue, Memory, NdRange};
    let text = "kernel @f(ptr.global) {
    arg \"counter\": \"int*\" global none [volatile]
block0(v0: ptr.global):
    v1: i32 = iconst 1
    v2: i32 = atomic_rmw.add.relaxed.device.global v0, v1
    return
}
";
    let m = module(text);
    let mut mem = Memory::default();
    let c = mem.alloc(vec![0; 4]);
    let range = NdRange {
        work_dim: 1,
        global_size: [64, 1, 1],
        local_size: [32, 1, 1],
        global_offset: [0; 3],
        sub_group_size: 8,
    };
    let (mem, r) = run_ndrange(
        &m,
        m.func_by_name("f").expect("@f"),
        &[KernelArgValue::Val(Val::scalar(c))],
        mem,
        &range,
    );
    r.expect("runs");
    assert_eq!(mem.region(c).expect("counter"), &64u32.to_le_bytes());
}

/// 5.9.3: where the local size does not divide the global size, the last group holds the
/// remainder; get_local_size gives that group's size, get_enqueued_local_size the enqueued one.
#[test]
fn the_last_group_of_a_non_uniform_range_is_smaller() {
    use ferrocl_ir::interp::{run_ndrange, KernelArgValue, Memory, NdRange};
    let text = "kernel @f(ptr.global) {
    arg \"out\": \"uint*\" global none []
block0(v0: ptr.global):
    v1: i64 = global_id 0
    v2: i64 = local_size 0
    v3: i64 = enqueued_local_size 0
    v4: i64 = iconst 8
    v5: i64 = imul v1, v4
    v6: ptr.global = ptradd v0, v5
    v7: i32 = trunc v2
    store.global v7, v6, align 4
    v8: i64 = iconst 4
    v9: ptr.global = ptradd v6, v8
    v10: i32 = trunc v3
    store.global v10, v9, align 4
    return
}
";
    let m = module(text);
    let mut mem = Memory::default();
    let out = mem.alloc_from(&[0u32; 20]);
    let range = NdRange {
        work_dim: 1,
        global_size: [10, 1, 1],
        local_size: [4, 1, 1],
        global_offset: [0; 3],
        sub_group_size: 8,
    };
    let args = [KernelArgValue::Val(Val::scalar(out))];
    let (mem, r) = run_ndrange(&m, m.func_by_name("f").expect("@f"), &args, mem, &range);
    r.expect("runs");
    let sizes: Vec<u32> = mem.read_as(out);
    let want: Vec<u32> = (0..10)
        .flat_map(|g| [if g < 8 { 4 } else { 2 }, 4])
        .collect();
    assert_eq!(sizes, want);
}
