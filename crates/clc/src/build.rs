//! The build driver: OpenCL C source to a module a device can compile, in one call per API
//! operation.
//!
//! - [`parse_options`] / [`parse_link`]: the option string, read once per API call; the parsed
//!   options are what every other entry point takes.
//! - [`build`] (`clBuildProgram` of source): preprocess, parse, check, lower the kernels and
//!   what they reach, and verify (the compiled object), then link it as an executable (every
//!   function it declares defined), link the builtin library, run the passes the options ask
//!   for and verify (the executable module).
//! - [`compile_object`] (`clCompileProgram`): the first half, lowering every function.
//! - [`build_ir`] (`clBuildProgram` of a program binary): the second half.
//! - [`link`] (`clLinkProgram`): joins compiled objects and libraries, then the second half
//!   unless `-create-library`.
//!
//! The builtin library is an argument ([`Library`]): it is itself compiled by this compiler
//! (the `ferrocl-builtins` crate does that when ferrocl is built), so the compiler cannot own
//! the compiled module; whoever builds programs passes it in.

use std::time::Instant;

use ferrocl_ir::passes::PassManager;
use ferrocl_ir::{timing, Module};

use crate::options::{parse_build_options, parse_link_options, BuildOptions, LinkOptions};
use crate::Target;

/// Gives the builtin library module (or says why it cannot be had). Called only when a
/// program declares a function the library might define.
pub type Library<'a> = &'a dyn Fn() -> Result<&'static Module, String>;

/// Why a build failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildErrorKind {
    /// The options are not valid (`CL_INVALID_BUILD_OPTIONS`, `CL_INVALID_COMPILER_OPTIONS`,
    /// `CL_INVALID_LINKER_OPTIONS`).
    InvalidOptions,
    /// The program did not compile or link (`CL_BUILD_PROGRAM_FAILURE`,
    /// `CL_COMPILE_PROGRAM_FAILURE`, `CL_LINK_PROGRAM_FAILURE`).
    Failed,
}

/// A failed build: why, and the build log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildError {
    pub kind: BuildErrorKind,
    pub log: String,
}

impl BuildError {
    fn failed(log: String) -> BuildError {
        BuildError {
            kind: BuildErrorKind::Failed,
            log,
        }
    }

    fn invalid_options(message: impl std::fmt::Display) -> BuildError {
        BuildError {
            kind: BuildErrorKind::InvalidOptions,
            log: format!("error: {message}\n"),
        }
    }
}

/// A compiled object: the program's verified IR before the builtin library and the passes
/// (what a program binary holds).
#[derive(Clone, Debug)]
pub struct Object {
    pub module: Module,
    /// The build log: the diagnostics (warnings, on success).
    pub log: String,
    /// Work-groups must be uniform: OpenCL C before 2.0, or `-cl-uniform-work-group-size`.
    pub uniform_work_groups: bool,
}

/// A program built from source: its compiled object, and the executable module made from it
/// (builtin library linked, optimized, verified) for a device to compile.
#[derive(Clone, Debug)]
pub struct BuiltProgram {
    pub object: Object,
    pub executable: Module,
}

/// The result of [`link`]: the linked module (a library or the executable's object), and the
/// executable module unless `-create-library` was given.
#[derive(Clone, Debug)]
pub struct Linked {
    pub module: Module,
    pub executable: Option<Module>,
}

/// `clBuildProgram` of source: the compiled object (only the kernels and the functions they
/// reach lowered: most of a large library of included helpers is checked, never lowered), then
/// [`build_ir`]'s steps. On failure the log holds the front end's diagnostics first.
pub fn build(
    source: &str,
    options: &BuildOptions,
    target: &Target,
    headers: &[(String, String)],
    library: Library,
) -> Result<BuiltProgram, BuildError> {
    let object = compile_parsed(source, options, target, headers, Lowering::Reachable)?;
    let executable = build_ir(&object.module, options, library).map_err(|e| BuildError {
        log: format!("{}{}", object.log, e.log),
        ..e
    })?;
    Ok(BuiltProgram { object, executable })
}

/// `clCompileProgram`: preprocess (with the embedded `headers`, name → text), parse, check,
/// lower every function (another program may call any of them) and verify.
pub fn compile_object(
    source: &str,
    options: &BuildOptions,
    target: &Target,
    headers: &[(String, String)],
) -> Result<Object, BuildError> {
    compile_parsed(source, options, target, headers, Lowering::Whole)
}

/// `clBuildProgram` of a program binary (a compiled object or a linked module): linked as an
/// executable (every extern variable and declared function defined), then the builtin
/// library, the passes the build options ask for, verification.
pub fn build_ir(
    module: &Module,
    options: &BuildOptions,
    library: Library,
) -> Result<Module, BuildError> {
    let linked = crate::link_programs([module.clone()], true)
        .map_err(|e| BuildError::failed(format!("error: {e}\n")))?;
    executable(&linked, options.opt_disable, library).map_err(BuildError::failed)
}

