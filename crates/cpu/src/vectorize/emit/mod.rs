//! Writing the W-wide function: each scalar value gets a lane representation ([`Lanes`]),
//! uniform control flow is copied, and each divergent region is linearized under masks.
//! This module plans the regions and writes the values; [`memory`] writes the accesses and
//! [`control`] the branches, masked regions and masked loops.

use ferrocl_ir::analysis::{Cfg, DomTree, Loop, LoopInfo};
use ferrocl_ir::entity::{EntitySet, SecondaryMap};
use ferrocl_ir::uniformity::post_dominators;
use ferrocl_ir::{
    BinaryOp, Block, ConvOp, Dest, Function, Inst, InstData, IntCC, Op, StackSlotData, Type, Value,
    ValueDef, WorkItemOp,
};

use super::cfg::{close_loops, dedicate_exits, exits, unify_returns};
use super::shape::{Shape, Shapes};
use super::{Refusal, Vectorized};

mod control;
pub use control::skippable_count;
mod memory;
pub(super) use memory::strided_pays;

/// How the W lanes of a scalar value are held in the W-wide function.
#[derive(Clone, Debug)]
enum Lanes {
    /// One scalar, equal in every lane.
    Uniform(Value),
    /// Lane 0's value; lane `i` is `base + i * stride` (bytes for pointers), if `guard` (an
    /// `i1`) holds; otherwise each lane is what the scalar instructions compute from the
    /// lanes of their operands.
    Affine {
        base: Value,
        stride: i64,
        guard: Option<Value>,
    },
    /// A vector of W lanes.
    Vector(Value),
    /// W scalars (pointers, which have no vector type, and 64-bit indices).
    Scalars(Vec<Value>),
}

impl Lanes {
    /// The values these lanes are made of: what a join takes as parameters for them.
    fn parts(&self) -> Vec<Value> {
        match self {
            Lanes::Uniform(v) | Lanes::Vector(v) => vec![*v],
            Lanes::Scalars(v) => v.clone(),
            Lanes::Affine { base, guard, .. } => std::iter::once(*base)
                .chain(guard.iter().copied())
                .collect(),
        }
    }

    /// Lanes of the same kind as these, made of `parts` (one for each of [`Self::parts`]).
    fn of_parts(&self, parts: &[Value]) -> Lanes {
        match self {
            Lanes::Uniform(_) => Lanes::Uniform(parts[0]),
            Lanes::Vector(_) => Lanes::Vector(parts[0]),
            Lanes::Scalars(_) => Lanes::Scalars(parts.to_vec()),
            Lanes::Affine { stride, .. } => Lanes::Affine {
                base: parts[0],
                stride: *stride,
                guard: parts.get(1).copied(),
            },
        }
    }
}

/// Refuses what the first version does not handle, before any analysis.
pub fn check_supported(func: &Function) -> Result<(), Refusal> {
    let entry = func.layout.entry_block();
    for &b in func.layout.blocks() {
        let vector_param = func
            .dfg
            .block_params(b)
            .iter()
            .any(|&p| func.dfg.value_type(p).is_vector());
        if vector_param && Some(b) != entry {
            return Err(Refusal::new("OpenCL vector types"));
        }
        for &i in func.layout.block_insts(b) {
            let data = &func.dfg.insts[i];
            // A vector argument of the kernel (uniform) may be taken apart.
            let lane_of_argument = matches!(data.op, Op::ExtractLane(_))
                && matches!(func.dfg.value_def(data.args[0]), ValueDef::Param(p, _) if Some(p) == entry);
            let vector = func
                .dfg
                .inst_result(i)
                .into_iter()
                .chain(data.args.iter().copied())
                .any(|v| func.dfg.value_type(v).is_vector());
            if vector && !lane_of_argument {
                return Err(Refusal::new("OpenCL vector types"));
            }
            match &data.op {
                Op::Call(_) => return Err(Refusal::new("a call that is not inlined")),
                Op::Group(..) => return Err(Refusal::new("work-group or sub-group collectives")),
                Op::WorkItem(
                    WorkItemOp::SubGroupSize
                    | WorkItemOp::MaxSubGroupSize
                    | WorkItemOp::NumSubGroups
                    | WorkItemOp::EnqueuedNumSubGroups
                    | WorkItemOp::SubGroupId
                    | WorkItemOp::SubGroupLocalId,
                    _,
                ) => return Err(Refusal::new("sub-group queries")),
                _ => {}
            }
        }
    }
    Ok(())
}

/// A loop that lanes leave at different iterations: it runs while any lane is active, its
/// body straight-line code under masks.
#[derive(Clone)]
struct DivergentLoop {
    /// The blocks but the header, in a topological order.
    body: Vec<Block>,
    /// The one exit block.
    exit: Block,
}

