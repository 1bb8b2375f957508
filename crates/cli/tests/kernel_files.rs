//! Kernel tests as data: every `tests/kernels/**/*.cl` file is an OpenCL C program whose
//! leading comments say how to run it and what it must compute. Each file runs on every
//! OpenCL platform the ICD loader lists (ferrocl always; PoCL, Intel's runtime... where
//! installed), through `ferrocl run`, so the same expectations hold for every implementation.
//!
//! The directives, one per comment line (`// `), in order:
//! - `run: ARGS`: one run of `ferrocl run FILE ARGS` (`--kernel`, `--global`, `--local`,
//!   `--arg`, `--options`, `-D`, `--repeat`...; single quotes group words as in a shell).
//!   `--arg` takes scalars and vectors of every type (`long:-1`, `uchar4:1,2,3,4`), buffers
//!   filled with one value or a list of one value per element (`'int[3]=5,-1,7'`), and structs
//!   passed by value (`'{int:7,float:2,int:0}'`, laid out as OpenCL C lays out the struct);
//!   `--repeat N` runs the kernel N times over the same buffers;
//! - `expect NAME: VALUES`: after the run before it, the buffer argument NAME (its name or
//!   index) holds exactly VALUES, as `ferrocl run --print` writes them, or the same numbers
//!   written another way (`1e300` for the 301 digits it prints; `-0` is not `0`);
//! - `expect NAME ulp=N: VALUES`: the same for `float` elements, each within N (a decimal,
//!   as in table 65 of OpenCL C 7.4) units in the last place of the expected value, written to
//!   double precision; a NaN, a zero and an infinity must be met exactly, the zero's sign
//!   included (7.5.1);
//! - `expect NAME[A..B]: VALUES` (and with `ulp=N`): the same for elements A to B - 1 only;
//! - `expect build error` (or `expect build error: TEXT`): the program does not build, and
//!   ferrocl's build log holds TEXT (other compilers word their errors their own way);
//! - `deviates: PLATFORM: WHY` (after a run): the platform whose name or vendor has the word
//!   PLATFORM (`pocl`, `intel`) is known to disagree with the spec on this run, for the reason
//!   WHY, which quotes the spec's sentence. The run's expectations are still the spec's; on
//!   that platform a failure is reported and tolerated, and a pass fails (the note is stale).
//!   `deviates: PLATFORM NAME[I,J,...]: WHY` narrows it to those elements of buffer NAME:
//!   they must differ, and every other element must match;
//! - `requires: NAME`: skip the file (or, after a `run:` line, that run) on a device that does
//!   not list the extension NAME (`cl_khr_fp64`), or whose OpenCL C 3.0 compiler does not
//!   define the optional feature's macro NAME (`__opencl_c_atomic_scope_all_devices`), and say
//!   so; ferrocl must offer it. `requires: sub-group-size=N`: the expectations assume
//!   sub-groups of N work-items (a device's choice, OpenCL C 6.15.1), so the file or run is
//!   skipped, and said so, on a device whose largest sub-group in a work-group of 64 differs.
//!
//! - `local-sizes: fixed: WHY` (before the first run: for every run; after a run: for that
//!   run): the results depend on the local size (work-group collectives, `__local` tiles,
//!   local or group ids, one result per group in a buffer sized for the groups written...),
//!   so the run is made only as written; WHY says which. `local-sizes: N N ...`: the run is
//!   made again at those local sizes along x instead of the default ones.
//!
//! ferrocl runs each file twice: with `FERROCL_VECTORIZE=always` (every kernel the CPU device
//! can vectorize across work-items vectorized, even where its cost model would not), and with
//! `FERROCL_VECTORIZE=0` (vectorization off), which must give the same results. Both also make
//! each run that expects results again at other local sizes along x (`EXTRA_LOCAL_SIZES`
//! unless the file lists its own): 1, and sizes that leave a remainder against the CPU
//! device's vector width (a partial chunk, or no full one), against the same expectations.
//! A size that does not divide the global size makes a non-uniform last work-group, which
//! OpenCL C 2.0 and later allow (API 3.0, 5.10: "the global work size need not be a multiple
//! of the local work size" unless `-cl-uniform-work-group-size`); such a run is built with
//! `-cl-std=CL3.0` where it names no version, and skipped where it names 1.x.
//!
//! Another installed implementation joins through the loader's own variables, e.g. Intel's CPU
//! runtime: `OCL_ICD_FILENAMES=/work/venv-intel/lib/libintelocl.so
//! LD_LIBRARY_PATH=/work/venv-intel/lib cargo test -p ferrocl-cli --test kernel_files`.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Local sizes along x each run that expects results is made again at (on ferrocl, with and
/// without vectorization), unless its file says otherwise (`local-sizes:`): 1, primes
/// below the vector width (a row of no full chunk), and 13 (one chunk of 8 and a remainder).
const EXTRA_LOCAL_SIZES: [usize; 4] = [1, 3, 7, 13];

