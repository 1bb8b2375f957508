//! Language rules of OpenCL C section 6: each test compiles a small program and checks the
//! types sema gave, the conversions it made explicit, or the overload it chose.

use ferrocl_clc::sema::tree::{Callee, CastKind, Expr, ExprKind, Init, Stmt, StmtKind};
use ferrocl_clc::sema::types::AddrSpace;
use ferrocl_clc::{compile, parse_build_options, ArgAccess, ArgAddress, CheckedProgram, Target};

fn build_for(src: &str, opts: &str, target: &Target) -> ferrocl_clc::Compilation {
    compile(
        src,
        &parse_build_options(opts).expect("options"),
        target,
        &[],
    )
}

fn ok_with(src: &str, opts: &str) -> CheckedProgram {
    let c = build_for(src, opts, &Target::full_profile_cpu());
    c.program
        .unwrap_or_else(|| panic!("expected success:\n{}", c.log))
}

fn ok(src: &str) -> CheckedProgram {
    ok_with(src, "")
}

fn errors_with(src: &str, opts: &str, target: &Target) -> String {
    let c = build_for(src, opts, target);
    assert!(c.program.is_none(), "expected an error:\n{src}");
    c.log
}

fn err(src: &str) -> String {
    errors_with(src, "", &Target::full_profile_cpu())
}

fn body(p: &CheckedProgram, func: &str) -> Vec<Stmt> {
    let f = p.function(func).expect("function");
    let mut out = Vec::new();
    fn walk(s: &Stmt, out: &mut Vec<Stmt>) {
        out.push(s.clone());
        match &s.kind {
            StmtKind::Block(v) => v.iter().for_each(|x| walk(x, out)),
            StmtKind::If(_, a, b) => {
                walk(a, out);
                if let Some(b) = b {
                    walk(b, out);
                }
            }
            StmtKind::While(_, b, _) | StmtKind::DoWhile(b, _, _) | StmtKind::Switch(_, b) => {
                walk(b, out)
            }
            StmtKind::For(i, _, _, b, _) => {
                if let Some(i) = i {
                    walk(i, out);
                }
                walk(b, out);
            }
            StmtKind::Case(_, b) | StmtKind::Default(b) | StmtKind::Label(_, b) => walk(b, out),
            _ => {}
        }
    }
    if let Some(b) = &f.body {
        walk(b, &mut out);
    }
    out
}

/// The initializer expression of local variable `name` in function `func`.
fn init_of(p: &CheckedProgram, func: &str, name: &str) -> Expr {
    for s in body(p, func) {
        if let StmtKind::Decl(v, Some(Init::Expr(e))) = &s.kind {
            if p.vars[v.0 as usize].name == name {
                return e.clone();
            }
        }
    }
    panic!("no initialized variable {name}");
}

fn ty(p: &CheckedProgram, e: &Expr) -> String {
    p.types.name(e.ty)
}

/// Type of `expr` evaluated in a kernel after the given declarations: the probe is an
/// expression statement `(void)(expr);`, whose operand is the checked expression.
fn type_of(decls: &str, expr: &str) -> String {
    let p = ok(&format!("__kernel void k() {{ {decls} (void)({expr}); }}"));
    for s in body(&p, "k") {
        if let StmtKind::Expr(Expr {
            kind: ExprKind::Cast(CastKind::ToVoid, inner),
            ..
        }) = &s.kind
        {
            return ty(&p, inner);
        }
    }
    panic!("probe not found");
}

#[test]
fn usual_arithmetic_conversions_for_scalars() {
    // 6.4.6 / C99 6.3.1.8
    let d = "char c = 1; short s = 2; uint u = 3; int i = 4; long l = 5; ulong ul = 6; float f = 1; double x = 2;";
    assert_eq!(type_of(d, "c + s"), "int");
    assert_eq!(type_of(d, "u + i"), "uint");
    assert_eq!(type_of(d, "l + u"), "long");
    assert_eq!(type_of(d, "ul + l"), "ulong");
    assert_eq!(type_of(d, "f + i"), "float");
    assert_eq!(type_of(d, "f * x"), "double");
    assert_eq!(type_of(d, "c << l"), "int");
    assert_eq!(type_of(d, "-c"), "int");
    assert_eq!(type_of(d, "i < f"), "int");
}

#[test]
fn vector_scalar_operations_widen_the_scalar() {
    let p = ok("__kernel void k() { float4 v = 0; float4 r = v * 2; }");
    let e = init_of(&p, "k", "r");
    let ExprKind::Binary(_, _, rhs) = &e.kind else {
        panic!("binary")
    };
    // The int literal becomes float, then a float4.
    let ExprKind::Cast(CastKind::Splat, inner) = &rhs.kind else {
        panic!("splat: {:?}", rhs.kind)
    };
    assert!(matches!(
        inner.kind,
        ExprKind::Cast(CastKind::IntToFloat, _)
    ));
    assert_eq!(ty(&p, &e), "float4");
    // 6.4.6: an error if the scalar has greater rank than the element type.
    let log = err("__kernel void k() { int4 v = 0; int4 r = v + 1.0f; }");
    assert!(
        log.contains("cannot convert between scalar type 'float' and vector type 'int4'"),
        "{log}"
    );
    let log = err("__kernel void k() { char4 v = 0; char4 r = v + 1; }");
    assert!(
        log.contains("as implicit conversion would cause truncation"),
        "{log}"
    );
}

#[test]
fn vector_vector_operations_need_identical_types() {
    let log = err("__kernel void k() { float4 a = 0; float2 b = 0; a = a + b; }");
    assert!(
        log.contains(
            "cannot convert between vector values of different size ('float4' and 'float2')"
        ),
        "{log}"
    );
    let log = err("__kernel void k() { float4 a = 0; int4 b = 0; a = a + b; }");
    assert!(
        log.contains("invalid operands to binary expression ('float4' and 'int4')"),
        "{log}"
    );
    // 6.4.1 / 6.4.2: no implicit or explicit conversions between vector types.
    let log = err("__kernel void k() { float4 a = 0; int4 b = a; }");
    assert!(
        log.contains("initializing 'int4' with an expression of incompatible type 'float4'"),
        "{log}"
    );
    let log = err("__kernel void k() { float4 a = 0; int4 b = (int4)a; }");
    assert!(
        log.contains("invalid conversion between vector type 'float4' and 'int4'"),
        "{log}"
    );
}

