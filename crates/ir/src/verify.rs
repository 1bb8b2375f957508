//! The verifier: checks every rule of the IR contract (see the crate documentation) and
//! reports each violation with the function, block and instruction it was found in.
//!
//! It never panics, whatever the IR holds: deserialized program binaries are verified before
//! use.

use std::collections::{HashMap, HashSet};
use std::fmt;

use crate::analysis::{Cfg, DomTree};
use crate::dfg::ValueDef;
use crate::entity::{Block, Inst, Value};
use crate::function::Function;
use crate::inst::*;
use crate::module::Module;
use crate::types::{AddrSpace, Type};

/// One violation of the IR contract.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct VerifyError {
    /// Where: `@func`, `@func: block3`, `@func: block3: v7 = iadd`, or `global @g`.
    pub location: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location, self.message)
    }
}

/// Verifies a whole module.
pub fn verify_module(module: &Module) -> Result<(), Vec<VerifyError>> {
    let mut errors = Vec::new();
    let mut names = HashSet::new();
    for (_, g) in module.globals.iter() {
        let mut err = |m: String| {
            errors.push(VerifyError {
                location: format!("global @{}", g.name),
                message: m,
            })
        };
        if !names.insert(g.name.as_str()) {
            err("defined twice".into());
        }
        if !matches!(
            g.space,
            AddrSpace::Global | AddrSpace::Constant | AddrSpace::Local
        ) {
            err(format!(
                "a module global cannot live in the {} address space",
                g.space
            ));
        }
        if !g.align.is_power_of_two() {
            err(format!("alignment {} is not a power of two", g.align));
        }
        match &g.init {
            Some(_) if g.external => err("an external global cannot have an initializer".into()),
            Some(_) if g.space == AddrSpace::Local => {
                // 6.7.3 (Local): "Variables allocated in the __local address space inside a
                // kernel function cannot be initialized."
                err("a local variable cannot have an initializer".into())
            }
            Some(bytes) if bytes.len() != g.size as usize => err(format!(
                "initializer has {} bytes, the size is {}",
                bytes.len(),
                g.size
            )),
            _ => {}
        }
        for r in &g.relocs {
            if g.external || g.space == AddrSpace::Local {
                err("only a defined global or constant variable holds relocations".into());
            }
            if u64::from(r.offset) + 8 > u64::from(g.size) {
                err(format!(
                    "relocation at {} past the size {}",
                    r.offset, g.size
                ));
            }
            match module.globals.get(r.target) {
                Some(t) if t.space != AddrSpace::Local => {}
                _ => err(format!(
                    "relocation at {} to a missing or local global",
                    r.offset
                )),
            }
        }
    }
    let mut fnames = HashSet::new();
    for (_, f) in module.funcs.iter() {
        if !fnames.insert(f.name.as_str()) {
            errors.push(VerifyError {
                location: format!("@{}", f.name),
                message: "defined twice".into(),
            });
        }
        verify_function_into(module, f, &mut errors);
    }
    check_recursion(module, &mut errors);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// 6.9 (k): "Recursion is not supported." Reports each call-graph cycle once, at the first
/// function of the cycle in module order.
fn check_recursion(module: &Module, errors: &mut Vec<VerifyError>) {
    let n = module.funcs.len();
    let mut callees: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (f, func) in module.funcs.iter() {
        for &b in func.layout.blocks() {
            for &i in func.layout.block_insts(b) {
                if let Some(Op::Call(c)) = func.dfg.insts.get(i).map(|d| &d.op) {
                    let c = c.as_u32() as usize;
                    if c < n && !callees[f.as_u32() as usize].contains(&c) {
                        callees[f.as_u32() as usize].push(c);
                    }
                }
            }
        }
    }
    // Iterative DFS with colours: 0 unvisited, 1 on the stack, 2 done.
    let mut colour = vec![0u8; n];
    for root in 0..n {
        if colour[root] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        colour[root] = 1;
        while let Some(&mut (f, ref mut k)) = stack.last_mut() {
            if let Some(&c) = callees[f].get(*k) {
                *k += 1;
                match colour[c] {
                    0 => {
                        colour[c] = 1;
                        stack.push((c, 0));
                    }
                    1 => {
                        let start = stack.iter().position(|&(g, _)| g == c).unwrap_or(0);
                        let names: Vec<String> = stack[start..]
                            .iter()
                            .map(|&(g, _)| {
                                format!(
                                    "@{}",
                                    module.funcs[crate::entity::Func::from_u32(g as u32)].name
                                )
                            })
                            .collect();
                        errors.push(VerifyError {
                            location: names[0].clone(),
                            message: format!(
                                "recursion is not supported: {} -> {}",
                                names.join(" -> "),
                                names[0]
                            ),
                        });
                    }
                    _ => {}
                }
            } else {
                colour[f] = 2;
                stack.pop();
            }
        }
    }
}

/// Verifies one function of `module` (the module supplies callee signatures and globals).
pub fn verify_function(module: &Module, func: &Function) -> Result<(), Vec<VerifyError>> {
    let mut errors = Vec::new();
    verify_function_into(module, func, &mut errors);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

fn verify_function_into(module: &Module, func: &Function, errors: &mut Vec<VerifyError>) {
    let mut v = Verifier {
        module,
        func,
        errors,
        here: format!("@{}", func.name),
    };
    v.run();
}

/// One instruction's operands as the checks of its operation read them.
struct Operands<'a> {
    args: &'a [Value],
    /// The operands' types.
    tys: Vec<Type>,
    /// The result's type, if it has one.
    result: Option<Type>,
    /// The function's entry block.
    entry: Block,
}

struct Verifier<'a> {
    module: &'a Module,
    func: &'a Function,
    errors: &'a mut Vec<VerifyError>,
    here: String,
}

