//! vload_half / vstore_half (OpenCL C 6.15.7) through the whole pipeline: half values widen to
//! float exactly, and floats narrow to half in each rounding mode the builtins name. The
//! reference is a host conversion written here, independent of the device's.
//!
//! This stays in Rust: it sweeps values against the host conversion written here.

use crate::builtins_harness;

use builtins_harness::types::half_value;
use builtins_harness::{bytes, values, Rng, Runner};

const SOURCE: &str = r#"
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void widen(global const half *in, global float *out) {
    size_t i = get_global_id(0);
    out[i] = vload_half(i, in);
}
kernel void narrow(global const float *in, global half *rte, global half *rtz, global half *rtp,
                   global half *rtn) {
    size_t i = get_global_id(0);
    float x = in[i];
    vstore_half(x, i, rte);
    vstore_half_rtz(x, i, rtz);
    vstore_half_rtp(x, i, rtp);
    vstore_half_rtn(x, i, rtn);
}
kernel void round_trip(global const float *in, global float *out) {
    size_t i = get_global_id(0);
    out[i] = (float)(half)in[i];
}
kernel void round_trip4(global const float4 *in, global float4 *out) {
    size_t i = get_global_id(0);
    out[i] = convert_float4(convert_half4(in[i]));
}
kernel void narrow4(global const float4 *in, global half *out) {
    size_t i = get_global_id(0);
    vstore_half4_rte(in[i], i, out);
}
kernel void fused(global const half *a, global const half *b, global const half *c,
                  global half *f, global half *m) {
    size_t i = get_global_id(0);
    f[i] = fma(a[i], b[i], c[i]);
    m[i] = mad(a[i], b[i], c[i]);
}
"#;

/// The half nearest to x below and above (by scanning the ordered finite halves); x finite.
fn neighbours(x: f64, halves: &[(f64, u16)]) -> (u16, u16) {
    let i = halves.partition_point(|&(v, _)| v <= x);
    let below = halves[i.saturating_sub(1)];
    if below.0 == x {
        return (below.1, below.1);
    }
    let above = halves.get(i).copied().unwrap_or((f64::INFINITY, 0x7c00));
    (below.1, above.1)
}

#[test]
fn half_values_widen_exactly() {
    let r = Runner::new();
    let p = r.build(SOURCE, "");
    let all: Vec<u16> = (0..=u16::MAX).collect();
    let mut bufs = vec![bytes(&all), vec![0u8; 4 * all.len()]];
    r.run(&p, "widen", &mut bufs, all.len());
    let got: Vec<f32> = values(&bufs[1]);
    for (&bits, &f) in all.iter().zip(&got) {
        let want = half_value(bits);
        if want.is_nan() {
            assert!(f.is_nan(), "{bits:#06x}");
        } else {
            assert_eq!(f64::from(f), want, "{bits:#06x}");
            assert_eq!(f.is_sign_negative(), bits >> 15 == 1, "sign of {bits:#06x}");
        }
    }
}

