//! Instructions: one line of a block, `[results =] opcode operands [, attributes]`, for every
//! opcode of [`crate::inst`], with the immediates, destinations and operand lists they take.

use super::*;

impl Parser {
    pub(super) fn dest(&mut self, f: &mut Function, st: &mut Body) -> PResult<Dest> {
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

    pub(super) fn operands(
        &mut self,
        f: &mut Function,
        st: &mut Body,
        n: usize,
    ) -> PResult<Vec<Value>> {
        let mut v = Vec::with_capacity(n);
        for k in 0..n {
            if k > 0 {
                self.expect(Tok::Comma)?;
            }
            v.push(self.value_ref(f, st)?);
        }
        Ok(v)
    }

    pub(super) fn int_imm(&mut self, ty: Type) -> PResult<u64> {
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

    pub(super) fn float_imm(&mut self, ty: Type) -> PResult<u64> {
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

    pub(super) fn lane_imm(&mut self) -> PResult<u8> {
        let n = self.u32()?;
        match u8::try_from(n) {
            Ok(x) => Ok(x),
            Err(_) => self.error(format!("lane {n} out of range")),
        }
    }

    pub(super) fn instruction(
        &mut self,
        f: &mut Function,
        block: Block,
        st: &mut Body,
    ) -> PResult<()> {
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
            | "fptoui" => self.conversion(f, st, head, &mods, &bad)?,
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
                let Some(flags) = access_flags(&mods) else {
                    return bad_mods(self);
                };
                let a = self.operands(f, st, if head == "load" { 1 } else { 2 })?;
                self.expect(Tok::Comma)?;
                self.keyword("align")?;
                let flags = MemFlags {
                    align: self.u32()?,
                    ..flags
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
            "atomic_rmw" | "cmpxchg" | "atomic_load" | "atomic_store" | "fence" | "barrier" => {
                self.atomic_or_sync(f, st, head, &mods, &bad)?
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
            "slotaddr" | "globaladdr" => {
                no_mods(self)?;
                (self.address(head == "slotaddr")?, vec![])
            }
            "call" | "jump" | "brif" | "switch" | "return" => {
                self.control(f, st, head, &mods, &bad)?
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

    /// The operation of `slotaddr` (`slot`) or `globaladdr`: the slot or the global it names.
    fn address(&mut self, slot: bool) -> PResult<Op> {
        if slot {
            let w = self.word()?;
            let Some(n) = entity_number(&w, "ss") else {
                self.pos -= 1;
                return self.error(format!("expected a stack slot, found `{w}`"));
            };
            return Ok(Op::SlotAddr(StackSlot::from_u32(n)));
        }
        let n = self.name()?;
        let Some(&g) = self.globals.get(&n) else {
            self.pos -= 1;
            return self.error(format!("no global named @{n}"));
        };
        Ok(Op::GlobalAddr(g))
    }

    /// The conversions (`trunc`, `zext`, `sext`, `satconv`, `fconv`, `sitofp`, `uitofp`,
    /// `fptosi`, `fptoui`) with their modifiers.
    fn conversion(
        &mut self,
        f: &mut Function,
        st: &mut Body,
        head: &str,
        mods: &[&str],
        bad: &ParseError,
    ) -> PResult<(Op, Vec<Value>)> {
        let bad_mods = |_: &Self| -> PResult<_> { Err(bad.clone()) };
        Ok(match head {
            "trunc" | "zext" | "sext" | "satconv" | "fconv" | "sitofp" | "uitofp" | "fptosi"
            | "fptoui" => {
                let round = |m: &str| Round::ALL.into_iter().find(|r| r.name() == m);
                let sign = |m: &str| match m {
                    "s" => Some(true),
                    "u" => Some(false),
                    _ => None,
                };
                let conv = match (head, mods) {
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
            _ => unreachable!("instruction routes only these instructions here"),
        })
    }

    /// Atomics, fences and barriers, with their orderings, scopes and fenced spaces.
    fn atomic_or_sync(
        &mut self,
        f: &mut Function,
        st: &mut Body,
        head: &str,
        mods: &[&str],
        bad: &ParseError,
    ) -> PResult<(Op, Vec<Value>)> {
        let bad_mods = |_: &Self| -> PResult<_> { Err(bad.clone()) };
        Ok(match head {
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
                let op = match (head, mods) {
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
            _ => unreachable!("instruction routes only these instructions here"),
        })
    }

    /// Calls and terminators.
    fn control(
        &mut self,
        f: &mut Function,
        st: &mut Body,
        head: &str,
        mods: &[&str],
        bad: &ParseError,
    ) -> PResult<(Op, Vec<Value>)> {
        let no_mods = |_: &Self| {
            if mods.is_empty() {
                Ok(())
            } else {
                Err(bad.clone())
            }
        };
        Ok(match head {
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
            _ => unreachable!("instruction routes only these instructions here"),
        })
    }
}

/// The flags of a load or store from its modifiers: the space, then `volatile` and `trusted`
/// in the order they print; the alignment is 1 until the operands' `align` gives it.
fn access_flags(mods: &[&str]) -> Option<MemFlags> {
    let (space, rest) = mods.split_first()?;
    let mut flags = MemFlags::new(AddrSpace::from_name(space)?, 1);
    let rest = match rest {
        ["volatile", rest @ ..] => {
            flags = flags.with_volatile();
            rest
        }
        _ => rest,
    };
    match rest {
        [] => Some(flags),
        ["trusted"] => Some(flags.with_trusted()),
        _ => None,
    }
}
