//! Mutants of the filetests (token deletions, insertions and replacements): the parser and
//! verifier never panic on them, and every mutant that verifies prints back identically and
//! goes through the standard pipeline, verified after each pass, and the uniformity
//! analysis without a panic.

use ferrocl_ir::passes::PassManager;
use ferrocl_ir::uniformity::Uniformity;
use ferrocl_ir::*;

#[test]
fn mutated_filetests_never_break_the_tools() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filetests");
    let mut texts = Vec::new();
    for d in std::fs::read_dir(&dir).expect("filetests") {
        for f in std::fs::read_dir(d.expect("entry").path()).expect("pass directory") {
            let p = f.expect("entry").path();
            if p.extension().is_some_and(|x| x == "ir") {
                texts.push(std::fs::read_to_string(p).expect("readable"));
            }
        }
    }
    texts.sort();
    let mut st = 0x1234_5678_9abc_def0u64;
    let mut next = || {
        st ^= st << 13;
        st ^= st >> 7;
        st ^= st << 17;
        st
    };
    let pieces = [
        "v0",
        "block1",
        "(",
        ")",
        ",",
        ":",
        "=",
        "[",
        "]",
        "{",
        "}",
        "i32",
        "f32x4",
        "ptr.local",
        "iconst",
        "-",
        "0x",
        "9999999999999999999999",
        "\"",
        "@",
        "...",
        "->",
        "v1048575",
        "block1048576",
        "ss7",
        "vconst [",
        "switch",
        "brif",
        "\n",
        " ",
    ];
    let (mut parsed, mut valid) = (0, 0);
    for _ in 0..6000 {
        let mut s = texts[(next() as usize) % texts.len()].clone();
        for _ in 0..(next() % 4 + 1) {
            if s.is_empty() {
                break;
            }
            let mut i = (next() as usize) % s.len();
            while !s.is_char_boundary(i) {
                i -= 1;
            }
            let p = pieces[(next() as usize) % pieces.len()];
            let mut j = match next() % 3 {
                0 => i + (next() as usize % 12),
                1 => i,
                _ => i + p.len(),
            };
            j = j.min(s.len());
            while !s.is_char_boundary(j) {
                j -= 1;
            }
            let with = if j > i && next() % 3 == 0 { "" } else { p };
            s.replace_range(i..j, with);
        }
        let Ok(m) = parse_module(&s) else { continue };
        parsed += 1;
        if verify_module(&m).is_err() {
            continue;
        }
        valid += 1;
        let text = print_module(&m);
        assert_eq!(
            print_module(&parse_module(&text).expect("printed text parses")),
            text
        );
        let mut opt = m.clone();
        let mut pm = PassManager::standard();
        pm.verify = true;
        pm.run(&mut opt).unwrap_or_else(|e| panic!("{e}\n{s}"));
        for (_, f) in m.funcs.iter() {
            Uniformity::new(f);
        }
    }
    assert!(
        parsed > 300 && valid > 100,
        "{parsed} parsed, {valid} valid"
    );
}
