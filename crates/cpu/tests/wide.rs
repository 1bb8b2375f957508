//! The wide-vector tier (`ferrocl_cpu::wide`) against Cranelift (kernels with enough
//! arithmetic that the tier takes them, not bound by memory): each kernel is compiled
//! twice from the same module, the tier on and off, and run on the same inputs over ranges
//! whose sizes are and are not multiples of the tier's 16 lanes; the buffers they leave must be
//! equal bit for bit. Each kernel must have been taken by the tier (the listing says so), so
//! that the comparison tests its code. Skipped, with a note, where the host lacks AVX-512.
//!
//! The kernels are built with `-cl-fp32-correctly-rounded-divide-sqrt`: without it the tier
//! divides and takes square roots within OpenCL C's ulp bounds, not correctly rounded as
//! Cranelift's code does (`relaxed_divisions_and_roots_are_within_their_bounds` checks
//! those against the bounds).

use crate::common;

use common::compile_cl_with;
use ferrocl_cpu::{CpuProgram, NdRange};
use ferrocl_device::CompileOptions;

/// A kernel's arguments: buffers (of `words` 32-bit words, filled from `seed`) or scalars.
#[derive(Clone, Copy)]
enum Arg {
    Buffer {
        words: usize,
        seed: u32,
    },
    /// A buffer whose first word is `skew` words past a 64-byte boundary.
    Placed {
        words: usize,
        seed: u32,
        skew: usize,
    },
    Int(i32),
    Float(f32),
    Double(f64),
}

/// Runs kernel `name` of `p` over `nd` with `args`; returns every buffer afterwards.
fn run(p: &CpuProgram, name: &str, args: &[Arg], nd: &NdRange) -> Vec<Vec<u32>> {
    let k = p.kernel(name).expect("the kernel");
    let mut buffers: Vec<Vec<u32>> = args
        .iter()
        .filter_map(|a| match *a {
            Arg::Buffer { words, seed } | Arg::Placed { words, seed, .. } => Some(
                // Room for a `Placed` buffer's start.
                (0..words as u32 + 32)
                    .map(|i| {
                        let x = (i ^ seed).wrapping_mul(2654435761) >> 9;
                        // Small floats and their bit patterns read as integers alike.
                        (1.0 + (x % 1000) as f32 / 256.0).to_bits()
                    })
                    .collect(),
            ),
            _ => None,
        })
        .collect();
    let mut block = vec![0u8; k.args_size];
    let mut b = 0;
    // Where each buffer's words start (a `Placed` one's past its allocation's start).
    let mut starts = vec![0usize; buffers.len()];
    for (a, slot) in args.iter().zip(&k.args) {
        let bytes = match *a {
            Arg::Buffer { .. } => {
                let ptr = buffers[b].as_mut_ptr() as u64;
                b += 1;
                ptr.to_ne_bytes().to_vec()
            }
            Arg::Placed { skew, words, .. } => {
                let ptr = buffers[b].as_mut_ptr() as u64;
                starts[b] = (ptr.next_multiple_of(64) - ptr) as usize / 4 + skew;
                // The words as a `Buffer`'s, from the start.
                buffers[b].copy_within(..words, starts[b]);
                b += 1;
                (ptr + 4 * starts[b - 1] as u64).to_ne_bytes().to_vec()
            }
            Arg::Int(v) => v.to_ne_bytes().to_vec(),
            Arg::Float(v) => v.to_ne_bytes().to_vec(),
            Arg::Double(v) => v.to_ne_bytes().to_vec(),
        };
        block[slot.offset..slot.offset + slot.size].copy_from_slice(&bytes[..slot.size]);
    }
    // SAFETY: every buffer is as large as the kernels below index for the ranges given, and
    // the local memory holds their `__local` variables.
    unsafe { k.launch(&block, LOCAL_BYTES, nd).expect("runs") };
    for ((buffer, &start), a) in buffers.iter_mut().zip(&starts).zip(
        args.iter()
            .filter(|a| matches!(a, Arg::Buffer { .. } | Arg::Placed { .. })),
    ) {
        if let Arg::Placed { words, .. } = *a {
            buffer.drain(..start);
            buffer.truncate(words);
        }
    }
    buffers
}

/// The local memory each work-group gets: more than the kernels' `__local` variables take.
const LOCAL_BYTES: usize = 4096;

fn nd(global: [u64; 2], local: [u64; 2]) -> NdRange {
    NdRange {
        work_dim: 2,
        global_offset: [0; 3],
        global_size: [global[0], global[1], 1],
        local_size: [local[0], local[1], 1],
    }
}

