//! Constant evaluation: the value of an integer or floating constant expression (array sizes,
//! case labels, enumerators, static assertions, attribute arguments).

use super::*;

impl Sema<'_> {
    /// Integer constant expression value (C99 6.6), or None when not constant.
    pub fn const_int(&self, e: &Expr) -> Option<i128> {
        let bits_of = |t: TypeId| -> Option<(u32, bool)> {
            match self.types.get(t) {
                Type::Scalar(s) if s.is_integer() => Some((s.size() * 8, s.is_signed())),
                Type::Enum(_) => Some((32, true)),
                _ => None,
            }
        };
        let wrap = |v: i128, t: TypeId| -> Option<i128> {
            let (bits, signed) = bits_of(t)?;
            if self.types.get(t) == &Type::Scalar(Scalar::Bool) {
                return Some((v != 0) as i128);
            }
            let m = v & ((1i128 << bits) - 1);
            Some(if signed && m >= 1i128 << (bits - 1) {
                m - (1i128 << bits)
            } else {
                m
            })
        };
        match &e.kind {
            ExprKind::IntConst(v) => wrap(*v as i128, e.ty),
            ExprKind::Cast(k, x) => match k {
                CastKind::IntToInt | CastKind::NoOp => wrap(self.const_int(x)?, e.ty),
                CastKind::ToBool => Some(
                    (self
                        .const_int(x)
                        .or_else(|| self.const_float(x).map(|f| (f != 0.0) as i128))?
                        != 0) as i128,
                ),
                CastKind::FloatToInt => {
                    let f = self.const_float(x)?;
                    wrap(f as i128, e.ty)
                }
                _ => None,
            },
            ExprKind::Unary(op, x) => {
                let v = self.const_int(x)?;
                match op {
                    UnaryOp::Neg => wrap(v.wrapping_neg(), e.ty),
                    UnaryOp::BitNot => wrap(!v, e.ty),
                    UnaryOp::LogNot => Some((v == 0) as i128),
                }
            }
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.const_int(a)?, self.const_int(b)?);
                let v = match op {
                    BinOp::Add => x.wrapping_add(y),
                    BinOp::Sub => x.wrapping_sub(y),
                    BinOp::Mul => x.wrapping_mul(y),
                    BinOp::Div => {
                        if y == 0 {
                            return None;
                        }
                        x / y
                    }
                    BinOp::Rem => {
                        if y == 0 {
                            return None;
                        }
                        x % y
                    }
                    BinOp::Shl => x.wrapping_shl((y & 63) as u32),
                    BinOp::Shr => x >> (y & 63),
                    BinOp::BitAnd => x & y,
                    BinOp::BitOr => x | y,
                    BinOp::BitXor => x ^ y,
                    BinOp::Lt => return Some((x < y) as i128),
                    BinOp::Gt => return Some((x > y) as i128),
                    BinOp::Le => return Some((x <= y) as i128),
                    BinOp::Ge => return Some((x >= y) as i128),
                    BinOp::Eq => return Some((x == y) as i128),
                    BinOp::Ne => return Some((x != y) as i128),
                    BinOp::LogAnd => return Some((x != 0 && y != 0) as i128),
                    BinOp::LogOr => return Some((x != 0 || y != 0) as i128),
                };
                wrap(v, e.ty)
            }
            ExprKind::Cond(c, a, b) => {
                if self.const_int(c)? != 0 {
                    self.const_int(a)
                } else {
                    self.const_int(b)
                }
            }
            ExprKind::Comma(..) => None,
            _ => None,
        }
    }

    pub fn const_float(&self, e: &Expr) -> Option<f64> {
        match &e.kind {
            ExprKind::FloatConst(v) => Some(*v),
            ExprKind::Cast(CastKind::FloatToFloat | CastKind::NoOp, x) => self.const_float(x),
            ExprKind::Cast(CastKind::IntToFloat, x) => self.const_int(x).map(|v| v as f64),
            ExprKind::Unary(UnaryOp::Neg, x) => self.const_float(x).map(|v| -v),
            _ => None,
        }
    }
}
