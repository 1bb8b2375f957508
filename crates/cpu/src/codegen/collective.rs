//! Work-group collective functions (OpenCL C 6.15.16, 6.15.17) on the CPU device.
//!
//! A collective (`Op::Group`) is a barrier with a data exchange, and the exchange goes
//! through the work-items' frames, which the device already lays out per work-group in
//! linear local id order (`frames + id * frame_size`): no scratch memory sized for the
//! largest work-group, and none in `__local` memory where a kernel's own data lives.
//!
//! Each collective owns one 8-byte slot in every frame. A work-item stores its operand in
//! its slot and ends the region, as at a barrier ([`Translator::barrier`]). When the group
//! resumes, the first work-item to run (linear id 0: the loops run the work-items in linear
//! order) combines the slots of all work-items in id order and writes every work-item's
//! result into that work-item's slot: the running value of a scan, the total of a reduce,
//! the named work-item's operand for a broadcast. Each work-item then reads its own slot.
//! Results go to every slot, not to one shared place, because a work-item runs on to its
//! next region before the later ones resume: in a loop, work-item 0 may reach the same
//! collective again and overwrite its slot before work-item 1 has read its result.
//!
//! The combination takes n - 1 operations for n work-items, in linear id order (6.15.16:
//! "The scan order is defined by increasing 1D linear global ID within the work-group"). The
//! count is the group's actual size, so the last, smaller groups of a non-uniform NDRange
//! combine only their own work-items.
//!
//! A sub-group collective (6.15.19) is the same over the work-items of one sub-group
//! ([`crate::SUB_GROUP_SIZE`] of them in linear id order, fewer for a work-group's last):
//! the first work-item of each sub-group combines its sub-group's slots, and a broadcast's id
//! counts from the sub-group's first work-item. The exchange still waits for the whole
//! work-group, so every sub-group of the work-group must reach the same sub-group
//! collectives.

use cranelift_codegen::ir::condcodes::IntCC as CIntCC;
use cranelift_codegen::ir::immediates::{Ieee32, Ieee64};
use cranelift_codegen::ir::{self as cl, types as clt, InstBuilder, MemFlagsData as ClMemFlags};
use ferrocl_ir::{Function, GroupOp, Inst, Op, Scope};
use std::collections::HashMap;

use super::{err, lane_ty, Translator};
use crate::abi::offsets;
use crate::CompileError;

/// Gives each collective of `f` its slot in the frame, through `alloc(size, align)`.
pub(super) fn frame_slots(
    f: &Function,
    alloc: &mut impl FnMut(u32, u32) -> u32,
) -> HashMap<Inst, u32> {
    let mut slots = HashMap::new();
    for &block in f.layout.blocks() {
        for &inst in f.layout.block_insts(block) {
            if matches!(f.dfg.insts[inst].op, Op::Group(..)) {
                slots.insert(inst, alloc(8, 8));
            }
        }
    }
    slots
}

impl Translator<'_, '_> {
    /// Translates collective `inst` over the work-group or this work-item's sub-group;
    /// returns this work-item's result.
    pub(super) fn collective(
        &mut self,
        inst: Inst,
        g: GroupOp,
        scope: Scope,
    ) -> Result<cl::Value, CompileError> {
        let args = self.f.dfg.insts[inst].args.clone();
        let t = self.f.dfg.value_type(args[0]);
        if t.lane_type() == ferrocl_ir::Type::F16 {
            return err("the CPU device has no half work-group collective functions");
        }
        let ty = lane_ty(t)?;
        let slot = i32::try_from(self.group_slots[&inst]).expect("frames are small");
        let flags = ClMemFlags::trusted();

        // Publish the operand, then wait for the whole group as at a barrier.
        let x = self.get1(args[0])?;
        let base = self.b.use_var(self.frame_base);
        self.b.ins().store(flags, x, base, slot);
        self.barrier(inst)?;

        // The work-items [lo, hi) combine: the work-group, or this work-item's sub-group.
        let n = self.group_size();
        let lin = self.linear_local_id();
        let (lo, hi) = match scope {
            Scope::SubGroup => {
                let (start, end) = self.sub_group_start(lin);
                (start, self.b.ins().umin(end, n))
            }
            _ => (self.b.ins().iconst(clt::I64, 0), n),
        };
        let lo1 = self.b.ins().iadd_imm_s(lo, 1);
        let first_frame = self.frame_of(lo);
        // The first work-item of the range combines, the others go straight to reading
        // their result.
        let combine = self.b.create_block();
        let done = self.b.create_block();
        let first = self.b.ins().icmp(CIntCC::Equal, lin, lo);
        self.b.ins().brif(first, combine, &[], done, &[]);
        self.b.switch_to_block(combine);
        match g {
            GroupOp::Broadcast => {
                // 6.15.16: the id is the same for every work-item, and one past the group is
                // undefined behaviour; the first work-item's is used, clamped into the range
                // (6.15.19: a sub-group broadcast names a sub-group local id).
                let id = self.get1(args[1])?;
                let last = self.b.ins().isub(hi, lo);
                let last = self.b.ins().iadd_imm_s(last, -1);
                let id = self.b.ins().umin(id, last);
                let id = self.b.ins().iadd(id, lo);
                let at = self.frame_of(id);
                let v = self.b.ins().load(ty, flags, at, slot);
                self.frame_loop(lo, hi, v, |t, at, v| {
                    t.b.ins().store(flags, v, at, slot);
                    v
                });
            }
            GroupOp::Reduce(op) => {
                let x0 = self.b.ins().load(ty, flags, first_frame, slot);
                let total = self.frame_loop(lo1, hi, x0, |t, at, acc| {
                    let v = t.b.ins().load(ty, flags, at, slot);
                    t.binary(op, acc, v)
                });
                self.frame_loop(lo, hi, total, |t, at, total| {
                    t.b.ins().store(flags, total, at, slot);
                    total
                });
            }
            GroupOp::ScanInclusive(op) => {
                let x0 = self.b.ins().load(ty, flags, first_frame, slot);
                self.frame_loop(lo1, hi, x0, |t, at, acc| {
                    let v = t.b.ins().load(ty, flags, at, slot);
                    let next = t.binary(op, acc, v);
                    t.b.ins().store(flags, next, at, slot);
                    next
                });
            }
            GroupOp::ScanExclusive(op) => {
                let Some(identity) = op.identity(ty.bits()) else {
                    return err(format!("{} has no identity", op.name()));
                };
                // The first work-item gets the identity, the others the combination from the
                // first operand on (so that a lone -0.0 or NaN passes through unchanged).
                let x0 = self.b.ins().load(ty, flags, first_frame, slot);
                let id = self.constant(ty, identity);
                self.b.ins().store(flags, id, first_frame, slot);
                self.frame_loop(lo1, hi, x0, |t, at, acc| {
                    let v = t.b.ins().load(ty, flags, at, slot);
                    t.b.ins().store(flags, acc, at, slot);
                    t.binary(op, acc, v)
                });
            }
        }
        self.b.ins().jump(done, &[]);

        // done: every work-item reads its result from its own slot.
        self.b.switch_to_block(done);
        let base = self.b.use_var(self.frame_base);
        Ok(self.b.ins().load(ty, flags, base, slot))
    }

