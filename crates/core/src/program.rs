//! Programs (`cl_program`): source or binaries, and a build per device.
//!
//! A program binary is the program's IR, serialized (DESIGN.md, decision 8). Building turns
//! that IR, optimized by the standard pass pipeline, into each device's executable, from which
//! kernels are made. Building from source needs the OpenCL C compiler, which devices report
//! as not available (`CL_DEVICE_COMPILER_AVAILABLE`) until it can lower programs to IR; such
//! builds answer `CL_COMPILER_NOT_AVAILABLE`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use ferrocl_ir::Module;

use crate::context::Context;
use crate::device::{Device, DeviceProgram};
use crate::error::{ClError, ClResult};
use crate::object::IcdHeader;

/// `cl_build_status`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildStatus {
    None,
    Error,
    Success,
    InProgress,
}

impl BuildStatus {
    /// The `CL_BUILD_*` value.
    pub fn code(self) -> i32 {
        match self {
            BuildStatus::Success => 0,
            BuildStatus::None => -1,
            BuildStatus::Error => -2,
            BuildStatus::InProgress => -3,
        }
    }
}

/// `cl_program_binary_type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryType {
    None,
    CompiledObject,
    Library,
    Executable,
}

/// One device's build of a program.
#[derive(Clone)]
pub struct DeviceBuild {
    pub status: BuildStatus,
    pub log: String,
    pub options: String,
    pub binary_type: BinaryType,
    pub executable: Option<Arc<dyn DeviceProgram>>,
}

impl Default for DeviceBuild {
    fn default() -> Self {
        DeviceBuild {
            status: BuildStatus::None,
            log: String::new(),
            options: String::new(),
            binary_type: BinaryType::None,
            executable: None,
        }
    }
}

/// What a program was created from.
pub enum Origin {
    Source(String),
    /// IR, one module per device (from `clCreateProgramWithBinary`).
    Binary(Vec<Arc<Module>>),
}

struct State {
    builds: Vec<DeviceBuild>,
    /// The IR the executables were built from, per device.
    modules: Vec<Option<Arc<Module>>>,
}

/// A kernel compiled for each device of a program (None where the program is not built).
pub(crate) type PerDeviceKernels = Vec<Option<Arc<dyn crate::device::DeviceKernel>>>;

/// A program (`cl_program`).
#[repr(C)]
pub struct Program {
    icd: IcdHeader,
    pub context: Arc<Context>,
    pub devices: Vec<Arc<Device>>,
    pub origin: Origin,
    state: Mutex<State>,
    /// Kernel objects made from this program and not yet released.
    pub(crate) live_kernels: AtomicUsize,
}

impl Program {
    pub fn from_source(context: Arc<Context>, source: String) -> Arc<Program> {
        let devices = context.devices.clone();
        Program::new(context, devices, Origin::Source(source))
    }

    /// A program from binaries, one per device. Each that is not a ferrocl program binary is
    /// reported in the returned statuses (`CL_INVALID_BINARY`), and the program is not made.
    pub fn from_binaries(
        context: Arc<Context>,
        devices: Vec<Arc<Device>>,
        binaries: &[&[u8]],
    ) -> Result<Arc<Program>, Vec<ClResult<()>>> {
        let decoded: Vec<Result<Module, ClError>> = binaries
            .iter()
            .map(|b| ferrocl_ir::serialize::deserialize(b).map_err(|_| ClError::InvalidBinary))
            .map(|m| {
                m.and_then(|m| {
                    ferrocl_ir::verify_module(&m)
                        .map(|_| m)
                        .map_err(|_| ClError::InvalidBinary)
                })
            })
            .collect();
        if decoded.iter().any(|d| d.is_err()) {
            return Err(decoded
                .iter()
                .map(|d| d.as_ref().map(|_| ()).map_err(|e| *e))
                .collect());
        }
        let modules: Vec<Arc<Module>> = decoded
            .into_iter()
            .filter_map(Result::ok)
            .map(Arc::new)
            .collect();
        let program = Program::new(context, devices, Origin::Binary(modules.clone()));
        {
            let mut state = program.lock();
            for (i, m) in modules.into_iter().enumerate() {
                state.modules[i] = Some(m);
                state.builds[i].binary_type = BinaryType::Executable;
            }
        }
        Ok(program)
    }

