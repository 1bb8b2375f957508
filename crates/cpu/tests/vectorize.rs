//! The vectorizer against the scalar kernel, in the IR interpreter: every kernel of the
//! corpora this crate can reach (the OpenCL C corpus of `clc`, the bench kernels of `cli`,
//! the IR kernels of the CPU and IR tests) runs scalar and vectorized (each invocation W
//! consecutive work-items along x) on the same inputs, and the memory they leave must be equal
//! bit for bit. A kernel the vectorizer refuses counts as refused, with its reason.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use ferrocl_cpu::vectorize::vectorize;
use ferrocl_ir::interp::{
    run_ndrange, run_ndrange_chunks, run_ndrange_traced, KernelArgValue, Memory, NdRange, Val,
};
use ferrocl_ir::passes::PassManager;
use ferrocl_ir::{AddrSpace, Func, Module, Type};

const WIDTHS: [u32; 2] = [4, 8];
const BUFFER_BYTES: usize = 16384;

/// Compiles OpenCL C as a program build does: front end, builtin library, standard passes.
fn compile_cl(source: &str, options: &str) -> Option<Module> {
    let opts = ferrocl_clc::parse_build_options(options).ok()?;
    let target = ferrocl_clc::Target::full_profile_cpu();
    let program = ferrocl_clc::compile(source, &opts, &target, &[]).program?;
    let mut module = ferrocl_clc::lower(&program).ok()?;
    ferrocl_clc::library::link_with(&mut module, ferrocl_builtins::library).ok()?;
    PassManager::standard().run(&mut module).ok()?;
    Some(module)
}

/// A deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Arguments for `kernel`: buffers of small values of the pointee's type (indices stay in
/// range), scalars a little below the global size (so that bounds checks diverge).
fn arguments(module: &Module, kernel: Func, memory: &mut Memory, seed: u64) -> Vec<KernelArgValue> {
    let f = &module.funcs[kernel];
    let info = f.kernel.as_ref().expect("a kernel");
    let mut rng = Rng(seed | 1);
    let mut args = Vec::new();
    for (k, &ty) in f.sig.params.iter().enumerate() {
        let meta = &info.args[k];
        if ty.is_ptr() {
            if ty.addr_space() == Some(AddrSpace::Local) {
                args.push(KernelArgValue::Local(BUFFER_BYTES as u32));
                continue;
            }
            let name = meta.type_name.trim_start_matches("unsigned ");
            let mut bytes = Vec::with_capacity(BUFFER_BYTES);
            if name.starts_with("float") {
                while bytes.len() < BUFFER_BYTES {
                    let x = (rng.next() % 4001) as f32 / 1000.0 - 2.0;
                    bytes.extend_from_slice(&x.to_le_bytes());
                }
            } else if name.starts_with("double") {
                while bytes.len() < BUFFER_BYTES {
                    let x = (rng.next() % 4001) as f64 / 1000.0 - 2.0;
                    bytes.extend_from_slice(&x.to_le_bytes());
                }
            } else if name.starts_with("int") || name.starts_with("uint") {
                while bytes.len() < BUFFER_BYTES {
                    bytes.extend_from_slice(&((rng.next() % 64) as u32).to_le_bytes());
                }
            } else {
                while bytes.len() < BUFFER_BYTES {
                    bytes.push((rng.next() % 64) as u8);
                }
            }
            args.push(KernelArgValue::Val(Val::scalar(memory.alloc(bytes))));
        } else if ty.is_float() {
            let bits = match ty.lane_bits() {
                32 => u64::from(1.5f32.to_bits()),
                64 => 1.5f64.to_bits(),
                _ => 0x3e00,
            };
            args.push(KernelArgValue::Val(Val(vec![bits; ty.lanes() as usize])));
        } else {
            let x = if ty == Type::I1 { 1 } else { 24 };
            args.push(KernelArgValue::Val(Val(vec![x; ty.lanes() as usize])));
        }
    }
    args
}

