//! Wide-vector tier filetests: each `filetests/wide/NAME.ir` is a module of work-group
//! functions (the form `workgroup::clean_up` leaves: the kernel's parameters, then its
//! context memory); the tier's code for each, as `--emit asm` shows it, or the reason it
//! refuses the function, must equal `NAME.expected` (`FERROCL_BLESS=1` rewrites the
//! expectations; a mismatch prints a line diff). The code is the same on every host: the
//! test needs no AVX-512 to run.

use std::fs;
use std::path::{Path, PathBuf};

use ferrocl_ir::text::check_expected;
use ferrocl_ir::{parse_module, verify_module};

fn run_file(path: &Path) -> Result<(), String> {
    let text = fs::read_to_string(path).map_err(|e| e.to_string())?;
    let m = parse_module(&text).map_err(|e| format!("parse error: {e}"))?;
    if let Err(es) = verify_module(&m) {
        let msgs: Vec<String> = es.iter().map(|e| e.to_string()).collect();
        return Err(format!("input does not verify:\n{}", msgs.join("\n")));
    }
    let mut out = String::new();
    for (_, f) in m.funcs.iter().filter(|(_, f)| !f.is_declaration()) {
        let code = ferrocl_cpu::wide::assemble(f).unwrap_or_else(|why| format!("refused: {why}\n"));
        out.push_str(&format!("; {}\n{code}\n", f.name));
    }
    check_expected(&path.with_extension("expected"), &out)
}

#[test]
fn wide_filetests() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filetests/wide");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("filetests/wide")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ir"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no filetests in {}", dir.display());
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| {
            run_file(f)
                .err()
                .map(|e| format!("--- {}\n{e}", f.display()))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} filetests failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
