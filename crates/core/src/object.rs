//! The header every API object starts with.
//!
//! An OpenCL handle is a pointer to an object whose first word is the ICD dispatch table
//! (`cl_khr_icd`). The runtime does not know the table; the `icd` crate registers its address
//! once with [`set_dispatch`], and every object built afterwards carries it.

use std::sync::atomic::{AtomicUsize, Ordering};

static DISPATCH: AtomicUsize = AtomicUsize::new(0);

/// Registers the address of the ICD dispatch table that new objects carry as their first word.
pub fn set_dispatch(table_address: usize) {
    DISPATCH.store(table_address, Ordering::Release);
}

/// The first field of every `#[repr(C)]` API object: the dispatch-table address.
#[repr(C)]
#[derive(Debug)]
pub struct IcdHeader {
    dispatch: usize,
}

impl IcdHeader {
    pub fn new() -> IcdHeader {
        IcdHeader {
            dispatch: DISPATCH.load(Ordering::Acquire),
        }
    }
}

impl Default for IcdHeader {
    fn default() -> Self {
        IcdHeader::new()
    }
}

/// The destructor callbacks of an object (`clSetContextDestructorCallback`,
/// `clSetMemObjectDestructorCallback`): "called in the reverse order in which they were
/// registered", when the object is deleted — that is, when this stack is dropped.
#[derive(Default)]
pub struct DestructorStack(std::sync::Mutex<Vec<Box<dyn FnOnce() + Send>>>);

impl DestructorStack {
    pub fn push(&self, callback: Box<dyn FnOnce() + Send>) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(callback);
    }
}

impl Drop for DestructorStack {
    fn drop(&mut self) {
        let callbacks = std::mem::take(self.0.get_mut().unwrap_or_else(|e| e.into_inner()));
        for callback in callbacks.into_iter().rev() {
            callback();
        }
    }
}
