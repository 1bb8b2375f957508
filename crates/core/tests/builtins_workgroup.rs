//! The work-group collective functions (OpenCL C 6.15.16) on the CPU device, through the
//! runtime's Program/Kernel API: every function for int, uint, long, ulong and float, in 1-,
//! 2- and 3-D NDRanges with uniform and non-uniform (smaller last) work-groups, checked
//! against results computed here from the same inputs, group by group in linear local id
//! order.
//!
//! Float sums: 6.15.16 says "The order of floating-point operations is not guaranteed for
//! the work_group_reduce_<op>, work_group_scan_inclusive_<op> and
//! work_group_scan_exclusive_<op> built-in functions that operate on half, float and double
//! data types", so a float sum of n terms is compared with the exact sum (in f64) within
//! n * FLT_EPSILON * sum |x|, the bound for any order of n - 1 float additions (Higham,
//! "Accuracy and Stability of Numerical Algorithms", 4.2). Float min and max are exact.
//!
//! These stay in Rust: random inputs over many NDRange shapes, checked against results
//! computed here group by group; one test drives the compiler and the CPU device directly (an
//! OpenCL C 2.0 program, which the device does not list), and one runs a kernel whose
//! behaviour is undefined, where only termination is checked. Barriers with fixed inputs are
//! kernel files in `tests/kernels/language/`.

use crate::builtins_harness;

use builtins_harness::{bytes, values, Rng, Runner};
use ferrocl_core::device::NdRange;

/// A type the collectives take, as the host computes with it.
trait Elem: Copy + Default + PartialEq + std::fmt::Debug {
    const NAME: &'static str;
    fn plus(self, o: Self) -> Self;
    fn least(self, o: Self) -> Self;
    fn most(self, o: Self) -> Self;
    /// 6.15.16: the identity of min (the type's max, +INF for floats) and of max.
    const MIN_IDENTITY: Self;
    const MAX_IDENTITY: Self;
    fn random(rng: &mut Rng) -> Self;
    fn to_f64(self) -> f64;
}

macro_rules! int_elem {
    ($t:ty, $name:literal, $rand:expr) => {
        impl Elem for $t {
            const NAME: &'static str = $name;
            fn plus(self, o: Self) -> Self {
                self.wrapping_add(o)
            }
            fn least(self, o: Self) -> Self {
                Ord::min(self, o)
            }
            fn most(self, o: Self) -> Self {
                Ord::max(self, o)
            }
            const MIN_IDENTITY: Self = <$t>::MAX;
            const MAX_IDENTITY: Self = <$t>::MIN;
            fn random(rng: &mut Rng) -> Self {
                let f: fn(&mut Rng) -> $t = $rand;
                f(rng)
            }
            fn to_f64(self) -> f64 {
                self as f64
            }
        }
    };
}

// Signed values stay small enough that no sum overflows (6.15.16 gives no wrapping rule
// for signed sums); unsigned ones cover the whole range, and their sums wrap.
int_elem!(i32, "int", |r| r.below(2_000_001) as i32 - 1_000_000);
int_elem!(u32, "uint", |r| r.next() as u32);
int_elem!(i64, "long", |r| r.below(1 << 50) as i64 - (1 << 49));
int_elem!(u64, "ulong", |r| r.next());

