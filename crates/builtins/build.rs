//! Compiles the builtin library (the OpenCL C files in `src/`) with ferrocl's own compiler and
//! writes it as serialized IR to `$OUT_DIR/builtins.bin`, which `lib.rs` embeds: programs link
//! the library's functions without compiling its source at run time.

use std::path::PathBuf;

include!("src/sources.rs");

fn main() {
    let module = ferrocl_clc::library::compile(SOURCES).unwrap_or_else(|e| panic!("{e}"));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(
        out.join("builtins.bin"),
        ferrocl_ir::serialize::serialize(&module),
    )
    .expect("write the builtin library");
}