#[test]
fn floats_narrow_in_every_rounding_mode() {
    // The finite halves in order of value (-0 and +0 both kept, -0 first).
    let mut halves: Vec<(f64, u16)> = (0..=u16::MAX)
        .filter(|b| b & 0x7c00 != 0x7c00)
        .map(|b| (half_value(b), b))
        .collect();
    halves.sort_by(|a, b| a.0.total_cmp(&b.0).then((b.1 >> 15).cmp(&(a.1 >> 15))));
    halves.dedup_by(|a, b| a.0 == b.0);
    let mut rng = Rng::new(0x5eed);
    let mut xs: Vec<f32> = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        65504.0,
        65519.0,
        65520.0,
        1e6,
        -1e6,
        2f32.powi(-24),
        2f32.powi(-26),
        -2f32.powi(-26),
        1.0 + 2f32.powi(-11),
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -f32::NAN,
        f32::from_bits(0x7f80_0001),
        f32::from_bits(0xffc1_2345),
    ];
    while xs.len() < 20_000 {
        let x = rng.f32_exp(-30, 17);
        xs.push(if rng.below(2) == 0 { x } else { -x });
    }
    let r = Runner::new();
    let p = r.build(SOURCE, "");
    let n = xs.len();
    let mut bufs = vec![
        bytes(&xs),
        vec![0u8; 2 * n],
        vec![0u8; 2 * n],
        vec![0u8; 2 * n],
        vec![0u8; 2 * n],
    ];
    r.run(&p, "narrow", &mut bufs, n);
    let modes: Vec<Vec<u16>> = (1..5).map(|i| values(&bufs[i])).collect();
    for (i, &x) in xs.iter().enumerate() {
        let xv = f64::from(x);
        let (rte, rtz, rtp, rtn) = (modes[0][i], modes[1][i], modes[2][i], modes[3][i]);
        if !x.is_finite() {
            // "The half data type must represent [...] infinities and NaN" (OpenCL C 6.3.1.2):
            // an infinity stays one in every mode (IEEE 754 converts it exactly), a NaN a NaN.
            let sign = (x.to_bits() >> 16) as u16 & 0x8000;
            for h in [rte, rtz, rtp, rtn] {
                if x.is_nan() {
                    assert!(h & 0x7c00 == 0x7c00 && h & 0x3ff != 0, "{x} to {h:#06x}");
                } else {
                    assert_eq!(h, 0x7c00 | sign, "{x}");
                }
            }
            continue;
        }
        if xv.abs() > 65504.0 {
            let (max, inf) = (
                0x7bffu16 | (x.to_bits() >> 16) as u16 & 0x8000,
                0x7c00u16 | (x.to_bits() >> 16) as u16 & 0x8000,
            );
            assert_eq!(rtz, max, "rtz {x}");
            assert_eq!(rtp, if x > 0.0 { inf } else { max }, "rtp {x}");
            assert_eq!(rtn, if x < 0.0 { inf } else { max }, "rtn {x}");
            if xv.abs() >= 65520.0 {
                assert_eq!(rte, inf, "rte {x}");
            }
            continue;
        }
        let (lo, hi) = neighbours(xv, &halves);
        let (lv, hv) = (half_value(lo), half_value(hi));
        // Directed modes give the neighbour their direction names, by value.
        assert_eq!(half_value(rtn), lv, "rtn {x}");
        assert_eq!(half_value(rtp), hv, "rtp {x}");
        assert_eq!(half_value(rtz), if x >= 0.0 { lv } else { hv }, "rtz {x}");
        // Nearest, ties to the even bit pattern.
        let want = if xv - lv < hv - xv || (xv - lv == hv - xv && lo & 1 == 0) {
            lv
        } else {
            hv
        };
        assert_eq!(half_value(rte), want, "rte {x}");
        // Zeros keep the sign of x.
        if half_value(rte) == 0.0 {
            assert_eq!(rte >> 15 == 1, x.is_sign_negative(), "sign of rte {x}");
        }
    }
    // The vector store rounds each lane the same way.
    let v: Vec<f32> = xs[..4096].to_vec();
    let mut vb = vec![bytes(&v), vec![0u8; 2 * v.len()]];
    r.run(&p, "narrow4", &mut vb, v.len() / 4);
    let got: Vec<u16> = values(&vb[1]);
    assert_eq!(got, modes[0][..4096].to_vec());
    // A float rounded to half and widened again (a `half` operation computed in float, as the
    // device computes them) is the half `vstore_half` stores, widened; a NaN stays a NaN.
    for (kernel, lanes) in [("round_trip", 1), ("round_trip4", 4)] {
        let items = n / lanes;
        let mut rb = vec![bytes(&xs[..lanes * items]), vec![0u8; 4 * lanes * items]];
        r.run(&p, kernel, &mut rb, items);
        let got: Vec<f32> = values(&rb[1]);
        for (i, &y) in got.iter().enumerate() {
            let want = half_value(modes[0][i]);
            if want.is_nan() {
                assert!(y.is_nan(), "{kernel} {}", xs[i]);
            } else {
                assert_eq!(y.to_bits(), (want as f32).to_bits(), "{kernel} {}", xs[i]);
            }
        }
    }
}

