//! Lane-wise instruction selection: the integer and float operations on one lane (a scalar,
//! or one lane of a vector whose operation has no SIMD form in `isel.rs`), and atomics.

use cranelift_codegen::ir::condcodes::{FloatCC as CFloatCC, IntCC as CIntCC};
use cranelift_codegen::ir::{self as cl, types as clt, AtomicRmwOp, InstBuilder};
use cranelift_frontend::FunctionBuilder;
use ferrocl_ir::{BinaryOp, RmwOp, UnaryOp};

use super::{err, mem, Translator};

/// The one Cranelift instruction of unary `op`, on a lane or on a whole vector (for the
/// types that instruction takes).
pub(super) fn unary_inst(b: &mut FunctionBuilder, op: UnaryOp, x: cl::Value) -> cl::Value {
    if op == UnaryOp::Rsqrt {
        // Within rsqrt's 2 ulp as a correctly rounded square root and division (the builtin
        // library's float `rsqrt` was this, measured at 1.43 ulp at most).
        let t = b.func.dfg.value_type(x);
        let one = match t.lane_type() {
            clt::F32 => b.ins().f32const(1.0),
            _ => b.ins().f64const(1.0),
        };
        let one = match t.is_vector() {
            true => b.ins().splat(t, one),
            false => one,
        };
        let root = b.ins().sqrt(x);
        return b.ins().fdiv(one, root);
    }
    let ins = b.ins();
    match op {
        UnaryOp::Ineg => ins.ineg(x),
        UnaryOp::Bnot => ins.bnot(x),
        UnaryOp::Clz => ins.clz(x),
        UnaryOp::Ctz => ins.ctz(x),
        UnaryOp::Popcnt => ins.popcnt(x),
        UnaryOp::Fneg => ins.fneg(x),
        UnaryOp::Fabs => ins.fabs(x),
        // The CPU computes the relaxed square root correctly rounded.
        UnaryOp::Sqrt | UnaryOp::SqrtRelaxed => ins.sqrt(x),
        UnaryOp::Floor => ins.floor(x),
        UnaryOp::Ceil => ins.ceil(x),
        UnaryOp::Ftrunc => ins.trunc(x),
        UnaryOp::Nearest => ins.nearest(x),
        UnaryOp::Rsqrt => unreachable!("expanded above"),
    }
}

/// The one Cranelift instruction of binary `op`, where it is one: wrapping arithmetic,
/// min/max, bit operations and shifts, IEEE arithmetic. `None` for the operations that take
/// more (division, `fmin`/`fmax`).
pub(super) fn binary_inst(
    b: &mut FunctionBuilder,
    op: BinaryOp,
    x: cl::Value,
    y: cl::Value,
) -> Option<cl::Value> {
    let ins = b.ins();
    Some(match op {
        BinaryOp::Iadd => ins.iadd(x, y),
        BinaryOp::Isub => ins.isub(x, y),
        BinaryOp::Imul => ins.imul(x, y),
        BinaryOp::Smulhi => ins.smulhi(x, y),
        BinaryOp::Umulhi => ins.umulhi(x, y),
        BinaryOp::Smin => ins.smin(x, y),
        BinaryOp::Smax => ins.smax(x, y),
        BinaryOp::Umin => ins.umin(x, y),
        BinaryOp::Umax => ins.umax(x, y),
        BinaryOp::Band => ins.band(x, y),
        BinaryOp::Bor => ins.bor(x, y),
        BinaryOp::Bxor => ins.bxor(x, y),
        BinaryOp::Shl => ins.ishl(x, y),
        BinaryOp::Lshr => ins.ushr(x, y),
        BinaryOp::Ashr => ins.sshr(x, y),
        BinaryOp::Rotl => ins.rotl(x, y),
        BinaryOp::Fadd => ins.fadd(x, y),
        BinaryOp::Fsub => ins.fsub(x, y),
        BinaryOp::Fmul => ins.fmul(x, y),
        BinaryOp::Fdiv | BinaryOp::FdivRelaxed => ins.fdiv(x, y),
        BinaryOp::Copysign => ins.fcopysign(x, y),
        BinaryOp::Sdiv
        | BinaryOp::Udiv
        | BinaryOp::Srem
        | BinaryOp::Urem
        | BinaryOp::Fmin
        | BinaryOp::Fmax => return None,
    })
}
use crate::CompileError;

