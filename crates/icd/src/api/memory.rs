//! Chapter 5.2 and 5.5 of the API: buffer objects, their transfers and maps, and the memory
//! object queries of every kind of memory object (images are in `image.rs`, pipes in
//! `pipe.rs`).

use std::ffi::c_void;
use std::sync::Arc;

use ferrocl_core::event::command;
use ferrocl_core::memory::{copy_overlaps, flags, CopyEnd, Location, Rect};
use ferrocl_core::{ClError, ClResult, CommandQueue, Context, HostPtr, MemObject, Work};
use opencl_sys::*;

use crate::api::event::{give_event, wait_if_blocking, wait_list};
use crate::entry::entry;
use crate::handle::{self, get, new_handle};
use crate::info::{self, answer};
use crate::UserData;

pub(crate) const KNOWN_FLAGS: u64 = flags::DEVICE_ACCESS | flags::HOST_PTR_USE | flags::HOST_ACCESS;

/// Whether more than one bit of `group` is set in `f`.
pub(crate) fn several(f: u64, group: u64) -> bool {
    (f & group).count_ones() > 1
}

/// Checks the flags of a new buffer.
///
/// 5.2.1: CL_INVALID_VALUE "if values specified in flags are not valid as defined in the
/// Memory Flags table": the device-access flags, the host-pointer flags USE with ALLOC or COPY,
/// and the host-access flags are each mutually exclusive.
pub(crate) fn check_buffer_flags(f: u64) -> ClResult<u64> {
    if f & !KNOWN_FLAGS != 0
        || several(f, flags::DEVICE_ACCESS)
        || several(f, flags::HOST_ACCESS)
        || (f & flags::USE_HOST_PTR != 0 && f & (flags::ALLOC_HOST_PTR | flags::COPY_HOST_PTR) != 0)
    {
        return Err(ClError::InvalidValue);
    }
    // "If the value specified for flags is 0, the default is used which is CL_MEM_READ_WRITE";
    // CL_MEM_FLAGS still returns "the flags argument value specified when memobj is created"
    // (5.5.5), so the flags are kept as given.
    Ok(f)
}

fn new_buffer(
    context: cl_context,
    properties: Option<Vec<u64>>,
    mem_flags: cl_mem_flags,
    size: usize,
    host_ptr: *mut c_void,
) -> ClResult<cl_mem> {
    let ctx = get::<Context, _>(context)?;
    let f = check_buffer_flags(mem_flags)?;
    // 5.2.1: CL_INVALID_BUFFER_SIZE "if size is 0, or if size is greater than
    // CL_DEVICE_MAX_MEM_ALLOC_SIZE value specified in the Device Queries table for all devices
    // in context".
    if size == 0 || size as u64 > ctx.max_mem_alloc_size() {
        return Err(ClError::InvalidBufferSize);
    }
    // 5.2.1: CL_INVALID_HOST_PTR "if host_ptr is NULL and CL_MEM_USE_HOST_PTR or
    // CL_MEM_COPY_HOST_PTR are set in flags or if host_ptr is not NULL but
    // CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are not set in flags".
    let wants_ptr = f & (flags::USE_HOST_PTR | flags::COPY_HOST_PTR) != 0;
    if wants_ptr == host_ptr.is_null() {
        return Err(ClError::InvalidHostPtr);
    }
    // CL_INVALID_BUFFER_SIZE "if CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR is set in flags,
    // and host_ptr is a pointer returned by clSVMAlloc, and size is greater than the size
    // passed to clSVMAlloc".
    if let Some(region) = ferrocl_core::svm::find(&ctx, host_ptr as usize) {
        if region.base == host_ptr as usize && size > region.size {
            return Err(ClError::InvalidBufferSize);
        }
    }
    // SAFETY: the spec makes the application keep host_ptr valid for `size` bytes: for the
    // copy made here with COPY_HOST_PTR, for the buffer's life with USE_HOST_PTR.
    let host = (!host_ptr.is_null()).then(|| unsafe { HostPtr::new(host_ptr.cast()) });
    let mem = MemObject::new_buffer(ctx, f, size, host, properties.unwrap_or_default())?;
    Ok(new_handle(mem))
}

entry! {
    create_buffer => fn clCreateBuffer(
        context: cl_context,
        flags_: cl_mem_flags,
        size: usize,
        host_ptr: *mut c_void,
        ; errcode_ret
    ) -> cl_mem
}

fn create_buffer(
    context: cl_context,
    flags_: cl_mem_flags,
    size: usize,
    host_ptr: *mut c_void,
) -> ClResult<cl_mem> {
    new_buffer(context, None, flags_, size, host_ptr)
}

entry! {
    create_buffer_with_properties => fn clCreateBufferWithProperties(
        context: cl_context,
        properties: *const cl_mem_properties,
        flags_: cl_mem_flags,
        size: usize,
        host_ptr: *mut c_void,
        ; errcode_ret
    ) -> cl_mem
}

fn create_buffer_with_properties(
    context: cl_context,
    properties: *const cl_mem_properties,
    flags_: cl_mem_flags,
    size: usize,
    host_ptr: *mut c_void,
) -> ClResult<cl_mem> {
    get::<Context, _>(context)?;
    new_buffer(context, no_properties(properties)?, flags_, size, host_ptr)
}