#[derive(Default)]
struct Tally {
    compared: usize,
    refused: BTreeMap<String, Vec<String>>,
    /// The scalar kernel trapped on the generated inputs: nothing to compare.
    skipped: Vec<String>,
    /// The scalar kernel's own results vary between runs (a race between work-items).
    racy: Vec<String>,
    failures: Vec<String>,
}

/// The ranges to run: 1-D without and with an offset (lane 0's id then is no multiple of
/// W), and for kernels that ask for ids along y, a 2-D one (a 1-D kernel launched in 2-D
/// would race with itself). Local sizes along x are multiples of every width the device
/// chooses (16 for kernels over bytes, which run in groups merged to full chunks).
fn ranges(two_d: bool) -> Vec<NdRange> {
    let mut v = vec![
        NdRange {
            work_dim: 1,
            global_size: [64, 1, 1],
            local_size: [32, 1, 1],
            global_offset: [0; 3],
            sub_group_size: u64::from(ferrocl_cpu::SUB_GROUP_SIZE),
        },
        NdRange {
            work_dim: 1,
            global_size: [32, 1, 1],
            local_size: [16, 1, 1],
            global_offset: [5, 0, 0],
            sub_group_size: u64::from(ferrocl_cpu::SUB_GROUP_SIZE),
        },
    ];
    if two_d {
        v.push(NdRange {
            work_dim: 2,
            global_size: [32, 4, 1],
            local_size: [16, 2, 1],
            global_offset: [3, 1, 0],
            sub_group_size: u64::from(ferrocl_cpu::SUB_GROUP_SIZE),
        });
    }
    v
}

/// Whether `f` asks for a work-item id or size along y or z.
fn uses_y(f: &ferrocl_ir::Function) -> bool {
    f.layout.blocks().iter().any(|&b| {
        f.layout
            .block_insts(b)
            .iter()
            .any(|&i| matches!(f.dfg.insts[i].op, ferrocl_ir::Op::WorkItem(_, d) if d > 0))
    })
}

/// Runs every kernel of `module` scalar and vectorized and compares.
fn check_module(label: &str, module: &Module, tally: &mut Tally) {
    let kernels: Vec<Func> = module.kernels().map(|(f, _)| f).collect();
    for kernel in kernels {
        let name = format!("{label}:{}", module.funcs[kernel].name);
        // The widths every kernel is tried at, and the one the device chooses for it.
        let chosen = ferrocl_cpu::vector_width(&module.funcs[kernel]);
        let widths = WIDTHS
            .into_iter()
            .chain((!WIDTHS.contains(&chosen)).then_some(chosen));
        for width in widths {
            let v = match vectorize(&module.funcs[kernel], width) {
                Ok(v) => v,
                Err(r) => {
                    tally
                        .refused
                        .entry(r.reason)
                        .or_default()
                        .push(format!("{name} x{width}"));
                    continue;
                }
            };
            let mut m = module.clone();
            let mut func = v.func;
            func.name = format!("{}.x{width}", func.name);
            let wide = m.funcs.push(func);
            if let Err(e) = ferrocl_ir::verify_module(&m) {
                let text = ferrocl_ir::print_function(&m, &m.funcs[wide]);
                tally
                    .failures
                    .push(format!("{name} x{width}: invalid IR {e:?}\n{text}"));
                continue;
            }
            // The interpreter is slow: the largest kernels (the whole math library inlined)
            // run on one range only.
            let mut all = ranges(uses_y(&m.funcs[kernel]));
            if m.funcs[kernel].dfg.insts.len() > 4000 {
                all.truncate(1);
            }
            for (r, range) in all.iter().enumerate() {
                let mut memory = Memory::default();
                let args = arguments(&m, kernel, &mut memory, 0x9e37_79b9 + r as u64);
                let (scalar, sr) = run_ndrange(&m, kernel, &args, memory.clone(), range);
                if sr.is_err() {
                    tally.skipped.push(format!("{name} range {r}"));
                    continue;
                }
                let (vector, vr) =
                    run_ndrange_chunks(&m, wide, &args, memory.clone(), range, u64::from(width));
                if let Err(t) = vr {
                    let text = ferrocl_ir::print_function(&m, &m.funcs[wide]);
                    tally.failures.push(format!(
                        "{name} x{width} range {r}: vectorized trapped: {t}\n{text}"
                    ));
                    continue;
                }
                tally.compared += 1;
                // The buffers and program-scope variables; stack slots and local memory
                // come after them.
                let globals = m
                    .globals
                    .values()
                    .filter(|g| g.space != AddrSpace::Local)
                    .count();
                let n = memory.regions.len() + globals;
                if scalar.regions[..n] != vector.regions[..n] {
                    if order_dependent(&m, kernel, &args, &memory, range) {
                        tally.racy.push(format!("{name} range {r}"));
                    } else {
                        let text = ferrocl_ir::print_function(&m, &m.funcs[wide]);
                        tally
                            .failures
                            .push(format!("{name} x{width} range {r}: results differ\n{text}"));
                    }
                }
            }
        }
    }
}

