//! `.cl` in, IR text out: each tests/filetests/lower/NAME.cl is compiled, lowered and
//! verified, and its printed module must equal NAME.expected (`FERROCL_BLESS=1` rewrites the
//! expectations; a mismatch prints a line diff). A file whose header has `// passes: standard`
//! is printed after the standard pass pipeline.

use ferrocl_clc::{compile, lower, parse_build_options, Target};
use ferrocl_ir::{print_module, verify_module};
use std::path::Path;

fn diff(expected: &str, actual: &str) -> String {
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    let mut out = String::new();
    for i in 0..e.len().max(a.len()) {
        match (e.get(i), a.get(i)) {
            (Some(x), Some(y)) if x == y => {}
            (x, y) => {
                if let Some(x) = x {
                    out.push_str(&format!("{:4} - {x}\n", i + 1));
                }
                if let Some(y) = y {
                    out.push_str(&format!("{:4} + {y}\n", i + 1));
                }
            }
        }
    }
    out
}

#[test]
fn lower_filetests() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filetests/lower");
    let bless = std::env::var_os("FERROCL_BLESS").is_some();
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("filetest directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no filetests in {}", dir.display());
    let mut failures = Vec::new();
    for path in &paths {
        let text = std::fs::read_to_string(path).expect("readable filetest");
        let options = text
            .lines()
            .take(3)
            .find_map(|l| l.strip_prefix("// options:"))
            .unwrap_or("")
            .trim()
            .to_string();
        let opts = parse_build_options(&options).expect("options parse");
        let c = compile(&text, &opts, &Target::full_profile_cpu(), &[]);
        let program = c
            .program
            .unwrap_or_else(|| panic!("{} does not compile:\n{}", path.display(), c.log));
        let module = lower(&program).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if let Err(errs) = verify_module(&module) {
            panic!(
                "{}: invalid IR: {errs:?}\n{}",
                path.display(),
                print_module(&module)
            );
        }
        let mut module = module;
        if text
            .lines()
            .take(3)
            .any(|l| l.trim() == "// passes: standard")
        {
            let mut pm = ferrocl_ir::passes::PassManager::standard();
            pm.verify = true;
            pm.run(&mut module)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
        let actual = print_module(&module);
        let exp_path = path.with_extension("expected");
        if bless {
            std::fs::write(&exp_path, &actual).expect("write expectation");
            continue;
        }
        let expected = std::fs::read_to_string(&exp_path).unwrap_or_default();
        if expected != actual {
            failures.push(format!("{}:\n{}", path.display(), diff(&expected, &actual)));
        }
    }
    assert!(
        failures.is_empty(),
        "filetest mismatches:\n{}",
        failures.join("\n")
    );
}
