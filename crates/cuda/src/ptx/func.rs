//! One function's PTX: registers for its values, its blocks as labels, its instructions.

use std::collections::HashMap;
use std::fmt::Write;

use ferrocl_ir::{
    AddrSpace, ArgKind, AtomicInfo, BinaryOp, Block, ConvOp, Dest, FloatCC, Function, GroupOp,
    Inst, IntCC, MemFlags, Module, Op, Ordering, RmwOp, Round, Scope, Type, UnaryOp, Value,
    WorkItemOp,
};

use super::{header, KernelLayout, HEADER};

/// The launch's dynamic shared memory, where the `__local` arguments lie.
pub const DYNAMIC_LOCAL: &str = "__dynamic_local";

/// Which way a memory access goes.
#[derive(Copy, Clone)]
enum Access {
    Load,
    Store,
}

/// Work-items in a sub-group: a warp.
pub const SUB_GROUP: u32 = 32;

/// The registers describing a work-item's sub-group (see `FuncEmitter::sub_group_of`).
struct SubGroup {
    lane: String,
    id: String,
    size: String,
    mask: String,
    /// The work-group's size.
    group_size: String,
}

/// The shared scratch of the work-group collectives: 8 bytes for each of up to
/// [`super::MAX_GROUP`] work-items.
pub const GROUP_SCRATCH: &str = "__group_scratch";

/// A PTX register class.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Class {
    Pred,
    H,
    R,
    Rd,
    F,
    Fd,
}

impl Class {
    const ALL: [Class; 6] = [
        Class::Pred,
        Class::H,
        Class::R,
        Class::Rd,
        Class::F,
        Class::Fd,
    ];

    fn of(lane: Type) -> Class {
        if lane.is_ptr() {
            return Class::Rd;
        }
        match lane {
            Type::I1 => Class::Pred,
            Type::I8 | Type::I16 | Type::I32 => Class::R,
            Type::F16 => Class::H,
            Type::F32 => Class::F,
            Type::F64 => Class::Fd,
            _ => Class::Rd,
        }
    }

    fn index(self) -> usize {
        self as usize
    }

    fn prefix(self) -> &'static str {
        match self {
            Class::Pred => "%p",
            Class::H => "%h",
            Class::R => "%r",
            Class::Rd => "%rd",
            Class::F => "%f",
            Class::Fd => "%fd",
        }
    }

    fn decl(self) -> &'static str {
        match self {
            Class::Pred => ".pred",
            Class::H => ".b16",
            Class::R => ".b32",
            Class::Rd => ".b64",
            Class::F => ".f32",
            Class::Fd => ".f64",
        }
    }

    /// The `mov` of the class.
    fn mov(self) -> &'static str {
        match self {
            Class::Pred => "mov.pred",
            Class::H => "mov.b16",
            Class::R => "mov.b32",
            Class::Rd => "mov.b64",
            Class::F => "mov.f32",
            Class::Fd => "mov.f64",
        }
    }

    /// Bytes one lane of the class takes in a parameter (a predicate travels as a `b32`).
    fn param_bytes(self) -> usize {
        match self {
            Class::H => 2,
            Class::Pred | Class::R | Class::F => 4,
            Class::Rd | Class::Fd => 8,
        }
    }

    /// The bit type of a parameter lane.
    fn param_type(self) -> &'static str {
        match self {
            Class::H => "b16",
            Class::Pred | Class::R | Class::F => "b32",
            Class::Rd | Class::Fd => "b64",
        }
    }
}

/// The memory type of a lane in `ld`/`st`.
fn mem_type(lane: Type) -> Result<&'static str> {
    if lane.is_ptr() {
        return Ok("u64");
    }
    Ok(match lane {
        Type::I8 => "u8",
        Type::I16 => "u16",
        Type::I32 => "u32",
        Type::I64 => "u64",
        Type::F16 => "b16",
        Type::F32 => "f32",
        Type::F64 => "f64",
        _ => return Err(format!("a memory access of type {lane}")),
    })
}

/// The state-space suffix of an access to `space` (`constant` memory is global memory).
fn space_suffix(space: AddrSpace) -> &'static str {
    match space {
        AddrSpace::Global | AddrSpace::Constant => ".global",
        AddrSpace::Local => ".shared",
        AddrSpace::Private => ".local",
        AddrSpace::Generic => "",
    }
}

/// `.volatile` for a volatile access to memory other work-items see; private memory is the
/// work-item's own, where a volatile access is an ordinary one (and PTX before 9.1 has no
/// volatile `.local` access).
fn volatile(flags: MemFlags) -> &'static str {
    match (flags.volatile, flags.space) {
        (true, AddrSpace::Private) | (false, _) => "",
        (true, _) => ".volatile",
    }
}

fn scope_suffix(scope: Scope) -> &'static str {
    match scope {
        Scope::WorkItem | Scope::SubGroup | Scope::WorkGroup => ".cta",
        Scope::Device => ".gpu",
        Scope::AllDevices => ".sys",
    }
}

fn round_float(r: Round) -> &'static str {
    match r {
        Round::Rte => ".rn",
        Round::Rtz => ".rz",
        Round::Rtp => ".rp",
        Round::Rtn => ".rm",
    }
}

fn round_int(r: Round) -> &'static str {
    match r {
        Round::Rte => ".rni",
        Round::Rtz => ".rzi",
        Round::Rtp => ".rpi",
        Round::Rtn => ".rmi",
    }
}

/// The PTX prototype of a non-kernel function: each parameter and the return value one
/// byte-array parameter holding its lanes.
pub(super) fn prototype(f: &Function, name: &str) -> String {
    let param = |ty: Type, name: String| {
        let class = Class::of(ty.lane_type());
        format!(
            ".param .align 16 .b8 {name}[{}]",
            class.param_bytes() * ty.lanes() as usize
        )
    };
    let mut s = String::new();
    if let Some(ret) = f.sig.ret {
        let _ = write!(s, "({}) ", param(ret, "__ret".into()));
    }
    s.push_str(name);
    let params: Vec<String> = f
        .sig
        .params
        .iter()
        .enumerate()
        .map(|(i, &t)| param(t, format!("__a{i}")))
        .collect();
    if !params.is_empty() {
        let _ = write!(s, "({})", params.join(", "));
    }
    s
}

type Result<T> = std::result::Result<T, String>;

pub(super) struct FuncEmitter<'a> {
    module: &'a Module,
    f: &'a Function,
    names: &'a [String],
    globals: &'a [(String, u32)],
    layout: Option<&'a KernelLayout>,
    body: String,
    counts: [u32; 6],
    regs: HashMap<Value, (Class, u32)>,
    labels: u32,
    /// Bytes of the scratch a bitcast between lane shapes goes through.
    scratch: u32,
    /// Local arrays holding by-value struct arguments: name and size.
    aggregates: Vec<(String, usize)>,
}

impl<'a> FuncEmitter<'a> {
    pub(super) fn new(
        module: &'a Module,
        f: &'a Function,
        names: &'a [String],
        globals: &'a [(String, u32)],
        layout: Option<&'a KernelLayout>,
    ) -> Self {
        FuncEmitter {
            module,
            f,
            names,
            globals,
            layout,
            body: String::new(),
            counts: [0; 6],
            regs: HashMap::new(),
            labels: 0,
            scratch: 0,
            aggregates: Vec::new(),
        }
    }

    /// The function's body: declarations, the entry's parameters, then each block.
    pub(super) fn emit(mut self) -> Result<String> {
        let entry = self
            .f
            .layout
            .entry_block()
            .ok_or("a function without blocks")?;
        self.entry_params(entry)?;
        for &block in self.f.layout.blocks() {
            let _ = writeln!(self.body, "$L{}:", block.as_u32());
            for &inst in self.f.layout.block_insts(block) {
                self.inst(inst)?;
            }
        }
        let mut out = String::new();
        for class in Class::ALL {
            let n = self.counts[class.index()];
            if n > 0 {
                let _ = writeln!(out, "\t.reg {} {}<{n}>;", class.decl(), class.prefix());
            }
        }
        for (slot, data) in self.f.slots.iter() {
            let _ = writeln!(
                out,
                "\t.local .align {} .b8 __s{}[{}];",
                data.align.clamp(1, 16),
                slot.as_u32(),
                data.size.max(1)
            );
        }
        for (name, size) in &self.aggregates {
            let _ = writeln!(out, "\t.local .align 16 .b8 {name}[{}];", size.max(&1));
        }
        if self.scratch > 0 {
            let _ = writeln!(out, "\t.local .align 16 .b8 __scratch[{}];", self.scratch);
        }
        out.push_str(&self.body);
        Ok(out)
    }

    fn line(&mut self, s: std::fmt::Arguments<'_>) {
        self.body.push('\t');
        let _ = self.body.write_fmt(s);
        self.body.push_str(";\n");
    }

    fn temp(&mut self, class: Class) -> String {
        let n = self.counts[class.index()];
        self.counts[class.index()] += 1;
        format!("{}{n}", class.prefix())
    }

    fn label(&mut self) -> String {
        self.labels += 1;
        format!("$S{}", self.labels)
    }

    fn ty(&self, v: Value) -> Type {
        self.f.dfg.value_type(v)
    }

    /// The registers of `v`, one per lane.
    fn lanes(&mut self, v: Value) -> Vec<String> {
        let ty = self.ty(v);
        let class = Class::of(ty.lane_type());
        let n = ty.lanes();
        let base = match self.regs.get(&v) {
            Some(&(_, b)) => b,
            None => {
                let b = self.counts[class.index()];
                self.counts[class.index()] += n;
                self.regs.insert(v, (class, b));
                b
            }
        };
        (0..n)
            .map(|i| format!("{}{}", class.prefix(), base + i))
            .collect()
    }

    fn arg(&mut self, inst: Inst, i: usize) -> Value {
        self.f.dfg.insts[inst].args[i]
    }

    fn result(&self, inst: Inst) -> Result<Value> {
        self.f
            .dfg
            .inst_result(inst)
            .ok_or_else(|| "an instruction without its result".to_string())
    }

