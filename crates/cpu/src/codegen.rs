//! Translation of a work-group function (`workgroup`: the kernel with its work-item loops
//! and barriers already turned into IR) into a Cranelift function, and of the functions its
//! kernel calls out of line (`codegen/calls.rs`).
//!
//! The generated function is called once per work-group with the argument block, the group's
//! context (`abi::GroupCtx`) and its context memory, which the work-group function's last
//! parameter stands for. Kernel arguments are loaded once, in the entry block.
//!
//! Every IR value is held in `cranelift_frontend::Variable`s: one for a scalar, one per
//! 128-bit SIMD part for a vector (`codegen/simd.rs`). The frontend's SSA construction then
//! joins definitions across the work-item loops' back-edges without this module computing
//! any. Vector instructions with a SIMD form are selected in `codegen/isel.rs`; the others are
//! translated here lane by lane.

use std::collections::HashMap;

use cranelift_codegen::ir::condcodes::{CondCode, FloatCC as CFloatCC, IntCC as CIntCC};
use cranelift_codegen::ir::immediates::{Ieee32, Ieee64};
use cranelift_codegen::ir::{self as cl, types as clt, InstBuilder, MemFlagsData as ClMemFlags};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Switch, Variable};

use ferrocl_ir::{
    ArgKind, Block, Dest, FloatCC, Func, Function, Global, Inst, IntCC, MemFlags, Module, Op,
    StackSlot, Type, Value, WorkItemOp,
};

use cranelift_module::{FuncId, Module as _};
use ferrocl_ir::entity::{EntitySet, SecondaryMap};

mod calls;
mod convert;
mod isel;
pub(crate) mod loops;
pub(crate) mod motion;
mod scalar;
mod simd;

use crate::abi::offsets;
use crate::address::{self, ptradd_constant};
use crate::workgroup::WorkGroupFn;
use crate::CompileError;
pub use calls::{Callee, Callees};
use ferrocl_device::ArgSlot;

/// What translation needs of the JIT module: the module itself (to import functions into the
/// kernel), the library functions the module's declarations resolve to, the helpers, and the
/// functions compiled out of line.
pub struct Link<'a> {
    pub jit: &'a mut cranelift_jit::JITModule,
    pub libcalls: &'a HashMap<String, LibCall>,
    pub helpers: &'a Helpers,
    pub calls: &'a Callees,
}

/// The runtime's own helper functions, declared in the JIT module.
pub struct Helpers {
    /// float_to_half, double_to_half (`half.rs`), for the roundings not made inline.
    pub half: [FuncId; 2],
}

/// A declared builtin resolved to a library function of the JIT module.
pub struct LibCall {
    pub id: FuncId,
}

/// Where a module global lives when the kernel runs.
#[derive(Clone, Copy, Debug)]
pub enum GlobalPlace {
    /// A data object of the JIT module (program-scope `__global` and `__constant` data),
    /// whose address the code gets through a relocation, so that the code can be kept and
    /// linked again in another process (`serial.rs`).
    Data(cranelift_module::DataId),
    /// An offset in the work-group's local memory (`__local` variables).
    Local(u64),
}

fn err<T>(message: impl Into<String>) -> Result<T, CompileError> {
    Err(CompileError(message.into()))
}

/// What the lane-wise translation of an instruction reads of its result's type.
#[derive(Clone, Copy)]
struct Lanes {
    /// The result's IR type; none for an instruction without a result.
    ty: Option<Type>,
    /// The Cranelift type of one of its lanes ([`lane_ty`]).
    lane: Option<cl::Type>,
    /// How many lanes it has (1 without a result).
    count: usize,
}

impl Lanes {
    /// Whether the result is a boolean or a vector of booleans.
    fn is_bool(self) -> bool {
        self.ty.is_some_and(|t| t.lane_type() == Type::I1)
    }
}

/// The Cranelift type of one lane of an IR type (booleans are bytes holding 0 or 1).
fn lane_ty(t: Type) -> Result<cl::Type, CompileError> {
    let lane = t.lane_type();
    Ok(if lane.is_ptr() {
        clt::I64
    } else if lane == Type::I1 || lane == Type::I8 {
        clt::I8
    } else if lane == Type::I16 {
        clt::I16
    } else if lane == Type::I32 {
        clt::I32
    } else if lane == Type::I64 {
        clt::I64
    } else if lane == Type::F16 {
        // Held as its bits: half values are only loaded, stored, selected, shuffled and
        // converted (`convert.rs`); the front end computes `half` arithmetic in float.
        clt::I16
    } else if lane == Type::F32 {
        clt::F32
    } else if lane == Type::F64 {
        clt::F64
    } else {
        return err(format!("the CPU code generator does not support {t} yet"));
    })
}

fn int_cc(cc: IntCC) -> CIntCC {
    match cc {
        IntCC::Eq => CIntCC::Equal,
        IntCC::Ne => CIntCC::NotEqual,
        IntCC::Slt => CIntCC::SignedLessThan,
        IntCC::Sle => CIntCC::SignedLessThanOrEqual,
        IntCC::Sgt => CIntCC::SignedGreaterThan,
        IntCC::Sge => CIntCC::SignedGreaterThanOrEqual,
        IntCC::Ult => CIntCC::UnsignedLessThan,
        IntCC::Ule => CIntCC::UnsignedLessThanOrEqual,
        IntCC::Ugt => CIntCC::UnsignedGreaterThan,
        IntCC::Uge => CIntCC::UnsignedGreaterThanOrEqual,
    }
}

fn float_cc(cc: FloatCC) -> CFloatCC {
    match cc {
        FloatCC::Ord => CFloatCC::Ordered,
        FloatCC::Uno => CFloatCC::Unordered,
        FloatCC::Oeq => CFloatCC::Equal,
        FloatCC::One => CFloatCC::OrderedNotEqual,
        FloatCC::Olt => CFloatCC::LessThan,
        FloatCC::Ole => CFloatCC::LessThanOrEqual,
        FloatCC::Ogt => CFloatCC::GreaterThan,
        FloatCC::Oge => CFloatCC::GreaterThanOrEqual,
        FloatCC::Ueq => CFloatCC::UnorderedOrEqual,
        FloatCC::Une => CFloatCC::NotEqual,
        FloatCC::Ult => CFloatCC::UnorderedOrLessThan,
        FloatCC::Ule => CFloatCC::UnorderedOrLessThanOrEqual,
        FloatCC::Ugt => CFloatCC::UnorderedOrGreaterThan,
        FloatCC::Uge => CFloatCC::UnorderedOrGreaterThanOrEqual,
    }
}

/// Memory accesses of kernels: no alignment or trap assumptions.
fn mem() -> ClMemFlags {
    ClMemFlags::new()
}

/// How far past either end of a masked region a clamped address may lie (`Translator::clamped`):
/// the runtime pads each region by twice this and more on both sides.
pub const CLAMP_WINDOW: i64 = 2048;

/// Reads of the group context and argument block: aligned, never faulting, never written
/// while the kernel runs, so free to move (Cranelift then treats them as pure: one that is not
/// used is dropped, one in a loop is hoisted out).
fn ctx_mem() -> ClMemFlags {
    ClMemFlags::trusted().with_readonly().with_can_move()
}

/// Translates work-group function `wg` (of a kernel of `module`) into `func`, whose signature
/// the caller has set to `(args: i64, group: i64, frames: i64)`. The kernel's call area
/// (`codegen/calls.rs`) is the `call_area` bytes before `frames`.
#[allow(clippy::too_many_arguments)]
pub fn translate_kernel(
    module: &Module,
    wg: &WorkGroupFn,
    layout: &[ArgSlot],
    call_area: u32,
    places: &SecondaryMap<Global, Option<GlobalPlace>>,
    func: &mut cl::Function,
    fbc: &mut FunctionBuilderContext,
    link: Link<'_>,
) -> Result<(), CompileError> {
    let frontend = link.jit.isa().frontend_config();
    // The work-group function's slots are addresses in its context (`workgroup::clean_up`).
    let no_slots = SecondaryMap::new();
    let mut t = Translator::new(
        module,
        &wg.func,
        &no_slots,
        places,
        FunctionBuilder::new(func, fbc),
        link,
    );
    t.run(layout, call_area)?;
    t.b.finalize(frontend);
    Ok(())
}

