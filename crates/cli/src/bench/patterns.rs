//! Kernels of the kinds real libraries run and the suite's first rows lack: a sparse
//! matrix-vector product in CSR form (rows of different lengths, gathers), a 5×5
//! convolution, a radix-4 FFT over `float2` with a `__constant` twiddle table and `__local`
//! exchanges (the shape of VkFFT's kernels), `uchar` element-wise work (OpenCV's threshold
//! over `uchar4`, its absolute difference one byte a work-item) and a Gaussian pyramid step
//! on bytes (OpenCV's `pyrDown`). Each result is checked against a host reference.

use super::suite::{
    close, float_bytes, floats, int, int_bytes, random_floats, random_uints, sample, Arg, Problem,
    Scale,
};

pub const SPMV: &str = "\
__kernel void spmv(__global const int *rowptr, __global const int *col,
                   __global const float *val, __global const float *x, __global float *y, int rows)
{
    int r = get_global_id(0);
    if (r >= rows)
        return;
    float acc = 0.0f;
    for (int k = rowptr[r]; k < rowptr[r + 1]; k++)
        acc += val[k] * x[col[k]];
    y[r] = acc;
}
";

/// Rows of 4 to 28 non-zeros at random columns.
pub fn spmv(scale: Scale) -> Problem {
    // The largest buffers, the columns and the values, hold at most 28 numbers a row.
    let rows = scale.fit(scale.pick(1 << 10, 1 << 18, 1 << 22), |r| 28 * 4 * r);
    let lengths = random_uints(rows, 41, 25);
    let mut rowptr = vec![0i32; rows + 1];
    for r in 0..rows {
        rowptr[r + 1] = rowptr[r] + 4 + lengths[r] as i32;
    }
    let nnz = rowptr[rows] as usize;
    let col: Vec<i32> = random_uints(nnz, 42, rows as u32)
        .into_iter()
        .map(|c| c as i32)
        .collect();
    let val = random_floats(nnz, 43, -1.0, 1.0);
    let x = random_floats(rows, 44, -1.0, 1.0);
    let args = vec![
        Arg::Buffer(int_bytes(&rowptr)),
        Arg::Buffer(int_bytes(&col)),
        Arg::Buffer(float_bytes(&val)),
        Arg::Buffer(float_bytes(&x)),
        Arg::Buffer(vec![0; rows * 4]),
        int(rows as i32),
    ];
    Problem {
        args,
        global: vec![rows],
        local: None,
        check: Box::new(move |out| {
            let got = floats(&out[4]);
            for r in sample(rows, 4096) {
                let range = rowptr[r] as usize..rowptr[r + 1] as usize;
                let want: f64 = range
                    .map(|k| f64::from(val[k]) * f64::from(x[col[k] as usize]))
                    .sum();
                close("y", r, f64::from(got[r]), want, 4.0, 1e-5)?;
            }
            Ok(2.0 * nnz as f64)
        }),
    }
}

pub const CONV5: &str = "\
__kernel void conv5(__global const float *in, __global float *out, __constant float *w, int width)
{
    int x = get_global_id(0), y = get_global_id(1);
    int stride = width + 4;
    float sum = 0.0f;
    for (int dy = 0; dy < 5; dy++)
        for (int dx = 0; dx < 5; dx++)
            sum += in[(y + dy) * stride + x + dx] * w[dy * 5 + dx];
    out[y * width + x] = sum;
}
";

/// A `w × h` output from a `(w + 4) × (h + 4)` input.
pub fn conv5(scale: Scale) -> Problem {
    let (w, h) = scale.pick((64, 32), (2048, 2048), (16384, 8192));
    let h = scale.fit(h, |h| 4 * (w + 4) * (h + 4));
    let stride = w + 4;
    let input = random_floats(stride * (h + 4), 51, 0.0, 1.0);
    let weights = random_floats(25, 52, -1.0, 1.0);
    Problem {
        args: vec![
            Arg::Buffer(float_bytes(&input)),
            Arg::Buffer(vec![0; w * h * 4]),
            Arg::Buffer(float_bytes(&weights)),
            int(w as i32),
        ],
        global: vec![w, h],
        local: None,
        check: Box::new(move |out| {
            let got = floats(&out[1]);
            for i in sample(w * h, 4096) {
                let (x, y) = (i % w, i / w);
                let mut want = 0.0f64;
                for dy in 0..5 {
                    for dx in 0..5 {
                        want += f64::from(input[(y + dy) * stride + x + dx])
                            * f64::from(weights[dy * 5 + dx]);
                    }
                }
                close("out", i, f64::from(got[i]), want, 4.0, 1e-5)?;
            }
            Ok(2.0 * 25.0 * (w * h) as f64)
        }),
    }
}

