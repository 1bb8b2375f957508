//! The signs of zero results that C99 Annex F (F.9) and OpenCL C 7.5.1 prescribe, for `float`
//! and `double`, on the CPU device: every rule of those texts whose result is a zero (or whose
//! argument is a zero kept by the function), checked bit for bit. 7.5.1: "Those values shall
//! produce exactly the prescribed answers, and no other. Where the ± symbol is used, the sign
//! shall be preserved", and `half_` functions "must conform to the same edge case requirements".
//!
//! Each case is an expression of `x` (and `y`, `n`), its arguments and the prescribed result;
//! the arguments come from a buffer, so nothing is folded at compile time.

mod builtins_harness;

use builtins_harness::{bytes, values, Runner};

const INF: f64 = f64::INFINITY;

/// (expression, x, y, n, result), the result's sign included.
fn cases() -> Vec<(&'static str, f64, f64, i32, f64)> {
    let mut v = Vec::new();
    for z in [0.0f64, -0.0] {
        // f(±0) = ±0: C99 F.9.1.2 asin, F.9.1.3 atan, F.9.1.6 sin, F.9.1.7 tan, F.9.2.2 asinh,
        // F.9.2.3 atanh, F.9.2.5 sinh, F.9.2.6 tanh, F.9.3.5 expm1, F.9.3.6 frexp, F.9.3.7
        // ldexp, F.9.3.9 log1p, F.9.3.12 modf, F.9.3.13 scalbn, F.9.4.1 cbrt, F.9.4.5 sqrt,
        // F.9.5.1 erf, F.9.6 ceil, floor, rint, round, trunc; F.9.7.1 fmod(±0, y), F.9.7.2
        // remainder, F.9.7.3 remquo; 7.5.1 asinpi, atanpi, sinpi, tanpi, fract.
        for f in [
            "asin(x)",
            "atan(x)",
            "sin(x)",
            "tan(x)",
            "asinh(x)",
            "atanh(x)",
            "sinh(x)",
            "tanh(x)",
            "expm1(x)",
            "ldexp(x, n)",
            "log1p(x)",
            "cbrt(x)",
            "sqrt(x)",
            "erf(x)",
            "ceil(x)",
            "floor(x)",
            "rint(x)",
            "round(x)",
            "trunc(x)",
            "fmod(x, y)",
            "remainder(x, y)",
            "asinpi(x)",
            "atanpi(x)",
            "sinpi(x)",
            "tanpi(x)",
            "half_sin(x)",
            "half_tan(x)",
            "half_sqrt(x)",
            "degrees(x)",
            "radians(x)",
            "sign(x)",
            "rootn(x, 3)",
            "pown(x, 3)",
            "pow(x, 3)",
        ] {
            v.push((f, z, 3.0, 5, z));
        }
        v.push(("frexp_value", z, 0.0, 0, z));
        v.push(("modf_value", z, 0.0, 0, z));
        v.push(("modf_int", z, 0.0, 0, z));
        v.push(("fract_value", z, 0.0, 0, z));
        v.push(("remquo_value", z, 3.0, 0, z));
        v.push(("sincos_sin", z, 0.0, 0, z));
        // F.9.1.4: atan2(±0, +0) = ±0, atan2(±0, x > 0) = ±0, atan2(±y, +inf) = ±0; 7.5.1 the
        // same for atan2pi.
        for f in ["atan2(x, y)", "atan2pi(x, y)"] {
            v.push((f, z, 0.0, 0, z));
            v.push((f, z, 2.0, 0, z));
        }
        let one = 1.0f64.copysign(z);
        v.push(("atan2(x, y)", one, INF, 0, z));
        v.push(("atan2pi(x, y)", one, INF, 0, z));
        // F.9.4.4: pow(±0, y) is +0 for y > 0 and not an odd integer, ±0 for odd y > 0; 7.5.1:
        // pown(±0, n) is +0 for even n > 0, powr(±0, y) is +0 for y > 0, rootn(±0, n) is +0
        // for even n > 0.
        v.push(("pow(x, y)", z, 2.0, 0, 0.0));
        v.push(("pow(x, y)", z, 0.5, 0, 0.0));
        v.push(("pow(x, y)", z, INF, 0, 0.0));
        v.push(("pown(x, n)", z, 0.0, 2, 0.0));
        v.push(("pown(x, n)", z, 0.0, 4, 0.0));
        v.push(("powr(x, y)", z, 2.0, 0, 0.0));
        v.push(("powr(x, y)", z, 3.0, 0, 0.0));
        v.push(("powr(x, y)", z, INF, 0, 0.0));
        v.push(("rootn(x, n)", z, 0.0, 2, 0.0));
        v.push(("rootn(x, n)", z, 0.0, 4, 0.0));
        // F.9.4.2 fabs(±0) = +0, F.9.4.3 hypot(±0, ±0) = +0, F.9.9.1 fdim is +0 when x <= y.
        v.push(("fabs(x)", z, 0.0, 0, 0.0));
        v.push(("hypot(x, y)", z, -0.0, 0, 0.0));
        v.push(("fdim(x, y)", z, 0.0, 0, 0.0));
        v.push(("fdim(x, y)", z, -0.0, 0, 0.0));
        // F.9.4.4: pow(-inf, y) is -0 for odd y < 0; pow(x, -inf) is +0 for |x| > 1.
        v.push(("pow(x, y)", -INF, -3.0, 0, -0.0));
        v.push(("pow(x, y)", 2.0 * one, -INF, 0, 0.0));
        // 7.5.1: fract(±inf) is ±0.
        v.push(("fract_value", INF.copysign(z), 0.0, 0, z));
    }
    // f(1) = +0: F.9.1.1 acos, F.9.2.1 acosh, F.9.3.7 log, log10, log2, F.9.3.11 logb,
    // F.9.5.3 lgamma(1) and lgamma(2); 7.5.1 acospi(1).
    for f in [
        "acos(x)",
        "acosh(x)",
        "log(x)",
        "log2(x)",
        "log10(x)",
        "logb(x)",
        "lgamma(x)",
        "acospi(x)",
        "half_log(x)",
        "half_log2(x)",
        "half_log10(x)",
    ] {
        v.push((f, 1.0, 0.0, 0, 0.0));
    }
    v.push(("lgamma(x)", 2.0, 0.0, 0, 0.0));
    // f(-inf) = +0: F.9.3.1 exp, F.9.3.2 exp2, 7.5.1 exp10; F.9.5.2 erfc(+inf) = +0.
    for f in [
        "exp(x)",
        "exp2(x)",
        "exp10(x)",
        "half_exp(x)",
        "half_exp2(x)",
        "half_exp10(x)",
    ] {
        v.push((f, -INF, 0.0, 0, 0.0));
    }
    v.push(("erfc(x)", INF, 0.0, 0, 0.0));
    v.push(("rsqrt(x)", INF, 0.0, 0, 0.0));
    v.push(("half_rsqrt(x)", INF, 0.0, 0, 0.0));
    // 7.5.1: ceil(-1 < x < 0), trunc(-1 < x < 0), round(-0.5 < x < 0) and rint(-0.5 <= x <= 0)
    // are -0; cospi(n + 0.5) is +0; sinpi(+n) is +0 and sinpi(-n) is -0; tanpi(n) is
    // copysign(0, n) for even n and copysign(0, -n) for odd n.
    v.push(("ceil(x)", -0.5, 0.0, 0, -0.0));
    v.push(("trunc(x)", -0.75, 0.0, 0, -0.0));
    v.push(("round(x)", -0.25, 0.0, 0, -0.0));
    v.push(("rint(x)", -0.5, 0.0, 0, -0.0));
    v.push(("cospi(x)", 0.5, 0.0, 0, 0.0));
    v.push(("cospi(x)", -2.5, 0.0, 0, 0.0));
    v.push(("sinpi(x)", 3.0, 0.0, 0, 0.0));
    v.push(("sinpi(x)", 2.0, 0.0, 0, 0.0));
    v.push(("sinpi(x)", -3.0, 0.0, 0, -0.0));
    v.push(("sinpi(x)", -2.0, 0.0, 0, -0.0));
    v.push(("tanpi(x)", 2.0, 0.0, 0, 0.0));
    v.push(("tanpi(x)", -2.0, 0.0, 0, -0.0));
    v.push(("tanpi(x)", 3.0, 0.0, 0, -0.0));
    v.push(("tanpi(x)", -3.0, 0.0, 0, 0.0));
    v
}

