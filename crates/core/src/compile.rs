//! What `core` tells the compiler: a device's target description, and the API error codes of
//! the build driver's failures. The compiler itself is driven by `ferrocl_clc::build`, one call
//! per API operation (see `program.rs`).

use ferrocl_clc::{BuildError, BuildErrorKind, BuildOptions, ClVersion, Target};

use crate::device::{CompileOptions, Device};
use crate::error::ClError;

/// What a device offers to the compiler: its OpenCL C versions, extensions and features.
pub fn target(device: &Device) -> Target {
    let info = &device.info;
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
        fast_fma: device.backend().fast_fma(),
        fma_chains: device.backend().fma_chains(),
    }
}

/// What a program's build options ask of a device's compile (the device sees no option
/// string): `uniform_work_groups` as the build decided it (5.10).
pub fn device_options(options: &BuildOptions, uniform_work_groups: bool) -> CompileOptions {
    CompileOptions {
        opt_disable: options.opt_disable,
        uniform_work_groups,
        no_vectorize: options.no_vectorize,
        record: false,
    }
}

/// A build driver error as the API reports it: `invalid` for invalid options (5.8.6
/// CL_INVALID_BUILD_OPTIONS, 5.8.7 CL_INVALID_COMPILER_OPTIONS, 5.8.8
/// CL_INVALID_LINKER_OPTIONS), `failed` for a program that did not build, with the build log.
pub fn api_error(e: BuildError, invalid: ClError, failed: ClError) -> (ClError, String) {
    let code = match e.kind {
        BuildErrorKind::InvalidOptions => invalid,
        BuildErrorKind::Failed => failed,
    };
    (code, e.log)
}
