//! `ferrocl bench`: the same kernel suite (`suite.rs`) on each platform asked for, through the
//! system's ICD loader. Each kernel's result is checked against a host reference before it is
//! timed; times are medians over repetitions after a warm-up, on the device (profiling events)
//! and on the wall clock (enqueue to finish). One table, or JSON with `--json`.

mod patterns;
mod suite;

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use crate::build::Session;
use crate::cl::{self, Buffer, Context, Kernel, Target};
use crate::json::Value;
use crate::Failure;
use opencl_sys::{CL_DEVICE_IMAGE_SUPPORT, CL_DEVICE_MAX_MEM_ALLOC_SIZE};
use suite::{Arg, Case, Scale, Unit};

/// The command line of `bench`.
#[derive(Debug, Default)]
pub struct Options {
    pub platforms: Vec<String>,
    /// The index of the device to use in each platform.
    pub device: usize,
    pub filters: Vec<String>,
    pub json: bool,
    pub quick: bool,
    /// The bandwidth rows with arrays larger than the caches (STREAM's rule).
    pub stream: bool,
    /// Sizes for milliseconds of a large GPU's time per kernel.
    pub large: bool,
    /// `--local N`: the rows that leave the local size to the device run in groups of N
    /// along x instead (their results must not change).
    pub local: Option<usize>,
    /// `--scalar`: a column of ferrocl with its vectorizer off (`-cl-ferrocl-no-vectorize`)
    /// beside ferrocl's, for the kernel rows; its ratio is how much vectorizing gains.
    pub scalar: bool,
    pub library: Option<std::path::PathBuf>,
}

pub fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options::default();
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        let mut value = || {
            i += 1;
            args.get(i)
                .cloned()
                .ok_or_else(|| format!("bench: {arg} needs a value"))
        };
        match arg {
            "--platform" => o.platforms.push(value()?),
            "--device" => {
                let v = value()?;
                o.device = v
                    .parse()
                    .map_err(|_| format!("bench: --device takes a device index, not '{v}'"))?;
            }
            "--filter" => o.filters.push(value()?),
            "--library" => o.library = Some(value()?.into()),
            "--json" => o.json = true,
            "--quick" => o.quick = true,
            "--stream" => o.stream = true,
            "--large" => o.large = true,
            "--scalar" => o.scalar = true,
            "--local" => {
                let v = value()?;
                o.local = Some(v.parse().ok().filter(|&n| n > 0).ok_or_else(|| {
                    format!("bench: --local takes a work-group size above 0, not '{v}'")
                })?);
            }
            other => return Err(format!("bench: unknown option '{other}'")),
        }
        i += 1;
    }
    if [o.quick, o.stream, o.large].iter().filter(|&&b| b).count() > 1 {
        return Err(
            "bench: --quick, --stream and --large ask for different sizes; give one".into(),
        );
    }
    Ok(o)
}

/// What one platform did with one row.
#[derive(Clone, Debug)]
pub enum Outcome {
    Measured {
        /// Median device time (profiling events), in seconds.
        device: f64,
        /// Median enqueue-to-finish wall time, in seconds.
        wall: f64,
        /// Work per run in the row's unit (bytes or operations), when it has one.
        work: Option<f64>,
        /// How this measurement differs from the row's others, for a note under the table.
        note: Option<String>,
    },
    NotAvailable(String),
}

impl Outcome {
    /// The time the table shows and ratios use: the device time where the row has work, the
    /// wall time for the latency and build rows.
    fn time(&self, has_work: bool) -> Option<f64> {
        match self {
            Outcome::Measured { device, wall, .. } => Some(if has_work { *device } else { *wall }),
            Outcome::NotAvailable(_) => None,
        }
    }
}

/// One row of the table: a kernel, or the latency or build row.
pub struct Row {
    pub name: String,
    pub category: &'static str,
    pub unit: Option<Unit>,
    pub outcomes: Vec<Outcome>,
    /// The bytes of the kernel's buffers, where a platform made it ready.
    pub buffer_bytes: Option<usize>,
    /// How the row's problem differs from its usual size on every platform (shrunk to fit
    /// the devices' allocation limit).
    pub note: Option<String>,
}

/// The platforms the run covers, in the order asked (all of them, ferrocl first, when none
/// is named).
fn targets(
    session: &Session,
    patterns: &[String],
    device: usize,
) -> Result<Vec<Result<Target, String>>, Failure> {
    if !patterns.is_empty() {
        return Ok(patterns
            .iter()
            .map(|p| {
                session.find(p, device).map_err(|e| match e {
                    Failure::Error(m) | Failure::Usage(m) => m,
                })
            })
            .collect());
    }
    let platforms = session
        .api
        .platforms()
        .map_err(|e| Failure::Error(e.to_string()))?;
    if platforms.is_empty() {
        return Err(Failure::Error(format!(
            "no OpenCL platform found{}",
            session
                .note
                .as_deref()
                .map_or(String::new(), |n| format!("; {n}"))
        )));
    }
    let mut targets: Vec<Result<Target, String>> = platforms
        .iter()
        .map(|&p| session.api.target(p, device))
        .collect();
    targets.sort_by_key(|t| !t.as_ref().is_ok_and(|t| t.platform_name == "ferrocl"));
    Ok(targets)
}

/// The progress line on stderr: rewritten in place on a terminal, one line each otherwise.
struct Progress {
    terminal: bool,
}

impl Progress {
    fn show(&self, text: &str) {
        let mut err = std::io::stderr();
        if self.terminal {
            let _ = write!(err, "\r\x1b[2K{text}");
        } else {
            let _ = writeln!(err, "{text}");
        }
        let _ = err.flush();
    }

