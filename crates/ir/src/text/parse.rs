//! The parser. It builds exactly what the printer printed, numbering included; it checks the
//! syntax and the references (names, defined values and blocks), and leaves the rest of the
//! contract to the verifier. It never panics on any input.

use std::collections::{HashMap, HashSet};
use std::fmt;

use crate::dfg::{BlockData, ValueData, ValueDef};
use crate::entity::{Block, Func, Global, Inst, StackSlot, Value};
use crate::function::{
    AccessQualifier, ArgKind, Function, KernelArg, KernelInfo, Signature, StackSlotData,
    TypeQualifiers,
};
use crate::inst::*;
use crate::module::{GlobalData, Module};
use crate::types::{AddrSpace, Type};

/// A syntax or reference error, with its 1-based line and column.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseError {
    /// The line.
    pub line: u32,
    /// The column.
    pub col: u32,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for ParseError {}

#[derive(Clone, PartialEq, Debug)]
enum Tok {
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

fn lex(src: &str) -> Result<Vec<(Tok, u32, u32)>, ParseError> {
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

/// Parses the text form of a module.
pub fn parse_module(src: &str) -> Result<Module, ParseError> {
    let toks = lex(src)?;
    let mut p = Parser {
        toks,
        pos: 0,
        module: Module::new(),
        funcs: HashMap::new(),
        globals: HashMap::new(),
    };
    p.scan_names()?;
    p.module_items()?;
    Ok(p.module)
}

struct Parser {
    toks: Vec<(Tok, u32, u32)>,
    pos: usize,
    module: Module,
    funcs: HashMap<String, Func>,
    globals: HashMap<String, Global>,
}

type PResult<T> = Result<T, ParseError>;

/// The state of one function body being parsed.
#[derive(Default)]
struct Body {
    defined_values: HashSet<Value>,
    used_values: Vec<(Value, u32, u32)>,
    defined_blocks: HashSet<Block>,
    used_blocks: Vec<(Block, u32, u32)>,
}

impl Parser {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos.min(self.toks.len() - 1)].0
    }

    fn peek_at(&self, n: usize) -> &Tok {
        &self.toks[(self.pos + n).min(self.toks.len() - 1)].0
    }

    fn here(&self) -> (u32, u32) {
        let t = &self.toks[self.pos.min(self.toks.len() - 1)];
        (t.1, t.2)
    }

    fn next(&mut self) -> Tok {
        let t = self.peek().clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }

    fn error<T>(&self, message: impl Into<String>) -> PResult<T> {
        let (line, col) = self.here();
        Err(ParseError {
            line,
            col,
            message: message.into(),
        })
    }

    fn expect(&mut self, t: Tok) -> PResult<()> {
        if *self.peek() == t {
            self.next();
            Ok(())
        } else {
            self.error(format!("expected {t}, found {}", self.peek()))
        }
    }

    fn eat(&mut self, t: Tok) -> bool {
        if *self.peek() == t {
            self.next();
            true
        } else {
            false
        }
    }

    fn word(&mut self) -> PResult<String> {
        match self.peek().clone() {
            Tok::Word(w) => {
                self.next();
                Ok(w)
            }
            t => self.error(format!("expected a word, found {t}")),
        }
    }

    fn keyword(&mut self, k: &str) -> PResult<()> {
        match self.peek() {
            Tok::Word(w) if w == k => {
                self.next();
                Ok(())
            }
            t => self.error(format!("expected `{k}`, found {t}")),
        }
    }

    fn string(&mut self) -> PResult<String> {
        match self.peek().clone() {
            Tok::Str(s) => {
                self.next();
                Ok(s)
            }
            t => self.error(format!("expected a string, found {t}")),
        }
    }

    fn name(&mut self) -> PResult<String> {
        match self.peek().clone() {
            Tok::At(s) => {
                self.next();
                Ok(s)
            }
            t => self.error(format!("expected an `@name`, found {t}")),
        }
    }

    fn u32(&mut self) -> PResult<u32> {
        let w = self.word()?;
        match w.parse::<u32>() {
            Ok(n) => Ok(n),
            Err(_) => {
                self.pos -= 1;
                self.error(format!("expected an unsigned number, found `{w}`"))
            }
        }
    }

    fn ty(&mut self) -> PResult<Type> {
        let w = self.word()?;
        match Type::parse(&w) {
            Some(t) => Ok(t),
            None => {
                self.pos -= 1;
                self.error(format!("unknown type `{w}`"))
            }
        }
    }