impl Elem for f32 {
    const NAME: &'static str = "float";
    fn plus(self, o: Self) -> Self {
        self + o
    }
    fn least(self, o: Self) -> Self {
        f32::min(self, o)
    }
    fn most(self, o: Self) -> Self {
        f32::max(self, o)
    }
    const MIN_IDENTITY: Self = f32::INFINITY;
    const MAX_IDENTITY: Self = f32::NEG_INFINITY;
    fn random(rng: &mut Rng) -> Self {
        rng.f32_exp(-8, 8)
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
}

/// Results per work-item of the kernel below.
const OUTS: usize = 10;

/// A kernel computing every collective of `T` for its work-item's input; `dims` picks the
/// form of work_group_broadcast (the last work-item of the group in x, the middle one in y,
/// the first in z).
fn source(t: &str, dims: u32) -> String {
    let broadcast = match dims {
        1 => "work_group_broadcast(x, get_local_size(0) - 1)",
        2 => "work_group_broadcast(x, get_local_size(0) - 1, get_local_size(1) / 2)",
        _ => "work_group_broadcast(x, get_local_size(0) - 1, get_local_size(1) / 2, 0)",
    };
    format!(
        "__kernel void k(__global const {t}* in, __global {t}* out, __global int* votes) {{
            size_t g = get_global_linear_id();
            {t} x = in[g];
            __global {t}* o = out + g * {OUTS};
            o[0] = work_group_reduce_add(x);
            o[1] = work_group_reduce_min(x);
            o[2] = work_group_reduce_max(x);
            o[3] = work_group_scan_inclusive_add(x);
            o[4] = work_group_scan_inclusive_min(x);
            o[5] = work_group_scan_inclusive_max(x);
            o[6] = work_group_scan_exclusive_add(x);
            o[7] = work_group_scan_exclusive_min(x);
            o[8] = work_group_scan_exclusive_max(x);
            o[9] = {broadcast};
            // all: true unless some item has the smallest input; any: true iff one has it.
            {t} m = work_group_reduce_min(x);
            votes[g * 2] = work_group_all(x != m);
            votes[g * 2 + 1] = work_group_any(x == m);
        }}"
    )
}

/// The global linear ids of each work-group's work-items, in linear local id order, and the
/// group's local sizes.
fn groups(nd: &NdRange) -> Vec<(Vec<usize>, [u64; 3])> {
    let (gs, ls) = (nd.global_size, nd.local_size);
    let n: [u64; 3] = std::array::from_fn(|d| gs[d].div_ceil(ls[d]));
    let mut out = Vec::new();
    for gz in 0..n[2] {
        for gy in 0..n[1] {
            for gx in 0..n[0] {
                let g = [gx, gy, gz];
                // 3.0: the last work-group of a dimension holds the remainder.
                let size: [u64; 3] = std::array::from_fn(|d| ls[d].min(gs[d] - g[d] * ls[d]));
                let mut ids = Vec::new();
                for lz in 0..size[2] {
                    for ly in 0..size[1] {
                        for lx in 0..size[0] {
                            let (x, y, z) = (gx * ls[0] + lx, gy * ls[1] + ly, gz * ls[2] + lz);
                            ids.push(((z * gs[1] + y) * gs[0] + x) as usize);
                        }
                    }
                }
                out.push((ids, size));
            }
        }
    }
    out
}

/// Whether `got` is an acceptable float sum of `xs` (see the module documentation).
fn close_sum(got: f64, xs: &[f64]) -> bool {
    let exact: f64 = xs.iter().sum();
    let mag: f64 = xs.iter().map(|x| x.abs()).sum();
    (got - exact).abs() <= xs.len() as f64 * f64::from(f32::EPSILON) * mag
}

fn check<T: Elem>(runner: &Runner, nd: NdRange, seed: u64) {
    check_with::<T>(runner, nd, seed, "-cl-std=CL3.0");
}

