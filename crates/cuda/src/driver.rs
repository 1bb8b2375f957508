//! The CUDA driver API, opened at run time: `libcuda.so.1` is loaded with `dlopen` and the
//! few entry points the device uses are looked up by name. No driver (or no GPU) is not an
//! error: [`Driver::get`] answers `None` and the platform has no CUDA device.
//!
//! Every call returns a `CUresult`; [`Driver::check`] turns a failure into the driver's own
//! message (`cuGetErrorString`).

use std::ffi::{c_char, c_int, c_uint, c_void, CStr, CString};
use std::sync::OnceLock;

pub type CuResult = c_int;
pub type CuDevice = c_int;
pub type CuContext = *mut c_void;
pub type CuModule = *mut c_void;
pub type CuFunction = *mut c_void;
pub type CuStream = *mut c_void;
pub type CuEvent = *mut c_void;
pub type CuDevicePtr = u64;

/// `CUdevice_attribute` values the device reads (the driver API's `cuda.h`).
pub mod attr {
    pub const MAX_SHARED_MEMORY_PER_BLOCK: i32 = 8;
    pub const TOTAL_CONSTANT_MEMORY: i32 = 9;
    pub const CLOCK_RATE: i32 = 13;
    pub const MULTIPROCESSOR_COUNT: i32 = 16;
    pub const ECC_ENABLED: i32 = 32;
    pub const L2_CACHE_SIZE: i32 = 38;
    pub const COMPUTE_CAPABILITY_MAJOR: i32 = 75;
    pub const COMPUTE_CAPABILITY_MINOR: i32 = 76;
    pub const MANAGED_MEMORY: i32 = 83;
    pub const HOST_NATIVE_ATOMIC_SUPPORTED: i32 = 86;
    pub const PAGEABLE_MEMORY_ACCESS: i32 = 88;
    pub const CONCURRENT_MANAGED_ACCESS: i32 = 89;
    pub const MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: i32 = 97;
}

/// `CUfunction_attribute` values.
pub mod func_attr {
    pub const SHARED_SIZE_BYTES: i32 = 1;
    pub const LOCAL_SIZE_BYTES: i32 = 3;
    pub const MAX_DYNAMIC_SHARED_SIZE_BYTES: i32 = 8;
}

/// `CUjit_option` values for `cuModuleLoadDataEx`.
mod jit {
    pub const INFO_LOG_BUFFER: i32 = 3;
    pub const INFO_LOG_BUFFER_SIZE_BYTES: i32 = 4;
    pub const ERROR_LOG_BUFFER: i32 = 5;
    pub const ERROR_LOG_BUFFER_SIZE_BYTES: i32 = 6;
}

/// `CU_MEM_ATTACH_GLOBAL`: managed memory any stream may touch.
const MEM_ATTACH_GLOBAL: c_uint = 1;
/// `CU_MEMHOSTALLOC_PORTABLE`: the pinned memory counts as such in every CUDA context, so a
/// second GPU's transfers are as fast as the first's.
const MEMHOSTALLOC_PORTABLE: c_uint = 1;
/// `CU_STREAM_NON_BLOCKING`.
const STREAM_NON_BLOCKING: c_uint = 1;
/// `CU_POINTER_ATTRIBUTE_IS_MANAGED`.
const POINTER_IS_MANAGED: c_int = 8;
/// `CU_POINTER_ATTRIBUTE_MEMORY_TYPE`, and its value `CU_MEMORYTYPE_DEVICE`.
const POINTER_MEMORY_TYPE: c_int = 2;
const MEMORY_TYPE_DEVICE: c_uint = 2;

