//! The build log: clang-style rendering (`<source>:LINE:COL: error: ...`, the line, a caret,
//! macro-expansion notes), recovery that reports several independent errors, and the
//! `-w` / `-Werror` options.

use ferrocl_clc::{compile, diag::Severity, parse_build_options, Target};

fn log_of(src: &str, opts: &str) -> String {
    compile(
        src,
        &parse_build_options(opts).expect("options"),
        &Target::full_profile_cpu(),
        &[],
    )
    .log
}

#[test]
fn error_with_source_line_and_caret() {
    let log = log_of(
        "__kernel void k(__global int *o)\n{\n\to[0] = missing;\n}\n",
        "",
    );
    assert_eq!(log, "<source>:3:9: error: use of undeclared identifier 'missing'\n\to[0] = missing;\n\t       ^\n1 error generated.\n");
}

#[test]
fn missing_semicolon_points_after_the_previous_token() {
    let log = log_of(
        "__kernel void k(__global int *o)\n{\n    int a = 1\n    o[0] = a;\n}\n",
        "",
    );
    assert_eq!(log, "<source>:3:14: error: expected ';' at end of declaration\n    int a = 1\n             ^\n1 error generated.\n");
}

#[test]
fn macro_expansion_notes() {
    let src = "#define SCALE(x) ((x) * nope)\n#define TWICE(y) SCALE(y)\n__kernel void k(__global float *o) { o[0] = TWICE(1.0f); }\n";
    let log = log_of(src, "");
    let want = "<source>:3:45: error: use of undeclared identifier 'nope'\n\
                __kernel void k(__global float *o) { o[0] = TWICE(1.0f); }\n\
                \x20                                           ^\n\
                <source>:2:18: note: expanded from macro 'TWICE'\n\
                #define TWICE(y) SCALE(y)\n\
                \x20                ^\n\
                <source>:1:25: note: expanded from macro 'SCALE'\n\
                #define SCALE(x) ((x) * nope)\n\
                \x20                       ^\n\
                1 error generated.\n";
    assert_eq!(log, want);
}

#[test]
fn several_independent_errors_in_one_build() {
    let src = "__kernel void a(__global int *o) { o[0] = x; }\n\
               __kernel void b(__global int *o) { o[0] = 1 }\n\
               __kernel void c(__global int *o) { float4 v = 0; o[0] = v.q; }\n\
               __kernel int d() { return 0; }\n\
               __kernel void e(__global int *o) { o[0] = 2; }\n";
    let c = compile(src, &Default::default(), &Target::full_profile_cpu(), &[]);
    let lines: Vec<(u32, &str)> = c.errors().map(|d| (d.line, d.message.as_str())).collect();
    assert_eq!(
        lines,
        [
            (1, "use of undeclared identifier 'x'"),
            (2, "expected ';' after expression"),
            (3, "illegal vector component name 'q'"),
            (4, "kernel must have void return type"),
        ]
    );
    assert!(c.log.ends_with("4 errors generated.\n"), "{}", c.log);
}

#[test]
fn recovery_inside_blocks_and_declarations() {
    let src = "__kernel void k(__global int *o) {\n  int a = ;\n  o[0] = (1 + ;\n  unknown_t b;\n  o[1] = 2;\n}\nint ok(void) { return 1 }\n";
    let c = compile(src, &Default::default(), &Target::full_profile_cpu(), &[]);
    let lines: Vec<u32> = c.errors().map(|d| d.line).collect();
    assert_eq!(lines, [2, 3, 4, 7], "{}", c.log);
}

#[test]
fn warnings_w_and_werror() {
    let src = "__kernel void k(__global int *o) { __attribute__((bogus)) int x = 1; o[0] = x; }";
    let c = compile(src, &Default::default(), &Target::full_profile_cpu(), &[]);
    assert!(c.program.is_some());
    assert_eq!(c.warnings().count(), 1);
    assert!(
        c.log.contains("warning: unknown attribute 'bogus' ignored")
            && c.log.ends_with("1 warning generated.\n"),
        "{}",
        c.log
    );
    assert_eq!(log_of(src, "-w"), "");
    let c = compile(
        src,
        &parse_build_options("-Werror").expect("options"),
        &Target::full_profile_cpu(),
        &[],
    );
    assert!(c.program.is_none());
    assert_eq!(c.diagnostics[0].severity, Severity::Error);
}

#[test]
fn unsupported_version_is_a_build_error() {
    let mut t = Target::full_profile_cpu();
    t.c_versions = vec![ferrocl_clc::ClVersion::CL1_2];
    let c = compile(
        "__kernel void k() {}",
        &parse_build_options("-cl-std=CL2.0").expect("options"),
        &t,
        &[],
    );
    assert!(c.program.is_none());
    assert!(
        c.log.contains("does not support OpenCL C version 2.0"),
        "{}",
        c.log
    );
    // Without -cl-std the highest 1.x version is used (API 5.8.6.5).
    let c = compile(
        "#if __OPENCL_C_VERSION__ != 120\n#error wrong\n#endif\n__kernel void k() {}",
        &Default::default(),
        &Target::full_profile_cpu(),
        &[],
    );
    assert!(c.program.is_some(), "{}", c.log);
}

