//! Work-group and sub-group collective functions (6.15.16, 6.15.20: `work_group_all`, `_any`,
//! `_broadcast`, `_reduce_*`, `_scan_*`, and the `sub_group_` ones) and `printf` (6.15.14),
//! whose arguments are packed into a private buffer.

use super::*;
use catalogue::{Collective, GroupArith, GroupScope};

/// The work-group collective functions (6.15.16, and 6.15.17 of
/// `cl_khr_work_group_uniform_arithmetic`) as `group_*` instructions, which leave the exchange
/// between the work-items to the device. `work_group_all`/`any` and the `logical_` forms
/// combine truth values (1 or 0) with and, or, xor (6.15.17: "a non-zero predicate argument
/// or return value is logically true").
pub(super) fn collective(
    fl: &mut FnLower,
    scope: GroupScope,
    op: Collective,
    c: &Call,
) -> Res<Option<Value>> {
    let args = c.args;
    let scope = match scope {
        GroupScope::WorkGroup => Scope::WorkGroup,
        GroupScope::SubGroup => Scope::SubGroup,
    };
    let (make, op): (fn(BinaryOp) -> GroupOp, GroupArith) = match op {
        Collective::All => (GroupOp::Reduce, GroupArith::LogicalAnd),
        Collective::Any => (GroupOp::Reduce, GroupArith::LogicalOr),
        Collective::Broadcast => return broadcast(fl, scope, c).map(Some),
        Collective::Reduce(op) => (GroupOp::Reduce, op),
        Collective::ScanInclusive(op) => (GroupOp::ScanInclusive, op),
        Collective::ScanExclusive(op) => (GroupOp::ScanExclusive, op),
    };
    let t = fl.reg(c.rt)?;
    let signed = fl.cx.is_signed(c.rt);
    let float = t.is_float();
    let bop = match (op, float, signed) {
        (GroupArith::Add, true, _) => BinaryOp::Fadd,
        (GroupArith::Add, false, _) => BinaryOp::Iadd,
        (GroupArith::Mul, true, _) => BinaryOp::Fmul,
        (GroupArith::Mul, false, _) => BinaryOp::Imul,
        (GroupArith::Min, true, _) => BinaryOp::Fmin,
        (GroupArith::Max, true, _) => BinaryOp::Fmax,
        (GroupArith::Min, false, true) => BinaryOp::Smin,
        (GroupArith::Min, false, false) => BinaryOp::Umin,
        (GroupArith::Max, false, true) => BinaryOp::Smax,
        (GroupArith::Max, false, false) => BinaryOp::Umax,
        (GroupArith::And | GroupArith::LogicalAnd, false, _) => BinaryOp::Band,
        (GroupArith::Or | GroupArith::LogicalOr, false, _) => BinaryOp::Bor,
        (GroupArith::Xor | GroupArith::LogicalXor, false, _) => BinaryOp::Bxor,
        _ => return library_call(fl, c),
    };
    let x = fl.val(&args[0])?;
    let logical = matches!(
        op,
        GroupArith::LogicalAnd | GroupArith::LogicalOr | GroupArith::LogicalXor
    );
    let x = if logical {
        let b = fl.truth(x);
        fl.b.convert(ConvOp::Zext, b, t)
    } else {
        x
    };
    Ok(Some(fl.b.group(make(bop), scope, x, None)))
}

/// `work_group_broadcast(x, local_id...)` and `sub_group_broadcast(x, sub_group_local_id)`.
fn broadcast(fl: &mut FnLower, scope: Scope, c: &Call) -> Res<Value> {
    let args = c.args;
    let x = fl.val(&args[0])?;
    if scope == Scope::SubGroup {
        // 6.15.20: sub_group_broadcast(x, uint sub_group_local_id).
        let idx = fl.int_resize_val(&args[1])?;
        return Ok(fl.b.group(GroupOp::Broadcast, scope, x, Some(idx)));
    }
    // The linear local id of the work-item named by (x, y, z), with the group's actual sizes
    // (6.15.1: get_local_linear_id).
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
    Ok(fl.b.group(GroupOp::Broadcast, scope, x, Some(idx)))
}

/// printf (6.15.14) as one library function, `@printf(ptr.constant format, ptr.private
/// args) -> i32`: the arguments after the format (already promoted by sema) are stored in a
/// private buffer in order, each at the next offset aligned to its size in memory (a 3-lane
/// vector takes 4 lanes; pointers 8 bytes; a scalar float as a double), and the library reads
/// them back as the format says.
pub(super) fn printf(fl: &mut FnLower, c: &Call) -> Res<Value> {
    let args = c.args;
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
        } else if t == Type::F32 || t == Type::F16 {
            // 6.15.14.3: f, e, g and a "convert a float argument to a double only if the
            // double data type is supported"; the library always reads a scalar floating
            // argument as a double, so one without doubles is widened here (exactly), and a
            // half likewise ("a float or half argument that is a scalar type").
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
    let ret = fl.reg(c.rt)?;
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
