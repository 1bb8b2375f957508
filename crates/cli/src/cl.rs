//! The OpenCL API as the `run`, `build` and `bench` commands see it: the system's ICD loader
//! (`libOpenCL.so.1`), opened with dlopen at run time so the binary has no link-time dependency
//! on it, and a few owning wrappers whose `Drop` releases the object. Every platform, ferrocl
//! included, is reached the same way, through the loader.

use std::ffi::{c_void, CStr, CString};
use std::ptr;

use opencl_sys::cl_function_types as f;
use opencl_sys::*;

/// The loader's entry points this crate calls.
pub struct Api {
    get_platform_ids: unsafe extern "C" fn(cl_uint, *mut cl_platform_id, *mut cl_uint) -> cl_int,
    /// ferrocl's own library, added to the loader's platforms when the loader does not list it
    /// (see [`Api::platforms`]).
    own: Option<std::path::PathBuf>,
    get_platform_info: Found<f::clGetPlatformInfo_t>,
    get_device_ids: Found<f::clGetDeviceIDs_t>,
    get_device_info: Found<f::clGetDeviceInfo_t>,
    create_context: Found<f::clCreateContext_t>,
    release_context: Found<f::clReleaseContext_t>,
    create_command_queue: Found<f::clCreateCommandQueue_t>,
    release_command_queue: Found<f::clReleaseCommandQueue_t>,
    create_program_with_source: Found<f::clCreateProgramWithSource_t>,
    create_program_with_binary: Found<f::clCreateProgramWithBinary_t>,
    build_program: Found<f::clBuildProgram_t>,
    get_program_build_info: Found<f::clGetProgramBuildInfo_t>,
    get_program_info: Found<f::clGetProgramInfo_t>,
    release_program: Found<f::clReleaseProgram_t>,
    create_kernel: Found<f::clCreateKernel_t>,
    release_kernel: Found<f::clReleaseKernel_t>,
    get_kernel_info: Found<f::clGetKernelInfo_t>,
    get_kernel_arg_info: Found<f::clGetKernelArgInfo_t>,
    set_kernel_arg: Found<f::clSetKernelArg_t>,
    create_buffer: Found<f::clCreateBuffer_t>,
    create_image: Found<f::clCreateImage_t>,
    release_mem_object: Found<f::clReleaseMemObject_t>,
    enqueue_write_buffer: Found<f::clEnqueueWriteBuffer_t>,
    enqueue_read_buffer: Found<f::clEnqueueReadBuffer_t>,
    enqueue_nd_range_kernel: Found<f::clEnqueueNDRangeKernel_t>,
    finish: Found<f::clFinish_t>,
    wait_for_events: Found<f::clWaitForEvents_t>,
    get_event_profiling_info: Found<f::clGetEventProfilingInfo_t>,
    release_event: Found<f::clReleaseEvent_t>,
}

/// A function pointer type of `opencl-sys` (an `Option<fn>`) with the `None` taken out: dlsym
/// found it.
pub struct Found<T>(T);

impl<T: Copy> Found<T> {
    fn get(&self) -> T {
        self.0
    }
}

/// An error of an OpenCL call: which call, and the code it returned.
#[derive(Debug)]
pub struct ClError {
    pub call: &'static str,
    pub code: cl_int,
}

impl std::fmt::Display for ClError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} failed: {}", self.call, error_name(self.code))
    }
}

pub type Result<T> = std::result::Result<T, ClError>;

fn check(call: &'static str, code: cl_int) -> Result<()> {
    if code == CL_SUCCESS {
        Ok(())
    } else {
        Err(ClError { call, code })
    }
}

