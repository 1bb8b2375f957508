//! The shape of each value across the W lanes of a chunk: W consecutive work-items along
//! dimension 0, whose other ids are equal (Karrenberg and Hack, "Whole-Function
//! Vectorization", CGO 2011, section 4: uniform, consecutive and varying values; the strided
//! case generalizes consecutive).
//!
//! Within a chunk only what depends on the x id differs between lanes: `global_id 0`,
//! `local_id 0` and the linear ids are affine with stride 1; every other work-item query,
//! every kernel argument and every load from a uniform address is uniform. Affine values
//! (`lane i = lane 0 + i * stride`, wrapping in the value's width) stay affine through
//! wrapping ring operations (add, sub, multiplication or shift by a constant, truncation,
//! pointer offsets). A sign or zero extension of an affine value is affine only while no lane
//! wraps in the narrow type; the shape records that as `guarded`, and the code generator
//! checks it at run time where it relies on it.
//!
//! An extension no lane can wrap needs no run-time check: each integer value computed from
//! constants, the local ids and sizes, the x ids and the counters of simple loops gets the
//! range of values it can take in any lane ([`Range`]), where the x ids are below [`ID_LIMIT`]
//! and every local size at most `MAX_WORK_GROUP_SIZE`. The work-group transform runs the
//! W-wide version only in groups where that holds (`Shapes::assumes_id_limit`, checked once
//! per group). A signed division or remainder of a dividend that cannot be negative by a
//! positive constant is the unsigned one, which divides by a constant more cheaply.
//!
//! Control adds the rule of the uniformity analysis (`ferrocl_ir::uniformity`): the
//! parameters of every block between a divergent branch and its immediate post-dominator are
//! varying. A loop that lanes leave at different iterations runs while any lane is active,
//! and a loop under a divergent branch runs under its mask (the code generator linearizes
//! both), so the lanes inside such a loop stay in step: a divergent exit makes only the
//! blocks after the loop joins, and a divergent branch before a loop only the loop's entry
//! (where paths meet there) and what follows the loop; the values the loop passes out go through the exit block's parameters (the
//! code generator puts the kernel in that form first), which are varying.

use ferrocl_ir::analysis::{Cfg, DomTree, Loop, LoopInfo};
use ferrocl_ir::entity::SecondaryMap;
use ferrocl_ir::eval::sext;
use ferrocl_ir::{BinaryOp, Type};
use ferrocl_ir::{Block, ConvOp, Function, IntCC, Op, UnaryOp, Value, ValueDef, WorkItemOp};

/// How a value differs between the lanes of a chunk.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum Shape {
    /// Not reached (yet) by the analysis.
    #[default]
    Unknown,
    /// Equal in every lane.
    Uniform,
    /// `lane i = lane 0 + i * stride` (in elements for integers, bytes for pointers).
    /// `guarded`: only while a run-time condition holds (an extension that did not wrap).
    Affine { stride: i64, guarded: bool },
    /// Anything else.
    Varying,
}

impl Shape {
    fn rank(self) -> u8 {
        match self {
            Shape::Unknown => 0,
            Shape::Uniform => 1,
            Shape::Affine { .. } => 2,
            Shape::Varying => 3,
        }
    }

    /// The shape of a value that may be either (a block parameter's incoming values).
    fn join(self, other: Shape) -> Shape {
        match (self, other) {
            (Shape::Unknown, x) | (x, Shape::Unknown) => x,
            (a, b) if a == b => a,
            _ => Shape::Varying,
        }
    }

    /// The higher of two shapes, so that each value's shape only grows.
    fn raise(self, other: Shape) -> Shape {
        match self.rank().cmp(&other.rank()) {
            std::cmp::Ordering::Less => other,
            std::cmp::Ordering::Greater => self,
            std::cmp::Ordering::Equal if self == other => self,
            std::cmp::Ordering::Equal => Shape::Varying,
        }
    }

    /// Whether every lane holds the same value.
    pub fn is_uniform(self) -> bool {
        matches!(self, Shape::Uniform | Shape::Unknown)
    }
}

/// The bound the W-wide version may assume for `local_id 0`, `local_size 0` and
/// `global_id 0` when it relies on [`Range`]s: a group whose x ids exceed it runs the scalar
/// kernel instead (`crate::workgroup`). 2^30 - 1 leaves `2 * x` and `x` plus or minus any
/// 30-bit constant inside `int`.
pub const ID_LIMIT: u64 = (1 << 30) - 1;

/// The values (as signed integers) an integer value can take in any lane of a chunk.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Range {
    lo: i128,
    hi: i128,
    /// Derived from an x id's bound ([`ID_LIMIT`]).
    ids: bool,
}

