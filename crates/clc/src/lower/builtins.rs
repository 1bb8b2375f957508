//! Builtin calls: those that are one IR operation (or a few) are expanded in place; every
//! other builtin is a call to a declared library function with a mangled name (see the
//! module documentation of [`crate::lower`]).

use ferrocl_ir::{
    AddrSpace as IrSpace, BinaryOp, ConvOp, FenceFlags, FloatCC, GroupOp, IntCC, Ordering, RmwOp,
    Round, Scope, Signature, Type, UnaryOp as IrUnary, Value, WorkItemOp,
};

use super::func::{scalar_ir, FnLower};
use super::Res;
use crate::lower::LowerError;
use crate::sema::tree::Expr;
use crate::sema::types::{Scalar, Type as CType, TypeId};

/// The integer value of a constant argument, if it is one.
fn const_arg(fl: &FnLower, e: &Expr) -> Option<i128> {
    match fl.cx.const_eval(e).ok()?.first()? {
        super::CV::I(v) => Some(*v),
        super::CV::F(_) => None,
    }
}

fn order_of(v: Option<i128>) -> Ordering {
    // The values of memory_order_* (6.15.12.3) as the front end defines them.
    match v {
        Some(0) => Ordering::Relaxed,
        Some(2) => Ordering::Acquire,
        Some(3) => Ordering::Release,
        Some(4) => Ordering::AcqRel,
        _ => Ordering::SeqCst,
    }
}

fn scope_of(v: Option<i128>, default: Scope) -> Scope {
    match v {
        Some(0) => Scope::WorkItem,
        Some(1) => Scope::WorkGroup,
        Some(2) => Scope::Device,
        Some(3) => Scope::AllDevices,
        Some(4) => Scope::SubGroup,
        _ => default,
    }
}