/// The spec's name of an error code.
pub fn error_name(code: cl_int) -> String {
    let name = match code {
        CL_DEVICE_NOT_FOUND => "CL_DEVICE_NOT_FOUND",
        CL_DEVICE_NOT_AVAILABLE => "CL_DEVICE_NOT_AVAILABLE",
        CL_COMPILER_NOT_AVAILABLE => "CL_COMPILER_NOT_AVAILABLE",
        CL_MEM_OBJECT_ALLOCATION_FAILURE => "CL_MEM_OBJECT_ALLOCATION_FAILURE",
        CL_OUT_OF_RESOURCES => "CL_OUT_OF_RESOURCES",
        CL_OUT_OF_HOST_MEMORY => "CL_OUT_OF_HOST_MEMORY",
        CL_PROFILING_INFO_NOT_AVAILABLE => "CL_PROFILING_INFO_NOT_AVAILABLE",
        CL_BUILD_PROGRAM_FAILURE => "CL_BUILD_PROGRAM_FAILURE",
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST => {
            "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST"
        }
        CL_KERNEL_ARG_INFO_NOT_AVAILABLE => "CL_KERNEL_ARG_INFO_NOT_AVAILABLE",
        CL_INVALID_VALUE => "CL_INVALID_VALUE",
        CL_INVALID_DEVICE_TYPE => "CL_INVALID_DEVICE_TYPE",
        CL_INVALID_PLATFORM => "CL_INVALID_PLATFORM",
        CL_INVALID_DEVICE => "CL_INVALID_DEVICE",
        CL_INVALID_CONTEXT => "CL_INVALID_CONTEXT",
        CL_INVALID_COMMAND_QUEUE => "CL_INVALID_COMMAND_QUEUE",
        CL_INVALID_MEM_OBJECT => "CL_INVALID_MEM_OBJECT",
        CL_INVALID_BINARY => "CL_INVALID_BINARY",
        CL_INVALID_BUILD_OPTIONS => "CL_INVALID_BUILD_OPTIONS",
        CL_INVALID_PROGRAM => "CL_INVALID_PROGRAM",
        CL_INVALID_PROGRAM_EXECUTABLE => "CL_INVALID_PROGRAM_EXECUTABLE",
        CL_INVALID_KERNEL_NAME => "CL_INVALID_KERNEL_NAME",
        CL_INVALID_KERNEL => "CL_INVALID_KERNEL",
        CL_INVALID_ARG_INDEX => "CL_INVALID_ARG_INDEX",
        CL_INVALID_ARG_VALUE => "CL_INVALID_ARG_VALUE",
        CL_INVALID_ARG_SIZE => "CL_INVALID_ARG_SIZE",
        CL_INVALID_KERNEL_ARGS => "CL_INVALID_KERNEL_ARGS",
        CL_INVALID_WORK_DIMENSION => "CL_INVALID_WORK_DIMENSION",
        CL_INVALID_WORK_GROUP_SIZE => "CL_INVALID_WORK_GROUP_SIZE",
        CL_INVALID_WORK_ITEM_SIZE => "CL_INVALID_WORK_ITEM_SIZE",
        CL_INVALID_GLOBAL_OFFSET => "CL_INVALID_GLOBAL_OFFSET",
        CL_INVALID_EVENT => "CL_INVALID_EVENT",
        CL_INVALID_OPERATION => "CL_INVALID_OPERATION",
        CL_INVALID_BUFFER_SIZE => "CL_INVALID_BUFFER_SIZE",
        CL_INVALID_GLOBAL_WORK_SIZE => "CL_INVALID_GLOBAL_WORK_SIZE",
        CL_PLATFORM_NOT_FOUND_KHR => "CL_PLATFORM_NOT_FOUND_KHR",
        _ => return format!("error {code}"),
    };
    name.to_string()
}