impl Range {
    fn exact(c: i128) -> Range {
        Range {
            lo: c,
            hi: c,
            ids: false,
        }
    }

    /// The range, if all of it is representable in `ty` as a signed value (so that no
    /// operation producing it wrapped).
    fn within(self, ty: Type) -> Option<Range> {
        let bits = ty.lane_bits();
        if !(2..=64).contains(&bits) {
            return None;
        }
        let half = 1i128 << (bits - 1);
        (self.lo >= -half && self.hi < half).then_some(self)
    }

    fn combine(a: Range, b: Range, f: impl Fn(i128, i128) -> i128) -> Range {
        let c = [f(a.lo, b.lo), f(a.lo, b.hi), f(a.hi, b.lo), f(a.hi, b.hi)];
        Range {
            lo: *c.iter().min().expect("four corners"),
            hi: *c.iter().max().expect("four corners"),
            ids: a.ids || b.ids,
        }
    }
}

/// The shapes of a function's values and the divergence of its branches.
pub struct Shapes {
    shape: SecondaryMap<Value, Shape>,
    divergent: SecondaryMap<Block, bool>,
    range: SecondaryMap<Value, Option<Range>>,
    /// For each integer value, log2 of a power of two that its lane 0 is a multiple of
    /// ([`alignments`]).
    align: SecondaryMap<Value, u8>,
    assumes_id_limit: bool,
}

impl Shapes {
    /// The shape of `v`.
    pub fn of(&self, v: Value) -> Shape {
        self.shape[v]
    }

    /// The smallest and largest value integer `v` takes in any lane, where known (then no
    /// operation producing it wrapped).
    pub fn range(&self, v: Value) -> Option<(i128, i128)> {
        self.range[v].map(|r| (r.lo, r.hi))
    }

    /// Whether the lanes may leave `b` along different edges.
    pub fn is_divergent(&self, b: Block) -> bool {
        self.divergent[b]
    }

    /// Whether some extension was found not to wrap, or some division to be unsigned, only
    /// because the x ids are below [`ID_LIMIT`] and the local sizes within the largest group.
    pub fn assumes_id_limit(&self) -> bool {
        self.assumes_id_limit
    }

    /// Analyzes `func` for chunks of `width` lanes.
    pub fn new(
        func: &Function,
        cfg: &Cfg,
        dom: &DomTree,
        loops: &LoopInfo,
        ipdom: &SecondaryMap<Block, Option<Block>>,
        width: u32,
    ) -> Shapes {
        let mut s = Shapes {
            shape: SecondaryMap::new(),
            divergent: SecondaryMap::new(),
            range: ranges(func, cfg, dom, loops),
            align: alignments(func, dom, width),
            assumes_id_limit: false,
        };
        let mut sync: SecondaryMap<Block, bool> = SecondaryMap::new();
        if let Some(entry) = func.layout.entry_block() {
            for &p in func.dfg.block_params(entry) {
                s.shape[p] = Shape::Uniform;
            }
        }
        loop {
            let mut changed = false;
            for &b in dom.rpo() {
                if Some(b) != func.layout.entry_block() {
                    for (k, &p) in func.dfg.block_params(b).iter().enumerate() {
                        let mut new = Shape::Unknown;
                        for &(_, t) in cfg.preds(b) {
                            for d in func.dfg.insts[t].op.dests() {
                                if d.block == b {
                                    new = new.join(s.shape[d.args[k]]);
                                }
                            }
                        }
                        if sync[b] || matches!(new, Shape::Affine { guarded: true, .. }) {
                            new = Shape::Varying;
                        }
                        changed |= s.update(p, new);
                    }
                }
                for &i in func.layout.block_insts(b) {
                    if let Some(r) = func.dfg.inst_result(i) {
                        let new = s.transfer(func, i, width);
                        changed |= s.update(r, new);
                    }
                }
                let Some(t) = func.terminator(b) else {
                    continue;
                };
                let data = &func.dfg.insts[t];
                let divergent = matches!(data.op, Op::Brif(_) | Op::Switch(_))
                    && !s.shape[data.args[0]].is_uniform();
                if divergent && !s.divergent[b] {
                    s.divergent[b] = true;
                    changed = true;
                    // Lanes may reach every block before the post-dominator along different
                    // paths: its parameters (and the post-dominator's) are varying.
                    // A loop that lanes leave at different iterations runs while any lane
                    // is active, so the lanes that stay meet no others inside it: only the
                    // exit joins lanes.
                    let stop = ipdom[b];
                    let left: Vec<&Loop> = loops
                        .loops
                        .iter()
                        .filter(|l| {
                            l.blocks.contains(&b)
                                && cfg.succs(b).iter().any(|s| !l.blocks.contains(s))
                        })
                        .collect();
                    let mut work: Vec<Block> = cfg.succs(b).to_vec();
                    let mut seen: SecondaryMap<Block, bool> = SecondaryMap::new();
                    while let Some(x) = work.pop() {
                        if std::mem::replace(&mut seen[x], true)
                            || left.iter().any(|l| l.blocks.contains(&x))
                        {
                            continue;
                        }
                        // A loop entered on the way runs under a mask with its lanes in
                        // step: only its entry (if paths meet there) and its exits join.
                        let entered = loops
                            .loops
                            .iter()
                            .find(|l| l.header == x && !l.blocks.contains(&b));
                        if let Some(l) = entered {
                            let from_outside = cfg
                                .preds(x)
                                .iter()
                                .filter(|(p, _)| !l.blocks.contains(p))
                                .count();
                            if from_outside > 1 {
                                sync[x] = true;
                            }
                            for &y in &l.blocks {
                                seen[y] = true;
                                work.extend(cfg.succs(y).iter().filter(|s| !l.blocks.contains(s)));
                            }
                            continue;
                        }
                        sync[x] = true;
                        if Some(x) != stop {
                            work.extend(cfg.succs(x).iter().copied());
                        }
                    }
                }
            }
            if !changed {
                s.assumes_id_limit = s.extensions_assume_ids(func);
                return s;
            }
        }
    }

