//! The random program generator: a [`Program`] from a seed, in the manner of Csmith (Yang et
//! al., PLDI 2011) and CLsmith (Lidbury et al., "Many-core compiler fuzzing", PLDI 2015):
//! every program is well defined by construction, so any two correct implementations compute
//! the same output for it.
//!
//! What keeps it well defined is the context each statement is generated in ([`Ctx`]):
//! - *uniform* control flow (every work-item of the group takes it: the kernel's top level,
//!   `if` on uniform conditions, loops of uniform trip counts whose body is uniform) is the only
//!   place for barriers, exchanges through `__local` memory, `__local` atomics and work-group
//!   collectives (OpenCL C 6.15.8: a barrier "must be encountered by all work-items in a
//!   work-group"; 6.15.16 likewise for the collectives), and for assignments to the uniform
//!   variables, which take uniform values only;
//! - `break` only in a loop whose body is not uniform;
//! - `__local` reads only in an exchange's body, between its barrier and the next one;
//! - sub-group functions only where every work-item of the sub-group runs (uniform control
//!   flow, and the bodies of conditions on the sub-group id or size), each sub-group
//!   exchanging through its own part of the array `ls`;
//! - early `return`s only in kernels without barriers or collectives (a fifth of them);
//! - narrow integers taken from `uint` bits by conversions to unsigned types and
//!   reinterpretations, float conversions saturated, `vload` indices masked to the input.
//!
//! The shapes that once hid wrong results are made likely: a uniform value computed in a
//! loop, kept across a barrier and read in a region guarded by `lid > c`, `lid >= c` or
//! `lid < c` (the exchange's guards).

use crate::program::*;

/// A deterministic generator (xorshift64, Marsaglia 2003).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // SplitMix64's finalizer spreads nearby seeds apart.
        let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        Rng((z ^ (z >> 31)) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }

    /// An index chosen by weight.
    pub fn weighted(&mut self, weights: &[u64]) -> usize {
        let total: u64 = weights.iter().sum();
        let mut r = self.below(total.max(1));
        for (k, &w) in weights.iter().enumerate() {
            if r < w {
                return k;
            }
            r -= w;
        }
        0
    }
}

/// Where a statement or expression is generated.
#[derive(Clone, Debug)]
struct Ctx {
    /// Every work-item of the group runs here.
    uniform: bool,
    /// Inside a loop whose body is not uniform: `break` may go here.
    breakable: bool,
    /// Inside an exchange's body: `__local` reads may go here.
    reads_local: bool,
    /// Statement nesting depth.
    depth: u32,
    /// Loop counters in scope, with whether each is uniform.
    counters: Vec<(u32, bool)>,
    /// An initial value: only constants, ids, the input and the variables declared before.
    declaring: bool,
    /// Every work-item of the sub-group runs here (as where every work-item of the group
    /// does, and under conditions on the sub-group id): the place for sub-group functions
    /// (OpenCL C 6.15.19: they "must be encountered by all work-items in a sub-group").
    sub_uniform: bool,
}

struct Gen {
    rng: Rng,
    p: Program,
    next_counter: u32,
    /// Variables declared so far.
    visible: usize,
    /// Whether the kernel may synchronize (barriers, exchanges, collectives); a kernel that
    /// does not may instead return early from some work-items.
    sync: bool,
}

static LEAN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Makes [`generate`] give lean programs from now on in this process (`--lean`): no private
/// arrays, structures, `uint4`/`float4` variables, `char`/`short` values, atomics or
/// sub-group functions, so that more of them stay in the parts of the IR the CPU device's
/// wide-vector tier covers and reach its code (with `FERROCL_VECTOR_WIDTH=16` for the
/// vectorized engine, `FERROCL_WIDE=all` for the scalar one).
pub fn set_lean(lean: bool) {
    LEAN.store(lean, std::sync::atomic::Ordering::Relaxed);
}

/// The program of `seed` (lean where [`set_lean`] said so).
pub fn generate(seed: u64) -> Program {
    let lean = LEAN.load(std::sync::atomic::Ordering::Relaxed);
    let mut g = Gen {
        rng: Rng::new(seed),
        p: Program {
            helpers: Vec::new(),
            vars: Vec::new(),
            fvars: Vec::new(),
            qvars: Vec::new(),
            wvars: Vec::new(),
            fields: [Expr::Const(0), Expr::Const(0)],
            private_init: Expr::Const(0),
            body: Vec::new(),
            shape: Shape::PLAIN,
            lean,
        },
        next_counter: 0,
        visible: 0,
        sync: true,
    };
    g.program();
    g.p
}

