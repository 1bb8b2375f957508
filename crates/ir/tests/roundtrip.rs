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

#[test]
fn float_and_integer_constants_round_trip_bit_exactly() {
    let mut state = 0x853c49e6748fea9bu64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut text = String::from("func @f() {\nblock0:\n");
    let mut want = Vec::new();
    let specials32 = [
        0u64,
        0x8000_0000,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0x0000_0001,
        0x7f7f_ffff,
        0x3f80_0000,
    ];
    for k in 0..3000u64 {
        let (ty, bits) = match k % 4 {
            0 => (
                "f32",
                if k < 32 {
                    specials32[(k / 4) as usize % 8]
                } else {
                    next() & 0xffff_ffff
                },
            ),
            1 => ("f64", next()),
            2 => ("f16", next() & 0xffff),
            _ => ("i64", next()),
        };
        let op = if ty == "i64" { "iconst" } else { "fconst" };
        let value = if ty == "i64" {
            (bits as i64).to_string()
        } else {
            format!("{bits:#x}")
        };
        text += &format!("    v{k}: {ty} = {op} {value}\n");
        want.push(bits);
    }
    text += "    return\n}\n";
    let m = parse_module(&text).expect("parses");
    let printed = print_module(&m);
    let back = parse_module(&printed).expect("printed constants parse");
    let f = &back.funcs[back.func_by_name("f").expect("@f")];
    let block = f.layout.entry_block().expect("entry");
    for (k, &i) in f
        .layout
        .block_insts(block)
        .iter()
        .take(want.len())
        .enumerate()
    {
        let got = match f.dfg.insts[i].op {
            ferrocl_ir::Op::Iconst(c) | ferrocl_ir::Op::Fconst(c) => c,
            ref op => panic!("{op:?}"),
        };
        assert_eq!(
            got,
            want[k],
            "constant {k} printed as {:?}",
            printed.lines().nth(k + 2)
        );
    }
    assert_eq!(print_module(&back), printed);
}

#[test]
fn half_constants_accept_decimals() {
    let m =
        parse_module("func @f() -> f16 {\nblock0:\n    v0: f16 = fconst 1.5\n    return v0\n}\n")
            .expect("parses");
    assert!(
        print_module(&m).contains("fconst 0x3e00"),
        "{}",
        print_module(&m)
    );
}