/// Whether the scalar kernel's results depend on the order of its work-items, which the
/// spec leaves open: two work-items store to one address, or (in a kernel without barriers)
/// one loads what another stores, or an atomic's old value is used.
fn order_dependent(
    m: &Module,
    kernel: Func,
    args: &[KernelArgValue],
    memory: &Memory,
    range: &NdRange,
) -> bool {
    use ferrocl_ir::Op;
    let f = &m.funcs[kernel];
    let mut stores = std::collections::HashSet::new();
    let mut loads = std::collections::HashSet::new();
    let mut barrier = false;
    for &b in f.layout.blocks() {
        for &i in f.layout.block_insts(b) {
            let data = &f.dfg.insts[i];
            match data.op {
                Op::Store(_) => {
                    stores.insert(data.args[1]);
                }
                Op::Load(_) => {
                    loads.insert(data.args[0]);
                }
                Op::Barrier(..) => barrier = true,
                Op::AtomicRmw(..) | Op::Cmpxchg(..) | Op::AtomicLoad(_) => return true,
                _ => {}
            }
        }
    }
    let (_, _, traces) = run_ndrange_traced(m, kernel, args, memory.clone(), range);
    let mut stored: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
    let mut loaded: Vec<(u64, usize)> = Vec::new();
    for (k, t) in traces.iter().enumerate() {
        for (v, val) in &t.values {
            if stores.contains(v) {
                if stored.get(&val.bits()).is_some_and(|&o| o != k) {
                    return true;
                }
                stored.insert(val.bits(), k);
            }
            if !barrier && loads.contains(v) {
                loaded.push((val.bits(), k));
            }
        }
    }
    loaded
        .iter()
        .any(|(a, k)| stored.get(a).is_some_and(|o| o != k))
}

fn report(what: &str, tally: &Tally) {
    eprintln!(
        "{what}: {} comparisons, {} refusals, {} skipped (scalar trap), {} racy",
        tally.compared,
        tally.refused.values().map(Vec::len).sum::<usize>(),
        tally.skipped.len(),
        tally.racy.len()
    );
    for (reason, list) in &tally.refused {
        eprintln!(
            "  refused ({}): {reason}: {}",
            list.len(),
            list.iter().take(6).cloned().collect::<Vec<_>>().join(", ")
        );
    }
    if !tally.racy.is_empty() {
        eprintln!("  order-dependent: {}", tally.racy.join(", "));
    }
    for f in &tally.failures {
        eprintln!("FAILED {f}");
    }
    assert!(
        tally.failures.is_empty(),
        "{} failures",
        tally.failures.len()
    );
}

fn cl_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.retain(|p| p.extension().is_some_and(|e| e == "cl"));
    v.sort();
    v
}

fn options_of(text: &str) -> String {
    text.lines()
        .take_while(|l| l.starts_with("//"))
        .find_map(|l| l.trim_start_matches("//").trim().strip_prefix("options:"))
        .unwrap_or("")
        .trim()
        .to_string()
}

