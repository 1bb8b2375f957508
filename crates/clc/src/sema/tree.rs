//! The checked tree: what sema hands to lowering. Every expression carries its type; every
//! implicit conversion is an explicit [`ExprKind::Cast`] (or [`ExprKind::Load`] for reading an
//! lvalue); every call names one user function or one builtin overload.

use super::types::{QualType, TypeId};
use crate::builtins::Builtin;
use crate::diag::Loc;
use crate::parse::ast::BinOp;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VarId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FuncId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastKind {
    /// Integer to integer of another size or signedness (enum and bool sources included).
    IntToInt,
    IntToFloat,
    FloatToInt,
    FloatToFloat,
    /// Scalar (or pointer) to bool: compare with zero.
    ToBool,
    /// Scalar already of the element type widened to a vector (6.4.1).
    Splat,
    /// Array lvalue to a pointer to its first element.
    ArrayToPointer,
    /// A null pointer constant to a pointer type.
    NullToPointer,
    /// Pointer to pointer in the same address space (explicit casts, void*).
    PointerCast,
    /// Pointer from a named address space to the generic one (6.7.9).
    ToGeneric,
    /// Generic pointer to a named address space (explicit casts only).
    FromGeneric,
    PointerToInt,
    IntToPointer,
    ToVoid,
    /// Same representation: qualifier changes, enum/int of equal size, vector to itself.
    NoOp,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: TypeId,
    pub loc: Loc,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    BitNot,
    /// `!x`: int 0/1 for scalars (whose operand is a `bool`); for vectors -1/0 in the signed
    /// integer type of the same size (6.5.8).
    LogNot,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Callee {
    User(FuncId),
    /// A builtin of 6.15 and the chosen overload's parameter types.
    Builtin {
        builtin: Builtin,
        params: Vec<TypeId>,
    },
    /// A call through a block reference (6.14.2); the expression is the block value.
    Block(Expr),
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    IntConst(u64),
    FloatConst(f64),
    /// A string literal: an lvalue array of char in the constant address space.
    StrConst(Vec<u8>),
    /// A variable (an lvalue).
    Var(VarId),
    /// Reads the value of an lvalue.
    Load(Box<Expr>),
    Cast(CastKind, Box<Expr>),
    Unary(UnaryOp, Box<Expr>),
    /// Operands already converted to the common type (the result type for arithmetic; for
    /// comparisons and logical operators the result is int or a signed integer vector). The
    /// operands of scalar `&&` and `||` are `bool`s; conditions of `if`, loops and scalar
    /// `?:` are `bool`s too (`Cast(ToBool)` where needed).
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// pointer + integer (element-scaled); the integer is converted to ptrdiff_t.
    PtrAdd(Box<Expr>, Box<Expr>),
    /// pointer - pointer, in elements (ptrdiff_t).
    PtrDiff(Box<Expr>, Box<Expr>),
    /// Pointer comparison; both operands have the same pointer type.
    PtrCompare(BinOp, Box<Expr>, Box<Expr>),
    /// lvalue = value (value converted to the lvalue's type); yields the stored value.
    Assign(Box<Expr>, Box<Expr>),
    /// lvalue op= value: `lhs = (T)((C)lhs op rhs)` with C = `compute` (`rhs` is already
    /// converted to C). For a pointer `lhs`, `op` is Add and `rhs` the signed element offset
    /// (negated for `-=`), as in [`ExprKind::PtrAdd`].
    CompoundAssign {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
        compute: TypeId,
    },
    /// ++/-- on an lvalue; `step` is 1 (or one element for pointers).
    IncDec {
        pre: bool,
        inc: bool,
        target: Box<Expr>,
    },
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Comma(Box<Expr>, Box<Expr>),
    Call(Box<Callee>, Vec<Expr>),
    /// `*p` (an lvalue).
    Deref(Box<Expr>),
    AddrOf(Box<Expr>),
    /// Field `index` of a record lvalue or value.
    Member(Box<Expr>, u32),
    /// Lanes of a vector (an lvalue when the base is one and no lane repeats). `.hi` of a
    /// 3-lane vector names lanes 2 and 3; lane 3 is undefined (6.3.7).
    Swizzle(Box<Expr>, Vec<u8>),
    /// One lane of a vector by a run-time index.
    VecElem(Box<Expr>, Box<Expr>),
    /// A vector literal: each part is a scalar of the element type or a vector of it.
    VecLit(Vec<Expr>),
    /// A compound literal: a temporary object (an lvalue) with its initializer.
    CompoundLit(Box<Init>),
    /// A block literal (6.14.3): its parameters, body, and the variables of enclosing
    /// scopes it captures (by value, read-only).
    Block(Box<BlockExpr>),
    /// Placeholder after an error (never in a program handed to lowering).
    Error,
}

/// A checked block literal.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockExpr {
    pub params: Vec<VarId>,
    pub body: Stmt,
    /// Variables of enclosing functions or blocks read by the body (captured by value).
    pub captures: Vec<VarId>,
}

