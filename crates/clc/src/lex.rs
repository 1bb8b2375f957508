//! The lexer: C99 preprocessing tokens (6.4) over one file's text. Tokens are small `Copy`
//! values that point back into the source map; identifiers are interned (no allocation per
//! token once a name has been seen). Keywords are identifiers here: the preprocessor must see
//! them as names, and the parser maps the reserved symbol numbers to keywords.

use crate::diag::Loc;
use crate::hash::FxHashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Tok {
    Eof,
    Ident,
    Number,
    Char,
    Str,
    /// A character that starts no token (reported where it is used).
    Unknown,
    /// `#pragma` payload passed on to the parser (text is the pragma's line).
    Pragma,
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Dot,
    Arrow,
    PlusPlus,
    MinusMinus,
    Amp,
    Star,
    Plus,
    Minus,
    Tilde,
    Bang,
    Slash,
    Percent,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    EqEq,
    Ne,
    Caret,
    Pipe,
    AmpAmp,
    PipePipe,
    Question,
    Colon,
    Semi,
    Ellipsis,
    Assign,
    StarAssign,
    SlashAssign,
    PercentAssign,
    PlusAssign,
    MinusAssign,
    ShlAssign,
    ShrAssign,
    AmpAssign,
    CaretAssign,
    PipeAssign,
    Comma,
    Hash,
    HashHash,
}

impl Tok {
    pub fn spelling(self) -> &'static str {
        use Tok::*;
        match self {
            Eof => "end of file",
            Ident => "identifier",
            Number => "number",
            Char => "character constant",
            Str => "string literal",
            Unknown => "unknown character",
            Pragma => "#pragma",
            LParen => "(",
            RParen => ")",
            LBracket => "[",
            RBracket => "]",
            LBrace => "{",
            RBrace => "}",
            Dot => ".",
            Arrow => "->",
            PlusPlus => "++",
            MinusMinus => "--",
            Amp => "&",
            Star => "*",
            Plus => "+",
            Minus => "-",
            Tilde => "~",
            Bang => "!",
            Slash => "/",
            Percent => "%",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            EqEq => "==",
            Ne => "!=",
            Caret => "^",
            Pipe => "|",
            AmpAmp => "&&",
            PipePipe => "||",
            Question => "?",
            Colon => ":",
            Semi => ";",
            Ellipsis => "...",
            Assign => "=",
            StarAssign => "*=",
            SlashAssign => "/=",
            PercentAssign => "%=",
            PlusAssign => "+=",
            MinusAssign => "-=",
            ShlAssign => "<<=",
            ShrAssign => ">>=",
            AmpAssign => "&=",
            CaretAssign => "^=",
            PipeAssign => "|=",
            Comma => ",",
            Hash => "#",
            HashHash => "##",
        }
    }
}

/// First token on its line.
pub const BOL: u8 = 1;
/// Preceded by white space.
pub const SPACE: u8 = 2;
/// An identifier that must not be macro-expanded again (C99 6.10.3.4p2).
pub const NOEXPAND: u8 = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: Tok,
    pub flags: u8,
    pub len: u32,
    pub loc: Loc,
    /// Interned name for identifiers; 0 otherwise.
    pub sym: u32,
}

impl Token {
    pub fn has(&self, flag: u8) -> bool {
        self.flags & flag != 0
    }
}

/// Interned identifier names. Symbols below [`crate::parse::KEYWORDS`]`.len()` are keywords.
#[derive(Debug, Default)]
pub struct Interner {
    map: FxHashMap<Box<str>, u32>,
    names: Vec<Box<str>>,
}

impl Interner {
    pub fn new(reserved: &[&str]) -> Self {
        let mut i = Interner::default();
        for k in reserved {
            i.intern(k);
        }
        i
    }
    pub fn intern(&mut self, s: &str) -> u32 {
        if let Some(&id) = self.map.get(s) {
            return id;
        }
        let id = self.names.len() as u32;
        self.names.push(s.into());
        self.map.insert(s.into(), id);
        id
    }
    pub fn get(&self, s: &str) -> Option<u32> {
        self.map.get(s).copied()
    }
    pub fn name(&self, sym: u32) -> &str {
        &self.names[sym as usize]
    }
}

