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
//! with fewer instructions.

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

fn placed(f: &Function) -> usize {
    f.layout
        .blocks()
        .iter()
        .map(|&b| f.layout.block_insts(b).len())
        .sum()
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
    /// How many copies of each operation there are.
    copied: HashMap<Inst, usize>,
    /// The copies to place before each instruction.
    before: HashMap<Inst, Vec<Inst>>,
    /// The instructions that the rewrite may leave unused: the shuffles and operations it
    /// traced, and its copies.
    candidates: Vec<Inst>,
}

/// Rewrites `f`; returns whether any use was.
fn rewrite(f: &mut Function) -> bool {
    let cfg = Cfg::new(f);
    let dom = DomTree::new(f, &cfg);
    let mut r = Rewrite {
        traces: HashMap::new(),
        copies: Available::default(),
        copied: HashMap::new(),
        invariants: Available::default(),
        before: HashMap::new(),
        candidates: Vec::new(),
    };
    // Definitions before uses: reverse postorder, and block parameters are never traced.
    for &b in dom.rpo() {
        for i in f.layout.block_insts(b).to_vec() {
            r.trace(f, &dom, b, i);
        }
    }
    if r.traces.is_empty() {
        return false;
    }
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
        if !ty.is_vector() {
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
                    let mut args = data.args.clone();
                    let mut made = Vec::new();
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

impl Rewrite {
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
