//! `#if` constant expressions (C99 6.10.1): integer arithmetic in intmax_t/uintmax_t with the
//! usual promotion to unsigned, over tokens that have already been macro-expanded and had
//! `defined` replaced.

use crate::diag::{Diags, Loc};
use crate::lex::{Tok, Token};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Val {
    pub v: i64,
    pub unsigned: bool,
}

pub struct Eval<'a> {
    pub toks: &'a [Token],
    pub texts: &'a [String],
    pub pos: usize,
    pub diags: &'a mut Diags,
    pub at: Loc,
    pub failed: bool,
    depth: u32,
}

impl<'a> Eval<'a> {
    pub fn new(toks: &'a [Token], texts: &'a [String], diags: &'a mut Diags, at: Loc) -> Self {
        Eval {
            toks,
            texts,
            pos: 0,
            diags,
            at,
            failed: false,
            depth: 0,
        }
    }

    fn peek(&self) -> Tok {
        self.toks.get(self.pos).map_or(Tok::Eof, |t| t.kind)
    }
    fn loc(&self) -> Loc {
        self.toks.get(self.pos).map_or(self.at, |t| t.loc)
    }
    fn fail(&mut self, loc: Loc, msg: &str) {
        if !self.failed {
            self.diags.error(loc, msg);
        }
        self.failed = true;
    }

    /// Evaluates the whole line; `None` after an error (already reported).
    pub fn run(mut self) -> Option<bool> {
        if self.toks.is_empty() {
            self.fail(self.at, "expected value in expression");
            return None;
        }
        let v = self.cond();
        if !self.failed && self.pos < self.toks.len() {
            let l = self.loc();
            self.fail(
                l,
                "token is not a valid binary operator in a preprocessor subexpression",
            );
        }
        if self.failed {
            None
        } else {
            Some(v.v != 0)
        }
    }

    fn cond(&mut self) -> Val {
        let c = self.binary(0);
        if self.peek() == Tok::Question {
            self.pos += 1;
            let a = self.cond();
            if self.peek() != Tok::Colon {
                let l = self.loc();
                self.fail(l, "expected ':' in conditional expression");
                return c;
            }
            self.pos += 1;
            let b = self.cond();
            let u = a.unsigned || b.unsigned;
            let r = if c.v != 0 { a } else { b };
            return Val {
                v: r.v,
                unsigned: u,
            };
        }
        c
    }

    fn prec(t: Tok) -> Option<u8> {
        use Tok::*;
        Some(match t {
            PipePipe => 1,
            AmpAmp => 2,
            Pipe => 3,
            Caret => 4,
            Amp => 5,
            EqEq | Ne => 6,
            Lt | Gt | Le | Ge => 7,
            Shl | Shr => 8,
            Plus | Minus => 9,
            Star | Slash | Percent => 10,
            Comma => 0,
            _ => return None,
        })
    }

    fn binary(&mut self, min: u8) -> Val {
        let mut lhs = self.unary();
        while let Some(p) = Self::prec(self.peek()) {
            if p < min || self.failed {
                break;
            }
            let op_tok = self.toks[self.pos];
            self.pos += 1;
            let rhs = self.binary(p + 1);
            lhs = self.apply(op_tok, lhs, rhs);
        }
        lhs
    }

    fn apply(&mut self, op: Token, a: Val, b: Val) -> Val {
        use Tok::*;
        let u = a.unsigned || b.unsigned;
        let (x, y) = (a.v, b.v);
        let bool_val = |c: bool| Val {
            v: c as i64,
            unsigned: false,
        };
        match op.kind {
            PipePipe => bool_val(x != 0 || y != 0),
            AmpAmp => bool_val(x != 0 && y != 0),
            Comma => b,
            EqEq => bool_val(x == y),
            Ne => bool_val(x != y),
            Lt | Gt | Le | Ge => {
                let ord = if u {
                    (x as u64).cmp(&(y as u64))
                } else {
                    x.cmp(&y)
                };
                bool_val(match op.kind {
                    Lt => ord.is_lt(),
                    Gt => ord.is_gt(),
                    Le => ord.is_le(),
                    _ => ord.is_ge(),
                })
            }
            Pipe => Val {
                v: x | y,
                unsigned: u,
            },
            Caret => Val {
                v: x ^ y,
                unsigned: u,
            },
            Amp => Val {
                v: x & y,
                unsigned: u,
            },
            Shl => Val {
                v: x.wrapping_shl((y & 63) as u32),
                unsigned: a.unsigned,
            },
            Shr => {
                let v = if a.unsigned {
                    ((x as u64) >> (y & 63)) as i64
                } else {
                    x >> (y & 63)
                };
                Val {
                    v,
                    unsigned: a.unsigned,
                }
            }
            Plus => Val {
                v: x.wrapping_add(y),
                unsigned: u,
            },
            Minus => Val {
                v: x.wrapping_sub(y),
                unsigned: u,
            },
            Star => Val {
                v: x.wrapping_mul(y),
                unsigned: u,
            },
            Slash | Percent => {
                if y == 0 {
                    let msg = if op.kind == Slash {
                        "division by zero in preprocessor expression"
                    } else {
                        "remainder by zero in preprocessor expression"
                    };
                    self.fail(op.loc, msg);
                    return Val { v: 0, unsigned: u };
                }
                let v = if u {
                    let (p, q) = (x as u64, y as u64);
                    (if op.kind == Slash { p / q } else { p % q }) as i64
                } else if op.kind == Slash {
                    x.wrapping_div(y)
                } else {
                    x.wrapping_rem(y)
                };
                Val { v, unsigned: u }
            }
            _ => a,
        }
    }

