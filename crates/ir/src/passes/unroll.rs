//! Full unrolling of small counted loops.
//!
//! A loop qualifies when it has one back edge, leaves only from its header, and the header
//! decides with `icmp <cc> i, C` (or `C, i`) on a header parameter `i` that starts at a
//! constant and steps by an integer operation with a constant (`iadd i, S`, `imul i, S`,
//! `shl i, S`, `lshr i, S`... passed on the back edge: `for (s = 1; s < 256; s *= 4)`,
//! `for (s = 32; s > 0; s >>= 1)`). The trip count is
//! found by running the induction variable with the comparison's exact semantics (wrapping
//! at its width); loops of at most `MAX_TRIPS` iterations and `MAX_INSTS` copied
//! instructions, while what the unrolled loops of a function add stays within
//! `FUNCTION_BUDGET` ([`unroll_within`] says in which order they are taken), are replaced by
//! that many copies of their body, each copy's back edge
//! jumping to the next copy's header and the last header copy leaving the loop. Values of
//! the header used after the loop are renamed to the last copy's. Clean-up (folding the
//! induction variable, merging the straight-line blocks) is left to `fold` and
//! `simplify_cfg`.

use std::collections::{HashMap, HashSet};

use crate::analysis::{Cfg, DomTree, LoopInfo};
use crate::dfg::ValueDef;
use crate::entity::{Block, Inst, Value};
use crate::eval::sext;
use crate::function::Function;
use crate::inst::{BinaryOp, Dest, InstData, IntCC, Op};
use crate::module::Module;
use crate::types::AddrSpace;

/// The most iterations a loop may run to be unrolled.
pub const MAX_TRIPS: u64 = 16;
/// The most instructions the unrolled copies of one loop may hold together.
pub const MAX_INSTS: usize = 2000;
/// The most instructions full unrolling may add to one function, all its loops together
/// (each loop adds its size times its trip count, before clean-up): what one loop of
/// [`MAX_INSTS`] may add. Every unrolling of the bench suite's kernels fits (the largest adds
/// 564 instructions: the FFT pass's three loops; the 5x5 convolution's two 535) and so does
/// the blocked LU's of `examples/lu.cl` (1,095 and 1,894), so their code is what it was
/// without a budget; the real-world corpus had 120 functions over it, 12 over 8,000 (hashcat's
/// `point_mul_xy`: 256 loops, 10,118 instructions grown by 44,778, the pass alone taking
/// seconds for it). On the corpus's 40 entries that unrolling grew most, this budget cut what
/// unrolling added from 510,000 to 207,000 instructions and the processor time of building
/// them from 21.0 to 17.8 s; half of it would cut 0.7 s more, and the LU's loops.
pub const FUNCTION_BUDGET: usize = 2048;
/// What loops that index a private array may add beyond [`FUNCTION_BUDGET`]: a private array
/// indexed by a loop's counter stays in memory while the loop stays a loop, and a kernel with
/// private memory in memory runs one work-item at a time on the CPU device, a far larger
/// cost than the copies. CLBlast's `XgemmDirect` (its GEMM for matrices up to a few hundred,
/// `apd`, `bpd`, `cpd` in registers only once unrolled) needs 2,924 instructions of copies
/// for its 38 loops with its header's parameters; with the plain budget 6 stayed loops and it
/// ran 2.2x slower than PoCL. With the parameters CLBlast passes for a CPU (`WGD=32`, each
/// work-item 4x4 results) it needs 5,364 for 36 loops: at 2,048 its store loop stayed a loop
/// and SGEMM of 256 took 5.1 ms through CLBlast (PoCL 1.2), at 8,192 2.9-3.2 ms. The
/// real-world corpus builds in the same 43 s (2 cores) either way.
pub const PRIVATE_BUDGET: usize = 8192;

/// Unrolls the qualifying loops of every function, within [`FUNCTION_BUDGET`] each.
pub fn run(m: &mut Module) {
    for (_, f) in m.funcs.iter_mut() {
        if !f.is_declaration() {
            unroll(f);
        }
    }
}

/// Unrolls qualifying loops of `f` within [`FUNCTION_BUDGET`]; returns whether any was.
pub fn unroll(f: &mut Function) -> bool {
    unroll_within(f, FUNCTION_BUDGET)
}

