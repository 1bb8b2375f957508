//! The preprocessor (C99 6.10 as OpenCL C 6.12 restricts it). It pulls tokens from a stack of
//! contexts (files being lexed and macro expansions being read), runs directives, and expands
//! macros with the "disabled while its expansion is being read, painted once seen disabled"
//! rule of 6.10.3.4. Its output is the token stream the parser reads.

pub mod expr;
mod pragma;

use crate::diag::{Diags, Expansion, Loc, SourceMap};
use crate::hash::FxHashMap;
use crate::lex::{self, Interner, LexState, Tok, Token, BOL, NOEXPAND, SPACE};

/// Marks an empty macro argument next to `##` (C99 6.10.3.3p2).
const PLACEMARKER: u8 = 16;
const MAX_INCLUDE_DEPTH: usize = 200;
const MAX_EXPANSION_DEPTH: usize = 2000;
/// Tokens all macro expansions of one compilation may produce (a "macro bomb" such as
/// `#define A1 A0 A0 ... #define A40 A39 A39` is an error, not an exponential loop).
const MAX_EXPANDED_TOKENS: usize = 1_000_000;
/// Files one compilation may open through #include.
const MAX_INCLUDES: usize = 20_000;

#[derive(Clone, Debug)]
pub struct Macro {
    pub function_like: bool,
    pub params: Vec<u32>,
    pub variadic: bool,
    pub body: Vec<Token>,
    pub loc: Loc,
    pub builtin: Option<BuiltinMacro>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuiltinMacro {
    File,
    Line,
}

#[derive(Clone, Debug)]
struct Cond {
    taken: bool,
    seen_else: bool,
    loc: Loc,
}

enum Ctx {
    File {
        st: LexState,
        conds: Vec<Cond>,
    },
    Tokens {
        toks: Vec<Token>,
        pos: usize,
        macro_sym: Option<u32>,
    },
}

/// What the preprocessor tells the rest of the compiler about pragmas.
#[derive(Clone, Debug, Default)]
pub struct PragmaState {
    /// `#pragma OPENCL EXTENSION name : enable|disable`, in order.
    pub extensions: Vec<(String, bool, Loc)>,
    /// `#pragma OPENCL FP_CONTRACT ON|OFF|DEFAULT` (None for DEFAULT).
    pub fp_contract: Vec<(Option<bool>, Loc)>,
}

pub struct Preprocessor<'a> {
    pub sm: SourceMap,
    pub interner: Interner,
    pub diags: Diags,
    pub macros: FxHashMap<u32, Macro>,
    pub pragmas: PragmaState,
    stack: Vec<Ctx>,
    include_dirs: &'a [String],
    headers: &'a [(String, String)],
    known_extensions: Vec<String>,
    lex_errors: Vec<(u32, &'static str)>,
    sym_defined: u32,
    sym_va_args: u32,
    sym_va_opt: u32,
    sym_pragma_op: u32,
    include_depth: usize,
    /// Tokens produced by macro expansion so far (see [`MAX_EXPANDED_TOKENS`]).
    expanded_tokens: usize,
    includes: usize,
    /// `#pragma unroll` hints: (index of the token they precede, count, pragma location);
    /// count 0 = unroll fully, u32::MAX = do not unroll.
    pub unroll_hints: Vec<(usize, u32, Loc)>,
    /// The input ended inside a comment or a macro call (reported): errors at the end of
    /// the file that follow from it are not worth reporting.
    pub truncated: bool,
    /// Files read from the file system (through -I): only they have neighbours there.
    fs_files: Vec<u32>,
    /// Expanding an #if line: the operand of a `defined` stays unexpanded.
    in_if_expr: bool,
    /// 1 after `defined`, 2 after `defined (`.
    defined_state: u8,
    /// Where the main file ended (the location of every later end-of-file token).
    eof_loc: Loc,
    /// The OpenCL C version.
    pub version: u32,
    /// Files that said `#pragma once`, by path: a later #include of one of them reads nothing.
    once: crate::hash::FxHashSet<String>,
}

impl<'a> Preprocessor<'a> {
    pub fn new(
        interner: Interner,
        include_dirs: &'a [String],
        headers: &'a [(String, String)],
        known_extensions: Vec<String>,
    ) -> Self {
        let mut sm = SourceMap::default();
        sm.add("<scratch space>", String::new());
        let mut interner = interner;
        let sym_defined = interner.intern("defined");
        let sym_va_args = interner.intern("__VA_ARGS__");
        let sym_va_opt = interner.intern("__VA_OPT__");
        let sym_pragma_op = interner.intern("_Pragma");
        let mut pp = Preprocessor {
            sm,
            interner,
            diags: Diags::default(),
            macros: FxHashMap::default(),
            pragmas: PragmaState::default(),
            stack: Vec::new(),
            include_dirs,
            headers,
            known_extensions,
            lex_errors: Vec::new(),
            sym_defined,
            sym_va_args,
            sym_va_opt,
            sym_pragma_op,
            include_depth: 0,
            eof_loc: Loc::default(),
            in_if_expr: false,
            fs_files: Vec::new(),
            defined_state: 0,
            truncated: false,
            unroll_hints: Vec::new(),
            expanded_tokens: 0,
            includes: 0,
            version: 300,
            once: Default::default(),
        };
        for (name, b) in [
            ("__FILE__", BuiltinMacro::File),
            ("__LINE__", BuiltinMacro::Line),
        ] {
            let s = pp.interner.intern(name);
            let m = Macro {
                function_like: false,
                params: vec![],
                variadic: false,
                body: vec![],
                loc: Loc::default(),
                builtin: Some(b),
            };
            pp.macros.insert(s, m);
        }
        pp
    }

