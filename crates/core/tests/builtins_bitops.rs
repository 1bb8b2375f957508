//! The extended bit operations of cl_khr_extended_bit_ops (OpenCL C 6.15.3.1) and the integer
//! dot products of cl_khr_integer_dot_product, on the CPU device, exact against host
//! implementations: every type, every defined (offset, count) pair with random operands,
//! scalar and 4-wide vector forms.
//!
//! These stay in Rust: every (offset, count) pair with random operands, against operations
//! written here.

use crate::builtins_harness;

use builtins_harness::{bytes, values, Rng, Runner};

/// The `count` low bits.
fn low(count: u32) -> u64 {
    if count == 0 {
        0
    } else {
        u64::MAX >> (64 - count)
    }
}

fn truncate(x: u64, bits: u32) -> u64 {
    x & low(bits)
}

fn insert(base: u64, ins: u64, off: u32, count: u32, bits: u32) -> u64 {
    let mask = low(count).checked_shl(off).unwrap_or(0);
    truncate(
        (base & !mask) | (ins.checked_shl(off).unwrap_or(0) & mask),
        bits,
    )
}

fn extract_unsigned(base: u64, off: u32, count: u32) -> u64 {
    base.checked_shr(off).unwrap_or(0) & low(count)
}

fn extract_signed(base: u64, off: u32, count: u32, bits: u32) -> u64 {
    let field = extract_unsigned(base, off, count);
    if count == 0 {
        return 0;
    }
    let up = 64 - count;
    truncate((((field << up) as i64) >> up) as u64, bits)
}

fn reverse(x: u64, bits: u32) -> u64 {
    x.reverse_bits() >> (64 - bits)
}

/// (type, unsigned type, signed type, bits)
const TYPES: &[(&str, &str, &str, u32)] = &[
    ("char", "uchar", "char", 8),
    ("uchar", "uchar", "char", 8),
    ("short", "ushort", "short", 16),
    ("ushort", "ushort", "short", 16),
    ("int", "uint", "int", 32),
    ("uint", "uint", "int", 32),
    ("long", "ulong", "long", 64),
    ("ulong", "ulong", "long", 64),
];

fn to_bytes(v: &[u64], bits: u32) -> Vec<u8> {
    v.iter()
        .flat_map(|&x| x.to_le_bytes()[..bits as usize / 8].to_vec())
        .collect()
}

fn from_bytes(b: &[u8], bits: u32) -> Vec<u64> {
    b.chunks(bits as usize / 8)
        .map(|c| {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            u64::from_le_bytes(w)
        })
        .collect()
}

#[test]
fn extended_bit_operations_are_exact() {
    let runner = Runner::new();
    let mut rng = Rng::new(0xb17);
    for &(t, ut, st, bits) in TYPES {
        let source = format!(
            r#"
kernel void scalar(global const {t} *base, global const {t} *ins, global const uint *off,
                   global const uint *cnt, global {t} *r_ins, global {st} *r_s, global {ut} *r_u,
                   global {t} *r_rev) {{
    size_t i = get_global_id(0);
    r_ins[i] = bitfield_insert(base[i], ins[i], off[i], cnt[i]);
    r_s[i] = bitfield_extract_signed(base[i], off[i], cnt[i]);
    r_u[i] = bitfield_extract_unsigned(base[i], off[i], cnt[i]);
    r_rev[i] = bit_reverse(base[i]);
}}
kernel void vector(global const {t}4 *base, global const {t}4 *ins, global const uint *off,
                   global const uint *cnt, global {t}4 *r_ins, global {st}4 *r_s, global {ut}4 *r_u,
                   global {t}4 *r_rev) {{
    size_t i = get_global_id(0);
    r_ins[i] = bitfield_insert(base[i], ins[i], off[4 * i], cnt[4 * i]);
    r_s[i] = bitfield_extract_signed(base[i], off[4 * i], cnt[4 * i]);
    r_u[i] = bitfield_extract_unsigned(base[i], off[4 * i], cnt[4 * i]);
    r_rev[i] = bit_reverse(base[i]);
}}
"#
        );
        let program = runner.build(&source, "-cl-std=CL3.0");
        // Every (offset, count) with offset + count <= bits, twice, in groups of four lanes
        // that share them (the vector forms take one offset and count).
        let (mut base, mut ins, mut off, mut cnt) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for o in 0..=bits {
            for c in 0..=bits - o {
                for _ in 0..8 {
                    base.push(truncate(rng.next(), bits));
                    ins.push(truncate(rng.next(), bits));
                    off.push(o);
                    cnt.push(c);
                }
            }
        }
        let n = base.len();
        for kernel in ["scalar", "vector"] {
            let mut buffers = vec![
                to_bytes(&base, bits),
                to_bytes(&ins, bits),
                bytes(&off),
                bytes(&cnt),
                vec![0u8; n * bits as usize / 8],
                vec![0u8; n * bits as usize / 8],
                vec![0u8; n * bits as usize / 8],
                vec![0u8; n * bits as usize / 8],
            ];
            let items = if kernel == "scalar" { n } else { n / 4 };
            runner.run(&program, kernel, &mut buffers, items);
            let (r_ins, r_s) = (from_bytes(&buffers[4], bits), from_bytes(&buffers[5], bits));
            let (r_u, r_rev) = (from_bytes(&buffers[6], bits), from_bytes(&buffers[7], bits));
            for i in 0..n {
                // The vector forms use the offset and count of their group's first lane.
                let j = if kernel == "scalar" { i } else { i & !3 };
                let (o, c) = (off[j], cnt[j]);
                let what = format!(
                    "{t} {kernel} base {:#x} ins {:#x} offset {o} count {c}",
                    base[i], ins[i]
                );
                assert_eq!(
                    r_ins[i],
                    insert(base[i], ins[i], o, c, bits),
                    "bitfield_insert {what}"
                );
                assert_eq!(
                    r_s[i],
                    extract_signed(base[i], o, c, bits),
                    "bitfield_extract_signed {what}"
                );
                assert_eq!(
                    r_u[i],
                    extract_unsigned(base[i], o, c),
                    "bitfield_extract_unsigned {what}"
                );
                assert_eq!(r_rev[i], reverse(base[i], bits), "bit_reverse {what}");
            }
        }
    }
}