    fn unary(&mut self) -> Val {
        self.depth += 1;
        if self.depth > 256 {
            let l = self.loc();
            self.fail(l, "preprocessor expression nested too deeply");
            return Val {
                v: 0,
                unsigned: false,
            };
        }
        let r = self.unary_inner();
        self.depth -= 1;
        r
    }

    fn unary_inner(&mut self) -> Val {
        let Some(t) = self.toks.get(self.pos).copied() else {
            let l = self.loc();
            self.fail(l, "expected value in expression");
            return Val {
                v: 0,
                unsigned: false,
            };
        };
        self.pos += 1;
        match t.kind {
            Tok::Plus => self.unary(),
            Tok::Minus => {
                let v = self.unary();
                Val {
                    v: v.v.wrapping_neg(),
                    unsigned: v.unsigned,
                }
            }
            Tok::Tilde => {
                let v = self.unary();
                Val {
                    v: !v.v,
                    unsigned: v.unsigned,
                }
            }
            Tok::Bang => {
                let v = self.unary();
                Val {
                    v: (v.v == 0) as i64,
                    unsigned: false,
                }
            }
            Tok::LParen => {
                let v = self.cond();
                if self.peek() != Tok::RParen {
                    let l = self.loc();
                    self.fail(l, "expected ')' in preprocessor expression");
                } else {
                    self.pos += 1;
                }
                v
            }
            // C99 6.10.1p4: remaining identifiers are replaced with 0.
            Tok::Ident => Val {
                v: 0,
                unsigned: false,
            },
            Tok::Number => {
                let text = &self.texts[self.pos - 1];
                match parse_int(text) {
                    Some((v, unsigned)) => Val {
                        v: v as i64,
                        unsigned,
                    },
                    None => {
                        let msg = if text.contains(['.'])
                            || (!text.starts_with("0x")
                                && !text.starts_with("0X")
                                && text.contains(['e', 'E']))
                        {
                            "floating point literal in preprocessor expression"
                        } else {
                            "invalid integer constant in preprocessor expression"
                        };
                        self.fail(t.loc, msg);
                        Val {
                            v: 0,
                            unsigned: false,
                        }
                    }
                }
            }
            Tok::Char => {
                let text = &self.texts[self.pos - 1];
                Val {
                    v: char_value(text).unwrap_or(0),
                    unsigned: false,
                }
            }
            _ => {
                self.fail(t.loc, "invalid token at start of a preprocessor expression");
                Val {
                    v: 0,
                    unsigned: false,
                }
            }
        }
    }
}

/// Parses an integer constant with its suffixes (6.4.4.1); returns the value and whether the
/// suffix or the value makes it unsigned.
pub fn parse_int(text: &str) -> Option<(u64, bool)> {
    let lower = text.to_ascii_lowercase();
    let body = lower.trim_end_matches(['u', 'l']);
    let suffix = &lower[body.len()..];
    if !matches!(suffix, "" | "u" | "l" | "ul" | "lu" | "ll" | "ull" | "llu") {
        return None;
    }
    let (digits, radix) = if let Some(h) = body.strip_prefix("0x") {
        (h, 16)
    } else if let Some(b) = body.strip_prefix("0b") {
        (b, 2)
    } else if body.len() > 1 && body.starts_with('0') {
        (&body[1..], 8)
    } else {
        (body, 10)
    };
    if digits.is_empty() {
        return None;
    }
    let v = u64::from_str_radix(digits, radix).ok()?;
    Some((v, suffix.contains('u') || v > i64::MAX as u64))
}

/// The value of a character constant such as `'a'` or `'\n'`.
pub fn char_value(text: &str) -> Option<i64> {
    let inner = text.strip_prefix('\'')?.strip_suffix('\'')?;
    let bytes = unescape(inner)?;
    match bytes.as_slice() {
        [b] => Some(*b as i8 as i64),
        _ => None,
    }
}

/// Decodes C escape sequences (6.4.4.4); `None` on a malformed escape.
pub fn unescape(s: &str) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        i += 1;
        let c = *b.get(i)?;
        i += 1;
        let v = match c {
            b'n' => b'\n',
            b't' => b'\t',
            b'r' => b'\r',
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            b'\\' | b'\'' | b'"' | b'?' => c,
            b'x' => {
                let start = i;
                while i < b.len() && b[i].is_ascii_hexdigit() {
                    i += 1;
                }
                if start == i {
                    return None;
                }
                u32::from_str_radix(&s[start..i], 16).ok()? as u8
            }
            b'0'..=b'7' => {
                let start = i - 1;
                while i < b.len() && i < start + 3 && (b'0'..=b'7').contains(&b[i]) {
                    i += 1;
                }
                u32::from_str_radix(&s[start..i], 8).ok()? as u8
            }
            _ => return None,
        };
        out.push(v);
    }
    Some(out)
}
