//! Directives (C99 6.10): `#define`/`#undef` with the redefinition rule, conditional
//! inclusion (`#if`, `#ifdef`, `#elif`, `#else`, `#endif`, with `defined`) and skipped groups,
//! and `#error`, `#warning` and `#line`.

use super::*;

impl<'a> Preprocessor<'a> {
    pub(super) fn directive(&mut self, hash: Token) {
        let line = self.line_tokens();
        let Some(first) = line.first().copied() else {
            return;
        };
        if first.kind != Tok::Ident {
            // `# 33 "file"` (GNU line marker) is treated like #line.
            if first.kind == Tok::Number {
                self.line_directive(hash, &line);
                return;
            }
            self.diags
                .error(first.loc, "invalid preprocessing directive");
            return;
        }
        let name = self.interner.name(first.sym).to_string();
        let rest = &line[1..];
        match name.as_str() {
            "define" => self.define(first, rest),
            "undef" => {
                if let Some(n) = self.expect_macro_name(first, rest) {
                    self.macros.remove(&n.sym);
                    if rest.len() > 1 {
                        self.diags
                            .warning(rest[1].loc, "extra tokens at end of #undef directive");
                    }
                }
            }
            "include" => self.include(first, rest),
            "if" => {
                let v = self.eval_condition(first, rest);
                self.push_cond(first, v);
            }
            "ifdef" | "ifndef" => {
                let v = match self.expect_macro_name(first, rest) {
                    Some(n) => self.macros.contains_key(&n.sym) == (name == "ifdef"),
                    None => false,
                };
                self.push_cond(first, v);
            }
            "elif" | "else" => {
                let Some(Ctx::File { conds, .. }) = self.stack.last_mut() else {
                    return;
                };
                let Some(c) = conds.last_mut() else {
                    self.diags.error(first.loc, format!("#{name} without #if"));
                    return;
                };
                if c.seen_else {
                    self.diags.error(first.loc, format!("#{name} after #else"));
                }
                if name == "else" {
                    c.seen_else = true;
                }
                // We were in a taken group: skip to #endif.
                self.skip_group();
            }
            "endif" => {
                let Some(Ctx::File { conds, .. }) = self.stack.last_mut() else {
                    return;
                };
                if conds.pop().is_none() {
                    self.diags.error(first.loc, "#endif without #if");
                }
            }
            "error" => {
                let msg = self.rest_of_line_text(rest);
                self.diags.error(first.loc, msg);
            }
            "warning" => {
                let msg = self.rest_of_line_text(rest);
                self.diags.warning(first.loc, msg);
            }
            "line" => self.line_directive(hash, rest),
            "pragma" => self.pragma(first, rest),
            _ => self
                .diags
                .error(first.loc, "invalid preprocessing directive"),
        }
    }

    pub(super) fn rest_of_line_text(&self, rest: &[Token]) -> String {
        let Some(first) = rest.first() else {
            return String::new();
        };
        let last = rest[rest.len() - 1];
        if first.loc.file == last.loc.file && last.loc.offset >= first.loc.offset {
            let f = self.sm.file(first.loc.file);
            let s = first.loc.offset as usize;
            let e = (last.loc.offset + last.len) as usize;
            return lex::clean(&f.text[s..e]).into_owned();
        }
        rest.iter()
            .map(|t| self.text(t))
            .collect::<Vec<_>>()
            .join(" ")
    }

    pub(super) fn expect_macro_name(&mut self, dir: Token, rest: &[Token]) -> Option<Token> {
        match rest.first() {
            Some(t) if t.kind == Tok::Ident => {
                if t.sym == self.sym_defined {
                    self.diags
                        .error(t.loc, "'defined' cannot be used as a macro name");
                    return None;
                }
                Some(*t)
            }
            Some(t) => {
                self.diags.error(t.loc, "macro name must be an identifier");
                None
            }
            None => {
                let end = Loc {
                    offset: dir.loc.offset + dir.len,
                    ..dir.loc
                };
                self.diags.error(end, "macro name missing");
                None
            }
        }
    }

