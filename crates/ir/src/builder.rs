//! Building functions: an instruction builder that infers result types, and SSA construction
//! from variables with `def_var`/`use_var`/`seal_block`.
//!
//! The SSA helpers follow Braun, Buchwald, Hack, Leißa, Mallon, Zwinkau, "Simple and Efficient
//! Construction of Static Single Assignment Form" (CC 2013): a variable read in a block looks
//! up its definition locally, then through the predecessors; a block whose predecessors are
//! not all known yet (not sealed) gets a provisional block parameter, completed when the block
//! is sealed; a parameter whose incoming values are all one value is removed again.
//!
//! Contract for users: create a block's own parameters before reading variables in it, seal a
//! block once every branch to it has been built, and call `finish` at the end.
//!
//! ```
//! use ferrocl_ir::*;
//!
//! // kernel void k(global int *p) { int x = p[0]; if (x < 0) x = -x; p[0] = x; }
//! let mut m = Module::new();
//! let g = Type::ptr(AddrSpace::Global);
//! let arg = KernelArg {
//!     name: "p".into(),
//!     type_name: "int*".into(),
//!     space: AddrSpace::Global,
//!     access: AccessQualifier::None,
//!     quals: TypeQualifiers::default(),
//!     kind: ArgKind::Buffer,
//!     size: 8,
//!     align: 8,
//! };
//! let k = m.add_kernel("k", Signature::new(&[g], None), KernelInfo { args: vec![arg], ..Default::default() });
//! let mut b = FunctionBuilder::new(&mut m.funcs[k]);
//! let entry = b.create_entry_block();
//! let p = b.block_params(entry)[0];
//! let x = b.declare_var(Type::I32);
//! let v = b.load(Type::I32, p, 4, false);
//! b.def_var(x, v);
//! let zero = b.iconst(Type::I32, 0);
//! let neg = b.icmp(IntCC::Slt, v, zero);
//! let (then, join) = (b.create_block(), b.create_block());
//! b.brif(neg, then, &[], join, &[]);
//! b.switch_to_block(then);
//! b.seal_block(then);
//! let cur = b.use_var(x);
//! let abs = b.unary(UnaryOp::Ineg, cur);
//! b.def_var(x, abs);
//! b.jump(join, &[]);
//! b.switch_to_block(join);
//! b.seal_block(join);
//! let result = b.use_var(x);
//! b.store(result, p, 4, false);
//! b.ret(None);
//! b.finish();
//! verify_module(&m).expect("valid");
//! assert!(print_module(&m).contains("block2(v5: i32):"));
//! ```

use std::collections::HashMap;

use crate::dfg::ValueDef;
use crate::entity::{Block, Func, Global, Inst, StackSlot, Value, Variable};
use crate::function::Function;
use crate::inst::*;
use crate::types::{AddrSpace, Type};

/// Builds the body of one function.
pub struct FunctionBuilder<'a> {
    /// The function being built.
    pub func: &'a mut Function,
    block: Option<Block>,
    vars: Vec<Type>,
    defs: HashMap<(Variable, Block), Value>,
    sealed: HashMap<Block, bool>,
    preds: HashMap<Block, Vec<Inst>>,
    incomplete: HashMap<Block, Vec<(Variable, Value)>>,
}

impl<'a> FunctionBuilder<'a> {
    /// A builder appending to `func`.
    pub fn new(func: &'a mut Function) -> Self {
        FunctionBuilder {
            func,
            block: None,
            vars: Vec::new(),
            defs: HashMap::new(),
            sealed: HashMap::new(),
            preds: HashMap::new(),
            incomplete: HashMap::new(),
        }
    }