/// Where a lexer stands in one file.
#[derive(Clone, Copy, Debug)]
pub struct LexState {
    pub file: u32,
    pub pos: usize,
    pub bol: bool,
}

impl LexState {
    pub fn new(file: u32) -> Self {
        LexState {
            file,
            pos: 0,
            bol: true,
        }
    }
}

/// Skips a backslash-newline at `p`; returns the position after any splices.
#[inline]
fn splice(s: &[u8], mut p: usize) -> usize {
    while p < s.len() && s[p] == b'\\' {
        if s.get(p + 1) == Some(&b'\n') {
            p += 2;
        } else if s.get(p + 1) == Some(&b'\r') && s.get(p + 2) == Some(&b'\n') {
            p += 3;
        } else {
            break;
        }
    }
    p
}

#[inline]
fn at(s: &[u8], p: usize) -> (u8, usize) {
    let p = splice(s, p);
    match s.get(p) {
        Some(&c) => (c, p + 1),
        None => (0, p),
    }
}

fn is_ident_char(c: u8) -> bool {
    c == b'_' || c.is_ascii_alphanumeric() || c >= 0x80
}

/// The text of a token with line splices removed.
pub fn clean(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains('\\') && (text.contains("\\\n") || text.contains("\\\r\n")) {
        std::borrow::Cow::Owned(text.replace("\\\r\n", "").replace("\\\n", ""))
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// Lexes the next token from `text`. Returns `Eof` at the end. Unterminated comments and
/// literals come back as `Unknown` with a length covering what was read, and `errors` gets a
/// message.
pub fn next_token(
    text: &str,
    st: &mut LexState,
    interner: &mut Interner,
    errors: &mut Vec<(u32, &'static str)>,
) -> Token {
    let s = text.as_bytes();
    let mut flags = 0u8;
    let mut p = st.pos;
    // A UTF-8 byte order mark at the start of a file is not part of the program.
    if p == 0 && s.starts_with(&[0xEF, 0xBB, 0xBF]) {
        p = 3;
    }
    // White space and comments.
    loop {
        let (c, n) = at(s, p);
        match c {
            b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {
                flags |= SPACE;
                p = n;
            }
            b'\n' => {
                st.bol = true;
                flags |= SPACE;
                p = n;
            }
            b'/' => {
                let (c2, n2) = at(s, n);
                if c2 == b'/' {
                    p = n2;
                    loop {
                        let (c3, n3) = at(s, p);
                        if c3 == b'\n' || (c3 == 0 && n3 >= s.len()) {
                            break;
                        }
                        p = n3;
                    }
                    flags |= SPACE;
                } else if c2 == b'*' {
                    let start = p;
                    p = n2;
                    let mut closed = false;
                    while p < s.len() {
                        let (c3, n3) = at(s, p);
                        if c3 == b'*' {
                            let (c4, n4) = at(s, n3);
                            if c4 == b'/' {
                                p = n4;
                                closed = true;
                                break;
                            }
                        }
                        p = n3;
                    }
                    if !closed {
                        errors.push((start as u32, "unterminated /* comment"));
                    }
                    flags |= SPACE;
                } else {
                    break;
                }
            }
            0 if n >= s.len() => {
                p = s.len();
                break;
            }
            _ => break,
        }
    }
    if st.bol {
        flags |= BOL;
    }
    let start = splice(s, p);
    st.bol = false;
    let mk = |kind: Tok, end: usize, sym: u32, st: &mut LexState| {
        st.pos = end;
        Token {
            kind,
            flags,
            len: (end - start) as u32,
            loc: Loc {
                file: st.file,
                offset: start as u32,
                exp: 0,
            },
            sym,
        }
    };
    if start >= s.len() {
        st.bol = true;
        return mk(Tok::Eof, s.len(), 0, st);
    }
    let (c, mut p) = at(s, start);
    // Identifiers.
    if c == b'_' || c.is_ascii_alphabetic() || c >= 0x80 {
        let mut simple = true;
        loop {
            let q = splice(s, p);
            if q != p {
                simple = false;
            }
            match s.get(q) {
                Some(&c) if is_ident_char(c) => p = q + 1,
                _ => break,
            }
        }
        let raw = &text[start..p];
        let sym = if simple {
            interner.intern(raw)
        } else {
            interner.intern(&clean(raw))
        };
        return mk(Tok::Ident, p, 0, st).with_sym(sym);
    }
    // pp-numbers (6.4.8).
    if c.is_ascii_digit() || (c == b'.' && at(s, p).0.is_ascii_digit()) {
        loop {
            let (d, n) = at(s, p);
            if matches!(d, b'e' | b'E' | b'p' | b'P') {
                let (sign, n2) = at(s, n);
                p = if sign == b'+' || sign == b'-' { n2 } else { n };
            } else if is_ident_char(d) || d == b'.' {
                p = n;
            } else {
                break;
            }
        }
        return mk(Tok::Number, p, 0, st);
    }
    // Character and string literals.
    if c == b'\'' || c == b'"' {
        loop {
            let (d, n) = at(s, p);
            if d == c {
                p = n;
                break;
            }
            if d == b'\n' || (d == 0 && n >= s.len()) {
                errors.push((
                    start as u32,
                    if c == b'"' {
                        "missing terminating '\"' character"
                    } else {
                        "missing terminating ' character"
                    },
                ));
                return mk(Tok::Unknown, p, 0, st);
            }
            p = n;
            if d == b'\\' {
                let (_, n2) = at(s, p);
                p = n2;
            }
        }
        return mk(if c == b'"' { Tok::Str } else { Tok::Char }, p, 0, st);
    }
    let (c1, p1) = at(s, p);
    let (c2, p2) = at(s, p1);
    use Tok::*;
    let (kind, end) = match (c, c1, c2) {
        (b'.', b'.', b'.') => (Ellipsis, p2),
        (b'<', b'<', b'=') => (ShlAssign, p2),
        (b'>', b'>', b'=') => (ShrAssign, p2),
        (b'-', b'>', _) => (Arrow, p1),
        (b'+', b'+', _) => (PlusPlus, p1),
        (b'-', b'-', _) => (MinusMinus, p1),
        (b'<', b'<', _) => (Shl, p1),
        (b'>', b'>', _) => (Shr, p1),
        (b'<', b'=', _) => (Le, p1),
        (b'>', b'=', _) => (Ge, p1),
        (b'=', b'=', _) => (EqEq, p1),
        (b'!', b'=', _) => (Ne, p1),
        (b'&', b'&', _) => (AmpAmp, p1),
        (b'|', b'|', _) => (PipePipe, p1),
        (b'*', b'=', _) => (StarAssign, p1),
        (b'/', b'=', _) => (SlashAssign, p1),
        (b'%', b'=', _) => (PercentAssign, p1),
        (b'+', b'=', _) => (PlusAssign, p1),
        (b'-', b'=', _) => (MinusAssign, p1),
        (b'&', b'=', _) => (AmpAssign, p1),
        (b'^', b'=', _) => (CaretAssign, p1),
        (b'|', b'=', _) => (PipeAssign, p1),
        (b'#', b'#', _) => (HashHash, p1),
        // Digraphs (C99 6.4.6p3).
        (b'%', b':', b'%') if at(s, p2).0 == b':' => (HashHash, at(s, p2).1),
        (b'%', b':', _) => (Hash, p1),
        (b'<', b':', _) => (LBracket, p1),
        (b':', b'>', _) => (RBracket, p1),
        (b'<', b'%', _) => (LBrace, p1),
        (b'%', b'>', _) => (RBrace, p1),
        (b'(', _, _) => (LParen, p),
        (b')', _, _) => (RParen, p),
        (b'[', _, _) => (LBracket, p),
        (b']', _, _) => (RBracket, p),
        (b'{', _, _) => (LBrace, p),
        (b'}', _, _) => (RBrace, p),
        (b'.', _, _) => (Dot, p),
        (b'&', _, _) => (Amp, p),
        (b'*', _, _) => (Star, p),
        (b'+', _, _) => (Plus, p),
        (b'-', _, _) => (Minus, p),
        (b'~', _, _) => (Tilde, p),
        (b'!', _, _) => (Bang, p),
        (b'/', _, _) => (Slash, p),
        (b'%', _, _) => (Percent, p),
        (b'<', _, _) => (Lt, p),
        (b'>', _, _) => (Gt, p),
        (b'^', _, _) => (Caret, p),
        (b'|', _, _) => (Pipe, p),
        (b'?', _, _) => (Question, p),
        (b':', _, _) => (Colon, p),
        (b';', _, _) => (Semi, p),
        (b'=', _, _) => (Assign, p),
        (b',', _, _) => (Comma, p),
        (b'#', _, _) => (Hash, p),
        _ => {
            // Skip one whole UTF-8 character.
            let mut e = start + 1;
            while e < s.len() && (s[e] & 0xC0) == 0x80 {
                e += 1;
            }
            (Unknown, e)
        }
    };
    mk(kind, end, 0, st)
}

impl Token {
    fn with_sym(mut self, sym: u32) -> Token {
        self.sym = sym;
        self
    }
}

/// Reads a `<...>` header name right after `#include` (6.4.7); returns the name and moves the
/// lexer past `>`, or `None` if the line has no `>`.
pub fn header_name(text: &str, st: &mut LexState) -> Option<String> {
    let s = text.as_bytes();
    let mut p = st.pos;
    while p < s.len() && (s[p] == b' ' || s[p] == b'\t') {
        p += 1;
    }
    if s.get(p) != Some(&b'<') {
        return None;
    }
    let start = p + 1;
    let mut e = start;
    while e < s.len() && s[e] != b'>' && s[e] != b'\n' {
        e += 1;
    }
    if s.get(e) != Some(&b'>') {
        return None;
    }
    st.pos = e + 1;
    Some(text[start..e].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lex_all(text: &str) -> Vec<(Tok, String)> {
        let mut i = Interner::default();
        let mut st = LexState::new(0);
        let mut errs = Vec::new();
        let mut out = Vec::new();
        loop {
            let t = next_token(text, &mut st, &mut i, &mut errs);
            if t.kind == Tok::Eof {
                break;
            }
            let s = t.loc.offset as usize;
            out.push((t.kind, clean(&text[s..s + t.len as usize]).into_owned()));
        }
        out
    }

    #[test]
    fn punctuators_longest_match() {
        let k: Vec<Tok> = lex_all("a<<=b>>c...d->e##").iter().map(|t| t.0).collect();
        use Tok::*;
        assert_eq!(
            k,
            vec![Ident, ShlAssign, Ident, Shr, Ident, Ellipsis, Ident, Arrow, Ident, HashHash]
        );
    }

    #[test]
    fn numbers_and_literals() {
        let t = lex_all("0x1.8p+3f 1e-5 .5h 10UL 'a' \"s\\\"t\"");
        let texts: Vec<&str> = t.iter().map(|x| x.1.as_str()).collect();
        assert_eq!(
            texts,
            vec!["0x1.8p+3f", "1e-5", ".5h", "10UL", "'a'", "\"s\\\"t\""]
        );
    }

    #[test]
    fn comments_and_splices() {
        let t = lex_all("ab\\\ncd /* x\n y */ e // z\nf");
        let texts: Vec<&str> = t.iter().map(|x| x.1.as_str()).collect();
        assert_eq!(texts, vec!["abcd", "e", "f"]);
    }

    #[test]
    fn unterminated_comment_is_reported() {
        let mut i = Interner::default();
        let mut st = LexState::new(0);
        let mut errs = Vec::new();
        let t = next_token("/* abc", &mut st, &mut i, &mut errs);
        assert_eq!(t.kind, Tok::Eof);
        assert_eq!(errs.len(), 1);
    }

    #[test]
    fn byte_order_mark_is_skipped() {
        let t = lex_all("\u{feff}int x;");
        assert_eq!(t[0], (Tok::Ident, "int".to_string()));
    }

    #[test]
    fn digraphs() {
        let k: Vec<Tok> = lex_all("<: :> <% %> %: %:%:").iter().map(|t| t.0).collect();
        use Tok::*;
        assert_eq!(k, vec![LBracket, RBracket, LBrace, RBrace, Hash, HashHash]);
    }

    #[test]
    fn token_is_small() {
        assert!(std::mem::size_of::<Token>() <= 24);
    }
}
