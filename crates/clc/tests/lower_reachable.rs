//! Building an executable lowers only what its kernels reach: a helper no kernel calls is
//! checked (its errors still fail the build, as clang reports them) but never lowered.

use ferrocl_clc::{compile, lower, lower_reachable, parse_build_options, Target};

fn names(m: &ferrocl_ir::Module) -> Vec<String> {
    let mut n: Vec<String> = m.funcs.values().map(|f| f.name.clone()).collect();
    n.sort();
    n
}

#[test]
fn functions_no_kernel_reaches_are_not_lowered() {
    let source = "float square(float x) { return x * x; }\n\
                  float twice(float x) { return square(x) + square(x); }\n\
                  float unused(float x) { return sin(x) + square(x); }\n\
                  float unused_too(float x) { return unused(x) * 2.0f; }\n\
                  kernel void k(global float *p) { p[0] = twice(p[0]); }\n";
    let options = parse_build_options("").expect("options");
    let c = compile(source, &options, &Target::full_profile_cpu(), &[]);
    let program = c.program.expect("compiles");
    let reachable = lower_reachable(&program).expect("lowers");
    ferrocl_ir::verify_module(&reachable).expect("verifies");
    assert_eq!(names(&reachable), ["k", "square", "twice"]);
    // A compiled object keeps every function, for other objects to link against.
    let whole = lower(&program).expect("lowers");
    assert_eq!(
        names(&whole),
        ["k", "sin.float", "square", "twice", "unused", "unused_too"]
    );
}

#[test]
fn errors_in_functions_no_kernel_reaches_are_reported() {
    let source = "float unused(float x) { return undeclared_name + x; }\n\
                  kernel void k(global float *p) { p[0] = 1.0f; }\n";
    let options = parse_build_options("").expect("options");
    let c = compile(source, &options, &Target::full_profile_cpu(), &[]);
    assert!(c.program.is_none());
    assert!(c.log.contains("undeclared_name"), "{}", c.log);
}