    /// A builder over a function that already has a body, for passes that rewrite memory
    /// into SSA values: every existing branch is registered as a predecessor edge, and no
    /// block is sealed yet. Position it with `switch_to_block`.
    pub fn edit(func: &'a mut Function) -> Self {
        let mut b = FunctionBuilder::new(func);
        for &block in b.func.layout.blocks() {
            let Some(t) = b.func.terminator(block) else {
                continue;
            };
            for d in b.func.dfg.insts[t].op.dests() {
                let list = b.preds.entry(d.block).or_default();
                if !list.contains(&t) {
                    list.push(t);
                }
            }
        }
        b
    }

    /// Creates a block (not yet placed).
    pub fn create_block(&mut self) -> Block {
        self.func.dfg.make_block()
    }

    /// Creates the entry block with one parameter per signature parameter, places it first,
    /// seals it (nothing branches to the entry block) and switches to it.
    pub fn create_entry_block(&mut self) -> Block {
        let b = self.create_block();
        for ty in self.func.sig.params.clone() {
            self.func.dfg.append_block_param(b, ty);
        }
        self.switch_to_block(b);
        self.seal_block(b);
        b
    }

    /// Appends a parameter to `block`.
    pub fn append_block_param(&mut self, block: Block, ty: Type) -> Value {
        self.func.dfg.append_block_param(block, ty)
    }

    /// The parameters of `block`.
    pub fn block_params(&self, block: Block) -> &[Value] {
        self.func.dfg.block_params(block)
    }

    /// Continues at the end of `block`, placing it last if it is not placed yet.
    pub fn switch_to_block(&mut self, block: Block) {
        if !self.func.layout.is_block_placed(block) {
            self.func.layout.append_block(block);
        }
        self.block = Some(block);
    }

    /// The block instructions are appended to.
    pub fn current_block(&self) -> Option<Block> {
        self.block
    }

    /// Whether the current block already ends in a terminator.
    pub fn is_filled(&self) -> bool {
        self.block
            .is_some_and(|b| self.func.terminator(b).is_some())
    }

    /// The type of `v`.
    pub fn value_type(&self, v: Value) -> Type {
        self.func.dfg.value_type(v)
    }

    // ---- SSA construction ----

    /// Declares a variable of type `ty`.
    pub fn declare_var(&mut self, ty: Type) -> Variable {
        self.vars.push(ty);
        Variable::from_u32(self.vars.len() as u32 - 1)
    }

    /// Assigns `v` to `var` at the current point.
    pub fn def_var(&mut self, var: Variable, v: Value) {
        let block = self.block.expect("def_var outside a block");
        self.defs.insert((var, block), v);
    }

    /// The value of `var` at the current point. A variable read before any assignment on some
    /// path reads `undef` there.
    pub fn use_var(&mut self, var: Variable) -> Value {
        let block = self.block.expect("use_var outside a block");
        self.use_var_in(var, block)
    }

    fn use_var_in(&mut self, var: Variable, block: Block) -> Value {
        // Walk up single-predecessor chains without recursion.
        let mut chain = Vec::new();
        let mut b = block;
        let found = loop {
            if let Some(&v) = self.defs.get(&(var, b)) {
                break self.func.dfg.resolve(v);
            }
            if chain.contains(&b) {
                // A cycle of single-predecessor blocks, unreachable from the entry.
                let ty = self.vars[var.as_u32() as usize];
                break self.undef_at_entry(ty);
            }
            let sealed = self.sealed.get(&b).copied().unwrap_or(false);
            let preds = self.preds.get(&b).map_or(0, Vec::len);
            if sealed && preds == 1 {
                chain.push(b);
                let p = self.preds[&b][0];
                b = self
                    .func
                    .layout
                    .inst_block(p)
                    .expect("predecessor not placed");
                continue;
            }
            let ty = self.vars[var.as_u32() as usize];
            let v = if !sealed {
                let param = self.func.dfg.append_block_param(b, ty);
                self.incomplete.entry(b).or_default().push((var, param));
                self.defs.insert((var, b), param);
                param
            } else if preds == 0 {
                let u = self.undef_at_entry(ty);
                self.defs.insert((var, b), u);
                u
            } else {
                let param = self.func.dfg.append_block_param(b, ty);
                self.defs.insert((var, b), param);
                self.complete_param(var, b, param)
            };
            break v;
        };
        for c in chain {
            self.defs.insert((var, c), found);
        }
        found
    }

