//! Translation of a kernel from IR to a Cranelift function that runs one work-group.
//!
//! The generated function loops over the work-items of its group (`z`, `y`, `x`) around the
//! kernel body. A kernel with barriers becomes a small state machine (DESIGN.md, decision 4):
//! each barrier ends a region — the work-item stores the values live across it into its frame
//! and moves on to the next work-item; when all have reached the barrier, the loop starts over
//! and every work-item resumes after it, reloading those values. Barriers are reached in
//! work-group uniform control flow (OpenCL C 6.15.8), so all work-items stop at the same one.
//!
//! Every IR value is held in `cranelift_frontend::Variable`s: one for a scalar, one per
//! 128-bit SIMD part for a vector (`codegen/simd.rs`). The frontend's SSA construction then
//! joins definitions across the new edges (loop back-edges, resume points) without this
//! module computing any. Vector instructions with a SIMD form are selected in
//! `codegen/isel.rs`; the others are translated here lane by lane.

use std::collections::HashMap;

use cranelift_codegen::ir::condcodes::{FloatCC as CFloatCC, IntCC as CIntCC};
use cranelift_codegen::ir::immediates::{Ieee32, Ieee64};
use cranelift_codegen::ir::{self as cl, types as clt, InstBuilder, MemFlagsData as ClMemFlags};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Switch, Variable};
use ferrocl_ir::{
    Block, Dest, FloatCC, Function, Global, Inst, IntCC, Module, Op, StackSlot, Type, Value,
    WorkItemOp,
};

use cranelift_module::{FuncId, Module as _};

mod collective;
mod convert;
mod isel;
mod scalar;
mod simd;

use crate::abi::{arg_layout, offsets, ArgKind};
use crate::liveness::live_across_barriers;
use crate::CompileError;

/// What translation needs of the JIT module: the module itself (to import functions into the
/// kernel), the library functions the module's declarations resolve to, and the helpers.
pub struct Link<'a> {
    pub jit: &'a mut cranelift_jit::JITModule,
    pub libcalls: &'a HashMap<String, LibCall>,
    pub helpers: &'a Helpers,
}

/// The runtime's own helper functions, declared in the JIT module.
pub struct Helpers {
    /// half_to_float, half_to_double, float_to_half, double_to_half (`half.rs`).
    pub half: [FuncId; 4],
}

/// A declared builtin resolved to a library function of the JIT module.
pub struct LibCall {
    pub id: FuncId,
}

/// Where a module global lives when the kernel runs.
#[derive(Clone, Copy, Debug)]
pub enum GlobalPlace {
    /// A fixed address (program-scope `__global` and `__constant` data).
    Absolute(u64),
    /// An offset in the work-group's local memory (`__local` variables).
    Local(u64),
}

/// What the translation found out about the kernel.
pub struct Translated {
    /// Bytes of per-work-item frame memory the kernel needs: its stack slots and the values
    /// live across barriers.
    pub frame_size: usize,
}

const END: i64 = -1;

