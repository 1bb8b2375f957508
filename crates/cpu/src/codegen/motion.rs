//! Value numbering and loop-invariant code motion on the translated Cranelift function, in
//! place of Cranelift's e-graph pass (which `opt_level = "none"` leaves out).
//!
//! Translation computes an address for every access and leaves invariant work where the
//! kernel wrote it; the e-graph pass used to merge and hoist those. But it also places every
//! pure value again, depth first at its first use, and on long straight-line code (CLBlast's
//! GEMM, VkFFT's radix passes, OpenCV's pyrUp) that order keeps many more values live than the
//! translation's, so that the register allocator spills in the hot loop. This pass keeps the
//! translation's order and does what the translated code needs of the e-graph:
//!
//! - **Value numbering** (dominator-scoped, after Alpern, Wegman and Zadeck, POPL 1988, as
//!   Briggs, Cooper and Simpson's "Value Numbering", SP&E 1997, describe the dominator-tree
//!   walk): a pure instruction equal to one that dominates it (same opcode, immediates, type
//!   and arguments) becomes an alias of that one's result. Constants are merged only within a
//!   block: the code generator folds them into their uses, and one kept live across blocks
//!   holds a register for nothing.
//! - **Loop-invariant code motion**: a pure instruction in a loop whose arguments are all
//!   defined outside it moves to the loop's preheader, innermost loops first, so that an
//!   invariant computed in an inner loop can leave the outer one too; a constant operand is
//!   invariant wherever it is defined (the preheader gets its own copy). Constants (splats of
//!   constants among them, made vector constants first) stay: the code generator folds or
//!   makes them again where they are used, while a hoisted one would hold a register across
//!   the whole loop.
//! - **Constants where they are used**: each block gets its own copy of the constants it uses;
//!   a splat of a constant becomes a vector constant (an operand read from the constant pool);
//!   a multiplication by a power of two becomes a shift (which folds into an address).
//! - **Dead code**: pure instructions left unused go.
//!
//! Pure means no memory access (but loads marked `can_move`: the arguments and the group
//! context, which nothing writes), no trap, no call, no branch and no other side effect, and
//! one result: such an instruction can run earlier or be shared without changing what the
//! function does.

use std::collections::HashMap;

use cranelift_codegen::entity::SecondaryMap;

use cranelift_codegen::cursor::{Cursor, FuncCursor};
use cranelift_codegen::dominator_tree::DominatorTree;
use cranelift_codegen::flowgraph::ControlFlowGraph;
use cranelift_codegen::ir::{
    Block, Function, Inst, InstBuilder, InstBuilderBase, InstructionData, Opcode, Type, Value,
    ValueDef,
};
use cranelift_codegen::loop_analysis::{Loop, LoopAnalysis};

/// Runs the pass on `func`: the rewrites of constants and multiplications, value numbering,
/// loop-invariant code motion, a copy of each constant per block, then dead code removal.
pub(crate) fn optimize(func: &mut Function) {
    func.dfg.resolve_all_aliases();
    rewrite_with_constants(func);
    let cfg = ControlFlowGraph::with_function(func);
    let domtree = DominatorTree::with_function(func, &cfg);
    number_values(func, &domtree);
    let mut loops = LoopAnalysis::new();
    loops.compute(func, &cfg, &domtree);
    hoist_invariants(func, &cfg, &domtree, &loops);
    func.dfg.resolve_all_aliases();
    rematerialize_constants(func);
    remove_dead(func);
}

/// Rewrites, in one walk, each integer multiplication by a power of two as a shift, which
/// x86-64 folds into an address (`[base + index * 4]`) where a multiplication is an
/// instruction of its own; and each splat of a constant as a vector constant, which x86-64
/// reads from the constant pool as an operand of the instruction that uses it, where a splat
/// is two or three instructions of its own and a register.
fn rewrite_with_constants(func: &mut Function) {
    let mut cursor = FuncCursor::new(func);
    while cursor.next_block().is_some() {
        while let Some(inst) = cursor.next_inst() {
            let dfg = &cursor.func.dfg;
            let ty = dfg.ctrl_typevar(inst);
            let arg = |i: usize| dfg.resolve_aliases(dfg.inst_args(inst)[i]);
            match dfg.insts[inst].opcode() {
                Opcode::Imul if ty.is_int() => {
                    let args = [arg(0), arg(1)];
                    let power = |v: Value| {
                        let bits = constant_bytes(&cursor.func.dfg, v, ty)?;
                        let bits = u64::from_le_bytes(bits.try_into().ok()?);
                        bits.is_power_of_two().then(|| bits.trailing_zeros())
                    };
                    let (x, k) = match (power(args[0]), power(args[1])) {
                        (_, Some(k)) => (args[0], k),
                        (Some(k), None) => (args[1], k),
                        (None, None) => continue,
                    };
                    let k = cursor.ins().iconst(ty, i64::from(k));
                    cursor.func.replace(inst).ishl(x, k);
                }
                Opcode::Splat => {
                    let Some(lane) = constant_bytes(dfg, arg(0), ty.lane_type()) else {
                        continue;
                    };
                    let lane = &lane[..ty.lane_type().bytes() as usize];
                    let bytes = lane.repeat(ty.lane_count() as usize);
                    let constant = cursor.func.dfg.constants.insert(bytes.into());
                    cursor.func.replace(inst).vconst(ty, constant);
                }
                _ => {}
            }
        }
    }
}

