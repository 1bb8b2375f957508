//! Functions and kernels: signature, stack slots, data flow and layout, kernel metadata.

use std::collections::BTreeSet;

use crate::dfg::{DataFlowGraph, ValueDef};
use crate::entity::{Block, Inst, PrimaryMap, StackSlot, Value};
use crate::inst::InstData;
use crate::layout::Layout;
use crate::types::{AddrSpace, Type};

/// Parameter and return types.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Signature {
    /// Parameter types.
    pub params: Vec<Type>,
    /// The return type, or `None` for `void`.
    pub ret: Option<Type>,
    /// Whether calls may pass more arguments, of any non-`i1` types, after `params` (as
    /// `printf` takes them). Only declarations are variadic.
    pub variadic: bool,
}

impl Signature {
    /// A signature.
    pub fn new(params: &[Type], ret: Option<Type>) -> Signature {
        Signature {
            params: params.to_vec(),
            ret,
            variadic: false,
        }
    }
}

/// A private stack slot: `size` bytes aligned to `align`, live for the whole call.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct StackSlotData {
    /// Size in bytes.
    pub size: u32,
    /// Alignment in bytes (a power of two).
    pub align: u32,
}

/// The access qualifier of a kernel argument (image and pipe arguments).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum AccessQualifier {
    /// CL_KERNEL_ARG_ACCESS_NONE.
    None,
    /// read_only.
    ReadOnly,
    /// write_only.
    WriteOnly,
    /// read_write.
    ReadWrite,
}

impl AccessQualifier {
    /// All access qualifiers.
    pub const ALL: [AccessQualifier; 4] = [
        AccessQualifier::None,
        AccessQualifier::ReadOnly,
        AccessQualifier::WriteOnly,
        AccessQualifier::ReadWrite,
    ];

    /// The text form.
    pub fn name(self) -> &'static str {
        match self {
            AccessQualifier::None => "none",
            AccessQualifier::ReadOnly => "read_only",
            AccessQualifier::WriteOnly => "write_only",
            AccessQualifier::ReadWrite => "read_write",
        }
    }
}

/// Type qualifiers of a kernel argument (CL_KERNEL_ARG_TYPE_CONST ...), as a bit set.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct TypeQualifiers(pub u8);

impl TypeQualifiers {
    /// const.
    pub const CONST: TypeQualifiers = TypeQualifiers(1);
    /// restrict.
    pub const RESTRICT: TypeQualifiers = TypeQualifiers(2);
    /// volatile.
    pub const VOLATILE: TypeQualifiers = TypeQualifiers(4);
    /// pipe.
    pub const PIPE: TypeQualifiers = TypeQualifiers(8);
    /// The names in text order.
    pub const NAMES: [(TypeQualifiers, &'static str); 4] = [
        (TypeQualifiers::CONST, "const"),
        (TypeQualifiers::RESTRICT, "restrict"),
        (TypeQualifiers::VOLATILE, "volatile"),
        (TypeQualifiers::PIPE, "pipe"),
    ];

    /// Whether all qualifiers of `other` are set.
    pub fn contains(self, other: TypeQualifiers) -> bool {
        self.0 & other.0 == other.0
    }
}

/// How a kernel argument is passed: what the application gives `clSetKernelArg`, and what
/// the kernel's parameter receives. This is the one definition of the kernel ABI's argument
/// kinds; the compiler produces it, the API checks `clSetKernelArg` against it, the runtime
/// packs argument values by it and each device lays out its argument block by it.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum ArgKind {
    /// A scalar or vector passed by value: the application gives [`KernelArg::size`] bytes,
    /// the parameter (of that many bytes) receives them.
    Value,
    /// A pointer to `__global` or `__constant` memory: the application gives a memory object
    /// (or NULL), the parameter receives the address of its storage.
    Buffer,
    /// A pointer to `__local` memory: the application gives only the region's size, the
    /// parameter receives the address of a region of that size in the work-group's local
    /// memory.
    Local,
    /// A struct or union passed by value: the application gives [`KernelArg::size`] bytes,
    /// the parameter (a `__private` pointer) receives the address of a copy of them that
    /// the work-item may read.
    Aggregate,
    /// An image (`image2d_t` ...): the application gives an image memory object, the
    /// parameter (a `__global` pointer) receives the address of the image's descriptor (the
    /// device interface's `ImageDescriptor`).
    Image,
    /// A `sampler_t`: the application gives a sampler object, the parameter (an `i32`)
    /// receives its value as the sampler's bit-field (`CLK_NORMALIZED_COORDS_*` |
    /// `CLK_ADDRESS_*` | `CLK_FILTER_*`), the value a sampler declared in the program has.
    Sampler,
    /// A `pipe`: the application gives a pipe memory object.
    Pipe,
    /// A `queue_t`: the application gives a device command queue.
    Queue,
}

