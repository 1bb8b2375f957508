//! Narrowed region loops: a region whose every effect is under a guard on `local_id 0`
//! (`if (lid < s) ...; barrier(...)`, the levels of a tree reduction, a wavefront's
//! `d - B + 1 <= tx <= d`) or on `global_id 0` (`if (gid < n)` around a kernel's body, in a
//! launch whose global size was rounded up to a multiple of the local one) runs its loop over
//! x only where the guard can hold.
//!
//! The analysis follows the region from its start along the code every work-item runs the
//! same way: pure instructions, branches on values the same for the whole group
//! (`known`), and guards, branches on a comparison of a value affine in `local_id 0`
//! (`lid + c`, `c - lid`, `global_id 0` as `lid` plus the group's base, their truncations)
//! with a known value, or a conjunction of such
//! (`&&`, as `select a, b, false` or `band`), whose taken side (the body) only rejoins the
//! other. Each path ends at the barrier or return it reaches ([`End::Exit`]): the work-items
//! that pass none of its guards compute pure values and reach that exit, which is all they
//! do, so only the range of x where some guard holds needs to run. A path that meets
//! anything else (a store, a load, a call, a loop, a guard it cannot read) runs every
//! work-item as before ([`End::Full`]).
//!
//! Once per group entry into the region, code before its loops follows the same branches
//! on the group's values, computes the range of x `[lo, hi)` of the path taken, and where
//! the range is empty sends the group straight to the exit of that path. Values the region
//! keeps for later regions must not depend on which work-items run: each must be one copy
//! for the group, defined in the blocks every entry runs first (`chain`), and that code
//! stores it itself.
//!
//! The W-wide chunks stay where the whole row's are (a chunk is W consecutive work-items
//! from a multiple of W on; the row's last `n % W` work-items run one at a time), and a
//! narrowed region runs the chunks of the row that reach into `[lo, hi)`, then those of the
//! row's single work-items that are in it. So a work-item runs in a chunk in every region or
//! in none, whatever the guards: chunks and single work-items keep the values they carry
//! across barriers in arrays of their own (per work-item, or one copy for the group that
//! each side writes for itself), and a work-item that changed sides between two regions
//! would read an element its side never wrote. The lanes of a chunk outside `[lo, hi)` fail
//! the region's guards, as they would in the whole row's loop.

use std::collections::HashSet;

use ferrocl_ir::entity::{EntitySet, SecondaryMap};

use ferrocl_ir::{
    BinaryOp, Block, ConvOp, Function, Inst, InstData, IntCC, Op, Type, Value, ValueDef, WorkItemOp,
};

use super::context::{Context, Key};
use super::{ending_barrier, hoistable, remat, Emitter, Source, RETURN};
use crate::liveness::splits_regions;
use crate::CompileError;

/// The most blocks the paths of a region visit together (each uniform branch doubles what
/// follows it), and the most blocks of a guarded body.
const MAX_BLOCKS: usize = 256;

/// The most comparisons a guard's conjunction has.
const MAX_TERMS: usize = 8;

/// `local_id 0`, negated where `neg`, plus the sum of `terms` (each negated where its flag
/// is set) and, where `base` is set, the group's first global id along x (negated where it
/// holds `true`: `global_id 0` is that plus `local_id 0`), in type `ty`, with wrapping
/// arithmetic; the terms are known values of `ty` or wider (truncated to `ty`).
#[derive(Clone, Debug)]
pub(super) struct Affine {
    pub(super) neg: bool,
    pub(super) terms: Vec<(bool, Value)>,
    pub(super) base: Option<bool>,
    pub(super) ty: Type,
}

/// A comparison `affine cc bound`, `bound` known.
#[derive(Clone, Debug)]
pub(super) struct Term {
    pub(super) cc: IntCC,
    pub(super) affine: Affine,
    pub(super) bound: Value,
}

/// A block a path runs through: its parameters with the known values they get, and the
/// known instructions it computes, in order.
#[derive(Clone, Debug, Default)]
pub(super) struct Visit {
    pub(super) params: Vec<(Value, Value)>,
    pub(super) insts: Vec<Inst>,
    /// The values it defines that the region keeps for later regions.
    pub(super) kept: Vec<Value>,
}