/// Translates function `f` of `module`, compiled out of line as `callee` says, into `func`,
/// whose signature is the one `Callees::plan` declared for it.
pub fn translate_function(
    module: &Module,
    f: &Function,
    callee: &Callee,
    places: &SecondaryMap<Global, Option<GlobalPlace>>,
    func: &mut cl::Function,
    fbc: &mut FunctionBuilderContext,
    link: Link<'_>,
) -> Result<(), CompileError> {
    let frontend = link.jit.isa().frontend_config();
    let mut t = Translator::new(
        module,
        f,
        &callee.slot_offsets,
        places,
        FunctionBuilder::new(func, fbc),
        link,
    );
    t.run_function(callee)?;
    t.b.finalize(frontend);
    Ok(())
}

struct Translator<'a, 'f> {
    module: &'a Module,
    jit: &'a mut cranelift_jit::JITModule,
    libcalls: &'a HashMap<String, LibCall>,
    helpers: &'a Helpers,
    calls: &'a Callees,
    f: &'a Function,
    /// Where each stack slot of a function compiled out of line lives, as a byte offset from
    /// `frames` (a work-group function has none: its slots are addresses in its context).
    slot_offsets: &'a SecondaryMap<StackSlot, Option<u32>>,
    places: &'a SecondaryMap<Global, Option<GlobalPlace>>,
    b: FunctionBuilder<'f>,
    /// The Cranelift variables of the values that have them (block parameters, and values
    /// used in a block placed before their own: [`direct_values`]).
    vars: SecondaryMap<Value, Option<Vec<Variable>>>,
    /// The values translated without variables ([`direct_values`]).
    direct: EntitySet<Value>,
    /// The Cranelift values of those, once defined.
    vals: SecondaryMap<Value, Option<Vec<cl::Value>>>,
    blocks: SecondaryMap<Block, Option<cl::Block>>,
    /// Each `i1` vector's mask lane width (codegen/simd.rs).
    mask_bits: simd::MaskBits,
    grp: cl::Value,
    /// The group's context memory (`WorkGroupFn`'s `ctx`), or the frame of a function
    /// compiled out of line.
    frames: cl::Value,
    /// Where the frames of the functions `f` calls out of line start.
    callee_frames: cl::Value,
    /// Where a function compiled out of line writes its result, when it has a return area.
    ret_area: Option<cl::Value>,
    /// The functions called out of line, imported into the function.
    func_refs: SecondaryMap<Func, Option<cl::FuncRef>>,
    /// The local and private regions' bases and masks, by their `GroupCtx` offset: loaded
    /// once, in the entry block, for every access that `confine` masks.
    regions: HashMap<i32, cl::Value>,
    /// The conditional branches emitted with their targets swapped (`loops.rs`).
    exits_first: EntitySet<Inst>,
    /// The `__local` and `__private` addresses from which several accesses are made at
    /// constant offsets (`shared_bases`).
    shared: EntitySet<Value>,
    /// The generic pointers that come from `__local` and `__private` pointers only
    /// (`confine_local_or_private`).
    local_or_private: EntitySet<Value>,
    /// Each shared address clamped into its region, with the block where that was done.
    clamps: SecondaryMap<Value, Option<(cl::Block, cl::Value)>>,
    /// How many loops each block of `f` is in (blocks in none are left out).
    loop_depth: SecondaryMap<Block, u32>,
    /// The target has x86's `blendv` ([`has_blendv`]).
    blendv: bool,
    /// How many times each value of `f` is an operand ([`use_counts`]), and how many of
    /// those are as the condition of a `select` of vectors.
    uses: SecondaryMap<Value, u32>,
    select_conditions: SecondaryMap<Value, u32>,
    /// For each `fma`, the factors read for the last time there ([`fma_last_uses`]), and the
    /// instruction being translated.
    fma_last: SecondaryMap<Inst, u8>,
    current: Option<Inst>,
    /// The globals' addresses, imported into the function.
    global_values: SecondaryMap<Global, Option<cl::GlobalValue>>,
}

/// Whether `isa` is x86-64 with SSE4.1, whose `blendv` picks each lane by its top bit: for a
/// mask (every lane all ones or all zeros) that is one instruction for a blend, where the
/// bitwise select is three (Cranelift uses `blendv` for it only where the mask is a
/// comparison itself, not a `band` or `bnot` of them, as divergent code's masks are).
fn has_blendv(isa: &dyn cranelift_codegen::isa::TargetIsa) -> bool {
    isa.name() == "x64"
        && isa
            .isa_flags()
            .iter()
            .any(|f| f.name == "has_sse41" && f.as_bool() == Some(true))
}

impl<'a, 'f> Translator<'a, 'f> {
    fn new(
        module: &'a Module,
        f: &'a Function,
        slot_offsets: &'a SecondaryMap<StackSlot, Option<u32>>,
        places: &'a SecondaryMap<Global, Option<GlobalPlace>>,
        b: FunctionBuilder<'f>,
        link: Link<'a>,
    ) -> Self {
        let blendv = has_blendv(link.jit.isa());
        let uses = use_counts(f);
        Translator {
            module,
            jit: link.jit,
            libcalls: link.libcalls,
            helpers: link.helpers,
            calls: link.calls,
            f,
            slot_offsets,
            places,
            b,
            vars: SecondaryMap::new(),
            direct: direct_values(f),
            vals: SecondaryMap::new(),
            blocks: SecondaryMap::new(),
            mask_bits: simd::MaskBits::new(),
            grp: cl::Value::from_u32(0),
            frames: cl::Value::from_u32(0),
            callee_frames: cl::Value::from_u32(0),
            ret_area: None,
            func_refs: SecondaryMap::new(),
            regions: HashMap::new(),
            exits_first: loops::exits_first(f),
            shared: shared_bases(f),
            local_or_private: ferrocl_ir::passes::spaces::mixed_local_private(f)
                .into_iter()
                .collect(),
            clamps: SecondaryMap::new(),
            loop_depth: loops::depths(f),
            blendv,
            fma_last: fma_last_uses(f, &uses),
            current: None,
            uses,
            select_conditions: select_condition_counts(f),
            global_values: SecondaryMap::new(),
        }
    }
}

impl Translator<'_, '_> {
    /// Global `g`'s address in the function: data object `id`, reached through an absolute
    /// relocation (not colocated: the JIT places data apart from code, further than a
    /// PC-relative offset may reach).
    fn global_value(&mut self, g: Global, id: cranelift_module::DataId) -> cl::GlobalValue {
        if let Some(gv) = self.global_values[g] {
            return gv;
        }
        let name = self
            .b
            .func
            .declare_imported_user_function(cl::UserExternalName::new(1, id.as_u32()));
        let gv = self
            .b
            .func
            .create_global_value(cl::GlobalValueData::Symbol {
                name: cl::ExternalName::user(name),
                offset: cl::immediates::Imm64::new(0),
                colocated: false,
                tls: false,
            });
        self.global_values[g] = Some(gv);
        gv
    }

    /// `p + off`, without an instruction for a zero offset.
    fn offset(&mut self, p: cl::Value, off: i64) -> cl::Value {
        if off == 0 {
            p
        } else {
            self.b.ins().iadd_imm_s(p, off)
        }
    }

    /// Loads the local and private regions' bases and masks from the group context.
    fn load_regions(&mut self) {
        for field in [
            offsets::LOCAL_MEM,
            offsets::LOCAL_MASK,
            offsets::PRIVATE_MEM,
            offsets::PRIVATE_MASK,
            offsets::LOCAL_WINDOW,
            offsets::LOCAL_WINDOW_SPAN,
            offsets::PRIVATE_WINDOW,
            offsets::PRIVATE_WINDOW_SPAN,
        ] {
            let v = self.b.ins().load(clt::I64, ctx_mem(), self.grp, field);
            self.regions.insert(field, v);
        }
    }

