//! `ferrocl build FILE.cl`: compiles a program on a platform and prints its build log, and the
//! options `build` and `run` share (`-D`, `-I`, `--cl-std`, `--platform`, `--library`).

use std::io::IsTerminal;
use std::path::PathBuf;

use crate::cl;
use crate::Failure;

/// The options that choose the platform and form the build options string.
#[derive(Debug, Default)]
pub struct Common {
    pub platform: Option<String>,
    /// The index of the device in the platform (`--device N`, default 0).
    pub device: usize,
    pub library: Option<PathBuf>,
    /// clBuildProgram's options (5.8.6), in order.
    pub options: Vec<String>,
}

impl Common {
    /// Takes the option at `args[*i]` if it is one of these, advancing `i` past its value;
    /// Ok(false) when it is not.
    pub fn take(&mut self, command: &str, args: &[String], i: &mut usize) -> Result<bool, String> {
        let arg = args[*i].as_str();
        let mut value = |name: &str| -> Result<String, String> {
            *i += 1;
            args.get(*i)
                .cloned()
                .ok_or_else(|| format!("{command}: {name} needs a value"))
        };
        match arg {
            "--platform" => self.platform = Some(value(arg)?),
            "--device" => {
                let v = value(arg)?;
                self.device = v
                    .parse()
                    .map_err(|_| format!("{command}: --device takes a device index, not '{v}'"))?;
            }
            "--library" => self.library = Some(PathBuf::from(value(arg)?)),
            // 5.8.6.1: -D name, -D name=definition, -I dir.
            "-D" | "-I" => {
                let v = value(arg)?;
                self.options.push(format!("{arg}{v}"));
            }
            "--cl-std" => {
                let v = value(arg)?;
                // 5.8.6.5: -cl-std=CL1.1, CL1.2, CL2.0, CL3.0 (also CLC++ forms elsewhere).
                let v = if v.to_uppercase().starts_with("CL") {
                    v
                } else {
                    format!("CL{v}")
                };
                self.options.push(format!("-cl-std={v}"));
            }
            "--options" => {
                let v = value(arg)?;
                self.options.push(v);
            }
            _ if arg.len() > 2 && (arg.starts_with("-D") || arg.starts_with("-I")) => {
                self.options.push(arg.to_string())
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    pub fn platform(&self) -> &str {
        self.platform.as_deref().unwrap_or("ferrocl")
    }

    pub fn options_string(&self) -> String {
        self.options
            .iter()
            .map(|o| {
                if o.contains(' ') && !o.contains('"') && o.starts_with("-I") {
                    format!("-I\"{}\"", &o[2..])
                } else {
                    o.clone()
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The loader with the private vendors directory in place (see `icd::private_vendors`).
pub struct Session {
    pub api: cl::Api,
    /// Why ferrocl is not among the platforms, when it is not.
    pub note: Option<String>,
    _vendors: Option<crate::icd::PrivateVendors>,
}

impl Session {
    pub fn open(library: Option<&std::path::Path>) -> Result<Session, Failure> {
        let (vendors, note) = crate::icd::private_vendors(library);
        let own = crate::icd::library(library).ok();
        let api = cl::load(own.as_deref()).map_err(Failure::Error)?;
        Ok(Session {
            api,
            note,
            _vendors: vendors,
        })
    }

    /// The platform named by the pattern, or an error that also says why ferrocl is missing.
    pub fn find(&self, pattern: &str, device: usize) -> Result<cl::Target, Failure> {
        self.api
            .find(pattern, device)
            .map_err(|e| match &self.note {
                Some(note) => Failure::Error(format!("{e}; {note}")),
                None => Failure::Error(e),
            })
    }
}

/// A program as read from its file.
pub enum ProgramFile {
    /// OpenCL C source (any file but the two below).
    Source(String),
    /// A program binary: a `.bin` file as it is, or a `.ir` file (ferrocl's IR in its text
    /// form) parsed, verified and serialized, which is what a ferrocl program binary holds
    /// (DESIGN.md, decision 8). Binaries build without a compiler.
    Binary(Vec<u8>),
}

impl ProgramFile {
    pub fn input(&self) -> cl::Input<'_> {
        match self {
            ProgramFile::Source(text) => cl::Input::Source(text),
            ProgramFile::Binary(bytes) => cl::Input::Binary(bytes),
        }
    }
}

/// Reads the program a command names.
pub fn read_program(file: &str) -> Result<ProgramFile, Failure> {
    let cannot = |e: std::io::Error| Failure::Error(format!("cannot read {file}: {e}"));
    if file.ends_with(".bin") {
        return std::fs::read(file).map(ProgramFile::Binary).map_err(cannot);
    }
    let text = std::fs::read_to_string(file).map_err(cannot)?;
    if !file.ends_with(".ir") {
        return Ok(ProgramFile::Source(text));
    }
    let module =
        ferrocl_ir::parse_module(&text).map_err(|e| Failure::Error(format!("{file}:{e}")))?;
    if let Err(errors) = ferrocl_ir::verify_module(&module) {
        let list: Vec<String> = errors.iter().map(|e| format!("{file}: {e}")).collect();
        return Err(Failure::Error(format!(
            "the IR does not verify:\n{}",
            list.join("\n")
        )));
    }
    Ok(ProgramFile::Binary(ferrocl_ir::serialize::serialize(
        &module,
    )))
}

/// A ferrocl build log split into the compiler's log and the listing that
/// `-cl-ferrocl-listing=STAGE` asked for (the text after the header line naming the stage).
fn split_listing(log: &str) -> (&str, Option<&str>) {
    // The header's text is `ferrocl_core::program::LISTING_HEADER`, which names the stage.
    const HEADER: &str = "ferrocl listing of stage ";
    let at = if log.starts_with(HEADER) {
        Some(0)
    } else {
        log.find(&format!("\n{HEADER}")).map(|at| at + 1)
    };
    match at {
        Some(at) => {
            let rest = &log[at..];
            let text = rest.find('\n').map_or("", |end| &rest[end + 1..]);
            (&log[..at], Some(text))
        }
        None => (log, None),
    }
}

/// The build log with `error:` and `warning:` coloured the way compilers colour them, when
/// the stream is a terminal and NO_COLOR is unset.
pub fn colour(log: &str, terminal: bool) -> String {
    if !terminal || std::env::var_os("NO_COLOR").is_some() {
        return log.to_string();
    }
    let mut out = String::new();
    for line in log.lines() {
        let painted = [("error:", "1;31"), ("warning:", "1;35"), ("note:", "1;36")]
            .iter()
            .find_map(|(word, code)| {
                line.find(word).map(|at| {
                    format!(
                        "\x1b[1m{}\x1b[0m\x1b[{code}m{word}\x1b[0m\x1b[1m{}\x1b[0m",
                        &line[..at],
                        &line[at + word.len()..]
                    )
                })
            });
        out.push_str(painted.as_deref().unwrap_or(line));
        out.push('\n');
    }
    out
}

/// The message of a failed build; CL_COMPILER_NOT_AVAILABLE says what to do instead.
pub fn failure(file: &str, platform: &str, error: &cl::ClError) -> String {
    let mut message = format!(
        "{file}: build failed on {platform} ({})",
        cl::error_name(error.code)
    );
    if error.code == opencl_sys::CL_COMPILER_NOT_AVAILABLE {
        message.push_str(
            "; this platform cannot build OpenCL C source yet (pick another with --platform)",
        );
    }
    message
}

/// Prints the build log to stderr, coloured on a terminal.
pub fn print_log(log: &str) {
    let log = log.trim_end();
    if !log.is_empty() {
        eprintln!(
            "{}",
            colour(log, std::io::stderr().is_terminal()).trim_end()
        );
    }
}

/// `ferrocl build FILE.cl|FILE.ir|FILE.bin [-D ...] [-I ...] [--cl-std ...] [--emit ir|wg|clif|asm|ptx] [-o FILE]`.
///
/// With ferrocl, `--emit` prints what the device recorded of its compile of the program (the
/// build asks for it with `-cl-ferrocl-listing=STAGE`, and the build log ends with it): `ir` the module it was given (the
/// program's IR after the builtin library and the passes), `wg` the CPU device's work-group
/// functions (each after a comment with its chunk width or why it runs one work-item at a
/// time), `clif` and `asm` its code (Cranelift IR as optimized, and the machine code); on a GPU
/// device (`--device N`), `ptx` the PTX text the driver was given. With
/// another platform, `--emit asm` writes its program binary as it is.
pub fn command(args: &[String]) -> Result<String, Failure> {
    let mut common = Common::default();
    let mut file = None;
    let mut emit = None;
    let mut output = None;
    let mut i = 0;
    while i < args.len() {
        if common.take("build", args, &mut i).map_err(Failure::Usage)? {
            i += 1;
            continue;
        }
        match args[i].as_str() {
            "--emit" => {
                i += 1;
                match args.get(i).map(String::as_str) {
                    Some(kind @ ("ir" | "wg" | "clif" | "asm" | "ptx")) => {
                        emit = Some(kind.to_string())
                    }
                    Some(other) => {
                        return Err(Failure::Usage(format!(
                            "build: --emit takes 'ir', 'wg', 'clif', 'asm' or 'ptx', not '{other}'"
                        )))
                    }
                    None => return Err(Failure::Usage("build: --emit needs a value".into())),
                }
            }
            "-o" => {
                i += 1;
                output = Some(
                    args.get(i)
                        .cloned()
                        .ok_or_else(|| Failure::Usage("build: -o needs a file".into()))?,
                );
            }
            other if other.starts_with('-') => {
                return Err(Failure::Usage(format!("build: unknown option '{other}'")))
            }
            other => {
                if file.is_some() {
                    return Err(Failure::Usage(format!(
                        "build: one source file only ('{other}' is a second)"
                    )));
                }
                file = Some(other.to_string());
            }
        }
        i += 1;
    }
    let file = file.ok_or_else(|| Failure::Usage("build: no source file given".into()))?;
    let program = read_program(&file)?;
    let session = Session::open(common.library.as_deref())?;
    let target = session.find(common.platform(), common.device)?;
    let context = session
        .api
        .context(target.device)
        .map_err(|e| Failure::Error(e.to_string()))?;
    // With ferrocl, `--emit` asks the device to record its compile; the build log ends with
    // the stage's text.
    let ferrocl = target.platform_name == "ferrocl";
    let mut options = common.options_string();
    if let (Some(kind), true) = (&emit, ferrocl) {
        options = format!("{options} -cl-ferrocl-listing={kind}");
    }
    let build = context
        .build_input(&program.input(), options.trim_start())
        .map_err(|e| Failure::Error(e.to_string()))?;
    let (log, listing) = split_listing(&build.log);
    print_log(log);
    if let Some(error) = build.error {
        return Err(Failure::Error(crate::build::failure(
            &file,
            &target.platform_name,
            &error,
        )));
    }
    let mut out = String::new();
    match emit.as_deref() {
        None => {
            let kernels = build.program.kernel_names();
            out.push_str(&format!(
                "{file}: built on {} ({}); kernels: {}\n",
                target.platform_name,
                target.device_name,
                if kernels.is_empty() {
                    "(none)".to_string()
                } else {
                    kernels.join(", ")
                }
            ));
        }
        Some(kind) => {
            let bytes = match (kind, listing) {
                (_, Some(text)) => text.as_bytes().to_vec(),
                (_, None) if ferrocl => {
                    return Err(Failure::Error(format!(
                        "--emit {kind}: the device recorded no such stage"
                    )))
                }
                ("ir" | "wg" | "clif", None) => {
                    return Err(Failure::Error(format!(
                        "--emit {kind}: the program binary of {} is not ferrocl IR; --emit asm \
                         writes it as it is",
                        target.platform_name
                    )))
                }
                _ => build
                    .program
                    .binary()
                    .map_err(|e| Failure::Error(e.to_string()))?,
            };
            match output {
                Some(path) => {
                    std::fs::write(&path, &bytes)
                        .map_err(|e| Failure::Error(format!("cannot write {path}: {e}")))?;
                }
                None if kind != "asm" || std::str::from_utf8(&bytes).is_ok() => {
                    out.push_str(&String::from_utf8_lossy(&bytes));
                }
                None => {
                    return Err(Failure::Error(format!(
                        "--emit asm: the program binary of {} is not text; write it with -o FILE",
                        target.platform_name
                    )))
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_marks_errors_only_on_a_terminal() {
        let log = "k.cl:1:5: error: unknown type 'flot'\n";
        assert_eq!(colour(log, false), log);
        if std::env::var_os("NO_COLOR").is_none() {
            let painted = colour(log, true);
            assert!(painted.contains("\x1b[1;31merror:"), "{painted:?}");
        }
    }

    #[test]
    fn options_become_a_build_options_string() {
        let args: Vec<String> = ["-D", "N=4", "-DFAST", "--cl-std", "3.0", "-I", "inc"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let mut common = Common::default();
        let mut i = 0;
        while i < args.len() {
            assert!(common.take("build", &args, &mut i).unwrap());
            i += 1;
        }
        assert_eq!(common.options_string(), "-DN=4 -DFAST -cl-std=CL3.0 -Iinc");
        assert_eq!(common.platform(), "ferrocl");
    }
}
