//! The work-group transform: a kernel (IR for one work-item) becomes a work-group function
//! (IR for the whole work-group), before instruction selection (../DESIGN.md, decision 4).
//!
//! The kernel is cut at every barrier and collective (`liveness::splits_regions`) into
//! regions: a region starts at the kernel's entry or just after a barrier and holds every
//! block reachable from there without passing another barrier. Each region becomes a loop
//! nest over the work-group's work-items (z, y, x, x innermost) around a copy of its blocks;
//! a copy ends at the barrier the work-items reach, or at a return. Barriers are reached in
//! work-group uniform control flow (OpenCL C 6.15.8: "all work-items in a work-group
//! executing the kernel on a processor must execute this function before any are allowed to
//! continue"), so the last work-item's exit says where the whole group goes next: to the loop
//! of the region after that barrier, or out of the function. Sub-group barriers and
//! collectives need only sub-group uniform control flow (6.15.8): where the sub-groups may
//! part ways (`subgroup::diverges_by_sub_group`), each work-item keeps where it stopped in
//! the context (`Emitter::states`), and a region runs the work-items waiting at its barrier.
//!
//! What crosses from one region to another lives in the group's context memory (the `ctx`
//! parameter the work-group function gets after the kernel's own):
//! - each value live across a barrier, in an array `[value][work-item]` (work-item index =
//!   linear local id, so consecutive work-items are adjacent), stored where it is defined (one
//!   defined in a loop without a barrier: where the region ends at the barrier, once) and
//!   loaded at the start of the regions it is live into; but a value computed from the ids
//!   and uniform values by a few cheap instructions (`remat`) is computed again there
//!   instead, and a value the same for all work-items has a single element, loaded once
//!   when the group enters a region, before its loops;
//! - each stack slot that may hold data across a barrier, one copy per work-item, laid out
//!   the same way; every other slot has a single copy that all work-items reuse (a work-item
//!   finishes its region before the next one starts);
//! - each collective's operands, combined once per group between the two region loops.
//!
//! The transform's loads and stores of context memory are `trusted` (`MemFlags::trusted`):
//! their addresses lie in it by construction, so the code generator leaves them unconfined.
//!
//! Work-group uniform values (kernel arguments, sizes, group ids, and pure code computed from
//! them, wherever it sits) are computed once, before the first loop. Pure instructions never
//! trap in this IR (integer division by zero and float-to-int conversions are defined by the
//! code generator), so moving them out of their branches is safe.
//!
//! With a W-wide version of the kernel (`WideKernel`, from the vectorizer: one invocation
//! runs W consecutive work-items along x), each row of a region's loop nest runs chunks of W
//! work-items through the wide version's copy of the region while a whole chunk fits, then
//! the rest of the row one at a time through the kernel's. A work-item is in a chunk in every
//! region or in none (the split of a row is the same each time), so the two keep their values
//! in context arrays of their own; they share `__local` memory and the collectives' arrays.
//!
//! Where a region's loops wait on the latency of what they carry, or the region is one chain
//! of float arithmetic through loads its rows share, or short in a kernel of 2-D groups, and
//! its branches are uniform, its wide copy runs several chunks at once (`jam`): each
//! instruction for one chunk and then for the next ones of the row (or the next rows), under
//! one copy of the branches.
//!
//! Divisions of 32-bit integers and vector multiplications by constants are emitted in
//! cheaper forms as the regions are copied (`by_constant`).
//!
//! The result is ordinary IR: only the work-item queries that are uniform remain, the stack
//! slots are addresses in the context (`slots`), and the code generator translates it
//! instruction by instruction.

use std::collections::HashMap;

use ferrocl_ir::analysis::{Cfg, DomTree, LoopInfo};
use ferrocl_ir::entity::{EntitySet, SecondaryMap};
use ferrocl_ir::{
    AddrSpace, BinaryOp, Block, ConvOp, Dest, Function, FunctionBuilder, GroupOp, Inst, IntCC,
    MemFlags, Module, Op, Scope, Signature, StackSlot, Type, Value, ValueDef, Variable, WorkItemOp,
};

use crate::liveness::{live_across_barriers, splits_regions, LiveAcross};
use crate::CompileError;

mod by_constant;
mod context;
mod jam;
mod narrow;
mod slots;
mod subgroup;

use context::Context;
pub(crate) use jam::float_arithmetic;

/// A kernel turned into a function that runs one work-group.
pub struct WorkGroupFn {
    /// The function: the kernel's parameters, then `ctx` (a `ptr.private` to the group's
    /// context memory). Its loads and stores of context memory are `trusted` (`MemFlags`):
    /// their addresses are in it by construction, so they need no confining. After
    /// [`clean_up`] it has no stack slots: each is an address in the context.
    pub func: Function,
    /// Where each single-copy stack slot lives, as a byte offset from `ctx`, until
    /// [`clean_up`] writes it into the function.
    slot_offsets: SecondaryMap<StackSlot, Option<u32>>,
    /// Bytes of context memory per work-item of the enqueued work-group size: a group of n
    /// work-items uses at most `frame_size * n` bytes from `ctx`.
    pub frame_size: usize,
    /// The regions between barriers (and collectives): 1 where the kernel has none.
    pub regions: usize,
    /// The regions that run several chunks of a row of the W-wide version at once (`jam`),
    /// and how many chunks the most of them take.
    pub jammed: (usize, u32),
    /// The regions that run the chunks of several rows at once (`jam`), and how many rows
    /// the most of them take.
    pub jammed_rows: (usize, u32),
}

/// Whether a work-item query's answer differs between the work-items of a group.
///
/// The ids differ, and the sub-group queries that depend on the work-item's sub-group
/// (`subgroup`).
fn per_work_item(op: WorkItemOp) -> bool {
    matches!(
        op,
        WorkItemOp::LocalId
            | WorkItemOp::GlobalId
            | WorkItemOp::LocalLinearId
            | WorkItemOp::GlobalLinearId
            | WorkItemOp::SubGroupLocalId
            | WorkItemOp::SubGroupId
            | WorkItemOp::SubGroupSize
    )
}

/// Whether an instruction computes the same value wherever it runs, without effects, given
/// its operands: a candidate for computing once per work-group.
fn hoistable(op: &Op) -> bool {
    match op {
        Op::WorkItem(w, _) => !per_work_item(*w),
        Op::Iconst(_)
        | Op::Fconst(_)
        | Op::Vconst(_)
        | Op::Null
        | Op::Undef
        | Op::Unary(_)
        | Op::Binary(_)
        | Op::Fma
        | Op::Icmp(_)
        | Op::Fcmp(_)
        | Op::Select
        | Op::Convert(_)
        | Op::Bitcast
        | Op::PtrToInt
        | Op::IntToPtr
        | Op::AddrCast
        | Op::PtrAdd
        | Op::Splat
        | Op::ExtractLane(_)
        | Op::InsertLane(_)
        | Op::Shuffle(_)
        | Op::GlobalAddr(_) => true,
        _ => false,
    }
}

/// The most instructions a value live across a barrier is computed again with (`remat`).
const REMAT_INSTS: usize = 8;

/// Whether value `v` of `f` is cheaper to compute again, at the start of each region that
/// reads it, than to keep in a context array: a per-work-item query, or at most
/// `REMAT_INSTS` cheap pure instructions computed from those and from values computed once
/// per group (`uniform`). Such a value is the same wherever a work-item computes it.
fn remat(f: &Function, uniform: &EntitySet<Value>, v: Value) -> bool {
    /// `seen` holds at most `REMAT_INSTS + 1` values: a list.
    fn visit(f: &Function, uniform: &EntitySet<Value>, v: Value, seen: &mut Vec<Value>) -> bool {
        if uniform.contains(v) || seen.contains(&v) {
            return true;
        }
        seen.push(v);
        let ferrocl_ir::ValueDef::Result(inst) = f.dfg.value_def(v) else {
            return false;
        };
        let data = &f.dfg.insts[inst];
        let cheap = match &data.op {
            Op::WorkItem(op, _) => per_work_item(*op),
            Op::Binary(op) => !matches!(
                op,
                BinaryOp::Sdiv
                    | BinaryOp::Udiv
                    | BinaryOp::Srem
                    | BinaryOp::Urem
                    | BinaryOp::Fdiv
                    | BinaryOp::FdivRelaxed
            ),
            Op::Convert(c) => matches!(c, ConvOp::Trunc | ConvOp::Zext | ConvOp::Sext),
            Op::Unary(_) | Op::Fma => false,
            op => hoistable(op),
        };
        cheap && seen.len() <= REMAT_INSTS && data.args.iter().all(|&a| visit(f, uniform, a, seen))
    }
    !uniform.contains(v) && visit(f, uniform, v, &mut Vec::new())
}

fn err<T>(message: impl Into<String>) -> Result<T, CompileError> {
    Err(CompileError(message.into()))
}

/// Splits the blocks of `f` after every barrier and collective, so that each ends its block,
/// followed only by a jump to the block where the work-items resume. Returns, for each such
/// instruction, that block.
fn split_at_barriers(f: &mut Function) -> SecondaryMap<Inst, Option<Block>> {
    let mut resume = SecondaryMap::new();
    let blocks: Vec<Block> = f.layout.blocks().to_vec();
    for mut block in blocks {
        loop {
            let insts = f.layout.block_insts(block).to_vec();
            let Some(at) = insts
                .iter()
                .position(|&i| splits_regions(&f.dfg.insts[i].op))
            else {
                break;
            };
            let next = f.dfg.make_block();
            f.layout.insert_block_after(next, block);
            for &i in &insts[at + 1..] {
                f.layout.remove_inst(i);
                f.layout.append_inst(i, next);
            }
            f.append_inst(
                block,
                ferrocl_ir::InstData::new(Op::Jump(Dest::new(next, &[])), &[]),
                None,
            );
            resume[insts[at]] = Some(next);
            block = next;
        }
    }
    resume
}