macro_rules! driver_api {
    ($($name:ident : fn($($arg:ty),*);)*) => {
        /// The driver's entry points, looked up once.
        #[allow(non_snake_case)]
        pub struct Driver {
            $($name: unsafe extern "C" fn($($arg),*) -> CuResult,)*
        }

        impl Driver {
            /// Looks up every entry point in the library `lib`; `None` if one is missing.
            ///
            /// # Safety
            /// `lib` is a handle `dlopen` returned for the CUDA driver library.
            unsafe fn resolve(lib: *mut c_void) -> Option<Driver> {
                Some(Driver {
                    $($name: {
                        let name = concat!(stringify!($name), "\0");
                        // SAFETY: the caller's contract; the name is NUL-terminated.
                        let sym = unsafe { libc::dlsym(lib, name.as_ptr().cast()) };
                        if sym.is_null() {
                            return None;
                        }
                        // SAFETY: the driver API declares this entry point with this
                        // signature (cuda.h), under this versioned name.
                        unsafe { std::mem::transmute::<*mut c_void, unsafe extern "C" fn($($arg),*) -> CuResult>(sym) }
                    },)*
                })
            }
        }
    };
}

driver_api! {
    cuInit: fn(c_uint);
    cuDriverGetVersion: fn(*mut c_int);
    cuGetErrorString: fn(CuResult, *mut *const c_char);
    cuDeviceGetCount: fn(*mut c_int);
    cuDeviceGet: fn(*mut CuDevice, c_int);
    cuDeviceGetName: fn(*mut c_char, c_int, CuDevice);
    cuDeviceGetAttribute: fn(*mut c_int, c_int, CuDevice);
    cuDevicePrimaryCtxRetain: fn(*mut CuContext, CuDevice);
    cuCtxSetCurrent: fn(CuContext);
    cuCtxGetCurrent: fn(*mut CuContext);
    cuCtxSynchronize: fn();
    cuMemGetInfo_v2: fn(*mut usize, *mut usize);
    cuMemAllocManaged: fn(*mut CuDevicePtr, usize, c_uint);
    cuMemFree_v2: fn(CuDevicePtr);
    cuMemsetD8_v2: fn(CuDevicePtr, u8, usize);
    cuMemsetD8Async: fn(CuDevicePtr, u8, usize, CuStream);
    cuMemsetD16Async: fn(CuDevicePtr, u16, usize, CuStream);
    cuMemsetD32Async: fn(CuDevicePtr, u32, usize, CuStream);
    cuMemAlloc_v2: fn(*mut CuDevicePtr, usize);
    cuMemHostAlloc: fn(*mut *mut c_void, usize, c_uint);
    cuMemFreeHost: fn(*mut c_void);
    cuMemcpyHtoDAsync_v2: fn(CuDevicePtr, *const c_void, usize, CuStream);
    cuMemcpyDtoHAsync_v2: fn(*mut c_void, CuDevicePtr, usize, CuStream);
    cuMemcpyDtoDAsync_v2: fn(CuDevicePtr, CuDevicePtr, usize, CuStream);
    cuStreamCreate: fn(*mut CuStream, c_uint);
    cuStreamSynchronize: fn(CuStream);
    cuPointerGetAttribute: fn(*mut c_void, c_int, CuDevicePtr);
    cuModuleLoadDataEx: fn(*mut CuModule, *const c_void, c_uint, *mut c_int, *mut *mut c_void);
    cuModuleUnload: fn(CuModule);
    cuModuleGetFunction: fn(*mut CuFunction, CuModule, *const c_char);
    cuModuleGetGlobal_v2: fn(*mut CuDevicePtr, *mut usize, CuModule, *const c_char);
    cuFuncGetAttribute: fn(*mut c_int, c_int, CuFunction);
    cuFuncSetAttribute: fn(CuFunction, c_int, c_int);
    cuLaunchKernel: fn(CuFunction, c_uint, c_uint, c_uint, c_uint, c_uint, c_uint, c_uint, CuStream, *mut *mut c_void, *mut *mut c_void);
    cuEventCreate: fn(*mut CuEvent, c_uint);
    cuEventRecord: fn(CuEvent, CuStream);
    cuEventElapsedTime: fn(*mut f32, CuEvent, CuEvent);
    cuEventDestroy_v2: fn(CuEvent);
}

// SAFETY: the driver API is thread-safe; the table holds plain function pointers.
unsafe impl Send for Driver {}
// SAFETY: as above.
unsafe impl Sync for Driver {}