impl Expr {
    pub fn is_error(&self) -> bool {
        matches!(self.kind, ExprKind::Error)
    }

    /// Whether the expression designates an object (C99 6.3.2.1p1): a variable, a
    /// dereference, a string or compound literal, or a member, element or swizzle of one.
    pub fn is_lvalue(&self) -> bool {
        match &self.kind {
            ExprKind::Var(_)
            | ExprKind::Deref(_)
            | ExprKind::StrConst(_)
            | ExprKind::CompoundLit(_) => true,
            ExprKind::Member(b, _) | ExprKind::Swizzle(b, _) | ExprKind::VecElem(b, _) => {
                b.is_lvalue()
            }
            _ => false,
        }
    }
}

/// An initializer with designators resolved: lists are positional; `None` entries, and
/// everything after the last entry, are zero.
#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    Expr(Expr),
    List(TypeId, Vec<Option<Init>>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub loc: Loc,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct LoopHints {
    /// `#pragma unroll` / `opencl_unroll_hint`: Some(0) fully, Some(u32::MAX) never.
    pub unroll: Option<u32>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    Expr(Expr),
    Decl(VarId, Option<Init>),
    Block(Vec<Stmt>),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    While(Expr, Box<Stmt>, LoopHints),
    DoWhile(Box<Stmt>, Expr, LoopHints),
    For(
        Option<Box<Stmt>>,
        Option<Expr>,
        Option<Expr>,
        Box<Stmt>,
        LoopHints,
    ),
    /// The controlling expression (promoted integer) and the body.
    Switch(Expr, Box<Stmt>),
    Case(i128, Box<Stmt>),
    Default(Box<Stmt>),
    Label(String, Box<Stmt>),
    Goto(String),
    Break,
    Continue,
    Return(Option<Expr>),
    Empty,
    /// `#pragma OPENCL FP_CONTRACT`: whether floating-point expressions may be contracted
    /// (`a * b + c` as one fused multiply-add) from here to the end of the enclosing block.
    FpContract(bool),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarKind {
    Local,
    /// `static` inside a function, or any program-scope variable.
    Global,
    Param,
    Extern,
}

#[derive(Clone, Debug)]
pub struct Var {
    pub name: String,
    pub ty: QualType,
    pub kind: VarKind,
    pub loc: Loc,
    pub align: Option<u64>,
}

/// The statements of an `if` and the `else if` arms chained to it, in order (each arm's
/// statement, then the final `else`), walked with a loop.
pub fn else_if_chain(s: &Stmt) -> impl Iterator<Item = &Stmt> {
    let mut at = Some(s);
    let mut pending_else = None;
    std::iter::from_fn(move || {
        if let Some(e) = pending_else.take() {
            return Some(e);
        }
        let s = at.take()?;
        match &s.kind {
            StmtKind::If(_, t, e) => {
                match e.as_deref() {
                    Some(
                        e @ Stmt {
                            kind: StmtKind::If(..),
                            ..
                        },
                    ) => at = Some(e),
                    Some(e) => pending_else = Some(e),
                    None => {}
                }
                Some(&**t)
            }
            _ => Some(s),
        }
    })
}

/// A chain of binary operators (`a + b + c + ...`: a left-deep tree as deep as it is long)
/// taken apart without recursing: the leftmost operand, and each operator `take` accepts with
/// its right operand and result type, the outermost first (so that popping gives them in
/// evaluation order).
pub fn binary_spine(
    e: &Expr,
    take: impl Fn(BinOp) -> bool,
) -> (&Expr, Vec<(BinOp, &Expr, TypeId)>) {
    let mut spine = Vec::new();
    let mut left = e;
    while let ExprKind::Binary(op, a, b) = &left.kind {
        if !take(*op) {
            break;
        }
        spine.push((*op, &**b, left.ty));
        left = a;
    }
    (left, spine)
}
