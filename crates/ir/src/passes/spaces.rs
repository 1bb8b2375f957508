//! Generic accesses resolved to their named address space: a load, store or atomic through a
//! `generic` pointer that is `addrcast` of a `global`, `local` or `private` pointer, then
//! `ptradd`s, becomes the same access in that space, made through the same `ptradd`s applied
//! to the named pointer.
//!
//! OpenCL C 3.0 6.7.9: "The named address spaces __global, __local, and __private are subsets
//! of the unnamed generic address space", so the access reaches the same object either way.
//! What changes is what a device knows: the CPU device confines every `__local` and
//! `__private` access to the launch's own regions, which it cannot do for a generic access
//! (a plain address, whose space is only known at run time). After inlining most generic
//! pointers of a kernel come from one named pointer, and this pass gives their accesses back
//! the confinement of that space. An access whose pointer comes from several spaces (a block
//! parameter, a `select`) stays generic. Atomics are resolved to `global` and `local` only
//! (the IR has no private atomics).

use crate::dfg::ValueDef;
use crate::entity::{Inst, Value};
use crate::function::Function;
use crate::inst::{InstData, Op};
use crate::module::Module;
use crate::types::{AddrSpace, Type};

/// Resolves the generic accesses of every function.
pub fn run(m: &mut Module) {
    for (_, f) in m.funcs.iter_mut() {
        if !f.is_declaration() {
            resolve(f);
        }
    }
}

/// The named pointer a generic pointer `v` is made from, and the offsets added to it, the
/// first added first: `v = ptradd(...ptradd(addrcast(q), o1)..., on)`.
fn named_origin(f: &Function, v: Value) -> Option<(Value, Vec<Value>)> {
    let mut offsets = Vec::new();
    let mut q = f.dfg.resolve(v);
    loop {
        let ValueDef::Result(i) = f.dfg.value_def(q) else {
            return None;
        };
        let data = &f.dfg.insts[i];
        match data.op {
            Op::PtrAdd => {
                offsets.push(f.dfg.resolve(data.args[1]));
                q = f.dfg.resolve(data.args[0]);
            }
            Op::AddrCast => {
                let named = f.dfg.resolve(data.args[0]);
                let ty = f.dfg.value_type(named);
                if ty.is_vector() || ty.addr_space() == Some(AddrSpace::Generic) {
                    return None;
                }
                offsets.reverse();
                return Some((named, offsets));
            }
            _ => return None,
        }
    }
}

/// The index of the pointer operand of a memory access, and its space, if `i` is one.
fn access(f: &Function, i: Inst) -> Option<(usize, AddrSpace, bool)> {
    let data = &f.dfg.insts[i];
    match &data.op {
        Op::Load(flags) => Some((0, flags.space, false)),
        Op::Store(flags) => Some((1, flags.space, false)),
        Op::AtomicRmw(_, info) | Op::Cmpxchg(info, _) | Op::AtomicLoad(info) => {
            Some((0, info.space, true))
        }
        Op::AtomicStore(info) => Some((1, info.space, true)),
        _ => None,
    }
}

/// Resolves the generic accesses of `f`; returns whether any changed.
pub fn resolve(f: &mut Function) -> bool {
    let insts: Vec<Inst> = f
        .layout
        .blocks()
        .iter()
        .flat_map(|&b| f.layout.block_insts(b).iter().copied())
        .collect();
    let mut changed = false;
    for i in insts {
        let Some((at, AddrSpace::Generic, atomic)) = access(f, i) else {
            continue;
        };
        let Some((named, offsets)) = named_origin(f, f.dfg.insts[i].args[at]) else {
            continue;
        };
        let Some(space) = f.dfg.value_type(named).addr_space() else {
            continue;
        };
        if atomic && !matches!(space, AddrSpace::Global | AddrSpace::Local) {
            continue;
        }
        if space == AddrSpace::Constant {
            // 6.7.9: "A pointer that points to the constant address space cannot be cast or
            // implicitly converted to the generic address space"; the verifier refuses it.
            continue;
        }
        let ty = Type::ptr(space);
        let mut p = named;
        for o in offsets {
            let add = f.insert_inst_before(i, InstData::new(Op::PtrAdd, &[p, o]), Some(ty));
            p = f.dfg.inst_result(add).expect("ptradd has a result");
        }
        let data = &mut f.dfg.insts[i];
        data.args[at] = p;
        match &mut data.op {
            Op::Load(flags) | Op::Store(flags) => flags.space = space,
            Op::AtomicRmw(_, info)
            | Op::Cmpxchg(info, _)
            | Op::AtomicLoad(info)
            | Op::AtomicStore(info) => info.space = space,
            _ => unreachable!("an access"),
        }
        changed = true;
    }
    changed
}