const SMALL: [u32; 12] = [0, 1, 2, 3, 5, 7, 8, 15, 16, 31, 255, 0xffff_ffff];

impl Gen {
    fn program(&mut self) {
        self.p.shape = self.shape();
        self.sync = self.rng.chance(80);
        let helpers = self.rng.below(3) as usize;
        for _ in 0..helpers {
            let h = self.helper();
            self.p.helpers.push(h);
        }
        let top = Ctx {
            uniform: true,
            breakable: false,
            reads_local: false,
            depth: 0,
            counters: Vec::new(),
            declaring: false,
            sub_uniform: true,
        };
        // Variables are declared before any statement: initial values may use only the
        // helpers and the ids.
        let uniform_vars = 2 + self.rng.below(3) as usize;
        let varying_vars = 2 + self.rng.below(3) as usize;
        for k in 0..uniform_vars + varying_vars {
            let uniform = k < uniform_vars;
            let init = self.init_expr(uniform);
            self.p.vars.push(Var { uniform, init });
            self.visible = self.p.vars.len();
        }
        for _ in 0..1 + self.rng.below(2) {
            let e = self.float_init();
            self.p.fvars.push(e);
        }
        for _ in 0..1 + self.rng.below(2) {
            let l = [0; 4].map(|_| self.init_expr(false));
            if !self.p.lean {
                self.p.qvars.push(l);
            }
        }
        for _ in 0..self.rng.below(2) {
            let l = [0; 4].map(|_| self.float_init());
            if !self.p.lean {
                self.p.wvars.push(l);
            }
        }
        self.p.fields = [self.init_expr(false), self.init_expr(true)];
        self.p.private_init = self.init_expr(false);
        let n = 4 + self.rng.below(9);
        self.p.body = self.stmts(&top, n);
    }

    /// The NDRange: one dimension in half the programs, a global offset in a third, a last
    /// group short along x or y (non-uniform work-groups) in a third.
    fn shape(&mut self) -> Shape {
        let dims = 1 + self.rng.weighted(&[50, 30, 20]) as u32;
        let mut shape = Shape::PLAIN;
        shape.dims = dims;
        if dims >= 2 {
            shape.local_yz[0] = self.rng.pick(&[1, 2, 3, 4]);
            shape.groups_yz[0] = self.rng.pick(&[1, 2]);
        }
        if dims == 3 {
            shape.local_yz[1] = self.rng.pick(&[1, 2]);
            shape.groups_yz[1] = if shape.groups_yz[0] == 1 { 2 } else { 1 };
        }
        if self.rng.chance(30) {
            for d in 0..dims as usize {
                shape.offset[d] = self.rng.pick(&[0, 1, 5, 64, 1000]);
            }
        }
        if self.rng.chance(30) {
            shape.short[0] = self.rng.pick(&[1, 2, 5]);
            if dims >= 2 {
                shape.short[1] = self.rng.pick(&[0, 1]);
            }
        }
        shape
    }

    fn helper(&mut self) -> Helper {
        let steps = (0..1 + self.rng.below(3))
            .map(|_| self.helper_expr(3))
            .collect();
        let looped = self.rng.chance(50).then(|| self.helper_expr(2));
        Helper {
            steps,
            looped,
            ret: self.helper_expr(2),
        }
    }

    /// An expression over a helper's parameters.
    fn helper_expr(&mut self, depth: u32) -> Expr {
        if depth == 0 || self.rng.chance(25) {
            return if self.rng.chance(75) {
                Expr::Param(self.rng.below(3) as u8)
            } else {
                Expr::Const(self.rng.pick(&SMALL))
            };
        }
        match self.rng.below(3) {
            0 => Expr::Un(self.rng.pick(&UNS), Box::new(self.helper_expr(depth - 1))),
            _ => Expr::Bin(
                self.rng.pick(&BINS),
                Box::new(self.helper_expr(depth - 1)),
                Box::new(self.helper_expr(depth - 1)),
            ),
        }
    }

    fn init_expr(&mut self, uniform: bool) -> Expr {
        let ctx = Ctx {
            uniform,
            breakable: false,
            reads_local: false,
            depth: 0,
            counters: Vec::new(),
            declaring: true,
            sub_uniform: false,
        };
        let index = if uniform {
            Expr::Const(self.rng.below(INPUT_WORDS as u64) as u32)
        } else {
            Expr::Bin(
                Bin::Add,
                Box::new(Expr::Id(Id::Global)),
                Box::new(Expr::Const(self.rng.below(INPUT_WORDS as u64) as u32)),
            )
        };
        if uniform && self.rng.chance(50) {
            return self.pure_uniform();
        }
        let read = Expr::Input(Box::new(index));
        if self.rng.chance(50) {
            read
        } else {
            Expr::Bin(
                self.rng.pick(&[Bin::Xor, Bin::Add, Bin::Mul]),
                Box::new(read),
                Box::new(self.uint_expr(&ctx, 2, uniform)),
            )
        }
    }