#[test]
fn comparisons_yield_signed_integer_vectors_of_the_element_size() {
    assert_eq!(type_of("float4 f = 0;", "f < f"), "int4");
    assert_eq!(type_of("double2 d = 0;", "d == d"), "long2");
    assert_eq!(type_of("uchar16 c = 0;", "c != c"), "char16");
    assert_eq!(type_of("float4 f = 0;", "!f"), "int4");
    assert_eq!(type_of("float4 f = 0;", "f && f"), "int4");
}

#[test]
fn swizzles() {
    let d = "float8 v = 0; float4 w = 0; float3 t = 0;";
    assert_eq!(type_of(d, "v.s0123"), "float4");
    assert_eq!(type_of(d, "v.S7"), "float");
    assert_eq!(type_of(d, "v.lo"), "float4");
    assert_eq!(type_of(d, "v.hi.odd"), "float2");
    assert_eq!(type_of(d, "w.xyzw.wzyx.x"), "float");
    assert_eq!(type_of(d, "t.hi"), "float2");
    assert_eq!(type_of(d, "w.xxyy"), "float4");
    ok("__kernel void k(__global float4 *o) { float4 v = 0; v.xy = v.zw; v.s3 = 1.0f; v.lo.y = 2; o[0] = v; }");
    let log = err("__kernel void k() { float4 v = 0; v.xx = v.zw; }");
    assert!(
        log.contains("vector is not assignable (contains duplicate components)"),
        "{log}"
    );
    let log = err("__kernel void k() { float2 v = 0; float a = v.z; }");
    assert!(
        log.contains("vector component access exceeds type 'float2'"),
        "{log}"
    );
    let log = err("__kernel void k() { float4 v = 0; float a = v.xg; }");
    assert!(log.contains("mixing 'xyzw' and 'rgba'"), "{log}");
    // .rgba is OpenCL C 3.0.
    let log = err("__kernel void k() { float4 v = 0; float a = v.r; }");
    assert!(
        log.contains("vector component name 'r' is a feature from OpenCL version 3.0 onwards"),
        "{log}"
    );
    ok_with(
        "__kernel void k() { float4 v = 0; float2 a = v.ra; }",
        "-cl-std=CL3.0",
    );
}

#[test]
fn vector_literals() {
    let p = ok("__kernel void k() { float2 h = 0; float4 v = (float4)(1.0f, h, 4); float4 s = (float4)(2.0f); }");
    let v = init_of(&p, "k", "v");
    let ExprKind::VecLit(parts) = &v.kind else {
        panic!("vector literal")
    };
    assert_eq!(
        parts.iter().map(|x| ty(&p, x)).collect::<Vec<_>>(),
        ["float", "float2", "float"]
    );
    assert!(matches!(
        init_of(&p, "k", "s").kind,
        ExprKind::Cast(CastKind::Splat, _)
    ));
    let log = err("__kernel void k() { float4 v = (float4)(1.0f, 2.0f, 3.0f); }");
    assert!(
        log.contains("too few elements in vector initialization (expected 4 elements, have 3)"),
        "{log}"
    );
    let log = err("__kernel void k() { int2 i = 0; float4 v = (float4)(i, i); }");
    assert!(
        log.contains("invalid operand of type 'int2' in vector literal of type 'float4'"),
        "{log}"
    );
}

#[test]
fn literal_types() {
    // C99 6.4.4.1 with 64-bit long.
    assert_eq!(type_of("", "2147483647"), "int");
    assert_eq!(type_of("", "2147483648"), "long");
    assert_eq!(type_of("", "0x80000000"), "uint");
    assert_eq!(type_of("", "1u"), "uint");
    assert_eq!(type_of("", "1ul"), "ulong");
    assert_eq!(type_of("", "'a'"), "int");
    assert_eq!(type_of("", "1.5f"), "float");
    assert_eq!(type_of("", "0x1.8p1f"), "float");
    assert_eq!(type_of("", "1.5"), "double");
    // Without fp64, and with -cl-single-precision-constant, unsuffixed constants are float.
    let p = ok_with(
        "__kernel void k() { float f = 1.5 + 1.0f; }",
        "-cl-single-precision-constant",
    );
    assert_eq!(ty(&p, &init_of(&p, "k", "f")), "float");
    let mut t = Target::full_profile_cpu();
    t.fp64 = false;
    let c = build_for("__kernel void k() { float f = 1.5 * 2.0f; }", "", &t);
    let p = c.program.expect("compiles");
    let e = init_of(&p, "k", "f");
    assert!(
        matches!(e.kind, ExprKind::Binary(..)),
        "no conversion needed: {:?}",
        e.kind
    );
}

#[test]
fn sizeof_vec_step_and_layout() {
    let p = ok("typedef struct { char c; float4 v; int i; } S; __kernel void k() { \
                ulong a = sizeof(float3); int b = vec_step(float3); int c = vec_step(double16); ulong d = sizeof(S); }");
    let val_of = |p: &CheckedProgram, n: &str| match init_of(p, "k", n).kind {
        ExprKind::IntConst(v) => v,
        ExprKind::Cast(_, e) => match e.kind {
            ExprKind::IntConst(v) => v,
            ref k => panic!("{k:?}"),
        },
        k => panic!("{k:?}"),
    };
    let val = |n: &str| val_of(&p, n);
    assert_eq!(val("a"), 16, "6.3.5: 3-component vectors are sized as 4");
    assert_eq!(val("b"), 4);
    assert_eq!(val("c"), 16);
    assert_eq!(val("d"), 48);
    // 6.5.11: sizeof of the opaque types is implementation-defined: a value, the size they
    // are held in.
    let p = ok("__kernel void k(read_only image2d_t i) { ulong s = sizeof(i);                 ulong e = sizeof(event_t); ulong r = sizeof(reserve_id_t); }");
    assert_eq!(val_of(&p, "s"), 8);
    assert_eq!(val_of(&p, "e"), 8);
    assert_eq!(val_of(&p, "r"), 8);
}

