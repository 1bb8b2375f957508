//! Lane-wise arithmetic moved across the shuffles that regroup OpenCL vectors, so that the
//! shuffles cancel.
//!
//! The vectorizer holds each component of an OpenCL vector in an IR vector of its own
//! (component `c` of the W work-items), so the W `uchar4`s a chunk loads from consecutive
//! addresses are regrouped by shuffles into 4 vectors, and regrouped back by shuffles before
//! they are stored (`emit/memory.rs`). Where everything between is lane-wise (each lane of a
//! result depends on that lane of its operands alone) and the other operands are equal in
//! every lane (a splat, a constant, a scalar), what an element becomes does not depend on
//! where it sits: the operations can run on the loaded vectors as they are, and the stored
//! vectors are then those results themselves, without a shuffle. A threshold of `uchar4`
//! pixels (`select(0, maxval, s > thresh)`) took 16 shuffles for 8 operations a chunk.
//!
//! The rewrite follows each lane of a shuffled value back to the lane of the value it came
//! from (its *trace*). A lane-wise operation on traced operands is copied onto the values
//! their lanes came from, once for each combination of them, and its result traced to those
//! copies. A use of a value whose trace is the whole of one such value, lane for lane, reads
//! that value instead. The rewrite adds operations wherever a regrouped value has other uses
//! (an address, a component read on its own), so it is kept only if the function ends up
//! with fewer instructions (constants aside).
//!
//! Two extensions reach the shapes of `float4` arithmetic in loops:
//! - A constant of each component's own (`a * v + (float4)(0.25f, -0.5f, 0.75f, -1.0f)`)
//!   is four operations, each with a constant equal in its lanes; their copies on one loaded
//!   vector are one, reading a vector constant whose lanes are those of the components each
//!   lane holds (`Patterned`).
//! - A loop header's parameter that is an equal-lanes constant on entry (the accumulator's
//!   components) is traced where the loop first combines it with a traced value: its lanes
//!   go into new parameters in that value's arrangement (`Shadow`), which enter with the
//!   constant's bits and take, on the back edge, the copies whose lanes the old parameters'
//!   next values came from. That must hold lane for lane (`close_loops`), or the rewrite is
//!   dropped. Parameters of a block with one predecessor edge (the loop's exit) are their
//!   arguments, so the values the loop passes out are traced too; the old parameters go where
//!   nothing else reads them (`drop_carried`). Horner's rule over `float4`s (the bench's
//!   float4-poly) then runs its loop on the loaded vectors, without the 8 shuffles each way
//!   that regroup 16 work-items' `float4`s: 1.10-1.23 to 0.69-0.80 ms on 2 cores.

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};

use ferrocl_ir::analysis::{Cfg, DomTree};
use ferrocl_ir::{BinaryOp, Block, Function, Inst, InstData, Op, Type, Value, ValueDef};

/// Each lane of a value: the value it came from and that value's lane.
type Trace = Rc<[(Value, u8)]>;

/// At most this many copies of one operation: each combination of the values its operands'
/// lanes came from is one (the regrouping of 4 components gives 4).
const MAX_COPIES: usize = 16;

static REGROUPED: AtomicU64 = AtomicU64::new(0);

/// How many vectorized kernels this process rewrote: a test that runs kernels shows whether
/// any reached this code.
pub fn regrouped_count() -> u64 {
    REGROUPED.load(Ordering::Relaxed)
}

/// Runs the rewrite on `f` (a vectorized kernel) where it makes `f` smaller.
pub(super) fn run(f: &mut Function) {
    let has_shuffle = f.layout.blocks().iter().any(|&b| {
        f.layout
            .block_insts(b)
            .iter()
            .any(|&i| matches!(f.dfg.insts[i].op, Op::Shuffle(_)))
    });
    if !has_shuffle {
        return;
    }
    let mut g = f.clone();
    if rewrite(&mut g) && placed(&g) < placed(f) {
        *f = g;
        REGROUPED.fetch_add(1, Ordering::Relaxed);
    }
}

/// The instructions of `f` but its constants (which the code generators keep in registers
/// or read from memory where used).
fn placed(f: &Function) -> usize {
    f.layout
        .blocks()
        .iter()
        .flat_map(|&b| f.layout.block_insts(b))
        .filter(|&&i| {
            !matches!(
                f.dfg.insts[i].op,
                Op::Iconst(_) | Op::Fconst(_) | Op::Vconst(_)
            )
        })
        .count()
}

