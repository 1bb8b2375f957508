//! A text form of the checked tree, for filetests and for reading what sema decided: every
//! expression prints as `(kind type operands...)`, so each conversion and each resolved call
//! is visible.

use super::tree::*;
use super::CheckedProgram;
use std::fmt::Write;

impl CheckedProgram {
    /// The checked program as text: program-scope variables, then each function with a body.
    pub fn dump(&self) -> String {
        let mut p = Printer {
            prog: self,
            out: String::new(),
        };
        for (v, init) in &self.globals {
            let var = &self.vars[v.0 as usize];
            let _ = write!(
                p.out,
                "global {}: {}",
                var.name,
                self.types.qual_name(var.ty)
            );
            if let Some(i) = init {
                p.out.push_str(" = ");
                p.init(i);
            }
            p.out.push('\n');
        }
        for f in &self.functions {
            let Some(body) = &f.body else { continue };
            let params: Vec<String> = f
                .params
                .iter()
                .map(|v| {
                    let var = &self.vars[v.0 as usize];
                    format!("{}: {}", var.name, self.types.qual_name(var.ty))
                })
                .collect();
            let kw = if f.is_kernel { "kernel" } else { "fn" };
            let _ = writeln!(
                p.out,
                "{kw} {}({}) -> {}",
                f.name,
                params.join(", "),
                self.types.name(f.ret)
            );
            p.stmt(body, 1);
        }
        p.out
    }
}

struct Printer<'a> {
    prog: &'a CheckedProgram,
    out: String,
}

