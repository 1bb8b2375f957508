//! Memory accesses of the W-wide function: uniform addresses stay one access, consecutive
//! ones become whole-vector accesses, and the others run lane by lane (gathers and
//! scatters), each lane behind its mask bit where the mask is partial. The lanes' OpenCL
//! vectors at consecutive addresses (an array of `float4` indexed by the work-item id) are
//! loaded and stored as whole vectors too, their lanes regrouped by shuffles: the `n`
//! components of W vectors are `n` whole vectors in memory, and component `c` of lane `i`
//! is element `i * n + c` of them.

use ferrocl_ir::eval::sext;
use ferrocl_ir::{AddrSpace, BinaryOp, ConvOp, IntCC, MemFlags, Op, Type, Value, ValueDef};

use super::{Emitter, Lanes};
use crate::vectorize::shape::Shape;

/// The largest distance between lanes, in elements, of a load made of whole vectors and
/// shuffles ([`Emitter::strided_load`]); lanes further apart are gathered.
const MAX_LOAD_STRIDE: u32 = 4;

/// Whether a load of `w` lanes `k` elements apart is whole vectors and shuffles rather than a
/// gather: `k` vectors for the `w` lanes, where at most half as many vectors as lanes are
/// loaded (at 4 lanes, four vectors and three shuffles for four lanes save nothing).
pub(crate) fn strided_pays(k: u32, w: u32) -> bool {
    (2..=MAX_LOAD_STRIDE).contains(&k) && 2 * k <= w
}

/// Whether the `n` components of `w` lanes' vectors are regrouped in shared stages
/// ([`Emitter::deinterleave`], [`Emitter::interleave`]) rather than picked one by one: `n` a
/// power of two of at least 4 (two components take one shuffle each either way).
fn shared_stages(n: u32, w: u32) -> bool {
    n >= 4 && n.is_power_of_two() && w % 2 == 0
}

