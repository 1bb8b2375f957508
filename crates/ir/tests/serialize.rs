//! Binary round trips, and corrupt bytes that must give errors rather than panics.

use std::fs;
use std::path::Path;

use ferrocl_ir::serialize::{deserialize, serialize, DecodeError, MAGIC, VERSION};
use ferrocl_ir::{parse_module, verify_module, Module};

fn every_op() -> Module {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filetests/roundtrip/every_op.ir");
    parse_module(&fs::read_to_string(p).expect("readable")).expect("parses")
}

#[test]
fn serialize_then_deserialize_gives_an_equal_module() {
    let m = every_op();
    let bytes = serialize(&m);
    assert_eq!(&bytes[..8], &MAGIC);
    assert_eq!(&bytes[8..12], &VERSION.to_le_bytes());
    let back = deserialize(&bytes).expect("reads back");
    assert_eq!(back, m);
    assert_eq!(serialize(&back), bytes);
}

#[test]
fn a_program_binary_with_a_trusted_access_is_refused() {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filetests/roundtrip/trusted.ir");
    let m = parse_module(&fs::read_to_string(p).expect("readable")).expect("parses");
    verify_module(&m).expect("valid");
    // The flag is written and read back (the refusal names it), but a front end cannot know
    // it: a device would leave the access unconfined.
    match deserialize(&serialize(&m)) {
        Err(DecodeError::Invalid(e)) => assert!(e.contains("@f: a trusted access"), "{e}"),
        other => panic!("a trusted access was not refused: {other:?}"),
    }
}

#[test]
fn numbering_gaps_survive() {
    let text =
        "func @f(i32) -> i32 {\nblock3(v9: i32):\n    v40: i32 = iadd v9, v9\n    return v40\n}\n";
    let m = parse_module(text).expect("parses");
    verify_module(&m).expect("valid");
    let back = deserialize(&serialize(&m)).expect("reads back");
    assert_eq!(back, m);
    assert_eq!(ferrocl_ir::print_module(&back), text);
}

#[test]
fn wrong_magic_and_version_are_rejected() {
    let mut bytes = serialize(&every_op());
    assert_eq!(deserialize(&bytes[..5]), Err(DecodeError::BadMagic));
    bytes[8] = 99;
    assert_eq!(
        deserialize(&bytes),
        Err(DecodeError::UnsupportedVersion(99))
    );
    bytes[0] = b'X';
    assert_eq!(deserialize(&bytes), Err(DecodeError::BadMagic));
}

#[test]
fn every_truncation_is_an_error() {
    let bytes = serialize(&every_op());
    for n in 0..bytes.len() {
        assert!(
            deserialize(&bytes[..n]).is_err(),
            "truncated at {n} read back"
        );
    }
}

#[test]
fn corrupted_bytes_never_panic() {
    let bytes = serialize(&every_op());
    // A small xorshift generator: deterministic, so a failure reproduces.
    let mut state = 0x9e3779b97f4a7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut errors = 0;
    for _ in 0..3000 {
        let mut b = bytes.clone();
        for _ in 0..(next() % 4 + 1) {
            let i = 12 + (next() as usize) % (b.len() - 12);
            b[i] = next() as u8;
        }
        match deserialize(&b) {
            Ok(m) => assert!(
                verify_module(&m).is_ok(),
                "deserialize returned an unverified module"
            ),
            Err(_) => errors += 1,
        }
    }
    assert!(errors > 0);
    // Every single-byte change of every position.
    for i in 12..bytes.len() {
        for v in [0u8, 1, 0x7f, 0x80, 0xff] {
            let mut b = bytes.clone();
            b[i] = v;
            let _ = deserialize(&b);
        }
    }
}

#[test]
fn the_text_parser_never_panics_on_damaged_text() {
    let text = ferrocl_ir::print_module(&every_op());
    for n in (0..text.len()).step_by(7) {
        if text.is_char_boundary(n) {
            if let Ok(m) = parse_module(&text[..n]) {
                let _ = verify_module(&m);
            }
        }
    }
    let bytes = text.as_bytes();
    let mut state = 0x2545f4914f6cdd1du64;
    for _ in 0..2000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mut b = bytes.to_vec();
        let i = (state as usize) % b.len();
        b[i] = b"v0123456789@:,()[]{}=-. x\"\n"[(state >> 32) as usize % 27];
        if let Ok(s) = std::str::from_utf8(&b) {
            if let Ok(m) = parse_module(s) {
                let _ = verify_module(&m);
            }
        }
    }
}