/// A loop that full unrolling can take, and what taking it costs.
struct Candidate {
    /// Whether another loop lies inside it.
    outer: bool,
    /// The instructions its copies add: its size times its trip count.
    growth: usize,
    /// Whether it indexes a private array ([`indexes_private`]), so that it may draw on
    /// [`PRIVATE_BUDGET`].
    private: bool,
    header: Block,
    counted: Counted,
}

/// Unrolls qualifying loops of `f` while the instructions their copies add, all loops
/// together, fit in `budget` (and, for loops that index a private array, [`PRIVATE_BUDGET`]
/// more); returns whether any was. Each step takes, of the loops that qualify and still fit,
/// an innermost one before any loop around others, and of those the one that adds the fewest
/// instructions; it stops when none fits. So where the budget is short, the small inner
/// loops (a convolution's taps, an FFT pass's radix loops, a short reduction) are unrolled
/// and the large loops around them stay loops.
pub fn unroll_within(f: &mut Function, budget: usize) -> bool {
    let before = crate::timing::enabled().then(|| crate::timing::function_size(f));
    let (mut left, mut count, mut refused) = (budget, 0, 0);
    let mut private_left = PRIVATE_BUDGET;
    // Each unrolling changes the CFG; look again until nothing qualifies.
    for _ in 0..256 {
        let cfg = Cfg::new(f);
        let dom = DomTree::new(f, &cfg);
        let loops = LoopInfo::new(&cfg, &dom);
        let mut outer = vec![false; loops.loops.len()];
        for l in &loops.loops {
            if let Some(p) = l.parent {
                outer[p] = true;
            }
        }
        let mut best: Option<Candidate> = None;
        refused = 0;
        for (i, l) in loops.loops.iter().enumerate() {
            let Some(counted) = analyze(f, &cfg, l.header, &l.blocks) else {
                continue;
            };
            let size: usize = l
                .blocks
                .iter()
                .map(|&b| f.layout.block_insts(b).len())
                .sum();
            if size * (counted.trips as usize + 1) > MAX_INSTS {
                continue;
            }
            let growth = size * counted.trips as usize;
            let private = indexes_private(f, &l.blocks);
            if growth > left + if private { private_left } else { 0 } {
                refused += 1;
                continue;
            }
            let better = best
                .as_ref()
                .is_none_or(|b| (outer[i], growth) < (b.outer, b.growth));
            if better {
                best = Some(Candidate {
                    outer: outer[i],
                    growth,
                    private,
                    header: l.header,
                    counted,
                });
            }
        }
        let Some(c) = best else {
            break;
        };
        let blocks = &loops
            .loops
            .iter()
            .find(|l| l.header == c.header)
            .expect("the candidate's loop")
            .blocks;
        unroll_loop(f, c.header, blocks, &c.counted);
        let private_part = if c.private {
            c.growth.min(private_left)
        } else {
            0
        };
        private_left -= private_part;
        left -= c.growth - private_part;
        count += 1;
    }
    if let (Some(before), true) = (before, count + refused > 0) {
        let after = crate::timing::function_size(f);
        crate::timing::note(
            &format!("unroll @{}", f.name),
            &format!(
                "{count} loops, {before} -> {after} instructions, {} of {budget} budget \
                 and {} of {PRIVATE_BUDGET} for private arrays used, {refused} loops left for \
                 the budget",
                budget - left,
                PRIVATE_BUDGET - private_left
            ),
        );
    }
    count > 0
}

struct Counted {
    latch_inst: Inst,
    inside: Dest,
    outside: Dest,
    trips: u64,
}

fn int_const(f: &Function, v: Value) -> Option<u64> {
    f.dfg.iconst_value(v)
}

