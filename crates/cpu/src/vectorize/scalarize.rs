//! Scalarization: OpenCL vector values (`float4`) split into one scalar per lane, so that
//! the vectorizer, which puts work-items in the lanes of IR vectors, sees only scalars.
//!
//! Lane-wise operations become one operation per lane; splats, lane extraction and
//! insertion, shuffles and vector constants become choices of scalars; a vector load or
//! store becomes one access per lane (`lane_bytes` apart, aligned to the smaller of the
//! access's alignment and the lane's size); a bitcast that changes the lane count goes
//! through a private slot (stored as one type, loaded as the other). A vector parameter of
//! the kernel stays one and is taken apart at the entry. What it does not split (calls and
//! collectives on vectors, bitcasts of 3-lane vectors) is a refusal.

use ferrocl_ir::analysis::{Cfg, DomTree};
use ferrocl_ir::entity::SecondaryMap;
use ferrocl_ir::{Block, Dest, Function, Inst, InstData, MemFlags, Op, Type, Value};

use super::Refusal;

/// Whether `func` has a value of a vector type.
pub fn has_vectors(func: &Function) -> bool {
    func.dfg.values.values().any(|v| v.ty.is_vector())
}

/// A function with its vector values split into lanes.
pub struct Split {
    pub func: Function,
    /// The loads or the stores that each vector load or store became, in lane order: lane
    /// `k`'s at `k * lane_bytes` past lane 0's address, which is the first access's.
    pub accesses: Vec<Vec<Inst>>,
    /// The value of the original function each scalar value of `func` stands for, where it
    /// is one (a value of a scalar type stays one value).
    originals: SecondaryMap<Value, Option<Value>>,
}

impl Split {
    /// The value of the original function that scalar value `v` of `func` is.
    pub fn original(&self, v: Value) -> Option<Value> {
        self.originals[v]
    }
}

/// `func` with every vector value split into lanes.
pub fn scalarize(func: &Function) -> Result<Split, Refusal> {
    let cfg = Cfg::new(func);
    let dom = DomTree::new(func, &cfg);
    let mut out = Function::new(&func.name, func.sig.clone());
    out.kernel = func.kernel.clone();
    for (_, slot) in func.slots.iter() {
        out.create_slot(slot.size, slot.align);
    }
    let mut s = Scalarizer {
        src: func,
        out,
        cur: Block::from_u32(0),
        map: SecondaryMap::new(),
        blocks: SecondaryMap::new(),
        accesses: Vec::new(),
    };
    for &b in func.layout.blocks() {
        if dom.is_reachable(b) {
            let nb = s.out.dfg.make_block();
            s.out.layout.append_block(nb);
            s.blocks[b] = Some(nb);
        }
    }
    let entry = func.layout.entry_block().expect("a body");
    for &b in dom.rpo() {
        s.cur = s.blocks[b].expect("a copy of each reachable block");
        for &p in func.dfg.block_params(b) {
            let ty = func.dfg.value_type(p);
            if b == entry {
                let q = s.out.dfg.append_block_param(s.cur, ty);
                s.map[p] = vec![q];
                continue;
            }
            let lanes = (0..ty.lanes())
                .map(|_| s.out.dfg.append_block_param(s.cur, ty.lane_type()))
                .collect();
            s.map[p] = lanes;
        }
        if b == entry {
            // A vector argument, taken apart.
            for &p in func.dfg.block_params(b) {
                let ty = func.dfg.value_type(p);
                if ty.is_vector() {
                    let q = s.map[p][0];
                    let lanes = (0..ty.lanes())
                        .map(|k| s.val(Op::ExtractLane(k as u8), &[q], ty.lane_type()))
                        .collect();
                    s.map[p] = lanes;
                }
            }
        }
        for &i in func.layout.block_insts(b) {
            s.inst(i)?;
        }
    }
    let mut originals = SecondaryMap::new();
    for (v, lanes) in s.map.iter() {
        if let Some(&first) = lanes.first() {
            if !func.dfg.value_type(v).is_vector() {
                originals[first] = Some(v);
            }
        }
    }
    Ok(Split {
        func: s.out,
        accesses: s.accesses,
        originals,
    })
}

