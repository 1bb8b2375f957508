//! Semantic analysis: turns the syntax tree into the checked tree of [`tree`], applying the
//! type system and rules of OpenCL C section 6 — conversions, vector operations, address
//! spaces, the restrictions of 6.11, builtin overload resolution — and collects the kernel
//! metadata the runtime reports (clGetKernelInfo / clGetKernelArgInfo).

pub mod expr;
mod overload;
pub mod print;
mod record;
mod static_assert;
pub mod tree;
pub mod types;

use crate::builtins;
use crate::diag::{Diags, Loc};
use crate::hash::FxHashMap;
use crate::lex::Interner;
use crate::parse::ast::{self, Access, BaseType, Derived, Storage, Sym};
pub use ferrocl_ir::ArgKind;
use std::collections::HashMap;
use tree::*;
use types::*;

/// What the compiled OpenCL C version and the target allow.
#[derive(Clone, Debug)]
pub struct LangOpts {
    pub version: u32,
    pub fp64: bool,
    pub fp16: bool,
    pub images: bool,
    /// Generic address space (2.0, or 3.0 with __opencl_c_generic_address_space).
    pub generic: bool,
    /// Program-scope variables in the global address space (2.0, or the 3.0 feature).
    pub program_scope_globals: bool,
    pub single_precision_constant: bool,
    pub pointer_size: u64,
}

/// Entries an initializer list may hold (they are stored densely up to the last one).
const MAX_INIT_ENTRIES: usize = 1 << 22;

/// A block literal being checked: the scope depth its body starts at, what it captures,
/// and its result type (from its first `return`).
#[derive(Clone, Debug, Default)]
pub(crate) struct BlockCtx {
    pub base_scope: usize,
    pub captures: Vec<VarId>,
    pub ret: Option<TypeId>,
}

/// A parameter as declared: type, name, location, explicit address space, spelling, access.
pub type ParamInfo = (QualType, Option<Sym>, Loc, bool, String, Option<Access>);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binding {
    Var(VarId),
    Func(FuncId),
    Typedef(u32),
    EnumConst(i64),
}

#[derive(Clone, Debug)]
pub struct Typedef {
    pub ty: QualType,
    pub name: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FnAttrs {
    pub reqd_work_group_size: Option<[u64; 3]>,
    pub work_group_size_hint: Option<[u64; 3]>,
    pub vec_type_hint: Option<String>,
    /// The attributes as written, for CL_KERNEL_ATTRIBUTES.
    pub text: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub ret: TypeId,
    pub params: Vec<VarId>,
    pub is_kernel: bool,
    pub is_inline: bool,
    pub body: Option<Stmt>,
    pub loc: Loc,
    pub attrs: FnAttrs,
    /// Per parameter: the type as spelled (kernel argument type names) and access qualifier.
    pub param_spellings: Vec<(String, Option<Access>)>,
    /// Declared with `...` (reported: only printf may be variadic), calls are not checked
    /// against the parameter count beyond the fixed ones.
    pub variadic: bool,
    /// Declared `__attribute__((overloadable))` (a clang extension kernels use).
    pub overloadable: bool,
}

/// CL_KERNEL_ARG_ADDRESS_QUALIFIER.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgAddress {
    Global,
    Local,
    Constant,
    Private,
}

/// CL_KERNEL_ARG_ACCESS_QUALIFIER.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgAccess {
    None,
    ReadOnly,
    WriteOnly,
    ReadWrite,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelArg {
    pub name: String,
    /// CL_KERNEL_ARG_TYPE_NAME: as declared, without qualifiers (`float*`, `uint4`).
    pub type_name: String,
    pub address: ArgAddress,
    pub access: ArgAccess,
    pub is_const: bool,
    pub is_restrict: bool,
    pub is_volatile: bool,
    pub is_pipe: bool,
    /// How the argument is passed (the kernel ABI of `ir`).
    pub kind: ArgKind,
    /// Bytes of a by-value argument (pointer size for pointers and opaque handles).
    pub size: u64,
    /// Alignment of the argument's type in bytes.
    pub align: u64,
    pub ty: TypeId,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelInfo {
    pub name: String,
    pub function: FuncId,
    pub args: Vec<KernelArg>,
    pub reqd_work_group_size: Option<[u64; 3]>,
    pub work_group_size_hint: Option<[u64; 3]>,
    pub vec_type_hint: Option<String>,
    /// CL_KERNEL_ATTRIBUTES: the attributes as written, space separated.
    pub attributes: String,
}

/// A fully checked program.
#[derive(Debug)]
pub struct CheckedProgram {
    pub types: Types,
    pub vars: Vec<Var>,
    pub functions: Vec<Function>,
    /// Program-scope variables (and function-scope statics) with their initializers.
    pub globals: Vec<(VarId, Option<Init>)>,
    pub kernels: Vec<KernelInfo>,
    /// `#pragma OPENCL EXTENSION` in effect at the end of the program.
    pub extensions: Vec<(String, bool)>,
    pub fp_contract: bool,
}

impl CheckedProgram {
    pub fn kernels(&self) -> &[KernelInfo] {
        &self.kernels
    }
    pub fn kernel(&self, name: &str) -> Option<&KernelInfo> {
        self.kernels.iter().find(|k| k.name == name)
    }
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }
    pub fn type_name(&self, t: TypeId) -> String {
        self.types.name(t)
    }
}

pub struct Sema<'a> {
    pub types: Types,
    pub interner: &'a Interner,
    pub diags: &'a mut Diags,
    pub opts: LangOpts,
    pub cfg: builtins::Config,
    cfg_fingerprint: u64,
    scopes: Vec<FxHashMap<Sym, Binding>>,
    tags: Vec<FxHashMap<Sym, TypeId>>,
    pub vars: Vec<Var>,
    pub funcs: Vec<Function>,
    pub typedefs: Vec<Typedef>,
    globals: Vec<(VarId, Option<Init>)>,
    cur_fn: Option<FuncId>,
    cur_ret: TypeId,
    loop_depth: u32,
    switch_stack: Vec<Vec<(i128, Loc)>>,
    labels: HashMap<String, Loc>,
    gotos: Vec<(String, Loc)>,
    calls: Vec<(FuncId, FuncId, Loc)>,
    /// Overload sets of `overloadable` user functions, by name.
    overloads: FxHashMap<Sym, Vec<FuncId>>,
    /// Block literals being checked, innermost last.
    pub(crate) block_stack: Vec<BlockCtx>,
    /// The last declarator had an error: its variable is poisoned.
    declarator_failed: bool,
    /// Variables whose declaration had an error: their uses report nothing more.
    poisoned: crate::hash::FxHashSet<u32>,
    /// Nesting depth inside the current function body (1 = outermost block).
    block_depth: u32,
    anon_records: u32,
}

impl<'a> Sema<'a> {
    pub fn new(
        interner: &'a Interner,
        diags: &'a mut Diags,
        opts: LangOpts,
        cfg: builtins::Config,
    ) -> Self {
        let types = Types::new(opts.pointer_size);
        let void = TypeId(0);
        Sema {
            types,
            interner,
            diags,
            opts,
            cfg_fingerprint: cfg.fingerprint(),
            cfg,
            scopes: vec![FxHashMap::default()],
            tags: vec![FxHashMap::default()],
            vars: Vec::new(),
            funcs: Vec::new(),
            typedefs: Vec::new(),
            globals: Vec::new(),
            cur_fn: None,
            cur_ret: void,
            loop_depth: 0,
            switch_stack: Vec::new(),
            labels: HashMap::new(),
            gotos: Vec::new(),
            calls: Vec::new(),
            block_depth: 0,
            anon_records: 0,
            declarator_failed: false,
            block_stack: Vec::new(),
            overloads: FxHashMap::default(),
            poisoned: Default::default(),
        }
    }

    pub fn name(&self, s: Sym) -> &str {
        self.interner.name(s)
    }
    fn version_text(&self) -> String {
        let v = self.opts.version;
        format!("{}.{}", v / 100, (v / 10) % 10)
    }

    // ---- scopes ----

    fn push_scope(&mut self) {
        self.scopes.push(FxHashMap::default());
        self.tags.push(FxHashMap::default());
    }
    fn pop_scope(&mut self) {
        self.scopes.pop();
        self.tags.pop();
    }
    pub fn lookup(&self, s: Sym) -> Option<Binding> {
        self.scopes.iter().rev().find_map(|m| m.get(&s).copied())
    }
    /// The binding and the depth of the scope that holds it.
    pub fn lookup_depth(&self, s: Sym) -> Option<(Binding, usize)> {
        self.scopes
            .iter()
            .enumerate()
            .rev()
            .find_map(|(i, m)| m.get(&s).map(|b| (*b, i)))
    }

    fn bind(&mut self, s: Sym, b: Binding, loc: Loc) {
        let scope = self.scopes.last_mut().expect("scope");
        if let Some(old) = scope.get(&s) {
            let redefinition = match (old, &b) {
                (Binding::Func(_), Binding::Func(_)) => false,
                (Binding::Var(a), Binding::Var(b)) => {
                    let (va, vb) = (&self.vars[a.0 as usize], &self.vars[b.0 as usize]);
                    !(va.kind == VarKind::Extern || vb.kind == VarKind::Extern)
                }
                (Binding::Typedef(a), Binding::Typedef(b)) => {
                    self.typedefs[*a as usize].ty != self.typedefs[*b as usize].ty
                }
                _ => true,
            };
            if redefinition {
                let n = self.interner.name(s).to_string();
                let msg = match (old, &b) {
                    (Binding::Var(_), Binding::Var(_))
                    | (Binding::Typedef(_), Binding::Typedef(_)) => {
                        format!("redefinition of '{n}'")
                    }
                    _ => format!("redefinition of '{n}' as different kind of symbol"),
                };
                self.diags.error(loc, msg);
                let prev = match old {
                    Binding::Var(v) => Some(self.vars[v.0 as usize].loc),
                    Binding::Func(f) => Some(self.funcs[f.0 as usize].loc),
                    _ => None,
                };
                if let Some(p) = prev {
                    self.diags.note(p, "previous definition is here");
                }
                return;
            }
        }
        self.scopes.last_mut().expect("scope").insert(s, b);
    }

    // ---- types from declarations ----

    /// The type a declaration's specifiers name (before declarators).
    fn base_type(&mut self, spec: &ast::DeclSpec) -> QualType {
        if spec.space == Some(AddrSpace::Generic) && !self.opts.generic {
            // 6.7.5: the generic address space exists from OpenCL C 2.0 (3.0: with the feature).
            self.diags.error(spec.loc, "the generic address space requires OpenCL C 2.0 or the __opencl_c_generic_address_space feature");
        }
        let q = self.base_type_inner(spec);
        if spec.is_pipe {
            let loc = spec.loc;
            let ty = q.ty;
            // 6.15.18: `pipe T` with read_only (the default) or write_only access.
            let a = spec.access.unwrap_or(Access::ReadOnly);
            if a == Access::ReadWrite {
                self.diags.error(
                    loc,
                    "access qualifier 'read_write' can not be used for pipes",
                );
            }
            if self.opts.version == 300
                && !self.cfg.features.iter().any(|f| f == "__opencl_c_pipes")
            {
                self.diags
                    .error(loc, "pipes require the __opencl_c_pipes feature");
            }
            let pty = self.types.intern(Type::Pipe(ty, a));
            return QualType {
                ty: pty,
                ..Default::default()
            };
        }
        q
    }

