//! Random straight-line and branching code over every kind of value (integers of each width,
//! floats, vectors, booleans) and most operations, run by the interpreter before and after
//! the standard pipeline: every stored byte must be equal. This exercises folding,
//! simplification, CSE, if-conversion and DCE on operations the structured random programs
//! do not use.

use ferrocl_ir::interp::{Interpreter, Val};
use ferrocl_ir::passes::PassManager;
use ferrocl_ir::*;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn types() -> Vec<Type> {
    let v4 = |t: Type| t.vector(4).expect("vector");
    vec![
        Type::I8,
        Type::I16,
        Type::I32,
        Type::I64,
        Type::F32,
        Type::F64,
        v4(Type::I32),
        v4(Type::F32),
        Type::I1,
    ]
}

struct Gen<'a, 'b> {
    b: &'a mut FunctionBuilder<'b>,
    rng: Rng,
    pool: Vec<(Type, Vec<Value>)>,
}

impl Gen<'_, '_> {
    fn values(&mut self, ty: Type) -> &mut Vec<Value> {
        let i = self
            .pool
            .iter()
            .position(|(t, _)| *t == ty)
            .expect("pooled type");
        &mut self.pool[i].1
    }

    fn pick(&mut self, ty: Type) -> Value {
        let n = self.values(ty).len();
        let k = self.rng.below(n);
        self.values(ty)[k]
    }

    fn push(&mut self, v: Value) {
        let ty = self.b.value_type(v);
        self.values(ty).push(v);
    }

    fn constant(&mut self, ty: Type) -> Value {
        let ints = [
            0i64,
            1,
            -1,
            2,
            7,
            31,
            32,
            63,
            64,
            127,
            -128,
            255,
            0x7fff_ffff,
            i64::MIN,
            1000,
        ];
        let floats = [
            0.0,
            -0.0,
            1.0,
            -1.5,
            0.1,
            3.0e9,
            -1e-3,
            2.5,
            65504.0,
            f64::INFINITY,
            1e300,
        ];
        if ty.is_vector() && self.rng.below(2) == 0 {
            // A vector whose lanes differ.
            let lane = ty.lane_type();
            let lanes: Vec<u64> = (0..ty.lanes())
                .map(|_| {
                    if lane.is_float() {
                        float::from_f64(floats[self.rng.below(floats.len())], lane, Round::Rte)
                    } else {
                        ints[self.rng.below(ints.len())] as u64 & 0xffff_ffff
                    }
                })
                .collect();
            return self.b.vconst(ty, &lanes);
        }
        if ty.is_float() {
            let x = floats[self.rng.below(floats.len())];
            let bits = float::from_f64(x, ty.lane_type(), Round::Rte);
            self.b.fconst_bits(ty, bits)
        } else {
            let x = ints[self.rng.below(ints.len())];
            self.b.iconst(ty, x)
        }
    }

