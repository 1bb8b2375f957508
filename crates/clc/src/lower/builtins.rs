//! Builtin calls: those that are one IR operation (or a few) are expanded in place; every
//! other builtin is a call to a declared library function with a mangled name (see the
//! module documentation of [`crate::lower`]).

mod atomics;
mod convert;
mod group;
mod memory;

use ferrocl_ir::{
    AddrSpace as IrSpace, BinaryOp, ConvOp, FenceFlags, FloatCC, GroupOp, IntCC, Ordering, RmwOp,
    Round, Scope, Signature, Type, UnaryOp as IrUnary, Value, WorkItemOp,
};

use super::func::{scalar_ir, FnLower};
use super::Res;
use crate::lower::LowerError;
use crate::sema::tree::Expr;
use crate::sema::types::{Scalar, Type as CType, TypeId};
use atomics::{atomic, fence_flags, order_of, scope_of};
use convert::{conversion, parse_round};
use group::{printf, work_group};
use memory::{async_copy, vload_store};

/// The integer value of a constant argument, if it is one.
fn const_arg(fl: &FnLower, e: &Expr) -> Option<i128> {
    match fl.cx.const_eval(e).ok()?.first()? {
        super::CV::I(v) => Some(*v),
        super::CV::F(_) => None,
    }
}

fn work_item_op(name: &str) -> Option<(WorkItemOp, u64)> {
    // The second value is what the query returns for a dimension past 2 (6.15.1).
    Some(match name {
        "get_global_size" => (WorkItemOp::GlobalSize, 1),
        "get_global_id" => (WorkItemOp::GlobalId, 0),
        "get_local_size" => (WorkItemOp::LocalSize, 1),
        "get_enqueued_local_size" => (WorkItemOp::EnqueuedLocalSize, 1),
        "get_local_id" => (WorkItemOp::LocalId, 0),
        "get_num_groups" => (WorkItemOp::NumGroups, 1),
        "get_group_id" => (WorkItemOp::GroupId, 0),
        "get_global_offset" => (WorkItemOp::GlobalOffset, 0),
        _ => return None,
    })
}

