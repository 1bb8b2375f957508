//! Memory objects (`cl_mem`): buffers and sub-buffers over device storage.
//!
//! A buffer's bytes live in host storage, one allocation (or, with `CL_MEM_USE_HOST_PTR`, the
//! application's own memory), which the CPU device's kernels use in place (zero-copy), and in
//! a copy on each device with memory of its own (a GPU) that uses them, kept coherent on
//! demand (`residency.rs`). Sub-buffers are windows into their parent's bytes. Images
//! (`image.rs`) and pipes (`new_pipe`) are other kinds of `MemObject`, on the host only.

use std::sync::{Arc, Mutex, MutexGuard};

use crate::context::Context;
use crate::device::Device;
use crate::error::{ClError, ClResult};
use crate::object::{DestructorStack, IcdHeader};
use crate::residency::Backing;

/// The alignment of every allocation, in bytes (`CL_DEVICE_MEM_BASE_ADDR_ALIGN` is 8× it).
pub use ferrocl_device::ALLOCATION_ALIGN;
use ferrocl_device::{PipeLayout, Storage};

/// `cl_mem_flags` bits.
pub mod flags {
    pub const READ_WRITE: u64 = 1 << 0;
    pub const WRITE_ONLY: u64 = 1 << 1;
    pub const READ_ONLY: u64 = 1 << 2;
    pub const USE_HOST_PTR: u64 = 1 << 3;
    pub const ALLOC_HOST_PTR: u64 = 1 << 4;
    pub const COPY_HOST_PTR: u64 = 1 << 5;
    pub const HOST_WRITE_ONLY: u64 = 1 << 7;
    pub const HOST_READ_ONLY: u64 = 1 << 8;
    pub const HOST_NO_ACCESS: u64 = 1 << 9;
    pub const KERNEL_READ_AND_WRITE: u64 = 1 << 12;

    pub const DEVICE_ACCESS: u64 = READ_WRITE | WRITE_ONLY | READ_ONLY;
    pub const HOST_PTR_USE: u64 = USE_HOST_PTR | ALLOC_HOST_PTR | COPY_HOST_PTR;
    pub const HOST_ACCESS: u64 = HOST_WRITE_ONLY | HOST_READ_ONLY | HOST_NO_ACCESS;
}

/// A host address the application handed to the API, which it keeps valid for as long as
/// the spec requires (until the command that uses it completes, or for the memory object's
/// life with `CL_MEM_USE_HOST_PTR`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostPtr(usize);

impl HostPtr {
    /// # Safety
    /// `ptr` must be valid for reads and writes of every byte the command that receives it
    /// touches, for as long as the command (or memory object) may use it.
    pub unsafe fn new(ptr: *mut u8) -> HostPtr {
        HostPtr(ptr as usize)
    }

    pub fn addr(self) -> usize {
        self.0
    }

    fn ptr(self) -> *mut u8 {
        self.0 as *mut u8
    }
}

/// A region mapped by `clEnqueueMapBuffer` and not yet unmapped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mapping {
    pub ptr: usize,
    pub len: usize,
    /// Mapped with `CL_MAP_WRITE` or `CL_MAP_WRITE_INVALIDATE_REGION`.
    pub writes: bool,
}

/// A memory object (`cl_mem`).
#[repr(C)]
pub struct MemObject {
    icd: IcdHeader,
    /// Declared before `parent`: fields drop in order, and a sub-buffer's callbacks must run
    /// before its parent can be deleted (5.5.1).
    destructors: DestructorStack,
    pub context: Arc<Context>,
    pub flags: u64,
    pub size: usize,
    /// The `host_ptr` of `CL_MEM_USE_HOST_PTR` (for a sub-buffer: the parent's plus origin).
    pub host_ptr: Option<HostPtr>,
    /// The parent of a sub-buffer, and the sub-buffer's origin in it.
    pub parent: Option<Arc<MemObject>>,
    pub origin: usize,
    /// `CL_MEM_PROPERTIES`, without the terminating zero.
    pub properties: Vec<u64>,
    /// What an image is beyond its bytes (`image.rs`); `None` for a buffer.
    pub(crate) image: Option<Box<crate::image::Image>>,
    /// Where a pipe's header, slots and packets lie in its storage; `None` but for a pipe.
    pipe: Option<PipeLayout>,
    storage: Arc<Backing>,
    /// Offset of this object's first byte in `storage`.
    storage_offset: usize,
    mappings: Mutex<Vec<Mapping>>,
}

