//! Every program of the front end's valid corpus (crates/clc/tests/corpus/valid) builds for
//! the CPU device through the whole pipeline — front end, lowering, IR passes, code
//! generation — except files needing features the device does not report, and the files of
//! `KNOWN_GAPS`, each naming what is missing. A known gap that starts to build fails the test
//! too, so the list stays true.

use crate::builtins_harness;

use std::path::Path;

use ferrocl_core::program::Program;
use ferrocl_core::Context;

/// Files that need a builtin the CPU device does not provide yet.
const KNOWN_GAPS: &[(&str, &str)] = &[];

/// Features a file may require (its `// requires:` line) that the CPU device lacks.
fn unsupported(requirement: &str) -> bool {
    let device = &builtins_harness::platform().devices()[0].info;
    match requirement {
        "images" => !device.image_support,
        "fp64" => device.double_fp_config == 0,
        "fp16" => device.half_fp_config == 0,
        "generic" => !device.generic_address_space_support,
        r if r.starts_with("!") => !unsupported(&r[1..]),
        r if r.starts_with("__opencl_c_") => !device.opencl_c_features.iter().any(|f| f.name == r),
        _ => false,
    }
}

#[test]
fn the_valid_corpus_builds_for_the_cpu_device() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../clc/tests/corpus/valid");
    let context = Context::new(
        builtins_harness::platform().devices().to_vec(),
        Vec::new(),
        false,
        None,
    );
    let device = &builtins_harness::platform().devices()[0];
    let versions: Vec<String> = device
        .info
        .opencl_c_all_versions
        .iter()
        .map(|v| format!("CL{}.{}", v.version.major, v.version.minor))
        .collect();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the corpus")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    let (mut built, mut skipped, mut problems) = (0, 0, Vec::new());
    for path in files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "cl"))
    {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let source = std::fs::read_to_string(path).expect("a corpus file");
        let line = |key: &str| {
            source
                .lines()
                .find_map(|l| l.strip_prefix(key))
                .unwrap_or("")
                .trim()
                .to_string()
        };
        let options = line("// options:");
        let std_ok = options
            .split_whitespace()
            .filter_map(|o| o.strip_prefix("-cl-std="))
            .all(|v| versions.iter().any(|have| have == v));
        if !std_ok
            || line("// requires:")
                .split([' ', ','])
                .filter(|r| !r.is_empty())
                .any(unsupported)
        {
            skipped += 1;
            continue;
        }
        let program = Program::from_source(context.clone(), source.clone());
        let result = program.build(&[], &options);
        let gap = KNOWN_GAPS.iter().find(|(f, _)| *f == name);
        match (result, gap) {
            (Ok(()), None) => built += 1,
            (Ok(()), Some((_, why))) => problems.push(format!(
                "{name} builds now; remove it from KNOWN_GAPS ({why})"
            )),
            (Err(_), Some(_)) => {}
            (Err(e), None) => {
                let log = program
                    .build_info(device)
                    .map(|b| b.log)
                    .unwrap_or_default();
                problems.push(format!("{name}: {e}\n{log}"));
            }
        }
    }
    println!(
        "{built} built, {skipped} skipped for features the device lacks, {} known gaps",
        KNOWN_GAPS.len()
    );
    assert!(
        problems.is_empty(),
        "{} corpus files:\n{}",
        problems.len(),
        problems.join("\n")
    );
    assert!(built >= 60, "only {built} corpus files built");
}
