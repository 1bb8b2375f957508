//! Chapter 5.8 of the API: program objects.
//!
//! Programs are made from source or from ferrocl program binaries (serialized IR). Binaries
//! build into executables; building from source answers `CL_COMPILER_NOT_AVAILABLE` until the
//! devices have a compiler (`CL_DEVICE_COMPILER_AVAILABLE`). Kernels are in `kernel.rs`.

use std::ffi::{c_char, c_void, CStr};
use std::sync::Arc;

use ferrocl_core::program::{BinaryType, Program};
use ferrocl_core::{ClError, ClResult, Context, Device};
use opencl_sys::*;

use crate::entry::entry;
use crate::handle::{self, get, get_list, new_handle};
use crate::info::{self, answer};

type BuildNotify = Option<unsafe extern "C" fn(cl_program, *mut c_void)>;

/// Checks that every device of a list belongs to `context` (CL_INVALID_DEVICE otherwise).
///
/// # Safety
/// `list` is NULL or points at `num` handles.
unsafe fn devices_of(
    context: &Context,
    num: cl_uint,
    list: *const cl_device_id,
) -> ClResult<Vec<Arc<Device>>> {
    // "CL_INVALID_VALUE if device_list is NULL or num_devices is zero."
    if list.is_null() || num == 0 {
        return Err(ClError::InvalidValue);
    }
    // SAFETY: the caller's contract.
    let devices = unsafe { get_list::<Device, _>(list, num) }?;
    if devices.iter().any(|d| !context.has_device(d)) {
        return Err(ClError::InvalidDevice);
    }
    Ok(devices)
}

entry! {
    create_program_with_source => fn clCreateProgramWithSource(
        context: cl_context,
        count: cl_uint,
        strings: *mut *const c_char,
        lengths: *const usize,
        ; errcode_ret
    ) -> cl_program
}

fn create_program_with_source(
    context: cl_context,
    count: cl_uint,
    strings: *mut *const c_char,
    lengths: *const usize,
) -> ClResult<cl_program> {
    let ctx = get::<Context, _>(context)?;
    // 5.8.1: CL_INVALID_VALUE "if count is zero or if strings or any entry in strings is
    // NULL".
    if count == 0 || strings.is_null() {
        return Err(ClError::InvalidValue);
    }
    let mut source = String::new();
    for i in 0..count as usize {
        // SAFETY: strings is non-NULL (checked above) and, by the spec, holds count pointers;
        // `i` is below count.
        let s = unsafe { strings.add(i).read() };
        if s.is_null() {
            return Err(ClError::InvalidValue);
        }
        // "If an element in lengths is zero, its accompanying string is null-terminated. If
        // lengths is NULL, all strings in the strings argument are considered
        // null-terminated."
        // SAFETY: lengths is non-NULL here and, by the spec, holds count entries; `i` is below
        // count.
        let len = if lengths.is_null() {
            0
        } else {
            unsafe { lengths.add(i).read() }
        };
        // SAFETY: `s` is non-NULL (checked above); by the spec it is zero-terminated when its
        // length is zero, and otherwise holds `len` bytes.
        let bytes = if len == 0 {
            unsafe { CStr::from_ptr(s) }.to_bytes()
        } else {
            unsafe { std::slice::from_raw_parts(s.cast::<u8>(), len) }
        };
        source.push_str(&String::from_utf8_lossy(bytes));
    }
    Ok(new_handle(Program::from_source(ctx, source)))
}

entry! {
    create_program_with_binary => fn clCreateProgramWithBinary(
        context: cl_context,
        num_devices: cl_uint,
        device_list: *const cl_device_id,
        lengths: *const usize,
        binaries: *mut *const u8,
        binary_status: *mut cl_int,
        ; errcode_ret
    ) -> cl_program
}