/// The `CL_MEM_PROPERTIES` of a memory object created with `properties`, none of which is
/// supported: 5.2.1 (and 5.3.1 for images): CL_INVALID_PROPERTY "if a property name in
/// properties is not a supported property name". `None` for NULL, the empty list for an
/// empty one.
pub(crate) fn no_properties(properties: *const cl_mem_properties) -> ClResult<Option<Vec<u64>>> {
    if properties.is_null() {
        return Ok(None);
    }
    // SAFETY: properties is non-NULL (checked above) and, by the spec, zero-terminated, so its
    // first entry is readable.
    if unsafe { properties.read() } != 0 {
        return Err(ClError::InvalidProperty);
    }
    Ok(Some(vec![0]))
}

entry! {
    create_sub_buffer => fn clCreateSubBuffer(
        buffer: cl_mem,
        flags_: cl_mem_flags,
        buffer_create_type: cl_buffer_create_type,
        buffer_create_info: *const c_void,
        ; errcode_ret
    ) -> cl_mem
}

fn create_sub_buffer(
    buffer: cl_mem,
    flags_: cl_mem_flags,
    buffer_create_type: cl_buffer_create_type,
    buffer_create_info: *const c_void,
) -> ClResult<cl_mem> {
    let parent = get::<MemObject, _>(buffer)?;
    // 5.2.1: CL_INVALID_MEM_OBJECT "if buffer is not a buffer object or is a sub-buffer
    // object".
    if parent.parent.is_some() || !parent.is_buffer() {
        return Err(ClError::InvalidMemObject);
    }
    let sub_flags = sub_buffer_flags(parent.flags, flags_)?;
    // CL_INVALID_VALUE "if value specified in buffer_create_type is not valid" or "if
    // buffer_create_info is NULL".
    if buffer_create_type != CL_BUFFER_CREATE_TYPE_REGION || buffer_create_info.is_null() {
        return Err(ClError::InvalidValue);
    }
    // SAFETY: buffer_create_info is non-NULL (checked above) and, for
    // CL_BUFFER_CREATE_TYPE_REGION, points at a cl_buffer_region by the spec.
    let region = unsafe { buffer_create_info.cast::<cl_buffer_region>().read() };
    // CL_INVALID_BUFFER_SIZE "if the size field of the cl_buffer_region structure passed
    // in buffer_create_info is 0".
    if region.size == 0 {
        return Err(ClError::InvalidBufferSize);
    }
    // CL_INVALID_VALUE "if the region specified by the cl_buffer_region structure passed
    // in buffer_create_info is out of bounds in buffer".
    if region
        .origin
        .checked_add(region.size)
        .is_none_or(|end| end > parent.size)
    {
        return Err(ClError::InvalidValue);
    }
    check_sub_buffer_alignment(&parent.context, region.origin)?;
    Ok(new_handle(MemObject::new_sub_buffer(
        &parent,
        sub_flags,
        region.origin,
        region.size,
    )))
}

/// CL_MISALIGNED_SUB_BUFFER_OFFSET "if there are no devices in context associated with buffer
/// for which the origin field of the cl_buffer_region structure passed in buffer_create_info is
/// aligned to the CL_DEVICE_MEM_BASE_ADDR_ALIGN value".
fn check_sub_buffer_alignment(context: &Context, origin: usize) -> ClResult<()> {
    let aligned = context
        .devices
        .iter()
        .any(|d| origin % (d.info.mem_base_addr_align as usize / 8) == 0);
    if aligned {
        Ok(())
    } else {
        Err(ClError::MisalignedSubBufferOffset)
    }
}

/// The flags of a sub-buffer: checked against its parent's, and inheriting what it leaves out.
pub(crate) fn sub_buffer_flags(parent: u64, f: u64) -> ClResult<u64> {
    if f & !(flags::DEVICE_ACCESS | flags::HOST_ACCESS) != 0
        || several(f, flags::DEVICE_ACCESS)
        || several(f, flags::HOST_ACCESS)
    {
        // 5.2.1: CL_INVALID_VALUE "if flags specifies CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR
        // or CL_MEM_COPY_HOST_PTR" (and for any flag that is not valid).
        return Err(ClError::InvalidValue);
    }
    // CL_INVALID_VALUE "if buffer was created with CL_MEM_WRITE_ONLY and flags specifies
    // CL_MEM_READ_WRITE or CL_MEM_READ_ONLY, or if buffer was created with CL_MEM_READ_ONLY and
    // flags specifies CL_MEM_READ_WRITE or CL_MEM_WRITE_ONLY".
    let conflicts = [
        (flags::WRITE_ONLY, flags::READ_WRITE | flags::READ_ONLY),
        (flags::READ_ONLY, flags::READ_WRITE | flags::WRITE_ONLY),
        // "if buffer was created with CL_MEM_HOST_WRITE_ONLY and flags specify
        // CL_MEM_HOST_READ_ONLY, or if buffer was created with CL_MEM_HOST_READ_ONLY and flags
        // specify CL_MEM_HOST_WRITE_ONLY, or if buffer was created with CL_MEM_HOST_NO_ACCESS
        // and flags specify CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_WRITE_ONLY".
        (flags::HOST_WRITE_ONLY, flags::HOST_READ_ONLY),
        (flags::HOST_READ_ONLY, flags::HOST_WRITE_ONLY),
        (
            flags::HOST_NO_ACCESS,
            flags::HOST_READ_ONLY | flags::HOST_WRITE_ONLY,
        ),
    ];
    if conflicts
        .iter()
        .any(|&(p, c)| parent & p != 0 && f & c != 0)
    {
        return Err(ClError::InvalidValue);
    }
    // "If the CL_MEM_READ_WRITE, CL_MEM_READ_ONLY or CL_MEM_WRITE_ONLY values are not specified
    // in flags, they are inherited from the corresponding memory access qualifiers associated
    // with buffer. The CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR and CL_MEM_COPY_HOST_PTR
    // values cannot be specified in flags but are inherited ... If the CL_MEM_HOST_WRITE_ONLY,
    // CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS values are not specified in flags, they
    // are inherited".
    let mut out = f | (parent & flags::HOST_PTR_USE);
    if f & flags::DEVICE_ACCESS == 0 {
        out |= parent & flags::DEVICE_ACCESS;
    }
    if f & flags::HOST_ACCESS == 0 {
        out |= parent & flags::HOST_ACCESS;
    }
    Ok(out)
}