/// Opens the loader and looks up every entry point; a message naming what is missing when the
/// loader or one of its functions is not there. `own` is ferrocl's library, when there is one.
pub fn load(own: Option<&std::path::Path>) -> std::result::Result<Api, String> {
    let name = c"libOpenCL.so.1";
    // SAFETY: dlopen takes a NUL-terminated name; the handle is never closed, so the symbols
    // stay valid for the life of the process.
    let handle = unsafe { libc::dlopen(name.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
    if handle.is_null() {
        return Err(
            "cannot open the OpenCL ICD loader libOpenCL.so.1 (install ocl-icd-libopencl1 \
             or another loader)"
                .to_string(),
        );
    }
    fn sym<T>(handle: *mut c_void, name: &CStr) -> std::result::Result<Found<Option<T>>, String> {
        // SAFETY: handle is a live dlopen handle and name is NUL-terminated.
        let p = unsafe { libc::dlsym(handle, name.as_ptr()) };
        if p.is_null() {
            return Err(format!(
                "the OpenCL loader has no {}",
                name.to_string_lossy()
            ));
        }
        assert_eq!(std::mem::size_of::<T>(), std::mem::size_of::<*mut c_void>());
        // SAFETY: T is the `extern "C"` function pointer type of the symbol's C declaration
        // (the Khronos headers, through opencl-sys), the same size as a data pointer.
        let function: T = unsafe { std::mem::transmute_copy(&p) };
        Ok(Found(Some(function)))
    }
    macro_rules! load {
        ($name:literal) => {
            sym(handle, $name)?
        };
    }
    let get_platform_ids: Found<f::clGetPlatformIDs_t> = load!(c"clGetPlatformIDs");
    Ok(Api {
        get_platform_ids: get_platform_ids.get().expect("dlsym found it"),
        own: own.map(std::path::Path::to_path_buf),
        get_platform_info: load!(c"clGetPlatformInfo"),
        get_device_ids: load!(c"clGetDeviceIDs"),
        get_device_info: load!(c"clGetDeviceInfo"),
        create_context: load!(c"clCreateContext"),
        release_context: load!(c"clReleaseContext"),
        create_command_queue: load!(c"clCreateCommandQueue"),
        release_command_queue: load!(c"clReleaseCommandQueue"),
        create_program_with_source: load!(c"clCreateProgramWithSource"),
        create_program_with_binary: load!(c"clCreateProgramWithBinary"),
        build_program: load!(c"clBuildProgram"),
        get_program_build_info: load!(c"clGetProgramBuildInfo"),
        get_program_info: load!(c"clGetProgramInfo"),
        release_program: load!(c"clReleaseProgram"),
        create_kernel: load!(c"clCreateKernel"),
        release_kernel: load!(c"clReleaseKernel"),
        get_kernel_info: load!(c"clGetKernelInfo"),
        get_kernel_arg_info: load!(c"clGetKernelArgInfo"),
        set_kernel_arg: load!(c"clSetKernelArg"),
        create_buffer: load!(c"clCreateBuffer"),
        create_image: load!(c"clCreateImage"),
        release_mem_object: load!(c"clReleaseMemObject"),
        enqueue_write_buffer: load!(c"clEnqueueWriteBuffer"),
        enqueue_read_buffer: load!(c"clEnqueueReadBuffer"),
        enqueue_nd_range_kernel: load!(c"clEnqueueNDRangeKernel"),
        finish: load!(c"clFinish"),
        wait_for_events: load!(c"clWaitForEvents"),
        get_event_profiling_info: load!(c"clGetEventProfilingInfo"),
        release_event: load!(c"clReleaseEvent"),
    })
}

macro_rules! call {
    ($api:expr, $field:ident, $name:literal ( $($arg:expr),* $(,)? )) => {{
        let function = $api.$field.get().expect("dlsym found it");
        check($name, function($($arg),*))
    }};
}

/// Reads a `clGet*Info` value of any size: the size query, then the value.
fn info_bytes(
    call: &'static str,
    mut query: impl FnMut(usize, *mut c_void, *mut usize) -> cl_int,
) -> Result<Vec<u8>> {
    let mut size = 0usize;
    check(call, query(0, ptr::null_mut(), &mut size))?;
    let mut bytes = vec![0u8; size];
    check(
        call,
        query(size, bytes.as_mut_ptr().cast(), ptr::null_mut()),
    )?;
    Ok(bytes)
}

fn bytes_to_string(mut bytes: Vec<u8>) -> String {
    while bytes.last() == Some(&0) {
        bytes.pop();
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn bytes_to_u64(bytes: &[u8]) -> u64 {
    let mut word = [0u8; 8];
    let n = bytes.len().min(8);
    word[..n].copy_from_slice(&bytes[..n]);
    u64::from_ne_bytes(word)
}

/// The platforms of the ICD library at `path`, asked directly (`clIcdGetPlatformIDsKHR`, which
/// every ICD exports for loaders); none when it cannot be opened.
fn library_platforms(path: &std::path::Path) -> Vec<cl_platform_id> {
    let Ok(name) = CString::new(path.as_os_str().as_encoded_bytes()) else {
        return Vec::new();
    };
    // SAFETY: a NUL-terminated path; the handle is never closed, so the platforms and their
    // dispatch tables stay valid for the life of the process.
    let handle = unsafe { libc::dlopen(name.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
    if handle.is_null() {
        return Vec::new();
    }
    // SAFETY: handle is a live dlopen handle and the name is NUL-terminated.
    let p = unsafe { libc::dlsym(handle, c"clIcdGetPlatformIDsKHR".as_ptr()) };
    if p.is_null() {
        return Vec::new();
    }
    type GetIds = unsafe extern "C" fn(cl_uint, *mut cl_platform_id, *mut cl_uint) -> cl_int;
    // SAFETY: cl_khr_icd declares clIcdGetPlatformIDsKHR with clGetPlatformIDs's signature.
    let get: GetIds = unsafe { std::mem::transmute::<*mut c_void, GetIds>(p) };
    let mut count = 0;
    // SAFETY: a count query with no output array.
    if unsafe { get(0, ptr::null_mut(), &mut count) } != CL_SUCCESS || count == 0 {
        return Vec::new();
    }
    let mut ids = vec![ptr::null_mut(); count as usize];
    // SAFETY: ids has room for count entries.
    if unsafe { get(count, ids.as_mut_ptr(), ptr::null_mut()) } != CL_SUCCESS {
        return Vec::new();
    }
    ids
}

impl Api {
    /// The loader's platforms, and ferrocl's own after them when the loader does not list it:
    /// a loader may not read the vendors directory that `icd::private_vendors` names (some
    /// read only /etc/OpenCL/vendors). Every call still goes through the loader, which passes
    /// it on by the handle's dispatch table, so the platform works the same either way.
    pub fn platforms(&self) -> Result<Vec<cl_platform_id>> {
        let mut ids = self.loader_platforms()?;
        if let Some(own) = &self.own {
            let listed = ids
                .iter()
                .any(|&p| self.platform_string(p, CL_PLATFORM_NAME) == "ferrocl");
            if !listed {
                ids.extend(library_platforms(own));
            }
        }
        Ok(ids)
    }

    fn loader_platforms(&self) -> Result<Vec<cl_platform_id>> {
        let mut count = 0;
        // SAFETY: a count query with no output array.
        let code = unsafe { (self.get_platform_ids)(0, ptr::null_mut(), &mut count) };
        // 4.1: the ICD extension answers CL_PLATFORM_NOT_FOUND_KHR when no platform is found.
        if code == CL_PLATFORM_NOT_FOUND_KHR || count == 0 {
            return Ok(Vec::new());
        }
        check("clGetPlatformIDs", code)?;
        let mut ids = vec![ptr::null_mut(); count as usize];
        // SAFETY: ids has room for count entries.
        let code = unsafe { (self.get_platform_ids)(count, ids.as_mut_ptr(), ptr::null_mut()) };
        check("clGetPlatformIDs", code)?;
        Ok(ids)
    }

    pub fn platform_string(&self, platform: cl_platform_id, param: cl_platform_info) -> String {
        let function = self.get_platform_info.get().expect("dlsym found it");
        info_bytes("clGetPlatformInfo", |size, value, ret| {
            // SAFETY: value has size bytes (or is null for the size query).
            unsafe { function(platform, param, size, value, ret) }
        })
        .map(bytes_to_string)
        .unwrap_or_default()
    }

    pub fn devices(&self, platform: cl_platform_id) -> Result<Vec<cl_device_id>> {
        let function = self.get_device_ids.get().expect("dlsym found it");
        let mut count = 0;
        // SAFETY: a count query.
        let code =
            unsafe { function(platform, CL_DEVICE_TYPE_ALL, 0, ptr::null_mut(), &mut count) };
        if code == CL_DEVICE_NOT_FOUND {
            return Ok(Vec::new());
        }
        check("clGetDeviceIDs", code)?;
        let mut ids = vec![ptr::null_mut(); count as usize];
        // SAFETY: ids has room for count entries.
        let code = unsafe {
            function(
                platform,
                CL_DEVICE_TYPE_ALL,
                count,
                ids.as_mut_ptr(),
                ptr::null_mut(),
            )
        };
        check("clGetDeviceIDs", code)?;
        Ok(ids)
    }

    /// A device property's bytes as clGetDeviceInfo writes them.
    pub fn device_bytes(&self, device: cl_device_id, param: cl_device_info) -> Result<Vec<u8>> {
        let function = self.get_device_info.get().expect("dlsym found it");
        info_bytes("clGetDeviceInfo", |size, value, ret| {
            // SAFETY: value has size bytes (or is null for the size query).
            unsafe { function(device, param, size, value, ret) }
        })
    }

    pub fn device_string(&self, device: cl_device_id, param: cl_device_info) -> String {
        self.device_bytes(device, param)
            .map(bytes_to_string)
            .unwrap_or_default()
    }

    /// A scalar device property (cl_uint, cl_ulong, size_t, cl_bool) widened to u64.
    pub fn device_u64(&self, device: cl_device_id, param: cl_device_info) -> Result<u64> {
        self.device_bytes(device, param).map(|b| bytes_to_u64(&b))
    }

    /// A device property that is an array of `size_t`.
    pub fn device_sizes(&self, device: cl_device_id, param: cl_device_info) -> Result<Vec<u64>> {
        let bytes = self.device_bytes(device, param)?;
        Ok(bytes
            .chunks_exact(std::mem::size_of::<usize>())
            .map(bytes_to_u64)
            .collect())
    }

    /// A device property that is an array of `cl_name_version` (API 4.2): each name with its
    /// version as `major.minor.patch`.
    pub fn device_names(
        &self,
        device: cl_device_id,
        param: cl_device_info,
    ) -> Result<Vec<(String, String)>> {
        let bytes = self.device_bytes(device, param)?;
        let each = std::mem::size_of::<cl_name_version>();
        Ok(bytes
            .chunks_exact(each)
            .map(|entry| {
                let version = bytes_to_u64(&entry[..4]) as u32;
                let name =
                    bytes_to_string(entry[4..].split(|&b| b == 0).next().unwrap_or(&[]).to_vec());
                // CL_VERSION_MAJOR/MINOR/PATCH: 10, 10 and 12 bits.
                let v = format!(
                    "{}.{}.{}",
                    version >> 22,
                    (version >> 12) & 0x3ff,
                    version & 0xfff
                );
                (name, v)
            })
            .collect())
    }

    /// A context and an in-order queue with profiling on the device.
    pub fn context(&self, device: cl_device_id) -> Result<Context<'_>> {
        let mut code = CL_SUCCESS;
        let create = self.create_context.get().expect("dlsym found it");
        // SAFETY: one valid device id; no properties, no callback.
        let context = unsafe { create(ptr::null(), 1, &device, None, ptr::null_mut(), &mut code) };
        check("clCreateContext", code)?;
        // Owned from here: a failure below releases it.
        let mut context = Context {
            api: self,
            device,
            context,
            queue: ptr::null_mut(),
        };
        let create_queue = self.create_command_queue.get().expect("dlsym found it");
        // SAFETY: a context made above on this device.
        let queue = unsafe {
            create_queue(
                context.context,
                device,
                CL_QUEUE_PROFILING_ENABLE,
                &mut code,
            )
        };
        check("clCreateCommandQueue", code)?;
        context.queue = queue;
        Ok(context)
    }
}

/// A context on one device with its command queue.
pub struct Context<'a> {
    pub api: &'a Api,
    pub device: cl_device_id,
    context: cl_context,
    queue: cl_command_queue,
}

impl Drop for Context<'_> {
    fn drop(&mut self) {
        // SAFETY: this object owns one reference to each.
        unsafe {
            if !self.queue.is_null() {
                let _ = call!(self.api, finish, "clFinish"(self.queue));
                let _ = call!(
                    self.api,
                    release_command_queue,
                    "clReleaseCommandQueue"(self.queue)
                );
            }
            let _ = call!(self.api, release_context, "clReleaseContext"(self.context));
        }
    }
}

/// What a program is made from.
pub enum Input<'s> {
    /// OpenCL C source.
    Source(&'s str),
    /// A program binary of the device (for ferrocl, serialized IR).
    Binary(&'s [u8]),
}

/// The result of `clBuildProgram`: the program (built or not) and its build log.
pub struct Build<'a> {
    pub program: Program<'a>,
    pub log: String,
    /// The error of clBuildProgram, if it failed.
    pub error: Option<ClError>,
}

pub struct Program<'a> {
    api: &'a Api,
    device: cl_device_id,
    program: cl_program,
}

impl Drop for Program<'_> {
    fn drop(&mut self) {
        // SAFETY: this object owns one reference.
        let _ = unsafe { call!(self.api, release_program, "clReleaseProgram"(self.program)) };
    }
}

impl<'a> Context<'a> {
    /// Creates a program from source and builds it with the options; an error only when the
    /// program could not even be created (a failed build is reported in `Build::error`).
    pub fn build(&self, source: &str, options: &str) -> Result<Build<'a>> {
        self.build_input(&Input::Source(source), options)
    }

    /// Creates a program from source or from a program binary and builds it.
    pub fn build_input(&self, input: &Input, options: &str) -> Result<Build<'a>> {
        let mut code = CL_SUCCESS;
        let program = match input {
            Input::Source(source) => {
                // A length of 0 tells the library that the string ends at a NUL (an empty
                // file's bytes are no string at all): an empty source is passed as "".
                let mut text = if source.is_empty() {
                    c"".as_ptr()
                } else {
                    source.as_ptr().cast::<std::ffi::c_char>()
                };
                let length = source.len();
                let create = self
                    .api
                    .create_program_with_source
                    .get()
                    .expect("dlsym found it");
                // SAFETY: one string of the given length.
                let program = unsafe { create(self.context, 1, &mut text, &length, &mut code) };
                check("clCreateProgramWithSource", code)?;
                program
            }
            Input::Binary(binary) => {
                let mut bytes = binary.as_ptr();
                let length = binary.len();
                let mut status = CL_SUCCESS;
                let create = self
                    .api
                    .create_program_with_binary
                    .get()
                    .expect("dlsym found it");
                // SAFETY: one device, one binary of the given length.
                let program = unsafe {
                    create(
                        self.context,
                        1,
                        &self.device,
                        &length,
                        &mut bytes,
                        &mut status,
                        &mut code,
                    )
                };
                check("clCreateProgramWithBinary", code)?;
                program
            }
        };
        let program = Program {
            api: self.api,
            device: self.device,
            program,
        };
        let options = CString::new(options.replace('\0', " ")).expect("no NUL left");
        let build = self.api.build_program.get().expect("dlsym found it");
        // SAFETY: one valid device, NUL-terminated options, no callback (a blocking build).
        let code = unsafe {
            build(
                program.program,
                1,
                &self.device,
                options.as_ptr(),
                None,
                ptr::null_mut(),
            )
        };
        let error = check("clBuildProgram", code).err();
        let log = program.build_log();
        Ok(Build {
            program,
            log,
            error,
        })
    }

    pub fn buffer(&self, size: usize) -> Result<Buffer<'a>> {
        let mut code = CL_SUCCESS;
        let create = self.api.create_buffer.get().expect("dlsym found it");
        // SAFETY: no host pointer; the size is checked by the implementation.
        let mem = unsafe {
            create(
                self.context,
                CL_MEM_READ_WRITE,
                size.max(1),
                ptr::null_mut(),
                &mut code,
            )
        };
        check("clCreateBuffer", code)?;
        Ok(Buffer {
            api: self.api,
            mem,
            size,
        })
    }

    /// A read-only 2D image of `width` x `height` RGBA texels of 8-bit normalized channels,
    /// made from `data` (4 bytes a texel, rows packed). Its `size` is 0: it is no buffer to
    /// read back.
    pub fn image_rgba8(&self, width: usize, height: usize, data: &[u8]) -> Result<Buffer<'a>> {
        assert_eq!(data.len(), width * height * 4);
        let format = cl_image_format {
            image_channel_order: CL_RGBA,
            image_channel_data_type: CL_UNORM_INT8,
        };
        // SAFETY: cl_image_desc is plain data; zero is every field's "not used".
        let mut desc: cl_image_desc = unsafe { std::mem::zeroed() };
        desc.image_type = CL_MEM_OBJECT_IMAGE2D;
        desc.image_width = width;
        desc.image_height = height;
        let mut code = CL_SUCCESS;
        let create = self.api.create_image.get().expect("dlsym found it");
        // SAFETY: format and desc are live for the call; with CL_MEM_COPY_HOST_PTR the
        // implementation reads width x height x 4 bytes from data (asserted above) during it.
        let mem = unsafe {
            create(
                self.context,
                CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                &format,
                &desc,
                data.as_ptr().cast_mut().cast(),
                &mut code,
            )
        };
        check("clCreateImage", code)?;
        Ok(Buffer {
            api: self.api,
            mem,
            size: 0,
        })
    }

    pub fn write(&self, buffer: &Buffer, data: &[u8]) -> Result<()> {
        assert!(data.len() <= buffer.size);
        // SAFETY: a blocking write of data.len() bytes from a live slice into a buffer that
        // large.
        unsafe {
            call!(
                self.api,
                enqueue_write_buffer,
                "clEnqueueWriteBuffer"(
                    self.queue,
                    buffer.mem,
                    CL_TRUE,
                    0,
                    data.len(),
                    data.as_ptr().cast(),
                    0,
                    ptr::null(),
                    ptr::null_mut()
                )
            )
        }
    }

    pub fn read(&self, buffer: &Buffer) -> Result<Vec<u8>> {
        let mut data = vec![0u8; buffer.size];
        // SAFETY: a blocking read of the buffer's size into a vector that large.
        unsafe {
            call!(
                self.api,
                enqueue_read_buffer,
                "clEnqueueReadBuffer"(
                    self.queue,
                    buffer.mem,
                    CL_TRUE,
                    0,
                    data.len(),
                    data.as_mut_ptr().cast(),
                    0,
                    ptr::null(),
                    ptr::null_mut()
                )
            )
        }?;
        Ok(data)
    }

    /// Enqueues the kernel over the range; the event of the launch.
    pub fn enqueue(
        &self,
        kernel: &Kernel,
        global: &[usize],
        local: Option<&[usize]>,
    ) -> Result<Event<'a>> {
        self.enqueue_at(kernel, None, global, local)
    }

    /// [`Self::enqueue`] with a global work offset (`None`: 0 in every dimension).
    pub fn enqueue_at(
        &self,
        kernel: &Kernel,
        offset: Option<&[usize]>,
        global: &[usize],
        local: Option<&[usize]>,
    ) -> Result<Event<'a>> {
        let mut event = ptr::null_mut();
        // SAFETY: global (and offset and local, when given) hold work_dim sizes.
        unsafe {
            call!(
                self.api,
                enqueue_nd_range_kernel,
                "clEnqueueNDRangeKernel"(
                    self.queue,
                    kernel.kernel,
                    global.len() as cl_uint,
                    offset.map_or(ptr::null(), |o| o.as_ptr()),
                    global.as_ptr(),
                    local.map_or(ptr::null(), |l| l.as_ptr()),
                    0,
                    ptr::null(),
                    &mut event
                )
            )
        }?;
        Ok(Event {
            api: self.api,
            event,
        })
    }

    pub fn finish(&self) -> Result<()> {
        // SAFETY: the queue is live.
        unsafe { call!(self.api, finish, "clFinish"(self.queue)) }
    }
}