fn create_program_with_binary(
    context: cl_context,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    lengths: *const usize,
    binaries: *mut *const u8,
    binary_status: *mut cl_int,
) -> ClResult<cl_program> {
    let ctx = get::<Context, _>(context)?;
    // 5.8.1: CL_INVALID_VALUE "if lengths or binaries is NULL or if any entry in lengths[i]
    // is zero or binaries[i] is NULL".
    if lengths.is_null() || binaries.is_null() {
        return Err(ClError::InvalidValue);
    }
    for i in 0..num_devices as usize {
        // SAFETY: lengths and binaries are non-NULL (checked above) and, by the spec, hold
        // num_devices entries; `i` is below num_devices.
        if unsafe { lengths.add(i).read() } == 0 || unsafe { binaries.add(i).read() }.is_null() {
            return Err(ClError::InvalidValue);
        }
    }
    // SAFETY: device_list is NULL or, by the spec, holds num_devices handles.
    let devices = unsafe { devices_of(&ctx, num_devices, device_list) }?;
    // SAFETY: as above, and each binaries[i] is non-NULL (checked above) and lengths[i] bytes
    // long.
    let slices: Vec<&[u8]> = (0..num_devices as usize)
        .map(|i| unsafe {
            std::slice::from_raw_parts(binaries.add(i).read(), lengths.add(i).read())
        })
        .collect();
    let made = Program::from_binaries(ctx, devices, &slices);
    // CL_INVALID_BINARY "if an invalid program binary was encountered for any device";
    // binary_status gets each device's result.
    if !binary_status.is_null() {
        let statuses: Vec<cl_int> = match &made {
            Ok(_) => vec![CL_SUCCESS; num_devices as usize],
            Err(each) => each
                .iter()
                .map(|r| r.map_or_else(|e| e.code(), |_| CL_SUCCESS))
                .collect(),
        };
        for (i, s) in statuses.into_iter().enumerate() {
            // SAFETY: binary_status is non-NULL (checked above) and, by the spec, holds
            // num_devices entries; `statuses` has one per device.
            unsafe { binary_status.add(i).write(s) };
        }
    }
    made.map(new_handle).map_err(|_| ClError::InvalidBinary)
}

entry! {
    create_program_with_built_in_kernels => fn clCreateProgramWithBuiltInKernels(
        context: cl_context,
        num_devices: cl_uint,
        device_list: *const cl_device_id,
        kernel_names: *const c_char,
        ; errcode_ret
    ) -> cl_program
}

fn create_program_with_built_in_kernels(
    context: cl_context,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    kernel_names: *const c_char,
) -> ClResult<cl_program> {
    let ctx = get::<Context, _>(context)?;
    // SAFETY: device_list is NULL or, by the spec, holds num_devices handles.
    unsafe { devices_of(&ctx, num_devices, device_list) }?;
    // 5.8.1: CL_INVALID_VALUE "if kernel_names is NULL or kernel_names contains a kernel
    // name that is not supported by any of the devices in device_list"; no device has
    // built-in kernels (CL_DEVICE_BUILT_IN_KERNELS is empty).
    let _ = kernel_names;
    Err(ClError::InvalidValue)
}

entry! {
    create_program_with_il => fn clCreateProgramWithIL(
        context: cl_context,
        il: *const c_void,
        length: usize,
        ; errcode_ret
    ) -> cl_program
}

fn create_program_with_il(
    context: cl_context,
    il: *const c_void,
    length: usize,
) -> ClResult<cl_program> {
    get::<Context, _>(context)?;
    // 5.8.1: CL_INVALID_VALUE "if il is NULL or if length is zero"; CL_INVALID_OPERATION
    // "if no devices in context support intermediate language programs".
    if il.is_null() || length == 0 {
        return Err(ClError::InvalidValue);
    }
    Err(ClError::InvalidOperation)
}

entry! {
    retain_program => fn clRetainProgram(program: cl_program) -> cl_int
}

fn retain_program(program: cl_program) -> ClResult<()> {
    handle::retain::<Program, _>(program)
}

