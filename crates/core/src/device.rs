//! Devices: what each one reports to `clGetDeviceInfo`, and the device (the `ferrocl-device`
//! interface's [`DeviceBackend`]) the runtime hands work to. The CPU device is the one device
//! every machine has.

use crate::features::{self, NameVersion, Version};
use crate::machine::Machine;
use crate::object::IcdHeader;

pub use ferrocl_device::{
    ArgSlot, CompileOptions, DeviceBackend, DeviceKernel, DeviceLimits, DeviceProgram,
    GpuDescription, Listing, NdRange,
};

/// `cl_device_type` of a device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceType {
    Cpu,
    Gpu,
    Accelerator,
    Custom,
}

/// Bits of `cl_device_fp_config`.
pub mod fp_config {
    pub const DENORM: u64 = 1 << 0;
    pub const INF_NAN: u64 = 1 << 1;
    pub const ROUND_TO_NEAREST: u64 = 1 << 2;
    pub const ROUND_TO_ZERO: u64 = 1 << 3;
    pub const ROUND_TO_INF: u64 = 1 << 4;
    pub const FMA: u64 = 1 << 5;
    pub const SOFT_FLOAT: u64 = 1 << 6;
    pub const CORRECTLY_ROUNDED_DIVIDE_SQRT: u64 = 1 << 7;
}

/// `CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED` (4.2: "vYYYY-MM-DD-XX"): the Khronos
/// OpenCL-CTS release v2023-10-10-00. A self-check, not an official conformance submission.
pub const LATEST_CONFORMANCE_VERSION: &str = "v2023-10-10-00";

/// `CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE` of the CPU device: 64 MiB, a thousand times the
/// spec's minimum (lookup tables of real programs are a few hundred KiB at most); each
/// variable is allocated when its program is built.
pub const MAX_GLOBAL_VARIABLE_SIZE: usize = 64 << 20;

/// Bits of `cl_device_atomic_capabilities`.
pub mod atomic_caps {
    pub const ORDER_RELAXED: u64 = 1 << 0;
    pub const ORDER_ACQ_REL: u64 = 1 << 1;
    pub const ORDER_SEQ_CST: u64 = 1 << 2;
    pub const SCOPE_WORK_ITEM: u64 = 1 << 3;
    pub const SCOPE_WORK_GROUP: u64 = 1 << 4;
    pub const SCOPE_DEVICE: u64 = 1 << 5;
    pub const SCOPE_ALL_DEVICES: u64 = 1 << 6;
}

/// Bits of `cl_command_queue_properties`.
pub mod queue_props {
    pub const OUT_OF_ORDER_EXEC_MODE_ENABLE: u64 = 1 << 0;
    pub const PROFILING_ENABLE: u64 = 1 << 1;
    pub const ON_DEVICE: u64 = 1 << 2;
    pub const ON_DEVICE_DEFAULT: u64 = 1 << 3;
}

