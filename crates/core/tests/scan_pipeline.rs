//! A scan pipeline through the runtime, as libraries build stream compaction, partition and
//! radix sort: an exclusive scan in three levels (each group scans its interval, a second
//! level scans the groups' sums, a third adds them back), checked exactly against a model on
//! the host for sizes that are and are not multiples of the work-group size, with several
//! work-group sizes, vectorized across work-items and not.
//!
//! The first level is where vectorized work-group code goes wrong: each group walks its
//! interval one unit (K values per work-item) at a time with a carry kept across the units'
//! barriers; the last unit is partial, its bounds computed after that uniform loop and live
//! across the barriers of a `__local` tree scan, read in regions guarded by `lid >= k`
//! (OpenCL C 6.15.8: every work-item sees, after a barrier, the values it computed before it).
//! The scan in levels and its uses (packing, split radix sort) are those of Blelloch, "Prefix
//! Sums and Their Applications" (CMU-CS-90-190, 1990); the tree over a unit's per-work-item
//! sums is that of Hillis and Steele, "Data Parallel Algorithms" (CACM 29(12), 1986).

use crate::builtins_harness;

use std::sync::Arc;

use builtins_harness::{bytes, values, Rng};
use ferrocl_core::device::NdRange;
use ferrocl_core::kernel::ArgValue;
use ferrocl_core::memory::flags;
use ferrocl_core::program::Program;
use ferrocl_core::{CommandQueue, Context, HostPtr, Kernel, MemObject};

/// Values per work-item in a unit.
const K: usize = 4;

const SOURCE: &str = r#"
#define K 4