fn calls(p: &CheckedProgram, func: &str) -> Vec<(String, Vec<String>, String)> {
    let mut out = Vec::new();
    fn visit(p: &CheckedProgram, e: &Expr, out: &mut Vec<(String, Vec<String>, String)>) {
        if let ExprKind::Call(c, args) = &e.kind {
            let (name, params) = match c.as_ref() {
                Callee::Builtin { builtin, params } => (
                    builtin.to_string(),
                    params.iter().map(|t| p.types.name(*t)).collect(),
                ),
                Callee::User(f) => (p.functions[f.0 as usize].name.clone(), vec![]),
                Callee::Block(_) => ("<block>".to_string(), vec![]),
            };
            out.push((name, params, p.types.name(e.ty)));
            args.iter().for_each(|a| visit(p, a, out));
        }
        match &e.kind {
            ExprKind::Load(x)
            | ExprKind::Cast(_, x)
            | ExprKind::Unary(_, x)
            | ExprKind::Deref(x)
            | ExprKind::AddrOf(x)
            | ExprKind::Member(x, _)
            | ExprKind::Swizzle(x, _) => visit(p, x, out),
            ExprKind::Binary(_, a, b)
            | ExprKind::PtrAdd(a, b)
            | ExprKind::Assign(a, b)
            | ExprKind::Comma(a, b)
            | ExprKind::VecElem(a, b) => {
                visit(p, a, out);
                visit(p, b, out);
            }
            ExprKind::VecLit(xs) => xs.iter().for_each(|x| visit(p, x, out)),
            ExprKind::CompoundAssign { lhs, rhs, .. } => {
                visit(p, lhs, out);
                visit(p, rhs, out);
            }
            _ => {}
        }
    }
    for s in body(p, func) {
        match &s.kind {
            StmtKind::Expr(e) => visit(p, e, &mut out),
            StmtKind::Decl(_, Some(Init::Expr(e))) => visit(p, e, &mut out),
            _ => {}
        }
    }
    out
}

#[test]
fn builtin_overload_resolution() {
    let p = ok("__kernel void k(__global float4 *o, __global int *ip) { \
                float a = sin(1.0f); float4 b = sin(o[0]); float4 c = fmax(o[0], 2.0f); \
                float4 d = fract(o[0], o); int e = clamp(ip[0], 0, 10); uint f = abs(-3); \
                size_t g = get_global_id(0); int4 h = convert_int4_sat_rte(o[0]); uint u = as_uint(1.0f); \
                double x = sqrt(2.0); float4 l = vload4(0, (__global float *)o); }");
    let c = calls(&p, "k");
    let find = |n: &str| {
        c.iter()
            .find(|x| x.0 == n)
            .unwrap_or_else(|| panic!("{n} in {c:?}"))
            .clone()
    };
    assert_eq!(
        c.iter()
            .filter(|x| x.0 == "sin")
            .map(|x| x.2.clone())
            .collect::<Vec<_>>(),
        ["float", "float4"]
    );
    assert_eq!(
        find("fmax").1,
        ["float4", "float"],
        "fmax(gentype, float) is a real overload"
    );
    assert_eq!(find("fract").1, ["float4", "__global float4 *"]);
    assert_eq!(find("clamp").1, ["int", "int", "int"]);
    assert_eq!(
        (find("abs").1, find("abs").2),
        (vec!["int".to_string()], "uint".to_string())
    );
    assert_eq!(
        (find("get_global_id").1, find("get_global_id").2),
        (vec!["uint".to_string()], "ulong".to_string())
    );
    assert_eq!(find("convert_int4_sat_rte").2, "int4");
    assert_eq!(find("as_uint").1, ["float"]);
    assert_eq!(find("sqrt").2, "double");
    assert_eq!(find("vload4").1, ["ulong", "const __global float *"]);
}

#[test]
fn ambiguous_and_unmatched_builtin_calls() {
    // An int argument converts equally well to float and double.
    let log = err("__kernel void k() { float r = sqrt(2); }");
    assert!(
        log.contains("call to 'sqrt' is ambiguous with arguments (int)"),
        "{log}"
    );
    // Without fp64 only the float overload exists.
    let mut t = Target::full_profile_cpu();
    t.fp64 = false;
    assert!(
        build_for("__kernel void k() { float r = sqrt(2); }", "", &t)
            .program
            .is_some()
    );
    let log = err("__kernel void k() { float2 a = 0; float b = dot(a); }");
    assert!(
        log.contains("no matching function for call to 'dot' with arguments (float2)"),
        "{log}"
    );
    let log = err("__kernel void k() { int x = not_a_builtin(1); }");
    assert!(log.contains("<source>:1:29: error: implicit declaration of function 'not_a_builtin' is invalid in OpenCL"), "{log}");
}

#[test]
fn feature_dependent_builtins_and_types() {
    let mut t = Target::full_profile_cpu();
    t.fp64 = false;
    let log = errors_with("__kernel void k() { double d = 1; }", "", &t);
    assert!(
        log.contains("use of type 'double' requires cl_khr_fp64 support"),
        "{log}"
    );
    let log = errors_with("__kernel void k() { double d = 1; }", "-cl-std=CL3.0", &t);
    assert!(
        log.contains("use of type 'double' requires cl_khr_fp64 and __opencl_c_fp64 support"),
        "{log}"
    );
    // half: storage only without cl_khr_fp16 (6.11.n), but vload_half works.
    let log = err("__kernel void k() { half h; }");
    assert!(
        log.contains("declaring variable of type 'half' is not allowed"),
        "{log}"
    );
    ok("__kernel void k(__global half *p, __global float *o) { o[0] = vload_half(0, p); vstore_half(o[0], 1, p); }");
    let log = err("__kernel void k(__global half *p, __global float *o) { o[0] = *p; }");
    assert!(
        log.contains("loading directly from pointer to type 'half' requires cl_khr_fp16"),
        "{log}"
    );
    // 2.0 builtins need 2.0.
    let log = err("__kernel void k(__global int *o) { o[0] = ctz(o[1]); }");
    assert!(
        log.contains("implicit declaration of function 'ctz'"),
        "{log}"
    );
    ok_with(
        "__kernel void k(__global int *o) { o[0] = ctz(o[1]); }",
        "-cl-std=CL2.0",
    );
    // Work-group functions need the 3.0 feature.
    let mut t = Target::full_profile_cpu();
    t.features
        .retain(|f| f != "__opencl_c_work_group_collective_functions");
    let src = "__kernel void k(__global int *o) { o[0] = work_group_reduce_add(o[1]); }";
    assert!(build_for(src, "-cl-std=CL3.0", &t).program.is_none());
    assert!(build_for(src, "-cl-std=CL3.0", &Target::full_profile_cpu())
        .program
        .is_some());
}