    fn base_type_inner(&mut self, spec: &ast::DeclSpec) -> QualType {
        let loc = spec.loc;
        let ty = match &spec.base {
            BaseType::Void => self.types.void(),
            BaseType::Scalar(s) => {
                self.check_scalar_allowed(*s, loc);
                self.types.scalar(*s)
            }
            BaseType::Vector(s, n) => {
                self.check_scalar_allowed(*s, loc);
                self.types.vector(*s, *n)
            }
            BaseType::SizeT | BaseType::UintptrT => self.types.size_t(),
            BaseType::PtrdiffT | BaseType::IntptrT => self.types.ptrdiff_t(),
            BaseType::Image(d) => {
                if spec.quals.is_const || spec.quals.is_volatile || spec.quals.is_restrict {
                    // 6.11.q
                    self.diags.error(
                        loc,
                        "image types cannot be qualified with 'const', 'volatile' or 'restrict'",
                    );
                }
                if !self.opts.images {
                    self.diags.error(
                        loc,
                        format!("use of type '{}' requires image support", d.name()),
                    );
                }
                // 6.8: an image without an access qualifier is read_only.
                let a = spec.access.unwrap_or(Access::ReadOnly);
                if a == Access::ReadWrite && self.opts.version < 200 {
                    self.diags.error(loc, format!("access qualifier 'read_write' can not be used for '{}' prior to OpenCL C version 2.0", d.name()));
                }
                self.types.intern(Type::Image(*d, a))
            }
            BaseType::Sampler => self.types.intern(Type::Sampler),
            BaseType::Event => self.types.intern(Type::Event),
            BaseType::ClkEvent => self.types.intern(Type::ClkEvent),
            BaseType::Queue => self.types.intern(Type::Queue),
            BaseType::ReserveId => self.types.intern(Type::ReserveId),
            BaseType::NdRange => self.types.intern(Type::NdRange),
            BaseType::MemoryOrder | BaseType::MemoryScope => self.types.int(),
            BaseType::Atomic(s) => {
                if self.opts.version < 200 {
                    self.diags
                        .error(loc, "atomic types require OpenCL C version 2.0 or later");
                }
                self.check_scalar_allowed(*s, loc);
                self.types.intern(Type::Atomic(*s))
            }
            BaseType::AtomicFlag => self.types.intern(Type::AtomicFlag),
            BaseType::Record(r) => self.record(r),
            BaseType::Enum(e) => self.enumeration(e),
            BaseType::Typedef(s) => match self.lookup(*s) {
                Some(Binding::Typedef(t)) => {
                    let td = self.typedefs[t as usize].ty;
                    let mut q = td;
                    q.is_const |= spec.quals.is_const;
                    q.is_volatile |= spec.quals.is_volatile;
                    if let Some(sp) = spec.space {
                        q.space = sp;
                    }
                    return q;
                }
                _ => {
                    let n = self.name(*s).to_string();
                    self.diags.error(loc, format!("unknown type name '{n}'"));
                    TypeId(0)
                }
            },
        };
        if spec.access.is_some() && !matches!(spec.base, BaseType::Image(_)) && !spec.is_pipe {
            self.diags.error(
                loc,
                "access qualifier can only be used for pipe and image type",
            );
        }
        QualType {
            ty,
            is_const: spec.quals.is_const,
            is_volatile: spec.quals.is_volatile,
            is_restrict: spec.quals.is_restrict,
            space: spec.space.unwrap_or_default(),
        }
    }

    /// double needs fp64, half values need fp16 (6.3.1, 6.11.n).
    fn check_scalar_allowed(&mut self, s: Scalar, loc: Loc) {
        if s == Scalar::Double && !self.opts.fp64 {
            let msg = if self.opts.version >= 300 {
                "use of type 'double' requires cl_khr_fp64 and __opencl_c_fp64 support"
            } else {
                "use of type 'double' requires cl_khr_fp64 support"
            };
            self.diags.error(loc, msg);
        }
    }

    /// Applies declarators to a base type. `pointee_default` is the address space unqualified
    /// pointees get. Reports function pointers, VLAs and bad array sizes.
    pub fn declarator_type(
        &mut self,
        base: QualType,
        base_explicit: bool,
        d: &ast::Declarator,
    ) -> (QualType, Option<(Vec<ParamInfo>, bool)>) {
        let mut cur = base;
        let mut explicit = base_explicit;
        let mut fn_params = None;
        let n = d.derived.len();
        for (i, der) in d.derived.iter().rev().enumerate() {
            let outermost = i + 1 == n;
            match der {
                Derived::Pointer { quals, space } => {
                    if matches!(self.types.get(cur.ty), Type::Function { .. }) {
                        self.diags
                            .error(d.loc, "pointers to functions are not allowed");
                    }
                    if let Type::Image(dim, _) = self.types.get(cur.ty) {
                        let nm = dim.name();
                        self.diags.error(
                            d.loc,
                            format!("pointer to type '{nm}' is invalid in OpenCL"),
                        );
                    }
                    if matches!(self.types.get(cur.ty), Type::Sampler) {
                        self.diags
                            .error(d.loc, "pointer to type 'sampler_t' is invalid in OpenCL");
                    }
                    let mut pointee = cur;
                    if !explicit {
                        pointee.space = if self.opts.generic {
                            AddrSpace::Generic
                        } else {
                            AddrSpace::Private
                        };
                    }
                    let pty = self.types.pointer(pointee);
                    cur = QualType {
                        ty: pty,
                        is_const: quals.is_const,
                        is_volatile: quals.is_volatile,
                        is_restrict: quals.is_restrict,
                        space: space.unwrap_or_default(),
                    };
                    explicit = space.is_some();
                }
                Derived::Array { size, loc } => {
                    if matches!(self.types.get(cur.ty), Type::Image(..)) {
                        self.diags
                            .error(*loc, "array of image type is invalid in OpenCL");
                    }
                    if matches!(self.types.get(cur.ty), Type::Sampler) {
                        self.diags
                            .error(*loc, "array of 'sampler_t' type is invalid in OpenCL");
                    }
                    if self.types.is_void(cur.ty) {
                        self.diags
                            .error(*loc, "array has incomplete element type 'void'");
                    }
                    let len = match size {
                        None => None,
                        Some(e) => {
                            let ce = self.expr(e);
                            let ce = self.rvalue(ce);
                            if ce.is_error() {
                                Some(1)
                            } else if !self.types.is_integer(ce.ty) {
                                let tn = self.types.name(ce.ty);
                                self.diags.error(
                                    e.loc,
                                    format!("size of array has non-integer type '{tn}'"),
                                );
                                Some(1)
                            } else {
                                match self.const_int(&ce) {
                                    Some(v) if v < 0 => {
                                        self.diags.error(e.loc, "array size is negative");
                                        Some(1)
                                    }
                                    Some(0) => {
                                        self.diags.error(
                                            e.loc,
                                            "zero size arrays are not supported in OpenCL C",
                                        );
                                        Some(1)
                                    }
                                    Some(v) => Some(v as u64),
                                    None => {
                                        // 6.11.d: no variable length arrays.
                                        self.diags.error(
                                            e.loc,
                                            "variable length arrays are not supported in OpenCL",
                                        );
                                        Some(1)
                                    }
                                }
                            }
                        }
                    };
                    let elem = cur;
                    let aty = self.types.intern(Type::Array(
                        QualType {
                            space: AddrSpace::Private,
                            ..elem
                        },
                        len,
                    ));
                    cur = QualType {
                        ty: aty,
                        is_const: elem.is_const,
                        is_volatile: elem.is_volatile,
                        is_restrict: false,
                        space: elem.space,
                    };
                }
                Derived::Block { loc } => {
                    // 6.14.2: `R (^name)(P...)` references a block of type R(P...).
                    match self.types.get(cur.ty).clone() {
                        Type::Function { ret, params, .. } => {
                            let b = self.types.intern(Type::Block { ret, params });
                            cur = QualType::new(b);
                        }
                        _ => {
                            self.diags
                                .error(*loc, "block reference must name a function type");
                        }
                    }
                    explicit = false;
                }
                Derived::Function {
                    params,
                    variadic,
                    loc,
                } => {
                    let mut ps = Vec::new();
                    self.push_scope();
                    for p in params {
                        let b = self.base_type(&p.spec);
                        let (pt, _) = self.declarator_type(b, p.spec.space.is_some(), &p.decl);
                        let mut pt = pt;
                        // Parameters of array type are pointers (C99 6.7.5.3p7).
                        if let Type::Array(e, _) = self.types.get(pt.ty).clone() {
                            let mut e = e;
                            e.space = pt.space;
                            if p.spec.space.is_none() && !self.opts.generic {
                                e.space = AddrSpace::Private;
                            } else if p.spec.space.is_none() {
                                e.space = AddrSpace::Generic;
                            }
                            pt = QualType::new(self.types.pointer(e));
                        }
                        let spelled = self.spelling(&p.spec, &p.decl);
                        ps.push((
                            pt,
                            p.decl.name,
                            p.decl.loc,
                            p.spec.space.is_some(),
                            spelled,
                            p.spec.access,
                        ));
                    }
                    self.pop_scope();
                    if *variadic {
                        // 6.11.e: no variadic functions but printf and enqueue_kernel.
                        self.diags.error(
                            *loc,
                            "invalid prototype, variadic arguments are not allowed in OpenCL",
                        );
                    }
                    if matches!(self.types.get(cur.ty), Type::Array(..)) {
                        self.diags.error(*loc, "function cannot return array type");
                    }
                    let fty = self.types.intern(Type::Function {
                        ret: cur.ty,
                        params: ps.iter().map(|p| p.0.ty).collect(),
                        variadic: false,
                    });
                    if outermost {
                        fn_params = Some((ps, *variadic));
                    }
                    cur = QualType::new(fty);
                    explicit = false;
                }
            }
        }
        (cur, fn_params)
    }

    /// The type name of a declaration as written (CL_KERNEL_ARG_TYPE_NAME).
    fn spelling(&self, spec: &ast::DeclSpec, d: &ast::Declarator) -> String {
        let mut s = spec.base_name.clone();
        if let BaseType::Vector(sc, n) = spec.base {
            s = format!("{}{}", sc.name(), n);
        }
        for der in &d.derived {
            match der {
                Derived::Pointer { .. } => s.push('*'),
                Derived::Block { .. } => s.push('^'),
                Derived::Array { .. } => s.push('*'),
                Derived::Function { .. } => {}
            }
        }
        s
    }

