//! Programs (`cl_program`): source or binaries, and a build per device.
//!
//! Every stage of a program is IR: compiling OpenCL C source gives a compiled object (a
//! module), linking joins modules into a library or an executable, and a program binary is the
//! module serialized (DESIGN.md, decision 8). Building turns the IR, optimized by the standard
//! pass pipeline, into each device's executable, from which kernels are made.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use ferrocl_ir::serialize::BinaryKind;
use ferrocl_ir::Module;

use crate::context::Context;
use crate::device::{CompileOptions, Device, DeviceProgram, Listing};
use crate::error::{ClError, ClResult};
use crate::object::IcdHeader;

/// The line after which a build log holds the listing `-cl-ferrocl-listing=STAGE` asked for;
/// `STAGE` follows it on the same line. The log before it is the compiler's.
pub const LISTING_HEADER: &str = "ferrocl listing of stage ";

/// The text `-cl-ferrocl-listing=STAGE` adds to the end of a successful build's log: the
/// header line and the stage's text as the device recorded it, or a warning naming the
/// stages it has.
fn listing_log(stage: &str, listing: Option<&Listing>) -> String {
    match listing.and_then(|l| l.stage(stage).map(|text| (l, text))) {
        Some((_, text)) => format!("{LISTING_HEADER}{stage}\n{text}"),
        None => {
            let stages: Vec<&str> = listing.map(|l| l.stages().collect()).unwrap_or_default();
            format!(
                "warning: the device records no stage '{stage}' (its stages: {})\n",
                if stages.is_empty() {
                    "none".to_string()
                } else {
                    stages.join(", ")
                }
            )
        }
    }
}

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

impl BinaryType {
    /// The kind a program binary of this type records (API 5.8.9: a binary read back with
    /// clCreateProgramWithBinary keeps it).
    fn kind(self) -> BinaryKind {
        match self {
            BinaryType::CompiledObject => BinaryKind::CompiledObject,
            BinaryType::Library => BinaryKind::Library,
            BinaryType::None | BinaryType::Executable => BinaryKind::Executable,
        }
    }

    fn of_kind(kind: BinaryKind) -> BinaryType {
        match kind {
            BinaryKind::CompiledObject => BinaryType::CompiledObject,
            BinaryKind::Library => BinaryType::Library,
            BinaryKind::Executable => BinaryType::Executable,
        }
    }
}

/// One device's build of a program.
#[derive(Clone)]
pub struct DeviceBuild {
    pub status: BuildStatus,
    pub log: String,
    pub options: String,
    pub binary_type: BinaryType,
    pub executable: Option<Arc<dyn DeviceProgram>>,
    /// Launches need uniform work-groups (OpenCL C before 2.0, `-cl-uniform-work-group-size`).
    pub uniform_work_groups: bool,
    /// `CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE`: "the total amount of storage, in bytes,
    /// used by program variables in the global address space" of the executable.
    pub global_variable_total_size: usize,
}

impl Default for DeviceBuild {
    fn default() -> Self {
        DeviceBuild {
            status: BuildStatus::None,
            log: String::new(),
            options: String::new(),
            binary_type: BinaryType::None,
            executable: None,
            uniform_work_groups: false,
            global_variable_total_size: 0,
        }
    }
}

