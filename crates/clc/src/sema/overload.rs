//! Overload resolution as clang-based OpenCL compilers apply it to their builtins and to
//! user functions declared `__attribute__((overloadable))` (both are clang "overloadable"
//! C functions, ranked by the C++ rules of [over.match.best] and [over.ics.rank]):
//!
//! - each argument's implicit conversion is ranked: exact match (identity, lvalue and array
//!   conversions, qualification and address-space-to-generic adjustments) is better than
//!   promotion (an integer of lower rank than `int` to `int`, `float` to `double`, `half` to
//!   `float`), which is better than conversion (every other arithmetic conversion), which is
//!   better than OpenCL scalar widening (the scalar-to-vector splat of 6.4.1, whatever the
//!   scalar's type: clang's `ICR_OCL_Scalar_Widening`, so `fmax(float4, 0.0)` picks
//!   `fmax(float4, float)`); two exact matches of pointers are told apart by the qualifiers
//!   they add;
//! - a viable candidate is better than another when none of its conversions is worse and at
//!   least one is better ([over.match.best]p2);
//! - the call resolves to the candidate better than every other viable one, and is ambiguous
//!   when there is none.
//!
//! So `mad24(uchar, uchar, int)` picks `mad24(int, int, int)` (two promotions and an exact
//! match beat three conversions), while `min((short)1, 2)` and `clamp(uchar, 0, 255)` are
//! ambiguous, as in clang.

use super::*;
use crate::builtins::{PElem, Pt};

/// The rank of one argument's implicit conversion ([over.ics.scs] table 19).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Rank {
    Exact,
    Promotion,
    Conversion,
    ScalarWidening,
}

/// One argument's conversion: its rank, and for pointers the qualifiers and address-space
/// adjustments it adds (fewer is better between two exact matches, [over.ics.rank]p3.2.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Ics {
    rank: Rank,
    adjust: u8,
}

impl Ics {
    const EXACT: Ics = Ics::of(Rank::Exact);
    const fn of(rank: Rank) -> Ics {
        Ics { rank, adjust: 0 }
    }
    fn cmp_better(self, other: Ics) -> std::cmp::Ordering {
        self.rank
            .cmp(&other.rank)
            .then(self.adjust.cmp(&other.adjust))
    }
}

/// The rank of converting arithmetic `from` to `to` (C++ [conv.prom], [conv.fpprom]).
fn scalar_rank(from: Scalar, to: Scalar) -> Rank {
    if from == to {
        return Rank::Exact;
    }
    let promotion = match to {
        Scalar::Int => from.is_integer() && from.rank() < Scalar::Int.rank(),
        Scalar::Double => from == Scalar::Float,
        Scalar::Float => from == Scalar::Half,
        _ => false,
    };
    if promotion {
        Rank::Promotion
    } else {
        Rank::Conversion
    }
}

/// Whether candidate `a` is better than `b` ([over.match.best]p2): no conversion worse, one
/// better.
fn better(a: &[Ics], b: &[Ics]) -> bool {
    let mut some_better = false;
    for (x, y) in a.iter().zip(b) {
        match x.cmp_better(*y) {
            std::cmp::Ordering::Greater => return false,
            std::cmp::Ordering::Less => some_better = true,
            std::cmp::Ordering::Equal => {}
        }
    }
    some_better
}

/// The best viable candidate: `Ok(index into viable)`, `Err(true)` when no candidate is
/// better than all others (ambiguous), `Err(false)` when none is viable.
pub(super) fn best_candidate(viable: &[Vec<Ics>]) -> Result<usize, bool> {
    let mut best = 0;
    if viable.is_empty() {
        return Err(false);
    }
    for i in 1..viable.len() {
        if better(&viable[i], &viable[best]) {
            best = i;
        }
    }
    let wins = (0..viable.len()).all(|i| i == best || better(&viable[best], &viable[i]));
    if wins {
        Ok(best)
    } else {
        Err(true)
    }
}

