//! Lowering: the checked tree of [`crate::sema::tree`] to an [`ferrocl_ir::Module`].
//!
//! The translation is mechanical; sema has already made every conversion explicit.
//!
//! - Every function becomes an IR function of the same name (overloadable functions are
//!   named by their parameter types as builtins are below: `h.float`); kernels carry
//!   [`ferrocl_ir::KernelInfo`]. Program-scope variables, function-scope `static` and
//!   `__constant` variables become module globals named as written (function-scope ones
//!   `function.variable`); each kernel-scope `__local` variable is one global in the `local`
//!   space named `kernel.variable`. String literals are `constant` globals `.str.N`.
//!   A program-scope pointer initialized with the address of a global
//!   (`__global int *p = &counter;`) holds zero bytes in its initial value and a relocation
//!   ([`ferrocl_ir::Relocation`]) that a device resolves when it allocates the globals.
//! - Locals and parameters live in private stack slots, read and written with loads and
//!   stores; the `mem2reg` pass promotes them. Booleans are `i1` in registers and `i8` in
//!   memory. Structs, unions and arrays live in memory only: an aggregate value is the
//!   address of its bytes, copied where C copies it. An aggregate parameter is passed as a
//!   `ptr.private` to a copy the caller makes (kernels included: the runtime passes the
//!   address of the argument's bytes); an aggregate result is written through a hidden first
//!   parameter, a `ptr.private` to the caller's temporary.
//! - Builtins that are one IR operation, or a few, are expanded in place: work-item queries,
//!   barriers and fences, atomics, conversions, reinterpretations, vector loads and stores
//!   (half ones included), relational, common, geometric (dot, cross, length, distance,
//!   fast_*) and most integer functions, shuffles, async copies (shared over the
//!   work-group; `wait_group_events` is a barrier) and the work-group collective functions
//!   (`group_*` instructions; `work_group_broadcast`'s 2-D and 3-D ids become a linear
//!   id). `native_` and `half_` functions without an instruction use the full-precision
//!   function.
//! - Every other builtin is a call to a declared function that the builtin library defines.
//!   Its name is the builtin's name and the overload's parameter types, each as OpenCL C
//!   spells it, joined by dots: `sin.float4`, `pow.float.float`, `ldexp.float4.int`. A
//!   pointer parameter is `<space>_ptr_<pointee>`, qualifiers dropped:
//!   `fract.float4.private_ptr_float4`. Opaque types use their names (`event_t`,
//!   `image2d_t`). `printf` is one function, `@printf(ptr.constant, ptr.private) -> i32`:
//!   the format and a private buffer holding the other arguments, each at the next offset
//!   aligned to its size (a 3-lane vector takes 4 lanes, a pointer 8 bytes, a bool an
//!   `int`). The address-space queries
//!   `to_global`, `to_local`, `to_private` and `get_fence` take any generic pointer and are
//!   named without parameter types.

mod builtins;
mod func;

use std::collections::HashMap;

use ferrocl_ir::{self as ir, AddrSpace as IrSpace, Func, Global, GlobalData, Module, Type};

use crate::parse::ast::BinOp;
use crate::sema::tree::{CastKind, Expr, ExprKind, FuncId, Init, UnaryOp, VarId, VarKind};
use crate::sema::types::{AddrSpace, Scalar, Type as CType, TypeId};
use crate::sema::{ArgAccess, ArgAddress, CheckedProgram};

/// Why a checked program could not be lowered (a construct lowering does not support yet).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LowerError {
    pub message: String,
}

impl LowerError {
    fn new(message: impl Into<String>) -> LowerError {
        LowerError {
            message: message.into(),
        }
    }
}

impl std::fmt::Display for LowerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for LowerError {}

type Res<T> = Result<T, LowerError>;

/// Lowers a checked program to an IR module (not yet optimized; verify it with
/// [`ferrocl_ir::verify_module`]).
pub fn lower(program: &CheckedProgram) -> Result<Module, LowerError> {
    let mut cx = ModCtx::declared(program)?;
    for (i, f) in program.functions.iter().enumerate() {
        if f.body.is_some() {
            func::lower_function(&mut cx, FuncId(i as u32))?;
        }
    }
    Ok(cx.module)
}

