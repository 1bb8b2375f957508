//! Vector instructions at every width (2, 3, 4, 8, 16 lanes) and lane type, compiled for the
//! CPU device — in SIMD form where it has one, lane by lane where not — and checked against
//! the IR interpreter, bit for bit (any NaN matches any NaN: the IR leaves payloads open).
//!
//! One kernel per lane type and width holds every operation; each operation's result goes
//! to its own slot of the output, so a mismatch names the operation.

use ferrocl_ir::interp::{run_ndrange, KernelArgValue, Memory, NdRange, Val};

use crate::common;

use common::{block, compile, nd1};

/// Bytes between two work-items' inputs, and between two results of one work-item.
const SLOT: usize = 128;
const ITEMS: usize = 48;
const WIDTHS: [u32; 5] = [2, 3, 4, 8, 16];

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// One lane's bits: special values a quarter of the time, else random ones.
fn lane(rng: &mut Rng, ty: &str) -> u64 {
    let r = rng.next();
    let special = r % 4 == 0;
    let pick = (r >> 8) as usize;
    match ty {
        "f32" => {
            let specials = [
                0.0f32,
                -0.0,
                1.0,
                -1.0,
                0.5,
                2.5,
                -2.5,
                3.5,
                f32::INFINITY,
                f32::NEG_INFINITY,
                f32::NAN,
                f32::from_bits(1),
                f32::MAX,
                16_777_217.0,
                3e9,
                -3e9,
            ];
            let x = if special {
                specials[pick % specials.len()]
            } else {
                ((r >> 16) % 2_000_000) as f32 / 1000.0 - 1000.0
            };
            u64::from(x.to_bits())
        }
        "f64" => {
            let specials = [
                0.0f64,
                -0.0,
                1.0,
                -1.0,
                0.5,
                2.5,
                -2.5,
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::NAN,
                f64::from_bits(1),
                f64::MAX,
                9_007_199_254_740_993.0,
                1e19,
                -1e19,
                1.000_000_1,
            ];
            let x = if special {
                specials[pick % specials.len()]
            } else {
                ((r >> 16) % 2_000_000) as f64 / 1000.0 - 1000.0
            };
            x.to_bits()
        }
        _ => {
            let bits = ty[1..].parse::<u32>().unwrap();
            let mask = if bits == 64 {
                u64::MAX
            } else {
                (1 << bits) - 1
            };
            let specials = [0, 1, u64::MAX, 1 << (bits - 1), (1 << (bits - 1)) - 1, 2, 7];
            (if special {
                specials[pick % specials.len()]
            } else {
                rng.next()
            }) & mask
        }
    }
}

fn bits_of(ty: &str) -> u32 {
    ty[1..].parse().unwrap()
}

fn vec_ty(lane: &str, n: u32) -> String {
    format!("{lane}x{n}")
}

