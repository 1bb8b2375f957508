//! Host implementations of the OpenCL C math builtins that are not one IR operation, for the
//! CPU device: the functions a kernel's declared `sin.float`, `pow.double.double`, ... calls
//! resolve to (the names are lowering's mangling: the builtin and its parameter types).
//!
//! `float` functions are evaluated in `double` and rounded once, which keeps them within half
//! an ulp or so of the exact result — inside every bound of the OpenCL C full profile
//! (section 7.4). `double` functions use the host's C library (through Rust's `f64` methods
//! and a few direct `libm` calls). Vector overloads are called lane by lane ([`resolve`]).
//!
//! This is the CPU device's library until the shared builtin library, written once for every
//! device, takes its place.

use std::ffi::c_int;

/// A type of a library function's parameter or result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    F32,
    F64,
    I32,
    U32,
    U64,
    /// A pointer (to an `int`, `float` or `double` result the function writes).
    Ptr,
}

/// One library function: its scalar mangled name, address and signature.
pub struct LibFn {
    pub name: &'static str,
    pub addr: *const u8,
    pub params: &'static [Ty],
    pub ret: Ty,
}

// SAFETY: the addresses are of immutable functions, callable from any thread.
unsafe impl Sync for LibFn {}
// SAFETY: as above.
unsafe impl Send for LibFn {}

mod sys {
    use std::ffi::c_int;
    extern "C" {
        pub fn erf(x: f64) -> f64;
        pub fn erfc(x: f64) -> f64;
        pub fn tgamma(x: f64) -> f64;
        pub fn lgamma_r(x: f64, sign: *mut c_int) -> f64;
        pub fn remainder(x: f64, y: f64) -> f64;
        pub fn logb(x: f64) -> f64;
        pub fn ilogb(x: f64) -> c_int;
        pub fn frexp(x: f64, exp: *mut c_int) -> f64;
        pub fn ldexp(x: f64, exp: c_int) -> f64;
        pub fn nextafterf(x: f32, y: f32) -> f32;
        pub fn nextafter(x: f64, y: f64) -> f64;
        pub fn rint(x: f64) -> f64;
    }
}

// Functions of one argument, on f64; the float version rounds the f64 result.
fn sinpi(x: f64) -> f64 {
    // Reduce exactly: sin(pi x) has period 2, is odd, and sin(pi (1 - a)) = sin(pi a).
    if x.is_infinite() || x.is_nan() {
        return f64::NAN;
    }
    let r = x % 2.0;
    let (mut a, mut sign) = (r.abs(), r.signum());
    if a == 0.0 {
        return 0.0f64.copysign(x);
    }
    if a >= 1.0 {
        a -= 1.0;
        sign = -sign;
    }
    if a > 0.5 {
        a = 1.0 - a;
    }
    if a == 0.0 {
        // At integers the result is a zero with the sign of x (IEEE 754-2019, 9.2.1: sinPi(+n)
        // is +0 and sinPi(-n) is -0 for positive integers n).
        return 0.0f64.copysign(x);
    }
    sign * (std::f64::consts::PI * a).sin()
}

fn cospi(x: f64) -> f64 {
    if x.is_infinite() || x.is_nan() {
        return f64::NAN;
    }
    // cos(pi x) is even with period 2, and cos(pi (2 - a)) = cos(pi a).
    let mut a = (x % 2.0).abs();
    if a > 1.0 {
        a = 2.0 - a;
    }
    if a < 0.25 {
        (std::f64::consts::PI * a).cos()
    } else {
        // 0.5 - a is exact for a in [0.25, 1]: cos(pi a) = sin(pi (0.5 - a)).
        sinpi(0.5 - a)
    }
}

fn tanpi(x: f64) -> f64 {
    sinpi(x) / cospi(x)
}

fn rsqrt(x: f64) -> f64 {
    1.0 / x.sqrt()
}

fn exp10(x: f64) -> f64 {
    10f64.powf(x)
}

fn erf(x: f64) -> f64 {
    // SAFETY: a pure C library function.
    unsafe { sys::erf(x) }
}

fn erfc(x: f64) -> f64 {
    // SAFETY: a pure C library function.
    unsafe { sys::erfc(x) }
}

fn tgamma(x: f64) -> f64 {
    // SAFETY: a pure C library function.
    unsafe { sys::tgamma(x) }
}

fn lgamma(x: f64) -> f64 {
    let mut sign: c_int = 0;
    // SAFETY: `sign` is a valid int to write.
    unsafe { sys::lgamma_r(x, &mut sign) }
}

