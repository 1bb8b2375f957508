//! Binary serialization of modules, for program binaries (clGetProgramInfo with
//! CL_PROGRAM_BINARIES, clCreateProgramWithBinary) and on-disk kernel caches.
//!
//! Layout: the 8-byte magic `FERROCL\0`, a little-endian `u32` format version, the binary's
//! kind ([`BinaryKind`], one varint), then the module with every integer as an unsigned LEB128
//! varint and strings as a length and UTF-8 bytes. Entity numbering is kept, so a module reads back equal to the one written.
//!
//! A load's or store's flags are one varint of bits: 1 volatile, 2 trusted. After a
//! function's instructions come those marked [`Function::no_signed_wrap`], by number.
//!
//! Reading never panics: every count is bounded by the bytes left, every entity reference and
//! enum tag is checked, and the module read is run through the verifier. A trusted access
//! ([`MemFlags::trusted`]) is a device's own fact, never a front end's: a module read from a
//! program binary that holds one is refused, since a device would leave it unconfined.

use std::collections::HashMap;
use std::fmt;

use crate::dfg::{BlockData, ValueData, ValueDef};
use crate::entity::{Block, EntityRef, Func, Global, Inst, StackSlot, Value};
use crate::function::{
    AccessQualifier, ArgKind, Function, KernelArg, KernelInfo, Signature, StackSlotData,
    TypeQualifiers,
};
use crate::inst::*;
use crate::module::{GlobalData, Module, Relocation};
use crate::types::{AddrSpace, Type};

/// The first bytes of every serialized module.
pub const MAGIC: [u8; 8] = *b"FERROCL\0";
/// The format version written; readers accept only this one.
pub const VERSION: u32 = 5;

/// What a serialized module is, as `cl_program_binary_type` names it (API 5.8.9): a program
/// binary read back keeps its type, so that a compiled object or a library still links.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BinaryKind {
    CompiledObject,
    Library,
    Executable,
}

impl BinaryKind {
    const ALL: [BinaryKind; 3] = [
        BinaryKind::CompiledObject,
        BinaryKind::Library,
        BinaryKind::Executable,
    ];
}

/// Why bytes could not be read as a module.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum DecodeError {
    /// The bytes do not start with `MAGIC`.
    BadMagic,
    /// Written by another format version.
    UnsupportedVersion(u32),
    /// The bytes end early or hold something impossible; the message says what, and the
    /// offset where.
    Corrupt {
        /// Byte offset.
        offset: usize,
        /// What was wrong.
        message: String,
    },
    /// The module read fails verification; the first error.
    Invalid(String),
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::BadMagic => write!(f, "not a ferrocl IR binary"),
            DecodeError::UnsupportedVersion(v) => {
                write!(
                    f,
                    "IR binary format version {v}, this build reads {VERSION}"
                )
            }
            DecodeError::Corrupt { offset, message } => {
                write!(f, "corrupt IR binary at byte {offset}: {message}")
            }
            DecodeError::Invalid(m) => write!(f, "invalid IR in binary: {m}"),
        }
    }
}

impl std::error::Error for DecodeError {}

/// Writes `module` in the binary format, as an executable.
pub fn serialize(module: &Module) -> Vec<u8> {
    serialize_as(module, BinaryKind::Executable)
}

/// Writes `module` in the binary format, as a binary of the given kind.
pub fn serialize_as(module: &Module, kind: BinaryKind) -> Vec<u8> {
    let mut w = Writer {
        out: MAGIC.to_vec(),
    };
    w.out.extend_from_slice(&VERSION.to_le_bytes());
    w.u(kind as u64);
    w.module(module);
    w.out
}

/// Reads a module written by `serialize`, and verifies it.
pub fn deserialize(bytes: &[u8]) -> Result<Module, DecodeError> {
    deserialize_with_kind(bytes).map(|(m, _)| m)
}