pub const FFT: &str = "\
/* One 256-point complex FFT per work-group of 64: four radix-4 passes (Stockham), each
   work-item holding four points in registers between __local exchanges. */
#define CMUL(a, b) (float2)((a).x * (b).x - (a).y * (b).y, (a).x * (b).y + (a).y * (b).x)
#define MINUS_I(a) (float2)((a).y, -(a).x)
__kernel void fft256(__global const float2 *in, __global float2 *out, __constant float2 *tw)
{
    __local float2 buf[2][256];
    int j = get_local_id(0);
    size_t base = get_group_id(0) * 256;
    for (int r = 0; r < 4; r++)
        buf[0][j + 64 * r] = in[base + j + 64 * r];
    barrier(CLK_LOCAL_MEM_FENCE);
    int src = 0;
    for (int ns = 1; ns < 256; ns *= 4) {
        float2 v0 = buf[src][j], v1 = buf[src][j + 64], v2 = buf[src][j + 128], v3 = buf[src][j + 192];
        int k = (j % ns) * (64 / ns);
        v1 = CMUL(v1, tw[k & 255]);
        v2 = CMUL(v2, tw[(2 * k) & 255]);
        v3 = CMUL(v3, tw[(3 * k) & 255]);
        float2 a0 = v0 + v2, a1 = v0 - v2, a2 = v1 + v3, a3 = MINUS_I(v1 - v3);
        int d = (j / ns) * ns * 4 + (j % ns);
        buf[1 - src][d] = a0 + a2;
        buf[1 - src][d + ns] = a1 + a3;
        buf[1 - src][d + 2 * ns] = a0 - a2;
        buf[1 - src][d + 3 * ns] = a1 - a3;
        barrier(CLK_LOCAL_MEM_FENCE);
        src = 1 - src;
    }
    for (int r = 0; r < 4; r++)
        out[base + j + 64 * r] = buf[src][j + 64 * r];
}
";

/// Batches of 256-point transforms, checked against the DFT.
pub fn fft(scale: Scale) -> Problem {
    let n = 256;
    let batches = scale.fit(scale.pick(16, 8192, 1 << 18), |b| 2 * n * b * 4);
    let input = random_floats(2 * n * batches, 61, -1.0, 1.0);
    // tw[k] = e^(-2 pi i k / 256).
    let twiddles: Vec<f32> = (0..n)
        .flat_map(|k| {
            let angle = -2.0 * std::f64::consts::PI * k as f64 / n as f64;
            [angle.cos() as f32, angle.sin() as f32]
        })
        .collect();
    Problem {
        args: vec![
            Arg::Buffer(float_bytes(&input)),
            Arg::Buffer(vec![0; 2 * n * batches * 4]),
            Arg::Buffer(float_bytes(&twiddles)),
        ],
        global: vec![64 * batches],
        local: Some(vec![64]),
        check: Box::new(move |out| {
            let got = floats(&out[1]);
            for b in sample(batches, 4) {
                let x = &input[2 * n * b..2 * n * (b + 1)];
                for f in sample(n, 32) {
                    let (mut re, mut im) = (0.0f64, 0.0f64);
                    for t in 0..n {
                        let angle = -2.0 * std::f64::consts::PI * ((f * t) % n) as f64 / n as f64;
                        let (c, s) = (angle.cos(), angle.sin());
                        let (xr, xi) = (f64::from(x[2 * t]), f64::from(x[2 * t + 1]));
                        re += xr * c - xi * s;
                        im += xr * s + xi * c;
                    }
                    let at = 2 * (n * b + f);
                    close("out", at, f64::from(got[at]), re, 16.0, 1e-5)?;
                    close("out", at + 1, f64::from(got[at + 1]), im, 16.0, 1e-5)?;
                }
            }
            // The usual count of an FFT: 5 n log2(n) per transform.
            Ok(5.0 * n as f64 * 8.0 * batches as f64)
        }),
    }
}

pub const THRESHOLD: &str = "\
__kernel void threshold(__global const uchar *src, __global uchar *dst, uchar thresh, uchar maxval)
{
    size_t i = get_global_id(0);
    uchar4 s = vload4(i, src);
    vstore4(select((uchar4)(0), (uchar4)(maxval), s > (uchar4)(thresh)), i, dst);
}
";

fn random_bytes(count: usize, seed: u64) -> Vec<u8> {
    random_uints(count, seed, 256)
        .into_iter()
        .map(|b| b as u8)
        .collect()
}

