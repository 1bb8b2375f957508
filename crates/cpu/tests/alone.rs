//! Narrowed regions (`workgroup/narrow.rs`) whose range holds a few work-items run them one
//! at a time through the kernel where they may (`Emitter::alone_ok`: everything they read of
//! earlier regions and leave for later ones is the group's), and in chunks where they read a
//! value each work-item keeps across barriers: against the IR interpreter, over groups of
//! whole chunks and not, one row and two.

use crate::common;

use common::{check_xytn, compile_cl};
use ferrocl_cpu::CpuProgram;

/// A reduction tree (rounds written out, so that chunks are 8 or 16 work-items) whose last
/// rounds hold a few work-items, then a region of one work-item that reads `v`, kept per
/// work-item across every barrier (chunks must run it where chunks wrote `v`), then one
/// that reads only the group's values and the ids (it may run alone).
const REDUCE: &str = "
__kernel void reduce(__global const float *x, __global float *y, __local float *t, int n)
{
    size_t lid = get_local_id(0), size = get_local_size(0);
    size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
    size_t l = get_local_id(1) * size + lid;
    float v = x[i] * (float)(n + 1);
    t[l] = v;
    y[i] = 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    if (lid < 16 && lid + 16 < size)
        t[l] += t[l + 16];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 8 && lid + 8 < size)
        t[l] += t[l + 8];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 4 && lid + 4 < size)
        t[l] += t[l + 4];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 2 && lid + 2 < size)
        t[l] += t[l + 2];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0)
        y[i] = (t[l] + t[l + 1]) * 0.25f + v;
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (lid == 0)
        y[i] += t[l] * 0.5f + (float)n;
}
";

#[test]
fn a_few_work_items_of_a_narrowed_region_run_alone_where_they_may() {
    let module = compile_cl(REDUCE);
    let p = CpuProgram::compile(&module).expect("compiles");
    let ranges: [([u64; 2], [u64; 2]); 8] = [
        ([16, 1], [16, 1]),
        ([32, 2], [32, 1]),
        ([64, 2], [64, 2]),
        ([48, 1], [48, 1]),
        ([24, 2], [24, 2]),
        ([40, 1], [20, 1]),
        ([128, 1], [64, 1]),
        ([14, 2], [7, 1]),
    ];
    check_xytn((&p, REDUCE, "reduce"), &ranges, &[0, 3]);
}
