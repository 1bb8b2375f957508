//! The interface between the runtime and a device: what a device does for the runtime
//! ([`DeviceBackend`]: allocate storage, compile a module), what it hands back
//! ([`DeviceProgram`], [`DeviceKernel`]: the compiled kernel with its argument block layout)
//! and the values they exchange ([`NdRange`], [`ArgSlot`], [`Storage`], [`DeviceError`]).
//!
//! Devices depend on this crate and on `ir`, never on the runtime: the runtime keeps the object
//! semantics of the API (contexts, queues, events, memory objects, kernels and their argument
//! values) and hands a device only these types.
//!
//! # The kernel ABI
//!
//! How each argument is passed is `ir`'s [`ArgKind`], which the compiler writes into every
//! kernel ([`ferrocl_ir::KernelArg`]). A device lays the arguments out in an argument block
//! ([`DeviceKernel::arg_slots`]) and the runtime fills each slot as its kind says:
//! - [`ArgKind::Value`]: the value's bytes;
//! - [`ArgKind::Buffer`]: the address of the buffer's [`Storage`] (0 for NULL), or on a
//!   device with memory of its own ([`DeviceBackend::memory`]) the address of the buffer's
//!   copy there ([`DeviceCopy`]), which the runtime makes current before the launch;
//! - [`ArgKind::Local`]: the byte offset of the argument's region in the work-group's local
//!   memory, which holds the kernel's own `__local` variables first
//!   ([`DeviceKernel::static_local_size`]), then the `__local` arguments;
//! - [`ArgKind::Aggregate`]: the byte offset of a copy of the struct's bytes in the by-value
//!   block passed to [`DeviceKernel::launch`];
//! - [`ArgKind::Image`]: the address of the image's [`ImageDescriptor`], which the runtime
//!   keeps for the image's life (the parameter is a `__global` pointer);
//! - [`ArgKind::Sampler`]: the sampler's 32-bit bit-field, `CLK_NORMALIZED_COORDS_TRUE` (1) |
//!   `CLK_ADDRESS_*` (0, 2, 4, 6, 8) | `CLK_FILTER_*` (0x10, 0x20): the value a sampler
//!   declared in the program has, so a kernel reads both kinds alike;
//! - [`ArgKind::Pipe`]: the address of the pipe's storage, laid out as [`PipeLayout`] says
//!   (the parameter is a `__global` pointer).
//!
//! The image functions of OpenCL C (`read_imagef` ...) are library code (`crates/builtins`,
//! `image.cl`) that reads the descriptor, and the pipe functions (`read_pipe` ...) library code
//! (`pipe.cl`) on the pipe's storage: a device needs nothing of its own for either.

mod host;
pub mod printf;

pub use host::largest_data_cache;

use std::alloc::Layout;
use std::fmt;
use std::ptr::NonNull;
use std::sync::Arc;

pub use ferrocl_ir::ArgKind;

/// Why a device could not do what the runtime asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeviceError {
    /// Device memory could not be allocated.
    OutOfMemory,
    /// The module could not be compiled for the device: a build-log message.
    Compile(String),
    /// The kernel faulted (a wild pointer, say) and the launch was cut short.
    KernelFault(String),
}

