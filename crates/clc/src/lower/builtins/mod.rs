//! Builtin calls: those that are one IR operation (or a few) are expanded in place; every
//! other builtin is a call to a declared library function with a mangled name (see the
//! module documentation of [`crate::lower`]).
//!
//! [`call`] dispatches on the builtin's family ([`Builtin`]), one file per family of the
//! spec; each family expands what it can and hands the rest to [`library_call`].

mod atomics;
mod common;
mod convert;
mod geometric;
mod group;
mod integer;
mod math;
mod memory;
mod pipe;
mod relational;
mod sync;
mod vector;
mod work_item;

use ferrocl_ir::{
    AddrSpace as IrSpace, BinaryOp, ConvOp, FenceFlags, FloatCC, GroupOp, IntCC, Ordering, RmwOp,
    Round, Scope, Signature, Type, UnaryOp as IrUnary, Value, WorkItemOp,
};

use super::func::{scalar_ir, FnLower};
use super::Res;
use crate::builtins::catalogue;
use crate::builtins::Builtin;
use crate::lower::LowerError;
use crate::sema::tree::Expr;
use crate::sema::types::{Scalar, Type as CType, TypeId};

/// One builtin call being lowered: the builtin, the chosen overload's parameter types, the
/// arguments (converted to them by sema; printf's variadic ones promoted) and the result type.
pub(super) struct Call<'a> {
    pub builtin: Builtin,
    pub params: &'a [TypeId],
    pub args: &'a [Expr],
    pub rt: TypeId,
}

impl Call<'_> {
    /// The result is floating point (scalar or vector).
    fn float(&self, fl: &FnLower) -> bool {
        fl.cx.arith(self.rt).is_some_and(|(s, _)| s.is_float())
    }

    /// The result is a signed integer (scalar or vector).
    fn signed(&self, fl: &FnLower) -> bool {
        fl.cx.is_signed(self.rt)
    }
}

/// Lowers a call of a builtin; the value is the call's result (none for `void`).
pub(super) fn call(
    fl: &mut FnLower,
    builtin: Builtin,
    params: &[TypeId],
    args: &[Expr],
    rt: TypeId,
) -> Res<Option<Value>> {
    let c = &Call {
        builtin,
        params,
        args,
        rt,
    };
    match builtin {
        Builtin::WorkItem(f) => work_item::query(fl, f, c),
        Builtin::Math(f) => math::math(fl, f, c),
        Builtin::Native(_, f) => math::native(fl, f, c),
        Builtin::Integer(f) => integer::integer(fl, f, c),
        Builtin::Common(f) => common::common(fl, f, c),
        Builtin::Geometric(f) => geometric::geometric(fl, f, c),
        Builtin::Relational(f) => relational::relational(fl, f, c),
        Builtin::VectorData(v) => memory::vload_store(fl, v, c),
        Builtin::VectorMisc(f) => vector::shuffle(fl, f, c).map(Some),
        Builtin::Sync(f) => sync::sync(fl, f, c).map(|()| None),
        Builtin::AsyncCopy(f) => memory::async_copy(fl, f, c),
        Builtin::LegacyAtomic { op, .. } => atomics::legacy(fl, op, c).map(Some),
        Builtin::Atomic { op, explicit } => atomics::atomic(fl, op, explicit, c),
        Builtin::Printf => group::printf(fl, c).map(Some),
        Builtin::Group { scope, op } => group::collective(fl, scope, op, c),
        Builtin::Convert(conv) => convert::convert(fl, conv, c),
        Builtin::As { .. } => convert::reinterpret(fl, c).map(Some),
        Builtin::Pipe(f) => pipe::pipe(fl, f, c),
        Builtin::AddressSpace(_)
        | Builtin::Image(_)
        | Builtin::SubGroupExt(_)
        | Builtin::Enqueue(_)
        | Builtin::Clock(_) => library_call(fl, c),
    }
}

/// The integer value of a constant argument, if it is one.
fn const_arg(fl: &FnLower, e: &Expr) -> Option<i128> {
    match fl.cx.const_eval(e).ok()?.first()? {
        super::CV::I(v) => Some(*v),
        super::CV::F(_) => None,
    }
}

/// The second operand of a `T(T, S)` overload, splatted to the first's lanes.
fn widened(fl: &mut FnLower, e: &Expr, like: Value) -> Res<Value> {
    let v = fl.val(e)?;
    let t = fl.b.value_type(like);
    if t.is_vector() && !fl.b.value_type(v).is_vector() {
        Ok(fl.b.splat(v, t.lanes()))
    } else {
        Ok(v)
    }
}

/// The signed integer type with the lanes and lane width of `t` (a float type).
fn same_size_int(t: Type) -> Type {
    t.with_lane_type(scalar_ir(match t.lane_bits() {
        16 => Scalar::Short,
        32 => Scalar::Int,
        _ => Scalar::Long,
    }))
    .expect("int type")
}

/// The integer type twice as wide as the lanes of `t` (of at most 32 bits), same lanes.
fn doubled(t: Type) -> Type {
    scalar_ir(match t.lane_bits() {
        8 => Scalar::Short,
        16 => Scalar::Int,
        _ => Scalar::Long,
    })
    .vector(t.lanes())
    .expect("vector type")
}

/// A call to the builtin library's function for this overload, declared on first use.
fn library_call(fl: &mut FnLower, c: &Call) -> Res<Option<Value>> {
    // 6.15.2: native_ and half_ functions have implementation-defined (native) or loose
    // (half) precision; the full-precision function meets both.
    library_call_named(fl, c, c.builtin.full_precision_name())
}

/// A call to the builtin library's function `name` for this overload's parameter types.
fn library_call_named(fl: &mut FnLower, c: &Call, name: String) -> Res<Option<Value>> {
    let mut mangled = name.clone();
    // 6.15.10: the address-space queries take any generic pointer; their IR signature does
    // not depend on the pointee, so neither does their name.
    let any_pointee = matches!(c.builtin, Builtin::AddressSpace(_));
    for p in c.params.iter().filter(|_| !any_pointee) {
        mangled.push('.');
        mangled.push_str(&fl.cx.mangle_type(*p));
    }
    if c.args.len() > c.params.len() {
        mangled.push_str("....");
        let extra: Vec<String> = c.args[c.params.len()..]
            .iter()
            .map(|a| fl.cx.mangle_type(a.ty))
            .collect();
        mangled.push_str(&extra.join("."));
    }
    let mut vals = Vec::new();
    for a in c.args {
        if fl.cx.is_aggregate(a.ty) {
            return Err(LowerError::new(format!(
                "aggregate argument to builtin '{name}'"
            )));
        }
        vals.push(fl.val(a)?);
    }
    let tys: Vec<Type> = vals.iter().map(|v| fl.b.value_type(*v)).collect();
    let ret = fl.cx.reg_type(c.rt);
    let f = declared(fl, &mangled, Signature::new(&tys, ret));
    Ok(fl.b.call(f, ret, &vals))
}

/// The module's function `mangled`, declared with `sig` the first time it is named.
fn declared(fl: &mut FnLower, mangled: &str, sig: Signature) -> ferrocl_ir::Func {
    if let Some(&f) = fl.cx.decls.get(mangled) {
        return f;
    }
    let f = fl.cx.module.add_function(mangled, sig);
    fl.cx.decls.insert(mangled.to_string(), f);
    f
}
