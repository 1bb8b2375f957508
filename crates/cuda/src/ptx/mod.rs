//! PTX text from IR: every function of a module becomes a PTX function, every kernel an
//! `.entry` that reads its arguments from one parameter block (see [`KernelLayout`]).
//!
//! **Values and registers.** Each IR value gets one PTX register per lane: `i1` in a
//! predicate, `i8`/`i16`/`i32` in a 32-bit register, `i64` and pointers in a 64-bit one,
//! `f16` in a 16-bit one, `f32`/`f64` in float registers. An `i8` or `i16` register always
//! holds the value zero-extended; operations that read the sign extend it first, operations
//! whose result can leave the lane's bits mask it. Vectors are their lanes: PTX has no vector
//! arithmetic, and `ld`/`st` take up to four lanes at once where the alignment allows.
//!
//! **Memory.** Pointers are 64-bit addresses in their IR address space: `global` and
//! `constant` in the global window (`ld.global`; program-scope variables are `.global`
//! variables), `local` in the shared window (`ld.shared`; the kernel's own `__local`
//! variables are module-scope `.shared` variables, `__local` arguments lie in the launch's
//! dynamic shared memory), `private` in the local window (`ld.local`; stack slots are
//! `.local` arrays), `generic` through generic addressing, with `cvta` between the windows.
//!
//! **Arithmetic.** Float operations name their rounding (`add.rn`, `div.rn`, `sqrt.rn`), so
//! that `ptxas` never contracts them: the IR already holds every `fma` the program allows.
//! Denormals are kept (no `.ftz`). Shift amounts are taken modulo the lane width, as
//! OpenCL C 6.5.10 says; float-to-integer conversions saturate, which is one of the values
//! an unsaturated conversion may give (6.4.3.3 leaves out-of-range results unspecified).

mod func;

pub use func::SUB_GROUP;

use std::fmt::Write;

use ferrocl_ir::{AddrSpace, ArgKind, Function, Module};

/// Bytes of the launch header at the start of every kernel's parameter block, before the
/// argument block: the values the work-item functions read.
pub const HEADER: usize = 144;

/// Where each launch value lies in the header.
pub mod header {
    /// `u64[3]`: the global offset.
    pub const GLOBAL_OFFSET: usize = 0;
    /// `u64[3]`: the global size.
    pub const GLOBAL_SIZE: usize = 24;
    /// `u64[3]`: the enqueued local size.
    pub const ENQUEUED_LOCAL_SIZE: usize = 48;
    /// `u64[3]`: the id of this launch's first work-group (a launch with a partial last
    /// work-group runs as several grids, each of equal work-groups).
    pub const GROUP_BASE: usize = 72;
    /// `u64[3]`: the number of work-groups of the whole range.
    pub const NUM_GROUPS: usize = 96;
    /// `u64`: the offset, in the work-group's local memory, of the launch's dynamic shared
    /// memory, where the `__local` arguments' offsets count from: the bytes of the kernel's
    /// own `__local` variables, which are `.shared` variables of the module.
    pub const LOCAL_BASE: usize = 120;
    /// `u32`: the number of dimensions.
    pub const WORK_DIM: usize = 128;
    /// `u64`: the address of the launch's printf buffer (see `FuncEmitter::printf`).
    pub const PRINTF_BUFFER: usize = 136;
}

/// How one kernel's parameter block is laid out: the [`HEADER`], the argument block at
/// [`HEADER`] (its slots as `arg_slots` gives them), then a copy of each by-value struct
/// argument's bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelLayout {
    pub name: String,
    /// The argument slots: offsets from the start of the argument block.
    pub slots: Vec<ferrocl_device::ArgSlot>,
    /// Bytes of the argument block.
    pub args_size: usize,
    /// For each by-value struct argument: its slot's index, where its bytes go in the
    /// parameter block, and how many there are.
    pub aggregates: Vec<(usize, usize, usize)>,
    /// Bytes of the whole parameter block.
    pub param_size: usize,
    /// `reqd_work_group_size`, if the kernel has one.
    pub reqd_work_group_size: Option<[u32; 3]>,
}

