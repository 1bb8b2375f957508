//! 6.15.18 pipe functions (and the sub-group ones of 6.15.20): a pipe is the address of its
//! storage (the kernel ABI's `ArgKind::Pipe`), a `reserve_id_t` a 64-bit value whose 0 is the
//! invalid ID. The reservations, commits and queries are the builtin library's (`pipe.cl`,
//! the same for every packet type: it takes the packet's size and alignment); lowering copies
//! the packet itself between the slot the library names and the caller's pointer, and makes
//! the work-group and sub-group forms from the work-item ones (one work-item reserves or
//! commits, the ID is broadcast).

use super::*;
use catalogue::Pipe as P;

/// A call of the library's `pipe_*` function `name` (a scalar mangled name: one `.`-part per
/// parameter).
fn lib(fl: &mut FnLower, name: &str, args: &[Value], ret: Option<Type>) -> Option<Value> {
    let params: Vec<Type> = args.iter().map(|&a| fl.b.value_type(a)).collect();
    let f = declared(fl, name, Signature::new(&params, ret));
    fl.b.call(f, ret, args)
}

/// A commit of reservation `rid`, after a release fence at device scope: the packets written
/// (or read) under the reservation are ordered before the library's store that publishes the
/// slots to the other side. Pipes are device-scope objects that several work-groups use at
/// once (6.15.18: "Pipes ... can be used to communicate between work-items", the work-items of
/// one kernel or of kernels that run at once), and the library's own accesses are 1.x atomics,
/// which order nothing (6.15.12.8: "equivalent to atomic operations with memory_order_relaxed
/// consistency"); a device with a weak memory model (the GPU) would let a reader see the
/// publication before the packet.
fn commit(fl: &mut FnLower, p: Value, rid: Value, writing: Value) {
    fl.b.fence(FenceFlags::GLOBAL, Ordering::AcqRel, Scope::Device);
    lib(fl, "pipe_commit.pipe.ulong.uint", &[p, rid, writing], None);
}

/// The packet type of the pipe type `t`.
fn packet(fl: &FnLower, t: TypeId) -> Res<TypeId> {
    match fl.cx.ty(t) {
        CType::Pipe(elem, _) => Ok(*elem),
        _ => Err(LowerError::new("pipe function without a pipe argument")),
    }
}

/// Lowers a call of pipe function `f`.
pub(super) fn pipe(fl: &mut FnLower, f: P, c: &Call) -> Res<Option<Value>> {
    let u32c = |fl: &mut FnLower, v: u64| fl.iconst(Type::I32, v as i64);
    if f == P::IsValidReserveId {
        let rid = fl.val(&c.args[0])?;
        let zero = fl.iconst(Type::I64, 0);
        let valid = fl.b.icmp(IntCC::Ne, rid, zero);
        return Ok(Some(as_bool(fl, valid, c)?));
    }
    let p = fl.val(&c.args[0])?;
    let elem = packet(fl, c.params[0])?;
    let writing = u32c(fl, u64::from(f.writes()));
    let (size, align) = (fl.cx.size_of(elem), fl.cx.align_of(elem));
    match f {
        P::GetPipeNumPackets => Ok(lib(fl, "pipe_num_packets.pipe", &[p], Some(Type::I32))),
        P::GetPipeMaxPackets => Ok(lib(fl, "pipe_max_packets.pipe", &[p], Some(Type::I32))),
        P::ReadPipe | P::WritePipe if c.args.len() == 2 => {
            let one = u32c(fl, 1);
            let rid = reserve(fl, p, one, writing, size, align);
            let index = u32c(fl, 0);
            let ptr = fl.val(&c.args[1])?;
            let ok = transfer(fl, f, p, rid, index, ptr, size, align);
            commit(fl, p, rid, writing);
            Ok(Some(status(fl, ok)))
        }
        P::ReadPipe | P::WritePipe => {
            let rid = fl.val(&c.args[1])?;
            let index = fl.val(&c.args[2])?;
            let ptr = fl.val(&c.args[3])?;
            let ok = transfer(fl, f, p, rid, index, ptr, size, align);
            Ok(Some(status(fl, ok)))
        }
        P::ReserveReadPipe | P::ReserveWritePipe => {
            let n = fl.val(&c.args[1])?;
            Ok(Some(reserve(fl, p, n, writing, size, align)))
        }
        P::CommitReadPipe | P::CommitWritePipe => {
            let rid = fl.val(&c.args[1])?;
            commit(fl, p, rid, writing);
            Ok(None)
        }
        P::WorkGroupReserveReadPipe
        | P::WorkGroupReserveWritePipe
        | P::SubGroupReserveReadPipe
        | P::SubGroupReserveWritePipe => {
            let n = fl.val(&c.args[1])?;
            let scope = group_scope(f);
            // 6.15.18.3: "These built-in functions must be encountered by all work-items in
            // a work-group ... with the same argument values": the first work-item reserves
            // for all, and the others receive its ID.
            let first = first_of_group(fl, scope);
            let none = fl.iconst(Type::I64, 0);
            let mine = when(fl, first, Some(none), |fl| {
                Some(reserve(fl, p, n, writing, size, align))
            })
            .expect("the reservation's ID");
            let lane0 = fl.iconst(Type::I64, 0);
            Ok(Some(fl.b.group(
                GroupOp::Broadcast,
                scope,
                mine,
                Some(lane0),
            )))
        }
        P::WorkGroupCommitReadPipe
        | P::WorkGroupCommitWritePipe
        | P::SubGroupCommitReadPipe
        | P::SubGroupCommitWritePipe => {
            let rid = fl.val(&c.args[1])?;
            let scope = group_scope(f);
            // "Indicates that all reads and writes to num_packets associated with reservation
            // reserve_id are completed": every work-item's accesses happen before the commit.
            fl.b.barrier(FenceFlags::GLOBAL, scope);
            let first = first_of_group(fl, scope);
            when(fl, first, None, |fl| {
                commit(fl, p, rid, writing);
                None
            });
            Ok(None)
        }
        P::IsValidReserveId => unreachable!("handled above"),
    }
}

