//! Kernels that write a matrix transposed: a global store whose work-items along x write
//! consecutive elements, while the next work-group along x writes other rows (its address
//! moves by a multiple of a row pitch known only when the kernel runs, or by a page or more).
//! A tiled matrix transpose is the example (`out[(x0 + ly) * height + y0 + lx]`, `x0` the
//! group's x times its width): each group writes a short piece of as many rows as it is wide.
//!
//! Two choices follow for such a kernel (docs/benchmarks.md, "Transposed stores"):
//! - on a host of few cores (`tiles_for`), its work-groups run in tiles of 16 x 16 (`lib.rs`,
//!   `tiled_group`), so that the groups that continue the same rows run close together in
//!   time rather than a whole row of groups apart (in row order every group writes lines of
//!   rows no group near it touches);
//! - its regions do not run the chunks of several rows at once (`workgroup::jam`) where a
//!   chunk stores less than a cache line: the chunk after it along x completes the lines it
//!   began, and a jam of rows puts the other rows' stores between the two halves.

use ferrocl_ir::entity::SecondaryMap;
use ferrocl_ir::{BinaryOp, ConvOp, Function, Op, Value, ValueDef, WorkItemOp};

/// How an address moves when one work-item id grows by one.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Step {
    /// It does not depend on the id.
    Fixed,
    /// By this many units (bytes, once scaled by the element size).
    By(i64),
    /// By a multiple of a value the kernel reads at run time (an argument: a row pitch).
    Pitch,
}

/// The steps of the values of a function with one id, computed once each.
struct Steps<'a> {
    f: &'a Function,
    id: (WorkItemOp, u8),
    memo: SecondaryMap<Value, Option<Option<Step>>>,
}

/// How deep `Steps::of` follows operands before it gives up (an unknown step).
const MAX_DEPTH: u32 = 48;

impl Steps<'_> {
    /// The step of `v`, or `None` where it is not one of the forms above (a product of two
    /// values that both move, a value loaded through a moving address, a loop's value, ...).
    fn of(&mut self, v: Value, depth: u32) -> Option<Step> {
        let v = self.f.dfg.resolve(v);
        if let Some(known) = self.memo[v] {
            return known;
        }
        let step = self.compute(v, depth);
        self.memo[v] = Some(step);
        step
    }

    fn compute(&mut self, v: Value, depth: u32) -> Option<Step> {
        if depth > MAX_DEPTH {
            return None;
        }
        let f = self.f;
        let inst = match f.dfg.value_def(v) {
            // The kernel's arguments are the same in every work-item.
            ValueDef::Param(b, _) if Some(b) == f.layout.entry_block() => return Some(Step::Fixed),
            ValueDef::Result(inst) => inst,
            _ => return None,
        };
        let data = &f.dfg.insts[inst];
        let args = &data.args;
        let constant = |v: Value| match f.dfg.value_def(f.dfg.resolve(v)) {
            ValueDef::Result(i) => match f.dfg.insts[i].op {
                Op::Iconst(bits) => {
                    let bits_of = f.dfg.value_type(f.dfg.resolve(v)).bits();
                    // Sign-extended from the constant's width.
                    let shift = 64 - bits_of.min(64);
                    Some(((bits << shift) as i64) >> shift)
                }
                _ => None,
            },
            _ => None,
        };
        match data.op {
            Op::WorkItem(op, d) if (op, d) == self.id => Some(Step::By(1)),
            // A global id along the same dimension moves with the group by the local size.
            Op::WorkItem(WorkItemOp::GlobalId, d) if d == self.id.1 => None,
            Op::WorkItem(..) | Op::Iconst(_) | Op::GlobalAddr(_) => Some(Step::Fixed),
            Op::Convert(ConvOp::Sext | ConvOp::Zext | ConvOp::Trunc) => self.of(args[0], depth + 1),
            Op::PtrAdd | Op::Binary(BinaryOp::Iadd) => {
                let (a, b) = (self.of(args[0], depth + 1)?, self.of(args[1], depth + 1)?);
                Some(sum(a, b, 1))
            }
            Op::Binary(BinaryOp::Isub) => {
                let (a, b) = (self.of(args[0], depth + 1)?, self.of(args[1], depth + 1)?);
                Some(sum(a, b, -1))
            }
            Op::Binary(BinaryOp::Imul) => {
                let (a, b) = (self.of(args[0], depth + 1)?, self.of(args[1], depth + 1)?);
                match (a, b) {
                    (Step::Fixed, Step::Fixed) => Some(Step::Fixed),
                    (Step::Fixed, _) => Some(scaled(b, constant(args[0]))),
                    (_, Step::Fixed) => Some(scaled(a, constant(args[1]))),
                    _ => None,
                }
            }
            Op::Binary(BinaryOp::Shl) => {
                let (a, b) = (self.of(args[0], depth + 1)?, self.of(args[1], depth + 1)?);
                match (a, b, constant(args[1])) {
                    (Step::Fixed, Step::Fixed, _) => Some(Step::Fixed),
                    (_, Step::Fixed, Some(k @ 0..=62)) => Some(scaled(a, Some(1 << k))),
                    _ => None,
                }
            }
            // Anything else moves in no known way unless none of its operands moves.
            _ => {
                for &a in args.iter() {
                    if self.of(a, depth + 1)? != Step::Fixed {
                        return None;
                    }
                }
                Some(Step::Fixed)
            }
        }
    }
}

