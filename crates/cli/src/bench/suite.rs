//! The benchmark kernels: OpenCL C source, inputs, the host reference each result is checked
//! against, and the work each one does (bytes moved or operations), counted by hand from the
//! source. Sizes come in three scales: `full` (each kernel runs for tens of milliseconds on a
//! two-core machine), `quick` (for tests: milliseconds, and host references that are cheap
//! in a debug build) and `large` (milliseconds of a large GPU: an H100/H200 moves about 3.3
//! TB/s and computes up to 60 TFLOP/s in fp32; seconds on a CPU), where the rows whose whole
//! reference would take long on the host check a sample of their results; `stream` is `full`
//! with the bandwidth rows' arrays past the caches.

use super::patterns;
use crate::run::Rng;

/// What a kernel's throughput is measured in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Unit {
    /// Bytes read and written, as GB/s.
    Bytes,
    /// Floating-point operations, as GFLOP/s.
    Flops,
    /// Integer operations, as GOP/s.
    Ops,
}

impl Unit {
    pub fn name(self) -> &'static str {
        match self {
            Unit::Bytes => "GB/s",
            Unit::Flops => "GFLOP/s",
            Unit::Ops => "GOP/s",
        }
    }
}

/// How large a case's problem is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scale {
    /// Milliseconds, for tests.
    Quick,
    /// The suite's own sizes.
    Full,
    /// The bandwidth rows (copy, saxpy, stencil-2d, triad) with arrays of at least this many
    /// bytes each, larger than the caches; the other rows as `Full`.
    Stream(usize),
    /// Sizes that keep a large GPU busy for milliseconds per run (arrays of up to
    /// [`LARGE_ARRAY`] bytes), no buffer over this many bytes: the smallest
    /// `CL_DEVICE_MAX_MEM_ALLOC_SIZE` of the run's devices.
    Large(usize),
}

/// The bytes of the largest array of a row at `Large`: 1 GiB, twice or more what an
/// H100/H200 moves in a millisecond (about 3.3 TB/s).
pub const LARGE_ARRAY: usize = 1 << 30;

thread_local! {
    /// How the last [`Scale::fit`] that had to shrink a row did so, until taken by
    /// [`take_shrink_note`]: `make` answers a `Problem` alone, and a row shrunk for the
    /// device says so in the table.
    static SHRUNK: std::cell::Cell<Option<String>> = const { std::cell::Cell::new(None) };
}

/// The note of the last row shrunk to fit the devices' allocation limit, if any since the
/// last call.
pub fn take_shrink_note() -> Option<String> {
    SHRUNK.take()
}

impl Scale {
    /// The floats of each array of a bandwidth row, `full` at the suite's own size; a multiple
    /// of 4,096.
    pub(super) fn floats(self, full: usize) -> usize {
        match self {
            Scale::Quick => 1 << 12,
            Scale::Full => full,
            Scale::Stream(bytes) => (bytes / 4).next_multiple_of(1 << 12).max(full),
            Scale::Large(_) => self.fit(LARGE_ARRAY / 4, |n| 4 * n),
        }
    }

    /// A row's size at this scale: `quick`, `full` (also the `Stream` size of the rows that
    /// are not bandwidth rows) or `large`.
    pub(super) fn pick<T>(self, quick: T, full: T, large: T) -> T {
        match self {
            Scale::Quick => quick,
            Scale::Full | Scale::Stream(_) => full,
            Scale::Large(_) => large,
        }
    }

    /// `count`, a row's size, halved until `bytes(count)`, the size of the row's largest
    /// buffer, fits the devices' allocation limit at `Large` (API 5.2.1: CL_INVALID_BUFFER_SIZE
    /// "if size is greater than CL_DEVICE_MAX_MEM_ALLOC_SIZE for all devices in context"); the
    /// other scales' buffers are small enough as they are (API 4.2, table 5: "The minimum
    /// value is max(min(1024 × 1024 × 1024, 1/4th of CL_DEVICE_GLOBAL_MEM_SIZE), 32 × 1024 ×
    /// 1024)"), and so are the `Large` buffers of 32 MiB or less, which need no `fit`. A power
    /// of two stays one.
    pub(super) fn fit(self, count: usize, bytes: impl Fn(usize) -> usize) -> usize {
        let Scale::Large(limit) = self else {
            return count;
        };
        let mut fitted = count;
        while fitted > 1 && bytes(fitted) > limit {
            fitted /= 2;
        }
        if fitted != count {
            SHRUNK.set(Some(format!(
                "shrunk to a largest buffer of {} bytes, from {}: the devices' \
                 CL_DEVICE_MAX_MEM_ALLOC_SIZE is {limit}",
                bytes(fitted),
                bytes(count)
            )));
        }
        fitted
    }
}

/// One kernel argument.
pub enum Arg {
    Buffer(Vec<u8>),
    /// A read-only 2D image of RGBA texels, 8-bit normalized channels (4 bytes a texel).
    ImageRgba8 {
        width: usize,
        height: usize,
        data: Vec<u8>,
    },
    Value(Vec<u8>),
    Local(usize),
}

/// The contents of every buffer argument after one run (empty for the other arguments).
pub type Outputs = [Vec<u8>];

/// Checks a run's outputs; the work done, in the case's unit.
pub type Check = Box<dyn Fn(&Outputs) -> Result<f64, String>>;

/// A problem ready to run: arguments, range, and the check of its results, which answers the
/// work done (in the case's unit) when the results are right.
pub struct Problem {
    pub args: Vec<Arg>,
    pub global: Vec<usize>,
    pub local: Option<Vec<usize>>,
    pub check: Check,
}

pub struct Case {
    pub name: &'static str,
    pub category: &'static str,
    pub kernel: &'static str,
    pub source: &'static str,
    pub unit: Unit,
    pub make: fn(Scale) -> Problem,
}

