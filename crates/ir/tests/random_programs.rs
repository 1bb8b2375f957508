//! Random structured programs, evaluated three ways that must agree: directly in Rust (the
//! oracle), by the interpreter on the IR the builder's SSA construction made, and by the
//! interpreter after the standard pass pipeline. The programs mix SSA variables, private
//! stack slots (for mem2reg), stores to a global buffer, branches, counted loops and a
//! helper function called from the kernel (for the inliner). Each module also round-trips
//! through the text form and the binary format.

use ferrocl_ir::interp::{Interpreter, Val};
use ferrocl_ir::passes::PassManager;
use ferrocl_ir::serialize::{deserialize, serialize};
use ferrocl_ir::*;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> usize {
        (self.next() % n) as usize
    }
}

const VARS: usize = 4;
const SLOTS: usize = 2;
const BUF: usize = 8;

#[derive(Clone, Copy, Debug)]
enum Bin {
    Add,
    Sub,
    Mul,
    And,
    Or,
    Xor,
    Shl,
    Lshr,
    Ashr,
    Smin,
    Umax,
    Sdiv,
    Urem,
}

const BINS: [Bin; 13] = [
    Bin::Add,
    Bin::Sub,
    Bin::Mul,
    Bin::And,
    Bin::Or,
    Bin::Xor,
    Bin::Shl,
    Bin::Lshr,
    Bin::Ashr,
    Bin::Smin,
    Bin::Umax,
    Bin::Sdiv,
    Bin::Urem,
];

#[derive(Clone, Debug)]
enum Expr {
    Var(usize),
    Const(i32),
    Bin(Bin, Box<Expr>, Box<Expr>),
    /// `a < b ? c : d` (signed).
    Select(Box<[Expr; 4]>),
    SlotLoad(usize),
    /// `buf[e & 7]`.
    BufLoad(Box<Expr>),
    /// `(int)(char)e`.
    CharCast(Box<Expr>),
}

#[derive(Clone, Debug)]
enum Stmt {
    Assign(usize, Expr),
    SlotStore(usize, Expr),
    BufStore(Expr, Expr),
    If(Expr, Expr, Vec<Stmt>, Vec<Stmt>),
    Loop(u32, Vec<Stmt>),
    /// `switch (e & 3) { case 0: ... case 2: ... default: ... }`, no fall-through.
    Switch(Expr, Vec<Stmt>, Vec<Stmt>, Vec<Stmt>),
    /// `if (a < b) break;` inside a loop (ignored outside one).
    BreakIf(Expr, Expr),
    /// `f = f * 0.5f + (float)e;` on the float variable.
    FloatStep(Expr),
    /// `v = (int)f;` (saturating, NaN to 0).
    FloatToVar(usize),
}

fn gen_expr(r: &mut Rng, depth: u32) -> Expr {
    match if depth == 0 { r.below(3) } else { r.below(8) } {
        0 => Expr::Var(r.below(VARS as u64)),
        7 => Expr::BufLoad(Box::new(gen_expr(r, depth - 1))),
        1 => Expr::Const([0, 1, 2, 3, -1, 31, 100, i32::MIN, 7][r.below(9)]),
        2 => Expr::SlotLoad(r.below(SLOTS as u64)),
        3 => Expr::Select(Box::new([0, 0, 0, 0].map(|_| gen_expr(r, depth - 1)))),
        4 => Expr::CharCast(Box::new(gen_expr(r, depth - 1))),
        _ => Expr::Bin(
            BINS[r.below(BINS.len() as u64)],
            Box::new(gen_expr(r, depth - 1)),
            Box::new(gen_expr(r, depth - 1)),
        ),
    }
}

fn gen_block(r: &mut Rng, depth: u32, len: usize) -> Vec<Stmt> {
    (0..len)
        .map(|_| match if depth == 0 { r.below(6) } else { r.below(9) } {
            0 => Stmt::Assign(r.below(VARS as u64), gen_expr(r, 2)),
            1 => Stmt::SlotStore(r.below(SLOTS as u64), gen_expr(r, 2)),
            2 => Stmt::BufStore(gen_expr(r, 1), gen_expr(r, 2)),
            3 => Stmt::BreakIf(gen_expr(r, 1), gen_expr(r, 1)),
            4 => Stmt::FloatStep(gen_expr(r, 1)),
            5 => Stmt::FloatToVar(r.below(VARS as u64)),
            6 => Stmt::If(
                gen_expr(r, 1),
                gen_expr(r, 1),
                gen_block(r, depth - 1, 2),
                gen_block(r, depth - 1, 2),
            ),
            7 => Stmt::Switch(
                gen_expr(r, 1),
                gen_block(r, depth - 1, 2),
                gen_block(r, depth - 1, 2),
                gen_block(r, depth - 1, 2),
            ),
            _ => Stmt::Loop(r.below(4) as u32, gen_block(r, depth - 1, 3)),
        })
        .collect()
}

