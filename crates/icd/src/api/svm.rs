//! Shared virtual memory (API 5.6): `clSVMAlloc`, `clSVMFree` and the SVM commands. Every
//! ferrocl device runs on the host, so an SVM allocation is host memory (`ferrocl_core::svm`)
//! that kernels and the host address alike: the commands copy and fill host memory, and maps,
//! unmaps and migrations only order themselves among the queue's commands.

use std::ffi::c_void;
use std::sync::Arc;

use ferrocl_core::memory::{HostPtr, Location};
use ferrocl_core::queue::Work;
use ferrocl_core::svm::{self, caps, flags};
use ferrocl_core::{ClError, ClResult, CommandQueue, Context, Event};
use opencl_sys::*;

use crate::api::event::{give_event, wait_if_blocking, wait_list};
use crate::entry::entry;
use crate::handle::get;

/// `CL_COMMAND_SVM_*` (API 5.11, Table 37).
mod command {
    pub const SVM_FREE: u32 = 0x1209;
    pub const SVM_MEMCPY: u32 = 0x120A;
    pub const SVM_MEMFILL: u32 = 0x120B;
    pub const SVM_MAP: u32 = 0x120C;
    pub const SVM_UNMAP: u32 = 0x120D;
    pub const SVM_MIGRATE_MEM: u32 = 0x120E;
}

/// The SVM capabilities the devices of `context` share (none: no SVM).
fn context_caps(context: &Context) -> u64 {
    context
        .devices
        .iter()
        .fold(u64::MAX, |c, d| c & d.info.svm_capabilities)
}

/// A queue and its wait list, for an SVM command. CL_INVALID_OPERATION "if the device
/// associated with command_queue does not support SVM".
///
/// # Safety
/// `list` is NULL or points at `num` handles.
unsafe fn svm_queue(
    command_queue: cl_command_queue,
    num: cl_uint,
    list: *const cl_event,
) -> ClResult<(Arc<CommandQueue>, Vec<Arc<Event>>)> {
    let queue = get::<CommandQueue, _>(command_queue)?;
    // SAFETY: the caller's contract.
    let deps = unsafe { wait_list(num, list) }?;
    queue.check_wait_list(&deps)?;
    if queue.device.info.svm_capabilities == 0 {
        return Err(ClError::InvalidOperation);
    }
    Ok((queue, deps))
}

/// Enqueues `work` and hands out its event, waiting for it when `blocking`.
///
/// # Safety
/// `event` is NULL or writable.
unsafe fn submit(
    queue: &Arc<CommandQueue>,
    command_type: u32,
    work: Work,
    deps: &[Arc<Event>],
    blocking: cl_bool,
    event: *mut cl_event,
) -> ClResult<()> {
    let ev = queue.enqueue(command_type, work, deps)?;
    // SAFETY: the caller's contract.
    unsafe { give_event(event, ev.clone()) };
    wait_if_blocking(&ev, blocking)
}

/// 5.6.1: clSVMAlloc "returns a valid non-NULL shared virtual memory address if the SVM buffer
/// is successfully allocated. Otherwise, like malloc, it returns a NULL pointer value."
#[no_mangle]
pub unsafe extern "C" fn clSVMAlloc(
    context: cl_context,
    flags: cl_svm_mem_flags,
    size: usize,
    alignment: cl_uint,
) -> *mut c_void {
    let mut out = std::ptr::null_mut();
    crate::entry::unit("clSVMAlloc", || {
        if let Ok(ctx) = get::<Context, _>(context) {
            out = svm_alloc(&ctx, flags, size, alignment)
                .map_or(std::ptr::null_mut(), |p| p as *mut c_void);
        }
    });
    out
}