pub(super) fn floats(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

pub(super) fn uints(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

pub(super) fn float_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

pub(super) fn uint_bytes(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

pub(super) fn int_bytes(values: &[i32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

pub(super) fn random_floats(count: usize, seed: u64, low: f32, high: f32) -> Vec<f32> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| low + (high - low) * rng.next_f64() as f32)
        .collect()
}

pub(super) fn random_uints(count: usize, seed: u64, below: u32) -> Vec<u32> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| (rng.next_u64() % u64::from(below)) as u32)
        .collect()
}

/// Indices to check of an output too large to check whole on the host: all of them when
/// there are few, else an evenly spread sample that includes both ends.
pub(super) fn sample(len: usize, count: usize) -> Vec<usize> {
    if len <= count {
        return (0..len).collect();
    }
    (0..count).map(|k| k * (len - 1) / (count - 1)).collect()
}

/// Checks that `got` is within `tolerance` of `want`, relative to `scale` (at least 1).
pub(super) fn close(
    what: &str,
    index: usize,
    got: f64,
    want: f64,
    scale: f64,
    tolerance: f64,
) -> Result<(), String> {
    if (got - want).abs() <= tolerance * scale.abs().max(1.0) && got.is_finite() {
        Ok(())
    } else {
        Err(format!("{what}[{index}] is {got}, expected {want}"))
    }
}

/// The arguments of a kernel over a `w × h` grid of floats: the input, an output of the same
/// size, the width and the height.
fn grid_args(input: &[f32], w: usize, h: usize) -> Vec<Arg> {
    vec![
        Arg::Buffer(float_bytes(input)),
        Arg::Buffer(vec![0; w * h * 4]),
        int(w as i32),
        int(h as i32),
    ]
}

pub(super) fn int(v: i32) -> Arg {
    Arg::Value(v.to_le_bytes().to_vec())
}

pub(super) fn uint(v: u32) -> Arg {
    Arg::Value(v.to_le_bytes().to_vec())
}

pub(super) fn float(v: f32) -> Arg {
    Arg::Value(v.to_le_bytes().to_vec())
}

const COPY: &str = "\
__kernel void copy(__global const float4 *src, __global float4 *dst)
{
    size_t i = get_global_id(0);
    dst[i] = src[i];
}
";

fn copy(scale: Scale) -> Problem {
    let n = scale.floats(1 << 24);
    // The floats as bytes only: at `Large` each copy is 1 GiB of the host's memory.
    let bytes = float_bytes(&random_floats(n, 1, -1.0, 1.0));
    Problem {
        args: vec![Arg::Buffer(bytes.clone()), Arg::Buffer(vec![0; n * 4])],
        global: vec![n / 4],
        local: None,
        check: Box::new(move |out| {
            if let Some(i) = (0..n).find(|&i| out[1][4 * i..4 * i + 4] != bytes[4 * i..4 * i + 4]) {
                return Err(format!("dst[{i}] differs from src[{i}]"));
            }
            Ok(8.0 * n as f64)
        }),
    }
}

const SAXPY: &str = "\
__kernel void saxpy(float a, __global const float *x, __global float *y)
{
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}
";

fn saxpy(scale: Scale) -> Problem {
    let n = scale.floats(1 << 24);
    let a = 1.5f32;
    let x = random_floats(n, 2, -1.0, 1.0);
    let y = random_floats(n, 3, -1.0, 1.0);
    Problem {
        args: vec![
            float(a),
            Arg::Buffer(float_bytes(&x)),
            Arg::Buffer(float_bytes(&y)),
        ],
        global: vec![n],
        local: None,
        check: Box::new(move |out| {
            let got = floats(&out[2]);
            for i in 0..n {
                let want = f64::from(a) * f64::from(x[i]) + f64::from(y[i]);
                close("y", i, f64::from(got[i]), want, want, 1e-6)?;
            }
            Ok(12.0 * n as f64)
        }),
    }
}

const STENCIL: &str = "\
__kernel void stencil(__global const float *in, __global float *out, int width, int height)
{
    int x = get_global_id(0), y = get_global_id(1);
    size_t i = (size_t)y * width + x;
    if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
        out[i] = in[i];
        return;
    }
    out[i] = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - width] + in[i + width]);
}
";

fn stencil(scale: Scale) -> Problem {
    // Rows of 4,096 floats, as many as the scale's arrays hold.
    let (w, h) = match scale {
        Scale::Quick => (64, 48),
        _ => (4096, scale.floats(4096 * 4096) / 4096),
    };
    let input = random_floats(w * h, 4, 0.0, 1.0);
    Problem {
        args: grid_args(&input, w, h),
        global: vec![w, h],
        local: None,
        check: Box::new(move |out| {
            let got = floats(&out[1]);
            for y in 0..h {
                for x in 0..w {
                    let i = y * w + x;
                    let c = f64::from(input[i]);
                    let want = if x == 0 || y == 0 || x == w - 1 || y == h - 1 {
                        c
                    } else {
                        let n = [i - 1, i + 1, i - w, i + w]
                            .iter()
                            .map(|&j| f64::from(input[j]))
                            .sum::<f64>();
                        0.5 * c + 0.125 * n
                    };
                    close("out", i, f64::from(got[i]), want, want, 1e-5)?;
                }
            }
            // Each point read once and written once; 6 operations per inner point.
            Ok(8.0 * (w * h) as f64)
        }),
    }
}

