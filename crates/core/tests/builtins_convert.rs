//! Explicit conversions (6.4.3): `convert_<dst>[_sat][_rte|_rtz|_rtp|_rtn](src)` for every pair
//! of the device's scalar types (no double, no half), scalar and 4-wide, and `as_<type>`
//! reinterpretation (6.4.4), against conversions written here. 8- and 16-bit sources are
//! checked exhaustively; wider ones over edge values and a seeded random sample; floats over
//! special values, values near every integer type's limits and near halves, and random bit
//! patterns. Results the spec leaves undefined (a float out of range, or NaN, converted
//! without `_sat`) are not checked.
//!
//! This stays in Rust: exhaustive over the small types and random beyond them, against
//! conversions written here. Conversions of chosen values, checked on every platform present,
//! are the kernel file `tests/kernels/builtins/convert.cl`.

use crate::builtins_harness;

use builtins_harness::types::{as_type_changes, scalars, variants, Mode, Ty};
use builtins_harness::{next_down, next_up, Rng, Runner};

/// The integer types and float.
const TYPES: [Ty; 9] = scalars::<9>();

/// A value of some type: an integer or a float.
#[derive(Clone, Copy, Debug)]
enum Val {
    I(i128),
    F(f32),
}

fn encode(t: Ty, vals: &[Val]) -> Vec<u8> {
    let mut out = Vec::with_capacity(vals.len() * t.bytes());
    for v in vals {
        match *v {
            Val::I(i) => out.extend_from_slice(&i.to_le_bytes()[..t.bytes()]),
            Val::F(f) => out.extend_from_slice(&f.to_le_bytes()),
        }
    }
    out
}

fn decode(t: Ty, b: &[u8]) -> Vec<Val> {
    b.chunks_exact(t.bytes())
        .map(|c| {
            if t.float {
                Val::F(f32::from_le_bytes(c.try_into().unwrap()))
            } else {
                let mut w = [0u8; 16];
                w[..c.len()].copy_from_slice(c);
                Val::I(t.wrap(i128::from_le_bytes(w)))
            }
        })
        .collect()
}

/// An integer rounded to float in `mode` (6.4.3.2: to floating point the default is
/// round to nearest even).
fn int_to_float(v: i128, mode: Mode) -> f32 {
    let mut f = v as f32;
    let exact = |f: f32| f as f64 as i128;
    let down = match mode {
        Mode::Rtn => true,
        Mode::Rtz => v >= 0,
        _ => false,
    };
    let up = match mode {
        Mode::Rtp => true,
        Mode::Rtz => v < 0,
        _ => false,
    };
    if f.is_finite() && exact(f) > v && down {
        f = next_down(f);
    }
    if f.is_finite() && exact(f) < v && up {
        f = next_up(f);
    }
    f
}

/// The conversion of `v` to `dst`, or None where the spec leaves it undefined.
fn convert(v: Val, dst: Ty, sat: bool, mode: Mode) -> Option<Val> {
    match (v, dst.float) {
        (Val::I(i), false) => Some(Val::I(dst.convert_int(i, sat))),
        (Val::I(i), true) => Some(Val::F(int_to_float(i, mode))),
        (Val::F(f), true) => Some(Val::F(f)),
        (Val::F(f), false) => dst.convert_float(f64::from(f), sat, mode).map(Val::I),
    }
}

fn same(a: Val, b: Val) -> bool {
    match (a, b) {
        (Val::I(x), Val::I(y)) => x == y,
        (Val::F(x), Val::F(y)) => (x.is_nan() && y.is_nan()) || x.to_bits() == y.to_bits(),
        _ => false,
    }
}

/// The source values of one type, a multiple of 4 long.
fn sources(t: Ty, rng: &mut Rng) -> Vec<Val> {
    let mut v: Vec<Val> = Vec::new();
    if t.float {
        let mut f = builtins_harness::special_f32();
        for ty in TYPES.iter().filter(|t| !t.float) {
            for edge in [ty.min() as f64, ty.max() as f64 + 1.0] {
                let e = edge as f32;
                f.extend([e, next_up(e), next_down(e), -e]);
            }
        }
        for k in -10..=10 {
            let h = k as f32 + 0.5;
            f.extend([h, next_up(h), next_down(h)]);
        }
        for i in 0..6000 {
            f.push(if i % 2 == 0 {
                rng.any_f32()
            } else {
                rng.f32_exp(-3, 66)
            });
        }
        v.extend(f.into_iter().map(Val::F));
    } else if t.bits <= 16 {
        v.extend((t.min()..=t.max()).map(Val::I));
    } else {
        for k in 0..=t.bits as i32 {
            let p = 1i128 << k;
            for d in [-1, 0, 1] {
                v.extend([Val::I(t.wrap(p + d)), Val::I(t.wrap(-p + d))]);
            }
        }
        for _ in 0..6000 {
            let r = rng.next() as i128;
            // Random widths too, so small and large magnitudes both occur.
            let shift = rng.below(u64::from(t.bits)) as u32;
            v.push(Val::I(t.wrap(r >> shift)));
        }
    }
    while v.len() % 4 != 0 {
        v.push(v[0]);
    }
    v
}