impl MemObject {
    /// A buffer of `size` bytes; `flags` have been checked against the spec's rules.
    pub fn new_buffer(
        context: Arc<Context>,
        flags: u64,
        size: usize,
        host_ptr: Option<HostPtr>,
        properties: Vec<u64>,
    ) -> ClResult<Arc<MemObject>> {
        let storage = if flags & flags::USE_HOST_PTR != 0 {
            let host = host_ptr.ok_or(ClError::InvalidHostPtr)?;
            // SAFETY: with CL_MEM_USE_HOST_PTR the application keeps host_ptr valid for the
            // memory object's life (HostPtr's contract).
            let storage =
                unsafe { Storage::borrow_host(host.ptr(), size) }.ok_or(ClError::InvalidHostPtr)?;
            // 5.2.1: a buffer made on "a pointer returned by clSVMAlloc" with
            // CL_MEM_USE_HOST_PTR "has the shared memory as the underlying storage": every
            // device of the context addresses it where the host does, so kernels use it in
            // place.
            match crate::svm::find(&context, host.addr()) {
                Some(_) => Backing::shared(storage),
                None => Backing::new(storage, true),
            }
        } else {
            // The host's bytes: with CL_MEM_ALLOC_HOST_PTR ("the application wants the
            // OpenCL implementation to allocate memory from host accessible memory", 5.2.1),
            // memory a GPU of the context transfers fastest (page-locked), where one gives
            // it; else the CPU device's own storage where the context has it, else host
            // memory (the GPUs keep copies of their own).
            let pinned = || {
                context
                    .devices
                    .iter()
                    .filter_map(|d| d.backend().memory())
                    .find_map(|m| m.allocate_pinned(size))
            };
            let cpu = context
                .devices
                .iter()
                .find(|d| d.backend().memory().is_none());
            let storage = match (flags & flags::ALLOC_HOST_PTR != 0).then(pinned).flatten() {
                Some(storage) => storage,
                None => match cpu {
                    Some(device) => device.backend().allocate_undefined(size)?,
                    None => Storage::allocate_undefined(size)?,
                },
            };
            let copied = flags & flags::COPY_HOST_PTR != 0;
            if copied {
                let host = host_ptr.ok_or(ClError::InvalidHostPtr)?;
                // SAFETY: the application guarantees `size` readable bytes at host_ptr
                // (5.2.1), and `storage` was just allocated with `size` bytes.
                unsafe { std::ptr::copy_nonoverlapping(host.ptr(), storage.as_ptr(), size) };
            }
            Backing::new(storage, copied)
        };
        let host_ptr = if flags & flags::USE_HOST_PTR != 0 {
            host_ptr
        } else {
            None
        };
        Ok(Arc::new(MemObject {
            icd: IcdHeader::new(),
            context,
            flags,
            size,
            host_ptr,
            parent: None,
            origin: 0,
            properties,
            image: None,
            pipe: None,
            storage: Arc::new(storage),
            storage_offset: 0,
            mappings: Mutex::new(Vec::new()),
            destructors: DestructorStack::default(),
        }))
    }

    /// A sub-buffer of `parent` covering `origin..origin + size`, already checked to lie
    /// inside it.
    pub fn new_sub_buffer(
        parent: &Arc<MemObject>,
        flags: u64,
        origin: usize,
        size: usize,
    ) -> Arc<MemObject> {
        Arc::new(MemObject {
            icd: IcdHeader::new(),
            context: parent.context.clone(),
            flags,
            size,
            host_ptr: parent.host_ptr.map(|h| HostPtr(h.0 + origin)),
            parent: Some(parent.clone()),
            origin,
            properties: Vec::new(),
            image: None,
            pipe: None,
            storage: parent.storage.clone(),
            storage_offset: parent.storage_offset + origin,
            mappings: Mutex::new(Vec::new()),
            destructors: DestructorStack::default(),
        })
    }

