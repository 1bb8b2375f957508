//! Instruction selection for vector values: the IR instructions that have a SIMD form on
//! 128-bit vectors (`simd.rs` says how vectors are held) become one Cranelift instruction per
//! 128-bit part. An instruction without a good SIMD form — integer division, per-lane shift
//! amounts, most conversions, `half` — is not handled here and goes through the lane-wise
//! translation of `codegen.rs`, on lanes extracted from the vectors: every operation stays
//! correct, the common ones are fast.
//!
//! Checked against Cranelift 0.135's x86-64 lowering (SSE4.1 and up, the VEX forms where the
//! machine has AVX): `imul` has no `i8x16` form, and `fcopysign` no vector form (it is done on
//! the bits here); vector `fma` is one instruction where the machine has FMA and per-lane
//! library calls elsewhere, rounded once either way.

use cranelift_codegen::ir::condcodes::IntCC as CIntCC;
use cranelift_codegen::ir::immediates::{Ieee32, Ieee64};
use cranelift_codegen::ir::{self as cl, types as clt, InstBuilder};
use ferrocl_ir::{
    BinaryOp, ConvOp, Inst, IntCC, MemFlags, Op, Round, Type, UnaryOp, Value, ValueDef,
};

use super::scalar::{binary_inst, unary_inst};
use super::simd::{int_of, vector_cast, vector_of, Repr};
use super::{float_cc, int_cc, mem, Translator};
use crate::CompileError;

