//! What the CPU backend's tests share: compiling IR text, filling argument blocks, 1-D ranges.
#![allow(dead_code)]

use ferrocl_cpu::{CpuProgram, NdRange};

/// Parses, verifies and compiles a module written as IR text.
pub fn compile(text: &str) -> CpuProgram {
    let module = ferrocl_ir::parse_module(text).unwrap_or_else(|e| panic!("{e:?}"));
    ferrocl_ir::verify_module(&module).unwrap_or_else(|e| panic!("{e:?}"));
    CpuProgram::compile(&module).unwrap_or_else(|e| panic!("{e}"))
}

/// Compiles OpenCL C as a program build does: front end, builtin library, standard passes.
pub fn compile_cl(source: &str) -> ferrocl_ir::Module {
    compile_cl_with(source, "")
}

/// [`compile_cl`] with build options.
pub fn compile_cl_with(source: &str, options: &str) -> ferrocl_ir::Module {
    let opts = ferrocl_clc::parse_build_options(options).expect("options");
    let target = ferrocl_clc::Target::full_profile_cpu();
    let program = ferrocl_clc::compile(source, &opts, &target, &[])
        .program
        .expect("compiles");
    let mut module = ferrocl_clc::lower(&program).expect("lowers");
    ferrocl_clc::library::link_with(&mut module, ferrocl_builtins::library).expect("links");
    ferrocl_ir::passes::PassManager::standard()
        .run(&mut module)
        .expect("passes");
    module
}

/// An argument block from 8-byte values (pointers, offsets and longs) in argument order.
pub fn block(program: &CpuProgram, kernel: &str, values: &[u64]) -> Vec<u8> {
    let k = program.kernel(kernel).unwrap();
    let mut bytes = vec![0u8; k.args_size];
    for (arg, v) in k.args.iter().zip(values) {
        bytes[arg.offset..arg.offset + arg.size].copy_from_slice(&v.to_ne_bytes()[..arg.size]);
    }
    bytes
}

/// A 1-D NDRange without offset.
pub fn nd1(global: u64, local: u64) -> NdRange {
    NdRange {
        work_dim: 1,
        global_offset: [0; 3],
        global_size: [global, 1, 1],
        local_size: [local, 1, 1],
    }
}

/// Runs kernel `@k(in, out)` of IR text `text` over `nd` with `input` and an output
/// of `out_len` zeroed bytes, on the CPU device and in the reference interpreter (with the
/// device's sub-group size); returns both outputs.
pub fn on_cpu_and_interpreter(
    text: &str,
    input: &[u8],
    out_len: usize,
    nd: NdRange,
) -> (Vec<u8>, Vec<u8>) {
    use ferrocl_ir::interp::{run_ndrange, KernelArgValue, Memory, NdRange as InterpRange, Val};
    let program = compile(text);
    let k = program.kernel("k").expect("kernel k");
    let mut cpu_out = vec![0u8; out_len];
    let args = block(
        &program,
        "k",
        &[input.as_ptr() as u64, cpu_out.as_mut_ptr() as u64],
    );
    // SAFETY: the argument block holds the addresses of `input` (read) and `cpu_out`
    // (written, `out_len` bytes, as the caller's kernel expects), which outlive the launch;
    // the local region holds the kernel's `__local` variables.
    unsafe { k.launch(&args, k.static_local_size, &nd) }.expect("runs on the CPU");

    let module = ferrocl_ir::parse_module(text).expect("parses");
    let mut memory = Memory::default();
    let inp = memory.alloc(input.to_vec());
    let out = memory.alloc(vec![0u8; out_len]);
    let range = InterpRange {
        work_dim: nd.work_dim,
        global_size: nd.global_size,
        local_size: nd.local_size,
        global_offset: nd.global_offset,
        sub_group_size: u64::from(ferrocl_cpu::SUB_GROUP_SIZE),
    };
    let args = [
        KernelArgValue::Val(Val::scalar(inp)),
        KernelArgValue::Val(Val::scalar(out)),
    ];
    let f = module.func_by_name("k").expect("@k");
    let (memory, r) = run_ndrange(&module, f, &args, memory, &range);
    r.expect("runs in the interpreter");
    let want = memory.region(out).expect("output region").to_vec();
    (cpu_out, want)
}

