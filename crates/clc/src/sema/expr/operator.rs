//! Operators (6.5): unary, binary (with pointer arithmetic and comparisons across address spaces),
//! assignment and the conditional operator, and the modifiable-lvalue rule they share.

use super::*;

impl Sema<'_> {
    pub(super) fn check_modifiable(&mut self, e: &Expr, loc: Loc) -> bool {
        if e.is_error() {
            return false;
        }
        if !e.is_lvalue() {
            self.diags.error(loc, "expression is not assignable");
            return false;
        }
        let q = self.lvalue_qual(e);
        if let ExprKind::Var(v) = &e.kind {
            if self
                .block_stack
                .last()
                .is_some_and(|b| b.captures.contains(v))
            {
                // 6.14.3: captured variables are const copies.
                self.diags.error(
                    loc,
                    "variable is not assignable (missing __block type specifier)",
                );
                return false;
            }
        }
        if let ExprKind::Swizzle(_, lanes) = &e.kind {
            let mut seen = [false; 16];
            for &l in lanes {
                if seen[l as usize & 15] {
                    self.diags.error(
                        loc,
                        "vector is not assignable (contains duplicate components)",
                    );
                    return false;
                }
                seen[l as usize & 15] = true;
            }
        }
        if matches!(self.types.get(e.ty), Type::Array(..)) {
            let tn = self.types.name(e.ty);
            self.diags
                .error(loc, format!("array type '{tn}' is not assignable"));
            return false;
        }
        // 6.11.p: OpenCL C 1.0 without cl_khr_byte_addressable_store cannot write types
        // narrower than 32 bits through pointers, arrays or struct fields.
        if self.opts.version == 100
            && matches!(e.kind, ExprKind::Deref(_) | ExprKind::Member(..))
            && !self
                .cfg
                .extensions
                .iter()
                .any(|x| x == "cl_khr_byte_addressable_store")
        {
            let narrow = match self.types.get(e.ty) {
                Type::Scalar(s) => s.size() < 4 && *s != Scalar::Bool,
                Type::Vector(s, 2) => s.size() == 1,
                _ => false,
            };
            if narrow {
                let tn = self.types.name(e.ty);
                self.diags.error(loc, format!("writes to '{tn}' through a pointer, array or struct field require cl_khr_byte_addressable_store in OpenCL C 1.0"));
                return false;
            }
        }
        if matches!(self.types.get(e.ty), Type::Atomic(_) | Type::AtomicFlag) {
            let tn = self.types.name(e.ty);
            // 6.15.12.10: atomic types are only operated on by the atomic functions.
            self.diags.error(
                loc,
                format!(
                    "operators are not supported on atomic type '{tn}'; use the atomic functions"
                ),
            );
            return false;
        }
        if matches!(self.types.get(e.ty), Type::Image(..) | Type::Sampler) {
            let tn = self.types.name(e.ty);
            self.diags
                .error(loc, format!("cannot assign to a variable of type '{tn}'"));
            return false;
        }
        if q.is_const || q.space == AddrSpace::Constant {
            let msg = match &e.kind {
                ExprKind::Var(v) if q.is_const => {
                    let n = self.vars[v.0 as usize].name.clone();
                    let tn = self.types.qual_name(q);
                    format!("cannot assign to variable '{n}' with const-qualified type '{tn}'")
                }
                // 6.7.3: __constant memory is read-only.
                ExprKind::Var(v) => {
                    let n = self.vars[v.0 as usize].name.clone();
                    format!("cannot assign to variable '{n}' in the __constant address space")
                }
                _ => "read-only variable is not assignable".to_string(),
            };
            self.diags.error(loc, msg);
            return false;
        }
        true
    }

    pub(super) fn unary(&mut self, op: UnOp, x: &ast::Expr, loc: Loc) -> Expr {
        match op {
            UnOp::AddrOf => {
                if let ast::ExprKind::Ident(s) = x.kind {
                    if let Some(Binding::Func(_)) = self.lookup(s) {
                        // 6.11.a: no pointers to functions.
                        self.diags
                            .error(loc, "taking address of function is not allowed");
                        return self.error_expr(loc);
                    }
                }
                let e = self.expr(x);
                if e.is_error() {
                    return e;
                }
                if !e.is_lvalue() {
                    let tn = self.types.name(e.ty);
                    self.diags.error(
                        loc,
                        format!("cannot take the address of an rvalue of type '{tn}'"),
                    );
                    return self.error_expr(loc);
                }
                if let Type::Image(..) | Type::Sampler = self.types.get(e.ty) {
                    let tn = self.types.name(e.ty);
                    // 6.11.b: no pointers to images or samplers.
                    self.diags
                        .error(loc, format!("pointer to type '{tn}' is invalid in OpenCL"));
                    return self.error_expr(loc);
                }
                if let ExprKind::Swizzle(..) | ExprKind::VecElem(..) = e.kind {
                    self.diags.error(loc, "address of vector element requested");
                    return self.error_expr(loc);
                }
                let q = self.lvalue_qual(&e);
                let pty = self.types.pointer(QualType {
                    ty: e.ty,
                    is_restrict: false,
                    ..q
                });
                mk(ExprKind::AddrOf(Box::new(e)), pty, loc)
            }
            UnOp::Deref => {
                let e = self.expr(x);
                let e = self.rvalue(e);
                if e.is_error() {
                    return e;
                }
                match self.types.pointee(e.ty) {
                    Some(p) => {
                        if self.types.is_void(p.ty) {
                            // Dereferencing void* is only allowed as an operand of &.
                        }
                        mk(ExprKind::Deref(Box::new(e)), p.ty, loc)
                    }
                    None => {
                        let tn = self.types.name(e.ty);
                        self.diags.error(
                            loc,
                            format!("indirection requires pointer operand ('{tn}' invalid)"),
                        );
                        self.error_expr(loc)
                    }
                }
            }
            UnOp::PreInc | UnOp::PreDec | UnOp::PostInc | UnOp::PostDec => {
                let e = self.expr(x);
                if !self.check_modifiable(&e, loc) {
                    return self.error_expr(loc);
                }
                if !(self.types.arith(e.ty).is_some() || self.types.is_pointer(e.ty)) {
                    let tn = self.types.name(e.ty);
                    self.diags
                        .error(loc, format!("cannot increment value of type '{tn}'"));
                    return self.error_expr(loc);
                }
                // 6.5.3: "The arithmetic post- and pre-increment and decrement operators (--
                // and ++) operate on built-in scalar and vector types except the built-in
                // scalar and vector float types". Every clang-based compiler accepts them on
                // scalar floats (C's rule, and loops such as `for (float f = 0; f < n; f++)`
                // rely on it), so only float vectors are refused, as clang refuses them.
                if let Some((s, n)) = self
                    .types
                    .arith(e.ty)
                    .filter(|&(s, n)| s.is_float() && n > 1)
                {
                    let tn = self.types.name(e.ty);
                    self.diags.error(
                        loc,
                        format!(
                            "cannot increment value of type '{tn}' (a vector of {n} '{}' values)",
                            s.name()
                        ),
                    );
                    return self.error_expr(loc);
                }
                if self
                    .types
                    .arith(e.ty)
                    .is_some_and(|(s, _)| s == Scalar::Bool)
                {
                    self.diags
                        .error(loc, "cannot increment or decrement a value of type 'bool'");
                }
                let t = e.ty;
                let pre = matches!(op, UnOp::PreInc | UnOp::PreDec);
                let inc = matches!(op, UnOp::PreInc | UnOp::PostInc);
                mk(
                    ExprKind::IncDec {
                        pre,
                        inc,
                        target: Box::new(e),
                    },
                    t,
                    loc,
                )
            }
            UnOp::Neg | UnOp::Plus | UnOp::BitNot | UnOp::Not => {
                let e = self.expr(x);
                let e = self.rvalue(e);
                if e.is_error() {
                    return e;
                }
                let Some((s, _)) = self.types.arith(e.ty) else {
                    if op == UnOp::Not && self.types.is_pointer(e.ty) {
                        let it = self.types.int();
                        let e = self.truth(e);
                        return mk(ExprKind::Unary(UnaryOp::LogNot, Box::new(e)), it, loc);
                    }
                    let tn = self.types.name(e.ty);
                    self.diags.error(
                        loc,
                        format!("invalid argument type '{tn}' to unary expression"),
                    );
                    return self.error_expr(loc);
                };
                match op {
                    UnOp::Not => {
                        let rt = self.bool_result(e.ty);
                        let e = if self.types.is_vector(e.ty) {
                            e
                        } else {
                            self.truth(e)
                        };
                        mk(ExprKind::Unary(UnaryOp::LogNot, Box::new(e)), rt, loc)
                    }
                    UnOp::BitNot if s.is_float() => {
                        let tn = self.types.name(e.ty);
                        self.diags.error(
                            loc,
                            format!("invalid argument type '{tn}' to unary expression"),
                        );
                        self.error_expr(loc)
                    }
                    _ => {
                        let pt = self.promote_ty(e.ty);
                        let e = self.convert_arith(e, pt);
                        match op {
                            UnOp::Plus => e,
                            UnOp::Neg => mk(ExprKind::Unary(UnaryOp::Neg, Box::new(e)), pt, loc),
                            _ => mk(ExprKind::Unary(UnaryOp::BitNot, Box::new(e)), pt, loc),
                        }
                    }
                }
            }
        }
    }

    pub fn binary(&mut self, op: BinOp, a: Expr, b: Expr, loc: Loc) -> Expr {
        if a.is_error() || b.is_error() {
            return self.error_expr(loc);
        }
        let ap = self.types.is_pointer(a.ty);
        let bp = self.types.is_pointer(b.ty);
        if ap || bp {
            return self.pointer_binary(op, a, b, loc);
        }
        let bad = |me: &mut Self, a: &Expr, b: &Expr| {
            me.invalid_operands(a.ty, b.ty, loc);
            me.error_expr(loc)
        };
        if self.types.arith(a.ty).is_none() || self.types.arith(b.ty).is_none() {
            return bad(self, &a, &b);
        }
        match op {
            BinOp::Shl | BinOp::Shr => {
                // 6.5.7: integer operands; the result has the (promoted) left type; a scalar
                // right operand is widened to a vector left operand.
                if !self.types.is_integer(a.ty) || !self.types.is_integer(b.ty) {
                    return bad(self, &a, &b);
                }
                let la = self.types.arith(a.ty).map_or(1, |x| x.1);
                let lb = self.types.arith(b.ty).map_or(1, |x| x.1);
                if la == 1 && lb > 1 {
                    let (x, y) = (self.types.name(a.ty), self.types.name(b.ty));
                    self.diags.error(loc, format!("requested shift is a vector of type '{y}' but the first operand is not a vector ('{x}')"));
                    return self.error_expr(loc);
                }
                if la > 1 && lb > 1 && la != lb {
                    return bad(self, &a, &b);
                }
                let t = self.promote_ty(a.ty);
                let a = self.convert_arith(a, t);
                let b = self.convert_arith(b, t);
                mk(ExprKind::Binary(op, Box::new(a), Box::new(b)), t, loc)
            }
            BinOp::LogAnd | BinOp::LogOr
                if !self.types.is_vector(a.ty) && !self.types.is_vector(b.ty) =>
            {
                // Scalars: both operands become truth values; the result is int 0/1.
                let a = self.truth(a);
                let b = self.truth(b);
                let it = self.types.int();
                mk(ExprKind::Binary(op, Box::new(a), Box::new(b)), it, loc)
            }
            BinOp::LogAnd | BinOp::LogOr => {
                // 6.5.8: vectors lane by lane, -1/0 in the signed integer vector type.
                let Some((a, b, t)) = self.arith_common(a, b, loc) else {
                    return self.error_expr(loc);
                };
                let rt = self.bool_result(t);
                mk(ExprKind::Binary(op, Box::new(a), Box::new(b)), rt, loc)
            }
            _ => {
                let Some((a, b, t)) = self.arith_common(a, b, loc) else {
                    return self.error_expr(loc);
                };
                let (s, _) = self.types.arith(t).unwrap_or((Scalar::Int, 1));
                if matches!(
                    op,
                    BinOp::Rem | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor
                ) && s.is_float()
                {
                    return bad(self, &a, &b);
                }
                if op.is_comparison() {
                    let rt = self.bool_result(t);
                    return mk(ExprKind::Binary(op, Box::new(a), Box::new(b)), rt, loc);
                }
                // Integer promotion of the common scalar type (vectors keep their type).
                let pt = self.promote_ty(t);
                let a = self.convert_arith(a, pt);
                let b = self.convert_arith(b, pt);
                mk(ExprKind::Binary(op, Box::new(a), Box::new(b)), pt, loc)
            }
        }
    }

    pub(super) fn pointer_binary(&mut self, op: BinOp, a: Expr, b: Expr, loc: Loc) -> Expr {
        let ap = self.types.is_pointer(a.ty);
        let bp = self.types.is_pointer(b.ty);
        let bad = |me: &mut Self, a: &Expr, b: &Expr| {
            me.invalid_operands(a.ty, b.ty, loc);
            me.error_expr(loc)
        };
        let pd = self.types.ptrdiff_t();
        // 6.7.9: a named-space pointer meets a generic one in the generic space.
        let (a, b) = if ap && bp {
            self.unify_pointer_spaces(a, b)
        } else {
            (a, b)
        };
        match op {
            BinOp::Add | BinOp::Sub if ap != bp => {
                let (p, i) = if ap { (a, b) } else { (b, a) };
                if !(self.types.is_integer(i.ty) && self.types.is_scalar_arith(i.ty))
                    || (op == BinOp::Sub && !ap)
                {
                    return bad(self, &p, &i);
                }
                self.check_pointer_arith(&p, loc);
                let i = self.convert_arith(i, pd);
                let i = if op == BinOp::Sub {
                    let t = i.ty;
                    mk(ExprKind::Unary(UnaryOp::Neg, Box::new(i)), t, loc)
                } else {
                    i
                };
                let t = p.ty;
                mk(ExprKind::PtrAdd(Box::new(p), Box::new(i)), t, loc)
            }
            BinOp::Sub if ap && bp => {
                let (pa, pb) = (self.types.pointee(a.ty), self.types.pointee(b.ty));
                if pa.map(|p| p.ty) != pb.map(|p| p.ty)
                    || pa.map(|p| p.space) != pb.map(|p| p.space)
                {
                    let (x, y) = (self.types.name(a.ty), self.types.name(b.ty));
                    self.diags.error(
                        loc,
                        format!("'{x}' and '{y}' are not pointers to compatible types"),
                    );
                    return self.error_expr(loc);
                }
                self.check_pointer_arith(&a, loc);
                mk(ExprKind::PtrDiff(Box::new(a), Box::new(b)), pd, loc)
            }
            op if op.is_comparison() => {
                let it = self.types.int();
                let (a, b) = if ap && bp {
                    let (pa, pb) = (
                        self.types.pointee(a.ty).unwrap_or_default(),
                        self.types.pointee(b.ty).unwrap_or_default(),
                    );
                    if pa.space != pb.space {
                        let (x, y) = (self.types.name(a.ty), self.types.name(b.ty));
                        self.diags.error(loc, format!("comparison between  ('{x}' and '{y}') which are pointers to non-overlapping address spaces"));
                        return self.error_expr(loc);
                    }
                    if pa.ty != pb.ty && !self.types.is_void(pa.ty) && !self.types.is_void(pb.ty) {
                        let (x, y) = (self.types.name(a.ty), self.types.name(b.ty));
                        self.diags.warning(
                            loc,
                            format!("comparison of distinct pointer types ('{x}' and '{y}')"),
                        );
                    }
                    let t = a.ty;
                    let b = if b.ty != t {
                        mk(ExprKind::Cast(CastKind::PointerCast, Box::new(b)), t, loc)
                    } else {
                        b
                    };
                    (a, b)
                } else {
                    let (p, i) = if ap { (a, b) } else { (b, a) };
                    if !self.is_null_constant(&i) {
                        let (x, y) = (self.types.name(p.ty), self.types.name(i.ty));
                        self.diags.error(
                            loc,
                            format!("comparison between pointer and integer ('{x}' and '{y}')"),
                        );
                        return self.error_expr(loc);
                    }
                    let t = p.ty;
                    let i = mk(ExprKind::Cast(CastKind::NullToPointer, Box::new(i)), t, loc);
                    if ap {
                        (p, i)
                    } else {
                        (i, p)
                    }
                };
                mk(ExprKind::PtrCompare(op, Box::new(a), Box::new(b)), it, loc)
            }
            BinOp::LogAnd | BinOp::LogOr => {
                let it = self.types.int();
                let bt = self.types.scalar(Scalar::Bool);
                let a = if self.types.is_pointer(a.ty) {
                    mk(ExprKind::Cast(CastKind::ToBool, Box::new(a)), bt, loc)
                } else {
                    a
                };
                let b = if self.types.is_pointer(b.ty) {
                    mk(ExprKind::Cast(CastKind::ToBool, Box::new(b)), bt, loc)
                } else {
                    b
                };
                if !self.types.is_scalar(a.ty) || !self.types.is_scalar(b.ty) {
                    return bad(self, &a, &b);
                }
                let a = self.convert_arith(a, bt);
                let b = self.convert_arith(b, bt);
                mk(ExprKind::Binary(op, Box::new(a), Box::new(b)), it, loc)
            }
            _ => bad(self, &a, &b),
        }
    }

    /// Converts the named-space operand of a generic/named pointer pair to generic.
    pub(super) fn unify_pointer_spaces(&mut self, a: Expr, b: Expr) -> (Expr, Expr) {
        let (Some(pa), Some(pb)) = (self.types.pointee(a.ty), self.types.pointee(b.ty)) else {
            return (a, b);
        };
        let to_generic = |me: &mut Self, e: Expr, q: QualType| {
            let t = me.types.pointer(QualType {
                space: AddrSpace::Generic,
                ..q
            });
            let loc = e.loc;
            mk(ExprKind::Cast(CastKind::ToGeneric, Box::new(e)), t, loc)
        };
        match (pa.space, pb.space) {
            (AddrSpace::Generic, s) if s != AddrSpace::Generic && s != AddrSpace::Constant => {
                let b = to_generic(self, b, pb);
                (a, b)
            }
            (s, AddrSpace::Generic) if s != AddrSpace::Generic && s != AddrSpace::Constant => {
                let a = to_generic(self, a, pa);
                (a, b)
            }
            _ => (a, b),
        }
    }

    pub(super) fn check_pointer_arith(&mut self, p: &Expr, loc: Loc) {
        if let Some(q) = self.types.pointee(p.ty) {
            if self.types.size_of(q.ty).is_none() {
                let tn = self.types.name(p.ty);
                self.diags.error(
                    loc,
                    format!("arithmetic on a pointer to an incomplete or opaque type '{tn}'"),
                );
            }
        }
    }

    pub(super) fn assign(
        &mut self,
        op: Option<BinOp>,
        l: &ast::Expr,
        r: &ast::Expr,
        loc: Loc,
    ) -> Expr {
        let lhs = self.expr(l);
        let rhs = self.expr(r);
        let rhs = self.rvalue(rhs);
        if lhs.is_error() || rhs.is_error() {
            return self.error_expr(loc);
        }
        if !self.check_modifiable(&lhs, loc) {
            return self.error_expr(loc);
        }
        let lt = lhs.ty;
        match op {
            None => {
                let rhs = self.assign_convert(rhs, lt, r.loc, "assigning to");
                if rhs.is_error() {
                    return rhs;
                }
                mk(ExprKind::Assign(Box::new(lhs), Box::new(rhs)), lt, loc)
            }
            Some(op) => {
                // Check `lhs op rhs` on a loaded copy to find the computation type.
                let probe = mk(ExprKind::Load(Box::new(lhs.clone())), lt, lhs.loc);
                let res = self.binary(op, probe, rhs, loc);
                if res.is_error() {
                    return res;
                }
                let compute = res.ty;
                // For pointers the computation is a PtrAdd whose offset is already negated
                // for `-=`: the compound operation is then an addition.
                let op = if matches!(res.kind, ExprKind::PtrAdd(..)) {
                    BinOp::Add
                } else {
                    op
                };
                let (ExprKind::Binary(_, _, rhs2) | ExprKind::PtrAdd(_, rhs2)) = res.kind else {
                    self.invalid_operands(lt, compute, loc);
                    return self.error_expr(loc);
                };
                if self.types.is_vector(compute) && !self.types.is_vector(lt) {
                    let (x, y) = (self.types.name(lt), self.types.name(compute));
                    self.diags.error(
                        loc,
                        format!("assigning to '{x}' from incompatible type '{y}'"),
                    );
                    return self.error_expr(loc);
                }
                mk(
                    ExprKind::CompoundAssign {
                        op,
                        lhs: Box::new(lhs),
                        rhs: rhs2,
                        compute,
                    },
                    lt,
                    loc,
                )
            }
        }
    }

    pub(super) fn conditional(
        &mut self,
        c: &ast::Expr,
        a: &ast::Expr,
        b: &ast::Expr,
        loc: Loc,
    ) -> Expr {
        let c = self.expr(c);
        let c = self.rvalue(c);
        let a = self.expr(a);
        let a = self.rvalue(a);
        let b = self.expr(b);
        let b = self.rvalue(b);
        if c.is_error() || a.is_error() || b.is_error() || !self.check_scalar_cond(&c, loc) {
            return self.error_expr(loc);
        }
        if self.types.is_vector(c.ty) {
            // 6.5.15: a vector condition selects per lane; operands become the vector type.
            let Some((a, b, t)) = self.arith_common(a, b, loc) else {
                return self.error_expr(loc);
            };
            let (cl, tl) = (
                self.types.arith(c.ty).map_or(1, |x| x.1),
                self.types.arith(t).map_or(1, |x| x.1),
            );
            let t = if tl == 1 {
                let s = self.types.arith(t).map_or(Scalar::Int, |x| x.0);
                self.types.vector(s, cl)
            } else {
                t
            };
            if self.types.arith(t).map_or(1, |x| x.1) != cl {
                let (x, y) = (self.types.name(c.ty), self.types.name(t));
                self.diags.error(loc, format!("vector condition type '{x}' and result type '{y}' do not have the same number of elements"));
                return self.error_expr(loc);
            }
            let a = self.convert_arith(a, t);
            let b = self.convert_arith(b, t);
            return mk(
                ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)),
                t,
                loc,
            );
        }
        // A scalar condition is a truth value (C99 6.5.15p4).
        let c = self.truth(c);
        let (mut a, mut b) = (a, b);
        // A null pointer constant takes the other operand's pointer type (C99 6.5.15p6).
        if self.types.is_pointer(a.ty) && self.is_null_constant(&b) {
            let ty = a.ty;
            b = mk(
                ExprKind::Cast(CastKind::NullToPointer, Box::new(b)),
                ty,
                loc,
            );
        } else if self.types.is_pointer(b.ty) && self.is_null_constant(&a) {
            let ty = b.ty;
            a = mk(
                ExprKind::Cast(CastKind::NullToPointer, Box::new(a)),
                ty,
                loc,
            );
        }
        let (at, bt) = (a.ty, b.ty);
        if self.types.arith(at).is_some() && self.types.arith(bt).is_some() {
            let Some((a, b, t)) = self.arith_common(a, b, loc) else {
                return self.error_expr(loc);
            };
            return mk(
                ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)),
                t,
                loc,
            );
        }
        if at == bt {
            return mk(
                ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)),
                at,
                loc,
            );
        }
        if self.types.is_pointer(at) && self.types.is_pointer(bt) {
            let b2 = self.assign_convert(b, at, loc, "converting");
            if b2.is_error() {
                return b2;
            }
            return mk(
                ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b2)),
                at,
                loc,
            );
        }
        let (x, y) = (self.types.name(at), self.types.name(bt));
        self.diags
            .error(loc, format!("incompatible operand types ('{x}' and '{y}')"));
        self.error_expr(loc)
    }
}
