//! What ferrocl supports, in one place: the platform and device extensions, the OpenCL C
//! versions and the OpenCL C 3.0 optional features. A name is listed here only when it works
//! end to end, through the C API; work that completes a feature adds it here and nowhere else.

/// A version as `cl_version` packs it: major 10 bits, minor 10 bits, patch 12 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version {
    pub major: u32,
    pub minor: u32,
    pub patch: u32,
}

impl Version {
    pub const fn new(major: u32, minor: u32, patch: u32) -> Version {
        Version {
            major,
            minor,
            patch,
        }
    }

    /// The packed `cl_version` (API 3.0, section 4.1: `CL_MAKE_VERSION`).
    pub const fn packed(self) -> u32 {
        (self.major << 22) | (self.minor << 12) | self.patch
    }
}

/// A name with its version: one entry of a `cl_name_version` list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameVersion {
    pub name: &'static str,
    pub version: Version,
}

const fn nv(name: &'static str, major: u32, minor: u32, patch: u32) -> NameVersion {
    NameVersion {
        name,
        version: Version::new(major, minor, patch),
    }
}

/// The OpenCL API version of the platform and its devices.
pub const API_VERSION: Version = Version::new(3, 0, 0);

/// Extensions of the CPU device (a superset of the platform's). API 3.0, Table 5: "The
/// following Khronos extension names must be returned by all devices that support OpenCL 1.1"
/// — the byte-addressable store and the 32-bit atomics.
pub const CPU_DEVICE_EXTENSIONS: &[NameVersion] = &[
    nv("cl_khr_icd", 1, 0, 0),
    nv("cl_khr_byte_addressable_store", 1, 0, 0),
    nv("cl_khr_global_int32_base_atomics", 1, 0, 0),
    nv("cl_khr_global_int32_extended_atomics", 1, 0, 0),
    nv("cl_khr_local_int32_base_atomics", 1, 0, 0),
    nv("cl_khr_local_int32_extended_atomics", 1, 0, 0),
    nv("cl_khr_int64_base_atomics", 1, 0, 0),
    nv("cl_khr_int64_extended_atomics", 1, 0, 0),
    nv("cl_khr_extended_bit_ops", 1, 0, 0),
    nv("cl_khr_integer_dot_product", 2, 0, 0),
    nv("cl_khr_work_group_uniform_arithmetic", 1, 0, 0),
    // API 3.0, Table 5: "the following Khronos extension names must be returned by all devices
    // that support OpenCL 1.2 when and only when the optional feature is supported:
    // cl_khr_fp64" (CL_DEVICE_DOUBLE_FP_CONFIG is not 0).
    nv("cl_khr_fp64", 1, 0, 0),
    // `half` arithmetic: the compiler rewrites it as float arithmetic rounded to half
    // (ferrocl-ir, `passes::half`), and the builtin library defines every half builtin.
    // CL_DEVICE_HALF_FP_CONFIG is not 0 exactly when this and `__opencl_c_fp16` are listed.
    nv("cl_khr_fp16", 1, 0, 0),
    // API 3.0, Table 5: for OpenCL 3.0 devices "these extension names must be returned when and
    // only when the optional feature is supported: cl_khr_3d_image_writes cl_khr_depth_images
    // cl_khr_image2d_from_buffer". Writes to 3D images (with __opencl_c_3d_image_writes below)
    // and 2D images from buffers are supported; depth images are not.
    nv("cl_khr_3d_image_writes", 1, 0, 0),
    nv("cl_khr_image2d_from_buffer", 1, 0, 0),
    // No cl_khr_subgroups: it needs CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS to be
    // CL_TRUE (API Table 5: it "must return CL_TRUE for devices that support the
    // cl_khr_subgroups extension"), and the CPU device runs the sub-groups of a work-group one
    // after another on one thread: one sub-group spinning on another's progress never ends.
];

