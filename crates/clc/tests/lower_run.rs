//! Small kernels lowered and run on the IR's reference interpreter, before and after the
//! standard pass pipeline: the results are what OpenCL C says they are.

use ferrocl_clc::{compile, lower, parse_build_options, Target};
use ferrocl_ir::interp::{run_ndrange, KernelArgValue, Memory, NdRange, Val};
use ferrocl_ir::{passes::PassManager, verify_module, Module};

fn build(src: &str) -> Module {
    let opts = parse_build_options("").expect("options");
    let c = compile(src, &opts, &Target::full_profile_cpu(), &[]);
    let program = c
        .program
        .unwrap_or_else(|| panic!("does not compile:\n{}", c.log));
    let m = lower(&program).expect("lowers");
    verify_module(&m).expect("lowered module verifies");
    m
}

/// Runs `kernel` over one work-group of `n` work-items with the given buffers (byte vectors) and
/// scalar arguments after them; returns the buffers afterwards. Runs the unoptimized and the
/// optimized module and checks that both agree.
fn run(src: &str, kernel: &str, n: u64, buffers: &[Vec<u8>], scalars: &[Val]) -> Vec<Vec<u8>> {
    let plain = build(src);
    let mut opt = plain.clone();
    let mut pm = PassManager::standard();
    pm.verify = true;
    pm.run(&mut opt).expect("passes keep the module valid");
    let mut results = Vec::new();
    for m in [&plain, &opt] {
        let f = m.func_by_name(kernel).expect("kernel exists");
        let mut memory = Memory::default();
        let ptrs: Vec<u64> = buffers.iter().map(|b| memory.alloc(b.clone())).collect();
        let mut args: Vec<KernelArgValue> = ptrs
            .iter()
            .map(|&p| KernelArgValue::Val(Val::scalar(p)))
            .collect();
        args.extend(scalars.iter().cloned().map(KernelArgValue::Val));
        // One work-group of `n` work-items, so that barriers order them.
        let range = NdRange {
            work_dim: 1,
            global_size: [n, 1, 1],
            local_size: [n, 1, 1],
            global_offset: [0; 3],
            sub_group_size: 8,
        };
        let (memory, r) = run_ndrange(m, f, &args, memory, &range);
        r.unwrap_or_else(|t| panic!("kernel traps: {t}"));
        let out: Vec<Vec<u8>> = ptrs
            .iter()
            .map(|&p| memory.region(p).expect("buffer").to_vec())
            .collect();
        results.push(out);
    }
    assert_eq!(
        results[0], results[1],
        "optimized module computes something else"
    );
    results.pop().unwrap()
}

fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
fn i32s(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
fn as_f32(b: &[u8]) -> Vec<f32> {
    b.chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}
fn as_i32(b: &[u8]) -> Vec<i32> {
    b.chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn vector_add() {
    let src =
        "__kernel void add(__global const float* a, __global const float* b, __global float* c) {
        size_t i = get_global_id(0);
        c[i] = a[i] + b[i];
    }";
    let a = [1.0f32, 2.5, -3.0, 4.0];
    let b = [0.5f32, 0.5, 1.0, -8.0];
    let out = run(src, "add", 4, &[f32s(&a), f32s(&b), f32s(&[0.0; 4])], &[]);
    assert_eq!(as_f32(&out[2]), vec![1.5, 3.0, -2.0, -4.0]);
}

#[test]
fn loop_sum_with_break_and_continue() {
    let src = "__kernel void sum(__global int* out, int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            if (i % 3 == 0) continue;
            if (i > 20) break;
            s += i;
        }
        int j = 0;
        do { s += 1000; j++; } while (j < 2);
        while (j > 0) { j--; }
        out[0] = s + j;
    }";
    let out = run(src, "sum", 1, &[i32s(&[0])], &[Val::i32(100)]);
    // i in 1..=20 not divisible by 3: sum(1..=20) - (3+6+...+18) = 210 - 63 = 147.
    assert_eq!(as_i32(&out[0]), vec![147 + 2000]);
}

#[test]
fn switch_with_fallthrough_and_goto() {
    let src = "int classify(int x) {
        int r = 0;
        switch (x) {
        case 0: r += 1;
        case 1: r += 10; break;
        case 5: { r = 50; goto done; }
        default: r = -1;
        }
        r += 100;
    done:
        return r;
    }
    __kernel void k(__global int* out) {
        int i = get_global_id(0);
        out[i] = classify(i);
    }";
    let out = run(src, "k", 7, &[i32s(&[0; 7])], &[]);
    assert_eq!(as_i32(&out[0]), vec![111, 110, 99, 99, 99, 50, 99]);
}

