//! Vectorization across work-items: whole-function vectorization after Karrenberg and Hack,
//! "Whole-Function Vectorization" (CGO 2011), IR to IR.
//!
//! `vectorize(kernel, W)` turns the per-work-item kernel into a function that computes W
//! consecutive work-items along dimension 0 in one invocation (a *chunk*). It has the same
//! parameters; in it, `global_id 0` and `local_id 0` denote lane 0's ids (the code adds the
//! lane offsets), and every other work-item query is the same for the W lanes. It is only run
//! with all W lanes active (the work-group transform runs a partial chunk with the scalar
//! kernel).
//!
//! - [`shape`] tells which values are uniform across the lanes, affine (consecutive or
//!   strided) or varying, and which branches diverge.
//! - Uniform values stay scalars and uniform branches stay branches. Varying values become
//!   IR vectors of W lanes (pointers: W scalar pointers, since the IR has no pointer vectors);
//!   affine values stay their lane 0 value with a known stride, so `a[get_global_id(0)]` is
//!   one vector load or store, and other addresses are gathered or scattered lane by lane.
//! - A divergent branch and the blocks up to its post-dominator become straight-line code
//!   under a mask per block; block parameters become blends. Loads, stores and atomics under
//!   a mask run whole when every lane is active and lane by lane, each behind its own
//!   branch, otherwise: a masked-off lane never touches memory.
//! - A loop that lanes leave at different iterations runs while any lane is active, and a
//!   loop under a divergent branch or inside such a loop under its mask; each lane keeps the
//!   values it left with.
//! - Private memory (stack slots) has one copy per lane, `lane_bytes` apart.
//! - Atomics run lane by lane in lane order. Barriers stay barriers, one-to-one and in order.
//! - OpenCL vector values (`float4`) are split into scalars first ([`scalarize`]); the W
//!   lanes' vectors at consecutive addresses are then loaded and stored as whole vectors,
//!   their lanes regrouped by shuffles (an array of `float4` is W `float4`s in a row).
//!
//! What this version does not handle is a [`Refusal`] with its reason, and the caller runs
//! the scalar kernel: calls, collectives and sub-group queries, and unstructured divergent
//! control flow (a loop with several exits under a mask, a region with several entries).

mod cfg;
mod cost;
pub(crate) mod emit;
mod regroup;
pub mod scalarize;
pub mod shape;
mod streams;

pub use emit::skippable_count;
pub use regroup::regrouped_count;
pub use streams::runs_count;

use std::fmt;

use ferrocl_ir::{Function, Inst, Value};

/// Why a kernel was not vectorized.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Refusal {
    /// What the vectorizer does not handle, in a few words.
    pub reason: String,
}