/// The queue, buffers and wait list of a transfer, checked together: every transfer answers
/// CL_INVALID_CONTEXT "if the context associated with command_queue and buffer are not the
/// same or if the context associated with command_queue and events in event_wait_list are not
/// the same".
fn same_context(queue: &CommandQueue, mems: &[&Arc<MemObject>]) -> ClResult<()> {
    if mems
        .iter()
        .any(|m| !Arc::ptr_eq(&m.context, &queue.context))
    {
        return Err(ClError::InvalidContext);
    }
    Ok(())
}

/// A command's queue, memory objects and wait list.
pub(crate) type CommandObjects<const N: usize> = (
    Arc<CommandQueue>,
    [Arc<MemObject>; N],
    Vec<Arc<ferrocl_core::Event>>,
);

/// The queue, memory objects and wait list of a buffer command, checked together: every
/// such command answers CL_INVALID_CONTEXT "if the context associated with command_queue and
/// buffer are not the same or if the context associated with command_queue and events in
/// event_wait_list are not the same".
///
/// # Safety
/// `events` is NULL or points at `num_events` handles.
pub(crate) unsafe fn command_objects<const N: usize>(
    command_queue: cl_command_queue,
    mems: [cl_mem; N],
    num_events: cl_uint,
    events: *const cl_event,
) -> ClResult<CommandObjects<N>> {
    let queue = get::<CommandQueue, _>(command_queue)?;
    let mut objects = Vec::with_capacity(N);
    for m in mems {
        objects.push(get::<MemObject, _>(m)?);
    }
    // SAFETY: the caller's contract.
    let deps = unsafe { wait_list(num_events, events) }?;
    if objects
        .iter()
        .any(|m| !Arc::ptr_eq(&m.context, &queue.context))
    {
        return Err(ClError::InvalidContext);
    }
    queue.check_wait_list(&deps)?;
    let objects: [Arc<MemObject>; N] = objects.try_into().map_err(|_| ClError::OutOfHostMemory)?;
    Ok((queue, objects, deps))
}

/// CL_INVALID_VALUE "if the region being read or written specified by (offset, size) is out
/// of bounds or if ptr is a NULL value" (and "if size is 0").
fn check_range(mem: &MemObject, offset: usize, size: usize) -> ClResult<()> {
    // CL_INVALID_MEM_OBJECT "if buffer is not a valid buffer object" (an image or a pipe is not
    // one).
    if !mem.is_buffer() {
        return Err(ClError::InvalidMemObject);
    }
    if size == 0 || offset.checked_add(size).is_none_or(|end| end > mem.size) {
        return Err(ClError::InvalidValue);
    }
    Ok(())
}

/// The host-access rules of reads and writes: CL_INVALID_OPERATION if a read is "called on
/// buffer which has been created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS", and a
/// write on one "created with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS".
pub(crate) fn check_host_access(mem: &MemObject, read: bool, write: bool) -> ClResult<()> {
    let denied = (read && mem.flags & (flags::HOST_WRITE_ONLY | flags::HOST_NO_ACCESS) != 0)
        || (write && mem.flags & (flags::HOST_READ_ONLY | flags::HOST_NO_ACCESS) != 0);
    if denied {
        Err(ClError::InvalidOperation)
    } else {
        Ok(())
    }
}

/// Enqueues `work`, hands out its event, and waits for it when the call is blocking.
///
/// # Safety
/// `event` is NULL or writable.
pub(crate) unsafe fn submit(
    queue: &Arc<CommandQueue>,
    command_type: u32,
    work: Work,
    deps: &[Arc<ferrocl_core::Event>],
    blocking: cl_bool,
    event: *mut cl_event,
) -> ClResult<()> {
    let ev = queue.enqueue(command_type, work, deps)?;
    // SAFETY: the caller's contract.
    unsafe { give_event(event, ev.clone()) };
    wait_if_blocking(&ev, blocking)
}