    fn step(&mut self) {
        let tys = types();
        let ty = tys[self.rng.below(tys.len() - 1)];
        let v = match self.rng.below(12) {
            0 => self.constant(ty),
            1 | 2 => {
                let ops: Vec<BinaryOp> = BinaryOp::ALL
                    .iter()
                    .copied()
                    .filter(|o| o.is_float() == ty.is_float())
                    .collect();
                let op = ops[self.rng.below(ops.len())];
                let (x, y) = (self.pick(ty), self.pick(ty));
                self.b.binary(op, x, y)
            }
            3 => {
                let ops: Vec<UnaryOp> = UnaryOp::ALL
                    .iter()
                    .copied()
                    .filter(|o| o.is_float() == ty.is_float())
                    .collect();
                let op = ops[self.rng.below(ops.len())];
                let x = self.pick(ty);
                self.b.unary(op, x)
            }
            4 => {
                // A comparison feeding a select.
                let (x, y) = (self.pick(ty), self.pick(ty));
                let c = if ty.is_float() {
                    self.b
                        .fcmp(FloatCC::ALL[self.rng.below(FloatCC::ALL.len())], x, y)
                } else {
                    self.b
                        .icmp(IntCC::ALL[self.rng.below(IntCC::ALL.len())], x, y)
                };
                if ty.is_vector() || self.rng.below(2) == 0 {
                    let (p, q) = (self.pick(ty), self.pick(ty));
                    self.b.select(c, p, q)
                } else {
                    self.push(c);
                    return;
                }
            }
            5 if ty.is_float() && !ty.is_vector() => {
                let (x, y, z) = (self.pick(ty), self.pick(ty), self.pick(ty));
                self.b.fma(x, y, z)
            }
            5 | 6 => {
                // A conversion between scalar types.
                let scalars = [
                    Type::I8,
                    Type::I16,
                    Type::I32,
                    Type::I64,
                    Type::F32,
                    Type::F64,
                ];
                let from = scalars[self.rng.below(6)];
                let to = scalars[self.rng.below(6)];
                let x = self.pick(from);
                let r = Round::ALL[self.rng.below(4)];
                let sat = self.rng.below(2) == 0;
                let s = self.rng.below(2) == 0;
                let op = match (from.is_float(), to.is_float()) {
                    (false, false) if to.lane_bits() < from.lane_bits() && !sat => ConvOp::Trunc,
                    (false, false) if to.lane_bits() > from.lane_bits() && !sat => {
                        if s {
                            ConvOp::Sext
                        } else {
                            ConvOp::Zext
                        }
                    }
                    (false, false) => ConvOp::SatInt {
                        src_signed: s,
                        dst_signed: self.rng.below(2) == 0,
                    },
                    (false, true) if s => ConvOp::SintToFloat(r),
                    (false, true) => ConvOp::UintToFloat(r),
                    (true, false) if s => ConvOp::FloatToSint { round: r, sat },
                    (true, false) => ConvOp::FloatToUint { round: r, sat },
                    (true, true) if from == to => return,
                    (true, true) => ConvOp::Fconv(r),
                };
                self.b.convert(op, x, to)
            }
            7 => {
                // Lanes.
                let v4 =
                    [Type::I32.vector(4), Type::F32.vector(4)][self.rng.below(2)].expect("vector");
                let lane = v4.lane_type();
                match self.rng.below(4) {
                    0 => {
                        let x = self.pick(lane);
                        self.b.splat(x, 4)
                    }
                    1 => {
                        let x = self.pick(v4);
                        let n = self.rng.below(4) as u8;
                        self.b.extractlane(x, n)
                    }
                    2 => {
                        let (x, y) = (self.pick(v4), self.pick(lane));
                        let n = self.rng.below(4) as u8;
                        self.b.insertlane(x, y, n)
                    }
                    _ => {
                        let (x, y) = (self.pick(v4), self.pick(v4));
                        let mask: Vec<u8> = (0..4).map(|_| self.rng.below(8) as u8).collect();
                        self.b.shuffle(x, y, &mask)
                    }
                }
            }
            8 => {
                let pairs = [
                    (Type::I32, Type::F32),
                    (Type::F32, Type::I32),
                    (Type::I64, Type::F64),
                    (Type::F64, Type::I64),
                    (
                        Type::I32.vector(4).expect("v"),
                        Type::F32.vector(4).expect("v"),
                    ),
                    (
                        Type::F32.vector(4).expect("v"),
                        Type::I32.vector(4).expect("v"),
                    ),
                ];
                let (from, to) = pairs[self.rng.below(pairs.len())];
                let x = self.pick(from);
                self.b.bitcast(x, to)
            }
            9 => {
                // A small diamond: each side computes, the join takes one value.
                let c = self.pick(Type::I1);
                let (t, e, j) = (
                    self.b.create_block(),
                    self.b.create_block(),
                    self.b.create_block(),
                );
                let param = self.b.append_block_param(j, ty);
                self.b.brif(c, t, &[], e, &[]);
                let saved = self.pool.clone();
                for blk in [t, e] {
                    self.b.switch_to_block(blk);
                    self.b.seal_block(blk);
                    for _ in 0..self.rng.below(3) {
                        self.step();
                    }
                    let out = self.pick(ty);
                    self.b.jump(j, &[out]);
                    // Values of one side are not available on the other or after the join.
                    self.pool = saved.clone();
                }
                self.b.switch_to_block(j);
                self.b.seal_block(j);
                param
            }
            _ => {
                let x = self.pick(ty);
                let y = self.pick(ty);
                if ty.is_float() {
                    self.b.binary(BinaryOp::Fadd, x, y)
                } else {
                    self.b.binary(BinaryOp::Iadd, x, y)
                }
            }
        };
        self.push(v);
    }
}

