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
//! the confinement of that space. A pointer that reaches the access through block parameters
//! or `select`s (a pointer stepped in a loop, one of two chosen) is followed back through
//! them too ([`origins`]): when every way leads to `addrcast`s from one named space, the access
//! becomes an access of that space through `addrcast` of the pointer back to it (on the CPU
//! device a no-op that is then confined). An access whose pointer may come from several spaces
//! stays generic; [`mixed_local_private`] names those whose spaces are `local` and `private`
//! only, which the CPU device confines to one region or the other by where the address lies.
//! Atomics are resolved to `global` and `local` only (the IR has no private atomics).

use std::collections::HashMap;

use crate::dfg::ValueDef;
use crate::entity::{Block, Inst, Value};
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

/// The named spaces a generic pointer may come from: bits `GLOBAL`, `LOCAL`, `PRIVATE`, or
/// `UNKNOWN` when some way leads elsewhere (a function parameter, a load, a call, an integer).
pub mod origin {
    pub const GLOBAL: u8 = 1;
    pub const LOCAL: u8 = 2;
    pub const PRIVATE: u8 = 4;
    pub const UNKNOWN: u8 = 8;
}

/// The arguments each block parameter receives from the branches to its block.
type Incoming = HashMap<(Block, u32), Vec<Value>>;

fn incoming(f: &Function) -> Incoming {
    let mut map: Incoming = HashMap::new();
    for &b in f.layout.blocks() {
        let Some(t) = f.terminator(b) else { continue };
        for d in f.dfg.insts[t].op.dests() {
            for (k, &a) in d.args.iter().enumerate() {
                map.entry((d.block, k as u32)).or_default().push(a);
            }
        }
    }
    map
}

/// The spaces (`origin` bits) pointer `v` may come from, following `ptradd`, `select` and block
/// parameters back to `addrcast`s of named pointers.
fn origins(f: &Function, incoming: &Incoming, v: Value) -> u8 {
    let mut bits = 0;
    let mut seen = std::collections::HashSet::new();
    let mut work = vec![v];
    while let Some(q) = work.pop() {
        let q = f.dfg.resolve(q);
        if !seen.insert(q) {
            continue;
        }
        match f.dfg.value_def(q) {
            ValueDef::Result(i) => {
                let data = &f.dfg.insts[i];
                match data.op {
                    Op::PtrAdd => work.push(data.args[0]),
                    Op::Select => work.extend([data.args[1], data.args[2]]),
                    Op::AddrCast => {
                        let named = f.dfg.value_type(f.dfg.resolve(data.args[0]));
                        bits |= match named.addr_space() {
                            Some(AddrSpace::Global) if !named.is_vector() => origin::GLOBAL,
                            Some(AddrSpace::Local) if !named.is_vector() => origin::LOCAL,
                            Some(AddrSpace::Private) if !named.is_vector() => origin::PRIVATE,
                            _ => origin::UNKNOWN,
                        };
                    }
                    _ => bits |= origin::UNKNOWN,
                }
            }
            ValueDef::Param(b, k) => match incoming.get(&(b, k)) {
                Some(args) => work.extend(args.iter().copied()),
                None => bits |= origin::UNKNOWN,
            },
            _ => bits |= origin::UNKNOWN,
        }
        if bits & origin::UNKNOWN != 0 {
            break;
        }
    }
    bits
}

/// The pointers of `f`'s generic loads and stores that may come from `__local` and from
/// `__private` memory and from nothing else (see the module documentation).
pub fn mixed_local_private(f: &Function) -> Vec<Value> {
    let incoming = incoming(f);
    let mut out = Vec::new();
    for &b in f.layout.blocks() {
        for &i in f.layout.block_insts(b) {
            let Some((at, AddrSpace::Generic, false)) = access(f, i) else {
                continue;
            };
            let p = f.dfg.resolve(f.dfg.insts[i].args[at]);
            if origins(f, &incoming, p) == origin::LOCAL | origin::PRIVATE {
                out.push(p);
            }
        }
    }
    out
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
    let mut incoming_map = None;
    for i in insts {
        let Some((at, AddrSpace::Generic, atomic)) = access(f, i) else {
            continue;
        };
        let Some((named, offsets)) = named_origin(f, f.dfg.insts[i].args[at]) else {
            let incoming = incoming_map.get_or_insert_with(|| incoming(f));
            changed |= resolve_by_origins(f, incoming, i, at, atomic);
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
        retarget(f, i, at, p, space);
        changed = true;
    }
    changed
}

/// Resolves access `i` (its pointer operand `at`) when its pointer comes from one named space
/// by every way: the access is made through `addrcast` of the pointer to that space.
fn resolve_by_origins(
    f: &mut Function,
    incoming: &Incoming,
    i: Inst,
    at: usize,
    atomic: bool,
) -> bool {
    let p = f.dfg.resolve(f.dfg.insts[i].args[at]);
    let space = match origins(f, incoming, p) {
        origin::GLOBAL => AddrSpace::Global,
        origin::LOCAL => AddrSpace::Local,
        origin::PRIVATE if !atomic => AddrSpace::Private,
        _ => return false,
    };
    let cast = f.insert_inst_before(i, InstData::new(Op::AddrCast, &[p]), Some(Type::ptr(space)));
    let q = f.dfg.inst_result(cast).expect("addrcast has a result");
    retarget(f, i, at, q, space);
    true
}

/// Makes access `i` an access of `space` through `ptr` (its operand `at`).
fn retarget(f: &mut Function, i: Inst, at: usize, ptr: Value, space: AddrSpace) {
    let data = &mut f.dfg.insts[i];
    data.args[at] = ptr;
    match &mut data.op {
        Op::Load(flags) | Op::Store(flags) => flags.space = space,
        Op::AtomicRmw(_, info)
        | Op::Cmpxchg(info, _)
        | Op::AtomicLoad(info)
        | Op::AtomicStore(info) => info.space = space,
        _ => unreachable!("an access"),
    }
}