    /// Translates the blocks of `f`, entered from the current block (whose parameters, and
    /// `f`'s entry block's, are set) with a jump to `f`'s entry block.
    fn body(&mut self, ir_entry: Block) -> Result<(), CompileError> {
        let f = self.f;
        // Each block is sealed as soon as every branch to it has been translated, so that a
        // variable read in it is looked up through its predecessors then: a value defined
        // before a loop and unchanged in it stays one value, instead of a parameter of every
        // block where paths meet, which would hide it from Cranelift's loop-invariant code
        // motion and keep it in a register (or a spill slot) all through the loop.
        let mut unseen: SecondaryMap<Block, usize> = SecondaryMap::new();
        for &blk in f.layout.blocks() {
            let cb = self.b.create_block();
            self.blocks[blk] = Some(cb);
            if let Some(t) = f.terminator(blk) {
                for d in f.dfg.insts[t].op.dests() {
                    unseen[d.block] += 1;
                }
            }
        }
        let target = self.block(ir_entry);
        self.b.ins().jump(target, &[]);
        for &blk in f.layout.blocks() {
            if unseen[blk] == 0 {
                self.b.seal_block(self.block(blk));
            }
        }
        for &blk in f.layout.blocks() {
            self.b.switch_to_block(self.block(blk));
            for &inst in f.layout.block_insts(blk) {
                self.inst(inst)?;
            }
            if let Some(t) = f.terminator(blk) {
                for d in f.dfg.insts[t].op.dests() {
                    let n = &mut unseen[d.block];
                    *n -= 1;
                    if *n == 0 {
                        self.b.seal_block(self.block(d.block));
                    }
                }
            }
        }
        self.b.seal_all_blocks();
        Ok(())
    }

    /// Translates a function compiled out of line: its parameters are its IR parameters'
    /// values, then the group context, its frame and, if it has one, its return area.
    fn run_function(&mut self, callee: &Callee) -> Result<(), CompileError> {
        let f = self.f;
        let entry = self.b.create_block();
        self.b.append_block_params_for_function_params(entry);
        self.b.switch_to_block(entry);
        let mut params = self.b.block_params(entry).to_vec();
        if callee.ret_area {
            self.ret_area = params.pop();
        }
        let (Some(frame), Some(grp)) = (params.pop(), params.pop()) else {
            return err(format!("function {}: no context parameters", f.name));
        };
        self.grp = grp;
        self.frames = frame;
        self.callee_frames = self.offset(frame, i64::from(callee.own_size));
        self.load_regions();
        let Some(ir_entry) = f.layout.entry_block() else {
            return err(format!("function {} has no body", f.name));
        };
        let mut next = params.into_iter();
        for (&param, &ty) in f.dfg.block_params(ir_entry).iter().zip(&f.sig.params) {
            let n = calls::abi_repr(ty)?.count() as usize;
            let parts: Vec<cl::Value> = next.by_ref().take(n).collect();
            if parts.len() != n {
                return err(format!("function {}: too few parameters", f.name));
            }
            self.set_parts(param, parts)?;
        }
        self.body(ir_entry)
    }

    fn run(&mut self, layout: &[ArgSlot], call_area: u32) -> Result<(), CompileError> {
        let f = self.f;
        let entry = self.b.create_block();
        self.b.append_block_params_for_function_params(entry);
        self.b.switch_to_block(entry);
        let params = self.b.block_params(entry).to_vec();
        let (args, grp, frames) = (params[0], params[1], params[2]);
        self.grp = grp;
        self.frames = frames;
        self.callee_frames = self.offset(frames, -i64::from(call_area));

        // Kernel arguments, loaded once from the argument block; then the context.
        let Some(ir_entry) = f.layout.entry_block() else {
            return err(format!("kernel {} has no body", f.name));
        };
        let ir_params = f.dfg.block_params(ir_entry).to_vec();
        let Some((&ctx_param, kernel_params)) = ir_params.split_last() else {
            return err(format!("kernel {}: no context parameter", f.name));
        };
        self.load_regions();
        let local_mem = self.regions[&offsets::LOCAL_MEM];
        let params = kernel_params.iter().zip(&f.sig.params);
        for ((&param, &param_ty), arg) in params.zip(layout) {
            if let Some(parts) = self.load_vector_arg(param, args, arg.offset as i32)? {
                self.set_parts(param, parts)?;
                continue;
            }
            let ty = lane_ty(param_ty)?;
            let lanes = param_ty.lanes() as i32;
            let mut vals = Vec::new();
            for lane in 0..lanes {
                let v = self.b.ins().load(
                    ty,
                    ctx_mem(),
                    args,
                    arg.offset as i32 + lane * ty.bytes() as i32,
                );
                vals.push(v);
            }
            match arg.kind {
                ArgKind::Local => vals[0] = self.b.ins().iadd(vals[0], local_mem),
                ArgKind::Aggregate => {
                    let private_mem = self.regions[&offsets::PRIVATE_MEM];
                    vals[0] = self.b.ins().iadd(vals[0], private_mem);
                }
                _ => {}
            }
            self.set(param, vals)?;
        }
        self.set(ctx_param, vec![frames])?;
        self.body(ir_entry)
    }

    fn vars_of(&mut self, v: Value) -> Result<Vec<Variable>, CompileError> {
        if let Some(vars) = &self.vars[v] {
            return Ok(vars.clone());
        }
        let ty = match self.repr(v)? {
            simd::Repr::Lanes { ty, .. } => ty,
            simd::Repr::Simd { part, .. } => part,
        };
        let n = self.repr(v)?.count();
        let vars: Vec<Variable> = (0..n).map(|_| self.b.declare_var(ty)).collect();
        self.vars[v] = Some(vars.clone());
        Ok(vars)
    }

    /// The lanes of `v` (extracted from its SIMD parts where it has them).
    fn get(&mut self, v: Value) -> Result<Vec<cl::Value>, CompileError> {
        let repr = self.repr(v)?;
        let parts = self.parts(v)?;
        Ok(self.lanes_of(parts, repr))
    }

    fn get1(&mut self, v: Value) -> Result<cl::Value, CompileError> {
        Ok(self.get(v)?[0])
    }

    /// Defines `v` from its lanes.
    fn set(&mut self, v: Value, vals: Vec<cl::Value>) -> Result<(), CompileError> {
        let repr = self.repr(v)?;
        let parts = self.parts_of_lanes(vals, repr);
        self.set_parts(v, parts)
    }

    /// Passes a branch's arguments to its target's parameters: all are read before any is
    /// written, as the arguments may be the parameters themselves (a swap in a loop).
    fn pass_args(&mut self, dest: &Dest) -> Result<(), CompileError> {
        let params = self.f.dfg.block_params(dest.block).to_vec();
        let mut all = Vec::new();
        for (&a, &p) in dest.args.iter().zip(&params) {
            let want = self.repr(p)?;
            all.push(self.parts_as(a, want)?);
        }
        for (p, vals) in params.into_iter().zip(all) {
            self.set_parts(p, vals)?;
        }
        Ok(())
    }

    /// The block to branch to for `dest`: its own block, or an edge block passing arguments.
    /// The block a branch to `dest` goes to: the target itself, or, when the branch passes
    /// arguments, a new edge block that is filled (by [`Translator::fill_edges`]) once the
    /// branch has ended the current block.
    fn edge(&mut self, dest: &Dest, pending: &mut Vec<(cl::Block, Dest)>) -> cl::Block {
        let target = self.block(dest.block);
        if dest.args.is_empty() {
            return target;
        }
        let edge = self.b.create_block();
        pending.push((edge, dest.clone()));
        edge
    }

    /// Fills the edge blocks of a branch: each assigns its arguments to the target's
    /// parameters and jumps there.
    fn fill_edges(&mut self, pending: Vec<(cl::Block, Dest)>) -> Result<(), CompileError> {
        for (edge, dest) in pending {
            // The branch just emitted is its only predecessor.
            self.b.seal_block(edge);
            self.b.switch_to_block(edge);
            self.pass_args(&dest)?;
            let target = self.block(dest.block);
            self.b.ins().jump(target, &[]);
        }
        Ok(())
    }

    /// The Cranelift block of block `b` of `f`.
    fn block(&self, b: Block) -> cl::Block {
        self.blocks[b].expect("a Cranelift block for each block")
    }

    fn zero(&mut self, ty: cl::Type) -> cl::Value {
        match ty {
            clt::F32 => self.b.ins().f32const(0.0),
            clt::F64 => self.b.ins().f64const(0.0),
            _ => self.b.ins().iconst(ty, 0),
        }
    }