/// The constant `v` always holds on entering a loop: a constant, or a block parameter that
/// every edge into its block sets to the same such constant (a loop's start often reaches its
/// header through a preheader's parameter, as loop-invariant code motion leaves them, or
/// through an earlier loop's exit that this pass unrolled, folding having not run since),
/// looking `depth` parameters back at most.
fn entry_const(f: &Function, cfg: &Cfg, v: Value, depth: u32) -> Option<u64> {
    if let Some(c) = int_const(f, v) {
        return Some(c);
    }
    let ValueDef::Param(b, k) = f.dfg.value_def(v) else {
        return None;
    };
    if depth == 0 || cfg.preds(b).is_empty() {
        return None;
    }
    let mut value = None;
    for &(_, pi) in cfg.preds(b) {
        for d in f.dfg.insts[pi].op.dests().iter().filter(|d| d.block == b) {
            let a = d.args[k as usize];
            // A parameter passed back to itself (around a loop) adds no value.
            if a == v {
                continue;
            }
            let c = entry_const(f, cfg, a, depth - 1)?;
            if value.is_some_and(|x| x != c) {
                return None;
            }
            value = Some(c);
        }
    }
    value
}

/// A loop of the shape both unrollers take: one back edge (a `jump`), only the header
/// leaving, and the header deciding with `icmp cc, iv, limit` on its parameter `iv` (number
/// `k`), which steps by the constant `step` on the back edge. `then_in` says which way of the
/// header's `brif` stays in the loop.
struct Induction {
    latch_inst: Inst,
    inside: Dest,
    outside: Dest,
    /// The comparison, with the induction variable first.
    cond: Inst,
    cc: IntCC,
    iv: Value,
    k: usize,
    limit: Value,
    /// The step: `iv op step` on the back edge (`iadd` for partial unrolling).
    step_op: BinaryOp,
    step: u64,
    /// A step that is a value the loop does not change rather than a constant (`i +=
    /// get_global_size(0)`): `step` is then 0, and only partial unrolling takes the loop.
    step_value: Option<Value>,
    then_in: bool,
}

fn induction(f: &Function, cfg: &Cfg, h: Block, in_loop: &HashSet<Block>) -> Option<Induction> {
    let latch_inst = cfg.single_back_edge(h, in_loop)?;
    let Op::Jump(back_dest) = &f.dfg.insts[latch_inst].op else {
        return None;
    };
    // Only the header leaves the loop.
    for &b in in_loop {
        let t = f.terminator(b)?;
        let leaves = f.dfg.insts[t]
            .op
            .dests()
            .iter()
            .any(|d| !in_loop.contains(&d.block));
        if leaves && b != h {
            return None;
        }
    }
    let t = f.terminator(h)?;
    let Op::Brif(d) = &f.dfg.insts[t].op else {
        return None;
    };
    let (then_in, else_in) = (in_loop.contains(&d.0.block), in_loop.contains(&d.1.block));
    if then_in == else_in {
        return None;
    }
    let (inside, outside) = if then_in {
        (d.0.clone(), d.1.clone())
    } else {
        (d.1.clone(), d.0.clone())
    };
    let cond = f.dfg.insts[t].args[0];
    let ValueDef::Result(ci) = f.dfg.value_def(cond) else {
        return None;
    };
    let Op::Icmp(cc) = f.dfg.insts[ci].op else {
        return None;
    };
    let (x, y) = (f.dfg.insts[ci].args[0], f.dfg.insts[ci].args[1]);
    let is_iv = |v: Value| matches!(f.dfg.value_def(v), ValueDef::Param(b, _) if b == h);
    // The induction variable: a header parameter compared with a value from outside the
    // loop (a constant, for full unrolling).
    let (iv, limit, cc) = match (is_iv(x), is_iv(y)) {
        (true, false) => (x, y, cc),
        (false, true) => (y, x, cc.swapped()),
        _ => return None,
    };
    let invariant = |v: Value| {
        int_const(f, v).is_some()
            || match f.dfg.value_def(v) {
                ValueDef::Param(b, _) => !in_loop.contains(&b),
                ValueDef::Result(i) => f
                    .layout
                    .inst_block(i)
                    .is_some_and(|b| !in_loop.contains(&b)),
                _ => false,
            }
    };
    if !invariant(limit) {
        return None;
    }
    let ValueDef::Param(_, k) = f.dfg.value_def(iv) else {
        return None;
    };
    let k = k as usize;
    // Its step: an integer operation of `iv` and a constant on the back edge (`i + S`,
    // `i * S`, `i << S`, `i >> S`...), `S op iv` where `op` commutes.
    let next = back_dest.args[k];
    let ValueDef::Result(ni) = f.dfg.value_def(next) else {
        return None;
    };
    let (step_op, by) = match (&f.dfg.insts[ni].op, &f.dfg.insts[ni].args[..]) {
        (&Op::Binary(op), [a, b]) if *a == iv && !op.is_float() => (op, *b),
        (&Op::Binary(op @ (BinaryOp::Iadd | BinaryOp::Imul)), [a, b]) if *b == iv => (op, *a),
        _ => return None,
    };
    let (step, step_value) = match int_const(f, by) {
        Some(c) => (c, None),
        None if step_op == BinaryOp::Iadd && invariant(by) => (0, Some(by)),
        None => return None,
    };
    let ty = f.dfg.value_type(iv);
    if ty.is_vector() || !ty.is_int() {
        return None;
    }
    Some(Induction {
        latch_inst,
        inside,
        outside,
        cond: ci,
        cc,
        iv,
        k,
        limit,
        step_op,
        step,
        step_value,
        then_in,
    })
}