    fn record(&mut self, r: &ast::RecordSpec) -> TypeId {
        let kw = if r.is_union { "union" } else { "struct" };
        // Lookup or create the tag.
        let existing = r.name.and_then(|n| {
            if r.fields.is_some() {
                self.tags.last().and_then(|t| t.get(&n).copied())
            } else {
                self.tags.iter().rev().find_map(|t| t.get(&n).copied())
            }
        });
        let id = match existing {
            Some(t) => t,
            None => {
                let name = match r.name {
                    Some(n) => self.name(n).to_string(),
                    None => {
                        self.anon_records += 1;
                        format!("(anonymous at {})", self.anon_records)
                    }
                };
                self.types.records.push(Record {
                    name,
                    is_union: r.is_union,
                    fields: vec![],
                    complete: false,
                    size: 0,
                    align: 1,
                    packed: false,
                    typedef_named: false,
                });
                let rid = self.types.records.len() as u32 - 1;
                let t = self.types.intern(Type::Record(rid));
                if let Some(n) = r.name {
                    self.tags.last_mut().expect("tags").insert(n, t);
                }
                t
            }
        };
        let Type::Record(rid) = *self.types.get(id) else {
            let n = r.name.map(|n| self.name(n).to_string()).unwrap_or_default();
            self.diags.error(
                r.loc,
                format!("use of '{n}' with tag type that does not match previous declaration"),
            );
            return id;
        };
        let Some(groups) = &r.fields else { return id };
        if self.types.records[rid as usize].complete {
            let n = self.types.records[rid as usize].name.clone();
            self.diags
                .error(r.loc, format!("redefinition of '{kw} {n}'"));
            return id;
        }
        self.check_object_attrs(&r.attrs);
        let packed = r.attrs.iter().any(|a| a.name == "packed");
        let mut fields = Vec::new();
        for g in groups {
            let base = self.base_type(&g.spec);
            if g.fields.is_empty() {
                fields.extend(self.anonymous_member(g, base));
            }
            for (d, width) in &g.fields {
                if let Some(w) = width {
                    // 6.11.c: bit-fields are not supported.
                    self.diags
                        .error(w.loc, "bit-fields are not supported in OpenCL");
                }
                let (q, _) = self.declarator_type(base, g.spec.space.is_some(), d);
                if object_space(&g.spec, d).is_some() {
                    self.diags
                        .error(d.loc, "field may not be qualified with an address space");
                }
                match self.types.get(q.ty) {
                    Type::Image(dim, _) => {
                        let nm = dim.name();
                        self.diags.error(d.loc, format!("the '{nm}' type cannot be used to declare a structure or union field"));
                    }
                    Type::Sampler
                    | Type::Event
                    | Type::ClkEvent
                    | Type::ReserveId
                    | Type::Queue => {
                        let nm = self.types.name(q.ty);
                        self.diags.error(d.loc, format!("the '{nm}' type cannot be used to declare a structure or union field"));
                    }
                    Type::Array(_, None) => {
                        self.diags
                            .error(d.loc, "flexible array members are not supported in OpenCL");
                    }
                    Type::Function { .. } => {
                        self.diags.error(d.loc, "field declared as a function");
                    }
                    _ => {
                        if self.types.size_of(q.ty).is_none() {
                            let tn = self.types.name(q.ty);
                            self.diags
                                .error(d.loc, format!("field has incomplete type '{tn}'"));
                        }
                    }
                }
                if let Some(n) = d.name {
                    if fields.iter().any(|f: &Field| f.name == Some(n)) {
                        let nm = self.name(n).to_string();
                        self.diags.error(d.loc, format!("duplicate member '{nm}'"));
                    }
                }
                let q = QualType {
                    space: AddrSpace::Private,
                    ..q
                };
                let align = self.align_attr(&d.attrs).or(self.align_attr(&g.spec.attrs));
                self.check_object_attrs(&d.attrs);
                fields.push(Field {
                    name: d.name,
                    ty: q,
                    offset: 0,
                    align,
                });
            }
        }
        self.check_anonymous_duplicates(&fields, r.loc);
        // Layout (C rules; `packed` drops padding).
        let (mut size, mut align) = (0u64, 1u64);
        for f in &mut fields {
            let fs = self.types.size_of(f.ty.ty).unwrap_or(0);
            let fa = if let Some(a) = f.align {
                a.max(1)
            } else if packed {
                1
            } else {
                self.types.align_of(f.ty.ty).unwrap_or(1).max(1)
            };
            align = align.max(fa);
            if r.is_union {
                f.offset = 0;
                size = size.max(fs);
            } else {
                size = size.div_ceil(fa).saturating_mul(fa);
                f.offset = size;
                size = size.saturating_add(fs);
            }
        }
        for a in &r.attrs {
            if a.name == "aligned" {
                // Without an argument: the largest alignment of any type (a long16).
                let v = if a.args.is_empty() {
                    Some(128)
                } else {
                    self.attr_int(a, 0)
                };
                if let Some(v) = v {
                    align = align.max(v);
                }
            }
        }
        size = size.div_ceil(align).saturating_mul(align);
        let rec = &mut self.types.records[rid as usize];
        rec.fields = fields;
        rec.complete = true;
        rec.size = size;
        rec.align = align;
        rec.packed = packed;
        id
    }

    fn enumeration(&mut self, e: &ast::EnumSpec) -> TypeId {
        let existing = e
            .name
            .and_then(|n| self.tags.iter().rev().find_map(|t| t.get(&n).copied()));
        let id = match existing {
            Some(t) if e.enumerators.is_none() => return t,
            Some(t) => t,
            None => {
                let name = e
                    .name
                    .map(|n| self.name(n).to_string())
                    .unwrap_or_else(|| "(anonymous)".into());
                self.types.enums.push(EnumDef {
                    name,
                    complete: false,
                });
                let t = self
                    .types
                    .intern(Type::Enum(self.types.enums.len() as u32 - 1));
                if let Some(n) = e.name {
                    self.tags.last_mut().expect("tags").insert(n, t);
                }
                t
            }
        };
        if let Some(list) = &e.enumerators {
            let mut next: i64 = 0;
            for (name, value, loc) in list {
                if let Some(v) = value {
                    let ce = self.expr(v);
                    let ce = self.rvalue(ce);
                    match self.const_int(&ce) {
                        Some(x) => next = x as i64,
                        None if ce.is_error() => {}
                        None => self
                            .diags
                            .error(v.loc, "expression is not an integer constant expression"),
                    }
                }
                self.bind(*name, Binding::EnumConst(next), *loc);
                next = next.wrapping_add(1);
            }
            if let Type::Enum(i) = *self.types.get(id) {
                self.types.enums[i as usize].complete = true;
            }
        }
        id
    }

    fn attr_int(&mut self, a: &ast::Attr, i: usize) -> Option<u64> {
        match a.args.get(i) {
            Some(ast::AttrArg::Expr(e)) => {
                let ce = self.expr(e);
                let ce = self.rvalue(ce);
                match self.const_int(&ce) {
                    Some(v) if v >= 0 => Some(v as u64),
                    _ => {
                        self.diags.error(
                            e.loc,
                            format!("'{}' attribute requires an integer constant", a.name),
                        );
                        None
                    }
                }
            }
            _ => {
                self.diags.error(
                    a.loc,
                    format!("'{}' attribute requires an integer constant", a.name),
                );
                None
            }
        }
    }

    // ---- the translation unit ----

    pub fn translation_unit(
        mut self,
        tu: &[ast::External],
        pragmas: &crate::pp::PragmaState,
    ) -> Option<CheckedProgram> {
        for ext in tu {
            match ext {
                ast::External::Decls(g) => self.global_decls(g),
                ast::External::StaticAssert(sa) => self.static_assert(sa),
                ast::External::Function { spec, decl, body } => self.function_def(spec, decl, body),
            }
        }
        self.check_recursion();
        let kernels = self.kernel_infos();
        if self.diags.has_errors() {
            return None;
        }
        let mut extensions: Vec<(String, bool)> = Vec::new();
        for (n, on, _) in &pragmas.extensions {
            extensions.retain(|(m, _)| m != n);
            extensions.push((n.clone(), *on));
        }
        let fp_contract = pragmas
            .fp_contract
            .last()
            .is_none_or(|(v, _)| v.unwrap_or(true));
        Some(CheckedProgram {
            types: self.types,
            vars: self.vars,
            functions: self.funcs,
            globals: self.globals,
            kernels,
            extensions,
            fp_contract,
        })
    }

    fn global_decls(&mut self, g: &ast::DeclGroup) {
        let base = self.base_type(&g.spec);
        if g.decls.is_empty() {
            return;
        }
        for d in &g.decls {
            if g.spec.storage == Some(Storage::Typedef) {
                self.typedef_decl(&g.spec, base, d);
                continue;
            }
            let errors_before = self.diags.error_count();
            let (q, fparams) = self.declarator_type(base, g.spec.space.is_some(), &d.decl);
            self.declarator_failed = self.diags.error_count() > errors_before;
            if matches!(self.types.get(q.ty), Type::Function { .. }) {
                if d.init.is_some() {
                    self.diags.error(
                        d.decl.loc,
                        "illegal initializer (only variables can be initialized)",
                    );
                }
                self.declare_function(
                    &g.spec,
                    &d.decl,
                    q,
                    fparams.map(|p| p.0).unwrap_or_default(),
                );
                continue;
            }
            self.program_scope_var(&g.spec, d, q);
        }
    }

    fn typedef_decl(&mut self, spec: &ast::DeclSpec, base: QualType, d: &ast::InitDecl) {
        let (mut q, _) = self.declarator_type(base, spec.space.is_some(), &d.decl);
        if d.init.is_some() {
            self.diags.error(
                d.decl.loc,
                "illegal initializer (only variables can be initialized)",
            );
        }
        // clang's ext_vector_type(N), used by headers to declare vector typedefs.
        for a in spec.attrs.iter().chain(d.decl.attrs.iter()) {
            if a.name == "ext_vector_type" {
                let n = self.attr_int(a, 0).unwrap_or(0);
                match self.types.get(q.ty).clone() {
                    Type::Scalar(s) if LANES.contains(&(n as u8)) && n <= 16 => {
                        q.ty = self.types.vector(s, n as u8);
                    }
                    _ => self
                        .diags
                        .error(a.loc, "invalid vector element type or number of elements"),
                }
            }
        }
        if let (Some(n), Type::Record(r)) = (d.decl.name, self.types.get(q.ty).clone()) {
            let rec = &mut self.types.records[r as usize];
            if rec.name.starts_with("(anonymous") {
                rec.name = self.interner.name(n).to_string();
                rec.typedef_named = true;
            }
        }
        if let Some(n) = d.decl.name {
            self.typedefs.push(Typedef {
                ty: q,
                name: self.name(n).to_string(),
            });
            let id = self.typedefs.len() as u32 - 1;
            self.bind(n, Binding::Typedef(id), d.decl.loc);
        }
    }

