//! A module: the unit of compilation, linking and serialization. It holds module-scope
//! variables and functions (kernels, helper functions and declarations of external ones).

use std::collections::HashMap;

use crate::entity::{EntityRef, Func, Global, PrimaryMap};
use crate::function::{Function, KernelInfo, Signature};
use crate::inst::Op;
use crate::types::AddrSpace;

/// A module-scope variable.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct GlobalData {
    /// The name, unique among the module's globals.
    pub name: String,
    /// `global`, `constant` or `local`.
    pub space: AddrSpace,
    /// Size in bytes.
    pub size: u32,
    /// Alignment in bytes (a power of two).
    pub align: u32,
    /// The initial bytes (exactly `size` of them); `None` is all zeros. Local variables have
    /// none (OpenCL C 6.7.3: local variables cannot be initialized).
    pub init: Option<Vec<u8>>,
    /// Declared here and defined in another module (an `extern` declaration, OpenCL C 6.10):
    /// no storage of its own, no initializer, and a `size` of 0 where its type is incomplete.
    /// [`Module::link`] resolves it to the definition of the same name.
    pub external: bool,
    /// Pointers inside the initial value that hold addresses of globals (OpenCL C 6.7.8: a
    /// program-scope pointer initialized with `&x`): a device writes each address when it
    /// allocates the module's globals, over the initial bytes there.
    pub relocs: Vec<Relocation>,
}

/// A pointer of 8 bytes at `offset` in a global's initial value that holds the address of
/// global `target` plus `addend` bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Relocation {
    pub offset: u32,
    pub target: Global,
    pub addend: i64,
}

/// Functions and globals. `Display` prints the text form (`crate::text`).
#[derive(Clone, PartialEq, Debug, Default)]
pub struct Module {
    /// Functions, kernels and declarations.
    pub funcs: PrimaryMap<Func, Function>,
    /// Module-scope variables.
    pub globals: PrimaryMap<Global, GlobalData>,
}

impl Module {
    /// An empty module.
    pub fn new() -> Module {
        Module::default()
    }

    /// Adds a function without a body (a declaration until blocks are added).
    pub fn add_function(&mut self, name: &str, sig: Signature) -> Func {
        self.funcs.push(Function::new(name, sig))
    }

    /// Adds a kernel without a body: a function with argument metadata and attributes.
    pub fn add_kernel(&mut self, name: &str, sig: Signature, info: KernelInfo) -> Func {
        let mut f = Function::new(name, sig);
        f.kernel = Some(info);
        self.funcs.push(f)
    }

    /// Adds a module-scope variable.
    pub fn add_global(&mut self, data: GlobalData) -> Global {
        self.globals.push(data)
    }

    /// The function named `name`.
    pub fn func_by_name(&self, name: &str) -> Option<Func> {
        self.funcs
            .iter()
            .find(|(_, f)| f.name == name)
            .map(|(k, _)| k)
    }

    /// The global named `name`.
    pub fn global_by_name(&self, name: &str) -> Option<Global> {
        self.globals
            .iter()
            .find(|(_, g)| g.name == name)
            .map(|(k, _)| k)
    }

    /// The kernels, in module order.
    pub fn kernels(&self) -> impl Iterator<Item = (Func, &Function)> {
        self.funcs.iter().filter(|(_, f)| f.is_kernel())
    }