/// The checks of 5.6.1, "clSVMAlloc will fail if", in order.
fn svm_alloc(ctx: &Arc<Context>, f: u64, size: usize, alignment: cl_uint) -> Option<usize> {
    let have = context_caps(ctx);
    // "no devices in context support SVM".
    if have == 0 {
        return None;
    }
    let access = flags::READ_WRITE | flags::WRITE_ONLY | flags::READ_ONLY;
    let known = access | flags::FINE_GRAIN_BUFFER | flags::ATOMICS;
    // "The values specified in flags are not valid"; READ_WRITE, WRITE_ONLY and READ_ONLY
    // "are mutually exclusive".
    if f & !known != 0 || (f & access).count_ones() > 1 {
        return None;
    }
    // "flags does not contain CL_MEM_SVM_FINE_GRAIN_BUFFER but does contain
    // CL_MEM_SVM_ATOMICS".
    if f & flags::ATOMICS != 0 && f & flags::FINE_GRAIN_BUFFER == 0 {
        return None;
    }
    // "CL_MEM_SVM_FINE_GRAIN_BUFFER or CL_MEM_SVM_ATOMICS is specified in flags and these are
    // not supported by at least one device in context".
    if (f & flags::FINE_GRAIN_BUFFER != 0 && have & caps::FINE_GRAIN_BUFFER == 0)
        || (f & flags::ATOMICS != 0 && have & caps::ATOMICS == 0)
    {
        return None;
    }
    // "size is 0 or > CL_DEVICE_MAX_MEM_ALLOC_SIZE value for any device in context".
    if size == 0
        || ctx
            .devices
            .iter()
            .any(|d| size as u64 > d.info.max_mem_alloc_size)
    {
        return None;
    }
    // "alignment is not a power of two or the OpenCL implementation cannot support the
    // specified alignment": up to the largest data type, long16.
    let align = if alignment == 0 {
        svm::DEFAULT_ALIGN
    } else {
        alignment as usize
    };
    if !align.is_power_of_two() || align > svm::DEFAULT_ALIGN {
        return None;
    }
    svm::alloc(ctx, f, size, align)
}

/// 5.6.1: clSVMFree "frees a shared virtual memory buffer allocated using clSVMAlloc"; "If a
/// NULL pointer is passed in svm_pointer, no action occurs." A pointer that is not one of the
/// context's allocations is left alone.
#[no_mangle]
pub unsafe extern "C" fn clSVMFree(context: cl_context, svm_pointer: *mut c_void) {
    crate::entry::unit("clSVMFree", || {
        if svm_pointer.is_null() {
            return;
        }
        if let Ok(ctx) = get::<Context, _>(context) {
            svm::free(&ctx, svm_pointer as usize);
        }
    });
}

/// `pfn_free_func` of clEnqueueSVMFree.
type FreeFn = unsafe extern "C" fn(cl_command_queue, cl_uint, *mut *mut c_void, *mut c_void);

