//! Which regions of a W-wide kernel run several chunks at once (`Emitter::region_loop` with
//! other chunks): each instruction of the region copied once for each chunk in a row, under
//! one copy of the region's branches (unroll and jam of the chunk loop). The other chunks
//! are the next ones of the row (`Jam::Along`) or the ones at the same x in the next rows
//! (`Jam::Across`).
//!
//! A loop inside the region whose every trip waits for the one before (Horner's rule,
//! `a = a * v + c`, or a chain of `mad`s as clpeak's) keeps one chain per vector register
//! in flight, and the floating-point units wait on its latency: two to four chunks at once
//! give them that many times the independent chains, as many as the host's FMA units keep
//! busy (`crate::wide::fma_units`, `Chains::chunks_wanted`) and the registers hold.
//! Measured on float4-poly (a degree-32 polynomial per lane, one fused multiply-add per
//! step): see docs/benchmarks.md.
//!
//! A region without a loop whose code is one long chain of float arithmetic through
//! vectors loaded at addresses the rows share (a tiled matrix product's `acc += as[ly][k] *
//! bs[k][lx]` for each `k` of a tile, unrolled: sixteen dependent additions, each on a row
//! of `bs` the same for every row of work-items) runs the chunks of four (or two) rows at
//! once. The chains then overlap, and the loads the rows share are one (`load_elim` after
//! the transform, `clean_up`).
//!
//! Running two work-items' instructions interleaved is a schedule the work-items of a group
//! may have anyway, since nothing orders them between barriers (OpenCL C 6.15.8: only a
//! barrier does; two work-items that touch the same memory without one race). What the
//! transform itself shares between work-items must then not be shared by two at once, so a
//! region is jammed only when:
//! - every branch in it is uniform (`ferrocl_ir::uniformity`): the chunks go the same way,
//!   and one copy of the branches serves them all;
//! - it takes no stack slot's address (a slot that no value keeps across a barrier has one
//!   copy for all work-items, each using it in turn), and has no atomics, fences, calls or
//!   collectives (their order between work-items is what programs observe).

use ferrocl_ir::analysis::LoopInfo;
use ferrocl_ir::entity::{EntitySet, SecondaryMap};
use ferrocl_ir::uniformity::Uniformity;
use ferrocl_ir::{BinaryOp, Block, Function, Op, Type, Value, ValueDef, WorkItemOp};

use crate::wide::FmaUnits;

/// The most instructions a region without a loop may have to run the chunks of several
/// rows at once for the rows' own sake (`jammable`): where a row is a chunk or two (a
/// 16x16 group at 16 lanes), what each row's loop sets up costs as much as its chunk, and
/// four rows at once pay it once. The bench's sgemm, whose tile-loading region is 30
/// instructions, ran 622-655 us before on 2 cores of a Xeon, 535-539 after; a longer region
/// copied four times grows the code more than it saves.
const SHORT_REGION: usize = 256;

/// How a region of a W-wide kernel runs its chunks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Jam {
    /// One chunk at a time.
    Single,
    /// This many chunks of a row at once: the one at `x`, the one at `x + W`, ...
    Along(u32),
    /// The chunks at `x` of this many rows at once (`y`, `y + 1`, ...), in groups whose rows
    /// are whole chunks.
    Across(u32),
}

/// The registers the code generators' rounding of `half` results to half precision keeps its
/// constants in (`codegen/convert.rs`, `round_to_half`), once for all copies.
const HALF_CONSTANTS: u32 = 6;

/// Whether the vector values `values` of a loop at `width` lanes fit the registers `times`
/// over: the wide tier's where it runs that width and may take the function (not
/// `for_cranelift`), else Cranelift's 16 `xmm`. (An `fma` needs no register of its own: it
/// overwrites a factor that dies, `codegen.rs`'s `fma_factors`. On an AVX2 host the tier's
/// width is Cranelift's too: clpeak's `double` chains, jammed three times for the tier's 12
/// `ymm`, took 24 `xmm` in Cranelift's code and spilled.) A `half` value is carried as its
/// bits but computed on in float, twice as wide, beside the constants of its rounding.
fn fit(values: &[Type], width: u32, times: u32, for_cranelift: bool) -> bool {
    let (registers, bits) = registers(width, for_cranelift);
    let half = values.iter().any(|t| t.lane_type() == Type::F16);
    let need: u32 = values
        .iter()
        .map(|t| (t.bits() * if half { 2 } else { 1 }).div_ceil(bits))
        .sum();
    times * need + if half { HALF_CONSTANTS } else { 0 } <= registers
}

