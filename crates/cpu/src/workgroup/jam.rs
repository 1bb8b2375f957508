//! Which regions of a W-wide kernel run two chunks at once (`Emitter::region_loop` with
//! `jam`): each instruction of the region copied twice in a row, for the chunk at `x` and
//! the one at `x + W`, under one copy of the region's branches (unroll and jam of the
//! chunk loop).
//!
//! A loop inside the region whose every trip waits for the one before (Horner's rule,
//! `a = a * v + c`, or a chain of `mad`s as clpeak's) keeps one chain per vector register
//! in flight, and the floating-point units wait on its latency: two chunks at once give them
//! twice the independent chains. Measured on float4-poly (a degree-32 polynomial per lane,
//! one fused multiply-add per step): see docs/benchmarks.md.
//!
//! Running two work-items' instructions interleaved is a schedule the work-items of a group
//! may have anyway, since nothing orders them between barriers (OpenCL C 6.15.8: only a
//! barrier does; two work-items that touch the same memory without one race). What the
//! transform itself shares between work-items must then not be shared by two at once, so a
//! region is jammed only when:
//! - every branch in it is uniform (`ferrocl_ir::uniformity`): the chunks go the same way,
//!   and one copy of the branches serves both;
//! - it takes no stack slot's address (a slot that no value keeps across a barrier has one
//!   copy for all work-items, each using it in turn), and has no atomics, fences, calls or
//!   collectives (their order between work-items is what programs observe).

use ferrocl_ir::analysis::{Cfg, DomTree, LoopInfo};
use ferrocl_ir::entity::{EntitySet, SecondaryMap};
use ferrocl_ir::uniformity::Uniformity;
use ferrocl_ir::{BinaryOp, Block, Function, Op, Type, Value, ValueDef};

/// Whether the vector values `values` of a loop at `width` lanes fit the registers twice
/// over: the wide tier's where it runs that width and they hold no `f64` (which it leaves to
/// Cranelift), else 14 of Cranelift's 16 `xmm`.
fn fit_twice(values: &[Type], width: u32) -> bool {
    let tier = crate::wide::value_registers(width)
        .filter(|_| values.iter().all(|t| t.lane_type() != Type::F64));
    let (registers, bits) = match tier {
        Some(n) => (n as u32, 32 * width),
        None => (14, 128),
    };
    let need: u32 = values.iter().map(|t| t.bits().div_ceil(bits)).sum();
    2 * need <= registers
}

/// Whether each region of `k` (its blocks, `regions`) runs two chunks at once: it may (see
/// the module's conditions), and it holds a loop bound by the latency of what it carries.
/// The analyses of `k` run once, and only where some region may.
pub(super) fn jammable(k: &Function, regions: &[Vec<Block>], width: u32) -> Vec<bool> {
    let may: Vec<bool> = regions.iter().map(|blocks| allowed(k, blocks)).collect();
    if !may.contains(&true) {
        return may;
    }
    let cfg = Cfg::new(k);
    let dom = DomTree::new(k, &cfg);
    let loops = LoopInfo::new(&cfg, &dom);
    let uniformity = Uniformity::new(k);
    regions
        .iter()
        .zip(may)
        .map(|(blocks, may)| {
            let in_region: EntitySet<Block> = blocks.iter().copied().collect();
            may && blocks.iter().all(|&b| uniformity.is_uniform_branch(b))
                && loops.loops.iter().any(|lp| {
                    lp.blocks.iter().all(|&b| in_region.contains(b))
                        && latency_bound(k, &lp.blocks, lp.header)
                            .is_some_and(|values| fit_twice(&values, width))
                })
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

/// Where the loop of `blocks` (headed by `header`) has trips bound by the latency of the
/// float arithmetic it carries, the types of its vector values: those it carries and those
/// from outside it that it reads (constants among them). Bound by latency: it carries vector
/// values, has fewer than 8 float operations per link of the longest chain of them that
/// starts at a carried value within one trip (so that even at two a cycle the units wait
/// for the chain), and reads and writes no memory. (A loop that loads, as a matrix-vector
/// product's row loop, ran 3.3 times slower at two chunks: twice the streams of addresses,
/// for units that wait on memory more than on each other.)
fn latency_bound(k: &Function, blocks: &[Block], header: Block) -> Option<Vec<Type>> {
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
    let (mut float_ops, mut longest) = (0u32, 0u32);
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
            let float = k.dfg.value_type(r).lane_type().is_float()
                && matches!(
                    data.op,
                    Op::Fma
                        | Op::Binary(
                            BinaryOp::Fadd | BinaryOp::Fsub | BinaryOp::Fmul | BinaryOp::Fdiv
                        )
                );
            float_ops += u32::from(float);
            if data.args.iter().any(|&a| reached.contains(a)) {
                reached.insert(r);
                depth[r] =
                    data.args.iter().map(|&a| depth[a]).max().unwrap_or(0) + u32::from(float);
                longest = longest.max(depth[r]);
            }
        }
    }
    (longest > 0 && float_ops < 8 * longest).then_some(values)
}
