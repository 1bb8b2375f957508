//! Whether vectorizing a kernel pays: the cases where the W-wide code is known to be slower
//! than running the work-items one at a time, refused before any code is made.
//!
//! A loop that lanes leave at different trips runs under a mask until its last lane leaves:
//! every trip costs the whole chunk, however few lanes are still in it. That pays when the
//! trip's work is vector work (the mandelbrot loop: arithmetic only, lanes nearly in step),
//! and does not when the trip's loads are gathers: each lane's load is a scalar load anyway,
//! plus the inserts that make the vector and, under a partial mask, a test and a branch per
//! lane. A sparse matrix-vector product in CSR form, one row per work-item and rows of 4 to
//! 28 non-zeros (three gathers a trip), ran 3.3 times slower in 8-wide chunks than one
//! work-item at a time (2-core AMD EPYC: 43 ms against 13 ms; PoCL 17 ms). Such a kernel
//! runs unvectorized, and `--emit wg` says why.

use ferrocl_ir::analysis::{Cfg, LoopInfo};
use ferrocl_ir::{AddrSpace, Function, Op};

use super::shape::{Shape, Shapes};
use super::Refusal;

/// Whether the access through address `p` of `space` gathers or scatters lane by lane in
/// memory that is not the group's own: an address neither uniform nor consecutive.
fn gathers(shapes: &Shapes, p: ferrocl_ir::Value, space: AddrSpace) -> bool {
    matches!(space, AddrSpace::Global | AddrSpace::Constant)
        && matches!(shapes.of(p), Shape::Varying | Shape::Unknown)
}

/// A refusal when some loop that lanes leave at different trips gathers or scatters global
/// memory on its trips.
pub(super) fn check(
    f: &Function,
    cfg: &Cfg,
    loops: &LoopInfo,
    shapes: &Shapes,
) -> Result<(), Refusal> {
    for l in &loops.loops {
        let divergent_exit = l
            .blocks
            .iter()
            .any(|&b| shapes.is_divergent(b) && cfg.succs(b).iter().any(|s| !l.blocks.contains(s)));
        if !divergent_exit {
            continue;
        }
        let gathered = l.blocks.iter().any(|&b| {
            f.layout.block_insts(b).iter().any(|&i| {
                let data = &f.dfg.insts[i];
                let args = &data.args;
                match data.op {
                    Op::Load(flags) => gathers(shapes, args[0], flags.space),
                    Op::Store(flags) => gathers(shapes, args[1], flags.space),
                    _ => false,
                }
            })
        });
        if gathered {
            return Err(Refusal::new(
                "a loop that work-items leave at different trips gathers from memory on each \
                 trip (it would run as long as its longest lane, each gather lane by lane)",
            ));
        }
    }
    Ok(())
}
