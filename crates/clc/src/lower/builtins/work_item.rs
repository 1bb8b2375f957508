//! Work-item functions (6.15.1) and the sub-group queries (6.15.20): `work_item` instructions,
//! a dimension known only at run time choosing among the three.

use super::*;
use catalogue::WorkItem;

/// A query of the work-item's place in the NDRange.
pub(super) fn query(fl: &mut FnLower, f: WorkItem, c: &Call) -> Res<Option<Value>> {
    use WorkItem as W;
    // With a dimension: the instruction, and what the query returns for a dimension past 2
    // (6.15.1).
    let (op, past) = match f {
        W::GetWorkDim => return Ok(Some(fl.b.work_item(WorkItemOp::WorkDim, 0, Type::I32))),
        W::GetGlobalSize => (WorkItemOp::GlobalSize, 1),
        W::GetGlobalId => (WorkItemOp::GlobalId, 0),
        W::GetLocalSize => (WorkItemOp::LocalSize, 1),
        W::GetEnqueuedLocalSize => (WorkItemOp::EnqueuedLocalSize, 1),
        W::GetLocalId => (WorkItemOp::LocalId, 0),
        W::GetNumGroups => (WorkItemOp::NumGroups, 1),
        W::GetGroupId => (WorkItemOp::GroupId, 0),
        W::GetGlobalOffset => (WorkItemOp::GlobalOffset, 0),
        W::GetGlobalLinearId => return undimensioned(fl, WorkItemOp::GlobalLinearId, c),
        W::GetLocalLinearId => return undimensioned(fl, WorkItemOp::LocalLinearId, c),
        W::GetSubGroupSize => return undimensioned(fl, WorkItemOp::SubGroupSize, c),
        W::GetMaxSubGroupSize => return undimensioned(fl, WorkItemOp::MaxSubGroupSize, c),
        W::GetNumSubGroups => return undimensioned(fl, WorkItemOp::NumSubGroups, c),
        W::GetEnqueuedNumSubGroups => {
            return undimensioned(fl, WorkItemOp::EnqueuedNumSubGroups, c)
        }
        W::GetSubGroupId => return undimensioned(fl, WorkItemOp::SubGroupId, c),
        W::GetSubGroupLocalId => return undimensioned(fl, WorkItemOp::SubGroupLocalId, c),
        W::GetSubGroupEqMask
        | W::GetSubGroupGeMask
        | W::GetSubGroupGtMask
        | W::GetSubGroupLeMask
        | W::GetSubGroupLtMask => return library_call(fl, c),
    };
    let t = fl.reg(c.rt)?;
    if let Some(d) = const_arg(fl, &c.args[0]) {
        return Ok(Some(if (0..3).contains(&d) {
            fl.b.work_item(op, d as u8, t)
        } else {
            fl.iconst(t, past)
        }));
    }
    // A run-time dimension: pick among the three, and the out-of-range value.
    let d = fl.val(&c.args[0])?;
    let mut r = fl.iconst(t, past);
    for dim in (0..3u8).rev() {
        let v = fl.b.work_item(op, dim, t);
        let k = fl.iconst(Type::I32, i64::from(dim));
        let cond = fl.b.icmp(IntCC::Eq, d, k);
        r = fl.b.select(cond, v, r);
    }
    Ok(Some(r))
}

/// A query without a dimension argument, of the call's result type.
fn undimensioned(fl: &mut FnLower, op: WorkItemOp, c: &Call) -> Res<Option<Value>> {
    let t = fl.reg(c.rt)?;
    Ok(Some(fl.b.work_item(op, 0, t)))
}
