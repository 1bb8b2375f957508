//! Chapters 5.8–5.10 of the API: programs and kernels.
//!
//! Programs can be created from source and queried. No device has a compiler yet
//! (`CL_DEVICE_COMPILER_AVAILABLE` is false), so builds answer `CL_COMPILER_NOT_AVAILABLE`, no
//! program becomes executable, and so no kernel object can exist: every entry point that takes
//! a kernel answers `CL_INVALID_KERNEL`.

use std::ffi::{c_char, c_void, CStr};
use std::sync::Arc;

use ferrocl_core::program::Program;
use ferrocl_core::{ClError, ClResult, CommandQueue, Context, Device};
use opencl_sys::*;

use crate::api::event::wait_list;
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
    fn clCreateProgramWithSource(context: cl_context, count: cl_uint, strings: *mut *const c_char, lengths: *const usize; errcode_ret) -> cl_program {
        let ctx = get::<Context, _>(context)?;
        // 5.8.1: CL_INVALID_VALUE "if count is zero or if strings or any entry in strings is
        // NULL".
        if count == 0 || strings.is_null() {
            return Err(ClError::InvalidValue);
        }
        let mut source = String::new();
        for i in 0..count as usize {
            let s = strings.add(i).read();
            if s.is_null() {
                return Err(ClError::InvalidValue);
            }
            // "If an element in lengths is zero, its accompanying string is null-terminated. If
            // lengths is NULL, all strings in the strings argument are considered
            // null-terminated."
            let len = if lengths.is_null() { 0 } else { lengths.add(i).read() };
            let bytes = if len == 0 { CStr::from_ptr(s).to_bytes() } else { std::slice::from_raw_parts(s.cast::<u8>(), len) };
            source.push_str(&String::from_utf8_lossy(bytes));
        }
        Ok(new_handle(Program::from_source(ctx, source)))
    }
}

entry! {
    fn clCreateProgramWithBinary(context: cl_context, num_devices: cl_uint, device_list: *const cl_device_id, lengths: *const usize, binaries: *mut *const u8, binary_status: *mut cl_int; errcode_ret) -> cl_program {
        let ctx = get::<Context, _>(context)?;
        devices_of(&ctx, num_devices, device_list)?;
        // 5.8.1: CL_INVALID_VALUE "if lengths or binaries is NULL or if any entry in lengths[i]
        // is zero or binaries[i] is NULL".
        if lengths.is_null() || binaries.is_null() {
            return Err(ClError::InvalidValue);
        }
        for i in 0..num_devices as usize {
            if lengths.add(i).read() == 0 || binaries.add(i).read().is_null() {
                return Err(ClError::InvalidValue);
            }
        }
        // No device produces program binaries yet, so none is valid: CL_INVALID_BINARY "if an
        // invalid program binary was encountered for any device", reported per device too.
        if !binary_status.is_null() {
            for i in 0..num_devices as usize {
                binary_status.add(i).write(CL_INVALID_BINARY);
            }
        }
        Err(ClError::InvalidBinary)
    }
}

entry! {
    fn clCreateProgramWithBuiltInKernels(context: cl_context, num_devices: cl_uint, device_list: *const cl_device_id, kernel_names: *const c_char; errcode_ret) -> cl_program {
        let ctx = get::<Context, _>(context)?;
        devices_of(&ctx, num_devices, device_list)?;
        // 5.8.1: CL_INVALID_VALUE "if kernel_names is NULL or kernel_names contains a kernel
        // name that is not supported by any of the devices in device_list"; no device has
        // built-in kernels (CL_DEVICE_BUILT_IN_KERNELS is empty).
        let _ = kernel_names;
        Err(ClError::InvalidValue)
    }
}

entry! {
    fn clCreateProgramWithIL(context: cl_context, il: *const c_void, length: usize; errcode_ret) -> cl_program {
        get::<Context, _>(context)?;
        // 5.8.1: CL_INVALID_VALUE "if il is NULL or if length is zero"; CL_INVALID_OPERATION
        // "if no devices in context support intermediate language programs".
        if il.is_null() || length == 0 {
            return Err(ClError::InvalidValue);
        }
        Err(ClError::InvalidOperation)
    }
}