// ---- the oracle ----

struct State {
    vars: [i32; VARS],
    f: f32,
    slots: [i32; SLOTS],
    buf: [i32; BUF + 1],
}

fn bin(op: Bin, a: i32, b: i32) -> i32 {
    let sh = (b & 31) as u32;
    match op {
        Bin::Add => a.wrapping_add(b),
        Bin::Sub => a.wrapping_sub(b),
        Bin::Mul => a.wrapping_mul(b),
        Bin::And => a & b,
        Bin::Or => a | b,
        Bin::Xor => a ^ b,
        Bin::Shl => a.wrapping_shl(sh),
        Bin::Lshr => ((a as u32) >> sh) as i32,
        Bin::Ashr => a >> sh,
        Bin::Smin => a.min(b),
        Bin::Umax => (a as u32).max(b as u32) as i32,
        // Unspecified in OpenCL C (6.5.1); the interpreter's choice is 0 for a zero divisor
        // and wrapping for INT_MIN / -1.
        Bin::Sdiv if b == 0 => 0,
        Bin::Sdiv => a.wrapping_div(b),
        Bin::Urem if b == 0 => 0,
        Bin::Urem => ((a as u32) % (b as u32)) as i32,
    }
}

fn eval(e: &Expr, s: &State) -> i32 {
    match e {
        Expr::Var(v) => s.vars[*v],
        Expr::Const(c) => *c,
        Expr::Bin(op, a, b) => bin(*op, eval(a, s), eval(b, s)),
        Expr::Select(x) => {
            if eval(&x[0], s) < eval(&x[1], s) {
                eval(&x[2], s)
            } else {
                eval(&x[3], s)
            }
        }
        Expr::SlotLoad(k) => s.slots[*k],
        Expr::BufLoad(i) => s.buf[(eval(i, s) & 7) as usize],
        Expr::CharCast(a) => i32::from(eval(a, s) as i8),
    }
}

/// Runs `stmts`; returns true when a `break` left the innermost loop.
fn exec(stmts: &[Stmt], s: &mut State, in_loop: bool) -> bool {
    for st in stmts {
        match st {
            Stmt::Assign(v, e) => s.vars[*v] = eval(e, s),
            Stmt::SlotStore(k, e) => s.slots[*k] = eval(e, s),
            Stmt::BufStore(i, e) => {
                let i = (eval(i, s) & 7) as usize;
                s.buf[i] = eval(e, s);
            }
            Stmt::If(a, b, t, f) => {
                let taken = if eval(a, s) < eval(b, s) { t } else { f };
                if exec(taken, s, in_loop) {
                    return true;
                }
            }
            Stmt::Switch(e, c0, c2, d) => {
                let body = match eval(e, s) & 3 {
                    0 => c0,
                    2 => c2,
                    _ => d,
                };
                if exec(body, s, in_loop) {
                    return true;
                }
            }
            Stmt::Loop(n, body) => {
                for _ in 0..*n {
                    if exec(body, s, true) {
                        break;
                    }
                }
            }
            Stmt::BreakIf(a, b) => {
                if in_loop && eval(a, s) < eval(b, s) {
                    return true;
                }
            }
            Stmt::FloatStep(e) => s.f = s.f * 0.5 + eval(e, s) as f32,
            // Rust's `as` saturates and maps NaN to 0, as convert_int_sat does (6.4.3.3).
            Stmt::FloatToVar(v) => s.vars[*v] = s.f as i32,
        }
    }
    false
}

// ---- lowering with the builder ----

struct Lower<'a, 'b> {
    b: &'a mut FunctionBuilder<'b>,
    vars: [Variable; VARS],
    fvar: Variable,
    /// The exit block of each enclosing loop, innermost last.
    exits: Vec<Block>,
    slots: [StackSlot; SLOTS],
    buf: Value,
}

