//! Expressions: rvalues and lvalues (variables, members, elements, vector lanes), casts,
//! operators with C's pointer arithmetic and short-circuit evaluation, and calls (builtins are
//! expanded by [`crate::lower::builtins`]).

use super::*;

impl FnLower<'_, '_, '_> {
    /// Appends the lanes of `v` (a vector's lanes, or the scalar itself) to `lanes`: the parts
    /// of a vector literal or initializer list.
    pub(super) fn push_lanes(&mut self, v: Value, lanes: &mut Vec<Value>) {
        let t = self.b.value_type(v);
        if t.is_vector() {
            for i in 0..t.lanes() {
                lanes.push(self.b.extractlane(v, i as u8));
            }
        } else {
            lanes.push(v);
        }
    }

    /// Element `index` (of type `ty`) of the vector at `addr`, as a place in memory.
    fn element(
        &mut self,
        addr: Value,
        index: Value,
        ty: TypeId,
        align: u32,
        volatile: bool,
    ) -> LVal {
        let es = self.cx.size_of(ty) as i64;
        let k = self.iconst(Type::I64, es);
        let off = self.b.imul(index, k);
        let addr = self.b.ptradd(addr, off);
        LVal::Mem {
            addr,
            ty,
            align: align.min(es as u32).max(1),
            volatile,
        }
    }

    /// The value of an expression that has one.
    pub fn val(&mut self, e: &Expr) -> Res<Value> {
        self.expr(e)?
            .ok_or_else(|| LowerError::new("a void expression used as a value"))
    }

    pub(super) fn var_addr(&mut self, v: VarId) -> Res<Value> {
        let place = match self.places.get(&v) {
            Some(p) => *p,
            None => match self.cx.globals.get(&v) {
                Some(&g) => {
                    let space = self.cx.module.globals[g].space;
                    Place::Global(g, space)
                }
                None => {
                    // A block-scope `extern` declaration names the program-scope variable of
                    // the same name, here or, once linked, in another program.
                    let g = self.cx.external_global(v);
                    Place::Global(g, self.cx.module.globals[g].space)
                }
            },
        };
        Ok(match place {
            Place::Slot(s) => self.b.slot_addr(s),
            Place::Addr(a) => a,
            Place::Global(g, space) => self.b.global_addr(g, space),
        })
    }

    pub fn lvalue(&mut self, e: &Expr) -> Res<LVal> {
        match &e.kind {
            ExprKind::Var(v) => {
                let var = &self.cx.p.vars[v.0 as usize];
                let align = var
                    .align
                    .map_or(self.cx.align_of(e.ty), |a| a as u32)
                    .max(1);
                let volatile = var.ty.is_volatile;
                let addr = self.var_addr(*v)?;
                let align = match self.places.get(v) {
                    Some(Place::Slot(s)) => self.b.func.slots[*s].align,
                    _ => align,
                };
                Ok(LVal::Mem {
                    addr,
                    ty: e.ty,
                    align,
                    volatile,
                })
            }
            ExprKind::Deref(p) => {
                let addr = self.val(p)?;
                let volatile = self.cx.p.types.pointee(p.ty).is_some_and(|q| q.is_volatile);
                Ok(LVal::Mem {
                    addr,
                    ty: e.ty,
                    align: self.cx.align_of(e.ty),
                    volatile,
                })
            }
            ExprKind::StrConst(s) => {
                let size = self.cx.size_of(e.ty);
                let g = self.cx.string_global(s, size);
                let addr = self.b.global_addr(g, IrSpace::Constant);
                Ok(LVal::Mem {
                    addr,
                    ty: e.ty,
                    align: 1,
                    volatile: false,
                })
            }
            ExprKind::CompoundLit(init) => {
                let s = self.new_slot(e.ty, None);
                let addr = self.b.slot_addr(s);
                let align = self.b.func.slots[s].align;
                self.init_store(addr, align, e.ty, init)?;
                Ok(LVal::Mem {
                    addr,
                    ty: e.ty,
                    align,
                    volatile: false,
                })
            }
            ExprKind::Member(base, i) => {
                let (addr, align, volatile) = if base.is_lvalue() {
                    match self.lvalue(base)? {
                        LVal::Mem {
                            addr,
                            align,
                            volatile,
                            ..
                        } => (addr, align, volatile),
                        LVal::Lanes { .. } | LVal::DynLane { .. } => {
                            return self.err("member of vector lanes")
                        }
                    }
                } else {
                    let a = self.val(base)?;
                    (a, self.cx.align_of(base.ty), false)
                };
                let CType::Record(r) = self.cx.ty(base.ty) else {
                    return self.err("member of a non-record");
                };
                let f = &self.cx.p.types.records[*r as usize].fields[*i as usize];
                let (off, fvol) = (f.offset as i64, f.ty.is_volatile);
                let addr = self.offset(addr, off);
                Ok(LVal::Mem {
                    addr,
                    ty: e.ty,
                    align: align_at(align, off),
                    volatile: volatile || fvol,
                })
            }
            ExprKind::Swizzle(base, idx) => match self.lvalue(base)? {
                LVal::Mem {
                    addr,
                    ty,
                    align,
                    volatile,
                } => Ok(LVal::Lanes {
                    addr,
                    vty: ty,
                    align,
                    volatile,
                    lanes: idx.clone(),
                }),
                LVal::Lanes {
                    addr,
                    vty,
                    align,
                    volatile,
                    lanes,
                } => Ok(LVal::Lanes {
                    addr,
                    vty,
                    align,
                    volatile,
                    lanes: idx
                        .iter()
                        .map(|&i| lanes.get(i as usize).copied().unwrap_or(i))
                        .collect(),
                }),
                LVal::DynLane { .. } => self.err("a swizzle of a scalar"),
            },
            ExprKind::VecElem(base, idx) => {
                if !base.is_lvalue() {
                    return self.err("a run-time lane of a vector value is not an lvalue");
                }
                let i = self.int_resize_val(idx)?;
                match self.lvalue(base)? {
                    LVal::Mem {
                        addr,
                        ty,
                        align,
                        volatile,
                    } => {
                        let n = self.reg(ty)?.lanes() as u8;
                        if self.b.value_type(addr).addr_space() == Some(IrSpace::Private) {
                            // Private vectors stay whole (mem2reg promotes them): lanes are
                            // picked and replaced with selects.
                            return Ok(LVal::DynLane {
                                addr,
                                vty: ty,
                                align,
                                volatile,
                                lanes: (0..n).collect(),
                                idx: i,
                            });
                        }
                        Ok(self.element(addr, i, e.ty, align, volatile))
                    }
                    LVal::Lanes {
                        addr,
                        vty,
                        align,
                        volatile,
                        lanes,
                    } => {
                        if self.b.value_type(addr).addr_space() == Some(IrSpace::Private) {
                            return Ok(LVal::DynLane {
                                addr,
                                vty,
                                align,
                                volatile,
                                lanes,
                                idx: i,
                            });
                        }
                        // Shared memory: the element's own address (lane lanes[i]).
                        let mut lane = self.iconst(Type::I64, i64::from(lanes[0]));
                        for (k, &l) in lanes.iter().enumerate().skip(1) {
                            let kv = self.iconst(Type::I64, k as i64);
                            let c = self.b.icmp(IntCC::Eq, i, kv);
                            let lv = self.iconst(Type::I64, i64::from(l));
                            lane = self.b.select(c, lv, lane);
                        }
                        Ok(self.element(addr, lane, e.ty, align, volatile))
                    }
                    LVal::DynLane { .. } => self.err("a lane of a scalar"),
                }
            }
            ExprKind::Cast(CastKind::NoOp, x) => self.lvalue(x),
            _ => self.err("expression is not an lvalue"),
        }
    }

    /// The value of an integer expression as an `i64` (zero- or sign-extended by its type).
    pub fn int_resize_val(&mut self, e: &Expr) -> Res<Value> {
        let v = self.val(e)?;
        let signed = self.cx.is_signed(e.ty);
        Ok(self.int_resize(v, signed, Type::I64))
    }

    pub fn expr(&mut self, e: &Expr) -> Res<Option<Value>> {
        let v = match &e.kind {
            ExprKind::IntConst(v) => {
                let t = self.reg(e.ty)?;
                if t.is_float() {
                    self.fconst(t, *v as i64 as f64)
                } else if t.is_ptr() {
                    self.b.null(t)
                } else if t.lane_type() == Type::I1 {
                    self.iconst(t, (*v != 0) as i64)
                } else {
                    self.iconst(t, *v as i64)
                }
            }
            ExprKind::FloatConst(f) => {
                let t = self.reg(e.ty)?;
                self.fconst(t, *f)
            }
            ExprKind::Var(_)
            | ExprKind::Deref(_)
            | ExprKind::StrConst(_)
            | ExprKind::CompoundLit(_)
            | ExprKind::Member(..) => {
                let lv = self.lvalue(e)?;
                self.load(&lv)?
            }
            ExprKind::Swizzle(base, idx) => {
                if base.is_lvalue() {
                    let lv = self.lvalue(e)?;
                    self.load(&lv)?
                } else {
                    let v = self.val(base)?;
                    self.swizzle_value(v, idx)
                }
            }
            ExprKind::VecElem(base, idx) => {
                if base.is_lvalue() {
                    let lv = self.lvalue(e)?;
                    self.load(&lv)?
                } else {
                    let v = self.val(base)?;
                    let i = self.int_resize_val(idx)?;
                    let n = self.b.value_type(v).lanes() as u8;
                    let lanes: Vec<u8> = (0..n).collect();
                    self.dyn_extract(v, &lanes, i)
                }
            }
            ExprKind::Load(x) => {
                let lv = self.lvalue(x)?;
                self.load(&lv)?
            }
            ExprKind::Cast(k, x) => return self.cast(*k, x, e.ty),
            ExprKind::Unary(op, x) => self.unary(*op, x, e.ty)?,
            ExprKind::Binary(..) => self.binary(e)?,
            ExprKind::PtrAdd(p, i) => {
                let pv = self.val(p)?;
                let iv = self.val(i)?;
                self.ptr_add(pv, iv, p.ty)
            }
            ExprKind::PtrDiff(a, b) => {
                let (av, bv) = (self.val(a)?, self.val(b)?);
                let ia = self.b.ptrtoint(av, Type::I64);
                let ib = self.b.ptrtoint(bv, Type::I64);
                let d = self.b.binary(BinaryOp::Isub, ia, ib);
                let size = self.pointee_size(a.ty);
                let r = if size > 1 {
                    let k = self.iconst(Type::I64, size as i64);
                    self.b.binary(BinaryOp::Sdiv, d, k)
                } else {
                    d
                };
                let t = self.reg(e.ty)?;
                self.int_resize(r, true, t)
            }
            ExprKind::PtrCompare(op, a, b) => {
                let (av, bv) = (self.val(a)?, self.val(b)?);
                let cc = match op {
                    BinOp::Eq => IntCC::Eq,
                    BinOp::Ne => IntCC::Ne,
                    BinOp::Lt => IntCC::Ult,
                    BinOp::Le => IntCC::Ule,
                    BinOp::Gt => IntCC::Ugt,
                    _ => IntCC::Uge,
                };
                let c = self.b.icmp(cc, av, bv);
                let t = self.reg(e.ty)?;
                self.b.convert(ConvOp::Zext, c, t)
            }
            ExprKind::Assign(l, r) => {
                let lv = self.lvalue(l)?;
                let v = self.expr(r)?;
                self.store(&lv, v)?;
                match lv {
                    LVal::Mem { addr, ty, .. } if self.cx.is_aggregate(ty) => addr,
                    _ => v.ok_or_else(|| LowerError::new("void assignment"))?,
                }
            }
            ExprKind::CompoundAssign {
                op,
                lhs,
                rhs,
                compute,
            } => {
                let lv = self.lvalue(lhs)?;
                let old = self.load(&lv)?;
                let new = if self.cx.p.types.is_pointer(*compute) {
                    let iv = self.val(rhs)?;
                    self.ptr_add(old, iv, lhs.ty)
                } else {
                    let oc = self.convert(old, lhs.ty, *compute)?;
                    let product = Self::product_of(rhs, *compute).filter(|_| {
                        (self.cx.p.fma_chains || !self.loop_carried(lhs))
                            && self.may_contract(*op, *compute)
                    });
                    let r = match product {
                        // `z += x * y`, `z -= x * y`.
                        Some((x, y)) => self.fused(x, y, oc, *op, *compute)?,
                        None => {
                            let rv = self.val(rhs)?;
                            self.arith(*op, oc, rv, *compute)?
                        }
                    };
                    self.convert(r, *compute, lhs.ty)?
                };
                self.store(&lv, Some(new))?;
                new
            }
            ExprKind::IncDec { pre, inc, target } => {
                let lv = self.lvalue(target)?;
                let old = self.load(&lv)?;
                let t = self.b.value_type(old);
                let new = if t.is_ptr() {
                    let one = self.iconst(Type::I64, if *inc { 1 } else { -1 });
                    self.ptr_add(old, one, target.ty)
                } else if t.is_float() {
                    let one = self.fconst(t, 1.0);
                    let op = if *inc { BinaryOp::Fadd } else { BinaryOp::Fsub };
                    self.b.binary(op, old, one)
                } else if t == Type::I1 {
                    // C99 6.5.2.4 on _Bool: x++ sets true; x-- flips.
                    let one = self.iconst(t, 1);
                    if *inc {
                        one
                    } else {
                        self.b.binary(BinaryOp::Bxor, old, one)
                    }
                } else {
                    let one = self.iconst(t, 1);
                    let op = if *inc { BinaryOp::Iadd } else { BinaryOp::Isub };
                    let new = self.b.binary(op, old, one);
                    if self.cx.is_signed(target.ty) {
                        self.mark_no_signed_wrap(new);
                    }
                    new
                };
                self.store(&lv, Some(new))?;
                if *pre {
                    new
                } else {
                    old
                }
            }
            ExprKind::Cond(c, a, b) => return self.conditional(c, a, b, e.ty),
            ExprKind::Comma(..) => {
                // A left-deep chain: each left operand in order, with a loop over the spine.
                let mut spine = Vec::new();
                let mut left = e;
                while let ExprKind::Comma(a, b) = &left.kind {
                    spine.push(&**b);
                    left = a;
                }
                self.expr(left)?;
                let last = spine.remove(0);
                while let Some(b) = spine.pop() {
                    self.expr(b)?;
                }
                return self.expr(last);
            }
            ExprKind::Call(callee, args) => return self.call(callee, args, e.ty),
            ExprKind::AddrOf(x) => match self.lvalue(x)? {
                LVal::Mem { addr, .. } => addr,
                LVal::Lanes { .. } | LVal::DynLane { .. } => {
                    return self.err("address of vector lanes")
                }
            },
            ExprKind::VecLit(parts) => {
                let vt = self.reg(e.ty)?;
                let mut lanes = Vec::new();
                for p in parts {
                    let v = self.val(p)?;
                    self.push_lanes(v, &mut lanes);
                }
                if lanes.len() != vt.lanes() as usize {
                    return self.err("vector literal with the wrong number of lanes");
                }
                self.build_vector(vt, &lanes)
            }
            ExprKind::Block(_) => {
                return self.err("block literals (device-side enqueue) are not supported")
            }
            ExprKind::Error => return self.err("an erroneous expression"),
        };
        Ok(Some(v))
    }

    pub(super) fn pointee_size(&self, pt: TypeId) -> u64 {
        match self.cx.p.types.pointee(pt) {
            Some(q) => self.cx.p.types.size_of(q.ty).unwrap_or(1).max(1),
            None => 1,
        }
    }

    /// `p + i` elements of `p`'s pointee type.
    pub(super) fn ptr_add(&mut self, p: Value, i: Value, pt: TypeId) -> Value {
        let i = self.int_resize(i, true, Type::I64);
        let size = self.pointee_size(pt);
        let off = if size == 1 {
            i
        } else {
            let k = self.iconst(Type::I64, size as i64);
            self.b.imul(i, k)
        };
        self.b.ptradd(p, off)
    }

    pub(super) fn cast(&mut self, k: CastKind, x: &Expr, to: TypeId) -> Res<Option<Value>> {
        if k == CastKind::ToVoid {
            self.expr(x)?;
            return Ok(None);
        }
        if k == CastKind::ArrayToPointer {
            return match self.lvalue(x)? {
                LVal::Mem { addr, .. } => Ok(Some(addr)),
                LVal::Lanes { .. } | LVal::DynLane { .. } => self.err("array of vector lanes"),
            };
        }
        if k == CastKind::ToBool && !self.cx.p.types.is_vector(x.ty) {
            // 6.3.1.2 (C99): compares unequal to 0; comparisons give their i1 directly.
            return Ok(Some(self.cond(x)?));
        }
        if k == CastKind::NullToPointer {
            if !matches!(x.kind, ExprKind::IntConst(_)) {
                self.expr(x)?;
            }
            let t = self.reg(to)?;
            return Ok(Some(self.b.null(t)));
        }
        let v = self.val(x)?;
        let tt = self.reg(to)?;
        let r = match k {
            CastKind::IntToInt
            | CastKind::IntToFloat
            | CastKind::FloatToInt
            | CastKind::FloatToFloat
            | CastKind::Splat => self.convert(v, x.ty, to)?,
            CastKind::ToBool => {
                if self.b.value_type(v).is_ptr() {
                    let n = self.b.null(self.b.value_type(v));
                    self.b.icmp(IntCC::Ne, v, n)
                } else {
                    self.truth(v)
                }
            }
            CastKind::PointerCast => v,
            CastKind::ToGeneric | CastKind::FromGeneric => {
                if self.b.value_type(v) == tt {
                    v
                } else {
                    let space = tt.addr_space().unwrap_or(IrSpace::Generic);
                    self.b.addrcast(v, space)
                }
            }
            CastKind::PointerToInt => {
                let i = self.b.ptrtoint(v, Type::I64);
                self.int_resize(i, false, tt)
            }
            CastKind::IntToPointer => {
                let signed = self.cx.is_signed(x.ty);
                let i = self.int_resize(v, signed, Type::I64);
                self.b.inttoptr(i, tt)
            }
            CastKind::NoOp => {
                let t = self.b.value_type(v);
                if t == tt || t.is_ptr() || tt.is_ptr() || self.cx.is_aggregate(to) {
                    v
                } else if t.is_int() && tt.is_int() {
                    let signed = self.cx.is_signed(x.ty);
                    self.int_resize(v, signed, tt)
                } else {
                    v
                }
            }
            CastKind::ToVoid | CastKind::ArrayToPointer | CastKind::NullToPointer => {
                unreachable!("handled above")
            }
        };
        Ok(Some(r))
    }

    pub(super) fn unary(&mut self, op: UnaryOp, x: &Expr, rt: TypeId) -> Res<Value> {
        let v = self.val(x)?;
        let t = self.b.value_type(v);
        Ok(match op {
            UnaryOp::Neg => {
                if t.is_float() {
                    self.b.unary(IrUnary::Fneg, v)
                } else {
                    self.b.unary(IrUnary::Ineg, v)
                }
            }
            UnaryOp::BitNot => self.b.unary(IrUnary::Bnot, v),
            UnaryOp::LogNot => {
                let z = self.zero(t);
                let c = if t.is_float() {
                    self.b.fcmp(FloatCC::Oeq, v, z)
                } else {
                    self.b.icmp(IntCC::Eq, v, z)
                };
                let rty = self.reg(rt)?;
                // 6.5.8: `!` gives int 1/0 on scalars, -1/0 on vectors.
                if t.is_vector() {
                    self.b.convert(ConvOp::Sext, c, rty)
                } else {
                    self.b.convert(ConvOp::Zext, c, rty)
                }
            }
        })
    }

    /// An arithmetic operation on values of type `t` (already converted).
    pub(super) fn arith(&mut self, op: BinOp, a: Value, b: Value, t: TypeId) -> Res<Value> {
        let float = self.cx.is_float(t);
        let signed = self.cx.is_signed(t);
        let bop = match (op, float) {
            (BinOp::Add, true) => BinaryOp::Fadd,
            (BinOp::Sub, true) => BinaryOp::Fsub,
            (BinOp::Mul, true) => BinaryOp::Fmul,
            // 7.4, Table 65: "x / y ≤ 2.5 ulp" unless correct rounding is asked for.
            (BinOp::Div, true) if self.cx.p.correctly_rounded_divide_sqrt => BinaryOp::Fdiv,
            (BinOp::Div, true) => BinaryOp::FdivRelaxed,
            (BinOp::Add, false) => BinaryOp::Iadd,
            (BinOp::Sub, false) => BinaryOp::Isub,
            (BinOp::Mul, false) => BinaryOp::Imul,
            (BinOp::Div, false) if signed => BinaryOp::Sdiv,
            (BinOp::Div, false) => BinaryOp::Udiv,
            (BinOp::Rem, false) if signed => BinaryOp::Srem,
            (BinOp::Rem, false) => BinaryOp::Urem,
            (BinOp::BitAnd, false) => BinaryOp::Band,
            (BinOp::BitOr, false) => BinaryOp::Bor,
            (BinOp::BitXor, false) => BinaryOp::Bxor,
            // 6.5.10: shift amounts are taken modulo the width (the IR masks).
            (BinOp::Shl, false) => BinaryOp::Shl,
            (BinOp::Shr, false) if signed => BinaryOp::Ashr,
            (BinOp::Shr, false) => BinaryOp::Lshr,
            _ => return self.err(format!("operator {op:?} on these operands")),
        };
        let bt = self.b.value_type(b);
        let at = self.b.value_type(a);
        let b = if at.is_vector() && !bt.is_vector() {
            self.b.splat(b, at.lanes())
        } else {
            b
        };
        let r = self.b.binary(bop, a, b);
        if signed {
            self.mark_no_signed_wrap(r);
        }
        Ok(r)
    }

    /// Marks `r`, the result of a signed type's `+`, `-` or `*`, as one that does not wrap
    /// (C99 6.5p5: "If an exceptional condition occurs during the evaluation of an expression
    /// (that is, if the result is not mathematically defined or not in the range of
    /// representable values for its type), the behavior is undefined."). Only scalar 32-bit
    /// results: the mark serves the sign extension of an `int` index (`passes::widen`).
    pub(super) fn mark_no_signed_wrap(&mut self, r: Value) {
        if self.b.value_type(r) != Type::I32 {
            return;
        }
        if let ferrocl_ir::dfg::ValueDef::Result(i) = self.b.func.dfg.value_def(r) {
            if matches!(
                self.b.func.dfg.insts[i].op,
                ferrocl_ir::Op::Binary(BinaryOp::Iadd | BinaryOp::Isub | BinaryOp::Imul)
            ) {
                self.b.func.no_signed_wrap.insert(i);
            }
        }
    }

    /// A binary operator `e`. A left-deep chain of arithmetic operators (`a + b + c + ...`) is
    /// lowered with a loop over its left spine, operands in order, so that its length takes
    /// no stack.
    pub(super) fn binary(&mut self, e: &Expr) -> Res<Value> {
        let ExprKind::Binary(op, a, b) = &e.kind else {
            unreachable!("binary() of a binary operator")
        };
        let (op, rt) = (*op, e.ty);
        if matches!(op, BinOp::LogAnd | BinOp::LogOr) {
            return self.logical(op, a, b, rt);
        }
        if op.is_comparison() {
            let c = self.compare(op, a, b)?;
            let t = self.reg(rt)?;
            // 6.5.6: scalar relational and equality operators give int 1/0; on vectors
            // each lane is -1 (all bits set) or 0.
            return Ok(if t.is_vector() {
                self.b.convert(ConvOp::Sext, c, t)
            } else {
                self.b.convert(ConvOp::Zext, c, t)
            });
        }
        let arith = |op: BinOp| !matches!(op, BinOp::LogAnd | BinOp::LogOr) && !op.is_comparison();
        let (left, mut spine) = crate::sema::tree::binary_spine(e, arith);
        let mut acc = self.val(left)?;
        while let Some((op, b, ty)) = spine.pop() {
            // A product that is the left operand of `+` or `-`: `x * y + z`, `x * y - z`.
            if let Some(&(add, c, sum_ty)) = spine.last() {
                if op == BinOp::Mul && sum_ty == ty && self.may_contract(add, ty) {
                    spine.pop();
                    let y = self.val(b)?;
                    let z = self.val(c)?;
                    acc = self.fused_values(acc, y, z, false, add == BinOp::Sub, ty)?;
                    continue;
                }
            }
            // A product that is the right operand: `z + x * y`, `z - x * y`.
            if let Some((x, y)) = Self::product_of(b, ty).filter(|_| self.may_contract(op, ty)) {
                acc = self.fused(x, y, acc, op, ty)?;
                continue;
            }
            let bv = self.val(b)?;
            acc = self.arith(op, acc, bv, ty)?;
        }
        Ok(acc)
    }

    /// Whether `z op x * y` (or `x * y op z`) of type `t` may be one fused multiply-add here:
    /// `op` is `+` or `-`, `t` is float or double (scalar or vector), `#pragma OPENCL
    /// FP_CONTRACT` leaves contraction on (6.15.2.1: "The DEFAULT value is ON") or
    /// `-cl-mad-enable` allows it anyway (API 5.8.6.3: "Allow a * b + c to be replaced by a
    /// mad instruction", and a full profile mad may be the fma, OpenCL C 7.4), and the
    /// device's fma is fast (contraction is permitted, never required).
    fn may_contract(&self, op: BinOp, t: TypeId) -> bool {
        matches!(op, BinOp::Add | BinOp::Sub)
            && (self.fp_contract || self.cx.p.mad_enable)
            && self.cx.p.fast_fma
            && self
                .cx
                .reg_type(t)
                .is_some_and(|r| matches!(r.lane_type(), Type::F32 | Type::F64))
    }

    /// Whether `lhs` of `lhs += x * y` is a variable declared outside the innermost loop around
    /// the statement: an accumulator whose additions form a chain through the loop. Such a
    /// chain is not contracted (contraction is permitted, never required): each step would
    /// wait for a fused multiply-add instead of an add, the multiplications being off the
    /// chain, and the fused operation has the longer latency on x86-64 (4 cycles against 3
    /// on AMD Zen 3 and 4; GCC's x86 tuning `avoid_fma_chains` keeps such chains unfused for
    /// the same reason): the bench's sgemm took 18% more time with its `acc += a * b`
    /// contracted. A chain through the product (`a = a * v + c`, Horner's rule) is
    /// contracted: there the fused operation is the shorter.
    fn loop_carried(&self, lhs: &Expr) -> bool {
        let ExprKind::Var(v) = lhs.kind else {
            return false;
        };
        self.decl_loops.get(&v).copied().unwrap_or(0) < self.loop_depth()
    }

    /// The factors of `e` when it is a multiplication of type `t` itself: a product reached
    /// through a variable, a conversion or a comma is not one (C99 6.5p8 contracts within
    /// one expression only).
    fn product_of(e: &Expr, t: TypeId) -> Option<(&Expr, &Expr)> {
        match &e.kind {
            ExprKind::Binary(BinOp::Mul, x, y) if e.ty == t => Some((x, y)),
            _ => None,
        }
    }

    /// `z + x * y` or `z - x * y` (`op`), rounded once.
    fn fused(&mut self, x: &Expr, y: &Expr, z: Value, op: BinOp, t: TypeId) -> Res<Value> {
        let xv = self.val(x)?;
        let yv = self.val(y)?;
        self.fused_values(xv, yv, z, op == BinOp::Sub, false, t)
    }

    /// `x * y + z` as one `fma` of type `t`, with the product (`negate_product`) or the addend
    /// (`negate_addend`) negated first (negation is exact); a scalar operand of a vector
    /// operation is splatted.
    fn fused_values(
        &mut self,
        x: Value,
        y: Value,
        z: Value,
        negate_product: bool,
        negate_addend: bool,
        t: TypeId,
    ) -> Res<Value> {
        let rt = self.reg(t)?;
        let mut ops = [x, y, z];
        for v in &mut ops {
            if rt.is_vector() && !self.b.value_type(*v).is_vector() {
                *v = self.b.splat(*v, rt.lanes());
            }
        }
        let [mut x, y, mut z] = ops;
        if negate_product {
            x = self.b.unary(IrUnary::Fneg, x);
        }
        if negate_addend {
            z = self.b.unary(IrUnary::Fneg, z);
        }
        Ok(self.b.fma(x, y, z))
    }

    /// A comparison as `i1` (lanes).
    pub(super) fn compare(&mut self, op: BinOp, a: &Expr, b: &Expr) -> Res<Value> {
        let av = self.val(a)?;
        let bv = self.val(b)?;
        {
            let float = self.cx.is_float(a.ty);
            let signed = self.cx.is_signed(a.ty);
            let c = if float {
                let cc = match op {
                    BinOp::Eq => FloatCC::Oeq,
                    BinOp::Ne => FloatCC::Une,
                    BinOp::Lt => FloatCC::Olt,
                    BinOp::Le => FloatCC::Ole,
                    BinOp::Gt => FloatCC::Ogt,
                    _ => FloatCC::Oge,
                };
                self.b.fcmp(cc, av, bv)
            } else {
                let cc = match (op, signed) {
                    (BinOp::Eq, _) => IntCC::Eq,
                    (BinOp::Ne, _) => IntCC::Ne,
                    (BinOp::Lt, true) => IntCC::Slt,
                    (BinOp::Le, true) => IntCC::Sle,
                    (BinOp::Gt, true) => IntCC::Sgt,
                    (BinOp::Ge, true) => IntCC::Sge,
                    (BinOp::Lt, false) => IntCC::Ult,
                    (BinOp::Le, false) => IntCC::Ule,
                    (BinOp::Gt, false) => IntCC::Ugt,
                    _ => IntCC::Uge,
                };
                self.b.icmp(cc, av, bv)
            };
            Ok(c)
        }
    }

    pub(super) fn logical(&mut self, op: BinOp, a: &Expr, b: &Expr, rt: TypeId) -> Res<Value> {
        let t = self.reg(rt)?;
        if t.is_vector() {
            // 6.5.7: on vectors both operands are evaluated; lanes give -1 or 0.
            let av = self.val(a)?;
            let bv = self.val(b)?;
            let (za, zb) = (
                self.zero(self.b.value_type(av)),
                self.zero(self.b.value_type(bv)),
            );
            let ca = if self.b.value_type(av).is_float() {
                self.b.fcmp(FloatCC::Une, av, za)
            } else {
                self.b.icmp(IntCC::Ne, av, za)
            };
            let cb = if self.b.value_type(bv).is_float() {
                self.b.fcmp(FloatCC::Une, bv, zb)
            } else {
                self.b.icmp(IntCC::Ne, bv, zb)
            };
            let sa = self.b.convert(ConvOp::Sext, ca, t);
            let sb = self.b.convert(ConvOp::Sext, cb, t);
            let bop = if op == BinOp::LogAnd {
                BinaryOp::Band
            } else {
                BinaryOp::Bor
            };
            return Ok(self.b.binary(bop, sa, sb));
        }
        let r = self.logical_i1(op, a, b)?;
        Ok(self.b.convert(ConvOp::Zext, r, t))
    }

    /// Scalar `&&` / `||` as an `i1`. 6.5.7 / C99 6.5.13: the right operand is evaluated
    /// only when needed.
    /// Scalar `a && b` or `a || b` as an `i1`, short-circuiting. A left-deep chain of them
    /// (`a && b && c || ...`) is lowered with a loop over its left spine.
    pub(super) fn logical_i1(&mut self, op: BinOp, a: &Expr, b: &Expr) -> Res<Value> {
        let mut spine = vec![(op, b)];
        let mut left = a;
        loop {
            match &left.kind {
                // What `cond` would see through: a scalar converted to bool.
                ExprKind::Cast(CastKind::ToBool, x) if !self.cx.p.types.is_vector(x.ty) => {
                    left = x;
                }
                ExprKind::Binary(op @ (BinOp::LogAnd | BinOp::LogOr), a, b)
                    if !self.cx.p.types.is_vector(left.ty) =>
                {
                    spine.push((*op, &**b));
                    left = a;
                }
                _ => break,
            }
        }
        let mut acc = self.cond(left)?;
        while let Some((op, b)) = spine.pop() {
            acc = self.short_circuit(op, acc, b)?;
        }
        Ok(acc)
    }

    /// `ca op b` where `ca` is the left operand's truth, already computed.
    fn short_circuit(&mut self, op: BinOp, ca: Value, b: &Expr) -> Res<Value> {
        let rhs = self.b.create_block();
        let done = self.b.create_block();
        let r = self.b.append_block_param(done, Type::I1);
        if op == BinOp::LogAnd {
            let f = self.iconst(Type::I1, 0);
            self.b.brif(ca, rhs, &[], done, &[f]);
        } else {
            let tr = self.iconst(Type::I1, 1);
            self.b.brif(ca, done, &[tr], rhs, &[]);
        }
        self.b.switch_to_block(rhs);
        let cb = self.cond(b)?;
        self.b.jump(done, &[cb]);
        self.b.switch_to_block(done);
        Ok(r)
    }

    pub(super) fn conditional(
        &mut self,
        c: &Expr,
        a: &Expr,
        b: &Expr,
        rt: TypeId,
    ) -> Res<Option<Value>> {
        if self.cx.p.types.is_vector(c.ty) {
            // 6.5.15: a vector condition is select(b, a, c): lanes whose condition has the
            // most significant bit set take `a`.
            let cv = self.val(c)?;
            let av = self.val(a)?;
            let bv = self.val(b)?;
            let z = self.zero(self.b.value_type(cv));
            let m = self.b.icmp(IntCC::Slt, cv, z);
            return Ok(Some(self.b.select(m, av, bv)));
        }
        let cond = self.cond(c)?;
        let then_b = self.b.create_block();
        let else_b = self.b.create_block();
        let done = self.b.create_block();
        let agg = self.cx.is_aggregate(rt);
        let tmp = if agg { Some(self.temp(rt)) } else { None };
        let param = match self.cx.reg_type(rt) {
            Some(t) if !agg => Some(self.b.append_block_param(done, t)),
            _ => None,
        };
        self.b.brif(cond, then_b, &[], else_b, &[]);
        for (blk, arm) in [(then_b, a), (else_b, b)] {
            self.b.switch_to_block(blk);
            let v = self.expr(arm)?;
            if let (Some(t), Some(v)) = (tmp, v) {
                let size = self.cx.size_of(rt);
                let al = self.cx.align_of(rt);
                self.copy(t, v, size, al);
                self.b.jump(done, &[]);
            } else if param.is_some() {
                let v = v.ok_or_else(|| LowerError::new("void arm of ?:"))?;
                self.b.jump(done, &[v]);
            } else {
                self.b.jump(done, &[]);
            }
        }
        self.b.switch_to_block(done);
        Ok(tmp.or(param))
    }

    pub(super) fn call(
        &mut self,
        callee: &Callee,
        args: &[Expr],
        rt: TypeId,
    ) -> Res<Option<Value>> {
        match callee {
            Callee::User(f) => {
                let func = self.cx.funcs[f.0 as usize];
                let mut vals = Vec::new();
                let sret = if self.cx.is_aggregate(rt) {
                    let t = self.temp(rt);
                    vals.push(t);
                    Some(t)
                } else {
                    None
                };
                for a in args {
                    let v = self.val(a)?;
                    if self.cx.is_aggregate(a.ty) {
                        // By value: the callee gets its own copy.
                        let t = self.temp(a.ty);
                        let size = self.cx.size_of(a.ty);
                        let al = self.cx.align_of(a.ty);
                        self.copy(t, v, size, al);
                        vals.push(t);
                    } else {
                        vals.push(v);
                    }
                }
                let ret = self.cx.module.funcs[func].sig.ret;
                let r = self.b.call(func, ret, &vals);
                Ok(sret.or(r))
            }
            Callee::Builtin { builtin, params } => {
                crate::lower::builtins::call(self, *builtin, params, args, rt)
            }
            Callee::Block(_) => self.err("calls of blocks (device-side enqueue) are not supported"),
        }
    }
}