/// The PTX of a module and the layout of each kernel's parameters.
#[derive(Clone, Debug)]
pub struct Ptx {
    pub text: String,
    pub kernels: Vec<KernelLayout>,
    /// Whether the module calls `printf`.
    pub printf: bool,
    /// The module's `__constant` variables with initial bytes: their PTX names and bytes
    /// (where `printf` finds its formats and `%s` strings).
    pub constants: Vec<(String, Vec<u8>)>,
    /// When the module's `__local` variables lie in dynamic shared memory (see
    /// `emit_globals`): the bytes they take there, before the `__local` arguments.
    pub dynamic_locals: Option<u32>,
}

/// What the PTX is written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PtxTarget {
    /// The compute capability, as `sm_XY` names it (90 for an H100 or H200).
    pub sm: u32,
}

/// The most threads a work-group may have, and so each entry's `.maxntid`: `ptxas` then
/// keeps every kernel launchable with 1024 threads.
pub const MAX_GROUP: u32 = 1024;

/// The argument block layout of kernel `f`: each argument in a slot of its parameter type's
/// size, aligned to that size, in order (as on the CPU device).
fn arg_layout(f: &Function) -> (Vec<ferrocl_device::ArgSlot>, usize) {
    let args = f.kernel.as_ref().map_or(&[][..], |k| &k.args[..]);
    let mut offset = 0usize;
    let mut out = Vec::with_capacity(args.len());
    for (arg, &ty) in args.iter().zip(&f.sig.params) {
        let size = ty.bytes() as usize;
        let align = size.next_power_of_two().clamp(1, 16);
        offset = offset.next_multiple_of(align);
        out.push(ferrocl_device::ArgSlot {
            offset,
            size,
            kind: arg.kind,
        });
        offset += size;
    }
    (out, offset.next_multiple_of(16))
}

fn kernel_layout(f: &Function) -> KernelLayout {
    let (slots, args_size) = arg_layout(f);
    let args = f.kernel.as_ref().map_or(&[][..], |k| &k.args[..]);
    let mut end = HEADER + args_size;
    let mut aggregates = Vec::new();
    for (i, (slot, arg)) in slots.iter().zip(args).enumerate() {
        if slot.kind == ArgKind::Aggregate {
            end = end.next_multiple_of(16);
            aggregates.push((i, end, arg.size as usize));
            end += arg.size as usize;
        }
    }
    KernelLayout {
        name: f.name.clone(),
        slots,
        args_size,
        aggregates,
        param_size: end.next_multiple_of(16),
        reqd_work_group_size: f.kernel.as_ref().and_then(|k| k.reqd_work_group_size),
    }
}

/// A PTX identifier for IR name `name`, unique by the entity number `n` (kernels keep their
/// names, which the driver looks up).
fn ident(prefix: &str, name: &str, n: u32) -> String {
    let clean: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{prefix}{n}_{clean}")
}

/// The GPU device's own passes over a program's optimized module, before [`emit`]: small
/// loops of unknown trip count partially unrolled (`ferrocl_ir::passes::unroll::partial`:
/// neither the driver's JIT nor `ptxas` unrolls them, and a GPU spends on a loop's test,
/// branch and counter what it spends on its work), then cleaned up.
pub fn prepare(module: &Module) -> Result<Module, String> {
    let mut m = module.clone();
    if !ferrocl_ir::passes::unroll::partial_changed(&mut m) {
        return Ok(m);
    }
    let mut pm = ferrocl_ir::passes::PassManager::new();
    for pass in ["simplify_cfg", "fold", "dce", "cse"] {
        pm.add(pass).expect("the pass exists");
    }
    pm.run(&mut m).map_err(|e| e.to_string())?;
    Ok(m)
}

