//! Passes keep results: every function of every pass filetest is run by the reference
//! interpreter before and after its passes, on several inputs, and the return values and
//! all memory (buffers and globals) must be equal. Runs whose original traps (out-of-bounds
//! access, a call to a declaration) are undefined or unknowable and are skipped.

use std::fs;
use std::path::Path;

use ferrocl_ir::interp::{Interpreter, Trap, Val};
use ferrocl_ir::passes::PassManager;
use ferrocl_ir::{parse_module, Func, Module, Type};

const INTS: [i64; 7] = [0, 1, 5, -1, 3, 100, -7];
const FLOATS: [f64; 6] = [0.0, 1.5, -2.0, 0.1, 1e10, -0.0];

fn input(ty: Type, set: usize, k: usize, mem_ptrs: &mut Vec<u64>, interp: &mut Interpreter) -> Val {
    let pick = set + 3 * k;
    let lane = |l: usize| -> u64 {
        if ty.is_float() {
            ferrocl_ir::float::from_f64(
                FLOATS[(pick + l) % FLOATS.len()],
                ty,
                ferrocl_ir::Round::Rte,
            )
        } else if ty.is_bool() {
            ((pick + l) % 2) as u64
        } else {
            let bits = ty.lane_bits();
            (INTS[(pick + l) % INTS.len()] as u64)
                & if bits == 64 {
                    u64::MAX
                } else {
                    (1 << bits) - 1
                }
        }
    };
    if ty.is_ptr() {
        let bytes: Vec<u8> = (0..256).map(|i| (i * 37 + set * 11) as u8).collect();
        let p = interp.memory().alloc(bytes);
        mem_ptrs.push(p);
        return Val::scalar(p);
    }
    Val((0..ty.lanes() as usize).map(lane).collect())
}

fn run(m: &Module, f: Func, set: usize) -> (Result<Option<Val>, Trap>, Vec<Vec<u8>>) {
    let mut it = Interpreter::new(m);
    it.fuel = 100_000;
    let mut ptrs = Vec::new();
    let args: Vec<Val> = m.funcs[f]
        .sig
        .params
        .iter()
        .enumerate()
        .map(|(k, &t)| input(t, set, k, &mut ptrs, &mut it))
        .collect();
    let before = it.memory().regions.len();
    let r = it.call(f, &args);
    let mem = it.memory().regions[..before].to_vec();
    (r, mem)
}

#[test]
fn passes_keep_results_on_every_filetest() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filetests");
    let mut compared = 0;
    for dir in fs::read_dir(&root).expect("filetests") {
        let dir = dir.expect("entry").path();
        let pass = dir
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        if !dir.is_dir() || pass == "roundtrip" {
            continue;
        }
        for file in fs::read_dir(&dir).expect("pass dir") {
            let path = file.expect("entry").path();
            if path.extension().is_none_or(|x| x != "ir") {
                continue;
            }
            let text = fs::read_to_string(&path).expect("readable");
            let original = parse_module(&text).expect("parses");
            let mut optimized = original.clone();
            let mut pm = PassManager::new();
            pm.verify = true;
            match text
                .lines()
                .next()
                .and_then(|l| l.strip_prefix("; passes:"))
            {
                Some(list) => list
                    .split(',')
                    .for_each(|p| pm.add(p.trim()).expect("pass exists")),
                None => pm.add(&pass).expect("pass exists"),
            }
            pm.run(&mut optimized).expect("passes verify");
            for (f, func) in original.funcs.iter() {
                if func.is_declaration() {
                    continue;
                }
                for set in 0..6 {
                    let (want, want_mem) = run(&original, f, set);
                    if want.is_err() {
                        continue;
                    }
                    // Functions keep their names; `strip` may have removed or renumbered them.
                    let Some(g) = optimized.func_by_name(&func.name) else {
                        continue;
                    };
                    let (got, got_mem) = run(&optimized, g, set);
                    assert_eq!(
                        got,
                        want,
                        "{}: @{} input set {set}: results differ",
                        path.display(),
                        func.name
                    );
                    assert_eq!(
                        got_mem,
                        want_mem,
                        "{}: @{} input set {set}: memory differs",
                        path.display(),
                        func.name
                    );
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 50, "only {compared} runs compared");
}
