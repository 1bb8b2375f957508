//! The on-disk program cache (`ferrocl_core::cache`) as `clBuildProgram` uses it: each test
//! runs this test binary as child processes with `XDG_CACHE_HOME` set to a folder of its own
//! (never the user's cache), and reads what the cache did from the counters the child prints.
//!
//! A child (`child_builds`, idle unless `FERROCL_CACHE_CHILD` is set) builds the programs
//! listed in `FERROCL_CACHE_CHILD` (one per line: a source variant, a tab, the options), each
//! by a new program object, runs its kernel, and prints one line per build. The variant `lu`
//! is the blocked LU decomposition of `examples/lu.cl` (three kernels, fully unrolled with
//! `-DBLOCK_SIZE=16`), run over a matrix; any other is a small kernel with a `__constant`
//! table, its name in a comment.

mod builtins_harness;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use ferrocl_core::device::NdRange;
use ferrocl_core::kernel::ArgValue;
use ferrocl_core::memory::flags;
use ferrocl_core::program::Program;
use ferrocl_core::{CommandQueue, Context, HostPtr, Kernel, MemObject};

/// The program: its unknown attribute gives the build log a warning. `variant` changes the
/// source text, not what it compiles to.
fn source(variant: &str) -> String {
    format!(
        "// {variant}\n\
         constant int bias[4] = {{1, 20, 300, 4000}};\n\
         __attribute__((frobnicate))\n\
         kernel void add(global int *data) {{\n\
             int i = get_global_id(0);\n\
             data[i] = data[i] * 3 + STEP + bias[i % 4];\n\
         }}\n"
    )
}

/// The blocked LU decomposition.
const LU: &str = include_str!("../../../examples/lu.cl");

/// The order of the matrix the LU child factors: three blocks of 16.
const LU_N: usize = 48;

/// What one build in a child did.
#[derive(Debug, PartialEq)]
struct Build {
    hits: u64,
    misses: u64,
    stores: u64,
    code_hits: u64,
    code_misses: u64,
    code_stores: u64,
    log: String,
    /// A hash of the program binary (`CL_PROGRAM_BINARIES`).
    binary: u64,
    /// The kernel's results, summed (the LU: a hash of the factors' bits).
    sum: i64,
}

/// Builds and runs one program, and says what happened as one line.
fn build_and_run(variant: &str, options: &str) -> String {
    let devices = builtins_harness::platform().devices().to_vec();
    let context = Context::new(devices.clone(), Vec::new(), false, None);
    let queue = CommandQueue::new(context.clone(), devices[0].clone(), 0, Vec::new());
    let text = if variant == "lu" {
        LU.to_string()
    } else {
        source(variant)
    };
    let program = Program::from_source(context.clone(), text);
    program.build(&[], options).expect("build");
    let log = program.build_info(&devices[0]).expect("the device").log;
    let binary = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        program.binaries().hash(&mut h);
        h.finish()
    };
    let sum = if variant == "lu" {
        run_lu(&context, &queue, &program)
    } else {
        run_add(&context, &queue, &program)
    };
    let s = ferrocl_core::cache::stats();
    format!(
        "build hits={} misses={} stores={} code_hits={} code_misses={} code_stores={} \
         binary={binary} sum={sum} log={:?}",
        s.hits, s.misses, s.stores, s.code_hits, s.code_misses, s.code_stores, log
    )
}

/// Runs `add` over 0..64; the results' sum.
fn run_add(context: &Arc<Context>, queue: &Arc<CommandQueue>, program: &Arc<Program>) -> i64 {
    let kernel = Kernel::new(program, "add").expect("kernel");
    let mut data: Vec<i32> = (0..64).collect();
    // SAFETY: `data` outlives the command, which is finished below.
    let host = unsafe { HostPtr::new(data.as_mut_ptr().cast()) };
    let flags = flags::READ_WRITE | flags::USE_HOST_PTR;
    let mem = MemObject::new_buffer(
        context.clone(),
        flags,
        4 * data.len(),
        Some(host),
        Vec::new(),
    )
    .expect("buffer");
    kernel.set_arg(0, ArgValue::Mem(Some(&mem))).expect("arg");
    let nd = NdRange {
        work_dim: 1,
        global_offset: [0; 3],
        global_size: [64, 1, 1],
        local_size: [16, 1, 1],
    };
    kernel.enqueue(queue, nd, &[], 0).expect("enqueue");
    queue.finish().expect("finish");
    drop((kernel, mem));
    data.iter().map(|&x| x as i64).sum()
}

