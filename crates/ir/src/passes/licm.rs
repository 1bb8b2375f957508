//! Loop-invariant code motion: pure instructions of a natural loop whose operands are all
//! defined outside it (or by instructions already hoisted) move to the loop's preheader,
//! created where the header has no single outside predecessor that jumps to it alone.
//!
//! Integer division and remainder stay where they are: hoisted out of a guarded path they
//! would run for divisors the program never divides by, and while OpenCL C gives them an
//! unspecified value rather than a trap (6.5.1), a backend is free to lower them to
//! trapping machine instructions guarded by the original control flow.
//! Loops are processed innermost first, so invariants move out of a whole nest.
//!
//! A plain (non-volatile) load in the loop's header from an invariant address moves too when
//! nothing in the loop writes memory or synchronizes (no store, atomic, fence, barrier,
//! collective or call): the header runs each time the loop is entered, before anything else
//! in it, so the load runs where it first ran, and no later trip could read anything else
//! (another work-item's write to it without synchronization would be a data race). The bound
//! of `for (k = rowptr[r]; k < rowptr[r + 1]; k++)` is then read once. A load from
//! `__constant` memory, which nothing writes while a kernel runs, moves from the header of a
//! loop that writes other memory too.
//!
//! A trusted `__private` store in the header (the CPU device's work-group transform writing
//! a value every work-item shares to its context, in the loop over a region's chunks) of an
//! invariant value to an invariant address moves too, where nothing else in the loop reaches
//! private memory but trusted accesses at other offsets of the same base, and nothing calls:
//! the header runs each time the loop is entered, so the store ran there before any trip
//! could leave, and every later trip wrote the same bytes again. A scan's loop over chunks
//! wrote its three shared values in every chunk.

use std::collections::HashSet;

use crate::analysis::{Cfg, DomTree, LoopInfo};
use crate::entity::{Block, Inst, Value};
use crate::function::Function;
use crate::inst::{BinaryOp, Dest, InstData, Op};
use crate::module::Module;

/// Runs LICM on every function.
pub fn run(m: &mut Module) {
    for (_, f) in m.funcs.iter_mut() {
        if !f.is_declaration() {
            licm(f);
        }
    }
}

fn hoistable(op: &Op) -> bool {
    op.is_pure()
        && !matches!(
            op,
            Op::Binary(BinaryOp::Sdiv | BinaryOp::Udiv | BinaryOp::Srem | BinaryOp::Urem)
        )
}

/// The preheader of the loop headed by `h`; if it has none, one is created and `Err`
/// returned, as the CFG changed and the analyses must be recomputed.
fn preheader(f: &mut Function, cfg: &Cfg, h: Block, blocks: &[Block]) -> Result<Block, ()> {
    let outside: Vec<(Block, Inst)> = cfg
        .preds(h)
        .iter()
        .copied()
        .filter(|(p, _)| !blocks.contains(p))
        .collect();
    if let [(p, t)] = outside[..] {
        if matches!(f.dfg.insts[t].op, Op::Jump(_)) {
            return Ok(p);
        }
    }
    let ph = f.dfg.make_block();
    let mut params = Vec::new();
    for &p in f.dfg.block_params(h).to_vec().iter() {
        let ty = f.dfg.value_type(p);
        params.push(f.dfg.append_block_param(ph, ty));
    }
    let pos = f
        .layout
        .blocks()
        .iter()
        .position(|&b| b == h)
        .expect("header placed");
    let before = f.layout.blocks()[pos - 1];
    f.layout.insert_block_after(ph, before);
    f.append_inst(
        ph,
        InstData::new(Op::Jump(Dest::new(h, &params)), &[]),
        None,
    );
    for (_, t) in outside {
        for d in f.dfg.insts[t].op.dests_mut() {
            if d.block == h {
                d.block = ph;
            }
        }
    }
    Err(())
}