    /// 6.11.w and 6.7: program-scope variables live in __constant (and __global from 2.0).
    fn program_scope_var(&mut self, spec: &ast::DeclSpec, d: &ast::InitDecl, q: QualType) {
        let Some(name) = d.decl.name else { return };
        let loc = d.decl.loc;
        let mut q = q;
        let is_extern = spec.storage == Some(Storage::Extern);
        if spec.is_kernel {
            self.diags
                .error(loc, "'__kernel' attribute only applies to functions");
        }
        // C99 6.7p7: only a definition needs a complete type; `extern struct S s;` declares an
        // object defined elsewhere (in another program, once linked: OpenCL C 6.10).
        let incomplete_record = matches!(self.types.get(q.ty),
            Type::Record(r) if !self.types.records[*r as usize].complete);
        if !(is_extern && incomplete_record) {
            self.check_object_type(q, loc, true);
        }
        self.check_restrict(q, loc);
        self.check_object_attrs(&d.decl.attrs);
        if matches!(self.types.get(q.ty), Type::Sampler)
            && matches!(
                object_space(spec, &d.decl),
                Some(AddrSpace::Local | AddrSpace::Global)
            )
        {
            // 6.11.b
            self.diags.error(loc, "the sampler type cannot be used with the __local and __global address space qualifiers");
            return;
        }
        let explicit = object_space(spec, &d.decl);
        match explicit.unwrap_or(AddrSpace::Generic) {
            AddrSpace::Constant => {}
            AddrSpace::Global if self.opts.program_scope_globals => {}
            AddrSpace::Generic if self.opts.program_scope_globals => q.space = AddrSpace::Global,
            AddrSpace::Generic if matches!(self.types.get(q.ty), Type::Sampler) => {
                q.space = AddrSpace::Constant
            }
            _ => {
                let msg = if self.opts.program_scope_globals {
                    "program scope variable must reside in global or constant address space"
                } else {
                    "program scope variable must reside in constant address space"
                };
                self.diags.error(loc, msg);
            }
        }
        if matches!(
            self.types.get(q.ty),
            Type::Event | Type::ClkEvent | Type::ReserveId
        ) {
            let tn = self.types.name(q.ty);
            self.diags.error(
                loc,
                format!("the '{tn}' type cannot be used to declare a program scope variable"),
            );
        }
        let kind = if is_extern {
            VarKind::Extern
        } else {
            VarKind::Global
        };
        let align = self
            .align_attr(&d.decl.attrs)
            .or(self.align_attr(&spec.attrs));
        let id = self.new_var(name, q, kind, loc, align);
        self.bind(name, Binding::Var(id), loc);
        if self.declarator_failed {
            self.poisoned.insert(id.0);
        }
        let init = match &d.init {
            Some(_) if self.declarator_failed => None,
            Some(i) => {
                let init = self.initializer(i, q.ty);
                if let Some(ii) = &init {
                    if !self.is_constant_init(ii) {
                        self.diags.error(
                            init_loc(i),
                            "initializer element is not a compile-time constant",
                        );
                    }
                }
                init
            }
            None => {
                if q.space == AddrSpace::Constant && !is_extern {
                    // 6.7.3: constant variables must be initialized.
                    self.diags.error(
                        loc,
                        "variable in constant address space must be initialized",
                    );
                }
                None
            }
        };
        if let Some(Init::List(t, _)) = &init {
            self.vars[id.0 as usize].ty.ty = *t;
        }
        self.globals.push((id, init));
    }

    /// Warns about attributes a variable or type cannot take (6.13.2, 6.13.3).
    fn check_object_attrs(&mut self, attrs: &[ast::Attr]) {
        for a in attrs {
            match a.name.as_str() {
                "aligned" | "packed" | "nosvm" | "unused" | "used" | "ext_vector_type"
                | "always_inline" | "noinline" | "overloadable" | "const" | "pure"
                | "convergent" => {}
                // 6.13.3: endian(host) / endian(device).
                "endian" => {
                    let ok = matches!(a.args.first(), Some(ast::AttrArg::Expr(ast::Expr { kind: ast::ExprKind::Ident(s), .. }))
                        if matches!(self.interner.name(*s), "host" | "device"));
                    if !ok {
                        self.diags
                            .error(a.loc, "'endian' attribute requires 'host' or 'device'");
                    }
                }
                "reqd_work_group_size" | "work_group_size_hint" | "vec_type_hint" => {
                    self.diags.warning(
                        a.loc,
                        format!("'{}' attribute only applies to kernel functions", a.name),
                    );
                }
                _ => self
                    .diags
                    .warning(a.loc, format!("unknown attribute '{}' ignored", a.name)),
            }
        }
    }

    fn align_attr(&mut self, attrs: &[ast::Attr]) -> Option<u64> {
        for a in attrs {
            if a.name == "aligned" {
                if a.args.is_empty() {
                    return Some(16 * 8);
                }
                let v = self.attr_int(a, 0)?;
                if !v.is_power_of_two() {
                    self.diags
                        .error(a.loc, "requested alignment is not a power of 2");
                    return None;
                }
                return Some(v);
            }
        }
        None
    }

    /// 6.11.q: "Types other than pointer types shall not use the restrict qualifier."
    fn check_restrict(&mut self, q: QualType, loc: Loc) {
        if q.is_restrict && !self.types.is_pointer(q.ty) {
            let tn = self.types.name(q.ty);
            self.diags.error(
                loc,
                format!("restrict requires a pointer or reference ('{tn}' is invalid)"),
            );
        }
    }

    fn new_var(
        &mut self,
        name: Sym,
        ty: QualType,
        kind: VarKind,
        loc: Loc,
        align: Option<u64>,
    ) -> VarId {
        self.vars.push(Var {
            name: self.name(name).to_string(),
            ty,
            kind,
            loc,
            align,
        });
        VarId(self.vars.len() as u32 - 1)
    }

    /// Object types that cannot be variables (6.11.b, 6.11.r, 6.11.n).
    fn check_object_type(&mut self, q: QualType, loc: Loc, program_scope: bool) {
        match self.types.get(q.ty).clone() {
            Type::Void => self.diags.error(loc, "variable has incomplete type 'void'"),
            Type::Image(..) | Type::Pipe(..) => {
                let tn = self.types.name(q.ty);
                self.diags.error(
                    loc,
                    format!("type '{tn}' can only be used as a function parameter in OpenCL"),
                );
            }
            Type::Scalar(Scalar::Half) if !self.opts.fp16 => {
                self.diags
                    .error(loc, "declaring variable of type 'half' is not allowed");
            }
            Type::Vector(Scalar::Half, _) if !self.opts.fp16 => {
                let tn = self.types.name(q.ty);
                self.diags.error(
                    loc,
                    format!("declaring variable of type '{tn}' is not allowed"),
                );
            }
            Type::Record(r) if !self.types.records[r as usize].complete => {
                let tn = self.types.name(q.ty);
                self.diags
                    .error(loc, format!("variable has incomplete type '{tn}'"));
            }
            Type::Array(_, None) if !program_scope => {
                let tn = self.types.name(q.ty);
                self.diags.error(loc, format!("definition of variable with array type needs an explicit size or an initializer ('{tn}')"));
            }
            _ => {}
        }
    }

    fn declare_function(
        &mut self,
        spec: &ast::DeclSpec,
        d: &ast::Declarator,
        q: QualType,
        params: Vec<ParamInfo>,
    ) -> Option<FuncId> {
        let name_sym = d.name?;
        let name = self.name(name_sym).to_string();
        let Type::Function {
            ret,
            params: fn_params,
            ..
        } = self.types.get(q.ty).clone()
        else {
            return None;
        };
        let mut params = params;
        if params.is_empty() && !fn_params.is_empty() {
            // Declared through a function typedef: the parameters are unnamed.
            for p in fn_params {
                let spelled = self.types.name(p);
                params.push((QualType::new(p), None, d.loc, false, spelled, None));
            }
        }
        if spec.storage == Some(Storage::Typedef) {
            return None;
        }
        if name == "main" {
            // 6.11.u
            self.diags.error(d.loc, "function cannot be called 'main'");
        }
        let is_kernel = spec.is_kernel;
        if is_kernel && spec.storage == Some(Storage::Static) {
            self.diags
                .error(spec.loc, "kernel functions cannot be declared static");
        }
        if spec.space.is_some() && d.derived.len() == 1 {
            self.diags.error(
                spec.loc,
                "return type cannot be qualified with address space",
            );
        }
        for p in &params {
            self.check_restrict(p.0, p.2);
            if p.0.space != AddrSpace::Private && !self.types.is_pointer(p.0.ty) {
                // 6.7: "address space qualifiers cannot be used with a function argument".
                self.diags
                    .error(p.2, "parameter may not be qualified with an address space");
            }
        }
        let overloadable = spec
            .attrs
            .iter()
            .chain(d.attrs.iter())
            .any(|a| a.name == "overloadable");
        if let Some(Binding::Func(first)) = self.lookup(name_sym) {
            // clang's `overloadable` extension: same-named functions with other parameter
            // types are distinct overloads; a declaration with equal types names the same one.
            let new_ty: Vec<TypeId> = params.iter().map(|p| p.0.ty).collect();
            let set = self
                .overloads
                .get(&name_sym)
                .cloned()
                .unwrap_or_else(|| vec![first]);
            let same = set.iter().copied().find(|g| {
                let o = &self.funcs[g.0 as usize];
                o.params
                    .iter()
                    .map(|v| self.vars[v.0 as usize].ty.ty)
                    .collect::<Vec<_>>()
                    == new_ty
            });
            let any_overloadable =
                overloadable || set.iter().any(|g| self.funcs[g.0 as usize].overloadable);
            if same.is_none() && any_overloadable {
                let id = self.new_function(spec, d, name, ret, &params, is_kernel, overloadable);
                self.overloads.entry(name_sym).or_insert(set).push(id);
                return Some(id);
            }
            let f = same.unwrap_or(first);
            let old = &self.funcs[f.0 as usize];
            let old_ty: Vec<TypeId> = old
                .params
                .iter()
                .map(|v| self.vars[v.0 as usize].ty.ty)
                .collect();
            let new_ty: Vec<TypeId> = params.iter().map(|p| p.0.ty).collect();
            if old.ret != ret || old_ty != new_ty {
                // 6.11: no overloading of user functions (C99 rules).
                self.diags
                    .error(d.loc, format!("conflicting types for '{name}'"));
                let l = old.loc;
                self.diags.note(l, "previous declaration is here");
            }
            return Some(f);
        }
        if matches!(self.types.get(ret), Type::Image(..) | Type::Sampler) {
            let tn = self.types.name(ret);
            self.diags.error(
                d.loc,
                format!("declaring function return value of type '{tn}' is not allowed"),
            );
        }
        let id = self.new_function(spec, d, name, ret, &params, is_kernel, overloadable);
        // Functions live at file scope.
        let saved = std::mem::take(&mut self.scopes);
        let mut scopes = saved;
        scopes[0].insert(name_sym, Binding::Func(id));
        self.scopes = scopes;
        if is_kernel {
            self.check_kernel_signature(id, spec, d, &params);
        }
        Some(id)
    }

    #[allow(clippy::too_many_arguments)]
    fn new_function(
        &mut self,
        spec: &ast::DeclSpec,
        d: &ast::Declarator,
        name: String,
        ret: TypeId,
        params: &[ParamInfo],
        is_kernel: bool,
        overloadable: bool,
    ) -> FuncId {
        let mut vars = Vec::new();
        let mut spellings = Vec::new();
        for (pt, pname, ploc, _explicit, spelled, access) in params {
            let vname = pname.map(|s| self.name(s).to_string()).unwrap_or_default();
            self.vars.push(Var {
                name: vname,
                ty: *pt,
                kind: VarKind::Param,
                loc: *ploc,
                align: None,
            });
            vars.push(VarId(self.vars.len() as u32 - 1));
            spellings.push((spelled.clone(), *access));
        }
        let attrs = self.function_attrs(spec, d, is_kernel);
        self.funcs.push(Function {
            name,
            ret,
            params: vars,
            is_kernel,
            is_inline: spec.is_inline,
            body: None,
            loc: d.loc,
            attrs,
            param_spellings: spellings,
            variadic: matches!(
                d.derived.first(),
                Some(Derived::Function { variadic: true, .. })
            ),
            overloadable,
        });
        FuncId(self.funcs.len() as u32 - 1)
    }

