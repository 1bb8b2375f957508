//! Pass filetests: `filetests/<pass>/*.ir` is the input, the sibling `.expected` file the
//! module printed after the pass (or after the passes named on a first line
//! `; passes: a, b`). The verifier runs on the input and after every pass. A mismatch prints
//! a line diff; `FERROCL_BLESS=1` rewrites the expectations instead.

use std::fs;
use std::path::{Path, PathBuf};

use ferrocl_ir::passes::PassManager;
use ferrocl_ir::text::{check_expected, line_diff};
use ferrocl_ir::{parse_module, print_module, verify_module};

fn run_file(path: &Path, pass_dir: &str) -> Result<(), String> {
    let text = fs::read_to_string(path).map_err(|e| e.to_string())?;
    let passes: Vec<String> = match text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("; passes:"))
    {
        Some(list) => list.split(',').map(|s| s.trim().to_string()).collect(),
        None => vec![pass_dir.to_string()],
    };
    let mut m = parse_module(&text).map_err(|e| format!("parse error: {e}"))?;
    if let Err(es) = verify_module(&m) {
        let msgs: Vec<String> = es.iter().map(|e| e.to_string()).collect();
        return Err(format!("input does not verify:\n{}", msgs.join("\n")));
    }
    let mut pm = PassManager::new();
    pm.verify = true;
    for p in &passes {
        pm.add(p).ok_or_else(|| format!("no pass named {p}"))?;
    }
    pm.run(&mut m).map_err(|e| e.to_string())?;
    let got = print_module(&m);
    // The output must itself round-trip.
    let again =
        print_module(&parse_module(&got).map_err(|e| format!("output does not parse: {e}"))?);
    if again != got {
        return Err(format!(
            "output does not round-trip:\n{}",
            line_diff(&got, &again)
        ));
    }
    check_expected(&path.with_extension("expected"), &got)
}

#[test]
fn pass_filetests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filetests");
    let mut failures = Vec::new();
    let mut count = 0;
    let mut dirs: Vec<PathBuf> = fs::read_dir(&root)
        .expect("filetests")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        let pass = dir
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        if pass == "roundtrip" {
            continue;
        }
        let mut files: Vec<PathBuf> = fs::read_dir(&dir)
            .expect("pass directory")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "ir"))
            .collect();
        files.sort();
        for f in files {
            count += 1;
            if let Err(e) = run_file(&f, &pass) {
                failures.push(format!("--- {}\n{e}", f.display()));
            }
        }
    }
    assert!(count > 0, "no filetests found");
    assert!(
        failures.is_empty(),
        "{} of {count} filetests failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