    fn undef_at_entry(&mut self, ty: Type) -> Value {
        let entry = self
            .func
            .layout
            .entry_block()
            .expect("function has no entry block");
        let inst = self
            .func
            .dfg
            .make_inst(InstData::new(Op::Undef, &[]), Some(ty));
        self.func.layout.insert_inst_at(inst, entry, 0);
        self.func.dfg.inst_result(inst).expect("undef has a result")
    }

    /// Adds the argument for `param` to every branch into `block`, then removes the parameter
    /// if it is trivial. Returns the value that stands for `param`.
    fn complete_param(&mut self, var: Variable, block: Block, param: Value) -> Value {
        let preds = self.preds.get(&block).cloned().unwrap_or_default();
        // First give every edge a placeholder, so that parameters created while looking up
        // the incoming values line up with their arguments.
        for &p in &preds {
            for d in self.func.dfg.insts[p].op.dests_mut() {
                if d.block == block {
                    d.args.push(param);
                }
            }
        }
        for &p in &preds {
            let pb = self
                .func
                .layout
                .inst_block(p)
                .expect("predecessor not placed");
            let v = self.use_var_in(var, pb);
            let ValueDef::Param(_, idx) = self.func.dfg.value_def(param) else {
                unreachable!("parameter removed while incomplete")
            };
            for d in self.func.dfg.insts[p].op.dests_mut() {
                if d.block == block {
                    d.args[idx as usize] = v;
                }
            }
        }
        self.try_remove_trivial(block, param, &preds)
    }

    fn try_remove_trivial(&mut self, block: Block, param: Value, preds: &[Inst]) -> Value {
        let ValueDef::Param(_, idx) = self.func.dfg.value_def(param) else {
            return self.func.dfg.resolve(param);
        };
        let mut same: Option<Value> = None;
        for &p in preds {
            for d in self.func.dfg.insts[p].op.dests() {
                if d.block != block {
                    continue;
                }
                let a = self.func.dfg.resolve(d.args[idx as usize]);
                if a == param || Some(a) == same {
                    continue;
                }
                if same.is_some() {
                    return param;
                }
                same = Some(a);
            }
        }
        let ty = self.func.dfg.value_type(param);
        let replacement = match same {
            Some(v) => v,
            None => self.undef_at_entry(ty),
        };
        for &p in preds {
            for d in self.func.dfg.insts[p].op.dests_mut() {
                if d.block == block {
                    d.args.remove(idx as usize);
                }
            }
        }
        self.func.dfg.remove_block_param(block, idx as usize);
        self.func.dfg.change_to_alias(param, replacement);
        replacement
    }

    /// Declares that every branch to `block` has been built.
    pub fn seal_block(&mut self, block: Block) {
        if self.sealed.get(&block).copied().unwrap_or(false) {
            return;
        }
        self.sealed.insert(block, true);
        let pending = self.incomplete.remove(&block).unwrap_or_default();
        for (var, param) in pending {
            self.complete_param(var, block, param);
        }
    }

    /// Seals every block created so far.
    pub fn seal_all_blocks(&mut self) {
        let blocks: Vec<Block> = self.func.dfg.blocks.keys().collect();
        for b in blocks {
            self.seal_block(b);
        }
    }

    /// Ends building: rewrites uses of removed parameters.
    pub fn finish(self) {
        debug_assert!(self.incomplete.is_empty(), "unsealed blocks at finish");
        self.func.resolve_aliases();
    }

    // ---- instructions ----