/// The bits of `v` where it is a scalar constant, as the 8 little-endian bytes of a `u64`,
/// truncated to the width of `ty` (a scalar type).
fn constant_bytes(
    dfg: &cranelift_codegen::ir::DataFlowGraph,
    v: Value,
    ty: Type,
) -> Option<Vec<u8>> {
    let bits = match dfg.insts[dfg.value_def(v).inst()?] {
        InstructionData::UnaryImm {
            opcode: Opcode::Iconst,
            imm,
        } => imm.bits() as u64,
        InstructionData::UnaryIeee32 { imm, .. } => u64::from(imm.bits()),
        InstructionData::UnaryIeee64 { imm, .. } => imm.bits(),
        _ => return None,
    };
    let mask = if ty.bits() >= 64 {
        u64::MAX
    } else {
        (1u64 << ty.bits()) - 1
    };
    Some((bits & mask).to_le_bytes().to_vec())
}

/// Whether `inst` computes its one result from its arguments and immediates alone: a pure
/// operation, or a load that Cranelift may move freely (`can_move`, `readonly`, `notrap`: the
/// kernel's arguments and the group's context, loaded once).
fn is_pure(func: &Function, inst: Inst) -> bool {
    let data = &func.dfg.insts[inst];
    let op = data.opcode();
    if op == Opcode::Load {
        return data
            .memflags_data(&func.dfg)
            .is_some_and(|f| f.can_move() && f.readonly() && f.notrap());
    }
    !(op.is_call()
        || op.is_branch()
        || op.is_terminator()
        || op.can_load()
        || op.can_store()
        || op.can_trap()
        || op.other_side_effects())
        && func.dfg.inst_results(inst).len() == 1
}

/// Whether `inst` is a constant (no arguments; splats of constants are vector constants by
/// then, `rewrite_with_constants`): cheaper to make again where it is used than to keep in a
/// register.
fn is_constant(func: &Function, inst: Inst) -> bool {
    matches!(
        func.dfg.insts[inst].opcode(),
        Opcode::Iconst | Opcode::F32const | Opcode::F64const | Opcode::Vconst
    )
}

/// What makes two pure instructions equal: their data (opcode, immediates and arguments, with
/// aliases resolved), their controlling type, and for a constant its block.
type Key = (InstructionData, Type, Option<Block>);

/// Dominator-scoped value numbering: walks the dominator tree from the entry, keeping the
/// pure instructions of the blocks that dominate the current one, and turns each repeat into
/// an alias of the first.
fn number_values(func: &mut Function, domtree: &DominatorTree) {
    let Some(entry) = func.layout.entry_block() else {
        return;
    };
    let mut table: HashMap<Key, Value> = HashMap::new();
    let mut args: Vec<Value> = Vec::new();
    // The keys added by each block on the path, to be removed when the walk leaves it.
    let mut added: Vec<Vec<Key>> = Vec::new();
    // Blocks still to visit, each with the depth of the path to its dominator: a block at
    // depth d is entered after the keys of deeper blocks are dropped.
    let mut stack: Vec<(Block, usize)> = vec![(entry, 0)];
    while let Some((block, depth)) = stack.pop() {
        while added.len() > depth {
            for key in added.pop().expect("a scope") {
                table.remove(&key);
            }
        }
        let mut mine = Vec::new();
        let mut at = func.layout.first_inst(block);
        while let Some(inst) = at {
            at = func.layout.next_inst(inst);
            if !is_pure(func, inst) {
                continue;
            }
            let dfg = &mut func.dfg;
            args.clear();
            args.extend(dfg.inst_args(inst).iter().map(|&a| dfg.resolve_aliases(a)));
            dfg.inst_args_mut(inst).copy_from_slice(&args);
            let key = key(func, inst, block);
            let result = func.dfg.first_result(inst);
            match table.get(&key) {
                Some(&first) => {
                    func.layout.remove_inst(inst);
                    func.dfg.clear_results(inst);
                    func.dfg.change_to_alias(result, first);
                }
                None => {
                    table.insert(key, result);
                    mine.push(key);
                }
            }
        }
        added.push(mine);
        for child in domtree.children(block) {
            stack.push((child, depth + 1));
        }
    }
}

