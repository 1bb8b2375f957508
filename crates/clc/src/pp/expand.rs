//! Macro expansion (C99 6.10.3): collecting a function-like macro's arguments, substituting
//! them with `#` and `##` (and `__VA_ARGS__`/`__VA_OPT__`), rescanning, and the builtin
//! macros (`__LINE__`, `__FILE__`). Expansion is charged against a token budget so that no input
//! can make it run away.

use super::*;

/// The index of the `)` that closes `__VA_OPT__(` at `body[at]`, if it is followed by `(`.
pub(super) fn va_opt_end(body: &[Token], at: usize) -> Option<usize> {
    if body.get(at + 1)?.kind != Tok::LParen {
        return None;
    }
    let mut depth = 0u32;
    for (k, t) in body.iter().enumerate().skip(at + 1) {
        match t.kind {
            Tok::LParen => depth += 1,
            Tok::RParen if depth == 1 => return Some(k),
            Tok::RParen => depth -= 1,
            _ => {}
        }
    }
    None
}

impl<'a> Preprocessor<'a> {
    /// Counts tokens produced by an expansion; false (after one error, with the rest of the
    /// input dropped) when the compilation has produced too many.
    pub(super) fn charge(&mut self, n: usize, at: Token) -> bool {
        self.expanded_tokens += n;
        if self.expanded_tokens <= MAX_EXPANDED_TOKENS {
            return true;
        }
        if !self.truncated {
            self.diags
                .error(at.loc, "macro expansion produces too many tokens");
        }
        self.truncated = true;
        self.stack.clear();
        false
    }

    pub(super) fn new_expansion(&mut self, call: Token) -> u32 {
        let name = self.interner.name(call.sym).to_string();
        self.sm.expansions.push(Expansion {
            name,
            call: call.loc,
        });
        self.sm.expansions.len() as u32
    }

    /// Copies a macro body with locations tagged by the expansion; the first token takes the
    /// spacing of the call.
    pub(super) fn retag(&self, body: &[Token], exp: u32, call: Token) -> Vec<Token> {
        body.iter()
            .enumerate()
            .map(|(i, b)| {
                let mut t = *b;
                t.loc.exp = exp;
                t.flags &= !BOL;
                if i == 0 {
                    t.flags = (t.flags & !SPACE) | (call.flags & SPACE);
                }
                t
            })
            .collect()
    }

    pub(super) fn builtin_macro(&mut self, b: BuiltinMacro, t: Token) -> Token {
        let user = self.sm.spelling_to_user(t.loc);
        let f = self.sm.file(user.file);
        let (name, line) = f.presumed(user.offset);
        let text = match b {
            BuiltinMacro::File => {
                format!("\"{}\"", name.replace('\\', "\\\\").replace('"', "\\\""))
            }
            BuiltinMacro::Line => line.to_string(),
        };
        let kind = if b == BuiltinMacro::File {
            Tok::Str
        } else {
            Tok::Number
        };
        self.make_token(&text, kind, t)
    }

    /// A new token spelled in the scratch file, located (for diagnostics) where `like` is.
    pub(super) fn make_token(&mut self, text: &str, kind: Tok, like: Token) -> Token {
        let off = self.sm.scratch(text);
        let exp = self.new_expansion_at(like.loc);
        let sym = if kind == Tok::Ident {
            self.interner.intern(text)
        } else {
            0
        };
        Token {
            kind,
            flags: like.flags & (SPACE | BOL),
            len: text.len() as u32,
            loc: Loc {
                file: 0,
                offset: off,
                exp,
            },
            sym,
        }
    }

    pub(super) fn new_expansion_at(&mut self, loc: Loc) -> u32 {
        // An anonymous expansion so that diagnostics on scratch tokens point at the source.
        self.sm.expansions.push(Expansion {
            name: String::new(),
            call: loc,
        });
        self.sm.expansions.len() as u32
    }