    /// Appends an instruction to the current block, with a result of type `result` if given.
    pub fn ins(&mut self, op: Op, args: &[Value], result: Option<Type>) -> Inst {
        let block = self.block.expect("no current block");
        let is_branch = op.is_terminator();
        let inst = self
            .func
            .append_inst(block, InstData::new(op, args), result);
        if is_branch {
            let targets: Vec<Block> = self.func.dfg.insts[inst]
                .op
                .dests()
                .iter()
                .map(|d| d.block)
                .collect();
            for t in targets {
                let list = self.preds.entry(t).or_default();
                if !list.contains(&inst) {
                    list.push(inst);
                }
            }
        }
        inst
    }

    fn ins_value(&mut self, op: Op, args: &[Value], ty: Type) -> Value {
        let inst = self.ins(op, args, Some(ty));
        self.func
            .dfg
            .inst_result(inst)
            .expect("instruction has a result")
    }

    /// An integer constant (truncated to the lane width).
    pub fn iconst(&mut self, ty: Type, value: i64) -> Value {
        let bits = ty.lane_bits();
        let v = if bits >= 64 {
            value as u64
        } else {
            (value as u64) & ((1u64 << bits) - 1)
        };
        self.ins_value(Op::Iconst(v), &[], ty)
    }

    /// An `f32` constant (splatted over `ty`'s lanes).
    pub fn f32const(&mut self, ty: Type, value: f32) -> Value {
        self.ins_value(Op::Fconst(u64::from(value.to_bits())), &[], ty)
    }

    /// An `f64` constant (splatted over `ty`'s lanes).
    pub fn f64const(&mut self, ty: Type, value: f64) -> Value {
        self.ins_value(Op::Fconst(value.to_bits()), &[], ty)
    }

    /// A float constant from its IEEE bits in `ty`'s lane format.
    pub fn fconst_bits(&mut self, ty: Type, bits: u64) -> Value {
        self.ins_value(Op::Fconst(bits), &[], ty)
    }

    /// A vector constant from the bits of each lane (integers zero-extended from the lane
    /// width, floats as their IEEE bits). Equal lanes give the equivalent splat constant.
    pub fn vconst(&mut self, ty: Type, lanes: &[u64]) -> Value {
        let op = match lanes.first() {
            Some(&c) if lanes.iter().all(|&x| x == c) => {
                if ty.is_float() {
                    Op::Fconst(c)
                } else {
                    Op::Iconst(c)
                }
            }
            _ => Op::Vconst(lanes.into()),
        };
        self.ins_value(op, &[], ty)
    }

    /// The null pointer of `ty`.
    pub fn null(&mut self, ty: Type) -> Value {
        self.ins_value(Op::Null, &[], ty)
    }

    /// An unspecified value.
    pub fn undef(&mut self, ty: Type) -> Value {
        self.ins_value(Op::Undef, &[], ty)
    }

    /// A unary operation; the result has the operand's type.
    pub fn unary(&mut self, op: UnaryOp, x: Value) -> Value {
        let ty = self.value_type(x);
        self.ins_value(Op::Unary(op), &[x], ty)
    }

    /// A binary operation; the result has the first operand's type.
    pub fn binary(&mut self, op: BinaryOp, a: Value, b: Value) -> Value {
        let ty = self.value_type(a);
        self.ins_value(Op::Binary(op), &[a, b], ty)
    }

    /// `a + b` on integers.
    pub fn iadd(&mut self, a: Value, b: Value) -> Value {
        self.binary(BinaryOp::Iadd, a, b)
    }

    /// `a * b` on integers.
    pub fn imul(&mut self, a: Value, b: Value) -> Value {
        self.binary(BinaryOp::Imul, a, b)
    }

    /// `a + b` on floats.
    pub fn fadd(&mut self, a: Value, b: Value) -> Value {
        self.binary(BinaryOp::Fadd, a, b)
    }

    /// `a * b + c` rounded once.
    pub fn fma(&mut self, a: Value, b: Value, c: Value) -> Value {
        let ty = self.value_type(a);
        self.ins_value(Op::Fma, &[a, b, c], ty)
    }