    /// Translates `inst`: by its SIMD form where it has one (`isel.rs`), otherwise lane by
    /// lane, one function per family of instructions.
    fn inst(&mut self, inst: Inst) -> Result<(), CompileError> {
        self.current = Some(inst);
        if self.simd_inst(inst)? {
            return Ok(());
        }
        let f = self.f;
        let data = &f.dfg.insts[inst];
        let (op, args) = (&data.op, data.args.as_slice());
        let result = f.dfg.inst_result(inst);
        let ty = result.map(|r| f.dfg.value_type(r));
        let out = Lanes {
            ty,
            lane: ty.map(lane_ty).transpose()?,
            count: ty.map_or(1, |t| t.lanes() as usize),
        };
        let vals = match op {
            Op::Iconst(_) | Op::Fconst(_) | Op::Vconst(_) | Op::Null | Op::Undef => {
                Some(self.constant(op, out)?)
            }
            Op::Unary(_) | Op::Binary(_) | Op::Fma | Op::Icmp(_) | Op::Fcmp(_) | Op::Select => {
                Some(self.arithmetic(op, args, out)?)
            }
            Op::Convert(_) | Op::Bitcast | Op::PtrToInt | Op::IntToPtr | Op::AddrCast => {
                Some(self.conversion(op, args, out)?)
            }
            Op::Splat | Op::ExtractLane(_) | Op::InsertLane(_) | Op::Shuffle(_) => {
                Some(self.lane_op(op, args, out)?)
            }
            Op::PtrAdd | Op::SlotAddr(_) | Op::GlobalAddr(_) => Some(vec![self.address(op, args)?]),
            Op::Load(flags) => Some(self.load(flags, args, out)?),
            Op::Store(flags) => {
                self.store(flags, args)?;
                None
            }
            Op::AtomicRmw(..)
            | Op::Cmpxchg(..)
            | Op::AtomicLoad(_)
            | Op::AtomicStore(_)
            | Op::Fence(..) => self.atomic(op, args, out)?,
            Op::Barrier(..) | Op::Group(..) => {
                return err("a barrier or collective left after the work-group transform")
            }
            Op::WorkItem(op, d) => {
                let v = self.work_item(*op, *d)?;
                let ty = out.lane.unwrap_or(clt::I64);
                Some(vec![if ty == clt::I64 {
                    v
                } else {
                    self.b.ins().ireduce(ty, v)
                }])
            }
            Op::Call(callee) => self.call(inst, *callee, args)?,
            Op::Jump(_) | Op::Brif(_) | Op::Switch(_) | Op::Return | Op::Unreachable => {
                self.terminator(inst, op, args)?;
                None
            }
        };
        if let (Some(r), Some(vals)) = (result, vals) {
            self.set(r, vals)?;
        }
        Ok(())
    }

    /// The lanes of a constant, `null` or `undef` (zero).
    fn constant(&mut self, op: &Op, out: Lanes) -> Result<Vec<cl::Value>, CompileError> {
        Ok(match op {
            Op::Iconst(bits) => {
                let ty = out.lane.unwrap_or(clt::I64);
                let mask = if out.is_bool() {
                    1
                } else if ty.bits() >= 64 {
                    u64::MAX
                } else {
                    (1u64 << ty.bits()) - 1
                };
                let v = self.b.ins().iconst(ty, (bits & mask) as i64);
                vec![v; out.count]
            }
            Op::Fconst(bits) => {
                let v = match out.lane {
                    Some(clt::F32) => self.b.ins().f32const(Ieee32::with_bits(*bits as u32)),
                    Some(clt::F64) => self.b.ins().f64const(Ieee64::with_bits(*bits)),
                    // A half, held as its bits.
                    Some(clt::I16) => self.b.ins().iconst(clt::I16, (*bits & 0xffff) as i64),
                    _ => return err("fconst of a type that is not a float"),
                };
                vec![v; out.count]
            }
            Op::Vconst(lanes_bits) => {
                let ty = out.lane.unwrap_or(clt::I32);
                let is_bool = out.is_bool();
                let mut vals = Vec::with_capacity(lanes_bits.len());
                for &bits in lanes_bits.iter() {
                    vals.push(match ty {
                        clt::F32 => self.b.ins().f32const(Ieee32::with_bits(bits as u32)),
                        clt::F64 => self.b.ins().f64const(Ieee64::with_bits(bits)),
                        _ => {
                            let mask = if is_bool {
                                1
                            } else if ty.bits() >= 64 {
                                u64::MAX
                            } else {
                                (1u64 << ty.bits()) - 1
                            };
                            self.b.ins().iconst(ty, (bits & mask) as i64)
                        }
                    });
                }
                vals
            }
            Op::Null | Op::Undef => {
                let z = self.zero(out.lane.unwrap_or(clt::I64));
                vec![z; out.count]
            }
            _ => unreachable!("{op:?} is not a constant"),
        })
    }

    /// The lanes of an arithmetic, comparison or select instruction, each lane on its own.
    fn arithmetic(
        &mut self,
        op: &Op,
        args: &[Value],
        out: Lanes,
    ) -> Result<Vec<cl::Value>, CompileError> {
        Ok(match op {
            Op::Unary(op) => {
                let xs = self.get(args[0])?;
                let is_bool = out.is_bool();
                let mut vals = Vec::with_capacity(xs.len());
                for x in xs {
                    vals.push(self.unary(*op, x, is_bool)?);
                }
                vals
            }
            Op::Binary(op) => {
                let (xs, ys) = (self.get(args[0])?, self.get(args[1])?);
                let mut vals = Vec::with_capacity(xs.len());
                for (x, y) in xs.into_iter().zip(ys) {
                    vals.push(self.binary(*op, x, y));
                }
                vals
            }
            Op::Fma => {
                let (x, y) = self.fma_factors(args[0], args[1]);
                let (a, b, c) = (self.get(x)?, self.get(y)?, self.get(args[2])?);
                (0..a.len())
                    .map(|i| self.b.ins().fma(a[i], b[i], c[i]))
                    .collect()
            }
            Op::Icmp(cc) => {
                let (xs, ys) = (self.get(args[0])?, self.get(args[1])?);
                xs.into_iter()
                    .zip(ys)
                    .map(|(x, y)| self.b.ins().icmp(int_cc(*cc), x, y))
                    .collect()
            }
            Op::Fcmp(cc) => {
                let (xs, ys) = (self.get(args[0])?, self.get(args[1])?);
                xs.into_iter()
                    .zip(ys)
                    .map(|(x, y)| self.b.ins().fcmp(float_cc(*cc), x, y))
                    .collect()
            }
            Op::Select => {
                let c = self.get(args[0])?;
                let (xs, ys) = (self.get(args[1])?, self.get(args[2])?);
                (0..xs.len())
                    .map(|i| {
                        self.b
                            .ins()
                            .select(c[if c.len() == 1 { 0 } else { i }], xs[i], ys[i])
                    })
                    .collect()
            }
            _ => unreachable!("{op:?} is not arithmetic"),
        })
    }

    /// The lanes of a conversion: between numeric types, of the bits, between pointers and
    /// integers, or between address spaces (the same address).
    fn conversion(
        &mut self,
        op: &Op,
        args: &[Value],
        out: Lanes,
    ) -> Result<Vec<cl::Value>, CompileError> {
        Ok(match op {
            Op::Convert(conv) => {
                let src_t = self.f.dfg.value_type(args[0]);
                let (st, dt) = (
                    src_t.lane_type(),
                    out.ty.map(|t| t.lane_type()).unwrap_or(Type::I32),
                );
                if st == Type::F16 && dt == Type::F32 {
                    if let Some(x) = self.rounded_from_float(args[0]) {
                        let xs = self.get(x)?;
                        return Ok(xs.into_iter().map(|x| self.round_to_half(x)).collect());
                    }
                }
                let xs = self.get(args[0])?;
                let mut vals = Vec::with_capacity(xs.len());
                for x in xs {
                    vals.push(self.convert(*conv, x, st, dt)?);
                }
                vals
            }
            Op::Bitcast => {
                let src_t = self.f.dfg.value_type(args[0]);
                let xs = self.get(args[0])?;
                self.bitcast(xs, src_t, out.ty.unwrap_or(src_t))?
            }
            Op::PtrToInt => {
                let x = self.get1(args[0])?;
                let ty = out.lane.unwrap_or(clt::I64);
                vec![if ty == clt::I64 {
                    x
                } else {
                    self.b.ins().ireduce(ty, x)
                }]
            }
            Op::IntToPtr => {
                let x = self.get1(args[0])?;
                let sty = self.b.func.dfg.value_type(x);
                vec![if sty == clt::I64 {
                    x
                } else {
                    self.b.ins().uextend(clt::I64, x)
                }]
            }
            Op::AddrCast => self.get(args[0])?,
            _ => unreachable!("{op:?} is not a conversion"),
        })
    }

