//! Statements of a function body: blocks, control flow (if, loops, switch with its case table,
//! goto and labels), returns, and the local declarations with their initializers.

use super::*;
use crate::sema::tree::else_if_chain;

/// The case and default statements of a switch body (not of nested switches), with their
/// values (None for default), by address.
pub(super) fn collect_cases(s: &Stmt, out: &mut Vec<(usize, Option<i128>)>) {
    match &s.kind {
        StmtKind::Case(v, inner) => {
            out.push((s as *const Stmt as usize, Some(*v)));
            collect_cases(inner, out);
        }
        StmtKind::Default(inner) => {
            out.push((s as *const Stmt as usize, None));
            collect_cases(inner, out);
        }
        StmtKind::Block(list) => list.iter().for_each(|s| collect_cases(s, out)),
        StmtKind::If(..) => else_if_chain(s).for_each(|s| collect_cases(s, out)),
        StmtKind::While(_, b, _)
        | StmtKind::DoWhile(b, _, _)
        | StmtKind::Label(_, b)
        | StmtKind::For(_, _, _, b, _) => collect_cases(b, out),
        _ => {}
    }
}

impl FnLower<'_, '_, '_> {
    pub(super) fn stmt(&mut self, s: &Stmt) -> Res<()> {
        match &s.kind {
            StmtKind::Expr(e) => {
                self.expr(e)?;
            }
            StmtKind::Decl(v, init) => {
                let var = &self.cx.p.vars[v.0 as usize];
                if var.kind != VarKind::Local {
                    return Ok(());
                }
                let t = var.ty.ty;
                let slot = self.new_slot(t, var.align);
                self.places.insert(*v, Place::Slot(slot));
                let loops = self.loop_depth();
                self.decl_loops.insert(*v, loops);
                if let Some(init) = init {
                    let addr = self.b.slot_addr(slot);
                    let align = self.b.func.slots[slot].align;
                    self.init_store(addr, align, t, init)?;
                }
            }
            StmtKind::Block(list) => {
                // C99 7.12.2: "at the end of a compound statement the state for the pragma is
                // restored to its condition just before the compound statement".
                let fp_contract = self.fp_contract;
                for s in list {
                    self.stmt(s)?;
                }
                self.fp_contract = fp_contract;
            }
            StmtKind::FpContract(on) => self.fp_contract = *on,
            StmtKind::If(..) => {
                // The `else if` arms chained to this `if` are lowered with a loop; each arm
                // that has an `else` gets its merge block as when they nest.
                let mut merges = Vec::new();
                let mut at = s;
                loop {
                    let StmtKind::If(c, t, e) = &at.kind else {
                        // The final `else`.
                        self.stmt(at)?;
                        break;
                    };
                    let cond = self.cond(c)?;
                    let then_b = self.b.create_block();
                    let else_b = self.b.create_block();
                    let merge = if e.is_some() {
                        self.b.create_block()
                    } else {
                        else_b
                    };
                    self.b.brif(cond, then_b, &[], else_b, &[]);
                    self.b.switch_to_block(then_b);
                    self.stmt(t)?;
                    self.jump_to(merge);
                    merges.push(merge);
                    match e {
                        Some(e) => {
                            self.b.switch_to_block(else_b);
                            at = e;
                        }
                        None => break,
                    }
                }
                // Innermost first: each merge block falls into the enclosing arm's.
                while let Some(merge) = merges.pop() {
                    self.jump_to(merge);
                    self.b.switch_to_block(merge);
                }
            }
            StmtKind::While(c, body, _) => {
                let head = self.b.create_block();
                let body_b = self.b.create_block();
                let exit = self.b.create_block();
                self.b.jump(head, &[]);
                self.b.switch_to_block(head);
                let cond = self.cond(c)?;
                self.b.brif(cond, body_b, &[], exit, &[]);
                self.b.switch_to_block(body_b);
                self.loops.push((exit, Some(head)));
                self.stmt(body)?;
                self.loops.pop();
                self.jump_to(head);
                self.b.switch_to_block(exit);
            }
            StmtKind::DoWhile(body, c, _) => {
                let body_b = self.b.create_block();
                let cond_b = self.b.create_block();
                let exit = self.b.create_block();
                self.b.jump(body_b, &[]);
                self.b.switch_to_block(body_b);
                self.loops.push((exit, Some(cond_b)));
                self.stmt(body)?;
                self.loops.pop();
                self.jump_to(cond_b);
                self.b.switch_to_block(cond_b);
                let cond = self.cond(c)?;
                self.b.brif(cond, body_b, &[], exit, &[]);
                self.b.switch_to_block(exit);
            }
            StmtKind::For(init, c, step, body, _) => {
                if let Some(i) = init {
                    self.stmt(i)?;
                }
                let head = self.b.create_block();
                let body_b = self.b.create_block();
                let step_b = self.b.create_block();
                let exit = self.b.create_block();
                self.b.jump(head, &[]);
                self.b.switch_to_block(head);
                match c {
                    Some(c) => {
                        let cond = self.cond(c)?;
                        self.b.brif(cond, body_b, &[], exit, &[]);
                    }
                    None => {
                        self.b.jump(body_b, &[]);
                    }
                }
                self.b.switch_to_block(body_b);
                self.loops.push((exit, Some(step_b)));
                self.stmt(body)?;
                self.loops.pop();
                self.jump_to(step_b);
                self.b.switch_to_block(step_b);
                if let Some(s) = step {
                    self.expr(s)?;
                }
                self.b.jump(head, &[]);
                self.b.switch_to_block(exit);
            }
            StmtKind::Switch(x, body) => {
                let v = self.val(x)?;
                let ty = self.b.value_type(v);
                let mask = if ty.lane_bits() >= 64 {
                    u64::MAX
                } else {
                    (1u64 << ty.lane_bits()) - 1
                };
                let exit = self.b.create_block();
                let mut found = Vec::new();
                collect_cases(body, &mut found);
                let mut default = exit;
                let mut cases = Vec::new();
                for (addr, value) in found {
                    let blk = self.b.create_block();
                    self.cases.insert(addr, blk);
                    match value {
                        Some(c) => cases.push(((c as u64) & mask, Dest::new(blk, &[]))),
                        None => default = blk,
                    }
                }
                self.b.switch(v, Dest::new(default, &[]), cases);
                self.fresh();
                self.loops.push((exit, None));
                self.stmt(body)?;
                self.loops.pop();
                self.jump_to(exit);
                self.b.switch_to_block(exit);
            }
            StmtKind::Case(_, inner) | StmtKind::Default(inner) => {
                let blk = *self
                    .cases
                    .get(&(s as *const Stmt as usize))
                    .ok_or_else(|| LowerError::new("case label outside a switch"))?;
                self.jump_to(blk);
                self.b.switch_to_block(blk);
                self.stmt(inner)?;
            }
            StmtKind::Label(name, inner) => {
                let blk = self.label_block(name);
                self.jump_to(blk);
                self.b.switch_to_block(blk);
                self.stmt(inner)?;
            }
            StmtKind::Goto(name) => {
                let blk = self.label_block(name);
                self.b.jump(blk, &[]);
                self.fresh();
            }
            StmtKind::Break => {
                let Some(&(t, _)) = self.loops.last() else {
                    return self.err("break outside a loop or switch");
                };
                self.b.jump(t, &[]);
                self.fresh();
            }
            StmtKind::Continue => {
                let Some(t) = self.loops.iter().rev().find_map(|l| l.1) else {
                    return self.err("continue outside a loop");
                };
                self.b.jump(t, &[]);
                self.fresh();
            }
            StmtKind::Return(e) => {
                match (e, self.sret) {
                    (Some(e), Some(dst)) => {
                        let src = self.val(e)?;
                        let size = self.cx.size_of(self.ret_ty);
                        let a = self.cx.align_of(self.ret_ty);
                        self.copy(dst, src, size, a);
                        self.b.ret(None);
                    }
                    (Some(e), None) => {
                        let v = self.expr(e)?;
                        if self.b.func.sig.ret.is_some() {
                            self.b.ret(v);
                        } else {
                            self.b.ret(None);
                        }
                    }
                    (None, _) => match self.b.func.sig.ret {
                        Some(t) => {
                            let u = self.b.undef(t);
                            self.b.ret(Some(u));
                        }
                        None => {
                            self.b.ret(None);
                        }
                    },
                }
                self.fresh();
            }
            StmtKind::Empty => {}
        }
        Ok(())
    }

    /// A controlling expression as an `i1`.
    pub(super) fn cond(&mut self, c: &Expr) -> Res<Value> {
        let scalar = !self.cx.p.types.is_vector(c.ty);
        match &c.kind {
            // A scalar converted to bool is true when it compares unequal to 0: the same
            // test as the scalar itself.
            ExprKind::Cast(CastKind::ToBool, x) if !self.cx.p.types.is_vector(x.ty) => self.cond(x),
            // Comparisons and logical operators tested directly, without the int 0/1.
            ExprKind::Binary(op, a, b) if scalar && op.is_comparison() => self.compare(*op, a, b),
            ExprKind::Binary(op @ (BinOp::LogAnd | BinOp::LogOr), a, b) if scalar => {
                self.logical_i1(*op, a, b)
            }
            _ => {
                let v = self.val(c)?;
                Ok(self.truth(v))
            }
        }
    }
}
