//! Inlining of every call to a defined function into kernels.
//!
//! OpenCL C has no recursion (6.9 (k): "Recursion is not supported"), so inlining calls
//! until none to a defined function is left terminates; a step budget guards against a
//! recursive module anyway (the calls left over are kept). Calls to declarations (builtins
//! not linked in) stay. The callee's body is copied between the two halves of the caller's
//! split block: its entry parameters become the call's arguments, its stack slots new slots
//! of the caller, each `return` a jump to the continuation, whose parameter is the call's
//! result value (so the caller's uses of it need no rewriting).

use std::collections::HashMap;

use crate::entity::{Block, Func, Inst, Value};
use crate::function::Function;
use crate::inst::{Dest, InstData, Op};
use crate::module::Module;

/// Inlining steps allowed per kernel.
const BUDGET: usize = 100_000;

/// Inlines every call to a defined function into each kernel.
pub fn run(m: &mut Module) {
    let kernels: Vec<Func> = m.kernels().map(|(k, _)| k).collect();
    for k in kernels {
        for _ in 0..BUDGET {
            let Some((call, callee)) = find_call(m, k) else {
                break;
            };
            let body = m.funcs[callee].clone();
            inline_call(&mut m.funcs[k], call, &body);
        }
    }
}

fn find_call(m: &Module, k: Func) -> Option<(Inst, Func)> {
    let f = &m.funcs[k];
    for &b in f.layout.blocks() {
        for &i in f.layout.block_insts(b) {
            if let Op::Call(c) = f.dfg.insts[i].op {
                if c != k && m.funcs.get(c).is_some_and(|cf| !cf.is_declaration()) {
                    return Some((i, c));
                }
            }
        }
    }
    None
}

/// Replaces `call` (a call placed in `caller`) by a copy of `callee`'s body.
pub fn inline_call(caller: &mut Function, call: Inst, callee: &Function) {
    let b = caller.layout.inst_block(call).expect("call is placed");
    let pos = caller.layout.position(call);
    // Split: everything after the call moves to the continuation block.
    let cont = caller.dfg.make_block();
    caller.layout.insert_block_after(cont, b);
    let tail: Vec<Inst> = caller.layout.block_insts(b)[pos + 1..].to_vec();
    for i in tail {
        caller.layout.remove_inst(i);
        caller.layout.append_inst(i, cont);
    }
    if let Some(r) = caller.dfg.take_result(call) {
        caller.dfg.attach_block_param(cont, r);
    }
    let args = caller.dfg.insts[call].args.clone();

    let slots: HashMap<_, _> = callee
        .slots
        .iter()
        .map(|(ss, d)| (ss, caller.create_slot(d.size, d.align)))
        .collect();
    let mut blocks: HashMap<Block, Block> = HashMap::new();
    let mut values: HashMap<Value, Value> = HashMap::new();
    let mut after = b;
    let entry = callee.layout.entry_block().expect("callee has a body");
    for &cb in callee.layout.blocks() {
        let nb = caller.dfg.make_block();
        caller.layout.insert_block_after(nb, after);
        after = nb;
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
    // Create every instruction first, so that values used before their definition in
    // layout order (loop back edges) are known when operands are mapped.
    let mut copies: Vec<(Inst, Inst)> = Vec::new();
    for &cb in callee.layout.blocks() {
        for &ci in callee.layout.block_insts(cb) {
            let result = callee.dfg.inst_result(ci);
            let ty = result.map(|r| callee.dfg.value_type(r));
            let ni = caller.dfg.make_inst(callee.dfg.insts[ci].clone(), ty);
            caller.layout.append_inst(ni, blocks[&cb]);
            if let (Some(r), Some(nr)) = (result, caller.dfg.inst_result(ni)) {
                values.insert(r, nr);
            }
            copies.push((ci, ni));
        }
    }
    for (_, ni) in copies {
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
