//! Filetests: `tests/filetests/sema/*.cl` in, the printed checked tree (or the build log)
//! out, compared with the sibling `.out` file; `FERROCL_BLESS=1` rewrites the expectations.
//! A first line `// options: ...` gives build options.

use ferrocl_clc::{compile, parse_build_options, Target};
use std::path::Path;

fn render(src: &str) -> String {
    let opts = src
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("// options:"))
        .unwrap_or("")
        .trim();
    let c = compile(
        src,
        &parse_build_options(opts).expect("options"),
        &Target::full_profile_cpu(),
        &[],
    );
    match c.program {
        Some(p) => format!("{}{}", c.log, p.dump()),
        None => c.log,
    }
}

fn diff(expected: &str, actual: &str) -> String {
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    let mut out = String::new();
    for i in 0..e.len().max(a.len()) {
        match (e.get(i), a.get(i)) {
            (Some(x), Some(y)) if x == y => {}
            (x, y) => {
                out.push_str(&format!(
                    "line {}:\n- {}\n+ {}\n",
                    i + 1,
                    x.unwrap_or(&""),
                    y.unwrap_or(&"")
                ));
            }
        }
    }
    out
}

#[test]
fn sema_filetests() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filetests/sema");
    let bless = std::env::var_os("FERROCL_BLESS").is_some();
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .expect("filetests dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    let mut failures = Vec::new();
    let mut n = 0;
    for path in entries
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "cl"))
    {
        n += 1;
        let src = std::fs::read_to_string(path).expect("read");
        let actual = render(&src);
        let out = path.with_extension("out");
        if bless {
            std::fs::write(&out, &actual).expect("write");
            continue;
        }
        let expected = std::fs::read_to_string(&out).unwrap_or_default();
        if expected != actual {
            failures.push(format!("{}:\n{}", path.display(), diff(&expected, &actual)));
        }
    }
    assert!(n > 0, "no filetests found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
