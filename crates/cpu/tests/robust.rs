//! Faulty kernels: out-of-bounds private accesses stay inside the launch's own memory, and a
//! kernel that faults ends its launch in error while the process and later launches go on.

use ferrocl_ir::ArgKind;

use crate::common;

use common::{block, check_vadd, compile, nd1, sweep_far_private_writes, VADD};

/// `int a[4]; for (long i = 0; i < n; i++) a[start + i] = i;` then `out[gid] = gid * 3`, and
/// a private round trip: `a[0] = gid; out2[gid] = a[0]` after the loop.
const SMASH: &str = r#"
kernel @smash(ptr.global, i64, i64) {
    arg "out": "int*" global none []
    arg "start": "long" private none []
    arg "n": "long" private none []
    ss0 = slot 16, align 4
block0(v0: ptr.global, v1: i64, v2: i64):
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
    v11: ptr.private = ptradd v3, v10
    v12: i32 = trunc v7
    store.private v12, v11, align 4
    v13: i64 = iadd v7, v6
    jump block1(v13)
block3:
    v14: i64 = global_id 0
    v15: i32 = trunc v14
    store.private v15, v3, align 4
    v16: i32 = load.private v3, align 4
    v17: i32 = iconst 3
    v18: i32 = imul v16, v17
    v19: i64 = imul v14, v4
    v20: ptr.global = ptradd v0, v19
    store.global v18, v20, align 4
    return
}
"#;

#[test]
fn private_writes_far_out_of_bounds_stay_inside_the_launch() {
    let p = compile(SMASH);
    let k = p.kernel("smash").unwrap();
    assert!(
        k.frame_size >= 16,
        "the private array lives in the work-item's frame"
    );
    // The private round trip after the wild writes still reads back what it stored.
    sweep_far_private_writes(&p);
}

/// [`SMASH`] with its wild writes made through a generic pointer that is the private array
/// in odd work-items and a `__local` array in even ones: `int *p = gid & 1 ? a : tile;`.
const SMASH_GENERIC: &str = r#"
global @tile: local, size 64, align 4
kernel @smash(ptr.global, i64, i64) {
    arg "out": "int*" global none []
    arg "start": "long" private none []
    arg "n": "long" private none []
    ss0 = slot 16, align 4
block0(v0: ptr.global, v1: i64, v2: i64):
    v3: ptr.private = slotaddr ss0
    v4: i64 = iconst 4
    v5: i64 = iconst 0
    v6: i64 = iconst 1
    v21: ptr.local = globaladdr @tile
    v22: ptr.generic = addrcast v3
    v23: ptr.generic = addrcast v21
    v24: i64 = global_id 0
    v25: i64 = band v24, v6
    v26: i1 = icmp ne v25, v5
    v27: ptr.generic = select v26, v22, v23
    jump block1(v5)
block1(v7: i64):
    v8: i1 = icmp slt v7, v2
    brif v8, block2, block3
block2:
    v9: i64 = iadd v1, v7
    v10: i64 = imul v9, v4
    v11: ptr.generic = ptradd v27, v10
    v12: i32 = trunc v7
    store.generic v12, v11, align 4
    v13: i64 = iadd v7, v6
    jump block1(v13)
block3:
    v14: i64 = global_id 0
    v15: i32 = trunc v14
    store.private v15, v3, align 4
    v16: i32 = load.private v3, align 4
    v17: i32 = iconst 3
    v18: i32 = imul v16, v17
    v19: i64 = imul v14, v4
    v20: ptr.global = ptradd v0, v19
    store.global v18, v20, align 4
    return
}
"#;

/// OpenCL C 3.0 6.7.9: a generic pointer into `__local` or `__private` memory is confined as a
/// pointer of that space would be, also where the compiler cannot tell which of the two it is.
#[test]
fn generic_writes_far_out_of_bounds_from_local_or_private_stay_inside_the_launch() {
    let p = compile(SMASH_GENERIC);
    sweep_far_private_writes(&p);
}

