//! Language rules of OpenCL C that real programs depend on, run on the CPU device: a vector
//! type converting a parenthesized cast (6.3.6, 6.4.2), `.lo .hi .even .odd` of 3-component
//! vectors (6.3.7), `sizeof` of the opaque types (6.5.11), the `DBL_*` macros with fp64
//! (6.15.2.1), and the 64-bit `atom_*` functions on `__local` memory (6.15.12.9).

mod builtins_harness;

use builtins_harness::{bytes, values, Runner};

/// Builds `source` and runs kernel `k` over `global` work-items (one work-group where it
/// divides) with one `int` output buffer of `n` elements; returns it.
fn run_ints(source: &str, n: usize, global: usize) -> Vec<i32> {
    let runner = Runner::new();
    let program = runner.build(source, "");
    let mut buffers = vec![bytes(&vec![0i32; n])];
    runner.run(&program, "k", &mut buffers, global);
    values::<i32>(&buffers[0])
}

/// 6.3.6, 6.4.2: `(char2)(char)0` is the vector type applied to the cast expression `(char)0`
/// (a scalar converted to every lane), not the start of a vector literal.
#[test]
fn vector_type_of_a_parenthesized_cast() {
    let out = run_ints(
        "kernel void k(global int *o) {\n\
             char2 a = (char2)(char)0;\n\
             int4 b = (int4)(int)(3.75f);\n\
             float2 c = (float2)(float)(int)2.5f;\n\
             int2 d = (int2)((int)1, (int)2);\n\
             o[0] = a.x; o[1] = a.y;\n\
             o[2] = b.x; o[3] = b.w;\n\
             o[4] = (int)(c.x * 10.0f); o[5] = (int)(c.y * 10.0f);\n\
             o[6] = d.x; o[7] = d.y;\n\
         }\n",
        8,
        1,
    );
    assert_eq!(out, [0, 0, 3, 3, 20, 20, 1, 2]);
}

/// 6.3.7: ".lo (or .even) and .hi (or .odd) for a 3-component vector type operate as if the
/// 3-component vector type is a 4-component vector type with the value in the w component
/// undefined": read and written, only the defined lanes are checked.
#[test]
fn halves_of_three_component_vectors() {
    let out = run_ints(
        "kernel void k(global int *o) {\n\
             int3 v = (int3)(1, 2, 3);\n\
             int2 lo = v.lo, hi = v.hi, ev = v.even, od = v.odd;\n\
             o[0] = lo.x; o[1] = lo.y; o[2] = hi.x; o[3] = ev.x; o[4] = ev.y; o[5] = od.x;\n\
             int3 w = v;\n\
             w.odd = (int2)(7, 8);\n\
             o[6] = w.x; o[7] = w.y; o[8] = w.z;\n\
             w.hi = (int2)(9, 10);\n\
             o[9] = w.x; o[10] = w.y; o[11] = w.z;\n\
             w.even = (int2)(11, 12);\n\
             o[12] = w.x; o[13] = w.y; o[14] = w.z;\n\
             o[15] = v.odd.x + v.hi.x * 10;\n\
         }\n",
        16,
        1,
    );
    assert_eq!(
        out,
        [1, 2, 3, 1, 3, 2, 1, 7, 3, 1, 7, 9, 11, 7, 12, 32],
        "lo, hi.x, even, odd.x; then w after .odd =, .hi =, .even ="
    );
}

/// 6.5.11: sizeof of event_t (and the other opaque types) is implementation-defined: a value,
/// usable like any other size.
#[test]
fn sizeof_opaque_types() {
    let out = run_ints(
        "kernel void k(global int *o) {\n\
             o[0] = (int)sizeof(event_t);\n\
             event_t evs[3];\n\
             o[1] = (int)sizeof(evs);\n\
             o[2] = (int)sizeof(reserve_id_t);\n\
         }\n",
        3,
        1,
    );
    assert!(out[0] > 0, "sizeof(event_t) = {}", out[0]);
    assert_eq!(out[1], 3 * out[0]);
    assert!(out[2] > 0);
}