/// `c[i] = a[i] + b[i]` on floats, the tests' well-behaved kernel.
pub const VADD: &str = r#"
kernel @vadd(ptr.global, ptr.global, ptr.global) {
    arg "a": "float*" global none []
    arg "b": "float*" global none []
    arg "c": "float*" global none []
block0(v0: ptr.global, v1: ptr.global, v2: ptr.global):
    v3: i64 = global_id 0
    v4: i64 = iconst 4
    v5: i64 = imul v3, v4
    v6: ptr.global = ptradd v0, v5
    v7: ptr.global = ptradd v1, v5
    v8: ptr.global = ptradd v2, v5
    v9: f32 = load.global v6, align 4
    v10: f32 = load.global v7, align 4
    v11: f32 = fadd v9, v10
    store.global v11, v8, align 4
    return
}
"#;

/// Starts and lengths of out-of-bounds private sweeps: far below and far above an array, and
/// a long sweep past its end; on the native stack these would overwrite return addresses or
/// reach unmapped memory.
pub const FAR_SWEEPS: [(i64, i64); 5] = [
    (4, 1 << 16),
    (-(1 << 20), 64),
    (1 << 40, 64),
    (-(1 << 40), 64),
    (i64::MAX / 8, 16),
];

/// Runs [`VADD`]'s `c = a + b` (compiled as `p`) over `n` items and checks every element.
pub fn check_vadd(p: &CpuProgram, n: usize) {
    let a: Vec<f32> = (0..n).map(|i| i as f32 * 7.0 - 3.0).collect();
    let b: Vec<f32> = (0..n).map(|i| 100.0 - i as f32).collect();
    let mut c = vec![0f32; n];
    let args = block(
        p,
        "vadd",
        &[a.as_ptr() as u64, b.as_ptr() as u64, c.as_mut_ptr() as u64],
    );
    // SAFETY: a, b and c hold n floats each and outlive the launch.
    unsafe {
        p.kernel("vadd")
            .expect("vadd")
            .launch(&args, 0, &nd1(n as u64, 32))
    }
    .expect("a correct kernel runs");
    for i in 0..n {
        assert_eq!(c[i], a[i] + b[i], "element {i}");
    }
}

/// Runs kernel `smash` of `p` (arguments: an `int` per work-item, and the start and count of
/// private writes far outside its array) for each of [`FAR_SWEEPS`]: each launch must end, each
/// work-item must read back what it stored privately (`3 * id`), and another program must run
/// right after it.
pub fn sweep_far_private_writes(p: &CpuProgram) {
    let k = p.kernel("smash").expect("smash");
    let good = compile(VADD);
    for (start, n) in FAR_SWEEPS {
        let items = 96usize;
        let mut out = vec![-1i32; items];
        let args = block(
            p,
            "smash",
            &[out.as_mut_ptr() as u64, start as u64, n as u64],
        );
        // SAFETY: the argument block holds `out`'s address (96 ints, one per work-item),
        // which outlives the launch.
        unsafe { k.launch(&args, 0, &nd1(items as u64, 32)) }
            .unwrap_or_else(|e| panic!("start {start}, n {n}: {e}"));
        for (i, &v) in out.iter().enumerate() {
            assert_eq!(v, i as i32 * 3, "start {start}, n {n}, item {i}");
        }
        check_vadd(&good, 1000);
    }
}

/// Runs `run` on every `tests/filetests/AREA/*.ir`, in name order, and fails listing every
/// file whose run failed, with its error.
pub fn run_filetests(area: &str, run: impl Fn(&std::path::Path) -> Result<(), String>) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/filetests")
        .join(area);
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ir"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no filetests in {}", dir.display());
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| run(f).err().map(|e| format!("--- {}\n{e}", f.display())))
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} filetests failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

/// The module an IR file's text holds, which must verify.
pub fn verified_module(text: &str) -> Result<ferrocl_ir::Module, String> {
    let m = ferrocl_ir::parse_module(text).map_err(|e| format!("parse error: {e}"))?;
    if let Err(es) = ferrocl_ir::verify_module(&m) {
        let msgs: Vec<String> = es.iter().map(|e| e.to_string()).collect();
        return Err(format!("input does not verify:\n{}", msgs.join("\n")));
    }
    Ok(m)
}

