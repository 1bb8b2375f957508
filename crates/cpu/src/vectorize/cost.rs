//! Whether vectorizing a kernel pays: an estimate of the W-wide code's cost per chunk
//! against W times the kernel's per work-item, from the shapes of the values, before the
//! device runs either. Above [`MAX_RATIO`] the CPU device runs the kernel one work-item at
//! a time, and `--emit wg` says why; below it the listing gives the estimate.
//!
//! What makes W-wide code slower than the work-items one at a time is memory reached lane
//! by lane: a gather or scatter takes each lane's address out of a vector register, makes
//! the access and puts the value into a vector, several instructions per lane where the
//! scalar kernel makes one access; the components of the kernel's own vectors (`uchar4`,
//! `float2`) regrouped by shuffles where the scalar kernel does one vector operation; and a
//! loop that lanes leave at different trips, which runs until its last lane leaves, its
//! accesses under a mask (a test and a branch per lane once some lane has left).
//!
//! The estimate counts instructions, each block weighted by the [`trips`] of the loops
//! around it. Calibrated on `ferrocl bench --scalar` with `FERROCL_VECTORIZE=always` (2-core
//! AMD EPYC, scalar time / vectorized time): slowed down by vectorizing were a CSR sparse
//! matrix-vector product (0.21; estimated 3.18), a threshold over `uchar4` (0.22; 1.00), a
//! pyramid step over bytes at clamped addresses (0.26; 0.86), a copy of `float4`s (0.89;
//! 1.34) and a radix-4 FFT over `float2` with scattered `__local` stores (0.91; 1.03);
//! every other row gains, from 1.38 (triad) to 8.5 (a byte-wise absolute difference), and
//! is estimated at 0.54 (histogram, float4-poly) or below. Byte kernels have since run 16
//! lanes (`narrow_width` in `lib.rs`), where the threshold over `uchar4` is estimated at 0.51
//! and gains (1.9 of its scalar speed); the FFT's passes, since unrolled and their index
//! arithmetic found consecutive (`Shapes::chunk_division`), are estimated at 0.54 and gain
//! 1.35-2.0 vectorized.

use ferrocl_ir::analysis::{Cfg, DomTree, Loop, LoopInfo};
use ferrocl_ir::entity::{EntitySet, SecondaryMap};
use ferrocl_ir::{AddrSpace, BinaryOp, Block, Function, Inst, IntCC, Op, Type, Value, ValueDef};

use super::emit::strided_pays;
use super::shape::{Shape, Shapes};
use super::Refusal;

/// How many times the estimate counts a loop's body for each loop around it, where its trip
/// count is unknown ([`trips`]): the inner loops are where the time goes.
const TRIPS: f64 = 8.0;

/// The trips of loop `l`, at most [`TRIPS`]: fewer where it counts up by a constant step
/// to a constant bound (`for (k = lid; k < 324; k += 256)`: at most 2), taking the counter
/// to start at 0 or above.
fn trips(f: &Function, l: &Loop) -> f64 {
    let constant = |v: Value| f.dfg.iconst_value(v).map(|c| c as i64 as f64);
    let header_param =
        |v: Value| matches!(f.dfg.value_def(v), ValueDef::Param(b, _) if b == l.header);
    // The step of `x`, a counter or the counter plus a constant, where it is one.
    let step = |x: Value| -> Option<f64> {
        let counter = match f.dfg.value_def(x) {
            ValueDef::Result(i) => match (&f.dfg.insts[i].op, f.dfg.insts[i].args.as_slice()) {
                (Op::Binary(BinaryOp::Iadd), &[q, s]) if header_param(q) => {
                    return constant(s).filter(|&s| s > 0.0)
                }
                _ => return None,
            },
            ValueDef::Param(..) if header_param(x) => x,
            _ => return None,
        };
        l.blocks.iter().find_map(|&b| {
            f.layout.block_insts(b).iter().find_map(|&i| {
                match (&f.dfg.insts[i].op, f.dfg.insts[i].args.as_slice()) {
                    (Op::Binary(BinaryOp::Iadd), &[q, s]) if q == counter => {
                        constant(s).filter(|&s| s > 0.0)
                    }
                    _ => None,
                }
            })
        })
    };
    let bounded = l.blocks.iter().find_map(|&b| {
        let &i = f.layout.block_insts(b).last()?;
        let Op::Brif(_) = f.dfg.insts[i].op else {
            return None;
        };
        let ValueDef::Result(c) = f.dfg.value_def(f.dfg.insts[i].args[0]) else {
            return None;
        };
        match (&f.dfg.insts[c].op, f.dfg.insts[c].args.as_slice()) {
            (Op::Icmp(IntCC::Slt | IntCC::Ult | IntCC::Sle | IntCC::Ule), &[x, bound]) => {
                Some((constant(bound)? / step(x)?).ceil().max(1.0))
            }
            _ => None,
        }
    });
    bounded.map_or(TRIPS, |t| t.min(TRIPS))
}