fn err<T>(message: impl Into<String>) -> Result<T, CompileError> {
    Err(CompileError(message.into()))
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
        // Held as its bits: half values are only loaded, stored and converted (vload_half,
        // vstore_half), through the conversions of `half.rs`.
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

/// Reads of the group context and argument block: aligned, never faulting, never written
/// while the kernel runs.
fn ctx_mem() -> ClMemFlags {
    ClMemFlags::trusted().with_readonly()
}

/// Translates kernel `f` of `module` into `func`, whose signature the caller has set to
/// `(args: i64, group: i64, frames: i64)`.
pub fn translate_kernel(
    module: &Module,
    f: &Function,
    places: &HashMap<Global, GlobalPlace>,
    func: &mut cl::Function,
    fbc: &mut FunctionBuilderContext,
    link: Link<'_>,
) -> Result<Translated, CompileError> {
    let Link {
        jit,
        libcalls,
        helpers,
    } = link;
    let frontend = jit.isa().frontend_config();
    let live = live_across_barriers(f);

    // The frame: private stack slots, then values live across barriers. Slots live in the
    // frame, not on the native stack, even without barriers: the frame is in the masked
    // private region, so a wild private index cannot reach the thread's stack.
    let mut frame_size = 0u32;
    let mut alloc = |size: u32, align: u32| {
        let align = align.max(1);
        let at = frame_size.div_ceil(align) * align;
        frame_size = at + size;
        at
    };
    let mut slots = HashMap::new();
    for (ss, data) in f.slots.iter() {
        slots.insert(ss, alloc(data.size, data.align));
    }
    let mut spill_off = HashMap::new();
    let mut barrier_ids = HashMap::new();
    let mut barriers: Vec<Inst> = live.keys().copied().collect();
    barriers.sort();
    for (i, &b) in barriers.iter().enumerate() {
        barrier_ids.insert(b, i as u32 + 1);
        for &v in &live[&b] {
            if let std::collections::hash_map::Entry::Vacant(e) = spill_off.entry(v) {
                let t = f.dfg.value_type(v);
                let lane = lane_ty(t)?.bytes();
                e.insert(alloc(lane * t.lanes(), lane));
            }
        }
    }
    let group_slots = collective::frame_slots(f, &mut alloc);
    let frame_size = frame_size.div_ceil(16) * 16;

    let b = FunctionBuilder::new(func, fbc);
    let mut t = Translator {
        module,
        jit,
        libcalls,
        helpers,
        f,
        places,
        b,
        vars: HashMap::new(),
        blocks: HashMap::new(),
        slots,
        spill_off,
        live,
        barrier_ids,
        group_slots,
        resume: Vec::new(),
        mask_bits: simd::MaskBits::new(),
        lid: [Variable::from_u32(0); 3],
        next: Variable::from_u32(0),
        frame_base: Variable::from_u32(0),
        wi_latch: cl::Block::from_u32(0),
        grp: cl::Value::from_u32(0),
        frames: cl::Value::from_u32(0),
        frame_size: i64::from(frame_size),
    };
    t.run()?;
    t.b.finalize(frontend);
    Ok(Translated {
        frame_size: frame_size as usize,
    })
}

struct Translator<'a, 'f> {
    module: &'a Module,
    jit: &'a mut cranelift_jit::JITModule,
    libcalls: &'a HashMap<String, LibCall>,
    helpers: &'a Helpers,
    f: &'a Function,
    places: &'a HashMap<Global, GlobalPlace>,
    b: FunctionBuilder<'f>,
    vars: HashMap<Value, Vec<Variable>>,
    blocks: HashMap<Block, cl::Block>,
    /// Each stack slot's offset in the work-item's frame.
    slots: HashMap<StackSlot, u32>,
    spill_off: HashMap<Value, u32>,
    live: HashMap<Inst, Vec<Value>>,
    barrier_ids: HashMap<Inst, u32>,
    /// Each work-group collective's operand slot in the frames (codegen/collective.rs).
    group_slots: HashMap<Inst, u32>,
    resume: Vec<(u32, cl::Block)>,
    /// Each `i1` vector's mask lane width (codegen/simd.rs).
    mask_bits: simd::MaskBits,
    lid: [Variable; 3],
    next: Variable,
    frame_base: Variable,
    wi_latch: cl::Block,
    grp: cl::Value,
    frames: cl::Value,
    frame_size: i64,
}

impl Translator<'_, '_> {
    fn run(&mut self) -> Result<(), CompileError> {
        let f = self.f;
        let entry = self.b.create_block();
        self.b.append_block_params_for_function_params(entry);
        self.b.switch_to_block(entry);
        let params = self.b.block_params(entry).to_vec();
        let (args, grp, frames) = (params[0], params[1], params[2]);
        self.grp = grp;
        self.frames = frames;

        // Kernel arguments, loaded once from the argument block.
        let Some(ir_entry) = f.layout.entry_block() else {
            return err(format!("kernel {} has no body", f.name));
        };
        let (layout, _) = arg_layout(&f.sig.params);
        let local_mem = self
            .b
            .ins()
            .load(clt::I64, ctx_mem(), grp, offsets::LOCAL_MEM);
        for (&param, arg) in f.dfg.block_params(ir_entry).iter().zip(&layout) {
            if let Some(parts) = self.load_vector_arg(param, args, arg.offset as i32)? {
                self.set_parts(param, parts)?;
                continue;
            }
            let ty = lane_ty(arg.ty)?;
            let lanes = arg.ty.lanes() as i32;
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
                ArgKind::ByRef => {
                    let private_mem =
                        self.b
                            .ins()
                            .load(clt::I64, ctx_mem(), grp, offsets::PRIVATE_MEM);
                    vals[0] = self.b.ins().iadd(vals[0], private_mem);
                }
                ArgKind::Value | ArgKind::Buffer => {}
            }
            self.set(param, vals)?;
        }

        // The work-item loops.
        let size = |b: &mut FunctionBuilder, d: i32| {
            b.ins()
                .load(clt::I64, ctx_mem(), grp, offsets::LOCAL_SIZE + 8 * d)
        };
        let ls = [
            size(&mut self.b, 0),
            size(&mut self.b, 1),
            size(&mut self.b, 2),
        ];
        let state = self.b.declare_var(clt::I64);
        self.next = self.b.declare_var(clt::I64);
        self.frame_base = self.b.declare_var(clt::I64);
        for d in 0..3 {
            self.lid[d] = self.b.declare_var(clt::I64);
        }
        let zero = self.b.ins().iconst(clt::I64, 0);
        self.b.def_var(state, zero);
        self.b.def_var(self.next, zero);

        let outer = self.b.create_block();
        let heads = [
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        ];
        let incs = [
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        ];
        let wi_start = self.b.create_block();
        let dispatch = self.b.create_block();
        let outer_latch = self.b.create_block();
        let exit = self.b.create_block();
        self.wi_latch = incs[0];
        self.b.ins().jump(outer, &[]);

        // outer: z = 0
        self.b.switch_to_block(outer);
        let z0 = self.b.ins().iconst(clt::I64, 0);
        self.b.def_var(self.lid[2], z0);
        self.b.ins().jump(heads[2], &[]);
        // Dimension d's head: if id < size, start dimension d-1 (or the work-item), else
        // advance dimension d+1 (or leave the region).
        for d in (0..3).rev() {
            self.b.switch_to_block(heads[d]);
            let id = self.b.use_var(self.lid[d]);
            let more = self.b.ins().icmp(CIntCC::UnsignedLessThan, id, ls[d]);
            let inner = self.b.create_block();
            let done = if d == 2 { outer_latch } else { incs[d + 1] };
            self.b.ins().brif(more, inner, &[], done, &[]);
            self.b.switch_to_block(inner);
            if d > 0 {
                let z = self.b.ins().iconst(clt::I64, 0);
                self.b.def_var(self.lid[d - 1], z);
                self.b.ins().jump(heads[d - 1], &[]);
            } else {
                self.b.ins().jump(wi_start, &[]);
            }
            self.b.switch_to_block(incs[d]);
            let id = self.b.use_var(self.lid[d]);
            let id1 = self.b.ins().iadd_imm_s(id, 1);
            self.b.def_var(self.lid[d], id1);
            self.b.ins().jump(heads[d], &[]);
        }
        // wi_start: this work-item's frame.
        self.b.switch_to_block(wi_start);
        let (x, y, z) = (
            self.b.use_var(self.lid[0]),
            self.b.use_var(self.lid[1]),
            self.b.use_var(self.lid[2]),
        );
        let zy = self.b.ins().imul(z, ls[1]);
        let zy = self.b.ins().iadd(zy, y);
        let lin = self.b.ins().imul(zy, ls[0]);
        let lin = self.b.ins().iadd(lin, x);
        let off = self.b.ins().imul_imm_s(lin, self.frame_size);
        let base = self.b.ins().iadd(frames, off);
        self.b.def_var(self.frame_base, base);
        self.b.ins().jump(dispatch, &[]);
        // outer_latch: the region is done for every work-item.
        self.b.switch_to_block(outer_latch);
        let n = self.b.use_var(self.next);
        self.b.def_var(state, n);
        let finished = self.b.ins().icmp_imm_s(CIntCC::Equal, n, END);
        self.b.ins().brif(finished, exit, &[], outer, &[]);
        self.b.switch_to_block(exit);
        self.b.ins().return_(&[]);

        // The kernel's blocks.
        for &blk in f.layout.blocks() {
            let cb = self.b.create_block();
            self.blocks.insert(blk, cb);
        }
        for &blk in f.layout.blocks() {
            self.b.switch_to_block(self.blocks[&blk]);
            for &inst in f.layout.block_insts(blk) {
                self.inst(inst)?;
            }
        }

        // dispatch: region 0 starts at the kernel's entry, region k after barrier k.
        self.b.switch_to_block(dispatch);
        let s = self.b.use_var(state);
        let mut switch = Switch::new();
        for &(k, block) in &self.resume {
            switch.set_entry(k as u128, block);
        }
        let start = self.blocks[&ir_entry];
        if self.resume.is_empty() {
            self.b.ins().jump(start, &[]);
        } else {
            switch.emit(&mut self.b, s, start);
        }
        self.b.seal_all_blocks();
        Ok(())
    }

    fn vars_of(&mut self, v: Value) -> Result<Vec<Variable>, CompileError> {
        if let Some(vars) = self.vars.get(&v) {
            return Ok(vars.clone());
        }
        let ty = match self.repr(v)? {
            simd::Repr::Lanes { ty, .. } => ty,
            simd::Repr::Simd { part, .. } => part,
        };
        let n = self.repr(v)?.count();
        let vars: Vec<Variable> = (0..n).map(|_| self.b.declare_var(ty)).collect();
        self.vars.insert(v, vars.clone());
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
        let target = self.blocks[&dest.block];
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
            self.b.switch_to_block(edge);
            self.pass_args(&dest)?;
            self.b.ins().jump(self.blocks[&dest.block], &[]);
        }
        Ok(())
    }

    fn end_work_item(&mut self, next: i64) {
        let n = self.b.ins().iconst(clt::I64, next);
        self.b.def_var(self.next, n);
        self.b.ins().jump(self.wi_latch, &[]);
    }

    fn zero(&mut self, ty: cl::Type) -> cl::Value {
        match ty {
            clt::F32 => self.b.ins().f32const(0.0),
            clt::F64 => self.b.ins().f64const(0.0),
            _ => self.b.ins().iconst(ty, 0),
        }
    }

    fn inst(&mut self, inst: Inst) -> Result<(), CompileError> {
        if self.simd_inst(inst)? {
            return Ok(());
        }
        let data = &self.f.dfg.insts[inst];
        let args = data.args.clone();
        let result = self.f.dfg.inst_result(inst);
        let rty = result.map(|r| self.f.dfg.value_type(r));
        let lanes = rty.map_or(1, |t| t.lanes() as usize);
        let lty = match rty {
            Some(t) => Some(lane_ty(t)?),
            None => None,
        };
        let vals: Option<Vec<cl::Value>> = match &data.op {
            Op::Iconst(bits) => {
                let ty = lty.unwrap_or(clt::I64);
                let mask = if rty.is_some_and(|t| t.lane_type() == Type::I1) {
                    1
                } else if ty.bits() >= 64 {
                    u64::MAX
                } else {
                    (1u64 << ty.bits()) - 1
                };
                let v = self.b.ins().iconst(ty, (bits & mask) as i64);
                Some(vec![v; lanes])
            }
            Op::Fconst(bits) => {
                let v = match lty {
                    Some(clt::F32) => self.b.ins().f32const(Ieee32::with_bits(*bits as u32)),
                    Some(clt::F64) => self.b.ins().f64const(Ieee64::with_bits(*bits)),
                    _ => return err("fconst of a type that is not a float"),
                };
                Some(vec![v; lanes])
            }
            Op::Vconst(lanes_bits) => {
                let ty = lty.unwrap_or(clt::I32);
                let is_bool = rty.is_some_and(|t| t.lane_type() == Type::I1);
                let mut out = Vec::with_capacity(lanes_bits.len());
                for &bits in lanes_bits.iter() {
                    out.push(match ty {
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
                Some(out)
            }
            Op::Null | Op::Undef => {
                let z = self.zero(lty.unwrap_or(clt::I64));
                Some(vec![z; lanes])
            }
            Op::Unary(op) => {
                let xs = self.get(args[0])?;
                let is_bool = rty.is_some_and(|t| t.lane_type() == Type::I1);
                let mut out = Vec::with_capacity(xs.len());
                for x in xs {
                    out.push(self.unary(*op, x, is_bool)?);
                }
                Some(out)
            }
            Op::Binary(op) => {
                let (xs, ys) = (self.get(args[0])?, self.get(args[1])?);
                let mut out = Vec::with_capacity(xs.len());
                for (x, y) in xs.into_iter().zip(ys) {
                    out.push(self.binary(*op, x, y));
                }
                Some(out)
            }
            Op::Fma => {
                let (a, b, c) = (self.get(args[0])?, self.get(args[1])?, self.get(args[2])?);
                Some(
                    (0..a.len())
                        .map(|i| self.b.ins().fma(a[i], b[i], c[i]))
                        .collect(),
                )
            }
            Op::Icmp(cc) => {
                let (xs, ys) = (self.get(args[0])?, self.get(args[1])?);
                Some(
                    xs.into_iter()
                        .zip(ys)
                        .map(|(x, y)| self.b.ins().icmp(int_cc(*cc), x, y))
                        .collect(),
                )
            }
            Op::Fcmp(cc) => {
                let (xs, ys) = (self.get(args[0])?, self.get(args[1])?);
                Some(
                    xs.into_iter()
                        .zip(ys)
                        .map(|(x, y)| self.b.ins().fcmp(float_cc(*cc), x, y))
                        .collect(),
                )
            }
            Op::Select => {
                let c = self.get(args[0])?;
                let (xs, ys) = (self.get(args[1])?, self.get(args[2])?);
                Some(
                    (0..xs.len())
                        .map(|i| {
                            self.b
                                .ins()
                                .select(c[if c.len() == 1 { 0 } else { i }], xs[i], ys[i])
                        })
                        .collect(),
                )
            }
            Op::Convert(conv) => {
                let src_t = self.f.dfg.value_type(args[0]);
                let xs = self.get(args[0])?;
                let (st, dt) = (
                    src_t.lane_type(),
                    rty.map(|t| t.lane_type()).unwrap_or(Type::I32),
                );
                let mut out = Vec::with_capacity(xs.len());
                for x in xs {
                    out.push(self.convert(*conv, x, st, dt)?);
                }
                Some(out)
            }
            Op::Bitcast => {
                let src_t = self.f.dfg.value_type(args[0]);
                let xs = self.get(args[0])?;
                Some(self.bitcast(xs, src_t, rty.unwrap_or(src_t))?)
            }
            Op::PtrToInt => {
                let x = self.get1(args[0])?;
                let ty = lty.unwrap_or(clt::I64);
                Some(vec![if ty == clt::I64 {
                    x
                } else {
                    self.b.ins().ireduce(ty, x)
                }])
            }
            Op::IntToPtr => {
                let x = self.get1(args[0])?;
                let sty = self.b.func.dfg.value_type(x);
                Some(vec![if sty == clt::I64 {
                    x
                } else {
                    self.b.ins().uextend(clt::I64, x)
                }])
            }
            Op::AddrCast => Some(self.get(args[0])?),
            Op::PtrAdd => {
                let p = self.get1(args[0])?;
                let mut o = self.get1(args[1])?;
                if self.b.func.dfg.value_type(o) != clt::I64 {
                    o = self.b.ins().sextend(clt::I64, o);
                }
                Some(vec![self.b.ins().iadd(p, o)])
            }
            Op::Splat => {
                let x = self.get1(args[0])?;
                Some(vec![x; lanes])
            }
            Op::ExtractLane(i) => Some(vec![self.get(args[0])?[*i as usize]]),
            Op::InsertLane(i) => {
                let mut v = self.get(args[0])?;
                v[*i as usize] = self.get1(args[1])?;
                Some(v)
            }
            Op::Shuffle(mask) => {
                let mut both = self.get(args[0])?;
                both.extend(self.get(args[1])?);
                Some(mask.iter().map(|&m| both[m as usize]).collect())
            }
            Op::Load(flags) => {
                let ty = lty.unwrap_or(clt::I32);
                let mut f = mem();
                if flags.align >= ty.bytes() {
                    f.set_aligned();
                }
                let p = self.access_addr(args[0], flags.space, lanes as u32 * ty.bytes())?;
                let mut out = Vec::with_capacity(lanes);
                for i in 0..lanes {
                    out.push(self.b.ins().load(ty, f, p, (i as u32 * ty.bytes()) as i32));
                }
                Some(out)
            }
            Op::Store(flags) => {
                let xs = self.get(args[0])?;
                let mut f = mem();
                let total = xs
                    .iter()
                    .map(|&x| self.b.func.dfg.value_type(x).bytes())
                    .sum();
                let p = self.access_addr(args[1], flags.space, total)?;
                for (i, x) in xs.into_iter().enumerate() {
                    let bytes = self.b.func.dfg.value_type(x).bytes();
                    if flags.align >= bytes {
                        f.set_aligned();
                    }
                    self.b.ins().store(f, x, p, (i as u32 * bytes) as i32);
                }
                None
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
                let old = if ty.is_float() {
                    let ity = cl::Type::int(ty.bits() as u16).unwrap_or(clt::I32);
                    let (ei, ri) = (
                        self.b.ins().bitcast(ity, mem(), e),
                        self.b.ins().bitcast(ity, mem(), r),
                    );
                    let o = self.b.ins().atomic_cas(mem(), p, ei, ri);
                    self.b.ins().bitcast(ty, mem(), o)
                } else {
                    self.b.ins().atomic_cas(mem(), p, e, r)
                };
                Some(vec![old])
            }
            Op::AtomicLoad(info) => {
                let p = self.get1(args[0])?;
                let p = self.confine(p, info.space);
                let ty = lty.unwrap_or(clt::I32);
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
            Op::Barrier(..) => {
                self.barrier(inst)?;
                None
            }
            // The CPU device's sub-group is the whole work-group (see `work_item`).
            Op::Group(g, _) => Some(vec![self.collective(inst, *g)?]),
            Op::WorkItem(op, d) => {
                let v = self.work_item(*op, *d)?;
                let ty = lty.unwrap_or(clt::I64);
                Some(vec![if ty == clt::I64 {
                    v
                } else {
                    self.b.ins().ireduce(ty, v)
                }])
            }
            Op::SlotAddr(ss) => Some(vec![match self.slots.get(ss) {
                Some(&off) => {
                    let base = self.b.use_var(self.frame_base);
                    self.b.ins().iadd_imm_s(base, i64::from(off))
                }
                None => return err(format!("unknown stack slot {ss}")),
            }]),
            Op::GlobalAddr(g) => Some(vec![match self.places.get(g) {
                Some(GlobalPlace::Absolute(addr)) => self.b.ins().iconst(clt::I64, *addr as i64),
                Some(GlobalPlace::Local(off)) => {
                    let base = self
                        .b
                        .ins()
                        .load(clt::I64, ctx_mem(), self.grp, offsets::LOCAL_MEM);
                    self.b.ins().iadd_imm_s(base, *off as i64)
                }
                None => return err(format!("unknown global {g}")),
            }]),
            Op::Call(callee) => {
                let name = self.module.funcs[*callee].name.clone();
                let Some(lib) = self.libcalls.get(&name) else {
                    return err(format!("call to @{name}: every call must be inlined or be a library function, and the CPU device has no library function of that name"));
                };
                let fref = self.jit.declare_func_in_func(lib.id, self.b.func);
                let mut arg_vals = Vec::new();
                for &a in &args {
                    arg_vals.push(self.get(a)?);
                }
                let spaces: Vec<Option<ferrocl_ir::AddrSpace>> = self.module.funcs[*callee]
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
                self.b.inst_results(call).first().map(|&r| vec![r])
            }
            Op::Jump(dest) => {
                let dest = dest.clone();
                self.pass_args(&dest)?;
                self.b.ins().jump(self.blocks[&dest.block], &[]);
                None
            }
            Op::Brif(dests) => {
                let (t, e) = (dests.0.clone(), dests.1.clone());
                let c = self.get1(args[0])?;
                let mut pending = Vec::new();
                let (tb, eb) = (self.edge(&t, &mut pending), self.edge(&e, &mut pending));
                self.b.ins().brif(c, tb, &[], eb, &[]);
                self.fill_edges(pending)?;
                None
            }
            Op::Switch(table) => {
                let table = table.clone();
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
                None
            }
            Op::Return | Op::Unreachable => {
                self.end_work_item(END);
                None
            }
        };
        if let (Some(r), Some(vals)) = (result, vals) {
            self.set(r, vals)?;
        }
        Ok(())
    }

    /// Ends the region at barrier `inst`: spills what lives across it, moves to the next
    /// work-item, and opens the block where every work-item resumes.
    fn barrier(&mut self, inst: Inst) -> Result<(), CompileError> {
        let k = self.barrier_ids[&inst];
        let live = self.live[&inst].clone();
        let base = self.b.use_var(self.frame_base);
        for &v in &live {
            let off = self.spill_off[&v] as i32;
            let vals = self.get(v)?;
            for (i, x) in vals.into_iter().enumerate() {
                let bytes = self.b.func.dfg.value_type(x).bytes() as i32;
                self.b
                    .ins()
                    .store(ClMemFlags::trusted(), x, base, off + i as i32 * bytes);
            }
        }
        self.end_work_item(i64::from(k));
        let resume = self.b.create_block();
        self.resume.push((k, resume));
        self.b.switch_to_block(resume);
        let base = self.b.use_var(self.frame_base);
        for &v in &live {
            let off = self.spill_off[&v] as i32;
            let t = self.f.dfg.value_type(v);
            let ty = lane_ty(t)?;
            let vals = (0..t.lanes() as i32)
                .map(|i| {
                    self.b
                        .ins()
                        .load(ty, ClMemFlags::trusted(), base, off + i * ty.bytes() as i32)
                })
                .collect();
            self.set(v, vals)?;
        }
        Ok(())
    }

    /// Confines an address in `space` to memory the kernel owns: a `__local` address is masked
    /// into the work-group's local region and a `__private` one into its private region, so
    /// an out-of-bounds index wraps inside the region instead of reaching the runtime's memory
    /// (the regions are followed by padding for the widest access that starts in them).
    fn confine(&mut self, p: cl::Value, space: ferrocl_ir::AddrSpace) -> cl::Value {
        let (base, mask) = match space {
            ferrocl_ir::AddrSpace::Local => (offsets::LOCAL_MEM, offsets::LOCAL_MASK),
            ferrocl_ir::AddrSpace::Private => (offsets::PRIVATE_MEM, offsets::PRIVATE_MASK),
            _ => return p,
        };
        // The region is aligned to its size: its base has no bit of the mask set.
        let base = self.b.ins().load(clt::I64, ctx_mem(), self.grp, base);
        let mask = self.b.ins().load(clt::I64, ctx_mem(), self.grp, mask);
        let off = self.b.ins().band(p, mask);
        self.b.ins().bor(base, off)
    }

    /// The address space an access of `bytes` bytes through `ptr` in `space` must be confined
    /// to, or `None` when it needs no confining: an access at a constant offset inside a stack
    /// slot or a program-scope `__local` variable (`slotaddr` or `globaladdr`, then `ptradd`
    /// of constants) cannot leave it.
    fn space_to_confine(
        &self,
        ptr: Value,
        space: ferrocl_ir::AddrSpace,
        bytes: u32,
    ) -> Option<ferrocl_ir::AddrSpace> {
        if !matches!(
            space,
            ferrocl_ir::AddrSpace::Private | ferrocl_ir::AddrSpace::Local
        ) {
            return Some(space);
        }
        let dfg = &self.f.dfg;
        let mut v = ptr;
        let mut offset = 0i64;
        // A short chain: deeper ones are confined anyway.
        for _ in 0..8 {
            let ferrocl_ir::ValueDef::Result(inst) = dfg.value_def(dfg.resolve(v)) else {
                break;
            };
            let data = &dfg.insts[inst];
            match &data.op {
                Op::SlotAddr(_) | Op::GlobalAddr(_) => {
                    let size = match &data.op {
                        Op::SlotAddr(ss) if space == ferrocl_ir::AddrSpace::Private => {
                            self.f.slots.get(*ss).map_or(0, |d| i64::from(d.size))
                        }
                        Op::GlobalAddr(g) => match self.module.globals.get(*g) {
                            Some(d) if d.space == space => i64::from(d.size),
                            _ => 0,
                        },
                        _ => 0,
                    };
                    if offset >= 0 && offset + i64::from(bytes) <= size {
                        return None;
                    }
                    break;
                }
                Op::PtrAdd => {
                    let o = dfg.resolve(data.args[1]);
                    let ferrocl_ir::ValueDef::Result(c) = dfg.value_def(o) else {
                        break;
                    };
                    let Op::Iconst(bits) = dfg.insts[c].op else {
                        break;
                    };
                    // The offset as the signed integer of its type.
                    let width = dfg.value_type(o).bits().clamp(1, 64);
                    let k = ((bits << (64 - width)) as i64) >> (64 - width);
                    offset = match offset.checked_add(k) {
                        Some(o) => o,
                        None => break,
                    };
                    v = data.args[0];
                }
                _ => break,
            }
        }
        Some(space)
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
            WorkItemOp::LocalId => self.b.use_var(self.lid[d as usize]),
            WorkItemOp::GlobalId => self.global_id(d, true),
            WorkItemOp::GlobalLinearId => {
                // 6.15.1: ((gz - oz) * gsy + (gy - oy)) * gsx + (gx - ox).
                let ids: Vec<cl::Value> = (0..3).map(|d| self.global_id(d, false)).collect();
                let (gs0, gs1) = (
                    self.ctx(offsets::GLOBAL_SIZE, 0),
                    self.ctx(offsets::GLOBAL_SIZE, 1),
                );
                let t = self.b.ins().imul(ids[2], gs1);
                let t = self.b.ins().iadd(t, ids[1]);
                let t = self.b.ins().imul(t, gs0);
                self.b.ins().iadd(t, ids[0])
            }
            WorkItemOp::LocalLinearId => {
                let (l0, l1, l2) = (
                    self.b.use_var(self.lid[0]),
                    self.b.use_var(self.lid[1]),
                    self.b.use_var(self.lid[2]),
                );
                let (s0, s1) = (
                    self.ctx(offsets::LOCAL_SIZE, 0),
                    self.ctx(offsets::LOCAL_SIZE, 1),
                );
                let t = self.b.ins().imul(l2, s1);
                let t = self.b.ins().iadd(t, l1);
                let t = self.b.ins().imul(t, s0);
                self.b.ins().iadd(t, l0)
            }
            // The CPU device runs a work-group's work-items one after another on one thread,
            // so a sub-group ("an implementation-defined grouping of work-items in a
            // work-group", OpenCL C 6.15.1) gains nothing from being smaller: each work-group
            // is one sub-group, of the group's size (CL_DEVICE_MAX_NUM_SUB_GROUPS is 1).
            WorkItemOp::SubGroupSize => self.local_linear_size(offsets::LOCAL_SIZE),
            WorkItemOp::MaxSubGroupSize => self.local_linear_size(offsets::ENQUEUED_LOCAL_SIZE),
            WorkItemOp::NumSubGroups | WorkItemOp::EnqueuedNumSubGroups => {
                self.b.ins().iconst(clt::I64, 1)
            }
            WorkItemOp::SubGroupId => self.b.ins().iconst(clt::I64, 0),
            WorkItemOp::SubGroupLocalId => self.work_item(WorkItemOp::LocalLinearId, 0)?,
        })
    }

    /// The product of the three sizes at group-context `field` (the local or the enqueued
    /// local size).
    fn local_linear_size(&mut self, field: i32) -> cl::Value {
        let (s0, s1, s2) = (self.ctx(field, 0), self.ctx(field, 1), self.ctx(field, 2));
        let t = self.b.ins().imul(s0, s1);
        self.b.ins().imul(t, s2)
    }

    /// `group_id * enqueued_local_size + local_id`, plus the global offset when asked.
    fn global_id(&mut self, d: u8, with_offset: bool) -> cl::Value {
        let g = self.ctx(offsets::GROUP_ID, d);
        let s = self.ctx(offsets::ENQUEUED_LOCAL_SIZE, d);
        let l = self.b.use_var(self.lid[d as usize]);
        let base = self.b.ins().imul(g, s);
        let id = self.b.ins().iadd(base, l);
        if with_offset {
            let o = self.ctx(offsets::GLOBAL_OFFSET, d);
            self.b.ins().iadd(id, o)
        } else {
            id
        }
    }
}