entry! {
    fn clRetainProgram(program: cl_program) -> cl_int {
        handle::retain::<Program, _>(program)
    }
}

entry! {
    fn clReleaseProgram(program: cl_program) -> cl_int {
        handle::release::<Program, _>(program)
    }
}

/// The checks clBuildProgram and clCompileProgram share, then the answer of a device without
/// a compiler.
///
/// # Safety
/// `device_list` is NULL or points at `num_devices` handles.
unsafe fn build(
    program: cl_program,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    pfn_notify: BuildNotify,
    user_data: *mut c_void,
) -> ClResult<()> {
    let prog = get::<Program, _>(program)?;
    // 5.8.6: CL_INVALID_VALUE "if device_list is NULL and num_devices is greater than zero, or
    // if device_list is not NULL and num_devices is zero", "if pfn_notify is NULL but
    // user_data is not NULL".
    if device_list.is_null() != (num_devices == 0) || (pfn_notify.is_none() && !user_data.is_null())
    {
        return Err(ClError::InvalidValue);
    }
    if !device_list.is_null() {
        // SAFETY: the caller's contract.
        let devices = unsafe { get_list::<Device, _>(device_list, num_devices) }?;
        // CL_INVALID_DEVICE "if OpenCL devices listed in device_list are not in the list of
        // devices associated with program".
        if devices
            .iter()
            .any(|d| !prog.devices.iter().any(|p| Arc::ptr_eq(p, d)))
        {
            return Err(ClError::InvalidDevice);
        }
    }
    // CL_COMPILER_NOT_AVAILABLE "if program is created with clCreateProgramWithSource and a
    // compiler is not available, i.e. CL_DEVICE_COMPILER_AVAILABLE specified in the Device
    // Queries table is set to CL_FALSE".
    Err(ClError::CompilerNotAvailable)
}

entry! {
    fn clBuildProgram(program: cl_program, num_devices: cl_uint, device_list: *const cl_device_id, options: *const c_char, pfn_notify: BuildNotify, user_data: *mut c_void) -> cl_int {
        let _ = options;
        build(program, num_devices, device_list, pfn_notify, user_data)
    }
}

entry! {
    fn clCompileProgram(program: cl_program, num_devices: cl_uint, device_list: *const cl_device_id, options: *const c_char, num_input_headers: cl_uint, input_headers: *const cl_program, header_include_names: *mut *const c_char, pfn_notify: BuildNotify, user_data: *mut c_void) -> cl_int {
        let _ = (options, header_include_names);
        // 5.8.7: CL_INVALID_VALUE "if num_input_headers is zero and header_include_names or
        // input_headers are not NULL or if num_input_headers is not zero and
        // header_include_names or input_headers are NULL".
        if (num_input_headers == 0) != (input_headers.is_null() && header_include_names.is_null())
            || (num_input_headers != 0 && (input_headers.is_null() || header_include_names.is_null()))
        {
            return Err(ClError::InvalidValue);
        }
        build(program, num_devices, device_list, pfn_notify, user_data)
    }
}

entry! {
    fn clLinkProgram(context: cl_context, num_devices: cl_uint, device_list: *const cl_device_id, options: *const c_char, num_input_programs: cl_uint, input_programs: *const cl_program, pfn_notify: BuildNotify, user_data: *mut c_void; errcode_ret) -> cl_program {
        let _ = options;
        get::<Context, _>(context)?;
        // 5.8.8: CL_INVALID_VALUE "if num_input_programs is zero and input_programs is NULL or
        // if num_input_programs is zero and input_programs is not NULL or if num_input_programs
        // is not zero and input_programs is NULL", and the device-list rules of clBuildProgram.
        if num_input_programs == 0 || input_programs.is_null() || device_list.is_null() != (num_devices == 0) || (pfn_notify.is_none() && !user_data.is_null()) {
            return Err(ClError::InvalidValue);
        }
        get_list::<Program, _>(input_programs, num_input_programs)?;
        // CL_LINKER_NOT_AVAILABLE "if a linker is not available i.e.
        // CL_DEVICE_LINKER_AVAILABLE specified in the Device Queries table is set to CL_FALSE".
        Err(ClError::LinkerNotAvailable)
    }
}

