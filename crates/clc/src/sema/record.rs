//! C11 anonymous structure and union members (C11 6.7.2.1p13, which OpenCL C 3.0 inherits and
//! every clang-based compiler accepts in every OpenCL C version): "An unnamed member whose type
//! specifier is a structure specifier with no tag is called an anonymous structure [...] The
//! members of an anonymous structure or union are considered to be members of the containing
//! structure or union." An anonymous member is a field without a name whose type is the
//! anonymous record; it is laid out like any other field, and member lookup looks through it.

use super::*;

impl Sema<'_> {
    /// The field for a member declaration without declarators (`struct { int b, c; };` inside a
    /// record): an anonymous member when its type is a structure or union without a tag.
    /// Anything else declares no member, which is reported (clang warns, "declaration does not
    /// declare anything") so that no declaration disappears in silence.
    pub(super) fn anonymous_member(&mut self, g: &ast::FieldGroup, q: QualType) -> Option<Field> {
        let loc = g.spec.loc;
        match &g.spec.base {
            BaseType::Record(r) if r.name.is_none() && r.fields.is_some() => Some(Field {
                name: None,
                ty: QualType {
                    space: AddrSpace::Private,
                    ..q
                },
                offset: 0,
                align: self.align_attr(&g.spec.attrs),
            }),
            _ => {
                self.diags
                    .warning(loc, "declaration does not declare anything");
                None
            }
        }
    }

    /// The names a record's members can be reached by, anonymous members' included.
    pub(super) fn member_names(&self, rid: u32) -> Vec<Sym> {
        let mut out = Vec::new();
        for f in &self.types.records[rid as usize].fields {
            match (f.name, self.types.get(f.ty.ty)) {
                (Some(n), _) => out.push(n),
                (None, Type::Record(inner)) => out.extend(self.member_names(*inner)),
                _ => {}
            }
        }
        out
    }

    /// The field indices that lead from record `rid` to its member `name`: one index for a
    /// direct member, more through anonymous members (C11 6.7.2.1p13).
    pub(super) fn member_path(&self, rid: u32, name: Sym) -> Option<Vec<u32>> {
        let fields = &self.types.records[rid as usize].fields;
        if let Some(i) = fields.iter().position(|f| f.name == Some(name)) {
            return Some(vec![i as u32]);
        }
        for (i, f) in fields.iter().enumerate() {
            if f.name.is_some() {
                continue;
            }
            if let Type::Record(inner) = *self.types.get(f.ty.ty) {
                if let Some(mut rest) = self.member_path(inner, name) {
                    rest.insert(0, i as u32);
                    return Some(rest);
                }
            }
        }
        None
    }

    /// Reports a member name that an anonymous member brings in a second time (C11
    /// 6.7.2.1p13 makes its members the record's own; duplicates among the named members are
    /// reported where they are declared).
    pub(super) fn check_anonymous_duplicates(&mut self, fields: &[Field], loc: Loc) {
        let mut seen: Vec<(Sym, bool)> = Vec::new();
        for f in fields {
            let (names, anon) = match (f.name, self.types.get(f.ty.ty)) {
                (Some(n), _) => (vec![n], false),
                (None, Type::Record(inner)) => (self.member_names(*inner), true),
                _ => continue,
            };
            for n in names {
                match seen.iter().find(|(s, _)| *s == n) {
                    Some((_, was_anon)) if anon || *was_anon => {
                        let nm = self.name(n).to_string();
                        self.diags.error(loc, format!("duplicate member '{nm}'"));
                    }
                    Some(_) => {}
                    None => seen.push((n, anon)),
                }
            }
        }
    }
}