impl<'a> Program<'a> {
    fn build_log(&self) -> String {
        let function = self
            .api
            .get_program_build_info
            .get()
            .expect("dlsym found it");
        info_bytes("clGetProgramBuildInfo", |size, value, ret| {
            // SAFETY: value has size bytes (or is null for the size query).
            unsafe {
                function(
                    self.program,
                    self.device,
                    CL_PROGRAM_BUILD_LOG,
                    size,
                    value,
                    ret,
                )
            }
        })
        .map(bytes_to_string)
        .unwrap_or_default()
    }

    /// The program binary of its one device (`CL_PROGRAM_BINARIES`).
    pub fn binary(&self) -> Result<Vec<u8>> {
        let function = self.api.get_program_info.get().expect("dlsym found it");
        let sizes = info_bytes("clGetProgramInfo", |size, value, ret| {
            // SAFETY: value has size bytes (or is null for the size query).
            unsafe { function(self.program, CL_PROGRAM_BINARY_SIZES, size, value, ret) }
        })?;
        let size = bytes_to_u64(&sizes) as usize;
        let mut binary = vec![0u8; size];
        let mut pointer = binary.as_mut_ptr();
        // SAFETY: one device, so one pointer to a buffer of its binary size.
        let code = unsafe {
            function(
                self.program,
                CL_PROGRAM_BINARIES,
                std::mem::size_of::<*mut u8>(),
                (&mut pointer as *mut *mut u8).cast(),
                ptr::null_mut(),
            )
        };
        check("clGetProgramInfo", code)?;
        Ok(binary)
    }