impl Translator<'_, '_> {
    pub(super) fn unary(
        &mut self,
        op: UnaryOp,
        x: cl::Value,
        is_bool: bool,
    ) -> Result<cl::Value, CompileError> {
        let ty = self.b.func.dfg.value_type(x);
        Ok(match op {
            UnaryOp::Bnot if is_bool => self.b.ins().bxor_imm_s(x, 1),
            UnaryOp::Clz | UnaryOp::Ctz | UnaryOp::Popcnt if ty.bits() < 32 => {
                // Counted in 32 bits: clz subtracts the added high zeros, ctz sees a sentinel
                // bit just above the value so that ctz(0) is the width.
                let w = ty.bits() as i64;
                let wide = self.b.ins().uextend(clt::I32, x);
                let r = match op {
                    UnaryOp::Clz => {
                        let c = self.b.ins().clz(wide);
                        self.b.ins().iadd_imm_s(c, w - 32)
                    }
                    UnaryOp::Ctz => {
                        let s = self.b.ins().bor_imm_s(wide, 1 << w);
                        self.b.ins().ctz(s)
                    }
                    _ => self.b.ins().popcnt(wide),
                };
                self.b.ins().ireduce(ty, r)
            }
            _ => unary_inst(&mut self.b, op, x),
        })
    }

    pub(super) fn binary(&mut self, op: BinaryOp, x: cl::Value, y: cl::Value) -> cl::Value {
        let ty = self.b.func.dfg.value_type(x);
        match op {
            BinaryOp::Smulhi | BinaryOp::Umulhi if ty == clt::I8 => {
                let signed = op == BinaryOp::Smulhi;
                let (a, b) = if signed {
                    (
                        self.b.ins().sextend(clt::I16, x),
                        self.b.ins().sextend(clt::I16, y),
                    )
                } else {
                    (
                        self.b.ins().uextend(clt::I16, x),
                        self.b.ins().uextend(clt::I16, y),
                    )
                };
                let p = self.b.ins().imul(a, b);
                let hi = self.b.ins().ushr_imm_s(p, 8);
                self.b.ins().ireduce(clt::I8, hi)
            }
            BinaryOp::Sdiv | BinaryOp::Srem => {
                // 6.5.1: division by zero and INT_MIN / -1 give unspecified values but must
                // not trap. Divide by 1 instead; INT_MIN / 1 is INT_MIN, the wrapped quotient,
                // and the remainder is 0, as for -1.
                let zero = self.b.ins().icmp_imm_s(CIntCC::Equal, y, 0);
                let minus1 = self.b.ins().icmp_imm_s(CIntCC::Equal, y, -1);
                let min = self
                    .b
                    .ins()
                    .icmp_imm_s(CIntCC::Equal, x, i64::MIN >> (64 - ty.bits()));
                let overflow = self.b.ins().band(minus1, min);
                let bad = self.b.ins().bor(zero, overflow);
                let one = self.b.ins().iconst(ty, 1);
                let d = self.b.ins().select(bad, one, y);
                if op == BinaryOp::Sdiv {
                    self.b.ins().sdiv(x, d)
                } else {
                    self.b.ins().srem(x, d)
                }
            }
            BinaryOp::Udiv | BinaryOp::Urem => {
                let zero = self.b.ins().icmp_imm_s(CIntCC::Equal, y, 0);
                let one = self.b.ins().iconst(ty, 1);
                let d = self.b.ins().select(zero, one, y);
                if op == BinaryOp::Udiv {
                    self.b.ins().udiv(x, d)
                } else {
                    self.b.ins().urem(x, d)
                }
            }
            BinaryOp::Fmin | BinaryOp::Fmax => {
                // fmin/fmax: "If one argument is a NaN, fmin() returns the other argument."
                let r = if op == BinaryOp::Fmin {
                    self.b.ins().fmin(x, y)
                } else {
                    self.b.ins().fmax(x, y)
                };
                let x_nan = self.b.ins().fcmp(CFloatCC::Unordered, x, x);
                let y_nan = self.b.ins().fcmp(CFloatCC::Unordered, y, y);
                let r = self.b.ins().select(x_nan, y, r);
                self.b.ins().select(y_nan, x, r)
            }
            _ => binary_inst(&mut self.b, op, x, y).expect("a single instruction"),
        }
    }