/// The values of `f` computed once per work-group: the kernel's parameters and the results of
/// hoistable instructions whose operands all are.
fn uniform_values(f: &Function) -> (EntitySet<Value>, Vec<Inst>) {
    let cfg = ferrocl_ir::analysis::Cfg::new(f);
    let dom = ferrocl_ir::analysis::DomTree::new(f, &cfg);
    let mut uniform: EntitySet<Value> = EntitySet::new();
    if let Some(entry) = f.layout.entry_block() {
        uniform.extend(f.dfg.block_params(entry).iter().copied());
    }
    let mut order = Vec::new();
    // Reverse postorder visits every definition before its uses (outside loops' parameters,
    // which are never hoisted).
    for &block in dom.rpo() {
        for &inst in f.layout.block_insts(block) {
            let data = &f.dfg.insts[inst];
            if hoistable(&data.op) && data.args.iter().all(|&a| uniform.contains(a)) {
                if let Some(r) = f.dfg.inst_result(inst) {
                    uniform.insert(r);
                    order.push(inst);
                }
            }
        }
    }
    (uniform, order)
}

/// A region: where it starts, and the barrier it starts after (`None` for the kernel's entry).
struct Region {
    start: Block,
    after: Option<Inst>,
}

/// The barrier (or collective) that ends `block`, if one does (after `split_at_barriers`).
fn ending_barrier(f: &Function, block: Block) -> Option<Inst> {
    let insts = f.layout.block_insts(block);
    let n = insts.len();
    (n >= 2 && splits_regions(&f.dfg.insts[insts[n - 2]].op)).then(|| insts[n - 2])
}

/// The blocks of the region starting at `start`, in the order they are reached.
fn region_blocks(f: &Function, start: Block) -> Vec<Block> {
    let mut seen = EntitySet::new();
    seen.insert(start);
    let mut order = vec![start];
    let mut i = 0;
    while i < order.len() {
        let b = order[i];
        i += 1;
        if ending_barrier(f, b).is_some() {
            continue;
        }
        for s in f.successors(b) {
            if seen.insert(s) {
                order.push(s);
            }
        }
    }
    order
}

/// A W-wide version of a kernel (`crate::vectorize`): one invocation runs W consecutive
/// work-items along x, `local_id 0` and `global_id 0` being the first one's; its barriers
/// correspond one-to-one to the kernel's.
pub struct WideKernel {
    pub func: Function,
    pub width: u32,
    /// Each barrier of the scalar kernel with its counterpart in `func`.
    pub barriers: Vec<(Inst, Inst)>,
    /// Whether `func` may only run groups whose x size and x ids are at most
    /// `vectorize::shape::ID_LIMIT`; other groups run the kernel alone.
    pub assumes_id_limit: bool,
    /// Each value of the kernel that `func` holds as one scalar for the W lanes, with that
    /// scalar ([`crate::vectorize::Vectorized::uniform`]); may be empty.
    pub uniform: Vec<(Value, Value)>,
    /// The cost model's estimate ([`crate::vectorize::Vectorized::estimate`]).
    pub estimate: f64,
    /// [`crate::vectorize::Vectorized::runs`].
    pub runs: usize,
    /// Whether the work-group function is for Cranelift's code alone (the kernel's build after
    /// the wide-vector tier refused it): its jammed regions (`jam`) must fit Cranelift's
    /// registers, not the tier's.
    pub for_cranelift: bool,
}

/// A function the work-group function runs regions of: the kernel, or its W-wide version.
struct Source {
    /// The function, split at its barriers.
    k: Function,
    live: LiveAcross,
    /// The values computed once per group, and the instructions that compute them.
    uniform: EntitySet<Value>,
    hoisted: Vec<Inst>,
    /// The regions, in the order of the kernel's: the entry's, then the one after each
    /// barrier of the kernel in layout order.
    regions: Vec<Region>,
    blocks: Vec<Vec<Block>>,
    /// Where the group goes after each barrier: its index among the kernel's barriers.
    exit_codes: SecondaryMap<Inst, Option<usize>>,
    /// Work-items per invocation.
    width: u32,
    /// Only for groups whose x ids are at most `vectorize::shape::ID_LIMIT`.
    assumes_id_limit: bool,
    /// How each region runs its chunks (`jam`; several at once in a W-wide source only).
    jam: Vec<jam::Jam>,
    /// The blocks of loops without a barrier or collective (each inside the regions that
    /// reach it): a value defined there and live across a barrier is kept in its context
    /// array where the region ends at that barrier, not at each trip (`Emitter::def`).
    in_loops: EntitySet<Block>,
}

impl Source {
    /// Prepares `f`, whose barriers stand for the kernel's barriers `order` (in the kernel's
    /// layout order; `None`: `f` is the kernel), for Cranelift's code alone where
    /// `for_cranelift` ([`WideKernel::for_cranelift`]).
    fn new(
        f: &Function,
        width: u32,
        order: Option<&[Inst]>,
        for_cranelift: bool,
    ) -> Result<Source, CompileError> {
        let Some(entry) = f.layout.entry_block() else {
            return err(format!("kernel {} has no body", f.name));
        };
        if f.layout
            .blocks()
            .iter()
            .any(|&b| f.successors(b).contains(&entry))
        {
            return err(format!(
                "kernel {}: a branch to the entry block (the work-group transform needs an \
                 entry block without predecessors)",
                f.name
            ));
        }
        let mut k = f.clone();
        let resume = split_at_barriers(&mut k);
        let splits: Vec<Inst> = resume.iter().filter_map(|(i, b)| b.map(|_| i)).collect();
        let live = live_across_barriers(&k);
        let (uniform, hoisted) = uniform_values(&k);
        let barriers: Vec<Inst> = match order {
            Some(order) => order.to_vec(),
            None => {
                // Sub-group barriers and collectives first: with states, the group resumes
                // at the lowest exit code any work-item waits at (`Emitter::next_region`).
                let mut b = splits.clone();
                b.sort_by_key(|&i| (!subgroup::sub_group_split(&k.dfg.insts[i].op), i));
                b
            }
        };
        if barriers.len() != splits.len() || barriers.iter().any(|&b| resume[b].is_none()) {
            return err("the W-wide function's barriers do not match the kernel's");
        }
        let mut regions = vec![Region {
            start: entry,
            after: None,
        }];
        for &b in &barriers {
            regions.push(Region {
                start: resume[b].expect("checked above"),
                after: Some(b),
            });
        }
        let blocks: Vec<Vec<Block>> = regions.iter().map(|r| region_blocks(&k, r.start)).collect();
        let cfg = Cfg::new(&k);
        let loops = LoopInfo::new(&cfg, &DomTree::new(&k, &cfg));
        let jam = if width > 1 {
            jam::jammable(&k, &loops, &blocks, width, for_cranelift)
        } else {
            vec![jam::Jam::Single; blocks.len()]
        };
        let mut exit_codes = SecondaryMap::new();
        for (i, &b) in barriers.iter().enumerate() {
            exit_codes[b] = Some(i);
        }
        let in_loops = loops_within_regions(&k, &loops);
        Ok(Source {
            k,
            live,
            uniform,
            hoisted,
            regions,
            blocks,
            exit_codes,
            width,
            assumes_id_limit: false,
            jam,
            in_loops,
        })
    }

    /// Where the group goes after barrier or collective `bar`: its index among the
    /// kernel's barriers.
    fn exit_code(&self, bar: Inst) -> usize {
        self.exit_codes[bar].expect("an exit code for each barrier")
    }

    /// The block that defines value `v`, where its context store waits for the region's end
    /// (`in_loops`).
    fn deferred(&self, v: Value) -> Option<Block> {
        let block = match self.k.dfg.value_def(v) {
            ValueDef::Result(i) => self.k.layout.inst_block(i)?,
            ValueDef::Param(b, _) => b,
            _ => return None,
        };
        self.in_loops.contains(block).then_some(block)
    }
}

/// The blocks of `k`'s natural loops (`loops`) that hold no barrier or collective: each such
/// loop runs whole inside a region.
fn loops_within_regions(k: &Function, loops: &LoopInfo) -> EntitySet<Block> {
    let mut blocks = EntitySet::new();
    for lp in &loops.loops {
        let splits = lp.blocks.iter().any(|&b| {
            k.layout
                .block_insts(b)
                .iter()
                .any(|&i| splits_regions(&k.dfg.insts[i].op))
        });
        if !splits {
            for &b in &lp.blocks {
                blocks.insert(b);
            }
        }
    }
    blocks
}

/// Transforms kernel `f` into its work-group function.
pub fn transform(f: &Function) -> Result<WorkGroupFn, CompileError> {
    transform_with(f, None)
}

/// Transforms kernel `f` into its work-group function, cleaned up ([`clean_up`]); where
/// `wide` is given, full chunks of its width along x run it, and the rest of each row the
/// kernel. A W-wide function this transform does not handle (private arrays, collectives) is
/// left unused.
pub fn transform_with(
    f: &Function,
    wide: Option<&WideKernel>,
) -> Result<WorkGroupFn, CompileError> {
    let mut wg = transform_unclean(f, wide)?;
    clean_up(&mut wg);
    Ok(wg)
}