/// Lowers the kernels of a checked program and the functions they reach, for a program
/// executable: the functions no kernel calls (most of a large library of included helpers)
/// are checked by sema, with their diagnostics, but never lowered. A program without kernels
/// is lowered whole, as [`lower`] does.
pub fn lower_reachable(program: &CheckedProgram) -> Result<Module, LowerError> {
    if program.kernels.is_empty() {
        return lower(program);
    }
    let mut cx = ModCtx::declared(program)?;
    let by_ir: HashMap<Func, FuncId> = cx
        .funcs
        .iter()
        .enumerate()
        .map(|(i, &f)| (f, FuncId(i as u32)))
        .collect();
    let mut lowered = vec![false; program.functions.len()];
    let mut work: Vec<FuncId> = program.kernels.iter().map(|k| k.function).collect();
    while let Some(id) = work.pop() {
        let i = id.0 as usize;
        if std::mem::replace(&mut lowered[i], true) || program.functions[i].body.is_none() {
            continue;
        }
        func::lower_function(&mut cx, id)?;
        let f = &cx.module.funcs[cx.funcs[i]];
        for &b in f.layout.blocks() {
            for &inst in f.layout.block_insts(b) {
                if let ir::Op::Call(c) = f.dfg.insts[inst].op {
                    work.extend(by_ir.get(&c).copied());
                }
            }
        }
    }
    // The declarations of the functions left unlowered go too.
    ir::passes::strip::run(&mut cx.module);
    Ok(cx.module)
}

/// Module-wide state of one lowering.
pub(crate) struct ModCtx<'p> {
    pub p: &'p CheckedProgram,
    pub module: Module,
    /// The IR function of each sema function.
    pub funcs: Vec<Func>,
    /// The global of each global variable.
    pub globals: HashMap<VarId, Global>,
    /// Declared builtin library functions by mangled name.
    pub decls: HashMap<String, Func>,
    /// String literal globals by contents.
    pub strings: HashMap<Vec<u8>, Global>,
    /// Pointers in global initializers that hold addresses of globals.
    pub relocs: Vec<Reloc>,
    init_target: Option<VarId>,
}

/// Where an address constant points.
#[derive(Clone, Copy, Debug)]
pub(crate) enum RelocSrc {
    Var(VarId),
    Global(Global),
}

/// A pointer inside a global's initial value that holds the address of a global, found while
/// the initializers are evaluated and recorded as an IR relocation once every global exists.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reloc {
    /// The global whose bytes hold the pointer, and the pointer's offset there.
    pub target: VarId,
    pub offset: i64,
    /// The object pointed to and the byte offset into it.
    pub src: RelocSrc,
    pub src_off: i64,
}

fn ir_space(s: AddrSpace) -> IrSpace {
    match s {
        AddrSpace::Private => IrSpace::Private,
        AddrSpace::Global => IrSpace::Global,
        AddrSpace::Local => IrSpace::Local,
        AddrSpace::Constant => IrSpace::Constant,
        AddrSpace::Generic => IrSpace::Generic,
    }
}

fn scalar_type(s: Scalar) -> Type {
    match s {
        Scalar::Bool => Type::I1,
        Scalar::Char | Scalar::UChar => Type::I8,
        Scalar::Short | Scalar::UShort => Type::I16,
        Scalar::Int | Scalar::UInt => Type::I32,
        Scalar::Long | Scalar::ULong => Type::I64,
        Scalar::Half => Type::F16,
        Scalar::Float => Type::F32,
        Scalar::Double => Type::F64,
    }
}

/// The alignment known at `offset` bytes past an address aligned to `align`.
pub(crate) fn align_at(align: u32, offset: i64) -> u32 {
    if offset == 0 {
        align
    } else {
        align.min(1u32 << (offset.trailing_zeros().min(31)))
    }
}

impl<'p> ModCtx<'p> {
    /// The context with every function declared and the globals lowered.
    fn declared(program: &'p CheckedProgram) -> Res<ModCtx<'p>> {
        let mut cx = ModCtx {
            p: program,
            module: Module::new(),
            funcs: Vec::new(),
            globals: HashMap::new(),
            decls: HashMap::new(),
            strings: HashMap::new(),
            relocs: Vec::new(),
            init_target: None,
        };
        cx.declare_functions()?;
        cx.lower_globals()?;
        Ok(cx)
    }

    pub fn ty(&self, t: TypeId) -> &'p CType {
        self.p.types.get(t)
    }