impl fmt::Display for DeviceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeviceError::OutOfMemory => f.write_str("out of device memory"),
            DeviceError::Compile(m) | DeviceError::KernelFault(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for DeviceError {}

/// What a device does for the runtime: allocate memory and compile IR into kernels it can
/// launch.
pub trait DeviceBackend: Send + Sync {
    /// Allocates `size` bytes, zero-filled, that the host and the device's kernels address
    /// at the same address: the CPU device's memory; a GPU's managed memory, whose pages the
    /// driver moves to the side that touches them. The runtime keeps the host bytes of
    /// buffers and pipes in the CPU device's, and shared virtual memory (`clSVMAlloc`) in a
    /// GPU's where the context has one.
    fn allocate(&self, size: usize) -> Result<Storage, DeviceError>;

    /// As [`Self::allocate`], the contents left undefined: for memory the runtime or the
    /// application writes before anything reads it (see [`Storage::allocate_undefined`]).
    fn allocate_undefined(&self, size: usize) -> Result<Storage, DeviceError> {
        self.allocate(size)
    }

    /// Whether a fused multiply-add is about as fast as a multiply and an add on the device
    /// (OpenCL C 6.15.2.1's FP_FAST_FMAF): the compiler then contracts `a * b + c` into one
    /// `fma` where the program allows it.
    fn fast_fma(&self) -> bool;

    /// Whether a fused multiply-add costs no more than an add (a GPU's `fma`): the compiler
    /// then contracts accumulations carried through loops too (`ferrocl_clc::Target::fma_chains`).
    fn fma_chains(&self) -> bool {
        false
    }

    /// The device's fixed limits, which the runtime reports in its queries and checks
    /// launches against.
    fn limits(&self) -> DeviceLimits;

    /// Memory of the device's own that its kernels read buffers from, apart from the host's
    /// (a GPU's device memory): the runtime then keeps a copy of each buffer the device's
    /// kernels use there, coherent with the host's bytes by copying on demand (see
    /// [`DeviceMemory`]). `None`, the default, where the device's kernels address the host's
    /// storage directly (the CPU device).
    fn memory(&self) -> Option<&dyn DeviceMemory> {
        None
    }

    /// Whether the device can still run commands (`CL_DEVICE_AVAILABLE`): `false` once a
    /// fault left it unusable for the rest of the process (a GPU whose driver keeps the
    /// error), after which its commands fail.
    fn available(&self) -> bool {
        true
    }

    /// Compiles an optimized, verified IR module, inlined as `ferrocl_ir::passes::inline`
    /// inlines: its kernels may call the module's functions that touch no work-item state.
    fn compile(
        &self,
        module: &ferrocl_ir::Module,
        options: &CompileOptions,
    ) -> Result<Arc<dyn DeviceProgram>, DeviceError>;

    /// What the device's code depends on besides the module, the compile options and the
    /// build of ferrocl itself: the processor's model or features the code generator chose
    /// instructions for, settings the device reads from the environment (a GPU device: its
    /// architecture and the driver's version). The runtime keys the programs it keeps
    /// ([`DeviceProgram::serialize`]) by it; `None`, the default, where the device keeps
    /// none.
    fn code_key(&self) -> Option<Vec<u8>> {
        None
    }

    /// A program from the bytes [`DeviceProgram::serialize`] gave for `module` compiled
    /// with `options`, in this process or an earlier one with the same
    /// [`DeviceBackend::code_key`] (a GPU device would load its PTX text or binary). An
    /// error where the bytes are not such a program: the runtime then compiles the module.
    fn load(
        &self,
        module: &ferrocl_ir::Module,
        options: &CompileOptions,
        bytes: &[u8],
    ) -> Result<Arc<dyn DeviceProgram>, DeviceError> {
        let _ = (module, options, bytes);
        Err(DeviceError::Compile(
            "the device does not load compiled programs".into(),
        ))
    }
}

/// A device's own memory (a GPU's), in which the runtime keeps copies of buffers: it
/// allocates them and moves bytes between them and the host. The runtime decides when (API
/// 5.4, "Migrating Memory Objects": a memory object's contents move to the device that uses
/// it, on demand or as `clEnqueueMigrateMemObjects` asks); the device only carries the copies
/// out. Every operation completes before it returns: the runtime orders them with the
/// device's other commands.
pub trait DeviceMemory: Send + Sync {
    /// `size` bytes of device memory, their contents undefined.
    fn allocate(&self, size: usize) -> Result<DeviceCopy, DeviceError>;

    /// Copies `len` bytes from the host at `src` to device address `dst`.
    ///
    /// # Safety
    /// `src` is readable for `len` bytes; `dst..dst + len` lies in one [`DeviceCopy`].
    unsafe fn upload(&self, dst: u64, src: *const u8, len: usize) -> Result<(), DeviceError>;

    /// Copies `len` bytes from device address `src` to the host at `dst`.
    ///
    /// # Safety
    /// `dst` is writable for `len` bytes; `src..src + len` lies in one [`DeviceCopy`].
    unsafe fn download(&self, dst: *mut u8, src: u64, len: usize) -> Result<(), DeviceError>;

    /// Copies `len` bytes between device addresses, which may overlap (memmove semantics).
    fn copy(&self, dst: u64, src: u64, len: usize) -> Result<(), DeviceError>;

    /// Fills `len` bytes at device address `dst` with copies of `pattern`; `false` where the
    /// device cannot fill with this pattern at this address (the runtime then fills the
    /// host's bytes).
    fn fill(&self, dst: u64, pattern: &[u8], len: usize) -> Result<bool, DeviceError>;

    /// `size` bytes of host memory, zero-filled, that this device copies to and from faster
    /// than pageable memory (page-locked, for a GPU's DMA engines); the runtime gives it to
    /// buffers made with `CL_MEM_ALLOC_HOST_PTR`. `None` where the device has no such memory,
    /// or could not allocate it now: the host's ordinary memory serves instead.
    fn allocate_pinned(&self, size: usize) -> Option<Storage> {
        let _ = size;
        None
    }
}

/// One allocation of a device's own memory ([`DeviceMemory::allocate`]), freed when dropped.
pub struct DeviceCopy {
    addr: u64,
    len: usize,
    release: Option<Box<dyn FnOnce() + Send + Sync>>,
}

impl DeviceCopy {
    /// An allocation at device address `addr` of `len` bytes, which `release` frees.
    pub fn new(addr: u64, len: usize, release: Box<dyn FnOnce() + Send + Sync>) -> DeviceCopy {
        DeviceCopy {
            addr,
            len,
            release: Some(release),
        }
    }

    /// The allocation's device address.
    pub fn addr(&self) -> u64 {
        self.addr
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Drop for DeviceCopy {
    fn drop(&mut self) {
        if let Some(release) = self.release.take() {
            release();
        }
    }
}

impl fmt::Debug for DeviceCopy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DeviceCopy({:#x}, {})", self.addr, self.len)
    }
}

/// A device's fixed limits, as the device states them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceLimits {
    /// The most work-items in a work-group (CL_DEVICE_MAX_WORK_GROUP_SIZE), and the largest
    /// local size of each dimension.
    pub max_work_group_size: usize,
    /// Work-items per sub-group (the last of a work-group may have fewer); 0 without
    /// sub-groups.
    pub sub_group_size: u32,
    /// The alignment, in bytes, of the region each by-value struct argument's bytes are
    /// copied to and of each `__local` argument's offset: enough for any type the kernel
    /// reads from them.
    pub arg_align: usize,
}

/// What a GPU device tells the runtime about itself, for `clGetDeviceInfo`: the facts the
/// driver reports (the limits the device enforces are its [`DeviceLimits`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GpuDescription {
    pub name: String,
    pub vendor: String,
    /// The PCI vendor id (CL_DEVICE_VENDOR_ID).
    pub vendor_id: u32,
    /// The driver's version, as text.
    pub driver_version: String,
    /// Streaming multiprocessors (CL_DEVICE_MAX_COMPUTE_UNITS).
    pub compute_units: u32,
    pub max_clock_mhz: u32,
    pub global_mem_size: u64,
    /// The largest single allocation the device grants.
    pub max_mem_alloc_size: u64,
    /// Shared memory a work-group may use (CL_DEVICE_LOCAL_MEM_SIZE).
    pub local_mem_size: u64,
    pub max_constant_buffer_size: u64,
    /// The last-level cache (the L2).
    pub cache_size: u64,
    pub cache_line: u32,
    pub error_correction: bool,
    /// The GPU addresses the host's pageable memory (`malloc`'s) directly: fine-grain system
    /// SVM.
    pub pageable_memory_access: bool,
    /// Atomic operations of the host and the GPU on the same memory are atomic with each
    /// other (the link between them carries them): SVM atomics.
    pub host_native_atomics: bool,
}

/// What a program's build options (API 5.8.6) ask of the device's compiler, as the runtime
/// read them from the option string, and whether to record what the compile did.
///
/// The math options (`-cl-mad-enable` and the options that imply it) act in the OpenCL C
/// compiler, which contracts `a * b + c` before the module reaches a device; the options a
/// device has no use for are not here (docs/architecture.md lists every option and where it
/// takes effect).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompileOptions {
    /// `-cl-opt-disable`: "disables all optimizations"; the device compiles the kernels as
    /// directly as it can.
    pub opt_disable: bool,
    /// Every launch of the program's kernels has uniform work-groups (OpenCL C before 2.0,
    /// or `-cl-uniform-work-group-size`): the runtime refuses the others.
    pub uniform_work_groups: bool,
    /// `-cl-ferrocl-no-vectorize`: the device runs work-items one at a time, as it would
    /// without its vectorizer.
    pub no_vectorize: bool,
    /// Record each stage's text in the program's [`Listing`] ([`DeviceProgram::listing`]).
    /// Off, nothing is recorded and nothing is printed.
    pub record: bool,
}

