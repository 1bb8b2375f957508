//! Functions kept out of line (`ferrocl_ir::passes::inline` keeps a large function called
//! from several sites as a call): each becomes a Cranelift function of its own in the
//! program's JIT module, and a call of it a native call.
//!
//! What such a function needs, and how it gets it:
//! - Its arguments and result, held as the IR values are held (`simd.rs`: one Cranelift
//!   value per scalar lane or per 128-bit part; `i1` vectors as masks of 32-bit lanes). A
//!   result of more than one value comes back through a return area the caller reserves on
//!   its native stack, whose address is the last parameter.
//! - The memory confinement of its accesses (`Translator::confine`): `__local` and
//!   `__private` addresses are masked into the work-group's regions exactly as in a kernel,
//!   so the function gets the group context (`abi::GroupCtx`) and loads the regions' bases
//!   and masks from it. Its pointer arguments are confined where they are used, as every
//!   other pointer is.
//! - Its private stack slots, which must lie in the private region like every other private
//!   variable (a `__private` address is masked into that region): a frame in the region,
//!   whose address the caller passes. A function's frame holds its own slots, then the frame
//!   of whichever function it calls (one at a time: slots live only during their call). A
//!   kernel's call area, where the frames of the functions it calls start, lies just before
//!   its work-items' frames ([`crate::CompiledKernel`] reserves it); work-items run one at a
//!   time through a call, so one copy per group is enough.
//! - Nothing of the work-item that runs it: a function that asks for an id, synchronizes
//!   the work-group or takes part in a collective is always inlined
//!   ([`ferrocl_ir::passes::inline::must_inline`]), and meeting one here is an error.
//!
//! The native stack holds only the return area and the code generator's own spills, which no
//! address of the program reaches.

use cranelift_codegen::ir::{self as cl, types as clt, AbiParam, InstBuilder, MemFlagsData};
use cranelift_module::{FuncId, Linkage, Module as _};
use ferrocl_ir::entity::SecondaryMap;
use ferrocl_ir::{Func, Function, Module, Op, StackSlot, Type, Value};

use super::simd::{int_of, repr_of_type, Repr};
use super::{err, Translator};
use crate::CompileError;

/// Alignment of a frame: the widest alignment of a private variable (`long16`, `double16`).
pub const FRAME_ALIGN: u32 = 128;

/// A function compiled out of line.
#[derive(Clone)]
pub struct Callee {
    pub id: FuncId,
    /// Where each of its stack slots lives, as a byte offset from its frame.
    pub slot_offsets: SecondaryMap<StackSlot, Option<u32>>,
    /// Bytes of its own slots, a multiple of [`FRAME_ALIGN`]: where the frames of the
    /// functions it calls start.
    pub own_size: u32,
    /// Bytes of its frame: its slots, then the largest frame of a function it calls.
    pub frame_size: u32,
    /// Its result comes back through a return area.
    pub ret_area: bool,
}

/// The functions of a module that its kernels call, compiled out of line.
#[derive(Default)]
pub struct Callees {
    pub map: SecondaryMap<Func, Option<Callee>>,
    /// Every callee after the functions it calls.
    pub order: Vec<Func>,
}