/// Checks that loop `l` can run under a mask: one exit block, entered from the loop only
/// (`dedicate_exits` makes it so where it can), no loop inside, no barrier.
fn masked_loop(
    src: &Function,
    cfg: &Cfg,
    l: &Loop,
    order: &SecondaryMap<Block, usize>,
) -> Result<DivergentLoop, Refusal> {
    let refuse = |why: &str| {
        Err(Refusal::new(format!(
            "a loop under divergent control flow {why}"
        )))
    };
    let [exit] = exits(cfg, l)[..] else {
        return refuse("with several exits");
    };
    if cfg.preds(exit).iter().any(|(p, _)| !l.blocks.contains(p)) {
        return refuse("whose exit block is entered from elsewhere too");
    }
    for &b in &l.blocks {
        let barrier = src
            .layout
            .block_insts(b)
            .iter()
            .any(|&i| matches!(src.dfg.insts[i].op, Op::Barrier(..)));
        if barrier {
            return Err(Refusal::new("a barrier under divergent control flow"));
        }
    }
    let mut body: Vec<Block> = l
        .blocks
        .iter()
        .copied()
        .filter(|&b| b != l.header)
        .collect();
    body.sort_by_key(|&b| order[b]);
    Ok(DivergentLoop { body, exit })
}

/// The distance between two lanes' copies of a stack slot.
pub(crate) fn lane_bytes(slot: &StackSlotData) -> u32 {
    slot.size.next_multiple_of(slot.align.max(1))
}

/// A divergent region: the blocks after a divergent branch up to its post-dominator.
#[derive(Clone)]
struct Region {
    /// The blocks in a topological order.
    blocks: Vec<Block>,
    /// The immediate post-dominator, where the lanes meet again.
    join: Block,
}

/// `func` prepared for the emitter (one return, loops with exits of their own and closed)
/// and its analyses for chunks of `width` lanes.
pub(super) struct Prepared {
    pub src: Function,
    pub cfg: Cfg,
    pub dom: DomTree,
    pub loops: LoopInfo,
    pub ipdom: SecondaryMap<Block, Option<Block>>,
    pub shapes: Shapes,
    /// How many values the function had before it was prepared.
    pub originals: usize,
}

pub(super) fn prepare(func: &Function, width: u32) -> Prepared {
    let mut src = func.clone();
    unify_returns(&mut src);
    dedicate_exits(&mut src);
    close_loops(&mut src);
    let cfg = Cfg::new(&src);
    let dom = DomTree::new(&src, &cfg);
    let loops = LoopInfo::new(&cfg, &dom);
    let ipdom = post_dominators(&src, &cfg);
    let shapes = Shapes::new(&src, &cfg, &dom, &loops, &ipdom, width);
    Prepared {
        src,
        cfg,
        dom,
        loops,
        ipdom,
        shapes,
        originals: func.dfg.values.len(),
    }
}

/// The cost model's estimate for prepared function `p` vectorized (see [`vectorize`]) and,
/// where it expects the W-wide code to be slower, why.
pub(super) fn verdict(
    p: &Prepared,
    accesses: &[Vec<Inst>],
    width: u32,
    per_item: f64,
) -> (f64, Option<Refusal>) {
    match super::cost::worth_it(&p.src, &p.shapes, width, accesses, per_item) {
        Ok(ratio) => (ratio, None),
        Err((ratio, r)) => (ratio, Some(r)),
    }
}

/// Vectorizes `func` for chunks of `width` lanes; `accesses` lists the scalar accesses that
/// each OpenCL vector access of the kernel became (see [`super::scalarize::Split`]).
pub fn vectorize(
    func: &Function,
    accesses: &[Vec<Inst>],
    width: u32,
    per_item: f64,
) -> Result<Vectorized, Refusal> {
    vectorize_prepared(prepare(func, width), accesses, width, per_item)
}

