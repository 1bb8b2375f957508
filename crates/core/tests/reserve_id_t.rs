//! `reserve_id_t` is a pipe type (OpenCL C 6.3.3: "Requires support for OpenCL C 2.0, or
//! OpenCL C 3.0 or newer and the __opencl_c_pipes feature"). ferrocl, like PoCL's compiler,
//! takes the name in every version, as programs written for 2.0 use it; Intel's CPU runtime
//! rejects it under OpenCL C 1.2. The leniency is ferrocl's own, so it is tested here rather
//! than as a kernel file every platform must pass.

use crate::builtins_harness;

use builtins_harness::{bytes, values, Runner};

/// 6.5.11: its size is implementation-defined: a value above zero.
#[test]
fn sizeof_reserve_id_t_is_a_size() {
    let runner = Runner::new();
    let program = runner.build(
        "kernel void k(global int *o) { o[0] = (int)sizeof(reserve_id_t); }",
        "",
    );
    let mut buffers = vec![bytes(&[0i32])];
    runner.run(&program, "k", &mut buffers, 1);
    let size = values::<i32>(&buffers[0])[0];
    assert!(size > 0, "sizeof(reserve_id_t) = {size}");
}