fn is_int_scalar(t: Type) -> bool {
    t.is_int() && !t.is_vector() && !t.is_bool()
}

impl Verifier<'_> {
    fn err(&mut self, message: impl Into<String>) {
        self.errors.push(VerifyError {
            location: self.here.clone(),
            message: message.into(),
        });
    }

    fn run(&mut self) {
        let f = self.func;
        if let Some(k) = &f.kernel {
            // 6.9 (b): "The function using the __kernel qualifier can only have return type
            // void in the source code."
            if f.sig.ret.is_some() {
                self.err("a kernel returns no value");
            }
            if k.args.len() != f.sig.params.len() {
                self.err(format!(
                    "kernel has {} argument descriptions for {} parameters",
                    k.args.len(),
                    f.sig.params.len()
                ));
            }
            for (i, (a, &ty)) in k.args.iter().zip(&f.sig.params).enumerate() {
                if let Some(why) = a.abi_mismatch(ty) {
                    self.err(format!("kernel argument {i}: {why}"));
                }
            }
            if f.is_declaration() {
                self.err("a kernel must have a body");
            }
        }
        if f.sig.variadic && !f.is_declaration() {
            self.err("only a declaration may be variadic");
        }
        for (ss, data) in f.slots.iter() {
            if !data.align.is_power_of_two() {
                self.err(format!(
                    "{ss}: alignment {} is not a power of two",
                    data.align
                ));
            }
        }
        let Some(entry) = f.layout.entry_block() else {
            return;
        };
        for &b in f.layout.blocks() {
            if !f.dfg.blocks.is_valid(b) {
                self.err(format!("{b} is placed but does not exist"));
                return;
            }
            for &i in f.layout.block_insts(b) {
                if !f.dfg.insts.is_valid(i) {
                    self.err(format!("{b}: {i} is placed but does not exist"));
                    return;
                }
            }
        }
        let params = f.dfg.block_params(entry);
        let ptys: Vec<Type> = params.iter().map(|&p| self.ty(p)).collect();
        if ptys != f.sig.params {
            self.err(format!(
                "entry block parameters ({}) do not match the signature ({})",
                list(&ptys),
                list(&f.sig.params)
            ));
        }
        // Definitions: where each value is defined, and the position of each instruction.
        let mut pos: HashMap<Inst, (Block, usize)> = HashMap::new();
        for &b in f.layout.blocks() {
            for (n, &p) in f.dfg.block_params(b).iter().enumerate() {
                match f.dfg.values.get(p).map(|d| d.def) {
                    Some(ValueDef::Param(pb, pn)) if pb == b && pn as usize == n => {}
                    _ => self.err(format!(
                        "{b}: parameter {p} is not recorded as parameter {n} of {b}"
                    )),
                }
            }
            for (n, &i) in f.layout.block_insts(b).iter().enumerate() {
                pos.insert(i, (b, n));
                if let Some(r) = f.dfg.inst_result(i) {
                    if f.dfg.values.get(r).map(|d| d.def) != Some(ValueDef::Result(i)) {
                        self.err(format!(
                            "{b}: result {r} is not recorded as defined by its instruction"
                        ));
                    }
                }
            }
        }
        let cfg = Cfg::new(f);
        let dom = DomTree::new(f, &cfg);
        if !cfg.preds(entry).is_empty() {
            self.err(format!("the entry block {entry} is a branch target"));
        }
        for &b in f.layout.blocks() {
            self.here = format!("@{}: {b}", f.name);
            let insts = f.layout.block_insts(b);
            if insts.is_empty() {
                self.err("block is empty; it must end in a terminator");
                continue;
            }
            for (n, &i) in insts.iter().enumerate() {
                let data = &f.dfg.insts[i];
                self.here = match f.dfg.inst_result(i) {
                    Some(r) => format!("@{}: {b}: {r} = {}", f.name, mnemonic(&data.op)),
                    None => format!("@{}: {b}: {}", f.name, mnemonic(&data.op)),
                };
                let last = n + 1 == insts.len();
                if data.op.is_terminator() && !last {
                    self.err("terminator in the middle of a block");
                }
                if last && !data.op.is_terminator() {
                    self.err("block does not end in a terminator");
                }
                let mut ok = true;
                for a in data.all_args() {
                    ok &= self.check_use(a, b, n, &pos, &dom);
                }
                if ok {
                    self.check_inst(i, entry);
                }
            }
        }
    }

    /// Checks that `a`, used at position `n` of `b`, is defined and its definition dominates
    /// the use.
    fn check_use(
        &mut self,
        a: Value,
        b: Block,
        n: usize,
        pos: &HashMap<Inst, (Block, usize)>,
        dom: &DomTree,
    ) -> bool {
        let Some(d) = self.func.dfg.values.get(a) else {
            self.err(format!("uses {a}, which does not exist"));
            return false;
        };
        let (db, dn) = match d.def {
            ValueDef::Result(i) => match pos.get(&i) {
                Some(&(db, dn)) => (db, Some(dn)),
                None => {
                    self.err(format!("uses {a}, whose instruction is not placed"));
                    return false;
                }
            },
            ValueDef::Param(pb, _) => {
                if !self.func.layout.is_block_placed(pb) {
                    self.err(format!(
                        "uses {a}, a parameter of {pb}, which is not placed"
                    ));
                    return false;
                }
                (pb, None)
            }
            ValueDef::Alias(t) => {
                self.err(format!("uses {a}, an unresolved alias of {t}"));
                return false;
            }
            ValueDef::Invalid => {
                self.err(format!("uses {a}, which is never defined"));
                return false;
            }
        };
        if !dom.is_reachable(b) {
            return true;
        }
        let dominated = if db == b {
            dn.is_none_or(|dn| dn < n)
        } else {
            dom.dominates(db, b)
        };
        if !dominated {
            self.err(format!(
                "uses {a}, whose definition in {db} does not dominate the use"
            ));
        }
        dominated
    }

    fn ty(&self, v: Value) -> Type {
        self.func.dfg.values.get(v).map_or(Type::I1, |d| d.ty)
    }

    fn arity(&mut self, args: &[Value], n: usize) -> bool {
        if args.len() != n {
            self.err(format!("takes {n} operands, has {}", args.len()));
            return false;
        }
        true
    }

    fn want_result(&mut self, result: Option<Type>) -> Option<Type> {
        if result.is_none() {
            self.err("must have a result");
        }
        result
    }

    fn check_mem_space(&mut self, space: AddrSpace, p: Value) -> bool {
        let pt = self.ty(p);
        match pt.addr_space() {
            None => {
                self.err(format!("address {p} has type {pt}, not a pointer"));
                false
            }
            Some(s) if s != space => {
                self.err(format!(
                    "accesses the {space} address space through {p}, a {pt}"
                ));
                false
            }
            Some(_) => true,
        }
    }

    fn check_atomic(&mut self, info: AtomicInfo, p: Value) {
        if self.check_mem_space(info.space, p)
            && !matches!(
                info.space,
                AddrSpace::Global | AddrSpace::Local | AddrSpace::Generic
            )
        {
            self.err(format!("atomic access to the {} address space", info.space));
        }
    }

    fn check_atomic_type(&mut self, t: Type, float_ok: bool) {
        let ok = !t.is_vector()
            && ((t.is_int() && matches!(t.lane_bits(), 32 | 64))
                || (float_ok && t.is_float() && matches!(t.lane_bits(), 32 | 64)));
        if !ok {
            self.err(format!("atomic operand of type {t}"));
        }
    }

    fn check_dest(&mut self, d: &Dest, entry: Block) {
        let f = self.func;
        if !f.dfg.blocks.is_valid(d.block) || !f.layout.is_block_placed(d.block) {
            self.err(format!("branches to {}, which is not placed", d.block));
            return;
        }
        if d.block == entry {
            self.err(format!("branches to the entry block {entry}"));
        }
        let params = f.dfg.block_params(d.block);
        if params.len() != d.args.len() {
            self.err(format!(
                "passes {} arguments to {}, which has {} parameters",
                d.args.len(),
                d.block,
                params.len()
            ));
            return;
        }
        for (k, (&a, &p)) in d.args.iter().zip(params).enumerate() {
            if self.ty(a) != self.ty(p) {
                self.err(format!(
                    "argument {k} to {} is {a}: {}, the parameter {p} is {}",
                    d.block,
                    self.ty(a),
                    self.ty(p)
                ));
            }
        }
    }

    fn check_inst(&mut self, inst: Inst, entry: Block) {
        let f = self.func;
        let data = &f.dfg.insts[inst];
        let o = Operands {
            args: &data.args[..],
            tys: data.args.iter().map(|&a| self.ty(a)).collect(),
            result: f.dfg.inst_result(inst).map(|r| self.ty(r)),
            entry,
        };
        match &data.op {
            Op::Iconst(..) | Op::Fconst(..) | Op::Vconst(..) | Op::Null | Op::Undef => {
                self.check_constant(&data.op, &o)
            }
            Op::Unary(..)
            | Op::Binary(..)
            | Op::Fma
            | Op::Icmp(..)
            | Op::Fcmp(..)
            | Op::Select
            | Op::Convert(..)
            | Op::Bitcast
            | Op::PtrToInt
            | Op::IntToPtr
            | Op::AddrCast
            | Op::PtrAdd => self.check_arithmetic(&data.op, &o),
            Op::Splat | Op::ExtractLane(..) | Op::InsertLane(..) | Op::Shuffle(..) => {
                self.check_lanes(&data.op, &o)
            }
            Op::Load(..)
            | Op::Store(..)
            | Op::AtomicRmw(..)
            | Op::Cmpxchg(..)
            | Op::AtomicLoad(..)
            | Op::AtomicStore(..)
            | Op::Fence(..)
            | Op::Barrier(..)
            | Op::SlotAddr(..)
            | Op::GlobalAddr(..) => self.check_memory(&data.op, &o),
            Op::Group(..) | Op::WorkItem(..) => self.check_work_item(&data.op, &o),
            Op::Call(..)
            | Op::Jump(..)
            | Op::Brif(..)
            | Op::Switch(..)
            | Op::Return
            | Op::Unreachable => self.check_control(&data.op, &o),
        }
    }

    /// Constants: `iconst`, `fconst`, `vconst`, `null`, `undef`.
    fn check_constant(&mut self, op: &Op, o: &Operands<'_>) {
        let &Operands { args, result, .. } = o;
        match op {
            Op::Iconst(c) => {
                self.arity(args, 0);
                if let Some(t) = self.want_result(result) {
                    if !t.is_int() {
                        self.err(format!("iconst of type {t}"));
                    } else if t.lane_bits() < 64 && c >> t.lane_bits() != 0 {
                        self.err(format!("constant {c:#x} does not fit in {t}"));
                    }
                }
            }
            Op::Fconst(c) => {
                self.arity(args, 0);
                if let Some(t) = self.want_result(result) {
                    if !t.is_float() {
                        self.err(format!("fconst of type {t}"));
                    } else if t.lane_bits() < 64 && c >> t.lane_bits() != 0 {
                        self.err(format!("constant bits {c:#x} do not fit in {t}"));
                    }
                }
            }
            Op::Vconst(lanes) => {
                self.arity(args, 0);
                if let Some(t) = self.want_result(result) {
                    let w = t.lane_bits();
                    if !t.is_vector() || t.is_ptr() || lanes.len() != t.lanes() as usize {
                        self.err(format!("vconst of {} lanes and type {t}", lanes.len()));
                    } else if let Some(c) = lanes.iter().find(|&&c| w < 64 && c >> w != 0) {
                        self.err(format!("lane {c:#x} does not fit in {t}"));
                    }
                }
            }
            Op::Null => {
                self.arity(args, 0);
                if let Some(t) = self.want_result(result) {
                    if !t.is_ptr() {
                        self.err(format!("null of type {t}"));
                    }
                }
            }
            Op::Undef => {
                self.arity(args, 0);
                self.want_result(result);
            }
            _ => unreachable!("check_inst routes only these operations here"),
        }
    }

    /// Operations on values: arithmetic, comparisons, `select`, conversions, pointer arithmetic.
    fn check_arithmetic(&mut self, op: &Op, o: &Operands<'_>) {
        let &Operands {
            args,
            ref tys,
            result,
            ..
        } = o;
        match op {
            Op::Unary(op) => {
                if !self.arity(args, 1) {
                    return;
                }
                let t = tys[0];
                let ok = if op.is_float() {
                    t.is_float()
                } else {
                    t.is_int() && (!t.is_bool() || *op == UnaryOp::Bnot)
                };
                if !ok {
                    self.err(format!("operand of type {t}"));
                }
                if self.want_result(result).is_some_and(|r| r != t) {
                    self.err(format!(
                        "result type {} differs from the operand's {t}",
                        result.unwrap_or(t)
                    ));
                }
            }
            Op::Binary(op) => {
                if !self.arity(args, 2) {
                    return;
                }
                let t = tys[0];
                if tys[1] != t {
                    self.err(format!("operand types differ: {t} and {}", tys[1]));
                }
                let logic = matches!(op, BinaryOp::Band | BinaryOp::Bor | BinaryOp::Bxor);
                let ok = if op.is_float() {
                    t.is_float()
                } else {
                    t.is_int() && (!t.is_bool() || logic)
                };
                if !ok {
                    self.err(format!("operands of type {t}"));
                }
                if self.want_result(result).is_some_and(|r| r != t) {
                    self.err(format!(
                        "result type {} differs from the operands' {t}",
                        result.unwrap_or(t)
                    ));
                }
            }
            Op::Fma => {
                if !self.arity(args, 3) {
                    return;
                }
                let t = tys[0];
                if tys.iter().any(|&x| x != t) || !t.is_float() {
                    self.err(format!(
                        "operands must be one float type, are {}",
                        list(tys)
                    ));
                }
                if self.want_result(result).is_some_and(|r| r != t) {
                    self.err("result type differs from the operands'");
                }
            }
            Op::Icmp(_) | Op::Fcmp(_) => {
                if !self.arity(args, 2) {
                    return;
                }
                let t = tys[0];
                if tys[1] != t {
                    self.err(format!("operand types differ: {t} and {}", tys[1]));
                }
                let ok = match *op {
                    Op::Icmp(_) => t.is_int() || t.is_ptr(),
                    _ => t.is_float(),
                };
                if !ok {
                    self.err(format!("operands of type {t}"));
                }
                let want = t.with_lane_type(Type::I1).unwrap_or(Type::I1);
                if let Some(r) = self.want_result(result) {
                    if r != want {
                        self.err(format!("result type {r}, must be {want}"));
                    }
                }
            }
            Op::Select => {
                if !self.arity(args, 3) {
                    return;
                }
                let (c, a, b) = (tys[0], tys[1], tys[2]);
                if a != b {
                    self.err(format!("operand types differ: {a} and {b}"));
                }
                if !c.is_bool() || (c.is_vector() && c.lanes() != a.lanes()) {
                    self.err(format!("condition of type {c} for operands of type {a}"));
                }
                if self.want_result(result).is_some_and(|r| r != a) {
                    self.err("result type differs from the operands'");
                }
            }
            Op::Convert(op) => {
                if !self.arity(args, 1) {
                    return;
                }
                let Some(r) = self.want_result(result) else {
                    return;
                };
                self.check_convert(*op, tys[0], r);
            }
            Op::Bitcast => {
                if !self.arity(args, 1) {
                    return;
                }
                let Some(r) = self.want_result(result) else {
                    return;
                };
                let t = tys[0];
                if t.is_ptr() || r.is_ptr() || t.is_bool() || r.is_bool() || t.bits() != r.bits() {
                    self.err(format!("cannot bitcast {t} to {r}"));
                }
            }
            Op::PtrToInt | Op::IntToPtr => {
                if !self.arity(args, 1) {
                    return;
                }
                let Some(r) = self.want_result(result) else {
                    return;
                };
                let (p, i) = if *op == Op::PtrToInt {
                    (tys[0], r)
                } else {
                    (r, tys[0])
                };
                if !p.is_ptr() || !(i == Type::I32 || i == Type::I64) {
                    self.err(format!("cannot convert {} to {r}", tys[0]));
                }
            }
            Op::AddrCast => {
                if !self.arity(args, 1) {
                    return;
                }
                let Some(r) = self.want_result(result) else {
                    return;
                };
                let ok = match (tys[0].addr_space(), r.addr_space()) {
                    // 6.7.9 (generic): a named address space converts to and from generic.
                    (Some(a), Some(b)) => {
                        a != b && (a == AddrSpace::Generic || b == AddrSpace::Generic)
                    }
                    _ => false,
                };
                if !ok {
                    self.err(format!(
                        "cannot cast {} to {r}: one side must be generic",
                        tys[0]
                    ));
                }
            }
            Op::PtrAdd => {
                if !self.arity(args, 2) {
                    return;
                }
                if !tys[0].is_ptr() || !(tys[1] == Type::I32 || tys[1] == Type::I64) {
                    self.err(format!("operands of types {}", list(tys)));
                }
                if self.want_result(result).is_some_and(|r| r != tys[0]) {
                    self.err("result type differs from the pointer's");
                }
            }
            _ => unreachable!("check_inst routes only these operations here"),
        }
    }

    /// Lane operations: `splat`, `extractlane`, `insertlane`, `shuffle`.
    fn check_lanes(&mut self, op: &Op, o: &Operands<'_>) {
        let &Operands {
            args,
            ref tys,
            result,
            ..
        } = o;
        match op {
            Op::Splat => {
                if !self.arity(args, 1) {
                    return;
                }
                let Some(r) = self.want_result(result) else {
                    return;
                };
                if tys[0].is_vector()
                    || tys[0].is_ptr()
                    || !r.is_vector()
                    || r.lane_type() != tys[0]
                {
                    self.err(format!("cannot splat {} to {r}", tys[0]));
                }
            }
            Op::ExtractLane(n) => {
                if !self.arity(args, 1) {
                    return;
                }
                let t = tys[0];
                if !t.is_vector() || u32::from(*n) >= t.lanes() {
                    self.err(format!("no lane {n} in {t}"));
                }
                if self.want_result(result).is_some_and(|r| r != t.lane_type()) {
                    self.err("result type is not the lane type");
                }
            }
            Op::InsertLane(n) => {
                if !self.arity(args, 2) {
                    return;
                }
                let t = tys[0];
                if !t.is_vector() || u32::from(*n) >= t.lanes() {
                    self.err(format!("no lane {n} in {t}"));
                }
                if tys[1] != t.lane_type() {
                    self.err(format!("inserts a {} into {t}", tys[1]));
                }
                if self.want_result(result).is_some_and(|r| r != t) {
                    self.err("result type differs from the vector's");
                }
            }
            Op::Shuffle(mask) => {
                if !self.arity(args, 2) {
                    return;
                }
                let t = tys[0];
                if !t.is_vector() || tys[1] != t {
                    self.err(format!("shuffles {} and {}", t, tys[1]));
                }
                if let Some(&m) = mask.iter().find(|&&m| u32::from(m) >= 2 * t.lanes()) {
                    self.err(format!("mask index {m} out of range for two {t}"));
                }
                let want = t.lane_type().vector(mask.len() as u32);
                if want.is_none() || mask.len() < 2 {
                    self.err(format!("a mask of {} lanes", mask.len()));
                }
                if let (Some(r), Some(w)) = (self.want_result(result), want) {
                    if r != w {
                        self.err(format!("result type {r}, must be {w}"));
                    }
                }
            }
            _ => unreachable!("check_inst routes only these operations here"),
        }
    }

    /// Memory: loads, stores, atomics, fences and barriers, the addresses of slots and globals.
    fn check_memory(&mut self, op: &Op, o: &Operands<'_>) {
        let &Operands {
            args,
            ref tys,
            result,
            ..
        } = o;
        let f = self.func;
        let no_result = |s: &mut Self| {
            if result.is_some() {
                s.err("has no result");
            }
        };
        match op {
            Op::Load(flags) => {
                if !self.arity(args, 1) {
                    return;
                }
                self.check_mem_space(flags.space, args[0]);
                self.check_mem_flags(flags);
                if let Some(r) = self.want_result(result) {
                    if r.is_bool() {
                        self.err("loads an i1: booleans are stored as i8");
                    }
                }
            }
            Op::Store(flags) => {
                no_result(self);
                if !self.arity(args, 2) {
                    return;
                }
                if self.check_mem_space(flags.space, args[1]) && flags.space == AddrSpace::Constant
                {
                    self.err("stores to the constant address space");
                }
                self.check_mem_flags(flags);
                if tys[0].is_bool() {
                    self.err("stores an i1: booleans are stored as i8");
                }
            }
            Op::AtomicRmw(op, info) => {
                if !self.arity(args, 2) {
                    return;
                }
                self.check_atomic(*info, args[0]);
                self.check_atomic_type(tys[1], matches!(op, RmwOp::Xchg | RmwOp::Add));
                if self.want_result(result).is_some_and(|r| r != tys[1]) {
                    self.err("result type differs from the operand's");
                }
            }
            Op::Cmpxchg(info, failure) => {
                if !self.arity(args, 3) {
                    return;
                }
                self.check_atomic(*info, args[0]);
                self.check_atomic_type(tys[1], true);
                if tys[2] != tys[1] {
                    self.err(format!(
                        "expected and desired differ: {} and {}",
                        tys[1], tys[2]
                    ));
                }
                if matches!(failure, Ordering::Release | Ordering::AcqRel) {
                    // 6.15.12.7: "failure ... shall not be memory_order_release nor
                    // memory_order_acq_rel".
                    self.err(format!("failure ordering {}", failure.name()));
                }
                if self.want_result(result).is_some_and(|r| r != tys[1]) {
                    self.err("result type differs from the operand's");
                }
            }
            Op::AtomicLoad(info) => {
                if !self.arity(args, 1) {
                    return;
                }
                self.check_atomic(*info, args[0]);
                if matches!(info.order, Ordering::Release | Ordering::AcqRel) {
                    self.err(format!("atomic load with ordering {}", info.order.name()));
                }
                if let Some(r) = self.want_result(result) {
                    self.check_atomic_type(r, true);
                }
            }
            Op::AtomicStore(info) => {
                no_result(self);
                if !self.arity(args, 2) {
                    return;
                }
                self.check_atomic(*info, args[1]);
                if matches!(info.order, Ordering::Acquire | Ordering::AcqRel) {
                    self.err(format!("atomic store with ordering {}", info.order.name()));
                }
                self.check_atomic_type(tys[0], true);
            }
            Op::Fence(flags, _, _) | Op::Barrier(flags, _) => {
                no_result(self);
                self.arity(args, 0);
                if flags.0 & !7 != 0 {
                    self.err(format!("unknown fence flags {:#x}", flags.0));
                }
            }
            Op::SlotAddr(ss) => {
                self.arity(args, 0);
                if !f.slots.is_valid(*ss) {
                    self.err(format!("{ss} does not exist"));
                }
                if self
                    .want_result(result)
                    .is_some_and(|r| r != Type::ptr(AddrSpace::Private))
                {
                    self.err("a stack slot's address is a ptr.private");
                }
            }
            Op::GlobalAddr(g) => {
                self.arity(args, 0);
                let Some(gd) = self.module.globals.get(*g) else {
                    self.err(format!("{g} does not exist"));
                    return;
                };
                let want = Type::ptr(gd.space);
                if self.want_result(result).is_some_and(|r| r != want) {
                    self.err(format!("the address of @{} is a {want}", gd.name));
                }
            }
            _ => unreachable!("check_inst routes only these operations here"),
        }
    }

    /// Work-item queries and collectives.
    fn check_work_item(&mut self, op: &Op, o: &Operands<'_>) {
        let &Operands {
            args,
            ref tys,
            result,
            ..
        } = o;
        match op {
            Op::Group(g, scope) => {
                if !matches!(scope, Scope::WorkGroup | Scope::SubGroup) {
                    self.err(format!("a collective of {} scope", scope.name()));
                }
                let broadcast = *g == GroupOp::Broadcast;
                if !self.arity(args, if broadcast { 2 } else { 1 }) {
                    return;
                }
                let t = tys[0];
                if t.is_vector() || !(t.is_float() || t.is_int() && !t.is_bool()) {
                    self.err(format!("operand of type {t}: a scalar integer or float"));
                }
                if let Some(b) = g.combine() {
                    if !b.is_group_combinable() || b.is_float() != t.is_float() {
                        self.err(format!("{} does not combine {t} values", b.name()));
                    }
                }
                if broadcast && tys[1] != Type::I64 {
                    self.err(format!("work-item id of type {}: an i64", tys[1]));
                }
                if self.want_result(result).is_some_and(|r| r != t) {
                    self.err(format!(
                        "result type {} differs from the operand's {t}",
                        result.unwrap_or(t)
                    ));
                }
            }
            Op::WorkItem(op, dim) => {
                self.arity(args, 0);
                if op.has_dim() && *dim > 2 || !op.has_dim() && *dim != 0 {
                    self.err(format!("dimension {dim}"));
                }
                if let Some(r) = self.want_result(result) {
                    if !(r == Type::I32 || r == Type::I64) {
                        self.err(format!("result of type {r}"));
                    }
                }
            }
            _ => unreachable!("check_inst routes only these operations here"),
        }
    }

    /// Calls and terminators.
    fn check_control(&mut self, op: &Op, o: &Operands<'_>) {
        let &Operands {
            args,
            ref tys,
            result,
            entry,
            ..
        } = o;
        let f = self.func;
        let no_result = |s: &mut Self| {
            if result.is_some() {
                s.err("has no result");
            }
        };
        match op {
            Op::Call(callee) => {
                let Some(cf) = self.module.funcs.get(*callee) else {
                    self.err(format!("calls {callee}, which does not exist"));
                    return;
                };
                let fixed = cf.sig.params.len();
                let ok = if cf.sig.variadic {
                    tys.len() >= fixed
                        && tys[..fixed] == cf.sig.params[..]
                        && !tys[fixed..].iter().any(|t| t.is_bool())
                } else {
                    *tys == cf.sig.params
                };
                if !ok {
                    self.err(format!(
                        "calls @{}({}) with ({})",
                        cf.name,
                        list(&cf.sig.params),
                        list(tys)
                    ));
                }
                if result != cf.sig.ret {
                    self.err(format!(
                        "@{} returns {}",
                        cf.name,
                        cf.sig.ret.map_or("nothing".into(), |t| t.to_string())
                    ));
                }
            }
            Op::Jump(d) => {
                no_result(self);
                self.arity(args, 0);
                self.check_dest(d, entry);
            }
            Op::Brif(d) => {
                let (a, b) = &**d;
                no_result(self);
                if self.arity(args, 1) && tys[0] != Type::I1 {
                    self.err(format!("condition of type {}, must be i1", tys[0]));
                }
                self.check_dest(a, entry);
                self.check_dest(b, entry);
            }
            Op::Switch(t) => {
                no_result(self);
                if !self.arity(args, 1) {
                    return;
                }
                let st = tys[0];
                if !is_int_scalar(st) {
                    self.err(format!("selector of type {st}"));
                }
                let mut seen = HashSet::new();
                for (c, _) in &t.cases {
                    if st.lane_bits() < 64 && c >> st.lane_bits() != 0 {
                        self.err(format!("case {c:#x} does not fit in {st}"));
                    }
                    if !seen.insert(*c) {
                        self.err(format!("case {c:#x} appears twice"));
                    }
                }
                self.check_dest(&t.default, entry);
                for (_, d) in &t.cases {
                    self.check_dest(d, entry);
                }
            }
            Op::Return => {
                no_result(self);
                let want: Vec<Type> = f.sig.ret.into_iter().collect();
                if *tys != want {
                    self.err(format!(
                        "returns ({}), the function returns ({})",
                        list(tys),
                        list(&want)
                    ));
                }
            }
            Op::Unreachable => {
                no_result(self);
                self.arity(args, 0);
            }
            _ => unreachable!("check_inst routes only these operations here"),
        }
    }

    /// A load's or store's alignment, and its trust: only accesses a device confines
    /// (`private` and `local` ones) can need no confining.
    fn check_mem_flags(&mut self, flags: &MemFlags) {
        self.check_align(flags.align);
        if flags.trusted && !matches!(flags.space, AddrSpace::Private | AddrSpace::Local) {
            self.err(format!("a trusted access of {} memory", flags.space));
        }
    }

    fn check_align(&mut self, align: u32) {
        if !align.is_power_of_two() {
            self.err(format!("alignment {align} is not a power of two"));
        }
    }

    fn check_convert(&mut self, op: ConvOp, t: Type, r: Type) {
        if t.lanes() != r.lanes() {
            self.err(format!("converts {t} to {r}: lane counts differ"));
            return;
        }
        let (tb, rb) = (t.lane_bits(), r.lane_bits());
        let ok = match op {
            ConvOp::Trunc => t.is_int() && r.is_int() && rb < tb,
            ConvOp::Zext | ConvOp::Sext => t.is_int() && r.is_int() && rb > tb,
            ConvOp::SatInt { .. } => t.is_int() && r.is_int() && !t.is_bool() && !r.is_bool(),
            ConvOp::Fconv(_) => t.is_float() && r.is_float() && rb != tb,
            ConvOp::SintToFloat(_) | ConvOp::UintToFloat(_) => {
                t.is_int() && !t.is_bool() && r.is_float()
            }
            ConvOp::FloatToSint { .. } | ConvOp::FloatToUint { .. } => {
                t.is_float() && r.is_int() && !r.is_bool()
            }
        };
        if !ok {
            self.err(format!("cannot convert {t} to {r} with {}", conv_name(op)));
        }
    }
}