impl Sema<'_> {
    /// The conversion of argument `a` to a builtin's parameter `p`; None if impossible.
    pub(super) fn builtin_arg_ics(&mut self, a: &Expr, p: Pt) -> Option<Ics> {
        let at = a.ty;
        match (self.types.get(at).clone(), p) {
            (Type::Scalar(s), Pt::MemOrder | Pt::MemScope) => s.is_integer().then_some(Ics::EXACT),
            (Type::Enum(_), Pt::MemOrder | Pt::MemScope) => Some(Ics::EXACT),
            (Type::Scalar(s), Pt::Val(ps, 1)) => Some(Ics::of(scalar_rank(s, ps))),
            (Type::Enum(_), Pt::Val(ps, 1)) => Some(Ics::of(if ps == Scalar::Int {
                Rank::Promotion
            } else {
                Rank::Conversion
            })),
            (Type::Scalar(s), Pt::SizeT) => {
                let st = self.types.size_t();
                let Type::Scalar(ss) = *self.types.get(st) else {
                    return None;
                };
                Some(Ics::of(scalar_rank(s, ss)))
            }
            (Type::Enum(_), Pt::SizeT) => Some(Ics::of(Rank::Conversion)),
            // 6.4.1: no implicit conversion between vector types.
            (Type::Vector(s, n), Pt::Val(ps, pn)) => (s == ps && n == pn).then_some(Ics::EXACT),
            // 6.4.1: a scalar converts to a vector (a splat), ranked below every conversion.
            (Type::Scalar(_) | Type::Enum(_), Pt::Val(..)) => Some(Ics::of(Rank::ScalarWidening)),
            // Clang's zero-to-event conversion ranks as an exact match.
            (Type::Scalar(s), Pt::Event) if s.is_integer() && self.is_null_constant(a) => {
                Some(Ics::EXACT)
            }
            (
                Type::Pointer(q),
                Pt::Ptr {
                    elem,
                    space,
                    is_const,
                    is_volatile,
                },
            ) => {
                let same = match (self.types.get(q.ty), elem) {
                    (Type::Scalar(s), PElem::Val(ps, 1)) => *s == ps,
                    (Type::Vector(s, n), PElem::Val(ps, pn)) => *s == ps && *n == pn,
                    (Type::Atomic(s), PElem::Atomic(ps)) => *s == ps,
                    (Type::AtomicFlag, PElem::AtomicFlag)
                    | (Type::Event, PElem::Event)
                    | (Type::ClkEvent, PElem::ClkEvent)
                    | (Type::Void, PElem::Void) => true,
                    _ => false,
                };
                let to = QualType {
                    ty: q.ty,
                    is_const,
                    is_volatile,
                    is_restrict: q.is_restrict,
                    space,
                };
                if !same {
                    return None;
                }
                pointer_ics(q, to)
            }
            (Type::Image(d, acc), Pt::Image(pd, u)) => {
                (d == pd && u.accepts(acc)).then_some(Ics::EXACT)
            }
            (Type::Sampler, Pt::Sampler)
            | (Type::Event, Pt::Event)
            | (Type::ClkEvent, Pt::ClkEvent)
            | (Type::Queue, Pt::Queue)
            | (Type::NdRange, Pt::NdRange)
            | (Type::ReserveId, Pt::ReserveId) => Some(Ics::EXACT),
            _ => None,
        }
    }

    /// The conversion of argument `a` to a user function's parameter type `p`; None if not
    /// allowed.
    pub(super) fn user_arg_ics(&self, a: &Expr, p: TypeId) -> Option<Ics> {
        if a.ty == p {
            return Some(Ics::EXACT);
        }
        match (self.types.get(a.ty), self.types.get(p)) {
            (Type::Scalar(s), Type::Scalar(t)) => Some(Ics::of(scalar_rank(*s, *t))),
            (Type::Enum(_), Type::Scalar(t)) => Some(Ics::of(if *t == Scalar::Int {
                Rank::Promotion
            } else {
                Rank::Conversion
            })),
            (Type::Scalar(_) | Type::Enum(_), Type::Vector(..)) => {
                Some(Ics::of(Rank::ScalarWidening))
            }
            (Type::Pointer(x), Type::Pointer(y)) if x.ty == y.ty => pointer_ics(*x, *y),
            // C: any object pointer converts to `void *` (a pointer conversion).
            (Type::Pointer(x), Type::Pointer(y)) if self.types.is_void(y.ty) => {
                pointer_ics(*x, QualType { ty: x.ty, ..*y }).map(|_| Ics::of(Rank::Conversion))
            }
            (Type::Scalar(s), Type::Pointer(_)) if s.is_integer() && self.is_null_constant(a) => {
                Some(Ics::of(Rank::Conversion))
            }
            _ => None,
        }
    }
}

/// A pointer to `from` passed as a pointer to `to` (same pointee type): an exact match that
/// may add const, volatile or the generic address space (6.7.9; clang treats address spaces
/// as qualifiers); never one that drops them.
fn pointer_ics(from: QualType, to: QualType) -> Option<Ics> {
    if (from.is_const && !to.is_const) || (from.is_volatile && !to.is_volatile) {
        return None;
    }
    let mut adjust = 0;
    if from.space != to.space {
        if to.space == AddrSpace::Generic && from.space != AddrSpace::Constant {
            adjust += 1;
        } else {
            return None;
        }
    }
    adjust += u8::from(from.is_const != to.is_const) + u8::from(from.is_volatile != to.is_volatile);
    Some(Ics {
        rank: Rank::Exact,
        adjust,
    })
}