impl Lower<'_, '_> {
    fn expr(&mut self, e: &Expr) -> Value {
        let b = &mut *self.b;
        match e {
            Expr::Var(v) => b.use_var(self.vars[*v]),
            Expr::Const(c) => b.iconst(Type::I32, i64::from(*c)),
            Expr::Bin(op, x, y) => {
                let (x, y) = (self.expr(x), self.expr(y));
                let op = match op {
                    Bin::Add => BinaryOp::Iadd,
                    Bin::Sub => BinaryOp::Isub,
                    Bin::Mul => BinaryOp::Imul,
                    Bin::And => BinaryOp::Band,
                    Bin::Or => BinaryOp::Bor,
                    Bin::Xor => BinaryOp::Bxor,
                    Bin::Shl => BinaryOp::Shl,
                    Bin::Lshr => BinaryOp::Lshr,
                    Bin::Ashr => BinaryOp::Ashr,
                    Bin::Smin => BinaryOp::Smin,
                    Bin::Umax => BinaryOp::Umax,
                    Bin::Sdiv => BinaryOp::Sdiv,
                    Bin::Urem => BinaryOp::Urem,
                };
                self.b.binary(op, x, y)
            }
            Expr::Select(xs) => {
                let v: Vec<Value> = xs.iter().map(|x| self.expr(x)).collect();
                let c = self.b.icmp(IntCC::Slt, v[0], v[1]);
                self.b.select(c, v[2], v[3])
            }
            Expr::BufLoad(i) => {
                let i = self.expr(i);
                let p = self.buf_addr(i);
                self.b.load(Type::I32, p, 4, false)
            }
            Expr::SlotLoad(k) => {
                let p = b.slot_addr(self.slots[*k]);
                b.load(Type::I32, p, 4, false)
            }
            Expr::CharCast(x) => {
                let x = self.expr(x);
                let c = self.b.convert(ConvOp::Trunc, x, Type::I8);
                self.b.convert(ConvOp::Sext, c, Type::I32)
            }
        }
    }

    /// `&buf[i & 7]`.
    fn buf_addr(&mut self, i: Value) -> Value {
        let seven = self.b.iconst(Type::I32, 7);
        let i = self.b.binary(BinaryOp::Band, i, seven);
        let i = self.b.convert(ConvOp::Zext, i, Type::I64);
        let four = self.b.iconst(Type::I64, 4);
        let off = self.b.imul(i, four);
        self.b.ptradd(self.buf, off)
    }

    fn cond(&mut self, a: &Expr, c: &Expr) -> Value {
        let (a, c) = (self.expr(a), self.expr(c));
        self.b.icmp(IntCC::Slt, a, c)
    }