fn logb(x: f64) -> f64 {
    // SAFETY: a pure C library function.
    unsafe { sys::logb(x) }
}

fn rint(x: f64) -> f64 {
    // SAFETY: a pure C library function (round to nearest even in the default mode).
    unsafe { sys::rint(x) }
}

/// `round`: halfway cases away from zero.
fn round(x: f64) -> f64 {
    x.round()
}

fn asinpi(x: f64) -> f64 {
    x.asin() / std::f64::consts::PI
}

fn acospi(x: f64) -> f64 {
    x.acos() / std::f64::consts::PI
}

fn atanpi(x: f64) -> f64 {
    x.atan() / std::f64::consts::PI
}

// Functions of two arguments.
fn atan2pi(y: f64, x: f64) -> f64 {
    y.atan2(x) / std::f64::consts::PI
}

fn fdim(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        f64::NAN
    } else if x > y {
        x - y
    } else {
        0.0
    }
}

fn fmod(x: f64, y: f64) -> f64 {
    x % y
}

fn remainder(x: f64, y: f64) -> f64 {
    // SAFETY: a pure C library function.
    unsafe { sys::remainder(x, y) }
}

/// `powr`: pow for x >= 0, with the special values of OpenCL C 7.5.1.
fn powr(x: f64, y: f64) -> f64 {
    if x < 0.0 || x.is_nan() || y.is_nan() {
        return f64::NAN;
    }
    if (y == 0.0 && (x == 0.0 || x.is_infinite())) || (x == 1.0 && y.is_infinite()) {
        return f64::NAN;
    }
    if x == 0.0 {
        // 7.5.1: powr(±0, y) is +inf for y < 0 (finite or -inf), and ±0 for y > 0 — the
        // sign of the zero kept, which pow does not do for -0 and non-odd-integer y.
        return if y < 0.0 { f64::INFINITY } else { x };
    }
    x.powf(y)
}

fn maxmag(x: f64, y: f64) -> f64 {
    if x.abs() > y.abs() {
        x
    } else if y.abs() > x.abs() {
        y
    } else {
        x.max(y)
    }
}

fn minmag(x: f64, y: f64) -> f64 {
    if x.abs() < y.abs() {
        x
    } else if y.abs() < x.abs() {
        y
    } else {
        x.min(y)
    }
}

/// `sign`: 1.0 for x > 0, -0.0 or +0.0 for a zero, -1.0 for x < 0, 0.0 for a NaN.
fn sign(x: f64) -> f64 {
    if x.is_nan() {
        0.0
    } else if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        x
    }
}

fn pown(x: f64, n: i32) -> f64 {
    if x == 0.0 && n > 0 {
        // 7.5.1: pown(±0, n) is ±0 for even and odd n > 0 (pow gives +0 for even n).
        return x;
    }
    x.powf(f64::from(n))
}

/// `rootn`: the n-th root; NaN for n = 0 and for negative x with even n.
fn rootn(x: f64, n: i32) -> f64 {
    if n == 0 {
        return f64::NAN;
    }
    if x == 0.0 {
        // 7.5.1: rootn(±0, n) is ±inf for odd n < 0, +inf for even n < 0, and ±0 for n > 0.
        return match (n < 0, n % 2 != 0) {
            (true, true) => f64::INFINITY.copysign(x),
            (true, false) => f64::INFINITY,
            (false, _) => x,
        };
    }
    if x < 0.0 {
        if n % 2 == 0 {
            return f64::NAN;
        }
        return -(-x).powf(1.0 / f64::from(n));
    }
    x.powf(1.0 / f64::from(n))
}

fn ldexp(x: f64, n: i32) -> f64 {
    // SAFETY: a pure C library function.
    unsafe { sys::ldexp(x, n) }
}

macro_rules! unary {
    ($($name:literal $f:ident = $body:expr;)*) => {
        $(
            mod $f {
                #[allow(unused_imports)]
                use super::*;
                pub extern "C" fn float(x: f32) -> f32 {
                    let f: fn(f64) -> f64 = $body;
                    f(f64::from(x)) as f32
                }
                pub extern "C" fn double(x: f64) -> f64 {
                    let f: fn(f64) -> f64 = $body;
                    f(x)
                }
            }
        )*
        const UNARY: &[(&str, extern "C" fn(f32) -> f32, extern "C" fn(f64) -> f64)] = &[
            $(($name, $f::float, $f::double),)*
        ];
    };
}