impl Refusal {
    pub(crate) fn new(reason: impl Into<String>) -> Refusal {
        Refusal {
            reason: reason.into(),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not vectorized: {}", self.reason)
    }
}

/// A kernel vectorized across work-items.
#[derive(Clone, Debug)]
pub struct Vectorized {
    /// The W-wide function: the kernel's name, parameters and metadata.
    pub func: Function,
    /// Each barrier of the scalar kernel with its counterpart in `func`, in the scalar
    /// kernel's layout order.
    pub barriers: Vec<(Inst, Inst)>,
    /// Whether `func` is only right for groups whose x ids and x size are at most
    /// [`shape::ID_LIMIT`] (see [`shape::Shapes::assumes_id_limit`]).
    pub assumes_id_limit: bool,
    /// Each value of the kernel that `func` holds as one scalar for the W lanes, with that
    /// scalar (sorted). The work-group transform keeps such a value in one place for the
    /// chunks and the single work-items alike.
    pub uniform: Vec<(Value, Value)>,
    /// The cost model's estimate of the W-wide code's cost per chunk, as a fraction of W
    /// times the kernel's per work-item ([`cost`]).
    pub estimate: f64,
    /// Why the cost model expects `func` to be slower than the kernel run one work-item at a
    /// time, if it does: `func` is right, and the CPU device runs the kernel instead.
    pub slower: Option<Refusal>,
    /// The loops that read a run of elements per lane, unrolled so that each lane loads
    /// several of them at once ([`streams`]).
    pub runs: usize,
}

/// The widths the vectorizer produces: 4 lanes (one 128-bit register of 32-bit lanes), 8 or 16.
pub const WIDTHS: [u32; 3] = [4, 8, 16];

/// Whether the CPU device vectorizes kernels: `FERROCL_VECTORIZE=0` in the environment
/// turns it off (read once per process), so that results can be compared both ways.
pub fn enabled() -> bool {
    static ENABLED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ENABLED.get_or_init(|| std::env::var_os("FERROCL_VECTORIZE").is_none_or(|v| v != "0"))
}

/// Vectorizes `func` (a kernel after inlining) for chunks of `width` work-items along x.
pub fn vectorize(func: &Function, width: u32) -> Result<Vectorized, Refusal> {
    if !WIDTHS.contains(&width) {
        return Err(Refusal::new(format!("width {width} (4 or 8 only)")));
    }
    if !func.is_kernel() || func.is_declaration() {
        return Err(Refusal::new("not a kernel with a body"));
    }
    let per_item = cost::per_item(func);
    if !scalarize::has_vectors(func) {
        emit::check_supported(func)?;
        let mut v = unrolled(func, &[], width, per_item)?;
        // The values of `func` only: unrolling's are its own.
        let known = func.dfg.values.len();
        v.uniform.retain(|&(s, _)| (s.as_u32() as usize) < known);
        return Ok(v);
    }
    let split = scalarize::scalarize(func)?;
    let scalar = &split.func;
    emit::check_supported(scalar)?;
    let mut v = unrolled(scalar, &split.accesses, width, per_item)?;
    regroup::run(&mut v.func);
    // Back to the kernel's values: a scalar value stays one value when split.
    v.uniform = v
        .uniform
        .iter()
        .filter_map(|&(s, w)| Some((split.original(s)?, w)))
        .collect();
    v.uniform.sort();
    // Scalarizing keeps the barriers and their order.
    let originals = barriers(func);
    let scalar_barriers = barriers(scalar);
    v.barriers = originals
        .into_iter()
        .zip(scalar_barriers)
        .filter_map(|(o, s)| {
            let (_, w) = v.barriers.iter().find(|&&(x, _)| x == s)?;
            Some((o, *w))
        })
        .collect();
    Ok(v)
}

/// The barriers of `func` in layout order.
fn barriers(func: &Function) -> Vec<Inst> {
    func.layout
        .blocks()
        .iter()
        .flat_map(|&b| func.layout.block_insts(b).iter().copied())
        .filter(|&i| matches!(func.dfg.insts[i].op, ferrocl_ir::Op::Barrier(..)))
        .collect()
}

/// [`emit::vectorize`] of `func` with its loops that read a run of elements per lane
/// unrolled ([`streams`]); the estimate is the loops' as they were, which the unrolled copies
/// only make cheaper.
fn unrolled(
    func: &Function,
    accesses: &[Vec<Inst>],
    width: u32,
    per_item: f64,
) -> Result<Vectorized, Refusal> {
    let prepared = emit::prepare(func, width);
    let Some((f, groups, runs)) = streams::unroll(func, &prepared) else {
        return emit::vectorize_prepared(prepared, accesses, width, per_item);
    };
    let all: Vec<Vec<Inst>> = accesses.iter().cloned().chain(groups).collect();
    let mut v = emit::vectorize(&f, &all, width, per_item)?;
    let (estimate, slower) = emit::verdict(&prepared, accesses, width, per_item);
    (v.estimate, v.slower, v.runs) = (estimate, slower, runs);
    Ok(v)
}