    /// Registers every function and global name first, so that uses may precede definitions.
    fn scan_names(&mut self) -> PResult<()> {
        let mut depth = 0i32;
        let mut i = 0;
        while i < self.toks.len() {
            let (t, line, col) = &self.toks[i];
            match t {
                Tok::LBrace => depth += 1,
                Tok::RBrace => depth -= 1,
                Tok::Word(w)
                    if depth == 0
                        && matches!(w.as_str(), "func" | "kernel" | "declare" | "global") =>
                {
                    if let Some((Tok::At(name), _, _)) = self.toks.get(i + 1) {
                        let dup = if w == "global" {
                            let g = self.module.globals.push(GlobalData {
                                name: name.clone(),
                                space: AddrSpace::Global,
                                size: 0,
                                align: 1,
                                init: None,
                                external: false,
                            });
                            self.globals.insert(name.clone(), g).is_some()
                        } else {
                            let f = self
                                .module
                                .funcs
                                .push(Function::new(name, Signature::default()));
                            self.funcs.insert(name.clone(), f).is_some()
                        };
                        if dup {
                            let what = if w == "global" { "global" } else { "function" };
                            return Err(ParseError {
                                line: *line,
                                col: *col,
                                message: format!("{what} @{name} is defined twice"),
                            });
                        }
                    }
                }
                _ => {}
            }
            i += 1;
        }
        Ok(())
    }

    fn module_items(&mut self) -> PResult<()> {
        let (mut nf, mut ng) = (0u32, 0u32);
        loop {
            let w = match self.peek() {
                Tok::Eof => return Ok(()),
                Tok::Word(w) => w.clone(),
                t => {
                    return self.error(format!(
                        "expected `func`, `kernel`, `declare` or `global`, found {t}"
                    ))
                }
            };
            self.next();
            match w.as_str() {
                "global" => {
                    let g = Global::from_u32(ng);
                    ng += 1;
                    self.global(g)?;
                }
                "func" | "kernel" | "declare" => {
                    let f = Func::from_u32(nf);
                    nf += 1;
                    self.function(f, &w)?;
                }
                _ => {
                    self.pos -= 1;
                    return self.error(format!(
                        "expected `func`, `kernel`, `declare` or `global`, found `{w}`"
                    ));
                }
            }
        }
    }

    fn global(&mut self, g: Global) -> PResult<()> {
        let name = self.name()?;
        self.expect(Tok::Colon)?;
        let sw = self.word()?;
        let Some(space) = AddrSpace::from_name(&sw) else {
            self.pos -= 1;
            return self.error(format!("unknown address space `{sw}`"));
        };
        self.expect(Tok::Comma)?;
        self.keyword("size")?;
        let size = self.u32()?;
        self.expect(Tok::Comma)?;
        self.keyword("align")?;
        let align = self.u32()?;
        let mut init = None;
        let mut external = false;
        while self.eat(Tok::Comma) {
            let w = self.word()?;
            match w.as_str() {
                "external" => external = true,
                "init" => {
                    let hex = self.string()?;
                    if hex.len() % 2 != 0 {
                        return self.error("initializer hex has an odd number of digits");
                    }
                    let mut bytes = Vec::with_capacity(hex.len() / 2);
                    for k in (0..hex.len()).step_by(2) {
                        match hex
                            .get(k..k + 2)
                            .and_then(|h| u8::from_str_radix(h, 16).ok())
                        {
                            Some(x) => bytes.push(x),
                            None => return self.error("initializer is not hex"),
                        }
                    }
                    init = Some(bytes);
                }
                _ => {
                    self.pos -= 1;
                    return self.error(format!("expected `external` or `init`, found `{w}`"));
                }
            }
        }
        self.module.globals[g] = GlobalData {
            name,
            space,
            size,
            align,
            init,
            external,
        };
        Ok(())
    }

    fn function(&mut self, fref: Func, keyword: &str) -> PResult<()> {
        let name = self.name()?;
        self.expect(Tok::LParen)?;
        let mut params = Vec::new();
        let mut variadic = false;
        if !self.eat(Tok::RParen) {
            loop {
                if matches!(self.peek(), Tok::Word(w) if w == "...") {
                    self.next();
                    variadic = true;
                    self.expect(Tok::RParen)?;
                    break;
                }
                params.push(self.ty()?);
                if self.eat(Tok::RParen) {
                    break;
                }
                self.expect(Tok::Comma)?;
            }
        }
        let ret = if self.eat(Tok::Arrow) {
            Some(self.ty()?)
        } else {
            None
        };
        let mut f = Function::new(
            &name,
            Signature {
                params,
                ret,
                variadic,
            },
        );
        if keyword == "kernel" {
            f.kernel = Some(KernelInfo::default());
        }
        if keyword != "declare" {
            self.expect(Tok::LBrace)?;
            self.body(&mut f)?;
        }
        self.module.funcs[fref] = f;
        Ok(())
    }

