//! Statements (C99 6.8): compound statements, selection, iteration and jump statements, labels,
//! and function-scope declarations, with recovery at `;` and `}`.

use super::expr::has_error;
use super::*;

impl<'a> Parser<'a> {
    pub(super) fn compound(&mut self) -> Stmt {
        let loc = self.loc();
        if !self.expect(Tok::LBrace, "") {
            self.recover(false);
            return Stmt {
                kind: StmtKind::Error,
                loc,
                attrs: vec![],
                unroll: None,
            };
        }
        let mut list = Vec::new();
        if self.enter() {
            self.push_scope();
            // Where the tokens between this block's items begin: an FP_CONTRACT pragma there
            // holds from the next item to the end of the block (C99 7.12.2).
            let mut between = self.pos;
            while !matches!(self.kind(), Tok::RBrace | Tok::Eof) && !self.fatal {
                let start = self.pos;
                if let Some(on) = self.fp_contract_in(between, start) {
                    list.push(Stmt::fp_contract(on, self.loc()));
                }
                list.push(self.statement());
                if self.pos == start {
                    self.bump();
                }
                between = self.pos;
            }
            self.pop_scope();
            self.leave();
        }
        let end = self.loc();
        if !self.eat(Tok::RBrace) {
            let l = self.loc();
            self.error(l, "expected '}'");
            self.note(loc, "to match this '{'");
        }
        Stmt {
            kind: StmtKind::Compound(list, end),
            loc,
            attrs: vec![],
            unroll: None,
        }
    }

    pub(super) fn statement(&mut self) -> Stmt {
        let loc = self.loc();
        if !self.enter() {
            return Stmt {
                kind: StmtKind::Error,
                loc,
                attrs: vec![],
                unroll: None,
            };
        }
        let s = self.statement_inner();
        self.leave();
        s
    }

    /// `if (c) s [else if (c) s]... [else s]`. The `else if` chain is read with a loop (each
    /// arm one nesting level deep, not one more than the arm before it), then built into the
    /// nested `If`s the tree has; its length is capped by [`MAX_ELSE_IFS`].
    fn if_chain(&mut self) -> Stmt {
        let mut arms = Vec::new();
        let mut els = None;
        loop {
            let loc = self.loc();
            self.bump();
            let c = self.paren_expr();
            let then = self.statement();
            arms.push((loc, c, then));
            if !self.eat_kw(Kw::Else) {
                break;
            }
            // `else if`, unless a `#pragma unroll` stands before the `if` (an error that the
            // statement reports).
            if self.kw() != Some(Kw::If) || self.unroll_hints.contains_key(&self.pos) {
                els = Some(Box::new(self.statement()));
                break;
            }
            if arms.len() >= MAX_ELSE_IFS as usize {
                if !self.fatal {
                    let l = self.loc();
                    self.diags.error(
                        l,
                        format!("'else if' chain longer than the maximum of {MAX_ELSE_IFS}"),
                    );
                    self.fatal = true;
                }
                self.pos = self.toks.len() - 1;
                break;
            }
            // Each arm's condition is a statement of its own for the operator bound.
            if self.in_block_literal == 0 {
                self.ops = 0;
            }
        }
        let mut tail = els;
        let mut arms = arms.into_iter().rev();
        loop {
            let (loc, c, then) = arms.next().expect("one arm at least");
            let s = Stmt {
                kind: StmtKind::If(c, Box::new(then), tail),
                loc,
                attrs: vec![],
                unroll: None,
            };
            match arms.len() {
                0 => return s,
                _ => tail = Some(Box::new(s)),
            }
        }
    }