/// A `local-sizes:` directive.
#[derive(Clone, Debug, PartialEq)]
enum LocalSizes {
    /// `EXTRA_LOCAL_SIZES`.
    Default,
    /// `local-sizes: fixed`: only the local size written.
    Fixed,
    /// `local-sizes: N N ...`.
    These(Vec<usize>),
}

/// One `expect` line.
#[derive(Clone, Debug)]
struct Expect {
    arg: String,
    /// `NAME[A..B]`: only elements A to B - 1 are checked.
    range: Option<(usize, usize)>,
    ulp: Option<f64>,
    values: Vec<String>,
}

/// One `run` line and what it must produce.
#[derive(Clone, Debug)]
struct Run {
    /// The line of the `run:` directive, from 1.
    line: usize,
    /// `requires:` lines after the `run:` line: what this run alone needs.
    requires: Vec<String>,
    args: Vec<String>,
    expects: Vec<Expect>,
    /// `expect build error[: TEXT]`: the build fails, and ferrocl's log holds TEXT.
    build_error: Option<String>,
    /// `deviates: ...` lines: platforms known to give other results than the spec requires.
    deviates: Vec<Deviation>,
    /// The local sizes along x the run is made again at (`local-sizes:`).
    local_sizes: LocalSizes,
}

/// A `deviates: PLATFORM[ NAME[I,J,...]]: WHY` line.
#[derive(Clone, Debug, PartialEq)]
struct Deviation {
    /// A word of the platform's name or vendor, in lower case.
    who: String,
    /// The buffer and its elements that deviate; the whole run when `None`.
    elements: Option<(String, Vec<usize>)>,
    why: String,
}

#[derive(Debug)]
struct TestFile {
    path: PathBuf,
    requires: Vec<String>,
    runs: Vec<Run>,
}

/// Reads `fixed` or a list of local sizes.
fn local_sizes(text: &str) -> Option<LocalSizes> {
    if let Some(why) = text.trim().strip_prefix("fixed:") {
        return (!why.trim().is_empty()).then_some(LocalSizes::Fixed);
    }
    let sizes = text
        .split_whitespace()
        .map(|w| w.parse().ok().filter(|&s| s > 0))
        .collect::<Option<Vec<usize>>>()?;
    (!sizes.is_empty()).then_some(LocalSizes::These(sizes))
}

/// The value of option `long` (or its short form) in `args`.
fn option<'a>(args: &'a [String], long: &str, short: &str) -> Option<&'a str> {
    args.windows(2)
        .find(|w| w[0] == long || w[0] == short)
        .map(|w| w[1].as_str())
}

/// The arguments of `run` made with local size `size` along x (the other dimensions' as
/// written, or 1), or `None` where that size is the one written, larger than the global
/// size, or makes a non-uniform work-group in a program built for OpenCL C 1.x.
fn at_local_size(args: &[String], size: usize) -> Option<Vec<String>> {
    let sizes = |text: &str| -> Option<Vec<usize>> {
        text.split(',').map(|s| s.trim().parse().ok()).collect()
    };
    let global = sizes(option(args, "--global", "-g")?)?;
    let local = option(args, "--local", "-l").and_then(sizes);
    if local.as_ref().is_some_and(|l| l[0] == size) || size > global[0] {
        return None;
    }
    let mut new_local = local.unwrap_or_else(|| vec![1; global.len()]);
    new_local[0] = size;
    let text = new_local
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let mut out = Vec::with_capacity(args.len() + 2);
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--local" || args[i] == "-l" {
            i += 2;
            continue;
        }
        out.push(args[i].clone());
        i += 1;
    }
    out.extend(["--local".to_string(), text]);
    if global[0] % size != 0 {
        // A non-uniform work-group: OpenCL C 2.0 or later, without
        // -cl-uniform-work-group-size.
        let version = args.iter().find_map(|a| {
            a.split_whitespace()
                .find_map(|w| w.strip_prefix("-cl-std="))
                .map(str::to_string)
        });
        let version =
            version.or_else(|| option(args, "--cl-std", "--cl-std").map(|v| format!("CL{v}")));
        if args
            .iter()
            .any(|a| a.contains("-cl-uniform-work-group-size"))
        {
            return None;
        }
        match version {
            Some(v) if v.starts_with("CL1") => return None,
            Some(_) => {}
            None => out.extend(["--options".to_string(), "-cl-std=CL3.0".to_string()]),
        }
    }
    Some(out)
}

