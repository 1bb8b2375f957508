//! Shared virtual memory (API 5.6): the allocations `clSVMAlloc` makes. An SVM allocation is
//! memory the host and every device of the context address at the same address, which
//! kernels receive by address: host memory in a context of the CPU device alone, which it
//! addresses directly; a GPU's managed memory in a context that holds a GPU
//! (`DeviceBackend::allocate`), which the host addresses too and whose pages the driver moves
//! to the side that touches them. Coarse-grain and fine-grain buffer sharing hold by
//! construction. The allocations are kept in one registry for the process, ordered by
//! address, so that a pointer into the middle of one finds it (`clSetKernelArgSVMPointer`
//! and the SVM commands take such pointers).

use std::alloc::Layout;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard, Weak};

use ferrocl_device::Storage;

use crate::context::Context;

/// `cl_svm_mem_flags` bits (API Table 41) and the memory flags they share.
pub mod flags {
    pub const READ_WRITE: u64 = 1 << 0;
    pub const WRITE_ONLY: u64 = 1 << 1;
    pub const READ_ONLY: u64 = 1 << 2;
    pub const FINE_GRAIN_BUFFER: u64 = 1 << 10;
    pub const ATOMICS: u64 = 1 << 11;
}

/// `CL_DEVICE_SVM_CAPABILITIES` bits (API 4.2, Table 5).
pub mod caps {
    pub const COARSE_GRAIN_BUFFER: u64 = 1 << 0;
    pub const FINE_GRAIN_BUFFER: u64 = 1 << 1;
    pub const FINE_GRAIN_SYSTEM: u64 = 1 << 2;
    pub const ATOMICS: u64 = 1 << 3;
}

/// The alignment of an allocation asked for with alignment 0: "equal to the size of largest
/// data type supported by the OpenCL implementation" (long16, 128 bytes).
pub const DEFAULT_ALIGN: usize = 128;

/// One allocation.
struct Allocation {
    /// The size asked for.
    size: usize,
    memory: Memory,
    flags: u64,
    context: Weak<Context>,
}

/// Where an allocation's bytes come from.
enum Memory {
    /// The global allocator, with this layout.
    Heap(Layout),
    /// A device (a GPU's managed memory), freed when dropped.
    Device(Storage),
}

impl Memory {
    /// Frees the bytes at `base`, which this memory holds.
    fn free(self, base: usize) {
        match self {
            // SAFETY: `base` was returned by `alloc_zeroed` with this layout, and each
            // allocation is freed once (it has left the registry).
            Memory::Heap(layout) => unsafe { std::alloc::dealloc(base as *mut u8, layout) },
            Memory::Device(storage) => drop(storage),
        }
    }
}

/// What a pointer into an SVM allocation finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// The address `clSVMAlloc` returned.
    pub base: usize,
    /// The size it was asked for.
    pub size: usize,
    pub flags: u64,
}

static ALLOCATIONS: Mutex<BTreeMap<usize, Allocation>> = Mutex::new(BTreeMap::new());

fn registry() -> MutexGuard<'static, BTreeMap<usize, Allocation>> {
    ALLOCATIONS.lock().unwrap_or_else(|e| e.into_inner())
}

/// `clSVMAlloc` once its arguments are checked: `size` bytes (at least 1) aligned to `align`
/// (a power of two), zero-filled, for `context`; `None` when the host has no such memory.
pub fn alloc(context: &Arc<Context>, flags: u64, size: usize, align: usize) -> Option<usize> {
    let align = align.max(DEFAULT_ALIGN);
    let gpu = context
        .devices
        .iter()
        .find(|d| d.backend().memory().is_some());
    let (base, memory) = match gpu {
        Some(device) => {
            // The device's allocation, with room to start at the alignment asked for.
            let storage = device.backend().allocate(size.checked_add(align)?).ok()?;
            let base = (storage.as_ptr() as usize).next_multiple_of(align);
            (base, Memory::Device(storage))
        }
        None => {
            let layout = Layout::from_size_align(size.max(1), align).ok()?;
            // SAFETY: the layout's size is not zero.
            let p = unsafe { std::alloc::alloc_zeroed(layout) };
            if p.is_null() {
                return None;
            }
            (p as usize, Memory::Heap(layout))
        }
    };
    registry().insert(
        base,
        Allocation {
            size: size.max(1),
            memory,
            flags,
            context: Arc::downgrade(context),
        },
    );
    Some(base)
}

/// `clSVMFree`: frees the allocation that starts at `base` if it is one of `context`'s, and
/// says whether it was. (5.6.1: "svm_pointer must be the value returned by a call to
/// clSVMAlloc"; anything else is left alone rather than freed.)
pub fn free(context: &Arc<Context>, base: usize) -> bool {
    let mut r = registry();
    let ours = r
        .get(&base)
        .is_some_and(|a| std::ptr::eq(a.context.as_ptr(), Arc::as_ptr(context)));
    if !ours {
        return false;
    }
    let a = r.remove(&base).expect("present");
    drop(r);
    a.memory.free(base);
    true
}

/// Frees every allocation of `context`, which is being destroyed. The spec leaves freeing to
/// the application (5.6.1: `clSVMFree`), but an allocation outlives no use once its context is
/// gone: "svm_pointers ... allocated from the same context from which command_queue was
/// created" is the rule of every command that takes one, and no queue of the context is left.
/// Freed here, it neither leaks nor answers for a later context made at the same address.
pub(crate) fn release_context(context: *const Context) {
    let mut r = registry();
    let dead: Vec<usize> = r
        .iter()
        .filter(|(_, a)| std::ptr::eq(a.context.as_ptr(), context))
        .map(|(&base, _)| base)
        .collect();
    let freed: Vec<(usize, Memory)> = dead
        .into_iter()
        .filter_map(|base| r.remove(&base).map(|a| (base, a.memory)))
        .collect();
    drop(r);
    for (base, memory) in freed {
        memory.free(base);
    }
}

/// The allocation of `context` that holds the byte at `ptr`, if any.
pub fn find(context: &Arc<Context>, ptr: usize) -> Option<Region> {
    let r = registry();
    let (&base, a) = r.range(..=ptr).next_back()?;
    let size = a.size;
    (ptr < base + size && std::ptr::eq(a.context.as_ptr(), Arc::as_ptr(context))).then_some(
        Region {
            base,
            size,
            flags: a.flags,
        },
    )
}

/// Whether `[ptr, ptr + len)` lies inside one allocation of `context`.
pub fn contains(context: &Arc<Context>, ptr: usize, len: usize) -> bool {
    find(context, ptr).is_some_and(|r| {
        ptr.checked_add(len)
            .is_some_and(|end| end <= r.base + r.size)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registered(base: usize) -> bool {
        registry().contains_key(&base)
    }

    /// Allocations the application did not free are freed with their context.
    #[test]
    fn allocations_go_with_their_context() {
        let kept = Context::new(Vec::new(), Vec::new(), false, None);
        let gone = Context::new(Vec::new(), Vec::new(), false, None);
        let a = alloc(&gone, flags::READ_WRITE, 4096, 0).expect("memory");
        let b = alloc(&gone, flags::READ_WRITE, 64, 0).expect("memory");
        let c = alloc(&kept, flags::READ_WRITE, 64, 0).expect("memory");
        assert!(registered(a) && registered(b) && registered(c));
        drop(gone);
        assert!(!registered(a) && !registered(b));
        assert_eq!(find(&kept, c).map(|r| r.base), Some(c));
        assert!(free(&kept, c));
        assert!(!registered(c));
    }
}
