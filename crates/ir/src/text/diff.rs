//! Comparing printed IR with an expectation file, for filetests: a line diff, and the
//! check-or-bless step.

use std::path::Path;

/// Compares `got` with the contents of `expected` (the file a filetest's output must equal):
/// `Err` with a line diff when they differ or a note when the file is missing. With
/// `FERROCL_BLESS` set in the environment, writes `got` to `expected` instead.
pub fn check_expected(expected: &Path, got: &str) -> Result<(), String> {
    if std::env::var_os("FERROCL_BLESS").is_some() {
        return std::fs::write(expected, got).map_err(|e| e.to_string());
    }
    let want = std::fs::read_to_string(expected).map_err(|_| {
        format!(
            "{} is missing (run with FERROCL_BLESS=1)",
            expected.display()
        )
    })?;
    if want != got {
        return Err(format!(
            "output differs from {}:\n{}",
            expected.display(),
            line_diff(&want, got)
        ));
    }
    Ok(())
}

/// The lines of `want` and `got`, each marked `  ` (in both), `- ` (only in `want`) or `+ `
/// (only in `got`), along a longest common subsequence of lines.
pub fn line_diff(want: &str, got: &str) -> String {
    let a: Vec<&str> = want.lines().collect();
    let b: Vec<&str> = got.lines().collect();
    // Longest common subsequence table, then a walk that prints `-` and `+` lines.
    let mut l = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            l[i][j] = if a[i] == b[j] {
                l[i + 1][j + 1] + 1
            } else {
                l[i + 1][j].max(l[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, String::new());
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            out += &format!("  {}\n", a[i]);
            i += 1;
            j += 1;
        } else if j < b.len() && (i == a.len() || l[i][j + 1] >= l[i + 1][j]) {
            out += &format!("+ {}\n", b[j]);
            j += 1;
        } else {
            out += &format!("- {}\n", a[i]);
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn marks_removed_and_added_lines() {
        assert_eq!(
            super::line_diff("a\nb\nc\n", "a\nx\nc\n"),
            "  a\n+ x\n- b\n  c\n"
        );
    }
}