/// The OpenCL C versions the CPU device's compiler accepts (`CL_DEVICE_OPENCL_C_ALL_VERSIONS`).
pub const CPU_OPENCL_C_VERSIONS: &[NameVersion] = &[
    nv("OpenCL C", 1, 0, 0),
    nv("OpenCL C", 1, 1, 0),
    nv("OpenCL C", 1, 2, 0),
    // OpenCL C 2.0 as far as the features the device offers: generic pointers, program-scope
    // globals, C11 atomics, work-group functions, pipes. Device-side enqueue, which 2.0
    // programs may use too, is refused by the compiler with a build error (README).
    nv("OpenCL C", 2, 0, 0),
    nv("OpenCL C", 3, 0, 0),
];

/// The optional OpenCL C 3.0 features of the CPU device (`CL_DEVICE_OPENCL_C_FEATURES`).
/// Appendix H: compilers for FULL_PROFILE devices support 64-bit integers and define
/// `__opencl_c_int64` unconditionally. "OpenCL C compilers supporting the `double` type will
/// define the feature macro `__opencl_c_fp64`" (the same appendix), matching `cl_khr_fp64`
/// above.
pub const CPU_OPENCL_C_FEATURES: &[NameVersion] = &[
    nv("__opencl_c_int64", 3, 0, 0),
    nv("__opencl_c_fp64", 3, 0, 0),
    nv("__opencl_c_fp16", 3, 0, 0),
    nv("__opencl_c_atomic_order_acq_rel", 3, 0, 0),
    nv("__opencl_c_atomic_order_seq_cst", 3, 0, 0),
    nv("__opencl_c_atomic_scope_device", 3, 0, 0),
    nv("__opencl_c_atomic_scope_all_devices", 3, 0, 0),
    nv("__opencl_c_integer_dot_product_input_4x8bit", 3, 0, 0),
    nv(
        "__opencl_c_integer_dot_product_input_4x8bit_packed",
        3,
        0,
        0,
    ),
    nv("__opencl_c_work_group_collective_functions", 3, 0, 0),
    nv("__opencl_c_subgroups", 3, 0, 0),
    // Program-scope `__global` variables and `static` locals in `__global`: the CPU device
    // allocates them once per built program (ferrocl-cpu, `place_globals`), so their values
    // are kept from one launch to the next.
    nv("__opencl_c_program_scope_global_variables", 3, 0, 0),
    // Unqualified pointers are generic: a plain address on the CPU device, whose to_global,
    // to_local, to_private and get_fence test it against the work-group's local region and
    // private region (ferrocl-cpu, `address_space_query`).
    nv("__opencl_c_generic_address_space", 3, 0, 0),
    // Images: the API's image objects and samplers, and the image functions of OpenCL C 6.15.15
    // in the builtin library; 3D image writes and read-write images with them.
    nv("__opencl_c_images", 3, 0, 0),
    nv("__opencl_c_3d_image_writes", 3, 0, 0),
    nv("__opencl_c_read_write_images", 3, 0, 0),
    // Pipes: the API's pipe objects and the pipe functions of OpenCL C 6.15.18 (and the
    // sub-group ones of 6.15.20) in the builtin library (pipe.cl), on the pipe's storage.
    // "OpenCL C compilers that define the feature macro __opencl_c_pipes must also define the
    // feature macro __opencl_c_generic_address_space" (3.0, 6.2.1): it is above.
    nv("__opencl_c_pipes", 3, 0, 0),
];

/// The OpenCL C versions the NVIDIA GPU device's compiler accepts: 1.x, 2.0 and 3.0. Of
/// 2.0's language, pipes and device-side enqueue are refused where a program uses them (a
/// build error at the construct, as on the CPU device for device-side enqueue), the device
/// reporting neither.
pub const GPU_OPENCL_C_VERSIONS: &[NameVersion] = &[
    nv("OpenCL C", 1, 0, 0),
    nv("OpenCL C", 1, 1, 0),
    nv("OpenCL C", 1, 2, 0),
    nv("OpenCL C", 2, 0, 0),
    nv("OpenCL C", 3, 0, 0),
];