impl Callees {
    /// Finds the defined functions that the kernels of `module` call (directly or not),
    /// lays out their frames and declares them in `jit`.
    pub fn plan(
        module: &Module,
        jit: &mut cranelift_jit::JITModule,
    ) -> Result<Callees, CompileError> {
        let order = bottom_up(module)?;
        let mut out = Callees::default();
        for f in order {
            let func = &module.funcs[f];
            if let Some(op) = func
                .layout
                .blocks()
                .iter()
                .flat_map(|&b| func.layout.block_insts(b))
                .map(|&i| &func.dfg.insts[i].op)
                .find(|op| ferrocl_ir::passes::inline::must_inline(op))
            {
                return err(format!(
                    "a call of @{}, which holds a {} that only its kernel's work-items can run: \
                     such a function must be inlined",
                    func.name,
                    op_name(op)
                ));
            }
            let mut slot_offsets = SecondaryMap::new();
            let mut own = 0u32;
            for (ss, data) in func.slots.iter() {
                let align = data.align.clamp(1, FRAME_ALIGN);
                let at = own.div_ceil(align) * align;
                slot_offsets[ss] = Some(at);
                own = at + data.size;
            }
            let own_size = own.div_ceil(FRAME_ALIGN) * FRAME_ALIGN;
            let frame_size = own_size + out.call_area(func);
            let mut sig = jit.make_signature();
            for &t in &func.sig.params {
                let (ty, n) = value_types(abi_repr(t)?);
                sig.params.extend((0..n).map(|_| AbiParam::new(ty)));
            }
            // The group context and the frame.
            sig.params
                .extend([AbiParam::new(clt::I64), AbiParam::new(clt::I64)]);
            let mut ret_area = false;
            if let Some(t) = func.sig.ret {
                match value_types(abi_repr(t)?) {
                    (ty, 1) => sig.returns.push(AbiParam::new(ty)),
                    _ => {
                        sig.params.push(AbiParam::new(clt::I64));
                        ret_area = true;
                    }
                }
            }
            let id = jit
                .declare_function(
                    &format!("__ferrocl_fn{}_{}", f.as_u32(), func.name),
                    Linkage::Local,
                    &sig,
                )
                .map_err(|e| CompileError(format!("function {}: {e}", func.name)))?;
            out.map[f] = Some(Callee {
                id,
                slot_offsets,
                own_size,
                frame_size,
                ret_area,
            });
            out.order.push(f);
        }
        Ok(out)
    }

    /// Bytes of the call area of `f` (a kernel's work-group function or a callee): the
    /// largest frame of a function it calls, a multiple of [`FRAME_ALIGN`].
    pub fn call_area(&self, f: &Function) -> u32 {
        let mut area = 0;
        for &b in f.layout.blocks() {
            for &i in f.layout.block_insts(b) {
                if let Op::Call(c) = f.dfg.insts[i].op {
                    if let Some(callee) = &self.map[c] {
                        area = area.max(callee.frame_size);
                    }
                }
            }
        }
        area
    }
}

fn op_name(op: &Op) -> &'static str {
    match op {
        Op::Barrier(..) => "barrier",
        Op::Group(..) => "work-group or sub-group collective",
        _ => "work-item query",
    }
}

/// The defined functions that are not kernels and that the kernels of `module` call, each
/// after the functions it calls. A cycle of calls (which OpenCL C forbids, 6.9 (k), and the
/// IR verifier reports) is an error.
fn bottom_up(module: &Module) -> Result<Vec<Func>, CompileError> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    let callees = |f: Func| -> Vec<Func> {
        let func = &module.funcs[f];
        let mut out: Vec<Func> = Vec::new();
        for &b in func.layout.blocks() {
            for &i in func.layout.block_insts(b) {
                if let Op::Call(c) = func.dfg.insts[i].op {
                    let defined = module.funcs.get(c).is_some_and(|cf| !cf.is_declaration());
                    if defined && !out.contains(&c) {
                        out.push(c);
                    }
                }
            }
        }
        out
    };
    let mut mark = vec![Mark::New; module.funcs.len()];
    let mut order = Vec::new();
    for (k, kf) in module.funcs.iter() {
        if !kf.is_kernel() || kf.is_declaration() {
            continue;
        }
        let mut stack: Vec<(Func, Vec<Func>, usize)> = vec![(k, callees(k), 0)];
        while let Some((f, cs, next)) = stack.last_mut() {
            let Some(&c) = cs.get(*next) else {
                let f = *f;
                stack.pop();
                if !module.funcs[f].is_kernel() {
                    mark[f.as_u32() as usize] = Mark::Done;
                    order.push(f);
                }
                continue;
            };
            *next += 1;
            if module.funcs[c].is_kernel() {
                return err(format!(
                    "a call of kernel @{} that was not inlined",
                    module.funcs[c].name
                ));
            }
            match mark[c.as_u32() as usize] {
                Mark::New => {
                    mark[c.as_u32() as usize] = Mark::Open;
                    stack.push((c, callees(c), 0));
                }
                Mark::Open => {
                    return err(format!(
                        "@{} calls itself (6.9 (k): recursion is not supported)",
                        module.funcs[c].name
                    ))
                }
                Mark::Done => {}
            }
        }
    }
    Ok(order)
}