    /// The frame of the work-item with linear id `id`.
    fn frame_of(&mut self, id: cl::Value) -> cl::Value {
        let off = self.b.ins().imul_imm_s(id, self.frame_size);
        self.b.ins().iadd(self.frames, off)
    }

    /// Emits `for i in from..n { acc = body(frame of i, acc) }`, in id order; returns the
    /// final `acc`. Ends in a new block, where translation goes on.
    fn frame_loop(
        &mut self,
        from: cl::Value,
        n: cl::Value,
        init: cl::Value,
        mut body: impl FnMut(&mut Self, cl::Value, cl::Value) -> cl::Value,
    ) -> cl::Value {
        let ty = self.b.func.dfg.value_type(init);
        let head = self.b.create_block();
        let i = self.b.append_block_param(head, clt::I64);
        let acc = self.b.append_block_param(head, ty);
        let body_block = self.b.create_block();
        let exit = self.b.create_block();
        self.b.ins().jump(head, &[from.into(), init.into()]);

        self.b.switch_to_block(head);
        let more = self.b.ins().icmp(CIntCC::UnsignedLessThan, i, n);
        self.b.ins().brif(more, body_block, &[], exit, &[]);

        self.b.switch_to_block(body_block);
        let at = self.frame_of(i);
        let next = body(self, at, acc);
        let i1 = self.b.ins().iadd_imm_s(i, 1);
        self.b.ins().jump(head, &[i1.into(), next.into()]);

        self.b.switch_to_block(exit);
        acc
    }

    /// The number of work-items in this work-group (its actual size, not the enqueued one).
    fn group_size(&mut self) -> cl::Value {
        let size = |t: &mut Self, d: i32| {
            t.b.ins().load(
                clt::I64,
                super::ctx_mem(),
                t.grp,
                offsets::LOCAL_SIZE + 8 * d,
            )
        };
        let (s0, s1, s2) = (size(self, 0), size(self, 1), size(self, 2));
        let n = self.b.ins().imul(s0, s1);
        self.b.ins().imul(n, s2)
    }

    /// This work-item's linear local id.
    fn linear_local_id(&mut self) -> cl::Value {
        self.work_item(ferrocl_ir::WorkItemOp::LocalLinearId, 0)
            .expect("the linear local id is always available")
    }

    /// A constant of lane type `ty` from its bits.
    fn constant(&mut self, ty: cl::Type, bits: u64) -> cl::Value {
        match ty {
            clt::F32 => self.b.ins().f32const(Ieee32::with_bits(bits as u32)),
            clt::F64 => self.b.ins().f64const(Ieee64::with_bits(bits)),
            _ => self.b.ins().iconst(ty, bits as i64),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_collective_gets_its_own_aligned_slot() {
        let m = ferrocl_ir::parse_module(
            "func @k(i32, i64) {
block0(v0: i32, v1: i64):
    v2: i32 = group_reduce.iadd v0
    v3: i64 = group_scan_inclusive.umax v1
    v4: i32 = group_broadcast v2, v1
    return
}",
        )
        .unwrap();
        let f = m.funcs.values().next().unwrap();
        let mut size = 4u32;
        let slots = frame_slots(f, &mut |s, a| {
            let at = size.div_ceil(a) * a;
            size = at + s;
            at
        });
        let mut offsets: Vec<u32> = slots.values().copied().collect();
        offsets.sort();
        assert_eq!(offsets, vec![8, 16, 24]);
        assert_eq!(size, 32);
    }
}
