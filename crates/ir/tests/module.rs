//! Linking, the pass manager's contract, and parse errors.

use ferrocl_ir::passes::PassManager;
use ferrocl_ir::{parse_module, print_module, verify_module, Module, Op};

#[test]
fn linking_resolves_declarations_by_name() {
    let mut program = parse_module(
        "global @lut: constant, size 4, align 4, init \"01020304\"
declare @half_of(f32) -> f32

kernel @k(ptr.global) {
    arg \"p\": \"float*\" global none []
block0(v0: ptr.global):
    v1: f32 = load.global v0, align 4
    v2: f32 = call @half_of(v1)
    store.global v2, v0, align 4
    return
}
",
    )
    .expect("parses");
    let library = parse_module(
        "global @lut: constant, size 4, align 4, init \"01020304\"
global @table: constant, size 4, align 4, init \"00000040\"

func @half_of(f32) -> f32 {
block0(v0: f32):
    v1: f32 = fconst 0.5
    v2: f32 = fmul v0, v1
    return v2
}

func @unused() {
block0:
    v0: ptr.constant = globaladdr @table
    return
}
",
    )
    .expect("parses");
    program.link(library).expect("links");
    verify_module(&program).expect("linked module verifies");
    let f = program.func_by_name("half_of").expect("linked");
    assert!(!program.funcs[f].is_declaration());
    assert_eq!(program.globals.len(), 2, "equal globals are merged");
    // The library's global reference was renumbered to the global's new index.
    let unused = &program.funcs[program.func_by_name("unused").expect("linked")];
    let table = program.global_by_name("table").expect("linked");
    assert!(unused
        .dfg
        .insts
        .values()
        .any(|d| d.op == Op::GlobalAddr(table)));
    let text = print_module(&program);
    assert_eq!(print_module(&parse_module(&text).expect("parses")), text);
}

#[test]
fn linking_rejects_conflicts() {
    let def = "func @f() {\nblock0:\n    return\n}\n";
    let mut a = parse_module(def).expect("parses");
    assert_eq!(
        a.link(parse_module(def).expect("parses")),
        Err("@f is defined twice".to_string())
    );
    let mut a = parse_module("declare @f(i32)\n").expect("parses");
    assert_eq!(
        a.link(parse_module(def).expect("parses")),
        Err("@f is declared with two signatures".to_string())
    );
    let mut a = parse_module("global @g: global, size 4, align 4\n").expect("parses");
    let b = parse_module("global @g: global, size 8, align 4\n").expect("parses");
    assert_eq!(a.link(b), Err("global @g is defined twice".to_string()));
}

#[test]
fn external_globals_resolve_to_their_definition() {
    let user = "global @table: constant, size 16, align 4, external
global @opaque: constant, size 0, align 1, external
global @.str.0: constant, size 2, align 1, init \"6100\"

func @f() {
block0:
    v0: ptr.constant = globaladdr @table
    v1: ptr.constant = globaladdr @opaque
    v2: ptr.constant = globaladdr @.str.0
    return
}
";
    let definer = "global @.str.0: constant, size 2, align 1, init \"6200\"
global @table: constant, size 16, align 4, init \"01000000020000000300000004000000\"
global @opaque: constant, size 8, align 4, init \"0500000006000000\"
";
    let linked = ferrocl_ir::module::link_modules(
        [parse_module(user).unwrap(), parse_module(definer).unwrap()],
        true,
    )
    .expect("links");
    verify_module(&linked).expect("verifies");
    let table = &linked.globals[linked.global_by_name("table").unwrap()];
    assert!(!table.external && table.init.is_some());
    assert_eq!(
        linked.globals[linked.global_by_name("opaque").unwrap()].size,
        8
    );
    // Each module keeps its own string literal.
    let s0 = &linked.globals[linked.global_by_name(".str.0").unwrap()];
    let s1 = &linked.globals[linked.global_by_name(".str.0.1").unwrap()];
    assert_eq!(
        (s0.init.as_deref(), s1.init.as_deref()),
        (Some(&b"a\0"[..]), Some(&b"b\0"[..]))
    );
    // The text form round-trips `external`.
    let m = parse_module(user).unwrap();
    assert_eq!(
        print_module(&parse_module(&print_module(&m)).unwrap()),
        print_module(&m)
    );
    // Left undefined: a library links, an executable names the symbol.
    assert!(ferrocl_ir::module::link_modules([parse_module(user).unwrap()], false).is_ok());
    let e = ferrocl_ir::module::link_modules([parse_module(user).unwrap()], true).unwrap_err();
    assert!(
        e.contains("undefined symbol 'table'") && e.contains("'opaque'"),
        "{e}"
    );
    // A declaration of another size or space does not match.
    let other = "global @table: constant, size 8, align 4, init \"0100000002000000\"\n";
    let e = ferrocl_ir::module::link_modules(
        [parse_module(user).unwrap(), parse_module(other).unwrap()],
        true,
    )
    .unwrap_err();
    assert!(e.contains("@table is declared as 16 bytes"), "{e}");
}

