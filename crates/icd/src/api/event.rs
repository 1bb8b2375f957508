//! Chapters 5.11–5.14 of the API: event objects, user events, markers and barriers,
//! callbacks and profiling — and the wait-list checks every enqueue function shares.

use std::ffi::c_void;
use std::sync::Arc;

use ferrocl_core::event::{self, status, Timestamp};
use ferrocl_core::{ClError, ClResult, CommandQueue, Context, Event};
use opencl_sys::*;

use crate::entry::entry;
use crate::handle::{self, get, new_handle};
use crate::info::{self, answer};
use crate::UserData;

/// Reads an event wait list.
///
/// Every enqueue function: CL_INVALID_EVENT_WAIT_LIST "if event_wait_list is NULL and
/// num_events_in_wait_list > 0, or event_wait_list is not NULL and num_events_in_wait_list is
/// 0, or if event objects in event_wait_list are not valid events".
///
/// # Safety
/// `list` is NULL or points at `num` handles.
pub unsafe fn wait_list(num: cl_uint, list: *const cl_event) -> ClResult<Vec<Arc<Event>>> {
    if list.is_null() != (num == 0) {
        return Err(ClError::InvalidEventWaitList);
    }
    // SAFETY: the caller's contract.
    unsafe { handle::get_list::<Event, _>(list, num) }.map_err(|_| ClError::InvalidEventWaitList)
}

/// Hands a command's event to the application when it asked for one.
///
/// # Safety
/// `out` is NULL or writable.
pub unsafe fn give_event(out: *mut cl_event, event: Arc<Event>) {
    if !out.is_null() {
        // SAFETY: the caller's contract.
        unsafe { out.write(new_handle(event)) };
    }
}

/// Waits for a command of a blocking call. Every blocking enqueue:
/// CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST "if the read and write operations are
/// blocking and the execution status of any of the events in event_wait_list is a negative
/// integer value".
pub fn wait_if_blocking(event: &Arc<Event>, blocking: cl_bool) -> ClResult<()> {
    if blocking != CL_FALSE && event.wait() < 0 {
        return Err(ClError::ExecStatusErrorForEventsInWaitList);
    }
    Ok(())
}

entry! {
    create_user_event => fn clCreateUserEvent(context: cl_context; errcode_ret) -> cl_event
}

fn create_user_event(context: cl_context) -> ClResult<cl_event> {
    let ctx = get::<Context, _>(context)?;
    Ok(new_handle(Event::new_user(ctx)))
}

entry! {
    set_user_event_status => fn clSetUserEventStatus(
        event: cl_event,
        execution_status: cl_int,
    ) -> cl_int
}

fn set_user_event_status(event: cl_event, execution_status: cl_int) -> ClResult<()> {
    get::<Event, _>(event)?.set_user_status(execution_status)
}

entry! {
    wait_for_events => fn clWaitForEvents(
        num_events: cl_uint,
        event_list: *const cl_event,
    ) -> cl_int
}

fn wait_for_events(num_events: cl_uint, event_list: *const cl_event) -> ClResult<()> {
    // 5.11: CL_INVALID_VALUE "if num_events is zero or event_list is NULL".
    if num_events == 0 || event_list.is_null() {
        return Err(ClError::InvalidValue);
    }
    // SAFETY: event_list is non-NULL (checked above) and, by the spec, holds num_events
    // handles.
    let events = unsafe { handle::get_list::<Event, _>(event_list, num_events) }?;
    // 5.11: CL_INVALID_CONTEXT "if events specified in event_list do not belong to the
    // same context".
    if events
        .iter()
        .any(|e| !Arc::ptr_eq(&e.context, &events[0].context))
    {
        return Err(ClError::InvalidContext);
    }
    event::wait_for_events(&events)
}