pub(super) fn call(
    fl: &mut FnLower,
    builtin: crate::builtins::Builtin,
    params: &[TypeId],
    args: &[Expr],
    rt: TypeId,
) -> Res<Option<Value>> {
    let name = &*builtin.to_string();
    // Work-item functions (6.15.1).
    if name == "get_work_dim" {
        return Ok(Some(fl.b.work_item(WorkItemOp::WorkDim, 0, Type::I32)));
    }
    if let Some((op, past)) = work_item_op(name) {
        let t = fl.reg(rt)?;
        if let Some(d) = const_arg(fl, &args[0]) {
            return Ok(Some(if (0..3).contains(&d) {
                fl.b.work_item(op, d as u8, t)
            } else {
                fl.iconst(t, past as i64)
            }));
        }
        // A run-time dimension: pick among the three, and the out-of-range value.
        let d = fl.val(&args[0])?;
        let mut r = fl.iconst(t, past as i64);
        for dim in (0..3u8).rev() {
            let v = fl.b.work_item(op, dim, t);
            let k = fl.iconst(Type::I32, i64::from(dim));
            let c = fl.b.icmp(IntCC::Eq, d, k);
            r = fl.b.select(c, v, r);
        }
        return Ok(Some(r));
    }
    // 6.15.2 sub-group queries (no dimension argument; uint results).
    let sub_group_query = match name {
        "get_sub_group_size" => Some(WorkItemOp::SubGroupSize),
        "get_max_sub_group_size" => Some(WorkItemOp::MaxSubGroupSize),
        "get_num_sub_groups" => Some(WorkItemOp::NumSubGroups),
        "get_enqueued_num_sub_groups" => Some(WorkItemOp::EnqueuedNumSubGroups),
        "get_sub_group_id" => Some(WorkItemOp::SubGroupId),
        "get_sub_group_local_id" => Some(WorkItemOp::SubGroupLocalId),
        _ => None,
    };
    if let Some(op) = sub_group_query {
        let t = fl.reg(rt)?;
        return Ok(Some(fl.b.work_item(op, 0, t)));
    }
    if name == "get_global_linear_id" || name == "get_local_linear_id" {
        let t = fl.reg(rt)?;
        let op = if name == "get_global_linear_id" {
            WorkItemOp::GlobalLinearId
        } else {
            WorkItemOp::LocalLinearId
        };
        return Ok(Some(fl.b.work_item(op, 0, t)));
    }
    // Synchronization (6.15.8, 6.15.9).
    match name {
        "barrier" | "work_group_barrier" | "sub_group_barrier" => {
            let flags = fence_flags(const_arg(fl, &args[0]));
            let default = if name == "sub_group_barrier" {
                Scope::SubGroup
            } else {
                Scope::WorkGroup
            };
            let scope = match args.get(1) {
                Some(s) => scope_of(const_arg(fl, s), default),
                None => default,
            };
            fl.b.barrier(flags, scope);
            return Ok(None);
        }
        "mem_fence" | "read_mem_fence" | "write_mem_fence" => {
            let flags = fence_flags(const_arg(fl, &args[0]));
            let order = match name {
                "read_mem_fence" => Ordering::Acquire,
                "write_mem_fence" => Ordering::Release,
                _ => Ordering::AcqRel,
            };
            fl.b.fence(flags, order, Scope::WorkGroup);
            return Ok(None);
        }
        "atomic_work_item_fence" => {
            let flags = fence_flags(const_arg(fl, &args[0]));
            let order = order_of(const_arg(fl, &args[1]));
            let scope = scope_of(const_arg(fl, &args[2]), Scope::Device);
            fl.b.fence(flags, order, scope);
            return Ok(None);
        }
        _ => {}
    }
    if let Some(r) = conversion(fl, name, params, args, rt)? {
        return Ok(Some(r));
    }
    if let Some(r) = atomic(fl, name, params, args, rt)? {
        return Ok(r);
    }
    let elem = fl.cx.arith(rt);
    let float = elem.is_some_and(|(s, _)| s.is_float());
    let signed = fl.cx.is_signed(rt);
    let un = |op| Some(op);
    let unary = match name {
        "sqrt" if float => un(IrUnary::Sqrt),
        "fabs" => un(IrUnary::Fabs),
        "floor" => un(IrUnary::Floor),
        "ceil" => un(IrUnary::Ceil),
        "trunc" => un(IrUnary::Ftrunc),
        "rint" => un(IrUnary::Nearest),
        "popcount" => un(IrUnary::Popcnt),
        "clz" => un(IrUnary::Clz),
        "ctz" => un(IrUnary::Ctz),
        _ => None,
    };
    if let Some(op) = unary {
        let v = fl.val(&args[0])?;
        return Ok(Some(fl.b.unary(op, v)));
    }
    let binary = match (name, float) {
        ("fmin", _) | ("min", true) => Some(BinaryOp::Fmin),
        ("fmax", _) | ("max", true) => Some(BinaryOp::Fmax),
        ("copysign", _) => Some(BinaryOp::Copysign),
        ("min", false) => Some(if signed {
            BinaryOp::Smin
        } else {
            BinaryOp::Umin
        }),
        ("max", false) => Some(if signed {
            BinaryOp::Smax
        } else {
            BinaryOp::Umax
        }),
        ("mul_hi", false) => Some(if signed {
            BinaryOp::Smulhi
        } else {
            BinaryOp::Umulhi
        }),
        ("rotate", false) => Some(BinaryOp::Rotl),
        // 6.15.3: mul24 multiplies values that fit in 24 bits; the low 32 bits of the
        // product are the result.
        ("mul24", false) => Some(BinaryOp::Imul),
        _ => None,
    };
    if let Some(op) = binary {
        let a = fl.val(&args[0])?;
        let b = widened(fl, &args[1], a)?;
        return Ok(Some(fl.b.binary(op, a, b)));
    }
    match name {
        "fma" | "mad" if float => {
            let a = fl.val(&args[0])?;
            let b = fl.val(&args[1])?;
            let c = fl.val(&args[2])?;
            // 6.15.2: mad "computes a * b + c"; 7.4 (full profile) lets it be "implemented
            // either as a correctly rounded fma or as a multiply followed by an add both of
            // which are correctly rounded": the fma where that is one fast instruction.
            if name == "mad" && !fl.cx.p.fast_fma {
                let p = fl.b.binary(BinaryOp::Fmul, a, b);
                return Ok(Some(fl.b.binary(BinaryOp::Fadd, p, c)));
            }
            return Ok(Some(fl.b.fma(a, b, c)));
        }
        "mad24" | "mad_hi" if !float => {
            let a = fl.val(&args[0])?;
            let b = fl.val(&args[1])?;
            let c = fl.val(&args[2])?;
            let op = match (name, signed) {
                ("mad24", _) => BinaryOp::Imul,
                (_, true) => BinaryOp::Smulhi,
                _ => BinaryOp::Umulhi,
            };
            let m = fl.b.binary(op, a, b);
            return Ok(Some(fl.b.iadd(m, c)));
        }
        "clamp" => {
            let x = fl.val(&args[0])?;
            let lo = widened(fl, &args[1], x)?;
            let hi = widened(fl, &args[2], x)?;
            let (mx, mn) = match (float, signed) {
                (true, _) => (BinaryOp::Fmax, BinaryOp::Fmin),
                (false, true) => (BinaryOp::Smax, BinaryOp::Smin),
                (false, false) => (BinaryOp::Umax, BinaryOp::Umin),
            };
            let m = fl.b.binary(mx, x, lo);
            return Ok(Some(fl.b.binary(mn, m, hi)));
        }
        "abs" if !float => {
            let x = fl.val(&args[0])?;
            if !fl.cx.is_signed(params[0]) {
                return Ok(Some(x));
            }
            let t = fl.b.value_type(x);
            let z = fl.zero(t);
            let neg = fl.b.icmp(IntCC::Slt, x, z);
            let n = fl.b.unary(IrUnary::Ineg, x);
            return Ok(Some(fl.b.select(neg, n, x)));
        }
        "add_sat" | "sub_sat" if !float => {
            let a = fl.val(&args[0])?;
            let b = fl.val(&args[1])?;
            let t = fl.b.value_type(a);
            if t.lane_bits() < 64 {
                // Exact in twice the width, then saturated back (6.15.3).
                let wide = super::func::scalar_ir(match t.lane_bits() {
                    8 => Scalar::Short,
                    16 => Scalar::Int,
                    _ => Scalar::Long,
                })
                .vector(t.lanes())
                .expect("vector type");
                let wa = fl.int_resize(a, signed, wide);
                let wb = fl.int_resize(b, signed, wide);
                let op = if name == "add_sat" {
                    BinaryOp::Iadd
                } else {
                    BinaryOp::Isub
                };
                let r = fl.b.binary(op, wa, wb);
                let conv = ConvOp::SatInt {
                    src_signed: true,
                    dst_signed: signed,
                };
                return Ok(Some(fl.b.convert(conv, r, t)));
            }
            // 64-bit lanes: detect the overflow of the wrapping result.
            let add = name == "add_sat";
            let op = if add { BinaryOp::Iadd } else { BinaryOp::Isub };
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
                return Ok(Some(fl.b.select(over, lim, r)));
            }
            // Signed: overflow when the result's sign differs from what both operands (add)
            // or the minuend against the subtrahend (sub) say.
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
            return Ok(Some(fl.b.select(over, lim, r)));
        }
        "mad_sat" if !float => {
            let a = fl.val(&args[0])?;
            let b = fl.val(&args[1])?;
            let c = fl.val(&args[2])?;
            let t = fl.b.value_type(a);
            if t.lane_bits() < 64 {
                // 6.15.3: a * b + c saturated; exact in twice the width (for 32-bit lanes the
                // largest magnitude, (2^32 - 1)^2 + 2^32 - 1, still fits 64 bits).
                let wide = scalar_ir(match t.lane_bits() {
                    8 => Scalar::Short,
                    16 => Scalar::Int,
                    _ => Scalar::Long,
                })
                .vector(t.lanes())
                .expect("vector type");
                let wa = fl.int_resize(a, signed, wide);
                let wb = fl.int_resize(b, signed, wide);
                let wc = fl.int_resize(c, signed, wide);
                let m = fl.b.imul(wa, wb);
                let r = fl.b.iadd(m, wc);
                let conv = ConvOp::SatInt {
                    src_signed: signed,
                    dst_signed: signed,
                };
                return Ok(Some(fl.b.convert(conv, r, t)));
            }
            // 64-bit lanes: the 128-bit sum hi:lo = a * b + c, saturated back to 64 bits.
            let (mulhi, lim_signed) = if signed {
                (BinaryOp::Smulhi, true)
            } else {
                (BinaryOp::Umulhi, false)
            };
            let hi = fl.b.binary(mulhi, a, b);
            let lo = fl.b.imul(a, b);
            let sum = fl.b.iadd(lo, c);
            let z = fl.zero(t);
            let one = fl.iconst(t, 1);
            let carry = fl.b.icmp(IntCC::Ult, sum, lo);
            let carry = fl.b.select(carry, one, z);
            let max = fl.iconst(t, if lim_signed { i64::MAX } else { -1 });
            if !signed {
                // Unsigned: the sum fits when the product's high half is zero and adding c
                // carried nothing out.
                let over = fl.b.binary(BinaryOp::Bor, hi, carry);
                let over = fl.b.icmp(IntCC::Ne, over, z);
                return Ok(Some(fl.b.select(over, max, sum)));
            }
            // Signed: c's high half is its sign; the sum fits when its high half is the sign
            // extension of its low half, otherwise the high half's sign picks the limit.
            let sixty_three = fl.iconst(t, 63);
            let c_hi = fl.b.binary(BinaryOp::Ashr, c, sixty_three);
            let hi = fl.b.iadd(hi, c_hi);
            let hi = fl.b.iadd(hi, carry);
            let ext = fl.b.binary(BinaryOp::Ashr, sum, sixty_three);
            let fits = fl.b.icmp(IntCC::Eq, hi, ext);
            let neg = fl.b.icmp(IntCC::Slt, hi, z);
            let min = fl.iconst(t, i64::MIN);
            let lim = fl.b.select(neg, min, max);
            return Ok(Some(fl.b.select(fits, sum, lim)));
        }
        "select" => {
            let a = fl.val(&args[0])?;
            let b = fl.val(&args[1])?;
            let c = fl.val(&args[2])?;
            let ct = fl.b.value_type(c);
            let z = fl.zero(ct);
            // 6.15.6: scalar select tests c != 0; vector select the most significant bit.
            let m = if ct.is_vector() {
                fl.b.icmp(IntCC::Slt, c, z)
            } else {
                fl.b.icmp(IntCC::Ne, c, z)
            };
            return Ok(Some(fl.b.select(m, b, a)));
        }
        "bitselect" => {
            let a = fl.val(&args[0])?;
            let b = fl.val(&args[1])?;
            let c = fl.val(&args[2])?;
            let t = fl.b.value_type(a);
            let it = if t.is_float() {
                t.with_lane_type(super::func::scalar_ir(match t.lane_bits() {
                    16 => Scalar::Short,
                    32 => Scalar::Int,
                    _ => Scalar::Long,
                }))
                .expect("int type")
            } else {
                t
            };
            let cast = |fl: &mut FnLower, v: Value| {
                if t.is_float() {
                    fl.b.bitcast(v, it)
                } else {
                    v
                }
            };
            let (ia, ib, ic) = (cast(fl, a), cast(fl, b), cast(fl, c));
            let nc = fl.b.unary(IrUnary::Bnot, ic);
            let x = fl.b.binary(BinaryOp::Band, ia, nc);
            let y = fl.b.binary(BinaryOp::Band, ib, ic);
            let r = fl.b.binary(BinaryOp::Bor, x, y);
            return Ok(Some(if t.is_float() { fl.b.bitcast(r, t) } else { r }));
        }
        "any" | "all" => {
            let x = fl.val(&args[0])?;
            let t = fl.b.value_type(x);
            let z = fl.zero(t);
            let m = fl.b.icmp(IntCC::Slt, x, z);
            let mut acc = None;
            for i in 0..t.lanes() {
                let l = if t.is_vector() {
                    fl.b.extractlane(m, i as u8)
                } else {
                    m
                };
                let l = fl.b.convert(ConvOp::Zext, l, Type::I32);
                acc = Some(match acc {
                    None => l,
                    Some(a) => {
                        let op = if name == "any" {
                            BinaryOp::Bor
                        } else {
                            BinaryOp::Band
                        };
                        fl.b.binary(op, a, l)
                    }
                });
            }
            return Ok(acc);
        }
        "native_sqrt" | "half_sqrt" => {
            let v = fl.val(&args[0])?;
            return Ok(Some(fl.b.unary(IrUnary::Sqrt, v)));
        }
        "native_divide" | "half_divide" => {
            let a = fl.val(&args[0])?;
            let b = fl.val(&args[1])?;
            return Ok(Some(fl.b.binary(BinaryOp::Fdiv, a, b)));
        }
        "native_recip" | "half_recip" | "native_rsqrt" | "half_rsqrt" => {
            let mut v = fl.val(&args[0])?;
            if name.ends_with("rsqrt") {
                v = fl.b.unary(IrUnary::Sqrt, v);
            }
            let t = fl.b.value_type(v);
            let one = fl.fconst(t, 1.0);
            return Ok(Some(fl.b.binary(BinaryOp::Fdiv, one, v)));
        }
        "degrees" | "radians" if float => {
            let v = fl.val(&args[0])?;
            let t = fl.b.value_type(v);
            let k = if name == "degrees" {
                180.0 / std::f64::consts::PI
            } else {
                std::f64::consts::PI / 180.0
            };
            let k = fl.fconst(t, k);
            return Ok(Some(fl.b.binary(BinaryOp::Fmul, v, k)));
        }
        "mix" if float => {
            // 6.15.4: x + (y - x) * a.
            let x = fl.val(&args[0])?;
            let y = fl.val(&args[1])?;
            let a = widened(fl, &args[2], x)?;
            let d = fl.b.binary(BinaryOp::Fsub, y, x);
            let m = fl.b.binary(BinaryOp::Fmul, d, a);
            return Ok(Some(fl.b.fadd(x, m)));
        }
        "step" if float => {
            // 6.15.4: 0.0 if x < edge, else 1.0.
            let x = fl.val(&args[1])?;
            let edge = widened(fl, &args[0], x)?;
            let t = fl.b.value_type(x);
            let lt = fl.b.fcmp(FloatCC::Olt, x, edge);
            let (z, one) = (fl.fconst(t, 0.0), fl.fconst(t, 1.0));
            return Ok(Some(fl.b.select(lt, z, one)));
        }
        "sign" if float => {
            // 6.15.4: 1.0 if x > 0, -0.0 / +0.0 for zeros, -1.0 if x < 0, 0.0 for a NaN.
            let x = fl.val(&args[0])?;
            let t = fl.b.value_type(x);
            let (z, one, m1) = (fl.fconst(t, 0.0), fl.fconst(t, 1.0), fl.fconst(t, -1.0));
            let gt = fl.b.fcmp(FloatCC::Ogt, x, z);
            let lt = fl.b.fcmp(FloatCC::Olt, x, z);
            let nan = fl.b.fcmp(FloatCC::Uno, x, x);
            let r = fl.b.select(lt, m1, x);
            let r = fl.b.select(gt, one, r);
            return Ok(Some(fl.b.select(nan, z, r)));
        }
        "abs_diff" | "hadd" | "rhadd" if !float => {
            let a = fl.val(&args[0])?;
            let b = fl.val(&args[1])?;
            let sa = fl.cx.is_signed(params[0]);
            if name == "abs_diff" {
                // 6.15.3: |x - y| without modulo overflow, as the unsigned type.
                let (mx, mn) = if sa {
                    (BinaryOp::Smax, BinaryOp::Smin)
                } else {
                    (BinaryOp::Umax, BinaryOp::Umin)
                };
                let hi = fl.b.binary(mx, a, b);
                let lo = fl.b.binary(mn, a, b);
                return Ok(Some(fl.b.binary(BinaryOp::Isub, hi, lo)));
            }
            // 6.15.3: (x + y) >> 1 (rhadd: + 1) without overflow:
            // (x >> 1) + (y >> 1) + (x & y & 1) (rhadd: ((x | y) & 1)).
            let t = fl.b.value_type(a);
            let one = fl.iconst(t, 1);
            let sh = if sa { BinaryOp::Ashr } else { BinaryOp::Lshr };
            let ha = fl.b.binary(sh, a, one);
            let hb = fl.b.binary(sh, b, one);
            let low = if name == "hadd" {
                fl.b.binary(BinaryOp::Band, a, b)
            } else {
                fl.b.binary(BinaryOp::Bor, a, b)
            };
            let low = fl.b.binary(BinaryOp::Band, low, one);
            let sum = fl.b.iadd(ha, hb);
            return Ok(Some(fl.b.iadd(sum, low)));
        }
        "upsample" => {
            // 6.15.3: ((T)hi << bits) | (T)lo, lo read as unsigned.
            let hi = fl.val(&args[0])?;
            let lo = fl.val(&args[1])?;
            let t = fl.reg(rt)?;
            let bits = fl.b.value_type(hi).lane_bits();
            let h = fl.int_resize(hi, fl.cx.is_signed(params[0]), t);
            let l = fl.int_resize(lo, false, t);
            let k = fl.iconst(t, i64::from(bits));
            let h = fl.b.binary(BinaryOp::Shl, h, k);
            return Ok(Some(fl.b.binary(BinaryOp::Bor, h, l)));
        }
        "isequal" | "isnotequal" | "isgreater" | "isgreaterequal" | "isless" | "islessequal"
        | "islessgreater" | "isordered" | "isunordered" | "isnan" | "isinf" | "isfinite"
        | "isnormal" | "signbit" => {
            let x = fl.val(&args[0])?;
            let t = fl.b.value_type(x);
            let c = if args.len() == 2 {
                let y = fl.val(&args[1])?;
                let cc = match name {
                    "isequal" => FloatCC::Oeq,
                    "isnotequal" => FloatCC::Une,
                    "isgreater" => FloatCC::Ogt,
                    "isgreaterequal" => FloatCC::Oge,
                    "isless" => FloatCC::Olt,
                    "islessequal" => FloatCC::Ole,
                    "islessgreater" => FloatCC::One,
                    "isordered" => FloatCC::Ord,
                    _ => FloatCC::Uno,
                };
                fl.b.fcmp(cc, x, y)
            } else {
                let ax = fl.b.unary(IrUnary::Fabs, x);
                let inf = fl.fconst(t, f64::INFINITY);
                match name {
                    "isnan" => fl.b.fcmp(FloatCC::Uno, x, x),
                    "isinf" => fl.b.fcmp(FloatCC::Oeq, ax, inf),
                    "isfinite" => fl.b.fcmp(FloatCC::Olt, ax, inf),
                    "isnormal" => {
                        let min = match t.lane_type() {
                            Type::F32 => f64::from(f32::MIN_POSITIVE),
                            Type::F64 => f64::MIN_POSITIVE,
                            _ => 6.103_515_625e-5,
                        };
                        let min = fl.fconst(t, min);
                        let a = fl.b.fcmp(FloatCC::Olt, ax, inf);
                        let b = fl.b.fcmp(FloatCC::Oge, ax, min);
                        let a =
                            fl.b.convert(ConvOp::Zext, a, t.with_lane_type(Type::I8).expect("i8"));
                        let b =
                            fl.b.convert(ConvOp::Zext, b, t.with_lane_type(Type::I8).expect("i8"));
                        let both = fl.b.binary(BinaryOp::Band, a, b);
                        let z = fl.zero(fl.b.value_type(both));
                        fl.b.icmp(IntCC::Ne, both, z)
                    }
                    _ => {
                        let it = t
                            .with_lane_type(scalar_ir(match t.lane_bits() {
                                16 => Scalar::Short,
                                32 => Scalar::Int,
                                _ => Scalar::Long,
                            }))
                            .expect("int type");
                        let bits = fl.b.bitcast(x, it);
                        let z = fl.zero(it);
                        fl.b.icmp(IntCC::Slt, bits, z)
                    }
                }
            };
            let r = fl.reg(rt)?;
            // 6.15.6: scalar forms return int 1/0, vector forms -1/0 per lane.
            let op = if r.is_vector() {
                ConvOp::Sext
            } else {
                ConvOp::Zext
            };
            return Ok(Some(fl.b.convert(op, c, r)));
        }
        "smoothstep" if float => {
            // 6.15.4: t = clamp((x - edge0) / (edge1 - edge0), 0, 1); t * t * (3 - 2 * t).
            let x = fl.val(&args[2])?;
            let e0 = widened(fl, &args[0], x)?;
            let e1 = widened(fl, &args[1], x)?;
            let t = fl.b.value_type(x);
            let num = fl.b.binary(BinaryOp::Fsub, x, e0);
            let den = fl.b.binary(BinaryOp::Fsub, e1, e0);
            let q = fl.b.binary(BinaryOp::Fdiv, num, den);
            let (z, one) = (fl.fconst(t, 0.0), fl.fconst(t, 1.0));
            let q = fl.b.binary(BinaryOp::Fmax, q, z);
            let q = fl.b.binary(BinaryOp::Fmin, q, one);
            let (two, three) = (fl.fconst(t, 2.0), fl.fconst(t, 3.0));
            let tq = fl.b.binary(BinaryOp::Fmul, two, q);
            let k = fl.b.binary(BinaryOp::Fsub, three, tq);
            let qq = fl.b.binary(BinaryOp::Fmul, q, q);
            return Ok(Some(fl.b.binary(BinaryOp::Fmul, qq, k)));
        }
        "normalize" if float => {
            // 6.15.5: p / length(p), scaled by the largest magnitude first so that the sum
            // of squares neither overflows nor underflows; p itself when every element is
            // zero; infinite elements count as copysign(1, p[i]) and the others as 0.
            let p = fl.val(&args[0])?;
            let t = fl.b.value_type(p);
            let lane = t.lane_type();
            let a = fl.b.unary(IrUnary::Fabs, p);
            let mut m = if t.is_vector() {
                fl.b.extractlane(a, 0)
            } else {
                a
            };
            for i in 1..t.lanes() {
                let l = fl.b.extractlane(a, i as u8);
                m = fl.b.binary(BinaryOp::Fmax, m, l);
            }
            let splat = |fl: &mut FnLower, v: Value| {
                if t.is_vector() {
                    fl.b.splat(v, t.lanes())
                } else {
                    v
                }
            };
            let ms = splat(fl, m);
            let scaled = fl.b.binary(BinaryOp::Fdiv, p, ms);
            let inf = fl.fconst(t, f64::INFINITY);
            let is_inf = fl.b.fcmp(FloatCC::Oeq, a, inf);
            let one = fl.fconst(t, 1.0);
            let signed_one = fl.b.binary(BinaryOp::Copysign, one, p);
            let zero = fl.fconst(t, 0.0);
            let zp = fl.b.binary(BinaryOp::Fmul, zero, p);
            let infs = fl.b.select(is_inf, signed_one, zp);
            let linf = fl.fconst(lane, f64::INFINITY);
            let m_inf = fl.b.fcmp(FloatCC::Oeq, m, linf);
            let q = fl.b.select(m_inf, infs, scaled);
            let d = dot(fl, q, q);
            let len = fl.b.unary(IrUnary::Sqrt, d);
            let lens = splat(fl, len);
            let r = fl.b.binary(BinaryOp::Fdiv, q, lens);
            let lz = fl.fconst(lane, 0.0);
            let m_zero = fl.b.fcmp(FloatCC::Oeq, m, lz);
            return Ok(Some(fl.b.select(m_zero, p, r)));
        }
        "fast_length" | "fast_distance" | "fast_normalize" => {
            // 6.15.5: fast_length(p) = half_sqrt(dot(p, p)), fast_distance(a, b) =
            // fast_length(a - b), fast_normalize(p) = p * half_rsqrt(dot(p, p)) (p when
            // every element is zero).
            let mut p = fl.val(&args[0])?;
            if name == "fast_distance" {
                let q = fl.val(&args[1])?;
                p = fl.b.binary(BinaryOp::Fsub, p, q);
            }
            let d = dot(fl, p, p);
            let len = fl.b.unary(IrUnary::Sqrt, d);
            if name != "fast_normalize" {
                return Ok(Some(len));
            }
            let t = fl.b.value_type(p);
            let one = fl.fconst(t.lane_type(), 1.0);
            let inv = fl.b.binary(BinaryOp::Fdiv, one, len);
            let inv = if t.is_vector() {
                fl.b.splat(inv, t.lanes())
            } else {
                inv
            };
            let r = fl.b.binary(BinaryOp::Fmul, p, inv);
            let z = fl.fconst(t.lane_type(), 0.0);
            let zero = fl.b.fcmp(FloatCC::Oeq, d, z);
            return Ok(Some(fl.b.select(zero, p, r)));
        }
        "shuffle" | "shuffle2" => {
            // 6.15.13: result lane i is lane mask[i] (modulo the lane count of the inputs)
            // of x, or of x ++ y for shuffle2.
            let x = fl.val(&args[0])?;
            let xt = fl.b.value_type(x);
            let n = xt.lanes();
            let (y, mask_e) = if name == "shuffle2" {
                (Some(fl.val(&args[1])?), &args[2])
            } else {
                (None, &args[1])
            };
            let total = if y.is_some() { 2 * n } else { n };
            if let Ok(lanes) = fl.cx.const_eval(mask_e) {
                let idx: Option<Vec<u8>> = lanes
                    .iter()
                    .map(|l| match l {
                        super::CV::I(v) => Some((*v as u64 % u64::from(total)) as u8),
                        super::CV::F(_) => None,
                    })
                    .collect();
                if let Some(idx) = idx {
                    let other = y.unwrap_or(x);
                    return Ok(Some(fl.b.shuffle(x, other, &idx)));
                }
            }
            // A run-time mask: spill the inputs and load each selected lane.
            let m = fl.val(mask_e)?;
            let mt = fl.b.value_type(m);
            let et = xt.lane_type();
            let es = et.bytes();
            let vt = fl.reg(args[0].ty)?;
            let slot =
                fl.b.func
                    .create_slot(2 * vt.bytes(), vt.bytes().next_power_of_two());
            let base = fl.b.slot_addr(slot);
            fl.b.store(x, base, es, false);
            if let Some(y) = y {
                let at = fl.offset(base, i64::from(n * es));
                fl.b.store(y, at, es, false);
            }
            let rt_ty = fl.reg(rt)?;
            let mut lanes = Vec::new();
            for i in 0..mt.lanes() {
                let k = fl.b.extractlane(m, i as u8);
                let k = fl.int_resize(k, false, Type::I64);
                let modulo = fl.iconst(Type::I64, i64::from(total));
                let k = fl.b.binary(BinaryOp::Urem, k, modulo);
                let sz = fl.iconst(Type::I64, i64::from(es));
                let off = fl.b.imul(k, sz);
                let a = fl.b.ptradd(base, off);
                lanes.push(fl.b.load(et, a, es, false));
            }
            return Ok(Some(fl.build_vector(rt_ty, &lanes)));
        }
        "dot" if float => {
            let a = fl.val(&args[0])?;
            let b = fl.val(&args[1])?;
            return Ok(Some(dot(fl, a, b)));
        }
        "length" if float => {
            let a = fl.val(&args[0])?;
            return Ok(Some(scaled_length(fl, a)));
        }
        "distance" if float => {
            let a = fl.val(&args[0])?;
            let b = fl.val(&args[1])?;
            let d = fl.b.binary(BinaryOp::Fsub, a, b);
            return Ok(Some(scaled_length(fl, d)));
        }
        "cross" => {
            let a = fl.val(&args[0])?;
            let b = fl.val(&args[1])?;
            let t = fl.b.value_type(a);
            // 6.15.5: cross(a, b) = (a.y*b.z - a.z*b.y, a.z*b.x - a.x*b.z, a.x*b.y - a.y*b.x),
            // and w = 0 for 4 lanes.
            let (m1, m2): (&[u8], &[u8]) = if t.lanes() == 4 {
                (&[1, 2, 0, 3], &[2, 0, 1, 3])
            } else {
                (&[1, 2, 0], &[2, 0, 1])
            };
            let a1 = fl.b.shuffle(a, a, m1);
            let b2 = fl.b.shuffle(b, b, m2);
            let a2 = fl.b.shuffle(a, a, m2);
            let b1 = fl.b.shuffle(b, b, m1);
            let x = fl.b.binary(BinaryOp::Fmul, a1, b2);
            let y = fl.b.binary(BinaryOp::Fmul, a2, b1);
            let mut r = fl.b.binary(BinaryOp::Fsub, x, y);
            if t.lanes() == 4 {
                let z = fl.zero(t.lane_type());
                r = fl.b.insertlane(r, z, 3);
            }
            return Ok(Some(r));
        }
        _ => {}
    }
    if let Some(r) = vload_store(fl, name, args, rt)? {
        return Ok(r);
    }
    if let Some(r) = async_copy(fl, name, args)? {
        return Ok(r);
    }
    if let Some(r) = work_group(fl, name, args, rt)? {
        return Ok(Some(r));
    }
    if name == "printf" {
        return printf(fl, args, rt).map(Some);
    }
    library_call(fl, name, params, args, rt)
}

