//! Initializers: scalar and brace-enclosed initializers with designators (C99 6.7.8), the
//! completion of an array's size from its initializer, and the constant-initializer rule for
//! program-scope variables.

use super::*;

pub(super) fn init_loc(i: &ast::Initializer) -> Loc {
    match i {
        ast::Initializer::Expr(e) => e.loc,
        ast::Initializer::List(_, l) => *l,
    }
}

impl<'a> Sema<'a> {
    /// Checks an initializer against `ty`, resolving designators (C99 6.7.8).
    pub fn initializer(&mut self, init: &ast::Initializer, ty: TypeId) -> Option<Init> {
        match init {
            ast::Initializer::Expr(e) => {
                // A string literal initializes a char array.
                if let (Type::Array(elem, n), ast::ExprKind::Str(s)) =
                    (self.types.get(ty).clone(), &e.kind)
                {
                    if matches!(
                        self.types.get(elem.ty),
                        Type::Scalar(Scalar::Char | Scalar::UChar)
                    ) {
                        if let Some(n) = n {
                            if s.len() as u64 > n {
                                self.diags
                                    .error(e.loc, "initializer-string for char array is too long");
                            }
                        }
                        let mut items: Vec<Option<Init>> = s
                            .iter()
                            .map(|b| {
                                Some(Init::Expr(Expr {
                                    kind: ExprKind::IntConst(*b as u64),
                                    ty: elem.ty,
                                    loc: e.loc,
                                }))
                            })
                            .collect();
                        items.push(None);
                        // C99 6.7.8p22: the initializer completes an array of unknown size.
                        let ty = match n {
                            Some(_) => ty,
                            None => self
                                .types
                                .intern(Type::Array(elem, Some(items.len() as u64))),
                        };
                        return Some(Init::List(ty, items));
                    }
                }
                if matches!(self.types.get(ty), Type::Array(..)) {
                    let ce = self.expr(e);
                    if !ce.is_error() {
                        self.diags
                            .error(e.loc, "array initializer must be an initializer list");
                    }
                    return None;
                }
                let ce = self.expr(e);
                let ce = self.rvalue(ce);
                let ce = self.assign_convert(ce, ty, e.loc, "initializing");
                Some(Init::Expr(ce))
            }
            ast::Initializer::List(items, loc) => {
                let mut pos = 0usize;
                self.init_list(items, &mut pos, ty, *loc, true)
            }
        }
    }

