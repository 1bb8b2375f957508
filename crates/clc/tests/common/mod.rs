//! Shared by the library and robustness tests: calling a function of the builtin library in
//! the IR interpreter, a small seeded generator, and the spacing of doubles.

#![allow(dead_code)]

use ferrocl_ir::interp::{Interpreter, Val};
use ferrocl_ir::Module;

/// The builtin library as programs link it (compiled by this compiler when the tests were
/// built).
pub fn library() -> &'static Module {
    ferrocl_builtins::library().unwrap_or_else(|e| panic!("{e}"))
}

/// Runs library functions on raw argument bits; pointer results are read back from memory.
pub struct Lib {
    interp: Interpreter<'static>,
}

impl Lib {
    /// An interpreter without a step limit (for long sweeps of calls).
    pub fn new() -> Lib {
        let mut interp = Interpreter::new(library());
        interp.fuel = u64::MAX;
        Lib { interp }
    }

    /// An interpreter with its default step limit: a call that runs away traps.
    pub fn bounded() -> Lib {
        Lib {
            interp: Interpreter::new(library()),
        }
    }

    /// Calls `name` with the given arguments; returns the result's bits.
    pub fn call_vals(&mut self, name: &str, args: &[Val]) -> u64 {
        let f = library()
            .func_by_name(name)
            .unwrap_or_else(|| panic!("the library has no @{name}"));
        let r = self
            .interp
            .call(f, args)
            .unwrap_or_else(|t| panic!("@{name}: trap {t}"));
        r.unwrap_or_else(|| panic!("@{name} returns nothing"))
            .bits()
    }

    /// Calls `name` with arguments of the given bits; returns the result's bits.
    pub fn call(&mut self, name: &str, args: &[u64]) -> u64 {
        let vals: Vec<Val> = args.iter().map(|&a| Val::scalar(a)).collect();
        self.call_vals(name, &vals)
    }

    /// Calls `name(args..., p)` with `p` pointing at `bytes` bytes; returns the result and the
    /// bytes written there.
    pub fn call_ptr(&mut self, name: &str, args: &[u64], bytes: usize) -> (u64, u64) {
        let p = self.interp.memory().alloc(vec![0xa5; bytes]);
        let mut all = args.to_vec();
        all.push(p);
        let r = self.call(name, &all);
        let mem = self.interp.memory();
        let out = mem.read(p, bytes).expect("the result slot");
        let mut b = [0u8; 8];
        b[..bytes].copy_from_slice(out);
        (r, u64::from_le_bytes(b))
    }
}

/// Calls library function `name` with the given arguments, in a bounded interpreter of its
/// own; returns the result's bits.
pub fn call(name: &str, args: &[Val]) -> u64 {
    Lib::bounded().call_vals(name, args)
}

/// `name(x)` of doubles, in a bounded interpreter of its own.
pub fn call1(name: &str, x: f64) -> f64 {
    f64::from_bits(Lib::bounded().call(name, &[x.to_bits()]))
}

/// `name(x, y)` of doubles, in a bounded interpreter of its own.
pub fn call2(name: &str, x: f64, y: f64) -> f64 {
    f64::from_bits(Lib::bounded().call(name, &[x.to_bits(), y.to_bits()]))
}

/// A small deterministic generator (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Uniform in [a, b).
    pub fn uniform(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.unit()
    }
    /// A positive finite double with a uniformly random bit pattern (denormals included).
    pub fn bits_positive(&mut self) -> f64 {
        loop {
            let x = f64::from_bits(self.next() >> 1);
            if x.is_finite() {
                return x;
            }
        }
    }
    /// A double of random sign whose binary exponent is uniform in [lo, hi).
    pub fn log_uniform(&mut self, lo: i32, hi: i32) -> f64 {
        let e = self.uniform(f64::from(lo), f64::from(hi));
        let x = e.exp2();
        if self.next() & 1 == 0 {
            x
        } else {
            -x
        }
    }
    /// A finite double with a random sign, significand and exponent in [lo, hi] (biased
    /// exponents, 0 for denormals).
    pub fn double_in(&mut self, lo: u64, hi: u64) -> f64 {
        let bits = self.next();
        let e = lo + (bits >> 11) % (hi - lo + 1);
        f64::from_bits((bits & 0x800f_ffff_ffff_ffff) | (e << 52))
    }
    /// One of `xs`.
    pub fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[(self.next() % xs.len() as u64) as usize]
    }
}

/// 2^e for e in [-1074, 1023], exactly.
pub fn pow2(e: i32) -> f64 {
    if e >= -1022 {
        f64::from_bits(((e + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (e + 1074))
    }
}

/// The spacing of doubles at `x` (2^-1074 among the denormals).
pub fn ulp(x: f64) -> f64 {
    let e = ((x.abs().to_bits() >> 52) as i32).max(1);
    pow2(e - 1075)
}

/// Asserts an exact result (bits, or any NaN).
pub fn exact(label: &str, got: f64, want: f64) {
    let ok = if want.is_nan() {
        got.is_nan()
    } else {
        got.to_bits() == want.to_bits()
    };
    assert!(
        ok,
        "{label}: got {got:e} ({:#018x}), want {want:e}",
        got.to_bits()
    );
}
