//! The printer.

use std::fmt::Write;

use crate::entity::Value;
use crate::function::{Function, KernelArg, TypeQualifiers};
use crate::inst::*;
use crate::module::Module;
use crate::types::Type;
use crate::verify::{conv_name, mnemonic};

/// Prints a module: globals, then functions, separated by blank lines.
pub fn print_module(m: &Module) -> String {
    let mut s = String::new();
    for (_, g) in m.globals.iter() {
        let _ = write!(
            s,
            "global @{}: {}, size {}, align {}",
            g.name, g.space, g.size, g.align
        );
        if g.external {
            s.push_str(", external");
        }
        if let Some(init) = &g.init {
            s.push_str(", init \"");
            for b in init {
                let _ = write!(s, "{b:02x}");
            }
            s.push('"');
        }
        for r in &g.relocs {
            let _ = write!(
                s,
                ", reloc {} @{} {}",
                r.offset, m.globals[r.target].name, r.addend
            );
        }
        s.push('\n');
    }
    // A blank line separates a body from whatever is next to it.
    let mut prev_body = false;
    for (_, f) in m.funcs.iter() {
        let body = !f.is_declaration() || f.is_kernel();
        if !s.is_empty() && (body || prev_body) {
            s.push('\n');
        }
        prev_body = body;
        s.push_str(&print_function(m, f));
    }
    s
}

/// Prints one function of `m`.
pub fn print_function(m: &Module, f: &Function) -> String {
    let mut s = String::new();
    let keyword = if f.is_kernel() {
        "kernel"
    } else if f.is_declaration() {
        "declare"
    } else {
        "func"
    };
    let mut params: Vec<String> = f.sig.params.iter().map(Type::to_string).collect();
    if f.sig.variadic {
        params.push("...".to_string());
    }
    let _ = write!(s, "{keyword} @{}({})", f.name, params.join(", "));
    if let Some(r) = f.sig.ret {
        let _ = write!(s, " -> {r}");
    }
    if f.is_declaration() && !f.is_kernel() {
        s.push('\n');
        return s;
    }
    s.push_str(" {\n");
    if let Some(k) = &f.kernel {
        for (i, a) in k.args.iter().enumerate() {
            let quals: Vec<&str> = TypeQualifiers::NAMES
                .iter()
                .filter(|(q, _)| a.quals.contains(*q))
                .map(|(_, n)| *n)
                .collect();
            let _ = write!(
                s,
                "    arg {}: {} {} {} [{}]",
                quote(&a.name),
                quote(&a.type_name),
                a.space,
                a.access.name(),
                quals.join(", ")
            );
            // The ABI is written where it is not the parameter type's default.
            let default = f.sig.params.get(i).and_then(|&t| KernelArg::default_abi(t));
            if default != Some((a.kind, a.size, a.align)) {
                let _ = write!(s, " {} size {} align {}", a.kind.name(), a.size, a.align);
            }
            s.push('\n');
        }
        if let Some([x, y, z]) = k.reqd_work_group_size {
            let _ = writeln!(s, "    reqd_work_group_size({x}, {y}, {z})");
        }
        if let Some([x, y, z]) = k.work_group_size_hint {
            let _ = writeln!(s, "    work_group_size_hint({x}, {y}, {z})");
        }
        if let Some(t) = &k.vec_type_hint {
            let _ = writeln!(s, "    vec_type_hint({})", quote(t));
        }
    }
    for (ss, d) in f.slots.iter() {
        let _ = writeln!(s, "    {ss} = slot {}, align {}", d.size, d.align);
    }
    for &b in f.layout.blocks() {
        let params = f.dfg.block_params(b);
        if params.is_empty() {
            let _ = writeln!(s, "{b}:");
        } else {
            let ps: Vec<String> = params
                .iter()
                .map(|&p| format!("{p}: {}", f.dfg.value_type(p)))
                .collect();
            let _ = writeln!(s, "{b}({}):", ps.join(", "));
        }
        for &i in f.layout.block_insts(b) {
            s.push_str("    ");
            if let Some(r) = f.dfg.inst_result(i) {
                let _ = write!(s, "{r}: {} = ", f.dfg.value_type(r));
            }
            print_inst(&mut s, m, f, &f.dfg.insts[i], f.dfg.inst_result(i));
            s.push('\n');
        }
    }
    s.push_str("}\n");
    s
}

