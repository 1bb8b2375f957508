//! PTX emission over the kernel test files and the real-world corpus: every kernel the GPU
//! device accepts becomes PTX that NVIDIA's assembler takes. `ptxas` (from the CUDA toolkit,
//! or PyPI's `nvidia-cuda-nvcc`) is found through `FERROCL_PTXAS` or `PATH`; without it the
//! emission is still checked, and the assembler's check reports itself skipped.

use std::path::{Path, PathBuf};
use std::process::Command;

use ferrocl_cuda::ptx::{emit, PtxTarget};
use ferrocl_ir::passes::PassManager;
use ferrocl_ir::Module;

fn compile_cl(source: &str, options: &str) -> Option<Module> {
    let opts = ferrocl_clc::parse_build_options(options).ok()?;
    let target = ferrocl_clc::Target::full_profile_cpu();
    let program = ferrocl_clc::compile(source, &opts, &target, &[]).program?;
    let mut module = ferrocl_clc::lower(&program).ok()?;
    ferrocl_clc::library::link_with(&mut module, ferrocl_builtins::library).ok()?;
    PassManager::standard().run(&mut module).ok()?;
    // What the GPU device emits PTX from.
    ferrocl_cuda::ptx::prepare(&module).ok()
}

fn ptxas() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("FERROCL_PTXAS") {
        return Some(PathBuf::from(p));
    }
    let ok = Command::new("ptxas")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    ok.then(|| PathBuf::from("ptxas"))
}

fn kernel_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            kernel_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "cl") {
            out.push(p);
        }
    }
}

/// The build options a kernel test file names on its `// OPTIONS:` line, if any.
fn options_of(source: &str) -> String {
    source
        .lines()
        .find_map(|l| l.trim().strip_prefix("// OPTIONS:"))
        .unwrap_or("")
        .trim()
        .to_string()
}

#[test]
fn kernel_files_assemble() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/kernels");
    let mut files = Vec::new();
    kernel_files(&root, &mut files);
    files.sort();
    assert!(files.len() > 50, "the kernel test files are found");
    let assembler = ptxas();
    let dir = std::env::temp_dir().join(format!("ferrocl-ptx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let (mut emitted, mut refused, mut failures) = (0, Vec::new(), Vec::new());
    for file in &files {
        let source = std::fs::read_to_string(file).expect("readable");
        let Some(module) = compile_cl(&source, &options_of(&source)) else {
            continue;
        };
        match emit(&module, PtxTarget { sm: 90 }) {
            Ok(ptx) => {
                emitted += 1;
                if let Some(a) = &assembler {
                    let path = dir.join("k.ptx");
                    std::fs::write(&path, &ptx.text).expect("writable");
                    let out = Command::new(a)
                        .args(["-arch=sm_90", "-o"])
                        .arg(dir.join("k.cubin"))
                        .arg(&path)
                        .output()
                        .expect("ptxas runs");
                    if !out.status.success() {
                        failures.push(format!(
                            "{}: {}",
                            file.display(),
                            String::from_utf8_lossy(&out.stderr)
                        ));
                    }
                }
            }
            Err(e) => refused.push(format!("{}: {e}", file.display())),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    for r in &refused {
        eprintln!("refused (unsupported on the GPU device): {r}");
    }
    if assembler.is_none() {
        eprintln!("ptxas not found: the PTX was emitted but not assembled (skipped)");
    }
    assert!(
        failures.is_empty(),
        "{} of {emitted} rejected by ptxas:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Every refusal names a feature the device does not offer.
    for r in &refused {
        assert!(
            r.contains("not supported"),
            "an emission error that is not a refused feature: {r}"
        );
    }
    eprintln!("{emitted} files emitted, {} refused", refused.len());
}

/// The real-world corpus (`FERROCL_PTX_CORPUS` names its folder, which holds
/// `manifest.tsv`): every entry the compiler builds becomes PTX that `ptxas` takes, or is
/// refused for a feature the device does not offer. Off unless the variable is set (the
/// corpus takes minutes); the C API gate builds the same corpus for the CPU device.
#[test]
fn corpus_assembles() {
    let Ok(dir) = std::env::var("FERROCL_PTX_CORPUS") else {
        eprintln!("FERROCL_PTX_CORPUS not set: skipped");
        return;
    };
    let dir = PathBuf::from(dir);
    let manifest = std::fs::read_to_string(dir.join("manifest.tsv")).expect("a manifest");
    let assembler = ptxas();
    let tmp = std::env::temp_dir().join(format!("ferrocl-ptx-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("a temporary folder");
    let (mut emitted, mut refused, mut failures) = (0, 0, Vec::new());
    let mut reasons = std::collections::BTreeMap::<String, usize>::new();
    for line in manifest.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (file, options) = (cols[0], cols.get(1).copied().unwrap_or(""));
        let path = dir.join(file);
        let base = path.parent().expect("a folder").to_path_buf();
        let words: Vec<&str> = options.split_whitespace().collect();
        let mut opts = Vec::new();
        let mut i = 0;
        while i < words.len() {
            if words[i] == "-I" && i + 1 < words.len() {
                opts.push(format!("-I {}", base.join(words[i + 1]).display()));
                i += 2;
                continue;
            }
            opts.push(words[i].to_string());
            i += 1;
        }
        let Ok(source) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Some(module) = compile_cl(&source, &opts.join(" ")) else {
            continue;
        };
        match emit(&module, PtxTarget { sm: 90 }) {
            Ok(ptx) => {
                emitted += 1;
                if let Some(a) = &assembler {
                    let p = tmp.join("k.ptx");
                    std::fs::write(&p, &ptx.text).expect("writable");
                    let out = Command::new(a)
                        .args(["-arch=sm_90", "-o"])
                        .arg(tmp.join("k.cubin"))
                        .arg(&p)
                        .output()
                        .expect("ptxas runs");
                    if !out.status.success() {
                        let err = String::from_utf8_lossy(&out.stderr);
                        failures.push(format!(
                            "{file}: {}",
                            err.lines().take(3).collect::<Vec<_>>().join(" | ")
                        ));
                    }
                }
            }
            Err(e) => {
                refused += 1;
                let key: String = e
                    .split(": ")
                    .last()
                    .unwrap_or(&e)
                    .chars()
                    .take(90)
                    .collect();
                *reasons.entry(key).or_default() += 1;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    for (r, n) in &reasons {
        eprintln!("refused {n}: {r}");
    }
    eprintln!(
        "{emitted} entries emitted, {refused} refused, {} rejected by ptxas",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "rejected by ptxas:\n{}",
        failures.join("\n")
    );
}
