//! Which SSA values are live across each barrier of a kernel.
//!
//! A work-group of a kernel with barriers runs as a sequence of regions: every work-item runs
//! up to the next barrier before any runs past it (../DESIGN.md, decision 4). A value defined
//! before a barrier and used after it must be kept per work-item, in the group's context
//! memory (`workgroup`); this module finds those values with a backward live-variable analysis (Appel, "Modern Compiler
//! Implementation", 10.1), at instruction granularity inside the blocks that hold barriers.
//! The sets are dense bit sets, a bit per value (Appel 17.2's representation): an unrolled
//! kernel has thousands of values and dozens of barriers, and ordered sets of values made
//! the analysis three quarters of the work-group transform's time.
//!
//! A work-group collective (`Op::Group`) splits the kernel as a barrier does: the work-item
//! stores its operand before it, and reads its result after it (`workgroup`). Its
//! result is defined after the split, so it is not live across it; a broadcast's id operand
//! is read after the split, so it is.

use std::ops::Index;

use ferrocl_ir::entity::{EntityRef, SecondaryMap};
use ferrocl_ir::{Block, Function, Inst, Op, Value};

/// A set of a function's values, a bit per value.
#[derive(Clone, PartialEq, Eq)]
struct Set {
    words: Vec<u64>,
}

impl Set {
    /// The empty set of values of a function with `values` values.
    fn new(values: usize) -> Set {
        Set {
            words: vec![0; values.div_ceil(64)],
        }
    }

    fn insert(&mut self, v: Value) {
        self.words[v.index() / 64] |= 1 << (v.index() % 64);
    }

    fn remove(&mut self, v: Value) {
        self.words[v.index() / 64] &= !(1 << (v.index() % 64));
    }

    fn contains(&self, v: Value) -> bool {
        self.words[v.index() / 64] & (1 << (v.index() % 64)) != 0
    }

    /// Adds the values of `other`.
    fn union(&mut self, other: &Set) {
        for (w, o) in self.words.iter_mut().zip(&other.words) {
            *w |= o;
        }
    }

    /// The values, in the order of their entities.
    fn iter(&self) -> impl Iterator<Item = Value> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    Value::new(i * 64 + bit)
                })
            })
        })
    }
}

/// The uses of an instruction: its operands and the arguments it passes to its targets.
fn uses(f: &Function, inst: Inst) -> impl Iterator<Item = Value> + '_ {
    let data = &f.dfg.insts[inst];
    data.args.iter().copied().chain(
        data.op
            .dests()
            .into_iter()
            .flat_map(|d| d.args.iter().copied()),
    )
}

/// Whether the instruction ends a region: a barrier, or a collective.
pub fn splits_regions(op: &Op) -> bool {
    matches!(op, Op::Barrier(..) | Op::Group(..))
}

/// The values live after each barrier and collective of a function (`live_across_barriers`).
#[derive(Default)]
pub struct LiveAcross {
    values: SecondaryMap<Inst, Vec<Value>>,
    /// The barriers and collectives, in the order of their entities.
    splits: Vec<Inst>,
}

impl LiveAcross {
    /// Each barrier and collective with the values live after it, in the order of their
    /// entities.
    pub fn iter(&self) -> impl Iterator<Item = (Inst, &[Value])> {
        self.splits.iter().map(|&i| (i, self.values[i].as_slice()))
    }
}

impl Index<Inst> for LiveAcross {
    type Output = [Value];
    /// The values live after barrier or collective `inst` (none after other instructions).
    fn index(&self, inst: Inst) -> &[Value] {
        &self.values[inst]
    }
}