/// A binary threshold of bytes, four a work-item.
pub fn threshold(scale: Scale) -> Problem {
    let n = scale.fit(scale.pick(1 << 12, 1 << 24, 1 << 30), |n| n);
    let src = random_bytes(n, 71);
    let (thresh, maxval) = (100u8, 200u8);
    Problem {
        args: vec![
            Arg::Buffer(src.clone()),
            Arg::Buffer(vec![0; n]),
            Arg::Value(vec![thresh]),
            Arg::Value(vec![maxval]),
        ],
        global: vec![n / 4],
        local: None,
        check: Box::new(move |out| {
            for i in sample(n, 1 << 16) {
                let want = if src[i] > thresh { maxval } else { 0 };
                if out[1][i] != want {
                    return Err(format!("dst[{i}] is {}, expected {want}", out[1][i]));
                }
            }
            Ok(2.0 * n as f64)
        }),
    }
}

pub const ABSDIFF: &str = "\
__kernel void absdiff(__global const uchar *a, __global const uchar *b, __global uchar *d)
{
    size_t i = get_global_id(0);
    d[i] = abs_diff(a[i], b[i]);
}
";

/// The absolute difference of two byte arrays, a byte a work-item.
pub fn absdiff(scale: Scale) -> Problem {
    let n = scale.fit(scale.pick(1 << 12, 1 << 24, 1 << 30), |n| n);
    let a = random_bytes(n, 81);
    let b = random_bytes(n, 82);
    Problem {
        args: vec![
            Arg::Buffer(a.clone()),
            Arg::Buffer(b.clone()),
            Arg::Buffer(vec![0; n]),
        ],
        global: vec![n],
        local: None,
        check: Box::new(move |out| {
            for i in sample(n, 1 << 16) {
                let want = a[i].abs_diff(b[i]);
                if out[2][i] != want {
                    return Err(format!("d[{i}] is {}, expected {want}", out[2][i]));
                }
            }
            Ok(3.0 * n as f64)
        }),
    }
}

pub const PYR_DOWN: &str = "\
/* One output pixel of the 5x5 Gaussian (1 4 6 4 1 on each axis, / 256) at every other
   input pixel, borders replicated, rounded to the nearest byte. */
__kernel void pyr_down(__global const uchar *src, __global uchar *dst, int sw, int sh)
{
    int x = get_global_id(0), y = get_global_id(1);
    int dw = sw / 2;
    int x0 = clamp(2 * x - 2, 0, sw - 1), x1 = clamp(2 * x - 1, 0, sw - 1), x2 = 2 * x;
    int x3 = min(2 * x + 1, sw - 1), x4 = min(2 * x + 2, sw - 1);
    int sum = 0;
    for (int dy = -2; dy <= 2; dy++) {
        __global const uchar *row = src + clamp(2 * y + dy, 0, sh - 1) * sw;
        int r = row[x0] + 4 * row[x1] + 6 * row[x2] + 4 * row[x3] + row[x4];
        sum += (dy == 0 ? 6 : dy == -1 || dy == 1 ? 4 : 1) * r;
    }
    dst[y * dw + x] = convert_uchar_sat((sum + 128) >> 8);
}
";

/// A pyramid step of a `sw × sh` byte image.
pub fn pyr_down(scale: Scale) -> Problem {
    let (sw, sh) = scale.pick((64, 32), (4096, 4096), (32768, 32768));
    let sh = scale.fit(sh, |h| sw * h);
    let (dw, dh) = (sw / 2, sh / 2);
    let src = random_bytes(sw * sh, 91);
    Problem {
        args: vec![
            Arg::Buffer(src.clone()),
            Arg::Buffer(vec![0; dw * dh]),
            int(sw as i32),
            int(sh as i32),
        ],
        global: vec![dw, dh],
        local: None,
        check: Box::new(move |out| {
            let k = [1i32, 4, 6, 4, 1];
            for i in sample(dw * dh, 1 << 14) {
                let (x, y) = ((i % dw) as i32, (i / dw) as i32);
                let mut sum = 0;
                for dy in -2..=2i32 {
                    let sy = (2 * y + dy).clamp(0, sh as i32 - 1) as usize;
                    for dx in -2..=2i32 {
                        let sx = (2 * x + dx).clamp(0, sw as i32 - 1) as usize;
                        sum += k[(dy + 2) as usize]
                            * k[(dx + 2) as usize]
                            * i32::from(src[sy * sw + sx]);
                    }
                }
                let want = ((sum + 128) >> 8).clamp(0, 255) as u8;
                if out[1][i] != want {
                    return Err(format!("dst[{i}] is {}, expected {want}", out[1][i]));
                }
            }
            // 25 multiply-adds per output pixel.
            Ok(50.0 * (dw * dh) as f64)
        }),
    }
}
