//! A reference interpreter for the IR: it runs one work-item of a kernel (or any function)
//! against a byte-addressed memory, with the semantics the crate documentation states. It is
//! slow and simple on purpose: tests use it to check that passes keep results and that the
//! front end lowers OpenCL C as the specification says.
//!
//! Values are lists of lanes, each lane's bits zero-extended into a `u64`. A pointer is
//! `(region + 1) << 32 | offset`, so the null pointer is 0 and every buffer, stack slot and
//! global is its own region; accesses outside a region trap. Where the specification leaves
//! a result unspecified (integer division by zero, out-of-range float-to-integer conversion)
//! the interpreter gives a fixed value, and `undef` reads as zero.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::entity::{Block, Func, Global, Value};
use crate::eval::{self, binary, convert, mask, sext, unary};
use crate::float;
use crate::function::Function;
use crate::inst::*;
use crate::module::Module;
use crate::types::{AddrSpace, Type};

/// A value: its lanes' bits (one lane for scalars and pointers).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Val(pub Vec<u64>);

impl Val {
    /// A scalar from its bits.
    pub fn scalar(bits: u64) -> Val {
        Val(vec![bits])
    }
    /// An `i32` scalar.
    pub fn i32(x: i32) -> Val {
        Val::scalar(u64::from(x as u32))
    }
    /// An `f32` scalar.
    pub fn f32(x: f32) -> Val {
        Val::scalar(u64::from(x.to_bits()))
    }
    /// The first lane.
    pub fn bits(&self) -> u64 {
        self.0.first().copied().unwrap_or(0)
    }
}

/// Why execution stopped abnormally.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Trap {
    /// A load, store or atomic outside any region or past its end.
    OutOfBounds(u64),
    /// A call to a function without a body.
    Undefined(String),
    /// `unreachable` was executed.
    Unreachable,
    /// The instruction budget ran out.
    OutOfFuel,
    /// The IR broke its contract (the interpreter expects verified IR).
    Invalid(String),
    /// Some work-items of a work-group reached a barrier that others never reached
    /// (6.15.8: "the barrier must be encountered by all work-items in the work-group").
    BarrierDivergence,
    /// Another work-item of the work-group trapped while this one waited at a barrier.
    Aborted,
}

impl fmt::Display for Trap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Trap::OutOfBounds(p) => write!(f, "memory access out of bounds at {p:#x}"),
            Trap::Undefined(n) => write!(f, "call to @{n}, which has no body"),
            Trap::Unreachable => write!(f, "unreachable executed"),
            Trap::OutOfFuel => write!(f, "instruction budget exhausted"),
            Trap::Invalid(m) => write!(f, "invalid IR: {m}"),
            Trap::BarrierDivergence => write!(
                f,
                "a barrier was not reached by every work-item of the group"
            ),
            Trap::Aborted => write!(f, "aborted: another work-item of the group trapped"),
        }
    }
}

/// The work-item's place in the NDRange (OpenCL C 6.15.1).
#[derive(Clone, Debug)]
pub struct WorkItem {
    /// get_work_dim.
    pub work_dim: u32,
    /// get_global_id.
    pub global_id: [u64; 3],
    /// get_local_id.
    pub local_id: [u64; 3],
    /// get_group_id.
    pub group_id: [u64; 3],
    /// get_global_size.
    pub global_size: [u64; 3],
    /// get_local_size: the size of this work-item's group, smaller than the enqueued one in
    /// the last group of a dimension the local size does not divide (non-uniform work-groups).
    pub local_size: [u64; 3],
    /// get_enqueued_local_size: the local size the NDRange was enqueued with.
    pub enqueued_local_size: [u64; 3],
    /// get_num_groups.
    pub num_groups: [u64; 3],
    /// get_global_offset.
    pub global_offset: [u64; 3],
    /// The device's sub-group size: sub-group k of a work-group is the work-items whose
    /// linear local id is in [k * size, k * size + size).
    pub sub_group_size: u64,
}

impl WorkItem {
    fn local_linear_id(&self) -> u64 {
        (self.local_id[2] * self.local_size[1] + self.local_id[1]) * self.local_size[0]
            + self.local_id[0]
    }

    fn group_items(&self) -> u64 {
        self.local_size[0] * self.local_size[1] * self.local_size[2]
    }

    /// The linear local ids [start, end) of this work-item's sub-group.
    fn sub_group(&self) -> (u64, u64) {
        let s = self.sub_group_size.max(1);
        let start = self.local_linear_id() / s * s;
        (start, (start + s).min(self.group_items()))
    }
}

impl Default for WorkItem {
    fn default() -> Self {
        WorkItem {
            work_dim: 1,
            global_id: [0; 3],
            local_id: [0; 3],
            group_id: [0; 3],
            global_size: [1; 3],
            local_size: [1; 3],
            enqueued_local_size: [1; 3],
            num_groups: [1; 3],
            global_offset: [0; 3],
            sub_group_size: 1,
        }
    }
}