/// Quotes a string: `"` and `\` are escaped, bytes outside printable ASCII are `\xHH`.
pub(crate) fn quote(text: &str) -> String {
    let mut s = String::from("\"");
    for &b in text.as_bytes() {
        match b {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            0x20..=0x7e => s.push(b as char),
            _ => {
                let _ = write!(s, "\\x{b:02x}");
            }
        }
    }
    s.push('"');
    s
}

/// An integer constant as text: signed decimal at the lane width (`i1` as 0 or 1).
pub(crate) fn int_text(c: u64, ty: Type) -> String {
    let bits = ty.lane_bits();
    if bits == 1 {
        return c.to_string();
    }
    let shift = 64 - bits;
    (((c << shift) as i64) >> shift).to_string()
}

/// A float constant as text: the shortest decimal that reads back exactly for `f32`/`f64`,
/// `inf`/`-inf`; NaNs and `f16` as their bits in hex.
pub(crate) fn float_text(bits: u64, ty: Type) -> String {
    match ty.lane_bits() {
        32 => {
            let x = f32::from_bits(bits as u32);
            if x.is_nan() {
                format!("{bits:#x}")
            } else {
                format!("{x:?}")
            }
        }
        64 => {
            let x = f64::from_bits(bits);
            if x.is_nan() {
                format!("{bits:#x}")
            } else {
                format!("{x:?}")
            }
        }
        _ => format!("{bits:#x}"),
    }
}

