//! The atomic functions (OpenCL C 6.15.12) are tested as kernel files, on every platform
//! present: `tests/kernels/atomics/` (contended 32- and 64-bit atomics, every memory order and
//! scope). Those files are skipped on a device that does not offer what they require; this
//! test makes sure the CPU device offers it, so they never skip on ferrocl.

use ferrocl_core::Platform;

#[test]
fn the_device_offers_what_the_atomics_kernel_files_require() {
    let info = &Platform::get().devices()[0].info;
    for name in ["cl_khr_int64_base_atomics", "cl_khr_int64_extended_atomics"] {
        assert!(
            info.extensions.iter().any(|e| e.name == name),
            "{name} advertised"
        );
    }
    for name in [
        "__opencl_c_atomic_order_acq_rel",
        "__opencl_c_atomic_order_seq_cst",
        "__opencl_c_atomic_scope_device",
        "__opencl_c_atomic_scope_all_devices",
    ] {
        assert!(
            info.opencl_c_features.iter().any(|f| f.name == name),
            "{name} reported"
        );
    }
}
