//! Inlining of calls to defined functions into kernels, within a budget.
//!
//! Functions are flattened bottom-up: in a postorder of the call graph from the kernels,
//! each call a function makes to a defined function (already flattened itself) is either
//! replaced by a copy of the callee's body or kept as a call. No call is looked at twice, and
//! the work is linear in the size of the flattened kernels. Functions no kernel reaches are
//! not touched.
//!
//! A call is inlined when its callee is small (at most [`INLINE_LIMIT`] instructions once
//! flattened), has a single call site in the functions the kernels reach (and is not huge:
//! [`SPLIT_LIMIT`]), or must run inside its kernel ([`must_inline`]: it synchronizes the
//! work-group, takes part in a collective or asks which work-item runs it, which only the
//! kernel's work-group code can answer). Those are most calls of real programs, and inlined
//! code is what the devices optimize best (vectorization across work-items needs kernels
//! without calls). A large callee called from several sites stays a call: copied into every
//! site, it gave kernels of 100,000 and more instructions, on which code generation is
//! superlinear (register allocation), for code that runs no faster inlined.
//!
//! OpenCL C has no recursion (6.9 (k): "Recursion is not supported"); a call that closes a
//! cycle of the call graph (a callee still being flattened) is kept, as are calls to
//! declarations (builtins not linked in). The callee's body is copied between the two
//! halves of the caller's split block: its entry parameters become the call's arguments, its
//! stack slots new slots of the caller, each `return` a jump to the continuation, whose
//! parameter is the call's result value (so the caller's uses of it need no rewriting).

use std::collections::HashMap;

use crate::entity::{Block, Func, Inst, Value};
use crate::function::Function;
use crate::inst::{Dest, InstData, Op};
use crate::module::Module;

/// The flattened size, in instructions, up to which a callee is inlined at every call site.
///
/// Chosen by measurement on the largest real-world programs (hashcat's, whose kernels call
/// hash functions of a few hundred to 30,000 instructions from several sites): 300, 500 and
/// 1,000 built them in about the same time, 2,000 and 4,000 more slowly; the
/// largest callee that the benchmark suite's kernels call (`ferrocl bench`) is under 100
/// instructions, so they stay whole.
pub const INLINE_LIMIT: usize = 1000;

/// The flattened size above which a callee stays a call even from a single call site. Such
/// a body costs the same inlined or not, but inlined into its caller it makes one function
/// of its size and the caller's (hashcat's buffer-shifting switches, 15,000 and 30,000
/// instructions, inside its hash update functions), and register allocation is superlinear
/// in a function's size: kept apart, those programs built in two thirds of the time and half the memory. A
/// call costs nothing beside such a body.
pub const SPLIT_LIMIT: usize = 8000;

/// Whether an instruction ties a function to the kernel that runs it: a barrier or a
/// work-group or sub-group collective (the work-group transform cuts the kernel there), or a
/// work-item query (answered by the kernel's work-item loops). A function that holds one is
/// always inlined, so that no call leads to one.
pub fn must_inline(op: &Op) -> bool {
    matches!(op, Op::Barrier(..) | Op::Group(..) | Op::WorkItem(..))
}

/// Inlines the calls to defined functions into each kernel (and into every function a kernel
/// reaches, on the way), within the budget of [`INLINE_LIMIT`].
pub fn run(m: &mut Module) {
    flatten(m, false, Budget::STANDARD);
}

/// [`run`], with each function that is not a kernel cleaned up once calls were inlined into
/// it (stack slots promoted, jumps merged, dead and repeated code removed), before it is
/// copied into its callers: a helper copied to many call sites is cleaned once instead of
/// in every copy.
pub fn run_and_clean(m: &mut Module) {
    flatten(m, true, Budget::STANDARD);
}

/// The sizes above which a callee stays a call: from several call sites, and from one.
#[derive(Clone, Copy)]
struct Budget {
    shared: usize,
    single: usize,
}

impl Budget {
    const STANDARD: Budget = Budget {
        shared: INLINE_LIMIT,
        single: SPLIT_LIMIT,
    };
}

/// What flattening knows of a function once it is flat.
#[derive(Clone, Copy, Default)]
struct Flat {
    /// Its instructions.
    size: usize,
    /// It holds an instruction that [`must_inline`].
    pinned: bool,
}

