//! Work-group collective functions (6.15.16: `work_group_all`, `_any`, `_broadcast`,
//! `_reduce_*`, `_scan_*`) and `printf` (6.15.14), whose arguments are packed into a private
//! buffer.

use super::*;

/// The work-group collective functions (6.15.16, and 6.15.17 of
/// `cl_khr_work_group_uniform_arithmetic`) as `group_*` instructions, which leave the exchange
/// between the work-items to the device. `work_group_all`/`any` and the `logical_` forms
/// combine truth values (1 or 0) with and, or, xor (6.15.17: "a non-zero predicate argument
/// or return value is logically true").
pub(super) fn work_group(
    fl: &mut FnLower,
    name: &str,
    args: &[Expr],
    rt: TypeId,
) -> Res<Option<Value>> {
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
pub(super) fn printf(fl: &mut FnLower, args: &[Expr], rt: TypeId) -> Res<Value> {
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