fn vals(vs: &[Value]) -> String {
    vs.iter()
        .map(Value::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn dest(d: &Dest) -> String {
    if d.args.is_empty() {
        d.block.to_string()
    } else {
        format!("{}({})", d.block, vals(&d.args))
    }
}

fn flags_text(flags: FenceFlags) -> String {
    FenceFlags::NAMES
        .iter()
        .filter(|(f, _)| flags.contains(*f))
        .map(|(_, n)| format!(".{n}"))
        .collect()
}

fn print_inst(s: &mut String, m: &Module, f: &Function, data: &InstData, result: Option<Value>) {
    let rty = result.map(|r| f.dfg.value_type(r)).unwrap_or(Type::I32);
    let a = &data.args;
    let name = mnemonic(&data.op);
    let _ = match &data.op {
        Op::Iconst(c) => write!(s, "iconst {}", int_text(*c, rty)),
        Op::Fconst(c) => write!(s, "fconst {}", float_text(*c, rty)),
        Op::Vconst(lanes) => {
            let lane = rty.lane_type();
            let text: Vec<String> = lanes
                .iter()
                .map(|&c| {
                    if lane.is_float() {
                        float_text(c, lane)
                    } else {
                        int_text(c, lane)
                    }
                })
                .collect();
            write!(s, "vconst [{}]", text.join(", "))
        }
        Op::Null | Op::Undef | Op::Unreachable => write!(s, "{name}"),
        Op::Icmp(cc) => write!(s, "icmp {} {}", cc.name(), vals(a)),
        Op::Fcmp(cc) => write!(s, "fcmp {} {}", cc.name(), vals(a)),
        Op::Convert(c) => {
            let mods = match *c {
                ConvOp::Trunc | ConvOp::Zext | ConvOp::Sext => String::new(),
                ConvOp::SatInt {
                    src_signed,
                    dst_signed,
                } => {
                    let su = |x: bool| if x { "s" } else { "u" };
                    format!(".{}.{}", su(src_signed), su(dst_signed))
                }
                ConvOp::Fconv(r) | ConvOp::SintToFloat(r) | ConvOp::UintToFloat(r) => {
                    format!(".{}", r.name())
                }
                ConvOp::FloatToSint { round, sat } | ConvOp::FloatToUint { round, sat } => {
                    format!(".{}{}", round.name(), if sat { ".sat" } else { "" })
                }
            };
            write!(s, "{}{mods} {}", conv_name(*c), vals(a))
        }
        Op::ExtractLane(n) => write!(s, "extractlane {}, {n}", vals(a)),
        Op::InsertLane(n) => write!(s, "insertlane {}, {n}", vals(a)),
        Op::Shuffle(mask) => {
            let ms: Vec<String> = mask.iter().map(u8::to_string).collect();
            write!(s, "shuffle {}, [{}]", vals(a), ms.join(", "))
        }
        Op::Load(fl) | Op::Store(fl) => write!(
            s,
            "{name}.{}{}{} {}, align {}",
            fl.space,
            if fl.volatile { ".volatile" } else { "" },
            if fl.trusted { ".trusted" } else { "" },
            vals(a),
            fl.align
        ),
        Op::AtomicRmw(op, i) => {
            write!(
                s,
                "atomic_rmw.{}.{}.{}.{} {}",
                op.name(),
                i.order.name(),
                i.scope.name(),
                i.space,
                vals(a)
            )
        }
        Op::Cmpxchg(i, fail) => write!(
            s,
            "cmpxchg.{}.{}.{}.{} {}",
            i.order.name(),
            fail.name(),
            i.scope.name(),
            i.space,
            vals(a)
        ),
        Op::AtomicLoad(i) | Op::AtomicStore(i) => {
            write!(
                s,
                "{name}.{}.{}.{} {}",
                i.order.name(),
                i.scope.name(),
                i.space,
                vals(a)
            )
        }
        Op::Fence(fl, o, sc) => write!(s, "fence{}.{}.{}", flags_text(*fl), o.name(), sc.name()),
        Op::Barrier(fl, sc) => write!(s, "barrier{}.{}", flags_text(*fl), sc.name()),
        Op::Group(g, _) => match g.combine() {
            Some(b) => write!(s, "{name}.{} {}", b.name(), vals(a)),
            None => write!(s, "{name} {}", vals(a)),
        },
        Op::WorkItem(w, d) => {
            if w.has_dim() {
                write!(s, "{name} {d}")
            } else {
                write!(s, "{name}")
            }
        }
        Op::SlotAddr(ss) => write!(s, "slotaddr {ss}"),
        Op::GlobalAddr(g) => match m.globals.get(*g) {
            Some(gd) => write!(s, "globaladdr @{}", gd.name),
            None => write!(s, "globaladdr @{g}"),
        },
        Op::Call(callee) => match m.funcs.get(*callee) {
            Some(cf) => write!(s, "call @{}({})", cf.name, vals(a)),
            None => write!(s, "call @{callee}({})", vals(a)),
        },
        Op::Jump(d) => write!(s, "jump {}", dest(d)),
        Op::Brif(d) => write!(s, "brif {}, {}, {}", vals(a), dest(&d.0), dest(&d.1)),
        Op::Switch(t) => {
            let sel = a.first().map_or(Type::I32, |&v| f.dfg.value_type(v));
            let cases: Vec<String> = t
                .cases
                .iter()
                .map(|(c, d)| format!("{}: {}", int_text(*c, sel), dest(d)))
                .collect();
            write!(
                s,
                "switch {}, {}, [{}]",
                vals(a),
                dest(&t.default),
                cases.join(", ")
            )
        }
        _ => {
            if a.is_empty() {
                write!(s, "{name}")
            } else {
                write!(s, "{name} {}", vals(a))
            }
        }
    };
}
