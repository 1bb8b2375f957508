//! A compiled program as bytes, so that the runtime can keep it on disk
//! (`DeviceProgram::serialize`) and load it in a later process (`DeviceBackend::load`)
//! instead of compiling the module again.
//!
//! What is kept is what Cranelift produced for each function: its machine code (constants
//! included) with the relocations it still needs, each naming its target symbolically: a
//! function or global of the program by its name in the JIT module (`__ferrocl_wg_K`,
//! `__ferrocl_fnN_F`, `__ferrocl_global_N`, the runtime's helpers, `printf`), one of
//! Cranelift's library calls by its name, or an offset in the function itself. Beside the
//! code, what the launch needs of each kernel and cannot recompute from the module: the bytes
//! of frame memory per work-item, the call area, the count of regions and the bytes a work-item
//! writes through stores that may bypass the caches. Loading declares
//! the module's functions, helpers and globals as a compile does (the globals get fresh
//! memory with their initial values), places each function's bytes and lets the JIT apply
//! the relocations: the same code, linked into this process.
//!
//! Nothing read is trusted beyond what it can be checked for: every relocation must lie
//! within its function and name a symbol the module declares, every function the module
//! defines must be present once, and the kernels must be the module's; anything else is an
//! error, and the runtime compiles instead.

use cranelift_codegen::binemit::Reloc;
use cranelift_codegen::ir::LibCall;
use cranelift_module::{FuncOrDataId, ModuleReloc, ModuleRelocTarget};

use crate::CompileError;

/// The layout's version; a change of layout changes it.
const FORMAT: u32 = 2;

/// One function's code as Cranelift produced it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FunctionCode {
    /// Its name in the JIT module.
    pub name: String,
    pub align: u64,
    pub bytes: Vec<u8>,
    pub relocs: Vec<Relocation>,
}

/// A relocation of a function's code, its target named symbolically.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Relocation {
    pub offset: u32,
    pub kind: Reloc,
    pub target: Target,
    pub addend: i64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    /// A function or data object of the JIT module, by name.
    Symbol(String),
    /// One of Cranelift's library calls.
    LibCall(LibCall),
    /// An offset in the function the relocation is in.
    Own(u32),
}

/// What a kernel's launch needs besides its code that only the compile knew.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct KernelLayout {
    pub name: String,
    pub frame_size: u64,
    pub call_area: u64,
    pub regions: u64,
    /// See [`crate::CompiledKernel::stream_bytes`].
    pub stream_bytes: u32,
}

/// A compiled program: every function's code, and its kernels' layouts in the module's order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Compiled {
    pub functions: Vec<FunctionCode>,
    pub kernels: Vec<KernelLayout>,
}

/// The relocation kinds a program may hold, each with its code in the bytes and the bytes it
/// patches: those the JIT applies on x86-64 and AArch64 without PIC. A function with any
/// other makes its program one that is not kept.
const KINDS: [(Reloc, u8, u32); 8] = [
    (Reloc::Abs4, 1, 4),
    (Reloc::Abs8, 2, 8),
    (Reloc::X86PCRel4, 3, 4),
    (Reloc::X86CallPCRel4, 4, 4),
    (Reloc::X86CallPLTRel4, 5, 4),
    (Reloc::Arm64Call, 6, 4),
    (Reloc::Aarch64AdrPrelPgHi21, 7, 4),
    (Reloc::Aarch64AddAbsLo12Nc, 8, 4),
];

fn kind_code(kind: Reloc) -> Option<u8> {
    KINDS.iter().find(|k| k.0 == kind).map(|k| k.1)
}

fn kind_of(code: u8) -> Option<(Reloc, u32)> {
    KINDS.iter().find(|k| k.1 == code).map(|k| (k.0, k.2))
}

