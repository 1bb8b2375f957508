//! The integer builtins (6.15.3) for every integer type, scalar and 3-, 4- and 16-wide, against
//! implementations written here in 128-bit arithmetic: exhaustive over 8-bit operand pairs and
//! 16-bit single operands, edge values crossed with each other and seeded random samples for
//! the wider types.
//!
//! This stays in Rust: exhaustive and random operands against 128-bit arithmetic written here.
//! Integer functions on chosen values, checked on every platform present, are the kernel file
//! `tests/kernels/builtins/integer.cl`.

use crate::builtins_harness;

use builtins_harness::types::{Ty, INTEGERS};
use builtins_harness::{Rng, Runner};

const TYPES: [Ty; 8] = INTEGERS;

impl Ty {
    fn unsigned(self) -> Ty {
        TYPES
            .iter()
            .copied()
            .find(|t| t.bits == self.bits && !t.signed)
            .unwrap()
    }
    /// The type of twice the width and the same signedness (upsample's result).
    fn wider(self) -> Option<Ty> {
        TYPES
            .iter()
            .copied()
            .find(|t| t.bits == self.bits * 2 && t.signed == self.signed)
    }
    /// The bit pattern, as an unsigned number.
    fn pattern(self, v: i128) -> u128 {
        self.unsigned().wrap(v) as u128
    }
}

fn encode(t: Ty, vals: &[i128]) -> Vec<u8> {
    vals.iter()
        .flat_map(|v| v.to_le_bytes()[..t.bytes()].to_vec())
        .collect()
}

fn decode(t: Ty, b: &[u8]) -> Vec<i128> {
    b.chunks_exact(t.bytes())
        .map(|c| {
            let mut w = [0u8; 16];
            w[..c.len()].copy_from_slice(c);
            t.wrap(i128::from_le_bytes(w))
        })
        .collect()
}

struct Op {
    name: &'static str,
    arity: usize,
    /// The expression over A, B, C (each `x[i]` or a vloadn), with as_U the unsigned type.
    expr: &'static str,
    /// The result type for operand type t, or None where the builtin has no such overload.
    result: fn(Ty) -> Option<Ty>,
    /// Restricts operands to the builtin's defined domain.
    fix: fn(Ty, &mut [i128; 3]),
    reference: fn(Ty, i128, i128, i128) -> i128,
}

fn same(t: Ty) -> Option<Ty> {
    Some(t)
}

fn any(_: Ty, _: &mut [i128; 3]) {}

fn mul_hi(t: Ty, a: i128, b: i128) -> i128 {
    if t.bits == 64 && !t.signed {
        ((a as u128 * b as u128) >> 64) as i128
    } else {
        (a * b) >> t.bits
    }
}