entry! {
    fn clGetProgramInfo(program: cl_program, param_name: cl_program_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) -> cl_int {
        let prog = get::<Program, _>(program)?;
        let bytes = match param_name {
            CL_PROGRAM_REFERENCE_COUNT => info::of(&handle::ref_count::<Program, _>(program)?),
            CL_PROGRAM_CONTEXT => info::of(&handle::handle_of::<Context, c_void>(&prog.context)),
            CL_PROGRAM_NUM_DEVICES => info::of(&(prog.devices.len() as cl_uint)),
            CL_PROGRAM_DEVICES => info::of(&prog.devices.iter().map(handle::handle_of::<Device, c_void>).collect::<Vec<_>>()),
            CL_PROGRAM_SOURCE => info::of(&prog.source),
            CL_PROGRAM_IL => Vec::new(),
            // Nothing is built, so every binary is empty.
            CL_PROGRAM_BINARY_SIZES => info::of(&vec![0usize; prog.devices.len()]),
            CL_PROGRAM_BINARIES => {
                // An array of pointers the application provides; with every size 0 there is
                // nothing to copy into them.
                let size = prog.devices.len() * std::mem::size_of::<*mut u8>();
                if !param_value.is_null() && param_value_size < size {
                    return Err(ClError::InvalidValue);
                }
                if !param_value_size_ret.is_null() {
                    param_value_size_ret.write(size);
                }
                return Ok(());
            }
            // 5.8.9: CL_INVALID_PROGRAM_EXECUTABLE "if param_name is CL_PROGRAM_NUM_KERNELS or
            // CL_PROGRAM_KERNEL_NAMES and a successful program executable has not been built
            // for at least one device in the list of devices associated with program".
            CL_PROGRAM_NUM_KERNELS | CL_PROGRAM_KERNEL_NAMES => return Err(ClError::InvalidProgramExecutable),
            CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT | CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT => info::of(&false),
            _ => return Err(ClError::InvalidValue),
        };
        answer(&bytes, param_value_size, param_value, param_value_size_ret)
    }
}

entry! {
    fn clGetProgramBuildInfo(program: cl_program, device: cl_device_id, param_name: cl_program_build_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) -> cl_int {
        let prog = get::<Program, _>(program)?;
        let dev = get::<Device, _>(device)?;
        // 5.8.9: CL_INVALID_DEVICE "if device is not in the list of devices associated with
        // program".
        if !prog.devices.iter().any(|d| Arc::ptr_eq(d, &dev)) {
            return Err(ClError::InvalidDevice);
        }
        let bytes = match param_name {
            CL_PROGRAM_BUILD_STATUS => info::of(&CL_BUILD_NONE),
            CL_PROGRAM_BUILD_OPTIONS | CL_PROGRAM_BUILD_LOG => info::of(""),
            CL_PROGRAM_BINARY_TYPE => info::of(&CL_PROGRAM_BINARY_TYPE_NONE),
            CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE => info::of(&0usize),
            _ => return Err(ClError::InvalidValue),
        };
        answer(&bytes, param_value_size, param_value, param_value_size_ret)
    }
}

entry! {
    fn clSetProgramReleaseCallback(program: cl_program, pfn_notify: BuildNotify, user_data: *mut c_void) -> cl_int {
        let _ = user_data;
        get::<Program, _>(program)?;
        if pfn_notify.is_none() {
            return Err(ClError::InvalidValue);
        }
        // 5.8.4: CL_INVALID_OPERATION "if no devices in the context associated with program
        // support program scope global variables" (CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE is 0).
        Err(ClError::InvalidOperation)
    }
}

entry! {
    fn clSetProgramSpecializationConstant(program: cl_program, spec_id: cl_uint, spec_size: usize, spec_value: *const c_void) -> cl_int {
        let _ = (spec_id, spec_size, spec_value);
        get::<Program, _>(program)?;
        // 5.8.3: CL_INVALID_OPERATION "if no devices associated with program support
        // intermediate language programs".
        Err(ClError::InvalidOperation)
    }
}

entry! {
    fn clCreateKernel(program: cl_program, kernel_name: *const c_char; errcode_ret) -> cl_kernel {
        get::<Program, _>(program)?;
        // 5.9.1: CL_INVALID_PROGRAM_EXECUTABLE "if there is no successfully built executable
        // for program"; CL_INVALID_VALUE "if kernel_name is NULL".
        if kernel_name.is_null() {
            return Err(ClError::InvalidValue);
        }
        Err(ClError::InvalidProgramExecutable)
    }
}