    /// A uniform value computed from the group id, sizes, arguments and constants alone (no
    /// load): the work-group transform computes such values once per group.
    fn pure_uniform(&mut self) -> Expr {
        let id = Expr::Id(self.uniform_id());
        let other = if self.rng.chance(50) {
            Expr::Id(self.uniform_id())
        } else {
            Expr::Const(self.rng.pick(&SMALL))
        };
        Expr::Bin(
            self.rng.pick(&[Bin::Add, Bin::Mul, Bin::Xor, Bin::Sub]),
            Box::new(id),
            Box::new(other),
        )
    }

    /// A uniform query: mostly those of dimension 0, sometimes the others.
    fn uniform_id(&mut self) -> Id {
        if self.rng.chance(25) {
            self.rng.pick(&UNIFORM_IDS)
        } else {
            self.rng.pick(&[Id::Group, Id::N, Id::LocalSize])
        }
    }

    fn float_init(&mut self) -> Expr {
        let ctx = Ctx {
            uniform: false,
            breakable: false,
            reads_local: false,
            depth: 0,
            counters: Vec::new(),
            declaring: true,
            sub_uniform: false,
        };
        let u = self.uint_expr(&ctx, 1, false);
        Expr::FBin(
            FBin::Mul,
            Box::new(Expr::FFrom(Box::new(Expr::Bin(
                Bin::And,
                Box::new(u),
                Box::new(Expr::Const(0xffff)),
            )))),
            Box::new(Expr::FConst(self.float_const())),
        )
    }

    fn float_const(&mut self) -> f32 {
        self.rng.pick(&[
            0.5, 1.5, 2.0, 3.0, -0.25, 0.1, 1024.0, -7.0, 1e-3, 65536.0, -0.0, 2.5, -3.5, 1e30, 3e9,
        ])
    }

    /// Variables of the kind asked for: uniform ones only when `uniform`.
    fn vars(&self, uniform_only: bool) -> Vec<usize> {
        (0..self.visible)
            .filter(|&k| !uniform_only || self.p.vars[k].uniform)
            .collect()
    }

    /// The varying variables.
    fn varying_vars(&self) -> Vec<usize> {
        (0..self.p.vars.len())
            .filter(|&k| !self.p.vars[k].uniform)
            .collect()
    }

    /// A `uint` expression; only uniform operands when `uniform`.
    fn uint_expr(&mut self, ctx: &Ctx, depth: u32, uniform: bool) -> Expr {
        if depth == 0 || self.rng.chance(20) {
            return self.uint_leaf(ctx, uniform);
        }
        let d = depth - 1;
        let weights = if self.p.lean {
            // No private array, no `char`/`short` operations.
            [40, 8, 5, 6, 4, 4, 3, 0, 0, 2, 3, 2]
        } else {
            [40, 8, 5, 6, 4, 4, 3, 3, 6, 2, 3, 2]
        };
        match self.rng.weighted(&weights) {
            0 => Expr::Bin(
                self.rng.pick(&BINS),
                Box::new(self.uint_expr(ctx, d, uniform)),
                Box::new(self.uint_expr(ctx, d, uniform)),
            ),
            1 => Expr::Un(
                self.rng.pick(&UNS),
                Box::new(self.uint_expr(ctx, d, uniform)),
            ),
            2 => Expr::Select(
                Box::new(self.uint_expr(ctx, d, uniform)),
                Box::new(self.uint_expr(ctx, d, uniform)),
                Box::new(self.uint_expr(ctx, d, uniform)),
            ),
            3 => Expr::Input(Box::new(self.uint_expr(ctx, d, uniform))),
            4 if !self.p.helpers.is_empty() => Expr::Call(
                self.rng.below(self.p.helpers.len() as u64) as usize,
                Box::new(self.uint_expr(ctx, d, uniform)),
                Box::new(self.uint_expr(ctx, d, uniform)),
            ),
            5 if !uniform && !ctx.declaring => Expr::Bits(Box::new(self.float_expr(ctx, d))),
            6 if !uniform && !ctx.declaring => Expr::FLess(
                Box::new(self.float_expr(ctx, d)),
                Box::new(self.float_expr(ctx, d)),
            ),
            7 if !uniform && !ctx.declaring => {
                Expr::Private(Box::new(self.uint_expr(ctx, d, false)))
            }
            8 => Expr::Narrow(
                self.rng.pick(&NOPS),
                self.rng.pick(&NARROWS),
                Box::new(self.uint_expr(ctx, d, uniform)),
                Box::new(self.uint_expr(ctx, d, uniform)),
            ),
            9 => Expr::Table(Box::new(self.uint_expr(ctx, d, uniform))),
            10 if !uniform && !ctx.declaring => Expr::FCmp(
                self.rng.pick(&FCMPS),
                Box::new(self.float_expr(ctx, d)),
                Box::new(self.float_expr(ctx, d)),
            ),
            11 if !uniform && !ctx.declaring => Expr::FToInt(
                self.rng.pick(&ROUNDS),
                self.rng.chance(50),
                Box::new(self.float_expr(ctx, d)),
            ),
            _ => self.uint_leaf(ctx, uniform),
        }
    }