/// Hoists loop invariants in `f`; returns whether anything moved or a preheader was made.
pub fn licm(f: &mut Function) -> bool {
    let mut changed = false;
    // Make preheaders first; each creation changes the CFG.
    'again: for _ in 0..10_000 {
        let cfg = Cfg::new(f);
        let dom = DomTree::new(f, &cfg);
        let loops = LoopInfo::new(&cfg, &dom);
        for l in &loops.loops {
            if preheader(f, &cfg, l.header, &l.blocks).is_err() {
                changed = true;
                continue 'again;
            }
        }
        break;
    }
    let cfg = Cfg::new(f);
    let dom = DomTree::new(f, &cfg);
    let loops = LoopInfo::new(&cfg, &dom);
    for l in loops.loops.iter().rev() {
        let Ok(ph) = preheader(f, &cfg, l.header, &l.blocks) else {
            unreachable!("preheaders were made above")
        };
        let in_loop: HashSet<Block> = l.blocks.iter().copied().collect();
        let mut defined: HashSet<Value> = HashSet::new();
        for &b in &l.blocks {
            defined.extend(f.dfg.block_params(b).iter().copied());
            for &i in f.layout.block_insts(b) {
                defined.extend(f.dfg.inst_result(i));
            }
        }
        // Whether any instruction of the loop writes memory or synchronizes.
        let writes = l.blocks.iter().any(|&b| {
            f.layout.block_insts(b).iter().any(|&i| {
                let op = &f.dfg.insts[i].op;
                op.has_side_effects() && !op.is_terminator()
            })
        });
        let order: Vec<Block> = dom
            .rpo()
            .iter()
            .copied()
            .filter(|b| in_loop.contains(b))
            .collect();
        for b in order {
            for i in f.layout.block_insts(b).to_vec() {
                let data = &f.dfg.insts[i];
                let invariant_load = b == l.header
                    && matches!(data.op, Op::Load(flags) if !flags.volatile)
                    && (!writes || reads_constant(f, data.args[0]));
                if !(hoistable(&data.op) || invariant_load)
                    || data.args.iter().any(|a| defined.contains(a))
                {
                    continue;
                }
                let Some(r) = f.dfg.inst_result(i) else {
                    continue;
                };
                let term = f.terminator(ph).expect("preheader ends in a jump");
                f.layout.remove_inst(i);
                f.layout.insert_inst_before(i, term);
                defined.remove(&r);
                changed = true;
            }
        }
        for i in shared_stores(f, &l.blocks, l.header, &defined) {
            let term = f.terminator(ph).expect("preheader ends in a jump");
            f.layout.remove_inst(i);
            f.layout.insert_inst_before(i, term);
            changed = true;
        }
    }
    changed
}

/// Whether the load address `p` is in the `__constant` address space, which no work-item
/// writes (OpenCL C 3.0, 6.7.3: it holds "read-only variables", and "It is illegal to write
/// to a variable in the constant address space"), and the host writes the buffer behind a
/// `__constant` argument only between commands. A
/// load from it at an invariant address reads the same value in every trip of a loop that
/// stores elsewhere: a 5x5 filter's 25 weights, read once rather than in each chunk.
fn reads_constant(f: &Function, p: Value) -> bool {
    f.dfg.value_type(p).addr_space() == Some(crate::types::AddrSpace::Constant)
}

/// Where a private access is: `base + offset + coeff * scale` bytes, `scale` a value known
/// to be at least 1 (a product of local sizes: the work-group transform's context holds each
/// value it keeps per work-item in a slot of 8 bytes times the group's size).
#[derive(Clone, Copy, PartialEq)]
struct Place {
    base: Value,
    offset: i128,
    scaled: Option<(Value, i128)>,
    size: i128,
}

/// Whether `v` is a product of local sizes (at least 1).
fn positive(f: &Function, v: Value) -> bool {
    match f.dfg.value_def(f.dfg.resolve(v)) {
        crate::dfg::ValueDef::Result(i) => match &f.dfg.insts[i].op {
            Op::WorkItem(crate::inst::WorkItemOp::LocalSize, _)
            | Op::WorkItem(crate::inst::WorkItemOp::EnqueuedLocalSize, _) => true,
            Op::Binary(BinaryOp::Imul) => {
                let a = &f.dfg.insts[i].args;
                positive(f, a[0]) && positive(f, a[1])
            }
            _ => false,
        },
        _ => false,
    }
}