/// Reads or writes a buffer: the shared body of clEnqueueReadBuffer and clEnqueueWriteBuffer.
///
/// # Safety
/// As the entry points': `ptr` valid for `size` bytes until the command completes.
#[allow(clippy::too_many_arguments)]
unsafe fn transfer(
    read: bool,
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking: cl_bool,
    offset: usize,
    size: usize,
    ptr: *mut c_void,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    // SAFETY: the caller's contract.
    let (queue, [mem], deps) =
        unsafe { command_objects(command_queue, [buffer], num_events, events) }?;
    check_range(&mem, offset, size)?;
    if ptr.is_null() {
        return Err(ClError::InvalidValue);
    }
    check_host_access(&mem, read, !read)?;
    // SAFETY: the application keeps ptr valid for size bytes until the command completes.
    let host = Location::Host(unsafe { HostPtr::new(ptr.cast()) });
    let dev = Location::Mem(mem, offset);
    let (work, command_type) = if read {
        (
            Work::Copy {
                src: dev,
                dst: host,
                size,
            },
            command::READ_BUFFER,
        )
    } else {
        (
            Work::Copy {
                src: host,
                dst: dev,
                size,
            },
            command::WRITE_BUFFER,
        )
    };
    // SAFETY: the caller's contract.
    unsafe { submit(&queue, command_type, work, &deps, blocking, event) }
}

