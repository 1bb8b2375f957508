//! Conversions (OpenCL C 6.4): lvalue-to-rvalue, integer promotion, the usual arithmetic
//! conversions with OpenCL's vector and scalar-widening rules, assignment conversions, truth
//! values of conditions, and explicit casts.

use super::*;

/// Rank order of 6.4.6 for vector/scalar mixing: floats above integers, unsigned above signed
/// of the same size, bool lowest.
pub(super) fn cl_rank(s: Scalar) -> u32 {
    match s {
        Scalar::Bool => 0,
        Scalar::Double => 100,
        Scalar::Float => 90,
        Scalar::Half => 80,
        s => s.size() * 10 + if s.is_signed() { 0 } else { 1 },
    }
}

impl Sema<'_> {
    /// Qualifiers and address space of an lvalue.
    pub fn lvalue_qual(&self, e: &Expr) -> QualType {
        match &e.kind {
            ExprKind::Var(v) => self.vars[v.0 as usize].ty,
            ExprKind::Deref(p) => self.types.pointee(p.ty).unwrap_or_default(),
            // String literals are `__constant char[N]` (not const-qualified, as in C; the
            // constant address space already forbids writes).
            ExprKind::StrConst(_) => QualType {
                ty: e.ty,
                is_const: false,
                space: AddrSpace::Constant,
                ..Default::default()
            },
            ExprKind::Member(b, i) => {
                let bq = self.lvalue_qual(b);
                let fq = match self.types.get(b.ty) {
                    Type::Record(r) => self.types.records[*r as usize].fields[*i as usize].ty,
                    _ => QualType::new(e.ty),
                };
                QualType {
                    ty: e.ty,
                    is_const: bq.is_const || fq.is_const,
                    is_volatile: bq.is_volatile || fq.is_volatile,
                    is_restrict: false,
                    space: bq.space,
                }
            }
            ExprKind::Swizzle(b, _) | ExprKind::VecElem(b, _) => QualType {
                ty: e.ty,
                ..self.lvalue_qual(b)
            },
            _ => QualType::new(e.ty),
        }
    }

    /// Lvalue-to-rvalue conversion and array decay (C99 6.3.2.1).
    pub fn rvalue(&mut self, e: Expr) -> Expr {
        if e.is_error() {
            return e;
        }
        if let Type::Array(elem, _) = self.types.get(e.ty).clone() {
            let q = self.lvalue_qual(&e);
            let pointee = QualType {
                space: q.space,
                is_const: elem.is_const || q.is_const,
                is_volatile: elem.is_volatile || q.is_volatile,
                ..elem
            };
            let pty = self.types.pointer(pointee);
            let loc = e.loc;
            return mk(
                ExprKind::Cast(CastKind::ArrayToPointer, Box::new(e)),
                pty,
                loc,
            );
        }
        if e.is_lvalue() {
            if let (Type::Scalar(Scalar::Half) | Type::Vector(Scalar::Half, _), false) =
                (self.types.get(e.ty), self.opts.fp16)
            {
                if matches!(e.kind, ExprKind::Deref(_)) {
                    self.diags.error(e.loc, "loading directly from pointer to type 'half' requires cl_khr_fp16. Use vector data load builtin functions instead");
                }
            }
            let (ty, loc) = (e.ty, e.loc);
            return mk(ExprKind::Load(Box::new(e)), ty, loc);
        }
        e
    }

    pub fn discard(&mut self, e: Expr) -> Expr {
        // An expression statement reads nothing it does not need: a bare lvalue is loaded
        // anyway (volatile reads must happen).
        if e.is_lvalue() {
            return self.rvalue(e);
        }
        e
    }

    pub fn promote_ty(&mut self, t: TypeId) -> TypeId {
        match self.types.get(t) {
            Type::Scalar(s) if s.is_integer() && s.rank() < Scalar::Int.rank() => self.types.int(),
            Type::Enum(_) => self.types.int(),
            _ => t,
        }
    }

    /// Arithmetic conversion of an rvalue to an arithmetic type (scalar→scalar, scalar→vector
    /// splat, identical vectors); the caller has checked that it is allowed.
    pub fn convert_arith(&mut self, e: Expr, to: TypeId) -> Expr {
        if e.ty == to || e.is_error() {
            return e;
        }
        let loc = e.loc;
        let (Some((fs, fl)), Some((ts, tl))) = (self.types.arith(e.ty), self.types.arith(to))
        else {
            return mk(ExprKind::Cast(CastKind::NoOp, Box::new(e)), to, loc);
        };
        if fl == 1 && tl > 1 {
            let elem = self.types.scalar(ts);
            let s = self.convert_arith(e, elem);
            return mk(ExprKind::Cast(CastKind::Splat, Box::new(s)), to, loc);
        }
        let kind = if ts == Scalar::Bool {
            CastKind::ToBool
        } else if matches!(self.types.get(e.ty), Type::Enum(_)) && ts.is_integer() {
            CastKind::IntToInt
        } else {
            match (fs.is_float(), ts.is_float()) {
                (false, false) => {
                    if fs == ts {
                        CastKind::NoOp
                    } else {
                        CastKind::IntToInt
                    }
                }
                (false, true) => CastKind::IntToFloat,
                (true, false) => CastKind::FloatToInt,
                (true, true) => CastKind::FloatToFloat,
            }
        };
        mk(ExprKind::Cast(kind, Box::new(e)), to, loc)
    }

    pub(in crate::sema) fn is_null_constant(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::IntConst(0) => true,
            ExprKind::Cast(
                CastKind::IntToInt
                | CastKind::NoOp
                | CastKind::IntToPointer
                | CastKind::PointerCast,
                x,
            ) => {
                self.is_null_constant(x)
                    && (self.types.is_integer(e.ty)
                        || self
                            .types
                            .pointee(e.ty)
                            .is_some_and(|p| self.types.is_void(p.ty)))
            }
            _ => false,
        }
    }

    /// Converts each argument to its parameter's type as an assignment would (C99 6.5.2.2p7:
    /// "the arguments are implicitly converted, as if by assignment"); the first conversion that
    /// fails is the error.
    pub fn pass_args(&mut self, args: Vec<Expr>, params: &[TypeId]) -> Result<Vec<Expr>, Expr> {
        let mut out = Vec::with_capacity(args.len());
        for (a, &p) in args.into_iter().zip(params) {
            let l = a.loc;
            let c = self.assign_convert(a, p, l, "passing");
            if c.is_error() {
                return Err(c);
            }
            out.push(c);
        }
        Ok(out)
    }

    /// Implicit conversion for assignment, initialization, argument passing and return
    /// (C99 6.5.16.1 with OpenCL 6.4.1 and the address-space rules of 6.7).
    pub fn assign_convert(&mut self, e: Expr, to: TypeId, loc: Loc, action: &str) -> Expr {
        if e.is_error() || e.ty == to {
            return e;
        }
        let from = e.ty;
        let fty = self.types.get(from).clone();
        let tty = self.types.get(to).clone();
        let incompatible = |me: &mut Self| {
            let (a, b) = (me.types.name(from), me.types.name(to));
            let msg = match action {
                "passing" => format!("passing '{a}' to parameter of incompatible type '{b}'"),
                "returning" => {
                    format!("returning '{a}' from a function with incompatible result type '{b}'")
                }
                _ => format!("{action} '{b}' with an expression of incompatible type '{a}'"),
            };
            me.diags.error(loc, msg);
            me.error_expr(loc)
        };
        match (&fty, &tty) {
            (Type::Scalar(_) | Type::Enum(_), Type::Scalar(_) | Type::Enum(_)) => {
                self.convert_arith(e, to)
            }
            (Type::Scalar(_) | Type::Enum(_), Type::Vector(..)) => self.convert_arith(e, to),
            (Type::Vector(..), Type::Vector(..)) | (Type::Vector(..), Type::Scalar(_)) => {
                let (a, b) = (self.types.name(from), self.types.name(to));
                let msg = format!("{action} '{b}' with an expression of incompatible type '{a}'");
                // 6.4.1: implicit conversions between vector types are disallowed.
                self.diags.error(loc, msg);
                self.error_expr(loc)
            }
            (Type::Pointer(fp), Type::Pointer(tp)) => {
                let (fp, tp) = (*fp, *tp);
                if fp.space != tp.space {
                    if tp.space == AddrSpace::Generic && fp.space != AddrSpace::Constant {
                        // 6.7.9: named spaces convert implicitly to generic.
                        let inter = self.types.pointer(QualType {
                            space: AddrSpace::Generic,
                            ..fp
                        });
                        let e2 = mk(ExprKind::Cast(CastKind::ToGeneric, Box::new(e)), inter, loc);
                        return self.assign_convert(e2, to, loc, action);
                    }
                    let (a, b) = (self.types.name(from), self.types.name(to));
                    self.diags.error(
                        loc,
                        format!("{action} '{a}' to '{b}' changes address space of pointer"),
                    );
                    return self.error_expr(loc);
                }
                if (fp.is_const && !tp.is_const) || (fp.is_volatile && !tp.is_volatile) {
                    let (a, b) = (self.types.name(from), self.types.name(to));
                    // Clang's -Wincompatible-pointer-types-discards-qualifiers: C99
                    // 6.5.16.1 makes this a constraint violation, but clang-based compilers
                    // warn and go on, and real code relies on it.
                    self.diags
                        .warning(loc, format!("{action} '{a}' to '{b}' discards qualifiers"));
                }
                if fp.ty == tp.ty || self.types.is_void(fp.ty) || self.types.is_void(tp.ty) {
                    let k = if fp.ty == tp.ty {
                        CastKind::NoOp
                    } else {
                        CastKind::PointerCast
                    };
                    return mk(ExprKind::Cast(k, Box::new(e)), to, loc);
                }
                // C99 6.5.16.1 makes this a constraint violation; clang-based compilers warn
                // (-Wincompatible-pointer-types) and convert, and real code relies on it.
                let (a, b) = (self.types.name(from), self.types.name(to));
                self.diags.warning(
                    loc,
                    format!("incompatible pointer types {action} '{a}' to '{b}'"),
                );
                mk(ExprKind::Cast(CastKind::PointerCast, Box::new(e)), to, loc)
            }
            (Type::Scalar(s), Type::Pointer(_)) if s.is_integer() => {
                if self.is_null_constant(&e) {
                    return mk(
                        ExprKind::Cast(CastKind::NullToPointer, Box::new(e)),
                        to,
                        loc,
                    );
                }
                let (a, b) = (self.types.name(from), self.types.name(to));
                self.diags.error(loc, format!("incompatible integer to pointer conversion {action} '{b}' with an expression of type '{a}'"));
                self.error_expr(loc)
            }
            (Type::Pointer(_), Type::Scalar(Scalar::Bool)) => {
                mk(ExprKind::Cast(CastKind::ToBool, Box::new(e)), to, loc)
            }
            (Type::Pointer(_), Type::Scalar(_)) => {
                let (a, b) = (self.types.name(from), self.types.name(to));
                self.diags.error(loc, format!("incompatible pointer to integer conversion {action} '{b}' with an expression of type '{a}'"));
                self.error_expr(loc)
            }
            (Type::Record(a), Type::Record(b)) if a == b => e,
            // ATOMIC_VAR_INIT / atomic_init: an atomic object initialized from its value type.
            (Type::Scalar(_) | Type::Enum(_), Type::Atomic(s)) => {
                let st = self.types.scalar(*s);
                let v = self.convert_arith(e, st);
                mk(ExprKind::Cast(CastKind::NoOp, Box::new(v)), to, loc)
            }
            // 6.15.12.7: "The macro ATOMIC_FLAG_INIT may be used to initialize an atomic_flag
            // to the clear state" (it expands to the integer 0).
            (Type::Scalar(s), Type::AtomicFlag) if s.is_integer() => {
                let int = self.types.scalar(Scalar::Int);
                let v = self.convert_arith(e, int);
                mk(ExprKind::Cast(CastKind::NoOp, Box::new(v)), to, loc)
            }
            // 6.15.15.1: a sampler is initialized from an integer constant of CLK_* flags.
            (Type::Scalar(s), Type::Sampler) if s.is_integer() && self.const_int(&e).is_some() => {
                mk(ExprKind::Cast(CastKind::NoOp, Box::new(e)), to, loc)
            }
            (Type::Scalar(s), Type::Event) if s.is_integer() && self.is_null_constant(&e) => {
                mk(ExprKind::Cast(CastKind::NoOp, Box::new(e)), to, loc)
            }
            // CLK_NULL_RESERVE_ID (0, the ID no reservation returns) initializes or is assigned
            // to a reserve_id_t.
            (Type::Scalar(s), Type::ReserveId) if s.is_integer() && self.is_null_constant(&e) => {
                mk(ExprKind::Cast(CastKind::NoOp, Box::new(e)), to, loc)
            }
            _ => incompatible(self),
        }
    }

    /// A controlling expression: scalar (6.8.4); vectors are not allowed here.
    pub fn condition(&mut self, c: &ast::Expr) -> Expr {
        let e = self.expr(c);
        let e = self.rvalue(e);
        if e.is_error() {
            return e;
        }
        if !self.types.is_scalar(e.ty) {
            let tn = self.types.name(e.ty);
            self.diags.error(
                c.loc,
                format!("statement requires expression of scalar type ('{tn}' invalid)"),
            );
            return self.error_expr(c.loc);
        }
        self.truth(e)
    }

    /// A scalar's truth value as an explicit `bool` (compare with zero, C99 6.8.4.1).
    pub fn truth(&mut self, e: Expr) -> Expr {
        if e.is_error() || matches!(self.types.get(e.ty), Type::Scalar(Scalar::Bool)) {
            return e;
        }
        let bt = self.types.scalar(Scalar::Bool);
        let loc = e.loc;
        mk(ExprKind::Cast(CastKind::ToBool, Box::new(e)), bt, loc)
    }

    pub(super) fn check_scalar_cond(&mut self, e: &Expr, loc: Loc) -> bool {
        if e.is_error() {
            return false;
        }
        if !self.types.is_scalar(e.ty) && !self.types.is_vector(e.ty) {
            let tn = self.types.name(e.ty);
            self.diags.error(
                loc,
                format!("invalid operand of type '{tn}' where a scalar is required"),
            );
            return false;
        }
        true
    }

    /// Usual arithmetic conversions (6.4.6) of two rvalues; reports and returns None when the
    /// operands cannot be combined.
    pub fn arith_common(&mut self, a: Expr, b: Expr, loc: Loc) -> Option<(Expr, Expr, TypeId)> {
        let (Some((sa, la)), Some((sb, lb))) = (self.types.arith(a.ty), self.types.arith(b.ty))
        else {
            self.invalid_operands(a.ty, b.ty, loc);
            return None;
        };
        if la > 1 && lb > 1 {
            if a.ty != b.ty {
                if la != lb {
                    let (x, y) = (self.types.name(a.ty), self.types.name(b.ty));
                    self.diags.error(loc, format!("cannot convert between vector values of different size ('{x}' and '{y}')"));
                } else {
                    self.invalid_operands(a.ty, b.ty, loc);
                }
                return None;
            }
            let t = a.ty;
            return Some((a, b, t));
        }
        if la > 1 || lb > 1 {
            let (vec_e, sc_s) = if la > 1 { (sa, sb) } else { (sb, sa) };
            // 6.4.6: "An error shall occur if any scalar operand has greater rank than the
            // type of the vector element."
            if cl_rank(sc_s) > cl_rank(vec_e) {
                let vty = if la > 1 { a.ty } else { b.ty };
                let sty = if la > 1 { b.ty } else { a.ty };
                let (vn, sn) = (self.types.name(vty), self.types.name(sty));
                self.diags.error(loc, format!("cannot convert between scalar type '{sn}' and vector type '{vn}' as implicit conversion would cause truncation"));
                return None;
            }
            let t = if la > 1 { a.ty } else { b.ty };
            let a = self.convert_arith(a, t);
            let b = self.convert_arith(b, t);
            return Some((a, b, t));
        }
        // Both scalar: C99 6.3.1.8.
        let t = self.common_scalar(sa, sb);
        let t = self.types.scalar(t);
        let a = self.convert_arith(a, t);
        let b = self.convert_arith(b, t);
        Some((a, b, t))
    }

    pub(super) fn common_scalar(&self, a: Scalar, b: Scalar) -> Scalar {
        let promote = |s: Scalar| {
            if s.is_integer() && s.rank() < Scalar::Int.rank() {
                Scalar::Int
            } else {
                s
            }
        };
        let (a, b) = (promote(a), promote(b));
        if a.is_float() || b.is_float() {
            return if a.rank() >= b.rank() { a } else { b };
        }
        if a == b {
            return a;
        }
        if a.is_signed() == b.is_signed() {
            return if a.rank() >= b.rank() { a } else { b };
        }
        let (u, s) = if a.is_signed() { (b, a) } else { (a, b) };
        if u.rank() >= s.rank() {
            u
        } else if s.size() > u.size() {
            s
        } else {
            s.to_unsigned()
        }
    }

    /// Result type of comparisons and logical operators: int for scalars, the signed integer
    /// vector of the element size for vectors (6.5.4).
    pub(super) fn bool_result(&mut self, operand: TypeId) -> TypeId {
        match self.types.get(operand) {
            Type::Vector(s, n) => {
                let (s, n) = (s.same_size_int(), *n);
                self.types.vector(s, n)
            }
            _ => self.types.int(),
        }
    }

    /// Explicit casts (6.4.2, 6.4.5).
    pub fn explicit_cast(&mut self, x: Expr, to: TypeId, loc: Loc) -> Expr {
        if x.is_error() {
            return x;
        }
        let from = x.ty;
        if from == to {
            return mk(ExprKind::Cast(CastKind::NoOp, Box::new(x)), to, loc);
        }
        let (fty, tty) = (self.types.get(from).clone(), self.types.get(to).clone());
        let bad = |me: &mut Self| {
            let (a, b) = (me.types.name(from), me.types.name(to));
            me.diags.error(
                loc,
                format!("invalid conversion between type '{a}' and '{b}'"),
            );
            me.error_expr(loc)
        };
        match (&fty, &tty) {
            (_, Type::Void) => mk(ExprKind::Cast(CastKind::ToVoid, Box::new(x)), to, loc),
            (
                Type::Scalar(_) | Type::Enum(_),
                Type::Scalar(_) | Type::Enum(_) | Type::Vector(..),
            ) => self.convert_arith(x, to),
            (Type::Vector(..), Type::Vector(..)) | (Type::Vector(..), Type::Scalar(_)) => {
                // 6.4.2: explicit casts between vector types are not legal.
                let (a, b) = (self.types.name(from), self.types.name(to));
                if matches!(tty, Type::Scalar(_)) {
                    self.diags.error(
                        loc,
                        format!(
                            "invalid conversion between vector type '{a}' and scalar type '{b}'"
                        ),
                    );
                } else {
                    self.diags.error(loc, format!("invalid conversion between vector type '{a}' and '{b}' of different size"));
                }
                self.error_expr(loc)
            }
            (Type::Pointer(fp), Type::Pointer(tp)) => {
                let kind = if fp.space == tp.space {
                    CastKind::PointerCast
                } else if tp.space == AddrSpace::Generic && fp.space != AddrSpace::Constant {
                    CastKind::ToGeneric
                } else if fp.space == AddrSpace::Generic && tp.space != AddrSpace::Constant {
                    CastKind::FromGeneric
                } else {
                    let (a, b) = (self.types.name(from), self.types.name(to));
                    self.diags.error(
                        loc,
                        format!("casting '{a}' to type '{b}' changes address space of pointer"),
                    );
                    return self.error_expr(loc);
                };
                mk(ExprKind::Cast(kind, Box::new(x)), to, loc)
            }
            (Type::Pointer(_), Type::Scalar(Scalar::Bool)) => {
                mk(ExprKind::Cast(CastKind::ToBool, Box::new(x)), to, loc)
            }
            (Type::Pointer(_), Type::Scalar(s)) if s.is_integer() => {
                mk(ExprKind::Cast(CastKind::PointerToInt, Box::new(x)), to, loc)
            }
            (Type::Scalar(s), Type::Pointer(_)) if s.is_integer() => {
                let k = if self.is_null_constant(&x) {
                    CastKind::NullToPointer
                } else {
                    CastKind::IntToPointer
                };
                mk(ExprKind::Cast(k, Box::new(x)), to, loc)
            }
            (Type::Scalar(_), Type::Event) if self.is_null_constant(&x) => {
                mk(ExprKind::Cast(CastKind::NoOp, Box::new(x)), to, loc)
            }
            _ => bad(self),
        }
    }
}
