//! Lowering of one function body: statements, expressions, lvalues and memory.

mod expr;
mod stmt;

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
    /// `#pragma OPENCL FP_CONTRACT` at this point of the source (DEFAULT: ON).
    fp_contract: bool,
    /// The number of loops around the declaration of each local variable (parameters: 0).
    decl_loops: HashMap<VarId, usize>,
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
            fp_contract: true,
            decl_loops: HashMap::new(),
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

    /// The number of loops (not switches) around the statement being lowered.
    fn loop_depth(&self) -> usize {
        self.loops.iter().filter(|(_, cont)| cont.is_some()).count()
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
                                self.push_lanes(v, &mut lanes);
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
}

pub(crate) fn scalar_ir(s: Scalar) -> Type {
    super::scalar_type(s)
}