impl Printer<'_> {
    fn indent(&mut self, depth: usize) {
        for _ in 0..depth {
            self.out.push_str("  ");
        }
    }

    fn var(&self, v: VarId) -> &'_ str {
        let prog: &CheckedProgram = self.prog;
        &prog.vars[v.0 as usize].name
    }

    fn stmt(&mut self, s: &Stmt, depth: usize) {
        if depth > 200 {
            return;
        }
        match &s.kind {
            StmtKind::Block(list) => {
                for x in list {
                    self.stmt(x, depth);
                }
            }
            _ => {
                self.indent(depth);
                self.stmt_line(s, depth);
            }
        }
    }

    fn stmt_line(&mut self, s: &Stmt, depth: usize) {
        match &s.kind {
            StmtKind::Expr(e) => {
                self.expr(e);
                self.out.push('\n');
            }
            StmtKind::Decl(v, init) => {
                let var = &self.prog.vars[v.0 as usize];
                let _ = write!(
                    self.out,
                    "decl {}: {}",
                    var.name,
                    self.prog.types.qual_name(var.ty)
                );
                if let Some(i) = init {
                    self.out.push_str(" = ");
                    self.init(i);
                }
                self.out.push('\n');
            }
            StmtKind::Block(_) => self.stmt(s, depth),
            StmtKind::If(c, t, e) => {
                self.out.push_str("if ");
                self.expr(c);
                self.out.push('\n');
                self.stmt(t, depth + 1);
                if let Some(e) = e {
                    self.indent(depth);
                    self.out.push_str("else\n");
                    self.stmt(e, depth + 1);
                }
            }
            StmtKind::While(c, b, h) => {
                self.out.push_str("while ");
                self.expr(c);
                self.hints(h);
                self.stmt(b, depth + 1);
            }
            StmtKind::DoWhile(b, c, h) => {
                self.out.push_str("do");
                self.hints(h);
                self.stmt(b, depth + 1);
                self.indent(depth);
                self.out.push_str("while ");
                self.expr(c);
                self.out.push('\n');
            }
            StmtKind::For(i, c, st, b, h) => {
                self.out.push_str("for");
                self.hints(h);
                if let Some(i) = i {
                    self.indent(depth + 1);
                    self.out.push_str("init ");
                    self.stmt_line(i, depth + 1);
                }
                if let Some(c) = c {
                    self.indent(depth + 1);
                    self.out.push_str("cond ");
                    self.expr(c);
                    self.out.push('\n');
                }
                if let Some(st) = st {
                    self.indent(depth + 1);
                    self.out.push_str("step ");
                    self.expr(st);
                    self.out.push('\n');
                }
                self.stmt(b, depth + 1);
            }
            StmtKind::Switch(c, b) => {
                self.out.push_str("switch ");
                self.expr(c);
                self.out.push('\n');
                self.stmt(b, depth + 1);
            }
            StmtKind::Case(v, b) => {
                let _ = writeln!(self.out, "case {v}");
                self.stmt(b, depth + 1);
            }
            StmtKind::Default(b) => {
                self.out.push_str("default\n");
                self.stmt(b, depth + 1);
            }
            StmtKind::Label(n, b) => {
                let _ = writeln!(self.out, "label {n}");
                self.stmt(b, depth + 1);
            }
            StmtKind::Goto(n) => {
                let _ = writeln!(self.out, "goto {n}");
            }
            StmtKind::Break => self.out.push_str("break\n"),
            StmtKind::Continue => self.out.push_str("continue\n"),
            StmtKind::Return(e) => {
                self.out.push_str("return");
                if let Some(e) = e {
                    self.out.push(' ');
                    self.expr(e);
                }
                self.out.push('\n');
            }
            StmtKind::Empty => self.out.push_str("empty\n"),
            StmtKind::FpContract(on) => {
                let _ = writeln!(self.out, "fp_contract {}", if *on { "on" } else { "off" });
            }
        }
    }

    fn hints(&mut self, h: &LoopHints) {
        if let Some(u) = h.unroll {
            let _ = write!(self.out, " unroll({u})");
        }
        self.out.push('\n');
    }

    fn init(&mut self, i: &Init) {
        match i {
            Init::Expr(e) => self.expr(e),
            Init::List(t, items) => {
                let _ = write!(self.out, "{{{} ", self.prog.types.name(*t));
                for (k, x) in items.iter().enumerate() {
                    if k > 0 {
                        self.out.push_str(", ");
                    }
                    match x {
                        Some(x) => self.init(x),
                        None => self.out.push('0'),
                    }
                }
                self.out.push('}');
            }
        }
    }

    fn expr(&mut self, e: &Expr) {
        let ty = self.prog.types.name(e.ty);
        let _ = write!(self.out, "(");
        match &e.kind {
            ExprKind::IntConst(v) => {
                let _ = write!(self.out, "{v}");
            }
            ExprKind::FloatConst(v) => {
                let _ = write!(self.out, "{v:?}");
            }
            ExprKind::StrConst(s) => {
                let _ = write!(self.out, "{:?}", String::from_utf8_lossy(s));
            }
            ExprKind::Var(v) => {
                let prog = self.prog;
                let _ = write!(self.out, "var {}", prog.vars[v.0 as usize].name);
            }
            ExprKind::Load(x) => self.op("load", &[x]),
            ExprKind::Cast(k, x) => self.op(&format!("{k:?}"), &[x]),
            ExprKind::Unary(op, x) => self.op(&format!("{op:?}"), &[x]),
            ExprKind::Binary(op, a, b) => self.op(op.spelling(), &[a, b]),
            ExprKind::PtrAdd(a, b) => self.op("ptradd", &[a, b]),
            ExprKind::PtrDiff(a, b) => self.op("ptrdiff", &[a, b]),
            ExprKind::PtrCompare(op, a, b) => self.op(&format!("ptr{}", op.spelling()), &[a, b]),
            ExprKind::Assign(a, b) => self.op("=", &[a, b]),
            ExprKind::CompoundAssign {
                op,
                lhs,
                rhs,
                compute,
            } => {
                let c = self.prog.types.name(*compute);
                self.op(&format!("{}= in {c}", op.spelling()), &[lhs, rhs]);
            }
            ExprKind::IncDec { pre, inc, target } => {
                let name = match (pre, inc) {
                    (true, true) => "pre++",
                    (true, false) => "pre--",
                    (false, true) => "post++",
                    (false, false) => "post--",
                };
                self.op(name, &[target]);
            }
            ExprKind::Cond(c, a, b) => self.op("?:", &[c, a, b]),
            ExprKind::Comma(a, b) => self.op(",", &[a, b]),
            ExprKind::Call(c, args) => {
                match c.as_ref() {
                    Callee::User(f) => {
                        let _ = write!(self.out, "call {}", self.prog.functions[f.0 as usize].name);
                    }
                    Callee::Builtin { builtin, params } => {
                        let ps: Vec<String> =
                            params.iter().map(|t| self.prog.types.name(*t)).collect();
                        let _ = write!(self.out, "builtin {builtin}({})", ps.join(", "));
                    }
                    Callee::Block(b) => {
                        self.out.push_str("callblock ");
                        self.expr(b);
                    }
                }
                for a in args {
                    self.out.push(' ');
                    self.expr(a);
                }
            }
            ExprKind::Deref(x) => self.op("deref", &[x]),
            ExprKind::AddrOf(x) => self.op("addr", &[x]),
            ExprKind::Member(x, i) => self.op(&format!("field {i}"), &[x]),
            ExprKind::Swizzle(x, lanes) => self.op(&format!("swizzle {lanes:?}"), &[x]),
            ExprKind::VecElem(a, b) => self.op("elem", &[a, b]),
            ExprKind::VecLit(xs) => {
                self.out.push_str("vec");
                for x in xs {
                    self.out.push(' ');
                    self.expr(x);
                }
            }
            ExprKind::CompoundLit(i) => {
                self.out.push_str("literal ");
                self.init(i);
            }
            ExprKind::Block(b) => {
                let caps: Vec<&str> = b.captures.iter().map(|v| self.var(*v)).collect();
                let _ = write!(self.out, "block captures [{}]", caps.join(", "));
            }
            ExprKind::Error => self.out.push_str("error"),
        }
        let _ = write!(self.out, " : {ty})");
    }

    fn op(&mut self, name: &str, xs: &[&Expr]) {
        self.out.push_str(name);
        for x in xs {
            self.out.push(' ');
            self.expr(x);
        }
    }
}