/// The operations tested on `n` lanes of `s`: each a few lines of IR text over the inputs
/// `A`, `B`, `C` (of type `T`) ending in a definition of `%r`; `%tK` are temporaries.
fn operations(s: &str, n: u32) -> Vec<String> {
    let t = vec_ty(s, n);
    let float = s.starts_with('f');
    let bits = bits_of(s);
    let i_same = vec_ty(&format!("i{bits}"), n);
    let b = vec_ty("i1", n);
    let last = n - 1;
    let reverse: Vec<String> = (0..n).rev().map(|i| i.to_string()).collect();
    let interleave: Vec<String> = (0..n)
        .map(|i| if i % 2 == 0 { i / 2 } else { n + i / 2 })
        .map(|i| i.to_string())
        .collect();
    let widen: Vec<String> = (0..n).map(|i| (i % 2 * n + i / 2).to_string()).collect();
    let mut ops = vec![
        format!("%t1: {s} = extractlane A, {last}\n%r: {t} = insertlane B, %t1, 0"),
        format!("%t1: {s} = extractlane A, 1\n%r: {t} = splat %t1"),
        format!("%r: {t} = shuffle A, B, [{}]", reverse.join(", ")),
        format!("%r: {t} = shuffle A, B, [{}]", interleave.join(", ")),
        format!("%r: {t} = shuffle B, A, [{}]", widen.join(", ")),
        format!(
            "%t1: {s} = extractlane A, 0\n%t2: {s} = extractlane B, 0\n%t3: i1 = {} %t1, %t2\n%r: {t} = select %t3, B, C",
            if float { "fcmp olt" } else { "icmp slt" }
        ),
        format!("%t1: {b} = {} A, B\n%r: {t} = select %t1, A, C", if float { "fcmp olt" } else { "icmp ult" }),
        format!(
            "%t1: {b} = {c} A, B\n%t2: {b} = {c2} B, C\n%t3: {b} = bor %t1, %t2\n%t4: {b} = bnot %t3\n%t5: {b} = bxor %t4, %t1\n%r: {i_same} = zext %t5",
            c = if float { "fcmp oeq" } else { "icmp eq" },
            c2 = if float { "fcmp ult" } else { "icmp sgt" },
        ),
        // A mask of another width selecting these lanes.
        format!(
            "{cast}%t1: {other} = {resize} {c}\n%t2: {other} = iconst 0\n%t3: {b} = icmp slt %t1, %t2\n%r: {t} = select %t3, A, B",
            cast = if float { format!("%t9: {i_same} = bitcast C\n") } else { String::new() },
            c = if float { "%t9" } else { "C" },
            other = vec_ty(if bits == 8 { "i32" } else { "i8" }, n),
            resize = if bits == 8 { "sext" } else { "trunc" },
        ),
        // A mask through a block parameter (held as 32-bit lanes there).
        format!(
            "%t1: {b} = {} A, B\njump %blk(%t1)\n%blk(%t2: {b}):\n%r: {t} = select %t2, A, C",
            if float { "fcmp olt" } else { "icmp ult" }
        ),
    ];
    if float {
        for op in ["fadd", "fsub", "fmul", "fdiv", "fmin", "fmax", "copysign"] {
            ops.push(format!("%r: {t} = {op} A, B"));
        }
        ops.push(format!("%r: {t} = fma A, B, C"));
        for op in ["fneg", "fabs", "sqrt", "floor", "ceil", "ftrunc", "nearest"] {
            ops.push(format!("%r: {t} = {op} A"));
        }
        for cc in ["olt", "uno", "one", "ueq", "oge", "ugt"] {
            ops.push(format!(
                "%t1: {b} = fcmp {cc} A, B\n%r: {i_same} = sext %t1"
            ));
        }
        ops.push(format!("%t1: {t} = fconst 2.5\n%r: {t} = fmul A, %t1"));
        let lanes: Vec<&str> = ["1.5", "-2", "0.25", "8"]
            .iter()
            .cycle()
            .take(n as usize)
            .copied()
            .collect();
        ops.push(format!(
            "%t1: {t} = vconst [{}]\n%r: {t} = fadd A, %t1",
            lanes.join(", ")
        ));
        for round in ["rtz", "rte", "rtp", "rtn"] {
            ops.push(format!("%r: {i_same} = fptosi.{round}.sat A"));
            ops.push(format!("%r: {i_same} = fptoui.{round}.sat A"));
        }
        ops.push(format!("%r: i8x{n} = fptosi.rtz.sat A"));
        ops.push(format!(
            "%t1: {i_same} = bitcast A\n%r: {t} = sitofp.rte %t1"
        ));
        ops.push(format!(
            "%t1: {i_same} = bitcast A\n%r: {t} = uitofp.rte %t1"
        ));
        ops.push(format!(
            "%t1: {i_same} = bitcast A\n%r: {t} = sitofp.rtz %t1"
        ));
        let other = if bits == 32 { "f64" } else { "f32" };
        ops.push(format!("%r: {other}x{n} = fconv.rte A"));
        if bits == 64 {
            ops.push(format!("%r: f32x{n} = fconv.rtz A"));
        }
    } else {
        for op in [
            "iadd", "isub", "imul", "smin", "smax", "umin", "umax", "band", "bor", "bxor", "shl",
            "lshr", "ashr", "rotl", "smulhi", "umulhi",
        ] {
            ops.push(format!("%r: {t} = {op} A, B"));
        }
        for op in ["udiv", "urem", "sdiv", "srem"] {
            // A divisor from 1 to 64: no division by zero or overflow, whose results the
            // IR leaves unspecified.
            ops.push(format!(
                "%t1: {t} = iconst 63\n%t2: {t} = band B, %t1\n%t3: {t} = iconst 1\n%t4: {t} = iadd %t2, %t3\n%r: {t} = {op} A, %t4"
            ));
        }
        for op in ["shl", "lshr", "ashr"] {
            ops.push(format!(
                "%t1: {s} = extractlane B, 1\n%t2: {t} = splat %t1\n%r: {t} = {op} A, %t2"
            ));
            ops.push(format!("%t1: {t} = iconst 3\n%r: {t} = {op} A, %t1"));
        }
        for op in ["ineg", "bnot", "popcnt", "clz", "ctz"] {
            ops.push(format!("%r: {t} = {op} A"));
        }
        for cc in ["slt", "ult", "eq", "ne", "sge", "ugt", "ule", "sle"] {
            ops.push(format!("%t1: {b} = icmp {cc} A, B\n%r: {t} = sext %t1"));
        }
        let lanes: Vec<String> = (0..n).map(|i| (i * 37 + 5).to_string()).collect();
        ops.push(format!(
            "%t1: {t} = vconst [{}]\n%r: {t} = iadd A, %t1",
            lanes.join(", ")
        ));
        for other in [8, 16, 32, 64] {
            if other < bits {
                ops.push(format!("%r: i{other}x{n} = trunc A"));
            } else if other > bits {
                ops.push(format!("%r: i{other}x{n} = sext A"));
                ops.push(format!("%r: i{other}x{n} = zext A"));
            }
        }
        ops.push(format!("%r: f32x{n} = sitofp.rte A"));
        ops.push(format!("%r: f32x{n} = uitofp.rte A"));
        ops.push(format!("%r: f64x{n} = sitofp.rtz A"));
        ops.push(format!("%t1: {b} = trunc A\n%r: {t} = sext %t1"));
        if bits >= 32 {
            let f = if bits == 32 { "f32" } else { "f64" };
            ops.push(format!("%r: {f}x{n} = bitcast A"));
        }
    }
    // Reinterpretations between lane shapes of equal size.
    if n != 3 {
        let bytes = bits / 8 * n;
        for lb in [1u32, 2, 4, 8] {
            let lanes = bytes / lb;
            if lb * 8 != bits && [2, 4, 8, 16].contains(&lanes) {
                ops.push(format!("%r: i{}x{lanes} = bitcast A", lb * 8));
            }
        }
    }
    ops
}