#[test]
fn images_and_samplers() {
    let src = "__constant sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_FILTER_NEAREST; \
               __kernel void k(read_only image2d_t in, write_only image2d_t out) { \
               float4 v = read_imagef(in, s, (int2)(0)); write_imagef(out, (int2)(0), v); int w = get_image_width(in); }";
    let p = ok(src);
    let c = calls(&p, "k");
    assert_eq!(c[0].1, ["__read_only image2d_t", "sampler_t", "int2"]);
    let log = err(
        "__kernel void k(read_only image2d_t in) { write_imagef(in, (int2)(0), (float4)(0)); }",
    );
    assert!(
        log.contains("no matching function for call to 'write_imagef'"),
        "{log}"
    );
    let mut t = Target::full_profile_cpu();
    t.image_support = false;
    let log = errors_with(src, "", &t);
    assert!(log.contains("requires image support"), "{log}");
    let log = err("__kernel void k(read_only image2d_t in) { image2d_t j = in; }");
    assert!(
        log.contains("can only be used as a function parameter in OpenCL"),
        "{log}"
    );
}

#[test]
fn address_spaces_and_generic_pointers() {
    // 1.2: unqualified pointers point to private memory; no implicit conversion from global.
    let log = err("void f(int *p) {} __kernel void k(__global int *g) { f(g); }");
    assert!(
        log.contains("passing '__global int *' to 'int *' changes address space of pointer"),
        "{log}"
    );
    // 2.0: they point to the generic space, and named spaces convert to it.
    let p = ok_with(
        "void f(int *p) { *p = 1; } __kernel void k(__global int *g) { f(g); }",
        "-cl-std=CL2.0",
    );
    let f = p.function("f").expect("f");
    let pt = p.vars[f.params[0].0 as usize].ty.ty;
    assert_eq!(
        p.types.pointee(pt).map(|q| q.space),
        Some(AddrSpace::Generic)
    );
    let mut found = false;
    for s in body(&p, "k") {
        if let StmtKind::Expr(Expr {
            kind: ExprKind::Call(_, args),
            ..
        }) = &s.kind
        {
            found = matches!(args[0].kind, ExprKind::Cast(CastKind::ToGeneric, _));
        }
    }
    assert!(found, "the conversion to generic is explicit in the tree");
    // 6.11.a: a __constant pointer can only be assigned to a __constant pointer.
    let log = err("__kernel void k(__constant int *c, __global int *g) { g = c; }");
    assert!(
        log.contains(
            "assigning to '__constant int *' to '__global int *' changes address space of pointer"
        ),
        "{log}"
    );
    ok_with(
        "__kernel void k(__global int *g) { int *p = g; __global int *q = to_global(p); }",
        "-cl-std=CL2.0",
    );
    // 6.7.2: __local variables at kernel scope only.
    let log = err("void f() { __local int x; } __kernel void k() {}");
    assert!(
        log.contains("non-kernel function variable cannot be declared in local address space"),
        "{log}"
    );
    let log = err("__kernel void k() { if (1) { __local int x; } }");
    assert!(log.contains("variables in the local address space can only be declared in the outermost scope of a kernel function"), "{log}");
}

#[test]
fn program_scope_variables() {
    // 6.11.w / 6.7.1: __constant always; __global and unqualified (global) from 2.0.
    ok("__constant int t[2] = {1, 2}; __kernel void k(__global int *o) { o[0] = t[1]; }");
    let log = err("int g = 1; __kernel void k() {}");
    assert!(
        log.contains(
            "<source>:1:5: error: program scope variable must reside in constant address space"
        ),
        "{log}"
    );
    let p = ok_with(
        "int g = 1; __global float h[4]; __kernel void k(__global int *o) { o[0] = g; }",
        "-cl-std=CL2.0",
    );
    let g = p.vars.iter().find(|v| v.name == "g").expect("g");
    assert_eq!(g.ty.space, AddrSpace::Global);
    let log = err("__constant int c; __kernel void k() {}");
    assert!(
        log.contains("variable in constant address space must be initialized"),
        "{log}"
    );
}

#[test]
fn kernel_metadata() {
    let src = "typedef float4 real4; \
               __kernel __attribute__((reqd_work_group_size(8, 4, 1))) __attribute__((vec_type_hint(float4))) \
               void k(__global const float *restrict a, __local volatile int *l, __constant real4 *c, \
                      read_only image2d_t img, write_only image3d_t img3, sampler_t s, uint n, unsigned char m, real4 v) {} \
               kernel __attribute__((work_group_size_hint(64, 1, 1))) void other() {}";
    let p = ok(src);
    let k = p.kernel("k").expect("kernel k");
    assert_eq!(p.kernels().len(), 2);
    let names: Vec<_> = k
        .args
        .iter()
        .map(|a| (a.name.as_str(), a.type_name.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("a", "float*"),
            ("l", "int*"),
            ("c", "real4*"),
            ("img", "image2d_t"),
            ("img3", "image3d_t"),
            ("s", "sampler_t"),
            ("n", "uint"),
            ("m", "uchar"),
            ("v", "real4")
        ]
    );
    let addr: Vec<_> = k.args.iter().map(|a| a.address).collect();
    assert_eq!(
        addr[..4],
        [
            ArgAddress::Global,
            ArgAddress::Local,
            ArgAddress::Constant,
            ArgAddress::Global
        ]
    );
    assert_eq!(k.args[6].address, ArgAddress::Private);
    assert_eq!(k.args[3].access, ArgAccess::ReadOnly);
    assert_eq!(k.args[4].access, ArgAccess::WriteOnly);
    assert_eq!(k.args[0].access, ArgAccess::None);
    assert!(k.args[0].is_const && k.args[0].is_restrict && !k.args[0].is_volatile);
    assert!(k.args[1].is_volatile && !k.args[1].is_const);
    assert!(
        k.args[2].is_const,
        "__constant arguments report CL_KERNEL_ARG_TYPE_CONST"
    );
    assert_eq!((k.args[6].size, k.args[7].size, k.args[8].size), (4, 1, 16));
    assert_eq!(k.reqd_work_group_size, Some([8, 4, 1]));
    assert_eq!(k.vec_type_hint.as_deref(), Some("float4"));
    assert_eq!(
        k.attributes,
        "reqd_work_group_size(8,4,1) vec_type_hint(float4)"
    );
    assert_eq!(
        p.kernel("other").and_then(|o| o.work_group_size_hint),
        Some([64, 1, 1])
    );
    let log = err("__kernel __attribute__((reqd_work_group_size(0, 1, 1))) void k() {}");
    assert!(
        log.contains("'reqd_work_group_size' attribute must be greater than 0"),
        "{log}"
    );
}