    fn triple(&mut self) -> PResult<[u32; 3]> {
        self.expect(Tok::LParen)?;
        let x = self.u32()?;
        self.expect(Tok::Comma)?;
        let y = self.u32()?;
        self.expect(Tok::Comma)?;
        let z = self.u32()?;
        self.expect(Tok::RParen)?;
        Ok([x, y, z])
    }

    /// `arg "name": "type name" space access [quals]`, then `kind size N align N` where the
    /// ABI is not the default of the parameter's type `param`.
    fn kernel_arg(&mut self, param: Option<Type>) -> PResult<KernelArg> {
        let name = self.string()?;
        self.expect(Tok::Colon)?;
        let type_name = self.string()?;
        let sw = self.word()?;
        let Some(space) = AddrSpace::from_name(&sw) else {
            self.pos -= 1;
            return self.error(format!("unknown address qualifier `{sw}`"));
        };
        let aw = self.word()?;
        let Some(access) = AccessQualifier::ALL.into_iter().find(|a| a.name() == aw) else {
            self.pos -= 1;
            return self.error(format!("unknown access qualifier `{aw}`"));
        };
        self.expect(Tok::LBracket)?;
        let mut quals = TypeQualifiers::default();
        if !self.eat(Tok::RBracket) {
            loop {
                let q = self.word()?;
                match TypeQualifiers::NAMES.iter().find(|(_, n)| *n == q) {
                    Some((bit, _)) => quals.0 |= bit.0,
                    None => {
                        self.pos -= 1;
                        return self.error(format!("unknown type qualifier `{q}`"));
                    }
                }
                if self.eat(Tok::RBracket) {
                    break;
                }
                self.expect(Tok::Comma)?;
            }
        }
        let written = matches!((self.peek(), self.peek_at(1)),
            (Tok::Word(k), Tok::Word(s)) if s == "size" && ArgKind::ALL.iter().any(|a| a.name() == k));
        let (kind, size, align) = if written {
            let kw = self.word()?;
            let kind = ArgKind::ALL
                .into_iter()
                .find(|a| a.name() == kw)
                .expect("checked above");
            self.word()?;
            let size = self.u32()?;
            if self.word()? != "align" {
                self.pos -= 1;
                return self.error("expected `align`");
            }
            (kind, size, self.u32()?)
        } else {
            match param.and_then(KernelArg::default_abi) {
                Some(abi) => abi,
                None => {
                    return self
                        .error("the argument's ABI (`aggregate size N align N`) must be written")
                }
            }
        };
        Ok(KernelArg {
            name,
            type_name,
            space,
            access,
            quals,
            kind,
            size,
            align,
        })
    }