    /// Whether values of `t` live in memory only (records and arrays).
    pub fn is_aggregate(&self, t: TypeId) -> bool {
        matches!(self.ty(t), CType::Record(_) | CType::Array(..))
    }

    /// The register type of a value of `t`: aggregates are the address of their bytes (in
    /// the private space, unless the caller knows better); `None` for void.
    pub fn reg_type(&self, t: TypeId) -> Option<Type> {
        Some(match self.ty(t) {
            CType::Void | CType::Function { .. } => return None,
            // Blocks (device-side enqueue) have no value lowering supports; calls and
            // literals of them are reported where they are lowered.
            CType::Block { .. } => Type::I64,
            CType::Scalar(s) => scalar_type(*s),
            CType::Vector(s, n) => scalar_type(*s)
                .vector(u32::from(*n))
                .expect("OpenCL vector lane count"),
            CType::Pointer(q) => Type::ptr(ir_space(q.space)),
            CType::Array(..) | CType::Record(_) => Type::ptr(IrSpace::Private),
            CType::Enum(_) => Type::I32,
            CType::Atomic(s) => scalar_type(*s),
            CType::AtomicFlag | CType::Sampler => Type::I32,
            // The kernel ABI (ArgKind::Image, ArgKind::Pipe): an image is the address of its
            // descriptor, a pipe the address of its storage.
            CType::Image(..) | CType::Pipe(..) => Type::ptr(IrSpace::Global),
            CType::Event | CType::ClkEvent | CType::Queue | CType::ReserveId | CType::NdRange => {
                Type::I64
            }
        })
    }

    /// The type of `t` in memory (booleans are bytes).
    pub fn mem_type(&self, t: TypeId) -> Option<Type> {
        let r = self.reg_type(t)?;
        Some(if r.lane_type() == Type::I1 {
            r.with_lane_type(Type::I8).expect("i8 lanes")
        } else {
            r
        })
    }

    pub fn size_of(&self, t: TypeId) -> u64 {
        self.p.types.size_of(t).unwrap_or(0)
    }

    pub fn align_of(&self, t: TypeId) -> u32 {
        self.p.types.align_of(t).unwrap_or(1).max(1) as u32
    }

    /// Scalar element and lanes of an arithmetic type.
    pub fn arith(&self, t: TypeId) -> Option<(Scalar, u8)> {
        self.p.types.arith(t)
    }

    pub fn is_signed(&self, t: TypeId) -> bool {
        match self.ty(t) {
            CType::Enum(_) => false,
            CType::Atomic(s) => s.is_signed(),
            _ => self.arith(t).is_some_and(|(s, _)| s.is_signed()),
        }
    }

    pub fn is_float(&self, t: TypeId) -> bool {
        self.arith(t).is_some_and(|(s, _)| s.is_float())
    }

    /// The OpenCL C spelling of a builtin parameter type for mangled names.
    pub fn mangle_type(&self, t: TypeId) -> String {
        match self.ty(t) {
            CType::Pointer(q) => {
                let sp = match q.space {
                    AddrSpace::Private => "private",
                    AddrSpace::Global => "global",
                    AddrSpace::Local => "local",
                    AddrSpace::Constant => "constant",
                    AddrSpace::Generic => "generic",
                };
                format!("{sp}_ptr_{}", self.mangle_type(q.ty))
            }
            CType::Image(d, _) => d.name().to_string(),
            _ => self.p.types.name(t).replace(' ', "_"),
        }
    }