    pub fn kernel(&self, name: &str) -> Result<Kernel<'a>> {
        let name = CString::new(name).map_err(|_| ClError {
            call: "clCreateKernel",
            code: CL_INVALID_KERNEL_NAME,
        })?;
        let mut code = CL_SUCCESS;
        let create = self.api.create_kernel.get().expect("dlsym found it");
        // SAFETY: a built program and a NUL-terminated name.
        let kernel = unsafe { create(self.program, name.as_ptr(), &mut code) };
        check("clCreateKernel", code)?;
        Ok(Kernel {
            api: self.api,
            kernel,
        })
    }

    /// The names of the program's kernels.
    pub fn kernel_names(&self) -> Vec<String> {
        let function = self.api.get_program_info.get().expect("dlsym found it");
        info_bytes("clGetProgramInfo", |size, value, ret| {
            // SAFETY: value has size bytes (or is null for the size query).
            unsafe { function(self.program, CL_PROGRAM_KERNEL_NAMES, size, value, ret) }
        })
        .map(bytes_to_string)
        .unwrap_or_default()
        .split(';')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
    }
}

pub struct Kernel<'a> {
    api: &'a Api,
    kernel: cl_kernel,
}

impl Drop for Kernel<'_> {
    fn drop(&mut self) {
        // SAFETY: this object owns one reference.
        let _ = unsafe { call!(self.api, release_kernel, "clReleaseKernel"(self.kernel)) };
    }
}