/// The cost of one lane of a gather or scatter at addresses computed in a vector: the lane's
/// address out of the vector, the access, the value into a vector (or out of one).
const LANE_ACCESS: f64 = 6.0;

/// The cost of one lane of a gather or scatter at strided addresses, which are lane 0's
/// plus a constant: the access and the value into a vector (or out of one).
const STRIDED_ACCESS: f64 = 1.5;

/// How much longer a loop that lanes leave at different trips runs than its average lane,
/// and how much more a gather in it costs (a test and a branch per lane under a partial
/// mask).
const DIVERGENT_TRIPS: f64 = 1.5;
const MASKED_ACCESS: f64 = 2.0;

/// The most the W-wide code's estimated cost per chunk may be, as a fraction of W times the
/// kernel's per work-item: above it the kernel runs unvectorized.
const MAX_RATIO: f64 = 0.7;

/// [`MAX_RATIO`] for W-wide code that makes no access lane by lane and shuffles nothing (its
/// accesses at uniform or consecutive addresses, no division): the same operations on W
/// times the data, which one at a time wait on each other where the W-wide code runs W
/// chains side by side, so an estimate near 1 still gains. clpeak's kernels of `int4` and
/// `int16` multiply-adds, estimated at 0.87 and 0.96, ran 3.2 and 1.2 times faster vectorized
/// (2-core AMD EPYC). Every kernel that vectorizing was measured to slow down reached memory
/// lane by lane or shuffled (above).
const REGULAR_MAX_RATIO: f64 = 1.25;

/// The loops of a function as the estimate sees them.
struct Weights {
    /// How many times each block runs for one run of the function: the product of the
    /// [`trips`] of the loops around it.
    weight: SecondaryMap<Block, f64>,
    /// The blocks in a loop that lanes may leave at different trips (`shapes` given).
    divergent: EntitySet<Block>,
    /// The innermost loop of each block in one, as an index into `loops.loops`.
    innermost: SecondaryMap<Block, Option<usize>>,
    loops: LoopInfo,
}

fn block_weights(f: &Function, shapes: Option<&Shapes>) -> Weights {
    let cfg = Cfg::new(f);
    let dom = DomTree::new(f, &cfg);
    let loops = LoopInfo::new(&cfg, &dom);
    let mut weight: SecondaryMap<Block, f64> = SecondaryMap::new();
    let mut innermost = SecondaryMap::new();
    for &b in f.layout.blocks() {
        weight[b] = 1.0;
    }
    let mut divergent = EntitySet::new();
    for (index, l) in loops.loops.iter().enumerate() {
        let leaves_apart = shapes.is_some_and(|s| {
            l.blocks
                .iter()
                .any(|&b| s.is_divergent(b) && cfg.succs(b).iter().any(|t| !l.blocks.contains(t)))
        });
        let trips = trips(f, l);
        for &b in &l.blocks {
            weight[b] *= trips;
            // Outer loops come first: the last one seen is the innermost.
            innermost[b] = Some(index);
            if leaves_apart {
                // A loop of a few trips at most runs its longest lane about as long as
                // its average one.
                if trips == TRIPS {
                    weight[b] *= DIVERGENT_TRIPS;
                }
                divergent.insert(b);
            }
        }
    }
    Weights {
        weight,
        divergent,
        innermost,
        loops,
    }
}

fn divides(op: BinaryOp) -> bool {
    matches!(
        op,
        BinaryOp::Sdiv | BinaryOp::Udiv | BinaryOp::Srem | BinaryOp::Urem
    )
}

