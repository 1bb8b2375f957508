//! Lowering of one function body: statements, expressions, lvalues and memory.

use std::collections::HashMap;

use ferrocl_ir::{
    AddrSpace as IrSpace, BinaryOp, Block, ConvOp, Dest, FloatCC, Function, FunctionBuilder,
    Global, IntCC, Round, StackSlot, Type, UnaryOp as IrUnary, Value,
};

use super::{align_at, ModCtx, Res};
use crate::lower::LowerError;
use crate::parse::ast::BinOp;
use crate::sema::tree::{
    Callee, CastKind, Expr, ExprKind, FuncId, Init, Stmt, StmtKind, UnaryOp, VarId, VarKind,
};
use crate::sema::types::{Scalar, Type as CType, TypeId};

/// Where a variable lives.
#[derive(Clone, Copy)]
enum Place {
    Slot(StackSlot),
    /// The address is this value (aggregate parameters).
    Addr(Value),
    Global(Global, IrSpace),
}

/// An lvalue: an object in memory, or lanes of a vector in memory.
#[derive(Clone)]
pub(crate) enum LVal {
    Mem {
        addr: Value,
        ty: TypeId,
        align: u32,
        volatile: bool,
    },
    Lanes {
        addr: Value,
        /// The whole vector's type.
        vty: TypeId,
        align: u32,
        volatile: bool,
        lanes: Vec<u8>,
    },
    /// The lane `lanes[idx]` of a vector in memory, `idx` known at run time only (an `i64`).
    DynLane {
        addr: Value,
        vty: TypeId,
        align: u32,
        volatile: bool,
        lanes: Vec<u8>,
        idx: Value,
    },
}

pub(crate) struct FnLower<'a, 'p, 'f> {
    pub cx: &'a mut ModCtx<'p>,
    pub b: FunctionBuilder<'f>,
    places: HashMap<VarId, Place>,
    sret: Option<Value>,
    ret_ty: TypeId,
    /// (break target, continue target) of the enclosing loops and switches.
    loops: Vec<(Block, Option<Block>)>,
    labels: HashMap<String, Block>,
    /// The block of each case or default statement, by address.
    cases: HashMap<usize, Block>,
}

pub(crate) fn lower_function(cx: &mut ModCtx, id: FuncId) -> Res<()> {
    let p = cx.p;
    let f = &p.functions[id.0 as usize];
    let irf = cx.funcs[id.0 as usize];
    let mut func: Function = std::mem::take(&mut cx.module.funcs[irf]);
    let result = (|| {
        let mut fl = FnLower {
            cx,
            b: FunctionBuilder::new(&mut func),
            places: HashMap::new(),
            sret: None,
            ret_ty: f.ret,
            loops: Vec::new(),
            labels: HashMap::new(),
            cases: HashMap::new(),
        };
        let entry = fl.b.create_entry_block();
        let params: Vec<Value> = fl.b.block_params(entry).to_vec();
        let mut k = 0;
        if fl.cx.is_aggregate(f.ret) {
            fl.sret = Some(params[0]);
            k = 1;
        }
        for v in &f.params {
            let pv = params[k];
            k += 1;
            let t = p.vars[v.0 as usize].ty.ty;
            if fl.cx.is_aggregate(t) && f.is_kernel {
                // A kernel's struct or union argument: the runtime passes one copy for every
                // work-item, so each work-item takes its own (a parameter is the callee's
                // object, which it may write: C99 6.9.1p9).
                let slot = fl.new_slot(t, p.vars[v.0 as usize].align);
                let addr = fl.b.slot_addr(slot);
                let (size, align) = (fl.cx.size_of(t), fl.cx.align_of(t));
                fl.copy(addr, pv, size, align);
                fl.places.insert(*v, Place::Slot(slot));
            } else if fl.cx.is_aggregate(t) {
                fl.places.insert(*v, Place::Addr(pv));
            } else {
                let slot = fl.new_slot(t, p.vars[v.0 as usize].align);
                fl.places.insert(*v, Place::Slot(slot));
                let addr = fl.b.slot_addr(slot);
                let align = fl.cx.align_of(t);
                fl.store(
                    &LVal::Mem {
                        addr,
                        ty: t,
                        align,
                        volatile: false,
                    },
                    Some(pv),
                )?;
            }
        }
        if f.is_kernel {
            fl.store_relocations()?;
        }
        if let Some(body) = &f.body {
            fl.stmt(body)?;
        }
        if !fl.b.is_filled() {
            match fl.b.func.sig.ret {
                Some(t) => {
                    // C99 6.9.1p12: using the value of a function that ends without
                    // returning one is undefined.
                    let u = fl.b.undef(t);
                    fl.b.ret(Some(u));
                }
                None => {
                    fl.b.ret(None);
                }
            }
        }
        fl.b.seal_all_blocks();
        fl.b.finish();
        Ok(())
    })();
    cx.module.funcs[irf] = func;
    result
}

fn int_type(bytes: u32) -> Type {
    match bytes {
        1 => Type::I8,
        2 => Type::I16,
        4 => Type::I32,
        _ => Type::I64,
    }
}

/// Whether an initializer list sets every byte-carrying element (so no zero fill is needed).
fn complete(cx: &ModCtx, init: &Init, ty: TypeId) -> bool {
    match init {
        Init::Expr(_) => true,
        Init::List(lt, items) => {
            let n = match cx.ty(*lt) {
                CType::Record(r) => {
                    let rec = &cx.p.types.records[*r as usize];
                    if rec.is_union {
                        return false;
                    }
                    rec.fields.len()
                }
                CType::Array(_, Some(n)) => *n as usize,
                CType::Vector(..) => return true,
                _ => 1,
            };
            if items.len() < n || items.iter().any(Option::is_none) {
                return false;
            }
            items.iter().enumerate().all(|(i, it)| {
                let et = match cx.ty(*lt) {
                    CType::Record(r) => cx.p.types.records[*r as usize].fields[i].ty.ty,
                    CType::Array(e, _) => e.ty,
                    _ => ty,
                };
                it.as_ref().is_some_and(|it| complete(cx, it, et))
            })
        }
    }
}