/// The second operand of a `T(T, S)` overload, splatted to the first's lanes.
fn widened(fl: &mut FnLower, e: &Expr, like: Value) -> Res<Value> {
    let v = fl.val(e)?;
    let t = fl.b.value_type(like);
    if t.is_vector() && !fl.b.value_type(v).is_vector() {
        Ok(fl.b.splat(v, t.lanes()))
    } else {
        Ok(v)
    }
}

/// The sum of the lane products, added in lane order.
/// The length of `p` for `length` and `distance`. 7.5.1: "length calculates the length of a
/// vector without overflow or extraordinary precision loss due to underflow": the elements
/// are scaled by the power of two of the largest magnitude (exactly), squared and summed, and
/// the root scaled back. An infinite element gives +inf (as hypot does), all zeros 0.
fn scaled_length(fl: &mut FnLower, p: Value) -> Value {
    let t = fl.b.value_type(p);
    let lane = t.lane_type();
    let a = fl.b.unary(IrUnary::Fabs, p);
    let mut m = if t.is_vector() {
        fl.b.extractlane(a, 0)
    } else {
        a
    };
    for i in 1..t.lanes() {
        let l = fl.b.extractlane(a, i as u8);
        m = fl.b.binary(BinaryOp::Fmax, m, l);
    }
    // The power of two of m (at least the smallest normal): its exponent bits alone.
    let (int, exp_mask, min_normal) = match lane {
        Type::F64 => (
            Type::I64,
            0x7ff0_0000_0000_0000u64 as i64,
            f64::MIN_POSITIVE,
        ),
        Type::F32 => (Type::I32, 0x7f80_0000, f64::from(f32::MIN_POSITIVE)),
        _ => (Type::I16, 0x7c00, 6.103_515_625e-5),
    };
    let min = fl.fconst(lane, min_normal);
    let floor = fl.b.binary(BinaryOp::Fmax, m, min);
    let bits = fl.b.bitcast(floor, int);
    let mask = fl.iconst(int, exp_mask);
    let e = fl.b.binary(BinaryOp::Band, bits, mask);
    let pow2 = fl.b.bitcast(e, lane);
    let one = fl.fconst(lane, 1.0);
    let inv = fl.b.binary(BinaryOp::Fdiv, one, pow2);
    let inv = if t.is_vector() {
        fl.b.splat(inv, t.lanes())
    } else {
        inv
    };
    let q = fl.b.binary(BinaryOp::Fmul, p, inv);
    let d = dot(fl, q, q);
    let r = fl.b.unary(IrUnary::Sqrt, d);
    let len = fl.b.binary(BinaryOp::Fmul, r, pow2);
    let inf = fl.fconst(lane, f64::INFINITY);
    let m_inf = fl.b.fcmp(FloatCC::Oeq, m, inf);
    fl.b.select(m_inf, inf, len)
}

