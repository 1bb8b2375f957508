//! Handles: the C pointers that stand for runtime objects.
//!
//! A handle is the address of an `Arc`'d object (`Arc::into_raw`), whose first word is the
//! dispatch table. Every live handle is in a registry with its kind and its reference count
//! (the application's references; the runtime's own are `Arc` clones). A handle is looked up
//! before it is touched, so a NULL, stale or wrong-kind handle gets the object's
//! `CL_INVALID_*` code instead of a crash.
//!
//! An object whose application references are all released lives on while objects attached
//! to it hold it (4.4: "After the reference count becomes zero and all the objects attached
//! to *context* (such as memory objects, command-queues) are released, the *context* is
//! deleted"): a command-queue's `CL_QUEUE_CONTEXT`, a kernel's `CL_KERNEL_PROGRAM` or a
//! buffer's `CL_MEM_CONTEXT` can still be queried and retained then. Its handle stays in the
//! registry with a weak reference, so the object is dropped when its last holder lets go,
//! exactly as if it had no handle; the weak entries whose object is gone are swept out.

use std::any::Any;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock, Weak};

use ferrocl_core::program::Program;
use ferrocl_core::{
    ClError, ClResult, CommandQueue, Context, Device, Event, Kernel, MemObject, Sampler,
};

/// The kinds of API object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Device,
    Context,
    CommandQueue,
    Mem,
    Event,
    Program,
    Kernel,
    Sampler,
}

/// A runtime type that has handles.
pub trait ClObject: Send + Sync + 'static {
    const KIND: Kind;
    /// The error for an invalid handle of this kind.
    const INVALID: ClError;
}

macro_rules! cl_object {
    ($($ty:ty => $kind:ident, $err:ident;)*) => {
        $(impl ClObject for $ty {
            const KIND: Kind = Kind::$kind;
            const INVALID: ClError = ClError::$err;
        })*
    };
}

cl_object! {
    Device => Device, InvalidDevice;
    Context => Context, InvalidContext;
    CommandQueue => CommandQueue, InvalidCommandQueue;
    MemObject => Mem, InvalidMemObject;
    Event => Event, InvalidEvent;
    Program => Program, InvalidProgram;
    Kernel => Kernel, InvalidKernel;
    Sampler => Sampler, InvalidSampler;
}

struct Entry {
    kind: Kind,
    /// The application's references; `None` for objects that live forever (root devices).
    /// While it is above zero the registry owns one strong reference of the object (the
    /// handle, made by `Arc::into_raw`).
    refs: Option<u32>,
    /// Set when `refs` fell to zero while the runtime still held the object: the registry
    /// then owns this weak reference instead of a strong one.
    attached: Option<Weak<dyn Any + Send + Sync>>,
}

/// The addresses of the entries that hold a weak reference, to be swept when their object is
/// gone; `SWEEP_AT` is the set's size at which the next sweep runs (twice the size that the
/// last one left, so that sweeping costs a constant per entry on average).
static ATTACHED: Mutex<Option<HashSet<usize>>> = Mutex::new(None);
static ATTACHED_LEN: AtomicUsize = AtomicUsize::new(0);
static SWEEP_AT: AtomicUsize = AtomicUsize::new(MIN_SWEEP);
const MIN_SWEEP: usize = 64;

/// Removes the weak entries whose object has been dropped, freeing their allocation.
fn sweep() {
    let mut set = ATTACHED.lock().unwrap_or_else(|e| e.into_inner());
    let Some(addrs) = set.as_mut() else { return };
    addrs.retain(|&addr| {
        let mut shard = write(addr);
        let live = match shard.get(&addr) {
            Some(Entry {
                attached: Some(weak),
                ..
            }) => weak.strong_count() > 0,
            // Retained again (a strong entry now), or already gone.
            _ => return false,
        };
        if !live {
            shard.remove(&addr);
        }
        live
    });
    ATTACHED_LEN.store(addrs.len(), Ordering::Relaxed);
    SWEEP_AT.store((2 * addrs.len()).max(MIN_SWEEP), Ordering::Relaxed);
}

fn note_attached(addr: usize) {
    let mut set = ATTACHED.lock().unwrap_or_else(|e| e.into_inner());
    let addrs = set.get_or_insert_with(HashSet::new);
    addrs.insert(addr);
    ATTACHED_LEN.store(addrs.len(), Ordering::Relaxed);
}

const SHARDS: usize = 16;

struct Registry {
    shards: [RwLock<HashMap<usize, Entry>>; SHARDS],
}

static REGISTRY: std::sync::LazyLock<Registry> = std::sync::LazyLock::new(|| Registry {
    shards: std::array::from_fn(|_| RwLock::new(HashMap::new())),
});

fn shard(addr: usize) -> &'static RwLock<HashMap<usize, Entry>> {
    // Objects are at least 16-byte aligned; mix the higher bits.
    &REGISTRY.shards[(addr >> 4) % SHARDS]
}

fn read(addr: usize) -> std::sync::RwLockReadGuard<'static, HashMap<usize, Entry>> {
    shard(addr).read().unwrap_or_else(|e| e.into_inner())
}

fn write(addr: usize) -> std::sync::RwLockWriteGuard<'static, HashMap<usize, Entry>> {
    shard(addr).write().unwrap_or_else(|e| e.into_inner())
}