    /// The lanes of a splat, a lane extracted or inserted, or a shuffle.
    fn lane_op(
        &mut self,
        op: &Op,
        args: &[Value],
        out: Lanes,
    ) -> Result<Vec<cl::Value>, CompileError> {
        Ok(match op {
            Op::Splat => {
                let x = self.get1(args[0])?;
                vec![x; out.count]
            }
            Op::ExtractLane(i) => vec![self.get(args[0])?[*i as usize]],
            Op::InsertLane(i) => {
                let mut v = self.get(args[0])?;
                v[*i as usize] = self.get1(args[1])?;
                v
            }
            Op::Shuffle(mask) => {
                let mut both = self.get(args[0])?;
                both.extend(self.get(args[1])?);
                mask.iter().map(|&m| both[m as usize]).collect()
            }
            _ => unreachable!("{op:?} is not a lane operation"),
        })
    }

    /// An address: a pointer plus an offset, a stack slot's or a global's.
    fn address(&mut self, op: &Op, args: &[Value]) -> Result<cl::Value, CompileError> {
        Ok(match op {
            Op::PtrAdd => {
                let p = self.get1(args[0])?;
                if let Some((terms, k)) = linear_offset(self.f, args[1], &self.loop_depth) {
                    // `p + Σ c·t + k` summed from the terms defined outside the most loops to
                    // those inside the most: equal in wrapping 64-bit arithmetic, and the
                    // accesses around one address (`a[i - 1]`, `a[i + n]`) share their
                    // loop-invariant part, hoisted, with the last term and the constant
                    // folded into the address.
                    let mut a = p;
                    for (t, c) in terms {
                        let t = self.get1(t)?;
                        a = match c {
                            1 => self.b.ins().iadd(a, t),
                            -1 => self.b.ins().isub(a, t),
                            _ => {
                                let ct = self.b.ins().imul_imm_s(t, c);
                                self.b.ins().iadd(a, ct)
                            }
                        };
                    }
                    self.offset(a, k)
                } else {
                    let mut o = self.get1(args[1])?;
                    if self.b.func.dfg.value_type(o) != clt::I64 {
                        o = self.b.ins().sextend(clt::I64, o);
                    }
                    self.b.ins().iadd(p, o)
                }
            }
            Op::SlotAddr(ss) => match self.slot_offsets[*ss] {
                Some(off) => self.b.ins().iadd_imm_s(self.frames, i64::from(off)),
                None => return err(format!("unknown stack slot {ss}")),
            },
            Op::GlobalAddr(g) => match self.places[*g] {
                Some(GlobalPlace::Data(id)) => {
                    let gv = self.global_value(*g, id);
                    self.b.ins().symbol_value(clt::I64, gv)
                }
                Some(GlobalPlace::Local(off)) => {
                    let base = self.regions[&offsets::LOCAL_MEM];
                    self.b.ins().iadd_imm_s(base, off as i64)
                }
                None => return err(format!("unknown global {g}")),
            },
            _ => unreachable!("{op:?} is not an address"),
        })
    }

    /// The lanes of a load, one lane after the other from its address.
    fn load(
        &mut self,
        flags: &MemFlags,
        args: &[Value],
        out: Lanes,
    ) -> Result<Vec<cl::Value>, CompileError> {
        let ty = out.lane.unwrap_or(clt::I32);
        let mut f = mem();
        if flags.align >= ty.bytes() {
            f.set_aligned();
        }
        let p = self.access_addr(flags, args[0], out.count as u32 * ty.bytes())?;
        let mut vals = Vec::with_capacity(out.count);
        for i in 0..out.count {
            vals.push(self.b.ins().load(ty, f, p, (i as u32 * ty.bytes()) as i32));
        }
        Ok(vals)
    }

    /// A store, one lane after the other to its address.
    fn store(&mut self, flags: &MemFlags, args: &[Value]) -> Result<(), CompileError> {
        let xs = self.get(args[0])?;
        let mut f = mem();
        let total = xs
            .iter()
            .map(|&x| self.b.func.dfg.value_type(x).bytes())
            .sum();
        let p = self.access_addr(flags, args[1], total)?;
        for (i, x) in xs.into_iter().enumerate() {
            let bytes = self.b.func.dfg.value_type(x).bytes();
            if flags.align >= bytes {
                f.set_aligned();
            }
            self.b.ins().store(f, x, p, (i as u32 * bytes) as i32);
        }
        Ok(())
    }

    /// An atomic operation or a fence: its result, if it has one.
    fn atomic(
        &mut self,
        op: &Op,
        args: &[Value],
        out: Lanes,
    ) -> Result<Option<Vec<cl::Value>>, CompileError> {
        Ok(match op {
            // One thread runs a work-group's work-items, one after the other, and only they
            // reach its local memory: an atomic operation on `__local` memory is atomic with
            // respect to every access that can see it when done as a plain load and store.
            Op::AtomicRmw(op, info) if info.space == ferrocl_ir::AddrSpace::Local => {
                let p = self.get1(args[0])?;
                let p = self.confine(p, info.space);
                let x = self.get1(args[1])?;
                Some(vec![self.local_rmw(*op, p, x)?])
            }
            Op::AtomicRmw(op, info) => {
                let p = self.get1(args[0])?;
                let p = self.confine(p, info.space);
                let x = self.get1(args[1])?;
                Some(vec![self.atomic_rmw(*op, p, x)?])
            }
            Op::Cmpxchg(info, _) => {
                let p = self.get1(args[0])?;
                let p = self.confine(p, info.space);
                let (e, r) = (self.get1(args[1])?, self.get1(args[2])?);
                let ty = self.b.func.dfg.value_type(e);
                // Floats are compared and exchanged as their bits.
                let ity = cl::Type::int(ty.bits() as u16).unwrap_or(clt::I32);
                let (e, r) = if ty.is_float() {
                    (
                        self.b.ins().bitcast(ity, mem(), e),
                        self.b.ins().bitcast(ity, mem(), r),
                    )
                } else {
                    (e, r)
                };
                let old = if info.space == ferrocl_ir::AddrSpace::Local {
                    // As for `atomic_rmw` of `__local` memory: `r` stored where the bits are
                    // equal, the old value stored back elsewhere.
                    let old = self.b.ins().load(ity, mem(), p, 0);
                    let same = self.b.ins().icmp(CIntCC::Equal, old, e);
                    let new = self.b.ins().select(same, r, old);
                    self.b.ins().store(mem(), new, p, 0);
                    old
                } else {
                    self.b.ins().atomic_cas(mem(), p, e, r)
                };
                let old = if ty.is_float() {
                    self.b.ins().bitcast(ty, mem(), old)
                } else {
                    old
                };
                Some(vec![old])
            }
            Op::AtomicLoad(info) => {
                let p = self.get1(args[0])?;
                let p = self.confine(p, info.space);
                let ty = out.lane.unwrap_or(clt::I32);
                Some(vec![if ty.is_float() {
                    let ity = cl::Type::int(ty.bits() as u16).unwrap_or(clt::I32);
                    let v = self.b.ins().atomic_load(ity, mem(), p);
                    self.b.ins().bitcast(ty, mem(), v)
                } else {
                    self.b.ins().atomic_load(ty, mem(), p)
                }])
            }
            Op::AtomicStore(info) => {
                let mut x = self.get1(args[0])?;
                let p = self.get1(args[1])?;
                let p = self.confine(p, info.space);
                let ty = self.b.func.dfg.value_type(x);
                if ty.is_float() {
                    let ity = cl::Type::int(ty.bits() as u16).unwrap_or(clt::I32);
                    x = self.b.ins().bitcast(ity, mem(), x);
                }
                self.b.ins().atomic_store(mem(), x, p);
                None
            }
            Op::Fence(..) => {
                self.b.ins().fence();
                None
            }
            _ => unreachable!("{op:?} is not atomic"),
        })
    }

    /// A call: to a function compiled out of line, or to a library function (`libcalls`),
    /// with its result if it has one.
    fn call(
        &mut self,
        inst: Inst,
        callee: Func,
        args: &[Value],
    ) -> Result<Option<Vec<cl::Value>>, CompileError> {
        if !self.module.funcs[callee].is_declaration() {
            self.call_out_of_line(inst, callee, args)?;
            return Ok(None);
        }
        let name = self.module.funcs[callee].name.clone();
        if let Some(r) = self.address_space_query(&name, args)? {
            return Ok(Some(vec![r]));
        }
        let Some(lib) = self.libcalls.get(&name) else {
            return err(format!(
                "call to @{name}: the CPU device has no library function of that name"
            ));
        };
        let fref = self.jit.declare_func_in_func(lib.id, self.b.func);
        let mut arg_vals = Vec::new();
        for &a in args {
            arg_vals.push(self.get(a)?);
        }
        let spaces: Vec<Option<ferrocl_ir::AddrSpace>> = self.module.funcs[callee]
            .sig
            .params
            .iter()
            .map(|t| t.addr_space())
            .collect();
        // Pointer arguments are confined as the kernel's own accesses would be.
        let call_args: Vec<cl::Value> = arg_vals
            .iter()
            .zip(&spaces)
            .map(|(vals, space)| match space {
                Some(space) => self.confine(vals[0], *space),
                None => vals[0],
            })
            .collect();
        let call = self.b.ins().call(fref, &call_args);
        Ok(self.b.inst_results(call).first().map(|&r| vec![r]))
    }