entry! {
    release_program => fn clReleaseProgram(program: cl_program) -> cl_int
}

fn release_program(program: cl_program) -> ClResult<()> {
    handle::release::<Program, _>(program)
}

/// The checks clBuildProgram and clCompileProgram share; returns the program and the devices
/// named (empty for all).
///
/// # Safety
/// `device_list` is NULL or points at `num_devices` handles.
unsafe fn build_target(
    program: cl_program,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    pfn_notify: BuildNotify,
    user_data: *mut c_void,
) -> ClResult<(Arc<Program>, Vec<Arc<Device>>)> {
    let prog = get::<Program, _>(program)?;
    // 5.8.6: CL_INVALID_VALUE "if device_list is NULL and num_devices is greater than zero, or
    // if device_list is not NULL and num_devices is zero", "if pfn_notify is NULL but
    // user_data is not NULL".
    if device_list.is_null() != (num_devices == 0) || (pfn_notify.is_none() && !user_data.is_null())
    {
        return Err(ClError::InvalidValue);
    }
    let mut devices = Vec::new();
    if !device_list.is_null() {
        // SAFETY: the caller's contract.
        devices = unsafe { get_list::<Device, _>(device_list, num_devices) }?;
        // CL_INVALID_DEVICE "if OpenCL devices listed in device_list are not in the list of
        // devices associated with program".
        if devices
            .iter()
            .any(|d| !prog.devices.iter().any(|p| Arc::ptr_eq(p, d)))
        {
            return Err(ClError::InvalidDevice);
        }
    }
    // CL_INVALID_OPERATION "if there are kernel objects attached to program".
    if prog.has_kernels() {
        return Err(ClError::InvalidOperation);
    }
    Ok((prog, devices))
}

/// Reads an options string (NULL is empty).
///
/// # Safety
/// `options` is NULL or NUL-terminated.
unsafe fn options_text(options: *const c_char) -> String {
    if options.is_null() {
        String::new()
    } else {
        // SAFETY: the caller's contract.
        unsafe { CStr::from_ptr(options) }
            .to_string_lossy()
            .into_owned()
    }
}

/// Calls a build's `pfn_notify` once the build has ended. 5.8.6: "If pfn_notify is not NULL,
/// clBuildProgram does not need to wait for the build to complete" — builds here complete
/// before the call returns, and the callback runs then.
fn notify(program: cl_program, pfn_notify: BuildNotify, user_data: *mut c_void) {
    if let Some(f) = pfn_notify {
        // SAFETY: the application registered this callback with this signature.
        unsafe { f(program, user_data) };
    }
}

entry! {
    build_program => fn clBuildProgram(
        program: cl_program,
        num_devices: cl_uint,
        device_list: *const cl_device_id,
        options: *const c_char,
        pfn_notify: BuildNotify,
        user_data: *mut c_void,
    ) -> cl_int
}

fn build_program(
    program: cl_program,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    options: *const c_char,
    pfn_notify: BuildNotify,
    user_data: *mut c_void,
) -> ClResult<()> {
    // SAFETY: device_list is NULL or, by the spec, holds num_devices handles.
    let (prog, devices) =
        unsafe { build_target(program, num_devices, device_list, pfn_notify, user_data) }?;
    // SAFETY: options is NULL or, by the spec, a zero-terminated string.
    let options = unsafe { options_text(options) };
    let result = prog.build(&devices, &options);
    if result != Err(ClError::CompilerNotAvailable) {
        notify(program, pfn_notify, user_data);
    }
    result
}

entry! {
    compile_program => fn clCompileProgram(
        program: cl_program,
        num_devices: cl_uint,
        device_list: *const cl_device_id,
        options: *const c_char,
        num_input_headers: cl_uint,
        input_headers: *const cl_program,
        header_include_names: *mut *const c_char,
        pfn_notify: BuildNotify,
        user_data: *mut c_void,
    ) -> cl_int
}