fn fence_flags(v: Option<i128>) -> FenceFlags {
    // CLK_LOCAL_MEM_FENCE 1, CLK_GLOBAL_MEM_FENCE 2, CLK_IMAGE_MEM_FENCE 4; a flag set only
    // known at run time fences everything.
    match v {
        Some(f) => FenceFlags((f & 7) as u8),
        None => FenceFlags::LOCAL | FenceFlags::GLOBAL,
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

fn parse_round(name: &str) -> (Option<Round>, &str) {
    for (suffix, r) in [
        ("_rte", Round::Rte),
        ("_rtz", Round::Rtz),
        ("_rtp", Round::Rtp),
        ("_rtn", Round::Rtn),
    ] {
        if let Some(rest) = name.strip_suffix(suffix) {
            return (Some(r), rest);
        }
    }
    (None, name)
}

pub(super) fn call(
    fl: &mut FnLower,
    name: &str,
    params: &[TypeId],
    args: &[Expr],
    rt: TypeId,
) -> Res<Option<Value>> {
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

/// convert_<type>[_sat][_rtX] (6.4.3) and as_<type> (6.4.4).
fn conversion(
    fl: &mut FnLower,
    name: &str,
    params: &[TypeId],
    args: &[Expr],
    rt: TypeId,
) -> Res<Option<Value>> {
    if let Some(rest) = name.strip_prefix("as_") {
        if crate::builtins::parse_type_name(rest).is_none() || args.len() != 1 {
            return Ok(None);
        }
        let v = fl.val(&args[0])?;
        let t = fl.reg(rt)?;
        let from = fl.b.value_type(v);
        if from == t {
            return Ok(Some(v));
        }
        if from.lanes() == 3 || t.lanes() == 3 {
            // 6.4.4.1: a 3-lane vector reinterprets as the 4-lane one (lane 3 undefined).
            let via_from = if from.lanes() == 3 {
                fl.b.shuffle(v, v, &[0, 1, 2, 0])
            } else {
                v
            };
            let wide_t = if t.lanes() == 3 {
                t.lane_type().vector(4).expect("4 lanes")
            } else {
                t
            };
            let r = if fl.b.value_type(via_from) == wide_t {
                via_from
            } else {
                fl.b.bitcast(via_from, wide_t)
            };
            return Ok(Some(if t.lanes() == 3 {
                fl.b.shuffle(r, r, &[0, 1, 2])
            } else {
                r
            }));
        }
        return Ok(Some(fl.b.bitcast(v, t)));
    }
    let Some(rest) = name.strip_prefix("convert_") else {
        return Ok(None);
    };
    let (round, rest) = parse_round(rest);
    let (sat, rest) = match rest.strip_suffix("_sat") {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let Some((ts, _)) = crate::builtins::parse_type_name(rest) else {
        return Ok(None);
    };
    let Some((fs, _)) = fl.cx.arith(params[0]) else {
        return Ok(None);
    };
    let v = fl.val(&args[0])?;
    let t = fl.reg(rt)?;
    let fsigned = fs.is_signed();
    let r = match (fs.is_float(), ts.is_float()) {
        (false, false) => {
            if sat {
                if fs == ts {
                    v
                } else {
                    fl.b.convert(
                        ConvOp::SatInt {
                            src_signed: fsigned,
                            dst_signed: ts.is_signed(),
                        },
                        v,
                        t,
                    )
                }
            } else {
                fl.int_resize(v, fsigned, t)
            }
        }
        (false, true) => {
            // 6.4.3.2: the default rounding to floating point is to nearest even.
            let r = round.unwrap_or(Round::Rte);
            let op = if fsigned {
                ConvOp::SintToFloat(r)
            } else {
                ConvOp::UintToFloat(r)
            };
            fl.b.convert(op, v, t)
        }
        (true, false) => {
            // 6.4.3.1: the default rounding to integer is toward zero.
            let round = round.unwrap_or(Round::Rtz);
            let op = if ts.is_signed() {
                ConvOp::FloatToSint { round, sat }
            } else {
                ConvOp::FloatToUint { round, sat }
            };
            fl.b.convert(op, v, t)
        }
        (true, true) => {
            if fs.size() == ts.size() {
                v
            } else {
                fl.b.convert(ConvOp::Fconv(round.unwrap_or(Round::Rte)), v, t)
            }
        }
    };
    Ok(Some(r))
}

/// The address space an atomic's pointer argument names.
fn atomic_scope_default(fl: &FnLower, p: Value) -> Scope {
    match fl.b.value_type(p).addr_space() {
        Some(IrSpace::Local) => Scope::WorkGroup,
        _ => Scope::Device,
    }
}

/// The 1.x atomic_*/atom_* functions and the C11-style atomics of 6.15.12.
fn atomic(
    fl: &mut FnLower,
    name: &str,
    params: &[TypeId],
    args: &[Expr],
    rt: TypeId,
) -> Res<Option<Option<Value>>> {
    let legacy = name.strip_prefix("atom_").or_else(|| {
        let r = name.strip_prefix("atomic_")?;
        matches!(
            r,
            "add"
                | "sub"
                | "xchg"
                | "min"
                | "max"
                | "and"
                | "or"
                | "xor"
                | "inc"
                | "dec"
                | "cmpxchg"
        )
        .then_some(r)
    });
    let elem_signed = |fl: &FnLower| {
        params
            .first()
            .and_then(|p| fl.cx.p.types.pointee(*p))
            .is_some_and(|q| match fl.cx.ty(q.ty) {
                CType::Atomic(s) | CType::Scalar(s) => s.is_signed(),
                _ => false,
            })
    };
    let rmw = |op: &str, signed: bool| -> Option<RmwOp> {
        Some(match op {
            "add" | "inc" => RmwOp::Add,
            "sub" | "dec" => RmwOp::Sub,
            "xchg" | "exchange" => RmwOp::Xchg,
            "and" => RmwOp::And,
            "or" => RmwOp::Or,
            "xor" => RmwOp::Xor,
            "min" if signed => RmwOp::Smin,
            "min" => RmwOp::Umin,
            "max" if signed => RmwOp::Smax,
            "max" => RmwOp::Umax,
            _ => return None,
        })
    };
    if let Some(op) = legacy {
        // 6.15.12.8: the legacy atomics are relaxed read-modify-writes.
        let p = fl.val(&args[0])?;
        let scope = atomic_scope_default(fl, p);
        let signed = elem_signed(fl);
        let t = fl.reg(rt)?;
        if op == "cmpxchg" {
            let c = fl.val(&args[1])?;
            let v = fl.val(&args[2])?;
            let r =
                fl.b.cmpxchg(Ordering::Relaxed, Ordering::Relaxed, scope, p, c, v);
            return Ok(Some(Some(r)));
        }
        let x = if op == "inc" || op == "dec" {
            fl.iconst(t, 1)
        } else {
            fl.val(&args[1])?
        };
        let Some(op) = rmw(op, signed) else {
            return Ok(None);
        };
        let r = fl.b.atomic_rmw(op, Ordering::Relaxed, scope, p, x);
        return Ok(Some(Some(r)));
    }
    let Some(base) = name.strip_prefix("atomic_") else {
        return Ok(None);
    };
    let (base, explicit) = match base.strip_suffix("_explicit") {
        Some(b) => (b, true),
        None => (base, false),
    };
    let order_at = |fl: &FnLower, i: usize| {
        if explicit {
            order_of(args.get(i).and_then(|a| const_arg(fl, a)))
        } else {
            Ordering::SeqCst
        }
    };
    let scope_at = |fl: &FnLower, i: usize| match args.get(i) {
        Some(a) if explicit => scope_of(const_arg(fl, a), Scope::Device),
        _ => Scope::Device,
    };
    match base {
        "init" => {
            let p = fl.val(&args[0])?;
            let v = fl.val(&args[1])?;
            let al = fl.b.value_type(v).bytes();
            fl.b.store(v, p, al, false);
            Ok(Some(None))
        }
        "store" => {
            let p = fl.val(&args[0])?;
            let v = fl.val(&args[1])?;
            let (o, s) = (order_at(fl, 2), scope_at(fl, 3));
            fl.b.atomic_store(o, s, v, p);
            Ok(Some(None))
        }
        "load" => {
            let p = fl.val(&args[0])?;
            let t = fl.reg(rt)?;
            let (o, s) = (order_at(fl, 1), scope_at(fl, 2));
            Ok(Some(Some(fl.b.atomic_load(t, o, s, p))))
        }
        "flag_test_and_set" => {
            let p = fl.val(&args[0])?;
            let (o, s) = (order_at(fl, 1), scope_at(fl, 2));
            let one = fl.iconst(Type::I32, 1);
            let old = fl.b.atomic_rmw(RmwOp::Xchg, o, s, p, one);
            Ok(Some(Some(fl.truth(old))))
        }
        "flag_clear" => {
            let p = fl.val(&args[0])?;
            let (o, s) = (order_at(fl, 1), scope_at(fl, 2));
            let z = fl.iconst(Type::I32, 0);
            fl.b.atomic_store(o, s, z, p);
            Ok(Some(None))
        }
        "compare_exchange_strong" | "compare_exchange_weak" => {
            let p = fl.val(&args[0])?;
            let ep = fl.val(&args[1])?;
            let desired = fl.val(&args[2])?;
            let (succ, fail, s) = (order_at(fl, 3), order_at(fl, 4), scope_at(fl, 5));
            let t = fl.b.value_type(desired);
            let al = t.bytes();
            let expected = fl.b.load(t, ep, al, false);
            let old = fl.b.cmpxchg(succ, fail, s, p, expected, desired);
            // The exchange compares object representations (6.15.12.7, C11 7.17.7.4).
            let ok = if t.is_float() {
                let it = scalar_ir(match t.lane_bits() {
                    16 => Scalar::Short,
                    32 => Scalar::Int,
                    _ => Scalar::Long,
                });
                let a = fl.b.bitcast(old, it);
                let e = fl.b.bitcast(expected, it);
                fl.b.icmp(IntCC::Eq, a, e)
            } else {
                fl.b.icmp(IntCC::Eq, old, expected)
            };
            // 6.15.12.7: on failure the value read is written to *expected.
            let keep = fl.b.select(ok, expected, old);
            fl.b.store(keep, ep, al, false);
            Ok(Some(Some(ok)))
        }
        _ => {
            let Some(op) = base.strip_prefix("fetch_").or(match base {
                "exchange" => Some("exchange"),
                _ => None,
            }) else {
                return Ok(None);
            };
            let signed = elem_signed(fl);
            let Some(op) = rmw(op, signed) else {
                return Ok(None);
            };
            let p = fl.val(&args[0])?;
            let v = fl.val(&args[1])?;
            let (o, s) = (order_at(fl, 2), scope_at(fl, 3));
            Ok(Some(Some(fl.b.atomic_rmw(op, o, s, p, v))))
        }
    }
}

/// vloadn / vstoren and the half forms (6.15.7): element loads and stores at
/// `p + offset * n` (`n` rounded up to 4 for the aligned `vloada_half3`/`vstorea_half3`).
fn vload_store(
    fl: &mut FnLower,
    name: &str,
    args: &[Expr],
    rt: TypeId,
) -> Res<Option<Option<Value>>> {
    let (load, rest) = if let Some(r) = name.strip_prefix("vload") {
        (true, r)
    } else if let Some(r) = name.strip_prefix("vstore") {
        (false, r)
    } else {
        return Ok(None);
    };
    let (half, aligned, rest) = if let Some(r) = rest.strip_prefix("_half") {
        (true, false, r)
    } else if let Some(r) = rest.strip_prefix("a_half") {
        (true, true, r)
    } else {
        (false, false, rest)
    };
    let (round, rest) = parse_round(rest);
    let n = if rest.is_empty() && half {
        1
    } else {
        match rest.parse::<u32>() {
            Ok(n) => n,
            Err(_) => return Ok(None),
        }
    };
    let (off_e, p_e) = if load {
        (&args[0], &args[1])
    } else {
        (&args[1], &args[2])
    };
    let Some(q) = fl.cx.p.types.pointee(p_e.ty) else {
        return Ok(None);
    };
    let Some((s, _)) = fl.cx.arith(q.ty) else {
        return Ok(None);
    };
    let et = scalar_ir(s);
    let es = s.size();
    let stride = if aligned && n == 3 { 4 } else { n };
    let align = if aligned { es * stride } else { es };
    let p = fl.val(p_e)?;
    let off = fl.val(off_e)?;
    let off = fl.int_resize(off, false, Type::I64);
    let k = fl.iconst(Type::I64, i64::from(es * stride));
    let byte = fl.b.imul(off, k);
    let base = fl.b.ptradd(p, byte);
    let mt = et.vector(n).expect("vector type");
    if load {
        let raw = if n == 3 {
            let mut lanes = Vec::new();
            for i in 0..3 {
                let a = fl.offset(base, i64::from(i * es));
                lanes.push(fl.b.load(et, a, align.min(es), false));
            }
            fl.build_vector(mt, &lanes)
        } else {
            fl.b.load(mt, base, align, false)
        };
        if !half {
            return Ok(Some(Some(raw)));
        }
        // vload_half: half values widened to float, exactly.
        let t = fl.reg(rt)?;
        return Ok(Some(Some(fl.b.convert(ConvOp::Fconv(Round::Rte), raw, t))));
    }
    let mut v = fl.val(&args[0])?;
    if half {
        // vstore_half: rounded to half as the suffix says, to nearest even by default.
        let r = round.unwrap_or(Round::Rte);
        v = fl.b.convert(ConvOp::Fconv(r), v, mt);
    }
    if n == 3 {
        for i in 0..3 {
            let a = fl.offset(base, i64::from(i * es));
            let l = fl.b.extractlane(v, i as u8);
            fl.b.store(l, a, align.min(es), false);
        }
    } else {
        fl.b.store(v, base, align, false);
    }
    Ok(Some(None))
}

/// async_work_group_copy / async_work_group_strided_copy (6.15.11): the work-items of the
/// group share the copy (item `l` copies elements `l`, `l + size`, ...); the copy is
/// complete at wait_group_events, a barrier. Returns the event argument.
fn async_copy(fl: &mut FnLower, name: &str, args: &[Expr]) -> Res<Option<Option<Value>>> {
    let strided = match name {
        "async_work_group_copy" => false,
        "async_work_group_strided_copy" => true,
        "wait_group_events" => {
            fl.val(&args[0])?;
            fl.val(&args[1])?;
            fl.b.barrier(FenceFlags::LOCAL | FenceFlags::GLOBAL, Scope::WorkGroup);
            return Ok(Some(None));
        }
        "prefetch" => {
            // A hint only.
            fl.val(&args[0])?;
            fl.val(&args[1])?;
            return Ok(Some(None));
        }
        _ => return Ok(None),
    };
    let Some(q) = fl.cx.p.types.pointee(args[0].ty) else {
        return Ok(None);
    };
    let ety = q.ty;
    let size = fl.cx.size_of(ety) as i64;
    let align = fl.cx.align_of(ety);
    let Some(mt) = fl.cx.mem_type(ety) else {
        return Ok(None);
    };
    let dst = fl.val(&args[0])?;
    let src = fl.val(&args[1])?;
    let n = fl.val(&args[2])?;
    let n = fl.int_resize(n, false, Type::I64);
    let stride = if strided {
        let s = fl.val(&args[3])?;
        Some(fl.int_resize(s, false, Type::I64))
    } else {
        None
    };
    let event = fl.val(&args[if strided { 4 } else { 3 }])?;
    // 6.15.11: the strided form reads (local destination) or writes (global destination)
    // every `stride`-th element of the global buffer.
    let dst_local = fl.b.value_type(dst).addr_space() == Some(IrSpace::Local);
    let lid = fl.b.work_item(WorkItemOp::LocalLinearId, 0, Type::I64);
    let mut lsize = fl.b.work_item(WorkItemOp::LocalSize, 0, Type::I64);
    for d in 1..3 {
        let s = fl.b.work_item(WorkItemOp::LocalSize, d, Type::I64);
        lsize = fl.b.imul(lsize, s);
    }
    let head = fl.b.create_block();
    let body = fl.b.create_block();
    let exit = fl.b.create_block();
    fl.b.jump(head, &[lid]);
    fl.b.switch_to_block(head);
    let i = fl.b.append_block_param(head, Type::I64);
    let c = fl.b.icmp(IntCC::Ult, i, n);
    fl.b.brif(c, body, &[], exit, &[]);
    fl.b.switch_to_block(body);
    let k = fl.iconst(Type::I64, size);
    let plain = fl.b.imul(i, k);
    let far = match stride {
        Some(s) => {
            let j = fl.b.imul(i, s);
            fl.b.imul(j, k)
        }
        None => plain,
    };
    let (soff, doff) = if dst_local {
        (far, plain)
    } else {
        (plain, far)
    };
    let sp = fl.b.ptradd(src, soff);
    let dp = fl.b.ptradd(dst, doff);
    let v = fl.b.load(mt, sp, align, false);
    fl.b.store(v, dp, align, false);
    let next = fl.b.iadd(i, lsize);
    fl.b.jump(head, &[next]);
    fl.b.switch_to_block(exit);
    Ok(Some(Some(event)))
}

/// The work-group collective functions (6.15.16, and 6.15.17 of
/// `cl_khr_work_group_uniform_arithmetic`) as `group_*` instructions, which leave the exchange
/// between the work-items to the device. `work_group_all`/`any` and the `logical_` forms
/// combine truth values (1 or 0) with and, or, xor (6.15.17: "a non-zero predicate argument
/// or return value is logically true").
fn work_group(fl: &mut FnLower, name: &str, args: &[Expr], rt: TypeId) -> Res<Option<Value>> {
    let (rest, scope) = match (
        name.strip_prefix("work_group_"),
        name.strip_prefix("sub_group_"),
    ) {
        (Some(rest), _) => (rest, Scope::WorkGroup),
        (_, Some(rest)) => (rest, Scope::SubGroup),
        _ => return Ok(None),
    };
    if rest == "broadcast" && scope == Scope::SubGroup {
        // 6.15.19: sub_group_broadcast(x, uint sub_group_local_id).
        let x = fl.val(&args[0])?;
        let idx = fl.int_resize_val(&args[1])?;
        return Ok(Some(fl.b.group(GroupOp::Broadcast, scope, x, Some(idx))));
    }
    if rest == "broadcast" {
        let x = fl.val(&args[0])?;
        // The linear local id of the work-item named by (x, y, z), with the group's actual
        // sizes (6.15.1: get_local_linear_id).
        let ls: Vec<Value> = (0..2)
            .map(|d| fl.b.work_item(WorkItemOp::LocalSize, d, Type::I64))
            .collect();
        let mut idx = fl.int_resize_val(&args[1])?;
        if args.len() > 2 {
            let y = fl.int_resize_val(&args[2])?;
            let y = fl.b.imul(y, ls[0]);
            idx = fl.b.iadd(idx, y);
        }
        if args.len() > 3 {
            let z = fl.int_resize_val(&args[3])?;
            let plane = fl.b.imul(ls[0], ls[1]);
            let z = fl.b.imul(z, plane);
            idx = fl.b.iadd(idx, z);
        }
        return Ok(Some(fl.b.group(GroupOp::Broadcast, scope, x, Some(idx))));
    }
    let (make, op): (fn(BinaryOp) -> GroupOp, &str) = match rest {
        "all" => (GroupOp::Reduce, "logical_and"),
        "any" => (GroupOp::Reduce, "logical_or"),
        _ => {
            if let Some(op) = rest.strip_prefix("reduce_") {
                (GroupOp::Reduce, op)
            } else if let Some(op) = rest.strip_prefix("scan_inclusive_") {
                (GroupOp::ScanInclusive, op)
            } else if let Some(op) = rest.strip_prefix("scan_exclusive_") {
                (GroupOp::ScanExclusive, op)
            } else {
                return Ok(None);
            }
        }
    };
    let t = fl.reg(rt)?;
    let signed = fl.cx.is_signed(rt);
    let float = t.is_float();
    let bop = match (op, float, signed) {
        ("add", true, _) => BinaryOp::Fadd,
        ("add", false, _) => BinaryOp::Iadd,
        ("mul", true, _) => BinaryOp::Fmul,
        ("mul", false, _) => BinaryOp::Imul,
        ("min", true, _) => BinaryOp::Fmin,
        ("max", true, _) => BinaryOp::Fmax,
        ("min", false, true) => BinaryOp::Smin,
        ("min", false, false) => BinaryOp::Umin,
        ("max", false, true) => BinaryOp::Smax,
        ("max", false, false) => BinaryOp::Umax,
        ("and" | "logical_and", false, _) => BinaryOp::Band,
        ("or" | "logical_or", false, _) => BinaryOp::Bor,
        ("xor" | "logical_xor", false, _) => BinaryOp::Bxor,
        _ => return Ok(None),
    };
    let x = fl.val(&args[0])?;
    let x = if op.starts_with("logical_") {
        let b = fl.truth(x);
        fl.b.convert(ConvOp::Zext, b, t)
    } else {
        x
    };
    Ok(Some(fl.b.group(make(bop), scope, x, None)))
}

/// printf (6.15.14) as one library function, `@printf(ptr.constant format, ptr.private
/// args) -> i32`: the arguments after the format (already promoted by sema) are stored in a
/// private buffer in order, each at the next offset aligned to its size in memory (a 3-lane
/// vector takes 4 lanes; pointers 8 bytes; a scalar float as a double), and the library reads
/// them back as the format says.
fn printf(fl: &mut FnLower, args: &[Expr], rt: TypeId) -> Res<Value> {
    let fmt = fl.val(&args[0])?;
    let mut vals = Vec::new();
    let mut offset = 0u32;
    for a in &args[1..] {
        let v = fl.val(a)?;
        let t = fl.b.value_type(v);
        let (v, size) = if t.lane_type() == Type::I1 {
            let w = t.with_lane_type(Type::I32).expect("i32 lanes");
            (fl.b.convert(ConvOp::Zext, v, w), w.bytes())
        } else if t.is_ptr() {
            (v, 8)
        } else if t == Type::F32 {
            // 6.15.14.3: f, e, g and a "convert a float argument to a double only if the
            // double data type is supported"; the library always reads a scalar floating
            // argument as a double, so one without doubles is widened here (exactly).
            (fl.b.convert(ConvOp::Fconv(Round::Rte), v, Type::F64), 8)
        } else {
            (v, t.bytes())
        };
        offset = offset.div_ceil(size) * size;
        vals.push((v, offset, size));
        offset += size;
    }
    let slot = fl.b.func.create_slot(offset.max(1), 16);
    let base = fl.b.slot_addr(slot);
    for (v, off, size) in vals {
        let at = fl.offset(base, i64::from(off));
        fl.b.store(v, at, size.min(16), false);
    }
    let ret = fl.reg(rt)?;
    let fty = fl.b.value_type(fmt);
    let f = match fl.cx.decls.get("printf") {
        Some(&f) => f,
        None => {
            let sig = Signature::new(&[fty, Type::ptr(IrSpace::Private)], Some(ret));
            let f = fl.cx.module.add_function("printf", sig);
            fl.cx.decls.insert("printf".to_string(), f);
            f
        }
    };
    fl.b.call(f, Some(ret), &[fmt, base])
        .ok_or_else(|| LowerError::new("printf returns int"))
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