const TRANSPOSE: &str = "\
#define TILE 16
__kernel void transpose(__global const float *in, __global float *out, int width, int height)
{
    __local float tile[TILE][TILE + 1];
    int x0 = get_group_id(0) * TILE, y0 = get_group_id(1) * TILE;
    int lx = get_local_id(0), ly = get_local_id(1);
    tile[ly][lx] = in[(y0 + ly) * width + x0 + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[(x0 + ly) * height + y0 + lx] = tile[lx][ly];
}
";

fn transpose(scale: Scale) -> Problem {
    let (w, h) = scale.pick((64, 32), (2048, 2048), (16384, 16384));
    let h = scale.fit(h, |h| 4 * w * h);
    let input = random_floats(w * h, 5, -1.0, 1.0);
    Problem {
        args: grid_args(&input, w, h),
        global: vec![w, h],
        local: Some(vec![16, 16]),
        check: Box::new(move |out| {
            let got = floats(&out[1]);
            // Every element, except at `Large`: there its 2^28 strided reads would take the
            // host tens of seconds, and an evenly spread sample of a million is checked.
            let points = match scale {
                Scale::Large(_) => sample(w * h, 1 << 20),
                _ => (0..w * h).collect(),
            };
            for i in points {
                let (x, y) = (i % w, i / w);
                if got[x * h + y] != input[y * w + x] {
                    return Err(format!("out[{x}][{y}] is not in[{y}][{x}]"));
                }
            }
            Ok(8.0 * (w * h) as f64)
        }),
    }
}

const SGEMM: &str = "\
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
";

fn sgemm(scale: Scale) -> Problem {
    let n = scale.pick(64, 320, 2048);
    let a = random_floats(n * n, 6, -1.0, 1.0);
    let b = random_floats(n * n, 7, -1.0, 1.0);
    Problem {
        args: vec![
            Arg::Buffer(float_bytes(&a)),
            Arg::Buffer(float_bytes(&b)),
            Arg::Buffer(vec![0; n * n * 4]),
            int(n as i32),
        ],
        global: vec![n, n],
        local: Some(vec![16, 16]),
        check: Box::new(move |out| {
            let got = floats(&out[2]);
            // A sample of the results: the whole product is 2n³ operations on the host (17
            // GFLOP at `Large`).
            for i in sample(n * n, 512) {
                let (row, col) = (i / n, i % n);
                let (mut want, mut scale) = (0.0f64, 0.0f64);
                for k in 0..n {
                    let p = f64::from(a[row * n + k]) * f64::from(b[k * n + col]);
                    want += p;
                    scale += p.abs();
                }
                close("c", i, f64::from(got[i]), want, scale, 1e-5)?;
            }
            Ok(2.0 * (n * n * n) as f64)
        }),
    }
}

const NBODY: &str = "\
__kernel void nbody(__global const float4 *pos, __global float4 *acc, int n, float eps2)
{
    size_t i = get_global_id(0);
    float4 p = pos[i];
    float3 a = (float3)(0.0f, 0.0f, 0.0f);
    for (int j = 0; j < n; ++j) {
        float4 q = pos[j];
        float3 d = q.xyz - p.xyz;
        float inv = rsqrt(dot(d, d) + eps2);
        a += (q.w * inv * inv * inv) * d;
    }
    acc[i] = (float4)(a, 0.0f);
}
";

fn nbody(scale: Scale) -> Problem {
    let n = scale.pick(256, 4096, 32768);
    let eps2 = 0.01f32;
    let mut pos = random_floats(4 * n, 8, -1.0, 1.0);
    for body in pos.chunks_exact_mut(4) {
        body[3] = 0.5 + 0.5 * body[3].abs();
    }
    Problem {
        args: vec![
            Arg::Buffer(float_bytes(&pos)),
            Arg::Buffer(vec![0; n * 16]),
            int(n as i32),
            float(eps2),
        ],
        global: vec![n],
        local: None,
        check: Box::new(move |out| {
            let got = floats(&out[1]);
            for i in sample(n, 128) {
                let p = &pos[4 * i..4 * i + 4];
                let (mut want, mut scale) = ([0.0f64; 3], 0.0f64);
                for q in pos.chunks_exact(4) {
                    let d: Vec<f64> = (0..3).map(|k| f64::from(q[k]) - f64::from(p[k])).collect();
                    let r2 = d.iter().map(|x| x * x).sum::<f64>() + f64::from(eps2);
                    let s = f64::from(q[3]) / (r2 * r2.sqrt());
                    for k in 0..3 {
                        want[k] += s * d[k];
                        scale += (s * d[k]).abs();
                    }
                }
                for k in 0..3 {
                    close(
                        "acc",
                        4 * i + k,
                        f64::from(got[4 * i + k]),
                        want[k],
                        scale,
                        1e-4,
                    )?;
                }
            }
            // 20 operations per interaction, the count of Nyland, Harris and Prins, "Fast
            // N-Body Simulation with CUDA", GPU Gems 3, chapter 31.
            Ok(20.0 * (n * n) as f64)
        }),
    }
}

const MANDELBROT: &str = "\
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

fn mandelbrot(scale: Scale) -> Problem {
    let (w, h, max_iter) = scale.pick((64, 64, 64), (512, 512, 128), (8192, 8192, 128));
    let h = scale.fit(h, |h| 4 * w * h);
    Problem {
        args: vec![
            Arg::Buffer(vec![0; w * h * 4]),
            int(w as i32),
            int(h as i32),
            uint(max_iter),
        ],
        global: vec![w, h],
        local: None,
        check: Box::new(move |out| {
            let got = uints(&out[0]);
            let points = sample(w * h, 4096);
            let mut wrong = 0;
            for &i in &points {
                let (x, y) = ((i % w) as f32, (i / w) as f32);
                let cr = -2.0f32 + 2.5f32 * x / w as f32;
                let ci = -1.25f32 + 2.5f32 * y / h as f32;
                let (mut zr, mut zi, mut it) = (0.0f32, 0.0f32, 0u32);
                while it < max_iter && zr * zr + zi * zi <= 4.0 {
                    let t = zr * zr - zi * zi + cr;
                    zi = 2.0 * zr * zi + ci;
                    zr = t;
                    it += 1;
                }
                if got[i] > max_iter {
                    return Err(format!("out[{i}] is {}, above max_iter {max_iter}", got[i]));
                }
                // Contracted multiply-adds may change the orbit of a point near the set's
                // edge; the iteration counts of all but a few points must agree.
                if got[i] != it {
                    wrong += 1;
                }
            }
            if wrong * 50 > points.len() {
                return Err(format!(
                    "{wrong} of {} sampled points have the wrong iteration count",
                    points.len()
                ));
            }
            // 7 operations per iteration: 3 multiplies and 2 adds for z, 2 for |z|².
            Ok(7.0 * got.iter().map(|&i| f64::from(i)).sum::<f64>())
        }),
    }
}

const REDUCE: &str = "\
__kernel void reduce(__global const float *in, __global float *partial, __local float *scratch)
{
    size_t lid = get_local_id(0), gsize = get_global_size(0);
    float sum = 0.0f;
    for (size_t i = get_global_id(0); i < 8 * gsize; i += gsize)
        sum += in[i];
    scratch[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}
";

fn reduce(scale: Scale) -> Problem {
    let n = scale.fit(scale.pick(1 << 14, 1 << 24, 1 << 28), |n| 4 * n);
    let local = 256;
    let global = n / 8;
    let groups = global / local;
    let input = random_floats(n, 9, 0.0, 1.0);
    Problem {
        args: vec![
            Arg::Buffer(float_bytes(&input)),
            Arg::Buffer(vec![0; groups * 4]),
            Arg::Local(local * 4),
        ],
        global: vec![global],
        local: Some(vec![local]),
        check: Box::new(move |out| {
            let partial = floats(&out[1]);
            for (g, &got) in partial.iter().enumerate().take(groups) {
                // Work-group g sums the elements whose index modulo the global size falls in
                // its range of work-items.
                let want: f64 = (0..8)
                    .flat_map(|k| (0..local).map(move |l| k * global + g * local + l))
                    .map(|i| f64::from(input[i]))
                    .sum();
                close("partial", g, f64::from(got), want, want, 1e-5)?;
            }
            Ok(4.0 * n as f64)
        }),
    }
}

const SCAN: &str = "\
__kernel void scan(__global const uint *in, __global uint *out, __local uint *scratch)
{
    size_t lid = get_local_id(0), n = get_local_size(0);
    __local uint *a = scratch;
    __local uint *b = scratch + n;
    a[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t offset = 1; offset < n; offset <<= 1) {
        b[lid] = lid >= offset ? a[lid] + a[lid - offset] : a[lid];
        barrier(CLK_LOCAL_MEM_FENCE);
        __local uint *t = a;
        a = b;
        b = t;
    }
    out[get_global_id(0)] = a[lid];
}
";

fn scan(scale: Scale) -> Problem {
    let n = scale.fit(scale.pick(1 << 12, 1 << 21, 1 << 28), |n| 4 * n);
    let local = 256;
    let input = random_uints(n, 10, 1024);
    Problem {
        args: vec![
            Arg::Buffer(uint_bytes(&input)),
            Arg::Buffer(vec![0; n * 4]),
            Arg::Local(2 * local * 4),
        ],
        global: vec![n],
        local: Some(vec![local]),
        check: Box::new(move |out| {
            // Hillis and Steele, "Data parallel algorithms", CACM 29(12), 1986: an inclusive
            // scan of each work-group's block.
            let got = uints(&out[1]);
            let mut sum = 0u32;
            for i in 0..n {
                sum = if i % local == 0 {
                    input[i]
                } else {
                    sum + input[i]
                };
                if got[i] != sum {
                    return Err(format!("out[{i}] is {}, expected {sum}", got[i]));
                }
            }
            Ok(8.0 * n as f64)
        }),
    }
}

const HISTOGRAM: &str = "\
__kernel void histogram(__global const uint *data, __global uint *bins, uint n)
{
    __local uint counts[256];
    size_t lid = get_local_id(0);
    for (size_t i = lid; i < 256; i += get_local_size(0))
        counts[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&counts[data[i] & 255]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t i = lid; i < 256; i += get_local_size(0))
        atomic_add(&bins[i], counts[i]);
}
";

fn histogram(scale: Scale) -> Problem {
    let n = scale.fit(scale.pick(1 << 14, 1 << 22, 1 << 28), |n| 4 * n);
    let data = random_uints(n, 11, 1 << 20);
    Problem {
        args: vec![
            Arg::Buffer(uint_bytes(&data)),
            Arg::Buffer(vec![0; 256 * 4]),
            uint(n as u32),
        ],
        global: vec![scale.pick(1024, 16384, 1 << 20)],
        local: Some(vec![256]),
        check: Box::new(move |out| {
            let got = uints(&out[1]);
            let mut want = [0u32; 256];
            for &d in &data {
                want[(d & 255) as usize] += 1;
            }
            for b in 0..256 {
                if got[b] != want[b] {
                    return Err(format!("bins[{b}] is {}, expected {}", got[b], want[b]));
                }
            }
            Ok(4.0 * n as f64)
        }),
    }
}

const BLACK_SCHOLES: &str = "\
float cnd(float d)
{
    const float a1 = 0.31938153f, a2 = -0.356563782f, a3 = 1.781477937f;
    const float a4 = -1.821255978f, a5 = 1.330274429f;
    float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
    float w = 0.398942280f * exp(-0.5f * d * d) * k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
    return d > 0.0f ? 1.0f - w : w;
}

__kernel void black_scholes(__global const float *price, __global const float *strike,
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

/// The cumulative normal distribution by the polynomial of Abramowitz and Stegun, 26.2.17.
fn cnd(d: f64) -> f64 {
    let k = 1.0 / (1.0 + 0.2316419 * d.abs());
    let poly = k
        * (0.31938153
            + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))));
    let w = 0.398942280 * (-0.5 * d * d).exp() * poly;
    if d > 0.0 {
        1.0 - w
    } else {
        w
    }
}