    fn stmts(&mut self, stmts: &[Stmt]) {
        for st in stmts {
            match st {
                Stmt::Assign(v, e) => {
                    let x = self.expr(e);
                    self.b.def_var(self.vars[*v], x);
                }
                Stmt::SlotStore(k, e) => {
                    let x = self.expr(e);
                    let p = self.b.slot_addr(self.slots[*k]);
                    self.b.store(x, p, 4, false);
                }
                Stmt::BufStore(i, e) => {
                    let i = self.expr(i);
                    let x = self.expr(e);
                    let p = self.buf_addr(i);
                    self.b.store(x, p, 4, false);
                }
                Stmt::If(a, c, t, f) => {
                    let c = self.cond(a, c);
                    let (tb, fb, join) = (
                        self.b.create_block(),
                        self.b.create_block(),
                        self.b.create_block(),
                    );
                    self.b.brif(c, tb, &[], fb, &[]);
                    for (blk, body) in [(tb, t), (fb, f)] {
                        self.b.switch_to_block(blk);
                        self.b.seal_block(blk);
                        self.stmts(body);
                        self.b.jump(join, &[]);
                    }
                    self.b.switch_to_block(join);
                    self.b.seal_block(join);
                }
                Stmt::Loop(n, body) => {
                    let counter = self.b.declare_var(Type::I32);
                    let zero = self.b.iconst(Type::I32, 0);
                    self.b.def_var(counter, zero);
                    let (header, bodyb, exit) = (
                        self.b.create_block(),
                        self.b.create_block(),
                        self.b.create_block(),
                    );
                    self.b.jump(header, &[]);
                    self.b.switch_to_block(header);
                    let c = self.b.use_var(counter);
                    let limit = self.b.iconst(Type::I32, i64::from(*n));
                    let go = self.b.icmp(IntCC::Slt, c, limit);
                    self.b.brif(go, bodyb, &[], exit, &[]);
                    self.b.switch_to_block(bodyb);
                    self.b.seal_block(bodyb);
                    self.exits.push(exit);
                    self.stmts(body);
                    self.exits.pop();
                    let c = self.b.use_var(counter);
                    let one = self.b.iconst(Type::I32, 1);
                    let c2 = self.b.iadd(c, one);
                    self.b.def_var(counter, c2);
                    self.b.jump(header, &[]);
                    self.b.seal_block(header);
                    self.b.switch_to_block(exit);
                    self.b.seal_block(exit);
                }
                Stmt::Switch(e, c0, c2, d) => {
                    let x = self.expr(e);
                    let three = self.b.iconst(Type::I32, 3);
                    let x = self.b.binary(BinaryOp::Band, x, three);
                    let blocks = [
                        self.b.create_block(),
                        self.b.create_block(),
                        self.b.create_block(),
                    ];
                    let join = self.b.create_block();
                    self.b.switch(
                        x,
                        Dest::new(blocks[2], &[]),
                        vec![
                            (0, Dest::new(blocks[0], &[])),
                            (2, Dest::new(blocks[1], &[])),
                        ],
                    );
                    for (blk, body) in blocks.into_iter().zip([c0, c2, d]) {
                        self.b.switch_to_block(blk);
                        self.b.seal_block(blk);
                        self.stmts(body);
                        self.b.jump(join, &[]);
                    }
                    self.b.switch_to_block(join);
                    self.b.seal_block(join);
                }
                Stmt::BreakIf(a, c) => {
                    let Some(&exit) = self.exits.last() else {
                        continue;
                    };
                    let c = self.cond(a, c);
                    let (brk, cont) = (self.b.create_block(), self.b.create_block());
                    self.b.brif(c, brk, &[], cont, &[]);
                    self.b.switch_to_block(brk);
                    self.b.seal_block(brk);
                    self.b.jump(exit, &[]);
                    // The front-end pattern after a jump: keep emitting into a fresh block
                    // that nothing reaches.
                    let dead = self.b.create_block();
                    self.b.switch_to_block(dead);
                    self.b.seal_block(dead);
                    let k = self.b.iconst(Type::I32, 1);
                    self.b.def_var(self.vars[3], k);
                    self.b.jump(cont, &[]);
                    self.b.switch_to_block(cont);
                    self.b.seal_block(cont);
                }
                Stmt::FloatStep(e) => {
                    let x = self.expr(e);
                    let xf = self
                        .b
                        .convert(ConvOp::SintToFloat(Round::Rte), x, Type::F32);
                    let f = self.b.use_var(self.fvar);
                    let half = self.b.f32const(Type::F32, 0.5);
                    let m = self.b.binary(BinaryOp::Fmul, f, half);
                    let r = self.b.fadd(m, xf);
                    self.b.def_var(self.fvar, r);
                }
                Stmt::FloatToVar(v) => {
                    let f = self.b.use_var(self.fvar);
                    let i = self.b.convert(
                        ConvOp::FloatToSint {
                            round: Round::Rtz,
                            sat: true,
                        },
                        f,
                        Type::I32,
                    );
                    self.b.def_var(self.vars[*v], i);
                }
            }
        }
    }
}

/// `@g(buf, a, b) -> i32` runs the program; `@k(buf, a, b)` stores `g`'s result at
/// `buf[8]`.
fn build(prog: &[Stmt]) -> Module {
    let mut m = Module::new();
    let g = m.add_function(
        "g",
        Signature::new(
            &[Type::ptr(AddrSpace::Global), Type::I32, Type::I32],
            Some(Type::I32),
        ),
    );
    {
        let func = &mut m.funcs[g];
        let slots = [func.create_slot(4, 4), func.create_slot(4, 4)];
        let mut b = FunctionBuilder::new(func);
        let entry = b.create_entry_block();
        let ps = b.block_params(entry).to_vec();
        let vars = [0; VARS].map(|_| b.declare_var(Type::I32));
        b.def_var(vars[0], ps[1]);
        b.def_var(vars[1], ps[2]);
        let (zero, one) = (b.iconst(Type::I32, 0), b.iconst(Type::I32, 1));
        b.def_var(vars[2], zero);
        b.def_var(vars[3], one);
        for (k, &ss) in slots.iter().enumerate() {
            let p = b.slot_addr(ss);
            let init = b.iconst(Type::I32, 7 + k as i64);
            b.store(init, p, 4, false);
        }
        let fvar = b.declare_var(Type::F32);
        let quarter = b.f32const(Type::F32, 0.25);
        b.def_var(fvar, quarter);
        let mut l = Lower {
            b: &mut b,
            vars,
            fvar,
            exits: Vec::new(),
            slots,
            buf: ps[0],
        };
        l.stmts(prog);
        let r = l.b.use_var(vars[0]);
        b.ret(Some(r));
        b.finish();
    }
    let k = m.add_function(
        "k",
        Signature::new(&[Type::ptr(AddrSpace::Global), Type::I32, Type::I32], None),
    );
    m.funcs[k].kernel = Some(KernelInfo {
        args: ["buf", "a", "b"]
            .iter()
            .enumerate()
            .map(|(i, n)| KernelArg {
                name: n.to_string(),
                type_name: if i == 0 { "int*".into() } else { "int".into() },
                space: if i == 0 {
                    AddrSpace::Global
                } else {
                    AddrSpace::Private
                },
                access: AccessQualifier::None,
                quals: TypeQualifiers::default(),
                kind: if i == 0 {
                    ArgKind::Buffer
                } else {
                    ArgKind::Value
                },
                size: if i == 0 { 8 } else { 4 },
                align: if i == 0 { 8 } else { 4 },
            })
            .collect(),
        ..KernelInfo::default()
    });
    let mut b = FunctionBuilder::new(&mut m.funcs[k]);
    let entry = b.create_entry_block();
    let ps = b.block_params(entry).to_vec();
    let r = b.call(g, Some(Type::I32), &ps).expect("g returns");
    let off = b.iconst(Type::I64, 4 * BUF as i64);
    let p = b.ptradd(ps[0], off);
    b.store(r, p, 4, false);
    b.ret(None);
    b.finish();
    m
}

