//! The parser: hand-written recursive descent over the preprocessed tokens, producing the
//! syntax tree of [`ast`]. It never fails: errors are reported and parsing resumes at `;`,
//! `}` or the next declaration. Nesting depth is capped so that no input can overflow the
//! stack.

pub mod ast;

use crate::diag::{Diags, Loc, SourceMap};
use crate::hash::FxHashMap;
use crate::lex::{self, Interner, Tok, Token};
use crate::sema::types::{AddrSpace, ImageDim, Scalar};
use ast::*;

macro_rules! keywords {
    ($($kw:ident = $s:literal,)*) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Kw { $($kw,)* }
        /// Reserved words; the interner is seeded with them in this order.
        pub const KEYWORDS: &[&str] = &[$($s,)*];
        const KW_LIST: &[Kw] = &[$(Kw::$kw,)*];
    };
}

keywords! {
    Auto = "auto", Break = "break", Case = "case", Char = "char", Const = "const",
    Continue = "continue", Default = "default", Do = "do", Double = "double", Else = "else",
    Enum = "enum", Extern = "extern", Float = "float", For = "for", Goto = "goto", If = "if",
    Inline = "inline", Int = "int", Long = "long", Register = "register", Restrict = "restrict",
    Return = "return", Short = "short", Signed = "signed", Sizeof = "sizeof", Static = "static",
    Struct = "struct", Switch = "switch", Typedef = "typedef", Union = "union",
    Unsigned = "unsigned", Void = "void", Volatile = "volatile", While = "while",
    Bool_ = "_Bool", Complex = "_Complex", Imaginary = "_Imaginary", Bool = "bool", Half = "half",
    Kernel_ = "__kernel", Kernel = "kernel", Global_ = "__global", Global = "global",
    Local_ = "__local", Local = "local", Constant_ = "__constant", Constant = "constant",
    Private_ = "__private", Private = "private", Generic_ = "__generic", Generic = "generic",
    ReadOnly_ = "__read_only", ReadOnly = "read_only", WriteOnly_ = "__write_only",
    WriteOnly = "write_only", ReadWrite_ = "__read_write", ReadWrite = "read_write",
    Attribute = "__attribute__", Attribute2 = "__attribute", VecStep = "vec_step",
    Alignof = "_Alignof", Alignof2 = "__alignof__", Pipe = "pipe", RestrictU = "__restrict",
    ConstU = "__const", InlineU = "__inline", InlineUU = "__inline__", VolatileU = "__volatile__",
    StaticAssert = "_Static_assert",
    // The GNU spellings clang also takes in OpenCL C.
    RestrictUU = "__restrict__", ConstUU = "__const__", VolatileU1 = "__volatile",
    SignedU = "__signed", SignedUU = "__signed__",
}

/// Deeper nesting than this (of brackets, expressions, statements or declarators) is an
/// error, not a stack overflow.
pub const MAX_DEPTH: u32 = 256;

/// Operators one statement or declaration may chain (`a + b + c ...`): bounds the depth of
/// the trees that operator loops build without recursing.
pub const MAX_OPS: u32 = 4096;

pub struct Parser<'a> {
    toks: &'a [Token],
    pos: usize,
    sm: &'a SourceMap,
    pub interner: &'a mut Interner,
    pub diags: &'a mut Diags,
    scopes: Vec<FxHashMap<Sym, bool>>,
    builtin_types: FxHashMap<Sym, Option<BaseType>>,
    depth: u32,
    fatal: bool,
    /// `#pragma unroll` hints by the index of the token they precede.
    pub unroll_hints: FxHashMap<usize, (u32, Loc)>,
    /// A `;` reported missing after a struct body, treated as present.
    virtual_semi: bool,
    /// Operators chained in the current statement (see [`MAX_OPS`]).
    ops: u32,
    /// Set when the preprocessor reported a truncated input: errors at end of file are
    /// follow-ons and stay quiet.
    pub quiet_at_eof: bool,
    last_reported: bool,
    /// The OpenCL C version (keywords that only exist from some version on).
    pub version: u32,
    in_block_literal: u32,
}

fn space_of(k: Kw) -> Option<AddrSpace> {
    Some(match k {
        Kw::Global_ | Kw::Global => AddrSpace::Global,
        Kw::Local_ | Kw::Local => AddrSpace::Local,
        Kw::Constant_ | Kw::Constant => AddrSpace::Constant,
        Kw::Private_ | Kw::Private => AddrSpace::Private,
        Kw::Generic_ | Kw::Generic => AddrSpace::Generic,
        _ => return None,
    })
}

fn access_of(k: Kw) -> Option<Access> {
    Some(match k {
        Kw::ReadOnly_ | Kw::ReadOnly => Access::ReadOnly,
        Kw::WriteOnly_ | Kw::WriteOnly => Access::WriteOnly,
        Kw::ReadWrite_ | Kw::ReadWrite => Access::ReadWrite,
        _ => return None,
    })
}