    fn done(&self) {
        if self.terminal {
            let _ = write!(std::io::stderr(), "\r\x1b[2K");
        }
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n == 0 {
        return f64::NAN;
    }
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

/// How long to repeat each kernel, and how often at least and at most.
struct Repeat {
    min: usize,
    max: usize,
    budget: Duration,
}

/// Runs the kernel `repeat` times after one warm-up; the runs' times, and the time they took.
fn time(
    context: &Context,
    kernel: &Kernel,
    global: &[usize],
    local: Option<&[usize]>,
    repeat: &Repeat,
) -> cl::Result<(Samples, Duration)> {
    context.enqueue(kernel, global, local)?.wait()?;
    let mut samples = Samples::default();
    let start = Instant::now();
    while samples.wants_more(repeat, start.elapsed()) {
        samples.take(context, kernel, global, local)?;
    }
    Ok((samples, start.elapsed()))
}

/// The device and wall times of a kernel's timed runs, in seconds.
#[derive(Default)]
struct Samples {
    device: Vec<f64>,
    wall: Vec<f64>,
}

impl Samples {
    /// Whether to go on after `spent` of timed runs.
    fn wants_more(&self, repeat: &Repeat, spent: Duration) -> bool {
        let n = self.device.len();
        n < repeat.min || (n < repeat.max && spent < repeat.budget)
    }

    /// One timed run: enqueue to finish, and the device time of its profiling event.
    fn take(
        &mut self,
        context: &Context,
        kernel: &Kernel,
        global: &[usize],
        local: Option<&[usize]>,
    ) -> cl::Result<()> {
        let t = Instant::now();
        let event = context.enqueue(kernel, global, local)?;
        context.finish()?;
        let wall = t.elapsed().as_secs_f64();
        self.wall.push(wall);
        // Without profiling information the wall time stands for the device time.
        self.device
            .push(event.device_ns().map_or(wall, |ns| ns as f64 * 1e-9));
        Ok(())
    }

    fn medians(self) -> (f64, f64) {
        (median(self.device), median(self.wall))
    }
}

/// How many turns a case's timed runs take at least on each platform (see [`time_in_turns`]).
const TURNS: usize = 5;

/// A case made ready on one platform: built, its arguments set, its first result checked.
struct Ready<'a> {
    context: &'a Context<'a>,
    kernel: Kernel<'a>,
    global: Vec<usize>,
    local: Option<Vec<usize>>,
    /// The work of one run, in the row's unit.
    work: f64,
    /// The bytes of its buffers.
    buffer_bytes: usize,
    /// The kernel's buffers, alive while it runs.
    _buffers: Vec<Buffer<'a>>,
    samples: Samples,
    /// Time spent in timed runs so far.
    spent: Duration,
}

/// Builds one case on one platform, sets its arguments, runs it once and checks the result.
fn prepare<'a>(
    context: &'a Context<'a>,
    case: &Case,
    scale: Scale,
    local: Option<usize>,
    column_options: &str,
) -> Result<Ready<'a>, Outcome> {
    let n_a = |e: cl::ClError| Outcome::NotAvailable(e.to_string());
    let mut problem = (case.make)(scale);
    // `--local N` for a row that leaves the local size to the device; where N does not
    // divide the global size the last group is smaller, which needs OpenCL C 2.0 or later
    // (API 3.0, 5.10: non-uniform work-groups).
    let mut options = column_options.to_string();
    if let (None, Some(n)) = (&problem.local, local) {
        let mut sizes = vec![1; problem.global.len()];
        sizes[0] = n.min(problem.global[0]);
        if problem.global[0] % sizes[0] != 0 {
            options.push_str(" -cl-std=CL3.0");
        }
        problem.local = Some(sizes);
    }
    let build = context.build(case.source, options.trim()).map_err(n_a)?;
    if let Some(error) = build.error {
        return Err(Outcome::NotAvailable(build_reason(&error, &build.log)));
    }
    let kernel = build.program.kernel(case.kernel).map_err(n_a)?;
    let mut buffers: Vec<Option<Buffer>> = Vec::new();
    // Images are inputs only: kept alive for the runs, never read back.
    let mut images: Vec<Buffer> = Vec::new();
    for (i, arg) in problem.args.iter().enumerate() {
        let index = i as u32;
        let buffer = match arg {
            Arg::Value(bytes) => kernel.set_arg_bytes(index, bytes).map(|()| None),
            Arg::Local(size) => kernel.set_arg_local(index, *size).map(|()| None),
            Arg::Buffer(data) => context.buffer(data.len()).and_then(|buffer| {
                context.write(&buffer, data)?;
                kernel.set_arg_buffer(index, &buffer)?;
                Ok(Some(buffer))
            }),
            Arg::ImageRgba8 {
                width,
                height,
                data,
            } => context
                .image_rgba8(*width, *height, data)
                .and_then(|image| {
                    kernel.set_arg_buffer(index, &image)?;
                    images.push(image);
                    Ok(None)
                }),
        };
        buffers.push(buffer.map_err(n_a)?);
    }
    let local = problem.local.as_deref();
    context
        .enqueue(&kernel, &problem.global, local)
        .and_then(|event| event.wait())
        .map_err(n_a)?;
    let outputs = buffers
        .iter()
        .map(|buffer| buffer.as_ref().map_or(Ok(Vec::new()), |b| context.read(b)))
        .collect::<cl::Result<Vec<_>>>()
        .map_err(n_a)?;
    let work = (problem.check)(&outputs)
        .map_err(|e| Outcome::NotAvailable(format!("wrong result: {e}")))?;
    let buffer_bytes = problem
        .args
        .iter()
        .map(|arg| match arg {
            Arg::Buffer(data) | Arg::ImageRgba8 { data, .. } => data.len(),
            Arg::Value(_) | Arg::Local(_) => 0,
        })
        .sum();
    Ok(Ready {
        context,
        kernel,
        global: problem.global,
        local: problem.local,
        work,
        buffer_bytes,
        _buffers: buffers.into_iter().flatten().chain(images).collect(),
        samples: Samples::default(),
        spent: Duration::ZERO,
    })
}

/// Times one case on every platform where it is ready, the platforms taking turns: each turn
/// is one untimed run (which brings the platform's data back into the caches after the
/// others' turns) and timed runs for up to a [`TURNS`]th of the budget and of the most runs.
/// A shared machine's speed drifts over seconds and minutes; in turns, every platform's runs
/// of a case spread over the same stretch of time, so the drift moves their times alike,
/// where timing one platform after another compared each with the others at another moment.
fn time_in_turns(ready: &mut [Result<Ready, Outcome>], repeat: &Repeat) {
    let turn = Repeat {
        min: 1,
        max: repeat.max.div_ceil(TURNS),
        budget: repeat.budget / TURNS as u32,
    };
    loop {
        let mut any = false;
        for slot in ready.iter_mut() {
            let Ok(r) = slot else { continue };
            if !r.samples.wants_more(repeat, r.spent) {
                continue;
            }
            any = true;
            if let Err(e) = r.turn(&turn) {
                *slot = Err(Outcome::NotAvailable(e.to_string()));
            }
        }
        if !any {
            return;
        }
    }
}

impl Ready<'_> {
    /// One turn of [`time_in_turns`].
    fn turn(&mut self, turn: &Repeat) -> cl::Result<()> {
        let local = self.local.as_deref();
        let (mut runs, spent) = time(self.context, &self.kernel, &self.global, local, turn)?;
        self.spent += spent;
        self.samples.device.append(&mut runs.device);
        self.samples.wall.append(&mut runs.wall);
        Ok(())
    }

    fn outcome(self) -> Outcome {
        let work = self.work;
        let (device, wall) = self.samples.medians();
        Outcome::Measured {
            device,
            wall,
            work: Some(work),
            note: None,
        }
    }
}

