//! Memory accesses of the W-wide function: uniform addresses stay one access, consecutive
//! ones become whole-vector accesses, and the others run lane by lane (gathers and
//! scatters), each lane behind its mask bit where the mask is partial.

use ferrocl_ir::{IntCC, MemFlags, Op, Type, Value};

use super::{Emitter, Lanes};

impl Emitter<'_> {
    /// The condition under which a whole-vector access at the affine pointer `p` of
    /// elements of `ty` is right: every lane active and no lane's address wrapped. `None`
    /// when no whole-vector access applies; `Some(None)` when it always does.
    fn whole_vector(&mut self, p: Value, ty: Type, flags: MemFlags) -> Option<Option<Value>> {
        let Lanes::Affine { stride, guard, .. } = self.lanes(p) else {
            return None;
        };
        if ty.is_ptr() || stride != i64::from(ty.bytes()) {
            return None;
        }
        if flags.volatile {
            // Each lane makes its own volatile access (none merged).
            return None;
        }
        let active = self.mask.map(|m| self.reduce(m, true));
        Some(self.and_guard(active, guard))
    }

    /// Whether lanes `base + i * stride` (`i < W`) of `base`'s narrow type do not wrap, so
    /// that their sign (`signed`) or zero extensions are still `stride` apart.
    pub(super) fn no_wrap(&mut self, base: Value, stride: i64, signed: bool) -> Value {
        let ty = self.out.dfg.value_type(base);
        let bits = ty.lane_bits();
        let span = stride * i64::from(self.w - 1);
        let (cc, limit) = match (signed, stride > 0) {
            (true, true) => (IntCC::Sle, ((1i64 << (bits - 1)) - 1) - span),
            (true, false) => (IntCC::Sge, (-(1i64 << (bits - 1))) - span),
            (false, true) => {
                let max = if bits >= 64 {
                    u64::MAX
                } else {
                    (1u64 << bits) - 1
                };
                (IntCC::Ule, max.wrapping_sub(span as u64) as i64)
            }
            (false, false) => (IntCC::Uge, -span),
        };
        let k = self.iconst(ty, limit);
        self.val(Op::Icmp(cc), &[base, k], Type::I1)
    }

    pub(super) fn load(&mut self, p: Value, flags: MemFlags, ty: Type) -> Lanes {
        let mask = self.mask;
        if self.shapes.of(p).is_uniform() && !flags.volatile {
            let ptr = self.lane(p, 0);
            let Some(m) = mask else {
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
            let l = e.per_lane(Some(ty), |e, lane| {
                let q = e.lane(p, lane);
                Some(e.val(Op::Load(flags), &[q], ty))
            });
            e.gathered(l, ty)
        };
        match self.whole_vector(p, ty, flags) {
            None => match self.mask {
                None => gather(self),
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
                let base = self.lane(p, 0);
                let whole = |e: &mut Self| e.val(Op::Load(flags), &[base], wt);
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
                let base = self.lane(p, 0);
                let v = self.vector(x);
                let whole = |e: &mut Self| {
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
}
