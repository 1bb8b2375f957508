//! Chapter 5.1 of the API: command queues, `clFlush` and `clFinish`.

use std::ffi::c_void;

use ferrocl_core::device::queue_props;
use ferrocl_core::{ClError, ClResult, CommandQueue, Context, Device};
use opencl_sys::*;

use crate::entry::entry;
use crate::handle::{self, get, new_handle};
use crate::info::{self, answer};

const KNOWN_QUEUE_PROPERTIES: u64 = queue_props::OUT_OF_ORDER_EXEC_MODE_ENABLE
    | queue_props::PROFILING_ENABLE
    | queue_props::ON_DEVICE
    | queue_props::ON_DEVICE_DEFAULT;

/// Checks a `cl_command_queue_properties` bitfield against the device.
///
/// 5.1: CL_INVALID_VALUE "if values specified in properties are not valid";
/// CL_INVALID_QUEUE_PROPERTIES "if values specified in properties are valid but are not
/// supported by the device".
fn check_queue_properties(device: &Device, props: u64) -> ClResult<()> {
    if props & !KNOWN_QUEUE_PROPERTIES != 0 {
        return Err(ClError::InvalidValue);
    }
    // CL_QUEUE_ON_DEVICE_DEFAULT "can only be used with CL_QUEUE_ON_DEVICE".
    if props & queue_props::ON_DEVICE_DEFAULT != 0 && props & queue_props::ON_DEVICE == 0 {
        return Err(ClError::InvalidValue);
    }
    // "If CL_QUEUE_ON_DEVICE is set, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE must also be set."
    if props & queue_props::ON_DEVICE != 0
        && props & queue_props::OUT_OF_ORDER_EXEC_MODE_ENABLE == 0
    {
        return Err(ClError::InvalidValue);
    }
    if props & !device.info.queue_on_host_properties != 0 {
        return Err(ClError::InvalidQueueProperties);
    }
    Ok(())
}

fn create_queue(
    context: cl_context,
    device: cl_device_id,
    props: u64,
    array: Vec<u64>,
) -> ClResult<cl_command_queue> {
    let ctx = get::<Context, _>(context)?;
    let dev = get::<Device, _>(device)?;
    // 5.1: CL_INVALID_DEVICE "if device is not a valid device or is not associated with
    // context".
    if !ctx.has_device(&dev) {
        return Err(ClError::InvalidDevice);
    }
    check_queue_properties(&dev, props)?;
    Ok(new_handle(CommandQueue::new(ctx, dev, props, array)))
}

entry! {
    create_command_queue_with_properties => fn clCreateCommandQueueWithProperties(
        context: cl_context,
        device: cl_device_id,
        properties: *const cl_queue_properties,
        ; errcode_ret
    ) -> cl_command_queue
}

fn create_command_queue_with_properties(
    context: cl_context,
    device: cl_device_id,
    properties: *const cl_queue_properties,
) -> ClResult<cl_command_queue> {
    let mut props = 0u64;
    let mut array = Vec::new();
    let mut size_given = false;
    if !properties.is_null() {
        let mut p = properties;
        let mut seen = Vec::new();
        loop {
            // SAFETY: `p` is within properties, non-NULL (checked above) and, by the spec,
            // zero-terminated: the list goes on until its zero name.
            let name = unsafe { p.read() };
            if name == 0 {
                break;
            }
            // SAFETY: every non-zero name is followed by its value.
            let value = unsafe { p.add(1).read() };
            if seen.contains(&name) {
                return Err(ClError::InvalidValue);
            }
            seen.push(name);
            match name as cl_uint {
                CL_QUEUE_PROPERTIES => props = value,
                CL_QUEUE_SIZE => size_given = true,
                _ => return Err(ClError::InvalidValue),
            }
            array.extend([name, value]);
            // SAFETY: advancing past the pair just read, inside the list.
            p = unsafe { p.add(2) };
        }
        array.push(0);
    }
    // 5.1: CL_QUEUE_SIZE "can only be specified if CL_QUEUE_ON_DEVICE is set in
    // CL_QUEUE_PROPERTIES"; otherwise the value is not valid.
    if size_given && props & queue_props::ON_DEVICE == 0 {
        return Err(ClError::InvalidValue);
    }
    create_queue(context, device, props, array)
}

entry! {
    create_command_queue => fn clCreateCommandQueue(
        context: cl_context,
        device: cl_device_id,
        properties: cl_command_queue_properties,
        ; errcode_ret
    ) -> cl_command_queue
}