#[test]
fn short_circuit_and_conditional() {
    let src = "__kernel void k(__global int* out) {
        int calls = 0;
        int a = 0;
        if (a != 0 && (calls = 1)) { out[0] = -1; }
        if (a == 0 || (calls = 2)) { out[1] = calls; }
        out[2] = (a ? 7 : 8) + (1 < 2) + (3 == 4);
        out[3] = (out[1], 42);
    }";
    let out = run(src, "k", 1, &[i32s(&[0; 4])], &[]);
    assert_eq!(as_i32(&out[0]), vec![0, 0, 9, 42]);
}

#[test]
fn vectors_swizzles_and_comparisons() {
    let src = "__kernel void k(__global float4* out, __global int4* cmp) {
        float4 v = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
        v.xy = v.yx;
        v.w += 10.0f;
        float2 lo = v.lo;
        v.z = lo.x * 100.0f;
        out[0] = v;
        out[1] = v.wzyx;
        int4 a = (int4)(1, 5, 3, 0);
        int4 b = (int4)(2, 5, 1, 0);
        cmp[0] = a < b;
        cmp[1] = a == b;
        cmp[2] = !a;
    }";
    let out = run(src, "k", 1, &[f32s(&[0.0; 8]), i32s(&[0; 12])], &[]);
    assert_eq!(
        as_f32(&out[0]),
        vec![2.0, 1.0, 200.0, 14.0, 14.0, 200.0, 1.0, 2.0]
    );
    // 6.5.6: vector comparisons give -1 (true) or 0 per lane.
    assert_eq!(
        as_i32(&out[1]),
        vec![-1, 0, 0, 0, 0, -1, 0, -1, 0, 0, 0, -1]
    );
}

#[test]
fn structs_arrays_and_pointer_arithmetic() {
    let src = "typedef struct { char c; int i; float f[2]; } S;
    S make(int x) { S s; s.c = 1; s.i = x; s.f[0] = 0.5f; s.f[1] = x * 2.0f; return s; }
    float total(S s) { return s.c + s.i + s.f[0] + s.f[1]; }
    __kernel void k(__global float* out, __global S* buf) {
        S a = make(3);
        S b = a;
        b.i = 10;
        int arr[5] = {1, 2, 3};
        int *p = arr + 1;
        p[1] += 40;
        out[0] = total(a);
        out[1] = total(b);
        out[2] = arr[2] + arr[4] + (int)(p - arr);
        out[3] = sizeof(S);
        buf[1] = b;
        buf[0].f[1] = 7.0f;
    }";
    let out = run(src, "k", 1, &[f32s(&[0.0; 4]), vec![0u8; 32]], &[]);
    assert_eq!(as_f32(&out[0]), vec![10.5, 17.5, 44.0, 16.0]);
    // struct S: c at 0, i at 4, f at 8 and 12: 16 bytes (C layout with padding).
    let buf = &out[1];
    assert_eq!(buf[16], 1);
    assert_eq!(as_i32(&buf[20..24]), vec![10]);
    assert_eq!(as_f32(&buf[24..32]), vec![0.5, 6.0]);
    assert_eq!(as_f32(&buf[12..16]), vec![7.0]);
}

#[test]
fn globals_constants_and_local_memory() {
    let src = "__constant int table[4] = {10, 20, 30, 40};
    __kernel void k(__global int* out) {
        __local int tmp[4];
        int i = get_global_id(0);
        tmp[i] = table[3 - i];
        barrier(CLK_LOCAL_MEM_FENCE);
        out[i] = tmp[i] + i;
    }";
    let out = run(src, "k", 4, &[i32s(&[0; 4])], &[]);
    assert_eq!(as_i32(&out[0]), vec![40, 31, 22, 13]);
}