fn flatten(m: &mut Module, clean: bool, budget: Budget) {
    let order = bottom_up(m);
    let sites = call_sites(m, &order);
    let mut done: Vec<Option<Flat>> = vec![None; m.funcs.len()];
    for f in order {
        // The function is taken out of the module while its callees are copied into it (it
        // is not `done`, so a call to itself stays).
        let mut caller = std::mem::take(&mut m.funcs[f]);
        let calls = inlinable_calls(m, &caller, &done);
        let mut inlined = false;
        for (call, callee) in calls {
            let flat = done[callee.as_u32() as usize].unwrap_or_default();
            let limit = if sites[callee.as_u32() as usize] > 1 {
                budget.shared
            } else {
                budget.single
            };
            let keep = !flat.pinned && flat.size > limit && !m.funcs[callee].is_kernel();
            if !keep {
                inline_call(&mut caller, call, &m.funcs[callee]);
                inlined = true;
            }
        }
        if clean && inlined && !caller.is_kernel() {
            super::mem2reg::promote(&mut caller);
            super::dce::simplify_function(&mut caller);
            super::dce::dce(&mut caller);
            super::cse::cse(&mut caller);
        }
        let body = || {
            caller
                .layout
                .blocks()
                .iter()
                .flat_map(|&b| caller.layout.block_insts(b))
        };
        let flat = Flat {
            size: body().count(),
            pinned: body().any(|&i| must_inline(&caller.dfg.insts[i].op)),
        };
        m.funcs[f] = caller;
        done[f.as_u32() as usize] = Some(flat);
    }
}

/// How many calls of each function the functions in `order` make.
fn call_sites(m: &Module, order: &[Func]) -> Vec<usize> {
    let mut sites = vec![0; m.funcs.len()];
    for &f in order {
        let func = &m.funcs[f];
        for &b in func.layout.blocks() {
            for &i in func.layout.block_insts(b) {
                if let Op::Call(c) = func.dfg.insts[i].op {
                    if let Some(n) = sites.get_mut(c.as_u32() as usize) {
                        *n += 1;
                    }
                }
            }
        }
    }
    sites
}

/// Whether a function is flattened (`Done`), on the current path of the walk (`Open`), or
/// not reached yet.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    New,
    Open,
    Done,
}

/// The functions the kernels reach, each after every function it calls (except along a
/// cycle): the order in which flattening finds each callee already flat.
fn bottom_up(m: &Module) -> Vec<Func> {
    let n = m.funcs.len();
    let mut mark = vec![Mark::New; n];
    let mut order = Vec::new();
    for (k, _) in m.kernels() {
        if mark[k.as_u32() as usize] != Mark::New {
            continue;
        }
        // Depth-first with an explicit stack of (function, its callees, next callee).
        mark[k.as_u32() as usize] = Mark::Open;
        let mut stack: Vec<(Func, Vec<Func>, usize)> = vec![(k, callees(m, k), 0)];
        while let Some((f, cs, next)) = stack.last_mut() {
            if let Some(&c) = cs.get(*next) {
                *next += 1;
                if mark[c.as_u32() as usize] == Mark::New {
                    mark[c.as_u32() as usize] = Mark::Open;
                    let cc = callees(m, c);
                    stack.push((c, cc, 0));
                }
            } else {
                mark[f.as_u32() as usize] = Mark::Done;
                order.push(*f);
                stack.pop();
            }
        }
    }
    order
}

/// The defined functions `f` calls, each once.
fn callees(m: &Module, f: Func) -> Vec<Func> {
    let func = &m.funcs[f];
    let mut out = Vec::new();
    for &b in func.layout.blocks() {
        for &i in func.layout.block_insts(b) {
            if let Op::Call(c) = func.dfg.insts[i].op {
                if m.funcs.get(c).is_some_and(|cf| !cf.is_declaration()) && !out.contains(&c) {
                    out.push(c);
                }
            }
        }
    }
    out
}

