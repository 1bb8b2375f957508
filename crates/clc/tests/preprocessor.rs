//! Preprocessor behaviour (C99 6.10 as OpenCL C 6.12 restricts it), observed through
//! `preprocess` (the expanded text) and `compile` (diagnostics).

use ferrocl_clc::{compile, parse_build_options, preprocess, Target};

fn pp_with(src: &str, opts: &str, headers: &[(&str, &str)]) -> (String, String) {
    let o = parse_build_options(opts).expect("options");
    let h: Vec<(String, String)> = headers
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    preprocess(src, &o, &Target::full_profile_cpu(), &h)
}

fn pp(src: &str) -> String {
    let (out, log) = pp_with(src, "", &[]);
    assert!(log.is_empty(), "unexpected diagnostics:\n{log}");
    out
}

#[test]
fn object_and_function_like_macros() {
    assert_eq!(pp("#define N 4\nint a[N];"), "int a[4];");
    assert_eq!(pp("#define SQ(x) ((x)*(x))\nSQ(a+1)"), "((a+1)*(a+1))");
    assert_eq!(pp("#define F(x) x\nF (1) F"), "1 F");
    // A function-like macro name without '(' is not an invocation.
    assert_eq!(pp("#define G(x) x\nint G;"), "int G;");
}

#[test]
fn stringize_and_paste() {
    assert_eq!(pp("#define S(x) #x\nS(a  +  \"b\")"), "\"a + \\\"b\\\"\"");
    assert_eq!(
        pp("#define CAT(a, b) a ## b\nCAT(foo, 12) CAT(, x) CAT(y, )"),
        "foo12 x y"
    );
    assert_eq!(pp("#define T(n) float ## n\nT(4) v;"), "float4 v;");
}

#[test]
fn arguments_are_expanded_before_substitution_but_not_next_to_paste() {
    assert_eq!(
        pp("#define ONE 1\n#define ID(x) x\n#define P(x) x ## _\nID(ONE) P(ONE)"),
        "1 ONE_"
    );
}

#[test]
fn recursion_stops_at_the_macro_being_expanded() {
    // C99 6.10.3.4p2
    assert_eq!(pp("#define a a b\na"), "a b");
    assert_eq!(pp("#define x y\n#define y x\nx"), "x");
}

#[test]
fn variadic_macros_in_every_version() {
    // 6.11.f restricts them to OpenCL C 3.0; every clang-based compiler accepts them in every
    // version, and so does ferrocl.
    for std in [
        "-cl-std=CL1.1",
        "-cl-std=CL1.2",
        "-cl-std=CL2.0",
        "-cl-std=CL3.0",
        "",
    ] {
        let (out, log) = pp_with("#define P(f, ...) g(f, __VA_ARGS__)\nP(1, 2, 3)", std, &[]);
        assert!(log.is_empty(), "{std}: {log}");
        assert_eq!(out, "g(1, 2, 3)", "{std}");
    }
}

#[test]
fn gnu_named_variadic_parameter() {
    // GNU cpp: `x...` names the variable arguments `x`; `, ## x` drops the comma when empty.
    let out = pp(
        "#define make_int2(x...) ((int2)(x))\n#define F(a, r...) f(a, ## r)\nmake_int2(1, 2) F(1) F(1, 2, 3)",
    );
    assert_eq!(out, "((int2)(1, 2)) f(1) f(1, 2, 3)");
}

#[test]
fn va_opt_expands_only_with_variable_arguments() {
    // C23 6.10.5.2.
    let out = pp("#define F(a, ...) f(a __VA_OPT__(,) __VA_ARGS__)\nF(1) F(1, 2, 3) F(1,)");
    assert_eq!(out, "f(1) f(1, 2, 3) f(1)");
}

#[test]
fn pragma_once_reads_a_header_once() {
    let (out, log) = pp_with(
        "#include \"a.h\"\n#include \"a.h\"\n#include \"b.h\"\n#include \"b.h\"",
        "",
        &[("a.h", "#pragma once\nA"), ("b.h", "B")],
    );
    assert!(log.is_empty(), "{log}");
    assert_eq!(out, "A\nB\nB");
}