    fn bool_of(&self, v: Value) -> Type {
        let ty = self.value_type(v);
        ty.with_lane_type(Type::I1).unwrap_or(Type::I1)
    }

    /// An integer comparison (`i1`, or an `i1` vector).
    pub fn icmp(&mut self, cc: IntCC, a: Value, b: Value) -> Value {
        let ty = self.bool_of(a);
        self.ins_value(Op::Icmp(cc), &[a, b], ty)
    }

    /// A float comparison (`i1`, or an `i1` vector).
    pub fn fcmp(&mut self, cc: FloatCC, a: Value, b: Value) -> Value {
        let ty = self.bool_of(a);
        self.ins_value(Op::Fcmp(cc), &[a, b], ty)
    }

    /// `c ? a : b`.
    pub fn select(&mut self, c: Value, a: Value, b: Value) -> Value {
        let ty = self.value_type(a);
        self.ins_value(Op::Select, &[c, a, b], ty)
    }

    /// A conversion to `ty`.
    pub fn convert(&mut self, op: ConvOp, x: Value, ty: Type) -> Value {
        self.ins_value(Op::Convert(op), &[x], ty)
    }

    /// Reinterprets the bits of `x` as `ty`.
    pub fn bitcast(&mut self, x: Value, ty: Type) -> Value {
        self.ins_value(Op::Bitcast, &[x], ty)
    }

    /// A pointer as an integer of type `ty`.
    pub fn ptrtoint(&mut self, p: Value, ty: Type) -> Value {
        self.ins_value(Op::PtrToInt, &[p], ty)
    }

    /// An integer as a pointer of type `ty`.
    pub fn inttoptr(&mut self, x: Value, ty: Type) -> Value {
        self.ins_value(Op::IntToPtr, &[x], ty)
    }

    /// A pointer cast to another address space.
    pub fn addrcast(&mut self, p: Value, space: AddrSpace) -> Value {
        self.ins_value(Op::AddrCast, &[p], Type::ptr(space))
    }

    /// `p + offset` bytes.
    pub fn ptradd(&mut self, p: Value, offset: Value) -> Value {
        let ty = self.value_type(p);
        self.ins_value(Op::PtrAdd, &[p, offset], ty)
    }

    /// A vector of `lanes` copies of `x`.
    pub fn splat(&mut self, x: Value, lanes: u32) -> Value {
        let ty = self
            .value_type(x)
            .vector(lanes)
            .expect("splat to an invalid vector type");
        self.ins_value(Op::Splat, &[x], ty)
    }

    /// Lane `n` of `v`.
    pub fn extractlane(&mut self, v: Value, n: u8) -> Value {
        let ty = self.value_type(v).lane_type();
        self.ins_value(Op::ExtractLane(n), &[v], ty)
    }

    /// `v` with lane `n` set to `x`.
    pub fn insertlane(&mut self, v: Value, x: Value, n: u8) -> Value {
        let ty = self.value_type(v);
        self.ins_value(Op::InsertLane(n), &[v, x], ty)
    }

    /// Lanes of `a ++ b` chosen by `mask`.
    pub fn shuffle(&mut self, a: Value, b: Value, mask: &[u8]) -> Value {
        let lane = self.value_type(a).lane_type();
        let ty = lane
            .vector(mask.len() as u32)
            .expect("shuffle to an invalid vector type");
        self.ins_value(Op::Shuffle(mask.into()), &[a, b], ty)
    }

    fn mem_flags(&self, p: Value, align: u32, volatile: bool) -> MemFlags {
        let space = self
            .value_type(p)
            .addr_space()
            .unwrap_or(AddrSpace::Private);
        let flags = MemFlags::new(space, align);
        if volatile {
            flags.with_volatile()
        } else {
            flags
        }
    }