impl Emitter<'_> {
    /// The condition under which a whole-vector access at the affine pointer `p` of
    /// elements of `ty` is right: every lane active and no lane's address wrapped. `None`
    /// when no whole-vector access applies; `Some(None)` when it always does.
    fn whole_vector(&mut self, p: Value, ty: Type, flags: MemFlags) -> Option<Option<Value>> {
        self.dense(p, ty, 1, flags)
    }

    /// [`Self::whole_vector`] for `n` consecutive elements per lane: lane `i`'s at
    /// `p + i * n * bytes`.
    fn dense(&mut self, p: Value, ty: Type, n: u32, flags: MemFlags) -> Option<Option<Value>> {
        let Lanes::Affine { stride, guard, .. } = self.lanes(p) else {
            return None;
        };
        if ty.is_ptr() || stride != i64::from(n * ty.bytes()) {
            return None;
        }
        if flags.volatile {
            // Each lane makes its own volatile access (none merged).
            return None;
        }
        let active = self.mask.map(|m| self.reduce(m, true));
        let guard = guard.filter(|&g| !self.guard_known(g));
        Some(self.and_guard(active, guard))
    }

    /// Whether lanes `base + i * stride` (`i < W`) of `base`'s narrow type do not wrap, so
    /// that their sign (`signed`) or zero extensions are still `stride` apart.
    pub(super) fn no_wrap(&mut self, base: Value, stride: i64, signed: bool) -> Value {
        let (cc, tested, limit, _) = self.wrap_test(base, stride, signed);
        // The bits of the limit in the lane type (an unsigned limit above i64::MAX wraps).
        let k = self.iconst(self.out.dfg.value_type(base), limit as u64 as i64);
        self.val(Op::Icmp(cc), &[tested, k], Type::I1)
    }

    /// The test [`Self::no_wrap`] makes for lanes `base + i * stride`: `tested cc limit`, and
    /// `c` where `tested` is `y` of `base` = `y + c`.
    fn wrap_test(
        &self,
        base: Value,
        stride: i64,
        signed: bool,
    ) -> (IntCC, Value, i128, Option<i128>) {
        let bits = self.out.dfg.value_type(base).lane_bits();
        // In i128: the limits of 64-bit lanes are the ends of i64 and u64.
        let span = i128::from(stride) * i128::from(self.w - 1);
        let half = 1i128 << (bits - 1);
        let (cc, limit) = match (signed, stride > 0) {
            (true, true) => (IntCC::Sle, half - 1 - span),
            (true, false) => (IntCC::Sge, -half - span),
            (false, true) => (IntCC::Ule, 2 * half - 1 - span),
            (false, false) => (IntCC::Uge, -span),
        };
        // Where base is `y + c` (c >= 0, not above the limit): a test of y against the limit
        // less c, which holds only where y + c does not wrap and holds the limit, so it is
        // as sound and only stricter. Every access at y plus a constant (the taps along a
        // stencil's row) is then tested on y, and `strictest` keeps one test of the lot.
        let lowest = if signed { -half } else { 0 };
        match self.plus_constant(base).filter(|_| stride > 0) {
            Some((y, c)) if (0..half).contains(&c) && limit - c >= lowest => {
                (cc, y, limit - c, Some(c))
            }
            _ => (cc, base, limit, None),
        }
    }

    /// Lane 0's address for a whole-vector access through `p`, made where the guards of
    /// `p`'s lanes hold. Where `p` is `q + ext(y + c) * s` (a uniform `q`, a constant scale
    /// `s`) and the guard that the extension does not wrap tests `y` ([`Self::no_wrap`]),
    /// `y + c` does not wrap there: the offset is `ext(y) * s + c * s`, and the accesses at
    /// `y` plus constants (a stencil's taps) share `q + ext(y) * s` and differ by constants,
    /// which the code generator makes displacements. Else lane 0 as everywhere.
    fn whole_base(&mut self, p: Value) -> Value {
        self.split_base(p).unwrap_or_else(|| self.lane(p, 0))
    }

    fn split_base(&mut self, p: Value) -> Option<Value> {
        let src = &self.src.dfg;
        let def = |v: Value| match src.value_def(src.resolve(v)) {
            ValueDef::Result(i) => Some(src.insts[i].clone()),
            _ => None,
        };
        let d = def(p).filter(|d| d.op == Op::PtrAdd)?;
        let (q, o) = (src.resolve(d.args[0]), src.resolve(d.args[1]));
        let constant = |v: Value| src.iconst_value(src.resolve(v));
        let (x, scale) = match def(o).map(|d| (d.op.clone(), d.args)) {
            Some((Op::Binary(BinaryOp::Imul), a)) if constant(a[1]).is_some() => {
                (src.resolve(a[0]), constant(a[1])? as i64)
            }
            Some((Op::Binary(BinaryOp::Shl), a)) if constant(a[1]).is_some_and(|k| k < 32) => {
                (src.resolve(a[0]), 1i64 << constant(a[1])?)
            }
            _ => (o, 1),
        };
        let ext = def(x)?;
        let Op::Convert(conv @ (ConvOp::Sext | ConvOp::Zext)) = ext.op else {
            return None;
        };
        let a = src.resolve(ext.args[0]);
        if !matches!(self.shapes.of(x), Shape::Affine { guarded: true, .. }) {
            return None;
        }
        let (Lanes::Uniform(qu), Lanes::Affine { stride, .. }) = (self.lanes(q), self.lanes(x))
        else {
            return None;
        };
        let a0 = self.lane(a, 0);
        let (_, y, _, Some(c)) = self.wrap_test(a0, stride, conv == ConvOp::Sext) else {
            return None;
        };
        let wide = self.ty(x);
        let y = self.val(Op::Convert(conv), &[y], wide);
        let k = self.iconst(wide, scale);
        let off = self.binary(BinaryOp::Imul, y, k);
        let row = self.val(Op::PtrAdd, &[qu, off], self.ty(p));
        let k = self.iconst(Type::I64, (c as i64).wrapping_mul(scale));
        Some(self.val(Op::PtrAdd, &[row, k], self.ty(p)))
    }

    /// `(y, cc, k)` where guard `g` is `y cc k` for a constant `k` (read as `cc` reads it)
    /// and `cc` an upper bound (`sle`, `ule`): `no_wrap`'s tests of lanes that count up.
    pub(super) fn bound(&self, g: Value) -> Option<(Value, IntCC, i128)> {
        let ValueDef::Result(i) = self.out.dfg.value_def(g) else {
            return None;
        };
        let d = &self.out.dfg.insts[i];
        let Op::Icmp(cc @ (IntCC::Sle | IntCC::Ule)) = d.op else {
            return None;
        };
        let k = self.out.dfg.iconst_value(d.args[1])?;
        let bits = self.out.dfg.value_type(d.args[0]).lane_bits();
        let k = match cc {
            IntCC::Sle => i128::from(sext(k, bits)),
            _ => i128::from(k),
        };
        Some((d.args[0], cc, k))
    }

    /// Whether guard `g` holds where the code is: one of the versioned block's tested
    /// guards, or `y <= k` where a tested one is `y <= k'` with `k' <= k` (the same test
    /// made again by an instruction emitted in this version).
    pub(super) fn guard_known(&self, g: Value) -> bool {
        if self.known_guards.contains(g) {
            return true;
        }
        let Some((y, cc, k)) = self.bound(g) else {
            return false;
        };
        self.known_bounds
            .iter()
            .any(|&(y2, cc2, k2)| y2 == y && cc2 == cc && k2 <= k)
    }

    /// `(y, c)` where `v` is `iadd y, c` in the output with `c` a constant, read as signed.
    fn plus_constant(&self, v: Value) -> Option<(Value, i128)> {
        let ValueDef::Result(i) = self.out.dfg.value_def(v) else {
            return None;
        };
        let d = &self.out.dfg.insts[i];
        if d.op != Op::Binary(BinaryOp::Iadd) {
            return None;
        }
        let c = self.out.dfg.iconst_value(d.args[1])?;
        let bits = self.out.dfg.value_type(v).lane_bits();
        Some((d.args[0], i128::from(sext(c, bits))))
    }

    /// Of `guards`, those that hold where all of them do: where several compare one value
    /// with constants the same way (`y <= k1`, `y <= k2`: `no_wrap`'s tests), only the
    /// strictest of them; the others as they are, in their order.
    pub(super) fn strictest(&self, guards: &[Value]) -> Vec<Value> {
        let bounds: Vec<_> = guards.iter().map(|&g| self.bound(g)).collect();
        guards
            .iter()
            .zip(&bounds)
            .enumerate()
            .filter(|&(i, (_, b))| {
                let Some((y, cc, k)) = *b else {
                    return true;
                };
                // Kept: the first of the tightest bounds on y.
                bounds.iter().enumerate().all(|(j, other)| match *other {
                    Some((y2, cc2, k2)) if y2 == y && cc2 == cc => k < k2 || (k == k2 && i <= j),
                    _ => true,
                })
            })
            .map(|(_, (&g, _))| g)
            .collect()
    }

    pub(super) fn load(&mut self, p: Value, flags: MemFlags, ty: Type) -> Lanes {
        // A `__local` or `__private` load cannot fault, whatever its address: the code
        // generator confines each such access to the group's own region (`codegen::confine`;
        // it leaves alone only accesses at constant offsets inside a variable). So the lanes
        // that are masked off may load too, lane by lane, with no test of the mask and no
        // branch per lane; their values are never used (blends and masked stores drop them).
        // Not as one whole vector: when lane 0 is masked off and its address is out of
        // bounds, confining the vector's start would move every lane. Volatile loads stay
        // exactly the ones the program makes.
        let speculate =
            !flags.volatile && matches!(flags.space, AddrSpace::Local | AddrSpace::Private);
        let mask = self.mask;
        if self.shapes.of(p).is_uniform() && !flags.volatile {
            let ptr = self.lane(p, 0);
            let Some(m) = mask.filter(|_| !speculate) else {
                return Lanes::Uniform(self.val(Op::Load(flags), &[ptr], ty));
            };
            // Only when some lane runs it: the address may be valid only then.
            let any = self.reduce(m, false);
            let x = self.split(
                any,
                &[ty],
                |e| vec![e.val(Op::Load(flags), &[ptr], ty)],
                |e| vec![e.val(Op::Undef, &[], ty)],
            );
            return Lanes::Uniform(x[0]);
        }
        let gather = |e: &mut Self| {
            let mask = if speculate { e.mask.take() } else { e.mask };
            // Integer lanes are loaded as floats of their width, straight into their lane
            // (an insert that reads memory), and the vector they make is reinterpreted as
            // integers: no general register holds a loaded lane, and those hold the
            // addresses.
            let carrier = match ty {
                _ if e.mask.is_some() || flags.volatile => ty,
                Type::I32 => Type::F32,
                Type::I64 => Type::F64,
                _ => ty,
            };
            if e.mask.is_none() && !ty.is_ptr() {
                // Each lane's address, load and insert in turn: an address is dead once its
                // lane is loaded. Addresses all computed before the first insert keep W
                // general registers busy, and the loop around a rarely taken gather (a
                // guard's lane-by-lane side) spills its own values to make room.
                let wt = e.wide(carrier);
                let mut v = e.val(Op::Undef, &[], wt);
                for lane in 0..e.w {
                    let q = e.lane(p, lane);
                    let x = e.val(Op::Load(flags), &[q], carrier);
                    v = e.val(Op::InsertLane(lane as u8), &[v, x], wt);
                }
                e.mask = mask;
                if carrier != ty {
                    v = e.val(Op::Bitcast, &[v], e.wide(ty));
                }
                return Lanes::Vector(v);
            }
            let l = e.per_lane(Some(carrier), |e, lane| {
                let q = e.lane(p, lane);
                Some(e.val(Op::Load(flags), &[q], carrier))
            });
            e.mask = mask;
            if carrier != ty {
                let v = e.build(&l, carrier);
                let wt = e.wide(ty);
                return Lanes::Vector(e.val(Op::Bitcast, &[v], wt));
            }
            e.gathered(l, ty)
        };
        if let Some(l) = self.strided_load(p, ty, flags, gather) {
            return l;
        }
        match self.whole_vector(p, ty, flags) {
            None => match self.mask {
                None => gather(self),
                Some(_) if speculate => gather(self),
                // Every lane active: the gather needs no branch per lane.
                Some(m) => {
                    let all = self.reduce(m, true);
                    let tys: Vec<Type> = if ty.is_ptr() {
                        vec![ty; self.w as usize]
                    } else {
                        vec![self.wide(ty)]
                    };
                    let flat = |l: Lanes| match l {
                        Lanes::Vector(v) => vec![v],
                        Lanes::Scalars(s) => s,
                        _ => unreachable!("a gather is varying"),
                    };
                    let x = self.split(
                        all,
                        &tys,
                        |e| {
                            e.mask = None;
                            let l = gather(e);
                            e.mask = Some(m);
                            flat(l)
                        },
                        |e| flat(gather(e)),
                    );
                    match x.len() {
                        1 => Lanes::Vector(x[0]),
                        _ => Lanes::Scalars(x),
                    }
                }
            },
            Some(cond) => {
                let wt = self.wide(ty);
                let whole = |e: &mut Self| {
                    let base = e.whole_base(p);
                    e.val(Op::Load(flags), &[base], wt)
                };
                match cond {
                    None => Lanes::Vector(whole(self)),
                    Some(c) => {
                        let x = self.split(
                            c,
                            &[wt],
                            |e| vec![whole(e)],
                            |e| match gather(e) {
                                Lanes::Vector(v) => vec![v],
                                _ => unreachable!("a gather of non-pointers is a vector"),
                            },
                        );
                        Lanes::Vector(x[0])
                    }
                }
            }
        }
    }

    /// A load at lanes `STRIDE` elements apart, 2 to [`MAX_LOAD_STRIDE`] (every other byte
    /// of a row: `row[2 * x + 1]`), as `STRIDE` whole vectors over the elements from lane
    /// 0's to the last lane's, and shuffles that pick the lanes' elements. The last vector
    /// ends at the last lane's element, so that no byte past it is read. `gather` where a
    /// lane is inactive or the lanes' guard fails.
    fn strided_load(
        &mut self,
        p: Value,
        ty: Type,
        flags: MemFlags,
        gather: impl Fn(&mut Self) -> Lanes,
    ) -> Option<Lanes> {
        let Lanes::Affine { stride, .. } = self.lanes(p) else {
            return None;
        };
        let e = ty.bytes();
        let k = u32::try_from(stride).ok().filter(|&s| s % e.max(1) == 0)? / e.max(1);
        if !strided_pays(k, self.w) || ty.is_vector() {
            return None;
        }
        let cond = self.dense(p, ty, k, flags)?;
        let w = self.w;
        let wt = self.wide(ty);
        let base = self.lane(p, 0);
        let fast = |s: &mut Self| {
            let last = (k - 1) * (w - 1);
            let whole: Vec<Value> = (0..k)
                .map(|j| {
                    let start = if j + 1 == k { last } else { j * w };
                    let q = match start {
                        0 => base,
                        _ => {
                            let off = s.iconst(Type::I64, i64::from(start * e));
                            s.val(Op::PtrAdd, &[base, off], s.out.dfg.value_type(base))
                        }
                    };
                    s.val(Op::Load(flags), &[q], wt)
                })
                .collect();
            let picks: Vec<(usize, u32)> = (0..w)
                .map(|i| {
                    let m = i * k;
                    if m < (k - 1) * w {
                        ((m / w) as usize, m % w)
                    } else {
                        ((k - 1) as usize, m - last)
                    }
                })
                .collect();
            s.pick(&whole, &picks)
        };
        let v = match cond {
            None => fast(self),
            Some(c) => self.split(
                c,
                &[wt],
                |s| vec![fast(s)],
                |s| match gather(s) {
                    Lanes::Vector(v) => vec![v],
                    _ => unreachable!("a gather of non-pointers is a vector"),
                },
            )[0],
        };
        Some(Lanes::Vector(v))
    }

    pub(super) fn store(&mut self, x: Value, p: Value, flags: MemFlags) {
        let ty = self.ty(x);
        if self.shapes.of(p).is_uniform() && !flags.volatile {
            let ptr = self.lane(p, 0);
            if self.shapes.of(x).is_uniform() {
                let v = self.lane(x, 0);
                match self.mask {
                    None => {
                        self.ins(Op::Store(flags), &[v, ptr], None);
                    }
                    Some(m) => {
                        let any = self.reduce(m, false);
                        self.split(
                            any,
                            &[],
                            |e| {
                                e.ins(Op::Store(flags), &[v, ptr], None);
                                vec![]
                            },
                            |_| vec![],
                        );
                    }
                }
                return;
            }
            if self.mask.is_none() {
                // The lanes store in lane order: the last one's value stays.
                let v = self.lane(x, self.w - 1);
                self.ins(Op::Store(flags), &[v, ptr], None);
                return;
            }
        }
        let scatter = |e: &mut Self| {
            e.per_lane(None, |e, lane| {
                let v = e.lane(x, lane);
                let q = e.lane(p, lane);
                e.ins(Op::Store(flags), &[v, q], None);
                None
            });
            vec![]
        };
        match self.whole_vector(p, ty, flags) {
            None => match self.mask {
                None => {
                    scatter(self);
                }
                // Every lane active: the scatter needs no branch per lane.
                Some(m) => {
                    let all = self.reduce(m, true);
                    self.split(
                        all,
                        &[],
                        |e| {
                            e.mask = None;
                            scatter(e);
                            e.mask = Some(m);
                            vec![]
                        },
                        |e| scatter(e),
                    );
                }
            },
            Some(cond) => {
                let v = self.vector(x);
                let whole = |e: &mut Self| {
                    let base = e.whole_base(p);
                    e.ins(Op::Store(flags), &[v, base], None);
                    vec![]
                };
                match cond {
                    None => {
                        whole(self);
                    }
                    Some(c) => {
                        self.split(c, &[], whole, scatter);
                    }
                }
            }
        }
    }

    /// The scalar accesses of OpenCL vector access `g` (one vector per lane, `n` lanes of
    /// its own each) as `n` whole-vector accesses and shuffles, when the lanes' vectors lie
    /// one after another; whether it emitted them (with the group's other accesses, which
    /// are then skipped).
    pub(super) fn vector_access(&mut self, g: usize) -> bool {
        let members = self.accesses[g].clone();
        let first = self.src.dfg.insts[members[0]].clone();
        let n = members.len() as u32;
        let (flags, x, p) = match first.op {
            Op::Load(f) => (f, None, first.args[0]),
            Op::Store(f) => (f, Some(first.args[0]), first.args[1]),
            _ => return false,
        };
        let ty = match (x, self.src.dfg.inst_result(members[0])) {
            (Some(x), _) => self.ty(x),
            (None, Some(r)) => self.ty(r),
            (None, None) => return false,
        };
        if n < 2 || self.shapes.of(p).is_uniform() {
            return false;
        }
        let Some(cond) = self.dense(p, ty, n, flags) else {
            return x.is_none() && self.vector_gather(&members, flags, p, ty);
        };
        let wt = self.wide(ty);
        let w = self.w;
        let e = ty.bytes();
        let base = self.lane(p, 0);
        // The address of whole vector `j`, or of component `c` of lane `i`.
        let at = |s: &mut Self, q: Value, bytes: u32| {
            if bytes == 0 {
                return q;
            }
            let k = s.iconst(Type::I64, i64::from(bytes));
            let pty = s.out.dfg.value_type(q);
            s.val(Op::PtrAdd, &[q, k], pty)
        };
        match x {
            None => {
                let fast = |s: &mut Self, record: bool| {
                    let whole: Vec<Value> = (0..n)
                        .map(|j| {
                            let q = at(s, base, j * w * e);
                            s.val(Op::Load(flags), &[q], wt)
                        })
                        .collect();
                    let comps: Vec<Value> = if shared_stages(n, w) {
                        s.deinterleave(&whole)
                    } else {
                        (0..n)
                            .map(|c| {
                                let picks: Vec<(usize, u32)> = (0..w)
                                    .map(|i| (((i * n + c) / w) as usize, (i * n + c) % w))
                                    .collect();
                                s.pick(&whole, &picks)
                            })
                            .collect()
                    };
                    if record {
                        for (c, &v) in (0..n).zip(&comps) {
                            s.regrouped[v] = Some((whole.clone(), c));
                        }
                    }
                    comps
                };
                let slow = |s: &mut Self| {
                    (0..n)
                        .map(|c| {
                            let l = s.per_lane(Some(ty), |s, lane| {
                                let q = s.lane(p, lane);
                                let q = at(s, q, c * e);
                                Some(s.val(Op::Load(flags), &[q], ty))
                            });
                            s.build(&l, ty)
                        })
                        .collect()
                };
                // The whole vectors are known after the loads only when no branch chose them.
                let comps = match cond {
                    None => fast(self, true),
                    Some(c) => self.split(c, &vec![wt; n as usize], |s| fast(s, false), slow),
                };
                for (&m, v) in members.iter().zip(comps) {
                    let r = self.src.dfg.inst_result(m).expect("a load has a result");
                    self.map[r] = Some(Lanes::Vector(v));
                }
            }
            Some(_) => {
                let xs: Vec<Value> = members
                    .iter()
                    .map(|&m| self.src.dfg.insts[m].args[0])
                    .collect();
                let fast = |s: &mut Self| {
                    let comps: Vec<Value> = xs.iter().map(|&x| s.vector(x)).collect();
                    // Vectors as a whole-vector load regrouped them (a copy): stored as loaded.
                    let loaded = s.regrouped[comps[0]]
                        .as_ref()
                        .map(|(whole, _)| whole.clone());
                    let loaded = loaded.filter(|whole| {
                        whole.len() == n as usize
                            && (0..n).zip(&comps).all(|(c, v)| {
                                s.regrouped[*v]
                                    .as_ref()
                                    .is_some_and(|(x, k)| x == whole && *k == c)
                            })
                    });
                    let interleaved = match &loaded {
                        None if shared_stages(n, w) => Some(s.interleave(&comps)),
                        _ => None,
                    };
                    for j in 0..n {
                        let picks: Vec<(usize, u32)> = (0..w)
                            .map(|l| (((j * w + l) % n) as usize, (j * w + l) / n))
                            .collect();
                        let v = match (&loaded, &interleaved) {
                            (Some(whole), _) => whole[j as usize],
                            (None, Some(whole)) => whole[j as usize],
                            (None, None) => s.pick(&comps, &picks),
                        };
                        let q = at(s, base, j * w * e);
                        s.ins(Op::Store(flags), &[v, q], None);
                    }
                    vec![]
                };
                let slow = |s: &mut Self| {
                    for (c, &x) in (0..n).zip(&xs) {
                        s.per_lane(None, |s, lane| {
                            let v = s.lane(x, lane);
                            let q = s.lane(p, lane);
                            let q = at(s, q, c * e);
                            s.ins(Op::Store(flags), &[v, q], None);
                            None
                        });
                    }
                    vec![]
                };
                match cond {
                    None => {
                        fast(self);
                    }
                    Some(c) => {
                        self.split(c, &[], fast, slow);
                    }
                }
            }
        }
        self.done.extend(members);
        true
    }

    /// The loads of OpenCL vector access `members` (`n` components of `ty` per lane, at
    /// addresses that are not consecutive: a strided or gathered `float2`) as one load of
    /// each lane's whole vector, `n` components in one 4- or 8-byte float, where it fits:
    /// the lanes' loads make the `n` whole vectors that a consecutive access would have
    /// loaded (lane `i`'s vector at elements `i * n ..`), regrouped by the same shuffles.
    /// Half the loads and inserts of gathering each component alone for a `float2`.
    fn vector_gather(
        &mut self,
        members: &[ferrocl_ir::Inst],
        flags: MemFlags,
        p: Value,
        ty: Type,
    ) -> bool {
        let n = members.len() as u32;
        let carrier = match n * ty.bytes() {
            4 => Type::F32,
            8 => Type::F64,
            _ => return false,
        };
        let w = self.w;
        // At least two lanes' vectors in each whole vector; the components as the
        // scalarizer laid them out (component c at byte c * size).
        let laid_out = members.iter().enumerate().all(|(c, &m)| {
            let data = &self.src.dfg.insts[m];
            matches!(data.op, Op::Load(f) if f == flags)
                && self.component_at(data.args[0], p, c as u32 * ty.bytes())
        });
        if ty.is_ptr() || flags.volatile || !n.is_power_of_two() || 2 * n > w || !laid_out {
            return false;
        }
        // `__local` and `__private` loads cannot fault (see `load`): every lane loads.
        let speculate = matches!(flags.space, AddrSpace::Local | AddrSpace::Private);
        if self.mask.is_some() && !speculate {
            return false;
        }
        let mask = self.mask.take();
        let lanes = self.per_lane(Some(carrier), |s, lane| {
            let q = s.lane(p, lane);
            Some(s.val(Op::Load(flags), &[q], carrier))
        });
        self.mask = mask;
        let per = w / n;
        let ct = carrier.vector(per).expect("2 to 8 lanes");
        let wt = self.wide(ty);
        let whole: Vec<Value> = lanes
            .chunks(per as usize)
            .map(|c| {
                let mut v = self.val(Op::Undef, &[], ct);
                for (i, &x) in c.iter().enumerate() {
                    v = self.val(Op::InsertLane(i as u8), &[v, x], ct);
                }
                self.val(Op::Bitcast, &[v], wt)
            })
            .collect();
        for (c, &m) in (0..n).zip(members) {
            let picks: Vec<(usize, u32)> = (0..w)
                .map(|i| (((i * n + c) / w) as usize, (i * n + c) % w))
                .collect();
            let v = self.pick(&whole, &picks);
            let r = self.src.dfg.inst_result(m).expect("a load has a result");
            self.map[r] = Some(Lanes::Vector(v));
        }
        self.done.extend(members.iter().copied());
        true
    }

    /// Whether pointer `q` is `p` plus `bytes` (`p` itself for 0), as the scalarizer
    /// addresses a vector's components.
    fn component_at(&self, q: Value, p: Value, bytes: u32) -> bool {
        if bytes == 0 {
            return q == p;
        }
        let ferrocl_ir::ValueDef::Result(i) = self.src.dfg.value_def(q) else {
            return false;
        };
        let data = &self.src.dfg.insts[i];
        matches!(data.op, Op::PtrAdd)
            && data.args[0] == p
            && self.src.dfg.iconst_value(data.args[1]) == Some(u64::from(bytes))
    }

    /// A vector whose lane `i` is lane `picks[i].1` of `srcs[picks[i].0]` (vectors of W
    /// lanes), by shuffles of two vectors: the sources split in halves, each half picked
    /// alone and the two results shuffled together.
    /// The `n` components of the lanes' `n`-element vectors that lie one after another in
    /// whole vectors `vs` (`n` a power of two): the even elements of the whole and the odd
    /// ones split apart (one two-source shuffle per output vector, pairs of neighbours), then
    /// each half split likewise: `n log2 n` shuffles, the first stage's shared by every
    /// component (4 components of 16 lanes: 8, against 12 picked one by one).
    fn deinterleave(&mut self, vs: &[Value]) -> Vec<Value> {
        if vs.len() == 1 {
            return vs.to_vec();
        }
        let wt = self.out.dfg.value_type(vs[0]);
        let w = self.w;
        let mask = |odd: u32| -> Vec<u8> { (0..w).map(|j| (2 * j + odd) as u8).collect() };
        let (mut even, mut odd) = (Vec::new(), Vec::new());
        for pair in vs.chunks(2) {
            even.push(self.val(Op::Shuffle(mask(0).into()), pair, wt));
            odd.push(self.val(Op::Shuffle(mask(1).into()), pair, wt));
        }
        // Component 2c is the even half's component c, 2c + 1 the odd half's.
        let (even, odd) = (self.deinterleave(&even), self.deinterleave(&odd));
        even.into_iter()
            .zip(odd)
            .flat_map(|(e, o)| [e, o])
            .collect()
    }

    /// The inverse of [`Self::deinterleave`]: the whole vectors, one after another, of the
    /// lanes' vectors whose components are `comps`.
    fn interleave(&mut self, comps: &[Value]) -> Vec<Value> {
        if comps.len() == 1 {
            return comps.to_vec();
        }
        let wt = self.out.dfg.value_type(comps[0]);
        let w = self.w;
        let pick = |v: &[Value], parity: usize| -> Vec<Value> {
            v.iter().skip(parity).step_by(2).copied().collect()
        };
        let (even, odd) = (pick(comps, 0), pick(comps, 1));
        let (even, odd) = (self.interleave(&even), self.interleave(&odd));
        // Whole vector k holds elements k w .. (k + 1) w of the even and odd halves zipped:
        // half k % 2 of each half's vector k / 2.
        (0..comps.len())
            .map(|k| {
                let from = (k % 2) as u32 * (w / 2);
                let mask: Vec<u8> = (0..w)
                    .map(|l| (from + l / 2 + if l % 2 == 1 { w } else { 0 }) as u8)
                    .collect();
                let (e, o) = (even[k / 2], odd[k / 2]);
                self.val(Op::Shuffle(mask.into()), &[e, o], wt)
            })
            .collect()
    }

    fn pick(&mut self, srcs: &[Value], picks: &[(usize, u32)]) -> Value {
        let wt = self.out.dfg.value_type(srcs[0]);
        let w = self.w;
        let mut used: Vec<usize> = picks.iter().map(|&(s, _)| s).collect();
        used.sort_unstable();
        used.dedup();
        if let [a, .., b] | [a @ b] = used[..] {
            if used.len() <= 2 {
                let mask: Vec<u8> = picks
                    .iter()
                    .map(|&(s, l)| if s == a { l as u8 } else { (w + l) as u8 })
                    .collect();
                return self.val(Op::Shuffle(mask.into()), &[srcs[a], srcs[b]], wt);
            }
        }
        let (lo, hi) = used.split_at(used.len() / 2);
        let half = |set: &[usize]| -> Vec<(usize, u32)> {
            picks
                .iter()
                .map(|&(s, l)| {
                    if set.contains(&s) {
                        (s, l)
                    } else {
                        (set[0], 0)
                    }
                })
                .collect()
        };
        let (pl, ph) = (half(lo), half(hi));
        let left = self.pick(srcs, &pl);
        let right = self.pick(srcs, &ph);
        let mask: Vec<u8> = picks
            .iter()
            .enumerate()
            .map(|(i, &(s, _))| {
                if lo.contains(&s) {
                    i as u8
                } else {
                    (w as usize + i) as u8
                }
            })
            .collect();
        self.val(Op::Shuffle(mask.into()), &[left, right], wt)
    }
}
