//! Floating-point contraction (OpenCL C 6.15.2.1 `#pragma OPENCL FP_CONTRACT`, C99 6.5p8):
//! which expressions lowering turns into one `fma`, for a device whose fma is fast and for
//! one whose fma is not.

use ferrocl_clc::{compile, lower, parse_build_options, Target};
use ferrocl_ir::{print_module, verify_module, Module, Op, UnaryOp};

fn target(fast_fma: bool) -> Target {
    let mut t = Target::full_profile_cpu();
    t.fast_fma = fast_fma;
    t
}

fn module(src: &str, fast_fma: bool) -> Module {
    module_with(src, fast_fma, "")
}

fn module_with(src: &str, fast_fma: bool, options: &str) -> Module {
    let opts = parse_build_options(options).expect("options");
    let c = compile(src, &opts, &target(fast_fma), &[]);
    let program = c
        .program
        .unwrap_or_else(|| panic!("does not compile:\n{}", c.log));
    let m = lower(&program).expect("lowers");
    verify_module(&m).unwrap_or_else(|e| panic!("{e:?}\n{}", print_module(&m)));
    m
}

/// The number of `fma`, `fmul` and `fneg` instructions in function `name`.
#[derive(Debug, PartialEq, Eq)]
struct Counts {
    fma: usize,
    fmul: usize,
    fneg: usize,
}

fn counts_in(m: &Module, name: &str) -> Counts {
    let f = &m.funcs[m.func_by_name(name).expect("function exists")];
    let mut c = Counts {
        fma: 0,
        fmul: 0,
        fneg: 0,
    };
    for &b in f.layout.blocks() {
        for &i in f.layout.block_insts(b) {
            match f.dfg.insts[i].op {
                Op::Fma => c.fma += 1,
                Op::Binary(ferrocl_ir::BinaryOp::Fmul) => c.fmul += 1,
                Op::Unary(UnaryOp::Fneg) => c.fneg += 1,
                _ => {}
            }
        }
    }
    c
}

fn counts(src: &str, name: &str) -> Counts {
    counts_in(&module(src, true), name)
}

const FUSED: Counts = Counts {
    fma: 1,
    fmul: 0,
    fneg: 0,
};
const FUSED_NEGATED: Counts = Counts {
    fma: 1,
    fmul: 0,
    fneg: 1,
};
const UNFUSED: Counts = Counts {
    fma: 0,
    fmul: 1,
    fneg: 0,
};

#[test]
fn each_form_of_multiply_add_is_one_fma() {
    let src = "float add(float a, float b, float c) { return a * b + c; }\n\
               float add_r(float a, float b, float c) { return c + a * b; }\n\
               float sub(float a, float b, float c) { return a * b - c; }\n\
               float sub_r(float a, float b, float c) { return c - a * b; }\n\
               float inc(float a, float b, float c) { c += a * b; return c; }\n\
               float dec(float a, float b, float c) { c -= a * b; return c; }\n\
               float paren(float a, float b, float c) { return (a * b) + c; }\n\
               double dbl(double a, double b, double c) { return a * b + c; }\n\
               float4 vec(float4 a, float4 b, float4 c) { return a * b + c; }\n\
               double2 dvec(double2 a, double2 b, double2 c) { c -= a * b; return c; }\n\
               float4 splat(float4 a, float b, float4 c) { return a * b + c; }\n";
    let m = module(src, true);
    for name in ["add", "add_r", "inc", "paren", "dbl", "vec", "splat"] {
        assert_eq!(counts_in(&m, name), FUSED, "{name}:\n{}", print_module(&m));
    }
    for name in ["sub", "sub_r", "dec", "dvec"] {
        assert_eq!(
            counts_in(&m, name),
            FUSED_NEGATED,
            "{name}:\n{}",
            print_module(&m)
        );
    }
}

#[test]
fn negation_goes_where_it_belongs() {
    // a * b - c = fma(a, b, -c); c - a * b = fma(-a, b, c).
    let m = module(
        "float sub(float a, float b, float c) { return a * b - c; }\n\
         float sub_r(float a, float b, float c) { return c - a * b; }\n",
        true,
    );
    for (name, negated_arg) in [("sub", 2), ("sub_r", 0)] {
        let f = &m.funcs[m.func_by_name(name).expect("function")];
        let fma = f
            .dfg
            .insts
            .iter()
            .find(|(_, i)| matches!(i.op, Op::Fma))
            .map(|(k, _)| k)
            .expect("an fma");
        let args = &f.dfg.insts[fma].args;
        for (k, &arg) in args.iter().enumerate() {
            let negated = match f.dfg.value_def(arg) {
                ferrocl_ir::ValueDef::Result(i) => {
                    matches!(f.dfg.insts[i].op, Op::Unary(UnaryOp::Fneg))
                }
                _ => false,
            };
            assert_eq!(
                negated,
                k == negated_arg,
                "{name} argument {k}\n{}",
                print_module(&m)
            );
        }
    }
}