    fn body(&mut self, f: &mut Function) -> PResult<()> {
        let mut st = Body::default();
        let mut current: Option<Block> = None;
        loop {
            let t = self.peek().clone();
            let Tok::Word(w) = t else {
                if t == Tok::RBrace {
                    self.next();
                    break;
                }
                return self.error(format!(
                    "expected an instruction, a block or `}}`, found {t}"
                ));
            };
            let next = self.peek_at(1).clone();
            if let Some(n) = entity_number(&w, "block") {
                if matches!(next, Tok::LParen | Tok::Colon) {
                    self.next();
                    let b = self.block_ref(f, n, &mut st)?;
                    if !st.defined_blocks.insert(b) {
                        self.pos -= 1;
                        return self.error(format!("{b} is defined twice"));
                    }
                    if self.eat(Tok::LParen) && !self.eat(Tok::RParen) {
                        loop {
                            let v = self.value_def(f, &mut st)?;
                            self.expect(Tok::Colon)?;
                            let ty = self.ty()?;
                            f.dfg.values[v].ty = ty;
                            f.dfg.attach_block_param(b, v);
                            if self.eat(Tok::RParen) {
                                break;
                            }
                            self.expect(Tok::Comma)?;
                        }
                    }
                    self.expect(Tok::Colon)?;
                    f.layout.append_block(b);
                    current = Some(b);
                    continue;
                }
            }
            if current.is_none() {
                match w.as_str() {
                    "arg" | "reqd_work_group_size" | "work_group_size_hint" | "vec_type_hint" => {
                        self.next();
                        let Some(k) = f.kernel.as_mut() else {
                            self.pos -= 1;
                            return self.error(format!("`{w}` outside a kernel"));
                        };
                        match w.as_str() {
                            "arg" => {
                                let param = f.sig.params.get(k.args.len()).copied();
                                k.args.push(self.kernel_arg(param)?)
                            }
                            "reqd_work_group_size" => k.reqd_work_group_size = Some(self.triple()?),
                            "work_group_size_hint" => k.work_group_size_hint = Some(self.triple()?),
                            _ => {
                                self.expect(Tok::LParen)?;
                                k.vec_type_hint = Some(self.string()?);
                                self.expect(Tok::RParen)?;
                            }
                        }
                        continue;
                    }
                    _ => {}
                }
                if let Some(n) = entity_number(&w, "ss") {
                    if n >= MAX_ENTITY {
                        return self.error("stack slot number too large");
                    }
                    self.next();
                    self.expect(Tok::Eq)?;
                    self.keyword("slot")?;
                    let size = self.u32()?;
                    self.expect(Tok::Comma)?;
                    self.keyword("align")?;
                    let align = self.u32()?;
                    while f.slots.len() <= n as usize {
                        f.slots.push(StackSlotData { size: 0, align: 1 });
                    }
                    f.slots[StackSlot::from_u32(n)] = StackSlotData { size, align };
                    continue;
                }
                return self.error(format!("expected a block header before `{w}`"));
            }
            let block = current.unwrap_or(Block::from_u32(0));
            self.instruction(f, block, &mut st)?;
        }
        for (v, line, col) in st.used_values {
            if !st.defined_values.contains(&v) {
                return Err(ParseError {
                    line,
                    col,
                    message: format!("{v} is used but never defined"),
                });
            }
        }
        for (b, line, col) in st.used_blocks {
            if !st.defined_blocks.contains(&b) {
                return Err(ParseError {
                    line,
                    col,
                    message: format!("{b} is used but never defined"),
                });
            }
        }
        Ok(())
    }

    fn value_ref(&mut self, f: &mut Function, st: &mut Body) -> PResult<Value> {
        let (line, col) = self.here();
        let w = self.word()?;
        let Some(n) = entity_number(&w, "v") else {
            self.pos -= 1;
            return self.error(format!("expected a value, found `{w}`"));
        };
        if n >= MAX_ENTITY {
            self.pos -= 1;
            return self.error("value number too large");
        }
        let v = ensure_value(f, n);
        st.used_values.push((v, line, col));
        Ok(v)
    }

    fn value_def(&mut self, f: &mut Function, st: &mut Body) -> PResult<Value> {
        let w = self.word()?;
        let Some(n) = entity_number(&w, "v") else {
            self.pos -= 1;
            return self.error(format!("expected a value, found `{w}`"));
        };
        if n >= MAX_ENTITY {
            self.pos -= 1;
            return self.error("value number too large");
        }
        let v = ensure_value(f, n);
        if !st.defined_values.insert(v) {
            self.pos -= 1;
            return self.error(format!("{v} is defined twice"));
        }
        Ok(v)
    }

    fn block_ref(&mut self, f: &mut Function, n: u32, st: &mut Body) -> PResult<Block> {
        if n >= MAX_ENTITY {
            return self.error("block number too large");
        }
        while f.dfg.blocks.len() <= n as usize {
            f.dfg.blocks.push(BlockData::default());
        }
        let (line, col) = self.here();
        let b = Block::from_u32(n);
        st.used_blocks.push((b, line, col));
        Ok(b)
    }

    fn dest(&mut self, f: &mut Function, st: &mut Body) -> PResult<Dest> {
        let w = self.word()?;
        let Some(n) = entity_number(&w, "block") else {
            self.pos -= 1;
            return self.error(format!("expected a block, found `{w}`"));
        };
        self.pos -= 1;
        let block = self.block_ref(f, n, st)?;
        self.pos += 1;
        let mut args = Vec::new();
        if self.eat(Tok::LParen) && !self.eat(Tok::RParen) {
            loop {
                args.push(self.value_ref(f, st)?);
                if self.eat(Tok::RParen) {
                    break;
                }
                self.expect(Tok::Comma)?;
            }
        }
        Ok(Dest { block, args })
    }