/// The vector registers a W-wide kernel's code has (`width` lanes), and their bits: the wide
/// tier's where it runs that width and may take the function (not `for_cranelift`), else
/// Cranelift's 16 `xmm`.
fn registers(width: u32, for_cranelift: bool) -> (u32, u32) {
    match crate::wide::value_registers(width).filter(|_| !for_cranelift) {
        Some((n, bits)) => (n as u32, bits),
        None => (16, 128),
    }
}

/// How each region of `k` (its blocks, `regions`; its loops, `loops`) runs its chunks, where it may (see the
/// module's conditions): several of a row at once where it holds a loop bound by the latency
/// of what it carries (`Jam::Along`); those of several rows at once where it has no loop and
/// is one chain of float arithmetic through loads the rows share, or is short
/// (`SHORT_REGION`) in a kernel that reads its y or z ids (`Jam::Across`), unless the kernel
/// stores transposed less than a cache line a chunk (`crate::transposed`); as many as the
/// registers hold copies of its vectors. The other analyses of `k` run once, and only where
/// some region may.
pub(super) fn jammable(
    k: &Function,
    loops: &LoopInfo,
    regions: &[Vec<Block>],
    width: u32,
    for_cranelift: bool,
) -> Vec<Jam> {
    let may: Vec<bool> = regions.iter().map(|blocks| allowed(k, blocks)).collect();
    if !may.contains(&true) {
        return vec![Jam::Single; regions.len()];
    }
    let uniformity = Uniformity::new(k);
    // A chunk's transposed store shorter than a cache line: the next chunk of its row
    // completes the lines (`crate::transposed`).
    let part_lines = crate::transposed::transposed_store(k).is_some_and(|bytes| width * bytes < 64);
    let by_row = row_dependent(k);
    let elsewhere = used_elsewhere(k);
    let reads_rows = k.layout.blocks().iter().any(|&b| {
        k.layout.block_insts(b).iter().any(|&i| {
            matches!(
                k.dfg.insts[i].op,
                Op::WorkItem(WorkItemOp::GlobalId | WorkItemOp::LocalId, 1 | 2)
            )
        })
    });
    regions
        .iter()
        .zip(may)
        .map(|(blocks, may)| {
            if !may || !blocks.iter().all(|&b| uniformity.is_uniform_branch(b)) {
                return Jam::Single;
            }
            let in_region: EntitySet<Block> = blocks.iter().copied().collect();
            let mut inner = loops
                .loops
                .iter()
                .filter(|lp| lp.blocks.iter().all(|&b| in_region.contains(b)))
                .peekable();
            if inner.peek().is_none() {
                if part_lines {
                    return Jam::Single;
                }
                let size: usize = blocks.iter().map(|&b| k.layout.block_insts(b).len()).sum();
                let short_rows = reads_rows && size <= SHORT_REGION;
                let Some(values) = chain_bound(k, blocks, &elsewhere)
                    .filter(|_| shares_row_loads(k, blocks, &by_row))
                    .or_else(|| short_rows.then(|| most_live(k, blocks, &elsewhere)))
                else {
                    return Jam::Single;
                };
                return [4, 2]
                    .into_iter()
                    .find(|&rows| fit(&values, width, rows, for_cranelift))
                    .map_or(Jam::Single, Jam::Across);
            }
            let chunks = inner
                .filter_map(|lp| latency_bound(k, &lp.blocks, lp.header))
                .filter_map(|chains| {
                    let (_, bits) = registers(width, for_cranelift);
                    let wanted = chains.chunks_wanted(bits, crate::wide::fma_units());
                    [4, 3, 2]
                        .into_iter()
                        .filter(|&n| n <= wanted)
                        .find(|&n| fit(&chains.values, width, n, for_cranelift))
                })
                .max();
            chunks.map_or(Jam::Single, Jam::Along)
        })
        .collect()
}