/// The text of each stage of a device's compile, in the order the stages ran, recorded when
/// [`CompileOptions::record`] asks: exactly what the compile produced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Listing {
    stages: Vec<(String, String)>,
}

impl Listing {
    /// Appends `text` to the record of the stage called `stage` (a new stage goes last).
    pub fn push(&mut self, stage: &str, text: &str) {
        match self.stages.iter_mut().find(|(s, _)| s == stage) {
            Some((_, t)) => t.push_str(text),
            None => self.stages.push((stage.to_string(), text.to_string())),
        }
    }

    /// The text the stage called `stage` recorded, if it ran.
    pub fn stage(&self, stage: &str) -> Option<&str> {
        self.stages
            .iter()
            .find(|(s, _)| s == stage)
            .map(|(_, t)| t.as_str())
    }

    /// The stages' names, in the order they ran.
    pub fn stages(&self) -> impl Iterator<Item = &str> {
        self.stages.iter().map(|(s, _)| s.as_str())
    }
}

/// A module compiled for one device.
pub trait DeviceProgram: Send + Sync {
    /// The kernel called `name`, if the module has it. The kernel keeps its code alive.
    fn kernel(&self, name: &str) -> Option<Arc<dyn DeviceKernel>>;

    /// What each stage of the compile produced, when [`CompileOptions::record`] asked for it.
    fn listing(&self) -> Option<&Listing> {
        None
    }