/// Whether `op` computes each lane of its result from the same lane of its operands alone,
/// and never traps (a lane the original did not compute may be computed by a copy: integer
/// division is left out).
fn lane_wise(op: &Op) -> bool {
    match op {
        Op::Binary(b) => !matches!(
            b,
            BinaryOp::Sdiv | BinaryOp::Udiv | BinaryOp::Srem | BinaryOp::Urem
        ),
        Op::Unary(_) | Op::Fma | Op::Icmp(_) | Op::Fcmp(_) | Op::Select | Op::Convert(_) => true,
        _ => false,
    }
}

/// The bits of `v` where it is a vector constant with equal lanes (`Iconst`, `Fconst`, or a
/// splat of a scalar one).
fn equal_lanes_constant(f: &Function, v: Value) -> Option<u64> {
    let constant = |v: Value| match f.dfg.value_def(f.dfg.resolve(v)) {
        ValueDef::Result(i) => match f.dfg.insts[i].op {
            Op::Iconst(c) | Op::Fconst(c) => Some(c),
            _ => None,
        },
        _ => None,
    };
    if !f.dfg.value_type(v).is_vector() {
        return None;
    }
    match f.dfg.value_def(v) {
        ValueDef::Result(i) if f.dfg.insts[i].op == Op::Splat => constant(f.dfg.insts[i].args[0]),
        _ => constant(v),
    }
}

/// The constant of `lanes` bits (`None`: a lane nothing reads, which takes the first lane's
/// bits, so that lanes asked for alike make a constant with equal lanes, which the IR writes
/// as `Iconst` or `Fconst`), for a vector of float lanes or not.
fn lane_constant(lanes: &[Option<u64>], float: bool) -> Op {
    let first = lanes.iter().flatten().next().copied().unwrap_or(0);
    let bits: Vec<u64> = lanes.iter().map(|x| x.unwrap_or(first)).collect();
    match bits.iter().all(|&b| b == first) {
        true if float => Op::Fconst(first),
        true => Op::Iconst(first),
        false => Op::Vconst(bits.into()),
    }
}

/// A constant instruction of `ty` computing `op`, placed first in the entry block (where it
/// dominates every use the rewrite gives it).
fn entry_constant(f: &mut Function, op: Op, ty: Type) -> Inst {
    let k = f.dfg.make_inst(InstData::new(op, &[]), Some(ty));
    let entry = f.layout.entry_block().expect("a function with a body");
    f.layout.insert_inst_at(k, entry, 0);
    k
}

/// Whether `v` is equal in every lane: a scalar operand, or a splat or constant vector.
fn invariant(f: &Function, v: Value) -> bool {
    if !f.dfg.value_type(v).is_vector() {
        return true;
    }
    match f.dfg.value_def(v) {
        ValueDef::Result(i) => {
            matches!(f.dfg.insts[i].op, Op::Splat | Op::Iconst(_) | Op::Fconst(_))
        }
        _ => false,
    }
}

struct Rewrite {
    traces: HashMap<Value, Trace>,
    /// The copies by what they compute, with their blocks: operations that differ only in
    /// which lanes of the same values they read (the 4 components' comparisons) share a copy
    /// where its block dominates theirs.
    copies: Available,
    /// The equal splats and constants (the vectorizer makes one for each component), by what
    /// they compute, with their blocks.
    invariants: Available,
    /// The copies whose constant operands are vectors of each lane's own constant
    /// (`Patterned`), by their operation, their other operands (`None` for the constants) and
    /// their type.
    patterned: HashMap<PatternKey, Vec<Patterned>>,
    /// The parameters of loop headers that the rewrite may carry around the loop in the
    /// loaded vectors' arrangement (`carried`), with what they are.
    loop_carried: HashMap<Value, Carried>,
    /// The new parameters that carry them (`Shadow`), and where to find each by its header
    /// and the value its lanes pair with.
    shadows: Vec<Shadow>,
    shadow_at: HashMap<(Block, Value), Vec<usize>>,
    /// The parameters traced as their one edge's arguments (`trace_params`).
    passed: Vec<Value>,
    /// How many copies of each operation there are.
    copied: HashMap<Inst, usize>,
    /// The copies to place before each instruction.
    before: HashMap<Inst, Vec<Inst>>,
    /// The instructions that the rewrite may leave unused: the shuffles and operations it
    /// traced, and its copies.
    candidates: Vec<Inst>,
}

