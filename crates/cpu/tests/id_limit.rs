//! The W-wide code treats extensions of `int` values computed from the x ids as consecutive
//! without a check where the ids are below `vectorize::shape::ID_LIMIT`; groups with larger x
//! ids run the scalar kernel. Near 2^31, `(long)(int)(get_global_id(0) + 1)` wraps between
//! the lanes of a chunk, and the results must be the scalar ones.

use crate::common;

use common::on_cpu_and_interpreter;
use ferrocl_cpu::vectorize::shape::ID_LIMIT;
use ferrocl_cpu::NdRange;

/// `out[gid - offset] = (long)((int)gid + 1)`: the `int` wraps past 2^31 - 1.
const WRAPS: &str = r#"
kernel @k(ptr.global, ptr.global) {
    arg "in": "long*" global none []
    arg "out": "long*" global none []
block0(v0: ptr.global, v1: ptr.global):
    v2: i64 = global_id 0
    v3: i64 = global_offset 0
    v4: i64 = isub v2, v3
    v5: i32 = trunc v2
    v6: i32 = iconst 1
    v7: i32 = iadd v5, v6
    v8: i64 = sext v7
    v9: i64 = iconst 8
    v10: i64 = imul v4, v9
    v11: ptr.global = ptradd v1, v10
    store.global v8, v11, align 8
    return
}
"#;

/// `WRAPS` after a barrier, for the first 8 work-items of each group only (`lid < 8`): the
/// region's loop over x is narrowed to them, and the W-wide chunks it runs need the same
/// check of the group's ids.
const NARROWED: &str = r#"
kernel @k(ptr.global, ptr.global) {
    arg "in": "long*" global none []
    arg "out": "long*" global none []
block0(v0: ptr.global, v1: ptr.global):
    barrier.local.work_group
    v2: i64 = global_id 0
    v3: i64 = global_offset 0
    v4: i64 = isub v2, v3
    v5: i64 = local_id 0
    v6: i64 = iconst 8
    v7: i1 = icmp ult v5, v6
    brif v7, block1, block2
block1:
    v8: i32 = trunc v2
    v9: i32 = iconst 1
    v10: i32 = iadd v8, v9
    v11: i64 = sext v10
    v12: i64 = imul v4, v6
    v13: ptr.global = ptradd v1, v12
    store.global v11, v13, align 8
    jump block2
block2:
    return
}
"#;

fn run(offset: u64, global: u64, local: u64) {
    run_kernel(WRAPS, offset, global, local, |_| true);
}

fn run_kernel(text: &str, offset: u64, global: u64, local: u64, runs: impl Fn(u64) -> bool) {
    let nd = NdRange {
        work_dim: 1,
        global_offset: [offset, 0, 0],
        global_size: [global, 1, 1],
        local_size: [local, 1, 1],
    };
    let (cpu, want) = on_cpu_and_interpreter(text, &[0u8; 8], global as usize * 8, nd);
    let longs = |b: &[u8]| -> Vec<i64> {
        b.chunks(8)
            .map(|c| i64::from_ne_bytes(c.try_into().unwrap()))
            .collect()
    };
    assert_eq!(longs(&cpu), longs(&want), "offset {offset}");
    // The spec's value: the id converted to int (wrapping), plus one, wrapping again.
    for (i, v) in longs(&cpu).into_iter().enumerate() {
        let x = (offset + i as u64) as i32;
        let want = if runs(i as u64 % local) {
            i64::from(x.wrapping_add(1))
        } else {
            0
        };
        assert_eq!(v, want, "offset {offset}, item {i}");
    }
}

#[test]
fn ids_far_below_the_limit_run_wide() {
    run(0, 256, 64);
}

#[test]
fn groups_across_the_limit() {
    run(ID_LIMIT - 70, 256, 64);
    run(ID_LIMIT - 63, 128, 64);
}

#[test]
fn ids_where_int_wraps_within_a_chunk() {
    // Lane 0 of some chunk is 2^31 - 2: its lanes 2 and 3 wrap to -2^31.
    run((1 << 31) - 66, 256, 64);
    run((1 << 31) - 7, 64, 16);
    run((1 << 32) - 9, 64, 8);
}

#[test]
fn narrowed_regions_check_the_ids_too() {
    for offset in [0, ID_LIMIT - 70, (1 << 31) - 66, (1 << 31) - 7] {
        run_kernel(NARROWED, offset, 128, 16, |lid| lid < 8);
    }
}