/// Why a build failed, in one line: the error code and the log's first error.
fn build_reason(error: &cl::ClError, log: &str) -> String {
    let first = log
        .lines()
        .find(|l| l.contains("error"))
        .or_else(|| log.lines().find(|l| !l.trim().is_empty()))
        .map(|l| format!(": {}", l.trim()))
        .unwrap_or_default();
    format!("build failed ({}){first}", cl::error_name(error.code))
}

/// Enqueue-to-finish wall time of an empty kernel over one work-item.
fn latency(context: &Context, quick: bool) -> Outcome {
    let mut build = match context.build(suite::EMPTY, "") {
        Ok(build) => build,
        Err(e) => return Outcome::NotAvailable(e.to_string()),
    };
    let mut note = None;
    if build
        .error
        .as_ref()
        .is_some_and(|e| e.code == opencl_sys::CL_COMPILER_NOT_AVAILABLE)
    {
        // Launching does not involve the compiler: a platform without one (ferrocl, until
        // its compiler is wired in) may take the same empty kernel as a ferrocl program
        // binary instead.
        let module = ferrocl_ir::parse_module(suite::EMPTY_IR).expect("the empty kernel parses");
        let binary = ferrocl_ir::serialize::serialize(&module);
        if let Ok(from_binary) = context.build_input(&cl::Input::Binary(&binary), "") {
            if from_binary.error.is_none() {
                build = from_binary;
                note = Some(
                    "launch-latency: the empty kernel built from ferrocl IR (no OpenCL C compiler)"
                        .to_string(),
                );
            }
        }
    }
    if let Some(error) = build.error {
        return Outcome::NotAvailable(build_reason(&error, &build.log));
    }
    let kernel = match build.program.kernel("empty") {
        Ok(kernel) => kernel,
        Err(e) => return Outcome::NotAvailable(e.to_string()),
    };
    let repeat = Repeat {
        min: if quick { 10 } else { 200 },
        max: if quick { 10 } else { 2000 },
        budget: Duration::from_millis(if quick { 10 } else { 500 }),
    };
    match time(context, &kernel, &[1], None, &repeat).map(|(samples, _)| samples.medians()) {
        Ok((device, wall)) => Outcome::Measured {
            device,
            wall,
            work: None,
            note,
        },
        Err(e) => Outcome::NotAvailable(e.to_string()),
    }
}

/// A value no cache has seen (the clock's), for `-DFERROCL_BENCH_NONCE`: a positive `int`.
fn nonce() -> u32 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos() ^ d.as_secs() as u32)
        & 0x7fff_ffff
}

/// A kernel that stores `FERROCL_BENCH_NONCE`, added to a build's source so that the compiled
/// module differs from any built before: a cache keyed by the module (ferrocl's code cache
/// is) holds nothing of it, as none keyed by the source or the options does.
fn nonce_kernel(name: &str) -> String {
    format!("\nkernel void {name}(global int *p) {{ p[0] = FERROCL_BENCH_NONCE; }}\n")
}

/// clBuildProgram of the whole suite's source, with a value no cache has seen compiled into
/// one more kernel (`nonce_kernel`); on a device without images, of the kernels that use
/// none (the note says so).
fn build_time(context: &Context) -> Outcome {
    let images = context
        .api
        .device_u64(context.device, CL_DEVICE_IMAGE_SUPPORT)
        .is_ok_and(|v| v != 0);
    let source = suite::all_sources(images) + &nonce_kernel("suite_nonce");
    let nonce = nonce();
    let start = Instant::now();
    let build = match context.build(&source, &format!("-DFERROCL_BENCH_NONCE={nonce}")) {
        Ok(build) => build,
        Err(e) => return Outcome::NotAvailable(e.to_string()),
    };
    let seconds = start.elapsed().as_secs_f64();
    match build.error {
        Some(error) => Outcome::NotAvailable(build_reason(&error, &build.log)),
        None => Outcome::Measured {
            device: seconds,
            wall: seconds,
            work: None,
            note: (!images)
                .then(|| "the suite without its image kernels (no image support)".into()),
        },
    }
}

/// The small kernels `small_builds` builds: one `shuffle` from a vector of `n` to one of `m`
/// elements of a type, for every type and pair of widths (as a conformance suite builds one
/// program per type pair); the first 16 with `--quick`.
fn small_kernels(quick: bool) -> Vec<String> {
    const TYPES: [(&str, &str); 9] = [
        ("char", "uchar"),
        ("uchar", "uchar"),
        ("short", "ushort"),
        ("ushort", "ushort"),
        ("int", "uint"),
        ("uint", "uint"),
        ("long", "ulong"),
        ("ulong", "ulong"),
        ("float", "uint"),
    ];
    let mut sources = Vec::new();
    for (t, mask) in TYPES {
        for n in [2, 4, 8, 16] {
            for m in [2, 4, 8, 16] {
                let lanes: Vec<String> = (0..m).map(|i| ((i * 7 + 3) % n).to_string()).collect();
                sources.push(format!(
                    "__kernel void k(__global const {t}{n} *in, __global {t}{m} *out) {{\n    \
                     size_t i = get_global_id(0);\n    \
                     out[i] = shuffle(in[i], ({mask}{m})({}));\n}}\n",
                    lanes.join(", ")
                ));
            }
        }
    }
    sources.truncate(if quick { 16 } else { sources.len() });
    sources
}

/// clBuildProgram and clCreateKernel of each small kernel (`small_kernels`), with a value no
/// cache has seen compiled into one more kernel (`nonce_kernel`, which a define alone is not:
/// ferrocl's code cache, keyed by the compiled module, answered the rows once a first run had
/// filled it): the median and the slowest.
fn small_builds(context: &Context, quick: bool) -> [Outcome; 2] {
    let nonce = nonce();
    let mut times = Vec::new();
    for source in small_kernels(quick) {
        let source = source + &nonce_kernel("small_nonce");
        let start = Instant::now();
        let build = match context.build(&source, &format!("-DFERROCL_BENCH_NONCE={nonce}")) {
            Ok(build) => build,
            Err(e) => return [0, 1].map(|_| Outcome::NotAvailable(e.to_string())),
        };
        if let Some(error) = build.error {
            let reason = build_reason(&error, &build.log);
            return [0, 1].map(|_| Outcome::NotAvailable(reason.clone()));
        }
        if let Err(e) = build.program.kernel("k") {
            return [0, 1].map(|_| Outcome::NotAvailable(e.to_string()));
        }
        times.push(start.elapsed().as_secs_f64());
    }
    let slowest = times.iter().copied().fold(0.0, f64::max);
    let measured = |seconds: f64| Outcome::Measured {
        device: seconds,
        wall: seconds,
        work: None,
        note: None,
    };
    [measured(median(times)), measured(slowest)]
}

/// A large kernel with its loops unrolled: the blocked LU decomposition of `examples/lu.cl`
/// at `-DBLOCK_SIZE=16`, three kernels of straight-line code (`large_builds`).
const LARGE: &str = include_str!("../../../examples/lu.cl");