    fn declare_functions(&mut self) -> Res<()> {
        let p = self.p;
        let mut uses: HashMap<&str, u32> = HashMap::new();
        for f in &p.functions {
            *uses.entry(f.name.as_str()).or_default() += 1;
        }
        for f in &p.functions {
            let mut params = Vec::new();
            let mut ret = self.reg_type(f.ret);
            if self.is_aggregate(f.ret) {
                params.push(Type::ptr(IrSpace::Private));
                ret = None;
            }
            for v in &f.params {
                let t = p.vars[v.0 as usize].ty.ty;
                params.push(
                    self.reg_type(t)
                        .ok_or_else(|| LowerError::new("parameter of type void"))?,
                );
            }
            // Overloadable functions (a clang extension) share a name: each overload is named
            // like a builtin, by its parameter types (`h.float`, `h.int`).
            let name = if uses[f.name.as_str()] > 1 {
                let mut n = f.name.clone();
                for v in &f.params {
                    n.push('.');
                    n.push_str(&self.mangle_type(p.vars[v.0 as usize].ty.ty));
                }
                n
            } else {
                f.name.clone()
            };
            let id = self
                .module
                .add_function(&name, ir::Signature::new(&params, ret));
            self.funcs.push(id);
        }
        for k in &p.kernels {
            let f = self.funcs[k.function.0 as usize];
            let args = k
                .args
                .iter()
                .map(|a| {
                    let mut quals = 0u8;
                    if a.is_const {
                        quals |= ir::TypeQualifiers::CONST.0;
                    }
                    if a.is_restrict {
                        quals |= ir::TypeQualifiers::RESTRICT.0;
                    }
                    if a.is_volatile {
                        quals |= ir::TypeQualifiers::VOLATILE.0;
                    }
                    if a.is_pipe {
                        quals |= ir::TypeQualifiers::PIPE.0;
                    }
                    ir::KernelArg {
                        name: a.name.clone(),
                        type_name: a.type_name.clone(),
                        space: match a.address {
                            ArgAddress::Global => IrSpace::Global,
                            ArgAddress::Local => IrSpace::Local,
                            ArgAddress::Constant => IrSpace::Constant,
                            ArgAddress::Private => IrSpace::Private,
                        },
                        access: match a.access {
                            ArgAccess::None => ir::AccessQualifier::None,
                            ArgAccess::ReadOnly => ir::AccessQualifier::ReadOnly,
                            ArgAccess::WriteOnly => ir::AccessQualifier::WriteOnly,
                            ArgAccess::ReadWrite => ir::AccessQualifier::ReadWrite,
                        },
                        quals: ir::TypeQualifiers(quals),
                        kind: a.kind,
                        size: a.size as u32,
                        align: a.align as u32,
                    }
                })
                .collect();
            let dims =
                |d: Option<[u64; 3]>| d.map(|d| d.map(|x| x.min(u64::from(u32::MAX)) as u32));
            self.module.funcs[f].kernel = Some(ir::KernelInfo {
                args,
                reqd_work_group_size: dims(k.reqd_work_group_size),
                work_group_size_hint: dims(k.work_group_size_hint),
                vec_type_hint: k.vec_type_hint.clone(),
            });
        }
        Ok(())
    }

    /// The function a variable declared at function scope belongs to, by scanning bodies.
    fn owners(&self) -> HashMap<VarId, String> {
        use crate::sema::tree::{Stmt, StmtKind};
        fn walk(s: &Stmt, name: &str, out: &mut HashMap<VarId, String>) {
            match &s.kind {
                StmtKind::Decl(v, _) => {
                    out.insert(*v, name.to_string());
                }
                StmtKind::Block(list) => list.iter().for_each(|s| walk(s, name, out)),
                StmtKind::If(..) => {
                    crate::sema::tree::else_if_chain(s).for_each(|s| walk(s, name, out))
                }
                StmtKind::While(_, b, _)
                | StmtKind::DoWhile(b, _, _)
                | StmtKind::Switch(_, b)
                | StmtKind::Case(_, b)
                | StmtKind::Default(b)
                | StmtKind::Label(_, b) => walk(b, name, out),
                StmtKind::For(i, _, _, b, _) => {
                    if let Some(i) = i {
                        walk(i, name, out);
                    }
                    walk(b, name, out);
                }
                _ => {}
            }
        }
        let mut out = HashMap::new();
        for f in &self.p.functions {
            if let Some(b) = &f.body {
                walk(b, &f.name, &mut out);
            }
        }
        out
    }

