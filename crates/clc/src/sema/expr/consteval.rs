//! Constant evaluation: the value of an integer or floating constant expression (array sizes,
//! case labels, enumerators, static assertions, attribute arguments).

use super::*;

impl Sema<'_> {
    /// Integer constant expression value (C99 6.6), or None when not constant.
    pub fn const_int(&self, e: &Expr) -> Option<i128> {
        let wrap = |v: i128, t: TypeId| self.wrap_int(v, t);
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
            ExprKind::Binary(..) => {
                // A left-deep chain (`1 + 2 + 3 + ...`) is evaluated with a loop over its left
                // spine, so that its length takes no stack.
                let (left, mut spine) = binary_spine(e, |_| true);
                let mut acc = self.const_int(left)?;
                while let Some((op, b, ty)) = spine.pop() {
                    acc = self.const_binary(op, acc, self.const_int(b)?, ty)?;
                }
                Some(acc)
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

    /// `x op y` in an integer constant expression of type `ty`.
    fn const_binary(&self, op: BinOp, x: i128, y: i128, ty: TypeId) -> Option<i128> {
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
        self.wrap_int(v, ty)
    }

    /// `v` wrapped to the integer type `t` (None when `t` is not an integer type).
    fn wrap_int(&self, v: i128, t: TypeId) -> Option<i128> {
        let (bits, signed) = match self.types.get(t) {
            Type::Scalar(Scalar::Bool) => return Some((v != 0) as i128),
            Type::Scalar(s) if s.is_integer() => (s.size() * 8, s.is_signed()),
            Type::Enum(_) => (32, true),
            _ => return None,
        };
        let m = v & ((1i128 << bits) - 1);
        Some(if signed && m >= 1i128 << (bits - 1) {
            m - (1i128 << bits)
        } else {
            m
        })
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