fn compile_program(
    program: cl_program,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    options: *const c_char,
    num_input_headers: cl_uint,
    input_headers: *const cl_program,
    header_include_names: *mut *const c_char,
    pfn_notify: BuildNotify,
    user_data: *mut c_void,
) -> ClResult<()> {
    // 5.8.7: CL_INVALID_VALUE "if num_input_headers is zero and header_include_names or
    // input_headers are not NULL or if num_input_headers is not zero and
    // header_include_names or input_headers are NULL".
    if (num_input_headers == 0) != (input_headers.is_null() && header_include_names.is_null())
        || (num_input_headers != 0 && (input_headers.is_null() || header_include_names.is_null()))
    {
        return Err(ClError::InvalidValue);
    }
    // SAFETY: device_list is NULL or, by the spec, holds num_devices handles.
    let (prog, devices) =
        unsafe { build_target(program, num_devices, device_list, pfn_notify, user_data) }?;
    // "Each header ... is a program object that contains the header source"; the names are
    // how #include directives refer to them.
    let mut headers = Vec::with_capacity(num_input_headers as usize);
    for i in 0..num_input_headers as usize {
        // SAFETY: input_headers is non-NULL when num_input_headers is not zero (checked above)
        // and, by the spec, holds num_input_headers handles; `i` is below that count.
        let header = get::<Program, _>(unsafe { input_headers.add(i).read() })?;
        // SAFETY: as above, for header_include_names.
        let name = unsafe { header_include_names.add(i).read() };
        if name.is_null() {
            return Err(ClError::InvalidValue);
        }
        // SAFETY: `name` is non-NULL (checked above) and, by the spec, a zero-terminated
        // string.
        headers.push((
            unsafe { CStr::from_ptr(name) }
                .to_string_lossy()
                .into_owned(),
            header.source().to_string(),
        ));
    }
    // SAFETY: options is NULL or, by the spec, a zero-terminated string.
    let options = unsafe { options_text(options) };
    let result = prog.compile(&devices, &options, &headers);
    if result != Err(ClError::CompilerNotAvailable) {
        notify(program, pfn_notify, user_data);
    }
    result
}

entry! {
    link_program => fn clLinkProgram(
        context: cl_context,
        num_devices: cl_uint,
        device_list: *const cl_device_id,
        options: *const c_char,
        num_input_programs: cl_uint,
        input_programs: *const cl_program,
        pfn_notify: BuildNotify,
        user_data: *mut c_void,
        ; errcode_ret
    ) -> cl_program, with_status
}

fn link_program(
    context: cl_context,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    options: *const c_char,
    num_input_programs: cl_uint,
    input_programs: *const cl_program,
    pfn_notify: BuildNotify,
    user_data: *mut c_void,
) -> ClResult<(cl_program, ClResult<()>)> {
    let ctx = get::<Context, _>(context)?;
    // 5.8.8: CL_INVALID_VALUE "if num_input_programs is zero and input_programs is NULL or
    // if num_input_programs is zero and input_programs is not NULL or if num_input_programs
    // is not zero and input_programs is NULL", with the device-list and callback rules of
    // clBuildProgram.
    if num_input_programs == 0
        || input_programs.is_null()
        || device_list.is_null() != (num_devices == 0)
        || (pfn_notify.is_none() && !user_data.is_null())
    {
        return Err(ClError::InvalidValue);
    }
    // SAFETY: input_programs is non-NULL (checked above) and, by the spec, holds
    // num_input_programs handles.
    let inputs = unsafe { get_list::<Program, _>(input_programs, num_input_programs) }?;
    // CL_INVALID_DEVICE "if any device in device_list is not in the list of devices
    // associated with context".
    // SAFETY: device_list is NULL or, by the spec, holds num_devices handles.
    let devices = if device_list.is_null() {
        ctx.devices.clone()
    } else {
        unsafe { devices_of(&ctx, num_devices, device_list) }?
    };
    // CL_LINKER_NOT_AVAILABLE "if a linker is not available i.e.
    // CL_DEVICE_LINKER_AVAILABLE specified in the Device Queries table is set to CL_FALSE".
    if devices.iter().any(|d| !d.info.linker_available) {
        return Err(ClError::LinkerNotAvailable);
    }
    // CL_INVALID_CONTEXT-like mismatches: every input must belong to this context.
    if inputs.iter().any(|p| !Arc::ptr_eq(&p.context, &ctx)) {
        return Err(ClError::InvalidProgram);
    }
    // SAFETY: options is NULL or, by the spec, a zero-terminated string.
    let options = unsafe { options_text(options) };
    // 5.8.8: "If the linking operation can begin, clLinkProgram returns a valid non-zero
    // program object", and errcode_ret is CL_LINK_PROGRAM_FAILURE "if there is a failure
    // to link the compiled binaries and/or libraries" (the reason is in the build log).
    let (linked, status) = Program::link(ctx, devices, &options, &inputs)?;
    let handle: cl_program = new_handle(linked);
    notify(handle, pfn_notify, user_data);
    Ok((handle, status))
}