    fn lower_globals(&mut self) -> Res<()> {
        let p = self.p;
        let owners = self.owners();
        for (v, init) in &p.globals {
            let var = &p.vars[v.0 as usize];
            if var.kind == VarKind::Extern {
                continue;
            }
            let t = var.ty.ty;
            let mut size = self.size_of(t);
            // An array sized by its initializer (C99 6.7.8p22) when sema left it incomplete.
            if let (CType::Array(e, None), Some(i)) = (self.ty(t), init) {
                let es = self.size_of(e.ty);
                size = match i {
                    Init::Expr(Expr {
                        kind: ExprKind::StrConst(s),
                        ..
                    }) => (s.len() as u64 + 1) * es,
                    Init::List(_, items) => items.len() as u64 * es,
                    Init::Expr(_) => size,
                };
            }
            let align = var
                .align
                .map_or(self.align_of(t), |a| (a as u32).max(self.align_of(t)));
            let space = match var.ty.space {
                AddrSpace::Constant => IrSpace::Constant,
                AddrSpace::Local => IrSpace::Local,
                _ => IrSpace::Global,
            };
            let name = match owners.get(v) {
                Some(f) => format!("{f}.{}", var.name),
                None => var.name.clone(),
            };
            let bytes = match init {
                Some(i) if space != IrSpace::Local => {
                    let mut buf = vec![0u8; size as usize];
                    self.init_target = Some(*v);
                    self.const_init(i, &mut buf, 0)?;
                    self.init_target = None;
                    Some(buf)
                }
                _ => None,
            };
            let g = self.module.add_global(GlobalData {
                name: self.unique_global_name(name),
                space,
                size: size.max(1) as u32,
                align: align.next_power_of_two(),
                init: bytes.map(|mut b| {
                    if b.is_empty() {
                        b.push(0);
                    }
                    b
                }),
                external: false,
                relocs: Vec::new(),
            });
            self.globals.insert(*v, g);
        }
        // `extern` declarations name the definition of the same name, here or, once linked,
        // in another program (OpenCL C 6.10).
        for (v, _) in &p.globals {
            if p.vars[v.0 as usize].kind == VarKind::Extern {
                let g = self.external_global(*v);
                self.globals.insert(*v, g);
            }
        }
        self.place_relocations()
    }

    /// Records each address a global's initializer holds as a relocation of that global, now
    /// that every global it may name exists: a device writes the addresses when it allocates
    /// the globals, once per program, so a kernel that changes such a pointer leaves it
    /// changed for the next launch (6.7.8: program-scope variables live as long as the
    /// program).
    fn place_relocations(&mut self) -> Res<()> {
        for r in std::mem::take(&mut self.relocs) {
            let Some(&at) = self.globals.get(&r.target) else {
                continue;
            };
            let target = match r.src {
                RelocSrc::Global(g) => g,
                RelocSrc::Var(v) => match self.globals.get(&v) {
                    Some(&g) => g,
                    None => return Err(LowerError::new("address of a variable without storage")),
                },
            };
            self.module.globals[at].relocs.push(ir::Relocation {
                offset: r.offset as u32,
                target,
                addend: r.src_off,
            });
        }
        Ok(())
    }

    /// The global an `extern` variable names: the module's global of that name, or a new
    /// external one that linking resolves (its size 0 where the type is incomplete).
    pub fn external_global(&mut self, v: VarId) -> Global {
        let var = &self.p.vars[v.0 as usize];
        if let Some(g) = self.module.global_by_name(&var.name) {
            return g;
        }
        let t = var.ty.ty;
        let space = match var.ty.space {
            AddrSpace::Constant => IrSpace::Constant,
            _ => IrSpace::Global,
        };
        self.module.add_global(GlobalData {
            name: var.name.clone(),
            space,
            size: self.size_of(t) as u32,
            align: self.align_of(t).next_power_of_two(),
            init: None,
            external: true,
            relocs: Vec::new(),
        })
    }

    fn unique_global_name(&self, name: String) -> String {
        if self.module.global_by_name(&name).is_none() {
            return name;
        }
        (1..)
            .map(|i| format!("{name}.{i}"))
            .find(|n| self.module.global_by_name(n).is_none())
            .expect("a free name")
    }

    /// The constant global holding a string literal's bytes (zero-padded to `size`).
    pub fn string_global(&mut self, bytes: &[u8], size: u64) -> Global {
        let mut data = bytes.to_vec();
        data.resize((size as usize).max(bytes.len()).max(1), 0);
        if let Some(&g) = self.strings.get(&data) {
            return g;
        }
        let name = self.unique_global_name(format!(".str.{}", self.strings.len()));
        let g = self.module.add_global(GlobalData {
            name,
            space: IrSpace::Constant,
            size: data.len() as u32,
            align: 1,
            init: Some(data.clone()),
            external: false,
            relocs: Vec::new(),
        });
        self.strings.insert(data, g);
        g
    }

