//! Expressions (C99 6.5): precedence climbing over the binary operators, casts and compound
//! literals, unary and postfix operators, primary expressions, and OpenCL's vector literals.

use super::*;
use crate::number::{self, Number};

/// Whether an expression contains a part that failed to parse (already reported). A walk with
/// its own work list: operator chains are as deep as they are long.
pub(super) fn has_error(e: &Expr) -> bool {
    let mut work = vec![e];
    while let Some(e) = work.pop() {
        match &e.kind {
            ExprKind::Error => return true,
            ExprKind::Unary(_, x)
            | ExprKind::Cast(_, x)
            | ExprKind::SizeofExpr(x)
            | ExprKind::AlignofExpr(x)
            | ExprKind::VecStepExpr(x)
            | ExprKind::Member(x, ..) => work.push(x),
            ExprKind::Binary(_, a, b)
            | ExprKind::Assign(_, a, b)
            | ExprKind::Comma(a, b)
            | ExprKind::Index(a, b) => work.extend([&**a, &**b]),
            ExprKind::Cond(a, b, c) => work.extend([&**a, &**b, &**c]),
            ExprKind::Call(f, args) => {
                work.push(f);
                work.extend(args);
            }
            ExprKind::VecLit(_, args) => work.extend(args),
            ExprKind::Generic(c, assocs) => {
                work.push(c);
                work.extend(assocs.iter().map(|a| &a.expr));
            }
            _ => {}
        }
    }
    false
}

impl<'a> Parser<'a> {
    pub(super) fn paren_expr(&mut self) -> Expr {
        let loc = self.loc();
        if !self.expect(Tok::LParen, "") {
            return Expr {
                kind: ExprKind::Error,
                loc,
            };
        }
        let e = self.expression();
        if !self.eat(Tok::RParen) {
            let l = self.prev_end();
            self.error(l, "expected ')'");
            self.skip_past_close_paren();
        }
        e
    }

    pub fn expression(&mut self) -> Expr {
        let mut e = self.assignment();
        while self.kind() == Tok::Comma {
            if !self.count_op() {
                return Expr {
                    kind: ExprKind::Error,
                    loc: self.loc(),
                };
            }
            let loc = self.bump().loc;
            let r = self.assignment();
            e = Expr {
                kind: ExprKind::Comma(Box::new(e), Box::new(r)),
                loc,
            };
        }
        e
    }

    pub(super) fn assignment(&mut self) -> Expr {
        if !self.enter() {
            return Expr {
                kind: ExprKind::Error,
                loc: self.loc(),
            };
        }
        let lhs = self.conditional();
        let op = match self.kind() {
            Tok::Assign => Some(None),
            Tok::StarAssign => Some(Some(BinOp::Mul)),
            Tok::SlashAssign => Some(Some(BinOp::Div)),
            Tok::PercentAssign => Some(Some(BinOp::Rem)),
            Tok::PlusAssign => Some(Some(BinOp::Add)),
            Tok::MinusAssign => Some(Some(BinOp::Sub)),
            Tok::ShlAssign => Some(Some(BinOp::Shl)),
            Tok::ShrAssign => Some(Some(BinOp::Shr)),
            Tok::AmpAssign => Some(Some(BinOp::BitAnd)),
            Tok::CaretAssign => Some(Some(BinOp::BitXor)),
            Tok::PipeAssign => Some(Some(BinOp::BitOr)),
            _ => None,
        };
        let r = if let Some(op) = op {
            let loc = self.bump().loc;
            let rhs = self.assignment();
            Expr {
                kind: ExprKind::Assign(op, Box::new(lhs), Box::new(rhs)),
                loc,
            }
        } else {
            lhs
        };
        self.leave();
        r
    }

