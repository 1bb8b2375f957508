//! ferrocl's NVIDIA GPU device: the IR of a program becomes PTX text ([`ptx`]), which the
//! CUDA driver compiles for the GPU when the program is built (`cuModuleLoadDataEx`); kernels
//! run on the device's primary context.
//!
//! **Finding GPUs.** [`devices`] opens the driver at run time ([`driver`]); without the
//! driver library or a GPU it finds none, which is not an error.
//!
//! **Memory.** A buffer's bytes live in host memory, and a kernel on the GPU uses a copy of
//! them in device memory (`cuMemAlloc`), which the runtime keeps coherent with the host's
//! by copying on demand through this device's [`DeviceMemory`]: uploads before a launch that
//! needs them, downloads when the host (or the CPU device) next needs them, reads, writes,
//! copies and fills done where the bytes are current (`ferrocl_core`'s `residency.rs`).
//! Memory the application lends (`CL_MEM_USE_HOST_PTR`) is such a host copy too. The
//! device's own managed memory (one address on both sides) holds only what the device
//! keeps for itself: the buffer of `printf`. An SVM pointer the application passes is
//! reached by the GPU only where the system lets it address pageable host memory
//! (`CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS`); elsewhere such a launch fails with an
//! error naming the argument, never with a wrong result.
//!
//! **Launches.** A kernel's parameters are one block ([`ptx::KernelLayout`]): a header with
//! the range's sizes and offsets, the argument block the runtime filled, the bytes of its
//! by-value structs. A range whose global size is not a multiple of the local size runs as
//! up to eight grids, each of equal work-groups (the whole groups, then the partial ones of
//! each dimension), so that every work-group has the block size its local size says; more
//! groups along y or z than a grid holds (65,535) run as several grids, each told its first
//! group id (a 4,096 x 65,536 range in rows of 256 work-items failed before). Each
//! launch waits for the GPU to finish, as `DeviceKernel::launch` requires.

mod driver;
pub mod ptx;

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use driver::{attr, func_attr, CuContext, CuDevice, CuFunction, CuModule, CuStream, Driver};
use ferrocl_device::{
    ArgKind, ArgSlot, CompileOptions, DeviceBackend, DeviceCopy, DeviceError, DeviceKernel,
    DeviceLimits, DeviceMemory, DeviceProgram, GpuDescription, Listing, NdRange, Storage,
};
use ferrocl_ir::Module;
use ptx::{header, KernelLayout, PtxTarget, HEADER, MAX_GROUP};

/// The GPU's streams: each thread that runs commands (the runtime's runner threads, and a host
/// thread that runs ready commands while it waits) issues its transfers and launches on one of
/// them and waits for that stream alone, so commands that run at once on different threads
/// (of an out-of-order queue, or of several queues) run at once on the GPU too. Threads take
/// the streams in turn, sharing them beyond `STREAMS` (work on one stream runs in order, which
/// costs only concurrency).
struct Streams(Vec<usize>);

const STREAMS: usize = 8;

impl Streams {
    /// The streams, made in the current context.
    fn new(driver: &Driver) -> Option<Streams> {
        (0..STREAMS)
            .map(|_| driver.stream().ok().map(|s| s as usize))
            .collect::<Option<Vec<_>>>()
            .map(Streams)
    }

    /// The calling thread's stream.
    fn current(&self) -> CuStream {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        thread_local! {
            static SLOT: usize = NEXT.fetch_add(1, Ordering::Relaxed);
        }
        let slot = SLOT.with(|s| *s);
        self.0[slot % self.0.len()] as CuStream
    }
}

/// Shared memory a block may use without asking for more (the driver's default limit).
const DEFAULT_SHARED: usize = 48 << 10;

/// One NVIDIA GPU.
pub struct CudaDevice {
    driver: &'static Driver,
    ctx: CuContext,
    description: GpuDescription,
    target: PtxTarget,
    /// Whether the GPU addresses pageable host memory directly.
    pageable_access: bool,
    /// Where the device's own managed memory comes from.
    memory: Arc<Managed>,
    streams: Arc<Streams>,
}