/// What `clGetKernelArgInfo` says of one argument.
#[derive(Clone, Debug)]
pub struct ArgInfo {
    pub name: String,
    /// The type as written, without qualifiers: `float*`, `uint`, `float4*`.
    pub type_name: String,
    pub address: cl_kernel_arg_address_qualifier,
}

impl ArgInfo {
    pub fn is_pointer(&self) -> bool {
        self.type_name.ends_with('*')
    }
}

impl Kernel<'_> {
    pub fn num_args(&self) -> Result<u32> {
        let function = self.api.get_kernel_info.get().expect("dlsym found it");
        let bytes = info_bytes("clGetKernelInfo", |size, value, ret| {
            // SAFETY: value has size bytes (or is null for the size query).
            unsafe { function(self.kernel, CL_KERNEL_NUM_ARGS, size, value, ret) }
        })?;
        Ok(bytes_to_u64(&bytes) as u32)
    }

    /// The argument's metadata; needs a program built with `-cl-kernel-arg-info`.
    pub fn arg_info(&self, index: u32) -> Result<ArgInfo> {
        let function = self.api.get_kernel_arg_info.get().expect("dlsym found it");
        let query = |param| {
            info_bytes("clGetKernelArgInfo", |size, value, ret| {
                // SAFETY: value has size bytes (or is null for the size query).
                unsafe { function(self.kernel, index, param, size, value, ret) }
            })
        };
        let name = bytes_to_string(query(CL_KERNEL_ARG_NAME)?);
        let type_name = bytes_to_string(query(CL_KERNEL_ARG_TYPE_NAME)?);
        let address = bytes_to_u64(&query(CL_KERNEL_ARG_ADDRESS_QUALIFIER)?) as cl_uint;
        Ok(ArgInfo {
            name,
            type_name: type_name.replace(' ', ""),
            address,
        })
    }

    pub fn set_arg_bytes(&self, index: u32, value: &[u8]) -> Result<()> {
        // SAFETY: value points at value.len() bytes.
        unsafe {
            call!(
                self.api,
                set_kernel_arg,
                "clSetKernelArg"(self.kernel, index, value.len(), value.as_ptr().cast())
            )
        }
    }

    pub fn set_arg_buffer(&self, index: u32, buffer: &Buffer) -> Result<()> {
        let mem = buffer.mem;
        // SAFETY: a cl_mem argument is passed as a pointer to the handle.
        unsafe {
            call!(
                self.api,
                set_kernel_arg,
                "clSetKernelArg"(
                    self.kernel,
                    index,
                    std::mem::size_of::<cl_mem>(),
                    (&mem as *const cl_mem).cast()
                )
            )
        }
    }

    /// A `__local` argument of `size` bytes.
    pub fn set_arg_local(&self, index: u32, size: usize) -> Result<()> {
        // SAFETY: 5.9.2: a null arg_value for a __local argument allocates arg_size bytes.
        unsafe {
            call!(
                self.api,
                set_kernel_arg,
                "clSetKernelArg"(self.kernel, index, size, ptr::null())
            )
        }
    }
}

