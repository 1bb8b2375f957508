//! Program-scope declarations: typedefs, program-scope variables and their address-space and
//! attribute rules (6.7, 6.10, 6.11), and the checks shared with function-scope objects.

use super::declarator::object_space;
use super::init::init_loc;
use super::*;

impl<'a> Sema<'a> {
    pub(super) fn global_decls(&mut self, g: &ast::DeclGroup) {
        let base = self.base_type(&g.spec);
        if g.decls.is_empty() {
            return;
        }
        for d in &g.decls {
            if g.spec.storage == Some(Storage::Typedef) {
                self.typedef_decl(&g.spec, base, d);
                continue;
            }
            let (q, fparams) = self.declared_type(&g.spec, base, d);
            if matches!(self.types.get(q.ty), Type::Function { .. }) {
                if d.init.is_some() {
                    self.diags.error(
                        d.decl.loc,
                        "illegal initializer (only variables can be initialized)",
                    );
                }
                self.declare_function(
                    &g.spec,
                    &d.decl,
                    q,
                    fparams.map(|p| p.0).unwrap_or_default(),
                );
                continue;
            }
            self.program_scope_var(&g.spec, d, q);
        }
    }

    pub(super) fn typedef_decl(&mut self, spec: &ast::DeclSpec, base: QualType, d: &ast::InitDecl) {
        let (mut q, _) = self.declarator_type(base, spec.space.is_some(), &d.decl);
        if d.init.is_some() {
            self.diags.error(
                d.decl.loc,
                "illegal initializer (only variables can be initialized)",
            );
        }
        // clang's ext_vector_type(N), used by headers to declare vector typedefs.
        for a in spec.attrs.iter().chain(d.decl.attrs.iter()) {
            if a.name == "ext_vector_type" {
                let n = self.attr_int(a, 0).unwrap_or(0);
                match self.types.get(q.ty).clone() {
                    Type::Scalar(s) if LANES.contains(&(n as u8)) && n <= 16 => {
                        q.ty = self.types.vector(s, n as u8);
                    }
                    _ => self
                        .diags
                        .error(a.loc, "invalid vector element type or number of elements"),
                }
            }
        }
        if let (Some(n), Type::Record(r)) = (d.decl.name, self.types.get(q.ty).clone()) {
            let rec = &mut self.types.records[r as usize];
            if rec.name.starts_with("(anonymous") {
                rec.name = self.interner.name(n).to_string();
                rec.typedef_named = true;
            }
        }
        if let Some(n) = d.decl.name {
            self.typedefs.push(Typedef {
                ty: q,
                name: self.name(n).to_string(),
            });
            let id = self.typedefs.len() as u32 - 1;
            self.bind(n, Binding::Typedef(id), d.decl.loc);
        }
    }

    /// 6.11.w and 6.7: program-scope variables live in __constant (and __global from 2.0).
    pub(super) fn program_scope_var(
        &mut self,
        spec: &ast::DeclSpec,
        d: &ast::InitDecl,
        q: QualType,
    ) {
        let Some(name) = d.decl.name else { return };
        let loc = d.decl.loc;
        let mut q = q;
        let is_extern = spec.storage == Some(Storage::Extern);
        if spec.is_kernel {
            self.diags
                .error(loc, "'__kernel' attribute only applies to functions");
        }
        // C99 6.7p7: only a definition needs a complete type; `extern struct S s;` declares an
        // object defined elsewhere (in another program, once linked: OpenCL C 6.10).
        let incomplete_record = matches!(self.types.get(q.ty),
            Type::Record(r) if !self.types.records[*r as usize].complete);
        if !(is_extern && incomplete_record) {
            self.check_object_type(q, loc, true);
        }
        self.check_restrict(q, loc);
        self.check_object_attrs(&d.decl.attrs);
        if matches!(self.types.get(q.ty), Type::Sampler)
            && matches!(
                object_space(spec, &d.decl),
                Some(AddrSpace::Local | AddrSpace::Global)
            )
        {
            // 6.11.b
            self.diags.error(loc, "the sampler type cannot be used with the __local and __global address space qualifiers");
            return;
        }
        let explicit = object_space(spec, &d.decl);
        match explicit.unwrap_or(AddrSpace::Generic) {
            AddrSpace::Constant => {}
            AddrSpace::Global if self.opts.program_scope_globals => {}
            AddrSpace::Generic if self.opts.program_scope_globals => q.space = AddrSpace::Global,
            AddrSpace::Generic if matches!(self.types.get(q.ty), Type::Sampler) => {
                q.space = AddrSpace::Constant
            }
            _ => {
                let msg = if self.opts.program_scope_globals {
                    "program scope variable must reside in global or constant address space"
                } else {
                    "program scope variable must reside in constant address space"
                };
                self.diags.error(loc, msg);
            }
        }
        if matches!(
            self.types.get(q.ty),
            Type::Event | Type::ClkEvent | Type::ReserveId
        ) {
            let tn = self.types.name(q.ty);
            self.diags.error(
                loc,
                format!("the '{tn}' type cannot be used to declare a program scope variable"),
            );
        }
        let kind = if is_extern {
            VarKind::Extern
        } else {
            VarKind::Global
        };
        let align = self
            .align_attr(&d.decl.attrs)
            .or(self.align_attr(&spec.attrs));
        let id = self.new_var(name, q, kind, loc, align);
        self.bind(name, Binding::Var(id), loc);
        if self.declarator_failed {
            self.poisoned.insert(id.0);
        }
        let init = match &d.init {
            Some(_) if self.declarator_failed => None,
            Some(i) => {
                let init = self.initializer(i, q.ty);
                if let Some(ii) = &init {
                    if !self.is_constant_init(ii) {
                        self.diags.error(
                            init_loc(i),
                            "initializer element is not a compile-time constant",
                        );
                    }
                }
                init
            }
            None => {
                if q.space == AddrSpace::Constant && !is_extern {
                    // 6.7.3: constant variables must be initialized.
                    self.diags.error(
                        loc,
                        "variable in constant address space must be initialized",
                    );
                }
                None
            }
        };
        if let Some(Init::List(t, _)) = &init {
            self.vars[id.0 as usize].ty.ty = *t;
        }
        self.globals.push((id, init));
    }