/// Whether the region of `blocks` has only instructions a jammed copy may interleave: no
/// stack slot's address, atomic, fence, call or collective.
fn allowed(k: &Function, blocks: &[Block]) -> bool {
    blocks.iter().all(|&b| {
        k.layout.block_insts(b).iter().all(|&i| {
            let op = &k.dfg.insts[i].op;
            !matches!(op, Op::SlotAddr(_))
                && (op.is_pure()
                    || matches!(
                        op,
                        Op::Load(_)
                            | Op::Store(_)
                            | Op::WorkItem(..)
                            | Op::Barrier(..)
                            | Op::Jump(_)
                            | Op::Brif(..)
                            | Op::Switch(..)
                            | Op::Return
                            | Op::Unreachable
                    ))
        })
    })
}

/// A loop whose trips are bound by the latency of the float arithmetic it carries
/// (`latency_bound`).
struct Chains {
    /// The types of its vector values: those it carries and those from outside it that it
    /// reads (constants among them).
    values: Vec<Type>,
    /// The bits of each float operation's result in one trip.
    op_bits: Vec<u32>,
    /// The float operations of the longest chain through one trip.
    longest: u32,
}

impl Chains {
    /// How many chunks at once give FMA units `units` enough independent operations to
    /// start while each chain waits, at registers of `bits`: a trip's chains take `longest`
    /// latencies, in which the units could start `longest` times `in_flight` register
    /// operations, and a chunk's trip has one per register of each of its float operations.
    /// More chunks than that only lengthen the trip, and the loads of the region's next
    /// chunks fall further out of reach of the out-of-order window: float4-poly (a chunk's
    /// trip four 512-bit `fma`s) ran 2.0-2.2 ms at three chunks, 1.73-1.79 at two and 1.50 at
    /// one on 2 cores of a Zen 4 EPYC, whose units take a 512-bit `fma` in two passes (four
    /// in flight).
    fn chunks_wanted(&self, bits: u32, units: FmaUnits) -> u32 {
        let per_chunk: u32 = self.op_bits.iter().map(|b| b.div_ceil(bits)).sum();
        (self.longest * units.in_flight(bits)).div_ceil(per_chunk.max(1))
    }
}

/// Where the loop of `blocks` (headed by `header`) has trips bound by the latency of the
/// float arithmetic it carries, its chains. Bound by latency: it carries vector values, has
/// fewer than 8 float operations per link of the longest chain of them that starts at a
/// carried value within one trip (so that even at two a cycle the units wait for the chain),
/// and reads and writes no memory. (A loop that loads, as a matrix-vector product's row loop,
/// ran 3.3 times slower at two chunks: twice the streams of addresses, for units that wait on
/// memory more than on each other.)
fn latency_bound(k: &Function, blocks: &[Block], header: Block) -> Option<Chains> {
    let in_loop: EntitySet<Block> = blocks.iter().copied().collect();
    let carried: Vec<Value> = k
        .dfg
        .block_params(header)
        .iter()
        .copied()
        .filter(|&p| k.dfg.value_type(p).is_vector())
        .collect();
    if carried.is_empty() {
        return None;
    }
    let mut values: Vec<Type> = carried.iter().map(|&v| k.dfg.value_type(v)).collect();
    let mut outside: EntitySet<Value> = EntitySet::new();
    // In the loop's blocks in layout order: definitions come before their uses within a
    // trip, but for the header's parameters, where every chain starts.
    let mut reached: EntitySet<Value> = carried.iter().copied().collect();
    let mut depth: SecondaryMap<Value, u32> = SecondaryMap::new();
    let (mut op_bits, mut longest) = (Vec::new(), 0u32);
    for &b in k.layout.blocks().iter().filter(|b| in_loop.contains(**b)) {
        for &i in k.layout.block_insts(b) {
            let data = &k.dfg.insts[i];
            if matches!(data.op, Op::Load(_) | Op::Store(_)) {
                return None;
            }
            for &a in &data.args {
                let defined_inside = match k.dfg.value_def(a) {
                    ValueDef::Result(d) => k
                        .layout
                        .inst_block(d)
                        .is_some_and(|db| in_loop.contains(db)),
                    ValueDef::Param(pb, _) => in_loop.contains(pb),
                    ValueDef::Alias(_) | ValueDef::Invalid => true,
                };
                if !defined_inside && k.dfg.value_type(a).is_vector() && outside.insert(a) {
                    values.push(k.dfg.value_type(a));
                }
            }
            let Some(r) = k.dfg.inst_result(i) else {
                continue;
            };
            let float = float_arithmetic(k, i);
            if float {
                op_bits.push(k.dfg.value_type(r).bits());
            }
            if data.args.iter().any(|&a| reached.contains(a)) {
                reached.insert(r);
                depth[r] =
                    data.args.iter().map(|&a| depth[a]).max().unwrap_or(0) + u32::from(float);
                longest = longest.max(depth[r]);
            }
        }
    }
    (longest > 0 && op_bits.len() < 8 * longest as usize).then_some(Chains {
        values,
        op_bits,
        longest,
    })
}