fn run(m: &Module, a: i32, bb: i32) -> Vec<i32> {
    let k = m.func_by_name("k").expect("@k");
    let mut it = Interpreter::new(m);
    let buf = it.memory().alloc(vec![0; 4 * (BUF + 1)]);
    it.call(k, &[Val::scalar(buf), Val::i32(a), Val::i32(bb)])
        .unwrap_or_else(|t| panic!("trap: {t}"));
    let out = it
        .memory()
        .region(buf)
        .expect("buffer")
        .chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    out
}

#[test]
fn random_programs_agree_with_the_oracle_before_and_after_optimization() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut seen = std::collections::HashMap::new();
    for case in 0..300 {
        let prog = gen_block(&mut rng, 2, 4);
        let m = build(&prog);
        if let Err(es) = verify_module(&m) {
            panic!(
                "case {case}: builder output invalid: {es:?}\n{}",
                print_module(&m)
            );
        }
        let text = print_module(&m);
        for feature in [
            "switch",
            "fptosi.rtz.sat",
            "fmul",
            "brif",
            "load.private",
            "sdiv",
            "load.global",
        ] {
            *seen.entry(feature).or_insert(0usize) += usize::from(text.contains(feature));
        }
        assert_eq!(
            print_module(&parse_module(&text).expect("parses")),
            text,
            "case {case}"
        );
        assert_eq!(
            deserialize(&serialize(&m)).expect("reads back"),
            m,
            "case {case}"
        );
        let mut opt = m.clone();
        let mut pm = PassManager::standard();
        pm.verify = true;
        if let Err(e) = pm.run(&mut opt) {
            panic!("case {case}: {e}\n{text}");
        }
        for (a, bb) in [(0, 0), (5, -3), (-100, 77), (i32::MIN, 1)] {
            let mut s = State {
                vars: [a, bb, 0, 1],
                f: 0.25,
                slots: [7, 8],
                buf: [0; BUF + 1],
            };
            exec(&prog, &mut s, false);
            s.buf[BUF] = s.vars[0];
            let want = s.buf.to_vec();
            assert_eq!(
                run(&m, a, bb),
                want,
                "case {case} ({a}, {bb}): built IR disagrees with the oracle\n{text}"
            );
            assert_eq!(
                run(&opt, a, bb),
                want,
                "case {case} ({a}, {bb}): optimized IR disagrees\n{text}\n--- optimized:\n{}",
                print_module(&opt)
            );
        }
        // The kernel no longer calls anything, and its slots are gone.
        let k = &opt.funcs[opt.func_by_name("k").expect("@k")];
        assert!(
            k.slots.is_empty(),
            "case {case}: slots left\n{}",
            print_module(&opt)
        );
        let calls = k
            .layout
            .blocks()
            .iter()
            .flat_map(|&b| k.layout.block_insts(b))
            .filter(|&&i| matches!(k.dfg.insts[i].op, Op::Call(_)));
        assert_eq!(
            calls.count(),
            0,
            "case {case}: calls left\n{}",
            print_module(&opt)
        );
    }
    // The generator exercised every feature in many programs.
    for (feature, n) in seen {
        assert!(n >= 20, "only {n} programs used {feature}");
    }
}
