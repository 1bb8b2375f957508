//! `#pragma` and `_Pragma` (C99 6.10.6, 6.10.9; OpenCL C 6.12 and 9.1): the OpenCL pragmas,
//! loop-unroll hints, `#pragma once`, and a warning for every pragma the compiler does not act
//! on (clang's -Wunknown-pragmas), so that none is dropped without a word.

use super::*;

impl Preprocessor<'_> {
    pub(super) fn pragma(&mut self, dir: Token, rest: &[Token]) {
        let words: Vec<String> = rest.iter().map(|t| self.text(t)).collect();
        let w: Vec<&str> = words.iter().map(|s| s.as_str()).collect();
        match w.as_slice() {
            ["OPENCL", "EXTENSION", name, ":", behavior] => {
                let enable = match *behavior {
                    "enable" => true,
                    "disable" => false,
                    // 9.1: "require" and "warn" are not OpenCL behaviors.
                    other => {
                        self.diags.warning(
                            rest[4].loc,
                            format!("expected 'enable' or 'disable' - ignoring (found '{other}')"),
                        );
                        return;
                    }
                };
                if *name != "all" && !self.known_extensions.iter().any(|e| e == name) {
                    self.diags.warning(
                        rest[2].loc,
                        format!("unsupported OpenCL extension '{name}' - ignoring"),
                    );
                    return;
                }
                self.pragmas
                    .extensions
                    .push((name.to_string(), enable, dir.loc));
            }
            ["OPENCL", "EXTENSION", ..] => {
                let loc = rest.get(2).map_or(dir.loc, |t| t.loc);
                self.diags.warning(
                    loc,
                    "expected 'OPENCL EXTENSION name : enable|disable' - ignoring",
                );
            }
            ["OPENCL", "FP_CONTRACT", sw] => {
                let on = match *sw {
                    "ON" | "DEFAULT" => true,
                    "OFF" => false,
                    _ => {
                        self.diags
                            .warning(rest[2].loc, "expected 'ON' or 'OFF' or 'DEFAULT' in pragma");
                        return;
                    }
                };
                // Placed in the token stream by the next token; the parser scopes it.
                self.fp_contract_pending.push(on);
            }
            ["OPENCL", ..] => {
                self.diags
                    .warning(rest[0].loc, "unknown OpenCL pragma ignored");
            }
            ["unroll", ..] | ["nounroll"] => {
                // Kept for the loop that follows: a Pragma token whose `sym` carries the count
                // (0 = unroll fully, u32::MAX = do not unroll).
                // The count is macro-expanded, as clang does (`#pragma unroll N` with -DN=4).
                let arg: Vec<String> = if w.len() > 1 {
                    let toks = self.expand_list(rest[1..].to_vec());
                    toks.iter().map(|t| self.text(t)).collect()
                } else {
                    Vec::new()
                };
                let arg: Vec<&str> = arg.iter().map(|s| s.as_str()).collect();
                let positive = |n: &str| {
                    expr::parse_int(n)
                        .and_then(|(v, _)| u32::try_from(v).ok())
                        .filter(|&n| n > 0)
                };
                let count = match (w[0], arg.as_slice()) {
                    ("nounroll", []) => Some(u32::MAX),
                    ("unroll", []) => Some(0),
                    ("unroll", [n]) | ("unroll", ["(", n, ")"]) => positive(n),
                    _ => None,
                };
                match count {
                    Some(c) => {
                        let t = Token {
                            kind: Tok::Pragma,
                            flags: BOL,
                            len: dir.len,
                            loc: dir.loc,
                            sym: c,
                        };
                        self.push_back(t);
                    }
                    None => self.diags.error(
                        rest.get(1).map_or(dir.loc, |t| t.loc),
                        "invalid argument of '#pragma unroll'; expected a positive integer",
                    ),
                }
            }
            ["pack", ..] => self.pragma_pack(rest),
            ["once"] => {
                // Not a standard pragma, but what real headers guard themselves with (every
                // clang-based compiler honours it): later #includes of this file read nothing.
                if let Some(file) = self.current_file() {
                    let path = self.sm.file(file).name.clone();
                    let from_fs = self.fs_files.contains(&file);
                    let key = self.once_key(&path, from_fs);
                    self.once.insert(key);
                }
            }
            ["STDC", ..] => {
                // C99 6.10.6p2: FP_CONTRACT, FENV_ACCESS and CX_LIMITED_RANGE; the OpenCL
                // form of the first is `#pragma OPENCL FP_CONTRACT`.
                self.diags.warning(
                    rest[0].loc,
                    "pragma STDC is ignored by this compiler; use '#pragma OPENCL FP_CONTRACT'",
                );
            }
            [] => {}
            _ => {
                // clang's -Wunknown-pragmas: ignored, but never in silence.
                self.diags.warning(rest[0].loc, "unknown pragma ignored");
            }
        }
    }

    /// `#pragma pack(N)`, `pack(push[, label][, N])`, `pack(pop[, label | N])`, `pack()` and
    /// `pack(show)`: the maximum alignment of the members of the structures and unions
    /// defined after it, as clang (and GCC, and MSVC before them) honour it in OpenCL C too.
    /// Malformed forms are ignored with clang's warnings. The arguments are macro-expanded.
    fn pragma_pack(&mut self, rest: &[Token]) {
        let toks = self.expand_list(rest[1..].to_vec());
        let words: Vec<String> = toks.iter().map(|t| self.text(t)).collect();
        let w: Vec<&str> = words.iter().map(|s| s.as_str()).collect();
        let at = toks.first().map_or(rest[0].loc, |t| t.loc);
        let ["(", args @ .., ")"] = w.as_slice() else {
            self.diags
                .warning(at, "missing '(' after '#pragma pack' - ignoring");
            return;
        };
        // Arguments between the commas.
        let args: Vec<&str> = args.iter().copied().filter(|a| *a != ",").collect();
        let alignment = |s: &str| -> Option<Option<u32>> {
            let (v, _) = expr::parse_int(s)?;
            // clang: "expected #pragma pack parameter to be '1', '2', '4', '8', or '16'".
            matches!(v, 1 | 2 | 4 | 8 | 16).then_some(Some(v as u32))
        };
        let is_number = |s: &str| s.starts_with(|c: char| c.is_ascii_digit());
        let bad_value = "expected #pragma pack parameter to be '1', '2', '4', '8', or '16'";
        match args.as_slice() {
            [] => self.set_pack(None),
            ["show"] => {
                let v = self
                    .pack_now
                    .map_or("default".to_string(), |v| v.to_string());
                self.diags
                    .warning(at, format!("value of #pragma pack(show) == {v}"));
            }
            [n] if is_number(n) => match alignment(n) {
                Some(v) => self.set_pack(v),
                None => self.diags.warning(at, bad_value),
            },
            ["push", rest @ ..] => {
                let (label, value) = match rest {
                    [] => (None, None),
                    [n] if is_number(n) => (None, Some(*n)),
                    [l] => (Some(l.to_string()), None),
                    [l, n] if !is_number(l) && is_number(n) => (Some(l.to_string()), Some(*n)),
                    _ => {
                        self.diags.warning(
                            at,
                            "expected integer or identifier in '#pragma pack' - ignored",
                        );
                        return;
                    }
                };
                let value = match value.map(alignment) {
                    Some(None) => {
                        self.diags.warning(at, bad_value);
                        return;
                    }
                    Some(Some(v)) => Some(v),
                    None => None,
                };
                self.pack_stack.push((label, self.pack_now));
                if let Some(v) = value {
                    self.set_pack(v);
                }
            }
            ["pop", rest @ ..] => {
                let (label, value) = match rest {
                    [] => (None, None),
                    [n] if is_number(n) => (None, Some(*n)),
                    [l] => (Some(*l), None),
                    _ => {
                        self.diags.warning(
                            at,
                            "expected integer or identifier in '#pragma pack' - ignored",
                        );
                        return;
                    }
                };
                // Pops to the entry pushed with the label, or the last one.
                let found = match label {
                    Some(l) => self
                        .pack_stack
                        .iter()
                        .rposition(|(x, _)| x.as_deref() == Some(l)),
                    None => self.pack_stack.len().checked_sub(1),
                };
                let Some(i) = found else {
                    let why = if self.pack_stack.is_empty() {
                        "stack empty"
                    } else {
                        "label not found"
                    };
                    self.diags
                        .warning(at, format!("#pragma pack(pop, ...) failed: {why}"));
                    return;
                };
                let (_, restored) = self.pack_stack[i];
                self.pack_stack.truncate(i);
                self.set_pack(restored);
                // `pack(pop, N)`: pop, then set N.
                if let Some(n) = value {
                    match alignment(n) {
                        Some(v) => self.set_pack(v),
                        None => self.diags.warning(at, bad_value),
                    }
                }
            }
            _ => self
                .diags
                .warning(at, "unknown action for '#pragma pack' - ignored"),
        }
    }

    fn set_pack(&mut self, v: Option<u32>) {
        self.pack_now = v;
        self.pack_changed = true;
    }

    /// The file being read (the innermost file context).
    fn current_file(&self) -> Option<u32> {
        self.stack.iter().rev().find_map(|c| match c {
            Ctx::File { st, .. } => Some(st.file),
            _ => None,
        })
    }

    /// How `#pragma once` names a file: its canonical path when it was read from the file
    /// system (so `a/../b.h` and `b.h` are one file), else its name.
    pub(super) fn once_key(&self, path: &str, from_fs: bool) -> String {
        if from_fs {
            if let Ok(p) = std::fs::canonicalize(path) {
                return p.to_string_lossy().into_owned();
            }
        }
        path.to_string()
    }

    /// `_Pragma("...")` (C99 6.10.9); returns false when not followed by a string in parens.
    pub(super) fn pragma_operator(&mut self, op: Token) -> bool {
        let a = self.raw_next();
        if a.kind != Tok::LParen {
            self.push_back(a);
            self.diags
                .error(op.loc, "_Pragma takes a parenthesized string literal");
            return true;
        }
        let s = self.raw_next();
        let c = self.raw_next();
        if s.kind != Tok::Str || c.kind != Tok::RParen {
            self.diags
                .error(op.loc, "_Pragma takes a parenthesized string literal");
            return true;
        }
        let text = self.text(&s);
        let inner = text[1..text.len() - 1]
            .replace("\\\"", "\"")
            .replace("\\\\", "\\");
        let off = self.sm.scratch(&inner);
        let mut st = LexState {
            file: 0,
            pos: off as usize,
            bol: false,
        };
        let end = off as usize + inner.len();
        let mut toks = Vec::new();
        while st.pos < end {
            let t = self.lex_file(&mut st);
            if t.kind == Tok::Eof || t.loc.offset as usize >= end {
                break;
            }
            let mut t = t;
            t.loc.exp = self.new_expansion_at(op.loc);
            toks.push(t);
        }
        let mut d = op;
        d.len = 7;
        self.pragma(d, &toks);
        true
    }
}
