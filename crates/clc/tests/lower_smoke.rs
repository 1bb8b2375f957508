//! Every kernel of the valid corpus that needs no library function runs on the reference
//! interpreter (one work-group of 4 work-items, zeroed buffers, small scalar arguments)
//! without trapping: lowered code stays inside its buffers, never reaches `unreachable`, and
//! keeps the IR's contract at run time.

use ferrocl_clc::{compile, lower, parse_build_options, Target};
use ferrocl_ir::interp::{run_ndrange, KernelArgValue, Memory, NdRange, Val};
use ferrocl_ir::{passes::PassManager, AddrSpace, Type};
use std::path::Path;

fn header(text: &str) -> (String, Vec<String>) {
    let (mut options, mut requires) = (String::new(), Vec::new());
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("//") else {
            break;
        };
        let rest = rest.trim();
        if let Some(o) = rest.strip_prefix("options:") {
            options = o.trim().to_string();
        } else if let Some(r) = rest.strip_prefix("requires:") {
            requires = r.split_whitespace().map(str::to_string).collect();
        }
    }
    (options, requires)
}

/// A small argument of type `t`: 4 for integers, 1.0 for floats, lane by lane.
fn scalar_arg(t: Type) -> Val {
    let lane = if t.lane_type() == Type::F32 {
        u64::from(1.0f32.to_bits())
    } else if t.lane_type() == Type::F64 {
        1.0f64.to_bits()
    } else {
        4
    };
    Val(vec![lane; t.lanes() as usize])
}

#[test]
fn corpus_kernels_run_without_traps() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/valid");
    let mut paths: Vec<_> = std::fs::read_dir(&root)
        .expect("corpus directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    paths.sort();
    let mut failures = Vec::new();
    let mut ran = 0;
    for path in &paths {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(path).expect("readable corpus file");
        let (options, requires) = header(&text);
        if requires
            .iter()
            .any(|r| matches!(r.as_str(), "images" | "fp16" | "__opencl_c_images"))
        {
            continue;
        }
        let opts = parse_build_options(&options).expect("options");
        let Some(program) = compile(&text, &opts, &Target::full_profile_cpu(), &[]).program else {
            continue;
        };
        let mut m = lower(&program).expect("lowers");
        PassManager::standard().run(&mut m).expect("passes");
        // Kernels that call a declared (library) function cannot run here.
        if m.funcs.iter().any(|(_, f)| f.is_declaration()) {
            continue;
        }
        let kernels: Vec<_> = m.kernels().map(|(k, _)| k).collect();
        for k in kernels {
            let f = &m.funcs[k];
            let mut memory = Memory::default();
            let args: Vec<KernelArgValue> = f
                .sig
                .params
                .iter()
                .map(|&t| match t.addr_space() {
                    Some(AddrSpace::Local) => KernelArgValue::Local(1 << 14),
                    Some(_) => KernelArgValue::Val(Val::scalar(memory.alloc(vec![0; 1 << 16]))),
                    None => KernelArgValue::Val(scalar_arg(t)),
                })
                .collect();
            let range = NdRange {
                work_dim: 1,
                global_size: [4, 1, 1],
                local_size: [4, 1, 1],
                global_offset: [0; 3],
                sub_group_size: 8,
            };
            let (_, r) = run_ndrange(&m, k, &args, memory, &range);
            match r {
                Ok(()) => ran += 1,
                Err(t) => failures.push(format!("{name} @{}: {t}", f.name)),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "kernels trap:\n{}",
        failures.join("\n")
    );
    assert!(ran >= 100, "only {ran} kernels ran");
}