    fn function_attrs(
        &mut self,
        spec: &ast::DeclSpec,
        d: &ast::Declarator,
        is_kernel: bool,
    ) -> FnAttrs {
        let mut out = FnAttrs::default();
        for a in spec.attrs.iter().chain(d.attrs.iter()) {
            match a.name.as_str() {
                "reqd_work_group_size" | "work_group_size_hint" => {
                    if !is_kernel {
                        self.diags.error(
                            a.loc,
                            format!("'{}' attribute only applies to kernel functions", a.name),
                        );
                    }
                    if a.args.len() != 3 {
                        self.diags.error(
                            a.loc,
                            format!("'{}' attribute requires exactly 3 arguments", a.name),
                        );
                        continue;
                    }
                    let mut v = [0u64; 3];
                    let mut ok = true;
                    for (i, slot) in v.iter_mut().enumerate() {
                        match self.attr_int(a, i) {
                            Some(0) => {
                                self.diags.error(
                                    a.loc,
                                    format!("'{}' attribute must be greater than 0", a.name),
                                );
                                ok = false;
                            }
                            Some(x) => *slot = x,
                            None => ok = false,
                        }
                    }
                    if ok {
                        out.text
                            .push(format!("{}({},{},{})", a.name, v[0], v[1], v[2]));
                        if a.name == "reqd_work_group_size" {
                            out.reqd_work_group_size = Some(v);
                        } else {
                            out.work_group_size_hint = Some(v);
                        }
                    }
                }
                "vec_type_hint" => {
                    if !is_kernel {
                        self.diags.error(
                            a.loc,
                            "'vec_type_hint' attribute only applies to kernel functions",
                        );
                    }
                    match a.args.first() {
                        Some(ast::AttrArg::Type(tn)) if a.args.len() == 1 => {
                            let q = self.type_name(tn);
                            match self.types.get(q.ty) {
                                Type::Scalar(s) if *s != Scalar::Bool => {}
                                Type::Vector(..) => {}
                                _ => {
                                    let n = self.types.name(q.ty);
                                    self.diags.error(a.loc, format!("invalid attribute argument '{n}' - expecting a vector or vectorizable scalar type"));
                                    continue;
                                }
                            }
                            let n = self.types.name(q.ty);
                            out.text.push(format!("vec_type_hint({n})"));
                            out.vec_type_hint = Some(n);
                        }
                        _ => self
                            .diags
                            .error(a.loc, "'vec_type_hint' attribute requires a type argument"),
                    }
                }
                "always_inline" | "noinline" | "const" | "pure" | "overloadable" | "convergent"
                | "used" | "unused" | "nosvm" | "noreturn" => {}
                "intel_reqd_sub_group_size" => {
                    self.attr_int(a, 0);
                }
                _ => self
                    .diags
                    .warning(a.loc, format!("unknown attribute '{}' ignored", a.name)),
            }
        }
        out
    }

    /// 6.9 and 6.11: what a kernel signature may contain.
    fn check_kernel_signature(
        &mut self,
        id: FuncId,
        spec: &ast::DeclSpec,
        d: &ast::Declarator,
        params: &[ParamInfo],
    ) {
        let f = &self.funcs[id.0 as usize];
        if !self.types.is_void(f.ret) {
            // 6.11.l
            self.diags
                .error(spec.loc, "kernel must have void return type");
        }
        for (pt, _name, ploc, _explicit, _spelled, _access) in params {
            let ty = self.types.get(pt.ty).clone();
            match ty {
                Type::Pointer(pointee) => {
                    if self.types.is_pointer(pointee.ty) && self.opts.version < 200 {
                        // 6.11.a (up to 1.2): no pointers to pointers as kernel arguments.
                        self.diags.error(
                            *ploc,
                            "kernel parameter cannot be declared as a pointer to a pointer",
                        );
                    } else if !matches!(
                        pointee.space,
                        AddrSpace::Global | AddrSpace::Constant | AddrSpace::Local
                    ) {
                        // 6.11.a: kernel pointer arguments are __global, __constant or __local.
                        self.diags.error(*ploc, "pointer arguments to kernel functions must reside in '__global', '__constant' or '__local' address space");
                    }
                }
                Type::Scalar(Scalar::Bool) => self.bad_kernel_param(*ploc, "bool"),
                Type::Scalar(Scalar::Half) if !self.opts.fp16 => {
                    self.diags.error(*ploc, "declaring function parameter of type 'half' is not allowed; did you forget * ?");
                }
                Type::Event => self.bad_kernel_param(*ploc, "event_t"),
                Type::ClkEvent => self.bad_kernel_param(*ploc, "clk_event_t"),
                Type::ReserveId => self.bad_kernel_param(*ploc, "reserve_id_t"),
                Type::NdRange => self.bad_kernel_param(*ploc, "ndrange_t"),
                Type::Record(r) => {
                    if let Some(bad) = self.record_forbidden_in_kernel(r, 0) {
                        let tn = self.types.name(pt.ty);
                        self.diags.error(
                            *ploc,
                            format!("'{tn}' cannot be used as the type of a kernel parameter"),
                        );
                        self.diags.note(
                            *ploc,
                            format!("field of illegal type '{bad}' declared here"),
                        );
                    }
                }
                _ => {}
            }
        }
        // 6.11.m: size_t and friends by their spelling.
        if let Some(Derived::Function { params: ps, .. }) = d.derived.first() {
            for p in ps {
                if p.decl.derived.is_empty() {
                    let bad = match p.spec.base {
                        BaseType::SizeT => Some("size_t"),
                        BaseType::PtrdiffT => Some("ptrdiff_t"),
                        BaseType::IntptrT => Some("intptr_t"),
                        BaseType::UintptrT => Some("uintptr_t"),
                        _ => None,
                    };
                    if let Some(b) = bad {
                        self.bad_kernel_param(p.decl.loc, b);
                    }
                }
            }
        }
    }

    fn bad_kernel_param(&mut self, loc: Loc, ty: &str) {
        self.diags.error(
            loc,
            format!("'{ty}' cannot be used as the type of a kernel parameter"),
        );
    }

    fn record_forbidden_in_kernel(&self, r: u32, depth: u32) -> Option<String> {
        if depth > 32 {
            return None;
        }
        for f in &self.types.records[r as usize].fields {
            match self.types.get(f.ty.ty) {
                Type::Scalar(Scalar::Bool) => return Some("bool".into()),
                Type::Pointer(_) if self.opts.version < 200 => {
                    return Some(self.types.name(f.ty.ty))
                }
                Type::Record(inner) => {
                    if let Some(b) = self.record_forbidden_in_kernel(*inner, depth + 1) {
                        return Some(b);
                    }
                }
                _ => {}
            }
        }
        None
    }

    fn function_def(&mut self, spec: &ast::DeclSpec, decl: &ast::Declarator, body: &ast::Stmt) {
        let base = self.base_type(spec);
        let (q, fparams) = self.declarator_type(base, spec.space.is_some(), decl);
        let params = fparams.map(|p| p.0).unwrap_or_default();
        let Some(id) = self.declare_function(spec, decl, q, params.clone()) else {
            return;
        };
        if self.funcs[id.0 as usize].body.is_some() {
            let n = self.funcs[id.0 as usize].name.clone();
            self.diags.error(decl.loc, format!("redefinition of '{n}'"));
            return;
        }
        // Parameters of a definition: fresh variables bound in the body's scope.
        self.push_scope();
        let mut vars = Vec::new();
        for (pt, pname, ploc, _, _, _) in &params {
            let Some(n) = pname else {
                let v = Var {
                    name: String::new(),
                    ty: *pt,
                    kind: VarKind::Param,
                    loc: *ploc,
                    align: None,
                };
                self.vars.push(v);
                vars.push(VarId(self.vars.len() as u32 - 1));
                continue;
            };
            if matches!(self.types.get(pt.ty), Type::Void) {
                self.diags.error(*ploc, "argument may not have 'void' type");
            }
            let v = self.new_var(*n, *pt, VarKind::Param, *ploc, None);
            self.bind(*n, Binding::Var(v), *ploc);
            vars.push(v);
        }
        self.funcs[id.0 as usize].params = vars;
        self.cur_fn = Some(id);
        self.cur_ret = self.funcs[id.0 as usize].ret;
        self.labels.clear();
        self.gotos.clear();
        self.block_depth = 0;
        let body_ast = body;
        let body = self.stmt(body);
        for (g, loc) in std::mem::take(&mut self.gotos) {
            if !self.labels.contains_key(&g) {
                self.diags
                    .error(loc, format!("use of undeclared label '{g}'"));
            }
        }
        self.pop_scope();
        // -Wreturn-type: a non-void function whose end is reachable. Conservative: only
        // when the end is certainly reachable (see `falls_through`).
        let ret = self.funcs[id.0 as usize].ret;
        if !self.types.is_void(ret) && falls_through(&body) {
            if let ast::StmtKind::Compound(_, end) = &body_ast.kind {
                let msg = if contains_return(&body) {
                    "non-void function does not return a value in all control paths"
                } else {
                    "non-void function does not return a value"
                };
                self.diags.warning(*end, msg);
            }
        }
        self.funcs[id.0 as usize].body = Some(body);
        self.cur_fn = None;
    }

    /// 6.11.k: recursion is not supported. Every call between two functions of one strongly
    /// connected component of the call graph (or from a function to itself) is reported.
    fn check_recursion(&mut self) {
        let n = self.funcs.len();
        let mut edges: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut redges: Vec<Vec<usize>> = vec![Vec::new(); n];
        for &(a, b, _) in &self.calls {
            edges[a.0 as usize].push(b.0 as usize);
            redges[b.0 as usize].push(a.0 as usize);
        }
        // Kosaraju's algorithm, both passes iterative: finish order, then components on
        // the reversed graph.
        let mut order = Vec::with_capacity(n);
        let mut seen = vec![false; n];
        for start in 0..n {
            if seen[start] {
                continue;
            }
            seen[start] = true;
            let mut stack = vec![(start, 0usize)];
            while let Some((v, i)) = stack.last_mut() {
                let v = *v;
                if let Some(&w) = edges[v].get(*i) {
                    *i += 1;
                    if !seen[w] {
                        seen[w] = true;
                        stack.push((w, 0));
                    }
                } else {
                    order.push(v);
                    stack.pop();
                }
            }
        }
        let mut comp = vec![usize::MAX; n];
        for (c, &root) in order.iter().rev().enumerate() {
            if comp[root] != usize::MAX {
                continue;
            }
            comp[root] = c;
            let mut stack = vec![root];
            while let Some(v) = stack.pop() {
                for &w in &redges[v] {
                    if comp[w] == usize::MAX {
                        comp[w] = c;
                        stack.push(w);
                    }
                }
            }
        }
        let mut reported = std::collections::HashSet::new();
        for (a, b, loc) in self.calls.clone() {
            let (a, b) = (a.0 as usize, b.0 as usize);
            if (a == b || comp[a] == comp[b]) && reported.insert((a, b, loc.file, loc.offset)) {
                let name = self.funcs[b].name.clone();
                self.diags.error(
                    loc,
                    format!("recursive call to '{name}' is not allowed in OpenCL C"),
                );
            }
        }
    }