/// `y` after kernel `name(__global const float *x, __global float *y, __local float *t, int
/// n)` of `source` (compiled as `p`) over `global`/`local` (work-items in x times y, `t` a
/// float for each work-item of a group) with `n`: on the CPU device, and in the interpreter.
pub fn xytn_outputs(
    (p, source, name): (&CpuProgram, &str, &str),
    global: [u64; 2],
    local: [u64; 2],
    n: i32,
) -> (Vec<u8>, Vec<u8>) {
    use ferrocl_ir::interp::{run_ndrange, KernelArgValue, Memory, NdRange as InterpRange, Val};
    let items = (global[0] * global[1]) as usize;
    let local_bytes = (local[0] * local[1] * 4) as usize;
    let x: Vec<u8> = (0..items)
        .flat_map(|i| (0.25 + (i % 97) as f32 / 128.0).to_le_bytes())
        .collect();
    let k = p.kernel(name).expect("the kernel");
    let mut y = vec![0u8; items * 4];
    let values = [x.as_ptr() as u64, y.as_mut_ptr() as u64, 0, n as u64];
    let mut block = vec![0u8; k.args_size];
    for (a, v) in k.args.iter().zip(values) {
        block[a.offset..a.offset + a.size].copy_from_slice(&v.to_ne_bytes()[..a.size]);
    }
    let nd = NdRange {
        work_dim: 2,
        global_offset: [0; 3],
        global_size: [global[0], global[1], 1],
        local_size: [local[0], local[1], 1],
    };
    // SAFETY: `x` and `y` hold a float for each work-item, which reads and writes its own,
    // and the local memory holds `t`'s float per work-item of a group.
    unsafe { k.launch(&block, local_bytes, &nd) }.expect("runs on the CPU");

    let module = compile_cl(source);
    let mut memory = Memory::default();
    let xi = memory.alloc(x);
    let yi = memory.alloc(vec![0u8; items * 4]);
    let args = [
        KernelArgValue::Val(Val::scalar(xi)),
        KernelArgValue::Val(Val::scalar(yi)),
        KernelArgValue::Local(local_bytes as u32),
        KernelArgValue::Val(Val::scalar(n as u32 as u64)),
    ];
    let range = InterpRange {
        work_dim: 2,
        global_size: [global[0], global[1], 1],
        local_size: [local[0], local[1], 1],
        global_offset: [0; 3],
        sub_group_size: u64::from(ferrocl_cpu::SUB_GROUP_SIZE),
    };
    let f = module.func_by_name(name).expect("the kernel");
    let (memory, r) = run_ndrange(&module, f, &args, memory, &range);
    r.expect("runs in the interpreter");
    (y, memory.region(yi).expect("y").to_vec())
}

/// Runs kernel `name` of `source` (compiled as `p`; arguments as [`xytn_outputs`]) over each
/// of `ranges` (global and local sizes in x and y) for each `n` of `ns`, and asserts that
/// its `y` equals the interpreter's.
pub fn check_xytn(
    (p, source, name): (&CpuProgram, &str, &str),
    ranges: &[([u64; 2], [u64; 2])],
    ns: &[i32],
) {
    for &(global, local) in ranges {
        for &n in ns {
            let (cpu, want) = xytn_outputs((p, source, name), global, local, n);
            let first = cpu.chunks(4).zip(want.chunks(4)).position(|(a, b)| a != b);
            assert!(
                first.is_none(),
                "{name} {global:?}/{local:?}, n = {n}: y[{first:?}] differs from the interpreter's"
            );
        }
    }
}

/// Compiles `source` (the wide-vector tier offered, the listing recorded), asserts that
/// kernel `name`'s work-group function note says `says`, and compares its `y` with the
/// interpreter's ([`check_xytn`]) over `ranges` and `ns`.
pub fn noted_and_checked(
    (source, name, says): (&str, &str, &str),
    ranges: &[([u64; 2], [u64; 2])],
    ns: &[i32],
) {
    let module = compile_cl(source);
    let options = ferrocl_device::CompileOptions {
        record: true,
        ..ferrocl_device::CompileOptions::default()
    };
    let p = CpuProgram::compile_with_tier(&module, None, &options, true).expect("compiles");
    let wg = p.listing().and_then(|l| l.stage("wg")).unwrap_or_default();
    assert!(
        wg.lines()
            .any(|l| l.starts_with(&format!("; kernel {name}:")) && l.contains(says)),
        "{name}: {says}:\n{}",
        wg.lines()
            .filter(|l| l.starts_with("; kernel"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    check_xytn((&p, source, name), ranges, ns);
}