    /// Whether an affine extension is unguarded, a signed division made unsigned or an
    /// ordered comparison tested on a chunk's ends only by a range derived from the bounds
    /// that the work-group function checks per group.
    fn extensions_assume_ids(&self, func: &Function) -> bool {
        func.layout.blocks().iter().any(|&b| {
            func.layout.block_insts(b).iter().any(|&i| {
                let data = &func.dfg.insts[i];
                let extension = matches!(data.op, Op::Convert(ConvOp::Sext | ConvOp::Zext))
                    && func.dfg.inst_result(i).is_some_and(|r| {
                        matches!(self.shape[r], Shape::Affine { guarded: false, .. })
                    });
                // An ordered comparison of consecutive lanes may be tested on the ends of
                // the chunk (`emit::control::compare_summary`), which relies on their range.
                let ordered = matches!(data.op, Op::Icmp(cc) if cc != IntCC::Eq && cc != IntCC::Ne)
                    && data.args.iter().any(|&a| {
                        matches!(self.shape[a], Shape::Affine { .. })
                            && self.range[a].is_some_and(|r| r.ids)
                    });
                // An arithmetic shift taken as a logical one by `chunk_division`.
                let shift = matches!(data.op, Op::Binary(BinaryOp::Ashr))
                    && func
                        .dfg
                        .inst_result(i)
                        .is_some_and(|r| self.shape[r] != Shape::Varying);
                let division = self.unsigned_division(data).is_some()
                    || self.narrow_division(func, data).is_some()
                    || shift;
                ordered
                    || (extension || division) && self.range[data.args[0]].is_some_and(|r| r.ids)
            })
        })
    }

    /// For `data`, a signed division or remainder by a positive constant whose dividend is
    /// never negative, the unsigned operation, which gives the same result more cheaply.
    pub fn unsigned_division(&self, data: &ferrocl_ir::InstData) -> Option<BinaryOp> {
        let unsigned = match data.op {
            Op::Binary(BinaryOp::Sdiv) => BinaryOp::Udiv,
            Op::Binary(BinaryOp::Srem) => BinaryOp::Urem,
            _ => return None,
        };
        let (n, d) = (self.range[data.args[0]]?, self.range[data.args[1]]?);
        (n.lo >= 0 && d.lo == d.hi && d.lo > 0).then_some(unsigned)
    }