    /// Loads a `ty` from `p`.
    pub fn load(&mut self, ty: Type, p: Value, align: u32, volatile: bool) -> Value {
        let flags = self.mem_flags(p, align, volatile);
        self.load_with(ty, p, flags)
    }

    /// Loads a `ty` from `p` with the given flags (whose space is `p`'s).
    pub fn load_with(&mut self, ty: Type, p: Value, flags: MemFlags) -> Value {
        self.ins_value(Op::Load(flags), &[p], ty)
    }

    /// Stores `x` at `p`.
    pub fn store(&mut self, x: Value, p: Value, align: u32, volatile: bool) -> Inst {
        let flags = self.mem_flags(p, align, volatile);
        self.store_with(x, p, flags)
    }

    /// Stores `x` at `p` with the given flags (whose space is `p`'s).
    pub fn store_with(&mut self, x: Value, p: Value, flags: MemFlags) -> Inst {
        self.ins(Op::Store(flags), &[x, p], None)
    }

    /// Copies `size` bytes from `src` to `dst` (both aligned to `align`) with loads and stores
    /// of the widest integers the alignment allows: struct assignment, since aggregates are
    /// not values. The two ranges must not overlap.
    pub fn copy_memory(&mut self, dst: Value, src: Value, size: u32, align: u32) {
        let mut off = 0u32;
        while off < size {
            let left = size - off;
            let chunk = [8u32, 4, 2, 1]
                .into_iter()
                .find(|&c| c <= left && c <= align.max(1))
                .unwrap_or(1);
            let ty = match chunk {
                8 => Type::I64,
                4 => Type::I32,
                2 => Type::I16,
                _ => Type::I8,
            };
            let (s, d) = if off == 0 {
                (src, dst)
            } else {
                let k = self.iconst(Type::I64, i64::from(off));
                (self.ptradd(src, k), self.ptradd(dst, k))
            };
            let x = self.load(ty, s, chunk, false);
            self.store(x, d, chunk, false);
            off += chunk;
        }
    }

    /// Sets `size` bytes at `dst` (aligned to `align`) to zero, with the widest integer
    /// stores the alignment allows: `= {0}` initializers of private arrays and structs.
    pub fn zero_memory(&mut self, dst: Value, size: u32, align: u32) {
        let mut off = 0u32;
        while off < size {
            let left = size - off;
            let chunk = [8u32, 4, 2, 1]
                .into_iter()
                .find(|&c| c <= left && c <= align.max(1))
                .unwrap_or(1);
            let ty = match chunk {
                8 => Type::I64,
                4 => Type::I32,
                2 => Type::I16,
                _ => Type::I8,
            };
            let d = if off == 0 {
                dst
            } else {
                let k = self.iconst(Type::I64, i64::from(off));
                self.ptradd(dst, k)
            };
            let zero = self.iconst(ty, 0);
            self.store(zero, d, chunk, false);
            off += chunk;
        }
    }

    /// An atomic read-modify-write returning the old value.
    pub fn atomic_rmw(
        &mut self,
        op: RmwOp,
        order: Ordering,
        scope: Scope,
        p: Value,
        x: Value,
    ) -> Value {
        let space = self.mem_flags(p, 1, false).space;
        let ty = self.value_type(x);
        self.ins_value(
            Op::AtomicRmw(
                op,
                AtomicInfo {
                    space,
                    order,
                    scope,
                },
            ),
            &[p, x],
            ty,
        )
    }

    /// An atomic compare-exchange returning the old value.
    pub fn cmpxchg(
        &mut self,
        success: Ordering,
        failure: Ordering,
        scope: Scope,
        p: Value,
        expected: Value,
        desired: Value,
    ) -> Value {
        let space = self.mem_flags(p, 1, false).space;
        let ty = self.value_type(expected);
        let info = AtomicInfo {
            space,
            order: success,
            scope,
        };
        self.ins_value(Op::Cmpxchg(info, failure), &[p, expected, desired], ty)
    }