#[test]
fn clc_corpus_kernels_match_scalar() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../clc/tests/corpus/valid");
    let mut tally = Tally::default();
    let files = cl_files(&root);
    assert!(!files.is_empty(), "no corpus at {}", root.display());
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable");
        let Some(module) = compile_cl(&text, &options_of(&text)) else {
            continue;
        };
        let label = path.file_name().unwrap().to_string_lossy().to_string();
        check_module(&label, &module, &mut tally);
    }
    report("clc corpus", &tally);
    assert!(
        tally.compared > 100,
        "too few comparisons: {}",
        tally.compared
    );
}

/// The OpenCL C strings of the bench suite (`const NAME: &str = "\` ... `";`), in its two
/// files.
fn bench_sources() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cli/src/bench");
    let mut out = Vec::new();
    for file in ["suite.rs", "patterns.rs"] {
        let text = std::fs::read_to_string(dir.join(file)).expect("the bench suite");
        out.extend(consts_of(&text));
    }
    out
}

/// The OpenCL C strings of one Rust file.
fn consts_of(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("const ") {
        rest = &rest[start + 6..];
        let Some((name, after)) = rest.split_once(": &str = \"\\\n") else {
            continue;
        };
        if name.contains(char::is_whitespace) {
            continue;
        }
        let Some(end) = after.find("\n\";") else {
            break;
        };
        let body = after[..end].replace("\\\"", "\"").replace("\\\\", "\\");
        out.push((name.to_string(), body));
        rest = &after[end..];
    }
    out
}

#[test]
fn bench_kernels_match_scalar() {
    let mut tally = Tally::default();
    let sources = bench_sources();
    assert!(sources.len() >= 10, "found {} bench kernels", sources.len());
    for (name, source) in sources {
        let module = compile_cl(&source, "").unwrap_or_else(|| panic!("{name} compiles"));
        check_module(&name, &module, &mut tally);
    }
    report("bench", &tally);
}

/// IR text of kernels: `.ir` files of the IR filetests and raw strings of this crate's tests.
#[test]
fn ir_kernels_match_scalar() {
    let mut texts: Vec<(String, String)> = Vec::new();
    let ir_root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ir/tests/filetests");
    let mut dirs = vec![
        ir_root,
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filetests"),
    ];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "ir") {
                let t = std::fs::read_to_string(&p).expect("readable");
                texts.push((p.display().to_string(), t));
            }
        }
    }
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    for sub in [tests.clone(), tests.join("common")] {
        for e in std::fs::read_dir(&sub).into_iter().flatten().flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "rs") && !p.ends_with("vectorize.rs") {
                let t = std::fs::read_to_string(&p).expect("readable");
                for (k, piece) in t.split("r#\"").skip(1).enumerate() {
                    if let Some((body, _)) = piece.split_once("\"#") {
                        texts.push((format!("{}#{k}", p.display()), body.to_string()));
                    }
                }
            }
        }
    }
    let mut tally = Tally::default();
    for (label, text) in texts {
        let Ok(mut module) = ferrocl_ir::parse_module(&text) else {
            continue;
        };
        if module.kernels().next().is_none() || ferrocl_ir::verify_module(&module).is_err() {
            continue;
        }
        let mut pm = PassManager::new();
        pm.add("inline");
        if pm.run(&mut module).is_err() {
            continue;
        }
        check_module(&label, &module, &mut tally);
    }
    report("IR kernels", &tally);
    assert!(tally.compared > 0);
}

