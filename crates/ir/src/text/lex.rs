//! The lexer of the IR text: words (names, numbers, types, opcodes), `@names`, strings,
//! punctuation and `;` comments, each token with its 1-based line and column.

use std::fmt;

use super::parse::ParseError;

#[derive(Clone, PartialEq, Debug)]
pub(super) enum Tok {
    Word(String),
    At(String),
    Str(String),
    LParen,
    RParen,
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    Comma,
    Colon,
    Eq,
    Arrow,
    Eof,
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Word(w) => write!(f, "`{w}`"),
            Tok::At(w) => write!(f, "`@{w}`"),
            Tok::Str(_) => write!(f, "a string"),
            Tok::LParen => write!(f, "`(`"),
            Tok::RParen => write!(f, "`)`"),
            Tok::LBrace => write!(f, "`{{`"),
            Tok::RBrace => write!(f, "`}}`"),
            Tok::LBracket => write!(f, "`[`"),
            Tok::RBracket => write!(f, "`]`"),
            Tok::Comma => write!(f, "`,`"),
            Tok::Colon => write!(f, "`:`"),
            Tok::Eq => write!(f, "`=`"),
            Tok::Arrow => write!(f, "`->`"),
            Tok::Eof => write!(f, "end of input"),
        }
    }
}

fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || c == b'$'
}

pub(super) fn lex(src: &str) -> Result<Vec<(Tok, u32, u32)>, ParseError> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let (mut i, mut line, mut col) = (0usize, 1u32, 1u32);
    let err = |line, col, m: &str| {
        Err(ParseError {
            line,
            col,
            message: m.to_string(),
        })
    };
    while i < b.len() {
        let c = b[i];
        let (l0, c0) = (line, col);
        let start = i;
        match c {
            b'\n' => {
                line += 1;
                col = 1;
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' => {
                i += 1;
                col += 1;
                continue;
            }
            b';' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'(' | b')' | b'{' | b'}' | b'[' | b']' | b',' | b':' | b'=' => {
                let t = match c {
                    b'(' => Tok::LParen,
                    b')' => Tok::RParen,
                    b'{' => Tok::LBrace,
                    b'}' => Tok::RBrace,
                    b'[' => Tok::LBracket,
                    b']' => Tok::RBracket,
                    b',' => Tok::Comma,
                    b':' => Tok::Colon,
                    _ => Tok::Eq,
                };
                out.push((t, l0, c0));
                i += 1;
            }
            b'-' if b.get(i + 1) == Some(&b'>') => {
                out.push((Tok::Arrow, l0, c0));
                i += 2;
            }
            b'@' => {
                i += 1;
                while i < b.len() && is_word(b[i]) {
                    i += 1;
                }
                if i == start + 1 {
                    return err(l0, c0, "expected a name after `@`");
                }
                out.push((Tok::At(src[start + 1..i].to_string()), l0, c0));
            }
            b'"' => {
                i += 1;
                let mut bytes = Vec::new();
                loop {
                    match b.get(i) {
                        None | Some(b'\n') => return err(l0, c0, "unterminated string"),
                        Some(b'"') => {
                            i += 1;
                            break;
                        }
                        Some(b'\\') => match b.get(i + 1) {
                            Some(b'"') | Some(b'\\') => {
                                bytes.push(b[i + 1]);
                                i += 2;
                            }
                            Some(b'x') => {
                                let hex = src
                                    .get(i + 2..i + 4)
                                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                                match hex {
                                    Some(h) => bytes.push(h),
                                    None => return err(l0, c0, "bad `\\x` escape in string"),
                                }
                                i += 4;
                            }
                            _ => return err(l0, c0, "bad escape in string"),
                        },
                        Some(&ch) => {
                            bytes.push(ch);
                            i += 1;
                        }
                    }
                }
                match String::from_utf8(bytes) {
                    Ok(s) => out.push((Tok::Str(s), l0, c0)),
                    Err(_) => return err(l0, c0, "string is not UTF-8"),
                }
            }
            c if is_word(c) || c == b'-' => {
                i += 1;
                let numeric =
                    c.is_ascii_digit() || (c == b'-' && b.get(i).is_some_and(u8::is_ascii_digit));
                while i < b.len() {
                    let ch = b[i];
                    let exp_sign = (ch == b'+' || ch == b'-')
                        && numeric
                        && matches!(b[i - 1], b'e' | b'E')
                        && !src[start..i].contains("0x");
                    if is_word(ch) || exp_sign {
                        i += 1;
                    } else {
                        break;
                    }
                }
                out.push((Tok::Word(src[start..i].to_string()), l0, c0));
            }
            _ => {
                let ch = src[i..].chars().next().unwrap_or('?');
                return err(l0, c0, &format!("unexpected character `{ch}`"));
            }
        }
        col += (i - start) as u32;
    }
    out.push((Tok::Eof, line, col));
    Ok(out)
}
