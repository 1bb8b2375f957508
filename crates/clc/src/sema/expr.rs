//! Expressions: typing, implicit conversions made explicit, operators on scalars and vectors
//! (OpenCL C 6.4, 6.5), swizzles (6.3.7), vector literals (6.3.6), calls with builtin overload
//! resolution, and integer constant evaluation.

mod access;
mod block;
mod call;
mod consteval;
mod conv;
mod generic;
mod operator;

use super::tree::*;
use super::types::*;
use super::{overload, Binding, Sema};
use crate::builtins::{self, catalogue, Builtin, PElem, Pt};
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

/// A call of builtin `name` whose parameters are `params`, with its arguments converted.
fn builtin_call_expr(
    builtin: Builtin,
    params: Vec<TypeId>,
    args: Vec<Expr>,
    ret: TypeId,
    loc: Loc,
) -> Expr {
    let callee = Callee::Builtin { builtin, params };
    mk(ExprKind::Call(Box::new(callee), args), ret, loc)
}

impl Sema<'_> {
    fn error_expr(&self, loc: Loc) -> Expr {
        mk(ExprKind::Error, TypeId(0), loc)
    }

    /// Reports that a binary operator cannot take operands of types `a` and `b`, as clang
    /// words it.
    fn invalid_operands(&mut self, a: TypeId, b: TypeId, loc: Loc) {
        let (x, y) = (self.types.name(a), self.types.name(b));
        self.diags.error(
            loc,
            format!("invalid operands to binary expression ('{x}' and '{y}')"),
        );
    }

    /// Reports that no overload of builtin `name` takes `args`, as clang words it.
    fn no_matching_call(&mut self, name: &str, name_loc: Loc, args: &[Expr], loc: Loc) -> Expr {
        let tys: Vec<String> = args.iter().map(|a| self.types.name(a.ty)).collect();
        self.diags.error(
            name_loc,
            format!(
                "no matching function for call to '{name}' with arguments ({})",
                tys.join(", ")
            ),
        );
        self.error_expr(loc)
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
            ast::ExprKind::Binary(..) => self.binary_chain(e),
            ast::ExprKind::Assign(op, l, r) => self.assign(*op, l, r, loc),
            ast::ExprKind::Cond(c, a, b) => self.conditional(c, a, b, loc),
            ast::ExprKind::Comma(..) => {
                // `a, b, c, ...` is a left-deep chain: checked with a loop over its left spine.
                let mut spine = Vec::new();
                let mut left = e;
                while let ast::ExprKind::Comma(a, b) = &left.kind {
                    spine.push((&**b, left.loc));
                    left = a;
                }
                let mut acc = self.expr(left);
                while let Some((b, loc)) = spine.pop() {
                    let a = self.discard(acc);
                    let b = self.expr(b);
                    let b = self.rvalue(b);
                    if a.is_error() || b.is_error() {
                        acc = self.error_expr(loc);
                        continue;
                    }
                    let t = b.ty;
                    acc = mk(ExprKind::Comma(Box::new(a), Box::new(b)), t, loc);
                }
                acc
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
            ast::ExprKind::Generic(control, assocs) => self.generic_selection(control, assocs, loc),
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
    /// A binary operator and the left-deep chain under it (`a + b + c + ...`, as the parser
    /// builds it without recursing): checked with a loop over the left spine, operands in
    /// source order, so that the chain's length takes no stack.
    fn binary_chain(&mut self, e: &ast::Expr) -> Expr {
        let mut spine = Vec::new();
        let mut left = e;
        while let ast::ExprKind::Binary(op, a, b) = &left.kind {
            spine.push((*op, &**b, left.loc));
            left = a;
        }
        let a = self.expr(left);
        let mut acc = self.rvalue(a);
        while let Some((op, b, loc)) = spine.pop() {
            let b = self.expr(b);
            let b = self.rvalue(b);
            acc = self.binary(op, acc, b, loc);
        }
        acc
    }

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

    // ---- calls ----

    // ---- constants ----
}