    pub(super) fn aggregate_len(&self, ty: TypeId) -> Option<usize> {
        match self.types.get(ty) {
            Type::Array(_, n) => {
                Some(n.map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX)))
            }
            Type::Record(r) => {
                let r = &self.types.records[*r as usize];
                Some(r.fields.len())
            }
            Type::Vector(_, n) => Some(*n as usize),
            _ => None,
        }
    }

    pub(super) fn member_type(&mut self, ty: TypeId, i: usize) -> TypeId {
        match self.types.get(ty).clone() {
            Type::Array(e, _) => e.ty,
            Type::Record(r) => self.types.records[r as usize].fields[i].ty.ty,
            Type::Vector(s, _) => self.types.scalar(s),
            _ => ty,
        }
    }

    /// Brace-enclosed lists with brace elision (C99 6.7.8p20); `pos` walks `items`.
    pub(super) fn init_list(
        &mut self,
        items: &[(Vec<ast::Designator>, ast::Initializer)],
        pos: &mut usize,
        ty: TypeId,
        loc: Loc,
        braced: bool,
    ) -> Option<Init> {
        let Some(len) = self.aggregate_len(ty) else {
            // A scalar in braces: `int x = {1};`
            let Some((d, i)) = items.get(*pos) else {
                self.diags.error(loc, "scalar initializer cannot be empty");
                return None;
            };
            *pos += 1;
            if !d.is_empty() {
                self.diags
                    .error(loc, "designator in initializer for scalar type");
            }
            let r = self.initializer(i, ty);
            if braced && *pos < items.len() {
                self.diags.error(
                    init_loc(&items[*pos].1),
                    "excess elements in scalar initializer",
                );
                *pos = items.len();
            }
            return r;
        };
        let unsized_array = matches!(self.types.get(ty), Type::Array(_, None));
        // Entries are stored up to the last one written; the rest of the object is zero.
        let mut out: Vec<Option<Init>> = Vec::new();
        let mut idx = 0usize;
        // The last designator named a member of an anonymous member.
        let mut into_anonymous = false;
        while *pos < items.len() {
            let start = *pos;
            let (desig, item) = &items[*pos];
            if desig.is_empty() && std::mem::take(&mut into_anonymous) {
                // C99 6.7.8p17 would continue with the member after the designated one, inside
                // the anonymous member; that case is not implemented and must not guess.
                self.diags.error(
                    init_loc(item),
                    "an initializer without a designator after a designator that names a member of an anonymous structure or union is not supported; designate this member too",
                );
            }
            if !desig.is_empty() {
                if !braced {
                    break;
                }
                *pos += 1;
                let Some((i, used)) = self.designator_index(&desig[0], ty, len) else {
                    continue;
                };
                into_anonymous = !used;
                idx = i;
                if idx >= out.len() {
                    out.resize(idx + 1, None);
                }
                let mty = self.member_type(ty, idx);
                let mut slot = out[idx].take();
                let rest = if used { &desig[1..] } else { &desig[..] };
                self.designate(&mut slot, mty, rest, item);
                out[idx] = slot;
                idx += 1;
                continue;
            }
            let is_union = matches!(self.types.get(ty), Type::Record(r) if self.types.records[*r as usize].is_union);
            if !unsized_array && (idx >= len || (is_union && idx >= 1)) {
                if braced {
                    let what = match self.types.get(ty) {
                        Type::Array(..) => "array",
                        Type::Vector(..) => "vector",
                        _ => "struct",
                    };
                    // C99 6.7.8p2: no initializer for an object outside the entity.
                    self.diags.error(
                        init_loc(item),
                        format!("excess elements in {what} initializer"),
                    );
                    *pos = items.len();
                }
                break;
            }
            let mty = self.member_type(ty, idx);
            let val = match item {
                ast::Initializer::List(sub, l) => {
                    *pos += 1;
                    let mut p = 0;
                    self.init_list(sub, &mut p, mty, *l, true)
                }
                ast::Initializer::Expr(e) => {
                    let is_agg = self.aggregate_len(mty).is_some();
                    let direct = !is_agg
                        || (matches!(e.kind, ast::ExprKind::Str(_))
                            && matches!(self.types.get(mty), Type::Array(..)))
                        || self.expr_type_peek(e) == Some(mty);
                    if direct {
                        *pos += 1;
                        self.initializer(item, mty)
                    } else {
                        self.init_list(items, pos, mty, e.loc, false)
                    }
                }
            };
            if *pos == start {
                // Nothing consumed (an empty aggregate member): skip the item.
                *pos += 1;
            }
            if idx >= MAX_INIT_ENTRIES {
                self.diags.error(loc, format!("initializer list has more than the {MAX_INIT_ENTRIES} entries this compiler supports"));
                break;
            }
            if idx >= out.len() {
                out.resize(idx + 1, None);
            }
            out[idx] = val;
            idx += 1;
            if !braced && !unsized_array && idx >= len {
                break;
            }
        }
        if unsized_array {
            let n = out.len().max(1) as u64;
            out.resize(n as usize, None);
            if let Type::Array(e, _) = self.types.get(ty).clone() {
                let t = self.types.intern(Type::Array(e, Some(n)));
                return Some(Init::List(t, out));
            }
        }
        Some(Init::List(ty, out))
    }

    /// The member a designator names in `ty` (C99 6.7.8p6-7).
    /// Also says whether the designator is used up: a field designator that names a member of
    /// an anonymous member gives that anonymous member, and applies again inside it.
    pub(super) fn designator_index(
        &mut self,
        d: &ast::Designator,
        ty: TypeId,
        len: usize,
    ) -> Option<(usize, bool)> {
        match d {
            ast::Designator::Index(e) => {
                if !matches!(self.types.get(ty), Type::Array(..)) {
                    self.diags
                        .error(e.loc, "array designator cannot initialize non-array type");
                    return None;
                }
                let ce = self.expr(e);
                let ce = self.rvalue(ce);
                match self.const_int(&ce) {
                    // Initializer lists are stored densely up to their last entry.
                    Some(v) if v >= MAX_INIT_ENTRIES as i128 && (v as u128) < len as u128 => {
                        self.diags.error(e.loc, format!("designated index {v} is beyond the {MAX_INIT_ENTRIES} initializer entries this compiler supports"));
                        None
                    }
                    Some(v) if v >= 0 && (v as u128) < len as u128 => Some((v as usize, true)),
                    Some(_) => {
                        self.diags
                            .error(e.loc, "array designator index exceeds array bounds");
                        None
                    }
                    None => {
                        self.diags
                            .error(e.loc, "expression is not an integer constant expression");
                        None
                    }
                }
            }
            ast::Designator::Field(name, floc) => {
                let Type::Record(r) = *self.types.get(ty) else {
                    self.diags.error(
                        *floc,
                        "field designator cannot initialize a non-struct, non-union type",
                    );
                    return None;
                };
                let found = self
                    .member_path(r, *name)
                    .map(|path| (path[0] as usize, path.len() == 1));
                if found.is_none() {
                    let n = self.name(*name).to_string();
                    let tn = self.types.name(ty);
                    self.diags.error(
                        *floc,
                        format!(
                            "field designator '{n}' does not refer to any field in type '{tn}'"
                        ),
                    );
                }
                found
            }
        }
    }

    /// Stores `item` into the subobject of `slot` (of type `ty`) that `desig` names.
    pub(super) fn designate(
        &mut self,
        slot: &mut Option<Init>,
        ty: TypeId,
        desig: &[ast::Designator],
        item: &ast::Initializer,
    ) {
        let Some(first) = desig.first() else {
            *slot = match item {
                ast::Initializer::List(sub, l) => {
                    let mut p = 0;
                    self.init_list(sub, &mut p, ty, *l, true)
                }
                ast::Initializer::Expr(_) => self.initializer(item, ty),
            };
            return;
        };
        let Some(len) = self.aggregate_len(ty) else {
            self.diags
                .error(init_loc(item), "designator in initializer for scalar type");
            return;
        };
        let Some((i, used)) = self.designator_index(first, ty, len) else {
            return;
        };
        let rest = if used { &desig[1..] } else { desig };
        let mut list = match slot.take() {
            Some(Init::List(t, l)) if t == ty => l,
            _ => Vec::new(),
        };
        if i >= list.len() {
            list.resize(i + 1, None);
        }
        let mty = self.member_type(ty, i);
        let mut sub = list[i].take();
        self.designate(&mut sub, mty, rest, item);
        list[i] = sub;
        *slot = Some(Init::List(ty, list));
    }

    /// The type an expression would have, without reporting anything (for brace elision).
    pub(super) fn expr_type_peek(&mut self, e: &ast::Expr) -> Option<TypeId> {
        let n = self.diags.list.len();
        let errors = self.diags.error_count();
        let ce = self.expr(e);
        let ce = self.rvalue(ce);
        self.diags.list.truncate(n);
        self.diags.reset_error_count(errors);
        (!ce.is_error()).then_some(ce.ty)
    }

    pub(super) fn is_constant_init(&self, i: &Init) -> bool {
        match i {
            Init::List(_, items) => items.iter().flatten().all(|x| self.is_constant_init(x)),
            Init::Expr(e) => self.is_constant_expr(e),
        }
    }

    pub(super) fn is_constant_expr(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::IntConst(_) | ExprKind::FloatConst(_) | ExprKind::StrConst(_) => true,
            ExprKind::Cast(k, x) => match k {
                CastKind::ArrayToPointer => {
                    matches!(x.kind, ExprKind::StrConst(_)) || self.is_global_lvalue(x)
                }
                _ => self.is_constant_expr(x),
            },
            ExprKind::Unary(_, x) => self.is_constant_expr(x),
            ExprKind::Binary(..) => {
                // A left-deep chain, walked with a loop over its left spine.
                let mut left = e;
                while let ExprKind::Binary(_, a, b) = &left.kind {
                    if !self.is_constant_expr(b) {
                        return false;
                    }
                    left = a;
                }
                self.is_constant_expr(left)
            }
            ExprKind::Cond(c, a, b) => {
                self.is_constant_expr(c) && self.is_constant_expr(a) && self.is_constant_expr(b)
            }
            ExprKind::VecLit(xs) => xs.iter().all(|x| self.is_constant_expr(x)),
            ExprKind::AddrOf(x) => self.is_global_lvalue(x),
            ExprKind::PtrAdd(a, b) => self.is_constant_expr(a) && self.is_constant_expr(b),
            _ => false,
        }
    }

    pub(super) fn is_global_lvalue(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Var(v) => matches!(
                self.vars[v.0 as usize].kind,
                VarKind::Global | VarKind::Extern
            ),
            ExprKind::Member(b, _) => self.is_global_lvalue(b),
            ExprKind::Deref(p) => self.is_constant_expr(p),
            _ => false,
        }
    }
}
