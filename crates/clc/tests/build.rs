//! The build driver: options parsed once (the parsed options are what it takes), the builtin
//! library linked, the passes the options ask for, an executable's undefined functions
//! reported, and one error kind per failure the API tells apart.

use ferrocl_clc::build::{parse_link, parse_options};
use ferrocl_clc::{build, build_ir, compile_object, link, BuildErrorKind, BuildOptions, Target};
use ferrocl_ir::Module;

const SRC: &str = "kernel void k(global float *o, float x) {\n\
                   float t = sin(x);\n\
                   o[get_global_id(0)] = t;\n\
                   }\n";

fn target() -> Target {
    Target::full_profile_cpu()
}

fn opts(options: &str) -> BuildOptions {
    parse_options(options).expect("valid options")
}

fn declarations(m: &Module) -> Vec<String> {
    m.funcs
        .iter()
        .filter(|(_, f)| f.is_declaration())
        .map(|(_, f)| f.name.clone())
        .collect()
}

fn kernel_slots(m: &Module) -> usize {
    m.kernels().next().expect("a kernel").1.slots.len()
}

#[test]
fn a_build_links_the_library_and_optimizes() {
    let built = build(SRC, &opts(""), &target(), &[], &ferrocl_builtins::library).expect("builds");
    // The object calls the builtin; the executable has its body, inlined.
    assert_eq!(declarations(&built.object.module), ["sin.float"]);
    assert!(declarations(&built.executable).is_empty());
    assert_eq!(
        built.executable.funcs.len(),
        1,
        "everything inlined into the kernel"
    );
}

#[test]
fn opt_disable_is_honoured_from_the_parsed_options() {
    let src = "kernel void k(global int *o) { int a = 1; o[0] = a; }";
    let plain = build(src, &opts(""), &target(), &[], &ferrocl_builtins::library).expect("builds");
    let off = build(
        src,
        &opts("-cl-opt-disable"),
        &target(),
        &[],
        &ferrocl_builtins::library,
    )
    .expect("builds");
    assert_eq!(
        kernel_slots(&plain.executable),
        0,
        "mem2reg promoted the variable"
    );
    assert!(
        kernel_slots(&off.executable) > 0,
        "no optimization: the variable stays in memory"
    );
    let from_ir = build_ir(
        &off.object.module,
        &opts("-cl-opt-disable"),
        &ferrocl_builtins::library,
    )
    .expect("builds");
    assert!(kernel_slots(&from_ir) > 0);
}

#[test]
fn work_groups_may_be_non_uniform_from_cl2_0_without_the_option() {
    let object = |options| compile_object(SRC, &opts(options), &target(), &[]).expect("compiles");
    assert!(object("").uniform_work_groups);
    assert!(object("-cl-std=CL1.2").uniform_work_groups);
    assert!(!object("-cl-std=CL2.0").uniform_work_groups);
    assert!(object("-cl-std=CL3.0 -cl-uniform-work-group-size").uniform_work_groups);
}

#[test]
fn failures_say_which_kind_they_are() {
    let lib = &ferrocl_builtins::library;
    let e = parse_options("-no-such-option").expect_err("invalid option");
    assert_eq!(e.kind, BuildErrorKind::InvalidOptions);
    assert!(e.log.starts_with("error: "), "{}", e.log);
    let e = build("kernel void k( {", &opts(""), &target(), &[], lib).expect_err("syntax error");
    assert_eq!(e.kind, BuildErrorKind::Failed);
    assert!(e.log.contains("error:"), "{}", e.log);
    let e = parse_link("-cl-std=CL2.0").expect_err("not a link option");
    assert_eq!(e.kind, BuildErrorKind::InvalidOptions);
    // An executable leaves no declared function undefined.
    let user = compile_object(
        "float twice(float x);\nkernel void k(global float *o) { o[0] = twice(o[0]); }",
        &opts(""),
        &target(),
        &[],
    )
    .expect("compiles");
    let e = build_ir(&user.module, &opts(""), lib).expect_err("twice is defined nowhere");
    assert_eq!(e.kind, BuildErrorKind::Failed);
    assert!(e.log.contains("undefined function 'twice'"), "{}", e.log);
}

#[test]
fn linking_makes_a_library_or_an_executable() {
    let lib = &ferrocl_builtins::library;
    let helper = compile_object(
        "float twice(float x) { return 2 * x; }",
        &opts(""),
        &target(),
        &[],
    )
    .expect("compiles");
    let user = compile_object(
        "float twice(float x);\nkernel void k(global float *o) { o[0] = twice(o[0]); }",
        &opts(""),
        &target(),
        &[],
    )
    .expect("compiles");
    let inputs = [&helper.module, &user.module];
    let library =
        link(&inputs, &parse_link("-create-library").expect("valid"), lib).expect("links");
    assert!(library.executable.is_none());
    let exe = link(&inputs, &parse_link("").expect("valid"), lib).expect("links");
    let exe = exe.executable.expect("an executable");
    assert!(
        declarations(&exe).is_empty(),
        "twice was linked and inlined"
    );
    let twice = compile_object(
        "float twice(float x) { return x; }",
        &opts(""),
        &target(),
        &[],
    )
    .expect("compiles");
    let e = link(
        &[&helper.module, &twice.module],
        &parse_link("").expect("valid"),
        lib,
    )
    .expect_err("defined twice");
    assert_eq!(e.kind, BuildErrorKind::Failed);
    assert!(e.log.contains("twice"), "{}", e.log);
    let e = link(&[&user.module], &parse_link("").expect("valid"), lib).expect_err("undefined");
    assert!(e.log.contains("undefined function 'twice'"), "{}", e.log);
}