/// Whether instruction `i` of `k` is float arithmetic whose latency a chain waits on: a
/// sum, difference, product, quotient or fused multiply-add of float lanes.
pub(crate) fn float_arithmetic(k: &Function, i: ferrocl_ir::Inst) -> bool {
    k.dfg.inst_result(i).is_some_and(|r| {
        k.dfg.value_type(r).lane_type().is_float()
            && matches!(
                k.dfg.insts[i].op,
                Op::Fma
                    | Op::Binary(BinaryOp::Fadd | BinaryOp::Fsub | BinaryOp::Fmul | BinaryOp::Fdiv)
            )
    })
}

/// The values of `k` that may differ between two work-items of one x id and different rows
/// (or planes): their y and z ids, the linear ids, what memory gives, the parameters of a
/// block but the entry (the kernel's arguments), and what is computed from any of these.
fn row_dependent(k: &Function) -> EntitySet<Value> {
    let mut by_row: EntitySet<Value> = EntitySet::new();
    let blocks = k.layout.blocks();
    let entry = k.layout.entry_block();
    for &b in blocks.iter().filter(|&&b| Some(b) != entry) {
        for &p in k.dfg.block_params(b) {
            by_row.insert(p);
        }
    }
    // Definitions before uses, but for the parameters (all in the set): until nothing moves.
    let mut changed = true;
    while changed {
        changed = false;
        for &b in blocks {
            for &i in k.layout.block_insts(b) {
                let Some(r) = k.dfg.inst_result(i) else {
                    continue;
                };
                if by_row.contains(r) {
                    continue;
                }
                let data = &k.dfg.insts[i];
                let varies = match data.op {
                    Op::WorkItem(WorkItemOp::GlobalId | WorkItemOp::LocalId, dim) => dim > 0,
                    Op::WorkItem(
                        WorkItemOp::GlobalLinearId
                        | WorkItemOp::LocalLinearId
                        | WorkItemOp::SubGroupId
                        | WorkItemOp::SubGroupLocalId,
                        _,
                    ) => true,
                    ref op => {
                        op.reads_memory()
                            || op.has_side_effects()
                            || data.args.iter().any(|&a| by_row.contains(a))
                    }
                };
                if varies {
                    by_row.insert(r);
                    changed = true;
                }
            }
        }
    }
    by_row
}

/// Whether the region of `blocks` loads a vector (the lanes of a chunk) from an address
/// that is the same in every row (`by_row`: what differs between rows).
fn shares_row_loads(k: &Function, blocks: &[Block], by_row: &EntitySet<Value>) -> bool {
    blocks.iter().any(|&b| {
        k.layout.block_insts(b).iter().any(|&i| {
            let data = &k.dfg.insts[i];
            matches!(data.op, Op::Load(_))
                && !by_row.contains(data.args[0])
                && k.dfg
                    .inst_result(i)
                    .is_some_and(|r| k.dfg.value_type(r).is_vector())
        })
    })
}

/// Where the region of `blocks` (without a loop) is bound by the latency of its float
/// arithmetic, the types of the vector values live at once at the point of its blocks where
/// most are (`most_live`). Bound by latency: its longest chain of dependent float operations
/// has at least `MIN_CHAIN` links, and it has fewer than 8 float operations per link (as for
/// a loop, `latency_bound`).
fn chain_bound(k: &Function, blocks: &[Block], elsewhere: &EntitySet<Value>) -> Option<Vec<Type>> {
    const MIN_CHAIN: u32 = 8;
    let in_region: EntitySet<Block> = blocks.iter().copied().collect();
    let mut depth: SecondaryMap<Value, u32> = SecondaryMap::new();
    let (mut float_ops, mut longest) = (0u32, 0u32);
    for &b in k.layout.blocks().iter().filter(|b| in_region.contains(**b)) {
        for &i in k.layout.block_insts(b) {
            let data = &k.dfg.insts[i];
            let Some(r) = k.dfg.inst_result(i) else {
                continue;
            };
            let float = float_arithmetic(k, i);
            float_ops += u32::from(float);
            depth[r] = data.args.iter().map(|&a| depth[a]).max().unwrap_or(0) + u32::from(float);
            longest = longest.max(depth[r]);
        }
    }
    (longest >= MIN_CHAIN && float_ops < 8 * longest).then(|| most_live(k, blocks, elsewhere))
}

