//! Loops in which each lane reads a run of consecutive elements of its own: `r[j]`, where
//! `r` differs by lane (a matrix row per work-item) and `j` is the loop's counter. Vectorized
//! as it stands, each trip gathers one element per lane, a load and an insert per lane for
//! one element each. Unrolled by [`PARTIAL_FACTOR`] first (`passes::unroll::partial_loop`),
//! the main loop's copies read elements `j .. j + 3` of each lane's run; the copies' loads
//! are then given to the emitter as OpenCL vector accesses of 8 bytes or less (two `float`s,
//! four `short`s or `uchar`s), which it gathers one whole vector per lane and regroups by
//! shuffles (`vector_gather`): half the loads and inserts for `float`, a quarter for
//! `short`. The summation order stays the kernel's: each copy is one trip of the loop.
//!
//! Only a loop of two blocks (its header and one body) without stores, atomics, barriers or
//! calls, that leaves uniformly and counts up by 1, is taken; nothing moves past a write.

use std::collections::{HashMap, HashSet};

use ferrocl_ir::passes::dce::simplify_function;
use ferrocl_ir::passes::unroll::{partial_loop, unit_counter, PARTIAL_FACTOR};
use ferrocl_ir::{
    AddrSpace, BinaryOp, Block, ConvOp, Function, Inst, InstData, MemFlags, Op, Type, Value,
    ValueDef,
};

use super::shape::Shape;

static RUNS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How many loops this process unrolled to load runs several elements at a time: a test that
/// runs kernels shows whether any reached that code.
pub fn runs_count() -> u64 {
    RUNS.load(std::sync::atomic::Ordering::Relaxed)
}

/// `func` with its loops that read runs of their own per lane unrolled (`p`: `func` prepared
/// for chunks of some width), the groups of loads that the emitter may take as vector
/// accesses, each in layout order, and how many loops have some; `None` where no loop has.
pub(super) fn unroll(
    func: &Function,
    p: &super::emit::Prepared,
) -> Option<(Function, Vec<Vec<Inst>>, usize)> {
    let (prepared, loops, shapes) = (&p.src, &p.loops, &p.shapes);
    let innermost = |i: usize| !loops.loops.iter().any(|l| l.parent == Some(i));
    // Each loop to unroll, with the runs it reads whose lanes' runs lie apart.
    let mut taken: Vec<(Block, HashSet<Key>)> = Vec::new();
    for l in (0..loops.loops.len())
        .filter(|&i| innermost(i))
        .map(|i| &loops.loops[i])
    {
        let [h, body] = l.blocks[..] else {
            continue;
        };
        let ends = [prepared.terminator(h), prepared.terminator(body)];
        let quiet = [h, body]
            .iter()
            .flat_map(|&b| prepared.layout.block_insts(b))
            .all(|&i| !prepared.dfg.insts[i].op.has_side_effects() || ends.contains(&Some(i)));
        let Some((iv, signed)) = unit_counter(func, h) else {
            continue;
        };
        if !quiet || shapes.is_divergent(h) {
            continue;
        }
        let inside = |v: Value| block_of(func, v).is_some_and(|b| b == h || b == body);
        let keys: HashSet<Key> = func
            .layout
            .block_insts(body)
            .iter()
            .filter_map(|&i| {
                let s = stream(func, i, iv, signed, &inside)?;
                let q = func.dfg.insts[i].args[0];
                (s.copy == 0 && spread(shapes.of(q), s.bytes)).then_some(s.key)
            })
            .collect();
        if !keys.is_empty() {
            taken.push((h, keys));
        }
    }
    if taken.is_empty() {
        return None;
    }
    let mut f = func.clone();
    let func = &mut f;
    let (mut groups, mut runs) = (Vec::new(), 0);
    for (h, keys) in taken {
        let Some((iv, signed)) = unit_counter(func, h) else {
            continue;
        };
        let Some(copies) = partial_loop(func, h) else {
            continue;
        };
        simplify_function(func);
        // The copies' headers but the first merged into the body before them: the main loop
        // is its first header and one body block.
        let main = copies[0];
        let Some(body) = func
            .terminator(main)
            .and_then(|t| func.dfg.insts[t].op.dests().first().map(|d| d.block))
        else {
            continue;
        };
        let back = func.terminator(body).map(|t| &func.dfg.insts[t].op);
        if !matches!(back, Some(Op::Jump(d)) if d.block == main) {
            continue;
        }
        let iv0 = func.dfg.block_params(main)[param_index(func, h, iv)];
        let found = group(func, main, body, iv0, signed, &keys);
        runs += usize::from(!found.is_empty());
        groups.extend(found);
    }
    if groups.is_empty() {
        return None;
    }
    RUNS.fetch_add(runs as u64, std::sync::atomic::Ordering::Relaxed);
    Some((f, groups, runs))
}

