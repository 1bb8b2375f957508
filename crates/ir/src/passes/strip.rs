//! Removal of the functions no kernel can reach: after inlining, helper functions and the
//! unused part of a linked builtin library are dead weight for every backend.
//!
//! A module without kernels (a library on its own) is left alone. Kernels, and the
//! functions and declarations they call directly or indirectly, are kept in module order;
//! calls are renumbered. Globals are all kept.

use crate::entity::{Func, PrimaryMap};
use crate::inst::Op;
use crate::module::Module;

/// Removes the functions no kernel reaches.
pub fn run(m: &mut Module) {
    if m.kernels().next().is_none() {
        return;
    }
    let n = m.funcs.len();
    let mut live = vec![false; n];
    let mut work: Vec<Func> = m.kernels().map(|(k, _)| k).collect();
    while let Some(f) = work.pop() {
        let i = f.as_u32() as usize;
        if i >= n || std::mem::replace(&mut live[i], true) {
            continue;
        }
        let func = &m.funcs[f];
        for &b in func.layout.blocks() {
            for &inst in func.layout.block_insts(b) {
                if let Op::Call(c) = func.dfg.insts[inst].op {
                    work.push(c);
                }
            }
        }
    }
    if live.iter().all(|&l| l) {
        return;
    }
    let old = std::mem::take(&mut m.funcs);
    let mut map: Vec<Option<Func>> = vec![None; n];
    let mut funcs = PrimaryMap::new();
    for (f, func) in old.iter() {
        if live[f.as_u32() as usize] {
            map[f.as_u32() as usize] = Some(funcs.push(func.clone()));
        }
    }
    for (_, func) in funcs.iter_mut() {
        for (_, data) in func.dfg.insts.iter_mut() {
            if let Op::Call(c) = &mut data.op {
                // Unplaced instructions may name removed functions; they are dead, so any
                // valid number does.
                *c = map
                    .get(c.as_u32() as usize)
                    .copied()
                    .flatten()
                    .unwrap_or(Func::from_u32(0));
            }
        }
    }
    m.funcs = funcs;
}