pub struct Buffer<'a> {
    api: &'a Api,
    mem: cl_mem,
    pub size: usize,
}

impl Drop for Buffer<'_> {
    fn drop(&mut self) {
        // SAFETY: this object owns one reference.
        let _ = unsafe { call!(self.api, release_mem_object, "clReleaseMemObject"(self.mem)) };
    }
}

pub struct Event<'a> {
    api: &'a Api,
    event: cl_event,
}

impl Drop for Event<'_> {
    fn drop(&mut self) {
        // SAFETY: this object owns one reference.
        let _ = unsafe { call!(self.api, release_event, "clReleaseEvent"(self.event)) };
    }
}

impl Event<'_> {
    pub fn wait(&self) -> Result<()> {
        // SAFETY: one live event.
        unsafe { call!(self.api, wait_for_events, "clWaitForEvents"(1, &self.event)) }
    }

    /// The device time from start to end, in nanoseconds (a finished event of a queue with
    /// profiling on).
    pub fn device_ns(&self) -> Result<u64> {
        let function = self
            .api
            .get_event_profiling_info
            .get()
            .expect("dlsym found it");
        let read = |param| {
            let mut value = 0u64;
            // SAFETY: a cl_ulong value.
            let code = unsafe {
                function(
                    self.event,
                    param,
                    8,
                    (&mut value as *mut u64).cast(),
                    ptr::null_mut(),
                )
            };
            check("clGetEventProfilingInfo", code).map(|()| value)
        };
        let start = read(CL_PROFILING_COMMAND_START)?;
        let end = read(CL_PROFILING_COMMAND_END)?;
        Ok(end.saturating_sub(start))
    }
}