/// The matrix the LU child factors: diagonally dominant, so that no pivoting is needed.
fn lu_matrix() -> Vec<f32> {
    let n = LU_N;
    (0..n * n)
        .map(|at| {
            let (r, c) = (at / n, at % n);
            let off = ((r * 7 + c * 13) % 17) as f32 / 17.0 - 0.5;
            if r == c {
                n as f32 + off
            } else {
                off
            }
        })
        .collect()
}

/// Factors [`lu_matrix`] with the three kernels, checks that L U gives the matrix back, and
/// returns a hash of the factors' bits.
fn run_lu(context: &Arc<Context>, queue: &Arc<CommandQueue>, program: &Arc<Program>) -> i64 {
    const B: usize = 16;
    let n = LU_N;
    let original = lu_matrix();
    let mut a = original.clone();
    // SAFETY: `a` outlives the commands, which are finished below.
    let host = unsafe { HostPtr::new(a.as_mut_ptr().cast()) };
    let flags = flags::READ_WRITE | flags::USE_HOST_PTR;
    let mem = MemObject::new_buffer(context.clone(), flags, 4 * a.len(), Some(host), Vec::new())
        .expect("buffer");
    let kernels = ["lu_diagonal", "lu_perimeter", "lu_internal"]
        .map(|name| Kernel::new(program, name).expect("kernel"));
    let range = |global: [u64; 2], local: [u64; 2]| NdRange {
        work_dim: 2,
        global_offset: [0; 3],
        global_size: [global[0], global[1], 1],
        local_size: [local[0], local[1], 1],
    };
    for k in (0..n).step_by(B) {
        let rest = ((n - k) / B - 1) as u64;
        let b = B as u64;
        let steps = [
            Some(range([b, 1], [b, 1])),
            (rest > 0).then(|| range([rest * b, 1], [b, 1])),
            (rest > 0).then(|| range([rest * b, rest * b], [b, b])),
        ];
        for (kernel, nd) in kernels.iter().zip(steps) {
            let Some(nd) = nd else { continue };
            kernel.set_arg(0, ArgValue::Mem(Some(&mem))).expect("arg");
            let ints = [n as i32, k as i32].map(|v| ArgValue::Bytes(v.to_le_bytes().to_vec()));
            for (i, v) in ints.into_iter().enumerate() {
                kernel.set_arg(i + 1, v).expect("arg");
            }
            kernel.enqueue(queue, nd, &[], 0).expect("enqueue");
        }
    }
    queue.finish().expect("finish");
    drop((kernels, mem));
    // L (unit lower) times U (upper) is the matrix again, to float rounding.
    for r in 0..n {
        for c in 0..n {
            let l = |m: usize| if m == r { 1.0 } else { a[r * n + m] as f64 };
            let sum: f64 = (0..=r.min(c)).map(|m| l(m) * a[m * n + c] as f64).sum();
            let want = original[r * n + c] as f64;
            assert!(
                (sum - want).abs() < 1e-3,
                "(L U)[{r}][{c}] = {sum}, not {want}"
            );
        }
    }
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for x in &a {
        std::hash::Hasher::write_u32(&mut h, x.to_bits());
    }
    (std::hash::Hasher::finish(&h) >> 1) as i64
}

#[test]
fn child_builds() {
    let Ok(list) = std::env::var("FERROCL_CACHE_CHILD") else {
        return;
    };
    for line in list.lines() {
        let (variant, options) = line.split_once('\t').expect("variant<TAB>options");
        println!("{}", build_and_run(variant, options));
    }
}