    pub(super) fn statement_inner(&mut self) -> Stmt {
        let loc = self.loc();
        // Statements inside a block literal count towards the enclosing statement's
        // operators, so that nesting cannot multiply the bound.
        if self.in_block_literal == 0 {
            self.ops = 0;
        }
        let mk = |kind| Stmt {
            kind,
            loc,
            attrs: vec![],
            unroll: None,
        };
        let t = self.tok();
        if let Some((count, ploc)) = self.unroll_hints.remove(&self.pos) {
            let mut s = self.statement();
            if !matches!(
                s.kind,
                StmtKind::For(..) | StmtKind::While(..) | StmtKind::DoWhile(..)
            ) {
                self.error(
                    ploc,
                    "expected a for, while, or do-while loop to follow '#pragma unroll'",
                );
            }
            s.unroll = Some(count);
            return s;
        }
        // Statement attributes: __attribute__((opencl_unroll_hint(n))) for (...)
        if matches!(self.kw(), Some(Kw::Attribute | Kw::Attribute2)) {
            let save = self.pos;
            let attrs = self.attributes();
            if self
                .kw()
                .is_some_and(|k| matches!(k, Kw::For | Kw::While | Kw::Do))
            {
                let mut s = self.statement();
                s.attrs = attrs;
                return s;
            }
            self.pos = save;
        }
        if let Some(k) = self.kw() {
            match k {
                Kw::If => return self.if_chain(),
                Kw::While => {
                    self.bump();
                    let c = self.paren_expr();
                    let body = self.statement();
                    return mk(StmtKind::While(c, Box::new(body)));
                }
                Kw::Do => {
                    self.bump();
                    let body = self.statement();
                    if !self.eat_kw(Kw::While) {
                        let l = self.loc();
                        self.error(l, "expected 'while' in do/while loop");
                        self.recover(false);
                        return mk(StmtKind::Error);
                    }
                    let c = self.paren_expr();
                    if !self.eat(Tok::Semi) {
                        let l = self.prev_end();
                        self.error(l, "expected ';' after do/while statement");
                    }
                    return mk(StmtKind::DoWhile(Box::new(body), c));
                }
                Kw::For => {
                    self.bump();
                    if !self.expect(Tok::LParen, "after 'for'") {
                        self.recover(false);
                        return mk(StmtKind::Error);
                    }
                    self.push_scope();
                    let init = if self.eat(Tok::Semi) {
                        None
                    } else if self.starts_decl(self.tok()) {
                        let d = self.local_decl();
                        Some(Box::new(d))
                    } else {
                        let l = self.loc();
                        let e = self.expression();
                        self.expect(Tok::Semi, "in 'for' statement specifier");
                        Some(Box::new(Stmt {
                            kind: StmtKind::Expr(Some(e)),
                            loc: l,
                            attrs: vec![],
                            unroll: None,
                        }))
                    };
                    let cond = if self.kind() == Tok::Semi {
                        None
                    } else {
                        Some(self.expression())
                    };
                    self.expect(Tok::Semi, "in 'for' statement specifier");
                    let step = if self.kind() == Tok::RParen {
                        None
                    } else {
                        Some(self.expression())
                    };
                    if !self.expect(Tok::RParen, "") && self.kind() != Tok::LBrace {
                        self.recover(true);
                    }
                    let body = self.statement();
                    self.pop_scope();
                    return mk(StmtKind::For(init, cond, step, Box::new(body)));
                }
                Kw::Switch => {
                    self.bump();
                    let c = self.paren_expr();
                    let body = self.statement();
                    return mk(StmtKind::Switch(c, Box::new(body)));
                }
                Kw::Case => {
                    self.bump();
                    let e = self.conditional();
                    self.expect(Tok::Colon, "after 'case'");
                    let s = self.label_body();
                    return mk(StmtKind::Case(e, Box::new(s)));
                }
                Kw::Default => {
                    self.bump();
                    self.expect(Tok::Colon, "after 'default'");
                    let s = self.label_body();
                    return mk(StmtKind::Default(Box::new(s)));
                }
                Kw::Goto => {
                    self.bump();
                    let t = self.tok();
                    if t.kind != Tok::Ident {
                        self.error(t.loc, "expected identifier");
                        self.recover(false);
                        return mk(StmtKind::Error);
                    }
                    self.bump();
                    self.semi("after goto statement");
                    return mk(StmtKind::Goto(t.sym));
                }
                Kw::Break => {
                    self.bump();
                    self.semi("after break statement");
                    return mk(StmtKind::Break);
                }
                Kw::Continue => {
                    self.bump();
                    self.semi("after continue statement");
                    return mk(StmtKind::Continue);
                }
                Kw::Return => {
                    self.bump();
                    let e = if self.kind() == Tok::Semi {
                        None
                    } else {
                        Some(self.expression())
                    };
                    self.semi("after return statement");
                    return mk(StmtKind::Return(e));
                }
                Kw::StaticAssert => {
                    return match self.static_assert() {
                        Some(sa) => mk(StmtKind::StaticAssert(sa)),
                        None => mk(StmtKind::Error),
                    };
                }
                _ => {}
            }
        }
        match t.kind {
            Tok::LBrace => return self.compound(),
            Tok::Semi => {
                self.bump();
                return mk(StmtKind::Expr(None));
            }
            Tok::Ident if self.peek_n(1).kind == Tok::Colon && self.kw_of(t).is_none() => {
                self.bump();
                self.bump();
                let s = self.label_body();
                return mk(StmtKind::Label(t.sym, Box::new(s)));
            }
            _ => {}
        }
        if self.starts_decl(t) {
            return self.local_decl();
        }
        // `T x;` with an unknown T.
        if t.kind == Tok::Ident
            && self.kw_of(t).is_none()
            && self.peek_n(1).kind == Tok::Ident
            && matches!(
                self.peek_n(2).kind,
                Tok::Semi | Tok::Assign | Tok::LBracket | Tok::Comma
            )
        {
            let n = self.text(t);
            self.error(t.loc, format!("unknown type name '{n}'"));
            self.recover(false);
            return mk(StmtKind::Error);
        }
        let e = self.expression();
        if has_error(&e) {
            // Already reported: skip to the end of the statement without a follow-on error.
            self.recover(true);
            self.eat(Tok::Semi);
            return mk(StmtKind::Error);
        }
        if !self.eat(Tok::Semi) {
            let l = self.prev_end();
            self.error(l, "expected ';' after expression");
            self.recover_after_missing_semi();
        }
        mk(StmtKind::Expr(Some(e)))
    }