/// Compiles `source` with the tier and without, checks that the tier took `name`, and
/// compares the two on each range. Returns the tier's build's machine code (the listing's).
fn compare(source: &str, name: &str, args: &[Arg], ranges: &[NdRange]) -> String {
    if !ferrocl_cpu::wide::host_supports() {
        eprintln!("skipped: this host lacks the wide-vector tier's instruction sets");
        return String::new();
    }
    let module = compile_cl_with(source, "-cl-fp32-correctly-rounded-divide-sqrt");
    let options = CompileOptions {
        record: true,
        ..CompileOptions::default()
    };
    // The tier's code is compared wherever it runs, also where it declines a kernel for speed.
    ferrocl_cpu::wide::take_all(true);
    let tier = CpuProgram::compile_with_tier(&module, None, &options, true).expect("tier");
    let plain = CpuProgram::compile_with_tier(&module, None, &options, false).expect("plain");
    let wg = tier
        .listing()
        .and_then(|l| l.stage("wg"))
        .unwrap_or_default();
    let width = ferrocl_cpu::wide::width();
    let line = wg
        .lines()
        .find(|l| l.starts_with(&format!("; kernel {name}:")))
        .unwrap_or_default();
    // Vectorized at the tier's width (or, on AVX-512, at 8 lanes where 16 do not vectorize),
    // or run a work-item at a time by the tier (a kernel of 512-bit vectors,
    // `tier_takes_wide_scalar`).
    let eight = width == 16 && line.contains(": 8 work-items a chunk");
    let took = (line.contains(&format!(": {width} work-items a chunk"))
        || eight
        || line.contains(": not vectorized: 512-bit vectors"))
        && line.ends_with("; wide tier");
    // On AVX2 the tier has no mask registers, no forms of AVX-512's own instructions
    // (`vpmovdb`, `vplzcntd`) and no `f64` lanes (`wide::f64_op`): such a kernel is
    // Cranelift's there, in both builds.
    let avx2 = ferrocl_cpu::wide::host_isa() == Some(ferrocl_cpu::wide::Isa::Avx2);
    let gap = line.contains("i1x8") || line.contains("no AVX2 form") || line.contains(": type f64");
    assert!(
        took || (avx2 && gap),
        "the tier did not take {name}:\n{}",
        wg.lines()
            .filter(|l| l.starts_with("; kernel"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    if !took {
        eprintln!("{name}: Cranelift's on this AVX2 host ({line})");
    }
    for r in ranges {
        let want = run(&plain, name, args, r);
        let got = run(&tier, name, args, r);
        for (i, (w, g)) in want.iter().zip(&got).enumerate() {
            let first = w.iter().zip(g).position(|(a, b)| a != b);
            assert!(
                first.is_none(),
                "{name}, range {:?}/{:?}: buffer {i} differs at word {:?}: {:?} against {:?}",
                r.global_size,
                r.local_size,
                first,
                first.map(|j| g[j]),
                first.map(|j| w[j]),
            );
        }
    }
    tier.listing()
        .and_then(|l| l.stage("asm"))
        .unwrap_or_default()
        .to_string()
}

/// Streaming kernels, each work-item on its own element by its linear id (so that on a 2D
/// range no two work-items, of groups that run at once, read and write one element).
const STREAMING: &str = "
__kernel void saxpy(float a, __global const float *x, __global float *y)
{
    size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
    y[i] = a * x[i] + y[i] * (y[i] - 1.0f) + 0.5f;
}
__kernel void triad(__global float *a, __global const float *b, __global const float *c, float s)
{
    size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
    a[i] = b[i] + s * c[i] - b[i] / c[i];
}
__kernel void ints(__global int *a, __global const int *b, int k)
{
    int i = get_global_id(1) * get_global_size(0) + get_global_id(0);
    a[i] = (b[i] * k + i) ^ (a[i] - 3) | (b[i] & 12);
}
";

/// Stores that bypass the caches: a triad's, and a loop's that writes a row a trip, stream
/// (`vmovntps`, where the launch streams and the address is aligned to the vector); a loop's
/// that writes one address in every trip does not, nor does a store into a buffer the
/// kernel reads or one of a kernel bound by its arithmetic.
const STREAMED: &str = "
__kernel void triad(__global float *a, __global const float *b, __global const float *c, float s)
{
    size_t i = get_global_id(0);
    a[i] = b[i] + s * c[i];
}
__kernel void rows(__global float *out, __global const float *in, int n)
{
    size_t i = get_global_id(0);
    for (int k = 0; k < n; ++k)
        out[k * get_global_size(0) + i] = in[i + k];
}
__kernel void last(__global float *out, __global const float *in, int n)
{
    size_t i = get_global_id(0);
    for (int k = 0; k < n; ++k)
        out[i] = in[i + k];
}
__kernel void saxpy(float a, __global const float *x, __global float *y)
{
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}
__kernel void poly(__global const float *x, __global float *y)
{
    size_t i = get_global_id(0);
    float v = x[i], p = 0.5f;
    for (int k = 0; k < 8; ++k)
        p = p * v + 0.25f;
    y[i] = p;
}
";

/// The tier's streamed stores write what Cranelift's plain ones do, every launch streaming
/// (`stream_all`), at buffers aligned to the vector and not: a misaligned address takes the
/// plain store (`vmovntps` faults on one).
#[test]
fn streamed_stores_match_plain_ones() {
    ferrocl_cpu::stream_all(true);
    let ranges = [
        nd([4096, 1], [256, 1]),
        nd([1000, 1], [100, 1]),
        nd([37, 1], [37, 1]),
    ];
    let mut asm = String::new();
    for skew in [0, 1, 8] {
        let buf = |seed| Arg::Placed {
            words: 4096 * 4,
            seed,
            skew,
        };
        asm = compare(
            STREAMED,
            "triad",
            &[buf(1), buf(2), buf(3), Arg::Float(-0.75)],
            &ranges,
        );
        compare(STREAMED, "rows", &[buf(4), buf(5), Arg::Int(4)], &ranges);
        compare(STREAMED, "last", &[buf(6), buf(7), Arg::Int(4)], &ranges);
        compare(
            STREAMED,
            "saxpy",
            &[Arg::Float(1.5), buf(8), buf(9)],
            &ranges,
        );
        compare(STREAMED, "poly", &[buf(10), buf(11)], &ranges);
    }
    if asm.is_empty() {
        return;
    }
    let kernel = |name: &str| {
        let from = asm
            .find(&format!("; kernel {name} "))
            .expect("the kernel's code");
        let rest = &asm[from + 1..];
        rest[..rest.find("; kernel ").unwrap_or(rest.len())].to_string()
    };
    for (name, streams) in [
        ("triad", true),
        ("rows", true),
        ("last", false),
        ("saxpy", false),
        ("poly", false),
    ] {
        let code = kernel(name);
        if !code.contains("wide tier") {
            continue;
        }
        assert_eq!(code.contains("vmovntps"), streams, "{name}:\n{code}");
        assert_eq!(code.contains("sfence"), streams, "{name}:\n{code}");
    }
}

#[test]
fn streaming_kernels_match_cranelift() {
    let ranges = [
        nd([4096, 1], [256, 1]),
        nd([1000, 1], [100, 1]),
        nd([37, 1], [37, 1]),
        nd([64, 3], [16, 1]),
    ];
    let buf = |seed| Arg::Buffer {
        words: 4096 * 3,
        seed,
    };
    compare(
        STREAMING,
        "saxpy",
        &[Arg::Float(1.5), buf(1), buf(2)],
        &ranges,
    );
    compare(
        STREAMING,
        "triad",
        &[buf(3), buf(4), buf(5), Arg::Float(-0.75)],
        &ranges,
    );
    compare(STREAMING, "ints", &[buf(6), buf(7), Arg::Int(-7)], &ranges);
}

/// A loop whose lanes leave at different trips: masks, selects, the any-lane test.
const DIVERGENT: &str = "
__kernel void iterate(__global float *x, __global uint *out, uint max_iter)
{
    size_t i = get_global_id(0);
    float z = x[i] - 1.0f;
    uint it = 0;
    while (it < max_iter && z * z < 1.0e6f) {
        z = z * z * 0.75f + 0.5f;
        ++it;
    }
    out[i] = it;
    x[i] = z;
}
";

#[test]
fn divergent_loop_matches_cranelift() {
    let buf = |seed| Arg::Buffer { words: 4096, seed };
    let args = [buf(8), buf(9), Arg::Int(40)];
    let ranges = [
        nd([4096, 1], [256, 1]),
        nd([1000, 1], [40, 1]),
        nd([21, 1], [21, 1]),
    ];
    compare(DIVERGENT, "iterate", &args, &ranges);
}

const MANDELBROT: &str = "
__kernel void mandelbrot(__global uint *out, int width, int height, uint max_iter)
{
    int x = get_global_id(0), y = get_global_id(1);
    float cr = -2.0f + 2.5f * x / width;
    float ci = -1.25f + 2.5f * y / height;
    float zr = 0.0f, zi = 0.0f;
    uint it = 0;
    while (it < max_iter && zr * zr + zi * zi <= 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        ++it;
    }
    out[y * width + x] = it;
}
";

#[test]
fn mandelbrot_matches_cranelift() {
    let out = Arg::Buffer {
        words: 96 * 40,
        seed: 0,
    };
    let args = [out, Arg::Int(96), Arg::Int(40), Arg::Int(200)];
    let ranges = [
        nd([96, 40], [32, 4]),
        nd([90, 40], [45, 2]),
        nd([96, 40], [96, 1]),
    ];
    compare(MANDELBROT, "mandelbrot", &args, &ranges);
}

/// Rounding, square roots, conversions to `int`, shifts by constants and by lanes, and the
/// library's `exp` and `log` (bit manipulation of floats).
const MATH: &str = "
__kernel void mix(__global float *x, __global int *y, int s)
{
    size_t i = get_global_id(0);
    float v = x[i] - 2.0f;
    int k = convert_int(v * 100.0f);
    int r = convert_int_sat_rte(v * 3.0e9f);
    y[i] = (k << (s & 7)) ^ (k >> 3) ^ (int)((uint)k >> ((int)i & 31)) ^ (k << y[i]) ^ r;
    x[i] = floor(v) + ceil(v * 2.5f) + trunc(-v) + rint(v * 1.5f) + sqrt(fabs(v));
}
__kernel void expo(__global const float *x, __global float *y)
{
    size_t i = get_global_id(0);
    y[i] = exp(x[i]) + log(x[i] + 2.0f);
}
__kernel void power(__global const float *x, __global float *y)
{
    size_t i = get_global_id(0);
    y[i] = pow(x[i] - 1.0f, y[i] * 3.0f - 8.0f);
}
";

/// `fmin` and `fmax` where an operand is a NaN (the other is the result) and of zeros of
/// either sign, and `exp` where some lanes but not all take its slow path (the test whether
/// every lane is in range): the special lanes come from the work-item's id, in every
/// combination.
const MIN_MAX: &str = "
__kernel void minmax(__global float *x, __global float *y, __global int *z)
{
    size_t i = get_global_id(0);
    uint k = (uint)i & 7, m = ((uint)i >> 3) & 7;
    float a = x[i] - 3.0f, b = y[i] - 3.0f;
    a = k == 1 ? NAN : k == 2 ? 0.0f : k == 3 ? -0.0f : k == 4 ? b : a;
    b = m == 1 ? NAN : m == 2 ? -0.0f : m == 3 ? 0.0f : b;
    x[i] = fmin(a, b);
    y[i] = fmax(a, b);
    z[i] = as_int(exp(a * 60.0f));
}
";

#[test]
fn min_max_match_cranelift() {
    let buf = |seed| Arg::Buffer { words: 4096, seed };
    let ranges = [nd([4096, 1], [256, 1]), nd([999, 1], [333, 1])];
    compare(MIN_MAX, "minmax", &[buf(14), buf(15), buf(16)], &ranges);
}

#[test]
fn math_matches_cranelift() {
    let buf = |seed| Arg::Buffer { words: 4096, seed };
    let ranges = [nd([4096, 1], [256, 1]), nd([999, 1], [333, 1])];
    compare(MATH, "mix", &[buf(10), buf(11), Arg::Int(5)], &ranges);
    compare(MATH, "expo", &[buf(12), buf(13)], &ranges);
    compare(MATH, "power", &[buf(17), buf(18)], &ranges);
}

/// OpenCV's element-wise `exp` and `log` shape: a row loop under `x < cols`, `float4`
/// math whose range checks make masks of their own. The loop's mask constants are
/// rematerialized where they are read; held in registers, they left too few for the rest.
const MASKS: &str = "
__kernel void masks(__global const float4 *src, __global float4 *dst, int rows, int cols)
{
    int x = get_global_id(0);
    int y0 = get_global_id(1) * 2;
    if (x < cols) {
        for (int y = y0, y1 = min(rows, y0 + 2); y < y1; ++y) {
            float4 v = src[y * cols + x];
            dst[y * cols + x] = exp(v * 30.0f - 90.0f) + log(v - 1.5f);
        }
    }
}
";

#[test]
fn many_masks_match_cranelift() {
    let buf = |seed| Arg::Buffer { words: 4096, seed };
    let ranges = [nd([64, 8], [16, 1]), nd([48, 7], [48, 1])];
    let args = [buf(19), buf(20), Arg::Int(15), Arg::Int(50)];
    compare(MASKS, "masks", &args, &ranges);
}

/// More masks live at once than the six mask registers: the conditions computed first and
/// read after a loop (spilled, `kmovw` to and from the stack).
const MASK_SPILLS: &str = "
__kernel void mspill(__global const float *src, __global float *dst, int n)
{
    size_t i = get_global_id(0);
    float a = src[i], b = src[i + 64], c = src[i + 128];
    bool m0 = a > 2.0f, m1 = b > 2.5f, m2 = c > 3.0f, m3 = a < b, m4 = b < c, m5 = a < c,
         m6 = a + b > 5.0f, m7 = b + c > 6.0f, m8 = ((int)i & 3) == 0;
    float x = a * b + c;
    for (int k = 0; k < n; k++)
        x = x * 0.75f + (m0 ? a : b) * (m1 ? 0.5f : 0.25f);
    x += m2 ? 1.0f : 2.0f;
    x += m3 ? a : c;
    x += m4 ? b : 0.5f;
    x += m5 ? 3.0f : a;
    x += m6 ? c : 1.5f;
    x += m7 ? 0.25f : b;
    x += m8 ? a * c : 0.125f;
    dst[i] = x;
}
";

/// `uchar4`s chosen per work-item (a pyramid's edge pixels): selects of byte lanes
/// (VPBLENDMB), of components regrouped from the lanes' own loads (a bitcast of the loaded
/// words to bytes).
const BYTE_SELECTS: &str = "
__kernel void edges(__global const uchar *src, __global uchar *dst, int n)
{
    int x = get_global_id(0);
    uchar4 l0 = vload4(0, src + 2 * x), l1 = vload4(0, src + 2 * x + 4);
    uchar8 l = (uchar8)(l0, l1);
    bool s = x == 0, e = x == (int)get_global_size(0) - 1;
    uchar4 a = s ? (uchar4)(l.s4, l.s3, l.s23) : l.s0123;
    uchar4 b = e ? (uchar4)(l.s345, l.s4) : l.s3456;
    float4 f = convert_float4(a) * 0.5f + convert_float4(b) * 0.25f;
    for (int k = 0; k < n; k++)
        f = f * 0.75f + convert_float4(l.s2345) * 0.125f;
    vstore4(convert_uchar4_sat_rte(f), 0, dst + 4 * x);
}
";

#[test]
fn spilled_masks_match_cranelift() {
    compare_with_count(MASK_SPILLS, "mspill", [21, 22]);
}

/// [`compare`] of a kernel of two buffers (from `seeds`) and the count 3, over 1024 and 999
/// work-items.
fn compare_with_count(source: &str, name: &str, seeds: [u32; 2]) {
    let buf = |seed| Arg::Buffer { words: 4096, seed };
    let args = [buf(seeds[0]), buf(seeds[1]), Arg::Int(3)];
    let ranges = [nd([1024, 1], [256, 1]), nd([999, 1], [333, 1])];
    compare(source, name, &args, &ranges);
}

/// Comparisons of byte lanes into masks (VPCMPUB, VPCMPB), unsigned and signed, a boolean
/// kept per work-item across a barrier (the context holds it as a byte, compared with zero
/// where it is read back), comparisons with constant vectors (from a register: byte lanes
/// have no broadcast operand).
const BYTE_COMPARES: &str = "
__kernel void bytes(__global const uchar *src, __global uchar *dst, int n)
{
    __local uchar t[256];
    int x = get_global_id(0), l = get_local_id(0);
    uchar a = src[x], e = src[x + 1024];
    char c = as_char(a);
    bool big = a > (uchar)n;
    uchar b = a > (uchar)100 ? a - (uchar)50 : a + (uchar)3;
    b = c < (char)-20 ? (uchar)9 : b;
    b = e != a ? b : (uchar)1;
    t[l] = b;
    barrier(CLK_LOCAL_MEM_FENCE);
    uchar u = t[l ^ 1];
    for (int k = 0; k < n; k++)
        b = b * (uchar)3 + u;
    dst[x] = big ? b : u;
}
";

#[test]
fn byte_compares_match_cranelift() {
    if !avx512_host("byte_compares_match_cranelift") {
        return;
    }
    let buf = |seed| Arg::Buffer { words: 4096, seed };
    let ranges = [nd([1024, 1], [256, 1]), nd([512, 1], [256, 1])];
    compare(
        BYTE_COMPARES,
        "bytes",
        &[buf(27), buf(28), Arg::Int(2)],
        &ranges,
    );
}

#[test]
fn byte_selects_match_cranelift() {
    if !avx512_host("byte_selects_match_cranelift") {
        return;
    }
    let buf = |seed| Arg::Buffer { words: 4096, seed };
    let ranges = [
        nd([1024, 1], [256, 1]),
        nd([999, 1], [333, 1]),
        nd([40, 1], [40, 1]),
    ];
    compare(
        BYTE_SELECTS,
        "edges",
        &[buf(23), buf(24), Arg::Int(2)],
        &ranges,
    );
}

/// `float2`s gathered at addresses that are not consecutive (each lane's 8 bytes loaded as
/// one `f64`, regrouped as floats), and quotients and remainders of `uint`s by constants
/// (made with 64-bit products, which the tier makes as the products' high halves): VkFFT's
/// shapes.
const GATHERED_PAIRS: &str = "
__kernel void pairs(__global const float2 *x, __global float2 *y, int n)
{
    uint i = get_global_id(0);
    float2 a = x[(i * 7u) % 509u], b = x[i / 3u + i % 5u];
    uint q = i / 257u + i % 255u + i / 641u;
    for (int k = 0; k < n; k++)
        a = (float2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x) * 0.5f + (float)(q & 7u);
    y[i] = a;
}
";

#[test]
fn gathered_pairs_and_constant_divisions_match_cranelift() {
    if !avx512_host("gathered_pairs_and_constant_divisions_match_cranelift") {
        return;
    }
    compare_with_count(GATHERED_PAIRS, "pairs", [25, 26]);
}

/// A group 8 wide, which does not vectorize at 16 lanes: AVX-512's tier runs it at 8 (`ymm`
/// registers, masks of 8 lanes: the byte forms of the mask instructions). Its loop gathers
/// lanes read out of order at a base index the loop moves (offsets `(ext(s) + k) << 2` taken
/// lane by lane, the sum's scalar in a register that the last lane's offset may reuse), and
/// a transposed `__local` tile feeds branches that split the lanes.
const GROUP8: &str = "
__kernel __attribute__((reqd_work_group_size(8, 8, 1)))
void tile8(__global const float *a, __global float *b, int n)
{
    __local float t[8][9];
    int x = get_local_id(0), y = get_local_id(1);
    int gx = get_global_id(0), gy = get_global_id(1);
    int s = (x * 3) & 7;
    float acc = 0.0f;
    for (int k = 0; k < n; k++) {
        float v = a[gy * 64 + s + 8 * k];
        acc = acc * 0.75f + v * v - v * 0.5f + 0.125f * (v - acc) + v * acc * 0.0625f;
    }
    t[y][x] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    float v = t[x][y];
    if (v > 1.5f)
        v = v * v - 1.0f;
    else if (x < 3)
        v = -v;
    b[gy * 64 + gx] = v;
}
";

#[test]
fn groups_8_wide_match_cranelift() {
    let args = [
        Arg::Buffer {
            words: 4096,
            seed: 41,
        },
        Arg::Buffer {
            words: 4096,
            seed: 42,
        },
        Arg::Int(5),
    ];
    let asm = compare(GROUP8, "tile8", &args, &[nd([64, 64], [8, 8])]);
    if ferrocl_cpu::wide::host_isa() == Some(ferrocl_cpu::wide::Isa::Avx512) {
        assert!(
            asm.contains("%ymm"),
            "the tier's code is not 8 lanes wide:\n{asm}"
        );
    }
}

/// `GROUP8` in `double`: AVX-512's tier computes `f64` lanes at 8 a `zmm` register (the
/// `pd` forms of its `f32` selection), scalars in the low lane of an `xmm` (`sd` forms): an
/// argument, gathered lanes, fmas, quotients, a `double2`'s swizzle, a `__local` tile,
/// comparisons of vectors and of a scalar, choices and negations.
const GROUP8_DOUBLE: &str = "
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel __attribute__((reqd_work_group_size(8, 8, 1)))
void dtile8(__global const double *a, __global double *b, double alpha, int n)
{
    __local double t[8][9];
    int x = get_local_id(0), y = get_local_id(1);
    int gx = get_global_id(0), gy = get_global_id(1);
    double acc = 0.0;
    double2 p = (double2)(alpha, 1.0);
    for (int k = 0; k < n; k++) {
        double v = a[gy * 32 + ((x * 3) & 7) + 8 * k];
        acc = fma(v, alpha, acc) - v / (acc + 2.0);
        p = p.yx * v + p;
    }
    t[y][x] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    double v = t[x][y];
    v = v > 0.5 ? v * p.x : -v + p.y;
    if (alpha == 1.5)
        v = v - 0.25;
    b[gy * 64 + gx] = v;
}
";

/// A kernel in `double` vectorized at 16 lanes is taken at 8 (a vector of 16 `f64` lanes
/// has no register); groups 12 wide run their last 4 work-items in its scalar code, where a
/// `double2` is one `xmm` register and its swizzle a permutation. Local ids, `long`s and
/// `int`s converted to `double`; `fmin` and `fmax` (a NaN operand gives the other),
/// `fabs`, `sqrt` and the roundings.
const DOUBLE_MIX: &str = "
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void dmix(__global const double *a, __global double *b, double alpha)
{
    int i = get_global_id(1) * get_global_size(0) + get_global_id(0);
    double2 p = (double2)(a[i], alpha);
    double v = a[(i * 5) & 1023];
    p = p.yx * v + p;
    double w = v > 1.0 ? p.x / v : -p.y;
    if (alpha == 1.5)
        w = fma(w, v, alpha);
    w += (double)get_local_id(0) * 0.5 + (double)(long)(i - 100) * 0.25 + (double)(i & 7);
    double q = v > 2.5 ? NAN : v;
    w += fmin(w, fabs(p.y) + 1.0) + fmax(sqrt(fabs(v)), floor(v * 3.0)) - ceil(w) + trunc(v)
        + rint(v * 2.5) + fmax(q, 0.5) + fmin(q, -w);
    b[i] = w - p.x * p.y;
}
";

/// `float3`s, in the kernel's scalar code (the work-items after a group's last full chunk):
/// an `xmm` register whose fourth lane is never read, loaded and stored 12 bytes at a time
/// (`float3`s in memory, whose fourth word no store may touch), and `vload3`/`vstore3` at
/// the end of a buffer.
const FLOAT3: &str = "
__kernel void bodies(__global const float4 *pos, __global float *acc, int n, float eps2)
{
    size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
    float4 p = pos[i];
    float3 a = (float3)(0.0f, 0.0f, 0.0f);
    for (int j = 0; j < n; ++j) {
        float4 q = pos[j];
        float3 d = q.xyz - p.xyz;
        float inv = 1.0f / sqrt(dot(d, d) + eps2);
        a += (q.w * inv * inv * inv) * d;
    }
    float3 b = vload3(i, acc);
    vstore3(a * 0.5f + b.zxy, i, acc);
}
__kernel void scale3(__global float3 *v, float k)
{
    size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
    float3 x = v[i];
    v[i] = x.zyx * k + x;
}
";

#[test]
fn float3_matches_cranelift() {
    // One `float4` and one `float3` a work-item, 1365 of them; the second buffer has one
    // word more: the last work-item's 12 bytes end 4 bytes before it does, which the
    // comparison checks too.
    let args = [
        Arg::Buffer {
            words: 1365 * 4,
            seed: 47,
        },
        Arg::Buffer {
            words: 1365 * 3 + 1,
            seed: 48,
        },
        Arg::Int(9),
        Arg::Float(0.01),
    ];
    let ranges = [nd([455, 3], [13, 1]), nd([1360, 1], [80, 1])];
    compare(FLOAT3, "bodies", &args, &ranges);
    // A `float3` in memory takes 16 bytes; the fourth word of each is left as it was.
    let args = [
        Arg::Buffer {
            words: 1365 * 4,
            seed: 49,
        },
        Arg::Float(0.75),
    ];
    compare(FLOAT3, "scale3", &args, &ranges);
}

#[test]
fn doubles_8_wide_match_cranelift() {
    let ranges = [nd([48, 7], [12, 1]), nd([64, 8], [16, 1])];
    for alpha in [1.5, 0.75] {
        let args = [
            Arg::Buffer {
                words: 4096,
                seed: 45,
            },
            Arg::Buffer {
                words: 4096,
                seed: 46,
            },
            Arg::Double(alpha),
        ];
        compare(DOUBLE_MIX, "dmix", &args, &ranges);
    }
    for alpha in [1.5, 0.75] {
        let args = [
            Arg::Buffer {
                words: 8192,
                seed: 43,
            },
            Arg::Buffer {
                words: 8192,
                seed: 44,
            },
            Arg::Double(alpha),
            Arg::Int(5),
        ];
        let asm = compare(GROUP8_DOUBLE, "dtile8", &args, &[nd([64, 64], [8, 8])]);
        if ferrocl_cpu::wide::host_isa() == Some(ferrocl_cpu::wide::Isa::Avx512) {
            assert!(
                asm.contains("pd") && asm.contains("%zmm"),
                "the tier's code does not compute 8 doubles a register:\n{asm}"
            );
        }
    }
}

/// A tiled product through `__local` tiles (the tier's confined local accesses), with
/// barriers (the work-group function's `switch` between regions) and more general values
/// live than registers (spilled), and an option pricer whose many pointers and math spill too.
const TILED: &str = "
#define TS 16
__kernel void sgemm(__global const float *a, __global const float *b, __global float *c, int n)
{
    __local float as[TS][TS];
    __local float bs[TS][TS];
    int row = get_global_id(1), col = get_global_id(0);
    int lr = get_local_id(1), lc = get_local_id(0);
    float acc = 0.0f;
    for (int t = 0; t < n; t += TS) {
        as[lr][lc] = a[row * n + t + lc];
        bs[lr][lc] = b[(t + lr) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TS; ++k)
            acc += as[lr][k] * bs[k][lc];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    c[row * n + col] = acc;
}
float cnd(float d)
{
    float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
    float w = 0.398942280f * exp(-0.5f * d * d) * k
        * (0.31938153f + k * (-0.356563782f + k * (1.781477937f + k * (-1.821255978f + k * 1.330274429f))));
    return d > 0.0f ? 1.0f - w : w;
}
__kernel void options(__global const float *price, __global const float *strike,
                      __global const float *years, __global float *call,
                      __global float *put, float rate, float vol)
{
    size_t i = get_global_id(0);
    float s = price[i], x = strike[i], t = years[i];
    float sqrt_t = sqrt(t);
    float d1 = (log(s / x) + (rate + 0.5f * vol * vol) * t) / (vol * sqrt_t);
    float d2 = d1 - vol * sqrt_t;
    float discount = x * exp(-rate * t);
    float n1 = cnd(d1), n2 = cnd(d2);
    call[i] = s * n1 - discount * n2;
    put[i] = discount * (1.0f - n2) - s * (1.0f - n1);
}
";

#[test]
fn local_tiles_and_spills_match_cranelift() {
    let buf = |seed| Arg::Buffer {
        words: 64 * 64,
        seed,
    };
    // n by n matrices over an n by n range.
    for n in [64, 32] {
        let range = [nd([n, n], [16, 16])];
        let args = [buf(19), buf(20), buf(21), Arg::Int(n as i32)];
        compare(TILED, "sgemm", &args, &range);
    }
    let ranges = [nd([4096, 1], [256, 1]), nd([999, 1], [333, 1])];
    let args = [
        buf(22),
        buf(23),
        buf(24),
        buf(25),
        buf(26),
        Arg::Float(0.02),
        Arg::Float(0.3),
    ];
    compare(TILED, "options", &args, &ranges);
}

/// `float4` and `float2` arithmetic: the work-items' vectors transposed into 16-lane vectors
/// (8 on AVX2) and back (shuffles, their lane indices in the code's constant pool on
/// AVX-512).
const POLY4: &str = "
__kernel void poly4(__global const float4 *x, __global float4 *y)
{
    size_t i = get_global_id(0);
    float4 v = x[i];
    float4 a = (float4)(0.5f);
    for (int k = 0; k < 32; k++)
        a = a * v + (float4)(0.25f, -0.5f, 0.75f, -1.0f);
    y[i] = a;
}
__kernel void cmul2(__global const float2 *x, __global float2 *y)
{
    size_t i = get_global_id(0);
    float2 c = x[i] * 0.5f, z = y[i] * 0.5f;
    for (int k = 0; k < 16; k++)
        z = (float2)(z.x * z.x - z.y * z.y, 2.0f * z.x * z.y) + c;
    y[i] = z;
}
";

/// On AVX2 the transposes are in-lane shuffles and 128-bit moves (`Interleave` in
/// `wide/emit.rs`): two stages of them for `float4`, one for `float2`.
#[test]
fn float4_shuffles_match_cranelift() {
    let buf = |seed| Arg::Buffer {
        words: 4 * 1024,
        seed,
    };
    let ranges = [nd([1024, 1], [64, 1]), nd([999, 1], [333, 1])];
    compare(POLY4, "poly4", &[buf(27), buf(28)], &ranges);
    compare(POLY4, "cmul2", &[buf(29), buf(30)], &ranges);
}

#[test]
fn given_wide_versions_go_to_the_tier() {
    if !ferrocl_cpu::wide::host_supports() {
        return;
    }
    let module = compile_cl_with(STREAMING, "");
    let options = CompileOptions {
        record: true,
        ..CompileOptions::default()
    };
    let wide = |f: &ferrocl_ir::Function| ferrocl_cpu::vectorized_wide(f);
    let p = CpuProgram::compile_with_tier(&module, Some(&wide), &options, true).expect("tier");
    let wg = p.listing().and_then(|l| l.stage("wg")).unwrap_or_default();
    let taken = wg
        .lines()
        .filter(|l| l.starts_with("; kernel") && l.ends_with("; wide tier"))
        .count();
    assert_eq!(taken, 3, "{wg}");
}

/// Bytes gathered from a table (a vector of 8-bit lanes filled lane by lane, widened to 32
/// bits, converted to floats signed and unsigned), a float narrowed to bytes and stored 16
/// at a time, and addresses whose 32-bit offsets are widened lane by lane where taken out.
const NARROW: &str = "
__kernel void bytes(__global const uchar *t, __global const int *idx, __global float *out,
                    __global uchar *code, __global const float *x)
{
    int i = get_global_id(0);
    // (The buffers' words are floats' bits, whose low 15 bits are zeros.)
    int j = (idx[i] >> 15) ^ (i * 7);
    uchar b = t[j & 1023];
    ushort h = *(__global const ushort *)(t + (ulong)((uint)((j >> 3) & 511) * 2u + 1u));
    __global const float *p =
        (__global const float *)((__global const uchar *)x + (ulong)((uint)(j & 255) * 4u));
    float v = (float)b * 0.5f + (float)(char)b + (float)(short)h * 0.125f + *p;
    for (int k = 0; k < 16; k++)
        v = v * 0.75f + 1.0f;
    out[i] = v;
    code[i] = (uchar)(int)v;
}
";

#[test]
fn narrow_lanes_match_cranelift() {
    let buf = |seed| Arg::Buffer { words: 4096, seed };
    let ranges = [nd([4096, 1], [256, 1]), nd([999, 1], [333, 1])];
    let args = [buf(31), buf(32), buf(33), buf(34), buf(35)];
    compare(NARROW, "bytes", &args, &ranges);
}

/// 32 loads live at once and combined pairwise from both ends: more vector values than the
/// tier's registers, some kept in stack slots.
const PRESSURE: &str = "
#define L(k) float a##k = x[i + k * 64] * (float)(k + 1);
#define P(a, b) (a * b + 0.25f)
__kernel void many(__global const float *x, __global float *y)
{
    size_t i = get_global_id(0);
    L(0) L(1) L(2) L(3) L(4) L(5) L(6) L(7) L(8) L(9) L(10) L(11) L(12) L(13) L(14) L(15)
    L(16) L(17) L(18) L(19) L(20) L(21) L(22) L(23) L(24) L(25) L(26) L(27) L(28) L(29)
    L(30) L(31)
    y[i] = ((P(a0, a31) - P(a1, a30)) * (P(a2, a29) - P(a3, a28))
            + (P(a4, a27) - P(a5, a26)) * (P(a6, a25) - P(a7, a24)))
         - ((P(a8, a23) - P(a9, a22)) * (P(a10, a21) - P(a11, a20))
            + (P(a12, a19) - P(a13, a18)) * (P(a14, a17) - P(a15, a16)));
}
";

#[test]
fn spilled_vectors_match_cranelift() {
    let ranges = [nd([2048, 1], [256, 1]), nd([999, 1], [333, 1])];
    let args = [
        Arg::Buffer {
            words: 2048 + 32 * 64,
            seed: 36,
        },
        Arg::Buffer {
            words: 2048,
            seed: 37,
        },
    ];
    compare(PRESSURE, "many", &args, &ranges);
}

/// sincos and tan with a quarter of the lanes far beyond the fast reduction (the branch to
/// Payne and Hanek's: table words gathered at 32-bit indices widened lane by lane, 32-bit
/// products' high halves, negation, leading zeros, spilled block parameters), and those
/// integer operations on their own.
const WIDE_INTS: &str = "
__kernel void trig(__global const float *x, __global float *s, __global float *c)
{
    int i = get_global_id(0);
    float v = x[i] * ((i & 3) == 0 ? 3.0e7f : 1.5f);
    float cv;
    s[i] = sincos(v, &cv);
    c[i] = cv + tan(v * 0.5f);
}
__kernel void bits(__global const uint *x, __global uint *y)
{
    size_t i = get_global_id(0);
    uint a = x[i] ^ (uint)(i * 2654435761u), b = x[i + 1] * 40503u;
    uint acc = 0;
    for (int k = 0; k < 8; k++) {
        acc += mul_hi(a, b) ^ (uint)mul_hi((int)a, (int)(b >> k)) ^ clz(a >> (3 * k)) ^ -(a + acc);
        a = a * 1664525u + 1013904223u;
    }
    y[i] = acc;
}
";

#[test]
fn wide_integer_lanes_match_cranelift() {
    let buf = |seed| Arg::Buffer { words: 4097, seed };
    let ranges = [nd([4096, 1], [256, 1]), nd([999, 1], [333, 1])];
    compare(WIDE_INTS, "trig", &[buf(38), buf(39), buf(40)], &ranges);
    compare(WIDE_INTS, "bits", &[buf(41), buf(42)], &ranges);
}

/// Unsigned integers: conversions to float of values past 2^24 and 2^31 and saturating ones
/// from floats of every kind, leading zeros of every count (zero lanes among them), unsigned
/// comparisons choosing between values, narrowing to halfwords and bytes; where
/// AVX2 has no instruction for one, the tier's code computes it from signed ones.
const UNSIGNED: &str = "
__kernel void unsigned_ops(__global const uint *x, __global float *f, __global uint *y,
                           __global uint *z, __global ushort *w, __global uchar *v)
{
    int i = get_global_id(0);
    // The buffers hold small floats: their bits multiplied to spread over all 32.
    uint a = x[i] * 2654435761u, b = (x[i + 1] * 40503u) ^ ((uint)i << 29);
    uint s = a >> (i & 31);
    f[i] = convert_float(a) + convert_float(s | 0x1000001u) * 0.5f;
    uint p = a < b ? a + 1u : b - 1u;
    uint q = a >= (b >> 1) ? clz(s) : clz(b >> (i & 7));
    y[i] = p ^ (q << 8) ^ (a > s ? 0x10000u : 0x20000u) ^ (s <= (b >> 3) ? 0x40000u : 0u);
    // Every kind of float: negative, NaN, past 2^32, between 2^31 and 2^32, small.
    float g = as_float(a & 0xcfffffffu);
    z[i] = convert_uint_sat(g) ^ convert_uint_sat_rte(g * 0.75f);
    // Narrowed to halfwords and bytes.
    w[i] = (ushort)(a >> 7);
    v[i] = (uchar)(b >> 3);
}
";

#[test]
fn unsigned_lanes_match_cranelift() {
    let buf = |seed| Arg::Buffer { words: 4097, seed };
    let ranges = [nd([4096, 1], [256, 1]), nd([999, 1], [333, 1])];
    let args = [buf(43), buf(44), buf(45), buf(46), buf(47), buf(48)];
    compare(UNSIGNED, "unsigned_ops", &args, &ranges);
}

/// Fused multiply-adds with constant multiplicands and addends, which the tier reads from
/// its constant pool in whichever form (231, 213, 132) keeps the result where the operand
/// dying there was, while 26 loaded values stay live (so that no register is left to pin a
/// constant in).
const FMAS: &str = "
#define L(k) float a##k = x[i + k * 64];
__kernel void fmas(__global const float *x, __global const float *y, __global float *out)
{
    size_t i = get_global_id(0);
    L(0) L(1) L(2) L(3) L(4) L(5) L(6) L(7) L(8) L(9) L(10) L(11) L(12) L(13) L(14) L(15)
    L(16) L(17) L(18) L(19) L(20) L(21) L(22) L(23) L(24) L(25)
    float a = y[i], b = y[i + 1];
    for (int k = 0; k < 4; k++) {
        float t = fma(a, 1.5f, b);
        float u = fma(t, 0.75f, 0.125f);
        float v = fma(b, u, 2.0f);
        float w = fma(3.0f, v, t);
        a = w * 0.5f;
        b = fma(u, v, -1.0f) * 0.25f;
    }
    out[i] = a + b + ((a0 * a25 + a1 * a24) * (a2 * a23 + a3 * a22)
        + (a4 * a21 + a5 * a20) * (a6 * a19 + a7 * a18))
        - ((a8 * a17 + a9 * a16) * (a10 * a15 + a11 * a14) + a12 * a13);
}
";

#[test]
fn constant_operands_match_cranelift() {
    let buf = |seed| Arg::Buffer {
        words: 2048 + 26 * 64,
        seed,
    };
    let ranges = [nd([2048, 1], [256, 1]), nd([999, 1], [333, 1])];
    compare(FMAS, "fmas", &[buf(43), buf(44), buf(45)], &ranges);
}

/// Fused multiply-adds with negated operands, which the tier folds into the fma (VFNMADD,
/// VFMSUB, VFNMSUB) in each sign combination, a negation also read elsewhere (not folded), a
/// negated constant, and a uniform (scalar) fma; `exp` over arguments far below its underflow
/// bound, whose results are subnormal or zero.
const NEGATED: &str = "
__kernel void negated(__global float *x, __global const float *y, __global float *out, float s)
{
    size_t i = get_global_id(0);
    float a = x[i], b = y[i], c = y[i + 1];
    float na = -a, nc = -c;
    float p = fma(na, b, c);
    float q = fma(a, -b, nc);
    float r = fma(na, -b, nc);
    float t = fma(-p, q, -2.5f);
    float u = fma(-s, s, 1.0f);
    x[i] = p + q * r + t * u + na;
    out[i] = exp(-p * p * 40.0f) + exp(-t * 30.0f);
}
";

#[test]
fn negated_fma_operands_match_cranelift() {
    let buf = |seed| Arg::Buffer { words: 4097, seed };
    let ranges = [nd([4096, 1], [256, 1]), nd([999, 1], [333, 1])];
    compare(
        NEGATED,
        "negated",
        &[buf(46), buf(47), buf(48), Arg::Float(1.75)],
        &ranges,
    );
}

/// `int16` arithmetic, a chain of multiply-adds as clpeak's: on an AVX-512 host the tier is
/// offered such a kernel at its width though Cranelift's widths leave 512-bit vectors alone
/// (`tier_holds_wide_vectors` in `lib.rs`); its halves and quarters summed at the end.
const INT16: &str = "
__kernel void int16_chain(__global int *out, __global const int *in)
{
    int i = get_global_id(0);
    int16 x = (int16)(in[i]) ^ (int16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    int16 c = (int16)(in[i + 1]) + (int16)(i);
    for (int k = 0; k < 8; k++)
        x = x * x + c;
    int8 t = x.lo + x.hi;
    int4 u = t.lo + t.hi;
    int2 v = u.lo + u.hi;
    out[i] = v.x ^ (v.y >> 3);
}
";

/// Whether the host's tier is AVX-512's; if not, says that test `name` is skipped (what it
/// tests the tier does with mask registers or AVX-512 instructions, and refuses on AVX2).
fn avx512_host(name: &str) -> bool {
    let avx512 = ferrocl_cpu::wide::host_isa() == Some(ferrocl_cpu::wide::Isa::Avx512);
    if !avx512 {
        eprintln!("{name} skipped: only an AVX-512 host's tier takes it");
    }
    avx512
}

/// [`compare`] of a kernel of two buffers that only an AVX-512 host's tier takes (512-bit
/// vectors, `tier_holds_wide_vectors` in `lib.rs`); skipped elsewhere.
fn compare_avx512(source: &str, name: &str, seeds: [u32; 2]) {
    if !avx512_host(name) {
        return;
    }
    let buf = |seed| Arg::Buffer { words: 4097, seed };
    let ranges = [nd([4096, 1], [256, 1]), nd([999, 1], [333, 1])];
    compare(source, name, &[buf(seeds[0]), buf(seeds[1])], &ranges);
}

#[test]
fn int16_chains_match_cranelift() {
    compare_avx512(INT16, "int16_chain", [43, 44]);
}

/// `char8` and `short16` arithmetic, chains of multiply-adds as clpeak's: vectors of bytes
/// and words splatted from scalar arguments, constants, sums, differences and products (of
/// bytes, through words), their halves and swizzles (shuffles of narrow lanes) and lanes read
/// back; a `char4` stored whole.
const NARROW_ARITHMETIC: &str = "
__kernel void narrow_chains(__global char *out, __global short *outs, __global char4 *out4,
                            __global const int *in, char a, short b)
{
    int i = get_global_id(0);
    char8 x = (char8)(a) + (char8)(0, 1, 2, 3, 4, 5, 6, 7) + (char8)((char)in[i]);
    char8 c = (char8)((char)i);
    short16 y = (short16)(b) - (short16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
              + (short16)((short)in[i + 1]);
    short16 d = (short16)((short)(i * 3));
    for (int k = 0; k < 8; k++) {
        x = x * x + c + (char8)(5);
        y = y * y - d + (short16)(7);
    }
    char4 t = x.lo + x.hi;
    char2 u = t.lo + t.hi;
    out[i] = u.x ^ u.y;
    out4[i] = t.wzyx - x.s1357;
    short8 s = y.lo + y.hi;
    short4 s4 = s.even - s.odd;
    outs[i] = s4.x + s4.y * s4.z - s4.w + y.sf;
}
";

#[test]
fn narrow_chains_match_cranelift() {
    let buf = |seed| Arg::Buffer { words: 4097, seed };
    let ranges = [nd([4096, 1], [256, 1]), nd([999, 1], [333, 1])];
    let args = [
        buf(49),
        buf(50),
        buf(51),
        buf(52),
        Arg::Int(-3),
        Arg::Int(1234),
    ];
    compare(NARROW_ARITHMETIC, "narrow_chains", &args, &ranges);
}

/// Saturating conversions from floats to bytes and halfwords (`convert_uchar_sat_rte` and the
/// others: each lane converted to 32 bits, clamped, narrowed), at the tier's width, and over
/// `float16` in a kernel the tier runs a work-item at a time (OpenCV's `divide` of `uchar16`
/// computes so). The inputs reach past each type's range both ways, and NaNs.
const SATURATED: &str = "
__kernel void saturated(__global uchar *u8, __global char *s8, __global ushort *u16,
                        __global short *s16, __global const float *x)
{
    int i = get_global_id(0);
    float v = (x[i] - 3.0f) * 400.0f;
    float w = x[i] > 4.7f ? v * 1e30f : x[i] < 1.2f ? sqrt(-x[i]) : v * 90.0f;
    u8[i] = convert_uchar_sat_rte(v);
    s8[i] = convert_char_sat(v * 0.75f);
    u16[i] = convert_ushort_sat_rte(w);
    s16[i] = convert_short_sat_rtz(w);
}
__kernel void saturated16(__global uchar16 *out, __global const uchar16 *a,
                          __global const uchar16 *b, float scale)
{
    int i = get_global_id(0);
    float16 q = convert_float16(a[i]) * scale / convert_float16(b[i]) - 100.0f;
    out[i] = convert_uchar16_sat_rte(q);
}
";

#[test]
fn saturated_narrow_conversions_match_cranelift() {
    let buf = |seed| Arg::Buffer { words: 4097, seed };
    let ranges = [nd([4096, 1], [256, 1]), nd([999, 1], [333, 1])];
    let args = [buf(53), buf(54), buf(55), buf(56), buf(57)];
    compare(SATURATED, "saturated", &args, &ranges);
    if ferrocl_cpu::wide::host_isa() != Some(ferrocl_cpu::wide::Isa::Avx512) {
        eprintln!("saturated16 skipped: only an AVX-512 host's tier takes float16 kernels");
        return;
    }
    let ranges = [nd([1024, 1], [64, 1]), nd([999, 1], [333, 1])];
    let args = [buf(58), buf(59), buf(60), Arg::Float(37.5)];
    compare(SATURATED, "saturated16", &args, &ranges);
}

/// `float16` arithmetic, a chain of multiply-adds as clpeak's, on the local id converted to
/// floats unsigned and signed from 64 bits (the tier makes the chunk's ids where the
/// conversion reads them, `Plan::counted`); its halves summed at the end.
const FLOAT16: &str = "
__kernel void float16_chain(__global float *out, __global const float *in)
{
    int i = get_global_id(0);
    float16 x = (float16)(in[i]) * (float16)(0.5f, 0.25f, 0.125f, 1, 2, 3, 4, 5,
                                              -1, -2, -3, -4, 0.75f, 1.5f, 2.5f, 3.5f);
    float16 c = (float16)get_local_id(0) * 1e-3f;
    float16 s = (float16)((float)((long)get_local_id(0) - 300)) * 1e-4f;
    for (int k = 0; k < 8; k++)
        x = x * 0.75f + c - s;
    float8 t = x.lo + x.hi;
    float4 u = t.lo + t.hi;
    out[i] = u.x + u.y * u.z - u.w;
}
";

#[test]
fn float16_chains_match_cranelift() {
    compare_avx512(FLOAT16, "float16_chain", [61, 62]);
}

/// Divisions and square roots where OpenCL C does not ask for correct rounding: by a
/// buffer's value, of 1 by it, by constants, `rsqrt` and `sqrt`.
const RELAXED: &str = "
__kernel void relaxed(__global const float *a, __global const float *b, __global float *q,
                      __global float *inv, __global float *third, __global float *tenth,
                      __global float *huge, __global float *r, __global float *s)
{
    size_t i = get_global_id(0);
    q[i] = a[i] / b[i];
    inv[i] = 1.0f / b[i];
    third[i] = a[i] / 3.0f;
    tenth[i] = a[i] / 0.1f;
    huge[i] = a[i] / 3e38f;
    r[i] = rsqrt(a[i]);
    s[i] = sqrt(a[i]);
}
";

/// The error of `got` against the exact `want`, in ulps of `want` as a float: an infinite
/// `got` where `want` is finite counts as 2^128 (the largest float plus an ulp), as the
/// conformance tests count it. A NaN must be a NaN, an infinity or a zero itself, sign and
/// all; those give 0 or infinity.
fn ulps(got: f32, want: f64) -> f64 {
    if want.is_nan() {
        return if got.is_nan() { 0.0 } else { f64::INFINITY };
    }
    let exact = want as f32;
    if want.is_infinite() || want == 0.0 || (exact.is_infinite() && got == exact) {
        let same = got.to_bits() == exact.to_bits();
        return if same || got as f64 == want {
            0.0
        } else {
            f64::INFINITY
        };
    }
    let got = if got.is_infinite() {
        2f64.powi(128).copysign(got as f64)
    } else {
        got as f64
    };
    let e = want.abs().log2().floor().max(-126.0);
    (got - want).abs() / 2f64.powi(e as i32 - 23)
}

/// The tier's division, reciprocal, division by constants, `rsqrt` and `sqrt` over chunks of
/// ordinary operands (the fast forms) and chunks with zeros, infinities, NaNs, subnormals and
/// the largest floats (where the division takes the divider for its chunk, and the roots
/// blend), each within OpenCL C's bound (Table 65: `x / y` 2.5 ulp, `rsqrt` 2, `sqrt` 3) of
/// the exact result, and the special cases exact.
#[test]
fn relaxed_divisions_and_roots_are_within_their_bounds() {
    if !avx512_host("relaxed_divisions_and_roots_are_within_their_bounds") {
        return;
    }
    let specials: Vec<f32> = [
        0.0f32,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::from_bits(1),
        f32::from_bits(0x007f_ffff),
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE * 1.5,
        f32::MAX,
        -f32::MAX,
        2f32.powi(126),
        2f32.powi(127) * 1.5,
        2f32.powi(-127),
        2f32.powi(-128) * 1.25,
        1.0,
        -3.0,
        1e-20,
    ]
    .to_vec();
    // Chunks of ordinary operands first (random bits of exponents -60..60, either sign),
    // then every pair of the special values, then the specials among ordinary operands.
    let mut seed = 0x2545_f491u32;
    let mut ordinary = || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        let exponent = 67 + seed % 120;
        f32::from_bits((seed & 0x807f_ffff) | (exponent << 23))
    };
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..16 * 512 {
        a.push(ordinary());
        b.push(ordinary());
    }
    for &x in &specials {
        for &y in &specials {
            a.push(x);
            b.push(y);
        }
    }
    for (i, &x) in specials.iter().enumerate() {
        for _ in 0..15 {
            a.push(ordinary());
            b.push(ordinary());
        }
        a.push(x);
        b.push(specials[(i * 7) % specials.len()]);
    }
    // The reciprocal's form and the divider's, whichever the host takes.
    for reciprocal in [true, false] {
        relaxed_within_bounds(&a, &b, reciprocal);
    }
}

/// [`relaxed_divisions_and_roots_are_within_their_bounds`] for operands `a` and `b`, the
/// divisions by the reciprocal and a Newton step or by the divider.
fn relaxed_within_bounds(a: &[f32], b: &[f32], reciprocal: bool) {
    let n = a.len();
    let module = compile_cl_with(RELAXED, "");
    ferrocl_cpu::wide::take_all(true);
    ferrocl_cpu::wide::divide_relaxed(Some(reciprocal));
    let options = CompileOptions {
        record: true,
        ..CompileOptions::default()
    };
    let p = CpuProgram::compile_with_tier(&module, None, &options, true).expect("tier");
    ferrocl_cpu::wide::divide_relaxed(None);
    let asm = p.listing().and_then(|l| l.stage("asm")).unwrap_or_default();
    assert_eq!(asm.contains("vrcp14ps"), reciprocal, "{asm}");
    let wg = p.listing().and_then(|l| l.stage("wg")).unwrap_or_default();
    assert!(
        wg.lines()
            .any(|l| l.starts_with("; kernel relaxed: 16 work-items") && l.ends_with("wide tier")),
        "{wg}"
    );
    let k = p.kernel("relaxed").expect("the kernel");
    let mut buffers: Vec<Vec<f32>> = vec![a.to_vec(), b.to_vec()];
    buffers.resize(9, vec![0.0; n]);
    let mut block = vec![0u8; k.args_size];
    for (buffer, slot) in buffers.iter_mut().zip(&k.args) {
        let ptr = buffer.as_mut_ptr() as u64;
        block[slot.offset..slot.offset + slot.size].copy_from_slice(&ptr.to_ne_bytes());
    }
    let range = NdRange {
        work_dim: 1,
        global_offset: [0; 3],
        global_size: [n as u64, 1, 1],
        local_size: [16, 1, 1],
    };
    // SAFETY: each buffer holds a float for each work-item.
    unsafe { k.launch(&block, LOCAL_BYTES, &range).expect("runs") };
    // Each output's name, bound in ulps and exact value from the operands.
    type Exact = fn(f64, f64) -> f64;
    let outputs: [(&str, f64, Exact); 7] = [
        ("a / b", 2.5, |x, y| x / y),
        ("1 / b", 2.5, |_, y| 1.0 / y),
        ("a / 3", 2.5, |x, _| x / 3.0),
        ("a / 0.1", 2.5, |x, _| x / f64::from(0.1f32)),
        ("a / 3e38", 2.5, |x, _| x / f64::from(3e38f32)),
        ("rsqrt(a)", 2.0, |x, _| 1.0 / x.sqrt()),
        ("sqrt(a)", 3.0, |x, _| x.sqrt()),
    ];
    for (j, (what, bound, exact)) in outputs.iter().enumerate() {
        let got = &buffers[2 + j];
        let mut worst = 0.0f64;
        for i in 0..n {
            let want = exact(f64::from(a[i]), f64::from(b[i]));
            let e = ulps(got[i], want);
            assert!(
                e <= *bound,
                "{what} at a = {:e} ({:#x}), b = {:e} ({:#x}): {:e} ({:#x}), {e} ulp from {want:e}",
                a[i],
                a[i].to_bits(),
                b[i],
                b[i].to_bits(),
                got[i],
                got[i].to_bits(),
            );
            worst = worst.max(e);
        }
        eprintln!("{what} (reciprocal {reciprocal}): at most {worst:.3} ulp");
    }
}
