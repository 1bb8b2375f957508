//! Relational (6.15.6), common (6.15.4) and geometric (6.15.5) builtins on float, scalar and
//! vector, against host implementations: relational results exactly (scalar 1/0, vector
//! -1/0), common and geometric ones within the bounds of 7.4 (table 65).
//!
//! These stay in Rust because each checks seeded random operands (special values crossed with
//! them) against results computed here from the same operands. The prescribed values of
//! normalize, length and distance at their edges are the kernel file
//! `tests/kernels/builtins/normalize_length_edge_cases.cl`, run on every platform present.

use crate::builtins_harness;

use builtins_harness::{bytes, special_f32, ulp_error, values, Rng, Runner};

fn f(x: f32) -> f64 {
    f64::from(x)
}

/// Pairs of floats: the special values crossed, then random ones (a multiple of 48).
fn pairs(rng: &mut Rng) -> (Vec<f32>, Vec<f32>) {
    let sp = special_f32();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for &x in &sp {
        for &y in &sp {
            a.push(x);
            b.push(y);
        }
    }
    for i in 0..8192 {
        if i % 2 == 0 {
            a.push(rng.any_f32());
            b.push(rng.any_f32());
        } else {
            let x = rng.f32_exp(-4, 4);
            a.push(x);
            // Equal values often, so equality is exercised.
            b.push(if i % 3 == 0 { x } else { rng.f32_exp(-4, 4) });
        }
    }
    while a.len() % 48 != 0 {
        a.push(1.0);
        b.push(1.0);
    }
    (a, b)
}

