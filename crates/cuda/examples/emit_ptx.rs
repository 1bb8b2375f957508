//! Prints the PTX the GPU device makes of an OpenCL C file, without a GPU:
//! `cargo run -p ferrocl-cuda --example emit_ptx -- FILE.cl [BUILD OPTIONS]`.
//! (With a GPU, `ferrocl build FILE.cl --emit ptx --device N` prints what the device built.)

use ferrocl_cuda::ptx::{emit, prepare, PtxTarget};
use ferrocl_ir::passes::PassManager;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: emit_ptx FILE.cl [BUILD OPTIONS]");
        std::process::exit(2);
    };
    let source = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1)
    });
    let options = ferrocl_clc::parse_build_options(&args[1..].join(" ")).unwrap_or_else(|e| {
        eprintln!("options: {e:?}");
        std::process::exit(1)
    });
    // What the GPU device's target says of fma (see `CudaDevice::fast_fma` and `fma_chains`).
    let target = ferrocl_clc::Target {
        fast_fma: true,
        fma_chains: true,
        ..ferrocl_clc::Target::full_profile_cpu()
    };
    let out = ferrocl_clc::compile(&source, &options, &target, &[]);
    let Some(program) = out.program else {
        eprintln!("{path}: the program does not build");
        std::process::exit(1)
    };
    let mut module = ferrocl_clc::lower(&program).expect("lowers");
    ferrocl_clc::library::link_with(&mut module, ferrocl_builtins::library).expect("links");
    PassManager::standard().run(&mut module).expect("optimizes");
    let module = prepare(&module).expect("the GPU passes run");
    match emit(&module, PtxTarget { sm: 90 }) {
        Ok(ptx) => print!("{}", ptx.text),
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1)
        }
    }
}
