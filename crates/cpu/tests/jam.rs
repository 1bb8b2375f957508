//! Regions that run several chunks of the W-wide version at once (`workgroup::jam`) against the
//! IR interpreter, over rows of zero to several chunks with and without a rest, 1-D and 2-D:
//! kernels whose loops wait on the latency of the values they carry, in two regions around a
//! barrier (the first's result lives across it, a uniform branch in each), in nested loops
//! with a uniform branch inside and a uniform early return; and a region that runs the
//! chunks of several rows at once (a chain through a `__local` tile's rows, which every row
//! of work-items reads alike), over groups of 1 to 9 rows, whole chunks or not.

use crate::common;

use common::noted_and_checked;

const HORNER: &str = "
__kernel void horner(__global const float *x, __global float *y, __local float *t, int n)
{
    size_t l = get_local_id(1) * get_local_size(0) + get_local_id(0);
    float v = x[get_global_id(1) * get_global_size(0) + get_global_id(0)];
    float a = 0.5f;
    for (int k = 0; k < n; k++)
        a = a * v + 0.25f;
    if (n > 3)
        a = a * 2.0f;
    t[l] = a;
    barrier(CLK_LOCAL_MEM_FENCE);
    float b = t[get_local_size(0) * get_local_size(1) - 1 - l];
    for (int k = 0; k < n; k++)
        b = b * a + 0.5f;
    if (n > 5)
        b = -b;
    y[get_global_id(1) * get_global_size(0) + get_global_id(0)] = b + (float)get_local_id(1);
}
";

/// Two chains through nested loops, a uniform branch inside the inner one and a uniform
/// return before the store.
const NESTED: &str = "
__kernel void nested(__global const float *x, __global float *y, __local float *t, int n)
{
    size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
    float v = x[i], a = v, b = 1.0f;
    for (int j = 0; j < n; j++) {
        for (int k = 0; k < 3; k++) {
            a = a * v + 0.125f;
            if (j == 2)
                b = b * a - 0.5f;
            b = b * 0.75f + a;
        }
        a = a * 0.5f;
    }
    if (n == 7)
        return;
    y[i] = a + b;
}
";

/// A chain of fused multiply-adds through the rows of a `__local` tile after a barrier,
/// unrolled: the tile's row `k % sy` at the work-item's x is the same for every row of
/// work-items, its y appearing only at the end. The region before the barrier, short in a
/// kernel of 2-D groups, runs the chunks of several rows at once too.
const TILE: &str = "
__kernel void tile(__global const float *x, __global float *y, __local float *t, int n)
{
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t sx = get_local_size(0), sy = get_local_size(1);
    size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
    float v = x[i];
    t[ly * sx + lx] = v * 0.5f;
    barrier(CLK_LOCAL_MEM_FENCE);
    float acc = v * (float)n;
    for (int k = 0; k < 12; k++)
        acc = acc * 0.75f + t[(k % sy) * sx + lx];
    y[i] = acc + (float)ly;
}
";

/// Rows of 0 to 6 chunks of 8 or 16 work-items, with rests of 0 to 15.
const ROWS: [([u64; 2], [u64; 2]); 9] = [
    ([7, 1], [7, 1]),
    ([16, 1], [16, 1]),
    ([24, 2], [24, 1]),
    ([32, 2], [32, 2]),
    ([40, 1], [40, 1]),
    ([56, 3], [56, 3]),
    ([100, 2], [50, 2]),
    ([96, 2], [48, 1]),
    ([37, 4], [37, 2]),
];

/// Groups of 1 to 9 rows of whole chunks (8 or 16 work-items) or not, several groups in y.
const GROUPS: [([u64; 2], [u64; 2]); 9] = [
    ([16, 4], [16, 4]),
    ([16, 10], [16, 5]),
    ([32, 16], [32, 8]),
    ([16, 18], [16, 9]),
    ([48, 6], [16, 6]),
    ([8, 8], [8, 8]),
    ([24, 12], [24, 4]),
    ([20, 8], [20, 4]),
    ([16, 3], [16, 1]),
];

/// Compiles `source`, checks that kernel `name`'s work-group function says `jammed` (how
/// many regions run several chunks at once), and compares it with the interpreter on every
/// range of `ranges` and step count.
fn compare(source: &str, name: &str, jammed: &str, ranges: &[([u64; 2], [u64; 2])]) {
    noted_and_checked((source, name, jammed), ranges, &[0, 4, 7, 9]);
}

#[test]
fn two_chunks_at_once_give_what_one_work_item_at_a_time_gives() {
    compare(
        HORNER,
        "horner",
        "chunks of a row at a time in 2 of 2 regions",
        &ROWS,
    );
}

#[test]
fn nested_loops_and_a_uniform_return_at_two_chunks_at_once() {
    compare(
        NESTED,
        "nested",
        "chunks of a row at a time in 1 of 1 regions",
        &ROWS,
    );
}

#[test]
fn the_chunks_of_several_rows_at_once_give_what_one_work_item_at_a_time_gives() {
    compare(TILE, "tile", "rows at a time in 2 of 2 regions", &GROUPS);
}