/// The value numbering key of pure instruction `inst` in `block`.
fn key(func: &Function, inst: Inst, block: Block) -> Key {
    let place = is_constant(func, inst).then_some(block);
    (func.dfg.insts[inst], func.dfg.ctrl_typevar(inst), place)
}

/// Moves the pure, non-constant instructions of each loop whose arguments are defined outside
/// it to the loop's preheader: the one block outside the loop that branches to its header.
/// Loops entered from more than one block keep their instructions.
fn hoist_invariants(
    func: &mut Function,
    cfg: &ControlFlowGraph,
    domtree: &DominatorTree,
    loops: &LoopAnalysis,
) {
    // Innermost loops first: a loop comes after every loop nested in it.
    let mut order: Vec<Loop> = loops.loops().collect();
    order.sort_by_key(|&lp| std::cmp::Reverse(depth(loops, lp)));
    let rpo: Vec<Block> = domtree.cfg_rpo().copied().collect();
    for lp in order {
        let header = loops.loop_header(lp);
        let mut outside = cfg
            .pred_iter(header)
            .map(|p| p.block)
            .filter(|&b| !loops.is_in_loop(b, lp));
        let (Some(preheader), None) = (outside.next(), outside.next()) else {
            continue;
        };
        let Some(end) = func.layout.last_inst(preheader) else {
            continue;
        };
        for &block in rpo.iter().filter(|&&b| loops.is_in_loop(b, lp)) {
            let mut at = func.layout.first_inst(block);
            while let Some(inst) = at {
                at = func.layout.next_inst(inst);
                if !is_pure(func, inst) || is_constant(func, inst) {
                    continue;
                }
                // A constant is invariant wherever it is: rematerialize_constants gives the
                // preheader its own copy.
                let invariant = func.dfg.inst_args(inst).iter().all(|&v| {
                    let block = match func.dfg.value_def(func.dfg.resolve_aliases(v)) {
                        ValueDef::Result(i, _) if is_constant(func, i) => return true,
                        ValueDef::Result(i, _) => func.layout.inst_block(i),
                        ValueDef::Param(b, _) => Some(b),
                        ValueDef::Union(..) => None,
                    };
                    block.is_some_and(|b| !loops.is_in_loop(b, lp))
                });
                if invariant {
                    func.layout.remove_inst(inst);
                    let mut cursor = FuncCursor::new(func).at_inst(end);
                    cursor.insert_inst(inst);
                }
            }
        }
    }
}

/// Gives each block its own copy of every constant it uses, placed before the first use, and
/// one copy of each: Cranelift's e-graph pass does the same, since a constant is cheaper to
/// make again than to keep in a register, or on the stack, from block to block.
fn rematerialize_constants(func: &mut Function) {
    let mut here: HashMap<(InstructionData, Type), Value> = HashMap::new();
    let mut args: Vec<Value> = Vec::new();
    let mut cursor = FuncCursor::new(func);
    while cursor.next_block().is_some() {
        here.clear();
        while let Some(inst) = cursor.next_inst() {
            let dfg = &cursor.func.dfg;
            if is_constant(cursor.func, inst) {
                let key = (dfg.insts[inst], dfg.ctrl_typevar(inst));
                let result = dfg.first_result(inst);
                if let Some(&same) = here.get(&key) {
                    cursor.remove_inst_and_step_back();
                    cursor.func.dfg.clear_results(inst);
                    cursor.func.dfg.change_to_alias(result, same);
                } else {
                    here.insert(key, result);
                }
                continue;
            }
            args.clear();
            args.extend(dfg.inst_values(inst).map(|v| dfg.resolve_aliases(v)));
            let mut changed = false;
            for arg in &mut args {
                let dfg = &cursor.func.dfg;
                let Some(def) = dfg.value_def(*arg).inst() else {
                    continue;
                };
                if cursor.func.layout.inst_block(def) == cursor.current_block()
                    || !is_constant(cursor.func, def)
                {
                    continue;
                }
                let key = (dfg.insts[def], dfg.ctrl_typevar(def));
                *arg = match here.get(&key) {
                    Some(&copy) => copy,
                    None => {
                        let copy = cursor.ins().build(key.0, key.1).0;
                        let copy = cursor.func.dfg.first_result(copy);
                        here.insert(key, copy);
                        copy
                    }
                };
                changed = true;
            }
            if changed {
                let mut new = args.iter().copied();
                cursor.func.dfg.overwrite_inst_values(inst, &mut new);
            }
        }
    }
    func.dfg.resolve_all_aliases();
}

