//! Programs (`cl_program`). Today a program holds the source or binaries it was created
//! from; building needs the OpenCL C compiler, which devices report as not available until it
//! lands (`CL_DEVICE_COMPILER_AVAILABLE`), so builds answer `CL_COMPILER_NOT_AVAILABLE`.

use std::sync::Arc;

use crate::context::Context;
use crate::device::Device;
use crate::object::IcdHeader;

/// A program (`cl_program`).
#[repr(C)]
pub struct Program {
    icd: IcdHeader,
    pub context: Arc<Context>,
    pub devices: Vec<Arc<Device>>,
    /// `CL_PROGRAM_SOURCE`: the concatenated source strings.
    pub source: String,
}

impl Program {
    pub fn from_source(context: Arc<Context>, source: String) -> Arc<Program> {
        let devices = context.devices.clone();
        Arc::new(Program {
            icd: IcdHeader::new(),
            context,
            devices,
            source,
        })
    }
}

impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Program")
            .field("source_len", &self.source.len())
            .finish()
    }
}
