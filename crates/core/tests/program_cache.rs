//! The on-disk program cache (`ferrocl_core::cache`) as `clBuildProgram` uses it: each test
//! runs this test binary as child processes with `XDG_CACHE_HOME` set to a folder of its own
//! (never the user's cache), and reads what the cache did from the counters the child prints.
//!
//! A child (`child_builds`, idle unless `FERROCL_CACHE_CHILD` is set) builds the programs
//! listed in `FERROCL_CACHE_CHILD` (one per line: a source variant, a tab, the options), each
//! by a new program object, runs its kernel, and prints one line per build.

mod builtins_harness;

use std::path::{Path, PathBuf};
use std::process::Command;

use ferrocl_core::device::NdRange;
use ferrocl_core::kernel::ArgValue;
use ferrocl_core::memory::flags;
use ferrocl_core::program::Program;
use ferrocl_core::{CommandQueue, Context, HostPtr, Kernel, MemObject};

/// The program: its unknown attribute gives the build log a warning. `variant` changes the
/// source text.
fn source(variant: &str) -> String {
    format!(
        "// {variant}\n\
         __attribute__((frobnicate))\n\
         kernel void add(global int *data) {{\n\
             int i = get_global_id(0);\n\
             data[i] = data[i] * 3 + STEP;\n\
         }}\n"
    )
}

/// What one build in a child did.
#[derive(Debug, PartialEq)]
struct Build {
    hits: u64,
    misses: u64,
    stores: u64,
    log: String,
    /// A hash of the program binary (`CL_PROGRAM_BINARIES`).
    binary: u64,
    /// The kernel's results, summed.
    sum: i64,
}

/// Builds and runs one program, and says what happened as one line.
fn build_and_run(variant: &str, options: &str) -> String {
    let devices = builtins_harness::platform().devices().to_vec();
    let context = Context::new(devices.clone(), Vec::new(), false, None);
    let queue = CommandQueue::new(context.clone(), devices[0].clone(), 0, Vec::new());
    let program = Program::from_source(context.clone(), source(variant));
    program.build(&[], options).expect("build");
    let log = program.build_info(&devices[0]).expect("the device").log;
    let binary = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        program.binaries().hash(&mut h);
        h.finish()
    };
    let kernel = Kernel::new(&program, "add").expect("kernel");
    let mut data: Vec<i32> = (0..64).collect();
    // SAFETY: `data` outlives the command, which is finished below.
    let host = unsafe { HostPtr::new(data.as_mut_ptr().cast()) };
    let flags = flags::READ_WRITE | flags::USE_HOST_PTR;
    let mem = MemObject::new_buffer(context, flags, 4 * data.len(), Some(host), Vec::new())
        .expect("buffer");
    kernel.set_arg(0, ArgValue::Mem(Some(&mem))).expect("arg");
    let nd = NdRange {
        work_dim: 1,
        global_offset: [0; 3],
        global_size: [64, 1, 1],
        local_size: [16, 1, 1],
    };
    kernel.enqueue(&queue, nd, &[], 0).expect("enqueue");
    queue.finish().expect("finish");
    drop((kernel, mem));
    let sum: i64 = data.iter().map(|&x| x as i64).sum();
    let s = ferrocl_core::cache::stats();
    format!(
        "build hits={} misses={} stores={} binary={binary} sum={sum} log={:?}",
        s.hits, s.misses, s.stores, log
    )
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
    let list: Vec<String> = builds.iter().map(|(v, o)| format!("{v}\t{o}")).collect();
    let mut command = Command::new(std::env::current_exe().expect("the test binary"));
    command
        .args(["child_builds", "--exact", "--nocapture", "--test-threads=1"])
        .env("FERROCL_CACHE_CHILD", list.join("\n"))
        .env("XDG_CACHE_HOME", xdg)
        .env_remove("FERROCL_CACHE");
    if let Some(switch) = switch {
        command.env("FERROCL_CACHE", switch);
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
                binary: number("binary"),
                sum: field("sum").parse().expect("a number"),
                log: l[l.find("log=").expect("the log") + 4..].to_string(),
            }
        })
        .collect();
    assert_eq!(builds.len(), list.len(), "{stdout}");
    builds
}

/// The entry files in the cache folder under `xdg`.
fn entries(xdg: &Path) -> Vec<PathBuf> {
    let Ok(dir) = std::fs::read_dir(xdg.join("ferrocl")) else {
        return Vec::new();
    };
    dir.flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "entry"))
        .collect()
}

/// The sum of 3 * i + step over 0..64.
fn expected_sum(step: i64) -> i64 {
    (0..64).map(|i| 3 * i + step).sum()
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
    assert_eq!(entries(&xdg).len(), 4);
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
    assert_eq!(b[1].sum, expected_sum(5));
    assert!(entries(&xdg).is_empty());
    let b = child(&xdg, Some("1"), &[("a", OPTIONS)]);
    assert_eq!(b[0].stores, 1);
    let _ = std::fs::remove_dir_all(&xdg);
}