unary! {
    "acos" acos_ = |x| x.acos();
    "acosh" acosh_ = |x| x.acosh();
    "acospi" acospi_ = acospi;
    "asin" asin_ = |x| x.asin();
    "asinh" asinh_ = |x| x.asinh();
    "asinpi" asinpi_ = asinpi;
    "atan" atan_ = |x| x.atan();
    "atanh" atanh_ = |x| x.atanh();
    "atanpi" atanpi_ = atanpi;
    "cbrt" cbrt_ = |x| x.cbrt();
    "cos" cos_ = |x| x.cos();
    "cosh" cosh_ = |x| x.cosh();
    "cospi" cospi_ = cospi;
    "erf" erf_ = erf;
    "erfc" erfc_ = erfc;
    "exp" exp_ = |x| x.exp();
    "exp2" exp2_ = |x| x.exp2();
    "exp10" exp10_ = exp10;
    "expm1" expm1_ = |x| x.exp_m1();
    "lgamma" lgamma_ = lgamma;
    "log" log_ = |x| x.ln();
    "log2" log2_ = |x| x.log2();
    "log10" log10_ = |x| x.log10();
    "log1p" log1p_ = |x| x.ln_1p();
    "logb" logb_ = logb;
    "rint" rint_ = rint;
    "round" round_ = round;
    "rsqrt" rsqrt_ = rsqrt;
    "recip" recip_ = |x| 1.0 / x;
    "sqrt" sqrt_ = |x| x.sqrt();
    "fabs" fabs_ = |x| x.abs();
    "floor" floor_ = |x| x.floor();
    "ceil" ceil_ = |x| x.ceil();
    "trunc" trunc_ = |x| x.trunc();
    "degrees" degrees_ = |x| x * (180.0 / std::f64::consts::PI);
    "radians" radians_ = |x| x * (std::f64::consts::PI / 180.0);
    "sign" sign_ = sign;
    "sin" sin_ = |x| x.sin();
    "sinh" sinh_ = |x| x.sinh();
    "sinpi" sinpi_ = sinpi;
    "tan" tan_ = |x| x.tan();
    "tanh" tanh_ = |x| x.tanh();
    "tanpi" tanpi_ = tanpi;
    "tgamma" tgamma_ = tgamma;
}

macro_rules! binary {
    ($($name:literal $f:ident = $body:expr;)*) => {
        $(
            mod $f {
                #[allow(unused_imports)]
                use super::*;
                pub extern "C" fn float(x: f32, y: f32) -> f32 {
                    let f: fn(f64, f64) -> f64 = $body;
                    f(f64::from(x), f64::from(y)) as f32
                }
                pub extern "C" fn double(x: f64, y: f64) -> f64 {
                    let f: fn(f64, f64) -> f64 = $body;
                    f(x, y)
                }
            }
        )*
        const BINARY: &[(&str, extern "C" fn(f32, f32) -> f32, extern "C" fn(f64, f64) -> f64)] = &[
            $(($name, $f::float, $f::double),)*
        ];
    };
}

binary! {
    "atan2" atan2_ = |y, x| y.atan2(x);
    "atan2pi" atan2pi_ = atan2pi;
    "divide" divide_ = |x, y| x / y;
    "fmax" fmax_ = |x, y| x.max(y);
    "fmin" fmin_ = |x, y| x.min(y);
    "copysign" copysign_ = |x, y| x.copysign(y);
    "step" step_ = |edge, x| if x < edge { 0.0 } else { 1.0 };
    "fdim" fdim_ = fdim;
    "fmod" fmod_ = fmod;
    "hypot" hypot_ = |x, y| x.hypot(y);
    "maxmag" maxmag_ = maxmag;
    "minmag" minmag_ = minmag;
    "pow" pow_ = |x, y| x.powf(y);
    "powr" powr_ = powr;
    "remainder" remainder_ = remainder;
}

macro_rules! with_int {
    ($($name:literal $f:ident = $body:expr;)*) => {
        $(
            mod $f {
                #[allow(unused_imports)]
                use super::*;
                pub extern "C" fn float(x: f32, n: i32) -> f32 {
                    let f: fn(f64, i32) -> f64 = $body;
                    f(f64::from(x), n) as f32
                }
                pub extern "C" fn double(x: f64, n: i32) -> f64 {
                    let f: fn(f64, i32) -> f64 = $body;
                    f(x, n)
                }
            }
        )*
        const WITH_INT: &[(&str, extern "C" fn(f32, i32) -> f32, extern "C" fn(f64, i32) -> f64)] = &[
            $(($name, $f::float, $f::double),)*
        ];
    };
}