    /// Reads the arguments of a function-like macro call after its '('.
    pub(super) fn collect_args(&mut self, name: Token, m: &Macro) -> Option<Vec<Vec<Token>>> {
        let mut args: Vec<Vec<Token>> = vec![Vec::new()];
        let mut depth = 0u32;
        loop {
            let t = self.raw_next();
            match t.kind {
                Tok::Eof => {
                    self.diags
                        .error(name.loc, "unterminated function-like macro invocation");
                    self.truncated = true;
                    return None;
                }
                Tok::LParen => depth += 1,
                Tok::RParen if depth == 0 => break,
                Tok::RParen => depth -= 1,
                Tok::Comma if depth == 0 && !(m.variadic && args.len() == m.params.len()) => {
                    args.push(Vec::new());
                    continue;
                }
                _ => {}
            }
            if let Some(a) = args.last_mut() {
                a.push(t);
            }
        }
        let nparams = m.params.len();
        if nparams == 0 && args.len() == 1 && args[0].is_empty() {
            args.clear();
        }
        if m.variadic && args.len() == nparams - 1 {
            args.push(Vec::new());
        }
        if args.len() != nparams {
            let name_s = self.interner.name(name.sym).to_string();
            let msg = if args.len() > nparams {
                format!("too many arguments provided to function-like macro invocation '{name_s}'")
            } else {
                format!("too few arguments provided to function-like macro invocation '{name_s}'")
            };
            self.diags.error(name.loc, msg);
            self.diags.note(m.loc, "macro defined here");
            return None;
        }
        Some(args)
    }

    /// Fully expands a token list on its own (an argument before substitution, 6.10.3.1).
    pub(super) fn expand_list(&mut self, toks: Vec<Token>) -> Vec<Token> {
        let saved = std::mem::take(&mut self.stack);
        // Macros being expanded around us stay disabled.
        let disabled: Vec<u32> = saved
            .iter()
            .filter_map(|c| {
                if let Ctx::Tokens {
                    macro_sym: Some(s), ..
                } = c
                {
                    Some(*s)
                } else {
                    None
                }
            })
            .collect();
        for s in disabled {
            self.stack.push(Ctx::Tokens {
                toks: vec![],
                pos: 0,
                macro_sym: Some(s),
            });
        }
        let base = self.stack.len();
        self.stack.push(Ctx::Tokens {
            toks,
            pos: 0,
            macro_sym: None,
        });
        let mut out = Vec::new();
        while self.stack.len() > base {
            if self.stack.len() > MAX_EXPANSION_DEPTH * 2 {
                break;
            }
            let t = self.next_token();
            if t.kind == Tok::Eof {
                break;
            }
            out.push(t);
            // `next` may pop below base only when the list is exhausted.
        }
        // Drop a possibly re-pushed lookahead that `next` left (it belongs to the list).
        while self.stack.len() > base {
            if let Some(Ctx::Tokens { toks, pos, .. }) = self.stack.pop() {
                out.extend_from_slice(&toks[pos..]);
            }
        }
        self.stack = saved;
        out
    }

