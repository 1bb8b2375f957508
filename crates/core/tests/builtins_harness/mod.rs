//! Shared by the `builtins_*` tests and the others that run programs: the platform with the
//! CPU device ([`platform`]); builds OpenCL C source for it through the runtime's
//! Program/Kernel API, runs a kernel over buffers and reads them back, plus a small seeded
//! xorshift generator and the ULP measure of OpenCL C 7.4.

#![allow(dead_code)]

pub mod math;
pub mod types;

use std::sync::Arc;

use ferrocl_core::device::NdRange;
use ferrocl_core::kernel::ArgValue;
use ferrocl_core::memory::flags;
use ferrocl_core::program::Program;
use ferrocl_core::{CommandQueue, Context, HostPtr, Kernel, MemObject, Platform};

/// The platform with the CPU device, as the library that offers it makes it.
pub fn platform() -> &'static Platform {
    Platform::init(|machine| {
        vec![ferrocl_core::Device::cpu(
            machine,
            Box::new(ferrocl_cpu::CpuDevice),
        )]
    })
}

pub struct Runner {
    context: Arc<Context>,
    queue: Arc<CommandQueue>,
}

impl Runner {
    pub fn new() -> Runner {
        let context = Context::new(platform().devices().to_vec(), Vec::new(), false, None);
        let queue = CommandQueue::new(context.clone(), context.devices[0].clone(), 0, Vec::new());
        Runner { context, queue }
    }

    /// Builds `source`; panics with the build log when it does not build.
    pub fn build(&self, source: &str, options: &str) -> Arc<Program> {
        let program = Program::from_source(self.context.clone(), source.to_string());
        if let Err(e) = program.build(&[], options) {
            let log = program
                .build_info(&self.context.devices[0])
                .map(|b| b.log)
                .unwrap_or_default();
            panic!("build failed: {e:?}\n{log}\n--- source ---\n{source}");
        }
        program
    }

    /// Runs kernel `name` of `program` over `global` work-items, one buffer argument per
    /// entry of `buffers` (in order); the buffers are copied back after the run.
    pub fn run(&self, program: &Arc<Program>, name: &str, buffers: &mut [Vec<u8>], global: usize) {
        let local = (1..=64u64)
            .rev()
            .find(|l| global as u64 % l == 0)
            .unwrap_or(1);
        let nd = NdRange {
            work_dim: 1,
            global_offset: [0; 3],
            global_size: [global as u64, 1, 1],
            local_size: [local, 1, 1],
        };
        self.run_nd(program, name, buffers, nd);
    }

    /// Runs kernel `name` of `program` over the NDRange `nd`, one buffer argument per entry
    /// of `buffers` (in order); the buffers are copied back after the run.
    pub fn run_nd(&self, program: &Arc<Program>, name: &str, buffers: &mut [Vec<u8>], nd: NdRange) {
        self.run_repeated(program, name, buffers, &[], nd, 1);
    }

    /// Runs kernel `name` of `program` over the NDRange `nd` `times` times in a row, with one
    /// buffer argument per entry of `buffers` followed by one local memory argument of each
    /// size in `locals` (bytes); the buffers are copied back after the last run.
    pub fn run_repeated(
        &self,
        program: &Arc<Program>,
        name: &str,
        buffers: &mut [Vec<u8>],
        locals: &[usize],
        nd: NdRange,
        times: usize,
    ) {
        let kernel = Kernel::new(program, name).expect("kernel");
        let mut mems = Vec::new();
        for (i, b) in buffers.iter_mut().enumerate() {
            if b.is_empty() {
                b.push(0);
            }
            // SAFETY: the vector outlives the command, which is finished below.
            let host = unsafe { HostPtr::new(b.as_mut_ptr()) };
            let m = MemObject::new_buffer(
                self.context.clone(),
                flags::READ_WRITE | flags::COPY_HOST_PTR,
                b.len(),
                Some(host),
                Vec::new(),
            )
            .expect("buffer");
            kernel.set_arg(i, ArgValue::Mem(Some(&m))).unwrap();
            mems.push(m);
        }
        for (i, &size) in locals.iter().enumerate() {
            kernel
                .set_arg(buffers.len() + i, ArgValue::Local(size))
                .unwrap();
        }
        for _ in 0..times {
            kernel.enqueue(&self.queue, nd, &[], 0).expect("enqueue");
        }
        self.queue.finish().expect("finish");
        for (b, m) in buffers.iter_mut().zip(&mems) {
            // SAFETY: the buffer holds b.len() bytes and no command uses it any more.
            unsafe { std::ptr::copy_nonoverlapping(m.base(), b.as_mut_ptr(), b.len()) };
        }
    }