    /// The program's compiled form as bytes that [`DeviceBackend::load`] reads back, in this
    /// process or another; `None` where there is none to keep.
    fn serialize(&self) -> Option<Vec<u8>> {
        None
    }
}

/// One argument's place in the argument block; the runtime fills it as its kind says (see
/// the crate's documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArgSlot {
    /// Byte offset in the argument block.
    pub offset: usize,
    /// Bytes of the slot.
    pub size: usize,
    pub kind: ArgKind,
}

/// The extent of an NDRange launch, every dimension filled in (sizes 1 and offsets 0 past
/// `work_dim`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NdRange {
    pub work_dim: u32,
    pub global_offset: [u64; 3],
    pub global_size: [u64; 3],
    pub local_size: [u64; 3],
}

/// The size of the parts that `extent` items (work-items along a dimension, or groups) are
/// cut into, each at most `bound`: the largest divisor of `extent` within `bound`, so that
/// every part is whole. Where `partial` allows a shorter last part and no divisor reaches half
/// the bound (a prime extent has only 1), the parts are instead as even as `bound` allows;
/// only divisors from half the bound up are tried then, at most `bound / 2` divisions.
pub fn part_size(extent: u64, bound: u64, partial: bool) -> u64 {
    let bound = bound.min(extent).max(1);
    let least = if partial { bound.div_ceil(2) } else { 1 };
    match (least..=bound).rev().find(|d| extent % d == 0) {
        Some(d) => d,
        None if partial => extent.div_ceil(extent.div_ceil(bound)),
        None => 1,
    }
}

/// A kernel compiled for one device.
pub trait DeviceKernel: Send + Sync {
    /// Where each argument goes in the argument block, one slot per kernel argument.
    fn arg_slots(&self) -> &[ArgSlot];
    /// Size of the argument block in bytes.
    fn args_size(&self) -> usize;
    /// Bytes of the kernel's own `__local` variables (`CL_KERNEL_LOCAL_MEM_SIZE` without the
    /// `__local` arguments).
    fn static_local_size(&self) -> usize;
    /// Bytes of private memory per work-item the device provides.
    fn private_size(&self) -> usize;
    /// The most work-items the device would like in a work-group of this kernel when the
    /// application leaves the local size to the implementation (a `NULL` `local_work_size`).
    fn preferred_group_size(&self) -> usize;
    /// Whether the kernel cannot tell its work-groups apart (it reads global ids and sizes
    /// only, and has no barriers and no `__local` memory): the local size the implementation
    /// picks for it need not divide the global size, as a partial last group is invisible to
    /// it too.
    fn group_blind(&self) -> bool {
        false
    }

    /// Runs the kernel over `nd` and returns when every work-group has run, or with
    /// [`DeviceError::KernelFault`] when the kernel faulted and the launch was cut short.
    /// With `profile` (the command's queue profiles), a device that measures the kernel's
    /// run on its own clock returns that time in nanoseconds, which the command's profiling
    /// times then span; `None` leaves them to the host's clock around the call.
    ///
    /// # Safety
    /// `args` is this kernel's argument block with every buffer address valid for the whole
    /// launch; `local_mem_size` covers the static `__local` variables and the `__local`
    /// arguments at the offsets written in `args`; `private_args` holds the by-value struct
    /// arguments at the offsets written in their slots; `nd` has non-zero sizes.
    unsafe fn launch(
        &self,
        args: &[u8],
        local_mem_size: usize,
        private_args: &[u8],
        nd: &NdRange,
        profile: bool,
    ) -> Result<Option<u64>, DeviceError>;
}