/// A scalar that buffers hold, with its little-endian byte form.
pub trait Scalar: Copy {
    /// The size in bytes.
    const SIZE: usize;
    /// Appends the little-endian bytes of `self`.
    fn put(self, out: &mut Vec<u8>);
    /// Reads a value from `SIZE` little-endian bytes.
    fn get(bytes: &[u8]) -> Self;
}

macro_rules! scalar {
    ($($t:ty),*) => {$(
        impl Scalar for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn get(bytes: &[u8]) -> Self {
                let mut b = [0u8; std::mem::size_of::<$t>()];
                b.copy_from_slice(&bytes[..Self::SIZE]);
                <$t>::from_le_bytes(b)
            }
        }
    )*};
}

scalar!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

/// The memory regions: buffers, globals, stack slots.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    /// Each region's bytes.
    pub regions: Vec<Vec<u8>>,
}

impl Memory {
    /// Adds a region and returns a pointer to its first byte.
    pub fn alloc(&mut self, bytes: Vec<u8>) -> u64 {
        self.regions.push(bytes);
        (self.regions.len() as u64) << 32
    }

    /// Adds a region holding `values` and returns a pointer to the first.
    pub fn alloc_from<T: Scalar>(&mut self, values: &[T]) -> u64 {
        let mut bytes = Vec::with_capacity(values.len() * T::SIZE);
        for &v in values {
            v.put(&mut bytes);
        }
        self.alloc(bytes)
    }

    /// The values of type `T` filling the region `p` points into, from `p` on.
    pub fn read_as<T: Scalar>(&self, p: u64) -> Vec<T> {
        let off = (p & 0xffff_ffff) as usize;
        match self.region(p) {
            Some(r) if off <= r.len() => r[off..].chunks_exact(T::SIZE).map(T::get).collect(),
            _ => Vec::new(),
        }
    }

    /// The bytes of the region `p` points into.
    pub fn region(&self, p: u64) -> Option<&[u8]> {
        let r = (p >> 32).checked_sub(1)?;
        self.regions.get(r as usize).map(Vec::as_slice)
    }

    fn range(&self, p: u64, n: usize) -> Result<(usize, usize), Trap> {
        let r = (p >> 32).checked_sub(1).ok_or(Trap::OutOfBounds(p))? as usize;
        let off = (p & 0xffff_ffff) as usize;
        match self.regions.get(r) {
            Some(reg) if off + n <= reg.len() => Ok((r, off)),
            _ => Err(Trap::OutOfBounds(p)),
        }
    }

    /// Reads `n` bytes at `p`.
    pub fn read(&self, p: u64, n: usize) -> Result<&[u8], Trap> {
        let (r, off) = self.range(p, n)?;
        Ok(&self.regions[r][off..off + n])
    }

    /// Writes `bytes` at `p`.
    pub fn write(&mut self, p: u64, bytes: &[u8]) -> Result<(), Trap> {
        let (r, off) = self.range(p, bytes.len())?;
        self.regions[r][off..off + bytes.len()].copy_from_slice(bytes);
        Ok(())
    }
}

/// A work-group barrier that knows when it can never be passed: when a work-item traps, or
/// finishes while others wait. A sub-group's barrier is one of its own work-items, which
/// cannot tell a member waiting at the work-group barrier from one still running: it gives up
/// after `patience` without progress (only a program whose sub-group functions some
/// work-items of a sub-group skip waits that long).
struct GroupBarrier {
    state: Mutex<BarrierState>,
    cv: Condvar,
    total: usize,
    patience: Option<Duration>,
    /// The operands of a work-group collective, by linear local id.
    exchange: Mutex<Vec<u64>>,
}

struct BarrierState {
    waiting: usize,
    finished: usize,
    generation: u64,
    failed: Option<Trap>,
}

impl GroupBarrier {
    fn new(total: usize) -> GroupBarrier {
        GroupBarrier {
            state: Mutex::new(BarrierState {
                waiting: 0,
                finished: 0,
                generation: 0,
                failed: None,
            }),
            cv: Condvar::new(),
            total,
            patience: None,
            exchange: Mutex::new(vec![0; total]),
        }
    }

    /// The barrier of a sub-group of `total` work-items.
    fn sub_group(total: usize) -> GroupBarrier {
        GroupBarrier {
            patience: Some(Duration::from_secs(10)),
            ..GroupBarrier::new(total)
        }
    }