/// Dereferences the pointer argument `p` (a wild address) in work-item 5 of each group, after
/// every work-item has written `out[gid] = 1`.
const WILD: &str = r#"
kernel @wild(ptr.global, ptr.global) {
    arg "out": "int*" global none []
    arg "p": "int*" global none []
block0(v0: ptr.global, v1: ptr.global):
    v2: i64 = global_id 0
    v3: i64 = iconst 4
    v4: i64 = imul v2, v3
    v5: ptr.global = ptradd v0, v4
    v6: i32 = iconst 1
    store.global v6, v5, align 4
    v7: i64 = local_id 0
    v8: i64 = iconst 5
    v9: i1 = icmp eq v7, v8
    brif v9, block1, block2
block1:
    v10: i32 = load.global v1, align 4
    store.global v10, v1, align 4
    jump block2
block2:
    return
}
"#;

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
#[test]
fn a_wild_global_pointer_ends_the_launch_in_error_and_later_launches_work() {
    let p = compile(WILD);
    let good = compile(VADD);
    let k = p.kernel("wild").unwrap();
    // Unmapped (the first page), non-canonical, and the top of the address space.
    for wild in [8u64, 0x8000_0000_0000_0000, u64::MAX - 3] {
        // One group, so that it starts whatever the threads do (a fault elsewhere first
        // would skip the groups not yet started).
        let items = 64usize;
        let mut out = vec![0i32; items];
        let args = block(&p, "wild", &[out.as_mut_ptr() as u64, wild]);
        let fault = unsafe { k.launch(&args, 0, &nd1(items as u64, 64)) }
            .expect_err("a launch that dereferences a wild pointer fails");
        assert!(
            fault.signal == SIGSEGV || fault.signal == SIGBUS,
            "signal {}",
            fault.signal
        );
        // The work-items before the faulting one wrote their element.
        assert_eq!(&out[..5], &[1; 5]);
        check_vadd(&good, 5000);
    }
    // Many faulting launches in a row, each on whichever threads claim its groups.
    for _ in 0..20 {
        let mut out = vec![0i32; 256];
        let args = block(&p, "wild", &[out.as_mut_ptr() as u64, 16]);
        assert!(unsafe { k.launch(&args, 0, &nd1(256, 16)) }.is_err());
    }
    check_vadd(&good, 777);
}

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
#[test]
fn faults_on_several_threads_at_once_are_each_recovered() {
    let p = compile(WILD);
    let good = compile(VADD);
    std::thread::scope(|s| {
        for t in 0..4 {
            let (p, good) = (&p, &good);
            s.spawn(move || {
                for i in 0..10 {
                    let mut out = vec![0i32; 512];
                    let args = block(p, "wild", &[out.as_mut_ptr() as u64, 64 + 8 * t]);
                    let r = unsafe { p.kernel("wild").unwrap().launch(&args, 0, &nd1(512, 8)) };
                    assert!(r.is_err(), "thread {t}, launch {i}");
                    check_vadd(good, 300 + i);
                }
            });
        }
    });
}

/// A by-value struct `{ int a; int b; }` read through its private pointer: `out[gid] = s.a *
/// gid + s.b`.
const BYVAL: &str = r#"
kernel @byval(ptr.global, ptr.private) {
    arg "out": "int*" global none []
    arg "s": "struct pair" private none [] aggregate size 8 align 4
block0(v0: ptr.global, v1: ptr.private):
    v2: i32 = load.private v1, align 4
    v3: i64 = iconst 4
    v4: ptr.private = ptradd v1, v3
    v5: i32 = load.private v4, align 4
    v6: i64 = global_id 0
    v7: i32 = trunc v6
    v8: i32 = imul v2, v7
    v9: i32 = iadd v8, v5
    v10: i64 = imul v6, v3
    v11: ptr.global = ptradd v0, v10
    store.global v9, v11, align 4
    return
}
"#;

#[test]
fn by_value_structs_are_copied_into_private_memory() {
    let p = compile(BYVAL);
    let k = p.kernel("byval").unwrap();
    assert_eq!(k.args[1].kind, ArgKind::Aggregate);
    let items = 200usize;
    let mut out = vec![0i32; items];
    // The struct's bytes at offset 0 of the by-value block; its slot holds that offset.
    let mut private = Vec::new();
    private.extend_from_slice(&7i32.to_ne_bytes());
    private.extend_from_slice(&(-11i32).to_ne_bytes());
    let args = block(&p, "byval", &[out.as_mut_ptr() as u64, 0]);
    unsafe { k.launch_with_private(&args, 0, &private, &nd1(items as u64, 16)) }.unwrap();
    for (i, &v) in out.iter().enumerate() {
        assert_eq!(v, 7 * i as i32 - 11, "item {i}");
    }
}

/// The signal numbers of Linux on x86-64, where faults are recovered.
/// Three private stores and loads at `a + i`, `a + i + 1` and `a + i + 2` (the form of the
/// lanes of a gather or scatter: one address and constant offsets from it), then `out[gid]`
/// the sum of what they read.
const SHARED: &str = r#"
kernel @shared(ptr.global, i64) {
    arg "out": "int*" global none []
    arg "i": "long" private none []
    ss0 = slot 16, align 4
block0(v0: ptr.global, v1: i64):
    v2: ptr.private = slotaddr ss0
    v3: i64 = iconst 4
    v4: i64 = imul v1, v3
    v5: ptr.private = ptradd v2, v4
    v6: i64 = global_id 0
    v7: i32 = trunc v6
    store.private v7, v5, align 4
    v8: ptr.private = ptradd v5, v3
    store.private v7, v8, align 4
    v9: i64 = iconst 8
    v10: ptr.private = ptradd v5, v9
    store.private v7, v10, align 4
    v11: i32 = load.private v5, align 4
    v12: i32 = load.private v8, align 4
    v13: i32 = load.private v10, align 4
    v14: i32 = iadd v11, v12
    v15: i32 = iadd v14, v13
    v16: i64 = imul v6, v3
    v17: ptr.global = ptradd v0, v16
    store.global v15, v17, align 4
    return
}
"#;