/// Emits `module` as PTX for `target`. An instruction the device cannot run is an error
/// naming it.
pub fn emit(module: &Module, target: PtxTarget) -> Result<Ptx, String> {
    let mut text = String::new();
    // PTX ISA 7.8 (CUDA 12.0) has every instruction used here for sm_90; newer drivers JIT
    // older ISA versions.
    let version = if target.sm >= 100 { "8.6" } else { "7.8" };
    let _ = writeln!(text, "//\n// ferrocl {}\n//", env!("CARGO_PKG_VERSION"));
    let _ = writeln!(
        text,
        ".version {version}\n.target sm_{}\n.address_size 64\n",
        target.sm
    );

    if let Some((_, g)) = module
        .globals
        .iter()
        .find(|(_, g)| !g.relocs.is_empty() && g.space == AddrSpace::Local)
    {
        return Err(format!(
            "__local variable {:?} has an initial address",
            g.name
        ));
    }
    let (globals, dynamic_locals) = emit_globals(module, &mut text)?;
    let _ = writeln!(
        text,
        ".extern .shared .align 16 .b8 {}[];\n",
        func::DYNAMIC_LOCAL
    );
    let collectives = module.funcs.values().any(|f| {
        f.dfg
            .insts
            .values()
            .any(|i| matches!(i.op, ferrocl_ir::Op::Group(..)))
    });
    if collectives {
        let _ = writeln!(
            text,
            ".shared .align 8 .b8 {}[{}];\n",
            func::GROUP_SCRATCH,
            8 * MAX_GROUP
        );
    }
    let names: Vec<String> = module
        .funcs
        .iter()
        .map(|(id, f)| {
            if f.is_kernel() {
                f.name.clone()
            } else {
                ident("__f", &f.name, id.as_u32())
            }
        })
        .collect();
    // Prototypes first, so that calls need no order.
    for (id, f) in module.funcs.iter() {
        if f.is_kernel() || f.is_declaration() {
            continue;
        }
        let _ = writeln!(
            text,
            ".func {};",
            func::prototype(f, &names[id.as_u32() as usize])
        );
    }
    text.push('\n');
    let mut kernels = Vec::new();
    for (id, f) in module.funcs.iter() {
        if f.is_declaration() {
            continue;
        }
        let layout = f.is_kernel().then(|| kernel_layout(f));
        let body = func::FuncEmitter::new(module, f, &names, &globals, layout.as_ref())
            .emit()
            .map_err(|e| format!("in {}: {e}", f.name))?;
        let name = &names[id.as_u32() as usize];
        match &layout {
            Some(l) => {
                let ntid = match l.reqd_work_group_size {
                    Some([x, y, z]) => format!("{x}, {y}, {z}"),
                    None => format!("{MAX_GROUP}, 1, 1"),
                };
                let _ = writeln!(
                    text,
                    ".visible .entry {name}(.param .align 16 .b8 __params[{}])\n.maxntid {ntid}\n{{",
                    l.param_size
                );
            }
            None => {
                let _ = writeln!(text, ".func {}\n{{", func::prototype(f, name));
            }
        }
        text.push_str(&body);
        text.push_str("}\n\n");
        if let Some(l) = layout {
            kernels.push(l);
        }
    }
    let printf = module
        .funcs
        .values()
        .any(|f| f.is_declaration() && f.name == "printf");
    let constants = module
        .globals
        .iter()
        .filter(|(_, g)| g.space == AddrSpace::Constant)
        .filter_map(|(id, g)| Some((globals[id.as_u32() as usize].0.clone(), g.init.clone()?)))
        .collect();
    Ok(Ptx {
        text,
        kernels,
        printf,
        constants,
        dynamic_locals,
    })
}

/// The most bytes of `.shared` variables a kernel may have; past it shared memory is only
/// to be had dynamically, at launch.
pub const STATIC_SHARED: u32 = 48 << 10;

/// Each global's address as a symbol and an offset from it, and the bytes of the module's
/// `__local` variables in dynamic shared memory, if they are there.
type GlobalLayout = (Vec<(String, u32)>, Option<u32>);

