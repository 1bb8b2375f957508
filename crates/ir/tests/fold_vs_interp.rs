//! Constant folding never changes a result: for every operation, every type it applies to
//! and many operand values (edge cases included), a function computing the operation on
//! constants returns the same bits before and after `fold`, as the reference interpreter
//! runs it. Folding is also checked to happen where it must (integer operations with
//! defined results).

use ferrocl_ir::interp::Interpreter;
use ferrocl_ir::passes::fold::fold_function;
use ferrocl_ir::{verify::conv_name, *};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn int_samples(bits: u32, rng: &mut Rng) -> Vec<u64> {
    let m = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let mut v = vec![
        0,
        1,
        2,
        3,
        m,
        m - 1,
        m >> 1,
        (m >> 1) + 1,
        bits as u64,
        bits as u64 + 1,
        7,
    ];
    v.extend((0..12).map(|_| rng.next() & m));
    v
}

fn float_samples(bits: u32, rng: &mut Rng) -> Vec<u64> {
    // Integer range bounds and their neighbours matter most to float-to-integer conversion.
    let vals = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        2.5,
        -2.5,
        3.0,
        1e-3,
        65504.0,
        1e10,
        -1e30,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        127.5,
        -128.5,
        255.5,
        32767.0,
        65535.5,
        2147483647.0,
        2147483648.0,
        -2147483649.0,
        4294967295.0,
        4294967296.0,
        9223372036854775807.0,
        -9223372036854775808.0,
        18446744073709551615.0,
        -1.5,
    ];
    let mut v: Vec<u64> = vals
        .iter()
        .map(|&x| float::from_f64(x, ty_of(bits, true), Round::Rte))
        .collect();
    if bits == 32 {
        v.push(1); // subnormal
        v.push(0x7f7f_ffff);
    }
    for _ in 0..10 {
        let r = rng.next();
        v.push(match bits {
            32 => r & 0xffff_ffff,
            64 => r,
            _ => r & 0xffff,
        });
    }
    v
}

fn ty_of(bits: u32, float: bool) -> Type {
    match (bits, float) {
        (8, false) => Type::I8,
        (16, false) => Type::I16,
        (32, false) => Type::I32,
        (64, false) => Type::I64,
        (16, true) => Type::F16,
        (32, true) => Type::F32,
        _ => Type::F64,
    }
}

fn konst(ty: Type, bits: u64) -> String {
    if ty.is_float() {
        format!("fconst {bits:#x}")
    } else {
        format!("iconst {bits:#x}")
    }
}