entry! {
    fn clCreateKernelsInProgram(program: cl_program, num_kernels: cl_uint, kernels: *mut cl_kernel, num_kernels_ret: *mut cl_uint) -> cl_int {
        let _ = (num_kernels, kernels, num_kernels_ret);
        get::<Program, _>(program)?;
        Err(ClError::InvalidProgramExecutable)
    }
}

/// No kernel object can exist until a program can be built; every kernel handle is invalid.
fn no_kernel<H>(_kernel: *mut H) -> ClResult<()> {
    Err(ClError::InvalidKernel)
}

entry! {
    fn clRetainKernel(kernel: cl_kernel) -> cl_int {
        no_kernel(kernel)
    }
}

entry! {
    fn clReleaseKernel(kernel: cl_kernel) -> cl_int {
        no_kernel(kernel)
    }
}

entry! {
    fn clCloneKernel(source_kernel: cl_kernel; errcode_ret) -> cl_kernel {
        no_kernel(source_kernel).map(|_| std::ptr::null_mut())
    }
}

entry! {
    fn clSetKernelArg(kernel: cl_kernel, arg_index: cl_uint, arg_size: usize, arg_value: *const c_void) -> cl_int {
        let _ = (arg_index, arg_size, arg_value);
        no_kernel(kernel)
    }
}

entry! {
    fn clSetKernelArgSVMPointer(kernel: cl_kernel, arg_index: cl_uint, arg_value: *const c_void) -> cl_int {
        let _ = (arg_index, arg_value);
        no_kernel(kernel)
    }
}

entry! {
    fn clSetKernelExecInfo(kernel: cl_kernel, param_name: cl_kernel_exec_info, param_value_size: usize, param_value: *const c_void) -> cl_int {
        let _ = (param_name, param_value_size, param_value);
        no_kernel(kernel)
    }
}

entry! {
    fn clGetKernelInfo(kernel: cl_kernel, param_name: cl_kernel_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) -> cl_int {
        let _ = (param_name, param_value_size, param_value, param_value_size_ret);
        no_kernel(kernel)
    }
}

entry! {
    fn clGetKernelArgInfo(kernel: cl_kernel, arg_index: cl_uint, param_name: cl_kernel_arg_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) -> cl_int {
        let _ = (arg_index, param_name, param_value_size, param_value, param_value_size_ret);
        no_kernel(kernel)
    }
}

entry! {
    fn clGetKernelWorkGroupInfo(kernel: cl_kernel, device: cl_device_id, param_name: cl_kernel_work_group_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) -> cl_int {
        let _ = (device, param_name, param_value_size, param_value, param_value_size_ret);
        no_kernel(kernel)
    }
}

entry! {
    fn clGetKernelSubGroupInfo(kernel: cl_kernel, device: cl_device_id, param_name: cl_kernel_sub_group_info, input_value_size: usize, input_value: *const c_void, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) -> cl_int {
        let _ = (device, param_name, input_value_size, input_value, param_value_size, param_value, param_value_size_ret);
        no_kernel(kernel)
    }
}

entry! {
    fn clGetKernelSubGroupInfoKHR(kernel: cl_kernel, device: cl_device_id, param_name: cl_kernel_sub_group_info, input_value_size: usize, input_value: *const c_void, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) -> cl_int {
        let _ = (device, param_name, input_value_size, input_value, param_value_size, param_value, param_value_size_ret);
        no_kernel(kernel)
    }
}

/// The checks the kernel-launch entry points make before they look at the kernel.
///
/// # Safety
/// `list` is NULL or points at `num` handles.
unsafe fn launch_queue(
    command_queue: cl_command_queue,
    num: cl_uint,
    list: *const cl_event,
) -> ClResult<Arc<CommandQueue>> {
    let queue = get::<CommandQueue, _>(command_queue)?;
    // SAFETY: the caller's contract.
    let deps = unsafe { wait_list(num, list) }?;
    queue.check_wait_list(&deps)?;
    Ok(queue)
}