    pub fn context(&self) -> &Arc<Context> {
        &self.context
    }

    pub fn queue(&self) -> &Arc<CommandQueue> {
        &self.queue
    }
}

/// The bytes of a slice of plain values.
pub fn bytes<T: Copy>(v: &[T]) -> Vec<u8> {
    let n = std::mem::size_of_val(v);
    let mut out = vec![0u8; n];
    // SAFETY: `out` holds exactly the slice's bytes.
    unsafe { std::ptr::copy_nonoverlapping(v.as_ptr().cast::<u8>(), out.as_mut_ptr(), n) };
    out
}

/// Plain values read back from bytes.
pub fn values<T: Copy + Default>(b: &[u8]) -> Vec<T> {
    let size = std::mem::size_of::<T>();
    (0..b.len() / size)
        .map(|i| {
            // SAFETY: in bounds; any bit pattern is a valid value of the plain types used.
            unsafe { b.as_ptr().add(i * size).cast::<T>().read_unaligned() }
        })
        .collect()
}

/// xorshift64*: a small seeded generator (no crates).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// Any float bit pattern (NaNs, infinities and denormals included).
    pub fn any_f32(&mut self) -> f32 {
        f32::from_bits(self.next() as u32)
    }
    /// A float of random sign with exponent in `lo..=hi` (powers of two) and random mantissa.
    pub fn f32_exp(&mut self, lo: i32, hi: i32) -> f32 {
        let e = lo + self.below((hi - lo + 1) as u64) as i32;
        let m = 1.0 + (self.next() >> 40) as f64 / (1u64 << 24) as f64;
        let v = (m * 2f64.powi(e)) as f32;
        if self.next() & 1 == 0 {
            v
        } else {
            -v
        }
    }
}

/// The unit in the last place of a float near `r` (7.4): the gap between the floats around
/// it, measured at r's binade; 2^-149 below the normal range, 2^104 at the top.
pub fn ulp_f32(r: f64) -> f64 {
    let a = r.abs();
    if a < f64::from(f32::MIN_POSITIVE) {
        return 2f64.powi(-149);
    }
    let e = ((a.to_bits() >> 52) as i32 - 1023).min(127);
    2f64.powi(e - 23)
}