    /// For a division or remainder of 32-bit integers by a constant `d` ≥ 2 whose dividend
    /// is never negative and at most `hi` (its [`Range`]), where it is unsigned or
    /// [`Shapes::unsigned_division`] makes it so: the unsigned operation, the divisor, and a
    /// multiplier `m` and shift `p` with `⌊n·m / 2^p⌋ = ⌊n / d⌋` and `n·m < 2^32` for every
    /// such n, so that 32-bit lanes divide with one multiplication and one shift. (With
    /// `m = ⌈2^p / d⌉`, `e = m·d − 2^p`: `n·m / 2^p = n/d + n·e / (d·2^p)`, and the second term
    /// stays below `1/d`, too little to reach the next multiple of `1/d`, while `n·e < 2^p`.)
    /// The general form (`workgroup::by_constant`) needs 64-bit lanes, which 128-bit SIMD
    /// multiplies two at a time and without a native instruction.
    pub fn narrow_division(
        &self,
        func: &Function,
        data: &ferrocl_ir::InstData,
    ) -> Option<(BinaryOp, u32, u32, u32)> {
        let op = match (&data.op, self.unsigned_division(data)) {
            (_, Some(op)) => op,
            (Op::Binary(op @ (BinaryOp::Udiv | BinaryOp::Urem)), None) => *op,
            _ => return None,
        };
        if func.dfg.value_type(data.args[0]) != Type::I32 {
            return None;
        }
        let n = self.range[data.args[0]]?;
        let d = match func.dfg.iconst_value(data.args[1]) {
            Some(d) => u64::from(d as u32),
            None => {
                let r = self.range[data.args[1]]?;
                if r.lo != r.hi {
                    return None;
                }
                u64::try_from(r.lo).ok()?
            }
        };
        if n.lo < 0 || !(2..1 << 31).contains(&d) {
            return None;
        }
        let hi = u128::try_from(n.hi).ok()?;
        (0..=32u32).find_map(|p| {
            let m = (1u128 << p).div_ceil(u128::from(d));
            let e = m * u128::from(d) - (1u128 << p);
            (hi * e < 1u128 << p && hi * m < 1u128 << 32).then_some((op, d as u32, m as u32, p))
        })
    }

    /// The shape of `x op 2^k` (a quotient: `x / 2^k`, `x >> k`; a remainder: `x % 2^k`,
    /// `x & (2^k - 1)`) for an affine `x` and a constant divisor. A chunk's lanes `x0 + i·s`
    /// (`s > 0`, `i < W`) with lane 0 a multiple of `2^a` ([`alignments`]: a local x id's is
    /// a multiple of W, since the work-group function places chunks at multiples of W) stay
    /// between two multiples of `2^min(a, k)` when `(W - 1)·s < 2^min(a, k)`, and so between
    /// two multiples of `2^k`: the quotient is the same in every lane and the remainder goes
    /// on with stride `s`. (`j % 16` for `j = get_local_id(0)` in chunks of 4: lanes `r, r +
    /// 1, r + 2, r + 3`, and `j / 16` one value.) A mask that keeps every value `x` can take
    /// (its range) leaves `x` as it is. Signed forms only where `x` is never negative.
    fn chunk_division(
        &self,
        func: &Function,
        data: &ferrocl_ir::InstData,
        op: BinaryOp,
        width: u32,
    ) -> Shape {
        let (x, d) = (data.args[0], data.args[1]);
        let c = match func.dfg.iconst_value(d) {
            Some(c) if self.shape[d].is_uniform() => c,
            _ => return Shape::Varying,
        };
        let ty = func.dfg.value_type(x);
        let bits = ty.lane_bits();
        let c = c & ferrocl_ir::eval::mask(bits);
        let range = self.range[x];
        let non_negative = range.is_some_and(|r| r.lo >= 0);
        if op == BinaryOp::Band && c.wrapping_add(1).is_power_of_two() {
            // A mask of low bits that every lane's value fits in.
            if range.is_some_and(|r| r.lo >= 0 && r.hi <= i128::from(c)) {
                return self.shape[x];
            }
        }
        let log2 = |c: u64| c.is_power_of_two().then(|| c.trailing_zeros());
        // A signed divisor is a power of two below the sign bit.
        let signed = non_negative && c >> (bits - 1) == 0;
        let split = match op {
            BinaryOp::Udiv => log2(c).map(|k| (k, true)),
            BinaryOp::Sdiv if signed => log2(c).map(|k| (k, true)),
            BinaryOp::Urem => log2(c).map(|k| (k, false)),
            BinaryOp::Srem if signed => log2(c).map(|k| (k, false)),
            BinaryOp::Lshr => Some(((c % u64::from(bits)) as u32, true)),
            BinaryOp::Ashr if non_negative => Some(((c % u64::from(bits)) as u32, true)),
            BinaryOp::Band => log2(c.wrapping_add(1)).map(|k| (k, false)),
            _ => None,
        };
        let Some((k, quotient)) = split else {
            return Shape::Varying;
        };
        let Some(stride) = self.chunk_stride(x, k, width) else {
            return Shape::Varying;
        };
        if quotient {
            Shape::Uniform
        } else {
            Shape::Affine {
                stride,
                guarded: false,
            }
        }
    }