    fn operands(&mut self, f: &mut Function, st: &mut Body, n: usize) -> PResult<Vec<Value>> {
        let mut v = Vec::with_capacity(n);
        for k in 0..n {
            if k > 0 {
                self.expect(Tok::Comma)?;
            }
            v.push(self.value_ref(f, st)?);
        }
        Ok(v)
    }

    fn int_imm(&mut self, ty: Type) -> PResult<u64> {
        let w = self.word()?;
        let parsed = if let Some(h) = w.strip_prefix("0x") {
            u64::from_str_radix(h, 16).ok()
        } else if let Some(m) = w.strip_prefix('-') {
            m.parse::<u64>().ok().map(|x| x.wrapping_neg())
        } else {
            w.parse::<u64>().ok()
        };
        match parsed {
            Some(x) => {
                let bits = ty.lane_bits();
                Ok(if bits >= 64 {
                    x
                } else {
                    x & ((1u64 << bits) - 1)
                })
            }
            None => {
                self.pos -= 1;
                self.error(format!("expected an integer, found `{w}`"))
            }
        }
    }

    fn float_imm(&mut self, ty: Type) -> PResult<u64> {
        let w = self.word()?;
        let bits = if let Some(h) = w.strip_prefix("0x") {
            u64::from_str_radix(h, 16).ok()
        } else {
            match ty.lane_bits() {
                32 => w.parse::<f32>().ok().map(|x| u64::from(x.to_bits())),
                64 => w.parse::<f64>().ok().map(f64::to_bits),
                // Through f64, then rounded to nearest even: exact for the short decimals
                // tests write (the printer uses the bits).
                _ => w
                    .parse::<f64>()
                    .ok()
                    .map(|x| crate::float::from_f64(x, ty, Round::Rte)),
            }
        };
        match bits {
            Some(b) => Ok(b),
            None => {
                self.pos -= 1;
                self.error(format!(
                    "expected a float constant of type {ty}, found `{w}`"
                ))
            }
        }
    }

    fn lane_imm(&mut self) -> PResult<u8> {
        let n = self.u32()?;
        match u8::try_from(n) {
            Ok(x) => Ok(x),
            Err(_) => self.error(format!("lane {n} out of range")),
        }
    }

