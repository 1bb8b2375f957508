//! API conformance tests in C, run through the system's ICD loader.
//!
//! Every `tests/c/*.c` is compiled with gcc against the Khronos headers and `-lOpenCL` (the ICD
//! loader, Debian's ocl-icd) and run with `OCL_ICD_VENDORS` naming a temporary directory that
//! holds one `ferrocl.icd`, the absolute path of the `libferrocl.so` cargo built next to this
//! test binary. A program passes when it exits with status 0 within [`TIMEOUT`]; on failure the
//! test prints everything the program wrote.
//!
//! `FERROCL_TEST_VENDORS=/etc/OpenCL/vendors cargo test -p ferrocl-icd --test c_api` runs the same
//! programs against whatever implementation that directory names (PoCL, say): the programs assert
//! only what the OpenCL 3.0 API specification promises, so they must pass on any conforming one.
//! Such runs are lenient where the other implementation is known to deviate (handles of a wrong
//! object type, a few error codes; see `tests/c/check.h`); ferrocl runs are strict.

use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::OnceLock;
use std::thread;
use std::time::{Duration, Instant};

/// A program that runs longer than this has hung, and fails.
const TIMEOUT: Duration = Duration::from_secs(60);

const INSTALL_HINT: &str = "apt-get install gcc ocl-icd-opencl-dev opencl-headers";

/// Where the programs are run: the loader's vendors directory and, when testing ferrocl, the
/// library that directory's `.icd` file names.
struct Setup {
    vendors: PathBuf,
    library: Option<PathBuf>,
    work: PathBuf,
}

impl Setup {
    /// Whether these programs run against ferrocl (not an implementation named by
    /// `FERROCL_TEST_VENDORS`).
    fn is_ferrocl(&self) -> bool {
        self.library.is_some()
    }

    /// A command with the loader's environment set for this setup.
    fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut command = Command::new(program);
        command.env("OCL_ICD_VENDORS", &self.vendors);
        // Debian's ocl-icd ignores OCL_ICD_FILENAMES; the Khronos loader reads it. Set it for
        // ferrocl, and make sure an inherited one cannot add a platform to another setup.
        match &self.library {
            Some(library) => command
                .env("OCL_ICD_FILENAMES", library)
                .env_remove("FERROCL_TEST_LENIENT"),
            // Another implementation: the spots where it is known to deviate from the spec are
            // reported but not counted (tests/c/check.h, "Lenient runs").
            None => command
                .env_remove("OCL_ICD_FILENAMES")
                .env("FERROCL_TEST_LENIENT", "1"),
        };
        command
    }
}

fn setup() -> &'static Setup {
    static SETUP: OnceLock<Setup> = OnceLock::new();
    SETUP.get_or_init(|| {
        let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
        remove_stale_work_dirs(&tmp);
        let work = tmp.join(format!("c_api-{}", std::process::id()));
        fs::create_dir_all(&work).expect("create the test work directory");
        if let Some(vendors) = std::env::var_os("FERROCL_TEST_VENDORS") {
            return Setup {
                vendors: PathBuf::from(vendors),
                library: None,
                work,
            };
        }
        let library = ferrocl_library();
        let vendors = work.join("vendors");
        fs::create_dir_all(&vendors).expect("create the vendors directory");
        fs::write(
            vendors.join("ferrocl.icd"),
            format!("{}\n", library.display()),
        )
        .expect("write ferrocl.icd");
        Setup {
            vendors,
            library: Some(library),
            work,
        }
    })
}

/// Removes the work directories (compiled programs, logs) that earlier runs left behind, once
/// they are an hour old: old enough that no run still uses them.
fn remove_stale_work_dirs(tmp: &Path) {
    let Ok(entries) = fs::read_dir(tmp) else {
        return;
    };
    for entry in entries.flatten() {
        let stale = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > Duration::from_secs(3600));
        if stale && entry.file_name().to_string_lossy().starts_with("c_api-") {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// The `libferrocl.so` cargo built for this test run. The test binary is
/// `<target>/<profile>/deps/c_api-HASH`; `cargo test` writes the ferrocl-icd cdylib beside it in
/// `deps/` (it copies it up to `<target>/<profile>/` only when ferrocl-icd itself is built as a
/// root, as by `cargo build`), so `deps/` comes first.
fn ferrocl_library() -> PathBuf {
    let exe = std::env::current_exe().expect("path of the test binary");
    let deps = exe.parent().expect("test binary in a directory");
    let candidates = [
        deps.join("libferrocl.so"),
        deps.parent().unwrap_or(deps).join("libferrocl.so"),
    ];
    let library = candidates.iter().find(|c| c.is_file()).unwrap_or_else(|| {
        panic!(
            "libferrocl.so not found at {} or {}: cargo did not build the ferrocl-icd cdylib \
             for the test binary {}",
            candidates[0].display(),
            candidates[1].display(),
            exe.display()
        )
    });
    library
        .canonicalize()
        .expect("absolute path of libferrocl.so")
}

fn c_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("c")
}

/// Runs `command` with its stdout and stderr going to `log`, killing it after [`TIMEOUT`].
/// Returns its exit status (`None` when it was killed) and what it wrote.
fn run_logged(mut command: Command, log: &Path) -> (Option<ExitStatus>, String) {
    let file = File::create(log).expect("create log file");
    let err_file = file.try_clone().expect("clone log file handle");
    let mut child = command
        .stdin(Stdio::null())
        .stdout(file)
        .stderr(err_file)
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {command:?}: {e}"));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for child") {
            break Some(status);
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        thread::sleep(Duration::from_millis(10));
    };
    let output = String::from_utf8_lossy(&fs::read(log).unwrap_or_default()).into_owned();
    (status, output)
}