/// What a `Patterned` copy computes: its operation, its operands (`None` for its constants)
/// and its type.
type PatternKey = (Op, Vec<Option<Value>>, Type);

/// A copy that reads constants lane by lane: the components of an OpenCL vector each with a
/// constant of its own (`a * v + (float4)(0.25f, -0.5f, 0.75f, -1.0f)`: four operations, each
/// on one component of W work-items with a constant equal in its lanes) run as one operation
/// on each loaded vector, with a vector constant whose lanes are those of the components they
/// hold. Each operation that shares the copy asks for its constant in the lanes it reads; a
/// lane asked for with two values makes another copy (`lane_constant` fills the rest).
struct Patterned {
    block: Block,
    value: Value,
    /// For each constant operand: its position, its constant instruction (in the entry
    /// block, rewritten as operations ask for lanes) and the lanes asked for.
    constants: Vec<(usize, Inst, Vec<Option<u64>>)>,
}

/// A vector parameter of a loop header that is an equal-lanes constant on entry (the
/// accumulator of `a = a * v + c` over an OpenCL vector's components, one parameter per
/// component): its lanes can go around the loop in another arrangement, that of the values
/// they are first computed with (`Shadow`).
#[derive(Clone)]
struct Carried {
    header: Block,
    /// Its bits on entry.
    init: u64,
    /// The value the back edge passes it.
    next: Value,
}

/// A parameter added to a loop header that carries lanes of `Carried` parameters in the
/// arrangement of a value their lanes meet in a lane-wise operation (a loaded vector, found
/// by `shadow_at` under its header and that value): its lane `l` holds the lane of the
/// parameter `lanes[l]` that meets that value's lane `l`. Several parameters (the
/// components) share one where they take different lanes.
struct Shadow {
    header: Block,
    value: Value,
    lanes: Vec<Option<Value>>,
}

/// Rewrites `f`; returns whether any use was.
fn rewrite(f: &mut Function) -> bool {
    let cfg = Cfg::new(f);
    let dom = DomTree::new(f, &cfg);
    let mut r = Rewrite {
        traces: HashMap::new(),
        copies: Available::default(),
        patterned: HashMap::new(),
        loop_carried: carried(f, &cfg, &dom),
        shadows: Vec::new(),
        shadow_at: HashMap::new(),
        passed: Vec::new(),
        copied: HashMap::new(),
        invariants: Available::default(),
        before: HashMap::new(),
        candidates: Vec::new(),
    };
    // Definitions before uses: reverse postorder, and block parameters are traced only where
    // a loop carries them (`Carried`). Twice, for what the second trace of a loop's
    // parameters (in its body) reaches in blocks placed before it.
    for _ in 0..2 {
        for &b in dom.rpo() {
            r.trace_params(f, &cfg, b);
            for i in f.layout.block_insts(b).to_vec() {
                r.trace(f, &dom, b, i);
            }
        }
    }
    if r.traces.is_empty() || !r.close_loops(f, &cfg, &dom) {
        return false;
    }
    r.share_constants(f);
    // The copies, in place.
    for b in f.layout.blocks().to_vec() {
        let insts = f.layout.block_insts(b).to_vec();
        if !insts.iter().any(|i| r.before.contains_key(i)) {
            continue;
        }
        f.layout.retain_insts(b, |_| false);
        for i in insts {
            for &c in r.before.get(&i).into_iter().flatten() {
                f.layout.append_inst(c, b);
            }
            f.layout.append_inst(i, b);
        }
    }
    // Uses of a value that is another lane for lane read that one.
    let whole: HashMap<Value, Value> = r
        .traces
        .iter()
        .filter_map(|(&v, t)| {
            let (source, _) = t[0];
            let same = t
                .iter()
                .enumerate()
                .all(|(j, &(s, l))| s == source && usize::from(l) == j);
            (same && f.dfg.value_type(source) == f.dfg.value_type(v)).then_some((v, source))
        })
        .collect();
    let mut changes = Vec::new();
    for &b in f.layout.blocks() {
        for &i in f.layout.block_insts(b) {
            let mut data = f.dfg.insts[i].clone();
            let mut changed = false;
            let mut read = |a: &mut Value| {
                if let Some(&s) = whole.get(&f.dfg.resolve(*a)) {
                    *a = s;
                    changed = true;
                }
            };
            data.args.iter_mut().for_each(&mut read);
            for d in data.op.dests_mut() {
                d.args.iter_mut().for_each(&mut read);
            }
            if changed {
                changes.push((i, data));
            }
        }
    }
    let rewired = !changes.is_empty();
    for (i, data) in changes {
        f.dfg.insts[i] = data;
    }
    if rewired {
        r.drop_carried(f, &cfg);
        remove_unused(f, &r.candidates);
    }
    rewired
}

