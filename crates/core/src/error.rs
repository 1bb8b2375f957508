//! The errors of the OpenCL API as a Rust enum. Inside the runtime every failure is a
//! `ClError`; only the C boundary turns it into the spec's integer code.

use std::fmt;

macro_rules! cl_errors {
    ($($name:ident = $code:literal => $text:literal,)*) => {
        /// An OpenCL error. The discriminant is the spec's `CL_*` code (`cl.h`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(i32)]
        pub enum ClError {
            $($name = $code,)*
        }

        impl ClError {
            /// The `CL_*` name of the error, as the spec spells it.
            pub fn name(self) -> &'static str {
                match self {
                    $(ClError::$name => $text,)*
                }
            }

            /// The error whose code is `code`, if `code` is one.
            pub fn from_code(code: i32) -> Option<ClError> {
                match code {
                    $($code => Some(ClError::$name),)*
                    _ => None,
                }
            }
        }
    };
}

cl_errors! {
    DeviceNotFound = -1 => "CL_DEVICE_NOT_FOUND",
    DeviceNotAvailable = -2 => "CL_DEVICE_NOT_AVAILABLE",
    CompilerNotAvailable = -3 => "CL_COMPILER_NOT_AVAILABLE",
    MemObjectAllocationFailure = -4 => "CL_MEM_OBJECT_ALLOCATION_FAILURE",
    OutOfResources = -5 => "CL_OUT_OF_RESOURCES",
    OutOfHostMemory = -6 => "CL_OUT_OF_HOST_MEMORY",
    ProfilingInfoNotAvailable = -7 => "CL_PROFILING_INFO_NOT_AVAILABLE",
    MemCopyOverlap = -8 => "CL_MEM_COPY_OVERLAP",
    ImageFormatMismatch = -9 => "CL_IMAGE_FORMAT_MISMATCH",
    ImageFormatNotSupported = -10 => "CL_IMAGE_FORMAT_NOT_SUPPORTED",
    BuildProgramFailure = -11 => "CL_BUILD_PROGRAM_FAILURE",
    MapFailure = -12 => "CL_MAP_FAILURE",
    MisalignedSubBufferOffset = -13 => "CL_MISALIGNED_SUB_BUFFER_OFFSET",
    ExecStatusErrorForEventsInWaitList = -14 => "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST",
    CompileProgramFailure = -15 => "CL_COMPILE_PROGRAM_FAILURE",
    LinkerNotAvailable = -16 => "CL_LINKER_NOT_AVAILABLE",
    LinkProgramFailure = -17 => "CL_LINK_PROGRAM_FAILURE",
    DevicePartitionFailed = -18 => "CL_DEVICE_PARTITION_FAILED",
    KernelArgInfoNotAvailable = -19 => "CL_KERNEL_ARG_INFO_NOT_AVAILABLE",
    InvalidValue = -30 => "CL_INVALID_VALUE",
    InvalidDeviceType = -31 => "CL_INVALID_DEVICE_TYPE",
    InvalidPlatform = -32 => "CL_INVALID_PLATFORM",
    InvalidDevice = -33 => "CL_INVALID_DEVICE",
    InvalidContext = -34 => "CL_INVALID_CONTEXT",
    InvalidQueueProperties = -35 => "CL_INVALID_QUEUE_PROPERTIES",
    InvalidCommandQueue = -36 => "CL_INVALID_COMMAND_QUEUE",
    InvalidHostPtr = -37 => "CL_INVALID_HOST_PTR",
    InvalidMemObject = -38 => "CL_INVALID_MEM_OBJECT",
    InvalidImageFormatDescriptor = -39 => "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR",
    InvalidImageSize = -40 => "CL_INVALID_IMAGE_SIZE",
    InvalidSampler = -41 => "CL_INVALID_SAMPLER",
    InvalidBinary = -42 => "CL_INVALID_BINARY",
    InvalidBuildOptions = -43 => "CL_INVALID_BUILD_OPTIONS",
    InvalidProgram = -44 => "CL_INVALID_PROGRAM",
    InvalidProgramExecutable = -45 => "CL_INVALID_PROGRAM_EXECUTABLE",
    InvalidKernelName = -46 => "CL_INVALID_KERNEL_NAME",
    InvalidKernelDefinition = -47 => "CL_INVALID_KERNEL_DEFINITION",
    InvalidKernel = -48 => "CL_INVALID_KERNEL",
    InvalidArgIndex = -49 => "CL_INVALID_ARG_INDEX",
    InvalidArgValue = -50 => "CL_INVALID_ARG_VALUE",
    InvalidArgSize = -51 => "CL_INVALID_ARG_SIZE",
    InvalidKernelArgs = -52 => "CL_INVALID_KERNEL_ARGS",
    InvalidWorkDimension = -53 => "CL_INVALID_WORK_DIMENSION",
    InvalidWorkGroupSize = -54 => "CL_INVALID_WORK_GROUP_SIZE",
    InvalidWorkItemSize = -55 => "CL_INVALID_WORK_ITEM_SIZE",
    InvalidGlobalOffset = -56 => "CL_INVALID_GLOBAL_OFFSET",
    InvalidEventWaitList = -57 => "CL_INVALID_EVENT_WAIT_LIST",
    InvalidEvent = -58 => "CL_INVALID_EVENT",
    InvalidOperation = -59 => "CL_INVALID_OPERATION",
    InvalidGlObject = -60 => "CL_INVALID_GL_OBJECT",
    InvalidBufferSize = -61 => "CL_INVALID_BUFFER_SIZE",
    InvalidMipLevel = -62 => "CL_INVALID_MIP_LEVEL",
    InvalidGlobalWorkSize = -63 => "CL_INVALID_GLOBAL_WORK_SIZE",
    InvalidProperty = -64 => "CL_INVALID_PROPERTY",
    InvalidImageDescriptor = -65 => "CL_INVALID_IMAGE_DESCRIPTOR",
    InvalidCompilerOptions = -66 => "CL_INVALID_COMPILER_OPTIONS",
    InvalidLinkerOptions = -67 => "CL_INVALID_LINKER_OPTIONS",
    InvalidDevicePartitionCount = -68 => "CL_INVALID_DEVICE_PARTITION_COUNT",
    InvalidPipeSize = -69 => "CL_INVALID_PIPE_SIZE",
    InvalidDeviceQueue = -70 => "CL_INVALID_DEVICE_QUEUE",
    InvalidSpecId = -71 => "CL_INVALID_SPEC_ID",
    MaxSizeRestrictionExceeded = -72 => "CL_MAX_SIZE_RESTRICTION_EXCEEDED",
    PlatformNotFoundKhr = -1001 => "CL_PLATFORM_NOT_FOUND_KHR",
}