    /// The address-space queries of OpenCL C 6.15.10 on a generic pointer, which on the CPU
    /// device is a plain address: `to_local` and `to_private` test whether it lies in this
    /// work-group's local region or private region (the frames of its work-items), `to_global`
    /// whether it is neither and not NULL, each giving the pointer or NULL ("Returns a pointer
    /// that points to a region in the global address space if to_global can cast ptr to the
    /// global address space. Otherwise it returns NULL."); `get_fence` gives
    /// `CLK_LOCAL_MEM_FENCE` for a local address and `CLK_GLOBAL_MEM_FENCE` otherwise ("a
    /// valid memory fence value for ptr"). `None` for any other callee.
    fn address_space_query(
        &mut self,
        name: &str,
        args: &[Value],
    ) -> Result<Option<cl::Value>, CompileError> {
        if !matches!(name, "to_global" | "to_local" | "to_private" | "get_fence") || args.len() != 1
        {
            return Ok(None);
        }
        let p = self.get1(args[0])?;
        let inside = |t: &mut Self, space| t.inside(p, space);
        let local = inside(self, ferrocl_ir::AddrSpace::Local);
        let zero = self.b.ins().iconst(clt::I64, 0);
        let r = match name {
            "to_local" => self.b.ins().select(local, p, zero),
            "to_private" => {
                let private = inside(self, ferrocl_ir::AddrSpace::Private);
                self.b.ins().select(private, p, zero)
            }
            "to_global" => {
                let private = inside(self, ferrocl_ir::AddrSpace::Private);
                let named = self.b.ins().bor(local, private);
                self.b.ins().select(named, zero, p)
            }
            _ => {
                // CLK_LOCAL_MEM_FENCE is 1 and CLK_GLOBAL_MEM_FENCE 2, as the compiler defines
                // them (ferrocl-clc's predefined macros).
                let one = self.b.ins().iconst(clt::I32, 1);
                let two = self.b.ins().iconst(clt::I32, 2);
                self.b.ins().select(local, one, two)
            }
        };
        Ok(Some(r))
    }

    /// A terminator: a jump, a conditional branch or a switch (with an edge block for each
    /// target that takes arguments), a return, or `unreachable` (a trap).
    fn terminator(&mut self, inst: Inst, op: &Op, args: &[Value]) -> Result<(), CompileError> {
        match op {
            Op::Jump(dest) => {
                self.pass_args(dest)?;
                let target = self.block(dest.block);
                self.b.ins().jump(target, &[]);
            }
            Op::Brif(dests) => {
                let (t, e) = (&dests.0, &dests.1);
                let c = self.get1(args[0])?;
                let mut pending = Vec::new();
                let (tb, eb) = (self.edge(t, &mut pending), self.edge(e, &mut pending));
                if self.exits_first.contains(inst) {
                    let not = self.negated(c);
                    self.b.ins().brif(not, eb, &[], tb, &[]);
                } else {
                    self.b.ins().brif(c, tb, &[], eb, &[]);
                }
                self.fill_edges(pending)?;
            }
            Op::Switch(table) => {
                let x = self.get1(args[0])?;
                let mut pending = Vec::new();
                let default = self.edge(&table.default, &mut pending);
                let mut switch = Switch::new();
                for (value, dest) in &table.cases {
                    let block = self.edge(dest, &mut pending);
                    switch.set_entry(u128::from(*value), block);
                }
                switch.emit(&mut self.b, x, default);
                self.fill_edges(pending)?;
            }
            Op::Return => self.ret(args)?,
            Op::Unreachable => {
                self.b.ins().trap(cl::TrapCode::unwrap_user(1));
            }
            _ => unreachable!("{op:?} is not a terminator"),
        }
        Ok(())
    }

    /// The negation of condition `c`: the opposite comparison where `c` is a comparison (a
    /// branch on it then compares once), `c == 0` otherwise.
    fn negated(&mut self, c: cl::Value) -> cl::Value {
        let dfg = &self.b.func.dfg;
        if let Some(i) = dfg.value_def(c).inst() {
            match dfg.insts[i] {
                cl::InstructionData::IntCompare { cond, args, .. } => {
                    return self.b.ins().icmp(cond.complement(), args[0], args[1]);
                }
                cl::InstructionData::FloatCompare { cond, args, .. } => {
                    return self.b.ins().fcmp(cond.complement(), args[0], args[1]);
                }
                _ => {}
            }
        }
        self.b.ins().icmp_imm_u(CIntCC::Equal, c, 0)
    }

    /// Confines an address in `space` to memory the kernel owns: a `__local` address is masked
    /// into the work-group's local region and a `__private` one into its private region, so
    /// an out-of-bounds index wraps inside the region instead of reaching the runtime's memory
    /// (the regions are followed by padding for the widest access that starts in them).
    fn confine(&mut self, p: cl::Value, space: ferrocl_ir::AddrSpace) -> cl::Value {
        let Some((base, mask)) = self.region(space) else {
            return p;
        };
        // The region is aligned to its size: its base has no bit of the mask set, so adding the
        // offset is or-ing it, and the add folds into the access's address.
        let off = self.b.ins().band(p, mask);
        self.b.ins().iadd(base, off)
    }

    /// Whether address `p` lies in the region of `space` (`__local` or `__private`). The region
    /// is aligned to its size (a power of two): an address is inside when its bits above the
    /// mask are the base's.
    fn inside(&mut self, p: cl::Value, space: ferrocl_ir::AddrSpace) -> cl::Value {
        let (base, mask) = self.region(space).expect("a confined space");
        let high = self.b.ins().band_not(p, mask);
        self.b.ins().icmp(CIntCC::Equal, high, base)
    }

    /// A generic address that comes from a `__local` or a `__private` pointer and nothing else
    /// (`ferrocl_ir::passes::spaces::mixed_local_private`), confined like either: into the
    /// local region where it lies in it, into the private region otherwise. An address out of
    /// range of its `__local` object, outside the local region, so stays inside the private
    /// region, as out-of-range accesses through named pointers stay inside theirs.
    fn confine_local_or_private(&mut self, p: cl::Value) -> cl::Value {
        let local = self.inside(p, ferrocl_ir::AddrSpace::Local);
        let l = self.confine(p, ferrocl_ir::AddrSpace::Local);
        let q = self.confine(p, ferrocl_ir::AddrSpace::Private);
        self.b.ins().select(local, l, q)
    }

    /// The base and mask of the region that `space` (`__local` or `__private`) is confined to.
    fn region(&self, space: ferrocl_ir::AddrSpace) -> Option<(cl::Value, cl::Value)> {
        let (base, mask) = match space {
            ferrocl_ir::AddrSpace::Local => (offsets::LOCAL_MEM, offsets::LOCAL_MASK),
            ferrocl_ir::AddrSpace::Private => (offsets::PRIVATE_MEM, offsets::PRIVATE_MASK),
            _ => return None,
        };
        Some((self.regions[&base], self.regions[&mask]))
    }

    /// `p`, a `__local` or `__private` address, clamped to within [`CLAMP_WINDOW`] bytes of
    /// its region: unchanged there, so that an address at a constant offset from it (at most
    /// the window) is exactly the address the kernel computed wherever that lies in the region,
    /// and inside the padding around the region wherever it does not. One clamp serves every
    /// access made from `p` in the block.
    fn clamped(
        &mut self,
        p: Value,
        space: ferrocl_ir::AddrSpace,
    ) -> Result<cl::Value, CompileError> {
        let here = self.b.current_block().expect("in a block");
        if let Some((at, c)) = self.clamps[p] {
            if at == here {
                return Ok(c);
            }
        }
        let (start, span) = match space {
            ferrocl_ir::AddrSpace::Local => (offsets::LOCAL_WINDOW, offsets::LOCAL_WINDOW_SPAN),
            _ => (offsets::PRIVATE_WINDOW, offsets::PRIVATE_WINDOW_SPAN),
        };
        let (start, span) = (self.regions[&start], self.regions[&span]);
        // One unsigned comparison: an address below the window wraps to a large offset and
        // is clamped, like one above it, to the window's end (inside the padding). The
        // window's bounds come from the group context, loaded once: computed here from the
        // region's they would be recomputed at each use (Cranelift rematerializes an add of
        // a constant).
        let x = self.get1(p)?;
        let off = self.b.ins().isub(x, start);
        let off = self.b.ins().umin(off, span);
        let c = self.b.ins().iadd(start, off);
        self.clamps[p] = Some((here, c));
        Ok(c)
    }