#[test]
fn longer_chains_contract_one_product_each() {
    // (a * b + c) + d: one fma, then an add; a * b * c + d: the last product with the add.
    let m = module(
        "float chain(float a, float b, float c, float d) { return a * b + c + d; }\n\
         float two(float a, float b, float c, float d) { return a * b + c * d; }\n\
         float triple(float a, float b, float c, float d) { return a * b * c + d; }\n",
        true,
    );
    assert_eq!(counts_in(&m, "chain"), FUSED);
    assert_eq!(
        counts_in(&m, "two"),
        Counts {
            fma: 1,
            fmul: 1,
            fneg: 0
        }
    );
    assert_eq!(
        counts_in(&m, "triple"),
        Counts {
            fma: 1,
            fmul: 1,
            fneg: 0
        }
    );
}

#[test]
fn products_outside_the_expression_are_not_contracted() {
    let src = "float var(float a, float b, float c) { float p = a * b; return p + c; }\n\
               double cast(float a, float b, double c) { return a * b + c; }\n\
               float explicit_cast(float a, float b, float c) { return (float)(a * b) + c; }\n\
               float comma(float a, float b, float c) { return (c, a * b) + c; }\n\
               float stmt(float a, float b, float c) { c = a * b; c += 1.0f; return c; }\n\
               float4 splat(float a, float b, float4 c) { return a * b + c; }\n";
    let m = module(src, true);
    // A cast, even to the type the product has, is kept as it is written (C99 5.2.4.2.2: casts
    // remove extra range and precision).
    for name in ["var", "cast", "explicit_cast", "comma", "stmt", "splat"] {
        assert_eq!(
            counts_in(&m, name),
            UNFUSED,
            "{name}:\n{}",
            print_module(&m)
        );
    }
    // Integers and divisions are never fused.
    assert_eq!(
        counts("int i(int a, int b, int c) { return a * b + c; }\n", "i").fma,
        0
    );
    assert_eq!(
        counts(
            "float q(float a, float b, float c) { return a / b + c; }\n",
            "q"
        )
        .fma,
        0
    );
}

#[test]
fn loop_carried_accumulations_are_not_contracted() {
    // `acc += x * y` with acc from outside the loop: a chain of adds, kept unfused; the same
    // inside one iteration, or outside loops, is contracted; so is a chain through the
    // product (Horner's rule).
    let src = "float dot(global const float *a, global const float *b, float acc) {\n\
                 for (int i = 0; i < 16; i++)\n\
                   acc += a[i] * b[i];\n\
                 return acc;\n\
               }\n\
               float local_sum(global const float *a, global const float *b, global float *o) {\n\
                 float acc = 0.0f;\n\
                 for (int i = 0; i < 16; i++) { float t = o[i]; t += a[i] * b[i]; o[i] = t; }\n\
                 acc += a[0] * b[0];\n\
                 return acc;\n\
               }\n\
               float horner(float x, float c) {\n\
                 float a = 0.5f;\n\
                 for (int i = 0; i < 16; i++)\n\
                   a = a * x + c;\n\
                 return a;\n\
               }\n";
    let m = module(src, true);
    assert_eq!(counts_in(&m, "dot"), UNFUSED, "{}", print_module(&m));
    assert_eq!(counts_in(&m, "local_sum").fma, 2, "{}", print_module(&m));
    assert_eq!(counts_in(&m, "horner"), FUSED, "{}", print_module(&m));
}

#[test]
fn no_contraction_without_fast_fma() {
    let src = "float add(float a, float b, float c) { c += a * b; return a * b + c; }\n";
    let c = counts_in(&module(src, false), "add");
    assert_eq!((c.fma, c.fmul), (0, 2));
}

#[test]
fn pragma_off_outside_functions_holds_to_the_end() {
    let src = "float on(float a, float b, float c) { return a * b + c; }\n\
               #pragma OPENCL FP_CONTRACT OFF\n\
               float off(float a, float b, float c) { return a * b + c; }\n\
               float off_too(float a, float b, float c) { c += a * b; return c; }\n\
               #pragma OPENCL FP_CONTRACT DEFAULT\n\
               float default_on(float a, float b, float c) { return a * b + c; }\n";
    let m = module(src, true);
    assert_eq!(counts_in(&m, "on"), FUSED);
    assert_eq!(counts_in(&m, "off"), UNFUSED);
    assert_eq!(counts_in(&m, "off_too"), UNFUSED);
    assert_eq!(counts_in(&m, "default_on"), FUSED);
}

