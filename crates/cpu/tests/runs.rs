//! Loops that read a run of elements per lane (`vectorize/streams.rs`), unrolled so that each
//! lane loads several neighbouring elements at once: against the IR interpreter, for runs of
//! `float`, `ushort` and `uchar` in `__global` memory and of `float` in `__local` memory,
//! with `int`, `uint` and `size_t` counters, over trip counts that leave remainders of every
//! size.

use crate::common;

use common::noted_and_checked;

/// A matrix-vector product's shape: each work-item's row starts at its own place in `x`,
/// read through a pointer to it (`r[j]`) and by index (`x[s + j]`).
const ROWS: &str = "
__kernel void rows(__global const float *x, __global float *y, __local float *t, int n)
{
    size_t items = get_global_size(0) * get_global_size(1);
    size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
    __global const float *r = x + (i * 5) % (items - n);
    float sum = 0.0f;
    for (int j = 0; j < n; j++)
        sum += r[j] * (float)(j + 1);
    int s = (int)((i * 3) % (items - n));
    for (int j = 0; j < n; j++)
        sum += x[s + j] * 0.5f;
    y[i] = sum;
}
";

/// Runs of 2-byte and 1-byte elements, with unsigned and 64-bit counters.
const NARROW: &str = "
__kernel void narrow(__global const float *x, __global float *y, __local float *t, int n)
{
    size_t items = get_global_size(0) * get_global_size(1);
    size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
    __global const ushort *h = (__global const ushort *)x + (i * 3) % (2 * items - n);
    __global const uchar *b = (__global const uchar *)x + (i * 7) % (4 * items - n);
    uint acc = 0;
    for (uint j = 0; j < (uint)n; j++)
        acc = acc * 31u + h[j];
    for (size_t j = 0; j < (size_t)n; j++)
        acc = acc * 17u + b[j];
    y[i] = (float)(acc & 0xffffffu);
}
";

/// Runs in a `__local` tile the group wrote.
const TILES: &str = "
__kernel void tiles(__global const float *x, __global float *y, __local float *t, int n)
{
    size_t size = get_local_size(0) * get_local_size(1);
    size_t l = get_local_id(1) * get_local_size(0) + get_local_id(0);
    size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
    t[l] = x[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    int m = min(n, (int)size);
    __local const float *r = t + (l * 3) % (size - m + 1);
    float sum = 0.0f;
    for (int j = 0; j < m; j++)
        sum += r[j] * r[j];
    y[i] = sum;
}
";

const RANGES: [([u64; 2], [u64; 2]); 6] = [
    ([16, 1], [16, 1]),
    ([64, 2], [32, 1]),
    ([40, 1], [20, 1]),
    ([128, 1], [64, 1]),
    ([24, 3], [8, 1]),
    ([32, 2], [16, 2]),
];

/// Trip counts: none, fewer than one main-loop trip, whole main-loop trips, and remainders.
const TRIPS: [i32; 8] = [0, 1, 3, 4, 5, 8, 9, 15];

/// Compiles `source`, checks that kernel `name`'s note says that `loops` of its loops were
/// unrolled for runs, and compares it with the interpreter.
fn compare(source: &str, name: &str, loops: &str) {
    let says = format!("{loops} unrolled to load each lane's run");
    noted_and_checked((source, name, &says), &RANGES, &TRIPS);
}

#[test]
fn runs_of_floats_per_lane_give_what_one_work_item_at_a_time_gives() {
    compare(ROWS, "rows", "2 loops");
}

#[test]
fn runs_of_shorts_and_bytes_give_what_one_work_item_at_a_time_gives() {
    compare(NARROW, "narrow", "2 loops");
}

#[test]
fn runs_in_local_memory_give_what_one_work_item_at_a_time_gives() {
    compare(TILES, "tiles", "1 loop");
}