with_int! {
    "ldexp" ldexp_ = ldexp;
    "pown" pown_ = pown;
    "rootn" rootn_ = rootn;
}

extern "C" fn ilogb_float(x: f32) -> i32 {
    // SAFETY: a pure C library function.
    unsafe { sys::ilogb(f64::from(x)) }
}

extern "C" fn ilogb_double(x: f64) -> i32 {
    // SAFETY: a pure C library function.
    unsafe { sys::ilogb(x) }
}

extern "C" fn nextafter_float(x: f32, y: f32) -> f32 {
    // SAFETY: a pure C library function.
    unsafe { sys::nextafterf(x, y) }
}

extern "C" fn nextafter_double(x: f64, y: f64) -> f64 {
    // SAFETY: a pure C library function.
    unsafe { sys::nextafter(x, y) }
}

/// `nan(nancode)`: a quiet NaN carrying the code in its mantissa.
extern "C" fn nan_float(code: u32) -> f32 {
    f32::from_bits(0x7fc0_0000 | (code & 0x003f_ffff))
}

extern "C" fn nan_double(code: u64) -> f64 {
    f64::from_bits(0x7ff8_0000_0000_0000 | (code & 0x0007_ffff_ffff_ffff))
}

// Functions that also write through a pointer (into private, local or global memory: the
// CPU device's address spaces are one).
extern "C" fn fract_float(x: f32, iptr: *mut f32) -> f32 {
    let fl = x.floor();
    // SAFETY: the kernel passes a valid pointer to a float (OpenCL C 6.15.2).
    unsafe { iptr.write_unaligned(fl) };
    if x.is_nan() {
        return x;
    }
    if x.is_infinite() || x == 0.0 {
        // 7.5.1: fract(±0) is ±0; fract(±inf) is ±0.
        return 0.0f32.copysign(x);
    }
    // "fract(x) = fmin(x - floor(x), 0x1.fffffep-1f)".
    (x - fl).min(f32::from_bits(0x3f7f_ffff))
}

extern "C" fn fract_double(x: f64, iptr: *mut f64) -> f64 {
    let fl = x.floor();
    // SAFETY: as in fract_float.
    unsafe { iptr.write_unaligned(fl) };
    if x.is_nan() {
        return x;
    }
    if x.is_infinite() || x == 0.0 {
        // 7.5.1: fract(±0) is ±0; fract(±inf) is ±0.
        return 0.0f64.copysign(x);
    }
    (x - fl).min(f64::from_bits(0x3fef_ffff_ffff_ffff))
}

extern "C" fn modf_float(x: f32, iptr: *mut f32) -> f32 {
    let t = x.trunc();
    // SAFETY: as in fract_float.
    unsafe { iptr.write_unaligned(t) };
    if x.is_infinite() {
        0.0f32.copysign(x)
    } else {
        (x - t).copysign(x)
    }
}

extern "C" fn modf_double(x: f64, iptr: *mut f64) -> f64 {
    let t = x.trunc();
    // SAFETY: as in fract_float.
    unsafe { iptr.write_unaligned(t) };
    if x.is_infinite() {
        0.0f64.copysign(x)
    } else {
        (x - t).copysign(x)
    }
}

extern "C" fn frexp_float(x: f32, exp: *mut i32) -> f32 {
    let mut e: c_int = 0;
    // SAFETY: e is a valid int; the kernel passes a valid pointer to an int.
    let m = unsafe { sys::frexp(f64::from(x), &mut e) };
    unsafe { exp.write_unaligned(e) };
    m as f32
}

extern "C" fn frexp_double(x: f64, exp: *mut i32) -> f64 {
    let mut e: c_int = 0;
    // SAFETY: as in frexp_float.
    let m = unsafe { sys::frexp(x, &mut e) };
    unsafe { exp.write_unaligned(e) };
    m
}

extern "C" fn sincos_float(x: f32, cosval: *mut f32) -> f32 {
    let x = f64::from(x);
    // SAFETY: the kernel passes a valid pointer to a float.
    unsafe { cosval.write_unaligned(x.cos() as f32) };
    x.sin() as f32
}

extern "C" fn sincos_double(x: f64, cosval: *mut f64) -> f64 {
    // SAFETY: as in sincos_float.
    unsafe { cosval.write_unaligned(x.cos()) };
    x.sin()
}