/// What a kernel knows of an image ([`ArgKind::Image`]): where its texels are and how they
/// are laid out. The layout is fixed (`#[repr(C)]`, 64 bytes); the builtin library's
/// `image.cl` declares the same struct. Texel `(x, y, z)` is at `data + x * element_size +
/// y * row_pitch + z * slice_pitch`, where `z` is the layer of a 1D or 2D image array and the
/// slice of a 3D image. The other fields are the `clGetImageInfo` values: sizes are 1 past
/// the image's dimensions (`height` of a 1D image, `depth` of a 2D one), `array_size` 0 but
/// for arrays; `channel_order` and `channel_data_type` are the `cl_channel_order` and
/// `cl_channel_type` codes (`CL_RGBA` 0x10B5, `CL_UNORM_INT8` 0x10D2, ...).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImageDescriptor {
    pub data: u64,
    pub width: u32,
    pub height: u32,
    pub depth: u32,
    pub array_size: u32,
    pub row_pitch: u64,
    pub slice_pitch: u64,
    pub channel_order: u32,
    pub channel_data_type: u32,
    /// Bytes per texel.
    pub element_size: u32,
    /// Channels per texel (1 to 4).
    pub num_channels: u32,
    /// The image's `cl_mem_object_type` (`CL_MEM_OBJECT_IMAGE2D` 0x10F1, ...).
    pub image_type: u32,
    pub reserved: u32,
}

/// Where the parts of a pipe's storage lie ([`ArgKind::Pipe`]); the builtin library's
/// `pipe.cl` reads the same layout. The storage starts with a 64-byte header: the write and
/// read positions (`u64`, both 0 when the pipe is made), `max_packets` and `packet_size`
/// (`u32`), the byte offset of the first packet (`u64`), then zeros. The header is followed by
/// one `u64` sequence number per slot (slot `i` holds `i` when the pipe is made: free for
/// position `i`), one `u32` reservation length per slot, and the packets, `packet_size`
/// bytes apart from an offset aligned to [`ALLOCATION_ALIGN`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PipeLayout {
    pub packet_size: u32,
    pub max_packets: u32,
    /// The byte offset of the first packet.
    pub packets: usize,
    /// The storage's size in bytes.
    pub size: usize,
}

impl PipeLayout {
    /// The header's size in bytes.
    pub const HEADER: usize = 64;

    /// The layout of a pipe of `max_packets` packets of `packet_size` bytes, or None if its
    /// size does not fit in `usize`.
    pub fn new(packet_size: u32, max_packets: u32) -> Option<PipeLayout> {
        let slots = max_packets as usize;
        let packets = (Self::HEADER + slots * 12).checked_next_multiple_of(ALLOCATION_ALIGN)?;
        let size = (packet_size as usize)
            .checked_mul(slots)?
            .checked_add(packets)?;
        Some(PipeLayout {
            packet_size,
            max_packets,
            packets,
            size,
        })
    }

    /// Writes the header and sequence numbers of an empty pipe into `bytes` (the storage's
    /// first `packets` bytes at least).
    pub fn init(&self, bytes: &mut [u8]) {
        bytes[..self.packets].fill(0);
        bytes[16..20].copy_from_slice(&self.max_packets.to_ne_bytes());
        bytes[20..24].copy_from_slice(&self.packet_size.to_ne_bytes());
        bytes[24..32].copy_from_slice(&(self.packets as u64).to_ne_bytes());
        for i in 0..self.max_packets as usize {
            let at = Self::HEADER + 8 * i;
            bytes[at..at + 8].copy_from_slice(&(i as u64).to_ne_bytes());
        }
    }
}

/// The alignment of every [`Storage`] allocation, in bytes.
pub const ALLOCATION_ALIGN: usize = 128;

/// The size of a huge page on x86-64 and (with 4 KiB base pages) AArch64 Linux.
const HUGE_PAGE: usize = 2 << 20;

/// The smallest allocation given pages of its own (see `Storage::map`).
const HUGE_PAGE_MIN: usize = 8 << 20;

/// Bytes of memory that kernels address directly: an allocation of host memory, or the
/// application's own memory used in place.
pub struct Storage {
    ptr: NonNull<u8>,
    len: usize,
    owner: Owner,
}

/// Who frees a [`Storage`]'s bytes.
enum Owner {
    /// The global allocator, with this layout.
    Heap(Layout),
    /// `munmap`, of this mapping.
    Mapping {
        base: *mut libc::c_void,
        size: usize,
    },
    /// The application (`CL_MEM_USE_HOST_PTR`).
    Application,
    /// The device that allocated it, through this function (a GPU's managed memory).
    Device(Option<Box<dyn FnOnce() + Send + Sync>>),
}

// SAFETY: Storage is a plain block of bytes; concurrent access to its contents follows the
// OpenCL memory model, which the commands that touch it are ordered by.
unsafe impl Send for Storage {}
// SAFETY: as above; `&Storage` only hands out the address.
unsafe impl Sync for Storage {}

impl Storage {
    /// Zero-filled memory of `len` bytes, aligned to [`ALLOCATION_ALIGN`].
    pub fn allocate(len: usize) -> Result<Storage, DeviceError> {
        Storage::new(len, true)
    }

