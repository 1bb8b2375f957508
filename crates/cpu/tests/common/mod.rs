//! What the CPU backend's tests share: compiling IR text, filling argument blocks, 1-D ranges.

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