fn black_scholes(scale: Scale) -> Problem {
    let n = scale.fit(scale.pick(1 << 12, 1 << 19, 1 << 26), |n| 4 * n);
    let (rate, vol) = (0.02f32, 0.30f32);
    let price = random_floats(n, 12, 5.0, 30.0);
    let strike = random_floats(n, 13, 1.0, 100.0);
    let years = random_floats(n, 14, 0.25, 10.0);
    Problem {
        args: vec![
            Arg::Buffer(float_bytes(&price)),
            Arg::Buffer(float_bytes(&strike)),
            Arg::Buffer(float_bytes(&years)),
            Arg::Buffer(vec![0; n * 4]),
            Arg::Buffer(vec![0; n * 4]),
            float(rate),
            float(vol),
        ],
        global: vec![n],
        local: None,
        check: Box::new(move |out| {
            let (call, put) = (floats(&out[3]), floats(&out[4]));
            let (r, v) = (f64::from(rate), f64::from(vol));
            for i in sample(n, 8192) {
                let (s, x, t) = (
                    f64::from(price[i]),
                    f64::from(strike[i]),
                    f64::from(years[i]),
                );
                let d1 = ((s / x).ln() + (r + 0.5 * v * v) * t) / (v * t.sqrt());
                let d2 = d1 - v * t.sqrt();
                let discount = x * (-r * t).exp();
                let want_call = s * cnd(d1) - discount * cnd(d2);
                let want_put = discount * (1.0 - cnd(d2)) - s * (1.0 - cnd(d1));
                // Prices are differences of terms as large as the strike.
                close("call", i, f64::from(call[i]), want_call, x, 1e-4)?;
                close("put", i, f64::from(put[i]), want_put, x, 1e-4)?;
            }
            // Counted from the source, a call of exp, log, sqrt or fabs as one operation: 20
            // in each of the two cnd calls and 24 in the kernel's body.
            Ok(64.0 * n as f64)
        }),
    }
}

const EXP_F32: &str = "\
__kernel void exp_f32(__global const float *x, __global float *y)
{
    size_t i = get_global_id(0);
    y[i] = exp(x[i]);
}
";

const LOG_F32: &str = "\
__kernel void log_f32(__global const float *x, __global float *y)
{
    size_t i = get_global_id(0);
    y[i] = log(x[i]);
}
";

/// |got - want| in ulps of the float nearest `want` (a normal float's ulp in every use here).
fn ulps(got: f32, want: f64) -> f64 {
    let w = (want as f32).abs();
    let ulp = f32::from_bits(w.to_bits() + 1) - w;
    (f64::from(got) - want).abs() / f64::from(ulp)
}

/// A float math function over large arrays: `N` inputs, `M` results (a buffer each, after the
/// inputs), every sampled result within `bound` ulps (7.4, table 65) of the host's double
/// result; a call as one operation.
fn float_math<const N: usize, const M: usize>(
    scale: Scale,
    inputs: impl Fn(usize) -> [Vec<f32>; N],
    reference: fn([f64; N]) -> [f64; M],
    bound: f64,
) -> Problem {
    let n = scale.fit(scale.pick(1 << 12, 1 << 24, 1 << 28), |n| 4 * n);
    let x = inputs(n);
    let mut args: Vec<Arg> = x.iter().map(|v| Arg::Buffer(float_bytes(v))).collect();
    args.extend((0..M).map(|_| Arg::Buffer(vec![0; n * 4])));
    Problem {
        args,
        global: vec![n],
        local: None,
        check: Box::new(move |out| {
            let y: Vec<Vec<f32>> = out[N..N + M].iter().map(|b| floats(b)).collect();
            for i in sample(n, 1 << 16) {
                let want = reference(std::array::from_fn(|k| f64::from(x[k][i])));
                for (k, (y, want)) in y.iter().zip(want).enumerate() {
                    let err = ulps(y[i], want);
                    if err.is_nan() || err > bound {
                        return Err(format!(
                            "result {k} at {i} is {}, expected {want} within {bound} ulp",
                            y[i]
                        ));
                    }
                }
            }
            Ok(n as f64)
        }),
    }
}

/// exp over [-87, 88], where its results are normal floats; table 65: 3 ulp.
fn exp_f32(scale: Scale) -> Problem {
    let x = |n| [random_floats(n, 15, -87.0, 88.0)];
    float_math(scale, x, |[x]| [x.exp()], 3.0)
}

/// log over positive floats of every normal exponent; table 65: 3 ulp.
fn log_f32(scale: Scale) -> Problem {
    let x = |n| {
        [random_floats(n, 16, -125.0, 127.0)
            .into_iter()
            .map(|e| (e as f64).exp2() as f32)
            .collect()]
    };
    float_math(scale, x, |[x]| [x.ln()], 3.0)
}

const SINCOS_F32: &str = "\
__kernel void sincos_f32(__global const float *x, __global float *s, __global float *c)
{
    size_t i = get_global_id(0);
    float cv;
    s[i] = sincos(x[i], &cv);
    c[i] = cv;
}
";

/// sincos of angles within +-100 (a few dozen turns, as simulations and signal processing
/// pass); table 65: 4 ulp each.
fn sincos_f32(scale: Scale) -> Problem {
    let x = |n| [random_floats(n, 17, -100.0, 100.0)];
    float_math(scale, x, |[x]| [x.sin(), x.cos()], 4.0)
}