/// Splits a directive's arguments as a shell would for plain words and single quotes.
fn words(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(q) => word.push(q),
                        None => return Err(format!("unclosed quote in '{text}'")),
                    }
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        out.push(word);
    }
    Ok(out)
}

/// Reads `PLATFORM: WHY` or `PLATFORM NAME[I,J,...]: WHY`.
fn deviation(text: &str) -> Option<Deviation> {
    let (head, why) = text.split_once(':')?;
    let mut head = head.split_whitespace();
    let who = head.next()?.to_lowercase();
    let elements = match head.next() {
        None => None,
        Some(list) => {
            let (name, rest) = list.split_once('[')?;
            let indices = rest
                .strip_suffix(']')?
                .split(',')
                .map(|i| i.trim().parse().ok())
                .collect::<Option<Vec<usize>>>()?;
            Some((name.to_string(), indices))
        }
    };
    let why = why.trim().to_string();
    if head.next().is_some() || why.is_empty() {
        return None;
    }
    Some(Deviation { who, elements, why })
}

fn parse(path: &Path) -> Result<TestFile, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let mut file = TestFile {
        path: path.to_path_buf(),
        requires: Vec::new(),
        runs: Vec::new(),
    };
    let mut file_sizes = LocalSizes::Default;
    for (n, line) in text.lines().enumerate() {
        let Some(directive) = line.trim_start().strip_prefix("// ") else {
            continue;
        };
        let at = |m: String| format!("line {}: {m}", n + 1);
        if let Some(rest) = directive.strip_prefix("run:") {
            let args = words(rest).map_err(at)?;
            file.runs.push(Run {
                line: n + 1,
                requires: Vec::new(),
                args,
                expects: Vec::new(),
                build_error: None,
                deviates: Vec::new(),
                local_sizes: file_sizes.clone(),
            });
        } else if let Some(rest) = directive.strip_prefix("local-sizes:") {
            let sizes = local_sizes(rest)
                .ok_or_else(|| at("local-sizes: fixed: WHY, or local-sizes: N N ...".into()))?;
            match file.runs.last_mut() {
                Some(run) => run.local_sizes = sizes,
                None => file_sizes = sizes,
            }
        } else if let Some(rest) = directive.strip_prefix("requires:") {
            let name = rest.trim().to_string();
            match file.runs.last_mut() {
                Some(run) => run.requires.push(name),
                None => file.requires.push(name),
            }
        } else if let Some(rest) = directive.strip_prefix("deviates:") {
            let deviation = deviation(rest).ok_or_else(|| {
                at("deviates: PLATFORM: WHY, or deviates: PLATFORM NAME[I,J,...]: WHY".into())
            })?;
            let run = file
                .runs
                .last_mut()
                .ok_or_else(|| at("deviates before any run".into()))?;
            run.deviates.push(deviation);
        } else if let Some(rest) = directive.strip_prefix("expect build error") {
            let text = match rest.strip_prefix(':') {
                Some(text) => text.trim().to_string(),
                None if rest.trim().is_empty() => String::new(),
                None => return Err(at("expect build error[: TEXT]".into())),
            };
            let run = file
                .runs
                .last_mut()
                .ok_or_else(|| at("expect before any run".into()))?;
            run.build_error = Some(text);
        } else if let Some(rest) = directive.strip_prefix("expect ") {
            let (head, values) = rest
                .split_once(':')
                .ok_or_else(|| at("expect NAME: VALUES".into()))?;
            let mut head = head.split_whitespace();
            let name = head
                .next()
                .ok_or_else(|| at("expect needs an argument name".into()))?;
            let (arg, range) = match name.split_once('[') {
                None => (name.to_string(), None),
                Some((arg, rest)) => {
                    let range = rest
                        .strip_suffix(']')
                        .and_then(|r| r.split_once(".."))
                        .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
                        .filter(|(a, b)| a < b)
                        .ok_or_else(|| at(format!("'{name}' is not NAME[A..B]")))?;
                    (arg.to_string(), Some(range))
                }
            };
            let ulp = match head.next() {
                None => None,
                Some(t) => Some(
                    t.strip_prefix("ulp=")
                        .and_then(|u| u.parse().ok())
                        .ok_or_else(|| at(format!("'{t}' is not ulp=N")))?,
                ),
            };
            let run = file
                .runs
                .last_mut()
                .ok_or_else(|| at("expect before any run".into()))?;
            run.expects.push(Expect {
                arg,
                range,
                ulp,
                values: values.split_whitespace().map(str::to_string).collect(),
            });
        }
    }
    let expects_nothing = |r: &Run| r.expects.is_empty() && r.build_error.is_none();
    if file.runs.is_empty() || file.runs.iter().any(expects_nothing) {
        return Err("every file needs a run line, and every run an expect line".into());
    }
    Ok(file)
}