impl Translator<'_, '_> {
    /// Translates `inst` in SIMD form when it has one; `false` leaves it to the lane-wise
    /// translation (nothing with an effect has been emitted then).
    pub(super) fn simd_inst(&mut self, inst: Inst) -> Result<bool, CompileError> {
        let f = self.f;
        let data = &f.dfg.insts[inst];
        let args = &data.args;
        let Some(result) = f.dfg.inst_result(inst) else {
            return match &data.op {
                Op::Store(flags) => self.store_simd(args[0], args[1], flags),
                _ => Ok(false),
            };
        };
        if let Op::ExtractLane(i) = data.op {
            return self.extract_simd(result, args[0], u32::from(i));
        }
        if let Op::Binary(op @ (BinaryOp::Band | BinaryOp::Bor)) = data.op {
            if self.all_or_any_lane(result, op)? {
                return Ok(true);
            }
        }
        let out = self.repr(result)?;
        let Repr::Simd {
            part, lanes, mask, ..
        } = out
        else {
            return Ok(false);
        };
        let rty = f.dfg.value_type(result);
        let vals = match &data.op {
            Op::Iconst(bits) => {
                let x = if mask {
                    self.b.ins().iconst(clt::I8, (bits & 1) as i64)
                } else {
                    self.b.ins().iconst(part.lane_type(), *bits as i64)
                };
                Some(self.splat_repr(x, out))
            }
            Op::Fconst(bits) => {
                let x = if part.lane_type() == clt::F32 {
                    self.b.ins().f32const(Ieee32::with_bits(*bits as u32))
                } else {
                    self.b.ins().f64const(Ieee64::with_bits(*bits))
                };
                Some(self.splat_repr(x, out))
            }
            Op::Null | Op::Undef => {
                let bytes = vec![0u8; 16];
                let z = self.vconst(part, bytes);
                Some(vec![z; out.count() as usize])
            }
            Op::Vconst(lane_bits) => Some(self.vconst_parts(lane_bits, out)),
            Op::Unary(op) => {
                let x = self.parts_as(args[0], out)?;
                self.unary_simd(*op, x, rty, mask)
            }
            Op::Binary(op) => self.binary_simd(*op, args[0], args[1], out, rty)?,
            Op::Fma if rty.lane_type().is_float() => {
                let (x, y) = self.fma_factors(args[0], args[1]);
                let (a, b, c) = (self.parts(x)?, self.parts(y)?, self.parts(args[2])?);
                Some(
                    (0..a.len())
                        .map(|i| self.b.ins().fma(a[i], b[i], c[i]))
                        .collect(),
                )
            }
            Op::Icmp(cc) => {
                self.compare_simd(args[0], args[1], |b, x, y| b.ins().icmp(int_cc(*cc), x, y))?
            }
            Op::Fcmp(cc) => self.compare_simd(args[0], args[1], |b, x, y| {
                // x86-64 has no vector `one` and `ueq`: ordered and not equal, unordered or
                // equal.
                use cl::condcodes::FloatCC as C;
                match float_cc(*cc) {
                    C::OrderedNotEqual => {
                        let ord = b.ins().fcmp(C::Ordered, x, y);
                        let ne = b.ins().fcmp(C::NotEqual, x, y);
                        b.ins().band(ord, ne)
                    }
                    C::UnorderedOrEqual => {
                        let uno = b.ins().fcmp(C::Unordered, x, y);
                        let eq = b.ins().fcmp(C::Equal, x, y);
                        b.ins().bor(uno, eq)
                    }
                    cc => b.ins().fcmp(cc, x, y),
                }
            })?,
            Op::Select => {
                let (x, y) = (self.parts_as(args[1], out)?, self.parts_as(args[2], out)?);
                if f.dfg.value_type(args[0]).lanes() == 1 {
                    let c = self.get1(args[0])?;
                    Some(
                        x.into_iter()
                            .zip(y)
                            .map(|(x, y)| self.b.ins().select(c, x, y))
                            .collect(),
                    )
                } else {
                    let want = Repr::simd(int_of(part.lane_bits()), lanes, true);
                    let (m, x, y) = match self.inverted_condition(args[0], want)? {
                        Some(m) => (m, y, x),
                        None => (self.parts_as(args[0], want)?, x, y),
                    };
                    Some(
                        (0..x.len())
                            .map(|i| self.blend(part, m[i], x[i], y[i]))
                            .collect(),
                    )
                }
            }
            Op::Convert(conv) => self.convert_simd(*conv, args[0], out, rty.lane_type())?,
            Op::Bitcast => {
                let src_t = f.dfg.value_type(args[0]);
                let have = self.repr(args[0])?;
                match have {
                    Repr::Simd {
                        parts, mask: false, ..
                    } if !mask
                        && src_t.lanes() != 3
                        && rty.lanes() != 3
                        && parts == out.count() =>
                    {
                        let xs = self.parts(args[0])?;
                        Some(
                            xs.into_iter()
                                .map(|x| {
                                    if self.b.func.dfg.value_type(x) == part {
                                        x
                                    } else {
                                        self.b.ins().bitcast(part, vector_cast(), x)
                                    }
                                })
                                .collect(),
                        )
                    }
                    _ => None,
                }
            }
            Op::Splat => {
                let x = self.get1(args[0])?;
                Some(self.splat_repr(x, out))
            }
            Op::InsertLane(i) => {
                let mut v = self.parts_as(args[0], out)?;
                let mut x = self.get1(args[1])?;
                if mask {
                    x = self.mask_lane(x, part);
                }
                let per = part.lane_count();
                let (p, l) = ((u32::from(*i) / per) as usize, (u32::from(*i) % per) as u8);
                v[p] = self.b.ins().insertlane(v[p], x, l);
                Some(v)
            }
            Op::Shuffle(pick) => {
                let mut srcs = Vec::with_capacity(2);
                for &a in &args[..2] {
                    let n = f.dfg.value_type(a).lanes();
                    let want = if mask {
                        Repr::simd(part.lane_type(), n, true)
                    } else {
                        self.repr(a)?
                    };
                    srcs.push((self.parts_as(a, want)?, want));
                }
                let pick: Vec<u32> = pick.iter().map(|&m| u32::from(m)).collect();
                self.gather_lanes(&srcs, &pick, out)
            }
            Op::Load(flags) if !mask => Some(self.load_simd(args[0], flags, out)?),
            _ => None,
        };
        match vals {
            Some(vals) => {
                self.set_parts(result, vals)?;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// The lanes of `x` where mask `m` (an integer vector of `part`'s shape, each lane all
    /// ones or all zeros) is set, and of `y` elsewhere; `x`, `y` and the result are `part`.
    fn blend(&mut self, part: cl::Type, m: cl::Value, x: cl::Value, y: cl::Value) -> cl::Value {
        if !self.blendv {
            let m = if part.lane_type().is_float() {
                self.b.ins().bitcast(part, vector_cast(), m)
            } else {
                m
            };
            return self.b.ins().bitselect(m, x, y);
        }
        // blendv picks by each lane's top bit, which a mask lane has exactly where it is set;
        // Cranelift has it for bytes, 32- and 64-bit lanes (16-bit lanes blend as bytes).
        let ity = match part.lane_bits() {
            32 => clt::I32X4,
            64 => clt::I64X2,
            _ => clt::I8X16,
        };
        let cast = |b: &mut Self, v: cl::Value| {
            if b.b.func.dfg.value_type(v) == ity {
                v
            } else {
                b.b.ins().bitcast(ity, vector_cast(), v)
            }
        };
        let (m, x, y) = (cast(self, m), cast(self, x), cast(self, y));
        let r = self.b.ins().blendv(m, x, y);
        if part == ity {
            r
        } else {
            self.b.ins().bitcast(part, vector_cast(), r)
        }
    }

    /// The complement of mask `m`, in representation `want`, where `m` is a comparison of
    /// integer vectors that x86-64 makes as the complement of another (`ne` of `eq`, `ugt`
    /// of `ule`, `ult` of `uge`: a compare, then an all-ones constant and an exclusive or) and
    /// `select`s are its only uses: each select then takes the other comparison with its arms
    /// swapped, two instructions fewer per part (a threshold's `x > t ? a : b` on bytes; the
    /// quadrant's test in sincos, which picks both results). The selects' comparisons are one
    /// value for `motion`'s value numbering.
    fn inverted_condition(
        &mut self,
        m: Value,
        want: Repr,
    ) -> Result<Option<Vec<cl::Value>>, CompileError> {
        let f = self.f;
        let m = f.dfg.resolve(m);
        let ValueDef::Result(i) = f.dfg.value_def(m) else {
            return Ok(None);
        };
        let data = &f.dfg.insts[i];
        let Op::Icmp(cc) = data.op else {
            return Ok(None);
        };
        let inverse = match cc {
            IntCC::Ne => IntCC::Eq,
            IntCC::Ugt => IntCC::Ule,
            IntCC::Ult => IntCC::Uge,
            _ => return Ok(None),
        };
        if self.uses[m] != self.select_conditions[m] {
            return Ok(None);
        }
        let have = self.repr(m)?;
        let Some(parts) = self.compare_simd(data.args[0], data.args[1], |b, x, y| {
            b.ins().icmp(int_cc(inverse), x, y)
        })?
        else {
            return Ok(None);
        };
        Ok(Some(self.convert_repr(parts, have, want)))
    }

    /// A vector constant, part by part.
    fn vconst_parts(&mut self, lane_bits: &[u64], out: Repr) -> Vec<cl::Value> {
        let Repr::Simd {
            part, parts, mask, ..
        } = out
        else {
            unreachable!("a SIMD representation")
        };
        let (per, lb) = (
            part.lane_count() as usize,
            part.lane_type().bytes() as usize,
        );
        (0..parts as usize)
            .map(|p| {
                let mut bytes = Vec::with_capacity(16);
                for l in 0..per {
                    let bits = lane_bits.get(p * per + l).copied().unwrap_or(0);
                    let bits = if mask && bits & 1 != 0 {
                        u64::MAX
                    } else if mask {
                        0
                    } else {
                        bits
                    };
                    bytes.extend_from_slice(&bits.to_le_bytes()[..lb]);
                }
                self.vconst(part, bytes)
            })
            .collect()
    }

    fn unary_simd(
        &mut self,
        op: UnaryOp,
        x: Vec<cl::Value>,
        rty: Type,
        mask: bool,
    ) -> Option<Vec<cl::Value>> {
        let float = rty.lane_type().is_float();
        let part = self.b.func.dfg.value_type(x[0]);
        let ok = match op {
            UnaryOp::Bnot => true,
            UnaryOp::Ineg => !float && !mask,
            UnaryOp::Popcnt => part == clt::I8X16 && !mask,
            UnaryOp::Clz | UnaryOp::Ctz => false,
            UnaryOp::Fneg
            | UnaryOp::Fabs
            | UnaryOp::Sqrt
            | UnaryOp::SqrtRelaxed
            | UnaryOp::Rsqrt
            | UnaryOp::Floor
            | UnaryOp::Ceil
            | UnaryOp::Ftrunc
            | UnaryOp::Nearest => float,
        };
        if !ok {
            return None;
        }
        // The sign bit cleared with a constant from the pool, one instruction that reads it
        // as an operand: Cranelift makes the constant in a register first (all ones, then
        // a shift), three instructions a part, in every fabs of a float kernel's inner loop.
        // (fneg stays Cranelift's, which folds into a fused multiply-add that it feeds.)
        let abs_mask = (op == UnaryOp::Fabs && float).then(|| {
            let bits = part.lane_bits();
            let lane = (1u64 << (bits - 1)) - 1;
            let bytes: Vec<u8> = (0..part.lane_count())
                .flat_map(|_| lane.to_le_bytes()[..(bits / 8) as usize].to_vec())
                .collect();
            self.vconst(part, bytes)
        });
        Some(
            x.into_iter()
                .map(|x| match abs_mask {
                    Some(m) => self.b.ins().band(x, m),
                    None => unary_inst(&mut self.b, op, x),
                })
                .collect(),
        )
    }

    fn binary_simd(
        &mut self,
        op: BinaryOp,
        a: Value,
        b: Value,
        out: Repr,
        rty: Type,
    ) -> Result<Option<Vec<cl::Value>>, CompileError> {
        let Repr::Simd { part, mask, .. } = out else {
            return Ok(None);
        };
        let float = rty.lane_type().is_float();
        use BinaryOp::*;
        let ok = match op {
            Band | Bor | Bxor => true,
            _ if mask => false,
            Iadd | Isub | Smin | Smax | Umin | Umax => !float,
            Imul => !float,
            Shl | Lshr | Ashr => {
                !float && (self.uniform_scalar(b).is_some() || matches!(part.lane_bits(), 16 | 32))
            }
            Smulhi | Umulhi => !float && part.lane_bits() == 32,
            Sdiv | Udiv | Srem | Urem | Rotl => false,
            Fadd | Fsub | Fmul | Fdiv | FdivRelaxed | Fmin | Fmax | Copysign => float,
        };
        if !ok {
            return Ok(None);
        }
        let xs = self.parts_as(a, out)?;
        if let (Shl | Lshr | Ashr, None) = (op, self.uniform_scalar(b)) {
            let ss = self.parts_as(b, out)?;
            return Ok(Some(
                xs.into_iter()
                    .zip(ss)
                    .map(|(x, s)| self.shift_by_lanes(op, part, x, s))
                    .collect(),
            ));
        }
        if let Shl | Lshr | Ashr = op {
            // One amount for every lane: the shift instructions take it modulo the lane
            // width, as the IR does (6.5.10).
            let amount = self.uniform_scalar(b).expect("checked above");
            let s = match amount {
                Uniform::Const(k) => self.b.ins().iconst(clt::I32, k as i64),
                Uniform::Value(v) => self.get1(v)?,
            };
            return Ok(Some(
                xs.into_iter()
                    .map(|x| match op {
                        Shl => self.b.ins().ishl(x, s),
                        Lshr => self.b.ins().ushr(x, s),
                        _ => self.b.ins().sshr(x, s),
                    })
                    .collect(),
            ));
        }
        let ys = self.parts_as(b, out)?;
        let mut res = Vec::with_capacity(xs.len());
        for (x, y) in xs.into_iter().zip(ys) {
            res.push(match op {
                Fmin | Fmax => {
                    // fmin/fmax: "If one argument is a NaN, fmin() returns the other
                    // argument." Cranelift's give the NaN; choose the other operand where one
                    // is a NaN, as the scalar translation does.
                    let r = if op == Fmin {
                        self.b.ins().fmin(x, y)
                    } else {
                        self.b.ins().fmax(x, y)
                    };
                    let x_nan = self.float_mask(cl::condcodes::FloatCC::Unordered, x, x);
                    let y_nan = self.float_mask(cl::condcodes::FloatCC::Unordered, y, y);
                    let r = self.b.ins().bitselect(x_nan, y, r);
                    self.b.ins().bitselect(y_nan, x, r)
                }
                Copysign => {
                    // The magnitude's bits but the sign bit, and the sign operand's sign bit.
                    let ity = int_of(part.lane_bits())
                        .by(part.lane_count())
                        .expect("vector");
                    let sign = 1u64 << (part.lane_bits() - 1);
                    let sign = self.b.ins().iconst(ity.lane_type(), sign as i64);
                    let sign = self.b.ins().splat(ity, sign);
                    let xi = self.b.ins().bitcast(ity, vector_cast(), x);
                    let yi = self.b.ins().bitcast(ity, vector_cast(), y);
                    let r = self.b.ins().bitselect(sign, yi, xi);
                    self.b.ins().bitcast(part, vector_cast(), r)
                }
                Imul if part == clt::I8X16 => self.imul_bytes(x, y),
                Umulhi | Smulhi => self.mulhi_words(op == Smulhi, x, y),
                _ => binary_inst(&mut self.b, op, x, y).expect("checked above"),
            });
        }
        Ok(Some(res))
    }

    /// The product of two `i8x16` vectors, which x86 cannot multiply in bytes: each half
    /// widened to 16-bit lanes and multiplied there (`pmullw`), the low byte of each product
    /// kept (the product modulo 2^8, as the IR's wrapping multiplication is) and the halves
    /// packed back (`packuswb`, exact on values of 0 to 255). Nine instructions where lane by
    /// lane took sixteen multiplications and as many extractions and insertions; clpeak's
    /// `char` kernels ran at a fifth of its `short` ones' speed.
    fn imul_bytes(&mut self, x: cl::Value, y: cl::Value) -> cl::Value {
        let low = 0xffi64;
        let mask = self.b.ins().iconst(clt::I16, low);
        let mask = self.b.ins().splat(clt::I16X8, mask);
        let mut half = |high: bool| {
            let (x, y) = if high {
                (self.b.ins().uwiden_high(x), self.b.ins().uwiden_high(y))
            } else {
                (self.b.ins().uwiden_low(x), self.b.ins().uwiden_low(y))
            };
            let p = self.b.ins().imul(x, y);
            self.b.ins().band(p, mask)
        };
        let (lo, hi) = (half(false), half(true));
        self.b.ins().unarrow(lo, hi)
    }

    /// `x` shifted by each lane's own amount `s` (16- or 32-bit lanes, `part`), for which
    /// Cranelift has no instruction (its vector shifts take one amount; SSE has none, and
    /// AVX2's `vpsllvd` is not among Cranelift's x86 instructions): the amount taken bit by
    /// bit, from the highest of its `log2(bits)` low bits (so modulo the lane width, as the
    /// IR's shifts are, 6.5.10), each step a shift by a constant kept in the lanes whose
    /// amount has that bit. Fifteen instructions for four 32-bit lanes, where lane
    /// by lane took four extractions of each operand, four shifts and four insertions, and
    /// with them eight general registers: in the path of huge arguments of `sin` (its
    /// Payne-Hanek window of 2/pi is a shift by a per-lane amount) those pushed the loop's
    /// counters and pointers onto the stack on every trip of the common path.
    fn shift_by_lanes(
        &mut self,
        op: BinaryOp,
        part: cl::Type,
        mut x: cl::Value,
        s: cl::Value,
    ) -> cl::Value {
        let bits = part.lane_bits();
        let steps = bits.trailing_zeros();
        for j in (0..steps).rev() {
            let k = 1i64 << j;
            let shifted = match op {
                BinaryOp::Shl => self.b.ins().ishl_imm_s(x, k),
                BinaryOp::Lshr => self.b.ins().ushr_imm_s(x, k),
                _ => self.b.ins().sshr_imm_s(x, k),
            };
            // Bit j of the amount moved to the lane's top bit, which is all `blendv` reads of
            // 32-bit lanes; spread over the lane otherwise.
            let top = self.b.ins().ishl_imm_s(s, i64::from(bits - 1 - j));
            let m = if self.blendv && bits == 32 {
                top
            } else {
                self.b.ins().sshr_imm_s(top, i64::from(bits - 1))
            };
            x = self.blend(part, m, shifted, x);
        }
        x
    }

    /// The high 32 bits of the 64-bit products of the lanes of two `i32x4` vectors (`mul_hi`):
    /// each pair of lanes widened and multiplied (`pmuludq`, or `pmuldq` when `signed`), the
    /// high halves of the four products picked into one vector. About seven instructions, where
    /// lane by lane took eight extractions, four multiplications and four insertions.
    fn mulhi_words(&mut self, signed: bool, x: cl::Value, y: cl::Value) -> cl::Value {
        let mut half = |high: bool| {
            let (x, y) = match (signed, high) {
                (false, false) => (self.b.ins().uwiden_low(x), self.b.ins().uwiden_low(y)),
                (false, true) => (self.b.ins().uwiden_high(x), self.b.ins().uwiden_high(y)),
                (true, false) => (self.b.ins().swiden_low(x), self.b.ins().swiden_low(y)),
                (true, true) => (self.b.ins().swiden_high(x), self.b.ins().swiden_high(y)),
            };
            let p = self.b.ins().imul(x, y);
            self.b.ins().bitcast(clt::I8X16, vector_cast(), p)
        };
        let (lo, hi) = (half(false), half(true));
        // The odd 32-bit lanes of the two products in turn: lanes 1 and 3 of `lo`, then of `hi`.
        let sel: Vec<Option<(usize, u8)>> = (0..16u8)
            .map(|i| {
                let odd = 2 * (i / 4) + 1;
                Some((usize::from(odd / 4), (odd % 4) * 4 + i % 4))
            })
            .collect();
        self.shuffle_bytes(&[lo, hi], &sel, clt::I32X4)
            .expect("two sources")
    }

    /// A float comparison of two vectors as a mask of the vectors' own type.
    fn float_mask(&mut self, cc: cl::condcodes::FloatCC, x: cl::Value, y: cl::Value) -> cl::Value {
        let ty = self.b.func.dfg.value_type(x);
        let m = self.b.ins().fcmp(cc, x, y);
        self.b.ins().bitcast(ty, vector_cast(), m)
    }

    /// Whether `v` has the same value in every lane, and which: a splatted scalar or a
    /// constant.
    fn uniform_scalar(&self, v: Value) -> Option<Uniform> {
        let dfg = &self.f.dfg;
        let ValueDef::Result(inst) = dfg.value_def(dfg.resolve(v)) else {
            return None;
        };
        let data = &dfg.insts[inst];
        match data.op {
            Op::Splat => Some(Uniform::Value(data.args[0])),
            Op::Iconst(k) => Some(Uniform::Const(k)),
            _ => None,
        }
    }

    /// A comparison, part by part, when the operands are SIMD vectors (not masks).
    fn compare_simd(
        &mut self,
        a: Value,
        b: Value,
        cmp: impl Fn(&mut cranelift_frontend::FunctionBuilder, cl::Value, cl::Value) -> cl::Value,
    ) -> Result<Option<Vec<cl::Value>>, CompileError> {
        if !matches!(self.repr(a)?, Repr::Simd { mask: false, .. }) {
            return Ok(None);
        }
        let (xs, ys) = (self.parts(a)?, self.parts(b)?);
        Ok(Some(
            xs.into_iter()
                .zip(ys)
                .map(|(x, y)| cmp(&mut self.b, x, y))
                .collect(),
        ))
    }

    /// `result`, a `band` (`bor`) of booleans that combines exactly the lanes of one SIMD
    /// mask, each extracted once (as the vectorizer tests whether all or any of a chunk's
    /// lanes are active), as one test of the whole mask. `false` where it is not such a tree.
    fn all_or_any_lane(&mut self, result: Value, op: BinaryOp) -> Result<bool, CompileError> {
        let f = self.f;
        let mut mask = None;
        let mut seen: u64 = 0;
        let mut work = vec![result];
        while let Some(v) = work.pop() {
            let ValueDef::Result(i) = f.dfg.value_def(f.dfg.resolve(v)) else {
                return Ok(false);
            };
            let data = &f.dfg.insts[i];
            match data.op {
                Op::Binary(o) if o == op && f.dfg.value_type(v) == Type::I1 => {
                    if work.len() > 64 {
                        return Ok(false);
                    }
                    work.extend_from_slice(&data.args);
                }
                Op::ExtractLane(lane) if lane < 64 => {
                    let m = f.dfg.resolve(data.args[0]);
                    if *mask.get_or_insert(m) != m || seen & (1 << lane) != 0 {
                        return Ok(false);
                    }
                    seen |= 1 << lane;
                }
                _ => return Ok(false),
            }
        }
        let Some(m) = mask else { return Ok(false) };
        let Repr::Simd {
            part,
            parts,
            lanes,
            mask: true,
        } = self.repr(m)?
        else {
            return Ok(false);
        };
        // Every lane, and no padding lanes in the last part.
        if lanes >= 64 || seen != (1u64 << lanes) - 1 || parts * part.lane_count() != lanes {
            return Ok(false);
        }
        // The parts are combined lane by lane first (every lane of a mask is all ones or all
        // zeros, so the `band` of two parts has a lane set where both have it), and the one
        // test of the result is a `ptest` that a branch on it takes its flags from: the
        // W-wide code tests a chunk's lanes at every divergent branch, where one test per
        // part, each set into a register and combined there, cost several times as much.
        let xs = self.parts(m)?;
        let x = xs
            .into_iter()
            .reduce(|a, b| match op {
                BinaryOp::Band => self.b.ins().band(a, b),
                _ => self.b.ins().bor(a, b),
            })
            .expect("a mask has a part");
        let x = match op {
            BinaryOp::Band => self.b.ins().vall_true(x),
            _ => self.b.ins().vany_true(x),
        };
        self.set_parts(result, vec![x])?;
        Ok(true)
    }

    /// Lane `i` of a SIMD vector.
    fn extract_simd(&mut self, result: Value, v: Value, i: u32) -> Result<bool, CompileError> {
        let Repr::Simd { part, mask, .. } = self.repr(v)? else {
            return Ok(false);
        };
        let parts = self.parts(v)?;
        let per = part.lane_count();
        let mut x = self
            .b
            .ins()
            .extractlane(parts[(i / per) as usize], (i % per) as u8);
        if mask {
            if part.lane_bits() > 8 {
                x = self.b.ins().ireduce(clt::I8, x);
            }
            x = self.b.ins().band_imm_s(x, 1);
        }
        self.set_parts(result, vec![x])?;
        Ok(true)
    }

    fn convert_simd(
        &mut self,
        conv: ConvOp,
        src: Value,
        out: Repr,
        to: Type,
    ) -> Result<Option<Vec<cl::Value>>, CompileError> {
        let Repr::Simd {
            part, lanes, mask, ..
        } = out
        else {
            return Ok(None);
        };
        let have = self.repr(src)?;
        let Repr::Simd {
            part: spart,
            mask: smask,
            ..
        } = have
        else {
            return Ok(None);
        };
        let from = self.f.dfg.value_type(src).lane_type();
        if from == Type::F16 && to == Type::F32 {
            if let Some(x) = self.rounded_from_float(src) {
                let xs = self.parts(x)?;
                return Ok(Some(
                    xs.into_iter().map(|x| self.round_to_half(x)).collect(),
                ));
            }
            // Each half's bits zero-extended to 32 bits, then widened there.
            let xs = self.parts(src)?;
            let ints = self.widen(xs, 32, lanes, false);
            return Ok(Some(
                ints.into_iter()
                    .map(|h| self.half_to_float_bits(h))
                    .collect(),
            ));
        }
        if from == Type::F32 && to == Type::F16 && conv == ConvOp::Fconv(Round::Rte) {
            // Four lanes of half bits in 32-bit lanes at a time, two such packed into one
            // i16x8 (with unsigned saturation, which keeps every value below 2^16).
            let xs = self.parts(src)?;
            let bits: Vec<cl::Value> = xs
                .into_iter()
                .map(|x| self.float_to_half_rte_bits(x))
                .collect();
            return Ok(Some(
                bits.chunks(2)
                    .map(|pair| self.b.ins().unarrow(pair[0], *pair.last().unwrap()))
                    .collect(),
            ));
        }
        if from == Type::F16 || to == Type::F16 {
            // To or from double, or a directed rounding: lane by lane.
            return Ok(None);
        }
        let int_out = !part.lane_type().is_float() && !mask;
        Ok(match conv {
            // "i1 true becomes all ones": a mask of the destination's width.
            ConvOp::Sext if smask && int_out => {
                Some(self.parts_as(src, Repr::simd(part.lane_type(), lanes, true))?)
            }
            ConvOp::Zext if smask && int_out => {
                let m = self.parts_as(src, Repr::simd(part.lane_type(), lanes, true))?;
                let one = self.b.ins().iconst(part.lane_type(), 1);
                let one = self.b.ins().splat(part, one);
                Some(m.into_iter().map(|m| self.b.ins().band(m, one)).collect())
            }
            ConvOp::Trunc if mask && !smask && !spart.lane_type().is_float() => {
                // To i1: the low bit.
                let xs = self.parts(src)?;
                let one = self.b.ins().iconst(spart.lane_type(), 1);
                let one = self.b.ins().splat(spart, one);
                let zero = self.vconst(spart, vec![0; 16]);
                let m: Vec<cl::Value> = xs
                    .into_iter()
                    .map(|x| {
                        let low = self.b.ins().band(x, one);
                        self.b.ins().icmp(CIntCC::NotEqual, low, zero)
                    })
                    .collect();
                let have = Repr::simd(spart.lane_type(), lanes, true);
                Some(self.convert_repr(m, have, out))
            }
            ConvOp::Sext | ConvOp::Zext if !smask && int_out && !spart.lane_type().is_float() => {
                let xs = self.parts(src)?;
                Some(self.widen(xs, part.lane_bits(), lanes, conv == ConvOp::Sext))
            }
            ConvOp::Trunc if !smask && int_out && !spart.lane_type().is_float() => {
                // The low bytes of each lane.
                let xs = self.parts(src)?;
                self.low_bytes(xs, spart, part, lanes, out.count())
            }
            ConvOp::SatInt {
                src_signed,
                dst_signed,
            } if !smask
                && int_out
                && !spart.lane_type().is_float()
                && spart.lane_bits() <= 32
                && part.lane_bits() <= spart.lane_bits() =>
            {
                // Clamped to the destination's range in the source's lanes (a narrower range
                // always fits them), then its low bytes.
                let xs = self.parts(src)?;
                let xs = self.clamp_to(xs, spart, part.lane_bits(), src_signed, dst_signed);
                self.low_bytes(xs, spart, part, lanes, out.count())
            }
            ConvOp::Fconv(_) if spart == clt::F32X4 && part == clt::F64X2 => {
                // Widening is exact: each half of an f32x4 becomes an f64x2.
                let xs = self.parts(src)?;
                let mut res = Vec::with_capacity(out.count() as usize);
                for k in 0..out.count() as usize {
                    let x = xs[k / 2];
                    let x = if k % 2 == 0 {
                        x
                    } else {
                        let bytes = self.bytes_of(x);
                        let sel: Vec<Option<(usize, u8)>> =
                            (0..16).map(|i| Some((0, 8 + (i % 8) as u8))).collect();
                        self.shuffle_bytes(&[bytes], &sel, clt::F32X4)
                            .expect("one source")
                    };
                    res.push(self.b.ins().fvpromote_low(x));
                }
                Some(res)
            }
            ConvOp::Fconv(Round::Rte) if spart == clt::F64X2 && part == clt::F32X4 => {
                // Two f64x2 narrowed (to the low halves of two f32x4s) make one f32x4.
                let xs = self.parts(src)?;
                let mut res = Vec::with_capacity(out.count() as usize);
                for k in 0..out.count() as usize {
                    let lo = self.b.ins().fvdemote(xs[2 * k]);
                    let lo = self.bytes_of(lo);
                    let v = match xs.get(2 * k + 1) {
                        Some(&x) => {
                            let hi = self.b.ins().fvdemote(x);
                            let hi = self.bytes_of(hi);
                            let sel: Vec<Option<(usize, u8)>> =
                                (0..16).map(|i| Some((i / 8, (i % 8) as u8))).collect();
                            self.shuffle_bytes(&[lo, hi], &sel, clt::F32X4)
                                .expect("two sources")
                        }
                        None => self.b.ins().bitcast(clt::F32X4, vector_cast(), lo),
                    };
                    res.push(v);
                }
                Some(res)
            }
            ConvOp::SintToFloat(Round::Rte) | ConvOp::UintToFloat(Round::Rte)
                if spart == clt::I32X4 && part == clt::F32X4 =>
            {
                let xs = self.parts(src)?;
                let signed = matches!(conv, ConvOp::SintToFloat(_));
                Some(
                    xs.into_iter()
                        .map(|x| {
                            if signed {
                                self.b.ins().fcvt_from_sint(part, x)
                            } else {
                                self.b.ins().fcvt_from_uint(part, x)
                            }
                        })
                        .collect(),
                )
            }
            ConvOp::SintToFloat(_) | ConvOp::UintToFloat(_)
                if part == clt::F32X4
                    && !smask
                    && !spart.lane_type().is_float()
                    && spart.lane_bits() < 32 =>
            {
                // `char` and `short` lanes (a `convert_float4` of pixels): widened to 32 bits,
                // where every value is a float exactly whatever the rounding mode, and a
                // zero-extended lane converts as a signed one.
                let xs = self.parts(src)?;
                let signed = matches!(conv, ConvOp::SintToFloat(_));
                let ints = self.widen(xs, 32, lanes, signed);
                Some(
                    ints.into_iter()
                        .map(|x| self.b.ins().fcvt_from_sint(part, x))
                        .collect(),
                )
            }
            ConvOp::FloatToSint { round, .. } | ConvOp::FloatToUint { round, .. }
                if spart == clt::F32X4 && int_out && part.lane_bits() < 32 =>
            {
                // To `char` or `short` lanes (`convert_uchar4_sat_rte` of pixels): rounded,
                // converted to 32-bit lanes with saturation (a NaN to 0, as 6.4.3.3 has a
                // saturated conversion give), clamped to the destination's range there
                // (PMAXSD, PMINSD), then their low bytes. Without saturation an out-of-range
                // result is unspecified, and the clamped one serves.
                let signed = matches!(conv, ConvOp::FloatToSint { .. });
                let bits = part.lane_bits();
                let (lo, hi): (i64, i64) = if signed {
                    (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
                } else {
                    (0, (1 << bits) - 1)
                };
                let xs = self.parts(src)?;
                let mut ints = Vec::with_capacity(xs.len());
                for x in xs {
                    let r = self.rounded(x, round);
                    let r = self.b.ins().fcvt_to_sint_sat(clt::I32X4, r);
                    let lo = self.b.ins().iconst(clt::I32, lo & 0xffff_ffff);
                    let lo = self.b.ins().splat(clt::I32X4, lo);
                    let hi = self.b.ins().iconst(clt::I32, hi);
                    let hi = self.b.ins().splat(clt::I32X4, hi);
                    let r = self.b.ins().smax(r, lo);
                    ints.push(self.b.ins().smin(r, hi));
                }
                self.low_bytes(ints, clt::I32X4, part, lanes, out.count())
            }
            ConvOp::FloatToSint { round, .. } | ConvOp::FloatToUint { round, .. }
                if spart == clt::F32X4 && part == clt::I32X4 =>
            {
                // Saturating either way: unsaturated out-of-range results are unspecified
                // (6.4.3.3), and NaN gives 0, as in the scalar translation.
                let xs = self.parts(src)?;
                let signed = matches!(conv, ConvOp::FloatToSint { .. });
                Some(
                    xs.into_iter()
                        .map(|x| {
                            let r = self.rounded(x, round);
                            if signed {
                                self.b.ins().fcvt_to_sint_sat(part, r)
                            } else {
                                self.b.ins().fcvt_to_uint_sat(part, r)
                            }
                        })
                        .collect(),
                )
            }
            _ => None,
        })
    }

    /// The float lanes of `x` rounded to integers in mode `round`.
    fn rounded(&mut self, x: cl::Value, round: Round) -> cl::Value {
        match round {
            Round::Rtz => x,
            Round::Rte => self.b.ins().nearest(x),
            Round::Rtp => self.b.ins().ceil(x),
            Round::Rtn => self.b.ins().floor(x),
        }
    }

    /// The low bytes of each lane of the 128-bit vectors `xs` (of `spart`) as `count` vectors
    /// of `part`, for `lanes` lanes: integers truncated to a narrower type.
    fn low_bytes(
        &mut self,
        xs: Vec<cl::Value>,
        spart: cl::Type,
        part: cl::Type,
        lanes: u32,
        count: u32,
    ) -> Option<Vec<cl::Value>> {
        let sb = spart.lane_type().bytes();
        let db = part.lane_type().bytes();
        let per = part.lane_count();
        let sper = spart.lane_count();
        if per > 2 * sper {
            // A part of the result gathers from more than the two vectors a byte shuffle
            // takes (`int16` to `uchar16`: four): the lanes are halved in width first, whose
            // low bytes are the same.
            let mid = vector_of(int_of(sb * 4));
            let halves = self.low_bytes(xs, spart, mid, lanes, lanes.div_ceil(mid.lane_count()))?;
            return self.low_bytes(halves, mid, part, lanes, count);
        }
        let srcs: Vec<cl::Value> = xs.into_iter().map(|x| self.bytes_of(x)).collect();
        let mut res = Vec::new();
        for p in 0..count {
            let sel: Vec<Option<(usize, u8)>> = (0..16)
                .map(|byte| {
                    let lane = p * per + byte / db;
                    (lane < lanes).then(|| {
                        let sp = (lane / sper) as usize;
                        let at = (lane % sper) * sb + byte % db;
                        (sp, at as u8)
                    })
                })
                .collect();
            // Renumber to the sources this part uses.
            let mut used: Vec<usize> = Vec::new();
            for &(s, _) in sel.iter().flatten() {
                if !used.contains(&s) {
                    used.push(s);
                }
            }
            let local: Vec<Option<(usize, u8)>> = sel
                .iter()
                .map(|s| s.map(|(s, b)| (used.iter().position(|&u| u == s).unwrap(), b)))
                .collect();
            let vs: Vec<cl::Value> = used.iter().map(|&u| srcs[u]).collect();
            if vs.is_empty() {
                return None;
            }
            res.push(self.shuffle_bytes(&vs, &local, part)?);
        }
        Some(res)
    }

    /// Each lane of `xs` (of `spart`, read as signed or not) clamped to the range of a
    /// `bits`-bit integer, signed or not, which is no wider than the lanes.
    fn clamp_to(
        &mut self,
        xs: Vec<cl::Value>,
        spart: cl::Type,
        bits: u32,
        src_signed: bool,
        dst_signed: bool,
    ) -> Vec<cl::Value> {
        let sbits = spart.lane_bits();
        let lane = spart.lane_type();
        let (lo, hi): (i64, i64) = if dst_signed {
            (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
        } else {
            (0, ((1u64 << bits) - 1) as i64)
        };
        let splat = |s: &mut Self, k: i64| {
            let k = s.b.ins().iconst(lane, k & ((1i64 << sbits) - 1));
            s.b.ins().splat(spart, k)
        };
        // Only the bounds inside the source's range move a value.
        let (smin, smax) = if src_signed {
            (-(1i64 << (sbits - 1)), (1i64 << (sbits - 1)) - 1)
        } else {
            (0, ((1u64 << sbits) - 1) as i64)
        };
        let (below, above) = (lo > smin, hi < smax);
        let (lo, hi) = (splat(self, lo), splat(self, hi));
        xs.into_iter()
            .map(|mut x| {
                if below {
                    x = self.b.ins().smax(x, lo);
                }
                if above {
                    x = if src_signed {
                        self.b.ins().smin(x, hi)
                    } else {
                        self.b.ins().umin(x, hi)
                    };
                }
                x
            })
            .collect()
    }

    /// Integer lanes widened to `to` bits, sign- or zero-extended, one doubling at a time.
    fn widen(
        &mut self,
        mut parts: Vec<cl::Value>,
        to: u32,
        lanes: u32,
        signed: bool,
    ) -> Vec<cl::Value> {
        let mut from = self.b.func.dfg.value_type(parts[0]).lane_bits();
        while from < to {
            let want = lanes.div_ceil(128 / (from * 2)) as usize;
            let mut out = Vec::with_capacity(want);
            for &p in &parts {
                for high in [false, true] {
                    if out.len() < want {
                        out.push(match (signed, high) {
                            (true, false) => self.b.ins().swiden_low(p),
                            (true, true) => self.b.ins().swiden_high(p),
                            (false, false) => self.b.ins().uwiden_low(p),
                            (false, true) => self.b.ins().uwiden_high(p),
                        });
                    }
                }
            }
            parts = out;
            from *= 2;
        }
        parts
    }

    /// The address of an access (with `flags`) of `bytes` bytes through `ptr`, confined once (the region
    /// padding covers the access's bytes past its first): by a clamp of the address it shares
    /// with other accesses, or by a mask.
    pub(super) fn access_addr(
        &mut self,
        flags: &MemFlags,
        ptr: Value,
        bytes: u32,
    ) -> Result<cl::Value, CompileError> {
        let Some(space) = self.space_to_confine(flags, ptr, bytes) else {
            return self.get1(ptr);
        };
        if space == ferrocl_ir::AddrSpace::Generic
            && self.local_or_private.contains(self.f.dfg.resolve(ptr))
        {
            let p = self.get1(ptr)?;
            return Ok(self.confine_local_or_private(p));
        }
        if let Some((q, k)) = self.shared_base(ptr) {
            let c = self.clamped(q, space)?;
            return Ok(self.offset(c, k));
        }
        let p = self.get1(ptr)?;
        Ok(self.confine(p, space))
    }

    /// A vector load: whole 128-bit parts, and the last part's own bytes only.
    fn load_simd(
        &mut self,
        ptr: Value,
        flags: &MemFlags,
        out: Repr,
    ) -> Result<Vec<cl::Value>, CompileError> {
        let Repr::Simd {
            part, parts, lanes, ..
        } = out
        else {
            unreachable!("a SIMD representation")
        };
        let lb = part.lane_type().bytes();
        let total = lanes * lb;
        let p = self.access_addr(flags, ptr, total)?;
        let mut res = Vec::with_capacity(parts as usize);
        for k in 0..parts {
            let off = k * 16;
            let n = (total - off).min(16);
            res.push(match n {
                16 => self
                    .b
                    .ins()
                    .load(part, access_flags(flags, 16), p, off as i32),
                8 | 4 => {
                    let f = access_flags(flags, n);
                    let it = int_of(n * 8);
                    let x = self.b.ins().load(it, f, p, off as i32);
                    let v = self
                        .b
                        .ins()
                        .scalar_to_vector(it.by(128 / (n * 8)).unwrap(), x);
                    self.b.ins().bitcast(part, vector_cast(), v)
                }
                _ => {
                    let f = access_flags(flags, lb);
                    let own: Vec<cl::Value> = (0..n / lb)
                        .map(|l| {
                            self.b
                                .ins()
                                .load(part.lane_type(), f, p, (off + l * lb) as i32)
                        })
                        .collect();
                    self.build_part(&own, part)
                }
            });
        }
        Ok(res)
    }

    /// A vector store: whole 128-bit parts, and the last part's own bytes only.
    fn store_simd(&mut self, x: Value, ptr: Value, flags: &MemFlags) -> Result<bool, CompileError> {
        let repr = self.repr(x)?;
        let Repr::Simd {
            part,
            lanes,
            mask: false,
            ..
        } = repr
        else {
            return Ok(false);
        };
        let xs = self.parts(x)?;
        let lb = part.lane_type().bytes();
        let total = lanes * lb;
        let p = self.access_addr(flags, ptr, total)?;
        for (k, v) in xs.into_iter().enumerate() {
            let off = k as u32 * 16;
            let n = (total - off).min(16);
            match n {
                16 => {
                    self.b
                        .ins()
                        .store(access_flags(flags, 16), v, p, off as i32);
                }
                8 | 4 => {
                    let it = int_of(n * 8);
                    let vi = self
                        .b
                        .ins()
                        .bitcast(it.by(128 / (n * 8)).unwrap(), vector_cast(), v);
                    let s = self.b.ins().extractlane(vi, 0);
                    self.b.ins().store(access_flags(flags, n), s, p, off as i32);
                }
                _ => {
                    for l in 0..n / lb {
                        let s = self.b.ins().extractlane(v, l as u8);
                        self.b
                            .ins()
                            .store(access_flags(flags, lb), s, p, (off + l * lb) as i32);
                    }
                }
            }
        }
        Ok(true)
    }
}

/// A lane amount the same for every lane.
enum Uniform {
    Const(u64),
    Value(Value),
}

/// The flags of an access of `bytes` bytes under IR flags `flags`: aligned only where the IR
/// says the address is.
fn access_flags(flags: &MemFlags, bytes: u32) -> cranelift_codegen::ir::MemFlagsData {
    let mut f = mem();
    if flags.align >= bytes {
        f.set_aligned();
    }
    f
}
