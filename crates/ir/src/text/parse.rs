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

mod inst;

use super::lex::{lex, Tok};

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
                                relocs: Vec::new(),
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
        let mut relocs = Vec::new();
        while self.eat(Tok::Comma) {
            let w = self.word()?;
            match w.as_str() {
                "external" => external = true,
                "reloc" => {
                    // `reloc OFFSET @target ADDEND`
                    let offset = self.u32()?;
                    let name = self.name()?;
                    let Some(&target) = self.globals.get(&name) else {
                        self.pos -= 1;
                        return self.error(format!("unknown global @{name}"));
                    };
                    let a = self.word()?;
                    let Ok(addend) = a.parse::<i64>() else {
                        self.pos -= 1;
                        return self.error(format!("expected a signed number, found `{a}`"));
                    };
                    relocs.push(crate::module::Relocation {
                        offset,
                        target,
                        addend,
                    });
                }
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
                    return self.error(format!(
                        "expected `external`, `init` or `reloc`, found `{w}`"
                    ));
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
            relocs,
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