/// The block that defines `v`.
fn block_of(f: &Function, v: Value) -> Option<Block> {
    match f.dfg.value_def(v) {
        ValueDef::Result(i) => f.layout.inst_block(i),
        ValueDef::Param(b, _) => Some(b),
        _ => None,
    }
}

/// The position of parameter `v` among header `h`'s.
fn param_index(f: &Function, h: Block, v: Value) -> usize {
    f.dfg
        .block_params(h)
        .iter()
        .position(|&p| p == v)
        .expect("the counter is a header parameter")
}

/// Whether lanes whose addresses have shape `shape` read runs of `bytes` elements apart from
/// each other, so that each lane's few elements are a load of its own: addresses that differ
/// by lane and are not consecutive (`a[lane + j]` loads whole vectors as it is).
fn spread(shape: Shape, bytes: u32) -> bool {
    match shape {
        Shape::Varying => true,
        Shape::Affine { stride, .. } => stride.unsigned_abs() > 4 * u64::from(bytes),
        Shape::Uniform | Shape::Unknown => false,
    }
}

/// What the loads of one run share: the base pointer, the index the counter is added to
/// (if any), and the element type.
type Key = (Value, Option<Value>, Type);

/// A load of element `counter + copy` of a run.
struct Stream {
    key: Key,
    bytes: u32,
    copy: u64,
    flags: MemFlags,
}

/// Load `i` as a [`Stream`] of counter `iv` (compared as signed where `signed`): at
/// `ptradd(base, (start + x) * bytes)` or `ptradd(base, x * bytes)`, `base` and `start`
/// defined outside the loop (`inside` tells the loop's values), `x` the counter plus a few
/// 1 steps, extended to 64 bits as the loop compares (the front end splits a signed
/// `row * n + j` into the extensions of its terms; an unsigned one may wrap, and is not
/// taken).
fn stream(
    f: &Function,
    i: Inst,
    iv: Value,
    signed: bool,
    inside: &dyn Fn(Value) -> bool,
) -> Option<Stream> {
    let data = &f.dfg.insts[i];
    let Op::Load(flags) = data.op else {
        return None;
    };
    let ty = f.dfg.value_type(f.dfg.inst_result(i)?);
    let readable = matches!(
        flags.space,
        AddrSpace::Global | AddrSpace::Constant | AddrSpace::Local
    );
    if flags.volatile || ty.is_vector() || ty.is_ptr() || !readable {
        return None;
    }
    let bytes = ty.bytes();
    let (base, off) = as_binary(f, data.args[0], |op| *op == Op::PtrAdd)?;
    if inside(base) {
        return None;
    }
    // `x * bytes`, `x << log2(bytes)`, or `x` for bytes.
    let x = match result_of(f, off) {
        Some((Op::Binary(BinaryOp::Imul), &[a, b])) => {
            match (f.dfg.iconst_value(a), f.dfg.iconst_value(b)) {
                (_, Some(c)) if c == u64::from(bytes) => a,
                (Some(c), _) if c == u64::from(bytes) => b,
                _ => return None,
            }
        }
        Some((Op::Binary(BinaryOp::Shl), &[a, b]))
            if f.dfg.iconst_value(b) == Some(u64::from(bytes.trailing_zeros())) =>
        {
            a
        }
        _ if bytes == 1 => off,
        _ => return None,
    };
    let x = f.dfg.resolve(x);
    // The counter itself, or `start + x` with `start` from outside the loop.
    let (start, copy) = match steps(f, x, iv, signed) {
        Some(copy) => (None, copy),
        None => {
            let (a, b) = as_binary(f, x, |op| *op == Op::Binary(BinaryOp::Iadd))?;
            let (start, x) = match (inside(a), inside(b)) {
                (false, true) => (a, b),
                (true, false) => (b, a),
                _ => return None,
            };
            (Some(start), steps(f, x, iv, signed)?)
        }
    };
    Some(Stream {
        key: (base, start, ty),
        bytes,
        copy,
        flags,
    })
}