/// The kernel computing every operation of `ops` on inputs of type `t`, and the result
/// type of each.
fn kernel(t: &str, ops: &[String]) -> (String, Vec<String>) {
    let mut text = format!(
        "kernel @k(ptr.global, ptr.global, ptr.global, ptr.global) {{
    arg \"a\": \"char*\" global none []
    arg \"b\": \"char*\" global none []
    arg \"c\": \"char*\" global none []
    arg \"d\": \"char*\" global none []
block0(v0: ptr.global, v1: ptr.global, v2: ptr.global, v3: ptr.global):
    v4: i64 = global_id 0
    v5: i64 = iconst {SLOT}
    v6: i64 = imul v4, v5
    v7: ptr.global = ptradd v0, v6
    v8: ptr.global = ptradd v1, v6
    v9: ptr.global = ptradd v2, v6
    v10: {t} = load.global v7, align 1
    v11: {t} = load.global v8, align 1
    v12: {t} = load.global v9, align 1
    v13: i64 = iconst {}
    v14: i64 = imul v4, v13
    v15: ptr.global = ptradd v3, v14
",
        SLOT * ops.len()
    );
    let mut next = 20;
    let mut types = Vec::new();
    for (k, op) in ops.iter().enumerate() {
        let mut body = op
            .replace('A', "v10")
            .replace('B', "v11")
            .replace('C', "v12")
            .replace("%blk", &format!("block{}", k + 1));
        for tmp in (1..10).rev() {
            let name = format!("%t{tmp}");
            if body.contains(&name) {
                body = body.replace(&name, &format!("v{next}"));
                next += 1;
            }
        }
        let r = next;
        next += 1;
        body = body.replace("%r", &format!("v{r}"));
        let ty = body
            .lines()
            .last()
            .and_then(|l| l.split(':').nth(1))
            .and_then(|l| l.split('=').next())
            .map(|l| l.trim().to_string())
            .unwrap();
        types.push(ty);
        for line in body.lines() {
            if line.starts_with("block") {
                text.push_str(&format!("{line}\n"));
            } else {
                text.push_str(&format!("    {line}\n"));
            }
        }
        text.push_str(&format!(
            "    v{next}: i64 = iconst {}\n    v{}: ptr.global = ptradd v15, v{next}\n    store.global v{r}, v{}, align 1\n",
            k * SLOT,
            next + 1,
            next + 1
        ));
        next += 2;
    }
    text.push_str("    return\n}\n");
    (text, types)
}