    /// This new object (not yet shared) made the image `image`: an image over its own
    /// storage, or over a buffer's (a sub-buffer of it at 0, whose parent the image is not).
    pub(crate) fn into_image(
        self: Arc<Self>,
        image: crate::image::Image,
        flags: u64,
        properties: Vec<u64>,
    ) -> Arc<MemObject> {
        let mut mem = Arc::into_inner(self).expect("a new memory object has one owner");
        mem.image = Some(Box::new(image));
        mem.flags = flags;
        mem.properties = properties;
        mem.parent = None;
        Arc::new(mem)
    }

    /// A pipe (`clCreatePipe`) of `max_packets` packets of `packet_size` bytes, both checked
    /// against the devices' limits, in the storage of the context's first device that supports
    /// pipes (the only ones that run kernels using it). An empty pipe: its header and slots as
    /// `PipeLayout::init` writes them.
    pub fn new_pipe(
        context: Arc<Context>,
        flags: u64,
        packet_size: u32,
        max_packets: u32,
    ) -> ClResult<Arc<MemObject>> {
        let layout = PipeLayout::new(packet_size, max_packets).ok_or(ClError::InvalidPipeSize)?;
        let device = context
            .devices
            .iter()
            .find(|d| d.info.pipe_support)
            .ok_or(ClError::InvalidOperation)?;
        let storage = device.backend().allocate(layout.size)?;
        // SAFETY: `storage` was just allocated with `layout.size` bytes, of which the header
        // and slots (`layout.packets`) are the first; nothing else refers to it yet.
        let head = unsafe { std::slice::from_raw_parts_mut(storage.as_ptr(), layout.packets) };
        layout.init(head);
        let storage = Backing::new(storage, true);
        Ok(Arc::new(MemObject {
            icd: IcdHeader::new(),
            context,
            flags,
            size: layout.size,
            host_ptr: None,
            parent: None,
            origin: 0,
            properties: Vec::new(),
            image: None,
            pipe: Some(layout),
            storage: Arc::new(storage),
            storage_offset: 0,
            mappings: Mutex::new(Vec::new()),
            destructors: DestructorStack::default(),
        }))
    }

    /// A pipe's layout (`None` for other objects).
    pub fn as_pipe(&self) -> Option<&PipeLayout> {
        self.pipe.as_ref()
    }

    /// Whether the object is a buffer (or sub-buffer): neither an image nor a pipe.
    pub fn is_buffer(&self) -> bool {
        self.image.is_none() && self.pipe.is_none()
    }

    /// The host address of the object's first byte. Its bytes there are current only once
    /// [`MemObject::for_host`] has made them so, when the command using them runs.
    pub fn base(&self) -> *mut u8 {
        self.storage.host_ptr().wrapping_add(self.storage_offset)
    }

    /// Makes the object's bytes in host memory current for a command that runs now and
    /// reads them (and writes them, where `writes`): a kernel on the CPU device, a map, a
    /// native kernel, an image command.
    pub fn for_host(&self, writes: bool) -> ClResult<()> {
        self.storage.for_host(writes)
    }

    /// The address on `device` (which has memory of its own) of the object's first byte,
    /// its bytes there made current, for a kernel that runs now and reads them (and writes
    /// them, where `writes`).
    pub fn for_device(&self, device: &Arc<Device>, writes: bool) -> ClResult<u64> {
        let base = self.storage.for_device(device, writes)?;
        Ok(base + self.storage_offset as u64)
    }

    /// `clEnqueueMigrateMemObjects` of this object to `device`, or to the host where `None`
    /// (API 5.4); `discard`: `CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED`.
    pub fn migrate(&self, device: Option<&Arc<Device>>, discard: bool) -> ClResult<()> {
        self.storage.migrate(device, discard)
    }

    /// Whether two objects share bytes of one storage (for `CL_MEM_COPY_OVERLAP`).
    pub fn same_storage(&self, other: &MemObject) -> bool {
        Arc::ptr_eq(&self.storage, &other.storage)
    }

    /// Offset of this object in the storage it shares with its parent or siblings.
    pub fn storage_offset(&self) -> usize {
        self.storage_offset
    }