/// The GPU's managed memory: what is allocated and not yet freed, and the most that may be.
struct Managed {
    driver: &'static Driver,
    /// The primary context, as an address (a driver handle for the life of the process).
    ctx: usize,
    allocated: AtomicUsize,
    budget: usize,
}

impl Managed {
    /// `size` bytes of managed memory, zero-filled, freed when the storage is dropped.
    fn allocate(self: &Arc<Self>, size: usize) -> Result<Storage, DeviceError> {
        if self.allocated.fetch_add(size, Ordering::AcqRel) + size > self.budget {
            self.allocated.fetch_sub(size, Ordering::AcqRel);
            return Err(DeviceError::OutOfMemory);
        }
        let driver = self.driver;
        let p = driver
            .bind(self.ctx as CuContext)
            .and_then(|()| driver.alloc_managed(size))
            .map_err(|_| {
                self.allocated.fetch_sub(size, Ordering::AcqRel);
                DeviceError::OutOfMemory
            })?;
        let memory = self.clone();
        let release = Box::new(move || {
            if driver.bind(memory.ctx as CuContext).is_ok() {
                driver.free(p);
            }
            memory.allocated.fetch_sub(size, Ordering::AcqRel);
        });
        // SAFETY: managed memory is addressable from the host at its device address, for
        // `size` bytes, until `release` frees it.
        unsafe { Storage::from_device(p as *mut u8, size, release) }.ok_or(DeviceError::OutOfMemory)
    }
}

// SAFETY: the primary context is a process-wide driver object, usable from any thread once
// made current there (every call binds it first).
unsafe impl Send for CudaDevice {}
// SAFETY: as above.
unsafe impl Sync for CudaDevice {}

/// The GPUs of this machine, each as a device; empty without a driver or a GPU.
pub fn devices() -> Vec<CudaDevice> {
    let Some(driver) = Driver::get() else {
        return Vec::new();
    };
    driver
        .devices()
        .into_iter()
        .filter_map(|d| CudaDevice::open(driver, d))
        .collect()
}

impl CudaDevice {
    fn open(driver: &'static Driver, dev: CuDevice) -> Option<CudaDevice> {
        let a = |k| driver.attribute(dev, k);
        // Managed memory that both sides may touch at once is what the memory model here
        // needs (every GPU from Pascal on, under Linux).
        if a(attr::MANAGED_MEMORY) == 0 || a(attr::CONCURRENT_MANAGED_ACCESS) == 0 {
            return None;
        }
        let ctx = driver.primary_context(dev).ok()?;
        driver.bind(ctx).ok()?;
        let streams = Arc::new(Streams::new(driver)?);
        let (free, total) = driver.memory_info().ok()?;
        let sm =
            (a(attr::COMPUTE_CAPABILITY_MAJOR) * 10 + a(attr::COMPUTE_CAPABILITY_MINOR)) as u32;
        let version = driver.version();
        // Managed memory is granted up to nine tenths of what is free now: beyond the GPU's
        // memory it would be oversubscribed.
        let budget = free / 10 * 9;
        let description = GpuDescription {
            name: driver.device_name(dev),
            vendor: "NVIDIA Corporation".to_string(),
            vendor_id: 0x10de,
            driver_version: format!(
                "{} (CUDA {}.{})",
                env!("CARGO_PKG_VERSION"),
                version / 1000,
                version % 1000 / 10
            ),
            compute_units: a(attr::MULTIPROCESSOR_COUNT) as u32,
            max_clock_mhz: (a(attr::CLOCK_RATE) / 1000) as u32,
            global_mem_size: total as u64,
            max_mem_alloc_size: (budget as u64).max(128 << 20).min(total as u64),
            local_mem_size: a(attr::MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
                .max(a(attr::MAX_SHARED_MEMORY_PER_BLOCK)) as u64,
            max_constant_buffer_size: (a(attr::TOTAL_CONSTANT_MEMORY) as u64).max(64 << 10),
            cache_size: a(attr::L2_CACHE_SIZE) as u64,
            cache_line: 128,
            error_correction: a(attr::ECC_ENABLED) != 0,
            pageable_memory_access: a(attr::PAGEABLE_MEMORY_ACCESS) != 0,
            host_native_atomics: a(attr::HOST_NATIVE_ATOMIC_SUPPORTED) != 0,
        };
        Some(CudaDevice {
            driver,
            ctx,
            description,
            target: PtxTarget { sm },
            pageable_access: a(attr::PAGEABLE_MEMORY_ACCESS) != 0,
            memory: Arc::new(Managed {
                driver,
                ctx: ctx as usize,
                allocated: AtomicUsize::new(0),
                budget,
            }),
            streams,
        })
    }

    pub fn description(&self) -> &GpuDescription {
        &self.description
    }

    /// The device addresses of the module's constant variables, for `printf`.
    fn printf_strings(
        &self,
        module: CuModule,
        constants: &[(String, Vec<u8>)],
    ) -> Result<Strings, DeviceError> {
        let mut out = Vec::new();
        for (name, bytes) in constants {
            let at = self
                .driver
                .global(module, name)
                .map_err(|e| DeviceError::Compile(e.to_string()))?;
            out.push((at, bytes.clone()));
        }
        Ok(Strings(out))
    }

    fn bind(&self) -> Result<(), DeviceError> {
        self.driver
            .bind(self.ctx)
            .map_err(|e| DeviceError::KernelFault(e.to_string()))
    }
}

impl DeviceBackend for CudaDevice {
    fn allocate(&self, size: usize) -> Result<Storage, DeviceError> {
        self.memory.allocate(size)
    }