    /// The shared address (`shared_bases`) an access through `ptr` is made from, with its
    /// offset from it.
    fn shared_base(&self, ptr: Value) -> Option<(Value, i64)> {
        let dfg = &self.f.dfg;
        let ptr = dfg.resolve(ptr);
        if self.shared.contains(ptr) {
            return Some((ptr, 0));
        }
        let (q, k) = constant_offset(self.f, ptr)?;
        self.shared.contains(q).then_some((q, k))
    }

    /// The address space an access of `bytes` bytes through `ptr` with `flags` must be confined
    /// to, or `None` when it needs no confining: a trusted access (the work-group transform's
    /// of its context memory) stays in its memory by construction, and an access at a constant
    /// offset inside a stack slot or a program-scope `__local` variable (`slotaddr` or
    /// `globaladdr`, then `ptradd` of constants) cannot leave it.
    fn space_to_confine(
        &self,
        flags: &MemFlags,
        ptr: Value,
        bytes: u32,
    ) -> Option<ferrocl_ir::AddrSpace> {
        let space = flags.space;
        if !matches!(
            space,
            ferrocl_ir::AddrSpace::Private | ferrocl_ir::AddrSpace::Local
        ) {
            return Some(space);
        }
        if flags.trusted {
            return None;
        }
        let Some((base, offset)) = address::constant_base(self.f, ptr) else {
            return Some(space);
        };
        let size = match &self.f.dfg.insts[base].op {
            Op::SlotAddr(ss) if space == ferrocl_ir::AddrSpace::Private => {
                self.f.slots.get(*ss).map_or(0, |d| i64::from(d.size))
            }
            Op::GlobalAddr(g) => match self.module.globals.get(*g) {
                Some(d) if d.space == space => i64::from(d.size),
                _ => 0,
            },
            _ => 0,
        };
        (offset < 0 || offset + i64::from(bytes) > size).then_some(space)
    }

    fn ctx(&mut self, field: i32, d: u8) -> cl::Value {
        self.b
            .ins()
            .load(clt::I64, ctx_mem(), self.grp, field + 8 * i32::from(d))
    }

    fn work_item(&mut self, op: WorkItemOp, d: u8) -> Result<cl::Value, CompileError> {
        Ok(match op {
            WorkItemOp::WorkDim => self.ctx(offsets::WORK_DIM, 0),
            WorkItemOp::GlobalSize => self.ctx(offsets::GLOBAL_SIZE, d),
            WorkItemOp::LocalSize => self.ctx(offsets::LOCAL_SIZE, d),
            WorkItemOp::EnqueuedLocalSize => self.ctx(offsets::ENQUEUED_LOCAL_SIZE, d),
            WorkItemOp::NumGroups => self.ctx(offsets::NUM_GROUPS, d),
            WorkItemOp::GroupId => self.ctx(offsets::GROUP_ID, d),
            WorkItemOp::GlobalOffset => self.ctx(offsets::GLOBAL_OFFSET, d),
            WorkItemOp::LocalId
            | WorkItemOp::GlobalId
            | WorkItemOp::GlobalLinearId
            | WorkItemOp::LocalLinearId
            | WorkItemOp::SubGroupLocalId
            | WorkItemOp::SubGroupId
            | WorkItemOp::SubGroupSize => {
                return err(format!(
                    "{} outside a work-item loop (the work-group transform replaces it)",
                    op.name()
                ))
            }
            // Sub-groups of crate::SUB_GROUP_SIZE work-items in linear local id order
            // (the work-group transform computes the per-work-item sub-group queries).
            WorkItemOp::MaxSubGroupSize => {
                let n = self.local_linear_size(offsets::ENQUEUED_LOCAL_SIZE);
                let full = self
                    .b
                    .ins()
                    .iconst(clt::I64, i64::from(crate::SUB_GROUP_SIZE));
                self.b.ins().umin(n, full)
            }
            WorkItemOp::NumSubGroups | WorkItemOp::EnqueuedNumSubGroups => {
                let field = if op == WorkItemOp::NumSubGroups {
                    offsets::LOCAL_SIZE
                } else {
                    offsets::ENQUEUED_LOCAL_SIZE
                };
                let n = self.local_linear_size(field);
                let n = self
                    .b
                    .ins()
                    .iadd_imm_s(n, i64::from(crate::SUB_GROUP_SIZE) - 1);
                self.b
                    .ins()
                    .ushr_imm_u(n, i64::from(crate::SUB_GROUP_SIZE.trailing_zeros()))
            }
        })
    }

    /// The product of the three sizes at group-context `field` (the local or the enqueued
    /// local size).
    fn local_linear_size(&mut self, field: i32) -> cl::Value {
        let (s0, s1, s2) = (self.ctx(field, 0), self.ctx(field, 1), self.ctx(field, 2));
        let t = self.b.ins().imul(s0, s1);
        self.b.ins().imul(t, s2)
    }
}

/// A `ptradd` offset of 64-bit integers as `Σ c·t + k` (its sums, differences and products
/// and shifts by constants taken apart, the other values its terms `t`), the terms in order
/// of the loop depth of their definitions (`depth`), outermost first; `None` where that is
/// the offset itself (no sum or constant to take apart), or where it has over 6 terms.
fn linear_offset(
    f: &Function,
    offset: Value,
    depth: &SecondaryMap<Block, u32>,
) -> Option<(Vec<(Value, i64)>, i64)> {
    fn walk(
        f: &Function,
        v: Value,
        scale: i64,
        level: u32,
        terms: &mut Vec<(Value, i64)>,
        k: &mut i64,
    ) {
        let dfg = &f.dfg;
        let v = dfg.resolve(v);
        if let Some(c) = dfg.iconst_value(v) {
            *k = k.wrapping_add((c as i64).wrapping_mul(scale));
            return;
        }
        let def = match dfg.value_def(v) {
            ferrocl_ir::ValueDef::Result(i) if level < 6 => Some(&dfg.insts[i]),
            _ => None,
        };
        let konst = |x: Value| dfg.iconst_value(x).map(|c| c as i64);
        match def.map(|d| (&d.op, &d.args[..])) {
            Some((Op::Binary(ferrocl_ir::BinaryOp::Iadd), [a, b])) => {
                walk(f, *a, scale, level + 1, terms, k);
                walk(f, *b, scale, level + 1, terms, k);
            }
            Some((Op::Binary(ferrocl_ir::BinaryOp::Isub), [a, b])) => {
                walk(f, *a, scale, level + 1, terms, k);
                walk(f, *b, scale.wrapping_neg(), level + 1, terms, k);
            }
            Some((Op::Binary(ferrocl_ir::BinaryOp::Imul), [a, b])) if konst(*b).is_some() => {
                let c = konst(*b).unwrap_or(1);
                walk(f, *a, scale.wrapping_mul(c), level + 1, terms, k);
            }
            Some((Op::Binary(ferrocl_ir::BinaryOp::Imul), [a, b])) if konst(*a).is_some() => {
                let c = konst(*a).unwrap_or(1);
                walk(f, *b, scale.wrapping_mul(c), level + 1, terms, k);
            }
            Some((Op::Binary(ferrocl_ir::BinaryOp::Shl), [a, b]))
                if konst(*b).is_some_and(|s| (0..63).contains(&s)) =>
            {
                let c = 1i64 << konst(*b).unwrap_or(0);
                walk(f, *a, scale.wrapping_mul(c), level + 1, terms, k);
            }
            _ => match terms.iter_mut().find(|(t, _)| *t == v) {
                Some((_, c)) => *c = c.wrapping_add(scale),
                None => terms.push((v, scale)),
            },
        }
    }
    let dfg = &f.dfg;
    if dfg.value_type(offset) != Type::I64 {
        return None;
    }
    let mut terms = Vec::new();
    let mut k = 0i64;
    walk(f, offset, 1, 0, &mut terms, &mut k);
    terms.retain(|&(_, c)| c != 0);
    let whole = terms.len() == 1 && terms[0] == (dfg.resolve(offset), 1) && k == 0;
    if whole || terms.len() > 6 {
        return None;
    }
    let depth_of = |v: Value| {
        let b = match dfg.value_def(v) {
            ferrocl_ir::ValueDef::Result(i) => f.layout.inst_block(i),
            ferrocl_ir::ValueDef::Param(b, _) => Some(b),
            _ => None,
        };
        b.map_or(0, |b| depth[b])
    };
    terms.sort_by_key(|&(t, _)| depth_of(t));
    Some((terms, k))
}