/// The values of `k` used in another block than their own.
fn used_elsewhere(k: &Function) -> EntitySet<Value> {
    let mut elsewhere: EntitySet<Value> = EntitySet::new();
    for &b in k.layout.blocks() {
        for &i in k.layout.block_insts(b) {
            for &a in &k.dfg.insts[i].args {
                let home = match k.dfg.value_def(a) {
                    ValueDef::Result(d) => k.layout.inst_block(d),
                    ValueDef::Param(pb, _) => Some(pb),
                    _ => None,
                };
                if home != Some(b) {
                    elsewhere.insert(a);
                }
            }
        }
    }
    elsewhere
}

/// The types of the vector values the region of `blocks` holds live at once, at the point
/// of its blocks where most are (a value used in another block, `elsewhere`, counts to its
/// own block's end).
fn most_live(k: &Function, blocks: &[Block], elsewhere: &EntitySet<Value>) -> Vec<Type> {
    let in_region: EntitySet<Block> = blocks.iter().copied().collect();
    let vector = |v: Value| k.dfg.value_type(v).is_vector();
    let mut most: Vec<Type> = Vec::new();
    for &b in k.layout.blocks().iter().filter(|b| in_region.contains(**b)) {
        let insts = k.layout.block_insts(b);
        // From the block's end backwards: at the end, what it defines for other blocks.
        let mut live: EntitySet<Value> = EntitySet::new();
        let mut count = 0usize;
        for &i in insts {
            if let Some(r) = k.dfg.inst_result(i).filter(|&r| elsewhere.contains(r)) {
                count += usize::from(vector(r) && live.insert(r));
            }
        }
        for &i in insts.iter().rev() {
            if let Some(r) = k.dfg.inst_result(i) {
                count -= usize::from(live.remove(r));
            }
            for &a in &k.dfg.insts[i].args {
                count += usize::from(vector(a) && live.insert(a));
            }
            if count > most.len() {
                most = live.iter().map(|v| k.dfg.value_type(v)).collect();
            }
        }
    }
    most
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A loop carrying `registers` 512-bit chains, one `fma` each a trip.
    fn horner(registers: u32) -> Chains {
        Chains {
            values: vec![],
            op_bits: vec![512 * registers],
            longest: 1,
        }
    }

    const ZEN4: FmaUnits = FmaUnits {
        latency: 4,
        pipes: 2,
        datapath_bits: 256,
        shared_ports: false,
    };
    const SKYLAKE_SERVER: FmaUnits = FmaUnits {
        latency: 4,
        pipes: 2,
        datapath_bits: 512,
        shared_ports: true,
    };

    #[test]
    fn chunks_fill_the_units_in_flight() {
        // Two passes of a 512-bit fma: four in flight on Zen 4; eight on two 512-bit units,
        // and half as many again on ports shared with the loop's counting.
        assert_eq!(ZEN4.in_flight(512), 4);
        assert_eq!(ZEN4.in_flight(256), 8);
        assert_eq!(SKYLAKE_SERVER.in_flight(512), 12);
        // float4 at 16 lanes: four registers a chunk.
        assert_eq!(horner(4).chunks_wanted(512, ZEN4), 1);
        assert_eq!(horner(4).chunks_wanted(512, SKYLAKE_SERVER), 3);
        // float at 16 lanes: one register a chunk, more chunks than the jam's four.
        assert_eq!(horner(1).chunks_wanted(512, SKYLAKE_SERVER), 12);
        // A chain of a product and a sum a trip (`a = a * v + c` unfused) needs as many
        // chunks as one fma a trip: twice the latency, twice the operations.
        let unfused = Chains {
            values: vec![],
            op_bits: vec![512, 512],
            longest: 2,
        };
        assert_eq!(unfused.chunks_wanted(512, ZEN4), 4);
    }
}