    /// A fault that CUDA keeps for the life of the context (an illegal address, say) leaves
    /// the GPU unusable: the primary context could only be reset by freeing every allocation
    /// in it, the application's shared virtual memory included, which its host code may
    /// still use.
    fn available(&self) -> bool {
        self.driver.lost(self.ctx).is_none()
    }

    fn fast_fma(&self) -> bool {
        true
    }

    /// `fma.rn.f32` has the latency and throughput of `add.rn.f32`.
    fn fma_chains(&self) -> bool {
        true
    }

    fn memory(&self) -> Option<&dyn DeviceMemory> {
        Some(self)
    }

    fn limits(&self) -> DeviceLimits {
        DeviceLimits {
            max_work_group_size: MAX_GROUP as usize,
            sub_group_size: ptx::SUB_GROUP,
            arg_align: 16,
        }
    }

    fn compile(
        &self,
        module: &Module,
        options: &CompileOptions,
    ) -> Result<Arc<dyn DeviceProgram>, DeviceError> {
        let module = ptx::prepare(module).map_err(DeviceError::Compile)?;
        let ptx = ptx::emit(&module, self.target).map_err(DeviceError::Compile)?;
        let mut listing = Listing::default();
        if options.record {
            listing.push("ir", &module.to_string());
            listing.push("ptx", &ptx.text);
        }
        self.bind()
            .map_err(|e| DeviceError::Compile(e.to_string()))?;
        let handle = self.driver.load_module(&ptx.text).map_err(|log| {
            DeviceError::Compile(format!("the CUDA driver refused the PTX: {log}"))
        })?;
        let module = Arc::new(ModuleHandle {
            driver: self.driver,
            ctx: self.ctx,
            module: handle,
        });
        let printf = match ptx.printf {
            true => Some(Arc::new(self.printf_strings(handle, &ptx.constants)?)),
            false => None,
        };
        let mut kernels = HashMap::new();
        for layout in ptx.kernels {
            let func = self
                .driver
                .function(handle, &layout.name)
                .map_err(|e| DeviceError::Compile(e.to_string()))?;
            // The kernel's own `__local` bytes: its `.shared` variables, or the module's
            // layout at the start of the dynamic shared memory.
            let shared = self
                .driver
                .function_attribute(func, func_attr::SHARED_SIZE_BYTES)
                as usize;
            // The runtime places the `__local` arguments from the static bytes on, aligned
            // to `arg_align` (16): the dynamic memory (16-aligned) starts at that boundary, so
            // that each argument keeps its alignment.
            let base = shared.next_multiple_of(16);
            let (static_local, local_base) = match ptx.dynamic_locals {
                Some(bytes) => (base + bytes as usize, base),
                None => (shared, base),
            };
            let private =
                self.driver
                    .function_attribute(func, func_attr::LOCAL_SIZE_BYTES) as usize;
            kernels.insert(
                layout.name.clone(),
                Arc::new(CudaKernel {
                    module: module.clone(),
                    func: func as usize,
                    layout,
                    static_local,
                    local_base,
                    private,
                    max_local: self.description.local_mem_size as usize,
                    pageable_access: self.pageable_access,
                    streams: self.streams.clone(),
                    dynamic_limit: Mutex::new(DEFAULT_SHARED.saturating_sub(local_base)),
                    printf: printf.clone().map(|strings| Printf {
                        strings,
                        buffer: Mutex::new(None),
                        in_use: Mutex::new(()),
                        memory: self.memory.clone(),
                    }),
                }),
            );
        }
        Ok(Arc::new(CudaProgram {
            kernels,
            listing: options.record.then_some(listing),
        }))
    }
}

impl CudaDevice {
    /// `f` with the device's context current; a failure as an out-of-resources fault.
    fn bound<T>(&self, f: impl FnOnce() -> Result<T, driver::CuError>) -> Result<T, DeviceError> {
        self.bind()?;
        f().map_err(|e| DeviceError::KernelFault(e.to_string()))
    }
}

impl DeviceMemory for CudaDevice {
    fn allocate(&self, size: usize) -> Result<DeviceCopy, DeviceError> {
        self.bind()?;
        let p = self
            .driver
            .alloc(size)
            .map_err(|_| DeviceError::OutOfMemory)?;
        let (driver, ctx) = (self.driver, self.ctx as usize);
        let release = Box::new(move || {
            if driver.bind(ctx as CuContext).is_ok() {
                driver.free(p);
            }
        });
        Ok(DeviceCopy::new(p, size, release))
    }