#[test]
fn concurrent_builds_agree() {
    // clBuildProgram may run on several threads at once: builds share only the builtin cache.
    let src = include_str!("fixtures/typical.cl");
    let expected = compile(src, &Default::default(), &Target::full_profile_cpu(), &[]);
    assert!(expected.program.is_some());
    let handles: Vec<_> = (0..6)
        .map(|i| {
            std::thread::spawn(move || {
                let opts = if i % 2 == 0 { "" } else { "-cl-std=CL2.0" };
                let c = compile(
                    src,
                    &parse_build_options(opts).expect("options"),
                    &Target::full_profile_cpu(),
                    &[],
                );
                (c.program.map(|p| p.kernels().len()), c.log)
            })
        })
        .collect();
    for h in handles {
        let (kernels, log) = h.join().expect("no panic");
        assert_eq!(kernels, Some(1), "{log}");
    }
}

#[test]
fn constant_index_past_an_array_warns() {
    let log = log_of(
        "__kernel void k(__global int *o) { int a[3] = {1, 2, 3}; o[0] = a[5] + a[2]; }",
        "",
    );
    assert!(log.contains("<source>:1:67: warning: array index 5 is past the end of the array (which contains 3 elements)"), "{log}");
    assert!(log.ends_with("1 warning generated.\n"), "{log}");
}

#[test]
fn versions_a_device_accepts() {
    // API 5.8.6.5: -cl-std=CL1.1 builds on a 1.2 device; CL2.0 needs 2.0 in the device's list.
    let mut t = Target::full_profile_cpu();
    t.c_versions = vec![ferrocl_clc::ClVersion::CL1_2];
    for (opts, ok) in [
        ("-cl-std=CL1.1", true),
        ("-cl-std=CL1.2", true),
        ("-cl-std=CL2.0", false),
        ("-cl-std=CL3.0", false),
        ("", true),
    ] {
        let c = compile(
            "__kernel void k() {}",
            &parse_build_options(opts).expect("options"),
            &t,
            &[],
        );
        assert_eq!(c.program.is_some(), ok, "{opts}: {}", c.log);
    }
    let v = ferrocl_clc::effective_version(&Default::default(), &Target::full_profile_cpu());
    assert_eq!(
        v,
        Ok(ferrocl_clc::ClVersion::CL1_2),
        "the highest 1.x version by default"
    );
}

#[test]
fn correctly_rounded_divide_sqrt_needs_the_device() {
    let opts = parse_build_options("-cl-fp32-correctly-rounded-divide-sqrt").expect("options");
    let mut t = Target::full_profile_cpu();
    assert!(compile("__kernel void k() {}", &opts, &t, &[])
        .program
        .is_some());
    t.correctly_rounded_divide_sqrt = false;
    let c = compile("__kernel void k() {}", &opts, &t, &[]);
    assert!(
        c.program.is_none() && c.log.contains("not supported by the device"),
        "{}",
        c.log
    );
}

#[test]
fn qualifiers_without_a_type_are_implicit_int() {
    let c = compile(
        "__kernel void k() { const x = 5; }",
        &Default::default(),
        &Target::full_profile_cpu(),
        &[],
    );
    let e: Vec<_> = c
        .errors()
        .map(|d| (d.line, d.column, d.message.clone()))
        .collect();
    assert_eq!(e, [(1, 27, "type specifier missing, defaults to 'int'; ISO C99 and later do not support implicit int".to_string())]);
}

#[test]
fn missing_returns_warn_only_when_certain() {
    let src = "int f(int x) { if (x) return 1; }\nint g(int x) { while (1) { if (x) return 2; } }\n\
               int h(int x) { x++; }\nint s(int x) { switch (x) { default: return 0; } }\n__kernel void k() {}\n";
    let c = compile(src, &Default::default(), &Target::full_profile_cpu(), &[]);
    let w: Vec<(u32, u32, &str)> = c
        .warnings()
        .map(|d| (d.line, d.column, d.message.as_str()))
        .collect();
    assert_eq!(
        w,
        [
            (
                1,
                33,
                "non-void function does not return a value in all control paths"
            ),
            (3, 21, "non-void function does not return a value")
        ]
    );
}

#[test]
fn typo_suggestions() {
    let log = log_of(
        "__kernel void k(__global float *out) { int index = 0; out[indx] = sqrtt(2.0f); }",
        "",
    );
    assert!(
        log.contains("error: use of undeclared identifier 'indx'; did you mean 'index'?"),
        "{log}"
    );
    assert!(
        log.contains("error: implicit declaration of function 'sqrtt' is invalid in OpenCL"),
        "{log}"
    );
    assert!(log.contains("note: did you mean 'sqrt'?"), "{log}");
}
