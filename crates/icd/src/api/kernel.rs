//! Chapters 5.9 and 5.10 of the API: kernel objects, their arguments and queries, and kernel
//! execution (`clEnqueueNDRangeKernel`, `clEnqueueTask`, `clEnqueueNativeKernel`).

use std::ffi::{c_char, c_void, CStr};
use std::sync::Arc;

use ferrocl_core::device::NdRange;
use ferrocl_core::event::command;
use ferrocl_core::kernel::{default_local_size, ArgValue};
use ferrocl_core::program::Program;
use ferrocl_core::{ClError, ClResult, CommandQueue, Context, Device, Kernel, MemObject, Work};
use ferrocl_ir::{AccessQualifier, AddrSpace, ArgKind, TypeQualifiers};
use opencl_sys::*;

use crate::api::event::{give_event, wait_list};
use crate::entry::entry;
use crate::handle::{self, get, new_handle};
use crate::info::{self, answer};

entry! {
    create_kernel => fn clCreateKernel(
        program: cl_program,
        kernel_name: *const c_char,
        ; errcode_ret
    ) -> cl_kernel
}

fn create_kernel(program: cl_program, kernel_name: *const c_char) -> ClResult<cl_kernel> {
    let prog = get::<Program, _>(program)?;
    // 5.9.1: CL_INVALID_VALUE "if kernel_name is NULL".
    if kernel_name.is_null() {
        return Err(ClError::InvalidValue);
    }
    // SAFETY: kernel_name is non-NULL (checked above) and, by the spec, a zero-terminated
    // string.
    let name = unsafe { CStr::from_ptr(kernel_name) }.to_string_lossy();
    // CL_INVALID_PROGRAM_EXECUTABLE "if there is no successfully built executable for
    // program"; CL_INVALID_KERNEL_NAME "if kernel_name is not found in program".
    Ok(new_handle(Kernel::new(&prog, &name)?))
}

entry! {
    create_kernels_in_program => fn clCreateKernelsInProgram(
        program: cl_program,
        num_kernels: cl_uint,
        kernels: *mut cl_kernel,
        num_kernels_ret: *mut cl_uint,
    ) -> cl_int
}

fn create_kernels_in_program(
    program: cl_program,
    num_kernels: cl_uint,
    kernels: *mut cl_kernel,
    num_kernels_ret: *mut cl_uint,
) -> ClResult<()> {
    let prog = get::<Program, _>(program)?;
    let names = prog
        .kernel_names()
        .ok_or(ClError::InvalidProgramExecutable)?;
    // 5.9.1: CL_INVALID_VALUE "if kernels is not NULL and num_kernels is less than the
    // number of kernels in program".
    if !kernels.is_null() && (num_kernels as usize) < names.len() {
        return Err(ClError::InvalidValue);
    }
    if !kernels.is_null() {
        let made = names
            .iter()
            .map(|n| Kernel::new(&prog, n))
            .collect::<ClResult<Vec<_>>>()?;
        for (i, k) in made.into_iter().enumerate() {
            // SAFETY: kernels is non-NULL (checked above) and, by the spec, holds num_kernels
            // entries, checked above to be at least `names.len()`.
            unsafe { kernels.add(i).write(new_handle(k)) };
        }
    }
    if !num_kernels_ret.is_null() {
        // SAFETY: num_kernels_ret is non-NULL (checked above) and, by the spec, writable.
        unsafe { num_kernels_ret.write(names.len() as cl_uint) };
    }
    Ok(())
}

entry! {
    retain_kernel => fn clRetainKernel(kernel: cl_kernel) -> cl_int
}

fn retain_kernel(kernel: cl_kernel) -> ClResult<()> {
    handle::retain::<Kernel, _>(kernel)
}

entry! {
    release_kernel => fn clReleaseKernel(kernel: cl_kernel) -> cl_int
}

fn release_kernel(kernel: cl_kernel) -> ClResult<()> {
    handle::release::<Kernel, _>(kernel)
}

entry! {
    clone_kernel => fn clCloneKernel(source_kernel: cl_kernel; errcode_ret) -> cl_kernel
}

fn clone_kernel(source_kernel: cl_kernel) -> ClResult<cl_kernel> {
    Ok(new_handle(get::<Kernel, _>(source_kernel)?.clone_kernel()))
}

entry! {
    set_kernel_arg => fn clSetKernelArg(
        kernel: cl_kernel,
        arg_index: cl_uint,
        arg_size: usize,
        arg_value: *const c_void,
    ) -> cl_int
}