    fn uint_leaf(&mut self, ctx: &Ctx, uniform: bool) -> Expr {
        loop {
            let weights = if self.p.lean {
                // No vector lanes, structure fields or private array.
                [12, 30, 10, 6, 0, 0, 0, 6]
            } else {
                [12, 30, 10, 6, 4, 4, 2, 6]
            };
            match self.rng.weighted(&weights) {
                0 => return Expr::Const(self.rng.pick(&SMALL)),
                1 => {
                    // Uniform variables are read more often than their share, so that values
                    // computed once per group reach every kind of region.
                    let only_uniform = uniform || self.rng.chance(50);
                    let pool = self.vars(only_uniform);
                    if !pool.is_empty() {
                        return Expr::Var(self.rng.pick(&pool));
                    }
                }
                2 => {
                    if uniform || self.rng.chance(30) {
                        return Expr::Id(self.uniform_id());
                    }
                    if self.rng.chance(25) {
                        return Expr::Id(self.rng.pick(&VARYING_IDS));
                    }
                    if self.rng.chance(10) && !self.p.lean {
                        return Expr::Id(self.rng.pick(&SUB_IDS));
                    }
                    return Expr::Id(self.rng.pick(&[Id::Local, Id::Global]));
                }
                3 => {
                    let pool: Vec<u32> = ctx
                        .counters
                        .iter()
                        .filter(|c| !uniform || c.1)
                        .map(|c| c.0)
                        .collect();
                    if !pool.is_empty() {
                        return Expr::Counter(self.rng.pick(&pool));
                    }
                }
                4 if !uniform && !ctx.declaring => {
                    let q = self.rng.below(self.p.qvars.len() as u64) as usize;
                    return Expr::Lane(q, self.rng.below(4) as u8);
                }
                5 if !uniform && !ctx.declaring => {
                    if self.rng.chance(70) {
                        return Expr::Field(self.rng.below(2) as u8);
                    }
                    return Expr::StructCall;
                }
                6 if !uniform && !ctx.declaring => {
                    return Expr::Private(Box::new(Expr::Id(Id::Local)))
                }
                7 if ctx.reads_local && !uniform => {
                    // One draw either way, so that the rest of the program is what it was
                    // before the shifted reads: offsets forward, or (negated) back.
                    let k: i32 = self.rng.pick(&[0, 1, 2, 3, 7, 8, 100, -1, -2, -4, -8]);
                    return match u32::try_from(k) {
                        Ok(k) => Expr::Local(k),
                        Err(_) => Expr::LocalBack(k.unsigned_abs()),
                    };
                }
                _ => {}
            }
        }
    }

    /// A `float` expression (varying: floats are all per work-item).
    fn float_expr(&mut self, ctx: &Ctx, depth: u32) -> Expr {
        if depth == 0 || self.rng.chance(25) {
            return match self.rng.below(4) {
                0 => Expr::FConst(self.float_const()),
                1 if !self.p.wvars.is_empty() => Expr::FLane(
                    self.rng.below(self.p.wvars.len() as u64) as usize,
                    self.rng.below(4) as u8,
                ),
                _ => Expr::FVar(self.rng.below(self.p.fvars.len() as u64) as usize),
            };
        }
        let d = depth - 1;
        match self.rng.weighted(&[10, 4, 6, 3, 2, 1, 6]) {
            0 => Expr::FBin(
                self.rng.pick(&[FBin::Add, FBin::Sub, FBin::Mul, FBin::Div]),
                Box::new(self.float_expr(ctx, d)),
                Box::new(self.float_expr(ctx, d)),
            ),
            1 => Expr::FBin(
                self.rng.pick(&FBINS),
                Box::new(self.float_expr(ctx, d)),
                Box::new(self.float_expr(ctx, d)),
            ),
            2 => Expr::FUn(self.rng.pick(&FUNS), Box::new(self.float_expr(ctx, d))),
            3 => Expr::FFrom(Box::new(self.uint_expr(ctx, d, false))),
            4 => Expr::FRound(
                self.rng.pick(&ROUNDS),
                self.rng.chance(50),
                Box::new(self.uint_expr(ctx, d, false)),
            ),
            5 => Expr::FFma(
                Box::new(self.float_expr(ctx, d)),
                Box::new(self.float_expr(ctx, d)),
                Box::new(self.float_expr(ctx, d)),
            ),
            _ => self.float_expr(ctx, 0),
        }
    }