/// Reads a module written by `serialize_as`, and verifies it; with the binary's kind.
pub fn deserialize_with_kind(bytes: &[u8]) -> Result<(Module, BinaryKind), DecodeError> {
    let (m, kind) = decode(bytes)?;
    if let Err(es) = crate::verify::verify_module(&m) {
        return Err(DecodeError::Invalid(
            es.first().map(|e| e.to_string()).unwrap_or_default(),
        ));
    }
    if let Some(f) = m.funcs.values().find(|f| has_trusted_access(f)) {
        return Err(DecodeError::Invalid(format!(
            "function @{}: a trusted access, which only a device marks",
            f.name
        )));
    }
    Ok((m, kind))
}

/// Whether a placed load or store of `f` is trusted.
fn has_trusted_access(f: &Function) -> bool {
    f.layout.blocks().iter().any(|&b| {
        f.layout
            .block_insts(b)
            .iter()
            .any(|&i| matches!(f.dfg.insts[i].op, Op::Load(fl) | Op::Store(fl) if fl.trusted))
    })
}

/// Reads a module that ferrocl itself serialized and embedded (the builtin library): decoded
/// with every bounds check, verified only in debug builds.
pub fn deserialize_trusted(bytes: &[u8]) -> Result<Module, DecodeError> {
    if cfg!(debug_assertions) {
        deserialize(bytes)
    } else {
        decode(bytes).map(|(m, _)| m)
    }
}

fn decode(bytes: &[u8]) -> Result<(Module, BinaryKind), DecodeError> {
    if bytes.len() < 12 || bytes[..8] != MAGIC {
        return Err(DecodeError::BadMagic);
    }
    let version = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
    if version != VERSION {
        return Err(DecodeError::UnsupportedVersion(version));
    }
    let mut r = Reader { bytes, pos: 12 };
    let tag = r.u()?;
    let Some(&kind) = usize::try_from(tag)
        .ok()
        .and_then(|t| BinaryKind::ALL.get(t))
    else {
        return r.fail("unknown binary kind");
    };
    let m = r.module()?;
    if r.pos != bytes.len() {
        return r.fail("trailing bytes");
    }
    Ok((m, kind))
}

struct Writer {
    out: Vec<u8>,
}

impl Writer {
    fn u(&mut self, mut x: u64) {
        loop {
            let b = (x & 0x7f) as u8;
            x >>= 7;
            if x == 0 {
                self.out.push(b);
                return;
            }
            self.out.push(b | 0x80);
        }
    }

    fn b(&mut self, x: bool) {
        self.out.push(u8::from(x));
    }

    fn s(&mut self, s: &str) {
        self.u(s.len() as u64);
        self.out.extend_from_slice(s.as_bytes());
    }

    fn ty(&mut self, t: Type) {
        self.u(u64::from(t.to_bits()));
    }

    fn opt_ty(&mut self, t: Option<Type>) {
        match t {
            Some(t) => self.u(u64::from(t.to_bits()) + 1),
            None => self.u(0),
        }
    }

    fn module(&mut self, m: &Module) {
        self.u(m.globals.len() as u64);
        for g in m.globals.values() {
            self.s(&g.name);
            self.u(g.space as u64);
            self.u(u64::from(g.size));
            self.u(u64::from(g.align));
            self.u(u64::from(g.external));
            match &g.init {
                Some(bytes) => {
                    self.u(bytes.len() as u64 + 1);
                    self.out.extend_from_slice(bytes);
                }
                None => self.u(0),
            }
            self.u(g.relocs.len() as u64);
            for r in &g.relocs {
                self.u(u64::from(r.offset));
                self.u(r.target.index() as u64);
                self.u(r.addend as u64);
            }
        }
        self.u(m.funcs.len() as u64);
        for f in m.funcs.values() {
            self.function(f);
        }
    }