#[test]
fn pragma_in_a_block_holds_to_the_end_of_the_block() {
    // C99 7.12.2: "at the end of a compound statement the state for the pragma is restored to
    // its condition just before the compound statement".
    let src = "float f(float a, float b, float c, global float *o) {\n\
                 o[0] = a * b + c;\n\
                 {\n\
               #pragma OPENCL FP_CONTRACT OFF\n\
                   o[1] = a * b + c;\n\
                   {\n\
               #pragma OPENCL FP_CONTRACT ON\n\
                     o[2] = a * b + c;\n\
                   }\n\
                   o[3] = a * b + c;\n\
                 }\n\
                 return a * b + c;\n\
               }\n";
    // o[0], o[2] and the return are fused; o[1] and o[3] are not.
    let c = counts(src, "f");
    assert_eq!((c.fma, c.fmul), (3, 2));
    // The same with OFF outside functions: the body starts off, the inner ON holds in its
    // block only.
    let off = format!("#pragma OPENCL FP_CONTRACT OFF\n{src}");
    let c = counts(&off, "f");
    assert_eq!((c.fma, c.fmul), (1, 4));
}

#[test]
fn pragma_between_statements_holds_from_there() {
    let src = "float f(float a, float b, float c, global float *o) {\n\
                 o[0] = a * b + c;\n\
               #pragma OPENCL FP_CONTRACT OFF\n\
                 o[1] = a * b + c;\n\
                 return a * b + c;\n\
               }\n\
               float g(float a, float b, float c) { return a * b + c; }\n";
    let m = module(src, true);
    let c = counts_in(&m, "f");
    assert_eq!((c.fma, c.fmul), (1, 2));
    // The pragma ended with f's body.
    assert_eq!(counts_in(&m, "g"), FUSED);
}

#[test]
fn fast_math_options_keep_contraction_on() {
    let src = "float add(float a, float b, float c) { return a * b + c; }\n";
    for options in [
        "-cl-mad-enable",
        "-cl-unsafe-math-optimizations",
        "-cl-fast-relaxed-math",
    ] {
        let m = module_with(src, true, options);
        assert_eq!(counts_in(&m, "add"), FUSED, "{options}");
    }
}

#[test]
fn mad_enable_contracts_where_the_pragma_turned_contraction_off() {
    // API 5.8.6.3: -cl-mad-enable "Allow a * b + c to be replaced by a mad instruction",
    // whatever the pragma says; only where the device's fma is fast (contraction is never required).
    let src = "#pragma OPENCL FP_CONTRACT OFF\n\
               float add(float a, float b, float c) { return a * b + c; }\n";
    assert_eq!(counts_in(&module(src, true), "add"), UNFUSED);
    for options in [
        "-cl-mad-enable",
        "-cl-unsafe-math-optimizations",
        "-cl-fast-relaxed-math",
    ] {
        let m = module_with(src, true, options);
        assert_eq!(counts_in(&m, "add"), FUSED, "{options}");
        let m = module_with(src, false, options);
        assert_eq!(counts_in(&m, "add"), UNFUSED, "{options}");
    }
}

#[test]
fn mad_is_fma_only_where_fma_is_fast() {
    let src = "float m(float a, float b, float c) { return mad(a, b, c); }\n";
    assert_eq!(counts(src, "m"), FUSED);
    let slow = counts_in(&module(src, false), "m");
    assert_eq!((slow.fma, slow.fmul), (0, 1));
}

#[test]
fn fast_fma_macros_follow_the_device() {
    let src = "#ifndef FP_FAST_FMAF\n#error no FP_FAST_FMAF\n#endif\n\
               #ifndef FP_FAST_FMA\n#error no FP_FAST_FMA\n#endif\n\
               kernel void k(void) {}\n";
    module(src, true);
    let src = "#if defined(FP_FAST_FMAF) || defined(FP_FAST_FMA)\n#error defined\n#endif\n\
               kernel void k(void) {}\n";
    module(src, false);
    // FP_FAST_FMA describes double operands: only where the device has doubles.
    let mut t = target(true);
    t.fp64 = false;
    t.extensions.retain(|e| e != "cl_khr_fp64");
    t.features.retain(|f| f != "__opencl_c_fp64");
    let src = "#ifndef FP_FAST_FMAF\n#error no FP_FAST_FMAF\n#endif\n\
               #ifdef FP_FAST_FMA\n#error FP_FAST_FMA\n#endif\n\
               kernel void k(void) {}\n";
    let opts = parse_build_options("").expect("options");
    let c = compile(src, &opts, &t, &[]);
    assert!(c.program.is_some(), "{}", c.log);
}
