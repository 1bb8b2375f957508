//! Functions and kernels: declarations and definitions, function attributes, the kernel
//! signature rules of 6.9, the recursion check, and the kernel metadata the runtime reports
//! (clGetKernelInfo / clGetKernelArgInfo).

use super::stmt::{contains_return, falls_through};
use super::*;

impl<'a> Sema<'a> {
    pub(super) fn declare_function(
        &mut self,
        spec: &ast::DeclSpec,
        d: &ast::Declarator,
        q: QualType,
        params: Vec<ParamInfo>,
    ) -> Option<FuncId> {
        let name_sym = d.name?;
        let name = self.name(name_sym).to_string();
        let Type::Function {
            ret,
            params: fn_params,
            ..
        } = self.types.get(q.ty).clone()
        else {
            return None;
        };
        let mut params = params;
        if params.is_empty() && !fn_params.is_empty() {
            // Declared through a function typedef: the parameters are unnamed.
            for p in fn_params {
                let spelled = self.types.name(p);
                params.push((QualType::new(p), None, d.loc, false, spelled, None));
            }
        }
        if spec.storage == Some(Storage::Typedef) {
            return None;
        }
        if name == "main" {
            // 6.11.u
            self.diags.error(d.loc, "function cannot be called 'main'");
        }
        let is_kernel = spec.is_kernel;
        if is_kernel && spec.storage == Some(Storage::Static) {
            self.diags
                .error(spec.loc, "kernel functions cannot be declared static");
        }
        if spec.space.is_some() && d.derived.len() == 1 {
            self.diags.error(
                spec.loc,
                "return type cannot be qualified with address space",
            );
        }
        for p in &params {
            self.check_restrict(p.0, p.2);
            if p.0.space != AddrSpace::Private && !self.types.is_pointer(p.0.ty) {
                // 6.7: "address space qualifiers cannot be used with a function argument".
                self.diags
                    .error(p.2, "parameter may not be qualified with an address space");
            }
        }
        let overloadable = spec
            .attrs
            .iter()
            .chain(d.attrs.iter())
            .any(|a| a.name == "overloadable");
        if let Some(Binding::Func(first)) = self.lookup(name_sym) {
            // clang's `overloadable` extension: same-named functions with other parameter
            // types are distinct overloads; a declaration with equal types names the same one.
            let new_ty: Vec<TypeId> = params.iter().map(|p| p.0.ty).collect();
            let set = self
                .overloads
                .get(&name_sym)
                .cloned()
                .unwrap_or_else(|| vec![first]);
            let same = set.iter().copied().find(|g| {
                let o = &self.funcs[g.0 as usize];
                o.params
                    .iter()
                    .map(|v| self.vars[v.0 as usize].ty.ty)
                    .collect::<Vec<_>>()
                    == new_ty
            });
            let any_overloadable =
                overloadable || set.iter().any(|g| self.funcs[g.0 as usize].overloadable);
            if same.is_none() && any_overloadable {
                let id = self.new_function(spec, d, name, ret, &params, is_kernel, overloadable);
                self.overloads.entry(name_sym).or_insert(set).push(id);
                return Some(id);
            }
            let f = same.unwrap_or(first);
            let old = &self.funcs[f.0 as usize];
            let old_ty: Vec<TypeId> = old
                .params
                .iter()
                .map(|v| self.vars[v.0 as usize].ty.ty)
                .collect();
            let new_ty: Vec<TypeId> = params.iter().map(|p| p.0.ty).collect();
            if old.ret != ret || old_ty != new_ty {
                // 6.11: no overloading of user functions (C99 rules).
                self.diags
                    .error(d.loc, format!("conflicting types for '{name}'"));
                let l = old.loc;
                self.diags.note(l, "previous declaration is here");
            }
            return Some(f);
        }
        if matches!(self.types.get(ret), Type::Image(..) | Type::Sampler) {
            let tn = self.types.name(ret);
            self.diags.error(
                d.loc,
                format!("declaring function return value of type '{tn}' is not allowed"),
            );
        }
        let id = self.new_function(spec, d, name, ret, &params, is_kernel, overloadable);
        // Functions live at file scope.
        let saved = std::mem::take(&mut self.scopes);
        let mut scopes = saved;
        scopes[0].insert(name_sym, Binding::Func(id));
        self.scopes = scopes;
        if is_kernel {
            self.check_kernel_signature(id, spec, d, &params);
        }
        Some(id)
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn new_function(
        &mut self,
        spec: &ast::DeclSpec,
        d: &ast::Declarator,
        name: String,
        ret: TypeId,
        params: &[ParamInfo],
        is_kernel: bool,
        overloadable: bool,
    ) -> FuncId {
        let mut vars = Vec::new();
        let mut spellings = Vec::new();
        for (pt, pname, ploc, _explicit, spelled, access) in params {
            let vname = pname.map(|s| self.name(s).to_string()).unwrap_or_default();
            self.vars.push(Var {
                name: vname,
                ty: *pt,
                kind: VarKind::Param,
                loc: *ploc,
                align: None,
            });
            vars.push(VarId(self.vars.len() as u32 - 1));
            spellings.push((spelled.clone(), *access));
        }
        let attrs = self.function_attrs(spec, d, is_kernel);
        self.funcs.push(Function {
            name,
            ret,
            params: vars,
            is_kernel,
            is_inline: spec.is_inline,
            body: None,
            loc: d.loc,
            attrs,
            param_spellings: spellings,
            variadic: matches!(
                d.derived.first(),
                Some(Derived::Function { variadic: true, .. })
            ),
            overloadable,
        });
        FuncId(self.funcs.len() as u32 - 1)
    }

    pub(super) fn function_attrs(
        &mut self,
        spec: &ast::DeclSpec,
        d: &ast::Declarator,
        is_kernel: bool,
    ) -> FnAttrs {
        let mut out = FnAttrs::default();
        for a in spec.attrs.iter().chain(d.attrs.iter()) {
            match a.name.as_str() {
                "reqd_work_group_size" | "work_group_size_hint" => {
                    if !is_kernel {
                        self.diags.error(
                            a.loc,
                            format!("'{}' attribute only applies to kernel functions", a.name),
                        );
                    }
                    if a.args.len() != 3 {
                        self.diags.error(
                            a.loc,
                            format!("'{}' attribute requires exactly 3 arguments", a.name),
                        );
                        continue;
                    }
                    let mut v = [0u64; 3];
                    let mut ok = true;
                    for (i, slot) in v.iter_mut().enumerate() {
                        match self.attr_int(a, i) {
                            Some(0) => {
                                self.diags.error(
                                    a.loc,
                                    format!("'{}' attribute must be greater than 0", a.name),
                                );
                                ok = false;
                            }
                            Some(x) => *slot = x,
                            None => ok = false,
                        }
                    }
                    if ok {
                        out.text
                            .push(format!("{}({},{},{})", a.name, v[0], v[1], v[2]));
                        if a.name == "reqd_work_group_size" {
                            out.reqd_work_group_size = Some(v);
                        } else {
                            out.work_group_size_hint = Some(v);
                        }
                    }
                }
                "vec_type_hint" => {
                    if !is_kernel {
                        self.diags.error(
                            a.loc,
                            "'vec_type_hint' attribute only applies to kernel functions",
                        );
                    }
                    match a.args.first() {
                        Some(ast::AttrArg::Type(tn)) if a.args.len() == 1 => {
                            let q = self.type_name(tn);
                            match self.types.get(q.ty) {
                                Type::Scalar(s) if *s != Scalar::Bool => {}
                                Type::Vector(..) => {}
                                _ => {
                                    let n = self.types.name(q.ty);
                                    self.diags.error(a.loc, format!("invalid attribute argument '{n}' - expecting a vector or vectorizable scalar type"));
                                    continue;
                                }
                            }
                            let n = self.types.name(q.ty);
                            out.text.push(format!("vec_type_hint({n})"));
                            out.vec_type_hint = Some(n);
                        }
                        _ => self
                            .diags
                            .error(a.loc, "'vec_type_hint' attribute requires a type argument"),
                    }
                }
                "always_inline" | "noinline" | "const" | "pure" | "overloadable" | "convergent"
                | "used" | "unused" | "nosvm" | "noreturn" => {}
                "intel_reqd_sub_group_size" => {
                    self.attr_int(a, 0);
                }
                _ => self
                    .diags
                    .warning(a.loc, format!("unknown attribute '{}' ignored", a.name)),
            }
        }
        out
    }

    /// 6.9 and 6.11: what a kernel signature may contain.
    pub(super) fn check_kernel_signature(
        &mut self,
        id: FuncId,
        spec: &ast::DeclSpec,
        d: &ast::Declarator,
        params: &[ParamInfo],
    ) {
        let f = &self.funcs[id.0 as usize];
        if !self.types.is_void(f.ret) {
            // 6.11.l
            self.diags
                .error(spec.loc, "kernel must have void return type");
        }
        for (pt, _name, ploc, _explicit, _spelled, _access) in params {
            let ty = self.types.get(pt.ty).clone();
            match ty {
                Type::Pointer(pointee) => {
                    if self.types.is_pointer(pointee.ty) && self.opts.version < 200 {
                        // 6.11.a (up to 1.2): no pointers to pointers as kernel arguments.
                        self.diags.error(
                            *ploc,
                            "kernel parameter cannot be declared as a pointer to a pointer",
                        );
                    } else if !matches!(
                        pointee.space,
                        AddrSpace::Global | AddrSpace::Constant | AddrSpace::Local
                    ) {
                        // 6.11.a: kernel pointer arguments are __global, __constant or __local.
                        self.diags.error(*ploc, "pointer arguments to kernel functions must reside in '__global', '__constant' or '__local' address space");
                    }
                }
                Type::Scalar(Scalar::Bool) => self.bad_kernel_param(*ploc, "bool"),
                Type::Scalar(Scalar::Half) if !self.opts.fp16 => {
                    self.diags.error(*ploc, "declaring function parameter of type 'half' is not allowed; did you forget * ?");
                }
                Type::Event => self.bad_kernel_param(*ploc, "event_t"),
                Type::ClkEvent => self.bad_kernel_param(*ploc, "clk_event_t"),
                Type::ReserveId => self.bad_kernel_param(*ploc, "reserve_id_t"),
                Type::NdRange => self.bad_kernel_param(*ploc, "ndrange_t"),
                Type::Record(r) => {
                    if let Some(bad) = self.record_forbidden_in_kernel(r, 0) {
                        let tn = self.types.name(pt.ty);
                        self.diags.error(
                            *ploc,
                            format!("'{tn}' cannot be used as the type of a kernel parameter"),
                        );
                        self.diags.note(
                            *ploc,
                            format!("field of illegal type '{bad}' declared here"),
                        );
                    }
                }
                _ => {}
            }
        }
        // 6.11.m: size_t and friends by their spelling.
        if let Some(Derived::Function { params: ps, .. }) = d.derived.first() {
            for p in ps {
                if p.decl.derived.is_empty() {
                    let bad = match p.spec.base {
                        BaseType::SizeT => Some("size_t"),
                        BaseType::PtrdiffT => Some("ptrdiff_t"),
                        BaseType::IntptrT => Some("intptr_t"),
                        BaseType::UintptrT => Some("uintptr_t"),
                        _ => None,
                    };
                    if let Some(b) = bad {
                        self.bad_kernel_param(p.decl.loc, b);
                    }
                }
            }
        }
    }

    pub(super) fn bad_kernel_param(&mut self, loc: Loc, ty: &str) {
        self.diags.error(
            loc,
            format!("'{ty}' cannot be used as the type of a kernel parameter"),
        );
    }

    pub(super) fn record_forbidden_in_kernel(&self, r: u32, depth: u32) -> Option<String> {
        if depth > 32 {
            return None;
        }
        for f in &self.types.records[r as usize].fields {
            match self.types.get(f.ty.ty) {
                Type::Scalar(Scalar::Bool) => return Some("bool".into()),
                Type::Pointer(_) if self.opts.version < 200 => {
                    return Some(self.types.name(f.ty.ty))
                }
                Type::Record(inner) => {
                    if let Some(b) = self.record_forbidden_in_kernel(*inner, depth + 1) {
                        return Some(b);
                    }
                }
                _ => {}
            }
        }
        None
    }

    pub(super) fn function_def(
        &mut self,
        spec: &ast::DeclSpec,
        decl: &ast::Declarator,
        body: &ast::Stmt,
    ) {
        let base = self.base_type(spec);
        let (q, fparams) = self.declarator_type(base, spec.space.is_some(), decl);
        let params = fparams.map(|p| p.0).unwrap_or_default();
        let Some(id) = self.declare_function(spec, decl, q, params.clone()) else {
            return;
        };
        if self.funcs[id.0 as usize].body.is_some() {
            let n = self.funcs[id.0 as usize].name.clone();
            self.diags.error(decl.loc, format!("redefinition of '{n}'"));
            return;
        }
        // Parameters of a definition: fresh variables bound in the body's scope.
        self.push_scope();
        let mut vars = Vec::new();
        for (pt, pname, ploc, _, _, _) in &params {
            let Some(n) = pname else {
                let v = Var {
                    name: String::new(),
                    ty: *pt,
                    kind: VarKind::Param,
                    loc: *ploc,
                    align: None,
                };
                self.vars.push(v);
                vars.push(VarId(self.vars.len() as u32 - 1));
                continue;
            };
            if matches!(self.types.get(pt.ty), Type::Void) {
                self.diags.error(*ploc, "argument may not have 'void' type");
            }
            let v = self.new_var(*n, *pt, VarKind::Param, *ploc, None);
            self.bind(*n, Binding::Var(v), *ploc);
            vars.push(v);
        }
        self.funcs[id.0 as usize].params = vars;
        self.cur_fn = Some(id);
        self.cur_ret = self.funcs[id.0 as usize].ret;
        self.labels.clear();
        self.gotos.clear();
        self.block_depth = 0;
        let body_ast = body;
        let body = self.stmt(body);
        for (g, loc) in std::mem::take(&mut self.gotos) {
            if !self.labels.contains_key(&g) {
                self.diags
                    .error(loc, format!("use of undeclared label '{g}'"));
            }
        }
        self.pop_scope();
        // -Wreturn-type: a non-void function whose end is reachable. Conservative: only
        // when the end is certainly reachable (see `falls_through`).
        let ret = self.funcs[id.0 as usize].ret;
        if !self.types.is_void(ret) && falls_through(&body) {
            if let ast::StmtKind::Compound(_, end) = &body_ast.kind {
                let msg = if contains_return(&body) {
                    "non-void function does not return a value in all control paths"
                } else {
                    "non-void function does not return a value"
                };
                self.diags.warning(*end, msg);
            }
        }
        self.funcs[id.0 as usize].body = Some(body);
        self.cur_fn = None;
    }

    /// 6.11.k: recursion is not supported. Every call between two functions of one strongly
    /// connected component of the call graph (or from a function to itself) is reported.
    pub(super) fn check_recursion(&mut self) {
        let n = self.funcs.len();
        let mut edges: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut redges: Vec<Vec<usize>> = vec![Vec::new(); n];
        for &(a, b, _) in &self.calls {
            edges[a.0 as usize].push(b.0 as usize);
            redges[b.0 as usize].push(a.0 as usize);
        }
        // Kosaraju's algorithm, both passes iterative: finish order, then components on
        // the reversed graph.
        let mut order = Vec::with_capacity(n);
        let mut seen = vec![false; n];
        for start in 0..n {
            if seen[start] {
                continue;
            }
            seen[start] = true;
            let mut stack = vec![(start, 0usize)];
            while let Some((v, i)) = stack.last_mut() {
                let v = *v;
                if let Some(&w) = edges[v].get(*i) {
                    *i += 1;
                    if !seen[w] {
                        seen[w] = true;
                        stack.push((w, 0));
                    }
                } else {
                    order.push(v);
                    stack.pop();
                }
            }
        }
        let mut comp = vec![usize::MAX; n];
        for (c, &root) in order.iter().rev().enumerate() {
            if comp[root] != usize::MAX {
                continue;
            }
            comp[root] = c;
            let mut stack = vec![root];
            while let Some(v) = stack.pop() {
                for &w in &redges[v] {
                    if comp[w] == usize::MAX {
                        comp[w] = c;
                        stack.push(w);
                    }
                }
            }
        }
        let mut reported = std::collections::HashSet::new();
        for (a, b, loc) in self.calls.clone() {
            let (a, b) = (a.0 as usize, b.0 as usize);
            if (a == b || comp[a] == comp[b]) && reported.insert((a, b, loc.file, loc.offset)) {
                let name = self.funcs[b].name.clone();
                self.diags.error(
                    loc,
                    format!("recursive call to '{name}' is not allowed in OpenCL C"),
                );
            }
        }
    }

    pub(super) fn kernel_infos(&mut self) -> Vec<KernelInfo> {
        let mut out = Vec::new();
        for (i, f) in self.funcs.iter().enumerate() {
            if !f.is_kernel {
                continue;
            }
            if f.body.is_none() {
                continue;
            }
            let mut args = Vec::new();
            for (k, v) in f.params.iter().enumerate() {
                let var = &self.vars[v.0 as usize];
                let (spelled, _) = f.param_spellings.get(k).cloned().unwrap_or_default();
                let ty = var.ty;
                let (address, kind, is_const, is_volatile) = match self.types.get(ty.ty) {
                    Type::Pointer(p) => {
                        let a = match p.space {
                            AddrSpace::Global => ArgAddress::Global,
                            AddrSpace::Constant => ArgAddress::Constant,
                            AddrSpace::Local => ArgAddress::Local,
                            _ => ArgAddress::Private,
                        };
                        let kind = if a == ArgAddress::Local {
                            ArgKind::Local
                        } else {
                            ArgKind::Buffer
                        };
                        (
                            a,
                            kind,
                            p.is_const || p.space == AddrSpace::Constant,
                            p.is_volatile,
                        )
                    }
                    Type::Image(..) => (ArgAddress::Global, ArgKind::Image, false, false),
                    Type::Sampler => (ArgAddress::Private, ArgKind::Sampler, false, false),
                    Type::Pipe(..) => (ArgAddress::Global, ArgKind::Pipe, false, false),
                    Type::Queue => (ArgAddress::Private, ArgKind::Queue, false, false),
                    // API 5.9.x: "CL_KERNEL_ARG_TYPE_NONE is returned for all kernel arguments
                    // passed by value."
                    Type::Record(_) => (ArgAddress::Private, ArgKind::Aggregate, false, false),
                    _ => (ArgAddress::Private, ArgKind::Value, false, false),
                };
                let access = match self.types.get(ty.ty) {
                    Type::Image(_, a) | Type::Pipe(_, a) => match a {
                        Access::ReadOnly => ArgAccess::ReadOnly,
                        Access::WriteOnly => ArgAccess::WriteOnly,
                        Access::ReadWrite => ArgAccess::ReadWrite,
                    },
                    _ => ArgAccess::None,
                };
                let (size, align) = match kind {
                    ArgKind::Value | ArgKind::Aggregate => (
                        self.types.size_of(ty.ty).unwrap_or(0),
                        self.types.align_of(ty.ty).unwrap_or(1),
                    ),
                    _ => (self.types.pointer_size, self.types.pointer_size),
                };
                // Type names drop qualifiers; `unsigned int` is reported as `uint`.
                let type_name = match self.types.get(ty.ty) {
                    Type::Image(d, _) => d.name().to_string(),
                    _ => spelled.clone(),
                };
                args.push(KernelArg {
                    name: var.name.clone(),
                    type_name,
                    address,
                    access,
                    is_const,
                    is_restrict: ty.is_restrict && self.types.is_pointer(ty.ty),
                    is_volatile,
                    is_pipe: matches!(self.types.get(ty.ty), Type::Pipe(..)),
                    kind,
                    size,
                    align,
                    ty: ty.ty,
                });
            }
            out.push(KernelInfo {
                name: f.name.clone(),
                function: FuncId(i as u32),
                args,
                reqd_work_group_size: f.attrs.reqd_work_group_size,
                work_group_size_hint: f.attrs.work_group_size_hint,
                vec_type_hint: f.attrs.vec_type_hint.clone(),
                attributes: f.attrs.text.join(" "),
            });
        }
        out
    }
}