/// Extensions of the NVIDIA GPU device: the ones every OpenCL 1.1 device returns (API 3.0,
/// Table 5), 64-bit atomics (PTX `atom` on 64-bit words), doubles and halves (computed in
/// float and rounded after each operation, as on the CPU device, the halves in memory converted
/// with `cvt`).
pub const GPU_DEVICE_EXTENSIONS: &[NameVersion] = &[
    nv("cl_khr_icd", 1, 0, 0),
    nv("cl_khr_byte_addressable_store", 1, 0, 0),
    nv("cl_khr_global_int32_base_atomics", 1, 0, 0),
    nv("cl_khr_global_int32_extended_atomics", 1, 0, 0),
    nv("cl_khr_local_int32_base_atomics", 1, 0, 0),
    nv("cl_khr_local_int32_extended_atomics", 1, 0, 0),
    nv("cl_khr_int64_base_atomics", 1, 0, 0),
    nv("cl_khr_int64_extended_atomics", 1, 0, 0),
    nv("cl_khr_fp64", 1, 0, 0),
    nv("cl_khr_fp16", 1, 0, 0),
    nv("cl_khr_3d_image_writes", 1, 0, 0),
    nv("cl_khr_image2d_from_buffer", 1, 0, 0),
];

/// The optional OpenCL C 3.0 features of the NVIDIA GPU device: the atomic orders and scopes
/// of the PTX memory model (`.acq_rel`, `fence.sc`, `.gpu` and `.sys` scopes), 64-bit
/// integers and doubles, the work-group collectives (through shared memory) and sub-groups
/// (the warps, with shuffles), generic pointers (PTX's generic addressing, `isspacep` for
/// `to_global`/`to_local`/`to_private`) and program-scope variables (module-scope `.global`
/// variables, kept across launches, initialized with addresses through PTX's byte masks), and
/// images: the library's image functions compiled to PTX as the rest of it, reading the image's
/// bytes in device memory through a descriptor the runtime places there
/// (`Image::device_descriptor_addr`); and pipes, the library's lock-free queue (`pipe.cl`) in
/// device memory, its reservations and commits fenced at device scope by lowering.
pub const GPU_OPENCL_C_FEATURES: &[NameVersion] = &[
    nv("__opencl_c_generic_address_space", 3, 0, 0),
    nv("__opencl_c_program_scope_global_variables", 3, 0, 0),
    nv("__opencl_c_work_group_collective_functions", 3, 0, 0),
    nv("__opencl_c_subgroups", 3, 0, 0),
    nv("__opencl_c_int64", 3, 0, 0),
    nv("__opencl_c_fp64", 3, 0, 0),
    nv("__opencl_c_fp16", 3, 0, 0),
    nv("__opencl_c_atomic_order_acq_rel", 3, 0, 0),
    nv("__opencl_c_atomic_order_seq_cst", 3, 0, 0),
    nv("__opencl_c_atomic_scope_device", 3, 0, 0),
    nv("__opencl_c_atomic_scope_all_devices", 3, 0, 0),
    nv("__opencl_c_images", 3, 0, 0),
    nv("__opencl_c_3d_image_writes", 3, 0, 0),
    nv("__opencl_c_read_write_images", 3, 0, 0),
    nv("__opencl_c_pipes", 3, 0, 0),
];

/// A space-separated list of the names, as the `*_EXTENSIONS` string queries return it.
pub fn names_string(list: &[NameVersion]) -> String {
    let mut s = String::new();
    for (i, e) in list.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(e.name);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_version() {
        assert_eq!(Version::new(3, 0, 0).packed(), 3 << 22);
        assert_eq!(Version::new(1, 2, 5).packed(), (1 << 22) | (2 << 12) | 5);
    }

    #[test]
    fn extension_names_join_with_spaces() {
        assert_eq!(
            names_string(&CPU_DEVICE_EXTENSIONS[..2]),
            "cl_khr_icd cl_khr_byte_addressable_store"
        );
    }
}