/// How a value of IR type `t` crosses a call: as the code generator holds it, with `i1`
/// vectors as masks of 32-bit lanes (the width of a mask that no comparison made).
pub fn abi_repr(t: Type) -> Result<Repr, CompileError> {
    if t.lanes() > 1 && t.lane_type() == Type::I1 {
        return Ok(Repr::simd(int_of(32), t.lanes(), true));
    }
    repr_of_type(t)
}

/// The Cranelift type of each value of a representation, and how many there are.
fn value_types(r: Repr) -> (cl::Type, u32) {
    match r {
        Repr::Lanes { ty, lanes } => (ty, lanes),
        Repr::Simd { part, parts, .. } => (part, parts),
    }
}

/// Reads and writes of a return area: aligned, and in memory no program address reaches.
fn area_mem() -> MemFlagsData {
    MemFlagsData::trusted()
}

impl Translator<'_, '_> {
    /// Translates the call `inst` of out-of-line function `callee` with `args`.
    pub(super) fn call_out_of_line(
        &mut self,
        inst: ferrocl_ir::Inst,
        callee: Func,
        args: &[Value],
    ) -> Result<(), CompileError> {
        let Some(c) = &self.calls.map[callee] else {
            return err(format!(
                "a call of @{} that is neither inlined nor compiled",
                self.module.funcs[callee].name
            ));
        };
        let (id, ret_area) = (c.id, c.ret_area);
        let sig = &self.module.funcs[callee].sig;
        let mut vals = Vec::new();
        for (&a, &t) in args.iter().zip(&sig.params) {
            vals.extend(self.parts_as(a, abi_repr(t)?)?);
        }
        vals.extend([self.grp, self.callee_frames]);
        let ret = sig.ret.map(abi_repr).transpose()?;
        let area = match ret {
            Some(r) if ret_area => {
                let (ty, n) = value_types(r);
                let slot = self.b.create_sized_stack_slot(cl::StackSlotData::new(
                    cl::StackSlotKind::ExplicitSlot,
                    ty.bytes() * n,
                    4,
                ));
                let p = self.b.ins().stack_addr(clt::I64, slot, 0);
                vals.push(p);
                Some(p)
            }
            _ => None,
        };
        let fref = match self.func_refs[callee] {
            Some(r) => r,
            None => {
                let r = self.jit.declare_func_in_func(id, self.b.func);
                self.func_refs[callee] = Some(r);
                r
            }
        };
        let call = self.b.ins().call(fref, &vals);
        let (Some(result), Some(r)) = (self.f.dfg.inst_result(inst), ret) else {
            return Ok(());
        };
        let parts = match area {
            Some(p) => {
                let (ty, n) = value_types(r);
                (0..n)
                    .map(|k| {
                        self.b
                            .ins()
                            .load(ty, area_mem(), p, (k * ty.bytes()) as i32)
                    })
                    .collect()
            }
            None => self.b.inst_results(call).to_vec(),
        };
        self.set_parts(result, parts)
    }

    /// Translates a `return` of `args` (nothing, or the function's result).
    pub(super) fn ret(&mut self, args: &[Value]) -> Result<(), CompileError> {
        let Some(&x) = args.first() else {
            self.b.ins().return_(&[]);
            return Ok(());
        };
        let r = abi_repr(self.f.dfg.value_type(x))?;
        let parts = self.parts_as(x, r)?;
        match self.ret_area {
            Some(p) => {
                let (ty, _) = value_types(r);
                for (k, part) in parts.into_iter().enumerate() {
                    self.b
                        .ins()
                        .store(area_mem(), part, p, (k as u32 * ty.bytes()) as i32);
                }
                self.b.ins().return_(&[]);
            }
            None => {
                self.b.ins().return_(&parts);
            }
        }
        Ok(())
    }
}