/// [`vectorize`] of a function [`prepare`] made ready.
pub(super) fn vectorize_prepared(
    p: Prepared,
    accesses: &[Vec<Inst>],
    width: u32,
    per_item: f64,
) -> Result<Vectorized, Refusal> {
    // The cost model's verdict; the W-wide code is made either way.
    let (estimate, slower) = verdict(&p, accesses, width, per_item);
    let Prepared {
        src,
        cfg,
        dom,
        loops,
        ipdom,
        shapes,
        originals,
    } = p;
    let rpo: Vec<Block> = dom.rpo().to_vec();
    let mut order: SecondaryMap<Block, usize> = SecondaryMap::new();
    for (k, &b) in rpo.iter().enumerate() {
        order[b] = k;
    }

    // Loops that lanes leave at different iterations; their blocks but the header are
    // emitted with it.
    let mut inner: SecondaryMap<Block, bool> = SecondaryMap::new();
    let mut masked_loops: SecondaryMap<Block, Option<DivergentLoop>> = SecondaryMap::new();
    for l in &loops.loops {
        let divergent_exit = l
            .blocks
            .iter()
            .any(|&b| shapes.is_divergent(b) && cfg.succs(b).iter().any(|s| !l.blocks.contains(s)));
        // A loop inside a masked loop runs under its mask too (`loops` lists outer loops
        // first).
        let nested = masked_loops
            .iter()
            .any(|(_, m)| m.as_ref().is_some_and(|m| m.body.contains(&l.header)));
        if divergent_exit || nested {
            let dl = masked_loop(&src, &cfg, l, &order)?;
            for &b in &dl.body {
                inner[b] = true;
            }
            masked_loops[l.header] = Some(dl);
        }
    }

    // The outermost divergent regions; the blocks inside belong to their region, and the
    // loops inside run under the region's masks.
    let mut regions: SecondaryMap<Block, Option<Region>> = SecondaryMap::new();
    for &b in &rpo {
        if inner[b] || !shapes.is_divergent(b) || masked_loops[b].is_some() {
            continue;
        }
        let Some(join) = ipdom[b] else {
            return Err(Refusal::new("a divergent branch whose paths never meet"));
        };
        let mut blocks = Vec::new();
        let mut seen: SecondaryMap<Block, bool> = SecondaryMap::new();
        let mut work: Vec<Block> = cfg.succs(b).to_vec();
        while let Some(x) = work.pop() {
            if x == join || std::mem::replace(&mut seen[x], true) {
                continue;
            }
            blocks.push(x);
            work.extend(cfg.succs(x).iter().copied());
        }
        blocks.sort_by_key(|&x| order[x]);
        if seen[b] {
            return Err(Refusal::new(
                "a divergent branch inside a loop it does not leave",
            ));
        }
        for l in &loops.loops {
            if seen[l.header] && masked_loops[l.header].is_none() {
                let dl = masked_loop(&src, &cfg, l, &order)?;
                for &x in &dl.body {
                    inner[x] = true;
                }
                masked_loops[l.header] = Some(dl);
            }
        }
        for &x in &blocks {
            let entered_from_outside = cfg
                .preds(x)
                .iter()
                .any(|&(p, _)| p != b && !seen[p] && dom.is_reachable(p));
            if entered_from_outside {
                return Err(Refusal::new("a divergent region with several entries"));
            }
            let back_edge = |s: Block| {
                masked_loops[s]
                    .as_ref()
                    .is_some_and(|l| l.body.contains(&x) || s == x)
            };
            if cfg
                .succs(x)
                .iter()
                .any(|&s| s != join && order[s] <= order[x] && !back_edge(s))
            {
                return Err(Refusal::new(
                    "an irreducible loop inside divergent control flow",
                ));
            }
            let barrier = src
                .layout
                .block_insts(x)
                .iter()
                .any(|&i| matches!(src.dfg.insts[i].op, Op::Barrier(..)));
            if barrier {
                return Err(Refusal::new("a barrier under divergent control flow"));
            }
        }
        for &x in &blocks {
            inner[x] = true;
        }
        regions[b] = Some(Region { blocks, join });
    }

    let mut out = Function::new(&src.name, src.sig.clone());
    out.kernel = src.kernel.clone();
    // Private memory: one copy per lane, lane i's `i * lane_bytes(slot)` past lane 0's.
    for (_, slot) in src.slots.iter() {
        out.create_slot(lane_bytes(slot) * width, slot.align);
    }
    let mut e = Emitter {
        src: &src,
        shapes: &shapes,
        w: width,
        out,
        cur: Block::from_u32(0),
        map: SecondaryMap::new(),
        blocks: SecondaryMap::new(),
        mask: None,
        barriers: Vec::new(),
        loop_state: SecondaryMap::new(),
        loops: &masked_loops,
        accesses,
        access_of: {
            let mut access_of = SecondaryMap::new();
            for (g, a) in accesses.iter().enumerate() {
                for &i in a {
                    access_of[i] = Some(g);
                }
            }
            access_of
        },
        done: EntitySet::new(),
        regrouped: SecondaryMap::new(),
        partial: None,
        used_after: used_after_their_block(&src),
        known_guards: EntitySet::new(),
        known_bounds: Vec::new(),
        ahead: EntitySet::new(),
    };
    for &b in &rpo {
        // Blocks emitted inside masked code have none of their own, but loop headers and
        // exits.
        let own = !inner[b]
            || masked_loops[b].is_some()
            || masked_loops
                .iter()
                .any(|(_, l)| l.as_ref().is_some_and(|l| l.exit == b));
        if own {
            let nb = e.out.dfg.make_block();
            e.out.layout.append_block(nb);
            e.blocks[b] = Some(nb);
            for &p in src.dfg.block_params(b) {
                let lanes = e.make_param(nb, p);
                e.map[p] = Some(lanes);
            }
            if let Some(l) = masked_loops[b].as_ref() {
                // The active lanes, and what each exit parameter holds for the lanes that
                // left.
                let active = e.out.dfg.append_block_param(nb, e.wide(Type::I1));
                let mut held = Vec::new();
                for &p in src.dfg.block_params(l.exit) {
                    let ty = src.dfg.value_type(p);
                    if ty.is_ptr() {
                        for _ in 0..width {
                            held.push(e.out.dfg.append_block_param(nb, ty));
                        }
                    } else {
                        held.push(e.out.dfg.append_block_param(nb, e.wide(ty)));
                    }
                }
                e.loop_state[b] = Some((active, held));
            }
        }
    }
    for &b in &rpo {
        if inner[b] {
            continue;
        }
        e.cur = e.block(b);
        if let Some(l) = masked_loops[b].as_ref() {
            e.emit_loop(b, l)?;
            continue;
        }
        e.unmasked_block(b)?;
        match &regions[b] {
            Some(r) => e.emit_region(b, r)?,
            None => e.emit_terminator(b)?,
        }
    }
    // Barriers in the scalar kernel's layout order.
    let mut barriers = Vec::new();
    for &b in src.layout.blocks() {
        for &i in src.layout.block_insts(b) {
            if let Some(&(_, v)) = e.barriers.iter().find(|&&(s, _)| s == i) {
                barriers.push((i, v));
            }
        }
    }
    // The values of `func` that the W-wide function holds as one scalar for the W lanes.
    let mut uniform: Vec<(Value, Value)> = e
        .map
        .iter()
        .filter(|(v, _)| (v.as_u32() as usize) < originals)
        .filter_map(|(v, lanes)| match lanes {
            Some(Lanes::Uniform(w)) => Some((v, *w)),
            _ => None,
        })
        .collect();
    uniform.sort();
    Ok(Vectorized {
        func: e.out,
        barriers,
        assumes_id_limit: shapes.assumes_id_limit(),
        uniform,
        estimate,
        slower,
        runs: 0,
    })
}

