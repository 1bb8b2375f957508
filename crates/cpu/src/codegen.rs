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
use cranelift_codegen::ir::{
    self as cl, types as clt, AtomicRmwOp, InstBuilder, MemFlagsData as ClMemFlags,
};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Switch, Variable};
use ferrocl_ir::{
    BinaryOp, Block, ConvOp, Dest, FloatCC, Function, Global, Inst, IntCC, Module, Op, RmwOp,
    Round, StackSlot, Type, UnaryOp, Value, WorkItemOp,
};

use cranelift_module::{FuncId, Module as _};

mod collective;
mod isel;
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
        Ok(self.to_lanes(parts, repr))
    }

    fn get1(&mut self, v: Value) -> Result<cl::Value, CompileError> {
        Ok(self.get(v)?[0])
    }

    /// Defines `v` from its lanes.
    fn set(&mut self, v: Value, vals: Vec<cl::Value>) -> Result<(), CompileError> {
        let repr = self.repr(v)?;
        let parts = self.from_lanes(vals, repr);
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

    fn unary(
        &mut self,
        op: UnaryOp,
        x: cl::Value,
        is_bool: bool,
    ) -> Result<cl::Value, CompileError> {
        let ty = self.b.func.dfg.value_type(x);
        let ins = self.b.ins();
        Ok(match op {
            UnaryOp::Ineg => ins.ineg(x),
            UnaryOp::Bnot if is_bool => ins.bxor_imm_s(x, 1),
            UnaryOp::Bnot => ins.bnot(x),
            UnaryOp::Clz | UnaryOp::Ctz | UnaryOp::Popcnt if ty.bits() < 32 => {
                // Counted in 32 bits: clz subtracts the added high zeros, ctz sees a sentinel
                // bit just above the value so that ctz(0) is the width.
                let w = ty.bits() as i64;
                let wide = self.b.ins().uextend(clt::I32, x);
                let r = match op {
                    UnaryOp::Clz => {
                        let c = self.b.ins().clz(wide);
                        self.b.ins().iadd_imm_s(c, w - 32)
                    }
                    UnaryOp::Ctz => {
                        let s = self.b.ins().bor_imm_s(wide, 1 << w);
                        self.b.ins().ctz(s)
                    }
                    _ => self.b.ins().popcnt(wide),
                };
                self.b.ins().ireduce(ty, r)
            }
            UnaryOp::Clz => ins.clz(x),
            UnaryOp::Ctz => ins.ctz(x),
            UnaryOp::Popcnt => ins.popcnt(x),
            UnaryOp::Fneg => ins.fneg(x),
            UnaryOp::Fabs => ins.fabs(x),
            UnaryOp::Sqrt => ins.sqrt(x),
            UnaryOp::Floor => ins.floor(x),
            UnaryOp::Ceil => ins.ceil(x),
            UnaryOp::Ftrunc => ins.trunc(x),
            UnaryOp::Nearest => ins.nearest(x),
        })
    }

    fn binary(&mut self, op: BinaryOp, x: cl::Value, y: cl::Value) -> cl::Value {
        let ty = self.b.func.dfg.value_type(x);
        match op {
            BinaryOp::Iadd => self.b.ins().iadd(x, y),
            BinaryOp::Isub => self.b.ins().isub(x, y),
            BinaryOp::Imul => self.b.ins().imul(x, y),
            BinaryOp::Smulhi | BinaryOp::Umulhi if ty == clt::I8 => {
                let signed = op == BinaryOp::Smulhi;
                let (a, b) = if signed {
                    (
                        self.b.ins().sextend(clt::I16, x),
                        self.b.ins().sextend(clt::I16, y),
                    )
                } else {
                    (
                        self.b.ins().uextend(clt::I16, x),
                        self.b.ins().uextend(clt::I16, y),
                    )
                };
                let p = self.b.ins().imul(a, b);
                let hi = self.b.ins().ushr_imm_s(p, 8);
                self.b.ins().ireduce(clt::I8, hi)
            }
            BinaryOp::Smulhi => self.b.ins().smulhi(x, y),
            BinaryOp::Umulhi => self.b.ins().umulhi(x, y),
            BinaryOp::Sdiv | BinaryOp::Srem => {
                // 6.5.1: division by zero and INT_MIN / -1 give unspecified values but must
                // not trap. Divide by 1 instead; INT_MIN / 1 is INT_MIN, the wrapped quotient,
                // and the remainder is 0, as for -1.
                let zero = self.b.ins().icmp_imm_s(CIntCC::Equal, y, 0);
                let minus1 = self.b.ins().icmp_imm_s(CIntCC::Equal, y, -1);
                let min = self
                    .b
                    .ins()
                    .icmp_imm_s(CIntCC::Equal, x, i64::MIN >> (64 - ty.bits()));
                let overflow = self.b.ins().band(minus1, min);
                let bad = self.b.ins().bor(zero, overflow);
                let one = self.b.ins().iconst(ty, 1);
                let d = self.b.ins().select(bad, one, y);
                if op == BinaryOp::Sdiv {
                    self.b.ins().sdiv(x, d)
                } else {
                    self.b.ins().srem(x, d)
                }
            }
            BinaryOp::Udiv | BinaryOp::Urem => {
                let zero = self.b.ins().icmp_imm_s(CIntCC::Equal, y, 0);
                let one = self.b.ins().iconst(ty, 1);
                let d = self.b.ins().select(zero, one, y);
                if op == BinaryOp::Udiv {
                    self.b.ins().udiv(x, d)
                } else {
                    self.b.ins().urem(x, d)
                }
            }
            BinaryOp::Smin => self.b.ins().smin(x, y),
            BinaryOp::Smax => self.b.ins().smax(x, y),
            BinaryOp::Umin => self.b.ins().umin(x, y),
            BinaryOp::Umax => self.b.ins().umax(x, y),
            BinaryOp::Band => self.b.ins().band(x, y),
            BinaryOp::Bor => self.b.ins().bor(x, y),
            BinaryOp::Bxor => self.b.ins().bxor(x, y),
            BinaryOp::Shl => self.b.ins().ishl(x, y),
            BinaryOp::Lshr => self.b.ins().ushr(x, y),
            BinaryOp::Ashr => self.b.ins().sshr(x, y),
            BinaryOp::Rotl => self.b.ins().rotl(x, y),
            BinaryOp::Fadd => self.b.ins().fadd(x, y),
            BinaryOp::Fsub => self.b.ins().fsub(x, y),
            BinaryOp::Fmul => self.b.ins().fmul(x, y),
            BinaryOp::Fdiv => self.b.ins().fdiv(x, y),
            BinaryOp::Fmin | BinaryOp::Fmax => {
                // fmin/fmax: "If one argument is a NaN, fmin() returns the other argument."
                let r = if op == BinaryOp::Fmin {
                    self.b.ins().fmin(x, y)
                } else {
                    self.b.ins().fmax(x, y)
                };
                let x_nan = self.b.ins().fcmp(CFloatCC::Unordered, x, x);
                let y_nan = self.b.ins().fcmp(CFloatCC::Unordered, y, y);
                let r = self.b.ins().select(x_nan, y, r);
                self.b.ins().select(y_nan, x, r)
            }
            BinaryOp::Copysign => self.b.ins().fcopysign(x, y),
        }
    }

    fn atomic_rmw(
        &mut self,
        op: RmwOp,
        p: cl::Value,
        x: cl::Value,
    ) -> Result<cl::Value, CompileError> {
        let ty = self.b.func.dfg.value_type(x);
        if ty.is_float() {
            let ity = cl::Type::int(ty.bits() as u16).unwrap_or(clt::I32);
            let xi = self.b.ins().bitcast(ity, mem(), x);
            let old = match op {
                RmwOp::Xchg => self
                    .b
                    .ins()
                    .atomic_rmw(ity, mem(), AtomicRmwOp::Xchg, p, xi),
                RmwOp::Add => {
                    // A compare-and-swap loop: add to the value seen, retry if it changed.
                    let first = self.b.ins().atomic_load(ity, mem(), p);
                    let lp = self.b.create_block();
                    let done = self.b.create_block();
                    self.b.append_block_param(lp, ity);
                    self.b.append_block_param(done, ity);
                    self.b.ins().jump(lp, &[first.into()]);
                    self.b.switch_to_block(lp);
                    let seen = self.b.block_params(lp)[0];
                    let f = self.b.ins().bitcast(ty, mem(), seen);
                    let sum = self.b.ins().fadd(f, x);
                    let new = self.b.ins().bitcast(ity, mem(), sum);
                    let got = self.b.ins().atomic_cas(mem(), p, seen, new);
                    let same = self.b.ins().icmp(CIntCC::Equal, got, seen);
                    self.b
                        .ins()
                        .brif(same, done, &[got.into()], lp, &[got.into()]);
                    self.b.switch_to_block(done);
                    self.b.block_params(done)[0]
                }
                _ => return err("atomic operation on a float other than exchange and add"),
            };
            return Ok(self.b.ins().bitcast(ty, mem(), old));
        }
        let op = match op {
            RmwOp::Xchg => AtomicRmwOp::Xchg,
            RmwOp::Add => AtomicRmwOp::Add,
            RmwOp::Sub => AtomicRmwOp::Sub,
            RmwOp::And => AtomicRmwOp::And,
            RmwOp::Or => AtomicRmwOp::Or,
            RmwOp::Xor => AtomicRmwOp::Xor,
            RmwOp::Smin => AtomicRmwOp::Smin,
            RmwOp::Smax => AtomicRmwOp::Smax,
            RmwOp::Umin => AtomicRmwOp::Umin,
            RmwOp::Umax => AtomicRmwOp::Umax,
        };
        Ok(self.b.ins().atomic_rmw(ty, mem(), op, p, x))
    }

    /// Reinterprets the bits of a value as another type of the same size, through memory when
    /// the lane shapes differ (the 3-lane vectors occupy 4 lanes, as in memory).
    fn bitcast(
        &mut self,
        xs: Vec<cl::Value>,
        from: Type,
        to: Type,
    ) -> Result<Vec<cl::Value>, CompileError> {
        let (fty, tty) = (lane_ty(from)?, lane_ty(to)?);
        if from.lanes() == to.lanes() {
            return Ok(xs
                .into_iter()
                .map(|x| {
                    if fty == tty {
                        x
                    } else {
                        self.b.ins().bitcast(tty, mem(), x)
                    }
                })
                .collect());
        }
        let size = (from.bytes().max(to.bytes())).max(16);
        let slot = self.b.create_sized_stack_slot(cl::StackSlotData::new(
            cl::StackSlotKind::ExplicitSlot,
            size,
            4,
        ));
        for (i, x) in xs.into_iter().enumerate() {
            self.b
                .ins()
                .stack_store(clt::I64, x, slot, (i as u32 * fty.bytes()) as i32);
        }
        Ok((0..to.lanes())
            .map(|i| {
                self.b
                    .ins()
                    .stack_load(clt::I64, tty, slot, (i * tty.bytes()) as i32)
            })
            .collect())
    }

    fn convert(
        &mut self,
        conv: ConvOp,
        x: cl::Value,
        st: Type,
        dt: Type,
    ) -> Result<cl::Value, CompileError> {
        if st == Type::F16 || dt == Type::F16 {
            return self.half_convert(conv, x, st, dt);
        }
        let sty = self.b.func.dfg.value_type(x);
        let dty = lane_ty(dt)?;
        Ok(match conv {
            ConvOp::Trunc if dt == Type::I1 => {
                let b = if sty == clt::I8 {
                    x
                } else {
                    self.b.ins().ireduce(clt::I8, x)
                };
                self.b.ins().band_imm_s(b, 1)
            }
            ConvOp::Trunc if sty == dty => x,
            ConvOp::Trunc => self.b.ins().ireduce(dty, x),
            ConvOp::Zext if sty == dty => x,
            ConvOp::Zext => self.b.ins().uextend(dty, x),
            ConvOp::Sext if st == Type::I1 => {
                // "i1 true becomes all ones".
                let w = if dty == sty {
                    x
                } else {
                    self.b.ins().uextend(dty, x)
                };
                self.b.ins().ineg(w)
            }
            ConvOp::Sext if sty == dty => x,
            ConvOp::Sext => self.b.ins().sextend(dty, x),
            ConvOp::SatInt {
                src_signed,
                dst_signed,
            } => self.sat_int(x, src_signed, dst_signed, dty),
            ConvOp::Fconv(round) => self.fconv(x, dty, round),
            ConvOp::SintToFloat(round) => self.int_to_float(x, true, dty, round),
            ConvOp::UintToFloat(round) => self.int_to_float(x, false, dty, round),
            ConvOp::FloatToSint { round, sat } => self.float_to_int(x, true, dty, round, sat),
            ConvOp::FloatToUint { round, sat } => self.float_to_int(x, false, dty, round, sat),
        })
    }

    /// Conversions to and from `half`, by the helpers of `half.rs`: widening exactly, narrowing
    /// rounded once in the conversion's mode. Only float conversions exist for half: the device
    /// has no half arithmetic (`CL_DEVICE_HALF_FP_CONFIG` is 0).
    fn half_convert(
        &mut self,
        conv: ConvOp,
        x: cl::Value,
        st: Type,
        dt: Type,
    ) -> Result<cl::Value, CompileError> {
        let ConvOp::Fconv(round) = conv else {
            return err(format!(
                "the CPU device has no half arithmetic ({st} to {dt})"
            ));
        };
        let [to_float, to_double, from_float, from_double] = self.helpers.half;
        let (id, args) = if st == Type::F16 {
            match dt {
                t if t == Type::F16 => return Ok(x),
                t if t == Type::F32 => (to_float, vec![x]),
                _ => (to_double, vec![x]),
            }
        } else {
            let mode = self.b.ins().iconst(
                clt::I32,
                match round {
                    Round::Rte => i64::from(crate::half::RTE),
                    Round::Rtz => i64::from(crate::half::RTZ),
                    Round::Rtp => i64::from(crate::half::RTP),
                    Round::Rtn => i64::from(crate::half::RTN),
                },
            );
            (
                if st == Type::F32 {
                    from_float
                } else {
                    from_double
                },
                vec![x, mode],
            )
        };
        let fref = self.jit.declare_func_in_func(id, self.b.func);
        let call = self.b.ins().call(fref, &args);
        Ok(self.b.inst_results(call)[0])
    }

    /// Integer to integer, clamped to the destination's range. A bound is compared only when
    /// the source range reaches past it, and then it is representable in the source type.
    fn sat_int(
        &mut self,
        x: cl::Value,
        src_signed: bool,
        dst_signed: bool,
        dty: cl::Type,
    ) -> cl::Value {
        let sty = self.b.func.dfg.value_type(x);
        let (sb, db) = (sty.bits(), dty.bits());
        let range = |bits: u32, signed: bool| -> (i128, i128) {
            if signed {
                (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
            } else {
                (0, (1i128 << bits) - 1)
            }
        };
        let (smin, smax) = range(sb, src_signed);
        let (lo, hi) = range(db, dst_signed);
        let mut v = x;
        if lo > smin {
            let cc = if src_signed {
                CIntCC::SignedLessThan
            } else {
                CIntCC::UnsignedLessThan
            };
            let c = self.b.ins().iconst(sty, lo as i64);
            let below = self.b.ins().icmp(cc, v, c);
            v = self.b.ins().select(below, c, v);
        }
        if hi < smax {
            let cc = if src_signed {
                CIntCC::SignedGreaterThan
            } else {
                CIntCC::UnsignedGreaterThan
            };
            let c = self
                .b
                .ins()
                .iconst(sty, (hi as u64 & (u64::MAX >> (64 - sb))) as i64);
            let above = self.b.ins().icmp(cc, v, c);
            v = self.b.ins().select(above, c, v);
        }
        // The value is now in the destination's range, so extension by the source's
        // signedness keeps it.
        if db < sb {
            self.b.ins().ireduce(dty, v)
        } else if db > sb {
            if src_signed {
                self.b.ins().sextend(dty, v)
            } else {
                self.b.ins().uextend(dty, v)
            }
        } else {
            v
        }
    }

    /// Moves a float result `d` one step toward +inf (`up`) or -inf, by its bits.
    fn step(&mut self, d: cl::Value, up: bool) -> cl::Value {
        let ty = self.b.func.dfg.value_type(d);
        let ity = cl::Type::int(ty.bits() as u16).unwrap_or(clt::I32);
        let bits = self.b.ins().bitcast(ity, mem(), d);
        let negative = self.b.ins().icmp_imm_s(CIntCC::SignedLessThan, bits, 0);
        // Toward +inf: a positive value's bits grow, a negative one's shrink.
        let plus = self.b.ins().iadd_imm_s(bits, 1);
        let minus = self.b.ins().iadd_imm_s(bits, -1);
        let stepped = if up {
            self.b.ins().select(negative, minus, plus)
        } else {
            self.b.ins().select(negative, plus, minus)
        };
        self.b.ins().bitcast(ty, mem(), stepped)
    }

    /// Corrects a round-to-nearest result `d` of exact value `exact` (compared through
    /// `cmp_gt`/`cmp_lt`: whether `d` is above or below it) to another rounding mode.
    fn reround(
        &mut self,
        d: cl::Value,
        above: cl::Value,
        below: cl::Value,
        round: Round,
    ) -> cl::Value {
        match round {
            Round::Rte => d,
            Round::Rtp => {
                let up = self.step(d, true);
                self.b.ins().select(below, up, d)
            }
            Round::Rtn => {
                let down = self.step(d, false);
                self.b.ins().select(above, down, d)
            }
            Round::Rtz => {
                // Toward zero: a positive result above the exact value steps down, a negative
                // one below it steps up.
                let ty = self.b.func.dfg.value_type(d);
                let zero = self.zero(ty);
                let pos = self.b.ins().fcmp(CFloatCC::GreaterThan, d, zero);
                let neg = self.b.ins().fcmp(CFloatCC::LessThan, d, zero);
                let down = self.step(d, false);
                let up = self.step(d, true);
                let fix_pos = self.b.ins().band(pos, above);
                let fix_neg = self.b.ins().band(neg, below);
                let r = self.b.ins().select(fix_pos, down, d);
                self.b.ins().select(fix_neg, up, r)
            }
        }
    }

    fn fconv(&mut self, x: cl::Value, dty: cl::Type, round: Round) -> cl::Value {
        let sty = self.b.func.dfg.value_type(x);
        if sty == dty {
            return x;
        }
        if dty.bits() > sty.bits() {
            return self.b.ins().fpromote(dty, x);
        }
        let d = self.b.ins().fdemote(dty, x);
        if round == Round::Rte {
            return d;
        }
        let back = self.b.ins().fpromote(sty, d);
        let above = self.b.ins().fcmp(CFloatCC::GreaterThan, back, x);
        let below = self.b.ins().fcmp(CFloatCC::LessThan, back, x);
        self.reround(d, above, below, round)
    }

    fn int_to_float(
        &mut self,
        x: cl::Value,
        signed: bool,
        dty: cl::Type,
        round: Round,
    ) -> cl::Value {
        let sty = self.b.func.dfg.value_type(x);
        // Narrow integers widen exactly to 32 bits first.
        let (x, sty) = if sty.bits() < 32 {
            (
                if signed {
                    self.b.ins().sextend(clt::I32, x)
                } else {
                    self.b.ins().uextend(clt::I32, x)
                },
                clt::I32,
            )
        } else {
            (x, sty)
        };
        let cvt = |b: &mut FunctionBuilder, ty: cl::Type, v: cl::Value| {
            if signed {
                b.ins().fcvt_from_sint(ty, v)
            } else {
                b.ins().fcvt_from_uint(ty, v)
            }
        };
        let d = cvt(&mut self.b, dty, x);
        if round == Round::Rte || (sty == clt::I32 && dty == clt::F64) {
            return d;
        }
        // Compare the rounded result with the exact integer. 32-bit integers are exact in f64;
        // for 64-bit ones, a result at or past 2^63 (2^64 unsigned) is above every integer,
        // and any other result is an integer the conversion back gives exactly.
        let (above, below) = if sty == clt::I32 {
            let exact = cvt(&mut self.b, clt::F64, x);
            let back = self.b.ins().fpromote(clt::F64, d);
            (
                self.b.ins().fcmp(CFloatCC::GreaterThan, back, exact),
                self.b.ins().fcmp(CFloatCC::LessThan, back, exact),
            )
        } else {
            let limit = if signed {
                9.223_372_036_854_776e18
            } else {
                1.844_674_407_370_955_2e19
            };
            let lim = if dty == clt::F32 {
                self.b.ins().f32const(limit as f32)
            } else {
                self.b.ins().f64const(limit)
            };
            let huge = self.b.ins().fcmp(CFloatCC::GreaterThanOrEqual, d, lim);
            let back = if signed {
                self.b.ins().fcvt_to_sint_sat(clt::I64, d)
            } else {
                self.b.ins().fcvt_to_uint_sat(clt::I64, d)
            };
            let (gt, lt) = if signed {
                (CIntCC::SignedGreaterThan, CIntCC::SignedLessThan)
            } else {
                (CIntCC::UnsignedGreaterThan, CIntCC::UnsignedLessThan)
            };
            let a = self.b.ins().icmp(gt, back, x);
            let above = self.b.ins().bor(a, huge);
            let l = self.b.ins().icmp(lt, back, x);
            let not_huge = self.b.ins().bxor_imm_s(huge, 1);
            let below = self.b.ins().band(l, not_huge);
            (above, below)
        };
        self.reround(d, above, below, round)
    }

    fn float_to_int(
        &mut self,
        x: cl::Value,
        signed: bool,
        dty: cl::Type,
        round: Round,
        sat: bool,
    ) -> cl::Value {
        let r = match round {
            Round::Rtz => x,
            Round::Rte => self.b.ins().nearest(x),
            Round::Rtp => self.b.ins().ceil(x),
            Round::Rtn => self.b.ins().floor(x),
        };
        // Saturating conversions never trap (NaN gives 0); unsaturated out-of-range results
        // are unspecified (6.4.3.3), so the same instruction serves both.
        let _ = sat;
        if dty.bits() >= 32 {
            return if signed {
                self.b.ins().fcvt_to_sint_sat(dty, r)
            } else {
                self.b.ins().fcvt_to_uint_sat(dty, r)
            };
        }
        let wide = self.b.ins().fcvt_to_sint_sat(clt::I32, r);
        let bits = dty.bits();
        let (lo, hi) = if signed {
            (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
        } else {
            (0, (1i64 << bits) - 1)
        };
        let lo_v = self.b.ins().iconst(clt::I32, lo);
        let c = self.b.ins().smax(wide, lo_v);
        let hi_v = self.b.ins().iconst(clt::I32, hi);
        let c = self.b.ins().smin(c, hi_v);
        self.b.ins().ireduce(dty, c)
    }
}