    /// Writes the bytes of a constant initializer at `off` (lists carry the object's type,
    /// expressions have been converted to it).
    fn const_init(&mut self, init: &Init, buf: &mut [u8], off: usize) -> Res<()> {
        let p = self.p;
        match init {
            Init::Expr(e) => {
                if let ExprKind::StrConst(s) = &e.kind {
                    let n = s.len().min(buf.len().saturating_sub(off));
                    buf[off..off + n].copy_from_slice(&s[..n]);
                    return Ok(());
                }
                if self.is_aggregate(e.ty) {
                    return Err(LowerError::new(
                        "aggregate-valued constant initializer expression",
                    ));
                }
                if matches!(self.ty(e.ty), CType::Pointer(_)) {
                    if let Some((src, src_off)) = self.const_address(e) {
                        let target = self.init_target.ok_or_else(|| {
                            LowerError::new("address constant outside a global initializer")
                        })?;
                        self.relocs.push(Reloc {
                            target,
                            offset: off as i64,
                            src,
                            src_off,
                        });
                        return Ok(());
                    }
                }
                let lanes = self.const_eval(e)?;
                self.write_lanes(e.ty, &lanes, buf, off)
            }
            Init::List(lt, items) => {
                let lt = *lt;
                match p.types.get(lt) {
                    CType::Record(r) => {
                        let rec = &p.types.records[*r as usize];
                        for (i, item) in items.iter().enumerate() {
                            if let (Some(item), Some(f)) = (item, rec.fields.get(i)) {
                                self.const_init(item, buf, off + f.offset as usize)?;
                            }
                        }
                    }
                    CType::Array(e, _) => {
                        let es = self.size_of(e.ty) as usize;
                        for (i, item) in items.iter().enumerate() {
                            if let Some(item) = item {
                                self.const_init(item, buf, off + i * es)?;
                            }
                        }
                    }
                    CType::Vector(s, _) => {
                        let es = s.size() as usize;
                        let mut lane = 0usize;
                        for item in items {
                            match item {
                                Some(Init::Expr(e)) => {
                                    let n = self.arith(e.ty).map_or(1, |x| x.1) as usize;
                                    self.const_init(&Init::Expr(e.clone()), buf, off + lane * es)?;
                                    lane += n;
                                }
                                Some(i) => {
                                    self.const_init(i, buf, off + lane * es)?;
                                    lane += 1;
                                }
                                None => lane += 1,
                            }
                        }
                    }
                    _ => {
                        if let Some(Some(item)) = items.first() {
                            self.const_init(item, buf, off)?;
                        }
                    }
                }
                Ok(())
            }
        }
    }

    fn write_lanes(&self, t: TypeId, lanes: &[CV], buf: &mut [u8], off: usize) -> Res<()> {
        let Some((s, _)) = self.arith(t).or(match self.ty(t) {
            CType::Pointer(_) => Some((Scalar::ULong, 1)),
            CType::Sampler => Some((Scalar::UInt, 1)),
            CType::Atomic(s) => Some((*s, 1)),
            CType::AtomicFlag => Some((Scalar::Int, 1)),
            _ => None,
        }) else {
            return Err(LowerError::new("constant initializer of this type"));
        };
        let size = if matches!(self.ty(t), CType::Pointer(_)) {
            self.p.types.pointer_size as usize
        } else {
            s.size() as usize
        };
        for (i, l) in lanes.iter().enumerate() {
            let bits: u64 = match (*l, s.is_float()) {
                (CV::I(v), false) => v as u64,
                (CV::F(f), false) => f as i128 as u64,
                (CV::I(v), true) => float_bits(v as f64, s),
                (CV::F(f), true) => float_bits(f, s),
            };
            let at = off + i * size;
            if at + size > buf.len() {
                break;
            }
            buf[at..at + size].copy_from_slice(&bits.to_le_bytes()[..size]);
        }
        Ok(())
    }

    /// The object and offset an address constant (C99 6.6p9) points to. A conversion to a
    /// generic pointer changes no bits (a generic pointer holds the named address).
    fn const_address(&mut self, e: &Expr) -> Option<(RelocSrc, i64)> {
        match &e.kind {
            ExprKind::Cast(CastKind::ToGeneric | CastKind::PointerCast | CastKind::NoOp, x) => {
                self.const_address(x)
            }
            ExprKind::Cast(CastKind::ArrayToPointer, x) | ExprKind::AddrOf(x) => {
                self.lvalue_address(x)
            }
            ExprKind::PtrAdd(p, i) => {
                let (s, o) = self.const_address(p)?;
                let n = match self.const_eval(i).ok()?.first()? {
                    CV::I(v) => *v as i64,
                    CV::F(_) => return None,
                };
                let size = self
                    .p
                    .types
                    .pointee(p.ty)
                    .and_then(|q| self.p.types.size_of(q.ty))
                    .unwrap_or(1) as i64;
                Some((s, o + n * size))
            }
            _ => None,
        }
    }