fn check_with<T: Elem>(runner: &Runner, nd: NdRange, seed: u64, options: &str) {
    let total = (nd.global_size[0] * nd.global_size[1] * nd.global_size[2]) as usize;
    let mut rng = Rng::new(seed);
    let input: Vec<T> = (0..total).map(|_| T::random(&mut rng)).collect();
    let program = runner.build(&source(T::NAME, nd.work_dim), options);
    let mut bufs = vec![
        bytes(&input),
        bytes(&vec![T::default(); total * OUTS]),
        bytes(&vec![0i32; total * 2]),
    ];
    runner.run_nd(&program, "k", &mut bufs, nd);
    let out: Vec<T> = values(&bufs[1]);
    let votes: Vec<i32> = values(&bufs[2]);
    let is_float = T::NAME == "float";
    for (ids, size) in groups(&nd) {
        let xs: Vec<T> = ids.iter().map(|&g| input[g]).collect();
        let fold =
            |f: fn(T, T) -> T, id: T, upto: usize| xs[..upto].iter().fold(id, |a, &b| f(a, b));
        let n = xs.len();
        let target = (size[0] - 1 + size[0] * (size[1] / 2)) as usize;
        let lo = fold(T::least, T::MIN_IDENTITY, n);
        for (l, &g) in ids.iter().enumerate() {
            let o = &out[g * OUTS..g * OUTS + OUTS];
            let at = format!("{} {nd:?}, work-item {g} (local {l})", T::NAME);
            // Sums: exact for integers (wrapping), within the bound for floats.
            for (k, upto) in [(0, n), (3, l + 1), (6, l)] {
                if is_float {
                    let terms: Vec<f64> = xs[..upto].iter().map(|x| x.to_f64()).collect();
                    assert!(
                        close_sum(o[k].to_f64(), &terms),
                        "{at}: result {k} is {:?}",
                        o[k]
                    );
                } else {
                    assert_eq!(o[k], fold(T::plus, T::default(), upto), "{at}: result {k}");
                }
            }
            assert_eq!(o[1], lo, "{at}: reduce_min");
            assert_eq!(o[2], fold(T::most, T::MAX_IDENTITY, n), "{at}: reduce_max");
            assert_eq!(
                o[4],
                fold(T::least, T::MIN_IDENTITY, l + 1),
                "{at}: inclusive min"
            );
            assert_eq!(
                o[5],
                fold(T::most, T::MAX_IDENTITY, l + 1),
                "{at}: inclusive max"
            );
            // 6.15.16: an exclusive scan's first result is the identity.
            assert_eq!(
                o[7],
                fold(T::least, T::MIN_IDENTITY, l),
                "{at}: exclusive min"
            );
            assert_eq!(
                o[8],
                fold(T::most, T::MAX_IDENTITY, l),
                "{at}: exclusive max"
            );
            assert_eq!(o[9], xs[target], "{at}: broadcast");
            let all = xs.iter().all(|&x| x != lo);
            let any = xs.contains(&lo);
            assert_eq!(votes[g * 2] != 0, all, "{at}: work_group_all");
            assert_eq!(votes[g * 2 + 1] != 0, any, "{at}: work_group_any");
        }
    }
}

fn nd(work_dim: u32, global: [u64; 3], local: [u64; 3]) -> NdRange {
    NdRange {
        work_dim,
        global_offset: [0; 3],
        global_size: global,
        local_size: local,
    }
}

/// NDRanges of every dimension, with uniform groups, smaller last groups, groups of one
/// work-item and one of the device's largest size.
fn ranges() -> Vec<NdRange> {
    vec![
        nd(1, [64, 1, 1], [64, 1, 1]),
        nd(1, [37, 1, 1], [8, 1, 1]),
        nd(1, [7, 1, 1], [1, 1, 1]),
        nd(1, [1000, 1, 1], [256, 1, 1]),
        nd(2, [10, 7, 1], [4, 3, 1]),
        nd(2, [16, 16, 1], [8, 8, 1]),
        nd(3, [5, 4, 3], [2, 3, 2]),
        nd(3, [4, 4, 4], [4, 4, 4]),
    ]
}

#[test]
fn int_collectives() {
    let runner = Runner::new();
    for (i, r) in ranges().into_iter().enumerate() {
        check::<i32>(&runner, r, 1 + i as u64);
    }
}

#[test]
fn uint_collectives() {
    let runner = Runner::new();
    for (i, r) in ranges().into_iter().enumerate() {
        check::<u32>(&runner, r, 100 + i as u64);
    }
}

#[test]
fn long_collectives() {
    let runner = Runner::new();
    for (i, r) in ranges().into_iter().enumerate() {
        check::<i64>(&runner, r, 200 + i as u64);
    }
}

#[test]
fn ulong_collectives() {
    let runner = Runner::new();
    for (i, r) in ranges().into_iter().enumerate() {
        check::<u64>(&runner, r, 300 + i as u64);
    }
}

#[test]
fn float_collectives() {
    let runner = Runner::new();
    for (i, r) in ranges().into_iter().enumerate() {
        check::<f32>(&runner, r, 400 + i as u64);
    }
}

#[test]
fn the_largest_work_group() {
    let runner = Runner::new();
    // 4096 is CL_DEVICE_MAX_WORK_GROUP_SIZE; the second group holds the remaining 904.
    check::<i32>(&runner, nd(1, [5000, 1, 1], [4096, 1, 1]), 7);
    check::<f32>(&runner, nd(1, [5000, 1, 1], [4096, 1, 1]), 8);
}