/// Whether a load or store in `blocks` reaches private memory at a computed offset (a
/// `ptradd` whose offset is not a constant): a private array indexed by what the loop
/// computes, which unrolling can turn into constant offsets that `mem2reg` promotes.
fn indexes_private(f: &Function, blocks: &[Block]) -> bool {
    blocks.iter().any(|&b| {
        f.layout.block_insts(b).iter().any(|&i| {
            let data = &f.dfg.insts[i];
            let addr = match data.op {
                Op::Load(fl) if fl.space == AddrSpace::Private => data.args[0],
                Op::Store(fl) if fl.space == AddrSpace::Private => data.args[1],
                _ => return false,
            };
            let ValueDef::Result(def) = f.dfg.value_def(addr) else {
                return false;
            };
            let def = &f.dfg.insts[def];
            matches!(def.op, Op::PtrAdd) && f.dfg.iconst_value(def.args[1]).is_none()
        })
    })
}

fn analyze(f: &Function, cfg: &Cfg, h: Block, blocks: &[Block]) -> Option<Counted> {
    let in_loop: HashSet<Block> = blocks.iter().copied().collect();
    let ind = induction(f, cfg, h, &in_loop)?;
    if ind.step_value.is_some() {
        return None;
    }
    let limit = int_const(f, ind.limit)?;
    let k = ind.k;
    // Its start: the same constant on every edge from outside the loop.
    let mut start = None;
    for &(p, pi) in cfg.preds(h) {
        if in_loop.contains(&p) {
            continue;
        }
        for dd in f.dfg.insts[pi].op.dests() {
            if dd.block == h {
                let c = entry_const(f, cfg, dd.args[k], 4)?;
                if start.is_some_and(|s| s != c) {
                    return None;
                }
                start = Some(c);
            }
        }
    }
    let start = start?;
    let (step, cc, then_in) = (ind.step, ind.cc, ind.then_in);
    let ty = f.dfg.value_type(ind.iv);
    let w = ty.lane_bits();
    let mask = crate::eval::mask(w);
    let holds = |i: u64| {
        let (si, sl) = (sext(i, w), sext(limit, w));
        match cc {
            IntCC::Eq => i == limit,
            IntCC::Ne => i != limit,
            IntCC::Slt => si < sl,
            IntCC::Sle => si <= sl,
            IntCC::Sgt => si > sl,
            IntCC::Sge => si >= sl,
            IntCC::Ult => i < limit,
            IntCC::Ule => i <= limit,
            IntCC::Ugt => i > limit,
            IntCC::Uge => i >= limit,
        }
    };
    let mut i = start & mask;
    let mut trips = 0;
    while holds(i) == then_in {
        trips += 1;
        if trips > MAX_TRIPS {
            return None;
        }
        // A step whose result the specification leaves undefined (a division by zero)
        // is left to the device.
        i = crate::eval::binary(ind.step_op, i, step, ty).defined()?;
    }
    Some(Counted {
        latch_inst: ind.latch_inst,
        inside: ind.inside,
        outside: ind.outside,
        trips,
    })
}