    /// Loads the entry block's parameters: a kernel's from its parameter block, a
    /// function's from its parameters.
    fn entry_params(&mut self, entry: Block) -> Result<()> {
        let params = self.f.dfg.block_params(entry).to_vec();
        let Some(layout) = self.layout else {
            for (i, p) in params.into_iter().enumerate() {
                let regs = self.lanes(p);
                self.load_param_lanes(&regs, Class::of(self.ty(p).lane_type()), &format!("__a{i}"));
            }
            return Ok(());
        };
        let args = &self
            .f
            .kernel
            .as_ref()
            .ok_or("a kernel without arguments")?
            .args;
        for (i, p) in params.into_iter().enumerate() {
            let slot = layout.slots[i];
            let at = HEADER + slot.offset;
            let ty = self.ty(p);
            let regs = self.lanes(p);
            match slot.kind {
                // A sampler is its 32-bit bit-field, passed as a value.
                ArgKind::Value | ArgKind::Sampler => {
                    let lane = ty.lane_type();
                    let t = mem_type(lane)?;
                    for (k, r) in regs.iter().enumerate() {
                        let off = at + k * lane.bytes() as usize;
                        self.line(format_args!("ld.param.{t} {r}, [__params+{off}]"));
                    }
                }
                // An image is the address of its descriptor in device memory, a pipe that
                // of its storage (the header, the slots' sequence numbers, the packets).
                ArgKind::Buffer | ArgKind::Image | ArgKind::Pipe => {
                    self.line(format_args!("ld.param.u64 {}, [__params+{at}]", regs[0]));
                }
                ArgKind::Local => {
                    let (off, base) = (self.temp(Class::Rd), self.temp(Class::Rd));
                    self.line(format_args!("ld.param.u64 {off}, [__params+{at}]"));
                    self.line(format_args!(
                        "ld.param.u64 {base}, [__params+{}]",
                        header::LOCAL_BASE
                    ));
                    self.line(format_args!("sub.s64 {off}, {off}, {base}"));
                    self.line(format_args!("mov.u64 {base}, {DYNAMIC_LOCAL}"));
                    self.line(format_args!("add.s64 {}, {base}, {off}", regs[0]));
                }
                ArgKind::Aggregate => {
                    let &(_, from, size) = layout
                        .aggregates
                        .iter()
                        .find(|a| a.0 == i)
                        .ok_or("a by-value struct argument without its place")?;
                    let name = format!("__agg{i}");
                    self.aggregates.push((name.clone(), size));
                    let t = self.temp(Class::R);
                    let step = if size % 4 == 0 { 4 } else { 1 };
                    let ty = if step == 4 { "b32" } else { "u8" };
                    for k in (0..size).step_by(step) {
                        self.line(format_args!("ld.param.{ty} {t}, [__params+{}]", from + k));
                        self.line(format_args!("st.local.{ty} [{name}+{k}], {t}"));
                    }
                    self.line(format_args!("mov.u64 {}, {name}", regs[0]));
                }
                kind => {
                    return Err(format!(
                        "argument {:?} is of kind {}, which is not supported by this device",
                        args[i].name,
                        kind.name()
                    ))
                }
            }
        }
        Ok(())
    }

    fn load_param_lanes(&mut self, regs: &[String], class: Class, param: &str) {
        let t = class.param_type();
        let b = class.param_bytes();
        for (k, r) in regs.iter().enumerate() {
            if class == Class::Pred {
                let tmp = self.temp(Class::R);
                self.line(format_args!("ld.param.b32 {tmp}, [{param}+{}]", k * b));
                self.line(format_args!("setp.ne.u32 {r}, {tmp}, 0"));
            } else {
                self.line(format_args!("ld.param.{t} {r}, [{param}+{}]", k * b));
            }
        }
    }

    fn store_param_lanes(&mut self, regs: &[String], class: Class, param: &str) {
        let t = class.param_type();
        let b = class.param_bytes();
        for (k, r) in regs.iter().enumerate() {
            if class == Class::Pred {
                let tmp = self.temp(Class::R);
                self.line(format_args!("selp.u32 {tmp}, 1, 0, {r}"));
                self.line(format_args!("st.param.b32 [{param}+{}], {tmp}", k * b));
            } else {
                self.line(format_args!("st.param.{t} [{param}+{}], {r}", k * b));
            }
        }
    }

    fn inst(&mut self, inst: Inst) -> Result<()> {
        let op = self.f.dfg.insts[inst].op.clone();
        match op {
            Op::Iconst(k) | Op::Fconst(k) => {
                let d = self.result(inst)?;
                let lane = self.ty(d).lane_type();
                for r in self.lanes(d) {
                    self.constant(&r, lane, k);
                }
            }
            Op::Vconst(ks) => {
                let d = self.result(inst)?;
                let lane = self.ty(d).lane_type();
                for (r, k) in self.lanes(d).iter().zip(ks.iter()) {
                    self.constant(r, lane, *k);
                }
            }
            Op::Null | Op::Undef => {
                let d = self.result(inst)?;
                let lane = self.ty(d).lane_type();
                for r in self.lanes(d) {
                    self.constant(&r, lane, 0);
                }
            }
            Op::Unary(u) => self.lanewise(inst, |e, d, a, lane| e.unary(u, d, &a[0], lane))?,
            Op::Binary(b) => {
                self.lanewise(inst, |e, d, a, lane| e.binary(b, d, &a[0], &a[1], lane))?
            }
            Op::Fma => self.lanewise(inst, |e, d, a, lane| {
                let t = float_type(lane)?;
                e.line(format_args!("fma.rn.{t} {d}, {}, {}, {}", a[0], a[1], a[2]));
                Ok(())
            })?,
            Op::Icmp(cc) => self.compare(inst, |e, d, a, b, lane| e.icmp(cc, d, a, b, lane))?,
            Op::Fcmp(cc) => self.compare(inst, |e, d, a, b, lane| e.fcmp(cc, d, a, b, lane))?,
            Op::Select => self.select(inst)?,
            Op::Convert(c) => self.convert(inst, c)?,
            Op::Bitcast => self.bitcast(inst)?,
            Op::PtrToInt | Op::IntToPtr => {
                let (d, x) = (self.result(inst)?, self.arg(inst, 0));
                let (dr, xr) = (self.lanes(d)[0].clone(), self.lanes(x)[0].clone());
                match (self.ty(d).bits(), self.ty(x).bits()) {
                    (64, 64) => self.line(format_args!("mov.b64 {dr}, {xr}")),
                    (32, 64) => self.line(format_args!("cvt.u32.u64 {dr}, {xr}")),
                    (64, 32) => self.line(format_args!("cvt.u64.u32 {dr}, {xr}")),
                    (a, b) => return Err(format!("a pointer conversion from {b} to {a} bits")),
                }
            }
            Op::AddrCast => self.addr_cast(inst)?,
            Op::PtrAdd => {
                let (d, p, off) = (self.result(inst)?, self.arg(inst, 0), self.arg(inst, 1));
                let (dr, pr) = (self.lanes(d)[0].clone(), self.lanes(p)[0].clone());
                let mut or = self.lanes(off)[0].clone();
                if self.ty(off).bits() == 32 {
                    let t = self.temp(Class::Rd);
                    self.line(format_args!("cvt.s64.s32 {t}, {or}"));
                    or = t;
                }
                self.line(format_args!("add.s64 {dr}, {pr}, {or}"));
            }
            Op::Splat => {
                let (d, x) = (self.result(inst)?, self.arg(inst, 0));
                let class = Class::of(self.ty(x).lane_type());
                let xr = self.lanes(x)[0].clone();
                for r in self.lanes(d) {
                    self.line(format_args!("{} {r}, {xr}", class.mov()));
                }
            }
            Op::ExtractLane(n) => {
                let (d, v) = (self.result(inst)?, self.arg(inst, 0));
                let class = Class::of(self.ty(d).lane_type());
                let src = self.lanes(v)[n as usize].clone();
                let dr = self.lanes(d)[0].clone();
                self.line(format_args!("{} {dr}, {src}", class.mov()));
            }
            Op::InsertLane(n) => {
                let (d, v, x) = (self.result(inst)?, self.arg(inst, 0), self.arg(inst, 1));
                let class = Class::of(self.ty(d).lane_type());
                let mut src = self.lanes(v);
                src[n as usize] = self.lanes(x)[0].clone();
                let dl = self.lanes(d);
                self.moves(class, &dl, &src);
            }
            Op::Shuffle(mask) => {
                let (d, a, b) = (self.result(inst)?, self.arg(inst, 0), self.arg(inst, 1));
                let class = Class::of(self.ty(d).lane_type());
                let mut all = self.lanes(a);
                all.extend(self.lanes(b));
                let src: Vec<String> = mask.iter().map(|&m| all[m as usize].clone()).collect();
                let dl = self.lanes(d);
                self.moves(class, &dl, &src);
            }
            Op::Load(flags) => self.load(inst, flags)?,
            Op::Store(flags) => self.store(inst, flags)?,
            Op::AtomicRmw(op, info) => self.atomic_rmw(inst, op, info)?,
            Op::Cmpxchg(info, _) => self.cmpxchg(inst, info)?,
            Op::AtomicLoad(info) => self.atomic_load(inst, info)?,
            Op::AtomicStore(info) => self.atomic_store(inst, info)?,
            Op::Fence(_, order, scope) => self.fence(order, scope),
            Op::Barrier(_, scope) => match scope {
                Scope::SubGroup => {
                    let sg = self.sub_group_of();
                    self.line(format_args!("bar.warp.sync {}", sg.mask));
                }
                // 9.5 of the PTX ISA: bar.sync orders the memory accesses of the threads
                // before it with those after it, for every state space.
                _ => self.line(format_args!("bar.sync 0")),
            },
            Op::WorkItem(w, dim) => self.work_item(inst, w, dim)?,
            Op::Group(g, scope) => self.group(inst, g, scope)?,
            Op::SlotAddr(slot) => {
                let d = self.result(inst)?;
                let dr = self.lanes(d)[0].clone();
                self.line(format_args!("mov.u64 {dr}, __s{}", slot.as_u32()));
            }
            Op::GlobalAddr(g) => {
                let d = self.result(inst)?;
                let dr = self.lanes(d)[0].clone();
                let (name, offset) = self.globals[g.as_u32() as usize].clone();
                self.line(format_args!("mov.u64 {dr}, {name}"));
                if offset > 0 {
                    self.line(format_args!("add.s64 {dr}, {dr}, {offset}"));
                }
            }
            Op::Call(callee) => self.call(inst, callee)?,
            Op::Jump(dest) => {
                self.branch_args(&dest);
                self.line(format_args!("bra.uni $L{}", dest.block.as_u32()));
            }
            Op::Brif(dests) => {
                let cv = self.arg(inst, 0);
                let c = self.lanes(cv)[0].clone();
                let (yes, no) = *dests;
                let other = self.label();
                self.line(format_args!("@!{c} bra {other}"));
                self.branch_args(&yes);
                self.line(format_args!("bra.uni $L{}", yes.block.as_u32()));
                let _ = writeln!(self.body, "{other}:");
                self.branch_args(&no);
                self.line(format_args!("bra.uni $L{}", no.block.as_u32()));
            }
            Op::Switch(table) => self.switch(inst, &table)?,
            Op::Return => self.ret(inst),
            Op::Unreachable => self.line(format_args!("trap")),
        }
        Ok(())
    }