    /// A new allocation of `len` bytes, zero-filled where `zeroed` (a mapping is zero until
    /// first touched in any case).
    fn new(len: usize, zeroed: bool) -> Result<Storage, DeviceError> {
        if len >= HUGE_PAGE_MIN {
            return Storage::map(len);
        }
        let layout = Layout::from_size_align(len.max(1), ALLOCATION_ALIGN)
            .map_err(|_| DeviceError::OutOfMemory)?;
        // SAFETY: the layout has a non-zero size.
        let raw = unsafe {
            if zeroed {
                std::alloc::alloc_zeroed(layout)
            } else {
                std::alloc::alloc(layout)
            }
        };
        let ptr = NonNull::new(raw).ok_or(DeviceError::OutOfMemory)?;
        Ok(Storage {
            ptr,
            len,
            owner: Owner::Heap(layout),
        })
    }

    /// Memory of `len` bytes, aligned to [`ALLOCATION_ALIGN`], whose contents are whatever
    /// the allocator left there: for a buffer the application initializes itself (OpenCL
    /// gives a new buffer's contents only where `host_ptr` defines them, API 5.2.1). Zeroing
    /// a megabyte took a fifth of the time of OpenCV's element-wise operations on 720p
    /// images, each of which makes its output and uploads its inputs into new buffers. Large
    /// allocations are mappings of their own, zero until first touched, as in
    /// [`Storage::allocate`].
    ///
    /// An allocation of at least [`RECYCLE_MIN`] bytes may be one a dropped storage gave
    /// back ([`Recycled`]): its pages are already the process's, where a new one would take
    /// a page fault and the kernel's zeroing on each first touch (a third of the time of
    /// OpenCV's `subtract` on 720p images, whose output is a new buffer on every call).
    pub fn allocate_undefined(len: usize) -> Result<Storage, DeviceError> {
        if len < RECYCLE_MIN {
            return Storage::new(len, false);
        }
        // Made with the capacity a recycled one must have, so that it can be one later.
        let capacity = recycle_capacity(len);
        let mut s = match Recycled::take(capacity) {
            Some(s) => s,
            None => match Storage::new(capacity, false) {
                Err(_) if Recycled::release_all() => Storage::new(capacity, false)?,
                s => s?,
            },
        };
        s.len = len;
        Ok(s)
    }

    /// A large allocation: pages of its own, zero until first touched, advised to be huge
    /// pages where the system grants them (Linux's transparent huge pages in `madvise` mode,
    /// the default of many distributions). A kernel streaming through a buffer of 4 KiB pages
    /// misses the TLB every 64 cache lines, and under virtualization each miss walks two page
    /// tables: copy and saxpy ran 20-30% faster on 2 MiB pages on a 2-core virtual machine.
    /// The advice changes where the memory is, never what it holds.
    ///
    /// Each allocation starts at its own offset past a huge page boundary (its *color*):
    /// on pages that are physically contiguous, two buffers starting at the same offset put
    /// `a[i]` and `b[i]` in the same cache set and the same memory bank, and a 2-D stencil
    /// reading `in` around `out[i]` ran at half speed on a 16-core Xeon until they differed.
    fn map(len: usize) -> Result<Storage, DeviceError> {
        /// How many colors, and how far apart: a page and two cache lines, so that both the
        /// cache set (bits 6 and up) and the offset in a 4 KiB page differ between colors.
        const COLORS: usize = 32;
        const COLOR_STEP: usize = 4096 + 128;
        static NEXT_COLOR: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let size = len
            .checked_add(HUGE_PAGE + COLORS * COLOR_STEP)
            .ok_or(DeviceError::OutOfMemory)?;
        // SAFETY: a new private anonymous mapping, no address asked for.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                size,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(DeviceError::OutOfMemory);
        }
        let color = NEXT_COLOR.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % COLORS;
        let aligned = (base as usize).next_multiple_of(HUGE_PAGE);
        let start = aligned + color * COLOR_STEP;
        let ptr = NonNull::new(start as *mut u8).ok_or(DeviceError::OutOfMemory)?;
        // SAFETY: the range, from a huge page boundary to the end of the allocation rounded
        // up to a page, lies within the mapping (aligned - base < HUGE_PAGE, and the mapping
        // has COLORS * COLOR_STEP bytes more than the color and the allocation need).
        #[cfg(target_os = "linux")]
        unsafe {
            let advised = (start - aligned + len).next_multiple_of(4096);
            libc::madvise(aligned as *mut libc::c_void, advised, libc::MADV_HUGEPAGE)
        };
        Ok(Storage {
            ptr,
            len,
            owner: Owner::Mapping { base, size },
        })
    }

    /// The application's memory at `ptr`, used in place; `None` for a null pointer.
    ///
    /// # Safety
    /// `ptr` must be valid for reads and writes of `len` bytes for as long as the storage
    /// lives.
    pub unsafe fn borrow_host(ptr: *mut u8, len: usize) -> Option<Storage> {
        Some(Storage {
            ptr: NonNull::new(ptr)?,
            len,
            owner: Owner::Application,
        })
    }

    /// Memory a device allocated at `ptr`, which `release` frees when the storage is
    /// dropped; `None` for a null pointer.
    ///
    /// # Safety
    /// `ptr` must be valid for reads and writes of `len` bytes from the host, and stay so
    /// until `release` runs.
    pub unsafe fn from_device(
        ptr: *mut u8,
        len: usize,
        release: Box<dyn FnOnce() + Send + Sync>,
    ) -> Option<Storage> {
        Some(Storage {
            ptr: NonNull::new(ptr)?,
            len,
            owner: Owner::Device(Some(release)),
        })
    }

    pub fn as_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Drop for Storage {
    fn drop(&mut self) {
        // What the allocation holds: a heap block, if it was made a page multiple for
        // recycling; a mapping always has room past its length rounded up to a page.
        let capacity = match &self.owner {
            Owner::Heap(layout) if layout.size() % 4096 == 0 => Some(layout.size()),
            Owner::Mapping { .. } => Some(recycle_capacity(self.len)),
            _ => None,
        };
        match capacity {
            Some(capacity) if capacity >= RECYCLE_MIN => {
                let owner = std::mem::replace(&mut self.owner, Owner::Application);
                Recycled::give(self.ptr, capacity, owner);
            }
            _ => self.owner.release(self.ptr),
        }
    }
}