/// [`transform_with`] without the clean-up: the loops and context accesses as the transform
/// writes them, and the single-copy stack slots still `slotaddr`s.
pub fn transform_unclean(
    f: &Function,
    wide: Option<&WideKernel>,
) -> Result<WorkGroupFn, CompileError> {
    let scalar = Source::new(f, 1, None, false)?;
    let wide_in = wide;
    let states = subgroup::diverges_by_sub_group(f);
    let wide = match wide {
        // With states the work-items of a chunk may be at different barriers: groups run
        // the kernel alone.
        Some(w) if usable_wide(&w.func) && w.width > 1 && !states => {
            let order: Option<Vec<Inst>> = (1..scalar.regions.len())
                .map(|r| {
                    let b = scalar.regions[r].after?;
                    w.barriers.iter().find(|p| p.0 == b).map(|p| p.1)
                })
                .collect();
            match order {
                Some(order) => Some(Source {
                    assumes_id_limit: w.assumes_id_limit,
                    ..Source::new(&w.func, w.width, Some(&order), w.for_cranelift)?
                }),
                None => return err("the W-wide function's barriers do not match the kernel's"),
            }
        }
        _ => None,
    };
    let mut ctx_layout = Context::new(
        &scalar.k,
        &scalar.live,
        &scalar.uniform,
        &scalar.regions,
        &scalar.blocks,
        states,
    )?;
    if let Some(w) = &wide {
        let same = wide_in.map_or(&[][..], |w| &w.uniform[..]);
        ctx_layout.add_wide_values(&w.k, &w.live, &w.uniform, same);
    }
    if states {
        ctx_layout.add_states();
    }

    let mut params = f.sig.params.clone();
    params.push(Type::ptr(AddrSpace::Private));
    let mut w = Function::new(&f.name, Signature::new(&params, f.sig.ret));
    w.slots = f.slots.clone();
    let sources: Vec<&Source> = std::iter::once(&scalar).chain(wide.as_ref()).collect();
    let mut t = Emitter {
        sources: sources.clone(),
        cur: 0,
        b: FunctionBuilder::new(&mut w),
        ctx: &ctx_layout,
        maps: vec![SecondaryMap::new(); sources.len()],
        vars: vec![SecondaryMap::new(); sources.len()],
        ids: Ids::default(),
        sizes: [Value::from_u32(0); 3],
        gid_base: [Value::from_u32(0); 3],
        wide_ok: None,
        ctx_ptr: Value::from_u32(0),
        bases: HashMap::new(),
        n: Value::from_u32(0),
        remat: SecondaryMap::new(),
        pre: vec![SecondaryMap::new(); sources.len()],
        states,
        others: Vec::new(),
    };
    t.run()?;
    t.b.seal_all_blocks();
    t.b.finish();
    let jams = match sources.get(1) {
        Some(wide) if !states => wide.jam.as_slice(),
        _ => &[],
    };
    let count = |along: bool| {
        jams.iter().fold((0, 0), |(n, most), &j| match j {
            jam::Jam::Along(k) if along => (n + 1, most.max(k)),
            jam::Jam::Across(k) if !along => (n + 1, most.max(k)),
            _ => (n, most),
        })
    };
    let (jammed, jammed_rows) = (count(true), count(false));
    if jammed.0 + jammed_rows.0 > 0 {
        JAMMED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
    Ok(WorkGroupFn {
        func: w,
        slot_offsets: ctx_layout.slot_offsets.clone(),
        frame_size: ctx_layout.frame_size(),
        regions: scalar.regions.len(),
        jammed,
        jammed_rows,
    })
}

static JAMMED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How many work-group functions this process made with a region that runs several chunks
/// at once (`jam`): a test that runs kernels shows whether any reached that code.
pub fn jammed_count() -> u64 {
    JAMMED.load(std::sync::atomic::Ordering::Relaxed)
}

/// The IR passes that clean up a work-group function: the loops' index arithmetic folds,
/// repeated constants and addresses merge, and what a region does not use (its linear id,
/// ids of unused dimensions) goes; then the single-copy stack slots are placed in the context
/// (`slots::place`), after the passes, which see them as slots.
pub fn clean_up(wg: &mut WorkGroupFn) {
    let w = &mut wg.func;
    ferrocl_ir::passes::fold::fold_function(w);
    ferrocl_ir::passes::offsets::constants_outward(w);
    ferrocl_ir::passes::cse::cse(w);
    if wg.jammed_rows.0 > 0 {
        // Two chunks' loads of one address, next to each other in a jammed copy (the rows'
        // shared loads of `jam::Jam::Across`), are one.
        ferrocl_ir::passes::load_elim::load_elim(w);
    }
    if ferrocl_ir::passes::known::known_conditions(w) {
        ferrocl_ir::passes::fold::fold_function(w);
    }
    // Chunks between a row's borders run without the tests for them.
    if ferrocl_ir::passes::split::split(w) {
        ferrocl_ir::passes::fold::fold_function(w);
    }
    ferrocl_ir::passes::dce::dce(w);
    ferrocl_ir::passes::dce::simplify_function(w);
    slots::place(w, &wg.slot_offsets);
}

/// Whether kernel `f` of `module`, or a function it calls, can tell its work-groups apart: it
/// asks for a local or group id, a local size, a group count or anything of sub-groups,
/// synchronizes a group (barriers, collectives) or reaches `__local` memory. A kernel that
/// cannot sees only its global ids and sizes, which do not depend on how work-items are
/// grouped, so the device may run several consecutive groups along x as one (`merged`).
pub fn sees_groups(module: &Module, f: &Function) -> bool {
    sees_groups_with(f, &|callee| Some(&module.funcs[callee]))
}

/// [`sees_groups`], with the functions `f` calls given by `callee`; a call to one it does not
/// give counts as seeing groups.
pub fn sees_groups_with<'a>(
    f: &'a Function,
    callee: &dyn Fn(ferrocl_ir::Func) -> Option<&'a Function>,
) -> bool {
    let mut seen: EntitySet<ferrocl_ir::Func> = EntitySet::new();
    let mut todo = vec![f];
    while let Some(f) = todo.pop() {
        let local = |v: Value| f.dfg.value_type(v).addr_space() == Some(AddrSpace::Local);
        for &b in f.layout.blocks() {
            if f.dfg.block_params(b).iter().any(|&v| local(v)) {
                return true;
            }
            for &i in f.layout.block_insts(b) {
                let data = &f.dfg.insts[i];
                let sees = match &data.op {
                    Op::WorkItem(q, _) => !matches!(
                        q,
                        WorkItemOp::WorkDim
                            | WorkItemOp::GlobalSize
                            | WorkItemOp::GlobalId
                            | WorkItemOp::GlobalOffset
                            | WorkItemOp::GlobalLinearId
                    ),
                    Op::Barrier(..) | Op::Group(..) => true,
                    Op::Call(c) => match callee(*c) {
                        Some(g) => {
                            if seen.insert(*c) {
                                todo.push(g);
                            }
                            false
                        }
                        None => true,
                    },
                    _ => false,
                };
                if sees
                    || data.args.iter().any(|&v| local(v))
                    || f.dfg.inst_result(i).is_some_and(local)
                {
                    return true;
                }
            }
        }
    }
    false
}

/// Whether the transform can run regions of W-wide function `f`: one without private arrays
/// and collectives (whose context it does not lay out for chunks), and without per-work-item
/// sub-group queries (a chunk's lanes may lie in two sub-groups).
pub(crate) fn usable_wide(f: &Function) -> bool {
    f.slots.is_empty()
        && f.layout.blocks().iter().all(|&b| {
            f.layout.block_insts(b).iter().all(|&i| {
                !matches!(f.dfg.insts[i].op, Op::Group(..))
                    && !subgroup::varies_by_sub_group(&f.dfg.insts[i].op)
            })
        })
}

/// Runs the IR verifier on a work-group function of a kernel of `module`.
pub fn verify(module: &ferrocl_ir::Module, wg: &WorkGroupFn) -> Result<(), CompileError> {
    ferrocl_ir::verify_function(module, &wg.func).map_err(|errors| {
        CompileError(format!(
            "kernel {}: the work-group transform made invalid IR: {}",
            wg.func.name, errors[0]
        ))
    })
}

/// A row of work-items (equal y and z), and the linear id of its first.
#[derive(Clone, Copy)]
struct Row {
    y: Value,
    z: Value,
    lin: Value,
}

/// The blocks and plans of the regions' loop nests, made once for the whole function
/// (`Emitter::nest`).
struct Nest {
    /// Each region's row block, taking (y, z).
    rows: Vec<Block>,
    /// Where each region starts (its single-copy values loaded, its x range narrowed): a
    /// block of its own, or, for a first region with nothing to do there, its row block.
    entries: Vec<Block>,
    /// How each region's x range is narrowed, where it is (`narrow`).
    plans: Vec<Option<narrow::Plan>>,
    /// The region that starts after each barrier or collective.
    region_after: SecondaryMap<Inst, Option<usize>>,
    /// The barriers and collectives in order: exit code `i` stops at the `i`th.
    barriers: Vec<Inst>,
    /// With a W-wide source: whether a row holds a full chunk, and where the last may end.
    chunks: Option<(Value, Value)>,
    /// The constant 0, from the entry block.
    zero: Value,
}

/// The current work-item, inside a region loop.
#[derive(Clone, Copy, Default)]
struct Ids {
    lid: [Option<Value>; 3],
    lin: Option<Value>,
}