impl ClError {
    /// The spec's integer code of the error.
    pub fn code(self) -> i32 {
        self as i32
    }
}

impl fmt::Display for ClError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::error::Error for ClError {}

/// The result of a runtime operation.
pub type ClResult<T> = Result<T, ClError>;

/// The message of a caught panic (its payload when a string).
pub fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

impl From<ferrocl_device::DeviceError> for ClError {
    fn from(e: ferrocl_device::DeviceError) -> ClError {
        use ferrocl_device::DeviceError;
        match e {
            DeviceError::OutOfMemory => ClError::MemObjectAllocationFailure,
            DeviceError::Compile(_) => ClError::BuildProgramFailure,
            // A kernel that faulted ends its command in error. 5.11,
            // CL_EVENT_COMMAND_EXECUTION_STATUS: "a negative integer value (command was
            // abnormally terminated - this may be caused by a bad memory access etc.)", from
            // the API's error codes; CL_OUT_OF_RESOURCES is the one for a failure to run a
            // command on the device.
            DeviceError::KernelFault(_) => ClError::OutOfResources,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for code in -1100..0 {
            if let Some(e) = ClError::from_code(code) {
                assert_eq!(e.code(), code);
                assert!(e.name().starts_with("CL_"));
            }
        }
        assert_eq!(ClError::InvalidValue.code(), -30);
        assert_eq!(
            ClError::from_code(-72),
            Some(ClError::MaxSizeRestrictionExceeded)
        );
        assert_eq!(ClError::from_code(-29), None);
    }
}
