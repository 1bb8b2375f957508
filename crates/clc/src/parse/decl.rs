//! Declarations (6.7 of C99 with OpenCL's additions): external declarations and function
//! definitions, declaration specifiers with address-space and access qualifiers, structure, union
//! and enumeration specifiers, attributes, declarators, parameter lists, type names and
//! initializers.

use super::*;

pub(super) fn space_of(k: Kw) -> Option<AddrSpace> {
    Some(match k {
        Kw::Global_ | Kw::Global => AddrSpace::Global,
        Kw::Local_ | Kw::Local => AddrSpace::Local,
        Kw::Constant_ | Kw::Constant => AddrSpace::Constant,
        Kw::Private_ | Kw::Private => AddrSpace::Private,
        Kw::Generic_ | Kw::Generic => AddrSpace::Generic,
        _ => return None,
    })
}

pub(super) fn access_of(k: Kw) -> Option<Access> {
    Some(match k {
        Kw::ReadOnly_ | Kw::ReadOnly => Access::ReadOnly,
        Kw::WriteOnly_ | Kw::WriteOnly => Access::WriteOnly,
        Kw::ReadWrite_ | Kw::ReadWrite => Access::ReadWrite,
        _ => return None,
    })
}

impl<'a> Parser<'a> {
    /// `_Static_assert ( constant-expression [, string-literal] ) ;` (C11 6.7.10), which
    /// clang-based OpenCL compilers accept in every OpenCL C version.
    pub(super) fn static_assert(&mut self) -> Option<StaticAssert> {
        let loc = self.bump().loc;
        if !self.expect(Tok::LParen, "") {
            self.recover(false);
            return None;
        }
        let cond = self.conditional();
        let mut message = None;
        if self.eat(Tok::Comma) {
            if self.kind() != Tok::Str {
                let l = self.loc();
                self.error(
                    l,
                    "expected string literal for diagnostic message in static_assert",
                );
                self.recover(false);
                return None;
            }
            match self.primary().kind {
                ExprKind::Str(b) => message = Some(b),
                _ => unreachable!("a string token parses as a string literal"),
            }
        }
        if !self.expect(Tok::RParen, "") {
            self.recover(false);
            return None;
        }
        self.semi("after static_assert");
        Some(StaticAssert { cond, message, loc })
    }

    pub(super) fn external(&mut self) -> Option<External> {
        self.ops = 0;
        let t = self.tok();
        let mut implicit_int = false;
        if !self.starts_decl(t) {
            if t.kind == Tok::Ident && self.peek_n(1).kind == Tok::Ident {
                let name = self.text(t);
                self.error(t.loc, format!("unknown type name '{name}'"));
                self.bump();
            } else if t.kind == Tok::Ident && self.peek_n(1).kind == Tok::LParen {
                // Old-style implicit int is not OpenCL C; read on as `int`.
                self.error(t.loc, "type specifier missing, defaults to 'int'; ISO C99 and later do not support implicit int");
                implicit_int = true;
            } else if t.kind == Tok::Ident {
                self.error(t.loc, "type specifier missing, defaults to 'int'; ISO C99 and later do not support implicit int");
                self.recover(false);
                return None;
            } else if t.kind == Tok::RBrace {
                self.error(t.loc, "extraneous closing brace ('}')");
                self.bump();
                return None;
            } else {
                let d = self.describe_tok(t);
                self.error(t.loc, format!("expected external declaration, found {d}"));
                self.bump();
                self.recover(false);
                return None;
            }
        }
        let spec = if implicit_int {
            DeclSpec::int("int", t.loc)
        } else {
            self.decl_spec(true)
        };
        if self.eat(Tok::Semi) {
            return Some(External::Decls(DeclGroup {
                spec,
                decls: vec![],
            }));
        }
        let decl = self.declarator(false);
        if matches!(decl.derived.first(), Some(Derived::Function { .. }))
            && self.kind() == Tok::LBrace
        {
            // Function definition.
            let params: Vec<Sym> = match decl.derived.first() {
                Some(Derived::Function { params, .. }) => {
                    params.iter().filter_map(|p| p.decl.name).collect()
                }
                _ => vec![],
            };
            if let Some(n) = decl.name {
                self.declare(n, false);
            }
            self.push_scope();
            for p in params {
                self.declare(p, false);
            }
            let mut body = self.compound();
            self.pop_scope();
            if let (false, StmtKind::Compound(list, _)) = (self.contract, &mut body.kind) {
                // The FP_CONTRACT state outside functions is where the body starts from.
                list.insert(0, Stmt::fp_contract(false, body.loc));
            }
            return Some(External::Function {
                spec,
                decl,
                body: Box::new(body),
            });
        }
        let group = self.rest_of_decl_group(spec, decl);
        Some(External::Decls(group))
    }