/// Makes a new handle for `object`, with one application reference.
pub fn new_handle<T: ClObject, H>(object: Arc<T>) -> *mut H {
    if ATTACHED_LEN.load(Ordering::Relaxed) >= SWEEP_AT.load(Ordering::Relaxed) {
        sweep();
    }
    let ptr = Arc::into_raw(object);
    write(ptr as usize).insert(
        ptr as usize,
        Entry {
            kind: T::KIND,
            refs: Some(1),
            attached: None,
        },
    );
    ptr as *mut H
}

/// Registers an object the runtime keeps forever (root devices); retain and release of it
/// do nothing.
pub fn register_permanent<T: ClObject>(object: &Arc<T>) {
    let addr = Arc::as_ptr(object) as usize;
    write(addr).insert(
        addr,
        Entry {
            kind: T::KIND,
            refs: None,
            attached: None,
        },
    );
}

/// The handle that stands for `object` (for queries that return a related object).
pub fn handle_of<T, H>(object: &Arc<T>) -> *mut H {
    Arc::as_ptr(object) as *mut H
}

/// The object behind a handle, or the kind's `CL_INVALID_*`.
pub fn get<T: ClObject, H>(handle: *mut H) -> ClResult<Arc<T>> {
    let addr = handle as usize;
    if addr == 0 {
        return Err(T::INVALID);
    }
    let shard = read(addr);
    match shard.get(&addr) {
        Some(Entry {
            kind,
            attached: Some(weak),
            ..
        }) if *kind == T::KIND => weak
            .upgrade()
            .and_then(|object| object.downcast::<T>().ok())
            .ok_or(T::INVALID),
        Some(entry) if entry.kind == T::KIND => {
            // SAFETY: the registry holds handles made by `Arc::into_raw` (or `Arc::as_ptr` of an
            // object kept alive forever) of type T (the kind matched), and the shard's lock
            // keeps a concurrent release from dropping the registry's reference meanwhile.
            unsafe {
                Arc::increment_strong_count(addr as *const T);
                Ok(Arc::from_raw(addr as *const T))
            }
        }
        _ => Err(T::INVALID),
    }
}

/// The objects behind a list of handles (`num` entries at `list`).
///
/// # Safety
/// `list` must point at `num` readable handles when `num` is not zero.
pub unsafe fn get_list<T: ClObject, H>(list: *const *mut H, num: u32) -> ClResult<Vec<Arc<T>>> {
    if num == 0 {
        return Ok(Vec::new());
    }
    // SAFETY: the caller's contract.
    let handles = unsafe { std::slice::from_raw_parts(list, num as usize) };
    handles.iter().map(|&h| get::<T, H>(h)).collect()
}

/// `clRetain*`.
pub fn retain<T: ClObject, H>(handle: *mut H) -> ClResult<()> {
    let addr = handle as usize;
    let mut shard = write(addr);
    match shard.get_mut(&addr) {
        Some(
            entry @ Entry {
                attached: Some(_), ..
            },
        ) if entry.kind == T::KIND => {
            // An object still attached to another: the application holds it again, and the
            // registry a strong reference (the same address, `Arc::into_raw`).
            let weak = entry.attached.take().expect("matched Some");
            match weak
                .upgrade()
                .and_then(|object| object.downcast::<T>().ok())
            {
                Some(object) => {
                    let _ = Arc::into_raw(object);
                    entry.refs = Some(1);
                    Ok(())
                }
                None => {
                    shard.remove(&addr);
                    Err(T::INVALID)
                }
            }
        }
        Some(Entry { kind, refs, .. }) if *kind == T::KIND => {
            if let Some(n) = refs {
                *n = n.checked_add(1).ok_or(ClError::OutOfHostMemory)?;
            }
            Ok(())
        }
        _ => Err(T::INVALID),
    }
}

/// `clRelease*`: the last application reference removes the handle.
pub fn release<T: ClObject, H>(handle: *mut H) -> ClResult<()> {
    let addr = handle as usize;
    let (last, attached) = {
        let mut shard = write(addr);
        match shard.get_mut(&addr) {
            Some(entry) if entry.kind == T::KIND => match entry.refs {
                None => (None, false),
                // Released more often than retained (the application's error).
                Some(_) if entry.attached.is_some() => return Err(T::INVALID),
                Some(ref mut n) if *n > 1 => {
                    *n -= 1;
                    (None, false)
                }
                Some(_) => {
                    // SAFETY: the handle came from `Arc::into_raw` (in `new_handle` or
                    // `retain`), and the application's last reference goes now, so this is the
                    // one place that gives the registry's strong reference back.
                    let object = unsafe { Arc::from_raw(addr as *const T) };
                    if Arc::strong_count(&object) > 1 {
                        // Other objects hold it: it stays valid until they let go.
                        let weak: Weak<T> = Arc::downgrade(&object);
                        entry.refs = Some(0);
                        entry.attached = Some(weak as Weak<dyn Any + Send + Sync>);
                        (Some(object), true)
                    } else {
                        shard.remove(&addr);
                        (Some(object), false)
                    }
                }
            },
            _ => return Err(T::INVALID),
        }
    };
    if attached {
        note_attached(addr);
    }
    // Dropping happens outside the lock: destructors may call back into the API.
    drop(last);
    Ok(())
}

/// The application's reference count of a handle (`CL_*_REFERENCE_COUNT`); 1 for objects
/// that live forever.
pub fn ref_count<T: ClObject, H>(handle: *mut H) -> ClResult<u32> {
    let addr = handle as usize;
    match read(addr).get(&addr) {
        Some(entry) if entry.kind == T::KIND => Ok(entry.refs.unwrap_or(1)),
        _ => Err(T::INVALID),
    }
}
