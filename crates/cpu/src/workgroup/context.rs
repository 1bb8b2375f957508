//! The layout of a work-group's context memory: the single-copy stack slots first, then one
//! array per kept item, each `[work-item]` with the group's n work-items adjacent.
//!
//! An array's offset is given per work-item (`offset`): the array starts at
//! `shared_size + offset * n`, so the whole layout fits `frame_size()` bytes per work-item
//! of the largest group whatever the group's size.

use std::collections::{HashMap, HashSet};

use ferrocl_ir::entity::{EntitySet, SecondaryMap};
use ferrocl_ir::{Block, Function, GroupOp, Inst, Op, StackSlot, Type, Value, ValueDef};

use super::{ending_barrier, err, stored_type, Region};
use crate::liveness::LiveAcross;
use crate::CompileError;

/// What an array of the context holds, one element per work-item.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub(super) enum Key {
    /// A value live across a barrier.
    Value(Value),
    /// A value of the W-wide function live across a barrier (indexed by the chunk's first
    /// work-item: only chunks read and write it).
    Wide(Value),
    /// A stack slot that may hold data across a barrier.
    Slot(StackSlot),
    /// A collective's operand (a scan's result replaces it).
    Operand(Inst),
    /// A broadcast's id operand.
    Id(Inst),
    /// A reduce's or broadcast's result (element 0 only).
    Result(Inst),
    /// Where each work-item stopped: the exit code of the barrier it waits at, or `RETURN`
    /// (only where sub-groups may part ways: `Context::add_states`).
    State,
}

struct Array {
    offset: u32,
    stride: u32,
    ty: Type,
}

pub(super) struct Context {
    arrays: HashMap<Key, Array>,
    order: Vec<Key>,
    per_item: u32,
    shared: u32,
    pub(super) slot_offsets: SecondaryMap<StackSlot, Option<u32>>,
    /// Whether the work-items keep states (`add_states`): no value has a single copy.
    states: bool,
    /// The keys of the single copies the kernel and the W-wide function share.
    both: HashSet<Key>,
    /// Whether the W-wide function's values were added (`add_wide_values`).
    wide: bool,
}

/// Alignment of the start of the arrays: the widest alignment of a slot or value.
const ARRAYS_ALIGN: u32 = 128;

impl Context {
    /// Lays out the context of kernel `f` (split at its barriers), given the values live
    /// across each barrier, the values computed once per group, and the regions with their
    /// blocks. With `states` (sub-groups that may part ways), every value kept across a
    /// barrier has one element per work-item: a value the same for all work-items that reach
    /// a point is not the same at one time for all of them, as one sub-group may be a loop's
    /// trip ahead of another when it waits at a sub-group barrier.
    pub(super) fn new(
        f: &Function,
        live: &LiveAcross,
        uniform: &EntitySet<Value>,
        regions: &[Region],
        blocks: &[Vec<Block>],
        states: bool,
    ) -> Result<Context, CompileError> {
        let mut c = Context {
            states,
            arrays: HashMap::new(),
            order: Vec::new(),
            per_item: 0,
            shared: 0,
            slot_offsets: SecondaryMap::new(),
            both: HashSet::new(),
            wide: false,
        };
        // Slots.
        let per_item_slots = slots_across_barriers(f, regions, blocks);
        let mut shared = 0u32;
        for (ss, data) in f.slots.iter() {
            if per_item_slots.contains(ss) {
                let align = data.align.max(1);
                let stride = data.size.div_ceil(align) * align;
                c.add(Key::Slot(ss), stride.max(1), align, Type::I8);
            } else {
                let align = data.align.max(1);
                let at = shared.div_ceil(align) * align;
                c.slot_offsets[ss] = Some(at);
                shared = at + data.size;
            }
        }
        c.shared = shared.div_ceil(ARRAYS_ALIGN) * ARRAYS_ALIGN;

        // Values live across barriers, in a fixed order; those cheaper to compute again
        // (`remat`) are computed again instead.
        let mut values: Vec<Value> = Vec::new();
        for (_, across) in live.iter() {
            values.extend(
                across
                    .iter()
                    .filter(|&&v| !uniform.contains(v) && !super::remat(f, uniform, v)),
            );
        }
        values.sort();
        values.dedup();
        c.add_values(f, live, values, Key::Value);

        // Collectives.
        for &block in f.layout.blocks() {
            for &inst in f.layout.block_insts(block) {
                let Op::Group(g, _) = f.dfg.insts[inst].op else {
                    continue;
                };
                let ty = f.dfg.value_type(f.dfg.insts[inst].args[0]);
                if ty.lane_type() == Type::F16 {
                    return err("the CPU device has no half work-group collective functions");
                }
                if ty.is_vector() {
                    return err("a collective of a vector: the CPU device has only scalar ones");
                }
                c.add(Key::Operand(inst), ty.bytes(), ty.lane_bytes(), ty);
                match g {
                    GroupOp::Broadcast => {
                        c.add(Key::Id(inst), 8, 8, Type::I64);
                        c.add(Key::Result(inst), ty.bytes(), ty.lane_bytes(), ty);
                    }
                    GroupOp::Reduce(_) => c.add(Key::Result(inst), ty.bytes(), ty.lane_bytes(), ty),
                    GroupOp::ScanInclusive(_) | GroupOp::ScanExclusive(_) => {}
                }
            }
        }
        Ok(c)
    }