    fn function(&mut self, f: &Function) {
        self.s(&f.name);
        self.u(f.sig.params.len() as u64);
        for &t in &f.sig.params {
            self.ty(t);
        }
        self.opt_ty(f.sig.ret);
        self.b(f.sig.variadic);
        match &f.kernel {
            None => self.b(false),
            Some(k) => {
                self.b(true);
                self.u(k.args.len() as u64);
                for a in &k.args {
                    self.s(&a.name);
                    self.s(&a.type_name);
                    self.u(a.space as u64);
                    self.u(a.access as u64);
                    self.u(u64::from(a.quals.0));
                    self.u(a.kind as u64);
                    self.u(u64::from(a.size));
                    self.u(u64::from(a.align));
                }
                for dims in [k.reqd_work_group_size, k.work_group_size_hint] {
                    match dims {
                        Some(d) => {
                            self.b(true);
                            d.iter().for_each(|&x| self.u(u64::from(x)));
                        }
                        None => self.b(false),
                    }
                }
                match &k.vec_type_hint {
                    Some(s) => {
                        self.b(true);
                        self.s(s);
                    }
                    None => self.b(false),
                }
            }
        }
        self.u(f.slots.len() as u64);
        for s in f.slots.values() {
            self.u(u64::from(s.size));
            self.u(u64::from(s.align));
        }
        let dfg = &f.dfg;
        // Only the instructions in the layout are written, numbered in their original order
        // (so a function without removed instructions reads back equal): a removed one may
        // still name what a pass has since taken away (a promoted stack slot), and the values
        // it defined become invalid ones.
        let mut placed: Vec<Inst> = f
            .layout
            .blocks()
            .iter()
            .flat_map(|&b| f.layout.block_insts(b).iter().copied())
            .collect();
        placed.sort();
        let live: HashMap<Inst, u32> = placed
            .iter()
            .enumerate()
            .map(|(n, &i)| (i, n as u32))
            .collect();
        self.u(dfg.values.len() as u64);
        for v in dfg.values.values() {
            self.ty(v.ty);
            match v.def {
                ValueDef::Result(i) => match live.get(&i) {
                    Some(&n) => {
                        self.u(0);
                        self.u(u64::from(n));
                    }
                    None => self.u(3),
                },
                ValueDef::Param(..) => self.u(1),
                ValueDef::Alias(t) => {
                    self.u(2);
                    self.u(u64::from(t.as_u32()));
                }
                ValueDef::Invalid => self.u(3),
            }
        }
        self.u(dfg.blocks.len() as u64);
        for b in dfg.blocks.values() {
            self.vals(&b.params);
        }
        self.u(live.len() as u64);
        for &i in &placed {
            self.op(&dfg.insts[i].op);
            self.vals(&dfg.insts[i].args);
        }
        let no_wrap: Vec<u32> = f
            .no_signed_wrap
            .iter()
            .filter_map(|i| live.get(i).copied())
            .collect();
        self.u(no_wrap.len() as u64);
        no_wrap.iter().for_each(|&n| self.u(u64::from(n)));
        let blocks = f.layout.blocks();
        self.u(blocks.len() as u64);
        for &b in blocks {
            self.u(u64::from(b.as_u32()));
            let insts = f.layout.block_insts(b);
            self.u(insts.len() as u64);
            for &i in insts {
                self.u(u64::from(live[&i]));
            }
        }
    }

    fn vals(&mut self, vs: &[Value]) {
        self.u(vs.len() as u64);
        for v in vs {
            self.u(u64::from(v.as_u32()));
        }
    }

    fn dest(&mut self, d: &Dest) {
        self.u(u64::from(d.block.as_u32()));
        self.vals(&d.args);
    }

    fn atomic(&mut self, a: &AtomicInfo) {
        self.u(a.space as u64);
        self.u(a.order as u64);
        self.u(a.scope as u64);
    }

