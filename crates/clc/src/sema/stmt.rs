//! Statements: checks each statement of a function body into the checked tree, with the
//! function-scope declarations it contains and the control-flow facts (falls through, contains a
//! break or return) that the return and loop checks need.

use super::declarator::object_space;
use super::init::init_loc;
use super::*;

/// Whether control can certainly reach the end of `s`. Unknown cases (switch, goto) count
/// as not reaching it, so that the warning built on this never fires wrongly.
pub(super) fn falls_through(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Expr(_) | StmtKind::Decl(..) | StmtKind::Empty | StmtKind::FpContract(_) => true,
        StmtKind::Return(_) | StmtKind::Goto(_) | StmtKind::Break | StmtKind::Continue => false,
        StmtKind::Block(list) => list.iter().all(falls_through),
        StmtKind::If(..) => {
            // Some arm of the `else if` chain, or its end, falls through.
            let mut at = s;
            loop {
                let StmtKind::If(_, t, e) = &at.kind else {
                    return falls_through(at);
                };
                if falls_through(t) {
                    return true;
                }
                match e {
                    Some(e) => at = e,
                    None => return true,
                }
            }
        }
        StmtKind::While(c, b, _) => !is_true(c) || contains_break(b),
        StmtKind::For(_, c, _, b, _) => {
            c.as_ref().is_some_and(|c| !is_true(c)) || contains_break(b)
        }
        StmtKind::DoWhile(b, c, _) => (falls_through(b) && !is_true(c)) || contains_break(b),
        StmtKind::Switch(..) | StmtKind::Case(..) | StmtKind::Default(_) | StmtKind::Label(..) => {
            false
        }
    }
}

/// A constant non-zero condition (`while (1)`, `for (;;)`).
pub(super) fn is_true(c: &Expr) -> bool {
    match &c.kind {
        ExprKind::IntConst(v) => *v != 0,
        ExprKind::Cast(_, x) => is_true(x),
        _ => false,
    }
}

/// A `break` that leaves this loop (not one inside a nested loop or switch).
pub(super) fn contains_break(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Break => true,
        StmtKind::Block(list) => list.iter().any(contains_break),
        StmtKind::If(..) => else_if_chain(s).any(contains_break),
        StmtKind::Label(_, b) | StmtKind::Case(_, b) | StmtKind::Default(b) => contains_break(b),
        _ => false,
    }
}

pub(super) fn contains_return(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Return(_) => true,
        StmtKind::Block(list) => list.iter().any(contains_return),
        StmtKind::If(..) => else_if_chain(s).any(contains_return),
        StmtKind::While(_, b, _)
        | StmtKind::DoWhile(b, _, _)
        | StmtKind::For(_, _, _, b, _)
        | StmtKind::Switch(_, b) => contains_return(b),
        StmtKind::Label(_, b) | StmtKind::Case(_, b) | StmtKind::Default(b) => contains_return(b),
        _ => false,
    }
}