    fn lock(&self) -> MutexGuard<'_, BarrierState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn wait(&self) -> Result<(), Trap> {
        let mut s = self.lock();
        if let Some(t) = &s.failed {
            return Err(t.clone());
        }
        s.waiting += 1;
        if s.waiting == self.total {
            s.waiting = 0;
            s.generation += 1;
            self.cv.notify_all();
            return Ok(());
        }
        if s.waiting + s.finished == self.total {
            s.failed = Some(Trap::BarrierDivergence);
            self.cv.notify_all();
            return Err(Trap::BarrierDivergence);
        }
        let gen = s.generation;
        let deadline = self.patience.map(|p| Instant::now() + p);
        while s.generation == gen && s.failed.is_none() {
            s = match deadline {
                None => self.cv.wait(s).unwrap_or_else(|e| e.into_inner()),
                Some(d) => {
                    let left = d.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        s.failed = Some(Trap::BarrierDivergence);
                        self.cv.notify_all();
                        break;
                    }
                    self.cv
                        .wait_timeout(s, left)
                        .unwrap_or_else(|e| e.into_inner())
                        .0
                }
            };
        }
        match &s.failed {
            Some(t) if s.generation == gen => Err(t.clone()),
            _ => Ok(()),
        }
    }

    fn finish(&self, trap: Option<Trap>) {
        let mut s = self.lock();
        s.finished += 1;
        if let Some(t) = trap {
            s.failed.get_or_insert(t);
        }
        if s.waiting > 0 && s.waiting + s.finished == self.total {
            s.failed.get_or_insert(Trap::BarrierDivergence);
        }
        self.cv.notify_all();
    }
}

/// Runs functions of one module.
pub struct Interpreter<'m> {
    module: &'m Module,
    memory: Arc<Mutex<Memory>>,
    barrier: Option<Arc<GroupBarrier>>,
    /// The barrier of the work-item's sub-group, which its sub-group barriers and functions
    /// wait at (6.15.19: they need be encountered only by the work-items of the sub-group);
    /// without it they wait at the work-group's.
    sub_barrier: Option<Arc<GroupBarrier>>,
    /// The work-item executing.
    pub work_item: WorkItem,
    /// Instructions left before `OutOfFuel`.
    pub fuel: u64,
    globals: HashMap<Global, u64>,
    depth: u32,
    /// When set, every value the called function (not its callees) defines is appended, in
    /// execution order.
    pub trace: Option<Vec<(Value, Val)>>,
    /// Loads from `__local` or `__private` memory outside every allocation give zeros instead
    /// of trapping: a W-wide function ([`run_ndrange_chunks`]) loads such addresses for lanes
    /// that are masked off, which the CPU device confines to the group's own memory, and never
    /// uses the values.
    pub lenient_private_loads: bool,
}

/// Writes the addresses the globals' relocations name into the globals allocated at
/// `globals`.
fn relocate(module: &Module, globals: &HashMap<Global, u64>, memory: &mut Memory) {
    for (g, data) in module.globals.iter() {
        let Some(&at) = globals.get(&g) else {
            continue;
        };
        for r in &data.relocs {
            let Some(&target) = globals.get(&r.target) else {
                continue;
            };
            let address = target.wrapping_add(r.addend as u64);
            // The verifier keeps the pointer inside the global; a module that skipped it
            // leaves the bytes as they are.
            let _ = memory.write(at + u64::from(r.offset), &address.to_le_bytes());
        }
    }
}

impl<'m> Interpreter<'m> {
    /// An interpreter with the module's globals allocated (initialized or zeroed).
    pub fn new(module: &'m Module) -> Self {
        let mut memory = Memory::default();
        let mut globals = HashMap::new();
        for (g, data) in module.globals.iter() {
            let bytes = data
                .init
                .clone()
                .unwrap_or_else(|| vec![0; data.size as usize]);
            globals.insert(g, memory.alloc(bytes));
        }
        relocate(module, &globals, &mut memory);
        Interpreter {
            module,
            memory: Arc::new(Mutex::new(memory)),
            barrier: None,
            sub_barrier: None,
            work_item: WorkItem::default(),
            fuel: 10_000_000,
            globals,
            depth: 0,
            trace: None,
            lenient_private_loads: false,
        }
    }

    /// All memory (locked while the guard lives).
    pub fn memory(&self) -> MutexGuard<'_, Memory> {
        self.memory.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The address of a global.
    pub fn global_addr(&self, g: Global) -> u64 {
        self.globals[&g]
    }

    /// Calls `func` with `args`; returns its result.
    pub fn call(&mut self, func: Func, args: &[Val]) -> Result<Option<Val>, Trap> {
        let f = self
            .module
            .funcs
            .get(func)
            .ok_or_else(|| Trap::Invalid(format!("no function {func}")))?;
        if f.is_declaration() {
            return Err(Trap::Undefined(f.name.clone()));
        }
        if self.depth > 256 {
            return Err(Trap::Invalid("call depth exceeds 256".into()));
        }
        self.depth += 1;
        let r = self.run(f, args);
        self.depth -= 1;
        r
    }

