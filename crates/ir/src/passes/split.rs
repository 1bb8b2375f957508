//! Index-set splitting: a loop whose body branches on a condition that holds for a short run
//! of its induction variable's values only runs, outside those runs, a copy of its body in
//! which the condition is the constant it is there, and the branches on it fold away.
//!
//! The W-wide code of a 2-D stencil tests in every chunk of a row whether some lane is at
//! the row's left or right border (`x == 0`, `x == width - 1` as "`0 - x0` is below W") and
//! whether the row is the first or the last (`y == 0 || y == height - 1`, the same in every
//! chunk); the tests hold in the first and the last chunk of a row, and in two rows, and cost
//! the other chunks a third of their instructions. After this pass those run a body without
//! them.
//!
//! A loop qualifies when it has one back edge, one exit block that only the loop reaches, and
//! a header parameter `iv` of type `i64` that the back edge passes as `iv + S` (S a constant,
//! 0 < S <= 2^16). A condition of its body qualifies when it is one of
//! `T == A`, `T != A`, and `X <u B`, `X <=u B`, `X >u B`, `X >=u B` (either operand order)
//! with `X` one of `A - T`, `T - A` or `T`, where `A` is invariant in the loop, `B` a
//! constant and `T` is `iv + K` (modulo its width: `iadd`, `isub` and `trunc` of `iv` and
//! invariants). Each such condition holds exactly where `(T - L) mod 2^n < B` for an
//! invariant `L`, `n` being `T`'s width: on one run of at most B consecutive values of `iv`
//! from the loop's start (and again 2^n later). Before the loop, for each condition, the run
//! is found from the start value `s`: with `r = (s + K - L) mod 2^n`, it begins at `s` when
//! `r < B` (and ends at `s + B - 1 - r`), else at `s + 2^n - r`. The clean range `[lo, hi)`
//! starts past every run that begins at `s` and ends before every other run, so no condition
//! holds in it. Runs shorter than S are left alone (in W-wide code, the tests of single lanes
//! behind a chunk's test), and so are loops with a single condition (see `try_split`).
//!
//! A test for equality of values that do not change in the loop (`==`, `!=` and `||`, `&&`,
//! `!` of them, computed in the loop or before it) is taken to have its usual value (false
//! for `==`, true for `!=`) in the copy, and the clean range is empty where it has not. The
//! loop's own test, `iv + S + C <=u N` (or `<u`) with N invariant, bounds `hi`, so that the
//! copy's back edge tests `hi` alone:
//!
//! ```text
//! pre(s):   lo, hi from s                 ; the clean range
//!           jump pick(s)
//! pick(iv): brif lo <= iv < hi, clean(iv), loop(iv)
//! loop:     the loop as it was, its back edge to `pick`
//! clean:    the copy with the conditions constant; its latch goes on to clean(next) while
//!           next < hi, else to `leave`
//! leave:    the loop's own test: on to loop(next), or out
//! ```
//!
//! (Without a known own test, the latch keeps its test and `leave` tests `hi`.) Values of the
//! loop used after it become parameters of its exit block, which both copies pass. All
//! arithmetic is in `i64` on values below 2^63: a start of 2^61 or more gives an empty clean
//! range, and each run's distance from the start is capped at 2^61. `fold` and
//! `simplify_cfg` then remove the dead branches of the copy.

use std::collections::{HashMap, HashSet};

use crate::analysis::{Cfg, DomTree, LoopInfo};
use crate::dfg::ValueDef;
use crate::entity::{Block, Inst, Value};
use crate::function::Function;
use crate::inst::{BinaryOp, ConvOp, Dest, InstData, IntCC, Op, UnaryOp};
use crate::module::Module;
use crate::passes::unroll::{copy_blocks, layout_order};
use crate::types::Type;

/// The most instructions the copies of a function's loops may hold together.
const MAX_COPIED: usize = 4000;
/// The most instructions a trip of a clean copy may run for it to run two trips at a time.
const MAX_PAIRED: usize = 400;
/// The longest run of a condition, and the largest step.
const MAX_RUN: u64 = 1 << 16;
/// Starts at or past this give an empty clean range; runs further than it count as absent.
const FAR: u64 = 1 << 61;
/// The clean range's end where no run bounds it.
const END: u64 = 1 << 62;

/// Splits the qualifying loops of every function.
pub fn run(m: &mut Module) {
    for (_, f) in m.funcs.iter_mut() {
        if !f.is_declaration() {
            split(f);
        }
    }
}

