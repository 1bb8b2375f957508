//! Control flow of the W-wide function: uniform branches are copied, divergent regions and
//! loops that lanes leave at different iterations become straight-line code under masks,
//! and block parameters reached along several masked edges become blends.

use ferrocl_ir::entity::{EntitySet, SecondaryMap};

use ferrocl_ir::{
    BinaryOp, Block, Dest, Inst, IntCC, Op, SwitchTable, Type, UnaryOp, Value, ValueDef,
};

use super::{Assume, DivergentLoop, Emitter, Lanes, Region, MAX_VERSIONED};
use crate::vectorize::shape::Shape;
use crate::vectorize::Refusal;

/// The edges into each block of masked code not yet emitted: each edge's mask and its
/// branch's target (none for a block no edge reaches yet).
type Incoming = SecondaryMap<Block, Vec<(Value, Dest)>>;

/// The most instructions that the W scalar copies of a two-sided region's sides may take
/// (see `Emitter::lanes_in_turn`); larger ones run masked.
const IN_TURN_MAX_INSTS: usize = 512;

/// The fewest instructions of a masked block that a test of its mask skips where no lane is
/// active ([`Emitter::skippable`]).
const SKIP_MIN_INSTS: usize = 8;

static SKIPPABLE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How many masked blocks this process emitted behind a test that skips them where no lane
/// is active ([`Emitter::skippable`]): a test shows whether its kernels reached that code.
pub fn skippable_count() -> u64 {
    SKIPPABLE.load(std::sync::atomic::Ordering::Relaxed)
}