/// The values of `f` that their block's terminator or another block uses.
fn used_after_their_block(f: &Function) -> EntitySet<Value> {
    let mut used = EntitySet::new();
    for &b in f.layout.blocks() {
        for &i in f.layout.block_insts(b) {
            let data = &f.dfg.insts[i];
            let inside = |v: &Value| {
                !data.op.is_terminator()
                    && matches!(f.dfg.value_def(*v), ValueDef::Result(d) if f.layout.inst_block(d) == Some(b))
            };
            used.extend(data.args.iter().filter(|v| !inside(v)).copied());
            for d in data.op.dests() {
                used.extend(d.args.iter().copied());
            }
        }
    }
    used
}

struct Emitter<'a> {
    src: &'a Function,
    shapes: &'a Shapes,
    w: u32,
    out: Function,
    /// The block being appended to.
    cur: Block,
    map: SecondaryMap<Value, Option<Lanes>>,
    blocks: SecondaryMap<Block, Option<Block>>,
    /// The active lanes (an `i1` vector) inside a divergent region; `None`: all lanes.
    mask: Option<Value>,
    barriers: Vec<(Inst, Inst)>,
    /// For the header of each divergent loop: its parameters for the active lanes and for
    /// the exit parameters' values of the lanes that left.
    loop_state: SecondaryMap<Block, Option<(Value, Vec<Value>)>>,
    loops: &'a SecondaryMap<Block, Option<DivergentLoop>>,
    /// The scalar accesses of each OpenCL vector access, and the access each belongs to.
    accesses: &'a [Vec<Inst>],
    access_of: SecondaryMap<Inst, Option<usize>>,
    /// Accesses already emitted with the others of their vector access.
    done: EntitySet<Inst>,
    /// Each vector of one component of W OpenCL vectors regrouped from whole-vector loads:
    /// the loaded vectors and the component.
    regrouped: SecondaryMap<Value, Option<(Vec<Value>, u32)>>,
    /// A mask known to have an inactive lane where the code is being emitted (the second
    /// version of a block, see `versioned_block`).
    partial: Option<Value>,
    /// The values used by their block's terminator or in another block.
    used_after: EntitySet<Value>,
    /// Guards (of affine lanes) known to hold where the code is being emitted (the first
    /// version of a block, see `unmasked_block`).
    known_guards: EntitySet<Value>,
    /// The bounds (`Self::bound`) of the guards in `known_guards`.
    known_bounds: Vec<(Value, IntCC, i128)>,
    /// Instructions of the block being emitted that were emitted before it branches to its
    /// versions (`guards_ahead`).
    ahead: EntitySet<Inst>,
}

/// What the first of the two versions of a block assumes (`Emitter::versioned_block`).
struct Assume {
    /// Every lane of this mask is active.
    all_active: Option<Value>,
    /// These guards hold.
    guards: Vec<Value>,
}

/// The most instructions a block may have to be emitted twice for its guards.
const MAX_VERSIONED: usize = 1_000;