    fn lvalue_address(&mut self, e: &Expr) -> Option<(RelocSrc, i64)> {
        match &e.kind {
            ExprKind::Var(v) => {
                let k = self.p.vars[v.0 as usize].kind;
                (k == VarKind::Global).then_some((RelocSrc::Var(*v), 0))
            }
            ExprKind::StrConst(s) => {
                let size = self.size_of(e.ty);
                Some((RelocSrc::Global(self.string_global(s, size)), 0))
            }
            ExprKind::Member(b, i) => {
                let (s, o) = self.lvalue_address(b)?;
                let CType::Record(r) = self.ty(b.ty) else {
                    return None;
                };
                let f = &self.p.types.records[*r as usize].fields[*i as usize];
                Some((s, o + f.offset as i64))
            }
            ExprKind::Deref(p) => self.const_address(p),
            _ => None,
        }
    }

    /// Evaluates a constant expression lane by lane.
    fn const_eval(&self, e: &Expr) -> Res<Vec<CV>> {
        let bad = || LowerError::new("initializer is not a constant lowering can evaluate");
        Ok(match &e.kind {
            ExprKind::IntConst(v) => vec![CV::I(self.wrap(*v as i128, e.ty))],
            ExprKind::FloatConst(f) => vec![CV::F(*f)],
            ExprKind::Cast(k, x) => {
                let l = self.const_eval(x)?;
                match k {
                    CastKind::IntToInt | CastKind::NoOp => l
                        .into_iter()
                        .map(|c| match c {
                            CV::I(v) => CV::I(self.wrap(v, e.ty)),
                            f => f,
                        })
                        .collect(),
                    CastKind::IntToFloat | CastKind::FloatToFloat => l
                        .into_iter()
                        .map(|c| {
                            let f = match c {
                                CV::I(v) => v as f64,
                                CV::F(f) => f,
                            };
                            let s = self.arith(e.ty).map_or(Scalar::Double, |x| x.0);
                            CV::F(if s == Scalar::Float {
                                f as f32 as f64
                            } else {
                                f
                            })
                        })
                        .collect(),
                    CastKind::FloatToInt => l
                        .into_iter()
                        .map(|c| match c {
                            CV::F(f) => CV::I(self.wrap(f as i128, e.ty)),
                            i => i,
                        })
                        .collect(),
                    CastKind::ToBool => vec![CV::I(match l.first() {
                        Some(CV::I(v)) => (*v != 0) as i128,
                        Some(CV::F(f)) => (*f != 0.0) as i128,
                        None => 0,
                    })],
                    CastKind::Splat => {
                        let n = self.arith(e.ty).map_or(1, |x| x.1) as usize;
                        let first = *l.first().ok_or_else(bad)?;
                        vec![first; n]
                    }
                    CastKind::NullToPointer => vec![CV::I(0)],
                    _ => return Err(bad()),
                }
            }
            ExprKind::VecLit(parts) => {
                let mut out = Vec::new();
                for p in parts {
                    out.extend(self.const_eval(p)?);
                }
                out
            }
            ExprKind::Unary(op, x) => {
                let l = self.const_eval(x)?;
                l.into_iter()
                    .map(|c| match (op, c) {
                        (UnaryOp::Neg, CV::I(v)) => CV::I(self.wrap(v.wrapping_neg(), e.ty)),
                        (UnaryOp::Neg, CV::F(f)) => CV::F(-f),
                        (UnaryOp::BitNot, CV::I(v)) => CV::I(self.wrap(!v, e.ty)),
                        (UnaryOp::LogNot, CV::I(v)) => CV::I((v == 0) as i128),
                        (UnaryOp::LogNot, CV::F(f)) => CV::I((f == 0.0) as i128),
                        (_, c) => c,
                    })
                    .collect()
            }
            ExprKind::Binary(..) => {
                // A left-deep chain (`1 + 2 + 3 + ...`) is evaluated with a loop over its left
                // spine, so that its length takes no stack.
                let (left, mut spine) = crate::sema::tree::binary_spine(e, |_| true);
                let mut acc = self.const_eval(left)?;
                while let Some((op, b, ty)) = spine.pop() {
                    acc = self.const_binary(op, acc, self.const_eval(b)?, ty)?;
                }
                acc
            }
            ExprKind::Cond(c, a, b) => {
                let c = self.const_eval(c)?;
                let t = match c.first() {
                    Some(CV::I(v)) => *v != 0,
                    Some(CV::F(f)) => *f != 0.0,
                    None => false,
                };
                self.const_eval(if t { a } else { b })?
            }
            ExprKind::Comma(_, b) => self.const_eval(b)?,
            _ => return Err(bad()),
        })
    }

