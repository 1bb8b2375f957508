//! The preprocessor (C99 6.10 as OpenCL C 6.12 restricts it). It pulls tokens from a stack of
//! contexts (files being lexed and macro expansions being read), runs directives, and expands
//! macros with the "disabled while its expansion is being read, painted once seen disabled"
//! rule of 6.10.3.4. Its output is the token stream the parser reads.

mod directive;
mod expand;
pub mod expr;
mod include;
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
    /// `#pragma OPENCL FP_CONTRACT ON|OFF|DEFAULT`: (index of the token it precedes, whether
    /// contraction is on), in order; DEFAULT is ON (6.15.2.1: "The DEFAULT value is ON").
    pub fp_contract: Vec<(usize, bool)>,
    /// `#pragma pack`: (index of the first token it applies to, the maximum field alignment
    /// from there on; None for the default layout), in order.
    pub pack: Vec<(usize, Option<u32>)>,
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
    /// `#pragma pack`: the alignment in effect, the pushed ones (with their labels), and
    /// whether it changed since the last token went out.
    pack_now: Option<u32>,
    pack_stack: Vec<(Option<String>, Option<u32>)>,
    pack_changed: bool,
    /// `#pragma OPENCL FP_CONTRACT` read since the last token went out.
    fp_contract_pending: Vec<bool>,
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
            pack_now: None,
            pack_stack: Vec::new(),
            pack_changed: false,
            fp_contract_pending: Vec::new(),
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
            if std::mem::take(&mut self.pack_changed) {
                // A `#pragma pack` was read before this token: it applies from here on.
                self.pragmas.pack.push((out.len(), self.pack_now));
            }
            for on in self.fp_contract_pending.drain(..) {
                self.pragmas.fp_contract.push((out.len(), on));
            }
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
}