#[test]
fn without_optimizations() {
    // -cl-opt-disable keeps every variable in memory: the operands and results of the
    // collectives go through private stack slots.
    let runner = Runner::new();
    let options = "-cl-std=CL3.0 -cl-opt-disable";
    check_with::<i32>(&runner, nd(1, [37, 1, 1], [8, 1, 1]), 9, options);
    check_with::<u64>(&runner, nd(3, [5, 4, 3], [2, 3, 2]), 10, options);
}

/// Collectives in a loop, in a loop condition, under a branch every work-item of a group
/// takes the same way, between barriers and `__local` memory traffic, and in a called
/// function.
const CONTROL_FLOW: &str = "
int spread(int v) {
    return work_group_reduce_max(v) - work_group_reduce_min(v);
}

__kernel void k(__global const int* in, __global int* out) {
    __local int tile[16];
    size_t g = get_global_linear_id();
    size_t l = get_local_linear_id();
    size_t n = get_local_size(0) * get_local_size(1);
    int x = in[g];
    // A trip count the compiler cannot unroll: each pass runs the same collectives again.
    int trips = 2 + get_group_id(0) % 3;
    int acc = 0, b = 0, m = 0;
    for (int i = 0; i < trips; i++) {
        acc += work_group_scan_inclusive_add(x + i);
        b += work_group_broadcast(x * (i + 1), 0);
        m += work_group_reduce_max(x - i * (int)l);
    }
    int v = x & 7;
    int steps = 0;
    while (work_group_any(v > 0)) {
        v = v > 0 ? v - 1 : 0;
        steps++;
    }
    int r;
    if (get_group_id(0) % 2 == 0)
        r = work_group_reduce_add(x);
    else
        r = work_group_scan_exclusive_max(x);
    tile[l] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    int next = tile[(l + 1) % n];
    int s = work_group_reduce_add(next * (int)l);
    barrier(CLK_LOCAL_MEM_FENCE);
    tile[l] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g * 8 + 0] = acc;
    out[g * 8 + 1] = steps;
    out[g * 8 + 2] = r;
    out[g * 8 + 3] = s;
    out[g * 8 + 4] = spread(x);
    out[g * 8 + 5] = tile[n - 1 - l] + x;
    out[g * 8 + 6] = b;
    out[g * 8 + 7] = m;
}";

#[test]
fn collectives_in_loops_branches_and_functions() {
    let runner = Runner::new();
    let optimized = runner.build(CONTROL_FLOW, "-cl-std=CL3.0");
    let plain = runner.build(CONTROL_FLOW, "-cl-std=CL3.0 -cl-opt-disable");
    for (seed, range, program) in [
        (20, nd(2, [10, 7, 1], [4, 3, 1]), &optimized),
        (21, nd(1, [37, 1, 1], [8, 1, 1]), &optimized),
        (22, nd(2, [16, 2, 1], [16, 1, 1]), &optimized),
        (23, nd(1, [40, 1, 1], [16, 1, 1]), &plain),
    ] {
        let total = (range.global_size[0] * range.global_size[1]) as usize;
        let mut rng = Rng::new(seed);
        let input: Vec<i32> = (0..total).map(|_| rng.below(2001) as i32 - 1000).collect();
        let mut bufs = vec![bytes(&input), bytes(&vec![0i32; total * 8])];
        runner.run_nd(program, "k", &mut bufs, range);
        let out: Vec<i32> = values(&bufs[1]);
        let num_groups_x = range.global_size[0].div_ceil(range.local_size[0]) as usize;
        for (index, (ids, _)) in groups(&range).into_iter().enumerate() {
            let xs: Vec<i32> = ids.iter().map(|&g| input[g]).collect();
            let n = xs.len();
            let group_x = index % num_groups_x;
            let steps = xs.iter().map(|x| x & 7).max().unwrap_or(0);
            let sum: i32 = xs.iter().sum();
            let s: i32 = (0..n).map(|l| xs[(l + 1) % n] * l as i32).sum();
            let spread = xs.iter().max().unwrap_or(&0) - xs.iter().min().unwrap_or(&0);
            let trips = 2 + group_x as i32 % 3;
            let b: i32 = (0..trips).map(|i| xs[0] * (i + 1)).sum();
            let m: i32 = (0..trips)
                .map(|i| {
                    let v = xs.iter().enumerate().map(|(l, x)| x - i * l as i32);
                    v.max().unwrap_or(0)
                })
                .sum();
            for (l, &g) in ids.iter().enumerate() {
                let acc: i32 = (0..trips)
                    .map(|i| xs[..=l].iter().map(|x| x + i).sum::<i32>())
                    .sum();
                let r = if group_x % 2 == 0 {
                    sum
                } else {
                    xs[..l].iter().copied().max().unwrap_or(i32::MIN)
                };
                let want = [acc, steps, r, s, spread, s + xs[l], b, m];
                assert_eq!(
                    &out[g * 8..g * 8 + 8],
                    &want,
                    "{range:?}, work-item {g} (local {l})"
                );
            }
        }
    }
}