/// How many 1 steps `x` is past counter `iv`, extended to `x`'s width as the loop compares
/// (which is exact over the main loop's range).
fn steps(f: &Function, x: Value, iv: Value, signed: bool) -> Option<u64> {
    let narrow = f.dfg.value_type(iv) != f.dfg.value_type(x);
    let mut y = match result_of(f, x) {
        Some((Op::Convert(ConvOp::Sext), &[y])) if narrow && signed => f.dfg.resolve(y),
        Some((Op::Convert(ConvOp::Zext), &[y])) if narrow && !signed => f.dfg.resolve(y),
        _ if !narrow => x,
        _ => return None,
    };
    let mut copy = 0;
    while y != iv {
        let (a, b) = as_binary(f, y, |op| *op == Op::Binary(BinaryOp::Iadd))?;
        y = match (f.dfg.iconst_value(a), f.dfg.iconst_value(b)) {
            (_, Some(1)) => a,
            (Some(1), _) => b,
            _ => return None,
        };
        copy += 1;
        if copy >= PARTIAL_FACTOR {
            return None;
        }
    }
    Some(copy)
}

/// The operation and operands of the instruction that defines `v`.
fn result_of(f: &Function, v: Value) -> Option<(&Op, &[Value])> {
    match f.dfg.value_def(f.dfg.resolve(v)) {
        ValueDef::Result(i) => Some((&f.dfg.insts[i].op, &f.dfg.insts[i].args[..])),
        _ => None,
    }
}

/// The two operands of `v`'s instruction where its operation passes `is`.
fn as_binary(f: &Function, v: Value, is: impl Fn(&Op) -> bool) -> Option<(Value, Value)> {
    match result_of(f, v)? {
        (op, &[a, b]) if is(op) => Some((f.dfg.resolve(a), f.dfg.resolve(b))),
        _ => None,
    }
}

/// The groups of the main loop's body block `body` (header `main`, counter `iv0`): for
/// each run of `keys` whose copies each load one element, groups of `n` neighbouring copies (`n`
/// elements of at most 8 bytes together), the later ones' addresses rewritten as the
/// group's first plus constants, and the first's as copy 0's plus a constant, the form the
/// emitter takes for an OpenCL vector's components. Exact: in the main loop, each copy's
/// counter lies inside the loop's range, where the extension of `counter + k` is the
/// extension of `counter` plus `k`.
fn group(
    f: &mut Function,
    main: Block,
    body: Block,
    iv0: Value,
    signed: bool,
    keys: &HashSet<Key>,
) -> Vec<Vec<Inst>> {
    let inside = |v: Value| block_of(f, v).is_some_and(|b| b == main || b == body);
    let mut by_key: HashMap<Key, Vec<(Inst, Stream)>> = HashMap::new();
    let mut order = Vec::new();
    for &i in f.layout.block_insts(body) {
        if let Some(s) = stream(f, i, iv0, signed, &inside) {
            if !keys.contains(&s.key) {
                continue;
            }
            if !by_key.contains_key(&s.key) {
                order.push(s.key);
            }
            by_key.entry(s.key).or_default().push((i, s));
        }
    }
    let mut groups = Vec::new();
    for key in order {
        let loads = &by_key[&key];
        let bytes = loads[0].1.bytes;
        let n = (8 / bytes).min(PARTIAL_FACTOR as u32) as u64;
        let one_each = (0..PARTIAL_FACTOR)
            .all(|k| loads.iter().filter(|(_, s)| s.copy == k).count() == 1)
            && loads.len() as u64 == PARTIAL_FACTOR;
        let same_flags = loads.iter().all(|(_, s)| s.flags == loads[0].1.flags);
        // In layout order: copy k's load before copy k + 1's.
        let ordered = loads
            .iter()
            .enumerate()
            .all(|(k, (_, s))| s.copy == k as u64);
        if n < 2 || !one_each || !same_flags || !ordered {
            continue;
        }
        let insts: Vec<Inst> = loads.iter().map(|&(i, _)| i).collect();
        let first = f.dfg.insts[insts[0]].args[0];
        for start in (0..PARTIAL_FACTOR).step_by(n as usize) {
            let mut at = first;
            for k in start..start + n {
                let load = insts[k as usize];
                if k > 0 {
                    let from = if k == start { first } else { at };
                    let by = if k == start { k } else { k - start };
                    let offset = f.dfg.make_inst(
                        InstData::new(Op::Iconst(by * u64::from(bytes)), &[]),
                        Some(Type::I64),
                    );
                    f.layout.insert_inst_before(offset, load);
                    let offset = f.dfg.inst_result(offset).expect("a constant has a result");
                    let add = f.dfg.make_inst(
                        InstData::new(Op::PtrAdd, &[from, offset]),
                        Some(f.dfg.value_type(first)),
                    );
                    f.layout.insert_inst_before(add, load);
                    let q = f.dfg.inst_result(add).expect("an addition has a result");
                    f.dfg.insts[load].args[0] = q;
                    if k == start {
                        at = q;
                    }
                }
            }
            groups.push(insts[start as usize..(start + n) as usize].to_vec());
        }
    }
    groups
}