fn set_kernel_arg(
    kernel: cl_kernel,
    arg_index: cl_uint,
    arg_size: usize,
    arg_value: *const c_void,
) -> ClResult<()> {
    let k = get::<Kernel, _>(kernel)?;
    // 5.9.2: CL_INVALID_ARG_INDEX "if arg_index is not a valid argument index".
    let arg = k.arg(arg_index as usize)?;
    // CL_INVALID_ARG_SIZE "if arg_size does not match the size of the data type for an
    // argument that is not a memory object or if the argument is a memory object and
    // arg_size != sizeof(cl_mem) or if arg_size is zero and the argument is declared with
    // the local qualifier or if the argument is a sampler and arg_size !=
    // sizeof(cl_sampler)".
    let mem_value;
    let value = match arg.kind {
        ArgKind::Buffer => {
            if arg_size != std::mem::size_of::<cl_mem>() {
                return Err(ClError::InvalidArgSize);
            }
            // A NULL arg_value, or a NULL cl_mem, gives a NULL buffer.
            // SAFETY: arg_value is non-NULL here and, by the spec, points at arg_size bytes,
            // checked above to be a cl_mem's size; it need not be aligned.
            let mem = if arg_value.is_null() {
                std::ptr::null_mut()
            } else {
                unsafe { arg_value.cast::<cl_mem>().read_unaligned() }
            };
            mem_value = if mem.is_null() {
                None
            } else {
                // CL_INVALID_MEM_OBJECT "for an argument declared to be a memory object when
                // the specified arg_value is not a valid memory object".
                let m = get::<MemObject, _>(mem)?;
                // A buffer argument takes a buffer, not an image or a pipe.
                if !m.is_buffer() {
                    return Err(ClError::InvalidMemObject);
                }
                Some(m)
            };
            ArgValue::Mem(mem_value.as_ref())
        }
        ArgKind::Local => {
            // CL_INVALID_ARG_VALUE "if the argument is declared with the local qualifier
            // and arg_value is not NULL".
            if !arg_value.is_null() {
                return Err(ClError::InvalidArgValue);
            }
            if arg_size == 0 {
                return Err(ClError::InvalidArgSize);
            }
            ArgValue::Local(arg_size)
        }
        ArgKind::Value | ArgKind::Aggregate => {
            // CL_INVALID_ARG_VALUE "if arg_value specified is not a valid value" (NULL for
            // an argument passed by value). Structs and unions are data types too: their
            // size is the one the compiler laid out.
            if arg_value.is_null() {
                return Err(ClError::InvalidArgValue);
            }
            if arg_size != arg.size as usize {
                return Err(ClError::InvalidArgSize);
            }
            // SAFETY: arg_value is non-NULL (checked above) and, by the spec, points at
            // arg_size bytes.
            ArgValue::Bytes(
                unsafe { std::slice::from_raw_parts(arg_value.cast::<u8>(), arg_size) }.to_vec(),
            )
        }
        ArgKind::Image | ArgKind::Pipe => {
            if arg_size != std::mem::size_of::<cl_mem>() || arg_value.is_null() {
                return Err(if arg_value.is_null() {
                    ClError::InvalidArgValue
                } else {
                    ClError::InvalidArgSize
                });
            }
            // SAFETY: arg_value is non-NULL and, by the spec, points at a cl_mem (its size was
            // checked above); it need not be aligned.
            let mem = unsafe { arg_value.cast::<cl_mem>().read_unaligned() };
            // CL_INVALID_MEM_OBJECT "for an argument declared to be a memory object when the
            // specified arg_value is not a valid memory object"; an image argument takes an
            // image object, a pipe argument a pipe object.
            let m = get::<MemObject, _>(mem)?;
            let fits = match arg.kind {
                ArgKind::Image => m.as_image().is_some(),
                _ => m.as_pipe().is_some(),
            };
            if !fits {
                return Err(ClError::InvalidMemObject);
            }
            mem_value = Some(m);
            ArgValue::Mem(mem_value.as_ref())
        }
        // The kernel receives the sampler's bit-field (the kernel ABI).
        ArgKind::Sampler => {
            if arg_size != std::mem::size_of::<cl_sampler>() {
                return Err(ClError::InvalidArgSize);
            }
            // CL_INVALID_SAMPLER "for an argument declared to be of type sampler_t when the
            // specified arg_value is not a valid sampler object".
            if arg_value.is_null() {
                return Err(ClError::InvalidSampler);
            }
            // SAFETY: arg_value is non-NULL and, by the spec, points at a cl_sampler (its size
            // was checked above); it need not be aligned.
            let handle = unsafe { arg_value.cast::<cl_sampler>().read_unaligned() };
            let (_, bits) = crate::api::image::sampler_arg(handle)?;
            ArgValue::Bytes(bits.to_ne_bytes().to_vec())
        }
        // CL_INVALID_DEVICE_QUEUE "for an argument declared to be of type queue_t when the
        // specified arg_value is not a valid device queue object": none can be created.
        ArgKind::Queue => {
            if arg_size != std::mem::size_of::<cl_command_queue>() {
                return Err(ClError::InvalidArgSize);
            }
            return Err(ClError::InvalidDeviceQueue);
        }
    };
    k.set_arg(arg_index as usize, value)
}

