//! Chapter 5.4 of the API: pipe objects (`clCreatePipe`, `clGetPipeInfo`). A pipe is a memory
//! object whose storage holds the pipe's header, slots and packets (`ferrocl_device::
//! PipeLayout`); kernels read and write it through the pipe functions of the builtin library.

use std::ffi::c_void;

use ferrocl_core::memory::flags;
use ferrocl_core::{ClError, ClResult, Context, MemObject};
use opencl_sys::*;

use crate::entry::entry;
use crate::handle::{get, new_handle};
use crate::info::{self, answer};

entry! {
    create_pipe => fn clCreatePipe(
        context: cl_context,
        flags: cl_mem_flags,
        pipe_packet_size: cl_uint,
        pipe_max_packets: cl_uint,
        properties: *const cl_pipe_properties,
        ; errcode_ret
    ) -> cl_mem
}

fn create_pipe(
    context: cl_context,
    flags_: cl_mem_flags,
    pipe_packet_size: cl_uint,
    pipe_max_packets: cl_uint,
    properties: *const cl_pipe_properties,
) -> ClResult<cl_mem> {
    let ctx = get::<Context, _>(context)?;
    // 5.4.1: CL_INVALID_OPERATION "if no devices in context support pipes".
    if !ctx.devices.iter().any(|d| d.info.pipe_support) {
        return Err(ClError::InvalidOperation);
    }
    // "Only CL_MEM_READ_WRITE and CL_MEM_HOST_NO_ACCESS can be specified when creating a pipe
    // object": CL_INVALID_VALUE "if values specified in flags are not as defined above" (and
    // so for CL_MEM_IMMUTABLE_EXT). "If the value specified for flags is 0, the default is used
    // which is CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS."
    if flags_ & !(flags::READ_WRITE | flags::HOST_NO_ACCESS) != 0 {
        return Err(ClError::InvalidValue);
    }
    let flags_ = if flags_ == 0 {
        flags::READ_WRITE | flags::HOST_NO_ACCESS
    } else {
        flags_
    };
    // CL_INVALID_VALUE "if properties is not NULL".
    if !properties.is_null() {
        return Err(ClError::InvalidValue);
    }
    // CL_INVALID_PIPE_SIZE "if pipe_packet_size is 0 or the pipe_packet_size exceeds
    // CL_DEVICE_PIPE_MAX_PACKET_SIZE value ... for all devices in context or if
    // pipe_max_packets is 0".
    let fits = ctx
        .devices
        .iter()
        .any(|d| d.info.pipe_support && pipe_packet_size <= d.info.pipe_max_packet_size);
    if pipe_packet_size == 0 || !fits || pipe_max_packets == 0 {
        return Err(ClError::InvalidPipeSize);
    }
    let mem = MemObject::new_pipe(ctx, flags_, pipe_packet_size, pipe_max_packets)?;
    Ok(new_handle(mem))
}

entry! {
    get_pipe_info => fn clGetPipeInfo(
        pipe: cl_mem,
        param_name: cl_pipe_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int
}

fn get_pipe_info(
    pipe: cl_mem,
    param_name: cl_pipe_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> ClResult<()> {
    let mem = get::<MemObject, _>(pipe)?;
    // 5.4.2: CL_INVALID_MEM_OBJECT "if pipe is a not a valid pipe object".
    let layout = *mem.as_pipe().ok_or(ClError::InvalidMemObject)?;
    let bytes = match param_name {
        CL_PIPE_PACKET_SIZE => info::of(&layout.packet_size),
        CL_PIPE_MAX_PACKETS => info::of(&layout.max_packets),
        // "If the properties argument specified in clCreatePipe used to create pipe was NULL,
        // the implementation must return param_value_size_ret equal to 0" (and it must be).
        CL_PIPE_PROPERTIES => Vec::new(),
        _ => return Err(ClError::InvalidValue),
    };
    // SAFETY: by the spec, param_value is NULL or writable for param_value_size bytes, and
    // param_value_size_ret NULL or writable: `answer`'s contract.
    unsafe { answer(&bytes, param_value_size, param_value, param_value_size_ret) }
}