const POW_F32: &str = "\
__kernel void pow_f32(__global const float *x, __global const float *y, __global float *z)
{
    size_t i = get_global_id(0);
    z[i] = pow(x[i], y[i]);
}
";

/// pow of positive bases within (0, 100] to exponents within +-8 (gamma curves, norms,
/// falloffs); table 65: 16 ulp.
fn pow_f32(scale: Scale) -> Problem {
    let x = |n| {
        [
            random_floats(n, 18, 1e-3, 100.0),
            random_floats(n, 19, -8.0, 8.0),
        ]
    };
    float_math(scale, x, |[x, y]| [x.powf(y)], 16.0)
}

const ATAN2_F32: &str = "\
__kernel void atan2_f32(__global const float *y, __global const float *x, __global float *a)
{
    size_t i = get_global_id(0);
    a[i] = atan2(y[i], x[i]);
}
";

/// atan2 of points in the square of side 200 around the origin (every quadrant); table 65:
/// 6 ulp.
fn atan2_f32(scale: Scale) -> Problem {
    let x = |n| {
        [
            random_floats(n, 20, -100.0, 100.0),
            random_floats(n, 21, -100.0, 100.0),
        ]
    };
    float_math(scale, x, |[y, x]| [y.atan2(x)], 6.0)
}

const HASH: &str = "\
uint mix(uint h)
{
    h ^= h >> 16;
    h *= 0x7feb352dU;
    h ^= h >> 15;
    h *= 0x846ca68bU;
    h ^= h >> 16;
    return h;
}

__kernel void hash(__global uint *out, uint seed, int rounds)
{
    uint h = (uint)get_global_id(0) ^ seed;
    for (int r = 0; r < rounds; ++r)
        h = mix(h + (uint)r);
    out[get_global_id(0)] = h;
}
";

/// The integer hash of the kernel (Wellons's "lowbias32" constants, from his hash-prospector
/// search).
fn mix(mut h: u32) -> u32 {
    h ^= h >> 16;
    h = h.wrapping_mul(0x7feb_352d);
    h ^= h >> 15;
    h = h.wrapping_mul(0x846c_a68b);
    h ^= h >> 16;
    h
}

fn hash(scale: Scale) -> Problem {
    let (n, rounds) = scale.pick((1 << 12, 16), (1 << 19, 16), (1 << 26, 16));
    let n = scale.fit(n, |n| 4 * n);
    let seed = 0x9e37_79b9u32;
    Problem {
        args: vec![Arg::Buffer(vec![0; n * 4]), uint(seed), int(rounds)],
        global: vec![n],
        local: None,
        check: Box::new(move |out| {
            let got = uints(&out[0]);
            for i in sample(n, 4096) {
                let mut h = i as u32 ^ seed;
                for r in 0..rounds {
                    h = mix(h.wrapping_add(r as u32));
                }
                if got[i] != h {
                    return Err(format!("out[{i}] is {:#x}, expected {h:#x}", got[i]));
                }
            }
            // 10 operations per round: the add, 3 shifts, 3 xors, 2 multiplies, the loop's
            // compare.
            Ok(10.0 * rounds as f64 * n as f64)
        }),
    }
}

const MATVEC: &str = "\
__kernel void matvec(__global const float *a, __global const float *x, __global float *y, int n)
{
    size_t row = get_global_id(0);
    __global const float *r = a + row * n;
    float sum = 0.0f;
    for (int j = 0; j < n; ++j)
        sum += r[j] * x[j];
    y[row] = sum;
}
";

fn matvec(scale: Scale) -> Problem {
    let n = scale.fit(scale.pick(128, 4096, 16384), |n| 4 * n * n);
    let a = random_floats(n * n, 15, -1.0, 1.0);
    let x = random_floats(n, 16, -1.0, 1.0);
    Problem {
        args: vec![
            Arg::Buffer(float_bytes(&a)),
            Arg::Buffer(float_bytes(&x)),
            Arg::Buffer(vec![0; n * 4]),
            int(n as i32),
        ],
        global: vec![n],
        local: None,
        check: Box::new(move |out| {
            let got = floats(&out[2]);
            for row in sample(n, 512) {
                let (mut want, mut scale) = (0.0f64, 0.0f64);
                for (&w, &v) in a[row * n..(row + 1) * n].iter().zip(&x) {
                    let p = f64::from(w) * f64::from(v);
                    want += p;
                    scale += p.abs();
                }
                close("y", row, f64::from(got[row]), want, scale, 1e-5)?;
            }
            // The matrix read once, the vector read and the result written once.
            Ok(4.0 * (n * n + 2 * n) as f64)
        }),
    }
}

const TRIAD: &str = "\
__kernel void triad(__global float *a, __global const float *b, __global const float *c, float s)
{
    size_t i = get_global_id(0);
    a[i] = b[i] + s * c[i];
}
";

fn triad(scale: Scale) -> Problem {
    let n = scale.floats(1 << 24);
    let s = 3.0f32;
    let b = random_floats(n, 17, -1.0, 1.0);
    let c = random_floats(n, 18, -1.0, 1.0);
    Problem {
        args: vec![
            Arg::Buffer(vec![0; n * 4]),
            Arg::Buffer(float_bytes(&b)),
            Arg::Buffer(float_bytes(&c)),
            float(s),
        ],
        global: vec![n],
        local: None,
        check: Box::new(move |out| {
            let got = floats(&out[0]);
            for i in 0..n {
                let want = f64::from(b[i]) + f64::from(s) * f64::from(c[i]);
                close("a", i, f64::from(got[i]), want, want, 1e-6)?;
            }
            // STREAM's count (McCalpin, "Memory Bandwidth and Machine Balance in Current High
            // Performance Computers", 1995): two arrays read, one written, 12 bytes per element.
            Ok(12.0 * n as f64)
        }),
    }
}