/// Everything a device reports through `clGetDeviceInfo` that is a plain value. The names
/// are the spec's `CL_DEVICE_*` names in snake case.
#[derive(Clone, Debug)]
pub struct DeviceInfo {
    pub device_type: DeviceType,
    pub vendor_id: u32,
    pub max_compute_units: u32,
    pub max_work_item_dimensions: u32,
    pub max_work_item_sizes: [usize; 3],
    pub max_work_group_size: usize,
    /// Preferred and native vector widths: char, short, int, long, float, double, half.
    pub preferred_vector_width: [u32; 7],
    pub native_vector_width: [u32; 7],
    pub max_clock_frequency: u32,
    pub address_bits: u32,
    pub max_mem_alloc_size: u64,
    pub image_support: bool,
    /// The image limits; all 0 without `image_support`.
    pub images: crate::image::ImageLimits,
    pub max_parameter_size: usize,
    pub mem_base_addr_align: u32,
    pub single_fp_config: u64,
    pub double_fp_config: u64,
    pub half_fp_config: u64,
    pub global_mem_cache_type: u32,
    pub global_mem_cacheline_size: u32,
    pub global_mem_cache_size: u64,
    pub global_mem_size: u64,
    pub max_constant_buffer_size: u64,
    pub max_constant_args: u32,
    pub max_global_variable_size: usize,
    pub global_variable_preferred_total_size: usize,
    pub local_mem_type: u32,
    pub local_mem_size: u64,
    pub error_correction_support: bool,
    pub host_unified_memory: bool,
    pub profiling_timer_resolution: usize,
    pub endian_little: bool,
    pub available: bool,
    pub compiler_available: bool,
    pub linker_available: bool,
    pub execution_capabilities: u64,
    pub queue_on_host_properties: u64,
    pub name: String,
    pub vendor: String,
    pub driver_version: String,
    pub profile: &'static str,
    pub version: Version,
    pub opencl_c_version: Version,
    pub opencl_c_all_versions: &'static [NameVersion],
    pub opencl_c_features: &'static [NameVersion],
    pub extensions: &'static [NameVersion],
    pub printf_buffer_size: usize,
    pub preferred_interop_user_sync: bool,
    pub svm_capabilities: u64,
    pub atomic_memory_capabilities: u64,
    pub atomic_fence_capabilities: u64,
    pub non_uniform_work_group_support: bool,
    pub work_group_collective_functions_support: bool,
    /// cl_khr_integer_dot_product: `CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR` (0 when
    /// the extension is not supported).
    pub integer_dot_product_capabilities: u64,
    pub generic_address_space_support: bool,
    pub pipe_support: bool,
    /// `CL_DEVICE_MAX_PIPE_ARGS`, `CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS` and
    /// `CL_DEVICE_PIPE_MAX_PACKET_SIZE` (all 0 without pipes).
    pub max_pipe_args: u32,
    pub pipe_max_active_reservations: u32,
    pub pipe_max_packet_size: u32,
    pub max_num_sub_groups: u32,
    /// Work-items per sub-group (the last of a work-group may have fewer); 0 without
    /// sub-groups.
    pub sub_group_size: u32,
    pub preferred_work_group_size_multiple: usize,
    pub latest_conformance_version_passed: &'static str,
}