/// Predeclared OpenCL type names (6.3.1–6.3.3, 6.15.12.6).
pub fn builtin_type_name(name: &str) -> Option<BaseType> {
    let scalar = |s: &str| -> Option<Scalar> {
        Some(match s {
            "char" => Scalar::Char,
            "uchar" => Scalar::UChar,
            "short" => Scalar::Short,
            "ushort" => Scalar::UShort,
            "int" => Scalar::Int,
            "uint" => Scalar::UInt,
            "long" => Scalar::Long,
            "ulong" => Scalar::ULong,
            "float" => Scalar::Float,
            "double" => Scalar::Double,
            "half" => Scalar::Half,
            _ => return None,
        })
    };
    Some(match name {
        "uchar" => BaseType::Scalar(Scalar::UChar),
        "ushort" => BaseType::Scalar(Scalar::UShort),
        "uint" => BaseType::Scalar(Scalar::UInt),
        "ulong" => BaseType::Scalar(Scalar::ULong),
        "size_t" => BaseType::SizeT,
        "ptrdiff_t" => BaseType::PtrdiffT,
        "intptr_t" => BaseType::IntptrT,
        "uintptr_t" => BaseType::UintptrT,
        "image1d_t" => BaseType::Image(ImageDim::D1),
        "image1d_array_t" => BaseType::Image(ImageDim::D1Array),
        "image1d_buffer_t" => BaseType::Image(ImageDim::D1Buffer),
        "image2d_t" => BaseType::Image(ImageDim::D2),
        "image2d_array_t" => BaseType::Image(ImageDim::D2Array),
        "image3d_t" => BaseType::Image(ImageDim::D3),
        "image2d_depth_t" => BaseType::Image(ImageDim::D2Depth),
        "image2d_array_depth_t" => BaseType::Image(ImageDim::D2ArrayDepth),
        "sampler_t" => BaseType::Sampler,
        "event_t" => BaseType::Event,
        "clk_event_t" => BaseType::ClkEvent,
        "queue_t" => BaseType::Queue,
        "reserve_id_t" => BaseType::ReserveId,
        "ndrange_t" => BaseType::NdRange,
        "cl_mem_fence_flags" => BaseType::Scalar(Scalar::UInt),
        "memory_order" => BaseType::MemoryOrder,
        "kernel_enqueue_flags_t" | "clk_profiling_info" => BaseType::Scalar(Scalar::Int),
        "memory_scope" => BaseType::MemoryScope,
        "atomic_int" => BaseType::Atomic(Scalar::Int),
        "atomic_uint" => BaseType::Atomic(Scalar::UInt),
        "atomic_long" => BaseType::Atomic(Scalar::Long),
        "atomic_ulong" => BaseType::Atomic(Scalar::ULong),
        "atomic_float" => BaseType::Atomic(Scalar::Float),
        "atomic_double" => BaseType::Atomic(Scalar::Double),
        "atomic_intptr_t" | "atomic_ptrdiff_t" => BaseType::Atomic(Scalar::Long),
        "atomic_uintptr_t" | "atomic_size_t" => BaseType::Atomic(Scalar::ULong),
        "atomic_flag" => BaseType::AtomicFlag,
        _ => {
            let digits = name.trim_start_matches(|c: char| c.is_ascii_alphabetic());
            let base = &name[..name.len() - digits.len()];
            let n: u8 = match digits {
                "2" => 2,
                "3" => 3,
                "4" => 4,
                "8" => 8,
                "16" => 16,
                _ => return None,
            };
            BaseType::Vector(scalar(base)?, n)
        }
    })
}

impl<'a> Parser<'a> {
    pub fn new(
        toks: &'a [Token],
        sm: &'a SourceMap,
        interner: &'a mut Interner,
        diags: &'a mut Diags,
    ) -> Self {
        Parser {
            toks,
            pos: 0,
            sm,
            interner,
            diags,
            scopes: vec![FxHashMap::default()],
            builtin_types: FxHashMap::default(),
            depth: 0,
            fatal: false,
            unroll_hints: FxHashMap::default(),
            virtual_semi: false,
            ops: 0,
            quiet_at_eof: false,
            last_reported: false,
            version: 300,
            in_block_literal: 0,
        }
    }

    // ---- token helpers ----

    fn tok(&self) -> Token {
        self.toks[self.pos.min(self.toks.len() - 1)]
    }
    fn peek_n(&self, n: usize) -> Token {
        self.toks[(self.pos + n).min(self.toks.len() - 1)]
    }
    fn kind(&self) -> Tok {
        self.tok().kind
    }
    fn loc(&self) -> Loc {
        self.tok().loc
    }
    fn bump(&mut self) -> Token {
        let t = self.tok();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }
    fn eat(&mut self, k: Tok) -> bool {
        if k == Tok::Semi && self.virtual_semi {
            self.virtual_semi = false;
            return true;
        }
        if self.kind() == k {
            self.bump();
            true
        } else {
            false
        }
    }
    fn kw_of(&self, t: Token) -> Option<Kw> {
        if t.kind == Tok::Ident && (t.sym as usize) < KW_LIST.len() {
            let k = KW_LIST[t.sym as usize];
            // `pipe` is a keyword from OpenCL C 2.0 on (6.15.18); before, a name.
            if k == Kw::Pipe && self.version < 200 {
                return None;
            }
            Some(k)
        } else {
            None
        }
    }
    fn kw(&self) -> Option<Kw> {
        self.kw_of(self.tok())
    }
    fn eat_kw(&mut self, k: Kw) -> bool {
        if self.kw() == Some(k) {
            self.bump();
            true
        } else {
            false
        }
    }
    fn text(&self, t: Token) -> String {
        let f = self.sm.file(t.loc.file);
        let s = t.loc.offset as usize;
        lex::clean(&f.text[s..s + t.len as usize]).into_owned()
    }
    /// Just after the previous token (where clang reports a missing `;`).
    /// Error recovery: skips to just past the ')' that closes the current parenthesis (nested
    /// pairs included), stopping early at a ';', a brace or the end of input.
    fn skip_past_close_paren(&mut self) {
        let mut depth = 0;
        while !matches!(
            self.kind(),
            Tok::Eof | Tok::Semi | Tok::LBrace | Tok::RBrace
        ) {
            match self.kind() {
                Tok::LParen => depth += 1,
                Tok::RParen if depth == 0 => {
                    self.bump();
                    break;
                }
                Tok::RParen => depth -= 1,
                _ => {}
            }
            self.bump();
        }
    }

    fn prev_end(&self) -> Loc {
        if self.pos == 0 {
            return self.loc();
        }
        let p = self.toks[self.pos - 1];
        if p.loc.exp != 0 {
            return p.loc;
        }
        Loc {
            offset: p.loc.offset + p.len,
            ..p.loc
        }
    }
    /// Attaches a note to the last error, if that error was reported.
    fn note(&mut self, loc: Loc, msg: &str) {
        if self.last_reported {
            self.diags.note(loc, msg);
        }
    }

