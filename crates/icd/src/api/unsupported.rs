//! Optional features no ferrocl device supports yet: images and samplers
//! (`CL_DEVICE_IMAGE_SUPPORT` is false) and pipes (`CL_DEVICE_PIPE_SUPPORT` is false). API
//! 3.0, 4.2: "some APIs may return an error code unconditionally when a feature is not supported by any devices in the platform".
//! Each entry point checks its handles and answers with the code its section names.

use std::ffi::c_void;

use ferrocl_core::{ClError, ClResult, CommandQueue, Context, MemObject};
use opencl_sys::*;

use crate::api::event::wait_list;
use crate::entry::entry;
use crate::handle::get;

/// A context none of whose devices supports images: "CL_INVALID_OPERATION if there are no
/// devices in context that support images".
fn no_images_in(context: cl_context) -> ClResult<cl_mem> {
    let ctx = get::<Context, _>(context)?;
    debug_assert!(ctx.devices.iter().all(|d| !d.info.image_support));
    Err(ClError::InvalidOperation)
}

/// A queue whose device does not support images: the image commands' "CL_INVALID_OPERATION
/// if the device associated with command_queue does not support images", after the queue and
/// wait list are checked.
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
    create_image => fn clCreateImage(
        context: cl_context,
        flags: cl_mem_flags,
        image_format: *const cl_image_format,
        image_desc: *const cl_image_desc,
        host_ptr: *mut c_void,
        ; errcode_ret
    ) -> cl_mem
}

fn create_image(
    context: cl_context,
    flags: cl_mem_flags,
    image_format: *const cl_image_format,
    image_desc: *const cl_image_desc,
    host_ptr: *mut c_void,
) -> ClResult<cl_mem> {
    let _ = (flags, image_format, image_desc, host_ptr);
    no_images_in(context)
}

entry! {
    create_image_with_properties => fn clCreateImageWithProperties(
        context: cl_context,
        properties: *const cl_mem_properties,
        flags: cl_mem_flags,
        image_format: *const cl_image_format,
        image_desc: *const cl_image_desc,
        host_ptr: *mut c_void,
        ; errcode_ret
    ) -> cl_mem
}

fn create_image_with_properties(
    context: cl_context,
    properties: *const cl_mem_properties,
    flags: cl_mem_flags,
    image_format: *const cl_image_format,
    image_desc: *const cl_image_desc,
    host_ptr: *mut c_void,
) -> ClResult<cl_mem> {
    let _ = (properties, flags, image_format, image_desc, host_ptr);
    no_images_in(context)
}

entry! {
    create_image2d => fn clCreateImage2D(
        context: cl_context,
        flags: cl_mem_flags,
        image_format: *const cl_image_format,
        image_width: usize,
        image_height: usize,
        image_row_pitch: usize,
        host_ptr: *mut c_void,
        ; errcode_ret
    ) -> cl_mem
}

fn create_image2d(
    context: cl_context,
    flags: cl_mem_flags,
    image_format: *const cl_image_format,
    image_width: usize,
    image_height: usize,
    image_row_pitch: usize,
    host_ptr: *mut c_void,
) -> ClResult<cl_mem> {
    let _ = (
        flags,
        image_format,
        image_width,
        image_height,
        image_row_pitch,
        host_ptr,
    );
    no_images_in(context)
}

entry! {
    create_image3d => fn clCreateImage3D(
        context: cl_context,
        flags: cl_mem_flags,
        image_format: *const cl_image_format,
        image_width: usize,
        image_height: usize,
        image_depth: usize,
        image_row_pitch: usize,
        image_slice_pitch: usize,
        host_ptr: *mut c_void,
        ; errcode_ret
    ) -> cl_mem
}

fn create_image3d(
    context: cl_context,
    flags: cl_mem_flags,
    image_format: *const cl_image_format,
    image_width: usize,
    image_height: usize,
    image_depth: usize,
    image_row_pitch: usize,
    image_slice_pitch: usize,
    host_ptr: *mut c_void,
) -> ClResult<cl_mem> {
    let _ = (
        flags,
        image_format,
        image_width,
        image_height,
        image_depth,
        image_row_pitch,
        image_slice_pitch,
        host_ptr,
    );
    no_images_in(context)
}

entry! {
    get_supported_image_formats => fn clGetSupportedImageFormats(
        context: cl_context,
        flags: cl_mem_flags,
        image_type: cl_mem_object_type,
        num_entries: cl_uint,
        image_formats: *mut cl_image_format,
        num_image_formats: *mut cl_uint,
    ) -> cl_int
}