    pub(super) fn define(&mut self, dir: Token, rest: &[Token]) {
        let Some(name) = self.expect_macro_name(dir, rest) else {
            return;
        };
        let mut i = 1;
        let mut m = Macro {
            function_like: false,
            params: vec![],
            variadic: false,
            body: vec![],
            loc: name.loc,
            builtin: None,
        };
        if let Some(p) = rest.get(1) {
            if p.kind == Tok::LParen && !p.has(SPACE) {
                m.function_like = true;
                i = 2;
                let mut expect_param = true;
                loop {
                    let Some(t) = rest.get(i).copied() else {
                        self.diags
                            .error(p.loc, "missing ')' in macro parameter list");
                        return;
                    };
                    i += 1;
                    match t.kind {
                        Tok::RParen if !expect_param || m.params.is_empty() => break,
                        Tok::Ident if expect_param => {
                            if m.params.contains(&t.sym) {
                                let n = self.interner.name(t.sym).to_string();
                                self.diags
                                    .error(t.loc, format!("duplicate macro parameter name '{n}'"));
                                return;
                            }
                            m.params.push(t.sym);
                            expect_param = false;
                        }
                        // 6.11.f restricts variadic macros to OpenCL C 3.0, but every
                        // clang-based compiler accepts them in every version and real code
                        // relies on it, so they are accepted throughout.
                        Tok::Ellipsis => {
                            if expect_param {
                                m.params.push(self.sym_va_args);
                            }
                            // else GNU `x...`: the named parameter `x` is the variadic one.
                            m.variadic = true;
                            match rest.get(i) {
                                Some(r) if r.kind == Tok::RParen => {
                                    i += 1;
                                    break;
                                }
                                _ => {
                                    self.diags
                                        .error(t.loc, "missing ')' in macro parameter list");
                                    return;
                                }
                            }
                        }
                        Tok::Comma if !expect_param => expect_param = true,
                        _ => {
                            self.diags
                                .error(t.loc, "invalid token in macro parameter list");
                            return;
                        }
                    }
                }
            } else if !p.has(SPACE) {
                self.diags
                    .warning(p.loc, "whitespace required after macro name");
            }
        }
        m.body = rest[i..].to_vec();
        if let Some(f) = m.body.first_mut() {
            f.flags &= !SPACE;
        }
        // 6.10.3.2: each # in a function-like macro is followed by a parameter.
        if m.function_like {
            for (k, t) in m.body.iter().enumerate() {
                if t.kind == Tok::Hash {
                    let ok = m
                        .body
                        .get(k + 1)
                        .is_some_and(|n| n.kind == Tok::Ident && m.params.contains(&n.sym));
                    if !ok {
                        self.diags
                            .error(t.loc, "'#' is not followed by a macro parameter");
                        return;
                    }
                }
            }
        }
        // 6.10.3.3: ## cannot be at either end.
        if m.body.first().is_some_and(|t| t.kind == Tok::HashHash) {
            self.diags.error(
                m.body[0].loc,
                "'##' cannot appear at start of macro expansion",
            );
            return;
        }
        if m.body.last().is_some_and(|t| t.kind == Tok::HashHash) {
            self.diags.error(
                m.body[m.body.len() - 1].loc,
                "'##' cannot appear at end of macro expansion",
            );
            return;
        }
        if m.variadic {
            // __VA_ARGS__ is the variadic parameter.
        } else if let Some(t) = m
            .body
            .iter()
            .find(|t| t.kind == Tok::Ident && t.sym == self.sym_va_args)
        {
            self.diags.warning(
                t.loc,
                "__VA_ARGS__ can only appear in the expansion of a C99 variadic macro",
            );
        }
        if let Some(old) = self.macros.get(&name.sym) {
            if old.builtin.is_some() {
                self.diags.warning(name.loc, "redefining builtin macro");
            } else if !self.same_definition(old, &m) {
                let n = self.interner.name(name.sym).to_string();
                let old_loc = old.loc;
                self.diags
                    .warning(name.loc, format!("'{n}' macro redefined"));
                self.diags.note(old_loc, "previous definition is here");
            }
        }
        self.macros.insert(name.sym, m);
    }

    pub(super) fn same_definition(&self, a: &Macro, b: &Macro) -> bool {
        a.function_like == b.function_like
            && a.params == b.params
            && a.body.len() == b.body.len()
            && a.body.iter().zip(&b.body).enumerate().all(|(i, (x, y))| {
                x.kind == y.kind
                    && (i == 0 || x.has(SPACE) == y.has(SPACE))
                    && self.text(x) == self.text(y)
            })
    }

    /// Replaces `defined X` and `defined(X)` by 1 or 0 (6.10.1p1); None after an error.
    pub(super) fn replace_defined(&mut self, rest: &[Token]) -> Option<Vec<Token>> {
        let mut toks = Vec::with_capacity(rest.len());
        let mut i = 0;
        while i < rest.len() {
            let t = rest[i];
            if t.kind == Tok::Ident && t.sym == self.sym_defined {
                let (name, next) = match (rest.get(i + 1), rest.get(i + 2), rest.get(i + 3)) {
                    (Some(p), Some(n), Some(c))
                        if p.kind == Tok::LParen
                            && n.kind == Tok::Ident
                            && c.kind == Tok::RParen =>
                    {
                        (Some(*n), i + 4)
                    }
                    (Some(n), _, _) if n.kind == Tok::Ident => (Some(*n), i + 2),
                    _ => (None, i + 1),
                };
                let Some(name) = name else {
                    self.diags.error(t.loc, "macro name must be an identifier");
                    return None;
                };
                let v = if self.macros.contains_key(&name.sym) {
                    "1"
                } else {
                    "0"
                };
                let nt = self.make_token(v, Tok::Number, t);
                toks.push(nt);
                i = next;
                continue;
            }
            toks.push(t);
            i += 1;
        }
        Some(toks)
    }

