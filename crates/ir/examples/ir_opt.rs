//! Runs passes over an IR text file and prints the result, verifying after each pass:
//! `cargo run -p ferrocl-ir --example ir_opt -- FILE.ir [PASS ...]` (default: the standard
//! pipeline). With `--time`, pass timings go to stderr; with `--run`, the interpreter runs
//! every function without parameters and prints what it returns.

use std::process::ExitCode;

use ferrocl_ir::interp::Interpreter;
use ferrocl_ir::passes::PassManager;
use ferrocl_ir::{parse_module, print_module, verify_module};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let time = args.iter().any(|a| a == "--time");
    let run = args.iter().any(|a| a == "--run");
    let rest: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let Some(path) = rest.first() else {
        eprintln!("usage: ir_opt FILE.ir [PASS ...] [--time] [--run]");
        return ExitCode::FAILURE;
    };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut m = match parse_module(&text) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{path}:{e}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(es) = verify_module(&m) {
        for e in es {
            eprintln!("{path}: {e}");
        }
        return ExitCode::FAILURE;
    }
    let mut pm = if rest.len() > 1 {
        PassManager::new()
    } else {
        PassManager::standard()
    };
    pm.verify = true;
    for p in &rest[1..] {
        if pm.add(p).is_none() {
            eprintln!("no pass named {p}");
            return ExitCode::FAILURE;
        }
    }
    if let Err(e) = pm.run(&mut m) {
        eprint!("{e}");
        return ExitCode::FAILURE;
    }
    if time {
        for (name, t) in pm.total_by_name() {
            eprintln!("{name:14} {t:?}");
        }
    }
    print!("{}", print_module(&m));
    if run {
        for (f, func) in m.funcs.iter() {
            if !func.is_declaration() && func.sig.params.is_empty() {
                println!(
                    "; @{} returns {:?}",
                    func.name,
                    Interpreter::new(&m).call(f, &[])
                );
            }
        }
    }
    ExitCode::SUCCESS
}