    pub(super) fn conditional(&mut self) -> Expr {
        let c = self.binary(0);
        if self.kind() != Tok::Question {
            return c;
        }
        let loc = self.bump().loc;
        if !self.enter() {
            return Expr {
                kind: ExprKind::Error,
                loc,
            };
        }
        let a = self.expression();
        if !self.eat(Tok::Colon) {
            let l = self.loc();
            self.error(l, "expected ':'");
            self.note(loc, "to match this '?'");
            self.leave();
            return Expr {
                kind: ExprKind::Error,
                loc,
            };
        }
        let b = self.conditional();
        self.leave();
        Expr {
            kind: ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)),
            loc,
        }
    }

    pub(super) fn binop(k: Tok) -> Option<(BinOp, u8)> {
        use BinOp::*;
        Some(match k {
            Tok::PipePipe => (LogOr, 1),
            Tok::AmpAmp => (LogAnd, 2),
            Tok::Pipe => (BitOr, 3),
            Tok::Caret => (BitXor, 4),
            Tok::Amp => (BitAnd, 5),
            Tok::EqEq => (Eq, 6),
            Tok::Ne => (Ne, 6),
            Tok::Lt => (Lt, 7),
            Tok::Gt => (Gt, 7),
            Tok::Le => (Le, 7),
            Tok::Ge => (Ge, 7),
            Tok::Shl => (Shl, 8),
            Tok::Shr => (Shr, 8),
            Tok::Plus => (Add, 9),
            Tok::Minus => (Sub, 9),
            Tok::Star => (Mul, 10),
            Tok::Slash => (Div, 10),
            Tok::Percent => (Rem, 10),
            _ => return None,
        })
    }

    /// Precedence climbing over the binary operators (left associative).
    pub(super) fn binary(&mut self, min: u8) -> Expr {
        let mut lhs = self.cast();
        while let Some((op, p)) = Self::binop(self.kind()) {
            if p < min {
                break;
            }
            if !self.count_op() {
                return Expr {
                    kind: ExprKind::Error,
                    loc: self.loc(),
                };
            }
            let loc = self.bump().loc;
            if !self.enter() {
                return Expr {
                    kind: ExprKind::Error,
                    loc,
                };
            }
            let rhs = self.binary(p + 1);
            self.leave();
            if matches!(rhs.kind, ExprKind::Error) {
                return rhs;
            }
            lhs = Expr {
                kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                loc,
            };
        }
        lhs
    }

    pub(super) fn cast(&mut self) -> Expr {
        if self.kind() == Tok::LParen && self.starts_decl(self.peek_n(1)) {
            let loc = self.bump().loc;
            if !self.enter() {
                return Expr {
                    kind: ExprKind::Error,
                    loc,
                };
            }
            let tn = self.type_name();
            if !self.eat(Tok::RParen) {
                let l = self.loc();
                self.error(l, "expected ')'");
            }
            let r = if self.kind() == Tok::LBrace {
                let init = self.initializer();
                let e = Expr {
                    kind: ExprKind::CompoundLit(Box::new(tn), Box::new(init)),
                    loc,
                };
                self.postfix_ops(e)
            } else if self.kind() == Tok::LParen
                && tn.decl.derived.is_empty()
                // 6.3.6, 6.4.2: (char2)(char)0 converts the cast expression (char)0 to char2;
                // a parenthesized type name is no vector literal's first element.
                && !self.starts_decl(self.peek_n(1))
                && (matches!(tn.spec.base, BaseType::Vector(..))
                    || (matches!(tn.spec.base, BaseType::Typedef(_))
                        && self.is_vector_literal_list()))
            {
                // (float4)(a, b, c): a vector literal (6.3.6).
                let lp = self.bump().loc;
                let mut items = Vec::new();
                loop {
                    items.push(self.assignment());
                    if !self.eat(Tok::Comma) {
                        break;
                    }
                }
                if !self.eat(Tok::RParen) {
                    let l = self.prev_end();
                    self.error(l, "expected ')'");
                    self.note(lp, "to match this '('");
                }
                let e = Expr {
                    kind: ExprKind::VecLit(Box::new(tn), items),
                    loc,
                };
                self.postfix_ops(e)
            } else {
                let e = self.cast();
                Expr {
                    kind: ExprKind::Cast(Box::new(tn), Box::new(e)),
                    loc,
                }
            };
            self.leave();
            return r;
        }
        self.unary()
    }

    /// After `(type)`: whether `( ... )` holds a top-level comma (a vector literal).
    pub(super) fn is_vector_literal_list(&self) -> bool {
        let mut depth = 0;
        let mut i = self.pos;
        while i < self.toks.len() {
            match self.toks[i].kind {
                Tok::LParen | Tok::LBracket | Tok::LBrace => depth += 1,
                Tok::RParen | Tok::RBracket | Tok::RBrace => {
                    depth -= 1;
                    if depth == 0 {
                        return false;
                    }
                }
                Tok::Comma if depth == 1 => return true,
                Tok::Semi | Tok::Eof => return false,
                _ => {}
            }
            i += 1;
        }
        false
    }

    pub(super) fn unary(&mut self) -> Expr {
        let t = self.tok();
        let loc = t.loc;
        let op = match t.kind {
            Tok::Minus => Some(UnOp::Neg),
            Tok::Plus => Some(UnOp::Plus),
            Tok::Bang => Some(UnOp::Not),
            Tok::Tilde => Some(UnOp::BitNot),
            Tok::Star => Some(UnOp::Deref),
            Tok::Amp => Some(UnOp::AddrOf),
            Tok::PlusPlus => Some(UnOp::PreInc),
            Tok::MinusMinus => Some(UnOp::PreDec),
            _ => None,
        };
        if let Some(op) = op {
            self.bump();
            if !self.enter() {
                return Expr {
                    kind: ExprKind::Error,
                    loc,
                };
            }
            let e = if matches!(op, UnOp::PreInc | UnOp::PreDec) {
                self.unary()
            } else {
                self.cast()
            };
            self.leave();
            return Expr {
                kind: ExprKind::Unary(op, Box::new(e)),
                loc,
            };
        }
        match self.kw_of(t) {
            Some(Kw::Sizeof) | Some(Kw::Alignof) | Some(Kw::Alignof2) | Some(Kw::VecStep) => {
                let k = self.kw_of(t).unwrap_or(Kw::Sizeof);
                self.bump();
                if self.kind() == Tok::LParen && self.starts_decl(self.peek_n(1)) {
                    self.bump();
                    let tn = Box::new(self.type_name());
                    self.expect(Tok::RParen, "");
                    let kind = match k {
                        Kw::Sizeof => ExprKind::SizeofType(tn),
                        Kw::VecStep => ExprKind::VecStepType(tn),
                        _ => ExprKind::AlignofType(tn),
                    };
                    return Expr { kind, loc };
                }
                if !self.enter() {
                    return Expr {
                        kind: ExprKind::Error,
                        loc,
                    };
                }
                let e = Box::new(self.unary());
                self.leave();
                let kind = match k {
                    Kw::Sizeof => ExprKind::SizeofExpr(e),
                    Kw::VecStep => ExprKind::VecStepExpr(e),
                    _ => ExprKind::AlignofExpr(e),
                };
                return Expr { kind, loc };
            }
            _ => {}
        }
        let p = self.primary();
        self.postfix_ops(p)
    }

    pub(super) fn postfix_ops(&mut self, mut e: Expr) -> Expr {
        loop {
            let t = self.tok();
            if matches!(
                t.kind,
                Tok::LBracket
                    | Tok::LParen
                    | Tok::Dot
                    | Tok::Arrow
                    | Tok::PlusPlus
                    | Tok::MinusMinus
            ) && !self.count_op()
            {
                return Expr {
                    kind: ExprKind::Error,
                    loc: t.loc,
                };
            }
            match t.kind {
                Tok::LBracket => {
                    self.bump();
                    if !self.enter() {
                        return Expr {
                            kind: ExprKind::Error,
                            loc: t.loc,
                        };
                    }
                    let i = self.expression();
                    self.leave();
                    if !self.eat(Tok::RBracket) {
                        let l = self.prev_end();
                        self.error(l, "expected ']'");
                    }
                    e = Expr {
                        kind: ExprKind::Index(Box::new(e), Box::new(i)),
                        loc: t.loc,
                    };
                }
                Tok::LParen => {
                    self.bump();
                    let mut args = Vec::new();
                    if !self.enter() {
                        return Expr {
                            kind: ExprKind::Error,
                            loc: t.loc,
                        };
                    }
                    if self.kind() != Tok::RParen {
                        loop {
                            args.push(self.assignment());
                            if !self.eat(Tok::Comma) {
                                break;
                            }
                        }
                    }
                    self.leave();
                    if !self.eat(Tok::RParen) {
                        let l = self.loc();
                        self.error(l, "expected ')'");
                        self.note(t.loc, "to match this '('");
                        return Expr {
                            kind: ExprKind::Error,
                            loc: t.loc,
                        };
                    }
                    let loc = e.loc;
                    e = Expr {
                        kind: ExprKind::Call(Box::new(e), args),
                        loc,
                    };
                }
                Tok::Dot | Tok::Arrow => {
                    self.bump();
                    let m = self.tok();
                    // Swizzles like `.s01` lex as identifiers; `.0` is never valid.
                    if m.kind != Tok::Ident {
                        self.error(m.loc, "expected identifier");
                        return Expr {
                            kind: ExprKind::Error,
                            loc: m.loc,
                        };
                    }
                    self.bump();
                    e = Expr {
                        kind: ExprKind::Member(Box::new(e), m.sym, t.kind == Tok::Arrow, m.loc),
                        loc: t.loc,
                    };
                }
                Tok::PlusPlus => {
                    self.bump();
                    e = Expr {
                        kind: ExprKind::Unary(UnOp::PostInc, Box::new(e)),
                        loc: t.loc,
                    };
                }
                Tok::MinusMinus => {
                    self.bump();
                    e = Expr {
                        kind: ExprKind::Unary(UnOp::PostDec, Box::new(e)),
                        loc: t.loc,
                    };
                }
                _ => return e,
            }
        }
    }

    pub(super) fn primary(&mut self) -> Expr {
        let t = self.tok();
        let loc = t.loc;
        match t.kind {
            Tok::Ident if self.kw_of(t) == Some(Kw::GenericSelection) => self.generic_selection(),
            Tok::Ident if self.kw_of(t).is_none() => {
                self.bump();
                Expr {
                    kind: ExprKind::Ident(t.sym),
                    loc,
                }
            }
            Tok::Number => {
                self.bump();
                let text = self.text(t);
                self.number(&text, loc)
            }
            Tok::Char => {
                self.bump();
                let text = self.text(t);
                match crate::pp::expr::char_value(&text) {
                    Some(v) => Expr {
                        kind: ExprKind::Char(v),
                        loc,
                    },
                    None => {
                        self.error(loc, "invalid character constant");
                        Expr {
                            kind: ExprKind::Char(0),
                            loc,
                        }
                    }
                }
            }
            Tok::Str => {
                let mut bytes = Vec::new();
                while self.kind() == Tok::Str {
                    let s = self.bump();
                    let text = self.text(s);
                    match crate::pp::expr::unescape(&text[1..text.len() - 1]) {
                        Some(b) => bytes.extend(b),
                        None => self.error(s.loc, "invalid escape sequence in string literal"),
                    }
                }
                Expr {
                    kind: ExprKind::Str(bytes),
                    loc,
                }
            }
            Tok::Caret => {
                // A block literal (6.14.3).
                self.bump();
                if !self.enter() {
                    return Expr {
                        kind: ExprKind::Error,
                        loc,
                    };
                }
                let params = if self.kind() == Tok::LParen {
                    self.bump();
                    self.params().0
                } else {
                    Vec::new()
                };
                self.push_scope();
                for p in &params {
                    if let Some(n) = p.decl.name {
                        self.declare(n, false);
                    }
                }
                self.in_block_literal += 1;
                let body = self.compound();
                self.in_block_literal -= 1;
                self.pop_scope();
                self.leave();
                Expr {
                    kind: ExprKind::BlockLit(Box::new((params, body))),
                    loc,
                }
            }
            Tok::LParen => {
                self.bump();
                if !self.enter() {
                    return Expr {
                        kind: ExprKind::Error,
                        loc,
                    };
                }
                let e = self.expression();
                self.leave();
                if matches!(e.kind, ExprKind::Error) {
                    // Already reported; skip the rest of the parenthesized expression.
                    self.skip_past_close_paren();
                    return e;
                }
                if !self.eat(Tok::RParen) {
                    let l = self.loc();
                    if !self.fatal {
                        self.error(l, "expected ')'");
                        self.note(loc, "to match this '('");
                    }
                }
                e
            }
            _ => {
                if t.kind == Tok::Unknown {
                    let s = self.text(t);
                    // Unterminated literals were reported by the lexer.
                    if !s.starts_with(['\'', '"']) {
                        self.error(loc, format!("unexpected character '{s}'"));
                    }
                    self.bump();
                } else if t.kind == Tok::Hash || t.kind == Tok::HashHash {
                    self.error(loc, "stray '#' in program");
                    self.bump();
                } else {
                    self.error(loc, "expected expression");
                }
                Expr {
                    kind: ExprKind::Error,
                    loc,
                }
            }
        }
    }

    /// `_Generic ( assignment-expression , generic-assoc-list )` (C11 6.5.1.1), where each
    /// association is `type-name : assignment-expression` or `default : assignment-expression`.
    /// clang accepts it in every OpenCL C version; sema picks the association.
    fn generic_selection(&mut self) -> Expr {
        let loc = self.loc();
        self.bump();
        let error = Expr {
            kind: ExprKind::Error,
            loc,
        };
        if !self.expect(Tok::LParen, "after '_Generic'") || !self.enter() {
            return error;
        }
        let control = self.assignment();
        let mut assocs = Vec::new();
        let mut ok = !has_error(&control);
        if ok && !self.expect(Tok::Comma, "") {
            ok = false;
        }
        while ok {
            let aloc = self.loc();
            let ty = if self.eat_kw(Kw::Default) {
                None
            } else if self.starts_decl(self.tok()) {
                Some(self.type_name())
            } else {
                self.error(aloc, "expected a type name or 'default'");
                ok = false;
                break;
            };
            if !self.expect(Tok::Colon, "after a generic association's type") {
                ok = false;
                break;
            }
            let expr = self.assignment();
            ok = !has_error(&expr);
            assocs.push(GenericAssoc {
                ty,
                expr,
                loc: aloc,
            });
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.leave();
        if !ok {
            self.skip_past_close_paren();
            return error;
        }
        if !self.expect(Tok::RParen, "") {
            self.note(loc, "to match this '_Generic'");
            return error;
        }
        Expr {
            kind: ExprKind::Generic(Box::new(control), assocs),
            loc,
        }
    }

    /// Integer and floating constants with every suffix (6.4.4.1, 6.4.4.2; `h` for half).
    pub(super) fn number(&mut self, text: &str, loc: Loc) -> Expr {
        let n = number::parse_number(text).unwrap_or_else(|e| {
            self.error(loc, e.message);
            e.placeholder
        });
        let kind = match n {
            Number::Int {
                value,
                unsigned,
                long,
                decimal,
            } => ExprKind::Int(value, unsigned, long, decimal),
            Number::Float { value, suffix } => ExprKind::Float(value, suffix),
        };
        Expr { kind, loc }
    }
}