/// The kernels of [`LARGE`].
const LARGE_KERNELS: [&str; 3] = ["lu_diagonal", "lu_perimeter", "lu_internal"];

/// clBuildProgram and clCreateKernel of every kernel of the large unrolled program
/// ([`LARGE`]), twice, each time in a new program object: first with a value no cache has
/// seen compiled into one more kernel (so that a cache keyed by the source, the options or
/// the compiled module holds nothing of it), then again with the same source and options
/// (what a platform's program cache gives a program that starts again: ferrocl's cache is on
/// disk, so this process reads it as a new one would).
fn large_builds(context: &Context) -> [Outcome; 2] {
    let nonce = nonce();
    let source = format!("{LARGE}{}", nonce_kernel("lu_nonce"));
    let options = format!("-DBLOCK_SIZE=16 -DFERROCL_BENCH_NONCE={nonce}");
    let once = || -> Result<f64, Outcome> {
        let n_a = |e: cl::ClError| Outcome::NotAvailable(e.to_string());
        let start = Instant::now();
        let build = context.build(&source, &options).map_err(n_a)?;
        if let Some(error) = build.error {
            return Err(Outcome::NotAvailable(build_reason(&error, &build.log)));
        }
        for name in LARGE_KERNELS.iter().chain(&["lu_nonce"]) {
            build.program.kernel(name).map_err(n_a)?;
        }
        Ok(start.elapsed().as_secs_f64())
    };
    let measured = |seconds: f64| Outcome::Measured {
        device: seconds,
        wall: seconds,
        work: None,
        note: None,
    };
    match (once(), once()) {
        (Ok(first), Ok(again)) => [measured(first), measured(again)],
        (Err(e), _) | (_, Err(e)) => [e.clone(), e],
    }
}

/// How the launch or the build row measures a platform (the second argument: `--quick`).
type Measure = fn(&Context, bool) -> Outcome;