impl ArgKind {
    /// All kinds.
    pub const ALL: [ArgKind; 8] = [
        ArgKind::Value,
        ArgKind::Buffer,
        ArgKind::Local,
        ArgKind::Aggregate,
        ArgKind::Image,
        ArgKind::Sampler,
        ArgKind::Pipe,
        ArgKind::Queue,
    ];

    /// The text form.
    pub fn name(self) -> &'static str {
        match self {
            ArgKind::Value => "value",
            ArgKind::Buffer => "buffer",
            ArgKind::Local => "local",
            ArgKind::Aggregate => "aggregate",
            ArgKind::Image => "image",
            ArgKind::Sampler => "sampler",
            ArgKind::Pipe => "pipe",
            ArgKind::Queue => "queue",
        }
    }

    /// Whether the application gives a memory object for the argument (5.9.2: its
    /// `arg_size` is `sizeof(cl_mem)`).
    pub fn is_mem_object(self) -> bool {
        matches!(self, ArgKind::Buffer | ArgKind::Image | ArgKind::Pipe)
    }
}

/// One kernel argument: its place in the kernel ABI (kind, size, alignment) and what
/// `clGetKernelArgInfo` reports about it.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct KernelArg {
    /// The argument's name.
    pub name: String,
    /// The type as written, without qualifiers (`float4*`, `image2d_t`).
    pub type_name: String,
    /// The address qualifier (`private` for arguments passed by value).
    pub space: AddrSpace,
    /// The access qualifier.
    pub access: AccessQualifier,
    /// The type qualifiers.
    pub quals: TypeQualifiers,
    /// How the argument is passed.
    pub kind: ArgKind,
    /// Bytes of the argument's data type: of the value for [`ArgKind::Value`] and
    /// [`ArgKind::Aggregate`] (what `clSetKernelArg` must be given, 5.9.2), the size of a
    /// pointer or handle for the other kinds.
    pub size: u32,
    /// Alignment of the argument's data type in bytes (a power of two).
    pub align: u32,
}

impl KernelArg {
    /// The ABI an argument of parameter type `param` has when nothing else is known: a
    /// pointer to `__global`/`__constant`/`__local` memory is a buffer or a local region,
    /// any other non-pointer type a value of its size. `None` for a `__private` pointer (a
    /// by-value aggregate, whose size the parameter type does not carry). The IR's text
    /// form leaves these defaults unwritten.
    pub fn default_abi(param: Type) -> Option<(ArgKind, u32, u32)> {
        let kind = match param.addr_space() {
            None => ArgKind::Value,
            Some(AddrSpace::Global | AddrSpace::Constant) => ArgKind::Buffer,
            Some(AddrSpace::Local) => ArgKind::Local,
            Some(AddrSpace::Private | AddrSpace::Generic) => return None,
        };
        let size = param.bytes();
        Some((kind, size, size.next_power_of_two()))
    }

    /// Why this argument's ABI does not fit parameter type `param`, if it does not.
    pub fn abi_mismatch(&self, param: Type) -> Option<String> {
        if !self.align.is_power_of_two() {
            return Some(format!("alignment {} is not a power of two", self.align));
        }
        let space = param.addr_space();
        let fits = match self.kind {
            ArgKind::Value => space.is_none() && self.size == param.bytes(),
            ArgKind::Buffer => matches!(space, Some(AddrSpace::Global | AddrSpace::Constant)),
            ArgKind::Local => space == Some(AddrSpace::Local),
            ArgKind::Aggregate => space == Some(AddrSpace::Private) && self.size > 0,
            ArgKind::Image | ArgKind::Pipe => space == Some(AddrSpace::Global),
            ArgKind::Sampler => param == Type::I32,
            ArgKind::Queue => space.is_none(),
        };
        (!fits).then(|| {
            format!(
                "a {} argument of {} bytes cannot be a parameter of type {param}",
                self.kind.name(),
                self.size
            )
        })
    }
}

/// What makes a function a kernel: argument metadata and attributes.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct KernelInfo {
    /// One entry per parameter.
    pub args: Vec<KernelArg>,
    /// `__attribute__((reqd_work_group_size(X, Y, Z)))`.
    pub reqd_work_group_size: Option<[u32; 3]>,
    /// `__attribute__((work_group_size_hint(X, Y, Z)))`.
    pub work_group_size_hint: Option<[u32; 3]>,
    /// `__attribute__((vec_type_hint(T)))`: the type as written (`float4`).
    pub vec_type_hint: Option<String>,
}

