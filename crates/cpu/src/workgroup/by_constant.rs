//! Arithmetic by a constant, as cheaper instructions.
//!
//! Multiplication of a vector of integers by a constant with one or two bits set becomes
//! shifts (and an add): x86-64's SIMD multiplies (`pmulld`, `vpmullq`) take 10 to 15 cycles
//! on many machines, and `a[y][x]` addressing multiplies every lane by the row's size.
//!
//! Division and remainder of 32-bit integers by a constant become a multiplication
//! (Granlund and Montgomery, "Division by Invariant Integers using Multiplication", PLDI
//! 1994): the machine's divide instruction takes tens of cycles and has no SIMD form, so a
//! `k / 18` in a region loop would cost more than the rest of the work-item's code.
//!
//! For a divisor d ≥ 1 and any p with e = ⌈2^p / d⌉·d − 2^p ≤ 2^(p−32), m = ⌈2^p / d⌉ gives
//! ⌊n·m / 2^p⌋ = ⌊n / d⌋ for every n < 2^32: n·m / 2^p = n/d + n·e / (d·2^p), and the second
//! term is below 1/d, too little to reach the next multiple of 1/d past n/d's fraction, which
//! is at most (d − 1)/d. p = 32 + ⌈log2 d⌉ always qualifies (e < d ≤ 2^(p−32)), so the
//! smallest p that does gives m < 2^33. Where m ≤ 2^32, n·m < 2^64 is exact in 64-bit
//! arithmetic; otherwise, with m = 2^32 + m', ⌊n·m / 2^p⌋ = ⌊(n + ⌊n·m' / 2^32⌋) / 2^(p−32)⌋,
//! every step of which fits 64 bits. Signed division divides the magnitudes and gives the
//! quotient the sign of n·d, rounding toward zero as OpenCL C does (6.3.d: "the integer
//! division ... truncates"); the remainder is n − q·d either way.

use ferrocl_ir::{BinaryOp, ConvOp, FunctionBuilder, Type, Value};

/// Emits `x * c` (`x` of type `ty`, a vector of integers; `c` the constant's bits) as shifts
/// where `c` has one or two bits set: `(x << a) + (x << b)` wraps exactly as the product does.
/// `None` where the multiplication is left as it is.
pub(super) fn multiply(
    b: &mut FunctionBuilder<'_>,
    x: Value,
    bits: u64,
    ty: Type,
) -> Option<Value> {
    let lane = ty.lane_type();
    if !ty.is_vector() || !lane.is_int() || lane == Type::I8 || lane == Type::I1 {
        return None;
    }
    let width = lane.bits();
    let c = if width >= 64 {
        bits
    } else {
        bits & ((1 << width) - 1)
    };
    let (hi, lo) = (c.checked_ilog2()?, c.trailing_zeros());
    let shl = |b: &mut FunctionBuilder<'_>, k: u32| {
        if k == 0 {
            x
        } else {
            let k = b.iconst(ty, i64::from(k));
            b.binary(BinaryOp::Shl, x, k)
        }
    };
    match c.count_ones() {
        1 => Some(shl(b, lo)),
        2 => {
            let (a, l) = (shl(b, hi), shl(b, lo));
            Some(b.iadd(a, l))
        }
        _ => None,
    }
}

/// The multiplier m and shift p that divide every 32-bit unsigned n by `d` (d ≥ 1).
fn magic(d: u64) -> (u64, u32) {
    let l = 64 - (d - 1).leading_zeros(); // ⌈log2 d⌉
    let mut p = 32;
    loop {
        let m = (1u128 << p).div_ceil(u128::from(d));
        let e = m * u128::from(d) - (1u128 << p);
        if e <= 1u128 << (p - 32) {
            return (m as u64, p);
        }
        debug_assert!(p < 32 + l, "p = 32 + ceil(log2 d) qualifies");
        p += 1;
    }
}

