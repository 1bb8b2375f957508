//! Optional features no ferrocl device supports yet: pipes (`CL_DEVICE_PIPE_SUPPORT` is
//! false). API 3.0, 4.2: "some APIs may return an error code unconditionally when a feature is
//! not supported by any devices in the platform".
//! Each entry point checks its handles and answers with the code its section names.

use std::ffi::c_void;

use ferrocl_core::{ClError, ClResult, Context, MemObject};
use opencl_sys::*;

use crate::entry::entry;
use crate::handle::get;

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
    flags: cl_mem_flags,
    pipe_packet_size: cl_uint,
    pipe_max_packets: cl_uint,
    properties: *const cl_pipe_properties,
) -> ClResult<cl_mem> {
    let _ = (flags, pipe_packet_size, pipe_max_packets, properties);
    get::<Context, _>(context)?;
    // 5.4.1: CL_INVALID_OPERATION "if no devices in context support pipes".
    Err(ClError::InvalidOperation)
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
    let _ = (
        param_name,
        param_value_size,
        param_value,
        param_value_size_ret,
    );
    // 5.4.2: CL_INVALID_MEM_OBJECT "if pipe is a not a valid pipe object"; no memory object
    // is a pipe.
    get::<MemObject, _>(pipe)?;
    Err(ClError::InvalidMemObject)
}
