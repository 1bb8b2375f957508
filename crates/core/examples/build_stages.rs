//! Where the time of one program build goes: each stage of the front end, lowering, linking
//! the builtin library, each IR pass and the CPU code generator, with the size of the module
//! after each step. Run it from the program's directory (relative `-I` options resolve there):
//!
//! `cargo run --release -p ferrocl-core --example build_stages -- FILE.cl [BUILD OPTIONS]`

use std::time::{Duration, Instant};

use ferrocl_clc::{compile, lower_reachable, parse_build_options, Target};
use ferrocl_ir::Module;

/// Functions with bodies, their instructions, blocks and block parameters.
fn size(m: &Module) -> (usize, usize, usize, usize) {
    let mut total = (0, 0, 0, 0);
    for f in m.funcs.values().filter(|f| !f.is_declaration()) {
        total.0 += 1;
        for &b in f.layout.blocks() {
            total.1 += f.layout.block_insts(b).len();
            total.2 += 1;
            total.3 += f.dfg.block_params(b).len();
        }
    }
    total
}

fn row(name: &str, t: Duration, m: Option<&Module>) {
    let shape = m.map_or(String::new(), |m| {
        let (f, i, b, p) = size(m);
        format!("{f:6} functions {i:9} instructions {b:7} blocks {p:7} block parameters")
    });
    println!("{name:16} {:10.1} ms   {shape}", t.as_secs_f64() * 1e3);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: build_stages FILE.cl [BUILD OPTIONS]");
        std::process::exit(2);
    };
    let source = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(2)
    });
    let options = parse_build_options(&args[1..].join(" ")).unwrap_or_else(|e| {
        eprintln!("invalid build options: {e}");
        std::process::exit(2)
    });
    let total = Instant::now();
    let target = Target::full_profile_cpu();
    let c = compile(&source, &options, &target, &[]);
    for (name, t) in &c.timings {
        row(name, *t, None);
    }
    let Some(program) = c.program else {
        print!("{}", c.log);
        std::process::exit(1);
    };
    let start = Instant::now();
    let mut module = lower_reachable(&program).unwrap_or_else(|e| {
        eprintln!("lowering: {e}");
        std::process::exit(1)
    });
    row("lower", start.elapsed(), Some(&module));
    let library = ferrocl_builtins::library().expect("the builtin library decodes");
    let start = Instant::now();
    ferrocl_clc::library::link_with(&mut module, || Ok(library)).expect("library links");
    row("link library", start.elapsed(), Some(&module));
    // FERROCL_PASSES=a,b,... runs those passes instead of the standard pipeline.
    let passes = match std::env::var("FERROCL_PASSES") {
        Ok(list) => list
            .split(',')
            .map(|n| {
                let f = ferrocl_ir::passes::pass_by_name(n.trim()).expect("a known pass");
                (n.trim().to_string(), f)
            })
            .collect(),
        Err(_) => ferrocl_ir::passes::PassManager::standard().passes(),
    };
    for (name, f) in passes {
        let start = Instant::now();
        f(&mut module);
        row(&format!("  {name}"), start.elapsed(), Some(&module));
    }
    let start = Instant::now();
    match ferrocl_cpu::CpuProgram::compile(&module) {
        Ok(program) => {
            row("cpu compile", start.elapsed(), None);
            for (name, t) in program.stage_times().stages() {
                row(&format!("  {name}"), *t, None);
            }
        }
        Err(e) => println!("cpu codegen failed: {e}"),
    }
    row("total", total.elapsed(), None);
}
