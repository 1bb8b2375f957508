//! The ferrocl IR: a backend-neutral SSA form with block parameters, typed values, vectors
//! and pointers that carry their address space. Every device compiles from it.
//!
//! # The contract
//!
//! A [`Module`] holds module-scope variables ([`GlobalData`], in the `global`, `constant` or
//! `local` address space, with optional initial bytes) and functions ([`Function`]). A
//! function without blocks is a declaration: an external or builtin function resolved by name
//! when a library module is linked in ([`Module::link`]). A kernel is a function with
//! [`KernelInfo`]: per argument its place in the kernel ABI ([`ArgKind`], size and alignment:
//! how the application passes it and what the parameter receives) and its metadata (name,
//! type name, address, access and type qualifiers); and the `reqd_work_group_size`, `work_group_size_hint` and `vec_type_hint`
//! attributes. Kernels return nothing.
//!
//! Entities are `u32` indices into arenas ([`entity`]): [`Value`], [`Inst`], [`Block`],
//! [`StackSlot`], [`Func`], [`Global`]. The data flow ([`DataFlowGraph`]: instructions,
//! values, block parameters) is kept apart from the order ([`Layout`]: blocks of a function,
//! instructions of a block); only placed blocks and instructions belong to the function.
//!
//! Types ([`Type`]) are interned in 16 bits: `i1 i8 i16 i32 i64 f16 f32 f64`, vectors of 2,
//! 3, 4, 8 or 16 lanes of those, and pointers `ptr.<space>` (64 bits in every space). There
//! are no aggregate values: structs and arrays live in memory (stack slots, globals, buffers)
//! and are reached through pointers. Booleans are `i1` in registers and `i8` in memory.
//!
//! Integers are signless; operations say how they read them (`sdiv`/`udiv`, `icmp slt`/`ult`,
//! `sext`/`zext`). Arithmetic wraps; shift amounts are taken modulo the lane width (OpenCL C
//! 6.5.10); integer division by zero or overflow gives an unspecified value and never traps
//! (6.5.1). Float operations are IEEE-754 with round-to-nearest-even; conversions carry their
//! rounding mode and saturation explicitly (6.4.3). A device without CL_FP_DENORM may flush
//! `f32` subnormals to zero, so passes never fold computations that involve them.
//!
//! The verifier ([`verify_module`]) guarantees, for every function:
//! - every placed block ends in exactly one terminator (`jump`, `brif`, `switch`, `return`,
//!   `unreachable`) and holds no other; the entry block (the first) is never a branch target
//!   and its parameters are the signature's parameters;
//! - every operand is a value defined by a placed instruction or a parameter of a placed
//!   block, and its definition dominates the use (a block parameter is defined at the top of
//!   its block; uses in unreachable blocks are exempt from dominance);
//! - each branch passes exactly one argument of the right type per target parameter;
//! - operand and result types fit the operation (see [`Op`] for each one's operands);
//! - memory operations name the address space of their pointer operand, never store to the
//!   `constant` space, and have power-of-two alignments; only `private` and `local` loads and
//!   stores are trusted (in bounds by construction); atomics access `global`, `local` or
//!   `generic` memory with legal orderings; address-space casts go to or from `generic`;
//! - calls pass arguments and take results as the callee's signature says; `return` returns
//!   the signature's type;
//! - globals have legal spaces, sizes matching their initializers, and no initializer in
//!   `local` memory; their relocations (addresses of other globals, written by a device when
//!   it allocates them) lie inside them and name `global` or `constant` globals; names are
//!   unique;
//! - no function calls itself, directly or through others (OpenCL C 6.9 (k)).
//!
//! The text form ([`text`]) round-trips exactly, numbering included; program binaries use
//! [`serialize`]. Passes live in [`passes`], run by a [`passes::PassManager`] that verifies
//! after each one in debug builds. [`interp`] is a reference interpreter (one work-item, or a
//! whole NDRange with barriers) that tests use to check what IR computes, with the lane
//! semantics of [`eval`] that constant folding shares; [`uniformity`]
//! tells which values and branches are equal for all work-items of a work-group.
//!
//! Building IR: add functions to a [`Module`], then fill each with a [`FunctionBuilder`],
//! whose `def_var`/`use_var`/`seal_block` construct SSA form from the front end's
//! variables.

pub mod analysis;
pub mod builder;
pub mod dfg;
pub mod entity;
pub mod eval;
pub mod float;
pub mod function;
pub mod inst;
pub mod interp;
pub mod layout;
pub mod module;
pub mod passes;
pub mod serialize;
pub mod text;
pub mod timing;
pub mod types;
pub mod uniformity;
pub mod verify;

pub use builder::FunctionBuilder;
pub use dfg::{DataFlowGraph, ValueDef};
pub use entity::{Block, Func, Global, Inst, StackSlot, Value, Variable};
pub use function::{
    AccessQualifier, ArgKind, Function, KernelArg, KernelInfo, Signature, StackSlotData,
    TypeQualifiers,
};
pub use inst::{
    AtomicInfo, BinaryOp, ConvOp, Dest, FenceFlags, FloatCC, GroupOp, InstData, IntCC, MemFlags,
    Op, Ordering, RmwOp, Round, Scope, SwitchTable, UnaryOp, WorkItemOp,
};
pub use layout::Layout;
pub use module::{GlobalData, Module, Relocation};
pub use text::{parse_module, print_function, print_module, ParseError};
pub use types::{AddrSpace, Type};
pub use verify::{verify_function, verify_module, VerifyError};