fn create_command_queue(
    context: cl_context,
    device: cl_device_id,
    properties: cl_command_queue_properties,
) -> ClResult<cl_command_queue> {
    // The 1.x form takes host-queue properties only.
    if properties & (queue_props::ON_DEVICE | queue_props::ON_DEVICE_DEFAULT) != 0 {
        return Err(ClError::InvalidValue);
    }
    create_queue(context, device, properties, Vec::new())
}

entry! {
    retain_command_queue => fn clRetainCommandQueue(command_queue: cl_command_queue) -> cl_int
}

fn retain_command_queue(command_queue: cl_command_queue) -> ClResult<()> {
    handle::retain::<CommandQueue, _>(command_queue)
}

entry! {
    /// 5.1: "clReleaseCommandQueue performs an implicit flush to issue any previously queued
    /// OpenCL commands in command_queue." Commands are issued as they are enqueued.
    release_command_queue => fn clReleaseCommandQueue(command_queue: cl_command_queue) -> cl_int
}

fn release_command_queue(command_queue: cl_command_queue) -> ClResult<()> {
    handle::release::<CommandQueue, _>(command_queue)
}

entry! {
    get_command_queue_info => fn clGetCommandQueueInfo(
        command_queue: cl_command_queue,
        param_name: cl_command_queue_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int
}

fn get_command_queue_info(
    command_queue: cl_command_queue,
    param_name: cl_command_queue_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> ClResult<()> {
    let queue = get::<CommandQueue, _>(command_queue)?;
    let bytes = match param_name {
        CL_QUEUE_CONTEXT => info::of(&handle::handle_of::<Context, c_void>(&queue.context)),
        CL_QUEUE_DEVICE => info::of(&handle::handle_of::<Device, c_void>(&queue.device)),
        CL_QUEUE_REFERENCE_COUNT => info::of(&handle::ref_count::<CommandQueue, _>(command_queue)?),
        CL_QUEUE_PROPERTIES => info::of(&queue.properties),
        CL_QUEUE_PROPERTIES_ARRAY => info::of(&queue.properties_array),
        // 5.1: CL_QUEUE_SIZE: "It is an error to query this value for a host queue"
        // (CL_INVALID_COMMAND_QUEUE).
        CL_QUEUE_SIZE => return Err(ClError::InvalidCommandQueue),
        // The default device queue; there are no device queues.
        CL_QUEUE_DEVICE_DEFAULT => info::of(&std::ptr::null_mut::<c_void>()),
        _ => return Err(ClError::InvalidValue),
    };
    // SAFETY: by the spec, param_value is NULL or writable for param_value_size bytes, and
    // param_value_size_ret NULL or writable: `answer`'s contract.
    unsafe { answer(&bytes, param_value_size, param_value, param_value_size_ret) }
}

entry! {
    /// Deprecated in 1.1: properties are fixed when a queue is created.
    set_command_queue_property => fn clSetCommandQueueProperty(
        command_queue: cl_command_queue,
        properties: cl_command_queue_properties,
        enable: cl_bool,
        old_properties: *mut cl_command_queue_properties,
    ) -> cl_int
}

fn set_command_queue_property(
    command_queue: cl_command_queue,
    properties: cl_command_queue_properties,
    enable: cl_bool,
    old_properties: *mut cl_command_queue_properties,
) -> ClResult<()> {
    let _ = (properties, enable, old_properties);
    get::<CommandQueue, _>(command_queue)?;
    Err(ClError::InvalidOperation)
}

entry! {
    set_default_device_command_queue => fn clSetDefaultDeviceCommandQueue(
        context: cl_context,
        device: cl_device_id,
        command_queue: cl_command_queue,
    ) -> cl_int
}

fn set_default_device_command_queue(
    context: cl_context,
    device: cl_device_id,
    command_queue: cl_command_queue,
) -> ClResult<()> {
    let ctx = get::<Context, _>(context)?;
    let dev = get::<Device, _>(device)?;
    if !ctx.has_device(&dev) {
        return Err(ClError::InvalidDevice);
    }
    // Appendix H: clSetDefaultDeviceCommandQueue "Returns CL_INVALID_OPERATION if device
    // does not support on-device queues". No device does, so no command_queue can be a
    // device queue: that answer comes before any check of command_queue.
    let _ = command_queue;
    Err(ClError::InvalidOperation)
}

entry! {
    flush => fn clFlush(command_queue: cl_command_queue) -> cl_int
}

fn flush(command_queue: cl_command_queue) -> ClResult<()> {
    get::<CommandQueue, _>(command_queue)?.flush()
}

entry! {
    finish => fn clFinish(command_queue: cl_command_queue) -> cl_int
}

fn finish(command_queue: cl_command_queue) -> ClResult<()> {
    get::<CommandQueue, _>(command_queue)?.finish()
}