fn ops() -> Vec<Op> {
    vec![
        Op {
            name: "abs",
            arity: 1,
            expr: "abs(A)",
            result: |t| Some(t.unsigned()),
            fix: any,
            reference: |_, a, _, _| a.abs(),
        },
        Op {
            name: "clz",
            arity: 1,
            expr: "clz(A)",
            result: same,
            fix: any,
            reference: |t, a, _, _| {
                i128::from(t.pattern(a).leading_zeros()) - (128 - i128::from(t.bits))
            },
        },
        Op {
            name: "ctz",
            arity: 1,
            expr: "ctz(A)",
            result: same,
            fix: any,
            // 6.15.3: ctz(0) is the number of bits in the type.
            reference: |t, a, _, _| i128::from(t.pattern(a).trailing_zeros().min(t.bits)),
        },
        Op {
            name: "popcount",
            arity: 1,
            expr: "popcount(A)",
            result: same,
            fix: any,
            reference: |t, a, _, _| i128::from(t.pattern(a).count_ones()),
        },
        Op {
            name: "abs_diff",
            arity: 2,
            expr: "abs_diff(A, B)",
            result: |t| Some(t.unsigned()),
            fix: any,
            reference: |_, a, b, _| (a - b).abs(),
        },
        Op {
            name: "add_sat",
            arity: 2,
            expr: "add_sat(A, B)",
            result: same,
            fix: any,
            reference: |t, a, b, _| (a + b).clamp(t.min(), t.max()),
        },
        Op {
            name: "sub_sat",
            arity: 2,
            expr: "sub_sat(A, B)",
            result: same,
            fix: any,
            reference: |t, a, b, _| (a - b).clamp(t.min(), t.max()),
        },
        Op {
            name: "hadd",
            arity: 2,
            expr: "hadd(A, B)",
            result: same,
            fix: any,
            // 6.15.3: (x + y) >> 1 without overflow.
            reference: |_, a, b, _| (a + b).div_euclid(2),
        },
        Op {
            name: "rhadd",
            arity: 2,
            expr: "rhadd(A, B)",
            result: same,
            fix: any,
            reference: |_, a, b, _| (a + b + 1).div_euclid(2),
        },
        Op {
            name: "max",
            arity: 2,
            expr: "max(A, B)",
            result: same,
            fix: any,
            reference: |_, a, b, _| a.max(b),
        },
        Op {
            name: "min",
            arity: 2,
            expr: "min(A, B)",
            result: same,
            fix: any,
            reference: |_, a, b, _| a.min(b),
        },
        Op {
            name: "mul_hi",
            arity: 2,
            expr: "mul_hi(A, B)",
            result: same,
            fix: any,
            reference: |t, a, b, _| mul_hi(t, a, b),
        },
        Op {
            name: "rotate",
            arity: 2,
            expr: "rotate(A, B)",
            result: same,
            fix: any,
            // 6.15.3: bits shifted off the left come in on the right; the count is taken
            // modulo the number of bits.
            reference: |t, a, b, _| {
                let n = t.pattern(b) as u32 % t.bits;
                let p = t.pattern(a);
                let r = if n == 0 {
                    p
                } else {
                    (p << n | p >> (t.bits - n)) & ((1u128 << t.bits) - 1)
                };
                t.wrap(r as i128)
            },
        },
        Op {
            name: "upsample",
            arity: 2,
            expr: "upsample(A, as_U(B))",
            result: |t| t.wider(),
            fix: any,
            // 6.15.3: ((result) hi << bits) | lo, with lo unsigned.
            reference: |t, a, b, _| a * (1i128 << t.bits) + t.pattern(b) as i128,
        },
        Op {
            name: "clamp",
            arity: 3,
            expr: "clamp(A, B, C)",
            result: same,
            // 6.15.3: results are undefined if minval > maxval.
            fix: |_, v| {
                if v[1] > v[2] {
                    v.swap(1, 2);
                }
            },
            reference: |_, a, b, c| a.max(b).min(c),
        },
        Op {
            name: "mad_hi",
            arity: 3,
            expr: "mad_hi(A, B, C)",
            result: same,
            fix: any,
            reference: |t, a, b, c| t.wrap(mul_hi(t, a, b) + c),
        },
        Op {
            name: "mad_sat",
            arity: 3,
            expr: "mad_sat(A, B, C)",
            result: same,
            fix: any,
            reference: |t, a, b, c| match a.checked_mul(b).and_then(|p| p.checked_add(c)) {
                Some(v) => v.clamp(t.min(), t.max()),
                // Only unsigned 64-bit products leave i128: far above the maximum.
                None => t.max(),
            },
        },
        Op {
            name: "mul24",
            arity: 2,
            expr: "mul24(A, B)",
            result: |t| (t.bits == 32).then_some(t),
            fix: fit24,
            reference: |t, a, b, _| t.wrap(a * b),
        },
        Op {
            name: "mad24",
            arity: 3,
            expr: "mad24(A, B, C)",
            result: |t| (t.bits == 32).then_some(t),
            fix: fit24,
            reference: |t, a, b, c| t.wrap(a * b + c),
        },
    ]
}

/// 6.15.3: mul24 and mad24 are defined only for operands in the 24-bit range (signed:
/// [-2^23, 2^23 - 1]; unsigned: [0, 2^24 - 1]); the addend of mad24 is any value.
fn fit24(t: Ty, v: &mut [i128; 3]) {
    for x in &mut v[..2] {
        *x = if t.signed {
            x.rem_euclid(1 << 24) - (1 << 23)
        } else {
            x.rem_euclid(1 << 24)
        };
    }
}

