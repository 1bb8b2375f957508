//! Chapter 4.1–4.3 of the API: platforms, devices, sub-devices and the timers.

use std::ffi::c_void;
use std::sync::Arc;

use ferrocl_core::device::DeviceType;
use ferrocl_core::machine::Machine;
use ferrocl_core::{clock, ClError, ClResult, Device, Platform};
use opencl_sys::*;

/// `CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR`, whose lower-case
/// `x` a match pattern cannot name without a lint exception.
const DOT_PRODUCT_4X8_PACKED: cl_device_info =
    CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR;

use crate::entry::entry;
use crate::handle::{self, get};
use crate::info::{self, answer};

/// The devices of the platform this library offers: the CPU device, then each NVIDIA GPU the
/// CUDA driver finds (none without the driver or a GPU). `FERROCL_DEVICES`, a comma-separated
/// list of `cpu` and `cuda`, offers only those kinds, in that order (`FERROCL_DEVICES=cuda`
/// makes the first GPU device 0, for programs that take the first device).
fn devices(machine: &Machine) -> Vec<Device> {
    let wanted = std::env::var("FERROCL_DEVICES").unwrap_or_else(|_| "cpu,cuda".to_string());
    let mut out = Vec::new();
    for kind in wanted.split(',').map(str::trim) {
        match kind {
            "cpu" => out.push(Device::cpu(machine, Box::new(ferrocl_cpu::CpuDevice))),
            "cuda" => {
                for gpu in ferrocl_cuda::devices() {
                    let description = gpu.description().clone();
                    out.push(Device::gpu(machine, &description, Box::new(gpu)));
                }
            }
            _ => {}
        }
    }
    out
}

/// The platform, initialized on first use with the dispatch table and its devices registered.
pub fn platform() -> &'static Platform {
    static INIT: std::sync::Once = std::sync::Once::new();
    INIT.call_once(|| {
        ferrocl_core::set_dispatch(crate::dispatch::table_address());
        for device in Platform::init(devices).devices() {
            handle::register_permanent(device);
        }
    });
    Platform::get()
}

/// Checks a platform handle. 4.1 leaves a NULL platform implementation-defined; ferrocl takes
/// it as its one platform.
pub fn check_platform(handle: cl_platform_id) -> ClResult<&'static Platform> {
    let platform = platform();
    if handle.is_null() || std::ptr::eq(handle.cast::<Platform>(), platform) {
        Ok(platform)
    } else {
        Err(ClError::InvalidPlatform)
    }
}

pub fn platform_handle() -> cl_platform_id {
    platform() as *const Platform as cl_platform_id
}

/// Writes a list of handles out through the `num_entries`/`list`/`num_ret` convention that
/// clGetPlatformIDs and clGetDeviceIDs share.
///
/// # Safety
/// `list` must be NULL or writable for `num_entries` handles; `num_ret` NULL or writable.
unsafe fn write_handles<H: Copy>(
    found: &[H],
    num_entries: cl_uint,
    list: *mut H,
    num_ret: *mut cl_uint,
) -> ClResult<()> {
    // 4.1: CL_INVALID_VALUE "if num_entries is equal to zero and platforms is not NULL or if
    // both num_platforms and platforms are NULL" (4.2 says the same of devices).
    if (num_entries == 0 && !list.is_null()) || (list.is_null() && num_ret.is_null()) {
        return Err(ClError::InvalidValue);
    }
    if !list.is_null() {
        for (i, &h) in found.iter().take(num_entries as usize).enumerate() {
            // SAFETY: the caller's contract; i < num_entries.
            unsafe { list.add(i).write(h) };
        }
    }
    if !num_ret.is_null() {
        // SAFETY: the caller's contract.
        unsafe { num_ret.write(found.len() as cl_uint) };
    }
    Ok(())
}

entry! {
    get_platform_ids => fn clGetPlatformIDs(
        num_entries: cl_uint,
        platforms: *mut cl_platform_id,
        num_platforms: *mut cl_uint,
    ) -> cl_int
}