/// Emits `x op d` (`op` a division or remainder, `x` of type `ty`: `i32` or a vector of
/// `i32`, `d` its constant divisor's bits) as multiplications and shifts; `None` where the
/// operation is left as it is (other types, divisors 0, ±1 and the most negative one, whose
/// cases the code generator defines).
pub(super) fn divide(
    b: &mut FunctionBuilder<'_>,
    op: BinaryOp,
    x: Value,
    bits: u64,
    ty: Type,
) -> Option<Value> {
    if ty.lane_type() != Type::I32 {
        return None;
    }
    let d32 = bits as u32;
    let signed = matches!(op, BinaryOp::Sdiv | BinaryOp::Srem);
    let magnitude = if signed {
        (d32 as i32).unsigned_abs()
    } else {
        d32
    };
    if magnitude < 2 || (signed && magnitude == 1 << 31) {
        return None;
    }
    let wide = ty.with_lane_type(Type::I64)?;
    let (m, p) = magic(u64::from(magnitude));
    let unsigned_div = |b: &mut FunctionBuilder<'_>, n: Value| {
        let n = b.convert(ConvOp::Zext, n, wide);
        let q = if m <= 1 << 32 {
            let m = b.iconst(wide, m as i64);
            let prod = b.imul(n, m);
            let p = b.iconst(wide, i64::from(p));
            b.binary(BinaryOp::Lshr, prod, p)
        } else {
            let low = b.iconst(wide, (m - (1 << 32)) as i64);
            let prod = b.imul(n, low);
            let k32 = b.iconst(wide, 32);
            let t = b.binary(BinaryOp::Lshr, prod, k32);
            let sum = b.iadd(n, t);
            let p = b.iconst(wide, i64::from(p - 32));
            b.binary(BinaryOp::Lshr, sum, p)
        };
        b.convert(ConvOp::Trunc, q, ty)
    };
    let q = if signed {
        // t: all ones where n < 0; |n| = (n ^ t) - t, and the same turns the quotient of
        // the magnitudes negative where the signs of n and d differ.
        let k31 = b.iconst(ty, 31);
        let t = b.binary(BinaryOp::Ashr, x, k31);
        let flipped = b.binary(BinaryOp::Bxor, x, t);
        let abs = b.binary(BinaryOp::Isub, flipped, t);
        let qa = unsigned_div(b, abs);
        let s = if (d32 as i32) < 0 {
            let ones = b.iconst(ty, -1);
            b.binary(BinaryOp::Bxor, t, ones)
        } else {
            t
        };
        let flipped = b.binary(BinaryOp::Bxor, qa, s);
        b.binary(BinaryOp::Isub, flipped, s)
    } else {
        unsigned_div(b, x)
    };
    Some(match op {
        BinaryOp::Sdiv | BinaryOp::Udiv => q,
        _ => {
            let qd = match multiply(b, q, u64::from(d32), ty) {
                Some(qd) => qd,
                None => {
                    let d = b.iconst(ty, i64::from(d32 as i32));
                    b.imul(q, d)
                }
            };
            b.binary(BinaryOp::Isub, x, qd)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::magic;

    /// The quotient the multiplier gives, as the emitted code computes it (in 64 bits).
    fn quotient(n: u32, d: u32) -> u32 {
        let (m, p) = magic(u64::from(d));
        let n = u64::from(n);
        if m <= 1 << 32 {
            ((n * m) >> p) as u32
        } else {
            let t = (n * (m - (1 << 32))) >> 32;
            ((n + t) >> (p - 32)) as u32
        }
    }

    #[test]
    fn magic_numbers_divide_exactly() {
        let divisors = [
            2u32, 3, 5, 6, 7, 9, 10, 11, 18, 25, 100, 641, 1000, 65535, 65537,
        ];
        let divisors = divisors.into_iter().chain([
            (1 << 31) - 1,
            1 << 31,
            (1 << 31) + 1,
            u32::MAX - 1,
            u32::MAX,
        ]);
        for d in divisors {
            let (m, _) = magic(u64::from(d));
            assert!(m < 1 << 33, "d = {d}: m = {m}");
            // The quotient changes at multiples of d: check either side of them, and the ends.
            let mut ns = vec![0, 1, u32::MAX, u32::MAX - 1, 1 << 31, (1 << 31) - 1];
            for k in [1u64, 2, 3, 1000, 12345, u64::from(u32::MAX / d)] {
                let at = k * u64::from(d);
                for n in [at.wrapping_sub(1), at, at + 1] {
                    if let Ok(n) = u32::try_from(n) {
                        ns.push(n);
                    }
                }
            }
            for n in ns {
                assert_eq!(quotient(n, d), n / d, "{n} / {d}");
            }
        }
    }

    #[test]
    fn every_numerator_for_small_divisors() {
        for d in [3u32, 7, 18, 641, 0x7fff_ffff] {
            let mut n = 0u32;
            loop {
                assert_eq!(quotient(n, d), n / d, "{n} / {d}");
                match n.checked_add(9973) {
                    Some(next) => n = next,
                    None => break,
                }
            }
        }
    }
}