/// The chunk width follows the kernel's data: 16 lanes for bytes and shorts (one or two
/// 128-bit registers a value), 16 for `uchar4` and 8 for `ushort4` (a register a component),
/// the 32-bit widths otherwise; a stored id counts as data; a kernel that can tell its groups
/// apart keeps the 32-bit widths.
#[test]
fn narrow_data_gets_wider_chunks() {
    let cases = [
        (
            "__global uchar *a, __global uchar *b",
            "b[i] = add_sat(a[i], b[i]);",
            16,
        ),
        ("__global short *a", "a[i] = max(a[i], (short)0);", 16),
        // C promotes `short >> 1` to int: 32-bit data.
        ("__global short *a", "a[i] = a[i] >> 1;", 8),
        (
            "__global uchar *a",
            "vstore4(vload4(i, a) + (uchar4)(1), i, a);",
            16,
        ),
        (
            "__global ushort *a",
            "vstore4(vload4(i, a) >> (ushort4)(1), i, a);",
            8,
        ),
        ("__global float *a", "a[i] = a[i] * 2.0f;", 8),
        ("__global float4 *a", "a[i] = a[i] * 2.0f;", 4),
        ("__global int *a", "a[i] = (int)i;", 8),
        ("__global uchar *a", "a[i] = (uchar)i;", 16),
        (
            "__global uchar *a",
            "a[i] = a[i] + (uchar)get_local_id(0);",
            8,
        ),
    ];
    for (params, body, want) in cases {
        let source = format!("__kernel void k({params}) {{ size_t i = get_global_id(0); {body} }}");
        let module = compile_cl(&source, "").unwrap_or_else(|| panic!("{source} compiles"));
        let (kernel, _) = module.kernels().next().expect("a kernel");
        let width = ferrocl_cpu::vector_width(&module.funcs[kernel]);
        assert_eq!(width, want, "{source}");
    }
}

/// A heavy math builtin on a vector (`exp(float4)`: the library's wrapper loops over the lanes)
/// leaves no private array once the loop is unrolled, so the kernel vectorizes; the results
/// agree with the scalar kernel's.
#[test]
fn vector_math_calls_leave_no_private_arrays() {
    for body in [
        "a[i] = exp(a[i]);",
        "a[i] = log(fabs(a[i]) + 1.0f);",
        "a[i] = sin(a[i]) + pow(fabs(a[i]), (float4)(2.5f));",
    ] {
        let source = format!(
            "__kernel void k(__global float4 *a) {{ size_t i = get_global_id(0); {body} }}"
        );
        let module = compile_cl(&source, "").unwrap_or_else(|| panic!("{source} compiles"));
        let (kernel, _) = module.kernels().next().expect("a kernel");
        let f = &module.funcs[kernel];
        assert!(
            f.slots.is_empty(),
            "{source}: private memory left\n{module}"
        );
        assert!(
            ferrocl_cpu::vectorize::vectorize(f, 4).is_ok(),
            "{source} is not vectorized"
        );
        let mut tally = Tally::default();
        check_module(&source, &module, &mut tally);
        assert!(tally.compared > 0, "{source}");
    }
}

/// Compiles `source` and asserts that its kernels, vectorized, agree with the scalar kernel.
fn agrees(source: &str) {
    let module = compile_cl(source, "").unwrap_or_else(|| panic!("{source} compiles"));
    let mut tally = Tally::default();
    check_module(source, &module, &mut tally);
    assert!(tally.compared > 0, "{source}: {:?}", tally.refused);
    assert!(tally.failures.is_empty(), "{}", tally.failures.join("\n"));
}

/// A bounds check around a library function with a fast and a slow form (`exp`: its common
/// form, then its complete one for arguments from 89 on; the buffers hold -2..2, scaled here
/// to -100..100, so some chunks have such a lane and most do not), and around a branch of
/// arithmetic of its own, and in a loop under the bounds check: the masked blocks of
/// arithmetic are emitted behind a test that
/// skips them where no lane is active, and the results agree with the scalar kernel's in
/// chunks that skip them, run them for some lanes, and end the row part way.
#[test]
fn masked_arithmetic_skipped_where_no_lane_is_active_agrees() {
    agree_and_count(
        "__kernel void k(__global const float *x, __global float *y, int n) \
         { int i = get_global_id(0); BODY }",
        &[
            "if (i < n) y[i] = exp(x[i] * 50.0f);",
            "if (i < n) { float v = x[i] * 50.0f; float e = exp(v); y[i] = e + v; }",
            "if (i < n) { float v = x[i], a = v; \
             if (v > 1.5f) a = (v * v - 3.0f) * v / (v + 7.0f) + v * 0.25f - 1.0f; y[i] = a; }",
            "if (i < n) { float a = 0.0f; \
             for (int k = 0; k < 3; k++) a += exp(x[i] * 50.0f - (float)(k * 10)); y[i] = a; }",
        ],
        ferrocl_cpu::vectorize::skippable_count,
        "no masked block was emitted behind a test of its mask",
    );
}