fn get_platform_ids(
    num_entries: cl_uint,
    platforms: *mut cl_platform_id,
    num_platforms: *mut cl_uint,
) -> ClResult<()> {
    // SAFETY: by the spec, the list is NULL or writable for num_entries handles, and the count
    // pointer NULL or writable.
    unsafe { write_handles(&[platform_handle()], num_entries, platforms, num_platforms) }
}

entry! {
    /// `cl_khr_icd`: how an ICD loader finds the platform.
    icd_get_platform_ids_khr => fn clIcdGetPlatformIDsKHR(
        num_entries: cl_uint,
        platforms: *mut cl_platform_id,
        num_platforms: *mut cl_uint,
    ) -> cl_int
}

fn icd_get_platform_ids_khr(
    num_entries: cl_uint,
    platforms: *mut cl_platform_id,
    num_platforms: *mut cl_uint,
) -> ClResult<()> {
    // SAFETY: by the spec, the list is NULL or writable for num_entries handles, and the count
    // pointer NULL or writable.
    unsafe { write_handles(&[platform_handle()], num_entries, platforms, num_platforms) }
}

entry! {
    get_platform_info => fn clGetPlatformInfo(
        platform_id: cl_platform_id,
        param_name: cl_platform_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int
}

fn get_platform_info(
    platform_id: cl_platform_id,
    param_name: cl_platform_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> ClResult<()> {
    let platform = check_platform(platform_id)?;
    let bytes = match param_name {
        CL_PLATFORM_PROFILE => info::of(Platform::PROFILE),
        CL_PLATFORM_VERSION => info::of(&platform.version_string()),
        CL_PLATFORM_NUMERIC_VERSION => info::of(&platform.version().packed()),
        CL_PLATFORM_NAME => info::of(Platform::NAME),
        CL_PLATFORM_VENDOR => info::of(Platform::VENDOR),
        CL_PLATFORM_EXTENSIONS => {
            info::of(&ferrocl_core::features::names_string(platform.extensions()))
        }
        CL_PLATFORM_EXTENSIONS_WITH_VERSION => info::of(platform.extensions()),
        CL_PLATFORM_HOST_TIMER_RESOLUTION => info::of(&platform.host_timer_resolution()),
        CL_PLATFORM_ICD_SUFFIX_KHR => info::of(Platform::ICD_SUFFIX),
        // 4.1: CL_INVALID_VALUE "if param_name is not one of the supported values".
        _ => return Err(ClError::InvalidValue),
    };
    // SAFETY: by the spec, param_value is NULL or writable for param_value_size bytes, and
    // param_value_size_ret NULL or writable: `answer`'s contract.
    unsafe { answer(&bytes, param_value_size, param_value, param_value_size_ret) }
}

fn type_bits(t: DeviceType) -> cl_device_type {
    match t {
        DeviceType::Cpu => CL_DEVICE_TYPE_CPU,
        DeviceType::Gpu => CL_DEVICE_TYPE_GPU,
        DeviceType::Accelerator => CL_DEVICE_TYPE_ACCELERATOR,
        DeviceType::Custom => CL_DEVICE_TYPE_CUSTOM,
    }
}

/// Whether a device matches a `clGetDeviceIDs` type request. `CL_DEVICE_TYPE_DEFAULT` selects
/// the platform's first device; the device itself reports only its own kind (4.2, Table 5:
/// "The device must report a single device type, which must not be CL_DEVICE_TYPE_DEFAULT or
/// CL_DEVICE_TYPE_ALL").
fn matches_type(device: &Arc<Device>, requested: cl_device_type) -> bool {
    let is_default = platform()
        .devices()
        .first()
        .is_some_and(|d| Arc::ptr_eq(d, device));
    requested == CL_DEVICE_TYPE_ALL
        || type_bits(device.info.device_type) & requested != 0
        || (is_default && requested & CL_DEVICE_TYPE_DEFAULT != 0)
}

entry! {
    get_device_ids => fn clGetDeviceIDs(
        platform_id: cl_platform_id,
        device_type: cl_device_type,
        num_entries: cl_uint,
        devices: *mut cl_device_id,
        num_devices: *mut cl_uint,
    ) -> cl_int
}

fn get_device_ids(
    platform_id: cl_platform_id,
    device_type: cl_device_type,
    num_entries: cl_uint,
    devices: *mut cl_device_id,
    num_devices: *mut cl_uint,
) -> ClResult<()> {
    let platform = check_platform(platform_id)?;
    let known = CL_DEVICE_TYPE_DEFAULT
        | CL_DEVICE_TYPE_CPU
        | CL_DEVICE_TYPE_GPU
        | CL_DEVICE_TYPE_ACCELERATOR
        | CL_DEVICE_TYPE_CUSTOM;
    // 4.2: CL_INVALID_DEVICE_TYPE "if device_type is not a valid value".
    if device_type != CL_DEVICE_TYPE_ALL && (device_type == 0 || device_type & !known != 0) {
        return Err(ClError::InvalidDeviceType);
    }
    if (num_entries == 0 && !devices.is_null()) || (devices.is_null() && num_devices.is_null()) {
        return Err(ClError::InvalidValue);
    }
    let found: Vec<cl_device_id> = platform
        .devices()
        .iter()
        .filter(|d| matches_type(d, device_type))
        .map(handle::handle_of)
        .collect();
    // 4.2: CL_DEVICE_NOT_FOUND "if no OpenCL devices that matched device_type were found".
    if found.is_empty() {
        return Err(ClError::DeviceNotFound);
    }
    // SAFETY: by the spec, the list is NULL or writable for num_entries handles, and the count
    // pointer NULL or writable.
    unsafe { write_handles(&found, num_entries, devices, num_devices) }
}

entry! {
    get_device_info => fn clGetDeviceInfo(
        device: cl_device_id,
        param_name: cl_device_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int
}

fn get_device_info(
    device: cl_device_id,
    param_name: cl_device_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> ClResult<()> {
    let device = get::<Device, _>(device)?;
    let bytes = device_info(&device, param_name)?;
    // SAFETY: by the spec, param_value is NULL or writable for param_value_size bytes, and
    // param_value_size_ret NULL or writable: `answer`'s contract.
    unsafe { answer(&bytes, param_value_size, param_value, param_value_size_ret) }
}

/// The answer to one `clGetDeviceInfo` query (4.2, Table 5).
fn device_info(device: &Arc<Device>, param_name: cl_device_info) -> ClResult<Vec<u8>> {
    let d = &device.info;
    Ok(match param_name {
        CL_DEVICE_TYPE => info::of(&type_bits(d.device_type)),
        CL_DEVICE_VENDOR_ID => info::of(&d.vendor_id),
        CL_DEVICE_MAX_COMPUTE_UNITS => info::of(&d.max_compute_units),
        CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS => info::of(&d.max_work_item_dimensions),
        CL_DEVICE_MAX_WORK_ITEM_SIZES => info::of(&d.max_work_item_sizes),
        CL_DEVICE_MAX_WORK_GROUP_SIZE => info::of(&d.max_work_group_size),
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR => info::of(&d.preferred_vector_width[0]),
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT => info::of(&d.preferred_vector_width[1]),
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT => info::of(&d.preferred_vector_width[2]),
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG => info::of(&d.preferred_vector_width[3]),
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT => info::of(&d.preferred_vector_width[4]),
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE => info::of(&d.preferred_vector_width[5]),
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF => info::of(&d.preferred_vector_width[6]),
        CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR => info::of(&d.native_vector_width[0]),
        CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT => info::of(&d.native_vector_width[1]),
        CL_DEVICE_NATIVE_VECTOR_WIDTH_INT => info::of(&d.native_vector_width[2]),
        CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG => info::of(&d.native_vector_width[3]),
        CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT => info::of(&d.native_vector_width[4]),
        CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE => info::of(&d.native_vector_width[5]),
        CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF => info::of(&d.native_vector_width[6]),
        CL_DEVICE_MAX_CLOCK_FREQUENCY => info::of(&d.max_clock_frequency),
        CL_DEVICE_ADDRESS_BITS => info::of(&d.address_bits),
        CL_DEVICE_MAX_MEM_ALLOC_SIZE => info::of(&d.max_mem_alloc_size),
        CL_DEVICE_IMAGE_SUPPORT => info::of(&d.image_support),
        // Image limits are 0 on a device without image support.
        CL_DEVICE_MAX_READ_IMAGE_ARGS => info::of(&d.images.max_read_image_args),
        CL_DEVICE_MAX_WRITE_IMAGE_ARGS => info::of(&d.images.max_write_image_args),
        CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS => info::of(&d.images.max_read_write_image_args),
        CL_DEVICE_MAX_SAMPLERS => info::of(&d.images.max_samplers),
        CL_DEVICE_IMAGE_PITCH_ALIGNMENT => info::of(&d.images.image_pitch_alignment),
        CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT => info::of(&d.images.image_base_address_alignment),
        CL_DEVICE_IMAGE2D_MAX_WIDTH => info::of(&d.images.image2d_max_width),
        CL_DEVICE_IMAGE2D_MAX_HEIGHT => info::of(&d.images.image2d_max_height),
        CL_DEVICE_IMAGE3D_MAX_WIDTH => info::of(&d.images.image3d_max_width),
        CL_DEVICE_IMAGE3D_MAX_HEIGHT => info::of(&d.images.image3d_max_height),
        CL_DEVICE_IMAGE3D_MAX_DEPTH => info::of(&d.images.image3d_max_depth),
        CL_DEVICE_IMAGE_MAX_BUFFER_SIZE => info::of(&d.images.image_max_buffer_size),
        CL_DEVICE_IMAGE_MAX_ARRAY_SIZE => info::of(&d.images.image_max_array_size),
        CL_DEVICE_IL_VERSION => info::of(""),
        CL_DEVICE_ILS_WITH_VERSION => Vec::new(),
        CL_DEVICE_MAX_PARAMETER_SIZE => info::of(&d.max_parameter_size),
        CL_DEVICE_MEM_BASE_ADDR_ALIGN => info::of(&d.mem_base_addr_align),
        // Deprecated in 1.2; the size of the largest built-in type, long16.
        CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE => info::of(&128u32),
        CL_DEVICE_SINGLE_FP_CONFIG => info::of(&d.single_fp_config),
        CL_DEVICE_DOUBLE_FP_CONFIG => info::of(&d.double_fp_config),
        CL_DEVICE_HALF_FP_CONFIG => info::of(&d.half_fp_config),
        CL_DEVICE_GLOBAL_MEM_CACHE_TYPE => info::of(&d.global_mem_cache_type),
        CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE => info::of(&d.global_mem_cacheline_size),
        CL_DEVICE_GLOBAL_MEM_CACHE_SIZE => info::of(&d.global_mem_cache_size),
        CL_DEVICE_GLOBAL_MEM_SIZE => info::of(&d.global_mem_size),
        CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE => info::of(&d.max_constant_buffer_size),
        CL_DEVICE_MAX_CONSTANT_ARGS => info::of(&d.max_constant_args),
        CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE => info::of(&d.max_global_variable_size),
        CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE => {
            info::of(&d.global_variable_preferred_total_size)
        }
        CL_DEVICE_LOCAL_MEM_TYPE => info::of(&d.local_mem_type),
        CL_DEVICE_LOCAL_MEM_SIZE => info::of(&d.local_mem_size),
        CL_DEVICE_ERROR_CORRECTION_SUPPORT => info::of(&d.error_correction_support),
        CL_DEVICE_HOST_UNIFIED_MEMORY => info::of(&d.host_unified_memory),
        CL_DEVICE_PROFILING_TIMER_RESOLUTION => info::of(&d.profiling_timer_resolution),
        CL_DEVICE_ENDIAN_LITTLE => info::of(&d.endian_little),
        CL_DEVICE_AVAILABLE => info::of(&(d.available && device.backend().available())),
        CL_DEVICE_COMPILER_AVAILABLE => info::of(&d.compiler_available),
        CL_DEVICE_LINKER_AVAILABLE => info::of(&d.linker_available),
        CL_DEVICE_EXECUTION_CAPABILITIES => info::of(&d.execution_capabilities),
        CL_DEVICE_QUEUE_ON_HOST_PROPERTIES => info::of(&d.queue_on_host_properties),
        CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES => info::of(&0u64),
        CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE
        | CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE
        | CL_DEVICE_MAX_ON_DEVICE_QUEUES
        | CL_DEVICE_MAX_ON_DEVICE_EVENTS => info::of(&0u32),
        CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES => info::of(&0u64),
        CL_DEVICE_BUILT_IN_KERNELS => info::of(""),
        CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION => Vec::new(),
        CL_DEVICE_PLATFORM => info::of(&platform_handle()),
        CL_DEVICE_NAME => info::of(&d.name),
        CL_DEVICE_VENDOR => info::of(&d.vendor),
        CL_DRIVER_VERSION => info::of(&d.driver_version),
        CL_DEVICE_PROFILE => info::of(d.profile),
        CL_DEVICE_VERSION => info::of(&d.version_string()),
        CL_DEVICE_NUMERIC_VERSION => info::of(&d.version.packed()),
        CL_DEVICE_OPENCL_C_VERSION => info::of(&d.opencl_c_version_string()),
        CL_DEVICE_OPENCL_C_ALL_VERSIONS => info::of(d.opencl_c_all_versions),
        CL_DEVICE_OPENCL_C_FEATURES => info::of(d.opencl_c_features),
        CL_DEVICE_EXTENSIONS => info::of(&ferrocl_core::features::names_string(d.extensions)),
        CL_DEVICE_EXTENSIONS_WITH_VERSION => info::of(d.extensions),
        CL_DEVICE_PRINTF_BUFFER_SIZE => info::of(&d.printf_buffer_size),
        CL_DEVICE_PREFERRED_INTEROP_USER_SYNC => info::of(&d.preferred_interop_user_sync),
        CL_DEVICE_PARENT_DEVICE => info::of(&std::ptr::null_mut::<c_void>()),
        // 4.2: "If the device cannot be partitioned (i.e. there is no partitioning scheme
        // supported by the device that will return at least two sub-devices), a value of 0
        // will be returned."
        CL_DEVICE_PARTITION_MAX_SUB_DEVICES => info::of(&0u32),
        CL_DEVICE_PARTITION_PROPERTIES => info::of(&[0 as cl_device_partition_property]),
        CL_DEVICE_PARTITION_AFFINITY_DOMAIN => info::of(&0u64),
        // 4.2: for a device that is not a sub-device, "param_value_size_ret may be set to 0".
        CL_DEVICE_PARTITION_TYPE => Vec::new(),
        CL_DEVICE_REFERENCE_COUNT => {
            info::of(&handle::ref_count::<Device, _>(handle::handle_of::<
                Device,
                c_void,
            >(device))?)
        }
        CL_DEVICE_SVM_CAPABILITIES => info::of(&d.svm_capabilities),
        // 0: "aligned to the natural size of the type".
        CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT
        | CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT
        | CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT => info::of(&0u32),
        CL_DEVICE_MAX_PIPE_ARGS => info::of(&d.max_pipe_args),
        CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS => info::of(&d.pipe_max_active_reservations),
        CL_DEVICE_PIPE_MAX_PACKET_SIZE => info::of(&d.pipe_max_packet_size),
        CL_DEVICE_MAX_NUM_SUB_GROUPS => info::of(&d.max_num_sub_groups),
        // A work-group's sub-groups run one after another on one thread (features.rs).
        CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS => info::of(&false),
        CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES => info::of(&d.atomic_memory_capabilities),
        CL_DEVICE_ATOMIC_FENCE_CAPABILITIES => info::of(&d.atomic_fence_capabilities),
        CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT => info::of(&d.non_uniform_work_group_support),
        CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT => {
            info::of(&d.work_group_collective_functions_support)
        }
        CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR
            if d.integer_dot_product_capabilities != 0 =>
        {
            info::of(&d.integer_dot_product_capabilities)
        }
        // The dot products are computed with ordinary integer arithmetic: none of the six
        // cases of cl_device_integer_dot_product_acceleration_properties_khr is accelerated.
        CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR | DOT_PRODUCT_4X8_PACKED
            if d.integer_dot_product_capabilities != 0 =>
        {
            info::of(&[false; 6])
        }
        CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT => info::of(&d.generic_address_space_support),
        CL_DEVICE_PIPE_SUPPORT => info::of(&d.pipe_support),
        CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE => {
            info::of(&d.preferred_work_group_size_multiple)
        }
        CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED => {
            info::of(d.latest_conformance_version_passed)
        }
        // 4.2: CL_INVALID_VALUE "if param_name is not one of the supported values" — which
        // includes the queries of extensions the device does not support.
        _ => return Err(ClError::InvalidValue),
    })
}

entry! {
    create_sub_devices => fn clCreateSubDevices(
        in_device: cl_device_id,
        properties: *const cl_device_partition_property,
        num_devices: cl_uint,
        out_devices: *mut cl_device_id,
        num_devices_ret: *mut cl_uint,
    ) -> cl_int
}

fn create_sub_devices(
    in_device: cl_device_id,
    properties: *const cl_device_partition_property,
    num_devices: cl_uint,
    out_devices: *mut cl_device_id,
    num_devices_ret: *mut cl_uint,
) -> ClResult<()> {
    let _ = (num_devices, out_devices, num_devices_ret);
    get::<Device, _>(in_device)?;
    // 4.3: CL_INVALID_VALUE "if values specified in properties are not valid or if values
    // specified in properties are valid but not supported by the device". The CPU device
    // reports no partition types (CL_DEVICE_PARTITION_PROPERTIES is {0}).
    let _ = properties;
    Err(ClError::InvalidValue)
}

entry! {
    /// 4.3: "clRetainDevice ... increments the device reference count if device is a valid
    /// sub-device created by a call to clCreateSubDevices. If device is a root level device
    /// i.e. a cl_device_id returned by clGetDeviceIDs, the device reference count remains
    /// unchanged."
    retain_device => fn clRetainDevice(device: cl_device_id) -> cl_int
}

fn retain_device(device: cl_device_id) -> ClResult<()> {
    handle::retain::<Device, _>(device)
}

entry! {
    release_device => fn clReleaseDevice(device: cl_device_id) -> cl_int
}

fn release_device(device: cl_device_id) -> ClResult<()> {
    handle::release::<Device, _>(device)
}

entry! {
    get_device_and_host_timer => fn clGetDeviceAndHostTimer(
        device: cl_device_id,
        device_timestamp: *mut cl_ulong,
        host_timestamp: *mut cl_ulong,
    ) -> cl_int
}

fn get_device_and_host_timer(
    device: cl_device_id,
    device_timestamp: *mut cl_ulong,
    host_timestamp: *mut cl_ulong,
) -> ClResult<()> {
    get::<Device, _>(device)?;
    // 4.4: CL_INVALID_VALUE "if host_timestamp or device_timestamp is NULL".
    if device_timestamp.is_null() || host_timestamp.is_null() {
        return Err(ClError::InvalidValue);
    }
    // The CPU device's timer is the host's monotonic clock: one reading serves both.
    let now = clock::now_ns();
    // SAFETY: device_timestamp is non-NULL (checked above) and, by the spec, writable.
    unsafe { device_timestamp.write(now) };
    // SAFETY: host_timestamp is non-NULL (checked above) and, by the spec, writable.
    unsafe { host_timestamp.write(now) };
    Ok(())
}

entry! {
    get_host_timer => fn clGetHostTimer(
        device: cl_device_id,
        host_timestamp: *mut cl_ulong,
    ) -> cl_int
}

fn get_host_timer(device: cl_device_id, host_timestamp: *mut cl_ulong) -> ClResult<()> {
    get::<Device, _>(device)?;
    // 4.4: CL_INVALID_VALUE "if host_timestamp is NULL".
    if host_timestamp.is_null() {
        return Err(ClError::InvalidValue);
    }
    // SAFETY: host_timestamp is non-NULL (checked above) and, by the spec, writable.
    unsafe { host_timestamp.write(clock::now_ns()) };
    Ok(())
}

entry! {
    /// 5.8.8: a hint that the compiler may be released; always succeeds for a valid platform.
    unload_platform_compiler => fn clUnloadPlatformCompiler(platform_id: cl_platform_id) -> cl_int
}

fn unload_platform_compiler(platform_id: cl_platform_id) -> ClResult<()> {
    check_platform(platform_id).map(|_| ())
}

entry! {
    unload_compiler => fn clUnloadCompiler() -> cl_int
}

fn unload_compiler() -> ClResult<()> {
    Ok(())
}
