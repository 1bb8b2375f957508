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
//! order) combines the slots of all work-items in id order, rewriting them with the
//! results: the running value for the scans, the total in work-item 0's slot for a reduce.
//! Every work-item then reads its result: its own slot after a scan, work-item 0's after a
//! reduce, the named work-item's (unchanged) after a broadcast. The combination runs once
//! per group, n - 1 operations for n work-items, in linear id order (6.15.16: "The scan
//! order is defined by increasing 1D linear global ID within the work-group"). The count
//! is the group's actual size, so the last, smaller groups of a non-uniform NDRange
//! combine only their own work-items.

use cranelift_codegen::ir::condcodes::IntCC as CIntCC;
use cranelift_codegen::ir::immediates::{Ieee32, Ieee64};
use cranelift_codegen::ir::{self as cl, types as clt, InstBuilder, MemFlagsData as ClMemFlags};
use ferrocl_ir::{Function, GroupOp, Inst, Op};
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
            if matches!(f.dfg.insts[inst].op, Op::Group(_)) {
                slots.insert(inst, alloc(8, 8));
            }
        }
    }
    slots
}

impl Translator<'_, '_> {
    /// Translates collective `inst`; returns this work-item's result.
    pub(super) fn collective(&mut self, inst: Inst, g: GroupOp) -> Result<cl::Value, CompileError> {
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

        let n = self.group_size();
        let frame_size = self.frame_size;
        let frames = self.frames;
        let frame_of = |t: &mut Self, id: cl::Value| {
            let off = t.b.ins().imul_imm_s(id, frame_size);
            t.b.ins().iadd(frames, off)
        };
        let op = match g {
            GroupOp::Broadcast => {
                // 6.15.16: an id past the group is undefined behaviour; it is clamped, so
                // that the load stays inside the group's frames.
                let id = self.get1(args[1])?;
                let last = self.b.ins().iadd_imm_s(n, -1);
                let id = self.b.ins().umin(id, last);
                let at = frame_of(self, id);
                return Ok(self.b.ins().load(ty, flags, at, slot));
            }
            GroupOp::Reduce(op) | GroupOp::ScanInclusive(op) | GroupOp::ScanExclusive(op) => op,
        };
        let Some(identity) = op.identity(ty.bits()) else {
            return err(format!(
                "{} cannot combine a work-group's values",
                op.name()
            ));
        };

        // Work-item 0 combines, the others go straight to reading their result.
        let lin = self.linear_local_id();
        let combine = self.b.create_block();
        let head = self.b.create_block();
        let body = self.b.create_block();
        let done = self.b.create_block();
        let first = self.b.ins().icmp_imm_s(CIntCC::Equal, lin, 0);
        self.b.ins().brif(first, combine, &[], done, &[]);

        // combine: acc = slot 0; for exclusive scans slot 0 becomes the identity.
        self.b.switch_to_block(combine);
        let acc0 = self.b.ins().load(ty, flags, frames, slot);
        if let GroupOp::ScanExclusive(_) = g {
            let id = self.constant(ty, identity);
            self.b.ins().store(flags, id, frames, slot);
        }
        let one = self.b.ins().iconst(clt::I64, 1);
        self.b.ins().jump(head, &[one.into(), acc0.into()]);

        // head(i, acc): while i < n.
        self.b.switch_to_block(head);
        let i = self.b.append_block_param(head, clt::I64);
        let acc = self.b.append_block_param(head, ty);
        let more = self.b.ins().icmp(CIntCC::UnsignedLessThan, i, n);
        let finish = self.b.create_block();
        self.b.ins().brif(more, body, &[], finish, &[]);

        // body: fold work-item i's operand in, in id order.
        self.b.switch_to_block(body);
        let at = frame_of(self, i);
        let v = self.b.ins().load(ty, flags, at, slot);
        let next = self.binary(op, acc, v);
        match g {
            GroupOp::ScanInclusive(_) => {
                self.b.ins().store(flags, next, at, slot);
            }
            GroupOp::ScanExclusive(_) => {
                self.b.ins().store(flags, acc, at, slot);
            }
            _ => {}
        }
        let i1 = self.b.ins().iadd_imm_s(i, 1);
        self.b.ins().jump(head, &[i1.into(), next.into()]);

        // finish: a reduce leaves its total in work-item 0's slot.
        self.b.switch_to_block(finish);
        if let GroupOp::Reduce(_) = g {
            self.b.ins().store(flags, acc, frames, slot);
        }
        self.b.ins().jump(done, &[]);

        // done: every work-item reads its result.
        self.b.switch_to_block(done);
        Ok(match g {
            GroupOp::Reduce(_) => self.b.ins().load(ty, flags, frames, slot),
            _ => {
                let base = self.b.use_var(self.frame_base);
                self.b.ins().load(ty, flags, base, slot)
            }
        })
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
