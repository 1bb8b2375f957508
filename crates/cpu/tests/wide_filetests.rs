//! Wide-vector tier filetests: each `filetests/wide/NAME.ir` is a module of work-group
//! functions (the form `workgroup::clean_up` leaves: the kernel's parameters, then its
//! context memory); the tier's code for each, as `--emit asm` shows it, or the reason it
//! refuses the function, must equal `NAME.expected` (`FERROCL_BLESS=1` rewrites the
//! expectations; a mismatch prints a line diff). `filetests/wide-avx2/` likewise, with the
//! code for AVX2 hosts. The code is the same on every host: the test needs neither AVX-512
//! nor AVX2 to run.

use crate::common;

use std::fs;
use std::path::Path;

use ferrocl_ir::text::check_expected;

fn run_file(path: &Path) -> Result<(), String> {
    assemble_file(path, ferrocl_cpu::wide::Isa::Avx512)
}

fn assemble_file(path: &Path, isa: ferrocl_cpu::wide::Isa) -> Result<(), String> {
    let text = fs::read_to_string(path).map_err(|e| e.to_string())?;
    let m = common::verified_module(&text)?;
    let mut out = String::new();
    for (_, f) in m.funcs.iter().filter(|(_, f)| !f.is_declaration()) {
        let code =
            ferrocl_cpu::wide::assemble(f, isa).unwrap_or_else(|why| format!("refused: {why}\n"));
        out.push_str(&format!("; {}\n{code}\n", f.name));
    }
    check_expected(&path.with_extension("expected"), &out)
}

#[test]
fn wide_filetests() {
    common::run_filetests("wide", run_file);
}

#[test]
fn wide_avx2_filetests() {
    common::run_filetests("wide-avx2", |p| {
        assemble_file(p, ferrocl_cpu::wide::Isa::Avx2)
    });
}