/// Replaces the loop of header `h` and blocks `blocks`, which runs `c.trips` times, by that
/// many copies of its body.
fn unroll_loop(f: &mut Function, h: Block, blocks: &[Block], c: &Counted) {
    // Layout order of the loop's blocks, so copies read like the original.
    let order = layout_order(f, |b| blocks.contains(&b));
    let header_term = f.terminator(h).expect("header ends in brif");
    // copies[0] is the original loop; copies[j] maps original blocks and values to copy j.
    let mut copies: Vec<(HashMap<Block, Block>, HashMap<Value, Value>)> =
        vec![(order.iter().map(|&b| (b, b)).collect(), HashMap::new())];
    let mut anchor = *order.last().expect("loop has blocks");
    for _ in 1..=c.trips {
        let (bmap, vmap) = copy_blocks(f, &order, anchor);
        anchor = bmap[order.last().expect("loop has blocks")];
        copies.push((bmap, vmap));
    }
    let map_val = |vmap: &HashMap<Value, Value>, v: Value| vmap.get(&v).copied().unwrap_or(v);
    for j in 0..=c.trips as usize {
        let (bmap, vmap) = &copies[j];
        let term = if j == 0 {
            header_term
        } else {
            f.terminator(bmap[&h]).expect("copied header")
        };
        let dest = if j == c.trips as usize {
            &c.outside
        } else {
            &c.inside
        };
        let d = Dest {
            block: if j == c.trips as usize {
                dest.block
            } else {
                bmap[&dest.block]
            },
            args: dest.args.iter().map(|&a| map_val(vmap, a)).collect(),
        };
        f.dfg.insts[term] = InstData::new(Op::Jump(d), &[]);
        if j < c.trips as usize {
            let latch = if j == 0 {
                c.latch_inst
            } else {
                let lb = f.layout.inst_block(c.latch_inst).expect("latch placed");
                f.terminator(bmap[&lb]).expect("copied latch")
            };
            let next_header = copies[j + 1].0[&h];
            if let Op::Jump(jd) = &mut f.dfg.insts[latch].op {
                jd.block = next_header;
            }
        }
    }
    // Uses after the loop of values from the header now read the last copy's.
    let (_, last) = &copies[c.trips as usize];
    if !last.is_empty() {
        let all_copies: HashSet<Block> = copies
            .iter()
            .flat_map(|(bm, _)| bm.values().copied())
            .collect();
        for b in f.layout.blocks().to_vec() {
            if all_copies.contains(&b) {
                continue;
            }
            for i in f.layout.block_insts(b).to_vec() {
                f.dfg.insts[i].map_args(|v| last.get(&v).copied().unwrap_or(v));
            }
        }
    }
}

/// The blocks of `f` that `keep` holds for, in layout order.
pub(crate) fn layout_order(f: &Function, keep: impl Fn(Block) -> bool) -> Vec<Block> {
    f.layout
        .blocks()
        .iter()
        .copied()
        .filter(|&b| keep(b))
        .collect()
}

/// Copies `order` (the loop's blocks) after `anchor`; returns the block and value maps.
pub(crate) fn copy_blocks(
    f: &mut Function,
    order: &[Block],
    anchor: Block,
) -> (HashMap<Block, Block>, HashMap<Value, Value>) {
    let mut bmap = HashMap::new();
    let mut vmap = HashMap::new();
    let mut after = anchor;
    for &b in order {
        let nb = f.dfg.make_block();
        f.layout.insert_block_after(nb, after);
        after = nb;
        bmap.insert(b, nb);
        for p in f.dfg.block_params(b).to_vec() {
            let ty = f.dfg.value_type(p);
            let np = f.dfg.append_block_param(nb, ty);
            vmap.insert(p, np);
        }
    }
    let mut new_insts = Vec::new();
    for &b in order {
        for i in f.layout.block_insts(b).to_vec() {
            let data = f.dfg.insts[i].clone();
            let ty = f.dfg.inst_result(i).map(|r| f.dfg.value_type(r));
            let ni = f.dfg.make_inst(data, ty);
            f.layout.append_inst(ni, bmap[&b]);
            if let (Some(r), Some(nr)) = (f.dfg.inst_result(i), f.dfg.inst_result(ni)) {
                vmap.insert(r, nr);
            }
            new_insts.push(ni);
        }
    }
    for ni in new_insts {
        let data = &mut f.dfg.insts[ni];
        data.map_args(|v| vmap.get(&v).copied().unwrap_or(v));
        for d in data.op.dests_mut() {
            if let Some(&nb) = bmap.get(&d.block) {
                d.block = nb;
            }
        }
    }
    (bmap, vmap)
}

