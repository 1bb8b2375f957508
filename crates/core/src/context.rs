//! Contexts (`cl_context`): a set of devices, the properties the context was made with, the
//! error-notification callback, and the destructor callbacks.

use std::sync::Arc;

use crate::device::Device;
use crate::object::{DestructorStack, IcdHeader};

/// The context's `pfn_notify`: an error message and implementation-specific bytes.
pub type NotifyFn = Box<dyn Fn(&str, &[u8]) + Send + Sync>;

/// A context (`cl_context`).
#[repr(C)]
pub struct Context {
    icd: IcdHeader,
    pub devices: Vec<Arc<Device>>,
    /// The property list as the application gave it, without its terminating zero.
    pub properties: Vec<isize>,
    /// `CL_CONTEXT_INTEROP_USER_SYNC`.
    pub interop_user_sync: bool,
    notify: Option<NotifyFn>,
    destructors: DestructorStack,
}

impl Drop for Context {
    fn drop(&mut self) {
        // The SVM allocations the application left are freed with their context (svm.rs).
        crate::svm::release_context(self);
    }
}

impl Context {
    pub fn new(
        devices: Vec<Arc<Device>>,
        properties: Vec<isize>,
        interop_user_sync: bool,
        notify: Option<NotifyFn>,
    ) -> Arc<Context> {
        Arc::new(Context {
            icd: IcdHeader::new(),
            devices,
            properties,
            interop_user_sync,
            notify,
            destructors: DestructorStack::default(),
        })
    }

    pub fn has_device(&self, device: &Arc<Device>) -> bool {
        self.devices.iter().any(|d| Arc::ptr_eq(d, device))
    }

    /// Reports an error to the application's `pfn_notify`, if it gave one.
    pub fn notify(&self, message: &str) {
        if let Some(notify) = &self.notify {
            notify(message, &[]);
        }
    }

    /// `clSetContextDestructorCallback`: "Each call ... registers the specified callback
    /// function on a destructor callback stack associated with context. The registered
    /// callback functions are called in the reverse order in which they were registered."
    pub fn add_destructor(&self, callback: Box<dyn FnOnce() + Send>) {
        self.destructors.push(callback);
    }

    /// The largest `CL_DEVICE_MAX_MEM_ALLOC_SIZE` of the context's devices.
    pub fn max_mem_alloc_size(&self) -> u64 {
        self.devices
            .iter()
            .map(|d| d.info.max_mem_alloc_size)
            .max()
            .unwrap_or(0)
    }
}

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context")
            .field("devices", &self.devices)
            .finish()
    }
}