impl DeviceInfo {
    /// The CPU device of this machine, with the limits its backend states.
    pub fn cpu(machine: &Machine, limits: DeviceLimits) -> DeviceInfo {
        // 4.2, Table 5, full profile minimums: CL_DEVICE_MAX_MEM_ALLOC_SIZE at least
        // max(1/4th of CL_DEVICE_GLOBAL_MEM_SIZE, 128*1024*1024).
        let global_mem_size = machine.memory_bytes;
        let max_mem_alloc_size = (global_mem_size / 2).max(128 << 20).min(global_mem_size);
        let max_work_group_size = limits.max_work_group_size;
        let info = DeviceInfo {
            device_type: DeviceType::Cpu,
            vendor_id: machine.vendor_id,
            max_compute_units: machine.cores,
            max_work_item_dimensions: 3,
            max_work_item_sizes: [max_work_group_size; 3],
            max_work_group_size,
            // 4.2, Table 5: the double widths "must return 0" only "if double precision is not
            // supported"; two doubles fill a 128-bit SIMD register, as two longs do.
            preferred_vector_width: [16, 8, 4, 2, 4, 2, 0],
            native_vector_width: [16, 8, 4, 2, 4, 2, 0],
            max_clock_frequency: machine.max_clock_mhz,
            address_bits: usize::BITS,
            max_mem_alloc_size,
            // The fields that mirror a feature macro: `with_features` below.
            image_support: false,
            images: crate::image::ImageLimits::default(),
            // The full profile's minimum is 1024 bytes.
            max_parameter_size: 4096,
            // In bits: 1024 bits = 128 bytes, the alignment of every allocation.
            mem_base_addr_align: (crate::memory::ALLOCATION_ALIGN * 8) as u32,
            single_fp_config: fp_config::DENORM
                | fp_config::INF_NAN
                | fp_config::ROUND_TO_NEAREST
                // IEEE division, square root and fused multiply-add are single instructions (or
                // the C library's fmaf) in the generated code.
                | fp_config::FMA
                | fp_config::CORRECTLY_ROUNDED_DIVIDE_SQRT,
            // 4.2, Table 5: the minimum "for OpenCL 1.0, OpenCL 1.1 or OpenCL 1.2 devices is:
            // CL_FP_FMA CL_FP_ROUND_TO_NEAREST CL_FP_ROUND_TO_ZERO CL_FP_ROUND_TO_INF
            // CL_FP_INF_NAN CL_FP_DENORM", which 1.x programs and test suites still expect.
            // Double arithmetic is the host's IEEE binary64 with denormals, fma is fused, and
            // every rounding mode a program can name for doubles (the _rte/_rtz/_rtp/_rtn
            // conversions from and to double, vstore_half_r* of double) is implemented exactly:
            // core/tests/builtins_double.rs and icd/tests/c/fpconfig.c check each of them.
            double_fp_config: fp_config::FMA
                | fp_config::ROUND_TO_NEAREST
                | fp_config::ROUND_TO_ZERO
                | fp_config::ROUND_TO_INF
                | fp_config::INF_NAN
                | fp_config::DENORM,
            // The fields that mirror a feature macro: `with_features` below.
            half_fp_config: 0,
            global_mem_cache_type: 0x2, // CL_READ_WRITE_CACHE
            global_mem_cacheline_size: machine.cache_line_bytes,
            global_mem_cache_size: machine.cache_bytes,
            global_mem_size,
            max_constant_buffer_size: 1 << 20,
            max_constant_args: 8,
            max_global_variable_size: 0,
            global_variable_preferred_total_size: 0,
            local_mem_type: 0x2, // CL_GLOBAL: local memory is ordinary host memory
            local_mem_size: 256 << 10,
            error_correction_support: false,
            host_unified_memory: true,
            profiling_timer_resolution: crate::clock::resolution_ns() as usize,
            endian_little: cfg!(target_endian = "little"),
            available: true,
            compiler_available: true,
            linker_available: true,
            // CL_EXEC_KERNEL | CL_EXEC_NATIVE_KERNEL: the CPU device can call host functions.
            execution_capabilities: 1 | 2,
            queue_on_host_properties: queue_props::OUT_OF_ORDER_EXEC_MODE_ENABLE
                | queue_props::PROFILING_ENABLE,
            name: machine.cpu_name.clone(),
            vendor: machine.cpu_vendor.clone(),
            driver_version: env!("CARGO_PKG_VERSION").to_string(),
            profile: "FULL_PROFILE",
            version: features::API_VERSION,
            opencl_c_version: Version::new(1, 2, 0),
            opencl_c_all_versions: features::CPU_OPENCL_C_VERSIONS,
            opencl_c_features: features::CPU_OPENCL_C_FEATURES,
            extensions: features::CPU_DEVICE_EXTENSIONS,
            printf_buffer_size: 1 << 20,
            preferred_interop_user_sync: true,
            // The CPU device runs kernels in the host process, on its threads, addressing host
            // memory directly: an SVM allocation, or any other host memory (malloc, the
            // stack), is what the host and the kernels see at one address, consistent at
            // every synchronization point without maps (coarse- and fine-grain buffer and
            // fine-grain system sharing); kernel atomics are the host's atomic instructions
            // on that memory, so they order host and kernel accesses while a kernel runs
            // (SVM atomics; icd/tests/c/svm.c hands a flag back and forth with a running
            // kernel).
            svm_capabilities: crate::svm::caps::COARSE_GRAIN_BUFFER
                | crate::svm::caps::FINE_GRAIN_BUFFER
                | crate::svm::caps::FINE_GRAIN_SYSTEM
                | crate::svm::caps::ATOMICS,
            // 4.2, Table 5: the mandated minimum capability is relaxed order at work-group scope
            // for atomics, and relaxed and acquire-release order at work-group scope for fences.
            // The CPU device's atomic operations and fences are sequentially consistent
            // whatever order or scope a program names (each work-group runs on one thread;
            // across threads the code generator's atomics and fences are the host's
            // sequentially consistent instructions), so it offers every order and scope — the
            // capabilities API 3.0 expects of "a device that provides the same level of
            // capabilities as an OpenCL 2.x device". All-devices scope reaches the host
            // through SVM (below): the host's own atomics on the same memory.
            atomic_memory_capabilities: atomic_caps::ORDER_RELAXED
                | atomic_caps::ORDER_ACQ_REL
                | atomic_caps::ORDER_SEQ_CST
                | atomic_caps::SCOPE_WORK_GROUP
                | atomic_caps::SCOPE_DEVICE
                | atomic_caps::SCOPE_ALL_DEVICES,
            atomic_fence_capabilities: atomic_caps::ORDER_RELAXED
                | atomic_caps::ORDER_ACQ_REL
                | atomic_caps::ORDER_SEQ_CST
                | atomic_caps::SCOPE_WORK_ITEM
                | atomic_caps::SCOPE_WORK_GROUP
                | atomic_caps::SCOPE_DEVICE
                | atomic_caps::SCOPE_ALL_DEVICES,
            non_uniform_work_group_support: true,
            work_group_collective_functions_support: false,
            integer_dot_product_capabilities: 0,
            generic_address_space_support: false,
            pipe_support: false,
            max_pipe_args: 0,
            pipe_max_active_reservations: 0,
            pipe_max_packet_size: 0,
            max_num_sub_groups: 0,
            sub_group_size: 0,
            preferred_work_group_size_multiple: 1,
            // A self-check, not an official Khronos conformance submission (README, "Status"):
            // the release of the Khronos conformance suite whose mandatory areas the project's
            // own API and kernel tests are written against, in 4.2's vYYYY-MM-DD-XX format.
            latest_conformance_version_passed: LATEST_CONFORMANCE_VERSION,
        };
        info.with_features(features::CPU_OPENCL_C_FEATURES, limits)
    }