struct Emitter<'a, 'f> {
    /// The kernel, then its W-wide version if there is one.
    sources: Vec<&'a Source>,
    /// The source whose code is being copied.
    cur: usize,
    b: FunctionBuilder<'f>,
    ctx: &'a Context,
    /// Values computed once per group: each source's value to the work-group function's.
    maps: Vec<SecondaryMap<Value, Option<Value>>>,
    /// Every other value of each source, as a variable of the work-group function.
    vars: Vec<SecondaryMap<Value, Option<Variable>>>,
    ids: Ids,
    /// The group's size in each dimension, and its number of work-items.
    sizes: [Value; 3],
    n: Value,
    /// `group_id * enqueued_local_size + global_offset` per dimension.
    gid_base: [Value; 3],
    /// Whether the group may run the W-wide source, beyond a chunk fitting: its x ids are
    /// below what that source assumes (`WideKernel::assumes_id_limit`); `None`: always.
    wide_ok: Option<Value>,
    ctx_ptr: Value,
    /// The start of each context array, by its key.
    bases: HashMap<context::Key, Value>,
    /// Values of the current source computed again at the start of the current region copy
    /// for the current work-item (`remat`).
    remat: SecondaryMap<Value, Option<Value>>,
    /// Each source's single-copy values live into the current region, loaded before its
    /// loops.
    pre: Vec<SecondaryMap<Value, Option<Value>>>,
    /// Whether each work-item keeps where it stopped (`Key::State`) because sub-groups may
    /// reach different barriers (`subgroup::diverges_by_sub_group`): a region then runs only
    /// the work-items waiting at the barrier it starts after, and the group goes on to the
    /// region after the first barrier (in exit code order) any work-item waits at.
    states: bool,
    /// While a region is copied for several chunks at once (`jam`), the state of each
    /// chunk after the first.
    others: Vec<Other>,
}

/// The variables, values computed again and ids of a chunk after the first, while a region
/// is copied for several chunks at once: swapped with the first's around each of its
/// instructions (`Emitter::as_other`).
struct Other {
    vars: SecondaryMap<Value, Option<Variable>>,
    remat: SecondaryMap<Value, Option<Value>>,
    ids: Ids,
}

/// Where a region copy leaves the loop: after barrier `i` of the sorted list, or at a return.
const RETURN: u64 = u64::MAX;