fn dot(fl: &mut FnLower, a: Value, b: Value) -> Value {
    let p = fl.b.binary(BinaryOp::Fmul, a, b);
    let t = fl.b.value_type(p);
    if !t.is_vector() {
        return p;
    }
    let mut acc = fl.b.extractlane(p, 0);
    for i in 1..t.lanes() {
        let l = fl.b.extractlane(p, i as u8);
        acc = fl.b.fadd(acc, l);
    }
    acc
}

/// A call to the builtin library's function for this overload, declared on first use.
fn library_call(
    fl: &mut FnLower,
    name: &str,
    params: &[TypeId],
    args: &[Expr],
    rt: TypeId,
) -> Res<Option<Value>> {
    // 6.15.2: native_ and half_ functions have implementation-defined (native) or loose
    // (half) precision; the full-precision function meets both.
    let name = name
        .strip_prefix("native_")
        .or_else(|| name.strip_prefix("half_"))
        .unwrap_or(name);
    let mut mangled = name.to_string();
    // 6.15.10: the address-space queries take any generic pointer; their IR signature does
    // not depend on the pointee, so neither does their name.
    let any_pointee = matches!(name, "to_global" | "to_local" | "to_private" | "get_fence");
    for p in params.iter().filter(|_| !any_pointee) {
        mangled.push('.');
        mangled.push_str(&fl.cx.mangle_type(*p));
    }
    if args.len() > params.len() {
        mangled.push_str("....");
        let extra: Vec<String> = args[params.len()..]
            .iter()
            .map(|a| fl.cx.mangle_type(a.ty))
            .collect();
        mangled.push_str(&extra.join("."));
    }
    let mut vals = Vec::new();
    for a in args {
        if fl.cx.is_aggregate(a.ty) {
            return Err(LowerError::new(format!(
                "aggregate argument to builtin '{name}'"
            )));
        }
        vals.push(fl.val(a)?);
    }
    let tys: Vec<Type> = vals.iter().map(|v| fl.b.value_type(*v)).collect();
    let ret = fl.cx.reg_type(rt);
    let f = match fl.cx.decls.get(&mangled) {
        Some(&f) => f,
        None => {
            let f = fl
                .cx
                .module
                .add_function(&mangled, Signature::new(&tys, ret));
            fl.cx.decls.insert(mangled, f);
            f
        }
    };
    Ok(fl.b.call(f, ret, &vals))
}