impl Emitter<'_> {
    /// The terminator of a block outside divergent regions, with its targets' arguments.
    pub(super) fn emit_terminator(&mut self, b: Block) -> Result<(), Refusal> {
        let t = self.src.terminator(b).expect("a terminator");
        let data = self.src.dfg.insts[t].clone();
        let mut op = data.op.clone();
        let mut fast_loops = Vec::new();
        for d in op.dests_mut() {
            let params: Vec<Value> = self.src.dfg.block_params(d.block).to_vec();
            let mut args = Vec::new();
            for (&p, &a) in params.iter().zip(&d.args) {
                self.param_args(p, a, &mut args);
            }
            if self.fast_loop_fits(d.block) {
                // Entering a divergent loop through its unmasked version (`fast_loop`).
                let fh = self.new_block();
                fast_loops.push((d.block, fh));
                d.block = fh;
                d.args = args;
                continue;
            }
            self.push_loop_entry(d.block, &mut args);
            d.block = self.block(d.block);
            d.args = args;
        }
        let args: Vec<Value> = data.args.iter().map(|&a| self.lane(a, 0)).collect();
        self.ins(op, &args, None);
        for (h, fh) in fast_loops {
            self.fast_loop(h, fh)?;
        }
        Ok(())
    }

    /// Where `h` heads a divergent loop, the arguments of its loop state for an edge that
    /// enters it from unmasked code: every lane active, nothing held yet.
    fn push_loop_entry(&mut self, h: Block, args: &mut Vec<Value>) {
        if let Some((_, held)) = self.loop_state[h].clone() {
            args.push(self.all_ones());
            for v in held {
                let ty = self.out.dfg.value_type(v);
                args.push(self.val(Op::Undef, &[], ty));
            }
        }
    }

    /// Jumps from unmasked code to the kernel's block `join` with `args` for its parameters,
    /// entering it as [`Self::emit_terminator`] does: through the unmasked version of the
    /// divergent loop `join` heads where it has one, else with the loop's state. A divergent
    /// region's join may be such a header (an `if` followed at once by a loop).
    fn enter(&mut self, join: Block, mut args: Vec<Value>) -> Result<(), Refusal> {
        if self.fast_loop_fits(join) {
            let fh = self.new_block();
            self.jump(fh, &args);
            return self.fast_loop(join, fh);
        }
        self.push_loop_entry(join, &mut args);
        let to = self.block(join);
        self.jump(to, &args);
        Ok(())
    }

    /// Whether the divergent loop of header `h` (if it is one) gets an unmasked version
    /// (`fast_loop`): a header of pure code branching to the exit or to one body block that
    /// returns to it.
    fn fast_loop_fits(&self, h: Block) -> bool {
        let Some(l) = &self.loops[h] else {
            return false;
        };
        let [body] = l.body[..] else {
            return false;
        };
        let jumps_back = self
            .src
            .terminator(body)
            .is_some_and(|t| matches!(&self.src.dfg.insts[t].op, Op::Jump(d) if d.block == h));
        let branches = self.src.terminator(h).is_some_and(|t| {
            matches!(&self.src.dfg.insts[t].op, Op::Brif(d)
                if (d.0.block == body && d.1.block == l.exit)
                    || (d.1.block == body && d.0.block == l.exit))
        });
        let pure = self.src.layout.block_insts(h).iter().all(|&i| {
            let op = &self.src.dfg.insts[i].op;
            op.is_terminator() || op.is_pure()
        });
        jumps_back && branches && pure
    }

    /// The unmasked version of a divergent loop (header `h`), entered at `fh` where every
    /// lane is active: each trip first tests in scalar form (`summary`) that every lane stays
    /// in the loop and then runs the body without a mask; where that test fails (or has no
    /// scalar form) the loop goes on as the masked one from the same trip, whose header
    /// computes the same pure values again. A grid-stride loop (`for (i = gid; i < n; i +=
    /// stride)`) thus runs unmasked but for its last trips.
    fn fast_loop(&mut self, h: Block, fh: Block) -> Result<(), Refusal> {
        let body = self.loops[h].as_ref().expect("a divergent loop").body[0];
        let (cur, mask, map) = (self.cur, self.mask, self.map.clone());
        let partial = self.partial.take();
        self.cur = fh;
        self.mask = None;
        let params: Vec<Value> = self.src.dfg.block_params(h).to_vec();
        for &p in &params {
            let lanes = self.make_param(fh, p);
            self.map[p] = Some(lanes);
        }
        self.emit_body(h)?;
        let t = self.src.terminator(h).expect("a terminator");
        let data = self.src.dfg.insts[t].clone();
        let Op::Brif(dests) = &data.op else {
            unreachable!("fast_loop_fits: the header branches");
        };
        let (stay, stays_on_then) = if dests.0.block == body {
            (dests.0.clone(), true)
        } else {
            (dests.1.clone(), false)
        };
        let c = data.args[0];
        let all_stay = if stays_on_then {
            self.summary(c, true, 0, &EntitySet::new())
        } else {
            self.summary(c, false, 0, &EntitySet::new())
                .map(|any| self.not(any))
        };
        let to_masked = self.new_block();
        if let Some(all_stay) = all_stay {
            let fb = self.new_block();
            self.brif(all_stay, fb, &[], to_masked, &[]);
            self.cur = fb;
            let body_params: Vec<Value> = self.src.dfg.block_params(body).to_vec();
            for (&p, &a) in body_params.iter().zip(&stay.args) {
                let lanes = self.lanes(a);
                self.map[p] = Some(lanes);
            }
            self.emit_body(body)?;
            let back = self.src.terminator(body).expect("a terminator");
            let Op::Jump(d) = self.src.dfg.insts[back].op.clone() else {
                unreachable!("fast_loop_fits: the body jumps back");
            };
            let mut args = Vec::new();
            for (&p, &a) in params.iter().zip(&d.args) {
                self.param_args(p, a, &mut args);
            }
            self.jump(fh, &args);
        } else {
            self.jump(to_masked, &[]);
        }
        // The masked loop from this trip: every lane still active, nothing held yet.
        self.cur = to_masked;
        let mut args = Vec::new();
        for &p in &params {
            self.param_args(p, p, &mut args);
        }
        args.push(self.all_ones());
        let (_, held) = self.loop_state(h);
        for v in held {
            let ty = self.out.dfg.value_type(v);
            args.push(self.val(Op::Undef, &[], ty));
        }
        let header = self.block(h);
        self.jump(header, &args);
        (self.cur, self.mask, self.map, self.partial) = (cur, mask, map, partial);
        Ok(())
    }

    /// The divergent branch ending `b` and its region, as straight-line code under masks;
    /// where each side of the branch is one block (or none) before the join, the chunk
    /// whose lanes all take the same side runs that side alone, unmasked.
    pub(super) fn emit_region(&mut self, b: Block, region: &Region) -> Result<(), Refusal> {
        if let Some((yes, no)) = self.two_sides(b, region) {
            let src = self.src.dfg.insts[self.src.terminator(b).expect("a terminator")].args[0];
            let all = self.summary(src, true, 0, &EntitySet::new());
            // Where the lanes do not all take the `yes` side, each term of an `||` that would
            // have sent them all there is false: `any` leaves those out.
            let known_false: EntitySet<Value> = all
                .map(|a| self.disjuncts(a).into_iter().collect())
                .unwrap_or_default();
            let summaries = (all, self.summary(src, false, 0, &known_false));
            let c = self.vector(src);
            let all = match summaries.0 {
                Some(all) => all,
                None => self.reduce(c, true),
            };
            let any = match summaries.1 {
                Some(any) => any,
                None => self.reduce(c, false),
            };
            let (on_yes, rest, on_no, mixed) = (
                self.new_block(),
                self.new_block(),
                self.new_block(),
                self.new_block(),
            );
            self.brif(all, on_yes, &[], rest, &[]);
            self.cur = rest;
            if summaries.1.is_some() {
                self.brif_any(any, mixed, on_no);
            } else {
                self.brif(any, mixed, &[], on_no, &[]);
            }
            for (at, side) in [(on_yes, &yes), (on_no, &no)] {
                self.cur = at;
                self.uniform_side(side, region.join)?;
            }
            self.cur = mixed;
            // A condition tested in scalar form compares consecutive ids with uniform values:
            // the lanes disagree in a few chunks of a row only (at its borders), where each
            // lane running its side as scalar code costs less than masked code would cost
            // every chunk in registers and code size.
            if summaries.0.is_some() && summaries.1.is_some() && self.in_turn_fits(&yes, &no) {
                return self.lanes_in_turn(src, &yes, &no, region.join);
            }
        }
        self.masked_region(b, region)
    }

    /// Whether the sides of a two-sided region may run lane by lane as scalar code (see
    /// [`Self::lanes_in_turn`]): only instructions that are the same for each lane but
    /// for their operands, or whose lanes are their vector form's (the ids), and W copies
    /// of both sides of a modest size.
    fn in_turn_fits(&self, yes: &Dest, no: &Dest) -> bool {
        let mut count = 0;
        for side in [yes, no] {
            for &i in self.src.layout.block_insts(side.block) {
                let op = &self.src.dfg.insts[i].op;
                if matches!(op, Op::Call(_) | Op::Group(..) | Op::Barrier(..)) {
                    return false;
                }
                count += 1;
            }
        }
        count * self.w as usize <= IN_TURN_MAX_INSTS
    }

    /// The mixed chunks of a two-sided region: each lane in turn takes its side as scalar
    /// code (its operands' lanes, its work-item ids, its copy of private memory), and the
    /// join's parameters gather the lanes' arguments.
    fn lanes_in_turn(
        &mut self,
        cond: Value,
        yes: &Dest,
        no: &Dest,
        join: Block,
    ) -> Result<(), Refusal> {
        self.mask = None;
        let params: Vec<Value> = self.src.dfg.block_params(join).to_vec();
        let mut per_param: Vec<Vec<Value>> = vec![Vec::new(); params.len()];
        for lane in 0..self.w {
            let c = self.scalar_lane(cond, lane, 0);
            let (on_yes, on_no, next) = (self.new_block(), self.new_block(), self.new_block());
            self.brif(c, on_yes, &[], on_no, &[]);
            for (at, side) in [(on_yes, yes), (on_no, no)] {
                self.cur = at;
                let args = self.scalar_side(side, join, lane)?;
                self.jump(next, &args);
            }
            self.cur = next;
            for (k, &p) in params.iter().enumerate() {
                let ty = self.ty(p);
                per_param[k].push(self.out.dfg.append_block_param(next, ty));
            }
        }
        let mut args = Vec::new();
        for (&p, lanes) in params.iter().zip(per_param) {
            // The lanes as the join's parameter takes them (a vector, W pointers, or lane
            // 0's value of a uniform or affine one).
            let before = self.map[p].replace(Lanes::Scalars(lanes));
            self.param_args(p, p, &mut args);
            if let Some(l) = before {
                self.map[p] = Some(l);
            }
        }
        self.enter(join, args)
    }

    /// Lane `lane` of `v`, computed as scalar code from its operands' lanes where `v` is a
    /// vector of arithmetic on them (so that the vector itself need not exist), else taken
    /// from its lanes.
    fn scalar_lane(&mut self, v: Value, lane: u32, depth: u32) -> Value {
        if let (Lanes::Vector(_), ValueDef::Result(i)) = (self.lanes(v), self.src.dfg.value_def(v))
        {
            let data = self.src.dfg.insts[i].clone();
            let arithmetic = matches!(
                data.op,
                Op::Unary(_) | Op::Binary(_) | Op::Icmp(_) | Op::Fcmp(_) | Op::Select
            ) || matches!(data.op, Op::Convert(_));
            if arithmetic && depth < 8 {
                let args: Vec<Value> = data
                    .args
                    .iter()
                    .map(|&a| self.scalar_lane(a, lane, depth + 1))
                    .collect();
                return self.val(data.op, &args, self.ty(v));
            }
        }
        self.lane(v, lane)
    }

    /// One side of a two-sided region for lane `lane` alone, as scalar code: the arguments
    /// it passes to the join.
    fn scalar_side(&mut self, side: &Dest, join: Block, lane: u32) -> Result<Vec<Value>, Refusal> {
        let mut scalar: SecondaryMap<Value, Option<Value>> = SecondaryMap::new();
        let of =
            |e: &mut Self, scalar: &SecondaryMap<Value, Option<Value>>, v: Value| match scalar[v] {
                Some(x) => x,
                None => e.lane(v, lane),
            };
        if side.block == join {
            return Ok(side.args.iter().map(|&a| of(self, &scalar, a)).collect());
        }
        let params = self.src.dfg.block_params(side.block).to_vec();
        for (&p, &a) in params.iter().zip(&side.args) {
            let x = of(self, &scalar, a);
            scalar[p] = Some(x);
        }
        for &i in self.src.layout.block_insts(side.block) {
            let data = self.src.dfg.insts[i].clone();
            if let Op::Jump(d) = &data.op {
                debug_assert_eq!(d.block, join);
                return Ok(d.args.iter().map(|&a| of(self, &scalar, a)).collect());
            }
            let result = self.src.dfg.inst_result(i);
            if let (Op::WorkItem(..) | Op::SlotAddr(_), Some(r)) = (&data.op, result) {
                // Lane-dependent: this lane of the vector form.
                let lanes = self.pure(&data, r);
                self.map[r] = Some(lanes);
                let x = self.lane(r, lane);
                scalar[r] = Some(x);
                continue;
            }
            let args: Vec<Value> = data.args.iter().map(|&a| of(self, &scalar, a)).collect();
            let x = self.ins(data.op.clone(), &args, result.map(|r| self.ty(r)));
            if let (Some(r), Some(x)) = (result, x) {
                scalar[r] = Some(x);
            }
        }
        Err(Refusal::new(
            "a side of a divergent branch that does not jump to its join",
        ))
    }

    /// A scalar test of condition `c` (of the source kernel) over the lanes without its
    /// vector: true only where every lane holds (`all`; it may miss some such chunks), or true
    /// wherever some lane does (`!all`; it may hold where none does). A comparison for
    /// equality of consecutive lanes (stride 1 or -1) with a uniform value holds in lane
    /// `u - lane0` (or `lane0 - u`) if that is below W, wrapping or not, and in no other; `||`,
    /// `&&` and `!` of such tests and uniform conditions combine them. `None` where no such
    /// test is known: the caller tests the vector.
    pub(super) fn summary(
        &mut self,
        c: Value,
        all: bool,
        depth: u32,
        known_false: &EntitySet<Value>,
    ) -> Option<Value> {
        if let Lanes::Uniform(u) = self.lanes(c) {
            if known_false.contains(u) {
                return Some(self.iconst(Type::I1, 0));
            }
            return Some(u);
        }
        let ValueDef::Result(i) = self.src.dfg.value_def(c) else {
            return None;
        };
        if depth > 8 {
            return None;
        }
        let data = self.src.dfg.insts[i].clone();
        let konst = |e: &Self, v: Value| e.src.dfg.iconst_value(v).map(|k| k & 1);
        // A `select` with a constant side is an `||` or `&&` (as `a || b` is lowered).
        let (op, x, y, negate_x) = match data.op {
            Op::Binary(op @ (BinaryOp::Bor | BinaryOp::Band)) => {
                (op, data.args[0], data.args[1], false)
            }
            Op::Select => match (konst(self, data.args[1]), konst(self, data.args[2])) {
                (Some(1), _) => (BinaryOp::Bor, data.args[0], data.args[2], false),
                (_, Some(0)) => (BinaryOp::Band, data.args[0], data.args[1], false),
                (_, Some(1)) => (BinaryOp::Bor, data.args[0], data.args[1], true),
                (Some(0), _) => (BinaryOp::Band, data.args[0], data.args[2], true),
                _ => return None,
            },
            Op::Unary(UnaryOp::Bnot) => {
                let x = self.summary(data.args[0], !all, depth + 1, known_false)?;
                return Some(self.not(x));
            }
            Op::Icmp(cc) => return self.compare_summary(cc, &data.args, all),
            _ => return None,
        };
        let x = if negate_x {
            self.summary(x, !all, depth + 1, known_false)
                .map(|v| self.not(v))
        } else {
            self.summary(x, all, depth + 1, known_false)
        };
        let y = self.summary(y, all, depth + 1, known_false);
        // all(a | b) holds where either holds everywhere, any(a & b) only where both hold
        // somewhere: one side alone is a weaker test, still a sound one.
        let one_side_will_do = (op == BinaryOp::Bor) == all;
        match (x, y) {
            (Some(x), Some(y)) => Some(self.binary(op, x, y)),
            (Some(v), None) | (None, Some(v)) if one_side_will_do => Some(v),
            _ => None,
        }
    }

    /// [`Self::summary`] of `a cc b`, one side consecutive integer lanes (stride 1 or -1, no
    /// guard) and the other uniform. For `==` (`!=`): no two lanes are equal, so not all of
    /// them equal u, and some lane does exactly where u - lane 0 (or lane 0 - u), wrapping, is
    /// below W. For an ordered comparison, only where the lanes' range is known (so that none
    /// wraps and they are in order): every lane holds `x < u` where the largest does, some
    /// lane where the smallest does, and the other way round for `>`.
    fn compare_summary(&mut self, cc: IntCC, args: &[Value], all: bool) -> Option<Value> {
        let (x, cc, u) = match (self.lanes(args[0]), self.lanes(args[1])) {
            (Lanes::Affine { .. }, Lanes::Uniform(u)) => (args[0], cc, u),
            (Lanes::Uniform(u), Lanes::Affine { .. }) => (args[1], cc.swapped(), u),
            _ => return None,
        };
        let Lanes::Affine {
            base,
            stride,
            guard: None,
        } = self.lanes(x)
        else {
            return None;
        };
        let ty = self.ty(x);
        let stride = crate::vectorize::shape::narrow_stride(stride, ty);
        if !ty.is_int() || ty.lane_bits() < 8 || stride.abs() != 1 {
            return None;
        }
        if let IntCC::Eq | IntCC::Ne = cc {
            let eq = cc == IntCC::Eq;
            if eq == all {
                return Some(self.iconst(Type::I1, i64::from(!eq)));
            }
            let d = if stride == 1 {
                self.binary(BinaryOp::Isub, u, base)
            } else {
                self.binary(BinaryOp::Isub, base, u)
            };
            let w = self.iconst(ty, i64::from(self.w));
            let hit = self.val(Op::Icmp(IntCC::Ult), &[d, w], Type::I1);
            return Some(if eq { hit } else { self.not(hit) });
        }
        let unsigned = matches!(cc, IntCC::Ult | IntCC::Ule | IntCC::Ugt | IntCC::Uge);
        // The lanes run from base to base + (W - 1) * stride, in order unless they wrap
        // around in the comparison's sense: where their range is not known, a test that they
        // do not (the last lane on the right side of the first) guards the answer.
        let known = self
            .shapes
            .range(x)
            .is_some_and(|range| !(unsigned && range.0 < 0));
        let below = matches!(cc, IntCC::Slt | IntCC::Sle | IntCC::Ult | IntCC::Ule);
        let largest = below == all;
        let last = if !known || largest == (stride > 0) {
            let far = self.iconst(ty, (i64::from(self.w) - 1) * stride);
            Some(self.binary(BinaryOp::Iadd, base, far))
        } else {
            None
        };
        // The same test as a consecutive access's (`no_wrap`), so that a loop that runs while
        // it holds proves the accesses in its body consecutive (`passes::known`).
        let in_order = (last.is_some() && !known).then(|| self.no_wrap(base, stride, !unsigned));
        let lane = match last {
            Some(last) if largest == (stride > 0) => last,
            _ => base,
        };
        let holds = self.val(Op::Icmp(cc), &[lane, u], Type::I1);
        Some(match in_order {
            None => holds,
            // All lanes hold only where they are in order; some may hold where they are not.
            Some(ok) if all => self.binary(BinaryOp::Band, ok, holds),
            Some(ok) => {
                let wrapped = self.not(ok);
                self.binary(BinaryOp::Bor, wrapped, holds)
            }
        })
    }

    /// The terms of `x` as an `||` of them (of the W-wide function): `x` itself if it is no
    /// `bor`.
    fn disjuncts(&self, x: Value) -> Vec<Value> {
        let mut terms = Vec::new();
        let mut work = vec![x];
        while let Some(v) = work.pop() {
            match self.out.dfg.value_def(v) {
                ValueDef::Result(i) if self.out.dfg.insts[i].op == Op::Binary(BinaryOp::Bor) => {
                    // The left operand first.
                    work.extend(self.out.dfg.insts[i].args.iter().rev());
                }
                _ if !terms.contains(&v) => terms.push(v),
                _ => {}
            }
        }
        terms
    }

    /// Branches to `yes` where `c` holds, else to `no`; an `||` as one branch per term, so
    /// that each comparison is a compare-and-branch.
    fn brif_any(&mut self, c: Value, yes: Block, no: Block) {
        let terms = self.disjuncts(c);
        let (last, first) = terms.split_last().expect("a term");
        for &t in first {
            let next = self.new_block();
            self.brif(t, yes, &[], next, &[]);
            self.cur = next;
        }
        self.brif(*last, yes, &[], no, &[]);
    }

    fn not(&mut self, x: Value) -> Value {
        self.val(Op::Unary(UnaryOp::Bnot), &[x], Type::I1)
    }

    /// The two edges of the divergent branch ending `b`, when each leads to the join of its
    /// region directly or through one block of the region that only it reaches.
    fn two_sides(&self, b: Block, region: &Region) -> Option<(Dest, Dest)> {
        let t = self.src.terminator(b)?;
        let Op::Brif(d) = &self.src.dfg.insts[t].op else {
            return None;
        };
        let (yes, no) = (d.0.clone(), d.1.clone());
        let mut inside = Vec::new();
        for side in [&yes, &no] {
            if side.block == region.join {
                continue;
            }
            let x = side.block;
            let only_jumps_to_join = self.src.terminator(x).is_some_and(
                |t| matches!(&self.src.dfg.insts[t].op, Op::Jump(d) if d.block == region.join),
            );
            let preds = self.src.layout.blocks().iter().filter(|&&p| {
                self.src.terminator(p).is_some_and(|t| {
                    self.src.dfg.insts[t]
                        .op
                        .dests()
                        .iter()
                        .any(|d| d.block == x)
                })
            });
            if !only_jumps_to_join || preds.count() != 1 || inside.contains(&x) {
                return None;
            }
            inside.push(x);
        }
        (inside.len() == region.blocks.len()).then_some((yes, no))
    }

    /// One side of a divergent branch taken by every lane: its block (if any) unmasked, then
    /// the join with its arguments.
    fn uniform_side(&mut self, side: &Dest, join: Block) -> Result<(), Refusal> {
        self.mask = None;
        if side.block == join {
            let params: Vec<Value> = self.src.dfg.block_params(join).to_vec();
            let mut args = Vec::new();
            for (&p, &a) in params.iter().zip(&side.args) {
                self.param_args(p, a, &mut args);
            }
            return self.enter(join, args);
        }
        let params: Vec<Value> = self.src.dfg.block_params(side.block).to_vec();
        for (&p, &a) in params.iter().zip(&side.args) {
            let lanes = self.lanes(a);
            self.map[p] = Some(lanes);
        }
        self.emit_body(side.block)?;
        self.emit_terminator(side.block)
    }

    /// The region of the divergent branch ending `b` as straight-line code under masks.
    fn masked_region(&mut self, b: Block, region: &Region) -> Result<(), Refusal> {
        let mut incoming: Incoming = Incoming::new();
        let t = self.src.terminator(b).expect("a terminator");
        self.edges(t, &mut incoming)?;
        self.emit_masked(&region.blocks, &mut incoming)?;
        self.mask = None;
        let edges = std::mem::take(&mut incoming[region.join]);
        let params: Vec<Value> = self.src.dfg.block_params(region.join).to_vec();
        let mut args = Vec::new();
        for (k, &p) in params.iter().enumerate() {
            // A parameter every edge gives the same uniform (or affine) value stays one
            // scalar, as the join's parameters are made (`make_param`, `param_args`).
            match self.blend(p, &edges, k) {
                Lanes::Vector(v) | Lanes::Uniform(v) | Lanes::Affine { base: v, .. } => {
                    args.push(v)
                }
                Lanes::Scalars(l) => args.extend(l),
            }
        }
        self.enter(region.join, args)
    }

    /// Straight-line code for `blocks` (in a topological order) under the masks of the
    /// edges reaching them; a loop among them runs under the mask it is entered with, and
    /// its exit block continues under that mask.
    fn emit_masked(&mut self, blocks: &[Block], incoming: &mut Incoming) -> Result<(), Refusal> {
        // The mask of each loop's exit block: the lanes that entered the loop.
        let mut exit_masks: SecondaryMap<Block, Option<Value>> = SecondaryMap::new();
        for &x in blocks {
            // The blocks of a loop in the list come with its header.
            let in_loop = self.loops.iter().any(|(h, l)| {
                l.as_ref()
                    .is_some_and(|l| l.body.contains(&x) && blocks.contains(&h))
            });
            if in_loop {
                continue;
            }
            if let Some(l) = &self.loops[x] {
                let edges = std::mem::take(&mut incoming[x]);
                let m = self.or_masks(&edges);
                let params: Vec<Value> = self.src.dfg.block_params(x).to_vec();
                let mut args = Vec::new();
                for (k, &p) in params.iter().enumerate() {
                    match self.blend(p, &edges, k) {
                        Lanes::Uniform(v) | Lanes::Vector(v) => args.push(v),
                        Lanes::Affine { base, .. } => args.push(base),
                        Lanes::Scalars(s) => args.extend(s),
                    }
                }
                let fast = self
                    .fast_loop_fits(x)
                    .then(|| (self.new_block(), args.clone()));
                args.push(m);
                let (_, held) = self.loop_state(x);
                for h in held {
                    let ty = self.out.dfg.value_type(h);
                    args.push(self.val(Op::Undef, &[], ty));
                }
                let header = self.block(x);
                match fast {
                    // Where every lane enters the loop, its unmasked version first.
                    Some((fh, fast_args)) => {
                        let all = self.reduce(m, true);
                        self.brif(all, fh, &fast_args, header, &args);
                        self.fast_loop(x, fh)?;
                    }
                    None => self.jump(header, &args),
                }
                self.cur = header;
                self.emit_loop(x, l)?;
                self.cur = self.block(l.exit);
                exit_masks[l.exit] = Some(m);
                continue;
            }
            let m = match exit_masks[x].take() {
                Some(m) => m,
                None => self.join_edges(x, incoming),
            };
            self.masked_block(x, m, incoming)?;
        }
        Ok(())
    }

    /// The mask of block `x` of masked code: the lanes of the edges reaching it, whose
    /// arguments its parameters blend.
    fn join_edges(&mut self, x: Block, incoming: &mut Incoming) -> Value {
        let edges = std::mem::take(&mut incoming[x]);
        let m = self.or_masks(&edges);
        let params: Vec<Value> = self.src.dfg.block_params(x).to_vec();
        for (k, &p) in params.iter().enumerate() {
            let lanes = self.blend(p, &edges, k);
            self.map[p] = Some(lanes);
        }
        m
    }

    /// Block `x` under mask `m`; the masks of its edges go to `incoming`.
    fn masked_block(&mut self, x: Block, m: Value, incoming: &mut Incoming) -> Result<(), Refusal> {
        // A guarded affine value's lanes are computed again from its operands where they
        // are needed: a block skipped where no lane is active would leave them undefined.
        let guarded = self.src.layout.block_insts(x).iter().any(|&i| {
            self.src
                .dfg
                .inst_result(i)
                .is_some_and(|r| matches!(self.shapes.of(r), Shape::Affine { guarded: true, .. }))
        });
        if !guarded && self.skippable(x) {
            self.skipped_when_empty(x, m)?;
        } else {
            self.masked_body(x, m)?;
        }
        self.mask = Some(m);
        let t = self.src.terminator(x).expect("a terminator");
        self.edges(t, incoming)
    }

    /// The body of block `x` under mask `m`: in two versions where it has accesses enough
    /// that one test of `m` pays ([`Self::versioned_block`]).
    /// The first version also assumes the guards of the block's accesses, where two or more
    /// have some ([`Self::block_guards`]): OpenCV's threshold, under `if (x < cols)` at
    /// addresses of `int` arithmetic, then loads and stores whole vectors in one block, and
    /// the regrouping of its `uchar16`s cancels.
    fn masked_body(&mut self, x: Block, m: Value) -> Result<(), Refusal> {
        self.mask = Some(m);
        if self.masked_accesses(x) < 2 {
            return self.emit_body(x);
        }
        let active = self.reduce(m, true);
        let (guards, cond) = match self.block_guards(x) {
            Some((guards, hold)) => (guards, self.binary(BinaryOp::Band, active, hold)),
            None => (Vec::new(), active),
        };
        let assume = Assume {
            all_active: Some(m),
            guards,
        };
        self.versioned_block(x, cond, assume)?;
        for &i in self.src.layout.block_insts(x) {
            self.ahead.remove(i);
        }
        Ok(())
    }

    /// Whether masked block `x` is worth a test that skips it where no lane is active
    /// ([`Self::skipped_when_empty`]): arithmetic alone (no access, call or collective, which
    /// would have to keep what they emit for later blocks), of more than [`SKIP_MIN_INSTS`]
    /// instructions, and every value it leaves to later blocks varying. Those blocks are
    /// dominated by `x`, so their lanes are among its lanes, none active where it is skipped
    /// (in a loop, for that trip: what a loop's parameters take from it is blended in by the
    /// masks of their edges); a uniform value, which later code might use as an address or a
    /// divisor whatever its mask, is never left undefined.
    fn skippable(&self, x: Block) -> bool {
        let insts = self.src.layout.block_insts(x);
        let pure = insts.iter().all(|&i| {
            let op = &self.src.dfg.insts[i].op;
            op.is_terminator() || op.is_pure()
        });
        pure && insts.len() > SKIP_MIN_INSTS
            && self
                .used_after(x)
                .iter()
                .all(|&v| self.shapes.of(v) == Shape::Varying)
    }

    /// Masked block `x` (arithmetic, see [`Self::skippable`]) behind a test of `m`: a chunk
    /// with no lane active jumps past it, its values left to later blocks undefined. The
    /// slow form of a library function (`exp`'s for arguments beyond its range) inside an
    /// `if (i < n)` then costs one test, not its arithmetic in every chunk.
    fn skipped_when_empty(&mut self, x: Block, m: Value) -> Result<(), Refusal> {
        SKIPPABLE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let live_out = self.used_after(x);
        let any = self.reduce(m, false);
        let (run, skip, join) = (self.new_block(), self.new_block(), self.new_block());
        self.brif(any, run, &[], skip, &[]);
        self.cur = run;
        self.mask = Some(m);
        self.emit_body(x)?;
        let run_lanes: Vec<Lanes> = live_out.iter().map(|&v| self.lanes(v)).collect();
        let mut run_args = Vec::new();
        let mut skip_args = Vec::new();
        let mut merged = Vec::new();
        let run_end = self.cur;
        self.cur = skip;
        for lanes in run_lanes {
            let parts = lanes.parts();
            let params: Vec<Value> = parts
                .iter()
                .map(|&p| {
                    let ty = self.out.dfg.value_type(p);
                    skip_args.push(self.val(Op::Undef, &[], ty));
                    self.out.dfg.append_block_param(join, ty)
                })
                .collect();
            run_args.extend(parts);
            merged.push(lanes.of_parts(&params));
        }
        self.jump(join, &skip_args);
        self.cur = run_end;
        self.jump(join, &run_args);
        self.cur = join;
        for (v, l) in live_out.into_iter().zip(merged) {
            self.map[v] = Some(l);
        }
        Ok(())
    }

    /// How many accesses of block `x` test the mask when they run under one: all but
    /// `__local` and `__private` loads (which load every lane, see `load`).
    fn masked_accesses(&self, x: Block) -> usize {
        let speculated = |f: &ferrocl_ir::MemFlags| {
            !f.volatile
                && matches!(
                    f.space,
                    ferrocl_ir::AddrSpace::Local | ferrocl_ir::AddrSpace::Private
                )
        };
        self.src
            .layout
            .block_insts(x)
            .iter()
            .filter(|&&i| match &self.src.dfg.insts[i].op {
                Op::Load(f) => !speculated(f),
                Op::Store(_) | Op::AtomicRmw(..) | Op::Cmpxchg(..) => true,
                Op::AtomicLoad(_) | Op::AtomicStore(_) => true,
                _ => false,
            })
            .count()
    }

    /// Block `x` emitted twice, after one test `cond` of what the first version assumes:
    /// for a block of masked code, that every lane of its mask is active (the first version
    /// runs without the mask: its accesses whole, or lane by lane without a branch each; the
    /// second under it); for a block whose accesses are at affine addresses under guards,
    /// that the guards hold (the first version's accesses are whole vectors without a test
    /// each; the second tests each, as a block emitted once does). The values used after
    /// the block meet at a join. One test instead of one per access, and what the accesses
    /// share (their addresses, the values stored) is computed once on each path instead of
    /// again at each access.
    fn versioned_block(&mut self, x: Block, cond: Value, assume: Assume) -> Result<(), Refusal> {
        let live_out = self.used_after_with_operands(x);
        let (fast, slow, join) = (self.new_block(), self.new_block(), self.new_block());
        self.brif(cond, fast, &[], slow, &[]);
        let before = self.map.clone();
        self.cur = fast;
        if assume.all_active.is_some() {
            self.mask = None;
        }
        for &g in &assume.guards {
            self.known_guards.insert(g);
            if let Some(b) = self.bound(g) {
                self.known_bounds.push(b);
            }
        }
        self.emit_body(x)?;
        let fast_lanes: Vec<Lanes> = live_out.iter().map(|&v| self.lanes(v)).collect();
        let fast_end = self.cur;
        self.map = before;
        self.cur = slow;
        for &g in &assume.guards {
            self.known_guards.remove(g);
        }
        if !assume.guards.is_empty() {
            self.known_bounds.clear();
        }
        let outer = match assume.all_active {
            Some(m) => {
                self.mask = Some(m);
                self.partial.replace(m)
            }
            None => self.partial,
        };
        self.emit_body(x)?;
        self.partial = outer;
        let slow_lanes: Vec<Lanes> = live_out.iter().map(|&v| self.lanes(v)).collect();
        let slow_end = self.cur;
        // The parameters of the join: each value's parts, taken from either path.
        let (mut fast_args, mut slow_args) = (Vec::new(), Vec::new());
        let mut merged = Vec::new();
        for (f, s) in fast_lanes.into_iter().zip(slow_lanes) {
            let same_kind = match (&f, &s) {
                (Lanes::Uniform(_), Lanes::Uniform(_)) | (Lanes::Vector(_), Lanes::Vector(_)) => {
                    true
                }
                (Lanes::Scalars(a), Lanes::Scalars(b)) => a.len() == b.len(),
                (
                    Lanes::Affine {
                        stride: a,
                        guard: ga,
                        ..
                    },
                    Lanes::Affine {
                        stride: b,
                        guard: gb,
                        ..
                    },
                ) => a == b && ga.is_some() == gb.is_some(),
                _ => false,
            };
            if !same_kind {
                return Err(Refusal::new(
                    "a value of different shapes on the two versions of a masked block",
                ));
            }
            let (fp, sp) = (f.parts(), s.parts());
            let params: Vec<Value> = fp
                .iter()
                .map(|&v| {
                    let ty = self.out.dfg.value_type(v);
                    self.out.dfg.append_block_param(join, ty)
                })
                .collect();
            fast_args.extend(fp);
            slow_args.extend(sp);
            merged.push(f.of_parts(&params));
        }
        self.cur = fast_end;
        self.jump(join, &fast_args);
        self.cur = slow_end;
        self.jump(join, &slow_args);
        self.cur = join;
        for (v, l) in live_out.into_iter().zip(merged) {
            self.map[v] = Some(l);
        }
        Ok(())
    }

    /// Block `x` outside divergent control: where two or more of its accesses are whole
    /// vectors only under a guard (lanes affine while an extension does not wrap or a clamp
    /// does not bite: `row[clamp(2 * x - 1, 0, w - 1)]`), emitted twice after one test of
    /// all their guards ([`Self::versioned_block`]); the chunks of a row's interior, where the
    /// guards hold, then run no test per access.
    pub(super) fn unmasked_block(&mut self, x: Block) -> Result<(), Refusal> {
        self.mask = None;
        match self.block_guards(x) {
            Some((guards, hold)) => {
                let assume = Assume {
                    all_active: None,
                    guards,
                };
                self.versioned_block(x, hold, assume)?;
            }
            None => self.emit_body(x)?,
        }
        for &i in self.src.layout.block_insts(x) {
            self.ahead.remove(i);
        }
        Ok(())
    }

    /// The guards that two or more accesses of block `x` are whole vectors under, with the
    /// test that they all hold, its uniform and affine pure instructions emitted ahead (both
    /// versions share them); `None` where fewer accesses have guards.
    fn block_guards(&mut self, x: Block) -> Option<(Vec<Value>, Value)> {
        let insts = self.src.layout.block_insts(x);
        let guarded = |p: Value| matches!(self.shapes.of(p), Shape::Affine { guarded: true, .. });
        let candidates = insts
            .iter()
            .filter(|&&i| {
                let data = &self.src.dfg.insts[i];
                match data.op {
                    Op::Load(_) => guarded(data.args[0]),
                    Op::Store(_) => guarded(data.args[1]),
                    _ => false,
                }
            })
            .count();
        // A barrier or collective is placed once (the work-group transform cuts the kernel
        // there).
        let sync = insts
            .iter()
            .any(|&i| matches!(self.src.dfg.insts[i].op, Op::Barrier(..) | Op::Group(..)));
        let start = self.out.layout.block_insts(self.cur).len();
        if candidates < 2 || sync || insts.len() > MAX_VERSIONED {
            return None;
        }
        let (guards, accesses) = self.guards_ahead(x);
        if accesses < 2 {
            return None;
        }
        self.ahead_for_guards(x, &guards, start);
        let tests = self.strictest(&guards);
        let mut all = tests[0];
        for &g in &tests[1..] {
            all = self.binary(BinaryOp::Band, all, g);
        }
        Some((guards, all))
    }

    /// Emits ahead the pure instructions of block `x` whose lanes are uniform or affine and
    /// whose operands are known before it, or emitted ahead, so that both versions of the
    /// block share them ([`Self::emit_body`] skips them); returns the guards of the accesses
    /// whose addresses they make affine under a guard, each once, and how many accesses
    /// those are.
    fn guards_ahead(&mut self, x: Block) -> (Vec<Value>, usize) {
        let insts: Vec<Inst> = self.src.layout.block_insts(x).to_vec();
        let ready = |s: &Self, v: Value| match s.src.dfg.value_def(v) {
            ValueDef::Result(d) => s.src.layout.inst_block(d) != Some(x) || s.ahead.contains(d),
            _ => true,
        };
        for &i in &insts {
            let data = &self.src.dfg.insts[i];
            let Some(r) = self.src.dfg.inst_result(i) else {
                continue;
            };
            let cheap = matches!(self.shapes.of(r), Shape::Uniform | Shape::Affine { .. });
            if !data.op.is_pure() || !cheap || !data.args.iter().all(|&a| ready(self, a)) {
                continue;
            }
            let data = data.clone();
            let lanes = self.pure(&data, r);
            self.map[r] = Some(lanes);
            self.ahead.insert(i);
        }
        let (mut guards, mut accesses) = (Vec::new(), 0);
        for &i in &insts {
            let data = &self.src.dfg.insts[i];
            let p = match data.op {
                Op::Load(f) if !f.volatile => data.args[0],
                Op::Store(f) if !f.volatile => data.args[1],
                _ => continue,
            };
            // An OpenCL vector access counts once, by its first component's address, which
            // `dense` tests the guard of.
            let later = self.access_of[i].is_some_and(|g| self.accesses[g][0] != i);
            if later || !ready(self, p) {
                continue;
            }
            if let Some(Lanes::Affine { guard: Some(g), .. }) = self.map[p] {
                accesses += 1;
                if !guards.contains(&g) {
                    guards.push(g);
                }
            }
        }
        (guards, accesses)
    }

    /// Of the instructions of block `x` emitted ahead, keeps ahead only those that compute
    /// the operands of `guards`; each version emits the others again where they are (an
    /// address made for each access right before it, not all of them before the test and
    /// kept across it: a 5x5 convolution's 25 tap addresses filled the registers). A guard
    /// such a version makes again is known where a tested one is as strict
    /// (`guard_known`). What was emitted ahead (from instruction `start` of the current
    /// block on) for the others is removed, so that no later pass merges the versions'
    /// instructions back into it.
    fn ahead_for_guards(&mut self, x: Block, guards: &[Value], start: usize) {
        let guard_operands = guards
            .iter()
            .flat_map(|&g| match self.out.dfg.value_def(g) {
                ValueDef::Result(i) => self.out.dfg.insts[i].args.to_vec(),
                _ => Vec::new(),
            });
        let needed = self.operand_closure(guard_operands.collect());
        for &i in self.src.layout.block_insts(x) {
            if !self.ahead.contains(i) {
                continue;
            }
            let Some(r) = self.src.dfg.inst_result(i) else {
                continue;
            };
            let keep = match &self.map[r] {
                Some(Lanes::Uniform(v) | Lanes::Vector(v)) => needed.contains(*v),
                // (A guard made of several tests is not recognized when made again.)
                Some(Lanes::Affine { guard: Some(g), .. }) if self.bound(*g).is_none() => true,
                Some(Lanes::Affine { base, .. }) => needed.contains(*base),
                Some(Lanes::Scalars(vs)) => vs.iter().any(|&v| needed.contains(v)),
                None => true,
            };
            if !keep {
                self.ahead.remove(i);
                self.map[r] = None;
            }
        }
        // What the block's instructions still ahead and the guards read stays.
        let mut roots: Vec<Value> = guards.to_vec();
        for &i in self.src.layout.block_insts(x) {
            let Some(r) = self
                .src
                .dfg
                .inst_result(i)
                .filter(|_| self.ahead.contains(i))
            else {
                continue;
            };
            match &self.map[r] {
                Some(Lanes::Uniform(v) | Lanes::Vector(v)) => roots.push(*v),
                Some(Lanes::Affine { base, guard, .. }) => {
                    roots.extend([*base].iter().chain(guard))
                }
                Some(Lanes::Scalars(vs)) => roots.extend(vs),
                None => {}
            }
        }
        let stays = self.operand_closure(roots);
        let emitted: Vec<Inst> = self.out.layout.block_insts(self.cur)[start..].to_vec();
        for i in emitted.into_iter().rev() {
            let dead = self
                .out
                .dfg
                .inst_result(i)
                .is_some_and(|v| !stays.contains(v));
            if dead && self.out.dfg.insts[i].op.is_pure() {
                self.out.layout.remove_inst(i);
            }
        }
    }

    /// `roots` and the values the instructions of the current block that make them read, and
    /// so on.
    fn operand_closure(&self, mut todo: Vec<Value>) -> EntitySet<Value> {
        let mut seen: EntitySet<Value> = EntitySet::new();
        while let Some(v) = todo.pop() {
            if seen.contains(v) {
                continue;
            }
            seen.insert(v);
            if let ValueDef::Result(i) = self.out.dfg.value_def(v) {
                if self.out.layout.inst_block(i) == Some(self.cur) {
                    todo.extend(self.out.dfg.insts[i].args.iter().copied());
                }
            }
        }
        seen
    }

    /// [`Self::used_after`], and what block `x` defines of the operands of each guarded
    /// affine value among them (and of theirs): such a value's lanes are computed again from
    /// its operands where later code needs them (`Emitter::vector`), so after the two versions
    /// of `x` meet, its operands must be the join's too.
    fn used_after_with_operands(&self, x: Block) -> Vec<Value> {
        let mut out = self.used_after(x);
        let mut k = 0;
        while let Some(&v) = out.get(k) {
            k += 1;
            if !matches!(self.shapes.of(v), Shape::Affine { guarded: true, .. }) {
                continue;
            }
            let ValueDef::Result(i) = self.src.dfg.value_def(v) else {
                continue;
            };
            for &a in &self.src.dfg.insts[i].args {
                let a = self.src.dfg.resolve(a);
                let here = matches!(self.src.dfg.value_def(a),
                    ValueDef::Result(d) if self.src.layout.inst_block(d) == Some(x));
                if here && !out.contains(&a) {
                    out.push(a);
                }
            }
        }
        out
    }

    /// The values block `x` defines that its terminator or another block uses.
    fn used_after(&self, x: Block) -> Vec<Value> {
        self.src
            .layout
            .block_insts(x)
            .iter()
            .filter_map(|&i| self.src.dfg.inst_result(i))
            .filter(|&v| self.used_after.contains(v))
            .collect()
    }

    /// A loop that lanes leave at different iterations, from its header `h`: each trip
    /// runs the body under the mask of the lanes still in the loop; each lane that leaves
    /// sets its lanes of the exit parameters; the loop repeats while any lane is active
    /// (Karrenberg and Hack, section 5.4).
    pub(super) fn emit_loop(&mut self, h: Block, l: &DivergentLoop) -> Result<(), Refusal> {
        let (active, held) = self.loop_state(h);
        self.mask = Some(active);
        self.emit_body(h)?;
        let mut incoming: Incoming = Incoming::new();
        let t = self.src.terminator(h).expect("a terminator");
        self.edges(t, &mut incoming)?;
        let exit_params: Vec<Value> = self.src.dfg.block_params(l.exit).to_vec();
        // Where lanes may leave at the header (a `for` or `while` loop's test), a trip that no
        // lane goes on from leaves there, not after running the body under an empty mask: a
        // loop over `k = lid; k < n; k += size` whose last trip only some chunks of the group
        // take is such a trip for every other chunk.
        let leaving = Some(incoming[l.exit].clone()).filter(|e| !e.is_empty());
        let leaves_at_header = leaving.is_some();
        if let Some(leaving) = leaving {
            let mut targets: Vec<Block> = incoming
                .iter()
                .filter(|&(b, e)| b != l.exit && !e.is_empty())
                .map(|(b, _)| b)
                .collect();
            targets.sort_unstable();
            let staying: Vec<(Value, Dest)> = targets
                .iter()
                .flat_map(|&b| incoming[b].iter().cloned())
                .collect();
            let stay = self.or_masks(&staying);
            let any = self.reduce(stay, false);
            let (body, out) = (self.new_block(), self.new_block());
            self.brif(any, body, &[], out, &[]);
            self.cur = out;
            let held_out = self.held_after(&exit_params, &held, &leaving)?;
            let exit = self.block(l.exit);
            self.jump(exit, &held_out);
            self.cur = body;
        }
        self.emit_masked(&l.body, &mut incoming)?;
        self.mask = None;
        // The exit parameters: the lanes leaving on this trip take their edge's arguments.
        let exits = std::mem::take(&mut incoming[l.exit]);
        let held_next = self.held_after(&exit_params, &held, &exits)?;
        // The next trip: the lanes that took a back edge.
        let back = std::mem::take(&mut incoming[h]);
        if incoming.iter().any(|(_, e)| !e.is_empty()) {
            return Err(Refusal::new("an edge out of a divergent loop's body"));
        }
        let next_active = self.or_masks(&back);
        let params: Vec<Value> = self.src.dfg.block_params(h).to_vec();
        let mut args = Vec::new();
        for (k, &p) in params.iter().enumerate() {
            if let [(_, d)] = &back[..] {
                self.param_args(p, d.args[k], &mut args);
                continue;
            }
            if self.shapes.of(p) != Shape::Varying {
                return Err(Refusal::new(
                    "a loop header reached from several back edges with uniform values",
                ));
            }
            match self.blend(p, &back, k) {
                Lanes::Vector(v) => args.push(v),
                Lanes::Scalars(s) => args.extend(s),
                _ => unreachable!("a blend is varying"),
            }
        }
        args.push(next_active);
        args.extend_from_slice(&held_next);
        let header = self.block(h);
        if leaves_at_header {
            // The header's test leaves once no lane goes on, an empty `next_active` included:
            // one test a trip, not two.
            self.jump(header, &args);
            return Ok(());
        }
        let again = self.reduce(next_active, false);
        let exit = self.block(l.exit);
        let op = Op::Brif(Box::new((
            Dest::new(header, &args),
            Dest::new(exit, &held_next),
        )));
        self.ins(op, &[again], None);
        Ok(())
    }

    /// The values of a divergent loop's exit parameters `params` after a trip: each lane that
    /// left along one of `exits` takes its edge's arguments, the others keep `held`.
    fn held_after(
        &mut self,
        params: &[Value],
        held: &[Value],
        exits: &[(Value, Dest)],
    ) -> Result<Vec<Value>, Refusal> {
        let mut held_next = Vec::new();
        let mut at = 0;
        for (k, &p) in params.iter().enumerate() {
            let ty = self.ty(p);
            if self.shapes.of(p) != Shape::Varying {
                return Err(Refusal::new(
                    "a loop under a mask with a uniform exit value",
                ));
            }
            if ty.is_ptr() {
                let mut lanes: Vec<Value> = held[at..at + self.w as usize].to_vec();
                at += self.w as usize;
                for (m, d) in exits {
                    for i in 0..self.w {
                        let x = self.lane(d.args[k], i);
                        let c = self.extract(*m, i);
                        lanes[i as usize] = self.val(Op::Select, &[c, x, lanes[i as usize]], ty);
                    }
                }
                held_next.extend(lanes);
            } else {
                let mut acc = held[at];
                at += 1;
                let wt = self.wide(ty);
                for (m, d) in exits {
                    let x = self.vector(d.args[k]);
                    acc = self.val(Op::Select, &[*m, x, acc], wt);
                }
                held_next.push(acc);
            }
        }
        Ok(held_next)
    }

    fn all_ones(&mut self) -> Value {
        let t = self.wide(Type::I1);
        self.val(Op::Iconst(1), &[], t)
    }

    fn or_masks(&mut self, edges: &[(Value, Dest)]) -> Value {
        let mut it = edges.iter().map(|e| e.0);
        match it.next() {
            None => {
                let t = self.wide(Type::I1);
                self.val(Op::Iconst(0), &[], t)
            }
            Some(first) => {
                let rest: Vec<Value> = it.collect();
                rest.into_iter()
                    .fold(first, |acc, m| self.binary(BinaryOp::Bor, acc, m))
            }
        }
    }

    /// The masks of the edges leaving a block of a divergent region (or its branch) under
    /// the current mask.
    fn edges(&mut self, t: Inst, incoming: &mut Incoming) -> Result<(), Refusal> {
        let data = self.src.dfg.insts[t].clone();
        let m = match self.mask {
            Some(m) => m,
            None => self.all_ones(),
        };
        let wide_bool = self.wide(Type::I1);
        let mut push = |to: &Dest, mask: Value| {
            incoming[to.block].push((mask, to.clone()));
        };
        match &data.op {
            Op::Jump(d) => push(d, m),
            Op::Brif(d) => {
                let (yes, no) = match self.lanes(data.args[0]) {
                    Lanes::Uniform(c) => {
                        let zero = self.val(Op::Iconst(0), &[], wide_bool);
                        (
                            self.val(Op::Select, &[c, m, zero], wide_bool),
                            self.val(Op::Select, &[c, zero, m], wide_bool),
                        )
                    }
                    _ => {
                        let c = self.vector(data.args[0]);
                        let not = self.val(Op::Unary(UnaryOp::Bnot), &[c], wide_bool);
                        match self.mask {
                            None => (c, not),
                            Some(_) => (
                                self.binary(BinaryOp::Band, m, c),
                                self.binary(BinaryOp::Band, m, not),
                            ),
                        }
                    }
                };
                push(&d.0, yes);
                push(&d.1, no);
            }
            Op::Switch(table) => {
                let table: &SwitchTable = table;
                let xty = self.ty(data.args[0]);
                let x = self.vector(data.args[0]);
                let mut any = self.val(Op::Iconst(0), &[], wide_bool);
                for (value, d) in &table.cases {
                    let k = self.val(Op::Iconst(*value), &[], self.wide(xty));
                    let eq = self.val(Op::Icmp(IntCC::Eq), &[x, k], wide_bool);
                    any = self.binary(BinaryOp::Bor, any, eq);
                    let e = self.binary(BinaryOp::Band, m, eq);
                    push(d, e);
                }
                let none = self.val(Op::Unary(UnaryOp::Bnot), &[any], wide_bool);
                let e = self.binary(BinaryOp::Band, m, none);
                push(&table.default, e);
            }
            _ => {
                return Err(Refusal::new(
                    "a return or unreachable under divergent control flow",
                ))
            }
        }
        Ok(())
    }

    /// Parameter `k` of a block reached along `edges`: each lane takes the argument of the
    /// edge its mask sets (one per lane).
    fn blend(&mut self, p: Value, edges: &[(Value, Dest)], k: usize) -> Lanes {
        let ty = self.ty(p);
        if let shape @ (Shape::Uniform | Shape::Unknown | Shape::Affine { .. }) = self.shapes.of(p)
        {
            // The lanes came along one edge (a uniform branch): the edge any lane took.
            let mut acc = match edges.first() {
                Some((_, d)) => self.lane(d.args[k], 0),
                None => self.val(Op::Undef, &[], ty),
            };
            for (m, d) in edges.iter().skip(1) {
                let x = self.lane(d.args[k], 0);
                let c = self.reduce(*m, false);
                acc = self.val(Op::Select, &[c, x, acc], ty);
            }
            return match shape {
                Shape::Affine { stride, .. } => Lanes::Affine {
                    base: acc,
                    stride,
                    guard: None,
                },
                _ => Lanes::Uniform(acc),
            };
        }
        if ty.is_ptr() {
            let mut acc: Vec<Value> = match edges.first() {
                Some((_, d)) => (0..self.w).map(|i| self.lane(d.args[k], i)).collect(),
                None => (0..self.w).map(|_| self.val(Op::Undef, &[], ty)).collect(),
            };
            for (m, d) in edges.iter().skip(1) {
                for i in 0..self.w {
                    let x = self.lane(d.args[k], i);
                    let c = self.extract(*m, i);
                    acc[i as usize] = self.val(Op::Select, &[c, x, acc[i as usize]], ty);
                }
            }
            return Lanes::Scalars(acc);
        }
        let wt = self.wide(ty);
        let mut acc = match edges.first() {
            Some((_, d)) => self.vector(d.args[k]),
            None => self.val(Op::Undef, &[], wt),
        };
        for (m, d) in edges.iter().skip(1) {
            let x = self.vector(d.args[k]);
            acc = self.val(Op::Select, &[*m, x, acc], wt);
        }
        Lanes::Vector(acc)
    }
}