    fn kernel_infos(&mut self) -> Vec<KernelInfo> {
        let mut out = Vec::new();
        for (i, f) in self.funcs.iter().enumerate() {
            if !f.is_kernel {
                continue;
            }
            if f.body.is_none() {
                continue;
            }
            let mut args = Vec::new();
            for (k, v) in f.params.iter().enumerate() {
                let var = &self.vars[v.0 as usize];
                let (spelled, _) = f.param_spellings.get(k).cloned().unwrap_or_default();
                let ty = var.ty;
                let (address, kind, is_const, is_volatile) = match self.types.get(ty.ty) {
                    Type::Pointer(p) => {
                        let a = match p.space {
                            AddrSpace::Global => ArgAddress::Global,
                            AddrSpace::Constant => ArgAddress::Constant,
                            AddrSpace::Local => ArgAddress::Local,
                            _ => ArgAddress::Private,
                        };
                        let kind = if a == ArgAddress::Local {
                            ArgKind::Local
                        } else {
                            ArgKind::Buffer
                        };
                        (
                            a,
                            kind,
                            p.is_const || p.space == AddrSpace::Constant,
                            p.is_volatile,
                        )
                    }
                    Type::Image(..) => (ArgAddress::Global, ArgKind::Image, false, false),
                    Type::Sampler => (ArgAddress::Private, ArgKind::Sampler, false, false),
                    Type::Pipe(..) => (ArgAddress::Global, ArgKind::Pipe, false, false),
                    Type::Queue => (ArgAddress::Private, ArgKind::Queue, false, false),
                    // API 5.9.x: "CL_KERNEL_ARG_TYPE_NONE is returned for all kernel arguments
                    // passed by value."
                    Type::Record(_) => (ArgAddress::Private, ArgKind::Aggregate, false, false),
                    _ => (ArgAddress::Private, ArgKind::Value, false, false),
                };
                let access = match self.types.get(ty.ty) {
                    Type::Image(_, a) | Type::Pipe(_, a) => match a {
                        Access::ReadOnly => ArgAccess::ReadOnly,
                        Access::WriteOnly => ArgAccess::WriteOnly,
                        Access::ReadWrite => ArgAccess::ReadWrite,
                    },
                    _ => ArgAccess::None,
                };
                let (size, align) = match kind {
                    ArgKind::Value | ArgKind::Aggregate => (
                        self.types.size_of(ty.ty).unwrap_or(0),
                        self.types.align_of(ty.ty).unwrap_or(1),
                    ),
                    _ => (self.types.pointer_size, self.types.pointer_size),
                };
                // Type names drop qualifiers; `unsigned int` is reported as `uint`.
                let type_name = match self.types.get(ty.ty) {
                    Type::Image(d, _) => d.name().to_string(),
                    _ => spelled.clone(),
                };
                args.push(KernelArg {
                    name: var.name.clone(),
                    type_name,
                    address,
                    access,
                    is_const,
                    is_restrict: ty.is_restrict && self.types.is_pointer(ty.ty),
                    is_volatile,
                    is_pipe: matches!(self.types.get(ty.ty), Type::Pipe(..)),
                    kind,
                    size,
                    align,
                    ty: ty.ty,
                });
            }
            out.push(KernelInfo {
                name: f.name.clone(),
                function: FuncId(i as u32),
                args,
                reqd_work_group_size: f.attrs.reqd_work_group_size,
                work_group_size_hint: f.attrs.work_group_size_hint,
                vec_type_hint: f.attrs.vec_type_hint.clone(),
                attributes: f.attrs.text.join(" "),
            });
        }
        out
    }

    // ---- statements ----

    fn stmt(&mut self, s: &ast::Stmt) -> Stmt {
        let loc = s.loc;
        let mk = |kind| Stmt { kind, loc };
        let hints = |s: &ast::Stmt, me: &mut Self| {
            let mut h = LoopHints { unroll: s.unroll };
            for a in &s.attrs {
                if a.name == "opencl_unroll_hint" {
                    h.unroll = if a.args.is_empty() {
                        Some(0)
                    } else {
                        me.attr_int(a, 0).map(|v| v as u32)
                    };
                    if h.unroll == Some(0) && !a.args.is_empty() {
                        me.diags.error(a.loc, "'opencl_unroll_hint' attribute requires a positive integral compile time constant expression");
                    }
                } else {
                    me.diags
                        .warning(a.loc, format!("unknown attribute '{}' ignored", a.name));
                }
            }
            h
        };
        match &s.kind {
            ast::StmtKind::Expr(None) => mk(StmtKind::Empty),
            ast::StmtKind::StaticAssert(sa) => {
                self.static_assert(sa);
                mk(StmtKind::Empty)
            }
            ast::StmtKind::Expr(Some(e)) => {
                let e = self.expr(e);
                let e = self.discard(e);
                mk(StmtKind::Expr(e))
            }
            ast::StmtKind::Decl(g) => {
                let list = self.local_decls(g);
                if list.len() == 1 {
                    list.into_iter().next().unwrap_or(mk(StmtKind::Empty))
                } else {
                    mk(StmtKind::Block(list))
                }
            }
            ast::StmtKind::Compound(list, _) => {
                let outer = self.block_depth == 0;
                self.block_depth += 1;
                if !outer {
                    self.push_scope();
                }
                let out: Vec<Stmt> = list.iter().map(|s| self.stmt(s)).collect();
                if !outer {
                    self.pop_scope();
                }
                self.block_depth -= 1;
                mk(StmtKind::Block(out))
            }
            ast::StmtKind::If(c, t, e) => {
                let c = self.condition(c);
                let t = self.sub_stmt(t);
                let e = e.as_ref().map(|e| Box::new(self.sub_stmt(e)));
                mk(StmtKind::If(c, Box::new(t), e))
            }
            ast::StmtKind::While(c, b) => {
                let h = hints(s, self);
                let c = self.condition(c);
                self.loop_depth += 1;
                let b = self.sub_stmt(b);
                self.loop_depth -= 1;
                mk(StmtKind::While(c, Box::new(b), h))
            }
            ast::StmtKind::DoWhile(b, c) => {
                let h = hints(s, self);
                self.loop_depth += 1;
                let b = self.sub_stmt(b);
                self.loop_depth -= 1;
                let c = self.condition(c);
                mk(StmtKind::DoWhile(Box::new(b), c, h))
            }
            ast::StmtKind::For(init, c, step, b) => {
                let h = hints(s, self);
                self.push_scope();
                self.block_depth += 1;
                let init = init.as_ref().map(|i| Box::new(self.stmt(i)));
                let c = c.as_ref().map(|c| self.condition(c));
                let step = step.as_ref().map(|e| {
                    let e = self.expr(e);
                    self.discard(e)
                });
                self.loop_depth += 1;
                let b = self.sub_stmt(b);
                self.loop_depth -= 1;
                self.block_depth -= 1;
                self.pop_scope();
                mk(StmtKind::For(init, c, step, Box::new(b), h))
            }
            ast::StmtKind::Switch(c, b) => {
                let ce = self.expr(c);
                let ce = self.rvalue(ce);
                let ce = if !ce.is_error()
                    && (!self.types.is_scalar_arith(ce.ty) || !self.types.is_integer(ce.ty))
                {
                    let tn = self.types.name(ce.ty);
                    self.diags.error(
                        c.loc,
                        format!("statement requires expression of integer type ('{tn}' invalid)"),
                    );
                    ce
                } else if ce.is_error() {
                    ce
                } else {
                    let pt = self.promote_ty(ce.ty);
                    self.convert_arith(ce, pt)
                };
                self.switch_stack.push(Vec::new());
                let b = self.sub_stmt(b);
                self.switch_stack.pop();
                mk(StmtKind::Switch(ce, Box::new(b)))
            }
            ast::StmtKind::Case(v, body) => {
                let ce = self.expr(v);
                let ce = self.rvalue(ce);
                let val = if ce.is_error() {
                    0
                } else {
                    match self.const_int(&ce) {
                        Some(x) => x,
                        None => {
                            self.diags
                                .error(v.loc, "expression is not an integer constant expression");
                            0
                        }
                    }
                };
                match self.switch_stack.last_mut() {
                    None => self
                        .diags
                        .error(loc, "'case' statement not in switch statement"),
                    Some(cases) => {
                        if let Some(&(_, prev)) = cases.iter().find(|(x, _)| *x == val) {
                            self.diags
                                .error(v.loc, format!("duplicate case value '{val}'"));
                            self.diags.note(prev, "previous case defined here");
                        } else {
                            cases.push((val, v.loc));
                        }
                    }
                }
                let b = self.stmt(body);
                mk(StmtKind::Case(val, Box::new(b)))
            }
            ast::StmtKind::Default(body) => {
                if self.switch_stack.is_empty() {
                    self.diags
                        .error(loc, "'default' statement not in switch statement");
                } else if self
                    .switch_stack
                    .last()
                    .is_some_and(|c| c.iter().any(|(x, _)| *x == i128::MIN))
                {
                    self.diags
                        .error(loc, "multiple default labels in one switch");
                } else if let Some(c) = self.switch_stack.last_mut() {
                    c.push((i128::MIN, loc));
                }
                let b = self.stmt(body);
                mk(StmtKind::Default(Box::new(b)))
            }
            ast::StmtKind::Label(name, body) => {
                let n = self.name(*name).to_string();
                if let Some(prev) = self.labels.get(&n).copied() {
                    self.diags
                        .error(loc, format!("redefinition of label '{n}'"));
                    self.diags.note(prev, "previous definition is here");
                } else {
                    self.labels.insert(n.clone(), loc);
                }
                let b = self.stmt(body);
                mk(StmtKind::Label(n, Box::new(b)))
            }
            ast::StmtKind::Goto(name) => {
                let n = self.name(*name).to_string();
                self.gotos.push((n.clone(), loc));
                mk(StmtKind::Goto(n))
            }
            ast::StmtKind::Break => {
                if self.loop_depth == 0 && self.switch_stack.is_empty() {
                    self.diags
                        .error(loc, "'break' statement not in loop or switch statement");
                }
                mk(StmtKind::Break)
            }
            ast::StmtKind::Continue => {
                if self.loop_depth == 0 {
                    self.diags
                        .error(loc, "'continue' statement not in loop statement");
                }
                mk(StmtKind::Continue)
            }
            ast::StmtKind::Return(e) if !self.block_stack.is_empty() => {
                // A block's result type is that of its first return (6.14.3).
                let ce = e.as_ref().map(|e| {
                    let x = self.expr(e);
                    self.rvalue(x)
                });
                let void = self.types.void();
                let ty = ce.as_ref().map_or(void, |c| c.ty);
                let expected = self.block_stack.last().and_then(|b| b.ret);
                match expected {
                    None => {
                        if let Some(b) = self.block_stack.last_mut() {
                            b.ret = Some(ty);
                        }
                        mk(StmtKind::Return(ce))
                    }
                    Some(r) => {
                        let ce = ce.map(|c| {
                            let l = c.loc;
                            self.assign_convert(c, r, l, "returning")
                        });
                        mk(StmtKind::Return(ce))
                    }
                }
            }
            ast::StmtKind::Return(e) => {
                let ret = self.cur_ret;
                let fname = self
                    .cur_fn
                    .map(|f| self.funcs[f.0 as usize].name.clone())
                    .unwrap_or_default();
                match e {
                    None => {
                        if !self.types.is_void(ret) {
                            self.diags.error(
                                loc,
                                format!("non-void function '{fname}' should return a value"),
                            );
                        }
                        mk(StmtKind::Return(None))
                    }
                    Some(e) => {
                        let ce = self.expr(e);
                        if self.types.is_void(ret) {
                            let ce = self.rvalue(ce);
                            if !ce.is_error() && !self.types.is_void(ce.ty) {
                                self.diags.error(
                                    e.loc,
                                    format!("void function '{fname}' should not return a value"),
                                );
                            }
                            return mk(StmtKind::Return(Some(ce)));
                        }
                        let ce = self.rvalue(ce);
                        let ce = self.assign_convert(ce, ret, e.loc, "returning");
                        mk(StmtKind::Return(Some(ce)))
                    }
                }
            }
            ast::StmtKind::Error => mk(StmtKind::Empty),
        }
    }

