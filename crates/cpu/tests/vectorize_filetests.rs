//! Vectorizer filetests: `filetests/vectorize/*.ir` is the input, the sibling `.expected` file
//! each kernel's W-wide function as text, or the reason it was refused. W is 4 unless a first
//! line `; width: 8` says otherwise. The input and every result must verify, and the
//! differential test (`vectorize.rs`) runs these kernels too. `FERROCL_BLESS=1` rewrites the
//! expectations.

use std::fs;
use std::path::Path;

use ferrocl_cpu::vectorize::vectorize;
use ferrocl_ir::{parse_module, print_function, verify_module};

fn run_file(path: &Path) -> Result<(), String> {
    let text = fs::read_to_string(path).map_err(|e| e.to_string())?;
    let width = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("; width:"))
        .map_or(Ok(4), |w| w.trim().parse::<u32>())
        .map_err(|e| format!("width: {e}"))?;
    let m = parse_module(&text).map_err(|e| format!("parse error: {e}"))?;
    verify_module(&m).map_err(|e| format!("input does not verify: {e:?}"))?;
    let mut got = String::new();
    for (_, f) in m.kernels() {
        match vectorize(f, width) {
            Ok(mut v) => {
                v.func.name = format!("{}.x{width}", f.name);
                let mut out = m.clone();
                out.funcs.push(v.func.clone());
                verify_module(&out)
                    .map_err(|e| format!("{}: result does not verify: {e:?}", f.name))?;
                got += &print_function(&out, &v.func);
            }
            Err(r) => got += &format!("; @{}: {r}\n", f.name),
        }
        got += "\n";
    }
    let expected = path.with_extension("expected");
    if std::env::var_os("FERROCL_BLESS").is_some() {
        fs::write(&expected, &got).map_err(|e| e.to_string())?;
        return Ok(());
    }
    let want = fs::read_to_string(&expected).unwrap_or_default();
    if want != got {
        return Err(format!(
            "output differs from {}; got:\n{got}",
            expected.display()
        ));
    }
    Ok(())
}

#[test]
fn vectorize_filetests() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filetests/vectorize");
    let mut files: Vec<_> = fs::read_dir(&dir)
        .expect("the filetest folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ir"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let failures: Vec<String> = files
        .iter()
        .filter_map(|p| run_file(p).err().map(|e| format!("{}: {e}", p.display())))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
