//! Measures the bandwidth of a vector add compiled from IR, and how the launch's scheduling
//! copes with its work-group size, from one work-item per group (the cost of a work-group
//! shows) to a few large groups (the balance between threads shows): `cargo run --release -p
//! ferrocl-cpu --example vadd_bandwidth`.

use ferrocl_cpu::{CpuProgram, NdRange};

const VADD: &str = r#"
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

fn main() {
    let module = ferrocl_ir::parse_module(VADD).expect("IR");
    let program = CpuProgram::compile(&module).expect("compile");
    let k = program.kernel("vadd").expect("kernel");
    let n = 1usize << 24;
    let a = vec![1.0f32; n];
    let b = vec![2.0f32; n];
    let mut c = vec![0.0f32; n];
    let mut args = vec![0u8; k.args_size];
    for (arg, p) in k
        .args
        .iter()
        .zip([a.as_ptr() as u64, b.as_ptr() as u64, c.as_mut_ptr() as u64])
    {
        args[arg.offset..arg.offset + 8].copy_from_slice(&p.to_ne_bytes());
    }
    // Down to one work-item per group (the cost of a group shows), up to 4 groups of 4 Mi.
    let sizes: [u64; 12] = [
        1, 2, 4, 8, 16, 64, 256, 1024, 4096, 1_048_576, 2_097_152, 4_194_304,
    ];
    for local in sizes {
        let nd = NdRange {
            work_dim: 1,
            global_offset: [0; 3],
            global_size: [n as u64, 1, 1],
            local_size: [local, 1, 1],
        };
        let mut times = Vec::new();
        for _ in 0..7 {
            let t = std::time::Instant::now();
            // SAFETY: the block points at three live vectors of n floats.
            unsafe { k.launch(&args, 0, &nd) }.expect("the kernel runs");
            times.push(t.elapsed().as_secs_f64());
        }
        times.sort_by(f64::total_cmp);
        let t = times[3];
        let groups = n as u64 / local;
        println!(
            "local {local:7} ({groups:8} groups): {:7.2} ms, {:5.2} GB/s, {:6.1} ns per group",
            t * 1e3,
            (3 * 4 * n) as f64 / t / 1e9,
            t * 1e9 / groups as f64
        );
    }
    assert!(c.iter().all(|&x| x == 3.0));
}