impl Emitter<'_> {
    fn block(&self, b: Block) -> Block {
        self.blocks[b].expect("block placed before its uses")
    }

    /// The state of divergent loop `h`: its active lanes' mask and what it holds of the
    /// lanes that left.
    fn loop_state(&self, h: Block) -> (Value, Vec<Value>) {
        self.loop_state[h]
            .clone()
            .expect("a divergent loop's header")
    }

    fn lanes(&self, v: Value) -> Lanes {
        self.map[v].clone().expect("value mapped before its uses")
    }

    fn ty(&self, v: Value) -> Type {
        self.src.dfg.value_type(v)
    }

    fn wide(&self, ty: Type) -> Type {
        ty.vector(self.w).expect("a vector of a scalar type")
    }

    fn ins(&mut self, op: Op, args: &[Value], ty: Option<Type>) -> Option<Value> {
        let i = self.out.append_inst(self.cur, InstData::new(op, args), ty);
        self.out.dfg.inst_result(i)
    }

    fn val(&mut self, op: Op, args: &[Value], ty: Type) -> Value {
        if let Some(v) = self.mask_blend(&op, args, ty) {
            return v;
        }
        self.ins(op, args, Some(ty)).expect("a result")
    }

    /// The constant every lane of `v` holds, if `v` is a constant or a splat of one.
    fn splat_constant(&self, v: Value) -> Option<u64> {
        let dfg = &self.out.dfg;
        match dfg.value_def(v) {
            ValueDef::Result(i) if matches!(dfg.insts[i].op, Op::Splat) => {
                dfg.iconst_value(dfg.insts[i].args[0])
            }
            _ => dfg.iconst_value(v),
        }
    }

    /// A blend of masks with a constant side (as the paths of `a || b` and `a && b` meet) is
    /// one mask operation: `select(c, true, b)` is `c | b`, `select(c, a, false)` is `c & a`.
    fn mask_blend(&mut self, op: &Op, args: &[Value], ty: Type) -> Option<Value> {
        let masks = matches!(op, Op::Select)
            && ty.is_vector()
            && ty.lane_type() == Type::I1
            && self.out.dfg.value_type(args[0]) == ty;
        if !masks {
            return None;
        }
        let (c, a, b) = (args[0], args[1], args[2]);
        match (self.splat_constant(a), self.splat_constant(b)) {
            (Some(1), _) => self.ins(Op::Binary(BinaryOp::Bor), &[c, b], Some(ty)),
            (_, Some(0)) => self.ins(Op::Binary(BinaryOp::Band), &[c, a], Some(ty)),
            // `select(c, a, true)` is `a | !c`, `select(c, false, b)` is `b & !c`.
            (_, Some(1)) => {
                let not = self.negated(c, ty);
                self.ins(Op::Binary(BinaryOp::Bor), &[a, not], Some(ty))
            }
            (Some(0), _) => {
                let not = self.negated(c, ty);
                self.ins(Op::Binary(BinaryOp::Band), &[b, not], Some(ty))
            }
            _ => None,
        }
    }

    /// `!m` for a mask `m`, without a second negation where `m` is one.
    fn negated(&mut self, m: Value, ty: Type) -> Value {
        let dfg = &self.out.dfg;
        if let ValueDef::Result(i) = dfg.value_def(m) {
            if matches!(dfg.insts[i].op, Op::Unary(ferrocl_ir::UnaryOp::Bnot)) {
                return dfg.insts[i].args[0];
            }
        }
        self.ins(Op::Unary(ferrocl_ir::UnaryOp::Bnot), &[m], Some(ty))
            .expect("a result")
    }

    fn iconst(&mut self, ty: Type, x: i64) -> Value {
        let bits = ty.lane_bits();
        let v = if bits >= 64 {
            x as u64
        } else {
            (x as u64) & ((1u64 << bits) - 1)
        };
        self.val(Op::Iconst(v), &[], ty)
    }

    fn binary(&mut self, op: BinaryOp, a: Value, b: Value) -> Value {
        let ty = self.out.dfg.value_type(a);
        self.val(Op::Binary(op), &[a, b], ty)
    }

    fn extract(&mut self, v: Value, lane: u32) -> Value {
        let ty = self.out.dfg.value_type(v).lane_type();
        self.val(Op::ExtractLane(lane as u8), &[v], ty)
    }

    fn new_block(&mut self) -> Block {
        let b = self.out.dfg.make_block();
        self.out.layout.append_block(b);
        b
    }

    fn jump(&mut self, to: Block, args: &[Value]) {
        self.ins(Op::Jump(Dest::new(to, args)), &[], None);
    }

    fn brif(&mut self, c: Value, a: Block, a_args: &[Value], b: Block, b_args: &[Value]) {
        let op = Op::Brif(Box::new((Dest::new(a, a_args), Dest::new(b, b_args))));
        self.ins(op, &[c], None);
    }

    /// The parameters of a block that stays a block, for the lanes of `p`.
    fn make_param(&mut self, nb: Block, p: Value) -> Lanes {
        let ty = self.ty(p);
        match self.shapes.of(p) {
            Shape::Uniform | Shape::Unknown => {
                Lanes::Uniform(self.out.dfg.append_block_param(nb, ty))
            }
            Shape::Affine {
                stride,
                guarded: false,
            } => Lanes::Affine {
                base: self.out.dfg.append_block_param(nb, ty),
                stride,
                guard: None,
            },
            _ if ty.is_ptr() => Lanes::Scalars(
                (0..self.w)
                    .map(|_| self.out.dfg.append_block_param(nb, ty))
                    .collect(),
            ),
            _ => {
                let wt = self.wide(ty);
                Lanes::Vector(self.out.dfg.append_block_param(nb, wt))
            }
        }
    }

    /// The branch arguments that pass the lanes of `arg` to parameter `p` of a block.
    fn param_args(&mut self, p: Value, arg: Value, out: &mut Vec<Value>) {
        let ty = self.ty(p);
        match self.shapes.of(p) {
            Shape::Uniform | Shape::Unknown => out.push(self.lane(arg, 0)),
            Shape::Affine { .. } => out.push(self.lane(arg, 0)),
            _ if ty.is_ptr() => {
                for i in 0..self.w {
                    out.push(self.lane(arg, i));
                }
            }
            _ => out.push(self.vector(arg)),
        }
    }

    /// The scalar value of lane `i` of `v`.
    fn lane(&mut self, v: Value, i: u32) -> Value {
        match self.lanes(v) {
            Lanes::Uniform(x) => x,
            Lanes::Vector(x) => self.extract(x, i),
            Lanes::Scalars(l) => l[i as usize],
            Lanes::Affine { base, .. } if i == 0 => base,
            Lanes::Affine {
                base,
                stride,
                guard: None,
            } => {
                let ty = self.ty(v);
                let step = stride.wrapping_mul(i64::from(i));
                if ty.is_ptr() {
                    let k = self.iconst(Type::I64, step);
                    self.val(Op::PtrAdd, &[base, k], ty)
                } else {
                    let k = self.iconst(ty, step);
                    self.binary(BinaryOp::Iadd, base, k)
                }
            }
            // Recompute the lane from its operands' lanes, as the scalar kernel does.
            Lanes::Affine { guard: Some(_), .. } => {
                let ValueDef::Result(inst) = self.src.dfg.value_def(v) else {
                    unreachable!("a guarded affine value is an instruction's result");
                };
                let data = self.src.dfg.insts[inst].clone();
                let args: Vec<Value> = data.args.iter().map(|&a| self.lane(a, i)).collect();
                self.val(data.op, &args, self.ty(v))
            }
        }
    }

    /// The W lanes of non-pointer `v` as one vector.
    fn vector(&mut self, v: Value) -> Value {
        let ty = self.ty(v);
        let wt = self.wide(ty);
        match self.lanes(v) {
            Lanes::Vector(x) => x,
            Lanes::Uniform(x) => self.val(Op::Splat, &[x], wt),
            Lanes::Affine {
                base,
                stride,
                guard: None,
            } => {
                let bits = ty.lane_bits();
                let m = if bits >= 64 {
                    u64::MAX
                } else {
                    (1u64 << bits) - 1
                };
                let steps: Vec<u64> = (0..self.w)
                    .map(|i| (stride.wrapping_mul(i64::from(i)) as u64) & m)
                    .collect();
                let s = self.val(Op::Splat, &[base], wt);
                let k = self.val(Op::Vconst(steps.into()), &[], wt);
                self.binary(BinaryOp::Iadd, s, k)
            }
            Lanes::Affine { guard: Some(_), .. } => {
                let ValueDef::Result(inst) = self.src.dfg.value_def(v) else {
                    unreachable!("a guarded affine value is an instruction's result");
                };
                let data = self.src.dfg.insts[inst].clone();
                let args: Vec<Value> = data.args.iter().map(|&a| self.vector(a)).collect();
                self.val(data.op, &args, wt)
            }
            Lanes::Scalars(l) => self.build(&l, ty),
        }
    }

    /// A vector of the scalars `l`.
    fn build(&mut self, l: &[Value], ty: Type) -> Value {
        let wt = self.wide(ty);
        let mut acc = self.val(Op::Undef, &[], wt);
        for (i, &x) in l.iter().enumerate() {
            acc = self.val(Op::InsertLane(i as u8), &[acc, x], wt);
        }
        acc
    }

    /// Lanes from W scalars of type `ty`.
    fn gathered(&mut self, l: Vec<Value>, ty: Type) -> Lanes {
        if ty.is_ptr() {
            Lanes::Scalars(l)
        } else {
            Lanes::Vector(self.build(&l, ty))
        }
    }

    /// Whether every (`all`) or some lane of the mask is set.
    fn reduce(&mut self, m: Value, all: bool) -> Value {
        if all && self.partial == Some(m) {
            // Known not to hold: the code runs where a test of `m` found an inactive lane.
            return self.val(Op::Iconst(0), &[], Type::I1);
        }
        let op = if all { BinaryOp::Band } else { BinaryOp::Bor };
        let mut acc = self.extract(m, 0);
        for i in 1..self.w {
            let x = self.extract(m, i);
            acc = self.binary(op, acc, x);
        }
        acc
    }

    fn and_guard(&mut self, a: Option<Value>, b: Option<Value>) -> Option<Value> {
        match (a, b) {
            (Some(x), Some(y)) => Some(self.binary(BinaryOp::Band, x, y)),
            (x, None) | (None, x) => x,
        }
    }

    /// Runs `f` once per lane, in lane order, each behind a branch on its mask lane when
    /// the mask is partial; a lane that does not run gives `undef`. Returns each lane's
    /// result (none when `ty` is `None`).
    fn per_lane(
        &mut self,
        ty: Option<Type>,
        mut f: impl FnMut(&mut Self, u32) -> Option<Value>,
    ) -> Vec<Value> {
        let mut results = Vec::new();
        for i in 0..self.w {
            match self.mask {
                None => results.extend(f(self, i)),
                Some(m) => {
                    let c = self.extract(m, i);
                    let (run, next) = (self.new_block(), self.new_block());
                    let skip: Vec<Value> =
                        ty.iter().map(|&t| self.val(Op::Undef, &[], t)).collect();
                    self.brif(c, run, &[], next, &skip);
                    self.cur = run;
                    let r: Vec<Value> = f(self, i).into_iter().collect();
                    self.jump(next, &r);
                    self.cur = next;
                    if let Some(t) = ty {
                        results.push(self.out.dfg.append_block_param(next, t));
                    }
                }
            }
        }
        results
    }

    /// `if cond { fast } else { slow }`, each giving values of types `tys`; the values at
    /// the join.
    fn split(
        &mut self,
        cond: Value,
        tys: &[Type],
        fast: impl FnOnce(&mut Self) -> Vec<Value>,
        slow: impl FnOnce(&mut Self) -> Vec<Value>,
    ) -> Vec<Value> {
        // A condition known here (see `reduce`) leaves one side.
        match self.out.dfg.iconst_value(cond) {
            Some(0) => return slow(self),
            Some(_) => return fast(self),
            None => {}
        }
        let (a, b, join) = (self.new_block(), self.new_block(), self.new_block());
        self.brif(cond, a, &[], b, &[]);
        self.cur = a;
        let x = fast(self);
        self.jump(join, &x);
        self.cur = b;
        let y = slow(self);
        self.jump(join, &y);
        self.cur = join;
        tys.iter()
            .map(|&t| self.out.dfg.append_block_param(join, t))
            .collect()
    }

    fn emit_body(&mut self, b: Block) -> Result<(), Refusal> {
        let insts: Vec<Inst> = self.src.layout.block_insts(b).to_vec();
        for &i in &insts {
            if !self.src.dfg.insts[i].op.is_terminator() && !self.ahead.contains(i) {
                self.emit_inst(i)?;
            }
        }
        Ok(())
    }

    fn emit_inst(&mut self, i: Inst) -> Result<(), Refusal> {
        let data = self.src.dfg.insts[i].clone();
        let result = self.src.dfg.inst_result(i);
        match &data.op {
            Op::Barrier(..) => {
                if self.mask.is_some() {
                    return Err(Refusal::new("a barrier under divergent control flow"));
                }
                self.ins(data.op.clone(), &[], None);
                let placed = *self
                    .out
                    .layout
                    .block_insts(self.cur)
                    .last()
                    .expect("placed");
                self.barriers.push((i, placed));
            }
            Op::Fence(..) => {
                self.ins(data.op.clone(), &[], None);
            }
            Op::Load(_) | Op::Store(_) if self.grouped(i) => {}
            Op::Load(flags) => {
                let r = result.expect("a load has a result");
                let lanes = self.load(data.args[0], *flags, self.ty(r));
                self.map[r] = Some(lanes);
            }
            Op::Store(flags) => self.store(data.args[0], data.args[1], *flags),
            Op::AtomicRmw(..) | Op::Cmpxchg(..) | Op::AtomicLoad(_) | Op::AtomicStore(_) => {
                let ty = result.map(|r| self.ty(r));
                let l = self.per_lane(ty, |e, lane| {
                    let args: Vec<Value> = data.args.iter().map(|&a| e.lane(a, lane)).collect();
                    e.ins(data.op.clone(), &args, ty)
                });
                if let (Some(r), Some(t)) = (result, ty) {
                    let lanes = self.gathered(l, t);
                    self.map[r] = Some(lanes);
                }
            }
            _ => {
                let r = result.expect("a pure instruction has a result");
                let lanes = self.pure(&data, r);
                self.map[r] = Some(lanes);
            }
        }
        Ok(())
    }

    /// Whether access `i` is emitted with the other accesses of its OpenCL vector access: at
    /// the first, all of them (where they can be whole vectors); the others are then done.
    /// (A block emitted again, as on each path of a divergent branch, starts them afresh.)
    fn grouped(&mut self, i: Inst) -> bool {
        let Some(g) = self.access_of[i] else {
            return false;
        };
        if self.accesses[g][0] == i {
            for m in &self.accesses[g] {
                self.done.remove(*m);
            }
            return self.vector_access(g);
        }
        self.done.contains(i)
    }

    /// For an extension `ext(trunc(x))` back to `x`'s own type (an `int` made of a `size_t`
    /// id and widened again to index memory), `x`, when no lane's `x` leaves the narrow
    /// type's range (as the extension reads it), so that the two conversions change nothing.
    /// Chunk addresses then step with the loop's counter, without a truncation and extension
    /// per chunk. The range may rest on the x ids' bound, which the extension's own shape
    /// already makes the work-group function check ([`Shapes::assumes_id_limit`]).
    fn lossless_truncation(&self, data: &InstData, ty: Type) -> Option<Value> {
        let Op::Convert(c @ (ConvOp::Sext | ConvOp::Zext)) = data.op else {
            return None;
        };
        let ValueDef::Result(t) = self.src.dfg.value_def(data.args[0]) else {
            return None;
        };
        let trunc = &self.src.dfg.insts[t];
        let wide = *trunc.args.first()?;
        if trunc.op != Op::Convert(ConvOp::Trunc) || self.src.dfg.value_type(wide) != ty {
            return None;
        }
        let bits = self.src.dfg.value_type(data.args[0]).lane_bits();
        let (lo, hi) = self.shapes.range(wide)?;
        let fits = match c {
            ConvOp::Sext => lo >= -(1i128 << (bits - 1)) && hi < 1i128 << (bits - 1),
            _ => lo >= 0 && hi < 1i128 << bits,
        };
        fits.then_some(wide)
    }

    /// `x op d` in 32-bit lanes of type `wt` as `⌊x·m / 2^p⌋` (and `x − q·d` for a
    /// remainder), for the multiplier and shift [`Shapes::narrow_division`] found.
    fn narrow_division(
        &mut self,
        x: Value,
        op: BinaryOp,
        (d, m, p): (u32, u32, u32),
        wt: Type,
    ) -> Value {
        let m = self.iconst(wt, i64::from(m));
        let prod = self.binary(BinaryOp::Imul, x, m);
        let p = self.iconst(wt, i64::from(p));
        let q = self.binary(BinaryOp::Lshr, prod, p);
        if op == BinaryOp::Udiv {
            return q;
        }
        let d = self.iconst(wt, i64::from(d));
        let qd = self.binary(BinaryOp::Imul, q, d);
        self.binary(BinaryOp::Isub, x, qd)
    }

    /// For `min` or `max` (`op`) of an affine operand of `stride` and a uniform bound: whether
    /// the result is the affine operand in every lane of the chunk. Where its lanes do not
    /// wrap they are in order, and the bound is on the right side of all of them when it is
    /// of the extreme one: the smallest lane for a maximum, the largest for a minimum.
    fn bound_untouched(&mut self, op: BinaryOp, data: &InstData, stride: i64) -> Value {
        let (a, u) = match self.lanes(data.args[0]) {
            Lanes::Uniform(_) => (data.args[1], data.args[0]),
            _ => (data.args[0], data.args[1]),
        };
        let ty = self.ty(a);
        let (a0, u) = (self.lane(a, 0), self.lane(u, 0));
        let signed = matches!(op, BinaryOp::Smin | BinaryOp::Smax);
        let stride = crate::vectorize::shape::narrow_stride(stride, ty);
        let in_order = self.no_wrap(a0, stride, signed);
        let maximum = matches!(op, BinaryOp::Smax | BinaryOp::Umax);
        // The lane compared: lane 0 where it is the extreme one, the last lane otherwise.
        let lane = if maximum == (stride > 0) {
            a0
        } else {
            let span = self.iconst(ty, stride.wrapping_mul(i64::from(self.w - 1)));
            self.binary(BinaryOp::Iadd, a0, span)
        };
        let cc = match (maximum, signed) {
            (true, true) => IntCC::Sge,
            (true, false) => IntCC::Uge,
            (false, true) => IntCC::Sle,
            (false, false) => IntCC::Ule,
        };
        let beyond = self.val(Op::Icmp(cc), &[lane, u], Type::I1);
        self.binary(BinaryOp::Band, in_order, beyond)
    }

    /// An instruction without side effects, by the shape of its result.
    fn pure(&mut self, data: &InstData, r: Value) -> Lanes {
        let ty = self.ty(r);
        // A signed division of a value that is never negative, as the cheaper unsigned one.
        let op = match self.shapes.unsigned_division(data) {
            Some(op) => Op::Binary(op),
            None => data.op.clone(),
        };
        match self.shapes.of(r) {
            Shape::Uniform | Shape::Unknown => {
                let args: Vec<Value> = data.args.iter().map(|&a| self.lane(a, 0)).collect();
                Lanes::Uniform(self.val(op, &args, ty))
            }
            Shape::Affine { stride, guarded } => {
                let args: Vec<Value> = data.args.iter().map(|&a| self.lane(a, 0)).collect();
                let base = match self.lossless_truncation(data, ty) {
                    Some(wide) => self.lane(wide, 0),
                    None => self.val(op, &args, ty),
                };
                let mut guard = None;
                for &a in &data.args {
                    if let Lanes::Affine { guard: g, .. } = self.lanes(a) {
                        guard = self.and_guard(guard, g);
                    }
                }
                if guarded {
                    match data.op {
                        Op::Convert(c @ (ConvOp::Sext | ConvOp::Zext)) => {
                            let ok = self.no_wrap(args[0], stride, c == ConvOp::Sext);
                            guard = self.and_guard(guard, Some(ok));
                        }
                        Op::Binary(
                            op
                            @ (BinaryOp::Smin | BinaryOp::Smax | BinaryOp::Umin | BinaryOp::Umax),
                        ) => {
                            let ok = self.bound_untouched(op, data, stride);
                            guard = self.and_guard(guard, Some(ok));
                        }
                        _ => {}
                    }
                }
                Lanes::Affine {
                    base,
                    stride,
                    guard,
                }
            }
            Shape::Varying => {
                let any_ptr = ty.is_ptr() || data.args.iter().any(|&a| self.ty(a).is_ptr());
                // 64-bit integers computed from no vector (a row times a row length): one
                // scalar per lane. They are mostly addresses, taken apart lane by lane, and
                // SIMD has no cheap 64-bit multiply.
                let index = ty == Type::I64
                    && matches!(data.op, Op::Binary(_) | Op::Convert(_))
                    && data
                        .args
                        .iter()
                        .all(|&a| !matches!(self.lanes(a), Lanes::Vector(_)));
                if any_ptr || index {
                    let l: Vec<Value> = (0..self.w)
                        .map(|lane| {
                            let args: Vec<Value> =
                                data.args.iter().map(|&a| self.lane(a, lane)).collect();
                            self.val(data.op.clone(), &args, ty)
                        })
                        .collect();
                    if index {
                        return Lanes::Scalars(l);
                    }
                    return self.gathered(l, ty);
                }
                let args: Vec<Value> = data
                    .args
                    .iter()
                    .enumerate()
                    .map(|(k, &a)| match (&data.op, self.lanes(a)) {
                        (Op::Select, Lanes::Uniform(c)) if k == 0 => c,
                        _ => self.vector(a),
                    })
                    .collect();
                let wt = self.wide(ty);
                if let Some((op, d, m, p)) = self.shapes.narrow_division(self.src, data) {
                    return Lanes::Vector(self.narrow_division(args[0], op, (d, m, p), wt));
                }
                Lanes::Vector(self.val(op, &args, wt))
            }
        }
    }
}
