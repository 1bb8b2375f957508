//! What the CPU backend's tests share: compiling IR text, filling argument blocks, 1-D ranges.
#![allow(dead_code)]

use ferrocl_cpu::{CpuProgram, NdRange};

/// Parses, verifies and compiles a module written as IR text.
pub fn compile(text: &str) -> CpuProgram {
    let module = ferrocl_ir::parse_module(text).unwrap_or_else(|e| panic!("{e:?}"));
    ferrocl_ir::verify_module(&module).unwrap_or_else(|e| panic!("{e:?}"));
    CpuProgram::compile(&module).unwrap_or_else(|e| panic!("{e}"))
}

/// An argument block from 8-byte values (pointers, offsets and longs) in argument order.
pub fn block(program: &CpuProgram, kernel: &str, values: &[u64]) -> Vec<u8> {
    let k = program.kernel(kernel).unwrap();
    let mut bytes = vec![0u8; k.args_size];
    for (arg, v) in k.args.iter().zip(values) {
        bytes[arg.offset..arg.offset + arg.size].copy_from_slice(&v.to_ne_bytes()[..arg.size]);
    }
    bytes
}

/// A 1-D NDRange without offset.
pub fn nd1(global: u64, local: u64) -> NdRange {
    NdRange {
        work_dim: 1,
        global_offset: [0; 3],
        global_size: [global, 1, 1],
        local_size: [local, 1, 1],
    }
}

/// `c[i] = a[i] + b[i]` on floats, the tests' well-behaved kernel.
pub const VADD: &str = r#"
kernel @vadd(ptr.global, ptr.global, ptr.global) {
    arg "a": "float*" global none []
    arg "b": "float*" global none []
    arg "c": "float*" global none []
block0(v0: ptr.global, v1: ptr.global, v2: ptr.global):
    v3: i64 = global_id 0
    v4: i64 = iconst 4
    v5: i64 = imul v3, v4
    v6: ptr.global = ptradd v0, v5
    v7: ptr.global = ptradd v1, v5
    v8: ptr.global = ptradd v2, v5
    v9: f32 = load.global v6, align 4
    v10: f32 = load.global v7, align 4
    v11: f32 = fadd v9, v10
    store.global v11, v8, align 4
    return
}
"#;