impl Rewrite {
    /// Traces the result of `i`, if it is a shuffle or a lane-wise operation on traced values.
    fn trace(&mut self, f: &mut Function, dom: &DomTree, block: Block, i: Inst) {
        let Some(result) = f.dfg.inst_result(i) else {
            return;
        };
        let ty = f.dfg.value_type(result);
        // Traced again only if a shuffle (which makes no copy): the second pass may have
        // traced what it reads since.
        let shuffle = matches!(f.dfg.insts[i].op, Op::Shuffle(_));
        if !ty.is_vector() || (self.traces.contains_key(&result) && !shuffle) {
            return;
        }
        let mut data = f.dfg.insts[i].clone();
        for a in data.args.iter_mut() {
            *a = f.dfg.resolve(*a);
        }
        // Where lane `l` of `v` came from.
        let source = |traces: &HashMap<Value, Trace>, v: Value, l: u8| match traces.get(&v) {
            Some(t) => t[usize::from(l)],
            None => (v, l),
        };
        let trace: Trace = match &data.op {
            Op::Shuffle(mask) => {
                let (a, b) = (data.args[0], data.args[1]);
                let n = f.dfg.value_type(a).lanes();
                if f.dfg.value_type(b) != f.dfg.value_type(a) {
                    return;
                }
                mask.iter()
                    .map(|&m| match u32::from(m) < n {
                        true => source(&self.traces, a, m),
                        false => source(&self.traces, b, (u32::from(m) - n) as u8),
                    })
                    .collect()
            }
            op if lane_wise(op) => {
                self.pair_carried(f, &data.args, ty.lanes());
                let traced: Vec<usize> = (0..data.args.len())
                    .filter(|&k| self.traces.contains_key(&data.args[k]))
                    .collect();
                if traced.is_empty()
                    || traced
                        .iter()
                        .any(|&k| self.traces[&data.args[k]].len() != ty.lanes() as usize)
                    || data.args.iter().enumerate().any(|(k, &a)| {
                        !traced.contains(&k)
                            && (!invariant(f, a)
                                || f.dfg.value_type(a).is_vector()
                                    && f.dfg.value_type(a).lanes() != ty.lanes())
                    })
                {
                    return;
                }
                let mut lanes = Vec::with_capacity(ty.lanes() as usize);
                for j in 0..ty.lanes() as usize {
                    let mut combination = Vec::with_capacity(traced.len());
                    let mut lane = None;
                    for &k in &traced {
                        let (s, l) = self.traces[&data.args[k]][j];
                        if lane.is_some_and(|x| x != l) {
                            return;
                        }
                        lane = Some(l);
                        combination.push(s);
                    }
                    // The copy has as many lanes as the values it reads, which may have
                    // more than the operation's operands (4 components of 4 `uchar4`s in one
                    // 16-byte load).
                    let width = f.dfg.value_type(combination[0]).lanes();
                    if combination
                        .iter()
                        .any(|&s| f.dfg.value_type(s).lanes() != width)
                    {
                        return;
                    }
                    let Some(copy_ty) = ty.lane_type().vector(width) else {
                        return;
                    };
                    let mut made = Vec::new();
                    let constants: Vec<(usize, u64)> = (0..data.args.len())
                        .filter(|k| !traced.contains(k))
                        .filter_map(|k| Some((k, equal_lanes_constant(f, data.args[k])?)))
                        .collect();
                    if !constants.is_empty() {
                        let lane = lane.expect("a traced operand");
                        let copy = self.patterned_copy(
                            f,
                            dom,
                            block,
                            i,
                            (&data, copy_ty),
                            (&traced, &combination),
                            (&constants, lane),
                            &mut made,
                        );
                        let Some(copy) = copy else {
                            return;
                        };
                        self.candidates.extend(&made);
                        self.before.entry(i).or_default().extend(made);
                        lanes.push((copy, lane));
                        continue;
                    }
                    let mut args = data.args.clone();
                    for (k, a) in args.iter_mut().enumerate() {
                        match traced.iter().position(|&t| t == k) {
                            Some(n) => *a = combination[n],
                            None => *a = self.invariant_at(f, dom, block, *a, width, &mut made),
                        }
                    }
                    let key = (InstData::new(data.op.clone(), &args), copy_ty);
                    let copy = match self.copies.find(dom, &key, block) {
                        Some(c) => c,
                        None => {
                            let count = self.copied.entry(i).or_default();
                            if *count == MAX_COPIES {
                                return;
                            }
                            *count += 1;
                            let c = f.dfg.make_inst(key.0.clone(), Some(copy_ty));
                            made.push(c);
                            let v = f.dfg.inst_result(c).expect("a copy has a result");
                            self.copies.add(key, block, v);
                            v
                        }
                    };
                    self.candidates.extend(&made);
                    self.before.entry(i).or_default().extend(made);
                    lanes.push((copy, lane.expect("a traced operand")));
                }
                lanes.into()
            }
            _ => return,
        };
        self.candidates.push(i);
        self.traces.insert(result, trace);
    }
}