fn break_terminators(m: &mut Module) {
    for (_, f) in m.funcs.iter_mut() {
        if let Some(b) = f.layout.entry_block() {
            if let Some(t) = f.terminator(b) {
                f.layout.remove_inst(t);
            }
        }
    }
}

#[test]
fn the_pass_manager_verifies_after_each_pass_and_times_it() {
    let mut m = parse_module(
        "func @f(i32) -> i32 {\nblock0(v0: i32):\n    v1: i32 = iadd v0, v0\n    return v1\n}\n",
    )
    .expect("parses");
    let mut pm = PassManager::new();
    pm.verify = true;
    pm.add("fold").expect("fold exists");
    pm.add_fn("breaker", break_terminators);
    pm.add("dce").expect("dce exists");
    let err = pm.run(&mut m).expect_err("the broken IR is caught");
    assert_eq!(err.pass, "breaker");
    assert!(
        err.to_string()
            .contains("block does not end in a terminator"),
        "{err}"
    );
    let names: Vec<&str> = pm.timings.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["fold", "breaker"],
        "the pipeline stops at the failing pass"
    );
    assert!(pm.add("no_such_pass").is_none());
}

#[test]
fn the_standard_pipeline_runs_and_sums_its_timings() {
    let mut m = parse_module(
        "func @f(i32) -> i32 {\n    ss0 = slot 4, align 4\nblock0(v0: i32):\n    v1: ptr.private = slotaddr ss0\n    store.private v0, v1, align 4\n    v2: i32 = load.private v1, align 4\n    v3: i32 = iconst 0\n    v4: i32 = iadd v2, v3\n    return v4\n}\n",
    )
    .expect("parses");
    let mut pm = PassManager::standard();
    pm.verify = true;
    pm.run(&mut m).expect("verifies");
    assert_eq!(
        print_module(&m),
        "func @f(i32) -> i32 {\nblock0(v0: i32):\n    return v0\n}\n"
    );
    let totals = pm.total_by_name();
    assert_eq!(totals.len(), 15, "{totals:?}");
    assert!(pm.timings.len() > totals.len());
}

#[test]
fn parse_errors_point_at_the_problem() {
    let cases = [
        (
            "func @f() {\nblock0:\n    v1: i32 = frobnicate\n}\n",
            "3:15: unknown instruction `frobnicate`",
        ),
        (
            "func @f() {\nblock0:\n    v1: i33 = iconst 1\n}\n",
            "3:9: unknown type `i33`",
        ),
        (
            "func @f() {\nblock0:\n    return v7\n}\n",
            "3:12: v7 is used but never defined",
        ),
        (
            "func @f() {\nblock0:\n    jump block4\n}\n",
            "3:10: block4 is used but never defined",
        ),
        (
            "func @f() {\nblock0:\n    v1: i32 = call @g()\n}\n",
            "3:20: no function named @g",
        ),
        (
            "func @f() {\nblock0:\n    v1: i32 = iconst 1\n    v1: i32 = iconst 2\n}\n",
            "4:5: v1 is defined twice",
        ),
        (
            "func @f() {\nblock0:\n    v1: f32 = load.weird v0, align 4\n}\n",
            "3:15: bad modifiers in `load.weird`",
        ),
        (
            "func @f() {\nblock0:\n    v1: f32 = load.private.trusted.volatile v0, align 4\n}\n",
            "3:15: bad modifiers in `load.private.trusted.volatile`",
        ),
        (
            "func @f() {\nblock0:\n    store.private.trusted.trusted v1, v0, align 4\n}\n",
            "3:5: bad modifiers in `store.private.trusted.trusted`",
        ),
        (
            "global @g: global, size 4, align 4, init \"zz\"\n",
            "initializer is not hex",
        ),
        ("func @f() {\n    @\n", "2:5: expected a name after `@`"),
        (
            "func @f() {\nblock0:\n    return\n}\nfunc @f() {\nblock0:\n    return\n}\n",
            "5:1: function @f is defined twice",
        ),
    ];
    for (text, want) in cases {
        let err = parse_module(text).expect_err(want).to_string();
        assert!(err.contains(want), "got {err:?}, want {want:?}");
    }
}

#[test]
fn modules_display_and_parse_through_std_traits() {
    let text = "func @f() {\nblock0:\n    return\n}\n";
    let m: Module = text.parse().expect("parses");
    assert_eq!(m.to_string(), text);
    assert!("func @f(".parse::<Module>().is_err());
}