    /// The shape of `x < u` or `x >= u` (signed or unsigned) for an affine `x` and a uniform
    /// `u`, both multiples of `2^k` in lane 0 ([`alignments`]). The chunk's lanes `x0 + i·s`
    /// (`s > 0`, `i < W`, `(W - 1)·s < 2^k`) only fill in the low `k` bits of `x0`, so no lane
    /// passes a multiple of `2^k`, and `u` is one: every lane compares as `x0` does, in either
    /// order and however `x0` wrapped. This is the tile test of blocked kernels (CLBlast's
    /// GEMM: `idm = get_local_id(0) * MWID + get_group_id(0) * WGD` against `(M / WGD) * WGD`,
    /// with barriers under it), whose branch is then the same in every lane of a chunk.
    fn chunk_comparison(&self, data: &ferrocl_ir::InstData, cc: IntCC, width: u32) -> Shape {
        let (x, u, cc) = match (self.shape[data.args[0]], self.shape[data.args[1]]) {
            (Shape::Affine { .. }, s) if s.is_uniform() => (data.args[0], data.args[1], cc),
            (s, Shape::Affine { .. }) if s.is_uniform() => {
                (data.args[1], data.args[0], cc.swapped())
            }
            _ => return Shape::Varying,
        };
        let ordered = matches!(cc, IntCC::Slt | IntCC::Ult | IntCC::Sge | IntCC::Uge);
        if ordered
            && self
                .chunk_stride(x, u32::from(self.align[u]), width)
                .is_some()
        {
            Shape::Uniform
        } else {
            Shape::Varying
        }
    }

    /// The stride of `x` where a chunk's lanes of it stay between two multiples of `2^k`:
    /// `x` affine without a guard, its stride `s` positive, and `(W - 1)·s` below `2^k` and
    /// below the power of two its lane 0 is a multiple of ([`alignments`]).
    fn chunk_stride(&self, x: Value, k: u32, width: u32) -> Option<i64> {
        let Shape::Affine {
            stride,
            guarded: false,
        } = self.shape[x]
        else {
            return None;
        };
        let within = k.min(u32::from(self.align[x]));
        (stride > 0 && within < 63 && i64::from(width - 1) * stride < 1i64 << within)
            .then_some(stride)
    }

    fn update(&mut self, v: Value, new: Shape) -> bool {
        let old = self.shape[v];
        let raised = old.raise(new);
        self.shape[v] = raised;
        raised != old
    }

    /// The shape of the result of `inst` from its operands' shapes.
    fn transfer(&self, func: &Function, inst: ferrocl_ir::Inst, width: u32) -> Shape {
        let data = &func.dfg.insts[inst];
        let shapes: Vec<Shape> = data.args.iter().map(|&a| self.shape[a]).collect();
        let affine = |stride: i64, guarded: bool| {
            if stride == 0 && !guarded {
                Shape::Uniform
            } else {
                Shape::Affine { stride, guarded }
            }
        };
        match &data.op {
            Op::WorkItem(w, d) => {
                return match w {
                    WorkItemOp::GlobalId | WorkItemOp::LocalId if *d == 0 => affine(1, false),
                    WorkItemOp::GlobalLinearId | WorkItemOp::LocalLinearId => affine(1, false),
                    _ => Shape::Uniform,
                }
            }
            // Each lane has its own copy of the slot (see `emit::lane_bytes`).
            Op::SlotAddr(slot) => {
                let bytes = super::emit::lane_bytes(&func.slots[*slot]);
                return affine(i64::from(bytes), false);
            }
            // Each lane makes its own volatile access (none merged).
            Op::Load(flags) if flags.volatile => return Shape::Varying,
            Op::Load(_) => {
                return if shapes[0].is_uniform() {
                    Shape::Uniform
                } else {
                    Shape::Varying
                }
            }
            // Each lane's atomic sees the memory its predecessors left.
            Op::AtomicRmw(..) | Op::Cmpxchg(..) | Op::AtomicLoad(_) => return Shape::Varying,
            _ => {}
        }
        if shapes.iter().all(|s| s.is_uniform()) {
            return Shape::Uniform;
        }
        if shapes.contains(&Shape::Varying) {
            return Shape::Varying;
        }
        // Some operands affine, the others uniform.
        let stride = |k: usize| match shapes[k] {
            Shape::Affine { stride, .. } => stride,
            _ => 0,
        };
        let guarded = shapes
            .iter()
            .any(|s| matches!(s, Shape::Affine { guarded: true, .. }));
        let constant = |k: usize| {
            shapes[k]
                .is_uniform()
                .then(|| func.dfg.iconst_value(data.args[k]))
                .flatten()
        };
        match &data.op {
            Op::Binary(BinaryOp::Iadd) | Op::PtrAdd => {
                affine(stride(0).wrapping_add(stride(1)), guarded)
            }
            Op::Binary(BinaryOp::Isub) => affine(stride(0).wrapping_sub(stride(1)), guarded),
            Op::Binary(BinaryOp::Imul) => match (constant(0), constant(1)) {
                (_, Some(c)) => affine(stride(0).wrapping_mul(c as i64), guarded),
                (Some(c), _) => affine(stride(1).wrapping_mul(c as i64), guarded),
                _ => Shape::Varying,
            },
            Op::Binary(BinaryOp::Shl) => match constant(1) {
                Some(c) if shapes[1].is_uniform() => {
                    let bits = func.dfg.value_type(data.args[0]).lane_bits();
                    let k = (c % u64::from(bits)) as u32;
                    affine(stride(0).wrapping_shl(k), guarded)
                }
                _ => Shape::Varying,
            },
            Op::Binary(
                op @ (BinaryOp::Udiv
                | BinaryOp::Urem
                | BinaryOp::Sdiv
                | BinaryOp::Srem
                | BinaryOp::Lshr
                | BinaryOp::Ashr
                | BinaryOp::Band),
            ) => self.chunk_division(func, data, *op, width),
            Op::Icmp(cc) => self.chunk_comparison(data, *cc, width),
            Op::Unary(UnaryOp::Ineg) => affine(stride(0).wrapping_neg(), guarded),
            // The minimum or maximum of an affine value and a uniform bound (a clamped
            // index, `clamp(2 * x - 1, 0, w - 1)`) is the affine value itself in a chunk
            // whose lanes are all on one side of the bound, which one test of the chunk's
            // extreme lane tells when they are in order (`Emitter::pure`); elsewhere the
            // lanes are computed one by one.
            Op::Binary(BinaryOp::Smin | BinaryOp::Smax | BinaryOp::Umin | BinaryOp::Umax) => {
                let ty = func.dfg.value_type(data.args[0]);
                let s = stride(0).wrapping_add(stride(1));
                let one_affine = shapes.iter().filter(|s| s.is_uniform()).count() == 1;
                if one_affine && !ty.is_vector() && extension_fits(ty, narrow_stride(s, ty), width)
                {
                    affine(s, true)
                } else {
                    Shape::Varying
                }
            }
            Op::PtrToInt | Op::IntToPtr | Op::AddrCast | Op::Convert(ConvOp::Trunc) => {
                affine(stride(0), guarded)
            }
            Op::Convert(c @ (ConvOp::Sext | ConvOp::Zext)) => {
                let from = func.dfg.value_type(data.args[0]);
                let s = narrow_stride(stride(0), from);
                // Every lane's value is in the range, which no narrow operation wrapped to
                // reach: the extended lanes are consecutive too.
                let exact =
                    self.range[data.args[0]].is_some_and(|r| *c == ConvOp::Sext || r.lo >= 0);
                if exact {
                    affine(s, guarded)
                } else if extension_fits(from, s, width) {
                    affine(s, true)
                } else {
                    Shape::Varying
                }
            }
            _ => Shape::Varying,
        }
    }
}