    /// The device with the OpenCL C 3.0 features `list`, and the queries that mirror a
    /// feature macro set from it (features.rs: a name is listed only when it works end to
    /// end), so that no device reports a capability its feature list lacks.
    fn with_features(mut self, list: &'static [NameVersion], limits: DeviceLimits) -> DeviceInfo {
        let has = |name: &str| list.iter().any(|f| f.name == name);
        self.opencl_c_features = list;
        // Images work end to end when the feature list has them (kernels read and write them
        // through the builtin library).
        self.image_support = has("__opencl_c_images");
        self.images = match self.image_support {
            true => crate::image::ImageLimits::cpu(),
            false => crate::image::ImageLimits::default(),
        };
        // 4.2, Table 5: "The minimum value is 64 KB if the device supports program scope global
        // variables, and must be 0 for devices that do not". A device that has them places each
        // variable in memory of its own when the program is built, and has no faster storage
        // for them (the preferred total is a performance hint).
        let globals = has("__opencl_c_program_scope_global_variables");
        self.max_global_variable_size = if globals { MAX_GLOBAL_VARIABLE_SIZE } else { 0 };
        self.global_variable_preferred_total_size = self.max_global_variable_size;
        // `half` (`__opencl_c_fp16`, with `cl_khr_fp16` in the extensions): 4.2, Table 5, "If
        // half-precision is supported by the device, then the minimum half-precision
        // floating-point capability is either: CL_FP_ROUND_TO_ZERO or CL_FP_ROUND_TO_NEAREST
        // CL_FP_INF_NAN". Arithmetic is IEEE binary16 with denormals, infinities and NaNs,
        // rounded to nearest even; the conversions to half round in every mode a program can
        // name (convert_half_rtz, _rtp, _rtn), exactly; the rounding to half after each
        // operation is done by software routines, and `fma` is emulated, not a fused
        // instruction (so no CL_FP_FMA).
        let fp16 = has("__opencl_c_fp16");
        self.half_fp_config = match fp16 {
            true => {
                fp_config::DENORM
                    | fp_config::INF_NAN
                    | fp_config::ROUND_TO_NEAREST
                    | fp_config::ROUND_TO_ZERO
                    | fp_config::ROUND_TO_INF
                    | fp_config::SOFT_FLOAT
            }
            false => 0,
        };
        // Table 5: "If the cl_khr_fp16 extension is not supported,
        // CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF must return 0" (and the native width); eight
        // halves fill a 128-bit register.
        self.preferred_vector_width[6] = if fp16 { 8 } else { 0 };
        self.native_vector_width[6] = if fp16 { 8 } else { 0 };
        self.work_group_collective_functions_support =
            has("__opencl_c_work_group_collective_functions");
        // CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR is bit 0, _4x8BIT_KHR bit 1.
        self.integer_dot_product_capabilities =
            u64::from(has("__opencl_c_integer_dot_product_input_4x8bit_packed"))
                | u64::from(has("__opencl_c_integer_dot_product_input_4x8bit")) << 1;
        self.generic_address_space_support = has("__opencl_c_generic_address_space");
        self.pipe_support = has("__opencl_c_pipes");
        // 4.2, Table 5: the minimums for a device supporting pipes are 16 arguments, 1 active
        // reservation and 1024-byte packets, and each "must be 0 for devices that do not
        // support pipes". The pipe functions of the builtin library (pipe.cl) never wait, so
        // neither the arguments nor the reservations a work-item holds at once are limited
        // by more than the pipe's capacity; packets are copied as bytes.
        let (args, reservations, packet) = if self.pipe_support {
            (64, 64, 64 << 10)
        } else {
            (0, 0, 0)
        };
        self.max_pipe_args = args;
        self.pipe_max_active_reservations = reservations;
        self.pipe_max_packet_size = packet;
        // Sub-groups of `limits.sub_group_size` work-items in linear local id order.
        let sub_groups = has("__opencl_c_subgroups") && limits.sub_group_size > 0;
        self.sub_group_size = if sub_groups { limits.sub_group_size } else { 0 };
        self.max_num_sub_groups = match sub_groups {
            true => (limits.max_work_group_size as u32).div_ceil(limits.sub_group_size),
            false => 0,
        };
        self
    }