fn check_gcc() {
    static GCC: OnceLock<bool> = OnceLock::new();
    let found = *GCC.get_or_init(|| {
        Command::new("gcc")
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    });
    assert!(found, "gcc not found: {INSTALL_HINT}");
}

/// Compiles `tests/c/NAME.c`, runs it through the loader and asserts that it exits with 0.
fn run_c_program(name: &str) {
    check_gcc();
    let setup = setup();
    let source = c_dir().join(format!("{name}.c"));
    let binary = setup.work.join(name);
    let compile = Command::new("gcc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-O1", "-g"])
        .arg("-DCL_TARGET_OPENCL_VERSION=300")
        .arg("-o")
        .arg(&binary)
        .arg(&source)
        .args(["-lOpenCL", "-lpthread", "-lm"])
        .output()
        .unwrap_or_else(|e| panic!("cannot run gcc: {e}; {INSTALL_HINT}"));
    assert!(
        compile.status.success(),
        "gcc failed on {} (are the OpenCL headers and libOpenCL installed? {INSTALL_HINT}):\n{}{}",
        source.display(),
        String::from_utf8_lossy(&compile.stdout),
        String::from_utf8_lossy(&compile.stderr)
    );
    let log = setup.work.join(format!("{name}.log"));
    let (status, output) = run_logged(setup.command(&binary), &log);
    match status {
        Some(status) if status.success() => {}
        Some(status) => panic!(
            "{name} failed ({status}) against {}:\n{output}",
            setup.vendors.display()
        ),
        None => panic!("{name} did not finish within {TIMEOUT:?}:\n{output}"),
    }
}

macro_rules! c_programs {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                run_c_program(stringify!($name));
            }
        )*
        const PROGRAMS: &[&str] = &[$(stringify!($name)),*];
    };
}

c_programs!(
    platform,
    device,
    context,
    queue,
    buffer,
    devices,
    copy_overlap,
    event,
    threads,
    invalid,
    unsupported,
    pipes,
    program,
    kernels,
    faults,
    collectives,
    subgroups,
    fpconfig,
    uniform,
    linking,
    language,
    kernel_args,
    globals,
    generic,
    svm,
    images,
    half_math
);

/// Every C program in `tests/c` has its test above.
#[test]
fn every_c_program_is_listed() {
    for entry in fs::read_dir(c_dir()).expect("read tests/c") {
        let path = entry.expect("directory entry").path();
        if path.extension().is_some_and(|e| e == "c") {
            let stem = path
                .file_stem()
                .and_then(|s| s.to_str())
                .expect("UTF-8 file name");
            assert!(
                PROGRAMS.contains(&stem),
                "{} has no test: add `{stem}` to c_programs!",
                path.display()
            );
        }
    }
}

/// Runs clinfo with `args`, asserting that it exits with 0; returns its output.
fn clinfo(args: &[&str]) -> String {
    let setup = setup();
    let mut command = setup.command("clinfo");
    command.args(args);
    let log = setup.work.join(format!("clinfo{}.log", args.join("")));
    if Command::new("clinfo")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_err()
    {
        panic!("clinfo not found: apt-get install clinfo");
    }
    let (status, output) = run_logged(command, &log);
    assert!(
        status.is_some_and(|s| s.success()),
        "clinfo {args:?} failed ({status:?}) against {}:\n{output}",
        setup.vendors.display()
    );
    output
}

#[test]
fn clinfo_lists_the_platform() {
    let list = clinfo(&["--list"]);
    let full = clinfo(&[]);
    // The part of the full listing that describes the platforms and their devices; the
    // "NULL platform behavior" part after it probes implementation-defined calls.
    let platforms = full
        .split("NULL platform behavior")
        .next()
        .unwrap_or_default();
    let bad: Vec<&str> = platforms
        .lines()
        .filter(|l| l.contains("error") || l.contains("Invalid"))
        .collect();
    assert!(
        bad.is_empty(),
        "clinfo reports errors:\n{}\n\nfull output:\n{full}",
        bad.join("\n")
    );
    if !setup().is_ferrocl() {
        assert!(
            list.contains("Platform #0"),
            "clinfo --list shows no platform:\n{list}"
        );
        return;
    }
    let lines: Vec<&str> = list.lines().collect();
    assert_eq!(
        lines.first().copied(),
        Some("Platform #0: ferrocl"),
        "clinfo --list:\n{list}"
    );
    let devices = lines.iter().filter(|l| l.contains("-- Device #")).count();
    assert_eq!(
        devices, 1,
        "ferrocl should show one device; clinfo --list:\n{list}"
    );
    assert_eq!(
        lines.len(),
        2,
        "only the ferrocl platform should be listed; clinfo --list:\n{list}"
    );
    let device_types: Vec<&str> = platforms
        .lines()
        .filter(|l| l.trim_start().starts_with("Device Type"))
        .collect();
    assert_eq!(device_types.len(), 1, "clinfo:\n{full}");
    assert!(
        device_types[0].trim_end().ends_with("CPU"),
        "the device is not a CPU: {}",
        device_types[0]
    );
}