fn get_supported_image_formats(
    context: cl_context,
    flags: cl_mem_flags,
    image_type: cl_mem_object_type,
    num_entries: cl_uint,
    image_formats: *mut cl_image_format,
    num_image_formats: *mut cl_uint,
) -> ClResult<()> {
    get::<Context, _>(context)?;
    let image_types = [
        CL_MEM_OBJECT_IMAGE1D,
        CL_MEM_OBJECT_IMAGE1D_BUFFER,
        CL_MEM_OBJECT_IMAGE1D_ARRAY,
        CL_MEM_OBJECT_IMAGE2D,
        CL_MEM_OBJECT_IMAGE2D_ARRAY,
        CL_MEM_OBJECT_IMAGE3D,
    ];
    let known_flags = CL_MEM_READ_WRITE
        | CL_MEM_WRITE_ONLY
        | CL_MEM_READ_ONLY
        | CL_MEM_USE_HOST_PTR
        | CL_MEM_ALLOC_HOST_PTR
        | CL_MEM_COPY_HOST_PTR
        | CL_MEM_HOST_WRITE_ONLY
        | CL_MEM_HOST_READ_ONLY
        | CL_MEM_HOST_NO_ACCESS
        | CL_MEM_KERNEL_READ_AND_WRITE;
    // 5.3.2: CL_INVALID_VALUE "if flags or image_type are not valid, or if num_entries is 0
    // and image_formats is not NULL".
    if flags & !known_flags != 0
        || !image_types.contains(&image_type)
        || (num_entries == 0 && !image_formats.is_null())
    {
        return Err(ClError::InvalidValue);
    }
    // No device supports images, so the list of formats is empty.
    if !num_image_formats.is_null() {
        // SAFETY: num_image_formats is non-NULL (checked above) and, by the spec, writable.
        unsafe { num_image_formats.write(0) };
    }
    Ok(())
}

