//! Compiles an OpenCL C file and prints the build log, the kernels and the time it took:
//! `cargo run -p ferrocl-clc --release --example clc -- FILE [OPTIONS] [--repeat N]`.

use ferrocl_clc::{compile, parse_build_options, Target};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: clc FILE [BUILD OPTIONS] [--repeat N]");
        std::process::exit(2);
    };
    let mut repeat = 1usize;
    let mut opts = Vec::new();
    let mut i = 1;
    while i < args.len() {
        if args[i] == "--repeat" {
            repeat = args.get(i + 1).and_then(|n| n.parse().ok()).unwrap_or(1);
            i += 2;
            continue;
        }
        opts.push(args[i].clone());
        i += 1;
    }
    let source = match std::fs::read_to_string(path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let options = match parse_build_options(&opts.join(" ")) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("invalid build options: {e}");
            std::process::exit(2);
        }
    };
    let target = Target::full_profile_cpu();
    let start = Instant::now();
    let mut c = compile(&source, &options, &target, &[]);
    for _ in 1..repeat {
        c = compile(&source, &options, &target, &[]);
    }
    let per = start.elapsed() / repeat as u32;
    print!("{}", c.log);
    if let Some(p) = &c.program {
        for k in p.kernels() {
            let args: Vec<String> = k
                .args
                .iter()
                .map(|a| format!("{} {}", a.type_name, a.name))
                .collect();
            println!("kernel {}({})", k.name, args.join(", "));
        }
    }
    let lines = source.lines().count();
    eprintln!(
        "{lines} lines, {} bytes: {:.3} ms per compile ({:.1} MB/s)",
        source.len(),
        per.as_secs_f64() * 1e3,
        source.len() as f64 / per.as_secs_f64() / 1e6
    );
    std::process::exit(if c.program.is_some() { 0 } else { 1 });
}
