//! The parser: hand-written recursive descent over the preprocessed tokens, producing the
//! syntax tree of [`ast`]. It never fails: errors are reported and parsing resumes at `;`,
//! `}` or the next declaration. Nesting depth is capped so that no input can overflow the
//! stack.

pub mod ast;
mod decl;
mod expr;
mod stmt;

use crate::diag::{Diags, Loc, SourceMap};
use crate::hash::FxHashMap;
use crate::lex::{self, Interner, Tok, Token};
use crate::sema::types::{AddrSpace, ImageDim, Scalar};
use ast::*;
use decl::{access_of, space_of};

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
    StaticAssert = "_Static_assert", GenericSelection = "_Generic",
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
/// The most `else if` arms one `if` statement may chain (the chain is walked with loops, so
/// this bounds time, not stack).
pub const MAX_ELSE_IFS: u32 = 4096;

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
    /// `#pragma pack` changes: (index of the first token each applies to, alignment), in order.
    pub pack: Vec<(usize, Option<u32>)>,
    /// `#pragma OPENCL FP_CONTRACT`: (index of the token each precedes, on), in order.
    pub fp_contract: Vec<(usize, bool)>,
    /// The FP_CONTRACT state outside functions (DEFAULT, ON, until a pragma there says
    /// otherwise).
    contract: bool,
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
            pack: Vec::new(),
            fp_contract: Vec::new(),
            contract: true,
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

    /// The state the last `#pragma OPENCL FP_CONTRACT` among the tokens `from..=to` (by the
    /// token each precedes) sets, if there is one.
    fn fp_contract_in(&self, from: usize, to: usize) -> Option<bool> {
        let lo = self.fp_contract.partition_point(|&(i, _)| i < from);
        let hi = self.fp_contract.partition_point(|&(i, _)| i <= to);
        self.fp_contract[lo..hi.max(lo)].last().map(|&(_, on)| on)
    }

    pub fn translation_unit(&mut self) -> Vec<External> {
        let mut out = Vec::new();
        // Where the tokens between external declarations begin (FP_CONTRACT pragmas there
        // set the state outside functions).
        let mut between = 0;
        while self.kind() != Tok::Eof && !self.fatal {
            if let Some(on) = self.fp_contract_in(between, self.pos) {
                self.contract = on;
            }
            between = self.pos;
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
            between = self.pos;
            if self.pos == start {
                // No progress: skip the offending token.
                let t = self.bump();
                let d = self.describe_tok(t);
                self.error(t.loc, format!("expected external declaration, found {d}"));
            }
        }
        out
    }
}
