//! Blocks (6.14): block literals with their captured variables, calls of a
//! block, and the enqueue_kernel builtins that take one.

use super::*;

/// The error for blocks and device-side enqueue in an OpenCL C 2.0 program on a device
/// without them (`CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES` is 0).
const NO_DEVICE_ENQUEUE: &str =
    "blocks and device-side enqueue are not supported by this device (CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES is 0)";

impl Sema<'_> {
    /// Records that the block literals being checked read variable `v` of scope `depth`.
    pub(super) fn capture(&mut self, v: VarId, depth: usize) {
        if !matches!(
            self.vars[v.0 as usize].kind,
            VarKind::Local | VarKind::Param
        ) {
            return;
        }
        for b in &mut self.block_stack {
            if depth < b.base_scope && !b.captures.contains(&v) {
                b.captures.push(v);
            }
        }
    }

    /// `^(params) { body }` (6.14.3).
    pub(super) fn block_literal(
        &mut self,
        params: &[ast::Param],
        body: &ast::Stmt,
        loc: Loc,
    ) -> Expr {
        if !self.cfg.v20("__opencl_c_device_enqueue") {
            self.diags.error(
                loc,
                "blocks require OpenCL C 2.0 or the __opencl_c_device_enqueue feature",
            );
            return self.error_expr(loc);
        }
        if !self.opts.device_enqueue {
            self.diags.error(loc, NO_DEVICE_ENQUEUE);
            return self.error_expr(loc);
        }
        self.push_scope();
        let base_scope = self.scopes.len() - 1;
        let mut vars = Vec::new();
        let mut types = Vec::new();
        for p in params {
            let b = self.base_type(&p.spec);
            let (q, _) = self.declarator_type(b, p.spec.space.is_some(), &p.decl);
            types.push(q.ty);
            let name = p
                .decl
                .name
                .map(|n| self.name(n).to_string())
                .unwrap_or_default();
            self.vars.push(Var {
                name,
                ty: q,
                kind: VarKind::Param,
                loc: p.decl.loc,
                align: None,
            });
            let id = VarId(self.vars.len() as u32 - 1);
            if let Some(n) = p.decl.name {
                self.bind(n, Binding::Var(id), p.decl.loc);
            }
            vars.push(id);
        }
        self.block_stack.push(crate::sema::BlockCtx {
            base_scope,
            ..Default::default()
        });
        let body = self.block_body(body);
        let ctx = self.block_stack.pop().unwrap_or_default();
        self.pop_scope();
        let ret = match ctx.ret {
            Some(r) => r,
            None => self.types.void(),
        };
        let t = self.types.intern(Type::Block { ret, params: types });
        mk(
            ExprKind::Block(Box::new(BlockExpr {
                params: vars,
                body,
                captures: ctx.captures,
            })),
            t,
            loc,
        )
    }

    /// A call through a block reference.
    pub(super) fn call_block(&mut self, block: Expr, args: Vec<Expr>, loc: Loc) -> Expr {
        let Type::Block { ret, params } = self.types.get(block.ty).clone() else {
            return self.error_expr(loc);
        };
        if params.len() != args.len() {
            let few = args.len() < params.len();
            self.diags.error(
                loc,
                format!(
                    "too {} arguments to block call, expected {}, have {}",
                    if few { "few" } else { "many" },
                    params.len(),
                    args.len()
                ),
            );
            return self.error_expr(loc);
        }
        let conv = match self.pass_args(args, &params) {
            Ok(conv) => conv,
            Err(e) => return e,
        };
        mk(
            ExprKind::Call(Box::new(Callee::Block(block)), conv),
            ret,
            loc,
        )
    }

    /// 6.15.19: enqueue_kernel and the kernel queries take a block.
    pub(super) fn enqueue_builtin(
        &mut self,
        f: catalogue::Enqueue,
        args: Vec<Expr>,
        name_loc: Loc,
        loc: Loc,
    ) -> Expr {
        use catalogue::Enqueue as E;
        let name = f.name();
        if !self.cfg.v20("__opencl_c_device_enqueue") {
            self.diags.error(
                name_loc,
                format!("implicit declaration of function '{name}' is invalid in OpenCL"),
            );
            return self.error_expr(loc);
        }
        if !self.opts.device_enqueue {
            self.diags.error(name_loc, NO_DEVICE_ENQUEUE);
            return self.error_expr(loc);
        }
        let int = self.types.int();
        let uint = self.types.scalar(Scalar::UInt);
        let queue = self.types.intern(Type::Queue);
        let ndrange = self.types.intern(Type::NdRange);
        let clk = self.types.intern(Type::ClkEvent);
        let space = self.unqualified_pointee_space();
        let wait_list = self.types.pointer(QualType {
            ty: clk,
            is_const: true,
            space,
            ..Default::default()
        });
        let event_ret = self.types.pointer(QualType {
            ty: clk,
            space,
            ..Default::default()
        });
        let bad = |me: &mut Self, args: &[Expr]| me.no_matching_call(name, name_loc, args, loc);
        let block_at = |me: &Self, args: &[Expr]| {
            args.iter()
                .position(|a| matches!(me.types.get(a.ty), Type::Block { .. }))
        };
        let Some(bi) = block_at(self, &args) else {
            return bad(self, &args);
        };
        let Type::Block {
            ret,
            params: bparams,
        } = self.types.get(args[bi].ty).clone()
        else {
            return bad(self, &args);
        };
        let mut expected: Vec<TypeId> = match f {
            E::EnqueueKernel => match bi {
                3 => vec![queue, int, ndrange],
                6 => vec![queue, int, ndrange, uint, wait_list, event_ret],
                _ => return bad(self, &args),
            },
            E::GetKernelWorkGroupSize | E::GetKernelPreferredWorkGroupSizeMultiple if bi == 0 => {
                vec![]
            }
            E::GetKernelSubGroupCountForNdrange | E::GetKernelMaxSubGroupSizeForNdrange
                if bi == 1 =>
            {
                vec![ndrange]
            }
            _ => return bad(self, &args),
        };
        expected.push(args[bi].ty);
        // The block returns void; its parameters are all `local void *`, one size each.
        let local_ptrs = bparams
            .iter()
            .all(|p| matches!(self.types.pointee(*p), Some(q) if q.space == AddrSpace::Local));
        if !self.types.is_void(ret) || !local_ptrs {
            let tn = self.types.name(args[bi].ty);
            self.diags.error(args[bi].loc, format!("illegal block type '{tn}': blocks passed to '{name}' return void and take only local pointers"));
            return self.error_expr(loc);
        }
        let sizes = args.len() - bi - 1;
        if sizes != bparams.len() || (f != E::EnqueueKernel && sizes != 0) {
            self.diags.error(name_loc, format!("mismatch in number of block parameters ({}) and local size arguments ({sizes})", bparams.len()));
            return self.error_expr(loc);
        }
        expected.extend(std::iter::repeat_n(uint, sizes));
        let conv = match self.pass_args(args, &expected) {
            Ok(conv) => conv,
            Err(e) => return e,
        };
        let rt = if f == E::EnqueueKernel { int } else { uint };
        builtin_call_expr(Builtin::Enqueue(f), expected, conv, rt, loc)
    }
}