pub fn command(args: &[String]) -> Result<String, Failure> {
    let o = parse(args).map_err(Failure::Usage)?;
    let cases: Vec<&Case> = suite::CASES
        .iter()
        .filter(|c| o.filters.is_empty() || o.filters.iter().any(|f| c.name.contains(f.as_str())))
        .collect();
    let want_latency = o.filters.is_empty()
        || o.filters
            .iter()
            .any(|f| "launch-latency".contains(f.as_str()));
    let want_build =
        o.filters.is_empty() || o.filters.iter().any(|f| "build-time".contains(f.as_str()));
    let want_small = o.filters.is_empty()
        || o.filters
            .iter()
            .any(|f| "small-build-median small-build-slowest".contains(f.as_str()));
    let want_large = o.filters.is_empty()
        || o.filters
            .iter()
            .any(|f| "large-build-first large-build-cached".contains(f.as_str()));
    if cases.is_empty() && !want_latency && !want_build && !want_small && !want_large {
        return Err(Failure::Usage(format!(
            "bench: no kernel matches the filter (kernels: {}, launch-latency, build-time, \
             small-build-median, small-build-slowest, large-build-first, large-build-cached)",
            suite::CASES
                .iter()
                .map(|c| c.name)
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let machine = Machine::this();
    let session = Session::open(o.library.as_deref())?;
    let targets = targets(&session, &o.platforms, o.device)?;
    let scale = if o.quick {
        Scale::Quick
    } else if o.stream {
        Scale::Stream(stream_array_bytes(machine.cache, physical_memory()))
    } else if o.large {
        // The same sizes on every platform: no buffer larger than any device allows.
        let limit = targets
            .iter()
            .flatten()
            .filter_map(|t| {
                session
                    .api
                    .device_u64(t.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE)
                    .ok()
            })
            .min()
            .map_or(usize::MAX, |bytes| {
                usize::try_from(bytes).unwrap_or(usize::MAX)
            });
        Scale::Large(limit)
    } else {
        Scale::Full
    };
    let progress = Progress {
        terminal: std::io::stderr().is_terminal(),
    };
    let repeat = Repeat {
        min: if o.quick { 2 } else { 5 },
        max: if o.quick { 3 } else { 30 },
        budget: Duration::from_millis(if o.quick { 20 } else { 1000 }),
    };
    let mut rows: Vec<Row> = cases
        .iter()
        .map(|c| Row {
            name: c.name.to_string(),
            category: c.category,
            unit: Some(c.unit),
            outcomes: Vec::new(),
            buffer_bytes: None,
            note: None,
        })
        .collect();
    if want_latency {
        rows.push(Row {
            name: "launch-latency".into(),
            category: "runtime",
            unit: None,
            outcomes: Vec::new(),
            buffer_bytes: None,
            note: None,
        });
    }
    if want_build {
        rows.push(Row {
            name: "build-time".into(),
            category: "compiler",
            unit: None,
            outcomes: Vec::new(),
            buffer_bytes: None,
            note: None,
        });
    }
    let small_rows = rows.len();
    if want_small {
        for name in ["small-build-median", "small-build-slowest"] {
            rows.push(Row {
                name: name.into(),
                category: "compiler",
                unit: None,
                outcomes: Vec::new(),
                buffer_bytes: None,
                note: None,
            });
        }
    }
    let large_rows = rows.len();
    if want_large {
        for name in ["large-build-first", "large-build-cached"] {
            rows.push(Row {
                name: name.into(),
                category: "compiler",
                unit: None,
                outcomes: Vec::new(),
                buffer_bytes: None,
                note: None,
            });
        }
    }
    let mut columns = Vec::new();
    let mut contexts = Vec::new();
    // The build options of each column's kernel rows.
    let mut column_options: Vec<&str> = Vec::new();
    for (t, target) in targets.iter().enumerate() {
        let (label, context) = match target {
            Ok(t) => (
                t.platform_name.clone(),
                session.api.context(t.device).map_err(|e| e.to_string()),
            ),
            Err(e) => (
                o.platforms.get(t).cloned().unwrap_or_default(),
                Err(e.clone()),
            ),
        };
        let device = target
            .as_ref()
            .map_or(String::new(), |t| t.device_name.clone());
        let ferrocl = label == "ferrocl";
        columns.push(Column {
            short: short_label(&label, o.platforms.get(t).map(String::as_str)),
            name: label,
            device: device.clone(),
        });
        contexts.push(context);
        column_options.push("");
        if let (true, Ok(t)) = (ferrocl && o.scalar, target) {
            columns.push(Column {
                short: "scalar".into(),
                name: SCALAR.into(),
                device,
            });
            contexts.push(session.api.context(t.device).map_err(|e| e.to_string()));
            column_options.push("-cl-ferrocl-no-vectorize");
        }
    }
    for (index, case) in cases.iter().enumerate() {
        progress.show(&format!(
            "bench: {} ({}/{})",
            case.name,
            index + 1,
            rows.len()
        ));
        let mut ready: Vec<Result<Ready, Outcome>> = contexts
            .iter()
            .zip(&column_options)
            .map(|(context, options)| match context {
                Ok(context) => prepare(context, case, scale, o.local, options),
                Err(e) => Err(Outcome::NotAvailable(e.clone())),
            })
            .collect();
        // Every platform's problem is made alike: one note says how they were all shrunk.
        rows[index].note = suite::take_shrink_note();
        time_in_turns(&mut ready, &repeat);
        rows[index].buffer_bytes = ready.iter().flatten().map(|r| r.buffer_bytes).next();
        rows[index].outcomes = ready
            .into_iter()
            .map(|r| r.map_or_else(|outcome| outcome, Ready::outcome))
            .collect();
    }
    // The launch and build rows measure each platform alone, one after another.
    let mut runtime_rows: Vec<(&str, Measure)> = Vec::new();
    if want_latency {
        runtime_rows.push(("launch-latency", latency));
    }
    if want_build {
        runtime_rows.push(("build-time", |context, _| build_time(context)));
    }
    for (index, (name, measure)) in (cases.len()..).zip(runtime_rows) {
        for (context, column) in contexts.iter().zip(&columns) {
            progress.show(&format!(
                "bench: {}: {name} ({}/{})",
                column.short,
                index + 1,
                rows.len()
            ));
            let outcome = match context {
                _ if column.name == SCALAR => Outcome::NotAvailable(SCALAR_ROWS.into()),
                Ok(context) => measure(context, o.quick),
                Err(e) => Outcome::NotAvailable(e.clone()),
            };
            rows[index].outcomes.push(outcome);
        }
    }
    // The small builds, one platform after another: two rows from one series of builds.
    if want_small {
        for (context, column) in contexts.iter().zip(&columns) {
            progress.show(&format!("bench: {}: small builds", column.short));
            let [median, slowest] = match context {
                _ if column.name == SCALAR => {
                    [0, 1].map(|_| Outcome::NotAvailable(SCALAR_ROWS.into()))
                }
                Ok(context) => small_builds(context, o.quick),
                Err(e) => [0, 1].map(|_| Outcome::NotAvailable(e.clone())),
            };
            rows[small_rows].outcomes.push(median);
            rows[small_rows + 1].outcomes.push(slowest);
        }
    }
    // The large program's two builds, one platform after another.
    if want_large {
        for (context, column) in contexts.iter().zip(&columns) {
            progress.show(&format!("bench: {}: large builds", column.short));
            let [first, cached] = match context {
                _ if column.name == SCALAR => {
                    [0, 1].map(|_| Outcome::NotAvailable(SCALAR_ROWS.into()))
                }
                Ok(context) => large_builds(context),
                Err(e) => [0, 1].map(|_| Outcome::NotAvailable(e.clone())),
            };
            rows[large_rows].outcomes.push(first);
            rows[large_rows + 1].outcomes.push(cached);
        }
    }
    progress.done();
    let report = Report {
        machine,
        columns,
        rows,
        scale,
    };
    Ok(if o.json { report.json() } else { report.text() })
}

/// The name of the column `--scalar` adds: ferrocl with its vectorizer off.
const SCALAR: &str = "ferrocl (not vectorized)";

/// Why that column has no launch or build rows.
const SCALAR_ROWS: &str = "kernel rows only";

/// A platform's column: its name, the short label of the table's header, its device.
pub struct Column {
    pub name: String,
    pub short: String,
    pub device: String,
}

/// The header label of a platform: the pattern that chose it, or its name when short, or the
/// initials of a long name.
fn short_label(name: &str, pattern: Option<&str>) -> String {
    if let Some(pattern) = pattern {
        return pattern.to_string();
    }
    if name.chars().count() <= 12 || !name.contains(' ') {
        return name.to_string();
    }
    name.split_whitespace()
        .filter_map(|w| w.chars().next())
        .collect()
}

/// The results: one column per platform, one row per kernel.
pub struct Report {
    pub machine: Machine,
    pub columns: Vec<Column>,
    pub rows: Vec<Row>,
    /// The sizes of the kernel rows.
    pub scale: Scale,
}

/// The host the run was on.
pub struct Machine {
    pub cores: usize,
    pub cpu: String,
    /// The last-level cache, all its instances together, in bytes, where the system says.
    pub cache: Option<usize>,
}

impl Machine {
    /// This machine: its logical cores and the CPU model of /proc/cpuinfo.
    pub fn this() -> Machine {
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|info| {
                info.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split_once(':'))
                    .map(|(_, model)| model.trim().to_string())
            })
            .unwrap_or_else(|| std::env::consts::ARCH.to_string());
        Machine {
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            cpu,
            cache: last_level_cache(),
        }
    }
}

/// The machine's last-level cache, in bytes: the size of the first core's largest data or
/// unified cache times the number of such caches (one per socket, or per core complex), from
/// Linux's `/sys/devices/system/cpu/cpuN/cache/indexI/` (`type`, `size` as in "300M",
/// `shared_cpu_list`: the cores sharing that cache, the same text for each instance).
fn last_level_cache() -> Option<usize> {
    let cpus = std::path::Path::new("/sys/devices/system/cpu");
    let read = |path: &std::path::Path| std::fs::read_to_string(path).map(|s| s.trim().to_string());
    let (size, index) = std::fs::read_dir(cpus.join("cpu0/cache"))
        .ok()?
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| read(&path.join("type")).is_ok_and(|t| t != "Instruction"))
        .filter_map(|path| {
            Some((
                cache_size(&read(&path.join("size")).ok()?)?,
                path.file_name()?.to_owned(),
            ))
        })
        .max()?;
    let instances: std::collections::HashSet<String> = std::fs::read_dir(cpus)
        .ok()?
        .flatten()
        .filter(|entry| {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            name.strip_prefix("cpu")
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
        .filter_map(|entry| {
            read(
                &entry
                    .path()
                    .join("cache")
                    .join(&index)
                    .join("shared_cpu_list"),
            )
            .ok()
        })
        .collect();
    size.checked_mul(instances.len().max(1))
}

/// A cache size as sysfs writes it: a number of bytes with an optional K, M or G.
fn cache_size(text: &str) -> Option<usize> {
    let (digits, scale) = match text.as_bytes().last()? {
        b'K' => (&text[..text.len() - 1], 1 << 10),
        b'M' => (&text[..text.len() - 1], 1 << 20),
        b'G' => (&text[..text.len() - 1], 1 << 30),
        _ => (text, 1),
    };
    digits.parse::<usize>().ok()?.checked_mul(scale)
}

/// The bytes of each array of the bandwidth rows with `--stream`: four times the last-level
/// cache, as STREAM asks, so that every run reads and writes memory; 1 GiB where the cache's
/// size is unknown. At most a 32nd of the machine's memory: triad's three arrays live on
/// every platform at once, beside the host's inputs and the outputs read back to check.
fn stream_array_bytes(cache: Option<usize>, memory: Option<usize>) -> usize {
    let bytes = cache.map_or(1 << 30, |c| c.saturating_mul(4));
    memory.map_or(bytes, |m| bytes.min(m / 32))
}

/// The machine's memory, from Linux's `/proc/meminfo`.
fn physical_memory() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// Bytes in binary units, as `128 MiB`.
fn format_bytes(bytes: usize) -> String {
    const UNITS: [&str; 4] = ["bytes", "KiB", "MiB", "GiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    // Whole numbers past 10: a buffer of 64 MiB and a few KiB reads as 64 MiB.
    if value.fract() == 0.0 || value >= 10.0 {
        format!("{value:.0} {}", UNITS[unit])
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

impl Report {
    /// The memory rows whose buffers fit in the machine's last-level cache: run after run,
    /// their data stays there, and they measure the cache's bandwidth rather than memory's
    /// (STREAM asks for arrays of four times the caches).
    fn cache_resident(&self) -> Vec<(&str, usize)> {
        let Some(cache) = self.machine.cache else {
            return Vec::new();
        };
        self.rows
            .iter()
            .filter(|r| r.category == "memory")
            .filter_map(|r| Some((r.name.as_str(), r.buffer_bytes?)))
            .filter(|&(_, bytes)| bytes <= cache)
            .collect()
    }

    /// The column of ferrocl, which the ratios compare against.
    fn reference(&self) -> Option<usize> {
        self.columns.iter().position(|c| c.name == "ferrocl")
    }

    /// A platform's time divided by ferrocl's on the row (below 1: faster than ferrocl).
    fn ratio(&self, row: &Row, column: usize) -> Option<f64> {
        let reference = self.reference()?;
        let has_work = row.unit.is_some();
        let mine = row.outcomes.get(column)?.time(has_work)?;
        let theirs = row.outcomes.get(reference)?.time(has_work)?;
        (theirs > 0.0).then(|| mine / theirs)
    }

    /// The geometric mean of a column's ratios, over the rows where both ran.
    fn geomean(&self, column: usize) -> Option<f64> {
        let ratios: Vec<f64> = self
            .rows
            .iter()
            .filter_map(|r| self.ratio(r, column))
            .collect();
        if ratios.is_empty() {
            return None;
        }
        Some((ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp())
    }

    /// With `--stream`, the bytes of each array of the bandwidth rows.
    fn stream(&self) -> Option<usize> {
        match self.scale {
            Scale::Stream(bytes) => Some(bytes),
            Scale::Quick | Scale::Full | Scale::Large(_) => None,
        }
    }

    /// The scale's name, as its option spells it.
    fn scale_name(&self) -> &'static str {
        match self.scale {
            Scale::Quick => "quick",
            Scale::Full => "full",
            Scale::Stream(_) => "stream",
            Scale::Large(_) => "large",
        }
    }

    /// The header line's account of the sizes.
    fn scale_text(&self) -> String {
        let name = self.scale_name();
        match self.scale {
            Scale::Quick => format!("{name} (small sizes for tests)"),
            Scale::Full => format!("{name} (the suite's sizes, for a CPU of a few cores)"),
            Scale::Stream(_) => format!("{name} (the bandwidth rows past the caches)"),
            Scale::Large(limit) => format!(
                "{name} (milliseconds of a large GPU per kernel, arrays of up to {}; no buffer \
                 over {}, the devices' smallest CL_DEVICE_MAX_MEM_ALLOC_SIZE)",
                format_bytes(suite::LARGE_ARRAY),
                if limit == usize::MAX {
                    "the limit (none known)".to_string()
                } else {
                    format_bytes(limit)
                }
            ),
        }
    }

    pub fn text(&self) -> String {
        let reference = self.reference();
        let mut header = vec!["kernel".to_string(), "kind".to_string()];
        for (c, column) in self.columns.iter().enumerate() {
            let name = &column.short;
            header.push(format!("{name} time"));
            header.push(format!("{name} rate"));
            if reference.is_some() && Some(c) != reference {
                header.push(format!("{name}/ferrocl"));
            }
        }
        let mut notes: Vec<String> = Vec::new();
        let mut table = vec![header];
        for row in &self.rows {
            let name = match &row.note {
                Some(note) => format!(
                    "{} [{}]",
                    row.name,
                    number(&mut notes, format!("{}: {note}", row.name))
                ),
                None => row.name.clone(),
            };
            let mut cells = vec![name, row.category.to_string()];
            for (c, outcome) in row.outcomes.iter().enumerate() {
                match outcome {
                    Outcome::Measured {
                        device,
                        wall,
                        work,
                        note,
                    } => {
                        let seconds = if row.unit.is_some() { *device } else { *wall };
                        cells.push(match note {
                            Some(note) => format!(
                                "{} [{}]",
                                format_time(seconds),
                                number(&mut notes, format!("{}: {note}", self.columns[c].short))
                            ),
                            None => format_time(seconds),
                        });
                        cells.push(match (work, row.unit) {
                            (Some(work), Some(unit)) => {
                                format!("{:.2} {}", work / device / 1e9, unit.name())
                            }
                            _ => "-".to_string(),
                        });
                    }
                    Outcome::NotAvailable(reason) => {
                        let note = format!("{}: {reason}", self.columns[c].short);
                        cells.push(format!("n/a [{}]", number(&mut notes, note)));
                        cells.push(String::new());
                    }
                }
                if reference.is_some() && Some(c) != reference {
                    cells.push(
                        self.ratio(row, c)
                            .map_or("n/a".to_string(), |r| format!("{r:.2}")),
                    );
                }
            }
            table.push(cells);
        }
        if let Some(reference) = reference {
            let mut cells = vec!["geomean".to_string(), String::new()];
            for c in 0..self.columns.len() {
                cells.push(String::new());
                cells.push(String::new());
                if c != reference {
                    cells.push(
                        self.geomean(c)
                            .map_or("n/a".to_string(), |g| format!("{g:.2}")),
                    );
                }
            }
            table.push(cells);
        }
        let widths: Vec<usize> = (0..table[0].len())
            .map(|i| {
                table
                    .iter()
                    .map(|r| r.get(i).map_or(0, |c| c.chars().count()))
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut out = String::new();
        for column in &self.columns {
            if !column.device.is_empty() {
                out.push_str(&format!(
                    "{}: platform '{}', device '{}'\n",
                    column.short, column.name, column.device
                ));
            }
        }
        out.push_str(&format!(
            "machine: {} cores, {}",
            self.machine.cores, self.machine.cpu
        ));
        if let Some(cache) = self.machine.cache {
            out.push_str(&format!(", last-level cache {}", format_bytes(cache)));
        }
        out.push('\n');
        out.push_str(&format!("scale: {}\n", self.scale_text()));
        if let Some(bytes) = self.stream() {
            let why = match self.machine.cache {
                Some(cache) if bytes >= cache.saturating_mul(4) => {
                    "four times the last-level cache"
                }
                Some(_) => "a 32nd of the machine's memory, less than four times the cache",
                None => "the cache's size unknown",
            };
            out.push_str(&format!(
                "stream: copy, saxpy, stencil-2d and triad with arrays of {} each ({why})\n",
                format_bytes(bytes)
            ));
        }
        let resident = self.cache_resident();
        if !resident.is_empty() {
            let rows: Vec<String> = resident
                .iter()
                .map(|(name, bytes)| format!("{name} {}", format_bytes(*bytes)))
                .collect();
            out.push_str(&format!(
                "cache: these memory rows' buffers fit in the last-level cache, whose bandwidth they measure, not memory's: {}\n",
                rows.join(", ")
            ));
        }
        out.push_str(
            "time: median device time per run (launch-latency: enqueue to finish; build-time: \
             clBuildProgram of the suite; small-build-*: clBuildProgram and clCreateKernel of \
             each of 144 small kernels; large-build-*: clBuildProgram and clCreateKernel of a \
             blocked LU with unrolled loops, new to the cache, then again)\n",
        );
        if reference.is_some() && self.columns.len() > 1 {
            out.push_str("X/ferrocl: X's time divided by ferrocl's (below 1: X is faster), and their geometric mean\n");
        }
        out.push('\n');
        for row in &table {
            let line: Vec<String> = row
                .iter()
                .enumerate()
                .map(|(i, cell)| {
                    if i < 2 {
                        format!("{cell:<w$}", w = widths[i])
                    } else {
                        format!("{cell:>w$}", w = widths[i])
                    }
                })
                .collect();
            out.push_str(line.join("  ").trim_end());
            out.push('\n');
        }
        if !notes.is_empty() {
            out.push('\n');
            for (i, note) in notes.iter().enumerate() {
                out.push_str(&format!("[{}] {note}\n", i + 1));
            }
        }
        out
    }

    pub fn json(&self) -> String {
        let reference = self.reference();
        let platforms = self
            .columns
            .iter()
            .enumerate()
            .map(|(c, column)| {
                let mut fields = vec![
                    ("name".to_string(), Value::String(column.name.clone())),
                    ("device".to_string(), Value::String(column.device.clone())),
                ];
                if reference.is_some() && Some(c) != reference {
                    fields.push((
                        "geomean_ratio_to_ferrocl".into(),
                        self.geomean(c).map_or(Value::Null, Value::Number),
                    ));
                }
                Value::Object(fields)
            })
            .collect();
        let rows = self
            .rows
            .iter()
            .map(|row| {
                let results = row
                    .outcomes
                    .iter()
                    .enumerate()
                    .map(|(c, outcome)| {
                        let mut fields = vec![(
                            "platform".to_string(),
                            Value::String(self.columns[c].name.clone()),
                        )];
                        match outcome {
                            Outcome::Measured {
                                device,
                                wall,
                                work,
                                note,
                            } => {
                                fields.push(("status".into(), Value::String("ok".into())));
                                if let Some(note) = note {
                                    fields.push(("note".into(), Value::String(note.clone())));
                                }
                                fields.push(("device_ms".into(), Value::Number(device * 1e3)));
                                fields.push(("wall_ms".into(), Value::Number(wall * 1e3)));
                                if let (Some(work), Some(_)) = (work, row.unit) {
                                    fields.push((
                                        "throughput".into(),
                                        Value::Number(work / device / 1e9),
                                    ));
                                }
                            }
                            Outcome::NotAvailable(reason) => {
                                fields.push(("status".into(), Value::String("n/a".into())));
                                fields.push(("reason".into(), Value::String(reason.clone())));
                            }
                        }
                        if reference.is_some() && Some(c) != reference {
                            fields.push((
                                "ratio_to_ferrocl".into(),
                                self.ratio(row, c).map_or(Value::Null, Value::Number),
                            ));
                        }
                        Value::Object(fields)
                    })
                    .collect();
                Value::Object(vec![
                    ("kernel".into(), Value::String(row.name.clone())),
                    ("category".into(), Value::String(row.category.into())),
                    (
                        "unit".into(),
                        row.unit
                            .map_or(Value::Null, |u| Value::String(u.name().into())),
                    ),
                    (
                        "buffer_bytes".into(),
                        row.buffer_bytes
                            .map_or(Value::Null, |b| Value::Number(b as f64)),
                    ),
                    (
                        "note".into(),
                        row.note.clone().map_or(Value::Null, Value::String),
                    ),
                    ("results".into(), Value::Array(results)),
                ])
            })
            .collect();
        Value::Object(vec![
            (
                "machine".into(),
                Value::Object(vec![
                    ("cores".into(), Value::Number(self.machine.cores as f64)),
                    ("cpu".into(), Value::String(self.machine.cpu.clone())),
                    (
                        "last_level_cache_bytes".into(),
                        self.machine
                            .cache
                            .map_or(Value::Null, |c| Value::Number(c as f64)),
                    ),
                ]),
            ),
            (
                "stream_array_bytes".into(),
                self.stream()
                    .map_or(Value::Null, |b| Value::Number(b as f64)),
            ),
            ("scale".into(), Value::String(self.scale_name().into())),
            (
                "max_alloc_bytes".into(),
                match self.scale {
                    Scale::Large(limit) => Value::Number(limit as f64),
                    Scale::Quick | Scale::Full | Scale::Stream(_) => Value::Null,
                },
            ),
            ("platforms".into(), Value::Array(platforms)),
            ("kernels".into(), Value::Array(rows)),
        ])
        .to_pretty()
    }
}

/// The number of a note under the table, the same for the same text.
fn number(notes: &mut Vec<String>, note: String) -> usize {
    match notes.iter().position(|n| *n == note) {
        Some(i) => i + 1,
        None => {
            notes.push(note);
            notes.len()
        }
    }
}

fn format_time(seconds: f64) -> String {
    if seconds >= 1.0 {
        format!("{seconds:.2} s")
    } else if seconds >= 1e-3 {
        format!("{:.2} ms", seconds * 1e3)
    } else {
        format!("{:.1} us", seconds * 1e6)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn options_parse() {
        let o = parse(&strings(&[
            "--platform",
            "pocl",
            "--platform",
            "ferrocl",
            "--filter",
            "sgemm",
            "--json",
        ]))
        .unwrap();
        assert_eq!(o.platforms, ["pocl", "ferrocl"]);
        assert_eq!(o.filters, ["sgemm"]);
        assert!(o.json);
        assert_eq!(
            parse(&strings(&["--platform"])).unwrap_err(),
            "bench: --platform needs a value"
        );
        assert_eq!(
            parse(&strings(&["--fast"])).unwrap_err(),
            "bench: unknown option '--fast'"
        );
        assert!(parse(&strings(&["--stream"])).unwrap().stream);
        assert!(parse(&strings(&["--stream", "--quick"])).is_err());
        assert!(parse(&strings(&["--large"])).unwrap().large);
        assert!(!parse(&strings(&["--stream"])).unwrap().large);
        for other in ["--quick", "--stream"] {
            let error = parse(&strings(&["--large", other])).unwrap_err();
            assert!(error.contains("give one"), "{error}");
            assert!(parse(&strings(&[other, "--large"])).is_err());
        }
        assert_eq!(stream_array_bytes(Some(300 << 20), None), 1200 << 20);
        assert_eq!(stream_array_bytes(None, None), 1 << 30);
        assert_eq!(
            stream_array_bytes(Some(300 << 20), Some(16 << 30)),
            512 << 20
        );
    }

    #[test]
    fn labels_are_short() {
        assert_eq!(short_label("Portable Computing Language", None), "PCL");
        assert_eq!(
            short_label("Portable Computing Language", Some("pocl")),
            "pocl"
        );
        assert_eq!(short_label("ferrocl", None), "ferrocl");
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 2.0, 3.0]), 2.5);
    }

    fn measured(seconds: f64) -> Outcome {
        Outcome::Measured {
            device: seconds,
            wall: seconds,
            work: Some(seconds * 4e9),
            note: None,
        }
    }

    #[test]
    fn the_header_names_the_scale_and_a_shrunk_row_says_so() {
        let report = Report {
            machine: Machine {
                cores: 2,
                cpu: "test".into(),
                cache: None,
            },
            scale: Scale::Large(512 << 20),
            columns: vec![Column {
                name: "ferrocl".into(),
                short: "ferrocl".into(),
                device: "cpu".into(),
            }],
            rows: vec![Row {
                name: "copy".into(),
                category: "memory",
                unit: Some(Unit::Bytes),
                outcomes: vec![measured(1.0)],
                buffer_bytes: Some(1 << 30),
                note: Some("shrunk".into()),
            }],
        };
        let text = report.text();
        assert!(
            text.contains("scale: large (milliseconds of a large GPU per kernel, arrays of up to 1 GiB; no buffer over 512 MiB"),
            "{text}"
        );
        assert!(text.contains("\ncopy [1]  memory"), "{text}");
        assert!(text.contains("\n[1] copy: shrunk\n"), "{text}");
        let json = crate::json::parse(&report.json()).unwrap();
        assert_eq!(json.get("scale").and_then(|s| s.as_str()), Some("large"));
        assert_eq!(
            json.get("max_alloc_bytes").and_then(|b| b.as_f64()),
            Some((512 << 20) as f64)
        );
        let kernels = json.get("kernels").and_then(|k| k.as_array()).unwrap();
        assert_eq!(
            kernels[0].get("note").and_then(|n| n.as_str()),
            Some("shrunk")
        );
        let full = Report {
            scale: Scale::Full,
            ..report
        };
        assert!(full.text().contains("scale: full ("), "{}", full.text());
    }

    #[test]
    fn ratios_and_geomean_compare_with_ferrocl() {
        let report = Report {
            machine: Machine {
                cores: 2,
                cpu: "test".into(),
                cache: Some(100 << 20),
            },
            scale: Scale::Stream(400 << 20),
            columns: ["ferrocl", "Other"]
                .iter()
                .map(|n| Column {
                    name: n.to_string(),
                    short: n.to_string(),
                    device: "cpu".into(),
                })
                .collect(),
            rows: vec![
                Row {
                    name: "a".into(),
                    category: "memory",
                    unit: Some(Unit::Bytes),
                    outcomes: vec![measured(1.0), measured(2.0)],
                    buffer_bytes: Some(64 << 20),
                    note: None,
                },
                Row {
                    name: "b".into(),
                    category: "memory",
                    unit: Some(Unit::Bytes),
                    outcomes: vec![measured(4.0), measured(2.0)],
                    buffer_bytes: Some(256 << 20),
                    note: None,
                },
                Row {
                    name: "c".into(),
                    category: "compute",
                    unit: Some(Unit::Flops),
                    outcomes: vec![
                        Outcome::NotAvailable("build failed (CL_COMPILER_NOT_AVAILABLE)".into()),
                        measured(1.0),
                    ],
                    buffer_bytes: Some(1 << 20),
                    note: None,
                },
            ],
        };
        assert_eq!(report.ratio(&report.rows[0], 1), Some(2.0));
        assert_eq!(report.ratio(&report.rows[1], 1), Some(0.5));
        assert_eq!(report.ratio(&report.rows[2], 1), None);
        assert_eq!(report.geomean(1), Some(1.0));
        let text = report.text();
        assert!(text.contains("n/a [1]"), "{text}");
        assert!(
            text.contains("[1] ferrocl: build failed (CL_COMPILER_NOT_AVAILABLE)"),
            "{text}"
        );
        assert!(text.contains("4.00 GB/s"), "{text}");
        // Of the memory rows, only a's buffers fit in the cache.
        assert!(text.contains("last-level cache 100 MiB\n"), "{text}");
        assert!(text.contains("not memory's: a 64 MiB\n"), "{text}");
        assert!(
            text.contains("arrays of 400 MiB each (four times the last-level cache)\n"),
            "{text}"
        );
        let json = crate::json::parse(&report.json()).unwrap();
        let machine = json.get("machine").unwrap();
        assert_eq!(
            machine
                .get("last_level_cache_bytes")
                .and_then(|b| b.as_f64()),
            Some((100 << 20) as f64)
        );
        let json = crate::json::parse(&report.json()).unwrap();
        let kernels = json.get("kernels").and_then(|k| k.as_array()).unwrap();
        let c = &kernels[2]
            .get("results")
            .and_then(|r| r.as_array())
            .unwrap()[0];
        assert_eq!(c.get("status").and_then(|s| s.as_str()), Some("n/a"));
    }

    #[test]
    fn cache_sizes_read_as_sysfs_writes_them() {
        assert_eq!(cache_size("48K"), Some(48 << 10));
        assert_eq!(cache_size("300M"), Some(300 << 20));
        assert_eq!(cache_size("1G"), Some(1 << 30));
        assert_eq!(cache_size("512"), Some(512));
        assert_eq!(cache_size("K"), None);
        assert_eq!(cache_size(""), None);
        assert_eq!(format_bytes(300 << 20), "300 MiB");
        assert_eq!(format_bytes(1536 << 10), "1.5 MiB");
        assert_eq!(format_bytes(100), "100 bytes");
        assert_eq!(format_bytes((64 << 20) + (32 << 10)), "64 MiB");
    }
}