    fn allocate_pinned(&self, size: usize) -> Option<Storage> {
        self.bind().ok()?;
        let p = self.driver.alloc_host(size).ok()?;
        let (driver, addr) = (self.driver, p as usize);
        // SAFETY: `addr` came from alloc_host and this is its only release.
        let release = Box::new(move || unsafe { driver.free_host(addr as *mut u8) });
        // SAFETY: pinned host memory is the host's, readable and writable for `size` bytes
        // until `release` frees it.
        unsafe { Storage::from_device(p, size, release) }
    }

    unsafe fn upload(&self, dst: u64, src: *const u8, len: usize) -> Result<(), DeviceError> {
        // SAFETY: the caller's contract.
        let stream = self.streams.current();
        self.bound(|| unsafe { self.driver.upload(dst, src, len, stream) })
    }

    unsafe fn download(&self, dst: *mut u8, src: u64, len: usize) -> Result<(), DeviceError> {
        // SAFETY: the caller's contract.
        let stream = self.streams.current();
        self.bound(|| unsafe { self.driver.download(dst, src, len, stream) })
    }

    fn copy(&self, dst: u64, src: u64, len: usize) -> Result<(), DeviceError> {
        self.bound(|| self.driver.copy(dst, src, len, self.streams.current()))
    }

    /// `cuMemsetD8/16/32` where the pattern repeats a 1-, 2- or 4-byte value (any pattern
    /// of equal halves reduces to its half) at an address and length of that alignment.
    fn fill(&self, dst: u64, pattern: &[u8], len: usize) -> Result<bool, DeviceError> {
        let mut p = pattern;
        while p.len() > 4 && p[..p.len() / 2] == p[p.len() / 2..] {
            p = &p[..p.len() / 2];
        }
        let width = p.len();
        if !matches!(width, 1 | 2 | 4) || dst % width as u64 != 0 || len % width != 0 {
            return Ok(false);
        }
        let mut value = [0u8; 4];
        value[..width].copy_from_slice(p);
        let value = u32::from_le_bytes(value);
        let stream = self.streams.current();
        self.bound(|| self.driver.set(dst, width, value, len / width, stream))?;
        Ok(true)
    }
}

/// A loaded module, unloaded when the last kernel of it goes.
struct ModuleHandle {
    driver: &'static Driver,
    ctx: CuContext,
    module: CuModule,
}

// SAFETY: driver handles, usable from any thread with the context bound.
unsafe impl Send for ModuleHandle {}
// SAFETY: as above.
unsafe impl Sync for ModuleHandle {}

impl Drop for ModuleHandle {
    fn drop(&mut self) {
        if self.driver.bind(self.ctx).is_ok() {
            self.driver.unload_module(self.module);
        }
    }
}

struct CudaProgram {
    kernels: HashMap<String, Arc<CudaKernel>>,
    listing: Option<Listing>,
}

impl DeviceProgram for CudaProgram {
    fn kernel(&self, name: &str) -> Option<Arc<dyn DeviceKernel>> {
        self.kernels
            .get(name)
            .map(|k| k.clone() as Arc<dyn DeviceKernel>)
    }