/// lgamma and the sign of gamma; 7.5.1: "lgamma_r(x, signp) returns 0 in signp if x is zero
/// or a negative integer" (where the C library gives ±1).
fn lgamma_sign(x: f64) -> (f64, c_int) {
    let mut s: c_int = 0;
    // SAFETY: s is a valid int to write.
    let r = unsafe { sys::lgamma_r(x, &mut s) };
    if x == 0.0 || (x < 0.0 && x.is_finite() && x == x.floor()) {
        s = 0;
    }
    (r, s)
}

extern "C" fn lgamma_r_float(x: f32, sign: *mut i32) -> f32 {
    let (r, s) = lgamma_sign(f64::from(x));
    // SAFETY: the kernel passes a valid pointer to an int.
    unsafe { sign.write_unaligned(s) };
    r as f32
}

extern "C" fn lgamma_r_double(x: f64, sign: *mut i32) -> f64 {
    let (r, s) = lgamma_sign(x);
    // SAFETY: as in lgamma_r_float.
    unsafe { sign.write_unaligned(s) };
    r
}

/// remquo: the remainder, and "the lower seven bits of the integral quotient x/y, [with] the
/// same sign as x/y" (6.15.2; the C library keeps only three bits). 7.5.1: a NaN and 0 for
/// x infinite, y zero, or a NaN argument.
fn remquo(x: f64, y: f64) -> (f64, c_int) {
    if x.is_infinite() || y == 0.0 || x.is_nan() || y.is_nan() {
        return (f64::NAN, 0);
    }
    let r = remainder(x, y);
    let (ax, ay) = (x.abs(), y.abs());
    // |x| modulo 128 |y| keeps the quotient's low seven bits, and its parity decides ties
    // the same way; fmod and remainder are exact.
    let wide = 128.0 * ay;
    let xm = if wide.is_finite() { ax % wide } else { ax };
    let rm = remainder(xm, ay);
    let k = ((xm - rm) / ay).round() as c_int & 127;
    let negative = x.is_sign_negative() != y.is_sign_negative();
    (r, if negative { -k } else { k })
}

extern "C" fn remquo_float(x: f32, y: f32, quo: *mut i32) -> f32 {
    let (r, q) = remquo(f64::from(x), f64::from(y));
    // SAFETY: the kernel passes a valid pointer to an int.
    unsafe { quo.write_unaligned(q) };
    r as f32
}

extern "C" fn remquo_double(x: f64, y: f64, quo: *mut i32) -> f64 {
    let (r, q) = remquo(x, y);
    // SAFETY: as in remquo_float.
    unsafe { quo.write_unaligned(q) };
    r
}

macro_rules! ternary {
    ($($name:literal $f:ident = $body:expr;)*) => {
        $(
            mod $f {
                #[allow(unused_imports)]
                use super::*;
                pub extern "C" fn float(x: f32, y: f32, z: f32) -> f32 {
                    let f: fn(f64, f64, f64) -> f64 = $body;
                    f(f64::from(x), f64::from(y), f64::from(z)) as f32
                }
                pub extern "C" fn double(x: f64, y: f64, z: f64) -> f64 {
                    let f: fn(f64, f64, f64) -> f64 = $body;
                    f(x, y, z)
                }
            }
        )*
        const TERNARY: &[(&str, extern "C" fn(f32, f32, f32) -> f32, extern "C" fn(f64, f64, f64) -> f64)] = &[
            $(($name, $f::float, $f::double),)*
        ];
    };
}

ternary! {
    "mix" mix_ = |x, y, a| x + (y - x) * a;
    "smoothstep" smoothstep_ = |e0, e1, x| {
        let t = ((x - e0) / (e1 - e0)).clamp(0.0, 1.0);
        t * t * (3.0 - 2.0 * t)
    };
    "mad" mad_ = |a, b, c| a * b + c;
}

/// The relational functions (6.15.6): each returns 1 for true and 0 for false on scalars; the
/// vector forms' -1 for true is made by the code generator ([`Scalarized::vector_truth`]).
macro_rules! relational {
    ($($name:literal $f:ident = $body:expr;)*) => {
        $(
            mod $f {
                #[allow(unused_imports)]
                use super::*;
                pub extern "C" fn float(x: f32, y: f32) -> i32 {
                    let f: fn(f64, f64) -> bool = $body;
                    i32::from(f(f64::from(x), f64::from(y)))
                }
                pub extern "C" fn double(x: f64, y: f64) -> i32 {
                    let f: fn(f64, f64) -> bool = $body;
                    i32::from(f(x, y))
                }
            }
        )*
        const RELATIONAL2: &[(&str, extern "C" fn(f32, f32) -> i32, extern "C" fn(f64, f64) -> i32)] = &[
            $(($name, $f::float, $f::double),)*
        ];
    };
}