    /// Preprocesses `text` (e.g. the predefined-macro buffer) for its directives only.
    pub fn run_directives_only(&mut self, name: &str, text: String) {
        let f = self.sm.add(name, text);
        self.stack.push(Ctx::File {
            st: LexState::new(f),
            conds: Vec::new(),
        });
        let base = self.stack.len() - 1;
        while self.stack.len() > base {
            let t = self.next_token();
            if t.kind == Tok::Eof {
                break;
            }
        }
    }

    /// Preprocesses the main source into the parser's token stream (ending with `Eof`).
    pub fn run(&mut self, name: &str, text: String) -> Vec<Token> {
        let f = self.sm.add(name, text);
        self.stack.push(Ctx::File {
            st: LexState::new(f),
            conds: Vec::new(),
        });
        let mut out = Vec::new();
        let mut pending_unroll = None;
        loop {
            let t = self.next_token();
            if t.kind == Tok::Pragma {
                // `#pragma unroll` applies to the statement that starts at the next token.
                pending_unroll = Some((t.sym, t.loc));
                continue;
            }
            if let Some((count, loc)) = pending_unroll.take() {
                self.unroll_hints.push((out.len(), count, loc));
            }
            if t.kind == Tok::Eof {
                out.push(t);
                break;
            }
            out.push(t);
            if self.diags.error_count() > crate::diag::MAX_ERRORS {
                out.push(Token {
                    kind: Tok::Eof,
                    ..t
                });
                break;
            }
        }
        out
    }

    pub fn text(&self, t: &Token) -> String {
        let f = self.sm.file(t.loc.file);
        let s = t.loc.offset as usize;
        lex::clean(&f.text[s..s + t.len as usize]).into_owned()
    }

    fn lex_file(&mut self, st: &mut LexState) -> Token {
        let text = &self.sm.files[st.file as usize].text;
        let t = lex::next_token(text, st, &mut self.interner, &mut self.lex_errors);
        for (off, msg) in self.lex_errors.drain(..) {
            if msg.starts_with("unterminated") {
                self.truncated = true;
            }
            self.diags.error(
                Loc {
                    file: st.file,
                    offset: off,
                    exp: 0,
                },
                msg,
            );
        }
        t
    }