/// The loop headers' parameters that may be carried in another arrangement: vectors whose
/// every entry edge passes an equal-lanes constant (the same one) and whose one back edge
/// passes a value.
fn carried(f: &Function, cfg: &Cfg, dom: &DomTree) -> HashMap<Value, Carried> {
    let mut found = HashMap::new();
    for &header in f.layout.blocks() {
        for (index, &p) in f.dfg.block_params(header).iter().enumerate() {
            if !f.dfg.value_type(p).is_vector() {
                continue;
            }
            let (mut init, mut next, mut fits) = (None, None, true);
            for &(pred, branch) in cfg.preds(header) {
                for d in f.dfg.insts[branch]
                    .op
                    .dests()
                    .into_iter()
                    .filter(|d| d.block == header)
                {
                    let a = f.dfg.resolve(d.args[index]);
                    if dom.dominates(header, pred) {
                        fits &= next.replace(a).is_none();
                    } else {
                        let c = equal_lanes_constant(f, a);
                        fits &= c.is_some() && init.is_none_or(|x| Some(x) == c);
                        init = c;
                    }
                }
            }
            if let (true, Some(init), Some(next)) = (fits, init, next) {
                found.insert(p, Carried { header, init, next });
            }
        }
    }
    found
}

impl Rewrite {
    /// Traces the parameters of `b` where it has one predecessor edge (the exit of a loop,
    /// which passes out the loop's values): each is its argument there, whose lanes came from
    /// values defined before the edge.
    fn trace_params(&mut self, f: &Function, cfg: &Cfg, b: Block) {
        let [(_, branch)] = cfg.preds(b) else {
            return;
        };
        let dests = f.dfg.insts[*branch].op.dests();
        let [d] = dests.iter().filter(|d| d.block == b).collect::<Vec<_>>()[..] else {
            return;
        };
        for (&p, &a) in f.dfg.block_params(b).iter().zip(&d.args) {
            if self.traces.contains_key(&p) {
                continue;
            }
            if let Some(t) = self.traces.get(&f.dfg.resolve(a)).cloned() {
                self.traces.insert(p, t);
                self.passed.push(p);
            }
        }
    }

    /// Traces the loop-carried parameters among `args` (not yet traced) after the other
    /// traced operands of a lane-wise operation of `lanes` lanes: lane `j` of the parameter
    /// becomes lane `l` of a shadow of the value lane `j` of the first traced operand came
    /// from (`(s, l)`), one where lane `l` is free or this parameter's.
    fn pair_carried(&mut self, f: &mut Function, args: &[Value], lanes: u32) {
        let Some(first) = args.iter().find_map(|a| self.traces.get(a).cloned()) else {
            return;
        };
        if first.len() != lanes as usize {
            return;
        }
        for &p in args {
            let Some(c) = self.loop_carried.get(&p).cloned() else {
                continue;
            };
            if self.traces.contains_key(&p) || f.dfg.value_type(p).lanes() != lanes {
                continue;
            }
            let mut trace = Vec::with_capacity(first.len());
            for &(s, l) in first.iter() {
                let key = (c.header, s);
                let l_ = usize::from(l);
                let found = self.shadow_at.get(&key).and_then(|ids| {
                    ids.iter()
                        .copied()
                        .find(|&n| self.shadows[n].lanes[l_].is_none_or(|x| x == p))
                });
                let n = match found {
                    Some(n) => n,
                    None => {
                        let ty = f.dfg.value_type(s);
                        let value = f.dfg.append_block_param(c.header, ty);
                        self.shadows.push(Shadow {
                            header: c.header,
                            value,
                            lanes: vec![None; ty.lanes() as usize],
                        });
                        let n = self.shadows.len() - 1;
                        self.shadow_at.entry(key).or_default().push(n);
                        n
                    }
                };
                self.shadows[n].lanes[l_] = Some(p);
                trace.push((self.shadows[n].value, l));
            }
            self.traces.insert(p, trace.into());
        }
    }