    fn instruction(&mut self, f: &mut Function, block: Block, st: &mut Body) -> PResult<()> {
        let mut result = None;
        if let (Tok::Word(w), Tok::Colon) = (self.peek().clone(), self.peek_at(1).clone()) {
            if entity_number(&w, "v").is_some() {
                let v = self.value_def(f, st)?;
                self.expect(Tok::Colon)?;
                let ty = self.ty()?;
                self.expect(Tok::Eq)?;
                result = Some((v, ty));
            }
        }
        let rty = result.map(|(_, t)| t).unwrap_or(Type::I32);
        let (line, col) = self.here();
        let word = self.word()?;
        let mut parts = word.split('.');
        let head = parts.next().unwrap_or("");
        let mods: Vec<&str> = parts.collect();
        let bad = ParseError {
            line,
            col,
            message: format!("bad modifiers in `{word}`"),
        };
        let bad_mods = |_: &Self| -> PResult<_> { Err(bad.clone()) };
        let no_mods = |_: &Self| {
            if mods.is_empty() {
                Ok(())
            } else {
                Err(bad.clone())
            }
        };
        let (op, args) = match head {
            "iconst" => {
                no_mods(self)?;
                (Op::Iconst(self.int_imm(rty)?), vec![])
            }
            "fconst" => {
                no_mods(self)?;
                (Op::Fconst(self.float_imm(rty)?), vec![])
            }
            "vconst" => {
                no_mods(self)?;
                self.expect(Tok::LBracket)?;
                let lane = rty.lane_type();
                let mut lanes = Vec::new();
                loop {
                    lanes.push(if lane.is_float() {
                        self.float_imm(lane)?
                    } else {
                        self.int_imm(lane)?
                    });
                    if self.eat(Tok::RBracket) {
                        break;
                    }
                    self.expect(Tok::Comma)?;
                }
                (Op::Vconst(lanes.into()), vec![])
            }
            "null" => {
                no_mods(self)?;
                (Op::Null, vec![])
            }
            "undef" => {
                no_mods(self)?;
                (Op::Undef, vec![])
            }
            "unreachable" => {
                no_mods(self)?;
                (Op::Unreachable, vec![])
            }
            "fma" => {
                no_mods(self)?;
                (Op::Fma, self.operands(f, st, 3)?)
            }
            "select" => {
                no_mods(self)?;
                (Op::Select, self.operands(f, st, 3)?)
            }
            "icmp" | "fcmp" => {
                no_mods(self)?;
                let cw = self.word()?;
                let op = if head == "icmp" {
                    IntCC::ALL
                        .into_iter()
                        .find(|c| c.name() == cw)
                        .map(Op::Icmp)
                } else {
                    FloatCC::ALL
                        .into_iter()
                        .find(|c| c.name() == cw)
                        .map(Op::Fcmp)
                };
                let Some(op) = op else {
                    self.pos -= 1;
                    return self.error(format!("unknown condition `{cw}`"));
                };
                (op, self.operands(f, st, 2)?)
            }
            "trunc" | "zext" | "sext" | "satconv" | "fconv" | "sitofp" | "uitofp" | "fptosi"
            | "fptoui" => {
                let round = |m: &str| Round::ALL.into_iter().find(|r| r.name() == m);
                let sign = |m: &str| match m {
                    "s" => Some(true),
                    "u" => Some(false),
                    _ => None,
                };
                let conv = match (head, mods.as_slice()) {
                    ("trunc", []) => Some(ConvOp::Trunc),
                    ("zext", []) => Some(ConvOp::Zext),
                    ("sext", []) => Some(ConvOp::Sext),
                    ("satconv", [a, b]) => match (sign(a), sign(b)) {
                        (Some(s), Some(d)) => Some(ConvOp::SatInt {
                            src_signed: s,
                            dst_signed: d,
                        }),
                        _ => None,
                    },
                    ("fconv", [r]) => round(r).map(ConvOp::Fconv),
                    ("sitofp", [r]) => round(r).map(ConvOp::SintToFloat),
                    ("uitofp", [r]) => round(r).map(ConvOp::UintToFloat),
                    ("fptosi" | "fptoui", [r, rest @ ..]) if rest.is_empty() || rest == ["sat"] => {
                        round(r).map(|round| {
                            let sat = !rest.is_empty();
                            if head == "fptosi" {
                                ConvOp::FloatToSint { round, sat }
                            } else {
                                ConvOp::FloatToUint { round, sat }
                            }
                        })
                    }
                    _ => None,
                };
                let Some(conv) = conv else {
                    return bad_mods(self);
                };
                (Op::Convert(conv), self.operands(f, st, 1)?)
            }
            "bitcast" | "ptrtoint" | "inttoptr" | "addrcast" | "splat" => {
                no_mods(self)?;
                let op = match head {
                    "bitcast" => Op::Bitcast,
                    "ptrtoint" => Op::PtrToInt,
                    "inttoptr" => Op::IntToPtr,
                    "addrcast" => Op::AddrCast,
                    _ => Op::Splat,
                };
                (op, self.operands(f, st, 1)?)
            }
            "ptradd" => {
                no_mods(self)?;
                (Op::PtrAdd, self.operands(f, st, 2)?)
            }
            "extractlane" => {
                no_mods(self)?;
                let a = self.operands(f, st, 1)?;
                self.expect(Tok::Comma)?;
                (Op::ExtractLane(self.lane_imm()?), a)
            }
            "insertlane" => {
                no_mods(self)?;
                let a = self.operands(f, st, 2)?;
                self.expect(Tok::Comma)?;
                (Op::InsertLane(self.lane_imm()?), a)
            }
            "shuffle" => {
                no_mods(self)?;
                let a = self.operands(f, st, 2)?;
                self.expect(Tok::Comma)?;
                self.expect(Tok::LBracket)?;
                let mut mask = Vec::new();
                if !self.eat(Tok::RBracket) {
                    loop {
                        mask.push(self.lane_imm()?);
                        if self.eat(Tok::RBracket) {
                            break;
                        }
                        self.expect(Tok::Comma)?;
                    }
                }
                (Op::Shuffle(mask.into()), a)
            }
            "load" | "store" => {
                let (space, volatile) = match mods.as_slice() {
                    [s] => (AddrSpace::from_name(s), false),
                    [s, "volatile"] => (AddrSpace::from_name(s), true),
                    _ => (None, false),
                };
                let Some(space) = space else {
                    return bad_mods(self);
                };
                let a = self.operands(f, st, if head == "load" { 1 } else { 2 })?;
                self.expect(Tok::Comma)?;
                self.keyword("align")?;
                let flags = MemFlags {
                    space,
                    align: self.u32()?,
                    volatile,
                };
                (
                    if head == "load" {
                        Op::Load(flags)
                    } else {
                        Op::Store(flags)
                    },
                    a,
                )
            }
            "atomic_rmw" | "cmpxchg" | "atomic_load" | "atomic_store" => {
                let order = |m: &str| Ordering::ALL.into_iter().find(|o| o.name() == m);
                let scope = |m: &str| Scope::ALL.into_iter().find(|o| o.name() == m);
                let info = |o: &str, s: &str, sp: &str| match (
                    order(o),
                    scope(s),
                    AddrSpace::from_name(sp),
                ) {
                    (Some(order), Some(scope), Some(space)) => Some(AtomicInfo {
                        space,
                        order,
                        scope,
                    }),
                    _ => None,
                };
                let op = match (head, mods.as_slice()) {
                    ("atomic_rmw", [r, o, s, sp]) => {
                        match (
                            RmwOp::ALL.into_iter().find(|x| x.name() == *r),
                            info(o, s, sp),
                        ) {
                            (Some(r), Some(i)) => Some(Op::AtomicRmw(r, i)),
                            _ => None,
                        }
                    }
                    ("cmpxchg", [o, fo, s, sp]) => match (info(o, s, sp), order(fo)) {
                        (Some(i), Some(fo)) => Some(Op::Cmpxchg(i, fo)),
                        _ => None,
                    },
                    ("atomic_load", [o, s, sp]) => info(o, s, sp).map(Op::AtomicLoad),
                    ("atomic_store", [o, s, sp]) => info(o, s, sp).map(Op::AtomicStore),
                    _ => None,
                };
                let Some(op) = op else { return bad_mods(self) };
                let n = match head {
                    "cmpxchg" => 3,
                    "atomic_load" => 1,
                    _ => 2,
                };
                (op, self.operands(f, st, n)?)
            }
            "fence" | "barrier" => {
                let mut flags = FenceFlags::default();
                let mut k = 0;
                while let Some((bit, _)) = mods
                    .get(k)
                    .and_then(|m| FenceFlags::NAMES.iter().find(|(_, n)| n == m))
                {
                    flags.0 |= bit.0;
                    k += 1;
                }
                let rest = &mods[k..];
                let order = |m: &str| Ordering::ALL.into_iter().find(|o| o.name() == m);
                let scope = |m: &str| Scope::ALL.into_iter().find(|o| o.name() == m);
                let op = match (head, rest) {
                    ("fence", [o, s]) => match (order(o), scope(s)) {
                        (Some(o), Some(s)) => Some(Op::Fence(flags, o, s)),
                        _ => None,
                    },
                    ("barrier", [s]) => scope(s).map(|s| Op::Barrier(flags, s)),
                    _ => None,
                };
                let Some(op) = op else { return bad_mods(self) };
                (op, vec![])
            }
            "group_broadcast"
            | "group_reduce"
            | "group_scan_inclusive"
            | "group_scan_exclusive"
            | "sub_group_broadcast"
            | "sub_group_reduce"
            | "sub_group_scan_inclusive"
            | "sub_group_scan_exclusive" => {
                let (head, scope) = match head.strip_prefix("sub_") {
                    Some(h) => (h, Scope::SubGroup),
                    None => (head, Scope::WorkGroup),
                };
                let combine = match mods.as_slice() {
                    [] => None,
                    [m] => match BinaryOp::ALL.into_iter().find(|b| b.name() == *m) {
                        Some(b) => Some(b),
                        None => return bad_mods(self),
                    },
                    _ => return bad_mods(self),
                };
                let Some(g) = GroupOp::from_name(head, combine) else {
                    return bad_mods(self);
                };
                let n = if g == GroupOp::Broadcast { 2 } else { 1 };
                (Op::Group(g, scope), self.operands(f, st, n)?)
            }
            "slotaddr" => {
                no_mods(self)?;
                let w = self.word()?;
                let Some(n) = entity_number(&w, "ss") else {
                    self.pos -= 1;
                    return self.error(format!("expected a stack slot, found `{w}`"));
                };
                (Op::SlotAddr(StackSlot::from_u32(n)), vec![])
            }
            "globaladdr" => {
                no_mods(self)?;
                let n = self.name()?;
                let Some(&g) = self.globals.get(&n) else {
                    self.pos -= 1;
                    return self.error(format!("no global named @{n}"));
                };
                (Op::GlobalAddr(g), vec![])
            }
            "call" => {
                no_mods(self)?;
                let n = self.name()?;
                let Some(&callee) = self.funcs.get(&n) else {
                    self.pos -= 1;
                    return self.error(format!("no function named @{n}"));
                };
                self.expect(Tok::LParen)?;
                let mut a = Vec::new();
                if !self.eat(Tok::RParen) {
                    loop {
                        a.push(self.value_ref(f, st)?);
                        if self.eat(Tok::RParen) {
                            break;
                        }
                        self.expect(Tok::Comma)?;
                    }
                }
                (Op::Call(callee), a)
            }
            "jump" => {
                no_mods(self)?;
                (Op::Jump(self.dest(f, st)?), vec![])
            }
            "brif" => {
                no_mods(self)?;
                let c = self.value_ref(f, st)?;
                self.expect(Tok::Comma)?;
                let t = self.dest(f, st)?;
                self.expect(Tok::Comma)?;
                let e = self.dest(f, st)?;
                (Op::Brif(Box::new((t, e))), vec![c])
            }
            "switch" => {
                no_mods(self)?;
                let x = self.value_ref(f, st)?;
                let sel_ty = f.dfg.values[x].ty;
                self.expect(Tok::Comma)?;
                let default = self.dest(f, st)?;
                self.expect(Tok::Comma)?;
                self.expect(Tok::LBracket)?;
                let mut cases = Vec::new();
                if !self.eat(Tok::RBracket) {
                    loop {
                        // The selector may be defined later in the text; read cases at 64 bits
                        // then, and let the verifier check the width.
                        let ty = if st.defined_values.contains(&x) {
                            sel_ty
                        } else {
                            Type::I64
                        };
                        let c = self.int_imm(ty)?;
                        self.expect(Tok::Colon)?;
                        cases.push((c, self.dest(f, st)?));
                        if self.eat(Tok::RBracket) {
                            break;
                        }
                        self.expect(Tok::Comma)?;
                    }
                }
                (
                    Op::Switch(Box::new(SwitchTable { default, cases })),
                    vec![x],
                )
            }
            "return" => {
                no_mods(self)?;
                let a = if matches!(self.peek(), Tok::Word(w) if entity_number(w, "v").is_some())
                    && self.peek_at(1) != &Tok::Colon
                {
                    vec![self.value_ref(f, st)?]
                } else {
                    vec![]
                };
                (Op::Return, a)
            }
            _ => {
                if let Some(u) = UnaryOp::ALL.into_iter().find(|u| u.name() == head) {
                    no_mods(self)?;
                    (Op::Unary(u), self.operands(f, st, 1)?)
                } else if let Some(b) = BinaryOp::ALL.into_iter().find(|b| b.name() == head) {
                    no_mods(self)?;
                    (Op::Binary(b), self.operands(f, st, 2)?)
                } else if let Some(w) = WorkItemOp::ALL.into_iter().find(|w| w.name() == head) {
                    no_mods(self)?;
                    let dim = if w.has_dim() { self.lane_imm()? } else { 0 };
                    (Op::WorkItem(w, dim), vec![])
                } else {
                    return Err(ParseError {
                        line,
                        col,
                        message: format!("unknown instruction `{word}`"),
                    });
                }
            }
        };
        let inst: Inst = f.dfg.make_inst(InstData { op, args }, None);
        f.layout.append_inst(inst, block);
        if let Some((v, ty)) = result {
            f.dfg.values[v].ty = ty;
            f.dfg.attach_result(inst, v);
        }
        Ok(())
    }
}

/// The number in `w` if it is `prefix` followed by decimal digits.
fn entity_number(w: &str, prefix: &str) -> Option<u32> {
    let digits = w.strip_prefix(prefix)?;
    if digits.is_empty()
        || !digits.bytes().all(|b| b.is_ascii_digit())
        || (digits.len() > 1 && digits.starts_with('0'))
    {
        return None;
    }
    digits.parse().ok()
}

/// Entity numbers in text are below this bound, so that a hostile number cannot make the
/// parser allocate without limit.
const MAX_ENTITY: u32 = 1 << 20;

fn ensure_value(f: &mut Function, n: u32) -> Value {
    while f.dfg.values.len() <= n as usize {
        f.dfg.values.push(ValueData {
            ty: Type::I32,
            def: ValueDef::Invalid,
        });
    }
    Value::from_u32(n)
}