    /// Warns about attributes a variable or type cannot take (6.13.2, 6.13.3).
    pub(super) fn check_object_attrs(&mut self, attrs: &[ast::Attr]) {
        for a in attrs {
            match a.name.as_str() {
                "aligned" | "packed" | "nosvm" | "unused" | "used" | "ext_vector_type"
                | "always_inline" | "noinline" | "overloadable" | "const" | "pure"
                | "convergent" => {}
                // 6.13.3: endian(host) / endian(device).
                "endian" => {
                    let ok = matches!(a.args.first(), Some(ast::AttrArg::Expr(ast::Expr { kind: ast::ExprKind::Ident(s), .. }))
                        if matches!(self.interner.name(*s), "host" | "device"));
                    if !ok {
                        self.diags
                            .error(a.loc, "'endian' attribute requires 'host' or 'device'");
                    }
                }
                "reqd_work_group_size" | "work_group_size_hint" | "vec_type_hint" => {
                    self.diags.warning(
                        a.loc,
                        format!("'{}' attribute only applies to kernel functions", a.name),
                    );
                }
                _ => self
                    .diags
                    .warning(a.loc, format!("unknown attribute '{}' ignored", a.name)),
            }
        }
    }

    pub(super) fn align_attr(&mut self, attrs: &[ast::Attr]) -> Option<u64> {
        for a in attrs {
            if a.name == "aligned" {
                if a.args.is_empty() {
                    return Some(16 * 8);
                }
                let v = self.attr_int(a, 0)?;
                if !v.is_power_of_two() {
                    self.diags
                        .error(a.loc, "requested alignment is not a power of 2");
                    return None;
                }
                return Some(v);
            }
        }
        None
    }

    /// 6.11.q: "Types other than pointer types shall not use the restrict qualifier."
    pub(super) fn check_restrict(&mut self, q: QualType, loc: Loc) {
        if q.is_restrict && !self.types.is_pointer(q.ty) {
            let tn = self.types.name(q.ty);
            self.diags.error(
                loc,
                format!("restrict requires a pointer or reference ('{tn}' is invalid)"),
            );
        }
    }

    pub(super) fn new_var(
        &mut self,
        name: Sym,
        ty: QualType,
        kind: VarKind,
        loc: Loc,
        align: Option<u64>,
    ) -> VarId {
        self.vars.push(Var {
            name: self.name(name).to_string(),
            ty,
            kind,
            loc,
            align,
        });
        VarId(self.vars.len() as u32 - 1)
    }

    /// Object types that cannot be variables (6.11.b, 6.11.r, 6.11.n).
    pub(super) fn check_object_type(&mut self, q: QualType, loc: Loc, program_scope: bool) {
        match self.types.get(q.ty).clone() {
            Type::Void => self.diags.error(loc, "variable has incomplete type 'void'"),
            Type::Image(..) | Type::Pipe(..) => {
                let tn = self.types.name(q.ty);
                self.diags.error(
                    loc,
                    format!("type '{tn}' can only be used as a function parameter in OpenCL"),
                );
            }
            Type::Scalar(Scalar::Half) if !self.opts.fp16 => {
                self.diags
                    .error(loc, "declaring variable of type 'half' is not allowed");
            }
            Type::Vector(Scalar::Half, _) if !self.opts.fp16 => {
                let tn = self.types.name(q.ty);
                self.diags.error(
                    loc,
                    format!("declaring variable of type '{tn}' is not allowed"),
                );
            }
            Type::Record(r) if !self.types.records[r as usize].complete => {
                let tn = self.types.name(q.ty);
                self.diags
                    .error(loc, format!("variable has incomplete type '{tn}'"));
            }
            Type::Array(_, None) if !program_scope => {
                let tn = self.types.name(q.ty);
                self.diags.error(loc, format!("definition of variable with array type needs an explicit size or an initializer ('{tn}')"));
            }
            _ => {}
        }
    }
}