#[test]
fn builtins_that_are_instructions() {
    let src = "__kernel void k(__global int* out, __global float* f) {
        out[0] = min(3, -4);
        out[1] = max(3u, 7u);
        out[2] = clamp(15, 0, 10);
        out[3] = abs(-9);
        out[4] = popcount(0xF0F0);
        out[5] = clz(1);
        out[6] = convert_int_sat(3.0e10f);
        out[7] = as_int(1.0f);
        out[8] = select(1, 2, 0);
        out[9] = all((int2)(-1, -5));
        out[10] = convert_int(convert_uchar_sat(300));
        out[11] = rotate(0x80000001u, 1u);
        f[0] = sqrt(16.0f);
        f[1] = fmin(2.0f, -1.0f);
        f[2] = dot((float4)(1, 2, 3, 4), (float4)(1, 1, 1, 1));
        f[3] = cross((float4)(1, 0, 0, 0), (float4)(0, 1, 0, 0)).z;
        f[4] = convert_float(7);
        f[5] = floor(-1.5f) + fabs(-0.25f);
        f[6] = length((float2)(3.0f, 4.0f));
        f[7] = mad(2.0f, 3.0f, 1.0f);
    }";
    let out = run(src, "k", 1, &[i32s(&[0; 12]), f32s(&[0.0; 8])], &[]);
    assert_eq!(
        as_i32(&out[0]),
        vec![-4, 7, 10, 9, 8, 31, i32::MAX, 0x3f80_0000, 1, 1, 255, 3]
    );
    assert_eq!(
        as_f32(&out[1]),
        vec![4.0, -1.0, 10.0, 1.0, 7.0, -1.75, 5.0, 7.0]
    );
}

/// Like `run`, with build options (e.g. `-cl-std=CL2.0`).
fn run_with(options: &str, src: &str, kernel: &str, n: u64, buffers: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let opts = parse_build_options(options).expect("options");
    let c = compile(src, &opts, &Target::full_profile_cpu(), &[]);
    let program = c
        .program
        .unwrap_or_else(|| panic!("does not compile:\n{}", c.log));
    let mut m = lower(&program).expect("lowers");
    verify_module(&m).expect("lowered module verifies");
    let mut pm = PassManager::standard();
    pm.verify = true;
    pm.run(&mut m).expect("passes keep the module valid");
    let f = m.func_by_name(kernel).expect("kernel exists");
    let mut memory = Memory::default();
    let ptrs: Vec<u64> = buffers.iter().map(|b| memory.alloc(b.clone())).collect();
    let args: Vec<KernelArgValue> = ptrs
        .iter()
        .map(|&p| KernelArgValue::Val(Val::scalar(p)))
        .collect();
    let range = NdRange {
        work_dim: 1,
        global_size: [n, 1, 1],
        local_size: [n, 1, 1],
        global_offset: [0; 3],
        sub_group_size: 8,
    };
    let (memory, r) = run_ndrange(&m, f, &args, memory, &range);
    r.unwrap_or_else(|t| panic!("kernel traps: {t}"));
    ptrs.iter()
        .map(|&p| memory.region(p).expect("buffer").to_vec())
        .collect()
}

#[test]
fn compound_assignment_and_increments_on_every_lvalue_kind() {
    let src = "typedef struct { int a; int4 v; } T;
    __kernel void k(__global int* out) {
        int x = 5;
        x += 3; x <<= 2; x -= 1;               // 31
        int arr[2] = {10, 20};
        int *p = arr;
        *p *= 3;                               // arr[0] = 30
        p[1] /= 4;                             // arr[1] = 5
        T t = {1, (int4)(1, 2, 3, 4)};
        t.a |= 6;                              // 7
        t.v.yz += (int2)(10, 20);              // (1, 12, 23, 4)
        t.v.w++;                               // 5
        int i = 2;
        t.v[i] -= 3;                           // lane 2: 20
        int pre = ++t.a;                       // 8, 8
        int post = t.v.x--;                    // 1, lane 0: 0
        char c = 127; c++;                     // wraps to -128
        uint u = 7; u /= 2u; u %= 2u;          // 1
        int *q = arr; q++; int diff = q - arr; // 1
        out[0] = x; out[1] = arr[0]; out[2] = arr[1]; out[3] = t.a;
        out[4] = t.v.x; out[5] = t.v.y; out[6] = t.v.z; out[7] = t.v.w;
        out[8] = pre; out[9] = post; out[10] = c; out[11] = u; out[12] = diff; out[13] = *q;
    }";
    let out = run(src, "k", 1, &[i32s(&[0; 14])], &[]);
    assert_eq!(
        as_i32(&out[0]),
        vec![31, 30, 5, 8, 0, 12, 20, 5, 8, 1, -128, 1, 1, 5]
    );
}