    fn listing(&self) -> Option<&Listing> {
        self.listing.as_ref()
    }
}

struct CudaKernel {
    module: Arc<ModuleHandle>,
    /// The `CUfunction`, as an address (a driver handle, valid while `module` is loaded).
    func: usize,
    layout: KernelLayout,
    /// Bytes of the kernel's own `__local` variables.
    static_local: usize,
    /// Where the launch's dynamic shared memory starts in the work-group's local memory:
    /// after the `.shared` variables (the `__local` arguments' offsets count from there).
    local_base: usize,
    private: usize,
    max_local: usize,
    pageable_access: bool,
    streams: Arc<Streams>,
    /// The dynamic shared memory the function may use now (raised on demand).
    dynamic_limit: Mutex<usize>,
    /// What `printf` needs, when the program calls it.
    printf: Option<Printf>,
}

/// A kernel's `printf`: the program's constant strings where the GPU has them, and the
/// buffer its launches write their records to (allocated at the first launch).
struct Printf {
    strings: Arc<Strings>,
    buffer: Mutex<Option<Storage>>,
    /// Held by the launch that uses the buffer, from its emptying to its printing.
    in_use: Mutex<()>,
    memory: Arc<Managed>,
}

/// The program's `__constant` variables: each one's device address and its bytes.
struct Strings(Vec<(u64, Vec<u8>)>);

impl Strings {
    /// A host pointer to the NUL-terminated string at device address `at`, if a constant
    /// variable holds one there.
    fn at(&self, at: u64) -> Option<*const std::ffi::c_char> {
        let (base, bytes) = self
            .0
            .iter()
            .find(|(b, v)| (*b..*b + v.len() as u64).contains(&at))?;
        let start = (at - base) as usize;
        bytes[start..]
            .contains(&0)
            .then(|| bytes[start..].as_ptr().cast())
    }
}

/// Bytes of a launch's printf buffer (`CL_DEVICE_PRINTF_BUFFER_SIZE`).
const PRINTF_BUFFER: usize = 1 << 20;

impl CudaKernel {
    fn driver(&self) -> &'static Driver {
        self.module.driver
    }

    fn fault(e: impl std::fmt::Display) -> DeviceError {
        DeviceError::KernelFault(e.to_string())
    }

    /// Lets the function use `dynamic` bytes of dynamic shared memory.
    fn allow_dynamic(&self, dynamic: usize) -> Result<(), DeviceError> {
        let mut limit = self.dynamic_limit.lock().unwrap_or_else(|e| e.into_inner());
        if dynamic > *limit {
            self.driver()
                .set_function_attribute(
                    self.func as CuFunction,
                    func_attr::MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    dynamic as i32,
                )
                .map_err(Self::fault)?;
            *limit = dynamic;
        }
        Ok(())
    }

