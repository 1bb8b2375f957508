//! Atomic builtins: the OpenCL 1.x `atomic_*`/`atom_*` functions and the C11-style `atomic_*`
//! functions of 6.15.12, and the memory-order, scope and fence-flag arguments that they and the
//! fences take.

use super::*;
use catalogue::{Atomic, LegacyAtomic};

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

/// Whether the atomic object of a call's first (pointer) argument is of a signed type.
fn elem_signed(fl: &FnLower, c: &Call) -> bool {
    c.params
        .first()
        .and_then(|p| fl.cx.p.types.pointee(*p))
        .is_some_and(|q| match fl.cx.ty(q.ty) {
            CType::Atomic(s) | CType::Scalar(s) => s.is_signed(),
            _ => false,
        })
}

/// The read-modify-write of a fetch operation on an object of signed type or not.
fn rmw(op: Atomic, signed: bool) -> Option<RmwOp> {
    Some(match op {
        Atomic::FetchAdd => RmwOp::Add,
        Atomic::FetchSub => RmwOp::Sub,
        Atomic::Exchange => RmwOp::Xchg,
        Atomic::FetchAnd => RmwOp::And,
        Atomic::FetchOr => RmwOp::Or,
        Atomic::FetchXor => RmwOp::Xor,
        Atomic::FetchMin if signed => RmwOp::Smin,
        Atomic::FetchMin => RmwOp::Umin,
        Atomic::FetchMax if signed => RmwOp::Smax,
        Atomic::FetchMax => RmwOp::Umax,
        _ => return None,
    })
}

/// The 1.x `atomic_*`/`atom_*` functions (6.15.12.8): relaxed read-modify-writes.
pub(super) fn legacy(fl: &mut FnLower, op: LegacyAtomic, c: &Call) -> Res<Value> {
    use LegacyAtomic as L;
    let args = c.args;
    let p = fl.val(&args[0])?;
    let scope = atomic_scope_default(fl, p);
    let signed = elem_signed(fl, c);
    let t = fl.reg(c.rt)?;
    let rmw = match op {
        L::Cmpxchg => {
            let cmp = fl.val(&args[1])?;
            let v = fl.val(&args[2])?;
            return Ok(fl
                .b
                .cmpxchg(Ordering::Relaxed, Ordering::Relaxed, scope, p, cmp, v));
        }
        L::Add | L::Inc => RmwOp::Add,
        L::Sub | L::Dec => RmwOp::Sub,
        L::Xchg => RmwOp::Xchg,
        L::And => RmwOp::And,
        L::Or => RmwOp::Or,
        L::Xor => RmwOp::Xor,
        L::Min if signed => RmwOp::Smin,
        L::Min => RmwOp::Umin,
        L::Max if signed => RmwOp::Smax,
        L::Max => RmwOp::Umax,
    };
    let x = if matches!(op, L::Inc | L::Dec) {
        fl.iconst(t, 1)
    } else {
        fl.val(&args[1])?
    };
    Ok(fl.b.atomic_rmw(rmw, Ordering::Relaxed, scope, p, x))
}

/// The C11-style atomics of 6.15.12 (`explicit`: the `_explicit` form, whose order and scope
/// are arguments).
pub(super) fn atomic(fl: &mut FnLower, op: Atomic, explicit: bool, c: &Call) -> Res<Option<Value>> {
    let args = c.args;
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
    match op {
        Atomic::Init => {
            let p = fl.val(&args[0])?;
            let v = fl.val(&args[1])?;
            let al = fl.b.value_type(v).bytes();
            fl.b.store(v, p, al, false);
            Ok(None)
        }
        Atomic::Store => {
            let p = fl.val(&args[0])?;
            let v = fl.val(&args[1])?;
            let (o, s) = (order_at(fl, 2), scope_at(fl, 3));
            fl.b.atomic_store(o, s, v, p);
            Ok(None)
        }
        Atomic::Load => {
            let p = fl.val(&args[0])?;
            let t = fl.reg(c.rt)?;
            let (o, s) = (order_at(fl, 1), scope_at(fl, 2));
            Ok(Some(fl.b.atomic_load(t, o, s, p)))
        }
        Atomic::FlagTestAndSet => {
            let p = fl.val(&args[0])?;
            let (o, s) = (order_at(fl, 1), scope_at(fl, 2));
            let one = fl.iconst(Type::I32, 1);
            let old = fl.b.atomic_rmw(RmwOp::Xchg, o, s, p, one);
            Ok(Some(fl.truth(old)))
        }
        Atomic::FlagClear => {
            let p = fl.val(&args[0])?;
            let (o, s) = (order_at(fl, 1), scope_at(fl, 2));
            let z = fl.iconst(Type::I32, 0);
            fl.b.atomic_store(o, s, z, p);
            Ok(None)
        }
        Atomic::CompareExchangeStrong | Atomic::CompareExchangeWeak => {
            let p = fl.val(&args[0])?;
            let ep = fl.val(&args[1])?;
            let desired = fl.val(&args[2])?;
            let (succ, fail, s) = (order_at(fl, 3), order_at(fl, 4), scope_at(fl, 5));
            Ok(Some(compare_exchange(fl, p, ep, desired, [succ, fail], s)))
        }
        Atomic::Exchange
        | Atomic::FetchAdd
        | Atomic::FetchSub
        | Atomic::FetchOr
        | Atomic::FetchXor
        | Atomic::FetchAnd
        | Atomic::FetchMin
        | Atomic::FetchMax => {
            let Some(rmw) = rmw(op, elem_signed(fl, c)) else {
                return library_call(fl, c);
            };
            let p = fl.val(&args[0])?;
            let v = fl.val(&args[1])?;
            let (o, s) = (order_at(fl, 2), scope_at(fl, 3));
            Ok(Some(fl.b.atomic_rmw(rmw, o, s, p, v)))
        }
    }
}

/// A compare-exchange of `*p` with the value `*ep` expected and `desired`, under the orders
/// of success and failure: whether it succeeded, the value read written to `*ep` if not.
fn compare_exchange(
    fl: &mut FnLower,
    p: Value,
    ep: Value,
    desired: Value,
    [succ, fail]: [Ordering; 2],
    s: Scope,
) -> Value {
    let t = fl.b.value_type(desired);
    let al = t.bytes();
    let expected = fl.b.load(t, ep, al, false);
    let old = fl.b.cmpxchg(succ, fail, s, p, expected, desired);
    // The exchange compares object representations (6.15.12.7, C11 7.17.7.4).
    let ok = if t.is_float() {
        let it = same_size_int(t);
        let a = fl.b.bitcast(old, it);
        let e = fl.b.bitcast(expected, it);
        fl.b.icmp(IntCC::Eq, a, e)
    } else {
        fl.b.icmp(IntCC::Eq, old, expected)
    };
    // 6.15.12.7: on failure the value read is written to *expected.
    let keep = fl.b.select(ok, expected, old);
    fl.b.store(keep, ep, al, false);
    ok
}
