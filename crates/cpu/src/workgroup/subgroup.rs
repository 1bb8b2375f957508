//! Sub-groups in the work-group function (OpenCL C 6.15.1, 6.15.19). The CPU device's
//! sub-group k is the work-items with linear local id in [k * S, (k + 1) * S) for
//! S = [`SUB_GROUP_SIZE`], the last of a work-group smaller.
//!
//! The sub-group queries that differ between work-items come from the linear local id; the
//! others are uniform and left to the code generator. A sub-group collective is combined like
//! a work-group one, once per group between the two region loops, in one pass over the
//! group's work-items in linear id order that starts afresh at each sub-group's first: a
//! scan's results replace its operands, and a reduce's or broadcast's result for sub-group k
//! goes to element k of its result array.
//!
//! A sub-group barrier or collective need not be reached by the whole work-group (6.15.8:
//! "If sub_group_barrier is inside a conditional statement, then all work-items within the
//! sub-group must enter the conditional if any work-item in the sub-group enters the
//! conditional statement"): one under a branch that may go different ways in different
//! sub-groups (`diverges_by_sub_group`) makes the transform keep where each work-item
//! stopped (the work-group module's "states").

use ferrocl_ir::analysis::Cfg;
use ferrocl_ir::entity::EntitySet;
use ferrocl_ir::uniformity::{post_dominators, Uniformity};
use ferrocl_ir::{
    BinaryOp, Block, Function, GroupOp, Inst, IntCC, Op, Scope, Type, Value, WorkItemOp,
};

use super::context::Key;
use super::{err, Emitter};
use crate::{CompileError, SUB_GROUP_SIZE};

/// Sub-group size and log2 of it (a power of two: a sub-group is a mask and a shift away).
const SIZE: i64 = SUB_GROUP_SIZE as i64;
const SHIFT: i64 = SUB_GROUP_SIZE.trailing_zeros() as i64;

/// Whether `op` is a sub-group query whose answer differs between work-items.
pub(super) fn varies_by_sub_group(op: &Op) -> bool {
    matches!(
        op,
        Op::WorkItem(
            WorkItemOp::SubGroupId | WorkItemOp::SubGroupLocalId | WorkItemOp::SubGroupSize,
            _
        )
    )
}

/// Whether `op` splits the kernel into regions for one sub-group only: a sub-group barrier or
/// collective.
pub(super) fn sub_group_split(op: &Op) -> bool {
    matches!(
        op,
        Op::Barrier(_, Scope::SubGroup) | Op::Group(_, Scope::SubGroup)
    )
}

/// Whether kernel `f` has a sub-group barrier or collective that some work-items of a group
/// may not reach: one in a block between a branch the work-items may take different ways
/// (`Uniformity`) and that branch's immediate post-dominator. Sub-group uniform control
/// flow may still differ between the sub-groups of a group.
pub(super) fn diverges_by_sub_group(f: &Function) -> bool {
    let has = |b: &Block| {
        f.layout
            .block_insts(*b)
            .iter()
            .any(|&i| sub_group_split(&f.dfg.insts[i].op))
    };
    if !f.layout.blocks().iter().any(has) {
        return false;
    }
    let uni = Uniformity::new(f);
    let cfg = Cfg::new(f);
    let ipdom = post_dominators(f, &cfg);
    let mut under_divergence: EntitySet<Block> = EntitySet::new();
    for &d in f.layout.blocks() {
        if uni.is_uniform_branch(d) {
            continue;
        }
        let join = ipdom[d];
        let mut stack: Vec<Block> = cfg.succs(d).to_vec();
        let mut seen: EntitySet<Block> = EntitySet::new();
        while let Some(b) = stack.pop() {
            if Some(b) == join || !seen.insert(b) {
                continue;
            }
            under_divergence.insert(b);
            stack.extend(cfg.succs(b).iter().copied());
        }
    }
    f.layout
        .blocks()
        .iter()
        .any(|&b| under_divergence.contains(b) && has(&b))
}

impl Emitter<'_, '_> {
    /// Sub-group query `op` (one that differs between work-items) of the current work-item,
    /// as an i64.
    pub(super) fn sub_group_query(&mut self, op: WorkItemOp) -> Value {
        let lin = self.ids.lin.expect("inside the loops");
        match op {
            WorkItemOp::SubGroupId => self.sub_group_of(lin),
            WorkItemOp::SubGroupLocalId => self.imm(BinaryOp::Band, lin, SIZE - 1),
            // 6.15.1: get_sub_group_size "may be smaller than get_max_sub_group_size() for
            // the last sub-group".
            WorkItemOp::SubGroupSize => {
                let first = self.imm(BinaryOp::Band, lin, !(SIZE - 1));
                self.sub_group_len(first)
            }
            _ => unreachable!("{op:?} is not a per-work-item sub-group query"),
        }
    }

    /// Where in the result array of a reduce or broadcast of `scope` the work-item with linear
    /// id `lin` finds its result: its sub-group's element, or element 0 for the work-group.
    pub(super) fn result_index(&mut self, scope: Scope, lin: Value) -> Value {
        if scope == Scope::SubGroup {
            self.sub_group_of(lin)
        } else {
            self.b.iconst(Type::I64, 0)
        }
    }