/// The estimated cost of running kernel `f` for one work-item: one per instruction (an
/// operation on one of the kernel's own vector types is one per 128-bit register it takes:
/// a `float16` is four), a division four.
pub(super) fn per_item(f: &Function) -> f64 {
    let weight = block_weights(f, None).weight;
    f.layout
        .blocks()
        .iter()
        .map(|&b| {
            let cost: f64 = f
                .layout
                .block_insts(b)
                .iter()
                .map(|&i| match f.dfg.insts[i].op {
                    Op::Binary(op) if divides(op) => 4.0,
                    _ => f.dfg.inst_result(i).map_or(1.0, |v| {
                        let t = f.dfg.value_type(v);
                        (f64::from(t.bits()) / 128.0).max(1.0)
                    }),
                })
                .sum();
            cost * weight[b]
        })
        .sum()
}

/// The bits of the vector registers the W-wide code at `width` runs in: 128 for Cranelift's
/// code, 512 (AVX-512) or 256 (AVX2) at the wide-vector tier's width where the tier runs
/// (`crate::wide`; a function it refuses is vectorized again at the usual width and costed at
/// 128, but for an AVX2 host's 8 lanes, which are both widths). The arithmetic of a
/// `float4` kernel is no cheaper in 16 lanes of 128-bit registers than one work-item at a
/// time (a `float4` operation is four registers' for four lanes), and four times cheaper in
/// 512-bit ones.
fn register_bits(width: u32) -> f64 {
    if width == crate::wide::width() && crate::wide::enabled() {
        32.0 * f64::from(width)
    } else {
        128.0
    }
}

/// The estimated cost of the W-wide code for one chunk of `width` work-items, from the
/// (scalarized) kernel `f` and its shapes: an instruction whose operands are all uniform
/// runs once; a varying one is a vector operation on as many 128-bit registers as its W
/// lanes take, but a division, which has no vector form, runs lane by lane; a load or store
/// at consecutive addresses is whole vectors, a component of one of the kernel's vectors
/// (`accessed`) a vector and a shuffle, any other address [`LANE_ACCESS`] per lane. With
/// whether any of it works lane by lane or shuffles (an access not at uniform or consecutive
/// addresses, a division).
fn per_chunk(
    f: &Function,
    shapes: &Shapes,
    width: u32,
    accessed: &SecondaryMap<Inst, u32>,
) -> (f64, bool) {
    let mut irregular = false;
    let Weights {
        weight,
        divergent,
        innermost,
        loops,
    } = block_weights(f, Some(shapes));
    let w = f64::from(width);
    // Whether `v` is computed before the innermost loop around `b` (its lanes are then
    // taken out of their vector once, before the loop).
    let before_loop = |v: Value, b: Block| {
        let Some(l) = innermost[b] else {
            return false;
        };
        let defined = match f.dfg.value_def(v) {
            ValueDef::Result(i) => f.layout.inst_block(i),
            ValueDef::Param(d, _) => Some(d),
            _ => None,
        };
        defined.is_some_and(|d| !loops.loops[l].blocks.contains(&d))
    };
    // An address whose lanes are ready in a loop: computed before it, or such a pointer
    // plus a uniform offset.
    let lanes_ready = |p: Value, b: Block| {
        before_loop(p, b)
            || matches!(f.dfg.value_def(p), ValueDef::Result(i)
                if matches!(f.dfg.insts[i].op, Op::PtrAdd)
                    && before_loop(f.dfg.insts[i].args[0], b)
                    && shapes.of(f.dfg.insts[i].args[1]).is_uniform())
    };
    let bits = register_bits(width);
    let wide = |ty: Type| (w * f64::from(ty.bits()) / bits).max(1.0);
    let mut total = 0.0;
    for &b in f.layout.blocks() {
        let masked = if divergent.contains(b) {
            MASKED_ACCESS
        } else {
            1.0
        };
        for &i in f.layout.block_insts(b) {
            let data = &f.dfg.insts[i];
            // Operands alike in every lane, or a result that is (a quotient the chunk's
            // lanes share, see `Shapes::chunk_division`): one scalar operation.
            let uniform = data.args.iter().all(|&a| shapes.of(a).is_uniform())
                || f.dfg
                    .inst_result(i)
                    .is_some_and(|r| shapes.of(r).is_uniform());
            let result = f.dfg.inst_result(i).map(|v| f.dfg.value_type(v));
            // A component of a vector access is dense when the lanes' vectors are
            // consecutive (`accessed[i]`: the vector's bytes).
            // Under a partial mask, `__global` and `__constant` accesses test each lane
            // (the others cannot fault and run unmasked).
            let space_masked = |flags: &ferrocl_ir::MemFlags| {
                if matches!(flags.space, AddrSpace::Global | AddrSpace::Constant) {
                    masked
                } else {
                    1.0
                }
            };
            let mut access = |p: Value, ty: Type, masked: f64| match shapes.of(p) {
                s if s.is_uniform() => 1.0,
                Shape::Affine { stride, .. } if stride == i64::from(ty.bytes()) => wide(ty),
                shape => {
                    irregular = true;
                    match shape {
                        Shape::Affine { stride, .. } if stride == i64::from(accessed[i]) => {
                            wide(ty) + 1.0
                        }
                        Shape::Affine { .. } => STRIDED_ACCESS * w * masked,
                        _ if lanes_ready(p, b) => STRIDED_ACCESS * w * masked,
                        _ => LANE_ACCESS * w * masked,
                    }
                }
            };
            // A load at lanes a few elements apart: that many whole vectors and the
            // shuffles that pick its lanes (`Emitter::strided_load`).
            let strided = |p: Value, ty: Type| match shapes.of(p) {
                Shape::Affine { stride, .. } if !ty.is_ptr() && ty.bytes() > 0 => {
                    let k = u32::try_from(stride / i64::from(ty.bytes())).unwrap_or(0);
                    (stride % i64::from(ty.bytes()) == 0 && strided_pays(k, width))
                        .then(|| f64::from(k) * (wide(ty) + 1.0))
                }
                _ => None,
            };
            let mut shuffled = false;
            let cost = match &data.op {
                Op::Load(flags) => {
                    let ty = result.unwrap_or(Type::I32);
                    match strided(data.args[0], ty) {
                        Some(c) if masked == 1.0 => {
                            shuffled = true;
                            c
                        }
                        _ => access(data.args[0], ty, space_masked(flags)),
                    }
                }
                Op::Store(flags) => access(
                    data.args[1],
                    f.dfg.value_type(data.args[0]),
                    space_masked(flags),
                ),
                _ if uniform => 1.0,
                Op::Binary(op) if divides(*op) => {
                    irregular = true;
                    4.0 * w
                }
                // One per lane, as one per work-item in the kernel.
                Op::AtomicRmw(..) | Op::Cmpxchg(..) | Op::AtomicLoad(_) | Op::AtomicStore(_) => w,
                _ => result.map_or(1.0, wide),
            };
            irregular |= shuffled;
            total += cost * weight[b];
        }
    }
    (total, irregular)
}

