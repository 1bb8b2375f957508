//! Expressions: typing, implicit conversions made explicit, operators on scalars and vectors
//! (OpenCL C 6.4, 6.5), swizzles (6.3.7), vector literals (6.3.6), calls with builtin overload
//! resolution, and integer constant evaluation.

use super::tree::*;
use super::types::*;
use super::{overload, Binding, Sema};
use crate::builtins::{self, PElem, Pt};
use crate::diag::Loc;
use crate::parse::ast::{self, BinOp, UnOp};

/// Levenshtein distance (for "did you mean" suggestions), capped at 3.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len().abs_diff(b.len()) > 2 {
        return 3;
    }
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + (ca != cb) as usize)
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()].min(3)
}

/// Close enough to suggest: at most 2 edits, and fewer than a third of the name.
fn close(a: &str, b: &str) -> bool {
    let d = edit_distance(a, b);
    d <= 2 && d * 3 <= a.len().max(b.len()) && a != b
}

fn mk(kind: ExprKind, ty: TypeId, loc: Loc) -> Expr {
    Expr { kind, ty, loc }
}

/// Rank order of 6.4.6 for vector/scalar mixing: floats above integers, unsigned above signed
/// of the same size, bool lowest.
fn cl_rank(s: Scalar) -> u32 {
    match s {
        Scalar::Bool => 0,
        Scalar::Double => 100,
        Scalar::Float => 90,
        Scalar::Half => 80,
        s => s.size() * 10 + if s.is_signed() { 0 } else { 1 },
    }
}

