//! Source files, locations and diagnostics. Every token carries a [`Loc`] (file and byte
//! offset) and an expansion index; a diagnostic stays a compact value until the build log is
//! rendered, clang style: `file:line:col: error: message`, the source line and a caret, and
//! "expanded from macro" notes for locations inside macro expansions.

use std::fmt::Write;

/// A position in one of the [`SourceMap`]'s files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct Loc {
    pub file: u32,
    pub offset: u32,
    /// Index + 1 into [`SourceMap::expansions`] when the token came out of a macro; 0 otherwise.
    pub exp: u32,
}

/// One macro expansion: where the macro was invoked and where the macro was defined.
#[derive(Clone, Debug)]
pub struct Expansion {
    pub name: String,
    pub call: Loc,
}

#[derive(Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    /// Byte offsets where each line starts.
    line_starts: Vec<u32>,
    /// Set by `#line`: (offset from which it applies, new line number of the next line, name).
    line_directives: Vec<(u32, u32, Option<String>)>,
}

impl SourceFile {
    fn new(name: String, text: String) -> Self {
        let mut line_starts = vec![0];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        SourceFile {
            name,
            text,
            line_starts,
            line_directives: Vec::new(),
        }
    }

    /// Physical (line, column), both 1-based; the column counts bytes.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        (line as u32 + 1, offset - self.line_starts[line] + 1)
    }

    pub fn line_text(&self, line: u32) -> &str {
        let start = self.line_starts[(line - 1) as usize] as usize;
        let end = self
            .line_starts
            .get(line as usize)
            .map_or(self.text.len(), |&e| e as usize);
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }

    /// The (name, line) a user sees, after `#line` directives.
    pub fn presumed(&self, offset: u32) -> (&str, u32) {
        let (line, _) = self.line_col(offset);
        let mut name: &str = &self.name;
        let mut shown = line;
        for (from, new_line, new_name) in &self.line_directives {
            if *from <= offset {
                let (dir_line, _) = self.line_col(*from);
                shown = new_line.wrapping_add(line).wrapping_sub(dir_line);
                if let Some(n) = new_name {
                    name = n;
                }
            }
        }
        (name, shown)
    }
}

/// All text the compiler has seen: the program source, included headers, the predefined-macro
/// buffer and a scratch file for tokens made by `#` and `##`.
#[derive(Debug, Default)]
pub struct SourceMap {
    pub files: Vec<SourceFile>,
    pub expansions: Vec<Expansion>,
}

impl SourceMap {
    pub fn add(&mut self, name: &str, text: String) -> u32 {
        self.files.push(SourceFile::new(name.to_string(), text));
        self.files.len() as u32 - 1
    }
    pub fn file(&self, id: u32) -> &SourceFile {
        &self.files[id as usize]
    }
    pub fn add_line_directive(&mut self, file: u32, from: u32, line: u32, name: Option<String>) {
        self.files[file as usize]
            .line_directives
            .push((from, line, name));
    }
    /// Appends `text` to the scratch file (file 0) and returns its offset.
    pub fn scratch(&mut self, text: &str) -> u32 {
        let f = &mut self.files[0];
        let off = f.text.len() as u32;
        f.text.push_str(text);
        f.text.push('\n');
        f.line_starts.push(f.text.len() as u32);
        off
    }
    /// The location a user should be shown: the outermost macro call for expanded tokens.
    pub fn spelling_to_user(&self, loc: Loc) -> Loc {
        let mut l = loc;
        let mut guard = 0;
        while l.exp != 0 && guard < 10_000 {
            l = self.expansions[(l.exp - 1) as usize].call;
            guard += 1;
        }
        l
    }
    pub fn describe(&self, loc: Loc) -> (String, u32, u32) {
        let l = self.spelling_to_user(loc);
        let f = self.file(l.file);
        let (_, col) = f.line_col(l.offset);
        let (name, line) = f.presumed(l.offset);
        (name.to_string(), line, col)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Note,
    Warning,
    Error,
}

#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub severity: Severity,
    pub loc: Loc,
    pub message: String,
    pub notes: Vec<(Loc, String)>,
}

/// Collects diagnostics; applies `-w` and `-Werror` as they arrive.
#[derive(Debug, Default)]
pub struct Diags {
    pub list: Vec<Diagnostic>,
    pub suppress_warnings: bool,
    pub warnings_as_errors: bool,
    errors: usize,
}