/// The calls of `caller` to functions in `done` (flattened), last first: inlining a call then
/// moves only the instructions after it that no later inlining moves again. In a postorder
/// every callee is flattened before its callers, except one along a cycle of the call graph
/// (a recursive call, kept).
fn inlinable_calls(m: &Module, caller: &Function, done: &[Option<Flat>]) -> Vec<(Inst, Func)> {
    let mut calls = Vec::new();
    for &b in caller.layout.blocks() {
        for &i in caller.layout.block_insts(b) {
            if let Op::Call(c) = caller.dfg.insts[i].op {
                let defined = m.funcs.get(c).is_some_and(|cf| !cf.is_declaration());
                if defined && done.get(c.as_u32() as usize).is_some_and(Option::is_some) {
                    calls.push((i, c));
                }
            }
        }
    }
    calls.reverse();
    calls
}

/// Replaces `call` (a call placed in `caller`) by a copy of `callee`'s body.
pub fn inline_call(caller: &mut Function, call: Inst, callee: &Function) {
    let b = caller.layout.inst_block(call).expect("call is placed");
    // Searched from the end: the calls of a block are inlined last first, so the call is
    // near the end of what is left of its block.
    let pos = caller
        .layout
        .block_insts(b)
        .iter()
        .rposition(|&i| i == call)
        .expect("layout in sync");
    // Split: everything after the call moves to the continuation block.
    let cont = caller.dfg.make_block();
    let tail = caller.layout.split_off_insts(b, pos + 1);
    let args = caller.dfg.insts[call].args.clone();

    let slots: HashMap<_, _> = callee
        .slots
        .iter()
        .map(|(ss, d)| (ss, caller.create_slot(d.size, d.align)))
        .collect();
    let mut blocks: HashMap<Block, Block> = HashMap::new();
    let mut values: HashMap<Value, Value> = HashMap::new();
    let entry = callee.layout.entry_block().expect("callee has a body");
    let mut placed = Vec::with_capacity(callee.layout.blocks().len() + 1);
    for &cb in callee.layout.blocks() {
        let nb = caller.dfg.make_block();
        placed.push(nb);
        blocks.insert(cb, nb);
        for (k, &p) in callee.dfg.block_params(cb).iter().enumerate() {
            let v = if cb == entry {
                args[k]
            } else {
                caller.dfg.append_block_param(nb, callee.dfg.value_type(p))
            };
            values.insert(p, v);
        }
    }
    placed.push(cont);
    caller.layout.insert_blocks_after(&placed, b);
    for i in tail {
        caller.layout.append_inst(i, cont);
    }
    if let Some(r) = caller.dfg.take_result(call) {
        caller.dfg.attach_block_param(cont, r);
    }
    // Create every instruction first, so that values used before their definition in
    // layout order (loop back edges) are known when operands are mapped.
    let mut copies: Vec<Inst> = Vec::new();
    for &cb in callee.layout.blocks() {
        for &ci in callee.layout.block_insts(cb) {
            let result = callee.dfg.inst_result(ci);
            let ty = result.map(|r| callee.dfg.value_type(r));
            let ni = caller.dfg.make_inst(callee.dfg.insts[ci].clone(), ty);
            caller.layout.append_inst(ni, blocks[&cb]);
            if let (Some(r), Some(nr)) = (result, caller.dfg.inst_result(ni)) {
                values.insert(r, nr);
            }
            copies.push(ni);
        }
    }
    for ni in copies {
        let data = &mut caller.dfg.insts[ni];
        data.map_args(|v| values.get(&v).copied().unwrap_or(v));
        for d in data.op.dests_mut() {
            d.block = blocks[&d.block];
        }
        match &mut data.op {
            Op::SlotAddr(ss) => *ss = slots[ss],
            Op::Return => {
                let ret_args = std::mem::take(&mut data.args);
                data.op = Op::Jump(Dest {
                    block: cont,
                    args: ret_args,
                });
            }
            _ => {}
        }
    }
    caller.dfg.insts[call] = InstData {
        op: Op::Jump(Dest {
            block: blocks[&entry],
            args: Vec::new(),
        }),
        args: Vec::new(),
    };
}

#[cfg(test)]
mod tests {
    use crate::inst::Op;
    use crate::module::Module;
    use crate::{parse_module, verify_module};

    fn calls_to(m: &Module, caller: &str, callee: &str) -> usize {
        let (_, f) = m
            .funcs
            .iter()
            .find(|(_, f)| f.name == caller)
            .expect("caller");
        let (target, _) = m
            .funcs
            .iter()
            .find(|(_, f)| f.name == callee)
            .expect("callee");
        f.layout
            .blocks()
            .iter()
            .flat_map(|&b| f.layout.block_insts(b))
            .filter(|&&i| f.dfg.insts[i].op == Op::Call(target))
            .count()
    }

