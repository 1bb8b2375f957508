//! Kernels that write a matrix transposed (`ferrocl_cpu::transposed`) run their work-groups
//! in tiles (on a host of few cores) and do not run the chunks of several rows at once where a chunk stores less than
//! a cache line; kernels that write in row order keep both as they were. Through the front
//! end, as an application's source reaches the device.

use crate::common;

use common::compile_cl_with;
use ferrocl_cpu::CpuProgram;
use ferrocl_device::CompileOptions;

const KERNELS: &str = "
#define TILE 16
__kernel void transpose(__global const float *in, __global float *out, int width, int height)
{
    __local float tile[TILE][TILE + 1];
    int x0 = get_group_id(0) * TILE, y0 = get_group_id(1) * TILE;
    int lx = get_local_id(0), ly = get_local_id(1);
    tile[ly][lx] = in[(y0 + ly) * width + x0 + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[(x0 + ly) * height + y0 + lx] = tile[lx][ly];
}
__kernel void copy_tiles(__global const float *in, __global float *out, int width)
{
    __local float tile[TILE][TILE + 1];
    int x0 = get_group_id(0) * TILE, y0 = get_group_id(1) * TILE;
    int lx = get_local_id(0), ly = get_local_id(1);
    tile[ly][lx] = in[(y0 + ly) * width + x0 + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[(y0 + ly) * width + x0 + lx] = tile[ly][lx];
}
__kernel void strided(__global const float *in, __global float *out, int height)
{
    size_t x = get_global_id(0), y = get_global_id(1);
    out[x * height + y] = in[y * get_global_size(0) + x];
}
";

#[test]
fn transposed_stores_run_groups_in_tiles() {
    let module = compile_cl_with(KERNELS, "");
    let options = CompileOptions {
        record: true,
        ..CompileOptions::default()
    };
    let p = CpuProgram::compile_with_options(&module, &options).expect("builds");
    let tiled = |name: &str| p.kernel(name).expect("a kernel").tiled_groups;
    // In tiles on a host of few cores only (`transposed::tiles_for`).
    assert_eq!(tiled("transpose"), ferrocl_cpu::wide::few_cores());
    // Row order in and out.
    assert!(!tiled("copy_tiles"));
    // Each work-item's store a row apart from its neighbour's: not a piece of a row.
    assert!(!tiled("strided"));
    let wg = p.listing().and_then(|l| l.stage("wg")).unwrap_or_default();
    let line = |name: &str| {
        wg.lines()
            .find(|l| l.starts_with(&format!("; kernel {name}:")))
            .unwrap_or_default()
            .to_string()
    };
    let (t, c) = (line("transpose"), line("copy_tiles"));
    assert!(t.contains("a transposed store"), "{t}");
    assert_eq!(
        t.contains("a transposed store: groups in tiles"),
        ferrocl_cpu::wide::few_cores(),
        "{t}"
    );
    assert!(!c.contains("transposed"), "{c}");
    // Chunks of 8 or fewer floats store less than a cache line: one row at a time.
    if t.contains(" 8 work-items a chunk") || t.contains(" 4 work-items a chunk") {
        assert!(!t.contains("rows at a time"), "{t}");
    }
}