/// The [`Range`] of each integer value computed from constants, work-item sizes and ids and
/// the counters of simple loops: one pass in reverse post-order, as every operand is defined
/// in a dominator (a loop counter's range comes from its loop's test, [`counter`]).
fn ranges(
    func: &Function,
    cfg: &Cfg,
    dom: &DomTree,
    loops: &LoopInfo,
) -> SecondaryMap<Value, Option<Range>> {
    let mut range: SecondaryMap<Value, Option<Range>> = SecondaryMap::new();
    let limit = i128::from(ID_LIMIT);
    let group = i128::from(crate::MAX_WORK_GROUP_SIZE as u64);
    for &b in dom.rpo() {
        for (k, &p) in func.dfg.block_params(b).iter().enumerate() {
            range[p] = counter(func, cfg, loops, &range, b, k);
        }
        for &i in func.layout.block_insts(b) {
            let Some(r) = func.dfg.inst_result(i) else {
                continue;
            };
            let ty = func.dfg.value_type(r);
            if !ty.is_int() || ty.is_vector() {
                continue;
            }
            let data = &func.dfg.insts[i];
            let arg = |k: usize| data.args.get(k).and_then(|&a| range[a]);
            let signed = |c: u64| i128::from(sext(c, ty.lane_bits()));
            let ids = |hi: i128| Range {
                lo: 0,
                hi,
                ids: true,
            };
            // The local sizes and ids of every dimension are below the largest group (the
            // runtime refuses larger ones; the work-group function checks it again).
            let local = |lo: i128, hi: i128| Range { lo, hi, ids: true };
            let new = match &data.op {
                Op::Iconst(c) => Some(Range::exact(signed(*c))),
                Op::WorkItem(WorkItemOp::LocalId, _) => Some(local(0, group - 1)),
                Op::WorkItem(WorkItemOp::LocalSize | WorkItemOp::EnqueuedLocalSize, _) => {
                    Some(local(1, group))
                }
                Op::WorkItem(WorkItemOp::GlobalId, 0) => Some(ids(limit)),
                Op::Binary(op) => match (arg(0), arg(1)) {
                    (Some(a), Some(b)) => match op {
                        BinaryOp::Iadd => Some(Range::combine(a, b, |x, y| x + y)),
                        BinaryOp::Isub => Some(Range::combine(a, b, |x, y| x - y)),
                        BinaryOp::Imul => Some(Range::combine(a, b, |x, y| x * y)),
                        BinaryOp::Smin => Some(Range::combine(a, b, i128::min)),
                        // A mask that is a non-negative constant keeps at most its bits.
                        BinaryOp::Band if b.lo == b.hi && b.lo >= 0 => Some(Range {
                            lo: 0,
                            hi: if a.lo >= 0 { a.hi.min(b.lo) } else { b.lo },
                            ids: a.ids,
                        }),
                        BinaryOp::Smax => Some(Range::combine(a, b, i128::max)),
                        BinaryOp::Shl if b.lo == b.hi && (0..32).contains(&b.lo) => {
                            Some(Range::combine(a, b, |x, y| x << y))
                        }
                        // Truncating division of a non-negative range by a positive constant.
                        BinaryOp::Sdiv | BinaryOp::Udiv
                            if a.lo >= 0 && b.lo == b.hi && b.lo > 0 =>
                        {
                            Some(Range::combine(a, b, |x, y| x / y))
                        }
                        BinaryOp::Srem | BinaryOp::Urem
                            if a.lo >= 0 && b.lo == b.hi && b.lo > 0 =>
                        {
                            Some(Range {
                                lo: 0,
                                hi: a.hi.min(b.lo - 1),
                                ids: a.ids,
                            })
                        }
                        _ => None,
                    },
                    _ => None,
                },
                Op::Convert(ConvOp::Trunc | ConvOp::Sext) => arg(0),
                Op::Convert(ConvOp::Zext) => arg(0).filter(|a| a.lo >= 0),
                _ => None,
            };
            range[r] = new.and_then(|x| x.within(ty));
        }
    }
    range
}