/// Splits the qualifying loops of `f`, innermost first, each once, while the copies stay
/// within [`MAX_COPIED`] instructions; returns whether any was.
pub fn split(f: &mut Function) -> bool {
    f.resolve_aliases();
    let mut done: HashSet<Block> = HashSet::new();
    let mut budget = MAX_COPIED;
    let mut changed = false;
    // Each split changes the CFG; look again until nothing qualifies.
    for _ in 0..64 {
        let cfg = Cfg::new(f);
        let dom = DomTree::new(f, &cfg);
        let loops = LoopInfo::new(&cfg, &dom);
        let mut split_one = false;
        for l in loops.loops.iter().rev() {
            if done.contains(&l.header) {
                continue;
            }
            done.insert(l.header);
            let size: usize = l
                .blocks
                .iter()
                .map(|&b| f.layout.block_insts(b).len())
                .sum();
            if size > budget {
                continue;
            }
            // A short innermost loop's clean copy runs two trips at a time (`pair_trips`).
            let innermost = !loops
                .loops
                .iter()
                .any(|m| m.header != l.header && l.blocks.contains(&m.header));
            let pair = innermost && 3 * size <= budget;
            if let Some((new_headers, copied)) = try_split(f, &cfg, &dom, l.header, &l.blocks, pair)
            {
                budget -= copied;
                // The copy's loop, and the loop that `pick` heads around both copies, are
                // not split again.
                done.extend(new_headers);
                split_one = true;
                break;
            }
        }
        if !split_one {
            break;
        }
        changed = true;
    }
    changed
}

/// An invariant expression, built before the loop.
#[derive(Clone, Debug)]
enum Expr {
    Val(Value),
    Const(u64, Type),
    Add(Box<Expr>, Box<Expr>),
    Sub(Box<Expr>, Box<Expr>),
    Trunc(Box<Expr>, Type),
}

/// A condition that holds exactly where `(T - low) mod 2^n < run`, `T` being `iv + offset`
/// of type `ty`; `negated` where the condition is the opposite.
struct Run {
    cond: Value,
    ty: Type,
    offset: Expr,
    low: Expr,
    run: u64,
    negated: bool,
}

/// The loop's own test on its back edge: it goes on while `next + add` is below `limit`
/// (`<=` where `inclusive`), `next` being the induction variable's next value.
struct OwnTest {
    add: u64,
    limit: Value,
    inclusive: bool,
}

struct Shape<'a> {
    f: &'a Function,
    inside: &'a HashSet<Block>,
    iv: Value,
}

impl Shape<'_> {
    fn defined_inside(&self, v: Value) -> bool {
        defined_in(self.f, self.inside, v)
    }

    /// `v` as an invariant expression.
    fn invariant(&self, v: Value) -> Option<Expr> {
        if let Some(k) = self.f.dfg.iconst_value(v) {
            return Some(Expr::Const(k, self.f.dfg.value_type(v)));
        }
        (!self.defined_inside(v)).then_some(Expr::Val(v))
    }

    /// K where `v` is `iv + K` modulo its width.
    fn offset(&self, v: Value, depth: u32) -> Option<Expr> {
        if v == self.iv {
            return Some(Expr::Const(0, Type::I64));
        }
        let ValueDef::Result(i) = self.f.dfg.value_def(v) else {
            return None;
        };
        if depth > 8 || !self.defined_inside(v) {
            return None;
        }
        let data = &self.f.dfg.insts[i];
        let ty = self.f.dfg.value_type(v);
        if !ty.is_int() || ty.is_vector() {
            return None;
        }
        let d = depth + 1;
        match (&data.op, &data.args[..]) {
            (Op::Binary(BinaryOp::Iadd), &[a, b]) => {
                if let (Some(k), Some(u)) = (self.offset(a, d), self.invariant(b)) {
                    return Some(Expr::Add(Box::new(k), Box::new(u)));
                }
                let (k, u) = (self.offset(b, d)?, self.invariant(a)?);
                Some(Expr::Add(Box::new(k), Box::new(u)))
            }
            (Op::Binary(BinaryOp::Isub), &[a, b]) => {
                let (k, u) = (self.offset(a, d)?, self.invariant(b)?);
                Some(Expr::Sub(Box::new(k), Box::new(u)))
            }
            (Op::Convert(ConvOp::Trunc), &[a]) => {
                Some(Expr::Trunc(Box::new(self.offset(a, d)?), ty))
            }
            _ => None,
        }
    }

    /// `c` as a run of `iv`'s values, if it is one.
    fn run(&self, c: Value) -> Option<Run> {
        let ValueDef::Result(i) = self.f.dfg.value_def(c) else {
            return None;
        };
        let data = &self.f.dfg.insts[i];
        let Op::Icmp(cc) = data.op else {
            return None;
        };
        let (x, y) = (data.args[0], data.args[1]);
        let ty = self.f.dfg.value_type(x);
        if !ty.is_int() || ty.is_vector() {
            return None;
        }
        let make = |offset, low, run, negated| Run {
            cond: c,
            ty,
            offset,
            low,
            run,
            negated,
        };
        if let IntCC::Eq | IntCC::Ne = cc {
            let negated = cc == IntCC::Ne;
            if let (Some(k), Some(a)) = (self.offset(x, 0), self.invariant(y)) {
                return Some(make(k, a, 1, negated));
            }
            let (k, a) = (self.offset(y, 0)?, self.invariant(x)?);
            return Some(make(k, a, 1, negated));
        }
        // `X cc C`, C a constant.
        let (x, cc, bound) = match (self.f.dfg.iconst_value(y), self.f.dfg.iconst_value(x)) {
            (Some(b), _) => (x, cc, b),
            (None, Some(b)) => (y, cc.swapped(), b),
            _ => return None,
        };
        let (run, negated) = match cc {
            IntCC::Ult => (bound, false),
            IntCC::Ule => (bound.checked_add(1)?, false),
            IntCC::Uge => (bound, true),
            IntCC::Ugt => (bound.checked_add(1)?, true),
            _ => return None,
        };
        if run == 0 || run > MAX_RUN {
            return None;
        }
        if let Some(k) = self.offset(x, 0) {
            return Some(make(k, Expr::Const(0, ty), run, negated));
        }
        let ValueDef::Result(xi) = self.f.dfg.value_def(x) else {
            return None;
        };
        let xd = &self.f.dfg.insts[xi];
        if xd.op != Op::Binary(BinaryOp::Isub) || !self.defined_inside(x) {
            return None;
        }
        let (a, b) = (xd.args[0], xd.args[1]);
        if let (Some(k), Some(u)) = (self.offset(a, 0), self.invariant(b)) {
            // T - A < B: T in [A, A + B - 1].
            return Some(make(k, u, run, negated));
        }
        // A - T < B: T in [A - (B - 1), A].
        let (k, u) = (self.offset(b, 0)?, self.invariant(a)?);
        let low = Expr::Sub(Box::new(u), Box::new(Expr::Const(run - 1, ty)));
        Some(make(k, low, run, negated))
    }
}