#[test]
fn integer_and_conversion_semantics() {
    let src = "__kernel void k(__global int* out, __global float* f) {
        int a = -7;
        out[0] = a / 2;                        // C99: toward zero, -3
        out[1] = a % 2;                        // -1
        out[2] = a >> 1;                       // arithmetic shift, -4
        out[3] = (int)(0xF0000000u >> 28);     // logical shift, 15
        int s = 33;
        out[4] = 1 << s;                       // 6.5.10: amount modulo 32, 2
        out[5] = (int)-2.7f;                   // toward zero, -2
        out[6] = (uchar)300;                   // 44
        out[7] = (short)-1 == -1;              // 1
        bool b = 5;                            // true
        out[8] = b + b;                        // 2
        out[9] = (int)(float)16777217;         // rounds to nearest even, 16777216
        f[0] = (float)-3;
        f[1] = 1.0f / 4;
        out[10] = sizeof(int3) + sizeof(long);  // 3 lanes take 4: 16 + 8
        out[11] = !0.0f + !5;                  // 1
    }";
    let out = run(src, "k", 1, &[i32s(&[0; 12]), f32s(&[0.0; 2])], &[]);
    assert_eq!(
        as_i32(&out[0]),
        vec![-3, -1, -4, 15, 2, -2, 44, 1, 2, 16777216, 24, 1]
    );
    assert_eq!(as_f32(&out[1]), vec![-3.0, 0.25]);
}

#[test]
fn vector_select_logic_and_three_lane_data() {
    let src = "typedef union { float f; uint u; } U;
    __kernel void k(__global int4* out, __global float* f) {
        int4 a = (int4)(1, 0, 3, 0);
        int4 b = (int4)(0, 0, 2, 5);
        out[0] = a && b;                        // (0, 0, -1, 0)
        out[1] = a || b;                        // (-1, 0, -1, -1)
        out[2] = (a > b) ? (int4)(7) : (int4)(9); // 6.5.15: per lane
        int4 s = select((int4)(1), (int4)(2), (int4)(-1, 0, -1, 0));
        out[3] = s;                             // (2, 1, 2, 1)
        float3 v = vload3(1, f);                // f[3..6]
        vstore3(v * 2.0f, 0, f);
        U un; un.f = 1.0f;
        out[4] = (int4)(un.u == 0x3f800000u, any(a), all(a), 0);
        float3 c = cross((float3)(0, 1, 0), (float3)(0, 0, 1));
        f[6] = c.x + length((float4)(2.0f));
    }";
    let floats = [0.0f32, 0.0, 0.0, 1.0, 2.0, 3.0, 0.0];
    let out = run(src, "k", 1, &[i32s(&[0; 20]), f32s(&floats)], &[]);
    assert_eq!(
        as_i32(&out[0]),
        vec![0, 0, -1, 0, -1, 0, -1, -1, 7, 9, 7, 9, 2, 1, 2, 1, 1, 0, 0, 0]
    );
    // any: the most significant bit of some lane (none is negative): 0.
    assert_eq!(as_f32(&out[1]), vec![2.0, 4.0, 6.0, 1.0, 2.0, 3.0, 5.0]);
}

#[test]
fn work_item_queries_with_run_time_dimensions() {
    let src = "__kernel void k(__global int* out, uint d) {
        int i = get_global_id(0);
        out[i * 4 + 0] = get_global_id(d);     // d = 0: the id
        out[i * 4 + 1] = get_global_id(d + 3); // past 2: 0
        out[i * 4 + 2] = get_global_size(d + 5); // past 2: 1
        out[i * 4 + 3] = get_local_size(0) + get_work_dim();
    }";
    let out = run(src, "k", 2, &[i32s(&[0; 8])], &[Val::i32(0)]);
    assert_eq!(as_i32(&out[0]), vec![0, 0, 1, 3, 1, 0, 1, 3]);
}

#[test]
fn atomics_from_many_work_items() {
    let src = "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
    __kernel void k(__global int* c, __global float* f, __global long* l) {
        atomic_add(&c[0], 2);
        atomic_inc(&c[1]);
        atomic_max(&c[2], (int)get_global_id(0));
        atomic_cmpxchg(&c[3], 0, 42);
        __local uint u;
        if (get_local_id(0) == 0) u = 100;
        barrier(CLK_LOCAL_MEM_FENCE);
        atomic_sub(&u, 3u);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (get_local_id(0) == 0) c[4] = u;
        atomic_xchg(&f[0], 2.5f);
        atom_add(&l[0], 1L << 40);
    }";
    let out = run(
        src,
        "k",
        8,
        &[i32s(&[0; 5]), f32s(&[0.0]), vec![0u8; 8]],
        &[],
    );
    assert_eq!(as_i32(&out[0]), vec![16, 8, 7, 42, 76]);
    assert_eq!(as_f32(&out[1]), vec![2.5]);
    assert_eq!(
        i64::from_le_bytes(out[2].clone().try_into().unwrap()),
        8 << 40
    );
}