/// For each integer value, log2 of a power of two that its value in lane 0 of a chunk is
/// known to be a multiple of: the local x id's is a multiple of `width` (chunks start at
/// multiples of W in every row), a constant's the powers of two dividing it, and sums,
/// products, shifts, masks, quotients and remainders by constants, and conversions keep
/// what they can. One pass in reverse post-order; block parameters are taken as unknown
/// (0).
fn alignments(func: &Function, dom: &DomTree, width: u32) -> SecondaryMap<Value, u8> {
    let mut align: SecondaryMap<Value, u8> = SecondaryMap::new();
    let zeros = |c: u64, bits: u32| {
        (c & ferrocl_ir::eval::mask(bits))
            .trailing_zeros()
            .min(bits)
    };
    for &b in dom.rpo() {
        for &i in func.layout.block_insts(b) {
            let Some(r) = func.dfg.inst_result(i) else {
                continue;
            };
            let ty = func.dfg.value_type(r);
            if !ty.is_int() || ty.is_vector() {
                continue;
            }
            let bits = ty.lane_bits();
            let data = &func.dfg.insts[i];
            let a = |k: usize| u32::from(align[data.args[k]]);
            let constant = |k: usize| func.dfg.iconst_value(data.args[k]);
            let new = match &data.op {
                Op::Iconst(c) => zeros(*c, bits),
                Op::WorkItem(WorkItemOp::LocalId, 0) => width.trailing_zeros(),
                Op::Binary(op) => match op {
                    BinaryOp::Iadd | BinaryOp::Isub => a(0).min(a(1)),
                    BinaryOp::Imul => a(0) + a(1),
                    BinaryOp::Band => a(0).max(a(1)),
                    BinaryOp::Bor | BinaryOp::Bxor => a(0).min(a(1)),
                    BinaryOp::Shl => constant(1).map_or(0, |c| a(0) + (c % u64::from(bits)) as u32),
                    // By a power of two (a shift by a constant is one). A multiple of 2^a
                    // divided by 2^k with k <= a is exact whatever the sign, and its
                    // remainder is a multiple of 2^min(a, k) either way.
                    BinaryOp::Lshr
                    | BinaryOp::Ashr
                    | BinaryOp::Udiv
                    | BinaryOp::Sdiv
                    | BinaryOp::Urem
                    | BinaryOp::Srem => {
                        let k = match (op, constant(1)) {
                            (BinaryOp::Lshr | BinaryOp::Ashr, Some(c)) => {
                                Some((c % u64::from(bits)) as u32)
                            }
                            (_, Some(c)) => {
                                let c = c & ferrocl_ir::eval::mask(bits);
                                (c.is_power_of_two() && c >> (bits - 1) == 0)
                                    .then(|| c.trailing_zeros())
                            }
                            _ => None,
                        };
                        match (op, k) {
                            (BinaryOp::Urem | BinaryOp::Srem, Some(k)) => a(0).min(k),
                            (_, Some(k)) => a(0).saturating_sub(k),
                            _ => 0,
                        }
                    }
                    _ => 0,
                },
                Op::Convert(ConvOp::Trunc | ConvOp::Sext | ConvOp::Zext) => a(0),
                _ => 0,
            };
            align[r] = new.min(bits).min(63) as u8;
        }
    }
    align
}