/// How a part of a path ends.
#[derive(Debug)]
pub(super) enum End {
    /// Every work-item runs the region.
    Full,
    /// The work-items that pass no guard of the path reach exit code `.0` having done
    /// nothing else.
    Exit(u64),
    /// A branch on a known `i1`: where it is true, and where it is false.
    Branch(Value, Box<Node>, Box<Node>),
}

/// A part of a path through a region: the blocks it runs, the guards it meets (each a
/// conjunction of terms), and how it ends.
#[derive(Debug)]
pub(super) struct Node {
    pub(super) visits: Vec<Visit>,
    pub(super) guards: Vec<Vec<Term>>,
    pub(super) end: End,
}

/// How a region's loop over x is narrowed.
#[derive(Debug)]
pub(super) struct Plan {
    /// The paths from the region's start, for each source (the kernel's ends tell the
    /// range of x; the W-wide function's only keep values).
    pub(super) trees: Vec<Node>,
}

/// The state of one path of the analysis.
#[derive(Clone, Default)]
struct PathState {
    /// Values defined on the path that are the same for the group.
    known: EntitySet<Value>,
    /// Every value defined on the path.
    defined: EntitySet<Value>,
    /// The blocks of the path.
    blocks: Vec<Block>,
}

/// The analysis of one region of one source.
struct Region<'a> {
    src: &'a Source,
    k: &'a Function,
    ctx: &'a Context,
    key: fn(Value) -> Key,
    start: Block,
    blocks: EntitySet<Block>,
    /// The values live into the region kept as one copy for the group (loaded before its
    /// loops).
    live_single: EntitySet<Value>,
    /// How many more blocks the paths may visit.
    budget: std::cell::Cell<usize>,
}

