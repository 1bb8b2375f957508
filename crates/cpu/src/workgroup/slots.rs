//! The single-copy stack slots placed in the group's context memory, in the IR: after the
//! clean-up passes, each `slotaddr` becomes `ptradd ctx, <offset>` (the slot's place in the
//! context, `Context::slot_offsets`), so that code generation reads where a slot lives from the
//! function alone.
//!
//! An access at a constant offset inside a slot cannot leave it, which code generation could
//! tell from its `slotaddr`; once that is `ctx` plus a constant it cannot, so such accesses
//! are marked `trusted` first, by the rule code generation applies to the slots of functions
//! kept out of line (`Translator::space_to_confine`): a private access of `lanes * lane bytes`
//! bytes at a constant offset from a `slotaddr` (through `ptradd`s of constants,
//! `address::constant_base`) that ends inside the slot. Placing the slots after the passes
//! leaves what the passes see, and the addresses code generation computes, as they were.

use ferrocl_ir::entity::{PrimaryMap, SecondaryMap};
use ferrocl_ir::{AddrSpace, Function, InstData, Op, StackSlot, Type};

use crate::address;

/// Places the slots of work-group function `f` at `offsets` from its last parameter (`ctx`),
/// and drops its slot declarations, which nothing uses then.
pub(super) fn place(f: &mut Function, offsets: &SecondaryMap<StackSlot, Option<u32>>) {
    let Some(entry) = f.layout.entry_block() else {
        return;
    };
    let ctx = *f.dfg.block_params(entry).last().expect("the ctx parameter");
    let insts: Vec<_> = f
        .layout
        .blocks()
        .iter()
        .flat_map(|&b| f.layout.block_insts(b).iter().copied())
        .collect();
    for &i in &insts {
        let data = &f.dfg.insts[i];
        let (ptr, ty, flags) = match data.op {
            Op::Load(flags) => (
                data.args[0],
                f.dfg.inst_result(i).map(|r| f.dfg.value_type(r)),
                flags,
            ),
            Op::Store(flags) => (data.args[1], Some(f.dfg.value_type(data.args[0])), flags),
            _ => continue,
        };
        if flags.space != AddrSpace::Private || flags.trusted {
            continue;
        }
        let Some(ty) = ty else { continue };
        if inside_slot(f, ptr, ty) {
            let trusted = flags.with_trusted();
            f.dfg.insts[i].op = match f.dfg.insts[i].op {
                Op::Load(_) => Op::Load(trusted),
                _ => Op::Store(trusted),
            };
        }
    }
    for &i in &insts {
        let Op::SlotAddr(ss) = f.dfg.insts[i].op else {
            continue;
        };
        let off = offsets[ss].expect("a slot with one copy per work-item has no slotaddr left");
        let c = f.insert_inst_before(
            i,
            InstData::new(Op::Iconst(u64::from(off)), &[]),
            Some(Type::I64),
        );
        let c = f.dfg.inst_result(c).expect("a constant");
        f.dfg.insts[i] = InstData::new(Op::PtrAdd, &[ctx, c]);
    }
    f.slots = PrimaryMap::new();
}

/// Whether an access of type `ty` at `ptr` lies inside a stack slot of `f` by its address's
/// constant offset from the slot's.
fn inside_slot(f: &Function, ptr: ferrocl_ir::Value, ty: Type) -> bool {
    let Some((base, offset)) = address::constant_base(f, ptr) else {
        return false;
    };
    let Op::SlotAddr(ss) = f.dfg.insts[base].op else {
        return false;
    };
    let size = f.slots.get(ss).map_or(0, |d| i64::from(d.size));
    let bytes = i64::from(ty.lanes() * ty.lane_bytes());
    offset >= 0 && offset + bytes <= size
}
