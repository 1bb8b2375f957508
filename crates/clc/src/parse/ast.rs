//! The syntax tree the parser builds: declarations, declarators, statements and expressions
//! as written, with locations. Names are interned symbols; nothing here is typed yet (that
//! is sema's job, which turns this tree into the checked tree of `sema::tree`).

use crate::diag::Loc;
use crate::sema::types::{AddrSpace, ImageDim, Scalar};

pub type Sym = u32;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    Typedef,
    Extern,
    Static,
    Auto,
    Register,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Quals {
    pub is_const: bool,
    pub is_volatile: bool,
    pub is_restrict: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Access {
    ReadOnly,
    WriteOnly,
    ReadWrite,
}

impl Access {
    pub fn spelling(self) -> &'static str {
        match self {
            Access::ReadOnly => "read_only",
            Access::WriteOnly => "write_only",
            Access::ReadWrite => "read_write",
        }
    }
}

/// A type named by keywords or a predeclared OpenCL type name.
#[derive(Clone, Debug, PartialEq)]
pub enum BaseType {
    Void,
    Scalar(Scalar),
    Vector(Scalar, u8),
    /// size_t, ptrdiff_t, intptr_t, uintptr_t: sized by the target.
    SizeT,
    PtrdiffT,
    IntptrT,
    UintptrT,
    Image(ImageDim),
    Sampler,
    Event,
    ClkEvent,
    Queue,
    ReserveId,
    NdRange,
    /// atomic_int etc. (OpenCL C 2.0 6.15.12.6); atomic_flag is `Atomic(Scalar::Int)` with
    /// `flag` set in the spelling.
    Atomic(Scalar),
    AtomicFlag,
    MemoryOrder,
    MemoryScope,
    Record(Box<RecordSpec>),
    Enum(Box<EnumSpec>),
    Typedef(Sym),
}