    /// A function reached through a chain of calls is copied once per call site: the
    /// kernel's instruction arena grows by the flattened callees and nothing else (no copy
    /// of a callee that is then thrown away), and a function no kernel reaches is untouched.
    #[test]
    fn each_call_site_costs_one_copy_of_the_flattened_callee() {
        let mut m = parse_module(
            "func @leaf(i32) -> i32 {\nblock0(v0: i32):\n    v1: i32 = iadd v0, v0\n    return v1\n}\n\
             func @mid(i32) -> i32 {\nblock0(v0: i32):\n    v1: i32 = call @leaf(v0)\n    v2: i32 = call @leaf(v1)\n    return v2\n}\n\
             func @unused(i32) -> i32 {\nblock0(v0: i32):\n    v1: i32 = call @leaf(v0)\n    return v1\n}\n\
             kernel @k(ptr.global) {\n    arg \"p\": \"int*\" global none []\n\
             block0(v0: ptr.global):\n    v1: i32 = load.global v0, align 4\n\
             \x20   v2: i32 = call @mid(v1)\n    v3: i32 = call @mid(v2)\n    v4: i32 = call @mid(v3)\n\
             \x20   store.global v4, v0, align 4\n    return\n}\n",
        )
        .expect("parses");
        let before = m
            .funcs
            .values()
            .find(|f| f.name == "k")
            .map(|f| f.dfg.insts.len());
        super::run(&mut m);
        verify_module(&m).expect("inlined module verifies");
        assert_eq!(calls_to(&m, "k", "mid"), 0);
        assert_eq!(calls_to(&m, "mid", "leaf"), 0);
        assert_eq!(
            calls_to(&m, "unused", "leaf"),
            1,
            "no kernel reaches @unused"
        );
        let k = m.funcs.values().find(|f| f.name == "k").expect("kernel");
        // Flattened @mid is seven instructions (per call of @leaf: the jump that replaced it,
        // the `iadd` and the jump that replaced the `return`; then @mid's own `return`); each
        // of the three call sites adds one copy of them.
        assert_eq!(k.dfg.insts.len(), before.expect("kernel") + 3 * 7);
    }

    /// With clean-up, a flattened helper is simplified before it is copied: the jumps that
    /// replaced its calls and returns are merged away, so each copy is one block.
    #[test]
    fn a_flattened_helper_is_cleaned_before_it_is_copied() {
        let mut m = parse_module(
            "func @leaf(i32) -> i32 {\nblock0(v0: i32):\n    v1: i32 = iadd v0, v0\n    return v1\n}\n\
             func @mid(i32) -> i32 {\nblock0(v0: i32):\n    v1: i32 = call @leaf(v0)\n    v2: i32 = call @leaf(v1)\n    return v2\n}\n\
             kernel @k(ptr.global) {\n    arg \"p\": \"int*\" global none []\n\
             block0(v0: ptr.global):\n    v1: i32 = load.global v0, align 4\n\
             \x20   v2: i32 = call @mid(v1)\n    store.global v2, v0, align 4\n    return\n}\n",
        )
        .expect("parses");
        super::run_and_clean(&mut m);
        verify_module(&m).expect("inlined module verifies");
        let mid = m.funcs.values().find(|f| f.name == "mid").expect("mid");
        assert_eq!(mid.layout.blocks().len(), 1);
        assert_eq!(calls_to(&m, "k", "mid"), 0);
    }

    /// A cycle of calls (which OpenCL C forbids, 6.9 (k), and the verifier reports) ends the
    /// inlining with the recursive call kept, instead of growing the kernel without end.
    #[test]
    fn a_recursive_call_is_kept() {
        let mut m = parse_module(
            "func @a(i32) -> i32 {\nblock0(v0: i32):\n    v1: i32 = call @b(v0)\n    return v1\n}\n\
             func @b(i32) -> i32 {\nblock0(v0: i32):\n    v1: i32 = call @a(v0)\n    return v1\n}\n\
             kernel @k(ptr.global) {\n    arg \"p\": \"int*\" global none []\n\
             block0(v0: ptr.global):\n    v1: i32 = load.global v0, align 4\n    v2: i32 = call @a(v1)\n\
             \x20   store.global v2, v0, align 4\n    return\n}\n",
        )
        .expect("parses");
        super::run(&mut m);
        // @b is flattened first (its call of @a, still open, kept), then @a (holding @b's
        // body: a call of @a), then the kernel: one call is left.
        assert_eq!(calls_to(&m, "a", "a"), 1);
        assert_eq!(calls_to(&m, "k", "a") + calls_to(&m, "k", "b"), 1);
    }