/// Whether `v` is defined in `blocks` (an alias, which `split` resolves first, counts as
/// defined there).
fn defined_in(f: &Function, blocks: &HashSet<Block>, v: Value) -> bool {
    match f.dfg.value_def(v) {
        ValueDef::Result(i) => f.layout.inst_block(i).is_some_and(|b| blocks.contains(&b)),
        ValueDef::Param(b, _) => blocks.contains(&b),
        ValueDef::Alias(_) | ValueDef::Invalid => true,
    }
}

/// The value an invariant condition `c` has but in rare cases, if it is a test for equality
/// (`==` is rarely true, `!=` rarely false), or an `||`, `&&` or `!` of such tests: a border
/// test such as `y == 0 || y == h - 1`.
fn usual(f: &Function, c: Value, depth: u32) -> Option<bool> {
    let ValueDef::Result(i) = f.dfg.value_def(c) else {
        return None;
    };
    if depth > 8 {
        return None;
    }
    let data = &f.dfg.insts[i];
    let konst = |v: Value| f.dfg.iconst_value(v).map(|k| k & 1 == 1);
    let both = |a: Value, b: Value, want: bool| {
        let (x, y) = (usual(f, a, depth + 1)?, usual(f, b, depth + 1)?);
        (x == want && y == want).then_some(want)
    };
    match (&data.op, &data.args[..]) {
        (Op::Icmp(IntCC::Eq), _) => Some(false),
        (Op::Icmp(IntCC::Ne), _) => Some(true),
        (Op::Binary(BinaryOp::Bor), &[a, b]) => both(a, b, false),
        (Op::Binary(BinaryOp::Band), &[a, b]) => both(a, b, true),
        (Op::Unary(UnaryOp::Bnot), &[a]) => usual(f, a, depth + 1).map(|x| !x),
        // `a || b` and `a && b` as selects.
        (Op::Select, &[a, x, y]) => match (konst(x), konst(y)) {
            (Some(true), _) => both(a, y, false),
            (_, Some(false)) => both(a, x, true),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `v` is computed from values defined before the loop (of `inside`'s blocks) by
/// instructions that [`hoist`] may compute before it: pure, and never undefined.
fn invariant(f: &Function, inside: &HashSet<Block>, v: Value, depth: u32) -> bool {
    if !defined_in(f, inside, v) {
        return true;
    }
    let ValueDef::Result(i) = f.dfg.value_def(v) else {
        return false;
    };
    let data = &f.dfg.insts[i];
    let hoistable = match &data.op {
        Op::Iconst(_) | Op::Icmp(_) | Op::Select => true,
        Op::Binary(op) => {
            !matches!(
                op,
                BinaryOp::Sdiv | BinaryOp::Udiv | BinaryOp::Srem | BinaryOp::Urem
            ) && data.op.is_pure()
        }
        Op::Unary(_) => data.op.is_pure(),
        Op::Convert(c) => matches!(c, ConvOp::Trunc | ConvOp::Zext | ConvOp::Sext),
        _ => false,
    };
    hoistable
        && depth < 8
        && data
            .args
            .iter()
            .all(|&a| invariant(f, inside, a, depth + 1))
}

/// `v` (of which [`invariant`] holds) computed at the end of `b`: the instructions of the
/// loop that compute it, copied there.
fn hoist(
    f: &mut Function,
    inside: &HashSet<Block>,
    b: Block,
    v: Value,
    done: &mut HashMap<Value, Value>,
) -> Value {
    if !defined_in(f, inside, v) {
        return v;
    }
    if let Some(&x) = done.get(&v) {
        return x;
    }
    let ValueDef::Result(i) = f.dfg.value_def(v) else {
        unreachable!("an invariant value of the loop is an instruction's result");
    };
    let mut data = f.dfg.insts[i].clone();
    for a in &mut data.args {
        *a = hoist(f, inside, b, *a, done);
    }
    let ty = f.dfg.value_type(v);
    let x = append(f, b, data.op, &data.args, Some(ty)).expect("a result");
    done.insert(v, x);
    x
}

/// The loop's own test, if its back edge is taken while `next (+ C) <u N` (or `<=u`) holds,
/// `next` being the value it passes for the induction variable and N invariant.
fn own_test(
    f: &Function,
    latch: Inst,
    h: Block,
    next: Value,
    inside: &HashSet<Block>,
) -> Option<OwnTest> {
    let data = &f.dfg.insts[latch];
    let Op::Brif(d) = &data.op else {
        return None;
    };
    let goes_on_true = d.0.block == h;
    let ValueDef::Result(ci) = f.dfg.value_def(data.args[0]) else {
        return None;
    };
    let Op::Icmp(cc) = f.dfg.insts[ci].op else {
        return None;
    };
    let (x, n) = (f.dfg.insts[ci].args[0], f.dfg.insts[ci].args[1]);
    // The test for going on, with `next` on the left.
    let (cc, x, n) = if goes_on_true {
        (cc, x, n)
    } else {
        (IntCC::inverse(cc), x, n)
    };
    let (cc, x, n) = match cc {
        IntCC::Ult | IntCC::Ule => (cc, x, n),
        IntCC::Ugt | IntCC::Uge => (cc.swapped(), n, x),
        _ => return None,
    };
    if defined_in(f, inside, n) && f.dfg.iconst_value(n).is_none() {
        return None;
    }
    let add = if x == next {
        0
    } else {
        let ValueDef::Result(xi) = f.dfg.value_def(x) else {
            return None;
        };
        match (&f.dfg.insts[xi].op, &f.dfg.insts[xi].args[..]) {
            (Op::Binary(BinaryOp::Iadd), &[a, b]) if a == next => f.dfg.iconst_value(b)?,
            (Op::Binary(BinaryOp::Iadd), &[a, b]) if b == next => f.dfg.iconst_value(a)?,
            _ => return None,
        }
    };
    (add <= MAX_RUN).then_some(OwnTest {
        add,
        limit: n,
        inclusive: cc == IntCC::Ule,
    })
}

/// The loop's one back edge (its instruction) and its one exit block, if it has them.
fn back_edge_and_exit(
    f: &Function,
    cfg: &Cfg,
    h: Block,
    inside: &HashSet<Block>,
) -> Option<(Inst, Block)> {
    let latch = cfg.single_back_edge(h, inside)?;
    if f.dfg.insts[latch]
        .op
        .dests()
        .iter()
        .filter(|d| d.block == h)
        .count()
        != 1
    {
        return None;
    }
    let mut exit = None;
    for &b in inside {
        let t = f.terminator(b)?;
        for d in f.dfg.insts[t].op.dests() {
            if inside.contains(&d.block) {
                continue;
            }
            if exit.is_some_and(|e| e != d.block) {
                return None;
            }
            exit = Some(d.block);
        }
    }
    let exit = exit?;
    cfg.preds(exit)
        .iter()
        .all(|(p, _)| inside.contains(p))
        .then_some((latch, exit))
}

/// The destination of branch `i` that is block `to`, which it has.
fn dest_to(f: &Function, i: Inst, to: Block) -> Dest {
    f.dfg.insts[i]
        .op
        .dests()
        .into_iter()
        .find(|d| d.block == to)
        .expect("a branch to the block")
        .clone()
}

/// Splits the loop of header `h`; returns the headers of the loops it made: the copy's, and
/// `pick`, which heads a loop around both copies.
fn try_split(
    f: &mut Function,
    cfg: &Cfg,
    dom: &DomTree,
    h: Block,
    blocks: &[Block],
    pair: bool,
) -> Option<(Vec<Block>, usize)> {
    let inside: HashSet<Block> = blocks.iter().copied().collect();
    let (latch, exit) = back_edge_and_exit(f, cfg, h, &inside)?;
    let back = dest_to(f, latch, h);
    let params = f.dfg.block_params(h).to_vec();
    // The induction variables: each with the conditions that are runs of it.
    let (k, runs, step) = params.iter().enumerate().find_map(|(k, &iv)| {
        if f.dfg.value_type(iv) != Type::I64 {
            return None;
        }
        let ValueDef::Result(ni) = f.dfg.value_def(back.args[k]) else {
            return None;
        };
        let step = match (&f.dfg.insts[ni].op, &f.dfg.insts[ni].args[..]) {
            (Op::Binary(BinaryOp::Iadd), &[a, b]) if a == iv => f.dfg.iconst_value(b)?,
            (Op::Binary(BinaryOp::Iadd), &[a, b]) if b == iv => f.dfg.iconst_value(a)?,
            _ => return None,
        };
        if step == 0 || step > MAX_RUN {
            return None;
        }
        let shape = Shape {
            f,
            inside: &inside,
            iv,
        };
        let mut runs: Vec<Run> = Vec::new();
        for &b in blocks {
            let t = f.terminator(b)?;
            if let Op::Brif(_) = f.dfg.insts[t].op {
                let c = f.dfg.insts[t].args[0];
                if runs.iter().all(|r| r.cond != c) {
                    // A run shorter than a step: in W-wide code, a lane's own test, in the
                    // code for chunks whose lanes disagree, behind the chunk's test; the
                    // copy loses that code with the chunk's test.
                    runs.extend(shape.run(c).filter(|r| r.run >= step));
                }
            }
        }
        (!runs.is_empty()).then_some((k, runs, step))
    })?;
    // Tests for equality of values that do not change in the loop: the copy takes the value
    // they usually have, and runs no trip where they have the other.
    let mut fixed: Vec<(Value, bool)> = Vec::new();
    for &b in blocks {
        let t = f.terminator(b)?;
        if let Op::Brif(_) = f.dfg.insts[t].op {
            let c = f.dfg.insts[t].args[0];
            if invariant(f, &inside, c, 0) && fixed.iter().all(|&(x, _)| x != c) {
                fixed.extend(usual(f, c, 0).map(|u| (c, u)));
            }
        }
    }
    // The range costs some 15 instructions a condition on each entry to the loop: worth it
    // for a row's two borders (or one and a fixed test), not for one test of one compare a
    // trip in loops that may run a few trips (a reduction's `lid == 0` in each of its steps).
    if runs.len() + fixed.len() < 2 {
        return None;
    }
    let own = own_test(f, latch, h, back.args[k], &inside);

    let order = layout_order(f, |b| inside.contains(&b));
    let last = *order.last().expect("a loop has blocks");

    // The values of the loop used after it (in blocks that run: dead ones may hold
    // anything): parameters of the exit block.
    let outside = layout_order(f, |b| !inside.contains(&b) && dom.is_reachable(b));
    let mut used_after: Vec<Value> = Vec::new();
    for &b in &outside {
        for &i in f.layout.block_insts(b) {
            for v in f.dfg.insts[i].all_args() {
                if defined_in(f, &inside, v) && !used_after.contains(&v) {
                    used_after.push(v);
                }
            }
        }
    }
    let (cbmap, cvmap) = copy_blocks(f, &order, last);
    let mut after: HashMap<Value, Value> = HashMap::new();
    // Constants are made again at the exit; other values become its parameters.
    let (konsts, used_after): (Vec<Value>, Vec<Value>) = used_after
        .into_iter()
        .partition(|&v| f.dfg.iconst_value(v).is_some());
    for &v in konsts.iter().rev() {
        let ty = f.dfg.value_type(v);
        let k = f.dfg.iconst_value(v).expect("a constant");
        let i = f.dfg.make_inst(InstData::new(Op::Iconst(k), &[]), Some(ty));
        f.layout.insert_inst_at(i, exit, 0);
        after.insert(v, f.dfg.inst_result(i).expect("a result"));
    }
    for &v in &used_after {
        let ty = f.dfg.value_type(v);
        after.insert(v, f.dfg.append_block_param(exit, ty));
    }
    for &b in &outside {
        for i in f.layout.block_insts(b).to_vec() {
            f.dfg.insts[i].map_args(|v| after.get(&v).copied().unwrap_or(v));
        }
    }
    // Both copies pass them to the exit block.
    for (copy, map) in [(false, &HashMap::new()), (true, &cvmap)] {
        for &b in &order {
            let b = if copy { cbmap[&b] } else { b };
            let t = f.terminator(b).expect("a terminator");
            for d in f.dfg.insts[t].op.dests_mut() {
                if d.block == exit {
                    d.args
                        .extend(used_after.iter().map(|v| map.get(v).copied().unwrap_or(*v)));
                }
            }
        }
    }

    // In the copy, each condition is the constant it is in the clean range.
    for r in &runs {
        let c = cvmap[&r.cond];
        let ValueDef::Result(ci) = f.dfg.value_def(c) else {
            unreachable!("a condition is an icmp's result");
        };
        f.dfg.insts[ci] = InstData::new(Op::Iconst(u64::from(r.negated)), &[]);
    }
    let entry = cbmap[&h];
    for &(c, usual) in &fixed {
        let c = cvmap.get(&c).copied().unwrap_or(c);
        let k = InstData::new(Op::Iconst(u64::from(usual)), &[]);
        let k = f.dfg.make_inst(k, Some(Type::I1));
        f.layout.insert_inst_at(k, entry, 0);
        let k = f.dfg.inst_result(k).expect("a result");
        for &b in &order {
            for i in f.layout.block_insts(cbmap[&b]).to_vec() {
                f.dfg.insts[i].map_args(|v| if v == c { k } else { v });
            }
        }
    }

    // The blocks that choose between the copies.
    let types: Vec<Type> = params.iter().map(|&p| f.dfg.value_type(p)).collect();
    let new_block = |f: &mut Function, after: Block| {
        let b = f.dfg.make_block();
        f.layout.insert_block_after(b, after);
        let ps: Vec<Value> = types
            .iter()
            .map(|&t| f.dfg.append_block_param(b, t))
            .collect();
        (b, ps)
    };
    let (pre, pre_params) = new_block(f, last);
    let (pick, pick_params) = new_block(f, pre);
    // Edges from outside into the loop now enter at `pre`.
    for &(p, pi) in cfg.preds(h) {
        if inside.contains(&p) {
            continue;
        }
        for d in f.dfg.insts[pi].op.dests_mut() {
            if d.block == h {
                d.block = pre;
            }
        }
    }
    let (lo, hi) = clean_range(
        f,
        pre,
        pre_params[k],
        &runs,
        (&fixed, &inside),
        own.as_ref(),
    );
    jump(f, pre, Dest::new(pick, &pre_params));
    let ch = cbmap[&h];
    let iv = pick_params[k];
    let at_lo = cmp(f, pick, IntCC::Sge, iv, lo);
    let below_hi = cmp(f, pick, IntCC::Slt, iv, hi);
    let ok = bin(f, pick, BinaryOp::Band, at_lo, below_hi);
    brif(
        f,
        pick,
        ok,
        Dest::new(ch, &pick_params),
        Dest::new(h, &pick_params),
    );
    // The loop's back edge goes to `pick`.
    for d in f.dfg.insts[latch].op.dests_mut() {
        if d.block == h {
            d.block = pick;
        }
    }
    // The copy's goes on while the next value is below `hi`, else to the loop.
    let copy_latch = f
        .terminator(cbmap[&f.layout.inst_block(latch).expect("placed")])
        .expect("a terminator");
    let copy_back = dest_to(f, copy_latch, ch);
    let leave = f.dfg.make_block();
    f.layout.insert_block_after(leave, cbmap[&last]);
    if own.is_some() {
        // Below `hi` the loop's own test holds (`hi` is at most its bound): test `hi`
        // alone, and the loop's own test past it.
        let test = InstData::new(Op::Icmp(IntCC::Slt), &[copy_back.args[k], hi]);
        let below_hi = f.insert_inst_before(copy_latch, test, Some(Type::I1));
        let below_hi = f.dfg.inst_result(below_hi).expect("a result");
        let mut data = f.dfg.insts[copy_latch].clone();
        for d in data.op.dests_mut() {
            if d.block == ch {
                d.block = h;
            }
        }
        f.append_inst(leave, data, None);
        f.dfg.insts[copy_latch] = InstData::new(
            Op::Brif(Box::new((copy_back, Dest::new(leave, &[])))),
            &[below_hi],
        );
    } else {
        let ps: Vec<Value> = types
            .iter()
            .map(|&t| f.dfg.append_block_param(leave, t))
            .collect();
        for d in f.dfg.insts[copy_latch].op.dests_mut() {
            if d.block == ch {
                d.block = leave;
            }
        }
        let iv = ps[k];
        let ok = cmp(f, leave, IntCC::Slt, iv, hi);
        brif(f, leave, ok, Dest::new(ch, &ps), Dest::new(h, &ps));
    }
    // The copy's blocks, its header first (the loop's header need not come first in the
    // layout).
    let mut copies: Vec<Block> = vec![ch];
    copies.extend(order.iter().map(|b| cbmap[b]).filter(|&b| b != ch));
    let size: usize = copies.iter().map(|&b| f.layout.block_insts(b).len()).sum();
    let mut headers = vec![ch, pick];
    // With a known own test, the copy's back edge goes to its header.
    if pair && own.is_some() && runs_straight(f, &copies) <= MAX_PAIRED {
        let latch_block = f.layout.inst_block(copy_latch).expect("placed");
        copies.push(leave);
        headers.push(pair_trips(f, &copies, latch_block, (k, step), (pick, hi)));
        return Some((headers, 3 * size));
    }
    Some((headers, size))
}

/// The instructions a trip of the clean copy (`copies`, its header first) runs, at most:
/// those of its blocks reachable from the header through branches whose condition is not a
/// constant, or along the edge a constant condition takes (the copy's conditions are
/// constants there, and `fold` drops the rest).
fn runs_straight(f: &Function, copies: &[Block]) -> usize {
    let mut seen: HashSet<Block> = HashSet::from([copies[0]]);
    let mut todo = vec![copies[0]];
    let mut n = 0;
    while let Some(b) = todo.pop() {
        n += f.layout.block_insts(b).len();
        let Some(t) = f.terminator(b) else {
            continue;
        };
        let data = &f.dfg.insts[t];
        let dests: Vec<Block> = match (&data.op, data.args.first()) {
            (Op::Brif(d), Some(&c)) => match f.dfg.iconst_value(c) {
                Some(k) if k & 1 == 1 => vec![d.0.block],
                Some(_) => vec![d.1.block],
                None => vec![d.0.block, d.1.block],
            },
            (op, _) => op.dests().iter().map(|d| d.block).collect(),
        };
        for d in dests {
            if copies.contains(&d) && seen.insert(d) {
                todo.push(d);
            }
        }
    }
    n
}

/// Runs the clean copy two trips at a time while both are in the clean range, so that a
/// short loop's own instructions (the counter, the test, the branch, the moves of the back
/// edge) are paid once for two trips. `c1` and `c2` are two more copies of the clean copy
/// and its `leave` block (`copies`, its header first; `latch` its latch block); `c1` goes on
/// to `c2` without a test, as its successor is in the range, and `c2` back to `c1` while
/// two more trips are:
///
/// ```text
/// pick:   brif lo <= iv < hi, enter(iv), loop(iv)
/// enter:  brif iv + step < hi, c1(iv), clean(iv)
/// c1:     the body; jump c2(next)
/// c2:     the body; brif next + step < hi, c1(next), c2x
/// c2x:    brif next < hi, clean(next), c2's leave
/// ```
///
/// `k` is the counter's parameter and `step` its step. Returns `c1`, the header of the new
/// loop, which is not split again.
fn pair_trips(
    f: &mut Function,
    copies: &[Block],
    latch: Block,
    (k, step): (usize, u64),
    (pick, hi): (Block, Value),
) -> Block {
    let ch = copies[0];
    let last = *copies.last().expect("a loop has blocks");
    let (m1, _) = copy_blocks(f, copies, last);
    let (m2, _) = copy_blocks(f, copies, m1[&last]);
    let (c1, c2) = (m1[&ch], m2[&ch]);
    // c1's successor is in the range: on to c2 without a test.
    let l1 = f.terminator(m1[&latch]).expect("a terminator");
    let back1 = dest_to(f, l1, c1);
    f.dfg.insts[l1] = InstData::new(Op::Jump(Dest::new(c2, &back1.args)), &[]);
    // c2 back to c1 while two more trips are in the range, else its own latch's test, with
    // the single copy for the last trip.
    let l2 = f.terminator(m2[&latch]).expect("a terminator");
    let back2 = dest_to(f, l2, c2);
    let c2x = f.dfg.make_block();
    f.layout.insert_block_after(c2x, m2[&latch]);
    let mut test = f.dfg.insts[l2].clone();
    for d in test.op.dests_mut() {
        if d.block == c2 {
            d.block = ch;
        }
    }
    f.append_inst(c2x, test, None);
    let s = f
        .dfg
        .make_inst(InstData::new(Op::Iconst(step), &[]), Some(Type::I64));
    f.layout.insert_inst_before(s, l2);
    let s = f.dfg.inst_result(s).expect("a result");
    let after = InstData::new(Op::Binary(BinaryOp::Iadd), &[back2.args[k], s]);
    let after = f.insert_inst_before(l2, after, Some(Type::I64));
    let after = f.dfg.inst_result(after).expect("a result");
    let fits = InstData::new(Op::Icmp(IntCC::Slt), &[after, hi]);
    let fits = f.insert_inst_before(l2, fits, Some(Type::I1));
    let fits = f.dfg.inst_result(fits).expect("a result");
    f.dfg.insts[l2] = InstData::new(
        Op::Brif(Box::new((Dest::new(c1, &back2.args), Dest::new(c2x, &[])))),
        &[fits],
    );
    // `pick` enters through `enter`.
    let enter = f.dfg.make_block();
    f.layout.insert_block_after(enter, pick);
    let ps = f.dfg.append_params_like(enter, ch);
    let s = iconst(f, enter, Type::I64, step);
    let after = bin(f, enter, BinaryOp::Iadd, ps[k], s);
    let fits = cmp(f, enter, IntCC::Slt, after, hi);
    brif(f, enter, fits, Dest::new(c1, &ps), Dest::new(ch, &ps));
    let t = f.terminator(pick).expect("a terminator");
    for d in f.dfg.insts[t].op.dests_mut() {
        if d.block == ch {
            d.block = enter;
        }
    }
    c1
}

/// Emits, at the end of `b`, the clean range `[lo, hi)` for a loop that starts at `start`:
/// no run of `runs` in it, empty where a condition of `fixed` has its unusual value, and
/// below the bound of the loop's own test.
fn clean_range(
    f: &mut Function,
    b: Block,
    start: Value,
    runs: &[Run],
    (fixed, inside): (&[(Value, bool)], &HashSet<Block>),
    own: Option<&OwnTest>,
) -> (Value, Value) {
    let mut lo = start;
    let mut hi = iconst(f, b, Type::I64, END);
    if let Some(t) = own {
        // next + add < limit (<=): next < limit - add (+ 1), for next + add without wrap
        // (next < END); never where limit < add.
        let add = iconst(f, b, Type::I64, t.add);
        let room = bin(f, b, BinaryOp::Isub, t.limit, add);
        let room = if t.inclusive {
            let one = iconst(f, b, Type::I64, 1);
            bin(f, b, BinaryOp::Iadd, room, one)
        } else {
            room
        };
        let room = bin(f, b, BinaryOp::Umin, room, hi);
        let none = cmp(f, b, IntCC::Ult, t.limit, add);
        let zero = iconst(f, b, Type::I64, 0);
        hi = select(f, b, none, zero, room);
    }
    let mut hoisted = HashMap::new();
    for &(c, usual) in fixed {
        let c = hoist(f, inside, b, c, &mut hoisted);
        let end = iconst(f, b, Type::I64, END);
        lo = if usual {
            select(f, b, c, lo, end)
        } else {
            select(f, b, c, end, lo)
        };
    }
    for r in runs {
        let n = r.ty.lane_bits();
        let k = emit(f, b, &r.offset);
        let low = emit(f, b, &r.low);
        let s = if n == 64 {
            start
        } else {
            convert(f, b, ConvOp::Trunc, start, r.ty)
        };
        let sk = bin(f, b, BinaryOp::Iadd, s, k);
        let rn = bin(f, b, BinaryOp::Isub, sk, low);
        let rr = if n == 64 {
            rn
        } else {
            convert(f, b, ConvOp::Zext, rn, Type::I64)
        };
        let run = iconst(f, b, Type::I64, r.run);
        // The run begins at the start: the clean range begins after it.
        let begins = cmp(f, b, IntCC::Ult, rr, run);
        let left = bin(f, b, BinaryOp::Isub, run, rr);
        let past = bin(f, b, BinaryOp::Iadd, start, left);
        let later = bin(f, b, BinaryOp::Smax, lo, past);
        lo = select(f, b, begins, later, lo);
        // The next run begins 2^n - r after the start (for n = 64 no run follows one that
        // begins at the start; 2^64 - r is then past FAR).
        let period = if n == 64 {
            iconst(f, b, Type::I64, 0)
        } else {
            iconst(f, b, Type::I64, 1u64 << n)
        };
        let dist = bin(f, b, BinaryOp::Isub, period, rr);
        let far = iconst(f, b, Type::I64, FAR);
        let dist = bin(f, b, BinaryOp::Umin, dist, far);
        let next = bin(f, b, BinaryOp::Iadd, start, dist);
        hi = bin(f, b, BinaryOp::Smin, hi, next);
    }
    let far = iconst(f, b, Type::I64, FAR);
    let near = cmp(f, b, IntCC::Ult, start, far);
    let end = iconst(f, b, Type::I64, END);
    lo = select(f, b, near, lo, end);
    (lo, hi)
}

fn emit(f: &mut Function, b: Block, e: &Expr) -> Value {
    match e {
        Expr::Val(v) => *v,
        &Expr::Const(k, ty) => iconst(f, b, ty, k),
        Expr::Add(x, y) | Expr::Sub(x, y) => {
            let op = if matches!(e, Expr::Add(..)) {
                BinaryOp::Iadd
            } else {
                BinaryOp::Isub
            };
            let (x, y) = (emit(f, b, x), emit(f, b, y));
            // Both sides have the wider type only where the offset is `iv` itself (i64).
            bin(f, b, op, x, y)
        }
        Expr::Trunc(x, ty) => {
            let x = emit(f, b, x);
            convert(f, b, ConvOp::Trunc, x, *ty)
        }
    }
}

fn append(f: &mut Function, b: Block, op: Op, args: &[Value], ty: Option<Type>) -> Option<Value> {
    let i = f.append_inst(b, InstData::new(op, args), ty);
    f.dfg.inst_result(i)
}

fn iconst(f: &mut Function, b: Block, ty: Type, k: u64) -> Value {
    let mask = if ty.lane_bits() >= 64 {
        u64::MAX
    } else {
        (1u64 << ty.lane_bits()) - 1
    };
    append(f, b, Op::Iconst(k & mask), &[], Some(ty)).expect("a result")
}

fn bin(f: &mut Function, b: Block, op: BinaryOp, x: Value, y: Value) -> Value {
    let ty = f.dfg.value_type(x);
    append(f, b, Op::Binary(op), &[x, y], Some(ty)).expect("a result")
}

fn cmp(f: &mut Function, b: Block, cc: IntCC, x: Value, y: Value) -> Value {
    append(f, b, Op::Icmp(cc), &[x, y], Some(Type::I1)).expect("a result")
}

fn select(f: &mut Function, b: Block, c: Value, x: Value, y: Value) -> Value {
    let ty = f.dfg.value_type(x);
    append(f, b, Op::Select, &[c, x, y], Some(ty)).expect("a result")
}

fn convert(f: &mut Function, b: Block, op: ConvOp, x: Value, ty: Type) -> Value {
    append(f, b, Op::Convert(op), &[x], Some(ty)).expect("a result")
}

fn jump(f: &mut Function, b: Block, to: Dest) {
    f.append_inst(b, InstData::new(Op::Jump(to), &[]), None);
}

fn brif(f: &mut Function, b: Block, c: Value, yes: Dest, no: Dest) {
    f.append_inst(b, InstData::new(Op::Brif(Box::new((yes, no))), &[c]), None);
}