impl Relocation {
    /// The relocation `r` of function `id` of `jit`, named symbolically; `None` for a kind
    /// or target that is not kept.
    pub fn from_module(r: &ModuleReloc, jit: &cranelift_jit::JITModule) -> Option<Relocation> {
        kind_code(r.kind)?;
        let declarations = cranelift_module::Module::declarations(jit);
        let target = match &r.name {
            name @ ModuleRelocTarget::User { .. } => {
                let symbol = if cranelift_module::ModuleDeclarations::is_function(name) {
                    let id = cranelift_module::FuncId::from_name(name);
                    declarations.get_function_decl(id).name.clone()
                } else {
                    let id = cranelift_module::DataId::from_name(name);
                    declarations.get_data_decl(id).name.clone()
                };
                Target::Symbol(symbol?)
            }
            ModuleRelocTarget::LibCall(l) => Target::LibCall(*l),
            ModuleRelocTarget::FunctionOffset(_, offset) => Target::Own(*offset),
            ModuleRelocTarget::KnownSymbol(_) => return None,
        };
        Some(Relocation {
            offset: r.offset,
            kind: r.kind,
            target,
            addend: r.addend,
        })
    }

    /// This relocation in `jit`, for function `own` whose code is `len` bytes long; an error
    /// where it reaches past the code or names a symbol `jit` does not declare.
    pub fn to_module(
        &self,
        jit: &cranelift_jit::JITModule,
        own: cranelift_module::FuncId,
        len: usize,
    ) -> Result<ModuleReloc, CompileError> {
        let bad = |what: &str| Err(CompileError(format!("cached code: {what}")));
        let size = kind_code(self.kind).and_then(kind_of).map_or(0, |k| k.1);
        if size == 0 || self.offset as usize + size as usize > len {
            return bad("a relocation outside its function");
        }
        let name = match &self.target {
            Target::Symbol(s) => match cranelift_module::Module::declarations(jit).get_name(s) {
                Some(FuncOrDataId::Func(id)) => ModuleRelocTarget::from(id),
                Some(FuncOrDataId::Data(id)) => ModuleRelocTarget::from(id),
                None => return bad("a relocation to an unknown symbol"),
            },
            Target::LibCall(l) => ModuleRelocTarget::LibCall(*l),
            Target::Own(at) if (*at as usize) <= len => ModuleRelocTarget::FunctionOffset(own, *at),
            Target::Own(_) => return bad("a relocation to outside its function"),
        };
        Ok(ModuleReloc {
            offset: self.offset,
            kind: self.kind,
            name,
            addend: self.addend,
        })
    }
}

fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_u64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    put_u64(out, bytes.len() as u64);
    out.extend_from_slice(bytes);
}

impl Compiled {
    /// The program as bytes.
    pub fn encode(&self) -> Vec<u8> {
        let size: usize = self.functions.iter().map(|f| f.bytes.len() + 64).sum();
        let mut out = Vec::with_capacity(size + 64);
        put_u32(&mut out, FORMAT);
        put_u64(&mut out, self.functions.len() as u64);
        for f in &self.functions {
            put_bytes(&mut out, f.name.as_bytes());
            put_u64(&mut out, f.align);
            put_bytes(&mut out, &f.bytes);
            put_u64(&mut out, f.relocs.len() as u64);
            for r in &f.relocs {
                put_u32(&mut out, r.offset);
                out.push(kind_code(r.kind).unwrap_or(0));
                put_u64(&mut out, r.addend as u64);
                match &r.target {
                    Target::Symbol(s) => {
                        out.push(0);
                        put_bytes(&mut out, s.as_bytes());
                    }
                    Target::LibCall(l) => {
                        out.push(1);
                        put_bytes(&mut out, l.to_string().as_bytes());
                    }
                    Target::Own(at) => {
                        out.push(2);
                        put_u32(&mut out, *at);
                    }
                }
            }
        }
        put_u64(&mut out, self.kernels.len() as u64);
        for k in &self.kernels {
            put_bytes(&mut out, k.name.as_bytes());
            put_u64(&mut out, k.frame_size);
            put_u64(&mut out, k.call_area);
            put_u64(&mut out, k.regions);
            put_u32(&mut out, k.stream_bytes);
        }
        out
    }