/// A cache folder of the test's own, empty.
fn folder(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("ferrocl-cache-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

/// Runs a child with `xdg` as its XDG_CACHE_HOME (and `FERROCL_CACHE` set to `switch`, when
/// given) building `builds` (variant, options); what each build did.
fn child(xdg: &Path, switch: Option<&str>, builds: &[(&str, &str)]) -> Vec<Build> {
    child_with(xdg, switch, &[], builds)
}

/// [`child`] with the environment variables `env` set too; the settings of the CPU device
/// (`FERROCL_VECTORIZE`, `FERROCL_VECTOR_WIDTH`) are the defaults unless `env` sets them.
fn child_with(
    xdg: &Path,
    switch: Option<&str>,
    env: &[(&str, &str)],
    builds: &[(&str, &str)],
) -> Vec<Build> {
    let list: Vec<String> = builds.iter().map(|(v, o)| format!("{v}\t{o}")).collect();
    let mut command = Command::new(std::env::current_exe().expect("the test binary"));
    command
        .args(["child_builds", "--exact", "--nocapture", "--test-threads=1"])
        .env("FERROCL_CACHE_CHILD", list.join("\n"))
        .env("XDG_CACHE_HOME", xdg)
        .env_remove("FERROCL_CACHE")
        .env_remove("FERROCL_VECTORIZE")
        .env_remove("FERROCL_VECTOR_WIDTH");
    if let Some(switch) = switch {
        command.env("FERROCL_CACHE", switch);
    }
    for (name, value) in env {
        command.env(name, value);
    }
    let out = command.output().expect("the child runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let builds: Vec<Build> = stdout
        .lines()
        // libtest prints its own "test child_builds ... " in front of the first line.
        .filter_map(|l| l.find("build hits=").map(|at| &l[at + 6..]))
        .map(|l| {
            let field = |name: &str| -> String {
                let start = l.find(&format!("{name}=")).expect("the field") + name.len() + 1;
                l[start..].split(' ').next().unwrap_or("").to_string()
            };
            let number = |name: &str| field(name).parse::<u64>().expect("a number");
            Build {
                hits: number("hits"),
                misses: number("misses"),
                stores: number("stores"),
                code_hits: number("code_hits"),
                code_misses: number("code_misses"),
                code_stores: number("code_stores"),
                binary: number("binary"),
                sum: field("sum").parse().expect("a number"),
                log: l[l.find("log=").expect("the log") + 4..].to_string(),
            }
        })
        .collect();
    assert_eq!(builds.len(), list.len(), "{stdout}");
    builds
}

/// The program entry files in the cache folder under `xdg`.
fn entries(xdg: &Path) -> Vec<PathBuf> {
    entries_of(xdg, b"program")
}

/// The code entry files in the cache folder under `xdg`.
fn code_entries(xdg: &Path) -> Vec<PathBuf> {
    entries_of(xdg, b"device code")
}

/// The entry files in the cache folder under `xdg` whose key starts with `kind`: the key is
/// the payload's first field (after a header of 28 bytes and its length), its kind the key's
/// first part (after its length).
fn entries_of(xdg: &Path, kind: &[u8]) -> Vec<PathBuf> {
    let Ok(dir) = std::fs::read_dir(xdg.join("ferrocl")) else {
        return Vec::new();
    };
    dir.flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "entry"))
        .filter(|p| {
            let bytes = std::fs::read(p).unwrap_or_default();
            let start = 28 + 8;
            bytes.get(start..start + 8) == Some(&(kind.len() as u64).to_le_bytes()[..])
                && bytes.get(start + 8..start + 8 + kind.len()) == Some(kind)
        })
        .collect()
}

/// The sum of 3 * i + step + bias[i % 4] over 0..64.
fn expected_sum(step: i64) -> i64 {
    let bias = [1, 20, 300, 4000];
    (0..64).map(|i| 3 * i + step + bias[i as usize % 4]).sum()
}

const OPTIONS: &str = "-DSTEP=5";

#[test]
fn a_second_build_in_the_same_process_hits_with_the_same_log_and_binary() {
    let xdg = folder("same-process");
    let b = child(&xdg, None, &[("a", OPTIONS), ("a", OPTIONS)]);
    assert_eq!((b[0].hits, b[0].misses, b[0].stores), (0, 1, 1));
    assert_eq!((b[1].hits, b[1].misses, b[1].stores), (1, 1, 1));
    assert!(b[0].log.contains("warning"), "{}", b[0].log);
    assert_eq!(b[0].log, b[1].log);
    assert_eq!(b[0].binary, b[1].binary);
    assert_eq!(b[0].sum, expected_sum(5));
    assert_eq!(b[1].sum, expected_sum(5));
    assert_eq!(entries(&xdg).len(), 1);
    // The second build's device compile came from the cache too.
    assert_eq!(
        (b[0].code_hits, b[0].code_misses, b[0].code_stores),
        (0, 1, 1)
    );
    assert_eq!(
        (b[1].code_hits, b[1].code_misses, b[1].code_stores),
        (1, 1, 1)
    );
    assert_eq!(code_entries(&xdg).len(), 1);
    let _ = std::fs::remove_dir_all(&xdg);
}

#[test]
fn a_new_process_hits_and_builds_what_a_fresh_build_does() {
    let xdg = folder("new-process");
    let first = child(&xdg, None, &[("a", OPTIONS)]);
    let second = child(&xdg, None, &[("a", OPTIONS)]);
    assert_eq!((first[0].hits, first[0].stores), (0, 1));
    assert_eq!(
        (second[0].hits, second[0].misses, second[0].stores),
        (1, 0, 0)
    );
    assert_eq!(
        (
            first[0].code_hits,
            first[0].code_misses,
            first[0].code_stores
        ),
        (0, 1, 1)
    );
    assert_eq!(
        (
            second[0].code_hits,
            second[0].code_misses,
            second[0].code_stores
        ),
        (1, 0, 0)
    );
    // The same build log, program binary and results as the build that compiled.
    assert_eq!(first[0].log, second[0].log);
    assert_eq!(first[0].binary, second[0].binary);
    assert_eq!(second[0].sum, expected_sum(5));
    let _ = std::fs::remove_dir_all(&xdg);
}

#[test]
fn another_source_or_options_miss() {
    let xdg = folder("other-key");
    child(&xdg, None, &[("a", OPTIONS)]);
    let b = child(
        &xdg,
        None,
        &[("a", "-DSTEP=6"), ("b", OPTIONS), ("a", "-DSTEP=5 ")],
    );
    assert_eq!((b[2].hits, b[2].misses, b[2].stores), (0, 3, 3));
    assert_eq!(b[0].sum, expected_sum(6));
    assert_eq!(b[1].sum, expected_sum(5));
    assert_eq!(b[2].sum, expected_sum(5));
    assert_eq!(entries(&xdg).len(), 4);
    // Code is keyed by the module the device compiles: another STEP is another module, while
    // another comment or a space in the options compile to the first child's module.
    assert_eq!(
        (b[0].code_hits, b[0].code_misses, b[0].code_stores),
        (0, 1, 1)
    );
    assert_eq!(
        (b[2].code_hits, b[2].code_misses, b[2].code_stores),
        (2, 1, 1)
    );
    assert_eq!(code_entries(&xdg).len(), 2);
    let _ = std::fs::remove_dir_all(&xdg);
}

#[test]
fn a_damaged_entry_misses_and_is_replaced() {
    let xdg = folder("damaged");
    let fresh = child(&xdg, None, &[("a", OPTIONS)]);
    let [entry] = entries(&xdg).try_into().expect("one entry");
    let whole = std::fs::read(&entry).expect("the entry");
    let mut flipped = whole.clone();
    let middle = flipped.len() / 2;
    flipped[middle] ^= 0x10;
    let damages = [
        flipped,
        whole[..whole.len() - 7].to_vec(),
        whole[..20].to_vec(),
        Vec::new(),
    ];
    for damaged in damages {
        std::fs::write(&entry, &damaged).expect("write");
        let b = child(&xdg, None, &[("a", OPTIONS)]);
        assert_eq!((b[0].hits, b[0].misses, b[0].stores), (0, 1, 1));
        assert_eq!(b[0].sum, expected_sum(5));
        assert_eq!(b[0].binary, fresh[0].binary);
        assert_eq!(std::fs::read(&entry).expect("the entry"), whole);
    }
    let b = child(&xdg, None, &[("a", OPTIONS)]);
    assert_eq!(b[0].hits, 1);
    let _ = std::fs::remove_dir_all(&xdg);
}

#[test]
fn ferrocl_cache_0_turns_it_off() {
    let xdg = folder("off");
    let b = child(&xdg, Some("0"), &[("a", OPTIONS), ("a", OPTIONS)]);
    assert_eq!((b[1].hits, b[1].misses, b[1].stores), (0, 0, 0));
    assert_eq!(
        (b[1].code_hits, b[1].code_misses, b[1].code_stores),
        (0, 0, 0)
    );
    assert_eq!(b[1].sum, expected_sum(5));
    assert!(!xdg.join("ferrocl").exists());
    let b = child(&xdg, Some("1"), &[("a", OPTIONS)]);
    assert_eq!(b[0].stores, 1);
    assert_eq!(b[0].code_stores, 1);
    let _ = std::fs::remove_dir_all(&xdg);
}

#[test]
fn a_large_unrolled_program_runs_alike_from_the_cache() {
    let xdg = folder("lu");
    let options = "-DBLOCK_SIZE=16";
    let first = child(&xdg, None, &[("lu", options)]);
    let second = child(&xdg, None, &[("lu", options)]);
    assert_eq!(
        (
            first[0].code_hits,
            first[0].code_misses,
            first[0].code_stores
        ),
        (0, 1, 1)
    );
    assert_eq!(
        (second[0].hits, second[0].code_hits, second[0].code_misses),
        (1, 1, 0)
    );
    // Both children checked L U against the matrix; the factors are the same bits.
    assert_eq!(first[0].sum, second[0].sum);
    let _ = std::fs::remove_dir_all(&xdg);
}

#[test]
fn the_device_settings_and_compile_options_miss_the_code() {
    let xdg = folder("device-key");
    child(&xdg, None, &[("a", OPTIONS)]);
    // The same module: the program entry hits, but the code depends on the vector width,
    // on vectorization being on, and on the device's compile options.
    let width = child_with(
        &xdg,
        None,
        &[("FERROCL_VECTOR_WIDTH", "4")],
        &[("a", OPTIONS)],
    );
    assert_eq!((width[0].hits, width[0].code_hits), (1, 0));
    assert_eq!((width[0].code_misses, width[0].code_stores), (1, 1));
    assert_eq!(width[0].sum, expected_sum(5));
    let scalar = child_with(&xdg, None, &[("FERROCL_VECTORIZE", "0")], &[("a", OPTIONS)]);
    assert_eq!((scalar[0].hits, scalar[0].code_hits), (1, 0));
    assert_eq!(scalar[0].sum, expected_sum(5));
    let options = format!("{OPTIONS} -cl-ferrocl-no-vectorize");
    let no_vectorize = child(&xdg, None, &[("a", &options)]);
    assert_eq!((no_vectorize[0].hits, no_vectorize[0].code_hits), (0, 0));
    assert_eq!(no_vectorize[0].sum, expected_sum(5));
    assert_eq!(code_entries(&xdg).len(), 4);
    // Each of them again, from the cache.
    let again = child_with(
        &xdg,
        None,
        &[("FERROCL_VECTOR_WIDTH", "4")],
        &[("a", OPTIONS)],
    );
    assert_eq!((again[0].code_hits, again[0].code_misses), (1, 0));
    let again = child(&xdg, None, &[("a", OPTIONS), ("a", &options)]);
    assert_eq!((again[1].code_hits, again[1].code_misses), (2, 0));
    let _ = std::fs::remove_dir_all(&xdg);
}

#[test]
fn a_damaged_code_entry_misses_and_is_replaced() {
    let xdg = folder("damaged-code");
    child(&xdg, None, &[("a", OPTIONS)]);
    let [entry] = code_entries(&xdg).try_into().expect("one code entry");
    let whole = std::fs::read(&entry).expect("the entry");
    // A byte flipped in the machine code (the last part of the entry), in the middle, in the
    // header; the entry cut short; another program's code under this key's name.
    let mut damages = Vec::new();
    for at in [whole.len() - 100, whole.len() / 2, 10] {
        let mut flipped = whole.clone();
        flipped[at] ^= 0x04;
        damages.push(flipped);
    }
    damages.push(whole[..whole.len() - 1].to_vec());
    child(&xdg, None, &[("a", "-DSTEP=9")]);
    let other = code_entries(&xdg)
        .into_iter()
        .find(|p| *p != entry)
        .expect("the other program's code");
    damages.push(std::fs::read(other).expect("the other entry"));
    for damaged in damages {
        std::fs::write(&entry, &damaged).expect("write");
        let b = child(&xdg, None, &[("a", OPTIONS)]);
        assert_eq!(b[0].hits, 1);
        assert_eq!(
            (b[0].code_hits, b[0].code_misses, b[0].code_stores),
            (0, 1, 1)
        );
        assert_eq!(b[0].sum, expected_sum(5));
        let b = child(&xdg, None, &[("a", OPTIONS)]);
        assert_eq!((b[0].code_hits, b[0].code_misses), (1, 0));
        assert_eq!(b[0].sum, expected_sum(5));
    }
    let _ = std::fs::remove_dir_all(&xdg);
}