    /// Adds the arrays of the values of W-wide function `f` live across barriers (`live`),
    /// but for those computed once per group (`uniform`) and those computed again.
    ///
    /// A value the W-wide function holds as one scalar for its lanes that stands for a value
    /// of the kernel kept as one copy for the group (`same`: kernel value, W-wide value)
    /// shares that copy: the chunks and the single work-items compute it alike, and whichever
    /// of them runs in a region (possibly only one kind, or none, where a region's loop is
    /// narrowed) leaves it for the next. Code before a region's loops reads the kernel's
    /// copies (`narrow`), which therefore hold the value whoever defined it.
    pub(super) fn add_wide_values(
        &mut self,
        f: &Function,
        live: &LiveAcross,
        uniform: &EntitySet<Value>,
        same: &[(Value, Value)],
    ) {
        let mut values: Vec<Value> = live
            .iter()
            .flat_map(|(_, across)| across.iter().copied())
            .filter(|&v| !uniform.contains(v) && !super::remat(f, uniform, v))
            .collect();
        values.sort();
        values.dedup();
        self.wide = true;
        let single = single_copy_values(f, live);
        let mut kernel_value: SecondaryMap<Value, Option<Value>> = SecondaryMap::new();
        for &(k, w) in same {
            kernel_value[w] = Some(k);
        }
        values.retain(|w| {
            let Some(k) = kernel_value[*w] else {
                return true;
            };
            let shared = Key::Value(k);
            let fits = self.arrays.get(&shared).is_some_and(|a| {
                a.stride == 0 && stored_type(a.ty) == stored_type(f.dfg.value_type(*w))
            });
            if !single.contains(*w) || !fits {
                return true;
            }
            let a = &self.arrays[&shared];
            let alias = Array {
                offset: a.offset,
                stride: 0,
                ty: f.dfg.value_type(*w),
            };
            self.arrays.insert(Key::Wide(*w), alias);
            self.order.push(Key::Wide(*w));
            self.both.insert(Key::Value(k));
            self.both.insert(Key::Wide(*w));
            false
        });
        self.add_values(f, live, values, Key::Wide);
    }

    /// Whether the array of `key` is one copy that the kernel and the W-wide function both
    /// write and read.
    pub(super) fn written_by_both(&self, key: Key) -> bool {
        self.both.contains(&key)
    }

    /// Whether the W-wide function has arrays (or shares the kernel's).
    pub(super) fn has_wide(&self) -> bool {
        self.wide
    }

    /// Adds an array for each of `values` (sorted) of `f`, live across barriers (`live`):
    /// one element for the group where the value is the same for all work-items, else one
    /// per work-item.
    fn add_values(
        &mut self,
        f: &Function,
        live: &LiveAcross,
        values: Vec<Value>,
        key: fn(Value) -> Key,
    ) {
        let single = if self.states {
            EntitySet::new()
        } else {
            single_copy_values(f, live)
        };
        for v in values {
            let ty = f.dfg.value_type(v);
            let stored = stored_type(ty);
            // A single copy has stride 0: every work-item's element is the same one.
            let stride = if single.contains(v) {
                0
            } else {
                stored.bytes()
            };
            self.add_sized(key(v), stride, stored.bytes(), stored.lane_bytes(), ty);
        }
    }

    /// Adds the array of the work-items' states (`Key::State`).
    pub(super) fn add_states(&mut self) {
        self.add(Key::State, 8, 8, Type::I64);
    }

    /// Whether array `key` holds one element for the whole group.
    pub(super) fn single(&self, key: Key) -> bool {
        self.arrays.get(&key).is_some_and(|a| a.stride == 0)
    }

    fn add(&mut self, key: Key, stride: u32, align: u32, ty: Type) {
        self.add_sized(key, stride, stride, align, ty);
    }

    /// Adds an array of elements `stride` apart; a stride of 0 is one element of `size`
    /// bytes (it takes `size` bytes per work-item, which is more than it needs).
    fn add_sized(&mut self, key: Key, stride: u32, size: u32, align: u32, ty: Type) {
        let align = align.clamp(1, ARRAYS_ALIGN);
        let offset = self.per_item.div_ceil(align) * align;
        self.per_item = offset + size;
        self.arrays.insert(key, Array { offset, stride, ty });
        self.order.push(key);
    }

    /// Whether there is an array for `key`.
    pub(super) fn has(&self, key: Key) -> bool {
        self.arrays.contains_key(&key)
    }

    /// Each array with its offset per work-item, in layout order.
    pub(super) fn arrays(&self) -> Vec<(Key, u32)> {
        self.order
            .iter()
            .map(|k| (*k, self.arrays[k].offset))
            .collect()
    }