/// The restrictions of 6.11, each with its exact diagnostic.
#[test]
fn restrictions_of_6_11() {
    let cases = [
        ("__kernel void k(__global int **p) {}", "1:32: error: kernel parameter cannot be declared as a pointer to a pointer"),
        ("__kernel void k(int *p) {}", "1:22: error: pointer arguments to kernel functions must reside in '__global', '__constant' or '__local' address space"),
        ("int f(int (*g)(int)) { return 0; } __kernel void k() {}", "1:13: error: pointers to functions are not allowed"),
        ("struct S { int a : 3; }; __kernel void k() {}", "1:20: error: bit-fields are not supported in OpenCL"),
        ("__kernel void k(int n) { int a[n]; }", "1:32: error: variable length arrays are not supported in OpenCL"),
        ("void f(int a, ...) {} __kernel void k() {}", "1:7: error: invalid prototype, variadic arguments are not allowed in OpenCL"),
        ("__kernel void k() { auto int a = 1; }", "1:21: error: OpenCL C version 1.2 does not support the 'auto' storage class specifier"),
        ("__kernel void k() { register int a = 1; }", "1:21: error: OpenCL C version 1.2 does not support the 'register' storage class specifier"),
        ("int f(int n) { return n ? f(n - 1) : 0; } __kernel void k() {}", "1:27: error: recursive call to 'f' is not allowed in OpenCL C"),
        ("__kernel int k() { return 0; }", "1:1: error: kernel must have void return type"),
        ("__kernel void k(bool b) {}", "1:22: error: 'bool' cannot be used as the type of a kernel parameter"),
        ("__kernel void k(size_t n) {}", "1:24: error: 'size_t' cannot be used as the type of a kernel parameter"),
        ("__kernel void k(event_t e) {}", "1:25: error: 'event_t' cannot be used as the type of a kernel parameter"),
        ("void main() {} __kernel void k() {}", "1:6: error: function cannot be called 'main'"),
        ("__kernel void k() { int x = g(); }", "1:29: error: implicit declaration of function 'g' is invalid in OpenCL"),
        ("struct S { image2d_t i; }; __kernel void k() {}", "1:22: error: the 'image2d_t' type cannot be used to declare a structure or union field"),
        ("__kernel void k() { restrict int x = 0; }", "1:34: error: restrict requires a pointer or reference ('int' is invalid)"),
        ("struct S { int n; int a[]; }; __kernel void k() {}", "1:23: error: flexible array members are not supported in OpenCL"),
        ("__kernel void k() { event_t e; __local event_t f; }", "1:48: error: the event_t type cannot be used with the __local, __constant and __global address space qualifiers"),
    ];
    for (src, want) in cases {
        let log = err(src);
        assert!(log.contains(&format!("<source>:{want}")), "{src}\n{log}");
    }
}

#[test]
fn statements_and_control_flow_rules() {
    ok("__kernel void k(__global int *o) { int s = 0; for (int i = 0; i < 4; i++) { if (i == 2) continue; s += i; } \
        do { s--; } while (s > 10); switch (s) { case 1: s = 2; break; case 2: default: s = 3; } \
        goto end; end: o[0] = s; }");
    let log = err("__kernel void k() { break; }");
    assert!(
        log.contains("<source>:1:21: error: 'break' statement not in loop or switch statement"),
        "{log}"
    );
    let log = err("__kernel void k(int x) { switch (x) { case 1: case 1: break; } }");
    assert!(log.contains("duplicate case value '1'"), "{log}");
    let log = err("int f() { return; } __kernel void k() {}");
    assert!(
        log.contains("non-void function 'f' should return a value"),
        "{log}"
    );
    let log = err("__kernel void k() { float4 v = 0; if (v) {} }");
    assert!(
        log.contains("statement requires expression of scalar type ('float4' invalid)"),
        "{log}"
    );
}

#[test]
fn loop_unroll_hints_are_kept() {
    let p = ok("__kernel void k(__global int *o) { \n#pragma unroll 4\n for (int i = 0; i < 8; i++) o[i] = i; \
                __attribute__((opencl_unroll_hint(2))) for (int j = 0; j < 8; j++) o[j] += j; \
                __attribute__((opencl_unroll_hint)) while (o[0]) o[0]--; }");
    let hints: Vec<Option<u32>> = body(&p, "k")
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::For(_, _, _, _, h) | StmtKind::While(_, _, h) => Some(h.unroll),
            _ => None,
        })
        .collect();
    assert_eq!(hints, [Some(4), Some(2), Some(0)]);
}

#[test]
fn assignments_convert_and_check_lvalues() {
    let p = ok("__kernel void k(__global float *o) { int i = 3; float f = i; o[0] = f; }");
    assert!(matches!(
        init_of(&p, "k", "f").kind,
        ExprKind::Cast(CastKind::IntToFloat, _)
    ));
    let log = err("__kernel void k() { const int c = 1; c = 2; }");
    assert!(
        log.contains("cannot assign to variable 'c' with const-qualified type 'const int'"),
        "{log}"
    );
    let log = err("__kernel void k(__constant int *c) { c[0] = 1; }");
    assert!(
        log.contains("read-only variable is not assignable"),
        "{log}"
    );
    let log = err("__kernel void k() { int a = 1; 1 = a; }");
    assert!(log.contains("expression is not assignable"), "{log}");
}