    /// The parameter block for `nd`: the header, the argument block, the by-value structs.
    fn params(
        &self,
        args: &[u8],
        private_args: &[u8],
        nd: &NdRange,
    ) -> Result<Vec<u8>, DeviceError> {
        let l = &self.layout;
        let mut p = vec![0u8; l.param_size];
        let mut put = |at: usize, v: u64| p[at..at + 8].copy_from_slice(&v.to_ne_bytes());
        for d in 0..3 {
            let groups = nd.global_size[d].div_ceil(nd.local_size[d]);
            put(header::GLOBAL_OFFSET + 8 * d, nd.global_offset[d]);
            put(header::GLOBAL_SIZE + 8 * d, nd.global_size[d]);
            put(header::ENQUEUED_LOCAL_SIZE + 8 * d, nd.local_size[d]);
            put(header::NUM_GROUPS + 8 * d, groups);
        }
        put(header::LOCAL_BASE, self.local_base as u64);
        p[header::WORK_DIM..header::WORK_DIM + 4].copy_from_slice(&nd.work_dim.to_ne_bytes());
        let n = args.len().min(l.args_size);
        p[HEADER..HEADER + n].copy_from_slice(&args[..n]);
        for (i, slot) in l.slots.iter().enumerate() {
            if slot.kind == ArgKind::Buffer {
                self.check_reachable(i, slot, args)?;
            }
        }
        for &(slot, at, size) in &l.aggregates {
            let s = l.slots[slot];
            let off =
                u64::from_ne_bytes(args[s.offset..s.offset + 8].try_into().unwrap_or_default())
                    as usize;
            let bytes = private_args
                .get(off..off + size)
                .ok_or_else(|| Self::fault("a by-value struct argument outside its block"))?;
            p[at..at + size].copy_from_slice(bytes);
        }
        Ok(p)
    }

    /// Fails the launch when buffer argument `i` lies in memory the GPU cannot address.
    fn check_reachable(&self, i: usize, slot: &ArgSlot, args: &[u8]) -> Result<(), DeviceError> {
        let addr = u64::from_ne_bytes(
            args[slot.offset..slot.offset + 8]
                .try_into()
                .unwrap_or_default(),
        );
        if addr == 0 || self.pageable_access || self.driver().is_device_memory(addr) {
            return Ok(());
        }
        Err(Self::fault(format!(
            "argument {i} of kernel {} is host memory this GPU cannot address (an SVM \
             pointer: this GPU does not share virtual memory with the host); use a buffer",
            self.layout.name
        )))
    }
}

impl CudaKernel {
    /// The printf buffer, emptied for a launch: its address, when the kernel prints.
    fn printf_buffer(&self) -> Result<Option<*mut u8>, DeviceError> {
        let Some(printf) = &self.printf else {
            return Ok(None);
        };
        let mut buffer = printf.buffer.lock().unwrap_or_else(|e| e.into_inner());
        if buffer.is_none() {
            *buffer = Some(printf.memory.allocate(PRINTF_BUFFER)?);
        }
        let storage = buffer.as_ref().ok_or(DeviceError::OutOfMemory)?;
        let words = storage.as_ptr().cast::<u64>();
        // SAFETY: the buffer holds PRINTF_BUFFER bytes, 8-aligned; no launch is running on it
        // (the caller holds `in_use`, and its launch has not started).
        unsafe {
            words.write(0);
            words.add(1).write((PRINTF_BUFFER - 16) as u64);
        }
        Ok(Some(storage.as_ptr()))
    }

    /// Formats the records a launch left in the printf buffer at `at` and writes them to
    /// standard output (6.15.14: the output is flushed when the command completes).
    fn print(&self, at: *mut u8) {
        let Some(printf) = &self.printf else { return };
        // SAFETY: the buffer holds PRINTF_BUFFER bytes, the launch has completed, and the
        // used count and each record's size were written by the kernel's `printf` calls.
        let text = unsafe {
            let used = (at.cast::<u64>().read() as usize).min(PRINTF_BUFFER - 16);
            let mut out = Vec::new();
            let mut k = 0;
            while k + 16 <= used {
                let record = at.add(16 + k);
                let fmt = record.cast::<u64>().read();
                let size = record.add(8).cast::<u64>().read() as usize;
                k += 16 + size.next_multiple_of(8);
                let Some(format) = printf.strings.at(fmt) else {
                    continue;
                };
                let format = std::ffi::CStr::from_ptr(format).to_bytes();
                let strings = |p: usize| printf.strings.at(p as u64);
                if let Some(t) = ferrocl_device::printf::format(format, record.add(16), &strings) {
                    out.extend_from_slice(&t);
                }
            }
            out
        };
        use std::io::Write;
        let mut stdout = std::io::stdout();
        let _ = stdout.write_all(&text);
        let _ = stdout.flush();
    }
}

