//! Compiles an OpenCL C file and prints the build log, the kernels and the time it took:
//! `cargo run -p ferrocl-clc --release --example clc -- FILE [OPTIONS] [--repeat N]`.
//! With `--synthetic LINES` as FILE it compiles a generated kernel file of about that many
//! lines (the benchmark of the front end's speed). `--dump` prints the checked tree.

use ferrocl_clc::{compile, parse_build_options, Target};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: clc FILE [BUILD OPTIONS] [--repeat N]");
        std::process::exit(2);
    };
    let mut repeat = 1usize;
    let mut dump = false;
    let mut opts = Vec::new();
    let mut i = 1;
    while i < args.len() {
        if args[i] == "--dump" {
            dump = true;
            i += 1;
            continue;
        }
        if args[i] == "--repeat" {
            repeat = args.get(i + 1).and_then(|n| n.parse().ok()).unwrap_or(1);
            i += 2;
            continue;
        }
        opts.push(args[i].clone());
        i += 1;
    }
    let source = if path == "--synthetic" {
        let n = opts.first().and_then(|n| n.parse().ok()).unwrap_or(2000);
        opts.clear();
        synthetic(n)
    } else {
        match std::fs::read_to_string(path) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{path}: {e}");
                std::process::exit(2);
            }
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
        if dump {
            print!("{}", p.dump());
        }
        for k in p.kernels() {
            let args: Vec<String> = k
                .args
                .iter()
                .map(|a| format!("{} {}", a.type_name, a.name))
                .collect();
            println!("kernel {}({})", k.name, args.join(", "));
        }
    }
    let stages: Vec<String> = c
        .timings
        .iter()
        .map(|(n, d)| format!("{n} {:.3} ms", d.as_secs_f64() * 1e3))
        .collect();
    eprintln!("last compile: {}", stages.join(", "));
    let lines = source.lines().count();
    eprintln!(
        "{lines} lines, {} bytes: {:.3} ms per compile ({:.1} MB/s)",
        source.len(),
        per.as_secs_f64() * 1e3,
        source.len() as f64 / per.as_secs_f64() / 1e6
    );
    std::process::exit(if c.program.is_some() { 0 } else { 1 });
}

/// A kernel file of about `lines` lines: helpers with vector math, loops and builtin calls,
/// and kernels that use them.
fn synthetic(lines: usize) -> String {
    let mut s = String::from(
        "#define TILE 16\ntypedef struct { float4 pos; float4 vel; int id; } Particle;\n",
    );
    let mut i = 0;
    while s.lines().count() < lines {
        s.push_str(&format!(
            "float4 helper{i}(float4 a, float4 b, __global const float *w, int n)\n{{\n\
             \x20   float4 acc = (float4)(0.0f);\n\
             \x20   for (int j = 0; j < n; j++) {{\n\
             \x20       float4 d = a - b * w[j];\n\
             \x20       acc += d * rsqrt(dot(d, d) + 1e-3f);\n\
             \x20       acc.xy = fmax(acc.xy, (float2)(w[j], 0.5f));\n\
             \x20   }}\n\
             \x20   return clamp(acc, -1.0f, 1.0f) + (float4)(a.x, b.yz, (float)n);\n\
             }}\n\
             __kernel void kernel{i}(__global Particle *p, __global const float *w, __local float4 *tile, int n)\n{{\n\
             \x20   size_t gid = get_global_id(0);\n\
             \x20   size_t lid = get_local_id(0);\n\
             \x20   Particle q = p[gid];\n\
             \x20   tile[lid] = q.pos;\n\
             \x20   barrier(CLK_LOCAL_MEM_FENCE);\n\
             \x20   float4 f = helper{i}(q.pos, tile[(lid + 1) % TILE], w, n);\n\
             \x20   if (q.id % 2 == 0 && n > 0) {{\n\
             \x20       q.vel = mad(f, (float4)(0.01f), q.vel);\n\
             \x20   }} else {{\n\
             \x20       q.vel *= 0.99f;\n\
             \x20   }}\n\
             \x20   q.pos += q.vel;\n\
             \x20   int4 m = convert_int4_sat(q.pos * 100.0f) & (int4)(0xff);\n\
             \x20   q.id = m.x + m.y + m.z + m.w;\n\
             \x20   p[gid] = q;\n\
             }}\n\n"
        ));
        i += 1;
    }
    s
}