/// The range of parameter `k` of block `b` where it is a loop counter counting up to a bound:
/// `b` ends in `brif (icmp slt p, n)` (or `sle`, or `ult`/`ule` of non-negative values) whose
/// true edge stays in the loop and false edge leaves it; every value entering from outside
/// has a range, and every value coming back around the loop is `p + c` for a constant c > 0.
/// Then p starts in the entering ranges and grows only from values that passed the test, so
/// it stays below n's bound plus c (which must not wrap).
fn counter(
    func: &Function,
    cfg: &Cfg,
    loops: &LoopInfo,
    range: &SecondaryMap<Value, Option<Range>>,
    b: Block,
    k: usize,
) -> Option<Range> {
    let p = func.dfg.block_params(b)[k];
    let ty = func.dfg.value_type(p);
    if !ty.is_int() || ty.is_vector() {
        return None;
    }
    let t = func.terminator(b)?;
    let Op::Brif(dests) = &func.dfg.insts[t].op else {
        return None;
    };
    let l = loops.loops.iter().find(|l| l.header == b)?;
    if !l.blocks.contains(&dests.0.block) || l.blocks.contains(&dests.1.block) {
        return None;
    }
    // A constant defined in the loop is not visited yet.
    let known = |v: Value| {
        range[v].or_else(|| {
            let c = func.dfg.iconst_value(v)?;
            let bits = func.dfg.value_type(v).lane_bits();
            Some(Range::exact(i128::from(sext(c, bits))))
        })
    };
    let cond = func.dfg.insts[t].args[0];
    let ValueDef::Result(test) = func.dfg.value_def(cond) else {
        return None;
    };
    let Op::Icmp(cc) = func.dfg.insts[test].op else {
        return None;
    };
    let [x, n] = func.dfg.insts[test].args[..] else {
        return None;
    };
    let bound = known(n)?;
    let inclusive = match cc {
        IntCC::Slt | IntCC::Ult if x == p => 0,
        IntCC::Sle | IntCC::Ule if x == p => 1,
        _ => return None,
    };
    let unsigned = matches!(cc, IntCC::Ult | IntCC::Ule);
    let mut lo = i128::MAX;
    let mut hi = i128::MIN;
    let mut ids = bound.ids;
    let mut step = 0;
    for &(pred, term) in cfg.preds(b) {
        for d in func.dfg.insts[term].op.dests() {
            if d.block != b {
                continue;
            }
            let v = d.args[k];
            if l.blocks.contains(&pred) {
                // Around the loop: p + c.
                let ValueDef::Result(add) = func.dfg.value_def(v) else {
                    return None;
                };
                let data = &func.dfg.insts[add];
                if data.op != Op::Binary(BinaryOp::Iadd) {
                    return None;
                }
                let c = match (data.args[0] == p, data.args[1] == p) {
                    (true, _) => known(data.args[1])?,
                    (_, true) => known(data.args[0])?,
                    _ => return None,
                };
                if c.lo != c.hi || c.lo <= 0 {
                    return None;
                }
                step = step.max(c.lo);
            } else {
                let r = known(v)?;
                lo = lo.min(r.lo);
                hi = hi.max(r.hi);
                ids |= r.ids;
            }
        }
    }
    if lo > hi || (unsigned && (lo < 0 || bound.lo < 0)) {
        return None;
    }
    let top = bound.hi - 1 + inclusive + step;
    Range {
        lo,
        hi: hi.max(top),
        ids,
    }
    .within(ty)
}

/// `stride` as the signed value it has in `ty`'s lane width (the lanes wrap in that width).
pub fn narrow_stride(stride: i64, ty: Type) -> i64 {
    let bits = ty.lane_bits();
    if bits >= 64 {
        stride
    } else {
        (stride << (64 - bits)) >> (64 - bits)
    }
}

/// Whether lanes `0..width` of an affine value of type `from` with `stride` span less than
/// half of the type's range, so that one comparison of lane 0 tells whether any lane wraps.
pub fn extension_fits(from: Type, stride: i64, width: u32) -> bool {
    let bits = from.lane_bits();
    let span = i128::from(stride).abs() * i128::from(width - 1);
    bits >= 2 && span < (1i128 << (bits - 1))
}