/// The collectives in an OpenCL C 2.0 program (6.15.16: "requires support for OpenCL C 2.0,
/// or OpenCL C 3.0 or newer and the __opencl_c_work_group_collective_functions feature"),
/// compiled for a target that accepts 2.0 (the CPU device lists 1.x and 3.0 only) and run on
/// the CPU device's code generator with a non-uniform last group.
#[test]
fn an_opencl_c_2_0_program_on_the_cpu_code_generator() {
    let src = "__kernel void k(__global const uint* in, __global uint* out) {
        size_t g = get_global_id(0);
        uint x = in[g];
        out[g * 3] = work_group_scan_exclusive_add(x);
        out[g * 3 + 1] = work_group_reduce_min(x);
        out[g * 3 + 2] = work_group_broadcast(x, 2);
    }";
    let options = ferrocl_clc::parse_build_options("-cl-std=CL2.0").expect("options");
    let target = ferrocl_clc::Target::full_profile_cpu();
    let compiled = ferrocl_clc::compile(src, &options, &target, &[]);
    let program = compiled
        .program
        .unwrap_or_else(|| panic!("does not compile:\n{}", compiled.log));
    let mut module = ferrocl_clc::lower(&program).expect("lowers");
    ferrocl_ir::passes::PassManager::standard()
        .run(&mut module)
        .expect("passes");
    let cpu = ferrocl_cpu::CpuProgram::compile(&module).expect("compiles for the CPU");
    let kernel = cpu.kernel("k").expect("kernel k");
    let input: Vec<u32> = (0..21u32).map(|i| (i * 7919) % 101).collect();
    let mut output = vec![0u32; 21 * 3];
    let mut args = vec![0u8; kernel.args_size];
    for (slot, ptr) in kernel
        .args
        .iter()
        .zip([input.as_ptr() as u64, output.as_mut_ptr() as u64])
    {
        args[slot.offset..slot.offset + 8].copy_from_slice(&ptr.to_le_bytes());
    }
    let range = ferrocl_cpu::NdRange {
        work_dim: 1,
        global_offset: [0; 3],
        global_size: [21, 1, 1],
        local_size: [8, 1, 1],
    };
    // SAFETY: the argument block holds the addresses of `input` (21 uints, read) and
    // `output` (63 uints, written), which outlive the launch; the kernel has no `__local`
    // memory.
    unsafe { kernel.launch(&args, kernel.static_local_size, &range) }.expect("runs");
    for (g, group) in input.chunks(8).enumerate() {
        for (l, _) in group.iter().enumerate() {
            let at = g * 8 + l;
            let want = [
                group[..l].iter().sum::<u32>(),
                *group.iter().min().expect("non-empty"),
                group[2],
            ];
            assert_eq!(&output[at * 3..at * 3 + 3], &want, "work-item {at}");
        }
    }
}

