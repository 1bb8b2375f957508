//! Work-group transform filetests: each `filetests/workgroup/NAME.ir` is a module whose
//! kernels are transformed; the printed work-group functions must equal `NAME.expected`
//! (`FERROCL_BLESS=1` rewrites the expectations; a mismatch prints a line diff). The input and
//! every output are verified, and the output must parse back as IR.
//!
//! A function `@K_wW` of the module stands for kernel `@K`'s W-wide version (what the
//! vectorizer makes, written by hand), its barriers matching the kernel's in layout order.

use crate::common;

use std::fs;
use std::path::Path;

use ferrocl_cpu::workgroup::{transform_with, verify, WideKernel};
use ferrocl_ir::text::check_expected;
use ferrocl_ir::{parse_module, print_function, Function, Inst, Module, Op};

fn barriers(f: &Function) -> Vec<Inst> {
    f.layout
        .blocks()
        .iter()
        .flat_map(|&b| f.layout.block_insts(b).iter().copied())
        .filter(|&i| matches!(f.dfg.insts[i].op, Op::Barrier(..) | Op::Group(..)))
        .collect()
}

/// The kernels' work-group functions, with their W-wide versions where the module has them.
fn print_module(m: &Module) -> Result<String, String> {
    let mut out = String::new();
    for (_, f) in m.funcs.iter().filter(|(_, f)| f.is_kernel()) {
        let wide = m.funcs.iter().find_map(|(_, w)| {
            let width = w
                .name
                .strip_prefix(&format!("{}_w", f.name))?
                .parse()
                .ok()?;
            Some(WideKernel {
                func: w.clone(),
                width,
                barriers: barriers(f).into_iter().zip(barriers(w)).collect(),
                assumes_id_limit: false,
                uniform: Vec::new(),
                // Not read by the transform: the note of the device's listing.
                estimate: 0.5,
                runs: 0,
                for_cranelift: false,
            })
        });
        let wg = transform_with(f, wide.as_ref()).map_err(|e| e.0)?;
        verify(m, &wg).map_err(|e| e.0)?;
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&print_function(m, &wg.func));
    }
    Ok(out)
}

fn run_file(path: &Path) -> Result<(), String> {
    let text = fs::read_to_string(path).map_err(|e| e.to_string())?;
    let m = common::verified_module(&text)?;
    let got = print_module(&m)?;
    parse_module(&got).map_err(|e| format!("output does not parse: {e}\n{got}"))?;
    check_expected(&path.with_extension("expected"), &got)
}

#[test]
fn workgroup_filetests() {
    common::run_filetests("workgroup", run_file);
}