    /// Reads the rest of the current directive line from the top file context.
    fn line_tokens(&mut self) -> Vec<Token> {
        let mut out = Vec::new();
        let Some(Ctx::File { st, .. }) = self.stack.last() else {
            return out;
        };
        let mut st = *st;
        loop {
            let save = st;
            let t = self.lex_file(&mut st);
            if t.kind == Tok::Eof || t.has(BOL) {
                st = save;
                break;
            }
            out.push(t);
        }
        if let Some(Ctx::File { st: s, .. }) = self.stack.last_mut() {
            *s = st;
        }
        out
    }

    /// The next token from the context stack, with directives run but no macro expansion.
    fn raw_next(&mut self) -> Token {
        loop {
            let Some(top) = self.stack.last_mut() else {
                return Token {
                    kind: Tok::Eof,
                    flags: BOL,
                    len: 0,
                    loc: self.eof_loc,
                    sym: 0,
                };
            };
            match top {
                Ctx::Tokens { toks, pos, .. } => {
                    if *pos < toks.len() {
                        *pos += 1;
                        return toks[*pos - 1];
                    }
                    self.stack.pop();
                }
                Ctx::File { st, .. } => {
                    let mut s = *st;
                    let t = self.lex_file(&mut s);
                    if let Some(Ctx::File { st, .. }) = self.stack.last_mut() {
                        *st = s;
                    }
                    if t.kind == Tok::Hash && t.has(BOL) {
                        self.directive(t);
                        continue;
                    }
                    if t.kind == Tok::Eof {
                        if let Some(Ctx::File { conds, .. }) = self.stack.pop() {
                            for c in conds {
                                self.diags
                                    .error(c.loc, "unterminated conditional directive");
                            }
                        }
                        if self.include_depth > 0 {
                            self.include_depth -= 1;
                        }
                        if self.stack.is_empty() {
                            self.eof_loc = t.loc;
                            return t;
                        }
                        continue;
                    }
                    return t;
                }
            }
        }
    }

    fn is_disabled(&self, sym: u32) -> bool {
        self.stack
            .iter()
            .any(|c| matches!(c, Ctx::Tokens { macro_sym: Some(s), .. } if *s == sym))
    }

    fn push_back(&mut self, t: Token) {
        self.stack.push(Ctx::Tokens {
            toks: vec![t],
            pos: 0,
            macro_sym: None,
        });
    }

    /// The next fully macro-expanded token.
    pub fn next_token(&mut self) -> Token {
        loop {
            let mut t = self.raw_next();
            if self.in_if_expr {
                match (self.defined_state, t.kind) {
                    (_, Tok::Ident) if t.sym == self.sym_defined => {
                        self.defined_state = 1;
                        return t;
                    }
                    (1, Tok::LParen) => {
                        self.defined_state = 2;
                        return t;
                    }
                    (1 | 2, Tok::Ident) => {
                        self.defined_state = 0;
                        return t;
                    }
                    _ => self.defined_state = 0,
                }
            }
            if t.kind != Tok::Ident || t.has(NOEXPAND) {
                return t;
            }
            if t.sym == self.sym_pragma_op {
                if self.pragma_operator(t) {
                    continue;
                }
                return t;
            }
            let Some(m) = self.macros.get(&t.sym) else {
                return t;
            };
            if self.is_disabled(t.sym) {
                t.flags |= NOEXPAND;
                return t;
            }
            if let Some(b) = m.builtin {
                return self.builtin_macro(b, t);
            }
            if self.stack.len() > MAX_EXPANSION_DEPTH {
                self.diags.error(t.loc, "macro expansion nested too deeply");
                return t;
            }
            let m = m.clone();
            if !m.function_like {
                let exp = self.new_expansion(t);
                let body = self.retag(&m.body, exp, t);
                let body = self.paste_all(body, None, &[], &m);
                if !self.charge(body.len(), t) {
                    return Token {
                        kind: Tok::Eof,
                        flags: BOL,
                        len: 0,
                        loc: t.loc,
                        sym: 0,
                    };
                }
                self.stack.push(Ctx::Tokens {
                    toks: body,
                    pos: 0,
                    macro_sym: Some(t.sym),
                });
                continue;
            }
            // Function-like: only an invocation when '(' follows.
            let n = self.raw_next();
            if n.kind != Tok::LParen {
                if n.kind != Tok::Eof {
                    self.push_back(n);
                }
                return t;
            }
            let Some(args) = self.collect_args(t, &m) else {
                continue;
            };
            let exp = self.new_expansion(t);
            let body = self.retag(&m.body, exp, t);
            let body = self.paste_all(body, Some(exp), &args, &m);
            if !self.charge(body.len(), t) {
                return Token {
                    kind: Tok::Eof,
                    flags: BOL,
                    len: 0,
                    loc: t.loc,
                    sym: 0,
                };
            }
            self.stack.push(Ctx::Tokens {
                toks: body,
                pos: 0,
                macro_sym: Some(t.sym),
            });
        }
    }