/// Operand triples for type t and an op of `arity`, a multiple of 48 long (every width
/// divides it).
fn operands(t: Ty, arity: usize, rng: &mut Rng) -> Vec<[i128; 3]> {
    let mut out = Vec::new();
    let random = |rng: &mut Rng| {
        let shift = rng.below(u64::from(t.bits)) as u32;
        t.wrap((rng.next() as i128 | (rng.next() as i128) << 64) >> shift)
    };
    let mut edges = vec![0, 1, -1, 2, t.min(), t.max(), t.min() + 1, t.max() - 1];
    edges.extend([t.max() / 2, t.max() / 2 + 1, t.min() / 2, 3, 5, 7]);
    let edges: Vec<i128> = edges.into_iter().map(|e| t.wrap(e)).collect();
    if t.bits == 8 && arity >= 2 {
        for a in t.min()..=t.max() {
            for b in t.min()..=t.max() {
                out.push([a, b, random(rng)]);
            }
        }
    } else if t.bits <= 16 && arity == 1 {
        out.extend((t.min()..=t.max()).map(|a| [a, 0, 0]));
    } else {
        for &a in &edges {
            for &b in &edges {
                for &c in &edges[..if arity == 3 { edges.len() } else { 1 }] {
                    out.push([a, b, c]);
                }
            }
        }
        for _ in 0..12_000 {
            out.push([random(rng), random(rng), random(rng)]);
        }
    }
    while out.len() % 48 != 0 {
        out.push(out[0]);
    }
    out
}

#[test]
fn integer_builtins_match_the_host() {
    let runner = Runner::new();
    let mut rng = Rng::new(0x1e7);
    let mut wrong = Vec::new();
    let mut checked = 0usize;
    let ops = ops();
    for t in TYPES {
        let u = t.unsigned();
        let mut source = String::new();
        for op in ops.iter() {
            let Some(r) = (op.result)(t) else { continue };
            let scalar = op
                .expr
                .replace('A', "a[i]")
                .replace('B', "b[i]")
                .replace('C', "c[i]")
                .replace("as_U", &format!("as_{}", u.name));
            let params = format!(
                "global const {0}* a, global const {0}* b, global const {0}* c",
                t.name
            );
            source += &format!(
                "kernel void {n}_1(global {r}* o, {params}) {{ size_t i = get_global_id(0); \
                 o[i] = {scalar}; }}\n",
                n = op.name,
                r = r.name
            );
            for w in [3, 4, 16] {
                let vector = op
                    .expr
                    .replace('A', &format!("vload{w}(i, a)"))
                    .replace('B', &format!("vload{w}(i, b)"))
                    .replace('C', &format!("vload{w}(i, c)"))
                    .replace("as_U", &format!("as_{}{w}", u.name));
                source += &format!(
                    "kernel void {n}_{w}(global {r}* o, {params}) {{ \
                     size_t i = get_global_id(0); vstore{w}({vector}, i, o); }}\n",
                    n = op.name,
                    r = r.name
                );
            }
        }
        // ctz is OpenCL C 2.0 and newer.
        let program = runner.build(&source, "-cl-std=CL3.0");
        for op in ops.iter() {
            let Some(r) = (op.result)(t) else { continue };
            let mut ins = operands(t, op.arity, &mut rng);
            for v in ins.iter_mut() {
                (op.fix)(t, v);
            }
            let n = ins.len();
            let col = |k: usize| -> Vec<i128> { ins.iter().map(|v| v[k]).collect() };
            for width in [1usize, 3, 4, 16] {
                let mut bufs = vec![
                    vec![0u8; n * r.bytes()],
                    encode(t, &col(0)),
                    encode(t, &col(1)),
                    encode(t, &col(2)),
                ];
                runner.run(
                    &program,
                    &format!("{}_{width}", op.name),
                    &mut bufs,
                    n / width,
                );
                let got = decode(r, &bufs[0]);
                for (i, v) in ins.iter().enumerate() {
                    let want = r.wrap((op.reference)(t, v[0], v[1], v[2]));
                    checked += 1;
                    if got[i] != want && wrong.len() < 40 {
                        let args = &v[..op.arity];
                        wrong.push(format!(
                            "{}({}{}) {args:?} = {}, want {want}",
                            op.name,
                            t.name,
                            if width == 1 {
                                String::new()
                            } else {
                                width.to_string()
                            },
                            got[i]
                        ));
                    }
                }
            }
        }
    }
    println!("{checked} integer results checked");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