    fn mappings(&self) -> MutexGuard<'_, Vec<Mapping>> {
        self.mappings.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `CL_MEM_MAP_COUNT`.
    pub fn map_count(&self) -> u32 {
        self.mappings().len() as u32
    }

    /// Records a mapping made by `clEnqueueMapBuffer` of `len` bytes at `offset`; returns its
    /// address. 5.5.2: CL_INVALID_OPERATION "if mapping would lead to overlapping regions being
    /// mapped for writing".
    pub fn map(&self, offset: usize, len: usize, writes: bool) -> ClResult<usize> {
        let ptr = self.base() as usize + offset;
        let mut mappings = self.mappings();
        let overlaps = |m: &Mapping| m.ptr < ptr + len && ptr < m.ptr + m.len;
        if writes && mappings.iter().any(|m| m.writes && overlaps(m)) {
            return Err(ClError::InvalidOperation);
        }
        mappings.push(Mapping { ptr, len, writes });
        Ok(ptr)
    }

    /// Forgets one mapping at `ptr`. 5.5.2: CL_INVALID_VALUE "if mapped_ptr is not a valid
    /// pointer returned by clEnqueueMapBuffer or clEnqueueMapImage for memobj".
    pub fn unmap(&self, ptr: usize) -> ClResult<Mapping> {
        let mut mappings = self.mappings();
        let index = mappings
            .iter()
            .rposition(|m| m.ptr == ptr)
            .ok_or(ClError::InvalidValue)?;
        Ok(mappings.remove(index))
    }

    /// `clSetMemObjectDestructorCallback`: called, last registered first, when the object is
    /// deleted.
    pub fn add_destructor(&self, callback: Box<dyn FnOnce() + Send>) {
        self.destructors.push(callback);
    }
}

impl std::fmt::Debug for MemObject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemObject")
            .field("flags", &self.flags)
            .field("size", &self.size)
            .finish()
    }
}

/// One end of a transfer: bytes of a memory object, or host memory of the application.
#[derive(Clone, Debug)]
pub enum Location {
    Mem(Arc<MemObject>, usize),
    Host(HostPtr),
}

impl Location {
    /// The host address of this end, its bytes current for a command that reads them and,
    /// where `writes`, writes them.
    fn for_host(&self, writes: bool) -> ClResult<*mut u8> {
        match self {
            Location::Mem(mem, offset) => {
                mem.for_host(writes)?;
                Ok(mem.base().wrapping_add(*offset))
            }
            Location::Host(host) => Ok(host.ptr()),
        }
    }
}

/// The shape of a rectangular transfer: bytes per row, rows per slice, slices, and the row and
/// slice pitches of each end (origins are folded into the locations).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    pub region: [usize; 3],
    pub src_pitch: [usize; 2],
    pub dst_pitch: [usize; 2],
}

/// Copies `size` bytes from `src` to `dst` (which may overlap: memmove semantics), between
/// the copies of a memory object that are current where they are (a GPU's, say).
/// `device` is the device of the command's queue.
pub(crate) fn copy(
    src: &Location,
    dst: &Location,
    size: usize,
    device: Option<&Arc<Device>>,
) -> ClResult<()> {
    let at = |mem: &MemObject, offset: usize| mem.storage_offset + offset;
    match (src, dst) {
        (Location::Mem(s, so), Location::Mem(d, dof)) => {
            Backing::copy(&s.storage, at(s, *so), &d.storage, at(d, *dof), size)
        }
        (Location::Mem(s, so), Location::Host(h)) => s.storage.read(at(s, *so), h.ptr(), size),
        (Location::Host(h), Location::Mem(d, dof)) => {
            d.storage.write(at(d, *dof), h.ptr(), size, device)
        }
        (Location::Host(s), Location::Host(d)) => {
            // SAFETY: the application guarantees its host ranges (HostPtr's contract).
            unsafe { std::ptr::copy(s.ptr(), d.ptr(), size) };
            Ok(())
        }
    }
}