entry! {
    fn clEnqueueNDRangeKernel(command_queue: cl_command_queue, kernel: cl_kernel, work_dim: cl_uint, global_work_offset: *const usize, global_work_size: *const usize, local_work_size: *const usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) -> cl_int {
        let _ = (work_dim, global_work_offset, global_work_size, local_work_size, event);
        launch_queue(command_queue, num_events_in_wait_list, event_wait_list)?;
        no_kernel(kernel)
    }
}

entry! {
    fn clEnqueueTask(command_queue: cl_command_queue, kernel: cl_kernel, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) -> cl_int {
        let _ = event;
        launch_queue(command_queue, num_events_in_wait_list, event_wait_list)?;
        no_kernel(kernel)
    }
}

entry! {
    fn clEnqueueNativeKernel(command_queue: cl_command_queue, user_func: Option<unsafe extern "C" fn(*mut c_void)>, args: *mut c_void, cb_args: usize, num_mem_objects: cl_uint, mem_list: *const cl_mem, args_mem_loc: *mut *const c_void, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) -> cl_int {
        let queue = get::<CommandQueue, _>(command_queue)?;
        let deps = wait_list(num_events_in_wait_list, event_wait_list)?;
        queue.check_wait_list(&deps)?;
        // 5.10: CL_INVALID_OPERATION "if the device associated with command_queue cannot
        // execute the native kernel".
        if queue.device.info.execution_capabilities & CL_EXEC_NATIVE_KERNEL == 0 {
            return Err(ClError::InvalidOperation);
        }
        // 5.10: CL_INVALID_VALUE "if user_func is NULL", "if args is a NULL value and cb_args
        // > 0, or if args is a NULL value and num_mem_objects > 0", "if args is not NULL and
        // cb_args is 0", "if num_mem_objects > 0 and mem_list or args_mem_loc are NULL", "if
        // num_mem_objects = 0 and mem_list or args_mem_loc are not NULL".
        let f = user_func.ok_or(ClError::InvalidValue)?;
        if (args.is_null() && (cb_args > 0 || num_mem_objects > 0))
            || (!args.is_null() && cb_args == 0)
            || (num_mem_objects > 0 && (mem_list.is_null() || args_mem_loc.is_null()))
            || (num_mem_objects == 0 && (!mem_list.is_null() || !args_mem_loc.is_null()))
        {
            return Err(ClError::InvalidValue);
        }
        // "The data pointed to by args and cb_args bytes in size will be copied and a pointer
        // to this copied region will be passed to user_func." The copy is 8-byte aligned, as
        // the application's own argument structure may need.
        let mut copy = vec![0u64; cb_args.div_ceil(8)];
        if cb_args > 0 {
            std::ptr::copy_nonoverlapping(args.cast::<u8>(), copy.as_mut_ptr().cast::<u8>(), cb_args);
        }
        // Each args_mem_loc entry points into args at a cl_mem that is replaced by the address
        // of the memory object's storage.
        let mems = handle::get_list::<ferrocl_core::MemObject, _>(mem_list, num_mem_objects)?;
        let mut patches = Vec::with_capacity(mems.len());
        for (i, mem) in mems.into_iter().enumerate() {
            let loc = args_mem_loc.add(i).read() as usize;
            let offset = loc.wrapping_sub(args as usize);
            if loc < args as usize || offset + std::mem::size_of::<usize>() > cb_args {
                return Err(ClError::InvalidValue);
            }
            if !Arc::ptr_eq(&mem.context, &queue.context) {
                return Err(ClError::InvalidContext);
            }
            patches.push((offset, mem));
        }
        let work = ferrocl_core::Work::Host(Box::new(move || {
            let base = copy.as_mut_ptr().cast::<u8>();
            for (offset, mem) in &patches {
                // SAFETY: offset + pointer size <= cb_args <= the copy's length.
                unsafe { base.add(*offset).cast::<usize>().write_unaligned(mem.base() as usize) };
            }
            // SAFETY: the application's native kernel, called with its own argument block.
            unsafe { f(base.cast()) };
            drop(patches);
            Ok(())
        }));
        let ev = queue.enqueue(ferrocl_core::event::command::NATIVE_KERNEL, work, &deps)?;
        crate::api::event::give_event(event, ev);
        Ok(())
    }
}
