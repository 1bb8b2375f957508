//! The real-world compatibility gate: every entry of `../shared/realworld-cl/manifest.tsv`
//! (OpenCL C from public projects, each built by a clang-based compiler with the options
//! listed there) must build through the C API with its options, its kernels must be created
//! (which compiles them for the CPU device), and their argument metadata must agree with the
//! source where that is simple to derive.
//!
//! The corpus is read at test time from `../shared/realworld-cl` beside the repository (or
//! `shared/realworld-cl` inside it, or `FERROCL_REALWORLD_DIR`). Without it the test fails, unless `FERROCL_REALWORLD_SKIP=1` says
//! to skip it. An entry whose `requires` column names a feature the device reports unsupported
//! (images: `CL_DEVICE_IMAGE_SUPPORT`; `cl_khr_fp64`, `cl_khr_fp16`, `int64_atomics`,
//! `subgroups`: `CL_DEVICE_EXTENSIONS`; `CL2.0`: `CL_DEVICE_OPENCL_C_ALL_VERSIONS`) is skipped
//! for that reason only, and the skips are counted.
//!
//! Each entry builds in its own process (this test binary run with `--entry N`), at most
//! `FERROCL_REALWORLD_JOBS` at a time (default: every core). `FERROCL_REALWORLD_TIMEOUT`
//! (seconds, default 120, 0 for none) bounds each entry: one that runs longer is stopped and
//! reported as too slow. `FERROCL_REALWORLD_FILTER` restricts the run to entries whose file
//! path contains that text. The gate runs with the workspace's tests (`cargo test
//! --workspace`, in the README's test command), in a debug build as in a release one;
//! `FERROCL_REALWORLD=0` leaves it out.
//!
//! Entries are built with the relative `-I` paths of their options made absolute against the
//! entry's directory, which is what building from that directory means (the manifest's
//! convention); the program text is the file's.

use ferrocl::api::{context::*, kernel::*, platform::*, program::*};
use opencl_sys::*;
use std::collections::VecDeque;
use std::ffi::{c_void, CString};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

struct Entry {
    file: String,
    options: String,
    requires: Vec<String>,
}

enum Outcome {
    Pass { checked_kernels: usize },
    Skip(String),
    Fail(String),
}

/// The corpus folder, or None when it is absent.
fn corpus_dir() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let candidates = match std::env::var_os("FERROCL_REALWORLD_DIR") {
        Some(d) => vec![PathBuf::from(d)],
        // `shared/` beside the checkout (CI), or inside it.
        None => vec![
            root.join("../shared/realworld-cl"),
            root.join("shared/realworld-cl"),
        ],
    };
    candidates
        .into_iter()
        .find(|d| d.join("manifest.tsv").is_file())
}

fn read_manifest(dir: &Path) -> Vec<Entry> {
    let text = std::fs::read_to_string(dir.join("manifest.tsv")).expect("read manifest.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert!(
                cols.len() >= 3,
                "manifest line with fewer than 3 columns: {l}"
            );
            Entry {
                file: cols[0].to_string(),
                options: cols[1].to_string(),
                requires: cols[2]
                    .split(',')
                    .map(str::trim)
                    .filter(|r| !r.is_empty() && *r != "-")
                    .map(str::to_string)
                    .collect(),
            }
        })
        .collect()
}

/// Makes the relative `-I` paths of `options` absolute against `dir`.
fn absolute_includes(options: &str, dir: &Path) -> String {
    let words: Vec<&str> = options.split_whitespace().collect();
    let mut out = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        let (path, consumed) = if w == "-I" && i + 1 < words.len() {
            (Some(words[i + 1]), 2)
        } else if let Some(p) = w.strip_prefix("-I").filter(|p| !p.is_empty()) {
            (Some(p), 1)
        } else {
            (None, 1)
        };
        match path {
            Some(p) if !Path::new(p).is_absolute() => {
                out.push("-I".to_string());
                out.push(dir.join(p).to_string_lossy().into_owned());
            }
            Some(p) => {
                out.push("-I".to_string());
                out.push(p.to_string());
            }
            None => out.push(w.to_string()),
        }
        i += consumed;
    }
    out.join(" ")
}