    fn constant(&mut self, r: &str, lane: Type, k: u64) {
        let class = Class::of(lane);
        match class {
            Class::Pred => {
                let t = self.temp(Class::R);
                self.line(format_args!("mov.u32 {t}, {}", k & 1));
                self.line(format_args!("setp.ne.u32 {r}, {t}, 0"));
            }
            Class::H => self.line(format_args!("mov.b16 {r}, {:#x}", k as u16)),
            Class::R => self.line(format_args!("mov.b32 {r}, {:#x}", k as u32)),
            Class::Rd => self.line(format_args!("mov.b64 {r}, {k:#x}")),
            Class::F => self.line(format_args!("mov.f32 {r}, 0f{:08X}", k as u32)),
            Class::Fd => self.line(format_args!("mov.f64 {r}, 0d{k:016X}")),
        }
    }

    fn moves(&mut self, class: Class, dst: &[String], src: &[String]) {
        // Through temporaries: a destination may be a source (a lane moved within a value
        // is never, but a value may be its own operand after a rewrite).
        let temps: Vec<String> = src
            .iter()
            .map(|s| {
                let t = self.temp(class);
                self.line(format_args!("{} {t}, {s}", class.mov()));
                t
            })
            .collect();
        for (d, t) in dst.iter().zip(&temps) {
            self.line(format_args!("{} {d}, {t}", class.mov()));
        }
    }

    /// Applies `f` to each lane: the result's register, the operands' registers and the
    /// operand lane type.
    fn lanewise(
        &mut self,
        inst: Inst,
        mut f: impl FnMut(&mut Self, &str, &[String], Type) -> Result<()>,
    ) -> Result<()> {
        let d = self.result(inst)?;
        let args = self.f.dfg.insts[inst].args.clone();
        let lane = self.ty(args[0]).lane_type();
        let dl = self.lanes(d);
        let al: Vec<Vec<String>> = args.iter().map(|&a| self.lanes(a)).collect();
        for (i, dr) in dl.iter().enumerate() {
            let ops: Vec<String> = al
                .iter()
                .map(|l| l.get(i).unwrap_or(&l[0]).clone())
                .collect();
            f(self, dr, &ops, lane)?;
        }
        Ok(())
    }

    /// Masks an `i8`/`i16` result back to its bits.
    fn narrow(&mut self, d: &str, lane: Type) {
        match lane.bits() {
            8 => self.line(format_args!("and.b32 {d}, {d}, 0xff")),
            16 => self.line(format_args!("and.b32 {d}, {d}, 0xffff")),
            _ => {}
        }
    }

    /// An `i8`/`i16` operand sign-extended to 32 bits (others as they are).
    fn signed(&mut self, a: &str, lane: Type) -> String {
        match lane.bits() {
            8 | 16 => {
                let t = self.temp(Class::R);
                self.line(format_args!("cvt.s32.s{} {t}, {a}", lane.bits()));
                t
            }
            _ => a.to_string(),
        }
    }

    fn int_width(lane: Type) -> u32 {
        if lane.bits() == 64 {
            64
        } else {
            32
        }
    }

    fn unary(&mut self, u: UnaryOp, d: &str, a: &str, lane: Type) -> Result<()> {
        let w = Self::int_width(lane);
        let bits = lane.bits();
        if lane == Type::I1 {
            return match u {
                UnaryOp::Bnot => {
                    self.line(format_args!("not.pred {d}, {a}"));
                    Ok(())
                }
                _ => Err(format!("{} of a boolean", u.name())),
            };
        }
        match u {
            UnaryOp::Ineg => {
                self.line(format_args!("neg.s{w} {d}, {a}"));
                self.narrow(d, lane);
            }
            UnaryOp::Bnot => {
                self.line(format_args!("not.b{w} {d}, {a}"));
                self.narrow(d, lane);
            }
            UnaryOp::Clz | UnaryOp::Ctz | UnaryOp::Popcnt => self.bit_count(u, d, a, lane),
            UnaryOp::Fneg | UnaryOp::Fabs => {
                let (class, t) = if bits == 64 {
                    (Class::Rd, "b64")
                } else {
                    (Class::R, "b32")
                };
                if lane == Type::F16 {
                    return Err("half arithmetic".into());
                }
                let x = self.temp(class);
                self.line(format_args!("mov.{t} {x}, {a}"));
                let sign: u64 = 1 << (bits - 1);
                match u {
                    UnaryOp::Fneg => self.line(format_args!("xor.{t} {x}, {x}, {sign:#x}")),
                    _ => self.line(format_args!("and.{t} {x}, {x}, {:#x}", sign - 1)),
                }
                self.line(format_args!("mov.{t} {d}, {x}"));
            }
            UnaryOp::Sqrt => self.line(format_args!("sqrt.rn.{} {d}, {a}", float_type(lane)?)),
            // Float: the hardware's approximation, which keeps subnormals without `.ftz` and
            // stays within the 3 ulp OpenCL C allows `sqrt` (measured on the device over
            // every positive float: see docs/architecture.md). Double: correctly rounded, as
            // OpenCL C requires of double `sqrt`.
            UnaryOp::SqrtRelaxed if lane == Type::F32 => {
                self.line(format_args!("sqrt.approx.f32 {d}, {a}"))
            }
            UnaryOp::SqrtRelaxed => {
                self.line(format_args!("sqrt.rn.{} {d}, {a}", float_type(lane)?))
            }
            // Float: the hardware's approximation, within the 2 ulp of `rsqrt` (measured as
            // above). Double: a correctly rounded square root and division.
            UnaryOp::Rsqrt if lane == Type::F32 => {
                self.line(format_args!("rsqrt.approx.f32 {d}, {a}"))
            }
            UnaryOp::Rsqrt => {
                let t = float_type(lane)?;
                let root = self.temp(Class::Fd);
                self.line(format_args!("sqrt.rn.{t} {root}, {a}"));
                self.line(format_args!("div.rn.{t} {d}, 0d3FF0000000000000, {root}"));
            }
            UnaryOp::Floor | UnaryOp::Ceil | UnaryOp::Ftrunc | UnaryOp::Nearest => {
                let r = match u {
                    UnaryOp::Floor => ".rmi",
                    UnaryOp::Ceil => ".rpi",
                    UnaryOp::Ftrunc => ".rzi",
                    _ => ".rni",
                };
                let t = float_type(lane)?;
                self.line(format_args!("cvt{r}.{t}.{t} {d}, {a}"));
            }
        }
        Ok(())
    }

    fn bit_count(&mut self, u: UnaryOp, d: &str, a: &str, lane: Type) {
        let bits = lane.bits();
        if bits == 64 {
            let c = self.temp(Class::R);
            match u {
                UnaryOp::Clz => self.line(format_args!("clz.b64 {c}, {a}")),
                UnaryOp::Popcnt => self.line(format_args!("popc.b64 {c}, {a}")),
                _ => {
                    let r = self.temp(Class::Rd);
                    self.line(format_args!("brev.b64 {r}, {a}"));
                    self.line(format_args!("clz.b64 {c}, {r}"));
                }
            }
            self.line(format_args!("cvt.u64.u32 {d}, {c}"));
            return;
        }
        match u {
            UnaryOp::Clz => {
                self.line(format_args!("clz.b32 {d}, {a}"));
                if bits < 32 {
                    self.line(format_args!("sub.u32 {d}, {d}, {}", 32 - bits));
                }
            }
            UnaryOp::Popcnt => self.line(format_args!("popc.b32 {d}, {a}")),
            _ => {
                let r = self.temp(Class::R);
                self.line(format_args!("brev.b32 {r}, {a}"));
                self.line(format_args!("clz.b32 {d}, {r}"));
                if bits < 32 {
                    self.line(format_args!("min.u32 {d}, {d}, {bits}"));
                }
            }
        }
    }

    fn binary(&mut self, b: BinaryOp, d: &str, x: &str, y: &str, lane: Type) -> Result<()> {
        if b.is_float() {
            return self.float_binary(b, d, x, y, lane);
        }
        if lane == Type::I1 {
            let op = match b {
                BinaryOp::Band | BinaryOp::Umin | BinaryOp::Imul => "and",
                BinaryOp::Bor | BinaryOp::Umax => "or",
                BinaryOp::Bxor | BinaryOp::Iadd | BinaryOp::Isub => "xor",
                _ => return Err(format!("{} of booleans", b.name())),
            };
            self.line(format_args!("{op}.pred {d}, {x}, {y}"));
            return Ok(());
        }
        let w = Self::int_width(lane);
        let bits = lane.bits();
        let narrow = bits < 32;
        match b {
            BinaryOp::Iadd | BinaryOp::Isub | BinaryOp::Imul => {
                let op = match b {
                    BinaryOp::Iadd => "add",
                    BinaryOp::Isub => "sub",
                    _ => "mul.lo",
                };
                self.line(format_args!("{op}.s{w} {d}, {x}, {y}"));
                self.narrow(d, lane);
            }
            BinaryOp::Band | BinaryOp::Bor | BinaryOp::Bxor => {
                let op = match b {
                    BinaryOp::Band => "and",
                    BinaryOp::Bor => "or",
                    _ => "xor",
                };
                self.line(format_args!("{op}.b{w} {d}, {x}, {y}"));
            }
            BinaryOp::Udiv | BinaryOp::Urem | BinaryOp::Umin | BinaryOp::Umax => {
                let op = match b {
                    BinaryOp::Udiv => "div",
                    BinaryOp::Urem => "rem",
                    BinaryOp::Umin => "min",
                    _ => "max",
                };
                self.line(format_args!("{op}.u{w} {d}, {x}, {y}"));
            }
            BinaryOp::Sdiv | BinaryOp::Srem | BinaryOp::Smin | BinaryOp::Smax => {
                let op = match b {
                    BinaryOp::Sdiv => "div",
                    BinaryOp::Srem => "rem",
                    BinaryOp::Smin => "min",
                    _ => "max",
                };
                let (sx, sy) = (self.signed(x, lane), self.signed(y, lane));
                self.line(format_args!("{op}.s{w} {d}, {sx}, {sy}"));
                self.narrow(d, lane);
            }
            BinaryOp::Umulhi if narrow => {
                self.line(format_args!("mul.lo.u32 {d}, {x}, {y}"));
                self.line(format_args!("shr.u32 {d}, {d}, {bits}"));
            }
            BinaryOp::Smulhi if narrow => {
                let (sx, sy) = (self.signed(x, lane), self.signed(y, lane));
                self.line(format_args!("mul.lo.s32 {d}, {sx}, {sy}"));
                self.line(format_args!("shr.s32 {d}, {d}, {bits}"));
                self.narrow(d, lane);
            }
            BinaryOp::Umulhi => self.line(format_args!("mul.hi.u{w} {d}, {x}, {y}")),
            BinaryOp::Smulhi => self.line(format_args!("mul.hi.s{w} {d}, {x}, {y}")),
            BinaryOp::Shl | BinaryOp::Lshr | BinaryOp::Ashr | BinaryOp::Rotl => {
                self.shift(b, d, x, y, lane)
            }
            _ => return Err(format!("integer {}", b.name())),
        }
        Ok(())
    }