    fn run(&mut self, f: &'m Function, args: &[Val]) -> Result<Option<Val>, Trap> {
        let mut env: Vec<Option<Val>> = vec![None; f.dfg.values.len()];
        let slots: Vec<u64> = f
            .slots
            .values()
            .map(|s| self.memory().alloc(vec![0; s.size as usize]))
            .collect();
        let mut block = f
            .layout
            .entry_block()
            .ok_or_else(|| Trap::Invalid("no body".into()))?;
        let mut incoming: Vec<Val> = args.to_vec();
        loop {
            let params = f.dfg.block_params(block);
            if params.len() != incoming.len() {
                return Err(Trap::Invalid(format!(
                    "{block} takes {} arguments",
                    params.len()
                )));
            }
            for (&p, v) in params.iter().zip(incoming.drain(..)) {
                if self.depth == 1 {
                    if let Some(t) = &mut self.trace {
                        t.push((p, v.clone()));
                    }
                }
                env[p.as_u32() as usize] = Some(v);
            }
            let mut next: Option<(Block, Vec<Val>)> = None;
            for &i in f.layout.block_insts(block) {
                if self.fuel == 0 {
                    return Err(Trap::OutOfFuel);
                }
                self.fuel -= 1;
                let data = &f.dfg.insts[i];
                let get = |v: Value| -> Result<Val, Trap> {
                    env.get(v.as_u32() as usize)
                        .cloned()
                        .flatten()
                        .ok_or_else(|| Trap::Invalid(format!("{v} read before it is defined")))
                };
                let args: Vec<Val> = data
                    .args
                    .iter()
                    .map(|&a| get(a))
                    .collect::<Result<_, _>>()?;
                let tys: Vec<Type> = data.args.iter().map(|&a| f.dfg.value_type(a)).collect();
                let rty = f.dfg.inst_result(i).map(|r| f.dfg.value_type(r));
                let dest = |d: &Dest| -> Result<(Block, Vec<Val>), Trap> {
                    Ok((
                        d.block,
                        d.args.iter().map(|&a| get(a)).collect::<Result<_, _>>()?,
                    ))
                };
                let result = match &data.op {
                    Op::Jump(d) => {
                        next = Some(dest(d)?);
                        None
                    }
                    Op::Brif(d) => {
                        next = Some(if args[0].bits() != 0 {
                            dest(&d.0)?
                        } else {
                            dest(&d.1)?
                        });
                        None
                    }
                    Op::Switch(t) => {
                        let x = args[0].bits();
                        let d = t
                            .cases
                            .iter()
                            .find(|(c, _)| *c == x)
                            .map_or(&t.default, |(_, d)| d);
                        next = Some(dest(d)?);
                        None
                    }
                    Op::Return => return Ok(args.into_iter().next()),
                    Op::Unreachable => return Err(Trap::Unreachable),
                    Op::Call(c) => self.call(*c, &args)?,
                    Op::SlotAddr(ss) => Some(Val::scalar(slots[ss.as_u32() as usize])),
                    _ => Some(self.eval(&data.op, &args, &tys, rty)?),
                };
                if let (Some(r), Some(v)) = (f.dfg.inst_result(i), result) {
                    if self.depth == 1 {
                        if let Some(t) = &mut self.trace {
                            t.push((r, v.clone()));
                        }
                    }
                    env[r.as_u32() as usize] = Some(v);
                }
            }
            let Some((b, vals)) = next else {
                return Err(Trap::Invalid(format!("{block} has no terminator")));
            };
            block = b;
            incoming = vals;
        }
    }

    /// A work-group collective: every work-item publishes its operand between two barriers
    /// (the first keeps it from overwriting operands others are still reading), then
    /// combines what it needs in linear local id order. Without a group, the work-item is a
    /// group of one.
    /// A collective over the work-group or this work-item's sub-group (`scope`): every
    /// work-item of the group publishes its operand, then combines those of its range.
    fn group(&mut self, g: GroupOp, scope: Scope, a: &[Val], ty: Type) -> Result<Val, Trap> {
        let x = a[0].bits();
        let wi = &self.work_item;
        let me = wi.local_linear_id();
        let (lo, hi) = match scope {
            Scope::SubGroup => wi.sub_group(),
            _ => (0, wi.group_items()),
        };
        // A sub-group's own barrier numbers its work-items from the sub-group's first.
        let (b, base) = match (&self.sub_barrier, scope) {
            (Some(b), Scope::SubGroup) => (Some(b), lo),
            _ => (self.barrier.as_ref(), 0),
        };
        let (all, me) = match b {
            Some(b) => {
                b.wait()?;
                match b
                    .exchange
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_mut((me - base) as usize)
                {
                    Some(slot) => *slot = x,
                    None => return Err(Trap::Invalid("local id past the work-group".into())),
                }
                b.wait()?;
                let all = b.exchange.lock().unwrap_or_else(|e| e.into_inner()).clone();
                let range = all
                    .get((lo - base) as usize..(hi - base) as usize)
                    .unwrap_or(&[])
                    .to_vec();
                (range, (me - lo) as usize)
            }
            None => (vec![x], 0),
        };
        // From the first operand on (the identity only for an empty exclusive scan), so
        // that a lone -0.0 or NaN comes back as it is.
        let fold = |op: BinaryOp, vals: &[u64]| match vals.split_first() {
            Some((&first, rest)) => rest
                .iter()
                .fold(first, |acc, &v| binary(op, acc, v, ty).bits()),
            None => op.identity(ty.lane_bits()).unwrap_or(0),
        };
        Ok(Val::scalar(match g {
            // An id past the group gives an unspecified value (6.15.16: undefined behaviour).
            GroupOp::Broadcast => all.get(a[1].bits() as usize).copied().unwrap_or(0),
            GroupOp::Reduce(op) => fold(op, &all),
            GroupOp::ScanInclusive(op) => fold(op, &all[..=me]),
            GroupOp::ScanExclusive(op) => fold(op, &all[..me]),
        }))
    }