    fn error(&mut self, loc: Loc, msg: impl Into<String>) {
        self.last_reported = false;
        if !self.fatal {
            // An error at end of file is reported just after the last token.
            let eof = self.toks[self.toks.len() - 1];
            if loc == eof.loc && self.quiet_at_eof {
                return;
            }
            let loc = if loc == eof.loc && self.toks.len() > 1 {
                let p = self.toks[self.toks.len() - 2];
                if p.loc.exp != 0 {
                    p.loc
                } else {
                    Loc {
                        offset: p.loc.offset + p.len,
                        ..p.loc
                    }
                }
            } else {
                loc
            };
            self.diags.error(loc, msg);
            self.last_reported = true;
        }
    }
    fn describe_tok(&self, t: Token) -> String {
        match t.kind {
            Tok::Eof => "end of file".into(),
            _ => format!("'{}'", self.text(t)),
        }
    }
    fn expect(&mut self, k: Tok, context: &str) -> bool {
        if self.eat(k) {
            return true;
        }
        let msg = if context.is_empty() {
            format!("expected '{}'", k.spelling())
        } else {
            format!("expected '{}' {}", k.spelling(), context)
        };
        let loc = if k == Tok::Semi && self.pos > 0 {
            self.prev_end()
        } else {
            self.loc()
        };
        self.error(loc, msg);
        false
    }
    fn enter(&mut self) -> bool {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            if !self.fatal {
                let l = self.loc();
                self.diags.error(
                    l,
                    format!("bracket nesting level exceeded maximum of {MAX_DEPTH}"),
                );
                self.fatal = true;
            }
            self.pos = self.toks.len() - 1;
            return false;
        }
        true
    }
    fn leave(&mut self) {
        self.depth -= 1;
    }
    /// Counts one chained operator; false (after an error) when there are too many.
    fn count_op(&mut self) -> bool {
        self.ops += 1;
        if self.ops > MAX_OPS {
            if !self.fatal {
                let l = self.loc();
                self.diags.error(l, "expression is too complex");
                self.fatal = true;
            }
            self.pos = self.toks.len() - 1;
            return false;
        }
        true
    }

    /// Skips to just after the next `;` at this nesting level, or to a `}` that closes it.
    fn recover(&mut self, stop_at_brace: bool) {
        let mut depth = 0i32;
        loop {
            match self.kind() {
                Tok::Eof => return,
                Tok::LParen | Tok::LBracket | Tok::LBrace => depth += 1,
                Tok::RParen | Tok::RBracket => depth -= 1,
                Tok::RBrace => {
                    if depth <= 0 {
                        if !stop_at_brace {
                            self.bump();
                        }
                        return;
                    }
                    depth -= 1;
                    if depth == 0 && !stop_at_brace {
                        self.bump();
                        if self.kind() == Tok::Semi {
                            self.bump();
                        }
                        return;
                    }
                }
                Tok::Semi if depth <= 0 => {
                    self.bump();
                    return;
                }
                _ => {}
            }
            self.bump();
        }
    }

    // ---- scopes ----

    fn push_scope(&mut self) {
        self.scopes.push(FxHashMap::default());
    }
    fn pop_scope(&mut self) {
        self.scopes.pop();
    }
    fn declare(&mut self, sym: Sym, is_typedef: bool) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(sym, is_typedef);
        }
    }
    fn is_typedef_name(&mut self, t: Token) -> bool {
        if t.kind != Tok::Ident || self.kw_of(t).is_some() {
            return false;
        }
        for s in self.scopes.iter().rev() {
            if let Some(&td) = s.get(&t.sym) {
                return td;
            }
        }
        self.builtin_type(t).is_some()
    }
    fn builtin_type(&mut self, t: Token) -> Option<BaseType> {
        if let Some(b) = self.builtin_types.get(&t.sym) {
            return b.clone();
        }
        let b = builtin_type_name(self.interner.name(t.sym));
        self.builtin_types.insert(t.sym, b.clone());
        b
    }
    fn is_user_typedef(&self, t: Token) -> bool {
        for s in self.scopes.iter().rev() {
            if let Some(&td) = s.get(&t.sym) {
                return td;
            }
        }
        false
    }

    /// Whether `t` can begin declaration specifiers.
    fn starts_decl(&mut self, t: Token) -> bool {
        if let Some(k) = self.kw_of(t) {
            use Kw::*;
            return matches!(
                k,
                Auto | Char
                    | Const
                    | Double
                    | Enum
                    | Extern
                    | Float
                    | Inline
                    | Int
                    | Long
                    | Register
                    | Restrict
                    | Short
                    | Signed
                    | Static
                    | Struct
                    | Typedef
                    | Union
                    | Unsigned
                    | Void
                    | Volatile
                    | Bool_
                    | Bool
                    | Half
                    | Kernel_
                    | Kernel
                    | Attribute
                    | Attribute2
                    | Pipe
                    | RestrictU
                    | ConstU
                    | InlineU
                    | InlineUU
                    | VolatileU
                    | RestrictUU
                    | ConstUU
                    | VolatileU1
                    | SignedU
                    | SignedUU
                    | Complex
                    | Imaginary
            ) || space_of(k).is_some()
                || access_of(k).is_some();
        }
        self.is_typedef_name(t)
    }

    // ---- translation unit ----

    pub fn translation_unit(&mut self) -> Vec<External> {
        let mut out = Vec::new();
        while self.kind() != Tok::Eof && !self.fatal {
            if self.eat(Tok::Semi) {
                continue;
            }
            let start = self.pos;
            if self.kw() == Some(Kw::StaticAssert) {
                if let Some(sa) = self.static_assert() {
                    out.push(External::StaticAssert(sa));
                }
                continue;
            }
            if let Some(e) = self.external() {
                out.push(e);
            }
            if self.pos == start {
                // No progress: skip the offending token.
                let t = self.bump();
                let d = self.describe_tok(t);
                self.error(t.loc, format!("expected external declaration, found {d}"));
            }
        }
        out
    }

    /// `_Static_assert ( constant-expression [, string-literal] ) ;` (C11 6.7.10), which
    /// clang-based OpenCL compilers accept in every OpenCL C version.
    fn static_assert(&mut self) -> Option<StaticAssert> {
        let loc = self.bump().loc;
        if !self.expect(Tok::LParen, "") {
            self.recover(false);
            return None;
        }
        let cond = self.conditional();
        let mut message = None;
        if self.eat(Tok::Comma) {
            if self.kind() != Tok::Str {
                let l = self.loc();
                self.error(
                    l,
                    "expected string literal for diagnostic message in static_assert",
                );
                self.recover(false);
                return None;
            }
            match self.primary().kind {
                ExprKind::Str(b) => message = Some(b),
                _ => unreachable!("a string token parses as a string literal"),
            }
        }
        if !self.expect(Tok::RParen, "") {
            self.recover(false);
            return None;
        }
        self.semi("after static_assert");
        Some(StaticAssert { cond, message, loc })
    }

    fn external(&mut self) -> Option<External> {
        self.ops = 0;
        let t = self.tok();
        let mut implicit_int = false;
        if !self.starts_decl(t) {
            if t.kind == Tok::Ident && self.peek_n(1).kind == Tok::Ident {
                let name = self.text(t);
                self.error(t.loc, format!("unknown type name '{name}'"));
                self.bump();
            } else if t.kind == Tok::Ident && self.peek_n(1).kind == Tok::LParen {
                // Old-style implicit int is not OpenCL C; read on as `int`.
                self.error(t.loc, "type specifier missing, defaults to 'int'; ISO C99 and later do not support implicit int");
                implicit_int = true;
            } else if t.kind == Tok::Ident {
                self.error(t.loc, "type specifier missing, defaults to 'int'; ISO C99 and later do not support implicit int");
                self.recover(false);
                return None;
            } else if t.kind == Tok::RBrace {
                self.error(t.loc, "extraneous closing brace ('}')");
                self.bump();
                return None;
            } else {
                let d = self.describe_tok(t);
                self.error(t.loc, format!("expected external declaration, found {d}"));
                self.bump();
                self.recover(false);
                return None;
            }
        }
        let spec = if implicit_int {
            DeclSpec {
                storage: None,
                base: BaseType::Scalar(Scalar::Int),
                base_name: "int".into(),
                quals: Quals::default(),
                space: None,
                access: None,
                is_kernel: false,
                is_inline: false,
                is_pipe: false,
                attrs: Vec::new(),
                loc: t.loc,
            }
        } else {
            self.decl_spec(true)
        };
        if self.eat(Tok::Semi) {
            return Some(External::Decls(DeclGroup {
                spec,
                decls: vec![],
            }));
        }
        let decl = self.declarator(false);
        if matches!(decl.derived.first(), Some(Derived::Function { .. }))
            && self.kind() == Tok::LBrace
        {
            // Function definition.
            let params: Vec<Sym> = match decl.derived.first() {
                Some(Derived::Function { params, .. }) => {
                    params.iter().filter_map(|p| p.decl.name).collect()
                }
                _ => vec![],
            };
            if let Some(n) = decl.name {
                self.declare(n, false);
            }
            self.push_scope();
            for p in params {
                self.declare(p, false);
            }
            let body = self.compound();
            self.pop_scope();
            return Some(External::Function {
                spec,
                decl,
                body: Box::new(body),
            });
        }
        let group = self.rest_of_decl_group(spec, decl);
        Some(External::Decls(group))
    }

    fn rest_of_decl_group(&mut self, spec: DeclSpec, first: Declarator) -> DeclGroup {
        let mut decls = Vec::new();
        let mut decl = first;
        let is_typedef = spec.storage == Some(Storage::Typedef);
        loop {
            let init = if self.eat(Tok::Assign) {
                Some(self.initializer())
            } else {
                None
            };
            if let Some(n) = decl.name {
                self.declare(n, is_typedef);
            }
            decls.push(InitDecl { decl, init });
            if !self.eat(Tok::Comma) {
                break;
            }
            decl = self.declarator(false);
        }
        if !self.eat(Tok::Semi) {
            let l = self.prev_end();
            self.error(l, "expected ';' after top level declarator");
            self.recover(true);
            if self.kind() == Tok::Semi {
                self.bump();
            }
        }
        DeclGroup { spec, decls }
    }

    // ---- declaration specifiers ----

    fn decl_spec(&mut self, allow_storage: bool) -> DeclSpec {
        let loc = self.loc();
        let mut spec = DeclSpec {
            storage: None,
            base: BaseType::Scalar(Scalar::Int),
            base_name: String::new(),
            quals: Quals::default(),
            space: None,
            access: None,
            is_kernel: false,
            is_inline: false,
            is_pipe: false,
            attrs: Vec::new(),
            loc,
        };
        let (mut signed, mut unsigned, mut short, mut long, mut int, mut char_) =
            (0, 0, 0, 0, 0, 0);
        let mut named: Option<(BaseType, String)> = None;
        let mut keyword_base: Option<(Scalar, &'static str)> = None;
        let mut void = false;
        let mut body_defined = false;
        loop {
            let t = self.tok();
            if let Some(k) = self.kw_of(t) {
                use Kw::*;
                if body_defined
                    && matches!(
                        k,
                        Kernel_
                            | Kernel
                            | Typedef
                            | Extern
                            | Static
                            | Void
                            | Char
                            | Int
                            | Float
                            | Double
                            | Half
                            | Bool
                            | Struct
                            | Union
                            | Enum
                            | Signed
                            | Unsigned
                            | Short
                            | Long
                    )
                {
                    let l = self.prev_end();
                    let what = if named.as_ref().is_some_and(|n| n.1.starts_with("enum")) {
                        "enum"
                    } else {
                        "struct"
                    };
                    self.error(l, format!("expected ';' after {what}"));
                    self.virtual_semi = true;
                    break;
                }
                if let Some(sp) = space_of(k) {
                    if spec.space.is_some_and(|s| s != sp) {
                        self.error(t.loc, "multiple address spaces specified for type");
                    }
                    spec.space = Some(sp);
                    self.bump();
                    continue;
                }
                if let Some(a) = access_of(k) {
                    if spec.access.is_some() {
                        self.error(t.loc, "multiple access qualifiers");
                    }
                    spec.access = Some(a);
                    self.bump();
                    continue;
                }
                let storage = match k {
                    Typedef => Some(Storage::Typedef),
                    Extern => Some(Storage::Extern),
                    Static => Some(Storage::Static),
                    Auto => Some(Storage::Auto),
                    Register => Some(Storage::Register),
                    _ => None,
                };
                if let Some(s) = storage {
                    if !allow_storage {
                        self.error(t.loc, "invalid storage class specifier in this declaration");
                    } else if spec.storage.is_some() {
                        self.error(
                            t.loc,
                            "cannot combine with previous storage class specifier",
                        );
                    }
                    spec.storage = Some(s);
                    self.bump();
                    continue;
                }
                match k {
                    Const | ConstU | ConstUU => spec.quals.is_const = true,
                    Volatile | VolatileU | VolatileU1 => spec.quals.is_volatile = true,
                    Restrict | RestrictU | RestrictUU => spec.quals.is_restrict = true,
                    Inline | InlineU | InlineUU => spec.is_inline = true,
                    Kernel_ | Kernel => spec.is_kernel = true,
                    Pipe => spec.is_pipe = true,
                    Attribute | Attribute2 => {
                        let mut a = self.attributes();
                        spec.attrs.append(&mut a);
                        continue;
                    }
                    Signed | SignedU | SignedUU => signed += 1,
                    Unsigned => unsigned += 1,
                    Short => short += 1,
                    Long => long += 1,
                    Int => int += 1,
                    Char => char_ += 1,
                    Void => void = true,
                    Float | Double | Half | Bool | Bool_ => {
                        let b = match k {
                            Float => (Scalar::Float, "float"),
                            Double => (Scalar::Double, "double"),
                            Half => (Scalar::Half, "half"),
                            _ => (Scalar::Bool, "bool"),
                        };
                        if keyword_base.is_some() || named.is_some() {
                            self.error(t.loc, "cannot combine with previous type specifier");
                        }
                        keyword_base = Some(b);
                    }
                    Complex | Imaginary => {
                        self.error(t.loc, "complex types are not supported in OpenCL C");
                    }
                    Struct | Union => {
                        let r = self.record_spec(k == Union);
                        body_defined = r.fields.is_some();
                        let name = r
                            .name
                            .map(|n| self.interner.name(n).to_string())
                            .unwrap_or_else(|| "(anonymous)".into());
                        let kwd = if k == Union { "union" } else { "struct" };
                        named = Some((BaseType::Record(Box::new(r)), format!("{kwd} {name}")));
                        continue;
                    }
                    Enum => {
                        let e = self.enum_spec();
                        body_defined = e.enumerators.is_some();
                        let name = e
                            .name
                            .map(|n| self.interner.name(n).to_string())
                            .unwrap_or_else(|| "(anonymous)".into());
                        named = Some((BaseType::Enum(Box::new(e)), format!("enum {name}")));
                        continue;
                    }
                    _ => break,
                }
                self.bump();
                continue;
            }
            if t.kind == Tok::Ident
                && named.is_none()
                && keyword_base.is_none()
                && !void
                && signed + unsigned + short + long + int + char_ == 0
                && self.is_typedef_name(t)
            {
                // A typedef name, unless it is the declarator's name (`typedef int T; T T;` is
                // out of scope for OpenCL C programs).
                let name = self.text(t);
                let base = if self.is_user_typedef(t) {
                    BaseType::Typedef(t.sym)
                } else {
                    self.builtin_type(t).unwrap_or(BaseType::Typedef(t.sym))
                };
                named = Some((base, name));
                self.bump();
                continue;
            }
            break;
        }
        // Combine the keyword specifiers (C99 6.7.2p2).
        let err_loc = loc;
        if void {
            spec.base = BaseType::Void;
            spec.base_name = "void".into();
        } else if let Some((s, n)) = keyword_base {
            if s == Scalar::Double && long > 0 {
                // 6.3.4: long double is reserved.
                self.error(err_loc, "'long double' is a reserved type in OpenCL C");
            } else if signed + unsigned + short + long + int + char_ > 0 {
                self.error(err_loc, "cannot combine with previous type specifier");
            }
            spec.base = BaseType::Scalar(s);
            spec.base_name = n.into();
        } else if let Some((b, n)) = named {
            spec.base = b;
            spec.base_name = n;
        } else {
            if signed > 0 && unsigned > 0 {
                self.error(err_loc, "'signed' and 'unsigned' cannot be combined");
            }
            let s = if char_ > 0 {
                if unsigned > 0 {
                    Scalar::UChar
                } else {
                    Scalar::Char
                }
            } else if short > 0 {
                if unsigned > 0 {
                    Scalar::UShort
                } else {
                    Scalar::Short
                }
            } else if long > 0 {
                if long > 1 {
                    // 6.1.1: long long is reserved.
                    self.error(err_loc, "'long long' is not supported in OpenCL C");
                }
                if unsigned > 0 {
                    Scalar::ULong
                } else {
                    Scalar::Long
                }
            } else if unsigned > 0 {
                Scalar::UInt
            } else {
                Scalar::Int
            };
            if signed + unsigned + short + long + int + char_ == 0 {
                // Qualifiers, storage classes or attributes but no type (C99 6.7.2p2).
                let t = self.tok();
                if t.kind == Tok::Ident && matches!(self.peek_n(1).kind, Tok::Ident | Tok::Star) {
                    let name = self.text(t);
                    self.error(t.loc, format!("unknown type name '{name}'"));
                    self.bump();
                } else {
                    self.error(t.loc, "type specifier missing, defaults to 'int'; ISO C99 and later do not support implicit int");
                }
            }
            spec.base = BaseType::Scalar(s);
            spec.base_name = s.name().into();
        }
        // Trailing attributes and qualifiers after a typedef name or struct are handled above
        // by the loop; qualifiers may follow the type too (`int const`).
        spec
    }

    fn record_spec(&mut self, is_union: bool) -> RecordSpec {
        let loc = self.loc();
        self.bump();
        let mut attrs = Vec::new();
        while matches!(self.kw(), Some(Kw::Attribute | Kw::Attribute2)) {
            attrs.append(&mut self.attributes());
        }
        let mut name = None;
        if self.kind() == Tok::Ident && self.kw().is_none() {
            name = Some(self.bump().sym);
        }
        let mut fields = None;
        if self.eat(Tok::LBrace) {
            let mut groups = Vec::new();
            if self.enter() {
                while !matches!(self.kind(), Tok::RBrace | Tok::Eof) {
                    let t = self.tok();
                    if !self.starts_decl(t) {
                        if t.kind == Tok::Ident {
                            let n = self.text(t);
                            self.error(t.loc, format!("unknown type name '{n}'"));
                        } else {
                            let d = self.describe_tok(t);
                            self.error(t.loc, format!("expected member declaration, found {d}"));
                        }
                        self.recover(true);
                        continue;
                    }
                    let spec = self.decl_spec(false);
                    let mut fs = Vec::new();
                    if self.kind() != Tok::Semi {
                        loop {
                            let d = if self.kind() == Tok::Colon {
                                Declarator {
                                    name: None,
                                    loc: self.loc(),
                                    derived: vec![],
                                    attrs: vec![],
                                }
                            } else {
                                self.declarator(false)
                            };
                            let width = if self.eat(Tok::Colon) {
                                Some(self.conditional())
                            } else {
                                None
                            };
                            fs.push((d, width));
                            if !self.eat(Tok::Comma) {
                                break;
                            }
                        }
                    }
                    if !self.eat(Tok::Semi) {
                        let l = self.prev_end();
                        self.error(l, "expected ';' at end of declaration list");
                        self.recover_after_missing_semi();
                    }
                    groups.push(FieldGroup { spec, fields: fs });
                }
                self.leave();
            }
            self.expect(Tok::RBrace, "");
            fields = Some(groups);
        } else if name.is_none() {
            let l = self.loc();
            self.error(
                l,
                format!(
                    "declaration of anonymous {} must be a definition",
                    if is_union { "union" } else { "struct" }
                ),
            );
        }
        while matches!(self.kw(), Some(Kw::Attribute | Kw::Attribute2)) {
            attrs.append(&mut self.attributes());
        }
        RecordSpec {
            is_union,
            name,
            fields,
            attrs,
            loc,
        }
    }

    fn enum_spec(&mut self) -> EnumSpec {
        let loc = self.loc();
        self.bump();
        while matches!(self.kw(), Some(Kw::Attribute | Kw::Attribute2)) {
            self.attributes();
        }
        let mut name = None;
        if self.kind() == Tok::Ident && self.kw().is_none() {
            name = Some(self.bump().sym);
        }
        let mut enumerators = None;
        if self.eat(Tok::LBrace) {
            let mut list = Vec::new();
            while self.kind() == Tok::Ident && self.kw().is_none() {
                let t = self.bump();
                let v = if self.eat(Tok::Assign) {
                    Some(self.conditional())
                } else {
                    None
                };
                self.declare(t.sym, false);
                list.push((t.sym, v, t.loc));
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            if list.is_empty() {
                let l = self.loc();
                self.error(l, "use of empty enum");
            }
            if !self.expect(Tok::RBrace, "") {
                self.recover(true);
                self.eat(Tok::RBrace);
            }
            enumerators = Some(list);
        }
        EnumSpec {
            name,
            enumerators,
            loc,
        }
    }

    /// `__attribute__((a, b(args)))`, possibly repeated.
    fn attributes(&mut self) -> Vec<Attr> {
        let mut out = Vec::new();
        while matches!(self.kw(), Some(Kw::Attribute | Kw::Attribute2)) {
            self.bump();
            if !self.expect(Tok::LParen, "after 'attribute'") || !self.expect(Tok::LParen, "") {
                self.recover(true);
                return out;
            }
            loop {
                let t = self.tok();
                if t.kind == Tok::RParen {
                    break;
                }
                if t.kind != Tok::Ident {
                    self.error(t.loc, "expected identifier");
                    break;
                }
                self.bump();
                let mut name = self.text(t);
                if name.len() > 4 && name.starts_with("__") && name.ends_with("__") {
                    name = name[2..name.len() - 2].to_string();
                }
                let mut args = Vec::new();
                if self.eat(Tok::LParen) {
                    while !matches!(self.kind(), Tok::RParen | Tok::Eof) {
                        let t = self.tok();
                        if self.starts_decl(t)
                            && self.kw_of(t).is_none_or(|k| space_of(k).is_none())
                        {
                            args.push(AttrArg::Type(self.type_name()));
                        } else {
                            args.push(AttrArg::Expr(self.assignment()));
                        }
                        if !self.eat(Tok::Comma) {
                            break;
                        }
                    }
                    self.expect(Tok::RParen, "");
                }
                out.push(Attr {
                    name,
                    args,
                    loc: t.loc,
                });
                if !self.eat(Tok::Comma) {
                    break;
                }
            }
            if !self.expect(Tok::RParen, "") || !self.expect(Tok::RParen, "") {
                self.recover(true);
            }
        }
        out
    }

    // ---- declarators ----

    /// A declarator; `abstract_ok` allows a missing name (type names, parameters).
    fn declarator(&mut self, abstract_ok: bool) -> Declarator {
        if !self.enter() {
            return Declarator {
                name: None,
                loc: self.loc(),
                derived: vec![],
                attrs: vec![],
            };
        }
        let mut ptrs = Vec::new();
        let mut attrs = Vec::new();
        loop {
            if self.kind() == Tok::Caret {
                let loc = self.bump().loc;
                ptrs.push(Derived::Block { loc });
                continue;
            }
            if !self.eat(Tok::Star) {
                break;
            }
            let mut quals = Quals::default();
            let mut space = None;
            loop {
                match self.kw() {
                    Some(Kw::Const | Kw::ConstU | Kw::ConstUU) => quals.is_const = true,
                    Some(Kw::Volatile | Kw::VolatileU | Kw::VolatileU1) => quals.is_volatile = true,
                    Some(Kw::Restrict | Kw::RestrictU | Kw::RestrictUU) => quals.is_restrict = true,
                    Some(Kw::Attribute | Kw::Attribute2) => {
                        attrs.append(&mut self.attributes());
                        continue;
                    }
                    Some(k) if space_of(k).is_some() => space = space_of(k),
                    _ => break,
                }
                self.bump();
            }
            ptrs.push(Derived::Pointer { quals, space });
        }
        let mut d = Declarator {
            name: None,
            loc: self.loc(),
            derived: vec![],
            attrs: vec![],
        };
        let t = self.tok();
        if t.kind == Tok::LParen && {
            // A nested declarator, not a parameter list: `(*p)`, `(name)`.
            let n = self.peek_n(1);
            n.kind == Tok::Star
                || n.kind == Tok::Caret
                || n.kind == Tok::LParen
                || (n.kind == Tok::Ident && !self.starts_decl(n) && !abstract_ok)
                || (n.kind == Tok::Ident
                    && abstract_ok
                    && !self.starts_decl(n)
                    && self.kw_of(n).is_none())
        } {
            self.bump();
            d = self.declarator(abstract_ok);
            self.expect(Tok::RParen, "");
        } else if t.kind == Tok::Ident && self.kw_of(t).is_none() {
            self.bump();
            d.name = Some(t.sym);
            d.loc = t.loc;
        } else if !abstract_ok {
            self.error(t.loc, "expected identifier or '('");
        }
        let mut suffixes = Vec::new();
        loop {
            match self.kind() {
                Tok::LBracket => {
                    let loc = self.bump().loc;
                    let size = if self.kind() == Tok::RBracket {
                        None
                    } else {
                        Some(Box::new(self.assignment()))
                    };
                    if !self.expect(Tok::RBracket, "") {
                        self.recover(true);
                    }
                    suffixes.push(Derived::Array { size, loc });
                }
                Tok::LParen => {
                    let loc = self.bump().loc;
                    let (params, variadic) = self.params();
                    suffixes.push(Derived::Function {
                        params,
                        variadic,
                        loc,
                    });
                }
                _ => break,
            }
        }
        while matches!(self.kw(), Some(Kw::Attribute | Kw::Attribute2)) {
            attrs.append(&mut self.attributes());
        }
        d.derived.extend(suffixes);
        d.derived.extend(ptrs.into_iter().rev());
        d.attrs.extend(attrs);
        self.leave();
        d
    }

    fn params(&mut self) -> (Vec<Param>, bool) {
        let mut params = Vec::new();
        let mut variadic = false;
        if self.eat(Tok::RParen) {
            return (params, false);
        }
        // `(void)`
        if self.kw() == Some(Kw::Void) && self.peek_n(1).kind == Tok::RParen {
            self.bump();
            self.bump();
            return (params, false);
        }
        loop {
            if self.eat(Tok::Ellipsis) {
                variadic = true;
                break;
            }
            let t = self.tok();
            if !self.starts_decl(t) {
                if t.kind == Tok::Ident {
                    let n = self.text(t);
                    self.error(t.loc, format!("unknown type name '{n}'"));
                } else {
                    self.error(t.loc, "expected parameter declarator");
                }
                // Skip to ')' .
                let mut depth = 0;
                while !matches!(self.kind(), Tok::Eof | Tok::LBrace | Tok::Semi) {
                    match self.kind() {
                        Tok::LParen => depth += 1,
                        Tok::RParen if depth == 0 => break,
                        Tok::RParen => depth -= 1,
                        _ => {}
                    }
                    self.bump();
                }
                break;
            }
            let spec = self.decl_spec(true);
            let decl = self.declarator(true);
            params.push(Param { spec, decl });
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        if !self.eat(Tok::RParen) {
            let l = self.loc();
            self.error(l, "expected ')'");
        }
        (params, variadic)
    }

    fn type_name(&mut self) -> TypeName {
        let spec = self.decl_spec(false);
        let decl = self.declarator(true);
        if decl.name.is_some() {
            self.error(decl.loc, "type name cannot have a name");
        }
        TypeName { spec, decl }
    }

    fn initializer(&mut self) -> Initializer {
        if self.kind() != Tok::LBrace {
            return Initializer::Expr(self.assignment());
        }
        let loc = self.bump().loc;
        let mut items = Vec::new();
        if !self.enter() {
            return Initializer::List(items, loc);
        }
        while !matches!(self.kind(), Tok::RBrace | Tok::Eof) {
            let mut desig = Vec::new();
            loop {
                if self.eat(Tok::Dot) {
                    let t = self.tok();
                    if t.kind == Tok::Ident {
                        self.bump();
                        desig.push(Designator::Field(t.sym, t.loc));
                    } else {
                        self.error(t.loc, "expected a field designator, such as '.field = 4'");
                    }
                } else if self.eat(Tok::LBracket) {
                    let e = self.conditional();
                    self.expect(Tok::RBracket, "");
                    desig.push(Designator::Index(e));
                } else {
                    break;
                }
            }
            if !desig.is_empty() {
                self.expect(Tok::Assign, "");
            }
            let init = self.initializer();
            items.push((desig, init));
            if !self.eat(Tok::Comma) {
                break;
            }
        }
        self.leave();
        if !self.eat(Tok::RBrace) {
            let l = self.loc();
            self.error(l, "expected '}'");
            self.recover(true);
            self.eat(Tok::RBrace);
        }
        Initializer::List(items, loc)
    }

    // ---- statements ----

    fn compound(&mut self) -> Stmt {
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
            while !matches!(self.kind(), Tok::RBrace | Tok::Eof) && !self.fatal {
                let start = self.pos;
                list.push(self.statement());
                if self.pos == start {
                    self.bump();
                }
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

    fn statement(&mut self) -> Stmt {
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

    fn statement_inner(&mut self) -> Stmt {
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
                Kw::If => {
                    self.bump();
                    let c = self.paren_expr();
                    let then = self.statement();
                    let els = if self.eat_kw(Kw::Else) {
                        Some(Box::new(self.statement()))
                    } else {
                        None
                    };
                    return mk(StmtKind::If(c, Box::new(then), els));
                }
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

    fn label_body(&mut self) -> Stmt {
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

    fn semi(&mut self, context: &str) {
        if !self.eat(Tok::Semi) {
            let l = self.prev_end();
            self.error(l, format!("expected ';' {context}"));
            self.recover_after_missing_semi();
        }
    }

    /// After a missing `;`: when the next token starts a new line (or closes the block), the
    /// `;` was most likely forgotten at the end of the previous line, and parsing goes on
    /// from there; otherwise skip to the end of the statement.
    fn recover_after_missing_semi(&mut self) {
        let t = self.tok();
        if t.has(lex::BOL) || t.kind == Tok::RBrace || t.kind == Tok::Eof {
            return;
        }
        self.recover(true);
        self.eat(Tok::Semi);
    }

    fn local_decl(&mut self) -> Stmt {
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

    fn paren_expr(&mut self) -> Expr {
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

    // ---- expressions ----

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

    fn assignment(&mut self) -> Expr {
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

    fn conditional(&mut self) -> Expr {
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

    fn binop(k: Tok) -> Option<(BinOp, u8)> {
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
    fn binary(&mut self, min: u8) -> Expr {
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

    fn cast(&mut self) -> Expr {
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
    fn is_vector_literal_list(&self) -> bool {
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

    fn unary(&mut self) -> Expr {
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

    fn postfix_ops(&mut self, mut e: Expr) -> Expr {
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

    fn primary(&mut self) -> Expr {
        let t = self.tok();
        let loc = t.loc;
        match t.kind {
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

    /// Integer and floating constants with every suffix (6.4.4.1, 6.4.4.2; `h` for half).
    fn number(&mut self, text: &str, loc: Loc) -> Expr {
        let lower = text.to_ascii_lowercase();
        let is_hex = lower.starts_with("0x");
        let is_float = if is_hex {
            lower.contains('.') || lower.contains('p')
        } else {
            lower.contains('.') || lower.contains('e')
        };
        if !is_float {
            match crate::pp::expr::parse_int(&lower) {
                Some((v, _)) => {
                    let body = lower.trim_end_matches(['u', 'l']);
                    let suffix = &lower[body.len()..];
                    let decimal = !(body.starts_with('0') && body.len() > 1);
                    return Expr {
                        kind: ExprKind::Int(v, suffix.contains('u'), suffix.contains('l'), decimal),
                        loc,
                    };
                }
                None => {
                    let body = lower.trim_end_matches(|c: char| {
                        c.is_ascii_alphabetic() && !(is_hex && c.is_ascii_hexdigit())
                    });
                    let msg = if crate::pp::expr::parse_int(body).is_some() || body.is_empty() {
                        format!(
                            "invalid suffix '{}' on integer constant",
                            &text[body.len().min(text.len())..]
                        )
                    } else if body.len() < 24
                        && body.bytes().all(|b| b.is_ascii_hexdigit() || b == b'x')
                    {
                        "integer literal is too large to be represented in any integer type"
                            .to_string()
                    } else {
                        format!("invalid digit in integer constant '{text}'")
                    };
                    self.error(loc, msg);
                    return Expr {
                        kind: ExprKind::Int(0, false, false, true),
                        loc,
                    };
                }
            }
        }
        let suffixed = lower.ends_with('f') || lower.ends_with('h');
        let (body, suffix) = if suffixed && (!is_hex || lower.contains('p')) {
            (&lower[..lower.len() - 1], lower.as_bytes()[lower.len() - 1])
        } else if lower.ends_with('l') {
            (&lower[..lower.len() - 1], 0)
        } else {
            (lower.as_str(), 0)
        };
        let v = if is_hex {
            parse_hex_float(&body[2..])
        } else {
            body.parse::<f64>().ok()
        };
        match v {
            Some(v) => Expr {
                kind: ExprKind::Float(v, suffix),
                loc,
            },
            None => {
                self.error(loc, format!("invalid floating constant '{text}'"));
                Expr {
                    kind: ExprKind::Float(0.0, 0),
                    loc,
                }
            }
        }
    }
}

/// Whether an expression contains a part that failed to parse (already reported).
fn has_error(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Error => true,
        ExprKind::Unary(_, x)
        | ExprKind::Cast(_, x)
        | ExprKind::SizeofExpr(x)
        | ExprKind::AlignofExpr(x)
        | ExprKind::VecStepExpr(x)
        | ExprKind::Member(x, ..) => has_error(x),
        ExprKind::Binary(_, a, b)
        | ExprKind::Assign(_, a, b)
        | ExprKind::Comma(a, b)
        | ExprKind::Index(a, b) => has_error(a) || has_error(b),
        ExprKind::Cond(a, b, c) => has_error(a) || has_error(b) || has_error(c),
        ExprKind::Call(f, args) => has_error(f) || args.iter().any(has_error),
        ExprKind::VecLit(_, args) => args.iter().any(has_error),
        ExprKind::BlockLit(_) => false,
        _ => false,
    }
}

/// Hexadecimal floating constants (C99 6.4.4.2): `1.8p3` (after `0x`).
fn parse_hex_float(s: &str) -> Option<f64> {
    let (mant, exp) = s.split_once('p')?;
    // Exponents beyond any double's reach saturate (to zero or infinity below).
    let exp: i64 = exp.parse::<i64>().ok().or_else(|| {
        let digits = exp.trim_start_matches(['+', '-']);
        (!digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit())).then(|| {
            if exp.starts_with('-') {
                -100_000
            } else {
                100_000
            }
        })
    })?;
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    // The significand's first 60 bits exactly, the rest only as a sticky bit: the value is
    // (m + something below one unit when sticky) * 2^e.
    let (mut m, mut e, mut sticky) = (0u64, exp.clamp(-100_000, 100_000), false);
    for (i, c) in int.chars().chain(frac.chars()).enumerate() {
        let d = u64::from(c.to_digit(16)?);
        let fractional = i >= int.len();
        if m >> 56 == 0 {
            m = m * 16 + d;
            if fractional {
                e -= 4;
            }
        } else {
            sticky |= d != 0;
            if !fractional {
                e += 4;
            }
        }
    }
    Some(round_to_double(m, e, sticky))
}

/// `(m + sticky part) * 2^e` rounded once to the nearest double, ties to even (6.1.1.1:
/// floating-point literals are rounded as IEEE 754 conversions; denormals included).
fn round_to_double(m: u64, e: i64, sticky: bool) -> f64 {
    if m == 0 {
        return 0.0;
    }
    let bits = i64::from(64 - m.leading_zeros());
    let top = e + bits - 1; // the exponent of the leading bit
    if top > 1023 {
        return f64::INFINITY;
    }
    if top < -1075 {
        return 0.0;
    }
    // Bits the result keeps: 53, fewer among the denormals (2^-1074 is the last one).
    let keep = if top >= -1022 { 53 } else { top + 1075 };
    let drop = bits - keep;
    let (q, scale) = if drop <= 0 {
        (m << -drop, e + drop)
    } else {
        let q = if drop >= 64 { 0 } else { m >> drop };
        let rest = if drop >= 64 {
            m
        } else {
            m & ((1u64 << drop) - 1)
        };
        let half = 1u64 << (drop - 1);
        let up = rest > half || (rest == half && (sticky || q & 1 == 1));
        (q + u64::from(up), e + drop)
    };
    // q has at most 54 bits, so it converts exactly; the scaling by 2^scale is exact (the
    // rounding is done), in steps that stay in range.
    let mut v = q as f64;
    let mut k = scale;
    while k != 0 {
        let step = k.clamp(-1000, 1000);
        v *= 2f64.powi(step as i32);
        k -= step;
    }
    v
}

#[cfg(test)]
mod hex_float_tests {
    use super::parse_hex_float;

    #[test]
    fn hex_floats_round_once() {
        let p = |s: &str| parse_hex_float(s).unwrap();
        assert_eq!(p("1p0"), 1.0);
        assert_eq!(p("1.8p1"), 3.0);
        assert_eq!(p(".8p0"), 0.5);
        assert_eq!(p("10.p-4"), 1.0);
        // The denormals: the smallest, a tie to even below it, just above the tie.
        assert_eq!(p("1p-1074").to_bits(), 1);
        assert_eq!(p("1p-1075").to_bits(), 0);
        assert_eq!(p("1.8p-1075").to_bits(), 1);
        assert_eq!(p("1.8p-1074").to_bits(), 2);
        assert_eq!(p("1p-1022"), f64::MIN_POSITIVE);
        assert_eq!(p("0.fffffffffffffp-1022").to_bits(), 0x000f_ffff_ffff_ffff);
        // Past 53 bits: ties to even, and a sticky digit far down decides.
        assert_eq!(p("1.00000000000008p0"), 1.0);
        assert_eq!(p("1.00000000000018p0"), 1.0 + 2.0 * f64::EPSILON);
        assert_eq!(p("1.000000000000080000000001p0"), 1.0 + f64::EPSILON);
        assert_eq!(p("1.fffffffffffff8p0"), 2.0);
        assert_eq!(p("1.fffffffffffffp1023"), f64::MAX);
        assert_eq!(p("1p1024"), f64::INFINITY);
        assert_eq!(p("1p-99999999999"), 0.0);
        assert_eq!(p("1p99999999999"), f64::INFINITY);
        assert_eq!(p("0p5"), 0.0);
        assert_eq!(
            p("123456789abcdef0123p0"),
            0x0123_4567_89ab_cdef_0123_u128 as f64
        );
        assert_eq!(parse_hex_float("p3"), None);
    }
}