entry! {
    enqueue_svm_free => fn clEnqueueSVMFree(
        command_queue: cl_command_queue,
        num_svm_pointers: cl_uint,
        svm_pointers: *mut *mut c_void,
        pfn_free_func: Option<FreeFn>,
        user_data: *mut c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

#[allow(clippy::too_many_arguments)]
fn enqueue_svm_free(
    command_queue: cl_command_queue,
    num_svm_pointers: cl_uint,
    svm_pointers: *mut *mut c_void,
    pfn_free_func: Option<FreeFn>,
    user_data: *mut c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    // SAFETY: the spec's contract on event_wait_list: NULL or num_events_in_wait_list events.
    let (queue, deps) =
        unsafe { svm_queue(command_queue, num_events_in_wait_list, event_wait_list) }?;
    // CL_INVALID_VALUE "if num_svm_pointers is 0 and svm_pointers is non-NULL, or if
    // svm_pointers is NULL and num_svm_pointers is not 0".
    if (num_svm_pointers == 0) != svm_pointers.is_null() {
        return Err(ClError::InvalidValue);
    }
    // "The memory associated with svm_pointers can be reused or freed after the function
    // returns": the pointers are copied now.
    let pointers: Vec<usize> = if svm_pointers.is_null() {
        Vec::new()
    } else {
        // SAFETY: by the spec svm_pointers holds num_svm_pointers pointers.
        unsafe { std::slice::from_raw_parts(svm_pointers, num_svm_pointers as usize) }
            .iter()
            .map(|&p| p as usize)
            .collect()
    };
    let ctx = queue.context.clone();
    let queue_handle = command_queue as usize;
    let user = user_data as usize;
    let work = Work::Host(Box::new(move || {
        match pfn_free_func {
            // "If pfn_free_func is a valid callback function, the OpenCL implementation will
            // call pfn_free_func to free all the SVM pointers specified in svm_pointers."
            Some(f) => {
                let mut list: Vec<*mut c_void> =
                    pointers.iter().map(|&p| p as *mut c_void).collect();
                // SAFETY: the application's callback, called with the queue it enqueued on
                // (alive while its command runs), a list it may read and its own user_data.
                unsafe {
                    f(
                        queue_handle as cl_command_queue,
                        list.len() as cl_uint,
                        list.as_mut_ptr(),
                        user as *mut c_void,
                    )
                };
            }
            // "If pfn_free_func is NULL, all pointers specified in svm_pointers must be
            // allocated using clSVMAlloc and the OpenCL implementation will free these SVM
            // pointers."
            None => {
                for p in pointers {
                    svm::free(&ctx, p);
                }
            }
        }
        Ok(())
    }));
    // SAFETY: event is NULL or writable.
    unsafe { submit(&queue, command::SVM_FREE, work, &deps, CL_FALSE, event) }
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

#[allow(clippy::too_many_arguments)]
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
    // SAFETY: the spec's contract on event_wait_list: NULL or num_events_in_wait_list events.
    let (queue, deps) =
        unsafe { svm_queue(command_queue, num_events_in_wait_list, event_wait_list) }?;
    // CL_INVALID_VALUE "if dst_ptr or src_ptr is NULL".
    if dst_ptr.is_null() || src_ptr.is_null() {
        return Err(ClError::InvalidValue);
    }
    // CL_MEM_COPY_OVERLAP "if the values specified for dst_ptr, src_ptr and size result in an
    // overlapping copy".
    let (d, s) = (dst_ptr as usize, src_ptr as usize);
    if d < s.saturating_add(size) && s < d.saturating_add(size) {
        return Err(ClError::MemCopyOverlap);
    }
    // SAFETY: by the spec both pointers are valid for size bytes (SVM allocations, or host
    // memory the application keeps) until the command completes.
    let (src, dst) = unsafe {
        (
            Location::Host(HostPtr::new(src_ptr as *mut u8)),
            Location::Host(HostPtr::new(dst_ptr.cast())),
        )
    };
    let work = Work::Copy { src, dst, size };
    // SAFETY: event is NULL or writable.
    unsafe {
        submit(
            &queue,
            command::SVM_MEMCPY,
            work,
            &deps,
            blocking_copy,
            event,
        )
    }
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

#[allow(clippy::too_many_arguments)]
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
    // SAFETY: the spec's contract on event_wait_list: NULL or num_events_in_wait_list events.
    let (queue, deps) =
        unsafe { svm_queue(command_queue, num_events_in_wait_list, event_wait_list) }?;
    // CL_INVALID_VALUE "if svm_ptr is NULL", "if svm_ptr is not aligned to pattern_size
    // bytes", "if pattern is NULL or if pattern_size is 0 or if pattern_size is not one of
    // {1, 2, 4, 8, 16, 32, 64, 128}", "if size is not a multiple of pattern_size".
    if svm_ptr.is_null()
        || pattern.is_null()
        || !(pattern_size.is_power_of_two() && pattern_size <= 128)
        || (svm_ptr as usize) % pattern_size != 0
        || size % pattern_size != 0
    {
        return Err(ClError::InvalidValue);
    }
    // "The memory associated with pattern can be reused or freed after the function returns."
    // SAFETY: by the spec pattern points at pattern_size bytes.
    let bytes = unsafe { std::slice::from_raw_parts(pattern.cast::<u8>(), pattern_size) }.to_vec();
    let at = svm_ptr as usize;
    let work = Work::Host(Box::new(move || {
        // SAFETY: by the spec svm_ptr is valid for size bytes until the command completes.
        let dst = unsafe { std::slice::from_raw_parts_mut(at as *mut u8, size) };
        for chunk in dst.chunks_exact_mut(bytes.len()) {
            chunk.copy_from_slice(&bytes);
        }
        Ok(())
    }));
    // SAFETY: event is NULL or writable.
    unsafe { submit(&queue, command::SVM_MEMFILL, work, &deps, CL_FALSE, event) }
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

#[allow(clippy::too_many_arguments)]
fn enqueue_svm_map(
    command_queue: cl_command_queue,
    blocking_map: cl_bool,
    map_flags: cl_map_flags,
    svm_ptr: *mut c_void,
    size: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    // SAFETY: the spec's contract on event_wait_list: NULL or num_events_in_wait_list events.
    let (queue, deps) =
        unsafe { svm_queue(command_queue, num_events_in_wait_list, event_wait_list) }?;
    // CL_INVALID_VALUE "if svm_ptr is NULL", "if size is 0 or if values specified in
    // map_flags are not valid".
    let known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    let invalidate = map_flags & CL_MAP_WRITE_INVALIDATE_REGION != 0;
    if svm_ptr.is_null()
        || size == 0
        || map_flags & !known != 0
        || (invalidate && map_flags & (CL_MAP_READ | CL_MAP_WRITE) != 0)
    {
        return Err(ClError::InvalidValue);
    }
    // The host already sees the memory at svm_ptr: the map only orders itself.
    let work = Work::Nothing(Vec::new());
    // SAFETY: event is NULL or writable.
    unsafe { submit(&queue, command::SVM_MAP, work, &deps, blocking_map, event) }
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
    // SAFETY: the spec's contract on event_wait_list: NULL or num_events_in_wait_list events.
    let (queue, deps) =
        unsafe { svm_queue(command_queue, num_events_in_wait_list, event_wait_list) }?;
    // CL_INVALID_VALUE "if svm_ptr is NULL".
    if svm_ptr.is_null() {
        return Err(ClError::InvalidValue);
    }
    let work = Work::Nothing(Vec::new());
    // SAFETY: event is NULL or writable.
    unsafe { submit(&queue, command::SVM_UNMAP, work, &deps, CL_FALSE, event) }
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

#[allow(clippy::too_many_arguments)]
fn enqueue_svm_migrate_mem(
    command_queue: cl_command_queue,
    num_svm_pointers: cl_uint,
    svm_pointers: *mut *const c_void,
    sizes: *const usize,
    migration_flags: cl_mem_migration_flags,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    // SAFETY: the spec's contract on event_wait_list: NULL or num_events_in_wait_list events.
    let (queue, deps) =
        unsafe { svm_queue(command_queue, num_events_in_wait_list, event_wait_list) }?;
    // CL_INVALID_VALUE "if num_svm_pointers is zero or svm_pointers is NULL", "if flags is not
    // 0 or is not any of the values described".
    let known = CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
    if num_svm_pointers == 0 || svm_pointers.is_null() || migration_flags & !known != 0 {
        return Err(ClError::InvalidValue);
    }
    // SAFETY: by the spec svm_pointers holds num_svm_pointers pointers, and sizes is NULL or
    // holds as many sizes.
    let (pointers, sizes) = unsafe {
        (
            std::slice::from_raw_parts(svm_pointers, num_svm_pointers as usize),
            (!sizes.is_null())
                .then(|| std::slice::from_raw_parts(sizes, num_svm_pointers as usize)),
        )
    };
    for (i, &p) in pointers.iter().enumerate() {
        // CL_INVALID_VALUE "if any pointer in svm_pointers is NULL", and "if sizes[i] is
        // non-zero range [svm_pointers[i], svm_pointers[i]+sizes[i]) is not contained within
        // an existing clSVMAlloc allocation".
        let len = sizes.map_or(0, |s| s[i]);
        if p.is_null() || !svm::contains(&queue.context, p as usize, len.max(1)) {
            return Err(ClError::InvalidValue);
        }
    }
    // Every device shares the host's memory: nothing moves.
    let work = Work::Nothing(Vec::new());
    // SAFETY: event is NULL or writable.
    unsafe {
        submit(
            &queue,
            command::SVM_MIGRATE_MEM,
            work,
            &deps,
            CL_FALSE,
            event,
        )
    }
}