entry! {
    set_kernel_arg_svm_pointer => fn clSetKernelArgSVMPointer(
        kernel: cl_kernel,
        arg_index: cl_uint,
        arg_value: *const c_void,
    ) -> cl_int
}

fn set_kernel_arg_svm_pointer(
    kernel: cl_kernel,
    arg_index: cl_uint,
    arg_value: *const c_void,
) -> ClResult<()> {
    let k = get::<Kernel, _>(kernel)?;
    let ctx = k.program.context.clone();
    // 5.9.2: CL_INVALID_OPERATION "if no devices in the context associated with kernel
    // support SVM".
    if ctx.devices.iter().all(|d| d.info.svm_capabilities == 0) {
        return Err(ClError::InvalidOperation);
    }
    let arg = k.arg(arg_index as usize)?;
    // "The SVM pointer can only be used for arguments that are declared to be a pointer to
    // global or constant memory"; for any other, CL_INVALID_ARG_VALUE "if arg_value specified
    // is not a valid value".
    if arg.kind != ArgKind::Buffer {
        return Err(ClError::InvalidArgValue);
    }
    let p = arg_value as usize;
    // "The SVM pointer value specified as the argument value can be the pointer returned by
    // clSVMAlloc or can be a pointer offset into the SVM region"; with fine-grain system
    // sharing ("sharing the host's entire virtual memory including memory allocated using
    // malloc") any host address is one, without it no other. NULL passes a null pointer, as
    // clSetKernelArg does for a NULL buffer.
    let system = ctx
        .devices
        .iter()
        .any(|d| d.info.svm_capabilities & ferrocl_core::svm::caps::FINE_GRAIN_SYSTEM != 0);
    if p != 0 && !system && ferrocl_core::svm::find(&ctx, p).is_none() {
        return Err(ClError::InvalidArgValue);
    }
    k.set_arg(arg_index as usize, ArgValue::Svm(p))
}

entry! {
    set_kernel_exec_info => fn clSetKernelExecInfo(
        kernel: cl_kernel,
        param_name: cl_kernel_exec_info,
        param_value_size: usize,
        param_value: *const c_void,
    ) -> cl_int
}

fn set_kernel_exec_info(
    kernel: cl_kernel,
    param_name: cl_kernel_exec_info,
    param_value_size: usize,
    param_value: *const c_void,
) -> ClResult<()> {
    let k = get::<Kernel, _>(kernel)?;
    let ctx = &k.program.context;
    let caps = ctx
        .devices
        .iter()
        .fold(0, |c, d| c | d.info.svm_capabilities);
    match param_name {
        // 5.9.3: CL_INVALID_OPERATION "for CL_KERNEL_EXEC_INFO_SVM_PTRS and
        // CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM if no devices in the context associated
        // with kernel support SVM".
        CL_KERNEL_EXEC_INFO_SVM_PTRS | CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM if caps == 0 => {
            Err(ClError::InvalidOperation)
        }
        // The pointers a kernel may reach besides its arguments: every device shares host
        // memory, so there is nothing to make resident; the list is checked and not kept.
        // CL_INVALID_VALUE "if param_value is NULL or if param_value_size is too small".
        CL_KERNEL_EXEC_INFO_SVM_PTRS => {
            if param_value_size % std::mem::size_of::<*mut c_void>() != 0
                || (param_value.is_null() && param_value_size != 0)
            {
                return Err(ClError::InvalidValue);
            }
            Ok(())
        }
        CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM => {
            if param_value.is_null() || param_value_size != std::mem::size_of::<cl_bool>() {
                return Err(ClError::InvalidValue);
            }
            // SAFETY: by the spec param_value points at a cl_bool (its size checked above).
            let on = unsafe { param_value.cast::<cl_bool>().read_unaligned() };
            // 5.9.3: CL_INVALID_OPERATION "for CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM if
            // param_value is CL_TRUE but no devices in context associated with kernel support
            // fine-grain system SVM allocations".
            if on != CL_FALSE && caps & ferrocl_core::svm::caps::FINE_GRAIN_SYSTEM == 0 {
                return Err(ClError::InvalidOperation);
            }
            Ok(())
        }
        _ => Err(ClError::InvalidValue),
    }
}