    /// Checks the body of a block literal with its own function context.
    pub(crate) fn block_body(&mut self, body: &ast::Stmt) -> Stmt {
        let saved_fn = self.cur_fn.take();
        let saved_loop = std::mem::take(&mut self.loop_depth);
        let saved_switch = std::mem::take(&mut self.switch_stack);
        let saved_labels = std::mem::take(&mut self.labels);
        let saved_gotos = std::mem::take(&mut self.gotos);
        let saved_depth = std::mem::replace(&mut self.block_depth, 1);
        let s = self.stmt(body);
        for (g, loc) in std::mem::take(&mut self.gotos) {
            if !self.labels.contains_key(&g) {
                self.diags
                    .error(loc, format!("use of undeclared label '{g}'"));
            }
        }
        self.cur_fn = saved_fn;
        self.loop_depth = saved_loop;
        self.switch_stack = saved_switch;
        self.labels = saved_labels;
        self.gotos = saved_gotos;
        self.block_depth = saved_depth;
        s
    }

    /// A statement that is the body of a control statement (its own scope, C99 6.8.4p3).
    fn sub_stmt(&mut self, s: &ast::Stmt) -> Stmt {
        self.push_scope();
        self.block_depth += 1;
        let r = self.stmt(s);
        self.block_depth -= 1;
        self.pop_scope();
        r
    }

    fn local_decls(&mut self, g: &ast::DeclGroup) -> Vec<Stmt> {
        let base = self.base_type(&g.spec);
        let mut out = Vec::new();
        for d in &g.decls {
            if g.spec.storage == Some(Storage::Typedef) {
                self.typedef_decl(&g.spec, base, d);
                continue;
            }
            let errors_before = self.diags.error_count();
            let (q, fparams) = self.declarator_type(base, g.spec.space.is_some(), &d.decl);
            self.declarator_failed = self.diags.error_count() > errors_before;
            if matches!(self.types.get(q.ty), Type::Function { .. }) {
                self.declare_function(
                    &g.spec,
                    &d.decl,
                    q,
                    fparams.map(|p| p.0).unwrap_or_default(),
                );
                continue;
            }
            let Some(name) = d.decl.name else { continue };
            let loc = d.decl.loc;
            match g.spec.storage {
                Some(Storage::Auto) | Some(Storage::Register) => {
                    // 6.11.i
                    let s = if g.spec.storage == Some(Storage::Auto) {
                        "auto"
                    } else {
                        "register"
                    };
                    let v = self.version_text();
                    self.diags.error(g.spec.loc, format!("OpenCL C version {v} does not support the '{s}' storage class specifier"));
                }
                Some(Storage::Static) if self.opts.version < 200 => {
                    self.diags.error(
                        g.spec.loc,
                        "variables in function scope cannot be declared static",
                    );
                }
                _ => {}
            }
            self.check_object_type(q, loc, d.init.is_some());
            self.check_restrict(q, loc);
            self.check_object_attrs(&d.decl.attrs);
            if std::ptr::eq(d, &g.decls[0]) {
                self.check_object_attrs(&g.spec.attrs);
            }
            let is_kernel = self
                .cur_fn
                .is_some_and(|f| self.funcs[f.0 as usize].is_kernel);
            let mut q = q;
            let explicit_space = object_space(&g.spec, &d.decl);
            if matches!(self.types.get(q.ty), Type::Sampler)
                && matches!(explicit_space, Some(AddrSpace::Local | AddrSpace::Global))
            {
                // 6.11.b
                self.diags.error(loc, "the sampler type cannot be used with the __local and __global address space qualifiers");
            }
            if matches!(self.types.get(q.ty), Type::Event)
                && matches!(
                    explicit_space,
                    Some(AddrSpace::Local | AddrSpace::Global | AddrSpace::Constant)
                )
            {
                // 6.11.r
                self.diags.error(loc, "the event_t type cannot be used with the __local, __constant and __global address space qualifiers");
            }
            let is_static = g.spec.storage == Some(Storage::Static);
            match explicit_space {
                Some(AddrSpace::Local) => {
                    // 6.7.2: __local variables only at kernel function scope.
                    if !is_kernel {
                        self.diags.error(loc, "non-kernel function variable cannot be declared in local address space");
                    } else if self.block_depth > 1 {
                        self.diags.error(loc, "variables in the local address space can only be declared in the outermost scope of a kernel function");
                    }
                    if d.init.is_some() {
                        self.diags
                            .error(loc, "'__local' variable cannot have an initializer");
                    }
                }
                Some(AddrSpace::Global) if !is_static => {
                    self.diags.error(
                        loc,
                        "function scope variable cannot be declared in global address space",
                    );
                }
                Some(AddrSpace::Constant)
                    if d.init.is_none() && g.spec.storage != Some(Storage::Extern) =>
                {
                    self.diags.error(
                        loc,
                        "variable in constant address space must be initialized",
                    );
                }
                Some(AddrSpace::Generic) => {
                    self.diags.error(
                        loc,
                        "automatic variable qualified with an invalid address space",
                    );
                }
                _ => {}
            }
            if is_static && explicit_space.is_none() && self.opts.version >= 200 {
                q.space = AddrSpace::Global;
            }
            if matches!(self.types.get(q.ty), Type::Sampler)
                && d.init.is_none()
                && !matches!(explicit_space, Some(AddrSpace::Local | AddrSpace::Global))
            {
                self.diags
                    .error(loc, "sampler variable must be initialized");
            }
            let kind = if is_static
                || explicit_space == Some(AddrSpace::Local)
                || explicit_space == Some(AddrSpace::Constant)
            {
                VarKind::Global
            } else if g.spec.storage == Some(Storage::Extern) {
                VarKind::Extern
            } else {
                VarKind::Local
            };
            // Arrays sized by their initializer: `int a[] = {1, 2}`.
            if let (
                Type::Array(e, None),
                Some(ast::Initializer::Expr(ast::Expr {
                    kind: ast::ExprKind::Str(s),
                    ..
                })),
            ) = (self.types.get(q.ty).clone(), &d.init)
            {
                q.ty = self.types.intern(Type::Array(e, Some(s.len() as u64 + 1)));
            }
            let align = self
                .align_attr(&d.decl.attrs)
                .or(self.align_attr(&g.spec.attrs));
            let id = self.new_var(name, q, kind, loc, align);
            // The variable is in scope in its own initializer (C99 6.2.1p7).
            self.bind(name, Binding::Var(id), loc);
            let failed = self.declarator_failed;
            if failed {
                self.poisoned.insert(id.0);
            }
            let init = d
                .init
                .as_ref()
                .filter(|_| !failed)
                .and_then(|i| self.initializer(i, q.ty));
            if let Some(Init::List(t, _)) = &init {
                self.vars[id.0 as usize].ty.ty = *t;
            }
            if kind == VarKind::Global {
                if let Some(i) = &init {
                    if !self.is_constant_init(i) {
                        self.diags.error(
                            init_loc(d.init.as_ref().expect("init")),
                            "initializer element is not a compile-time constant",
                        );
                    }
                }
                self.globals.push((id, init));
                out.push(Stmt {
                    kind: StmtKind::Decl(id, None),
                    loc,
                });
            } else {
                out.push(Stmt {
                    kind: StmtKind::Decl(id, init),
                    loc,
                });
            }
        }
        out
    }

    /// Checks an initializer against `ty`, resolving designators (C99 6.7.8).
    pub fn initializer(&mut self, init: &ast::Initializer, ty: TypeId) -> Option<Init> {
        match init {
            ast::Initializer::Expr(e) => {
                // A string literal initializes a char array.
                if let (Type::Array(elem, n), ast::ExprKind::Str(s)) =
                    (self.types.get(ty).clone(), &e.kind)
                {
                    if matches!(
                        self.types.get(elem.ty),
                        Type::Scalar(Scalar::Char | Scalar::UChar)
                    ) {
                        if let Some(n) = n {
                            if s.len() as u64 > n {
                                self.diags
                                    .error(e.loc, "initializer-string for char array is too long");
                            }
                        }
                        let mut items: Vec<Option<Init>> = s
                            .iter()
                            .map(|b| {
                                Some(Init::Expr(Expr {
                                    kind: ExprKind::IntConst(*b as u64),
                                    ty: elem.ty,
                                    loc: e.loc,
                                }))
                            })
                            .collect();
                        items.push(None);
                        // C99 6.7.8p22: the initializer completes an array of unknown size.
                        let ty = match n {
                            Some(_) => ty,
                            None => self
                                .types
                                .intern(Type::Array(elem, Some(items.len() as u64))),
                        };
                        return Some(Init::List(ty, items));
                    }
                }
                if matches!(self.types.get(ty), Type::Array(..)) {
                    let ce = self.expr(e);
                    if !ce.is_error() {
                        self.diags
                            .error(e.loc, "array initializer must be an initializer list");
                    }
                    return None;
                }
                let ce = self.expr(e);
                let ce = self.rvalue(ce);
                let ce = self.assign_convert(ce, ty, e.loc, "initializing");
                Some(Init::Expr(ce))
            }
            ast::Initializer::List(items, loc) => {
                let mut pos = 0usize;
                self.init_list(items, &mut pos, ty, *loc, true)
            }
        }
    }