    /// `atomic_rmw` of `__local` memory, which only the running thread reaches (see
    /// `Translator::inst`): a load, the operation and a store; returns the old value.
    pub(super) fn local_rmw(
        &mut self,
        op: RmwOp,
        p: cl::Value,
        x: cl::Value,
    ) -> Result<cl::Value, CompileError> {
        let ty = self.b.func.dfg.value_type(x);
        let old = self.b.ins().load(ty, mem(), p, 0);
        let ins = self.b.ins();
        let new = match op {
            RmwOp::Xchg => x,
            RmwOp::Add if ty.is_float() => ins.fadd(old, x),
            _ if ty.is_float() => {
                return err("atomic operation on a float other than exchange and add")
            }
            RmwOp::Add => ins.iadd(old, x),
            RmwOp::Sub => ins.isub(old, x),
            RmwOp::And => ins.band(old, x),
            RmwOp::Or => ins.bor(old, x),
            RmwOp::Xor => ins.bxor(old, x),
            RmwOp::Smin => ins.smin(old, x),
            RmwOp::Smax => ins.smax(old, x),
            RmwOp::Umin => ins.umin(old, x),
            RmwOp::Umax => ins.umax(old, x),
        };
        self.b.ins().store(mem(), new, p, 0);
        Ok(old)
    }

    pub(super) fn atomic_rmw(
        &mut self,
        op: RmwOp,
        p: cl::Value,
        x: cl::Value,
    ) -> Result<cl::Value, CompileError> {
        let ty = self.b.func.dfg.value_type(x);
        if ty.is_float() {
            let ity = cl::Type::int(ty.bits() as u16).unwrap_or(clt::I32);
            let xi = self.b.ins().bitcast(ity, mem(), x);
            let old = match op {
                RmwOp::Xchg => self
                    .b
                    .ins()
                    .atomic_rmw(ity, mem(), AtomicRmwOp::Xchg, p, xi),
                RmwOp::Add => {
                    // A compare-and-swap loop: add to the value seen, retry if it changed.
                    let first = self.b.ins().atomic_load(ity, mem(), p);
                    let lp = self.b.create_block();
                    let done = self.b.create_block();
                    self.b.append_block_param(lp, ity);
                    self.b.append_block_param(done, ity);
                    self.b.ins().jump(lp, &[first.into()]);
                    self.b.switch_to_block(lp);
                    let seen = self.b.block_params(lp)[0];
                    let f = self.b.ins().bitcast(ty, mem(), seen);
                    let sum = self.b.ins().fadd(f, x);
                    let new = self.b.ins().bitcast(ity, mem(), sum);
                    let got = self.b.ins().atomic_cas(mem(), p, seen, new);
                    let same = self.b.ins().icmp(CIntCC::Equal, got, seen);
                    self.b
                        .ins()
                        .brif(same, done, &[got.into()], lp, &[got.into()]);
                    self.b.switch_to_block(done);
                    self.b.block_params(done)[0]
                }
                _ => return err("atomic operation on a float other than exchange and add"),
            };
            return Ok(self.b.ins().bitcast(ty, mem(), old));
        }
        let op = match op {
            RmwOp::Xchg => AtomicRmwOp::Xchg,
            RmwOp::Add => AtomicRmwOp::Add,
            RmwOp::Sub => AtomicRmwOp::Sub,
            RmwOp::And => AtomicRmwOp::And,
            RmwOp::Or => AtomicRmwOp::Or,
            RmwOp::Xor => AtomicRmwOp::Xor,
            RmwOp::Smin => AtomicRmwOp::Smin,
            RmwOp::Smax => AtomicRmwOp::Smax,
            RmwOp::Umin => AtomicRmwOp::Umin,
            RmwOp::Umax => AtomicRmwOp::Umax,
        };
        Ok(self.b.ins().atomic_rmw(ty, mem(), op, p, x))
    }
}