/// Private address `p` accessed for `size` bytes as a [`Place`]: through `ptradd`s of
/// constants and of a constant times a product of local sizes.
fn place(f: &Function, p: Value, size: u32) -> Place {
    let (mut v, mut offset, mut scaled) = (f.dfg.resolve(p), 0i128, None);
    while let crate::dfg::ValueDef::Result(i) = f.dfg.value_def(v) {
        let data = &f.dfg.insts[i];
        if data.op != Op::PtrAdd {
            break;
        }
        let o = f.dfg.resolve(data.args[1]);
        if let Some(c) = f.dfg.iconst_value(o) {
            offset += i128::from(c as i64);
        } else {
            let term = match f.dfg.value_def(o) {
                crate::dfg::ValueDef::Result(j)
                    if f.dfg.insts[j].op == Op::Binary(BinaryOp::Imul) =>
                {
                    let (a, b) = (f.dfg.insts[j].args[0], f.dfg.insts[j].args[1]);
                    match (f.dfg.iconst_value(a), f.dfg.iconst_value(b)) {
                        (Some(c), None) if positive(f, b) => Some((f.dfg.resolve(b), c as i64)),
                        (None, Some(c)) if positive(f, a) => Some((f.dfg.resolve(a), c as i64)),
                        _ => None,
                    }
                }
                _ => None,
            };
            match (term, scaled) {
                (Some((s, c)), None) => scaled = Some((s, i128::from(c))),
                _ => break,
            }
        }
        v = f.dfg.resolve(data.args[0]);
    }
    Place {
        base: v,
        offset,
        scaled,
        size: i128::from(size),
    }
}

/// Whether two places cannot overlap: the same base, and their offsets apart by at least
/// the lower one's size for every scale of at least 1 (scaled terms of one scale).
fn disjoint(a: Place, b: Place) -> bool {
    if a.base != b.base {
        return false;
    }
    let (sa, ca) = a.scaled.map_or((None, 0), |(s, c)| (Some(s), c));
    let (sb, cb) = b.scaled.map_or((None, 0), |(s, c)| (Some(s), c));
    if sa.is_some() && sb.is_some() && sa != sb {
        return false;
    }
    // The lower one at the scale's least value 1, its distance growing with the scale.
    let (lo, hi, dc) = if ca <= cb {
        (a, b, cb - ca)
    } else {
        (b, a, ca - cb)
    };
    let gap = hi.offset - lo.offset;
    if dc == 0 {
        return gap >= lo.size || -gap >= hi.size;
    }
    gap + dc >= lo.size
}

/// The stores of header `h` of the loop of `blocks` that move to its preheader (the module
/// documentation's trusted private stores), in order; `defined` holds the values the loop
/// defines.
fn shared_stores(f: &Function, blocks: &[Block], h: Block, defined: &HashSet<Value>) -> Vec<Inst> {
    // Every private access of the loop: its instruction, base, offset and size, and whether
    // it is a trusted one (`None` for one whose place is unknown: a call, an atomic).
    let mut accesses: Vec<(Inst, Option<Place>, bool)> = Vec::new();
    for &b in blocks {
        for &i in f.layout.block_insts(b) {
            let data = &f.dfg.insts[i];
            let (flags, p, ty) = match &data.op {
                Op::Load(m) => (
                    m,
                    data.args[0],
                    f.dfg.inst_result(i).map(|r| f.dfg.value_type(r)),
                ),
                Op::Store(m) => (m, data.args[1], Some(f.dfg.value_type(data.args[0]))),
                op if op.has_side_effects() && !op.is_terminator() => match op {
                    Op::Fence(..) | Op::Barrier(..) => continue,
                    _ => {
                        accesses.push((i, None, false));
                        continue;
                    }
                },
                _ => continue,
            };
            if flags.space != crate::types::AddrSpace::Private {
                continue;
            }
            let at = ty.map(|t| place(f, p, t.bytes()));
            accesses.push((i, at, flags.trusted && !flags.volatile));
        }
    }
    f.layout
        .block_insts(h)
        .iter()
        .copied()
        .filter(|&i| {
            let data = &f.dfg.insts[i];
            let Op::Store(m) = &data.op else {
                return false;
            };
            let mine = accesses.iter().find(|a| a.0 == i).and_then(|a| a.1);
            let (Some(at), true) = (mine, m.trusted && !m.volatile) else {
                return false;
            };
            data.args
                .iter()
                .all(|a| !defined.contains(&f.dfg.resolve(*a)))
                && accesses.iter().all(|&(j, other, trusted)| {
                    j == i || (trusted && other.is_some_and(|o| disjoint(at, o)))
                })
        })
        .collect()
}