#[test]
fn opencl_2_atomics_globals_and_statics() {
    let src = "__global int counter = 3;
    __global int *counter_ptr = &counter;
    int next(void) { static __global int id = 100; return ++id; }
    __kernel void k(__global int* out) {
        __global atomic_int *a = (__global atomic_int *)&out[0];
        atomic_fetch_add(a, 5);
        int expected = 5;
        bool ok = atomic_compare_exchange_strong(a, &expected, 9);
        int expected2 = 1;
        bool bad = atomic_compare_exchange_strong(a, &expected2, 0);
        *counter_ptr += 10;
        out[1] = ok; out[2] = bad; out[3] = expected2;
        out[4] = counter;
        next();
        out[5] = next();
        out[6] = atomic_load(a);
    }";
    let out = run_with("-cl-std=CL2.0", src, "k", 1, &[i32s(&[0; 7])]);
    assert_eq!(as_i32(&out[0]), vec![9, 1, 0, 9, 13, 102, 9]);
}

#[test]
fn initializers_strings_and_compound_literals() {
    let src = "typedef struct { int a; float b; int c[3]; } S;
    __constant char msg[] = \"hi!\";
    __kernel void k(__global int* out) {
        S s = {1, 2.0f};                       // the rest is zero
        S t = {.c = {[2] = 7}, .a = 4};
        char word[8] = \"abc\";
        int n = ((S){.a = 11}).a;
        out[0] = s.a + (int)s.b + s.c[0] + s.c[2];
        out[1] = t.a + t.c[2] + t.c[1] + (int)t.b;
        out[2] = word[1] + word[3] + word[7];
        out[3] = n;
        out[4] = msg[2] + msg[3];
    }";
    let out = run(src, "k", 1, &[i32s(&[0; 5])], &[]);
    assert_eq!(as_i32(&out[0]), vec![3, 11, 98, 11, 33]);
}

#[test]
fn relational_common_and_integer_helpers() {
    let src = "__kernel void k(__global int* out, __global float* f) {
        float nan = NAN;
        float inf = INFINITY;
        out[0] = isnan(nan) + 2 * isinf(-inf) + 4 * isfinite(inf) + 8 * isnormal(1.0e-40f);
        out[1] = signbit(-0.0f) + 2 * isless(1.0f, nan) + 4 * isunordered(1.0f, nan);
        int4 v = isgreater((float4)(1, 2, 3, 4), (float4)(2.5f));
        out[2] = v.x; out[3] = v.z;
        out[4] = abs_diff(-5, 7);
        out[5] = hadd(7, 8) + 100 * rhadd(7, 8);
        out[6] = upsample((short)1, (ushort)2);
        out[7] = hadd(0x7fffffff, 0x7fffffff);
        f[0] = mix(2.0f, 4.0f, 0.25f);
        f[1] = step(1.0f, 0.5f) + 10.0f * step(1.0f, 2.0f);
        f[2] = sign(-3.0f) + sign(nan) * 10.0f;
        f[3] = degrees(3.14159265358979f);
        f[4] = native_divide(1.0f, 8.0f) + native_sqrt(4.0f);
    }";
    let out = run(src, "k", 1, &[i32s(&[0; 8]), f32s(&[0.0; 5])], &[]);
    // isnormal(1e-40f): a subnormal, 0.
    assert_eq!(
        as_i32(&out[0]),
        vec![3, 5, 0, -1, 12, 7 + 800, 0x10002, 0x7fffffff]
    );
    let f = as_f32(&out[1]);
    assert_eq!(&f[..3], &[2.5, 10.0, -1.0]);
    assert!((f[3] - 180.0).abs() < 1e-3, "degrees: {}", f[3]);
    assert_eq!(f[4], 2.125);
}