    fn aggregate_len(&self, ty: TypeId) -> Option<usize> {
        match self.types.get(ty) {
            Type::Array(_, n) => {
                Some(n.map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX)))
            }
            Type::Record(r) => {
                let r = &self.types.records[*r as usize];
                Some(r.fields.len())
            }
            Type::Vector(_, n) => Some(*n as usize),
            _ => None,
        }
    }

    fn member_type(&mut self, ty: TypeId, i: usize) -> TypeId {
        match self.types.get(ty).clone() {
            Type::Array(e, _) => e.ty,
            Type::Record(r) => self.types.records[r as usize].fields[i].ty.ty,
            Type::Vector(s, _) => self.types.scalar(s),
            _ => ty,
        }
    }

    /// Brace-enclosed lists with brace elision (C99 6.7.8p20); `pos` walks `items`.
    fn init_list(
        &mut self,
        items: &[(Vec<ast::Designator>, ast::Initializer)],
        pos: &mut usize,
        ty: TypeId,
        loc: Loc,
        braced: bool,
    ) -> Option<Init> {
        let Some(len) = self.aggregate_len(ty) else {
            // A scalar in braces: `int x = {1};`
            let Some((d, i)) = items.get(*pos) else {
                self.diags.error(loc, "scalar initializer cannot be empty");
                return None;
            };
            *pos += 1;
            if !d.is_empty() {
                self.diags
                    .error(loc, "designator in initializer for scalar type");
            }
            let r = self.initializer(i, ty);
            if braced && *pos < items.len() {
                self.diags.error(
                    init_loc(&items[*pos].1),
                    "excess elements in scalar initializer",
                );
                *pos = items.len();
            }
            return r;
        };
        let unsized_array = matches!(self.types.get(ty), Type::Array(_, None));
        // Entries are stored up to the last one written; the rest of the object is zero.
        let mut out: Vec<Option<Init>> = Vec::new();
        let mut idx = 0usize;
        // The last designator named a member of an anonymous member.
        let mut into_anonymous = false;
        while *pos < items.len() {
            let start = *pos;
            let (desig, item) = &items[*pos];
            if desig.is_empty() && std::mem::take(&mut into_anonymous) {
                // C99 6.7.8p17 would continue with the member after the designated one, inside
                // the anonymous member; that case is not implemented and must not guess.
                self.diags.error(
                    init_loc(item),
                    "an initializer without a designator after a designator that names a member of an anonymous structure or union is not supported; designate this member too",
                );
            }
            if !desig.is_empty() {
                if !braced {
                    break;
                }
                *pos += 1;
                let Some((i, used)) = self.designator_index(&desig[0], ty, len) else {
                    continue;
                };
                into_anonymous = !used;
                idx = i;
                if idx >= out.len() {
                    out.resize(idx + 1, None);
                }
                let mty = self.member_type(ty, idx);
                let mut slot = out[idx].take();
                let rest = if used { &desig[1..] } else { &desig[..] };
                self.designate(&mut slot, mty, rest, item);
                out[idx] = slot;
                idx += 1;
                continue;
            }
            let is_union = matches!(self.types.get(ty), Type::Record(r) if self.types.records[*r as usize].is_union);
            if !unsized_array && (idx >= len || (is_union && idx >= 1)) {
                if braced {
                    let what = match self.types.get(ty) {
                        Type::Array(..) => "array",
                        Type::Vector(..) => "vector",
                        _ => "struct",
                    };
                    // C99 6.7.8p2: no initializer for an object outside the entity.
                    self.diags.error(
                        init_loc(item),
                        format!("excess elements in {what} initializer"),
                    );
                    *pos = items.len();
                }
                break;
            }
            let mty = self.member_type(ty, idx);
            let val = match item {
                ast::Initializer::List(sub, l) => {
                    *pos += 1;
                    let mut p = 0;
                    self.init_list(sub, &mut p, mty, *l, true)
                }
                ast::Initializer::Expr(e) => {
                    let is_agg = self.aggregate_len(mty).is_some();
                    let direct = !is_agg
                        || (matches!(e.kind, ast::ExprKind::Str(_))
                            && matches!(self.types.get(mty), Type::Array(..)))
                        || self.expr_type_peek(e) == Some(mty);
                    if direct {
                        *pos += 1;
                        self.initializer(item, mty)
                    } else {
                        self.init_list(items, pos, mty, e.loc, false)
                    }
                }
            };
            if *pos == start {
                // Nothing consumed (an empty aggregate member): skip the item.
                *pos += 1;
            }
            if idx >= MAX_INIT_ENTRIES {
                self.diags.error(loc, format!("initializer list has more than the {MAX_INIT_ENTRIES} entries this compiler supports"));
                break;
            }
            if idx >= out.len() {
                out.resize(idx + 1, None);
            }
            out[idx] = val;
            idx += 1;
            if !braced && !unsized_array && idx >= len {
                break;
            }
        }
        if unsized_array {
            let n = out.len().max(1) as u64;
            out.resize(n as usize, None);
            if let Type::Array(e, _) = self.types.get(ty).clone() {
                let t = self.types.intern(Type::Array(e, Some(n)));
                return Some(Init::List(t, out));
            }
        }
        Some(Init::List(ty, out))
    }

    /// The member a designator names in `ty` (C99 6.7.8p6-7).
    /// Also says whether the designator is used up: a field designator that names a member of
    /// an anonymous member gives that anonymous member, and applies again inside it.
    fn designator_index(
        &mut self,
        d: &ast::Designator,
        ty: TypeId,
        len: usize,
    ) -> Option<(usize, bool)> {
        match d {
            ast::Designator::Index(e) => {
                if !matches!(self.types.get(ty), Type::Array(..)) {
                    self.diags
                        .error(e.loc, "array designator cannot initialize non-array type");
                    return None;
                }
                let ce = self.expr(e);
                let ce = self.rvalue(ce);
                match self.const_int(&ce) {
                    // Initializer lists are stored densely up to their last entry.
                    Some(v) if v >= MAX_INIT_ENTRIES as i128 && (v as u128) < len as u128 => {
                        self.diags.error(e.loc, format!("designated index {v} is beyond the {MAX_INIT_ENTRIES} initializer entries this compiler supports"));
                        None
                    }
                    Some(v) if v >= 0 && (v as u128) < len as u128 => Some((v as usize, true)),
                    Some(_) => {
                        self.diags
                            .error(e.loc, "array designator index exceeds array bounds");
                        None
                    }
                    None => {
                        self.diags
                            .error(e.loc, "expression is not an integer constant expression");
                        None
                    }
                }
            }
            ast::Designator::Field(name, floc) => {
                let Type::Record(r) = *self.types.get(ty) else {
                    self.diags.error(
                        *floc,
                        "field designator cannot initialize a non-struct, non-union type",
                    );
                    return None;
                };
                let found = self
                    .member_path(r, *name)
                    .map(|path| (path[0] as usize, path.len() == 1));
                if found.is_none() {
                    let n = self.name(*name).to_string();
                    let tn = self.types.name(ty);
                    self.diags.error(
                        *floc,
                        format!(
                            "field designator '{n}' does not refer to any field in type '{tn}'"
                        ),
                    );
                }
                found
            }
        }
    }

    /// Stores `item` into the subobject of `slot` (of type `ty`) that `desig` names.
    fn designate(
        &mut self,
        slot: &mut Option<Init>,
        ty: TypeId,
        desig: &[ast::Designator],
        item: &ast::Initializer,
    ) {
        let Some(first) = desig.first() else {
            *slot = match item {
                ast::Initializer::List(sub, l) => {
                    let mut p = 0;
                    self.init_list(sub, &mut p, ty, *l, true)
                }
                ast::Initializer::Expr(_) => self.initializer(item, ty),
            };
            return;
        };
        let Some(len) = self.aggregate_len(ty) else {
            self.diags
                .error(init_loc(item), "designator in initializer for scalar type");
            return;
        };
        let Some((i, used)) = self.designator_index(first, ty, len) else {
            return;
        };
        let rest = if used { &desig[1..] } else { desig };
        let mut list = match slot.take() {
            Some(Init::List(t, l)) if t == ty => l,
            _ => Vec::new(),
        };
        if i >= list.len() {
            list.resize(i + 1, None);
        }
        let mty = self.member_type(ty, i);
        let mut sub = list[i].take();
        self.designate(&mut sub, mty, rest, item);
        list[i] = sub;
        *slot = Some(Init::List(ty, list));
    }

    /// The type an expression would have, without reporting anything (for brace elision).
    fn expr_type_peek(&mut self, e: &ast::Expr) -> Option<TypeId> {
        let n = self.diags.list.len();
        let errors = self.diags.error_count();
        let ce = self.expr(e);
        let ce = self.rvalue(ce);
        self.diags.list.truncate(n);
        self.diags.reset_error_count(errors);
        (!ce.is_error()).then_some(ce.ty)
    }

    fn is_constant_init(&self, i: &Init) -> bool {
        match i {
            Init::List(_, items) => items.iter().flatten().all(|x| self.is_constant_init(x)),
            Init::Expr(e) => self.is_constant_expr(e),
        }
    }

    fn is_constant_expr(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::IntConst(_) | ExprKind::FloatConst(_) | ExprKind::StrConst(_) => true,
            ExprKind::Cast(k, x) => match k {
                CastKind::ArrayToPointer => {
                    matches!(x.kind, ExprKind::StrConst(_)) || self.is_global_lvalue(x)
                }
                _ => self.is_constant_expr(x),
            },
            ExprKind::Unary(_, x) => self.is_constant_expr(x),
            ExprKind::Binary(_, a, b) => self.is_constant_expr(a) && self.is_constant_expr(b),
            ExprKind::Cond(c, a, b) => {
                self.is_constant_expr(c) && self.is_constant_expr(a) && self.is_constant_expr(b)
            }
            ExprKind::VecLit(xs) => xs.iter().all(|x| self.is_constant_expr(x)),
            ExprKind::AddrOf(x) => self.is_global_lvalue(x),
            ExprKind::PtrAdd(a, b) => self.is_constant_expr(a) && self.is_constant_expr(b),
            _ => false,
        }
    }

    fn is_global_lvalue(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Var(v) => matches!(
                self.vars[v.0 as usize].kind,
                VarKind::Global | VarKind::Extern
            ),
            ExprKind::Member(b, _) => self.is_global_lvalue(b),
            ExprKind::Deref(p) => self.is_constant_expr(p),
            _ => false,
        }
    }

    pub fn type_name(&mut self, tn: &ast::TypeName) -> QualType {
        let base = self.base_type(&tn.spec);
        let (q, _) = self.declarator_type(base, tn.spec.space.is_some(), &tn.decl);
        q
    }
}

/// Whether control can certainly reach the end of `s`. Unknown cases (switch, goto) count
/// as not reaching it, so that the warning built on this never fires wrongly.
fn falls_through(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Expr(_) | StmtKind::Decl(..) | StmtKind::Empty => true,
        StmtKind::Return(_) | StmtKind::Goto(_) | StmtKind::Break | StmtKind::Continue => false,
        StmtKind::Block(list) => list.iter().all(falls_through),
        StmtKind::If(_, t, e) => match e {
            Some(e) => falls_through(t) || falls_through(e),
            None => true,
        },
        StmtKind::While(c, b, _) => !is_true(c) || contains_break(b),
        StmtKind::For(_, c, _, b, _) => {
            c.as_ref().is_some_and(|c| !is_true(c)) || contains_break(b)
        }
        StmtKind::DoWhile(b, c, _) => (falls_through(b) && !is_true(c)) || contains_break(b),
        StmtKind::Switch(..) | StmtKind::Case(..) | StmtKind::Default(_) | StmtKind::Label(..) => {
            false
        }
    }
}

/// A constant non-zero condition (`while (1)`, `for (;;)`).
fn is_true(c: &Expr) -> bool {
    match &c.kind {
        ExprKind::IntConst(v) => *v != 0,
        ExprKind::Cast(_, x) => is_true(x),
        _ => false,
    }
}

/// A `break` that leaves this loop (not one inside a nested loop or switch).
fn contains_break(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Break => true,
        StmtKind::Block(list) => list.iter().any(contains_break),
        StmtKind::If(_, t, e) => contains_break(t) || e.as_deref().is_some_and(contains_break),
        StmtKind::Label(_, b) | StmtKind::Case(_, b) | StmtKind::Default(b) => contains_break(b),
        _ => false,
    }
}

fn contains_return(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Return(_) => true,
        StmtKind::Block(list) => list.iter().any(contains_return),
        StmtKind::If(_, t, e) => contains_return(t) || e.as_deref().is_some_and(contains_return),
        StmtKind::While(_, b, _)
        | StmtKind::DoWhile(b, _, _)
        | StmtKind::For(_, _, _, b, _)
        | StmtKind::Switch(_, b) => contains_return(b),
        StmtKind::Label(_, b) | StmtKind::Case(_, b) | StmtKind::Default(b) => contains_return(b),
        _ => false,
    }
}

/// The address space written for the declared object itself: a pointer declarator's own
/// qualifier, or the declaration specifiers' for everything else.
fn object_space(spec: &ast::DeclSpec, d: &ast::Declarator) -> Option<AddrSpace> {
    // An array's elements are the object: in `__global int *a[2]` they are pointers (whose
    // own space is the one after the `*`), and `__global` is their pointee's.
    let outer = d
        .derived
        .iter()
        .find(|x| !matches!(x, Derived::Array { .. }));
    match outer {
        Some(Derived::Pointer { space, .. }) => *space,
        _ => spec.space,
    }
}

fn init_loc(i: &ast::Initializer) -> Loc {
    match i {
        ast::Initializer::Expr(e) => e.loc,
        ast::Initializer::List(_, l) => *l,
    }
}