/// How many copies of a loop body [`partial`] makes.
pub const PARTIAL_FACTOR: u64 = 4;
/// The most instructions a loop may hold for [`partial`] to copy it.
pub const PARTIAL_MAX_INSTS: usize = 120;

/// Partial unrolling of innermost counted loops whose trip count is not known (or too large
/// to unroll fully), for devices where a loop's own instructions (the test, the branch, the
/// induction variable) cost as much as its work: a GPU, which neither `ptxas` nor the driver
/// unrolls for.
///
/// A loop `for (i = s; i < n; i += c)` (`<`, `<=`, signed or unsigned, `n` invariant; `c` a
/// positive constant, or a value the loop does not change, as a grid-stride loop's
/// `get_global_size(0)`) gets a main loop in front of it, which runs [`PARTIAL_FACTOR`] copies
/// of the body in a row while at least that many iterations are left (its header checks the
/// loop's own test and that `n - i` exceeds `(F - 1) c`, and for a value `c` that `1 <= c <=
/// 2^(w-4)`, so that `(F - 1) c` cannot wrap), and otherwise passes its state to the original
/// loop, which runs the rest. `n - i` is computed wrapping: where it wraps (a difference beyond the
/// type's signed range) the check fails and the original loop runs, so the check never admits
/// an iteration the loop would not run.
pub fn partial(m: &mut Module) {
    partial_changed(m);
}

/// [`partial`]; whether it unrolled any loop.
pub fn partial_changed(m: &mut Module) -> bool {
    let mut changed = false;
    for (_, f) in m.funcs.iter_mut() {
        if !f.is_declaration() {
            changed |= partial_fn(f);
        }
    }
    changed
}

fn partial_fn(f: &mut Function) -> bool {
    let mut done: HashSet<Block> = HashSet::new();
    let mut changed = false;
    for _ in 0..64 {
        let cfg = Cfg::new(f);
        let dom = DomTree::new(f, &cfg);
        let loops = LoopInfo::new(&cfg, &dom);
        let innermost = |i: usize| !loops.loops.iter().any(|l| l.parent == Some(i));
        let candidates: Vec<usize> = (0..loops.loops.len())
            .filter(|&i| innermost(i) && !done.contains(&loops.loops[i].header))
            .collect();
        let mut next = None;
        for i in candidates {
            let l = &loops.loops[i];
            done.insert(l.header);
            next = try_partial(f, &cfg, l.header, &l.blocks);
            if next.is_some() {
                break;
            }
        }
        match next {
            Some(new_headers) => {
                done.extend(new_headers);
                changed = true;
            }
            None => break,
        }
    }
    changed
}