    /// Reads a program back; `None` unless the bytes are one whole program of this layout.
    pub fn decode(bytes: &[u8]) -> Option<Compiled> {
        let mut r = Reader { rest: bytes };
        if r.u32()? != FORMAT {
            return None;
        }
        let mut out = Compiled::default();
        for _ in 0..r.count()? {
            let name = r.string()?;
            let align = r.u64()?;
            let code = r.bytes()?.to_vec();
            let mut relocs = Vec::new();
            for _ in 0..r.count()? {
                let offset = r.u32()?;
                let (kind, _) = kind_of(r.take(1)?[0])?;
                let addend = r.u64()? as i64;
                let target = match r.take(1)?[0] {
                    0 => Target::Symbol(r.string()?),
                    1 => Target::LibCall(r.string()?.parse().ok()?),
                    2 => Target::Own(r.u32()?),
                    _ => return None,
                };
                relocs.push(Relocation {
                    offset,
                    kind,
                    target,
                    addend,
                });
            }
            out.functions.push(FunctionCode {
                name,
                align,
                bytes: code,
                relocs,
            });
        }
        for _ in 0..r.count()? {
            out.kernels.push(KernelLayout {
                name: r.string()?,
                frame_size: r.u64()?,
                call_area: r.u64()?,
                regions: r.u64()?,
                stream_bytes: r.u32()?,
            });
        }
        r.rest.is_empty().then_some(out)
    }
}

/// The fields of an encoded program, read in order.
struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.rest.len() {
            return None;
        }
        let (head, tail) = self.rest.split_at(n);
        self.rest = tail;
        Some(head)
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    /// A count of items that follow, each at least one byte: no larger than what is left.
    fn count(&mut self) -> Option<usize> {
        let n = usize::try_from(self.u64()?).ok()?;
        (n <= self.rest.len()).then_some(n)
    }

    fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = usize::try_from(self.u64()?).ok()?;
        self.take(n)
    }

    fn string(&mut self) -> Option<String> {
        String::from_utf8(self.bytes()?.to_vec()).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Compiled {
        Compiled {
            functions: vec![FunctionCode {
                name: "__ferrocl_wg_k".into(),
                align: 16,
                bytes: vec![0x90; 40],
                relocs: vec![
                    Relocation {
                        offset: 3,
                        kind: Reloc::Abs8,
                        target: Target::Symbol("__ferrocl_global_0".into()),
                        addend: -4,
                    },
                    Relocation {
                        offset: 20,
                        kind: Reloc::X86CallPCRel4,
                        target: Target::LibCall(LibCall::FmaF32),
                        addend: 0,
                    },
                    Relocation {
                        offset: 30,
                        kind: Reloc::X86PCRel4,
                        target: Target::Own(36),
                        addend: 0,
                    },
                ],
            }],
            kernels: vec![KernelLayout {
                name: "k".into(),
                frame_size: 48,
                call_area: 0,
                regions: 2,
                stream_bytes: 4,
            }],
        }
    }

    #[test]
    fn a_program_reads_back_as_it_was() {
        let c = sample();
        assert_eq!(Compiled::decode(&c.encode()), Some(c));
    }

    #[test]
    fn every_truncation_and_an_extra_byte_are_rejected() {
        let bytes = sample().encode();
        for len in 0..bytes.len() {
            assert_eq!(Compiled::decode(&bytes[..len]), None, "length {len}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(Compiled::decode(&longer), None);
    }

    #[test]
    fn an_unknown_relocation_kind_is_rejected() {
        let mut bytes = sample().encode();
        // FORMAT, the count, the name, the alignment, the code, the count of relocations
        // and the first one's offset come before its kind.
        let at = 4 + 8 + (8 + 14) + 8 + (8 + 40) + 8 + 4;
        assert_eq!(bytes[at], 2);
        bytes[at] = 200;
        assert_eq!(Compiled::decode(&bytes), None);
    }
}