relational! {
    "isequal" isequal_ = |x, y| x == y;
    "isnotequal" isnotequal_ = |x, y| x != y;
    "isgreater" isgreater_ = |x, y| x > y;
    "isgreaterequal" isgreaterequal_ = |x, y| x >= y;
    "isless" isless_ = |x, y| x < y;
    "islessequal" islessequal_ = |x, y| x <= y;
    // Ordered and unequal: false when either is a NaN (so not `x != y`).
    "islessgreater" islessgreater_ = |x, y| x.partial_cmp(&y).is_some_and(|o| o != std::cmp::Ordering::Equal);
    "isordered" isordered_ = |x, y| !x.is_nan() && !y.is_nan();
    "isunordered" isunordered_ = |x, y| x.is_nan() || y.is_nan();
}

macro_rules! classify {
    ($($name:literal $f:ident = $float:expr, $double:expr;)*) => {
        $(
            mod $f {
                pub extern "C" fn float(x: f32) -> i32 {
                    let f: fn(f32) -> bool = $float;
                    i32::from(f(x))
                }
                pub extern "C" fn double(x: f64) -> i32 {
                    let f: fn(f64) -> bool = $double;
                    i32::from(f(x))
                }
            }
        )*
        const RELATIONAL1: &[(&str, extern "C" fn(f32) -> i32, extern "C" fn(f64) -> i32)] = &[
            $(($name, $f::float, $f::double),)*
        ];
    };
}

// Classified in the argument's own precision: a float denormal is not a normal float.
classify! {
    "isfinite" isfinite_ = |x| x.is_finite(), |x| x.is_finite();
    "isinf" isinf_ = |x| x.is_infinite(), |x| x.is_infinite();
    "isnan" isnan_ = |x| x.is_nan(), |x| x.is_nan();
    "isnormal" isnormal_ = |x| x.is_normal(), |x| x.is_normal();
    "signbit" signbit_ = |x| x.is_sign_negative(), |x| x.is_sign_negative();
}

/// Whether a builtin is relational: its vector forms give -1 (all bits set) for true.
pub fn is_relational(name: &str) -> bool {
    RELATIONAL1.iter().any(|r| r.0 == name) || RELATIONAL2.iter().any(|r| r.0 == name)
}