/// Puts the main loop in front of the loop at `h`; returns the main loop's headers.
fn try_partial(f: &mut Function, cfg: &Cfg, h: Block, blocks: &[Block]) -> Option<Vec<Block>> {
    let in_loop: HashSet<Block> = blocks.iter().copied().collect();
    let ind = induction(f, cfg, h, &in_loop)?;
    let size: usize = blocks.iter().map(|&b| f.layout.block_insts(b).len()).sum();
    let w = f.dfg.value_type(ind.iv).lane_bits();
    let span = (PARTIAL_FACTOR - 1).checked_mul(ind.step)?;
    // The loop runs while `iv < limit` (or `<=`), stepping up by a small constant.
    let (strict, signed) = match (ind.cc, ind.then_in) {
        (IntCC::Slt, true) | (IntCC::Sge, false) => (true, true),
        (IntCC::Sle, true) | (IntCC::Sgt, false) => (false, true),
        (IntCC::Ult, true) | (IntCC::Uge, false) => (true, false),
        (IntCC::Ule, true) | (IntCC::Ugt, false) => (false, false),
        _ => return None,
    };
    // A constant step: `span` fits well inside the type's signed range. A step the loop
    // does not change is checked when the main loop runs (`step_ok` below).
    let small = ind.step_op == BinaryOp::Iadd
        && (ind.step_value.is_some() || (ind.step >= 1 && span < 1 << (w.min(32) - 2)));
    if !small || size > PARTIAL_MAX_INSTS || f.dfg.block_params(h).is_empty() {
        return None;
    }
    // Also leave loops whose trip count is a small constant (full unrolling's).
    if analyze(f, cfg, h, blocks).is_some() {
        return None;
    }
    let order = layout_order(f, |b| in_loop.contains(&b));
    let latch_block = f.layout.inst_block(ind.latch_inst)?;
    // The copies go before the original loop, in layout order.
    let at = f.layout.blocks().iter().position(|&b| b == h)?;
    let mut anchor = *f.layout.blocks().get(at.checked_sub(1)?)?;
    let mut copies = Vec::new();
    for _ in 0..PARTIAL_FACTOR {
        let (bmap, vmap) = copy_blocks(f, &order, anchor);
        anchor = bmap[order.last()?];
        copies.push((bmap, vmap));
    }
    let map = |vmap: &HashMap<Value, Value>, v: Value| vmap.get(&v).copied().unwrap_or(v);
    let ty = f.dfg.value_type(ind.iv);
    for (j, (bmap, vmap)) in copies.iter().enumerate() {
        let header = bmap[&h];
        let term = f.terminator(header)?;
        let inside = Dest {
            block: bmap[&ind.inside.block],
            args: ind.inside.args.iter().map(|&a| map(vmap, a)).collect(),
        };
        if j == 0 {
            // The loop's own test and at least F iterations left: `limit - iv > span` (`>=`
            // for `<=` loops), compared as the loop compares.
            let iv = map(vmap, ind.iv);
            let cond = map(vmap, f.dfg.inst_result(ind.cond)?);
            let left = f.dfg.make_inst(
                InstData::new(Op::Binary(BinaryOp::Isub), &[ind.limit, iv]),
                Some(ty),
            );
            let mut made = Vec::new();
            let mut inst = |f: &mut Function, op: Op, args: &[Value], ty| {
                let i = f.dfg.make_inst(InstData::new(op, args), Some(ty));
                made.push(i);
                f.dfg.inst_result(i)
            };
            // (F - 1) steps, and for a step that is a value, whether it lies in 1..=2^(w-4)
            // (w at most 32), so that the span stays as far inside the signed range as a
            // constant step's must: `step - 1 <u 2^(w-4)`.
            let (span_val, step_ok) = match ind.step_value {
                None => (inst(f, Op::Iconst(span), &[], ty)?, None),
                Some(sv) => {
                    let factor = inst(f, Op::Iconst(PARTIAL_FACTOR - 1), &[], ty)?;
                    let span_val = inst(f, Op::Binary(BinaryOp::Imul), &[sv, factor], ty)?;
                    let one = inst(f, Op::Iconst(1), &[], ty)?;
                    let bound = inst(f, Op::Iconst(1 << (w.min(32) - 4)), &[], ty)?;
                    let less = inst(f, Op::Binary(BinaryOp::Isub), &[sv, one], ty)?;
                    let i1 = crate::types::Type::I1;
                    (
                        span_val,
                        Some(inst(f, Op::Icmp(IntCC::Ult), &[less, bound], i1)?),
                    )
                }
            };
            for &i in &made {
                f.layout.insert_inst_before(i, term);
            }
            let cc = match (strict, signed) {
                (true, true) => IntCC::Sgt,
                (false, true) => IntCC::Sge,
                (true, false) => IntCC::Ugt,
                (false, false) => IntCC::Uge,
            };
            let left_v = f.dfg.inst_result(left)?;
            let enough = f.dfg.make_inst(
                InstData::new(Op::Icmp(cc), &[left_v, span_val]),
                Some(crate::types::Type::I1),
            );
            let test = match ind.then_in {
                true => cond,
                false => {
                    let one = f.dfg.make_inst(
                        InstData::new(Op::Iconst(1), &[]),
                        Some(crate::types::Type::I1),
                    );
                    let one_v = f.dfg.inst_result(one)?;
                    f.layout.insert_inst_before(one, term);
                    let not = f.dfg.make_inst(
                        InstData::new(Op::Binary(BinaryOp::Bxor), &[cond, one_v]),
                        Some(crate::types::Type::I1),
                    );
                    f.layout.insert_inst_before(not, term);
                    f.dfg.inst_result(not)?
                }
            };
            let mut enough_v = f.dfg.inst_result(enough)?;
            f.layout.insert_inst_before(left, term);
            f.layout.insert_inst_before(enough, term);
            if let Some(ok) = step_ok {
                let and = f.dfg.make_inst(
                    InstData::new(Op::Binary(BinaryOp::Band), &[enough_v, ok]),
                    Some(crate::types::Type::I1),
                );
                f.layout.insert_inst_before(and, term);
                enough_v = f.dfg.inst_result(and)?;
            }
            let both = f.dfg.make_inst(
                InstData::new(Op::Binary(BinaryOp::Band), &[test, enough_v]),
                Some(crate::types::Type::I1),
            );
            f.layout.insert_inst_before(both, term);
            // Otherwise the original loop, from the main loop's state.
            let params = f.dfg.block_params(header).to_vec();
            let rest = Dest {
                block: h,
                args: params,
            };
            let both_v = f.dfg.inst_result(both)?;
            f.dfg.insts[term] = InstData::new(Op::Brif(Box::new((inside, rest))), &[both_v]);
        } else {
            f.dfg.insts[term] = InstData::new(Op::Jump(inside), &[]);
        }
        // Each copy's back edge goes to the next copy's header, the last one's to the first.
        let latch = f.terminator(bmap[&latch_block])?;
        let next = copies[(j + 1) % copies.len()].0[&h];
        if let Op::Jump(d) = &mut f.dfg.insts[latch].op {
            d.block = next;
        }
    }
    // The edges into the loop from outside now enter the main loop.
    let first = copies[0].0[&h];
    for &(p, pi) in cfg.preds(h) {
        if in_loop.contains(&p) {
            continue;
        }
        for d in f.dfg.insts[pi].op.dests_mut() {
            if d.block == h {
                d.block = first;
            }
        }
    }
    Some(copies.iter().map(|(bmap, _)| bmap[&h]).collect())
}