/// `ptr` as `q + k` for a `ptradd` of a constant k within [`CLAMP_WINDOW`].
pub(crate) fn constant_offset(f: &Function, ptr: Value) -> Option<(Value, i64)> {
    ptradd_constant(f, ptr).filter(|&(_, k)| k.abs() <= CLAMP_WINDOW)
}

/// The `__local` and `__private` addresses through which, or at a constant offset from which,
/// three or more loads and stores are made (as the lanes of a gather or scatter are): each is
/// confined once by a clamp (`Translator::clamped`) instead of each access by a mask.
fn shared_bases(f: &Function) -> EntitySet<Value> {
    let mut uses: SecondaryMap<Value, u32> = SecondaryMap::new();
    for &b in f.layout.blocks() {
        for &i in f.layout.block_insts(b) {
            let data = &f.dfg.insts[i];
            let (ptr, flags) = match &data.op {
                Op::Load(flags) => (data.args[0], flags),
                Op::Store(flags) => (data.args[1], flags),
                _ => continue,
            };
            if !matches!(
                flags.space,
                ferrocl_ir::AddrSpace::Local | ferrocl_ir::AddrSpace::Private
            ) {
                continue;
            }
            let ptr = f.dfg.resolve(ptr);
            let q = constant_offset(f, ptr).map_or(ptr, |(q, _)| q);
            uses[q] += 1;
        }
    }
    uses.iter()
        .filter(|&(_, &n)| n >= 3)
        .map(|(q, _)| q)
        .collect()
}

/// The instruction results of `f` that are used only in their own block and in blocks placed
/// after it: translated in layout order, each is defined before its uses are translated, so
/// they use its Cranelift values as they are, without a variable for the SSA builder to
/// look up. (A result dominates its uses, so those values are the ones the builder would
/// find; a use in an unreachable block goes with the block, which Cranelift removes first.)
/// Variables cost the builder a map per variable as long as the function's blocks are many:
/// hashcat's 64-case buffer-shifting switch, 64,000 instructions, spent 3.5 s of 3.7 in the
/// translation, most of it clearing memory for those maps; block parameters keep theirs,
/// through which the builder merges the values a loop passes on unchanged.
fn direct_values(f: &Function) -> EntitySet<Value> {
    let mut place: SecondaryMap<Block, u32> = SecondaryMap::new();
    for (k, &b) in f.layout.blocks().iter().enumerate() {
        place[b] = k as u32;
    }
    let mut direct = EntitySet::new();
    for &b in f.layout.blocks() {
        for &i in f.layout.block_insts(b) {
            if let Some(r) = f.dfg.inst_result(i) {
                direct.insert(r);
            }
        }
    }
    for &b in f.layout.blocks() {
        for &i in f.layout.block_insts(b) {
            let data = &f.dfg.insts[i];
            let dests = data.op.dests().into_iter().flat_map(|d| d.args.iter());
            for &v in data.args.iter().chain(dests) {
                let early = match f.dfg.value_def(v) {
                    ferrocl_ir::ValueDef::Result(d) => {
                        f.layout.inst_block(d).is_none_or(|db| place[db] > place[b])
                    }
                    _ => false,
                };
                if early {
                    direct.remove(v);
                }
            }
        }
    }
    direct
}

/// How many times each value of `f` is the condition of a `select` of vectors.
fn select_condition_counts(f: &Function) -> SecondaryMap<Value, u32> {
    let mut conditions = SecondaryMap::new();
    for &b in f.layout.blocks() {
        for &i in f.layout.block_insts(b) {
            let data = &f.dfg.insts[i];
            if matches!(data.op, Op::Select) && f.dfg.value_type(data.args[0]).is_vector() {
                conditions[f.dfg.resolve(data.args[0])] += 1;
            }
        }
    }
    conditions
}

/// How many times each value of `f` is an operand of an instruction or a branch argument.
fn use_counts(f: &Function) -> SecondaryMap<Value, u32> {
    let mut uses = SecondaryMap::new();
    for &b in f.layout.blocks() {
        for &i in f.layout.block_insts(b) {
            let data = &f.dfg.insts[i];
            let dests = data.op.dests().into_iter().flat_map(|d| d.args.iter());
            for &v in data.args.iter().chain(dests) {
                uses[f.dfg.resolve(v)] += 1;
            }
        }
    }
    uses
}

impl Translator<'_, '_> {
    /// The factors `a`, `b` of the `fma` being translated in the order to give Cranelift: a
    /// constant or splatted factor second, else a factor that lives on second where the
    /// other is read for the last time here. x86-64's `vfmadd213` overwrites its first
    /// factor, which Cranelift copies first where it is still live, as a constant hoisted
    /// out of a loop is, the argument of a polynomial evaluated by Horner's rule
    /// (`q = fma(r, q, c)`: `r` goes on, `q` dies), or clpeak's chains `x = mad(y, x, y);
    /// y = mad(x, y, x)`, where each value is read three times and dies at its third; the
    /// product is the same either way (multiplication is commutative, and `fma` rounds once).
    fn fma_factors(&self, a: Value, b: Value) -> (Value, Value) {
        let f = self.f;
        let lasting = |v: Value| match f.dfg.value_def(f.dfg.resolve(v)) {
            ferrocl_ir::ValueDef::Result(i) => {
                matches!(f.dfg.insts[i].op, Op::Fconst(_) | Op::Vconst(_) | Op::Splat)
            }
            _ => false,
        };
        let last = self.current.map_or(0, |i| self.fma_last[i]);
        let dies = |v: Value, k: u8| last & (1 << k) != 0 || self.uses[f.dfg.resolve(v)] <= 1;
        let swap = match (lasting(a), lasting(b)) {
            (true, false) => true,
            (false, false) => !dies(a, 0) && dies(b, 1),
            _ => false,
        };
        if swap {
            (b, a)
        } else {
            (a, b)
        }
    }
}

/// For each `fma` of `f`, its factors (bit `k` for argument `k`) that are read there for the
/// last time: defined in its block (a value of a loop's body is new each trip; one defined
/// before the loop is read again on the next), read in no other block and by nothing after
/// it in its own.
fn fma_last_uses(f: &Function, uses: &SecondaryMap<Value, u32>) -> SecondaryMap<Inst, u8> {
    let mut last = SecondaryMap::new();
    // Each value `i` reads, an operand or a branch argument, as `use_counts` counts them.
    let reads = |i: Inst, count: &mut HashMap<Value, u32>| {
        let data = &f.dfg.insts[i];
        let dests = data.op.dests().into_iter().flat_map(|d| d.args.iter());
        for &v in data.args.iter().chain(dests) {
            *count.entry(f.dfg.resolve(v)).or_default() += 1;
        }
    };
    let (mut block_reads, mut seen) = (HashMap::new(), HashMap::new());
    for &b in f.layout.blocks() {
        let insts = f.layout.block_insts(b);
        if !insts.iter().any(|&i| f.dfg.insts[i].op == Op::Fma) {
            continue;
        }
        block_reads.clear();
        seen.clear();
        for &i in insts {
            reads(i, &mut block_reads);
        }
        let defined_here = |v: Value| match f.dfg.value_def(v) {
            ferrocl_ir::ValueDef::Result(d) => f.layout.inst_block(d) == Some(b),
            ferrocl_ir::ValueDef::Param(p, _) => p == b,
            _ => false,
        };
        for &i in insts {
            reads(i, &mut seen);
            if f.dfg.insts[i].op != Op::Fma {
                continue;
            }
            for k in 0..2 {
                let v = f.dfg.resolve(f.dfg.insts[i].args[k]);
                let here = block_reads[&v];
                if defined_here(v) && uses[v] == here && seen[&v] == here {
                    last[i] |= 1 << k;
                }
            }
        }
    }
    last
}