#[test]
fn relational_builtins_are_exact() {
    type Rel = (&'static str, fn(f32, f32) -> bool);
    let binary: [Rel; 9] = [
        ("isequal", |x, y| x == y),
        ("isnotequal", |x, y| x != y),
        ("isgreater", |x, y| x > y),
        ("isgreaterequal", |x, y| x >= y),
        ("isless", |x, y| x < y),
        ("islessequal", |x, y| x <= y),
        // 6.15.6: (x < y) || (x > y): false for NaN operands.
        ("islessgreater", |x, y| {
            x.partial_cmp(&y).is_some_and(|o| o.is_ne())
        }),
        ("isordered", |x, y| !x.is_nan() && !y.is_nan()),
        ("isunordered", |x, y| x.is_nan() || y.is_nan()),
    ];
    let unary: [Rel; 5] = [
        ("isfinite", |x, _| x.is_finite()),
        ("isinf", |x, _| x.is_infinite()),
        ("isnan", |x, _| x.is_nan()),
        ("isnormal", |x, _| x.is_normal()),
        ("signbit", |x, _| x.is_sign_negative()),
    ];
    let runner = Runner::new();
    let mut rng = Rng::new(0x4e1);
    let (a, b) = pairs(&mut rng);
    let n = a.len();
    let mut source = String::new();
    let all: Vec<(Rel, bool)> = binary
        .iter()
        .map(|r| (*r, true))
        .chain(unary.iter().map(|r| (*r, false)))
        .collect();
    for ((name, _), two) in &all {
        let args = |w: &str| {
            if *two {
                format!("{w}(a), {w}(b)")
            } else {
                format!("{w}(a)")
            }
        };
        let s = args("S").replace("S(a)", "a[i]").replace("S(b)", "b[i]");
        source += &format!(
            "kernel void {name}_1(global int* o, global const float* a, global const float* b) \
             {{ size_t i = get_global_id(0); o[i] = {name}({s}); }}\n"
        );
        for w in [2, 3, 4, 8, 16] {
            let v = args(&format!("vload{w}"))
                .replace("(a)", "(i, a)")
                .replace("(b)", "(i, b)");
            source += &format!(
                "kernel void {name}_{w}(global int* o, global const float* a, \
                 global const float* b) {{ size_t i = get_global_id(0); \
                 vstore{w}({name}({v}), i, o); }}\n"
            );
        }
    }
    let program = runner.build(&source, "");
    let mut wrong = Vec::new();
    for ((name, r), _) in &all {
        for width in [1usize, 2, 3, 4, 8, 16] {
            let mut bufs = vec![vec![0u8; n * 4], bytes(&a), bytes(&b)];
            runner.run(&program, &format!("{name}_{width}"), &mut bufs, n / width);
            let got: Vec<i32> = values(&bufs[0]);
            for i in 0..n {
                // 6.15.6: scalar forms return 1 for true, vector forms -1 (all bits set).
                let truth = if width == 1 { 1 } else { -1 };
                let want = if r(a[i], b[i]) { truth } else { 0 };
                if got[i] != want && wrong.len() < 30 {
                    wrong.push(format!(
                        "{name}({:e}, {:e}) width {width} = {}, want {want}",
                        a[i], b[i], got[i]
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// any, all, select and bitselect on integer vectors and floats.
#[test]
fn any_all_select_bitselect() {
    let runner = Runner::new();
    let mut rng = Rng::new(0x5e1);
    let n = 4096;
    let a: Vec<i32> = (0..n).map(|_| rng.next() as i32).collect();
    let b: Vec<i32> = (0..n).map(|_| rng.next() as i32).collect();
    // Masks with sign bits set or clear, and values that are non-zero without the sign bit.
    let c: Vec<i32> = (0..n)
        .map(|_| match rng.below(4) {
            0 => 0,
            1 => -1,
            2 => (rng.next() as i32) & 0x7fff_ffff,
            _ => rng.next() as i32,
        })
        .collect();
    let source = "
        kernel void any4(global int* o, global const int* a) { size_t i = get_global_id(0); o[i] = any(vload4(i, a)); }
        kernel void all4(global int* o, global const int* a) { size_t i = get_global_id(0); o[i] = all(vload4(i, a)); }
        kernel void any1(global int* o, global const int* a) { size_t i = get_global_id(0); o[i] = any(a[i]); }
        kernel void sel1(global int* o, global const int* a, global const int* b, global const int* c) {
            size_t i = get_global_id(0); o[i] = select(a[i], b[i], c[i]); }
        kernel void sel4(global int* o, global const int* a, global const int* b, global const int* c) {
            size_t i = get_global_id(0); vstore4(select(vload4(i, a), vload4(i, b), vload4(i, c)), i, o); }
        kernel void fsel4(global float* o, global const float* a, global const float* b, global const int* c) {
            size_t i = get_global_id(0); vstore4(select(vload4(i, a), vload4(i, b), vload4(i, c)), i, o); }
        kernel void bsel4(global int* o, global const int* a, global const int* b, global const int* c) {
            size_t i = get_global_id(0); vstore4(bitselect(vload4(i, a), vload4(i, b), vload4(i, c)), i, o); }
        kernel void fbsel1(global float* o, global const float* a, global const float* b, global const float* c) {
            size_t i = get_global_id(0); o[i] = bitselect(a[i], b[i], c[i]); }
    ";
    let program = runner.build(source, "");
    let run = |name: &str, global: usize| -> Vec<i32> {
        let mut bufs = vec![vec![0u8; n * 4], bytes(&a), bytes(&b), bytes(&c)];
        if name.starts_with("a") {
            bufs.truncate(2);
        }
        runner.run(&program, name, &mut bufs, global);
        values(&bufs[0])
    };
    // 6.15.6: any/all test the most significant bit of each component.
    let any4 = run("any4", n / 4);
    let all4 = run("all4", n / 4);
    let any1 = run("any1", n);
    for g in 0..n / 4 {
        let lanes = &a[g * 4..g * 4 + 4];
        assert_eq!(
            any4[g],
            i32::from(lanes.iter().any(|&x| x < 0)),
            "any group {g}"
        );
        assert_eq!(
            all4[g],
            i32::from(lanes.iter().all(|&x| x < 0)),
            "all group {g}"
        );
    }
    for i in 0..n {
        assert_eq!(any1[i], i32::from(a[i] < 0), "any({})", a[i]);
    }
    // select: scalar c != 0 picks b; vector picks b where c's most significant bit is set.
    let sel1 = run("sel1", n);
    let sel4 = run("sel4", n / 4);
    let fsel4 = run("fsel4", n / 4);
    let bsel4 = run("bsel4", n / 4);
    let fbsel1 = run("fbsel1", n);
    for i in 0..n {
        assert_eq!(
            sel1[i],
            if c[i] != 0 { b[i] } else { a[i] },
            "select scalar {i}"
        );
        let v = if c[i] < 0 { b[i] } else { a[i] };
        assert_eq!(sel4[i], v, "select int4 {i}");
        assert_eq!(fsel4[i], v, "select float4 {i}");
        let bs = (a[i] & !c[i]) | (b[i] & c[i]);
        assert_eq!(bsel4[i], bs, "bitselect int4 {i}");
        assert_eq!(fbsel1[i], bs, "bitselect float {i}");
    }
}

/// Lane k of the result for operands a, b, c of width n: (a, b, c, n, k).
type Reference = fn(&[f64], &[f64], &[f64], usize, usize) -> f64;

/// One common or geometric builtin: its expression, operand range, reference and bound.
struct Common {
    expr: &'static str,
    /// Operand sampling: values of magnitude 2^lo..2^hi.
    range: (i32, i32),
    /// The reference (per output lane) and the allowed error of lane `k` for vector width n:
    /// ulps, or an absolute tolerance when `abs` is set.
    reference: Reference,
    bound: fn(usize, &[f64], &[f64]) -> f64,
    abs: bool,
    /// Output lanes for operand width n.
    out_lanes: fn(usize) -> usize,
    widths: &'static [usize],
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn len(a: &[f64]) -> f64 {
    a.iter().map(|x| x * x).sum::<f64>().sqrt()
}

fn maxabs(a: &[f64], b: &[f64]) -> f64 {
    a.iter().chain(b).fold(0.0f64, |m, x| m.max(x.abs()))
}

const EPS: f64 = f32::EPSILON as f64;

fn commons() -> Vec<(&'static str, Common)> {
    let lane = |n: usize| n;
    let one = |_: usize| 1;
    vec![
        (
            "clamp",
            Common {
                expr: "clamp(A, fmin(B, C), fmax(B, C))",
                range: (-10, 10),
                reference: |a, b, c, _, k| a[k].max(b[k].min(c[k])).min(b[k].max(c[k])),
                bound: |_, _, _| 0.0,
                abs: false,
                out_lanes: lane,
                widths: &[1, 4, 16],
            },
        ),
        (
            "degrees",
            Common {
                expr: "degrees(A)",
                range: (-60, 60),
                reference: |a, _, _, _, k| a[k] * (180.0 / std::f64::consts::PI),
                bound: |_, _, _| 2.0,
                abs: false,
                out_lanes: lane,
                widths: &[1, 4, 16],
            },
        ),
        (
            "radians",
            Common {
                expr: "radians(A)",
                range: (-60, 60),
                reference: |a, _, _, _, k| a[k] * (std::f64::consts::PI / 180.0),
                bound: |_, _, _| 2.0,
                abs: false,
                out_lanes: lane,
                widths: &[1, 4, 16],
            },
        ),
        (
            "max",
            Common {
                expr: "max(A, B)",
                range: (-60, 60),
                // 6.15.4: y if x < y, otherwise x (NaN and infinity undefined, not sampled).
                reference: |a, b, _, _, k| if a[k] < b[k] { b[k] } else { a[k] },
                bound: |_, _, _| 0.0,
                abs: false,
                out_lanes: lane,
                widths: &[1, 4, 16],
            },
        ),
        (
            "min",
            Common {
                expr: "min(A, B)",
                range: (-60, 60),
                reference: |a, b, _, _, k| if b[k] < a[k] { b[k] } else { a[k] },
                bound: |_, _, _| 0.0,
                abs: false,
                out_lanes: lane,
                widths: &[1, 4, 16],
            },
        ),
        (
            "mix",
            Common {
                // 6.15.4: x + (y - x) * a, a in [0, 1]; 7.4: absolute error 1e-3.
                expr: "mix(A, B, fabs(sin(C)))",
                range: (-8, 8),
                reference: |a, b, c, _, k| {
                    let t = f64::from((c[k] as f32).sin().abs());
                    a[k] + (b[k] - a[k]) * t
                },
                bound: |_, _, _| 1e-3,
                abs: true,
                out_lanes: lane,
                widths: &[1, 4, 16],
            },
        ),
        (
            "step",
            Common {
                expr: "step(A, B)",
                range: (-4, 4),
                reference: |a, b, _, _, k| if b[k] < a[k] { 0.0 } else { 1.0 },
                bound: |_, _, _| 0.0,
                abs: false,
                out_lanes: lane,
                widths: &[1, 4, 16],
            },
        ),
        (
            "smoothstep",
            Common {
                // Edges ordered (6.15.4: undefined if edge0 >= edge1); 7.4: absolute 1e-5.
                expr: "smoothstep(fmin(A, B) - 1.0f, fmax(A, B) + 1.0f, C)",
                range: (-3, 3),
                reference: |a, b, c, _, k| {
                    let e0 = f64::from(a[k].min(b[k]) as f32 - 1.0);
                    let e1 = f64::from(a[k].max(b[k]) as f32 + 1.0);
                    let t = ((c[k] - e0) / (e1 - e0)).clamp(0.0, 1.0);
                    t * t * (3.0 - 2.0 * t)
                },
                bound: |_, _, _| 1e-5,
                abs: true,
                out_lanes: lane,
                widths: &[1, 4, 16],
            },
        ),
        (
            "sign",
            Common {
                expr: "sign(A)",
                range: (-140, 10),
                reference: |a, _, _, _, k| {
                    if a[k] > 0.0 {
                        1.0
                    } else if a[k] < 0.0 {
                        -1.0
                    } else {
                        a[k]
                    }
                },
                bound: |_, _, _| 0.0,
                abs: false,
                out_lanes: lane,
                widths: &[1, 4, 16],
            },
        ),
        (
            "dot",
            Common {
                expr: "dot(A, B)",
                range: (-20, 20),
                reference: |a, b, _, _, _| dot(a, b),
                // 7.4: max * max * (2n - 1) * FLT_EPSILON.
                bound: |n, a, b| maxabs(a, b).powi(2) * (2.0 * n as f64 - 1.0) * EPS,
                abs: true,
                out_lanes: one,
                widths: &[1, 2, 3, 4],
            },
        ),
        (
            "cross",
            Common {
                expr: "cross(A, B)",
                range: (-20, 20),
                reference: |a, b, _, _, k| {
                    let (i, j) = ((k + 1) % 3, (k + 2) % 3);
                    if k == 3 {
                        // 6.15.5: the w component of the float4 result is 0.
                        0.0
                    } else {
                        a[i] * b[j] - a[j] * b[i]
                    }
                },
                // 7.4: max * max * (3 * FLT_EPSILON).
                bound: |_, a, b| maxabs(&a[..3], &b[..3]).powi(2) * 3.0 * EPS,
                abs: true,
                out_lanes: lane,
                widths: &[3, 4],
            },
        ),
        (
            "length",
            Common {
                expr: "length(A)",
                range: (-140, 120),
                reference: |a, _, _, _, _| len(a),
                bound: |n, _, _| 2.75 + 0.5 * n as f64,
                abs: false,
                out_lanes: one,
                widths: &[1, 2, 3, 4],
            },
        ),
        (
            "distance",
            Common {
                expr: "distance(A, B)",
                range: (-140, 120),
                reference: |a, b, _, _, _| {
                    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
                    len(&d)
                },
                bound: |n, _, _| 2.5 + 2.0 * n as f64,
                abs: false,
                out_lanes: one,
                widths: &[1, 2, 3, 4],
            },
        ),
        (
            "normalize",
            Common {
                expr: "normalize(A)",
                range: (-140, 120),
                reference: |a, _, _, _, k| a[k] / len(a),
                bound: |n, _, _| 2.0 + n as f64,
                abs: false,
                out_lanes: lane,
                widths: &[1, 2, 3, 4],
            },
        ),
        (
            "fast_length",
            Common {
                expr: "fast_length(A)",
                range: (-40, 40),
                reference: |a, _, _, _, _| len(a),
                bound: |n, _, _| 8191.5 + n as f64,
                abs: false,
                out_lanes: one,
                widths: &[1, 2, 3, 4],
            },
        ),
        (
            "fast_distance",
            Common {
                expr: "fast_distance(A, B)",
                range: (-40, 40),
                reference: |a, b, _, _, _| {
                    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
                    len(&d)
                },
                bound: |n, _, _| 8191.5 + 2.0 * n as f64,
                abs: false,
                out_lanes: one,
                widths: &[1, 2, 3, 4],
            },
        ),
        (
            "fast_normalize",
            Common {
                expr: "fast_normalize(A)",
                range: (-40, 40),
                reference: |a, _, _, _, k| a[k] / len(a),
                bound: |n, _, _| 8192.0 + n as f64,
                abs: false,
                out_lanes: lane,
                widths: &[1, 2, 3, 4],
            },
        ),
    ]
}

#[test]
fn common_and_geometric_builtins_meet_their_bounds() {
    let runner = Runner::new();
    let mut rng = Rng::new(0xc0);
    let groups = 2048usize;
    let mut wrong = Vec::new();
    for (name, c) in commons() {
        let mut worst = 0.0f64;
        for &n in c.widths {
            let load = |x: &str| {
                if n == 1 {
                    format!("{x}[i]")
                } else {
                    format!("vload{n}(i, {x})")
                }
            };
            let expr = c
                .expr
                .replace('A', &load("a"))
                .replace('B', &load("b"))
                .replace('C', &load("c"));
            let outs = (c.out_lanes)(n);
            let store = if outs == 1 {
                format!("o[i] = {expr};")
            } else {
                format!("vstore{outs}({expr}, i, o);")
            };
            let source = format!(
                "kernel void k(global float* o, global const float* a, global const float* b, \
                 global const float* c) {{ size_t i = get_global_id(0); {store} }}\n"
            );
            let program = runner.build(&source, "");
            let mut cols: Vec<Vec<f32>> = vec![Vec::new(), Vec::new(), Vec::new()];
            for g in 0..groups {
                // Every lane of a group in one binade now and then, so vector lengths of
                // huge or tiny components are exercised without overflow in the operands.
                let scale = if g % 4 == 0 {
                    Some(c.range.0 + rng.below((c.range.1 - c.range.0 + 1) as u64) as i32)
                } else {
                    None
                };
                for col in cols.iter_mut() {
                    for _ in 0..n {
                        col.push(match scale {
                            Some(e) => rng.f32_exp(e - 1, e),
                            None => rng.f32_exp(c.range.0, c.range.1),
                        });
                    }
                }
            }
            // A few zero vectors (normalize returns them unchanged, 7.5.1).
            for col in cols.iter_mut() {
                for v in &mut col[..n] {
                    *v = 0.0;
                }
            }
            let mut bufs = vec![
                vec![0u8; groups * outs * 4],
                bytes(&cols[0]),
                bytes(&cols[1]),
                bytes(&cols[2]),
            ];
            runner.run(&program, "k", &mut bufs, groups);
            let got: Vec<f32> = values(&bufs[0]);
            for g in 0..groups {
                let pick = |k: usize| -> Vec<f64> {
                    cols[k][g * n..g * n + n].iter().map(|&x| f(x)).collect()
                };
                let (a, b, cc) = (pick(0), pick(1), pick(2));
                for k in 0..outs {
                    let r = got[g * outs + k];
                    let mut want = (c.reference)(&a, &b, &cc, n, k);
                    if name.ends_with("normalize") && a.iter().all(|&x| x == 0.0) {
                        want = a[k];
                    }
                    let bound = (c.bound)(n, &a, &b);
                    let err = if c.abs {
                        if want.abs() > f64::from(f32::MAX) && r.is_infinite() {
                            0.0
                        } else {
                            (f(r) - want).abs()
                        }
                    } else {
                        ulp_error(r, want)
                    };
                    if err.is_finite() {
                        worst = worst.max(if c.abs { err / bound.max(1e-300) } else { err });
                    }
                    if (err.is_nan() || err > bound) && wrong.len() < 30 {
                        wrong.push(format!(
                            "{name} float{n} group {g} lane {k}: a {a:?} b {b:?} c {cc:?}: \
                             got {r:e}, want {want:e} (error {err:e}, bound {bound:e})"
                        ));
                    }
                }
            }
        }
        println!(
            "{name:<15} worst {worst:.4} {}",
            if c.abs { "of the tolerance" } else { "ulp" }
        );
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The overloads that take a scalar where the others take a vector (6.15.2, 6.15.3, 6.15.4:
/// "the scalar is widened to a vector") give exactly what the all-vector form gives with the
/// scalar splatted; each lane is also checked against the host.
#[test]
fn scalar_operands_widen_to_vectors() {
    let runner = Runner::new();
    let mut rng = Rng::new(0x51);
    let n = 4096;
    let mut a: Vec<f32> = (0..n).map(|_| rng.f32_exp(-6, 6)).collect();
    let b: Vec<f32> = (0..n).map(|_| rng.f32_exp(-6, 6)).collect();
    a[..special_f32().len()].copy_from_slice(&special_f32());
    let ints: Vec<i32> = (0..n).map(|_| rng.below(61) as i32 - 30).collect();
    // (mixed form, all-vector form); V is the float4 operand, S and T scalars, K an int.
    let pairs: &[(&str, &str)] = &[
        ("fmin(V, S)", "fmin(V, (float4)(S))"),
        ("fmax(V, S)", "fmax(V, (float4)(S))"),
        ("min(V, S)", "min(V, (float4)(S))"),
        ("max(V, S)", "max(V, (float4)(S))"),
        (
            "clamp(V, -fabs(S), fabs(S))",
            "clamp(V, (float4)(-fabs(S)), (float4)(fabs(S)))",
        ),
        (
            "mix(V, W, fabs(sin(S)))",
            "mix(V, W, (float4)(fabs(sin(S))))",
        ),
        ("step(S, V)", "step((float4)(S), V)"),
        (
            "smoothstep(-fabs(S) - 1.0f, fabs(S) + 1.0f, V)",
            "smoothstep((float4)(-fabs(S) - 1.0f), (float4)(fabs(S) + 1.0f), V)",
        ),
        ("ldexp(V, K)", "ldexp(V, (int4)(K))"),
        (
            "as_float4(clamp(as_int4(V), -K, K + 1000))",
            "as_float4(clamp(as_int4(V), (int4)(-K), (int4)(K + 1000)))",
        ),
        (
            "as_float4(max(as_int4(V), K))",
            "as_float4(max(as_int4(V), (int4)(K)))",
        ),
        (
            "as_float4(min(as_uint4(V), (uint)K))",
            "as_float4(min(as_uint4(V), (uint4)((uint)K)))",
        ),
    ];
    let mut source = String::new();
    for (k, (mixed, full)) in pairs.iter().enumerate() {
        let sub = |e: &str| {
            e.replace('V', "vload4(i, a)")
                .replace('W', "vload4(i, b)")
                .replace('S', "b[i]")
                .replace('K', "n[i]")
        };
        source += &format!(
            "kernel void m{k}(global float* o, global float* o2, global const float* a, \
             global const float* b, global const int* n) {{ size_t i = get_global_id(0); \
             vstore4({}, i, o); vstore4({}, i, o2); }}\n",
            sub(mixed),
            sub(full)
        );
    }
    let program = runner.build(&source, "");
    let mut wrong = Vec::new();
    for (k, (mixed, _)) in pairs.iter().enumerate() {
        let mut bufs = vec![
            vec![0u8; n * 4],
            vec![0u8; n * 4],
            bytes(&a),
            bytes(&b),
            bytes(&ints),
        ];
        runner.run(&program, &format!("m{k}"), &mut bufs, n / 4);
        let x: Vec<u32> = values(&bufs[0]);
        let y: Vec<u32> = values(&bufs[1]);
        for i in 0..n {
            // Scalar operand of group g is b[g] (the group's own index).
            if x[i] != y[i] && !(f32::from_bits(x[i]).is_nan() && f32::from_bits(y[i]).is_nan()) {
                wrong.push(format!("{mixed} lane {i}: {:#x} vs {:#x}", x[i], y[i]));
                break;
            }
        }
        // ldexp against the host: the scalar exponent of group g applies to all four lanes.
        if mixed.starts_with("ldexp") {
            let got: Vec<f32> = values(&bufs[0]);
            for i in 0..n {
                let e = ints[i / 4];
                let want = (f(a[i]) * 2f64.powi(e)) as f32;
                assert!(
                    got[i].to_bits() == want.to_bits() || (want.is_nan() && got[i].is_nan()),
                    "ldexp({:e}, {e}) = {:e}, want {want:e}",
                    a[i],
                    got[i]
                );
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