impl<'a> Emitter<'a, '_> {
    fn src(&self) -> &'a Source {
        self.sources[self.cur]
    }

    /// Source `i`'s value `v`, computed once per group.
    fn map(&self, i: usize, v: Value) -> Value {
        self.maps[i][v].expect("computed once per group")
    }

    /// The context array of value `v` of the current source.
    fn value_key(&self, v: Value) -> context::Key {
        if self.cur == 0 {
            context::Key::Value(v)
        } else {
            context::Key::Wide(v)
        }
    }

    /// Emits the work-group function: the code run once per group, then each region's loop
    /// nest and the exits that lead from it to the next region or out.
    fn run(&mut self) -> Result<(), CompileError> {
        self.group_setup();
        let chunks = self.chunk_test();
        let nest = self.nest(chunks);
        for r in 0..nest.rows.len() {
            let (done, code, exits) = self.region_rows(&nest, r)?;
            self.region_exits(&nest, done, code, exits)?;
        }
        Ok(())
    }

    /// Emits what runs once per group, in the entry block: the sizes, the ids' bases, each
    /// source's hoisted (uniform) code, and the start of each context array.
    fn group_setup(&mut self) {
        let new_entry = self.b.create_entry_block();
        let params = self.b.block_params(new_entry).to_vec();
        self.ctx_ptr = *params.last().expect("the ctx parameter");

        for d in 0..3 {
            self.sizes[d] = self.b.work_item(WorkItemOp::LocalSize, d as u8, Type::I64);
        }
        let n = self.b.imul(self.sizes[0], self.sizes[1]);
        self.n = self.b.imul(n, self.sizes[2]);
        for d in 0..3 {
            let g = self.b.work_item(WorkItemOp::GroupId, d as u8, Type::I64);
            let s = self
                .b
                .work_item(WorkItemOp::EnqueuedLocalSize, d as u8, Type::I64);
            let o = self
                .b
                .work_item(WorkItemOp::GlobalOffset, d as u8, Type::I64);
            let gs = self.b.imul(g, s);
            self.gid_base[d] = self.b.iadd(gs, o);
        }
        for (i, src) in self.sources.clone().into_iter().enumerate() {
            let k = &src.k;
            let entry = k.layout.entry_block().expect("a body");
            for (&p, &np) in k.dfg.block_params(entry).iter().zip(&params) {
                self.maps[i][p] = Some(np);
            }
            for &inst in &src.hoisted {
                let data = k.dfg.insts[inst].clone();
                let args: Vec<Value> = data.args.iter().map(|&a| self.map(i, a)).collect();
                let r = k.dfg.inst_result(inst).expect("hoisted values are results");
                let ni = self.b.ins(data.op, &args, Some(k.dfg.value_type(r)));
                let nr = self.b.func.dfg.inst_result(ni).expect("a result");
                self.maps[i][r] = Some(nr);
            }
        }
        for (key, offset) in self.ctx.arrays() {
            let per_item = self.b.iconst(Type::I64, i64::from(offset));
            let at = self.b.imul(per_item, self.n);
            let shared = self.b.iconst(Type::I64, i64::from(self.ctx.shared_size()));
            let at = self.b.iadd(at, shared);
            let base = self.b.ptradd(self.ctx_ptr, at);
            self.bases.insert(key, base);
        }
    }

    /// With a W-wide source, emits whether a row holds a full chunk (and the group's x ids
    /// are within what the W-wide code assumes), and gives it with where the last chunk may
    /// end: the row's end.
    fn chunk_test(&mut self) -> Option<(Value, Value)> {
        let w = self.sources.get(1)?;
        let width = self.b.iconst(Type::I64, i64::from(w.width));
        let mut fits = self.b.icmp(IntCC::Ule, width, self.sizes[0]);
        if w.assumes_id_limit {
            // Every local size within the largest group (the runtime's own rule, checked
            // again as the code relies on it), and the x ids within the limit.
            let group = crate::MAX_WORK_GROUP_SIZE as i64;
            let group = self.b.iconst(Type::I64, group);
            let mut ok = self.b.icmp(IntCC::Ule, self.sizes[0], group);
            for d in 1..3 {
                let size_ok = self.b.icmp(IntCC::Ule, self.sizes[d], group);
                ok = self.b.binary(BinaryOp::Band, ok, size_ok);
            }
            let limit = crate::vectorize::shape::ID_LIMIT as i64;
            let limit = self.b.iconst(Type::I64, limit);
            let room = self.b.binary(BinaryOp::Isub, limit, self.sizes[0]);
            let ids_ok = self.b.icmp(IntCC::Ule, self.gid_base[0], room);
            let ok = self.b.binary(BinaryOp::Band, ok, ids_ok);
            self.wide_ok = Some(ok);
            fits = self.b.binary(BinaryOp::Band, fits, ok);
        }
        Some((fits, self.sizes[0]))
    }

    /// Creates the blocks every region's loop nest starts with, plans the narrowed ones, and
    /// ends the entry block with the jump to the first region.
    fn nest(&mut self, chunks: Option<(Value, Value)>) -> Nest {
        let scalar = self.sources[0];
        let rows: Vec<Block> = scalar
            .regions
            .iter()
            .map(|_| self.b.create_block())
            .collect();
        for &h in &rows {
            self.b.append_block_param(h, Type::I64);
            self.b.append_block_param(h, Type::I64);
        }
        let zero = self.b.iconst(Type::I64, 0);
        let plans: Vec<Option<narrow::Plan>> = (0..rows.len())
            .map(|r| {
                if self.states {
                    None
                } else {
                    narrow::plan(&self.sources, self.ctx, r)
                }
            })
            .collect();
        let mut region_after = SecondaryMap::new();
        for (r, region) in scalar.regions.iter().enumerate() {
            if let Some(b) = region.after {
                region_after[b] = Some(r);
            }
        }
        let barriers: Vec<Inst> = scalar.regions.iter().filter_map(|r| r.after).collect();

        // Where each region starts: its single-copy values are loaded, then its rows run.
        let entries: Vec<Block> = (0..rows.len())
            .map(|r| {
                if r == 0 && plans[0].is_none() {
                    rows[0]
                } else {
                    self.b.create_block()
                }
            })
            .collect();
        if entries[0] == rows[0] {
            self.b.jump(rows[0], &[zero, zero]);
        } else {
            self.b.jump(entries[0], &[]);
        }
        Nest {
            rows,
            entries,
            plans,
            region_after,
            barriers,
            chunks,
            zero,
        }
    }

    /// Emits region `r`'s entry (its single-copy values loaded, its x range narrowed) and
    /// its loop nest: each row's chunks, W work-items at a time, then its single work-items,
    /// row after row and plane after plane. Returns the block where the group goes after the
    /// region, with its parameter (the exit code), and the exit codes the region's copies
    /// may give.
    fn region_rows(
        &mut self,
        nest: &Nest,
        r: usize,
    ) -> Result<(Block, Value, Vec<u64>), CompileError> {
        let zero = nest.zero;
        let row = nest.rows[r];
        // The work-items of each row, and where the group goes when the region's range
        // of x is empty (`narrow`).
        let mut range = narrow::XRange {
            lo: zero,
            hi: self.sizes[0],
            wide_lo: zero,
            fits: nest.chunks.map_or(zero, |c| c.0),
            end: nest.chunks.map_or(zero, |c| c.1),
            below_hi: false,
        };
        let mut early_done = None;
        if nest.entries[r] != row {
            self.b.switch_to_block(nest.entries[r]);
            if r > 0 {
                self.preload(r)?;
            }
            match &nest.plans[r] {
                Some(plan) => {
                    let done = self.b.create_block();
                    let code = self.b.append_block_param(done, Type::I64);
                    let alone = self.alone_ok(r);
                    range = self.narrow_entry(plan, row, done, alone)?;
                    early_done = Some((done, code));
                }
                None => {
                    self.b.jump(row, &[zero, zero]);
                }
            }
        }
        // row(y, z): the work-items of one row, W at a time while a chunk fits, then one
        // at a time (the heads take x); row_end(exit) moves on to the next row or leaves.
        self.b.switch_to_block(row);
        let p = self.b.block_params(row).to_vec();
        let (y, z) = (p[0], p[1]);
        let zy = self.b.imul(z, self.sizes[1]);
        let zy = self.b.iadd(zy, y);
        let row_lin = self.b.imul(zy, self.sizes[0]);
        let row = Row { y, z, lin: row_lin };
        let mut exits: Vec<u64> = Vec::new();
        let rows_end = match self.sources.get(1).map(|w| w.jam[r]) {
            Some(jam::Jam::Across(rows)) if !self.states && nest.plans[r].is_none() => {
                Some(self.row_group(r, &range, row, rows, &mut exits)?)
            }
            _ => None,
        };
        let row_end = self.b.create_block();
        let code = self.b.append_block_param(row_end, Type::I64);
        let scalar_head = self.b.create_block();
        self.b.append_block_param(scalar_head, Type::I64);
        match nest.chunks {
            Some(_) => {
                let wide_head = self.b.create_block();
                self.b.append_block_param(wide_head, Type::I64);
                // After the chunks, the rest of the row, if any.
                let tail = self.b.create_block();
                let tx = self.b.append_block_param(tail, Type::I64);
                let tcode = self.b.append_block_param(tail, Type::I64);
                self.cur = 1;
                let width = i64::from(self.src().width);
                // `n` chunks at a time while `n` fit, then one (`jam`).
                let along = match self.src().jam[r] {
                    jam::Jam::Along(n) if !self.states => Some(i64::from(n)),
                    _ => None,
                };
                let jam_head = along.map(|n| {
                    let jam_head = self.b.create_block();
                    self.b.append_block_param(jam_head, Type::I64);
                    let single = self.b.create_block();
                    let all = self.chunk_fits(&range, range.wide_lo, n * width);
                    let all = self.b.binary(BinaryOp::Band, range.fits, all);
                    self.b.brif(all, jam_head, &[range.wide_lo], single, &[]);
                    self.b.switch_to_block(single);
                    (jam_head, n)
                });
                self.b.brif(
                    range.fits,
                    wide_head,
                    &[range.wide_lo],
                    scalar_head,
                    &[range.lo],
                );
                if let Some((jam_head, n)) = jam_head {
                    let others: Vec<(i64, Row)> = (1..n).map(|j| (j * width, row)).collect();
                    let (x, code) = self.region_loop(r, jam_head, row, &mut exits, &others)?;
                    let x2 = self.iadd_imm(x, n * width);
                    let after = self.b.create_block();
                    let ax = self.b.append_block_param(after, Type::I64);
                    let acode = self.b.append_block_param(after, Type::I64);
                    let all = self.chunk_fits(&range, x2, n * width);
                    self.b.brif(all, jam_head, &[x2], after, &[x2, code]);
                    self.b.switch_to_block(after);
                    let one = self.chunk_fits(&range, ax, width);
                    self.b.brif(one, wide_head, &[ax], tail, &[ax, acode]);
                }
                let (x, code) = self.region_loop(r, wide_head, row, &mut exits, &[])?;
                // The next chunk's start, and whether it fits.
                let x1 = self.iadd_imm(x, width);
                let more = self.chunk_fits(&range, x1, width);
                self.b.brif(more, wide_head, &[x1], tail, &[x1, code]);
                self.b.switch_to_block(tail);
                let more = self.b.icmp(IntCC::Ult, tx, range.hi);
                self.b.brif(more, scalar_head, &[tx], row_end, &[tcode]);
            }
            None => {
                self.b.jump(scalar_head, &[range.lo]);
            }
        }
        self.cur = 0;
        let (x, exit) = self.region_loop(r, scalar_head, row, &mut exits, &[])?;
        let x1 = self.iadd_imm(x, 1);
        let more = self.b.icmp(IntCC::Ult, x1, range.hi);
        self.b.brif(more, scalar_head, &[x1], row_end, &[exit]);

        // row_end: the next row, the next plane, or where the group goes.
        self.b.switch_to_block(row_end);
        let row_block = nest.rows[r];
        let next_z = self.b.create_block();
        // With groups of rows, the exit code comes to the next plane from either end.
        let z_code = match rows_end {
            Some(_) => self.b.append_block_param(next_z, Type::I64),
            None => code,
        };
        let z_args: &[Value] = if rows_end.is_some() { &[code] } else { &[] };
        let (done, code_param) = match early_done {
            Some(d) => d,
            None => {
                let done = self.b.create_block();
                (done, self.b.append_block_param(done, Type::I64))
            }
        };
        let y1 = self.iadd_imm(y, 1);
        let more = self.b.icmp(IntCC::Ult, y1, self.sizes[1]);
        self.b.brif(more, row_block, &[y1, z], next_z, z_args);
        if let Some((rows_end, rows_code, rows)) = rows_end {
            self.b.switch_to_block(rows_end);
            let y2 = self.iadd_imm(y, i64::from(rows));
            let more = self.b.icmp(IntCC::Ult, y2, self.sizes[1]);
            self.b.brif(more, row_block, &[y2, z], next_z, &[rows_code]);
        }
        self.b.switch_to_block(next_z);
        let z1 = self.iadd_imm(z, 1);
        let more = self.b.icmp(IntCC::Ult, z1, self.sizes[2]);
        self.b.brif(more, row_block, &[zero, z1], done, &[z_code]);
        Ok((done, code_param, exits))
    }

    /// In the row block of `row`, for a region whose chunks run `rows` rows at once
    /// (`jam::Jam::Across`): where the group's rows are whole chunks and `rows - 1` rows
    /// follow this one, the chunks of them all, the ones at `x` of each at a time; otherwise
    /// on to the row's own loops, in the block this leaves the builder in. Returns the block
    /// after the rows, with its parameter (the exit code), and `rows`.
    fn row_group(
        &mut self,
        r: usize,
        range: &narrow::XRange,
        row: Row,
        rows: u32,
        exits: &mut Vec<u64>,
    ) -> Result<(Block, Value, u32), CompileError> {
        self.cur = 1;
        let width = i64::from(self.src().width);
        let mask = self.b.iconst(Type::I64, width - 1);
        let part = self.b.binary(BinaryOp::Band, self.sizes[0], mask);
        let zero = self.b.iconst(Type::I64, 0);
        let whole = self.b.icmp(IntCC::Eq, part, zero);
        let last = self.iadd_imm(row.y, i64::from(rows) - 1);
        let room = self.b.icmp(IntCC::Ult, last, self.sizes[1]);
        let ok = self.b.binary(BinaryOp::Band, range.fits, whole);
        let ok = self.b.binary(BinaryOp::Band, ok, room);
        let mut others = Vec::new();
        let mut lin = row.lin;
        for i in 1..rows {
            lin = self.b.iadd(lin, self.sizes[0]);
            let y = self.iadd_imm(row.y, i64::from(i));
            others.push((0, Row { y, z: row.z, lin }));
        }
        let head = self.b.create_block();
        self.b.append_block_param(head, Type::I64);
        let single = self.b.create_block();
        self.b.brif(ok, head, &[range.wide_lo], single, &[]);
        let (x, code) = self.region_loop(r, head, row, exits, &others)?;
        let x1 = self.iadd_imm(x, width);
        let more = self.chunk_fits(range, x1, width);
        let end = self.b.create_block();
        let end_code = self.b.append_block_param(end, Type::I64);
        self.b.brif(more, head, &[x1], end, &[code]);
        self.b.switch_to_block(single);
        self.cur = 0;
        Ok((end, end_code, rows))
    }

    /// Whether narrowed region `r` may run its work-items one at a time through the kernel
    /// where its range holds a few (`narrow_entry`): what it reads of earlier regions and
    /// leaves for later ones is the group's (a copy both versions write, a value computed
    /// again or once per group), so that which version ran the other regions does not
    /// matter, and it takes no stack slot's address (a slot kept across barriers has a copy
    /// per work-item in each version); and chunks are 8 work-items or more. A reduction's
    /// last rounds and its result, `if (lid == 0) out[g] = f(partial[0])`, then run one
    /// work-item's scalar code, not a chunk's masked code for all its lanes: the bench's
    /// nn-layer (16 lanes, a logistic function at the end) 2.2 to 1.8 ms on 2 cores. At 4
    /// lanes a chunk costs about what one work-item does: the bench's reduce (4 lanes, its
    /// last round and result alone) ran 2.7 ms before, 3.0 alone.
    fn alone_ok(&self, r: usize) -> bool {
        let scalar = self.sources[0];
        if self.states || self.sources.len() < 2 || self.sources[1].width < 8 {
            return false;
        }
        let k = &scalar.k;
        let blocks = &scalar.blocks[r];
        let slots = blocks.iter().any(|&b| {
            k.layout
                .block_insts(b)
                .iter()
                .any(|&i| matches!(k.dfg.insts[i].op, Op::SlotAddr(_)))
        });
        let group_value = |v: Value| {
            let key = context::Key::Value(v);
            self.maps[0][v].is_some()
                || remat(k, &scalar.uniform, v)
                || (self.ctx.single(key) && self.ctx.written_by_both(key))
        };
        let mut barriers = scalar.regions[r].after.into_iter();
        let exits = blocks.iter().filter_map(|&b| ending_barrier(k, b));
        !slots
            && barriers
                .by_ref()
                .chain(exits)
                .all(|bar| scalar.live[bar].iter().all(|&v| group_value(v)))
    }

    /// Whether the `len` work-items from `x` on, whole chunks of the row, are all the row's
    /// to run in chunks: they end by the last chunk's end (x ids are far below 2^63: no
    /// wrapping), and the last chunk among them starts below the row's end.
    fn chunk_fits(&mut self, range: &narrow::XRange, x: Value, len: i64) -> Value {
        let end = self.iadd_imm(x, len);
        let fits = self.b.icmp(IntCC::Ule, end, range.end);
        if !range.below_hi {
            return fits;
        }
        let width = i64::from(self.src().width);
        let last = match len - width {
            0 => x,
            d => self.iadd_imm(x, d),
        };
        let below = self.b.icmp(IntCC::Ult, last, range.hi);
        self.b.binary(BinaryOp::Band, fits, below)
    }

    /// Emits `done(code)`, where the group goes after a region: by the exit code, to a
    /// return or to the collective of the barrier it stopped at (if any) and the entry of
    /// the region after it. With states, the code is the lowest any work-item holds.
    fn region_exits(
        &mut self,
        nest: &Nest,
        done: Block,
        code_param: Value,
        mut exits: Vec<u64>,
    ) -> Result<(), CompileError> {
        let scalar = self.sources[0];
        self.b.switch_to_block(done);
        self.ids = Ids::default();
        let code_param = if self.states {
            // Every work-item's state is a possible next stop.
            exits.extend((0..nest.barriers.len() as u64).chain([RETURN]));
            self.next_region()?
        } else {
            code_param
        };
        exits.sort();
        exits.dedup();
        let mut targets = Vec::new();
        for &e in &exits {
            let target = self.b.create_block();
            targets.push((e, target));
        }
        match targets.as_slice() {
            [] => {
                self.b.unreachable();
            }
            [(_, only)] => {
                self.b.jump(*only, &[]);
            }
            [(_, first), rest @ ..] => {
                let cases = rest.iter().map(|&(e, t)| (e, Dest::new(t, &[]))).collect();
                self.b.switch(code_param, Dest::new(*first, &[]), cases);
            }
        }
        for (e, target) in targets {
            self.b.switch_to_block(target);
            if e == RETURN {
                self.b.ret(None);
                continue;
            }
            let bar = nest.barriers[e as usize];
            match scalar.k.dfg.insts[bar].op {
                Op::Group(g, Scope::SubGroup) => {
                    let waiting = self.states.then_some(e as i64);
                    self.combine_sub_groups(bar, g, waiting)?
                }
                Op::Group(g, _) => self.combine(bar, g)?,
                _ => {}
            }
            let after = nest.region_after[bar].expect("a region after each barrier");
            self.b.jump(nest.entries[after], &[]);
        }
        Ok(())
    }

    /// Emits region `r` of the current source for the work-items of `row` from `head(x)` on:
    /// their ids, the values the region reads from the context, and the copies of its
    /// blocks, which end at a new latch block. Returns `x` and the latch's parameter, the
    /// exit code (where the group goes next), with the builder in the latch.
    /// Adds the region's exit codes to `exits`. With `others` (each a chunk at `x + dx` of
    /// a row), the copies run the chunk at `x` and those, each instruction for one after
    /// the other (`jam`).
    fn region_loop(
        &mut self,
        r: usize,
        head: Block,
        row: Row,
        exits: &mut Vec<u64>,
        others: &[(i64, Row)],
    ) -> Result<(Value, Value), CompileError> {
        let src = self.src();
        let k = &src.k;
        let region = &src.regions[r];
        self.b.switch_to_block(head);
        let x = self.b.block_params(head)[0];
        self.enter_work_item(r, x, row)?;
        for (j, &(dx, row2)) in others.iter().enumerate() {
            // Another chunk, with variables of its own.
            let x2 = match dx {
                0 => x,
                dx => self.iadd_imm(x, dx),
            };
            self.others.push(Other {
                vars: SecondaryMap::new(),
                remat: SecondaryMap::new(),
                ids: Ids::default(),
            });
            self.as_other(j, |t| t.enter_work_item(r, x2, row2))?;
        }
        let lin = self.ids.lin.expect("inside the loops");

        // The copies of the region's blocks.
        let mut copies: SecondaryMap<Block, Option<Block>> = SecondaryMap::new();
        for &b in &src.blocks[r] {
            copies[b] = Some(self.b.create_block());
        }
        let copy = |b: Block| copies[b].expect("a copy of each block of the region");
        let latch = self.b.create_block();
        let code = self.b.append_block_param(latch, Type::I64);
        match region.after {
            Some(bar) if self.states => {
                // Only the work-items waiting at the region's barrier run it; the others
                // keep their state.
                let state = self.load_ctx(context::Key::State, lin)?;
                let here = src.exit_code(bar) as i64;
                let here = self.b.iconst(Type::I64, here);
                let waits = self.b.icmp(IntCC::Eq, state, here);
                self.b.brif(waits, copy(region.start), &[], latch, &[state]);
            }
            _ => {
                self.b.jump(copy(region.start), &[]);
            }
        }
        for &blk in &src.blocks[r] {
            self.copy_block(blk, &copies, latch)?;
            if let Some(bar) = ending_barrier(k, blk) {
                exits.push(src.exit_code(bar) as u64);
            } else if matches!(
                k.terminator(blk).map(|t| &k.dfg.insts[t].op),
                Some(Op::Return | Op::Unreachable)
            ) {
                exits.push(RETURN);
            }
        }
        self.others.clear();
        self.b.switch_to_block(latch);
        if self.states {
            self.store_ctx(context::Key::State, lin, code)?;
        }
        Ok((x, code))
    }

    /// Runs `f` as chunk `j` after the first of a jammed region copy (`Other`): with its
    /// variables, values computed again and ids in place of the first's.
    fn as_other<T>(
        &mut self,
        j: usize,
        f: impl FnOnce(&mut Self) -> Result<T, CompileError>,
    ) -> Result<T, CompileError> {
        let mut other = std::mem::replace(
            &mut self.others[j],
            Other {
                vars: SecondaryMap::new(),
                remat: SecondaryMap::new(),
                ids: Ids::default(),
            },
        );
        self.swap_other(&mut other);
        let result = f(self);
        self.swap_other(&mut other);
        self.others[j] = other;
        result
    }

    fn swap_other(&mut self, other: &mut Other) {
        std::mem::swap(&mut self.vars[self.cur], &mut other.vars);
        std::mem::swap(&mut self.remat, &mut other.remat);
        std::mem::swap(&mut self.ids, &mut other.ids);
    }

    /// Starts the work-item (or chunk) at `x` of `row` in region `r`: its ids, the values
    /// live into the region and a collective's result.
    fn enter_work_item(&mut self, r: usize, x: Value, row: Row) -> Result<(), CompileError> {
        let src = self.src();
        let k = &src.k;
        let region = &src.regions[r];
        let lin = self.b.iadd(row.lin, x);
        self.ids = Ids {
            lid: [Some(x), Some(row.y), Some(row.z)],
            lin: Some(lin),
        };
        // The values live into the region, and a collective's result.
        self.remat.clear();
        if let Some(bar) = region.after {
            for &v in &src.live[bar] {
                if self.maps[self.cur][v].is_some() {
                    continue;
                }
                let x = if let Some(x) = self.pre[self.cur][v] {
                    x
                } else if remat(k, &src.uniform, v) {
                    self.remat_value(v)
                } else {
                    self.load_ctx(self.value_key(v), lin)?
                };
                let var = self.var(v);
                self.b.def_var(var, x);
            }
            if let Op::Group(g, scope) = k.dfg.insts[bar].op {
                let r = k.dfg.inst_result(bar).expect("collectives have results");
                let x = match g {
                    GroupOp::ScanInclusive(_) | GroupOp::ScanExclusive(_) => {
                        self.load_ctx(context::Key::Operand(bar), lin)?
                    }
                    GroupOp::Reduce(_) | GroupOp::Broadcast => {
                        let at = self.result_index(scope, lin);
                        self.load_ctx(context::Key::Result(bar), at)?
                    }
                };
                self.def(r, x)?;
            }
        }
        Ok(())
    }

    /// With states: the exit code where the group goes next, the lowest of its work-items'
    /// (sub-group barriers and collectives have the lowest: they wait for their sub-group
    /// alone, while a work-group barrier waits until every work-item is there; `RETURN`, the
    /// highest, once all have returned).
    fn next_region(&mut self) -> Result<Value, CompileError> {
        let all_done = self.b.iconst(Type::I64, RETURN as i64);
        self.group_loop(0, all_done, |t, i, low| {
            let state = t.load_ctx(context::Key::State, i)?;
            Ok(t.b.binary(BinaryOp::Umin, low, state))
        })
    }

    /// Loads each source's single-copy values live into region `r` (r > 0), for all its
    /// work-items.
    fn preload(&mut self, r: usize) -> Result<(), CompileError> {
        for i in 0..self.sources.len() {
            self.cur = i;
            self.pre[i].clear();
            let src = self.src();
            let bar = src.regions[r]
                .after
                .expect("regions after the first follow a barrier");
            for &v in &src.live[bar] {
                let key = self.value_key(v);
                if self.ctx.single(key) {
                    let x = self.load_ctx(key, self.n)?;
                    self.pre[i][v] = Some(x);
                }
            }
        }
        self.cur = 0;
        Ok(())
    }

    /// Value `v` of the current source (`remat` holds for it) computed again for the current
    /// work-item.
    fn remat_value(&mut self, v: Value) -> Value {
        if let Some(x) = self.maps[self.cur][v].or(self.remat[v]) {
            return x;
        }
        let k = &self.src().k;
        let ferrocl_ir::ValueDef::Result(inst) = k.dfg.value_def(v) else {
            unreachable!("remat values are results")
        };
        let data = &k.dfg.insts[inst];
        let ty = k.dfg.value_type(v);
        let x = match data.op {
            Op::WorkItem(op, d) => self.work_item(op, d, ty),
            ref op => {
                let args: Vec<Value> = data.args.iter().map(|&a| self.remat_value(a)).collect();
                let ni = self.b.ins(op.clone(), &args, Some(ty));
                self.b.func.dfg.inst_result(ni).expect("a result")
            }
        };
        self.remat[v] = Some(x);
        x
    }

    fn iadd_imm(&mut self, x: Value, imm: i64) -> Value {
        let c = self.b.iconst(Type::I64, imm);
        self.b.iadd(x, c)
    }

    /// The variable standing for kernel value `v`.
    fn var(&mut self, v: Value) -> Variable {
        if let Some(var) = self.vars[self.cur][v] {
            return var;
        }
        let ty = self.src().k.dfg.value_type(v);
        let var = self.b.declare_var(ty);
        self.vars[self.cur][v] = Some(var);
        var
    }

    /// Kernel value `v` where the builder is.
    fn get(&mut self, v: Value) -> Value {
        if let Some(m) = self.maps[self.cur][v] {
            return m;
        }
        let var = self.var(v);
        self.b.use_var(var)
    }

    /// Defines kernel value `v` as `x`, and keeps it in its context array if it lives across a
    /// barrier.
    ///
    /// A value defined in a loop without a barrier (`Source::in_loops`) is kept where the
    /// region ends instead (`keep_deferred`): a loop that carries 16 accumulators through
    /// a tile (CLBlast's `XgemmDirect`) stored all 16 on every trip.
    fn def(&mut self, v: Value, x: Value) -> Result<(), CompileError> {
        let var = self.var(v);
        self.b.def_var(var, x);
        let key = self.value_key(v);
        if self.ctx.has(key) && self.src().deferred(v).is_none() {
            let lin = self.ids.lin.expect("definitions are inside the loops");
            self.store_ctx(key, lin, x)?;
        }
        Ok(())
    }

    /// At barrier or collective `bar`, where the work-item's region copy ends, keeps each
    /// value live across it whose store [`Self::def`] left for here: one defined in a loop
    /// of this region (its block has a copy in `copies`). The value reaching `bar` is the
    /// last one the loop gave. (Defined in another region, it was kept there, and loaded
    /// unchanged into this one.)
    fn keep_deferred(
        &mut self,
        bar: Inst,
        copies: &SecondaryMap<Block, Option<Block>>,
    ) -> Result<(), CompileError> {
        let src = self.src();
        for &v in &src.live[bar] {
            let key = self.value_key(v);
            let here = src.deferred(v).is_some_and(|b| copies[b].is_some());
            if here && self.ctx.has(key) && self.maps[self.cur][v].is_none() {
                let lin = self.ids.lin.expect("inside the loops");
                let x = self.get(v);
                self.store_ctx(key, lin, x)?;
            }
        }
        Ok(())
    }

    /// The address of element `index` of context array `key`.
    fn ctx_addr(&mut self, key: context::Key, index: Value) -> Value {
        let stride = self.ctx.stride(key);
        let base = self.bases[&key];
        if stride == 0 {
            return base;
        }
        let off = if stride == 1 {
            index
        } else {
            let s = self.b.iconst(Type::I64, i64::from(stride));
            self.b.imul(index, s)
        };
        self.b.ptradd(base, off)
    }

    fn load_ctx(&mut self, key: context::Key, index: Value) -> Result<Value, CompileError> {
        let p = self.ctx_addr(key, index);
        let ty = self.ctx.value_type(key);
        let stored = stored_type(ty);
        let x = self.b.load_with(stored, p, ctx_flags(stored));
        Ok(if ty.is_bool() {
            let z = self.b.iconst(stored, 0);
            self.b.icmp(IntCC::Ne, x, z)
        } else {
            x
        })
    }

    fn store_ctx(&mut self, key: context::Key, index: Value, x: Value) -> Result<(), CompileError> {
        let p = self.ctx_addr(key, index);
        let ty = self.ctx.value_type(key);
        let stored = stored_type(ty);
        let x = if ty.is_bool() {
            let (one, zero) = (self.b.iconst(stored, 1), self.b.iconst(stored, 0));
            self.b.select(x, one, zero)
        } else {
            x
        };
        self.b.store_with(x, p, ctx_flags(stored));
        Ok(())
    }

    /// Copies kernel block `blk` of the current region into its copy.
    fn copy_block(
        &mut self,
        blk: Block,
        copies: &SecondaryMap<Block, Option<Block>>,
        latch: Block,
    ) -> Result<(), CompileError> {
        let k = &self.src().k;
        let nb = copies[blk].expect("a copy of each block of the region");
        self.b.switch_to_block(nb);
        let jam = !self.others.is_empty();
        // A jammed copy's blocks take the first chunk's parameters, then the others'; its
        // branches are uniform, so the first chunk's conditions serve them all.
        self.copy_params(blk, nb)?;
        for j in 0..self.others.len() {
            self.as_other(j, |t| t.copy_params(blk, nb))?;
        }
        for &inst in k.layout.block_insts(blk) {
            let op = &k.dfg.insts[inst].op;
            if !jam || splits_regions(op) || matches!(op, Op::Return | Op::Unreachable) {
                if self.copy_inst(inst, copies, latch)? {
                    return Ok(());
                }
            } else if op.is_terminator() {
                self.copy_jammed_branch(inst, copies)?;
            } else {
                self.copy_inst(inst, copies, latch)?;
                for j in 0..self.others.len() {
                    self.as_other(j, |t| t.copy_inst(inst, copies, latch))?;
                }
            }
        }
        Ok(())
    }

    /// The parameters of `blk`'s copy `nb` for the current work-item (or chunk).
    fn copy_params(&mut self, blk: Block, nb: Block) -> Result<(), CompileError> {
        let k = &self.src().k;
        for &p in k.dfg.block_params(blk) {
            if self.maps[self.cur][p].is_some() {
                continue; // the kernel's parameters
            }
            let np = self.b.append_block_param(nb, k.dfg.value_type(p));
            self.def(p, np)?;
        }
        Ok(())
    }

    /// A uniform branch of a jammed copy: the first chunk's condition, and each target's
    /// arguments for every chunk.
    fn copy_jammed_branch(
        &mut self,
        inst: Inst,
        copies: &SecondaryMap<Block, Option<Block>>,
    ) -> Result<(), CompileError> {
        let k = &self.src().k;
        let data = &k.dfg.insts[inst];
        let dest_args = |t: &mut Self| -> Result<Vec<Vec<Value>>, CompileError> {
            let mut op = data.op.clone();
            Ok(op
                .dests_mut()
                .into_iter()
                .map(|d| d.args.iter().map(|&a| t.get(a)).collect())
                .collect())
        };
        let mut all = dest_args(self)?;
        for j in 0..self.others.len() {
            let other = self.as_other(j, dest_args)?;
            for (a, b) in all.iter_mut().zip(other) {
                a.extend(b);
            }
        }
        let mut op = data.op.clone();
        for (d, a) in op.dests_mut().into_iter().zip(all) {
            d.args = a;
            d.block = copies[d.block].expect("a copy of each block of the region");
        }
        let args: Vec<Value> = data.args.iter().map(|&a| self.get(a)).collect();
        self.b.ins(op, &args, None);
        Ok(())
    }

    /// Copies kernel instruction `inst` for the current work-item (or chunk) where the
    /// builder is; whether it ended the block (a barrier or a return, which go to `latch`).
    fn copy_inst(
        &mut self,
        inst: Inst,
        copies: &SecondaryMap<Block, Option<Block>>,
        latch: Block,
    ) -> Result<bool, CompileError> {
        let src = self.src();
        let k = &src.k;
        let copy = |b: Block| copies[b].expect("a copy of each block of the region");
        let data = &k.dfg.insts[inst];
        if splits_regions(&data.op) {
            self.keep_deferred(inst, copies)?;
            for j in 0..self.others.len() {
                self.as_other(j, |t| t.keep_deferred(inst, copies))?;
            }
            if let Op::Group(g, _) = data.op {
                let lin = self.ids.lin.expect("inside the loops");
                let x = self.get(data.args[0]);
                self.store_ctx(context::Key::Operand(inst), lin, x)?;
                if g == GroupOp::Broadcast {
                    let id = self.get(data.args[1]);
                    self.store_ctx(context::Key::Id(inst), lin, id)?;
                }
            }
            let code = self.b.iconst(Type::I64, src.exit_code(inst) as i64);
            self.b.jump(latch, &[code]);
            return Ok(true);
        }
        if let Some(r) = k.dfg.inst_result(inst) {
            if self.maps[self.cur][r].is_some() {
                return Ok(false); // computed once per group
            }
        }
        if let Some(q) = self.by_constant(k, inst) {
            let r = k.dfg.inst_result(inst).expect("arithmetic has results");
            self.def(r, q)?;
            return Ok(false);
        }
        match &data.op {
            // A work-item that reaches `unreachable` ends, as at a return.
            Op::Return | Op::Unreachable => {
                let code = self.b.iconst(Type::I64, RETURN as i64);
                self.b.jump(latch, &[code]);
            }
            Op::WorkItem(op, d) if per_work_item(*op) => {
                let r = k.dfg.inst_result(inst).expect("queries have results");
                let x = self.work_item(*op, *d, k.dfg.value_type(r));
                self.def(r, x)?;
            }
            Op::SlotAddr(ss) if self.ctx.has(context::Key::Slot(*ss)) => {
                let r = k.dfg.inst_result(inst).expect("slot addresses are results");
                let lin = self.ids.lin.expect("inside the loops");
                let x = self.ctx_addr(context::Key::Slot(*ss), lin);
                self.def(r, x)?;
            }
            op => {
                let mut op = op.clone();
                for d in op.dests_mut() {
                    let args: Vec<Value> = d.args.iter().map(|&a| self.get(a)).collect();
                    d.args = args;
                    d.block = copy(d.block);
                }
                let args: Vec<Value> = data.args.iter().map(|&a| self.get(a)).collect();
                let r = k.dfg.inst_result(inst);
                let ni = self.b.ins(op, &args, r.map(|r| k.dfg.value_type(r)));
                if let Some(r) = r {
                    let nr = self.b.func.dfg.inst_result(ni).expect("a result");
                    self.def(r, nr)?;
                }
            }
        }
        Ok(false)
    }

    /// Kernel instruction `inst` of `k`, if it is a 32-bit division or remainder by a
    /// constant, or a vector multiplication by a constant with a cheaper form, in that form
    /// where the builder is (`by_constant`).
    fn by_constant(&mut self, k: &Function, inst: Inst) -> Option<Value> {
        // A constant, or (in the W-wide function) a constant splatted over the lanes.
        let constant = |v: Value| match k.dfg.value_def(v) {
            ferrocl_ir::ValueDef::Result(i) if matches!(k.dfg.insts[i].op, Op::Splat) => {
                k.dfg.iconst_value(k.dfg.insts[i].args[0])
            }
            _ => k.dfg.iconst_value(v),
        };
        let data = &k.dfg.insts[inst];
        let Op::Binary(_) = data.op else {
            return None;
        };
        let ty = k.dfg.value_type(data.args[0]);
        match data.op {
            Op::Binary(
                op @ (BinaryOp::Sdiv | BinaryOp::Udiv | BinaryOp::Srem | BinaryOp::Urem),
            ) => {
                let d = constant(data.args[1])?;
                let x = self.get(data.args[0]);
                by_constant::divide(&mut self.b, op, x, d, ty)
            }
            Op::Binary(BinaryOp::Imul) if ty.is_vector() => {
                let (x, c) = match (constant(data.args[0]), constant(data.args[1])) {
                    (_, Some(c)) => (data.args[0], c),
                    (Some(c), None) => (data.args[1], c),
                    (None, None) => return None,
                };
                let x = self.get(x);
                by_constant::multiply(&mut self.b, x, c, ty)
            }
            _ => None,
        }
    }

    /// A per-work-item query, of type `ty`, for the current work-item.
    fn work_item(&mut self, op: WorkItemOp, d: u8, ty: Type) -> Value {
        let lid = |t: &Self, d: u8| -> Value { t.ids.lid[d as usize].expect("inside the loops") };
        let x = match op {
            WorkItemOp::LocalId if d < 3 => lid(self, d),
            WorkItemOp::GlobalId if d < 3 => {
                let l = lid(self, d);
                self.b.iadd(self.gid_base[d as usize], l)
            }
            // 6.15.1: the ids of a dimension past the third are 0.
            WorkItemOp::LocalId | WorkItemOp::GlobalId => self.b.iconst(Type::I64, 0),
            WorkItemOp::LocalLinearId => self.ids.lin.expect("inside the loops"),
            WorkItemOp::SubGroupLocalId | WorkItemOp::SubGroupId | WorkItemOp::SubGroupSize => {
                self.sub_group_query(op)
            }
            WorkItemOp::GlobalLinearId => {
                // 6.15.1: ((gz - oz) * gsy + (gy - oy)) * gsx + (gx - ox).
                let mut ids = [Value::from_u32(0); 3];
                for (i, id) in ids.iter_mut().enumerate() {
                    let g = self.b.work_item(WorkItemOp::GroupId, i as u8, Type::I64);
                    let s = self
                        .b
                        .work_item(WorkItemOp::EnqueuedLocalSize, i as u8, Type::I64);
                    let gs = self.b.imul(g, s);
                    let l = lid(self, i as u8);
                    *id = self.b.iadd(gs, l);
                }
                let gs0 = self.b.work_item(WorkItemOp::GlobalSize, 0, Type::I64);
                let gs1 = self.b.work_item(WorkItemOp::GlobalSize, 1, Type::I64);
                let t = self.b.imul(ids[2], gs1);
                let t = self.b.iadd(t, ids[1]);
                let t = self.b.imul(t, gs0);
                self.b.iadd(t, ids[0])
            }
            _ => unreachable!("{op:?} is uniform"),
        };
        if ty == Type::I64 {
            x
        } else {
            self.b.convert(ConvOp::Trunc, x, ty)
        }
    }

    /// Combines the operands of collective `bar` once for the group (OpenCL C 6.15.16), in
    /// linear local id order ("The scan order is defined by increasing 1D linear global ID
    /// within the work-group"); the result goes to the result array (reduce, broadcast) or
    /// replaces the operands (scans).
    fn combine(&mut self, bar: Inst, g: GroupOp) -> Result<(), CompileError> {
        let op_key = context::Key::Operand(bar);
        let ty = self.ctx.value_type(op_key);
        let zero = self.b.iconst(Type::I64, 0);
        match g {
            GroupOp::Broadcast => {
                // 6.15.16: the id is the same for every work-item, and one past the group is
                // undefined behaviour; work-item 0's is used, clamped into the group.
                let id = self.load_ctx(context::Key::Id(bar), zero)?;
                let last = self.iadd_imm(self.n, -1);
                let id = self.b.binary(BinaryOp::Umin, id, last);
                let x = self.load_ctx(op_key, id)?;
                self.fill_result(bar, x)?;
            }
            GroupOp::Reduce(op) => {
                let x0 = self.load_ctx(op_key, zero)?;
                let total = self.group_loop(1, x0, |t, i, acc| {
                    let x = t.load_ctx(op_key, i)?;
                    Ok(t.b.binary(op, acc, x))
                })?;
                self.fill_result(bar, total)?;
            }
            GroupOp::ScanInclusive(op) => {
                let x0 = self.load_ctx(op_key, zero)?;
                self.group_loop(1, x0, |t, i, acc| {
                    let x = t.load_ctx(op_key, i)?;
                    let next = t.b.binary(op, acc, x);
                    t.store_ctx(op_key, i, next)?;
                    Ok(next)
                })?;
            }
            GroupOp::ScanExclusive(op) => {
                // Work-item 0 gets the identity, the others the combination from the first
                // operand on (so that a lone -0.0 or NaN passes through unchanged).
                let x0 = self.load_ctx(op_key, zero)?;
                let id = self.identity(op, ty)?;
                self.store_ctx(op_key, zero, id)?;
                self.group_loop(1, x0, |t, i, acc| {
                    let x = t.load_ctx(op_key, i)?;
                    t.store_ctx(op_key, i, acc)?;
                    Ok(t.b.binary(op, acc, x))
                })?;
            }
        }
        Ok(())
    }

    /// Writes a reduce's or broadcast's result into element 0 of its result array (every
    /// work-item reads element 0).
    fn fill_result(&mut self, bar: Inst, x: Value) -> Result<(), CompileError> {
        let zero = self.b.iconst(Type::I64, 0);
        self.store_ctx(context::Key::Result(bar), zero, x)
    }

    /// Emits `for i in from..n { acc = body(i, acc) }` over the group's work-items; returns the
    /// final `acc`. Ends in a new block, where emission goes on.
    fn group_loop(
        &mut self,
        from: i64,
        init: Value,
        mut body: impl FnMut(&mut Self, Value, Value) -> Result<Value, CompileError>,
    ) -> Result<Value, CompileError> {
        let ty = self.b.value_type(init);
        let head = self.b.create_block();
        let i = self.b.append_block_param(head, Type::I64);
        let acc = self.b.append_block_param(head, ty);
        let (body_block, exit) = (self.b.create_block(), self.b.create_block());
        let start = self.b.iconst(Type::I64, from);
        self.b.jump(head, &[start, init]);
        self.b.switch_to_block(head);
        let more = self.b.icmp(IntCC::Ult, i, self.n);
        self.b.brif(more, body_block, &[], exit, &[]);
        self.b.switch_to_block(body_block);
        let next = body(self, i, acc)?;
        let i1 = self.iadd_imm(i, 1);
        self.b.jump(head, &[i1, next]);
        self.b.switch_to_block(exit);
        Ok(acc)
    }
}

/// The flags of an access of context memory (a `ptr.private`) as `stored`: trusted, its
/// address being inside the group's context memory by construction.
fn ctx_flags(stored: Type) -> MemFlags {
    MemFlags::new(AddrSpace::Private, stored.lane_bytes()).with_trusted()
}

/// The type a value of type `ty` is kept as in memory (booleans as bytes).
fn stored_type(ty: Type) -> Type {
    if ty.is_bool() {
        ty.with_lane_type(Type::I8).unwrap_or(Type::I8)
    } else {
        ty
    }
}
