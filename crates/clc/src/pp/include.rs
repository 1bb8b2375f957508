//! `#include` (C99 6.10.2): finding the file beside the including file, among the embedded
//! headers and in the `-I` directories, skipping a file that `#pragma once` marked, with the
//! nesting depth and include count capped.

use super::*;

impl<'a> Preprocessor<'a> {
    pub(super) fn include(&mut self, dir: Token, rest: &[Token]) {
        // `<name>` is read raw from the line; a quoted name is a string token; otherwise the
        // line is macro-expanded first (6.10.2p4).
        let (name, angled) = if rest
            .first()
            .is_some_and(|t| t.kind == Tok::Lt && t.loc.exp == 0 && t.loc.file != 0)
        {
            let f = self.sm.file(rest[0].loc.file);
            let mut st = LexState {
                file: rest[0].loc.file,
                pos: rest[0].loc.offset as usize,
                bol: false,
            };
            match lex::header_name(&f.text, &mut st) {
                Some(n) => (n, true),
                None => {
                    self.diags.error(rest[0].loc, "expected '>'");
                    return;
                }
            }
        } else {
            let toks = self.expand_list(rest.to_vec());
            match toks.first() {
                Some(t) if t.kind == Tok::Str => {
                    let s = self.text(t);
                    (s[1..s.len() - 1].to_string(), false)
                }
                Some(t) if t.kind == Tok::Lt => {
                    let mut s = String::new();
                    for x in &toks[1..] {
                        if x.kind == Tok::Gt {
                            break;
                        }
                        s.push_str(&self.text(x));
                    }
                    (s, true)
                }
                _ => {
                    let end = Loc {
                        offset: dir.loc.offset + dir.len,
                        ..dir.loc
                    };
                    self.diags.error(end, "expected \"FILENAME\" or <FILENAME>");
                    return;
                }
            }
        };
        self.includes += 1;
        if self.includes > MAX_INCLUDES {
            self.diags.error(dir.loc, "too many #include directives");
            return;
        }
        if self.include_depth >= MAX_INCLUDE_DEPTH {
            self.diags.error(dir.loc, "#include nested too deeply");
            return;
        }
        let from_headers =
            |hs: &[(String, String)]| hs.iter().find(|(n, _)| *n == name).map(|(_, t)| t.clone());
        let from_dirs = |dirs: &[String]| {
            dirs.iter().find_map(|d| {
                let p = std::path::Path::new(d).join(&name);
                std::fs::read_to_string(&p)
                    .ok()
                    .map(|t| (p.to_string_lossy().into_owned(), t))
            })
        };
        // C99 6.10.2p3: a quoted name is first looked for beside the including file (for an
        // embedded header "dir/a.h", "b.h" may be "dir/b.h").
        let including = self.stack.iter().rev().find_map(|c| match c {
            Ctx::File { st, .. } => Some(st.file),
            _ => None,
        });
        let beside = including.and_then(|f| {
            let cur = &self.sm.file(f).name;
            let dir = cur.rfind('/').map(|i| &cur[..i])?;
            let candidate = format!("{dir}/{name}");
            if let Some((_, t)) = self.headers.iter().find(|(n, _)| *n == candidate) {
                return Some((candidate, t.clone()));
            }
            std::fs::read_to_string(&candidate)
                .ok()
                .map(|t| (candidate, t))
        });
        let found = if std::path::Path::new(&name).is_absolute() {
            // An absolute path names that file (an embedded header of that name first).
            from_headers(self.headers)
                .map(|t| (name.clone(), t))
                .or_else(|| {
                    std::fs::read_to_string(&name)
                        .ok()
                        .map(|t| (name.clone(), t))
                })
        } else if angled {
            from_dirs(self.include_dirs)
                .or_else(|| from_headers(self.headers).map(|t| (name.clone(), t)))
        } else {
            beside
                .or_else(|| from_headers(self.headers).map(|t| (name.clone(), t)))
                .or_else(|| from_dirs(self.include_dirs))
        };
        let Some((path, text)) = found else {
            let loc = rest.first().map_or(dir.loc, |t| t.loc);
            self.diags.error(loc, format!("'{name}' file not found"));
            return;
        };
        let from_fs =
            std::path::Path::new(&path).exists() && !self.headers.iter().any(|(n, _)| *n == path);
        if self.once.contains(&self.once_key(&path, from_fs)) {
            return;
        }
        let f = self.sm.add(&path, text);
        if from_fs {
            self.fs_files.push(f);
        }
        self.include_depth += 1;
        self.stack.push(Ctx::File {
            st: LexState::new(f),
            conds: Vec::new(),
        });
    }
}