    /// The distance between two work-items' elements of array `key`.
    pub(super) fn stride(&self, key: Key) -> u32 {
        self.arrays[&key].stride
    }

    /// The type of the elements of array `key` (before booleans become bytes).
    pub(super) fn value_type(&self, key: Key) -> Type {
        self.arrays[&key].ty
    }

    /// The bytes of single-copy slots, where the arrays start.
    pub(super) fn shared_size(&self) -> u32 {
        self.shared
    }

    /// Context bytes per work-item of the largest group (see the module comment).
    pub(super) fn frame_size(&self) -> usize {
        ((self.shared + self.per_item).div_ceil(16) * 16) as usize
    }
}

/// The stack slots of `f` that need a copy per work-item: those whose address (or a pointer
/// computed from it) is used in more than one region, or in a region that runs again after
/// a barrier, or is stored to memory (where it could be read in any region).
fn slots_across_barriers(
    f: &Function,
    regions: &[Region],
    blocks: &[Vec<Block>],
) -> EntitySet<StackSlot> {
    let mut out = EntitySet::new();
    if regions.len() <= 1 {
        return out;
    }
    // Regions holding each block, and the regions each region leads to.
    let mut in_regions: SecondaryMap<Block, Vec<usize>> = SecondaryMap::new();
    for (r, bs) in blocks.iter().enumerate() {
        for &b in bs {
            in_regions[b].push(r);
        }
    }
    let mut region_after: SecondaryMap<Inst, Option<usize>> = SecondaryMap::new();
    for (r, reg) in regions.iter().enumerate() {
        if let Some(b) = reg.after {
            region_after[b] = Some(r);
        }
    }
    let next: Vec<Vec<usize>> = blocks
        .iter()
        .map(|bs| {
            bs.iter()
                .filter_map(|&b| {
                    let bar = ending_barrier(f, b)?;
                    Some(region_after[bar].expect("a region after each barrier"))
                })
                .collect()
        })
        .collect();
    let reenters = |r: usize| {
        let mut seen = HashSet::new();
        let mut work = next[r].clone();
        while let Some(s) = work.pop() {
            if s == r {
                return true;
            }
            if seen.insert(s) {
                work.extend(next[s].iter().copied());
            }
        }
        false
    };

    // Uses of each value, and the instructions and block parameters it flows into.
    let mut users: SecondaryMap<Value, Vec<(Inst, Block)>> = SecondaryMap::new();
    for &b in f.layout.blocks() {
        for &inst in f.layout.block_insts(b) {
            for a in f.dfg.insts[inst].all_args() {
                users[a].push((inst, b));
            }
        }
    }
    let mut seen: EntitySet<Value> = EntitySet::new();
    for (ss, _) in f.slots.iter() {
        seen.clear();
        let mut work: Vec<Value> = Vec::new();
        for &b in f.layout.blocks() {
            for &inst in f.layout.block_insts(b) {
                if matches!(f.dfg.insts[inst].op, Op::SlotAddr(s) if s == ss) {
                    work.extend(f.dfg.inst_result(inst));
                }
            }
        }
        let mut used_in: HashSet<usize> = HashSet::new();
        let mut escapes = false;
        while let Some(v) = work.pop() {
            if !seen.insert(v) {
                continue;
            }
            if let ValueDef::Param(b, _) = f.dfg.value_def(v) {
                used_in.extend(in_regions[b].iter().copied());
            }
            for &(inst, b) in &users[v] {
                used_in.extend(in_regions[b].iter().copied());
                let data = &f.dfg.insts[inst];
                // Stored, or turned into an integer: it may be read anywhere.
                if matches!(data.op, Op::Store(_) | Op::AtomicStore(_)) && data.args[0] == v
                    || matches!(data.op, Op::PtrToInt)
                {
                    escapes = true;
                }
                // Pointers computed from it (a loaded value is data, not the slot).
                let is_ptr = |x: &Value| f.dfg.value_type(*x).is_ptr();
                work.extend(f.dfg.inst_result(inst).filter(is_ptr));
                for d in data.op.dests() {
                    for (i, &a) in d.args.iter().enumerate() {
                        if a == v {
                            work.push(f.dfg.block_params(d.block)[i]);
                        }
                    }
                }
            }
        }
        let single = used_in.len() <= 1 && used_in.iter().all(|&r| !reenters(r));
        if escapes || !single {
            out.insert(ss);
        }
    }
    out
}

/// The values live across barriers that need one copy for the whole group, not one per
/// work-item: those equal for all work-items (`ferrocl_ir::uniformity`). Every work-item
/// that defines one stores the same value; a region reads it once, before its loops over the
/// work-items (so a region that also redefines it reads the value from before the barrier).
fn single_copy_values(f: &Function, live: &LiveAcross) -> EntitySet<Value> {
    let u = ferrocl_ir::uniformity::Uniformity::new(f);
    live.iter()
        .flat_map(|(_, across)| across.iter().copied())
        .filter(|&v| {
            u.is_uniform(v) && !matches!(f.dfg.value_def(v), ValueDef::Alias(_) | ValueDef::Invalid)
        })
        .collect()
}
