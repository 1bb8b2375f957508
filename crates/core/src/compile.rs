//! What a device offers the compiler (`ferrocl_clc::Target`), from what it reports to
//! `clGetDeviceInfo`. The compiler itself is driven by `ferrocl_clc::build` and its siblings.

use ferrocl_clc::{ClVersion, Target};

use crate::device::DeviceInfo;

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