    fn op(&mut self, op: &Op) {
        match op {
            Op::Iconst(c) => {
                self.u(0);
                self.u(*c);
            }
            Op::Fconst(c) => {
                self.u(1);
                self.u(*c);
            }
            Op::Null => self.u(2),
            Op::Undef => self.u(3),
            Op::Unary(u) => {
                self.u(4);
                self.u(*u as u64);
            }
            Op::Binary(b) => {
                self.u(5);
                self.u(*b as u64);
            }
            Op::Fma => self.u(6),
            Op::Icmp(c) => {
                self.u(7);
                self.u(*c as u64);
            }
            Op::Fcmp(c) => {
                self.u(8);
                self.u(*c as u64);
            }
            Op::Select => self.u(9),
            Op::Convert(c) => {
                self.u(10);
                let (tag, a, b) = match *c {
                    ConvOp::Trunc => (0, 0, 0),
                    ConvOp::Zext => (1, 0, 0),
                    ConvOp::Sext => (2, 0, 0),
                    ConvOp::SatInt {
                        src_signed,
                        dst_signed,
                    } => (3, u64::from(src_signed), u64::from(dst_signed)),
                    ConvOp::Fconv(r) => (4, r as u64, 0),
                    ConvOp::SintToFloat(r) => (5, r as u64, 0),
                    ConvOp::UintToFloat(r) => (6, r as u64, 0),
                    ConvOp::FloatToSint { round, sat } => (7, round as u64, u64::from(sat)),
                    ConvOp::FloatToUint { round, sat } => (8, round as u64, u64::from(sat)),
                };
                self.u(tag);
                self.u(a);
                self.u(b);
            }
            Op::Bitcast => self.u(11),
            Op::PtrToInt => self.u(12),
            Op::IntToPtr => self.u(13),
            Op::AddrCast => self.u(14),
            Op::PtrAdd => self.u(15),
            Op::Splat => self.u(16),
            Op::ExtractLane(n) => {
                self.u(17);
                self.u(u64::from(*n));
            }
            Op::InsertLane(n) => {
                self.u(18);
                self.u(u64::from(*n));
            }
            Op::Shuffle(mask) => {
                self.u(19);
                self.u(mask.len() as u64);
                self.out.extend_from_slice(mask);
            }
            Op::Load(f) | Op::Store(f) => {
                self.u(if matches!(op, Op::Load(_)) { 20 } else { 21 });
                self.u(f.space as u64);
                self.u(u64::from(f.align));
                self.u(u64::from(f.volatile) | u64::from(f.trusted) << 1);
            }
            Op::AtomicRmw(r, a) => {
                self.u(22);
                self.u(*r as u64);
                self.atomic(a);
            }
            Op::Cmpxchg(a, fail) => {
                self.u(23);
                self.atomic(a);
                self.u(*fail as u64);
            }
            Op::AtomicLoad(a) => {
                self.u(24);
                self.atomic(a);
            }
            Op::AtomicStore(a) => {
                self.u(25);
                self.atomic(a);
            }
            Op::Fence(fl, o, s) => {
                self.u(26);
                self.u(u64::from(fl.0));
                self.u(*o as u64);
                self.u(*s as u64);
            }
            Op::Barrier(fl, s) => {
                self.u(27);
                self.u(u64::from(fl.0));
                self.u(*s as u64);
            }
            Op::WorkItem(w, d) => {
                self.u(28);
                self.u(*w as u64);
                self.u(u64::from(*d));
            }
            Op::Group(g, scope) => {
                self.u(38);
                self.u(*scope as u64);
                match g {
                    GroupOp::Broadcast => self.u(0),
                    GroupOp::Reduce(b) => {
                        self.u(1);
                        self.u(*b as u64);
                    }
                    GroupOp::ScanInclusive(b) => {
                        self.u(2);
                        self.u(*b as u64);
                    }
                    GroupOp::ScanExclusive(b) => {
                        self.u(3);
                        self.u(*b as u64);
                    }
                }
            }
            Op::SlotAddr(s) => {
                self.u(29);
                self.u(u64::from(s.as_u32()));
            }
            Op::GlobalAddr(g) => {
                self.u(30);
                self.u(u64::from(g.as_u32()));
            }
            Op::Call(f) => {
                self.u(31);
                self.u(u64::from(f.as_u32()));
            }
            Op::Jump(d) => {
                self.u(32);
                self.dest(d);
            }
            Op::Brif(d) => {
                self.u(33);
                self.dest(&d.0);
                self.dest(&d.1);
            }
            Op::Switch(t) => {
                self.u(34);
                self.dest(&t.default);
                self.u(t.cases.len() as u64);
                for (c, d) in &t.cases {
                    self.u(*c);
                    self.dest(d);
                }
            }
            Op::Return => self.u(35),
            Op::Unreachable => self.u(36),
            Op::Vconst(lanes) => {
                self.u(37);
                self.u(lanes.len() as u64);
                for &c in lanes.iter() {
                    self.u(c);
                }
            }
        }
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

/// Counts of the entities a function's references must stay below.
struct Bounds {
    values: usize,
    blocks: usize,
    slots: usize,
    funcs: usize,
    globals: usize,
}

type DResult<T> = Result<T, DecodeError>;

impl Reader<'_> {
    fn fail<T>(&self, message: &str) -> DResult<T> {
        Err(DecodeError::Corrupt {
            offset: self.pos,
            message: message.to_string(),
        })
    }

    fn u(&mut self) -> DResult<u64> {
        let mut x = 0u64;
        for shift in (0..64).step_by(7) {
            let Some(&b) = self.bytes.get(self.pos) else {
                return self.fail("unexpected end");
            };
            self.pos += 1;
            if shift == 63 && b > 1 {
                return self.fail("varint overflows 64 bits");
            }
            x |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(x);
            }
        }
        self.fail("varint too long")
    }