fn list(tys: &[Type]) -> String {
    tys.iter()
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The mnemonic of an operation, without modifiers.
pub fn mnemonic(op: &Op) -> &'static str {
    match op {
        Op::Iconst(_) => "iconst",
        Op::Fconst(_) => "fconst",
        Op::Vconst(_) => "vconst",
        Op::Null => "null",
        Op::Undef => "undef",
        Op::Unary(u) => u.name(),
        Op::Binary(b) => b.name(),
        Op::Fma => "fma",
        Op::Icmp(_) => "icmp",
        Op::Fcmp(_) => "fcmp",
        Op::Select => "select",
        Op::Convert(c) => conv_name(*c),
        Op::Bitcast => "bitcast",
        Op::PtrToInt => "ptrtoint",
        Op::IntToPtr => "inttoptr",
        Op::AddrCast => "addrcast",
        Op::PtrAdd => "ptradd",
        Op::Splat => "splat",
        Op::ExtractLane(_) => "extractlane",
        Op::InsertLane(_) => "insertlane",
        Op::Shuffle(_) => "shuffle",
        Op::Load(_) => "load",
        Op::Store(_) => "store",
        Op::AtomicRmw(..) => "atomic_rmw",
        Op::Cmpxchg(..) => "cmpxchg",
        Op::AtomicLoad(_) => "atomic_load",
        Op::AtomicStore(_) => "atomic_store",
        Op::Fence(..) => "fence",
        Op::Barrier(..) => "barrier",
        Op::WorkItem(w, _) => w.name(),
        Op::Group(g, Scope::SubGroup) => g.sub_group_name(),
        Op::Group(g, _) => g.name(),
        Op::SlotAddr(_) => "slotaddr",
        Op::GlobalAddr(_) => "globaladdr",
        Op::Call(_) => "call",
        Op::Jump(_) => "jump",
        Op::Brif(_) => "brif",
        Op::Switch(_) => "switch",
        Op::Return => "return",
        Op::Unreachable => "unreachable",
    }
}

/// The mnemonic of a conversion.
pub fn conv_name(op: ConvOp) -> &'static str {
    match op {
        ConvOp::Trunc => "trunc",
        ConvOp::Zext => "zext",
        ConvOp::Sext => "sext",
        ConvOp::SatInt { .. } => "satconv",
        ConvOp::Fconv(_) => "fconv",
        ConvOp::SintToFloat(_) => "sitofp",
        ConvOp::UintToFloat(_) => "uitofp",
        ConvOp::FloatToSint { .. } => "fptosi",
        ConvOp::FloatToUint { .. } => "fptoui",
    }
}