/// The error of `got` against `want`, in units in the last place of a `float` at `want`
/// (OpenCL C 7.4's ulp: the distance between the two floats nearest `want`). A NaN, zero or
/// infinite `want` is met only exactly (the sign of a zero included): the error is 0 or
/// infinite.
fn ulps(got: f64, want: f64) -> f64 {
    if want.is_nan() || got.is_nan() {
        return if want.is_nan() && got.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if want == 0.0 || want.is_infinite() || got.is_infinite() {
        return if got.to_bits() == want.to_bits() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    // The binade of |want| as a float: [2^e, 2^(e+1)) holds floats 2^(e-23) apart, down to
    // the denormals' spacing 2^-149.
    let biased = ((want.to_bits() >> 52) & 0x7ff) as i32;
    let e = (biased - 1023).max(-126);
    (got - want).abs() / 2f64.powi(e - 23)
}

/// Exact equality: the same text, or the same number written another way (`1e300` for the
/// digits `ferrocl run` prints, `-0.0` for `-0`), the sign of a zero included. Integers are
/// compared as integers (64-bit values are not all doubles).
fn same(want: &str, got: &str) -> bool {
    if want == got {
        return true;
    }
    if let (Ok(w), Ok(g)) = (want.parse::<i128>(), got.parse::<i128>()) {
        // `-0` is a float's negative zero.
        return w == g && (w != 0 || want.starts_with('-') == got.starts_with('-'));
    }
    match (want.parse::<f64>(), got.parse::<f64>()) {
        (Ok(w), Ok(g)) => w.to_bits() == g.to_bits() || (w.is_nan() && g.is_nan()),
        _ => false,
    }
}

/// The indices of the elements of `got` that do not meet `expect` (counted from the start of
/// its range); `None` when the counts differ.
fn mismatches(expect: &Expect, got: &[&str]) -> Option<Vec<usize>> {
    if got.len() != expect.values.len() {
        return None;
    }
    let meets = |want: &str, got: &str| match expect.ulp {
        None => same(want, got),
        Some(ulp) => match (want.parse::<f64>(), got.parse::<f64>()) {
            (Ok(w), Ok(g)) => ulps(g, w) <= ulp,
            _ => false,
        },
    };
    Some(
        expect
            .values
            .iter()
            .zip(got)
            .enumerate()
            .filter(|(_, (w, g))| !meets(w, g))
            .map(|(i, _)| i)
            .collect(),
    )
}

fn matches(expect: &Expect, got: &[&str]) -> bool {
    mismatches(expect, got).is_some_and(|m| m.is_empty())
}

/// A platform the loader lists, with the extensions of its first device, and
/// the environment it runs under.
#[derive(Clone)]
struct Platform {
    name: String,
    vendor: String,
    offers: String,
    env: Option<(&'static str, &'static str)>,
}

impl Platform {
    fn describe(&self) -> String {
        match self.env {
            Some((k, v)) => format!("{} ({k}={v})", self.name),
            None => self.name.clone(),
        }
    }
}

/// How long one `ferrocl` command may take before the runner kills it and fails the run (a
/// kernel that writes past its buffers may corrupt the heap and never return).
const TIME_LIMIT: Duration = Duration::from_secs(120);

fn ferrocl_with(args: &[&str], env: Option<(&str, &str)>) -> std::process::Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ferrocl"));
    command
        .args(args)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some((k, v)) = env {
        command.env(k, v);
    }
    let mut child = command.spawn().expect("ferrocl runs");
    // The pipes are drained while the command runs, so that a large output cannot block it.
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let start = Instant::now();
    let (status, timed_out) = loop {
        if let Some(status) = child.try_wait().expect("wait for ferrocl") {
            break (status, false);
        }
        if start.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            break (child.wait().expect("wait for ferrocl"), true);
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    let mut stderr = stderr.join().expect("stderr read");
    if timed_out {
        stderr.extend_from_slice(format!("killed after {} s\n", TIME_LIMIT.as_secs()).as_bytes());
    }
    std::process::Output {
        status,
        stdout: stdout.join().expect("stdout read"),
        stderr,
    }
}

fn ferrocl(args: &[&str]) -> std::process::Output {
    ferrocl_with(args, None)
}

/// The platforms `ferrocl info --all` lists; each one's first device's extensions, to check
/// `requires` against.
fn platforms() -> Vec<Platform> {
    let out = ferrocl(&["info", "--all"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut list: Vec<Platform> = Vec::new();
    let mut devices_seen = 0;
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("Platform: ") {
            let name = name.trim().to_string();
            // ferrocl with every kernel the vectorizer handles vectorized, the ones its cost
            // model would run one work-item at a time included: with the run below, both
            // kinds of code of every kernel are checked.
            let env = (name == "ferrocl").then_some(("FERROCL_VECTORIZE", "always"));
            list.push(Platform {
                name,
                vendor: String::new(),
                offers: String::new(),
                env,
            });
            devices_seen = 0;
        } else if let Some(vendor) = line.trim_start().strip_prefix("Vendor: ") {
            if let (Some(p), 0) = (list.last_mut(), devices_seen) {
                p.vendor = vendor.trim().to_string();
            }
        } else if line.trim_start().starts_with("Device ") {
            devices_seen += 1;
        } else if devices_seen == 1 {
            let line = line.trim_start();
            if line.starts_with("Extensions:") {
                if let Some(p) = list.last_mut() {
                    p.offers.push_str(line);
                    p.offers.push(' ');
                }
            }
        }
    }
    // The differential mode: ferrocl again with vectorization across work-items off, which
    // must compute the same.
    if let Some(f) = list.iter().find(|p| p.name == "ferrocl").cloned() {
        list.push(Platform {
            env: Some(("FERROCL_VECTORIZE", "0")),
            ..f
        });
    }
    list
}

/// Whether the platform's first device offers `name`: an extension it lists, or an optional
/// feature of OpenCL C 3.0 (`__opencl_c_...`), which its compiler defines as a macro when the
/// device supports it (6.2.1) — found by building a program that needs the macro, once per
/// platform and feature.
fn offers(platform: &Platform, name: &str, probed: &mut HashMap<(String, String), bool>) -> bool {
    if let Some(n) = name.strip_prefix("sub-group-size=") {
        let key = (platform.describe(), name.to_string());
        if let Some(&known) = probed.get(&key) {
            return known;
        }
        let known = sub_group_size(platform).is_some_and(|s| s == n.trim());
        probed.insert(key, known);
        return known;
    }
    if !name.starts_with("__opencl_c_") {
        return platform.offers.split_whitespace().any(|o| o == name);
    }
    let key = (platform.describe(), name.to_string());
    if let Some(&known) = probed.get(&key) {
        return known;
    }
    let probe = std::env::temp_dir().join(format!(
        "ferrocl-kernel-files-{}-{name}.cl",
        std::process::id()
    ));
    std::fs::write(
        &probe,
        format!("#ifndef {name}\n#error {name}\n#endif\nkernel void probe(global int *x) {{ x[0] = 1; }}\n"),
    )
    .expect("write the probe");
    let path = probe.to_string_lossy().into_owned();
    let out = ferrocl_with(
        &[
            "build",
            &path,
            "--platform",
            &platform.name,
            "--options",
            "-cl-std=CL3.0",
        ],
        platform.env,
    );
    let _ = std::fs::remove_file(&probe);
    let known = out.status.success();
    probed.insert(key, known);
    known
}

/// The largest sub-group of a work-group of 64 on the platform's device, as
/// `get_max_sub_group_size` gives it, or `None` where the kernel does not run.
fn sub_group_size(platform: &Platform) -> Option<String> {
    let probe = std::env::temp_dir().join(format!(
        "ferrocl-kernel-files-{}-sub-group-size.cl",
        std::process::id()
    ));
    let source =
        "kernel void probe(global uint *o) { o[get_global_id(0)] = get_max_sub_group_size(); }\n";
    std::fs::write(&probe, source).expect("write the probe");
    let path = probe.to_string_lossy().into_owned();
    let out = ferrocl_with(
        &[
            "run",
            &path,
            "--platform",
            &platform.name,
            "--kernel",
            "probe",
            "--global",
            "64",
            "--local",
            "64",
            "--options",
            "-cl-std=CL3.0",
            "--arg",
            "uint[64]",
            "--print",
            "o",
        ],
        platform.env,
    );
    let _ = std::fs::remove_file(&probe);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().find_map(|l| l.strip_prefix("o:"))?;
    line.split_whitespace().next().map(str::to_string)
}

fn test_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            test_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "cl") {
            out.push(path);
        }
    }
}