/// Copies a rectangle, row by row, through the host's bytes.
pub(crate) fn copy_rect(src: &Location, dst: &Location, rect: &Rect) -> ClResult<()> {
    let (s, d) = (src.for_host(false)?, dst.for_host(true)?);
    for z in 0..rect.region[2] {
        for y in 0..rect.region[1] {
            let so = z * rect.src_pitch[1] + y * rect.src_pitch[0];
            let dof = z * rect.dst_pitch[1] + y * rect.dst_pitch[0];
            // SAFETY: as in `copy`; each row lies inside the checked extents of its end.
            unsafe { std::ptr::copy(s.wrapping_add(so), d.wrapping_add(dof), rect.region[0]) };
        }
    }
    Ok(())
}

/// Fills `size` bytes of `dst` at `offset` with copies of `pattern`.
pub(crate) fn fill(dst: &MemObject, offset: usize, size: usize, pattern: &[u8]) -> ClResult<()> {
    if pattern.is_empty() {
        return Ok(());
    }
    dst.storage.fill(dst.storage_offset + offset, size, pattern)
}

/// One end of a copy between memory objects: the object, the offset of the rectangle's first
/// byte in it, and its row and slice pitches (a linear copy of `size` bytes is one row of
/// `size`, both pitches `size`).
#[derive(Clone, Copy, Debug)]
pub struct CopyEnd<'a> {
    pub mem: &'a MemObject,
    pub offset: usize,
    pub pitch: [usize; 2],
}

/// CL_MEM_COPY_OVERLAP of `clEnqueueCopyBuffer` and `clEnqueueCopyBufferRect`, for every pair
/// of objects: 5.2.3, "if src_buffer and dst_buffer are the same buffer or sub-buffer object
/// and the source and destination regions overlap or if src_buffer and dst_buffer are different
/// sub-buffers of the same associated buffer object and they overlap".
///
/// Objects over different storage never overlap. Otherwise both rectangles are placed in the
/// storage they share (a sub-buffer's origin added), and with one row and slice pitch on both
/// sides (always so within one object: 5.2.3 requires equal pitches there) the test is Appendix
/// D's ([`appendix_d_overlap`]); a linear copy is the one-row case, where it reduces to
/// clEnqueueCopyBuffer's "src_offset <= dst_offset <= src_offset + size - 1 or dst_offset <=
/// src_offset <= dst_offset + size - 1". Sub-buffers copied with different pitches, which the
/// appendix does not cover, overlap when the two rectangles share a byte
/// ([`rects_share_a_byte`]). The pitches are non-zero and the rectangles lie inside their
/// objects (the callers checked both).
pub fn copy_overlaps(src: CopyEnd<'_>, dst: CopyEnd<'_>, region: [usize; 3]) -> bool {
    if !src.mem.same_storage(dst.mem) || region.contains(&0) {
        return false;
    }
    let s = src.mem.storage_offset + src.offset;
    let d = dst.mem.storage_offset + dst.offset;
    if src.pitch == dst.pitch {
        appendix_d_overlap(s, d, region, src.pitch)
    } else {
        rects_share_a_byte(s, d, region, src.pitch, dst.pitch)
    }
}

/// Appendix D, "Checking for Memory Copy Overlap", for rectangles whose first bytes are `src`
/// and `dst` of one storage, with one row and slice pitch (the slice pitch a multiple of the
/// row pitch). The appendix computes from origins; an origin enters it only through its offset
/// (`origin[2] × slice_pitch + origin[1] × row_pitch + origin[0]`), that offset's remainder by
/// the row pitch (which is `origin[0] % row_pitch`) and by the slice pitch (`(origin[1] ×
/// row_pitch + origin[0]) % slice_pitch`), so offsets are enough. Where the pitches are those
/// 5.2.3 allows, the answer is exactly whether the rectangles share a byte.
pub fn appendix_d_overlap(src: usize, dst: usize, region: [usize; 3], pitch: [usize; 2]) -> bool {
    let [row_pitch, slice_pitch] = pitch;
    let slice_size = (region[1] - 1) * row_pitch + region[0];
    let block_size = (region[2] - 1) * slice_pitch + slice_size;
    // "No overlap if dst ends before src starts or if src ends before dst starts."
    if dst + block_size <= src || src + block_size <= dst {
        return false;
    }
    // "No overlap if region[0] for dst or src fits in the gap between region[0] and row_pitch."
    let (src_dx, dst_dx) = (src % row_pitch, dst % row_pitch);
    if (dst_dx >= src_dx + region[0] && dst_dx + region[0] <= src_dx + row_pitch)
        || (src_dx >= dst_dx + region[0] && src_dx + region[0] <= dst_dx + row_pitch)
    {
        return false;
    }
    // "No overlap if region[1] for dst or src fits in the gap between region[1] and
    // slice_pitch."
    let (src_dy, dst_dy) = (src % slice_pitch, dst % slice_pitch);
    if (dst_dy >= src_dy + slice_size && dst_dy + slice_size <= src_dy + slice_pitch)
        || (src_dy >= dst_dy + slice_size && src_dy + slice_size <= dst_dy + slice_pitch)
    {
        return false;
    }
    // "Otherwise src and dst overlap."
    true
}