    /// Counts tokens produced by an expansion; false (after one error, with the rest of the
    /// input dropped) when the compilation has produced too many.
    fn charge(&mut self, n: usize, at: Token) -> bool {
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

    fn new_expansion(&mut self, call: Token) -> u32 {
        let name = self.interner.name(call.sym).to_string();
        self.sm.expansions.push(Expansion {
            name,
            call: call.loc,
        });
        self.sm.expansions.len() as u32
    }

    /// Copies a macro body with locations tagged by the expansion; the first token takes the
    /// spacing of the call.
    fn retag(&self, body: &[Token], exp: u32, call: Token) -> Vec<Token> {
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

    fn builtin_macro(&mut self, b: BuiltinMacro, t: Token) -> Token {
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
    fn make_token(&mut self, text: &str, kind: Tok, like: Token) -> Token {
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

    fn new_expansion_at(&mut self, loc: Loc) -> u32 {
        // An anonymous expansion so that diagnostics on scratch tokens point at the source.
        self.sm.expansions.push(Expansion {
            name: String::new(),
            call: loc,
        });
        self.sm.expansions.len() as u32
    }

    /// Reads the arguments of a function-like macro call after its '('.
    fn collect_args(&mut self, name: Token, m: &Macro) -> Option<Vec<Vec<Token>>> {
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
    fn expand_list(&mut self, toks: Vec<Token>) -> Vec<Token> {
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
    fn paste_all(
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

    fn paste(&mut self, l: Token, r: Token) -> Token {
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

    fn stringize(&self, toks: &[Token]) -> String {
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

    fn directive(&mut self, hash: Token) {
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

    fn rest_of_line_text(&self, rest: &[Token]) -> String {
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

    fn expect_macro_name(&mut self, dir: Token, rest: &[Token]) -> Option<Token> {
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

    fn define(&mut self, dir: Token, rest: &[Token]) {
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

    fn same_definition(&self, a: &Macro, b: &Macro) -> bool {
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
    fn replace_defined(&mut self, rest: &[Token]) -> Option<Vec<Token>> {
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

    fn eval_condition(&mut self, dir: Token, rest: &[Token]) -> bool {
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

    fn push_cond(&mut self, dir: Token, taken: bool) {
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
    fn skip_group(&mut self) {
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

    fn include(&mut self, dir: Token, rest: &[Token]) {
        // `<name>` is read raw from the line; a quoted name is a string token; otherwise the
        // line is macro-expanded first (6.10.2p4).
        let (name, angled) = if rest
            .first()
            .is_some_and(|t| t.kind == Tok::Lt && t.loc.exp == 0 && t.loc.file != 0)
        {
            let f = self.sm.file(rest[0].loc.file);
            let mut st = LexState {
                file: rest[0].loc.file,
                pos: rest[0].loc.offset as usize,
                bol: false,
            };
            match lex::header_name(&f.text, &mut st) {
                Some(n) => (n, true),
                None => {
                    self.diags.error(rest[0].loc, "expected '>'");
                    return;
                }
            }
        } else {
            let toks = self.expand_list(rest.to_vec());
            match toks.first() {
                Some(t) if t.kind == Tok::Str => {
                    let s = self.text(t);
                    (s[1..s.len() - 1].to_string(), false)
                }
                Some(t) if t.kind == Tok::Lt => {
                    let mut s = String::new();
                    for x in &toks[1..] {
                        if x.kind == Tok::Gt {
                            break;
                        }
                        s.push_str(&self.text(x));
                    }
                    (s, true)
                }
                _ => {
                    let end = Loc {
                        offset: dir.loc.offset + dir.len,
                        ..dir.loc
                    };
                    self.diags.error(end, "expected \"FILENAME\" or <FILENAME>");
                    return;
                }
            }
        };
        self.includes += 1;
        if self.includes > MAX_INCLUDES {
            self.diags.error(dir.loc, "too many #include directives");
            return;
        }
        if self.include_depth >= MAX_INCLUDE_DEPTH {
            self.diags.error(dir.loc, "#include nested too deeply");
            return;
        }
        let from_headers =
            |hs: &[(String, String)]| hs.iter().find(|(n, _)| *n == name).map(|(_, t)| t.clone());
        let from_dirs = |dirs: &[String]| {
            dirs.iter().find_map(|d| {
                let p = std::path::Path::new(d).join(&name);
                std::fs::read_to_string(&p)
                    .ok()
                    .map(|t| (p.to_string_lossy().into_owned(), t))
            })
        };
        // C99 6.10.2p3: a quoted name is first looked for beside the including file (for an
        // embedded header "dir/a.h", "b.h" may be "dir/b.h").
        let including = self.stack.iter().rev().find_map(|c| match c {
            Ctx::File { st, .. } => Some(st.file),
            _ => None,
        });
        let beside = including.and_then(|f| {
            let cur = &self.sm.file(f).name;
            let dir = cur.rfind('/').map(|i| &cur[..i])?;
            let candidate = format!("{dir}/{name}");
            if let Some((_, t)) = self.headers.iter().find(|(n, _)| *n == candidate) {
                return Some((candidate, t.clone()));
            }
            std::fs::read_to_string(&candidate)
                .ok()
                .map(|t| (candidate, t))
        });
        let found = if std::path::Path::new(&name).is_absolute() {
            // An absolute path names that file (an embedded header of that name first).
            from_headers(self.headers)
                .map(|t| (name.clone(), t))
                .or_else(|| {
                    std::fs::read_to_string(&name)
                        .ok()
                        .map(|t| (name.clone(), t))
                })
        } else if angled {
            from_dirs(self.include_dirs)
                .or_else(|| from_headers(self.headers).map(|t| (name.clone(), t)))
        } else {
            beside
                .or_else(|| from_headers(self.headers).map(|t| (name.clone(), t)))
                .or_else(|| from_dirs(self.include_dirs))
        };
        let Some((path, text)) = found else {
            let loc = rest.first().map_or(dir.loc, |t| t.loc);
            self.diags.error(loc, format!("'{name}' file not found"));
            return;
        };
        let from_fs =
            std::path::Path::new(&path).exists() && !self.headers.iter().any(|(n, _)| *n == path);
        if self.once.contains(&self.once_key(&path, from_fs)) {
            return;
        }
        let f = self.sm.add(&path, text);
        if from_fs {
            self.fs_files.push(f);
        }
        self.include_depth += 1;
        self.stack.push(Ctx::File {
            st: LexState::new(f),
            conds: Vec::new(),
        });
    }

    fn line_directive(&mut self, hash: Token, rest: &[Token]) {
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

/// The index of the `)` that closes `__VA_OPT__(` at `body[at]`, if it is followed by `(`.
fn va_opt_end(body: &[Token], at: usize) -> Option<usize> {
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