impl Owner {
    /// Gives the bytes at `ptr` back to whoever owns them.
    fn release(&mut self, ptr: NonNull<u8>) {
        match self {
            // SAFETY: allocated in `allocate` with this layout, and freed only here.
            Owner::Heap(layout) => unsafe { std::alloc::dealloc(ptr.as_ptr(), *layout) },
            // SAFETY: mapped in `map` with this base and size, and unmapped only here.
            Owner::Mapping { base, size } => unsafe {
                libc::munmap(*base, *size);
            },
            Owner::Application => {}
            Owner::Device(release) => {
                if let Some(release) = release.take() {
                    release();
                }
            }
        }
    }
}

/// The smallest allocation [`Recycled`] keeps: below it the global allocator reuses freed
/// memory itself (glibc maps only blocks of 128 KiB and more afresh).
const RECYCLE_MIN: usize = 64 << 10;

/// The most bytes [`Recycled`] keeps at once.
const RECYCLE_BYTES: usize = 128 << 20;

/// The most allocations [`Recycled`] keeps at once.
const RECYCLE_COUNT: usize = 32;

/// What an allocation of `len` bytes (at least [`RECYCLE_MIN`]) holds, and what a recycled
/// one must hold to serve it: `len` rounded up to a page, so that buffers of nearly the same
/// size (image rows padded differently) share.
fn recycle_capacity(len: usize) -> usize {
    len.next_multiple_of(4096)
}

/// Allocations that dropped storages gave back, oldest first, for
/// [`Storage::allocate_undefined`] to hand out again; at most [`RECYCLE_COUNT`] of them and
/// [`RECYCLE_BYTES`] in all (past those, the oldest go back to the system).
struct Recycled {
    /// Each allocation's start, capacity in bytes and owner.
    blocks: std::collections::VecDeque<(NonNull<u8>, usize, Owner)>,
    bytes: usize,
}

// SAFETY: the blocks are plain memory that no one else refers to.
unsafe impl Send for Recycled {}

static RECYCLED: std::sync::Mutex<Recycled> = std::sync::Mutex::new(Recycled {
    blocks: std::collections::VecDeque::new(),
    bytes: 0,
});

impl Recycled {
    fn lock() -> std::sync::MutexGuard<'static, Recycled> {
        RECYCLED.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A kept allocation of exactly `capacity` bytes, if there is one.
    fn take(capacity: usize) -> Option<Storage> {
        let mut r = Recycled::lock();
        let i = r.blocks.iter().position(|&(_, c, _)| c == capacity)?;
        let (ptr, _, owner) = r.blocks.remove(i)?;
        r.bytes -= capacity;
        Some(Storage {
            ptr,
            len: capacity,
            owner,
        })
    }

