//! Handles: the C pointers that stand for runtime objects.
//!
//! A handle is the address of an `Arc`'d object (`Arc::into_raw`), whose first word is the
//! dispatch table. Every live handle is in a registry with its kind and its reference count
//! (the application's references; the runtime's own are `Arc` clones). A handle is looked up
//! before it is touched, so a NULL, stale or wrong-kind handle gets the object's
//! `CL_INVALID_*` code instead of a crash.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

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
    refs: Option<u32>,
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
    let ptr = Arc::into_raw(object);
    write(ptr as usize).insert(
        ptr as usize,
        Entry {
            kind: T::KIND,
            refs: Some(1),
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
        Some(Entry { kind, refs }) if *kind == T::KIND => {
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
    let last = {
        let mut shard = write(addr);
        match shard.get_mut(&addr) {
            Some(Entry { kind, refs }) if *kind == T::KIND => match refs {
                None => false,
                Some(n) if *n > 1 => {
                    *n -= 1;
                    false
                }
                Some(_) => {
                    shard.remove(&addr);
                    true
                }
            },
            _ => return Err(T::INVALID),
        }
    };
    if last {
        // SAFETY: the handle came from `Arc::into_raw` in `new_handle`, and it was just removed
        // from the registry, so this is the one place that gives its reference back. Dropping
        // happens outside the lock: destructors may call back into the API.
        drop(unsafe { Arc::from_raw(addr as *const T) });
    }
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