/// The first device of the platform, and what it supports.
struct Device {
    context: cl_context,
    device: cl_device_id,
    images: bool,
    extensions: String,
    c_versions: Vec<(u32, u32)>,
}

fn device_info(device: cl_device_id, param: cl_device_info) -> Vec<u8> {
    let mut size = 0usize;
    // SAFETY: a size query with a null value pointer.
    let err = unsafe { clGetDeviceInfo(device, param, 0, std::ptr::null_mut(), &mut size) };
    assert_eq!(err, CL_SUCCESS, "clGetDeviceInfo({param:#x}) size");
    let mut buf = vec![0u8; size];
    // SAFETY: `buf` holds `size` bytes.
    let err = unsafe {
        clGetDeviceInfo(
            device,
            param,
            size,
            buf.as_mut_ptr().cast(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(err, CL_SUCCESS, "clGetDeviceInfo({param:#x})");
    buf
}

fn c_string(bytes: &[u8]) -> String {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

fn open_device() -> Device {
    let mut platform: cl_platform_id = std::ptr::null_mut();
    let mut device: cl_device_id = std::ptr::null_mut();
    // SAFETY: one handle is written to each out pointer.
    unsafe {
        assert_eq!(
            clGetPlatformIDs(1, &mut platform, std::ptr::null_mut()),
            CL_SUCCESS
        );
        assert_eq!(
            clGetDeviceIDs(
                platform,
                CL_DEVICE_TYPE_ALL,
                1,
                &mut device,
                std::ptr::null_mut()
            ),
            CL_SUCCESS
        );
    }
    let mut err = CL_SUCCESS;
    // SAFETY: one valid device; no callback.
    let context = unsafe {
        clCreateContext(
            std::ptr::null(),
            1,
            &device,
            None,
            std::ptr::null_mut(),
            &mut err,
        )
    };
    assert_eq!(err, CL_SUCCESS, "clCreateContext");
    let images = device_info(device, CL_DEVICE_IMAGE_SUPPORT)[0] != 0;
    let extensions = c_string(&device_info(device, CL_DEVICE_EXTENSIONS));
    let versions = device_info(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS);
    let c_versions = versions
        .chunks_exact(std::mem::size_of::<cl_name_version>())
        .map(|c| {
            let v = u32::from_ne_bytes([c[0], c[1], c[2], c[3]]);
            (v >> 22, (v >> 12) & 0x3ff)
        })
        .collect();
    Device {
        context,
        device,
        images,
        extensions,
        c_versions,
    }
}

impl Device {
    fn has_extension(&self, name: &str) -> bool {
        self.extensions.split_whitespace().any(|e| e == name)
    }

    /// Why the device cannot build an entry that requires `feature`, from its queries.
    fn unsupported(&self, feature: &str) -> Option<String> {
        let missing = match feature {
            "images" => !self.images,
            "cl_khr_fp64" | "cl_khr_fp16" => !self.has_extension(feature),
            "int64_atomics" => !self.has_extension("cl_khr_int64_base_atomics"),
            "subgroups" => !self.has_extension("cl_khr_subgroups"),
            "CL2.0" => !self.c_versions.contains(&(2, 0)),
            // printf is OpenCL C 1.2 core.
            "printf" => false,
            other => panic!("manifest names an unknown requirement '{other}'"),
        };
        missing.then(|| match feature {
            "images" => "CL_DEVICE_IMAGE_SUPPORT is CL_FALSE".to_string(),
            "CL2.0" => "OpenCL C 2.0 is not in CL_DEVICE_OPENCL_C_ALL_VERSIONS".to_string(),
            f => format!("{f} is not in CL_DEVICE_EXTENSIONS"),
        })
    }

    fn build(&self, dir: &Path, e: &Entry) -> Outcome {
        for r in &e.requires {
            if let Some(why) = self.unsupported(r) {
                return Outcome::Skip(format!("requires {r}: {why}"));
            }
        }
        let path = dir.join(&e.file);
        let source = match std::fs::read(&path) {
            Ok(s) => s,
            Err(err) => return Outcome::Fail(format!("cannot read {}: {err}", path.display())),
        };
        let entry_dir = path.parent().expect("file in a directory");
        let options = absolute_includes(&e.options, entry_dir);
        let options = CString::new(options).expect("options without NUL");
        let mut err = CL_SUCCESS;
        let mut ptr = source.as_ptr().cast::<std::ffi::c_char>();
        let len = source.len();
        // SAFETY: one string of `len` bytes.
        let program =
            unsafe { clCreateProgramWithSource(self.context, 1, &mut ptr, &len, &mut err) };
        if err != CL_SUCCESS {
            return Outcome::Fail(format!("clCreateProgramWithSource returned {err}"));
        }
        let program = Program(program);
        // SAFETY: a valid program and device; no callback.
        let built = unsafe {
            clBuildProgram(
                program.0,
                1,
                &self.device,
                options.as_ptr(),
                None,
                std::ptr::null_mut(),
            )
        };
        if built != CL_SUCCESS {
            let log = self.build_log(program.0);
            let first = log
                .lines()
                .find(|l| l.contains("error"))
                .or_else(|| log.lines().find(|l| !l.trim().is_empty()))
                .unwrap_or("(empty build log)");
            return Outcome::Fail(format!("clBuildProgram returned {built}: {first}"));
        }
        let kernels = match create_kernels(program.0) {
            Ok(k) => k,
            Err(msg) => return Outcome::Fail(msg),
        };
        let text = String::from_utf8_lossy(&source);
        let mut checked = 0;
        for sig in kernel_signatures(&text) {
            let Some(k) = kernels.iter().find(|k| k.name == sig.name) else {
                return Outcome::Fail(format!("kernel '{}' of the source is missing", sig.name));
            };
            if let Err(msg) = check_args(k.handle, &sig) {
                return Outcome::Fail(format!("kernel '{}': {msg}", sig.name));
            }
            checked += 1;
        }
        for k in kernels {
            // SAFETY: a kernel this function created.
            unsafe { clReleaseKernel(k.handle) };
        }
        Outcome::Pass {
            checked_kernels: checked,
        }
    }

    fn build_log(&self, program: cl_program) -> String {
        let mut size = 0usize;
        // SAFETY: a size query, then a buffer of that size.
        unsafe {
            clGetProgramBuildInfo(
                program,
                self.device,
                CL_PROGRAM_BUILD_LOG,
                0,
                std::ptr::null_mut(),
                &mut size,
            );
            let mut buf = vec![0u8; size];
            clGetProgramBuildInfo(
                program,
                self.device,
                CL_PROGRAM_BUILD_LOG,
                size,
                buf.as_mut_ptr().cast(),
                std::ptr::null_mut(),
            );
            c_string(&buf)
        }
    }
}

/// Releases the program when the entry is done.
struct Program(cl_program);

impl Drop for Program {
    fn drop(&mut self) {
        // SAFETY: the program was created by this test and is released once.
        unsafe { clReleaseProgram(self.0) };
    }
}

struct Kernel {
    handle: cl_kernel,
    name: String,
}

/// Every kernel of the program (clCreateKernelsInProgram).
fn create_kernels(program: cl_program) -> Result<Vec<Kernel>, String> {
    let mut n: cl_uint = 0;
    // SAFETY: a count query.
    let err = unsafe { clCreateKernelsInProgram(program, 0, std::ptr::null_mut(), &mut n) };
    if err != CL_SUCCESS {
        return Err(format!("clCreateKernelsInProgram returned {err}"));
    }
    let mut handles = vec![std::ptr::null_mut(); n as usize];
    // SAFETY: room for `n` kernels.
    let err =
        unsafe { clCreateKernelsInProgram(program, n, handles.as_mut_ptr(), std::ptr::null_mut()) };
    if err != CL_SUCCESS {
        return Err(format!("clCreateKernelsInProgram returned {err}"));
    }
    Ok(handles
        .into_iter()
        .map(|h| Kernel {
            handle: h,
            name: kernel_string(h, CL_KERNEL_FUNCTION_NAME),
        })
        .collect())
}

fn kernel_string(k: cl_kernel, param: cl_kernel_info) -> String {
    let mut buf = [0u8; 512];
    // SAFETY: a buffer of 512 bytes.
    let err = unsafe {
        clGetKernelInfo(
            k,
            param,
            buf.len(),
            buf.as_mut_ptr().cast(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(err, CL_SUCCESS, "clGetKernelInfo");
    c_string(&buf)
}

fn arg_info(k: cl_kernel, i: u32, param: cl_kernel_arg_info) -> Result<Vec<u8>, String> {
    let mut buf = [0u8; 512];
    let mut size = 0usize;
    // SAFETY: a buffer of 512 bytes.
    let err = unsafe {
        clGetKernelArgInfo(
            k,
            i,
            param,
            buf.len(),
            buf.as_mut_ptr() as *mut c_void,
            &mut size,
        )
    };
    if err != CL_SUCCESS {
        return Err(format!(
            "clGetKernelArgInfo({i}, {param:#x}) returned {err}"
        ));
    }
    Ok(buf[..size.min(buf.len())].to_vec())
}

fn check_args(k: cl_kernel, sig: &Signature) -> Result<(), String> {
    let mut n: cl_uint = 0;
    // SAFETY: one cl_uint.
    unsafe {
        clGetKernelInfo(
            k,
            CL_KERNEL_NUM_ARGS,
            std::mem::size_of::<cl_uint>(),
            (&mut n as *mut cl_uint).cast(),
            std::ptr::null_mut(),
        )
    };
    if n as usize != sig.args.len() {
        return Err(format!(
            "{} arguments, the source has {}",
            n,
            sig.args.len()
        ));
    }
    for (i, a) in sig.args.iter().enumerate() {
        let i = i as u32;
        let name = c_string(&arg_info(k, i, CL_KERNEL_ARG_NAME)?);
        let ty = c_string(&arg_info(k, i, CL_KERNEL_ARG_TYPE_NAME)?);
        let word = |b: Vec<u8>| u32::from_ne_bytes([b[0], b[1], b[2], b[3]]);
        let space = word(arg_info(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER)?);
        let access = word(arg_info(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER)?);
        let got = (name.as_str(), ty.replace(' ', ""), space, access);
        let want = (a.name.as_str(), a.type_name.clone(), a.space, a.access);
        if got != want {
            return Err(format!(
                "argument {i}: clGetKernelArgInfo says {got:?}, the source {want:?} (name, type, address, access)"
            ));
        }
    }
    Ok(())
}

/// A kernel's parameters as the source spells them.
struct Signature {
    name: String,
    args: Vec<Arg>,
}

struct Arg {
    name: String,
    type_name: String,
    space: cl_kernel_arg_address_qualifier,
    access: cl_kernel_arg_access_qualifier,
}

/// Removes comments (keeping line structure irrelevant: only the kernel heads are read).
fn strip_comments(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
            out.push(' ');
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

/// Tokens of a kernel head: identifiers and single punctuation characters.
fn tokens(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            cur.push(c);
        } else {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            if !c.is_whitespace() {
                out.push(c.to_string());
            }
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The kernels whose heads are plain enough to read without preprocessing: `kernel void
/// name(params) {` at the start of a line outside any preprocessor conditional, with each
/// parameter spelled with OpenCL C keywords and builtin type names only (no macros).
fn kernel_signatures(source: &str) -> Vec<Signature> {
    let text = strip_comments(source);
    // A file with conditionals or macros could change what a kernel head means.
    if text.lines().any(|l| {
        let t = l.trim_start();
        t.starts_with('#') && !t.starts_with("#pragma") && !t.starts_with("# pragma")
    }) {
        return Vec::new();
    }
    let toks = tokens(&text);
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if (toks[i] == "__kernel" || toks[i] == "kernel")
            && toks.get(i + 1).map(String::as_str) == Some("void")
            && toks.get(i + 3).map(String::as_str) == Some("(")
        {
            let name = toks[i + 2].clone();
            let mut j = i + 4;
            let mut depth = 1;
            let start = j;
            while j < toks.len() && depth > 0 {
                match toks[j].as_str() {
                    "(" => depth += 1,
                    ")" => depth -= 1,
                    _ => {}
                }
                j += 1;
            }
            let params = &toks[start..j.saturating_sub(1)];
            if toks.get(j).map(String::as_str) == Some("{") {
                if let Some(args) = parse_params(params) {
                    out.push(Signature { name, args });
                }
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

fn parse_params(toks: &[String]) -> Option<Vec<Arg>> {
    if toks.is_empty() || (toks.len() == 1 && toks[0] == "void") {
        return Some(Vec::new());
    }
    toks.split(|t| t == ",").map(parse_param).collect()
}

/// One parameter, if every word in it is a keyword or builtin type name (else None).
fn parse_param(toks: &[String]) -> Option<Arg> {
    let (name, rest) = toks.split_last()?;
    if !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        return None;
    }
    let mut space = CL_KERNEL_ARG_ADDRESS_PRIVATE;
    let mut access = None;
    let mut base: Option<String> = None;
    let mut unsigned = false;
    let mut stars = 0;
    for t in rest {
        match t.as_str() {
            "__global" | "global" => space = CL_KERNEL_ARG_ADDRESS_GLOBAL,
            "__local" | "local" => space = CL_KERNEL_ARG_ADDRESS_LOCAL,
            "__constant" | "constant" => space = CL_KERNEL_ARG_ADDRESS_CONSTANT,
            "__private" | "private" => space = CL_KERNEL_ARG_ADDRESS_PRIVATE,
            "__read_only" | "read_only" => access = Some(CL_KERNEL_ARG_ACCESS_READ_ONLY),
            "__write_only" | "write_only" => access = Some(CL_KERNEL_ARG_ACCESS_WRITE_ONLY),
            "__read_write" | "read_write" => access = Some(CL_KERNEL_ARG_ACCESS_READ_WRITE),
            "const" | "volatile" | "restrict" | "__restrict" | "__restrict__" => {}
            "signed" => {}
            "unsigned" => unsigned = true,
            "*" => stars += 1,
            t if base.is_none() && builtin_type(t) => base = Some(t.to_string()),
            _ => return None,
        }
    }
    let mut ty = match (base, unsigned) {
        (Some(b), true) if ["char", "short", "int", "long"].contains(&b.as_str()) => {
            format!("u{b}")
        }
        (None, true) => "uint".to_string(),
        (Some(b), false) => b,
        _ => return None,
    };
    let is_image = ty.starts_with("image");
    ty.push_str(&"*".repeat(stars));
    // Clang-based compilers report images in the global address space.
    if is_image {
        space = CL_KERNEL_ARG_ADDRESS_GLOBAL;
    }
    // 5.9.4: the access qualifier of an image defaults to read_only; others have none.
    let access = match access {
        Some(a) if is_image => a,
        None if is_image => CL_KERNEL_ARG_ACCESS_READ_ONLY,
        _ => CL_KERNEL_ARG_ACCESS_NONE,
    };
    Some(Arg {
        name: name.clone(),
        type_name: ty,
        space,
        access,
    })
}

fn builtin_type(t: &str) -> bool {
    const SCALARS: [&str; 11] = [
        "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double",
        "half",
    ];
    let vector = SCALARS.iter().any(|s| {
        t.strip_prefix(s)
            .is_some_and(|n| ["2", "3", "4", "8", "16"].contains(&n))
    });
    vector
        || SCALARS.contains(&t)
        || matches!(
            t,
            "size_t"
                | "void"
                | "sampler_t"
                | "image1d_t"
                | "image1d_array_t"
                | "image1d_buffer_t"
                | "image2d_t"
                | "image2d_array_t"
                | "image3d_t"
        )
}

/// How the gate is invoked: `realworld` runs the self-checks and the gate; `realworld --entry
/// N` (what the gate runs for each entry) builds entry N of the manifest and prints its
/// outcome as one line on standard output.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--entry") {
        let index: usize = args
            .get(at + 1)
            .and_then(|n| n.parse().ok())
            .expect("--entry takes a manifest index");
        run_entry(index);
        return;
    }
    kernel_heads_are_read_as_clang_reports_them();
    relative_include_paths_resolve_against_the_entry_directory();
    println!("realworld self-checks: ok");
    realworld_corpus_builds();
}

/// The child's side: builds one entry and prints `PASS <kernels checked>`, `SKIP <why>` or
/// `FAIL <why>`.
fn run_entry(index: usize) {
    let dir = corpus_dir().expect("the corpus folder, found by the parent");
    let entries = read_manifest(&dir);
    let line = match open_device().build(&dir, &entries[index]) {
        Outcome::Pass { checked_kernels } => format!("PASS {checked_kernels}"),
        Outcome::Skip(why) => format!("SKIP {why}"),
        Outcome::Fail(why) => format!("FAIL {why}"),
    };
    println!("{}", line.replace('\n', " "));
}

/// One entry's build in its own process, so that an entry past the time limit is stopped and
/// its memory returned.
struct Child {
    index: usize,
    process: std::process::Child,
    output: PathBuf,
    started: Instant,
}

impl Child {
    fn spawn(index: usize, scratch: &Path) -> Child {
        let output = scratch.join(format!("entry-{index}.out"));
        let file = std::fs::File::create(&output).expect("create the entry's output file");
        let process = std::process::Command::new(std::env::current_exe().expect("own path"))
            .arg("--entry")
            .arg(index.to_string())
            .stdout(file.try_clone().expect("dup the output file"))
            .stderr(file)
            .spawn()
            .expect("start an entry's build");
        Child {
            index,
            process,
            output,
            started: Instant::now(),
        }
    }

    /// The outcome once the process has ended (reading its output line), or None while it
    /// runs.
    fn outcome(&mut self) -> Option<Outcome> {
        let status = self
            .process
            .try_wait()
            .expect("wait for an entry's build")?;
        let text = std::fs::read_to_string(&self.output).unwrap_or_default();
        let _ = std::fs::remove_file(&self.output);
        let line = text
            .lines()
            .rev()
            .find(|l| l.starts_with("PASS ") || l.starts_with("SKIP ") || l.starts_with("FAIL "));
        Some(match line {
            Some(l) if l.starts_with("PASS ") => Outcome::Pass {
                checked_kernels: l[5..].trim().parse().unwrap_or(0),
            },
            Some(l) if l.starts_with("SKIP ") => Outcome::Skip(l[5..].to_string()),
            Some(l) => Outcome::Fail(l[5..].to_string()),
            None => {
                let last = text.lines().rev().find(|l| !l.trim().is_empty());
                Outcome::Fail(format!(
                    "the build process ended with {status} without an outcome: {}",
                    last.unwrap_or("(no output)")
                ))
            }
        })
    }

    fn stop(mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
        let _ = std::fs::remove_file(&self.output);
    }
}

fn realworld_corpus_builds() {
    // The gate runs in every build: the debug build of the workspace's tests optimizes the
    // compiler and the code generator (the workspace's `profile.dev` overrides), so it builds
    // the 554 entries in about 150 s on 2 cores, with debug assertions on.
    if std::env::var("FERROCL_REALWORLD").is_ok_and(|v| v == "0") {
        println!("realworld-cl gate not run: FERROCL_REALWORLD=0");
        return;
    }
    let Some(dir) = corpus_dir() else {
        if std::env::var("FERROCL_REALWORLD_SKIP").is_ok_and(|v| v == "1") {
            println!("realworld-cl not found; skipped because FERROCL_REALWORLD_SKIP=1");
            return;
        }
        panic!(
            "the real-world corpus is not at ../shared/realworld-cl beside the repository (set \
             FERROCL_REALWORLD_DIR to its folder, or FERROCL_REALWORLD_SKIP=1 to skip this test)"
        );
    };
    let filter = std::env::var("FERROCL_REALWORLD_FILTER").unwrap_or_default();
    let entries = read_manifest(&dir);
    let mut queue: VecDeque<usize> = (0..entries.len())
        .filter(|&i| entries[i].file.contains(&filter))
        .collect();
    assert!(!queue.is_empty(), "no manifest entry matches '{filter}'");
    let total = queue.len();
    let jobs = std::env::var("FERROCL_REALWORLD_JOBS")
        .ok()
        .and_then(|j| j.parse().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
        .max(1);
    let limit = std::env::var("FERROCL_REALWORLD_TIMEOUT")
        .ok()
        .and_then(|t| t.parse::<u64>().ok())
        .unwrap_or(120);
    let limit = (limit > 0).then(|| Duration::from_secs(limit));
    let scratch = std::env::temp_dir().join(format!("ferrocl-realworld-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("create a scratch folder");

    let started = Instant::now();
    let mut results: Vec<(usize, Outcome, Duration)> = Vec::new();
    let mut running: Vec<Child> = Vec::new();
    while !queue.is_empty() || !running.is_empty() {
        while running.len() < jobs {
            let Some(i) = queue.pop_front() else { break };
            running.push(Child::spawn(i, &scratch));
        }
        std::thread::sleep(Duration::from_millis(20));
        let mut still = Vec::new();
        for mut child in running.drain(..) {
            let took = child.started.elapsed();
            if let Some(outcome) = child.outcome() {
                results.push((child.index, outcome, took));
            } else if limit.is_some_and(|l| took > l) {
                results.push((
                    child.index,
                    Outcome::Fail(format!(
                        "still building after {:.0} s, over the FERROCL_REALWORLD_TIMEOUT limit",
                        took.as_secs_f64()
                    )),
                    took,
                ));
                child.stop();
            } else {
                still.push(child);
            }
        }
        running = still;
    }
    let _ = std::fs::remove_dir_all(&scratch);

    let (mut passed, mut skipped, mut checked) = (0, 0, 0);
    let mut failures = Vec::new();
    let mut slowest: Vec<(Duration, &str)> = Vec::new();
    results.sort_by_key(|r| r.0);
    for (i, outcome, took) in &results {
        let file = entries[*i].file.as_str();
        match outcome {
            Outcome::Pass { checked_kernels } => {
                passed += 1;
                checked += checked_kernels;
                slowest.push((*took, file));
            }
            Outcome::Skip(why) => {
                skipped += 1;
                println!("skipped {file}: {why}");
            }
            Outcome::Fail(msg) => {
                failures.push(format!("{file}: {msg}"));
                slowest.push((*took, file));
            }
        }
    }
    slowest.sort_by_key(|s| std::cmp::Reverse(s.0));
    println!("slowest builds:");
    for (took, file) in slowest.iter().take(5) {
        println!("  {:7.2} s  {file}", took.as_secs_f64());
    }
    println!(
        "realworld-cl: {passed} passed, {} failed, {skipped} skipped (feature reported unsupported) \
         of {total}; argument metadata checked for {checked} kernels; {jobs} processes at a time, \
         {:.0} s",
        failures.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} of {total} real-world entries failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn kernel_heads_are_read_as_clang_reports_them() {
    let src = "/* c */ __kernel void add(__global const float4 *restrict a, unsigned n,\n\
               __local int *tmp, read_only image2d_t img, sampler_t s) { }\n\
               kernel void other(MACRO_TYPE x) { }\n";
    let sigs = kernel_signatures(src);
    assert_eq!(
        sigs.len(),
        1,
        "a kernel with a macro in its head is not read"
    );
    let a: Vec<_> = sigs[0]
        .args
        .iter()
        .map(|a| (a.name.as_str(), a.type_name.as_str(), a.space, a.access))
        .collect();
    assert_eq!(
        a,
        [
            (
                "a",
                "float4*",
                CL_KERNEL_ARG_ADDRESS_GLOBAL,
                CL_KERNEL_ARG_ACCESS_NONE
            ),
            (
                "n",
                "uint",
                CL_KERNEL_ARG_ADDRESS_PRIVATE,
                CL_KERNEL_ARG_ACCESS_NONE
            ),
            (
                "tmp",
                "int*",
                CL_KERNEL_ARG_ADDRESS_LOCAL,
                CL_KERNEL_ARG_ACCESS_NONE
            ),
            (
                "img",
                "image2d_t",
                CL_KERNEL_ARG_ADDRESS_GLOBAL,
                CL_KERNEL_ARG_ACCESS_READ_ONLY
            ),
            (
                "s",
                "sampler_t",
                CL_KERNEL_ARG_ADDRESS_PRIVATE,
                CL_KERNEL_ARG_ACCESS_NONE
            ),
        ]
    );
    assert!(kernel_signatures("#ifdef X\nkernel void k(int a) {}\n#endif\n").is_empty());
}

fn relative_include_paths_resolve_against_the_entry_directory() {
    let dir = Path::new("/corpus/p");
    assert_eq!(
        absolute_includes("-D A=1 -I . -I../x -I /abs -w", dir),
        "-D A=1 -I /corpus/p/. -I /corpus/p/../x -I /abs -w"
    );
}