/// `clLinkProgram`: the `inputs` (compiled objects and libraries) joined into one module (for
/// an executable, one that leaves nothing undefined); the executable module made from it
/// unless the options say `-create-library`.
pub fn link(
    inputs: &[&Module],
    options: &LinkOptions,
    library: Library,
) -> Result<Linked, BuildError> {
    if inputs.is_empty() {
        return Err(BuildError::failed("error: nothing to link\n".into()));
    }
    let module = crate::link_programs(inputs.iter().map(|&m| m.clone()), !options.create_library)
        .map_err(|e| BuildError::failed(format!("error: {e}\n")))?;
    let executable = if options.create_library {
        None
    } else {
        Some(executable(&module, false, library).map_err(BuildError::failed)?)
    };
    Ok(Linked { module, executable })
}

/// Reads `clBuildProgram`'s or `clCompileProgram`'s options. 5.8.6: CL_INVALID_BUILD_OPTIONS
/// "if the build options specified by options are invalid" (5.8.7: CL_INVALID_COMPILER_OPTIONS
/// likewise).
pub fn parse_options(options: &str) -> Result<BuildOptions, BuildError> {
    parse_build_options(options).map_err(BuildError::invalid_options)
}

/// Reads `clLinkProgram`'s options. 5.8.8: CL_INVALID_LINKER_OPTIONS "if the linker options
/// specified by options are invalid".
pub fn parse_link(options: &str) -> Result<LinkOptions, BuildError> {
    parse_link_options(options).map_err(BuildError::invalid_options)
}

/// Which functions of a checked program are lowered.
#[derive(Clone, Copy)]
enum Lowering {
    /// Every function (a compiled object, which other programs may call into).
    Whole,
    /// The kernels and the functions they reach (an executable).
    Reachable,
}

fn compile_parsed(
    source: &str,
    opts: &BuildOptions,
    target: &Target,
    headers: &[(String, String)],
    lowering: Lowering,
) -> Result<Object, BuildError> {
    // The front end and lowering walk the program's trees: they run on the compiler's stack.
    let (compilation, lowered, lower_time) = crate::stack::on_compiler_stack(|| {
        let mut compilation = crate::compile_here(source, opts, target, headers);
        let start = Instant::now();
        let lowered = compilation.program.take().map(|program| match lowering {
            Lowering::Whole => crate::lower(&program),
            Lowering::Reachable => crate::lower_reachable(&program),
        });
        (compilation, lowered, start.elapsed())
    });
    for (stage, t) in &compilation.timings {
        timing::report(stage, *t, "");
    }
    let Some(lowered) = lowered else {
        return Err(BuildError::failed(compilation.log));
    };
    let module =
        lowered.map_err(|e| BuildError::failed(format!("{}error: {e}\n", compilation.log)))?;
    if timing::enabled() {
        let size = timing::module_size(&module);
        timing::report("lower", lower_time, &format!("{size} instructions"));
    }
    verify(&module, "").map_err(|e| BuildError::failed(format!("{}{e}", compilation.log)))?;
    // 3.0, 5.10: work-groups may be non-uniform for programs "compiled with -cl-std=CL2.0 or
    // later" without -cl-uniform-work-group-size.
    let version = opts.std.map_or(120, |v| v.0);
    Ok(Object {
        module,
        log: compilation.log,
        uniform_work_groups: opts.uniform_work_group_size || version < 200,
    })
}

/// A device's module from a verified one: the builtins the program calls that the library
/// implements linked in, then the passes; the error is a build-log message.
fn executable(module: &Module, opt_disable: bool, library: Library) -> Result<Module, String> {
    let mut m = module.clone();
    let start = Instant::now();
    crate::library::link_with(&mut m, library).map_err(|e| format!("internal error: {e}\n"))?;
    if timing::enabled() {
        let size = timing::module_size(&m);
        timing::report(
            "link library",
            start.elapsed(),
            &format!("{size} instructions"),
        );
    }
    // 5.8.6: -cl-opt-disable "disables all optimizations". Inlining stays: a device
    // runs a function that synchronizes or asks for its work-item only inlined into its kernel.
    let mut pm = if opt_disable {
        let mut pm = PassManager::new();
        // `half` arithmetic becomes float arithmetic whatever the options (`passes::half`):
        // no device computes on `f16` values.
        pm.add("half").expect("the half pass exists");
        pm.add("inline").expect("the inline pass exists");
        pm
    } else {
        PassManager::standard()
    };
    pm.report = Some("pass".into());
    pm.run(&mut m)
        .map_err(|e| format!("internal error: {e}\n"))?;
    if !pm.verify {
        verify(&m, " after optimization")?;
    }
    Ok(m)
}

/// Verifies `module`; the error lists the problems as build-log lines.
fn verify(module: &Module, when: &str) -> Result<(), String> {
    ferrocl_ir::verify_module(module).map_err(|errors| {
        let lines: Vec<String> = errors
            .iter()
            .map(|e| format!("internal error: invalid IR{when}: {e}\n"))
            .collect();
        lines.concat()
    })
}