    pub(super) fn eval_condition(&mut self, dir: Token, rest: &[Token]) -> bool {
        let Some(toks) = self.replace_defined(rest) else {
            return false;
        };
        // `defined` that macro expansion produces is evaluated too (as GCC and clang do):
        // while expanding, the operand of such a `defined` is kept unexpanded.
        self.in_if_expr = true;
        let toks = self.expand_list(toks);
        self.in_if_expr = false;
        self.defined_state = 0;
        let Some(toks) = self.replace_defined(&toks) else {
            return false;
        };
        let texts: Vec<String> = toks.iter().map(|t| self.text(t)).collect();
        let at = Loc {
            offset: dir.loc.offset + dir.len,
            ..dir.loc
        };
        let e = expr::Eval::new(&toks, &texts, &mut self.diags, at);
        e.run().unwrap_or(false)
    }

    pub(super) fn push_cond(&mut self, dir: Token, taken: bool) {
        if let Some(Ctx::File { conds, .. }) = self.stack.last_mut() {
            conds.push(Cond {
                taken,
                seen_else: false,
                loc: dir.loc,
            });
        }
        if !taken {
            self.skip_group();
        }
    }

    /// Skips lines until the group that ends the innermost conditional is taken, or its #endif.
    pub(super) fn skip_group(&mut self) {
        let mut depth = 0u32;
        loop {
            let Some(Ctx::File { st, .. }) = self.stack.last() else {
                return;
            };
            let mut s = *st;
            let text = &self.sm.files[s.file as usize].text;
            let t = lex::next_token(text, &mut s, &mut self.interner, &mut self.lex_errors);
            self.lex_errors.clear();
            if let Some(Ctx::File { st, .. }) = self.stack.last_mut() {
                *st = s;
            }
            if t.kind == Tok::Eof {
                // Reported as unterminated when the file context is popped.
                if let Some(Ctx::File { st, .. }) = self.stack.last_mut() {
                    st.bol = true;
                }
                return;
            }
            if !(t.kind == Tok::Hash && t.has(BOL)) {
                continue;
            }
            let line = self.line_tokens();
            let Some(d) = line.first().copied() else {
                continue;
            };
            if d.kind != Tok::Ident {
                continue;
            }
            let name = self.interner.name(d.sym).to_string();
            match name.as_str() {
                "if" | "ifdef" | "ifndef" => depth += 1,
                "endif" if depth > 0 => depth -= 1,
                "endif" => {
                    if let Some(Ctx::File { conds, .. }) = self.stack.last_mut() {
                        conds.pop();
                    }
                    return;
                }
                "elif" | "else" if depth == 0 => {
                    let Some(Ctx::File { conds, .. }) = self.stack.last_mut() else {
                        return;
                    };
                    let Some(c) = conds.last_mut() else { return };
                    if c.seen_else {
                        self.diags.error(d.loc, format!("#{name} after #else"));
                        continue;
                    }
                    if c.taken {
                        if name == "else" {
                            c.seen_else = true;
                        }
                        continue;
                    }
                    if name == "else" {
                        c.seen_else = true;
                        c.taken = true;
                        return;
                    }
                    let v = self.eval_condition(d, &line[1..]);
                    if v {
                        if let Some(Ctx::File { conds, .. }) = self.stack.last_mut() {
                            if let Some(c) = conds.last_mut() {
                                c.taken = true;
                            }
                        }
                        return;
                    }
                }
                _ => {}
            }
        }
    }

    pub(super) fn line_directive(&mut self, hash: Token, rest: &[Token]) {
        let toks = self.expand_list(rest.to_vec());
        let Some(n) = toks.first().filter(|t| t.kind == Tok::Number) else {
            self.diags.error(
                rest.first().map_or(hash.loc, |t| t.loc),
                "#line directive requires a positive integer argument",
            );
            return;
        };
        let Some((line, _)) = self.text(n).parse::<u32>().ok().map(|v| (v, ())) else {
            self.diags
                .error(n.loc, "#line directive requires a simple digit sequence");
            return;
        };
        let name = toks.get(1).filter(|t| t.kind == Tok::Str).map(|t| {
            let s = self.text(t);
            s[1..s.len() - 1].to_string()
        });
        // The directive applies from the next line.
        let Some(Ctx::File { st, .. }) = self.stack.last() else {
            return;
        };
        let (file, pos) = (st.file, st.pos as u32);
        let f = self.sm.file(file);
        let mut next = pos as usize;
        while next < f.text.len() && f.text.as_bytes()[next] != b'\n' {
            next += 1;
        }
        self.sm
            .add_line_directive(file, (next + 1) as u32, line, name);
    }
}