/// The counter of the counted loop at header `h` as [`partial`] would take it: the header's
/// parameter that the loop steps by 1 and compares with a value it does not change, and
/// whether it compares it as signed. `None` where [`partial_loop`] would not take the loop
/// or its step is not 1.
pub fn unit_counter(f: &Function, h: Block) -> Option<(Value, bool)> {
    let cfg = Cfg::new(f);
    let dom = DomTree::new(f, &cfg);
    let loops = LoopInfo::new(&cfg, &dom);
    let l = loops.loops.iter().find(|l| l.header == h)?;
    let in_loop: HashSet<Block> = l.blocks.iter().copied().collect();
    let ind = induction(f, &cfg, h, &in_loop)?;
    if ind.step_op != BinaryOp::Iadd || ind.step != 1 || ind.step_value.is_some() {
        return None;
    }
    let signed = match (ind.cc, ind.then_in) {
        (IntCC::Slt | IntCC::Sle, true) | (IntCC::Sge | IntCC::Sgt, false) => true,
        (IntCC::Ult | IntCC::Ule, true) | (IntCC::Uge | IntCC::Ugt, false) => false,
        _ => return None,
    };
    Some((ind.iv, signed))
}

/// [`partial`] for the one loop at header `h`: its main loop's headers, one per copy of the
/// body in the order they run, or `None` where it does not take the loop. In the main loop,
/// copy `k`'s counter is the first copy's plus `k` steps, and all [`PARTIAL_FACTOR`] of them
/// lie inside the loop's range (compared as the loop compares).
pub fn partial_loop(f: &mut Function, h: Block) -> Option<Vec<Block>> {
    let cfg = Cfg::new(f);
    let dom = DomTree::new(f, &cfg);
    let loops = LoopInfo::new(&cfg, &dom);
    let blocks = loops.loops.iter().find(|l| l.header == h)?.blocks.clone();
    try_partial(f, &cfg, h, &blocks)
}