impl FnLower<'_, '_, '_> {
    fn err<T>(&self, msg: impl Into<String>) -> Res<T> {
        Err(LowerError::new(msg))
    }

    fn new_slot(&mut self, t: TypeId, align: Option<u64>) -> StackSlot {
        let size = self.cx.size_of(t).max(1) as u32;
        let align = align
            .map_or(self.cx.align_of(t), |a| (a as u32).max(self.cx.align_of(t)))
            .next_power_of_two();
        self.b.func.create_slot(size, align)
    }

    /// A fresh slot for a temporary of type `t`; returns its address.
    pub fn temp(&mut self, t: TypeId) -> Value {
        let s = self.new_slot(t, None);
        self.b.slot_addr(s)
    }

    /// Continues in a new block after a terminator (code there is unreachable).
    fn fresh(&mut self) {
        let b = self.b.create_block();
        self.b.switch_to_block(b);
    }

    fn jump_to(&mut self, target: Block) {
        if !self.b.is_filled() {
            self.b.jump(target, &[]);
        }
    }

    fn label_block(&mut self, name: &str) -> Block {
        if let Some(&b) = self.labels.get(name) {
            return b;
        }
        let b = self.b.create_block();
        self.labels.insert(name.to_string(), b);
        b
    }

    /// Stores the addresses that program-scope pointers are initialized with (the IR has no
    /// relocations; see the module documentation).
    fn store_relocations(&mut self) -> Res<()> {
        for r in self.cx.relocs.clone() {
            let Some(&tg) = self.cx.globals.get(&r.target) else {
                continue;
            };
            let src = match r.src {
                super::RelocSrc::Global(g) => g,
                super::RelocSrc::Var(v) => match self.cx.globals.get(&v) {
                    Some(&g) => g,
                    None => return self.err("address of a variable without storage"),
                },
            };
            let tspace = self.cx.module.globals[tg].space;
            let sspace = self.cx.module.globals[src].space;
            let base = self.b.global_addr(tg, tspace);
            let at = self.offset(base, r.offset);
            let sbase = self.b.global_addr(src, sspace);
            let mut v = self.offset(sbase, r.src_off);
            if r.generic && sspace != IrSpace::Generic {
                v = self.b.addrcast(v, IrSpace::Generic);
            }
            self.b.store(v, at, align_at(8, r.offset), false);
        }
        Ok(())
    }

    // ---- constants ----

    pub fn iconst(&mut self, ty: Type, v: i64) -> Value {
        self.b.iconst(ty, v)
    }

    pub fn fconst(&mut self, ty: Type, v: f64) -> Value {
        match ty.lane_type() {
            Type::F32 => self.b.f32const(ty, v as f32),
            Type::F64 => self.b.f64const(ty, v),
            _ => {
                let bits = ferrocl_ir::float::from_f64(v, Type::F16, Round::Rte);
                self.b.fconst_bits(ty, bits)
            }
        }
    }

    pub fn zero(&mut self, ty: Type) -> Value {
        if ty.is_float() {
            self.fconst(ty, 0.0)
        } else if ty.is_ptr() {
            self.b.null(ty)
        } else {
            self.iconst(ty, 0)
        }
    }

    pub fn reg(&self, t: TypeId) -> Res<Type> {
        self.cx
            .reg_type(t)
            .ok_or_else(|| LowerError::new("a value of type void"))
    }

    // ---- memory ----

    /// Loads the value of an lvalue (the address, for aggregates).
    pub fn load(&mut self, lv: &LVal) -> Res<Value> {
        match lv {
            LVal::Mem {
                addr,
                ty,
                align,
                volatile,
            } => {
                if self.cx.is_aggregate(*ty) {
                    return Ok(*addr);
                }
                let mt = self
                    .cx
                    .mem_type(*ty)
                    .ok_or_else(|| LowerError::new("load of void"))?;
                let v = self.b.load(mt, *addr, *align, *volatile);
                if mt != self.reg(*ty)? {
                    let z = self.zero(mt);
                    return Ok(self.b.icmp(IntCC::Ne, v, z));
                }
                Ok(v)
            }
            LVal::Lanes {
                addr,
                vty,
                align,
                volatile,
                lanes,
            } => {
                let mt = self.reg(*vty)?;
                let v = self.b.load(mt, *addr, *align, *volatile);
                Ok(self.swizzle_value(v, lanes))
            }
            LVal::DynLane {
                addr,
                vty,
                align,
                volatile,
                lanes,
                idx,
            } => {
                let mt = self.reg(*vty)?;
                let v = self.b.load(mt, *addr, *align, *volatile);
                Ok(self.dyn_extract(v, lanes, *idx))
            }
        }
    }

    /// Lane `lanes[idx]` of `v` by a select chain (an out-of-range index reads lane
    /// `lanes[0]`; 6.3.7 leaves it undefined).
    pub fn dyn_extract(&mut self, v: Value, lanes: &[u8], idx: Value) -> Value {
        let mut r = self.b.extractlane(v, lanes[0]);
        for (k, &l) in lanes.iter().enumerate().skip(1) {
            let kv = self.iconst(Type::I64, k as i64);
            let c = self.b.icmp(IntCC::Eq, idx, kv);
            let x = self.b.extractlane(v, l);
            r = self.b.select(c, x, r);
        }
        r
    }

    pub fn swizzle_value(&mut self, v: Value, lanes: &[u8]) -> Value {
        let n = self.b.value_type(v).lanes();
        if lanes.len() == 1 && u32::from(lanes[0]) < n {
            self.b.extractlane(v, lanes[0])
        } else {
            self.b.shuffle(v, v, lanes)
        }
    }

    /// Stores `v` into an lvalue (for aggregates, `v` is the source address).
    pub fn store(&mut self, lv: &LVal, v: Option<Value>) -> Res<()> {
        let Some(v) = v else {
            return self.err("store of a void value");
        };
        match lv {
            LVal::Mem {
                addr,
                ty,
                align,
                volatile,
            } => {
                if self.cx.is_aggregate(*ty) {
                    let size = self.cx.size_of(*ty);
                    let a = (*align).min(self.cx.align_of(*ty));
                    self.copy(*addr, v, size, a);
                    return Ok(());
                }
                let mt = self
                    .cx
                    .mem_type(*ty)
                    .ok_or_else(|| LowerError::new("store of void"))?;
                let x = if self.b.value_type(v) != mt {
                    self.b.convert(ConvOp::Zext, v, mt)
                } else {
                    v
                };
                self.b.store(x, *addr, *align, *volatile);
                Ok(())
            }
            LVal::Lanes {
                addr,
                vty,
                align,
                volatile,
                lanes,
            } => {
                let mt = self.reg(*vty)?;
                let n = mt.lanes();
                let src_vec = self.b.value_type(v).is_vector();
                let private = self.b.value_type(*addr).addr_space() == Some(IrSpace::Private);
                if !private {
                    // Memory other work-items may see: write only the named lanes (another
                    // work-item may be writing the other lanes of the same vector).
                    let es = mt.lane_type().bytes();
                    for (i, &l) in lanes.iter().enumerate() {
                        if u32::from(l) >= n {
                            continue;
                        }
                        let x = if src_vec {
                            self.b.extractlane(v, i as u8)
                        } else {
                            v
                        };
                        let off = i64::from(l) * i64::from(es);
                        let at = self.offset(*addr, off);
                        self.b.store(x, at, align_at(*align, off), *volatile);
                    }
                    return Ok(());
                }
                let mut whole = self.b.load(mt, *addr, *align, *volatile);
                for (i, &l) in lanes.iter().enumerate() {
                    if u32::from(l) >= n {
                        continue;
                    }
                    let x = if src_vec {
                        self.b.extractlane(v, i as u8)
                    } else {
                        v
                    };
                    whole = self.b.insertlane(whole, x, l);
                }
                self.b.store(whole, *addr, *align, *volatile);
                Ok(())
            }
            LVal::DynLane {
                addr,
                vty,
                align,
                volatile,
                lanes,
                idx,
            } => {
                let mt = self.reg(*vty)?;
                let mut whole = self.b.load(mt, *addr, *align, *volatile);
                for (k, &l) in lanes.iter().enumerate() {
                    if u32::from(l) >= mt.lanes() {
                        continue;
                    }
                    let kv = self.iconst(Type::I64, k as i64);
                    let c = self.b.icmp(IntCC::Eq, *idx, kv);
                    let old = self.b.extractlane(whole, l);
                    let lane = self.b.select(c, v, old);
                    whole = self.b.insertlane(whole, lane, l);
                }
                self.b.store(whole, *addr, *align, *volatile);
                Ok(())
            }
        }
    }

    pub fn offset(&mut self, p: Value, off: i64) -> Value {
        if off == 0 {
            return p;
        }
        let o = self.iconst(Type::I64, off);
        self.b.ptradd(p, o)
    }

    /// Copies `size` bytes from `src` to `dst`.
    pub fn copy(&mut self, dst: Value, src: Value, size: u64, align: u32) {
        let mut chunk = align.clamp(1, 8) as u64;
        while size % chunk != 0 {
            chunk /= 2;
        }
        let ty = int_type(chunk as u32);
        let n = size / chunk;
        if n <= 32 {
            for i in 0..n {
                let off = (i * chunk) as i64;
                let s = self.offset(src, off);
                let d = self.offset(dst, off);
                let v = self.b.load(ty, s, chunk as u32, false);
                self.b.store(v, d, chunk as u32, false);
            }
            return;
        }
        self.byte_loop(dst, Some(src), n, chunk);
    }

    /// A loop over `n` chunks: copies from `src`, or stores zeros.
    fn byte_loop(&mut self, dst: Value, src: Option<Value>, n: u64, chunk: u64) {
        let ty = int_type(chunk as u32);
        let head = self.b.create_block();
        let body = self.b.create_block();
        let exit = self.b.create_block();
        let zero = self.iconst(Type::I64, 0);
        self.b.jump(head, &[zero]);
        self.b.switch_to_block(head);
        let i = self.b.append_block_param(head, Type::I64);
        let end = self.iconst(Type::I64, n as i64);
        let c = self.b.icmp(IntCC::Ult, i, end);
        self.b.brif(c, body, &[], exit, &[]);
        self.b.switch_to_block(body);
        let k = self.iconst(Type::I64, chunk as i64);
        let off = self.b.imul(i, k);
        let d = self.b.ptradd(dst, off);
        let v = match src {
            Some(src) => {
                let s = self.b.ptradd(src, off);
                self.b.load(ty, s, chunk as u32, false)
            }
            None => self.iconst(ty, 0),
        };
        self.b.store(v, d, chunk as u32, false);
        let one = self.iconst(Type::I64, 1);
        let next = self.b.iadd(i, one);
        self.b.jump(head, &[next]);
        self.b.switch_to_block(exit);
    }

    /// Stores zeros over `size` bytes at `dst`.
    pub fn zero_fill(&mut self, dst: Value, size: u64, align: u32) {
        let mut chunk = align.clamp(1, 8) as u64;
        while size % chunk != 0 {
            chunk /= 2;
        }
        let ty = int_type(chunk as u32);
        let n = size / chunk;
        if n <= 32 {
            let z = self.iconst(ty, 0);
            for i in 0..n {
                let d = self.offset(dst, (i * chunk) as i64);
                self.b.store(z, d, chunk as u32, false);
            }
            return;
        }
        self.byte_loop(dst, None, n, chunk);
    }

    /// Initializes the object of type `ty` at `addr`.
    fn init_store(&mut self, addr: Value, align: u32, ty: TypeId, init: &Init) -> Res<()> {
        let mem = |addr, ty, align| LVal::Mem {
            addr,
            ty,
            align,
            volatile: false,
        };
        match init {
            Init::Expr(e) => {
                if let (ExprKind::StrConst(s), CType::Array(..)) = (&e.kind, self.cx.ty(ty)) {
                    let size = self.cx.size_of(ty);
                    let g = self.cx.string_global(s, size);
                    let src = self.b.global_addr(g, IrSpace::Constant);
                    self.copy(addr, src, size, 1);
                    return Ok(());
                }
                let v = self.expr(e)?;
                self.store(&mem(addr, ty, align), v)
            }
            Init::List(lt, items) => {
                let lt = *lt;
                if let CType::Vector(_, n) = *self.cx.ty(lt) {
                    let vt = self.reg(lt)?;
                    let mut lanes = Vec::new();
                    for it in items {
                        match it {
                            Some(Init::Expr(e)) => {
                                let v = self.val(e)?;
                                let t = self.b.value_type(v);
                                if t.is_vector() {
                                    for i in 0..t.lanes() {
                                        lanes.push(self.b.extractlane(v, i as u8));
                                    }
                                } else {
                                    lanes.push(v);
                                }
                            }
                            _ => {
                                let z = self.zero(vt.lane_type());
                                lanes.push(z);
                            }
                        }
                    }
                    while lanes.len() < n as usize {
                        let z = self.zero(vt.lane_type());
                        lanes.push(z);
                    }
                    let v = self.build_vector(vt, &lanes);
                    return self.store(&mem(addr, lt, align), Some(v));
                }
                if !complete(self.cx, init, ty) {
                    let size = self.cx.size_of(ty);
                    self.zero_fill(addr, size, align);
                }
                match self.cx.ty(lt).clone() {
                    CType::Record(r) => {
                        let fields = self.cx.p.types.records[r as usize].fields.clone();
                        for (i, it) in items.iter().enumerate() {
                            if let (Some(it), Some(f)) = (it, fields.get(i)) {
                                let a = self.offset(addr, f.offset as i64);
                                let al = align_at(align, f.offset as i64);
                                self.init_store(a, al, f.ty.ty, it)?;
                            }
                        }
                    }
                    CType::Array(e, _) => {
                        let es = self.cx.size_of(e.ty) as i64;
                        for (i, it) in items.iter().enumerate() {
                            if let Some(it) = it {
                                let a = self.offset(addr, i as i64 * es);
                                let al = align_at(align, i as i64 * es);
                                self.init_store(a, al, e.ty, it)?;
                            }
                        }
                    }
                    _ => {
                        if let Some(Some(it)) = items.first() {
                            self.init_store(addr, align, ty, it)?;
                        }
                    }
                }
                Ok(())
            }
        }
    }

    pub fn build_vector(&mut self, vt: Type, lanes: &[Value]) -> Value {
        let mut v = self.b.splat(lanes[0], vt.lanes());
        for (i, &l) in lanes.iter().enumerate().skip(1) {
            v = self.b.insertlane(v, l, i as u8);
        }
        v
    }

    // ---- statements ----

    fn stmt(&mut self, s: &Stmt) -> Res<()> {
        match &s.kind {
            StmtKind::Expr(e) => {
                self.expr(e)?;
            }
            StmtKind::Decl(v, init) => {
                let var = &self.cx.p.vars[v.0 as usize];
                if var.kind != VarKind::Local {
                    return Ok(());
                }
                let t = var.ty.ty;
                let slot = self.new_slot(t, var.align);
                self.places.insert(*v, Place::Slot(slot));
                if let Some(init) = init {
                    let addr = self.b.slot_addr(slot);
                    let align = self.b.func.slots[slot].align;
                    self.init_store(addr, align, t, init)?;
                }
            }
            StmtKind::Block(list) => {
                for s in list {
                    self.stmt(s)?;
                }
            }
            StmtKind::If(c, t, e) => {
                let cond = self.cond(c)?;
                let then_b = self.b.create_block();
                let else_b = self.b.create_block();
                let merge = if e.is_some() {
                    self.b.create_block()
                } else {
                    else_b
                };
                self.b.brif(cond, then_b, &[], else_b, &[]);
                self.b.switch_to_block(then_b);
                self.stmt(t)?;
                self.jump_to(merge);
                if let Some(e) = e {
                    self.b.switch_to_block(else_b);
                    self.stmt(e)?;
                    self.jump_to(merge);
                }
                self.b.switch_to_block(merge);
            }
            StmtKind::While(c, body, _) => {
                let head = self.b.create_block();
                let body_b = self.b.create_block();
                let exit = self.b.create_block();
                self.b.jump(head, &[]);
                self.b.switch_to_block(head);
                let cond = self.cond(c)?;
                self.b.brif(cond, body_b, &[], exit, &[]);
                self.b.switch_to_block(body_b);
                self.loops.push((exit, Some(head)));
                self.stmt(body)?;
                self.loops.pop();
                self.jump_to(head);
                self.b.switch_to_block(exit);
            }
            StmtKind::DoWhile(body, c, _) => {
                let body_b = self.b.create_block();
                let cond_b = self.b.create_block();
                let exit = self.b.create_block();
                self.b.jump(body_b, &[]);
                self.b.switch_to_block(body_b);
                self.loops.push((exit, Some(cond_b)));
                self.stmt(body)?;
                self.loops.pop();
                self.jump_to(cond_b);
                self.b.switch_to_block(cond_b);
                let cond = self.cond(c)?;
                self.b.brif(cond, body_b, &[], exit, &[]);
                self.b.switch_to_block(exit);
            }
            StmtKind::For(init, c, step, body, _) => {
                if let Some(i) = init {
                    self.stmt(i)?;
                }
                let head = self.b.create_block();
                let body_b = self.b.create_block();
                let step_b = self.b.create_block();
                let exit = self.b.create_block();
                self.b.jump(head, &[]);
                self.b.switch_to_block(head);
                match c {
                    Some(c) => {
                        let cond = self.cond(c)?;
                        self.b.brif(cond, body_b, &[], exit, &[]);
                    }
                    None => {
                        self.b.jump(body_b, &[]);
                    }
                }
                self.b.switch_to_block(body_b);
                self.loops.push((exit, Some(step_b)));
                self.stmt(body)?;
                self.loops.pop();
                self.jump_to(step_b);
                self.b.switch_to_block(step_b);
                if let Some(s) = step {
                    self.expr(s)?;
                }
                self.b.jump(head, &[]);
                self.b.switch_to_block(exit);
            }
            StmtKind::Switch(x, body) => {
                let v = self.val(x)?;
                let ty = self.b.value_type(v);
                let mask = if ty.lane_bits() >= 64 {
                    u64::MAX
                } else {
                    (1u64 << ty.lane_bits()) - 1
                };
                let exit = self.b.create_block();
                let mut found = Vec::new();
                collect_cases(body, &mut found);
                let mut default = exit;
                let mut cases = Vec::new();
                for (addr, value) in found {
                    let blk = self.b.create_block();
                    self.cases.insert(addr, blk);
                    match value {
                        Some(c) => cases.push(((c as u64) & mask, Dest::new(blk, &[]))),
                        None => default = blk,
                    }
                }
                self.b.switch(v, Dest::new(default, &[]), cases);
                self.fresh();
                self.loops.push((exit, None));
                self.stmt(body)?;
                self.loops.pop();
                self.jump_to(exit);
                self.b.switch_to_block(exit);
            }
            StmtKind::Case(_, inner) | StmtKind::Default(inner) => {
                let blk = *self
                    .cases
                    .get(&(s as *const Stmt as usize))
                    .ok_or_else(|| LowerError::new("case label outside a switch"))?;
                self.jump_to(blk);
                self.b.switch_to_block(blk);
                self.stmt(inner)?;
            }
            StmtKind::Label(name, inner) => {
                let blk = self.label_block(name);
                self.jump_to(blk);
                self.b.switch_to_block(blk);
                self.stmt(inner)?;
            }
            StmtKind::Goto(name) => {
                let blk = self.label_block(name);
                self.b.jump(blk, &[]);
                self.fresh();
            }
            StmtKind::Break => {
                let Some(&(t, _)) = self.loops.last() else {
                    return self.err("break outside a loop or switch");
                };
                self.b.jump(t, &[]);
                self.fresh();
            }
            StmtKind::Continue => {
                let Some(t) = self.loops.iter().rev().find_map(|l| l.1) else {
                    return self.err("continue outside a loop");
                };
                self.b.jump(t, &[]);
                self.fresh();
            }
            StmtKind::Return(e) => {
                match (e, self.sret) {
                    (Some(e), Some(dst)) => {
                        let src = self.val(e)?;
                        let size = self.cx.size_of(self.ret_ty);
                        let a = self.cx.align_of(self.ret_ty);
                        self.copy(dst, src, size, a);
                        self.b.ret(None);
                    }
                    (Some(e), None) => {
                        let v = self.expr(e)?;
                        if self.b.func.sig.ret.is_some() {
                            self.b.ret(v);
                        } else {
                            self.b.ret(None);
                        }
                    }
                    (None, _) => match self.b.func.sig.ret {
                        Some(t) => {
                            let u = self.b.undef(t);
                            self.b.ret(Some(u));
                        }
                        None => {
                            self.b.ret(None);
                        }
                    },
                }
                self.fresh();
            }
            StmtKind::Empty => {}
        }
        Ok(())
    }

    /// A controlling expression as an `i1`.
    fn cond(&mut self, c: &Expr) -> Res<Value> {
        let scalar = !self.cx.p.types.is_vector(c.ty);
        match &c.kind {
            // A scalar converted to bool is true when it compares unequal to 0: the same
            // test as the scalar itself.
            ExprKind::Cast(CastKind::ToBool, x) if !self.cx.p.types.is_vector(x.ty) => self.cond(x),
            // Comparisons and logical operators tested directly, without the int 0/1.
            ExprKind::Binary(op, a, b) if scalar && op.is_comparison() => self.compare(*op, a, b),
            ExprKind::Binary(op @ (BinOp::LogAnd | BinOp::LogOr), a, b) if scalar => {
                self.logical_i1(*op, a, b)
            }
            _ => {
                let v = self.val(c)?;
                Ok(self.truth(v))
            }
        }
    }

    /// A scalar compared with zero (6.8.4: "compares unequal to 0").
    pub fn truth(&mut self, v: Value) -> Value {
        let t = self.b.value_type(v);
        if t == Type::I1 {
            return v;
        }
        let z = self.zero(t);
        if t.is_float() {
            self.b.fcmp(FloatCC::Une, v, z)
        } else {
            self.b.icmp(IntCC::Ne, v, z)
        }
    }

    // ---- expressions ----

    /// The value of an expression that has one.
    pub fn val(&mut self, e: &Expr) -> Res<Value> {
        self.expr(e)?
            .ok_or_else(|| LowerError::new("a void expression used as a value"))
    }

    fn is_lvalue(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Var(_)
            | ExprKind::Deref(_)
            | ExprKind::StrConst(_)
            | ExprKind::CompoundLit(_) => true,
            ExprKind::Member(b, _) | ExprKind::Swizzle(b, _) | ExprKind::VecElem(b, _) => {
                self.is_lvalue(b)
            }
            _ => false,
        }
    }

    fn var_addr(&mut self, v: VarId) -> Res<Value> {
        let place = match self.places.get(&v) {
            Some(p) => *p,
            None => match self.cx.globals.get(&v) {
                Some(&g) => {
                    let space = self.cx.module.globals[g].space;
                    Place::Global(g, space)
                }
                None => {
                    // A block-scope `extern` declaration names the program-scope variable of
                    // the same name, here or, once linked, in another program.
                    let g = self.cx.external_global(v);
                    Place::Global(g, self.cx.module.globals[g].space)
                }
            },
        };
        Ok(match place {
            Place::Slot(s) => self.b.slot_addr(s),
            Place::Addr(a) => a,
            Place::Global(g, space) => self.b.global_addr(g, space),
        })
    }

    pub fn lvalue(&mut self, e: &Expr) -> Res<LVal> {
        match &e.kind {
            ExprKind::Var(v) => {
                let var = &self.cx.p.vars[v.0 as usize];
                let align = var
                    .align
                    .map_or(self.cx.align_of(e.ty), |a| a as u32)
                    .max(1);
                let volatile = var.ty.is_volatile;
                let addr = self.var_addr(*v)?;
                let align = match self.places.get(v) {
                    Some(Place::Slot(s)) => self.b.func.slots[*s].align,
                    _ => align,
                };
                Ok(LVal::Mem {
                    addr,
                    ty: e.ty,
                    align,
                    volatile,
                })
            }
            ExprKind::Deref(p) => {
                let addr = self.val(p)?;
                let volatile = self.cx.p.types.pointee(p.ty).is_some_and(|q| q.is_volatile);
                Ok(LVal::Mem {
                    addr,
                    ty: e.ty,
                    align: self.cx.align_of(e.ty),
                    volatile,
                })
            }
            ExprKind::StrConst(s) => {
                let size = self.cx.size_of(e.ty);
                let g = self.cx.string_global(s, size);
                let addr = self.b.global_addr(g, IrSpace::Constant);
                Ok(LVal::Mem {
                    addr,
                    ty: e.ty,
                    align: 1,
                    volatile: false,
                })
            }
            ExprKind::CompoundLit(init) => {
                let s = self.new_slot(e.ty, None);
                let addr = self.b.slot_addr(s);
                let align = self.b.func.slots[s].align;
                self.init_store(addr, align, e.ty, init)?;
                Ok(LVal::Mem {
                    addr,
                    ty: e.ty,
                    align,
                    volatile: false,
                })
            }
            ExprKind::Member(base, i) => {
                let (addr, align, volatile) = if self.is_lvalue(base) {
                    match self.lvalue(base)? {
                        LVal::Mem {
                            addr,
                            align,
                            volatile,
                            ..
                        } => (addr, align, volatile),
                        LVal::Lanes { .. } | LVal::DynLane { .. } => {
                            return self.err("member of vector lanes")
                        }
                    }
                } else {
                    let a = self.val(base)?;
                    (a, self.cx.align_of(base.ty), false)
                };
                let CType::Record(r) = self.cx.ty(base.ty) else {
                    return self.err("member of a non-record");
                };
                let f = &self.cx.p.types.records[*r as usize].fields[*i as usize];
                let (off, fvol) = (f.offset as i64, f.ty.is_volatile);
                let addr = self.offset(addr, off);
                Ok(LVal::Mem {
                    addr,
                    ty: e.ty,
                    align: align_at(align, off),
                    volatile: volatile || fvol,
                })
            }
            ExprKind::Swizzle(base, idx) => match self.lvalue(base)? {
                LVal::Mem {
                    addr,
                    ty,
                    align,
                    volatile,
                } => Ok(LVal::Lanes {
                    addr,
                    vty: ty,
                    align,
                    volatile,
                    lanes: idx.clone(),
                }),
                LVal::Lanes {
                    addr,
                    vty,
                    align,
                    volatile,
                    lanes,
                } => Ok(LVal::Lanes {
                    addr,
                    vty,
                    align,
                    volatile,
                    lanes: idx
                        .iter()
                        .map(|&i| lanes.get(i as usize).copied().unwrap_or(i))
                        .collect(),
                }),
                LVal::DynLane { .. } => self.err("a swizzle of a scalar"),
            },
            ExprKind::VecElem(base, idx) => {
                if !self.is_lvalue(base) {
                    return self.err("a run-time lane of a vector value is not an lvalue");
                }
                let i = self.int_resize_val(idx)?;
                match self.lvalue(base)? {
                    LVal::Mem {
                        addr,
                        ty,
                        align,
                        volatile,
                    } => {
                        let n = self.reg(ty)?.lanes() as u8;
                        if self.b.value_type(addr).addr_space() == Some(IrSpace::Private) {
                            // Private vectors stay whole (mem2reg promotes them): lanes are
                            // picked and replaced with selects.
                            return Ok(LVal::DynLane {
                                addr,
                                vty: ty,
                                align,
                                volatile,
                                lanes: (0..n).collect(),
                                idx: i,
                            });
                        }
                        let es = self.cx.size_of(e.ty) as i64;
                        let k = self.iconst(Type::I64, es);
                        let off = self.b.imul(i, k);
                        let addr = self.b.ptradd(addr, off);
                        Ok(LVal::Mem {
                            addr,
                            ty: e.ty,
                            align: align.min(es as u32).max(1),
                            volatile,
                        })
                    }
                    LVal::Lanes {
                        addr,
                        vty,
                        align,
                        volatile,
                        lanes,
                    } => {
                        if self.b.value_type(addr).addr_space() == Some(IrSpace::Private) {
                            return Ok(LVal::DynLane {
                                addr,
                                vty,
                                align,
                                volatile,
                                lanes,
                                idx: i,
                            });
                        }
                        // Shared memory: the element's own address (lane lanes[i]).
                        let mut lane = self.iconst(Type::I64, i64::from(lanes[0]));
                        for (k, &l) in lanes.iter().enumerate().skip(1) {
                            let kv = self.iconst(Type::I64, k as i64);
                            let c = self.b.icmp(IntCC::Eq, i, kv);
                            let lv = self.iconst(Type::I64, i64::from(l));
                            lane = self.b.select(c, lv, lane);
                        }
                        let es = self.cx.size_of(e.ty) as i64;
                        let k = self.iconst(Type::I64, es);
                        let off = self.b.imul(lane, k);
                        let addr = self.b.ptradd(addr, off);
                        Ok(LVal::Mem {
                            addr,
                            ty: e.ty,
                            align: align.min(es as u32).max(1),
                            volatile,
                        })
                    }
                    LVal::DynLane { .. } => self.err("a lane of a scalar"),
                }
            }
            ExprKind::Cast(CastKind::NoOp, x) => self.lvalue(x),
            _ => self.err("expression is not an lvalue"),
        }
    }

    /// The value of an integer expression as an `i64` (zero- or sign-extended by its type).
    pub fn int_resize_val(&mut self, e: &Expr) -> Res<Value> {
        let v = self.val(e)?;
        let signed = self.cx.is_signed(e.ty);
        Ok(self.int_resize(v, signed, Type::I64))
    }

    /// Resizes an integer value (scalar or vector lanes) to `to`'s lane width.
    pub fn int_resize(&mut self, v: Value, signed: bool, to: Type) -> Value {
        let t = self.b.value_type(v);
        let (fb, tb) = (t.lane_bits(), to.lane_bits());
        if t == to {
            v
        } else if tb < fb {
            self.b.convert(ConvOp::Trunc, v, to)
        } else if tb == fb {
            v
        } else if signed && t.lane_type() != Type::I1 {
            self.b.convert(ConvOp::Sext, v, to)
        } else {
            self.b.convert(ConvOp::Zext, v, to)
        }
    }

    /// Arithmetic conversion of `v` between scalar element types, splatting to `lanes`.
    pub fn convert(&mut self, v: Value, from: TypeId, to: TypeId) -> Res<Value> {
        if from == to {
            return Ok(v);
        }
        let (Some((fs, fl)), Some((ts, tl))) = (self.cx.arith(from), self.cx.arith(to)) else {
            // Pointers and other non-arithmetic types keep their value.
            return Ok(v);
        };
        let fsigned = self.cx.is_signed(from);
        let tt = scalar_ir(ts).vector(u32::from(fl)).unwrap_or(scalar_ir(ts));
        let r = self.convert_scalar(v, fs, fsigned, ts, tt);
        if fl == 1 && tl > 1 {
            Ok(self.b.splat(r, u32::from(tl)))
        } else {
            Ok(r)
        }
    }

    fn convert_scalar(
        &mut self,
        v: Value,
        fs: Scalar,
        fsigned: bool,
        ts: Scalar,
        tt: Type,
    ) -> Value {
        if ts == Scalar::Bool {
            return self.truth(v);
        }
        match (fs.is_float(), ts.is_float()) {
            (false, false) => self.int_resize(v, fsigned, tt),
            (false, true) => {
                let v = if fs == Scalar::Bool {
                    self.b.convert(ConvOp::Zext, v, Type::I32)
                } else {
                    v
                };
                // 6.4.3.2: conversions to floating point round to nearest even by default.
                if fsigned && fs != Scalar::Bool {
                    self.b.convert(ConvOp::SintToFloat(Round::Rte), v, tt)
                } else {
                    self.b.convert(ConvOp::UintToFloat(Round::Rte), v, tt)
                }
            }
            (true, false) => {
                // 6.4.3.1: conversions to integer round toward zero.
                let op = if ts.is_signed() {
                    ConvOp::FloatToSint {
                        round: Round::Rtz,
                        sat: false,
                    }
                } else {
                    ConvOp::FloatToUint {
                        round: Round::Rtz,
                        sat: false,
                    }
                };
                self.b.convert(op, v, tt)
            }
            (true, true) => {
                if fs.size() == ts.size() {
                    v
                } else {
                    self.b.convert(ConvOp::Fconv(Round::Rte), v, tt)
                }
            }
        }
    }

    pub fn expr(&mut self, e: &Expr) -> Res<Option<Value>> {
        let v = match &e.kind {
            ExprKind::IntConst(v) => {
                let t = self.reg(e.ty)?;
                if t.is_float() {
                    self.fconst(t, *v as i64 as f64)
                } else if t.is_ptr() {
                    self.b.null(t)
                } else if t.lane_type() == Type::I1 {
                    self.iconst(t, (*v != 0) as i64)
                } else {
                    self.iconst(t, *v as i64)
                }
            }
            ExprKind::FloatConst(f) => {
                let t = self.reg(e.ty)?;
                self.fconst(t, *f)
            }
            ExprKind::Var(_)
            | ExprKind::Deref(_)
            | ExprKind::StrConst(_)
            | ExprKind::CompoundLit(_)
            | ExprKind::Member(..) => {
                let lv = self.lvalue(e)?;
                self.load(&lv)?
            }
            ExprKind::Swizzle(base, idx) => {
                if self.is_lvalue(base) {
                    let lv = self.lvalue(e)?;
                    self.load(&lv)?
                } else {
                    let v = self.val(base)?;
                    self.swizzle_value(v, idx)
                }
            }
            ExprKind::VecElem(base, idx) => {
                if self.is_lvalue(base) {
                    let lv = self.lvalue(e)?;
                    self.load(&lv)?
                } else {
                    let v = self.val(base)?;
                    let i = self.int_resize_val(idx)?;
                    let n = self.b.value_type(v).lanes() as u8;
                    let lanes: Vec<u8> = (0..n).collect();
                    self.dyn_extract(v, &lanes, i)
                }
            }
            ExprKind::Load(x) => {
                let lv = self.lvalue(x)?;
                self.load(&lv)?
            }
            ExprKind::Cast(k, x) => return self.cast(*k, x, e.ty),
            ExprKind::Unary(op, x) => self.unary(*op, x, e.ty)?,
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, e.ty)?,
            ExprKind::PtrAdd(p, i) => {
                let pv = self.val(p)?;
                let iv = self.val(i)?;
                self.ptr_add(pv, iv, p.ty)
            }
            ExprKind::PtrDiff(a, b) => {
                let (av, bv) = (self.val(a)?, self.val(b)?);
                let ia = self.b.ptrtoint(av, Type::I64);
                let ib = self.b.ptrtoint(bv, Type::I64);
                let d = self.b.binary(BinaryOp::Isub, ia, ib);
                let size = self.pointee_size(a.ty);
                let r = if size > 1 {
                    let k = self.iconst(Type::I64, size as i64);
                    self.b.binary(BinaryOp::Sdiv, d, k)
                } else {
                    d
                };
                let t = self.reg(e.ty)?;
                self.int_resize(r, true, t)
            }
            ExprKind::PtrCompare(op, a, b) => {
                let (av, bv) = (self.val(a)?, self.val(b)?);
                let cc = match op {
                    BinOp::Eq => IntCC::Eq,
                    BinOp::Ne => IntCC::Ne,
                    BinOp::Lt => IntCC::Ult,
                    BinOp::Le => IntCC::Ule,
                    BinOp::Gt => IntCC::Ugt,
                    _ => IntCC::Uge,
                };
                let c = self.b.icmp(cc, av, bv);
                let t = self.reg(e.ty)?;
                self.b.convert(ConvOp::Zext, c, t)
            }
            ExprKind::Assign(l, r) => {
                let lv = self.lvalue(l)?;
                let v = self.expr(r)?;
                self.store(&lv, v)?;
                match lv {
                    LVal::Mem { addr, ty, .. } if self.cx.is_aggregate(ty) => addr,
                    _ => v.ok_or_else(|| LowerError::new("void assignment"))?,
                }
            }
            ExprKind::CompoundAssign {
                op,
                lhs,
                rhs,
                compute,
            } => {
                let lv = self.lvalue(lhs)?;
                let old = self.load(&lv)?;
                let new = if self.cx.p.types.is_pointer(*compute) {
                    let iv = self.val(rhs)?;
                    self.ptr_add(old, iv, lhs.ty)
                } else {
                    let oc = self.convert(old, lhs.ty, *compute)?;
                    let rv = self.val(rhs)?;
                    let r = self.arith(*op, oc, rv, *compute)?;
                    self.convert(r, *compute, lhs.ty)?
                };
                self.store(&lv, Some(new))?;
                new
            }
            ExprKind::IncDec { pre, inc, target } => {
                let lv = self.lvalue(target)?;
                let old = self.load(&lv)?;
                let t = self.b.value_type(old);
                let new = if t.is_ptr() {
                    let one = self.iconst(Type::I64, if *inc { 1 } else { -1 });
                    self.ptr_add(old, one, target.ty)
                } else if t.is_float() {
                    let one = self.fconst(t, 1.0);
                    let op = if *inc { BinaryOp::Fadd } else { BinaryOp::Fsub };
                    self.b.binary(op, old, one)
                } else if t == Type::I1 {
                    // C99 6.5.2.4 on _Bool: x++ sets true; x-- flips.
                    let one = self.iconst(t, 1);
                    if *inc {
                        one
                    } else {
                        self.b.binary(BinaryOp::Bxor, old, one)
                    }
                } else {
                    let one = self.iconst(t, 1);
                    let op = if *inc { BinaryOp::Iadd } else { BinaryOp::Isub };
                    self.b.binary(op, old, one)
                };
                self.store(&lv, Some(new))?;
                if *pre {
                    new
                } else {
                    old
                }
            }
            ExprKind::Cond(c, a, b) => return self.conditional(c, a, b, e.ty),
            ExprKind::Comma(a, b) => {
                self.expr(a)?;
                return self.expr(b);
            }
            ExprKind::Call(callee, args) => return self.call(callee, args, e.ty),
            ExprKind::AddrOf(x) => match self.lvalue(x)? {
                LVal::Mem { addr, .. } => addr,
                LVal::Lanes { .. } | LVal::DynLane { .. } => {
                    return self.err("address of vector lanes")
                }
            },
            ExprKind::VecLit(parts) => {
                let vt = self.reg(e.ty)?;
                let mut lanes = Vec::new();
                for p in parts {
                    let v = self.val(p)?;
                    let t = self.b.value_type(v);
                    if t.is_vector() {
                        for i in 0..t.lanes() {
                            lanes.push(self.b.extractlane(v, i as u8));
                        }
                    } else {
                        lanes.push(v);
                    }
                }
                if lanes.len() != vt.lanes() as usize {
                    return self.err("vector literal with the wrong number of lanes");
                }
                self.build_vector(vt, &lanes)
            }
            ExprKind::Block(_) => {
                return self.err("block literals (device-side enqueue) are not supported")
            }
            ExprKind::Error => return self.err("an erroneous expression"),
        };
        Ok(Some(v))
    }

    fn pointee_size(&self, pt: TypeId) -> u64 {
        match self.cx.p.types.pointee(pt) {
            Some(q) => self.cx.p.types.size_of(q.ty).unwrap_or(1).max(1),
            None => 1,
        }
    }

    /// `p + i` elements of `p`'s pointee type.
    fn ptr_add(&mut self, p: Value, i: Value, pt: TypeId) -> Value {
        let i = self.int_resize(i, true, Type::I64);
        let size = self.pointee_size(pt);
        let off = if size == 1 {
            i
        } else {
            let k = self.iconst(Type::I64, size as i64);
            self.b.imul(i, k)
        };
        self.b.ptradd(p, off)
    }

    fn cast(&mut self, k: CastKind, x: &Expr, to: TypeId) -> Res<Option<Value>> {
        if k == CastKind::ToVoid {
            self.expr(x)?;
            return Ok(None);
        }
        if k == CastKind::ArrayToPointer {
            return match self.lvalue(x)? {
                LVal::Mem { addr, .. } => Ok(Some(addr)),
                LVal::Lanes { .. } | LVal::DynLane { .. } => self.err("array of vector lanes"),
            };
        }
        if k == CastKind::ToBool && !self.cx.p.types.is_vector(x.ty) {
            // 6.3.1.2 (C99): compares unequal to 0; comparisons give their i1 directly.
            return Ok(Some(self.cond(x)?));
        }
        if k == CastKind::NullToPointer {
            if !matches!(x.kind, ExprKind::IntConst(_)) {
                self.expr(x)?;
            }
            let t = self.reg(to)?;
            return Ok(Some(self.b.null(t)));
        }
        let v = self.val(x)?;
        let tt = self.reg(to)?;
        let r = match k {
            CastKind::IntToInt
            | CastKind::IntToFloat
            | CastKind::FloatToInt
            | CastKind::FloatToFloat
            | CastKind::Splat => self.convert(v, x.ty, to)?,
            CastKind::ToBool => {
                if self.b.value_type(v).is_ptr() {
                    let n = self.b.null(self.b.value_type(v));
                    self.b.icmp(IntCC::Ne, v, n)
                } else {
                    self.truth(v)
                }
            }
            CastKind::PointerCast => v,
            CastKind::ToGeneric | CastKind::FromGeneric => {
                if self.b.value_type(v) == tt {
                    v
                } else {
                    let space = tt.addr_space().unwrap_or(IrSpace::Generic);
                    self.b.addrcast(v, space)
                }
            }
            CastKind::PointerToInt => {
                let i = self.b.ptrtoint(v, Type::I64);
                self.int_resize(i, false, tt)
            }
            CastKind::IntToPointer => {
                let signed = self.cx.is_signed(x.ty);
                let i = self.int_resize(v, signed, Type::I64);
                self.b.inttoptr(i, tt)
            }
            CastKind::NoOp => {
                let t = self.b.value_type(v);
                if t == tt || t.is_ptr() || tt.is_ptr() || self.cx.is_aggregate(to) {
                    v
                } else if t.is_int() && tt.is_int() {
                    let signed = self.cx.is_signed(x.ty);
                    self.int_resize(v, signed, tt)
                } else {
                    v
                }
            }
            CastKind::ToVoid | CastKind::ArrayToPointer | CastKind::NullToPointer => {
                unreachable!("handled above")
            }
        };
        Ok(Some(r))
    }

    fn unary(&mut self, op: UnaryOp, x: &Expr, rt: TypeId) -> Res<Value> {
        let v = self.val(x)?;
        let t = self.b.value_type(v);
        Ok(match op {
            UnaryOp::Neg => {
                if t.is_float() {
                    self.b.unary(IrUnary::Fneg, v)
                } else {
                    self.b.unary(IrUnary::Ineg, v)
                }
            }
            UnaryOp::BitNot => self.b.unary(IrUnary::Bnot, v),
            UnaryOp::LogNot => {
                let z = self.zero(t);
                let c = if t.is_float() {
                    self.b.fcmp(FloatCC::Oeq, v, z)
                } else {
                    self.b.icmp(IntCC::Eq, v, z)
                };
                let rty = self.reg(rt)?;
                // 6.5.8: `!` gives int 1/0 on scalars, -1/0 on vectors.
                if t.is_vector() {
                    self.b.convert(ConvOp::Sext, c, rty)
                } else {
                    self.b.convert(ConvOp::Zext, c, rty)
                }
            }
        })
    }

    /// An arithmetic operation on values of type `t` (already converted).
    fn arith(&mut self, op: BinOp, a: Value, b: Value, t: TypeId) -> Res<Value> {
        let float = self.cx.is_float(t);
        let signed = self.cx.is_signed(t);
        let bop = match (op, float) {
            (BinOp::Add, true) => BinaryOp::Fadd,
            (BinOp::Sub, true) => BinaryOp::Fsub,
            (BinOp::Mul, true) => BinaryOp::Fmul,
            (BinOp::Div, true) => BinaryOp::Fdiv,
            (BinOp::Add, false) => BinaryOp::Iadd,
            (BinOp::Sub, false) => BinaryOp::Isub,
            (BinOp::Mul, false) => BinaryOp::Imul,
            (BinOp::Div, false) if signed => BinaryOp::Sdiv,
            (BinOp::Div, false) => BinaryOp::Udiv,
            (BinOp::Rem, false) if signed => BinaryOp::Srem,
            (BinOp::Rem, false) => BinaryOp::Urem,
            (BinOp::BitAnd, false) => BinaryOp::Band,
            (BinOp::BitOr, false) => BinaryOp::Bor,
            (BinOp::BitXor, false) => BinaryOp::Bxor,
            // 6.5.10: shift amounts are taken modulo the width (the IR masks).
            (BinOp::Shl, false) => BinaryOp::Shl,
            (BinOp::Shr, false) if signed => BinaryOp::Ashr,
            (BinOp::Shr, false) => BinaryOp::Lshr,
            _ => return self.err(format!("operator {op:?} on these operands")),
        };
        let bt = self.b.value_type(b);
        let at = self.b.value_type(a);
        let b = if at.is_vector() && !bt.is_vector() {
            self.b.splat(b, at.lanes())
        } else {
            b
        };
        Ok(self.b.binary(bop, a, b))
    }

    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr, rt: TypeId) -> Res<Value> {
        if matches!(op, BinOp::LogAnd | BinOp::LogOr) {
            return self.logical(op, a, b, rt);
        }
        if op.is_comparison() {
            let c = self.compare(op, a, b)?;
            let t = self.reg(rt)?;
            // 6.5.6: scalar relational and equality operators give int 1/0; on vectors
            // each lane is -1 (all bits set) or 0.
            return Ok(if t.is_vector() {
                self.b.convert(ConvOp::Sext, c, t)
            } else {
                self.b.convert(ConvOp::Zext, c, t)
            });
        }
        let av = self.val(a)?;
        let bv = self.val(b)?;
        self.arith(op, av, bv, rt)
    }

    /// A comparison as `i1` (lanes).
    fn compare(&mut self, op: BinOp, a: &Expr, b: &Expr) -> Res<Value> {
        let av = self.val(a)?;
        let bv = self.val(b)?;
        {
            let float = self.cx.is_float(a.ty);
            let signed = self.cx.is_signed(a.ty);
            let c = if float {
                let cc = match op {
                    BinOp::Eq => FloatCC::Oeq,
                    BinOp::Ne => FloatCC::Une,
                    BinOp::Lt => FloatCC::Olt,
                    BinOp::Le => FloatCC::Ole,
                    BinOp::Gt => FloatCC::Ogt,
                    _ => FloatCC::Oge,
                };
                self.b.fcmp(cc, av, bv)
            } else {
                let cc = match (op, signed) {
                    (BinOp::Eq, _) => IntCC::Eq,
                    (BinOp::Ne, _) => IntCC::Ne,
                    (BinOp::Lt, true) => IntCC::Slt,
                    (BinOp::Le, true) => IntCC::Sle,
                    (BinOp::Gt, true) => IntCC::Sgt,
                    (BinOp::Ge, true) => IntCC::Sge,
                    (BinOp::Lt, false) => IntCC::Ult,
                    (BinOp::Le, false) => IntCC::Ule,
                    (BinOp::Gt, false) => IntCC::Ugt,
                    _ => IntCC::Uge,
                };
                self.b.icmp(cc, av, bv)
            };
            Ok(c)
        }
    }

    fn logical(&mut self, op: BinOp, a: &Expr, b: &Expr, rt: TypeId) -> Res<Value> {
        let t = self.reg(rt)?;
        if t.is_vector() {
            // 6.5.7: on vectors both operands are evaluated; lanes give -1 or 0.
            let av = self.val(a)?;
            let bv = self.val(b)?;
            let (za, zb) = (
                self.zero(self.b.value_type(av)),
                self.zero(self.b.value_type(bv)),
            );
            let ca = if self.b.value_type(av).is_float() {
                self.b.fcmp(FloatCC::Une, av, za)
            } else {
                self.b.icmp(IntCC::Ne, av, za)
            };
            let cb = if self.b.value_type(bv).is_float() {
                self.b.fcmp(FloatCC::Une, bv, zb)
            } else {
                self.b.icmp(IntCC::Ne, bv, zb)
            };
            let sa = self.b.convert(ConvOp::Sext, ca, t);
            let sb = self.b.convert(ConvOp::Sext, cb, t);
            let bop = if op == BinOp::LogAnd {
                BinaryOp::Band
            } else {
                BinaryOp::Bor
            };
            return Ok(self.b.binary(bop, sa, sb));
        }
        let r = self.logical_i1(op, a, b)?;
        Ok(self.b.convert(ConvOp::Zext, r, t))
    }

    /// Scalar `&&` / `||` as an `i1`. 6.5.7 / C99 6.5.13: the right operand is evaluated
    /// only when needed.
    fn logical_i1(&mut self, op: BinOp, a: &Expr, b: &Expr) -> Res<Value> {
        let ca = self.cond(a)?;
        let rhs = self.b.create_block();
        let done = self.b.create_block();
        let r = self.b.append_block_param(done, Type::I1);
        if op == BinOp::LogAnd {
            let f = self.iconst(Type::I1, 0);
            self.b.brif(ca, rhs, &[], done, &[f]);
        } else {
            let tr = self.iconst(Type::I1, 1);
            self.b.brif(ca, done, &[tr], rhs, &[]);
        }
        self.b.switch_to_block(rhs);
        let cb = self.cond(b)?;
        self.b.jump(done, &[cb]);
        self.b.switch_to_block(done);
        Ok(r)
    }

    fn conditional(&mut self, c: &Expr, a: &Expr, b: &Expr, rt: TypeId) -> Res<Option<Value>> {
        if self.cx.p.types.is_vector(c.ty) {
            // 6.5.15: a vector condition is select(b, a, c): lanes whose condition has the
            // most significant bit set take `a`.
            let cv = self.val(c)?;
            let av = self.val(a)?;
            let bv = self.val(b)?;
            let z = self.zero(self.b.value_type(cv));
            let m = self.b.icmp(IntCC::Slt, cv, z);
            return Ok(Some(self.b.select(m, av, bv)));
        }
        let cond = self.cond(c)?;
        let then_b = self.b.create_block();
        let else_b = self.b.create_block();
        let done = self.b.create_block();
        let agg = self.cx.is_aggregate(rt);
        let tmp = if agg { Some(self.temp(rt)) } else { None };
        let param = match self.cx.reg_type(rt) {
            Some(t) if !agg => Some(self.b.append_block_param(done, t)),
            _ => None,
        };
        self.b.brif(cond, then_b, &[], else_b, &[]);
        for (blk, arm) in [(then_b, a), (else_b, b)] {
            self.b.switch_to_block(blk);
            let v = self.expr(arm)?;
            if let (Some(t), Some(v)) = (tmp, v) {
                let size = self.cx.size_of(rt);
                let al = self.cx.align_of(rt);
                self.copy(t, v, size, al);
                self.b.jump(done, &[]);
            } else if param.is_some() {
                let v = v.ok_or_else(|| LowerError::new("void arm of ?:"))?;
                self.b.jump(done, &[v]);
            } else {
                self.b.jump(done, &[]);
            }
        }
        self.b.switch_to_block(done);
        Ok(tmp.or(param))
    }

    fn call(&mut self, callee: &Callee, args: &[Expr], rt: TypeId) -> Res<Option<Value>> {
        match callee {
            Callee::User(f) => {
                let func = self.cx.funcs[f.0 as usize];
                let mut vals = Vec::new();
                let sret = if self.cx.is_aggregate(rt) {
                    let t = self.temp(rt);
                    vals.push(t);
                    Some(t)
                } else {
                    None
                };
                for a in args {
                    let v = self.val(a)?;
                    if self.cx.is_aggregate(a.ty) {
                        // By value: the callee gets its own copy.
                        let t = self.temp(a.ty);
                        let size = self.cx.size_of(a.ty);
                        let al = self.cx.align_of(a.ty);
                        self.copy(t, v, size, al);
                        vals.push(t);
                    } else {
                        vals.push(v);
                    }
                }
                let ret = self.cx.module.funcs[func].sig.ret;
                let r = self.b.call(func, ret, &vals);
                Ok(sret.or(r))
            }
            Callee::Builtin { name, params } => super::builtins::call(self, name, params, args, rt),
            Callee::Block(_) => self.err("calls of blocks (device-side enqueue) are not supported"),
        }
    }
}

pub(crate) fn scalar_ir(s: Scalar) -> Type {
    super::scalar_type(s)
}

/// The case and default statements of a switch body (not of nested switches), with their
/// values (None for default), by address.
fn collect_cases(s: &Stmt, out: &mut Vec<(usize, Option<i128>)>) {
    match &s.kind {
        StmtKind::Case(v, inner) => {
            out.push((s as *const Stmt as usize, Some(*v)));
            collect_cases(inner, out);
        }
        StmtKind::Default(inner) => {
            out.push((s as *const Stmt as usize, None));
            collect_cases(inner, out);
        }
        StmtKind::Block(list) => list.iter().for_each(|s| collect_cases(s, out)),
        StmtKind::If(_, a, b) => {
            collect_cases(a, out);
            if let Some(b) = b {
                collect_cases(b, out);
            }
        }
        StmtKind::While(_, b, _)
        | StmtKind::DoWhile(b, _, _)
        | StmtKind::Label(_, b)
        | StmtKind::For(_, _, _, b, _) => collect_cases(b, out),
        _ => {}
    }
}
