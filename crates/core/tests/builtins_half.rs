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