/// Whether two results of type `ty` match: equal bits, or NaNs in the same float lanes, or
/// (where `signed_zeros_open`: `fmin` and `fmax`, which C99 F.9.9.2 leaves free to ignore
/// the sign of zero) zeros of either sign.
fn same(ty: &str, x: &[u8], y: &[u8], signed_zeros_open: bool) -> bool {
    let lane = ty.split('x').next().unwrap();
    let lb = (bits_of(lane) / 8).max(1) as usize;
    x.chunks(lb).zip(y.chunks(lb)).all(|(a, b)| {
        a == b
            || match lane {
                "f32" => {
                    let (a, b) = (
                        f32::from_le_bytes(a.try_into().unwrap()),
                        f32::from_le_bytes(b.try_into().unwrap()),
                    );
                    (a.is_nan() && b.is_nan()) || (signed_zeros_open && a == 0.0 && b == 0.0)
                }
                "f64" => {
                    let (a, b) = (
                        f64::from_le_bytes(a.try_into().unwrap()),
                        f64::from_le_bytes(b.try_into().unwrap()),
                    );
                    (a.is_nan() && b.is_nan()) || (signed_zeros_open && a == 0.0 && b == 0.0)
                }
                _ => false,
            }
    })
}

fn check(lane_ty: &str) {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ u64::from(bits_of(lane_ty)));
    for n in WIDTHS {
        let t = vec_ty(lane_ty, n);
        let ops = operations(lane_ty, n);
        let (text, types) = kernel(&t, &ops);
        let module = ferrocl_ir::parse_module(&text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
        ferrocl_ir::verify_module(&module).unwrap_or_else(|e| panic!("{e:?}\n{text}"));

        let lb = bits_of(lane_ty) as usize / 8;
        let input = |rng: &mut Rng| -> Vec<u8> {
            let mut bytes = vec![0u8; ITEMS * SLOT];
            for item in 0..ITEMS {
                for l in 0..n as usize {
                    let at = item * SLOT + l * lb;
                    bytes[at..at + lb].copy_from_slice(&lane(rng, lane_ty).to_le_bytes()[..lb]);
                }
            }
            bytes
        };
        let (a, b, c) = (input(&mut rng), input(&mut rng), input(&mut rng));
        let out_len = ITEMS * SLOT * ops.len();

        // The reference.
        let mut mem = Memory::default();
        let mut ptrs: Vec<u64> = [&a, &b, &c]
            .iter()
            .map(|v| mem.alloc((*v).clone()))
            .collect();
        ptrs.push(mem.alloc(vec![0; out_len]));
        let k = module.funcs.iter().next().unwrap().0;
        let args: Vec<KernelArgValue> = ptrs
            .iter()
            .map(|&p| KernelArgValue::Val(Val::scalar(p)))
            .collect();
        let range = NdRange {
            work_dim: 1,
            global_size: [ITEMS as u64, 1, 1],
            local_size: [16, 1, 1],
            global_offset: [0; 3],
            sub_group_size: u64::from(ferrocl_cpu::SUB_GROUP_SIZE),
        };
        let (mem, r) = run_ndrange(&module, k, &args, mem, &range);
        r.unwrap_or_else(|e| panic!("{t}: the interpreter trapped: {e:?}"));
        let want = mem.region(ptrs[3]).unwrap().to_vec();

        // The CPU device.
        let program = compile(&text);
        let mut d = vec![0u8; out_len];
        let block = block(
            &program,
            "k",
            &[
                a.as_ptr() as u64,
                b.as_ptr() as u64,
                c.as_ptr() as u64,
                d.as_mut_ptr() as u64,
            ],
        );
        // SAFETY: the buffers hold every byte the kernel reads and writes.
        unsafe {
            program
                .kernel("k")
                .unwrap()
                .launch(&block, 0, &nd1(ITEMS as u64, 16))
                .unwrap()
        };

        for item in 0..ITEMS {
            for (op, ty) in ops.iter().zip(&types) {
                let k = ops.iter().position(|o| o == op).unwrap();
                let at = item * SLOT * ops.len() + k * SLOT;
                let (got, exp) = (&d[at..at + SLOT], &want[at..at + SLOT]);
                assert!(
                    same(ty, got, exp, op.contains("fmin") || op.contains("fmax")),
                    "{t}, work-item {item}: `{}`\n got {got:02x?}\nwant {exp:02x?}\n a {:02x?}\n b {:02x?}\n c {:02x?}",
                    op.replace('\n', "; "),
                    &a[item * SLOT..item * SLOT + n as usize * lb],
                    &b[item * SLOT..item * SLOT + n as usize * lb],
                    &c[item * SLOT..item * SLOT + n as usize * lb],
                );
            }
        }
    }
}