#[test]
fn structs_unions_enums_and_initializers() {
    let p = ok("typedef struct { int a; float b[2]; } S; union U { int i; float f; }; enum E { A, B = 5, C }; \
                __kernel void k(__global int *o) { S s = { 1, { 2.0f, 3.0f } }; S t = { .b[1] = 4.0f }; union U u = { .f = 1.0f }; \
                int c = C; int arr[] = { 1, 2, 3 }; o[0] = s.a + (int)t.b[1] + u.i + c + arr[2]; }");
    assert!(matches!(init_of(&p, "k", "c").kind, ExprKind::IntConst(6)));
    let arr = p.vars.iter().find(|v| v.name == "arr").expect("arr");
    assert_eq!(p.types.name(arr.ty.ty), "int[3]");
    let log = err("struct P { int x; }; __kernel void k() { struct P p; p.y = 1; }");
    assert!(log.contains("no member named 'y' in 'struct P'"), "{log}");
    let log = err("__kernel void k() { int a[2] = { 1, 2, 3 }; }");
    assert!(
        log.contains("<source>:1:40: error: excess elements in array initializer"),
        "{log}"
    );
}

#[test]
fn pipes() {
    // 6.15.18: pipe arguments and the pipe functions, generic over the element type.
    let src = "typedef struct { int a; float b; } Pkt; \
               __kernel void w(write_only pipe Pkt out, __global const Pkt *src) { Pkt p = src[0]; \
               int ok = write_pipe(out, &p); reserve_id_t r = reserve_write_pipe(out, 4); \
               if (is_valid_reserve_id(r)) { write_pipe(out, r, 0u, &p); commit_write_pipe(out, r); } } \
               __kernel void r(read_only pipe Pkt in, __global Pkt *dst) { Pkt p; if (read_pipe(in, &p) == 0) dst[0] = p; }";
    let p = ok_with(src, "-cl-std=CL2.0");
    let k = p.kernel("w").expect("kernel w");
    assert!(k.args[0].is_pipe && k.args[0].kind == ferrocl_clc::ArgKind::Pipe);
    assert_eq!(k.args[0].access, ArgAccess::WriteOnly);
    assert_eq!(
        calls(&p, "w")[0].1,
        ["__write_only pipe Pkt", "const __generic Pkt *"]
    );
    let log = errors_with(
        src.replace("write_pipe(out, &p)", "read_pipe(out, &p)")
            .as_str(),
        "-cl-std=CL2.0",
        &Target::full_profile_cpu(),
    );
    assert!(
        log.contains("invalid pipe access modifier (expecting read_only)"),
        "{log}"
    );
    // Before 2.0, `pipe` is an ordinary name; a pipe parameter is an unknown type there, and
    // the log says what the program needs.
    ok("__kernel void k(__global int *o) { int pipe = 1; o[0] = pipe; }");
    let log = err("__kernel void k(read_only pipe int p) {}");
    assert!(
        log.contains("1:27: error: unknown type name 'pipe'")
            && log.contains("note: pipes require OpenCL C 2.0 or newer"),
        "{log}"
    );
}

#[test]
fn generic_space_needs_2_0() {
    let log = err("__kernel void k(__global int *g) { __generic int *p = g; }");
    assert!(
        log.contains("the generic address space requires OpenCL C 2.0"),
        "{log}"
    );
    ok_with(
        "__kernel void k(__global int *g) { __generic int *p = g; }",
        "-cl-std=CL2.0",
    );
}

#[test]
fn compound_assignment_records_the_computation_type() {
    let p = ok("__kernel void k(__global int *o) { int i = 1; i += 1.5f; __global int *q = o; q -= 2; o[0] = i; }");
    let mut seen = Vec::new();
    for s in body(&p, "k") {
        if let StmtKind::Expr(Expr {
            kind: ExprKind::CompoundAssign {
                op, rhs, compute, ..
            },
            ..
        }) = &s.kind
        {
            seen.push((
                *op,
                p.types.name(*compute),
                matches!(rhs.kind, ExprKind::Unary(..)),
            ));
        }
    }
    use ferrocl_clc::parse::ast::BinOp;
    // `i += 1.5f` computes in float; `q -= 2` adds the negated element offset.
    assert_eq!(
        seen,
        [
            (BinOp::Add, "float".to_string(), false),
            (BinOp::Add, "__global int *".to_string(), true)
        ]
    );
}

#[test]
fn hot_tree_nodes_stay_small() {
    use std::mem::size_of;
    assert!(size_of::<ferrocl_clc::lex::Token>() <= 24);
    assert!(
        size_of::<Expr>() <= 64,
        "checked Expr is {} bytes",
        size_of::<Expr>()
    );
    assert!(
        size_of::<ferrocl_clc::parse::ast::Expr>() <= 64,
        "syntax Expr is {} bytes",
        size_of::<ferrocl_clc::parse::ast::Expr>()
    );
}

#[test]
fn a_typical_kernel_compiles_in_every_version() {
    // Common idioms: mixed-signedness comparisons, vector math, legacy atomics, printf,
    // enums in switches, local arrays, conversions, pointer differences.
    for src in [
        include_str!("fixtures/typical.cl"),
        include_str!("fixtures/declarators.cl"),
        include_str!("fixtures/idioms.cl"),
    ] {
        for opts in ["-cl-std=CL1.2", "-cl-std=CL2.0", "-cl-std=CL3.0", ""] {
            let c = build_for(src, opts, &Target::full_profile_cpu());
            assert!(
                c.program.is_some() && c.log.is_empty(),
                "{opts}:\n{}",
                c.log
            );
        }
    }
}

#[test]
fn generic_pointers_meet_named_ones_in_the_generic_space() {
    let p = ok_with(
        "__kernel void k(__global int *g) { int *p = g; long d = p - g; int same = p == g; }",
        "-cl-std=CL2.0",
    );
    let d = init_of(&p, "k", "d");
    assert_eq!(ty(&p, &d), "long", "ptrdiff_t");
    let ExprKind::PtrDiff(_, b) = &d.kind else {
        panic!("{:?}", d.kind)
    };
    assert!(matches!(b.kind, ExprKind::Cast(CastKind::ToGeneric, _)));
}