impl DeviceKernel for CudaKernel {
    fn arg_slots(&self) -> &[ArgSlot] {
        &self.layout.slots
    }

    fn args_size(&self) -> usize {
        self.layout.args_size
    }

    fn static_local_size(&self) -> usize {
        self.static_local
    }

    fn private_size(&self) -> usize {
        self.private
    }

    fn preferred_group_size(&self) -> usize {
        256
    }

    unsafe fn launch(
        &self,
        args: &[u8],
        local_mem_size: usize,
        private_args: &[u8],
        nd: &NdRange,
        profile: bool,
    ) -> Result<Option<u64>, DeviceError> {
        let driver = self.driver();
        driver.bind(self.module.ctx).map_err(Self::fault)?;
        if local_mem_size > self.max_local {
            return Err(Self::fault(format!(
                "{local_mem_size} bytes of local memory, more than the {} a work-group has",
                self.max_local
            )));
        }
        let dynamic = local_mem_size.saturating_sub(self.local_base);
        self.allow_dynamic(dynamic)?;
        let mut params = self.params(args, private_args, nd)?;
        // One launch at a time uses the kernel's printf buffer.
        let _printing = self
            .printf
            .as_ref()
            .map(|p| p.in_use.lock().unwrap_or_else(|e| e.into_inner()));
        let printf_buffer = self.printf_buffer()?;
        if let Some(at) = printf_buffer {
            let p = header::PRINTF_BUFFER;
            params[p..p + 8].copy_from_slice(&(at as u64).to_ne_bytes());
        }
        // Each dimension: the whole work-groups, in runs of at most the blocks a CUDA grid
        // holds along it (2^31 - 1 along x, 65,535 along y and z), then the partial last one.
        let parts = |d: usize| {
            let (g, l) = (nd.global_size[d], nd.local_size[d]);
            let limit = if d == 0 { i32::MAX as u64 } else { 65535 };
            let whole = g / l;
            let mut v: Vec<(u64, u64, u64)> = (0..whole.div_ceil(limit))
                .map(|k| (k * limit, (whole - k * limit).min(limit), l))
                .collect();
            if g % l != 0 {
                v.push((whole, 1, g % l));
            }
            v
        };
        // With profiling, events around the grids time them on the GPU's clock.
        let events = match profile {
            true => Some((
                driver.event().map_err(Self::fault)?,
                driver.event().map_err(Self::fault)?,
            )),
            false => None,
        };
        let stream = self.streams.current();
        if let Some((start, _)) = &events {
            start.record(stream).map_err(Self::fault)?;
        }
        for &(bx, nx, lx) in &parts(0) {
            for &(by, ny, ly) in &parts(1) {
                for &(bz, nz, lz) in &parts(2) {
                    for (d, b) in [bx, by, bz].into_iter().enumerate() {
                        let at = header::GROUP_BASE + 8 * d;
                        params[at..at + 8].copy_from_slice(&b.to_ne_bytes());
                    }
                    let grid = [nx, ny, nz].map(|n| n as u32);
                    let block = [lx as u32, ly as u32, lz as u32];
                    // SAFETY: the parameter block has the size the kernel's PTX declares;
                    // the buffer addresses in it are managed or reachable host memory the
                    // runtime keeps alive for the launch (checked above).
                    unsafe {
                        driver.launch(
                            self.func as CuFunction,
                            grid,
                            block,
                            dynamic as u32,
                            params.as_mut_ptr(),
                            stream,
                        )
                    }
                    .map_err(Self::fault)?;
                }
            }
        }
        if let Some((_, end)) = &events {
            end.record(stream).map_err(Self::fault)?;
        }
        driver.sync(stream).map_err(Self::fault)?;
        if let Some(at) = printf_buffer {
            self.print(at);
        }
        match &events {
            Some((start, end)) => Ok(Some(end.since(start).map_err(Self::fault)?)),
            None => Ok(None),
        }
    }
}