#[test]
fn convert_every_scalar_pair_every_mode() {
    let runner = Runner::new();
    let mut rng = Rng::new(0xc0_4e47);
    let mut wrong = Vec::new();
    let mut checked = 0usize;
    for src in TYPES {
        let vals = sources(src, &mut rng);
        let n = vals.len();
        let mut source = String::new();
        for dst in TYPES {
            let vs = variants(dst);
            let body: String = vs
                .iter()
                .enumerate()
                .map(|(k, (_, _, s))| {
                    format!(
                        "o[i * {}ul + {k}] = convert_{}{s}(a[i]);\n",
                        vs.len(),
                        dst.name
                    )
                })
                .collect();
            source += &format!(
                "kernel void to_{d}(global {d}* o, global const {s}* a) {{\n\
                 size_t i = get_global_id(0);\n{body}}}\n",
                d = dst.name,
                s = src.name
            );
            // 4-wide: the same conversions lane by lane.
            let body4: String = vs
                .iter()
                .enumerate()
                .map(|(k, (_, _, s))| {
                    format!(
                        "vstore4(convert_{}4{s}(vload4(i, a)), i * {}ul + {k}, o);\n",
                        dst.name,
                        vs.len()
                    )
                })
                .collect();
            source += &format!(
                "kernel void to_{d}4(global {d}* o, global const {s}* a) {{\n\
                 size_t i = get_global_id(0);\n{body4}}}\n",
                d = dst.name,
                s = src.name
            );
        }
        let program = runner.build(&source, "");
        for dst in TYPES {
            let vs = variants(dst);
            for width in [1usize, 4] {
                let name = if width == 1 {
                    format!("to_{}", dst.name)
                } else {
                    format!("to_{}4", dst.name)
                };
                let mut bufs = vec![vec![0u8; n * vs.len() * dst.bytes()], encode(src, &vals)];
                runner.run(&program, &name, &mut bufs, n / width);
                let got = decode(dst, &bufs[0]);
                for (i, &v) in vals.iter().enumerate() {
                    for (k, (sat, mode, suffix)) in vs.iter().enumerate() {
                        // Width 4 stores lane l of group g at (g * V + k) * 4 + l.
                        let at = if width == 1 {
                            i * vs.len() + k
                        } else {
                            ((i / 4) * vs.len() + k) * 4 + i % 4
                        };
                        let Some(want) = convert(v, dst, *sat, *mode) else {
                            continue;
                        };
                        checked += 1;
                        if !same(got[at], want) && wrong.len() < 40 {
                            wrong.push(format!(
                                "convert_{}{}{suffix}(({}) {v:?}) = {:?}, want {want:?}",
                                dst.name,
                                if width == 4 { "4" } else { "" },
                                src.name,
                                got[at]
                            ));
                        }
                    }
                }
            }
        }
    }
    println!("{checked} conversions checked");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// 6.4.4: as_<type> reinterprets the bytes of a value of the same size unchanged.
#[test]
fn as_type_keeps_the_bits() {
    let groups: [&[&str]; 4] = [
        &["short", "ushort", "char2", "uchar2"],
        &[
            "int", "uint", "float", "char4", "uchar4", "short2", "ushort2",
        ],
        &[
            "long", "ulong", "int2", "uint2", "float2", "short4", "ushort4", "char8", "uchar8",
        ],
        &[
            "int4", "uint4", "float4", "long2", "ulong2", "short8", "char16", "uchar16",
        ],
    ];
    let runner = Runner::new();
    let mut rng = Rng::new(0xa5);
    let mut wrong = Vec::new();
    for (g, group) in groups.iter().enumerate() {
        let size = 2usize << g;
        let n = 256;
        let input: Vec<u8> = (0..n * size).map(|_| rng.next() as u8).collect();
        wrong.extend(as_type_changes(&runner, group, |_, _| true, &input, n));
    }
    assert!(wrong.is_empty(), "as_<type> changed bits: {wrong:?}");
}

#[test]
fn sources_cover_whole_small_types() {
    // The exhaustive sweep really is exhaustive for 8- and 16-bit sources.
    let mut rng = Rng::new(1);
    assert_eq!(sources(TYPES[0], &mut rng).len(), 256);
    assert_eq!(sources(TYPES[3], &mut rng).len(), 65536);
    let v: Vec<Val> = decode(TYPES[0], &[0x80, 0x7f]);
    assert!(same(v[0], Val::I(-128)) && same(v[1], Val::I(127)));
}