    fn load(&self, p: u64, ty: Type) -> Result<Val, Trap> {
        load_in(&self.memory(), p, ty)
    }

    fn store(&mut self, p: u64, v: &Val, ty: Type) -> Result<(), Trap> {
        store_in(&mut self.memory(), p, v, ty)
    }

    fn eval(&mut self, op: &Op, a: &[Val], tys: &[Type], rty: Option<Type>) -> Result<Val, Trap> {
        let rt = rty.unwrap_or(Type::I32);
        let lanes = rt.lanes() as usize;
        let splat = |x: u64| Val(vec![x; lanes]);
        let lanewise = |f: &dyn Fn(usize) -> u64| Val((0..lanes).map(f).collect());
        Ok(match op {
            Op::Iconst(c) | Op::Fconst(c) => splat(*c),
            Op::Vconst(lanes) => Val(lanes.to_vec()),
            Op::Null | Op::Undef => splat(0),
            Op::Unary(u) => lanewise(&|k| unary(*u, a[0].0[k], rt)),
            Op::Binary(b) => lanewise(&|k| binary(*b, a[0].0[k], a[1].0[k], rt).bits()),
            Op::Fma => lanewise(&|k| {
                let [x, y, z] = [0, 1, 2].map(|j| float::to_f64(a[j].0[k], rt));
                match rt.lane_bits() {
                    32 => u64::from((x as f32).mul_add(y as f32, z as f32).to_bits()),
                    64 => x.mul_add(y, z).to_bits(),
                    _ => float::from_f64(x.mul_add(y, z), rt, Round::Rte),
                }
            }),
            Op::Icmp(cc) => {
                let w = tys[0].lane_bits();
                lanewise(&|k| u64::from(eval::icmp(*cc, a[0].0[k], a[1].0[k], w)))
            }
            Op::Fcmp(cc) => lanewise(&|k| {
                u64::from(cc.eval(
                    float::to_f64(a[0].0[k], tys[0]),
                    float::to_f64(a[1].0[k], tys[0]),
                ))
            }),
            Op::Select => {
                let c = &a[0];
                lanewise(&|k| {
                    let ck = if c.0.len() == 1 { c.0[0] } else { c.0[k] };
                    if ck != 0 {
                        a[1].0[k]
                    } else {
                        a[2].0[k]
                    }
                })
            }
            Op::Convert(c) => lanewise(&|k| convert(*c, a[0].0[k], tys[0], rt).bits()),
            Op::Bitcast => {
                let (tl, rl) = (tys[0].lane_bits() as usize, rt.lane_bits() as usize);
                let mut bits: Vec<bool> = Vec::new();
                let padded = if tys[0].lanes() == 3 {
                    4
                } else {
                    tys[0].lanes() as usize
                };
                for k in 0..padded {
                    let x = a[0].0.get(k).copied().unwrap_or(0);
                    bits.extend((0..tl).map(|j| x >> j & 1 == 1));
                }
                Val((0..lanes)
                    .map(|k| (0..rl).fold(0u64, |acc, j| acc | (u64::from(bits[k * rl + j]) << j)))
                    .collect())
            }
            Op::PtrToInt => Val::scalar(a[0].bits() & mask(rt.lane_bits())),
            Op::IntToPtr | Op::AddrCast => Val::scalar(a[0].bits()),
            Op::PtrAdd => {
                let off = sext(a[1].bits(), tys[1].lane_bits());
                Val::scalar(a[0].bits().wrapping_add(off as u64))
            }
            Op::Splat => splat(a[0].bits()),
            Op::ExtractLane(n) => Val::scalar(a[0].0[*n as usize]),
            Op::InsertLane(n) => {
                let mut v = a[0].clone();
                v.0[*n as usize] = a[1].bits();
                v
            }
            Op::Shuffle(mask) => {
                let all: Vec<u64> = a[0].0.iter().chain(&a[1].0).copied().collect();
                Val(mask.iter().map(|&m| all[m as usize]).collect())
            }
            Op::Load(flags) => match self.load(a[0].bits(), rt) {
                Err(Trap::OutOfBounds(_))
                    if self.lenient_private_loads
                        && matches!(flags.space, AddrSpace::Local | AddrSpace::Private) =>
                {
                    splat(0)
                }
                r => r?,
            },
            Op::AtomicLoad(_) => self.load(a[0].bits(), rt)?,
            Op::Store(_) | Op::AtomicStore(_) => {
                self.store(a[1].bits(), &a[0], tys[0])?;
                Val(vec![])
            }
            Op::AtomicRmw(r, _) => {
                let p = a[0].bits();
                let ty = tys[1];
                let mut mem = self.memory();
                let old = load_in(&mem, p, ty)?.bits();
                let x = a[1].bits();
                let w = ty.lane_bits();
                let new = match r {
                    RmwOp::Xchg => x,
                    RmwOp::Add if ty.is_float() => float::from_f64(
                        float::to_f64(old, ty) + float::to_f64(x, ty),
                        ty,
                        Round::Rte,
                    ),
                    RmwOp::Add => old.wrapping_add(x) & mask(w),
                    RmwOp::Sub => old.wrapping_sub(x) & mask(w),
                    RmwOp::And => old & x,
                    RmwOp::Or => old | x,
                    RmwOp::Xor => old ^ x,
                    RmwOp::Smin => binary(BinaryOp::Smin, old, x, ty).bits(),
                    RmwOp::Smax => binary(BinaryOp::Smax, old, x, ty).bits(),
                    RmwOp::Umin => old.min(x),
                    RmwOp::Umax => old.max(x),
                };
                store_in(&mut mem, p, &Val::scalar(new), ty)?;
                Val::scalar(old)
            }
            Op::Cmpxchg(..) => {
                let p = a[0].bits();
                let mut mem = self.memory();
                let old = load_in(&mem, p, tys[1])?.bits();
                if old == a[1].bits() {
                    store_in(&mut mem, p, &a[2], tys[1])?;
                }
                Val::scalar(old)
            }
            // Every access takes the memory lock, so memory is sequentially consistent and
            // fences have nothing left to order.
            Op::Fence(..) => Val(vec![]),
            Op::Barrier(_, scope) => {
                let b = match (&self.sub_barrier, scope) {
                    (Some(b), Scope::SubGroup) => Some(b),
                    _ => self.barrier.as_ref(),
                };
                if let Some(b) = b {
                    b.wait()?;
                }
                Val(vec![])
            }
            Op::Group(g, scope) => self.group(*g, *scope, a, rt)?,
            Op::WorkItem(w, d) => {
                let d = usize::from(*d).min(2);
                let wi = &self.work_item;
                let v = match w {
                    WorkItemOp::WorkDim => u64::from(wi.work_dim),
                    WorkItemOp::GlobalSize => wi.global_size[d],
                    WorkItemOp::GlobalId => wi.global_id[d],
                    WorkItemOp::LocalSize => wi.local_size[d],
                    WorkItemOp::EnqueuedLocalSize => wi.enqueued_local_size[d],
                    WorkItemOp::LocalId => wi.local_id[d],
                    WorkItemOp::NumGroups => wi.num_groups[d],
                    WorkItemOp::GroupId => wi.group_id[d],
                    WorkItemOp::GlobalOffset => wi.global_offset[d],
                    // 6.15.1: (gid.z - off.z) * gsz.y * gsz.x + (gid.y - off.y) * gsz.x + (gid.x - off.x)
                    WorkItemOp::GlobalLinearId => {
                        let g = |k: usize| wi.global_id[k] - wi.global_offset[k];
                        g(2) * wi.global_size[1] * wi.global_size[0]
                            + g(1) * wi.global_size[0]
                            + g(0)
                    }
                    WorkItemOp::LocalLinearId => wi.local_linear_id(),
                    // Sub-groups of wi.sub_group_size work-items in linear local id order,
                    // the last of a work-group smaller (OpenCL C 6.15.1).
                    WorkItemOp::SubGroupLocalId => wi.local_linear_id() - wi.sub_group().0,
                    WorkItemOp::SubGroupSize => {
                        let (start, end) = wi.sub_group();
                        end - start
                    }
                    WorkItemOp::MaxSubGroupSize => wi.sub_group_size.max(1).min(wi.group_items()),
                    WorkItemOp::NumSubGroups => wi.group_items().div_ceil(wi.sub_group_size.max(1)),
                    WorkItemOp::EnqueuedNumSubGroups => {
                        let items: u64 = wi.enqueued_local_size.iter().product();
                        items.div_ceil(wi.sub_group_size.max(1))
                    }
                    WorkItemOp::SubGroupId => wi.local_linear_id() / wi.sub_group_size.max(1),
                };
                Val::scalar(v & mask(rt.lane_bits()))
            }
            Op::GlobalAddr(g) => Val::scalar(self.globals.get(g).copied().unwrap_or(0)),
            Op::SlotAddr(_)
            | Op::Call(_)
            | Op::Jump(_)
            | Op::Brif(_)
            | Op::Switch(_)
            | Op::Return
            | Op::Unreachable => {
                return Err(Trap::Invalid("control flow evaluated as a value".into()))
            }
        })
    }
}