/// Runs one file on one platform; the failures, described.
/// Whether the platform offers everything in `requires`; if not, says so (`place`: the file,
/// or the file and line of a run) and, for ferrocl, adds a failure: the files test ferrocl,
/// and what they need it must offer.
fn available(
    requires: &[String],
    platform: &Platform,
    place: &str,
    probed: &mut HashMap<(String, String), bool>,
    failures: &mut Vec<String>,
) -> bool {
    let Some(missing) = requires.iter().find(|r| !offers(platform, r, probed)) else {
        return true;
    };
    if platform.name == "ferrocl" && !missing.starts_with("sub-group-size=") {
        failures.push(format!(
            "{place}: ferrocl ({}) does not offer {missing}, which the file requires",
            platform.describe()
        ));
    } else {
        eprintln!(
            "skipped {place} on {}: the device does not offer {missing}",
            platform.describe()
        );
    }
    false
}

fn run_file(
    file: &TestFile,
    platform: &Platform,
    probed: &mut HashMap<(String, String), bool>,
) -> Vec<String> {
    let mut failures = Vec::new();
    let path = file.path.to_string_lossy().into_owned();
    let words = format!("{} {}", platform.name, platform.vendor).to_lowercase();
    for run in &file.runs {
        let place = format!("{path}:{}", run.line);
        if !available(&run.requires, platform, &place, probed, &mut failures) {
            continue;
        }
        let deviation = run.deviates.iter().find(|d| {
            words
                .split(|c: char| !c.is_alphanumeric())
                .any(|w| w == d.who)
        });
        let elements = deviation.and_then(|d| d.elements.as_ref());
        if platform.name == "ferrocl" && run.build_error.is_none() {
            let sizes: &[usize] = match &run.local_sizes {
                LocalSizes::Default => &EXTRA_LOCAL_SIZES,
                LocalSizes::Fixed => &[],
                LocalSizes::These(list) => list,
            };
            for &size in sizes {
                if let Some(args) = at_local_size(&run.args, size) {
                    let other = Run {
                        args,
                        ..run.clone()
                    };
                    run_once(&path, &other, platform, None, &mut failures);
                }
            }
        }
        let before = failures.len();
        let noted = run_once(&path, run, platform, elements, &mut failures);
        let Some(d) = deviation else {
            continue;
        };
        let whole = d.elements.is_none() && failures.len() > before;
        if whole || noted {
            eprintln!(
                "{path}:{} on {}: deviates as noted: {}",
                run.line,
                platform.describe(),
                d.why
            );
            if whole {
                failures.truncate(before);
            }
        } else if failures.len() == before {
            failures.push(format!(
                "{path}:{} on {}: no longer deviates ({}): remove its deviates line",
                run.line,
                platform.describe(),
                d.why
            ));
        }
    }
    failures
}