    pub(super) fn rest_of_decl_group(&mut self, spec: DeclSpec, first: Declarator) -> DeclGroup {
        let mut decls = Vec::new();
        let mut decl = first;
        let is_typedef = spec.storage == Some(Storage::Typedef);
        loop {
            let init = if self.eat(Tok::Assign) {
                Some(self.initializer())
            } else {
                None
            };
            if let Some(n) = decl.name {
                self.declare(n, is_typedef);
            }
            decls.push(InitDecl { decl, init });
            if !self.eat(Tok::Comma) {
                break;
            }
            decl = self.declarator(false);
        }
        if !self.eat(Tok::Semi) {
            let l = self.prev_end();
            self.error(l, "expected ';' after top level declarator");
            self.recover(true);
            if self.kind() == Tok::Semi {
                self.bump();
            }
        }
        DeclGroup { spec, decls }
    }

    pub(super) fn decl_spec(&mut self, allow_storage: bool) -> DeclSpec {
        let loc = self.loc();
        let mut spec = DeclSpec::int("", loc);
        let (mut signed, mut unsigned, mut short, mut long, mut int, mut char_) =
            (0, 0, 0, 0, 0, 0);
        let mut named: Option<(BaseType, String)> = None;
        let mut keyword_base: Option<(Scalar, &'static str)> = None;
        let mut void = false;
        let mut body_defined = false;
        loop {
            let t = self.tok();
            if let Some(k) = self.kw_of(t) {
                use Kw::*;
                if body_defined
                    && matches!(
                        k,
                        Kernel_
                            | Kernel
                            | Typedef
                            | Extern
                            | Static
                            | Void
                            | Char
                            | Int
                            | Float
                            | Double
                            | Half
                            | Bool
                            | Struct
                            | Union
                            | Enum
                            | Signed
                            | Unsigned
                            | Short
                            | Long
                    )
                {
                    let l = self.prev_end();
                    let what = if named.as_ref().is_some_and(|n| n.1.starts_with("enum")) {
                        "enum"
                    } else {
                        "struct"
                    };
                    self.error(l, format!("expected ';' after {what}"));
                    self.virtual_semi = true;
                    break;
                }
                if let Some(sp) = space_of(k) {
                    if spec.space.is_some_and(|s| s != sp) {
                        self.error(t.loc, "multiple address spaces specified for type");
                    }
                    spec.space = Some(sp);
                    self.bump();
                    continue;
                }
                if let Some(a) = access_of(k) {
                    if spec.access.is_some() {
                        self.error(t.loc, "multiple access qualifiers");
                    }
                    spec.access = Some(a);
                    self.bump();
                    continue;
                }
                let storage = match k {
                    Typedef => Some(Storage::Typedef),
                    Extern => Some(Storage::Extern),
                    Static => Some(Storage::Static),
                    Auto => Some(Storage::Auto),
                    Register => Some(Storage::Register),
                    _ => None,
                };
                if let Some(s) = storage {
                    if !allow_storage {
                        self.error(t.loc, "invalid storage class specifier in this declaration");
                    } else if spec.storage.is_some() {
                        self.error(
                            t.loc,
                            "cannot combine with previous storage class specifier",
                        );
                    }
                    spec.storage = Some(s);
                    self.bump();
                    continue;
                }
                match k {
                    Const | ConstU | ConstUU => spec.quals.is_const = true,
                    Volatile | VolatileU | VolatileU1 => spec.quals.is_volatile = true,
                    Restrict | RestrictU | RestrictUU => spec.quals.is_restrict = true,
                    Inline | InlineU | InlineUU => spec.is_inline = true,
                    Kernel_ | Kernel => spec.is_kernel = true,
                    Pipe => spec.is_pipe = true,
                    Attribute | Attribute2 => {
                        let mut a = self.attributes();
                        spec.attrs.append(&mut a);
                        continue;
                    }
                    Signed | SignedU | SignedUU => signed += 1,
                    Unsigned => unsigned += 1,
                    Short => short += 1,
                    Long => long += 1,
                    Int => int += 1,
                    Char => char_ += 1,
                    Void => void = true,
                    Float | Double | Half | Bool | Bool_ => {
                        let b = match k {
                            Float => (Scalar::Float, "float"),
                            Double => (Scalar::Double, "double"),
                            Half => (Scalar::Half, "half"),
                            _ => (Scalar::Bool, "bool"),
                        };
                        if keyword_base.is_some() || named.is_some() {
                            self.error(t.loc, "cannot combine with previous type specifier");
                        }
                        keyword_base = Some(b);
                    }
                    Complex | Imaginary => {
                        self.error(t.loc, "complex types are not supported in OpenCL C");
                    }
                    Struct | Union => {
                        let r = self.record_spec(k == Union);
                        body_defined = r.fields.is_some();
                        let name = r
                            .name
                            .map(|n| self.interner.name(n).to_string())
                            .unwrap_or_else(|| "(anonymous)".into());
                        let kwd = if k == Union { "union" } else { "struct" };
                        named = Some((BaseType::Record(Box::new(r)), format!("{kwd} {name}")));
                        continue;
                    }
                    Enum => {
                        let e = self.enum_spec();
                        body_defined = e.enumerators.is_some();
                        let name = e
                            .name
                            .map(|n| self.interner.name(n).to_string())
                            .unwrap_or_else(|| "(anonymous)".into());
                        named = Some((BaseType::Enum(Box::new(e)), format!("enum {name}")));
                        continue;
                    }
                    _ => break,
                }
                self.bump();
                continue;
            }
            if t.kind == Tok::Ident
                && named.is_none()
                && keyword_base.is_none()
                && !void
                && signed + unsigned + short + long + int + char_ == 0
                && self.is_typedef_name(t)
            {
                // A typedef name, unless it is the declarator's name (`typedef int T; T T;` is
                // out of scope for OpenCL C programs).
                let name = self.text(t);
                let base = if self.is_user_typedef(t) {
                    BaseType::Typedef(t.sym)
                } else {
                    self.builtin_type(t).unwrap_or(BaseType::Typedef(t.sym))
                };
                named = Some((base, name));
                self.bump();
                continue;
            }
            break;
        }
        // Combine the keyword specifiers (C99 6.7.2p2).
        let err_loc = loc;
        if void {
            spec.base = BaseType::Void;
            spec.base_name = "void".into();
        } else if let Some((s, n)) = keyword_base {
            if s == Scalar::Double && long > 0 {
                // 6.3.4: long double is reserved.
                self.error(err_loc, "'long double' is a reserved type in OpenCL C");
            } else if signed + unsigned + short + long + int + char_ > 0 {
                self.error(err_loc, "cannot combine with previous type specifier");
            }
            spec.base = BaseType::Scalar(s);
            spec.base_name = n.into();
        } else if let Some((b, n)) = named {
            spec.base = b;
            spec.base_name = n;
        } else {
            if signed > 0 && unsigned > 0 {
                self.error(err_loc, "'signed' and 'unsigned' cannot be combined");
            }
            let s = if char_ > 0 {
                if unsigned > 0 {
                    Scalar::UChar
                } else {
                    Scalar::Char
                }
            } else if short > 0 {
                if unsigned > 0 {
                    Scalar::UShort
                } else {
                    Scalar::Short
                }
            } else if long > 0 {
                if long > 1 {
                    // 6.1.1: long long is reserved.
                    self.error(err_loc, "'long long' is not supported in OpenCL C");
                }
                if unsigned > 0 {
                    Scalar::ULong
                } else {
                    Scalar::Long
                }
            } else if unsigned > 0 {
                Scalar::UInt
            } else {
                Scalar::Int
            };
            if signed + unsigned + short + long + int + char_ == 0 {
                // Qualifiers, storage classes or attributes but no type (C99 6.7.2p2).
                let t = self.tok();
                if t.kind == Tok::Ident && matches!(self.peek_n(1).kind, Tok::Ident | Tok::Star) {
                    let name = self.text(t);
                    self.error(t.loc, format!("unknown type name '{name}'"));
                    // 6.15.18: pipes require OpenCL C 2.0, or 3.0 with __opencl_c_pipes;
                    // before 2.0 `pipe` is an ordinary name.
                    if name == "pipe" && self.version < 200 {
                        self.note(
                            t.loc,
                            "pipes require OpenCL C 2.0 or newer (-cl-std=CL2.0 or -cl-std=CL3.0)",
                        );
                    }
                    self.bump();
                } else {
                    self.error(t.loc, "type specifier missing, defaults to 'int'; ISO C99 and later do not support implicit int");
                }
            }
            spec.base = BaseType::Scalar(s);
            spec.base_name = s.name().into();
        }
        // Trailing attributes and qualifiers after a typedef name or struct are handled above
        // by the loop; qualifiers may follow the type too (`int const`).
        spec
    }

    pub(super) fn record_spec(&mut self, is_union: bool) -> RecordSpec {
        let loc = self.loc();
        self.bump();
        let mut attrs = Vec::new();
        while matches!(self.kw(), Some(Kw::Attribute | Kw::Attribute2)) {
            attrs.append(&mut self.attributes());
        }
        let mut name = None;
        if self.kind() == Tok::Ident && self.kw().is_none() {
            name = Some(self.bump().sym);
        }
        let mut fields = None;
        // clang takes the `#pragma pack` state where the definition starts.
        let pack = match self.pack.partition_point(|&(i, _)| i <= self.pos) {
            0 => None,
            n => self.pack[n - 1].1,
        };
        if self.eat(Tok::LBrace) {
            let mut groups = Vec::new();
            if self.enter() {
                while !matches!(self.kind(), Tok::RBrace | Tok::Eof) {
                    let t = self.tok();
                    if !self.starts_decl(t) {
                        if t.kind == Tok::Ident {
                            let n = self.text(t);
                            self.error(t.loc, format!("unknown type name '{n}'"));
                        } else {
                            let d = self.describe_tok(t);
                            self.error(t.loc, format!("expected member declaration, found {d}"));
                        }
                        self.recover(true);
                        continue;
                    }
                    let spec = self.decl_spec(false);
                    let mut fs = Vec::new();
                    if self.kind() != Tok::Semi {
                        loop {
                            let d = if self.kind() == Tok::Colon {
                                Declarator {
                                    name: None,
                                    loc: self.loc(),
                                    derived: vec![],
                                    attrs: vec![],
                                }
                            } else {
                                self.declarator(false)
                            };
                            let width = if self.eat(Tok::Colon) {
                                Some(self.conditional())
                            } else {
                                None
                            };
                            fs.push((d, width));
                            if !self.eat(Tok::Comma) {
                                break;
                            }
                        }
                    }
                    if !self.eat(Tok::Semi) {
                        let l = self.prev_end();
                        self.error(l, "expected ';' at end of declaration list");
                        self.recover_after_missing_semi();
                    }
                    groups.push(FieldGroup { spec, fields: fs });
                }
                self.leave();
            }
            self.expect(Tok::RBrace, "");
            fields = Some(groups);
        } else if name.is_none() {
            let l = self.loc();
            self.error(
                l,
                format!(
                    "declaration of anonymous {} must be a definition",
                    if is_union { "union" } else { "struct" }
                ),
            );
        }
        while matches!(self.kw(), Some(Kw::Attribute | Kw::Attribute2)) {
            attrs.append(&mut self.attributes());
        }
        RecordSpec {
            is_union,
            name,
            fields,
            attrs,
            loc,
            pack,
        }
    }

    pub(super) fn enum_spec(&mut self) -> EnumSpec {
        let loc = self.loc();
        self.bump();
        while matches!(self.kw(), Some(Kw::Attribute | Kw::Attribute2)) {
            self.attributes();
        }
        let mut name = None;
        if self.kind() == Tok::Ident && self.kw().is_none() {
            name = Some(self.bump().sym);
        }
        let mut enumerators = None;
        if self.eat(Tok::LBrace) {
            let mut list = Vec::new();
            while self.kind() == Tok::Ident && self.kw().is_none() {
                let t = self.bump();
                let v = if self.eat(Tok::Assign) {
                    Some(self.conditional())
                } else {
                    None
                };
                self.declare(t.sym, false);
                list.push((t.sym, v, t.loc));
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            if list.is_empty() {
                let l = self.loc();
                self.error(l, "use of empty enum");
            }
            if !self.expect(Tok::RBrace, "") {
                self.recover(true);
                self.eat(Tok::RBrace);
            }
            enumerators = Some(list);
        }
        EnumSpec {
            name,
            enumerators,
            loc,
        }
    }

    /// `__attribute__((a, b(args)))`, possibly repeated.
    pub(super) fn attributes(&mut self) -> Vec<Attr> {
        let mut out = Vec::new();
        while matches!(self.kw(), Some(Kw::Attribute | Kw::Attribute2)) {
            self.bump();
            if !self.expect(Tok::LParen, "after 'attribute'") || !self.expect(Tok::LParen, "") {
                self.recover(true);
                return out;
            }
            loop {
                let t = self.tok();
                if t.kind == Tok::RParen {
                    break;
                }
                if t.kind != Tok::Ident {
                    self.error(t.loc, "expected identifier");
                    break;
                }
                self.bump();
                let mut name = self.text(t);
                if name.len() > 4 && name.starts_with("__") && name.ends_with("__") {
                    name = name[2..name.len() - 2].to_string();
                }
                let mut args = Vec::new();
                if self.eat(Tok::LParen) {
                    while !matches!(self.kind(), Tok::RParen | Tok::Eof) {
                        let t = self.tok();
                        if self.starts_decl(t)
                            && self.kw_of(t).is_none_or(|k| space_of(k).is_none())
                        {
                            args.push(AttrArg::Type(self.type_name()));
                        } else {
                            args.push(AttrArg::Expr(self.assignment()));
                        }
                        if !self.eat(Tok::Comma) {
                            break;
                        }
                    }
                    self.expect(Tok::RParen, "");
                }
                out.push(Attr {
                    name,
                    args,
                    loc: t.loc,
                });
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            if !self.expect(Tok::RParen, "") || !self.expect(Tok::RParen, "") {
                self.recover(true);
            }
        }
        out
    }

    /// A declarator; `abstract_ok` allows a missing name (type names, parameters).
    pub(super) fn declarator(&mut self, abstract_ok: bool) -> Declarator {
        if !self.enter() {
            return Declarator {
                name: None,
                loc: self.loc(),
                derived: vec![],
                attrs: vec![],
            };
        }
        let mut ptrs = Vec::new();
        let mut attrs = Vec::new();
        loop {
            if self.kind() == Tok::Caret {
                let loc = self.bump().loc;
                ptrs.push(Derived::Block { loc });
                continue;
            }
            if !self.eat(Tok::Star) {
                break;
            }
            let mut quals = Quals::default();
            let mut space = None;
            loop {
                match self.kw() {
                    Some(Kw::Const | Kw::ConstU | Kw::ConstUU) => quals.is_const = true,
                    Some(Kw::Volatile | Kw::VolatileU | Kw::VolatileU1) => quals.is_volatile = true,
                    Some(Kw::Restrict | Kw::RestrictU | Kw::RestrictUU) => quals.is_restrict = true,
                    Some(Kw::Attribute | Kw::Attribute2) => {
                        attrs.append(&mut self.attributes());
                        continue;
                    }
                    Some(k) if space_of(k).is_some() => space = space_of(k),
                    _ => break,
                }
                self.bump();
            }
            ptrs.push(Derived::Pointer { quals, space });
        }
        let mut d = Declarator {
            name: None,
            loc: self.loc(),
            derived: vec![],
            attrs: vec![],
        };
        let t = self.tok();
        if t.kind == Tok::LParen && {
            // A nested declarator, not a parameter list: `(*p)`, `(name)`.
            let n = self.peek_n(1);
            n.kind == Tok::Star
                || n.kind == Tok::Caret
                || n.kind == Tok::LParen
                || (n.kind == Tok::Ident && !self.starts_decl(n) && !abstract_ok)
                || (n.kind == Tok::Ident
                    && abstract_ok
                    && !self.starts_decl(n)
                    && self.kw_of(n).is_none())
        } {
            self.bump();
            d = self.declarator(abstract_ok);
            self.expect(Tok::RParen, "");
        } else if t.kind == Tok::Ident && self.kw_of(t).is_none() {
            self.bump();
            d.name = Some(t.sym);
            d.loc = t.loc;
        } else if !abstract_ok {
            self.error(t.loc, "expected identifier or '('");
        }
        let mut suffixes = Vec::new();
        loop {
            match self.kind() {
                Tok::LBracket => {
                    let loc = self.bump().loc;
                    let size = if self.kind() == Tok::RBracket {
                        None
                    } else {
                        Some(Box::new(self.assignment()))
                    };
                    if !self.expect(Tok::RBracket, "") {
                        self.recover(true);
                    }
                    suffixes.push(Derived::Array { size, loc });
                }
                Tok::LParen => {
                    let loc = self.bump().loc;
                    let (params, variadic) = self.params();
                    suffixes.push(Derived::Function {
                        params,
                        variadic,
                        loc,
                    });
                }
                _ => break,
            }
        }
        while matches!(self.kw(), Some(Kw::Attribute | Kw::Attribute2)) {
            attrs.append(&mut self.attributes());
        }
        d.derived.extend(suffixes);
        d.derived.extend(ptrs.into_iter().rev());
        d.attrs.extend(attrs);
        self.leave();
        d
    }

    pub(super) fn params(&mut self) -> (Vec<Param>, bool) {
        let mut params = Vec::new();
        let mut variadic = false;
        if self.eat(Tok::RParen) {
            return (params, false);
        }
        // `(void)`
        if self.kw() == Some(Kw::Void) && self.peek_n(1).kind == Tok::RParen {
            self.bump();
            self.bump();
            return (params, false);
        }
        loop {
            if self.eat(Tok::Ellipsis) {
                variadic = true;
                break;
            }
            let t = self.tok();
            if !self.starts_decl(t) {
                if t.kind == Tok::Ident {
                    let n = self.text(t);
                    self.error(t.loc, format!("unknown type name '{n}'"));
                } else {
                    self.error(t.loc, "expected parameter declarator");
                }
                // Skip to ')' .
                let mut depth = 0;
                while !matches!(self.kind(), Tok::Eof | Tok::LBrace | Tok::Semi) {
                    match self.kind() {
                        Tok::LParen => depth += 1,
                        Tok::RParen if depth == 0 => break,
                        Tok::RParen => depth -= 1,
                        _ => {}
                    }
                    self.bump();
                }
                break;
            }
            let spec = self.decl_spec(true);
            let decl = self.declarator(true);
            params.push(Param { spec, decl });
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        if !self.eat(Tok::RParen) {
            let l = self.loc();
            self.error(l, "expected ')'");
        }
        (params, variadic)
    }

    pub(super) fn type_name(&mut self) -> TypeName {
        let spec = self.decl_spec(false);
        let decl = self.declarator(true);
        if decl.name.is_some() {
            self.error(decl.loc, "type name cannot have a name");
        }
        TypeName { spec, decl }
    }

    pub(super) fn initializer(&mut self) -> Initializer {
        if self.kind() != Tok::LBrace {
            return Initializer::Expr(self.assignment());
        }
        let loc = self.bump().loc;
        let mut items = Vec::new();
        if !self.enter() {
            return Initializer::List(items, loc);
        }
        while !matches!(self.kind(), Tok::RBrace | Tok::Eof) {
            let mut desig = Vec::new();
            loop {
                if self.eat(Tok::Dot) {
                    let t = self.tok();
                    if t.kind == Tok::Ident {
                        self.bump();
                        desig.push(Designator::Field(t.sym, t.loc));
                    } else {
                        self.error(t.loc, "expected a field designator, such as '.field = 4'");
                    }
                } else if self.eat(Tok::LBracket) {
                    let e = self.conditional();
                    self.expect(Tok::RBracket, "");
                    desig.push(Designator::Index(e));
                } else {
                    break;
                }
            }
            if !desig.is_empty() {
                self.expect(Tok::Assign, "");
            }
            let init = self.initializer();
            items.push((desig, init));
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.leave();
        if !self.eat(Tok::RBrace) {
            let l = self.loc();
            self.error(l, "expected '}'");
            self.recover(true);
            self.eat(Tok::RBrace);
        }
        Initializer::List(items, loc)
    }
}