    /// Combines sub-group collective `bar` for every sub-group of the group (6.15.19), each in
    /// increasing sub-group local id order. With states (`waiting`: the exit code of `bar`),
    /// only the sub-groups whose work-items wait at `bar` are combined: the others' operands
    /// and results stay as they are (a sub-group that has gone past `bar` holds its results
    /// there, and its values are copied from them again when the region after `bar` runs).
    pub(super) fn combine_sub_groups(
        &mut self,
        bar: Inst,
        g: GroupOp,
        waiting: Option<i64>,
    ) -> Result<(), CompileError> {
        let op_key = Key::Operand(bar);
        let ty = self.ctx.value_type(op_key);
        let zero = self.b.iconst(Type::I64, 0);
        let x0 = self.load_ctx(op_key, zero)?;
        match g {
            GroupOp::Broadcast => {
                // Each work-item's turn writes its sub-group's result. The id is the same for
                // the sub-group's work-items ("sub_group_local_id ... must be the same for all
                // work-items in the sub-group"): its first's is used, clamped into the
                // sub-group as for a work-group broadcast.
                self.group_loop(0, x0, |t, i, acc| {
                    let first = t.imm(BinaryOp::Band, i, !(SIZE - 1));
                    let id = t.load_ctx(Key::Id(bar), first)?;
                    let len = t.sub_group_len(first);
                    let last = t.imm(BinaryOp::Iadd, len, -1);
                    let id = t.b.binary(BinaryOp::Umin, id, last);
                    let at = t.b.iadd(first, id);
                    let x = t.load_ctx(op_key, at)?;
                    let k = t.sub_group_of(i);
                    let x = t.if_waiting(waiting, i, Key::Result(bar), k, x)?;
                    t.store_ctx(Key::Result(bar), k, x)?;
                    Ok(acc)
                })?;
            }
            GroupOp::Reduce(op) | GroupOp::ScanInclusive(op) => {
                let reduce = matches!(g, GroupOp::Reduce(_));
                self.group_loop(0, x0, |t, i, acc| {
                    let (first, x, next) = t.sub_group_step(op_key, op, i, acc)?;
                    let next = t.b.select(first, x, next);
                    // The running combination: a scan's result for this work-item; for a
                    // reduce, the sub-group's last one is its total.
                    if reduce {
                        let k = t.sub_group_of(i);
                        let r = t.if_waiting(waiting, i, Key::Result(bar), k, next)?;
                        t.store_ctx(Key::Result(bar), k, r)?;
                    } else {
                        let r = t.if_waiting(waiting, i, op_key, i, next)?;
                        t.store_ctx(op_key, i, r)?;
                    }
                    Ok(next)
                })?;
            }
            GroupOp::ScanExclusive(op) => {
                // A sub-group's first work-item gets the identity, the others the combination
                // from the first's operand on (a lone -0.0 or NaN passes through unchanged).
                let identity = self.identity(op, ty)?;
                self.group_loop(0, x0, |t, i, acc| {
                    let (first, x, next) = t.sub_group_step(op_key, op, i, acc)?;
                    let out = t.b.select(first, identity, acc);
                    let out = t.if_waiting(waiting, i, op_key, i, out)?;
                    t.store_ctx(op_key, i, out)?;
                    Ok(t.b.select(first, x, next))
                })?;
            }
        }
        Ok(())
    }

    /// `x` where work-item `i` waits at the collective whose exit code is `waiting` (or
    /// without states), else what the context holds at `key`, `index`.
    fn if_waiting(
        &mut self,
        waiting: Option<i64>,
        i: Value,
        key: Key,
        index: Value,
        x: Value,
    ) -> Result<Value, CompileError> {
        let Some(code) = waiting else {
            return Ok(x);
        };
        let state = self.load_ctx(Key::State, i)?;
        let code = self.b.iconst(Type::I64, code);
        let here = self.b.icmp(IntCC::Eq, state, code);
        let old = self.load_ctx(key, index)?;
        Ok(self.b.select(here, x, old))
    }

    /// Combining operation `op`'s identity as a constant of type `ty`.
    pub(super) fn identity(&mut self, op: BinaryOp, ty: Type) -> Result<Value, CompileError> {
        let Some(identity) = op.identity(ty.lane_bits()) else {
            return err(format!("{} has no identity", op.name()));
        };
        Ok(if ty.is_float() {
            self.b.fconst_bits(ty, identity)
        } else {
            self.b.iconst(ty, identity as i64)
        })
    }

    /// One step of a pass over the operands of a sub-group collective at work-item `i`:
    /// whether `i` starts a sub-group, its operand, and `acc op operand`.
    fn sub_group_step(
        &mut self,
        op_key: Key,
        op: BinaryOp,
        i: Value,
        acc: Value,
    ) -> Result<(Value, Value, Value), CompileError> {
        let local = self.imm(BinaryOp::Band, i, SIZE - 1);
        let zero = self.b.iconst(Type::I64, 0);
        let first = self.b.icmp(IntCC::Eq, local, zero);
        let x = self.load_ctx(op_key, i)?;
        let next = self.b.binary(op, acc, x);
        Ok((first, x, next))
    }

    /// The index of the sub-group of the work-item with linear id `lin`.
    fn sub_group_of(&mut self, lin: Value) -> Value {
        self.imm(BinaryOp::Lshr, lin, SHIFT)
    }

    /// The number of work-items of the sub-group starting at linear id `first`: the size,
    /// or what is left of the group.
    fn sub_group_len(&mut self, first: Value) -> Value {
        let left = self.b.binary(BinaryOp::Isub, self.n, first);
        self.imm(BinaryOp::Umin, left, SIZE)
    }

    /// `x op imm` on i64s.
    fn imm(&mut self, op: BinaryOp, x: Value, imm: i64) -> Value {
        let c = self.b.iconst(Type::I64, imm);
        self.b.binary(op, x, c)
    }
}