fn build(seed: u64) -> Module {
    let mut m = Module::new();
    let g = Type::ptr(AddrSpace::Global);
    let f = m.add_function(
        "f",
        Signature::new(&[g, Type::I32, Type::F32, Type::I64], None),
    );
    let mut b = FunctionBuilder::new(&mut m.funcs[f]);
    let entry = b.create_entry_block();
    let ps = b.block_params(entry).to_vec();
    let pool = types().into_iter().map(|t| (t, Vec::new())).collect();
    let mut gen = Gen {
        b: &mut b,
        rng: Rng(seed),
        pool,
    };
    // Seed every type with a parameter-derived value and a constant.
    gen.push(ps[1]);
    gen.push(ps[2]);
    gen.push(ps[3]);
    for ty in types() {
        let c = gen.constant(ty);
        gen.push(c);
    }
    let t8 = gen.b.convert(ConvOp::Trunc, ps[1], Type::I8);
    gen.push(t8);
    let t16 = gen.b.convert(ConvOp::Trunc, ps[1], Type::I16);
    gen.push(t16);
    let d = gen.b.convert(ConvOp::Fconv(Round::Rte), ps[2], Type::F64);
    gen.push(d);
    let vi = gen.b.splat(ps[1], 4);
    gen.push(vi);
    let vf = gen.b.splat(ps[2], 4);
    gen.push(vf);
    let wide = gen.b.convert(ConvOp::Sext, t8, Type::I32);
    let c = gen.b.icmp(IntCC::Slt, ps[1], wide);
    gen.push(c);
    for _ in 0..40 {
        gen.step();
    }
    // Store the last values of each type at their own offsets.
    let mut off = 0i64;
    for ty in types() {
        if ty == Type::I1 {
            continue;
        }
        let vals: Vec<Value> = gen.values(ty).iter().rev().take(3).copied().collect();
        for v in vals {
            let k = gen.b.iconst(Type::I64, off);
            let p = gen.b.ptradd(ps[0], k);
            gen.b.store(v, p, 1, false);
            off += 16;
        }
    }
    b.ret(None);
    b.finish();
    m
}

fn run(m: &Module, set: usize) -> Vec<u8> {
    let f = m.func_by_name("f").expect("@f");
    let mut it = Interpreter::new(m);
    let buf = it.memory().alloc(vec![0; 16 * 3 * 8]);
    let ints = [3i32, -1, 0, 1000, i32::MIN];
    let floats = [1.5f32, -0.0, 1e-3, 7.0, -2.5e9];
    let args = [
        Val::scalar(buf),
        Val::i32(ints[set]),
        Val::f32(floats[set]),
        Val::scalar((set as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)),
    ];
    it.call(f, &args).unwrap_or_else(|t| panic!("trap {t}"));
    let out = it.memory().region(buf).expect("buffer").to_vec();
    out
}

#[test]
fn random_operations_keep_their_results_through_the_pipeline() {
    for seed in 1..=200u64 {
        let m = build(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1);
        if let Err(es) = verify_module(&m) {
            panic!("seed {seed}: {es:?}\n{m}");
        }
        let text = m.to_string();
        assert_eq!(parse_module(&text).expect("parses").to_string(), text);
        let mut opt = m.clone();
        let mut pm = PassManager::standard();
        pm.verify = true;
        if let Err(e) = pm.run(&mut opt) {
            panic!("seed {seed}: {e}\n{text}");
        }
        for set in 0..5 {
            let (want, got) = (run(&m, set), run(&opt, set));
            if want != got {
                let at = want.iter().zip(&got).position(|(a, b)| a != b).unwrap_or(0);
                panic!("seed {seed} set {set}: byte {at} differs\n{text}\n--- optimized:\n{opt}");
            }
        }
    }
}