/// A kernel of the `cl_khr_work_group_uniform_arithmetic` functions (6.15.17) for `T`: mul
/// for every type, and/or/xor for the integers, and the logical forms of a predicate.
fn uniform_arithmetic_source(t: &str, integer: bool) -> String {
    let mut body = String::new();
    let mut k = 0;
    let mut emit = |body: &mut String, expr: &str| {
        body.push_str(&format!("    o[{k}] = {expr};\n"));
        k += 1;
    };
    let kinds = ["reduce", "scan_inclusive", "scan_exclusive"];
    for kind in kinds {
        emit(&mut body, &format!("work_group_{kind}_mul(a)"));
    }
    if integer {
        for op in ["and", "or", "xor"] {
            for kind in kinds {
                emit(&mut body, &format!("work_group_{kind}_{op}(b)"));
            }
        }
    }
    let mut logic = String::new();
    for (i, (op, kind)) in ["logical_and", "logical_or", "logical_xor"]
        .iter()
        .flat_map(|op| kinds.iter().map(move |kind| (op, kind)))
        .enumerate()
    {
        logic.push_str(&format!("    v[{i}] = work_group_{kind}_{op}(p);\n"));
    }
    format!(
        "#ifndef cl_khr_work_group_uniform_arithmetic
#error the extension macro is not defined
#endif
__kernel void k(__global const {t}* in_a, __global const {t}* in_b, __global {t}* out,
                         __global int* votes) {{
    size_t g = get_global_linear_id();
    {t} a = in_a[g];
    {t} b = in_b[g];
    // Predicates of several non-zero values: only their truth counts.
    int p = (int)(g * 2654435761u >> 29) & 6;
    __global {t}* o = out + g * 12;
    __global int* v = votes + g * 9;
{body}{logic}}}"
    )
}

fn check_uniform_arithmetic<T: Elem>(runner: &Runner, nd: NdRange, seed: u64) {
    let total = (nd.global_size[0] * nd.global_size[1] * nd.global_size[2]) as usize;
    let is_float = T::NAME == "float";
    let mut rng = Rng::new(seed);
    // Factors near 1 keep products in range: -1, 1 and now and then 2 or 3 for the integers;
    // [0.75, 1.25) for floats.
    let a: Vec<u64> = (0..total).map(|_| rng.next()).collect();
    let b: Vec<T> = (0..total).map(|_| T::random(&mut rng)).collect();
    let program = runner.build(
        &uniform_arithmetic_source(T::NAME, !is_float),
        "-cl-std=CL3.0",
    );
    let a_bytes = if is_float {
        let v: Vec<f32> = a
            .iter()
            .map(|&r| 0.75 + (r >> 40) as f32 / (1u64 << 25) as f32)
            .collect();
        bytes(&v)
    } else {
        let v: Vec<i64> = a
            .iter()
            .map(|&r| match r % 16 {
                0 => 2,
                1 => 3,
                2..=8 => -1,
                _ => 1,
            })
            .collect();
        // The low bytes of each i64 are the value in any narrower integer type.
        let size = std::mem::size_of::<T>();
        v.iter()
            .flat_map(|x| x.to_le_bytes()[..size].to_vec())
            .collect()
    };
    let a_vals: Vec<T> = values(&a_bytes);
    let mut bufs = vec![
        a_bytes,
        bytes(&b),
        bytes(&vec![T::default(); total * 12]),
        bytes(&vec![0i32; total * 9]),
    ];
    runner.run_nd(&program, "k", &mut bufs, nd);
    let out: Vec<T> = values(&bufs[2]);
    let votes: Vec<i32> = values(&bufs[3]);
    for (ids, _) in groups(&nd) {
        let xs: Vec<T> = ids.iter().map(|&g| a_vals[g]).collect();
        let bs: Vec<u64> = ids.iter().map(|&g| to_bits(b[g])).collect();
        // The predicate as the kernel computes it, from the global linear id.
        let ps: Vec<bool> = ids
            .iter()
            .map(|&g| ((g as u32).wrapping_mul(2_654_435_761) >> 29) & 6 != 0)
            .collect();
        for (l, &g) in ids.iter().enumerate() {
            let o = &out[g * 12..g * 12 + 12];
            let at = format!("{} {nd:?}, work-item {g} (local {l})", T::NAME);
            for (k, range) in [(0, 0..xs.len()), (1, 0..l + 1), (2, 0..l)] {
                let part = &xs[range];
                if is_float {
                    // 6.15.17 does not order the float multiplications either: each of the
                    // n - 1 roundings changes the product by a factor within 1 +- eps.
                    let exact: f64 = part.iter().map(|x| x.to_f64()).product();
                    let bound = part.len() as f64 * f64::from(f32::EPSILON) * exact.abs();
                    assert!(
                        (o[k].to_f64() - exact).abs() <= bound,
                        "{at}: mul result {k} is {:?}, exact {exact}",
                        o[k]
                    );
                } else {
                    let want = part.iter().fold(1u64, |p, &x| p.wrapping_mul(to_bits(x)));
                    assert_eq!(to_bits(o[k]), want & mask::<T>(), "{at}: mul result {k}");
                }
            }
            if !is_float {
                // 6.15.17: identities ~0 for and, 0 for or and xor.
                let ops: [(Combine<u64>, u64); 3] = [
                    (|x, y| x & y, u64::MAX),
                    (|x, y| x | y, 0),
                    (|x, y| x ^ y, 0),
                ];
                for (i, (f, id)) in ops.into_iter().enumerate() {
                    for (j, upto) in [bs.len(), l + 1, l].into_iter().enumerate() {
                        let want = bs[..upto].iter().fold(id, |acc, &x| f(acc, x)) & mask::<T>();
                        let k = 3 + i * 3 + j;
                        assert_eq!(to_bits(o[k]), want, "{at}: bitwise result {k}");
                    }
                }
            }
            // Logical: the identity is true for and, false for or and xor; results are
            // "non-zero" for true.
            let logic: [(Combine<bool>, bool); 3] = [
                (|x, y| x && y, true),
                (|x, y| x || y, false),
                (|x, y| x ^ y, false),
            ];
            for (i, (f, id)) in logic.into_iter().enumerate() {
                for (j, upto) in [ps.len(), l + 1, l].into_iter().enumerate() {
                    let want = ps[..upto].iter().fold(id, |acc, &x| f(acc, x));
                    let k = i * 3 + j;
                    assert_eq!(votes[g * 9 + k] != 0, want, "{at}: logical result {k}");
                }
            }
        }
    }
}

