//! The scalar types of the conversion and integer tests, the rounding modes of conversions
//! (6.4.3.2), the source text of loads and stores at a vector width, and the check of `as_`
//! reinterpretation.

use super::Runner;

/// A scalar type: its OpenCL C name, width in bits, signedness, and whether it is floating.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Ty {
    pub name: &'static str,
    pub bits: u32,
    pub signed: bool,
    pub float: bool,
}

pub const fn int(name: &'static str, bits: u32, signed: bool) -> Ty {
    Ty {
        name,
        bits,
        signed,
        float: false,
    }
}

pub const fn float(name: &'static str, bits: u32) -> Ty {
    Ty {
        name,
        bits,
        signed: true,
        float: true,
    }
}

pub const FLOAT: Ty = float("float", 32);
pub const DOUBLE: Ty = float("double", 64);

/// The scalar types but bool and half: the integers, narrowest first and signed before
/// unsigned, then float and double.
pub const SCALARS: [Ty; 10] = [
    int("char", 8, true),
    int("uchar", 8, false),
    int("short", 16, true),
    int("ushort", 16, false),
    int("int", 32, true),
    int("uint", 32, false),
    int("long", 64, true),
    int("ulong", 64, false),
    FLOAT,
    DOUBLE,
];

/// The first `N` of `SCALARS`.
pub const fn scalars<const N: usize>() -> [Ty; N] {
    let mut out = [FLOAT; N];
    let mut i = 0;
    while i < N {
        out[i] = SCALARS[i];
        i += 1;
    }
    out
}

/// The integer types.
pub const INTEGERS: [Ty; 8] = scalars::<8>();

impl Ty {
    pub fn min(self) -> i128 {
        if self.signed {
            -(1i128 << (self.bits - 1))
        } else {
            0
        }
    }
    pub fn max(self) -> i128 {
        if self.signed {
            (1i128 << (self.bits - 1)) - 1
        } else {
            (1i128 << self.bits) - 1
        }
    }
    /// An integer reduced modulo 2^bits into the type's range (C's conversion of an integer
    /// to a narrower type, as OpenCL defines it for the non-saturating forms).
    pub fn wrap(self, v: i128) -> i128 {
        let m = 1i128 << self.bits;
        let r = v.rem_euclid(m);
        if self.signed && r > self.max() {
            r - m
        } else {
            r
        }
    }
    pub fn bytes(self) -> usize {
        self.bits as usize / 8
    }
}

impl Ty {
    /// An integer converted to this integer type: clamped with `_sat`, else wrapped.
    pub fn convert_int(self, i: i128, sat: bool) -> i128 {
        if sat {
            // 6.4.3.3: out-of-range values clamp to the nearest representable value.
            i.clamp(self.min(), self.max())
        } else {
            self.wrap(i)
        }
    }

    /// A float or double `x` converted to this integer type in `mode`, or None where the
    /// spec leaves it undefined.
    pub fn convert_float(self, x: f64, sat: bool, mode: Mode) -> Option<i128> {
        if x.is_nan() {
            // 6.4.3.3: NaN converts to 0 with saturation; undefined without.
            return sat.then_some(0);
        }
        // 6.4.3.2: to an integer type the default is round toward zero.
        let r = match mode {
            Mode::Default | Mode::Rtz => x.trunc(),
            Mode::Rte => x.round_ties_even(),
            Mode::Rtp => x.ceil(),
            Mode::Rtn => x.floor(),
        };
        let i = r as i128;
        if sat {
            Some(i.clamp(self.min(), self.max()))
        } else if x.is_infinite() || i < self.min() || i > self.max() {
            None
        } else {
            Some(i)
        }
    }
}

/// A rounding mode of an explicit conversion (6.4.3.2).
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Mode {
    Default,
    Rte,
    Rtz,
    Rtp,
    Rtn,
}

pub const MODES: [(Mode, &str); 5] = [
    (Mode::Default, ""),
    (Mode::Rte, "_rte"),
    (Mode::Rtz, "_rtz"),
    (Mode::Rtp, "_rtp"),
    (Mode::Rtn, "_rtn"),
];

/// Every conversion to `dst`: (saturating, mode, the name's suffix).
pub fn variants(dst: Ty) -> Vec<(bool, Mode, String)> {
    let mut out = Vec::new();
    for sat in [false, true] {
        if sat && dst.float {
            // 6.4.3: "The _sat modifier may not be used for conversions to floating-point
            // formats."
            continue;
        }
        for (mode, suffix) in MODES {
            let s = if sat { "_sat" } else { "" };
            out.push((sat, mode, format!("{s}{suffix}")));
        }
    }
    out
}

/// The value of a half, from its bits.
pub fn half_value(bits: u16) -> f64 {
    let sign = if bits >> 15 == 1 { -1.0 } else { 1.0 };
    let (e, m) = (i32::from((bits >> 10) & 31), f64::from(bits & 1023));
    sign * match e {
        0 => m * 2f64.powi(-24),
        31 if m == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1024.0 + m) * 2f64.powi(e - 25),
    }
}

/// `base`, or `baseN` for a vector width N.
pub fn gentype(base: &str, n: usize) -> String {
    if n == 1 {
        base.to_string()
    } else {
        format!("{base}{n}")
    }
}

/// vloadN of element group `at` of `p`, or a plain access for the scalar.
pub fn load(n: usize, at: &str, p: &str) -> String {
    if n == 1 {
        format!("{p}[{at}]")
    } else {
        format!("vload{n}({at}, {p})")
    }
}

/// vstoreN of `v` to element group `at` of `p`, or a plain store for the scalar.
pub fn store(n: usize, v: &str, at: &str, p: &str) -> String {
    if n == 1 {
        format!("{p}[{at}] = {v};")
    } else {
        format!("vstore{n}({v}, {at}, {p});")
    }
}

/// Runs `as_<to>(a[i])` for every ordered pair (from, to) of distinct types of `group` (all of
/// one size) that `keep` accepts, over `input` (`n` values of that size); returns the kernels
/// whose result differs from the input in any byte (6.4.4: as_<type> reinterprets the bytes
/// unchanged, NaN payloads included).
pub fn as_type_changes(
    runner: &Runner,
    group: &[&str],
    keep: impl Fn(&str, &str) -> bool,
    input: &[u8],
    n: usize,
) -> Vec<String> {
    let mut source = String::new();
    let mut names = Vec::new();
    for (i, from) in group.iter().enumerate() {
        for (j, to) in group.iter().enumerate() {
            if i == j || !keep(from, to) {
                continue;
            }
            let name = format!("k_{from}_{to}");
            source += &format!(
                "kernel void {name}(global {to}* o, global const {from}* a) {{ \
                 size_t i = get_global_id(0); o[i] = as_{to}(a[i]); }}\n"
            );
            names.push(name);
        }
    }
    let program = runner.build(&source, "");
    let mut wrong = Vec::new();
    for name in names {
        let mut bufs = vec![vec![0u8; input.len()], input.to_vec()];
        runner.run(&program, &name, &mut bufs, n);
        // A float NaN may be passed through unchanged or quieted only if the value is used
        // as a float; as_ never does, so every byte must survive.
        if bufs[0] != input {
            wrong.push(name);
        }
    }
    wrong
}