/// Values live after each barrier instruction, except the function's parameters (which the
/// generated code defines once, before the work-item loops).
pub fn live_across_barriers(f: &Function) -> LiveAcross {
    let splits = f.layout.blocks().iter().any(|&b| {
        f.layout
            .block_insts(b)
            .iter()
            .any(|&i| splits_regions(&f.dfg.insts[i].op))
    });
    if !splits {
        // One region: nothing is live across a barrier, and the analysis of a large kernel
        // is not free.
        return LiveAcross::default();
    }
    let blocks: Vec<Block> = f.layout.blocks().to_vec();
    let mut index: SecondaryMap<Block, Option<usize>> = SecondaryMap::new();
    for (i, &b) in blocks.iter().enumerate() {
        index[b] = Some(i);
    }
    let empty = Set::new(f.dfg.values.len());
    let mut gen = vec![empty.clone(); blocks.len()];
    let mut kill = vec![empty.clone(); blocks.len()];
    let mut succs = vec![Vec::new(); blocks.len()];
    for (i, &b) in blocks.iter().enumerate() {
        for &p in f.dfg.block_params(b) {
            kill[i].insert(p);
        }
        for &inst in f.layout.block_insts(b) {
            for u in uses(f, inst) {
                if !kill[i].contains(u) {
                    gen[i].insert(u);
                }
            }
            if let Some(r) = f.dfg.inst_result(inst) {
                kill[i].insert(r);
            }
        }
        succs[i] = f.successors(b).iter().filter_map(|&s| index[s]).collect();
    }
    // Every block's live-in starts as what it uses before defining; it changes only when its
    // live-out does.
    let mut live_in = gen.clone();
    let mut live_out = vec![empty.clone(); blocks.len()];
    let mut out = empty.clone();
    let mut changed = true;
    while changed {
        changed = false;
        for i in (0..blocks.len()).rev() {
            out.words.fill(0);
            for &s in &succs[i] {
                out.union(&live_in[s]);
            }
            if out == live_out[i] {
                continue;
            }
            // in = gen | (out & !kill).
            for ((w, (g, k)), o) in live_in[i]
                .words
                .iter_mut()
                .zip(gen[i].words.iter().zip(&kill[i].words))
                .zip(&out.words)
            {
                *w = g | (o & !k);
            }
            live_out[i].words.copy_from_slice(&out.words);
            changed = true;
        }
    }
    let mut params = empty.clone();
    if let Some(e) = f.layout.entry_block() {
        for &p in f.dfg.block_params(e) {
            params.insert(p);
        }
    }
    let mut result = LiveAcross::default();
    for (i, &b) in blocks.iter().enumerate() {
        let insts = f.layout.block_insts(b);
        if !insts
            .iter()
            .any(|&inst| splits_regions(&f.dfg.insts[inst].op))
        {
            continue;
        }
        let mut live = live_out[i].clone();
        for &inst in insts.iter().rev() {
            if splits_regions(&f.dfg.insts[inst].op) {
                let mut across = live.clone();
                if let Some(r) = f.dfg.inst_result(inst) {
                    across.remove(r);
                }
                if matches!(f.dfg.insts[inst].op, Op::Group(..)) {
                    // Operands past the first are read after the split.
                    for &a in f.dfg.insts[inst].args.iter().skip(1) {
                        across.insert(a);
                    }
                }
                result.values[inst] = across.iter().filter(|&v| !params.contains(v)).collect();
                result.splits.push(inst);
            }
            if let Some(r) = f.dfg.inst_result(inst) {
                live.remove(r);
            }
            for u in uses(f, inst) {
                live.insert(u);
            }
        }
    }
    result.splits.sort();
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_used_after_a_barrier_are_live_across_it() {
        let m = ferrocl_ir::parse_module(
            "func @k(ptr.local, i32) {
block0(v0: ptr.local, v1: i32):
    v2: i32 = iconst 7
    v3: i32 = iadd v1, v2
    v4: i32 = iconst 1
    barrier.local.work_group
    v5: i32 = iadd v3, v1
    store.local v5, v0, align 4
    return
}",
        )
        .unwrap();
        let f = m.funcs.values().next().unwrap();
        let sets = live_across_barriers(f);
        assert_eq!(sets.iter().count(), 1);
        let (_, live) = sets.iter().next().unwrap();
        // v3 crosses the barrier; v4 is dead; the parameters v0, v1 are not spilled.
        assert_eq!(
            live.iter().map(|v| v.to_string()).collect::<Vec<_>>(),
            vec!["v3"]
        );
    }

    #[test]
    fn a_collective_splits_like_a_barrier_but_its_result_is_not_live_across() {
        let m = ferrocl_ir::parse_module(
            "func @k(ptr.local, i32) {
block0(v0: ptr.local, v1: i32):
    v2: i32 = iconst 7
    v3: i32 = iadd v1, v2
    v4: i64 = local_id 0
    v5: i32 = group_reduce.iadd v3
    v6: i32 = group_broadcast v5, v4
    v7: i32 = iadd v6, v3
    store.local v7, v0, align 4
    return
}",
        )
        .unwrap();
        let f = m.funcs.values().next().unwrap();
        let sets = live_across_barriers(f);
        let mut lists: Vec<Vec<String>> = sets
            .iter()
            .map(|(_, l)| l.iter().map(|v| v.to_string()).collect())
            .collect();
        lists.sort();
        // Across both: v3 (used at the end) and v4 (the broadcast's id, read after its own
        // split). Not v5: the reduce defines it after its split.
        assert_eq!(lists, vec![vec!["v3", "v4"], vec!["v3", "v4"]]);
    }
}