#[test]
fn half_storage_and_async_copies() {
    let src = "__kernel void k(__global half* h, __global float* f, __global int* g) {
        __local int tile[8];
        float4 v = vload_half4(0, h);          // 1.0, 2.0, -0.5, 65504
        vstore_half(v.x + v.y, 4, h);
        vstore_half_rtz(1.0f / 3.0f, 5, h);     // 0x3555 (rounded toward zero)
        vstore4(v, 0, f);
        event_t e = async_work_group_copy(tile, g, 8, 0);
        wait_group_events(1, &e);
        int l = get_local_id(0);
        g[8 + l] = tile[7 - l] * 10;
    }";
    let halves: [u16; 8] = [0x3c00, 0x4000, 0xb800, 0x7bff, 0, 0, 0, 0];
    let hb: Vec<u8> = halves.iter().flat_map(|x| x.to_le_bytes()).collect();
    let gs: Vec<i32> = (1..=8).chain(std::iter::repeat_n(0, 8)).collect();
    let out = run(src, "k", 8, &[hb, f32s(&[0.0; 4]), i32s(&gs)], &[]);
    let h: Vec<u16> = out[0]
        .chunks(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    assert_eq!(h[4], 0x4200); // 3.0
    assert_eq!(h[5], 0x3555);
    assert_eq!(as_f32(&out[1]), vec![1.0, 2.0, -0.5, 65504.0]);
    assert_eq!(
        as_i32(&out[2])[8..].to_vec(),
        vec![80, 70, 60, 50, 40, 30, 20, 10]
    );
}

#[test]
fn shuffles_and_fast_geometry() {
    let src = "__kernel void k(__global int* out, __global float* f, uint sel) {
        int4 a = (int4)(10, 20, 30, 40);
        int4 b = (int4)(50, 60, 70, 80);
        int4 s = shuffle(a, (uint4)(3, 2, 5, 0));       // 5 mod 4 = 1
        int2 t = shuffle2(a, b, (uint2)(7, 4));
        int2 r = shuffle(a.xy, (uint2)(sel, sel + 1));  // run-time mask
        out[0] = s.x; out[1] = s.y; out[2] = s.z; out[3] = s.w;
        out[4] = t.x; out[5] = t.y; out[6] = r.x; out[7] = r.y;
        f[0] = fast_length((float2)(3.0f, 4.0f));
        float2 n = fast_normalize((float2)(0.0f, 2.0f));
        f[1] = n.y;
        f[2] = fast_normalize((float2)(0.0f)).x;
    }";
    let out = run(
        src,
        "k",
        1,
        &[i32s(&[0; 8]), f32s(&[9.0; 3])],
        &[Val::i32(1)],
    );
    assert_eq!(as_i32(&out[0]), vec![40, 30, 20, 10, 80, 50, 20, 10]);
    assert_eq!(as_f32(&out[1]), vec![5.0, 1.0, 0.0]);
}

#[test]
fn work_group_collective_functions() {
    let src = "__kernel void k(__global int* out, __global float* f) {
        int l = get_local_id(0);
        int x = l + 1;                                   // 1..8
        out[l * 6 + 0] = work_group_reduce_add(x);       // 36
        out[l * 6 + 1] = work_group_scan_inclusive_add(x);
        out[l * 6 + 2] = work_group_scan_exclusive_max(x); // INT_MIN for item 0
        out[l * 6 + 3] = work_group_broadcast(x * 10, 5);  // 60
        out[l * 6 + 4] = work_group_any(l == 7) + 2 * work_group_all(l < 7);
        out[l * 6 + 5] = work_group_reduce_min(8 - l);   // 1
        f[l] = work_group_reduce_max((float)l * 0.5f);   // 3.5
    }";
    let out = run_with(
        "-cl-std=CL3.0",
        src,
        "k",
        8,
        &[i32s(&[0; 48]), f32s(&[0.0; 8])],
    );
    let o = as_i32(&out[0]);
    for l in 0..8usize {
        let row = &o[l * 6..l * 6 + 6];
        let incl: i32 = (1..=l as i32 + 1).sum();
        let excl_max = if l == 0 { i32::MIN } else { l as i32 };
        assert_eq!(row, &[36, incl, excl_max, 60, 1, 1], "work-item {l}");
    }
    assert_eq!(as_f32(&out[1]), vec![3.5; 8]);
}

#[test]
fn prototypes_and_overloadable_functions() {
    let src = "int g(int x);
    __attribute__((overloadable)) float h(float x) { return x * 2.0f; }
    __attribute__((overloadable)) int h(int x) { return x + 1; }
    __kernel void k(__global int *o) { o[0] = g(1) + h(2) + (int)h(1.5f); }
    int g(int x) { return x * 10; }";
    let out = run(src, "k", 1, &[i32s(&[0])], &[]);
    assert_eq!(as_i32(&out[0]), vec![10 + 3 + 3]);
}

