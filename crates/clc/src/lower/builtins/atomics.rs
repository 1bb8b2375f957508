//! Atomic builtins: the OpenCL 1.x `atomic_*`/`atom_*` functions and the C11-style `atomic_*`
//! functions of 6.15.12, and the memory-order, scope and fence-flag arguments that they and the
//! fences take.

use super::*;

pub(super) fn order_of(v: Option<i128>) -> Ordering {
    // The values of memory_order_* (6.15.12.3) as the front end defines them.
    match v {
        Some(0) => Ordering::Relaxed,
        Some(2) => Ordering::Acquire,
        Some(3) => Ordering::Release,
        Some(4) => Ordering::AcqRel,
        _ => Ordering::SeqCst,
    }
}

pub(super) fn scope_of(v: Option<i128>, default: Scope) -> Scope {
    match v {
        Some(0) => Scope::WorkItem,
        Some(1) => Scope::WorkGroup,
        Some(2) => Scope::Device,
        Some(3) => Scope::AllDevices,
        Some(4) => Scope::SubGroup,
        _ => default,
    }
}

pub(super) fn fence_flags(v: Option<i128>) -> FenceFlags {
    // CLK_LOCAL_MEM_FENCE 1, CLK_GLOBAL_MEM_FENCE 2, CLK_IMAGE_MEM_FENCE 4; a flag set only
    // known at run time fences everything.
    match v {
        Some(f) => FenceFlags((f & 7) as u8),
        None => FenceFlags::LOCAL | FenceFlags::GLOBAL,
    }
}

/// The address space an atomic's pointer argument names.
pub(super) fn atomic_scope_default(fl: &FnLower, p: Value) -> Scope {
    match fl.b.value_type(p).addr_space() {
        Some(IrSpace::Local) => Scope::WorkGroup,
        _ => Scope::Device,
    }
}

/// The 1.x atomic_*/atom_* functions and the C11-style atomics of 6.15.12.
pub(super) fn atomic(
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