    /// Makes the copies' equal constants (all in the entry block) one value each: the first
    /// made.
    fn share_constants(&self, f: &mut Function) {
        let constants = || {
            self.patterned.values().flatten().flat_map(|p| {
                p.constants
                    .iter()
                    .map(move |&(k, inst, _)| (p.value, k, inst))
            })
        };
        let key = |f: &Function, inst: Inst| {
            let v = f.dfg.inst_result(inst).expect("a constant");
            ((f.dfg.insts[inst].op.clone(), f.dfg.value_type(v)), v)
        };
        let mut first: HashMap<(Op, Type), Value> = HashMap::new();
        for (_, _, inst) in constants() {
            let (k, v) = key(f, inst);
            let e = first.entry(k).or_insert(v);
            *e = (*e).min(v);
        }
        for (copy, k, inst) in constants() {
            let ValueDef::Result(c) = f.dfg.value_def(copy) else {
                continue;
            };
            f.dfg.insts[c].args[k] = first[&key(f, inst).0];
        }
    }

    /// Gives each shadow its arguments: on entry a constant of its parameters' initial bits,
    /// lane by lane; on the back edge the copy whose lanes are those the back edge passes
    /// its parameters, which must be one value, lane for lane. False where one is not (the
    /// rewrite is then dropped: the shadows' parameters have no arguments).
    fn close_loops(&mut self, f: &mut Function, cfg: &Cfg, dom: &DomTree) -> bool {
        for n in 0..self.shadows.len() {
            let (header, value) = (self.shadows[n].header, self.shadows[n].value);
            let mut next = None;
            let mut bits = Vec::with_capacity(self.shadows[n].lanes.len());
            for (l, p) in self.shadows[n].lanes.iter().enumerate() {
                let Some(p) = *p else {
                    bits.push(None);
                    continue;
                };
                let c = &self.loop_carried[&p];
                bits.push(Some(c.init));
                let (Some(tp), Some(tn)) = (self.traces.get(&p), self.traces.get(&c.next)) else {
                    return false;
                };
                for (j, &(s, sl)) in tp.iter().enumerate() {
                    if s != value || usize::from(sl) != l {
                        continue;
                    }
                    let (e, el) = tn[j];
                    if el != sl || next.replace(e).is_some_and(|x| x != e) {
                        return false;
                    }
                }
            }
            let Some(next) = next else {
                return false;
            };
            let ty = f.dfg.value_type(value);
            let k = entry_constant(f, lane_constant(&bits, ty.lane_type().is_float()), ty);
            let init = f.dfg.inst_result(k).expect("a constant");
            for &(pred, branch) in cfg.preds(header) {
                let arg = if dom.dominates(header, pred) {
                    next
                } else {
                    init
                };
                let mut op = f.dfg.insts[branch].op.clone();
                for d in op.dests_mut().into_iter().filter(|d| d.block == header) {
                    d.args.push(arg);
                }
                f.dfg.insts[branch].op = op;
            }
        }
        true
    }