entry! {
    enqueue_read_buffer => fn clEnqueueReadBuffer(
        command_queue: cl_command_queue,
        buffer: cl_mem,
        blocking_read: cl_bool,
        offset: usize,
        size: usize,
        ptr: *mut c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_read_buffer(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking_read: cl_bool,
    offset: usize,
    size: usize,
    ptr: *mut c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    // SAFETY: by the spec, ptr is valid for size bytes until the command completes,
    // event_wait_list is NULL or holds num_events_in_wait_list events, and event is NULL or
    // writable.
    unsafe {
        transfer(
            true,
            command_queue,
            buffer,
            blocking_read,
            offset,
            size,
            ptr,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    }
}

entry! {
    enqueue_write_buffer => fn clEnqueueWriteBuffer(
        command_queue: cl_command_queue,
        buffer: cl_mem,
        blocking_write: cl_bool,
        offset: usize,
        size: usize,
        ptr: *const c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_write_buffer(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking_write: cl_bool,
    offset: usize,
    size: usize,
    ptr: *const c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    // SAFETY: by the spec, ptr is valid for size bytes until the command completes,
    // event_wait_list is NULL or holds num_events_in_wait_list events, and event is NULL or
    // writable.
    unsafe {
        transfer(
            false,
            command_queue,
            buffer,
            blocking_write,
            offset,
            size,
            ptr.cast_mut(),
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    }
}

entry! {
    enqueue_copy_buffer => fn clEnqueueCopyBuffer(
        command_queue: cl_command_queue,
        src_buffer: cl_mem,
        dst_buffer: cl_mem,
        src_offset: usize,
        dst_offset: usize,
        size: usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_copy_buffer(
    command_queue: cl_command_queue,
    src_buffer: cl_mem,
    dst_buffer: cl_mem,
    src_offset: usize,
    dst_offset: usize,
    size: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    // SAFETY: event_wait_list is NULL or, by the spec, holds num_events_in_wait_list events.
    let (queue, [src, dst], deps) = unsafe {
        command_objects(
            command_queue,
            [src_buffer, dst_buffer],
            num_events_in_wait_list,
            event_wait_list,
        )
    }?;
    // 5.2.3: CL_INVALID_VALUE "if src_offset, dst_offset, size, src_offset + size or
    // dst_offset + size require accessing elements outside the src_buffer and dst_buffer
    // buffer objects respectively", and "if size is 0".
    check_range(&src, src_offset, size)?;
    check_range(&dst, dst_offset, size)?;
    // CL_MEM_COPY_OVERLAP "if src_buffer and dst_buffer are the same buffer or sub-buffer
    // object and the source and destination regions overlap or if src_buffer and dst_buffer
    // are different sub-buffers of the same associated buffer object and they overlap".
    // A linear copy is a rectangle of one row (Appendix D's test then is this sentence's).
    let pitch = [size, size];
    let (src_end, dst_end) = (
        CopyEnd {
            mem: &src,
            offset: src_offset,
            pitch,
        },
        CopyEnd {
            mem: &dst,
            offset: dst_offset,
            pitch,
        },
    );
    if copy_overlaps(src_end, dst_end, [size, 1, 1]) {
        return Err(ClError::MemCopyOverlap);
    }
    let work = Work::Copy {
        src: Location::Mem(src, src_offset),
        dst: Location::Mem(dst, dst_offset),
        size,
    };
    // SAFETY: event is NULL or, by the spec, writable.
    unsafe { submit(&queue, command::COPY_BUFFER, work, &deps, CL_FALSE, event) }
}

entry! {
    enqueue_fill_buffer => fn clEnqueueFillBuffer(
        command_queue: cl_command_queue,
        buffer: cl_mem,
        pattern: *const c_void,
        pattern_size: usize,
        offset: usize,
        size: usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_fill_buffer(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    pattern: *const c_void,
    pattern_size: usize,
    offset: usize,
    size: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    // SAFETY: event_wait_list is NULL or, by the spec, holds num_events_in_wait_list events.
    let (queue, [mem], deps) = unsafe {
        command_objects(
            command_queue,
            [buffer],
            num_events_in_wait_list,
            event_wait_list,
        )
    }?;
    // 5.2.4: CL_INVALID_VALUE "if pattern is NULL or if pattern_size is 0 or if
    // pattern_size is not one of { 1, 2, 4, 8, 16, 32, 64, 128 }", "if offset or offset +
    // size require accessing elements outside the buffer", "if offset and size are not a
    // multiple of pattern_size".
    if pattern.is_null() || !pattern_size.is_power_of_two() || pattern_size > 128 {
        return Err(ClError::InvalidValue);
    }
    check_range(&mem, offset, size)?;
    if offset % pattern_size != 0 || size % pattern_size != 0 {
        return Err(ClError::InvalidValue);
    }
    // The pattern is copied now: the application may reuse its memory once the call returns.
    // SAFETY: pattern is non-NULL (checked above) and, by the spec, pattern_size bytes.
    let pattern =
        unsafe { std::slice::from_raw_parts(pattern.cast::<u8>(), pattern_size) }.to_vec();
    let work = Work::Fill {
        dst: mem,
        offset,
        size,
        pattern,
    };
    // SAFETY: event is NULL or, by the spec, writable.
    unsafe { submit(&queue, command::FILL_BUFFER, work, &deps, CL_FALSE, event) }
}

/// The geometry of one end of a rectangular transfer, with the spec's defaults for zero
/// pitches: "If buffer_row_pitch is 0, buffer_row_pitch is computed as region[0]. If
/// buffer_slice_pitch is 0, buffer_slice_pitch is computed as region[1] × buffer_row_pitch."
fn rect_end(
    origin: [usize; 3],
    region: [usize; 3],
    row_pitch: usize,
    slice_pitch: usize,
) -> ClResult<(usize, [usize; 2])> {
    let row = if row_pitch == 0 { region[0] } else { row_pitch };
    let slice = if slice_pitch == 0 {
        region[1].checked_mul(row).ok_or(ClError::InvalidValue)?
    } else {
        slice_pitch
    };
    // 5.2.2: CL_INVALID_VALUE "if buffer_row_pitch is not 0 and is less than region[0]", "if
    // buffer_slice_pitch is not 0 and is less than region[1] × buffer_row_pitch and not a
    // multiple of buffer_row_pitch" (and the same of the host pitches).
    if row < region[0] || slice < region[1].saturating_mul(row) || slice % row != 0 {
        return Err(ClError::InvalidValue);
    }
    let offset = origin[2]
        .checked_mul(slice)
        .and_then(|z| origin[1].checked_mul(row).and_then(|y| z.checked_add(y)))
        .and_then(|zy| zy.checked_add(origin[0]))
        .ok_or(ClError::InvalidValue)?;
    Ok((offset, [row, slice]))
}

/// The number of bytes from a rectangle's first byte to one past its last.
fn rect_extent(region: [usize; 3], pitch: [usize; 2]) -> usize {
    (region[2] - 1) * pitch[1] + (region[1] - 1) * pitch[0] + region[0]
}

/// Reads a 3-element `size_t` array argument; CL_INVALID_VALUE if it is NULL.
///
/// # Safety
/// `p` is NULL or points at three `size_t`.
pub(crate) unsafe fn triple(p: *const usize) -> ClResult<[usize; 3]> {
    if p.is_null() {
        return Err(ClError::InvalidValue);
    }
    // SAFETY: the caller's contract.
    Ok(unsafe { p.cast::<[usize; 3]>().read_unaligned() })
}

/// The shared body of clEnqueueReadBufferRect and clEnqueueWriteBufferRect.
///
/// # Safety
/// As the entry points'.
#[allow(clippy::too_many_arguments)]
unsafe fn transfer_rect(
    read: bool,
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking: cl_bool,
    buffer_origin: *const usize,
    host_origin: *const usize,
    region: *const usize,
    buffer_row_pitch: usize,
    buffer_slice_pitch: usize,
    host_row_pitch: usize,
    host_slice_pitch: usize,
    ptr: *mut c_void,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    // SAFETY: the caller's contract.
    let (queue, [mem], deps) =
        unsafe { command_objects(command_queue, [buffer], num_events, events) }?;
    // CL_INVALID_MEM_OBJECT "if buffer is not a valid buffer object".
    if !mem.is_buffer() {
        return Err(ClError::InvalidMemObject);
    }
    let (buffer_origin, host_origin, region) = unsafe {
        (
            triple(buffer_origin)?,
            triple(host_origin)?,
            triple(region)?,
        )
    };
    // CL_INVALID_VALUE "if any region array element is 0" and "if ptr is NULL".
    if region.contains(&0) || ptr.is_null() {
        return Err(ClError::InvalidValue);
    }
    let (mem_offset, mem_pitch) =
        rect_end(buffer_origin, region, buffer_row_pitch, buffer_slice_pitch)?;
    let (host_offset, host_pitch) =
        rect_end(host_origin, region, host_row_pitch, host_slice_pitch)?;
    // CL_INVALID_VALUE "if the region being read or written specified by (buffer_origin,
    // region, buffer_row_pitch, buffer_slice_pitch) is out of bounds".
    if mem_offset
        .checked_add(rect_extent(region, mem_pitch))
        .is_none_or(|end| end > mem.size)
    {
        return Err(ClError::InvalidValue);
    }
    check_host_access(&mem, read, !read)?;
    // SAFETY: the application keeps the host rectangle valid until the command completes.
    let host = Location::Host(unsafe { HostPtr::new(ptr.cast::<u8>().wrapping_add(host_offset)) });
    let dev = Location::Mem(mem, mem_offset);
    let (work, command_type) = if read {
        (
            Work::CopyRect {
                src: dev,
                dst: host,
                rect: Rect {
                    region,
                    src_pitch: mem_pitch,
                    dst_pitch: host_pitch,
                },
            },
            command::READ_BUFFER_RECT,
        )
    } else {
        (
            Work::CopyRect {
                src: host,
                dst: dev,
                rect: Rect {
                    region,
                    src_pitch: host_pitch,
                    dst_pitch: mem_pitch,
                },
            },
            command::WRITE_BUFFER_RECT,
        )
    };
    // SAFETY: the caller's contract.
    unsafe { submit(&queue, command_type, work, &deps, blocking, event) }
}

entry! {
    enqueue_read_buffer_rect => fn clEnqueueReadBufferRect(
        command_queue: cl_command_queue,
        buffer: cl_mem,
        blocking_read: cl_bool,
        buffer_origin: *const usize,
        host_origin: *const usize,
        region: *const usize,
        buffer_row_pitch: usize,
        buffer_slice_pitch: usize,
        host_row_pitch: usize,
        host_slice_pitch: usize,
        ptr: *mut c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_read_buffer_rect(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking_read: cl_bool,
    buffer_origin: *const usize,
    host_origin: *const usize,
    region: *const usize,
    buffer_row_pitch: usize,
    buffer_slice_pitch: usize,
    host_row_pitch: usize,
    host_slice_pitch: usize,
    ptr: *mut c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    // SAFETY: the C arguments, passed on with the contracts the spec gives them: origins and
    // regions of three values, ptr valid for the rectangle until the command completes, the
    // wait list and event as for every enqueue.
    unsafe {
        transfer_rect(
            true,
            command_queue,
            buffer,
            blocking_read,
            buffer_origin,
            host_origin,
            region,
            buffer_row_pitch,
            buffer_slice_pitch,
            host_row_pitch,
            host_slice_pitch,
            ptr,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    }
}

entry! {
    enqueue_write_buffer_rect => fn clEnqueueWriteBufferRect(
        command_queue: cl_command_queue,
        buffer: cl_mem,
        blocking_write: cl_bool,
        buffer_origin: *const usize,
        host_origin: *const usize,
        region: *const usize,
        buffer_row_pitch: usize,
        buffer_slice_pitch: usize,
        host_row_pitch: usize,
        host_slice_pitch: usize,
        ptr: *const c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_write_buffer_rect(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking_write: cl_bool,
    buffer_origin: *const usize,
    host_origin: *const usize,
    region: *const usize,
    buffer_row_pitch: usize,
    buffer_slice_pitch: usize,
    host_row_pitch: usize,
    host_slice_pitch: usize,
    ptr: *const c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    // SAFETY: the C arguments, passed on with the contracts the spec gives them: origins and
    // regions of three values, ptr valid for the rectangle until the command completes, the
    // wait list and event as for every enqueue.
    unsafe {
        transfer_rect(
            false,
            command_queue,
            buffer,
            blocking_write,
            buffer_origin,
            host_origin,
            region,
            buffer_row_pitch,
            buffer_slice_pitch,
            host_row_pitch,
            host_slice_pitch,
            ptr.cast_mut(),
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    }
}

entry! {
    enqueue_copy_buffer_rect => fn clEnqueueCopyBufferRect(
        command_queue: cl_command_queue,
        src_buffer: cl_mem,
        dst_buffer: cl_mem,
        src_origin: *const usize,
        dst_origin: *const usize,
        region: *const usize,
        src_row_pitch: usize,
        src_slice_pitch: usize,
        dst_row_pitch: usize,
        dst_slice_pitch: usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_copy_buffer_rect(
    command_queue: cl_command_queue,
    src_buffer: cl_mem,
    dst_buffer: cl_mem,
    src_origin: *const usize,
    dst_origin: *const usize,
    region: *const usize,
    src_row_pitch: usize,
    src_slice_pitch: usize,
    dst_row_pitch: usize,
    dst_slice_pitch: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    // SAFETY: event_wait_list is NULL or, by the spec, holds num_events_in_wait_list events.
    let (queue, [src, dst], deps) = unsafe {
        command_objects(
            command_queue,
            [src_buffer, dst_buffer],
            num_events_in_wait_list,
            event_wait_list,
        )
    }?;
    // CL_INVALID_MEM_OBJECT "if src_buffer and dst_buffer are not valid buffer objects".
    if !src.is_buffer() || !dst.is_buffer() {
        return Err(ClError::InvalidMemObject);
    }
    // SAFETY: each origin and region is NULL or, by the spec, three values.
    let (src_origin, dst_origin, region) = (
        unsafe { triple(src_origin) }?,
        unsafe { triple(dst_origin) }?,
        unsafe { triple(region) }?,
    );
    if region.contains(&0) {
        return Err(ClError::InvalidValue);
    }
    let (src_offset, src_pitch) = rect_end(src_origin, region, src_row_pitch, src_slice_pitch)?;
    let (dst_offset, dst_pitch) = rect_end(dst_origin, region, dst_row_pitch, dst_slice_pitch)?;
    // 5.2.3: CL_INVALID_VALUE "if (src_origin, region, src_row_pitch, src_slice_pitch) or
    // (dst_origin, region, dst_row_pitch, dst_slice_pitch) require accessing elements
    // outside the src_buffer and dst_buffer buffer objects respectively".
    if src_offset
        .checked_add(rect_extent(region, src_pitch))
        .is_none_or(|end| end > src.size)
        || dst_offset
            .checked_add(rect_extent(region, dst_pitch))
            .is_none_or(|end| end > dst.size)
    {
        return Err(ClError::InvalidValue);
    }
    if Arc::ptr_eq(&src, &dst) {
        // CL_INVALID_VALUE "if src_buffer and dst_buffer are the same buffer object and
        // src_slice_pitch is not equal to dst_slice_pitch and src_row_pitch is not equal to
        // dst_row_pitch".
        if src_pitch != dst_pitch {
            return Err(ClError::InvalidValue);
        }
    }
    // CL_MEM_COPY_OVERLAP "if src_buffer and dst_buffer are the same buffer or sub-buffer
    // object and the source and destination regions overlap or if src_buffer and dst_buffer
    // are different sub-buffers of the same associated buffer object and they overlap".
    // "Refer to Checking for Memory Copy Overlap for details on how to determine if source
    // and destination regions overlap" (Appendix D).
    let src_end = CopyEnd {
        mem: &src,
        offset: src_offset,
        pitch: src_pitch,
    };
    let dst_end = CopyEnd {
        mem: &dst,
        offset: dst_offset,
        pitch: dst_pitch,
    };
    if copy_overlaps(src_end, dst_end, region) {
        return Err(ClError::MemCopyOverlap);
    }
    let work = Work::CopyRect {
        src: Location::Mem(src, src_offset),
        dst: Location::Mem(dst, dst_offset),
        rect: Rect {
            region,
            src_pitch,
            dst_pitch,
        },
    };
    // SAFETY: event is NULL or, by the spec, writable.
    unsafe {
        submit(
            &queue,
            command::COPY_BUFFER_RECT,
            work,
            &deps,
            CL_FALSE,
            event,
        )
    }
}

pub(crate) const MAP_FLAGS: u64 = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;

entry! {
    enqueue_map_buffer => fn clEnqueueMapBuffer(
        command_queue: cl_command_queue,
        buffer: cl_mem,
        blocking_map: cl_bool,
        map_flags: cl_map_flags,
        offset: usize,
        size: usize,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
        ; errcode_ret
    ) -> *mut c_void
}

fn enqueue_map_buffer(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking_map: cl_bool,
    map_flags: cl_map_flags,
    offset: usize,
    size: usize,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<*mut c_void> {
    // SAFETY: event_wait_list is NULL or, by the spec, holds num_events_in_wait_list events.
    let (queue, [mem], deps) = unsafe {
        command_objects(
            command_queue,
            [buffer],
            num_events_in_wait_list,
            event_wait_list,
        )
    }?;
    // 5.5.2: CL_INVALID_VALUE "if region being mapped given by (offset, size) is out of
    // bounds or if size is 0 or if values specified in map_flags are not valid";
    // CL_MAP_WRITE_INVALIDATE_REGION "is mutually exclusive with CL_MAP_READ or
    // CL_MAP_WRITE".
    check_range(&mem, offset, size)?;
    if map_flags & !MAP_FLAGS != 0
        || (map_flags & CL_MAP_WRITE_INVALIDATE_REGION != 0
            && map_flags & (CL_MAP_READ | CL_MAP_WRITE) != 0)
    {
        return Err(ClError::InvalidValue);
    }
    let writes = map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0;
    check_host_access(&mem, map_flags & CL_MAP_READ != 0, writes)?;
    // The mapped region is the buffer's host storage itself: the map command makes its bytes
    // there current when it runs (a GPU's kernels may have written them since).
    let ptr = mem.map(offset, size, writes)?;
    let ev = queue.enqueue(command::MAP_BUFFER, Work::Map { mem, writes }, &deps)?;
    // SAFETY: the spec's contract on event: NULL or writable.
    unsafe { give_event(event, ev.clone()) };
    wait_if_blocking(&ev, blocking_map)?;
    Ok(ptr as *mut c_void)
}

entry! {
    enqueue_unmap_mem_object => fn clEnqueueUnmapMemObject(
        command_queue: cl_command_queue,
        memobj: cl_mem,
        mapped_ptr: *mut c_void,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_unmap_mem_object(
    command_queue: cl_command_queue,
    memobj: cl_mem,
    mapped_ptr: *mut c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    // SAFETY: event_wait_list is NULL or, by the spec, holds num_events_in_wait_list events.
    let (queue, [mem], deps) = unsafe {
        command_objects(
            command_queue,
            [memobj],
            num_events_in_wait_list,
            event_wait_list,
        )
    }?;
    mem.unmap(mapped_ptr as usize)?;
    // SAFETY: event is NULL or, by the spec, writable.
    unsafe {
        submit(
            &queue,
            command::UNMAP_MEM_OBJECT,
            Work::Nothing(vec![mem]),
            &deps,
            CL_FALSE,
            event,
        )
    }
}

entry! {
    enqueue_migrate_mem_objects => fn clEnqueueMigrateMemObjects(
        command_queue: cl_command_queue,
        num_mem_objects: cl_uint,
        mem_objects: *const cl_mem,
        flags_: cl_mem_migration_flags,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int
}

fn enqueue_migrate_mem_objects(
    command_queue: cl_command_queue,
    num_mem_objects: cl_uint,
    mem_objects: *const cl_mem,
    flags_: cl_mem_migration_flags,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    let queue = get::<CommandQueue, _>(command_queue)?;
    // 5.4: CL_INVALID_VALUE "if num_mem_objects is zero or if mem_objects is NULL" and "if
    // flags is not 0 or is not any of the values described in the table above".
    if num_mem_objects == 0 || mem_objects.is_null() {
        return Err(ClError::InvalidValue);
    }
    if flags_ & !(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED) != 0 {
        return Err(ClError::InvalidValue);
    }
    // SAFETY: mem_objects is non-NULL (checked above) and, by the spec, holds
    // num_mem_objects handles.
    let mems = unsafe { handle::get_list::<MemObject, _>(mem_objects, num_mem_objects) }?;
    // SAFETY: the spec's contract on event_wait_list: NULL or num_events_in_wait_list events.
    let deps = unsafe { wait_list(num_events_in_wait_list, event_wait_list) }?;
    same_context(&queue, &mems.iter().collect::<Vec<_>>())?;
    queue.check_wait_list(&deps)?;
    // The objects' bytes move when the command runs: to the queue's device where it has memory
    // of its own, or to the host (the CPU device's memory is the host's).
    let work = Work::Migrate {
        mems,
        device: queue.device.clone(),
        host: flags_ & CL_MIGRATE_MEM_OBJECT_HOST != 0,
        discard: flags_ & CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED != 0,
    };
    // SAFETY: event is NULL or, by the spec, writable.
    unsafe {
        submit(
            &queue,
            command::MIGRATE_MEM_OBJECTS,
            work,
            &deps,
            CL_FALSE,
            event,
        )
    }
}

entry! {
    get_mem_object_info => fn clGetMemObjectInfo(
        memobj: cl_mem,
        param_name: cl_mem_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int
}

fn get_mem_object_info(
    memobj: cl_mem,
    param_name: cl_mem_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> ClResult<()> {
    let mem = get::<MemObject, _>(memobj)?;
    let bytes = match param_name {
        CL_MEM_TYPE => info::of(&match (mem.as_image(), mem.as_pipe()) {
            (Some(i), _) => i.image_type,
            (None, Some(_)) => CL_MEM_OBJECT_PIPE,
            (None, None) => CL_MEM_OBJECT_BUFFER,
        }),
        CL_MEM_FLAGS => info::of(&mem.flags),
        CL_MEM_SIZE => info::of(&mem.size),
        CL_MEM_HOST_PTR => info::of(&mem.host_ptr.map_or(0, |h| h.addr())),
        CL_MEM_MAP_COUNT => info::of(&mem.map_count()),
        CL_MEM_REFERENCE_COUNT => info::of(&handle::ref_count::<MemObject, _>(memobj)?),
        CL_MEM_CONTEXT => info::of(&handle::handle_of::<Context, c_void>(&mem.context)),
        CL_MEM_ASSOCIATED_MEMOBJECT => info::of(&match (&mem.parent, mem.as_image()) {
            (Some(p), _) => handle::handle_of::<MemObject, c_void>(p),
            // An image made from a buffer: "the memory object specified as buffer in
            // image_desc" (5.5.5).
            (None, Some(image)) => image
                .buffer
                .as_ref()
                .map_or(std::ptr::null_mut(), handle::handle_of::<MemObject, c_void>),
            (None, None) => std::ptr::null_mut(),
        }),
        CL_MEM_OFFSET => info::of(&mem.origin),
        // "CL_TRUE if memobj is a buffer object that was created with CL_MEM_USE_HOST_PTR or is
        // a sub-buffer object of a buffer object that was created with CL_MEM_USE_HOST_PTR and
        // the host_ptr specified when the buffer object was created is a SVM pointer".
        CL_MEM_USES_SVM_POINTER => info::of(
            &mem.host_ptr
                .is_some_and(|h| ferrocl_core::svm::find(&mem.context, h.addr()).is_some()),
        ),
        CL_MEM_PROPERTIES => info::of(&mem.properties),
        _ => return Err(ClError::InvalidValue),
    };
    // SAFETY: by the spec, param_value is NULL or writable for param_value_size bytes, and
    // param_value_size_ret NULL or writable: `answer`'s contract.
    unsafe { answer(&bytes, param_value_size, param_value, param_value_size_ret) }
}

entry! {
    retain_mem_object => fn clRetainMemObject(memobj: cl_mem) -> cl_int
}

fn retain_mem_object(memobj: cl_mem) -> ClResult<()> {
    handle::retain::<MemObject, _>(memobj)
}

entry! {
    release_mem_object => fn clReleaseMemObject(memobj: cl_mem) -> cl_int
}

fn release_mem_object(memobj: cl_mem) -> ClResult<()> {
    handle::release::<MemObject, _>(memobj)
}

entry! {
    set_mem_object_destructor_callback => fn clSetMemObjectDestructorCallback(
        memobj: cl_mem,
        pfn_notify: Option<unsafe extern "C" fn(cl_mem,
        *mut c_void)>,
        user_data: *mut c_void,
    ) -> cl_int
}

fn set_mem_object_destructor_callback(
    memobj: cl_mem,
    pfn_notify: Option<unsafe extern "C" fn(cl_mem, *mut c_void)>,
    user_data: *mut c_void,
) -> ClResult<()> {
    let mem = get::<MemObject, _>(memobj)?;
    // 5.5.1: CL_INVALID_VALUE "if pfn_notify is NULL".
    let f = pfn_notify.ok_or(ClError::InvalidValue)?;
    let (handle, user_data) = (UserData(memobj.cast()), UserData(user_data));
    mem.add_destructor(Box::new(move || {
        // SAFETY: the application registered this callback with this signature.
        unsafe { f(handle.get().cast(), user_data.get()) }
    }));
    Ok(())
}