/// Runs `@f` of `text` before and after folding; returns (before, after, folded away).
fn check(text: &str) -> (u64, u64, bool) {
    let m = parse_module(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    verify_module(&m).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    let f = m.func_by_name("f").expect("@f");
    let before = Interpreter::new(&m)
        .call(f, &[])
        .expect("runs")
        .expect("returns")
        .bits();
    let mut folded = m.clone();
    fold_function(&mut folded.funcs[f]);
    verify_module(&folded).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    let after = Interpreter::new(&folded)
        .call(f, &[])
        .expect("runs")
        .expect("returns")
        .bits();
    let func = &folded.funcs[f];
    let entry = func.layout.entry_block().expect("entry");
    let ret = func.layout.last_inst(entry).expect("return");
    let r = func.dfg.insts[ret].args[0];
    let constant = matches!(func.dfg.value_def(r), ValueDef::Result(i) if matches!(func.dfg.insts[i].op, Op::Iconst(_) | Op::Fconst(_)));
    (before, after, constant)
}

#[test]
fn binary_operations() {
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    let mut folded = 0;
    for op in BinaryOp::ALL {
        let types: &[(u32, bool)] = if op.is_float() {
            &[(16, true), (32, true), (64, true)]
        } else {
            &[(8, false), (16, false), (32, false), (64, false)]
        };
        for &(bits, fl) in types {
            let ty = ty_of(bits, fl);
            let samples = if fl {
                float_samples(bits, &mut rng)
            } else {
                int_samples(bits, &mut rng)
            };
            for (i, &a) in samples.iter().enumerate() {
                for &b in samples.iter().skip(i % 3).step_by(3) {
                    let text = format!(
                        "func @f() -> {ty} {{\nblock0:\n    v0: {ty} = {}\n    v1: {ty} = {}\n    v2: {ty} = {} v0, v1\n    return v2\n}}\n",
                        konst(ty, a),
                        konst(ty, b),
                        op.name()
                    );
                    let (before, after, constant) = check(&text);
                    assert_eq!(before, after, "{} {ty} {a:#x} {b:#x}", op.name());
                    let defined = !matches!(
                        op,
                        BinaryOp::Sdiv | BinaryOp::Udiv | BinaryOp::Srem | BinaryOp::Urem
                    );
                    if !fl && defined {
                        assert!(constant, "{} {ty} {a:#x} {b:#x} was not folded", op.name());
                    }
                    folded += usize::from(constant);
                }
            }
        }
    }
    assert!(folded > 3000, "{folded}");
}

#[test]
fn unary_operations_and_comparisons() {
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    for op in UnaryOp::ALL {
        let types: &[(u32, bool)] = if op.is_float() {
            &[(16, true), (32, true), (64, true)]
        } else {
            &[(8, false), (16, false), (32, false), (64, false)]
        };
        for &(bits, fl) in types {
            let ty = ty_of(bits, fl);
            let samples = if fl {
                float_samples(bits, &mut rng)
            } else {
                int_samples(bits, &mut rng)
            };
            for &a in &samples {
                let text = format!(
                    "func @f() -> {ty} {{\nblock0:\n    v0: {ty} = {}\n    v1: {ty} = {} v0\n    return v1\n}}\n",
                    konst(ty, a),
                    op.name()
                );
                let (before, after, constant) = check(&text);
                assert_eq!(before, after, "{} {ty} {a:#x}", op.name());
                assert!(constant || fl, "{} {ty} {a:#x} was not folded", op.name());
            }
        }
    }
    for (bits, fl) in [(8, false), (32, false), (64, false), (32, true), (64, true)] {
        let ty = ty_of(bits, fl);
        let samples = if fl {
            float_samples(bits, &mut rng)
        } else {
            int_samples(bits, &mut rng)
        };
        let conds: Vec<&str> = if fl {
            FloatCC::ALL.iter().map(|c| c.name()).collect()
        } else {
            IntCC::ALL.iter().map(|c| c.name()).collect()
        };
        for cc in conds {
            for &a in samples.iter().step_by(2) {
                for &b in samples.iter().step_by(3) {
                    let text = format!(
                        "func @f() -> i8 {{\nblock0:\n    v0: {ty} = {}\n    v1: {ty} = {}\n    v2: i1 = {} {cc} v0, v1\n    v3: i8 = zext v2\n    return v3\n}}\n",
                        konst(ty, a),
                        konst(ty, b),
                        if fl { "fcmp" } else { "icmp" }
                    );
                    let (before, after, _) = check(&text);
                    assert_eq!(before, after, "{cc} {ty} {a:#x} {b:#x}");
                }
            }
        }
    }
}

#[test]
fn conversions() {
    let mut rng = Rng(0x0f0f_1234_5678_aaaa);
    let ints = [8u32, 16, 32, 64];
    let floats = [16u32, 32, 64];
    let mut ops: Vec<(ConvOp, Type, Type)> = Vec::new();
    for &s in &ints {
        for &d in &ints {
            let (st, dt) = (ty_of(s, false), ty_of(d, false));
            if d < s {
                ops.push((ConvOp::Trunc, st, dt));
            }
            if d > s {
                ops.push((ConvOp::Zext, st, dt));
                ops.push((ConvOp::Sext, st, dt));
            }
            for (ss, ds) in [(true, true), (true, false), (false, true), (false, false)] {
                ops.push((
                    ConvOp::SatInt {
                        src_signed: ss,
                        dst_signed: ds,
                    },
                    st,
                    dt,
                ));
            }
        }
        for &f in &floats {
            let (it, ft) = (ty_of(s, false), ty_of(f, true));
            for r in Round::ALL {
                ops.push((ConvOp::SintToFloat(r), it, ft));
                ops.push((ConvOp::UintToFloat(r), it, ft));
                for sat in [false, true] {
                    ops.push((ConvOp::FloatToSint { round: r, sat }, ft, it));
                    ops.push((ConvOp::FloatToUint { round: r, sat }, ft, it));
                }
            }
        }
    }
    for &a in &floats {
        for &b in &floats {
            if a != b {
                for r in Round::ALL {
                    ops.push((ConvOp::Fconv(r), ty_of(a, true), ty_of(b, true)));
                }
            }
        }
    }
    let mut printed = 0;
    for (op, st, dt) in ops {
        let samples = if st.is_float() {
            float_samples(st.lane_bits(), &mut rng)
        } else {
            int_samples(st.lane_bits(), &mut rng)
        };
        // The text form of the conversion, with its modifiers.
        let m = {
            let mut mm = Module::new();
            let f = mm.add_function("f", Signature::new(&[st], Some(dt)));
            let mut b = FunctionBuilder::new(&mut mm.funcs[f]);
            let e = b.create_entry_block();
            let p = b.block_params(e)[0];
            let r = b.convert(op, p, dt);
            b.ret(Some(r));
            b.finish();
            print_module(&mm)
        };
        let line = m
            .lines()
            .find(|l| l.contains(conv_name(op)))
            .expect("conversion line")
            .trim()
            .to_string();
        let mnemonic = line
            .split('=')
            .nth(1)
            .expect("rhs")
            .trim()
            .split(' ')
            .next()
            .expect("mnemonic")
            .to_string();
        for &a in &samples {
            let text = format!(
                "func @f() -> {dt} {{\nblock0:\n    v0: {st} = {}\n    v1: {dt} = {mnemonic} v0\n    return v1\n}}\n",
                konst(st, a)
            );
            let (before, after, _) = check(&text);
            assert_eq!(before, after, "{mnemonic} {st} -> {dt} of {a:#x}");
            printed += 1;
        }
    }
    assert!(printed > 5000, "{printed}");
}