/// A platform chosen by name, with its first device.
pub struct Target {
    pub platform_name: String,
    pub device: cl_device_id,
    pub device_name: String,
}

impl Api {
    /// The platform whose `CL_PLATFORM_NAME` contains `pattern`, ignoring case, and its device
    /// of that index; a message listing the platforms there are when none matches.
    pub fn find(&self, pattern: &str, device: usize) -> std::result::Result<Target, String> {
        let platforms = self.platforms().map_err(|e| e.to_string())?;
        let names: Vec<String> = platforms
            .iter()
            .map(|&p| self.platform_string(p, CL_PLATFORM_NAME))
            .collect();
        let wanted = pattern.to_lowercase();
        // The name first; then the vendor, so "pocl" finds "Portable Computing Language"
        // (vendor "The pocl project").
        let by_vendor = || {
            platforms.iter().position(|&p| {
                self.platform_string(p, CL_PLATFORM_VENDOR)
                    .to_lowercase()
                    .contains(&wanted)
            })
        };
        let Some(index) = names
            .iter()
            .position(|n| n.to_lowercase().contains(&wanted))
            .or_else(by_vendor)
        else {
            let known = if names.is_empty() {
                "none".to_string()
            } else {
                names
                    .iter()
                    .map(|n| format!("'{n}'"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            return Err(format!(
                "no OpenCL platform matches '{pattern}' (platforms found: {known})"
            ));
        };
        self.target(platforms[index], device)
    }

    /// The platform with its device of that index (in the order of clGetDeviceIDs).
    pub fn target(
        &self,
        platform: cl_platform_id,
        index: usize,
    ) -> std::result::Result<Target, String> {
        let name = self.platform_string(platform, CL_PLATFORM_NAME);
        let devices = self.devices(platform).map_err(|e| e.to_string())?;
        let Some(&device) = devices.get(index) else {
            return Err(match devices.len() {
                0 => format!("platform '{name}' has no device"),
                n => format!("platform '{name}' has no device {index} (it has {n})"),
            });
        };
        Ok(Target {
            platform_name: name,
            device,
            device_name: self.device_string(device, CL_DEVICE_NAME),
        })
    }
}