impl<'a> Sema<'a> {
    pub(super) fn stmt(&mut self, s: &ast::Stmt) -> Stmt {
        let loc = s.loc;
        let mk = |kind| Stmt { kind, loc };
        let hints = |s: &ast::Stmt, me: &mut Self| {
            let mut h = LoopHints { unroll: s.unroll };
            for a in &s.attrs {
                if a.name == "opencl_unroll_hint" {
                    h.unroll = if a.args.is_empty() {
                        Some(0)
                    } else {
                        me.attr_int(a, 0).map(|v| v as u32)
                    };
                    if h.unroll == Some(0) && !a.args.is_empty() {
                        me.diags.error(a.loc, "'opencl_unroll_hint' attribute requires a positive integral compile time constant expression");
                    }
                } else {
                    me.diags
                        .warning(a.loc, format!("unknown attribute '{}' ignored", a.name));
                }
            }
            h
        };
        match &s.kind {
            ast::StmtKind::Expr(None) => mk(StmtKind::Empty),
            ast::StmtKind::StaticAssert(sa) => {
                self.static_assert(sa);
                mk(StmtKind::Empty)
            }
            ast::StmtKind::Expr(Some(e)) => {
                let e = self.expr(e);
                let e = self.discard(e);
                mk(StmtKind::Expr(e))
            }
            ast::StmtKind::Decl(g) => {
                let list = self.local_decls(g);
                if list.len() == 1 {
                    list.into_iter().next().unwrap_or(mk(StmtKind::Empty))
                } else {
                    mk(StmtKind::Block(list))
                }
            }
            ast::StmtKind::Compound(list, _) => {
                let outer = self.block_depth == 0;
                self.block_depth += 1;
                if !outer {
                    self.push_scope();
                }
                let out: Vec<Stmt> = list.iter().map(|s| self.stmt(s)).collect();
                if !outer {
                    self.pop_scope();
                }
                self.block_depth -= 1;
                mk(StmtKind::Block(out))
            }
            ast::StmtKind::If(..) => self.if_chain(s),
            ast::StmtKind::While(c, b) => {
                let h = hints(s, self);
                let c = self.condition(c);
                self.loop_depth += 1;
                let b = self.sub_stmt(b);
                self.loop_depth -= 1;
                mk(StmtKind::While(c, Box::new(b), h))
            }
            ast::StmtKind::DoWhile(b, c) => {
                let h = hints(s, self);
                self.loop_depth += 1;
                let b = self.sub_stmt(b);
                self.loop_depth -= 1;
                let c = self.condition(c);
                mk(StmtKind::DoWhile(Box::new(b), c, h))
            }
            ast::StmtKind::For(init, c, step, b) => {
                let h = hints(s, self);
                self.push_scope();
                self.block_depth += 1;
                let init = init.as_ref().map(|i| Box::new(self.stmt(i)));
                let c = c.as_ref().map(|c| self.condition(c));
                let step = step.as_ref().map(|e| {
                    let e = self.expr(e);
                    self.discard(e)
                });
                self.loop_depth += 1;
                let b = self.sub_stmt(b);
                self.loop_depth -= 1;
                self.block_depth -= 1;
                self.pop_scope();
                mk(StmtKind::For(init, c, step, Box::new(b), h))
            }
            ast::StmtKind::Switch(c, b) => {
                let ce = self.expr(c);
                let ce = self.rvalue(ce);
                let ce = if !ce.is_error()
                    && (!self.types.is_scalar_arith(ce.ty) || !self.types.is_integer(ce.ty))
                {
                    let tn = self.types.name(ce.ty);
                    self.diags.error(
                        c.loc,
                        format!("statement requires expression of integer type ('{tn}' invalid)"),
                    );
                    ce
                } else if ce.is_error() {
                    ce
                } else {
                    let pt = self.promote_ty(ce.ty);
                    self.convert_arith(ce, pt)
                };
                self.switch_stack.push(Vec::new());
                let b = self.sub_stmt(b);
                self.switch_stack.pop();
                mk(StmtKind::Switch(ce, Box::new(b)))
            }
            ast::StmtKind::Case(v, body) => {
                let ce = self.expr(v);
                let ce = self.rvalue(ce);
                let val = if ce.is_error() {
                    0
                } else {
                    match self.const_int(&ce) {
                        Some(x) => x,
                        None => {
                            self.diags
                                .error(v.loc, "expression is not an integer constant expression");
                            0
                        }
                    }
                };
                match self.switch_stack.last_mut() {
                    None => self
                        .diags
                        .error(loc, "'case' statement not in switch statement"),
                    Some(cases) => {
                        if let Some(&(_, prev)) = cases.iter().find(|(x, _)| *x == val) {
                            self.diags
                                .error(v.loc, format!("duplicate case value '{val}'"));
                            self.diags.note(prev, "previous case defined here");
                        } else {
                            cases.push((val, v.loc));
                        }
                    }
                }
                let b = self.stmt(body);
                mk(StmtKind::Case(val, Box::new(b)))
            }
            ast::StmtKind::Default(body) => {
                if self.switch_stack.is_empty() {
                    self.diags
                        .error(loc, "'default' statement not in switch statement");
                } else if self
                    .switch_stack
                    .last()
                    .is_some_and(|c| c.iter().any(|(x, _)| *x == i128::MIN))
                {
                    self.diags
                        .error(loc, "multiple default labels in one switch");
                } else if let Some(c) = self.switch_stack.last_mut() {
                    c.push((i128::MIN, loc));
                }
                let b = self.stmt(body);
                mk(StmtKind::Default(Box::new(b)))
            }
            ast::StmtKind::Label(name, body) => {
                let n = self.name(*name).to_string();
                if let Some(prev) = self.labels.get(&n).copied() {
                    self.diags
                        .error(loc, format!("redefinition of label '{n}'"));
                    self.diags.note(prev, "previous definition is here");
                } else {
                    self.labels.insert(n.clone(), loc);
                }
                let b = self.stmt(body);
                mk(StmtKind::Label(n, Box::new(b)))
            }
            ast::StmtKind::Goto(name) => {
                let n = self.name(*name).to_string();
                self.gotos.push((n.clone(), loc));
                mk(StmtKind::Goto(n))
            }
            ast::StmtKind::Break => {
                if self.loop_depth == 0 && self.switch_stack.is_empty() {
                    self.diags
                        .error(loc, "'break' statement not in loop or switch statement");
                }
                mk(StmtKind::Break)
            }
            ast::StmtKind::Continue => {
                if self.loop_depth == 0 {
                    self.diags
                        .error(loc, "'continue' statement not in loop statement");
                }
                mk(StmtKind::Continue)
            }
            ast::StmtKind::Return(e) if !self.block_stack.is_empty() => {
                self.block_return(e.as_ref(), loc)
            }
            ast::StmtKind::Return(e) => self.function_return(e.as_ref(), loc),
            ast::StmtKind::Error => mk(StmtKind::Empty),
            ast::StmtKind::FpContract(on) => mk(StmtKind::FpContract(*on)),
        }
    }

