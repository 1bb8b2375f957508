//! The kernel ABI of each argument: written in the text form where it is not the parameter
//! type's default, kept by serialization, checked by the verifier.

use ferrocl_ir::serialize::{deserialize, serialize};
use ferrocl_ir::*;

const SRC: &str = r#"
kernel @k(ptr.global, ptr.private, i32, ptr.local) {
    arg "out": "int*" global none []
    arg "s": "struct S" private none [const] aggregate size 12 align 4
    arg "n": "int" private none []
    arg "scratch": "float*" local none []
block0(v0: ptr.global, v1: ptr.private, v2: i32, v3: ptr.local):
    return
}
"#;

#[test]
fn the_abi_is_read_printed_and_serialized() {
    let m = parse_module(SRC).expect("parses");
    verify_module(&m).expect("verifies");
    let (_, f) = m.kernels().next().expect("one kernel");
    let k = f.kernel.as_ref().expect("kernel info");
    let abi: Vec<(ArgKind, u32, u32)> = k.args.iter().map(|a| (a.kind, a.size, a.align)).collect();
    assert_eq!(
        abi,
        [
            (ArgKind::Buffer, 8, 8),
            (ArgKind::Aggregate, 12, 4),
            (ArgKind::Value, 4, 4),
            (ArgKind::Local, 8, 8),
        ]
    );
    let text = print_module(&m);
    assert!(
        text.contains("[const] aggregate size 12 align 4\n"),
        "{text}"
    );
    assert!(text.contains("\"n\": \"int\" private none []\n"), "{text}");
    assert_eq!(parse_module(&text).expect("reparses"), m);
    assert_eq!(deserialize(&serialize(&m)).expect("decodes"), m);
}

#[test]
fn an_aggregate_without_its_size_is_rejected() {
    let src = SRC.replace(" aggregate size 12 align 4", "");
    let e = parse_module(&src).expect_err("the size of a by-value struct is not in its type");
    assert!(e.message.contains("must be written"), "{}", e.message);
}

#[test]
fn the_verifier_checks_the_abi_against_the_parameter() {
    let mut m = parse_module(SRC).expect("parses");
    let f = m.kernels().next().expect("one kernel").0;
    let args = &mut m.funcs[f].kernel.as_mut().expect("kernel info").args;
    args[2].size = 8;
    args[0].kind = ArgKind::Local;
    let errors = verify_module(&m).expect_err("two arguments do not fit their parameters");
    let text: Vec<String> = errors.iter().map(|e| e.message.clone()).collect();
    assert_eq!(text.len(), 2, "{text:?}");
    assert!(
        text[0].contains("kernel argument 0: a local argument"),
        "{text:?}"
    );
    assert!(
        text[1].contains("kernel argument 2: a value argument of 8 bytes"),
        "{text:?}"
    );
}
