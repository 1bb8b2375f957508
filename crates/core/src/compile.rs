//! Building programs from OpenCL C source: the front end (`ferrocl_clc`), lowering to IR, and
//! the device's target description.

use ferrocl_clc::{ClVersion, Target};
use ferrocl_ir::Module;

use crate::device::DeviceInfo;
use crate::error::ClError;

/// What a device offers to the compiler: its OpenCL C versions, extensions and features.
pub fn target(info: &DeviceInfo) -> Target {
    Target {
        c_versions: info
            .opencl_c_all_versions
            .iter()
            .map(|v| ClVersion(v.version.major * 100 + v.version.minor * 10))
            .collect(),
        opencl_version: info.version.major * 100 + info.version.minor * 10,
        extensions: info.extensions.iter().map(|e| e.name.to_string()).collect(),
        features: info
            .opencl_c_features
            .iter()
            .map(|f| f.name.to_string())
            .collect(),
        image_support: info.image_support,
        fp64: info.double_fp_config != 0,
        fp16: info.half_fp_config != 0,
        address_bits: info.address_bits,
        little_endian: info.endian_little,
        correctly_rounded_divide_sqrt: info.single_fp_config
            & crate::device::fp_config::CORRECTLY_ROUNDED_DIVIDE_SQRT
            != 0,
    }
}

/// Checks link options. 5.8.8: CL_INVALID_LINKER_OPTIONS "if the linker options specified
/// by options are invalid"; returns whether `-create-library` was given.
pub fn link_options(options: &str) -> Result<bool, (ClError, String)> {
    let opts = ferrocl_clc::parse_link_options(options)
        .map_err(|e| (ClError::InvalidLinkerOptions, format!("error: {e}\n")))?;
    Ok(opts.create_library)
}

/// The result of compiling a program's source for one device.
pub struct Compiled {
    pub module: Module,
    /// The build log: the front end's diagnostics (warnings, on success).
    pub log: String,
    /// Work-groups must be uniform: OpenCL C before 2.0, or `-cl-uniform-work-group-size`.
    pub uniform_work_groups: bool,
}

/// Compiles `source` with `options` (and the embedded headers of `clCompileProgram`) for a
/// device; on failure, the error and the build log. For an `executable`, only the kernels and
/// the functions they reach are lowered.
pub fn compile(
    source: &str,
    options: &str,
    headers: &[(String, String)],
    info: &DeviceInfo,
    executable: bool,
) -> Result<Compiled, (ClError, String)> {
    // 5.8.6: CL_INVALID_BUILD_OPTIONS "if the build options specified by options are invalid".
    let opts = ferrocl_clc::parse_build_options(options)
        .map_err(|e| (ClError::InvalidBuildOptions, format!("error: {e}\n")))?;
    let target = target(info);
    let compilation = ferrocl_clc::compile(source, &opts, &target, headers);
    let Some(program) = compilation.program else {
        return Err((ClError::BuildProgramFailure, compilation.log));
    };
    let lower = if executable {
        ferrocl_clc::lower_reachable
    } else {
        ferrocl_clc::lower
    };
    let module = lower(&program).map_err(|e| {
        (
            ClError::BuildProgramFailure,
            format!("{}error: {e}\n", compilation.log),
        )
    })?;
    ferrocl_ir::verify_module(&module).map_err(|errors| {
        let list: Vec<String> = errors
            .iter()
            .map(|e| format!("internal error: invalid IR: {e}"))
            .collect();
        (
            ClError::BuildProgramFailure,
            format!("{}{}\n", compilation.log, list.join("\n")),
        )
    })?;
    // 3.0, 5.10: work-groups may be non-uniform for programs "compiled with -cl-std=CL2.0 or
    // later" without -cl-uniform-work-group-size.
    let version = opts.std.map_or(120, |v| v.0);
    let uniform_work_groups = opts.uniform_work_group_size || version < 200;
    Ok(Compiled {
        module,
        log: compilation.log,
        uniform_work_groups,
    })
}