    fn stmts(&mut self, ctx: &Ctx, n: u64) -> Vec<Stmt> {
        (0..n).map(|_| self.stmt(ctx)).collect()
    }

    fn body_len(&mut self) -> u64 {
        1 + self.rng.below(4)
    }

    fn stmt(&mut self, ctx: &Ctx) -> Stmt {
        let nested = ctx.depth < 3;
        let u = ctx.uniform && self.sync;
        let mut weights = [
            30,                                               // assignment
            6,                                                // vector update
            if nested { 10 } else { 0 },                      // if
            if nested { 10 } else { 0 },                      // for
            if ctx.breakable { 4 } else { 0 },                // break
            if u && nested { 10 } else { 0 },                 // exchange
            if u { 3 } else { 0 },                            // local atomic
            4,                                                // global atomic
            if u { 6 } else { 0 },                            // collective
            if u { 2 } else { 0 },                            // barrier
            if u && nested { 6 } else { 0 },                  // uniform loop feeding a guarded read
            if u { 6 } else { 0 },                            // narrowed region
            4,                                                // narrow vectors
            6,                                                // CSR row or run per work-item
            if self.sync { 0 } else { 3 },                    // early return
            if ctx.sub_uniform && self.sync { 6 } else { 0 }, // sub-group function
            if u { 3 } else { 0 },                            // exchange in a helper
            if u && nested { 4 } else { 0 },                  // if on the sub-group id
            if u && nested && self.p.lean { 4 } else { 0 },   // a region of recurrences
        ];
        if self.p.lean {
            // No vector updates, atomics, collectives, narrow vectors or sub-group functions.
            for k in [1, 6, 7, 8, 12, 15, 16, 17] {
                weights[k] = 0;
            }
        }
        match self.rng.weighted(&weights) {
            0 => self.assign(ctx),
            1 => {
                let op = self.rng.pick(&[
                    VecOp::MulAddSwizzle,
                    VecOp::XorBuild,
                    VecOp::Rotate,
                    VecOp::SelectGreater,
                    VecOp::MinMax,
                    VecOp::FMulAddSwizzle,
                    VecOp::FSubBuild,
                    VecOp::FConvert,
                ]);
                let count = if op.float() {
                    self.p.wvars.len()
                } else {
                    self.p.qvars.len()
                };
                if count == 0 {
                    return self.assign(ctx);
                }
                let var = self.rng.below(count as u64) as usize;
                let args = (0..op.arity())
                    .map(|_| {
                        if op.float() {
                            self.float_expr(ctx, 2)
                        } else {
                            self.uint_expr(ctx, 2, false)
                        }
                    })
                    .collect();
                Stmt::Vector { op, var, args }
            }
            2 => {
                let uniform_cond = u && self.rng.chance(50);
                let cond = self.uint_expr(ctx, 3, uniform_cond);
                let inner = Ctx {
                    uniform: uniform_cond,
                    sub_uniform: uniform_cond,
                    depth: ctx.depth + 1,
                    ..ctx.clone()
                };
                let n = self.body_len();
                let then = self.stmts(&inner, n);
                let els = if self.rng.chance(40) {
                    let n = self.body_len();
                    self.stmts(&inner, n)
                } else {
                    Vec::new()
                };
                Stmt::If { cond, then, els }
            }
            3 => self.for_loop(ctx, false),
            4 => Stmt::Break(self.uint_expr(ctx, 2, false)),
            5 => self.exchange(ctx),
            6 => {
                let dest = self.rng.pick(&self.vars(true));
                Stmt::LocalAtomic {
                    op: self.rng.pick(&ATOMICS),
                    init: self.rng.pick(&SMALL),
                    value: self.uint_expr(ctx, 2, false),
                    dest,
                }
            }
            7 => Stmt::GlobalAtomic {
                op: self.rng.pick(&ATOMICS),
                value: self.uint_expr(ctx, 2, false),
            },
            8 => {
                let op = self.rng.pick(&COLLECTIVES);
                let dest = self.rng.pick(&self.vars(op.uniform()));
                // A scan's result varies: it goes to a varying variable.
                let dest = if op.uniform() || !self.p.vars[dest].uniform {
                    dest
                } else {
                    let pool: Vec<usize> = self
                        .vars(false)
                        .into_iter()
                        .filter(|&k| !self.p.vars[k].uniform)
                        .collect();
                    self.rng.pick(&pool)
                };
                Stmt::Collective {
                    op,
                    value: self.uint_expr(ctx, 2, false),
                    index: self.uint_expr(ctx, 1, true),
                    dest,
                }
            }
            9 => Stmt::Barrier,
            10 => self.for_loop(ctx, true),
            11 => self.narrow(ctx, None),
            12 => Stmt::Bytes {
                op: self.rng.pick(&BYTE_OPS),
                var: self.rng.below(self.p.qvars.len() as u64) as usize,
                index: self.uint_expr(ctx, 2, false),
                operand: self.uint_expr(ctx, 2, false),
            },
            13 => {
                let run = self.rng.chance(40);
                let (id, row, dest, float) = self.row_loop(ctx);
                match run {
                    true => Stmt::Run {
                        id,
                        row,
                        dest,
                        float,
                        by_index: self.rng.chance(50),
                    },
                    false => Stmt::Gather {
                        id,
                        row,
                        dest,
                        float,
                    },
                }
            }
            14 => Stmt::Return {
                cond: self.uint_expr(ctx, 2, false),
                value: self.uint_expr(ctx, 2, false),
            },
            15 => {
                let op = match self.rng.pick(&SUB_OPS) {
                    SubOp::Exchange(_) => SubOp::Exchange(self.rng.pick(&[1, 3, 7])),
                    op => op,
                };
                Stmt::SubGroup {
                    op,
                    value: self.uint_expr(ctx, 2, false),
                    index: self.uint_expr(ctx, 1, true),
                    dest: self.rng.pick(&self.varying_vars()),
                }
            }
            18 => self.recurrences(),
            16 => Stmt::HelperExchange {
                value: self.uint_expr(ctx, 2, false),
                offset: self.rng.pick(&[0, 1, 3, 8]),
                dest: self.rng.pick(&self.varying_vars()),
            },
            _ => {
                // A condition the work-items of a sub-group agree on, so that its body may
                // call sub-group functions while the sub-groups of the group go apart.
                let sub = Box::new(Expr::Id(self.rng.pick(&[Id::SubId, Id::SubSize])));
                let c = Box::new(Expr::Const(self.rng.pick(&[0, 1, 2, 8])));
                let cond = match self.rng.below(3) {
                    0 => Expr::Bin(Bin::Lt, sub, c),
                    1 => Expr::Bin(
                        Bin::Eq,
                        Box::new(Expr::Bin(Bin::And, sub, Box::new(Expr::Const(1)))),
                        Box::new(Expr::Const(0)),
                    ),
                    _ => Expr::Bin(Bin::Xor, sub, Box::new(self.uint_expr(ctx, 1, true))),
                };
                let inner = Ctx {
                    uniform: false,
                    sub_uniform: true,
                    depth: ctx.depth + 1,
                    ..ctx.clone()
                };
                let n = self.body_len();
                let then = self.stmts(&inner, n);
                let els = if self.rng.chance(30) {
                    let n = self.body_len();
                    self.stmts(&inner, n)
                } else {
                    Vec::new()
                };
                Stmt::If { cond, then, els }
            }
        }
    }