#[test]
fn lanes_of_shared_vectors_are_written_one_by_one() {
    let src = "__kernel void k(__global int4* g, __global int* out) {
        __local int4 t;
        int l = get_local_id(0);
        switch (l) {
        case 0: t.x = 1; g[0].x = 5; break;
        case 1: t.y = 2; g[0].y = 6; break;
        case 2: t.z = 3; g[0].zw = (int2)(7, 8); break;
        default: t.w = 4; break;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        out[l] = t.x * 1000 + t.y * 100 + t.z * 10 + t.w;
    }";
    let out = run(src, "k", 4, &[i32s(&[0; 4]), i32s(&[0; 4])], &[]);
    assert_eq!(as_i32(&out[0]), vec![5, 6, 7, 8]);
    assert_eq!(as_i32(&out[1]), vec![1234; 4]);
}

#[test]
fn run_time_lanes_of_private_and_global_vectors() {
    let src = "float4 make(void) { return (float4)(5, 6, 7, 8); }
    __kernel void k(__global float4* g, __global float* out, int i) {
        float4 v = (float4)(1, 2, 3, 4);
        v[i] = 10.0f;                  // lane 2
        v[i - 1] += 0.5f;              // lane 1
        g[0][i + 1] = 9.0f;            // lane 3 of a global vector
        g[0].zyx[i] = 4.0f;            // lane 0 of it, through a swizzle
        out[0] = v[0]; out[1] = v[1]; out[2] = v[2]; out[3] = v[3];
        out[4] = make()[i];            // a lane of a value
        out[5] = v.wzyx[i];            // a run-time lane of a swizzle: v.y
    }";
    let out = run(
        src,
        "k",
        1,
        &[f32s(&[0.0; 4]), f32s(&[0.0; 6])],
        &[Val::i32(2)],
    );
    assert_eq!(as_f32(&out[0]), vec![4.0, 0.0, 0.0, 9.0]);
    assert_eq!(as_f32(&out[1]), vec![1.0, 2.5, 10.0, 4.0, 7.0, 2.5]);
}

#[test]
fn saturating_arithmetic() {
    let src = "__kernel void k(__global long* o, __global int* i) {
        o[0] = add_sat(LONG_MAX, 5L);
        o[1] = add_sat(LONG_MIN, -5L);
        o[2] = sub_sat(LONG_MIN, 1L);
        o[3] = sub_sat(3L, 5L);
        o[4] = (long)add_sat(ULONG_MAX - 1, 5UL);
        o[5] = (long)sub_sat(3UL, 5UL);
        i[0] = add_sat(INT_MAX, 1);
        i[1] = sub_sat((uchar)3, (uchar)5);
        i[2] = add_sat((char)100, (char)100);
        i[3] = mad_sat(100000, 100000, 5);
        i[4] = (int)mad_sat(70000u, 70000u, 1u);
    }";
    let out = run(src, "k", 1, &[vec![0u8; 48], i32s(&[0; 5])], &[]);
    let longs: Vec<i64> = out[0]
        .chunks(8)
        .map(|c| i64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(longs, vec![i64::MAX, i64::MIN, i64::MIN, -2, -1, 0]);
    assert_eq!(as_i32(&out[1]), vec![i32::MAX, 0, 127, i32::MAX, -1]);
}

#[test]
fn constant_initializer_bytes_follow_c_layout() {
    let src = "typedef struct { char c; short s; float f; int3 v; } R;
    __constant R table[2] = { {1, -2, 0.5f, (int3)(1, 2, 3)}, {.f = 2.0f} };
    __constant ulong big = 0xFFFFFFFFFFFFFFFFUL;
    __constant float third = 1.0f / 3;
    __constant int folded = (7 / 2) << 4 | -1 % 2 + 3;
    __kernel void k(__global int* o) { o[0] = table[1].s + (int)big + (int)third + folded; }";
    let m = build(src);
    let bytes = |name: &str| {
        let g = m.global_by_name(name).expect("global exists");
        m.globals[g].init.clone().expect("initialized")
    };
    let t = bytes("table");
    // c at 0, s at 2, f at 4, the int3 at 16 (aligned to 16, 16 bytes): 32 bytes per element.
    assert_eq!(t.len(), 64);
    assert_eq!(t[0], 1);
    assert_eq!(i16::from_le_bytes([t[2], t[3]]), -2);
    assert_eq!(f32::from_le_bytes(t[4..8].try_into().unwrap()), 0.5);
    assert_eq!(as_i32(&t[16..28]), vec![1, 2, 3]);
    assert!(t[32..36].iter().all(|&b| b == 0));
    assert_eq!(f32::from_le_bytes(t[36..40].try_into().unwrap()), 2.0);
    assert_eq!(bytes("big"), vec![0xff; 8]);
    assert_eq!(
        f32::from_le_bytes(bytes("third").try_into().unwrap()),
        1.0f32 / 3.0
    );
    // (3 << 4) | ((-1 % 2) + 3) = 48 | 2.
    assert_eq!(as_i32(&bytes("folded")), vec![50]);
}