/// `CL_KERNEL_ATTRIBUTES`: the attributes as written in the source.
fn attributes(k: &Kernel) -> String {
    let mut parts = Vec::new();
    if let Some([x, y, z]) = k.info.reqd_work_group_size {
        parts.push(format!("reqd_work_group_size({x},{y},{z})"));
    }
    if let Some([x, y, z]) = k.info.work_group_size_hint {
        parts.push(format!("work_group_size_hint({x},{y},{z})"));
    }
    if let Some(t) = &k.info.vec_type_hint {
        parts.push(format!("vec_type_hint({t})"));
    }
    parts.join(" ")
}

entry! {
    get_kernel_info => fn clGetKernelInfo(
        kernel: cl_kernel,
        param_name: cl_kernel_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int
}

fn get_kernel_info(
    kernel: cl_kernel,
    param_name: cl_kernel_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> ClResult<()> {
    let k = get::<Kernel, _>(kernel)?;
    let bytes = match param_name {
        CL_KERNEL_FUNCTION_NAME => info::of(&k.name),
        CL_KERNEL_NUM_ARGS => info::of(&(k.num_args() as cl_uint)),
        CL_KERNEL_REFERENCE_COUNT => info::of(&handle::ref_count::<Kernel, _>(kernel)?),
        CL_KERNEL_CONTEXT => info::of(&handle::handle_of::<Context, c_void>(&k.program.context)),
        CL_KERNEL_PROGRAM => info::of(&handle::handle_of::<Program, c_void>(&k.program)),
        CL_KERNEL_ATTRIBUTES => info::of(&attributes(&k)),
        _ => return Err(ClError::InvalidValue),
    };
    // SAFETY: by the spec, param_value is NULL or writable for param_value_size bytes, and
    // param_value_size_ret NULL or writable: `answer`'s contract.
    unsafe { answer(&bytes, param_value_size, param_value, param_value_size_ret) }
}

entry! {
    get_kernel_arg_info => fn clGetKernelArgInfo(
        kernel: cl_kernel,
        arg_index: cl_uint,
        param_name: cl_kernel_arg_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int
}

fn get_kernel_arg_info(
    kernel: cl_kernel,
    arg_index: cl_uint,
    param_name: cl_kernel_arg_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> ClResult<()> {
    let k = get::<Kernel, _>(kernel)?;
    let arg = k.arg(arg_index as usize)?;
    let bytes = match param_name {
        CL_KERNEL_ARG_ADDRESS_QUALIFIER => info::of(&match arg.space {
            AddrSpace::Global => CL_KERNEL_ARG_ADDRESS_GLOBAL,
            AddrSpace::Local => CL_KERNEL_ARG_ADDRESS_LOCAL,
            AddrSpace::Constant => CL_KERNEL_ARG_ADDRESS_CONSTANT,
            AddrSpace::Private | AddrSpace::Generic => CL_KERNEL_ARG_ADDRESS_PRIVATE,
        }),
        CL_KERNEL_ARG_ACCESS_QUALIFIER => info::of(&match arg.access {
            AccessQualifier::None => CL_KERNEL_ARG_ACCESS_NONE,
            AccessQualifier::ReadOnly => CL_KERNEL_ARG_ACCESS_READ_ONLY,
            AccessQualifier::WriteOnly => CL_KERNEL_ARG_ACCESS_WRITE_ONLY,
            AccessQualifier::ReadWrite => CL_KERNEL_ARG_ACCESS_READ_WRITE,
        }),
        CL_KERNEL_ARG_TYPE_NAME => info::of(&arg.type_name),
        CL_KERNEL_ARG_TYPE_QUALIFIER => {
            let mut q: cl_kernel_arg_type_qualifier = CL_KERNEL_ARG_TYPE_NONE;
            for (bit, flag) in [
                (TypeQualifiers::CONST, CL_KERNEL_ARG_TYPE_CONST),
                (TypeQualifiers::RESTRICT, CL_KERNEL_ARG_TYPE_RESTRICT),
                (TypeQualifiers::VOLATILE, CL_KERNEL_ARG_TYPE_VOLATILE),
                (TypeQualifiers::PIPE, CL_KERNEL_ARG_TYPE_PIPE),
            ] {
                if arg.quals.contains(bit) {
                    q |= flag;
                }
            }
            info::of(&q)
        }
        CL_KERNEL_ARG_NAME => info::of(&arg.name),
        _ => return Err(ClError::InvalidValue),
    };
    // SAFETY: by the spec, param_value is NULL or writable for param_value_size bytes, and
    // param_value_size_ret NULL or writable: `answer`'s contract.
    unsafe { answer(&bytes, param_value_size, param_value, param_value_size_ret) }
}

/// The device a kernel query is about. 5.9.4: "device ... can be NULL if there is only one
/// device associated with kernel"; CL_INVALID_DEVICE "if device is not in the list of devices
/// associated with kernel or if device is NULL but there is more than one device".
fn query_device(k: &Kernel, device: cl_device_id) -> ClResult<Arc<Device>> {
    if device.is_null() {
        return match k.program.devices.as_slice() {
            [only] => Ok(only.clone()),
            _ => Err(ClError::InvalidDevice),
        };
    }
    let d = get::<Device, _>(device)?;
    if !k.program.devices.iter().any(|p| Arc::ptr_eq(p, &d)) {
        return Err(ClError::InvalidDevice);
    }
    Ok(d)
}

entry! {
    get_kernel_work_group_info => fn clGetKernelWorkGroupInfo(
        kernel: cl_kernel,
        device: cl_device_id,
        param_name: cl_kernel_work_group_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int
}

fn get_kernel_work_group_info(
    kernel: cl_kernel,
    device: cl_device_id,
    param_name: cl_kernel_work_group_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> ClResult<()> {
    let k = get::<Kernel, _>(kernel)?;
    let dev = query_device(&k, device)?;
    let bytes = match param_name {
        CL_KERNEL_WORK_GROUP_SIZE => info::of(&dev.info.max_work_group_size),
        CL_KERNEL_COMPILE_WORK_GROUP_SIZE => info::of(
            &k.info
                .reqd_work_group_size
                .map_or([0usize; 3], |s| s.map(|v| v as usize)),
        ),
        CL_KERNEL_LOCAL_MEM_SIZE => info::of(&(k.local_mem_size(&dev) as cl_ulong)),
        CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE => {
            info::of(&dev.info.preferred_work_group_size_multiple)
        }
        CL_KERNEL_PRIVATE_MEM_SIZE => info::of(&(k.private_mem_size(&dev) as cl_ulong)),
        // 5.9.4: CL_KERNEL_GLOBAL_WORK_SIZE is for custom devices and built-in kernels:
        // CL_INVALID_VALUE otherwise.
        _ => return Err(ClError::InvalidValue),
    };
    // SAFETY: by the spec, param_value is NULL or writable for param_value_size bytes, and
    // param_value_size_ret NULL or writable: `answer`'s contract.
    unsafe { answer(&bytes, param_value_size, param_value, param_value_size_ret) }
}

entry! {
    get_kernel_sub_group_info => fn clGetKernelSubGroupInfo(
        kernel: cl_kernel,
        device: cl_device_id,
        param_name: cl_kernel_sub_group_info,
        input_value_size: usize,
        input_value: *const c_void,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int
}

fn get_kernel_sub_group_info(
    kernel: cl_kernel,
    device: cl_device_id,
    param_name: cl_kernel_sub_group_info,
    input_value_size: usize,
    input_value: *const c_void,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> ClResult<()> {
    let k = get::<Kernel, _>(kernel)?;
    let dev = query_device(&k, device)?;
    // 5.9.4: CL_INVALID_OPERATION "if device does not support sub-groups"
    // (CL_DEVICE_MAX_NUM_SUB_GROUPS is 0).
    if dev.info.max_num_sub_groups == 0 {
        return Err(ClError::InvalidOperation);
    }
    let word = std::mem::size_of::<usize>();
    // The local work size an NDRANGE query is about: 1 to 3 size_t values. CL_INVALID_VALUE
    // "if ... the size in bytes specified by input_value_size is not valid or if
    // input_value is NULL".
    let local_size = || -> ClResult<Vec<usize>> {
        let n = input_value_size / word;
        if input_value.is_null() || input_value_size % word != 0 || !(1..=3).contains(&n) {
            return Err(ClError::InvalidValue);
        }
        // SAFETY: the application passes input_value_size readable bytes (5.9.4).
        Ok(unsafe { std::slice::from_raw_parts(input_value.cast::<usize>(), n) }.to_vec())
    };
    // Sub-groups of dev.info.sub_group_size work-items in linear local id order, the last
    // of a work-group smaller where that size does not divide the work-group's.
    let sg = dev.info.sub_group_size.max(1) as usize;
    let largest = match k.info.reqd_work_group_size {
        Some(r) => r.iter().map(|&x| x as usize).product(),
        None => dev.info.max_work_group_size,
    };
    let bytes = match param_name {
        CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE => {
            info::of(&local_size()?.iter().product::<usize>().min(sg))
        }
        CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE => {
            info::of(&local_size()?.iter().product::<usize>().div_ceil(sg))
        }
        CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT => {
            if input_value.is_null() || input_value_size != word {
                return Err(ClError::InvalidValue);
            }
            // SAFETY: as above, one size_t.
            let count = unsafe { input_value.cast::<usize>().read_unaligned() };
            // "Other dimensions inferred from the value specified for param_value_size
            // will be filled with the value 1"; "If no work-group size can accommodate the
            // requested number of sub-groups, 0 will be returned in each element".
            let dims = (param_value_size / word).clamp(1, 3);
            let mut out = vec![1usize; dims];
            let size = count.checked_mul(sg).unwrap_or(0);
            match k.info.reqd_work_group_size {
                // A required size is the only one: it fits when it makes `count` sub-groups.
                Some([x, 1, 1]) if count > 0 && (x as usize).div_ceil(sg) == count => {
                    out[0] = x as usize
                }
                None if count > 0 && size <= largest => out[0] = size,
                _ => out.iter_mut().for_each(|v| *v = 0),
            }
            info::of(&out)
        }
        CL_KERNEL_MAX_NUM_SUB_GROUPS => info::of(&largest.div_ceil(sg)),
        // No source form names a sub-group count for ferrocl's kernels.
        CL_KERNEL_COMPILE_NUM_SUB_GROUPS => info::of(&0usize),
        _ => return Err(ClError::InvalidValue),
    };
    // SAFETY: by the spec, param_value is NULL or writable for param_value_size bytes, and
    // param_value_size_ret NULL or writable: `answer`'s contract.
    unsafe { answer(&bytes, param_value_size, param_value, param_value_size_ret) }
}

entry! {
    get_kernel_sub_group_info_khr => fn clGetKernelSubGroupInfoKHR(
        kernel: cl_kernel,
        device: cl_device_id,
        param_name: cl_kernel_sub_group_info,
        input_value_size: usize,
        input_value: *const c_void,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int
}

fn get_kernel_sub_group_info_khr(
    kernel: cl_kernel,
    device: cl_device_id,
    param_name: cl_kernel_sub_group_info,
    input_value_size: usize,
    input_value: *const c_void,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> ClResult<()> {
    // SAFETY: the arguments are passed on unchanged, with the contract the spec gives both
    // functions.
    unsafe {
        clGetKernelSubGroupInfo(
            kernel,
            device,
            param_name,
            input_value_size,
            input_value,
            param_value_size,
            param_value,
            param_value_size_ret,
        )
    }
    .pipe_code()
}

/// Turns a status code returned by another entry point back into a `ClResult`.
trait PipeCode {
    fn pipe_code(self) -> ClResult<()>;
}

impl PipeCode for cl_int {
    fn pipe_code(self) -> ClResult<()> {
        if self == CL_SUCCESS {
            Ok(())
        } else {
            Err(ClError::from_code(self).unwrap_or(ClError::OutOfHostMemory))
        }
    }
}

/// Reads `n` sizes, or None for a NULL array.
///
/// # Safety
/// `p` is NULL or points at `n` values.
unsafe fn sizes(p: *const usize, n: usize) -> Option<Vec<u64>> {
    // SAFETY: the caller's contract.
    (!p.is_null()).then(|| (0..n).map(|i| unsafe { p.add(i).read() } as u64).collect())
}

/// The checks of 5.10 on an NDRange, and its local size when the application gave none.
fn ndrange(
    k: &Kernel,
    dev: &Arc<Device>,
    work_dim: cl_uint,
    offset: Option<Vec<u64>>,
    global: Option<Vec<u64>>,
    local: Option<Vec<u64>>,
) -> ClResult<NdRange> {
    let d = &dev.info;
    // CL_INVALID_WORK_DIMENSION "if work_dim is not a valid value (i.e. a value between 1 and
    // CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS)".
    if work_dim == 0 || work_dim > d.max_work_item_dimensions {
        return Err(ClError::InvalidWorkDimension);
    }
    let n = work_dim as usize;
    let mut nd = NdRange {
        work_dim,
        global_offset: [0; 3],
        global_size: [1; 3],
        local_size: [1; 3],
    };
    // A NULL or zero global size is an empty launch on a device of OpenCL 2.1 or newer (the
    // CL_INVALID_GLOBAL_WORK_SIZE condition for it "does not apply").
    let global = global.unwrap_or_else(|| vec![0; n]);
    nd.global_size[..n].copy_from_slice(&global);
    if let Some(off) = offset {
        nd.global_offset[..n].copy_from_slice(&off);
    }
    // CL_INVALID_GLOBAL_OFFSET "if the value specified in global_work_size + the corresponding
    // values in global_work_offset for any dimensions is greater than the maximum value
    // representable by size_t".
    if (0..n).any(|i| nd.global_size[i].checked_add(nd.global_offset[i]).is_none()) {
        return Err(ClError::InvalidGlobalOffset);
    }
    let reqd = k.info.reqd_work_group_size.map(|s| s.map(u64::from));
    match local {
        Some(local) => {
            nd.local_size[..n].copy_from_slice(&local);
            // CL_INVALID_WORK_ITEM_SIZE "if the number of work-items specified in any of
            // local_work_size[0], ... local_work_size[work_dim - 1] is greater than the
            // corresponding values specified by CL_DEVICE_MAX_WORK_ITEM_SIZES".
            if (0..n).any(|i| nd.local_size[i] > d.max_work_item_sizes[i] as u64) {
                return Err(ClError::InvalidWorkItemSize);
            }
            // CL_INVALID_WORK_GROUP_SIZE "if local_work_size is specified and does not match the
            // required work-group size for kernel", or when the product "is greater than the
            // value specified by CL_KERNEL_WORK_GROUP_SIZE"; a zero size is no work-group.
            let total: u64 = nd.local_size.iter().product();
            if nd.local_size.contains(&0)
                || total > d.max_work_group_size as u64
                || reqd.is_some_and(|r| r != nd.local_size)
            {
                return Err(ClError::InvalidWorkGroupSize);
            }
            // CL_INVALID_WORK_GROUP_SIZE "if the work-group size must be uniform and the
            // local_work_size is not NULL, ... or the global_work_size is not evenly divisible
            // by the local_work_size": it must be where the device or the program does not
            // support non-uniform work-groups (5.10, the program's rules are in program.rs).
            let uniform = !d.non_uniform_work_group_support || k.program.uniform_work_groups(dev);
            if uniform && (0..n).any(|i| nd.global_size[i] % nd.local_size[i] != 0) {
                return Err(ClError::InvalidWorkGroupSize);
            }
        }
        None => {
            nd.local_size = match reqd {
                Some(r) => r,
                None => default_local_size(
                    &nd.global_size,
                    work_dim,
                    d.max_compute_units,
                    d.max_work_group_size as u64,
                    (k.preferred_group_size(dev), k.group_blind(dev)),
                ),
            };
        }
    }
    Ok(nd)
}

/// The shared body of clEnqueueNDRangeKernel and clEnqueueTask.
///
/// # Safety
/// As clEnqueueNDRangeKernel's arguments.
#[allow(clippy::too_many_arguments)]
unsafe fn enqueue_kernel(
    command_queue: cl_command_queue,
    kernel: cl_kernel,
    work_dim: cl_uint,
    offset: Option<Vec<u64>>,
    global: Option<Vec<u64>>,
    local: Option<Vec<u64>>,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
    command_type: u32,
) -> ClResult<()> {
    let queue = get::<CommandQueue, _>(command_queue)?;
    let k = get::<Kernel, _>(kernel)?;
    // SAFETY: the caller's contract.
    let deps = unsafe { wait_list(num_events, events) }?;
    // CL_INVALID_CONTEXT "if context associated with command_queue and kernel are not the same
    // or if the context associated with command_queue and events in event_wait_list are not
    // the same".
    if !Arc::ptr_eq(&queue.context, &k.program.context) {
        return Err(ClError::InvalidContext);
    }
    queue.check_wait_list(&deps)?;
    let nd = ndrange(&k, &queue.device, work_dim, offset, global, local)?;
    let ev = if nd.global_size.contains(&0) {
        queue.enqueue(command_type, Work::Nothing(Vec::new()), &deps)?
    } else {
        k.enqueue(&queue, nd, &deps, command_type)?
    };
    // SAFETY: the caller's contract.
    unsafe { give_event(event, ev) };
    Ok(())
}

entry! {
    enqueue_nd_range_kernel => fn clEnqueueNDRangeKernel(
        command_queue: cl_command_queue,
        kernel: cl_kernel,
        work_dim: cl_uint,
        global_work_offset: *const usize,
        global_work_size: *const usize,
        local_work_size: *const usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_nd_range_kernel(
    command_queue: cl_command_queue,
    kernel: cl_kernel,
    work_dim: cl_uint,
    global_work_offset: *const usize,
    global_work_size: *const usize,
    local_work_size: *const usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    let n = work_dim.min(3) as usize;
    // SAFETY: each work-size pointer is NULL or, by the spec, holds work_dim values; `n` is at
    // most work_dim.
    let (offset, global, local) = (
        unsafe { sizes(global_work_offset, n) },
        unsafe { sizes(global_work_size, n) },
        unsafe { sizes(local_work_size, n) },
    );
    // SAFETY: the C arguments, passed on with the contracts the spec gives them:
    // event_wait_list is NULL or holds num_events_in_wait_list events, event is NULL or
    // writable.
    unsafe {
        enqueue_kernel(
            command_queue,
            kernel,
            work_dim,
            offset,
            global,
            local,
            num_events_in_wait_list,
            event_wait_list,
            event,
            command::NDRANGE_KERNEL,
        )
    }
}

entry! {
    /// 5.10: clEnqueueTask "is equivalent to calling clEnqueueNDRangeKernel with work_dim set
    /// to 1, global_work_offset set to NULL, global_work_size[0] set to 1, and
    /// local_work_size[0] set to 1".
    enqueue_task => fn clEnqueueTask(
        command_queue: cl_command_queue,
        kernel: cl_kernel,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_task(
    command_queue: cl_command_queue,
    kernel: cl_kernel,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    // SAFETY: the C arguments, passed on with the contracts the spec gives them:
    // event_wait_list is NULL or holds num_events_in_wait_list events, event is NULL or
    // writable.
    unsafe {
        enqueue_kernel(
            command_queue,
            kernel,
            1,
            None,
            Some(vec![1]),
            Some(vec![1]),
            num_events_in_wait_list,
            event_wait_list,
            event,
            command::TASK,
        )
    }
}

entry! {
    enqueue_native_kernel => fn clEnqueueNativeKernel(
        command_queue: cl_command_queue,
        user_func: Option<unsafe extern "C" fn(*mut c_void)>,
        args: *mut c_void,
        cb_args: usize,
        num_mem_objects: cl_uint,
        mem_list: *const cl_mem,
        args_mem_loc: *mut *const c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_native_kernel(
    command_queue: cl_command_queue,
    user_func: Option<unsafe extern "C" fn(*mut c_void)>,
    args: *mut c_void,
    cb_args: usize,
    num_mem_objects: cl_uint,
    mem_list: *const cl_mem,
    args_mem_loc: *mut *const c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    let queue = get::<CommandQueue, _>(command_queue)?;
    // SAFETY: the spec's contract on event_wait_list: NULL or num_events_in_wait_list events.
    let deps = unsafe { wait_list(num_events_in_wait_list, event_wait_list) }?;
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
        // SAFETY: args is non-NULL when cb_args > 0 (checked above) and, by the spec, cb_args
        // bytes; `copy` holds at least cb_args bytes.
        unsafe {
            std::ptr::copy_nonoverlapping(
                args.cast::<u8>(),
                copy.as_mut_ptr().cast::<u8>(),
                cb_args,
            )
        };
    }
    // Each args_mem_loc entry points into args at a cl_mem that is replaced by the address
    // of the memory object's storage.
    // SAFETY: mem_list is non-NULL when num_mem_objects > 0 (checked above) and, by the spec,
    // holds num_mem_objects handles.
    let mems =
        unsafe { handle::get_list::<ferrocl_core::MemObject, _>(mem_list, num_mem_objects) }?;
    let mut patches = Vec::with_capacity(mems.len());
    for (i, mem) in mems.into_iter().enumerate() {
        // SAFETY: args_mem_loc is non-NULL when num_mem_objects > 0 (checked above) and, by the
        // spec, holds num_mem_objects entries; `i` is below that count.
        let loc = unsafe { args_mem_loc.add(i).read() } as usize;
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
            // The function may read and write the object's bytes, in host memory.
            mem.for_host(true)?;
            // SAFETY: offset + pointer size <= cb_args <= the copy's length.
            unsafe {
                base.add(*offset)
                    .cast::<usize>()
                    .write_unaligned(mem.base() as usize)
            };
        }
        // SAFETY: the application's native kernel, called with its own argument block.
        unsafe { f(base.cast()) };
        drop(patches);
        Ok(())
    }));
    let ev = queue.enqueue(ferrocl_core::event::command::NATIVE_KERNEL, work, &deps)?;
    // SAFETY: the spec's contract on event: NULL or writable.
    unsafe { crate::api::event::give_event(event, ev) };
    Ok(())
}