    /// A region of its own (a barrier before and after) whose loop, of uniform trips, takes
    /// float variables through `f = fma(f, g, c)`: the shape the work-group transform runs
    /// several chunks at a time (`workgroup/jam.rs` in ferrocl-cpu), where the rest of the
    /// program's regions do not decide it. Lean programs only: the others are rarely
    /// vectorized at all (private arrays, collectives), and keep the programs they had.
    fn recurrences(&mut self) -> Stmt {
        let counter = self.next_counter;
        self.next_counter += 1;
        let fvars = self.p.fvars.len() as u64;
        let body = (0..1 + self.rng.below(2))
            .map(|_| {
                let f = self.rng.below(fvars) as usize;
                let g = self.rng.below(fvars) as usize;
                let c = Expr::FConst(self.rng.pick(&[0.5, -0.25, 0.125, 1.5]));
                let step = Expr::FFma(
                    Box::new(Expr::FVar(f)),
                    Box::new(Expr::FVar(g)),
                    Box::new(c),
                );
                Stmt::Assign(Place::FVar(f), step)
            })
            .collect();
        let trips = if self.rng.chance(50) {
            Trips::N
        } else {
            Trips::Const(2 + self.rng.below(6) as u32)
        };
        Stmt::If {
            cond: Expr::Const(1),
            then: vec![
                Stmt::Barrier,
                Stmt::For {
                    counter,
                    trips,
                    body,
                },
                Stmt::Barrier,
            ],
            els: Vec::new(),
        }
    }