#[test]
fn blocks_and_device_enqueue() {
    // 6.14 blocks and 6.15.19 enqueue_kernel (OpenCL C 2.0).
    let src = "__kernel void child(__global int *a) { a[0] = 1; }\n\
               __kernel void parent(__global int *a, int n) {\n\
                 int (^twice)(int) = ^(int x) { return 2 * x * n; };\n\
                 a[1] = twice(3);\n\
                 queue_t q = get_default_queue();\n\
                 ndrange_t r = ndrange_1D(64);\n\
                 int e = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, r, ^{ child(a); });\n\
                 e += enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, r, ^(local void *l) { a[2] = n; }, 16u);\n\
                 uint s = get_kernel_work_group_size(^{ a[3] = 0; });\n\
               }";
    let p = ok_with(src, "-cl-std=CL2.0");
    let c = calls(&p, "parent");
    assert!(
        c.iter()
            .any(|x| x.0 == "enqueue_kernel" && x.1.len() == 4 && x.2 == "int"),
        "{c:?}"
    );
    assert!(c.iter().any(|x| x.0 == "enqueue_kernel" && x.1.len() == 5));
    let twice = p.vars.iter().find(|v| v.name == "twice").expect("twice");
    assert_eq!(p.types.name(twice.ty.ty), "int (^)(int)");
    // The literal captures `n` by value.
    let init = init_of(&p, "parent", "twice");
    let ExprKind::Block(b) = &init.kind else {
        panic!("{:?}", init.kind)
    };
    assert_eq!(
        b.captures
            .iter()
            .map(|v| p.vars[v.0 as usize].name.as_str())
            .collect::<Vec<_>>(),
        ["n"]
    );
    let log = errors_with(
        "__kernel void k(int n) { void (^b)(void) = ^{ n = 1; }; }",
        "-cl-std=CL2.0",
        &Target::full_profile_cpu(),
    );
    assert!(
        log.contains("variable is not assignable (missing __block type specifier)"),
        "{log}"
    );
    let log = errors_with(
        "__kernel void k() { enqueue_kernel(get_default_queue(), 0, ndrange_1D(1), ^(local void *p) {}); }",
        "-cl-std=CL2.0",
        &Target::full_profile_cpu(),
    );
    assert!(
        log.contains("mismatch in number of block parameters (1) and local size arguments (0)"),
        "{log}"
    );
    let log = err("__kernel void k() { void (^b)(void) = ^{ }; }");
    assert!(log.contains("blocks require OpenCL C 2.0"), "{log}");
}

#[test]
fn string_literals_and_samplers() {
    // String literals are __constant char arrays; they decay to `__constant char *`.
    ok("constant char * constant msg = \"hi\"; __kernel void k(__global char *o) { constant char *s = \"abc\"; o[0] = s[1] + msg[0]; }");
    let log = err("__kernel void k() { \"abc\"[0] = 'x'; }");
    assert!(
        log.contains("read-only variable is not assignable"),
        "{log}"
    );
    // 6.11.b: samplers are not __local/__global and cannot be modified.
    let log = err("__global sampler_t s = 0; __kernel void k() {}");
    assert!(log.contains("the sampler type cannot be used with the __local and __global address space qualifiers"), "{log}");
    let log = err("__kernel void k(sampler_t s) { s = 0; }");
    assert!(
        log.contains("cannot assign to a variable of type 'sampler_t'"),
        "{log}"
    );
}

#[test]
fn truth_values_are_explicit() {
    // Conditions and scalar logical operators compare with zero through Cast(ToBool).
    let p = ok("__kernel void k(__global float *o) { float f = o[0]; if (f) o[1] = 1; int a = f && o; int b = !f; }");
    let StmtKind::If(c, ..) = &body(&p, "k")
        .into_iter()
        .find(|s| matches!(s.kind, StmtKind::If(..)))
        .expect("if")
        .kind
    else {
        panic!()
    };
    assert!(matches!(c.kind, ExprKind::Cast(CastKind::ToBool, _)));
    assert_eq!(ty(&p, c), "bool");
    let ExprKind::Binary(_, x, y) = &init_of(&p, "k", "a").kind else {
        panic!()
    };
    assert_eq!(
        (ty(&p, x), ty(&p, y)),
        ("bool".to_string(), "bool".to_string())
    );
    let ExprKind::Unary(_, x) = &init_of(&p, "k", "b").kind else {
        panic!()
    };
    assert_eq!(ty(&p, x), "bool");
}

#[test]
fn overloadable_user_functions() {
    // clang's `overloadable` extension: distinct functions chosen by argument types.
    let src = "__attribute__((overloadable)) float twice(float x) { return 2 * x; } \
               __attribute__((overloadable)) int twice(int x) { return 2 * x; } \
               __attribute__((overloadable)) float4 twice(float4 x) { return 2 * x; } \
               __kernel void k(__global float *o, __global int *i) { o[0] = twice(o[1]); i[0] = twice(i[1]); float4 v = twice((float4)(1.0f)); }";
    let p = ok(src);
    let mut called = Vec::new();
    for s in body(&p, "k") {
        let e = match &s.kind {
            StmtKind::Expr(Expr {
                kind: ExprKind::Assign(_, r),
                ..
            }) => r.as_ref().clone(),
            StmtKind::Decl(_, Some(Init::Expr(e))) => e.clone(),
            _ => continue,
        };
        let e = match e.kind {
            ExprKind::Cast(_, inner) => *inner,
            _ => e,
        };
        if let ExprKind::Call(c, _) = &e.kind {
            if let Callee::User(f) = c.as_ref() {
                called.push(p.types.name(p.functions[f.0 as usize].ret));
            }
        }
    }
    assert_eq!(called, ["float", "int", "float4"]);
    let log = err(
        "float twice(float x) { return x; } int twice(int x) { return x; } __kernel void k() {}",
    );
    assert!(log.contains("conflicting types for 'twice'"), "{log}");
}