    /// Shifts and rotates, the amount taken modulo the lane width (OpenCL C 6.5.10).
    fn shift(&mut self, b: BinaryOp, d: &str, x: &str, y: &str, lane: Type) {
        let bits = lane.bits();
        let w = Self::int_width(lane);
        let n = self.temp(Class::R);
        if bits == 64 {
            self.line(format_args!("cvt.u32.u64 {n}, {y}"));
            self.line(format_args!("and.b32 {n}, {n}, 63"));
        } else {
            self.line(format_args!("and.b32 {n}, {y}, {}", bits - 1));
        }
        match b {
            BinaryOp::Shl => {
                self.line(format_args!("shl.b{w} {d}, {x}, {n}"));
                self.narrow(d, lane);
            }
            BinaryOp::Lshr => self.line(format_args!("shr.u{w} {d}, {x}, {n}")),
            BinaryOp::Ashr => {
                let sx = self.signed(x, lane);
                self.line(format_args!("shr.s{w} {d}, {sx}, {n}"));
                self.narrow(d, lane);
            }
            _ if bits == 32 => self.line(format_args!("shf.l.wrap.b32 {d}, {x}, {x}, {n}")),
            _ => {
                // (x << n) | (x >> (bits - n)); a shift by the whole width gives 0 in PTX.
                let class = if bits == 64 { Class::Rd } else { Class::R };
                let (hi, lo, m) = (self.temp(class), self.temp(class), self.temp(Class::R));
                self.line(format_args!("shl.b{w} {hi}, {x}, {n}"));
                self.line(format_args!("sub.u32 {m}, {bits}, {n}"));
                self.line(format_args!("shr.u{w} {lo}, {x}, {m}"));
                self.line(format_args!("or.b{w} {d}, {hi}, {lo}"));
                self.narrow(d, lane);
            }
        }
    }

    fn float_binary(&mut self, b: BinaryOp, d: &str, x: &str, y: &str, lane: Type) -> Result<()> {
        let t = float_type(lane)?;
        match b {
            BinaryOp::Fadd => self.line(format_args!("add.rn.{t} {d}, {x}, {y}")),
            BinaryOp::Fsub => self.line(format_args!("sub.rn.{t} {d}, {x}, {y}")),
            BinaryOp::Fmul => self.line(format_args!("mul.rn.{t} {d}, {x}, {y}")),
            BinaryOp::Fdiv => self.line(format_args!("div.rn.{t} {d}, {x}, {y}")),
            // Float: the full-range approximation, 2 ulp at most by the PTX ISA ("The maximum
            // ulp error is 2 across the full range of inputs"), within the 2.5 ulp of `x / y`.
            // Double: correctly rounded, as OpenCL C requires.
            BinaryOp::FdivRelaxed if lane == Type::F32 => {
                self.line(format_args!("div.full.f32 {d}, {x}, {y}"))
            }
            BinaryOp::FdivRelaxed => self.line(format_args!("div.rn.{t} {d}, {x}, {y}")),
            // 9.7.3 of the PTX ISA: "If only one value is NaN, return the other".
            BinaryOp::Fmin => self.line(format_args!("min.{t} {d}, {x}, {y}")),
            BinaryOp::Fmax => self.line(format_args!("max.{t} {d}, {x}, {y}")),
            BinaryOp::Copysign => {
                let bits = lane.bits();
                let (class, bt) = if bits == 64 {
                    (Class::Rd, "b64")
                } else {
                    (Class::R, "b32")
                };
                let (a, s) = (self.temp(class), self.temp(class));
                let sign: u64 = 1 << (bits - 1);
                self.line(format_args!("mov.{bt} {a}, {x}"));
                self.line(format_args!("mov.{bt} {s}, {y}"));
                self.line(format_args!("and.{bt} {a}, {a}, {:#x}", sign - 1));
                self.line(format_args!("and.{bt} {s}, {s}, {sign:#x}"));
                self.line(format_args!("or.{bt} {a}, {a}, {s}"));
                self.line(format_args!("mov.{bt} {d}, {a}"));
            }
            _ => return Err(format!("{} is not a float operation", b.name())),
        }
        Ok(())
    }

    fn compare(
        &mut self,
        inst: Inst,
        mut f: impl FnMut(&mut Self, &str, &str, &str, Type) -> Result<()>,
    ) -> Result<()> {
        self.lanewise(inst, |e, d, a, lane| f(e, d, &a[0], &a[1], lane))
    }

    fn icmp(&mut self, cc: IntCC, d: &str, a: &str, b: &str, lane: Type) -> Result<()> {
        if lane == Type::I1 {
            match cc {
                IntCC::Eq => {
                    self.line(format_args!("xor.pred {d}, {a}, {b}"));
                    self.line(format_args!("not.pred {d}, {d}"));
                }
                IntCC::Ne => self.line(format_args!("xor.pred {d}, {a}, {b}")),
                _ => return Err(format!("an ordered comparison ({}) of booleans", cc.name())),
            }
            return Ok(());
        }
        let w = Self::int_width(lane);
        let (op, signed) = match cc {
            IntCC::Eq => ("eq", false),
            IntCC::Ne => ("ne", false),
            IntCC::Slt => ("lt", true),
            IntCC::Sle => ("le", true),
            IntCC::Sgt => ("gt", true),
            IntCC::Sge => ("ge", true),
            IntCC::Ult => ("lt", false),
            IntCC::Ule => ("le", false),
            IntCC::Ugt => ("gt", false),
            IntCC::Uge => ("ge", false),
        };
        if signed {
            let (sa, sb) = (self.signed(a, lane), self.signed(b, lane));
            self.line(format_args!("setp.{op}.s{w} {d}, {sa}, {sb}"));
        } else {
            self.line(format_args!("setp.{op}.u{w} {d}, {a}, {b}"));
        }
        Ok(())
    }

    fn fcmp(&mut self, cc: FloatCC, d: &str, a: &str, b: &str, lane: Type) -> Result<()> {
        let t = float_type(lane)?;
        let op = match cc {
            FloatCC::Ord => "num",
            FloatCC::Uno => "nan",
            FloatCC::Oeq => "eq",
            FloatCC::One => "ne",
            FloatCC::Olt => "lt",
            FloatCC::Ole => "le",
            FloatCC::Ogt => "gt",
            FloatCC::Oge => "ge",
            FloatCC::Ueq => "equ",
            FloatCC::Une => "neu",
            FloatCC::Ult => "ltu",
            FloatCC::Ule => "leu",
            FloatCC::Ugt => "gtu",
            FloatCC::Uge => "geu",
        };
        self.line(format_args!("setp.{op}.{t} {d}, {a}, {b}"));
        Ok(())
    }

    fn select(&mut self, inst: Inst) -> Result<()> {
        let d = self.result(inst)?;
        let (c, a, b) = (self.arg(inst, 0), self.arg(inst, 1), self.arg(inst, 2));
        let class = Class::of(self.ty(d).lane_type());
        // `c && a` and `c || b`, as short-circuit conditions become: one instruction.
        let (a_const, b_const) = (self.f.dfg.iconst_value(a), self.f.dfg.iconst_value(b));
        let (cl, al, bl, dl) = (self.lanes(c), self.lanes(a), self.lanes(b), self.lanes(d));
        for i in 0..dl.len() {
            let c = cl.get(i).unwrap_or(&cl[0]);
            match class {
                Class::Pred if b_const == Some(0) => {
                    self.line(format_args!("and.pred {}, {c}, {}", dl[i], al[i]))
                }
                Class::Pred if a_const == Some(1) => {
                    self.line(format_args!("or.pred {}, {c}, {}", dl[i], bl[i]))
                }
                Class::Pred => {
                    // Through a temporary: the result may not be an operand's register, but
                    // the operands must be read before it is written.
                    let t = self.temp(Class::Pred);
                    self.line(format_args!("@{c} mov.pred {t}, {}", al[i]));
                    self.line(format_args!("@!{c} mov.pred {t}, {}", bl[i]));
                    self.line(format_args!("mov.pred {}, {t}", dl[i]));
                }
                _ => {
                    let t = match class {
                        Class::H => "b16",
                        Class::R => "b32",
                        Class::Rd => "b64",
                        Class::F => "f32",
                        _ => "f64",
                    };
                    self.line(format_args!(
                        "selp.{t} {}, {}, {}, {c}",
                        dl[i], al[i], bl[i]
                    ));
                }
            }
        }
        Ok(())
    }

    fn convert(&mut self, inst: Inst, c: ConvOp) -> Result<()> {
        let d = self.result(inst)?;
        let x = self.arg(inst, 0);
        let (to, from) = (self.ty(d).lane_type(), self.ty(x).lane_type());
        let (dl, xl) = (self.lanes(d), self.lanes(x));
        for (dr, xr) in dl.iter().zip(&xl) {
            self.convert_lane(c, dr, xr, to, from)?;
        }
        Ok(())
    }

    /// An integer lane as a 64-bit register, extended as `signed` says.
    fn widen64(&mut self, x: &str, from: Type, signed: bool) -> String {
        if from.bits() == 64 {
            return x.to_string();
        }
        let t = self.temp(Class::Rd);
        if from == Type::I1 {
            let v = if signed { "-1" } else { "1" };
            self.line(format_args!("selp.b64 {t}, {v}, 0, {x}"));
            return t;
        }
        let s = if signed {
            self.signed(x, from)
        } else {
            x.to_string()
        };
        let k = if signed { "s" } else { "u" };
        self.line(format_args!("cvt.{k}64.{k}32 {t}, {s}"));
        t
    }

    /// A 64-bit value into an integer lane of type `to` (its low bits).
    fn narrow_from64(&mut self, d: &str, v: &str, to: Type) {
        match to.bits() {
            64 => self.line(format_args!("mov.b64 {d}, {v}")),
            1 => {
                let t = self.temp(Class::Rd);
                self.line(format_args!("and.b64 {t}, {v}, 1"));
                self.line(format_args!("setp.ne.u64 {d}, {t}, 0"));
            }
            _ => {
                self.line(format_args!("cvt.u32.u64 {d}, {v}"));
                self.narrow(d, to);
            }
        }
    }