/// Whether two rectangles of `region` with their own pitches, first bytes at `a` and `b` of one
/// storage, share a byte: the rows of both, sorted by start, walked together (rows are equally
/// long, so one that ends before the other's current row starts can be passed).
fn rects_share_a_byte(
    a: usize,
    b: usize,
    region: [usize; 3],
    a_pitch: [usize; 2],
    b_pitch: [usize; 2],
) -> bool {
    let extent =
        |pitch: [usize; 2]| (region[2] - 1) * pitch[1] + (region[1] - 1) * pitch[0] + region[0];
    if a + extent(a_pitch) <= b || b + extent(b_pitch) <= a {
        return false;
    }
    let rows = |start: usize, pitch: [usize; 2]| {
        let mut rows: Vec<usize> = (0..region[2])
            .flat_map(|z| (0..region[1]).map(move |y| start + z * pitch[1] + y * pitch[0]))
            .collect();
        rows.sort_unstable();
        rows
    };
    let (a_rows, b_rows) = (rows(a, a_pitch), rows(b, b_pitch));
    let (mut i, mut j) = (0, 0);
    while i < a_rows.len() && j < b_rows.len() {
        let (x, y) = (a_rows[i], b_rows[j]);
        if x < y + region[0] && y < x + region[0] {
            return true;
        }
        if x < y {
            i += 1;
        } else {
            j += 1;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appendix_d_cases() {
        // Two 4x4 rectangles with row pitch 16: side by side they do not overlap.
        assert!(!appendix_d_overlap(0, 4, [4, 4, 1], [16, 64]));
        assert!(appendix_d_overlap(0, 2, [4, 4, 1], [16, 64]));
        // Interleaved rows: the bounding ranges meet, the bytes do not.
        assert!(!appendix_d_overlap(0, 16, [8, 2, 1], [32, 64]));
        assert!(appendix_d_overlap(0, 16, [17, 2, 1], [32, 64]));
        // Interleaved slices: rows 0-1 and 2-3 of 4-row slices, two slices each.
        assert!(!appendix_d_overlap(0, 8, [4, 2, 2], [4, 16]));
        assert!(appendix_d_overlap(0, 4, [4, 2, 2], [4, 16]));
        // A linear copy is one row: [0, 8) and [8, 16) touch no common byte, [0, 8) and [7, 15) do.
        assert!(!appendix_d_overlap(0, 8, [8, 1, 1], [8, 8]));
        assert!(appendix_d_overlap(0, 7, [8, 1, 1], [8, 8]));
    }

    #[test]
    fn rectangles_of_different_pitches() {
        // Two rows of 4 bytes each: from 0 and 4 with pitch 16, [0, 4) [16, 20) against [4, 8)
        // [20, 24); a pitch of 20 moves the first one's second row onto [20, 24), one of 8 onto
        // [8, 12).
        assert!(!rects_share_a_byte(0, 4, [4, 2, 1], [16, 64], [16, 64]));
        assert!(rects_share_a_byte(0, 4, [4, 2, 1], [20, 64], [16, 64]));
        assert!(!rects_share_a_byte(0, 4, [4, 2, 1], [8, 64], [16, 64]));
    }
}
