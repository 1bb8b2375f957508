//! Integer functions (6.15.3) expanded in place; the extended bit operations and the integer
//! dot products are calls of the builtin library. (`min`, `max` and `clamp` are in
//! `common.rs`, whose families they share.)

use super::*;
use catalogue::Integer;

/// An integer function; sema gives it integer arguments.
pub(super) fn integer(fl: &mut FnLower, f: Integer, c: &Call) -> Res<Option<Value>> {
    use Integer as I;
    let signed = c.signed(fl);
    let unary = match f {
        I::Popcount => Some(IrUnary::Popcnt),
        I::Clz => Some(IrUnary::Clz),
        I::Ctz => Some(IrUnary::Ctz),
        _ => None,
    };
    if let Some(op) = unary {
        let v = fl.val(&c.args[0])?;
        return Ok(Some(fl.b.unary(op, v)));
    }
    let binary = match f {
        I::MulHi if signed => Some(BinaryOp::Smulhi),
        I::MulHi => Some(BinaryOp::Umulhi),
        I::Rotate => Some(BinaryOp::Rotl),
        // 6.15.3: mul24 multiplies values that fit in 24 bits; the low 32 bits of the
        // product are the result.
        I::Mul24 => Some(BinaryOp::Imul),
        _ => None,
    };
    if let Some(op) = binary {
        let a = fl.val(&c.args[0])?;
        let b = widened(fl, &c.args[1], a)?;
        return Ok(Some(fl.b.binary(op, a, b)));
    }
    match f {
        I::Mad24 | I::MadHi => {
            let a = fl.val(&c.args[0])?;
            let b = fl.val(&c.args[1])?;
            let d = fl.val(&c.args[2])?;
            let op = match (f, signed) {
                (I::Mad24, _) => BinaryOp::Imul,
                (_, true) => BinaryOp::Smulhi,
                _ => BinaryOp::Umulhi,
            };
            let m = fl.b.binary(op, a, b);
            Ok(Some(fl.b.iadd(m, d)))
        }
        I::Abs => {
            let x = fl.val(&c.args[0])?;
            if !fl.cx.is_signed(c.params[0]) {
                return Ok(Some(x));
            }
            let t = fl.b.value_type(x);
            let z = fl.zero(t);
            let neg = fl.b.icmp(IntCC::Slt, x, z);
            let n = fl.b.unary(IrUnary::Ineg, x);
            Ok(Some(fl.b.select(neg, n, x)))
        }
        I::AddSat | I::SubSat => add_sat(fl, f == I::AddSat, signed, c).map(Some),
        I::MadSat => mad_sat(fl, signed, c).map(Some),
        I::AbsDiff | I::Hadd | I::Rhadd => halving(fl, f, c).map(Some),
        I::Upsample => {
            // 6.15.3: ((T)hi << bits) | (T)lo, lo read as unsigned.
            let hi = fl.val(&c.args[0])?;
            let lo = fl.val(&c.args[1])?;
            let t = fl.reg(c.rt)?;
            let bits = fl.b.value_type(hi).lane_bits();
            let h = fl.int_resize(hi, fl.cx.is_signed(c.params[0]), t);
            let l = fl.int_resize(lo, false, t);
            let k = fl.iconst(t, i64::from(bits));
            let h = fl.b.binary(BinaryOp::Shl, h, k);
            Ok(Some(fl.b.binary(BinaryOp::Bor, h, l)))
        }
        _ => library_call(fl, c),
    }
}

/// `add_sat` (`add`) or `sub_sat`: the exact result saturated to the type's range (6.15.3).
fn add_sat(fl: &mut FnLower, add: bool, signed: bool, c: &Call) -> Res<Value> {
    let a = fl.val(&c.args[0])?;
    let b = fl.val(&c.args[1])?;
    let t = fl.b.value_type(a);
    let op = if add { BinaryOp::Iadd } else { BinaryOp::Isub };
    if t.lane_bits() < 64 {
        // Exact in twice the width, then saturated back.
        let wide = doubled(t);
        let wa = fl.int_resize(a, signed, wide);
        let wb = fl.int_resize(b, signed, wide);
        let r = fl.b.binary(op, wa, wb);
        let conv = ConvOp::SatInt {
            src_signed: true,
            dst_signed: signed,
        };
        return Ok(fl.b.convert(conv, r, t));
    }
    // 64-bit lanes: detect the overflow of the wrapping result.
    let r = fl.b.binary(op, a, b);
    let z = fl.zero(t);
    if !signed {
        // Unsigned: a + b wrapped below a, or a - b with b > a.
        let over = if add {
            fl.b.icmp(IntCC::Ult, r, a)
        } else {
            fl.b.icmp(IntCC::Ult, a, b)
        };
        let lim = if add { fl.iconst(t, -1) } else { z };
        return Ok(fl.b.select(over, lim, r));
    }
    // Signed: overflow when the result's sign differs from what both operands (add) or the
    // minuend against the subtrahend (sub) say.
    let ar = fl.b.binary(BinaryOp::Bxor, a, r);
    let other = if add {
        fl.b.binary(BinaryOp::Bxor, b, r)
    } else {
        fl.b.binary(BinaryOp::Bxor, a, b)
    };
    let both = fl.b.binary(BinaryOp::Band, ar, other);
    let over = fl.b.icmp(IntCC::Slt, both, z);
    let neg = fl.b.icmp(IntCC::Slt, a, z);
    let min = fl.iconst(t, i64::MIN);
    let max = fl.iconst(t, i64::MAX);
    let lim = fl.b.select(neg, min, max);
    Ok(fl.b.select(over, lim, r))
}