fn load_in(mem: &Memory, p: u64, ty: Type) -> Result<Val, Trap> {
    let lb = ty.lane_bytes() as usize;
    let n = ty.lanes() as usize;
    let bytes = mem.read(p, lb * n)?;
    Ok(Val(bytes
        .chunks(lb)
        .map(|c| {
            c.iter()
                .rev()
                .fold(0u64, |acc, &b| (acc << 8) | u64::from(b))
        })
        .collect()))
}

fn store_in(mem: &mut Memory, p: u64, v: &Val, ty: Type) -> Result<(), Trap> {
    let lb = ty.lane_bytes() as usize;
    let mut bytes = Vec::with_capacity(lb * v.0.len());
    for &lane in &v.0 {
        bytes.extend_from_slice(&lane.to_le_bytes()[..lb]);
    }
    mem.write(p, &bytes)
}

/// A kernel argument for `run_ndrange`.
#[derive(Clone, Debug)]
pub enum KernelArgValue {
    /// A value (a scalar, a vector, or a pointer into the memory passed along).
    Val(Val),
    /// A `local` pointer argument: a fresh zeroed region of this many bytes per work-group.
    Local(u32),
}

/// The shape of an NDRange launch.
#[derive(Clone, Debug)]
pub struct NdRange {
    /// 1, 2 or 3.
    pub work_dim: u32,
    /// Global work size per dimension (unused dimensions 1).
    pub global_size: [u64; 3],
    /// Work-group size per dimension. Where it does not divide the global size, the last
    /// group of that dimension is smaller (non-uniform work-groups, OpenCL 2.0); chunked runs
    /// (`run_ndrange_chunks`) need uniform ones.
    pub local_size: [u64; 3],
    /// Global offset per dimension.
    pub global_offset: [u64; 3],
    /// The sub-group size of the device the run stands for (the CPU device's is
    /// `ferrocl_cpu::SUB_GROUP_SIZE`); see [`WorkItem::sub_group_size`].
    pub sub_group_size: u64,
}