    /// A `return` in a block literal's body.
    fn block_return(&mut self, e: Option<&ast::Expr>, loc: Loc) -> Stmt {
        let mk = |kind| Stmt { kind, loc };
        // A block's result type is that of its first return (6.14.3).
        let ce = e.as_ref().map(|e| {
            let x = self.expr(e);
            self.rvalue(x)
        });
        let void = self.types.void();
        let ty = ce.as_ref().map_or(void, |c| c.ty);
        let expected = self.block_stack.last().and_then(|b| b.ret);
        match expected {
            None => {
                if let Some(b) = self.block_stack.last_mut() {
                    b.ret = Some(ty);
                }
                mk(StmtKind::Return(ce))
            }
            Some(r) => {
                let ce = ce.map(|c| {
                    let l = c.loc;
                    self.assign_convert(c, r, l, "returning")
                });
                mk(StmtKind::Return(ce))
            }
        }
    }

    /// A `return` in a function's body, checked against the function's return type.
    fn function_return(&mut self, e: Option<&ast::Expr>, loc: Loc) -> Stmt {
        let mk = |kind| Stmt { kind, loc };
        let ret = self.cur_ret;
        let fname = self
            .cur_fn
            .map(|f| self.funcs[f.0 as usize].name.clone())
            .unwrap_or_default();
        match e {
            None => {
                if !self.types.is_void(ret) {
                    self.diags.error(
                        loc,
                        format!("non-void function '{fname}' should return a value"),
                    );
                }
                mk(StmtKind::Return(None))
            }
            Some(e) => {
                let ce = self.expr(e);
                if self.types.is_void(ret) {
                    let ce = self.rvalue(ce);
                    if !ce.is_error() && !self.types.is_void(ce.ty) {
                        self.diags.error(
                            e.loc,
                            format!("void function '{fname}' should not return a value"),
                        );
                    }
                    return mk(StmtKind::Return(Some(ce)));
                }
                let ce = self.rvalue(ce);
                let ce = self.assign_convert(ce, ret, e.loc, "returning");
                mk(StmtKind::Return(Some(ce)))
            }
        }
    }