#[test]
fn unknown_pragmas_are_warned_about() {
    // clang's -Wunknown-pragmas: ignored, with a warning.
    let (out, log) = pp_with(
        "#pragma promote_to_registers\nx\n_Pragma(\"foo bar\")",
        "",
        &[],
    );
    assert_eq!(out, "x");
    assert!(
        log.contains("<source>:1:9: warning: unknown pragma ignored"),
        "{log}"
    );
    assert_eq!(log.matches("unknown pragma ignored").count(), 2, "{log}");
}

#[test]
fn conditionals_with_defined_and_arithmetic() {
    let src = "#define A 3\n#if defined(A) && A * 2 == 6 && !defined B\nyes\n#elif 1\nno\n#else\nno\n#endif\n\
               #ifdef B\nno\n#else\nelse\n#endif\n#if (0x10 >> 2) == 4 && -1 < 0 && 1u > -1 == 0\nhex\n#endif";
    assert_eq!(pp(src), "yes\nelse\nhex");
}

#[test]
fn nested_skipped_groups() {
    let src = "#if 0\n#if 1\nno\n#else\nno\n#endif\n#elif 0\nno\n#else\nok\n#endif";
    assert_eq!(pp(src), "ok");
}

#[test]
fn line_and_file() {
    assert_eq!(
        pp("a\n__LINE__\n#line 100 \"x.cl\"\n__LINE__ __FILE__"),
        "a\n2\n100 \"x.cl\""
    );
}

