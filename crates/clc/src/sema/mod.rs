//! Semantic analysis: turns the syntax tree into the checked tree of [`tree`], applying the
//! type system and rules of OpenCL C section 6 — conversions, vector operations, address
//! spaces, the restrictions of 6.11, builtin overload resolution — and collects the kernel
//! metadata the runtime reports (clGetKernelInfo / clGetKernelArgInfo).

mod declarator;
pub mod expr;
mod function;
mod global;
mod init;
mod overload;
pub mod print;
mod record;
mod static_assert;
mod stmt;
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
    /// The device runs pipes and device-side enqueue (`__opencl_c_pipes`,
    /// `__opencl_c_device_enqueue` in its feature list): OpenCL C 2.0 programs use them
    /// without a feature macro, and a device that lacks them refuses them where written.
    pub device_pipes: bool,
    pub device_enqueue: bool,
    pub single_precision_constant: bool,
    pub pointer_size: u64,
    /// The device's fused multiply-add is fast ([`crate::Target::fast_fma`]).
    pub fast_fma: bool,
    /// Accumulations through loops are contracted too ([`crate::Target::fma_chains`]).
    pub fma_chains: bool,
    /// `-cl-mad-enable` (or an option that implies it): `a * b + c` may be contracted
    /// whatever `#pragma OPENCL FP_CONTRACT` says.
    pub mad_enable: bool,
    /// `-cl-fp32-correctly-rounded-divide-sqrt`: float `/` and `sqrt` are correctly rounded,
    /// not only within their bounds.
    pub correctly_rounded_divide_sqrt: bool,
    /// Depth images (`image2d_depth_t`, `image2d_array_depth_t`): images and the device's
    /// `cl_khr_depth_images`.
    pub depth_images: bool,
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
    /// The device's fused multiply-add is fast: lowering contracts `a * b + c` into one `fma`
    /// where `#pragma OPENCL FP_CONTRACT` leaves contraction on (the tree's
    /// `StmtKind::FpContract` says where), and `mad` is `fma`.
    pub fast_fma: bool,
    /// An accumulation through a loop is contracted too ([`crate::Target::fma_chains`]).
    pub fma_chains: bool,
    /// `-cl-mad-enable`: with a fast fma, lowering contracts where the pragma turned
    /// contraction off too.
    pub mad_enable: bool,
    /// `-cl-fp32-correctly-rounded-divide-sqrt`: lowering gives float `/` and `sqrt` the IR's
    /// correctly rounded operations; without it, the relaxed ones (`fdiv_relaxed`,
    /// `sqrt_relaxed`), which a device may compute within the spec's bounds.
    pub correctly_rounded_divide_sqrt: bool,
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
        Some(CheckedProgram {
            types: self.types,
            vars: self.vars,
            functions: self.funcs,
            globals: self.globals,
            kernels,
            extensions,
            fast_fma: self.opts.fast_fma,
            fma_chains: self.opts.fma_chains,
            mad_enable: self.opts.mad_enable,
            correctly_rounded_divide_sqrt: self.opts.correctly_rounded_divide_sqrt,
        })
    }

    // ---- statements ----

    pub fn type_name(&mut self, tn: &ast::TypeName) -> QualType {
        let base = self.base_type(&tn.spec);
        let (q, _) = self.declarator_type(base, tn.spec.space.is_some(), &tn.decl);
        q
    }
}