    /// Checks the body of a block literal with its own function context.
    /// An `if` and the `else if` arms chained to it, checked with a loop in source order (each
    /// `else` opening its scope, as when they nest) and built into the nested `If`s of the
    /// tree: the chain's length takes no stack.
    fn if_chain(&mut self, s: &ast::Stmt) -> Stmt {
        let mut arms = Vec::new();
        let mut els = None;
        let mut scopes = 0;
        let mut at = s;
        loop {
            let ast::StmtKind::If(c, t, e) = &at.kind else {
                unreachable!("an if statement")
            };
            let c = self.condition(c);
            let t = self.sub_stmt(t);
            arms.push((at.loc, c, t));
            match e.as_deref() {
                None => break,
                Some(
                    e @ ast::Stmt {
                        kind: ast::StmtKind::If(..),
                        ..
                    },
                ) => {
                    // What sub_stmt does for the else, kept open until the chain ends.
                    self.push_scope();
                    self.block_depth += 1;
                    scopes += 1;
                    at = e;
                }
                Some(e) => {
                    els = Some(Box::new(self.sub_stmt(e)));
                    break;
                }
            }
        }
        for _ in 0..scopes {
            self.block_depth -= 1;
            self.pop_scope();
        }
        let mut tail = els;
        while let Some((loc, c, t)) = arms.pop() {
            let s = Stmt {
                kind: StmtKind::If(c, Box::new(t), tail),
                loc,
            };
            if arms.is_empty() {
                return s;
            }
            tail = Some(Box::new(s));
        }
        unreachable!("one arm at least")
    }

    pub(crate) fn block_body(&mut self, body: &ast::Stmt) -> Stmt {
        let saved_fn = self.cur_fn.take();
        let saved_loop = std::mem::take(&mut self.loop_depth);
        let saved_switch = std::mem::take(&mut self.switch_stack);
        let saved_labels = std::mem::take(&mut self.labels);
        let saved_gotos = std::mem::take(&mut self.gotos);
        let saved_depth = std::mem::replace(&mut self.block_depth, 1);
        let s = self.stmt(body);
        for (g, loc) in std::mem::take(&mut self.gotos) {
            if !self.labels.contains_key(&g) {
                self.diags
                    .error(loc, format!("use of undeclared label '{g}'"));
            }
        }
        self.cur_fn = saved_fn;
        self.loop_depth = saved_loop;
        self.switch_stack = saved_switch;
        self.labels = saved_labels;
        self.gotos = saved_gotos;
        self.block_depth = saved_depth;
        s
    }

    /// A statement that is the body of a control statement (its own scope, C99 6.8.4p3).
    pub(super) fn sub_stmt(&mut self, s: &ast::Stmt) -> Stmt {
        self.push_scope();
        self.block_depth += 1;
        let r = self.stmt(s);
        self.block_depth -= 1;
        self.pop_scope();
        r
    }