#[test]
fn record_layout_with_packed_and_aligned() {
    // 6.13.3: packed removes padding; aligned raises a field's or a type's alignment.
    let p = ok("struct __attribute__((packed)) P { char c; int i; }; \
                struct A { char c; int i __attribute__((aligned(16))); }; \
                struct __attribute__((aligned(32))) B { int i; }; \
                __kernel void k() { ulong a = sizeof(struct P); ulong b = sizeof(struct A); ulong c = sizeof(struct B); }");
    let val = |n: &str| match init_of(&p, "k", n).kind {
        ExprKind::IntConst(v) => v,
        k => panic!("{k:?}"),
    };
    assert_eq!((val("a"), val("b"), val("c")), (5, 32, 32));
}

#[test]
fn by_value_arguments_have_no_type_qualifiers() {
    // CL_KERNEL_ARG_TYPE_QUALIFIER: NONE for arguments passed by value; pointee qualifiers only.
    let p = ok("__kernel void k(const int n, volatile float f, __global int *const p, __global const int *q) {}");
    let k = p.kernel("k").expect("k");
    let q: Vec<(bool, bool, bool)> = k
        .args
        .iter()
        .map(|a| (a.is_const, a.is_volatile, a.is_restrict))
        .collect();
    assert_eq!(
        q,
        [
            (false, false, false),
            (false, false, false),
            (false, false, false),
            (true, false, false)
        ]
    );
}

#[test]
fn enums_behave_as_int() {
    let p = ok("enum E { NEG = -1, ZERO }; __kernel void k(__global int *o) { enum E e = NEG; o[0] = e < ZERO; int s = e + 1; }");
    assert_eq!(type_of("enum E2 { A }; enum E2 e = A;", "e + 1"), "int");
    let _ = p;
}

#[test]
fn operator_typing_rules() {
    let d = "int c = 1; float f = 2; int4 v = 0; __global int *p = 0; uchar u = 1;";
    // C99 6.5.17 comma, 6.5.15 conditional, 6.5.7 shifts, 6.5.4 casts.
    assert_eq!(type_of(d, "(c, f)"), "float");
    assert_eq!(type_of(d, "c ? 1 : 2.0f"), "float");
    assert_eq!(type_of(d, "c ? p : 0"), "__global int *");
    assert_eq!(type_of(d, "v << 1"), "int4");
    assert_eq!(type_of(d, "u << 1"), "int");
    assert_eq!(type_of(d, "v >> v"), "int4");
    assert_eq!(type_of(d, "(ulong)p"), "ulong");
    assert_eq!(type_of(d, "(__global float *)p"), "__global float *");
    assert_eq!(type_of(d, "p - p"), "long");
    assert_eq!(type_of(d, "p + 1"), "__global int *");
    assert_eq!(type_of(d, "~u"), "int");
    assert_eq!(type_of(d, "-v"), "int4");
    assert_eq!(type_of(d, "c ? v : 1"), "int4");
    let log = err("__kernel void k() { int4 v = 0; int x = 1 << v; }");
    assert!(log.contains("requested shift is a vector of type 'int4' but the first operand is not a vector ('int')"), "{log}");
    let log = err("__kernel void k() { float4 v = 0; float *q = &v.x; }");
    assert!(log.contains("address of vector element requested"), "{log}");
    let log = err("__kernel void k() { float f = 1; int x = f % 2; }");
    assert!(
        log.contains("invalid operands to binary expression ('float' and 'float')"),
        "{log}"
    );
    let log = err("__kernel void k(__global int *p, __local int *l) { int d = p - l; }");
    assert!(
        log.contains("are not pointers to compatible types"),
        "{log}"
    );
}

#[test]
fn byte_addressable_store_in_opencl_c_1_0() {
    // 6.11.p: only OpenCL C 1.0, and only without cl_khr_byte_addressable_store.
    let src = "__kernel void k(__global char *c, __global int *i) { i[0] = c[0]; c[1] = 2; }";
    let mut t = Target::full_profile_cpu();
    t.extensions
        .retain(|e| e != "cl_khr_byte_addressable_store");
    let log = errors_with(src, "-cl-std=CL1.0", &t);
    assert!(log.contains("<source>:1:72: error: writes to 'char' through a pointer, array or struct field require cl_khr_byte_addressable_store"), "{log}");
    assert!(build_for(src, "-cl-std=CL1.0", &Target::full_profile_cpu())
        .program
        .is_some());
    assert!(build_for(src, "-cl-std=CL1.1", &t).program.is_some());
}

#[test]
fn increment_and_decrement_refuse_float_vectors_only() {
    // 6.5.3 excludes the float types from ++ and --; clang-based compilers refuse float
    // vectors and accept float scalars (C's rule), and so does ferrocl.
    for src in [
        "__kernel void k() { float4 v = 0; v++; }",
        "__kernel void k() { double2 v = 0; --v; }",
    ] {
        let log = err(src);
        assert!(
            log.contains("error: cannot increment value of type"),
            "{log}"
        );
    }
    ok("__kernel void k(__global float *o) { float f = 0; f++; --f; o[0] = f; }");
    ok("__kernel void k(__global int4 *o) { int4 v = 0; v++; --v; o[0] = v; }");
}

#[test]
fn opencl_c_2_0_refuses_blocks_and_pipes_where_the_device_lacks_them() {
    // OpenCL C 2.0 has no feature macros: a device that does not run device-side enqueue or
    // pipes (no __opencl_c_device_enqueue / __opencl_c_pipes in its list) refuses them where
    // they are written, with the caret at the construct.
    let mut t = Target::full_profile_cpu();
    t.features
        .retain(|f| f != "__opencl_c_device_enqueue" && f != "__opencl_c_pipes");
    let block = "kernel void k(global int *a) {\n    void (^b)(void) = ^{ a[0] = 1; };\n}\n";
    let log = errors_with(block, "-cl-std=CL2.0", &t);
    assert!(
        log.contains("2:23: error: blocks and device-side enqueue are not supported"),
        "{log}"
    );
    let pipe = "kernel void k(read_only pipe int p) {}\n";
    let log = errors_with(pipe, "-cl-std=CL2.0", &t);
    assert!(
        log.contains("1:15: error: pipes are not supported by this device"),
        "{log}"
    );
    // The device with both builds them.
    ok_with(block, "-cl-std=CL2.0");
    ok_with(pipe, "-cl-std=CL2.0");
}