/// Runs one `run` line of a file on one platform, adding its failures, described. The
/// elements of `deviating` may differ from what is expected, and must; returns whether any
/// did.
fn run_once(
    path: &str,
    run: &Run,
    platform: &Platform,
    deviating: Option<&(String, Vec<usize>)>,
    failures: &mut Vec<String>,
) -> bool {
    let mut args: Vec<&str> = vec!["run", path, "--platform", &platform.name];
    args.extend(run.args.iter().map(String::as_str));
    for e in &run.expects {
        args.extend(["--print", e.arg.as_str()]);
    }
    let out = ferrocl_with(&args, platform.env);
    let stdout = String::from_utf8_lossy(&out.stdout);
    if let Some(text) = &run.build_error {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let failed = !out.status.success() && stderr.contains("build failed on");
        let logged = platform.name != "ferrocl" || stderr.contains(text.as_str());
        if !failed || !logged {
            failures.push(format!(
                "{path}:{} on {}: `ferrocl {}` should fail to build{}:\n{stderr}",
                run.line,
                platform.describe(),
                args.join(" "),
                if text.is_empty() {
                    String::new()
                } else {
                    format!(" with '{text}' in the log")
                }
            ));
        }
        return false;
    }
    if !out.status.success() {
        failures.push(format!(
            "{path}:{} on {}: `ferrocl {}` failed:\n{}",
            run.line,
            platform.describe(),
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        ));
        return false;
    }
    // `--print` writes one `NAME: VALUES` line per argument, in the order asked.
    let lines: Vec<&str> = stdout.lines().collect();
    let mut noted = false;
    for (k, e) in run.expects.iter().enumerate() {
        let mut got: Vec<&str> = lines
            .get(k)
            .and_then(|l| l.split_once(": "))
            .map_or(Vec::new(), |(_, v)| v.split_whitespace().collect());
        if let Some((a, b)) = e.range {
            got = got.get(a..b).map_or(Vec::new(), <[&str]>::to_vec);
        }
        let start = e.range.map_or(0, |(a, _)| a);
        let name = match e.range {
            Some((a, b)) => format!("{}[{a}..{b}]", e.arg),
            None => e.arg.clone(),
        };
        let head = format!(
            "{path}:{} on {}: argument {name}{}",
            run.line,
            platform.describe(),
            e.ulp
                .map_or(String::new(), |u| format!(" (within {u} ulp)"))
        );
        let Some(wrong) = mismatches(e, &got) else {
            failures.push(format!(
                "{head}\n  want: {}\n  got:  {}",
                e.values.join(" "),
                got.join(" ")
            ));
            continue;
        };
        let known: &[usize] = match deviating {
            Some((arg, list)) if *arg == e.arg => list,
            _ => &[],
        };
        let in_range = |i: &usize| (start..start + e.values.len()).contains(i);
        let unexpected: Vec<usize> = wrong
            .iter()
            .map(|i| i + start)
            .filter(|i| !known.contains(i))
            .collect();
        let stale: Vec<usize> = known
            .iter()
            .copied()
            .filter(|i| in_range(i) && !wrong.contains(&(i - start)))
            .collect();
        noted |= wrong.len() > unexpected.len();
        if !unexpected.is_empty() {
            let detail: Vec<String> = unexpected
                .iter()
                .take(12)
                .map(|&i| {
                    format!(
                        "  element {i}: want {}, got {}",
                        e.values[i - start],
                        got[i - start]
                    )
                })
                .collect();
            failures.push(format!(
                "{head}: {} element(s) wrong\n{}",
                unexpected.len(),
                detail.join("\n")
            ));
        }
        if !stale.is_empty() {
            failures.push(format!(
                "{head}: elements {stale:?} no longer deviate: take them off the deviates line"
            ));
        }
    }
    noted
}