    /// `la op lb`, lane by lane, in a constant of type `ty`.
    fn const_binary(&self, op: BinOp, la: Vec<CV>, lb: Vec<CV>, ty: TypeId) -> Res<Vec<CV>> {
        let bad = || LowerError::new("initializer is not a constant lowering can evaluate");
        // Lanes hold their values wrapped to the type (unsigned ones non-negative),
        // so i128 arithmetic gives the C result for either signedness.
        let mut out = Vec::new();
        for (x, y) in la.into_iter().zip(lb) {
            out.push(match (x, y) {
                (CV::I(x), CV::I(y)) => {
                    let v = match op {
                        BinOp::Add => x.wrapping_add(y),
                        BinOp::Sub => x.wrapping_sub(y),
                        BinOp::Mul => x.wrapping_mul(y),
                        BinOp::Div if y != 0 => x / y,
                        BinOp::Rem if y != 0 => x % y,
                        BinOp::BitAnd => x & y,
                        BinOp::BitOr => x | y,
                        BinOp::BitXor => x ^ y,
                        BinOp::Shl => x << (y & 63),
                        BinOp::Shr => x >> (y & 63),
                        BinOp::Lt => (x < y) as i128,
                        BinOp::Gt => (x > y) as i128,
                        BinOp::Le => (x <= y) as i128,
                        BinOp::Ge => (x >= y) as i128,
                        BinOp::Eq => (x == y) as i128,
                        BinOp::Ne => (x != y) as i128,
                        BinOp::LogAnd => (x != 0 && y != 0) as i128,
                        BinOp::LogOr => (x != 0 || y != 0) as i128,
                        _ => return Err(bad()),
                    };
                    CV::I(self.wrap(v, ty))
                }
                (CV::F(x), CV::F(y)) => match op {
                    BinOp::Add => CV::F(x + y),
                    BinOp::Sub => CV::F(x - y),
                    BinOp::Mul => CV::F(x * y),
                    BinOp::Div => CV::F(x / y),
                    BinOp::Lt => CV::I((x < y) as i128),
                    BinOp::Gt => CV::I((x > y) as i128),
                    BinOp::Le => CV::I((x <= y) as i128),
                    BinOp::Ge => CV::I((x >= y) as i128),
                    BinOp::Eq => CV::I((x == y) as i128),
                    BinOp::Ne => CV::I((x != y) as i128),
                    _ => return Err(bad()),
                },
                _ => return Err(bad()),
            });
        }
        Ok(out)
    }

    /// Wraps an integer to the range of `t` (sign- or zero-extended).
    fn wrap(&self, v: i128, t: TypeId) -> i128 {
        let Some((s, _)) = self.arith(t) else {
            return v;
        };
        if s == Scalar::Bool {
            return (v != 0) as i128;
        }
        if s.is_float() {
            return v;
        }
        let bits = s.size() * 8;
        let m = v & ((1i128 << bits) - 1);
        if self.is_signed(t) && m >> (bits - 1) & 1 == 1 {
            m - (1i128 << bits)
        } else {
            m
        }
    }
}

/// A constant lane.
#[derive(Clone, Copy, Debug)]
enum CV {
    I(i128),
    F(f64),
}

fn float_bits(f: f64, s: Scalar) -> u64 {
    match s {
        Scalar::Float => u64::from((f as f32).to_bits()),
        Scalar::Half => ir::float::from_f64(f, Type::F16, ir::Round::Rte),
        _ => f.to_bits(),
    }
}