struct Scalarizer<'a> {
    src: &'a Function,
    out: Function,
    cur: Block,
    /// The lanes of each value (one for scalars).
    map: SecondaryMap<Value, Vec<Value>>,
    /// The copy of each reachable block.
    blocks: SecondaryMap<Block, Option<Block>>,
    accesses: Vec<Vec<Inst>>,
}

impl Scalarizer<'_> {
    fn val(&mut self, op: Op, args: &[Value], ty: Type) -> Value {
        let i = self
            .out
            .append_inst(self.cur, InstData::new(op, args), Some(ty));
        self.out.dfg.inst_result(i).expect("a result")
    }

    fn lanes(&self, v: Value) -> Vec<Value> {
        let lanes = &self.map[v];
        assert!(!lanes.is_empty(), "defined before its uses");
        lanes.clone()
    }

    /// Lane `k` of `v`, or `v`'s one value when it is a scalar (a select's condition).
    fn lane(&self, v: Value, k: usize) -> Value {
        let l = &self.map[v];
        l[k.min(l.len() - 1)]
    }

    fn inst(&mut self, i: ferrocl_ir::Inst) -> Result<(), Refusal> {
        let data = self.src.dfg.insts[i].clone();
        let result = self.src.dfg.inst_result(i);
        let rty = result.map(|r| self.src.dfg.value_type(r));
        let vector_args = data
            .args
            .iter()
            .any(|&a| self.src.dfg.value_type(a).is_vector());
        let vector_result = rty.is_some_and(|t| t.is_vector());
        if data.op.is_terminator() {
            let mut op = data.op.clone();
            for d in op.dests_mut() {
                let args: Vec<Value> = d.args.iter().flat_map(|&a| self.lanes(a)).collect();
                *d = Dest::new(
                    self.blocks[d.block].expect("a copy of each reachable block"),
                    &args,
                );
            }
            let args: Vec<Value> = data.args.iter().map(|&a| self.lane(a, 0)).collect();
            self.out
                .append_inst(self.cur, InstData::new(op, &args), None);
            return Ok(());
        }
        if !vector_args && !vector_result {
            let args: Vec<Value> = data.args.iter().map(|&a| self.lane(a, 0)).collect();
            let ni = self
                .out
                .append_inst(self.cur, InstData::new(data.op.clone(), &args), rty);
            if let Some(r) = result {
                let v = self.out.dfg.inst_result(ni).expect("a result");
                self.map[r] = vec![v];
            }
            return Ok(());
        }
        let lanes: Vec<Value> = match &data.op {
            Op::Iconst(_) | Op::Fconst(_) | Op::Undef => {
                let ty = rty.expect("a result");
                let x = self.val(data.op.clone(), &[], ty.lane_type());
                vec![x; ty.lanes() as usize]
            }
            Op::Vconst(c) => {
                let ty = rty.expect("a result").lane_type();
                let make = |c: u64| {
                    if ty.is_float() {
                        Op::Fconst(c)
                    } else {
                        Op::Iconst(c)
                    }
                };
                c.iter().map(|&c| self.val(make(c), &[], ty)).collect()
            }
            Op::Unary(_)
            | Op::Binary(_)
            | Op::Fma
            | Op::Icmp(_)
            | Op::Fcmp(_)
            | Op::Select
            | Op::Convert(_) => {
                let ty = rty.expect("a result");
                (0..ty.lanes() as usize)
                    .map(|k| {
                        let args: Vec<Value> = data.args.iter().map(|&a| self.lane(a, k)).collect();
                        self.val(data.op.clone(), &args, ty.lane_type())
                    })
                    .collect()
            }
            Op::Bitcast => self.bitcast(data.args[0], rty.expect("a result"))?,
            Op::Splat => vec![self.lane(data.args[0], 0); rty.expect("a result").lanes() as usize],
            Op::ExtractLane(n) => vec![self.lanes(data.args[0])[usize::from(*n)]],
            Op::InsertLane(n) => {
                let mut l = self.lanes(data.args[0]);
                l[usize::from(*n)] = self.lane(data.args[1], 0);
                l
            }
            Op::Shuffle(mask) => {
                let all: Vec<Value> = self
                    .lanes(data.args[0])
                    .into_iter()
                    .chain(self.lanes(data.args[1]))
                    .collect();
                mask.iter().map(|&m| all[usize::from(m)]).collect()
            }
            Op::Load(flags) => {
                let ty = rty.expect("a result");
                let p = self.lane(data.args[0], 0);
                let lanes: Vec<Value> = (0..ty.lanes())
                    .map(|k| {
                        let (q, f) = self.lane_address(p, *flags, ty, k);
                        self.val(Op::Load(f), &[q], ty.lane_type())
                    })
                    .collect();
                let loads = lanes
                    .iter()
                    .filter_map(|&v| match self.out.dfg.value_def(v) {
                        ferrocl_ir::ValueDef::Result(i) => Some(i),
                        _ => None,
                    })
                    .collect();
                self.accesses.push(loads);
                lanes
            }
            Op::Store(flags) => {
                let ty = self.src.dfg.value_type(data.args[0]);
                let p = self.lane(data.args[1], 0);
                let stores = (0..ty.lanes())
                    .map(|k| {
                        let (q, f) = self.lane_address(p, *flags, ty, k);
                        let x = self.lane(data.args[0], k as usize);
                        self.out
                            .append_inst(self.cur, InstData::new(Op::Store(f), &[x, q]), None)
                    })
                    .collect();
                self.accesses.push(stores);
                Vec::new()
            }
            _ => return Err(Refusal::new("an operation on OpenCL vector types")),
        };
        if let Some(r) = result {
            self.map[r] = lanes;
        }
        Ok(())
    }

    /// The address and flags of lane `k` of an access of type `ty` at `p`.
    fn lane_address(&mut self, p: Value, flags: MemFlags, ty: Type, k: u32) -> (Value, MemFlags) {
        let bytes = ty.lane_bytes();
        let f = MemFlags {
            align: flags.align.min(bytes),
            ..flags
        };
        if k == 0 {
            return (p, f);
        }
        let off = self.val(Op::Iconst(u64::from(k * bytes)), &[], Type::I64);
        let pty = self.out.dfg.value_type(p);
        (self.val(Op::PtrAdd, &[p, off], pty), f)
    }

    /// A bitcast: lane-wise when the lane counts agree, else through a private slot.
    fn bitcast(&mut self, x: Value, to: Type) -> Result<Vec<Value>, Refusal> {
        let from = self.src.dfg.value_type(x);
        if from.lanes() == to.lanes() {
            return Ok(self
                .lanes(x)
                .into_iter()
                .map(|l| self.val(Op::Bitcast, &[l], to.lane_type()))
                .collect());
        }
        if from.lanes() == 3 || to.lanes() == 3 || from.is_bool() || to.is_bool() {
            return Err(Refusal::new("a bitcast of a 3-lane or boolean vector"));
        }
        let size = from.bytes();
        let slot = self.out.create_slot(size, size.min(16));
        let p = self.val(
            Op::SlotAddr(slot),
            &[],
            Type::ptr(ferrocl_ir::AddrSpace::Private),
        );
        let flags = MemFlags::new(ferrocl_ir::AddrSpace::Private, size.min(16));
        for k in 0..from.lanes() {
            let (q, f) = self.lane_address(p, flags, from, k);
            let v = self.lane(x, k as usize);
            self.out
                .append_inst(self.cur, InstData::new(Op::Store(f), &[v, q]), None);
        }
        Ok((0..to.lanes())
            .map(|k| {
                let (q, f) = self.lane_address(p, flags, to, k);
                self.val(Op::Load(f), &[q], to.lane_type())
            })
            .collect())
    }
}