/// More errors than this and the compiler stops reporting (and stops early).
pub const MAX_ERRORS: usize = 100;

impl Diags {
    pub fn error(&mut self, loc: Loc, message: impl Into<String>) {
        self.push(Severity::Error, loc, message.into());
    }
    pub fn warning(&mut self, loc: Loc, message: impl Into<String>) {
        self.push(Severity::Warning, loc, message.into());
    }
    pub fn note(&mut self, loc: Loc, message: impl Into<String>) {
        if let Some(last) = self.list.last_mut() {
            last.notes.push((loc, message.into()));
        }
    }
    fn push(&mut self, mut severity: Severity, loc: Loc, message: String) {
        if severity == Severity::Warning {
            if self.suppress_warnings {
                return;
            }
            if self.warnings_as_errors {
                severity = Severity::Error;
            }
        }
        if severity == Severity::Error {
            self.errors += 1;
            if self.errors > MAX_ERRORS {
                return;
            }
        }
        self.list.push(Diagnostic {
            severity,
            loc,
            message,
            notes: Vec::new(),
        });
    }
    /// Forgets errors counted after a speculative check whose diagnostics were dropped.
    pub fn reset_error_count(&mut self, n: usize) {
        self.errors = n;
    }
    pub fn error_count(&self) -> usize {
        self.errors
    }
    pub fn has_errors(&self) -> bool {
        self.errors > 0
    }

    /// Orders diagnostics by where the user sees them (stable: same place keeps its order).
    pub fn sort(&mut self, sm: &SourceMap) {
        self.list.sort_by_key(|d| {
            let l = sm.spelling_to_user(d.loc);
            (l.file, l.offset)
        });
    }

    /// The build log: every diagnostic, clang style, no colour.
    pub fn render(&self, sm: &SourceMap) -> String {
        let mut out = String::new();
        for d in &self.list {
            let sev = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Note => "note",
            };
            render_one(&mut out, sm, d.loc, sev, &d.message);
            // Macro-expansion context, outermost first: where in each macro's definition
            // the offending token came from.
            let mut chain = Vec::new();
            let mut l = d.loc;
            while l.exp != 0 && chain.len() < 64 {
                let e = &sm.expansions[(l.exp - 1) as usize];
                if !e.name.is_empty() && l.file != 0 {
                    chain.push((Loc { exp: 0, ..l }, e.name.clone()));
                }
                l = e.call;
            }
            for (nl, name) in chain.iter().rev() {
                render_one(
                    &mut out,
                    sm,
                    *nl,
                    "note",
                    &format!("expanded from macro '{name}'"),
                );
            }
            for (nl, nm) in &d.notes {
                render_one(&mut out, sm, *nl, "note", nm);
            }
        }
        if self.errors > MAX_ERRORS {
            out.push_str("fatal error: too many errors emitted, stopping now\n");
        }
        let (e, w) = self.list.iter().fold((0, 0), |(e, w), d| match d.severity {
            Severity::Error => (e + 1, w),
            Severity::Warning => (e, w + 1),
            Severity::Note => (e, w),
        });
        let plural = |n: usize, s: &str| format!("{n} {s}{}", if n == 1 { "" } else { "s" });
        match (e, w) {
            (0, 0) => {}
            (0, w) => writeln!(out, "{} generated.", plural(w, "warning")).unwrap(),
            (e, 0) => writeln!(out, "{} generated.", plural(e, "error")).unwrap(),
            (e, w) => writeln!(
                out,
                "{} and {} generated.",
                plural(w, "warning"),
                plural(e, "error")
            )
            .unwrap(),
        }
        out
    }
}

fn render_one(out: &mut String, sm: &SourceMap, loc: Loc, sev: &str, msg: &str) {
    let l = sm.spelling_to_user(loc);
    let f = sm.file(l.file);
    let (line, col) = f.line_col(l.offset);
    let (name, shown) = f.presumed(l.offset);
    let _ = writeln!(out, "{name}:{shown}:{col}: {sev}: {msg}");
    if l.file != 0 {
        let text = f.line_text(line);
        let _ = writeln!(out, "{text}");
        let mut caret = String::new();
        for (i, ch) in text.char_indices() {
            if i + 1 >= col as usize {
                break;
            }
            caret.push(if ch == '\t' { '\t' } else { ' ' });
        }
        caret.push('^');
        let _ = writeln!(out, "{caret}");
    }
}