#[test]
fn i8_vectors() {
    check("i8");
}

#[test]
fn i16_vectors() {
    check("i16");
}

#[test]
fn i32_vectors() {
    check("i32");
}

#[test]
fn i64_vectors() {
    check("i64");
}

#[test]
fn f32_vectors() {
    check("f32");
}

#[test]
fn f64_vectors() {
    check("f64");
}

/// Vector arguments: whole 128-bit parts are loaded as vectors, the others (a `float3`, a
/// `short2`) lane by lane; all reach the kernel intact.
#[test]
fn vector_arguments() {
    let text = "kernel @k(f32x8, i16x2, f32x3, i64x2, ptr.global) {
    arg \"a\": \"float8\" private none []
    arg \"b\": \"short2\" private none []
    arg \"c\": \"float3\" private none []
    arg \"d\": \"long2\" private none []
    arg \"out\": \"char*\" global none []
block0(v0: f32x8, v1: i16x2, v2: f32x3, v3: i64x2, v4: ptr.global):
    store.global v0, v4, align 1
    v5: i64 = iconst 32
    v6: ptr.global = ptradd v4, v5
    store.global v1, v6, align 1
    v7: i64 = iconst 36
    v8: ptr.global = ptradd v4, v7
    store.global v2, v8, align 1
    v9: i64 = iconst 48
    v10: ptr.global = ptradd v4, v9
    store.global v3, v10, align 1
    return
}
";
    let p = compile(text);
    let k = p.kernel("k").unwrap();
    let mut args = vec![0u8; k.args_size];
    let mut want = Vec::new();
    let values: [Vec<u8>; 4] = [
        (0..8)
            .flat_map(|i| (i as f32 * 1.5).to_le_bytes())
            .collect(),
        [-3i16, 7].iter().flat_map(|x| x.to_le_bytes()).collect(),
        [0.25f32, -8.0, 1e9]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect(),
        [i64::MIN, 42]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect(),
    ];
    for (arg, v) in k.args.iter().zip(&values) {
        args[arg.offset..arg.offset + v.len()].copy_from_slice(v);
        want.extend_from_slice(v);
    }
    let mut out = vec![0u8; 64];
    let at = k.args[4].offset;
    args[at..at + 8].copy_from_slice(&(out.as_mut_ptr() as u64).to_ne_bytes());
    // SAFETY: the output holds the 64 bytes the kernel writes.
    unsafe { k.launch(&args, 0, &nd1(1, 1)).unwrap() };
    assert_eq!(&out[..want.len()], &want[..]);
}