    /// An assignment to a place the context allows.
    fn assign(&mut self, ctx: &Ctx) -> Stmt {
        let weights = if self.p.lean {
            // Variables only: no lanes, fields or private array.
            [if ctx.uniform { 25 } else { 0 }, 35, 10, 0, 0, 0, 0]
        } else {
            [if ctx.uniform { 25 } else { 0 }, 35, 10, 8, 6, 6, 5]
        };
        let which = self.rng.weighted(&weights);
        match which {
            0 => {
                let dest = self.rng.pick(&self.vars(true));
                Stmt::Assign(Place::Var(dest), self.uint_expr(ctx, 3, true))
            }
            1 => {
                let pool: Vec<usize> = (0..self.p.vars.len())
                    .filter(|&k| !self.p.vars[k].uniform)
                    .collect();
                let dest = self.rng.pick(&pool);
                Stmt::Assign(Place::Var(dest), self.uint_expr(ctx, 3, false))
            }
            2 => {
                let dest = self.rng.below(self.p.fvars.len() as u64) as usize;
                Stmt::Assign(Place::FVar(dest), self.float_expr(ctx, 3))
            }
            3 => {
                let q = self.rng.below(self.p.qvars.len() as u64) as usize;
                let l = self.rng.below(4) as u8;
                Stmt::Assign(Place::Lane(q, l), self.uint_expr(ctx, 2, false))
            }
            4 if !self.p.wvars.is_empty() => {
                let w = self.rng.below(self.p.wvars.len() as u64) as usize;
                let l = self.rng.below(4) as u8;
                Stmt::Assign(Place::FLane(w, l), self.float_expr(ctx, 2))
            }
            5 => {
                let f = self.rng.below(2) as u8;
                Stmt::Assign(Place::Field(f), self.uint_expr(ctx, 2, false))
            }
            _ => {
                let index = self.uint_expr(ctx, 1, false);
                Stmt::Assign(Place::Private(index), self.uint_expr(ctx, 2, false))
            }
        }
    }

    /// A loop. In uniform control flow its trip count may be uniform and its body uniform
    /// (barriers, collectives and uniform assignments inside); otherwise the body is not
    /// uniform and may `break`. `feeds_guard` makes the shape of a uniform value computed in
    /// a loop and read, after a barrier, under a guard on the local id.
    /// A loop over a row of `in` per work-item ([`Stmt::Gather`], [`Stmt::Run`]): its id,
    /// the row, the variable it folds into and whether that is a float variable.
    fn row_loop(&mut self, ctx: &Ctx) -> (u32, Expr, usize, bool) {
        let id = self.next_counter;
        self.next_counter += 1;
        let float = self.rng.chance(30);
        let dest = if float {
            self.rng.below(self.p.fvars.len() as u64) as usize
        } else {
            self.rng.pick(&self.varying_vars())
        };
        let row = if self.rng.chance(50) {
            Expr::Id(self.rng.pick(&[Id::Global, Id::Local, Id::GlobalLinear]))
        } else {
            self.uint_expr(ctx, 2, false)
        };
        (id, row, dest, float)
    }