entry! {
    get_program_info => fn clGetProgramInfo(
        program: cl_program,
        param_name: cl_program_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int
}

fn get_program_info(
    program: cl_program,
    param_name: cl_program_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> ClResult<()> {
    let prog = get::<Program, _>(program)?;
    let bytes = match param_name {
        CL_PROGRAM_REFERENCE_COUNT => info::of(&handle::ref_count::<Program, _>(program)?),
        CL_PROGRAM_CONTEXT => info::of(&handle::handle_of::<Context, c_void>(&prog.context)),
        CL_PROGRAM_NUM_DEVICES => info::of(&(prog.devices.len() as cl_uint)),
        CL_PROGRAM_DEVICES => info::of(
            &prog
                .devices
                .iter()
                .map(handle::handle_of::<Device, c_void>)
                .collect::<Vec<_>>(),
        ),
        CL_PROGRAM_SOURCE => info::of(prog.source()),
        CL_PROGRAM_IL => Vec::new(),
        CL_PROGRAM_BINARY_SIZES => {
            info::of(&prog.binaries().iter().map(Vec::len).collect::<Vec<usize>>())
        }
        CL_PROGRAM_BINARIES => {
            // "param_value points to an array of n pointers allocated by the caller", each
            // large enough for its device's binary; a NULL entry is skipped.
            let binaries = prog.binaries();
            let size = binaries.len() * std::mem::size_of::<*mut u8>();
            if !param_value.is_null() {
                if param_value_size < size {
                    return Err(ClError::InvalidValue);
                }
                let outs = param_value.cast::<*mut u8>();
                for (i, b) in binaries.iter().enumerate() {
                    // SAFETY: param_value is non-NULL (checked above) and, by the spec, an
                    // array of one pointer per device, param_value_size checked above to hold
                    // them all.
                    let out = unsafe { outs.add(i).read() };
                    if !out.is_null() {
                        // SAFETY: `out` is non-NULL and, by the spec, large enough for this
                        // device's binary, whose size CL_PROGRAM_BINARY_SIZES reports.
                        unsafe { std::ptr::copy_nonoverlapping(b.as_ptr(), out, b.len()) };
                    }
                }
            }
            if !param_value_size_ret.is_null() {
                // SAFETY: param_value_size_ret is non-NULL (checked above) and, by the spec,
                // writable.
                unsafe { param_value_size_ret.write(size) };
            }
            return Ok(());
        }
        // 5.8.9: CL_INVALID_PROGRAM_EXECUTABLE "if param_name is CL_PROGRAM_NUM_KERNELS or
        // CL_PROGRAM_KERNEL_NAMES and a successful program executable has not been built
        // for at least one device in the list of devices associated with program".
        CL_PROGRAM_NUM_KERNELS => info::of(
            &prog
                .kernel_names()
                .ok_or(ClError::InvalidProgramExecutable)?
                .len(),
        ),
        CL_PROGRAM_KERNEL_NAMES => info::of(
            &prog
                .kernel_names()
                .ok_or(ClError::InvalidProgramExecutable)?
                .join(";"),
        ),
        CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT | CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT => {
            info::of(&false)
        }
        _ => return Err(ClError::InvalidValue),
    };
    // SAFETY: by the spec, param_value is NULL or writable for param_value_size bytes, and
    // param_value_size_ret NULL or writable: `answer`'s contract.
    unsafe { answer(&bytes, param_value_size, param_value, param_value_size_ret) }
}

entry! {
    get_program_build_info => fn clGetProgramBuildInfo(
        program: cl_program,
        device: cl_device_id,
        param_name: cl_program_build_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int
}

fn get_program_build_info(
    program: cl_program,
    device: cl_device_id,
    param_name: cl_program_build_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> ClResult<()> {
    let prog = get::<Program, _>(program)?;
    let dev = get::<Device, _>(device)?;
    // 5.8.9: CL_INVALID_DEVICE "if device is not in the list of devices associated with
    // program".
    if !prog.devices.iter().any(|d| Arc::ptr_eq(d, &dev)) {
        return Err(ClError::InvalidDevice);
    }
    let build = prog.build_info(&dev).ok_or(ClError::InvalidDevice)?;
    let bytes = match param_name {
        CL_PROGRAM_BUILD_STATUS => info::of(&build.status.code()),
        CL_PROGRAM_BUILD_OPTIONS => info::of(&build.options),
        CL_PROGRAM_BUILD_LOG => info::of(&build.log),
        CL_PROGRAM_BINARY_TYPE => info::of(&match build.binary_type {
            BinaryType::None => CL_PROGRAM_BINARY_TYPE_NONE,
            BinaryType::CompiledObject => CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT,
            BinaryType::Library => CL_PROGRAM_BINARY_TYPE_LIBRARY,
            BinaryType::Executable => CL_PROGRAM_BINARY_TYPE_EXECUTABLE,
        }),
        CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE => info::of(&build.global_variable_total_size),
        _ => return Err(ClError::InvalidValue),
    };
    // SAFETY: by the spec, param_value is NULL or writable for param_value_size bytes, and
    // param_value_size_ret NULL or writable: `answer`'s contract.
    unsafe { answer(&bytes, param_value_size, param_value, param_value_size_ret) }
}

entry! {
    set_program_release_callback => fn clSetProgramReleaseCallback(
        program: cl_program,
        pfn_notify: BuildNotify,
        user_data: *mut c_void,
    ) -> cl_int
}

fn set_program_release_callback(
    program: cl_program,
    pfn_notify: BuildNotify,
    user_data: *mut c_void,
) -> ClResult<()> {
    let _ = user_data;
    get::<Program, _>(program)?;
    if pfn_notify.is_none() {
        return Err(ClError::InvalidValue);
    }
    // Appendix H, "Program Initialization and Clean-Up Kernels": clSetProgramReleaseCallback
    // "Returns CL_INVALID_OPERATION if no devices in the context associated with program
    // support program initialization and clean-up kernels", and no ferrocl device does
    // (OpenCL C has no constructors for program-scope variables).
    Err(ClError::InvalidOperation)
}

entry! {
    set_program_specialization_constant => fn clSetProgramSpecializationConstant(
        program: cl_program,
        spec_id: cl_uint,
        spec_size: usize,
        spec_value: *const c_void,
    ) -> cl_int
}

fn set_program_specialization_constant(
    program: cl_program,
    spec_id: cl_uint,
    spec_size: usize,
    spec_value: *const c_void,
) -> ClResult<()> {
    let _ = (spec_id, spec_size, spec_value);
    get::<Program, _>(program)?;
    // 5.8.3: CL_INVALID_OPERATION "if no devices associated with program support
    // intermediate language programs".
    Err(ClError::InvalidOperation)
}