    /// An atomic load.
    pub fn atomic_load(&mut self, ty: Type, order: Ordering, scope: Scope, p: Value) -> Value {
        let space = self.mem_flags(p, 1, false).space;
        self.ins_value(
            Op::AtomicLoad(AtomicInfo {
                space,
                order,
                scope,
            }),
            &[p],
            ty,
        )
    }

    /// An atomic store.
    pub fn atomic_store(&mut self, order: Ordering, scope: Scope, x: Value, p: Value) -> Inst {
        let space = self.mem_flags(p, 1, false).space;
        self.ins(
            Op::AtomicStore(AtomicInfo {
                space,
                order,
                scope,
            }),
            &[x, p],
            None,
        )
    }

    /// A memory fence.
    pub fn fence(&mut self, flags: FenceFlags, order: Ordering, scope: Scope) -> Inst {
        self.ins(Op::Fence(flags, order, scope), &[], None)
    }

    /// A work-group barrier.
    pub fn barrier(&mut self, flags: FenceFlags, scope: Scope) -> Inst {
        self.ins(Op::Barrier(flags, scope), &[], None)
    }

    /// A collective operation of the work-group or sub-group (`scope`) on `x` (`id`, an
    /// `i64`, for a broadcast only); the result has `x`'s type.
    pub fn group(&mut self, op: GroupOp, scope: Scope, x: Value, id: Option<Value>) -> Value {
        let ty = self.value_type(x);
        match id {
            Some(id) => self.ins_value(Op::Group(op, scope), &[x, id], ty),
            None => self.ins_value(Op::Group(op, scope), &[x], ty),
        }
    }

    /// A work-item query of type `ty` (`i32` or `i64`, as the front end sizes `size_t`).
    pub fn work_item(&mut self, op: WorkItemOp, dim: u8, ty: Type) -> Value {
        self.ins_value(Op::WorkItem(op, dim), &[], ty)
    }

    /// The address of a stack slot.
    pub fn slot_addr(&mut self, slot: StackSlot) -> Value {
        self.ins_value(Op::SlotAddr(slot), &[], Type::ptr(AddrSpace::Private))
    }

    /// The address of a module global living in `space`.
    pub fn global_addr(&mut self, global: Global, space: AddrSpace) -> Value {
        self.ins_value(Op::GlobalAddr(global), &[], Type::ptr(space))
    }

    /// Calls `callee`, whose return type is `ret`.
    pub fn call(&mut self, callee: Func, ret: Option<Type>, args: &[Value]) -> Option<Value> {
        let inst = self.ins(Op::Call(callee), args, ret);
        self.func.dfg.inst_result(inst)
    }

    /// Jumps to `block`.
    pub fn jump(&mut self, block: Block, args: &[Value]) -> Inst {
        self.ins(Op::Jump(Dest::new(block, args)), &[], None)
    }

    /// Branches on `c`.
    pub fn brif(
        &mut self,
        c: Value,
        then: Block,
        then_args: &[Value],
        els: Block,
        else_args: &[Value],
    ) -> Inst {
        let op = Op::Brif(Box::new((
            Dest::new(then, then_args),
            Dest::new(els, else_args),
        )));
        self.ins(op, &[c], None)
    }

    /// Branches on the value of `x`.
    pub fn switch(&mut self, x: Value, default: Dest, cases: Vec<(u64, Dest)>) -> Inst {
        self.ins(
            Op::Switch(Box::new(SwitchTable { default, cases })),
            &[x],
            None,
        )
    }

    /// Returns, with a value if the function returns one.
    pub fn ret(&mut self, v: Option<Value>) -> Inst {
        let args: Vec<Value> = v.into_iter().collect();
        self.ins(Op::Return, &args, None)
    }

    /// Marks the end of a path that is never executed.
    pub fn unreachable(&mut self) -> Inst {
        self.ins(Op::Unreachable, &[], None)
    }
}