/// Runs `kernel` over `range` with `memory` holding the buffers its pointer arguments point
/// into. Work-groups run one after another; the work-items of a group run on their own
/// threads and meet at barriers. Program-scope variables are allocated in the memory first,
/// `local` ones again for each work-group. Returns the memory and the first trap, if any.
pub fn run_ndrange(
    module: &Module,
    kernel: Func,
    args: &[KernelArgValue],
    memory: Memory,
    range: &NdRange,
) -> (Memory, Result<(), Trap>) {
    let (m, r, _) = run(module, kernel, args, memory, range, false, 1);
    (m, r)
}

/// `run_ndrange` for a kernel vectorized across work-items, each invocation of which computes
/// `width` consecutive work-items along x: it runs only the work-items whose local x id is a
/// multiple of `width`, all lanes active, so the local size along x must be a multiple of
/// `width`. Each invocation sees lane 0's ids; a barrier waits for the invocations. A load
/// from `__local` or `__private` memory outside every allocation gives zeros (see
/// [`Interpreter::lenient_private_loads`]).
pub fn run_ndrange_chunks(
    module: &Module,
    kernel: Func,
    args: &[KernelArgValue],
    memory: Memory,
    range: &NdRange,
    width: u64,
) -> (Memory, Result<(), Trap>) {
    if width == 0 || range.local_size[0] % width != 0 {
        let e = Trap::Invalid("the local size along x must be a multiple of the width".into());
        return (memory, Err(e));
    }
    let (m, r, _) = run(module, kernel, args, memory, range, false, width);
    (m, r)
}

/// What one work-item computed: its ids and every value the kernel defined, in order.
#[derive(Clone, Debug)]
pub struct WorkItemTrace {
    /// get_group_id for each dimension.
    pub group_id: [u64; 3],
    /// get_local_id for each dimension.
    pub local_id: [u64; 3],
    /// The kernel's values (block parameters and results) as they were defined.
    pub values: Vec<(Value, Val)>,
}

/// `run_ndrange`, also returning each work-item's trace (in group order, then local order).
pub fn run_ndrange_traced(
    module: &Module,
    kernel: Func,
    args: &[KernelArgValue],
    memory: Memory,
    range: &NdRange,
) -> (Memory, Result<(), Trap>, Vec<WorkItemTrace>) {
    run(module, kernel, args, memory, range, true, 1)
}