/// A function of a module. A function without blocks is a declaration (an external or
/// builtin function, to be linked).
#[derive(Clone, PartialEq, Debug, Default)]
pub struct Function {
    /// The name, unique in the module.
    pub name: String,
    /// Parameter and return types.
    pub sig: Signature,
    /// Present on kernels.
    pub kernel: Option<KernelInfo>,
    /// Private stack slots.
    pub slots: PrimaryMap<StackSlot, StackSlotData>,
    /// Instructions, values, blocks.
    pub dfg: DataFlowGraph,
    /// Their order.
    pub layout: Layout,
    /// The scalar 32-bit `iadd`, `isub` and `imul` instructions that compute a signed C
    /// type's arithmetic, whose overflow the program may not cause (C99 6.5p5, which OpenCL C
    /// follows): the front end's fact. `passes::widen` reads it and clears it, so that no
    /// later pass rewrites such an instruction and keeps a fact that no longer holds.
    pub no_signed_wrap: BTreeSet<Inst>,
}

impl Function {
    /// An empty function (a declaration until blocks are added).
    pub fn new(name: &str, sig: Signature) -> Function {
        Function {
            name: name.to_string(),
            sig,
            ..Function::default()
        }
    }

    /// Whether this is a declaration (no body).
    pub fn is_declaration(&self) -> bool {
        self.layout.entry_block().is_none()
    }

    /// Whether this is a kernel.
    pub fn is_kernel(&self) -> bool {
        self.kernel.is_some()
    }

    /// Creates a stack slot.
    pub fn create_slot(&mut self, size: u32, align: u32) -> StackSlot {
        self.slots.push(StackSlotData { size, align })
    }

    /// Creates an instruction with a result of type `result` if given and places it at the end
    /// of `block`.
    pub fn append_inst(&mut self, block: Block, data: InstData, result: Option<Type>) -> Inst {
        let inst = self.dfg.make_inst(data, result);
        self.layout.append_inst(inst, block);
        inst
    }

    /// Creates an instruction and places it before `before`.
    pub fn insert_inst_before(
        &mut self,
        before: Inst,
        data: InstData,
        result: Option<Type>,
    ) -> Inst {
        let inst = self.dfg.make_inst(data, result);
        self.layout.insert_inst_before(inst, before);
        inst
    }

    /// The terminator of `block` (its last instruction, if that is a terminator).
    pub fn terminator(&self, block: Block) -> Option<Inst> {
        let last = self.layout.last_inst(block)?;
        self.dfg.insts[last].op.is_terminator().then_some(last)
    }

    /// The successors of `block`, in branch order (repeats kept).
    pub fn successors(&self, block: Block) -> Vec<Block> {
        match self.terminator(block) {
            Some(t) => self.dfg.insts[t]
                .op
                .dests()
                .iter()
                .map(|d| d.block)
                .collect(),
            None => Vec::new(),
        }
    }

    /// Rewrites every operand that is an alias to the value it stands for.
    pub fn resolve_aliases(&mut self) {
        let dfg = &mut self.dfg;
        let has_alias = dfg
            .values
            .values()
            .any(|d| matches!(d.def, ValueDef::Alias(_)));
        if !has_alias {
            return;
        }
        let resolved: Vec<Value> = dfg.values.keys().map(|v| dfg.resolve(v)).collect();
        for (_, data) in dfg.insts.iter_mut() {
            data.map_args(|a| resolved.get(a.as_u32() as usize).copied().unwrap_or(a));
        }
    }

    /// Replaces every use of `old` by `new` in placed and unplaced instructions.
    pub fn replace_uses(&mut self, old: Value, new: Value) {
        for (_, data) in self.dfg.insts.iter_mut() {
            data.map_args(|a| if a == old { new } else { a });
        }
    }

    /// Removes many instructions from the layout at once (one sweep per block they are in)
    /// and invalidates their results.
    pub fn remove_insts(&mut self, insts: &[Inst]) {
        let mut gone: crate::entity::SecondaryMap<Inst, bool> = crate::entity::SecondaryMap::new();
        let mut blocks = Vec::new();
        for &i in insts {
            if let Some(b) = self.layout.inst_block(i) {
                if !gone[i] {
                    gone[i] = true;
                    blocks.push(b);
                }
            }
        }
        blocks.sort();
        blocks.dedup();
        for b in blocks {
            self.layout.retain_insts(b, |i| !gone[i]);
        }
        for &i in insts {
            self.dfg.detach_result(i);
        }
    }

    /// Removes `inst` from the layout and invalidates its result.
    pub fn remove_inst(&mut self, inst: Inst) {
        self.layout.remove_inst(inst);
        self.dfg.detach_result(inst);
    }
}