/// `mad_sat`: a * b + c saturated (6.15.3).
fn mad_sat(fl: &mut FnLower, signed: bool, c: &Call) -> Res<Value> {
    let a = fl.val(&c.args[0])?;
    let b = fl.val(&c.args[1])?;
    let d = fl.val(&c.args[2])?;
    let t = fl.b.value_type(a);
    if t.lane_bits() < 64 {
        // Exact in twice the width (for 32-bit lanes the largest magnitude,
        // (2^32 - 1)^2 + 2^32 - 1, still fits 64 bits).
        let wide = doubled(t);
        let wa = fl.int_resize(a, signed, wide);
        let wb = fl.int_resize(b, signed, wide);
        let wd = fl.int_resize(d, signed, wide);
        let m = fl.b.imul(wa, wb);
        let r = fl.b.iadd(m, wd);
        let conv = ConvOp::SatInt {
            src_signed: signed,
            dst_signed: signed,
        };
        return Ok(fl.b.convert(conv, r, t));
    }
    // 64-bit lanes: the 128-bit sum hi:lo = a * b + c, saturated back to 64 bits.
    let mulhi = if signed {
        BinaryOp::Smulhi
    } else {
        BinaryOp::Umulhi
    };
    let hi = fl.b.binary(mulhi, a, b);
    let lo = fl.b.imul(a, b);
    let sum = fl.b.iadd(lo, d);
    let z = fl.zero(t);
    let one = fl.iconst(t, 1);
    let carry = fl.b.icmp(IntCC::Ult, sum, lo);
    let carry = fl.b.select(carry, one, z);
    let max = fl.iconst(t, if signed { i64::MAX } else { -1 });
    if !signed {
        // Unsigned: the sum fits when the product's high half is zero and adding c carried
        // nothing out.
        let over = fl.b.binary(BinaryOp::Bor, hi, carry);
        let over = fl.b.icmp(IntCC::Ne, over, z);
        return Ok(fl.b.select(over, max, sum));
    }
    // Signed: c's high half is its sign; the sum fits when its high half is the sign
    // extension of its low half, otherwise the high half's sign picks the limit.
    let sixty_three = fl.iconst(t, 63);
    let d_hi = fl.b.binary(BinaryOp::Ashr, d, sixty_three);
    let hi = fl.b.iadd(hi, d_hi);
    let hi = fl.b.iadd(hi, carry);
    let ext = fl.b.binary(BinaryOp::Ashr, sum, sixty_three);
    let fits = fl.b.icmp(IntCC::Eq, hi, ext);
    let neg = fl.b.icmp(IntCC::Slt, hi, z);
    let min = fl.iconst(t, i64::MIN);
    let lim = fl.b.select(neg, min, max);
    Ok(fl.b.select(fits, sum, lim))
}

/// `abs_diff`, `hadd` and `rhadd`: without the overflow of the plain expressions (6.15.3).
fn halving(fl: &mut FnLower, f: Integer, c: &Call) -> Res<Value> {
    let a = fl.val(&c.args[0])?;
    let b = fl.val(&c.args[1])?;
    let sa = fl.cx.is_signed(c.params[0]);
    if f == Integer::AbsDiff {
        // |x - y| without modulo overflow, as the unsigned type.
        let (mx, mn) = if sa {
            (BinaryOp::Smax, BinaryOp::Smin)
        } else {
            (BinaryOp::Umax, BinaryOp::Umin)
        };
        let hi = fl.b.binary(mx, a, b);
        let lo = fl.b.binary(mn, a, b);
        return Ok(fl.b.binary(BinaryOp::Isub, hi, lo));
    }
    // (x + y) >> 1 (rhadd: + 1) without overflow: (x >> 1) + (y >> 1) + (x & y & 1) (rhadd:
    // ((x | y) & 1)).
    let t = fl.b.value_type(a);
    let one = fl.iconst(t, 1);
    let sh = if sa { BinaryOp::Ashr } else { BinaryOp::Lshr };
    let ha = fl.b.binary(sh, a, one);
    let hb = fl.b.binary(sh, b, one);
    let low = if f == Integer::Hadd {
        fl.b.binary(BinaryOp::Band, a, b)
    } else {
        fl.b.binary(BinaryOp::Bor, a, b)
    };
    let low = fl.b.binary(BinaryOp::Band, low, one);
    let sum = fl.b.iadd(ha, hb);
    Ok(fl.b.iadd(sum, low))
}