    /// Substitutes parameters and performs `#` and `##` (6.10.3.1–6.10.3.3).
    pub(super) fn paste_all(
        &mut self,
        body: Vec<Token>,
        exp: Option<u32>,
        args: &[Vec<Token>],
        m: &Macro,
    ) -> Vec<Token> {
        let param_index = |t: &Token| -> Option<usize> {
            if t.kind != Tok::Ident || !m.function_like {
                return None;
            }
            m.params.iter().position(|&p| p == t.sym)
        };
        let mut out: Vec<Token> = Vec::with_capacity(body.len());
        let mut i = 0;
        while i < body.len() {
            let t = body[i];
            if m.variadic && t.kind == Tok::Ident && t.sym == self.sym_va_opt {
                if let Some(end) = va_opt_end(&body, i) {
                    // C23 6.10.5.2: `__VA_OPT__(content)` is the content when the variadic
                    // argument has tokens, else nothing.
                    if args.last().is_some_and(|a| !a.is_empty()) {
                        let inner = self.paste_all(body[i + 2..end].to_vec(), exp, args, m);
                        out.extend(inner);
                    }
                    i = end + 1;
                    continue;
                }
            }
            // Stringizing.
            if m.function_like && t.kind == Tok::Hash {
                if let Some(pi) = body.get(i + 1).and_then(param_index) {
                    let s = self.stringize(&args[pi]);
                    let mut nt = self.make_token(&s, Tok::Str, t);
                    nt.loc.exp = exp.unwrap_or(nt.loc.exp);
                    nt.flags = t.flags & SPACE;
                    out.push(nt);
                    i += 2;
                    continue;
                }
            }
            if t.kind == Tok::HashHash && i + 1 < body.len() {
                let rhs_t = body[i + 1];
                let mut rhs: Vec<Token> = match param_index(&rhs_t) {
                    Some(pi) => args[pi].clone(),
                    None => vec![rhs_t],
                };
                i += 2;
                // GNU `, ## __VA_ARGS__`: drop the comma when the variadic argument is empty.
                if m.variadic && m.params.last() == Some(&rhs_t.sym) {
                    if rhs.is_empty() {
                        if out.last().is_some_and(|l| l.kind == Tok::Comma) {
                            out.pop();
                        }
                    } else {
                        out.extend(rhs);
                    }
                    continue;
                }
                let lhs = out.pop();
                match lhs {
                    None => out.append(&mut rhs),
                    Some(l) if l.flags & PLACEMARKER != 0 => {
                        if rhs.is_empty() {
                            out.push(l);
                        } else {
                            out.append(&mut rhs);
                        }
                    }
                    Some(l) => {
                        if rhs.is_empty() {
                            out.push(l);
                        } else {
                            let first = rhs.remove(0);
                            let pasted = self.paste(l, first);
                            out.push(pasted);
                            out.append(&mut rhs);
                        }
                    }
                }
                continue;
            }
            if let Some(pi) = param_index(&t) {
                let next_is_paste = body.get(i + 1).is_some_and(|n| n.kind == Tok::HashHash);
                let arg = if next_is_paste {
                    args[pi].clone()
                } else {
                    self.expand_list(args[pi].clone())
                };
                if arg.is_empty() {
                    if next_is_paste {
                        out.push(Token {
                            kind: Tok::Unknown,
                            flags: PLACEMARKER,
                            len: 0,
                            ..t
                        });
                    }
                } else {
                    let start = out.len();
                    out.extend(arg);
                    out[start].flags = (out[start].flags & !(SPACE | BOL)) | (t.flags & SPACE);
                    for a in &mut out[start..] {
                        a.flags &= !BOL;
                    }
                }
                i += 1;
                continue;
            }
            out.push(t);
            i += 1;
        }
        out.retain(|t| t.flags & PLACEMARKER == 0);
        out
    }

    pub(super) fn paste(&mut self, l: Token, r: Token) -> Token {
        let text = format!("{}{}", self.text(&l), self.text(&r));
        let mut st = LexState::new(0);
        let mut errs = Vec::new();
        let t = lex::next_token(&text, &mut st, &mut self.interner, &mut errs);
        let single = errs.is_empty()
            && t.kind != Tok::Eof
            && st.pos == text.len()
            && t.len as usize == text.len();
        if !single {
            self.diags.error(
                l.loc,
                format!("pasting formed '{text}', an invalid preprocessing token"),
            );
            return l;
        }
        let mut nt = self.make_token(&text, t.kind, l);
        nt.loc.exp = l.loc.exp;
        nt.flags = l.flags & SPACE;
        nt
    }

    pub(super) fn stringize(&self, toks: &[Token]) -> String {
        let mut s = String::from("\"");
        for (i, t) in toks.iter().enumerate() {
            if i > 0 && t.has(SPACE) {
                s.push(' ');
            }
            let text = self.text(t);
            if t.kind == Tok::Str || t.kind == Tok::Char {
                for c in text.chars() {
                    if c == '"' || c == '\\' {
                        s.push('\\');
                    }
                    s.push(c);
                }
            } else {
                s.push_str(&text);
            }
        }
        s.push('"');
        s
    }
}