fn dot(a: [i32; 4], b: [i32; 4]) -> i64 {
    (0..4).map(|i| i64::from(a[i]) * i64::from(b[i])).sum()
}

#[test]
fn integer_dot_products_are_exact() {
    let runner = Runner::new();
    let source = r#"
kernel void dots(global const uint *a, global const uint *b, global const int *acc,
                 global uint *uu, global int *ss, global int *us, global int *su,
                 global uint *uu_acc, global int *ss_acc, global int *us_acc, global int *su_acc,
                 global uint *p_uu, global int *p_ss, global int *p_us, global int *p_su,
                 global uint *pa_uu, global int *pa_ss, global int *pa_us, global int *pa_su) {
    size_t i = get_global_id(0);
    uchar4 ua = as_uchar4(a[i]), ub = as_uchar4(b[i]);
    char4 sa = as_char4(a[i]), sb = as_char4(b[i]);
    uu[i] = dot(ua, ub);
    ss[i] = dot(sa, sb);
    us[i] = dot(ua, sb);
    su[i] = dot(sa, ub);
    uu_acc[i] = dot_acc_sat(ua, ub, (uint)acc[i]);
    ss_acc[i] = dot_acc_sat(sa, sb, acc[i]);
    us_acc[i] = dot_acc_sat(ua, sb, acc[i]);
    su_acc[i] = dot_acc_sat(sa, ub, acc[i]);
    p_uu[i] = dot_4x8packed_uu_uint(a[i], b[i]);
    p_ss[i] = dot_4x8packed_ss_int(a[i], b[i]);
    p_us[i] = dot_4x8packed_us_int(a[i], b[i]);
    p_su[i] = dot_4x8packed_su_int(a[i], b[i]);
    pa_uu[i] = dot_acc_sat_4x8packed_uu_uint(a[i], b[i], (uint)acc[i]);
    pa_ss[i] = dot_acc_sat_4x8packed_ss_int(a[i], b[i], acc[i]);
    pa_us[i] = dot_acc_sat_4x8packed_us_int(a[i], b[i], acc[i]);
    pa_su[i] = dot_acc_sat_4x8packed_su_int(a[i], b[i], acc[i]);
}
"#;
    let program = runner.build(source, "-cl-std=CL3.0");
    let mut rng = Rng::new(0xd07);
    let n = 4096;
    let mut a: Vec<u32> = (0..n).map(|_| rng.next() as u32).collect();
    let mut b: Vec<u32> = (0..n).map(|_| rng.next() as u32).collect();
    // Extremes: all bytes 0x80 (-128) and 0xff (255 / -1).
    a[..4].copy_from_slice(&[0x8080_8080, 0xffff_ffff, 0x8080_8080, 0]);
    b[..4].copy_from_slice(&[0x8080_8080, 0xffff_ffff, 0x7f7f_7f7f, 0xffff_ffff]);
    // Accumulators near both saturation limits, and small ones.
    let acc: Vec<i32> = (0..n)
        .map(|i| match i % 4 {
            0 => i32::MAX - (rng.below(300_000) as i32),
            1 => i32::MIN + (rng.below(300_000) as i32),
            2 => -1 - (rng.below(300_000) as i32),
            _ => rng.next() as i32,
        })
        .collect();
    let mut buffers = vec![bytes(&a), bytes(&b), bytes(&acc)];
    buffers.extend((0..16).map(|_| vec![0u8; 4 * n]));
    runner.run(&program, "dots", &mut buffers, n);
    let out: Vec<Vec<i32>> = buffers[3..].iter().map(|b| values::<i32>(b)).collect();
    let unsigned = |x: u32| x.to_le_bytes().map(i32::from);
    let signed = |x: u32| x.to_le_bytes().map(|v| i32::from(v as i8));
    let sat_i = |x: i64| x.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
    let sat_u = |x: i64| x.clamp(0, i64::from(u32::MAX)) as u32 as i32;
    for i in 0..n {
        let (x, y, c) = (a[i], b[i], i64::from(acc[i]));
        let uu = dot(unsigned(x), unsigned(y));
        let ss = dot(signed(x), signed(y));
        let us = dot(unsigned(x), signed(y));
        let su = dot(signed(x), unsigned(y));
        let uc = i64::from(acc[i] as u32);
        let want = [
            uu as u32 as i32,
            ss as i32,
            us as i32,
            su as i32,
            sat_u(uu + uc),
            sat_i(ss + c),
            sat_i(us + c),
            sat_i(su + c),
        ];
        for (k, w) in want.iter().enumerate() {
            let what = format!("output {k}, a {x:#010x} b {y:#010x} acc {}", acc[i]);
            assert_eq!(out[k][i], *w, "vector form, {what}");
            assert_eq!(out[k + 8][i], *w, "packed form, {what}");
        }
    }
}