    fn convert_lane(&mut self, c: ConvOp, d: &str, x: &str, to: Type, from: Type) -> Result<()> {
        match c {
            ConvOp::Trunc | ConvOp::Zext | ConvOp::Sext => {
                let signed = c == ConvOp::Sext;
                if to == Type::I1 {
                    let w = Self::int_width(from);
                    let t = self.temp(if w == 64 { Class::Rd } else { Class::R });
                    self.line(format_args!("and.b{w} {t}, {x}, 1"));
                    self.line(format_args!("setp.ne.u{w} {d}, {t}, 0"));
                } else if to.bits() <= 32 && from.bits() <= 32 && from != Type::I1 {
                    let s = if signed {
                        self.signed(x, from)
                    } else {
                        x.to_string()
                    };
                    self.line(format_args!("mov.b32 {d}, {s}"));
                    self.narrow(d, to);
                } else {
                    let v = self.widen64(x, from, signed);
                    self.narrow_from64(d, &v, to);
                }
            }
            ConvOp::SatInt {
                src_signed,
                dst_signed,
            } => {
                let v = self.widen64(x, from, src_signed);
                let t = self.temp(Class::Rd);
                let bits = to.bits();
                let (lo, hi): (i128, i128) = if dst_signed {
                    (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
                } else {
                    (0, (1i128 << bits) - 1)
                };
                if src_signed {
                    self.line(format_args!("max.s64 {t}, {v}, {}", lo as i64));
                    if hi <= i64::MAX as i128 {
                        self.line(format_args!("min.s64 {t}, {t}, {}", hi as i64));
                    }
                } else {
                    self.line(format_args!("min.u64 {t}, {v}, {:#x}", hi as u64));
                }
                self.narrow_from64(d, &t, to);
            }
            ConvOp::Fconv(r) => {
                let (tt, ft) = (float_type_any(to)?, float_type_any(from)?);
                if to.bits() > from.bits() {
                    self.line(format_args!("cvt.{tt}.{ft} {d}, {x}"));
                } else {
                    self.line(format_args!("cvt{}.{tt}.{ft} {d}, {x}", round_float(r)));
                }
            }
            ConvOp::SintToFloat(r) | ConvOp::UintToFloat(r) => {
                let signed = matches!(c, ConvOp::SintToFloat(_));
                let k = if signed { "s" } else { "u" };
                let tt = float_type_any(to)?;
                let (src, w) = if from.bits() == 64 {
                    (x.to_string(), 64)
                } else if from == Type::I1 {
                    (self.widen64(x, from, signed), 64)
                } else if signed {
                    (self.signed(x, from), 32)
                } else {
                    (x.to_string(), 32)
                };
                self.line(format_args!("cvt{}.{tt}.{k}{w} {d}, {src}", round_float(r)));
            }
            ConvOp::FloatToSint { round, .. } | ConvOp::FloatToUint { round, .. } => {
                // PTX's float-to-integer conversions saturate, and give 0 for a NaN: what a
                // saturated conversion must do (6.4.3.3), and one of the values an
                // unsaturated one may give.
                let k = if matches!(c, ConvOp::FloatToSint { .. }) {
                    "s"
                } else {
                    "u"
                };
                let ft = float_type_any(from)?;
                let bits = to.bits();
                if bits == 1 {
                    return Err("a float conversion to a boolean".into());
                }
                self.line(format_args!(
                    "cvt{}.{k}{bits}.{ft} {d}, {x}",
                    round_int(round)
                ));
                self.narrow(d, to);
            }
        }
        Ok(())
    }

    fn bitcast(&mut self, inst: Inst) -> Result<()> {
        let d = self.result(inst)?;
        let x = self.arg(inst, 0);
        let (dt, xt) = (self.ty(d), self.ty(x));
        let (dl, xl) = (self.lanes(d), self.lanes(x));
        let (dc, xc) = (Class::of(dt.lane_type()), Class::of(xt.lane_type()));
        if dt.lanes() == xt.lanes() && dt.lane_bits() == xt.lane_bits() {
            for (dr, xr) in dl.iter().zip(&xl) {
                match (dc, xc, dt.lane_bits()) {
                    (Class::R, Class::H, _) => self.line(format_args!("cvt.u32.u16 {dr}, {xr}")),
                    (Class::H, Class::R, _) => self.line(format_args!("cvt.u16.u32 {dr}, {xr}")),
                    (_, _, 64) => self.line(format_args!("mov.b64 {dr}, {xr}")),
                    (_, _, 16) if dc == Class::H => self.line(format_args!("mov.b16 {dr}, {xr}")),
                    _ => self.line(format_args!("mov.b32 {dr}, {xr}")),
                }
            }
            return Ok(());
        }
        // Lanes of other shapes: through local scratch memory.
        self.scratch = self.scratch.max(dt.bytes().next_multiple_of(16));
        let (xlane, dlane) = (xt.lane_type(), dt.lane_type());
        let (xmt, dmt) = (mem_type(xlane)?, mem_type(dlane)?);
        for (i, xr) in xl.iter().enumerate() {
            let off = i as u32 * xlane.bytes();
            self.line(format_args!("st.local.{xmt} [__scratch+{off}], {xr}"));
        }
        for (i, dr) in dl.iter().enumerate() {
            let off = i as u32 * dlane.bytes();
            self.line(format_args!("ld.local.{dmt} {dr}, [__scratch+{off}]"));
        }
        Ok(())
    }

    fn addr_cast(&mut self, inst: Inst) -> Result<()> {
        let (d, p) = (self.result(inst)?, self.arg(inst, 0));
        let to = self
            .ty(d)
            .addr_space()
            .ok_or("an address cast to a non-pointer")?;
        let from = self
            .ty(p)
            .addr_space()
            .ok_or("an address cast of a non-pointer")?;
        let (dr, pr) = (self.lanes(d)[0].clone(), self.lanes(p)[0].clone());
        let window = |s: AddrSpace| match s {
            AddrSpace::Global | AddrSpace::Constant => "global",
            AddrSpace::Local => "shared",
            AddrSpace::Private => "local",
            AddrSpace::Generic => "",
        };
        match (from, to) {
            (AddrSpace::Generic, AddrSpace::Generic) => {
                self.line(format_args!("mov.b64 {dr}, {pr}"))
            }
            // The global window is the generic one: NULL stays NULL.
            (AddrSpace::Global | AddrSpace::Constant, AddrSpace::Generic) => {
                self.line(format_args!("cvta.global.u64 {dr}, {pr}"))
            }
            (AddrSpace::Generic, s @ (AddrSpace::Global | AddrSpace::Constant)) => {
                self.line(format_args!("cvta.to.{}.u64 {dr}, {pr}", window(s)))
            }
            // The shared and local windows are offsets from a base: a NULL pointer converts to
            // NULL (as C keeps a null pointer null through conversions), not to the base.
            (from, to) if from == AddrSpace::Generic || to == AddrSpace::Generic => {
                let (conv, space) = match to {
                    AddrSpace::Generic => ("cvta", window(from)),
                    _ => ("cvta.to", window(to)),
                };
                let (t, null) = (self.temp(Class::Rd), self.temp(Class::Pred));
                self.line(format_args!("{conv}.{space}.u64 {t}, {pr}"));
                self.line(format_args!("setp.eq.u64 {null}, {pr}, 0"));
                self.line(format_args!("selp.b64 {dr}, 0, {t}, {null}"));
            }
            (a, b) if window(a) == window(b) => self.line(format_args!("mov.b64 {dr}, {pr}")),
            (a, b) => return Err(format!("an address cast from {a} to {b}")),
        }
        Ok(())
    }

    /// Lanes `first..first + n` at `addr + offset`, as one vector access where the alignment
    /// allows.
    fn access_chunks(lanes: usize, lane_bytes: u32, align: u32) -> usize {
        [4usize, 2]
            .into_iter()
            .find(|&c| {
                let bytes = c as u32 * lane_bytes;
                lanes % c == 0 && bytes <= 16 && align >= bytes
            })
            .unwrap_or(1)
    }

    fn load(&mut self, inst: Inst, flags: MemFlags) -> Result<()> {
        let (d, p) = (self.result(inst)?, self.arg(inst, 0));
        self.access(Access::Load, d, p, flags)
    }

    fn store(&mut self, inst: Inst, flags: MemFlags) -> Result<()> {
        let (x, p) = (self.arg(inst, 0), self.arg(inst, 1));
        self.access(Access::Store, x, p, flags)
    }

    /// The lanes of `v` loaded from or stored to `p`: as vectors of up to 16 bytes where the
    /// alignment allows, lane by lane otherwise, in pieces where a lane is misaligned.
    fn access(&mut self, kind: Access, v: Value, p: Value, flags: MemFlags) -> Result<()> {
        let lane = self.ty(v).lane_type();
        let t = mem_type(lane)?;
        let (vl, pr) = (self.lanes(v), self.lanes(p)[0].clone());
        if flags.align < lane.bytes() {
            for (k, r) in vl.iter().enumerate() {
                let at = format!("{pr}+{}", k * lane.bytes() as usize);
                match kind {
                    Access::Load => self.misaligned_load(r, lane, &at, flags),
                    Access::Store => self.misaligned_store(r, lane, &at, flags),
                }
            }
            return Ok(());
        }
        let chunk = Self::access_chunks(vl.len(), lane.bytes(), flags.align);
        let (vol, sp) = (volatile(flags), space_suffix(flags.space));
        for (k, regs) in vl.chunks(chunk).enumerate() {
            let off = k * chunk * lane.bytes() as usize;
            let (v, regs) = match chunk {
                1 => (String::new(), regs[0].clone()),
                n => (format!(".v{n}"), format!("{{{}}}", regs.join(", "))),
            };
            match kind {
                // `__constant` memory does not change while a kernel runs (OpenCL C 6.7.3:
                // "read-only"), so it is read through the non-coherent read-only cache.
                Access::Load if flags.space == AddrSpace::Constant => {
                    self.line(format_args!("ld.global.nc{v}.{t} {regs}, [{pr}+{off}]"))
                }
                Access::Load => self.line(format_args!("ld{vol}{sp}{v}.{t} {regs}, [{pr}+{off}]")),
                Access::Store => self.line(format_args!("st{vol}{sp}{v}.{t} [{pr}+{off}], {regs}")),
            }
        }
        Ok(())
    }

    /// A lane at an address aligned to less than its size (a member of a packed struct):
    /// PTX accesses must be naturally aligned, so it is read in pieces of the alignment and
    /// put together, little end first.
    fn misaligned_load(&mut self, d: &str, lane: Type, at: &str, flags: MemFlags) {
        let (bytes, unit) = (lane.bytes(), flags.align.max(1).min(lane.bytes()));
        let (vol, sp) = (volatile(flags), space_suffix(flags.space));
        let wide = bytes == 8;
        let acc = self.temp(if wide { Class::Rd } else { Class::R });
        let w = if wide { 64 } else { 32 };
        self.line(format_args!("mov.b{w} {acc}, 0"));
        for i in 0..bytes / unit {
            let piece = self.temp(Class::R);
            self.line(format_args!(
                "ld{vol}{sp}.u{} {piece}, [{at}+{}]",
                unit * 8,
                i * unit
            ));
            let piece = if wide {
                let p64 = self.temp(Class::Rd);
                self.line(format_args!("cvt.u64.u32 {p64}, {piece}"));
                p64
            } else {
                piece
            };
            self.line(format_args!("shl.b{w} {piece}, {piece}, {}", i * unit * 8));
            self.line(format_args!("or.b{w} {acc}, {acc}, {piece}"));
        }
        match Class::of(lane) {
            Class::H => self.line(format_args!("cvt.u16.u32 {d}, {acc}")),
            _ => self.line(format_args!("mov.b{w} {d}, {acc}")),
        }
    }

    /// The store of [`Self::misaligned_load`]'s lanes: in pieces of the alignment.
    fn misaligned_store(&mut self, x: &str, lane: Type, at: &str, flags: MemFlags) {
        let (bytes, unit) = (lane.bytes(), flags.align.max(1).min(lane.bytes()));
        let (vol, sp) = (volatile(flags), space_suffix(flags.space));
        let wide = bytes == 8;
        let bits = self.temp(if wide { Class::Rd } else { Class::R });
        let w = if wide { 64 } else { 32 };
        match Class::of(lane) {
            Class::H => self.line(format_args!("cvt.u32.u16 {bits}, {x}")),
            _ => self.line(format_args!("mov.b{w} {bits}, {x}")),
        }
        for i in 0..bytes / unit {
            let shifted = self.temp(if wide { Class::Rd } else { Class::R });
            self.line(format_args!("shr.u{w} {shifted}, {bits}, {}", i * unit * 8));
            let piece = if wide {
                let p = self.temp(Class::R);
                self.line(format_args!("cvt.u32.u64 {p}, {shifted}"));
                p
            } else {
                shifted
            };
            self.line(format_args!(
                "st{vol}{sp}.u{} [{at}+{}], {piece}",
                unit * 8,
                i * unit
            ));
        }
    }

    /// The ordering and scope qualifiers of an atomic operation, after any fence a
    /// sequentially consistent one needs (the PTX memory model's mapping: `fence.sc` before
    /// the access).
    fn atomic_sem(&mut self, info: AtomicInfo, access: &str) -> Result<String> {
        if info.space == AddrSpace::Private {
            return Err("an atomic operation on private memory".into());
        }
        let scope = scope_suffix(info.scope);
        let sem = match (info.order, access) {
            (Ordering::Relaxed, _) => "relaxed",
            (Ordering::SeqCst, _) => {
                self.line(format_args!("fence.sc{scope}"));
                match access {
                    "ld" => "acquire",
                    "st" => "relaxed",
                    _ => "acq_rel",
                }
            }
            (_, "ld") => "acquire",
            (_, "st") => "release",
            (Ordering::Acquire, _) => "acquire",
            (Ordering::Release, _) => "release",
            (Ordering::AcqRel, _) => "acq_rel",
        };
        Ok(format!(".{sem}{scope}{}", space_suffix(info.space)))
    }

    fn atomic_rmw(&mut self, inst: Inst, op: RmwOp, info: AtomicInfo) -> Result<()> {
        let (d, p, x) = (self.result(inst)?, self.arg(inst, 0), self.arg(inst, 1));
        let lane = self.ty(d).lane_type();
        let bits = lane.bits();
        if bits != 32 && bits != 64 {
            return Err(format!("an atomic operation on {lane}"));
        }
        let float = lane.is_float();
        let (dr, pr) = (self.lanes(d)[0].clone(), self.lanes(p)[0].clone());
        let mut xr = self.lanes(x)[0].clone();
        let (name, ty) = match op {
            RmwOp::Xchg => ("exch", format!("b{bits}")),
            RmwOp::Add | RmwOp::Sub if float => ("add", format!("f{bits}")),
            RmwOp::Add | RmwOp::Sub => ("add", format!("u{bits}")),
            RmwOp::And => ("and", format!("b{bits}")),
            RmwOp::Or => ("or", format!("b{bits}")),
            RmwOp::Xor => ("xor", format!("b{bits}")),
            RmwOp::Smin => ("min", format!("s{bits}")),
            RmwOp::Smax => ("max", format!("s{bits}")),
            RmwOp::Umin => ("min", format!("u{bits}")),
            RmwOp::Umax => ("max", format!("u{bits}")),
        };
        if op == RmwOp::Sub {
            let t = self.temp(Class::of(lane));
            match float {
                true => self.line(format_args!("neg.f{bits} {t}, {xr}")),
                false => self.line(format_args!("neg.s{bits} {t}, {xr}")),
            }
            xr = t;
        }
        let sem = self.atomic_sem(info, "rmw")?;
        self.line(format_args!("atom{sem}.{name}.{ty} {dr}, [{pr}], {xr}"));
        Ok(())
    }

    fn cmpxchg(&mut self, inst: Inst, info: AtomicInfo) -> Result<()> {
        let d = self.result(inst)?;
        let (p, e, n) = (self.arg(inst, 0), self.arg(inst, 1), self.arg(inst, 2));
        let bits = self.ty(d).lane_bits();
        if bits != 32 && bits != 64 {
            return Err(format!("a compare-exchange of {}", self.ty(d)));
        }
        let (dr, pr) = (self.lanes(d)[0].clone(), self.lanes(p)[0].clone());
        let (er, nr) = (self.lanes(e)[0].clone(), self.lanes(n)[0].clone());
        let sem = self.atomic_sem(info, "rmw")?;
        self.line(format_args!(
            "atom{sem}.cas.b{bits} {dr}, [{pr}], {er}, {nr}"
        ));
        Ok(())
    }

    fn atomic_load(&mut self, inst: Inst, info: AtomicInfo) -> Result<()> {
        let (d, p) = (self.result(inst)?, self.arg(inst, 0));
        let bits = self.ty(d).lane_bits();
        let (dr, pr) = (self.lanes(d)[0].clone(), self.lanes(p)[0].clone());
        let sem = self.atomic_sem(info, "ld")?;
        self.line(format_args!("ld{sem}.b{bits} {dr}, [{pr}]"));
        Ok(())
    }

    fn atomic_store(&mut self, inst: Inst, info: AtomicInfo) -> Result<()> {
        let (x, p) = (self.arg(inst, 0), self.arg(inst, 1));
        let bits = self.ty(x).lane_bits();
        let (xr, pr) = (self.lanes(x)[0].clone(), self.lanes(p)[0].clone());
        let sem = self.atomic_sem(info, "st")?;
        self.line(format_args!("st{sem}.b{bits} [{pr}], {xr}"));
        Ok(())
    }

    fn fence(&mut self, order: Ordering, scope: Scope) {
        let scope = scope_suffix(scope);
        match order {
            Ordering::Relaxed => {}
            Ordering::SeqCst => self.line(format_args!("fence.sc{scope}")),
            _ => self.line(format_args!("fence.acq_rel{scope}")),
        }
    }

    /// A 64-bit header value of dimension `dim`.
    fn header(&mut self, at: usize, dim: u8) -> String {
        let t = self.temp(Class::Rd);
        let off = at + 8 * dim as usize;
        self.line(format_args!("ld.param.u64 {t}, [__params+{off}]"));
        t
    }

    fn special(&mut self, reg: &str, dim: u8) -> String {
        let t = self.temp(Class::Rd);
        let axis = ["x", "y", "z"][dim as usize];
        let r = self.temp(Class::R);
        self.line(format_args!("mov.u32 {r}, %{reg}.{axis}"));
        self.line(format_args!("cvt.u64.u32 {t}, {r}"));
        t
    }

    fn group_id(&mut self, dim: u8) -> String {
        let base = self.header(header::GROUP_BASE, dim);
        let ctaid = self.special("ctaid", dim);
        self.line(format_args!("add.s64 {base}, {base}, {ctaid}"));
        base
    }

    fn global_id(&mut self, dim: u8) -> String {
        let g = self.group_id(dim);
        let size = self.header(header::ENQUEUED_LOCAL_SIZE, dim);
        let tid = self.special("tid", dim);
        let off = self.header(header::GLOBAL_OFFSET, dim);
        self.line(format_args!("mad.lo.s64 {g}, {g}, {size}, {tid}"));
        self.line(format_args!("add.s64 {g}, {g}, {off}"));
        g
    }

    fn work_item(&mut self, inst: Inst, w: WorkItemOp, dim: u8) -> Result<()> {
        if self.layout.is_none() {
            return Err("a work-item function outside a kernel (after inlining)".into());
        }
        let d = self.result(inst)?;
        let dr = self.lanes(d)[0].clone();
        let dim = dim.min(2);
        let v = match w {
            WorkItemOp::WorkDim => {
                let t = self.temp(Class::R);
                self.line(format_args!(
                    "ld.param.u32 {t}, [__params+{}]",
                    header::WORK_DIM
                ));
                let t64 = self.temp(Class::Rd);
                self.line(format_args!("cvt.u64.u32 {t64}, {t}"));
                t64
            }
            WorkItemOp::GlobalSize => self.header(header::GLOBAL_SIZE, dim),
            WorkItemOp::GlobalId => self.global_id(dim),
            WorkItemOp::LocalSize => self.special("ntid", dim),
            WorkItemOp::EnqueuedLocalSize => self.header(header::ENQUEUED_LOCAL_SIZE, dim),
            WorkItemOp::LocalId => self.special("tid", dim),
            WorkItemOp::NumGroups => self.header(header::NUM_GROUPS, dim),
            WorkItemOp::GroupId => self.group_id(dim),
            WorkItemOp::GlobalOffset => self.header(header::GLOBAL_OFFSET, dim),
            WorkItemOp::GlobalLinearId => {
                // 3.0 C 6.15.1: (gid2 - off2) * gs1 * gs0 + (gid1 - off1) * gs0 + (gid0 - off0).
                let mut acc = self.temp(Class::Rd);
                self.line(format_args!("mov.b64 {acc}, 0"));
                for k in (0..3u8).rev() {
                    let id = self.global_id(k);
                    let off = self.header(header::GLOBAL_OFFSET, k);
                    let size = self.header(header::GLOBAL_SIZE, k);
                    self.line(format_args!("sub.s64 {id}, {id}, {off}"));
                    self.line(format_args!("mad.lo.s64 {id}, {acc}, {size}, {id}"));
                    acc = id;
                }
                acc
            }
            WorkItemOp::LocalLinearId => {
                let mut acc = self.temp(Class::Rd);
                self.line(format_args!("mov.b64 {acc}, 0"));
                for k in (0..3u8).rev() {
                    let id = self.special("tid", k);
                    let size = self.special("ntid", k);
                    self.line(format_args!("mad.lo.s64 {id}, {acc}, {size}, {id}"));
                    acc = id;
                }
                acc
            }
            WorkItemOp::SubGroupSize
            | WorkItemOp::SubGroupId
            | WorkItemOp::SubGroupLocalId
            | WorkItemOp::NumSubGroups => {
                let sg = self.sub_group_of();
                let r = match w {
                    WorkItemOp::SubGroupSize => sg.size,
                    WorkItemOp::SubGroupId => sg.id,
                    WorkItemOp::SubGroupLocalId => sg.lane,
                    _ => {
                        self.line(format_args!("add.u32 {0}, {0}, 31", sg.group_size));
                        self.line(format_args!("shr.u32 {0}, {0}, 5", sg.group_size));
                        sg.group_size
                    }
                };
                let t = self.temp(Class::Rd);
                self.line(format_args!("cvt.u64.u32 {t}, {r}"));
                t
            }
            WorkItemOp::MaxSubGroupSize | WorkItemOp::EnqueuedNumSubGroups => {
                // From the enqueued local size: the largest sub-group any work-group has.
                let n = self.header(header::ENQUEUED_LOCAL_SIZE, 0);
                for k in 1..3 {
                    let s = self.header(header::ENQUEUED_LOCAL_SIZE, k);
                    self.line(format_args!("mul.lo.s64 {n}, {n}, {s}"));
                }
                match w {
                    WorkItemOp::MaxSubGroupSize => {
                        self.line(format_args!("min.u64 {n}, {n}, {SUB_GROUP}"))
                    }
                    _ => {
                        self.line(format_args!("add.s64 {n}, {n}, {}", SUB_GROUP - 1));
                        self.line(format_args!("shr.u64 {n}, {n}, 5"));
                    }
                }
                n
            }
        };
        match self.ty(d).bits() {
            64 => self.line(format_args!("mov.b64 {dr}, {v}")),
            _ => self.line(format_args!("cvt.u32.u64 {dr}, {v}")),
        }
        Ok(())
    }

    /// `printf` (6.15.14): the call appends a record to the launch's printf buffer (its
    /// address in the header): the format's address, the argument bytes' count, the bytes of
    /// the argument block lowering built in a stack slot. The buffer starts with the bytes
    /// used (claimed with an atomic add) and the bytes it has for records; a call that does
    /// not fit writes nothing and returns -1. The host formats the records when the launch
    /// completes (`crate::CudaKernel::print`).
    fn printf(&mut self, inst: Inst) -> Result<()> {
        let (fmt, args) = (self.arg(inst, 0), self.arg(inst, 1));
        let slot = match self.f.dfg.value_def(args) {
            ferrocl_ir::ValueDef::Result(i) => match self.f.dfg.insts[i].op {
                Op::SlotAddr(slot) => Some(slot),
                _ => None,
            },
            _ => None,
        }
        .ok_or("printf's arguments outside a stack slot of their own")?;
        let data = self.f.slots[slot];
        let size = data.size as u64;
        let record = 16 + size.next_multiple_of(8);
        let (fr, ar) = (self.lanes(fmt)[0].clone(), self.lanes(args)[0].clone());
        let (buf, off, end, cap) = (
            self.temp(Class::Rd),
            self.temp(Class::Rd),
            self.temp(Class::Rd),
            self.temp(Class::Rd),
        );
        let p = self.temp(Class::Pred);
        let (full, done) = (self.label(), self.label());
        let result = self.f.dfg.inst_result(inst);
        self.line(format_args!(
            "ld.param.u64 {buf}, [__params+{}]",
            header::PRINTF_BUFFER
        ));
        self.line(format_args!("atom.global.add.u64 {off}, [{buf}], {record}"));
        self.line(format_args!("add.s64 {end}, {off}, {record}"));
        self.line(format_args!("ld.global.u64 {cap}, [{buf}+8]"));
        self.line(format_args!("setp.gt.u64 {p}, {end}, {cap}"));
        self.line(format_args!("@{p} bra {full}"));
        self.line(format_args!("add.s64 {off}, {off}, {buf}"));
        self.line(format_args!("st.global.u64 [{off}+16], {fr}"));
        self.line(format_args!("mov.b64 {end}, {size}"));
        self.line(format_args!("st.global.u64 [{off}+24], {end}"));
        let (step, ty) = if size % 4 == 0 && data.align >= 4 {
            (4, "b32")
        } else {
            (1, "u8")
        };
        let t = self.temp(Class::R);
        for k in (0..size).step_by(step) {
            self.line(format_args!("ld.local.{ty} {t}, [{ar}+{k}]"));
            self.line(format_args!("st.global.{ty} [{off}+{}], {t}", 32 + k));
        }
        let r = result.map(|r| self.lanes(r)[0].clone());
        if let Some(r) = &r {
            self.line(format_args!("mov.b32 {r}, 0"));
        }
        self.line(format_args!("bra.uni {done}"));
        let _ = writeln!(self.body, "{full}:");
        if let Some(r) = &r {
            self.line(format_args!("mov.b32 {r}, -1"));
        }
        let _ = writeln!(self.body, "{done}:");
        Ok(())
    }

    /// A work-group collective (6.15.16): every work-item writes its operand to its slot of
    /// the group's scratch ([`GROUP_SCRATCH`], 8 bytes per work-item), and after a barrier
    /// reads the slot it needs or combines the slots in linear local id order, so that every
    /// work-item of the group computes the same combination in the same order. A barrier
    /// after it frees the scratch for the next collective.
    fn group(&mut self, inst: Inst, g: GroupOp, scope: Scope) -> Result<()> {
        if scope == Scope::SubGroup {
            return self.sub_group(inst, g);
        }
        let (d, x) = (self.result(inst)?, self.arg(inst, 0));
        let lane = self.ty(x).lane_type();
        let mt = mem_type(lane)?;
        let class = Class::of(lane);
        let (dr, xr) = (self.lanes(d)[0].clone(), self.lanes(x)[0].clone());
        let (lid, n) = self.linear_local();
        let t = self.temp(Class::R);
        let (base, at) = (self.temp(Class::Rd), self.temp(Class::Rd));
        self.line(format_args!("mov.u64 {base}, {GROUP_SCRATCH}"));
        self.line(format_args!("mul.wide.u32 {at}, {lid}, 8"));
        self.line(format_args!("add.s64 {at}, {base}, {at}"));
        self.line(format_args!("bar.sync 0"));
        self.line(format_args!("st.shared.{mt} [{at}], {xr}"));
        self.line(format_args!("bar.sync 0"));
        match g {
            GroupOp::Broadcast => {
                let id = self.arg(inst, 1);
                let ir = self.lanes(id)[0].clone();
                self.line(format_args!("mad.lo.s64 {at}, {ir}, 8, {base}"));
                self.line(format_args!("ld.shared.{mt} {dr}, [{at}]"));
            }
            GroupOp::Reduce(b) | GroupOp::ScanInclusive(b) | GroupOp::ScanExclusive(b) => {
                let identity = b
                    .identity(lane.bits())
                    .ok_or_else(|| format!("a work-group {} by {}", g.name(), b.name()))?;
                let acc = self.temp(class);
                self.constant(&acc, lane, identity);
                let end = match g {
                    GroupOp::Reduce(_) => n.clone(),
                    GroupOp::ScanInclusive(_) => {
                        self.line(format_args!("add.u32 {t}, {lid}, 1"));
                        t.clone()
                    }
                    _ => lid.clone(),
                };
                let (i, v, p) = (
                    self.temp(Class::R),
                    self.temp(class),
                    self.temp(Class::Pred),
                );
                let (top, done) = (self.label(), self.label());
                self.line(format_args!("mov.u32 {i}, 0"));
                let _ = writeln!(self.body, "{top}:");
                self.line(format_args!("setp.ge.u32 {p}, {i}, {end}"));
                self.line(format_args!("@{p} bra {done}"));
                self.line(format_args!("mul.wide.u32 {at}, {i}, 8"));
                self.line(format_args!("add.s64 {at}, {base}, {at}"));
                self.line(format_args!("ld.shared.{mt} {v}, [{at}]"));
                self.binary(b, &acc, &acc, &v, lane)?;
                self.line(format_args!("add.u32 {i}, {i}, 1"));
                self.line(format_args!("bra.uni {top}"));
                let _ = writeln!(self.body, "{done}:");
                self.line(format_args!("{} {dr}, {acc}", class.mov()));
            }
        }
        self.line(format_args!("bar.sync 0"));
        Ok(())
    }

    /// The work-item's linear local id and the work-group's size, in 32-bit registers.
    fn linear_local(&mut self) -> (String, String) {
        let (lid, n, t) = (
            self.temp(Class::R),
            self.temp(Class::R),
            self.temp(Class::R),
        );
        self.line(format_args!("mov.u32 {lid}, %tid.z"));
        self.line(format_args!("mov.u32 {t}, %ntid.y"));
        self.line(format_args!("mov.u32 {n}, %tid.y"));
        self.line(format_args!("mad.lo.u32 {lid}, {lid}, {t}, {n}"));
        self.line(format_args!("mov.u32 {t}, %ntid.x"));
        self.line(format_args!("mov.u32 {n}, %tid.x"));
        self.line(format_args!("mad.lo.u32 {lid}, {lid}, {t}, {n}"));
        self.line(format_args!("mov.u32 {n}, %ntid.y"));
        self.line(format_args!("mul.lo.u32 {n}, {n}, {t}"));
        self.line(format_args!("mov.u32 {t}, %ntid.z"));
        self.line(format_args!("mul.lo.u32 {n}, {n}, {t}"));
        (lid, n)
    }

    /// The work-item's sub-group: its lane, its id, the sub-group's size and the mask of its
    /// lanes. Sub-groups are the warps: 32 work-items in linear local id order (CUDA forms
    /// warps from consecutive linear thread ids, x fastest), the last one of a group whose
    /// size is not a multiple of 32 smaller.
    fn sub_group_of(&mut self) -> SubGroup {
        let (lid, n) = self.linear_local();
        let (lane, id, size, mask) = (
            self.temp(Class::R),
            self.temp(Class::R),
            self.temp(Class::R),
            self.temp(Class::R),
        );
        self.line(format_args!("and.b32 {lane}, {lid}, 31"));
        self.line(format_args!("shr.u32 {id}, {lid}, 5"));
        self.line(format_args!("shl.b32 {size}, {id}, 5"));
        self.line(format_args!("sub.u32 {size}, {n}, {size}"));
        self.line(format_args!("min.u32 {size}, {size}, {SUB_GROUP}"));
        // A shift by 32 gives 0 in PTX: the full mask for a full warp.
        let one = self.temp(Class::R);
        self.line(format_args!("mov.u32 {one}, 1"));
        self.line(format_args!("shl.b32 {mask}, {one}, {size}"));
        self.line(format_args!("sub.u32 {mask}, {mask}, 1"));
        SubGroup {
            lane,
            id,
            size,
            mask,
            group_size: n,
        }
    }

    /// A sub-group collective over the warp's lanes by shuffles: a broadcast reads the lane
    /// named; a reduction or scan reads every lane of the sub-group in order (a loop every
    /// lane runs alike, as `shfl.sync` needs) and combines those its operation takes.
    fn sub_group(&mut self, inst: Inst, g: GroupOp) -> Result<()> {
        let (d, x) = (self.result(inst)?, self.arg(inst, 0));
        let lane_ty = self.ty(x).lane_type();
        let class = Class::of(lane_ty);
        let (dr, xr) = (self.lanes(d)[0].clone(), self.lanes(x)[0].clone());
        let sg = self.sub_group_of();
        match g {
            GroupOp::Broadcast => {
                let id = self.arg(inst, 1);
                let ir = self.lanes(id)[0].clone();
                let src = self.temp(Class::R);
                match self.ty(id).bits() {
                    64 => self.line(format_args!("cvt.u32.u64 {src}, {ir}")),
                    _ => self.line(format_args!("mov.b32 {src}, {ir}")),
                }
                self.shuffle(&dr, &xr, class, &src, &sg.mask);
            }
            GroupOp::Reduce(b) | GroupOp::ScanInclusive(b) | GroupOp::ScanExclusive(b) => {
                let identity = b
                    .identity(lane_ty.bits())
                    .ok_or_else(|| format!("a sub-group {} by {}", g.name(), b.name()))?;
                let (acc, v, next) = (self.temp(class), self.temp(class), self.temp(class));
                self.constant(&acc, lane_ty, identity);
                let (j, p, take) = (
                    self.temp(Class::R),
                    self.temp(Class::Pred),
                    self.temp(Class::Pred),
                );
                let (top, done) = (self.label(), self.label());
                self.line(format_args!("mov.u32 {j}, 0"));
                let _ = writeln!(self.body, "{top}:");
                self.line(format_args!("setp.ge.u32 {p}, {j}, {}", sg.size));
                self.line(format_args!("@{p} bra {done}"));
                self.shuffle(&v, &xr, class, &j, &sg.mask);
                self.binary(b, &next, &acc, &v, lane_ty)?;
                match g {
                    GroupOp::Reduce(_) => self.line(format_args!("{} {acc}, {next}", class.mov())),
                    _ => {
                        let cmp = if matches!(g, GroupOp::ScanInclusive(_)) {
                            "le"
                        } else {
                            "lt"
                        };
                        self.line(format_args!("setp.{cmp}.u32 {take}, {j}, {}", sg.lane));
                        self.line(format_args!("@{take} {} {acc}, {next}", class.mov()));
                    }
                }
                self.line(format_args!("add.u32 {j}, {j}, 1"));
                self.line(format_args!("bra {top}"));
                let _ = writeln!(self.body, "{done}:");
                self.line(format_args!("{} {dr}, {acc}", class.mov()));
            }
        }
        Ok(())
    }

    /// `d` = lane `src` of `x` across the sub-group `mask`, in 32-bit pieces.
    fn shuffle(&mut self, d: &str, x: &str, class: Class, src: &str, mask: &str) {
        match class {
            Class::Rd | Class::Fd => {
                let (lo, hi) = (self.temp(Class::R), self.temp(Class::R));
                self.line(format_args!("mov.b64 {{{lo}, {hi}}}, {x}"));
                self.line(format_args!(
                    "shfl.sync.idx.b32 {lo}, {lo}, {src}, 31, {mask}"
                ));
                self.line(format_args!(
                    "shfl.sync.idx.b32 {hi}, {hi}, {src}, 31, {mask}"
                ));
                self.line(format_args!("mov.b64 {d}, {{{lo}, {hi}}}"));
            }
            _ => {
                let t = self.temp(Class::R);
                match class {
                    Class::H => self.line(format_args!("cvt.u32.u16 {t}, {x}")),
                    _ => self.line(format_args!("mov.b32 {t}, {x}")),
                }
                self.line(format_args!(
                    "shfl.sync.idx.b32 {t}, {t}, {src}, 31, {mask}"
                ));
                match class {
                    Class::H => self.line(format_args!("cvt.u16.u32 {d}, {t}")),
                    _ => self.line(format_args!("mov.b32 {d}, {t}")),
                }
            }
        }
    }

    /// The address-space queries of OpenCL C 6.15.10 on a generic pointer: `isspacep` tells
    /// the window the address lies in. `to_global`, `to_local` and `to_private` give the
    /// pointer, converted to the named space's address, or NULL ("Returns a pointer that
    /// points to a region in the global address space if to_global can cast ptr to the
    /// global address space. Otherwise it returns NULL."); `get_fence` gives
    /// `CLK_LOCAL_MEM_FENCE` (1) for a local address, `CLK_GLOBAL_MEM_FENCE` (2) otherwise.
    fn address_space_query(&mut self, inst: Inst, name: &str) -> Result<()> {
        let d = self.result(inst)?;
        let a = self.arg(inst, 0);
        let p = self.lanes(a)[0].clone();
        let dr = self.lanes(d)[0].clone();
        let window = match name {
            "to_global" => "global",
            "to_private" => "local",
            _ => "shared",
        };
        let inside = self.temp(Class::Pred);
        self.line(format_args!("isspacep.{window} {inside}, {p}"));
        if name == "get_fence" {
            self.line(format_args!("selp.b32 {dr}, 1, 2, {inside}"));
            return Ok(());
        }
        // The result is in the named space's addressing where the IR says so.
        let named = self.temp(Class::Rd);
        match self.ty(d).addr_space() {
            Some(AddrSpace::Generic) | None => self.line(format_args!("mov.b64 {named}, {p}")),
            Some(_) => self.line(format_args!("cvta.to.{window}.u64 {named}, {p}")),
        }
        self.line(format_args!("selp.b64 {dr}, {named}, 0, {inside}"));
        Ok(())
    }

    fn call(&mut self, inst: Inst, callee: ferrocl_ir::Func) -> Result<()> {
        let target = &self.module.funcs[callee];
        if target.is_declaration() {
            return match target.name.as_str() {
                "printf" if target.sig.params.len() == 2 => self.printf(inst),
                "to_global" | "to_local" | "to_private" | "get_fence"
                    if target.sig.params.len() == 1 =>
                {
                    self.address_space_query(inst, &target.name.clone())
                }
                name => Err(format!("a call to {name}, which is not defined")),
            };
        }
        let name = self.names[callee.as_u32() as usize].clone();
        let args = self.f.dfg.insts[inst].args.clone();
        self.body.push_str("\t{\n");
        let mut params = Vec::new();
        for (i, &a) in args.iter().enumerate() {
            let ty = self.ty(a);
            let class = Class::of(ty.lane_type());
            let p = format!("__c{i}");
            let _ = writeln!(
                self.body,
                "\t.param .align 16 .b8 {p}[{}];",
                class.param_bytes() * ty.lanes() as usize
            );
            let regs = self.lanes(a);
            self.store_param_lanes(&regs, class, &p);
            params.push(p);
        }
        let result = self.f.dfg.inst_result(inst);
        let list = if params.is_empty() {
            String::new()
        } else {
            format!(", ({})", params.join(", "))
        };
        match (result, target.sig.ret) {
            (Some(r), Some(ret)) => {
                let class = Class::of(ret.lane_type());
                let _ = writeln!(
                    self.body,
                    "\t.param .align 16 .b8 __cr[{}];",
                    class.param_bytes() * ret.lanes() as usize
                );
                self.line(format_args!("call.uni (__cr), {name}{list}"));
                let regs = self.lanes(r);
                self.load_param_lanes(&regs, class, "__cr");
            }
            _ => {
                if let Some(ret) = target.sig.ret {
                    let class = Class::of(ret.lane_type());
                    let _ = writeln!(
                        self.body,
                        "\t.param .align 16 .b8 __cr[{}];",
                        class.param_bytes() * ret.lanes() as usize
                    );
                    self.line(format_args!("call.uni (__cr), {name}{list}"));
                } else {
                    self.line(format_args!("call.uni {name}{list}"));
                }
            }
        }
        self.body.push_str("\t}\n");
        Ok(())
    }

    /// Copies a branch's arguments into its target's parameters, through temporaries (the
    /// copies are parallel: an argument may be another parameter of the target).
    fn branch_args(&mut self, dest: &Dest) {
        let params = self.f.dfg.block_params(dest.block).to_vec();
        let mut pending = Vec::new();
        for (&p, &a) in params.iter().zip(&dest.args) {
            let class = Class::of(self.ty(p).lane_type());
            for (pr, ar) in self.lanes(p).into_iter().zip(self.lanes(a)) {
                if pr != ar {
                    let t = self.temp(class);
                    self.line(format_args!("{} {t}, {ar}", class.mov()));
                    pending.push((class, pr, t));
                }
            }
        }
        for (class, pr, t) in pending {
            self.line(format_args!("{} {pr}, {t}", class.mov()));
        }
    }

    fn switch(&mut self, inst: Inst, table: &ferrocl_ir::SwitchTable) -> Result<()> {
        let x = self.arg(inst, 0);
        let lane = self.ty(x);
        let xr = self.lanes(x)[0].clone();
        let w = Self::int_width(lane);
        let p = self.temp(Class::Pred);
        let mut stubs = Vec::new();
        for (value, dest) in &table.cases {
            let stub = self.label();
            self.line(format_args!("setp.eq.u{w} {p}, {xr}, {value:#x}"));
            self.line(format_args!("@{p} bra {stub}"));
            stubs.push((stub, dest.clone()));
        }
        self.branch_args(&table.default);
        self.line(format_args!("bra.uni $L{}", table.default.block.as_u32()));
        for (stub, dest) in stubs {
            let _ = writeln!(self.body, "{stub}:");
            self.branch_args(&dest);
            self.line(format_args!("bra.uni $L{}", dest.block.as_u32()));
        }
        Ok(())
    }

    fn ret(&mut self, inst: Inst) {
        if self.layout.is_none() {
            if let Some(&v) = self.f.dfg.insts[inst].args.first() {
                let class = Class::of(self.ty(v).lane_type());
                let regs = self.lanes(v);
                self.store_param_lanes(&regs, class, "__ret");
            }
        }
        self.line(format_args!("ret"));
    }
}

fn float_type(lane: Type) -> Result<&'static str> {
    match lane {
        Type::F32 => Ok("f32"),
        Type::F64 => Ok("f64"),
        Type::F16 => Err("half arithmetic (cl_khr_fp16) is not supported by this device".into()),
        t => Err(format!("a float operation on {t}")),
    }
}

/// The float type of a conversion, `f16` included.
fn float_type_any(lane: Type) -> Result<&'static str> {
    match lane {
        Type::F16 => Ok("f16"),
        t => float_type(t),
    }
}