/// What a program was created from.
pub enum Origin {
    Source(String),
    /// IR, one module per device (from `clCreateProgramWithBinary`).
    Binary(Vec<Arc<Module>>),
    /// The result of `clLinkProgram`.
    Linked,
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
        let decoded: Vec<Result<(Module, BinaryKind), ClError>> = binaries
            .iter()
            .map(|b| {
                ferrocl_ir::serialize::deserialize_with_kind(b).map_err(|_| ClError::InvalidBinary)
            })
            .collect();
        if decoded.iter().any(|d| d.is_err()) {
            return Err(decoded
                .iter()
                .map(|d| d.as_ref().map(|_| ()).map_err(|e| *e))
                .collect());
        }
        let (modules, kinds): (Vec<Arc<Module>>, Vec<BinaryKind>) = decoded
            .into_iter()
            .filter_map(Result::ok)
            .map(|(m, k)| (Arc::new(m), k))
            .unzip();
        let program = Program::new(context, devices, Origin::Binary(modules.clone()));
        {
            let mut state = program.lock();
            for (i, (m, kind)) in modules.into_iter().zip(kinds).enumerate() {
                state.modules[i] = Some(m);
                state.builds[i].binary_type = BinaryType::of_kind(kind);
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
            Origin::Binary(_) | Origin::Linked => "",
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

    /// `CL_PROGRAM_BINARIES`: each device's IR, serialized with its binary type (empty where
    /// there is none).
    pub fn binaries(&self) -> Vec<Vec<u8>> {
        let state = self.lock();
        state
            .modules
            .iter()
            .zip(&state.builds)
            .map(|(m, b)| {
                m.as_ref()
                    .map(|m| ferrocl_ir::serialize::serialize_as(m, b.binary_type.kind()))
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

    fn targets(&self, devices: &[Arc<Device>]) -> ClResult<Vec<usize>> {
        if devices.is_empty() {
            return Ok((0..self.devices.len()).collect());
        }
        devices
            .iter()
            .map(|d| self.device_index(d).ok_or(ClError::InvalidDevice))
            .collect()
    }

    /// Marks the builds of `targets` as in progress, all at once under the lock. 5.8.6:
    /// CL_INVALID_OPERATION "if the build of a program executable for any of the devices listed
    /// in device_list by a previous call to clBuildProgram for program has not completed".
    fn claim(&self, targets: &[usize]) -> ClResult<()> {
        let mut state = self.lock();
        if targets
            .iter()
            .any(|&i| state.builds[i].status == BuildStatus::InProgress)
        {
            return Err(ClError::InvalidOperation);
        }
        for &i in targets {
            state.builds[i].status = BuildStatus::InProgress;
        }
        Ok(())
    }

    /// Ends the claim of [`Program::claim`]: a build left in progress by an early error
    /// returns to "none".
    fn release(&self, targets: &[usize]) {
        let mut state = self.lock();
        for &i in targets {
            if state.builds[i].status == BuildStatus::InProgress {
                state.builds[i].status = BuildStatus::None;
            }
        }
    }

    /// A device's module and whether its launches need uniform work-groups.
    fn module_and_uniformity(&self, i: usize) -> Option<(Arc<Module>, bool)> {
        let state = self.lock();
        Some((
            state.modules[i].clone()?,
            state.builds[i].uniform_work_groups,
        ))
    }

    /// Records a device's finished stage; a failure keeps the log.
    fn record(&self, i: usize, build: DeviceBuild, module: Option<Arc<Module>>) {
        let mut state = self.lock();
        state.builds[i] = build;
        if module.is_some() {
            state.modules[i] = module;
        }
    }

    /// The source to compile for device `i`, or why there is none to compile.
    fn source_for(&self, i: usize) -> ClResult<&str> {
        match &self.origin {
            // CL_COMPILER_NOT_AVAILABLE "if program is created with clCreateProgramWithSource
            // and a compiler is not available".
            Origin::Source(_) if !self.devices[i].info.compiler_available => {
                Err(ClError::CompilerNotAvailable)
            }
            Origin::Source(src) => Ok(src),
            // 5.8.7: CL_INVALID_OPERATION "if program has no source or IL available, i.e. it
            // has not been created with clCreateProgramWithSource or clCreateProgramWithIL".
            Origin::Binary(_) | Origin::Linked => Err(ClError::InvalidOperation),
        }
    }

    /// `clBuildProgram` for `devices` (all of the program's when empty). A failed build is
    /// recorded in the build log and answered with CL_BUILD_PROGRAM_FAILURE.
    pub fn build(&self, devices: &[Arc<Device>], options: &str) -> ClResult<()> {
        if self.has_kernels() {
            return Err(ClError::InvalidOperation);
        }
        let targets = self.targets(devices)?;
        self.claim(&targets)?;
        let result = self.build_claimed(&targets, options);
        self.release(&targets);
        result
    }

    fn build_claimed(&self, targets: &[usize], options: &str) -> ClResult<()> {
        // The options are read once, for every device.
        let parsed = ferrocl_clc::build::parse_options(options);
        let mut failed = false;
        for &i in targets {
            let mut build = DeviceBuild {
                status: BuildStatus::InProgress,
                options: options.to_string(),
                ..DeviceBuild::default()
            };
            let opts = match &parsed {
                Ok(o) => o,
                Err(e) => {
                    build.status = BuildStatus::Error;
                    build.log = e.log.clone();
                    self.record(i, build, None);
                    return Err(ClError::InvalidBuildOptions);
                }
            };
            // The compiled object (or the binary's module) and the executable IR made from it.
            let built = match &self.origin {
                Origin::Source(_) => {
                    let src = match self.source_for(i) {
                        Ok(src) => src,
                        Err(e) => {
                            build.status = BuildStatus::None;
                            self.record(i, build, None);
                            return Err(e);
                        }
                    };
                    match self.build_source(i, src, options, opts) {
                        Ok(b) => {
                            build.log = b.log;
                            build.uniform_work_groups = b.uniform_work_groups;
                            (Arc::new(b.object), b.executable, Some(b.executable_bytes))
                        }
                        Err(e) => {
                            build.status = BuildStatus::Error;
                            build.log = e.log;
                            self.record(i, build, None);
                            failed = true;
                            continue;
                        }
                    }
                }
                Origin::Binary(_) | Origin::Linked => match self.module_and_uniformity(i) {
                    Some((m, uniform)) => {
                        // 5.10: a program from a binary "must be compiled or built without the
                        // -cl-uniform-work-group-size build options" to allow non-uniform
                        // work-groups; a linked one keeps what its inputs allowed.
                        let linked = matches!(self.origin, Origin::Linked);
                        build.uniform_work_groups =
                            (linked && uniform) || opts.uniform_work_group_size;
                        match ferrocl_clc::build_ir(&m, opts, &ferrocl_builtins::library) {
                            Ok(ir) => (m, ir, None),
                            Err(e) => {
                                build.status = BuildStatus::Error;
                                build.log.push_str(&e.log);
                                self.record(i, build, Some(m));
                                failed = true;
                                continue;
                            }
                        }
                    }
                    // CL_INVALID_BINARY "if program is created with clCreateProgramWithBinary
                    // and devices listed in device_list do not have a valid program binary".
                    None => return Err(ClError::InvalidBinary),
                },
            };
            let (module, ir, ir_bytes) = built;
            let device_options = CompileOptions {
                record: opts.listing.is_some(),
                ..crate::compile::device_options(opts, build.uniform_work_groups)
            };
            match self.device_program(i, &ir, ir_bytes.as_deref(), &device_options) {
                Ok(exe) => {
                    if let Some(stage) = &opts.listing {
                        build.log.push_str(&listing_log(stage, exe.listing()));
                    }
                    build.status = BuildStatus::Success;
                    build.binary_type = BinaryType::Executable;
                    build.global_variable_total_size = global_variable_total_size(&ir);
                    build.executable = Some(exe);
                }
                Err(log) => {
                    build.status = BuildStatus::Error;
                    build.log.push_str(&log);
                    failed = true;
                }
            }
            self.record(i, build, Some(module));
        }
        if failed {
            Err(ClError::BuildProgramFailure)
        } else {
            Ok(())
        }
    }

    /// The build driver's result for `source` on device `i`: from the program cache when it
    /// holds this build ([`crate::cache`]), else compiled now, and then stored there.
    fn build_source(
        &self,
        i: usize,
        source: &str,
        options: &str,
        parsed: &ferrocl_clc::BuildOptions,
    ) -> Result<crate::cache::Entry, ferrocl_clc::BuildError> {
        let device = &self.devices[i];
        let target = crate::compile::target(device);
        let cache = crate::cache::Cache::from_env();
        let key = cache
            .as_ref()
            .map(|_| crate::cache::Key::new(source, options, &device.info.name, &target));
        if let (Some(cache), Some(key)) = (&cache, &key) {
            if let Some(entry) = cache.load(key) {
                return Ok(entry);
            }
        }
        let built = ferrocl_clc::build(source, parsed, &target, &[], &ferrocl_builtins::library)?;
        let entry = crate::cache::Entry {
            object: built.object.module,
            executable_bytes: ferrocl_ir::serialize::serialize(&built.executable),
            executable: built.executable,
            log: built.object.log,
            uniform_work_groups: built.object.uniform_work_groups,
        };
        if let (Some(cache), Some(key)) = (&cache, &key) {
            cache.store(key, &entry);
        }
        Ok(entry)
    }

    /// Device `i`'s executable from the executable IR the build driver made: the code the
    /// device compiled from the same module before, from the program cache, when the device
    /// keeps its code and loads that entry ([`crate::cache`]), else compiled now and then
    /// stored there. A build that records its stages' text always compiles. `ir_bytes` is
    /// `ir` serialized, where the caller has it (the program cache's entry holds it).
    fn device_program(
        &self,
        i: usize,
        ir: &Module,
        ir_bytes: Option<&[u8]>,
        options: &CompileOptions,
    ) -> Result<Arc<dyn DeviceProgram>, String> {
        check_global_variables(ir, &self.devices[i])?;
        let device = &self.devices[i];
        let backend = device.backend();
        let cached = match (options.record, crate::cache::Cache::from_env()) {
            (false, Some(cache)) => backend.code_key().map(|code_key| {
                let serialized;
                let module = match ir_bytes {
                    Some(bytes) => bytes,
                    None => {
                        serialized = ferrocl_ir::serialize::serialize(ir);
                        &serialized
                    }
                };
                let key = crate::cache::Key::code(&device.info.name, &code_key, options, module);
                (cache, key)
            }),
            _ => None,
        };
        if let Some((cache, key)) = &cached {
            let loaded = cache.load_code(key, |bytes| backend.load(ir, options, bytes).ok());
            if let Some(program) = loaded {
                return Ok(program);
            }
        }
        // A panic in the device's compiler is a bug of ferrocl's, not of the program: the
        // build fails with it in the log (CL_BUILD_PROGRAM_FAILURE), and the program's
        // devices are released as after any failed build.
        let compiled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            backend.compile(ir, options)
        }))
        .unwrap_or_else(|panic| {
            let message = crate::error::panic_message(&*panic);
            Err(ferrocl_device::DeviceError::Compile(format!(
                "internal compiler error: {message}"
            )))
        });
        let program = compiled.map_err(|e| format!("error: {e}\n"))?;
        if let (Some((cache, key)), Some(bytes)) = (&cached, program.serialize()) {
            cache.store_code(key, &bytes);
        }
        Ok(program)
    }

    /// `clCompileProgram`: compiles the source into a compiled object per device, with the
    /// embedded headers (name, source) the application passed.
    pub fn compile(
        &self,
        devices: &[Arc<Device>],
        options: &str,
        headers: &[(String, String)],
    ) -> ClResult<()> {
        if self.has_kernels() {
            return Err(ClError::InvalidOperation);
        }
        let targets = self.targets(devices)?;
        self.claim(&targets)?;
        let result = self.compile_claimed(&targets, options, headers);
        self.release(&targets);
        result
    }

    fn compile_claimed(
        &self,
        targets: &[usize],
        options: &str,
        headers: &[(String, String)],
    ) -> ClResult<()> {
        // The options are read once, for every device.
        let parsed = ferrocl_clc::build::parse_options(options);
        let mut failed = false;
        for &i in targets {
            let mut build = DeviceBuild {
                options: options.to_string(),
                ..DeviceBuild::default()
            };
            let result = self
                .source_for(i)
                .map_err(|e| (e, String::new()))
                .and_then(|src| {
                    let opts = parsed.as_ref().map_err(|e| {
                        // 5.8.7: CL_INVALID_COMPILER_OPTIONS "if the compiler options specified by
                        // options are invalid".
                        (ClError::InvalidCompilerOptions, e.log.clone())
                    })?;
                    let target = crate::compile::target(&self.devices[i]);
                    ferrocl_clc::compile_object(src, opts, &target, headers).map_err(|e| {
                        // CL_COMPILE_PROGRAM_FAILURE "if there is a failure to compile the program
                        // source".
                        crate::compile::api_error(
                            e,
                            ClError::InvalidCompilerOptions,
                            ClError::CompileProgramFailure,
                        )
                    })
                });
            match result {
                Ok(object) => {
                    build.status = BuildStatus::Success;
                    build.binary_type = BinaryType::CompiledObject;
                    build.log = object.log;
                    build.uniform_work_groups = object.uniform_work_groups;
                    self.record(i, build, Some(Arc::new(object.module)));
                }
                Err((e, log)) => {
                    build.status = BuildStatus::Error;
                    build.log = log;
                    self.record(i, build, None);
                    match e {
                        ClError::CompileProgramFailure => failed = true,
                        other => return Err(other),
                    }
                }
            }
        }
        if failed {
            Err(ClError::CompileProgramFailure)
        } else {
            Ok(())
        }
    }

    /// The compiled object or library of one device, for linking.
    fn linkable(&self, device: &Arc<Device>) -> ClResult<(Arc<Module>, bool)> {
        let i = self.device_index(device).ok_or(ClError::InvalidDevice)?;
        let state = self.lock();
        let build = &state.builds[i];
        // 5.8.8: CL_INVALID_OPERATION "if the compilation or build of a program executable for
        // any of the devices listed in device_list by a previous call to clCompileProgram or
        // clBuildProgram for program has not completed", and for inputs that are not compiled
        // objects or libraries. A program binary of either is ready as it is.
        let from_binary =
            matches!(self.origin, Origin::Binary(_)) && build.status != BuildStatus::InProgress;
        if (build.status != BuildStatus::Success && !from_binary)
            || !matches!(
                build.binary_type,
                BinaryType::CompiledObject | BinaryType::Library | BinaryType::Executable
            )
        {
            return Err(ClError::InvalidOperation);
        }
        let module = state.modules[i].clone().ok_or(ClError::InvalidOperation)?;
        Ok((module, build.uniform_work_groups))
    }

    /// `clLinkProgram`: links compiled objects and libraries into a library (with
    /// `-create-library`) or an executable, for each device. Once the link can begin, the
    /// program is made whatever its outcome (5.8.8: "If the linking operation can begin,
    /// clLinkProgram returns a valid non-zero program object"); the second result is the
    /// link's own: CL_LINK_PROGRAM_FAILURE with the reason in the device's build log.
    pub fn link(
        context: Arc<Context>,
        devices: Vec<Arc<Device>>,
        options: &str,
        inputs: &[Arc<Program>],
    ) -> ClResult<(Arc<Program>, ClResult<()>)> {
        // 5.8.8: CL_INVALID_LINKER_OPTIONS "if the linker options specified by options are
        // invalid"; read once, for every device.
        let opts =
            ferrocl_clc::build::parse_link(options).map_err(|_| ClError::InvalidLinkerOptions)?;
        let mut per_device = Vec::with_capacity(devices.len());
        for device in &devices {
            let mut modules = Vec::with_capacity(inputs.len());
            let mut uniform = false;
            for input in inputs {
                let (module, u) = input.linkable(device)?;
                uniform |= u;
                modules.push(module);
            }
            per_device.push((modules, uniform));
        }
        let program = Program::new(context, devices, Origin::Linked);
        let mut outcome = Ok(());
        for (i, (modules, uniform)) in per_device.into_iter().enumerate() {
            let mut build = DeviceBuild {
                status: BuildStatus::Error,
                options: options.to_string(),
                uniform_work_groups: uniform,
                ..DeviceBuild::default()
            };
            let modules: Vec<&Module> = modules.iter().map(|m| &**m).collect();
            let linked = ferrocl_clc::link(&modules, &opts, &ferrocl_builtins::library);
            // CL_LINK_PROGRAM_FAILURE "if there is a failure to link the compiled binaries
            // and/or libraries".
            let linked = match linked {
                Ok(l) => l,
                Err(e) => {
                    build.log = e.log;
                    program.record(i, build, None);
                    outcome = Err(ClError::LinkProgramFailure);
                    continue;
                }
            };
            match &linked.executable {
                None => build.binary_type = BinaryType::Library,
                Some(ir) => match program.device_program(
                    i,
                    ir,
                    None,
                    // Of the link options (5.8.7), only the math ones reach a device's compile
                    // at all, and they act in the compiler, before the link.
                    &CompileOptions {
                        uniform_work_groups: uniform,
                        ..CompileOptions::default()
                    },
                ) {
                    Ok(exe) => {
                        build.binary_type = BinaryType::Executable;
                        build.global_variable_total_size = global_variable_total_size(ir);
                        build.executable = Some(exe);
                    }
                    Err(log) => {
                        build.log = log;
                        program.record(i, build, None);
                        outcome = Err(ClError::LinkProgramFailure);
                        continue;
                    }
                },
            }
            build.status = BuildStatus::Success;
            program.record(i, build, Some(Arc::new(linked.module)));
        }
        Ok((program, outcome))
    }

    /// Whether launches on `device` need uniform work-groups.
    pub fn uniform_work_groups(&self, device: &Arc<Device>) -> bool {
        self.device_index(device)
            .is_some_and(|i| self.lock().builds[i].uniform_work_groups)
    }
}

/// The bytes of the executable's variables in the global address space (program-scope
/// `__global` variables and `static` locals in `__global`), as the device allocates them.
fn global_variable_total_size(ir: &Module) -> usize {
    ir.globals
        .iter()
        .filter(|(_, g)| g.space == ferrocl_ir::AddrSpace::Global && !g.external)
        .map(|(_, g)| g.size as usize)
        .sum()
}

/// Refuses an executable with a `__global` variable larger than the device allows. API 4.2,
/// Table 5: CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE is "the maximum number of bytes of storage
/// that may be allocated for any single variable in program scope or inside a function in an
/// OpenCL kernel language declared in the global address space".
fn check_global_variables(ir: &Module, device: &Device) -> Result<(), String> {
    let max = device.info.max_global_variable_size;
    for (_, g) in ir.globals.iter() {
        if g.space == ferrocl_ir::AddrSpace::Global && g.size as usize > max {
            return Err(format!(
                "error: the __global variable '{}' needs {} bytes, more than the device's \
                 CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE ({max})\n",
                g.name, g.size
            ));
        }
    }
    Ok(())
}

impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Program")
            .field("devices", &self.devices.len())
            .finish()
    }
}