    /// A GPU device as it describes itself, with the limits its backend states. Every value
    /// not taken from the description is the CPU device's where the spec gives the two no
    /// reason to differ, and otherwise says what the GPU device does.
    pub fn gpu(machine: &Machine, gpu: &GpuDescription, limits: DeviceLimits) -> DeviceInfo {
        // The CPU device's values where the spec gives the two no reason to differ; the GPU's
        // own below, and the feature-mirroring queries from the GPU's feature list.
        let mut info = DeviceInfo::cpu(machine, limits);
        info.device_type = DeviceType::Gpu;
        info.vendor_id = gpu.vendor_id;
        info.max_compute_units = gpu.compute_units;
        // CUDA's block dimensions: 1024 along x and y, 64 along z.
        info.max_work_item_sizes = [limits.max_work_group_size, limits.max_work_group_size, 64];
        info.preferred_vector_width = [1, 1, 1, 1, 1, 1, 0];
        info.native_vector_width = [1, 1, 1, 1, 1, 1, 0];
        info.max_clock_frequency = gpu.max_clock_mhz;
        info.global_mem_size = gpu.global_mem_size;
        info.max_mem_alloc_size = gpu.max_mem_alloc_size;
        info.global_mem_cache_size = gpu.cache_size;
        info.global_mem_cacheline_size = gpu.cache_line;
        info.max_constant_buffer_size = gpu.max_constant_buffer_size;
        info.local_mem_type = 0x1; // CL_LOCAL: the multiprocessor's shared memory
        info.local_mem_size = gpu.local_mem_size;
        info.error_correction_support = gpu.error_correction;
        info.host_unified_memory = false;
        // CL_EXEC_KERNEL only: no native kernels on the GPU.
        info.execution_capabilities = 1;
        info.name = gpu.name.clone();
        info.vendor = gpu.vendor.clone();
        info.driver_version = gpu.driver_version.clone();
        info.opencl_c_all_versions = features::GPU_OPENCL_C_VERSIONS;
        info.extensions = features::GPU_DEVICE_EXTENSIONS;
        // Shared virtual memory in the GPU's managed memory (`svm.rs`): one address on both
        // sides, pages moved to the side that touches them, host and kernel at once
        // (concurrent managed access, which every GPU of this device has): coarse- and
        // fine-grain buffers. Table 5: CL_DEVICE_SVM_FINE_GRAIN_SYSTEM "Support for sharing
        // the host's entire virtual memory including memory allocated using malloc", where
        // the GPU addresses pageable memory; CL_DEVICE_SVM_ATOMICS "Support for the OpenCL
        // 2.0 atomic operations that provide memory consistency across the host and all
        // OpenCL devices", where the link carries the GPU's atomics to the host's memory.
        info.svm_capabilities = crate::svm::caps::COARSE_GRAIN_BUFFER
            | crate::svm::caps::FINE_GRAIN_BUFFER
            | if gpu.pageable_memory_access {
                crate::svm::caps::FINE_GRAIN_SYSTEM
            } else {
                0
            }
            | if gpu.host_native_atomics {
                crate::svm::caps::ATOMICS
            } else {
                0
            };
        // Warps of 32 threads.
        info.preferred_work_group_size_multiple = 32;
        info.with_features(features::GPU_OPENCL_C_FEATURES, limits)
    }