#[test]
fn smoothstep_and_normalize() {
    let src = "__kernel void k(__global float* f) {
        f[0] = smoothstep(0.0f, 2.0f, 1.0f);               // t = 0.5: 0.5
        float4 s = smoothstep(0.0f, 1.0f, (float4)(-1.0f, 0.25f, 2.0f, 1.0f));
        f[1] = s.x; f[2] = s.y; f[3] = s.z;                // 0, 0.15625, 1
        float2 n = normalize((float2)(3.0e30f, 4.0e30f));  // no overflow: (0.6, 0.8)
        f[4] = n.x; f[5] = n.y;
        float2 z = normalize((float2)(0.0f, -0.0f));        // zero stays
        f[6] = z.x;
        float3 i = normalize((float3)(-INFINITY, 1.0f, 0.0f)); // (-1, 0, 0)
        f[7] = i.x; f[8] = i.y;
        f[9] = normalize(-5.0f);
    }";
    let out = run(src, "k", 1, &[f32s(&[9.0; 10])], &[]);
    let f = as_f32(&out[0]);
    assert_eq!(&f[..4], &[0.5, 0.0, 0.15625, 1.0]);
    assert!(
        (f[4] - 0.6).abs() < 1e-6 && (f[5] - 0.8).abs() < 1e-6,
        "{f:?}"
    );
    assert_eq!(&f[6..], &[0.0, -1.0, 0.0, -1.0]);
}

#[test]
fn continue_inside_switch_and_nested_breaks() {
    let src = "__kernel void k(__global int* out) {
        int s = 0;
        for (int i = 0; i < 6; i++) {
            switch (i & 3) {
            case 0: continue;            // the loop's continue
            case 1: s += 1; break;       // the switch's break
            default:
                for (int j = 0; ; j++) { if (j == 2) break; s += 10; }
            }
            s += 100;
        }
        int n = 0;
        do { if (n == 3) goto out; n++; } while (1);
    out:
        out[0] = s; out[1] = n;
    }";
    let out = run(src, "k", 1, &[i32s(&[0; 2])], &[]);
    // i = 1, 5: +1 +100 each; i = 2, 3: +20 +100 each; i = 0, 4: nothing.
    assert_eq!(as_i32(&out[0]), vec![2 * 101 + 2 * 120, 3]);
}

/// An `else if` chain far longer than the nesting cap (the chain is walked with loops), with
/// `break` and `return` in its arms and a final `else`; and long `&&`/`||` and `,` chains,
/// which short-circuit and evaluate in order.
#[test]
fn long_else_if_and_operator_chains() {
    let arms: String = (1..1000)
        .map(|i| format!(" else if (x == {i}) {{ r = {i} * 3; if (x == 999) return; }}"))
        .collect();
    let ands = vec!["(x > 0)"; 1000].join(" && ");
    let ors = vec!["(x < 0)"; 1000].join(" || ");
    let src = format!(
        "__kernel void k(__global int* out) {{\n\
         int x = get_global_id(0) * 333;\n\
         int r = -1, n = 0;\n\
         out[x / 333 + 4] = ({ands}) * 10 + ({ors}) + (n++, n++, n * 100);\n\
         for (;;) {{ if (x == 0) {{ r = 0; break; }}{arms} else r = -2; break; }}\n\
         out[x / 333] = r;\n\
         }}"
    );
    let out = run(&src, "k", 4, &[vec![0u8; 32]], &[]);
    // x = 0, 333, 666, 999: the 999 arm returns before the store (the buffer keeps 0).
    assert_eq!(as_i32(&out[0]), [0, 999, 1998, 0, 200, 210, 210, 210]);
}