    pub(super) fn label_body(&mut self) -> Stmt {
        if self.kind() == Tok::RBrace {
            let l = self.loc();
            self.error(l, "label at end of compound statement: expected statement");
            return Stmt {
                kind: StmtKind::Expr(None),
                loc: l,
                attrs: vec![],
                unroll: None,
            };
        }
        self.statement()
    }

    pub(super) fn semi(&mut self, context: &str) {
        if !self.eat(Tok::Semi) {
            let l = self.prev_end();
            self.error(l, format!("expected ';' {context}"));
            self.recover_after_missing_semi();
        }
    }

    /// After a missing `;`: when the next token starts a new line (or closes the block), the
    /// `;` was most likely forgotten at the end of the previous line, and parsing goes on
    /// from there; otherwise skip to the end of the statement.
    pub(super) fn recover_after_missing_semi(&mut self) {
        let t = self.tok();
        if t.has(lex::BOL) || t.kind == Tok::RBrace || t.kind == Tok::Eof {
            return;
        }
        self.recover(true);
        self.eat(Tok::Semi);
    }

    pub(super) fn local_decl(&mut self) -> Stmt {
        let loc = self.loc();
        let spec = self.decl_spec(true);
        if self.eat(Tok::Semi) {
            return Stmt {
                kind: StmtKind::Decl(DeclGroup {
                    spec,
                    decls: vec![],
                }),
                loc,
                attrs: vec![],
                unroll: None,
            };
        }
        let is_typedef = spec.storage == Some(Storage::Typedef);
        let mut decls = Vec::new();
        loop {
            let decl = self.declarator(false);
            if let Some(n) = decl.name {
                self.declare(n, is_typedef);
            }
            let init = if self.eat(Tok::Assign) {
                Some(self.initializer())
            } else {
                None
            };
            decls.push(InitDecl { decl, init });
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        if !self.eat(Tok::Semi) {
            let l = self.prev_end();
            self.error(l, "expected ';' at end of declaration");
            self.recover_after_missing_semi();
        }
        Stmt {
            kind: StmtKind::Decl(DeclGroup { spec, decls }),
            loc,
            attrs: vec![],
            unroll: None,
        }
    }
}