    /// Keeps the allocation at `ptr`, releasing the oldest ones past the limits.
    fn give(ptr: NonNull<u8>, capacity: usize, owner: Owner) {
        let mut out = Vec::new();
        {
            let mut r = Recycled::lock();
            r.blocks.push_back((ptr, capacity, owner));
            r.bytes += capacity;
            while r.blocks.len() > RECYCLE_COUNT || r.bytes > RECYCLE_BYTES {
                let Some((p, c, o)) = r.blocks.pop_front() else {
                    break;
                };
                r.bytes -= c;
                out.push((p, o));
            }
        }
        for (p, mut o) in out {
            o.release(p);
        }
    }

    /// Releases every kept allocation (when a new one failed); whether there were any.
    fn release_all() -> bool {
        let blocks = {
            let mut r = Recycled::lock();
            r.bytes = 0;
            std::mem::take(&mut r.blocks)
        };
        let any = !blocks.is_empty();
        for (p, _, mut o) in blocks {
            o.release(p);
        }
        any
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dropped_allocations_serve_later_ones_of_their_size() {
        // An odd size, which no other test allocates.
        let len = (1 << 20) + 4321;
        let first = Storage::allocate_undefined(len).expect("allocates");
        assert_eq!(first.len(), len, "the length asked for, not the capacity");
        let at = first.as_ptr();
        drop(first);
        let again = Storage::allocate_undefined(len - 100).expect("allocates");
        assert_eq!(
            again.as_ptr(),
            at,
            "the same pages, a page's rounding apart"
        );
        assert_eq!(again.len(), len - 100);
        let other = Storage::allocate_undefined(len + 8192).expect("allocates");
        assert_ne!(other.as_ptr(), at, "a larger one is new");
        // A zeroed allocation is always new.
        drop(again);
        let zeroed = Storage::allocate(len).expect("allocates");
        // SAFETY: the storage holds `len` bytes.
        let bytes = unsafe { std::slice::from_raw_parts(zeroed.as_ptr(), zeroed.len()) };
        assert!(bytes.iter().all(|&b| b == 0));
    }

    #[test]
    fn recycling_keeps_to_its_limits() {
        let len = (3 << 20) + 777;
        let many: Vec<Storage> = (0..RECYCLE_COUNT + 8)
            .map(|_| Storage::allocate_undefined(len).expect("allocates"))
            .collect();
        drop(many);
        let r = Recycled::lock();
        assert!(r.blocks.len() <= RECYCLE_COUNT && r.bytes <= RECYCLE_BYTES);
        assert_eq!(r.bytes, r.blocks.iter().map(|b| b.1).sum::<usize>());
    }

    #[test]
    fn image_descriptor_layout() {
        // image.cl reads the fields at these offsets.
        use std::mem::offset_of;
        assert_eq!(std::mem::size_of::<ImageDescriptor>(), 64);
        assert_eq!(offset_of!(ImageDescriptor, width), 8);
        assert_eq!(offset_of!(ImageDescriptor, array_size), 20);
        assert_eq!(offset_of!(ImageDescriptor, row_pitch), 24);
        assert_eq!(offset_of!(ImageDescriptor, slice_pitch), 32);
        assert_eq!(offset_of!(ImageDescriptor, channel_order), 40);
        assert_eq!(offset_of!(ImageDescriptor, num_channels), 52);
        assert_eq!(offset_of!(ImageDescriptor, image_type), 56);
    }

    #[test]
    fn storage_is_aligned_and_zeroed() {
        let s = Storage::allocate(1000).expect("allocates");
        assert_eq!(s.as_ptr() as usize % ALLOCATION_ALIGN, 0);
        assert_eq!(s.len(), 1000);
        // SAFETY: the storage holds 1000 bytes.
        let bytes = unsafe { std::slice::from_raw_parts(s.as_ptr(), s.len()) };
        assert!(bytes.iter().all(|&b| b == 0));
    }

    #[test]
    fn large_storage_is_its_own_zeroed_pages() {
        let len = HUGE_PAGE_MIN + 12345;
        for _ in 0..2 {
            let s = Storage::allocate(len).expect("allocates");
            assert_eq!(s.as_ptr() as usize % ALLOCATION_ALIGN, 0);
            assert_eq!(s.len(), len);
            // SAFETY: the storage holds `len` bytes.
            let bytes = unsafe { std::slice::from_raw_parts_mut(s.as_ptr(), s.len()) };
            assert!(bytes.iter().all(|&b| b == 0));
            bytes[0] = 1;
            bytes[len - 1] = 1;
        }
    }

    #[test]
    fn a_null_host_pointer_is_no_storage() {
        // SAFETY: a null pointer is never dereferenced.
        assert!(unsafe { Storage::borrow_host(std::ptr::null_mut(), 8) }.is_none());
    }
}