    /// Removes the parameters the rewrite made redundant (the loop-carried ones that shadows
    /// replaced, and those that passed their values out of the loop, `passed`) where nothing
    /// reads them any more but the operations it copied, their own edges and each other:
    /// with them go their arguments, and then (`remove_unused`) what computed those.
    fn drop_carried(&self, f: &mut Function, cfg: &Cfg) {
        let removable: std::collections::BTreeSet<Value> = self
            .shadows
            .iter()
            .flat_map(|s| s.lanes.iter().flatten().copied())
            .chain(self.passed.iter().copied())
            .collect();
        if removable.is_empty() {
            return;
        }
        let candidates: std::collections::HashSet<Inst> = self.candidates.iter().copied().collect();
        // What stays reads: every instruction but the candidates (whose reads count once their
        // results are read), every edge's argument to a parameter that is not removable (a
        // removable parameter's arguments count once it is read).
        let mut live: std::collections::HashSet<Value> = std::collections::HashSet::new();
        let mut work: Vec<Value> = Vec::new();
        for &b in f.layout.blocks() {
            for &i in f.layout.block_insts(b) {
                let data = &f.dfg.insts[i];
                if !candidates.contains(&i) {
                    work.extend(data.args.iter().map(|&a| f.dfg.resolve(a)));
                }
                for d in data.op.dests() {
                    let params = f.dfg.block_params(d.block);
                    for (k, &a) in d.args.iter().enumerate() {
                        if !removable.contains(&params[k]) {
                            work.push(f.dfg.resolve(a));
                        }
                    }
                }
            }
        }
        while let Some(v) = work.pop() {
            if !live.insert(v) {
                continue;
            }
            match f.dfg.value_def(v) {
                ValueDef::Result(i) if candidates.contains(&i) => {
                    work.extend(f.dfg.insts[i].args.iter().map(|&a| f.dfg.resolve(a)));
                }
                ValueDef::Param(block, index) if removable.contains(&v) => {
                    for &(_, branch) in cfg.preds(block) {
                        for d in f.dfg.insts[branch].op.dests() {
                            if d.block == block {
                                work.push(f.dfg.resolve(d.args[index as usize]));
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        for p in removable.into_iter().filter(|p| !live.contains(p)) {
            let ValueDef::Param(block, index) = f.dfg.value_def(p) else {
                continue;
            };
            for &(_, branch) in cfg.preds(block) {
                let mut op = f.dfg.insts[branch].op.clone();
                for d in op.dests_mut().into_iter().filter(|d| d.block == block) {
                    d.args.remove(index as usize);
                }
                f.dfg.insts[branch].op = op;
            }
            f.dfg.remove_block_param(block, index as usize);
        }
    }

    /// The copy of operation `i` (`data`, giving a `ty`) on the values its traced operands'
    /// lane came from (`combination`, for the positions `traced`), whose constant operands
    /// (`constants`: positions and bits) it reads in lane `lane`: one already made, in a
    /// block that dominates `block`, whose constants are free or equal in that lane, or a new
    /// one (its `Vconst`s and itself pushed to `made`); `None` past `MAX_COPIES`.
    #[allow(clippy::too_many_arguments)]
    fn patterned_copy(
        &mut self,
        f: &mut Function,
        dom: &DomTree,
        block: Block,
        i: Inst,
        (data, ty): (&InstData, Type),
        (traced, combination): (&[usize], &[Value]),
        (constants, lane): (&[(usize, u64)], u8),
        made: &mut Vec<Inst>,
    ) -> Option<Value> {
        let l = usize::from(lane);
        let mut args: Vec<Option<Value>> = Vec::with_capacity(data.args.len());
        for (k, &a) in data.args.iter().enumerate() {
            args.push(if let Some(n) = traced.iter().position(|&t| t == k) {
                Some(combination[n])
            } else if constants.iter().any(|&(c, _)| c == k) {
                None
            } else {
                // The other invariants as in a copy without constants: equal splats one.
                Some(self.invariant_at(f, dom, block, a, ty.lanes(), made))
            });
        }
        let key = (data.op.clone(), args, ty);
        let fits = |p: &Patterned| {
            dom.dominates(p.block, block)
                && p.constants
                    .iter()
                    .zip(constants)
                    .all(|((_, _, lanes), &(_, c))| lanes[l].is_none_or(|x| x == c))
        };
        let found = self
            .patterned
            .get(&key)
            .and_then(|copies| copies.iter().position(fits));
        let index = match found {
            Some(n) => n,
            None => {
                let count = self.copied.entry(i).or_default();
                if *count == MAX_COPIES {
                    return None;
                }
                *count += 1;
                let mut operands: Vec<Value> = Vec::new();
                let mut own = Vec::new();
                for (k, a) in key.1.iter().enumerate() {
                    match a {
                        Some(v) => operands.push(*v),
                        None => {
                            let lanes = vec![None; ty.lanes() as usize];
                            let vty = f
                                .dfg
                                .value_type(data.args[k])
                                .lane_type()
                                .vector(ty.lanes())?;
                            // In the entry block, where `share_constants` can make equal
                            // ones one; its lanes are set below.
                            let float = vty.lane_type().is_float();
                            let c = entry_constant(f, lane_constant(&lanes, float), vty);
                            self.candidates.push(c);
                            operands.push(f.dfg.inst_result(c).expect("a constant"));
                            own.push((k, c, lanes));
                        }
                    }
                }
                let c = f
                    .dfg
                    .make_inst(InstData::new(data.op.clone(), &operands), Some(ty));
                made.push(c);
                let value = f.dfg.inst_result(c).expect("a copy has a result");
                let copies = self.patterned.entry(key.clone()).or_default();
                copies.push(Patterned {
                    block,
                    value,
                    constants: own,
                });
                copies.len() - 1
            }
        };
        let p = &mut self.patterned.get_mut(&key).expect("made above")[index];
        for ((_, inst, lanes), &(_, c)) in p.constants.iter_mut().zip(constants) {
            lanes[l] = Some(c);
            let float = f
                .dfg
                .inst_result(*inst)
                .is_some_and(|v| f.dfg.value_type(v).lane_type().is_float());
            f.dfg.insts[*inst].op = lane_constant(lanes, float);
        }
        Some(p.value)
    }

    /// The invariant operand `a` (a scalar, or a splat or constant vector) with `width` lanes:
    /// an equal value that dominates `block`, or a new one, pushed to `made`. Equal splats
    /// and constants become one value, so that the copies reading them are shared.
    fn invariant_at(
        &mut self,
        f: &mut Function,
        dom: &DomTree,
        block: Block,
        a: Value,
        width: u32,
        made: &mut Vec<Inst>,
    ) -> Value {
        let ty = f.dfg.value_type(a);
        let ValueDef::Result(d) = f.dfg.value_def(a) else {
            return a;
        };
        if !ty.is_vector() {
            return a;
        }
        let Some(want) = ty.lane_type().vector(width) else {
            return a;
        };
        let mut def = f.dfg.insts[d].clone();
        def.args.iter_mut().for_each(|x| *x = f.dfg.resolve(*x));
        let key = (def, want);
        if let Some(v) = self.invariants.find(dom, &key, block) {
            return v;
        }
        if want == ty {
            let at = f.layout.inst_block(d).expect("a placed definition");
            self.invariants.add(key, at, a);
            return a;
        }
        let c = f.dfg.make_inst(key.0.clone(), Some(want));
        made.push(c);
        let v = f.dfg.inst_result(c).expect("a splat has a result");
        self.invariants.add(key, block, v);
        v
    }
}

/// Values by what they compute, each with the block it is defined in.
#[derive(Default)]
struct Available(HashMap<(InstData, Type), Vec<(Block, Value)>>);

impl Available {
    /// A value computing `what` defined in a block that dominates `block` (or in `block`,
    /// before what is being rewritten there).
    fn find(&self, dom: &DomTree, what: &(InstData, Type), block: Block) -> Option<Value> {
        let defs = self.0.get(what)?;
        defs.iter()
            .find(|&&(b, _)| dom.dominates(b, block))
            .map(|&(_, v)| v)
    }

    fn add(&mut self, what: (InstData, Type), block: Block, v: Value) {
        self.0.entry(what).or_default().push((block, v));
    }
}

/// Removes the instructions of `candidates` whose results nothing reads, until none is left.
/// Not `passes::dce`: the vectorizer's result names W-wide values the work-group transform
/// reads (`Vectorized::uniform`) whether or not the function still does, and only what this
/// rewrite made unused may go.
fn remove_unused(f: &mut Function, candidates: &[Inst]) {
    loop {
        let mut uses: HashMap<Value, usize> = HashMap::new();
        for &b in f.layout.blocks() {
            for &i in f.layout.block_insts(b) {
                for a in f.dfg.insts[i].all_args() {
                    *uses.entry(f.dfg.resolve(a)).or_default() += 1;
                }
            }
        }
        let mut removed = false;
        for &i in candidates {
            if f.layout.inst_block(i).is_none() {
                continue;
            }
            let unused = f.dfg.inst_result(i).is_some_and(|v| !uses.contains_key(&v));
            if unused {
                f.layout.remove_inst(i);
                removed = true;
            }
        }
        if !removed {
            return;
        }
    }
}