/// Loads and stores of OpenCL vectors under a bounds check, at addresses of `int`
/// arithmetic (OpenCV's threshold and element-wise shapes): the block is emitted twice, the
/// first version assuming every lane active and the addresses' guards held, its whole-vector
/// accesses in one block, where the regrouping of the vectors cancels; the results agree
/// with the scalar kernel's in chunks whose lanes are all in bounds and in the one that ends
/// part way.
#[test]
fn masked_vector_accesses_at_guarded_addresses_agree() {
    regroups_and_agrees(
        "__kernel void k(__global const uchar *src, __global uchar *dst, int cols) \
         { int x = get_global_id(0); BODY }",
        &[
            "if (x < cols) { int i = mad24(x, 16, 3); uchar16 s = vload16(0, src + i); \
             vstore16(s > (uchar16)(30) ? (uchar16)(200) : (uchar16)(0), 0, dst + i); }",
            "if (x < cols) { int i = mad24(x, 4, 1); uchar4 s = vload4(0, src + i); \
             uchar4 t = vload4(0, src + i + 128); vstore4(max(s, t) - min(s, t), 0, dst + i); }",
        ],
    );
}

/// [`agrees`] for `kernel` with each of `bodies` in place of `BODY`; then, that some kernel's
/// regrouping of OpenCL vectors cancelled.
fn regroups_and_agrees(kernel: &str, bodies: &[&str]) {
    agree_and_count(
        kernel,
        bodies,
        ferrocl_cpu::vectorize::regrouped_count,
        "no kernel's regrouping cancelled",
    );
}

/// [`agrees`] for `kernel` with each of `bodies` in place of `BODY`; then, that the process's
/// `count` of what the kernels should reach grew (else fails with `none`).
fn agree_and_count(kernel: &str, bodies: &[&str], count: fn() -> u64, none: &str) {
    let before = count();
    for body in bodies {
        agrees(&kernel.replace("BODY", body));
    }
    assert!(count() > before, "{none}");
}

/// OpenCL vectors carried around a loop with constants of each component's own (a float4
/// polynomial by Horner's rule, a uchar4 sum with a saturating add, a float4 accumulator
/// whose loop exits at a bound per work-item, where the lanes leave at different trips): the
/// loop carries the loaded vectors' arrangement, and the results agree with the scalar
/// kernel's. A loop whose components meet (`a.x` added to each) keeps its own; it agrees too.
#[test]
fn regrouped_loop_carried_vectors_agree() {
    regroups_and_agrees(
        "__kernel void k(__global const float *x, __global float *y, int n) \
         { int i = get_global_id(0); BODY }",
        &[
            "float4 v = vload4(i, x); float4 a = (float4)(0.5f); \
             for (int k = 0; k < 9; k++) a = a * v + (float4)(0.25f, -0.5f, 0.75f, -1.0f); \
             vstore4(a, i, y);",
            "float4 v = vload4(i, x); float4 a = (float4)(1.0f, 2.0f, 3.0f, 4.0f); \
             for (int k = 0; k < n % 7; k++) a = fma(a, v, (float4)(-1.0f, 0.5f, 2.0f, 0.0f)); \
             vstore4(a, i, y);",
            "uchar4 v = convert_uchar4(vload4(i, x) * 40.0f); uchar4 a = (uchar4)(7); \
             for (int k = 0; k < 5; k++) a = add_sat(a, v ^ (uchar4)(1, 2, 3, 4)); \
             vstore4(convert_float4(a), i, y);",
            "float4 v = vload4(i, x); float4 a = (float4)(0.0f); \
             for (int k = 0; k < (i & 7); k++) a = a * v + (float4)(1.0f, 2.0f, 3.0f, 4.0f); \
             vstore4(a, i, y);",
            "float4 v = vload4(i, x); float4 a = (float4)(0.5f); \
             for (int k = 0; k < 6; k++) { a = a * v; a = a + a.x; } vstore4(a, i, y);",
        ],
    );
}
