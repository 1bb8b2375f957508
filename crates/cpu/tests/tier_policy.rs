//! Which kernels bound by memory the wide-vector tier takes (`wide::Measure::bound_by_memory`):
//! on a host of few cores (`wide::few_cores`) a stream whose work-item code is straight-line,
//! elsewhere none. A test binary of its own: the other tier tests make the tier take every
//! kernel (`wide::take_all`), a setting of the whole process.

use crate::common;

use common::compile_cl_with;
use ferrocl_cpu::CpuProgram;
use ferrocl_device::CompileOptions;

const STREAMS: &str = "
__kernel void saxpy(float a, __global const float *x, __global float *y)
{
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}
__kernel void copy_rows(__global const float *a, __global float *b, int rows)
{
    size_t i = get_global_id(0), n = get_global_size(0);
    for (int r = 0; r < rows; r++)
        b[r * n + i] = a[r * n + i];
}
";

#[test]
fn memory_bound_streams_go_to_the_tier_only_on_few_cores() {
    if !ferrocl_cpu::wide::host_supports() {
        eprintln!("skipped: this host lacks the wide-vector tier's instruction sets");
        return;
    }
    let module = compile_cl_with(STREAMS, "");
    let options = CompileOptions {
        record: true,
        ..CompileOptions::default()
    };
    let p = CpuProgram::compile_with_tier(&module, None, &options, true).expect("builds");
    let wg = p.listing().and_then(|l| l.stage("wg")).unwrap_or_default();
    let line = |name: &str| {
        wg.lines()
            .find(|l| l.starts_with(&format!("; kernel {name}:")))
            .unwrap_or_default()
            .to_string()
    };
    let (saxpy, rows) = (line("saxpy"), line("copy_rows"));
    // A stream with a loop is left to Cranelift on any host.
    assert!(
        rows.contains("wide tier refused: bound by memory"),
        "{rows}"
    );
    if ferrocl_cpu::wide::few_cores() {
        assert!(saxpy.ends_with("; wide tier"), "{saxpy}");
    } else {
        assert!(
            saxpy.contains("wide tier refused: bound by memory"),
            "{saxpy}"
        );
    }
}