    fn for_loop(&mut self, ctx: &Ctx, feeds_guard: bool) -> Stmt {
        let counter = self.next_counter;
        self.next_counter += 1;
        let uniform_trips = ctx.uniform && (feeds_guard || self.rng.chance(60));
        let trips = match self.rng.below(3) {
            0 => Trips::Const(1 + self.rng.below(6) as u32),
            1 if uniform_trips => Trips::N,
            _ if feeds_guard && self.rng.chance(60) => Trips::N,
            _ => Trips::Mod(self.uint_expr(ctx, 2, uniform_trips)),
        };
        let uniform_body = uniform_trips && (feeds_guard || self.rng.chance(60));
        let mut counters = ctx.counters.clone();
        counters.push((counter, uniform_trips));
        let inner = Ctx {
            uniform: uniform_body,
            breakable: !uniform_body,
            reads_local: ctx.reads_local,
            depth: ctx.depth + 1,
            counters,
            declaring: false,
            sub_uniform: uniform_body,
        };
        let mut body = Vec::new();
        // The variable the loop computes, and a value without loads it starts from (one
        // computed once per group, as the work-group transform sees it).
        let dest = self.rng.pick(&self.vars(true));
        let start = self.pure_uniform();
        if feeds_guard {
            let step = Expr::Bin(
                self.rng.pick(&[Bin::Add, Bin::Xor, Bin::Mul]),
                Box::new(Expr::Bin(
                    Bin::Mul,
                    Box::new(Expr::Var(dest)),
                    Box::new(Expr::Const(self.rng.pick(&[3, 5, 31, 0x9e37]))),
                )),
                Box::new(if self.rng.chance(50) {
                    Expr::Counter(counter)
                } else {
                    self.uint_expr(&inner, 2, true)
                }),
            );
            body.push(Stmt::Assign(Place::Var(dest), step));
        }
        let n = self.body_len();
        body.extend(self.stmts(&inner, n));
        let looped = Stmt::For {
            counter,
            trips,
            body,
        };
        if !feeds_guard {
            return looped;
        }
        // The loop, then a region guarded on the local id that reads what the loop computed.
        let mut guarded = if self.rng.chance(50) {
            self.narrow(ctx, Some(dest))
        } else {
            self.exchange(ctx)
        };
        if let Stmt::Exchange { guard, .. } | Stmt::Narrow { guard, .. } = &mut guarded {
            if matches!(guard, Guard::Cond(_) | Guard::All | Guard::Ne(_)) {
                *guard = Guard::Gt(0);
            }
        }
        Stmt::If {
            cond: Expr::Const(1),
            then: vec![Stmt::Assign(Place::Var(dest), start), looped, guarded],
            els: Vec::new(),
        }
    }

    /// A region whose only effect is a store under a guard on the local id.
    fn narrow(&mut self, ctx: &Ctx, reads: Option<usize>) -> Stmt {
        let value = self.uint_expr(ctx, 2, false);
        let guard = self.guard(ctx);
        let inner = Ctx {
            uniform: false,
            breakable: false,
            reads_local: true,
            depth: ctx.depth + 1,
            counters: ctx.counters.clone(),
            declaring: false,
            sub_uniform: false,
        };
        let Stmt::Assign(_, stored) = self.local_read(&inner, reads) else {
            unreachable!()
        };
        let pool: Vec<usize> = (0..self.p.vars.len())
            .filter(|&k| !self.p.vars[k].uniform)
            .collect();
        Stmt::Narrow {
            value,
            guard,
            stored,
            dest: self.rng.pick(&pool),
            offset: self.rng.pick(&[0, 1, 5]),
        }
    }

    fn guard(&mut self, ctx: &Ctx) -> Guard {
        let c = self.rng.pick(&[0, 1, 2, 3, 4, 5, 7, 8, 9]);
        match self.rng.below(7) {
            0 => Guard::All,
            1 | 2 => Guard::Gt(c),
            3 => Guard::Ge(c),
            4 => Guard::Lt(c),
            5 => Guard::Ne(c),
            _ => Guard::Cond(self.uint_expr(ctx, 2, false)),
        }
    }

    fn exchange(&mut self, ctx: &Ctx) -> Stmt {
        let value = self.uint_expr(ctx, 3, false);
        let guard = self.guard(ctx);
        let inner = Ctx {
            uniform: false,
            breakable: false,
            reads_local: true,
            depth: ctx.depth + 1,
            counters: ctx.counters.clone(),
            declaring: false,
            sub_uniform: false,
        };
        let n = 1 + self.rng.below(3);
        let mut body = vec![self.local_read(&inner, None)];
        body.extend(self.stmts(&inner, n));
        Stmt::Exchange { value, guard, body }
    }

    /// An assignment that reads the exchange array and a uniform variable.
    fn local_read(&mut self, ctx: &Ctx, uniform: Option<usize>) -> Stmt {
        let pool: Vec<usize> = (0..self.p.vars.len())
            .filter(|&k| !self.p.vars[k].uniform)
            .collect();
        let dest = self.rng.pick(&pool);
        let pool = self.vars(true);
        let u = uniform.unwrap_or_else(|| self.rng.pick(&pool));
        let e = Expr::Bin(
            self.rng.pick(&[Bin::Add, Bin::Xor, Bin::Mul]),
            Box::new(Expr::Local(self.rng.pick(&[0, 1, 3, 7]))),
            Box::new(Expr::Bin(
                Bin::Add,
                Box::new(Expr::Var(u)),
                Box::new(self.uint_expr(ctx, 1, false)),
            )),
        );
        Stmt::Assign(Place::Var(dest), e)
    }
}