fn run(
    module: &Module,
    kernel: Func,
    args: &[KernelArgValue],
    memory: Memory,
    range: &NdRange,
    tracing: bool,
    width: u64,
) -> (Memory, Result<(), Trap>, Vec<WorkItemTrace>) {
    let mut traces = Vec::new();
    let mut memory = memory;
    let mut program_globals = HashMap::new();
    for (g, data) in module.globals.iter() {
        if data.space != AddrSpace::Local {
            let bytes = data
                .init
                .clone()
                .unwrap_or_else(|| vec![0; data.size as usize]);
            program_globals.insert(g, memory.alloc(bytes));
        }
    }
    relocate(module, &program_globals, &mut memory);
    let shared = Arc::new(Mutex::new(memory));
    let lock = |m: &Arc<Mutex<Memory>>| -> Memory {
        std::mem::take(&mut *m.lock().unwrap_or_else(|e| e.into_inner()))
    };
    let uniform = (0..3).all(|d| range.global_size[d] % range.local_size[d].max(1) == 0);
    if range.local_size.contains(&0) || (width > 1 && !uniform) {
        return (
            lock(&shared),
            Err(Trap::Invalid(
                "a local size is 0, or a chunked run's local size does not divide the global size"
                    .into(),
            )),
            traces,
        );
    }
    let groups: [u64; 3] = [0, 1, 2].map(|d| range.global_size[d].div_ceil(range.local_size[d]));
    for gz in 0..groups[2] {
        for gy in 0..groups[1] {
            for gx in 0..groups[0] {
                let group = [gx, gy, gz];
                // 5.9.3 (clEnqueueNDRangeKernel): where the local size does not divide the
                // global size, the last group of that dimension holds the remainder.
                let size: [u64; 3] = [0, 1, 2].map(|d| {
                    range.local_size[d].min(range.global_size[d] - group[d] * range.local_size[d])
                });
                let per_group = (size[0] / width * size[1] * size[2]) as usize;
                // Local memory of this group: local globals and local pointer arguments.
                let mut globals = program_globals.clone();
                let mut vals = Vec::with_capacity(args.len());
                {
                    let mut mem = shared.lock().unwrap_or_else(|e| e.into_inner());
                    for (g, data) in module.globals.iter() {
                        if data.space == AddrSpace::Local {
                            globals.insert(g, mem.alloc(vec![0; data.size as usize]));
                        }
                    }
                    for a in args {
                        vals.push(match a {
                            KernelArgValue::Val(v) => v.clone(),
                            KernelArgValue::Local(n) => {
                                Val::scalar(mem.alloc(vec![0; *n as usize]))
                            }
                        });
                    }
                }
                let barrier = Arc::new(GroupBarrier::new(per_group));
                // One barrier per sub-group where each work-item runs alone (a chunked run's
                // invocations hold several work-items, and wait at the group's).
                let items = size[0] * size[1] * size[2];
                let sub_size = range.sub_group_size.max(1);
                let subs: Vec<Arc<GroupBarrier>> = if width == 1 {
                    (0..items.div_ceil(sub_size))
                        .map(|k| {
                            let n = sub_size.min(items - k * sub_size) as usize;
                            Arc::new(GroupBarrier::sub_group(n))
                        })
                        .collect()
                } else {
                    Vec::new()
                };
                let mut first: Option<Trap> = None;
                std::thread::scope(|scope| {
                    let mut handles = Vec::new();
                    for lz in 0..size[2] {
                        for ly in 0..size[1] {
                            for lx in (0..size[0]).step_by(width as usize) {
                                let local = [lx, ly, lz];
                                let wi = WorkItem {
                                    work_dim: range.work_dim,
                                    global_id: [0, 1, 2].map(|d| {
                                        group[d] * range.local_size[d]
                                            + local[d]
                                            + range.global_offset[d]
                                    }),
                                    local_id: local,
                                    group_id: group,
                                    global_size: range.global_size,
                                    local_size: size,
                                    enqueued_local_size: range.local_size,
                                    num_groups: groups,
                                    global_offset: range.global_offset,
                                    sub_group_size: range.sub_group_size,
                                };
                                let sub_barrier = subs
                                    .get((wi.local_linear_id() / sub_size) as usize)
                                    .cloned();
                                let mut it = Interpreter {
                                    module,
                                    memory: Arc::clone(&shared),
                                    barrier: Some(Arc::clone(&barrier)),
                                    sub_barrier,
                                    work_item: wi,
                                    fuel: 10_000_000,
                                    globals: globals.clone(),
                                    depth: 0,
                                    trace: tracing.then(Vec::new),
                                    lenient_private_loads: width > 1,
                                };
                                let vals = vals.clone();
                                let barrier = Arc::clone(&barrier);
                                handles.push(scope.spawn(move || {
                                    let r = it.call(kernel, &vals);
                                    let trap = r.err();
                                    barrier.finish(trap.clone());
                                    if let Some(b) = &it.sub_barrier {
                                        b.finish(trap.clone());
                                    }
                                    let trace = WorkItemTrace {
                                        group_id: it.work_item.group_id,
                                        local_id: it.work_item.local_id,
                                        values: it.trace.take().unwrap_or_default(),
                                    };
                                    (trap, trace)
                                }));
                            }
                        }
                    }
                    for h in handles {
                        let (trap, trace) = match h.join() {
                            Ok(x) => x,
                            Err(_) => (
                                Some(Trap::Invalid("interpreter thread panicked".into())),
                                WorkItemTrace {
                                    group_id: group,
                                    local_id: [0; 3],
                                    values: Vec::new(),
                                },
                            ),
                        };
                        if tracing {
                            traces.push(trace);
                        }
                        // Prefer the trap that caused the others to abort.
                        match (&first, trap) {
                            (None, Some(t)) | (Some(Trap::Aborted), Some(t)) => first = Some(t),
                            _ => {}
                        }
                    }
                });
                if let Some(t) = first {
                    return (lock(&shared), Err(t), traces);
                }
            }
        }
    }
    (lock(&shared), Ok(()), traces)
}
