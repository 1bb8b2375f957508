//! Runs the OpenCL C corpus (tests/corpus, see its README.md): every `valid/*.cl` compiles
//! without errors; every `invalid/*.cl` gets an error on each `expect-error:` line, and its
//! rendered build log matches the sibling `.stderr` file (`FERROCL_BLESS=1` rewrites them).

use ferrocl_clc::{compile, diag::Severity, parse_build_options, Target};
use std::path::{Path, PathBuf};

struct Annotations {
    options: String,
    requires: Vec<String>,
    expect_error_lines: Vec<u32>,
}

fn annotations(text: &str) -> Annotations {
    let mut a = Annotations {
        options: String::new(),
        requires: Vec::new(),
        expect_error_lines: Vec::new(),
    };
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("//") else {
            break;
        };
        let rest = rest.trim();
        if let Some(o) = rest.strip_prefix("options:") {
            a.options = o.trim().to_string();
        } else if let Some(r) = rest.strip_prefix("requires:") {
            a.requires = r.split_whitespace().map(str::to_string).collect();
        } else if let Some(l) = rest.strip_prefix("expect-error:") {
            if let Ok(n) = l.trim().parse() {
                a.expect_error_lines.push(n);
            }
        }
    }
    a
}

/// The device a file asks for: the full CPU target, adjusted by `requires:`.
fn target_for(requires: &[String]) -> Target {
    let mut t = Target::full_profile_cpu();
    for r in requires {
        let (neg, word) = match r.strip_prefix('!') {
            Some(w) => (true, w),
            None => (false, r.as_str()),
        };
        let (ext, feat) = match word {
            "fp64" => (Some("cl_khr_fp64"), Some("__opencl_c_fp64")),
            "fp16" => (Some("cl_khr_fp16"), Some("__opencl_c_fp16")),
            "images" => (None, Some("__opencl_c_images")),
            "generic" => (None, Some("__opencl_c_generic_address_space")),
            w if w.starts_with("cl_") => (Some(w), None),
            w => (None, Some(w)),
        };
        match word {
            "fp64" => t.fp64 = !neg,
            "fp16" => t.fp16 = !neg,
            "images" => t.image_support = !neg,
            _ => {}
        }
        if let Some(e) = ext {
            t.extensions.retain(|x| x != e);
            if !neg {
                t.extensions.push(e.to_string());
            }
        }
        if let Some(f) = feat {
            t.features.retain(|x| x != f);
            if !neg {
                t.features.push(f.to_string());
            }
        }
    }
    t
}

fn files(dir: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(dir);
    let mut v: Vec<PathBuf> = std::fs::read_dir(&root)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "cl"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn build(path: &Path) -> (Annotations, ferrocl_clc::Compilation) {
    let text = std::fs::read_to_string(path).expect("readable corpus file");
    let a = annotations(&text);
    let options = parse_build_options(&a.options)
        .unwrap_or_else(|e| panic!("{}: bad options: {e}", path.display()));
    let target = target_for(&a.requires);
    let c = compile(&text, &options, &target, &[]);
    (a, c)
}

#[test]
fn valid_programs_compile_cleanly() {
    let mut failures = Vec::new();
    let list = files("valid");
    for path in &list {
        let (_, c) = build(path);
        if c.program.is_none() {
            failures.push(format!("== {}\n{}", path.display(), c.log));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} valid files failed:\n{}",
        failures.len(),
        list.len(),
        failures.join("\n")
    );
}

#[test]
fn invalid_programs_report_the_expected_errors() {
    let bless = std::env::var_os("FERROCL_BLESS").is_some();
    let mut failures = Vec::new();
    let list = files("invalid");
    for path in &list {
        let (a, c) = build(path);
        let name = path.display();
        if c.program.is_some() || c.errors().next().is_none() {
            failures.push(format!("== {name}: compiled without errors\n{}", c.log));
            continue;
        }
        let error_lines: Vec<u32> = c
            .errors()
            .filter(|d| d.file == "<source>")
            .map(|d| d.line)
            .collect();
        let missing: Vec<u32> = a
            .expect_error_lines
            .iter()
            .copied()
            .filter(|l| !error_lines.contains(l))
            .collect();
        if !missing.is_empty() {
            failures.push(format!(
                "== {name}: no error on line(s) {missing:?}\n{}",
                c.log
            ));
            continue;
        }
        let expected_path = path.with_extension("stderr");
        if bless {
            std::fs::write(&expected_path, &c.log).expect("write .stderr");
        } else if let Ok(expected) = std::fs::read_to_string(&expected_path) {
            if expected != c.log {
                failures.push(format!(
                    "== {name}: build log differs from {}\n--- expected\n{expected}--- actual\n{}",
                    expected_path.display(),
                    c.log
                ));
            }
        }
        let _ = Severity::Error;
    }
    assert!(
        failures.is_empty(),
        "{} of {} invalid files failed:\n{}",
        failures.len(),
        list.len(),
        failures.join("\n")
    );
}