/// Declares the module's variables: program-scope and `__constant` ones as `.global` with
/// their initial bytes; `__local` ones as `.shared` variables, or, when they take more than
/// [`STATIC_SHARED`] bytes together, at fixed offsets at the start of the launch's dynamic
/// shared memory (one layout for the whole module, whose size the second result gives).
/// Returns each global's address as a symbol and an offset from it.
/// A variable initialized with addresses comes after the variables it points at (`ptxas`
/// takes no forward reference in an initializer); two that point at each other are refused.
fn emit_globals(module: &Module, text: &mut String) -> Result<GlobalLayout, String> {
    let local_total: u32 = module
        .globals
        .values()
        .filter(|g| g.space == AddrSpace::Local)
        .map(|g| g.size.next_multiple_of(g.align.max(1)) + g.align.max(1))
        .sum();
    let dynamic = local_total > STATIC_SHARED;
    let mut offset = 0u32;
    let mut names = Vec::new();
    // The declarations that point at other variables, held back until those are declared.
    let mut pointing: Vec<(ferrocl_ir::Global, String)> = Vec::new();
    let outer = text;
    for (id, g) in module.globals.iter() {
        let mut decl = String::new();
        let text = &mut decl;
        if dynamic && g.space == AddrSpace::Local {
            offset = offset.next_multiple_of(g.align.clamp(1, 16));
            names.push((func::DYNAMIC_LOCAL.to_string(), offset));
            offset += g.size;
            continue;
        }
        let name = ident("__g", &g.name, id.as_u32());
        let space = match g.space {
            AddrSpace::Local => ".shared",
            _ => ".global",
        };
        // Bytes that hold an address are `.u8` initializers of its bytes (the PTX ISA's
        // byte masks of an address, `0xff00(generic(var)+addend)`), which `.b8` arrays
        // cannot take.
        let element = if g.relocs.is_empty() { "b8" } else { "u8" };
        let _ = write!(
            text,
            "{space} .align {} .{element} {name}[{}]",
            g.align.max(1),
            g.size.max(1)
        );
        let zeros;
        let bytes = match &g.init {
            Some(bytes) => Some(bytes),
            None if !g.relocs.is_empty() => {
                zeros = vec![0u8; g.size as usize];
                Some(&zeros)
            }
            None => None,
        };
        match bytes {
            Some(bytes) if g.space != AddrSpace::Local && !bytes.is_empty() => {
                let mut items: Vec<String> = bytes.iter().map(|b| b.to_string()).collect();
                for r in &g.relocs {
                    let target = ident("__g", &module.globals[r.target].name, r.target.as_u32());
                    // A global's generic address is its global address on the GPU, so the
                    // pointer is right in any space it is read as.
                    for k in 0..8usize {
                        if let Some(item) = items.get_mut(r.offset as usize + k) {
                            *item = format!(
                                "{:#x}(generic({target}){:+})",
                                0xffu64 << (8 * k),
                                r.addend
                            );
                        }
                    }
                }
                text.push_str(" = {");
                text.push_str(&items.join(", "));
                text.push('}');
            }
            _ => {}
        }
        text.push_str(";\n");
        names.push((name, 0));
        match g.relocs.is_empty() {
            true => outer.push_str(&decl),
            false => pointing.push((id, decl)),
        }
    }
    while !pointing.is_empty() {
        let declared = |t: ferrocl_ir::Global, me: ferrocl_ir::Global, rest: &[(_, String)]| {
            t == me || !rest.iter().any(|(other, _)| *other == t)
        };
        let ready = pointing.iter().position(|(id, _)| {
            module.globals[*id]
                .relocs
                .iter()
                .all(|r| declared(r.target, *id, &pointing))
        });
        let Some(i) = ready else {
            return Err(format!(
                "program-scope variable {:?} and another are initialized with each other's addresses, which is not supported by this device",
                module.globals[pointing[0].0].name
            ));
        };
        outer.push_str(&pointing.remove(i).1);
    }
    if !names.is_empty() {
        outer.push('\n');
    }
    Ok((names, dynamic.then(|| offset.next_multiple_of(16))))
}