const STENCIL_TILED: &str = "\
#define TW 16
#define TH 16
__kernel void stencil_tiled(__global const float *in, __global float *out, int width, int height)
{
    __local float tile[TH + 2][TW + 2];
    int lx = get_local_id(0), ly = get_local_id(1);
    int x0 = get_group_id(0) * TW - 1, y0 = get_group_id(1) * TH - 1;
    /* The tile and its halo of one point, loaded by all the work-items together; a point
       outside the grid repeats the nearest edge point. */
    for (int k = ly * TW + lx; k < (TW + 2) * (TH + 2); k += TW * TH) {
        int tx = k % (TW + 2), ty = k / (TW + 2);
        int gx = clamp(x0 + tx, 0, width - 1), gy = clamp(y0 + ty, 0, height - 1);
        tile[ty][tx] = in[gy * width + gx];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int cx = lx + 1, cy = ly + 1;
    float edges = tile[cy - 1][cx] + tile[cy + 1][cx] + tile[cy][cx - 1] + tile[cy][cx + 1];
    float corners = tile[cy - 1][cx - 1] + tile[cy - 1][cx + 1]
                  + tile[cy + 1][cx - 1] + tile[cy + 1][cx + 1];
    out[(y0 + cy) * width + x0 + cx] = 0.25f * tile[cy][cx] + 0.125f * edges + 0.0625f * corners;
}
";

fn stencil_tiled(scale: Scale) -> Problem {
    let (w, h) = scale.pick((64, 48), (4096, 4096), (16384, 16384));
    let h = scale.fit(h, |h| 4 * w * h);
    let input = random_floats(w * h, 19, 0.0, 1.0);
    Problem {
        args: grid_args(&input, w, h),
        global: vec![w, h],
        local: Some(vec![16, 16]),
        check: Box::new(move |out| {
            let got = floats(&out[1]);
            let at = |x: usize, dx: isize, y: usize, dy: isize| {
                let x = x.saturating_add_signed(dx).min(w - 1);
                let y = y.saturating_add_signed(dy).min(h - 1);
                f64::from(input[y * w + x])
            };
            for i in sample(w * h, 1 << 16) {
                let (x, y) = (i % w, i / w);
                let edges = at(x, 0, y, -1) + at(x, 0, y, 1) + at(x, -1, y, 0) + at(x, 1, y, 0);
                let corners = at(x, -1, y, -1) + at(x, 1, y, -1) + at(x, -1, y, 1) + at(x, 1, y, 1);
                let want = 0.25 * at(x, 0, y, 0) + 0.125 * edges + 0.0625 * corners;
                close("out", i, f64::from(got[i]), want, want, 1e-5)?;
            }
            // Each point read once (the halo comes from the cache) and written once.
            Ok(8.0 * (w * h) as f64)
        }),
    }
}

const NW: &str = "\
#define B 16
__kernel void nw(__global const int *borders, __global const int *similarity,
                 __global int *score, int penalty)
{
    __local int s[B + 1][B + 1];
    __local int r[B][B];
    int tx = get_local_id(0);
    size_t g = get_group_id(0);
    /* Tile g's top-left corner, then its top row, then its left column. */
    __global const int *edge = borders + g * (2 * B + 1);
    if (tx == 0)
        s[0][0] = edge[0];
    s[0][tx + 1] = edge[1 + tx];
    s[tx + 1][0] = edge[1 + B + tx];
    for (int k = 0; k < B; ++k)
        r[k][tx] = similarity[(g * B + k) * B + tx];
    barrier(CLK_LOCAL_MEM_FENCE);
    /* The 2B - 1 anti-diagonals in order, a barrier after each; work-item tx fills column
       tx + 1, whose cell on diagonal d is in row d - tx + 1. */
    int x = tx + 1;
    for (int d = 0; d < 2 * B - 1; ++d) {
        int y = d - tx + 1;
        if (y >= 1 && y <= B) {
            int best = s[y - 1][x - 1] + r[y - 1][x - 1];
            best = max(best, s[y - 1][x] - penalty);
            best = max(best, s[y][x - 1] - penalty);
            s[y][x] = best;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int k = 0; k < B; ++k)
        score[(g * B + k) * B + tx] = s[k + 1][tx + 1];
}
";

fn nw(scale: Scale) -> Problem {
    const B: usize = 16;
    let tiles = scale.fit(scale.pick(64, 16384, 1 << 18), |t| t * B * B * 4);
    let penalty = 10;
    let signed = |values: Vec<u32>, offset: i32| -> Vec<i32> {
        values.into_iter().map(|v| v as i32 - offset).collect()
    };
    let borders = signed(random_uints(tiles * (2 * B + 1), 20, 201), 100);
    let similarity = signed(random_uints(tiles * B * B, 21, 21), 10);
    Problem {
        args: vec![
            Arg::Buffer(int_bytes(&borders)),
            Arg::Buffer(int_bytes(&similarity)),
            Arg::Buffer(vec![0; tiles * B * B * 4]),
            int(penalty),
        ],
        global: vec![tiles * B],
        local: Some(vec![B]),
        check: Box::new(move |out| {
            // Needleman and Wunsch, J. Mol. Biol. 48(3), 1970, with a linear gap penalty: each
            // cell is the best of a match from its upper-left neighbour or a gap from above or
            // from the left.
            let got = uints(&out[2]);
            let mut s = [[0i32; B + 1]; B + 1];
            for t in 0..tiles {
                let edge = &borders[t * (2 * B + 1)..(t + 1) * (2 * B + 1)];
                s[0][0] = edge[0];
                for k in 0..B {
                    s[0][k + 1] = edge[1 + k];
                    s[k + 1][0] = edge[1 + B + k];
                }
                for y in 1..=B {
                    for x in 1..=B {
                        let matched = s[y - 1][x - 1] + similarity[(t * B + y - 1) * B + x - 1];
                        s[y][x] = matched
                            .max(s[y - 1][x] - penalty)
                            .max(s[y][x - 1] - penalty);
                        let i = (t * B + y - 1) * B + x - 1;
                        if got[i] as i32 != s[y][x] {
                            return Err(format!(
                                "score[{i}] is {}, expected {}",
                                got[i] as i32, s[y][x]
                            ));
                        }
                    }
                }
            }
            // 5 operations per cell: the add, two subtractions, two maxima.
            Ok(5.0 * (tiles * B * B) as f64)
        }),
    }
}

const LAYER: &str = "\
#define GROUP 64
__kernel void layer(__global const float *in, __global const float *weights,
                    __global const float *bias, __global float *out, int inputs)
{
    __local float partial[GROUP];
    int lid = get_local_id(0);
    int neuron = get_group_id(0), outputs = get_num_groups(0);
    size_t sample = get_global_id(1);
    __global const float *w = weights + (size_t)neuron * inputs;
    __global const float *x = in + sample * inputs;
    float sum = 0.0f;
    for (int i = lid; i < inputs; i += GROUP)
        sum += w[i] * x[i];
    partial[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = GROUP / 2; s > 0; s >>= 1) {
        if (lid < s)
            partial[lid] += partial[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[sample * outputs + neuron] = 1.0f / (1.0f + exp(-(partial[0] + bias[neuron])));
}
";

fn layer(scale: Scale) -> Problem {
    const GROUP: usize = 64;
    let (inputs, outputs, batch) = scale.pick((256, 32, 2), (1024, 1024, 16), (4096, 4096, 64));
    let outputs = scale.fit(outputs, |o| 4 * o * inputs);
    let x = random_floats(batch * inputs, 22, 0.0, 1.0);
    let w = random_floats(outputs * inputs, 23, -0.1, 0.1);
    let bias = random_floats(outputs, 24, -0.5, 0.5);
    Problem {
        args: vec![
            Arg::Buffer(float_bytes(&x)),
            Arg::Buffer(float_bytes(&w)),
            Arg::Buffer(float_bytes(&bias)),
            Arg::Buffer(vec![0; batch * outputs * 4]),
            int(inputs as i32),
        ],
        global: vec![outputs * GROUP, batch],
        local: Some(vec![GROUP, 1]),
        check: Box::new(move |out| {
            // A fully connected layer with the logistic activation, one work-group per neuron
            // and input, reducing its partial sums in a tree.
            let got = floats(&out[3]);
            for i in sample(batch * outputs, 2048) {
                let (s, neuron) = (i / outputs, i % outputs);
                let (mut sum, mut scale) = (f64::from(bias[neuron]), 0.0f64);
                for k in 0..inputs {
                    let p = f64::from(w[neuron * inputs + k]) * f64::from(x[s * inputs + k]);
                    sum += p;
                    scale += p.abs();
                }
                let want = 1.0 / (1.0 + (-sum).exp());
                close("out", i, f64::from(got[i]), want, scale, 1e-5)?;
            }
            // A multiply and an add per weight and input; the activation not counted.
            Ok(2.0 * (batch * outputs * inputs) as f64)
        }),
    }
}

const POLY4: &str = "\
__kernel void poly4(__global const float4 *x, __global float4 *y)
{
    size_t i = get_global_id(0);
    float4 v = x[i];
    float4 a = (float4)(0.5f);
    for (int k = 0; k < 32; k++)
        a = a * v + (float4)(0.25f, -0.5f, 0.75f, -1.0f);
    y[i] = a;
}
";

/// `float4` arithmetic with little memory traffic: a polynomial of degree 32 in Horner form
/// on each lane of a `float4` (two operations per lane and step).
fn poly4(scale: Scale) -> Problem {
    let n = scale.fit(scale.pick(1 << 10, 1 << 20, 1 << 26), |n| 16 * n);
    let x = random_floats(4 * n, 13, -0.9, 0.9);
    Problem {
        args: vec![Arg::Buffer(float_bytes(&x)), Arg::Buffer(vec![0; 16 * n])],
        global: vec![n],
        local: None,
        check: Box::new(move |out| {
            let got = floats(&out[1]);
            let c = [0.25f64, -0.5, 0.75, -1.0];
            for i in sample(4 * n, 4096) {
                let v = f64::from(x[i]);
                let mut a = 0.5f64;
                for _ in 0..32 {
                    a = a * v + c[i % 4];
                }
                close("y", i, f64::from(got[i]), a, 4.0, 1e-5)?;
            }
            Ok(2.0 * 32.0 * 4.0 * n as f64)
        }),
    }
}

const RESIZE: &str = "\
constant sampler_t bilinear =
    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
__kernel void resize(read_only image2d_t in, __global float4 *out, int width, int height)
{
    int x = get_global_id(0), y = get_global_id(1);
    float2 c = ((float2)(x, y) + 0.5f) / (float2)(width, height);
    out[y * width + x] = read_imagef(in, bilinear, c);
}
";

/// One axis of OpenCL C 8.2's linear filtering with normalized coordinates and
/// clamp-to-edge: the two texels and the second one's weight.
fn bilinear_axis(s: f64, n: usize) -> (usize, usize, f64) {
    let u = s * n as f64 - 0.5;
    let i0 = u.floor();
    let clamp = |i: f64| i.clamp(0.0, (n - 1) as f64) as usize;
    (clamp(i0), clamp(i0 + 1.0), u - i0)
}

/// A bilinear resize of an RGBA image of 8-bit normalized channels through a sampler, to 1.5
/// times its width and height, into a buffer of float4; bytes are the image's and the output's.
fn resize(scale: Scale) -> Problem {
    let (w, h) = scale.pick((64, 48), (1024, 1024), (4096, 4096));
    let h = scale.fit(h, |h| (w * 3 / 2) * (h * 3 / 2) * 16);
    let (ow, oh) = (w * 3 / 2, h * 3 / 2);
    let texels: Vec<u8> = random_uints(w * h * 4, 41, 256)
        .into_iter()
        .map(|v| v as u8)
        .collect();
    let input = texels.clone();
    Problem {
        args: vec![
            Arg::ImageRgba8 {
                width: w,
                height: h,
                data: texels,
            },
            Arg::Buffer(vec![0; ow * oh * 16]),
            int(ow as i32),
            int(oh as i32),
        ],
        global: vec![ow, oh],
        local: None,
        check: Box::new(move |out| {
            let got = floats(&out[1]);
            for i in sample(ow * oh, 4096) {
                let (x, y) = (i % ow, i / ow);
                let (x0, x1, a) = bilinear_axis((x as f64 + 0.5) / ow as f64, w);
                let (y0, y1, b) = bilinear_axis((y as f64 + 0.5) / oh as f64, h);
                for c in 0..4 {
                    let t = |x: usize, y: usize| f64::from(input[(y * w + x) * 4 + c]) / 255.0;
                    let want = (1.0 - a) * (1.0 - b) * t(x0, y0)
                        + a * (1.0 - b) * t(x1, y0)
                        + (1.0 - a) * b * t(x0, y1)
                        + a * b * t(x1, y1);
                    // The weights in float: within a few units of 8-bit precision.
                    close("out", i * 4 + c, f64::from(got[i * 4 + c]), want, 1.0, 1e-3)?;
                }
            }
            Ok((w * h * 4 + ow * oh * 16) as f64)
        }),
    }
}

/// The empty kernel of the launch-latency row.
pub const EMPTY: &str = "__kernel void empty(void) {}\n";

/// The same kernel in ferrocl's IR, for a platform that has no compiler but takes ferrocl
/// program binaries.
pub const EMPTY_IR: &str = "kernel @empty() {\nblock0:\n    return\n}\n";

/// The suite, in the order of the table.
pub const CASES: &[Case] = &[
    Case {
        name: "copy",
        category: "memory",
        kernel: "copy",
        source: COPY,
        unit: Unit::Bytes,
        make: copy,
    },
    Case {
        name: "saxpy",
        category: "memory",
        kernel: "saxpy",
        source: SAXPY,
        unit: Unit::Bytes,
        make: saxpy,
    },
    Case {
        name: "stencil-2d",
        category: "memory",
        kernel: "stencil",
        source: STENCIL,
        unit: Unit::Bytes,
        make: stencil,
    },
    Case {
        name: "transpose",
        category: "memory",
        kernel: "transpose",
        source: TRANSPOSE,
        unit: Unit::Bytes,
        make: transpose,
    },
    Case {
        name: "triad",
        category: "memory",
        kernel: "triad",
        source: TRIAD,
        unit: Unit::Bytes,
        make: triad,
    },
    Case {
        name: "matvec",
        category: "memory",
        kernel: "matvec",
        source: MATVEC,
        unit: Unit::Bytes,
        make: matvec,
    },
    Case {
        name: "stencil-tiled",
        category: "sync",
        kernel: "stencil_tiled",
        source: STENCIL_TILED,
        unit: Unit::Bytes,
        make: stencil_tiled,
    },
    Case {
        name: "sgemm",
        category: "compute",
        kernel: "sgemm",
        source: SGEMM,
        unit: Unit::Flops,
        make: sgemm,
    },
    Case {
        name: "nbody",
        category: "compute",
        kernel: "nbody",
        source: NBODY,
        unit: Unit::Flops,
        make: nbody,
    },
    Case {
        name: "mandelbrot",
        category: "compute",
        kernel: "mandelbrot",
        source: MANDELBROT,
        unit: Unit::Flops,
        make: mandelbrot,
    },
    Case {
        name: "reduce",
        category: "sync",
        kernel: "reduce",
        source: REDUCE,
        unit: Unit::Bytes,
        make: reduce,
    },
    Case {
        name: "scan",
        category: "sync",
        kernel: "scan",
        source: SCAN,
        unit: Unit::Bytes,
        make: scan,
    },
    Case {
        name: "nw",
        category: "sync",
        kernel: "nw",
        source: NW,
        unit: Unit::Ops,
        make: nw,
    },
    Case {
        name: "nn-layer",
        category: "sync",
        kernel: "layer",
        source: LAYER,
        unit: Unit::Flops,
        make: layer,
    },
    Case {
        name: "resize-image",
        category: "memory",
        kernel: "resize",
        source: RESIZE,
        unit: Unit::Bytes,
        make: resize,
    },
    Case {
        name: "histogram",
        category: "atomics",
        kernel: "histogram",
        source: HISTOGRAM,
        unit: Unit::Bytes,
        make: histogram,
    },
    Case {
        name: "black-scholes",
        category: "math",
        kernel: "black_scholes",
        source: BLACK_SCHOLES,
        unit: Unit::Flops,
        make: black_scholes,
    },
    Case {
        name: "exp-f32",
        category: "math",
        kernel: "exp_f32",
        source: EXP_F32,
        unit: Unit::Flops,
        make: exp_f32,
    },
    Case {
        name: "log-f32",
        category: "math",
        kernel: "log_f32",
        source: LOG_F32,
        unit: Unit::Flops,
        make: log_f32,
    },
    Case {
        name: "sincos-f32",
        category: "math",
        kernel: "sincos_f32",
        source: SINCOS_F32,
        unit: Unit::Flops,
        make: sincos_f32,
    },
    Case {
        name: "pow-f32",
        category: "math",
        kernel: "pow_f32",
        source: POW_F32,
        unit: Unit::Flops,
        make: pow_f32,
    },
    Case {
        name: "atan2-f32",
        category: "math",
        kernel: "atan2_f32",
        source: ATAN2_F32,
        unit: Unit::Flops,
        make: atan2_f32,
    },
    Case {
        name: "hash",
        category: "integer",
        kernel: "hash",
        source: HASH,
        unit: Unit::Ops,
        make: hash,
    },
    Case {
        name: "float4-poly",
        category: "compute",
        kernel: "poly4",
        source: POLY4,
        unit: Unit::Flops,
        make: poly4,
    },
    Case {
        name: "spmv-csr",
        category: "memory",
        kernel: "spmv",
        source: patterns::SPMV,
        unit: Unit::Flops,
        make: patterns::spmv,
    },
    Case {
        name: "conv-5x5",
        category: "compute",
        kernel: "conv5",
        source: patterns::CONV5,
        unit: Unit::Flops,
        make: patterns::conv5,
    },
    Case {
        name: "fft-256",
        category: "sync",
        kernel: "fft256",
        source: patterns::FFT,
        unit: Unit::Flops,
        make: patterns::fft,
    },
    Case {
        name: "u8-threshold",
        category: "integer",
        kernel: "threshold",
        source: patterns::THRESHOLD,
        unit: Unit::Ops,
        make: patterns::threshold,
    },
    Case {
        name: "u8-absdiff",
        category: "integer",
        kernel: "absdiff",
        source: patterns::ABSDIFF,
        unit: Unit::Ops,
        make: patterns::absdiff,
    },
    Case {
        name: "pyr-down-u8",
        category: "integer",
        kernel: "pyr_down",
        source: patterns::PYR_DOWN,
        unit: Unit::Ops,
        make: patterns::pyr_down,
    },
];

/// Every kernel's source in one program, for the build-time row; without the image kernels
/// unless `images`.
pub fn all_sources(images: bool) -> String {
    let mut text = String::new();
    for case in CASES
        .iter()
        .filter(|c| images || !c.source.contains("image2d_t"))
    {
        text.push_str(case.source);
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_sizes_fit_the_allocation_limit_and_say_when_they_shrink() {
        take_shrink_note();
        // Within the limit, or at another scale: as asked, and no note.
        assert_eq!(Scale::Large(1 << 30).fit(1 << 28, |n| 4 * n), 1 << 28);
        assert_eq!(Scale::Full.fit(1 << 28, |n| 4 * n), 1 << 28);
        assert_eq!(Scale::Stream(1).fit(1 << 28, |n| 4 * n), 1 << 28);
        assert_eq!(take_shrink_note(), None);
        // Halved until the largest buffer fits; the note names both sizes and the limit.
        assert_eq!(Scale::Large(300 << 20).fit(1 << 28, |n| 4 * n), 1 << 26);
        let note = take_shrink_note().unwrap();
        assert!(note.contains("268435456 bytes, from 1073741824"), "{note}");
        assert!(note.contains(&(300u64 << 20).to_string()), "{note}");
        assert_eq!(take_shrink_note(), None);
        assert_eq!(Scale::Large(64 << 20).fit(16384, |n| 4 * n * n), 4096);
        assert_eq!(Scale::Large(1 << 30).floats(1 << 24), 1 << 28);
        assert_eq!(Scale::Large(100 << 20).floats(1 << 24), 1 << 24);
        take_shrink_note();
        assert_eq!(Scale::Large(0).pick(1, 2, 3), 3);
        assert_eq!(Scale::Stream(0).pick(1, 2, 3), 2);
        assert_eq!(Scale::Quick.pick(1, 2, 3), 1);
    }

    #[test]
    fn every_category_the_issue_names_is_covered() {
        assert!(CASES.len() >= 17);
        for category in ["memory", "compute", "sync", "atomics", "math", "integer"] {
            assert!(CASES.iter().any(|c| c.category == category), "{category}");
        }
        for case in CASES {
            assert!(
                case.source
                    .contains(&format!("__kernel void {}(", case.kernel)),
                "{}",
                case.name
            );
        }
    }

    #[test]
    fn stream_arrays_are_at_least_the_full_size() {
        assert_eq!(Scale::Stream(1 << 30).floats(1 << 24), 1 << 28);
        assert_eq!(Scale::Stream(1 << 20).floats(1 << 24), 1 << 24);
        assert_eq!(Scale::Stream((1 << 30) + 1).floats(1 << 24) % 4096, 0);
        assert_eq!(Scale::Full.floats(1 << 24), 1 << 24);
    }

    #[test]
    fn checks_reject_wrong_results() {
        // A buffer of zeros is not the answer of any case: every check must notice.
        for case in CASES {
            let problem = (case.make)(Scale::Quick);
            let zeros: Vec<Vec<u8>> = problem
                .args
                .iter()
                .map(|a| match a {
                    Arg::Buffer(b) => vec![0; b.len()],
                    _ => Vec::new(),
                })
                .collect();
            assert!((problem.check)(&zeros).is_err(), "{}", case.name);
        }
    }

    #[test]
    fn the_empty_kernel_ir_verifies() {
        let module = ferrocl_ir::parse_module(EMPTY_IR).unwrap();
        ferrocl_ir::verify_module(&module).unwrap();
    }

    #[test]
    fn sample_includes_both_ends() {
        assert_eq!(sample(3, 10), [0, 1, 2]);
        let s = sample(1000, 5);
        assert_eq!(s.first(), Some(&0));
        assert_eq!(s.last(), Some(&999));
    }
}