    fn u32(&mut self) -> DResult<u32> {
        let x = self.u()?;
        match u32::try_from(x) {
            Ok(v) => Ok(v),
            Err(_) => self.fail("number exceeds 32 bits"),
        }
    }

    /// A count of items that each take at least one byte.
    fn count(&mut self) -> DResult<usize> {
        let n = self.u()?;
        if n > (self.bytes.len() - self.pos) as u64 {
            return self.fail("count exceeds the bytes left");
        }
        Ok(n as usize)
    }

    fn b(&mut self) -> DResult<bool> {
        match self.u()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => self.fail("bad boolean"),
        }
    }

    fn raw(&mut self, n: usize) -> DResult<&[u8]> {
        if n > self.bytes.len() - self.pos {
            return self.fail("unexpected end");
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn s(&mut self) -> DResult<String> {
        let n = self.count()?;
        let raw = self.raw(n)?.to_vec();
        match String::from_utf8(raw) {
            Ok(s) => Ok(s),
            Err(_) => self.fail("string is not UTF-8"),
        }
    }

    fn pick<T: Copy>(&mut self, all: &[T], what: &str) -> DResult<T> {
        let i = self.u()?;
        match usize::try_from(i).ok().and_then(|i| all.get(i)) {
            Some(&x) => Ok(x),
            None => self.fail(&format!("bad {what}")),
        }
    }

    fn space(&mut self) -> DResult<AddrSpace> {
        self.pick(&AddrSpace::ALL, "address space")
    }

    fn ty(&mut self) -> DResult<Type> {
        let x = self.u()?;
        match u16::try_from(x).ok().and_then(Type::from_bits) {
            Some(t) => Ok(t),
            None => self.fail("bad type"),
        }
    }

    fn opt_ty(&mut self) -> DResult<Option<Type>> {
        let x = self.u()?;
        if x == 0 {
            return Ok(None);
        }
        match u16::try_from(x - 1).ok().and_then(Type::from_bits) {
            Some(t) => Ok(Some(t)),
            None => self.fail("bad type"),
        }
    }

    fn index(&mut self, bound: usize, what: &str) -> DResult<u32> {
        let x = self.u()?;
        if x >= bound as u64 {
            return self.fail(&format!("{what} {x} out of range"));
        }
        Ok(x as u32)
    }

    fn module(&mut self) -> DResult<Module> {
        let mut m = Module::new();
        let ng = self.count()?;
        for _ in 0..ng {
            let name = self.s()?;
            let space = self.space()?;
            let size = self.u32()?;
            let align = self.u32()?;
            let external = match self.u()? {
                0 => false,
                1 => true,
                _ => return self.fail("bad external flag"),
            };
            let n = self.u()?;
            let init = if n == 0 {
                None
            } else {
                let Ok(len) = usize::try_from(n - 1) else {
                    return self.fail("bad initializer");
                };
                Some(self.raw(len)?.to_vec())
            };
            let nr = self.count()?;
            let mut relocs = Vec::with_capacity(nr);
            for _ in 0..nr {
                let offset = self.u32()?;
                let target = self.u()?;
                if target >= ng as u64 {
                    return self.fail("relocation target out of range");
                }
                let addend = self.u()? as i64;
                relocs.push(Relocation {
                    offset,
                    target: Global::new(target as usize),
                    addend,
                });
            }
            m.globals.push(GlobalData {
                name,
                space,
                size,
                align,
                init,
                external,
                relocs,
            });
        }
        let nf = self.count()?;
        for _ in 0..nf {
            let f = self.function(nf, ng)?;
            m.funcs.push(f);
        }
        Ok(m)
    }

    fn function(&mut self, funcs: usize, globals: usize) -> DResult<Function> {
        let name = self.s()?;
        let np = self.count()?;
        let mut params = Vec::with_capacity(np);
        for _ in 0..np {
            params.push(self.ty()?);
        }
        let ret = self.opt_ty()?;
        let variadic = self.b()?;
        let mut f = Function::new(
            &name,
            Signature {
                params,
                ret,
                variadic,
            },
        );
        if self.b()? {
            let mut k = KernelInfo::default();
            let na = self.count()?;
            for _ in 0..na {
                let name = self.s()?;
                let type_name = self.s()?;
                let space = self.space()?;
                let access = self.pick(&AccessQualifier::ALL, "access qualifier")?;
                let q = self.u()?;
                if q > 15 {
                    return self.fail("bad type qualifiers");
                }
                let kind = self.pick(&ArgKind::ALL, "argument kind")?;
                let size = self.u32()?;
                let align = self.u32()?;
                k.args.push(KernelArg {
                    name,
                    type_name,
                    space,
                    access,
                    quals: TypeQualifiers(q as u8),
                    kind,
                    size,
                    align,
                });
            }
            for slot in 0..2 {
                if self.b()? {
                    let d = [self.u32()?, self.u32()?, self.u32()?];
                    if slot == 0 {
                        k.reqd_work_group_size = Some(d);
                    } else {
                        k.work_group_size_hint = Some(d);
                    }
                }
            }
            if self.b()? {
                k.vec_type_hint = Some(self.s()?);
            }
            f.kernel = Some(k);
        }
        let ns = self.count()?;
        for _ in 0..ns {
            let size = self.u32()?;
            let align = self.u32()?;
            f.slots.push(StackSlotData { size, align });
        }
        let nv = self.count()?;
        let mut result_of = Vec::new();
        let mut param_tagged = vec![false; nv];
        for (v, tagged) in param_tagged.iter_mut().enumerate() {
            let ty = self.ty()?;
            let def = match self.u()? {
                0 => {
                    let i = self.u32()?;
                    result_of.push((Value::from_u32(v as u32), i));
                    ValueDef::Invalid
                }
                1 => {
                    *tagged = true;
                    ValueDef::Invalid
                }
                2 => ValueDef::Alias(Value::from_u32(self.index(nv, "value")?)),
                3 => ValueDef::Invalid,
                _ => return self.fail("bad value definition"),
            };
            f.dfg.values.push(ValueData { ty, def });
        }
        let nb = self.count()?;
        let bounds = Bounds {
            values: nv,
            blocks: nb,
            slots: ns,
            funcs,
            globals,
        };
        let mut is_param = vec![false; nv];
        for b in 0..nb {
            let params = self.vals(&bounds)?;
            for (i, &p) in params.iter().enumerate() {
                let k = p.as_u32() as usize;
                if !param_tagged[k] || is_param[k] {
                    return self.fail("block parameter does not match its value");
                }
                is_param[k] = true;
                f.dfg.values[p].def = ValueDef::Param(Block::from_u32(b as u32), i as u32);
            }
            f.dfg.blocks.push(BlockData { params });
        }
        if param_tagged != is_param {
            return self.fail("value marked as a parameter belongs to no block");
        }
        let ni = self.count()?;
        for _ in 0..ni {
            let op = self.op(&bounds)?;
            let args = self.vals(&bounds)?;
            f.dfg.make_inst(InstData { op, args }, None);
        }
        let nw = self.count()?;
        for _ in 0..nw {
            let i = Inst::from_u32(self.index(ni, "instruction")?);
            let op = &f.dfg.insts[i].op;
            if !matches!(
                op,
                Op::Binary(BinaryOp::Iadd | BinaryOp::Isub | BinaryOp::Imul)
            ) {
                return self
                    .fail("no-signed-wrap mark on an instruction other than iadd, isub, imul");
            }
            f.no_signed_wrap.insert(i);
        }
        let mut has_result = vec![false; ni];
        for (v, i) in result_of {
            if i as usize >= ni || has_result[i as usize] {
                return self.fail("bad instruction result");
            }
            has_result[i as usize] = true;
            f.dfg.attach_result(Inst::from_u32(i), v);
        }
        let nl = self.count()?;
        let mut inst_placed = vec![false; ni];
        for _ in 0..nl {
            let b = Block::from_u32(self.index(nb, "block")?);
            if f.layout.is_block_placed(b) {
                return self.fail("block placed twice");
            }
            f.layout.append_block(b);
            let n = self.count()?;
            for _ in 0..n {
                let i = self.index(ni, "instruction")?;
                if std::mem::replace(&mut inst_placed[i as usize], true) {
                    return self.fail("instruction placed twice");
                }
                f.layout.append_inst(Inst::from_u32(i), b);
            }
        }
        Ok(f)
    }

    fn vals(&mut self, b: &Bounds) -> DResult<Vec<Value>> {
        let n = self.count()?;
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push(Value::from_u32(self.index(b.values, "value")?));
        }
        Ok(v)
    }

    fn dest(&mut self, b: &Bounds) -> DResult<Dest> {
        let block = Block::from_u32(self.index(b.blocks, "block")?);
        let args = self.vals(b)?;
        Ok(Dest { block, args })
    }

    fn round(&mut self) -> DResult<Round> {
        self.pick(&Round::ALL, "rounding mode")
    }

    fn order(&mut self) -> DResult<Ordering> {
        self.pick(&Ordering::ALL, "memory order")
    }

    fn scope(&mut self) -> DResult<Scope> {
        self.pick(&Scope::ALL, "memory scope")
    }

    fn atomic(&mut self) -> DResult<AtomicInfo> {
        Ok(AtomicInfo {
            space: self.space()?,
            order: self.order()?,
            scope: self.scope()?,
        })
    }

    fn small(&mut self, max: u64, what: &str) -> DResult<u8> {
        let x = self.u()?;
        if x > max {
            return self.fail(&format!("bad {what}"));
        }
        Ok(x as u8)
    }

    fn op(&mut self, b: &Bounds) -> DResult<Op> {
        let tag = self.u()?;
        Ok(match tag {
            0 => Op::Iconst(self.u()?),
            1 => Op::Fconst(self.u()?),
            2 => Op::Null,
            3 => Op::Undef,
            4 => Op::Unary(self.pick(&UnaryOp::ALL, "unary operation")?),
            5 => Op::Binary(self.pick(&BinaryOp::ALL, "binary operation")?),
            6 => Op::Fma,
            7 => Op::Icmp(self.pick(&IntCC::ALL, "integer condition")?),
            8 => Op::Fcmp(self.pick(&FloatCC::ALL, "float condition")?),
            9 => Op::Select,
            10 => {
                let tag = self.u()?;
                let conv = match tag {
                    0..=2 => {
                        self.small(0, "conversion")?;
                        self.small(0, "conversion")?;
                        [ConvOp::Trunc, ConvOp::Zext, ConvOp::Sext][tag as usize]
                    }
                    3 => ConvOp::SatInt {
                        src_signed: self.b()?,
                        dst_signed: self.b()?,
                    },
                    4..=6 => {
                        let r = self.round()?;
                        self.small(0, "conversion")?;
                        match tag {
                            4 => ConvOp::Fconv(r),
                            5 => ConvOp::SintToFloat(r),
                            _ => ConvOp::UintToFloat(r),
                        }
                    }
                    7 | 8 => {
                        let round = self.round()?;
                        let sat = self.b()?;
                        if tag == 7 {
                            ConvOp::FloatToSint { round, sat }
                        } else {
                            ConvOp::FloatToUint { round, sat }
                        }
                    }
                    _ => return self.fail("bad conversion"),
                };
                Op::Convert(conv)
            }
            11 => Op::Bitcast,
            12 => Op::PtrToInt,
            13 => Op::IntToPtr,
            14 => Op::AddrCast,
            15 => Op::PtrAdd,
            16 => Op::Splat,
            17 => Op::ExtractLane(self.small(255, "lane")?),
            18 => Op::InsertLane(self.small(255, "lane")?),
            19 => {
                let n = self.count()?;
                Op::Shuffle(self.raw(n)?.into())
            }
            20 | 21 => {
                let (space, align) = (self.space()?, self.u32()?);
                let bits = self.u()?;
                if bits > 3 {
                    return self.fail("bad access flags");
                }
                let flags = MemFlags {
                    space,
                    align,
                    volatile: bits & 1 != 0,
                    trusted: bits & 2 != 0,
                };
                if tag == 20 {
                    Op::Load(flags)
                } else {
                    Op::Store(flags)
                }
            }
            22 => {
                let r = self.pick(&RmwOp::ALL, "atomic operation")?;
                Op::AtomicRmw(r, self.atomic()?)
            }
            23 => {
                let a = self.atomic()?;
                Op::Cmpxchg(a, self.order()?)
            }
            24 => Op::AtomicLoad(self.atomic()?),
            25 => Op::AtomicStore(self.atomic()?),
            26 => {
                let fl = FenceFlags(self.small(7, "fence flags")?);
                Op::Fence(fl, self.order()?, self.scope()?)
            }
            27 => {
                let fl = FenceFlags(self.small(7, "fence flags")?);
                Op::Barrier(fl, self.scope()?)
            }
            28 => {
                let w = self.pick(&WorkItemOp::ALL, "work-item query")?;
                Op::WorkItem(w, self.small(255, "dimension")?)
            }
            29 => Op::SlotAddr(StackSlot::from_u32(self.index(b.slots, "stack slot")?)),
            30 => Op::GlobalAddr(Global::from_u32(self.index(b.globals, "global")?)),
            31 => Op::Call(Func::from_u32(self.index(b.funcs, "function")?)),
            32 => Op::Jump(self.dest(b)?),
            33 => {
                let t = self.dest(b)?;
                let e = self.dest(b)?;
                Op::Brif(Box::new((t, e)))
            }
            34 => {
                let default = self.dest(b)?;
                let n = self.count()?;
                let mut cases = Vec::with_capacity(n);
                for _ in 0..n {
                    let c = self.u()?;
                    cases.push((c, self.dest(b)?));
                }
                Op::Switch(Box::new(SwitchTable { default, cases }))
            }
            35 => Op::Return,
            36 => Op::Unreachable,
            37 => {
                let n = self.count()?;
                let mut lanes = Vec::with_capacity(n);
                for _ in 0..n {
                    lanes.push(self.u()?);
                }
                Op::Vconst(lanes.into())
            }
            38 => {
                let scope = self.pick(&Scope::ALL, "scope")?;
                let g = match self.u()? {
                    0 => GroupOp::Broadcast,
                    k @ 1..=3 => {
                        let b = self.pick(&BinaryOp::ALL, "binary operation")?;
                        match k {
                            1 => GroupOp::Reduce(b),
                            2 => GroupOp::ScanInclusive(b),
                            _ => GroupOp::ScanExclusive(b),
                        }
                    }
                    _ => return self.fail("bad work-group operation"),
                };
                Op::Group(g, scope)
            }
            _ => return self.fail("bad operation"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The encoding writes `x as u64` and reads `ALL[n]`: the two orders must agree.
    #[test]
    fn enum_tables_follow_declaration_order() {
        fn check<T: Copy + PartialEq + std::fmt::Debug>(all: &[T], idx: impl Fn(T) -> usize) {
            for (i, &x) in all.iter().enumerate() {
                assert_eq!(idx(x), i, "{x:?}");
            }
        }
        check(&AddrSpace::ALL, |x| x as usize);
        check(&AccessQualifier::ALL, |x| x as usize);
        check(&UnaryOp::ALL, |x| x as usize);
        check(&BinaryOp::ALL, |x| x as usize);
        check(&IntCC::ALL, |x| x as usize);
        check(&FloatCC::ALL, |x| x as usize);
        check(&Round::ALL, |x| x as usize);
        check(&Ordering::ALL, |x| x as usize);
        check(&Scope::ALL, |x| x as usize);
        check(&RmwOp::ALL, |x| x as usize);
        check(&WorkItemOp::ALL, |x| x as usize);
    }
}
