//! Function calls: user functions, builtin functions with OpenCL overload resolution, and the
//! builtins that need their own rules (pipes, address-space queries and conversions).

use super::*;

impl Sema<'_> {
    pub(super) fn call(&mut self, callee: &ast::Expr, args: &[ast::Expr], loc: Loc) -> Expr {
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
                let fixed = params.len();
                let mut cargs = cargs;
                let extra = cargs.split_off(fixed.min(cargs.len()));
                let mut conv = match self.pass_args(cargs, &params) {
                    Ok(conv) => conv,
                    Err(e) => return e,
                };
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

    pub(super) fn pt_type(&mut self, p: Pt) -> TypeId {
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

    pub(super) fn builtin_call(
        &mut self,
        name: &str,
        args: Vec<Expr>,
        name_loc: Loc,
        loc: Loc,
    ) -> Expr {
        let builtin = Builtin::from_name(name);
        match builtin {
            Some(Builtin::Enqueue(e)) if e.takes_block() => {
                return self.enqueue_builtin(e, args, name_loc, loc);
            }
            Some(Builtin::Pipe(p)) if self.opts.version >= 200 => {
                return self.pipe_builtin(p, args, name_loc, loc);
            }
            Some(Builtin::AddressSpace(a)) => {
                return self.address_space_builtin(a, args, name_loc, loc);
            }
            _ => {}
        }
        let sigs = match builtin {
            Some(b) => builtins::lookup_cached(b, &self.cfg, self.cfg_fingerprint),
            None => Default::default(),
        };
        let Some(builtin) = builtin.filter(|_| !sigs.is_empty()) else {
            return self.implicit_declaration(name, name_loc, loc);
        };
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
        if builtin == Builtin::Printf {
            if let Some(ExprKind::Cast(CastKind::ArrayToPointer, inner)) =
                conv.first().map(|c| &c.kind)
            {
                if !matches!(inner.kind, ExprKind::StrConst(_)) {
                    self.diags
                        .warning(loc, "format string is not a string literal");
                }
            }
        }
        builtin_call_expr(builtin, params, conv, ret, loc)
    }

    /// Reports a call of `name`, which names neither a function in scope nor a builtin of
    /// this target (6.11.v: implicit function declarations are not supported), with the
    /// closest name that is one.
    fn implicit_declaration(&mut self, name: &str, name_loc: Loc, loc: Loc) -> Expr {
        self.diags.error(
            name_loc,
            format!("implicit declaration of function '{name}' is invalid in OpenCL"),
        );
        let near = self.similar_in_scope(name).or_else(|| {
            builtins::table_names()
                .filter(|(b, _)| close(name, b))
                .filter(|&(_, b)| {
                    !builtins::lookup_cached(b, &self.cfg, self.cfg_fingerprint).is_empty()
                })
                .min_by_key(|(b, _)| (edit_distance(name, b), b.to_string()))
                .map(|(b, _)| b.to_string())
        });
        if let Some(m) = near {
            self.diags.note(name_loc, format!("did you mean '{m}'?"));
        }
        self.error_expr(loc)
    }

    /// Chooses among `overloadable` user functions as clang does (sema/overload.rs);
    /// Err(true) when the call is ambiguous, Err(false) when no candidate fits.
    pub(super) fn pick_overload(&mut self, set: &[FuncId], args: &[Expr]) -> Result<FuncId, bool> {
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

    /// 6.15.18 pipe functions: generic over the element type of the pipe argument.
    pub(super) fn pipe_builtin(
        &mut self,
        f: catalogue::Pipe,
        args: Vec<Expr>,
        name_loc: Loc,
        loc: Loc,
    ) -> Expr {
        use catalogue::Pipe as P;
        let name = f.name();
        let int = self.types.int();
        let uint = self.types.scalar(Scalar::UInt);
        let rid = self.types.intern(Type::ReserveId);
        let void = self.types.void();
        let bool_t = self.types.scalar(Scalar::Bool);
        let bad = |me: &mut Self, args: &[Expr]| me.no_matching_call(name, name_loc, args, loc);
        if f == P::IsValidReserveId {
            if args.len() != 1 || args[0].ty != rid {
                return bad(self, &args);
            }
            return builtin_call_expr(Builtin::Pipe(f), vec![rid], args, bool_t, loc);
        }
        let Some(Type::Pipe(elem, access)) = args.first().map(|a| self.types.get(a.ty).clone())
        else {
            return bad(self, &args);
        };
        let pipe_ty = args[0].ty;
        let (reading, writing) = (f.reads(), f.writes());
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
        let space = self.unqualified_pointee_space();
        let elem_ptr = self.types.pointer(QualType {
            ty: elem,
            is_const: writing,
            space,
            ..Default::default()
        });
        let (params, ret): (Vec<TypeId>, TypeId) = match f {
            P::ReadPipe | P::WritePipe if args.len() == 2 => (vec![pipe_ty, elem_ptr], int),
            P::ReadPipe | P::WritePipe if args.len() == 4 => {
                (vec![pipe_ty, rid, uint, elem_ptr], int)
            }
            P::ReadPipe | P::WritePipe | P::IsValidReserveId => return bad(self, &args),
            P::GetPipeNumPackets | P::GetPipeMaxPackets => (vec![pipe_ty], uint),
            P::ReserveReadPipe
            | P::ReserveWritePipe
            | P::WorkGroupReserveReadPipe
            | P::WorkGroupReserveWritePipe
            | P::SubGroupReserveReadPipe
            | P::SubGroupReserveWritePipe => (vec![pipe_ty, uint], rid),
            P::CommitReadPipe
            | P::CommitWritePipe
            | P::WorkGroupCommitReadPipe
            | P::WorkGroupCommitWritePipe
            | P::SubGroupCommitReadPipe
            | P::SubGroupCommitWritePipe => (vec![pipe_ty, rid], void),
        };
        if params.len() != args.len() {
            return bad(self, &args);
        }
        let conv = match self.pass_args(args, &params) {
            Ok(conv) => conv,
            Err(e) => return e,
        };
        builtin_call_expr(Builtin::Pipe(f), params, conv, ret, loc)
    }

    /// 6.15.10: to_global/to_local/to_private take any generic pointer; get_fence returns
    /// cl_mem_fence_flags.
    pub(super) fn address_space_builtin(
        &mut self,
        f: catalogue::AddressSpace,
        args: Vec<Expr>,
        name_loc: Loc,
        loc: Loc,
    ) -> Expr {
        let name = f.name();
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
        let ret = match f {
            catalogue::AddressSpace::ToGlobal => Some(AddrSpace::Global),
            catalogue::AddressSpace::ToLocal => Some(AddrSpace::Local),
            catalogue::AddressSpace::ToPrivate => Some(AddrSpace::Private),
            catalogue::AddressSpace::GetFence => None,
        };
        let rt = match ret {
            Some(s) => self.types.pointer(QualType { space: s, ..q }),
            None => self.types.scalar(Scalar::UInt),
        };
        builtin_call_expr(Builtin::AddressSpace(f), vec![gen], vec![a], rt, loc)
    }
}