// Exclusive scan of in[0..n) into out, one interval of `interval` values (a multiple of
// K * get_local_size(0)) per group; sums[g] is group g's total. tree holds one uint per
// work-item.
kernel void scan_intervals(global const uint *in, global uint *out, global uint *sums,
                           uint n, uint interval, local uint *tree) {
    uint lid = get_local_id(0), wg = get_local_size(0), g = get_group_id(0);
    uint unit_size = K * wg;
    uint start = g * interval;
    uint end = min(start + interval, n);
    uint unit = start;
    uint carry = 0;
    // Whole units: every work-item scans its K values, the tree scans their sums.
    for (; unit + unit_size <= end; unit += unit_size) {
        uint base = unit + lid * K;
        uint own[K];
        uint sum = 0;
        for (int k = 0; k < K; k++) {
            own[k] = sum;
            sum += in[base + k];
        }
        tree[lid] = sum;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint off = 1; off < wg; off <<= 1) {
            uint v = tree[lid];
            if (lid >= off)
                v += tree[lid - off];
            barrier(CLK_LOCAL_MEM_FENCE);
            tree[lid] = v;
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        uint before = carry;
        if (lid >= 1)
            before += tree[lid - 1];
        for (int k = 0; k < K; k++)
            out[base + k] = before + own[k];
        carry += tree[wg - 1];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    // The tail unit: `left` values from `unit`, fewer than a unit (maybe none), its bounds
    // known only after the loop and kept across the barriers below.
    uint left = end - unit;
    uint first = lid * K;
    uint own[K];
    uint sum = 0;
    for (int k = 0; k < K; k++) {
        own[k] = sum;
        if (first + k < left)
            sum += in[unit + first + k];
    }
    tree[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint off = 1; off < wg; off <<= 1) {
        uint v = tree[lid];
        if (lid >= off)
            v += tree[lid - off];
        barrier(CLK_LOCAL_MEM_FENCE);
        tree[lid] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    // Each work-item past the first writes its values after its predecessors' sum.
    if (lid >= 1) {
        uint before = carry + tree[lid - 1];
        for (int k = 0; k < K; k++)
            if (first + k < left)
                out[unit + first + k] = before + own[k];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // The first work-item's values, and the group's total from the last one.
    if (lid < 1)
        for (int k = 0; k < K; k++)
            if (k < left)
                out[unit + k] = carry + own[k];
    if (lid >= wg - 1)
        sums[g] = carry + tree[wg - 1];
}

// The third level: adds group i / interval's scanned sum to out[i].
kernel void add_sums(global uint *out, global const uint *scanned, uint n, uint interval) {
    uint i = get_global_id(0);
    if (i < n)
        out[i] += scanned[i / interval];
}

// flags[i] = 1 where the value is kept (a multiple of 3), else 0.
kernel void keep_flags(global const uint *in, global uint *flags, uint n) {
    uint i = get_global_id(0);
    if (i < n)
        flags[i] = in[i] % 3 == 0;
}

// Stream compaction: the kept values in order.
kernel void compact(global const uint *in, global const uint *flags, global const uint *pos,
                    global uint *out, uint n) {
    uint i = get_global_id(0);
    if (i < n && flags[i])
        out[pos[i]] = in[i];
}

// A stable partition: the kept values in order, then the others in order; `kept` is their
// number.
kernel void partition(global const uint *in, global const uint *flags,
                      global const uint *pos, global uint *out, uint n, uint kept) {
    uint i = get_global_id(0);
    if (i < n)
        out[flags[i] ? pos[i] : kept + i - pos[i]] = in[i];
}

// Radix sort, one 4-bit digit at `shift`: flags digit-major, flags[d * n + i] = 1 where
// value i has digit d; their exclusive scan is each value's place in the stable order.
kernel void digit_flags(global const uint *in, global uint *flags, uint n, uint shift) {
    uint i = get_global_id(0);
    if (i < n) {
        uint d = (in[i] >> shift) & 15;
        for (uint b = 0; b < 16; b++)
            flags[b * n + i] = b == d;
    }
}

kernel void digit_scatter(global const uint *in, global const uint *pos, global uint *out,
                          uint n, uint shift) {
    uint i = get_global_id(0);
    if (i < n)
        out[pos[((in[i] >> shift) & 15) * n + i]] = in[i];
}
"#;

/// A context, a queue and the program, with buffers kept on the device between kernels.
struct Pipeline {
    context: Arc<Context>,
    queue: Arc<CommandQueue>,
    program: Arc<Program>,
    /// The work-group size of every kernel.
    wg: usize,
}

/// A scalar or a buffer argument.
enum Arg<'a> {
    U32(u32),
    Buf(&'a Arc<MemObject>),
    Local(usize),
}

impl Pipeline {
    fn new(wg: usize) -> Pipeline {
        let context = Context::new(
            builtins_harness::platform().devices().to_vec(),
            Vec::new(),
            false,
            None,
        );
        let queue = CommandQueue::new(context.clone(), context.devices[0].clone(), 0, Vec::new());
        let program = Program::from_source(context.clone(), SOURCE.to_string());
        if let Err(e) = program.build(&[], "") {
            let log = program
                .build_info(&context.devices[0])
                .map(|b| b.log)
                .unwrap_or_default();
            panic!("build failed: {e:?}\n{log}");
        }
        Pipeline {
            context,
            queue,
            program,
            wg,
        }
    }

    /// A buffer of `len` uints holding `init` (zeros where it is shorter).
    fn buffer(&self, len: usize, init: &[u32]) -> Arc<MemObject> {
        let mut host = vec![0u32; len.max(1)];
        host[..init.len()].copy_from_slice(init);
        let mut host = bytes(&host);
        // SAFETY: COPY_HOST_PTR copies the bytes before new_buffer returns.
        let ptr = unsafe { HostPtr::new(host.as_mut_ptr()) };
        MemObject::new_buffer(
            self.context.clone(),
            flags::READ_WRITE | flags::COPY_HOST_PTR,
            host.len(),
            Some(ptr),
            Vec::new(),
        )
        .expect("buffer")
    }

    /// The first `len` uints of `buffer`, once the queue has finished.
    fn read(&self, buffer: &Arc<MemObject>, len: usize) -> Vec<u32> {
        self.queue.finish().expect("finish");
        let mut out = vec![0u8; len * 4];
        // SAFETY: the buffer holds at least len uints and no command uses it any more.
        unsafe { std::ptr::copy_nonoverlapping(buffer.base(), out.as_mut_ptr(), out.len()) };
        values(&out)
    }

    /// Enqueues kernel `name` over `groups` work-groups.
    fn launch(&self, name: &str, groups: usize, args: &[Arg]) {
        let kernel = Kernel::new(&self.program, name).expect("kernel");
        for (i, arg) in args.iter().enumerate() {
            let value = match arg {
                Arg::U32(v) => ArgValue::Bytes(v.to_ne_bytes().to_vec()),
                Arg::Buf(m) => ArgValue::Mem(Some(m)),
                Arg::Local(size) => ArgValue::Local(*size),
            };
            kernel.set_arg(i, value).expect("set_arg");
        }
        let nd = NdRange {
            work_dim: 1,
            global_offset: [0; 3],
            global_size: [(groups * self.wg) as u64, 1, 1],
            local_size: [self.wg as u64, 1, 1],
        };
        kernel.enqueue(&self.queue, nd, &[], 0).expect("enqueue");
    }

    /// Groups of `wg` work-items covering `n` (one work-item per value).
    fn cover(&self, n: usize) -> usize {
        n.div_ceil(self.wg).max(1)
    }

    /// The exclusive scan of `input`'s first `n` values into `out`; returns their total.
    fn scan(&self, input: &Arc<MemObject>, out: &Arc<MemObject>, n: usize) -> u32 {
        let unit = K * self.wg;
        // At most one unit of groups, so that the second level is one group's scan; several
        // units per group once the values outnumber them.
        let units = n.div_ceil(unit).max(1);
        let groups = units.min(unit).min(24);
        let interval = units.div_ceil(groups) * unit;
        let groups = n.div_ceil(interval).max(1);
        let sums = self.buffer(groups, &[]);
        let scanned = self.buffer(groups, &[]);
        let total = self.buffer(1, &[]);
        let local = Arg::Local(self.wg * 4);
        let (n32, interval32) = (n as u32, interval as u32);
        self.launch(
            "scan_intervals",
            groups,
            &[
                Arg::Buf(input),
                Arg::Buf(out),
                Arg::Buf(&sums),
                Arg::U32(n32),
                Arg::U32(interval32),
                local,
            ],
        );
        self.launch(
            "scan_intervals",
            1,
            &[
                Arg::Buf(&sums),
                Arg::Buf(&scanned),
                Arg::Buf(&total),
                Arg::U32(groups as u32),
                Arg::U32(groups.div_ceil(unit) as u32 * unit as u32),
                Arg::Local(self.wg * 4),
            ],
        );
        self.launch(
            "add_sums",
            self.cover(n),
            &[
                Arg::Buf(out),
                Arg::Buf(&scanned),
                Arg::U32(n32),
                Arg::U32(interval32),
            ],
        );
        self.read(&total, 1)[0]
    }
}

/// The exclusive scan on the host.
fn exclusive_scan(v: &[u32]) -> Vec<u32> {
    let mut sum = 0u32;
    v.iter()
        .map(|&x| {
            let before = sum;
            sum = sum.wrapping_add(x);
            before
        })
        .collect()
}

/// Checks the scan, compaction, partition and a radix sort of `n` values with groups of `wg`.
fn check(p: &Pipeline, n: usize, rng: &mut Rng) {
    let what = format!("n = {n}, work-groups of {}", p.wg);
    // Values below 2^12: three 4-bit passes sort them.
    let data: Vec<u32> = (0..n).map(|_| rng.below(4096) as u32).collect();
    let input = p.buffer(n, &data);

    // The scan itself, over values whose sums need all 32 bits.
    let wide: Vec<u32> = (0..n).map(|_| rng.next() as u32 >> 12).collect();
    let wide_buf = p.buffer(n, &wide);
    let scanned = p.buffer(n, &[]);
    let total = p.scan(&wide_buf, &scanned, n);
    let want = exclusive_scan(&wide);
    assert_eq!(p.read(&scanned, n), want, "scan, {what}");
    let want_total = wide.iter().fold(0u32, |a, &x| a.wrapping_add(x));
    assert_eq!(total, want_total, "scan total, {what}");

    // Stream compaction and partition of the multiples of 3.
    let flags = p.buffer(n, &[]);
    let pos = p.buffer(n, &[]);
    let out = p.buffer(n, &[]);
    let n32 = n as u32;
    p.launch(
        "keep_flags",
        p.cover(n),
        &[Arg::Buf(&input), Arg::Buf(&flags), Arg::U32(n32)],
    );
    let kept = p.scan(&flags, &pos, n);
    let keep = |x: &&u32| **x % 3 == 0;
    let want_kept: Vec<u32> = data.iter().filter(keep).copied().collect();
    assert_eq!(kept as usize, want_kept.len(), "kept, {what}");
    p.launch(
        "compact",
        p.cover(n),
        &[
            Arg::Buf(&input),
            Arg::Buf(&flags),
            Arg::Buf(&pos),
            Arg::Buf(&out),
            Arg::U32(n32),
        ],
    );
    assert_eq!(
        p.read(&out, want_kept.len()),
        want_kept,
        "compaction, {what}"
    );
    p.launch(
        "partition",
        p.cover(n),
        &[
            Arg::Buf(&input),
            Arg::Buf(&flags),
            Arg::Buf(&pos),
            Arg::Buf(&out),
            Arg::U32(n32),
            Arg::U32(kept),
        ],
    );
    let mut want_parts = want_kept;
    want_parts.extend(data.iter().filter(|x| !keep(x)));
    assert_eq!(p.read(&out, n), want_parts, "partition, {what}");

    // Radix sort: three stable passes of 4 bits.
    let digit_flags = p.buffer(16 * n, &[]);
    let digit_pos = p.buffer(16 * n, &[]);
    let (mut from, mut to) = (input, out);
    for shift in [0u32, 4, 8] {
        p.launch(
            "digit_flags",
            p.cover(n),
            &[
                Arg::Buf(&from),
                Arg::Buf(&digit_flags),
                Arg::U32(n32),
                Arg::U32(shift),
            ],
        );
        let placed = p.scan(&digit_flags, &digit_pos, 16 * n);
        assert_eq!(placed as usize, n, "radix pass {shift}, {what}");
        p.launch(
            "digit_scatter",
            p.cover(n),
            &[
                Arg::Buf(&from),
                Arg::Buf(&digit_pos),
                Arg::Buf(&to),
                Arg::U32(n32),
                Arg::U32(shift),
            ],
        );
        std::mem::swap(&mut from, &mut to);
    }
    let mut sorted = data;
    sorted.sort_unstable();
    assert_eq!(p.read(&from, n), sorted, "radix sort, {what}");
}

/// Sizes from 1 to 100,003, multiples of the work-group sizes and not, and a few drawn at
/// random; every work-group size runs each.
fn run_all() {
    let mut rng = Rng::new(0x5ca9);
    let mut sizes = vec![
        1, 2, 3, 7, 63, 64, 65, 255, 256, 257, 1000, 4097, 65537, 100_003,
    ];
    for _ in 0..3 {
        sizes.push(1 + rng.below(20_000) as usize);
    }
    for wg in [64, 128, 256, 96] {
        let p = Pipeline::new(wg);
        for &n in &sizes {
            check(&p, n, &mut rng);
        }
    }
}

#[test]
fn scan_pipeline_gives_exact_results() {
    run_all();
}

/// The same with the CPU device's vectorization across work-items off (`FERROCL_VECTORIZE=0`,
/// read once per process): the test runs itself as a child.
#[test]
fn scan_pipeline_gives_exact_results_without_vectorization() {
    if std::env::var_os("FERROCL_SCAN_CHILD").is_some() {
        return;
    }
    let out = std::process::Command::new(std::env::current_exe().expect("the test binary"))
        .args([
            own_test("scan_pipeline_gives_exact_results").as_str(),
            "--exact",
            "--test-threads=1",
        ])
        .env("FERROCL_VECTORIZE", "0")
        .env("FERROCL_SCAN_CHILD", "1")
        .output()
        .expect("the child runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The name the test harness gives test function `f` of this file: its module path in the
/// test binary (whose first segment is the binary's crate), then `f`.
fn own_test(f: &str) -> String {
    match module_path!().split_once("::") {
        Some((_, module)) => format!("{module}::{f}"),
        None => f.to_string(),
    }
}