/// The W-wide code's estimated cost as a fraction of running its W work-items one at a
/// time; with a refusal when that is above [`MAX_RATIO`].
pub(super) fn worth_it(
    f: &Function,
    shapes: &Shapes,
    width: u32,
    accesses: &[Vec<Inst>],
    scalar_per_item: f64,
) -> Result<f64, (f64, Refusal)> {
    // Each component access with the bytes of its vector (a 3-component one takes 4's).
    let mut accessed = SecondaryMap::new();
    for group in accesses {
        let Some(&first) = group.first() else {
            continue;
        };
        let data = &f.dfg.insts[first];
        let ty = match data.op {
            Op::Store(_) => f.dfg.value_type(data.args[0]),
            _ => f
                .dfg
                .inst_result(first)
                .map_or(Type::I8, |v| f.dfg.value_type(v)),
        };
        let lanes = (group.len() as u32).next_power_of_two();
        for &i in group {
            accessed[i] = lanes * ty.bytes();
        }
    }
    let (chunk, irregular) = per_chunk(f, shapes, width, &accessed);
    let ratio = chunk / (f64::from(width) * scalar_per_item);
    let max = if irregular {
        MAX_RATIO
    } else {
        REGULAR_MAX_RATIO
    };
    if ratio > max {
        return Err((
            ratio,
            Refusal::new(format!(
                "{width} work-items a chunk are estimated to cost {ratio:.2} of running them \
                 one at a time (memory reached lane by lane, shuffles, or little vector work)"
            )),
        ));
    }
    Ok(ratio)
}