#[test]
fn includes_from_embedded_headers_and_directories() {
    let (out, log) = pp_with(
        "#include \"a.h\"\n#include <b.h>\nA B",
        "",
        &[("a.h", "#define A 1"), ("b.h", "#define B 2")],
    );
    assert!(log.is_empty(), "{log}");
    assert_eq!(out, "1 2");
    let dir = std::env::temp_dir().join(format!("ferrocl-clc-inc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("c.h"), "#define C 3\n").expect("write header");
    let (out, log) = pp_with("#include \"c.h\"\nC", &format!("-I {}", dir.display()), &[]);
    assert!(log.is_empty(), "{log}");
    assert_eq!(out, "3");
    let (_, log) = pp_with("#include \"missing.h\"\n", "", &[]);
    assert!(
        log.contains("<source>:1:10: error: 'missing.h' file not found"),
        "{log}"
    );
}

#[test]
fn an_absolute_include_path_opens_that_file() {
    let dir = std::env::temp_dir().join(format!("ferrocl-clc-abs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let header = dir.join("abs.h");
    std::fs::write(&header, "#define ABS 7\n").expect("write header");
    for form in ["\"{}\"", "<{}>"] {
        let line = format!(
            "#include {}\nABS",
            form.replace("{}", &header.display().to_string())
        );
        let (out, log) = pp_with(&line, "", &[]);
        assert!(log.is_empty(), "{log}");
        assert_eq!(out, "7");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn command_line_defines_in_order() {
    let (out, _) = pp_with("X Y Z", "-D X -D Y=7 -D Z=a=b -U X", &[]);
    assert_eq!(out, "X 7 a=b");
}

#[test]
fn predefined_macros_follow_version_and_target() {
    assert_eq!(pp("__OPENCL_C_VERSION__ __OPENCL_VERSION__ CL_VERSION_1_2 __ENDIAN_LITTLE__ __IMAGE_SUPPORT__"), "120 300 120 1 1");
    let (out, _) = pp_with(
        "__OPENCL_C_VERSION__ CL_VERSION_3_0 __opencl_c_fp64 cl_khr_fp64",
        "-cl-std=CL3.0",
        &[],
    );
    assert_eq!(out, "300 300 1 1");
    // Feature macros are only defined for OpenCL C 3.0; extension macros always.
    let (out, _) = pp_with(
        "__opencl_c_fp64 CL_VERSION_3_0 __FAST_RELAXED_MATH__",
        "",
        &[],
    );
    assert_eq!(out, "__opencl_c_fp64 CL_VERSION_3_0 __FAST_RELAXED_MATH__");
    let (out, _) = pp_with("__FAST_RELAXED_MATH__", "-cl-fast-relaxed-math", &[]);
    assert_eq!(out, "1");
    let mut t = Target::full_profile_cpu();
    t.image_support = false;
    let (out, _) = preprocess("__IMAGE_SUPPORT__", &Default::default(), &t, &[]);
    assert_eq!(out, "__IMAGE_SUPPORT__");
    assert_eq!(pp("__OPENCL_CPP_VERSION__"), "__OPENCL_CPP_VERSION__");
}

#[test]
fn kernel_exec_macro() {
    let out = pp("__kernel_exec(64, float4) void k() {}");
    assert_eq!(out, "__kernel __attribute__((work_group_size_hint(64, 1, 1))) __attribute__((vec_type_hint(float4))) void k() {}");
}

#[test]
fn error_warning_and_werror() {
    let c = compile(
        "#error stop here\n",
        &Default::default(),
        &Target::full_profile_cpu(),
        &[],
    );
    assert!(
        c.log
            .starts_with("<source>:1:2: error: stop here\n#error stop here\n ^\n"),
        "{}",
        c.log
    );
    let src = "#warning careful\n__kernel void k() {}";
    let c = compile(src, &Default::default(), &Target::full_profile_cpu(), &[]);
    assert!(
        c.program.is_some() && c.log.contains("warning: careful"),
        "{}",
        c.log
    );
    let c = compile(
        src,
        &parse_build_options("-w").expect("opts"),
        &Target::full_profile_cpu(),
        &[],
    );
    assert!(c.program.is_some() && c.log.is_empty(), "{}", c.log);
    let c = compile(
        src,
        &parse_build_options("-Werror").expect("opts"),
        &Target::full_profile_cpu(),
        &[],
    );
    assert!(
        c.program.is_none() && c.log.contains("error: careful"),
        "{}",
        c.log
    );
}

#[test]
fn pragmas() {
    let src = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#pragma OPENCL FP_CONTRACT OFF\n\
               #pragma OPENCL EXTENSION cl_khr_nonexistent : enable\n__kernel void k() {}";
    let c = compile(src, &Default::default(), &Target::full_profile_cpu(), &[]);
    let p = c.program.expect("compiles");
    assert_eq!(p.extensions, vec![("cl_khr_fp64".to_string(), true)]);
    // The pragma outside functions holds in the kernel's body.
    assert!(p.dump().contains("fp_contract off"), "{}", p.dump());
    assert!(
        c.log.contains(
            "<source>:3:26: warning: unsupported OpenCL extension 'cl_khr_nonexistent' - ignoring"
        ),
        "{}",
        c.log
    );
    assert_eq!(pp("_Pragma(\"unroll 4\") for"), "\n#pragma unroll 4\n for");
}

#[test]
fn directive_errors() {
    for (src, want) in [
        ("#if 1\n", "<source>:1:2: error: unterminated conditional directive"),
        ("#endif\n", "<source>:1:2: error: #endif without #if"),
        ("#foo\n", "<source>:1:2: error: invalid preprocessing directive"),
        ("#if 1/0\n#endif\n", "<source>:1:6: error: division by zero in preprocessor expression"),
        ("#define F(a) a\nF(1, 2)\n", "<source>:2:1: error: too many arguments provided to function-like macro invocation 'F'"),
        ("#define F(a) #b\n", "<source>:1:14: error: '#' is not followed by a macro parameter"),
        ("#define F(a) ## a\n", "<source>:1:14: error: '##' cannot appear at start of macro expansion"),
    ] {
        let (_, log) = pp_with(src, "", &[]);
        assert!(log.contains(want), "{src:?}:\n{log}");
    }
}

#[test]
fn defined_produced_by_macro_expansion() {
    // The operand of a `defined` that comes out of a macro is not expanded. (A macro
    // argument is, before substitution: `HAS(FOO)` with `FOO` defined as 1 is `defined(1)`.)
    let src = "#define FOO 1\n#define HAS_FOO defined FOO\n#define HAS_BAR defined(BAR)\n\
               #if HAS_FOO && !HAS_BAR\nyes\n#else\nno\n#endif";
    assert_eq!(pp(src), "yes");
}

#[test]
fn quoted_includes_look_beside_the_including_header_first() {
    let headers = [
        ("lib/a.h", "#include \"b.h\"\n"),
        ("lib/b.h", "#define B inner"),
        ("b.h", "#define B outer"),
    ];
    let (out, log) = pp_with("#include \"lib/a.h\"\nB", "", &headers);
    assert!(log.is_empty(), "{log}");
    assert_eq!(out, "inner");
}

#[test]
fn function_like_macro_from_the_command_line() {
    let (out, log) = pp_with("SQ(3)", "-D \"SQ(x)=((x)*(x))\"", &[]);
    assert!(log.is_empty(), "{log}");
    assert_eq!(out, "((3)*(3))");
}