/// The finite half nearest to `v` (a value times 2^48, as every product of two halves and every
/// half is an integer multiple of 2^-48), ties to the even bit pattern; infinity from 65520 on.
fn nearest_half(v: i128, halves: &[(i128, u16)]) -> u16 {
    let sign = if v < 0 { 0x8000 } else { 0 };
    let m = v.abs();
    if m >= 65520i128 << 48 {
        return 0x7c00 | sign;
    }
    let i = halves.partition_point(|&(x, _)| x <= m);
    let (lv, lo) = halves[i - 1];
    let (hv, hi) = halves[i];
    let pick = if m - lv < hv - m || (m - lv == hv - m && lo & 1 == 0) {
        lo
    } else {
        hi
    };
    // A result rounded to zero keeps the sign of the sum (an exact zero is not asked for).
    pick | sign
}

/// `fma` of halves is correctly rounded (Table 69 asks it of `fma` through 6.15.2's "infinitely
/// precise" definition), and `mad`, whose half accuracy Table 69 leaves implementation-defined,
/// is ferrocl's: the product and sum in float (the product exact), rounded once to half. Over
/// random halves and hard cases: a product on a tie between halves, decided by the least
/// addend, whose exact sum needs more bits than a float has.
#[test]
fn half_fma_is_correctly_rounded_and_mad_rounds_once_from_float() {
    // The positive finite halves by value, times 2^48 (exact integers), and 2^16 past them:
    // infinity's bits, where a sum from 65520 on rounds.
    let mut halves: Vec<(i128, u16)> = (0..0x7c00u16)
        .map(|b| ((half_value(b) * 2f64.powi(48)) as i128, b))
        .collect();
    halves.push((1 << 64, 0x7c00));
    let scaled = |h: u16| (half_value(h) * 2f64.powi(24)) as i128;
    let mut cases: Vec<(u16, u16, u16)> = vec![
        (0x7a00, 0x3c01, 0x0001),
        (0x7a00, 0x3c01, 0x8001),
        (0x3e00, 0x3c01, 0x0001),
        (0x3e00, 0x3c01, 0x8001),
        (0x7bff, 0x3c00, 0x3c00),
        (0x7bff, 0x4000, 0xfbff),
        (0x0001, 0x0001, 0x0000),
    ];
    let mut rng = Rng::new(0xf3a);
    let finite = |rng: &mut Rng| loop {
        let h = rng.below(0x10000) as u16;
        if h & 0x7c00 != 0x7c00 {
            return h;
        }
    };
    while cases.len() < 8192 {
        let (a, b, c) = (finite(&mut rng), finite(&mut rng), finite(&mut rng));
        cases.push((a, b, c));
    }
    // An exact zero takes its sign from the operands' (and the rounding mode): left out.
    cases.retain(|&(a, b, c)| scaled(a) * scaled(b) + (scaled(c) << 24) != 0);
    let n = cases.len();
    let col = |k: usize| -> Vec<u16> { cases.iter().map(|t| [t.0, t.1, t.2][k]).collect() };
    let r = Runner::new();
    let p = r.build(SOURCE, "");
    let mut bufs = vec![
        bytes(&col(0)),
        bytes(&col(1)),
        bytes(&col(2)),
        vec![0u8; 2 * n],
        vec![0u8; 2 * n],
    ];
    r.run(&p, "fused", &mut bufs, n);
    let (f, m): (Vec<u16>, Vec<u16>) = (values(&bufs[3]), values(&bufs[4]));
    for (i, &(a, b, c)) in cases.iter().enumerate() {
        let exact = scaled(a) * scaled(b) + (scaled(c) << 24);
        assert_eq!(
            f[i],
            nearest_half(exact, &halves),
            "fma({a:#06x}, {b:#06x}, {c:#06x})"
        );
        let (fa, fb, fc) = (
            half_value(a) as f32,
            half_value(b) as f32,
            half_value(c) as f32,
        );
        let float = fa * fb + fc;
        // The float sum is a multiple of 2^-48 below 2^33: exact in f64, then as an integer.
        let want = nearest_half((f64::from(float) * 2f64.powi(48)) as i128, &halves);
        assert_eq!(
            m[i], want,
            "mad({a:#06x}, {b:#06x}, {c:#06x}) = {float} in float"
        );
    }
}
