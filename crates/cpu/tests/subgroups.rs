//! Sub-groups through the work-group transform against the reference interpreter: the
//! sub-group queries, kept across collectives, and sub-group collectives reached again in a
//! loop, in 1-D, 2-D and 3-D groups whose last sub-group is full or smaller.

use crate::common;

use common::{nd1, on_cpu_and_interpreter};
use ferrocl_cpu::NdRange;

/// Each work-item reads its value x; three times, it adds a sub-group reduce and inclusive
/// scan of x + i to its running value (times 3); then it writes that, its sub-group id, local
/// id and size (queried before the loop).
const KERNEL: &str = "kernel @k(ptr.global, ptr.global) {
    arg \"in\": \"int*\" global none []
    arg \"out\": \"int*\" global none []
block0(v0: ptr.global, v1: ptr.global):
    v2: i64 = global_linear_id
    v3: i64 = iconst 4
    v4: i64 = imul v2, v3
    v5: ptr.global = ptradd v0, v4
    v6: i32 = load.global v5, align 4
    v7: i32 = sub_group_id
    v8: i32 = sub_group_local_id
    v9: i32 = sub_group_size
    v10: i32 = iconst 0
    jump block1(v10, v10)
block1(v11: i32, v12: i32):
    v13: i32 = iconst 3
    v14: i1 = icmp slt v11, v13
    brif v14, block2, block3
block2:
    v15: i32 = iadd v6, v11
    v16: i32 = sub_group_reduce.iadd v15
    v17: i32 = sub_group_scan_inclusive.iadd v15
    v18: i32 = imul v12, v13
    v19: i32 = iadd v18, v16
    v20: i32 = iadd v19, v17
    v21: i32 = iconst 1
    v22: i32 = iadd v11, v21
    jump block1(v22, v20)
block3:
    v23: i64 = iconst 16
    v24: i64 = imul v2, v23
    v25: ptr.global = ptradd v1, v24
    store.global v12, v25, align 4
    v26: ptr.global = ptradd v25, v3
    store.global v7, v26, align 4
    v27: i64 = iconst 8
    v28: ptr.global = ptradd v25, v27
    store.global v8, v28, align 4
    v29: i64 = iconst 12
    v30: ptr.global = ptradd v25, v29
    store.global v9, v30, align 4
    return
}
";

#[test]
fn sub_group_queries_and_collectives_in_a_loop_match_the_interpreter() {
    let nd = |work_dim, global_size, local_size| NdRange {
        work_dim,
        global_offset: [0; 3],
        global_size,
        local_size,
    };
    for range in [
        nd1(32, 16),
        nd1(40, 20),
        nd1(7, 7),
        nd(2, [10, 6, 1], [5, 3, 1]),
        nd(2, [6, 8, 1], [3, 4, 1]),
        nd(3, [6, 2, 3], [3, 1, 3]),
    ] {
        let n = range.global_size.iter().product::<u64>() as usize;
        let input: Vec<u8> = (0..n as i32)
            .flat_map(|i| (i * 37 % 101 - 50).to_ne_bytes())
            .collect();
        let (got, want) = on_cpu_and_interpreter(KERNEL, &input, n * 16, range);
        let ints = |b: &[u8]| -> Vec<i32> {
            b.chunks(4)
                .map(|c| i32::from_ne_bytes(c.try_into().expect("4 bytes")))
                .collect()
        };
        let (got, want) = (ints(&got), ints(&want));
        // Some work-item is in a sub-group of fewer than 8 or a sub-group past the first.
        assert!(got.chunks(4).any(|w| w[1] > 0 || w[3] < 8), "{range:?}");
        for (item, (g, w)) in got.chunks(4).zip(want.chunks(4)).enumerate() {
            assert_eq!(
                g, w,
                "work-item {item} of {range:?} (value, id, local id, size)"
            );
        }
    }
}