/// A combining operation and, beside it in the tables, its identity.
type Combine<T> = fn(T, T) -> T;

/// The bits of a value, zero-extended.
fn to_bits<T: Elem>(x: T) -> u64 {
    let b = bytes(&[x]);
    let mut full = [0u8; 8];
    full[..b.len()].copy_from_slice(&b);
    u64::from_le_bytes(full)
}

fn mask<T: Elem>() -> u64 {
    match std::mem::size_of::<T>() {
        8 => u64::MAX,
        n => (1u64 << (8 * n)) - 1,
    }
}

#[test]
fn uniform_arithmetic_extension() {
    let runner = Runner::new();
    for (i, range) in [
        nd(1, [37, 1, 1], [8, 1, 1]),
        nd(2, [10, 7, 1], [4, 3, 1]),
        nd(3, [5, 4, 3], [2, 3, 2]),
        nd(1, [300, 1, 1], [128, 1, 1]),
    ]
    .into_iter()
    .enumerate()
    {
        let seed = 500 + 10 * i as u64;
        check_uniform_arithmetic::<i32>(&runner, range, seed);
        check_uniform_arithmetic::<u32>(&runner, range, seed + 1);
        check_uniform_arithmetic::<i64>(&runner, range, seed + 2);
        check_uniform_arithmetic::<u64>(&runner, range, seed + 3);
        check_uniform_arithmetic::<f32>(&runner, range, seed + 4);
    }
}

/// A collective that only some work-items reach is undefined behaviour (6.15.16: "must be
/// encountered by all work-items in a work-group"); the launch must still end, and leave the
/// process and the next launch intact.
#[test]
fn a_collective_some_work_items_skip_ends() {
    let runner = Runner::new();
    let program = runner.build(
        "__kernel void k(__global int* out) {
            size_t g = get_global_id(0);
            if (get_local_id(0) % 3 == 1)
                out[g] = work_group_reduce_add((int)g) + work_group_broadcast((int)g, 1000000);
            else if (get_local_id(0) % 3 == 2)
                out[g] = work_group_scan_exclusive_min((int)g);
        }",
        "-cl-std=CL3.0",
    );
    let mut bufs = vec![bytes(&[0i32; 64])];
    runner.run_nd(&program, "k", &mut bufs, nd(1, [64, 1, 1], [16, 1, 1]));
    check::<i32>(&runner, nd(1, [37, 1, 1], [8, 1, 1]), 11);
}