impl<'a> Region<'a> {
    fn new(src: &'a Source, r: usize, ctx: &'a Context, key: fn(Value) -> Key) -> Region<'a> {
        // With chunks beside the single work-items, a copy only single work-items write may
        // never have been written (a group of whole chunks): the code before the loops reads
        // only the copies both write (`Context::add_wide_values`).
        let both = ctx.has_wide();
        let live_single = match src.regions[r].after {
            Some(bar) => src.live[bar]
                .iter()
                .copied()
                .filter(|&v| ctx.single(key(v)) && (!both || ctx.written_by_both(key(v))))
                .collect(),
            None => EntitySet::new(),
        };
        Region {
            src,
            k: &src.k,
            ctx,
            key,
            start: src.regions[r].start,
            blocks: src.blocks[r].iter().copied().collect(),
            live_single,
            budget: std::cell::Cell::new(MAX_BLOCKS),
        }
    }

    /// Whether the code before the loops stores `v` for later regions: a value kept in an
    /// array of this source's own (a copy the W-wide function shares with the kernel is
    /// the kernel's to store).
    fn keeps(&self, v: Value) -> bool {
        let key = (self.key)(v);
        self.ctx.has(key) && !(matches!(key, Key::Wide(_)) && self.ctx.written_by_both(key))
    }

    /// Whether `v` is the same for the whole group where the path `st` is.
    fn known(&self, st: &PathState, v: Value) -> bool {
        self.src.uniform.contains(v)
            || st.known.contains(v)
            || (!st.defined.contains(v) && self.live_single.contains(v))
    }

    /// Runs block `b`, entered with `args`, on path `st`: what it computes (`None` where a
    /// parameter gets a value not known).
    fn visit(&self, st: &mut PathState, b: Block, args: &[Value]) -> Option<Visit> {
        let k = self.k;
        let mut visit = Visit::default();
        let params = k.dfg.block_params(b);
        if b == k.layout.entry_block()? {
            // The kernel's parameters.
            if params.iter().any(|&p| !self.src.uniform.contains(p)) {
                return None;
            }
        } else {
            if params.len() != args.len() || args.iter().any(|&a| !self.known(st, a)) {
                return None;
            }
            for (&p, &a) in params.iter().zip(args) {
                visit.params.push((p, a));
                st.known.insert(p);
                st.defined.insert(p);
                if self.keeps(p) {
                    visit.kept.push(p);
                }
            }
        }
        st.blocks.push(b);
        for &inst in k.layout.block_insts(b) {
            let data = &k.dfg.insts[inst];
            let Some(r) = k.dfg.inst_result(inst) else {
                continue;
            };
            st.defined.insert(r);
            if hoistable(&data.op) && data.args.iter().all(|&a| self.known(st, a)) {
                st.known.insert(r);
                if !self.src.uniform.contains(r) {
                    visit.insts.push(inst);
                }
                if self.keeps(r) {
                    visit.kept.push(r);
                }
            }
        }
        Some(visit)
    }

    /// The paths from block `b`, entered with `args` from block `from`; adds each edge
    /// they take into a block they visit to `followed`.
    fn walk(
        &self,
        mut st: PathState,
        from: Option<Block>,
        b: Block,
        args: &[Value],
        followed: &mut HashSet<(Option<Block>, Block)>,
    ) -> Node {
        let k = self.k;
        let mut node = Node {
            visits: Vec::new(),
            guards: Vec::new(),
            end: End::Full,
        };
        let (mut from, mut b, mut args) = (from, b, args.to_vec());
        loop {
            if !self.blocks.contains(b) || st.blocks.contains(&b) || self.budget.get() == 0 {
                return node;
            }
            self.budget.set(self.budget.get() - 1);
            let Some(visit) = self.visit(&mut st, b, &args) else {
                return node;
            };
            followed.insert((from, b));
            node.visits.push(visit);
            let mut next = None;
            for &inst in k.layout.block_insts(b) {
                let data = &k.dfg.insts[inst];
                match &data.op {
                    Op::Barrier(..) => {
                        node.end = End::Exit(self.src.exit_code(inst) as u64);
                        return node;
                    }
                    op if splits_regions(op) => return node,
                    Op::Return | Op::Unreachable => {
                        node.end = End::Exit(RETURN);
                        return node;
                    }
                    Op::Jump(d) => next = Some((d.block, d.args.clone())),
                    Op::Brif(d) => {
                        let (t, f) = (&d.0, &d.1);
                        if !t.args.is_empty() || !f.args.is_empty() {
                            return node;
                        }
                        let c = data.args[0];
                        if self.known(&st, c) {
                            let then = self.walk(st.clone(), Some(b), t.block, &[], followed);
                            let els = self.walk(st, Some(b), f.block, &[], followed);
                            node.end = End::Branch(c, Box::new(then), Box::new(els));
                            return node;
                        }
                        match self.guard(&st, c) {
                            Some(g) if self.body_rejoins(&st, t.block, f.block) => {
                                node.guards.push(g);
                                next = Some((f.block, Vec::new()));
                            }
                            _ => return node,
                        }
                    }
                    op if hoistable(op) || matches!(op, Op::WorkItem(..)) => {}
                    _ => return node,
                }
            }
            let Some((nb, nargs)) = next else {
                return node;
            };
            (from, b, args) = (Some(b), nb, nargs);
        }
    }

    /// Whether every path from `t` that stays in the region reaches `join`, through blocks
    /// of the region that keep nothing for later regions (a guarded body).
    fn body_rejoins(&self, st: &PathState, t: Block, join: Block) -> bool {
        let k = self.k;
        let mut seen = EntitySet::new();
        seen.insert(join);
        let mut stack = vec![t];
        while let Some(b) = stack.pop() {
            if !seen.insert(b) {
                continue;
            }
            if seen.len() > MAX_BLOCKS
                || !self.blocks.contains(b)
                || b == self.start
                || st.blocks.contains(&b)
                || ending_barrier(k, b).is_some()
            {
                return false;
            }
            let insts = k.layout.block_insts(b);
            if insts.iter().any(|&i| {
                matches!(
                    k.dfg.insts[i].op,
                    Op::Return | Op::Unreachable | Op::Switch(_)
                ) || splits_regions(&k.dfg.insts[i].op)
            }) {
                return false;
            }
            if defs(k, b).any(|v| self.ctx.has((self.key)(v))) {
                return false;
            }
            stack.extend(k.successors(b));
        }
        true
    }

    /// The instruction computing `v`, a value not known for the group that the path
    /// computes (or that is computed again wherever it is used, `remat`).
    fn varying_def(&self, st: &PathState, v: Value) -> Option<&'a InstData> {
        let k = self.k;
        if self.known(st, v) || !(st.defined.contains(v) || remat(k, &self.src.uniform, v)) {
            return None;
        }
        match k.dfg.value_def(v) {
            ValueDef::Result(inst) => Some(&k.dfg.insts[inst]),
            _ => None,
        }
    }

    /// `c` as a conjunction of comparisons of a value affine in `local_id 0` with known
    /// values.
    fn guard(&self, st: &PathState, c: Value) -> Option<Vec<Term>> {
        let k = self.k;
        let data = self.varying_def(st, c)?;
        let args = &data.args;
        match data.op {
            Op::Select if k.dfg.iconst_value(args[2]) == Some(0) => {
                self.conjunction(st, args[0], args[1])
            }
            Op::Binary(BinaryOp::Band) if k.dfg.value_type(c) == Type::I1 => {
                self.conjunction(st, args[0], args[1])
            }
            Op::Icmp(cc) if cc != IntCC::Ne => {
                let (affine, cc, bound) = if self.known(st, args[1]) {
                    (self.affine(st, args[0])?, cc, args[1])
                } else if self.known(st, args[0]) {
                    (self.affine(st, args[1])?, cc.swapped(), args[0])
                } else {
                    return None;
                };
                // A 64-bit comparison is read only of `local_id 0` or `global_id 0` itself
                // (the latter below 2^63, so that neither wraps).
                if affine.ty == Type::I64
                    && (affine.neg || !affine.terms.is_empty() || affine.base == Some(true))
                {
                    return None;
                }
                Some(vec![Term { cc, affine, bound }])
            }
            _ => None,
        }
    }

    /// `a && b` as a guard, of at most `MAX_TERMS` comparisons.
    fn conjunction(&self, st: &PathState, a: Value, b: Value) -> Option<Vec<Term>> {
        let mut g = self.guard(st, a)?;
        if g.len() >= MAX_TERMS {
            return None;
        }
        g.extend(self.guard(st, b)?);
        (g.len() <= MAX_TERMS).then_some(g)
    }

    /// `v` as a value affine in `local_id 0`.
    fn affine(&self, st: &PathState, v: Value) -> Option<Affine> {
        let k = self.k;
        let ty = k.dfg.value_type(v);
        if !matches!(ty, Type::I8 | Type::I16 | Type::I32 | Type::I64) {
            return None;
        }
        let data = self.varying_def(st, v)?;
        let args = &data.args;
        match data.op {
            Op::WorkItem(WorkItemOp::LocalId, 0) if ty == Type::I64 => Some(Affine {
                neg: false,
                terms: Vec::new(),
                base: None,
                ty,
            }),
            // `if (get_global_id(0) < n)` around a kernel's body: launches round the global
            // size up to a multiple of the local one (OpenCV's to 256 columns for 80).
            Op::WorkItem(WorkItemOp::GlobalId, 0) if ty == Type::I64 => Some(Affine {
                neg: false,
                terms: Vec::new(),
                base: Some(false),
                ty,
            }),
            // Truncation wraps as the arithmetic does.
            Op::Convert(ConvOp::Trunc) => Some(Affine {
                ty,
                ..self.affine(st, args[0])?
            }),
            // A local id fits in 31 bits: extending it from 32 changes nothing.
            Op::Convert(ConvOp::Sext | ConvOp::Zext) => {
                let a = self.affine(st, args[0])?;
                (a.ty == Type::I32 && !a.neg && a.terms.is_empty() && a.base.is_none())
                    .then_some(Affine { ty, ..a })
            }
            Op::Binary(op @ (BinaryOp::Iadd | BinaryOp::Isub)) => {
                let sub = op == BinaryOp::Isub;
                if self.known(st, args[1]) {
                    let mut a = self.affine(st, args[0])?;
                    a.terms.push((sub, args[1]));
                    Some(a)
                } else if self.known(st, args[0]) {
                    let mut a = self.affine(st, args[1])?;
                    if sub {
                        a.neg = !a.neg;
                        for t in &mut a.terms {
                            t.0 = !t.0;
                        }
                        a.base = a.base.map(|b| !b);
                    }
                    a.terms.push((false, args[0]));
                    Some(a)
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// The paths from the region's start, if they store every value the region keeps for
    /// later regions wherever it is defined: each such value must be known where a path
    /// visits its block, and every edge into that block must be one the paths take.
    fn paths(&self) -> Option<Node> {
        let k = self.k;
        let mut followed = HashSet::new();
        let tree = self.walk(PathState::default(), None, self.start, &[], &mut followed);
        let mut stored = EntitySet::new();
        let mut stack = vec![&tree];
        while let Some(node) = stack.pop() {
            stored.extend(node.visits.iter().flat_map(|v| v.kept.iter().copied()));
            if let End::Branch(_, t, e) = &node.end {
                stack.push(t);
                stack.push(e);
            }
        }
        let mut preds: SecondaryMap<Block, Vec<Block>> = SecondaryMap::new();
        for b in self.blocks.iter() {
            if ending_barrier(k, b).is_none() {
                for s in k.successors(b) {
                    preds[s].push(b);
                }
            }
        }
        for b in self.blocks.iter() {
            let mut kept = defs(k, b).filter(|&v| self.keeps(v)).peekable();
            if kept.peek().is_none() {
                continue;
            }
            // The code before the loops stores one element for the group: a value kept per
            // work-item (one that differs between them before the region, as a loop's
            // counter started from the ids) needs each work-item's own run.
            if defs(k, b).any(|v| self.keeps(v) && !self.ctx.single((self.key)(v))) {
                return None;
            }
            if !kept.all(|v| stored.contains(v)) {
                return None;
            }
            let entered = preds[b].as_slice();
            let first = if b == self.start {
                vec![None]
            } else {
                Vec::new()
            };
            if entered.is_empty() && b != self.start
                || !entered
                    .iter()
                    .map(|&p| Some(p))
                    .chain(first)
                    .all(|p| followed.contains(&(p, b)))
            {
                return None;
            }
        }
        Some(tree)
    }
}

/// The values block `b` of `k` defines: its parameters and its instructions' results.
fn defs(k: &Function, b: Block) -> impl Iterator<Item = Value> + '_ {
    let results = k.layout.block_insts(b).iter();
    let results = results.filter_map(|&i| k.dfg.inst_result(i));
    k.dfg.block_params(b).iter().copied().chain(results)
}

/// Whether a path of `node` stores a value.
fn stores(node: &Node) -> bool {
    node.visits.iter().any(|v| !v.kept.is_empty())
        || matches!(&node.end, End::Branch(_, t, e) if stores(t) || stores(e))
}

/// Whether `node` or a part after it ends in a narrowed path.
fn narrows(node: &Node) -> bool {
    match &node.end {
        End::Full => false,
        End::Exit(_) => true,
        End::Branch(_, t, e) => narrows(t) || narrows(e),
    }
}

/// How region `r` of the kernel (`sources[0]`) and its W-wide version (`sources[1]`, if
/// any) narrow their loop over x, if they do.
pub(super) fn plan(sources: &[&Source], ctx: &Context, r: usize) -> Option<Plan> {
    // A collective's result is defined by every work-item as it enters the region after it.
    let scalar = sources[0];
    if let Some(bar) = scalar.regions[r].after {
        if matches!(scalar.k.dfg.insts[bar].op, Op::Group(..)) {
            return None;
        }
    }
    let keys: [fn(Value) -> Key; 2] = [Key::Value, Key::Wide];
    let regions: Vec<Region> = sources
        .iter()
        .zip(keys)
        .map(|(&src, key)| Region::new(src, r, ctx, key))
        .collect();
    let trees = regions
        .iter()
        .map(Region::paths)
        .collect::<Option<Vec<_>>>()?;
    if !narrows(&trees[0]) {
        return None;
    }
    Some(Plan { trees })
}

/// The work-items of each row a region's loops run, for the group: x in `[lo, hi)`, the
/// W-wide chunks from `wide_lo` where `fits` and while the next ends at most at `end` (and,
/// where `below_hi`, starts below `hi`).
#[derive(Clone, Copy)]
pub(super) struct XRange {
    pub(super) lo: Value,
    pub(super) hi: Value,
    pub(super) wide_lo: Value,
    pub(super) fits: Value,
    pub(super) end: Value,
    pub(super) below_hi: bool,
}

impl Emitter<'_, '_> {
    /// Emits, where the builder is (before region `r`'s loops), the code that narrows them
    /// (`plan`): stores the values the region keeps, follows the region's branches on the
    /// group's values to the range of x, and goes to `row(0, 0)` where it is not empty,
    /// else to `done(exit)`. Where the region may run its work-items `alone` (see
    /// `Emitter::alone_ok`), a range of at most a quarter of a chunk runs them one at a time.
    pub(super) fn narrow_entry(
        &mut self,
        plan: &Plan,
        row: Block,
        done: Block,
        alone: bool,
    ) -> Result<XRange, CompileError> {
        let zero = self.b.iconst(Type::I64, 0);
        // The W-wide function's paths only store the values it keeps.
        for (i, tree) in plan.trees.iter().enumerate().skip(1) {
            if stores(tree) {
                self.cur = i;
                let cont = self.b.create_block();
                self.emit_node(tree, SecondaryMap::new(), Vec::new(), cont)?;
                self.b.switch_to_block(cont);
            }
        }
        self.cur = 0;
        let merge = self.b.create_block();
        let p: Vec<Value> = (0..3)
            .map(|_| self.b.append_block_param(merge, Type::I64))
            .collect();
        self.emit_node(&plan.trees[0], SecondaryMap::new(), Vec::new(), merge)?;
        self.b.switch_to_block(merge);
        let (lo, hi, code) = (p[0], p[1], p[2]);
        let n = self.sizes[0];
        let mut range = XRange {
            lo,
            hi,
            wide_lo: lo,
            fits: zero,
            end: zero,
            below_hi: false,
        };
        if let Some(w) = self.sources.get(1) {
            let width = self.b.iconst(Type::I64, i64::from(w.width));
            // The chunks of the whole row that reach into the range (see the module
            // comment: never chunks placed from `lo`).
            let mask = self.b.iconst(Type::I64, -i64::from(w.width));
            range.wide_lo = self.b.binary(BinaryOp::Band, lo, mask);
            range.end = n;
            let end = self.b.iadd(range.wide_lo, width);
            let whole = self.b.icmp(IntCC::Ule, end, n);
            let inside = self.b.icmp(IntCC::Ult, range.wide_lo, hi);
            range.fits = self.b.binary(BinaryOp::Band, whole, inside);
            range.below_hi = true;
            if let Some(ok) = self.wide_ok {
                range.fits = self.b.binary(BinaryOp::Band, range.fits, ok);
            }
            if alone {
                let count = self.b.binary(BinaryOp::Isub, hi, lo);
                let few = self.b.iconst(Type::I64, i64::from(w.width / 4));
                let many = self.b.icmp(IntCC::Ugt, count, few);
                range.fits = self.b.binary(BinaryOp::Band, range.fits, many);
            }
        }
        let some = self.b.icmp(IntCC::Slt, lo, hi);
        self.b.brif(some, row, &[zero, zero], done, &[code]);
        Ok(range)
    }

    /// Kernel value `v` of the current source, known for the group, where the builder is.
    fn known_value(&self, env: &SecondaryMap<Value, Option<Value>>, v: Value) -> Value {
        env[v]
            .or(self.maps[self.cur][v])
            .or(self.pre[self.cur][v])
            .expect("the analysis only reads values known for the group")
    }

    /// Computes what a path's block computes of the group's values.
    fn apply_visit(&mut self, visit: &Visit, env: &mut SecondaryMap<Value, Option<Value>>) {
        // A block's parameters take their arguments all at once: a loop header's may get
        // another parameter's old value (`u = i` then `i + 1`).
        let args: Vec<Value> = visit
            .params
            .iter()
            .map(|&(_, a)| self.known_value(env, a))
            .collect();
        for (&(p, _), x) in visit.params.iter().zip(args) {
            env[p] = Some(x);
        }
        let k = &self.src().k;
        for &inst in &visit.insts {
            let data = &k.dfg.insts[inst];
            let args: Vec<Value> = data
                .args
                .iter()
                .map(|&a| self.known_value(env, a))
                .collect();
            let r = k.dfg.inst_result(inst).expect("known values are results");
            let ni = self
                .b
                .ins(data.op.clone(), &args, Some(k.dfg.value_type(r)));
            let x = self.b.func.dfg.inst_result(ni).expect("a result");
            env[r] = Some(x);
        }
    }

    /// Emits the paths of `node` of the current source, storing the values it keeps, each
    /// jumping to `merge(lo, hi, exit)` (the kernel's) or `merge` (the W-wide function's);
    /// `guards` are those met before it.
    fn emit_node(
        &mut self,
        node: &Node,
        mut env: SecondaryMap<Value, Option<Value>>,
        mut guards: Vec<Vec<Term>>,
        merge: Block,
    ) -> Result<(), CompileError> {
        let zero = self.b.iconst(Type::I64, 0);
        for v in &node.visits {
            self.apply_visit(v, &mut env);
            for &x in &v.kept {
                let val = self.known_value(&env, x);
                self.store_ctx(self.value_key(x), zero, val)?;
            }
        }
        guards.extend(node.guards.iter().cloned());
        // The W-wide function's paths go on to the kernel's, which tell the range.
        let ranges = self.cur == 0;
        match &node.end {
            End::Full | End::Exit(_) if !ranges => {
                self.b.jump(merge, &[]);
            }
            End::Full => {
                self.b.jump(merge, &[zero, self.sizes[0], zero]);
            }
            End::Exit(code) => {
                let (lo, hi) = self.hull(&guards, &env);
                let code = self.b.iconst(Type::I64, *code as i64);
                self.b.jump(merge, &[lo, hi, code]);
            }
            End::Branch(c, then, els) => {
                let (bt, be) = (self.b.create_block(), self.b.create_block());
                let c = self.known_value(&env, *c);
                self.b.brif(c, bt, &[], be, &[]);
                self.b.switch_to_block(bt);
                self.emit_node(then, env.clone(), guards.clone(), merge)?;
                self.b.switch_to_block(be);
                self.emit_node(els, env, guards, merge)?;
            }
        }
        Ok(())
    }

    /// The smallest range of x holding every work-item that passes one of `guards`
    /// (`[lo, lo)` where none does).
    fn hull(
        &mut self,
        guards: &[Vec<Term>],
        env: &SecondaryMap<Value, Option<Value>>,
    ) -> (Value, Value) {
        let (zero, n) = (self.b.iconst(Type::I64, 0), self.sizes[0]);
        let mut acc: Option<(Value, Value)> = None;
        for g in guards {
            let (lo, hi) = self.conjunction(g, env);
            acc = Some(match acc {
                None => (lo, hi),
                Some((alo, ahi)) => {
                    // An empty range counts as (n, 0).
                    let mut ends = Vec::new();
                    for (l, h) in [(alo, ahi), (lo, hi)] {
                        let some = self.b.icmp(IntCC::Slt, l, h);
                        ends.push((self.b.select(some, l, n), self.b.select(some, h, zero)));
                    }
                    let lo = self.b.binary(BinaryOp::Smin, ends[0].0, ends[1].0);
                    let hi = self.b.binary(BinaryOp::Smax, ends[0].1, ends[1].1);
                    (lo, self.b.binary(BinaryOp::Smax, hi, lo))
                }
            });
        }
        acc.unwrap_or((zero, zero))
    }

    /// The range of x where every term of `terms` holds, `hi >= lo`.
    fn conjunction(
        &mut self,
        terms: &[Term],
        env: &SecondaryMap<Value, Option<Value>>,
    ) -> (Value, Value) {
        let mut acc: Option<(Value, Value)> = None;
        for t in terms {
            let (lo, hi) = self.term_range(t, env);
            acc = Some(match acc {
                None => (lo, hi),
                Some((alo, ahi)) => (
                    self.b.binary(BinaryOp::Smax, alo, lo),
                    self.b.binary(BinaryOp::Smin, ahi, hi),
                ),
            });
        }
        let (lo, hi) = acc.expect("a guard has a term");
        (lo, self.b.binary(BinaryOp::Smax, hi, lo))
    }

    /// The range of x in `[0, local_size 0)` where term `t` holds.
    fn term_range(&mut self, t: &Term, env: &SecondaryMap<Value, Option<Value>>) -> (Value, Value) {
        let n = self.sizes[0];
        let zero = self.b.iconst(Type::I64, 0);
        let bound = self.known_value(env, t.bound);
        let a = &t.affine;
        let signed = matches!(
            t.cc,
            IntCC::Eq | IntCC::Slt | IntCC::Sle | IntCC::Sgt | IntCC::Sge
        );
        // `x cc threshold` over 64-bit values as they are, and where that reading may not
        // hold (a value of the affine form wraps), the condition for it.
        let (threshold, cc, exact) = if a.ty == Type::I64 {
            // `local_id 0` itself, in [0, n): a bound past either end reads as that end.
            // `global_id 0 cc u` is `local_id 0 cc u - base`: an unsigned `u` of 2^63 or more
            // reads as i64::MAX (a global id is below 2^63, so every comparison comes out
            // the same), and `u` is raised to `base - 1`, so that the difference is -1 or
            // more and cannot wrap.
            let th = match a.base {
                Some(_) => {
                    let base = self.gid_base[0];
                    let u = if signed {
                        bound
                    } else {
                        let zero = self.b.iconst(Type::I64, 0);
                        let huge = self.b.icmp(IntCC::Slt, bound, zero);
                        let max = self.b.iconst(Type::I64, i64::MAX);
                        self.b.select(huge, max, bound)
                    };
                    let floor = self.iadd_imm(base, -1);
                    let raised = self.b.binary(BinaryOp::Smax, u, floor);
                    let th = self.b.binary(BinaryOp::Isub, raised, base);
                    self.b.binary(BinaryOp::Smin, th, n)
                }
                None if signed => {
                    let m1 = self.b.iconst(Type::I64, -1);
                    let th = self.b.binary(BinaryOp::Smax, bound, m1);
                    self.b.binary(BinaryOp::Smin, th, n)
                }
                None => self.b.binary(BinaryOp::Umin, bound, n),
            };
            (th, t.cc, None)
        } else {
            let mut off = self.b.iconst(a.ty, 0);
            let base = a.base.map(|sub| (sub, self.gid_base[0]));
            let terms = a
                .terms
                .iter()
                .map(|&(sub, v)| (sub, self.known_value(env, v)));
            for (sub, mut x) in terms.collect::<Vec<_>>().into_iter().chain(base) {
                if self.b.value_type(x) != a.ty {
                    x = self.b.convert(ConvOp::Trunc, x, a.ty);
                }
                let op = if sub { BinaryOp::Isub } else { BinaryOp::Iadd };
                off = self.b.binary(op, off, x);
            }
            let ext = if signed { ConvOp::Sext } else { ConvOp::Zext };
            let o = self.b.convert(ext, off, Type::I64);
            let u = self.b.convert(ext, bound, Type::I64);
            // The form's values at x = 0 and x = n - 1 (it is monotonic between) must lie
            // in the type's range read with the comparison's signedness.
            let bits = a.ty.bits();
            let (min, max) = if signed {
                (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
            } else {
                (0, (1i64 << bits) - 1)
            };
            let n1 = self.iadd_imm(n, -1);
            let op = if a.neg {
                BinaryOp::Isub
            } else {
                BinaryOp::Iadd
            };
            let w1 = self.b.binary(op, o, n1);
            let (min, max) = (self.b.iconst(Type::I64, min), self.b.iconst(Type::I64, max));
            let mut exact = None;
            for w in [o, w1] {
                let above = self.b.icmp(IntCC::Sge, w, min);
                let below = self.b.icmp(IntCC::Sle, w, max);
                let inside = self.b.binary(BinaryOp::Band, above, below);
                exact = Some(match exact {
                    None => inside,
                    Some(e) => self.b.binary(BinaryOp::Band, e, inside),
                });
            }
            // x + o cc u  <=>  x cc u - o;  o - x cc u  <=>  x cc' o - u.
            if a.neg {
                (self.b.binary(BinaryOp::Isub, o, u), t.cc.swapped(), exact)
            } else {
                (self.b.binary(BinaryOp::Isub, u, o), t.cc, exact)
            }
        };
        let th1 = self.iadd_imm(threshold, 1);
        let (lo, hi) = match cc {
            IntCC::Slt | IntCC::Ult => (zero, threshold),
            IntCC::Sle | IntCC::Ule => (zero, th1),
            IntCC::Sgt | IntCC::Ugt => (th1, n),
            IntCC::Sge | IntCC::Uge => (threshold, n),
            IntCC::Eq => (threshold, th1),
            IntCC::Ne => unreachable!("guards exclude ne"),
        };
        let lo = self.b.binary(BinaryOp::Smax, lo, zero);
        let hi = self.b.binary(BinaryOp::Smin, hi, n);
        match exact {
            Some(e) => (self.b.select(e, lo, zero), self.b.select(e, hi, n)),
            None => (lo, hi),
        }
    }
}