/// The statement that stores case `i`'s result, `expr` of `x = a[i]`, `y = b[i]`, `n = k[i]`.
fn statement(ty: &str, expr: &str, i: usize) -> String {
    let pre = format!("{{ {ty} x = a[{i}], y = b[{i}]; int n = k[{i}]; (void)y; (void)n; ");
    let body = match expr {
        "frexp_value" => "int e; o[I] = frexp(x, &e);".to_string(),
        "modf_value" => format!("{ty} ip; o[I] = modf(x, &ip);"),
        "modf_int" => format!("{ty} ip; modf(x, &ip); o[I] = ip;"),
        "fract_value" => format!("{ty} ip; o[I] = fract(x, &ip);"),
        "remquo_value" => "int q; o[I] = remquo(x, y, &q);".to_string(),
        "sincos_sin" => format!("{ty} c; o[I] = sincos(x, &c);"),
        // The half_ functions are float-only.
        e if e.starts_with("half_") => {
            format!("o[I] = ({ty})({});", e.replace("(x)", "((float)x)"))
        }
        e => format!("o[I] = {e};"),
    };
    format!("{pre}{} }}\n", body.replace("o[I]", &format!("o[{i}]")))
}

fn check(ty: &str, size: usize) {
    let cases = cases();
    let n = cases.len();
    // One small kernel per case: the compiler's time grows faster than a kernel's size.
    let mut source = if ty == "double" {
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n".to_string()
    } else {
        String::new()
    };
    for (i, (expr, ..)) in cases.iter().enumerate() {
        source += &format!(
            "kernel void k{i}(global {ty} *o, global const {ty} *a, global const {ty} *b, \
             global const int *k) {{\n{}}}\n",
            statement(ty, expr, i)
        );
    }
    let runner = Runner::new();
    let program = runner.build(&source, "");
    let (xs, ys): (Vec<f64>, Vec<f64>) = cases.iter().map(|c| (c.1, c.2)).unzip();
    let ks: Vec<i32> = cases.iter().map(|c| c.3).collect();
    let encode = |v: &[f64]| -> Vec<u8> {
        if size == 4 {
            bytes(&v.iter().map(|&x| x as f32).collect::<Vec<f32>>())
        } else {
            bytes(v)
        }
    };
    let mut buffers = vec![vec![0u8; n * size], encode(&xs), encode(&ys), bytes(&ks)];
    for i in 0..n {
        runner.run(&program, &format!("k{i}"), &mut buffers, 1);
    }
    let got: Vec<f64> = if size == 4 {
        values::<f32>(&buffers[0])
            .into_iter()
            .map(f64::from)
            .collect()
    } else {
        values::<f64>(&buffers[0])
    };
    let wrong: Vec<String> = cases
        .iter()
        .zip(&got)
        .filter(|((.., want), got)| want.to_bits() != got.to_bits())
        .map(|((expr, x, y, k, want), got)| {
            format!("{ty} {expr} with x = {x:?}, y = {y:?}, n = {k}: got {got:?}, want {want:?}")
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn float_zero_signs() {
    check("float", 4);
}

#[test]
fn double_zero_signs() {
    check("double", 8);
}