    /// `CL_DEVICE_VERSION`: "OpenCL<space><major.minor><space><vendor-specific information>".
    pub fn version_string(&self) -> String {
        format!(
            "OpenCL {}.{} ferrocl {}",
            self.version.major, self.version.minor, self.driver_version
        )
    }

    /// `CL_DEVICE_OPENCL_C_VERSION`: "OpenCL<space>C<space><major.minor><space><vendor info>".
    pub fn opencl_c_version_string(&self) -> String {
        format!(
            "OpenCL C {}.{} ferrocl",
            self.opencl_c_version.major, self.opencl_c_version.minor
        )
    }

    /// Whether the device supports an extension, by name.
    pub fn has_extension(&self, name: &str) -> bool {
        self.extensions.iter().any(|e| e.name == name)
    }
}

/// A device, as the API sees it (`cl_device_id`).
#[repr(C)]
pub struct Device {
    icd: IcdHeader,
    pub info: DeviceInfo,
    backend: Box<dyn DeviceBackend>,
}

impl Device {
    pub fn new(info: DeviceInfo, backend: Box<dyn DeviceBackend>) -> Device {
        Device {
            icd: IcdHeader::new(),
            info,
            backend,
        }
    }

    /// The CPU device of this machine, compiled and run by `backend`.
    pub fn cpu(machine: &Machine, backend: Box<dyn DeviceBackend>) -> Device {
        Device::new(DeviceInfo::cpu(machine, backend.limits()), backend)
    }

    /// A GPU, compiled and run by `backend`, as `gpu` describes it.
    pub fn gpu(machine: &Machine, gpu: &GpuDescription, backend: Box<dyn DeviceBackend>) -> Device {
        Device::new(DeviceInfo::gpu(machine, gpu, backend.limits()), backend)
    }

    pub fn backend(&self) -> &dyn DeviceBackend {
        &*self.backend
    }
}

impl std::fmt::Debug for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Device")
            .field("name", &self.info.name)
            .finish()
    }
}