/// Every library function, by scalar mangled name.
pub fn table() -> Vec<LibFn> {
    use Ty::*;
    let mut t = Vec::new();
    let names =
        |n: &str, ty: &str| -> &'static str { Box::leak(format!("{n}.{ty}").into_boxed_str()) };
    let names2 = |n: &str, a: &str, b: &str| -> &'static str {
        Box::leak(format!("{n}.{a}.{b}").into_boxed_str())
    };
    let prefixes = ["", "half_", "native_"];
    for &(name, f, d) in UNARY {
        for p in prefixes {
            let n = format!("{p}{name}");
            t.push(LibFn {
                name: names(&n, "float"),
                addr: f as *const u8,
                params: &[F32],
                ret: F32,
            });
            t.push(LibFn {
                name: names(&n, "double"),
                addr: d as *const u8,
                params: &[F64],
                ret: F64,
            });
        }
    }
    for &(name, f, d) in BINARY {
        for p in prefixes {
            let n = format!("{p}{name}");
            t.push(LibFn {
                name: names2(&n, "float", "float"),
                addr: f as *const u8,
                params: &[F32, F32],
                ret: F32,
            });
            t.push(LibFn {
                name: names2(&n, "double", "double"),
                addr: d as *const u8,
                params: &[F64, F64],
                ret: F64,
            });
        }
    }
    let names3 = |n: &str, ty: &str| -> &'static str {
        Box::leak(format!("{n}.{ty}.{ty}.{ty}").into_boxed_str())
    };
    for &(name, f, d) in TERNARY {
        t.push(LibFn {
            name: names3(name, "float"),
            addr: f as *const u8,
            params: &[F32, F32, F32],
            ret: F32,
        });
        t.push(LibFn {
            name: names3(name, "double"),
            addr: d as *const u8,
            params: &[F64, F64, F64],
            ret: F64,
        });
    }
    for &(name, f, d) in RELATIONAL2 {
        t.push(LibFn {
            name: names2(name, "float", "float"),
            addr: f as *const u8,
            params: &[F32, F32],
            ret: I32,
        });
        t.push(LibFn {
            name: names2(name, "double", "double"),
            addr: d as *const u8,
            params: &[F64, F64],
            ret: I32,
        });
    }
    for &(name, f, d) in RELATIONAL1 {
        t.push(LibFn {
            name: names(name, "float"),
            addr: f as *const u8,
            params: &[F32],
            ret: I32,
        });
        t.push(LibFn {
            name: names(name, "double"),
            addr: d as *const u8,
            params: &[F64],
            ret: I32,
        });
    }
    for &(name, f, d) in WITH_INT {
        t.push(LibFn {
            name: names2(name, "float", "int"),
            addr: f as *const u8,
            params: &[F32, I32],
            ret: F32,
        });
        t.push(LibFn {
            name: names2(name, "double", "int"),
            addr: d as *const u8,
            params: &[F64, I32],
            ret: F64,
        });
    }
    let extra: [(&'static str, *const u8, &'static [Ty], Ty); 18] = [
        ("ilogb.float", ilogb_float as *const u8, &[F32], I32),
        ("ilogb.double", ilogb_double as *const u8, &[F64], I32),
        (
            "nextafter.float.float",
            nextafter_float as *const u8,
            &[F32, F32],
            F32,
        ),
        (
            "nextafter.double.double",
            nextafter_double as *const u8,
            &[F64, F64],
            F64,
        ),
        ("nan.uint", nan_float as *const u8, &[U32], F32),
        ("nan.ulong", nan_double as *const u8, &[U64], F64),
        (
            "fract.float.ptr_float",
            fract_float as *const u8,
            &[F32, Ptr],
            F32,
        ),
        (
            "fract.double.ptr_double",
            fract_double as *const u8,
            &[F64, Ptr],
            F64,
        ),
        (
            "modf.float.ptr_float",
            modf_float as *const u8,
            &[F32, Ptr],
            F32,
        ),
        (
            "modf.double.ptr_double",
            modf_double as *const u8,
            &[F64, Ptr],
            F64,
        ),
        (
            "frexp.float.ptr_int",
            frexp_float as *const u8,
            &[F32, Ptr],
            F32,
        ),
        (
            "frexp.double.ptr_int",
            frexp_double as *const u8,
            &[F64, Ptr],
            F64,
        ),
        (
            "sincos.float.ptr_float",
            sincos_float as *const u8,
            &[F32, Ptr],
            F32,
        ),
        (
            "sincos.double.ptr_double",
            sincos_double as *const u8,
            &[F64, Ptr],
            F64,
        ),
        (
            "lgamma_r.float.ptr_int",
            lgamma_r_float as *const u8,
            &[F32, Ptr],
            F32,
        ),
        (
            "lgamma_r.double.ptr_int",
            lgamma_r_double as *const u8,
            &[F64, Ptr],
            F64,
        ),
        (
            "remquo.float.float.ptr_int",
            remquo_float as *const u8,
            &[F32, F32, Ptr],
            F32,
        ),
        (
            "remquo.double.double.ptr_int",
            remquo_double as *const u8,
            &[F64, F64, Ptr],
            F64,
        ),
    ];
    t.push(LibFn {
        name: "printf",
        addr: crate::printf::printf as *const u8,
        params: &[Ptr, Ptr],
        ret: I32,
    });
    for (name, addr, params, ret) in extra {
        t.push(LibFn {
            name,
            addr,
            params,
            ret,
        });
    }
    t
}

/// How one argument of a vector call maps to the scalar function's argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgShape {
    /// The same value for every lane (a scalar argument).
    Scalar,
    /// Lane `i` of a vector argument.
    Lane,
    /// A pointer to a vector: lane `i` is at `i * elem_bytes`.
    LanePtr { elem_bytes: u32 },
}

/// A call of a mangled builtin, scalarized: the scalar function's name and the shape of each
/// argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scalarized {
    pub scalar_name: String,
    pub lanes: u32,
    pub shapes: Vec<ArgShape>,
    /// A relational builtin called on vectors: each lane's 1 for true becomes -1 (6.15.6:
    /// "returns -1 (i.e. all bits set) if the specified relation is true" for vector types).
    pub vector_truth: bool,
}

fn split_vector(ty: &str) -> (&str, u32) {
    let digits = ty.len() - ty.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (base, n) = ty.split_at(ty.len() - digits);
    (base, n.parse().unwrap_or(1))
}

fn elem_bytes(base: &str) -> u32 {
    match base {
        "char" | "uchar" | "bool" => 1,
        "short" | "ushort" | "half" => 2,
        "int" | "uint" | "float" => 4,
        _ => 8,
    }
}