    pub(super) fn local_decls(&mut self, g: &ast::DeclGroup) -> Vec<Stmt> {
        let base = self.base_type(&g.spec);
        let mut out = Vec::new();
        for d in &g.decls {
            if g.spec.storage == Some(Storage::Typedef) {
                self.typedef_decl(&g.spec, base, d);
                continue;
            }
            let (q, fparams) = self.declared_type(&g.spec, base, d);
            if matches!(self.types.get(q.ty), Type::Function { .. }) {
                self.declare_function(
                    &g.spec,
                    &d.decl,
                    q,
                    fparams.map(|p| p.0).unwrap_or_default(),
                );
                continue;
            }
            let Some(name) = d.decl.name else { continue };
            let loc = d.decl.loc;
            match g.spec.storage {
                Some(Storage::Auto) | Some(Storage::Register) => {
                    // 6.11.i
                    let s = if g.spec.storage == Some(Storage::Auto) {
                        "auto"
                    } else {
                        "register"
                    };
                    let v = self.version_text();
                    self.diags.error(g.spec.loc, format!("OpenCL C version {v} does not support the '{s}' storage class specifier"));
                }
                Some(Storage::Static) if self.opts.version < 200 => {
                    self.diags.error(
                        g.spec.loc,
                        "variables in function scope cannot be declared static",
                    );
                }
                _ => {}
            }
            self.check_object_type(q, loc, d.init.is_some());
            self.check_restrict(q, loc);
            self.check_object_attrs(&d.decl.attrs);
            if std::ptr::eq(d, &g.decls[0]) {
                self.check_object_attrs(&g.spec.attrs);
            }
            let is_kernel = self
                .cur_fn
                .is_some_and(|f| self.funcs[f.0 as usize].is_kernel);
            let mut q = q;
            let explicit_space = object_space(&g.spec, &d.decl);
            if matches!(self.types.get(q.ty), Type::Sampler)
                && matches!(explicit_space, Some(AddrSpace::Local | AddrSpace::Global))
            {
                // 6.11.b
                self.diags.error(loc, "the sampler type cannot be used with the __local and __global address space qualifiers");
            }
            if matches!(self.types.get(q.ty), Type::Event)
                && matches!(
                    explicit_space,
                    Some(AddrSpace::Local | AddrSpace::Global | AddrSpace::Constant)
                )
            {
                // 6.11.r
                self.diags.error(loc, "the event_t type cannot be used with the __local, __constant and __global address space qualifiers");
            }
            let is_static = g.spec.storage == Some(Storage::Static);
            match explicit_space {
                Some(AddrSpace::Local) => {
                    // 6.7.2: __local variables only at kernel function scope.
                    if !is_kernel {
                        self.diags.error(loc, "non-kernel function variable cannot be declared in local address space");
                    } else if self.block_depth > 1 {
                        self.diags.error(loc, "variables in the local address space can only be declared in the outermost scope of a kernel function");
                    }
                    if d.init.is_some() {
                        self.diags
                            .error(loc, "'__local' variable cannot have an initializer");
                    }
                }
                Some(AddrSpace::Global) if !is_static => {
                    self.diags.error(
                        loc,
                        "function scope variable cannot be declared in global address space",
                    );
                }
                Some(AddrSpace::Constant)
                    if d.init.is_none() && g.spec.storage != Some(Storage::Extern) =>
                {
                    self.diags.error(
                        loc,
                        "variable in constant address space must be initialized",
                    );
                }
                Some(AddrSpace::Generic) => {
                    self.diags.error(
                        loc,
                        "automatic variable qualified with an invalid address space",
                    );
                }
                _ => {}
            }
            if is_static && explicit_space.is_none() && self.opts.version >= 200 {
                q.space = AddrSpace::Global;
            }
            if matches!(self.types.get(q.ty), Type::Sampler)
                && d.init.is_none()
                && !matches!(explicit_space, Some(AddrSpace::Local | AddrSpace::Global))
            {
                self.diags
                    .error(loc, "sampler variable must be initialized");
            }
            let kind = if is_static
                || explicit_space == Some(AddrSpace::Local)
                || explicit_space == Some(AddrSpace::Constant)
            {
                VarKind::Global
            } else if g.spec.storage == Some(Storage::Extern) {
                VarKind::Extern
            } else {
                VarKind::Local
            };
            // Arrays sized by their initializer: `int a[] = {1, 2}`.
            if let (
                Type::Array(e, None),
                Some(ast::Initializer::Expr(ast::Expr {
                    kind: ast::ExprKind::Str(s),
                    ..
                })),
            ) = (self.types.get(q.ty).clone(), &d.init)
            {
                q.ty = self.types.intern(Type::Array(e, Some(s.len() as u64 + 1)));
            }
            let align = self
                .align_attr(&d.decl.attrs)
                .or(self.align_attr(&g.spec.attrs));
            let id = self.new_var(name, q, kind, loc, align);
            // The variable is in scope in its own initializer (C99 6.2.1p7).
            self.bind(name, Binding::Var(id), loc);
            let failed = self.declarator_failed;
            if failed {
                self.poisoned.insert(id.0);
            }
            let init = d
                .init
                .as_ref()
                .filter(|_| !failed)
                .and_then(|i| self.initializer(i, q.ty));
            if let Some(Init::List(t, _)) = &init {
                self.vars[id.0 as usize].ty.ty = *t;
            }
            if kind == VarKind::Global {
                if let Some(i) = &init {
                    if !self.is_constant_init(i) {
                        self.diags.error(
                            init_loc(d.init.as_ref().expect("init")),
                            "initializer element is not a compile-time constant",
                        );
                    }
                }
                self.globals.push((id, init));
                out.push(Stmt {
                    kind: StmtKind::Decl(id, None),
                    loc,
                });
            } else {
                out.push(Stmt {
                    kind: StmtKind::Decl(id, init),
                    loc,
                });
            }
        }
        out
    }
}