impl Sema<'_> {
    fn error_expr(&self, loc: Loc) -> Expr {
        mk(ExprKind::Error, TypeId(0), loc)
    }

    /// A name in scope (variable, function, enumerator) close to `name`.
    fn similar_in_scope(&self, name: &str) -> Option<String> {
        let mut best: Option<(usize, String)> = None;
        for scope in &self.scopes {
            for (&sym, b) in scope {
                if matches!(b, Binding::Typedef(_)) {
                    continue;
                }
                let cand = self.interner.name(sym);
                if close(name, cand) {
                    let d = edit_distance(name, cand);
                    if best
                        .as_ref()
                        .is_none_or(|(bd, bn)| (d, cand) < (*bd, bn.as_str()))
                    {
                        best = Some((d, cand.to_string()));
                    }
                }
            }
        }
        best.map(|b| b.1)
    }

    fn is_poisoned(&self, v: VarId) -> bool {
        self.poisoned.contains(&v.0)
    }

    pub fn is_lvalue(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Var(_)
            | ExprKind::Deref(_)
            | ExprKind::StrConst(_)
            | ExprKind::CompoundLit(_) => true,
            ExprKind::Member(b, _) | ExprKind::Swizzle(b, _) | ExprKind::VecElem(b, _) => {
                self.is_lvalue(b)
            }
            _ => false,
        }
    }

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
        if self.is_lvalue(&e) {
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
        if self.is_lvalue(&e) {
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

    pub(super) fn is_null_constant(&self, e: &Expr) -> bool {
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
            // 6.15.15.1: a sampler is initialized from an integer constant of CLK_* flags.
            (Type::Scalar(s), Type::Sampler) if s.is_integer() && self.const_int(&e).is_some() => {
                mk(ExprKind::Cast(CastKind::NoOp, Box::new(e)), to, loc)
            }
            (Type::Scalar(s), Type::Event) if s.is_integer() && self.is_null_constant(&e) => {
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

    fn check_scalar_cond(&mut self, e: &Expr, loc: Loc) -> bool {
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
            let (x, y) = (self.types.name(a.ty), self.types.name(b.ty));
            self.diags.error(
                loc,
                format!("invalid operands to binary expression ('{x}' and '{y}')"),
            );
            return None;
        };
        if la > 1 && lb > 1 {
            if a.ty != b.ty {
                let (x, y) = (self.types.name(a.ty), self.types.name(b.ty));
                if la != lb {
                    self.diags.error(loc, format!("cannot convert between vector values of different size ('{x}' and '{y}')"));
                } else {
                    self.diags.error(
                        loc,
                        format!("invalid operands to binary expression ('{x}' and '{y}')"),
                    );
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

    fn common_scalar(&self, a: Scalar, b: Scalar) -> Scalar {
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
    fn bool_result(&mut self, operand: TypeId) -> TypeId {
        match self.types.get(operand) {
            Type::Vector(s, n) => {
                let (s, n) = (s.same_size_int(), *n);
                self.types.vector(s, n)
            }
            _ => self.types.int(),
        }
    }

    pub fn expr(&mut self, e: &ast::Expr) -> Expr {
        if self.diags.error_count() > crate::diag::MAX_ERRORS {
            return self.error_expr(e.loc);
        }
        let loc = e.loc;
        match &e.kind {
            ast::ExprKind::Error => self.error_expr(loc),
            ast::ExprKind::BlockLit(b) => self.block_literal(&b.0, &b.1, loc),
            ast::ExprKind::Int(v, unsigned, long, decimal) => {
                self.int_literal(*v, *unsigned, *long, *decimal, loc)
            }
            ast::ExprKind::Float(v, suffix) => {
                let s = match suffix {
                    b'f' => Scalar::Float,
                    b'h' => {
                        if !self.opts.fp16 {
                            self.diags
                                .error(loc, "half precision constant requires cl_khr_fp16");
                        }
                        Scalar::Half
                    }
                    // 5.8.6.2 -cl-single-precision-constant; without fp64 unsuffixed
                    // constants are float.
                    _ if self.opts.single_precision_constant || !self.opts.fp64 => Scalar::Float,
                    _ => Scalar::Double,
                };
                let t = self.types.scalar(s);
                let v = if s == Scalar::Float {
                    *v as f32 as f64
                } else {
                    *v
                };
                mk(ExprKind::FloatConst(v), t, loc)
            }
            ast::ExprKind::Char(v) => {
                let t = self.types.int();
                mk(ExprKind::IntConst(*v as u64), t, loc)
            }
            ast::ExprKind::Str(bytes) => {
                let c = self.types.scalar(Scalar::Char);
                let t = self
                    .types
                    .intern(Type::Array(QualType::new(c), Some(bytes.len() as u64 + 1)));
                mk(ExprKind::StrConst(bytes.clone()), t, loc)
            }
            ast::ExprKind::Ident(s) => match self.lookup(*s) {
                Some(Binding::Var(v)) if self.is_poisoned(v) => self.error_expr(loc),
                Some(Binding::Var(v)) => {
                    if !self.block_stack.is_empty() {
                        let depth = self.lookup_depth(*s).map_or(0, |d| d.1);
                        self.capture(v, depth);
                    }
                    let ty = self.vars[v.0 as usize].ty.ty;
                    mk(ExprKind::Var(v), ty, loc)
                }
                Some(Binding::EnumConst(v)) => {
                    let t = self.types.int();
                    mk(ExprKind::IntConst(v as u64), t, loc)
                }
                Some(Binding::Func(_)) => {
                    let n = self.name(*s).to_string();
                    self.diags.error(
                        loc,
                        format!("taking address of function '{n}' is not allowed in OpenCL"),
                    );
                    self.error_expr(loc)
                }
                Some(Binding::Typedef(_)) => {
                    let n = self.name(*s).to_string();
                    self.diags.error(
                        loc,
                        format!("unexpected type name '{n}': expected expression"),
                    );
                    self.error_expr(loc)
                }
                None => {
                    let n = self.name(*s).to_string();
                    let msg = match self.similar_in_scope(&n) {
                        Some(m) => {
                            format!("use of undeclared identifier '{n}'; did you mean '{m}'?")
                        }
                        None => format!("use of undeclared identifier '{n}'"),
                    };
                    self.diags.error(loc, msg);
                    self.error_expr(loc)
                }
            },
            ast::ExprKind::Unary(op, x) => self.unary(*op, x, loc),
            ast::ExprKind::Binary(op, a, b) => {
                let a = self.expr(a);
                let a = self.rvalue(a);
                let b = self.expr(b);
                let b = self.rvalue(b);
                self.binary(*op, a, b, loc)
            }
            ast::ExprKind::Assign(op, l, r) => self.assign(*op, l, r, loc),
            ast::ExprKind::Cond(c, a, b) => self.conditional(c, a, b, loc),
            ast::ExprKind::Comma(a, b) => {
                let a = self.expr(a);
                let a = self.discard(a);
                let b = self.expr(b);
                let b = self.rvalue(b);
                if a.is_error() || b.is_error() {
                    return self.error_expr(loc);
                }
                let t = b.ty;
                mk(ExprKind::Comma(Box::new(a), Box::new(b)), t, loc)
            }
            ast::ExprKind::Call(callee, args) => self.call(callee, args, loc),
            ast::ExprKind::Index(base, idx) => self.index(base, idx, loc),
            ast::ExprKind::Member(base, name, arrow, mloc) => {
                self.member(base, *name, *arrow, *mloc, loc)
            }
            ast::ExprKind::Cast(tn, x) => {
                let q = self.type_name(tn);
                let x = self.expr(x);
                let x = self.rvalue(x);
                self.explicit_cast(x, q.ty, loc)
            }
            ast::ExprKind::VecLit(tn, items) => self.vector_literal(tn, items, loc),
            ast::ExprKind::CompoundLit(tn, init) => {
                let q = self.type_name(tn);
                match self.initializer(init, q.ty) {
                    Some(i) => {
                        let t = match &i {
                            Init::List(t, _) => *t,
                            Init::Expr(_) => q.ty,
                        };
                        mk(ExprKind::CompoundLit(Box::new(i)), t, loc)
                    }
                    None => self.error_expr(loc),
                }
            }
            ast::ExprKind::SizeofType(tn) => {
                let q = self.type_name(tn);
                self.sizeof_type(q.ty, loc)
            }
            ast::ExprKind::SizeofExpr(x) => {
                let x = self.expr(x);
                if x.is_error() {
                    return x;
                }
                self.sizeof_type(x.ty, loc)
            }
            ast::ExprKind::AlignofType(tn) => {
                let q = self.type_name(tn);
                let v = self.types.align_of(q.ty);
                self.size_const(v, q.ty, loc, "alignof")
            }
            ast::ExprKind::AlignofExpr(x) => {
                let x = self.expr(x);
                if x.is_error() {
                    return x;
                }
                let v = self.types.align_of(x.ty);
                self.size_const(v, x.ty, loc, "alignof")
            }
            ast::ExprKind::VecStepType(tn) => {
                let q = self.type_name(tn);
                self.vec_step(q.ty, loc)
            }
            ast::ExprKind::VecStepExpr(x) => {
                let x = self.expr(x);
                if x.is_error() {
                    return x;
                }
                self.vec_step(x.ty, loc)
            }
        }
    }

    /// Integer constant types (C99 6.4.4.1p5 with OpenCL's 64-bit long).
    fn int_literal(&mut self, v: u64, unsigned: bool, long: bool, decimal: bool, loc: Loc) -> Expr {
        let candidates: &[Scalar] = match (unsigned, long, decimal) {
            (false, false, true) => &[Scalar::Int, Scalar::Long],
            (false, false, false) => &[Scalar::Int, Scalar::UInt, Scalar::Long, Scalar::ULong],
            (true, false, _) => &[Scalar::UInt, Scalar::ULong],
            (false, true, true) => &[Scalar::Long],
            (false, true, false) => &[Scalar::Long, Scalar::ULong],
            (true, true, _) => &[Scalar::ULong],
        };
        let fits = |s: Scalar| match s {
            Scalar::Int => v <= i32::MAX as u64,
            Scalar::UInt => v <= u32::MAX as u64,
            Scalar::Long => v <= i64::MAX as u64,
            _ => true,
        };
        let s = match candidates.iter().copied().find(|s| fits(*s)) {
            Some(s) => s,
            None => {
                self.diags.warning(loc, "integer literal is too large to be represented in a signed integer type, interpreting as unsigned");
                Scalar::ULong
            }
        };
        let t = self.types.scalar(s);
        mk(ExprKind::IntConst(v), t, loc)
    }

    fn size_const(&mut self, v: Option<u64>, of: TypeId, loc: Loc, what: &str) -> Expr {
        let st = self.types.size_t();
        match v {
            Some(v) if !self.types.is_void(of) => mk(ExprKind::IntConst(v), st, loc),
            _ => {
                let tn = self.types.name(of);
                let msg = if self.types.is_void(of) {
                    format!("invalid application of '{what}' to a void type")
                } else {
                    format!(
                        "invalid application of '{what}' to an incomplete or opaque type '{tn}'"
                    )
                };
                self.diags.error(loc, msg);
                self.error_expr(loc)
            }
        }
    }

    fn sizeof_type(&mut self, t: TypeId, loc: Loc) -> Expr {
        // 6.5.11 (6.3.k): "The behavior of applying the sizeof operator to the bool, image...,
        // sampler_t, queue_t, ndrange_t, clk_event_t, reserve_id_t, and event_t types is
        // implementation-defined", and so for a pipe: ferrocl gives their size in memory, as
        // clang-based compilers give one.
        let v = match self.types.get(t) {
            Type::Function { .. } => None,
            _ => self.types.size_of(t),
        };
        self.size_const(v, t, loc, "sizeof")
    }

    /// 6.5.x vec_step: lanes of a vector (4 for 3-lane vectors), 1 for scalars.
    fn vec_step(&mut self, t: TypeId, loc: Loc) -> Expr {
        let n = match self.types.get(t) {
            Type::Vector(_, 3) => 4,
            Type::Vector(_, n) => *n as u64,
            Type::Scalar(_) => 1,
            _ => {
                let tn = self.types.name(t);
                self.diags.error(
                    loc,
                    format!("'vec_step' requires built-in scalar or vector type, '{tn}' invalid"),
                );
                return self.error_expr(loc);
            }
        };
        let it = self.types.int();
        mk(ExprKind::IntConst(n), it, loc)
    }

    fn check_modifiable(&mut self, e: &Expr, loc: Loc) -> bool {
        if e.is_error() {
            return false;
        }
        if !self.is_lvalue(e) {
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

    fn unary(&mut self, op: UnOp, x: &ast::Expr, loc: Loc) -> Expr {
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
                if !self.is_lvalue(&e) {
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
            let (x, y) = (me.types.name(a.ty), me.types.name(b.ty));
            me.diags.error(
                loc,
                format!("invalid operands to binary expression ('{x}' and '{y}')"),
            );
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

    fn pointer_binary(&mut self, op: BinOp, a: Expr, b: Expr, loc: Loc) -> Expr {
        let ap = self.types.is_pointer(a.ty);
        let bp = self.types.is_pointer(b.ty);
        let bad = |me: &mut Self, a: &Expr, b: &Expr| {
            let (x, y) = (me.types.name(a.ty), me.types.name(b.ty));
            me.diags.error(
                loc,
                format!("invalid operands to binary expression ('{x}' and '{y}')"),
            );
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
    fn unify_pointer_spaces(&mut self, a: Expr, b: Expr) -> (Expr, Expr) {
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

    fn check_pointer_arith(&mut self, p: &Expr, loc: Loc) {
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

    fn assign(&mut self, op: Option<BinOp>, l: &ast::Expr, r: &ast::Expr, loc: Loc) -> Expr {
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
                    let (x, y) = (self.types.name(lt), self.types.name(compute));
                    self.diags.error(
                        loc,
                        format!("invalid operands to binary expression ('{x}' and '{y}')"),
                    );
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

    fn conditional(&mut self, c: &ast::Expr, a: &ast::Expr, b: &ast::Expr, loc: Loc) -> Expr {
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

    fn index(&mut self, base: &ast::Expr, idx: &ast::Expr, loc: Loc) -> Expr {
        let b = self.expr(base);
        let i = self.expr(idx);
        let i = self.rvalue(i);
        if b.is_error() || i.is_error() {
            return self.error_expr(loc);
        }
        if self.types.is_vector(b.ty) {
            if !self.types.is_integer(i.ty) || !self.types.is_scalar_arith(i.ty) {
                self.diags
                    .error(idx.loc, "array subscript is not an integer");
                return self.error_expr(loc);
            }
            let s = self.types.arith(b.ty).map_or(Scalar::Int, |x| x.0);
            let et = self.types.scalar(s);
            return mk(ExprKind::VecElem(Box::new(b), Box::new(i)), et, loc);
        }
        // A constant index outside a known array length (clang's -Warray-bounds).
        if let (Type::Array(_, Some(len)), Some(k)) =
            (self.types.get(b.ty).clone(), self.const_int(&i))
        {
            if k < 0 || k as u128 >= len as u128 {
                let msg = if k < 0 {
                    format!("array index {k} is before the beginning of the array")
                } else {
                    format!("array index {k} is past the end of the array (which contains {len} elements)")
                };
                self.diags.warning(idx.loc, msg);
            }
        }
        let b = self.rvalue(b);
        let (p, i) = if self.types.is_pointer(b.ty) {
            (b, i)
        } else if self.types.is_pointer(i.ty) {
            (i, b)
        } else {
            self.diags
                .error(loc, "subscripted value is not an array, pointer, or vector");
            return self.error_expr(loc);
        };
        if !self.types.is_integer(i.ty) || !self.types.is_scalar_arith(i.ty) {
            self.diags
                .error(idx.loc, "array subscript is not an integer");
            return self.error_expr(loc);
        }
        let pt = p.ty;
        let Some(pointee) = self.types.pointee(pt) else {
            return self.error_expr(loc);
        };
        if self.types.size_of(pointee.ty).is_none() {
            let tn = self.types.name(pt);
            self.diags.error(
                loc,
                format!("subscript of pointer to incomplete type '{tn}'"),
            );
            return self.error_expr(loc);
        }
        let pd = self.types.ptrdiff_t();
        let i = self.convert_arith(i, pd);
        let add = mk(ExprKind::PtrAdd(Box::new(p), Box::new(i)), pt, loc);
        mk(ExprKind::Deref(Box::new(add)), pointee.ty, loc)
    }

    fn member(
        &mut self,
        base: &ast::Expr,
        name: ast::Sym,
        arrow: bool,
        mloc: Loc,
        loc: Loc,
    ) -> Expr {
        let b = self.expr(base);
        if b.is_error() {
            return b;
        }
        let b = if arrow {
            let b = self.rvalue(b);
            match self.types.pointee(b.ty) {
                Some(p) => mk(ExprKind::Deref(Box::new(b)), p.ty, loc),
                None => {
                    let tn = self.types.name(b.ty);
                    self.diags.error(
                        loc,
                        format!("member reference type '{tn}' is not a pointer"),
                    );
                    return self.error_expr(loc);
                }
            }
        } else {
            b
        };
        let n = self.name(name).to_string();
        match self.types.get(b.ty).clone() {
            Type::Record(r) => {
                let rec = &self.types.records[r as usize];
                if !rec.complete {
                    let tn = self.types.name(b.ty);
                    self.diags
                        .error(loc, format!("incomplete definition of type '{tn}'"));
                    return self.error_expr(loc);
                }
                // C11 6.7.2.1p13: members of anonymous members are found through them.
                match self.member_path(r, name) {
                    Some(path) => {
                        let mut e = b;
                        for i in path {
                            let Type::Record(rr) = *self.types.get(e.ty) else {
                                unreachable!("a member path goes through records")
                            };
                            let ft = self.types.records[rr as usize].fields[i as usize].ty.ty;
                            e = mk(ExprKind::Member(Box::new(e), i), ft, mloc);
                        }
                        e
                    }
                    None => {
                        let tn = self.types.name(b.ty);
                        self.diags
                            .error(mloc, format!("no member named '{n}' in '{tn}'"));
                        self.error_expr(loc)
                    }
                }
            }
            Type::Vector(s, lanes) if !arrow => self.swizzle(b, s, lanes, &n, mloc),
            _ => {
                let tn = self.types.name(b.ty);
                let msg = format!("member reference base type '{tn}' is not a structure or union");
                self.diags.error(loc, msg);
                self.error_expr(loc)
            }
        }
    }

    /// 6.3.7 vector components: .xyzw (and .rgba from 3.0), .s0-.sF, .lo .hi .even .odd.
    fn swizzle(&mut self, b: Expr, s: Scalar, lanes: u8, name: &str, loc: Loc) -> Expr {
        let tn = self.types.name(b.ty);
        let idx: Option<Vec<u8>> = match name {
            "lo" | "hi" | "even" | "odd" => {
                let half = lanes.div_ceil(2);
                let n = if lanes == 3 { 4 } else { lanes };
                Some(match name {
                    "lo" => (0..half).collect(),
                    "hi" => ((n / 2)..(n / 2 + half)).collect(),
                    "even" => (0..half).map(|i| i * 2).collect(),
                    _ => (0..half).map(|i| i * 2 + 1).collect(),
                })
            }
            _ if (name.starts_with('s') || name.starts_with('S'))
                && name.len() > 1
                && name[1..].chars().all(|c| c.is_ascii_hexdigit()) =>
            {
                Some(
                    name[1..]
                        .chars()
                        .map(|c| c.to_digit(16).unwrap_or(0) as u8)
                        .collect(),
                )
            }
            _ => {
                let xyzw = name.chars().all(|c| "xyzw".contains(c));
                let rgba = name.chars().all(|c| "rgba".contains(c));
                if (xyzw || rgba) && name.len() > 4 {
                    // 6.3.7: .xyzw selects at most four components.
                    self.diags.error(
                        loc,
                        format!(
                            "vector component access has invalid length {}.  Supported: 1,2,3,4.",
                            name.len()
                        ),
                    );
                    return self.error_expr(loc);
                }
                if xyzw || rgba {
                    if rgba && self.opts.version < 300 {
                        self.diags.error(loc, format!("vector component name '{name}' is a feature from OpenCL version 3.0 onwards"));
                        return self.error_expr(loc);
                    }
                    Some(
                        name.chars()
                            .map(|c| "xyzw".find(c).or_else(|| "rgba".find(c)).unwrap_or(0) as u8)
                            .collect(),
                    )
                } else {
                    None
                }
            }
        };
        let Some(idx) = idx else {
            if name.chars().all(|c| "xyzwrgba".contains(c)) {
                self.diags.error(
                    loc,
                    "illegal vector component name: mixing 'xyzw' and 'rgba' components",
                );
            } else {
                self.diags
                    .error(loc, format!("illegal vector component name '{name}'"));
            }
            return self.error_expr(loc);
        };
        // 6.3.7: ".lo (or .even) and .hi (or .odd) for a 3-component vector type operate as if
        // the 3-component vector type is a 4-component vector type with the value in the w
        // component undefined": .hi and .odd name lane 3 (reads give an unspecified value,
        // writes to it are dropped).
        let w_of_3 = lanes == 3 && matches!(name, "hi" | "odd");
        if idx.iter().any(|&i| i >= lanes && !(w_of_3 && i == 3)) {
            self.diags
                .error(loc, format!("vector component access exceeds type '{tn}'"));
            return self.error_expr(loc);
        }
        let n = idx.len() as u8;
        if !(n == 1 || crate::sema::types::LANES.contains(&n)) {
            self.diags.error(
                loc,
                format!(
                    "vector component access has invalid length {n}.  Supported: 1,2,3,4,8,16."
                ),
            );
            return self.error_expr(loc);
        }
        let t = self.types.vector(s, n);
        mk(ExprKind::Swizzle(Box::new(b), idx), t, loc)
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

    /// (float4)(a, b.xy, c): 6.3.6 — parts are scalars or vectors of the element type whose
    /// lanes add up to the vector's; a single scalar is replicated.
    fn vector_literal(&mut self, tn: &ast::TypeName, items: &[ast::Expr], loc: Loc) -> Expr {
        let q = self.type_name(tn);
        let parts: Vec<Expr> = items
            .iter()
            .map(|i| {
                let e = self.expr(i);
                self.rvalue(e)
            })
            .collect();
        if parts.iter().any(|p| p.is_error()) {
            return self.error_expr(loc);
        }
        let Type::Vector(s, n) = *self.types.get(q.ty) else {
            // `(int)(a, b)` is a cast of a comma expression.
            let mut it = parts.into_iter();
            let mut e = it.next().unwrap_or_else(|| self.error_expr(loc));
            for p in it {
                let t = p.ty;
                e = mk(ExprKind::Comma(Box::new(e), Box::new(p)), t, loc);
            }
            return self.explicit_cast(e, q.ty, loc);
        };
        if parts.len() == 1 && self.types.is_scalar_arith(parts[0].ty) {
            let p = parts.into_iter().next().expect("one part");
            return self.convert_arith(p, q.ty);
        }
        let elem = self.types.scalar(s);
        let mut total = 0u32;
        let mut out = Vec::new();
        for p in parts {
            match self.types.get(p.ty).clone() {
                Type::Vector(ps, pn) => {
                    if ps != s {
                        let (a, b) = (self.types.name(p.ty), self.types.name(q.ty));
                        self.diags.error(
                            p.loc,
                            format!(
                                "invalid operand of type '{a}' in vector literal of type '{b}'"
                            ),
                        );
                        return self.error_expr(loc);
                    }
                    total += pn as u32;
                    out.push(p);
                }
                Type::Scalar(_) | Type::Enum(_) => {
                    total += 1;
                    let c = self.convert_arith(p, elem);
                    out.push(c);
                }
                _ => {
                    let tn = self.types.name(p.ty);
                    self.diags.error(
                        p.loc,
                        format!("invalid operand of type '{tn}' in vector literal"),
                    );
                    return self.error_expr(loc);
                }
            }
        }
        if total != n as u32 {
            let tn = self.types.name(q.ty);
            let msg = if total < n as u32 {
                "too few elements in vector initialization"
            } else {
                "excess elements in vector initializer"
            };
            self.diags.error(
                loc,
                format!("{msg} (expected {n} elements, have {total}) for '{tn}'"),
            );
            return self.error_expr(loc);
        }
        mk(ExprKind::VecLit(out), q.ty, loc)
    }

    // ---- calls ----

    fn call(&mut self, callee: &ast::Expr, args: &[ast::Expr], loc: Loc) -> Expr {
        let ast::ExprKind::Ident(sym) = callee.kind else {
            let c = self.expr(callee);
            if !c.is_error() {
                self.diags.error(
                    callee.loc,
                    "called object is not a function (function pointers are not allowed in OpenCL)",
                );
            }
            return self.error_expr(loc);
        };
        let interner = self.interner;
        let name = interner.name(sym);
        let cargs: Vec<Expr> = args
            .iter()
            .map(|a| {
                let e = self.expr(a);
                self.rvalue(e)
            })
            .collect();
        if cargs.iter().any(|a| a.is_error()) {
            return self.error_expr(loc);
        }
        match self.lookup(sym) {
            Some(Binding::Func(first)) => {
                let f = match self.overloads.get(&sym).cloned() {
                    Some(set) => match self.pick_overload(&set, &cargs) {
                        Ok(f) => f,
                        Err(ambiguous) => {
                            let tys: Vec<String> =
                                cargs.iter().map(|a| self.types.name(a.ty)).collect();
                            let what = if ambiguous {
                                "call to '{}' is ambiguous"
                            } else {
                                "no matching function for call to '{}'"
                            };
                            self.diags.error(
                                callee.loc,
                                format!(
                                    "{} with arguments ({})",
                                    what.replace("{}", name),
                                    tys.join(", ")
                                ),
                            );
                            return self.error_expr(loc);
                        }
                    },
                    None => first,
                };
                let func = &self.funcs[f.0 as usize];
                let ret = func.ret;
                let params: Vec<TypeId> = func
                    .params
                    .iter()
                    .map(|v| self.vars[v.0 as usize].ty.ty)
                    .collect();
                let variadic = func.variadic;
                if params.len() != cargs.len() && !(variadic && cargs.len() > params.len()) {
                    let few = cargs.len() < params.len();
                    let msg = format!(
                        "too {} arguments to function call, expected {}, have {}",
                        if few { "few" } else { "many" },
                        params.len(),
                        cargs.len()
                    );
                    self.diags
                        .error(if few { loc } else { cargs[params.len()].loc }, msg);
                    let l = func.loc;
                    self.diags.note(l, format!("'{name}' declared here"));
                    return self.error_expr(loc);
                }
                let mut conv = Vec::new();
                let fixed = params.len();
                let mut cargs = cargs;
                let extra = cargs.split_off(fixed.min(cargs.len()));
                for (a, p) in cargs.into_iter().zip(params) {
                    let l = a.loc;
                    let c = self.assign_convert(a, p, l, "passing");
                    if c.is_error() {
                        return c;
                    }
                    conv.push(c);
                }
                conv.extend(extra);
                if let Some(cur) = self.cur_fn {
                    self.calls.push((cur, f, loc));
                }
                mk(ExprKind::Call(Box::new(Callee::User(f)), conv), ret, loc)
            }
            Some(Binding::Var(v))
                if matches!(
                    self.types.get(self.vars[v.0 as usize].ty.ty),
                    Type::Block { .. }
                ) =>
            {
                let c = self.expr(callee);
                let c = self.rvalue(c);
                self.call_block(c, cargs, loc)
            }
            Some(Binding::Var(_)) | Some(Binding::EnumConst(_)) => {
                self.diags.error(
                    callee.loc,
                    format!("called object type is not a function or function pointer ('{name}')"),
                );
                self.error_expr(loc)
            }
            Some(Binding::Typedef(_)) => {
                self.diags.error(
                    callee.loc,
                    format!("unexpected type name '{name}': expected expression"),
                );
                self.error_expr(loc)
            }
            None => self.builtin_call(name, cargs, callee.loc, loc),
        }
    }

    fn pt_type(&mut self, p: Pt) -> TypeId {
        match p {
            Pt::Void => self.types.void(),
            Pt::Val(s, n) => self.types.vector(s, n),
            Pt::SizeT => self.types.size_t(),
            Pt::Ptr {
                elem,
                space,
                is_const,
                is_volatile,
            } => {
                let et = match elem {
                    PElem::Val(s, n) => self.types.vector(s, n),
                    PElem::Atomic(s) => self.types.intern(Type::Atomic(s)),
                    PElem::AtomicFlag => self.types.intern(Type::AtomicFlag),
                    PElem::Event => self.types.intern(Type::Event),
                    PElem::ClkEvent => self.types.intern(Type::ClkEvent),
                    PElem::Void => self.types.void(),
                };
                self.types.pointer(QualType {
                    ty: et,
                    is_const,
                    is_volatile,
                    is_restrict: false,
                    space,
                })
            }
            Pt::Image(d, u) => {
                let a = match u {
                    builtins::ImgUse::Write => ast::Access::WriteOnly,
                    _ => ast::Access::ReadOnly,
                };
                self.types.intern(Type::Image(d, a))
            }
            Pt::Sampler => self.types.intern(Type::Sampler),
            Pt::Event => self.types.intern(Type::Event),
            Pt::ClkEvent => self.types.intern(Type::ClkEvent),
            Pt::Queue => self.types.intern(Type::Queue),
            Pt::NdRange => self.types.intern(Type::NdRange),
            Pt::ReserveId => self.types.intern(Type::ReserveId),
            Pt::MemOrder | Pt::MemScope => self.types.int(),
        }
    }

    fn builtin_call(&mut self, name: &str, args: Vec<Expr>, name_loc: Loc, loc: Loc) -> Expr {
        if builtins::is_enqueue_builtin(name) {
            return self.enqueue_builtin(name, args, name_loc, loc);
        }
        if builtins::is_pipe_builtin(name) && self.opts.version >= 200 {
            return self.pipe_builtin(name, args, name_loc, loc);
        }
        if builtins::is_special(name) && !builtins::is_pipe_builtin(name) {
            return self.address_space_builtin(name, args, name_loc, loc);
        }
        let sigs = builtins::lookup_cached(name, &self.cfg, self.cfg_fingerprint);
        if sigs.is_empty() {
            // 6.11.v: implicit function declarations are not supported.
            self.diags.error(
                name_loc,
                format!("implicit declaration of function '{name}' is invalid in OpenCL"),
            );
            let near = self.similar_in_scope(name).or_else(|| {
                builtins::table_names()
                    .filter(|b| close(name, b))
                    .filter(|b| {
                        !builtins::lookup_cached(b, &self.cfg, self.cfg_fingerprint).is_empty()
                    })
                    .min_by_key(|b| (edit_distance(name, b), b.to_string()))
                    .map(str::to_string)
            });
            if let Some(m) = near {
                self.diags.note(name_loc, format!("did you mean '{m}'?"));
            }
            return self.error_expr(loc);
        }
        // Candidates ranked as clang ranks overloadable functions (sema/overload.rs).
        let mut viable: Vec<(usize, Vec<overload::Ics>)> = Vec::new();
        for (i, sig) in sigs.iter().enumerate() {
            if sig.variadic {
                if args.len() < sig.params.len() {
                    continue;
                }
            } else if sig.params.len() != args.len() {
                continue;
            }
            let ics: Option<Vec<_>> = args
                .iter()
                .zip(sig.params.iter())
                .map(|(a, p)| self.builtin_arg_ics(a, *p))
                .collect();
            if let Some(ics) = ics {
                viable.push((i, ics));
            }
        }
        let ranked: Vec<Vec<overload::Ics>> = viable.iter().map(|v| v.1.clone()).collect();
        let arg_types = |me: &Self| args.iter().map(|a| me.types.name(a.ty)).collect::<Vec<_>>();
        let i0 = match overload::best_candidate(&ranked) {
            Ok(k) => viable[k].0,
            Err(ambiguous) => {
                let what = if ambiguous {
                    "call to '{name}' is ambiguous"
                } else {
                    "no matching function for call to '{name}'"
                };
                let arg_types = arg_types(self);
                self.diags.error(
                    name_loc,
                    format!(
                        "{} with arguments ({})",
                        what.replace("{name}", name),
                        arg_types.join(", ")
                    ),
                );
                return self.error_expr(loc);
            }
        };
        let sig = sigs[i0].clone();
        let ret = self.pt_type(sig.ret);
        let mut params = Vec::new();
        let mut conv = Vec::new();
        for (k, a) in args.into_iter().enumerate() {
            if let Some(p) = sig.params.get(k) {
                let pt = self.pt_type(*p);
                params.push(pt);
                let l = a.loc;
                let c = if let (Type::Image(..), Type::Image(..)) =
                    (self.types.get(a.ty), self.types.get(pt))
                {
                    a
                } else {
                    self.assign_convert(a, pt, l, "passing")
                };
                conv.push(c);
            } else {
                // printf's variadic arguments: default argument promotions; float stays
                // float (6.15.14.3 passes float as double only where doubles exist).
                let t = a.ty;
                let promoted = match self.types.get(t) {
                    Type::Scalar(s) if s.is_integer() && s.rank() < Scalar::Int.rank() => {
                        self.types.int()
                    }
                    Type::Scalar(Scalar::Float) if self.opts.fp64 => {
                        self.types.scalar(Scalar::Double)
                    }
                    _ => t,
                };
                conv.push(self.convert_arith(a, promoted));
            }
        }
        if name == "printf" {
            if let Some(ExprKind::Cast(CastKind::ArrayToPointer, inner)) =
                conv.first().map(|c| &c.kind)
            {
                if !matches!(inner.kind, ExprKind::StrConst(_)) {
                    self.diags
                        .warning(loc, "format string is not a string literal");
                }
            }
        }
        mk(
            ExprKind::Call(
                Box::new(Callee::Builtin {
                    name: name.to_string(),
                    params,
                }),
                conv,
            ),
            ret,
            loc,
        )
    }

    /// 6.15.10: to_global/to_local/to_private take any generic pointer; get_fence returns
    /// cl_mem_fence_flags.
    /// Chooses among `overloadable` user functions as clang does (sema/overload.rs);
    /// Err(true) when the call is ambiguous, Err(false) when no candidate fits.
    fn pick_overload(&mut self, set: &[FuncId], args: &[Expr]) -> Result<FuncId, bool> {
        let mut viable: Vec<(FuncId, Vec<overload::Ics>)> = Vec::new();
        for &f in set {
            let params: Vec<TypeId> = self.funcs[f.0 as usize]
                .params
                .iter()
                .map(|v| self.vars[v.0 as usize].ty.ty)
                .collect();
            if params.len() != args.len() {
                continue;
            }
            let ics: Option<Vec<_>> = args
                .iter()
                .zip(params)
                .map(|(a, p)| self.user_arg_ics(a, p))
                .collect();
            if let Some(ics) = ics {
                viable.push((f, ics));
            }
        }
        let ranked: Vec<Vec<overload::Ics>> = viable.iter().map(|v| v.1.clone()).collect();
        overload::best_candidate(&ranked).map(|k| viable[k].0)
    }

    /// Records that the block literals being checked read variable `v` of scope `depth`.
    fn capture(&mut self, v: VarId, depth: usize) {
        if !matches!(
            self.vars[v.0 as usize].kind,
            VarKind::Local | VarKind::Param
        ) {
            return;
        }
        for b in &mut self.block_stack {
            if depth < b.base_scope && !b.captures.contains(&v) {
                b.captures.push(v);
            }
        }
    }

    /// `^(params) { body }` (6.14.3).
    fn block_literal(&mut self, params: &[ast::Param], body: &ast::Stmt, loc: Loc) -> Expr {
        if !self.cfg.v20("__opencl_c_device_enqueue") {
            self.diags.error(
                loc,
                "blocks require OpenCL C 2.0 or the __opencl_c_device_enqueue feature",
            );
            return self.error_expr(loc);
        }
        self.push_scope();
        let base_scope = self.scopes.len() - 1;
        let mut vars = Vec::new();
        let mut types = Vec::new();
        for p in params {
            let b = self.base_type(&p.spec);
            let (q, _) = self.declarator_type(b, p.spec.space.is_some(), &p.decl);
            types.push(q.ty);
            let name = p
                .decl
                .name
                .map(|n| self.name(n).to_string())
                .unwrap_or_default();
            self.vars.push(Var {
                name,
                ty: q,
                kind: VarKind::Param,
                loc: p.decl.loc,
                align: None,
            });
            let id = VarId(self.vars.len() as u32 - 1);
            if let Some(n) = p.decl.name {
                self.bind(n, Binding::Var(id), p.decl.loc);
            }
            vars.push(id);
        }
        self.block_stack.push(super::BlockCtx {
            base_scope,
            ..Default::default()
        });
        let body = self.block_body(body);
        let ctx = self.block_stack.pop().unwrap_or_default();
        self.pop_scope();
        let ret = match ctx.ret {
            Some(r) => r,
            None => self.types.void(),
        };
        let t = self.types.intern(Type::Block { ret, params: types });
        mk(
            ExprKind::Block(Box::new(BlockExpr {
                params: vars,
                body,
                captures: ctx.captures,
            })),
            t,
            loc,
        )
    }

    /// A call through a block reference.
    fn call_block(&mut self, block: Expr, args: Vec<Expr>, loc: Loc) -> Expr {
        let Type::Block { ret, params } = self.types.get(block.ty).clone() else {
            return self.error_expr(loc);
        };
        if params.len() != args.len() {
            let few = args.len() < params.len();
            self.diags.error(
                loc,
                format!(
                    "too {} arguments to block call, expected {}, have {}",
                    if few { "few" } else { "many" },
                    params.len(),
                    args.len()
                ),
            );
            return self.error_expr(loc);
        }
        let mut conv = Vec::new();
        for (a, p) in args.into_iter().zip(params) {
            let l = a.loc;
            let c = self.assign_convert(a, p, l, "passing");
            if c.is_error() {
                return c;
            }
            conv.push(c);
        }
        mk(
            ExprKind::Call(Box::new(Callee::Block(block)), conv),
            ret,
            loc,
        )
    }

    /// 6.15.19: enqueue_kernel and the kernel queries take a block.
    fn enqueue_builtin(&mut self, name: &str, args: Vec<Expr>, name_loc: Loc, loc: Loc) -> Expr {
        if !self.cfg.v20("__opencl_c_device_enqueue") {
            self.diags.error(
                name_loc,
                format!("implicit declaration of function '{name}' is invalid in OpenCL"),
            );
            return self.error_expr(loc);
        }
        let int = self.types.int();
        let uint = self.types.scalar(Scalar::UInt);
        let queue = self.types.intern(Type::Queue);
        let ndrange = self.types.intern(Type::NdRange);
        let clk = self.types.intern(Type::ClkEvent);
        let space = if self.opts.generic {
            AddrSpace::Generic
        } else {
            AddrSpace::Private
        };
        let wait_list = self.types.pointer(QualType {
            ty: clk,
            is_const: true,
            space,
            ..Default::default()
        });
        let event_ret = self.types.pointer(QualType {
            ty: clk,
            space,
            ..Default::default()
        });
        let bad = |me: &mut Self, args: &[Expr]| {
            let tys: Vec<String> = args.iter().map(|a| me.types.name(a.ty)).collect();
            me.diags.error(
                name_loc,
                format!(
                    "no matching function for call to '{name}' with arguments ({})",
                    tys.join(", ")
                ),
            );
            me.error_expr(loc)
        };
        let block_at = |me: &Self, args: &[Expr]| {
            args.iter()
                .position(|a| matches!(me.types.get(a.ty), Type::Block { .. }))
        };
        let Some(bi) = block_at(self, &args) else {
            return bad(self, &args);
        };
        let Type::Block {
            ret,
            params: bparams,
        } = self.types.get(args[bi].ty).clone()
        else {
            return bad(self, &args);
        };
        let mut expected: Vec<TypeId> = match name {
            "enqueue_kernel" => match bi {
                3 => vec![queue, int, ndrange],
                6 => vec![queue, int, ndrange, uint, wait_list, event_ret],
                _ => return bad(self, &args),
            },
            "get_kernel_work_group_size" | "get_kernel_preferred_work_group_size_multiple"
                if bi == 0 =>
            {
                vec![]
            }
            "get_kernel_sub_group_count_for_ndrange"
            | "get_kernel_max_sub_group_size_for_ndrange"
                if bi == 1 =>
            {
                vec![ndrange]
            }
            _ => return bad(self, &args),
        };
        expected.push(args[bi].ty);
        // The block returns void; its parameters are all `local void *`, one size each.
        let local_ptrs = bparams
            .iter()
            .all(|p| matches!(self.types.pointee(*p), Some(q) if q.space == AddrSpace::Local));
        if !self.types.is_void(ret) || !local_ptrs {
            let tn = self.types.name(args[bi].ty);
            self.diags.error(args[bi].loc, format!("illegal block type '{tn}': blocks passed to '{name}' return void and take only local pointers"));
            return self.error_expr(loc);
        }
        let sizes = args.len() - bi - 1;
        if sizes != bparams.len() || (name != "enqueue_kernel" && sizes != 0) {
            self.diags.error(name_loc, format!("mismatch in number of block parameters ({}) and local size arguments ({sizes})", bparams.len()));
            return self.error_expr(loc);
        }
        expected.extend(std::iter::repeat_n(uint, sizes));
        let mut conv = Vec::new();
        for (a, p) in args.into_iter().zip(expected.iter()) {
            if a.ty == *p {
                conv.push(a);
                continue;
            }
            let l = a.loc;
            let c = self.assign_convert(a, *p, l, "passing");
            if c.is_error() {
                return c;
            }
            conv.push(c);
        }
        let rt = if name == "enqueue_kernel" { int } else { uint };
        mk(
            ExprKind::Call(
                Box::new(Callee::Builtin {
                    name: name.to_string(),
                    params: expected,
                }),
                conv,
            ),
            rt,
            loc,
        )
    }

    /// 6.15.18 pipe functions: generic over the element type of the pipe argument.
    fn pipe_builtin(&mut self, name: &str, args: Vec<Expr>, name_loc: Loc, loc: Loc) -> Expr {
        let int = self.types.int();
        let uint = self.types.scalar(Scalar::UInt);
        let rid = self.types.intern(Type::ReserveId);
        let void = self.types.void();
        let bool_t = self.types.scalar(Scalar::Bool);
        let bad = |me: &mut Self, args: &[Expr]| {
            let tys: Vec<String> = args.iter().map(|a| me.types.name(a.ty)).collect();
            me.diags.error(
                name_loc,
                format!(
                    "no matching function for call to '{name}' with arguments ({})",
                    tys.join(", ")
                ),
            );
            me.error_expr(loc)
        };
        if name == "is_valid_reserve_id" {
            if args.len() != 1 || args[0].ty != rid {
                return bad(self, &args);
            }
            return mk(
                ExprKind::Call(
                    Box::new(Callee::Builtin {
                        name: name.to_string(),
                        params: vec![rid],
                    }),
                    args,
                ),
                bool_t,
                loc,
            );
        }
        let Some(Type::Pipe(elem, access)) = args.first().map(|a| self.types.get(a.ty).clone())
        else {
            return bad(self, &args);
        };
        let pipe_ty = args[0].ty;
        let reading = name.contains("read");
        let writing = name.contains("write");
        if (reading && access != ast::Access::ReadOnly)
            || (writing && access != ast::Access::WriteOnly)
        {
            self.diags.error(
                args[0].loc,
                format!(
                    "invalid pipe access modifier (expecting {})",
                    if reading { "read_only" } else { "write_only" }
                ),
            );
            return self.error_expr(loc);
        }
        let space = if self.opts.generic {
            AddrSpace::Generic
        } else {
            AddrSpace::Private
        };
        let elem_ptr = self.types.pointer(QualType {
            ty: elem,
            is_const: writing,
            space,
            ..Default::default()
        });
        let (params, ret): (Vec<TypeId>, TypeId) = match name {
            "read_pipe" | "write_pipe" if args.len() == 2 => (vec![pipe_ty, elem_ptr], int),
            "read_pipe" | "write_pipe" if args.len() == 4 => {
                (vec![pipe_ty, rid, uint, elem_ptr], int)
            }
            "get_pipe_num_packets" | "get_pipe_max_packets" => (vec![pipe_ty], uint),
            n if n.contains("reserve") => (vec![pipe_ty, uint], rid),
            n if n.contains("commit") => (vec![pipe_ty, rid], void),
            _ => return bad(self, &args),
        };
        if params.len() != args.len() {
            return bad(self, &args);
        }
        let mut conv = Vec::new();
        for (a, p) in args.into_iter().zip(params.iter()) {
            if a.ty == *p {
                conv.push(a);
                continue;
            }
            let l = a.loc;
            let c = self.assign_convert(a, *p, l, "passing");
            if c.is_error() {
                return c;
            }
            conv.push(c);
        }
        mk(
            ExprKind::Call(
                Box::new(Callee::Builtin {
                    name: name.to_string(),
                    params,
                }),
                conv,
            ),
            ret,
            loc,
        )
    }

    fn address_space_builtin(
        &mut self,
        name: &str,
        args: Vec<Expr>,
        name_loc: Loc,
        loc: Loc,
    ) -> Expr {
        if !self.opts.generic {
            self.diags.error(
                name_loc,
                format!("implicit declaration of function '{name}' is invalid in OpenCL"),
            );
            return self.error_expr(loc);
        }
        if args.len() != 1 {
            self.diags.error(
                name_loc,
                format!("invalid number of arguments to function: '{name}'"),
            );
            return self.error_expr(loc);
        }
        let a = args.into_iter().next().expect("one argument");
        let Some(q) = self.types.pointee(a.ty) else {
            let tn = self.types.name(a.ty);
            self.diags.error(a.loc, format!("invalid argument {tn} to function: '{name}', expecting a generic pointer argument"));
            return self.error_expr(loc);
        };
        if q.space == AddrSpace::Constant {
            self.diags.error(
                a.loc,
                format!("invalid argument to function '{name}': pointer to constant address space"),
            );
            return self.error_expr(loc);
        }
        let gen = self.types.pointer(QualType {
            space: AddrSpace::Generic,
            ..q
        });
        let l = a.loc;
        let a = self.assign_convert(a, gen, l, "passing");
        let ret = match name {
            "to_global" => Some(AddrSpace::Global),
            "to_local" => Some(AddrSpace::Local),
            "to_private" => Some(AddrSpace::Private),
            _ => None,
        };
        let rt = match ret {
            Some(s) => self.types.pointer(QualType { space: s, ..q }),
            None => self.types.scalar(Scalar::UInt),
        };
        mk(
            ExprKind::Call(
                Box::new(Callee::Builtin {
                    name: name.to_string(),
                    params: vec![gen],
                }),
                vec![a],
            ),
            rt,
            loc,
        )
    }

    // ---- constants ----

    /// Integer constant expression value (C99 6.6), or None when not constant.
    pub fn const_int(&self, e: &Expr) -> Option<i128> {
        let bits_of = |t: TypeId| -> Option<(u32, bool)> {
            match self.types.get(t) {
                Type::Scalar(s) if s.is_integer() => Some((s.size() * 8, s.is_signed())),
                Type::Enum(_) => Some((32, true)),
                _ => None,
            }
        };
        let wrap = |v: i128, t: TypeId| -> Option<i128> {
            let (bits, signed) = bits_of(t)?;
            if self.types.get(t) == &Type::Scalar(Scalar::Bool) {
                return Some((v != 0) as i128);
            }
            let m = v & ((1i128 << bits) - 1);
            Some(if signed && m >= 1i128 << (bits - 1) {
                m - (1i128 << bits)
            } else {
                m
            })
        };
        match &e.kind {
            ExprKind::IntConst(v) => wrap(*v as i128, e.ty),
            ExprKind::Cast(k, x) => match k {
                CastKind::IntToInt | CastKind::NoOp => wrap(self.const_int(x)?, e.ty),
                CastKind::ToBool => Some(
                    (self
                        .const_int(x)
                        .or_else(|| self.const_float(x).map(|f| (f != 0.0) as i128))?
                        != 0) as i128,
                ),
                CastKind::FloatToInt => {
                    let f = self.const_float(x)?;
                    wrap(f as i128, e.ty)
                }
                _ => None,
            },
            ExprKind::Unary(op, x) => {
                let v = self.const_int(x)?;
                match op {
                    UnaryOp::Neg => wrap(v.wrapping_neg(), e.ty),
                    UnaryOp::BitNot => wrap(!v, e.ty),
                    UnaryOp::LogNot => Some((v == 0) as i128),
                }
            }
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.const_int(a)?, self.const_int(b)?);
                let v = match op {
                    BinOp::Add => x.wrapping_add(y),
                    BinOp::Sub => x.wrapping_sub(y),
                    BinOp::Mul => x.wrapping_mul(y),
                    BinOp::Div => {
                        if y == 0 {
                            return None;
                        }
                        x / y
                    }
                    BinOp::Rem => {
                        if y == 0 {
                            return None;
                        }
                        x % y
                    }
                    BinOp::Shl => x.wrapping_shl((y & 63) as u32),
                    BinOp::Shr => x >> (y & 63),
                    BinOp::BitAnd => x & y,
                    BinOp::BitOr => x | y,
                    BinOp::BitXor => x ^ y,
                    BinOp::Lt => return Some((x < y) as i128),
                    BinOp::Gt => return Some((x > y) as i128),
                    BinOp::Le => return Some((x <= y) as i128),
                    BinOp::Ge => return Some((x >= y) as i128),
                    BinOp::Eq => return Some((x == y) as i128),
                    BinOp::Ne => return Some((x != y) as i128),
                    BinOp::LogAnd => return Some((x != 0 && y != 0) as i128),
                    BinOp::LogOr => return Some((x != 0 || y != 0) as i128),
                };
                wrap(v, e.ty)
            }
            ExprKind::Cond(c, a, b) => {
                if self.const_int(c)? != 0 {
                    self.const_int(a)
                } else {
                    self.const_int(b)
                }
            }
            ExprKind::Comma(..) => None,
            _ => None,
        }
    }

    pub fn const_float(&self, e: &Expr) -> Option<f64> {
        match &e.kind {
            ExprKind::FloatConst(v) => Some(*v),
            ExprKind::Cast(CastKind::FloatToFloat | CastKind::NoOp, x) => self.const_float(x),
            ExprKind::Cast(CastKind::IntToFloat, x) => self.const_int(x).map(|v| v as f64),
            ExprKind::Unary(UnaryOp::Neg, x) => self.const_float(x).map(|v| -v),
            _ => None,
        }
    }
}
