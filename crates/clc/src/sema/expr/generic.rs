//! Generic selection (C11 6.5.1.1), which clang accepts in every OpenCL C version: the
//! association whose type is compatible with the controlling expression's type after lvalue
//! conversion (so qualifiers are dropped and arrays become pointers) is the result, with its
//! type, value and lvalue-ness; the other associations are checked but never evaluated.

use super::*;

impl Sema<'_> {
    pub(super) fn generic_selection(
        &mut self,
        control: &ast::Expr,
        assocs: &[ast::GenericAssoc],
        loc: Loc,
    ) -> Expr {
        // 6.5.1.1p3: "The controlling expression of a generic selection is not evaluated."
        // Its type is the one lvalue conversion gives (C11 DR 481, as clang does).
        let control_loc = control.loc;
        let control = self.expr(control);
        let control_ty = if control.is_error() {
            None
        } else {
            Some(self.rvalue(control).ty)
        };
        let mut types: Vec<(TypeId, Loc)> = Vec::new();
        let mut default: Option<(usize, Loc)> = None;
        let mut chosen = None;
        let mut checked = Vec::with_capacity(assocs.len());
        let mut failed = control_ty.is_none();
        for (i, a) in assocs.iter().enumerate() {
            let e = self.expr(&a.expr);
            failed |= e.is_error();
            checked.push(Some(e));
            let Some(tn) = &a.ty else {
                // 6.5.1.1p2: "A generic selection shall have no more than one default generic
                // association."
                if let Some((_, first)) = default {
                    self.diags
                        .error(a.loc, "duplicate default generic association");
                    self.diags
                        .note(first, "previous default generic association is here");
                    failed = true;
                } else {
                    default = Some((i, a.loc));
                }
                continue;
            };
            let q = self.type_name(tn);
            let name = self.types.name(q.ty);
            // 6.5.1.1p2: "The type name in a generic association shall specify a complete
            // object type other than a variably modified type."
            if matches!(self.types.get(q.ty), Type::Function { .. }) {
                self.diags.error(
                    a.loc,
                    format!("type '{name}' in generic association not an object type"),
                );
                failed = true;
                continue;
            }
            if self.types.size_of(q.ty).is_none() {
                self.diags.error(
                    a.loc,
                    format!("type '{name}' in generic association incomplete"),
                );
                failed = true;
                continue;
            }
            // 6.5.1.1p2: "No two generic associations in the same generic selection shall
            // specify compatible types."
            if let Some(&(_, first)) = types.iter().find(|(t, _)| *t == q.ty) {
                self.diags.error(
                    a.loc,
                    format!(
                        "type '{name}' in generic association compatible with previously \
                         specified type '{name}'"
                    ),
                );
                self.diags.note(first, "compatible type is here");
                failed = true;
                continue;
            }
            types.push((q.ty, a.loc));
            // After lvalue conversion the controlling type is never qualified nor an array,
            // so such an association can never be chosen (clang warns likewise).
            let never = if q.is_const || q.is_volatile {
                Some("it is qualified")
            } else if matches!(self.types.get(q.ty), Type::Array(..)) {
                Some("it is of array type")
            } else {
                None
            };
            if let Some(why) = never {
                let shown = format!(
                    "{}{}{name}",
                    if q.is_const { "const " } else { "" },
                    if q.is_volatile { "volatile " } else { "" }
                );
                self.diags.warning(
                    a.loc,
                    format!(
                        "due to lvalue conversion of the controlling expression, association \
                         of type '{shown}' will never be selected because {why}"
                    ),
                );
            } else if Some(q.ty) == control_ty {
                chosen = Some(i);
            }
        }
        if failed {
            return self.error_expr(loc);
        }
        let control_ty = control_ty.expect("checked above");
        // 6.5.1.1p2: "If a generic selection has no default generic association, its
        // controlling expression shall have type compatible with exactly one of the types
        // named in its generic association list."
        let Some(i) = chosen.or(default.map(|(i, _)| i)) else {
            let name = self.types.name(control_ty);
            self.diags.error(
                control_loc,
                format!(
                    "controlling expression type '{name}' not compatible with any generic \
                     association type"
                ),
            );
            return self.error_expr(loc);
        };
        // 6.5.1.1p3: "Its type and value are those of its result expression."
        checked[i].take().expect("each association was checked")
    }
}