    fn new(context: Arc<Context>, devices: Vec<Arc<Device>>, origin: Origin) -> Arc<Program> {
        let n = devices.len();
        Arc::new(Program {
            icd: IcdHeader::new(),
            context,
            devices,
            origin,
            state: Mutex::new(State {
                builds: vec![DeviceBuild::default(); n],
                modules: vec![None; n],
            }),
            live_kernels: AtomicUsize::new(0),
        })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn source(&self) -> &str {
        match &self.origin {
            Origin::Source(s) => s,
            Origin::Binary(_) => "",
        }
    }

    fn device_index(&self, device: &Arc<Device>) -> Option<usize> {
        self.devices.iter().position(|d| Arc::ptr_eq(d, device))
    }

    /// The build of one device of the program.
    pub fn build_info(&self, device: &Arc<Device>) -> Option<DeviceBuild> {
        let i = self.device_index(device)?;
        Some(self.lock().builds[i].clone())
    }

    /// `CL_PROGRAM_BINARIES`: each device's IR, serialized (empty where there is none).
    pub fn binaries(&self) -> Vec<Vec<u8>> {
        self.lock()
            .modules
            .iter()
            .map(|m| {
                m.as_ref()
                    .map(|m| ferrocl_ir::serialize::serialize(m))
                    .unwrap_or_default()
            })
            .collect()
    }

    /// Whether some kernel objects made from this program are still alive (5.8.6:
    /// CL_INVALID_OPERATION "if there are kernel objects attached to program").
    pub fn has_kernels(&self) -> bool {
        self.live_kernels.load(Ordering::Acquire) > 0
    }

    /// The names of the kernels of a built program, in module order; None when no device has
    /// an executable.
    pub fn kernel_names(&self) -> Option<Vec<String>> {
        let state = self.lock();
        let i = state
            .builds
            .iter()
            .position(|b| b.status == BuildStatus::Success)?;
        let module = state.modules[i].as_ref()?;
        Some(module.kernels().map(|(_, f)| f.name.clone()).collect())
    }

    /// The IR of the first device with an executable, and its kernel, by name.
    pub(crate) fn built_kernel(&self, name: &str) -> ClResult<(Arc<Module>, PerDeviceKernels)> {
        let state = self.lock();
        let first = state
            .builds
            .iter()
            .position(|b| b.status == BuildStatus::Success)
            .ok_or(ClError::InvalidProgramExecutable)?;
        let module = state.modules[first]
            .clone()
            .ok_or(ClError::InvalidProgramExecutable)?;
        if module
            .func_by_name(name)
            .is_none_or(|f| !module.funcs[f].is_kernel())
        {
            return Err(ClError::InvalidKernelName);
        }
        let per_device = state
            .builds
            .iter()
            .map(|b| b.executable.as_ref().and_then(|e| e.kernel(name)))
            .collect();
        Ok((module, per_device))
    }

    /// Builds the program for `devices` (all of the program's when empty) with `options`.
    /// A failed build is recorded in the build log and answered with
    /// CL_BUILD_PROGRAM_FAILURE.
    pub fn build(&self, devices: &[Arc<Device>], options: &str) -> ClResult<()> {
        if self.has_kernels() {
            return Err(ClError::InvalidOperation);
        }
        let targets: Vec<usize> = if devices.is_empty() {
            (0..self.devices.len()).collect()
        } else {
            devices
                .iter()
                .map(|d| self.device_index(d).ok_or(ClError::InvalidDevice))
                .collect::<ClResult<_>>()?
        };
        let mut failed = false;
        for i in targets {
            let device = &self.devices[i];
            let module = match &self.origin {
                // CL_COMPILER_NOT_AVAILABLE "if program is created with
                // clCreateProgramWithSource and a compiler is not available"; no device has
                // one yet (CL_DEVICE_COMPILER_AVAILABLE is false).
                Origin::Source(_) => return Err(ClError::CompilerNotAvailable),
                Origin::Binary(modules) => modules[i].clone(),
            };
            let mut build = DeviceBuild {
                status: BuildStatus::InProgress,
                options: options.to_string(),
                ..DeviceBuild::default()
            };
            self.lock().builds[i] = build.clone();
            let mut optimized = (*module).clone();
            let mut pm = ferrocl_ir::passes::PassManager::standard();
            let result = pm
                .run(&mut optimized)
                .map_err(|e| e.to_string())
                .and_then(|_| device.backend().compile(&optimized));
            match result {
                Ok(executable) => {
                    build.status = BuildStatus::Success;
                    build.binary_type = BinaryType::Executable;
                    build.executable = Some(executable);
                }
                Err(log) => {
                    build.status = BuildStatus::Error;
                    build.log = log;
                    failed = true;
                }
            }
            let mut state = self.lock();
            state.builds[i] = build;
            state.modules[i] = Some(module);
        }
        if failed {
            Err(ClError::BuildProgramFailure)
        } else {
            Ok(())
        }
    }
}

impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Program")
            .field("devices", &self.devices.len())
            .finish()
    }
}
