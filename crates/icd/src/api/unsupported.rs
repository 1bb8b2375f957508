//! Optional features no ferrocl device supports yet: pipes (`CL_DEVICE_PIPE_SUPPORT` is false) and shared
//! virtual memory (`CL_DEVICE_SVM_CAPABILITIES` is 0). API 3.0, 4.2: "some APIs may return an
//! error code unconditionally when a feature is not supported by any devices in the platform".
//! Each entry point checks its handles and answers with the code its section names.

use std::ffi::c_void;

use ferrocl_core::{ClError, ClResult, CommandQueue, Context, MemObject};
use opencl_sys::*;

use crate::api::event::wait_list;
use crate::entry::entry;
use crate::handle::get;

/// A queue whose device does not support SVM: the SVM commands' "CL_INVALID_OPERATION if the
/// device associated with command_queue does not support SVM", after the queue and wait list
/// are checked.
///
/// # Safety
/// `list` is NULL or points at `num` handles.
unsafe fn unsupported_on_queue(
    command_queue: cl_command_queue,
    num: cl_uint,
    list: *const cl_event,
) -> ClResult<()> {
    let queue = get::<CommandQueue, _>(command_queue)?;
    // SAFETY: the caller's contract.
    let deps = unsafe { wait_list(num, list) }?;
    queue.check_wait_list(&deps)?;
    Err(ClError::InvalidOperation)
}

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

/// 5.6.1: clSVMAlloc "returns a valid non-NULL shared virtual memory address if the SVM buffer
/// is successfully allocated. Otherwise, like malloc, it returns a NULL pointer value." No
/// device supports SVM.
#[no_mangle]
pub unsafe extern "C" fn clSVMAlloc(
    context: cl_context,
    flags: cl_svm_mem_flags,
    size: usize,
    alignment: cl_uint,
) -> *mut c_void {
    let _ = (context, flags, size, alignment);
    std::ptr::null_mut()
}

/// 5.6.1: clSVMFree of a pointer clSVMAlloc did not return is undefined; NULL is a no-op, and
/// clSVMAlloc never returns anything else.
#[no_mangle]
pub unsafe extern "C" fn clSVMFree(context: cl_context, svm_pointer: *mut c_void) {
    let _ = (context, svm_pointer);
}

entry! {
    enqueue_svm_free => fn clEnqueueSVMFree(
        command_queue: cl_command_queue,
        num_svm_pointers: cl_uint,
        svm_pointers: *mut *mut c_void,
        pfn_free_func: Option<unsafe extern "C" fn(cl_command_queue,
        cl_uint,
        *mut *mut c_void,
        *mut c_void)>,
        user_data: *mut c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_svm_free(
    command_queue: cl_command_queue,
    num_svm_pointers: cl_uint,
    svm_pointers: *mut *mut c_void,
    pfn_free_func: Option<
        unsafe extern "C" fn(cl_command_queue, cl_uint, *mut *mut c_void, *mut c_void),
    >,
    user_data: *mut c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    let _ = (
        num_svm_pointers,
        svm_pointers,
        pfn_free_func,
        user_data,
        event,
    );
    // SAFETY: the spec's contract on event_wait_list: NULL or num_events_in_wait_list events.
    unsafe { unsupported_on_queue(command_queue, num_events_in_wait_list, event_wait_list) }
}

entry! {
    enqueue_svm_memcpy => fn clEnqueueSVMMemcpy(
        command_queue: cl_command_queue,
        blocking_copy: cl_bool,
        dst_ptr: *mut c_void,
        src_ptr: *const c_void,
        size: usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_svm_memcpy(
    command_queue: cl_command_queue,
    blocking_copy: cl_bool,
    dst_ptr: *mut c_void,
    src_ptr: *const c_void,
    size: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    let _ = (blocking_copy, dst_ptr, src_ptr, size, event);
    // SAFETY: the spec's contract on event_wait_list: NULL or num_events_in_wait_list events.
    unsafe { unsupported_on_queue(command_queue, num_events_in_wait_list, event_wait_list) }
}

entry! {
    enqueue_svm_mem_fill => fn clEnqueueSVMMemFill(
        command_queue: cl_command_queue,
        svm_ptr: *mut c_void,
        pattern: *const c_void,
        pattern_size: usize,
        size: usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_svm_mem_fill(
    command_queue: cl_command_queue,
    svm_ptr: *mut c_void,
    pattern: *const c_void,
    pattern_size: usize,
    size: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    let _ = (svm_ptr, pattern, pattern_size, size, event);
    // SAFETY: the spec's contract on event_wait_list: NULL or num_events_in_wait_list events.
    unsafe { unsupported_on_queue(command_queue, num_events_in_wait_list, event_wait_list) }
}

entry! {
    enqueue_svm_map => fn clEnqueueSVMMap(
        command_queue: cl_command_queue,
        blocking_map: cl_bool,
        flags: cl_map_flags,
        svm_ptr: *mut c_void,
        size: usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_svm_map(
    command_queue: cl_command_queue,
    blocking_map: cl_bool,
    flags: cl_map_flags,
    svm_ptr: *mut c_void,
    size: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    let _ = (blocking_map, flags, svm_ptr, size, event);
    // SAFETY: the spec's contract on event_wait_list: NULL or num_events_in_wait_list events.
    unsafe { unsupported_on_queue(command_queue, num_events_in_wait_list, event_wait_list) }
}

entry! {
    enqueue_svm_unmap => fn clEnqueueSVMUnmap(
        command_queue: cl_command_queue,
        svm_ptr: *mut c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_svm_unmap(
    command_queue: cl_command_queue,
    svm_ptr: *mut c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    let _ = (svm_ptr, event);
    // SAFETY: the spec's contract on event_wait_list: NULL or num_events_in_wait_list events.
    unsafe { unsupported_on_queue(command_queue, num_events_in_wait_list, event_wait_list) }
}

entry! {
    enqueue_svm_migrate_mem => fn clEnqueueSVMMigrateMem(
        command_queue: cl_command_queue,
        num_svm_pointers: cl_uint,
        svm_pointers: *mut *const c_void,
        sizes: *const usize,
        flags: cl_mem_migration_flags,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_svm_migrate_mem(
    command_queue: cl_command_queue,
    num_svm_pointers: cl_uint,
    svm_pointers: *mut *const c_void,
    sizes: *const usize,
    flags: cl_mem_migration_flags,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    let _ = (num_svm_pointers, svm_pointers, sizes, flags, event);
    // SAFETY: the spec's contract on event_wait_list: NULL or num_events_in_wait_list events.
    unsafe { unsupported_on_queue(command_queue, num_events_in_wait_list, event_wait_list) }
}
