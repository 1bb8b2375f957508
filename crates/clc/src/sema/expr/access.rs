//! Element and member access: array subscripts, structure and union members (through anonymous
//! members), vector component selection (swizzles, 6.3.7), and vector literals (6.3.6).

use super::*;

impl Sema<'_> {
    pub(super) fn index(&mut self, base: &ast::Expr, idx: &ast::Expr, loc: Loc) -> Expr {
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

    pub(super) fn member(
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
    pub(super) fn swizzle(&mut self, b: Expr, s: Scalar, lanes: u8, name: &str, loc: Loc) -> Expr {
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

    /// (float4)(a, b.xy, c): 6.3.6 — parts are scalars or vectors of the element type whose
    /// lanes add up to the vector's; a single scalar is replicated.
    pub(super) fn vector_literal(
        &mut self,
        tn: &ast::TypeName,
        items: &[ast::Expr],
        loc: Loc,
    ) -> Expr {
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
}