/// Removes the pure instructions (`is_pure`) whose results are not used, and then those whose
/// only uses were removed.
fn remove_dead(func: &mut Function) {
    let mut uses: SecondaryMap<Value, u32> = SecondaryMap::with_capacity(func.dfg.num_values());
    let mut dead: Vec<Inst> = Vec::new();
    for block in func.layout.blocks() {
        for inst in func.layout.block_insts(block) {
            for v in func.dfg.inst_values(inst) {
                uses[v] += 1;
            }
        }
    }
    for block in func.layout.blocks() {
        for inst in func.layout.block_insts(block) {
            if is_pure(func, inst) && uses[func.dfg.first_result(inst)] == 0 {
                dead.push(inst);
            }
        }
    }
    while let Some(inst) = dead.pop() {
        for v in func.dfg.inst_values(inst) {
            uses[v] -= 1;
            if uses[v] != 0 {
                continue;
            }
            if let Some(def) = func.dfg.value_def(v).inst() {
                if is_pure(func, def) {
                    dead.push(def);
                }
            }
        }
        func.layout.remove_inst(inst);
    }
}

/// How many loops `lp` is nested in.
fn depth(loops: &LoopAnalysis, lp: Loop) -> usize {
    std::iter::successors(loops.loop_parent(lp), |&p| loops.loop_parent(p)).count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use cranelift_codegen::ir::{types, AbiParam, MemFlagsData, Signature, UserFuncName};
    use cranelift_codegen::isa::CallConv;
    use cranelift_codegen::settings;
    use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};

    /// A function of `params` i64 parameters built by `body`, optimized and verified.
    fn optimized(params: usize, body: impl FnOnce(&mut FunctionBuilder, &[Value])) -> Function {
        let mut sig = Signature::new(CallConv::SystemV);
        sig.params
            .extend((0..params).map(|_| AbiParam::new(types::I64)));
        let mut func = Function::with_name_signature(UserFuncName::default(), sig);
        let mut fbc = FunctionBuilderContext::new();
        let mut b = FunctionBuilder::new(&mut func, &mut fbc);
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let args = b.block_params(entry).to_vec();
        body(&mut b, &args);
        b.seal_all_blocks();
        let isa = cranelift_native::builder()
            .expect("a supported host")
            .finish(settings::Flags::new(settings::builder()))
            .expect("a target");
        b.finalize(isa.frontend_config());
        optimize(&mut func);
        let flags = settings::Flags::new(settings::builder());
        if let Err(e) = cranelift_codegen::verify_function(&func, &flags) {
            panic!("{e}\n{}", func.display());
        }
        func
    }

    /// The instructions of `block` with opcode `op`.
    fn count(func: &Function, block: Block, op: Opcode) -> usize {
        func.layout
            .block_insts(block)
            .filter(|&i| func.dfg.insts[i].opcode() == op)
            .count()
    }

    fn total(func: &Function, op: Opcode) -> usize {
        func.layout.blocks().map(|b| count(func, b, op)).sum()
    }

    #[test]
    fn a_repeat_dominated_by_its_first_becomes_it_and_siblings_stay_apart() {
        let mut blocks = Vec::new();
        let func = optimized(3, |b, a| {
            let (left, right) = (b.create_block(), b.create_block());
            let x = b.ins().iadd(a[0], a[1]);
            b.ins().brif(a[2], left, &[], right, &[]);
            for side in [left, right] {
                b.switch_to_block(side);
                let y = b.ins().iadd(a[0], a[1]);
                let z = b.ins().imul(a[0], a[2]);
                let s = b.ins().iadd(y, z);
                let t = b.ins().iadd(s, x);
                b.ins().return_(&[t]);
            }
            b.func.signature.returns.push(AbiParam::new(types::I64));
            blocks = vec![left, right];
        });
        // Each side keeps its own multiplication; neither repeats the entry's addition.
        for side in blocks {
            assert_eq!(count(&func, side, Opcode::Imul), 1);
            assert_eq!(count(&func, side, Opcode::Iadd), 2);
        }
    }

    /// A counted loop whose body computes `a0 * a1` and `a1 * 3` (invariant), `a0 / a1`
    /// (invariant, but it may trap), `i * a1` (variant) and uses the constant 7; returns the
    /// body block.
    fn looped(b: &mut FunctionBuilder, a: &[Value]) -> Block {
        let (header, body, exit) = (b.create_block(), b.create_block(), b.create_block());
        b.append_block_param(header, types::I64);
        let zero = b.ins().iconst(types::I64, 0);
        b.ins().jump(header, &[zero.into()]);
        b.switch_to_block(header);
        let i = b.block_params(header)[0];
        let more = b.ins().icmp(
            cranelift_codegen::ir::condcodes::IntCC::UnsignedLessThan,
            i,
            a[2],
        );
        b.ins().brif(more, body, &[], exit, &[]);
        b.switch_to_block(body);
        let inv = b.ins().imul(a[0], a[1]);
        let div = b.ins().udiv(a[0], a[1]);
        let var = b.ins().imul(i, a[1]);
        let three = b.ins().iconst(types::I64, 3);
        let tripled = b.ins().imul(a[1], three);
        let seven = b.ins().iconst(types::I64, 7);
        let s = b.ins().iadd(inv, var);
        let s = b.ins().iadd(s, tripled);
        let s = b.ins().iadd(s, div);
        let s = b.ins().iadd(s, seven);
        b.ins().store(MemFlagsData::new(), s, a[0], 0);
        let next = b.ins().iadd_imm_s(i, 1);
        b.ins().jump(header, &[next.into()]);
        b.switch_to_block(exit);
        b.ins().return_(&[]);
        body
    }

    #[test]
    fn invariants_leave_the_loop_and_what_may_trap_or_vary_stays() {
        let mut body = None;
        let func = optimized(3, |b, a| body = Some(looped(b, a)));
        let body = body.expect("built");
        let entry = func.layout.entry_block().expect("an entry");
        // The invariant products moved to the preheader (the entry), the one of a constant
        // with it; the varying product, the division and the constant 7 did not.
        assert_eq!(count(&func, entry, Opcode::Imul), 2);
        assert_eq!(count(&func, body, Opcode::Imul), 1);
        assert_eq!(count(&func, body, Opcode::Udiv), 1);
        assert_eq!(count(&func, body, Opcode::Iconst), 2);
    }

    #[test]
    fn constants_are_made_again_in_each_block_that_uses_them() {
        let func = optimized(2, |b, a| {
            let next = b.create_block();
            let k = b.ins().f32const(1.5);
            let v = b.ins().splat(types::F32X4, k);
            b.ins().jump(next, &[]);
            b.switch_to_block(next);
            let w = b.ins().splat(types::F32X4, k);
            let s = b.ins().fadd(v, w);
            b.ins().store(MemFlagsData::new(), s, a[0], 0);
            b.ins().return_(&[]);
        });
        // The splats became one vector constant, defined in the block that adds.
        assert_eq!(total(&func, Opcode::Splat), 0);
        assert_eq!(total(&func, Opcode::Vconst), 1);
        let add = func
            .layout
            .blocks()
            .flat_map(|b| func.layout.block_insts(b))
            .find(|&i| func.dfg.insts[i].opcode() == Opcode::Fadd)
            .expect("the addition");
        let [x, y] = [0, 1].map(|i| func.dfg.inst_args(add)[i]);
        assert_eq!(x, y);
        let def = func.dfg.value_def(x).unwrap_inst();
        assert_eq!(func.layout.inst_block(def), func.layout.inst_block(add));
    }

    #[test]
    fn multiplications_by_powers_of_two_become_shifts() {
        let func = optimized(2, |b, a| {
            let eight = b.ins().iconst(types::I64, 8);
            let x = b.ins().imul(a[0], eight);
            let y = b.ins().imul_imm_s(a[1], 6);
            let s = b.ins().iadd(x, y);
            b.ins().store(MemFlagsData::new(), s, a[0], 0);
            b.ins().return_(&[]);
        });
        assert_eq!(total(&func, Opcode::Ishl), 1);
        assert_eq!(total(&func, Opcode::Imul), 1);
    }

    #[test]
    fn unused_movable_loads_go_and_other_loads_stay() {
        let func = optimized(1, |b, a| {
            let movable = MemFlagsData::trusted().with_readonly().with_can_move();
            b.ins().load(types::I64, movable, a[0], 8);
            b.ins().load(types::I64, MemFlagsData::new(), a[0], 16);
            b.ins().return_(&[]);
        });
        assert_eq!(total(&func, Opcode::Load), 1);
    }
}