/// 6.15.2.1 with fp64: the DBL_ macros, DBL_RADIX beside them (as clang-based compilers
/// define it), usable in #if.
#[test]
fn double_float_h_macros() {
    let out = run_ints(
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n\
         #if !defined(DBL_RADIX) || DBL_RADIX != 2 || DBL_MANT_DIG != 53 || DBL_DIG != 15\n\
         #error DBL_ macros\n\
         #endif\n\
         kernel void k(global int *o) {\n\
             o[0] = DBL_RADIX;\n\
             o[1] = DBL_MAX_EXP;\n\
             o[2] = DBL_MIN_EXP;\n\
             o[3] = DBL_MAX_10_EXP;\n\
             o[4] = DBL_MIN_10_EXP;\n\
             o[5] = DBL_EPSILON == 0x1.0p-52 && DBL_MIN == 0x1.0p-1022 && \
                    DBL_MAX == 0x1.fffffffffffffp1023;\n\
         }\n",
        6,
        1,
    );
    assert_eq!(out, [2, 1024, -1021, 308, -307, 1]);
}

/// 6.15.12.9, Tables 28 and 29: the 64-bit atom_ functions on __local memory, every
/// work-item of a work-group at once.
#[test]
fn local_64_bit_atomics() {
    let n = 64;
    let source = "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n\
         #pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n\
         kernel void k(global long *o) {\n\
             local long s[8];\n\
             local ulong u[2];\n\
             size_t i = get_local_id(0);\n\
             if (i == 0) {\n\
                 s[0] = 0; s[1] = 1000; s[2] = 0x100000000L; s[3] = 0; s[4] = 0;\n\
                 s[5] = -1; s[6] = 0; s[7] = 0;\n\
                 u[0] = 0; u[1] = 0;\n\
             }\n\
             barrier(CLK_LOCAL_MEM_FENCE);\n\
             atom_inc(&s[0]);\n\
             atom_dec(&s[1]);\n\
             atom_add(&s[2], (long)i);\n\
             atom_max(&s[3], (long)i << 40);\n\
             atom_or(&s[4], 1L << i);\n\
             atom_and(&s[5], ~(1L << i) | 1L);\n\
             atom_xor(&s[6], (long)i);\n\
             atom_sub(&s[7], 3L);\n\
             atom_inc(&u[1]);\n\
             // One work-item wins each exchange from 0 to its own id + 1.\n\
             atom_cmpxchg(&u[0], 0UL, (ulong)i + 1);\n\
             barrier(CLK_LOCAL_MEM_FENCE);\n\
             if (i == 0) {\n\
                 for (int j = 0; j < 8; j++) o[j] = s[j];\n\
                 o[8] = (long)u[0];\n\
                 o[9] = (long)u[1];\n\
                 o[10] = atom_xchg(&s[0], 5L);\n\
                 o[11] = s[0];\n\
             }\n\
         }\n";
    let runner = Runner::new();
    let program = runner.build(source, "");
    let mut buffers = vec![bytes(&[0i64; 12])];
    runner.run(&program, "k", &mut buffers, n);
    let out = values::<i64>(&buffers[0]);
    let n64 = n as i64;
    let xor = (0..n64).fold(0, |a, i| a ^ i);
    assert_eq!(out[0], n64, "atom_inc");
    assert_eq!(out[1], 1000 - n64, "atom_dec");
    assert_eq!(out[2], 0x1_0000_0000 + n64 * (n64 - 1) / 2, "atom_add");
    assert_eq!(out[3], (n64 - 1) << 40, "atom_max");
    assert_eq!(out[4], -1, "atom_or of every bit");
    assert_eq!(out[5], 1, "atom_and");
    assert_eq!(out[6], xor, "atom_xor");
    assert_eq!(out[7], -3 * n64, "atom_sub");
    assert!((1..=n64).contains(&out[8]), "atom_cmpxchg: {}", out[8]);
    assert_eq!(out[9], n64, "atom_inc of ulong");
    assert_eq!((out[10], out[11]), (n64, 5), "atom_xchg");
}