/// Maps a mangled builtin name (`sin.float4`, `frexp.float4.private_ptr_int4`,
/// `ldexp.float4.int`) to the scalar overload and how each argument feeds it.
pub fn scalarize(mangled: &str) -> Scalarized {
    let mut parts = mangled.split('.');
    let name = parts.next().unwrap_or_default();
    let mut scalar = vec![name.to_string()];
    let mut shapes = Vec::new();
    let mut lanes = 1;
    for ty in parts {
        if let Some(pos) = ty.find("_ptr_") {
            let (base, n) = split_vector(&ty[pos + 5..]);
            scalar.push(format!("ptr_{base}"));
            shapes.push(if n > 1 {
                ArgShape::LanePtr {
                    elem_bytes: elem_bytes(base),
                }
            } else {
                ArgShape::Scalar
            });
            lanes = lanes.max(n);
        } else {
            let (base, n) = split_vector(ty);
            scalar.push(base.to_string());
            shapes.push(if n > 1 {
                ArgShape::Lane
            } else {
                ArgShape::Scalar
            });
            lanes = lanes.max(n);
        }
    }
    Scalarized {
        scalar_name: scalar.join("."),
        lanes,
        shapes,
        vector_truth: lanes > 1 && is_relational(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_scalarize() {
        assert_eq!(
            scalarize("sin.float4"),
            Scalarized {
                scalar_name: "sin.float".into(),
                lanes: 4,
                shapes: vec![ArgShape::Lane],
                vector_truth: false,
            }
        );
        assert!(scalarize("isnan.float4").vector_truth);
        assert!(!scalarize("isnan.float").vector_truth);
        assert_eq!(
            scalarize("frexp.float3.global_ptr_int3"),
            Scalarized {
                scalar_name: "frexp.float.ptr_int".into(),
                lanes: 3,
                shapes: vec![ArgShape::Lane, ArgShape::LanePtr { elem_bytes: 4 }],
                vector_truth: false,
            }
        );
        assert_eq!(
            scalarize("ldexp.double8.int").shapes,
            vec![ArgShape::Lane, ArgShape::Scalar]
        );
        assert_eq!(scalarize("pow.float.float").lanes, 1);
    }

    #[test]
    fn every_name_is_unique() {
        let t = table();
        let mut names: Vec<&str> = t.iter().map(|f| f.name).collect();
        names.sort_unstable();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n);
    }

    #[test]
    fn pi_functions_are_exact_at_integers_and_halves() {
        for k in -8..=8 {
            let x = f64::from(k);
            assert_eq!(sinpi(x), 0.0, "sinpi({x})");
            assert_eq!(sinpi(x).is_sign_negative(), k < 0, "sign of sinpi({x})");
            assert_eq!(cospi(x + 0.5), 0.0, "cospi({})", x + 0.5);
            assert_eq!(cospi(x).abs(), 1.0);
        }
        assert_eq!(sinpi(0.5), 1.0);
        assert_eq!(sinpi(-1.5), 1.0);
        assert!((sinpi(1.0 / 6.0) - 0.5).abs() < 1e-15);
        assert!(sinpi(f64::INFINITY).is_nan());
    }

    #[test]
    fn special_values() {
        assert!(powr(-1.0, 2.0).is_nan());
        assert!(powr(0.0, 0.0).is_nan());
        assert_eq!(powr(2.0, 10.0), 1024.0);
        assert!(rootn(-8.0, 2).is_nan());
        assert_eq!(rootn(-8.0, 3), -2.0);
        assert!(rootn(1.0, 0).is_nan());
        assert_eq!(pown(-2.0, 3), -8.0);
        let mut i = 0.0f32;
        assert_eq!(fract_float(-1.25, &mut i), 0.75);
        assert_eq!(i, -2.0);
        assert_eq!(fract_float(-1e-10, &mut i), f32::from_bits(0x3f7f_ffff));
        assert_eq!(maxmag(-3.0, 2.0), -3.0);
        assert_eq!(minmag(-3.0, 2.0), 2.0);
        assert!(nan_float(5).is_nan());
        assert_eq!(nan_float(5).to_bits() & 0x3f_ffff, 5);
    }

    #[test]
    fn float_results_are_rounded_from_double() {
        // exp(1) rounded once to float.
        assert_eq!(exp_::float(1.0), std::f64::consts::E as f32);
        assert_eq!(log2_::float(8.0), 3.0);
        assert_eq!(exp10_::float(2.0), 100.0);
    }
}