/// The driver's errors after which its context is unusable for the life of the process (the
/// CUDA driver API documents each as leaving the process in an inconsistent state, every later
/// call returning the same error until the process ends): an illegal address (700), a launch
/// timeout (702), a device-side assertion (710), a hardware stack error (714), an illegal
/// instruction (715), a misaligned address (716), an invalid address space (717), an invalid
/// program counter (718), a failed launch (719) and an uncorrectable ECC error (214).
const STICKY: [CuResult; 10] = [700, 702, 710, 714, 715, 716, 717, 718, 719, 214];

/// The contexts such an error made unusable, with the error.
static LOST: std::sync::Mutex<Vec<(usize, CuError)>> = std::sync::Mutex::new(Vec::new());

/// Whether [`LOST`] holds any context: every driver call binds its context first, and reads
/// only this until a fault has happened.
static ANY_LOST: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// A failed driver call: the call's name and the driver's message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CuError {
    pub code: CuResult,
    pub message: String,
}

impl std::fmt::Display for CuError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (CUDA error {})", self.message, self.code)
    }
}

impl Driver {
    /// The driver, loaded and initialized on first use; `None` when the library is absent,
    /// lacks an entry point this device needs, or `cuInit` fails (no GPU, say). Setting
    /// `FERROCL_CUDA=0` hides the driver.
    pub fn get() -> Option<&'static Driver> {
        static DRIVER: OnceLock<Option<Driver>> = OnceLock::new();
        DRIVER
            .get_or_init(|| {
                if std::env::var("FERROCL_CUDA").is_ok_and(|v| v == "0") {
                    return None;
                }
                // SAFETY: a plain dlopen of the driver library by its soname; the handle is
                // kept for the life of the process.
                let lib = unsafe { libc::dlopen(c"libcuda.so.1".as_ptr(), libc::RTLD_NOW) };
                if lib.is_null() {
                    return None;
                }
                // SAFETY: `lib` is the driver library.
                let driver = unsafe { Driver::resolve(lib) }?;
                // SAFETY: cuInit takes flags, which must be 0.
                (unsafe { (driver.cuInit)(0) } == 0).then_some(driver)
            })
            .as_ref()
    }

    /// `Ok` for `CUDA_SUCCESS`, else the driver's message for `code` after `what`.
    pub fn check(&self, code: CuResult, what: &str) -> Result<(), CuError> {
        if code == 0 {
            return Ok(());
        }
        let mut text: *const c_char = std::ptr::null();
        // SAFETY: the out-pointer is valid; the driver returns a static string or NULL.
        unsafe { (self.cuGetErrorString)(code, &mut text) };
        let detail = if text.is_null() {
            "unknown error".to_string()
        } else {
            // SAFETY: a NUL-terminated static string from the driver.
            unsafe { CStr::from_ptr(text) }
                .to_string_lossy()
                .into_owned()
        };
        let error = CuError {
            code,
            message: format!("{what}: {detail}"),
        };
        if STICKY.contains(&code) {
            let mut ctx = std::ptr::null_mut();
            // SAFETY: a valid out-pointer.
            if unsafe { (self.cuCtxGetCurrent)(&mut ctx) } == 0 && !ctx.is_null() {
                let mut lost = LOST.lock().unwrap_or_else(|e| e.into_inner());
                if !lost.iter().any(|(c, _)| *c == ctx as usize) {
                    lost.push((ctx as usize, error.clone()));
                }
                ANY_LOST.store(true, std::sync::atomic::Ordering::Release);
            }
        }
        Err(error)
    }

    /// The error that made `ctx` unusable, if one did.
    pub fn lost(&self, ctx: CuContext) -> Option<CuError> {
        if !ANY_LOST.load(std::sync::atomic::Ordering::Acquire) {
            return None;
        }
        let lost = LOST.lock().unwrap_or_else(|e| e.into_inner());
        lost.iter()
            .find(|(c, _)| *c == ctx as usize)
            .map(|(_, e)| e.clone())
    }

    /// The driver's CUDA version, as `major * 1000 + minor * 10`.
    pub fn version(&self) -> i32 {
        let mut v = 0;
        // SAFETY: a valid out-pointer.
        unsafe { (self.cuDriverGetVersion)(&mut v) };
        v
    }

    /// The GPUs the driver sees, in its order.
    pub fn devices(&self) -> Vec<CuDevice> {
        let mut n = 0;
        // SAFETY: a valid out-pointer.
        if unsafe { (self.cuDeviceGetCount)(&mut n) } != 0 {
            return Vec::new();
        }
        (0..n)
            .filter_map(|i| {
                let mut d = 0;
                // SAFETY: a valid out-pointer and an ordinal below the count.
                (unsafe { (self.cuDeviceGet)(&mut d, i) } == 0).then_some(d)
            })
            .collect()
    }

    pub fn device_name(&self, dev: CuDevice) -> String {
        let mut buf = [0 as c_char; 256];
        // SAFETY: the buffer holds 256 characters, the length passed.
        unsafe { (self.cuDeviceGetName)(buf.as_mut_ptr(), 256, dev) };
        // SAFETY: the driver wrote a NUL-terminated name within the buffer (zeroed first).
        unsafe { CStr::from_ptr(buf.as_ptr()) }
            .to_string_lossy()
            .into_owned()
    }

    /// A device attribute, or 0 when the driver does not know it.
    pub fn attribute(&self, dev: CuDevice, attribute: i32) -> i32 {
        let mut v = 0;
        // SAFETY: a valid out-pointer.
        match unsafe { (self.cuDeviceGetAttribute)(&mut v, attribute, dev) } {
            0 => v,
            _ => 0,
        }
    }

    /// The device's primary context, retained (and kept for the life of the process).
    pub fn primary_context(&self, dev: CuDevice) -> Result<CuContext, CuError> {
        let mut ctx = std::ptr::null_mut();
        // SAFETY: a valid out-pointer.
        let r = unsafe { (self.cuDevicePrimaryCtxRetain)(&mut ctx, dev) };
        self.check(r, "cuDevicePrimaryCtxRetain")?;
        Ok(ctx)
    }

    /// Makes `ctx` current on the calling thread; an error, without a driver call, once an
    /// error the driver keeps has made the context unusable.
    pub fn bind(&self, ctx: CuContext) -> Result<(), CuError> {
        if let Some(e) = self.lost(ctx) {
            return Err(CuError {
                code: e.code,
                message: format!(
                    "the GPU can run nothing more in this process: an earlier command failed \
                     with an error CUDA keeps for the life of the context ({e})"
                ),
            });
        }
        // SAFETY: `ctx` is a retained primary context.
        let r = unsafe { (self.cuCtxSetCurrent)(ctx) };
        self.check(r, "cuCtxSetCurrent")
    }

    pub fn synchronize(&self) -> Result<(), CuError> {
        // SAFETY: no arguments; acts on the current context.
        let r = unsafe { (self.cuCtxSynchronize)() };
        self.check(r, "cuCtxSynchronize")
    }

    /// Free and total device memory of the current context's device.
    pub fn memory_info(&self) -> Result<(usize, usize), CuError> {
        let (mut free, mut total) = (0usize, 0usize);
        // SAFETY: valid out-pointers.
        let r = unsafe { (self.cuMemGetInfo_v2)(&mut free, &mut total) };
        self.check(r, "cuMemGetInfo")?;
        Ok((free, total))
    }

    /// `len` bytes of managed memory, zero-filled on the device, in the current context.
    pub fn alloc_managed(&self, len: usize) -> Result<CuDevicePtr, CuError> {
        let mut p = 0;
        // SAFETY: a valid out-pointer; a non-zero size.
        let r = unsafe { (self.cuMemAllocManaged)(&mut p, len.max(1), MEM_ATTACH_GLOBAL) };
        self.check(r, "cuMemAllocManaged")?;
        // SAFETY: `p` was just allocated with at least `len` bytes.
        let r = unsafe { (self.cuMemsetD8_v2)(p, 0, len) };
        if let Err(e) = self.check(r, "cuMemsetD8").and_then(|_| self.synchronize()) {
            self.free(p);
            return Err(e);
        }
        Ok(p)
    }

    /// `len` bytes of device memory, their contents undefined, in the current context.
    pub fn alloc(&self, len: usize) -> Result<CuDevicePtr, CuError> {
        let mut p = 0;
        // SAFETY: a valid out-pointer; a non-zero size.
        let r = unsafe { (self.cuMemAlloc_v2)(&mut p, len.max(1)) };
        self.check(r, "cuMemAlloc")?;
        Ok(p)
    }

    /// `len` bytes of page-locked host memory, zero-filled: the GPUs copy to and from it at the
    /// link's speed, without staging through a pinned buffer of the driver's.
    pub fn alloc_host(&self, len: usize) -> Result<*mut u8, CuError> {
        let mut p = std::ptr::null_mut();
        // SAFETY: a valid out-pointer; a non-zero size.
        let r = unsafe { (self.cuMemHostAlloc)(&mut p, len.max(1), MEMHOSTALLOC_PORTABLE) };
        self.check(r, "cuMemHostAlloc")?;
        // SAFETY: the driver just allocated `len` bytes (at least) at `p`.
        unsafe { std::ptr::write_bytes(p.cast::<u8>(), 0, len) };
        Ok(p.cast())
    }

    /// Frees what [`Driver::alloc_host`] gave.
    ///
    /// # Safety
    /// `p` came from `alloc_host` and is freed once, after its last use.
    pub unsafe fn free_host(&self, p: *mut u8) {
        // SAFETY: the caller's contract.
        unsafe { (self.cuMemFreeHost)(p.cast()) };
    }

    /// A stream of the current context that does not wait for the default stream's work.
    pub fn stream(&self) -> Result<CuStream, CuError> {
        let mut stream = std::ptr::null_mut();
        // SAFETY: a valid out-pointer.
        let r = unsafe { (self.cuStreamCreate)(&mut stream, STREAM_NON_BLOCKING) };
        self.check(r, "cuStreamCreate")?;
        Ok(stream)
    }

    /// Waits until the work launched on `stream` is done.
    pub fn sync(&self, stream: CuStream) -> Result<(), CuError> {
        // SAFETY: a live stream of the current context.
        let r = unsafe { (self.cuStreamSynchronize)(stream) };
        self.check(r, "cuStreamSynchronize")
    }

    /// Copies `len` bytes from the host to the device on `stream`, complete when it returns.
    ///
    /// # Safety
    /// `src` is readable for `len` bytes; `dst..dst + len` is device memory of the current
    /// context, and `stream` one of its streams.
    pub unsafe fn upload(
        &self,
        dst: CuDevicePtr,
        src: *const u8,
        len: usize,
        stream: CuStream,
    ) -> Result<(), CuError> {
        // SAFETY: the caller's contract.
        let r = unsafe { (self.cuMemcpyHtoDAsync_v2)(dst, src.cast(), len, stream) };
        self.check(r, "cuMemcpyHtoDAsync")?;
        self.sync(stream)
    }

    /// Copies `len` bytes from the device to the host on `stream`, complete when it returns.
    ///
    /// # Safety
    /// `dst` is writable for `len` bytes; `src..src + len` is device memory of the current
    /// context, and `stream` one of its streams.
    pub unsafe fn download(
        &self,
        dst: *mut u8,
        src: CuDevicePtr,
        len: usize,
        stream: CuStream,
    ) -> Result<(), CuError> {
        // SAFETY: the caller's contract.
        let r = unsafe { (self.cuMemcpyDtoHAsync_v2)(dst.cast(), src, len, stream) };
        self.check(r, "cuMemcpyDtoHAsync")?;
        self.sync(stream)
    }

    /// Copies `len` bytes between device addresses of the current context (ranges that do
    /// not overlap) on `stream`, complete when it returns.
    pub fn copy(
        &self,
        dst: CuDevicePtr,
        src: CuDevicePtr,
        len: usize,
        stream: CuStream,
    ) -> Result<(), CuError> {
        // SAFETY: device addresses only, which the driver checks; a stream of the context.
        let r = unsafe { (self.cuMemcpyDtoDAsync_v2)(dst, src, len, stream) };
        self.check(r, "cuMemcpyDtoDAsync")?;
        self.sync(stream)
    }

    /// Sets `count` elements of `width` bytes (1, 2 or 4) at `dst` to `value` on `stream`,
    /// complete when it returns.
    pub fn set(
        &self,
        dst: CuDevicePtr,
        width: usize,
        value: u32,
        count: usize,
        stream: CuStream,
    ) -> Result<(), CuError> {
        // SAFETY: device addresses only, which the driver checks; a stream of the context.
        let r = unsafe {
            match width {
                1 => (self.cuMemsetD8Async)(dst, value as u8, count, stream),
                2 => (self.cuMemsetD16Async)(dst, value as u16, count, stream),
                _ => (self.cuMemsetD32Async)(dst, value, count, stream),
            }
        };
        self.check(r, "cuMemsetAsync")?;
        self.sync(stream)
    }

    pub fn free(&self, p: CuDevicePtr) {
        // SAFETY: `p` came from cuMemAlloc or cuMemAllocManaged and is freed once.
        unsafe { (self.cuMemFree_v2)(p) };
    }

    /// Whether `p` lies in memory the device addresses: its own, or managed memory.
    pub fn is_device_memory(&self, p: u64) -> bool {
        let attribute = |name| {
            let mut v: c_uint = 0;
            // SAFETY: a valid out-pointer of the attribute's type (an unsigned int).
            let r =
                unsafe { (self.cuPointerGetAttribute)((&mut v as *mut c_uint).cast(), name, p) };
            (r == 0).then_some(v)
        };
        attribute(POINTER_IS_MANAGED).is_some_and(|v| v != 0)
            || attribute(POINTER_MEMORY_TYPE) == Some(MEMORY_TYPE_DEVICE)
    }

    /// Loads PTX text into the current context; on failure the JIT's error log.
    pub fn load_module(&self, ptx: &str) -> Result<CuModule, String> {
        let text = CString::new(ptx).map_err(|_| "PTX text holds a NUL byte".to_string())?;
        let mut error_log = vec![0u8; 1 << 16];
        let mut info_log = vec![0u8; 1 << 12];
        let mut options = [
            jit::ERROR_LOG_BUFFER,
            jit::ERROR_LOG_BUFFER_SIZE_BYTES,
            jit::INFO_LOG_BUFFER,
            jit::INFO_LOG_BUFFER_SIZE_BYTES,
        ];
        let mut values: [*mut c_void; 4] = [
            error_log.as_mut_ptr().cast(),
            error_log.len() as *mut c_void,
            info_log.as_mut_ptr().cast(),
            info_log.len() as *mut c_void,
        ];
        let mut module = std::ptr::null_mut();
        // SAFETY: the options and values arrays have 4 entries each, the logs the sizes
        // given; the image is NUL-terminated PTX text.
        let r = unsafe {
            (self.cuModuleLoadDataEx)(
                &mut module,
                text.as_ptr().cast(),
                4,
                options.as_mut_ptr(),
                values.as_mut_ptr(),
            )
        };
        if r == 0 {
            return Ok(module);
        }
        let log = CStr::from_bytes_until_nul(&error_log)
            .map(|c| c.to_string_lossy().into_owned())
            .unwrap_or_default();
        let err = self
            .check(r, "cuModuleLoadDataEx")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        Err(format!("{err}\n{log}"))
    }

    pub fn unload_module(&self, module: CuModule) {
        // SAFETY: `module` was loaded by load_module and is unloaded once.
        unsafe { (self.cuModuleUnload)(module) };
    }

    pub fn function(&self, module: CuModule, name: &str) -> Result<CuFunction, CuError> {
        let name_c = CString::new(name).map_err(|_| CuError {
            code: -1,
            message: format!("kernel name {name:?} holds a NUL byte"),
        })?;
        let mut f = std::ptr::null_mut();
        // SAFETY: a valid out-pointer, a loaded module and a NUL-terminated name.
        let r = unsafe { (self.cuModuleGetFunction)(&mut f, module, name_c.as_ptr()) };
        self.check(r, "cuModuleGetFunction")?;
        Ok(f)
    }

    /// The device address of the module's variable `name`.
    pub fn global(&self, module: CuModule, name: &str) -> Result<u64, CuError> {
        let name_c = CString::new(name).map_err(|_| CuError {
            code: -1,
            message: format!("variable name {name:?} holds a NUL byte"),
        })?;
        let (mut p, mut size) = (0u64, 0usize);
        // SAFETY: valid out-pointers, a loaded module and a NUL-terminated name.
        let r = unsafe { (self.cuModuleGetGlobal_v2)(&mut p, &mut size, module, name_c.as_ptr()) };
        self.check(r, "cuModuleGetGlobal")?;
        Ok(p)
    }

    pub fn function_attribute(&self, f: CuFunction, attribute: i32) -> i32 {
        let mut v = 0;
        // SAFETY: a valid out-pointer and a function of a loaded module.
        match unsafe { (self.cuFuncGetAttribute)(&mut v, attribute, f) } {
            0 => v,
            _ => 0,
        }
    }

    pub fn set_function_attribute(
        &self,
        f: CuFunction,
        attribute: i32,
        value: i32,
    ) -> Result<(), CuError> {
        // SAFETY: a function of a loaded module.
        let r = unsafe { (self.cuFuncSetAttribute)(f, attribute, value) };
        self.check(r, "cuFuncSetAttribute")
    }

    /// A new event of the current context, which records times (`CU_EVENT_DEFAULT`).
    pub fn event(&self) -> Result<Event<'_>, CuError> {
        let mut e = std::ptr::null_mut();
        // SAFETY: a valid out-pointer; flags 0.
        let r = unsafe { (self.cuEventCreate)(&mut e, 0) };
        self.check(r, "cuEventCreate")?;
        Ok(Event {
            driver: self,
            event: e,
        })
    }

    /// Launches `f` on `stream` with its one parameter, the bytes at `params`.
    ///
    /// # Safety
    /// `params` is the kernel's whole parameter block, of the size its PTX declares, and
    /// every address in it is valid on the device for the launch; `stream` is a stream of
    /// the current context.
    pub unsafe fn launch(
        &self,
        f: CuFunction,
        grid: [u32; 3],
        block: [u32; 3],
        shared: u32,
        params: *mut u8,
        stream: CuStream,
    ) -> Result<(), CuError> {
        let mut args = [params.cast::<c_void>()];
        // SAFETY: the caller's contract; one kernel parameter, passed by address.
        let r = unsafe {
            (self.cuLaunchKernel)(
                f,
                grid[0],
                grid[1],
                grid[2],
                block[0],
                block[1],
                block[2],
                shared,
                stream,
                args.as_mut_ptr(),
                std::ptr::null_mut(),
            )
        };
        self.check(r, "cuLaunchKernel")
    }
}

/// A CUDA event, destroyed when dropped.
pub struct Event<'d> {
    driver: &'d Driver,
    event: CuEvent,
}

impl Event<'_> {
    /// Records the event on `stream`: it completes when the work launched there before it
    /// does.
    pub fn record(&self, stream: CuStream) -> Result<(), CuError> {
        // SAFETY: a live event of the current context; a stream of it.
        let r = unsafe { (self.driver.cuEventRecord)(self.event, stream) };
        self.driver.check(r, "cuEventRecord")
    }

    /// Nanoseconds of the GPU's clock from `start` to this event, both recorded and complete.
    pub fn since(&self, start: &Event<'_>) -> Result<u64, CuError> {
        let mut ms = 0f32;
        // SAFETY: a valid out-pointer and two live, recorded events.
        let r = unsafe { (self.driver.cuEventElapsedTime)(&mut ms, start.event, self.event) };
        self.driver.check(r, "cuEventElapsedTime")?;
        Ok((f64::from(ms) * 1e6) as u64)
    }
}

impl Drop for Event<'_> {
    fn drop(&mut self) {
        // SAFETY: a live event, destroyed once.
        unsafe { (self.driver.cuEventDestroy_v2)(self.event) };
    }
}