#[derive(Clone, Debug, PartialEq)]
pub struct RecordSpec {
    pub is_union: bool,
    pub name: Option<Sym>,
    pub fields: Option<Vec<FieldGroup>>,
    pub attrs: Vec<Attr>,
    pub loc: Loc,
    /// The `#pragma pack` alignment in effect where the definition starts (None: default).
    pub pack: Option<u32>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FieldGroup {
    pub spec: DeclSpec,
    pub fields: Vec<(Declarator, Option<Expr>)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct EnumSpec {
    pub name: Option<Sym>,
    pub enumerators: Option<Vec<(Sym, Option<Expr>, Loc)>>,
    pub loc: Loc,
}

#[derive(Clone, Debug, PartialEq)]
pub struct DeclSpec {
    pub storage: Option<Storage>,
    pub base: BaseType,
    /// The spelling of the base type (for kernel argument type names).
    pub base_name: String,
    pub quals: Quals,
    pub space: Option<AddrSpace>,
    pub access: Option<Access>,
    pub is_kernel: bool,
    pub is_inline: bool,
    pub is_pipe: bool,
    pub attrs: Vec<Attr>,
    pub loc: Loc,
}

impl DeclSpec {
    /// A specifier of plain `int` at `loc` spelled `base_name`, nothing else said: what a
    /// declaration starts from.
    pub fn int(base_name: &str, loc: Loc) -> DeclSpec {
        DeclSpec {
            storage: None,
            base: BaseType::Scalar(Scalar::Int),
            base_name: base_name.into(),
            quals: Quals::default(),
            space: None,
            access: None,
            is_kernel: false,
            is_inline: false,
            is_pipe: false,
            attrs: Vec::new(),
            loc,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Derived {
    Pointer {
        quals: Quals,
        space: Option<AddrSpace>,
    },
    Array {
        size: Option<Box<Expr>>,
        loc: Loc,
    },
    Function {
        params: Vec<Param>,
        variadic: bool,
        loc: Loc,
    },
    /// `^` in a declarator: a reference to a block (6.14.2).
    Block {
        loc: Loc,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Declarator {
    pub name: Option<Sym>,
    pub loc: Loc,
    /// Outermost first: `int *a[3]` is [Array(3), Pointer].
    pub derived: Vec<Derived>,
    pub attrs: Vec<Attr>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub spec: DeclSpec,
    pub decl: Declarator,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TypeName {
    pub spec: DeclSpec,
    pub decl: Declarator,
}

#[derive(Clone, Debug, PartialEq)]
pub enum AttrArg {
    Expr(Expr),
    Type(TypeName),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Attr {
    pub name: String,
    pub args: Vec<AttrArg>,
    pub loc: Loc,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Initializer {
    Expr(Expr),
    List(Vec<(Vec<Designator>, Initializer)>, Loc),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Designator {
    Field(Sym, Loc),
    Index(Expr),
}

#[derive(Clone, Debug, PartialEq)]
pub struct InitDecl {
    pub decl: Declarator,
    pub init: Option<Initializer>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct DeclGroup {
    pub spec: DeclSpec,
    pub decls: Vec<InitDecl>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum External {
    Decls(DeclGroup),
    StaticAssert(StaticAssert),
    Function {
        spec: DeclSpec,
        decl: Declarator,
        body: Box<Stmt>,
    },
}

/// `_Static_assert(constant-expression, string-literal);` (C11 6.7.10; the message is optional
/// from C23).
#[derive(Clone, Debug, PartialEq)]
pub struct StaticAssert {
    pub cond: Expr,
    pub message: Option<Vec<u8>>,
    pub loc: Loc,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub loc: Loc,
    pub attrs: Vec<Attr>,
    /// From `#pragma unroll`: 0 = fully, u32::MAX = never, n = by n.
    pub unroll: Option<u32>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    Expr(Option<Expr>),
    Decl(DeclGroup),
    /// The statements and the location of the closing brace.
    Compound(Vec<Stmt>, Loc),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    While(Expr, Box<Stmt>),
    DoWhile(Box<Stmt>, Expr),
    For(Option<Box<Stmt>>, Option<Expr>, Option<Expr>, Box<Stmt>),
    Switch(Expr, Box<Stmt>),
    Case(Expr, Box<Stmt>),
    Default(Box<Stmt>),
    Label(Sym, Box<Stmt>),
    Goto(Sym),
    Break,
    Continue,
    Return(Option<Expr>),
    StaticAssert(StaticAssert),
    /// `#pragma OPENCL FP_CONTRACT` between the items of a block: whether floating-point
    /// expressions may be contracted from here to the end of the block. A function body
    /// starts with one when the pragma turned contraction off outside functions.
    FpContract(bool),
    /// A statement that failed to parse (already reported).
    Error,
}

impl Stmt {
    pub fn fp_contract(on: bool, loc: Loc) -> Stmt {
        Stmt {
            kind: StmtKind::FpContract(on),
            loc,
            attrs: vec![],
            unroll: None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Plus,
    Not,
    BitNot,
    Deref,
    AddrOf,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    LogAnd,
    LogOr,
}

impl BinOp {
    pub fn spelling(self) -> &'static str {
        use BinOp::*;
        match self {
            Mul => "*",
            Div => "/",
            Rem => "%",
            Add => "+",
            Sub => "-",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            BitAnd => "&",
            BitXor => "^",
            BitOr => "|",
            LogAnd => "&&",
            LogOr => "||",
        }
    }
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne
        )
    }
}

/// One association of a generic selection; `ty` is `None` for `default`.
#[derive(Clone, Debug, PartialEq)]
pub struct GenericAssoc {
    pub ty: Option<TypeName>,
    pub expr: Expr,
    pub loc: Loc,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub loc: Loc,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Ident(Sym),
    /// Integer literal: value, unsigned suffix, long suffix, text was decimal.
    Int(u64, bool, bool, bool),
    /// Floating literal: value, suffix ('f', 'h' or 0 for double).
    Float(f64, u8),
    Char(i64),
    Str(Vec<u8>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Assign(Option<BinOp>, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Comma(Box<Expr>, Box<Expr>),
    Call(Box<Expr>, Vec<Expr>),
    Index(Box<Expr>, Box<Expr>),
    Member(Box<Expr>, Sym, bool, Loc),
    Cast(Box<TypeName>, Box<Expr>),
    VecLit(Box<TypeName>, Vec<Expr>),
    CompoundLit(Box<TypeName>, Box<Initializer>),
    SizeofExpr(Box<Expr>),
    SizeofType(Box<TypeName>),
    AlignofType(Box<TypeName>),
    AlignofExpr(Box<Expr>),
    VecStepExpr(Box<Expr>),
    VecStepType(Box<TypeName>),
    /// A block literal `^(params) { body }` (6.14.3); no parameter list means `(void)`.
    BlockLit(Box<(Vec<Param>, Stmt)>),
    /// `_Generic(controlling, type-name: expr, ..., default: expr)` (C11 6.5.1.1).
    Generic(Box<Expr>, Vec<GenericAssoc>),
    /// An expression that failed to parse (already reported).
    Error,
}