entry! {
    get_event_info => fn clGetEventInfo(
        event: cl_event,
        param_name: cl_event_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int
}

fn get_event_info(
    event: cl_event,
    param_name: cl_event_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> ClResult<()> {
    let ev = get::<Event, _>(event)?;
    let bytes = match param_name {
        CL_EVENT_COMMAND_QUEUE => info::of(&match &ev.queue {
            Some(q) => handle::handle_of::<CommandQueue, c_void>(q),
            None => std::ptr::null_mut(),
        }),
        CL_EVENT_CONTEXT => info::of(&handle::handle_of::<Context, c_void>(&ev.context)),
        CL_EVENT_COMMAND_TYPE => info::of(&ev.command_type),
        CL_EVENT_COMMAND_EXECUTION_STATUS => info::of(&ev.status()),
        CL_EVENT_REFERENCE_COUNT => info::of(&handle::ref_count::<Event, _>(event)?),
        _ => return Err(ClError::InvalidValue),
    };
    // SAFETY: by the spec, param_value is NULL or writable for param_value_size bytes, and
    // param_value_size_ret NULL or writable: `answer`'s contract.
    unsafe { answer(&bytes, param_value_size, param_value, param_value_size_ret) }
}

entry! {
    set_event_callback => fn clSetEventCallback(
        event: cl_event,
        command_exec_callback_type: cl_int,
        pfn_notify: Option<unsafe extern "C" fn(cl_event,
        cl_int,
        *mut c_void)>,
        user_data: *mut c_void,
    ) -> cl_int
}

fn set_event_callback(
    event: cl_event,
    command_exec_callback_type: cl_int,
    pfn_notify: Option<unsafe extern "C" fn(cl_event, cl_int, *mut c_void)>,
    user_data: *mut c_void,
) -> ClResult<()> {
    let ev = get::<Event, _>(event)?;
    // 5.13: CL_INVALID_VALUE "if pfn_event_notify is NULL or if
    // command_exec_callback_type is not CL_SUBMITTED, CL_RUNNING, or CL_COMPLETE".
    let f = pfn_notify.ok_or(ClError::InvalidValue)?;
    if ![status::SUBMITTED, status::RUNNING, status::COMPLETE].contains(&command_exec_callback_type)
    {
        return Err(ClError::InvalidValue);
    }
    let user_data = UserData(user_data);
    // The closure keeps the event alive until it has been called, so the handle it
    // passes is valid even if the application released the event meanwhile.
    let keep = ev.clone();
    ev.set_callback(
        command_exec_callback_type,
        Box::new(move |reported| {
            let handle: cl_event = handle::handle_of(&keep);
            // SAFETY: the application registered this callback with this signature.
            unsafe { f(handle, reported, user_data.get()) };
            drop(keep);
        }),
    );
    Ok(())
}

entry! {
    retain_event => fn clRetainEvent(event: cl_event) -> cl_int
}

fn retain_event(event: cl_event) -> ClResult<()> {
    handle::retain::<Event, _>(event)
}

entry! {
    release_event => fn clReleaseEvent(event: cl_event) -> cl_int
}

fn release_event(event: cl_event) -> ClResult<()> {
    handle::release::<Event, _>(event)
}

entry! {
    get_event_profiling_info => fn clGetEventProfilingInfo(
        event: cl_event,
        param_name: cl_profiling_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int
}

fn get_event_profiling_info(
    event: cl_event,
    param_name: cl_profiling_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> ClResult<()> {
    let ev = get::<Event, _>(event)?;
    let which = match param_name {
        CL_PROFILING_COMMAND_QUEUED => Timestamp::Queued,
        CL_PROFILING_COMMAND_SUBMIT => Timestamp::Submit,
        CL_PROFILING_COMMAND_START => Timestamp::Start,
        CL_PROFILING_COMMAND_END => Timestamp::End,
        CL_PROFILING_COMMAND_COMPLETE => Timestamp::Complete,
        _ => return Err(ClError::InvalidValue),
    };
    let value: cl_ulong = ev.profiling(which)?;
    // SAFETY: by the spec, param_value is NULL or writable for param_value_size bytes, and
    // param_value_size_ret NULL or writable: `answer`'s contract.
    unsafe {
        answer(
            &info::of(&value),
            param_value_size,
            param_value,
            param_value_size_ret,
        )
    }
}

entry! {
    enqueue_marker_with_wait_list => fn clEnqueueMarkerWithWaitList(
        command_queue: cl_command_queue,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_marker_with_wait_list(
    command_queue: cl_command_queue,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    let queue = get::<CommandQueue, _>(command_queue)?;
    // SAFETY: the spec's contract on event_wait_list: NULL or num_events_in_wait_list events.
    let deps = unsafe { wait_list(num_events_in_wait_list, event_wait_list) }?;
    // SAFETY: the spec's contract on event: NULL or writable.
    unsafe { give_event(event, queue.enqueue_marker(&deps)?) };
    Ok(())
}

entry! {
    enqueue_barrier_with_wait_list => fn clEnqueueBarrierWithWaitList(
        command_queue: cl_command_queue,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_barrier_with_wait_list(
    command_queue: cl_command_queue,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    let queue = get::<CommandQueue, _>(command_queue)?;
    // SAFETY: the spec's contract on event_wait_list: NULL or num_events_in_wait_list events.
    let deps = unsafe { wait_list(num_events_in_wait_list, event_wait_list) }?;
    // SAFETY: the spec's contract on event: NULL or writable.
    unsafe { give_event(event, queue.enqueue_barrier(&deps)?) };
    Ok(())
}

entry! {
    enqueue_marker => fn clEnqueueMarker(
        command_queue: cl_command_queue,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_marker(command_queue: cl_command_queue, event: *mut cl_event) -> ClResult<()> {
    let queue = get::<CommandQueue, _>(command_queue)?;
    // 1.2, 5.10: CL_INVALID_VALUE "if event is a NULL value".
    if event.is_null() {
        return Err(ClError::InvalidValue);
    }
    // SAFETY: the spec's contract on event: NULL or writable.
    unsafe { give_event(event, queue.enqueue_marker(&[])?) };
    Ok(())
}

entry! {
    enqueue_barrier => fn clEnqueueBarrier(command_queue: cl_command_queue) -> cl_int
}

fn enqueue_barrier(command_queue: cl_command_queue) -> ClResult<()> {
    get::<CommandQueue, _>(command_queue)?.enqueue_barrier(&[])?;
    Ok(())
}

entry! {
    enqueue_wait_for_events => fn clEnqueueWaitForEvents(
        command_queue: cl_command_queue,
        num_events: cl_uint,
        event_list: *const cl_event,
    ) -> cl_int
}

fn enqueue_wait_for_events(
    command_queue: cl_command_queue,
    num_events: cl_uint,
    event_list: *const cl_event,
) -> ClResult<()> {
    let queue = get::<CommandQueue, _>(command_queue)?;
    // 1.2, 5.10: CL_INVALID_VALUE "if num_events is 0 or event_list is NULL";
    // CL_INVALID_EVENT "if event objects specified in event_list are not valid events".
    if num_events == 0 || event_list.is_null() {
        return Err(ClError::InvalidValue);
    }
    // SAFETY: event_list is non-NULL (checked above) and, by the spec, holds num_events
    // handles.
    let events = unsafe { handle::get_list::<Event, _>(event_list, num_events) }?;
    queue.enqueue_barrier(&events)?;
    Ok(())
}