#[test]
fn kernel_files_give_the_expected_results_on_every_platform() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/kernels");
    let mut paths = Vec::new();
    test_files(&root, &mut paths);
    assert!(!paths.is_empty(), "no kernel files in {}", root.display());
    let platforms = platforms();
    assert!(
        platforms.iter().any(|p| p.name == "ferrocl"),
        "ferrocl is not among the platforms"
    );
    let mut failures = Vec::new();
    let mut ran = 0;
    let mut probed = HashMap::new();
    for path in &paths {
        let file = match parse(path) {
            Ok(f) => f,
            Err(e) => {
                failures.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        for platform in &platforms {
            let place = path.display().to_string();
            if !available(&file.requires, platform, &place, &mut probed, &mut failures) {
                continue;
            }
            failures.extend(run_file(&file, platform, &mut probed));
            ran += 1;
        }
    }
    eprintln!(
        "{ran} file runs over {} platform(s): {}",
        platforms.len(),
        platforms
            .iter()
            .map(Platform::describe)
            .collect::<Vec<_>>()
            .join(", ")
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn directives_are_read_as_written() {
    assert_eq!(
        words("--arg 'float[4]=1' -D N=4").unwrap(),
        ["--arg", "float[4]=1", "-D", "N=4"]
    );
    assert!(words("'open").is_err());
    assert_eq!(ulps(1.0, 1.0), 0.0);
    assert_eq!(ulps(0.0, -0.0), f64::INFINITY);
    assert_eq!(
        ulps(f64::from(f32::from_bits(1.0f32.to_bits() + 2)), 1.0),
        2.0
    );
    // A fraction of an ulp counts: the expected value lies between two floats.
    assert_eq!(ulps(1.0, 1.0 + 2f64.powi(-25)), 0.25);
    assert_eq!(ulps(f64::NAN, f64::NAN), 0.0);
    assert_eq!(ulps(f64::INFINITY, f64::from(f32::MAX)), f64::INFINITY);
    assert_eq!(ulps(2f64.powi(-149), 2f64.powi(-148)), 1.0);
    let e = Expect {
        arg: "y".into(),
        range: None,
        ulp: Some(1.0),
        values: vec!["1".into(), "NaN".into()],
    };
    assert!(matches(&e, &["1.0000001", "NaN"]));
    assert!(!matches(&e, &["1.0000002", "NaN"]));
    assert!(!matches(&e, &["1"]));
    let exact = Expect {
        arg: "d".into(),
        range: None,
        ulp: None,
        values: vec!["1e300".into(), "-0".into(), "inf".into(), "7".into()],
    };
    let digits = format!("{}", 1e300);
    assert!(matches(&exact, &[&digits, "-0", "inf", "7"]));
    assert!(!matches(&exact, &[&digits, "0", "inf", "7"]));
    assert!(!matches(&exact, &[&digits, "-0", "inf", "7.5"]));
    assert!(!same("18446744073709551615", "18446744073709551614"));
    assert!(same("-0.0", "-0") && same("0.10", "0.1"));
    let file = std::env::temp_dir().join(format!("ferrocl-directives-{}.cl", std::process::id()));
    std::fs::write(
        &file,
        "// run: --kernel k --global 1 --arg 'int[4]'\n// expect o[1..3] ulp=0.5: 1 2\n\
         // deviates: pocl: a reason\n// run: --kernel k --global 1\n// expect build error: x\n",
    )
    .unwrap();
    let parsed = parse(&file);
    std::fs::write(&file, "// run: --global 1\n// expect o[3..1]: 1\n").unwrap();
    let backwards = parse(&file);
    let _ = std::fs::remove_file(&file);
    let parsed = parsed.unwrap();
    assert_eq!(parsed.runs[0].expects[0].range, Some((1, 3)));
    assert_eq!(parsed.runs[0].expects[0].ulp, Some(0.5));
    assert_eq!(
        parsed.runs[0].deviates,
        [Deviation {
            who: "pocl".into(),
            elements: None,
            why: "a reason".into()
        }]
    );
    assert_eq!(
        deviation(" PoCL o[3,17]: 7.5.1 says"),
        Some(Deviation {
            who: "pocl".into(),
            elements: Some(("o".into(), vec![3, 17])),
            why: "7.5.1 says".into()
        })
    );
    assert_eq!(deviation(" pocl o[x]: why"), None);
    assert_eq!(deviation(" pocl:"), None);
    assert_eq!(parsed.runs[1].build_error.as_deref(), Some("x"));
    assert_eq!(
        local_sizes(" fixed: one result per group"),
        Some(LocalSizes::Fixed)
    );
    assert_eq!(local_sizes(" fixed"), None);
    assert_eq!(local_sizes(" fixed: "), None);
    assert_eq!(local_sizes(" 1 3"), Some(LocalSizes::These(vec![1, 3])));
    assert_eq!(local_sizes(" 0"), None);
    let args = |text: &str| words(text).unwrap();
    assert_eq!(
        at_local_size(&args("--global 16,2 --local 8,2 --arg int:1"), 4),
        Some(args("--global 16,2 --arg int:1 --local 4,2"))
    );
    assert_eq!(
        at_local_size(&args("--global 16"), 3),
        Some(args("--global 16 --local 3 --options -cl-std=CL3.0"))
    );
    assert_eq!(
        at_local_size(&args("--global 16 --options '-cl-std=CL2.0 -DN=1'"), 3),
        Some(args(
            "--global 16 --options '-cl-std=CL2.0 -DN=1' --local 3"
        ))
    );
    assert_eq!(
        at_local_size(&args("--global 16 --options -cl-std=CL1.2"), 3),
        None
    );
    assert_eq!(at_local_size(&args("--global 16 --local 3"), 3), None);
    assert_eq!(at_local_size(&args("--global 2"), 3), None);
    assert!(backwards.unwrap_err().contains("not NAME[A..B]"));
}