/// `a + sign * b`.
fn sum(a: Step, b: Step, sign: i64) -> Step {
    match (a, b) {
        (Step::Pitch, _) | (_, Step::Pitch) => Step::Pitch,
        (Step::Fixed, Step::Fixed) => Step::Fixed,
        (Step::By(x), Step::Fixed) => Step::By(x),
        (Step::Fixed, Step::By(y)) => Step::By(sign * y),
        (Step::By(x), Step::By(y)) => Step::By(x + sign * y),
    }
}

/// `a` times a factor that does not move: a constant `k`, or a value known at run time.
fn scaled(a: Step, k: Option<i64>) -> Step {
    match (a, k) {
        (Step::Fixed, _) => Step::Fixed,
        (Step::By(x), Some(k)) => Step::By(x.saturating_mul(k)),
        (Step::By(_) | Step::Pitch, _) => Step::Pitch,
    }
}

/// The smallest move of the group along x that counts as writing other rows when it is a
/// constant: a page.
const ROW_BYTES: i64 = 4096;

/// The bytes of an element of `f`'s first transposed store (see the module's doc), if it
/// has one: `f` the kernel, or a W-wide version of it.
pub fn transposed_store(f: &Function) -> Option<u32> {
    let mut by_group = Steps {
        f,
        id: (WorkItemOp::GroupId, 0),
        memo: SecondaryMap::new(),
    };
    let mut by_item = Steps {
        f,
        id: (WorkItemOp::LocalId, 0),
        memo: SecondaryMap::new(),
    };
    for &b in f.layout.blocks() {
        for &i in f.layout.block_insts(b) {
            let data = &f.dfg.insts[i];
            let Op::Store(flags) = data.op else { continue };
            if flags.space != ferrocl_ir::AddrSpace::Global || flags.volatile {
                continue;
            }
            // A lane's bytes: in a W-wide version of the kernel (`workgroup::jam` asks of
            // one) the store is a vector of the chunk's W work-items, at the first one's
            // address.
            let bytes = f
                .dfg
                .value_type(f.dfg.resolve(data.args[0]))
                .lane_type()
                .bytes();
            let addr = data.args[1];
            let along = by_item.of(addr, 0) == Some(Step::By(i64::from(bytes)));
            let rows = match by_group.of(addr, 0) {
                Some(Step::Pitch) => true,
                Some(Step::By(x)) => x.abs() >= ROW_BYTES,
                _ => false,
            };
            if along && rows {
                return Some(bytes);
            }
        }
    }
    None
}

/// Whether `f`'s groups run in tiles: it stores transposed, on a host of few cores
/// (`wide::few_cores`), where the gain was measured. On 16-core Xeons tiles gained nothing
/// measurable: in turns with row order, the bench's transpose took 0.56-1.37 ms in tiles
/// against 0.52-0.66 in one run, 0.26-0.35 against 0.28-0.38 in another, on another host.
pub fn tiles_for(f: &Function) -> bool {
    crate::wide::few_cores() && transposed_store(f).is_some()
}

#[cfg(test)]
mod tests {
    use super::transposed_store;

    /// Whether the one function of `text` stores transposed, and its element's bytes.
    fn transposed(text: &str) -> Option<u32> {
        let m = ferrocl_ir::parse_module(text).expect("parses");
        let (_, f) = m.funcs.iter().next().expect("a function");
        transposed_store(f)
    }

    /// The bench's transpose (its IR as the front end gives it): the store moves by
    /// `16 * height` elements with the group along x and by one element with the work-item;
    /// the load moves by 16 elements with the group.
    const TRANSPOSE: &str = "
func @t(ptr.global, ptr.global, i32, i32) {
block0(v0: ptr.global, v1: ptr.global, v2: i32, v3: i32):
    v9: i64 = group_id 0
    v11: i64 = iconst 16
    v12: i64 = imul v9, v11
    v13: i32 = trunc v12
    v15: i64 = group_id 1
    v18: i64 = imul v15, v11
    v19: i32 = trunc v18
    v21: i64 = local_id 0
    v22: i32 = trunc v21
    v24: i64 = local_id 1
    v25: i32 = trunc v24
    v35: i64 = sext v22
    v36: i64 = iconst 4
    v45: i32 = iadd v19, v25
    v48: i32 = imul v45, v2
    v94: i64 = sext v48
    v95: i64 = sext v13
    v96: i64 = iadd v94, v95
    v98: i64 = iadd v96, v35
    v57: i64 = imul v98, v36
    v58: ptr.global = ptradd v0, v57
    v59: f32 = load.global v58, align 4
    v66: i32 = iadd v13, v25
    v69: i32 = imul v66, v3
    v99: i64 = sext v69
    v100: i64 = sext v19
    v101: i64 = iadd v99, v100
    v103: i64 = iadd v101, v35
    v78: i64 = imul v103, v36
    v79: ptr.global = ptradd v1, v78
    store.global v59, v79, align 4
    return
}
";

    #[test]
    fn a_transpose_stores_transposed() {
        assert_eq!(transposed(TRANSPOSE), Some(4));
    }

    #[test]
    fn a_copy_in_row_order_does_not() {
        // The same kernel storing where it loaded: the group along x moves it 64 bytes.
        assert_eq!(
            transposed(&TRANSPOSE.replace("ptradd v1, v78", "ptradd v1, v57")),
            None
        );
    }

    #[test]
    fn a_store_the_work_items_do_not_spread_along_x_does_not() {
        // Each work-item of a row writing the same element (the local id left out).
        let text = TRANSPOSE.replace("v103: i64 = iadd v101, v35", "v103: i64 = iadd v101, v101");
        assert_eq!(transposed(&text), None);
    }
}
