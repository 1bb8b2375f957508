//! The `ferrocl` executable, run as a user runs it: exit codes, output (text and JSON) and
//! error messages. Tests that need an OpenCL C compiler run on PoCL (`--platform pocl`) where
//! it is installed, and say they are skipped where it is not; the argument and error tests run
//! everywhere.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ferrocl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ferrocl"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("ferrocl runs")
}

/// `ferrocl` with the CPU device's wide-vector tier off, for a test that reads Cranelift's
/// IR (the tier's code has none).
fn ferrocl_cranelift(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ferrocl"))
        .args(args)
        .env("NO_COLOR", "1")
        .env("FERROCL_WIDE", "0")
        .output()
        .expect("ferrocl runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `base` followed by each case's extra arguments; each must exit with 1 and say its
/// message on standard error.
fn expect_usage_errors(base: &[&str], cases: &[(&[&str], &str)]) {
    for (extra, message) in cases {
        let args: Vec<&str> = base.iter().chain(extra.iter()).copied().collect();
        let out = ferrocl(&args);
        assert_eq!(out.status.code(), Some(1), "{extra:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(message),
            "{extra:?}: expected '{message}' in {}",
            stderr(&out)
        );
    }
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ferrocl-cli-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    fs::write(&path, text).expect("write test file");
    path.to_string_lossy().into_owned()
}

/// Whether the loader can see PoCL: an .icd file naming a pocl library.
fn pocl_installed() -> bool {
    let dir = std::env::var_os("OCL_ICD_VENDORS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/etc/OpenCL/vendors"));
    let Ok(entries) = fs::read_dir(dir) else {
        return false;
    };
    entries
        .flatten()
        .any(|e| fs::read_to_string(e.path()).is_ok_and(|t| t.to_lowercase().contains("pocl")))
}

macro_rules! require_pocl {
    () => {
        if !pocl_installed() {
            eprintln!("skipped: PoCL is not installed (this test needs an OpenCL C compiler)");
            return;
        }
    };
}

const SAXPY: &str = "\
__kernel void saxpy(float a, __global const float *x, __global float *y)
{
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}
";

#[test]
fn usage_errors_exit_2_with_a_message() {
    let cases: &[(&[&str], &str)] = &[
        (&[], "no command given"),
        (&["frobnicate"], "unknown command 'frobnicate'"),
        (
            &["run", "k.cl", "--global", "4"],
            "run: --kernel NAME is required",
        ),
        (
            &["run", "--kernel", "k", "--global", "4"],
            "run: no source file given",
        ),
        (
            &["run", "k.cl", "--kernel", "k"],
            "run: --global X[,Y[,Z]] is required",
        ),
        (
            &[
                "run", "k.cl", "--kernel", "k", "--global", "4", "--arg", "flot:2",
            ],
            "run: argument 0: 'flot:2': 'flot' is not a scalar type",
        ),
        (
            &[
                "run",
                "k.cl",
                "--kernel",
                "k",
                "--global",
                "4",
                "--arg",
                "uchar:300",
            ],
            "out of the range of uchar",
        ),
        (&["build"], "build: no source file given"),
        (
            &["build", "k.cl", "--emit", "exe"],
            "build: --emit takes 'ir', 'wg', 'clif', 'asm' or 'ptx', not 'exe'",
        ),
        (&["bench", "--platform"], "bench: --platform needs a value"),
        (
            &["bench", "--device", "x"],
            "bench: --device takes a device index, not 'x'",
        ),
        (
            &["build", "k.cl", "--device", "-1"],
            "build: --device takes a device index, not '-1'",
        ),
        (
            &["bench", "--filter", "no-such-kernel"],
            "bench: no kernel matches the filter",
        ),
        (
            &["bench", "--large", "--quick"],
            "bench: --quick, --stream and --large ask for different sizes; give one",
        ),
        (
            &["install-icd", "--everywhere"],
            "install-icd: unknown option '--everywhere'",
        ),
        (
            &["uninstall-icd", "--dir"],
            "uninstall-icd: --dir needs a path",
        ),
    ];
    for (args, message) in cases {
        let out = ferrocl(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(message),
            "{args:?}: expected '{message}' in {}",
            stderr(&out)
        );
    }
}

#[test]
fn help_lists_every_command() {
    let out = ferrocl(&["help"]);
    assert!(out.status.success());
    for command in [
        "info",
        "install-icd",
        "uninstall-icd",
        "build",
        "run",
        "bench",
    ] {
        assert!(stdout(&out).contains(&format!("  {command} ")), "{command}");
    }
    for option in ["--quick|--stream|--large", "--large gives every kernel row"] {
        assert!(stdout(&out).contains(option), "{option}");
    }
}

#[test]
fn a_missing_source_file_is_an_error() {
    let out = ferrocl(&["build", "/nonexistent/k.cl"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("cannot read /nonexistent/k.cl"),
        "{}",
        stderr(&out)
    );
}

/// An empty file is a program without kernels (its bytes are no C string, so the source
/// goes to clCreateProgramWithSource as "").
#[test]
fn an_empty_source_file_builds_a_program_without_kernels() {
    let dir = scratch("empty-source");
    let path = write(&dir, "empty.cl", "");
    let out = ferrocl(&["build", &path]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("kernels: (none)"), "{}", stdout(&out));
}

#[test]
fn install_and_uninstall_icd() {
    let dir = scratch("icd");
    let vendors = dir.join("vendors");
    let v = vendors.to_string_lossy().into_owned();
    let out = ferrocl(&["install-icd", "--dir", &v]);
    assert!(out.status.success(), "{}", stderr(&out));
    let icd = fs::read_to_string(vendors.join("ferrocl.icd")).expect("ferrocl.icd written");
    let library = PathBuf::from(icd.trim());
    assert!(library.is_absolute() && library.is_file(), "{icd}");
    assert!(library.ends_with("libferrocl.so"), "{icd}");
    let text = stdout(&out);
    assert!(text.contains(&format!("OCL_ICD_VENDORS={v}")), "{text}");
    assert!(text.contains("OCL_ICD_FILENAMES="), "{text}");

    // A library named explicitly; one that does not exist is refused.
    let out = ferrocl(&[
        "install-icd",
        "--dir",
        &v,
        "--library",
        "/nonexistent/libferrocl.so",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("--library /nonexistent/libferrocl.so"),
        "{}",
        stderr(&out)
    );

    let out = ferrocl(&["uninstall-icd", "--dir", &v]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!vendors.join("ferrocl.icd").exists());
    let out = ferrocl(&["uninstall-icd", "--dir", &v]);
    assert!(out.status.success());
    assert!(stdout(&out).contains("nothing to do"), "{}", stdout(&out));

    // A ferrocl.icd that names something else is left alone.
    fs::write(vendors.join("ferrocl.icd"), "libother.so\n").unwrap();
    let out = ferrocl(&["uninstall-icd", "--dir", &v]);
    assert_eq!(out.status.code(), Some(1));
    assert!(vendors.join("ferrocl.icd").exists());
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn install_icd_for_the_user_goes_under_xdg_data_home() {
    let dir = scratch("xdg");
    let out = Command::new(env!("CARGO_BIN_EXE_ferrocl"))
        .args(["install-icd"])
        .env("XDG_DATA_HOME", &dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let icd = dir.join("OpenCL/vendors/ferrocl.icd");
    assert!(icd.is_file(), "{}", stdout(&out));
    let out = Command::new(env!("CARGO_BIN_EXE_ferrocl"))
        .args(["uninstall-icd", "--user"])
        .env("XDG_DATA_HOME", &dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!icd.exists());
    let _ = fs::remove_dir_all(dir);
}

/// The value clinfo prints for a property in its `--raw` form (`[ferrocl/0]  NAME  value`).
fn clinfo_value(raw: &str, prefix: &str, name: &str) -> Option<String> {
    raw.lines()
        .filter(|l| l.trim_start().starts_with(prefix))
        .find_map(|l| {
            let rest = l.trim_start()[prefix.len()..].trim_start();
            let value = rest.strip_prefix(name)?;
            value
                .starts_with(char::is_whitespace)
                .then(|| value.trim().to_string())
        })
}

#[test]
fn info_agrees_with_clinfo() {
    let out = ferrocl(&["info", "--json"]);
    assert!(out.status.success());
    let info = stdout(&out);
    let dir = scratch("clinfo");
    let v = dir.to_string_lossy().into_owned();
    assert!(ferrocl(&["install-icd", "--dir", &v]).status.success());
    let clinfo = Command::new("clinfo")
        .arg("--raw")
        .env("OCL_ICD_VENDORS", &dir)
        .output();
    let _ = fs::remove_dir_all(&dir);
    let Ok(clinfo) = clinfo else {
        eprintln!("skipped: clinfo is not installed");
        return;
    };
    let raw = stdout(&clinfo);
    // Each JSON field of `ferrocl info` and the property clinfo shows for it.
    let json_field = |key: &str| -> String {
        let at = info
            .find(&format!("\"{key}\": "))
            .unwrap_or_else(|| panic!("{key} in {info}"));
        let value = info[at + key.len() + 4..].lines().next().unwrap();
        value.trim_end_matches(',').trim_matches('"').to_string()
    };
    let platform = [
        ("name", "CL_PLATFORM_NAME"),
        ("vendor", "CL_PLATFORM_VENDOR"),
    ];
    for (key, property) in platform {
        let want = json_field(key);
        assert_eq!(
            clinfo_value(&raw, "[ferrocl/*]", property)
                .or_else(|| clinfo_value(&raw, "", property)),
            Some(want),
            "{property}\n{raw}"
        );
    }
    let device = [
        ("max_compute_units", "CL_DEVICE_MAX_COMPUTE_UNITS"),
        ("max_clock_frequency_mhz", "CL_DEVICE_MAX_CLOCK_FREQUENCY"),
        ("global_mem_size", "CL_DEVICE_GLOBAL_MEM_SIZE"),
        ("max_mem_alloc_size", "CL_DEVICE_MAX_MEM_ALLOC_SIZE"),
        ("local_mem_size", "CL_DEVICE_LOCAL_MEM_SIZE"),
        ("max_work_group_size", "CL_DEVICE_MAX_WORK_GROUP_SIZE"),
        ("opencl_c_version", "CL_DEVICE_OPENCL_C_VERSION"),
    ];
    for (key, property) in device {
        let want = json_field(key);
        assert_eq!(
            clinfo_value(&raw, "[ferrocl/0]", property),
            Some(want),
            "{property}\n{raw}"
        );
    }
    // The text form too: the platform's lines are indented by 2, the device's by 4.
    let text = stdout(&ferrocl(&["info"]));
    let line = |indent: usize, label: &str| -> String {
        let prefix = format!("{}{label}: ", " ".repeat(indent));
        text.lines()
            .find_map(|l| l.strip_prefix(&prefix))
            .unwrap_or_else(|| panic!("{label} in {text}"))
            .to_string()
    };
    let platform_lines = [
        ("Version", "CL_PLATFORM_VERSION"),
        ("Profile", "CL_PLATFORM_PROFILE"),
        ("Extensions", "CL_PLATFORM_EXTENSIONS"),
    ];
    for (label, property) in platform_lines {
        assert_eq!(
            clinfo_value(&raw, "", property),
            Some(line(2, label)),
            "{property}\n{raw}"
        );
    }
    let device_lines = [
        ("Version", "CL_DEVICE_VERSION"),
        ("Vendor", "CL_DEVICE_VENDOR"),
        ("Extensions", "CL_DEVICE_EXTENSIONS"),
        ("Max work-item sizes", "CL_DEVICE_MAX_WORK_ITEM_SIZES"),
    ];
    for (label, property) in device_lines {
        let ours = line(4, label).replace(['[', ']', ','], "");
        assert_eq!(
            clinfo_value(&raw, "[ferrocl/0]", property),
            Some(ours),
            "{property}\n{raw}"
        );
    }
    let at = info.find("\"devices\"").expect("devices");
    let device_json = &info[at..];
    let name_at = device_json.find("\"name\": \"").expect("device name") + 9;
    let name = &device_json[name_at..name_at + device_json[name_at..].find('"').unwrap()];
    assert_eq!(
        clinfo_value(&raw, "[ferrocl/0]", "CL_DEVICE_NAME").as_deref(),
        Some(name)
    );
}

/// The text after `"key": ` at its first occurrence in `json` past `from`, up to the line's end.
fn json_after(json: &str, from: usize, key: &str) -> String {
    let at = json[from..]
        .find(&format!("\"{key}\": "))
        .unwrap_or_else(|| panic!("{key} in {json}"));
    let value = json[from + at + key.len() + 4..].lines().next().unwrap();
    value.trim_end_matches(',').to_string()
}

#[test]
fn info_all_reads_the_same_values_through_the_loader() {
    let direct = stdout(&ferrocl(&["info", "--json"]));
    let out = ferrocl(&["info", "--all", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let all = stdout(&out);
    let at = all
        .find("\"name\": \"ferrocl\"")
        .unwrap_or_else(|| panic!("ferrocl among the loader's platforms: {all}"));
    for key in [
        "version",
        "max_compute_units",
        "max_clock_frequency_mhz",
        "global_mem_size",
        "max_mem_alloc_size",
        "local_mem_size",
        "max_work_group_size",
        "compiler_available",
        "opencl_c_version",
    ] {
        assert_eq!(
            json_after(&all, at, key),
            json_after(&direct, 0, key),
            "{key}"
        );
    }
    if pocl_installed() {
        assert!(
            all.contains("\"name\": \"Portable Computing Language\""),
            "{all}"
        );
    }
    let text = stdout(&ferrocl(&["info", "--all"]));
    assert!(text.contains("Platform: ferrocl\n"), "{text}");
}

#[test]
fn info_all_agrees_with_clinfo_on_pocl() {
    require_pocl!();
    let Ok(clinfo) = Command::new("clinfo").arg("--raw").output() else {
        eprintln!("skipped: clinfo is not installed");
        return;
    };
    let raw = stdout(&clinfo);
    let all = stdout(&ferrocl(&["info", "--all", "--json"]));
    let at = all
        .find("\"name\": \"Portable Computing Language\"")
        .unwrap_or_else(|| panic!("PoCL in {all}"));
    let device = at + all[at..].find("\"devices\"").expect("devices");
    // PoCL's global memory size follows the free memory, so only the fixed properties.
    let fields = [
        (at, "version", "[POCL/*]", "CL_PLATFORM_VERSION"),
        (at, "vendor", "[POCL/*]", "CL_PLATFORM_VENDOR"),
        (device, "name", "[POCL/0]", "CL_DEVICE_NAME"),
        (device, "version", "[POCL/0]", "CL_DEVICE_VERSION"),
        (
            device,
            "max_compute_units",
            "[POCL/0]",
            "CL_DEVICE_MAX_COMPUTE_UNITS",
        ),
        (
            device,
            "max_work_group_size",
            "[POCL/0]",
            "CL_DEVICE_MAX_WORK_GROUP_SIZE",
        ),
        (
            device,
            "local_mem_size",
            "[POCL/0]",
            "CL_DEVICE_LOCAL_MEM_SIZE",
        ),
    ];
    for (from, key, prefix, property) in fields {
        let ours = json_after(&all, from, key).trim_matches('"').to_string();
        let theirs = clinfo_value(&raw, prefix, property)
            .or_else(|| clinfo_value(&raw, "", property))
            .unwrap_or_else(|| panic!("{property} in {raw}"));
        assert_eq!(ours, theirs, "{property}");
    }
}

#[test]
fn ferrocl_without_a_compiler_reports_the_build_error() {
    // Until clBuildProgram compiles source, `run` and `build` on ferrocl must say so and exit
    // 1; once it does, they succeed. Either way they never crash.
    let dir = scratch("ferrocl-build");
    let file = write(&dir, "saxpy.cl", SAXPY);
    let out = ferrocl(&["build", &file]);
    match out.status.code() {
        Some(0) => assert!(stdout(&out).contains("kernels: saxpy"), "{}", stdout(&out)),
        Some(1) => assert!(
            stderr(&out).contains("build failed on ferrocl (CL_"),
            "{}",
            stderr(&out)
        ),
        other => panic!("ferrocl build exited with {other:?}: {}", stderr(&out)),
    }
    let out = ferrocl(&[
        "run",
        &file,
        "--kernel",
        "saxpy",
        "--global",
        "4",
        "--arg",
        "float:2",
        "--arg",
        "float[4]=iota",
        "--arg",
        "float[4]=1",
        "--print",
        "y",
    ]);
    match out.status.code() {
        Some(0) => assert_eq!(stdout(&out), "y: 1 3 5 7\n"),
        Some(1) => assert!(
            stderr(&out).contains("build failed on ferrocl"),
            "{}",
            stderr(&out)
        ),
        other => panic!("ferrocl run exited with {other:?}: {}", stderr(&out)),
    }
    let _ = fs::remove_dir_all(dir);
}

/// `tests/data/axpy.ir`: kernels that ferrocl runs from IR, without a compiler.
fn axpy_ir() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/axpy.ir")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn run_on_ferrocl_from_ir() {
    let ir = axpy_ir();
    let out = ferrocl(&[
        "run",
        &ir,
        "--kernel",
        "axpy",
        "--global",
        "4",
        "--arg",
        "float:0.5",
        "--arg",
        "float[4]=iota",
        "--arg",
        "float[4]=1",
        "--print",
        "dst",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "dst: 1 1.5 2 2.5\n");
    assert!(stderr(&out).contains("ran axpy on "), "{}", stderr(&out));

    let dir = scratch("ferrocl-ir");
    let npy = dir.join("out.npy");
    let out = ferrocl(&[
        "run",
        &ir,
        "-k",
        "count",
        "-g",
        "5",
        "-l",
        "5",
        "-a",
        "int[5]",
        "-a",
        "int:-2",
        "-o",
        &format!("0={}", npy.display()),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let written = fs::read(&npy).unwrap();
    assert!(String::from_utf8_lossy(&written).contains("'descr': '<i4'"));
    let want: Vec<u8> = [-2i32, -1, 0, 1, 2]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    assert!(written.ends_with(&want));
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn a_missing_device_is_an_error() {
    let out = ferrocl(&["build", &axpy_ir(), "--device", "9"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("platform 'ferrocl' has no device 9 (it has 1)"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn run_on_ferrocl_names_the_argument_that_does_not_fit() {
    let ir = axpy_ir();
    let base = ["run", ir.as_str(), "--kernel", "axpy", "--global", "4"];
    let cases: &[(&[&str], &str)] = &[
        (
            &["--arg", "float:2", "--arg", "float[4]"],
            "kernel 'axpy' takes 3 arguments (float alpha, __global float* src, __global float* dst); 2 given",
        ),
        (
            &["--arg", "double:2", "--arg", "float[4]", "--arg", "float[4]"],
            "argument 0 'alpha' (float) got double:2, a different type",
        ),
        (
            &["--arg", "float:2", "--arg", "uint[4]", "--arg", "float[4]"],
            "argument 1 'src' (__global float*) points to float, got uint[4]",
        ),
        (
            &["--arg", "float:2", "--arg", "float[4]", "--arg", "local:16"],
            "argument 2 'dst' (__global float*) is not a __local pointer",
        ),
        (
            &["--arg", "float:2", "--arg", "float[4]", "--arg", "float[4]", "--print", "7"],
            "--print 7: the kernel has no argument 7 (it takes 3)",
        ),
    ];
    expect_usage_errors(&base, cases);
}

#[test]
fn build_ir_on_ferrocl() {
    let ir = axpy_ir();
    let out = ferrocl(&["build", &ir]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("built on ferrocl"),
        "{}",
        stdout(&out)
    );
    assert!(
        stdout(&out).contains("kernels: axpy, count"),
        "{}",
        stdout(&out)
    );
    // --emit ir prints the IR the device compiled: the kernels again, in the text form.
    let out = ferrocl(&["build", &ir, "--emit", "ir"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("kernel @axpy(f32, ptr.global, ptr.global)"),
        "{text}"
    );
    assert!(text.contains("kernel @count("), "{text}");
    // --emit wg prints the work-group functions: the kernel's parameters and the context, and
    // the loop over the work-items whose counter replaces the global id's query.
    let out = ferrocl(&["build", &ir, "--emit", "wg"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("func @axpy(f32, ptr.global, ptr.global, ptr.private)"),
        "{text}"
    );
    assert!(!text.contains("global_id"), "{text}");
    assert!(text.contains("local_size 0"), "{text}");

    let dir = scratch("bad-ir");
    let bad = write(&dir, "bad.ir", "kernel @k(\n");
    let out = ferrocl(&["build", &bad]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(&format!("{bad}:2:1: ")),
        "{}",
        stderr(&out)
    );
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn build_emits_the_cpu_code_as_clif_and_asm() {
    let dir = scratch("emit-code");
    let src = write(
        &dir,
        "scale.cl",
        "__kernel void scale4(__global float4 *x, float4 s) { size_t i = get_global_id(0); x[i] = x[i] * s + s; }\n",
    );
    // Cranelift IR: the float4 arithmetic on one f32x4 value, not four f32s.
    let out = ferrocl(&["build", &src, "--emit", "clif"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let clif = stdout(&out);
    assert!(clif.contains("; kernel scale4"), "{clif}");
    assert!(clif.contains("load.f32x4"), "{clif}");
    assert!(clif.contains("fmul") || clif.contains("fma"), "{clif}");
    assert!(!clif.contains("load.f32 aligned"), "{clif}");
    // The machine code: packed single-precision instructions on xmm registers.
    let out = ferrocl(&["build", &src, "--emit", "asm"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let asm = stdout(&out);
    assert!(asm.contains("; kernel scale4"), "{asm}");
    if cfg!(target_arch = "x86_64") {
        assert!(asm.contains("ps ") && asm.contains("%xmm"), "{asm}");
    }
    let _ = fs::remove_dir_all(dir);
}

/// Whether the host's fused multiply-add is one instruction, as the CPU device decides it
/// (FP_FAST_FMAF): x86-64 with the FMA extension, and AArch64.
fn host_has_fast_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("fma");
    #[cfg(not(target_arch = "x86_64"))]
    return cfg!(target_arch = "aarch64");
}

/// `-cl-mad-enable` (API 5.8.6.3) reaches the code: under `#pragma OPENCL FP_CONTRACT OFF`
/// `a * b + c` is a multiplication and an addition, with the option one `fma` where the host
/// has a fast one.
#[test]
fn build_contracts_under_mad_enable() {
    let dir = scratch("emit-mad-enable");
    let src = write(
        &dir,
        "mad.cl",
        "#pragma OPENCL FP_CONTRACT OFF\n\
         __kernel void mad(__global float *x, float a, float b) { size_t i = get_global_id(0); x[i] = x[i] * a + b; }\n",
    );
    let out = ferrocl_cranelift(&["build", &src, "--emit", "clif"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let clif = stdout(&out);
    assert!(clif.contains("fmul"), "{clif}");
    assert!(!clif.contains(" fma"), "{clif}");
    for option in ["-cl-mad-enable", "-cl-fast-relaxed-math"] {
        let out = ferrocl_cranelift(&["build", &src, "--options", option, "--emit", "clif"]);
        assert!(out.status.success(), "{}", stderr(&out));
        let clif = stdout(&out);
        assert_eq!(
            clif.contains(" fma"),
            host_has_fast_fma(),
            "{option}: {clif}"
        );
    }
    let _ = fs::remove_dir_all(dir);
}

/// An `fma` overwrites one of its factors on x86-64 (`vfmadd213`); the code generator gives
/// that place to a factor read there for the last time, so that no copy saves it: in clpeak's
/// chains (`x = mad(y, x, y); y = mad(x, y, x)`, each value read three times) Cranelift copied
/// one register per `fma` and spilled, with all 16 `xmm` holding a `double16` pair.
#[test]
fn fma_chains_overwrite_the_factor_that_dies() {
    if !host_has_fast_fma() || !cfg!(target_arch = "x86_64") {
        return;
    }
    let dir = scratch("emit-fma-chains");
    let src = write(
        &dir,
        "chains.cl",
        "__kernel void chains(__global double *out, double a) {\n\
         double16 x = (double16)(a); double16 y = (double16)(get_global_id(0));\n\
         for (int i = 0; i < 8; i++) { x = mad(y, x, y); y = mad(x, y, x); x = mad(y, x, y); y = mad(x, y, x); }\n\
         out[get_global_id(0)] = y.s0 + y.sf;\n}\n",
    );
    let out = ferrocl_cranelift(&["build", &src, "--emit", "asm"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let asm = stdout(&out);
    let count = |what: &dyn Fn(&str) -> bool| asm.lines().filter(|l| what(l.trim())).count();
    let fmas = count(&|l| l.starts_with("vfmadd"));
    let copies = count(&|l| {
        (l.starts_with("movdqa ") || l.starts_with("movaps ") || l.starts_with("movapd "))
            && !l.contains('(')
    });
    let stack = count(&|l| l.contains("(%rsp)"));
    assert!(fmas >= 32, "{asm}");
    assert!(copies * 8 < fmas, "{copies} copies for {fmas} fmas: {asm}");
    assert!(
        stack * 4 < fmas,
        "{stack} stack accesses for {fmas} fmas: {asm}"
    );
    let _ = fs::remove_dir_all(dir);
}

/// `--emit` prints what the device recorded of a real build: a program built from source in
/// this process as `clBuildProgram` builds it, with the device's recording on
/// (`-cl-ferrocl-listing`), holds exactly the text `ferrocl build --emit` prints for each
/// stage, and its build log ends with that text.
#[test]
fn emit_prints_the_record_of_a_real_build() {
    use ferrocl_core::program::{Program, LISTING_HEADER};
    use ferrocl_core::{Context, Device, Platform};
    let source = "__kernel void wide(__global float *x, float a) { size_t i = get_global_id(0); x[i] = x[i] * a + 1.0f; }\n\
                  __kernel void sums(__global int *x) { int p[4]; for (int k = 0; k < 4; k++) p[k] = x[k * get_global_id(0)]; x[get_global_id(0)] = p[0] + p[x[1] & 3]; }\n";
    let dir = scratch("emit-record");
    let src = write(&dir, "k.cl", source);
    let platform = Platform::init(|m| vec![Device::cpu(m, Box::new(ferrocl_cpu::CpuDevice))]);
    let devices = platform.devices().to_vec();
    let context = Context::new(devices.clone(), Vec::new(), false, None);
    let program = Program::from_source(context, source.to_string());
    program
        .build(&[], "-cl-mad-enable -cl-ferrocl-listing=asm")
        .expect("builds");
    let build = program.build_info(&devices[0]).expect("a build");
    let header = format!("{LISTING_HEADER}asm\n");
    let at = build.log.find(&header).expect("the log holds the listing");
    let exe = build.executable.expect("an executable");
    let listing = exe.listing().expect("recorded");
    assert_eq!(
        &build.log[at + header.len()..],
        listing.stage("asm").unwrap()
    );
    assert_eq!(
        listing.stages().collect::<Vec<_>>(),
        ["ir", "wg", "clif", "asm"]
    );
    for stage in ["ir", "wg", "clif", "asm"] {
        let out = ferrocl(&[
            "build",
            &src,
            "--options",
            "-cl-mad-enable",
            "--emit",
            stage,
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(
            stdout(&out),
            listing.stage(stage).unwrap(),
            "--emit {stage}"
        );
    }
    // The record says at which width each kernel runs, or why it runs one work-item at a
    // time, as the compile decided it.
    let wg = listing.stage("wg").unwrap();
    assert!(wg.contains("; kernel wide: "), "{wg}");
    let sums = wg.split("; kernel sums: ").nth(1).expect("sums");
    assert!(sums.starts_with("not vectorized"), "{sums}");
    let _ = fs::remove_dir_all(dir);
}

/// The vectorizer's cost model shows in the listing: a kernel whose W-wide code gathers on
/// every trip of a loop that work-items leave at different trips runs one work-item at a
/// time and says why; an element-wise kernel is vectorized with its estimate; and
/// `-cl-ferrocl-no-vectorize` turns vectorization off.
#[test]
fn the_cost_model_shows_in_the_listing() {
    let dir = scratch("emit-cost");
    let src = write(
        &dir,
        "k.cl",
        "__kernel void spmv(__global const int *rowptr, __global const int *col, __global const float *val, __global const float *x, __global float *y) {\n\
         int r = get_global_id(0); float acc = 0.0f;\n\
         for (int k = rowptr[r]; k < rowptr[r + 1]; k++) acc += val[k] * x[col[k]];\n\
         y[r] = acc; }\n\
         __kernel void scale(__global float *x, float a) { size_t i = get_global_id(0); x[i] = x[i] * a + 1.0f; }\n",
    );
    let wg = |options: &str| {
        let out = ferrocl(&["build", &src, "--options", options, "--emit", "wg"]);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let text = wg("");
    let note = |text: &str, kernel: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("; kernel {kernel}: ")))
            .unwrap_or_else(|| panic!("{kernel} in {text}"))
            .to_string()
    };
    let spmv = note(&text, "spmv");
    assert!(
        spmv.starts_with("not vectorized: ") && spmv.contains("estimated to cost"),
        "{spmv}"
    );
    let scale = note(&text, "scale");
    assert!(
        scale.contains("work-items a chunk (estimated cost 0."),
        "{scale}"
    );
    let off = wg("-cl-ferrocl-no-vectorize");
    assert_eq!(
        note(&off, "scale"),
        "not vectorized: -cl-ferrocl-no-vectorize"
    );
    let _ = fs::remove_dir_all(dir);
}

/// Kernels computing OpenCL vectors of 512 bits or more (`float16`, `double8`) are not
/// vectorized at Cranelift's widths, and the listing says why; on an AVX-512 host a `float16`
/// kernel is vectorized at the wide tier's width instead (a `float16` is one `zmm` there,
/// `tier_holds_wide_vectors`), a `double8` one not (the tier leaves `f64` to Cranelift).
/// `float8` kernels are vectorized.
#[test]
fn wide_opencl_vectors_are_not_vectorized_across_work_items() {
    let dir = scratch("emit-wide-vectors");
    let kernel = |name: &str, ty: &str| {
        format!(
            "__kernel void {name}(__global {ty} *a) {{ size_t i = get_global_id(0); \
             {ty} x = a[i], y = x + ({ty})(1); \
             for (int k = 0; k < 16; k++) {{ x = mad(y, x, y); y = mad(x, y, x); }} a[i] = x + y; }}\n"
        )
    };
    let src = write(
        &dir,
        "k.cl",
        &[
            kernel("f16", "float16"),
            kernel("d8", "double8"),
            kernel("f8", "float8"),
        ]
        .concat(),
    );
    let out = ferrocl(&["build", &src, "--emit", "wg"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let note = |kernel: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("; kernel {kernel}: ")))
            .unwrap_or_else(|| panic!("{kernel} in {text}"))
            .to_string()
    };
    // Where the wide-vector tier is on, the note goes on with its refusal.
    let why = "not vectorized: 512-bit vectors, each 4 registers a work-item";
    let tier = "16 work-items a chunk";
    let f16 = note("f16");
    assert!(
        f16.starts_with(why) || (f16.starts_with(tier) && f16.ends_with("; wide tier")),
        "{f16}"
    );
    assert!(note("d8").starts_with(why), "{}", note("d8"));
    assert!(note("f8").contains("work-items a chunk"), "{}", note("f8"));
    let _ = fs::remove_dir_all(dir);
}

/// `-cl-opt-disable` (API 5.8.6.3: "disables all optimizations") reaches the CPU device: it
/// does not vectorize, and says so.
#[test]
fn opt_disable_turns_vectorization_off() {
    let dir = scratch("emit-opt-disable");
    let src = write(
        &dir,
        "k.cl",
        "__kernel void k(__global float *x, float a) { size_t i = get_global_id(0); x[i] = x[i] * a; }\n",
    );
    let out = ferrocl(&["build", &src, "--emit", "wg"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("work-items a chunk"),
        "{}",
        stdout(&out)
    );
    let out = ferrocl(&[
        "build",
        &src,
        "--options",
        "-cl-opt-disable",
        "--emit",
        "wg",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("; kernel k: not vectorized: -cl-opt-disable"),
        "{}",
        stdout(&out)
    );
    let _ = fs::remove_dir_all(dir);
}

/// A large function called from several sites stays a call: the kernel's work-group function
/// calls it, and the CPU code holds it as a function of its own, called from the kernel.
#[test]
fn build_shows_large_functions_kept_as_calls() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/kernels/language/calls.cl");
    let src = src.to_string_lossy();
    let out = ferrocl(&["build", &src, "--emit", "wg"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let wg = format!("\n{}", stdout(&out));
    let scalars = wg
        .split("\nfunc @")
        .find(|f| f.starts_with("scalars("))
        .unwrap_or_else(|| panic!("no work-group function for scalars:\n{wg}"));
    assert_eq!(scalars.matches("= call @mix(").count(), 2, "{scalars}");
    assert_eq!(
        scalars.matches("= call @mix_twice(").count(),
        2,
        "{scalars}"
    );
    let out = ferrocl(&["build", &src, "--emit", "clif"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let clif = stdout(&out);
    for name in [
        "mix",
        "mix_twice",
        "stir_private",
        "stir_local",
        "stir_global",
        "spread",
    ] {
        assert!(clif.contains(&format!("; function {name}\n")), "{name}");
    }
    // The heading may say why the kernel is not vectorized: "; kernel scalars (...)".
    let kernel = clif
        .split("; kernel scalars")
        .nth(1)
        .expect("the kernel's code");
    assert!(kernel.contains("call fn"), "{kernel}");
}

#[test]
fn an_unknown_platform_lists_the_ones_there_are() {
    let dir = scratch("no-platform");
    let file = write(&dir, "saxpy.cl", SAXPY);
    let out = ferrocl(&["build", &file, "--platform", "no-such-platform"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("no OpenCL platform matches 'no-such-platform'"),
        "{err}"
    );
    assert!(err.contains("'ferrocl'"), "{err}");
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn run_saxpy_on_pocl() {
    require_pocl!();
    let dir = scratch("run");
    let file = write(&dir, "saxpy.cl", SAXPY);
    let out = ferrocl(&[
        "run",
        &file,
        "--platform",
        "pocl",
        "--kernel",
        "saxpy",
        "--global",
        "8",
        "--arg",
        "float:2",
        "--arg",
        "float[8]=iota",
        "--arg",
        "float[8]=1",
        "--print",
        "y",
        "--print",
        "1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "y: 1 3 5 7 9 11 13 15\nx: 0 1 2 3 4 5 6 7\n");
    assert!(stderr(&out).contains("ran saxpy on "), "{}", stderr(&out));

    // Inputs from a raw file and an .npy file; the output written as .npy and as raw bytes.
    let x: Vec<u8> = [1.0f32, 2.0, 3.0, 4.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    fs::write(dir.join("x.bin"), &x).unwrap();
    let mut npy = b"\x93NUMPY\x01\x00".to_vec();
    let header = format!(
        "{{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }}{}\n",
        " ".repeat(53)
    );
    npy.extend_from_slice(&(header.len() as u16).to_le_bytes());
    npy.extend_from_slice(header.as_bytes());
    for v in [10.0f32, 20.0, 30.0, 40.0] {
        npy.extend_from_slice(&v.to_le_bytes());
    }
    fs::write(dir.join("y.npy"), &npy).unwrap();
    let x_arg = format!("@{}", dir.join("x.bin").display());
    let y_arg = dir.join("y.npy").to_string_lossy().into_owned();
    let out_npy = dir.join("out.npy");
    let out_bin = dir.join("out.bin");
    let out = ferrocl(&[
        "run",
        &file,
        "--platform",
        "pocl",
        "--kernel",
        "saxpy",
        "--global",
        "4",
        "--local",
        "2",
        "--arg",
        "float:0.5",
        "--arg",
        &x_arg,
        "--arg",
        &y_arg,
        "--output",
        &format!("y={}", out_npy.display()),
        "--output",
        &format!("2={}", out_bin.display()),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let want: Vec<u8> = [10.5f32, 21.0, 31.5, 42.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    assert_eq!(fs::read(&out_bin).unwrap(), want);
    let written = fs::read(&out_npy).unwrap();
    assert!(written.starts_with(b"\x93NUMPY"));
    assert!(String::from_utf8_lossy(&written).contains("'descr': '<f4'"));
    assert!(written.ends_with(&want));
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn run_passes_vectors_and_local_buffers() {
    require_pocl!();
    let dir = scratch("run-vector");
    let file = write(
        &dir,
        "scale.cl",
        "__kernel void scale(float4 s, __global float4 *x, __local float *tmp)
{
    tmp[get_local_id(0)] = 1.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t i = get_global_id(0);
    x[i] = x[i] * s + tmp[get_local_id(0)];
}
",
    );
    let run = |local: &str| {
        ferrocl(&[
            "run",
            &file,
            "--platform",
            "pocl",
            "-k",
            "scale",
            "-g",
            "2",
            "-l",
            "2",
            "-a",
            "float4:1,2,3,4",
            "-a",
            "float[8]=iota",
            "-a",
            local,
            "-p",
            "x",
        ])
    };
    for local in ["local:8", "float[2]"] {
        let out = run(local);
        assert!(out.status.success(), "{local}: {}", stderr(&out));
        assert_eq!(stdout(&out), "x: 1 3 7 13 5 11 19 29\n", "{local}");
    }
    let out = run("float[2]=1");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out)
            .contains("argument 2 'tmp' (__local float*) is a __local buffer: give only its size"),
        "{}",
        stderr(&out)
    );
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn run_names_the_argument_that_does_not_fit() {
    require_pocl!();
    let dir = scratch("run-errors");
    let file = write(&dir, "saxpy.cl", SAXPY);
    fs::write(dir.join("odd.bin"), [0u8; 6]).unwrap();
    let odd = format!("@{}", dir.join("odd.bin").display());
    let base = [
        "run",
        &file,
        "--platform",
        "pocl",
        "--kernel",
        "saxpy",
        "--global",
        "4",
    ];
    let cases: &[(&[&str], &str)] = &[
        (
            &["--arg", "float:2"],
            "kernel 'saxpy' takes 3 arguments (float a, __global float* x, __global float* y); 1 given",
        ),
        (
            &["--arg", "int:2", "--arg", "float[4]", "--arg", "float[4]"],
            "argument 0 'a' (float) got int:2, a different type",
        ),
        (
            &["--arg", "float:2", "--arg", "int[4]", "--arg", "float[4]"],
            "argument 1 'x' (__global float*) points to float, got int[4]",
        ),
        (
            &["--arg", "float:2", "--arg", "float:3", "--arg", "float[4]"],
            "argument 1 'x' (__global float*) is a buffer; got the scalar float:3",
        ),
        (
            &["--arg", "float[4]", "--arg", "float[4]", "--arg", "float[4]"],
            "argument 0 'a' (float) is a scalar; got a buffer (float[4])",
        ),
        (
            &["--arg", "float:2", "--arg", &odd, "--arg", "float[4]"],
            "holds 6 bytes, not a whole number of float (4 bytes each)",
        ),
        (
            &["--arg", "float:2", "--arg", "float[4]", "--arg", "float[4000000000000]"],
            "argument 2 'y' (__global float*): float[4000000000000] is larger than the device's largest buffer",
        ),
        (
            &["--arg", "float:2", "--arg", "float[4]", "--arg", "float[4]", "--print", "z"],
            "--print z: the kernel has no argument named 'z'",
        ),
        (
            &["--arg", "float:2", "--arg", "float[4]", "--arg", "float[4]", "--print", "a"],
            "argument 0 'a' (float) is not a buffer",
        ),
    ];
    expect_usage_errors(&base, cases);
    let out = ferrocl(&[
        "run",
        &file,
        "--platform",
        "pocl",
        "--kernel",
        "saxpi",
        "--global",
        "4",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("has no kernel 'saxpi'"),
        "{}",
        stderr(&out)
    );
    assert!(
        stderr(&out).contains("its kernels: saxpy"),
        "{}",
        stderr(&out)
    );
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn build_prints_the_log_and_fails_on_errors() {
    require_pocl!();
    let dir = scratch("build");
    let good = write(&dir, "good.cl", SAXPY);
    let out = ferrocl(&["build", &good, "--platform", "pocl"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("kernels: saxpy"), "{}", stdout(&out));

    let bad = write(
        &dir,
        "bad.cl",
        "__kernel void k(__global flot *x) { x[0] = 1; }\n",
    );
    let out = ferrocl(&["build", &bad, "--platform", "pocl"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("error"), "{err}");
    assert!(err.contains("flot"), "{err}");
    assert!(
        err.contains("build failed on Portable Computing Language (CL_BUILD_PROGRAM_FAILURE)"),
        "{err}"
    );
    assert!(
        !err.contains("\x1b["),
        "no colour when stderr is not a terminal: {err:?}"
    );

    // --emit: PoCL's program binary is not ferrocl IR; as it is, it goes to a file.
    let out = ferrocl(&["build", &good, "--platform", "pocl", "--emit", "ir"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("is not ferrocl IR"),
        "{}",
        stderr(&out)
    );
    let binary = dir.join("saxpy.bin");
    let b = binary.to_string_lossy().into_owned();
    let out = ferrocl(&[
        "build",
        &good,
        "--platform",
        "pocl",
        "--emit",
        "asm",
        "-o",
        &b,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(fs::metadata(&binary).is_ok_and(|m| m.len() > 0));

    // -D reaches the compiler.
    let needs = write(&dir, "needs.cl", "#ifndef N\n#error N is not defined\n#endif\n__kernel void k(__global int *x) { x[0] = N; }\n");
    assert_eq!(
        ferrocl(&["build", &needs, "--platform", "pocl"])
            .status
            .code(),
        Some(1)
    );
    let out = ferrocl(&[
        "build",
        &needs,
        "--platform",
        "pocl",
        "-D",
        "N=4",
        "--cl-std",
        "CL1.2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn bench_checks_and_times_on_pocl() {
    require_pocl!();
    let out = ferrocl(&[
        "bench",
        "--platform",
        "pocl",
        "--quick",
        "--filter",
        "saxpy",
        "--filter",
        "hist",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json = stdout(&out);
    assert!(json.contains("\"kernel\": \"saxpy\""), "{json}");
    assert!(json.contains("\"kernel\": \"histogram\""), "{json}");
    assert!(!json.contains("\"kernel\": \"sgemm\""), "{json}");
    assert_eq!(json.matches("\"status\": \"ok\"").count(), 2, "{json}");
    assert!(json.contains("\"throughput\": "), "{json}");
    assert!(
        stderr(&out).contains("bench: saxpy (1/2)"),
        "{}",
        stderr(&out)
    );

    // With ferrocl beside it: ratios to ferrocl, or n/a with ferrocl's reason.
    let out = ferrocl(&[
        "bench",
        "--platform",
        "ferrocl",
        "--platform",
        "pocl",
        "--quick",
        "--filter",
        "copy",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("\nscale: quick ("), "{text}");
    assert!(text.contains("pocl/ferrocl"), "{text}");
    assert!(text.contains("geomean"), "{text}");
    let copy = text
        .lines()
        .find(|l| l.starts_with("copy"))
        .expect("copy row");
    assert!(copy.contains("GB/s"), "{text}");
    if copy.contains("n/a [1]") {
        assert!(text.contains("[1] ferrocl: build failed"), "{text}");
    }
}

#[test]
fn bench_measures_ferrocl_launch_latency() {
    // Launching needs no compiler: without one, the empty kernel comes from ferrocl IR.
    let out = ferrocl(&[
        "bench",
        "--platform",
        "ferrocl",
        "--quick",
        "--filter",
        "latency",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json = stdout(&out);
    assert!(json.contains("\"kernel\": \"launch-latency\""), "{json}");
    assert!(json.contains("\"status\": \"ok\""), "{json}");
    assert!(json.contains("\"wall_ms\": "), "{json}");
}

/// Every row of the suite on ferrocl, each kernel's result checked against its host reference
/// (a wrong result shows as n/a, not ok).
#[test]
fn bench_checks_every_kernel_on_ferrocl() {
    let out = ferrocl(&["bench", "--platform", "ferrocl", "--quick", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json = stdout(&out);
    let kernels = [
        "copy",
        "saxpy",
        "stencil-2d",
        "transpose",
        "triad",
        "matvec",
        "stencil-tiled",
        "sgemm",
        "nbody",
        "mandelbrot",
        "reduce",
        "scan",
        "nw",
        "nn-layer",
        "resize-image",
        "histogram",
        "black-scholes",
        "exp-f32",
        "log-f32",
        "sincos-f32",
        "pow-f32",
        "atan2-f32",
        "hash",
        "float4-poly",
        "spmv-csr",
        "conv-5x5",
        "fft-256",
        "u8-threshold",
        "u8-absdiff",
        "pyr-down-u8",
        "launch-latency",
        "build-time",
        "small-build-median",
        "small-build-slowest",
        "large-build-first",
        "large-build-cached",
    ];
    for kernel in kernels {
        assert!(
            json.contains(&format!("\"kernel\": \"{kernel}\"")),
            "{kernel}: {json}"
        );
    }
    assert_eq!(
        json.matches("\"status\": \"ok\"").count(),
        kernels.len(),
        "{json}"
    );
}

/// The rows that leave the local size to the device give the same results in groups of
/// awkward sizes along x: 1, a prime below the vector width, and one chunk of 8 and a
/// remainder (non-uniform where it does not divide the global size).
#[test]
fn bench_checks_hold_at_awkward_local_sizes_on_ferrocl() {
    for local in ["1", "7", "13"] {
        let out = ferrocl(&[
            "bench",
            "--platform",
            "ferrocl",
            "--quick",
            "--json",
            "--local",
            local,
        ]);
        assert!(out.status.success(), "--local {local}: {}", stderr(&out));
        let json = stdout(&out);
        let rows = json.matches("\"kernel\": ").count();
        assert!(rows >= 20, "--local {local}: {json}");
        assert_eq!(
            json.matches("\"status\": \"ok\"").count(),
            rows,
            "--local {local}: {json}"
        );
    }
}

#[test]
fn bench_shows_an_unknown_platform_as_not_available() {
    let out = ferrocl(&[
        "bench",
        "--platform",
        "no-such-platform",
        "--quick",
        "--filter",
        "copy",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("n/a [1]"), "{text}");
    assert!(
        text.contains("[1] no-such-platform: no OpenCL platform matches 'no-such-platform'"),
        "{text}"
    );
}

/// printf (OpenCL C 6.15.14) from a kernel on ferrocl: the output of one work-group, in
/// work-item order, byte for byte, written when the command completes.
#[test]
fn printf_output_on_ferrocl() {
    let dir = scratch("printf");
    let source = write(
        &dir,
        "p.cl",
        "kernel void hello(global const int *x) {\n\
         \x20   int i = get_global_id(0);\n\
         \x20   float4 v = (float4)((float)x[i], 1.5f, -2.0f, 0.25f);\n\
         \x20   printf(\"item %d: %5.2f|%v4hlf|%#x|%c|%s|%ld|%%\\n\", i, v.x, v, x[i] * 255, 'A' + i, \"ok\", (long)i << 40);\n\
         }\n",
    );
    let o = ferrocl(&[
        "run",
        &source,
        "--kernel",
        "hello",
        "--global",
        "3",
        "--local",
        "3",
        "--arg",
        "int[3]=iota",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let want = "item 0:  0.00|0.000000,1.500000,-2.000000,0.250000|0|A|ok|0|%\n\
                item 1:  1.00|1.000000,1.500000,-2.000000,0.250000|0xff|B|ok|1099511627776|%\n\
                item 2:  2.00|2.000000,1.500000,-2.000000,0.250000|0x1fe|C|ok|2199023255552|%\n";
    assert!(stdout(&o).starts_with(want), "stdout:\n{}", stdout(&o));
}

/// printf of half values (cl_khr_fp16): 6.15.14.3, f, e, g and a "convert a float or half
/// argument that is a scalar type to a double"; a half vector's lanes with `%vnhf`.
#[test]
fn printf_prints_halves_on_ferrocl() {
    let dir = scratch("printf_half");
    let source = write(
        &dir,
        "p.cl",
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n\
         kernel void k(global const half *x) {\n\
         \x20   half h = x[0];\n\
         \x20   printf(\"%f %g %v2hf %a|\\n\", h, h * (half)2, (half2)(h, -h), h);\n\
         }\n",
    );
    let o = ferrocl(&[
        "run",
        &source,
        "--kernel",
        "k",
        "--global",
        "1",
        "--arg",
        "half[1]=1.5",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let want = "1.500000 3 1.500000,-1.500000 0x1.8p+0|\n";
    assert!(stdout(&o).starts_with(want), "stdout:\n{}", stdout(&o));
}

/// The tree reduction of tests/kernels/language/narrowed_tree_reduction.cl on ferrocl with a
/// smaller last work-group (3.0 clEnqueueNDRangeKernel: non-uniform work-groups, "the
/// remaining work-items" forming a group of their own, with -cl-std=CL3.0), vectorized and
/// not: each group's levels run only the work-items their guard leaves something to.
#[test]
fn narrowed_tree_reductions_with_a_smaller_last_group_on_ferrocl() {
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/kernels/language/narrowed_tree_reduction.cl");
    let source = source.to_str().unwrap();
    // (global size, local size): the last group has global % local work-items.
    let cases: [(usize, usize); 3] = [(110, 13), (250, 100), (70, 64)];
    for (global, local) in cases {
        let want: Vec<String> = (0..global)
            .step_by(local)
            .map(|g0| (g0..(g0 + local).min(global)).sum::<usize>().to_string())
            .collect();
        let (g, l) = (global.to_string(), local.to_string());
        let input = format!("int[{global}]=iota");
        let output = format!("int[{}]", want.len());
        let scratch = format!("local:{}", local * 4);
        for vectorize in ["always", "0"] {
            let o = Command::new(env!("CARGO_BIN_EXE_ferrocl"))
                .args(["run", source, "--platform", "ferrocl", "--kernel", "tree"])
                .args(["--global", &g, "--local", &l, "--options", "-cl-std=CL3.0"])
                .args(["--arg", &input, "--arg", &output, "--arg", &scratch])
                .args(["--print", "out"])
                .env("FERROCL_VECTORIZE", vectorize)
                .output()
                .expect("ferrocl runs");
            assert!(o.status.success(), "{}", stderr(&o));
            let line = format!("out: {}", want.join(" "));
            assert!(
                stdout(&o).lines().any(|l| l == line),
                "{global}/{local}, FERROCL_VECTORIZE={vectorize}: want {line}, got\n{}",
                stdout(&o)
            );
        }
    }
}