    /// Links `other` into this module: its functions and globals are appended, each
    /// declaration on either side is resolved to a definition of the same name, and calls
    /// and global addresses in `other` are renumbered. Globals of equal name are one global
    /// when they agree (an external declaration agrees with a definition in the same address
    /// space and of its size, or of any size where the declaration's type was incomplete), and
    /// an error otherwise; so are two definitions of one function.
    pub fn link(&mut self, other: Module) -> Result<(), String> {
        let mut gmap = Vec::with_capacity(other.globals.len());
        // The globals whose data comes from `other`: their relocations name its globals.
        let mut taken = Vec::new();
        for (_, g) in other.globals.iter() {
            match self.global_by_name(&g.name) {
                // A name the compiler made (`.str.0`, a string literal's bytes) is private to
                // its module: another module's different global of that name is renamed.
                Some(mine) if g.name.starts_with('.') && self.globals[mine] != *g => {
                    let name = (1..)
                        .map(|i| format!("{}.{i}", g.name))
                        .find(|n| self.global_by_name(n).is_none())
                        .expect("a free name");
                    let new = self.globals.push(GlobalData { name, ..g.clone() });
                    taken.push(new);
                    gmap.push(new);
                }
                Some(mine) => {
                    let resolved = resolve_global(&self.globals[mine], g)?;
                    if self.globals[mine].external && !g.external {
                        taken.push(mine);
                    }
                    self.globals[mine] = resolved;
                    gmap.push(mine);
                }
                None => {
                    let new = self.globals.push(g.clone());
                    taken.push(new);
                    gmap.push(new);
                }
            }
        }
        for g in taken {
            for r in &mut self.globals[g].relocs {
                r.target = gmap[r.target.index()];
            }
        }
        let names: HashMap<String, Func> = self
            .funcs
            .iter()
            .map(|(k, f)| (f.name.clone(), k))
            .collect();
        let mut fmap = Vec::with_capacity(other.funcs.len());
        let mut incoming = Vec::new();
        for (_, f) in other.funcs.iter() {
            match names.get(&f.name) {
                Some(&mine) => {
                    if self.funcs[mine].sig != f.sig {
                        return Err(format!("@{} is declared with two signatures", f.name));
                    }
                    if !self.funcs[mine].is_declaration() && !f.is_declaration() {
                        return Err(format!("@{} is defined twice", f.name));
                    }
                    fmap.push(mine);
                    incoming.push(Some(mine));
                }
                None => {
                    fmap.push(self.funcs.push(Function::new(&f.name, f.sig.clone())));
                    incoming.push(None);
                }
            }
        }
        for (i, (_, mut f)) in other.funcs.iter().map(|(k, f)| (k, f.clone())).enumerate() {
            for (_, data) in f.dfg.insts.iter_mut() {
                match &mut data.op {
                    Op::Call(callee) => *callee = fmap[callee.as_u32() as usize],
                    Op::GlobalAddr(g) => *g = gmap[g.as_u32() as usize],
                    _ => {}
                }
            }
            let target = fmap[i];
            match incoming[i] {
                Some(_) if f.is_declaration() => {}
                _ => self.funcs[target] = f,
            }
        }
        Ok(())
    }
}

/// Links `inputs` into one module, in order (API 5.8.8 clLinkProgram, OpenCL C 6.10): each
/// `extern` variable and each function declaration resolves to the definition of its name
/// in any input. For an executable every external variable must have found its definition;
/// the error names each one that has not.
pub fn link_modules(
    inputs: impl IntoIterator<Item = Module>,
    executable: bool,
) -> Result<Module, String> {
    let mut linked = Module::new();
    for m in inputs {
        linked.link(m)?;
    }
    if executable {
        let undefined: Vec<String> = linked
            .globals
            .values()
            .filter(|g| g.external)
            .map(|g| {
                format!(
                    "undefined symbol '{}' (declared extern, defined nowhere)",
                    g.name
                )
            })
            .collect();
        if !undefined.is_empty() {
            return Err(undefined.join("\n"));
        }
    }
    Ok(linked)
}

/// One global from two of the same name: the definition where one side declares it external
/// and the other defines it, either where both agree; an error naming it otherwise.
fn resolve_global(a: &GlobalData, b: &GlobalData) -> Result<GlobalData, String> {
    let (decl, def) = match (a.external, b.external) {
        (false, false) if a == b => return Ok(a.clone()),
        (false, false) => return Err(format!("global @{} is defined twice", a.name)),
        (true, true) => (a, if a.size >= b.size { a } else { b }),
        (true, false) => (a, b),
        (false, true) => (b, a),
    };
    if decl.space != def.space || (decl.size != 0 && def.size != 0 && decl.size != def.size) {
        return Err(format!(
            "global @{} is declared as {} bytes in {} memory and defined as {} bytes in {} memory",
            a.name, decl.size, decl.space, def.size, def.space
        ));
    }
    Ok(def.clone())
}

impl std::fmt::Display for Module {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::text::print_module(self))
    }
}

impl std::str::FromStr for Module {
    type Err = crate::text::ParseError;

    /// Parses the text form.
    fn from_str(s: &str) -> Result<Module, Self::Err> {
        crate::text::parse_module(s)
    }
}