    fn budget(shared: usize, single: usize) -> super::Budget {
        super::Budget { shared, single }
    }

    /// `@big` (four instructions) called from two sites, `@once` (as large) from one, and
    /// `@ids` (as large, asking for its work-item) from two.
    const BUDGET: &str = "func @big(i32) -> i32 {\nblock0(v0: i32):\n    v1: i32 = iadd v0, v0\n\
         \x20   v2: i32 = imul v1, v0\n    v3: i32 = isub v2, v0\n    return v3\n}\n\
         func @once(i32) -> i32 {\nblock0(v0: i32):\n    v1: i32 = iadd v0, v0\n\
         \x20   v2: i32 = imul v1, v0\n    v3: i32 = isub v2, v0\n    return v3\n}\n\
         func @ids(i32) -> i32 {\nblock0(v0: i32):\n    v1: i64 = global_id 0\n\
         \x20   v2: i32 = trunc v1\n    v3: i32 = iadd v2, v0\n    return v3\n}\n\
         kernel @k(ptr.global) {\n    arg \"p\": \"int*\" global none []\n\
         block0(v0: ptr.global):\n    v1: i32 = load.global v0, align 4\n\
         \x20   v2: i32 = call @big(v1)\n    v3: i32 = call @big(v2)\n    v4: i32 = call @once(v3)\n\
         \x20   v5: i32 = call @ids(v4)\n    v6: i32 = call @ids(v5)\n\
         \x20   store.global v6, v0, align 4\n    return\n}\n";

    /// Over the budget, a callee with several call sites stays a call; one with a single
    /// call site is inlined unless it is over the single-site budget too, and one that asks
    /// which work-item runs it always is.
    #[test]
    fn large_callees_with_several_call_sites_stay_calls() {
        let mut m = parse_module(BUDGET).expect("parses");
        super::flatten(&mut m, false, budget(3, 100));
        verify_module(&m).expect("inlined module verifies");
        assert_eq!(calls_to(&m, "k", "big"), 2);
        assert_eq!(calls_to(&m, "k", "once"), 0);
        assert_eq!(calls_to(&m, "k", "ids"), 0);
        // Within the budget, every call is inlined.
        let mut m = parse_module(BUDGET).expect("parses");
        super::flatten(&mut m, false, budget(4, 100));
        assert_eq!(calls_to(&m, "k", "big"), 0);
        // Over the budget for a single call site, `@once` stays a call too; `@ids` never does.
        let mut m = parse_module(BUDGET).expect("parses");
        super::flatten(&mut m, false, budget(3, 3));
        verify_module(&m).expect("inlined module verifies");
        assert_eq!(calls_to(&m, "k", "once"), 1);
        assert_eq!(calls_to(&m, "k", "ids"), 0);
    }

    /// A kept callee is judged by its flattened size: `@mid` calls `@big` (kept) twice, so it
    /// is small and inlined, and its calls of `@big` move into the kernel.
    #[test]
    fn a_small_caller_of_a_kept_callee_is_inlined() {
        let text = BUDGET.replace(
            "kernel @k",
            "func @mid(i32) -> i32 {\nblock0(v0: i32):\n    v1: i32 = call @big(v0)\n\
             \x20   v2: i32 = call @big(v1)\n    return v2\n}\nkernel @k",
        );
        let text = text.replace(
            "v4: i32 = call @once(v3)",
            "v7: i32 = call @mid(v3)\n    v8: i32 = call @mid(v7)\n    v4: i32 = call @once(v8)",
        );
        let mut m = parse_module(&text).expect("parses");
        super::flatten(&mut m, false, budget(3, 100));
        verify_module(&m).expect("inlined module verifies");
        assert_eq!(calls_to(&m, "k", "mid"), 0);
        assert_eq!(calls_to(&m, "k", "big"), 6);
    }
}
