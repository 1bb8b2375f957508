//! Every file of the valid corpus (tests/corpus/valid) lowers to an IR module that passes the
//! verifier, before and after the standard pass pipeline. Files whose `// requires:` names a
//! feature ferrocl lacks (images, fp16) are skipped.

use ferrocl_clc::{compile, lower, parse_build_options, Target};
use ferrocl_ir::{passes::PassManager, verify_module};
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

/// Whether ferrocl's CPU target has every requirement (a `!word` one must be absent).
fn supported(requires: &[String]) -> bool {
    requires.iter().all(|r| match r.strip_prefix('!') {
        Some(w) => !matches!(w, "fp64" | "generic") && !w.starts_with("__opencl_c"),
        None => !matches!(r.as_str(), "images" | "fp16" | "__opencl_c_images"),
    })
}

#[test]
fn valid_corpus_lowers_to_verified_ir() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/valid");
    let mut paths: Vec<_> = std::fs::read_dir(&root)
        .expect("corpus directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    paths.sort();
    let mut failures = Vec::new();
    let mut lowered = 0;
    let mut rejected = Vec::new();
    for path in &paths {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(path).expect("readable corpus file");
        if std::env::var_os("LOWER_TRACE").is_some() {
            eprintln!("{name}");
        }
        let (options, requires) = header(&text);
        if !supported(&requires) {
            continue;
        }
        let mut target = Target::full_profile_cpu();
        target.image_support = false;
        target.features.retain(|f| !f.contains("image"));
        let opts = parse_build_options(&options).expect("corpus options parse");
        let c = compile(&text, &opts, &target, &[]);
        let Some(program) = c.program else {
            // The front end's business (tests/corpus.rs); nothing to lower.
            rejected.push(name);
            continue;
        };
        let mut module = match lower(&program) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{name}: lowering failed: {e}"));
                continue;
            }
        };
        if let Err(errs) = verify_module(&module) {
            let list: Vec<String> = errs.iter().take(5).map(|e| e.to_string()).collect();
            failures.push(format!(
                "{name}: lowered IR invalid:\n  {}",
                list.join("\n  ")
            ));
            continue;
        }
        let mut pm = PassManager::standard();
        pm.verify = true;
        if let Err(e) = pm.run(&mut module) {
            failures.push(format!("{name}: {e}"));
            continue;
        }
        lowered += 1;
    }
    if !rejected.is_empty() {
        eprintln!(
            "not lowered, the front end rejects them: {}",
            rejected.join(" ")
        );
    }
    eprintln!("{lowered} corpus files lowered");
    assert!(
        failures.is_empty(),
        "{} of {} files fail:\n{}",
        failures.len(),
        paths.len(),
        failures.join("\n")
    );
    assert!(lowered >= 70, "only {lowered} corpus files were lowered");
}