/// Accesses made from one address at constant offsets are confined by clamping that address
/// once: in bounds they are exact, and however wild the address, they stay in the padding
/// around the launch's private region.
#[test]
fn accesses_from_one_wild_address_stay_inside_the_launch() {
    let p = compile(SHARED);
    let k = p.kernel("shared").unwrap();
    let good = compile(VADD);
    for i in [
        0i64,
        1,
        -1,
        5,
        -7,
        1 << 20,
        -(1 << 20),
        1 << 40,
        -(1 << 40),
        i64::MAX / 4,
        i64::MIN / 4,
    ] {
        let items = 96usize;
        let mut out = vec![-1i32; items];
        let args = block(&p, "shared", &[out.as_mut_ptr() as u64, i as u64]);
        // SAFETY: the argument block holds `out`'s address (96 ints, one per work-item),
        // which outlives the launch.
        unsafe { k.launch(&args, 0, &nd1(items as u64, 32)) }
            .unwrap_or_else(|e| panic!("i {i}: {e}"));
        if i == 0 || i == 1 {
            // Inside the work-item's own slot: each reads back what it stored.
            for (g, &v) in out.iter().enumerate() {
                assert_eq!(v, 3 * g as i32, "i {i}, item {g}");
            }
        }
        check_vadd(&good, 1000);
    }
}

const SIGSEGV: i32 = 11;
const SIGBUS: i32 = 7;

/// Private stores at constant offsets: inside the slot (left unmasked by the code generator)
/// and outside it (masked like any other), then `out[gid] = a[1] + a[2]`.
const CONSTANT_OFFSETS: &str = r#"
kernel @offsets(ptr.global) {
    arg "out": "int*" global none []
    ss0 = slot 16, align 4
block0(v0: ptr.global):
    v1: ptr.private = slotaddr ss0
    v2: i64 = global_id 0
    v3: i32 = trunc v2
    v4: i64 = iconst 4
    v5: ptr.private = ptradd v1, v4
    store.private v3, v5, align 4
    v6: i64 = iconst 8
    v7: ptr.private = ptradd v1, v6
    v8: i32 = iconst 1000
    store.private v8, v7, align 4
    v9: i64 = iconst 16
    v10: ptr.private = ptradd v1, v9
    v11: i32 = iconst -1
    store.private v11, v10, align 4
    v12: i64 = iconst 1099511627776
    v13: ptr.private = ptradd v1, v12
    store.private v11, v13, align 4
    v14: i32 = iconst -8
    v15: ptr.private = ptradd v1, v14
    store.private.volatile v11, v15, align 4
    v16: i64 = iconst -70368744177664
    v17: ptr.private = ptradd v10, v16
    store.private v11, v17, align 4
    v18: i32 = load.private v5, align 4
    v19: i32 = load.private v7, align 4
    v20: i32 = iadd v18, v19
    v21: i64 = imul v2, v4
    v22: ptr.global = ptradd v0, v21
    store.global v20, v22, align 4
    return
}
"#;

#[test]
fn private_accesses_at_constant_offsets_outside_a_slot_are_confined() {
    let p = compile(CONSTANT_OFFSETS);
    let good = compile(VADD);
    let items = 128usize;
    let mut out = vec![0i32; items];
    let args = block(&p, "offsets", &[out.as_mut_ptr() as u64]);
    unsafe {
        p.kernel("offsets")
            .unwrap()
            .launch(&args, 0, &nd1(items as u64, 32))
    }
    .expect("confined private stores do not fault");
    check_vadd(&good, 1000);
    // The private region is 32 frames of 16 bytes, 512 bytes: masked, the store 16 bytes
    // past the slot and the one 2^46 before that land on the next frame's a[0], the one 2^40
    // past it on this frame's a[0], the one 8 bytes before it on the previous frame's a[2].
    // Work-items without barriers run one after the other, so a[1] and a[2] hold what this
    // work-item stored.
    for (i, &v) in out.iter().enumerate() {
        assert_eq!(v, i as i32 + 1000, "item {i}");
    }
}