/// The error of float `got` against the reference `want`, in ulps of the float format.
/// NaN against NaN is 0; a reference of zero or infinity must be met exactly, sign included
/// (7.5.1: values C99 F.9 prescribes "shall produce exactly the prescribed answers"); an
/// infinite result for a finite reference counts as 2^128 (7.4: overflow within the bound is
/// permitted).
pub fn ulp_error(got: f32, want: f64) -> f64 {
    if want.is_nan() {
        return if got.is_nan() { 0.0 } else { f64::INFINITY };
    }
    if got.is_nan() {
        return f64::INFINITY;
    }
    if want == 0.0 || want.is_infinite() {
        let w = want as f32;
        return if got.to_bits() == w.to_bits() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if got.is_infinite()
        && got.is_sign_negative() == want.is_sign_negative()
        && want.abs() >= 2f64.powi(128)
    {
        // Beyond the float range: infinity is the correctly rounded result.
        return 0.0;
    }
    let g = if got.is_infinite() {
        2f64.powi(128).copysign(f64::from(got))
    } else {
        f64::from(got)
    };
    (g - want).abs() / ulp_f32(want)
}

/// Floats every math sweep includes: zeros, infinities, NaN, denormals, the extremes, values
/// at and near small integers and halves, near multiples of pi, and huge trig arguments.
pub fn special_f32() -> Vec<f32> {
    let mut v = vec![
        0.0,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::MAX,
        -f32::MAX,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        f32::from_bits(1),
        f32::from_bits(0x8000_0001),
        f32::from_bits(0x007f_ffff),
        f32::from_bits(0x807f_ffff),
        f32::from_bits(0x0040_0000),
        f32::EPSILON,
        1e-30,
        1e30,
        -1e30,
        88.72,
        89.0,
        -103.9,
        -104.0,
        128.0,
        -150.0,
        38.5,
        -45.2,
        1e10,
        1e20,
        3.0e38,
        16_777_216.0,
        8_388_608.5,
    ];
    for k in -6..=6 {
        let x = k as f32 * 0.5;
        v.extend([x, next_up(x), next_down(x)]);
    }
    for k in [1.0f64, 2.0, 3.0, 10.0, 100.0, 1e4, 1e6, 1e10, 1e20, 1e30] {
        for m in [0.5, 1.0, 1.5] {
            let x = (k * m * std::f64::consts::PI) as f32;
            v.extend([x, -x, next_up(x), next_down(x)]);
        }
    }
    v
}

pub fn next_up(x: f32) -> f32 {
    if x.is_nan() || x == f32::INFINITY {
        x
    } else if x == 0.0 {
        f32::from_bits(1)
    } else if x > 0.0 {
        f32::from_bits(x.to_bits() + 1)
    } else {
        f32::from_bits(x.to_bits() - 1)
    }
}

pub fn next_down(x: f32) -> f32 {
    -next_up(-x)
}

pub fn next_up_f64(x: f64) -> f64 {
    if x.is_nan() || x == f64::INFINITY {
        x
    } else if x == 0.0 {
        f64::from_bits(1)
    } else if x > 0.0 {
        f64::from_bits(x.to_bits() + 1)
    } else {
        f64::from_bits(x.to_bits() - 1)
    }
}

pub fn next_down_f64(x: f64) -> f64 {
    -next_up_f64(-x)
}

/// 2^e for every e of a double's range, denormals included (exact; `powi` of a negative
/// power overflows its reciprocal below 2^-1023).
pub fn pow2(e: i32) -> f64 {
    assert!((-1074..=1023).contains(&e), "2^{e} is not a double");
    if e >= -1022 {
        f64::from_bits(((e + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (e + 1074))
    }
}

/// The unit in the last place of a double near `r` (7.4): 2^-1074 below the normal range.
pub fn ulp_f64(r: f64) -> f64 {
    let a = r.abs();
    if a < f64::MIN_POSITIVE {
        return pow2(-1074);
    }
    let e = ((a.to_bits() >> 52) as i32 - 1023).min(1023);
    pow2(e - 52)
}

/// The error of double `got` against the reference `want`, in ulps. NaN against NaN is 0; a
/// zero reference is met by a zero of the same sign (7.5.1 and C99 F.9 prescribe signed zeros)
/// or measured in denormal ulps; an infinite reference must be met exactly; an infinite result
/// for a finite reference counts as 2^1024 (7.4: overflow within the bound is permitted).
pub fn ulp_error_f64(got: f64, want: f64) -> f64 {
    if want.is_nan() {
        return if got.is_nan() { 0.0 } else { f64::INFINITY };
    }
    if got.is_nan() {
        return f64::INFINITY;
    }
    if want.is_infinite() {
        return if got == want { 0.0 } else { f64::INFINITY };
    }
    if want == 0.0 && got == 0.0 {
        return if got.is_sign_negative() == want.is_sign_negative() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if got.is_infinite() {
        if got.is_sign_negative() != want.is_sign_negative() {
            return f64::INFINITY;
        }
        // (2^1024 - |want|) / ulp, computed at half scale so that nothing overflows.
        let u = ulp_f64(want);
        return (pow2(1023) - want.abs() / 2.0) / (u / 2.0);
    }
    (got - want).abs() / ulp_f64(want)
}