entry! {
    get_image_info => fn clGetImageInfo(
        image: cl_mem,
        param_name: cl_image_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int
}

fn get_image_info(
    image: cl_mem,
    param_name: cl_image_info,
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
    // 5.3.7: CL_INVALID_MEM_OBJECT "if image is a not a valid image object"; every memory
    // object is a buffer.
    get::<MemObject, _>(image)?;
    Err(ClError::InvalidMemObject)
}

entry! {
    enqueue_read_image => fn clEnqueueReadImage(
        command_queue: cl_command_queue,
        image: cl_mem,
        blocking_read: cl_bool,
        origin: *const usize,
        region: *const usize,
        row_pitch: usize,
        slice_pitch: usize,
        ptr: *mut c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_read_image(
    command_queue: cl_command_queue,
    image: cl_mem,
    blocking_read: cl_bool,
    origin: *const usize,
    region: *const usize,
    row_pitch: usize,
    slice_pitch: usize,
    ptr: *mut c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    let _ = (
        image,
        blocking_read,
        origin,
        region,
        row_pitch,
        slice_pitch,
        ptr,
        event,
    );
    // SAFETY: the spec's contract on event_wait_list: NULL or num_events_in_wait_list events.
    unsafe { unsupported_on_queue(command_queue, num_events_in_wait_list, event_wait_list) }
}

entry! {
    enqueue_write_image => fn clEnqueueWriteImage(
        command_queue: cl_command_queue,
        image: cl_mem,
        blocking_write: cl_bool,
        origin: *const usize,
        region: *const usize,
        input_row_pitch: usize,
        input_slice_pitch: usize,
        ptr: *const c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_write_image(
    command_queue: cl_command_queue,
    image: cl_mem,
    blocking_write: cl_bool,
    origin: *const usize,
    region: *const usize,
    input_row_pitch: usize,
    input_slice_pitch: usize,
    ptr: *const c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    let _ = (
        image,
        blocking_write,
        origin,
        region,
        input_row_pitch,
        input_slice_pitch,
        ptr,
        event,
    );
    // SAFETY: the spec's contract on event_wait_list: NULL or num_events_in_wait_list events.
    unsafe { unsupported_on_queue(command_queue, num_events_in_wait_list, event_wait_list) }
}

entry! {
    enqueue_copy_image => fn clEnqueueCopyImage(
        command_queue: cl_command_queue,
        src_image: cl_mem,
        dst_image: cl_mem,
        src_origin: *const usize,
        dst_origin: *const usize,
        region: *const usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_copy_image(
    command_queue: cl_command_queue,
    src_image: cl_mem,
    dst_image: cl_mem,
    src_origin: *const usize,
    dst_origin: *const usize,
    region: *const usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    let _ = (src_image, dst_image, src_origin, dst_origin, region, event);
    // SAFETY: the spec's contract on event_wait_list: NULL or num_events_in_wait_list events.
    unsafe { unsupported_on_queue(command_queue, num_events_in_wait_list, event_wait_list) }
}

entry! {
    enqueue_fill_image => fn clEnqueueFillImage(
        command_queue: cl_command_queue,
        image: cl_mem,
        fill_color: *const c_void,
        origin: *const usize,
        region: *const usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_fill_image(
    command_queue: cl_command_queue,
    image: cl_mem,
    fill_color: *const c_void,
    origin: *const usize,
    region: *const usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    let _ = (image, fill_color, origin, region, event);
    // SAFETY: the spec's contract on event_wait_list: NULL or num_events_in_wait_list events.
    unsafe { unsupported_on_queue(command_queue, num_events_in_wait_list, event_wait_list) }
}

entry! {
    enqueue_copy_image_to_buffer => fn clEnqueueCopyImageToBuffer(
        command_queue: cl_command_queue,
        src_image: cl_mem,
        dst_buffer: cl_mem,
        src_origin: *const usize,
        region: *const usize,
        dst_offset: usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_copy_image_to_buffer(
    command_queue: cl_command_queue,
    src_image: cl_mem,
    dst_buffer: cl_mem,
    src_origin: *const usize,
    region: *const usize,
    dst_offset: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    let _ = (src_image, dst_buffer, src_origin, region, dst_offset, event);
    // SAFETY: the spec's contract on event_wait_list: NULL or num_events_in_wait_list events.
    unsafe { unsupported_on_queue(command_queue, num_events_in_wait_list, event_wait_list) }
}

entry! {
    enqueue_copy_buffer_to_image => fn clEnqueueCopyBufferToImage(
        command_queue: cl_command_queue,
        src_buffer: cl_mem,
        dst_image: cl_mem,
        src_offset: usize,
        dst_origin: *const usize,
        region: *const usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_copy_buffer_to_image(
    command_queue: cl_command_queue,
    src_buffer: cl_mem,
    dst_image: cl_mem,
    src_offset: usize,
    dst_origin: *const usize,
    region: *const usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    let _ = (src_buffer, dst_image, src_offset, dst_origin, region, event);
    // SAFETY: the spec's contract on event_wait_list: NULL or num_events_in_wait_list events.
    unsafe { unsupported_on_queue(command_queue, num_events_in_wait_list, event_wait_list) }
}

entry! {
    enqueue_map_image => fn clEnqueueMapImage(
        command_queue: cl_command_queue,
        image: cl_mem,
        blocking_map: cl_bool,
        map_flags: cl_map_flags,
        origin: *const usize,
        region: *const usize,
        image_row_pitch: *mut usize,
        image_slice_pitch: *mut usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
        ; errcode_ret
    ) -> *mut c_void
}

fn enqueue_map_image(
    command_queue: cl_command_queue,
    image: cl_mem,
    blocking_map: cl_bool,
    map_flags: cl_map_flags,
    origin: *const usize,
    region: *const usize,
    image_row_pitch: *mut usize,
    image_slice_pitch: *mut usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<*mut c_void> {
    let _ = (
        image,
        blocking_map,
        map_flags,
        origin,
        region,
        image_row_pitch,
        image_slice_pitch,
        event,
    );
    // SAFETY: the spec's contract on event_wait_list: NULL or num_events_in_wait_list events.
    unsafe { unsupported_on_queue(command_queue, num_events_in_wait_list, event_wait_list) }
        .map(|_| std::ptr::null_mut())
}

entry! {
    create_sampler => fn clCreateSampler(
        context: cl_context,
        normalized_coords: cl_bool,
        addressing_mode: cl_addressing_mode,
        filter_mode: cl_filter_mode,
        ; errcode_ret
    ) -> cl_sampler
}

fn create_sampler(
    context: cl_context,
    normalized_coords: cl_bool,
    addressing_mode: cl_addressing_mode,
    filter_mode: cl_filter_mode,
) -> ClResult<cl_sampler> {
    let _ = (normalized_coords, addressing_mode, filter_mode);
    // 5.7.1: CL_INVALID_OPERATION "if images are not supported by any device associated
    // with context".
    no_images_in(context).map(|_| std::ptr::null_mut())
}

entry! {
    create_sampler_with_properties => fn clCreateSamplerWithProperties(
        context: cl_context,
        sampler_properties: *const cl_sampler_properties,
        ; errcode_ret
    ) -> cl_sampler
}

fn create_sampler_with_properties(
    context: cl_context,
    sampler_properties: *const cl_sampler_properties,
) -> ClResult<cl_sampler> {
    let _ = sampler_properties;
    no_images_in(context).map(|_| std::ptr::null_mut())
}

/// No sampler can be created, so every sampler handle is invalid.
fn no_sampler(_sampler: cl_sampler) -> ClResult<()> {
    Err(ClError::InvalidSampler)
}

entry! {
    retain_sampler => fn clRetainSampler(sampler: cl_sampler) -> cl_int
}

fn retain_sampler(sampler: cl_sampler) -> ClResult<()> {
    no_sampler(sampler)
}

entry! {
    release_sampler => fn clReleaseSampler(sampler: cl_sampler) -> cl_int
}

fn release_sampler(sampler: cl_sampler) -> ClResult<()> {
    no_sampler(sampler)
}

entry! {
    get_sampler_info => fn clGetSamplerInfo(
        sampler: cl_sampler,
        param_name: cl_sampler_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int
}

fn get_sampler_info(
    sampler: cl_sampler,
    param_name: cl_sampler_info,
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
    no_sampler(sampler)
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