/// A reservation of `n` packets: the library checks the packet type against the pipe's. An
/// acquire fence at device scope follows it, pairing with [`commit`]'s release: the library
/// reserved the slots on seeing their sequence numbers published, so the packets the other
/// side wrote (or finished reading) before publishing are seen by the accesses after it.
fn reserve(fl: &mut FnLower, p: Value, n: Value, writing: Value, size: u64, align: u32) -> Value {
    let size = fl.iconst(Type::I32, size as i64);
    let align = fl.iconst(Type::I32, i64::from(align));
    let rid = lib(
        fl,
        "pipe_reserve.pipe.uint.uint.uint.uint",
        &[p, n, writing, size, align],
        Some(Type::I64),
    )
    .expect("the reservation returns its ID");
    fl.b.fence(FenceFlags::GLOBAL, Ordering::AcqRel, Scope::Device);
    rid
}

/// Copies packet `index` of reservation `rid` to `ptr` (reading) or from it (writing) when the
/// reservation holds that packet; whether it did (an `i1`).
#[allow(clippy::too_many_arguments)]
fn transfer(
    fl: &mut FnLower,
    f: P,
    p: Value,
    rid: Value,
    index: Value,
    ptr: Value,
    size: u64,
    align: u32,
) -> Value {
    let off = lib(
        fl,
        "pipe_packet.pipe.ulong.uint",
        &[p, rid, index],
        Some(Type::I64),
    )
    .expect("the packet query returns an offset");
    let zero = fl.iconst(Type::I64, 0);
    let ok = fl.b.icmp(IntCC::Ne, off, zero);
    when(fl, ok, None, |fl| {
        let slot = fl.b.ptradd(p, off);
        if f.writes() {
            fl.copy(slot, ptr, size, align);
        } else {
            fl.copy(ptr, slot, size, align);
        }
        None
    });
    ok
}

/// Lowers `then` to run only where `cond` (an `i1`) holds. With `otherwise`, `then` gives a
/// value of its type, and the result is that value where `cond` held and `otherwise` elsewhere.
fn when(
    fl: &mut FnLower,
    cond: Value,
    otherwise: Option<Value>,
    then: impl FnOnce(&mut FnLower) -> Option<Value>,
) -> Option<Value> {
    let body = fl.b.create_block();
    let join = fl.b.create_block();
    let other: Vec<Value> = otherwise.into_iter().collect();
    fl.b.brif(cond, body, &[], join, &other);
    fl.b.switch_to_block(body);
    let value: Vec<Value> = then(fl)
        .into_iter()
        .filter(|_| otherwise.is_some())
        .collect();
    fl.b.jump(join, &value);
    fl.b.switch_to_block(join);
    otherwise.map(|o| {
        let t = fl.b.value_type(o);
        fl.b.append_block_param(join, t)
    })
}

/// Table 41: 0 on success, a negative value otherwise.
fn status(fl: &mut FnLower, ok: Value) -> Value {
    let zero = fl.iconst(Type::I32, 0);
    let fail = fl.iconst(Type::I32, -1);
    fl.b.select(ok, zero, fail)
}

/// `valid` (an `i1`) as the call's `bool` result.
fn as_bool(fl: &mut FnLower, valid: Value, c: &Call) -> Res<Value> {
    let t = fl.reg(c.rt)?;
    Ok(if t == Type::I1 {
        valid
    } else {
        fl.b.convert(ConvOp::Zext, valid, t)
    })
}

fn group_scope(f: P) -> Scope {
    match f {
        P::SubGroupReserveReadPipe
        | P::SubGroupReserveWritePipe
        | P::SubGroupCommitReadPipe
        | P::SubGroupCommitWritePipe => Scope::SubGroup,
        _ => Scope::WorkGroup,
    }
}

/// Whether this work-item is the first of its work-group (or sub-group).
fn first_of_group(fl: &mut FnLower, scope: Scope) -> Value {
    let (op, t) = if scope == Scope::SubGroup {
        (WorkItemOp::SubGroupLocalId, Type::I32)
    } else {
        (WorkItemOp::LocalLinearId, Type::I64)
    };
    let id = fl.b.work_item(op, 0, t);
    let zero = fl.iconst(t, 0);
    fl.b.icmp(IntCC::Eq, id, zero)
}
